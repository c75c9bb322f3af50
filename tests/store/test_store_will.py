"""Will pools: the store keeps what the engine decided, only over the pool it was given."""

from __future__ import annotations

import pytest

from bot.store import Store
from engine import will
from engine.records import WillPool
from tests.store.conftest import GUILD, OTHER, ROLLER, beats, will_pools

OTHER_GUILD = 1_000_000_000_000_000_009


def _pool(current: int, maximum: int, user_id: int = ROLLER, guild_id: int = GUILD) -> WillPool:
    return WillPool(guild_id=guild_id, user_id=user_id, current=current, maximum=maximum)


async def test_a_pool_nobody_set_is_not_tracked(store: Store) -> None:
    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) is None
    assert await store.read(will_pools) == []


async def test_a_new_pool_is_stored_once(store: Store) -> None:
    first = await store.write(lambda tx: tx.will.save(None, _pool(5, 5)))
    second = await store.write(lambda tx: tx.will.save(None, _pool(2, 3)))

    assert first
    assert not second, "a pool tracked meanwhile is not overwritten"
    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == _pool(5, 5)


async def test_a_change_is_stored_only_over_the_pool_it_was_decided_from(store: Store) -> None:
    await store.write(lambda tx: tx.will.save(None, _pool(2, 5)))

    rested = await store.write(lambda tx: tx.will.save(_pool(2, 5), will.regained(_pool(2, 5), 1)))
    stale = await store.write(lambda tx: tx.will.save(_pool(2, 5), _pool(4, 5)))

    assert rested
    assert not stale, "a second change decided from the same pool changes nothing"
    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == _pool(3, 5)


async def test_a_new_maximum_is_stored_with_the_current_will(store: Store) -> None:
    await store.write(lambda tx: tx.will.save(None, _pool(4, 5)))

    lowered = will.set_pool(_pool(4, 5), GUILD, ROLLER, 2)
    await store.write(lambda tx: tx.will.save(_pool(4, 5), lowered))

    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == _pool(2, 2)


async def test_pools_are_the_servers_tracked_pools_only(store: Store) -> None:
    await store.write(lambda tx: tx.will.save(None, _pool(1, 5)))
    await store.write(lambda tx: tx.will.save(None, _pool(4, 4, user_id=OTHER)))
    await store.write(lambda tx: tx.will.save(None, _pool(0, 5, guild_id=OTHER_GUILD)))

    pools = await store.read(will_pools)

    assert sorted(pools, key=lambda pool: pool.user_id) == [
        _pool(1, 5), _pool(4, 4, user_id=OTHER)
    ]


async def test_debit_takes_one_from_a_pool_that_has_some_only(store: Store) -> None:
    await store.write(lambda tx: tx.will.save(None, _pool(1, 5)))

    first = await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))
    second = await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))

    assert first == _pool(0, 5)
    assert second is None


async def test_a_debit_of_a_pool_that_moved_since_it_was_read_rolls_the_write_back(
    store: Store,
) -> None:
    await store.write(lambda tx: tx.will.save(None, _pool(3, 5)))
    stale = await store.read(lambda tx: tx.will.get(GUILD, ROLLER))
    await store.write(lambda tx: tx.will.save(stale, _pool(1, 5)))  # /will set meanwhile

    with pytest.raises(RuntimeError, match="moved inside the transaction"):
        await store.write(lambda tx: (tx.will.add_beat(GUILD, ROLLER),
                                      tx.will.debit(GUILD, ROLLER, read=stale)))

    assert await store.read(lambda tx: tx.will.get(GUILD, ROLLER)) == _pool(1, 5)
    assert await store.read(beats) == 0, "all rolled back"


async def test_beats_start_at_zero_and_count_up(store: Store) -> None:
    assert await store.read(beats) == 0
    assert await store.write(lambda tx: tx.will.add_beat(GUILD, ROLLER)) == 1
    assert await store.read(beats) == 1
