"""Initiative trackers: one open per channel, its state the engine's, every change guarded
by the version read (two presses of Next at once cannot both advance the turn)."""

from __future__ import annotations

import sqlite3
from typing import Any, TypeVar

from pydantic import BaseModel

from bot.store.repository import Query, Repository
from engine.records import ActionStatus, TrackerRecord

T = TypeVar("T")


def _found(row: Any) -> TrackerRecord | None:
    """A tracker from a row read beside another (Repository._both), None when it had none."""
    return None if row is None or row["id"] is None else _tracker(row)


def _tracker(row: sqlite3.Row) -> TrackerRecord:
    return TrackerRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        status=row["status"],
        state_json=row["state_json"],
        version=row["version"],
        message_id=row["message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
    )


class InitiativeRepository(Repository):
    """The channels' initiative trackers."""

    def create(self, guild_id: int, channel_id: int, state: BaseModel) -> TrackerRecord | None:
        """Store a new open tracker at version 1; None (nothing stored) when the channel
        already has an open one."""
        row = self._one(
            "INSERT INTO initiative (guild_id, channel_id, state_json) VALUES (?, ?, ?)"
            " ON CONFLICT DO NOTHING RETURNING *",
            (guild_id, channel_id, state.model_dump_json()),
        )
        return None if row is None else _tracker(row)

    def get(self, tracker_id: int) -> TrackerRecord | None:
        """A tracker by id, open or closed."""
        row = self._one("SELECT * FROM initiative WHERE id = ?", (tracker_id,))
        return None if row is None else _tracker(row)

    def beside(self, first: Query[T], tracker_id: int) -> tuple[T, TrackerRecord | None]:
        """``first`` (a one-row read such as the settings) and :meth:`get`, in one
        statement."""
        return self._both(first, Query(
            "SELECT * FROM initiative WHERE id = ?", (tracker_id,), _found))

    def beside_open(
        self, first: Query[T], guild_id: int, channel_id: int
    ) -> tuple[T, TrackerRecord | None]:
        """``first`` and :meth:`open_in`, in one statement."""
        return self._both(first, self.open_query(guild_id, channel_id))

    @staticmethod
    def open_query(guild_id: int, channel_id: int) -> Query[TrackerRecord | None]:
        """:meth:`open_in` as a query, to read beside others (``Queries``)."""
        return Query(
            "SELECT * FROM initiative WHERE guild_id = ? AND channel_id = ? AND status = 'open'",
            (guild_id, channel_id), _found)

    def open_in(self, guild_id: int, channel_id: int) -> TrackerRecord | None:
        """The channel's open tracker, if any."""
        row = self._one(
            "SELECT * FROM initiative WHERE guild_id = ? AND channel_id = ? AND status = 'open'",
            (guild_id, channel_id),
        )
        return None if row is None else _tracker(row)

    def update(
        self,
        tracker_id: int,
        version: int,
        state: BaseModel,
        status: ActionStatus = ActionStatus.OPEN,
    ) -> int | None:
        """Replace the state of an open tracker if it is still at ``version``: its new
        version, or None (nothing changed) when it moved since it was read, or is closed."""
        changed = self._changes_one(
            "UPDATE initiative SET state_json = ?, status = ?, version = version + 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND version = ? AND status = 'open'",
            (state.model_dump_json(), status.value, tracker_id, version),
        )
        return version + 1 if changed else None

    def attach_message(self, tracker_id: int, message_id: int) -> None:
        """Remember the card that shows the tracker, so later changes can edit it."""
        self._do(
            "UPDATE initiative SET message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (message_id, tracker_id),
        )

    def replace_message(self, tracker_id: int, gone: int | None, message_id: int) -> bool:
        """Remember a card posted again in place of the deleted ``gone`` (None: a card whose
        message was never remembered), if the tracker is still open and still shown by
        ``gone``; False (nothing changed) when another card took its place first or the
        fight ended."""
        if gone is None:
            return self._changes_one(
                "UPDATE initiative SET message_id = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE id = ? AND message_id IS NULL AND status = 'open'",
                (message_id, tracker_id),
            )
        return self._changes_one(
            "UPDATE initiative SET message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND message_id = ? AND status = 'open'",
            (message_id, tracker_id, gone),
        )
