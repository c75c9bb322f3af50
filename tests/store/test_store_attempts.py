"""Successive attempts and the fistful turn counter."""

from __future__ import annotations

from bot.store import Store
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    failure,
    refused,
    success,
)

DOOR = "force the door"


async def test_each_failure_of_an_action_adds_one(store: Store) -> None:
    async with store.transaction() as tx:
        first = await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        second = await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        now = await tx.attempts.failures(GUILD, CHANNEL, ROLLER, DOOR)

    assert (first, second, now) == (1, 2, 2)


async def test_a_success_starts_the_action_over(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        after = await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, success())
        now = await tx.attempts.failures(GUILD, CHANNEL, ROLLER, DOOR)

    assert (after, now) == (0, 0)


async def test_a_refused_roll_does_not_count(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        after = await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, refused())

    assert after == 1


async def test_labels_match_whatever_their_case_and_spacing(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.attempts.record(GUILD, CHANNEL, ROLLER, "Force the door", failure())
        now = await tx.attempts.failures(GUILD, CHANNEL, ROLLER, "  force   THE door ")

    assert now == 1


async def test_attempts_are_per_member_channel_and_action(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        others = (
            await tx.attempts.failures(GUILD, CHANNEL, OTHER, DOOR),
            await tx.attempts.failures(GUILD, OTHER_CHANNEL, ROLLER, DOOR),
            await tx.attempts.failures(GUILD, CHANNEL, ROLLER, "pick the lock"),
        )

    assert others == (0, 0, 0)


async def test_the_end_of_the_scene_resets_the_channels_attempts_only(store: Store) -> None:
    async with store.transaction() as tx:
        await tx.attempts.record(GUILD, CHANNEL, ROLLER, DOOR, failure())
        await tx.attempts.record(GUILD, CHANNEL, OTHER, DOOR, failure())
        await tx.attempts.record(GUILD, OTHER_CHANNEL, ROLLER, DOOR, failure())

    async with store.transaction() as tx:
        reset = await tx.attempts.reset_channel(GUILD, CHANNEL)
        here = await tx.attempts.failures(GUILD, CHANNEL, ROLLER, DOOR)
        elsewhere = await tx.attempts.failures(GUILD, OTHER_CHANNEL, ROLLER, DOOR)

    assert (reset, here, elsewhere) == (2, 0, 1)


async def test_the_turn_counter_counts_a_members_actions_until_the_next_turn(
    store: Store,
) -> None:
    async with store.transaction() as tx:
        before = await tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER)
        counts = [await tx.attempts.record_turn_action(GUILD, CHANNEL, ROLLER) for _ in range(3)]
        await tx.attempts.record_turn_action(GUILD, OTHER_CHANNEL, ROLLER)

    async with store.transaction() as tx:
        reset = await tx.attempts.reset_turn(GUILD, CHANNEL)
        here = await tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER)
        elsewhere = await tx.attempts.turn_actions(GUILD, OTHER_CHANNEL, ROLLER)

    assert (before, counts) == (0, [1, 2, 3])
    assert (reset, here, elsewhere) == (1, 0, 1)
