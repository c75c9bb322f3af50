"""Rolls: round-trips, Spend Will, Take a Beat, Try again, closing, history, void."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from pydantic import BaseModel

from bot.store import (
    MAX_HISTORY,
    ActionKind,
    BeatTaken,
    Refusal,
    RollRecord,
    Store,
    WillPool,
    WillSpent,
    WillState,
)
from engine.models import WillUse
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    STORYTELLER,
    failure,
    roll,
    success,
    with_beat,
    with_will,
)

OTHER_GUILD = 1_000_000_000_000_000_009


async def _get(store: Store, roll_id: int) -> RollRecord:
    record = await store.get_roll(roll_id)
    assert record is not None
    return record


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


async def test_an_unknown_roll_is_none(store: Store) -> None:
    assert await store.get_roll(404) is None


async def test_the_messages_of_a_roll_are_remembered(store: Store) -> None:
    roll_id = await roll(store, private=True)

    await store.attach_roll_messages(roll_id, 555, copy_channel_id=666, copy_message_id=777)
    record = await _get(store, roll_id)

    assert (record.message_id, record.copy_channel_id, record.copy_message_id) == (555, 666, 777)


# --- Spend Will -----------------------------------------------------------------


async def test_spending_will_replaces_the_result_and_debits_the_pool_once(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=3)
    roll_id = await roll(store)
    new_result = with_will(failure())

    spent = await store.spend_will(roll_id, ROLLER, new_result)

    assert isinstance(spent, WillSpent)
    assert spent.roll.result == new_result
    assert spent.roll.will_state is WillState.SPENT
    assert spent.pool == WillPool(guild_id=GUILD, user_id=ROLLER, current=2, maximum=5)
    assert await store.get_will(GUILD, ROLLER) == spent.pool
    assert (await _get(store, roll_id)).result == new_result


async def test_an_untracked_will_pool_does_not_block_a_spend(store: Store) -> None:
    roll_id = await roll(store)

    spent = await store.spend_will(roll_id, ROLLER, with_will(failure()))

    assert isinstance(spent, WillSpent)
    assert spent.pool is None
    assert await store.get_will(GUILD, ROLLER) is None


async def test_spend_will_takes_only_a_result_with_will_after_the_roll(store: Store) -> None:
    roll_id = await roll(store)

    with pytest.raises(ValueError, match="Will spent after the roll"):
        await store.spend_will(roll_id, ROLLER, failure())


async def _not_found(store: Store) -> int:
    return 404


async def _someone_elses(store: Store) -> int:
    return await roll(store, roller_id=OTHER)


async def _void(store: Store) -> int:
    roll_id = await roll(store)
    await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER)
    return roll_id


async def _closed(store: Store) -> int:
    roll_id = await roll(store)
    await store.close_rolls(GUILD, CHANNEL)
    return roll_id


async def _declared(store: Store) -> int:
    return await roll(store, result=failure(will=WillUse.DECLARED), will_state=WillState.DECLARED)


async def _not_offered(store: Store) -> int:
    return await roll(store, will_state=WillState.NONE)


async def _spent(store: Store) -> int:
    roll_id = await roll(store)
    await store.spend_will(roll_id, ROLLER, with_will(failure()))
    return roll_id


async def _empty_pool(store: Store) -> int:
    await store.set_will(GUILD, ROLLER, maximum=3, current=0)
    return await roll(store)


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (_not_found, Refusal.NOT_FOUND),
        (_someone_elses, Refusal.NOT_ROLLER),
        (_void, Refusal.VOID),
        (_closed, Refusal.CLOSED),
        (_declared, Refusal.DECLARED),
        (_not_offered, Refusal.NOT_OFFERED),
        (_spent, Refusal.ALREADY_SPENT),
        (_empty_pool, Refusal.NO_WILL),
    ],
)
async def test_a_refused_will_spend_says_why_and_changes_nothing(
    store: Store, setup: Callable[[Store], Awaitable[int]], reason: Refusal
) -> None:
    await store.set_will(GUILD, OTHER, maximum=2)
    roll_id = await setup(store)
    roll_before = await store.get_roll(roll_id)
    pools_before = (await store.get_will(GUILD, ROLLER), await store.get_will(GUILD, OTHER))

    async with store.read() as tx:
        asked_first = await tx.rolls.spendable(roll_id, ROLLER)
    answer = await store.spend_will(roll_id, ROLLER, with_will(failure()))

    assert asked_first is reason, "asked before rolling, the same reason"
    assert answer is reason
    assert await store.get_roll(roll_id) == roll_before
    assert (await store.get_will(GUILD, ROLLER), await store.get_will(GUILD, OTHER)) == (
        pools_before
    )


async def test_a_spend_that_would_act_is_answered_with_the_roll(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=3, current=1)
    roll_id = await roll(store)

    async with store.read() as tx:
        answer = await tx.rolls.spendable(roll_id, ROLLER)

    assert isinstance(answer, RollRecord)
    assert answer.id == roll_id


async def test_only_one_of_a_hundred_concurrent_spends_takes_effect(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5)
    roll_id = await roll(store)
    new_result = with_will(failure())

    answers = await asyncio.gather(
        *(store.spend_will(roll_id, ROLLER, new_result) for _ in range(100))
    )

    assert sum(isinstance(answer, WillSpent) for answer in answers) == 1
    assert answers.count(Refusal.ALREADY_SPENT) == 99
    pool = await store.get_will(GUILD, ROLLER)
    assert pool is not None
    assert pool.current == 4


async def test_concurrent_spends_from_two_connections_take_effect_once(
    store: Store, db_path: Path
) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5)
    roll_id = await roll(store)
    new_result = with_will(failure())
    other = await Store.open(db_path)
    try:
        answers = await asyncio.gather(
            *(
                (store if i % 2 else other).spend_will(roll_id, ROLLER, new_result)
                for i in range(100)
            )
        )
    finally:
        await other.close()

    assert sum(isinstance(answer, WillSpent) for answer in answers) == 1
    pool = await store.get_will(GUILD, ROLLER)
    assert pool is not None
    assert pool.current == 4


# --- Take a Beat ------------------------------------------------------------------


async def test_taking_a_beat_ends_the_will_offer_and_counts_a_beat(store: Store) -> None:
    roll_id = await roll(store)
    new_result = with_beat(failure())

    taken = await store.take_beat(roll_id, ROLLER, new_result)

    assert isinstance(taken, BeatTaken)
    assert taken.beats == 1
    assert taken.roll.result == new_result
    assert taken.roll.beat
    assert taken.roll.will_state is WillState.NONE
    assert not taken.roll.closed
    assert await store.get_beats(GUILD, ROLLER) == 1


async def test_a_roll_gives_one_beat_and_no_will_after_it_but_may_be_tried_again(
    store: Store,
) -> None:
    roll_id = await roll(store)
    await store.take_beat(roll_id, ROLLER, with_beat(failure()))

    again = await store.take_beat(roll_id, ROLLER, with_beat(failure()))
    will = await store.spend_will(roll_id, ROLLER, with_will(failure()))
    async with store.transaction() as tx:
        retry = await tx.rolls.claim_retry(roll_id, ROLLER)

    assert again is Refusal.BEAT_TAKEN
    assert will is Refusal.BEAT_TAKEN
    assert isinstance(retry, RollRecord)
    assert retry.will_state is WillState.NONE
    assert await store.get_beats(GUILD, ROLLER) == 1


async def test_beats_add_up_over_rolls(store: Store) -> None:
    for _ in range(3):
        roll_id = await roll(store)
        await store.take_beat(roll_id, ROLLER, with_beat(failure()))

    assert await store.get_beats(GUILD, ROLLER) == 3


@pytest.mark.parametrize(
    ("setup", "reason"),
    [
        (_not_found, Refusal.NOT_FOUND),
        (_someone_elses, Refusal.NOT_ROLLER),
        (_void, Refusal.VOID),
        (_closed, Refusal.CLOSED),
    ],
)
async def test_a_refused_beat_says_why_and_changes_nothing(
    store: Store, setup: Callable[[Store], Awaitable[int]], reason: Refusal
) -> None:
    roll_id = await setup(store)
    before = await store.get_roll(roll_id)

    answer = await store.take_beat(roll_id, ROLLER, with_beat(failure()))

    assert answer is reason
    assert await store.get_roll(roll_id) == before
    assert await store.get_beats(GUILD, ROLLER) == 0


async def test_a_beat_is_taken_with_will_already_spent(store: Store) -> None:
    roll_id = await roll(store)
    await store.spend_will(roll_id, ROLLER, with_will(failure()))

    taken = await store.take_beat(roll_id, ROLLER, with_beat(failure()))

    assert isinstance(taken, BeatTaken)
    assert taken.roll.will_state is WillState.SPENT


async def test_take_beat_takes_only_a_result_with_the_beat(store: Store) -> None:
    roll_id = await roll(store)

    with pytest.raises(ValueError, match="Beat taken"):
        await store.take_beat(roll_id, ROLLER, failure())


async def test_only_one_of_many_concurrent_beats_counts(store: Store) -> None:
    roll_id = await roll(store)

    answers = await asyncio.gather(
        *(store.take_beat(roll_id, ROLLER, with_beat(failure())) for _ in range(50))
    )

    assert sum(isinstance(answer, BeatTaken) for answer in answers) == 1
    assert await store.get_beats(GUILD, ROLLER) == 1


# --- Try again ----------------------------------------------------------------------


async def test_try_again_is_claimed_once_by_the_roller(store: Store) -> None:
    roll_id = await roll(store)

    async with store.transaction() as tx:
        stranger = await tx.rolls.claim_retry(roll_id, OTHER)
        first = await tx.rolls.claim_retry(roll_id, ROLLER)
        second = await tx.rolls.claim_retry(roll_id, ROLLER)

    assert stranger is Refusal.NOT_ROLLER
    assert isinstance(first, RollRecord)
    assert first.retried
    assert second is Refusal.ALREADY_RETRIED


async def test_try_again_on_a_closed_roll_is_refused(store: Store) -> None:
    roll_id = await _closed(store)

    async with store.transaction() as tx:
        answer = await tx.rolls.claim_retry(roll_id, ROLLER)

    assert answer is Refusal.CLOSED


# --- closing ------------------------------------------------------------------------


async def test_rolling_again_closes_only_that_rollers_open_rolls_in_that_channel(
    store: Store,
) -> None:
    mine = [await roll(store), await roll(store)]
    theirs = await roll(store, roller_id=OTHER)
    elsewhere = await roll(store, channel_id=OTHER_CHANNEL)

    closed = await store.close_rolls(GUILD, CHANNEL, ROLLER)

    assert [record.id for record in closed] == mine
    assert all(record.closed for record in closed)
    assert not (await _get(store, theirs)).closed
    assert not (await _get(store, elsewhere)).closed


async def test_closing_a_channel_closes_every_open_roll_there_once(store: Store) -> None:
    rolls = [await roll(store), await roll(store, roller_id=OTHER)]

    first = await store.close_rolls(GUILD, CHANNEL)
    second = await store.close_rolls(GUILD, CHANNEL)

    assert [record.id for record in first] == rolls
    assert second == []


# --- history ---------------------------------------------------------------------------


async def test_history_lists_the_channels_rolls_newest_first(store: Store) -> None:
    ids = [await roll(store, label=f"roll {n}") for n in range(5)]
    await roll(store, channel_id=OTHER_CHANNEL)

    shown = await store.history(
        GUILD, CHANNEL, viewer_id=OTHER, viewer_is_storyteller=False, count=3
    )

    assert [record.id for record in shown] == ids[::-1][:3]


async def test_history_of_one_member(store: Store) -> None:
    mine = await roll(store)
    await roll(store, roller_id=OTHER)

    shown = await store.history(
        GUILD, CHANNEL, viewer_id=OTHER, viewer_is_storyteller=False, member_id=ROLLER
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

    shown = await store.history(GUILD, CHANNEL, viewer_id=viewer, viewer_is_storyteller=storyteller)

    assert [record.id for record in shown] == ([private, public] if sees_private else [public])


async def test_history_keeps_void_rolls_marked_void(store: Store) -> None:
    roll_id = await _void(store)

    shown = await store.history(GUILD, CHANNEL, viewer_id=OTHER, viewer_is_storyteller=False)

    assert [(record.id, record.void) for record in shown] == [(roll_id, True)]


@pytest.mark.parametrize("count", [0, -1, MAX_HISTORY + 1])
async def test_history_refuses_a_count_out_of_range(store: Store, count: int) -> None:
    with pytest.raises(ValueError, match="history shows"):
        await store.history(
            GUILD, CHANNEL, viewer_id=OTHER, viewer_is_storyteller=False, count=count
        )


# --- void -------------------------------------------------------------------------------


async def test_voiding_marks_the_roll_and_closes_it(store: Store) -> None:
    roll_id = await roll(store)

    voided = await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER)

    assert voided is not None
    assert not voided.already
    assert voided.roll.void
    assert voided.roll.closed
    assert voided.roll.voided_by == STORYTELLER


async def test_voiding_twice_says_it_was_already_void(store: Store) -> None:
    roll_id = await roll(store)
    first = await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER)

    second = await store.void_roll(GUILD, CHANNEL, roll_id, OTHER)

    assert second is not None
    assert second.already
    assert first is not None
    assert second.roll == first.roll


async def test_a_roll_of_another_server_cannot_be_voided(store: Store) -> None:
    roll_id = await roll(store, guild_id=OTHER_GUILD)

    assert await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER) is None
    assert await store.void_roll(GUILD, CHANNEL, 404, STORYTELLER) is None
    assert not (await _get(store, roll_id)).void


async def test_a_roll_of_another_channel_cannot_be_voided_from_here(store: Store) -> None:
    roll_id = await roll(store, channel_id=OTHER_CHANNEL)

    assert await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER) is None
    assert not (await _get(store, roll_id)).void


class Research(BaseModel):
    """Stands in for an action's engine state."""

    successes: int


async def test_a_roll_made_in_an_action_is_not_voided(store: Store) -> None:
    action = await store.create_action(
        ActionKind.EXTENDED, guild_id=GUILD, channel_id=CHANNEL, owner_id=ROLLER,
        label="research", state=Research(successes=0),
    )
    async with store.transaction() as tx:
        roll_id = await tx.rolls.insert(
            guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, result=failure(),
            will_state=WillState.NONE, action_id=action.id,
        )

    answer = await store.void_roll(GUILD, CHANNEL, roll_id, STORYTELLER)

    assert answer is not None
    assert not answer.roll.void
    assert not answer.already
