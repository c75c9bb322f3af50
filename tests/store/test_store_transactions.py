"""Transactions: all or nothing, serialised, never nested."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from bot.store import Store, WillState
from tests.store.conftest import CHANNEL, GUILD, ROLLER, failure, roll


class BoomError(Exception):
    """Raised inside a transaction on purpose."""


async def _track_will_then_fail(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.will.set_pool(GUILD, ROLLER, maximum=5)
        await tx.will.add_beat(GUILD, ROLLER)
        raise BoomError


async def test_a_transaction_that_raises_is_rolled_back_and_the_error_re_raised(
    store: Store,
) -> None:
    with pytest.raises(BoomError):
        await _track_will_then_fail(store)

    assert await store.get_will(GUILD, ROLLER) is None
    assert await store.get_beats(GUILD, ROLLER) == 0


async def test_the_store_works_normally_after_a_rollback(store: Store) -> None:
    with pytest.raises(BoomError):
        await _track_will_then_fail(store)

    change = await store.set_will(GUILD, ROLLER, maximum=4)

    assert change.old is None
    assert await store.get_will(GUILD, ROLLER) == change.new


async def test_a_cancelled_transaction_is_rolled_back(store: Store) -> None:
    entered = asyncio.Event()

    async def stuck() -> None:
        async with store.transaction() as tx:
            await tx.will.set_pool(GUILD, ROLLER, maximum=5)
            entered.set()
            await asyncio.Event().wait()

    task = asyncio.create_task(stuck())
    await entered.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await store.get_will(GUILD, ROLLER) is None


async def test_several_operations_commit_together(store: Store) -> None:
    async with store.transaction() as tx:
        roll_id = await tx.rolls.insert(
            guild_id=GUILD,
            channel_id=CHANNEL,
            roller_id=ROLLER,
            result=failure(),
            will_state=WillState.OFFERED,
        )
        await tx.will.set_pool(GUILD, ROLLER, maximum=3)

    assert await store.get_roll(roll_id) is not None
    assert await store.get_will(GUILD, ROLLER) is not None


async def test_a_store_method_inside_a_transaction_raises_instead_of_waiting_forever(
    store: Store,
) -> None:
    async with store.transaction():
        with pytest.raises(RuntimeError, match="already inside a transaction"):
            await store.get_will(GUILD, ROLLER)


async def test_a_read_never_sees_another_tasks_uncommitted_write(store: Store) -> None:
    written = asyncio.Event()
    release = asyncio.Event()

    async def writer() -> None:
        async with store.transaction() as tx:
            await tx.will.set_pool(GUILD, ROLLER, maximum=5)
            written.set()
            await release.wait()
            raise BoomError

    writing = asyncio.create_task(writer())
    await written.wait()
    reading = asyncio.create_task(store.get_will(GUILD, ROLLER))
    for _ in range(20):
        await asyncio.sleep(0)
    assert not reading.done()  # the read waits for the writer

    release.set()
    with pytest.raises(BoomError):
        await writing
    assert await reading is None


async def test_two_stores_on_one_file_see_each_others_commits(store: Store, db_path: Path) -> None:
    other = await Store.open(db_path)
    try:
        roll_id = await roll(other)
        seen = await store.get_roll(roll_id)
    finally:
        await other.close()

    assert seen is not None
    assert seen.roller_id == ROLLER
