"""Transactions: one function, one trip, all or nothing, one at a time."""

from __future__ import annotations

import asyncio
import contextvars
import sqlite3
import threading
from pathlib import Path

import greenlet
import pytest

from bot.store import Conflict, Store, Tx
from bot.store.store import PostgresStore
from engine.records import PressRefusal, WillState
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    ROLLER,
    beats,
    failure,
    get_roll,
    hold_until,
    roll,
    track_will,
)


class BoomError(Exception):
    """Raised inside a transaction on purpose."""


class NotAnError(BaseException):
    """Raised inside a transaction on purpose: not even an ``Exception``."""


def _track_will_then(tx: Tx, error: BaseException) -> None:
    track_will(tx, maximum=5)
    tx.will.add_beat(GUILD, ROLLER)
    raise error


async def _will_and_beats(store: Store) -> tuple[object, int]:
    return await store.read(
        lambda tx: (tx.will.get(GUILD, ROLLER), beats(tx))
    )


async def _roll_count(store: Store) -> int:
    history = await store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ROLLER, viewer_is_storyteller=True)
    )
    return len(history)


# --- all or nothing -------------------------------------------------------------------------


@pytest.mark.parametrize(
    "error",
    [BoomError(), ValueError("a bug in the body"), LookupError(), NotAnError()],
    ids=["own error", "ValueError", "LookupError", "BaseException"],
)
async def test_a_write_whose_body_raises_anything_is_rolled_back_and_the_error_re_raised(
    store: Store, error: BaseException
) -> None:
    with pytest.raises(type(error)):
        await store.write(lambda tx: _track_will_then(tx, error))

    assert await _will_and_beats(store) == (None, 0)


async def test_a_write_that_raises_conflict_leaves_nothing_written_and_gives_its_reason(
    store: Store,
) -> None:
    def body(tx: Tx) -> None:
        tx.rolls.insert(
            guild_id=GUILD,
            channel_id=CHANNEL,
            roller_id=ROLLER,
            result=failure(),
            will_state=WillState.OFFERED,
        )
        track_will(tx, maximum=3)
        raise Conflict(PressRefusal.ALREADY_SPENT)

    with pytest.raises(Conflict) as caught:
        await store.write(body)

    assert caught.value.reason is PressRefusal.ALREADY_SPENT
    assert await _roll_count(store) == 0
    assert await _will_and_beats(store) == (None, 0)


async def test_a_sql_error_half_way_rolls_back_the_statements_before_it(store: Store) -> None:
    def body(tx: Tx) -> None:
        track_will(tx, maximum=5)
        tx.rolls.insert(
            guild_id=GUILD,
            channel_id=CHANNEL,
            roller_id=ROLLER,
            result=failure(),
            will_state=WillState.NONE,
            action_id=404,  # no such action: the foreign key refuses the roll
        )

    with pytest.raises(sqlite3.IntegrityError):
        await store.write(body)

    assert await _will_and_beats(store) == (None, 0)
    assert await _roll_count(store) == 0


async def test_the_store_works_normally_after_a_rollback(store: Store) -> None:
    with pytest.raises(BoomError):
        await store.write(lambda tx: _track_will_then(tx, BoomError()))

    pool = await store.write(lambda tx: track_will(tx, maximum=4))

    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == pool


async def test_several_operations_commit_together(store: Store) -> None:
    def body(tx: Tx) -> int:
        record = tx.rolls.insert(
            guild_id=GUILD,
            channel_id=CHANNEL,
            roller_id=ROLLER,
            result=failure(),
            will_state=WillState.OFFERED,
        )
        track_will(tx, maximum=3)
        return record.id

    roll_id = await store.write(body)

    assert (await get_roll(store, roll_id)).roller_id == ROLLER
    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) is not None


async def test_a_write_once_begun_finishes_whole_even_if_its_caller_is_cancelled(
    store: Store,
) -> None:
    """Cancelling the caller cannot stop the body half way in the database: the
    transaction is whole (here: committed), never half of it."""
    loop = asyncio.get_running_loop()
    entered = asyncio.Event()
    release = threading.Event()

    def body(tx: Tx) -> None:
        track_will(tx, maximum=5)
        loop.call_soon_threadsafe(entered.set)
        assert hold_until(release)
        tx.will.add_beat(GUILD, ROLLER)

    task = asyncio.create_task(store.write(body))
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    release.set()

    # On PostgreSQL a later read may run beside the body's end: wait for the commit. A
    # half transaction would show the pool without the Beat, and never the Beat.
    for _ in range(300):
        pool, beats = await _will_and_beats(store)
        if beats:
            break
        await asyncio.sleep(0.01)
    assert pool is not None
    assert beats == 1


# --- one trip -------------------------------------------------------------------------------


async def test_one_read_is_one_trip_however_many_statements_it_runs(store: Store) -> None:
    roll_id = await roll(store)
    before = store.trips

    await store.read(
        lambda tx: (
            tx.settings.config(GUILD, CHANNEL),
            tx.rolls.get(roll_id),
            tx.will.get(GUILD, ROLLER),
            beats(tx),
            tx.attempts.standing(GUILD, CHANNEL, ROLLER, label="force the door", turn=True,
                                 will=True),
            tx.actions.find_open(GUILD, CHANNEL),
        )
    )

    assert store.trips == before + 1


async def test_one_write_is_one_trip_however_many_statements_it_runs(store: Store) -> None:
    before = store.trips

    def body(tx: Tx) -> None:
        tx.rolls.close(GUILD, CHANNEL, ROLLER)
        record = tx.rolls.insert(
            guild_id=GUILD,
            channel_id=CHANNEL,
            roller_id=ROLLER,
            result=failure(),
            will_state=WillState.OFFERED,
        )
        tx.rolls.attach_messages(record.id, 555)
        track_will(tx, maximum=5)
        tx.attempts.save_failures(GUILD, CHANNEL, ROLLER, "force the door", old=0, new=1)

    await store.write(body)
    after_write = store.trips
    with pytest.raises(Conflict):
        await store.write(lambda tx: _track_will_then(tx, Conflict(None)))

    assert after_write == before + 1
    assert store.trips == before + 2, "a refused write is one trip too"


# --- one at a time --------------------------------------------------------------------------


async def test_a_read_never_sees_another_tasks_uncommitted_write(store: Store) -> None:
    """SQLite runs one transaction at a time, so the read waits for the writer. PostgreSQL
    reads on a worker of their own, in a snapshot of their own: the read ends while the
    writer still holds its write, and does not see it. (Asserting that it waits there
    held only while the reader was still connecting: the test failed once the reader was
    warm.)"""
    loop = asyncio.get_running_loop()
    written = asyncio.Event()
    release = threading.Event()

    def writer(tx: Tx) -> None:
        track_will(tx, maximum=5)
        loop.call_soon_threadsafe(written.set)
        assert hold_until(release)
        raise BoomError

    writing = asyncio.create_task(store.write(writer))
    await written.wait()
    reading = asyncio.create_task(store.read(lambda tx: tx.will.get(GUILD, ROLLER)))
    if isinstance(store, PostgresStore):
        assert await asyncio.wait_for(reading, timeout=30) is None  # the writer still holds
    else:
        for _ in range(20):
            await asyncio.sleep(0)
        assert not reading.done()  # the read waits for the writer

    release.set()
    with pytest.raises(BoomError):
        await writing
    assert await reading is None


async def test_close_waits_for_the_transactions_already_queued(
    store: Store, db_path: Path
) -> None:
    writes = [asyncio.create_task(roll(store)) for _ in range(20)]
    await asyncio.sleep(0)  # each write is queued in the database thread

    await store.close()

    ids = await asyncio.gather(*writes)
    reopened = await Store.open(db_path)
    try:
        stored = await reopened.read(lambda tx: [tx.rolls.get(roll_id) for roll_id in ids])
    finally:
        await reopened.close()
    assert len(set(ids)) == 20
    assert all(record is not None for record in stored)


async def test_two_stores_on_one_file_see_each_others_commits(store: Store, db_path: Path) -> None:
    other = await Store.open(db_path)
    try:
        roll_id = await roll(other)
        seen = await store.read(lambda tx: tx.rolls.get(roll_id))
    finally:
        await other.close()

    assert seen is not None
    assert seen.roller_id == ROLLER


_ASKED_BY: contextvars.ContextVar[str] = contextvars.ContextVar("asked_by", default="nobody")


async def test_a_body_sees_the_context_of_the_flow_that_runs_it(store: Store) -> None:
    # The language a flow speaks in is a context variable; the body runs in the database's
    # thread (SQLite) or in a greenlet of a worker's task (PostgreSQL), and must draw its
    # words in that language too.
    _ASKED_BY.set("the flow")
    seen = await store.read(lambda _tx: (_ASKED_BY.get(), _where()))
    written = await store.write(lambda _tx: _ASKED_BY.get())
    assert seen[0] == written == "the flow"
    assert seen[1] != _where()


def _where() -> tuple[str, object]:
    """The thread and the greenlet running this."""
    return threading.current_thread().name, greenlet.getcurrent()
