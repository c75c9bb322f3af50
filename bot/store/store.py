"""The store: one SQLite connection, one trip per transaction, typed repositories.

A flow hands the store a plain function of the transaction's repositories::

    config, pool = await store.read(lambda tx: (tx.settings.config(g, c), tx.will.get(g, u)))
    roll_id = await store.write(lambda tx: apply(tx, decision))

The function runs whole in the database's own thread, between BEGIN and
COMMIT (ROLLBACK, re-raised, when it raises): one trip from the event loop
however many statements it runs, and nothing else can interleave with it, so
a read-modify-write inside one ``write`` is atomic. A write that finds the
state changed since its flow read it raises :class:`Conflict` (rolled back)
with the engine's reason, which the flow answers.

``Store.open`` takes the SQLite file's path, or a ``postgresql://`` URL: then the
same bodies run on PostgreSQL (:class:`PostgresStore`, bot/store/postgres.py) with
the same guarantees.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import sqlite3
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.store.actions import ActionRepository
from bot.store.attempts import AttemptRepository
from bot.store.characters import CharacterRepository
from bot.store.errors import StoreError
from bot.store.initiative import InitiativeRepository
from bot.store.lock import prepare_folder
from bot.store.migrations import MIGRATIONS_DIR, migrate
from bot.store.postgres import PgEngine, is_postgres_url
from bot.store.repository import Connection, Queries
from bot.store.rolls import RollRepository
from bot.store.saved import SavedRollRepository
from bot.store.settings import SettingsRepository
from bot.store.stats import StatsRepository
from bot.store.will import WillRepository

log = logging.getLogger(__name__)

#: STRICT tables need 3.37; RETURNING needs 3.35.
MIN_SQLITE = (3, 37, 0)

#: Milliseconds a write waits for a lock held by another program once the bot serves members.
BUSY_TIMEOUT_MS = 1000

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Tx:
    """The repositories of one open transaction. Valid only inside its ``read``/``write``."""

    settings: SettingsRepository
    rolls: RollRepository
    will: WillRepository
    attempts: AttemptRepository
    actions: ActionRepository
    initiative: InitiativeRepository
    characters: CharacterRepository
    stats: StatsRepository
    saved: SavedRollRepository
    queries: Queries


class Conflict(Exception):  # noqa: N818 - a write's answer, not a failure of the code
    """Raised inside :meth:`Store.write` when the state changed since the flow read it
    (a second press, a stale card): the transaction is rolled back and ``reason`` (an
    engine refusal or a store reason the flow understands) goes to the flow."""

    def __init__(self, reason: object) -> None:
        super().__init__(reason)
        self.reason = reason


def build_tx(raw: Connection) -> Tx:
    """The repositories over one connection (SQLite's, or a PostgreSQL transaction's)."""
    characters = CharacterRepository(raw)
    will = WillRepository(raw, characters)
    stats = StatsRepository(raw)
    return Tx(
        settings=SettingsRepository(raw),
        rolls=RollRepository(raw, stats),
        will=will,
        attempts=AttemptRepository(raw),
        actions=ActionRepository(raw),
        initiative=InitiativeRepository(raw),
        characters=characters,
        stats=stats,
        saved=SavedRollRepository(raw),
        queries=Queries(raw),
    )


class Store:
    """The bot's only access to its database. Build it with :meth:`open`."""

    #: Which database, for the start-up log (never a password).
    describe = "SQLite"

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        # aiosqlite made this connection in its worker thread; every transaction body
        # runs there too (see _in_thread), so it is only ever used from that thread.
        raw = conn._conn
        self._raw = raw
        self._tx = build_tx(raw)
        #: Trips to the database thread so far (the load benchmark reports them per command).
        self.trips = 0

    @property
    def round_trips(self) -> int:
        """Round trips to the database server so far: SQLite has none beyond its trips."""
        return self.trips

    @classmethod
    async def open(cls, path: Path | str, migrations: Path | None = None) -> Store:
        """Open (or create) the database file and bring its schema up to date.

        Creates the parent folder, switches to WAL, turns foreign keys on and
        applies pending migrations; raises :class:`StoreError` (the file cannot be
        opened or used) or :class:`bot.store.migrations.MigrationError` when the bot
        must not start. A ``postgresql://`` URL opens :class:`PostgresStore` instead
        (its migrations are ``migrations/postgres``).
        """
        if is_postgres_url(path):
            return await PostgresStore.connect(str(path), migrations)
        migrations = MIGRATIONS_DIR if migrations is None else migrations
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            msg = (
                f"SQLite {'.'.join(map(str, MIN_SQLITE))} or newer is needed,"
                f" this Python has {sqlite3.sqlite_version}"
            )
            raise StoreError(msg)
        path = Path(path)
        prepare_folder(path)
        # Autocommit mode: the store issues BEGIN/COMMIT itself, never the sqlite3 module.
        conn = aiosqlite.connect(path, isolation_level=None)
        try:
            await conn
        except (OSError, sqlite3.Error) as error:  # a folder in the way, no permission, ...
            if conn._thread.ident is not None:
                # aiosqlite stops its thread after a failed connect without waiting for it;
                # left alone, the thread may answer once the event loop is closed.
                await asyncio.to_thread(conn._thread.join)
            msg = f"{path} cannot be opened: {error}"
            raise StoreError(msg) from error
        try:
            conn.row_factory = aiosqlite.Row
            rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = next(iter(rows))[0]
            if mode != "wal":
                msg = f"{path} cannot use write-ahead logging (journal mode {mode!r})"
                raise StoreError(msg)
            await conn.execute("PRAGMA foreign_keys = ON")
            # In WAL mode NORMAL keeps the file consistent and loses nothing when the bot
            # crashes or is killed (a test kills it under load); only a power cut or an OS
            # crash can lose the last commits. FULL would fsync every roll: several times
            # the cost of a whole interaction (BENCHMARKS.md §1.4).
            await conn.execute("PRAGMA synchronous = NORMAL")
            # Milliseconds a statement waits for another process's write lock. Start-up
            # has nobody waiting for an answer, so migrations may wait 5 s.
            await conn.execute("PRAGMA busy_timeout = 5000")
            applied = await migrate(conn, migrations)
            # From here on a member waits: Discord drops an interaction not answered within
            # 3 s, so a write blocked by another program gives up after BUSY_TIMEOUT_MS and
            # the member is told the database is busy (bot.edge.errors) while there is still time.
            # (A PRAGMA takes no parameters: the literal must match BUSY_TIMEOUT_MS.)
            await conn.execute("PRAGMA busy_timeout = 1000")
        except sqlite3.Error as error:  # not a database, locked, read-only and new, ...
            await conn.close()
            msg = f"{path} cannot be used: {error}"
            raise StoreError(msg) from error
        except BaseException:
            await conn.close()
            raise
        log.info("store open: SQLite file %s (%d migrations applied now)", path, len(applied))
        store = cls(conn)
        store.describe = f"SQLite file {path}"
        return store

    async def close(self) -> None:
        """Close the connection once the transactions already queued are over."""
        await self._conn.close()

    async def warm(self) -> None:
        """Open ahead what the first commands would open (PostgreSQL's connections);
        SQLite's one connection is open already."""

    async def read(self, body: Callable[[Tx], T]) -> T:
        """Run ``body`` in a read transaction (a consistent view): one trip."""
        return await self._in_thread("BEGIN", body)

    async def write(self, body: Callable[[Tx], T]) -> T:
        """Run ``body`` in a write transaction (``BEGIN IMMEDIATE``): one trip. COMMIT when
        it returns; ROLLBACK and re-raise when it raises (:class:`Conflict` included)."""
        answer = await self._in_thread("BEGIN IMMEDIATE", body)
        _committed()
        return answer

    async def _in_thread(self, begin: str, body: Callable[[Tx], T]) -> T:
        self.trips += 1
        body = carried(body)
        # aiosqlite runs queued functions one at a time in its thread: its public calls
        # are one statement each, so the whole transaction is queued as one function
        # (aiosqlite's own queueing call; the version range is pinned in pyproject.toml).
        return await self._conn._execute(self._transaction, begin, body)  # type: ignore[no-untyped-call,no-any-return]

    def _transaction(self, begin: str, body: Callable[[Tx], T]) -> T:
        """In the database thread: BEGIN, the body, COMMIT; ROLLBACK if it raises."""
        self._raw.execute(begin)
        try:
            answer = body(self._tx)
            self._raw.execute("COMMIT")
        except BaseException:
            if self._raw.in_transaction:
                self._raw.rollback()
            raise
        return answer


class Writes:
    """Whether a write transaction committed while it was watched (:func:`watching_writes`)."""

    __slots__ = ("committed",)

    def __init__(self) -> None:
        self.committed = False


_watched: contextvars.ContextVar[Writes | None] = contextvars.ContextVar("watched", default=None)


@contextmanager
def watching_writes() -> Iterator[Writes]:
    """Watch the writes made in this context (a flow, awaited inside): ``committed`` once
    one of them committed. A flow that only read changed nothing, so an answer Discord
    lost may simply be asked again (bot.flows.reply.run)."""
    writes = Writes()
    token = _watched.set(writes)
    try:
        yield writes
    finally:
        _watched.reset(token)


def _committed() -> None:
    """A write committed: the watcher of this context, if any, knows it."""
    writes = _watched.get()
    if writes is not None:
        writes.committed = True


def carried(body: Callable[[Tx], T]) -> Callable[[Tx], T]:
    """The body run in the caller's context variables (the language a flow speaks in),
    which the database's thread (SQLite) or a worker's greenlet (PostgreSQL) does not
    otherwise see."""
    context = contextvars.copy_context()
    return lambda tx: context.run(body, tx)


class PostgresStore(Store):
    """The same store on PostgreSQL: each body runs in a greenlet on the event loop, its
    statements awaited there (bot/store/postgres.py, bot/store/greenlets.py)."""

    def __init__(self, engine: PgEngine) -> None:  # no SQLite connection: no super()
        self._engine = engine
        self.trips = 0
        self.describe = str(engine.server)

    @classmethod
    async def connect(cls, url: str, migrations: Path | None = None) -> PostgresStore:
        """Connect to ``url`` and apply ``migrations`` (default ``migrations/postgres``)."""
        folder = MIGRATIONS_DIR / "postgres" if migrations is None else migrations
        return cls(await PgEngine.connect(url, folder))

    @property
    def round_trips(self) -> int:
        """Round trips to the server so far while a caller waited: statements, a write's
        COMMIT, and BEGIN when the worker had no idle moment to send it before (the
        engine's ``idle_round_trips`` are the others)."""
        return self._engine.round_trips

    async def close(self) -> None:
        await self._engine.close()

    async def warm(self) -> None:
        """Connect every worker now (at start-up), so that no member's command waits for
        a connection: each reader by a read that waits for the others (no reader takes
        two), the writer by an empty write. Idle, each then begins its next transaction
        ahead. :class:`StoreUnavailable` when the server cannot be reached."""
        await self._engine.warm()

    async def _on_worker(self, body: Callable[[Tx], T], *, write: bool) -> T:
        self.trips += 1
        body = carried(body)
        # Writes (SERIALIZABLE) run one at a time in this process (bot/store/postgres.py).
        return await self._engine.run(lambda conn: body(build_tx(conn)), write=write)

    async def read(self, body: Callable[[Tx], T]) -> T:
        """Run ``body`` in one consistent view of the database (REPEATABLE READ)."""
        return await self._on_worker(body, write=False)

    async def write(self, body: Callable[[Tx], T]) -> T:
        """Run ``body`` as if alone (SERIALIZABLE, re-run after a lost race, bounded)."""
        answer = await self._on_worker(body, write=True)
        _committed()
        return answer
