"""Saved rolls: a member's named requests per server, as asked (engine.saved.Asked JSON).

Names match folded (case, spaces, accents aside); one name per member per server,
which the table's UNIQUE constraint guards too. The limit of saved rolls is the
flow's rule, checked in the same write that saves.
"""

from __future__ import annotations

import sqlite3
from typing import Any, Final

from bot.store.repository import Query, Repository
from engine.saved import Asked, SavedRoll, clean_name, name_key


def _saved(row: sqlite3.Row | dict[str, Any]) -> SavedRoll:
    return SavedRoll(
        id=row["id"], guild_id=row["guild_id"], user_id=row["user_id"], name=row["name"],
        asked=Asked.model_validate_json(row["asked_json"]), label=row["label"],
    )


#: A saved roll's columns, named ``sv_…`` when read beside others (SavedRollRepository.get_query).
_COLUMNS: Final = ("id", "guild_id", "user_id", "name", "asked_json", "label")


class SavedRollRepository(Repository):
    """Each member's saved rolls in a server."""

    @staticmethod
    def get_query(guild_id: int, user_id: int, name: str) -> Query[SavedRoll | None]:
        """The member's saved roll by this name (folded), if any, as a query to read
        beside others (``Queries.both``; alone, ``Queries.one``): its columns are named
        ``sv_…``, and a row of NULLs is None."""

        def parse(row: Any) -> SavedRoll | None:
            if row is None or row["sv_id"] is None:
                return None
            return _saved({name: row[f"sv_{name}"] for name in _COLUMNS})

        return Query(
            "SELECT id AS sv_id, guild_id AS sv_guild_id, user_id AS sv_user_id, name AS sv_name,"
            " asked_json AS sv_asked_json, label AS sv_label"
            " FROM saved_rolls WHERE guild_id = ? AND user_id = ? AND name_key = ?",
            (guild_id, user_id, name_key(name)),
            parse,
        )

    @staticmethod
    def standing_query(guild_id: int, user_id: int, name: str) -> Query[tuple[bool, int]]:
        """Whether the member has a saved roll of this name (folded), and how many saved
        rolls they keep in the server, as a query that always answers one row (its
        columns ``saved_taken`` and ``saved_count``): what saving one decides on."""

        def parse(row: Any) -> tuple[bool, int]:
            return (False, 0) if row is None else (bool(row["saved_taken"]),
                                                   int(row["saved_count"]))

        return Query(
            "SELECT coalesce(sum(CASE WHEN name_key = ? THEN 1 ELSE 0 END), 0) AS saved_taken,"
            " count(*) AS saved_count FROM saved_rolls WHERE guild_id = ? AND user_id = ?",
            (name_key(name), guild_id, user_id),
            parse,
        )

    def all(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        """The member's saved rolls in the server, by name."""
        rows = self._all(
            "SELECT * FROM saved_rolls WHERE guild_id = ? AND user_id = ?"
            " ORDER BY name_key, id",
            (guild_id, user_id),
        )
        return [_saved(row) for row in rows]

    def names(self, guild_id: int, user_id: int) -> list[str]:
        """The names of the member's saved rolls, by name, without reading the rolls."""
        rows = self._all(
            "SELECT name FROM saved_rolls WHERE guild_id = ? AND user_id = ?"
            " ORDER BY name_key, id",
            (guild_id, user_id),
        )
        return [str(row["name"]) for row in rows]

    def put(
        self, guild_id: int, user_id: int, name: str, asked: Asked, label: str | None
    ) -> SavedRoll:
        """Save (or replace: same folded name) the member's roll; the roll as saved.

        The caller decided that it may (the name is free or to be replaced, the limit
        is not reached) in the same transaction.
        """
        cleaned = clean_name(name)
        row = self._returning(
            "INSERT INTO saved_rolls (guild_id, user_id, name, name_key, asked_json, label)"
            " VALUES (?, ?, ?, ?, ?, ?)"
            " ON CONFLICT (guild_id, user_id, name_key) DO UPDATE SET name = excluded.name,"
            " asked_json = excluded.asked_json, label = excluded.label,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " RETURNING *",
            (guild_id, user_id, cleaned, name_key(cleaned), asked.model_dump_json(), label),
        )
        return _saved(row)

    def delete(self, guild_id: int, user_id: int, name: str) -> SavedRoll | None:
        """Delete the member's saved roll by this name; the roll deleted, None if none."""
        row = self._one(
            "DELETE FROM saved_rolls WHERE guild_id = ? AND user_id = ? AND name_key = ?"
            " RETURNING *",
            (guild_id, user_id, name_key(name)),
        )
        return None if row is None else _saved(row)
