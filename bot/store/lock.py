"""One SQLite file, one bot process.

Two processes writing one SQLite file would each answer the same buttons from their own
cache of Discord, and SQLite's locks would make them wait on each other: the bot holds an
exclusive ``flock`` on ``<file>.lock`` for its whole life, so a second process on the same
``DATABASE_PATH`` refuses to start. The kernel drops the lock when the process ends, however
it ends (a kill included), so a stale lock file never blocks a restart. Several processes
share a PostgreSQL database instead (``DATABASE_URL``).
"""

from __future__ import annotations

import fcntl
import os
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from bot.store.errors import StoreError


def lock_path(database: Path) -> Path:
    """The lock file beside the database file."""
    return database.with_name(database.name + ".lock")


@contextmanager
def exclusive_use(database: Path) -> Iterator[None]:
    """Hold the database file's lock while the block runs; :class:`StoreError` when another
    process holds it (or the lock file cannot be made)."""
    path = lock_path(database)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        descriptor = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as error:
        msg = f"{path} cannot be opened: {error}"
        raise StoreError(msg) from error
    try:
        try:
            fcntl.flock(descriptor, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.pread(descriptor, 32, 0).decode(errors="replace").strip()
            msg = (
                f"{database} is in use by another bot process"
                f"{f' (pid {holder})' if holder.isdigit() else ''}: one SQLite file serves one"
                " process. Stop that one, give this one its own DATABASE_PATH, or run several"
                " processes on PostgreSQL (DATABASE_URL)."
            )
            raise StoreError(msg) from None
        os.ftruncate(descriptor, 0)
        os.pwrite(descriptor, f"{os.getpid()}\n".encode(), 0)
        yield
    finally:
        os.close(descriptor)  # closing the last descriptor releases the lock
