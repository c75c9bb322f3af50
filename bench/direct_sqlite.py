"""aiosqlite's connection surface, as the store uses it, run on the calling thread.

For measurements only (bench/bench_store.py, ``bench.whatif direct-store``): the bot's own
repository code runs unchanged on a plain ``sqlite3`` connection, so a statement costs
what SQLite takes instead of a round trip to aiosqlite's thread. It models "no thread
hop per statement", the upper bound of running each transaction in one hop.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Generator
from pathlib import Path
from types import TracebackType
from typing import Any


class _DirectCursor:
    """What ``aiosqlite.Connection.execute`` returns: awaitable and an async context."""

    def __init__(self, cursor: sqlite3.Cursor) -> None:
        self._cursor = cursor

    def __await__(self) -> Generator[Any, None, sqlite3.Cursor]:
        return self._ready().__await__()

    async def _ready(self) -> sqlite3.Cursor:
        return self._cursor

    async def __aenter__(self) -> sqlite3.Cursor:
        return self._cursor

    async def __aexit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self._cursor.close()


class DirectConnection:
    """The part of aiosqlite's connection the store uses, run on the calling thread.

    Models "no thread hop per statement": the bot's own repository code runs unchanged,
    each statement blocking the event loop for the few microseconds SQLite takes.
    """

    def __init__(self, path: Path, *, synchronous: str | None = None) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        # The store's own settings (bot/store/store.py Store.open), migrations already applied.
        pragmas = ["journal_mode = WAL", "foreign_keys = ON", "busy_timeout = 5000"]
        if synchronous:
            pragmas.append(f"synchronous = {synchronous}")
        for pragma in pragmas:
            self._conn.execute(f"PRAGMA {pragma}").fetchall()

    def execute(self, sql: str, params: Any = ()) -> _DirectCursor:
        return _DirectCursor(self._conn.execute(sql, params))

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()
