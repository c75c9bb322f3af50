"""Will pools and Beats, per member of a server."""

from __future__ import annotations

import sqlite3

from bot.store.repository import Repository
from engine.records import Change, WillPool


def _pool(row: sqlite3.Row) -> WillPool:
    return WillPool.model_validate(dict(row))


class WillRepository(Repository):
    """Will pools (a row only for a tracked pool) and `cofd` Beats.

    Every regain stops at the maximum: rest, night and a Storyteller's gain
    alike never take a pool above it.
    """

    def get(self, guild_id: int, user_id: int) -> WillPool | None:
        """The member's pool, or None when it is not tracked."""
        row = self._one(
            "SELECT guild_id, user_id, current, maximum FROM will_pools"
            " WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _pool(row)

    def set_pool(
        self, guild_id: int, user_id: int, maximum: int, current: int | None = None
    ) -> Change[WillPool | None]:
        """Track a pool or change it.

        Without ``current``, a new pool starts full and an existing one keeps
        its current Will, lowered to the new maximum if it is above it.
        Raises ValueError for a negative value or a current above the maximum.
        """
        old = self.get(guild_id, user_id)
        if current is None:
            current = maximum if old is None else min(old.current, maximum)
        new = WillPool(guild_id=guild_id, user_id=user_id, current=current, maximum=maximum)
        self._run(
            "INSERT INTO will_pools (guild_id, user_id, current, maximum) VALUES (?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET"
            " current = excluded.current, maximum = excluded.maximum,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, user_id, new.current, new.maximum),
        )
        return Change[WillPool | None](old=old, new=new)

    def gain(self, guild_id: int, user_id: int, amount: int) -> Change[WillPool] | None:
        """Regain ``amount`` Will, up to the maximum only (rest is a gain of 1).

        None when the pool is not tracked. Raises ValueError for an amount below 1.
        """
        if amount < 1:
            msg = f"a Will gain is at least 1, not {amount}"
            raise ValueError(msg)
        old = self.get(guild_id, user_id)
        if old is None:
            return None
        new = old.model_copy(update={"current": min(old.maximum, old.current + amount)})
        self._run(
            "UPDATE will_pools SET current = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND user_id = ?",
            (new.current, guild_id, user_id),
        )
        return Change[WillPool](old=old, new=new)

    def rest(self, guild_id: int, user_id: int) -> Change[WillPool] | None:
        """A rest: regain 1 Will, up to the maximum. None when the pool is not tracked."""
        return self.gain(guild_id, user_id, 1)

    def night(self, guild_id: int) -> int:
        """Every tracked pool in the server regains 1, up to its maximum.

        Answers how many pools regained Will (full pools are left as they are).
        """
        return self._run(
            "UPDATE will_pools SET current = current + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND current < maximum",
            (guild_id,),
        )

    def debit(self, guild_id: int, user_id: int) -> WillPool | None:
        """Take 1 Will from a tracked pool that has some; None when untracked or empty.

        Called in the transaction that spends the Will: by
        :meth:`bot.store.rolls.RollRepository.spend_will` after a roll, and by the
        bot for Will declared with a roll.
        """
        row = self._one(
            "UPDATE will_pools SET current = current - 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND user_id = ? AND current > 0"
            " RETURNING guild_id, user_id, current, maximum",
            (guild_id, user_id),
        )
        return None if row is None else _pool(row)

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
