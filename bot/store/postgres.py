"""The PostgreSQL backend: the same synchronous repositories, spoken through asyncpg.

A transaction's body is the same plain function of the repositories as on SQLite
(:meth:`bot.store.Store.read`), and it runs whole in one worker thread, as SQLite's
runs in aiosqlite's: one trip from the event loop per transaction. Each worker has
its own event loop and its own connection, so the body's statements go straight to
the server (``run_until_complete`` on the worker's loop) and the repositories keep
ONE copy of their logic. The text they hold is SQLite's dialect;
:mod:`bot.store.dialect` translates it.

Writes go to ONE writer thread, one at a time, as on SQLite: a body that draws dice
(an extended action's Roll) runs only after the write before it committed, so two
presses at once roll once, and no body of this process re-runs for losing to another
of its own. Processes split the guilds (shards), so theirs seldom collide; when they
do, SERIALIZABLE re-runs the loser. Reads run on :data:`READERS` threads at once.

Guarantees, as on SQLite:

- a write runs at ``SERIALIZABLE`` (SQLite runs writes one at a time): a
  read-modify-write inside one ``write`` is atomic, and the conditional updates on
  versions act as there. A serialization failure or a deadlock re-runs the whole
  body, at most :data:`TRIES` times, then the member is told the database is busy;
- a read runs at ``REPEATABLE READ READ ONLY``: one consistent view;
- a statement error that the body catches (a UNIQUE name) aborts a PostgreSQL
  transaction, so the body is re-run once with a savepoint around each statement.

Costs: one round trip per statement, plus ``BEGIN`` and ``COMMIT`` (counted in
:attr:`PgEngine.round_trips`; SQLite's transaction is one trip to its thread).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import queue
import random
import re
import sqlite3
import threading
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Final, TypeVar
from urllib.parse import unquote, urlsplit

import asyncpg

from bot.store.dialect import Translated, arguments, translate
from bot.store.errors import StoreBusy, StoreError, StoreUnavailable
from bot.store.migrations import Migration, MigrationError, discover, refuse_unknown
from bot.store.repository import Params

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Attempts of one transaction before the member is told the database is busy.
TRIES: Final = 12
#: Threads (each with its connection) running read transactions, besides the writer's.
READERS: Final = 4
#: Seconds a statement may take, and a start-up connection attempt.
STATEMENT_TIMEOUT: Final = 10.0
CONNECT_TIMEOUT: Final = 5.0
#: The advisory lock every process takes to apply migrations (any fixed 64-bit key).
MIGRATION_LOCK: Final = 0x5354_4f52_5942_4f54  # "STORYBOT"

_RETURNS_ROWS = re.compile(r"^\s*(SELECT|WITH)\b|\bRETURNING\b", re.IGNORECASE)

#: The connection is gone, or the server cannot take it now: the member may try again.
UNAVAILABLE: tuple[type[BaseException], ...] = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,  # admin shutdown, cannot connect now
)
#: The transaction lost a race with another: re-run it.
_RACES: tuple[type[BaseException], ...] = (
    asyncpg.exceptions.SerializationError,
    asyncpg.exceptions.DeadlockDetectedError,
)


class PgIntegrityError(sqlite3.IntegrityError):
    """A constraint refused a statement (the repositories catch ``sqlite3.IntegrityError``
    for both backends)."""


def is_postgres_url(target: object) -> bool:
    """True for a ``postgresql://`` (or ``postgres://``) connection URL."""
    return isinstance(target, str) and target.startswith(("postgresql://", "postgres://"))


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
    try:
        parts = urlsplit(url)
        port = parts.port or 5432
    except ValueError as error:
        host = url.rsplit("@", maxsplit=1)[-1].split("/", maxsplit=1)[0] or "?"
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


@dataclass
class PgConnection:
    """One transaction's connection as the repositories see it (bot.store.repository.
    Connection), used from the worker thread running the body."""

    conn: asyncpg.Connection
    loop: asyncio.AbstractEventLoop
    careful: bool = False
    round_trips: int = 0
    #: The first error a statement raised (the transaction is aborted from then on).
    failure: BaseException | None = field(default=None)

    def execute(self, sql: str, parameters: Params = (), /) -> _Cursor:
        translated = translate(sql)
        args = arguments(translated, parameters)
        if _RETURNS_ROWS.search(translated.sql):
            rows = self._call(self._fetch(translated, args))
            return _Cursor(list(rows), len(rows))
        return _Cursor([], _changed(self._call(self._status(translated, args))))

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> _Cursor:
        translated = translate(sql)
        batch = [arguments(translated, each) for each in parameters]
        self._call(self._many(translated, batch))
        return _Cursor([], len(batch))

    def run(self, statement: str) -> None:
        """A statement of the store's own (BEGIN, COMMIT, ROLLBACK)."""
        self._call(self.conn.execute(statement))

    def _call(self, work: Any) -> Any:
        """Run a coroutine on this worker thread's own event loop (one round trip)."""
        self.round_trips += 1
        try:
            return self.loop.run_until_complete(work)
        except asyncpg.IntegrityConstraintViolationError as error:
            refused = PgIntegrityError(str(error))
            self.failure = self.failure or refused
            raise refused from error
        except BaseException as error:
            self.failure = self.failure or error
            raise

    async def _fetch(self, translated: Translated, args: list[Any]) -> list[Any]:
        if not self.careful:
            return list(await self.conn.fetch(translated.sql, *args))
        async with self.conn.transaction():  # a savepoint
            return list(await self.conn.fetch(translated.sql, *args))

    async def _status(self, translated: Translated, args: list[Any]) -> str:
        sql = translated.sql
        if not self.careful:
            return str(await self.conn.execute(sql, *args))
        async with self.conn.transaction():
            return str(await self.conn.execute(sql, *args))

    async def _many(self, translated: Translated, batch: list[list[Any]]) -> None:
        sql = translated.sql
        if not self.careful:
            await self.conn.executemany(sql, batch)
            return
        async with self.conn.transaction():
            await self.conn.executemany(sql, batch)


class _Again(Exception):  # noqa: N818 - a signal between two methods, never seen outside
    """Run the transaction again (carefully: with a savepoint per statement)."""

    def __init__(self, *, careful: bool) -> None:
        super().__init__()
        self.careful = careful


class _Reconnect(Exception):  # noqa: N818 - a signal between two methods
    """The connection was found dead at BEGIN (nothing done yet): connect again."""


class _Worker(threading.Thread):
    """A thread with its own event loop and connection, running transactions from a queue
    one at a time (as aiosqlite's thread does for SQLite)."""

    def __init__(self, engine: PgEngine, jobs: queue.SimpleQueue[Any], name: str) -> None:
        super().__init__(name=name, daemon=True)
        self._engine = engine
        self._jobs = jobs
        self.loop = asyncio.new_event_loop()
        self._conn: asyncpg.Connection | None = None

    def run(self) -> None:
        try:
            while (job := self._jobs.get()) is not None:
                job(self)
        finally:
            self.drop()
            self.loop.close()

    def connection(self) -> asyncpg.Connection:
        """This thread's connection, made again when it was lost."""
        if self._conn is None or self._conn.is_closed():
            self._conn = self.loop.run_until_complete(asyncpg.connect(
                self._engine.url, timeout=CONNECT_TIMEOUT, command_timeout=STATEMENT_TIMEOUT,
            ))
        return self._conn

    def drop(self) -> None:
        """Forget the connection (lost, or the store closes)."""
        if self._conn is not None:
            self._conn.terminate()
            self._conn = None


class PgEngine:
    """Worker threads, each with its own connection: one for writes (one at a time, as on
    SQLite), :data:`READERS` for reads. The event loop hands a whole transaction to a
    worker (one trip), whose statements then go straight to the server."""

    def __init__(self, url: str, server: Where) -> None:
        self.url = url
        self.server = server
        self._writes: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._reads: queue.SimpleQueue[Any] = queue.SimpleQueue()
        self._workers = [_Worker(self, self._writes, "pg-write")] + [
            _Worker(self, self._reads, f"pg-read-{n}") for n in range(READERS)
        ]
        for worker in self._workers:
            worker.start()
        #: Round trips to the server so far (statements, BEGIN and COMMIT).
        self.round_trips = 0

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
        finally:
            await conn.close()
        log.info("store open: %s (%d migrations applied now)", server, len(applied))
        return cls(url, server)

    async def close(self) -> None:
        """Close once the transactions already queued are over."""
        for worker in self._workers:
            (self._writes if worker.name == "pg-write" else self._reads).put(None)
        await asyncio.to_thread(self._join)

    def _join(self) -> None:
        for worker in self._workers:
            worker.join()

    async def run(self, begin: str, body: Callable[[PgConnection], T], *, write: bool) -> T:
        """``body`` between ``begin`` and COMMIT in a worker, re-run after a lost race
        (bounded); ROLLBACK and re-raise when it raises.

        A caller cancelled meanwhile does not stop a body once queued (as on SQLite): the
        transaction finishes whole, committed or rolled back."""
        loop = asyncio.get_running_loop()
        answer: asyncio.Future[T] = loop.create_future()

        def settle(outcome: Callable[[], None]) -> None:
            if not answer.done():
                outcome()

        def job(worker: _Worker) -> None:
            try:
                result = self._attempts(worker, begin, body)
            except BaseException as error:  # handed to the caller, whatever it is
                failed = error
                loop.call_soon_threadsafe(settle, lambda: answer.set_exception(failed))
            else:
                loop.call_soon_threadsafe(settle, lambda: answer.set_result(result))

        (self._writes if write else self._reads).put(job)
        return await asyncio.shield(answer)

    def _attempts(self, worker: _Worker, begin: str, body: Callable[[PgConnection], T]) -> T:
        careful = False
        for attempt in range(TRIES):
            try:
                return self._transaction(worker.connection(), worker.loop, careful, begin, body)
            except _Again as again:
                careful = careful or again.careful
                # Spread the retries of colliding transactions apart (at most ~64 ms).
                time.sleep(random.uniform(0, 0.001 * 2 ** min(attempt, 6)))
            except _Reconnect:
                worker.drop()
            except UNAVAILABLE as error:
                worker.drop()
                log.warning("%s unavailable: %s", self.server, error)
                raise StoreUnavailable(str(self.server)) from error
        raise StoreBusy(str(self.server))

    def _transaction(
        self,
        conn: asyncpg.Connection,
        loop: asyncio.AbstractEventLoop,
        careful: bool,
        begin: str,
        body: Callable[[PgConnection], T],
    ) -> T:
        """In a worker thread: BEGIN, the body, COMMIT; ROLLBACK if it raises."""
        tx = PgConnection(conn, loop, careful=careful)
        try:
            try:
                tx.run(begin)
            except UNAVAILABLE as error:  # the server closed it while it was idle
                raise _Reconnect from error
            try:
                answer = body(tx)
            except BaseException as error:
                self._roll_back(tx)
                self._again(tx, error)
                raise
            if tx.failure is not None:  # the body caught an error: the transaction is void
                self._roll_back(tx)
                self._again(tx, None)
                raise tx.failure
            tx.run("COMMIT")
        except _RACES as error:  # at BEGIN or COMMIT
            raise _Again(careful=careful) from error
        finally:
            self.round_trips += tx.round_trips
        return answer

    @staticmethod
    def _again(tx: PgConnection, raised: BaseException | None) -> None:
        """Raise :class:`_Again` when the transaction should run again: it lost a race, or
        its body went on after a statement's error (which voids a PostgreSQL transaction:
        then again with a savepoint per statement, as SQLite would have gone on)."""
        if isinstance(tx.failure, _RACES):
            raise _Again(careful=tx.careful) from tx.failure
        if tx.failure is not None and tx.failure is not raised and not tx.careful:
            raise _Again(careful=True) from tx.failure

    @staticmethod
    def _roll_back(tx: PgConnection) -> None:
        if tx.conn.is_closed():
            return
        with contextlib.suppress(*UNAVAILABLE):
            tx.run("ROLLBACK")


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
    await conn.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS schema_version ("
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


async def _apply(conn: asyncpg.Connection, migration: Migration) -> None:
    try:
        async with conn.transaction():
            # No parameters: the simple protocol runs the whole file as one script.
            script = migration.sql
            await conn.execute(script)
            await conn.execute(
                "INSERT INTO schema_version (version, name) VALUES ($1, $2)",
                migration.version, migration.name,
            )
    except asyncpg.PostgresError as error:
        msg = f"migration {migration.name} failed and was rolled back: {error}"
        raise MigrationError(msg) from error
