"""Successive attempts and the fistful turn counter: the engine counts, the store keeps the
count, changed only from the value the write read."""

from __future__ import annotations

import asyncio

import pytest

from bot.store import Conflict, Store, Tx
from bot.store.attempts import Acting, AttemptRepository, Standing
from bot.store.repository import Query
from bot.store.settings import SettingsRepository
from engine.characters import new_sheet
from engine.models import RollResult, Ruleset
from engine.records import WillPool, WillState
from engine.table import attempts
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    failure,
    refused,
    success,
    track_will,
)

DOOR = "force the door"


def _count(tx: Tx, result: RollResult, label: str = DOOR, user_id: int = ROLLER,
           channel_id: int = CHANNEL) -> int:
    """What a roll's write does: the engine counts, the store saves from the count it read."""
    old = _standing(tx, label, user_id, channel_id)
    new = attempts.record(old, result)
    if not tx.attempts.save_failures(GUILD, channel_id, user_id, label, old=old, new=new):
        raise Conflict(None)
    return new


async def _failures(store: Store, label: str = DOOR, user_id: int = ROLLER,
                    channel_id: int = CHANNEL) -> int:
    return await store.read(lambda tx: _standing(tx, label, user_id, channel_id))


def _standing(tx: Tx, label: str, user_id: int, channel_id: int) -> int:
    """The failures in a row at ``label``, as a roll reads them."""
    return tx.attempts.standing(GUILD, channel_id, user_id, label=label, turn=False,
                                will=False).failures


async def test_each_failure_of_an_action_adds_one(store: Store) -> None:
    first = await store.write(lambda tx: _count(tx, failure()))
    second = await store.write(lambda tx: _count(tx, failure()))

    assert (first, second, await _failures(store)) == (1, 2, 2)


async def test_a_success_starts_the_action_over(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))

    after = await store.write(lambda tx: _count(tx, success()))

    assert (after, await _failures(store)) == (0, 0)


async def test_a_refused_roll_does_not_count(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))

    after = await store.write(lambda tx: _count(tx, refused()))

    assert (after, await _failures(store)) == (1, 1)


async def test_a_stale_count_is_refused_and_changes_nothing(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))

    stale = await store.write(
        lambda tx: tx.attempts.save_failures(GUILD, CHANNEL, ROLLER, DOOR, old=0, new=1)
    )
    fresh = await store.write(
        lambda tx: tx.attempts.save_failures(GUILD, CHANNEL, ROLLER, DOOR, old=1, new=2)
    )

    assert (stale, fresh) == (False, True)
    assert await _failures(store) == 2


async def test_concurrent_failures_of_one_action_each_count_once(store: Store) -> None:
    counts = await asyncio.gather(
        *(store.write(lambda tx: _count(tx, failure())) for _ in range(20))
    )

    assert sorted(counts) == list(range(1, 21))
    assert await _failures(store) == 20


async def test_a_reset_forgets_the_failures_at_that_action_only(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(lambda tx: _count(tx, failure(), label="pick the lock"))

    await store.write(lambda tx: tx.attempts.reset(GUILD, CHANNEL, ROLLER, "Force the Door"))

    assert await _failures(store) == 0
    assert await _failures(store, "pick the lock") == 1


async def test_labels_match_whatever_their_case_and_spacing(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure(), label="Force the door"))

    assert await _failures(store, "  force   THE door ") == 1


async def test_attempts_are_per_member_channel_and_action(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))

    others = await store.read(
        lambda tx: (
            _standing(tx, DOOR, OTHER, CHANNEL),
            _standing(tx, DOOR, ROLLER, OTHER_CHANNEL),
            _standing(tx, "pick the lock", ROLLER, CHANNEL),
        )
    )

    assert others == (0, 0, 0)


async def test_the_end_of_the_scene_resets_the_channels_attempts_only(store: Store) -> None:
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(lambda tx: _count(tx, failure(), user_id=OTHER))
    await store.write(lambda tx: _count(tx, failure(), channel_id=OTHER_CHANNEL))

    def reset_channel(tx: Tx) -> int:
        count = tx.queries.one(AttemptRepository.count_query(GUILD, CHANNEL))
        tx.attempts.reset_channel(GUILD, CHANNEL)
        return count

    reset = await store.write(reset_channel)

    here = await _failures(store)
    elsewhere = await _failures(store, channel_id=OTHER_CHANNEL)
    assert (reset, here, elsewhere) == (2, 0, 1)


def _act(tx: Tx, channel_id: int = CHANNEL) -> int:
    """One more action this turn, as a fistful roll's write stores it."""
    old = tx.attempts.turn_actions(GUILD, channel_id, ROLLER)
    if not tx.attempts.save_turn_actions(GUILD, channel_id, ROLLER, old=old, new=old + 1):
        raise Conflict(None)
    return old + 1


async def test_the_turn_counter_counts_a_members_actions_until_the_next_turn(
    store: Store,
) -> None:
    before = await store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER))
    counts = [await store.write(_act) for _ in range(3)]
    await store.write(lambda tx: _act(tx, OTHER_CHANNEL))

    await store.write(lambda tx: tx.attempts.reset_turn(GUILD, CHANNEL))
    here, elsewhere = await store.read(
        lambda tx: (
            tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER),
            tx.attempts.turn_actions(GUILD, OTHER_CHANNEL, ROLLER),
        )
    )

    assert (before, counts) == (0, [1, 2, 3])
    assert (here, elsewhere) == (0, 1)


async def test_the_turn_counter_counts_a_character_s_actions_whoever_rolls_it(
    store: Store,
) -> None:
    """RULES.md §3 counts a character's actions: a sheet's count is its own, shared by the
    members who roll it (two Storytellers and one NPC), apart from each member's own
    rolls without a sheet and from their other sheets'; a standing reads the count of
    the character asked for, given as an id, as the member's active one here, or as the
    one a roll was made with; a new turn clears them all."""
    def write(tx: Tx) -> tuple[int, int, int]:
        goblin = tx.characters.insert(GUILD, ROLLER, new_sheet("Goblin", Ruleset.FISTFUL))
        orc = tx.characters.insert(GUILD, ROLLER, new_sheet("Orc", Ruleset.FISTFUL))
        assert goblin is not None and orc is not None
        tx.characters.use(GUILD, OTHER, goblin.id)
        tx.characters.use(GUILD, ROLLER, orc.id, channel_id=CHANNEL)
        rolled = tx.rolls.insert(guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER,
                                 result=failure(), will_state=WillState.NONE,
                                 character_id=orc.id, character_name="Orc")
        return goblin.id, orc.id, rolled.id

    goblin, orc, rolled = await store.write(write)
    for user_id, character_id, old, new in ((ROLLER, goblin, 0, 1), (OTHER, goblin, 1, 2),
                                            (ROLLER, None, 0, 3), (ROLLER, orc, 0, 1)):
        assert await store.write(lambda tx, u=user_id, c=character_id, o=old, n=new: (
            tx.attempts.save_turn_actions(GUILD, CHANNEL, u, c, old=o, new=n)))

    def standing(tx: Tx, user_id: int, acting: Acting) -> int:
        return tx.attempts.standing(GUILD, CHANNEL, user_id, label=None, turn=True,
                                    will=False, acting=acting).turn_actions

    counts = await store.read(lambda tx: (
        [tx.attempts.turn_actions(GUILD, CHANNEL, user_id, character_id)
         for user_id, character_id in ((ROLLER, goblin), (OTHER, goblin), (ROLLER, None),
                                       (OTHER, None), (ROLLER, orc))],
        standing(tx, OTHER, Acting.as_character(goblin)),
        standing(tx, OTHER, Acting.as_active(None)),
        standing(tx, ROLLER, Acting.as_active(None)),
        standing(tx, ROLLER, Acting.as_rolled(rolled)),
        standing(tx, OTHER, Acting.as_character(None)),
    ))
    await store.write(lambda tx: tx.attempts.reset_turn(GUILD, CHANNEL))
    cleared = await store.read(lambda tx: [
        tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER, character_id)
        for character_id in (goblin, None, orc)])

    assert counts == ([2, 2, 3, 0, 1], 2, 2, 1, 1, 0)
    assert cleared == [0, 0, 0]


async def test_a_stale_turn_count_is_refused_and_changes_nothing(store: Store) -> None:
    await store.write(_act)

    stale = await store.write(
        lambda tx: tx.attempts.save_turn_actions(GUILD, CHANNEL, ROLLER, old=0, new=1)
    )

    assert stale is False
    assert await store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER)) == 1


async def test_a_count_changed_since_it_was_read_is_not_overwritten(store: Store) -> None:
    # Each way a count is stored (first row, a new count, back to none, the same again)
    # checks the count it was given against the table in the same statement.
    write = store.write
    assert await write(lambda tx: tx.attempts.save_failures(
        GUILD, CHANNEL, ROLLER, DOOR, old=0, new=2))
    for old, new in ((0, 1), (1, 3), (1, 0), (1, 1)):  # it is 2, not `old`
        assert not await write(lambda tx, o=old, n=new: tx.attempts.save_failures(
            GUILD, CHANNEL, ROLLER, DOOR, old=o, new=n)), (old, new)
        assert await _failures(store) == 2
    assert await write(lambda tx: tx.attempts.save_failures(
        GUILD, CHANNEL, ROLLER, DOOR, old=2, new=0))
    assert await _failures(store) == 0
    assert not await write(lambda tx: tx.attempts.save_turn_actions(
        GUILD, CHANNEL, ROLLER, old=1, new=2))
    assert await write(lambda tx: tx.attempts.save_turn_actions(
        GUILD, CHANNEL, ROLLER, old=0, new=1))
    assert not await write(lambda tx: tx.attempts.save_turn_actions(
        GUILD, CHANNEL, ROLLER, old=0, new=1))
    assert await store.read(lambda tx: tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER)) == 1


async def test_a_members_standing_is_read_whole_and_only_as_asked(store: Store) -> None:
    """What a roll reads before its dice: the failures at the action, the actions this
    turn and the member's Will, in one statement; a part not asked for reads as 0 or
    None, whatever is stored."""
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(_act)
    await store.write(lambda tx: track_will(tx, maximum=6, current=4))
    await store.write(lambda tx: track_will(tx, maximum=2, user_id=OTHER))

    def read(tx: Tx, user_id: int = ROLLER, **asked: bool) -> Standing:
        label = DOOR if asked.pop("label", True) else None
        return tx.attempts.standing(GUILD, CHANNEL, user_id, label=label,
                                    turn=asked.get("turn", True), will=asked.get("will", True))

    whole, none, other, elsewhere = await store.read(lambda tx: (
        read(tx),
        read(tx, label=False, turn=False, will=False),
        read(tx, OTHER),
        tx.attempts.standing(GUILD, OTHER_CHANNEL, ROLLER, label=DOOR, turn=True, will=False),
    ))

    assert whole == Standing(
        failures=2, turn_actions=1,
        pool=WillPool(guild_id=GUILD, user_id=ROLLER, current=4, maximum=6),
    )
    assert none == Standing(failures=0, turn_actions=0, pool=None)
    assert other == Standing(
        failures=0, turn_actions=0,
        pool=WillPool(guild_id=GUILD, user_id=OTHER, current=2, maximum=2),
    )
    assert elsewhere == Standing(failures=0, turn_actions=0, pool=None)
    for part in ("label", "turn", "will"):
        alone = await store.read(lambda tx, part=part: read(tx, **{part: False}))
        assert alone == whole._replace(**{
            "label": {"failures": 0}, "turn": {"turn_actions": 0}, "will": {"pool": None},
        }[part]), part


async def test_a_standing_read_with_the_settings_answers_as_both_read_alone(
    store: Store,
) -> None:
    """A roll reads its settings and its standing in one statement (Queries.both)."""
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(lambda tx: track_will(tx, maximum=6, current=4))
    await store.write(lambda tx: tx.settings.set_guild_ruleset(GUILD, Ruleset.V20))
    settings = SettingsRepository.config_query(GUILD, CHANNEL, None, ROLLER)

    def read(tx: Tx, label: str | None) -> tuple[object, object]:
        together = tx.queries.both(settings, AttemptRepository.standing_query(
            GUILD, CHANNEL, ROLLER, label=label, turn=True, will=True))
        alone = (
            tx.settings.config_and_character(GUILD, CHANNEL, None, ROLLER),
            tx.attempts.standing(GUILD, CHANNEL, ROLLER, label=label, turn=True, will=True),
        )
        return together, alone

    for label in (DOOR, None):
        together, alone = await store.read(lambda tx, label=label: read(tx, label))
        assert together == alone, label
    assert together[0][0].ruleset is Ruleset.V20  # type: ignore[index]


async def test_two_reads_that_name_a_column_alike_are_refused_together(store: Store) -> None:
    """Queries.both joins two reads' columns in one row: a name in both would hide one."""
    settings = SettingsRepository.config_query(GUILD, CHANNEL, None, ROLLER)
    clash = Query("SELECT 1 AS g_ruleset", (), lambda row: row)

    with pytest.raises(ValueError, match="name the same columns"):
        await store.read(lambda tx: tx.queries.both(settings, clash))


async def test_a_standing_expected_as_it_was_read_before_answers_as_it_is_now(
    store: Store,
) -> None:
    """A roll's write is given the standing its flow read ahead: answered as stored,
    whether or not it has moved since (PostgreSQL checks it, SQLite reads it)."""
    await store.write(lambda tx: _count(tx, failure()))
    await store.write(lambda tx: track_will(tx, maximum=6, current=4))

    def standing(tx: Tx, expected: Standing) -> Standing:
        return tx.attempts.standing(GUILD, CHANNEL, ROLLER, label=DOOR, turn=True, will=True,
                                    expected=expected)

    now = Standing(failures=1, turn_actions=0,
                   pool=WillPool(guild_id=GUILD, user_id=ROLLER, current=4, maximum=6))
    moved = [now._replace(failures=0), now._replace(pool=None), now._replace(turn_actions=3),
             now._replace(pool=WillPool(guild_id=GUILD, user_id=ROLLER, current=5, maximum=6))]
    for expected in (now, *moved):
        assert await store.write(lambda tx, expected=expected: standing(tx, expected)) == now
