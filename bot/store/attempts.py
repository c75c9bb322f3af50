"""Successive attempts (per action) and the fistful actions taken this turn (per member)."""

from __future__ import annotations

from bot.store.records import label_key
from bot.store.repository import Repository
from engine.models import RollResult


class AttemptRepository(Repository):
    """Counters the engine turns into penalties; the store only counts.

    Successive attempts count the failures in a row of one action: same
    member, channel and label (labels matched with :func:`label_key`). The
    turn counter counts a member's actions in the channel's current turn.
    """

    async def failures(self, guild_id: int, channel_id: int, user_id: int, label: str) -> int:
        """Failed attempts in a row at this action (0 after a success or a reset)."""
        row = await self._one(
            "SELECT failures FROM attempts"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
            (guild_id, channel_id, user_id, label_key(label)),
        )
        return 0 if row is None else int(row["failures"])

    async def record(
        self, guild_id: int, channel_id: int, user_id: int, label: str, result: RollResult
    ) -> int:
        """Count a labelled roll: a failure adds one, a success starts over, a refused
        roll changes nothing. Answers the failures in a row now."""
        key = (guild_id, channel_id, user_id, label_key(label))
        if result.succeeded:
            await self._run(
                "DELETE FROM attempts"
                " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
                key,
            )
            return 0
        if not result.failed:
            return await self.failures(guild_id, channel_id, user_id, label)
        row = await self._returning(
            "INSERT INTO attempts (guild_id, channel_id, user_id, label_key, failures)"
            " VALUES (?, ?, ?, ?, 1)"
            " ON CONFLICT (guild_id, channel_id, user_id, label_key) DO UPDATE SET"
            " failures = failures + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING failures",
            key,
        )
        return int(row["failures"])

    async def reset_channel(self, guild_id: int, channel_id: int) -> int:
        """Forget every successive attempt in the channel (end of scene, "no pressure").
        Answers how many actions were reset."""
        return await self._run(
            "DELETE FROM attempts WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
        )

    async def turn_actions(self, guild_id: int, channel_id: int, user_id: int) -> int:
        """Actions the member already took this turn in the channel."""
        row = await self._one(
            "SELECT actions FROM turn_actions"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ?",
            (guild_id, channel_id, user_id),
        )
        return 0 if row is None else int(row["actions"])

    async def record_turn_action(self, guild_id: int, channel_id: int, user_id: int) -> int:
        """Count one more action this turn; the member's actions this turn now."""
        row = await self._returning(
            "INSERT INTO turn_actions (guild_id, channel_id, user_id, actions)"
            " VALUES (?, ?, ?, 1)"
            " ON CONFLICT (guild_id, channel_id, user_id) DO UPDATE SET"
            " actions = actions + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING actions",
            (guild_id, channel_id, user_id),
        )
        return int(row["actions"])

    async def reset_turn(self, guild_id: int, channel_id: int) -> int:
        """A new turn (or the end of the scene): nobody has acted yet. Answers how many
        members' counters were reset."""
        return await self._run(
            "DELETE FROM turn_actions WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
