"""Rolls: round-trips, Spend Will, Take a Beat, Try again, closing, history, void.

Every button is one conditional update: it returns the roll it changed, or None
when the roll's state refuses it (a second press, a stale button). The reason a
player hears is the engine's rule (``engine.offers``) on the roll as it stands.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.store import MAX_HISTORY, Conflict, PostgresStore, Store, Tx
from bot.store.attempts import AttemptRepository
from bot.store.rolls import OpenRoll, RollRepository
from bot.store.settings import SettingsRepository
from engine.characters import new_sheet
from engine.models import RollResult, Ruleset, WillUse
from engine.offers import beat_refusal, retry_refusal, will_spend_refusal
from engine.records import (
    ActionKind,
    PressRefusal,
    RollRecord,
    Voided,
    WillPool,
    WillState,
)
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    STORYTELLER,
    beats,
    failure,
    get_roll,
    idle_workers,
    roll,
    success,
    track_will,
    with_beat,
    with_will,
)

OTHER_GUILD = 1_000_000_000_000_000_009


async def _get(store: Store, roll_id: int) -> RollRecord:
    return await get_roll(store, roll_id)


async def _set_will(store: Store, user_id: int, maximum: int, current: int | None = None) -> None:
    await store.write(lambda tx: track_will(tx, user_id, maximum, current))


async def _will(store: Store, user_id: int = ROLLER) -> WillPool | None:
    return await store.read(lambda tx: tx.will.get(GUILD, user_id))


async def _beats(store: Store) -> int:
    return await store.read(beats)


def _spend(
    tx: Tx, roll_id: int, user_id: int, result: RollResult
) -> tuple[RollRecord, WillPool | None]:
    """Spend Will's write, as the button's flow runs it: the engine's rule on the roll and
    pool as they stand, the conditional update, then the debit of a tracked pool."""
    before = tx.rolls.get(roll_id)
    pool = None if before is None else tx.will.get(before.guild_id, before.roller_id)
    refused = will_spend_refusal(before, user_id, pool)
    if refused is not None:
        raise Conflict(refused)
    changed = tx.rolls.spend_will(roll_id, user_id, result)
    if changed is None:
        raise Conflict(PressRefusal.ALREADY_SPENT)
    if pool is not None:
        pool = tx.will.debit(changed.guild_id, changed.roller_id)
    return changed, pool


async def _spend_will(
    store: Store, roll_id: int, user_id: int = ROLLER, result: RollResult | None = None
) -> tuple[RollRecord, WillPool | None] | PressRefusal:
    """One Spend Will press: what it changed, or why it was refused."""
    new = with_will(failure()) if result is None else result
    try:
        return await store.write(lambda tx: _spend(tx, roll_id, user_id, new))
    except Conflict as conflict:
        reason = conflict.reason
    assert isinstance(reason, PressRefusal)
    return reason


def _beat(tx: Tx, roll_id: int, user_id: int, result: RollResult) -> tuple[RollRecord, int]:
    """Take a Beat's write: the conditional update, then the Beat counted."""
    changed = tx.rolls.take_beat(roll_id, user_id, result)
    if changed is None:
        raise Conflict(beat_refusal(tx.rolls.get(roll_id), user_id) or PressRefusal.BEAT_TAKEN)
    return changed, tx.will.add_beat(changed.guild_id, changed.roller_id)


async def _take_beat(
    store: Store, roll_id: int, user_id: int = ROLLER
) -> tuple[RollRecord, int] | PressRefusal:
    """One Take a Beat press: the roll and the Beats now, or why it was refused."""
    try:
        return await store.write(lambda tx: _beat(tx, roll_id, user_id, with_beat(failure())))
    except Conflict as conflict:
        reason = conflict.reason
    assert isinstance(reason, PressRefusal)
    return reason


async def _close(store: Store, roller_id: int | None = None) -> list[RollRecord]:
    return await store.write(lambda tx: tx.rolls.close(GUILD, CHANNEL, roller_id))


async def _void_roll(store: Store, roll_id: int, by_user_id: int = STORYTELLER) -> Voided | None:
    return await store.write(lambda tx: tx.rolls.void(GUILD, CHANNEL, roll_id, by_user_id))


async def _history(
    store: Store,
    *,
    viewer_id: int,
    viewer_is_storyteller: bool,
    count: int = 10,
    member_id: int | None = None,
) -> list[RollRecord]:
    return await store.read(
        lambda tx: tx.rolls.history(
            GUILD,
            CHANNEL,
            viewer_id=viewer_id,
            viewer_is_storyteller=viewer_is_storyteller,
            count=count,
            member_id=member_id,
        )
    )


# --- storing ------------------------------------------------------------------


async def test_a_stored_roll_returns_its_result_unchanged(store: Store) -> None:
    result = success()

    roll_id = await roll(store, result=result, label="punch", private=True, roller_name="Ada")
    record = await _get(store, roll_id)

    assert record.roller_name == "Ada"
    assert record.result == result
    assert record.request == result.request
    assert (record.guild_id, record.channel_id, record.roller_id) == (GUILD, CHANNEL, ROLLER)
    assert (record.label, record.private, record.will_state) == ("punch", True, WillState.OFFERED)
    assert not (record.beat or record.retried or record.closed or record.void)
    assert record.message_id is None
    assert record.created_at.tzinfo is not None


async def test_insert_returns_the_roll_as_stored(store: Store) -> None:
    inserted = await store.write(
        lambda tx: tx.rolls.insert(
            guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, roller_name="Ada",
            result=success(), will_state=WillState.NONE, label="punch",
        )
    )

    assert inserted == await _get(store, inserted.id)


async def test_an_unknown_roll_is_none(store: Store) -> None:
    assert await store.read(lambda tx: tx.rolls.get(404)) is None


async def test_the_messages_of_a_roll_are_remembered(store: Store) -> None:
    roll_id = await roll(store, private=True)

    await store.write(
        lambda tx: tx.rolls.attach_messages(
            roll_id, 555, copy_channel_id=666, copy_message_id=777
        )
    )
    record = await _get(store, roll_id)

    assert (record.message_id, record.copy_channel_id, record.copy_message_id) == (555, 666, 777)


# --- Spend Will -----------------------------------------------------------------


async def test_spending_will_replaces_the_result_and_debits_the_pool_once(store: Store) -> None:
    await _set_will(store, ROLLER, maximum=5, current=3)
    roll_id = await roll(store)
    new_result = with_will(failure())

    spent = await _spend_will(store, roll_id, result=new_result)

    assert not isinstance(spent, PressRefusal)
    record, pool = spent
    assert record.result == new_result
    assert record.will_state is WillState.SPENT
    assert pool == WillPool(guild_id=GUILD, user_id=ROLLER, current=2, maximum=5)
    assert await _will(store) == pool
    assert (await _get(store, roll_id)).result == new_result


async def test_the_conditional_spend_acts_once_and_leaves_the_pool_to_the_caller(
    store: Store,
) -> None:
    await _set_will(store, ROLLER, maximum=5, current=3)
    roll_id = await roll(store)
    new_result = with_will(failure())

    first = await store.write(lambda tx: tx.rolls.spend_will(roll_id, ROLLER, new_result))
    second = await store.write(lambda tx: tx.rolls.spend_will(roll_id, ROLLER, new_result))

    assert first is not None
    assert first.will_state is WillState.SPENT
    assert second is None
    pool = await _will(store)
    assert pool is not None
    assert pool.current == 3, "the Will debit is the caller's own call (tx.will.debit)"


async def test_an_untracked_will_pool_does_not_block_a_spend(store: Store) -> None:
    roll_id = await roll(store)

    spent = await _spend_will(store, roll_id)

    assert not isinstance(spent, PressRefusal)
    assert spent[1] is None
    assert await _will(store) is None


async def test_spend_will_takes_only_a_result_with_will_after_the_roll(store: Store) -> None:
    roll_id = await roll(store)

    with pytest.raises(ValueError, match="Will spent after the roll"):
        await store.write(lambda tx: tx.rolls.spend_will(roll_id, ROLLER, failure()))

    assert (await _get(store, roll_id)).will_state is WillState.OFFERED


async def _not_found(store: Store) -> int:
    return 404


async def _someone_elses(store: Store) -> int:
    return await roll(store, roller_id=OTHER)


async def _void(store: Store) -> int:
    roll_id = await roll(store)
    await _void_roll(store, roll_id)
    return roll_id


async def _closed(store: Store) -> int:
    roll_id = await roll(store)
    await _close(store)
    return roll_id


async def _declared(store: Store) -> int:
    return await roll(store, result=failure(will=WillUse.DECLARED), will_state=WillState.DECLARED)


async def _not_offered(store: Store) -> int:
    return await roll(store, will_state=WillState.NONE)


async def _spent(store: Store) -> int:
    roll_id = await roll(store)
    await _spend_will(store, roll_id)
    return roll_id


async def _beat_taken(store: Store) -> int:
    roll_id = await roll(store)
    await _take_beat(store, roll_id)
    return roll_id


async def _empty_pool(store: Store) -> int:
    await _set_will(store, ROLLER, maximum=3, current=0)
    return await roll(store)


@pytest.mark.parametrize(
    ("setup", "reason", "roll_refuses"),
    [
        (_not_found, PressRefusal.NOT_FOUND, True),
        (_someone_elses, PressRefusal.NOT_ROLLER, True),
        (_void, PressRefusal.VOID, True),
        (_closed, PressRefusal.CLOSED, True),
        (_declared, PressRefusal.DECLARED, True),
        (_not_offered, PressRefusal.NOT_OFFERED, True),
        (_spent, PressRefusal.ALREADY_SPENT, True),
        (_beat_taken, PressRefusal.BEAT_TAKEN, True),
        # The roll would take it: the pool refuses, which is the write's check.
        (_empty_pool, PressRefusal.NO_WILL, False),
    ],
)
async def test_a_refused_will_spend_says_why_and_changes_nothing(
    store: Store, setup: Callable[[Store], Awaitable[int]], reason: PressRefusal, roll_refuses: bool
) -> None:
    await _set_will(store, OTHER, maximum=2)
    roll_id = await setup(store)

    def before(tx: Tx) -> tuple[RollRecord | None, WillPool | None, WillPool | None, int]:
        return (
            tx.rolls.get(roll_id),
            tx.will.get(GUILD, ROLLER),
            tx.will.get(GUILD, OTHER),
            beats(tx),
        )

    state = await store.read(before)
    asked_first = will_spend_refusal(state[0], ROLLER, state[1])
    answer = await _spend_will(store, roll_id)

    assert asked_first is reason, "read before rolling, the same reason"
    assert answer is reason
    assert await store.read(before) == state

    def conditional(tx: Tx) -> RollRecord | None:
        changed = tx.rolls.spend_will(roll_id, ROLLER, with_will(failure()))
        raise Conflict(changed)

    with pytest.raises(Conflict) as caught:
        await store.write(conditional)
    assert (caught.value.reason is None) is roll_refuses, "the update's own WHERE clause"
    assert await store.read(before) == state


async def test_a_spend_that_would_act_has_no_refusal(store: Store) -> None:
    await _set_will(store, ROLLER, maximum=3, current=1)
    roll_id = await roll(store)

    record, pool = await store.read(
        lambda tx: (tx.rolls.get(roll_id), tx.will.get(GUILD, ROLLER))
    )

    assert record is not None
    assert record.id == roll_id
    assert will_spend_refusal(record, ROLLER, pool) is None


async def test_only_one_of_a_hundred_concurrent_spends_takes_effect(store: Store) -> None:
    await _set_will(store, ROLLER, maximum=5)
    roll_id = await roll(store)

    answers = await asyncio.gather(*(_spend_will(store, roll_id) for _ in range(100)))

    assert sum(not isinstance(answer, PressRefusal) for answer in answers) == 1
    assert answers.count(PressRefusal.ALREADY_SPENT) == 99
    pool = await _will(store)
    assert pool is not None
    assert pool.current == 4


async def test_only_one_of_a_hundred_concurrent_bare_updates_takes_effect(store: Store) -> None:
    roll_id = await roll(store)
    new_result = with_will(failure())

    answers = await asyncio.gather(
        *(
            store.write(lambda tx: tx.rolls.spend_will(roll_id, ROLLER, new_result))
            for _ in range(100)
        )
    )

    assert sum(answer is not None for answer in answers) == 1


async def test_concurrent_spends_from_two_connections_take_effect_once(
    store: Store, db_path: Path
) -> None:
    await _set_will(store, ROLLER, maximum=5)
    roll_id = await roll(store)
    other = await Store.open(db_path)
    try:
        answers = await asyncio.gather(
            *(_spend_will(store if i % 2 else other, roll_id) for i in range(100))
        )
    finally:
        await other.close()

    assert sum(not isinstance(answer, PressRefusal) for answer in answers) == 1
    assert answers.count(PressRefusal.ALREADY_SPENT) == 99
    pool = await _will(store)
    assert pool is not None
    assert pool.current == 4


# --- Take a Beat ------------------------------------------------------------------


async def test_taking_a_beat_ends_the_will_offer_and_counts_a_beat(store: Store) -> None:
    roll_id = await roll(store)

    taken = await _take_beat(store, roll_id)

    assert not isinstance(taken, PressRefusal)
    record, count = taken
    assert count == 1
    assert record.result == with_beat(failure())
    assert record.beat
    assert record.will_state is WillState.NONE
    assert not record.closed
    assert await _beats(store) == 1


async def test_the_conditional_beat_acts_once_and_leaves_the_count_to_the_caller(
    store: Store,
) -> None:
    roll_id = await roll(store)
    new_result = with_beat(failure())

    first = await store.write(lambda tx: tx.rolls.take_beat(roll_id, ROLLER, new_result))
    second = await store.write(lambda tx: tx.rolls.take_beat(roll_id, ROLLER, new_result))

    assert first is not None
    assert first.beat
    assert second is None
    assert await _beats(store) == 0, "the Beat is the caller's own call (tx.will.add_beat)"


async def test_a_roll_gives_one_beat_and_no_will_after_it_but_may_be_tried_again(
    store: Store,
) -> None:
    roll_id = await roll(store)
    await _take_beat(store, roll_id)

    again = await _take_beat(store, roll_id)
    will = await _spend_will(store, roll_id)
    retry = await store.write(lambda tx: tx.rolls.claim_retry(roll_id, ROLLER))

    assert again is PressRefusal.BEAT_TAKEN
    assert will is PressRefusal.BEAT_TAKEN
    assert retry
    assert (await _get(store, roll_id)).will_state is WillState.NONE
    assert await _beats(store) == 1


async def test_beats_add_up_over_rolls(store: Store) -> None:
    for _ in range(3):
        roll_id = await roll(store)
        await _take_beat(store, roll_id)

    assert await _beats(store) == 3


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (_not_found, PressRefusal.NOT_FOUND),
        (_someone_elses, PressRefusal.NOT_ROLLER),
        (_void, PressRefusal.VOID),
        (_closed, PressRefusal.CLOSED),
    ],
)
async def test_a_refused_beat_says_why_and_changes_nothing(
    store: Store, setup: Callable[[Store], Awaitable[int]], reason: PressRefusal
) -> None:
    roll_id = await setup(store)
    before = await store.read(lambda tx: tx.rolls.get(roll_id))

    answer = await _take_beat(store, roll_id)

    assert answer is reason
    assert await store.read(lambda tx: tx.rolls.get(roll_id)) == before
    assert await _beats(store) == 0


async def test_a_beat_is_taken_with_will_already_spent(store: Store) -> None:
    roll_id = await roll(store)
    await _spend_will(store, roll_id)

    taken = await _take_beat(store, roll_id)

    assert not isinstance(taken, PressRefusal)
    assert taken[0].will_state is WillState.SPENT


async def test_take_beat_takes_only_a_result_with_the_beat(store: Store) -> None:
    roll_id = await roll(store)

    with pytest.raises(ValueError, match="Beat taken"):
        await store.write(lambda tx: tx.rolls.take_beat(roll_id, ROLLER, failure()))


async def test_only_one_of_many_concurrent_beats_counts(store: Store) -> None:
    roll_id = await roll(store)

    answers = await asyncio.gather(*(_take_beat(store, roll_id) for _ in range(50)))

    assert sum(not isinstance(answer, PressRefusal) for answer in answers) == 1
    assert answers.count(PressRefusal.BEAT_TAKEN) == 49
    assert await _beats(store) == 1


# --- Try again ----------------------------------------------------------------------


async def test_try_again_is_claimed_once_by_the_roller(store: Store) -> None:
    roll_id = await roll(store)

    def body(tx: Tx) -> tuple[bool, ...]:
        return (
            tx.rolls.claim_retry(roll_id, OTHER),
            tx.rolls.claim_retry(roll_id, ROLLER),
            tx.rolls.claim_retry(roll_id, ROLLER),
        )

    stranger, first, second = await store.write(body)
    now = await _get(store, roll_id)

    assert (stranger, first, second) == (False, True, False)
    assert now.retried
    assert retry_refusal(now, OTHER) is PressRefusal.NOT_ROLLER
    assert retry_refusal(now, ROLLER) is PressRefusal.ALREADY_RETRIED


async def test_try_again_on_a_closed_roll_is_refused(store: Store) -> None:
    roll_id = await _closed(store)

    answer = await store.write(lambda tx: tx.rolls.claim_retry(roll_id, ROLLER))

    assert answer is False
    assert retry_refusal(await _get(store, roll_id), ROLLER) is PressRefusal.CLOSED


# --- closing ------------------------------------------------------------------------


async def test_rolling_again_closes_only_that_rollers_open_rolls_in_that_channel(
    store: Store,
) -> None:
    mine = [await roll(store), await roll(store)]
    theirs = await roll(store, roller_id=OTHER)
    elsewhere = await roll(store, channel_id=OTHER_CHANNEL)

    closed = await _close(store, ROLLER)

    assert [record.id for record in closed] == mine
    assert all(record.closed for record in closed)
    assert not (await _get(store, theirs)).closed
    assert not (await _get(store, elsewhere)).closed


async def test_a_new_roll_closes_its_rollers_open_rolls_in_one_step_and_stays_open(
    store: Store,
) -> None:
    mine = [await roll(store), await roll(store)]
    theirs = await roll(store, roller_id=OTHER)
    elsewhere = await roll(store, channel_id=OTHER_CHANNEL)

    def roll_again(tx: Tx) -> tuple[RollRecord, list[RollRecord]]:
        return tx.rolls.close_and_insert(
            guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, roller_name="Roller",
            result=failure(), will_state=WillState.OFFERED, label="force the door",
        )

    new, closed = await store.write(roll_again)
    stored = await _get(store, new.id)
    then, closed_then = await store.write(roll_again)

    assert [record.id for record in closed] == mine
    assert all(record.closed and record.message_id is None for record in closed)
    assert [record.label for record in closed] == ["force the door"] * 2
    assert new.id > theirs
    assert stored == new, "what it answers is what it stored, open until the next roll"
    assert [record.id for record in closed_then] == [new.id]
    assert not (await _get(store, then.id)).closed
    assert not (await _get(store, theirs)).closed
    assert not (await _get(store, elsewhere)).closed


@pytest.mark.parametrize("moved", [False, True])
async def test_a_new_roll_given_its_open_rolls_as_read_ahead_closes_them_as_they_are(
    store: Store, moved: bool
) -> None:
    """/roll reads the roller's open rolls ahead (RollRepository.open_query), and its
    write closes them without reading them back: what it answers is what it stored, the
    closed rolls included, even when one moved since it was read (a Will spent on it)."""
    mine = [await roll(store), await roll(store, label=None)]
    await roll(store, roller_id=OTHER)
    settings = SettingsRepository.config_query(GUILD, CHANNEL, None)
    ahead = (await store.read(lambda tx: tx.queries.with_rows(
        settings, AttemptRepository.standing_query(GUILD, CHANNEL, ROLLER, label=None,
                                                   turn=True, will=True),
        RollRepository.open_query(GUILD, CHANNEL, ROLLER),
    )))[2]
    if moved:
        await store.write(lambda tx: tx.rolls.spend_will(mine[0], ROLLER, with_will(failure())))
    postgres = isinstance(store, PostgresStore)

    def roll_again(tx: Tx, roller_id: int = ROLLER, channel_id: int = CHANNEL,
                   open_as_read: list[OpenRoll] = ahead) -> tuple[RollRecord, list[RollRecord]]:
        return tx.rolls.close_and_insert(
            open_as_read=open_as_read, guild_id=GUILD, channel_id=channel_id,
            roller_id=roller_id, roller_name="Roller", result=failure(),
            will_state=WillState.OFFERED, label="again",
        )

    if postgres:  # its statements prepared in the session once (elsewhere), then idle
        for _ in mine:
            await roll(store, roller_id=OTHER, channel_id=OTHER_CHANNEL)
        theirs = (await store.read(lambda tx: tx.queries.with_rows(
            settings, AttemptRepository.standing_query(GUILD, OTHER_CHANNEL, OTHER,
                                                       label=None, turn=True, will=True),
            RollRepository.open_query(GUILD, OTHER_CHANNEL, OTHER),
        )))[2]
        await idle_workers(store)
        await store.write(lambda tx: roll_again(tx, OTHER, OTHER_CHANNEL, theirs))
        await idle_workers(store)  # the writer reserves the next roll's id
    before = store.round_trips

    new, closed = await store.write(roll_again)

    if postgres and not moved:
        assert store.round_trips - before == 1, "checked, closed and stored with COMMIT"

    assert [each.record.id for each in ahead] == mine
    assert [record.id for record in closed] == mine
    assert closed == [await _get(store, roll_id) for roll_id in mine]
    assert all(record.closed for record in closed)
    assert (closed[0].will_state is WillState.SPENT) is moved
    assert await _get(store, new.id) == new
    assert new.id > max(mine)


async def test_a_roll_comes_with_its_rollers_pool_as_the_pool_is_read_alone(
    store: Store,
) -> None:
    tracked = await roll(store)
    untracked = await roll(store, roller_id=OTHER)
    await store.write(lambda tx: track_will(tx, maximum=5, current=3))
    sheet = await store.write(lambda tx: tx.characters.insert(
        GUILD, OTHER, new_sheet("Alice", Ruleset.COFD)))
    assert sheet is not None
    as_character = await store.write(lambda tx: tx.rolls.insert(
        guild_id=GUILD, channel_id=CHANNEL, roller_id=OTHER, result=failure(),
        will_state=WillState.OFFERED, character_id=sheet.id, character_name="Alice",
    ).id)

    await store.write(lambda tx: tx.settings.set_guild_ruleset(GUILD, Ruleset.V20))
    settings = SettingsRepository.config_query(GUILD, CHANNEL, None)

    def both(tx: Tx, roll_id: int) -> tuple[object, object]:
        (config, _), pressed = tx.rolls.beside_pressed(settings, roll_id)
        together = (pressed.roll, pressed.pool)
        alone = tx.rolls.get(roll_id)
        pool = None if alone is None else tx.will.get(
            alone.guild_id, alone.roller_id, alone.character_id)
        # beside the settings, in one statement: the same answers
        assert config == tx.settings.config(GUILD, CHANNEL)
        assert config.ruleset is Ruleset.V20
        assert tx.rolls.beside(settings, roll_id) == ((config, None), alone)
        return tuple(together), (alone, pool)

    seen = {
        roll_id: await store.read(lambda tx, roll_id=roll_id: both(tx, roll_id))
        for roll_id in (tracked, untracked, as_character, 999_999)
    }

    for roll_id, (together, alone) in seen.items():
        assert together == alone, roll_id
    assert seen[tracked][0] == (
        await get_roll(store, tracked),
        WillPool(guild_id=GUILD, user_id=ROLLER, current=3, maximum=5),
    )
    assert seen[untracked][0][1] is None
    assert seen[as_character][0][1] == sheet.will_pool()
    assert seen[999_999][0] == (None, None)


async def test_closing_a_channel_closes_every_open_roll_there_once(store: Store) -> None:
    rolls = [await roll(store), await roll(store, roller_id=OTHER)]

    first = await _close(store)
    second = await _close(store)

    assert [record.id for record in first] == rolls
    assert second == []


# --- history ---------------------------------------------------------------------------


async def test_history_lists_the_channels_rolls_newest_first(store: Store) -> None:
    ids = [await roll(store, label=f"roll {n}") for n in range(5)]
    await roll(store, channel_id=OTHER_CHANNEL)

    shown = await _history(store, viewer_id=OTHER, viewer_is_storyteller=False, count=3)

    assert [record.id for record in shown] == ids[::-1][:3]


async def test_history_of_one_member(store: Store) -> None:
    mine = await roll(store)
    await roll(store, roller_id=OTHER)

    shown = await _history(
        store, viewer_id=OTHER, viewer_is_storyteller=False, member_id=ROLLER
    )

    assert [record.id for record in shown] == [mine]


@pytest.mark.parametrize(
    ("viewer", "storyteller", "sees_private"),
    [(ROLLER, False, True), (OTHER, False, False), (STORYTELLER, True, True)],
)
async def test_a_private_roll_is_listed_only_to_its_roller_and_the_storyteller(
    store: Store, viewer: int, storyteller: bool, sees_private: bool
) -> None:
    public = await roll(store)
    private = await roll(store, private=True)

    shown = await _history(store, viewer_id=viewer, viewer_is_storyteller=storyteller)

    assert [record.id for record in shown] == ([private, public] if sees_private else [public])


async def test_history_keeps_void_rolls_marked_void(store: Store) -> None:
    roll_id = await _void(store)

    shown = await _history(store, viewer_id=OTHER, viewer_is_storyteller=False)

    assert [(record.id, record.void) for record in shown] == [(roll_id, True)]


@pytest.mark.parametrize("count", [0, -1, MAX_HISTORY + 1])
async def test_history_refuses_a_count_out_of_range(store: Store, count: int) -> None:
    with pytest.raises(ValueError, match="history shows"):
        await _history(store, viewer_id=OTHER, viewer_is_storyteller=False, count=count)


# --- void -------------------------------------------------------------------------------


async def test_voiding_marks_the_roll_and_closes_it(store: Store) -> None:
    roll_id = await roll(store)

    voided = await _void_roll(store, roll_id)

    assert voided is not None
    assert not voided.already
    assert voided.roll.void
    assert voided.roll.closed
    assert voided.roll.voided_by == STORYTELLER


async def test_voiding_twice_says_it_was_already_void(store: Store) -> None:
    roll_id = await roll(store)
    first = await _void_roll(store, roll_id)

    second = await _void_roll(store, roll_id, OTHER)

    assert second is not None
    assert second.already
    assert first is not None
    assert second.roll == first.roll


async def test_a_roll_of_another_server_cannot_be_voided(store: Store) -> None:
    roll_id = await roll(store, guild_id=OTHER_GUILD)

    assert await _void_roll(store, roll_id) is None
    assert await _void_roll(store, 404) is None
    assert not (await _get(store, roll_id)).void


async def test_a_roll_of_another_channel_cannot_be_voided_from_here(store: Store) -> None:
    roll_id = await roll(store, channel_id=OTHER_CHANNEL)

    assert await _void_roll(store, roll_id) is None
    assert not (await _get(store, roll_id)).void


class Research(BaseModel):
    """Stands in for an action's engine state."""

    successes: int


async def test_a_roll_made_in_an_action_is_not_voided(store: Store) -> None:
    def body(tx: Tx) -> int:
        action = tx.actions.create(
            ActionKind.EXTENDED, guild_id=GUILD, channel_id=CHANNEL, owner_id=ROLLER,
            label="research", state=Research(successes=0),
        )
        return tx.rolls.insert(
            guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, result=failure(),
            will_state=WillState.NONE, action_id=action.id,
        ).id

    roll_id = await store.write(body)

    answer = await _void_roll(store, roll_id)

    assert answer is not None
    assert not answer.roll.void
    assert not answer.already
