"""The base of every repository: SQL with parameters on the transaction's connection."""

from __future__ import annotations

import sqlite3
from collections.abc import Mapping, Sequence
from typing import Any

import aiosqlite

Params = Sequence[Any] | Mapping[str, Any]
"""Positional (``?``) or named (``:name``) parameters."""


class Repository:
    """SQL helpers shared by the repositories.

    A repository only ever runs inside a transaction that
    :meth:`bot.store.Store.transaction` (or ``read``) opened: it never begins
    or commits anything itself, so a caller can combine several calls in one
    transaction.
    """

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def _one(self, sql: str, params: Params = ()) -> sqlite3.Row | None:
        """The first row, with the statement finished (so COMMIT never meets it running)."""
        rows = await self._conn.execute_fetchall(sql, params)
        return next(iter(rows), None)

    async def _all(self, sql: str, params: Params = ()) -> list[sqlite3.Row]:
        return list(await self._conn.execute_fetchall(sql, params))

    async def _run(self, sql: str, params: Params = ()) -> int:
        """Run a statement; the number of rows it changed."""
        async with self._conn.execute(sql, params) as cursor:
            return cursor.rowcount

    async def _returning(self, sql: str, params: Params = ()) -> sqlite3.Row:
        """The row of an INSERT ... RETURNING (or of an update known to match)."""
        row = await self._one(sql, params)
        if row is None:
            msg = f"expected a row from: {sql}"
            raise LookupError(msg)
        return row
