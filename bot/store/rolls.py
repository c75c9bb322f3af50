"""Rolls: what was rolled, its current reading, and the state of its buttons.

Every button acts through one conditional UPDATE whose WHERE clause is the
whole rule for "may this press take effect"; only when it changes nothing is
the roll read again, to say why. So a second press, a stale button or a
concurrent press of the same button changes nothing, whatever the timing.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Final, NamedTuple, NotRequired, TypedDict, TypeVar, Unpack

from bot.store.actions import parse_prefixed
from bot.store.characters import record_of
from bot.store.repository import Connection, Query, Repository, Viewer, stamp
from bot.store.stats import StatsRepository
from engine.models import Outcome, RollRequest, RollResult, WillUse
from engine.records import (
    ActionKind,
    ActionRecord,
    CharacterRecord,
    Progress,
    RollRecord,
    Voided,
    WillPool,
    WillState,
    label_key,
)
from engine.saved import Asked
from engine.table.extended import ExtendedAction

T = TypeVar("T")

#: The most rolls one history page may ask for.
MAX_HISTORY = 100

#: A new roll; its parameters: :func:`_insert_params`.
_INSERT = (
    "INSERT INTO rolls (guild_id, channel_id, roller_id, roller_name, label, private,"
    " request_json, result_json, will_state, action_id, character_id, character_name,"
    " asked_json, closed)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) RETURNING id, created_at, updated_at"
)
#: Closing a channel's open rolls (of one roller, unless the third parameter is NULL).
_CLOSE = (
    "UPDATE rolls SET closed = 1, updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
    " WHERE guild_id = ? AND channel_id = ? AND closed = 0"
    " AND (? IS NULL OR roller_id = ?)"
)
_CLOSE_RETURNING = _CLOSE + " RETURNING *"
#: Both in one statement (PostgreSQL's dialect: SQLite runs no UPDATE inside a WITH).
_CLOSE_AND_INSERT = (
    "WITH closed AS (" + _CLOSE_RETURNING + "), added AS (" + _INSERT + ")"  # noqa: S608
    " SELECT added.id AS added_id, added.created_at AS added_created_at,"
    " added.updated_at AS added_updated_at, closed.*"
    " FROM added LEFT JOIN closed ON TRUE"
)


#: A new roll with its id and time stamps given (a roll stored without a round trip of its
#: own: :meth:`RollRepository.close_and_insert`); its parameters: the id,
#: :func:`_insert_params`, then the time stamp twice.
_INSERT_AS = (
    "INSERT INTO rolls (id, guild_id, channel_id, roller_id, roller_name, label, private,"
    " request_json, result_json, will_state, action_id, character_id, character_name,"
    " asked_json, closed, created_at, updated_at)"
    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
)
#: A roller's open rolls closed at a given time stamp (the rolls as read before).
_CLOSE_AS = (
    "UPDATE rolls SET closed = 1, updated_at = ?"
    " WHERE guild_id = ? AND channel_id = ? AND closed = 0 AND roller_id = ?"
)
#: Every open roll of a channel closed at a given time stamp (the rolls as read before).
_CLOSE_ALL_AS = (
    "UPDATE rolls SET closed = 1, updated_at = ?"
    " WHERE guild_id = ? AND channel_id = ? AND closed = 0"
)
#: What tells one state of an open roll from another: any write to a roll changes one of
#: them (its time stamp alone is to the millisecond).
_VERSION: Final = ("id", "updated_at", "result_json", "will_state", "beat", "retried", "void",
                   "message_id", "copy_message_id")


#: What tells one state of a roll to void from another (its first reading is kept once).
_TO_VOID_VERSION: Final = (*_VERSION, "first_roll_id", "first_outcome")


@dataclass(frozen=True, slots=True)
class OpenRoll:
    """A roller's open roll as read ahead of their next roll (:meth:`RollRepository.
    open_query`): its row, and the columns that tell its state (checked when the next
    roll closes it)."""

    row: Any
    version: dict[str, Any]

    @property
    def record(self) -> RollRecord:
        """The roll, parsed when asked: only PostgreSQL's write that trusts the read asks
        (SQLite's reads the rolls again as it closes them)."""
        return _roll(self.row)


class NewRoll(TypedDict):
    """What a new roll is stored with (:meth:`RollRepository.insert`)."""

    guild_id: int
    channel_id: int
    roller_id: int
    roller_name: NotRequired[str]
    result: RollResult
    will_state: WillState
    label: NotRequired[str | None]
    private: NotRequired[bool]
    action_id: NotRequired[int | None]
    character_id: NotRequired[int | None]
    character_name: NotRequired[str | None]
    asked: NotRequired[Asked | None]
    closed: NotRequired[bool]
    """Stored closed: its card offers no buttons (/multi); else open until its roller's
    next roll closes it."""


def _insert_params(fields: NewRoll) -> tuple[object, ...]:
    result, asked = fields["result"], fields.get("asked")
    return (
        fields["guild_id"],
        fields["channel_id"],
        fields["roller_id"],
        fields.get("roller_name", ""),
        fields.get("label"),
        fields.get("private", False),
        result.request.model_dump_json(),
        result.model_dump_json(),
        fields["will_state"].value,
        fields.get("action_id"),
        fields.get("character_id"),
        fields.get("character_name"),
        None if asked is None else asked.model_dump_json(),
        fields.get("closed", False),
    )


def _listed(row: sqlite3.Row) -> RollRecord:
    """A roll as /history lists it: with its action's kind and, on an extended action's
    last roll, the progress the action stands at (``action_state``, the action's JSON)."""
    record = _roll(row)
    if row["action_kind"] != ActionKind.EXTENDED or row["action_state"] is None:
        return record
    action = ExtendedAction.model_validate_json(row["action_state"])
    if action.last_roll_id != record.id:
        return record
    progress = Progress(done=action.state.total, required=action.state.required)
    return record.model_copy(update={"action_progress": progress})


def _roll(row: sqlite3.Row) -> RollRecord:
    return RollRecord(
        id=row["id"],
        guild_id=row["guild_id"],
        channel_id=row["channel_id"],
        roller_id=row["roller_id"],
        roller_name=row["roller_name"],
        label=row["label"],
        private=row["private"],
        request=RollRequest.model_validate_json(row["request_json"]),
        result=RollResult.model_validate_json(row["result_json"]),
        will_state=row["will_state"],
        beat=row["beat"],
        retried=row["retried"],
        closed=row["closed"],
        void=row["void"],
        voided_by=row["voided_by"],
        action_id=row["action_id"],
        action_kind=row["action_kind"] if "action_kind" in row.keys() else None,  # noqa: SIM118
        message_id=row["message_id"],
        copy_channel_id=row["copy_channel_id"],
        copy_message_id=row["copy_message_id"],
        created_at=row["created_at"],
        updated_at=row["updated_at"],
        character_id=row["character_id"],
        character_name=row["character_name"],
        asked=_asked(row),
    )


def _open_roll(row: Any) -> OpenRoll | None:
    """An open roll read ahead (RollRepository.open_query), None for a row of NULLs."""
    if row is None or row["id"] is None:
        return None
    return OpenRoll(row, {name: row[name] for name in _VERSION})


def pressed_and_open(
    rows: Sequence[OpenRoll], roll_id: int, guild_id: int, channel_id: int, roller_id: int
) -> tuple[RollRecord | None, tuple[OpenRoll, ...]]:
    """The rows of :meth:`RollRepository.with_open_query` told apart: the roll pressed
    (None when there is none), and the roller's open rolls in the channel, as
    :meth:`RollRepository.open_query` reads them (the roll pressed among them when it is
    one)."""
    pressed: RollRecord | None = None
    still: list[OpenRoll] = []
    for roll in rows:
        record = roll.record
        if record.id == roll_id:
            pressed = record
        if (not record.closed and record.roller_id == roller_id
                and (record.guild_id, record.channel_id) == (guild_id, channel_id)):
            still.append(roll)
    return pressed, tuple(still)


def _asked(row: sqlite3.Row) -> Asked | None:
    """The roll as asked, when the row has it (queries that name their columns may not)."""
    text = row["asked_json"] if "asked_json" in row.keys() else None  # noqa: SIM118
    return None if text is None else Asked.model_validate_json(text)


class Pressed(NamedTuple):
    """A pressed roll and what its roller stands on, read in one statement."""

    roll: RollRecord | None
    pool: WillPool | None
    """The roller's Will pool (the character's, for a character's roll); None: untracked."""
    beats: int
    """The roller's Beats (the character's, for a character's roll)."""
    character: CharacterRecord | None
    """The sheet the roll was made with, if any (None too when it was deleted since)."""
    action: ActionRecord | None
    """The action the roll was made in (extended, teamwork), if any."""

    @property
    def sheet_gone(self) -> bool:
        """The roll was made with a character whose sheet is no longer there (deleted):
        neither Will nor a Beat has a sheet to act on."""
        return (self.roll is not None and self.roll.character_id is not None
                and self.character is None)


class RollRepository(Repository):
    """Rolls and their buttons: Spend Will, Take a Beat, Try again; closing; history; void."""

    def __init__(self, conn: Connection, stats: StatsRepository) -> None:
        super().__init__(conn)
        self._stats = stats

    def insert(self, **fields: Unpack[NewRoll]) -> RollRecord:
        """Store a new roll; the stored roll (its id is the key its buttons carry).

        The request stored is ``result.request``, kept as first rolled. This does not
        close the roller's earlier rolls: :meth:`close_and_insert` does both.
        """
        roll_id = self._reserved_id("rolls")
        if roll_id is not None:  # nothing to read back: sent with the transaction's COMMIT
            text, _ = stamp()
            self._do(_INSERT_AS, (roll_id, *_insert_params(fields), text, text))
            return self._inserted(fields, roll_id, text, text)
        row = self._returning(_INSERT, _insert_params(fields))
        return self._inserted(fields, row["id"], row["created_at"], row["updated_at"])

    def close_and_insert(
        self, *, open_as_read: Sequence[OpenRoll] | None = None, **fields: Unpack[NewRoll]
    ) -> tuple[RollRecord, list[RollRecord]]:
        """Close the roller's open rolls in the channel (:meth:`close`) and store the new
        one (:meth:`insert`): the new roll, and the rolls just closed (oldest first, so
        that their messages can be updated).

        ``open_as_read``: the roller's open rolls as the flow read them ahead
        (:meth:`open_query`). On PostgreSQL, with an id reserved for the next roll
        (PgConnection.reserved_id), nothing is then read back: the server checks that the
        open rolls are still as read, and closes them and stores the new roll with the
        rest of the transaction, at its COMMIT. Otherwise one statement (a WITH of both:
        the UPDATE sees the snapshot before the INSERT, so the new roll stays open); on
        SQLite the two."""
        closing = (fields["guild_id"], fields["channel_id"], fields["roller_id"])
        roll_id = self._reserved_id("rolls")
        if roll_id is not None:
            text, now = stamp()
            closed = self._close_as_read(closing, open_as_read, text, now)
            self._do(_INSERT_AS, (roll_id, *_insert_params(fields), text, text))
            return self._inserted(fields, roll_id, text, text), closed
        if isinstance(self._conn, sqlite3.Connection):
            closed = self.close(*closing)
            return self.insert(**fields), closed
        rows = self._all(_CLOSE_AND_INSERT, (*closing, closing[2], *_insert_params(fields)))
        first = rows[0]
        record = self._inserted(
            fields, first["added_id"], first["added_created_at"], first["added_updated_at"]
        )
        closed = [_roll(row) for row in rows if row["id"] is not None]
        return record, sorted(closed, key=lambda roll: roll.id)

    def close_as_read(
        self, guild_id: int, channel_id: int, roller_id: int | None, *,
        open_as_read: Sequence[OpenRoll] | None,
    ) -> list[RollRecord]:
        """:meth:`close` (for one roller, or the whole channel when ``roller_id`` is
        None), given the open rolls as the flow read them ahead (:meth:`open_query`,
        :meth:`channel_open_query`; None: not read): on PostgreSQL the server checks, with
        the transaction's COMMIT, that they are still those, and closes them then, nothing
        read back; otherwise (SQLite, a re-run) they are read as they close. The rolls
        closed, oldest first."""
        return self._close_as_read((guild_id, channel_id, roller_id), open_as_read, *stamp())

    def _close_as_read(
        self, closing: tuple[int, int, int | None], open_as_read: Sequence[OpenRoll] | None,
        text: str, now: datetime,
    ) -> list[RollRecord]:
        """:meth:`close_as_read` at the time stamp ``text`` (``now``, as a record holds it)."""
        if open_as_read is not None and self._still_open(closing, open_as_read):
            guild_id, channel_id, roller_id = closing
            if roller_id is None:
                self._do(_CLOSE_ALL_AS, (text, guild_id, channel_id))
            else:
                self._do(_CLOSE_AS, (text, guild_id, channel_id, roller_id))
            closed = [roll.record.model_copy(update={"closed": True, "updated_at": now})
                      for roll in open_as_read]
            return sorted(closed, key=lambda roll: roll.id)
        return self.close(*closing)  # they are read as they close: a round trip

    def _still_open(
        self, closing: tuple[int, int, int | None], open_as_read: Sequence[OpenRoll]
    ) -> bool:
        """Whether the server will check, with the transaction's COMMIT, that the
        open rolls are still those read (PgConnection.expects_rows)."""
        expects = getattr(self._conn, "expects_rows", None)
        guild_id, channel_id, roller_id = closing
        query = (self.channel_open_query(guild_id, channel_id) if roller_id is None
                 else self.open_query(guild_id, channel_id, roller_id))
        return expects is not None and bool(
            expects(query.sql, query.params, [roll.version for roll in open_as_read])
        )

    @staticmethod
    def open_of_owner_query(
        guild_id: int, channel_id: int, action_id: int
    ) -> Query[OpenRoll | None]:
        """:meth:`open_query` for the owner of an action (an extended action's rolls are
        its owner's), to read with the action itself."""
        return Query(
            "SELECT rolls.* FROM rolls JOIN actions ON actions.id = ?"
            " AND rolls.roller_id = actions.owner_id"
            " WHERE rolls.guild_id = ? AND rolls.channel_id = ? AND rolls.closed = 0",
            (action_id, guild_id, channel_id),
            _open_roll,
        )

    @staticmethod
    def open_query(guild_id: int, channel_id: int, roller_id: int) -> Query[OpenRoll | None]:
        """A roller's open rolls in a channel (what their next roll closes), to read
        ahead with others (Queries.with_rows); None for a row of NULLs (there is none)."""
        return Query(
            "SELECT * FROM rolls"
            " WHERE guild_id = ? AND channel_id = ? AND closed = 0 AND roller_id = ?",
            (guild_id, channel_id, roller_id),
            _open_roll,
        )

    @staticmethod
    def with_open_query(
        roll_id: int, guild_id: int, channel_id: int, roller_id: int
    ) -> Query[OpenRoll | None]:
        """A roll by id and the roller's open rolls in a channel (:meth:`open_query`'s),
        as one read of rows, to read ahead beside the settings (Queries.with_rows): what
        Roll again reads of the roll pressed and of what the new roll closes;
        :func:`pressed_and_open` tells them apart. None for a row of NULLs."""
        return Query(
            "SELECT * FROM rolls WHERE id = ?"
            " OR (guild_id = ? AND channel_id = ? AND closed = 0 AND roller_id = ?)",
            (roll_id, guild_id, channel_id, roller_id),
            _open_roll,
        )

    @staticmethod
    def channel_open_query(guild_id: int, channel_id: int) -> Query[OpenRoll | None]:
        """:meth:`open_query` for every roller of the channel (what /scene end and /turn
        next close), to read ahead beside the settings (Queries.beside_rows)."""
        return Query(
            "SELECT * FROM rolls WHERE guild_id = ? AND channel_id = ? AND closed = 0",
            (guild_id, channel_id),
            _open_roll,
        )

    def _inserted(
        self, fields: NewRoll, roll_id: int, created_at: str, updated_at: str
    ) -> RollRecord:
        """The roll just stored, built from what the caller gave (not parsed back from the
        JSON just written) and its row's id and time stamps; counted in the statistics."""
        result = fields["result"]
        record = RollRecord(
            id=roll_id, guild_id=fields["guild_id"], channel_id=fields["channel_id"],
            roller_id=fields["roller_id"], roller_name=fields.get("roller_name", ""),
            label=fields.get("label"), private=fields.get("private", False),
            request=result.request, result=result, will_state=fields["will_state"],
            beat=False, retried=False, closed=fields.get("closed", False), void=False,
            voided_by=None,
            action_id=fields.get("action_id"), message_id=None, copy_channel_id=None,
            copy_message_id=None, created_at=created_at, updated_at=updated_at,
            character_id=fields.get("character_id"),
            character_name=fields.get("character_name"), asked=fields.get("asked"),
        )
        self._stats.counted(record)
        return record

    def attach_messages(
        self,
        roll_id: int,
        message_id: int | None,
        *,
        copy_channel_id: int | None = None,
        copy_message_id: int | None = None,
    ) -> None:
        """Remember the roll's message (and the Storyteller's copy of a secret roll)
        once they are sent, so later changes can edit them."""
        self._do(
            "UPDATE rolls SET message_id = ?, copy_channel_id = ?, copy_message_id = ?,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
            (message_id, copy_channel_id, copy_message_id, roll_id),
        )

    def get(self, roll_id: int) -> RollRecord | None:
        """A roll by id, with its current result parsed."""
        row = self._one("SELECT * FROM rolls WHERE id = ?", (roll_id,))
        return None if row is None else _roll(row)

    def beside(self, first: Query[T], roll_id: int) -> tuple[T, RollRecord | None]:
        """``first`` (a one-row read such as the settings) and :meth:`get`, in one
        statement."""

        def parse(row: Any) -> RollRecord | None:
            return None if row is None or row["id"] is None else _roll(row)

        return self._both(first, Query("SELECT * FROM rolls WHERE id = ?", (roll_id,), parse))

    @staticmethod
    def newest_in_action_query(action_id: int) -> Query[RollRecord | None]:
        """The newest roll made in an action, as a query to read beside it
        (``Queries.with_rows``): an extended action's last roll, which its state names
        (the caller checks it is that one); None for a row of NULLs (there is none)."""
        return Query(
            "SELECT * FROM rolls"
            " WHERE id = (SELECT max(id) FROM rolls WHERE action_id = ?)",
            (action_id,),
            lambda row: None if row is None or row["id"] is None else _roll(row),
        )

    @staticmethod
    def open_with_newest_query(
        guild_id: int, channel_id: int, *, kind: ActionKind, label: str | None
    ) -> Query[tuple[ActionRecord, RollRecord | None] | None]:
        """The channel's open actions of a kind (``label``'s when given, matched as
        ``label_key`` does), each beside the newest roll made in it (or None), as a query
        to read beside the settings (``Queries.beside_rows``): the action's columns named
        ``act_…`` as ActionRepository.find_open_query's, the roll's as the table's. None
        for a row of NULLs (there is none); in no particular order."""
        key = None if label is None else label_key(label)

        def parse(row: Any) -> tuple[ActionRecord, RollRecord | None] | None:
            action = parse_prefixed("act_", row)
            if action is None:
                return None
            return action, None if row["id"] is None else _roll(row)

        return Query(
            "SELECT act.*, rolls.* FROM (SELECT id AS act_id, kind AS act_kind,"
            " guild_id AS act_guild_id, channel_id AS act_channel_id,"
            " owner_id AS act_owner_id, label AS act_label, status AS act_status,"
            " state_json AS act_state_json, version AS act_version,"
            " message_id AS act_message_id, created_at AS act_created_at,"
            " updated_at AS act_updated_at"
            " FROM actions WHERE guild_id = ? AND channel_id = ? AND status = 'open'"
            " AND kind = ? AND (? IS NULL OR label_key = ?)) AS act"
            " LEFT JOIN rolls"
            " ON rolls.id = (SELECT max(id) FROM rolls WHERE action_id = act.act_id)",
            (guild_id, channel_id, kind.value, key, key),
            parse,
        )

    def beside_pressed(self, first: Query[T], roll_id: int) -> tuple[T, Pressed]:
        """``first`` (a one-row read such as the settings) and a roll with what its
        roller stands on (:class:`Pressed`), in one statement."""
        return self._both(first, self.pressed_query(roll_id))

    @staticmethod
    def pressed_query(roll_id: int) -> Query[Pressed]:
        """A roll, its roller's pool and Beats (the member's own, or the sheet of the
        character the roll was made with: its columns named ``rch_…``) and the action it
        was made in (``pact_…``), as a query (alone: ``Queries.one``).

        The sheet is joined only while it is one the roller could have rolled with: in the
        roll's server, and their own or an NPC (a Storyteller may use any). A sheet
        deleted since is then never mistaken for another member's that got its id before
        migration 0011 stopped SQLite from giving ids again."""

        def parse(row: Any) -> Pressed:
            if row is None or row["id"] is None:
                return Pressed(None, None, 0, None, None)
            roll = _roll(row)
            action = parse_prefixed("pact_", row)
            character = record_of(row, "rch_")
            if character is not None:
                return Pressed(roll, character.will_pool(), character.sheet.beats, character,
                               action)
            pool = None if row["pool_current"] is None else WillPool(
                guild_id=roll.guild_id, user_id=roll.roller_id,
                current=row["pool_current"], maximum=row["pool_maximum"],
            )
            return Pressed(roll, pool, row["pool_beats"] or 0, None, action)

        return Query(
            "SELECT rolls.*, will_pools.current AS pool_current,"
            " will_pools.maximum AS pool_maximum, beats.beats AS pool_beats,"
            " rch.id AS rch_id, rch.guild_id AS rch_guild_id, rch.owner_id AS rch_owner_id,"
            " rch.version AS rch_version, rch.sheet_json AS rch_sheet_json,"
            " pact.id AS pact_id, pact.kind AS pact_kind, pact.guild_id AS pact_guild_id,"
            " pact.channel_id AS pact_channel_id, pact.owner_id AS pact_owner_id,"
            " pact.label AS pact_label, pact.status AS pact_status,"
            " pact.state_json AS pact_state_json, pact.version AS pact_version,"
            " pact.message_id AS pact_message_id, pact.created_at AS pact_created_at,"
            " pact.updated_at AS pact_updated_at"
            " FROM rolls LEFT JOIN will_pools ON will_pools.guild_id = rolls.guild_id"
            " AND will_pools.user_id = rolls.roller_id AND rolls.character_id IS NULL"
            " LEFT JOIN beats ON beats.guild_id = rolls.guild_id"
            " AND beats.user_id = rolls.roller_id AND rolls.character_id IS NULL"
            " LEFT JOIN characters AS rch ON rch.id = rolls.character_id"
            " AND rch.guild_id = rolls.guild_id"
            " AND (rch.owner_id = rolls.roller_id OR rch.npc = 1)"
            " LEFT JOIN actions AS pact ON pact.id = rolls.action_id"
            " WHERE rolls.id = ?",
            (roll_id,),
            parse,
        )

    def spend_will(
        self, roll_id: int, user_id: int, result: RollResult, *, read: RollRecord | None = None
    ) -> RollRecord | None:
        """Spend Will on a roll after it was made: ``result`` is the engine's new reading;
        ``read``: the roll as this transaction read it (else it is read here, for the
        counters).

        One conditional update: only the roller, while Will is offered and not
        yet spent and the roll is neither closed nor void. None when it changed
        nothing (a second press, a stale button): the caller says why.
        """
        if result.will is not WillUse.AFTER:
            msg = "spend_will takes the result re-read with Will spent after the roll"
            raise ValueError(msg)
        before = self._as_read(roll_id, read)
        if before is None:
            return None
        changed = self._changes_one(
            "UPDATE rolls SET result_json = ?, will_state = 'spent',"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND will_state = 'offered'"
            " AND beat = 0 AND closed = 0 AND void = 0",
            (result.model_dump_json(), roll_id, user_id),
        )
        return self._revised(before, changed, result=result, will_state=WillState.SPENT)

    def take_beat(
        self, roll_id: int, user_id: int, result: RollResult, *, read: RollRecord | None = None
    ) -> RollRecord | None:
        """Take a Beat: ``result`` is the failure turned into a dramatic failure; ``read``
        as for :meth:`spend_will`.

        One conditional update: only the roller, once, while the roll is neither
        closed nor void; Will is no longer offered (RULES.md: the Beat closes the
        roll to Will; a failed labelled roll may still be tried again). None when
        it changed nothing.
        """
        if not result.beat:
            msg = "take_beat takes the result re-read with the Beat taken"
            raise ValueError(msg)
        before = self._as_read(roll_id, read)
        if before is None:
            return None
        changed = self._changes_one(
            "UPDATE rolls SET result_json = ?, beat = 1,"
            " will_state = CASE will_state WHEN 'offered' THEN 'none' ELSE will_state END,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND beat = 0 AND closed = 0 AND void = 0",
            (result.model_dump_json(), roll_id, user_id),
        )
        will_state = (WillState.NONE if before.will_state is WillState.OFFERED
                      else before.will_state)
        return self._revised(before, changed, result=result, beat=True, will_state=will_state)

    def _as_read(self, roll_id: int, read: RollRecord | None) -> RollRecord | None:
        """The roll as this transaction reads it before a button re-reads it: ``read``,
        when the caller read it in the transaction already."""
        if read is None:
            return self.get(roll_id)
        if read.id != roll_id:
            msg = f"the roll read is {read.id}, not {roll_id}"
            raise ValueError(msg)
        return read

    def _revised(self, before: RollRecord, changed: bool, **update: object
                 ) -> RollRecord | None:
        """The roll as its conditional update left it (None when it changed nothing), its
        counters moved from the reading ``before``. Built from what was read and written,
        not read back (its ``updated_at`` is this process's clock, within a moment of the
        database's)."""
        if not changed:
            return None
        record = before.model_copy(update={**update, "updated_at": datetime.now(UTC)})
        self._stats.reread(before.result, before.will_state, record)
        return record

    def claim_retry(self, roll_id: int, user_id: int, *, while_open: bool = True) -> bool:
        """Claim the roll's one "Try again" or "Roll again" (the caller rolls the new
        attempt in the same transaction): only the roller, once, not void; Try again only
        while the roll is open (``while_open``), Roll again whenever. Whether it claimed:
        PostgreSQL holds it back, answered True, and has the server check it
        (Repository._changes_one)."""
        if while_open:
            return self._changes_one(
                "UPDATE rolls SET retried = 1,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
                " WHERE id = ? AND roller_id = ? AND retried = 0 AND closed = 0 AND void = 0",
                (roll_id, user_id),
            )
        return self._changes_one(
            "UPDATE rolls SET retried = 1,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
            " WHERE id = ? AND roller_id = ? AND retried = 0 AND void = 0",
            (roll_id, user_id),
        )

    def close(
        self, guild_id: int, channel_id: int, roller_id: int | None = None
    ) -> list[RollRecord]:
        """Close the open rolls of a channel (of one roller, when given): their buttons
        stop acting. Used by /scene end, /turn next and when the roller rolls again.

        Answers the rolls just closed, oldest first, so their messages can be updated.
        """
        rows = self._all(_CLOSE_RETURNING, (guild_id, channel_id, roller_id, roller_id))
        return sorted((_roll(row) for row in rows), key=lambda roll: roll.id)

    def history(
        self,
        guild_id: int,
        channel_id: int,
        *,
        viewer_id: int,
        viewer_is_storyteller: bool,
        count: int = 10,
        member_id: int | None = None,
    ) -> list[RollRecord]:
        """The channel's latest rolls, newest first, void ones included.

        A private roll is listed only to its roller and to a Storyteller.
        ``member_id`` keeps one member's rolls. Raises ValueError for a count
        outside 1..MAX_HISTORY.
        """
        viewer = Viewer(guild_id, viewer_id, storyteller=viewer_is_storyteller)
        return self._read_rows(self.history_query(guild_id, channel_id, viewer=viewer,
                                                  count=count, member_id=member_id))

    @staticmethod
    def history_query(
        guild_id: int, channel_id: int, *, viewer: Viewer, count: int,
        member_id: int | None = None,
    ) -> Query[RollRecord | None]:
        """:meth:`history` as a query, to read beside the settings (``Queries.beside_rows``):
        the server's Storyteller role is tested in the statement (:class:`Viewer`), so
        another member's secret roll never leaves the database for a member who is not
        one. Newest first when read alone; a join need not keep a subquery's order (its
        caller orders them by id). None for a row of NULLs (there is none)."""
        if not 1 <= count <= MAX_HISTORY:
            msg = f"history shows 1 to {MAX_HISTORY} rolls, not {count}"
            raise ValueError(msg)
        return Query(
            "SELECT rolls.*, actions.kind AS action_kind, actions.state_json AS action_state"
            " FROM rolls LEFT JOIN actions ON actions.id = rolls.action_id"
            " WHERE rolls.guild_id = ? AND rolls.channel_id = ?"
            " AND (? IS NULL OR roller_id = ?)"
            " AND (private = 0 OR roller_id = ? OR ? = 1"
            " OR ? LIKE '%,' || (SELECT CAST(storyteller_role_id AS TEXT) FROM guild_settings"
            " WHERE guild_id = ?) || ',%')"
            " ORDER BY rolls.id DESC LIMIT ?",
            (guild_id, channel_id, member_id, member_id, viewer.user_id, *viewer.params(),
             count),
            lambda row: None if row is None or row["id"] is None else _listed(row),
        )

    @staticmethod
    def to_void_query(roll_id: int) -> Query[OpenRoll | None]:
        """A roll as /history void reads it ahead, beside the settings (Queries.both), to
        hand to :meth:`void`: its row with its first reading's (``first_roll_id``,
        ``first_outcome``: StatsRepository.reread), and the columns that tell its state;
        None for a row of NULLs (there is none)."""

        def parse(row: Any) -> OpenRoll | None:
            if row is None or row["id"] is None:
                return None
            return OpenRoll(row, {name: row[name] for name in _TO_VOID_VERSION})

        return Query(
            "SELECT rolls.*, stat_first.roll_id AS first_roll_id,"
            " stat_first.outcome AS first_outcome"
            " FROM rolls LEFT JOIN stat_first ON stat_first.roll_id = rolls.id"
            " WHERE rolls.id = ?",
            (roll_id,),
            parse,
        )

    def void(
        self, guild_id: int, channel_id: int, roll_id: int, by_user_id: int, *,
        read: OpenRoll | None = None,
    ) -> Voided | None:
        """Mark a roll of this channel void (it stays listed; its buttons stop acting).

        None when the channel has no such roll. Voiding twice changes nothing
        the second time and says so (``already``). A roll made in an action
        (extended, teamwork, contest) is not voided: its effect on the action
        cannot be taken back, so the answer's roll is not ``void``.

        ``read``: the roll as the flow read it ahead (:meth:`to_void_query`). On
        PostgreSQL the server then checks, with the transaction's COMMIT, that it is
        still as read, and the void and its counters go with it, nothing read back
        (Repository._expected); else it is read here.
        """
        query = self.to_void_query(roll_id)
        row = self._expected(query.sql, query.params, None if read is None else read.version)
        if read is not None and row is not None and all(
            row[name] == value for name, value in read.version.items()
        ):
            row = read.row  # the same roll (on PostgreSQL, answered on trust)
        if row is None or (row["guild_id"], row["channel_id"]) != (guild_id, channel_id):
            return None
        roll = _roll(row)
        if roll.void or roll.action_id is not None:
            return Voided(roll=roll, already=roll.void)
        text, now = stamp()
        self._do(
            "UPDATE rolls SET void = 1, closed = 1, voided_by = ?, updated_at = ?"
            " WHERE id = ? AND void = 0",
            (by_user_id, text, roll_id),
        )
        record = roll.model_copy(update={"void": True, "closed": True,
                                         "voided_by": by_user_id, "updated_at": now})
        # The outcome its request shape was counted with: its first reading's, when it was
        # re-read (none kept: nothing to take back), else the one it has.
        first = row["first_outcome"] if row["first_roll_id"] is not None else roll.result.outcome
        self._stats.uncounted(record, None if first is None else Outcome(first))
        return Voided(roll=record, already=False)
