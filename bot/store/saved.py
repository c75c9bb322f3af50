"""Saved rolls: a member's named requests per server, as asked (engine.saved.Asked JSON).

Names match folded (case, spaces, accents aside); one name per member per server,
which the table's UNIQUE constraint guards too. The limit of saved rolls is the
flow's rule, checked in the same write that saves.
"""

from __future__ import annotations

import sqlite3

from bot.store.repository import Repository
from engine.saved import Asked, SavedRoll, clean_name, name_key


def _saved(row: sqlite3.Row) -> SavedRoll:
    return SavedRoll(
        id=row["id"], guild_id=row["guild_id"], user_id=row["user_id"], name=row["name"],
        asked=Asked.model_validate_json(row["asked_json"]), label=row["label"],
    )


class SavedRollRepository(Repository):
    """Each member's saved rolls in a server."""

    def get(self, guild_id: int, user_id: int, name: str) -> SavedRoll | None:
        """The member's saved roll by this name (folded), if any."""
        row = self._one(
            "SELECT * FROM saved_rolls WHERE guild_id = ? AND user_id = ? AND name_key = ?",
            (guild_id, user_id, name_key(name)),
        )
        return None if row is None else _saved(row)

    def count(self, guild_id: int, user_id: int) -> int:
        """How many saved rolls the member keeps in the server."""
        row = self._one(
            "SELECT COUNT(*) AS n FROM saved_rolls WHERE guild_id = ? AND user_id = ?",
            (guild_id, user_id),
        )
        return 0 if row is None else int(row["n"])

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
