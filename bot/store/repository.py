"""The base of every repository: SQL with parameters on the transaction's connection.

Repositories are synchronous: a whole transaction (its reads, the engine's
decision when the flow makes it inside, and its writes) runs as one function
in the database's own thread, so it costs one trip from the event loop
(:meth:`bot.store.Store.read` and :meth:`bot.store.Store.write`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Generic, Protocol, TypeVar

Params = Sequence[Any] | Mapping[str, Any]
"""Positional (``?``) or named (``:name``) parameters."""

T = TypeVar("T")
U = TypeVar("U")
V = TypeVar("V")
W = TypeVar("W")
X = TypeVar("X")


def stamp() -> tuple[str, datetime]:
    """Now, as the stores write time stamps (UTC, milliseconds) and as a record holds it:
    for a row stored with its time stamps given (an id reserved ahead)."""
    now = datetime.now(UTC)
    now = now.replace(microsecond=now.microsecond // 1000 * 1000)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond // 1000:03d}Z", now


@dataclass(frozen=True, slots=True)
class Query(Generic[T]):
    """A one-row read as data: its text (positional ``?`` parameters), its parameters,
    and how its row (None when there is none) becomes an answer. A repository method that
    runs a read alone builds one too, so :meth:`Queries.both` can send two as one statement
    (one round trip on PostgreSQL) and each is still parsed by its own repository."""

    sql: str
    params: tuple[Any, ...]
    parse: Callable[[Any], T]


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who reads, for a read that decides in SQL whether they see what only a Storyteller
    sees (others' secret rolls, every sheet), so that it needs no settings read first.

    Its statement says, in literal text, ``(? = 1 OR ? LIKE '%,' || (SELECT
    CAST(storyteller_role_id AS TEXT) FROM guild_settings WHERE guild_id = ?) || ',%')``
    with :meth:`params`: a Storyteller whatever the settings (``storyteller``: Manage
    Channels), or one by the server's Storyteller role (among ``role_ids``), as
    ``bot.flows.context.Ctx.storyteller`` decides from the settings read."""

    guild_id: int
    user_id: int
    storyteller: bool
    role_ids: frozenset[int] = frozenset()

    def params(self) -> tuple[int, str, int]:
        """The Storyteller test's parameters: the flag, the roles each between commas
        (``,12,77,``, so that a role is matched whole), the server."""
        roles = "".join(f"{role}," for role in sorted(self.role_ids))
        return int(self.storyteller), "," + roles, self.guild_id


class Cursor(Protocol):
    """What a statement answers: its rows, or how many rows it changed."""

    @property
    def rowcount(self) -> int: ...

    def fetchall(self) -> list[Any]: ...


class Connection(Protocol):
    """The transaction's connection as the repositories use it: ``sqlite3.Connection``,
    or the PostgreSQL store's (bot.store.postgres.PgConnection), which takes the same
    SQLite-dialect text and translates it (bot.store.dialect)."""

    def execute(self, sql: str, parameters: Params = (), /) -> Cursor: ...

    def executemany(self, sql: str, parameters: Iterable[Params], /) -> Cursor: ...


class Repository:
    """SQL helpers shared by the repositories.

    A repository only ever runs inside a transaction that the store opened:
    it never begins or commits anything itself, so one flow can combine
    several calls in one transaction.
    """

    def __init__(self, conn: Connection) -> None:
        self._conn = conn

    def _one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row, with the statement finished (so COMMIT never meets it running)."""
        rows = self._conn.execute(sql, params).fetchall()
        return next(iter(rows), None)

    def _all(
        self, sql: str, params: Params = (), *, postgres: str | None = None
    ) -> list[sqlite3.Row]:
        """Every row. ``postgres``: the statement's PostgreSQL text, for the few that
        SQLite's dialect cannot say portably (its JSON functions); both are literal."""
        if postgres is not None and not isinstance(self._conn, sqlite3.Connection):
            sql = postgres
        return list(self._conn.execute(sql, params).fetchall())

    def _run(self, sql: str, params: Params = ()) -> int:
        """Run a statement; the number of rows it changed."""
        return self._conn.execute(sql, params).rowcount

    def _do(self, sql: str, params: Params = ()) -> None:
        """Run a write whose row count nobody reads: PostgreSQL holds it back and sends it
        with the transaction's next statement that answers, or with its COMMIT."""
        self._conn.execute(sql, params)

    def _changes_one(self, sql: str, params: Params = ()) -> bool:
        """A conditional write (a version, a count as it was read): whether it changed
        exactly one row. PostgreSQL holds it back, answers True and has the server check
        it; a miss there runs the transaction again, statement by statement, where this
        answers False as SQLite does (bot.store.postgres.PgConnection.changes_one)."""
        held = getattr(self._conn, "changes_one", None)  # not sqlite3.Connection's
        if held is not None:
            return bool(held(sql, params))
        return self._conn.execute(sql, params).rowcount == 1

    def _reserved_id(self, table: str) -> int | None:
        """An id PostgreSQL reserved for the next row stored in ``table``
        (PgConnection.reserved_id): a row stored with it (and its time stamps) needs
        nothing read back, and goes with the transaction's COMMIT. None on SQLite, whose
        ``INSERT ... RETURNING`` costs no trip of its own."""
        reserved = getattr(self._conn, "reserved_id", None)  # not sqlite3.Connection's
        found = None if reserved is None else reserved(table)
        return None if found is None else int(found)

    def _from_sequence(self, table: str) -> None:
        """The next row stored in ``table`` takes its id from the sequence, its INSERT
        unable to name one (PgConnection.from_sequence); nothing on SQLite."""
        dropping = getattr(self._conn, "from_sequence", None)  # not sqlite3.Connection's
        if dropping is not None:
            dropping(table)

    def _read(self, query: Query[T]) -> T:
        """A one-row read given as a query, alone: its row (None when there is none),
        parsed."""
        return query.parse(self._one(query.sql, query.params))

    def _read_rows(self, query: Query[V | None]) -> list[V]:
        """A read of any number of rows given as a query, alone: each parsed."""
        return _rows(self._all(query.sql, query.params), query)

    def _both(self, first: Query[T], second: Query[U]) -> tuple[T, U]:
        """Two one-row reads in one statement (one round trip on PostgreSQL): ``first``
        must always answer one row (a read from a key row, as the settings are);
        ``second`` is joined to it, so when it has no row its columns come back NULL (its
        parser tells that from its key column)."""
        row = self._joined(first, second)[0]
        return first.parse(row), second.parse(row)

    def _beside_rows(self, first: Query[T], rows: Query[V | None]) -> tuple[T, list[V]]:
        """A one-row read and the rows of another (none, one or several) in one
        statement; ``rows`` parses a row with its columns NULL (it had none) as None."""
        joined = self._joined(first, rows)
        return first.parse(joined[0]), _rows(joined, rows)

    def _joined(self, *queries: Query[Any]) -> list[Any]:
        """The rows of reads joined side by side in one statement: the first answers one
        row, the others are joined to it (NULL columns when one has no row; a row each
        when the last has several). Their columns must be named apart: a name in two
        would hide one of them, so it is refused."""
        joined = " LEFT JOIN ".join(
            f"({query.sql}) AS storybot_{n}" + (" ON 1 = 1" if n else "")
            for n, query in enumerate(queries)
        )
        sql = f"SELECT * FROM {joined}"  # noqa: S608 - the store's own text
        rows = self._all(sql, tuple(value for query in queries for value in query.params))
        if not rows:
            msg = "the first of combined reads answered no row"
            raise LookupError(msg)
        names = list(rows[0].keys())
        if len(set(names)) != len(names):
            msg = f"combined reads name the same columns: {sorted(names)}"
            raise ValueError(msg)
        return rows

    def _expected(
        self, sql: str, params: Params, expected: Mapping[str, Any] | None
    ) -> Any:
        """A one-row read whose row the flow already read in an earlier transaction
        (``expected``, or None). On PostgreSQL it is answered with that row on trust, and
        the server checks it with the writes held back until COMMIT (a miss runs the
        transaction again, where it is read: bot.store.postgres.PgConnection.expects), so
        it costs no round trip; SQLite reads it, in the trip it is in anyway."""
        held = getattr(self._conn, "expects", None)  # not sqlite3.Connection's
        if expected is not None and held is not None:
            answered = held(sql, params, expected)
            if answered is not None:
                return answered
        return self._one(sql, params)

    def _returning(self, sql: str, params: Params = ()) -> sqlite3.Row:
        """The row of an INSERT ... RETURNING (or of an update known to match)."""
        row = self._one(sql, params)
        if row is None:
            msg = f"expected a row from: {sql}"
            raise LookupError(msg)
        return row


class Queries(Repository):
    """Reads of several repositories in one statement."""

    def reserve(self, **rows: int) -> None:
        """Ids ahead for the rows a write is about to store (``rolls=2, actions=1``): on
        PostgreSQL taken together, in one round trip at most (PgConnection.reserve), so
        that each is then stored with nothing read back; nothing on SQLite."""
        reserve = getattr(self._conn, "reserve", None)  # not sqlite3.Connection's
        if reserve is not None:
            reserve(rows)

    def one(self, query: Query[T]) -> T:
        """A read of another repository's, alone."""
        return self._read(query)

    def both(self, first: Query[T], second: Query[U]) -> tuple[T, U]:
        """Two one-row reads in one statement (Repository._both)."""
        return self._both(first, second)

    def beside_rows(self, first: Query[T], rows: Query[V | None]) -> tuple[T, list[V]]:
        """A one-row read and the rows of another in one statement
        (Repository._beside_rows)."""
        return self._beside_rows(first, rows)

    def with_rows(
        self, first: Query[T], second: Query[U], rows: Query[V | None]
    ) -> tuple[T, U, list[V]]:
        """:meth:`both`, and the rows of a third read (none, one or several), in one
        statement; ``rows`` parses a row with its columns NULL (it had none) as None."""
        joined = self._joined(first, second, rows)
        return first.parse(joined[0]), second.parse(joined[0]), _rows(joined, rows)

    def three_with_rows(
        self, first: Query[T], second: Query[U], third: Query[W], rows: Query[V | None]
    ) -> tuple[T, U, W, list[V]]:
        """:meth:`with_rows` with a third one-row read beside the first two."""
        joined = self._joined(first, second, third, rows)
        return (first.parse(joined[0]), second.parse(joined[0]), third.parse(joined[0]),
                _rows(joined, rows))

    def four_with_rows(
        self, first: Query[T], second: Query[U], third: Query[W], fourth: Query[X],
        rows: Query[V | None],
    ) -> tuple[T, U, W, X, list[V]]:
        """:meth:`three_with_rows` with a fourth one-row read beside the first three."""
        joined = self._joined(first, second, third, fourth, rows)
        return (first.parse(joined[0]), second.parse(joined[0]), third.parse(joined[0]),
                fourth.parse(joined[0]), _rows(joined, rows))


def _rows(joined: list[Any], rows: Query[V | None]) -> list[V]:
    """The rows of the last of joined reads, those of NULL columns (none) left out."""
    found = [rows.parse(row) for row in joined]
    return [each for each in found if each is not None]
