"""Generic actions (extended actions, teamwork, contests) with engine-owned state.

The store does not read the state: it keeps it as JSON and guards every
change with the version the caller read, so two presses that both read
version 3 cannot both write version 4.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from functools import partial
from typing import Any, Final, Literal, overload

from pydantic import BaseModel

from bot.store.repository import Query, Repository, stamp
from engine.records import ActionKind, ActionRecord, ActionStatus, label_key


def _action(row: sqlite3.Row | dict[str, Any]) -> ActionRecord:
    return ActionRecord(
        id=row["id"],
        kind=row["kind"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        owner_id=row["owner_id"],
        label=row["label"],
        status=row["status"],
        state_json=row["state_json"],
        version=row["version"],
        message_id=row["message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


#: The columns an action is built from (:func:`_action`), named ``act_…`` when read beside
#: a roll's, which has most of the same names (ActionRepository.get_query).
_COLUMNS: Final = ("id", "kind", "guild_id", "channel_id", "owner_id", "label", "status",
                   "state_json", "version", "message_id", "created_at", "updated_at")


def parse_prefixed(prefix: str, row: Any) -> ActionRecord | None:
    """An action from its columns named ``prefix…``; None for a row of NULLs (none)."""
    if row is None or row[f"{prefix}id"] is None:
        return None
    return _action({name: row[f"{prefix}{name}"] for name in _COLUMNS})


_parse_act = partial(parse_prefixed, "act_")


class ActionRepository(Repository):
    """Open and closed actions of a channel."""

    @overload
    def create(self, kind: ActionKind, *, guild_id: int, channel_id: int, owner_id: int,
               label: str, state: BaseModel, unless_open: Literal[False] = False
               ) -> ActionRecord: ...

    @overload
    def create(self, kind: ActionKind, *, guild_id: int, channel_id: int, owner_id: int,
               label: str, state: BaseModel, unless_open: Literal[True]
               ) -> ActionRecord | None: ...

    def create(
        self,
        kind: ActionKind,
        *,
        guild_id: int,
        channel_id: int,
        owner_id: int,
        label: str,
        state: BaseModel,
        unless_open: bool = False,
    ) -> ActionRecord | None:
        """Store a new open action at version 1 (with an id reserved ahead on PostgreSQL,
        ``Queries.reserve``, nothing is read back).

        With ``unless_open``, only if no open action of this kind and label is in the
        channel: None (nothing stored) when one is; the check and the insert are one
        statement. Without it nothing stops two open actions with one label: a caller
        that wants labels unique checks :meth:`find_open` first, in the same transaction.
        """
        key = label_key(label)
        values = (kind.value, guild_id, channel_id, owner_id, label, key, state.model_dump_json())
        action_id = None if unless_open else self._reserved_id("actions")
        if action_id is not None:  # nothing to read back: sent with the transaction's COMMIT
            text, _ = stamp()
            self._do(
                "INSERT INTO actions (id, kind, guild_id, channel_id, owner_id, label,"
                " label_key, state_json, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (action_id, *values, text, text),
            )
            return _action({
                "id": action_id, "kind": kind.value, "guild_id": guild_id,
                "channel_id": channel_id, "owner_id": owner_id, "label": label,
                "status": ActionStatus.OPEN.value, "state_json": values[-1], "version": 1,
                "message_id": None, "created_at": text, "updated_at": text,
            })
        if not unless_open:
            return _action(self._returning(
                "INSERT INTO actions (kind, guild_id, channel_id, owner_id, label, label_key,"
                " state_json) VALUES (?, ?, ?, ?, ?, ?, ?) RETURNING *",
                values,
            ))
        self._from_sequence("actions")  # its INSERT ... SELECT names no id
        row = self._one(
            "INSERT INTO actions (kind, guild_id, channel_id, owner_id, label, label_key,"
            " state_json) SELECT ?, ?, ?, ?, ?, ?, ? WHERE NOT EXISTS (SELECT 1 FROM actions"
            " WHERE guild_id = ? AND channel_id = ? AND kind = ? AND label_key = ?"
            " AND status = 'open') RETURNING *",
            (*values, guild_id, channel_id, kind.value, key),
        )
        return None if row is None else _action(row)

    def get(self, action_id: int) -> ActionRecord | None:
        """An action by id, open or closed."""
        row = self._one("SELECT * FROM actions WHERE id = ?", (action_id,))
        return None if row is None else _action(row)

    def still(self, record: ActionRecord) -> bool:
        """Inside a write: whether the action is still as the flow read it (its version,
        status and card), so the flow may act on what it read. On PostgreSQL the server
        checks it with the write's COMMIT (Repository._expected: no round trip)."""
        expected = {"id": record.id, "version": record.version, "status": record.status.value,
                    "message_id": record.message_id}
        row = self._expected(
            "SELECT id, version, status, message_id FROM actions WHERE id = ?",
            (record.id,), expected,
        )
        return row is not None and {name: row[name] for name in expected} == expected

    @staticmethod
    def get_query(action_id: int) -> Query[ActionRecord | None]:
        """:meth:`get` as a query, to read beside others (bot.store.repository.Queries),
        its columns named ``act_…``; None for a row of NULLs (there is none)."""

        return Query(
            "SELECT id AS act_id, kind AS act_kind, guild_id AS act_guild_id,"
            " channel_id AS act_channel_id, owner_id AS act_owner_id, label AS act_label,"
            " status AS act_status, state_json AS act_state_json, version AS act_version,"
            " message_id AS act_message_id, created_at AS act_created_at,"
            " updated_at AS act_updated_at FROM actions WHERE id = ?",
            (action_id,),
            _parse_act,
        )

    def find_open(
        self,
        guild_id: int,
        channel_id: int,
        *,
        kind: ActionKind | None = None,
        label: str | None = None,
        owner_id: int | None = None,
    ) -> list[ActionRecord]:
        """The channel's open actions, oldest first, optionally of one kind, with one
        label (matched as :func:`label_key` does) or of one owner."""
        return self._read_rows(self.find_open_query(guild_id, channel_id, kind=kind,
                                                    label=label, owner_id=owner_id))

    def find_open_as_read(
        self, guild_id: int, channel_id: int, *, kind: ActionKind, label: str,
        as_read: Sequence[ActionRecord],
    ) -> list[ActionRecord]:
        """:meth:`find_open` of one kind and label, given the open actions as the flow
        read them ahead (:meth:`find_open_query`, in an earlier transaction): on
        PostgreSQL answered with those on trust, the server checking with the
        transaction's COMMIT that the open ones are still those, at the same versions (a
        miss runs the transaction again, where they are read: PgConnection.expects_rows);
        otherwise read."""
        query = self.find_open_query(guild_id, channel_id, kind=kind, label=label)
        expects = getattr(self._conn, "expects_rows", None)  # not sqlite3.Connection's
        expected = [{"act_id": record.id, "act_version": record.version}
                    for record in as_read]
        if expects is not None and expects(query.sql, query.params, expected):
            return list(as_read)
        return self._read_rows(query)

    @staticmethod
    def find_open_query(
        guild_id: int,
        channel_id: int,
        *,
        kind: ActionKind | None = None,
        label: str | None = None,
        owner_id: int | None = None,
    ) -> Query[ActionRecord | None]:
        """:meth:`find_open` as a query, to read beside others (``Queries.beside_rows``),
        its columns named ``act_…``; None for a row of NULLs (there is none). Oldest first
        when read alone; a join need not keep a subquery's order (its caller orders them
        by id)."""
        kind_value = None if kind is None else kind.value
        key = None if label is None else label_key(label)
        return Query(
            "SELECT id AS act_id, kind AS act_kind, guild_id AS act_guild_id,"
            " channel_id AS act_channel_id, owner_id AS act_owner_id, label AS act_label,"
            " status AS act_status, state_json AS act_state_json, version AS act_version,"
            " message_id AS act_message_id, created_at AS act_created_at,"
            " updated_at AS act_updated_at"
            " FROM actions WHERE guild_id = ? AND channel_id = ? AND status = 'open'"
            " AND (? IS NULL OR kind = ?)"
            " AND (? IS NULL OR label_key = ?)"
            " AND (? IS NULL OR owner_id = ?) ORDER BY id",
            (guild_id, channel_id, kind_value, kind_value, key, key, owner_id, owner_id),
            _parse_act,
        )

    @staticmethod
    def last_closed_query(
        guild_id: int, channel_id: int, *, kind: ActionKind, label: str
    ) -> Query[ActionRecord | None]:
        """The channel's most recently ended action of this kind and label, if any (a
        fresh attempt at a task inherits what the last one left, e.g. a −2), as a query to
        read beside others (``Queries.with_rows``; alone, ``Queries.one``): its columns are
        named ``last_…`` (apart from :meth:`find_open_query`'s)."""
        return Query(
            "SELECT id AS last_id, kind AS last_kind, guild_id AS last_guild_id,"
            " channel_id AS last_channel_id, owner_id AS last_owner_id, label AS last_label,"
            " status AS last_status, state_json AS last_state_json, version AS last_version,"
            " message_id AS last_message_id, created_at AS last_created_at,"
            " updated_at AS last_updated_at"
            " FROM actions WHERE guild_id = ? AND channel_id = ? AND kind = ?"
            " AND label_key = ? AND status = 'closed' ORDER BY id DESC LIMIT 1",
            (guild_id, channel_id, kind.value, label_key(label)),
            partial(parse_prefixed, "last_"),
        )

    def update(
        self,
        action_id: int,
        version: int,
        state: BaseModel,
        status: ActionStatus = ActionStatus.OPEN,
        *,
        was: ActionStatus = ActionStatus.OPEN,
    ) -> int | None:
        """Replace the state of an action with status ``was`` (open) if it is still at
        ``version``.

        Answers the action's new version; None (and nothing changed) when
        someone changed it since it was read, or its status is not ``was`` or it is gone.
        ``status=CLOSED`` ends it: a closed action changes again only where its engine
        says so (``was=CLOSED``: a teamwork's primary roll, read again after Will or a
        Beat, is the teamwork's result).
        """
        changed = self._changes_one(
            "UPDATE actions SET state_json = ?, status = ?, version = version + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND version = ? AND status = ?",
            (state.model_dump_json(), status.value, action_id, version, was.value),
        )
        return version + 1 if changed else None

    def attach_message(self, action_id: int, message_id: int) -> None:
        """Remember the card that shows the action, so later changes can edit it."""
        self._do(
            "UPDATE actions SET message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (message_id, action_id),
        )

    def replace_message(self, action_id: int, gone: int | None, message_id: int) -> bool:
        """Remember a card posted again in place of the deleted ``gone`` (None: a card whose
        message was never remembered), if the action is still open and still shown by
        ``gone``; False (nothing changed) when another card took its place first or the
        action ended."""
        if gone is None:
            return self._changes_one(
                "UPDATE actions SET message_id = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE id = ? AND message_id IS NULL AND status = 'open'",
                (message_id, action_id),
            )
        return self._changes_one(
            "UPDATE actions SET message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND message_id = ? AND status = 'open'",
            (message_id, action_id, gone),
        )
