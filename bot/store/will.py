"""Will pools and Beats, per member of a server."""

from __future__ import annotations

import sqlite3

from bot.store.repository import Repository
from engine import will
from engine.records import WillPool


def _pool(row: sqlite3.Row) -> WillPool:
    return WillPool.model_validate(dict(row))


class WillRepository(Repository):
    """Will pools (a row only for a tracked pool) and `cofd` Beats.

    The store only keeps pools: what a set, a rest, a gain or the night does is the
    engine's (:mod:`engine.will`), and each change is written only if the pool is still
    the one the engine was given.
    """

    def get(self, guild_id: int, user_id: int) -> WillPool | None:
        """The member's pool, or None when it is not tracked."""
        row = self._one(
            "SELECT guild_id, user_id, current, maximum FROM will_pools"
            " WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _pool(row)

    def pools(self, guild_id: int) -> list[WillPool]:
        """Every tracked pool of the server (for the night)."""
        rows = self._all(
            "SELECT guild_id, user_id, current, maximum FROM will_pools WHERE guild_id = ?"
            " ORDER BY user_id",
            (guild_id,),
        )
        return [_pool(row) for row in rows]

    def save(self, old: WillPool | None, new: WillPool) -> bool:
        """Store the pool the engine decided, if the stored one is still ``old`` (None: not
        tracked yet); False when another write changed it first (nothing is written)."""
        if old is None:
            return self._run(
                "INSERT INTO will_pools (guild_id, user_id, current, maximum)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
                (new.guild_id, new.user_id, new.current, new.maximum),
            ) == 1
        return self._run(
            "UPDATE will_pools SET current = ?, maximum = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND user_id = ? AND current = ? AND maximum = ?",
            (new.current, new.maximum, old.guild_id, old.user_id, old.current, old.maximum),
        ) == 1

    def debit(self, guild_id: int, user_id: int) -> WillPool | None:
        """Spend 1 Will from a tracked pool that has some, as the engine reads a spend
        (:func:`engine.will.spent`); None when untracked or empty.

        Called inside the write transaction that spends the Will (after a roll, or
        declared with it), so the pool read here is the one saved.
        """
        pool = self.get(guild_id, user_id)
        if pool is None or not will.can_spend(pool):
            return None
        after = will.spent(pool)
        self.save(pool, after)
        return after

    def beats(self, guild_id: int, user_id: int) -> int:
        """The member's Beats (0 when none was ever taken)."""
        row = self._one(
            "SELECT beats FROM beats WHERE guild_id = ? AND user_id = ?", (guild_id, user_id)
        )
        return 0 if row is None else int(row["beats"])

    def add_beat(self, guild_id: int, user_id: int) -> int:
        """One more Beat; the member's Beats now."""
        row = self._returning(
            "INSERT INTO beats (guild_id, user_id, beats) VALUES (?, ?, 1)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET beats = beats + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING beats",
            (guild_id, user_id),
        )
        return int(row["beats"])
