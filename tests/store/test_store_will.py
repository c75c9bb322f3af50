"""Will pools: set, rest, a Storyteller's gain and the night, all bounded by the maximum."""

from __future__ import annotations

import pytest

from bot.store import Store, WillPool
from tests.store.conftest import GUILD, OTHER, ROLLER

OTHER_GUILD = 1_000_000_000_000_000_009


def _pool(current: int, maximum: int, user_id: int = ROLLER) -> WillPool:
    return WillPool(guild_id=GUILD, user_id=user_id, current=current, maximum=maximum)


async def test_a_pool_nobody_set_is_not_tracked(store: Store) -> None:
    assert await store.get_will(GUILD, ROLLER) is None
    assert await store.rest(GUILD, ROLLER) is None
    assert await store.gain_will(GUILD, ROLLER, 2) is None


async def test_a_new_pool_starts_full(store: Store) -> None:
    change = await store.set_will(GUILD, ROLLER, maximum=5)

    assert change.old is None
    assert change.new == _pool(5, 5)
    assert await store.get_will(GUILD, ROLLER) == _pool(5, 5)


async def test_setting_the_current_will_explicitly(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5)

    change = await store.set_will(GUILD, ROLLER, maximum=6, current=2)

    assert (change.old, change.new) == (_pool(5, 5), _pool(2, 6))


async def test_a_new_maximum_keeps_the_current_will_within_it(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=4)

    raised = await store.set_will(GUILD, ROLLER, maximum=7)
    lowered = await store.set_will(GUILD, ROLLER, maximum=2)

    assert raised.new == _pool(4, 7)
    assert lowered.new == _pool(2, 2)


@pytest.mark.parametrize(("maximum", "current"), [(3, 4), (-1, None), (3, -1)])
async def test_an_impossible_pool_is_refused_and_nothing_changes(
    store: Store, maximum: int, current: int | None
) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=1)

    with pytest.raises(ValueError, match=r"current|maximum"):
        await store.set_will(GUILD, ROLLER, maximum=maximum, current=current)

    assert await store.get_will(GUILD, ROLLER) == _pool(1, 5)


async def test_rest_regains_one_up_to_the_maximum(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=3, current=2)

    first = await store.rest(GUILD, ROLLER)
    second = await store.rest(GUILD, ROLLER)

    assert first is not None
    assert (first.old, first.new) == (_pool(2, 3), _pool(3, 3))
    assert second is not None
    assert second.new == _pool(3, 3)


async def test_a_storyteller_gain_stops_at_the_maximum(store: Store) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=1)

    some = await store.gain_will(GUILD, ROLLER, 2)
    too_much = await store.gain_will(GUILD, ROLLER, 10)

    assert some is not None
    assert some.new == _pool(3, 5)
    assert too_much is not None
    assert too_much.new == _pool(5, 5)


@pytest.mark.parametrize("amount", [0, -2])
async def test_a_gain_below_one_is_refused(store: Store, amount: int) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=1)

    with pytest.raises(ValueError, match="at least 1"):
        await store.gain_will(GUILD, ROLLER, amount)

    assert await store.get_will(GUILD, ROLLER) == _pool(1, 5)


async def test_the_night_gives_every_tracked_pool_of_the_server_one_up_to_its_maximum(
    store: Store,
) -> None:
    await store.set_will(GUILD, ROLLER, maximum=5, current=1)
    await store.set_will(GUILD, OTHER, maximum=4)
    await store.set_will(OTHER_GUILD, ROLLER, maximum=5, current=0)

    regained = await store.night(GUILD)

    assert regained == 1
    assert await store.get_will(GUILD, ROLLER) == _pool(2, 5)
    assert await store.get_will(GUILD, OTHER) == _pool(4, 4, user_id=OTHER)
    elsewhere = await store.get_will(OTHER_GUILD, ROLLER)
    assert elsewhere is not None
    assert elsewhere.current == 0


async def test_beats_start_at_zero(store: Store) -> None:
    assert await store.get_beats(GUILD, ROLLER) == 0
