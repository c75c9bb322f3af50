"""Saved rolls: a member's named requests per server, as asked (engine.saved.Asked JSON).

Names match folded (case, spaces, accents aside); one name per member per server,
which the table's UNIQUE constraint guards too. The limit of saved rolls is the
flow's rule, checked in the same write that saves.
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any, Final

from bot.store.repository import Query, Repository
from engine.saved import Asked, SavedRoll, clean_name, name_key


def _saved(row: sqlite3.Row | dict[str, Any]) -> SavedRoll:
    return SavedRoll(
        id=row["id"], guild_id=row["guild_id"], user_id=row["user_id"], name=row["name"],
        asked=Asked.model_validate_json(row["asked_json"]), label=row["label"],
    )


@dataclass(frozen=True, slots=True)
class Standing:
    """What saving a roll under a name decides on (SavedRollRepository.standing_query)."""

    id: int | None
    """The member's saved roll of that name (folded), if any: what a replacement rewrites."""
    count: int
    """How many saved rolls the member keeps in the server."""

    @property
    def taken(self) -> bool:
        """Whether the name is taken."""
        return self.id is not None


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
    def standing_query(guild_id: int, user_id: int, name: str) -> Query[Standing]:
        """The member's saved roll of this name (folded), if any, and how many saved
        rolls they keep in the server, as a query that always answers one row (its
        columns ``saved_id`` and ``saved_count``): what saving one decides on, and the
        row a replacement rewrites (:meth:`put`)."""

        def parse(row: Any) -> Standing:
            if row is None or row["saved_id"] is None:
                return Standing(None, 0 if row is None else int(row["saved_count"]))
            return Standing(int(row["saved_id"]), int(row["saved_count"]))

        return Query(
            "SELECT max(CASE WHEN name_key = ? THEN id END) AS saved_id,"
            " count(*) AS saved_count FROM saved_rolls WHERE guild_id = ? AND user_id = ?",
            (name_key(name), guild_id, user_id),
            parse,
        )

    def all(self, guild_id: int, user_id: int) -> list[SavedRoll]:
        """The member's saved rolls in the server, by name."""
        rows = self._all(
            "SELECT * FROM saved_rolls WHERE guild_id = ? AND user_id = ?"
            " ORDER BY name_key COLLATE BINARY, id",
            (guild_id, user_id),
        )
        return [_saved(row) for row in rows]

    def names(self, guild_id: int, user_id: int) -> list[str]:
        """The names of the member's saved rolls, by name, without reading the rolls."""
        rows = self._all(
            "SELECT name FROM saved_rolls WHERE guild_id = ? AND user_id = ?"
            " ORDER BY name_key COLLATE BINARY, id",
            (guild_id, user_id),
        )
        return [str(row["name"]) for row in rows]

    def put(
        self, guild_id: int, user_id: int, name: str, asked: Asked, label: str | None, *,
        replacing: int | None = None,
    ) -> SavedRoll:
        """Save the member's roll, new or ``replacing`` their saved roll of that id (the
        same folded name); the roll as saved, read back from nothing on PostgreSQL.

        The caller decided that it may (the name is free or that row's, the limit is not
        reached) from :meth:`standing_query` read in the same transaction, whose
        isolation keeps it so until COMMIT: the replacement is rewritten by its id, and a
        new roll stored under an id reserved ahead (PostgreSQL) goes with COMMIT.
        """
        cleaned = clean_name(name)
        stored = asked.model_dump_json()
        saved_id = replacing
        if saved_id is not None:
            self._do(
                "UPDATE saved_rolls SET name = ?, asked_json = ?, label = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (cleaned, stored, label, saved_id),
            )
        else:
            saved_id = self._reserved_id("saved_rolls")
            if saved_id is not None:
                self._do(
                    "INSERT INTO saved_rolls (id, guild_id, user_id, name, name_key,"
                    " asked_json, label) VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (saved_id, guild_id, user_id, cleaned, name_key(cleaned), stored, label),
                )
            else:
                saved_id = int(self._returning(
                    "INSERT INTO saved_rolls (guild_id, user_id, name, name_key, asked_json,"
                    " label) VALUES (?, ?, ?, ?, ?, ?) RETURNING id",
                    (guild_id, user_id, cleaned, name_key(cleaned), stored, label),
                )["id"])
        return _saved({"id": saved_id, "guild_id": guild_id, "user_id": user_id,
                       "name": cleaned, "asked_json": stored, "label": label})

    def delete(self, guild_id: int, user_id: int, name: str) -> SavedRoll | None:
        """Delete the member's saved roll by this name; the roll deleted, None if none."""
        row = self._one(
            "DELETE FROM saved_rolls WHERE guild_id = ? AND user_id = ? AND name_key = ?"
            " RETURNING *",
            (guild_id, user_id, name_key(name)),
        )
        return None if row is None else _saved(row)
