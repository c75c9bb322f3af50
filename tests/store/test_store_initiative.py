"""Initiative trackers: one open per channel, changed only at the version that was read."""

from __future__ import annotations

import asyncio

from bot.store import Store, Tx
from engine.models import Ruleset
from engine.records import ActionStatus, TrackerRecord
from engine.table import initiative
from engine.table.initiative import Tracker
from tests.store.conftest import CHANNEL, GUILD, OTHER_CHANNEL


async def _open(store: Store, channel_id: int = CHANNEL) -> TrackerRecord | None:
    return await store.write(
        lambda tx: tx.initiative.create(GUILD, channel_id, initiative.opened(Ruleset.COFD))
    )


async def test_a_channel_has_one_open_tracker_and_a_new_one_once_it_closed(store: Store) -> None:
    first = await _open(store)
    assert first is not None and first.version == 1 and first.status is ActionStatus.OPEN
    assert await _open(store) is None
    assert await _open(store, OTHER_CHANNEL) is not None
    found = await store.read(lambda tx: tx.initiative.open_in(GUILD, CHANNEL))
    assert found is not None and found.id == first.id
    assert found.state(Tracker) == initiative.opened(Ruleset.COFD)
    ended = initiative.ended(initiative.opened(Ruleset.COFD), 0, storyteller=True)
    closed = await store.write(
        lambda tx: tx.initiative.update(first.id, 1, ended, ActionStatus.CLOSED)
    )
    assert closed == 2
    assert await store.read(lambda tx: tx.initiative.open_in(GUILD, CHANNEL)) is None
    assert await store.write(lambda tx: tx.initiative.update(first.id, 2, ended)) is None
    assert await _open(store) is not None


async def test_two_writes_at_the_version_read_change_the_tracker_once(store: Store) -> None:
    record = await _open(store)
    assert record is not None
    state = initiative.opened(Ruleset.V20)

    def write(tx: Tx) -> int | None:
        return tx.initiative.update(record.id, record.version, state)

    results = await asyncio.gather(*(store.write(write) for _ in range(10)))
    assert sorted(results, key=lambda v: v or 0) == [None] * 9 + [2]
    now = await store.read(lambda tx: tx.initiative.get(record.id))
    assert now is not None and now.version == 2 and now.state(Tracker).ruleset is Ruleset.V20


async def test_the_card_is_remembered(store: Store) -> None:
    record = await _open(store)
    assert record is not None
    await store.write(lambda tx: tx.initiative.attach_message(record.id, 77))
    now = await store.read(lambda tx: tx.initiative.get(record.id))
    assert now is not None and now.message_id == 77
    assert await store.read(lambda tx: tx.initiative.get(record.id + 100)) is None
