"""/teamwork, its card's buttons, the Help form and the helpers' rolls, as flows."""

from __future__ import annotations

from dataclasses import replace
from functools import partial
from typing import Any

import pytest

from bot.cogs.teamwork import Teamwork
from bot.edge import ids
from bot.flows import characters, rolls, teamwork
from bot.flows.reply import Edit
from bot.flows.rolls import build_request
from bot.render.buttons import REFUSALS, SPEND_WILL, TAKE_BEAT
from bot.render.message import Message
from bot.render.rolls import NpcUse, npc_not_yours
from bot.render.teamwork import ALREADY_HELPED, NOT_YOURS, OWN_ACTION, STALE_CARD
from bot.store import Tx
from engine.models import Ruleset, Term, WillUse
from engine.records import (
    ActionKind,
    ActionStatus,
    ChannelConfig,
    ChannelOption,
    PressRefusal,
    RollRecord,
    WillPool,
)
from engine.table.teamwork import Status, TeamworkAction
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Recorder, Table, parts
from tests.flows.test_roll_flows import ask
from tests.flows.typed import INVISIBLE, typed
from tests.store.conftest import idle_workers

CARA = 3_000_000_000_000_000_006


def terms(value: int) -> tuple[Term, ...]:
    return (Term(label=None, value=value),)


async def begin(table: Table, value: int = 3, **options: Any) -> tuple[Recorder, int]:
    """Alice starts a teamwork: the recorder and the action id."""
    label = options.pop("label", "force the door")
    helper_limit = options.pop("helper_limit", None)
    said = await table.run(teamwork.start(
        table.deps, table.ctx(),
        lambda config: build_request(config.ruleset, terms(value), **options),
        label=label, helper_limit=helper_limit,
    ))
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    return said, press.key


async def press_card(table: Table, user: int, action: str, action_id: int) -> Recorder:
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    press = ids.Press(ids.Kind.TEAMWORK_CARD, action, action_id, record.version)
    return await table.run(teamwork.card_pressed(
        table.deps, table.ctx(user, message_id=record.message_id), press
    ))


async def help_form(table: Table, user: int, action_id: int, pool: str, **more: str) -> Recorder:
    press = ids.Press(ids.Kind.POOL_FORM, "help", action_id)
    return await table.run(teamwork.form_submitted(
        table.deps, table.ctx(user, name={CARA: "Cara"}.get(user)), press, {"pool": pool, **more}
    ))


def roll_id(said: Recorder) -> int:
    press = ids.parse(said.answer.custom_ids[0])
    assert press is not None
    return press.key


async def state(table: Table, action_id: int) -> TeamworkAction:
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    return record.state(TeamworkAction)


async def use(table: Table, ruleset: str) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset(ruleset)
    ))


async def test_start_posts_a_card_with_help_roll_cancel_and_remembers_it(table: Table) -> None:
    said, action_id = await begin(table)
    assert said.answer.buttons == ["Help", "Roll", "Cancel"]
    assert said.answer.custom_ids[0] == f"sb1:team:help:{action_id}:1"
    assert "Teamwork: force the door" in said.answer.text
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    assert record.message_id == 901
    assert record.state(TeamworkAction).schema_version == 1


@pytest.mark.parametrize("text", ["   ", *INVISIBLE])
async def test_a_blank_or_invisible_label_is_no_label_and_the_primary_names_the_teamwork(
    table: Table, text: str
) -> None:
    """A label of spaces, or of nothing visible (a zero-width space, an invisible
    separator, a combining mark alone), would title the card with nothing: it counts as
    no label."""
    said, action_id = await begin(table, label=await typed(Teamwork.start, "label", text))
    assert "Teamwork: Alice's action" in said.answer.text
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    assert "Alice's action" in record.label


async def test_a_second_open_teamwork_with_the_same_label_is_refused(table: Table) -> None:
    await begin(table)
    said = await table.run(teamwork.start(
        table.deps, table.ctx(BOB), lambda c: build_request(c.ruleset, terms(2)),
        label="Force the DOOR", helper_limit=None,
    ))
    assert said.answer.ephemeral
    assert "already open" in said.answer.text


async def test_a_helper_limit_outside_v20_is_refused_naming_the_option_and_the_ruleset(
    table: Table,
) -> None:
    """COMMANDS.md: an option that does not apply to the channel's ruleset is refused with a
    message naming the ruleset and the option as typed; nothing is opened."""
    said = await table.run(teamwork.start(
        table.deps, table.ctx(), lambda c: build_request(c.ruleset, terms(3)),
        label="lift", helper_limit=2,
    ))
    assert said.answer.ephemeral
    # escaped, as every reason of a teamwork refusal is (Discord shows helper_limit)
    assert "helper\\_limit does not apply to the cofd ruleset" in said.answer.text
    assert await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL)) == []


async def test_help_opens_the_form_and_the_primary_cannot_help(table: Table) -> None:
    _, action_id = await begin(table)
    said = await press_card(table, BOB, "help", action_id)
    assert len(said.modals) == 1
    assert said.modals[0].custom_id == f"sb1:form:help:{action_id}"
    own = await press_card(table, ALICE, "help", action_id)
    assert own.answer.ephemeral
    assert own.answer.text == OWN_ACTION


async def test_a_helper_s_successes_become_the_primary_s_bonus_and_the_card_follows(
    table: Table,
) -> None:
    _, action_id = await begin(table)
    table.faces.add(8, 9, 2)
    said = await help_form(table, BOB, action_id, "3")
    assert not said.answer.ephemeral
    assert "Helping: force the door" in said.answer.text
    assert said.answer.buttons == [SPEND_WILL]  # a success offers Will, as any roll
    assert said.answer.custom_ids == [f"sb1:helproll:will:{roll_id(said)}"]
    card = said.of("edit")[0]
    assert card.target == 901
    assert "Helpers (1)" in card.text
    assert "+2 dice: teamwork" in card.text
    again = await help_form(table, BOB, action_id, "2")
    assert again.answer.text == ALREADY_HELPED
    assert table.faces.left == 0


async def test_the_primary_rolls_with_the_bonus_and_the_teamwork_is_over(table: Table) -> None:
    _, action_id = await begin(table, 2)
    table.faces.add(8, 2)
    await help_form(table, BOB, action_id, "2")
    other = await press_card(table, BOB, "roll", action_id)
    assert other.answer.ephemeral
    assert "Only **Alice** can roll" in other.answer.text

    table.faces.add(8, 9, 2)
    said = await press_card(table, ALICE, "roll", action_id)
    assert said.answer.kind == "respond"
    assert "Teamwork: force the door" in said.answer.text
    assert "2 successes" in said.answer.text
    assert said.answer.buttons == [SPEND_WILL], "as any roll: Will after it, no Beat"
    card = said.of("edit")[-1]
    assert card.buttons == []
    assert "this teamwork is over" in card.text
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    assert record.status is ActionStatus.CLOSED
    assert record.state(TeamworkAction).status is Status.ROLLED

    late = await press_card(table, ALICE, "roll", action_id)
    assert late.answer.kind == "update"
    assert "nothing was changed" in late.of("followup")[0].text


async def test_the_rolls_of_a_teamwork_are_compact_cards_in_a_compact_channel(
    table: Table,
) -> None:
    """A channel's compact setting makes every roll card short (COMMANDS.md, Settings): a
    helper's roll and the primary's, as a /roll's (no fields, the pool on one line, who
    rolled in the footer), where they came as full cards."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.COMPACT, True))
    _, action_id = await begin(table, 2)
    table.faces.add(8, 2)
    helper = (await help_form(table, BOB, action_id, "2")).answer
    table.faces.add(8, 9, 2)
    primary = (await press_card(table, ALICE, "roll", action_id)).answer

    for said, who in ((helper, "Bob"), (primary, "Alice")):
        embed = said.message.embed
        assert embed is not None
        assert embed.fields == []
        assert f"rolled by {who}" in (embed.footer.text or "")
    assert "Pool: 2 dice" in helper.text
    assert "Pool: 2 · +1 die: teamwork (helpers' successes) · = 3 dice" in primary.text


@pytest.mark.parametrize("own_since", [False, True], ids=["npc-active", "own-active-since"])
async def test_an_npc_s_teamwork_is_refused_to_a_primary_no_storyteller_any_more(
    table: Table, own_since: bool,
) -> None:
    """COMMANDS.md: an NPC is "usable by Storytellers". A teamwork started as an NPC rolls
    as the NPC (its Will, its name): its primary, no Storyteller any more (the role taken
    away since), is refused `/teamwork roll` and the card's Roll as a roll of the NPC is,
    their own sheet made active since or not, nothing rolled and the teamwork still open,
    where the NPC rolled and its Will paid; as a Storyteller again they roll it."""
    storyteller = table.ctx(BOB, storyteller=True)
    await table.run(characters.create(table.deps, storyteller, "Goblin", npc=True))
    await table.run(characters.use(table.deps, storyteller, "Goblin"))
    started = await table.run(teamwork.start(
        table.deps, storyteller, rolls.ByName(parts(terms(3)), {"will": True}),
        label="lift", helper_limit=None))
    press = ids.parse(started.answer.custom_ids[0])
    assert press is not None
    if own_since:
        await table.run(characters.create(table.deps, table.ctx(BOB), "Bram"))
        await table.run(characters.use(table.deps, table.ctx(BOB), "Bram"))
    before = await table.store.read(lambda tx: (tx.actions.get(press.key),
                                                tx.characters.named(GUILD, "Goblin")))
    table.faces.add(*[8] * 6)
    by_command = await table.run(teamwork.roll_command(table.deps, table.ctx(BOB), label=None))
    by_card = await press_card(table, BOB, "roll", press.key)
    for said in (by_command, by_card):
        assert said.answer.ephemeral
        assert said.answer.text == npc_not_yours("Goblin", NpcUse.TEAMWORK)
    assert table.faces.left == 6
    assert await table.store.read(lambda tx: (tx.actions.get(press.key),
                                              tx.characters.named(GUILD, "Goblin"))) == before
    rolled = await table.run(teamwork.roll_command(table.deps, storyteller, label=None))
    assert not rolled.answer.ephemeral, rolled.answer.text


async def test_a_teamwork_started_with_will_and_no_will_left_says_to_rest(
    table: Table,
) -> None:
    """The primary's Will is part of the teamwork they started with will:True, so an
    empty pool is answered with the one way on, resting (/will rest), where it had no
    remedy; not /roll's "roll without will:True", which the card cannot do. Nothing
    rolls."""
    _, action_id = await begin(table, 2, will=True)
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=ALICE, current=0, maximum=2)))
    said = await press_card(table, ALICE, "roll", action_id)
    assert said.answer.ephemeral
    assert "You have no Will left to spend (Will 0/2)" in said.answer.text
    assert "rest (/will rest) to regain some, then roll it" in said.answer.text
    assert "without" not in said.answer.text
    assert table.faces.left == 0
    assert (await state(table, action_id)).status is Status.OPEN


async def test_the_primary_s_failure_offers_spend_will_and_the_card_follows_it(
    table: Table,
) -> None:
    """The primary's roll offers Spend Will and Take a Beat as any roll does (RULES.md §1,
    §4): Will read after the roll turns the teamwork's failure into a success, on the roll
    and on the card; only the primary may press."""
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=ALICE, current=2, maximum=2)))
    _, action_id = await begin(table, 2)
    table.faces.add(2, 3)
    said = await press_card(table, ALICE, "roll", action_id)
    assert "Teamwork: force the door" in said.answer.text
    assert said.answer.buttons == [SPEND_WILL, TAKE_BEAT]
    press = ids.Press(ids.Kind.HELPER_ROLL, "will", roll_id(said))
    bob = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert bob.answer.text == REFUSALS[PressRefusal.NOT_ROLLER]

    table.faces.add(9, 8, 2)
    spent = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(), press))
    assert spent.answer.kind == "update"
    assert "Teamwork: force the door" in spent.answer.text
    assert "2 successes" in spent.answer.text
    assert spent.answer.buttons == []
    assert spent.of("followup")[0].text == "Will spent: Will 1/2 left."
    (card,) = spent.of("edit")
    assert "2 successes" in card.text and card.buttons == []
    done = await state(table, action_id)
    assert done.status is Status.ROLLED
    assert done.primary is not None and done.primary.successes == 2
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None and record.status is ActionStatus.CLOSED
    again = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(), press))
    assert again.answer.text == REFUSALS[PressRefusal.ALREADY_SPENT]


async def test_the_primary_s_beat_makes_the_teamwork_a_dramatic_failure(table: Table) -> None:
    _, action_id = await begin(table, 2)
    table.faces.add(2, 3)
    said = await press_card(table, ALICE, "roll", action_id)
    press = ids.Press(ids.Kind.HELPER_ROLL, "beat", roll_id(said))
    beat = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(), press))
    assert beat.answer.kind == "update"
    assert "Beat taken" in beat.answer.text
    assert beat.of("followup")[0].text == "Beat taken: you have 1 Beat."
    done = await state(table, action_id)
    assert done.primary is not None and done.primary.beat
    assert "Dramatic failure" in beat.of("edit")[0].text


async def test_a_fistful_primary_at_zero_dice_starts_and_the_helpers_lift_the_pool(
    table: Table,
) -> None:
    """RULES.md §0: only the final pool matters. The card says why the pool cannot be
    rolled yet; a helper's success makes it one die."""
    await use(table, "fistful")
    said = await table.run(teamwork.start(
        table.deps, table.ctx(),
        lambda config: build_request(config.ruleset, (*terms(2), *terms(-2))),
        label="lift", helper_limit=None,
    ))
    assert not said.answer.ephemeral, said.answer.text
    assert "Cannot be rolled now" in said.answer.text
    action_id = roll_id(said)
    too_soon = await press_card(table, ALICE, "roll", action_id)
    assert too_soon.answer.ephemeral
    assert "cannot be made" in too_soon.answer.text
    table.faces.add(8, 2)
    await help_form(table, BOB, action_id, "2")
    table.faces.add(8)
    rolled = await press_card(table, ALICE, "roll", action_id)
    assert not rolled.answer.ephemeral, rolled.answer.text
    assert "1 success" in rolled.answer.text


async def test_a_card_drawn_before_a_helper_joined_is_stale(table: Table) -> None:
    _, action_id = await begin(table)
    table.faces.add(2, 2, 2)
    await help_form(table, BOB, action_id, "3")
    old = ids.Press(ids.Kind.TEAMWORK_CARD, "roll", action_id, 1)
    said = await table.run(teamwork.card_pressed(table.deps, table.ctx(), old))
    assert said.answer.kind == "update"
    assert said.answer.custom_ids[0].endswith(":2")  # redrawn as it stands
    assert said.of("followup")[0].text == STALE_CARD
    assert table.faces.left == 0


async def test_only_the_primary_or_the_storyteller_cancels(table: Table) -> None:
    _, action_id = await begin(table)
    refused = await press_card(table, BOB, "cancel", action_id)
    assert refused.answer.text == NOT_YOURS
    said = await press_card(table, STORYTELLER, "cancel", action_id)
    assert said.answer.kind == "update"
    assert "Cancelled" in said.answer.text
    assert said.answer.buttons == []

    _, second = await begin(table, label="climb")
    said = await table.run(teamwork.cancel_command(table.deps, table.ctx(), label=None))
    assert "cancelled by **Alice**" in said.answer.text
    assert (await state(table, second)).status is Status.CANCELLED


async def test_a_key_of_another_channels_teamwork_changes_nothing_of_it(table: Table) -> None:
    """A card's buttons and the Help form name their teamwork by its key, and the card is
    posted in the teamwork's channel: a key of another channel's or server's teamwork (a
    forged custom_id) is answered as a teamwork this table does not know, so a
    Storyteller of another server cancels nothing and a helper elsewhere adds no bonus."""
    _, action_id = await begin(table)
    before = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert before is not None
    elsewhere = {"guild_id": GUILD + 1, "channel_id": CHANNEL + 1}
    cancel = ids.Press(ids.Kind.TEAMWORK_CARD, "cancel", action_id, before.version)
    cancelled = await table.run(teamwork.card_pressed(
        table.deps, replace(table.ctx(STORYTELLER), **elsewhere), cancel))
    helped = await table.run(teamwork.form_submitted(
        table.deps, replace(table.ctx(BOB), channel_id=CHANNEL + 1),
        ids.Press(ids.Kind.POOL_FORM, "help", action_id), {"pool": "3"}))
    for said in (cancelled, helped):
        assert said.answer.ephemeral
        assert said.answer.text == "I no longer know this teamwork, so nothing was changed."
        assert [s.kind for s in said.said] == ["respond"]
    assert await table.store.read(lambda tx: tx.actions.get(action_id)) == before
    assert table.faces.left == 0


async def test_commands_find_the_teamwork_they_mean(table: Table) -> None:
    none = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    assert "no open teamwork" in none.answer.text.lower()
    _, action_id = await begin(table)
    table.faces.add(8, 2)
    helped = await table.run(teamwork.help_command(
        table.deps, table.ctx(BOB), parts(terms(2)), label=None, difficulty=None
    ))
    assert "Helping: force the door" in helped.answer.text
    assert len((await state(table, action_id)).teamwork.helpers) == 1
    table.faces.add(8, 8, 2, 3)  # 3 dice and Bob's success
    rolled = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    assert "2 successes" in rolled.answer.text


@pytest.mark.parametrize("text", INVISIBLE)
async def test_commands_given_an_invisible_label_mean_the_only_open_teamwork(
    table: Table, text: str
) -> None:
    """/teamwork help, roll and cancel read a label of nothing visible as none given (the
    only open teamwork), where they looked for a teamwork of that empty-looking name."""
    await begin(table)
    table.faces.add(8, 2)
    helped = await table.run(teamwork.help_command(
        table.deps, table.ctx(BOB), parts(terms(2)),
        label=await typed(Teamwork.help_, "label", text), difficulty=None,
    ))
    assert "Helping: force the door" in helped.answer.text
    table.faces.add(8, 8, 2, 3)
    rolled = await table.run(teamwork.roll_command(
        table.deps, table.ctx(), label=await typed(Teamwork.roll, "label", text)))
    assert "2 successes" in rolled.answer.text
    _, second = await begin(table, label="climb")
    cancelled = await table.run(teamwork.cancel_command(
        table.deps, table.ctx(), label=await typed(Teamwork.cancel, "label", text)))
    assert "cancelled by **Alice**" in cancelled.answer.text
    assert (await state(table, second)).status is Status.CANCELLED


async def test_a_helper_s_will_after_the_roll_raises_the_card_s_bonus(table: Table) -> None:
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=BOB, current=3, maximum=3))
    )
    _, action_id = await begin(table)
    table.faces.add(8, 2)
    helped = await help_form(table, BOB, action_id, "2")
    table.faces.add(9, 9, 1)
    press = ids.Press(ids.Kind.HELPER_ROLL, "will", roll_id(helped))
    said = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert said.answer.kind == "update"
    assert "3 successes" in said.answer.text
    assert said.answer.buttons == []
    assert said.of("followup")[0].text == "Will spent: Will 2/3 left."
    assert "+3 dice: teamwork" in said.of("edit")[0].text
    assert (await state(table, action_id)).teamwork.helpers[0].result.successes == 3
    again = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert again.answer.text == REFUSALS[PressRefusal.ALREADY_SPENT]


@pytest.mark.parametrize("button", ["will", "beat"])
async def test_an_npc_helper_s_roll_buttons_are_refused_to_a_helper_no_storyteller_now(
    table: Table, button: str,
) -> None:
    """Spend Will on a helper's roll made as an NPC spends the NPC's Will, Take a Beat gives
    the NPC a Beat: the helper, no Storyteller any more (the role taken away since), is
    refused either as a roll of the NPC is, nothing drawn, the teamwork as it was."""
    _, action_id = await begin(table)
    storyteller = table.ctx(BOB, storyteller=True)
    await table.run(characters.create(table.deps, storyteller, "Goblin", npc=True))
    await table.run(characters.use(table.deps, storyteller, "Goblin"))
    table.faces.add(2, 3)
    helped = await table.run(teamwork.form_submitted(
        table.deps, storyteller, ids.Press(ids.Kind.POOL_FORM, "help", action_id), {"pool": "2"}))
    assert not helped.answer.ephemeral, helped.answer.text
    before = await table.store.read(lambda tx: (tx.actions.get(action_id),
                                                tx.characters.named(GUILD, "Goblin")))
    table.faces.add(9, 9, 9)
    press = ids.Press(ids.Kind.HELPER_ROLL, button, roll_id(helped))
    said = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours(
        "Goblin", NpcUse.WILL if button == "will" else NpcUse.BEAT)
    assert table.faces.left == 3
    assert await table.store.read(lambda tx: (tx.actions.get(action_id),
                                              tx.characters.named(GUILD, "Goblin"))) == before


async def test_a_helper_s_beat_makes_a_dramatic_failure_that_costs_the_primary(
    table: Table,
) -> None:
    _, action_id = await begin(table)
    table.faces.add(2, 3)
    helped = await help_form(table, BOB, action_id, "2")
    assert helped.answer.buttons == [SPEND_WILL, TAKE_BEAT]
    press = ids.Press(ids.Kind.HELPER_ROLL, "beat", roll_id(helped))
    not_yours = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(), press))
    assert not_yours.answer.text == REFUSALS[PressRefusal.NOT_ROLLER]
    said = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert said.answer.kind == "update"
    assert "Beat taken" in said.answer.text
    assert said.of("followup")[0].text == "Beat taken: you have 1 Beat."
    assert "-4 dice: a helper's dramatic failure" in said.of("edit")[0].text


async def test_a_helper_s_buttons_change_nothing_once_the_teamwork_is_over(table: Table) -> None:
    _, action_id = await begin(table)
    table.faces.add(2, 3)
    helped = await help_form(table, BOB, action_id, "2")
    await press_card(table, ALICE, "cancel", action_id)
    press = ids.Press(ids.Kind.HELPER_ROLL, "beat", roll_id(helped))
    said = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
    assert said.answer.ephemeral
    assert "this teamwork is over" in said.answer.text.lower()
    roll = await table.store.read(lambda tx: tx.rolls.get(roll_id(helped)))
    assert roll is not None
    assert not roll.beat


def _roll_of(key: int, tx: Tx) -> RollRecord | None:
    return tx.rolls.get(key)


async def test_the_end_of_the_teamwork_settles_the_helpers_buttons(table: Table) -> None:
    """Once the primary rolled (or the teamwork was cancelled), a helper's Spend Will or
    Take a Beat can change nothing: their message loses those buttons."""
    for ending in ("roll", "cancel"):
        _, action_id = await begin(table, 2, label=f"lift {ending}")
        table.faces.add(2, 3)
        helped = await help_form(table, BOB, action_id, "2")
        assert helped.answer.buttons == [SPEND_WILL, TAKE_BEAT]
        roll = await table.store.read(partial(_roll_of, roll_id(helped)))
        assert roll is not None and roll.message_id is not None
        if ending == "roll":
            table.faces.add(2, 3)
        ended = await press_card(table, ALICE, ending, action_id)
        settled = [said for said in ended.of("edit") if "Helping: lift" in said.text]
        assert [(said.target, said.buttons) for said in settled] == [(roll.message_id, [])]


async def test_the_v20_form_asks_a_difficulty_and_refuses_a_word(table: Table) -> None:
    await use(table, "v20")
    _, action_id = await begin(table, 4, helper_limit=1)
    said = await press_card(table, BOB, "help", action_id)
    assert said.modals
    bad = await help_form(table, BOB, action_id, "3", difficulty="hard")
    assert bad.answer.ephemeral
    assert "whole number" in bad.answer.text
    unreadable = await help_form(table, BOB, action_id, "three +")
    assert unreadable.answer.ephemeral
    assert (await state(table, action_id)).teamwork.helpers == ()


async def test_fistful_helpers_and_primary_pay_the_successive_action_penalty(
    table: Table,
) -> None:
    await use(table, "fistful")
    _, action_id = await begin(table, 3)
    table.faces.add(8, 8, 8)
    await help_form(table, BOB, action_id, "3")  # Bob's first action this turn
    table.faces.add(8, 8)
    again = await table.run(teamwork.help_command(  # not his teamwork to help twice...
        table.deps, table.ctx(BOB), parts(terms(3)), label=None, difficulty=None
    ))
    assert again.answer.ephemeral
    turns = await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, BOB))
    assert turns == 1
    table.faces.add(*([8] * 20))
    rolled = await press_card(table, ALICE, "roll", action_id)
    assert "successive action" not in rolled.answer.text  # Alice's first action
    assert await table.store.read(
        lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE)
    ) == 1


async def _failures(table: Table, user: int, label: str) -> int:
    """The member's failures in a row at ``label`` in the channel."""
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, CHANNEL, user, label=label, turn=False, will=False))
    return standing.failures


async def _fail_a_roll(table: Table, label: str) -> None:
    table.faces.add(2, 2, 2)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label=label, private=False))


async def test_a_labelled_teamwork_is_an_attempt_at_its_action(table: Table) -> None:
    """RULES.md §1 successive attempts: a roll for the same action (same player, channel
    and label) that failed gives the next attempt -1 die. The primary's roll of a teamwork
    the primary labelled is such an attempt: it pays for an earlier failed roll of that
    label, and its own failure counts for the next one (it was neither, so a teamwork
    between two failed rolls at a door wiped the penalty's growth)."""
    await _fail_a_roll(table, "Force the door")
    _, action_id = await begin(table, 3)  # label "force the door"
    table.faces.add(2, 2)
    said = await press_card(table, ALICE, "roll", action_id)
    assert "-1 die: trying again after a failure" in said.answer.text
    assert "= 2 dice" in said.answer.text
    assert await _failures(table, ALICE, "force the door") == 2
    table.faces.add(2)
    again = await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="force the door",
                                       private=False))
    assert "-2 dice: trying again after a failure" in again.answer.text


_ATTEMPTS = "When Alice rolls: -1 die for each failure of theirs in a row at this action"
_ATTEMPTS_V20 = "When Alice rolls: difficulty +1 for each failure of theirs in a row"
_ACTIONS = "When Alice rolls: -{n} for each action of theirs earlier this turn"


_TRIED = "trying again after a failure"
_TURN = "-2 dice: successive action this turn"


@pytest.mark.parametrize(
    ("ruleset", "label", "option", "said", "counted"),
    [
        ("cofd", "force the door", None, _ATTEMPTS, "-1 die: " + _TRIED),
        ("v20", "force the door", None, _ATTEMPTS_V20, "difficulty +1: " + _TRIED),
        ("cofd", None, None, None, None),  # a default label names no action
        ("cofd", "force the door", (ChannelOption.PRESSURE, False), None, None),  # no pressure
        ("fistful", "force the door", None, _ACTIONS.format(n="1 die"),
         "-1 die: successive action this turn"),
        ("fistful", None, (ChannelOption.FISTFUL_STEP, 2), _ACTIONS.format(n="2 dice"), _TURN),
        ("fistful", None, (ChannelOption.FISTFUL_STEP, 0), None, None),
    ],
)
async def test_the_card_says_the_table_s_penalties_apply_when_the_primary_rolls(
    table: Table, ruleset: str, label: str | None, option: tuple[ChannelOption, Any] | None,
    said: str | None, counted: str | None,
) -> None:
    """The card's pool the primary will roll is the teamwork's own: the table's penalties
    the primary's roll pays besides (successive attempts at a labelled teamwork's action,
    pressure on; the fistful Successive Action Penalty, by the channel's step) are said
    under it, on every redraw, and counted only in the roll (bot.render.teamwork's
    Decision: the primary's counters are not read for a card)."""
    await use(table, ruleset)
    if option is not None:
        await table.store.write(lambda tx: tx.settings.set_channel_option(GUILD, CHANNEL, *option))
    await _fail_a_roll(table, "force the door")  # and a fistful action this turn
    started, action_id = await begin(table, 3, label=label)
    table.faces.add(8, 8, 8)
    helped = await help_form(table, BOB, action_id, "3")
    for card in (started.answer.text, helped.of("edit")[0].text):
        assert (said is not None and said in card) or (said is None and "When Alice" not in card)
    table.faces.add(*([8] * 10))
    rolled = await press_card(table, ALICE, "roll", action_id)
    assert (counted is not None and counted in rolled.answer.text) or (
        counted is None and "successive" not in rolled.answer.text
        and _TRIED not in rolled.answer.text), rolled.answer.text


async def test_an_unlabelled_teamwork_and_its_helpers_attempt_nothing(table: Table) -> None:
    """A teamwork named after its primary by default names no action, as an unlabelled roll
    does; a helper's roll is no attempt of the helper's at the teamwork's action."""
    _, action_id = await begin(table, 3, label=None)
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    label = record.label  # Alice's action
    table.faces.add(2, 2, 2)
    await help_form(table, BOB, action_id, "3")
    table.faces.add(2, 2, 2)
    said = await press_card(table, ALICE, "roll", action_id)
    assert "Failure" in said.answer.text
    assert await _failures(table, ALICE, label) == 0
    assert await _failures(table, BOB, label) == 0
    _, labelled = await begin(table, 3, label="lift the car")
    table.faces.add(2, 2, 2)
    await help_form(table, BOB, labelled, "3")
    assert await _failures(table, BOB, "lift the car") == 0


async def test_will_that_saves_a_labelled_teamwork_resets_its_attempts(table: Table) -> None:
    """Successive attempts reset when the action succeeds, Will spent after the roll
    included, as on a roll's own Spend Will."""
    await _fail_a_roll(table, "force the door")
    _, action_id = await begin(table, 3)
    table.faces.add(2, 2)
    said = await press_card(table, ALICE, "roll", action_id)
    assert await _failures(table, ALICE, "force the door") == 2
    press = ids.Press(ids.Kind.HELPER_ROLL, "will", roll_id(said))
    table.faces.add(9, 8, 2)
    spent = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(), press))
    assert "2 successes" in spent.answer.text
    assert await _failures(table, ALICE, "force the door") == 0


async def test_a_help_refused_by_the_successive_action_penalty_says_how(table: Table) -> None:
    """A helper's roll refused because of the table's state says which adjustments led
    there and who can reset them, as the primary's and any roll's do: a `fistful` helper
    who already acted this turn is told of the Successive Action Penalty, not only that
    the pool is 0. Nothing is rolled, the card as it was."""
    await use(table, "fistful")
    _, action_id = await begin(table, 3)
    await table.store.write(
        lambda tx: tx.attempts.save_turn_actions(GUILD, CHANNEL, BOB, old=0, new=1))
    refused = await help_form(table, BOB, action_id, "1")
    assert refused.answer.ephemeral
    assert refused.answer.text.startswith("That help cannot be rolled: ")
    assert "How the pool got there: 1; -1 die: successive action this turn." in (
        refused.answer.text)
    assert "`/turn next`" in refused.answer.text
    assert (await state(table, action_id)).teamwork.helpers == ()


async def test_end_for_scene_ends_unfinished_teamwork_and_redraws_their_cards(
    table: Table,
) -> None:
    _, first = await begin(table)
    _, second = await begin(table, label="climb")
    await press_card(table, ALICE, "cancel", second)
    config = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL)

    def end(tx: Tx) -> tuple[int, tuple[Edit, ...]]:
        return teamwork.end_for_scene(tx, tx.actions.find_open(GUILD, CHANNEL), config)

    ended, edits = await table.store.write(end)
    assert ended == 1
    assert [edit.message_id for edit in edits] == [901]
    assert edits[0].message.view is None
    assert "The scene ended" in (edits[0].message.embed.description or "")  # type: ignore[union-attr]
    assert (await state(table, first)).status is Status.SCENE_ENDED
    late = await table.run(teamwork.help_command(
        table.deps, table.ctx(BOB), parts(terms(2)), label=None, difficulty=None
    ))
    assert "no open teamwork" in late.answer.text.lower()
    assert await table.store.write(end) == (0, ())


async def test_a_teamwork_saved_before_schema_versions_still_loads(table: Table) -> None:
    _, action_id = await begin(table)
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    legacy = record.state_json.replace('"schema_version":1,', "")
    assert "schema_version" not in legacy
    old = TeamworkAction.model_validate_json(legacy)
    assert old.schema_version == 1
    assert old.status is Status.OPEN
    assert record.kind is ActionKind.TEAMWORK


async def test_a_helper_s_buttons_refuse_once_their_sheet_is_deleted(table: Table) -> None:
    """A helper who rolled as a character and deleted it since: their roll's Spend Will and
    Take a Beat have no sheet to act on, so they change nothing (the card keeps its bonus)."""
    await table.run(characters.create(table.deps, table.ctx(BOB), "Bobby"))
    _, action_id = await begin(table)
    table.faces.add(2, 3)
    helped = await help_form(table, BOB, action_id, "2")
    assert helped.answer.buttons == [SPEND_WILL, TAKE_BEAT]
    confirm = ids.parse((await table.run(characters.delete(table.deps, table.ctx(BOB))))
                        .answer.custom_ids[0])
    assert confirm is not None
    await table.run(characters.pressed(table.deps, table.ctx(BOB), confirm))
    for button in ("will", "beat"):
        press = ids.Press(ids.Kind.HELPER_ROLL, button, roll_id(helped))
        table.faces.add(9, 9, 9)
        said = await table.run(teamwork.helper_roll_pressed(table.deps, table.ctx(BOB), press))
        assert said.answer.text == REFUSALS[PressRefusal.SHEET_GONE]
    helper = (await state(table, action_id)).teamwork.helpers[0]
    assert helper.result.successes == 0 and not helper.result.beat


async def test_a_helper_s_next_roll_takes_only_the_buttons_off_their_help(table: Table) -> None:
    """A member's next roll closes their earlier ones: a roll made in a teamwork keeps the
    message the teamwork drew (its "Helping" title), losing only its buttons."""
    _, action_id = await begin(table)
    table.faces.add(2, 3)
    helped = await help_form(table, BOB, action_id, "2")
    assert helped.answer.buttons == [SPEND_WILL, TAKE_BEAT]
    helper = await table.store.read(partial(_roll_of, roll_id(helped)))
    assert helper is not None and helper.message_id is not None
    table.faces.add(8)
    rolled = await table.run(rolls.roll(table.deps, table.ctx(BOB), ask(1), label=None,
                                        private=False))
    (edit,) = [each for each in rolled.of("edit") if each.target == helper.message_id]
    assert edit.message == Message(), "no new text: only the buttons go"


@pytest.mark.parametrize("whose", ["primary", "helper"])
async def test_a_beat_pressed_as_a_will_spend_lands_is_decided_on_the_roll_as_it_is(
    table: Table, whose: str,
) -> None:
    """Spend Will lands between Take a Beat's read (a failure) and its write: the Beat is
    decided on the roll as the write finds it, a success now, and refused; the Will paid
    for stays on the roll and in the teamwork (a Beat worked out from the read had written
    the failure back over it)."""
    user = ALICE if whose == "primary" else BOB
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=user, current=3, maximum=3)))
    _, action_id = await begin(table, 2)
    table.faces.add(2, 3)
    said = (await press_card(table, ALICE, "roll", action_id) if whose == "primary"
            else await help_form(table, BOB, action_id, "2"))
    key = roll_id(said)
    store, write = table.store, table.store.write
    spent: list[Recorder] = []

    async def will_first(body: Any) -> Any:  # once, before the Beat's write
        if store.write is will_first:
            store.write = write  # type: ignore[method-assign]
            spent.append(await table.run(teamwork.helper_roll_pressed(
                table.deps, table.ctx(user), ids.Press(ids.Kind.HELPER_ROLL, "will", key))))
            if not table.pseudo:  # PostgreSQL: the writer reserves ids while idle
                await idle_workers(store)
        return await write(body)

    table.faces.add(9, 8, 2)  # the Will dice: 2 successes
    store.write = will_first  # type: ignore[method-assign]
    try:
        beat = await table.run(teamwork.helper_roll_pressed(
            table.deps, table.ctx(user), ids.Press(ids.Kind.HELPER_ROLL, "beat", key)))
    finally:
        store.write = write  # type: ignore[method-assign]

    assert "2 successes" in spent[0].answer.text
    assert beat.answer.ephemeral and beat.answer.text.startswith("No Beat on this roll")
    stored = await table.store.read(partial(_roll_of, key))
    assert stored is not None and stored.result.will is WillUse.AFTER
    assert not stored.result.beat and stored.result.succeeded
    done = await state(table, action_id)
    result = done.primary if whose == "primary" else done.teamwork.helpers[0].result
    assert result is not None and result.succeeded
