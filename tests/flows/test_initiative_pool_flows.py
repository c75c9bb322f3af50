"""The `fistful` initiative pool setting (RULES.md §7): `/config set initiative_pool`
takes trait names read by the pool parser, and `/init join` without a pool (and the
Join button) rolls that pool from the member's sheet in a `fistful` channel."""

from __future__ import annotations

import pytest

from bot.edge import ids
from bot.flows import characters, config, initiative
from engine.models import Ruleset
from engine.parser import parse_pool_names
from engine.records import DEFAULT_INITIATIVE_POOL, ChannelOption
from engine.table.initiative import Tracker
from tests.flows.conftest import ALICE, CHANNEL, GUILD, STORYTELLER, Table


async def create(table: Table, traits: str, template: Ruleset | None = None) -> None:
    said = await table.run(characters.create(table.deps, table.ctx(), "Mara", template))
    assert "Created" in said.answer.text, said.answer.text
    said = await table.run(characters.set_traits(table.deps, table.ctx(), traits=traits))
    assert "→" in said.answer.text, said.answer.text


async def use(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset))


async def set_pool(table: Table, value: str, channel: int = CHANNEL) -> str:
    said = await table.run(config.set_option(
        table.deps, table.ctx(STORYTELLER, channel_id=channel), "initiative_pool", value))
    return said.answer.text


async def setting(table: Table, channel: int = CHANNEL, parent: int | None = None) -> str:
    found = await table.store.read(lambda tx: tx.settings.config(GUILD, channel, parent))
    return found.initiative_pool


async def tracker(table: Table) -> Tracker:
    record = await table.store.read(lambda tx: tx.initiative.open_in(GUILD, CHANNEL))
    assert record is not None
    return record.state(Tracker)


async def test_the_setting_is_kept_as_trait_names_and_shown(table: Table) -> None:
    assert await setting(table) == DEFAULT_INITIATIVE_POOL == "Dexterity + Composure"
    said = await set_pool(table, " Wits+Composure ")
    assert said == (f"Fistful initiative pool in <#{CHANNEL}> is now Wits + Composure"
                    " (it was Dexterity + Composure).")
    assert await setting(table) == "Wits + Composure"
    shown = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert "Fistful initiative pool:** Wits + Composure" in shown.answer.text
    assert await setting(table, 55, CHANNEL) == "Wits + Composure", "a thread follows"


@pytest.mark.parametrize("value", ["Wits 3 + Composure", "7", "3d10", "Wits +", "+"])
async def test_a_pool_that_is_not_trait_names_is_refused_saying_what_is_accepted(
    table: Table, value: str
) -> None:
    said = await set_pool(table, value)
    assert "is not a value for Fistful initiative pool" in said, "named as its choice shows"
    assert "trait names such as Wits + Composure" in said
    assert await setting(table) == DEFAULT_INITIATIVE_POOL, "nothing changed"


async def test_a_player_cannot_set_it(table: Table) -> None:
    said = await table.run(config.set_option(
        table.deps, table.ctx(ALICE), "initiative_pool", "Wits + Composure"))
    assert said.answer.ephemeral and "Manage Channels" in said.answer.text
    assert await setting(table) == DEFAULT_INITIATIVE_POOL


async def test_fistful_join_without_a_pool_rolls_the_channels_pool_from_the_sheet(
    table: Table,
) -> None:
    await use(table, Ruleset.FISTFUL)
    await set_pool(table, "wits + composure")
    await create(table, "Wits 3, Composure 2, Dexterity 1")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(7, 2, 6, 1, 9)
    said = await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    assert not said.answer.ephemeral, said.answer.text
    mara = (await tracker(table)).combatants[0]
    assert mara.name == "Mara" and mara.fixed == 5, "Wits 3 + Composure 2, not Dexterity"
    assert mara.total == 3, "6-10 succeed on initiative"
    assert table.faces.left == 0


async def test_the_join_button_rolls_the_channels_pool_too(table: Table) -> None:
    await use(table, Ruleset.FISTFUL)
    await set_pool(table, "Dexterity + Wits")
    await create(table, "Dexterity 2, Wits 4")
    start = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    press = ids.parse(next(i for i in start.answer.custom_ids if ":join:" in i))
    assert press is not None
    table.faces.add(*([2] * 6))
    pressed = await table.run(initiative.card_pressed(table.deps, table.ctx(), press))
    assert not pressed.answer.ephemeral, pressed.answer.text
    assert (await tracker(table)).combatants[0].fixed == 6


@pytest.mark.parametrize("typed", [True, False], ids=["typed pool", "channel's pool"])
async def test_a_pool_naming_a_skill_at_zero_dots_rolls_unskilled(
    table: Table, typed: bool
) -> None:
    """RULES.md §6: a named Skill at 0 dots makes a `fistful` roll unskilled; §7: then the
    initiative roll's 1s eat successes. Dexterity 2 + Athletics 0 rolling 7 and 1: the 1
    eats the 7, as /roll of the same pool reads it."""
    await use(table, Ruleset.FISTFUL)
    await set_pool(table, "Dexterity + Athletics")
    await create(table, "Dexterity 2, Athletics 0")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(7, 1)
    pool = parse_pool_names("Dexterity + Athletics") if typed else None
    said = await table.run(initiative.join(table.deps, table.ctx(), pool, 0))
    assert not said.answer.ephemeral, said.answer.text
    mara = (await tracker(table)).combatants[0]
    assert (mara.fixed, mara.faces, mara.total) == (2, (7, 1), 0)


async def test_a_typed_pool_wins_over_the_setting(table: Table) -> None:
    await use(table, Ruleset.FISTFUL)
    await set_pool(table, "Wits + Composure")
    await create(table, "Wits 3, Composure 2, Dexterity 4")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(*([2] * 4))
    await table.run(initiative.join(table.deps, table.ctx(), parse_pool_names("Dexterity"), 0))
    assert (await tracker(table)).combatants[0].fixed == 4


async def test_a_setting_the_sheet_cannot_read_refuses_the_join(table: Table) -> None:
    await use(table, Ruleset.FISTFUL)
    await set_pool(table, "Wits + Alertness")
    await create(table, "Wits 3")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    said = await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    assert said.answer.ephemeral and "Alertness" in said.answer.text
    assert (await tracker(table)).combatants == ()


async def test_cofd_keeps_the_sheets_initiative_whatever_the_setting(table: Table) -> None:
    await set_pool(table, "Wits + Composure")
    await create(table, "Wits 4, Composure 2, Dexterity 1")
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    table.faces.add(5)
    await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    assert (await tracker(table)).combatants[0].fixed == 3, "Dexterity 1 + Composure 2"


@pytest.mark.parametrize(
    ("fight", "now", "fixed"),
    [(Ruleset.V20, Ruleset.COFD, 4), (Ruleset.COFD, Ruleset.V20, 3)],
    ids=["v20 fight in a cofd channel", "cofd fight in a v20 channel"],
)
async def test_a_fight_keeps_its_rulesets_initiative_when_the_channel_changes_ruleset(
    table: Table, fight: Ruleset, now: Ruleset, fixed: int,
) -> None:
    """A tracker rolls by the ruleset it was opened in (RULES.md §7), so a member joining
    after the channel changed ruleset enters with that fight's initiative: a `v20` fight's
    Dexterity 3 + Wits 1, a `cofd` fight's Dexterity 3 + Composure 0, not the channel's
    new ruleset's."""
    await use(table, fight)
    await create(table, "Dexterity 3, Wits 1", template=Ruleset.V20)
    await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    await use(table, now)
    table.faces.add(5)
    said = await table.run(initiative.join(table.deps, table.ctx(), None, 0))
    assert not said.answer.ephemeral, said.answer.text
    assert (await tracker(table)).combatants[0].fixed == fixed


async def test_the_value_suggestions_offer_pools(table: Table) -> None:
    offered = config.value_suggestions("initiative_pool", "wits")
    assert ("Wits + Composure: fistful initiative rolls Wits + Composure",
            "Wits + Composure") in offered
