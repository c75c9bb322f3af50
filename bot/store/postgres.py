"""The PostgreSQL backend: the same synchronous repositories, spoken through asyncpg.

A transaction's body is the same plain function of the repositories as on SQLite
(:meth:`bot.store.Store.read`), so the repositories keep ONE copy of their logic; on
SQLite it runs in aiosqlite's thread, here in a greenlet on the bot's own event loop
(:mod:`bot.store.greenlets`): each statement is an asyncpg coroutine the loop awaits
while it serves everything else, and no thread has to win the GIL back after each
round trip. A worker is a connection and the task that runs its queue of
transactions. The text the repositories hold is SQLite's dialect;
:mod:`bot.store.dialect` translates it.

Writes go to ONE writer, one at a time, as on SQLite: a body that draws dice (an
extended action's Roll) runs only after the write before it committed, so two presses
at once roll once, and no body of this process re-runs for losing to another of its
own. Processes split the guilds (shards), so theirs seldom collide; when they do,
SERIALIZABLE re-runs the loser. Reads run on :data:`READERS` workers at once.

Guarantees, as on SQLite:

- a write runs at ``SERIALIZABLE`` (SQLite runs writes one at a time): a
  read-modify-write inside one ``write`` is atomic, and the conditional updates on
  versions act as there. A serialization failure or a deadlock re-runs the whole
  body, at most :data:`TRIES` times, then the member is told the database is busy;
- a read runs at ``REPEATABLE READ READ ONLY``: one consistent view;
- a statement error that the body catches (a UNIQUE name) aborts a PostgreSQL
  transaction, so the body is re-run once with a savepoint around each statement.

Costs: one round trip per statement whose answer the body needs (rows, or a row
count it reads); the writes it reads nothing from are held back and go with the next
such statement or with ``COMMIT``, in one message (:class:`PgConnection`), and so do
the checks that stand in for answers: a conditional write's "one row changed", and a
read the flow made in an earlier transaction (:meth:`PgConnection.expects`), so a
write that needs no fresh answer is one round trip with its COMMIT. Round trips
are counted in :attr:`PgEngine.round_trips` (SQLite's transaction is one trip to its
thread). A worker ends the last transaction and begins the next while nobody waits
(a read's COMMIT is not waited for: it makes nothing durable), so ``BEGIN`` costs a
round trip only when transactions queue with no idle moment between them, and a
transaction whose body sends nothing costs none. Between transactions a worker's
session is therefore "idle in transaction", holding no lock and no snapshot; one
closed by the server meanwhile (``idle_in_transaction_session_timeout``) is replaced
and the transaction run again, as nothing was done in it.

A write's COMMIT whose answer is lost (the connection drops, or the answer is late past
STATEMENT_TIMEOUT) may have committed or not. The transaction tells its id in the
message that carries its COMMIT (:data:`TELL_XID`), and a new session asks the server
what became of it (``txid_status``, PostgreSQL 10 and later): committed, the write
answers as done, so that the member does not press again and roll or spend Will twice;
rolled back, not known (the id never arrived, the server cannot be asked within
:data:`OUTCOME_TIMEOUT`, or it is still in progress), the member is told nothing was
saved, as when the connection drops before COMMIT.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import math
import random
import re
import sqlite3
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from enum import IntEnum
from functools import lru_cache
from pathlib import Path
from typing import Any, Final, Literal, TypeVar
from urllib.parse import unquote, urlsplit

import asyncpg

from bot.store.dialect import Translated, arguments, translate
from bot.store.errors import (
    StoreBusy,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnavailable,
)
from bot.store.greenlets import spawn, wait
from bot.store.migrations import Migration, MigrationError, discover, refuse_unknown
from bot.store.repository import Params

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Attempts of one transaction before the member is told the database is busy.
TRIES: Final = 12
#: Threads (each with its connection) running read transactions, besides the writer's.
READERS: Final = 4
#: Milliseconds a member's statement waits for a lock another program holds (an admin's
#: open transaction, another process's ALTER TABLE), as SQLite's BUSY_TIMEOUT_MS: Discord
#: drops an interaction not answered within 3 s, so the member is told the database is
#: busy while there is still time, where the statement waited up to STATEMENT_TIMEOUT
#: and the member got no answer at all. (Migrations wait as long as they need.)
LOCK_TIMEOUT_MS: Final = 1000
#: Seconds a statement may take, and a start-up connection attempt.
STATEMENT_TIMEOUT: Final = 10.0
CONNECT_TIMEOUT: Final = 5.0
#: Seconds a migration file may take, and a process may wait for another applying them:
#: nobody waits for an answer at start-up (a member's statement has STATEMENT_TIMEOUT),
#: and a migration copies whole tables.
MIGRATION_TIMEOUT: Final = 300.0
#: The advisory lock every process takes to apply migrations (any fixed 64-bit key).
MIGRATION_LOCK: Final = 0x5354_4f52_5942_4f54  # "STORYBOT"
#: Seconds the writer may take to learn, on a new session, whether a COMMIT whose answer
#: was lost committed (:meth:`PgEngine._committed`): the member is waiting, and Discord
#: drops an interaction not answered within 3 s.
OUTCOME_TIMEOUT: Final = 1.5
#: Sent with a write's COMMIT, in the same message (no round trip of its own): the
#: transaction's id as a notice (:meth:`_Worker.heard`), or ``<NULL>`` when it has none
#: (it wrote nothing). ``txid_current_if_assigned`` gives none to a transaction that
#: wrote nothing, whose COMMIT then stays free of a write to the server's log.
TELL_XID: Final = (
    "DO $storybot$BEGIN RAISE NOTICE 'storybot_xid %', txid_current_if_assigned(); END$storybot$"
)
_XID_NOTICE: Final = "storybot_xid "

_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)


@lru_cache(maxsize=1024)
def _returns_rows(sql: str) -> bool:
    """Whether a statement answers rows (a SELECT, or a write with RETURNING); cached, as
    the search runs through a whole statement (a roll's statistics are 2 kB)."""
    return _RETURNS_ROWS.search(sql) is not None


_TABLE = re.compile(r"\b(?:FROM|JOIN|INTO|UPDATE)\s+([A-Za-z_][A-Za-z0-9_]*)", re.IGNORECASE)


@lru_cache(maxsize=1024)
def _tables(sql: str) -> frozenset[str]:
    """The tables a statement names (reads or writes), over-counted rather than missed
    ("DO UPDATE SET" counts a table "set"); empty when none is found."""
    return frozenset(name.lower() for name in _TABLE.findall(sql))

#: The connection is gone, or the server cannot take it now: the member may try again.
UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
    # The session in a state asyncpg did not expect: the server ended it while idle, and
    # its last words are still being read ("another operation is in progress").
    asyncpg.InternalClientError,
)
#: The server refuses the work for a reason of its own, which the member is told as on
#: SQLite (bot.edge.errors): another program holds a lock it needs (LOCK_TIMEOUT_MS); it
#: takes no writes; its disk is full; it is out of room for another session
#: (max_connections) or of memory, for now.
_REFUSALS: tuple[tuple[type[BaseException], type[StoreError]], ...] = (
    (asyncpg.exceptions.LockNotAvailableError, StoreLocked),
    (asyncpg.exceptions.ReadOnlySQLTransactionError, StoreReadOnly),
    (asyncpg.exceptions.DiskFullError, StoreFull),
    (asyncpg.exceptions.InsufficientResourcesError, StoreUnavailable),
)
_REFUSED: tuple[type[BaseException], ...] = tuple(refused for refused, _ in _REFUSALS)
#: The transaction lost a race with another: re-run it. So too when a statement asyncpg
#: prepared earlier in the session no longer fits the schema another process changed (a
#: rolling upgrade's migration): asyncpg forgets it, and the re-run prepares it anew.
_RACES: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
    asyncpg.exceptions.InvalidCachedStatementError,
)


class PgIntegrityError(sqlite3.IntegrityError):
    """A constraint refused a statement (the repositories catch ``sqlite3.IntegrityError``
    for both backends)."""


def is_postgres_url(target: object) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) connection URL, its scheme in any
    case (as asyncpg reads it)."""
    return isinstance(target, str) and target.lower().startswith(("postgresql://",
                                                                   "postgres://"))


@dataclass(frozen=True, slots=True)
class Where:
    """A database URL's server, for messages: never its password."""

    host: str
    port: int
    database: str
    user: str

    def __str__(self) -> str:
        return f"PostgreSQL database {self.database!r} at {self.host}:{self.port}"


def where(url: str) -> Where:
    """The server a URL names; :class:`StoreError` (without the password) when malformed."""
    host = url.rsplit("@", maxsplit=1)[-1].split("/", maxsplit=1)[0] or "?"
    credentials, at, _ = url.partition("://")[2].rpartition("@")
    if at and any(char in credentials for char in "/?#"):
        # The URL ends its server part there, inside the password: what Python or asyncpg
        # would then say (a port, a database) quotes a piece of it.
        msg = (
            f"DATABASE_URL is not a valid PostgreSQL URL (server {host}): the user name or"
            " password holds a / ? or # that must be percent-encoded (/ as %2F, ? as %3F,"
            " # as %23)"
        )
        raise StoreError(msg)
    try:
        parts = urlsplit(url)
        port = parts.port or 5432
    except ValueError as error:
        msg = f"DATABASE_URL is not a valid PostgreSQL URL (server {host}): {error}"
        raise StoreError(msg) from None
    if parts.scheme not in {"postgresql", "postgres"}:
        msg = "DATABASE_URL must start with postgresql://"
        raise StoreError(msg)
    host = parts.hostname or "localhost"
    if host == "localhost" and "host=" in parts.query:  # a Unix socket folder
        host = unquote(parts.query.split("host=")[1].split("&")[0])
    return Where(
        host=host,
        port=port,
        database=parts.path.lstrip("/") or parts.username or "postgres",
        user=parts.username or "",
    )


@dataclass
class _Cursor:
    rows: list[Any]
    rowcount: int

    def fetchall(self) -> list[Any]:
        return self.rows


def _changed(status: str) -> int:
    """Rows changed, from a command tag such as ``UPDATE 3`` or ``INSERT 0 1``."""
    last = status.rsplit(" ", 1)[-1]
    return int(last) if last.isdigit() else 0


#: The SQLSTATE a held-back check raises when it misses (migrations/postgres/0009_checks.sql).
MISSED: Final = "SB001"
#: The name of a prepared check (:meth:`PgConnection._check`), before its number.
_CHECK: Final = "storybot_check_"
#: A column name of an expected row (:meth:`PgConnection.expects`), written in unquoted.
_COLUMN = re.compile(r"[a-z_][a-z0-9_]*")


def literal(value: object) -> str | None:
    """``value`` as PostgreSQL literal text, or None when it has no safe one (it is then
    sent as a parameter). Text is an escape string (``E'...'``: its meaning does not
    depend on ``standard_conforming_strings``), with its backslashes and quotes doubled;
    text holding NUL has none (the protocol ends a query at NUL). A negative number is
    in brackets: ``x -$1`` must not become ``x --1``, a comment."""
    kind = type(value)
    if kind is int:  # the common case first: a roll's counters are hundreds of these
        return str(value) if value >= 0 else f"({value})"  # type: ignore[operator]
    if kind is str:
        text = str(value)
        if "\x00" in text:
            return None
        if "'" in text or "\\" in text:
            text = text.replace("\\", "\\\\").replace("'", "''")
        return f"E'{text}'"
    if value is None:
        return "NULL"
    if isinstance(value, int):  # bool, an IntEnum: the schema keeps flags as integers
        return literal(int(value))
    if isinstance(value, float) and math.isfinite(value):
        number = repr(value)
        return f"({number})" if number.startswith("-") else number
    return None


def literals(args: list[Any]) -> list[str] | None:
    """Every parameter as literal text (:func:`literal`), or None when one has none."""
    texts: list[str] = []
    for value in args:
        text = literal(value)
        if text is None:
            return None
        texts.append(text)
    return texts


class _Care(IntEnum):
    """How a transaction's statements go, from the fastest to the most exact: each level
    is what a re-run needs after the one before went wrong."""

    TRUSTING = 0
    """Writes nobody reads from are held back; checked writes are answered on trust."""
    EXACT = 1
    """Every statement is sent when it runs and answered then (a check missed, or a
    held-back statement failed)."""
    CAREFUL = 2
    """And each in a savepoint, so that an error the body catches leaves the transaction
    usable, as on SQLite."""


class _Held:
    """The cursor of a statement held back: its row count is known once it was sent."""

    def __init__(self, tx: PgConnection, index: int) -> None:
        self._tx = tx
        self._index = index
        self._count: int | None = None

    @property
    def rowcount(self) -> int:
        if self._count is None:
            self._count = self._tx.send_through(self._index)
        return self._count

    def fetchall(self) -> list[Any]:
        return []


@dataclass
class PgConnection:
    """One transaction's connection as the repositories see it (bot.store.repository.
    Connection), used from the greenlet running the body.

    A statement whose rows nobody waits for (a write without RETURNING) is held back as
    ``EXECUTE`` of the statement prepared once in the session, its parameters written
    in as literals, and sent with the next statement whose answer is needed, or with
    ``COMMIT``: one simple-protocol message, one round trip for all of them. A
    conditional write expected to change one row (:meth:`changes_one`), and a read
    expected to answer as it did in an earlier transaction (:meth:`expects`,
    :meth:`expects_rows`), are held back too, answered on trust, and checked by the
    server (a prepared check raises :data:`MISSED` otherwise); a body that raises while
    such answers are unsent has them sent first (PgEngine._verify), so that no error of
    a body stands on a wrong guess. A held-back statement that fails, or a check that
    misses, re-runs the transaction again statement by statement, each answered when it
    runs (:attr:`_Care.EXACT`); an error the body catches, with a savepoint around each
    statement (:attr:`_Care.CAREFUL`): exactly as on SQLite.
    """

    conn: asyncpg.Connection
    care: _Care = _Care.TRUSTING
    #: A write's transaction (a read's sends nothing with its COMMIT: it checks nothing).
    writes: bool = True
    round_trips: int = 0
    #: Statements the server has run so far in this transaction.
    statements: int = 0
    #: The first error a statement raised (the transaction is aborted from then on).
    failure: BaseException | None = field(default=None)
    #: Statements held back, as literal text, not sent yet.
    held: list[str] = field(default_factory=list)
    #: The tables the held-back statements name: a statement that answers rows and names
    #: none of them runs before them (it cannot see the difference), else after them.
    touched: set[str] = field(default_factory=set)
    #: Statements sent (held back, then sent with others) before ``held``.
    sent: int = 0
    #: A held-back statement failed, or a check missed: run again exactly.
    displaced: bool = False
    #: The statements prepared on this connection (``PREPARE``) and their names: the
    #: worker's, kept as long as its session (a prepared statement outlives a rollback).
    prepared: dict[str, str] = field(default_factory=dict)
    #: Ids the writer reserved ahead, by table, smallest first (the worker's:
    #: :meth:`reserved_id`, :meth:`reserve`).
    ids: dict[str, list[int]] = field(default_factory=dict)

    def execute(self, sql: str, parameters: Params = (), /) -> _Cursor | _Held:
        translated = translate(sql)
        args = arguments(translated, parameters)
        if _returns_rows(translated.sql):
            tables = _tables(translated.sql)
            if not tables or "*" in self.touched or tables & self.touched:
                # it must see what is held back, or might
                self.send()
            rows = self._call(self._fetch(translated, args))
            return _Cursor(list(rows), len(rows))
        text = self._holding(translated, args)
        if text is None:
            self.send()
            return _Cursor([], _changed(self._call(self._status(translated, args))))
        self._hold(text, translated)
        return _Held(self, self.sent + len(self.held) - 1)

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> _Cursor:
        translated = translate(sql)
        batch = [arguments(translated, each) for each in parameters]
        texts = [self._holding(translated, args) for args in batch]
        if all(text is not None for text in texts):
            for text in texts:
                self._hold(str(text), translated)
        else:
            self.send()
            self._call(self._many(translated, batch))
        return _Cursor([], len(batch))

    def _holding(
        self, translated: Translated, args: list[Any], *, check: bool = False
    ) -> str | None:
        """The statement to hold back: ``EXECUTE`` of the statement prepared on this
        connection (prepared on its first use: the server parses and plans it once),
        with its parameters as literals; None when it must be sent now (not trusting, or a
        value without a safe literal). A ``check`` (:meth:`_check`) is named apart."""
        if self.care is not _Care.TRUSTING or self.failure is not None:
            return None
        texts = literals(args)
        if texts is None:
            return None
        name = self.prepared.get(translated.sql)
        if name is None:
            name = f"{_CHECK if check else 'storybot_'}{len(self.prepared) + 1}"
            prepare = f"PREPARE {name} AS {translated.sql}"
            self._call(self.conn.execute(prepare), statement=False)
            self.prepared[translated.sql] = name
        return f"EXECUTE {name}({', '.join(texts)})" if texts else f"EXECUTE {name}"

    def _check(self, condition: str, translated: Translated, args: list[Any]) -> bool:
        """Hold back ``condition`` (SQL over ``translated``'s parameters and ``args``
        after them) as a check: ``storybot_check`` (migrations/postgres/0009_checks.sql)
        raises :data:`MISSED` when it is not true, and the transaction runs again
        exactly. False when it cannot be held (it must be sent now)."""
        if not self.writes:  # a read's COMMIT checks nothing
            return False
        check = replace(translated, sql=f"SELECT storybot_check({condition})")
        text = self._holding(check, args, check=True)
        if text is None:
            return False
        self._hold(text, translated)
        return True

    def changes_one(self, sql: str, parameters: Params = (), /) -> bool:
        """A conditional write that should change exactly one row: whether it did. Held
        back and answered True when trusting; the server checks it when it is sent."""
        translated = translate(sql)
        args = arguments(translated, parameters)
        written = replace(translated, sql=(
            f"WITH storybot_w AS ({translated.sql} RETURNING 1)"  # noqa: S608 - its own text
            " SELECT storybot_check(count(*) = 1) FROM storybot_w"
        ))
        text = self._holding(written, args, check=True)
        if text is None:
            return self.execute(sql, parameters).rowcount == 1
        self._hold(text, translated)
        return True

    def expects(
        self, sql: str, parameters: Params, expected: Mapping[str, Any]
    ) -> Mapping[str, Any] | None:
        """A one-row read answered with ``expected`` (its row as read in an earlier
        transaction, by column name) when trusting: held back as a check the server makes
        with the rest (:meth:`_check`: the read now answers a row equal to it, column by
        column, NULL equal to NULL). None when it must be read now (not trusting, in a
        read, or a value without a safe literal)."""
        if not self.expects_rows(sql, parameters, [expected], exists=True):
            return None
        return expected

    def expects_rows(
        self, sql: str, parameters: Params, expected: Sequence[Mapping[str, Any]], *,
        exists: bool = False,
    ) -> bool:
        """Whether a read's rows are taken as ``expected`` (as read in an earlier
        transaction, each by the same columns): when trusting, a check held back with the
        rest (:meth:`_check`) that the read now answers exactly those rows (with
        ``exists``: at least one row equal to the one expected). False when it must be
        read now."""
        names = list(expected[0]) if expected else []
        if not all(_COLUMN.fullmatch(name) for name in names):
            return False
        translated = translate(sql)
        args = arguments(translated, parameters)
        first = len(args) + 1  # the expected values' parameters follow the read's

        def equal(row: int) -> str:
            return " AND ".join(
                f"storybot_q.{name} IS NOT DISTINCT FROM ${first + row * len(names) + n}"
                for n, name in enumerate(names)
            )

        rows = f"FROM ({translated.sql}) AS storybot_q"
        if exists:
            condition = f"EXISTS (SELECT 1 {rows} WHERE {equal(0)})"
        else:
            condition = f"(SELECT count(*) {rows}) = {len(expected)}"
            if expected:
                found = " OR ".join(f"({equal(row)})" for row in range(len(expected)))
                condition += f" AND (SELECT count(*) {rows} WHERE {found}) = {len(expected)}"
        values = [row[name] for row in expected for name in names]
        return self._check(condition, translated, [*args, *values])

    def reserved_id(self, table: str = "rolls") -> int | None:
        """An id the writer reserved ahead for the next row stored in ``table``, if any
        (taken: used by it, or dropped), so that storing it reads nothing back
        (RollRepository.close_and_insert): a stock kept while idle (_Worker._reserve),
        more by :meth:`reserve`. Ids are taken from the sequence in the order rows are
        stored in this process; a dropped one leaves a gap.

        None when not trusting (a re-run stores its rows as SQLite does): the row then
        takes the sequence's next id, and the stock is dropped (:meth:`from_sequence`)."""
        stock = self.ids.get(table)
        if stock and self.care is _Care.TRUSTING:
            return stock.pop(0)
        self.from_sequence(table)
        return None

    def from_sequence(self, table: str) -> None:
        """The next row stored in ``table`` takes its id from the sequence itself: the ids
        reserved before are dropped (gaps), so that no row stored after it gets a smaller
        id. Ids order a table's rows as they were stored (/history, an action's newest
        roll, the newest closed action), where a re-run's roll came before the next one."""
        self.ids.pop(table, None)

    def reserve(self, rows: Mapping[str, int]) -> None:
        """Have ids reserved for the rows a write is about to store (``rows``: how many
        in each table), so that :meth:`reserved_id` answers each: those reserved while
        idle first, the rest taken from the sequences in one statement (one round trip
        for all of them, none when the stock suffices). Nothing when not trusting (a
        re-run stores its rows as SQLite does) or in a read."""
        if self.care is not _Care.TRUSTING or not self.writes:
            return
        wanted = [table for table, count in rows.items()
                  for _ in range(count - len(self.ids.get(table, ())))]
        if wanted:
            taken = self._call(self.conn.fetch(RESERVE, wanted))
            _stock(self.ids, taken)

    def trusting(self) -> bool:
        """Whether answers were given on trust: checked writes are held back, unsent."""
        return any(text.startswith(f"EXECUTE {_CHECK}") for text in self.held)

    def _hold(self, text: str, translated: Translated) -> None:
        self.held.append(text)
        self.touched |= _tables(translated.sql) or {"*"}  # "*": names no table we know

    def send(self, then: str | None = None) -> str:
        """Send the held-back statements (and ``then``, a statement of the store's own:
        COMMIT) in one round trip; the command tag of the last one."""
        script = [*self.held, *([then] if then else [])]
        if not script:
            return ""
        count, self.held = len(self.held), []
        self.touched = set()
        self.sent += count
        text = ";\n".join(script)
        try:
            status = self._call(self.conn.execute(text), statement=False)
        except BaseException:
            self.displaced = True
            raise
        self.statements += count
        return str(status)

    def send_through(self, index: int) -> int:
        """Send the held-back statements up to ``index`` (counted from the first held
        back); the rows the one at ``index`` changed."""
        through = index - self.sent + 1
        if through <= 0:
            msg = "a held-back statement's row count was read after later ones were sent"
            raise RuntimeError(msg)
        rest, self.held = self.held[through:], self.held[:through]
        touched = self.touched
        try:
            return _changed(self.send())
        finally:  # the rest is still held back (its tables: among those before)
            self.held, self.touched = rest, touched if rest else set()

    def alive(self) -> bool:
        """Whether the session still stands as far as its socket already tells, without a
        round trip: the loop is given two turns first, to read what already arrived on
        the socket (the server ending an idle session)."""
        for _ in range(2):
            wait(asyncio.sleep(0))
        return not self.conn.is_closed()

    def run(self, statement: str) -> None:
        """A statement of the store's own (COMMIT), with what is held back."""
        if self.held:
            self.send(statement)
        else:
            self._call(self.conn.execute(statement), statement=False)

    def _call(self, work: Any, *, statement: bool = True) -> Any:
        """Wait for a coroutine on the event loop (one round trip)."""
        self.round_trips += 1
        try:
            done = wait(work)
        except asyncpg.IntegrityConstraintViolationError as error:
            refused = PgIntegrityError(str(error))
            self.statements += statement  # it ran: the transaction has its snapshot
            if self.care is not _Care.CAREFUL:  # else its savepoint was rolled back
                self.failure = self.failure or refused
            raise refused from error
        except BaseException as error:
            self.failure = self.failure or error
            raise
        self.statements += statement
        return done

    async def _fetch(self, translated: Translated, args: list[Any]) -> list[Any]:
        sql = translated.sql
        return list(await self._careful(self.conn.fetch(sql, *args)))

    async def _status(self, translated: Translated, args: list[Any]) -> str:
        sql = translated.sql
        return str(await self._careful(self.conn.execute(sql, *args)))

    async def _many(self, translated: Translated, batch: list[list[Any]]) -> None:
        sql = translated.sql
        await self._careful(self.conn.executemany(sql, batch))

    async def _careful(self, work: Awaitable[T]) -> T:
        """``work``, in a savepoint when careful: a statement's error then leaves the
        transaction usable, as on SQLite. (The worker began the transaction with a plain
        BEGIN, so asyncpg's ``transaction()`` cannot nest in it: the savepoint is spoken.)"""
        if self.care is not _Care.CAREFUL:
            return await work
        await self.conn.execute("SAVEPOINT careful")
        try:
            done = await work
        except BaseException:
            if not self.conn.is_closed():
                await self.conn.execute("ROLLBACK TO SAVEPOINT careful")
            raise
        await self.conn.execute("RELEASE SAVEPOINT careful")
        return done


class _Again(Exception):  # noqa: N818 - a signal between two methods, never seen outside
    """Run the transaction again, with at least ``care``."""

    def __init__(self, care: _Care) -> None:
        super().__init__()
        self.care = care


class _Reconnect(Exception):  # noqa: N818 - a signal between two methods
    """The connection was found dead at BEGIN (nothing done yet): connect again."""


class _Worker:
    """A connection and the task running transactions on it from a queue, one at a time
    (as aiosqlite's thread does for SQLite), each begun with ``begin``; each transaction
    runs in a greenlet on the event loop (:func:`bot.store.greenlets.spawn`).

    Between jobs, while nobody waits, it ends the last transaction and begins the next in
    one round trip (:meth:`idle`), so a transaction's first round trip is its first
    statement: PostgreSQL takes the snapshot of a REPEATABLE READ or SERIALIZABLE
    transaction at its first statement, not at BEGIN, and a transaction that has run
    nothing holds no lock. A read's COMMIT waits for that too (it makes nothing durable).
    """

    def __init__(self, engine: PgEngine, jobs: asyncio.Queue[Any], name: str,
                 begin: str) -> None:
        self._engine = engine
        self._jobs = jobs
        self.name = name
        self.begin = begin
        self._conn: asyncpg.Connection | None = None
        #: A transaction is open on the connection and has run nothing yet.
        self.primed = False
        #: How the last transaction ends, not yet sent.
        self._ending: Literal["COMMIT", "ROLLBACK"] | None = None
        #: The statements prepared in this connection's session (PgConnection.prepared).
        self.prepared: dict[str, str] = {}
        #: Ids reserved for the writer's next rows, by table (PgConnection.reserved_id).
        self.ids: dict[str, list[int]] = {}
        #: The id the writer's transaction told with its COMMIT (:data:`TELL_XID`), if any.
        self.xid: int | None = None
        self.task = asyncio.get_running_loop().create_task(self._serve(), name=name)

    async def _serve(self) -> None:
        try:
            while True:
                try:
                    job = self._jobs.get_nowait()
                except asyncio.QueueEmpty:
                    await spawn(self.idle)
                    job = await self._jobs.get()
                if job is None:
                    break
                await spawn(job, self)
        finally:
            self.drop()

    def connection(self) -> asyncpg.Connection:
        """This worker's connection, made again when it was lost."""
        if self._conn is None or self._conn.is_closed():
            self.primed, self._ending = False, None  # a new session has no transaction
            self.prepared = {}  # nor prepared statements
            conn = wait(asyncpg.connect(
                self._engine.url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_TIMEOUT,
            ))
            # Set once the session stands (SET for the session, as a parameter), not as a
            # startup parameter: a pooler in session mode (PgBouncer) refuses those it does
            # not know. Notices are sent to it whatever client_min_messages the server
            # gives the bot's user: the writer's transaction tells its id in one (TELL_XID).
            try:
                wait(conn.execute("SELECT set_config('lock_timeout', $1, false),"
                                  " set_config('client_min_messages', 'notice', false)",
                                  str(LOCK_TIMEOUT_MS)))
            except BaseException:
                conn.terminate()
                raise
            if self.begin == WRITE:
                conn.add_log_listener(self.heard)
            self._conn = conn
        return self._conn

    def heard(self, conn: object, message: asyncpg.PostgresLogMessage) -> None:
        """A notice from the server: the id the writer's transaction told (TELL_XID)."""
        text = str(getattr(message, "message", ""))
        if text.startswith(_XID_NOTICE):
            told = text.removeprefix(_XID_NOTICE)
            self.xid = int(told) if told.isdigit() else None

    def open(self) -> int:
        """Make sure a transaction is open, the last one ended first in the same round
        trip; the round trips it took (0 when :meth:`idle` had done it)."""
        if self.primed:
            return 0
        conn = self.connection()
        script = self.begin if self._ending is None else f"{self._ending}; {self.begin}"
        # No parameters: the simple protocol runs both statements in one message.
        wait(conn.execute(script))
        self._ending, self.primed = None, True
        return 1

    def end(self, how: Literal["COMMIT", "ROLLBACK"]) -> None:
        """The transaction is over for its caller; ``how`` it ends goes with the next BEGIN."""
        self._ending, self.primed = how, False

    def committed(self) -> None:
        """The transaction was committed on the caller's path."""
        self._ending, self.primed = None, False

    def idle(self) -> None:
        """Nobody is waiting: end the last transaction and begin the next now. Only a head
        start: whatever goes wrong, the session is dropped and the next job connects anew
        (the worker's task must not end, or the jobs queued behind would wait forever)."""
        if self.primed or self._conn is None:
            return
        try:
            if self.begin == WRITE and self._ending is None:
                self._reserve()
            self._engine.idle_round_trips += self.open()
        except Exception as error:
            log.debug("%s: no transaction begun ahead: %s", self.name, error)
            self.drop()  # the next job connects anew

    def _reserve(self) -> None:
        """Fill the stock of ids up to :data:`IDLE_STOCK` from their sequences, in one
        statement, outside any transaction (a statement in the next one would take its
        snapshot now, while idle): the writer's next rows are then stored without reading
        their ids back. Nothing when the stock is full."""
        wanted = [table for table, depth in IDLE_STOCK.items()
                  for _ in range(depth - len(self.ids.get(table, ())))]
        if wanted:
            conn = self.connection()
            _stock(self.ids, wait(conn.fetch(RESERVE, wanted)))
            self._engine.idle_round_trips += 1

    def drop(self) -> None:
        """Forget the connection (lost, or the store closes)."""
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None
        self.primed, self._ending = False, None


#: The ids the writer keeps reserved (:meth:`_Worker._reserve`), by table, as many as one
#: write mostly stores, so that it needs no answer for them: two rolls (a contest the
#: Storyteller opposes stores two), an action (/extended start, /contest), a new sheet
#: (CharacterRepository.insert) and a new saved roll (SavedRollRepository.put).
IDLE_STOCK: Final = {"rolls": 2, "actions": 1, "characters": 1, "saved_rolls": 1}
#: Ids taken ahead (:meth:`_Worker._reserve`, :meth:`PgConnection.reserve`): one from the
#: sequence of each table named in the parameter (an array, a name once per id).
RESERVE: Final = (
    "SELECT wanted.name, nextval(pg_get_serial_sequence(wanted.name, 'id')) AS id"
    " FROM unnest($1::text[]) WITH ORDINALITY AS wanted(name, n) ORDER BY wanted.n"
)


def _stock(ids: dict[str, list[int]], taken: Iterable[Any]) -> None:
    """Add the ids :data:`RESERVE` took (its rows) to a writer's stock, smallest first."""
    for row in taken:
        ids.setdefault(row["name"], []).append(int(row["id"]))
    for stock in ids.values():
        stock.sort()
#: How each kind of transaction begins.
READ: Final = "BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY"
WRITE: Final = "BEGIN ISOLATION LEVEL SERIALIZABLE"


class PgEngine:
    """Workers, each with its own connection: one for writes (one at a time, as on
    SQLite), :data:`READERS` for reads. A caller hands a whole transaction to a worker
    (one trip), whose statements then go straight to the server."""

    def __init__(self, url: str, server: Where) -> None:
        self.url = url
        self.server = server
        self._writes: asyncio.Queue[Any] = asyncio.Queue()
        self._reads: asyncio.Queue[Any] = asyncio.Queue()
        self._workers = [_Worker(self, self._writes, "pg-write", WRITE)] + [
            _Worker(self, self._reads, f"pg-read-{n}", READ) for n in range(READERS)
        ]
        #: Round trips to the server while a caller waited (statements, COMMIT, and BEGIN
        #: when no idle moment came before), and those made between transactions.
        self.round_trips = 0
        self.idle_round_trips = 0

    @classmethod
    async def connect(cls, url: str, migrations: Path) -> PgEngine:
        """Connect, apply pending migrations under the advisory lock; :class:`StoreError`
        naming the server (never the password) when it cannot be reached or used."""
        server = where(url)
        try:
            conn = await asyncpg.connect(
                url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_TIMEOUT
            )
        except (*UNAVAILABLE, asyncpg.PostgresError, ValueError) as error:
            msg = f"{server} cannot be reached: {_reason(error, url)}"
            raise StoreError(msg) from None
        try:
            applied = await migrate(conn, migrations)
        except (*UNAVAILABLE, asyncpg.PostgresError) as error:
            # Not the file's fault (that is MigrationError): the user may not create tables,
            # the session was ended, the server went away.
            msg = f"{server} cannot be used: {_reason(error, url)}{_advice(error)}"
            raise StoreError(msg) from None
        finally:
            with contextlib.suppress(*UNAVAILABLE, asyncpg.PostgresError):  # gone already
                await conn.close(timeout=CONNECT_TIMEOUT)
        log.info("store open: %s (%d migrations applied now)", server, len(applied))
        return cls(url, server)

    async def close(self) -> None:
        """Close once the transactions already queued are over (a worker stopped by the
        loop's end has dropped its connection already)."""
        for worker in self._workers:
            (self._writes if worker.begin == WRITE else self._reads).put_nowait(None)
        await asyncio.gather(*(worker.task for worker in self._workers), return_exceptions=True)

    async def warm(self) -> None:
        """Connect every worker (PostgresStore.warm); :class:`StoreError` naming the
        server (never the password) when one cannot connect or use its database."""
        together = asyncio.Barrier(READERS)

        def read(conn: PgConnection) -> None:  # it only has to be served
            wait(asyncio.wait_for(together.wait(), CONNECT_TIMEOUT))

        try:
            await asyncio.gather(*(self.run(read, write=False) for _ in range(READERS)),
                                 self.run(lambda conn: None, write=True))
        except (asyncpg.PostgresError, TimeoutError) as error:
            msg = f"{self.server} cannot be used: {_reason(error, self.url)}"
            raise StoreError(msg) from None

    async def run(self, body: Callable[[PgConnection], T], *, write: bool) -> T:
        """``body`` in a transaction on a worker (:data:`WRITE` or :data:`READ`), re-run
        after a lost race (bounded); rolled back and re-raised when it raises.

        A caller cancelled meanwhile does not stop a body once queued (as on SQLite): the
        transaction finishes whole, committed or rolled back."""
        answer: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def job(worker: _Worker) -> None:
            try:
                result = self._attempts(worker, body)
            except asyncio.CancelledError:  # the worker stops (the loop ends): rolled back
                answer.set_exception(StoreUnavailable(str(self.server)))
                raise
            except BaseException as error:  # handed to the caller, whatever it is
                answer.set_exception(error)
            else:
                answer.set_result(result)

        (self._writes if write else self._reads).put_nowait(job)
        return await asyncio.shield(answer)

    def _attempts(self, worker: _Worker, body: Callable[[PgConnection], T]) -> T:
        care = _Care.TRUSTING
        for attempt in range(TRIES):
            try:
                return self._transaction(worker, care, body)
            except _Again as again:
                care = max(care, again.care)
                # Spread the retries of colliding transactions apart (at most ~64 ms).
                wait(asyncio.sleep(random.uniform(0, 0.001 * 2 ** min(attempt, 6))))
            except _Reconnect:
                worker.drop()
            except UNAVAILABLE as error:
                worker.drop()
                log.warning("%s unavailable: %s", self.server, error)
                raise StoreUnavailable(str(self.server)) from error
            except _REFUSED as error:  # rolled back, or never begun: the worker goes on
                fault = next(kind for refused, kind in _REFUSALS if isinstance(error, refused))
                raise fault(f"{self.server}: {error}") from error
        raise StoreBusy(str(self.server))

    def _transaction(
        self, worker: _Worker, care: _Care, body: Callable[[PgConnection], T]
    ) -> T:
        """In the worker's greenlet: the body in the worker's open transaction, then COMMIT (a
        write's on the caller's path, a read's after it); ROLLBACK if it raises."""
        conn = worker.connection()  # cannot connect: the caller says the store is unavailable
        try:
            opened = worker.open()
        except UNAVAILABLE as error:  # the server closed it while it was idle
            raise _Reconnect from error
        tx = PgConnection(conn, care=care, round_trips=opened,
                          prepared=worker.prepared, writes=worker.begin == WRITE,
                          ids=worker.ids)
        try:
            try:
                answer = body(tx)
            except BaseException as error:
                if tx.trusting() and tx.failure is None:
                    self._verify(worker, tx)
                if tx.statements == 0 and tx.failure is None:
                    raise  # nothing was sent: the open transaction serves the next one
                worker.end("ROLLBACK")
                if tx.statements == 0 and isinstance(tx.failure, UNAVAILABLE):
                    # The connection was lost before the first statement (the server ended
                    # a session left open in an idle moment): nothing was done.
                    raise _Reconnect from error
                self._again(tx, error)
                raise
            if tx.failure is not None:  # the body caught an error: the transaction is void
                worker.end("ROLLBACK")
                self._again(tx, None)
                raise tx.failure
            if tx.statements == 0 and not tx.held:
                return answer  # nothing ran: the open transaction serves the next one
            self._commit(worker, tx)
        except _RACES as error:  # at COMMIT, or in what was held back until it
            worker.end("ROLLBACK")
            raise _Again(care) from error
        finally:
            self.round_trips += tx.round_trips
        return answer

    @staticmethod
    def _verify(worker: _Worker, tx: PgConnection) -> None:
        """The body raised after answers given on trust (checked writes held back): send
        what is held, so that a wrong answer runs the body again exactly rather than its
        error standing on a guess. Nothing is committed either way."""
        try:
            tx.send()
        except UNAVAILABLE:
            raise
        except BaseException as failed:
            worker.end("ROLLBACK")
            if isinstance(failed, _REFUSED):  # the server's answer stands (_again)
                raise
            raise _Again(tx.care if isinstance(failed, _RACES) else _Care.EXACT) from failed

    def _commit(self, worker: _Worker, tx: PgConnection) -> None:
        """A write's COMMIT, sent with what the body held back (one round trip); a
        read's is sent before the next BEGIN."""
        if worker.begin != WRITE:
            tx.send()  # a read holds nothing back (it writes nothing): empty
            worker.end("COMMIT")
            return
        if tx.statements == 0 and not tx.alive():
            # The session open since an idle moment was ended by the server meanwhile;
            # nothing of this transaction was sent: run it again on a new one.
            raise _Reconnect
        worker.xid = None
        try:
            tx.run(f"{TELL_XID};\nCOMMIT")
        except asyncpg.InternalClientError as error:
            if tx.statements == 0:
                # asyncpg refused to send it (the server's last words on the ended
                # session are still being read, as alive() could not see yet): nothing
                # of this transaction was done.
                raise _Reconnect from error
            raise
        except _RACES:
            raise
        except UNAVAILABLE as error:  # the COMMIT may have gone through all the same
            if not self._committed(worker, error):
                raise
            worker.drop()  # its session is lost, or busy with the COMMIT's late answer
            return
        except BaseException as error:  # a held-back statement failed, or a check missed
            worker.end("ROLLBACK")
            self._again(tx, error)
            raise
        worker.committed()

    def _committed(self, worker: _Worker, error: BaseException) -> bool:
        """Whether a write whose COMMIT went unanswered (``error``) was committed all the
        same, as the server tells a new session (``txid_status``); False when it was
        rolled back or that cannot be known in time (:data:`OUTCOME_TIMEOUT`)."""
        wait(asyncio.sleep(0))  # the notices already read are handed to heard()
        xid = worker.xid
        if xid is None:  # none told: the message never ran, or the transaction wrote nothing
            return False
        try:
            status = wait(asyncio.wait_for(_outcome(self.url, xid), OUTCOME_TIMEOUT))
        except (*UNAVAILABLE, asyncpg.PostgresError) as failed:
            log.warning("%s: whether transaction %d committed is not known (%s): %s",
                        self.server, xid, failed, error)
            return False
        log.warning("%s: the answer to transaction %d's COMMIT was lost (%s); it is %s",
                    self.server, xid, error, status or "not known")
        return status == "committed"

    @staticmethod
    def _again(tx: PgConnection, raised: BaseException | None) -> None:
        """Raise :class:`_Again` when the transaction should run again: it lost a race; or
        what failed was held back, or a check missed (again, each statement answered when
        it runs); or its body went on after a statement's error, which voids a PostgreSQL
        transaction (again with a savepoint per statement, as SQLite would have gone on).
        Not when the server refused the work (:data:`_REFUSALS`): run again, it would
        refuse it again, a lock held by another program after waiting for it once more."""
        if isinstance(tx.failure, _REFUSED):
            return
        if isinstance(tx.failure, _RACES):
            raise _Again(tx.care) from tx.failure
        if tx.displaced and tx.care is _Care.TRUSTING:
            raise _Again(_Care.EXACT) from tx.failure
        if tx.failure is not None and tx.failure is not raised and tx.care < _Care.CAREFUL:
            raise _Again(_Care.CAREFUL) from tx.failure


async def _outcome(url: str, xid: int) -> str | None:
    """What became of transaction ``xid``, asked on a new session: ``committed``,
    ``aborted``, or None when the server no longer knows. A transaction still ``in
    progress`` (its session's end not yet noticed by the server) is asked about again
    until it is over (the caller bounds the wait)."""
    conn = await asyncpg.connect(url, timeout=OUTCOME_TIMEOUT, command_timeout=OUTCOME_TIMEOUT)
    try:
        while True:
            status: str | None = await conn.fetchval("SELECT txid_status($1)", xid)
            if status != "in progress":
                return status
            await asyncio.sleep(0.05)
    finally:
        conn.terminate()


def _advice(error: BaseException) -> str:
    """What the operator can do about a start-up error, after its reason; empty when it
    says enough alone."""
    if isinstance(error, asyncpg.InsufficientPrivilegeError):
        return (
            " (the bot's user creates its tables: make it the database's owner, or"
            " GRANT CREATE ON SCHEMA public TO it)"
        )
    return ""


def _reason(error: BaseException, url: str) -> str:
    """An error's text without the URL's password (asyncpg may quote the DSN)."""
    text = str(error) or type(error).__name__
    password = urlsplit(url).password if "@" in url else None
    if password:
        text = text.replace(password, "***")
    return text


# --- migrations ------------------------------------------------------------------------------


async def migrate(conn: asyncpg.Connection, directory: Path) -> list[int]:
    """Apply every pending migration of ``directory`` in order, under an advisory lock:
    processes starting together apply each exactly once (the others wait, then find it
    applied). Each file and its version record commit together."""
    migrations = discover(directory)
    if not await conn.fetchval("SELECT pg_try_advisory_lock($1)", MIGRATION_LOCK):
        log.info("waiting for another bot process to apply the migrations")
        try:
            await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK,
                               timeout=MIGRATION_TIMEOUT)
        except TimeoutError:
            msg = (
                f"another bot process has held the migrations' lock for {MIGRATION_TIMEOUT:.0f}"
                " s: it may be stuck applying them; stop it, then start again"
            )
            raise MigrationError(msg) from None
    try:
        # Created only when missing: CREATE TABLE IF NOT EXISTS needs the right to create
        # tables even then, which a user running a database migrated by its owner lacks.
        if await conn.fetchval("SELECT to_regclass('schema_version')") is None:
            await conn.execute(
                "CREATE TABLE schema_version ("
                " version INTEGER PRIMARY KEY,"
                " name TEXT NOT NULL,"
                " applied_at TIMESTAMPTZ NOT NULL DEFAULT now())"
            )
        done = {row["version"] for row in await conn.fetch("SELECT version FROM schema_version")}
        refuse_unknown(done, migrations, directory)
        applied: list[int] = []
        for migration in migrations:
            if migration.version not in done:
                await _apply(conn, migration)
                log.info("applied migration %s", migration.name)
                applied.append(migration.version)
        return applied
    finally:
        if not conn.is_closed():
            await conn.execute("SELECT pg_advisory_unlock($1)", MIGRATION_LOCK)


def _has_statements(script: str) -> bool:
    """Whether a migration holds anything besides ``--`` comment lines and blanks."""
    return any(line.strip() and not line.strip().startswith("--")
               for line in script.splitlines())


async def _apply(conn: asyncpg.Connection, migration: Migration) -> None:
    try:
        async with conn.transaction():
            # No parameters: the simple protocol runs the whole file as one script. A file
            # of comments only (nothing for PostgreSQL) is not sent: the server would answer
            # it with an empty result that asyncpg cannot read.
            script = migration.sql
            if _has_statements(script):
                await conn.execute(script, timeout=MIGRATION_TIMEOUT)
            await conn.execute(
                "INSERT INTO schema_version (version, name) VALUES ($1, $2)",
                migration.version, migration.name,
            )
    except asyncpg.PostgresError as error:
        msg = f"migration {migration.name} failed and was rolled back: {error}"
        raise MigrationError(msg) from error
