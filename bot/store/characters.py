"""Character sheets per server and owner, and each member's active character.

The sheet is the engine's model as JSON (:class:`engine.characters.Character`); the
store keeps it and guards it: every change names the version it read, and changes
nothing when the sheet moved meanwhile.
"""

from __future__ import annotations

import functools
import sqlite3
from collections.abc import Iterable
from functools import partial

from bot.store.repository import Query, Repository, Viewer
from engine.characters import Character, fold
from engine.records import CharacterName, CharacterRecord

#: The server-wide active character (a pin names its channel instead).
SERVER_WIDE = 0



#: Sheets parsed lately, by their stored JSON. A roll by trait name reads its sheet two or
#: three times (the gather, the Will in the write); parsing a 50-trait sheet costs about
#: half a millisecond, the lookup microseconds. Keyed by the text itself, so a sheet that
#: changed (or a change rolled back) can never be answered from here.
SHEETS_CACHED = 512


@functools.lru_cache(maxsize=SHEETS_CACHED)
def _sheet(text: str) -> Character:
    return Character.model_validate_json(text)


def _record(row: sqlite3.Row, prefix: str = "") -> CharacterRecord:
    """A sheet from its row (its columns named ``prefix`` + the column's name)."""
    return CharacterRecord(
        id=row[f"{prefix}id"], guild_id=row[f"{prefix}guild_id"],
        owner_id=row[f"{prefix}owner_id"], version=row[f"{prefix}version"],
        sheet=_sheet(row[f"{prefix}sheet_json"]),
    )


def record_of(row: sqlite3.Row, prefix: str) -> CharacterRecord | None:
    """The sheet in a row that joined one (None when the join found none)."""
    return None if row[f"{prefix}id"] is None else _record(row, prefix)


def _name(row: sqlite3.Row) -> CharacterName:
    return CharacterName(id=row["id"], owner_id=row["owner_id"], name=row["name"],
                         npc=bool(row["npc"]))


def _name_of(row: sqlite3.Row) -> CharacterName | None:
    """A name read by :meth:`CharacterRepository.names_query` (None: a row of NULLs)."""
    if row["cnm_id"] is None:
        return None
    return CharacterName(id=row["cnm_id"], owner_id=row["cnm_owner_id"], name=row["cnm_name"],
                         npc=bool(row["cnm_npc"]))


def by_name(names: Iterable[CharacterName]) -> list[CharacterName]:
    """Names in :meth:`CharacterRepository.names`' order: by their key, then oldest first."""
    return sorted(names, key=lambda name: (fold(name.name), name.id))


class CharacterRepository(Repository):
    """Sheets, names, and the active character per member (per server, or pinned)."""

    def active(
        self, guild_id: int, user_id: int, channel_id: int, parent_id: int | None = None
    ) -> CharacterRecord | None:
        """The member's character here: pinned to this channel, else to the thread's parent
        channel, else the one for the whole server; None when the member has none."""
        row = self._one(
            "SELECT c.id, c.guild_id, c.owner_id, c.version, c.sheet_json"
            " FROM active_characters a JOIN characters c"
            " ON c.id = a.character_id WHERE a.guild_id = ? AND a.user_id = ?"
            " AND a.channel_id IN (?, ?, 0) AND c.guild_id = a.guild_id"
            " ORDER BY a.channel_id = ? DESC, a.channel_id = 0 LIMIT 1",
            (guild_id, user_id, channel_id, parent_id or channel_id, channel_id),
        )
        return None if row is None else _record(row)

    def get(self, character_id: int) -> CharacterRecord | None:
        """A sheet by its id."""
        row = self._one("SELECT c.id, c.guild_id, c.owner_id, c.version, c.sheet_json"
            " FROM characters c WHERE c.id = ?", (character_id,))
        return None if row is None else _record(row)

    def named(self, guild_id: int, name: str, owner_id: int | None = None) -> list[CharacterRecord]:
        """Sheets of the server with this name (case, spaces, accents aside): the owner's,
        or every owner's when ``owner_id`` is None; oldest first."""
        return self._read_rows(self.named_query(guild_id, name, owner_id))

    @staticmethod
    def get_query(character_id: int) -> Query[CharacterRecord | None]:
        """:meth:`get` as a query, to read beside a one-row read (``Queries.both``), its
        columns named ``gch_…``; None for a row of NULLs (there is none)."""
        return Query(
            "SELECT c.id AS gch_id, c.guild_id AS gch_guild_id, c.owner_id AS gch_owner_id,"
            " c.version AS gch_version, c.sheet_json AS gch_sheet_json"
            " FROM characters c WHERE c.id = ?",
            (character_id,),
            partial(record_of, prefix="gch_"),
        )

    @staticmethod
    def named_query(
        guild_id: int, name: str, owner_id: int | None = None
    ) -> Query[CharacterRecord | None]:
        """:meth:`named` as a query, to read beside the settings (``Queries.beside_rows``),
        its columns named ``nch_…``; None for a row of NULLs (there is none). Oldest first
        when read alone; a join need not keep a subquery's order (its caller orders them
        by id)."""
        return Query(
            "SELECT c.id AS nch_id, c.guild_id AS nch_guild_id, c.owner_id AS nch_owner_id,"
            " c.version AS nch_version, c.sheet_json AS nch_sheet_json"
            " FROM characters c WHERE c.guild_id = ? AND c.name_key = ?"
            " AND (? IS NULL OR c.owner_id = ?) ORDER BY c.id",
            (guild_id, fold(name), owner_id, owner_id),
            partial(record_of, prefix="nch_"),
        )

    def names(self, guild_id: int, owner_id: int | None = None) -> list[CharacterName]:
        """Names of the owner's sheets in the server (every sheet when ``owner_id`` is None),
        by name (its key's code points, on either store: bot.store.dialect), without
        reading the sheets."""
        if owner_id is None:
            rows = self._all("SELECT id, owner_id, name, npc FROM characters WHERE guild_id = ?"
                             " ORDER BY name_key COLLATE BINARY, id", (guild_id,))
        else:
            rows = self._all("SELECT id, owner_id, name, npc FROM characters WHERE guild_id = ?"
                             " AND owner_id = ? ORDER BY name_key COLLATE BINARY, id",
                             (guild_id, owner_id))
        return [_name(row) for row in rows]

    @staticmethod
    def names_query(guild_id: int, owner_id: int) -> Query[CharacterName | None]:
        """:meth:`names` of one owner as a query, to read beside the settings
        (``Queries.beside_rows``), its columns named ``cnm_…``; None for a row of NULLs
        (the owner has none). A join need not keep a subquery's order: its caller sorts
        them (:func:`by_name`)."""
        return Query(
            "SELECT id AS cnm_id, owner_id AS cnm_owner_id, name AS cnm_name, npc AS cnm_npc"
            " FROM characters WHERE guild_id = ? AND owner_id = ?",
            (guild_id, owner_id),
            _name_of,
        )

    def names_seen(self, viewer: Viewer) -> list[CharacterName]:
        """:meth:`names` as a member's autocomplete offers them: their own sheets, a
        Storyteller's every sheet of the server, the statement deciding which
        (:class:`bot.store.repository.Viewer`), so it needs no settings read first."""
        rows = self._all(
            "SELECT id, owner_id, name, npc FROM characters WHERE guild_id = ?"
            " AND (owner_id = ? OR ? = 1"
            " OR ? LIKE '%,' || (SELECT CAST(storyteller_role_id AS TEXT) FROM guild_settings"
            " WHERE guild_id = ?) || ',%')"
            " ORDER BY name_key COLLATE BINARY, id",
            (viewer.guild_id, viewer.user_id, *viewer.params()),
        )
        return [_name(row) for row in rows]

    @staticmethod
    def count_query(guild_id: int, owner_id: int) -> Query[int]:
        """How many sheets the owner has in the server, as a query that always answers one
        row (its column ``sheets``), to read beside the settings (``Queries.both``)."""
        return Query(
            "SELECT count(*) AS sheets FROM characters WHERE guild_id = ? AND owner_id = ?",
            (guild_id, owner_id),
            lambda row: 0 if row is None else int(row["sheets"]),
        )

    def insert(self, guild_id: int, owner_id: int, sheet: Character) -> CharacterRecord | None:
        """Store a new sheet; None when the owner already has one by that name. With an
        id reserved ahead (PostgreSQL), nothing is read back: the server checks at COMMIT
        that the name was free, and the write runs again, reading, when it was not."""
        character_id = self._reserved_id("characters")
        if character_id is not None:
            if not self._changes_one(
                "INSERT INTO characters (id, guild_id, owner_id, name, name_key, npc,"
                " sheet_json) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                (character_id, guild_id, owner_id, sheet.name, fold(sheet.name), sheet.npc,
                 sheet.model_dump_json()),
            ):
                return None
            return CharacterRecord(id=character_id, guild_id=guild_id, owner_id=owner_id,
                                   version=1, sheet=sheet)
        row = self._one(
            "INSERT INTO characters (guild_id, owner_id, name, name_key, npc, sheet_json)"
            " VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING RETURNING id",
            (guild_id, owner_id, sheet.name, fold(sheet.name), sheet.npc,
             sheet.model_dump_json()),
        )
        if row is None:
            return None
        return CharacterRecord(id=row["id"], guild_id=guild_id, owner_id=owner_id, version=1,
                               sheet=sheet)

    def save(self, record: CharacterRecord, sheet: Character) -> CharacterRecord | None:
        """Store the sheet the engine decided over ``record`` if it is still that version;
        None when it moved meanwhile, or when the owner has another sheet of the new name."""
        try:
            changed = self._changes_one(
                "UPDATE characters SET name = ?, name_key = ?, npc = ?, sheet_json = ?,"
                " version = version + 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE id = ? AND version = ?",
                (sheet.name, fold(sheet.name), sheet.npc, sheet.model_dump_json(),
                 record.id, record.version),
            )
        except sqlite3.IntegrityError:  # the UNIQUE name of another of the owner's sheets
            return None
        if not changed:
            return None
        return record.model_copy(update={"sheet": sheet, "version": record.version + 1})

    def delete(self, character_id: int, version: int) -> bool:
        """Delete a sheet (its active marks go with it) if it is still that version."""
        return self._changes_one("DELETE FROM characters WHERE id = ? AND version = ?",
                                 (character_id, version))

    def use(self, guild_id: int, user_id: int, character_id: int,
            channel_id: int = SERVER_WIDE) -> None:
        """Make the sheet the member's active character in the server (or pinned here)."""
        self._do(
            "INSERT INTO active_characters (guild_id, user_id, channel_id, character_id)"
            " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id, user_id, channel_id)"
            " DO UPDATE SET character_id = excluded.character_id",
            (guild_id, user_id, channel_id, character_id),
        )

    def repin(self, guild_id: int, user_id: int, character_id: int, channel_id: int,
              parent_id: int | None = None) -> None:
        """Where a pin applies in this channel (its own, or its parent's seen from a
        thread), pin the sheet here instead, so that a sheet made active in the server
        from this channel is active here too; elsewhere nothing changes."""
        self._do(
            "INSERT INTO active_characters (guild_id, user_id, channel_id, character_id)"
            " SELECT CAST(? AS BIGINT), CAST(? AS BIGINT), CAST(? AS BIGINT),"
            " CAST(? AS BIGINT) WHERE EXISTS (SELECT 1 FROM active_characters"
            " WHERE guild_id = ? AND user_id = ? AND channel_id IN (?, ?))"
            " ON CONFLICT (guild_id, user_id, channel_id)"
            " DO UPDATE SET character_id = excluded.character_id",
            (guild_id, user_id, channel_id, character_id,
             guild_id, user_id, channel_id, parent_id or channel_id),
        )
