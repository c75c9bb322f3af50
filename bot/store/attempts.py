"""Successive attempts (per action) and the fistful actions taken this turn (per member)."""

from __future__ import annotations

from bot.store.repository import Repository
from engine.records import label_key


class AttemptRepository(Repository):
    """Counters the engine turns into penalties; the store only counts.

    Successive attempts count the failures in a row of one action: same
    member, channel and label (labels matched with :func:`label_key`). The
    turn counter counts a member's actions in the channel's current turn.
    """

    def failures(self, guild_id: int, channel_id: int, user_id: int, label: str) -> int:
        """Failed attempts in a row at this action (0 after a success or a reset)."""
        row = self._one(
            "SELECT failures FROM attempts"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
            (guild_id, channel_id, user_id, label_key(label)),
        )
        return 0 if row is None else int(row["failures"])

    def save_failures(
        self, guild_id: int, channel_id: int, user_id: int, label: str, *, old: int, new: int
    ) -> bool:
        """Store the failures in a row at an action (the engine counts them), if they are
        still ``old``; False when another write changed them first."""
        key = (guild_id, channel_id, user_id, label_key(label))
        if self.failures(guild_id, channel_id, user_id, label) != old:
            return False
        if new == old:
            return True
        if new == 0:
            self._run(
                "DELETE FROM attempts"
                " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
                key,
            )
            return True
        self._run(
            "INSERT INTO attempts (guild_id, channel_id, user_id, label_key, failures)"
            " VALUES (?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, channel_id, user_id, label_key) DO UPDATE SET"
            " failures = excluded.failures, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (*key, new),
        )
        return True

    def reset(self, guild_id: int, channel_id: int, user_id: int, label: str) -> None:
        """Forget the failures at one action (it succeeded)."""
        self._run(
            "DELETE FROM attempts"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?",
            (guild_id, channel_id, user_id, label_key(label)),
        )

    def reset_channel(self, guild_id: int, channel_id: int) -> int:
        """Forget every successive attempt in the channel (end of scene, "no pressure").
        Answers how many actions were reset."""
        return self._run(
            "DELETE FROM attempts WHERE guild_id = ? AND channel_id = ?", (guild_id, channel_id)
        )

    def turn_actions(self, guild_id: int, channel_id: int, user_id: int) -> int:
        """Actions the member already took this turn in the channel."""
        row = self._one(
            "SELECT actions FROM turn_actions"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ?",
            (guild_id, channel_id, user_id),
        )
        return 0 if row is None else int(row["actions"])

    def save_turn_actions(
        self, guild_id: int, channel_id: int, user_id: int, *, old: int, new: int
    ) -> bool:
        """Store the member's actions this turn, if they are still ``old``; False when
        another write changed them first."""
        if self.turn_actions(guild_id, channel_id, user_id) != old:
            return False
        self._run(
            "INSERT INTO turn_actions (guild_id, channel_id, user_id, actions)"
            " VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, channel_id, user_id) DO UPDATE SET"
            " actions = excluded.actions, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, channel_id, user_id, new),
        )
        return True

    def reset_turn(self, guild_id: int, channel_id: int) -> int:
        """A new turn (or the end of the scene): nobody has acted yet. Answers how many
        members' counters were reset."""
        return self._run(
            "DELETE FROM turn_actions WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
