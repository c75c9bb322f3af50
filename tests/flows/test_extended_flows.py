"""/extended, its card's buttons, its rolls' buttons and the Condition form, as flows:
real store, scripted dice, no Discord."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import discord
import pytest

from bot.cogs.extended import Extended
from bot.edge.ids import Kind, Press, parse
from bot.flows import characters, extended, rolls, teamwork
from bot.flows.reply import Edit, Reply, run
from bot.flows.rolls import build_request
from bot.render import extended as wording
from bot.render.buttons import REFUSALS, SPEND_WILL, TAKE_BEAT
from bot.render.rolls import NpcUse, npc_not_yours
from bot.store import Tx
from bot.store.attempts import AttemptRepository
from engine.models import Outcome, Ruleset, Term
from engine.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelOption,
    PressRefusal,
    WillPool,
    WillState,
)
from engine.table.extended import Choice, ExtendedAction, Status
from tests.flows.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    GUILD,
    STORYTELLER,
    Recorder,
    Said,
    Table,
    parts,
)
from tests.flows.typed import INVISIBLE, typed

NOTHING: dict[str, Any] = {}


def dice(*values: int, label: str | None = None) -> tuple[Term, ...]:
    return tuple(Term(label=label, value=value) for value in values)


async def begin(
    table: Table,
    pool: tuple[Term, ...] = dice(3),
    *,
    user: int = ALICE,
    options: dict[str, Any] = NOTHING,
    **kwargs: Any,
) -> Recorder:
    kwargs.setdefault("target", 5)
    kwargs.setdefault("label", "force the door")
    return await table.run(
        extended.start(table.deps, table.ctx(user), parts(pool), options=options, **kwargs)
    )


def press_of(message: Said, label: str) -> Press:
    """The press a button of a message stands for, by its label."""
    index = message.buttons.index(label)
    press = parse(message.custom_ids[index])
    assert press is not None
    return press


def card_of(said: Recorder) -> Said:
    """The card as this interaction left it (its answer, its update or its edit)."""
    return next(
        s for s in reversed(said.said)
        if s.message.embed is not None and "extended action" in (s.message.embed.title or "")
    )


async def click(
    table: Table, message: Said, label: str, user: int = ALICE, *, message_id: int = 901
) -> Recorder:
    """Press a button of a message, as the one router would."""
    press = press_of(message, label)
    ctx = table.ctx(user, message_id=message_id)
    flow = extended.card_pressed if press.kind is Kind.EXTENDED_CARD else extended.roll_pressed
    return await table.run(flow(table.deps, ctx, press))


async def submit(
    table: Table, modal: discord.ui.Modal, name: str, user: int = ALICE
) -> Recorder:
    """Submit the Condition form with ``name`` typed, as the one form router would."""
    press = parse(modal.custom_id)
    assert press is not None
    assert press.kind is Kind.CONDITION_FORM
    flow = extended.condition_submitted(
        table.deps, table.ctx(user, message_id=901), press, {wording.CONDITION_INPUT: name}
    )
    return await table.run(flow)


async def stored(table: Table) -> ActionRecord:
    found = await table.store.read(lambda tx: tx.actions.get(1))
    assert found is not None
    return found


async def use_ruleset(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(
        lambda tx: tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)
    )


async def track_will(table: Table, maximum: int, current: int | None = None) -> None:
    pool = WillPool(
        guild_id=GUILD, user_id=ALICE, maximum=maximum,
        current=maximum if current is None else current,
    )
    await table.store.write(lambda tx: tx.will.save(None, pool))


def refused_with(said: Recorder, words: str) -> None:
    assert said.answer.ephemeral
    assert said.answer.message.content == words


# --- /extended start ---------------------------------------------------------------------------


async def test_start_posts_the_card_with_roll_and_abandon_and_remembers_it(table: Table) -> None:
    said = await begin(table, interval="30 minutes")
    card = said.answer
    assert not card.ephemeral
    assert "Extended action started: **force the door**." in card.text
    assert "0/5" in card.text
    assert "0 of 3 used" in card.text
    assert "30 minutes per roll" in card.text
    assert card.buttons == ["Roll", "Abandon"]
    assert card.custom_ids == ["sb1:ext:roll:1:1", "sb1:ext:abandon:1:1"]
    record = await stored(table)
    assert record.message_id == 901
    assert record.owner_id == ALICE
    assert '"schema_version":1' in record.state_json


async def test_a_card_brought_up_to_date_no_longer_says_it_started(table: Table) -> None:
    said = await begin(table)
    table.faces.add(8, 8, 2)
    rolled = await click(table, said.answer, "Roll")

    card = card_of(rolled)
    assert card.message.content == ""  # Discord clears the old line
    assert "2/5" in card.text


async def test_start_costs_three_trips(table: Table) -> None:
    before = table.store.trips
    await begin(table)
    assert table.store.trips - before == 3  # read, write, the card's message id


async def test_a_second_open_action_with_the_same_label_is_refused(table: Table) -> None:
    await begin(table)
    said = await begin(table, label="FORCE  the Door")
    refused_with(said, wording.duplicate("FORCE  the Door"))
    found = await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL))
    assert len(found) == 1


async def test_two_starts_of_one_label_at_once_open_one_action(table: Table) -> None:
    said = await asyncio.gather(begin(table), begin(table))
    answers = sorted(said, key=lambda each: each.answer.ephemeral)
    assert not answers[0].answer.ephemeral  # the card
    refused_with(answers[1], wording.duplicate("force the door"))
    found = await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL))
    assert len(found) == 1


async def test_without_a_label_the_pool_is_the_label(table: Table) -> None:
    said = await begin(table, dice(3, label="Strength"), label=None)
    assert "**Strength 3**" in (said.answer.message.content or "")


@pytest.mark.parametrize("text", ["   ", *INVISIBLE])
async def test_a_blank_or_invisible_label_is_no_label_and_the_pool_names_the_action(
    table: Table, text: str
) -> None:
    """A label of spaces, or of nothing visible (a zero-width space, an invisible
    separator, a combining mark alone), would title the card with nothing (and offer an
    empty autocomplete choice): it counts as no label."""
    label = await typed(Extended.start, "label", text)
    said = await begin(table, dice(3, label="Strength"), label=label)
    assert "**Strength 3**" in (said.answer.message.content or "")
    assert (await stored(table)).label == "Strength 3"


async def test_a_label_is_kept_without_the_spaces_around_it(table: Table) -> None:
    """The spaces around a label are no part of it: the card and the store show the words."""
    await begin(table, label=await typed(Extended.start, "label", "  force the door  "))
    assert (await stored(table)).label == "force the door"


@pytest.mark.parametrize("text", INVISIBLE)
async def test_roll_and_abandon_with_an_invisible_label_mean_the_only_open_action(
    table: Table, text: str
) -> None:
    """/extended roll and abandon read a label of nothing visible as none given: the
    member's only open action, where it was looked for by an empty-looking name."""
    await begin(table, target=5)
    table.faces.add(8, 8, 2)
    rolled = await table.run(extended.roll(
        table.deps, table.ctx(), label=await typed(Extended.roll, "label", text)))
    assert not rolled.answer.ephemeral
    said = await table.run(extended.abandon(
        table.deps, table.ctx(), label=await typed(Extended.abandon, "label", text)))
    assert said.answer.message.content == "**Alice**, **force the door**: Abandoned."


@pytest.mark.parametrize(
    ("kwargs", "words"),
    [
        ({"interval": "soon"}, wording.bad_interval("soon")),
        ({"interval": "3 \u3164"}, "I could not read the interval"),  # a blank unit
        ({"interval": "2 h\u202esruo"}, "I could not read the interval"),  # turned around
        ({"interval": "0 minutes"}, "must be more than zero"),
        ({"target": None}, "set the successes required with `target` (`target:10`)"),
        ({"options": {"difficulty": 7}}, "difficulty does not apply to the cofd ruleset"),
        ({"against": parts(dice(2))}, "against does not apply to the cofd ruleset"),
        ({"against_difficulty": 7}, wording.AGAINST_DIFFICULTY_ALONE),
    ],
)
async def test_bad_input_to_start_is_refused_and_stores_nothing(
    table: Table, kwargs: dict[str, Any], words: str
) -> None:
    said = await begin(table, **kwargs)
    assert said.answer.ephemeral
    assert words in (said.answer.message.content or "")
    found = await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL))
    assert found == []


@pytest.mark.parametrize(
    ("ruleset", "words"),
    [
        (Ruleset.COFD, "set the successes required with `target` (`target:10`)."),
        (Ruleset.V20, "set the successes required with `target` (`target:10`)."),
        (Ruleset.FISTFUL, "set the successes required with `target` or, for an ongoing "
                          "effort, a number of rolls with `max_rolls`."),
    ],
)
async def test_a_start_without_a_target_is_refused_naming_the_option_to_give(
    table: Table, ruleset: Ruleset, words: str
) -> None:
    """`target` may be left out of /extended start (fistful: with `max_rolls`), so Discord
    lets a member send the command without it; the refusal names the option that sets what
    it asks for, where it said "set the successes required" and the member had to guess
    which option that was. Nothing is stored."""
    await use_ruleset(table, ruleset)
    said = await begin(table, target=None)
    assert said.answer.ephemeral
    assert (said.answer.message.content or "").endswith(words)
    assert await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL)) == []


async def test_skill_outside_cofd_is_refused_naming_the_option_and_the_ruleset(
    table: Table,
) -> None:
    """COMMANDS.md: an option foreign to the ruleset is refused naming it and the ruleset."""
    await use_ruleset(table, Ruleset.V20)
    said = await begin(table, skill=2)
    assert said.answer.ephemeral
    assert "skill does not apply to the v20 ruleset" in (said.answer.message.content or "")
    assert await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL)) == []


@pytest.mark.parametrize(
    ("options", "against_difficulty", "words"),
    [
        ({"difficulty": 10}, None, "difficulty 10 is out of range: it must be 2 to 9"),
        (NOTHING, 10, "against_difficulty 10 is out of range: it must be 2 to 9"),
    ],
)
async def test_v20_resisted_extended_action_refuses_a_difficulty_of_ten_on_either_side(
    table: Table, options: dict[str, Any], against_difficulty: int | None, words: str
) -> None:
    """RULES.md §2: each side of a resisted action rolls against a difficulty of at most 9,
    and a resisted extended action is that contest, extended (a plain one may still ask
    for 10)."""
    await use_ruleset(table, Ruleset.V20)
    said = await begin(table, options=options, against=parts(dice(3)),
                       against_difficulty=against_difficulty)
    assert said.answer.ephemeral
    assert words in (said.answer.message.content or "")
    assert await table.store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL)) == []
    plain = await begin(table, options={"difficulty": 10})
    assert not plain.answer.ephemeral, plain.answer.text


async def test_a_dramatic_failure_carries_to_a_fresh_attempt_at_the_same_task(
    table: Table,
) -> None:
    pool = dice(1, 1, -3)  # a chance die
    first = await begin(table, pool, label="pick the lock", target=3, max_rolls=3)
    table.faces.add(1)
    rolled = await click(table, first.answer, "Roll")
    assert "Dramatic failure" in rolled.answer.text
    await click(table, card_of(rolled), "Abandon")
    again = await begin(table, pool, label="Pick the LOCK", target=3, max_rolls=3)
    assert "ended on a dramatic failure" in (again.answer.message.content or "")


# --- rolling ------------------------------------------------------------------------------------


async def test_pressing_roll_rolls_the_interval_and_moves_the_card_on(table: Table) -> None:
    said = await begin(table)
    table.faces.add(8, 8, 2)
    rolled = await click(table, said.answer, "Roll")
    roll = rolled.answer
    assert not roll.ephemeral
    assert "roll 1 of 3: +2 successes." in roll.text
    assert "2 successes" in roll.text
    assert roll.buttons == [SPEND_WILL]  # no Beat on a success
    card = card_of(rolled)
    assert card.kind == "edit"
    assert "2/5" in card.text
    assert card.custom_ids == ["sb1:ext:roll:1:2", "sb1:ext:abandon:1:2"]
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False)
    )
    assert [(r.action_id, r.message_id) for r in history] == [(1, 901)]


async def test_a_press_costs_three_trips_with_the_roll_message(table: Table) -> None:
    said = await begin(table)
    table.faces.add(8, 8, 2)
    before = table.store.trips
    await click(table, said.answer, "Roll")
    assert table.store.trips - before == 3  # read, write, the roll's message id


async def test_a_stale_card_rolls_nothing(table: Table) -> None:
    said = await begin(table)
    table.faces.add(8, 8, 2)
    await click(table, said.answer, "Roll")
    table.faces.add(9, 9, 9)
    stale = await click(table, said.answer, "Roll")  # the card as it was at version 1
    refused_with(stale, wording.STALE)
    assert table.faces.left == 3
    assert (await stored(table)).version == 2


async def test_a_card_press_without_a_version_is_told_the_card_is_out_of_date(
    table: Table,
) -> None:
    """Every card id carries the version it was drawn at (bot.edge.ids refuses one without);
    a press that reached the flow without one all the same is refused in the member's own
    words, as a stale card is, and changes nothing."""
    await begin(table)
    table.faces.add(8, 8, 2)
    press = Press(Kind.EXTENDED_CARD, Choice.ROLL.value, 1)
    said = await table.run(extended.card_pressed(table.deps, table.ctx(ALICE), press))
    refused_with(said, wording.STALE)
    assert table.faces.left == 3
    assert (await stored(table)).version == 1


async def test_two_presses_at_once_roll_once(table: Table) -> None:
    said = await begin(table)
    table.faces.add(8, 2, 2)  # one roll's faces: a second roll would run out of dice
    press = press_of(said.answer, "Roll")
    first, second = Recorder(), Recorder()
    await asyncio.gather(
        run(extended.card_pressed(table.deps, table.ctx(ALICE, message_id=901), press), first),
        run(extended.card_pressed(table.deps, table.ctx(STORYTELLER, message_id=901), press),
            second),
    )
    answers = sorted([first.answer, second.answer], key=lambda s: s.ephemeral)
    assert not answers[0].ephemeral
    assert answers[1].message.content == wording.STALE
    state = (await stored(table)).state(ExtendedAction).state
    assert (state.rolls, state.total) == (1, 1)


async def test_a_fistful_roll_whose_turn_count_moved_meanwhile_counts_all_the_same(
    table: Table, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RULES.md §3: every action of a turn counts towards the Successive Action Penalty.
    The roll's write saves the count only if it is still as the write read it; when that
    misses (another action of the character was counted first: PostgreSQL's exact re-run
    answers so), the write runs again, reading the count anew, and draws anew (the first
    draw, never shown nor stored, is dropped): the count is never lost."""
    await use_ruleset(table, Ruleset.FISTFUL)
    said = await begin(table, dice(3), target=10)
    save = AttemptRepository.save_turn_actions
    missed: list[int] = []

    def miss_once(self: AttemptRepository, *args: Any, **kwargs: Any) -> bool:
        if not missed:
            missed.append(kwargs["old"])
            return False
        return save(self, *args, **kwargs)

    monkeypatch.setattr(AttemptRepository, "save_turn_actions", miss_once)
    table.faces.add(2, 3, 4, 8, 9, 2)  # the dropped draw, then the roll stored
    rolled = await click(table, said.answer, "Roll")
    assert missed == [0]
    assert not rolled.answer.ephemeral
    assert "+2 successes" in rolled.answer.text
    assert table.faces.left == 0
    taken = await table.store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ALICE))
    state = (await stored(table)).state(ExtendedAction).state
    assert (taken, state.rolls, state.total) == (1, 1, 2)


async def test_only_the_owner_or_the_storyteller_may_roll_or_decide(table: Table) -> None:
    said = await begin(table)
    refused_with(await click(table, said.answer, "Roll", BOB), wording.not_allowed("Alice"))
    refused_with(await click(table, said.answer, "Abandon", BOB), wording.not_allowed("Alice"))
    by_command = await table.run(extended.roll(table.deps, table.ctx(BOB), label="force the door"))
    refused_with(by_command, wording.not_allowed("Alice"))
    table.faces.add(8, 8, 2)
    rolled = await click(table, said.answer, "Roll", STORYTELLER)
    assert not rolled.answer.ephemeral
    assert "Alice" in rolled.answer.text  # the owner's roll, whoever pressed
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True)
    )
    assert [r.roller_id for r in history] == [ALICE]


async def test_an_ended_action_takes_no_more_presses(table: Table) -> None:
    said = await begin(table)
    abandoned = await click(table, said.answer, "Abandon")
    assert abandoned.answer.kind == "update"
    assert abandoned.answer.buttons == []
    assert "abandoned" in abandoned.answer.text
    refused_with(await click(table, said.answer, "Roll"), wording.ended(Status.ABANDONED))
    assert (await stored(table)).status is ActionStatus.CLOSED


async def test_extended_roll_by_command_with_a_modifier_and_declared_will(table: Table) -> None:
    await use_ruleset(table, Ruleset.V20)
    await track_will(table, 3)
    await begin(table, dice(2, 2, label="Wits"), target=5, label="track the beast")
    table.faces.add(7, 2, 3)
    rolled = await table.run(
        extended.roll(table.deps, table.ctx(), label="track the beast", modifier=parts(dice(-1)),
                      declare_will=True)
    )
    assert not rolled.answer.ephemeral
    assert "including 1 from Willpower" in rolled.answer.text
    assert "2/5" in card_of(rolled).text
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))
    assert pool == WillPool(guild_id=GUILD, user_id=ALICE, current=2, maximum=3)


@pytest.mark.parametrize("own_since", [False, True], ids=["npc-active", "own-active-since"])
async def test_an_npc_s_extended_action_is_refused_to_a_starter_no_storyteller_any_more(
    table: Table, own_since: bool,
) -> None:
    """COMMANDS.md: an NPC is "usable by Storytellers". An action started as an NPC rolls
    as the NPC (its Will, its name, its actions this turn): its starter, no Storyteller
    any more (the role taken away since), is refused `/extended roll` and the card's Roll
    as a roll of the NPC is, their own sheet made active since or not, nothing rolled and
    the action as it was, where the NPC rolled on; as a Storyteller again they roll it."""
    storyteller = table.ctx(BOB, storyteller=True)
    await table.run(characters.create(table.deps, storyteller, "Goblin", npc=True))
    await table.run(characters.use(table.deps, storyteller, "Goblin"))
    started = await table.run(extended.start(
        table.deps, storyteller, parts(dice(3)), options=NOTHING, target=5, label="door"))
    assert not started.answer.ephemeral, started.answer.text
    if own_since:
        await table.run(characters.create(table.deps, table.ctx(BOB), "Bram"))
        await table.run(characters.use(table.deps, table.ctx(BOB), "Bram"))
    before = await table.store.read(lambda tx: tx.actions.get(1))
    table.faces.add(8, 8, 8)
    by_command = await table.run(extended.roll(table.deps, table.ctx(BOB)))
    by_card = await click(table, started.answer, "Roll", BOB)
    for said in (by_command, by_card):
        assert said.answer.ephemeral
        assert said.answer.text == npc_not_yours("Goblin", NpcUse.EXTENDED)
    assert table.faces.left == 3
    assert await table.store.read(lambda tx: tx.actions.get(1)) == before
    rolled = await table.run(extended.roll(table.deps, storyteller))
    assert not rolled.answer.ephemeral and table.faces.left == 0


async def test_declared_will_from_an_empty_pool_rolls_nothing(table: Table) -> None:
    await track_will(table, 3, current=0)
    await begin(table)
    said = await table.run(extended.roll(table.deps, table.ctx(), declare_will=True))
    assert said.answer.ephemeral
    assert "no Will left" in (said.answer.message.content or "")
    assert (await stored(table)).version == 1


@pytest.mark.parametrize(
    ("label", "words"),
    [("nothing", wording.not_found("nothing")), (None, wording.NONE_OPEN)],
)
async def test_extended_roll_without_a_matching_open_action_is_refused(
    table: Table, label: str | None, words: str
) -> None:
    refused_with(await table.run(extended.roll(table.deps, table.ctx(), label=label)), words)


async def test_extended_roll_asks_which_one_when_several_are_open(table: Table) -> None:
    await begin(table, label="one")
    await begin(table, label="two")
    refused_with(await table.run(extended.roll(table.deps, table.ctx())), wording.WHICH_ONE)


# --- decisions and the Condition form ---------------------------------------------------------


async def failed_once(table: Table) -> tuple[Said, Said]:
    """An action whose first roll failed: (its card, the roll's message)."""
    said = await begin(table)
    table.faces.add(2, 3, 4)
    rolled = await click(table, said.answer, "Roll")
    return card_of(rolled), rolled.answer


async def test_take_a_condition_opens_the_form_and_keeps_the_progress(table: Table) -> None:
    card, _ = await failed_once(table)
    assert card.buttons == ["Take a Condition", "Lose progress", "Abandon"]
    opened = await click(table, card, "Take a Condition")
    assert opened.said == []
    [modal] = opened.modals
    assert modal.custom_id == "sb1:extcond:1:2"
    assert modal.is_finished()  # stopped: nothing kept in memory
    taken = await submit(table, modal, "  Exhausted ")
    assert taken.answer.kind == "update"
    assert "Condition taken: Exhausted. Progress kept." in taken.answer.text
    assert taken.answer.buttons == ["Roll", "Abandon"]
    state = (await stored(table)).state(ExtendedAction).state
    assert state.conditions == ("Exhausted",)


async def test_an_empty_condition_name_is_refused(table: Table) -> None:
    card, _ = await failed_once(table)
    [modal] = (await click(table, card, "Take a Condition")).modals
    refused_with(await submit(table, modal, "   "), wording.EMPTY_CONDITION)
    assert (await stored(table)).version == 2


@pytest.mark.parametrize("name", ["\u200b", "\u2063\u2063", "a\nb", "\u202eabc"])
async def test_a_condition_with_nothing_visible_or_on_two_lines_is_refused(
    table: Table, name: str
) -> None:
    """The form takes a Condition as a sheet does (d7a9191): one line someone can read. A
    zero-width space, a line break or a right-to-left override was taken and the card
    showed "Conditions: " with nothing visible."""
    table.speak(None)
    card, _ = await failed_once(table)
    [modal] = (await click(table, card, "Take a Condition")).modals
    said = await submit(table, modal, name)
    assert said.answer.ephemeral
    assert "a Condition name is one line of 1 to 100 visible characters" in said.answer.text
    record = await stored(table)
    assert record.version == 2 and record.state(ExtendedAction).state.conditions == ()


async def test_a_form_submitted_after_the_action_moved_on_takes_nothing(table: Table) -> None:
    card, _ = await failed_once(table)
    [modal] = (await click(table, card, "Take a Condition")).modals
    await click(table, card, "Lose progress", STORYTELLER)
    refused_with(await submit(table, modal, "Spooked"), wording.FORM_STALE)
    state = (await stored(table)).state(ExtendedAction).state
    assert state.conditions == ()


async def test_the_form_does_not_open_on_a_stale_card(table: Table) -> None:
    card, _ = await failed_once(table)
    await click(table, card, "Lose progress")
    opened = await click(table, card, "Take a Condition")
    assert opened.modals == []
    refused_with(opened, wording.STALE)


async def test_a_second_press_of_a_choice_changes_nothing(table: Table) -> None:
    card, _ = await failed_once(table)
    first = await click(table, card, "Lose progress")
    assert first.answer.kind == "update"
    refused_with(await click(table, card, "Lose progress"), wording.STALE)
    assert (await stored(table)).version == 3


async def test_a_decision_settles_the_last_roll_and_its_buttons(table: Table) -> None:
    card, roll = await failed_once(table)
    assert roll.buttons == [SPEND_WILL, TAKE_BEAT]
    decided = await click(table, card, "Lose progress")
    [settled] = [s for s in decided.of("edit") if "extended action" not in s.text]
    assert settled.buttons == []
    refused_with(await click(table, roll, SPEND_WILL), wording.ROLL_MOVED_ON)


async def test_a_decision_settles_the_roll_the_state_names_not_a_newer_one_in_the_action(
    table: Table,
) -> None:
    """A decision reads the action's newest roll with it, as its last roll; should the
    state name another (no flow stores one so), that one is read and settled."""
    card, _ = await failed_once(table)
    last = await table.store.read(lambda tx: tx.rolls.get(1))
    assert last is not None and last.message_id is not None

    def write(tx: Tx) -> None:
        tx.rolls.insert(guild_id=last.guild_id, channel_id=last.channel_id,
                        roller_id=last.roller_id, result=last.result,
                        will_state=last.will_state, action_id=last.action_id)

    await table.store.write(write)
    decided = await click(table, card, "Lose progress")
    [settled] = [s for s in decided.of("edit") if "extended action" not in s.text]
    assert settled.target == last.message_id
    assert settled.buttons == []


async def test_waiving_a_botch_is_the_storytellers(table: Table) -> None:
    await use_ruleset(table, Ruleset.FISTFUL)
    said = await begin(table, dice(4), target=5)
    table.faces.add(1, 2, 3, 4)
    rolled = await click(table, said.answer, "Roll")
    card = card_of(rolled)
    waive = "Waive the botch (Storyteller)"
    assert card.buttons == ["Start over", "Abandon", waive]
    refused_with(await click(table, card, waive), wording.WAIVE_STORYTELLER)
    waived = await click(table, card, waive, STORYTELLER)
    assert "waived" in waived.answer.text
    assert waived.answer.buttons == ["Roll", "Abandon"]


async def test_a_botch_on_the_last_roll_of_an_effort_in_rolls_can_still_be_waived(
    table: Table,
) -> None:
    """RULES.md §3: a botch derails the effort (the Storyteller may waive it). An effort
    measured in rolls only completes with what it gathered, so waiving its last roll's
    botch completes it; nothing is left to start over with."""
    await use_ruleset(table, Ruleset.FISTFUL)
    said = await begin(table, dice(3), target=None, max_rolls=2)
    table.faces.add(8, 9, 2)
    first = await click(table, said.answer, "Roll")
    table.faces.add(1, 2, 3)
    last = await click(table, card_of(first), "Roll")
    card = card_of(last)
    waive = "Waive the botch (Storyteller)"
    assert card.buttons == ["Abandon", waive]
    assert "roll limit" not in card.text
    waived = await click(table, card, waive, STORYTELLER)
    assert "completed" in waived.answer.text
    assert "2 successes in all" in waived.answer.text
    assert waived.answer.buttons == []
    assert (await stored(table)).state(ExtendedAction).state.status is Status.COMPLETED


async def test_abandon_by_command_is_said_in_the_channel_and_the_card_follows(
    table: Table,
) -> None:
    await begin(table)
    said = await table.run(extended.abandon(table.deps, table.ctx(), label="force the door"))
    assert not said.answer.ephemeral
    assert said.answer.message.content == "**Alice**, **force the door**: Abandoned."
    card = card_of(said)
    assert card.kind == "edit"
    assert card.target == 901
    assert card.buttons == []
    refused_with(
        await table.run(extended.abandon(table.deps, table.ctx())), wording.NONE_OPEN
    )


# --- a deleted card ----------------------------------------------------------------------------


def card_edit(reply: Reply) -> Edit:
    """The edit of the action's card among a reply's."""
    [edit] = [each for each in reply.edits if each.message.embed is not None
              and "extended action" in (each.message.embed.title or "")]
    return edit


async def test_a_deleted_card_is_posted_again_by_the_next_change_and_remembered(
    table: Table,
) -> None:
    """The choices after a failure are offered on the card alone, so a card deleted by a
    moderator does not strand its action: the next change that brings the card up to date
    offers to post it afresh (the responder does when Discord says the message is
    unknown), the action remembers the new message, and later changes edit that one. Of
    two changes that both found it gone, the second copy is not remembered (it is
    deleted), so one card stays (the module's Decision)."""
    await begin(table, dice(2), target=5, max_rolls=5)
    table.faces.add(8, 3)
    first = card_edit(await extended.roll(table.deps, table.ctx()))
    table.faces.add(8, 3)
    second = card_edit(await extended.roll(table.deps, table.ctx()))
    assert first.message_id == second.message_id == 901
    assert first.reposted is not None and second.reposted is not None

    assert await first.reposted(950)
    assert (await stored(table)).message_id == 950
    assert not await second.reposted(951), "the first copy already took the card's place"
    assert (await stored(table)).message_id == 950
    table.faces.add(8, 3)
    said = await table.run(extended.roll(table.deps, table.ctx()))
    assert card_of(said).target == 950 and "3/5" in card_of(said).text
    listed = await table.run(extended.list_open(table.deps, table.ctx()))
    assert f"https://discord.com/channels/{GUILD}/{CHANNEL}/950" in listed.answer.text


async def test_a_roll_refused_for_a_pending_decision_brings_back_a_deleted_card(
    table: Table,
) -> None:
    """After a failure only the card offers the choices (take a Condition, lose progress,
    abandon): `/extended roll` is refused, nothing changes, and the refusal brings the card
    up to date, so a deleted one comes back at the foot of the channel with its choices
    and is remembered."""
    await begin(table, dice(2), target=5)
    table.faces.add(2, 3)
    await table.run(extended.roll(table.deps, table.ctx()))
    before = await stored(table)
    reply = await extended.roll(table.deps, table.ctx())
    assert reply.ephemeral and reply.message is not None
    assert reply.message.content == (
        "That roll cannot be made: a decision is pending: choose before rolling again.")
    edit = card_edit(reply)
    assert edit.message_id == 901 and edit.reposted is not None
    assert edit.message.view is not None
    labels = [str(getattr(item, "label", "")) for item in edit.message.view.children]
    assert [any(choice in label for label in labels)  # the pseudo-locales mark them
            for choice in ("Take a Condition", "Lose progress", "Abandon")] == [True] * 3
    assert await edit.reposted(950)
    after = await stored(table)
    assert (after.version, after.state_json) == (before.version, before.state_json)
    assert after.message_id == 950
    said = await table.run(extended.roll(table.deps, table.ctx()))
    assert said.answer.ephemeral and table.faces.left == 0, "nothing was rolled"


async def test_an_ended_actions_deleted_card_stays_gone(table: Table) -> None:
    """Once the action is over there is nothing to play on its card: its last edit posts
    nothing if the card was deleted, and a copy posted for a change made before the end
    is not remembered (it is deleted)."""
    await begin(table, dice(2), target=5, max_rolls=5)
    table.faces.add(8, 3)
    before = card_edit(await extended.roll(table.deps, table.ctx()))
    ended = card_edit(await extended.abandon(table.deps, table.ctx()))
    assert ended.reposted is None
    assert before.reposted is not None and not await before.reposted(950)
    assert (await stored(table)).message_id == 901


async def test_a_card_never_remembered_is_posted_by_the_next_change_and_remembered(
    table: Table,
) -> None:
    """When /extended start's card was shown but its message id was not saved (the write
    failed, or Discord gave no id), the next change that updates the card posts it instead
    (an edit of no message, offering to post) and the action remembers the new one."""
    reply = await extended.start(table.deps, table.ctx(), parts(dice(2)), options=NOTHING,
                                 target=5, label="force the door")  # its id never remembered
    assert reply.message is not None and (await stored(table)).message_id is None
    table.faces.add(8, 3)
    edit = card_edit(await extended.roll(table.deps, table.ctx()))
    assert edit.message_id is None and edit.reposted is not None
    assert await edit.reposted(950)
    assert (await stored(table)).message_id == 950


# --- Spend Will and Take a Beat on an extended roll ------------------------------------------


async def limit_failed(table: Table) -> tuple[Said, Recorder]:
    """An action whose last allowed roll failed: (the roll's message, that roll's recorder)."""
    said = await begin(table, target=3, max_rolls=2)
    table.faces.add(8, 8, 2)
    first = await click(table, said.answer, "Roll")
    table.faces.add(2, 3, 4)
    last = await click(table, card_of(first), "Roll")
    return last.answer, last


async def test_the_last_failed_roll_ends_the_action_but_will_can_still_save_it(
    table: Table,
) -> None:
    await track_will(table, 3)
    roll, rolled = await limit_failed(table)
    assert "roll limit was used up" in card_of(rolled).text
    assert card_of(rolled).buttons == []
    assert roll.buttons == [SPEND_WILL, TAKE_BEAT]
    assert (await stored(table)).status is ActionStatus.OPEN  # its last roll can still change
    listed = await table.run(extended.list_open(table.deps, table.ctx()))
    assert "force the door" not in listed.answer.text

    table.faces.add(8, 3, 4)
    spent = await click(table, roll, SPEND_WILL)
    assert spent.answer.kind == "update"
    assert "Willpower was spent after the roll" in spent.answer.text
    assert spent.answer.buttons == []
    assert spent.of("followup")[0].message.content == "Will spent: Will 2/3 left."
    assert spent.of("followup")[0].ephemeral
    assert "succeeded" in card_of(spent).text
    record = await stored(table)
    assert record.status is ActionStatus.CLOSED
    assert record.state(ExtendedAction).state.status is Status.SUCCEEDED

    again = await click(table, roll, SPEND_WILL)
    refused_with(again, REFUSALS[PressRefusal.ALREADY_SPENT])


@pytest.mark.parametrize("button", [SPEND_WILL, TAKE_BEAT])
async def test_an_npc_s_extended_roll_s_buttons_are_refused_to_a_roller_no_storyteller_now(
    table: Table, button: str,
) -> None:
    """Spend Will on an NPC's extended roll spends the NPC's Will, Take a Beat gives the NPC
    a Beat: its roller, no Storyteller any more (the role taken away since), is refused
    either as a roll of the NPC is, nothing drawn and the action as it was."""
    storyteller = table.ctx(BOB, storyteller=True, message_id=901)
    await table.run(characters.create(table.deps, storyteller, "Goblin", npc=True))
    await table.run(characters.use(table.deps, storyteller, "Goblin"))
    started = await table.run(extended.start(
        table.deps, storyteller, parts(dice(3)), options=NOTHING, target=5, label="door"))
    table.faces.add(2, 3, 4)
    press = press_of(started.answer, "Roll")
    failed = await table.run(extended.card_pressed(table.deps, storyteller, press))
    assert failed.answer.buttons == [SPEND_WILL, TAKE_BEAT], failed.answer.text
    before = await table.store.read(lambda tx: (tx.actions.get(1),
                                                tx.characters.named(GUILD, "Goblin")))
    table.faces.add(8, 8, 8)
    said = await click(table, failed.answer, button, BOB)
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours(
        "Goblin", NpcUse.WILL if button == SPEND_WILL else NpcUse.BEAT)
    assert table.faces.left == 3
    assert await table.store.read(lambda tx: (tx.actions.get(1),
                                              tx.characters.named(GUILD, "Goblin"))) == before


async def test_two_spend_will_presses_at_once_take_effect_once(table: Table) -> None:
    await track_will(table, 3)
    roll, _ = await limit_failed(table)
    table.faces.add(8, 3, 4)  # one spend's dice: a second would run out
    press = press_of(roll, SPEND_WILL)
    first, second = Recorder(), Recorder()
    await asyncio.gather(
        run(extended.roll_pressed(table.deps, table.ctx(message_id=902), press), first),
        run(extended.roll_pressed(table.deps, table.ctx(message_id=902), press), second),
    )
    answers = sorted([first.answer, second.answer], key=lambda s: s.ephemeral)
    assert answers[0].kind == "update"
    assert answers[1].message.content == REFUSALS[PressRefusal.ALREADY_SPENT]
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))
    assert pool is not None
    assert pool.current == 2


async def test_spend_will_costs_two_trips(table: Table) -> None:
    roll, _ = await limit_failed(table)
    table.faces.add(8, 3, 4)
    before = table.store.trips
    await click(table, roll, SPEND_WILL)
    assert table.store.trips - before == 2


async def test_take_a_beat_makes_the_failure_dramatic_and_the_next_roll_carries(
    table: Table,
) -> None:
    _, roll = await failed_once(table)
    beat = await click(table, roll, TAKE_BEAT)
    assert beat.answer.kind == "update"
    assert "Dramatic failure" in beat.answer.text
    assert beat.of("followup")[0].message.content == "Beat taken: you have 1 Beat."
    assert "-2 dice" in card_of(beat).text
    refused_with(await click(table, roll, TAKE_BEAT), REFUSALS[PressRefusal.BEAT_TAKEN])


async def test_a_roll_refused_after_a_dramatic_failure_says_what_the_minus_two_is(
    table: Table,
) -> None:
    """RULES.md §1: a dramatic failure gives the task's next roll -2 dice. A roll refused
    with it (Will declared on a pool it leaves below 1 even with +3) says where the -2
    comes from and that it weighs on that one roll, where it said the last attempt had
    failed and the Storyteller's `/scene end` cleared it: the dramatic failure was this
    attempt's, and a scene's end leaves it."""
    said = await begin(table, dice(2, -4), target=3, max_rolls=4)  # a chance die
    table.faces.add(1)
    rolled = await click(table, said.answer, "Roll")
    opened = await click(table, card_of(rolled), "Take a Condition")
    await submit(table, opened.modals[0], "Shaken")
    refused = await table.run(extended.roll(table.deps, table.ctx(), declare_will=True))
    assert refused.answer.ephemeral
    text = refused.answer.text
    assert "-2 dice: dramatic failure on the last extended roll." in text
    assert text.endswith("A dramatic failure at this action weighs on its next roll only: the "
                         "roll after that has the whole pool again.")
    assert "/scene end" not in text
    assert (await stored(table)).state(ExtendedAction).state.rolls == 1


async def test_only_the_owner_may_press_an_extended_rolls_buttons(table: Table) -> None:
    _, roll = await failed_once(table)
    refused_with(await click(table, roll, SPEND_WILL, STORYTELLER),
                 REFUSALS[PressRefusal.NOT_ROLLER])
    refused_with(await click(table, roll, TAKE_BEAT, BOB), REFUSALS[PressRefusal.NOT_ROLLER])
    assert (await stored(table)).version == 2


async def test_a_plain_roll_button_forged_onto_an_extended_roll_changes_nothing(
    table: Table,
) -> None:
    """An extended roll's Spend Will and Take a Beat are its card's own buttons
    (``sb1:extroll``), which change the action with the roll. A plain roll's button
    (``sb1:roll``) naming that roll, which no message draws, is refused as stale: no Will
    spent, no die drawn, no Beat, the roll and the action as they were."""
    await track_will(table, 3)
    _, roll = await failed_once(table)
    roll_id = press_of(roll, SPEND_WILL).key
    before = await stored(table)
    table.faces.add(9, 9, 9)
    for action in ("will", "beat"):
        said = await table.run(rolls.pressed(table.deps, table.ctx(), Press(Kind.ROLL, action,
                                                                            roll_id)))
        refused_with(said, REFUSALS[PressRefusal.STALE])
    assert table.faces.left == 3, "no Will die drawn"
    record = await table.store.read(lambda tx: tx.rolls.get(roll_id))
    assert record is not None
    assert (record.will_state, record.beat) == (WillState.OFFERED, False)
    assert record.result.outcome is Outcome.FAILURE
    assert await table.store.read(lambda tx: tx.will.get(GUILD, ALICE)) == WillPool(
        guild_id=GUILD, user_id=ALICE, current=3, maximum=3)
    assert (await stored(table)).version == before.version


# --- /extended list, autocomplete, saved state ---------------------------------------------------


async def test_list_shows_the_open_actions_with_links_to_their_cards(table: Table) -> None:
    await begin(table, label="research the ritual")
    await begin(table, user=BOB, label="pick the lock")
    said = await table.run(extended.list_open(table.deps, table.ctx()))
    assert said.answer.ephemeral
    lines = (said.answer.message.content or "").splitlines()
    assert lines[0].startswith(
        f"research the ritual · Alice · [0/5](https://discord.com/channels/{GUILD}/{CHANNEL}"
        "/901)"
    )
    assert "pick the lock" in lines[1]
    assert "Bob" in lines[1]


async def test_text_only_reaches_the_card_the_roll_and_the_list(table: Table) -> None:
    await table.store.write(
        lambda tx: tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)
    )
    said = await begin(table)
    table.faces.add(8, 8, 2)
    rolled = await click(table, said.answer, "Roll")
    listed = await table.run(extended.list_open(table.deps, table.ctx()))
    for text in (said.answer.text, rolled.answer.text, card_of(rolled).text, listed.answer.text):
        assert "·" not in text
        assert "⏳" not in text
        assert "🎲" not in text
        assert "█" not in text


async def test_autocomplete_offers_the_open_labels_containing_what_was_typed(
    table: Table,
) -> None:
    await begin(table, label="research the ritual")
    await begin(table, label="forge the papers")
    assert await extended.open_labels(table.deps, table.ctx(), "PAP") == ["forge the papers"]
    assert await extended.open_labels(table.deps, table.ctx(), "") == [
        "research the ritual", "forge the papers",
    ]


async def test_autocomplete_offers_no_label_the_label_option_would_refuse(table: Table) -> None:
    """An action kept with a hidden character in its label (before the `label` option
    refused one: LabelTransformer's Decision) is not offered, so no suggestion leads to a
    refusal; its card's buttons still roll it."""
    await begin(table, label="force the door")
    await begin(table, label="door\u200b ajar")
    assert await extended.open_labels(table.deps, table.ctx(), "door") == ["force the door"]


async def test_autocomplete_offers_only_the_actions_the_member_may_roll(table: Table) -> None:
    """Another member's action would be refused: it is not offered (the Storyteller sees all)."""
    await begin(table, label="research the ritual")
    await begin(table, label="pick the lock", user=BOB)

    assert await extended.open_labels(table.deps, table.ctx(ALICE), "") == ["research the ritual"]
    assert await extended.open_labels(table.deps, table.ctx(BOB), "") == ["pick the lock"]
    assert await extended.open_labels(table.deps, table.ctx(STORYTELLER), "") == [
        "research the ritual", "pick the lock",
    ]


async def test_an_action_saved_before_the_schema_version_still_works(table: Table) -> None:
    await begin(table)
    record = await stored(table)
    old_json = record.state_json.replace('"schema_version":1,', "")
    assert "schema_version" not in old_json
    await table.store.write(
        lambda tx: tx.actions._run(  # an old row, as the previous release saved it
            "UPDATE actions SET state_json = ? WHERE id = 1", (old_json,)
        )
    )
    assert (await stored(table)).state(ExtendedAction).schema_version == 1
    table.faces.add(8, 8, 2)
    rolled = await table.run(extended.roll(table.deps, table.ctx()))
    assert "2/5" in card_of(rolled).text
    assert '"schema_version":1' in (await stored(table)).state_json


async def test_a_forged_card_id_for_another_kind_of_action_is_gone(table: Table) -> None:
    await table.store.write(
        lambda tx: tx.actions.create(
            ActionKind.TEAMWORK, guild_id=GUILD, channel_id=CHANNEL, owner_id=ALICE,
            label="x", state=ExtendedAction.model_validate_json(
                '{"state": {"request": {"ruleset": "cofd", "terms": []}}, "owner_name": "A"}'
            ),
        )
    )
    press = Press(Kind.EXTENDED_CARD, Choice.ROLL.value, 1, 1)
    said = await table.run(extended.card_pressed(table.deps, table.ctx(message_id=901), press))
    refused_with(said, wording.GONE)


async def test_a_key_of_another_channels_action_is_gone(table: Table) -> None:
    """A card is posted in its action's channel: its buttons and Condition form pressed
    with the key of another channel's action (a forged custom_id) name none of this one,
    so a Storyteller of another channel rolls, decides and abandons nothing of it."""
    said = await begin(table)
    elsewhere = table.ctx(STORYTELLER, message_id=901, channel_id=CHANNEL + 1)
    table.faces.add(8, 8, 8)
    for label in ("Roll", "Abandon"):
        press = press_of(said.answer, label)
        refused_with(await table.run(extended.card_pressed(table.deps, elsewhere, press)),
                     wording.GONE)
    form = Press(Kind.CONDITION_FORM, "", 1, 1)
    refused_with(await table.run(extended.condition_submitted(
        table.deps, elsewhere, form, {wording.CONDITION_INPUT: "Shaken"})), wording.GONE)
    assert table.faces.left == 3
    record = await stored(table)
    assert (record.version, record.status) == (1, ActionStatus.OPEN)


async def test_a_forged_extended_roll_id_of_a_teamwork_roll_is_gone(table: Table) -> None:
    """An extended roll's Spend Will (``sb1:extroll:will:<roll id>``) forged with the id of
    the member's own teamwork roll is refused like a card id of another kind of action:
    the action is not an extended one (it was read as one, and the member got the generic
    apology). No Will is spent, no die drawn, the teamwork as it was."""
    await track_will(table, 3)
    tw = await table.run(teamwork.start(
        table.deps, table.ctx(), lambda config: build_request(config.ruleset, dice(2)),
        label="lift the car", helper_limit=None,
    ))
    action_id = press_of(tw.answer, "Roll").key
    record = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert record is not None
    table.faces.add(2, 3)
    rolled = await table.run(teamwork.card_pressed(
        table.deps, table.ctx(message_id=record.message_id),
        Press(Kind.TEAMWORK_CARD, "roll", action_id, record.version)))
    roll_id = press_of(rolled.answer, SPEND_WILL).key
    table.faces.add(9, 9, 9)
    for action in ("will", "beat"):
        said = await table.run(extended.roll_pressed(
            table.deps, table.ctx(), Press(Kind.EXTENDED_ROLL, action, roll_id)))
        refused_with(said, wording.GONE)
    assert table.faces.left == 3
    assert await table.store.read(lambda tx: tx.will.get(GUILD, ALICE)) == WillPool(
        guild_id=GUILD, user_id=ALICE, current=3, maximum=3)
    after = await table.store.read(lambda tx: tx.actions.get(action_id))
    assert after is not None and after.version == record.version + 1  # rolled, nothing since


async def test_a_label_cannot_make_the_list_link_somewhere_else(table: Table) -> None:
    """The card's link sits on the bot's own words: a label that closes a masked link and
    opens its own ("evil](https://example.com) [x") never makes one."""
    await begin(table, label="evil](https://example.com) [x")
    said = await table.run(extended.list_open(table.deps, table.ctx()))
    text = said.answer.message.content or ""
    targets = re.findall(r"(?<!\\)\[[^\[\]]*\]\((\S+?)\)", text)
    assert targets, text
    assert all(target.startswith("https://discord.com/channels/") for target in targets), text
