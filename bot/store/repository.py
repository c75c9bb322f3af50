"""The base of every repository: SQL with parameters on the transaction's connection.

Repositories are synchronous: a whole transaction (its reads, the engine's
decision when the flow makes it inside, and its writes) runs as one function
in the database's own thread, so it costs one trip from the event loop
(:meth:`bot.store.Store.read` and :meth:`bot.store.Store.write`).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

Params = Sequence[Any] | Mapping[str, Any]
"""Positional (``?``) or named (``:name``) parameters."""


class Repository:
    """SQL helpers shared by the repositories.

    A repository only ever runs inside a transaction that the store opened:
    it never begins or commits anything itself, so one flow can combine
    several calls in one transaction.
    """

    def __init__(self, conn: sqlite3.Connection) -> None:
        self._conn = conn

    def _one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row, with the statement finished (so COMMIT never meets it running)."""
        rows = self._conn.execute(sql, params).fetchall()
        return next(iter(rows), None)

    def _all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(self._conn.execute(sql, params).fetchall())

    def _run(self, sql: str, params: Params = ()) -> int:
        """Run a statement; the number of rows it changed."""
        return self._conn.execute(sql, params).rowcount

    def _returning(self, sql: str, params: Params = ()) -> sqlite3.Row:
        """The row of an INSERT ... RETURNING (or of an update known to match)."""
        row = self._one(sql, params)
        if row is None:
            msg = f"expected a row from: {sql}"
            raise LookupError(msg)
        return row
