"""aiosqlite's connection surface, as the store uses it, run on the calling thread.

For measurements only (bench/bench_store.py, ``bench.whatif direct-store``): the store's
own transactions (:meth:`bot.store.Store.read` and ``write``) run unchanged on a plain
``sqlite3`` connection in the event loop's thread, so a transaction costs what SQLite
takes instead of its one trip to aiosqlite's thread. It models "no thread hop at all",
the upper bound of the store's "one hop per transaction".
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Generator
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

    Models "no thread hop": the store's transaction bodies run unchanged, each blocking
    the event loop for the time SQLite takes.
    """

    def __init__(self, path: Path, *, synchronous: str | None = None) -> None:
        self._conn = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        self._conn.row_factory = sqlite3.Row
        # The store's own settings (bot/store/store.py Store.open), migrations already applied.
        pragmas = [
            "journal_mode = WAL",
            "foreign_keys = ON",
            f"synchronous = {synchronous or 'NORMAL'}",
            "busy_timeout = 1000",
        ]
        for pragma in pragmas:
            self._conn.execute(f"PRAGMA {pragma}").fetchall()

    async def _execute(self, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
        """What the store queues on aiosqlite's thread (a whole transaction), run here."""
        return fn(*args, **kwargs)

    def execute(self, sql: str, params: Any = ()) -> _DirectCursor:
        return _DirectCursor(self._conn.execute(sql, params))

    async def execute_fetchall(self, sql: str, params: Any = ()) -> list[sqlite3.Row]:
        return self._conn.execute(sql, params).fetchall()

    async def rollback(self) -> None:
        self._conn.rollback()

    async def close(self) -> None:
        self._conn.close()
