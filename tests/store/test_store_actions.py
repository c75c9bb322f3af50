"""Generic actions: engine state as JSON, changed only at the version that was read."""

from __future__ import annotations

import asyncio
from typing import Any

from pydantic import BaseModel, ConfigDict

from bot.store import Store, Tx
from bot.store.actions import ActionRepository
from bot.store.attempts import AttemptRepository
from bot.store.rolls import RollRepository
from bot.store.settings import SettingsRepository
from engine.models import Ruleset
from engine.records import ActionKind, ActionRecord, ActionStatus
from tests.store.conftest import CHANNEL, GUILD, OTHER, OTHER_CHANNEL, ROLLER, roll


class Progress(BaseModel):
    """Stands in for the engine's extended-action state."""

    model_config = ConfigDict(frozen=True)

    successes: int = 0
    target: int = 10
    conditions: tuple[str, ...] = ()


async def _start(
    store: Store,
    label: str = "Research the cult",
    *,
    kind: ActionKind = ActionKind.EXTENDED,
    owner_id: int = ROLLER,
    channel_id: int = CHANNEL,
) -> ActionRecord:
    return await store.write(
        lambda tx: tx.actions.create(
            kind,
            guild_id=GUILD,
            channel_id=channel_id,
            owner_id=owner_id,
            label=label,
            state=Progress(),
        )
    )


async def _get(store: Store, action_id: int) -> ActionRecord | None:
    return await store.read(lambda tx: tx.actions.get(action_id))


async def _update(
    store: Store,
    action_id: int,
    version: int,
    state: Progress,
    status: ActionStatus = ActionStatus.OPEN,
) -> int | None:
    return await store.write(lambda tx: tx.actions.update(action_id, version, state, status))


async def _open(store: Store, **where: Any) -> list[ActionRecord]:
    return await store.read(lambda tx: tx.actions.find_open(GUILD, CHANNEL, **where))


async def test_a_new_action_is_open_at_version_one_with_its_state(store: Store) -> None:
    action = await _start(store)

    assert (action.kind, action.status, action.version) == (
        ActionKind.EXTENDED,
        ActionStatus.OPEN,
        1,
    )
    assert action.state(Progress) == Progress()
    assert await _get(store, action.id) == action


async def _start_unless_open(store: Store, label: str = "Research the cult",
                             kind: ActionKind = ActionKind.TEAMWORK) -> ActionRecord | None:
    return await store.write(lambda tx: tx.actions.create(
        kind, guild_id=GUILD, channel_id=CHANNEL, owner_id=ROLLER, label=label,
        state=Progress(), unless_open=True,
    ))


async def test_an_action_created_unless_one_is_open_is_refused_by_an_open_one_alone(
    store: Store,
) -> None:
    first = await _start_unless_open(store)
    assert first is not None and first.label == "Research the cult"
    assert await _start_unless_open(store, "  research THE cult ") is None  # same label key
    assert [a.id for a in await _open(store)] == [first.id], "nothing more was stored"
    other = await _start_unless_open(store, "Ward the door")
    assert other is not None
    assert await _start_unless_open(store, kind=ActionKind.EXTENDED) is not None  # other kind
    await _update(store, first.id, 1, Progress(), ActionStatus.CLOSED)
    again = await _start_unless_open(store)
    assert again is not None and again.version == 1 and again.id > first.id


async def test_of_many_actions_created_at_once_unless_open_one_is_stored(store: Store) -> None:
    created = await asyncio.gather(*(_start_unless_open(store) for _ in range(10)))
    assert len([a for a in created if a is not None]) == 1
    assert len(await _open(store, kind=ActionKind.TEAMWORK)) == 1


async def test_an_update_at_the_version_read_takes_effect(store: Store) -> None:
    action = await _start(store)
    progress = Progress(successes=4, conditions=("Obsessed",))

    updated = await _update(store, action.id, action.version, progress)
    stored = await _get(store, action.id)

    assert stored is not None
    assert stored.version == 2
    assert updated == stored.version
    assert stored.state(Progress) == progress


async def test_a_stale_update_is_refused_and_changes_nothing(store: Store) -> None:
    action = await _start(store)
    await _update(store, action.id, action.version, Progress(successes=3))

    stale = await _update(store, action.id, action.version, Progress(successes=9))
    stored = await _get(store, action.id)

    assert stale is None
    assert stored is not None
    assert (stored.version, stored.state(Progress).successes) == (2, 3)


async def test_only_one_of_many_concurrent_updates_from_one_version_takes_effect(
    store: Store,
) -> None:
    action = await _start(store)

    answers = await asyncio.gather(
        *(
            _update(store, action.id, action.version, Progress(successes=n))
            for n in range(1, 51)
        )
    )

    assert answers.count(None) == len(answers) - 1
    assert answers.count(2) == 1
    stored = await _get(store, action.id)
    assert stored is not None
    assert stored.version == 2


async def test_a_closed_action_never_changes_again(store: Store) -> None:
    action = await _start(store)
    await _update(store, action.id, 1, Progress(successes=10), ActionStatus.CLOSED)
    closed = await _get(store, action.id)
    assert closed is not None

    reopened = await _update(store, action.id, closed.version, Progress())

    assert closed.status is ActionStatus.CLOSED
    assert not reopened
    assert await _get(store, action.id) == closed
    assert await _open(store) == []


async def test_an_update_of_a_missing_action_is_refused(store: Store) -> None:
    assert not await _update(store, 404, 1, Progress())
    assert await _get(store, 404) is None


async def test_the_open_action_with_a_label_is_found_in_its_channel(store: Store) -> None:
    wanted = await _start(store, "Research the cult")
    await _start(store, "Pick the lock")
    await _start(store, "Research the cult", channel_id=OTHER_CHANNEL)

    found = await _open(store, label="research  THE cult")

    assert found == [wanted]


async def test_open_actions_are_found_by_kind_and_owner(store: Store) -> None:
    extended = await _start(store)
    teamwork = await _start(store, "Lift the car", kind=ActionKind.TEAMWORK, owner_id=OTHER)

    assert await _open(store, kind=ActionKind.TEAMWORK) == [teamwork]
    assert await _open(store, owner_id=ROLLER) == [extended]
    assert await _open(store) == [extended, teamwork]


async def test_the_card_of_an_action_is_remembered(store: Store) -> None:
    action = await _start(store)

    def body(tx: Tx) -> ActionRecord | None:
        tx.actions.attach_message(action.id, 999)
        return tx.actions.get(action.id)

    stored = await store.write(body)

    assert stored is not None
    assert stored.message_id == 999
    assert stored.version == action.version


async def test_the_last_closed_attempt_at_a_task_is_found_by_label(store: Store) -> None:
    first = await _start(store, "Research the cult")
    await _update(store, first.id, first.version, Progress(successes=1), ActionStatus.CLOSED)
    second = await _start(store, "research  the CULT")
    await _update(store, second.id, second.version, Progress(successes=2), ActionStatus.CLOSED)
    await _start(store, "Research the cult")  # open: not an ended attempt
    other_channel = await _start(store, "Research the cult", channel_id=OTHER_CHANNEL)
    await _update(
        store, other_channel.id, other_channel.version, Progress(successes=3), ActionStatus.CLOSED
    )

    last, teamwork = await store.read(
        lambda tx: (
            tx.queries.one(ActionRepository.last_closed_query(
                GUILD, CHANNEL, kind=ActionKind.EXTENDED, label="Research the Cult"
            )),
            tx.queries.one(ActionRepository.last_closed_query(
                GUILD, CHANNEL, kind=ActionKind.TEAMWORK, label="Research the cult"
            )),
        )
    )

    assert last is not None
    assert last.id == second.id
    assert last.state(Progress).successes == 2
    assert teamwork is None


async def test_an_action_read_beside_the_settings_and_a_standing_answers_as_read_alone(
    store: Store,
) -> None:
    """A button of an extended or teamwork card reads its action with the settings (and
    the member's standing) in one statement."""
    record = await _start(store)
    await store.write(lambda tx: tx.settings.set_guild_ruleset(GUILD, Ruleset.V20))
    settings = SettingsRepository.config_query(GUILD, CHANNEL, None, ROLLER)
    standing = AttemptRepository.standing_query(GUILD, CHANNEL, ROLLER, label=None,
                                                turn=True, will=True)

    def read(tx: Tx, action_id: int) -> tuple[object, object, object]:
        alone = (tx.settings.config_and_character(GUILD, CHANNEL, None, ROLLER),
                 tx.actions.get(action_id))
        both = tx.queries.both(settings, ActionRepository.get_query(action_id))
        (config, _), _, found = tx.queries.with_rows(
            settings, standing, ActionRepository.get_query(action_id))
        return alone, both, (config.ruleset, found)

    here, gone = await store.read(lambda tx: (read(tx, record.id), read(tx, 999_999)))
    open_roll = await roll(store)
    (_, standing_now, found, rolls) = await store.read(lambda tx: tx.queries.three_with_rows(
        settings, standing, ActionRepository.get_query(record.id),
        RollRepository.open_query(GUILD, CHANNEL, ROLLER)))

    owners = await store.read(lambda tx: [tx.queries.with_rows(
        settings, ActionRepository.get_query(action_id),
        RollRepository.open_of_owner_query(GUILD, CHANNEL, action_id))[2]
        for action_id in (record.id, 999_999)])

    assert found == record  # beside a roll's columns, most of them named alike
    assert [each.record.id for each in rolls] == [open_roll]
    assert [[each.record.id for each in found] for found in owners] == [[open_roll], []]
    assert standing_now.pool is None
    assert here[0] == here[1]
    assert here[0][1] == record
    assert here[2] == (Ruleset.V20, [record])
    assert gone[0] == gone[1]
    assert gone[1][1] is None
    assert gone[2] == (Ruleset.V20, [])


async def test_an_action_is_still_as_read_until_a_write_moves_it_or_its_card(
    store: Store,
) -> None:
    """What a card's write asks before its dice (ActionRepository.still): answered from
    the server's check on PostgreSQL, from a read on SQLite, the same either way."""
    record = await _start(store)
    other = await _start(store, "Another")

    async def still(as_read: ActionRecord) -> bool:
        return await store.write(lambda tx: tx.actions.still(as_read))

    assert await still(record)
    await store.write(lambda tx: tx.actions.attach_message(record.id, 901))
    assert not await still(record)  # its card is known now: the record read is not
    carded = await _get(store, record.id)
    assert carded is not None
    assert await still(carded)
    await store.write(lambda tx: tx.actions.update(
        carded.id, carded.version, Progress(successes=3), ActionStatus.OPEN))
    assert not await still(carded)
    await store.write(lambda tx: tx.actions.update(
        other.id, other.version, Progress(), ActionStatus.CLOSED))
    assert not await still(other)
    assert not await still(other.model_copy(update={"id": 999_999}))
