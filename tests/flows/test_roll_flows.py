"""/roll, /odds and a roll's buttons, as flows: real store, scripted dice, no Discord."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from bot.cogs.rolling import Rolling
from bot.flows import characters, clock, extended, rolls, will
from bot.render.buttons import REFUSALS, ROLL_AGAIN, SAVE_ROLL, SPEND_WILL, TAKE_BEAT, TRY_AGAIN
from bot.render.odds import chart_title
from bot.render.rolls import NpcUse, npc_not_yours
from engine.models import Ruleset, Term, WillUse
from engine.parser import parse_pool_names
from engine.records import ChannelOption, PressRefusal, RollRecord, WillPool, WillTiming
from tests.flows.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    COPIES,
    GUILD,
    STORYTELLER,
    Recorder,
    Table,
    parts,
)
from tests.flows.typed import INVISIBLE, kept_no_label, typed
from tests.store.conftest import idle_workers, warm


def ask(value: int, **options: Any) -> rolls.Ask:
    terms = (Term(label=None, value=value),)
    return lambda config: rolls.build_request(config.ruleset, terms, **options)


async def test_a_roll_is_stored_and_answered_with_its_dice_and_buttons(table: Table) -> None:
    table.faces.add(3, 4, 2)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door",
                                      private=False))
    answer = said.answer
    assert not answer.ephemeral
    assert "Failure" in answer.text
    assert answer.buttons == [SPEND_WILL, TAKE_BEAT, TRY_AGAIN]
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False)
    )
    assert [r.label for r in history] == ["door"]
    assert history[0].message_id == 901  # remembered once sent


async def test_a_roll_costs_three_trips_and_a_spend_one(table: Table) -> None:
    table.faces.add(3, 4, 2)
    before = table.store.trips
    await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door", private=False))
    assert table.store.trips - before == 3
    roll_id = int(table.last.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(9, 9, 1)
    before = table.store.trips
    await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), roll_id))
    assert table.store.trips - before == 1


async def test_a_roll_reads_ahead_with_its_settings_and_its_write_reads_nothing_back(
    table: Table,
) -> None:
    """A labelled roll reads the member's standing and open rolls ahead, with the
    settings (one statement), and its write has them checked instead of reading them
    again, its new roll stored under an id reserved while idle: on PostgreSQL one round
    trip a transaction (the settings, the write with its COMMIT, the message id); Spend
    Will 2 (the roll, its pool and the settings, then the rest with COMMIT). SQLite makes
    one trip a transaction."""
    postgres = not table.pseudo
    table.faces.add(3, 4, 2)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door", private=False))
    # Bob's rolls and spend first: PostgreSQL prepares each statement once per session
    table.faces.add(3, 4, 2, 3, 4, 9, 9, 1)  # 3 dice, 2 (one failure before), 3 Will dice
    for _ in range(2):  # the second closes the first
        bob = await table.run(rolls.roll(table.deps, table.ctx(BOB), ask(3), label="door",
                                         private=False))
    await table.run(rolls.spend_will_pressed(table.deps, table.ctx(BOB), _roll_id(bob)))
    if postgres:
        await warm(table.store)
    table.faces.add(3, 4)  # 2 dice: one failure before
    before = table.store.round_trips
    again = await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door",
                                       private=False))
    assert table.store.round_trips - before == 3
    assert "-1 die: trying again after a failure" in again.answer.text
    assert [edit.buttons for edit in again.of("edit")] == [[]], "the first roll closed"
    if postgres:
        await warm(table.store)
    table.faces.add(9, 9, 1)
    before = table.store.round_trips
    spent = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), _roll_id(again)))
    assert table.store.round_trips - before == (2 if postgres else 1)
    assert "Success" in spent.answer.text


@pytest.mark.parametrize("text", INVISIBLE)
async def test_a_label_of_nothing_visible_is_no_label_and_feeds_no_successive_attempts(
    table: Table, text: str
) -> None:
    """Labelled rolls feed successive attempts (COMMANDS.md); a label of nothing visible
    (a zero-width space, an invisible separator, a combining mark alone) is no label, as a
    blank one: the roll shows none, /history keeps none, and a failure costs the next
    roll with that "label" no die."""
    label = await typed(Rolling.roll, "label", text)
    table.faces.add(3, 4, 2, 3, 4, 2)  # two failures of 3 dice each
    for _ in range(2):
        said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label=label,
                                          private=False))
        assert "trying again" not in said.answer.text
    await kept_no_label(table, text)


async def test_a_label_is_kept_without_the_spaces_around_it(table: Table) -> None:
    """The spaces around a label are no part of it: the card and /history show the words."""
    table.faces.add(3, 4, 2)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(3),
                               label=await typed(Rolling.roll, "label", "  door  "),
                               private=False))
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False)
    )
    assert [r.label for r in history] == ["door"]


def _roll_id(said: Recorder) -> int:
    return int(said.answer.custom_ids[0].rsplit(":", 1)[1])


async def test_two_failures_at_one_action_at_once_count_from_each_other(table: Table) -> None:
    """Both rolls read the member's standing ahead at once; the one written second finds
    it moved (PostgreSQL's check misses and its write runs again, reading it) and rolls
    with the penalty of the first."""
    table.faces.add(*([2] * 20))
    said = await asyncio.gather(*(
        table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door", private=False))
        for _ in range(2)
    ))

    penalised = ["-1 die: trying again after a failure" in each.answer.text for each in said]
    assert sorted(penalised) == [False, True]
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, CHANNEL, ALICE, label="door", turn=False, will=False))
    assert standing.failures == 2


async def test_a_press_between_a_roll_s_read_and_its_write_shows_in_the_card_it_closes(
    table: Table,
) -> None:
    """The next roll read the member's open roll ahead; Spend Will lands on that roll
    before the next roll writes (PostgreSQL's check misses and the write runs again,
    reading it): the closed card it edits shows the Will spent, not the roll as read.
    (Will untracked: the press changes the roll alone, not the member's standing.)"""
    table.faces.add(3, 4)
    first = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="door",
                                       private=False))
    card = await table.store.read(lambda tx: tx.rolls.get(_roll_id(first)))
    assert card is not None and card.message_id is not None
    store, write = table.store, table.store.write
    pressed: list[Recorder] = []

    async def press_first(body: Any) -> Any:  # once, before the next roll's write
        if store.write is press_first:
            store.write = write  # type: ignore[method-assign]
            pressed.append(await table.run(
                rolls.spend_will_pressed(table.deps, table.ctx(), _roll_id(first))))
            if not table.pseudo:  # PostgreSQL: the writer reserves the next roll's id
                await idle_workers(store)
        return await write(body)

    # the Will dice of the press (a failure still), then the next roll's dice (drawn
    # again when its write runs again)
    table.faces.add(2, 5, 6, *[2] * 12)
    store.write = press_first  # type: ignore[method-assign]
    try:
        said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label=None,
                                          private=False))
    finally:
        store.write = write  # type: ignore[method-assign]

    assert "Will: 2 5 6" in pressed[0].answer.text
    edits = said.of("edit")
    assert [edit.target for edit in edits] == [card.message_id]  # its Try again goes
    assert "Will: 2 5 6" in edits[0].text, "the closed card shows the Will spent"
    assert edits[0].buttons == []
    stored = await table.store.read(lambda tx: tx.rolls.get(_roll_id(first)))
    assert stored is not None and stored.closed and stored.result.will is WillUse.AFTER


async def test_spend_will_after_failure_adds_three_dice_and_updates_in_place(
    table: Table,
) -> None:
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=ALICE, current=5, maximum=5))
    )
    table.faces.add(3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None, private=False))
    roll_id = int(table.last.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(9, 10, 2, 8)
    said = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), roll_id))
    assert said.answer.kind == "update"
    assert "3 successes" in said.answer.text
    assert said.of("followup")[0].message.content == "Will spent: Will 4/5 left."
    record = await table.store.read(lambda tx: tx.rolls.get(roll_id))
    assert record is not None
    assert record.result.will is WillUse.AFTER


async def test_spend_will_twice_takes_effect_once(table: Table) -> None:
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=ALICE, current=5, maximum=5))
    )
    table.faces.add(3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None, private=False))
    roll_id = int(table.last.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(2, 2, 2, 2, 2, 2)
    first = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), roll_id))
    second = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), roll_id))
    assert first.answer.kind == "update"
    assert second.answer.ephemeral
    assert second.answer.message.content == REFUSALS[PressRefusal.ALREADY_SPENT]
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))
    assert pool == WillPool(guild_id=GUILD, user_id=ALICE, current=4, maximum=5)


async def test_a_typed_trait_without_a_character_is_said_typed_not_winning_over_a_sheet(
    table: Table,
) -> None:
    """A number typed with a name (Strength 3) wins over the sheet, and the card says so
    when the roll had a sheet; a member with no character had no sheet for it to win
    over, so the card says only that it was typed."""
    def typed_roll() -> Any:
        return rolls.roll(table.deps, table.ctx(),
                          rolls.ByName(parse_pool_names("Strength 3 + 2")),
                          label=None, private=False)

    table.faces.add(1, 2, 3, 8, 9)
    lines = (await table.run(typed_roll())).answer.text.splitlines()
    assert "Strength: typed" in lines
    assert "over the sheet" not in "\n".join(lines)
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    table.faces.add(1, 2, 3, 8, 9)
    lines = (await table.run(typed_roll())).answer.text.splitlines()
    assert "Strength: typed (a typed number wins over the sheet)" in lines


async def test_someone_elses_roll_button_changes_nothing(table: Table) -> None:
    table.faces.add(3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None, private=False))
    roll_id = int(table.last.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    said = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(BOB), roll_id))
    assert said.answer.message.content == REFUSALS[PressRefusal.NOT_ROLLER]
    assert table.faces.left == 0


async def test_declared_will_with_an_empty_pool_rolls_nothing(table: Table) -> None:
    """Will declared with an empty pool rolls nothing, and says the two ways on: roll
    without will:True, or rest (as the Spend Will button's refusal says to rest)."""
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=ALICE, current=0, maximum=3))
    )
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(2, will=True), label=None,
                                      private=False))
    assert said.answer.ephemeral
    assert said.answer.text == ("You have no Will left to spend (Will 0/3): roll without "
                                "will:True, or rest (/will rest) to regain some.")
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True)
    )
    assert history == []


async def test_try_again_carries_the_successive_attempt_penalty(table: Table) -> None:
    table.faces.add(3, 4, 2)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door", private=False))
    roll_id = int(table.last.answer.custom_ids[-1].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(8, 8)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), roll_id))
    assert "-1 die: trying again after a failure" in said.answer.text
    assert "2 successes" in said.answer.text
    closed = said.of("edit")
    assert closed, "the first roll's message loses its buttons"
    assert closed[0].buttons == []
    again = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), roll_id))
    assert again.answer.ephemeral


async def _will_declared_failure(
    table: Table, timing: WillTiming, *, current: int = 5, again: bool = False
) -> int:
    """Alice's cofd roll of 3 dice with Will declared (3 more), all failing, in a channel of
    that Will timing, from a tracked pool of ``current``/5: its id. Labelled, for Try
    again; with ``again`` as /roll keeps it asked and without a label, for Roll again."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.WILL_TIMING, timing))
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=ALICE, current=current, maximum=5)))
    table.faces.add(2, 3, 4, 5, 6, 7)
    asked: rolls.Ask | rolls.ByName = (
        rolls.ByName(parse_pool_names("3"), {"will": True}) if again else ask(3, will=True))
    said = await table.run(rolls.roll(table.deps, table.ctx(), asked,
                                      label=None if again else "door", private=False))
    assert "Failure" in said.answer.text
    assert said.answer.buttons == [TAKE_BEAT, ROLL_AGAIN, SAVE_ROLL] if again else [
        TAKE_BEAT, TRY_AGAIN]
    return _roll_id(said)


async def _alices_pool(table: Table) -> WillPool | None:
    return await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))


async def _newest(table: Table) -> RollRecord:
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True, count=1))
    return history[0]


@pytest.mark.parametrize("again", [False, True], ids=["try again", "roll again"])
async def test_a_retry_where_will_is_declared_before_rolling_declares_it_again(
    table: Table, again: bool
) -> None:
    """Try again and Roll again roll "the same request" (COMMANDS.md): in a channel that
    wants Will declared before rolling no Spend Will button follows, so a roll made with
    Will declared is made again with it, its 3 dice drawn and 1 Will spent."""
    first = await _will_declared_failure(table, WillTiming.BEFORE, again=again)
    assert await _alices_pool(table) == WillPool(guild_id=GUILD, user_id=ALICE, current=4,
                                                 maximum=5)
    # Try again: 2 dice (one failure before) and 3 Will dice; Roll again: 3 and 3
    table.faces.add(*((8, 2, 3, 4, 5, 9) if again else (8, 2, 3, 4, 9)))
    press = rolls.roll_again_pressed if again else rolls.try_again_pressed
    said = await table.run(press(table.deps, table.ctx(), first))
    assert not said.answer.ephemeral
    assert "2 successes" in said.answer.text
    assert table.faces.left == 0
    assert said.of("followup")[0].message.content == "Will spent: Will 3/5 left."
    newest = await _newest(table)
    assert newest.id != first and newest.result.will is WillUse.DECLARED
    assert SPEND_WILL not in said.answer.buttons


async def test_a_retry_where_will_may_be_spent_after_offers_the_button_instead(
    table: Table,
) -> None:
    """Where the new roll offers Spend Will, a retry of a roll made with Will declared
    declares nothing: the player chooses again after seeing the dice."""
    first = await _will_declared_failure(table, WillTiming.ANY)
    table.faces.add(2, 3)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first))
    assert SPEND_WILL in said.answer.buttons
    assert table.faces.left == 0, "2 dice, no Will dice"
    assert (await _newest(table)).result.will is WillUse.NONE
    assert await _alices_pool(table) == WillPool(guild_id=GUILD, user_id=ALICE, current=4,
                                                 maximum=5)


@pytest.mark.parametrize("again", [False, True], ids=["try again", "roll again"])
async def test_a_retry_that_declares_will_from_an_empty_pool_rolls_nothing_and_says_so(
    table: Table, again: bool
) -> None:
    """The press declares Will again, and the pool is empty: nothing is rolled or claimed,
    and the member hears both ways on; after a rest the same button rolls."""
    first = await _will_declared_failure(table, WillTiming.BEFORE, current=1, again=again)
    press = rolls.roll_again_pressed if again else rolls.try_again_pressed
    said = await table.run(press(table.deps, table.ctx(), first))
    assert said.answer.ephemeral
    assert said.answer.text == (
        "You have no Will left to spend (Will 0/5), and this roll was made with Will "
        "declared: rest (/will rest) to regain some, or roll it with /roll without will:True.")
    assert table.faces.left == 0, "no dice drawn"
    stored = await table.store.read(lambda tx: tx.rolls.get(first))
    assert stored is not None and not stored.retried and not stored.closed
    rested = await table.run(will.rest(table.deps, table.ctx()))
    assert "Will 1/5" in rested.answer.text
    table.faces.add(*([2] * (6 if again else 5)))
    rolled = await table.run(press(table.deps, table.ctx(), first))
    assert not rolled.answer.ephemeral
    assert table.faces.left == 0
    assert await _alices_pool(table) == WillPool(guild_id=GUILD, user_id=ALICE, current=0,
                                                 maximum=5)


async def test_try_again_on_a_roll_closed_after_its_read_is_refused_and_rolls_nothing(
    table: Table,
) -> None:
    """The Storyteller ends the scene between Try again's read (the roll open) and its
    write: the write finds the roll no longer among the open rolls it closes (on
    PostgreSQL the check at COMMIT misses and the write runs again, reading them), so it
    refuses as a closed roll's press, and nothing is rolled, counted or stored."""
    table.faces.add(3, 4, 2)
    first = _roll_id(await table.run(rolls.roll(table.deps, table.ctx(), ask(3), label="door",
                                                private=False)))
    store, write = table.store, table.store.write

    async def scene_ends_first(body: Any) -> Any:  # once, before Try again's write
        if store.write is scene_ends_first:
            store.write = write  # type: ignore[method-assign]
            ended = await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))
            assert "1 open roll closed" in ended.answer.text
            if not table.pseudo:  # PostgreSQL: the writer reserves the next roll's id
                await idle_workers(store)
        return await write(body)

    table.faces.add(8, 8)
    store.write = scene_ends_first  # type: ignore[method-assign]
    try:
        said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first))
    finally:
        store.write = write  # type: ignore[method-assign]

    assert said.answer.ephemeral
    assert said.answer.message.content == REFUSALS[PressRefusal.CLOSED]
    assert table.faces.left == 2, "no dice drawn"
    stored = await table.store.read(lambda tx: tx.rolls.get(first))
    assert stored is not None and stored.closed and not stored.retried
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True))
    assert [roll.id for roll in history] == [first]


async def test_try_again_on_a_roll_will_turned_into_a_success_is_refused_as_stale(
    table: Table,
) -> None:
    """Try again is for a failed labelled roll: once Spend Will made it a success, the card
    no longer shows it, and a press from an older view of the card changes nothing."""
    table.faces.add(3, 4)
    first = _roll_id(await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="door",
                                                private=False)))
    table.faces.add(9, 9, 1)
    spent = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), first))
    assert "2 successes" in spent.answer.text
    assert TRY_AGAIN not in spent.answer.buttons
    table.faces.add(2, 2)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first))
    assert said.answer.ephemeral
    assert said.answer.message.content == REFUSALS[PressRefusal.STALE]
    assert table.faces.left == 2, "no dice drawn"
    stored = await table.store.read(lambda tx: tx.rolls.get(first))
    assert stored is not None and not stored.closed and not stored.retried


async def test_try_again_refuses_when_spend_will_lands_between_its_read_and_its_write(
    table: Table,
) -> None:
    """Spend Will turns the failure into a success after Try again read the roll (failed,
    open) and before its write: the write sees the roll as it is when it closes it (on
    PostgreSQL the check at COMMIT misses and the write runs again, reading it), and
    refuses; the success stays as it is, its retry unclaimed."""
    table.faces.add(3, 4)
    first = _roll_id(await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="door",
                                                private=False)))
    store, write = table.store, table.store.write
    pressed: list[Recorder] = []

    async def will_first(body: Any) -> Any:  # once, before Try again's write
        if store.write is will_first:
            store.write = write  # type: ignore[method-assign]
            pressed.append(await table.run(
                rolls.spend_will_pressed(table.deps, table.ctx(), first)))
            if not table.pseudo:  # PostgreSQL: the writer reserves the next roll's id
                await idle_workers(store)
        return await write(body)

    # the Will dice, then what a retry would draw (on PostgreSQL the write's first run
    # draws them before its COMMIT's check misses)
    table.faces.add(9, 9, 1, 2, 2)
    store.write = will_first  # type: ignore[method-assign]
    try:
        said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first))
    finally:
        store.write = write  # type: ignore[method-assign]

    assert "2 successes" in pressed[0].answer.text
    assert said.answer.message.content == REFUSALS[PressRefusal.STALE]
    stored = await table.store.read(lambda tx: tx.rolls.get(first))
    assert stored is not None and stored.result.succeeded and not stored.retried
    assert not stored.closed, "a refused write closes nothing"
    history = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True))
    assert [roll.id for roll in history] == [first], "no retry stored"


async def test_a_secret_roll_is_copied_to_the_storyteller_channel(table: Table) -> None:
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    table.faces.add(8, 9)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="sneak",
                                      private=True))
    assert said.answer.ephemeral
    notice = said.of("followup")[0]
    assert not notice.ephemeral
    assert "secret roll" in (notice.message.content or "")
    assert said.of("post")[0].target == COPIES


async def test_the_storytellers_copy_of_a_secret_roll_names_the_channel_it_was_made_in(
    table: Table,
) -> None:
    """One copies channel takes the secret rolls of every channel and thread of the server:
    the copy names where the roll was made (a thread, not its channel), so the Storyteller
    knows which scene it belongs to and where `/history` lists it; the roller's own answer
    says it too. A channel mention pings no one."""
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    thread = CHANNEL + 1
    table.faces.add(8, 9)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(channel_id=thread, parent_id=CHANNEL), ask(2), label="sneak",
        private=True))
    line = f"Secret roll in <#{thread}>: the channel saw only that a roll was made."
    assert line in said.of("post")[0].text
    assert line in said.answer.text
    (roll_id,) = [int(custom_id.rsplit(":", 1)[1]) for custom_id in said.answer.custom_ids
                  if custom_id.startswith("sb1:will:")]
    table.speak(None)  # the pressed answer is the roller's own: no public pseudo-locale
    table.faces.add(8, 8, 8)
    spent = await table.run(rolls.spend_will_pressed(
        table.deps, table.ctx(channel_id=thread, parent_id=CHANNEL), roll_id))
    assert line in spent.of("edit")[0].text, "the copy brought up to date still names it"


async def test_a_secret_roll_whose_copy_fails_still_stands_and_says_so(table: Table) -> None:
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    table.faces.add(8, 9)
    said = await table.run(
        rolls.roll(table.deps, table.ctx(), ask(2), label=None, private=True),
        unpostable=[COPIES],
    )
    assert any("could not copy" in (s.message.content or "") for s in said.of("followup"))


@pytest.mark.parametrize("option", ["difficulty", "risky"])
async def test_an_option_foreign_to_the_ruleset_is_refused(table: Table, option: str) -> None:
    value: Any = 7 if option == "difficulty" else True
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3, **{option: value}),
                                      label=None, private=False))
    assert said.answer.ephemeral
    assert option in (said.answer.message.content or "")
    assert table.faces.left == 0


async def test_odds_answer_with_a_chart(table: Table) -> None:
    said = await table.run(rolls.odds(table.deps, table.ctx(), ask(3)))
    assert said.answer.message.file is not None
    assert "Success" in said.answer.text


async def test_odds_are_for_the_asker_alone_unless_made_public(table: Table) -> None:
    mine = await table.run(rolls.odds(table.deps, table.ctx(), ask(3)))
    shared = await table.run(rolls.odds(table.deps, table.ctx(), ask(3), public=True))

    assert mine.answer.ephemeral
    assert not shared.answer.ephemeral


async def test_odds_leave_out_outcomes_the_request_cannot_reach(table: Table) -> None:
    """A 3-die cofd pool cannot fail dramatically (only a chance die can)."""
    said = await table.run(rolls.odds(table.deps, table.ctx(), ask(3)))

    assert "Dramatic failure" not in said.answer.text
    assert "0.00%" not in said.answer.text
    assert "Exceptional success: " in said.answer.text


def test_the_odds_chart_title_names_every_option() -> None:
    assert chart_title("Wits 3 + Composure 2", Ruleset.COFD, "8-again, rote") == (
        "Wits 3 + Composure 2 (cofd), 8-again, rote"
    )
    assert chart_title("5", Ruleset.V20, "") == "5 (v20)"


async def test_will_declared_with_the_roll_is_confirmed_like_a_spend_after_it(
    table: Table,
) -> None:
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=ALICE, current=4, maximum=5))
    )
    table.faces.add(3, 4, 2, 9, 9, 1)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3, will=True), label=None,
                                      private=False))

    followups = said.of("followup")
    assert [(f.text, f.ephemeral) for f in followups] == [("Will spent: Will 3/5 left.", True)]


async def _in(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(
        lambda tx: tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)
    )


async def test_a_pool_emptied_by_the_successive_action_penalty_says_so_and_how_to_reset_it(
    table: Table,
) -> None:
    await _in(table, Ruleset.FISTFUL)
    dexterity = (Term(label="Dexterity", value=3),)
    asked = lambda config: rolls.build_request(config.ruleset, dexterity)  # noqa: E731
    for faces in ((8, 8, 8), (8, 8), (8,)):
        table.faces.add(*faces)
        await table.run(rolls.roll(table.deps, table.ctx(), asked, label=None, private=False))

    fourth = await table.run(rolls.roll(table.deps, table.ctx(), asked, label=None,
                                        private=False))

    assert fourth.answer.ephemeral
    assert fourth.answer.text == (
        "That roll cannot be made: the pool is 0: with no dice the character cannot take this"
        " action now.\nHow the pool got there: Dexterity 3; -3 dice: successive action this"
        " turn.\nThe Successive Action Penalty counts this character's earlier actions this"
        " turn: the Storyteller's `/turn next` starts a new turn and clears it."
    )


async def _as(table: Table, name: str, user: int = STORYTELLER, *, create: bool = False) -> None:
    """The member (a Storyteller by default) acts as the NPC ``name``, made first if
    ``create``."""
    ctx = table.ctx(user, storyteller=True)
    if create:
        made = await table.run(characters.create(table.deps, ctx, name, npc=True))
        assert "Created" in made.answer.text, made.answer.text
    said = await table.run(characters.use(table.deps, ctx, name))
    assert name in said.answer.text, said.answer.text


async def _fistful_roll(table: Table, user: int = STORYTELLER) -> Recorder:
    """A 4-dice roll of the member's (all successes), as their active character."""
    table.faces.add(8, 8, 8, 8)
    return await table.run(rolls.roll(table.deps, table.ctx(user, storyteller=True), ask(4),
                                      label=None, private=False))


SUCCESSIVE = "-1 die: successive action this turn"


async def test_the_successive_action_penalty_counts_each_character_s_actions_apart(
    table: Table,
) -> None:
    """RULES.md §3: each action a *character* takes after the first in a turn costs a die.
    A Storyteller rolling two NPCs in turn gives neither the other's penalty, each NPC's
    second action has its own; a member rolling without a sheet keeps a count of their own,
    and ``/turn next`` clears them all."""
    await _in(table, Ruleset.FISTFUL)
    await _as(table, "Goblin", create=True)
    goblin = await _fistful_roll(table)
    await _as(table, "Orc", create=True)
    orc = await _fistful_roll(table)
    await _as(table, "Goblin")
    goblin_again = await _fistful_roll(table)
    alice = [await _fistful_roll(table, ALICE) for _ in range(2)]
    await table.run(clock.turn_next(table.deps, table.ctx(STORYTELLER)))
    next_turn = await _fistful_roll(table)

    assert "successive action" not in goblin.answer.text
    assert "successive action" not in orc.answer.text, "the Orc's first action"
    assert SUCCESSIVE in goblin_again.answer.text, "the Goblin's second action"
    assert "successive action" not in alice[0].answer.text
    assert SUCCESSIVE in alice[1].answer.text
    assert "successive action" not in next_turn.answer.text


async def test_a_fistful_initiative_roll_is_no_action_of_the_turn(table: Table) -> None:
    """RULES.md §3, §7: a `/roll initiative` orders the turn's actions and is none of them
    (as `/init join`'s roll is not): the first action after it takes no die off, and an
    initiative roll after an action takes no die off either."""
    await _in(table, Ruleset.FISTFUL)
    initiative = lambda config: rolls.build_request(  # noqa: E731
        config.ruleset, (Term(value=2),), initiative=True)
    table.faces.add(6, 7)
    first = await table.run(rolls.roll(table.deps, table.ctx(ALICE), initiative, label=None,
                                       private=False))
    action = await _fistful_roll(table, ALICE)
    table.faces.add(6, 7)
    again = await table.run(rolls.roll(table.deps, table.ctx(ALICE), initiative, label=None,
                                       private=False))
    second = await _fistful_roll(table, ALICE)

    assert "2 successes" in first.answer.text
    assert "successive action" not in action.answer.text, "the turn's first action"
    assert "successive action" not in again.answer.text
    assert SUCCESSIVE in second.answer.text, "the second action counts the first alone"


@pytest.mark.parametrize("pool", ["3", "Strength + Brawl"])
async def test_an_npc_made_active_where_the_member_was_storyteller_rolls_nowhere_else(
    table: Table, pool: str,
) -> None:
    """COMMANDS.md: an NPC is "usable by Storytellers". A member with Manage Channels in
    one channel makes an NPC active there (for the server); in a channel where they are no
    Storyteller (or once their role is taken away) a roll, of typed numbers too, is
    refused naming the NPC and how to roll as their own, nothing rolled and its Will
    untouched, where typed numbers rolled as the NPC and spent its Will."""
    await _as(table, "Goblin", BOB, create=True)
    before = await table.store.read(lambda tx: tx.characters.named(GUILD, "Goblin"))
    table.faces.add(*[8] * 10)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(BOB, channel_id=CHANNEL + 1),
        rolls.ByName(parse_pool_names(pool), {"will": True}), label=None, private=False))
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours("Goblin")
    assert table.faces.left == 10
    assert await table.store.read(lambda tx: tx.characters.named(GUILD, "Goblin")) == before


async def test_try_again_on_an_npc_s_roll_once_its_roller_is_no_storyteller_is_refused(
    table: Table,
) -> None:
    """Try again is a new roll as the NPC the failed roll was made with: a roller who is no
    Storyteller any more (their role taken away since) is refused it as a roll of the NPC
    is, nothing rolled, where it rolled as the NPC."""
    await _as(table, "Goblin", BOB, create=True)
    table.faces.add(2, 3, 4)
    failed = _roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(BOB, storyteller=True), ask(3), label="door", private=False)))
    table.faces.add(8, 8)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(BOB), failed))
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours("Goblin", NpcUse.AGAIN)
    assert table.faces.left == 2


@pytest.mark.parametrize("button", ["will", "beat"])
async def test_spend_will_or_take_a_beat_on_an_npc_s_roll_once_its_roller_is_no_storyteller(
    table: Table, button: str,
) -> None:
    """Spend Will spends the NPC's Will and Take a Beat gives the NPC a Beat: a roller who
    is no Storyteller any more (their role taken away since the roll) is refused either as
    a roll of the NPC is, nothing drawn and neither the roll nor the sheet changed, where
    the NPC's Will was spent (or its Beat taken) by a member who may not use it."""
    await _as(table, "Goblin", BOB, create=True)
    table.faces.add(2, 3, 4)
    failed = _roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(BOB, storyteller=True), ask(3), label="door", private=False)))
    before = await table.store.read(lambda tx: (tx.characters.named(GUILD, "Goblin"),
                                                tx.rolls.get(failed)))
    table.faces.add(8, 8, 8)
    press = rolls.spend_will_pressed if button == "will" else rolls.take_beat_pressed
    said = await table.run(press(table.deps, table.ctx(BOB), failed))
    assert said.answer.ephemeral
    assert said.answer.text == npc_not_yours(
        "Goblin", NpcUse.WILL if button == "will" else NpcUse.BEAT)
    assert table.faces.left == 3
    assert await table.store.read(lambda tx: (tx.characters.named(GUILD, "Goblin"),
                                              tx.rolls.get(failed))) == before


@pytest.mark.parametrize("button", ["again", "will", "beat"])
async def test_a_press_on_an_npc_s_roll_refused_says_the_roll_was_the_npc_s_not_the_sheet(
    table: Table, button: str,
) -> None:
    """A press on a roll made as an NPC, by a roller who is no Storyteller any more and has
    made their own sheet active since, is refused in words true of it: the roll was made as
    the NPC and only a Storyteller may act on it; not "your active character here is the
    NPC: make one of your own active", false now and no help (their own is active)."""
    await _as(table, "Goblin", BOB, create=True)
    table.faces.add(2, 3, 4)
    failed = _roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(BOB, storyteller=True), ask(3), label="door", private=False)))
    await table.run(characters.create(table.deps, table.ctx(BOB), "Bram"))
    await table.run(characters.use(table.deps, table.ctx(BOB), "Bram"))
    press = {"again": rolls.try_again_pressed, "will": rolls.spend_will_pressed,
             "beat": rolls.take_beat_pressed}[button]
    said = await table.run(press(table.deps, table.ctx(BOB), failed))
    assert said.answer.ephemeral
    assert said.answer.text.startswith("This roll was made as Goblin, a non-player character")
    assert "active" not in said.answer.text


async def test_storytellers_sharing_an_npc_share_its_successive_action_penalty(
    table: Table,
) -> None:
    """An NPC's actions are the NPC's, whoever rolls it: a second Storyteller rolling the
    NPC another already rolled this turn rolls its second action."""
    await _in(table, Ruleset.FISTFUL)
    await _as(table, "Goblin", create=True)
    await _fistful_roll(table)
    await _as(table, "Goblin", BOB)

    second = await _fistful_roll(table, BOB)

    assert SUCCESSIVE in second.answer.text


async def test_try_again_counts_the_action_of_the_character_its_roll_was_made_with(
    table: Table,
) -> None:
    """Try again rolls as the roll's own character, whichever is active now: the action
    is that character's second, and the active one's count does not move."""
    await _in(table, Ruleset.FISTFUL)
    await _as(table, "Goblin", create=True)
    table.faces.add(2, 3, 4, 5)
    failed = _roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(STORYTELLER), ask(4), label="door", private=False)))
    await _as(table, "Orc", create=True)
    table.faces.add(8, 8, 8)

    retried = await table.run(rolls.try_again_pressed(table.deps, table.ctx(STORYTELLER),
                                                      failed))
    orc = await _fistful_roll(table)

    assert SUCCESSIVE in retried.answer.text, "the Goblin's second action"
    assert "Rolled by: Goblin" in retried.answer.text
    assert "successive action" not in orc.answer.text, "the Orc's first action"


async def test_try_again_declaring_will_again_spends_the_will_of_the_rolls_character(
    table: Table,
) -> None:
    """Where Will is declared before rolling, Try again of Mara's roll made with Will
    declared spends Mara's Will again, though Zed is active now; Zed's Will and the
    member's own pool are untouched."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.WILL_TIMING, WillTiming.BEFORE))
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=ALICE, current=5, maximum=5)))
    for name in ("Mara", "Zed"):
        made = await table.run(characters.create(table.deps, table.ctx(), name))
        assert "Created" in made.answer.text, made.answer.text
    await table.run(characters.use(table.deps, table.ctx(), "Mara"))

    async def wills() -> dict[str, int]:
        sheets = await table.store.read(lambda tx: tx.characters.named(GUILD, "Mara")
                                        + tx.characters.named(GUILD, "Zed"))
        return {sheet.name: sheet.will_pool().current for sheet in sheets}

    start = await wills()
    table.faces.add(2, 3, 4, 5, 6, 7)  # 3 dice and 3 Will dice, all failing
    failed = _roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(), ask(3, will=True), label="door", private=False)))
    await table.run(characters.use(table.deps, table.ctx(), "Zed"))
    table.faces.add(8, 2, 3, 4, 5)  # 2 dice (one failure before) and 3 Will dice

    retried = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), failed))

    assert "Rolled by: Mara" in retried.answer.text
    assert table.faces.left == 0
    assert await wills() == {"Mara": start["Mara"] - 2, "Zed": start["Zed"]}
    assert await _alices_pool(table) == WillPool(guild_id=GUILD, user_id=ALICE, current=5,
                                                 maximum=5)


async def test_an_extended_action_counts_the_actions_of_the_character_it_rolls_as(
    table: Table,
) -> None:
    """An extended action rolls as the character it was started with, whoever is active
    now: each interval is that character's action this turn, counted with its other rolls
    and apart from the member's own rolls without a sheet and their other characters'."""
    await _in(table, Ruleset.FISTFUL)
    await table.store.write(lambda tx: tx.attempts.save_turn_actions(
        GUILD, CHANNEL, STORYTELLER, old=0, new=2))  # the Storyteller's own, before the NPCs
    await _as(table, "Goblin", create=True)
    started = await table.run(extended.start(
        table.deps, table.ctx(STORYTELLER), parts((Term(label=None, value=4),)), options={},
        target=20, label="dig"))
    assert not started.answer.ephemeral, started.answer.text
    await _as(table, "Orc", create=True)
    await _fistful_roll(table)
    rolled = []
    for faces in ((8, 8, 8, 8), (8, 8, 8)):
        table.faces.add(*faces)
        rolled.append(await table.run(extended.roll(table.deps, table.ctx(STORYTELLER),
                                                    label="dig")))

    assert "successive action" not in rolled[0].answer.text, "the Goblin's first action"
    assert SUCCESSIVE in rolled[1].answer.text, "the Goblin's second"
    assert table.faces.left == 0


async def test_a_v20_retry_refused_at_difficulty_10_names_the_retries_and_the_way_out(
    table: Table,
) -> None:
    await _in(table, Ruleset.V20)
    for _ in range(2):
        table.faces.add(2, 3, 4)
        await table.run(rolls.roll(table.deps, table.ctx(), ask(3, difficulty=8), label="climb",
                                   private=False))

    third = await table.run(rolls.roll(table.deps, table.ctx(), ask(3, difficulty=8),
                                       label="climb", private=False))

    assert third.answer.text.endswith(
        "\nHow the pool got there: 3; difficulty +2: trying again after a failure.\n"
        "That penalty comes from trying “climb” again after failing: a success clears it, and"
        " so does the Storyteller's `/scene end`; another action deserves another label."
    )
    assert table.faces.left == 0, "nothing was rolled"


@pytest.mark.parametrize("beat_first", [True, False])
async def test_will_and_a_beat_pressed_together_never_lose_the_will_dice(
    table: Table, beat_first: bool
) -> None:
    """Take a Beat reads, decides and writes in one transaction: whichever lands first,
    the stored roll agrees with the Will pool (a spent Will's dice are never overwritten
    by a Beat decided on the roll as it was before them)."""
    await table.store.write(
        lambda tx: tx.will.save(None, WillPool(guild_id=GUILD, user_id=ALICE, current=5, maximum=5))
    )
    table.faces.add(3, 4)
    await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None, private=False))
    roll_id = int(table.last.answer.custom_ids[0].rsplit(":", 1)[1])  # type: ignore[union-attr]
    table.faces.add(2, 3, 4)  # the Will dice fail too: a Beat is still possible after them
    presses = [
        rolls.take_beat_pressed(table.deps, table.ctx(), roll_id),
        rolls.spend_will_pressed(table.deps, table.ctx(), roll_id),
    ]
    before = table.store.trips

    await asyncio.gather(*(table.run(press) for press in (presses if beat_first
                                                          else reversed(presses))))

    assert table.store.trips - before == 2, "one transaction each"
    stored = await table.store.read(lambda tx: tx.rolls.get(roll_id))
    pool = await table.store.read(lambda tx: tx.will.get(GUILD, ALICE))
    assert stored is not None
    assert pool is not None
    assert stored.beat
    spent = stored.will_state.value == "spent"
    assert spent is (not beat_first), "a Beat taken first closes the Will offer"
    assert (stored.result.will is WillUse.AFTER) is spent, "the Will dice are where Will went"
    assert pool.current == (4 if spent else 5)


async def test_odds_show_the_pool_as_rolled_with_its_resistance(table: Table) -> None:
    said = await table.run(rolls.odds(table.deps, table.ctx(), ask(5, resist=2)))

    assert "Pool: 5 · -2 dice: resistance · = 3 dice" in said.answer.text


async def test_try_again_after_the_channel_s_ruleset_changed_is_refused(table: Table) -> None:
    """Try again rolls the roll's own request: once the table plays another ruleset here,
    it would roll by rules no longer played, so it is refused and nothing is rolled."""
    table.faces.add(3, 4)
    first = _roll_id(await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="door",
                                                private=False)))
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20))
    table.faces.add(8, 8)
    said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), first))
    assert said.answer.ephemeral
    assert said.answer.text.startswith("This channel's ruleset changed since that roll")
    assert table.faces.left == 2
    stored = await table.store.read(lambda tx: tx.rolls.get(first))
    assert stored is not None and not stored.retried and not stored.closed
