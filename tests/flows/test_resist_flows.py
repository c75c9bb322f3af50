"""Resistance from a target's sheet (RULES.md §6 "Resistance"): ``resist`` names Resolve,
Stamina, Composure or Defense and ``resist_target`` says whose sheet (a member's active
character here, or a character's name in this server); every problem is refused before
any die is drawn."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from bot.flows import characters, extended, rolls, saved, teamwork
from bot.render.refusals import refusal_text
from engine.models import Ruleset
from engine.parser import parse_pool_names
from engine.records import ActionRecord, ChannelOption
from engine.refusals import Refusal, RefusalCode
from engine.table.extended import ExtendedAction
from engine.table.teamwork import TeamworkAction
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Recorder, Table
from tests.flows.test_contest_flows import action_id

OTHER_GUILD = 1_000_000_000_000_000_099
MENTION_BOB = f"<@{BOB}>"


async def create(table: Table, name: str, user: int = ALICE, traits: str = "",
                 template: Ruleset | None = None, guild: int = GUILD) -> None:
    ctx = replace(table.ctx(user), guild_id=guild)
    said = await table.run(characters.create(table.deps, ctx, name, template))
    assert "Created" in said.answer.text, said.answer.text
    if traits:
        said = await table.run(characters.set_traits(table.deps, ctx, traits=traits))
        assert "→" in said.answer.text, said.answer.text


async def roll(table: Table, pool: str, user: int = ALICE, **options: Any) -> Recorder:
    return await table.run(rolls.roll(
        table.deps, table.ctx(user), rolls.ByName(parse_pool_names(pool), options),
        label=None, private=False))


async def rolled(table: Table) -> bool:
    """Whether the table has stored a roll (each refusal here comes before any roll)."""
    return await table.store.read(lambda tx: tx.rolls.get(1)) is not None


async def assert_refused(table: Table, said: Recorder, refusal: Refusal) -> None:
    assert said.answer.ephemeral
    assert said.answer.text == f"That roll cannot be made: {refusal_text(refusal)}."
    assert not await rolled(table), "nothing rolled"
    assert table.faces.left == 7, "no die drawn"


@pytest.fixture
def dice(table: Table) -> Table:
    table.faces.add(8, 8, 2, 9, 3, 4, 10)
    return table


async def test_a_named_resist_subtracts_the_targets_trait_and_says_whose(dice: Table) -> None:
    table = dice
    await create(table, "Mara", ALICE, "Strength 3, Brawl 3")
    await create(table, "Bram", BOB, "Composure 3")
    said = await roll(table, "Strength + Brawl", resist="Composure", resist_target=MENTION_BOB)
    assert not said.answer.ephemeral, said.answer.text
    text = said.answer.text
    assert "-3 dice: resistance" in text
    assert "Resistance: Composure of Bram, from the sheet" in text
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None and record.result.breakdown is not None
    assert record.result.breakdown.dice == 3, "6 from Mara's sheet - Bram's Composure 3"
    assert record.result.request.resist == 3
    assert table.faces.left == 4


async def test_a_character_named_in_this_server_is_a_target_and_prefixes_name_the_trait(
    dice: Table,
) -> None:
    table = dice
    await create(table, "Old Bram", BOB, "Wits 2, Dexterity 4, Athletics 2")
    said = await roll(table, "6", resist="def", resist_target="  old   BRAM ")
    assert not said.answer.ephemeral, said.answer.text
    assert "Resistance: Defense of Old Bram, from the sheet" in said.answer.text
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None and record.result.request.resist == 4, "Wits 2 + Athletics 2"


async def test_an_npc_of_the_storyteller_is_a_target_by_name(dice: Table) -> None:
    table = dice
    said = await table.run(characters.create(table.deps, table.ctx(STORYTELLER), "Goblin",
                                             npc=True))
    assert "Created" in said.answer.text
    said = await roll(table, "5", resist="Stamina", resist_target="Goblin")
    assert "Resistance: Stamina of Goblin" in said.answer.text


async def test_a_named_resist_without_a_target_is_refused(dice: Table) -> None:
    said = await roll(dice, "5", resist="composure")
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_NO_TARGET, trait="Composure"))
    assert "needs resist_target" in said.answer.text


async def test_a_target_member_without_a_character_is_refused(dice: Table) -> None:
    said = await roll(dice, "5", resist="Composure", resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TARGET_NO_CHARACTER))


async def test_a_trait_other_than_the_four_is_refused(dice: Table) -> None:
    await create(dice, "Bram", BOB)
    said = await roll(dice, "5", resist="Wits", resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TRAIT, trait="Wits"))


async def test_a_target_in_another_server_is_refused(dice: Table) -> None:
    await create(dice, "Bram", BOB, guild=OTHER_GUILD)
    said = await roll(dice, "5", resist="Composure", resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TARGET_NO_CHARACTER))
    said = await roll(dice, "5", resist="Composure", resist_target="Bram")
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TARGET_UNKNOWN, name="Bram"))
    assert "no character in this server is named “Bram”" in said.answer.text


async def test_a_name_two_characters_share_is_refused_asking_for_the_member(
    dice: Table,
) -> None:
    await create(dice, "Twin", ALICE)
    await create(dice, "Twin", BOB)
    said = await roll(dice, "5", resist="Resolve", resist_target="twin")
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TARGET_AMBIGUOUS,
                                                name="Twin", count=2))


@pytest.mark.parametrize("resist", [None, "2"])
async def test_a_target_without_a_named_resist_is_refused(
    dice: Table, resist: str | None
) -> None:
    await create(dice, "Bram", BOB)
    said = await roll(dice, "5", resist=resist, resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_TARGET_ALONE))


@pytest.mark.parametrize("ruleset", [Ruleset.V20, Ruleset.FISTFUL])
async def test_other_rulesets_refuse_a_named_resist_as_a_foreign_option(
    dice: Table, ruleset: Ruleset
) -> None:
    await dice.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, ruleset))
    await create(dice, "Bram", BOB)
    said = await roll(dice, "5", resist="Composure", resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.OPTION_NOT_IN_RULESET,
                                                options="resist", ruleset=ruleset.value))


async def test_a_target_sheet_without_the_trait_is_refused(dice: Table) -> None:
    await create(dice, "Lucita", BOB, template=Ruleset.V20)
    said = await roll(dice, "5", resist="Composure", resist_target=MENTION_BOB)
    await assert_refused(dice, said, Refusal.of(RefusalCode.RESIST_NOT_ON_SHEET,
                                                trait="Composure", character="Lucita"))


async def test_a_typed_resist_is_still_a_number_of_dice(dice: Table) -> None:
    said = await roll(dice, "5", resist=" 2 ")
    assert "-2 dice: resistance" in said.answer.text
    assert "Resistance:" not in said.answer.text, "no sheet named"


@pytest.mark.parametrize("typed", ["101", "-1", "99999999999999999999"])
async def test_a_typed_resist_out_of_bounds_is_refused_as_declared_bounds_are(
    dice: Table, typed: str
) -> None:
    said = await roll(dice, "5", resist=typed)
    assert said.answer.ephemeral
    assert said.answer.text == "resist must be 0 to 100."
    assert not await rolled(dice) and dice.faces.left == 7


async def test_a_resisted_roll_costs_the_trips_of_a_plain_one(dice: Table) -> None:
    table = dice
    await create(table, "Bram", BOB, "Composure 3")
    table.faces.add(*([5] * 20))
    before = table.store.trips
    await roll(table, "5")
    plain = table.store.trips - before
    before = table.store.trips
    await roll(table, "5", resist="Composure", resist_target=MENTION_BOB)
    assert table.store.trips - before == plain == 3
    before = table.store.trips
    await table.run(rolls.odds(table.deps, table.ctx(), rolls.ByName(
        parse_pool_names("5"), {"resist": "Composure", "resist_target": "Bram"})))
    assert table.store.trips - before == 1, "odds: its one read"


async def test_odds_of_a_named_resist_read_the_targets_sheet(table: Table) -> None:
    await create(table, "Bram", BOB, "Composure 4")
    said = await table.run(rolls.odds(table.deps, table.ctx(), rolls.ByName(
        parse_pool_names("6"), {"resist": "Composure", "resist_target": MENTION_BOB})))
    assert said.answer.ephemeral
    assert "Failure: 49.00%" in said.answer.text, "2 dice: 0.7 × 0.7 fail"


async def action(table: Table, said: Recorder) -> ActionRecord:
    """The action whose card ``said`` posted (its buttons carry its id)."""
    key = action_id(said)
    record = await table.store.read(lambda tx: tx.actions.get(key))
    assert record is not None
    return record


async def test_an_extended_action_resists_with_the_targets_trait_each_roll(
    table: Table,
) -> None:
    await create(table, "Bram", BOB, "Resolve 2")
    said = await table.run(extended.start(
        table.deps, table.ctx(), parse_pool_names("7"), target=10, label="persuade",
        options={"resist": "Resolve", "resist_target": "Bram"}))
    assert not said.answer.ephemeral, said.answer.text
    request = (await action(table, said)).state(ExtendedAction).state.request
    assert request.resist == 2
    assert request.sheet is not None and request.sheet.resist_of == "Bram"


async def test_an_extended_start_with_a_bad_resist_target_starts_nothing(table: Table) -> None:
    said = await table.run(extended.start(
        table.deps, table.ctx(), parse_pool_names("7"), target=10, label="persuade",
        options={"resist": "Resolve", "resist_target": "Nobody"}))
    assert said.answer.ephemeral and "Nobody" in said.answer.text
    assert await table.store.read(lambda tx: tx.actions.get(1)) is None


async def test_teamwork_resists_with_the_targets_trait(table: Table) -> None:
    await create(table, "Bram", BOB, "Composure 2")
    said = await table.run(teamwork.start(
        table.deps, table.ctx(), rolls.ByName(
            parse_pool_names("6"), {"resist": "Composure", "resist_target": MENTION_BOB}),
        label="lift", helper_limit=None))
    assert not said.answer.ephemeral, said.answer.text
    request = (await action(table, said)).state(TeamworkAction).teamwork.request
    assert request.resist == 2


async def test_a_saved_roll_keeps_a_named_resist_and_its_target(dice: Table) -> None:
    table = dice
    await create(table, "Mara", ALICE, "Strength 3, Brawl 3")
    await create(table, "Bram", BOB, "Composure 3")
    kept = await table.run(saved.add(
        table.deps, table.ctx(), "grapple", parse_pool_names("Strength + Brawl"),
        {"resist": "Composure", "resist_target": MENTION_BOB}, label=None, spec=None,
        replace=False,
    ))
    assert kept.answer.ephemeral and "grapple" in kept.answer.text

    said = await table.run(saved.roll(table.deps, table.ctx(), "grapple"))

    assert "Resistance: Composure of Bram, from the sheet" in said.answer.text
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None and record.result.request.resist == 3


async def test_roll_again_reads_the_resisting_sheet_again(dice: Table) -> None:
    table = dice
    await create(table, "Mara", ALICE, "Strength 3, Brawl 3")
    await create(table, "Bram", BOB, "Composure 3")
    await roll(table, "Strength + Brawl", resist="Composure", resist_target=MENTION_BOB)
    table.faces.add(8, 8, 8)

    said = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), 1))

    assert "Resistance: Composure of Bram, from the sheet" in said.answer.text
    again = await table.store.read(lambda tx: tx.rolls.get(2))
    assert again is not None and again.result.request.resist == 3


@pytest.mark.parametrize(("locale", "line"), [
    ("pt-BR", "Resistência: Autocontrole de Bram, da ficha"),
    ("es-ES", "Resistencia: Compostura de Bram, de la hoja"),
])
async def test_the_resisting_trait_is_named_in_the_tables_language(
    dice: Table, locale: str, line: str
) -> None:
    table = dice
    await create(table, "Mara", ALICE, "Strength 3, Brawl 3")
    await create(table, "Bram", BOB, "Composure 3")
    table.speak(locale, locale)
    said = await roll(table, "Strength + Brawl", resist="Composure", resist_target=MENTION_BOB)
    assert line in said.answer.text
    assert "Composure" not in said.answer.text


@pytest.mark.parametrize(("locale", "typed", "no_target", "not_on_sheet"), [
    ("pt-BR", "Composure", "resistir com Autocontrole precisa de resist_target",
     "a ficha de Lucita não tem Autocontrole para resistir"),
    ("pt-BR", "Autocontrole", "resistir com Autocontrole precisa de resist_target",
     "a ficha de Lucita não tem Autocontrole para resistir"),
    ("es-ES", "comp", "resistir con Compostura necesita resist_target",
     "la hoja de Lucita no tiene Compostura con que resistir"),
])
async def test_a_resistance_refusal_names_the_trait_in_the_tables_language(
    dice: Table, locale: str, typed: str, no_target: str, not_on_sheet: str
) -> None:
    """A named resist refused for want of a target, or because the target's sheet lacks
    the trait (a v20 sheet has no Composure), names the trait as the table's cards name it
    (engine.trait_names' Decision), whichever of its names was typed, where it named the
    sheet's English name at a Portuguese or Spanish table; nothing is rolled."""
    table = dice
    await create(table, "Lucita", BOB, template=Ruleset.V20)
    table.speak(locale, locale)
    said = await roll(table, "5", resist=typed)
    assert said.answer.ephemeral and no_target in said.answer.text, said.answer.text
    said = await roll(table, "5", resist=typed, resist_target=MENTION_BOB)
    assert said.answer.ephemeral and not_on_sheet in said.answer.text, said.answer.text
    assert "Composure" not in said.answer.text
    assert not await rolled(table) and table.faces.left == 7, "nothing rolled"
