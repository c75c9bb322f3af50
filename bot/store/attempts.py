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
        still ``old``; False when another write changed them first. One conditional
        statement (no row is 0 failures: a count back to 0 deletes its row)."""
        key = (guild_id, channel_id, user_id, label_key(label))
        if new == old:
            return self.failures(guild_id, channel_id, user_id, label) == old
        if old == 0:
            return self._changes_one(
                "INSERT INTO attempts (guild_id, channel_id, user_id, label_key, failures)"
                " VALUES (?, ?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id, user_id, label_key) DO NOTHING",
                (*key, new),
            )
        if new == 0:
            return self._changes_one(
                "DELETE FROM attempts WHERE guild_id = ? AND channel_id = ? AND user_id = ?"
                " AND label_key = ? AND failures = ?",
                (*key, old),
            )
        return self._changes_one(
            "UPDATE attempts SET failures = ?, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND label_key = ?"
            " AND failures = ?",
            (new, *key, old),
        )

    def reset(self, guild_id: int, channel_id: int, user_id: int, label: str) -> None:
        """Forget the failures at one action (it succeeded)."""
        self._do(
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
        another write changed them first. One conditional statement (no row is 0
        actions)."""
        if old == 0:
            return self._changes_one(
                "INSERT INTO turn_actions (guild_id, channel_id, user_id, actions)"
                " VALUES (?, ?, ?, ?)"
                " ON CONFLICT (guild_id, channel_id, user_id) DO NOTHING",
                (guild_id, channel_id, user_id, new),
            )
        return self._changes_one(
            "UPDATE turn_actions SET actions = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND channel_id = ? AND user_id = ? AND actions = ?",
            (new, guild_id, channel_id, user_id, old),
        )

    def reset_turn(self, guild_id: int, channel_id: int) -> int:
        """A new turn (or the end of the scene): nobody has acted yet. Answers how many
        members' counters were reset."""
        return self._run(
            "DELETE FROM turn_actions WHERE guild_id = ? AND channel_id = ?",
            (guild_id, channel_id),
        )
