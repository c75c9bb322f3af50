"""Will pools and Beats, per member of a server."""

from __future__ import annotations

import sqlite3
from typing import Any, TypeVar

from bot.store.characters import CharacterRepository, record_of
from bot.store.repository import Connection, Query, Repository
from engine import will
from engine.characters import beat_added, with_will
from engine.records import CharacterRecord, WillPool

T = TypeVar("T")


def _pool(row: sqlite3.Row) -> WillPool:
    return WillPool.model_validate(dict(row))


def _in_order(pools: list[WillPool]) -> list[WillPool]:
    """Members' pools by member, then characters' by sheet (a join keeps no order)."""
    return sorted(pools, key=lambda pool: (pool.character_id is not None,
                                           pool.character_id or pool.user_id))


class WillRepository(Repository):
    """Will pools (a row only for a tracked pool) and `cofd` Beats.

    The store only keeps pools: what a set, a rest, a gain or the night does is the
    engine's (:mod:`engine.will`), and each change is written only if the pool is still
    the one the engine was given.

    With ``character_id`` a call acts on that character's sheet instead (RULES.md §6: a
    roll made with a character spends its Will and earns it Beats); a member without a
    character keeps the member-level pool.
    """

    def __init__(self, conn: Connection, characters: CharacterRepository) -> None:
        super().__init__(conn)
        self._characters = characters

    def get(self, guild_id: int, user_id: int, character_id: int | None = None) -> WillPool | None:
        """The member's pool (or the character's), or None when it is not tracked."""
        if character_id is not None:
            record = self._characters.get(character_id)
            return None if record is None else record.will_pool()
        row = self._one(
            "SELECT guild_id, user_id, current, maximum FROM will_pools"
            " WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return None if row is None else _pool(row)

    @staticmethod
    def member_query(guild_id: int, user_id: int) -> Query[tuple[WillPool | None, int]]:
        """The member's own pool (None when not tracked) and Beats (0 when none), as a
        query that always answers one row, to read beside the settings
        (``Queries.both``): its columns are named ``wp_…`` and ``b_…``."""

        def parse(row: Any) -> tuple[WillPool | None, int]:
            if row is None or row["wp_current"] is None:
                pool = None
            else:
                pool = WillPool(guild_id=guild_id, user_id=user_id,
                                current=row["wp_current"], maximum=row["wp_maximum"])
            beats = 0 if row is None or row["b_beats"] is None else int(row["b_beats"])
            return pool, beats

        return Query(
            "SELECT wp.current AS wp_current, wp.maximum AS wp_maximum, b.beats AS b_beats"
            " FROM (SELECT CAST(? AS BIGINT) AS guild_id, CAST(? AS BIGINT) AS user_id) AS k"
            " LEFT JOIN will_pools AS wp"
            " ON wp.guild_id = k.guild_id AND wp.user_id = k.user_id"
            " LEFT JOIN beats AS b ON b.guild_id = k.guild_id AND b.user_id = k.user_id",
            (guild_id, user_id),
            parse,
        )

    def pools_beside(
        self, first: Query[T], guild_id: int
    ) -> tuple[T, list[WillPool], dict[int, str]]:
        """``first`` (a one-row read such as the settings) and every tracked pool of the
        server (for the night), members' then characters', in one statement; and the
        characters' names by sheet id (the night names whose Will it was)."""
        found, held = self._beside_rows(first, self.pools_query(guild_id))
        names = {pool.character_id: name for pool, name in held
                 if pool.character_id is not None and name is not None}
        return found, _in_order([pool for pool, _name in held]), names

    @staticmethod
    def pools_query(guild_id: int) -> Query[tuple[WillPool, str | None] | None]:
        """Every tracked pool of the server, members' and characters' (their sheets) in
        one read, in no order (:func:`_in_order`), its columns named ``np_…`` (a
        member's) and ``nc_…`` (a sheet's); each with its character's name (None: a
        member's own pool); None for a row of NULLs (there is none)."""

        def parse(row: Any) -> tuple[WillPool, str | None] | None:
            if row is None:
                return None
            if row["np_user_id"] is not None:
                return WillPool(guild_id=guild_id, user_id=row["np_user_id"],
                                current=row["np_current"], maximum=row["np_maximum"]), None
            record = record_of(row, "nc_")
            return None if record is None else (record.will_pool(), record.name)

        return Query(
            "SELECT user_id AS np_user_id, current AS np_current, maximum AS np_maximum,"
            " CAST(NULL AS BIGINT) AS nc_id, CAST(NULL AS BIGINT) AS nc_guild_id,"
            " CAST(NULL AS BIGINT) AS nc_owner_id, CAST(NULL AS INTEGER) AS nc_version,"
            " CAST(NULL AS TEXT) AS nc_sheet_json FROM will_pools WHERE guild_id = ?"
            " UNION ALL"
            " SELECT NULL, NULL, NULL, c.id, c.guild_id, c.owner_id, c.version, c.sheet_json"
            " FROM characters c WHERE c.guild_id = ?",
            (guild_id, guild_id),
            parse,
        )

    def save(self, old: WillPool | None, new: WillPool) -> bool:
        """Store the pool the engine decided, if the stored one is still ``old`` (None: not
        tracked yet); False when another write changed it first (nothing is written)."""
        if new.character_id is not None:
            return self._save_character(old, new)
        if old is None:
            return self._changes_one(
                "INSERT INTO will_pools (guild_id, user_id, current, maximum)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id) DO NOTHING",
                (new.guild_id, new.user_id, new.current, new.maximum),
            )
        return self._changes_one(
            "UPDATE will_pools SET current = ?, maximum = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE guild_id = ? AND user_id = ? AND current = ? AND maximum = ?",
            (new.current, new.maximum, old.guild_id, old.user_id, old.current, old.maximum),
        )

    def _save_character(self, old: WillPool | None, new: WillPool) -> bool:
        """A character's Will, over the sheet as it is (only its current Will changes)."""
        record = None if new.character_id is None else self._characters.get(new.character_id)
        if record is None or old is None or record.will_pool() != old:
            return False
        if new.maximum != record.sheet.will_max:
            # The maximum is the sheet's Willpower trait: /character set changes it.
            msg = "a character's Will maximum changes with its Willpower trait"
            raise ValueError(msg)
        return self._characters.save(record, with_will(record.sheet, new.current)) is not None

    def debit(
        self, guild_id: int, user_id: int, character_id: int | None = None, *,
        read: WillPool | None = None,
    ) -> WillPool | None:
        """Spend 1 Will from a tracked pool that has some, as the engine reads a spend
        (:func:`engine.will.spent`); None when untracked or empty.

        Called inside the write transaction that spends the Will (after a roll, or
        declared with it), so the pool read here is the one saved; ``read``: the pool as
        this transaction read it (it is not read again; on PostgreSQL, as the server checks
        it with the COMMIT). A pool that moved inside the transaction is a bug, raised:
        the whole write is rolled back rather than a Will spent on a pool not stored.
        """
        pool = read if read is not None else self.get(guild_id, user_id, character_id)
        if pool is None or not will.can_spend(pool):
            return None
        after = will.spent(pool)
        if not self.save(pool, after):
            msg = f"the Will pool of {user_id} moved inside the transaction spending it"
            raise RuntimeError(msg)
        return after

    def add_beat(
        self, guild_id: int, user_id: int, character_id: int | None = None, *,
        read: tuple[int, CharacterRecord | None] | None = None,
    ) -> int:
        """One more Beat; the member's Beats now. A character's Beats turn into Experience
        at 5 (:func:`engine.characters.beat_added`): its Beats left are answered.

        ``read``: the member's Beats and the character's sheet (None: none) as this same
        transaction read them; nothing is then read again (the Beats answered are those
        plus one), so PostgreSQL holds the write back until COMMIT."""
        if read is not None:
            beats, record = read
        else:
            beats, record = None, (None if character_id is None
                                   else self._characters.get(character_id))
        if record is not None:
            sheet = beat_added(record.sheet)
            if self._characters.save(record, sheet) is None:  # inside this write: cannot move
                msg = f"character {record.id} changed inside its own transaction"
                raise RuntimeError(msg)
            return sheet.beats
        if beats is not None:
            self._do(
                "INSERT INTO beats (guild_id, user_id, beats) VALUES (?, ?, 1)"
                " ON CONFLICT (guild_id, user_id) DO UPDATE SET beats = beats.beats + 1,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
                (guild_id, user_id),
            )
            return beats + 1
        row = self._returning(
            "INSERT INTO beats (guild_id, user_id, beats) VALUES (?, ?, 1)"
            " ON CONFLICT (guild_id, user_id) DO UPDATE SET beats = beats.beats + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING beats",
            (guild_id, user_id),
        )
        return int(row["beats"])
