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


def prepare_folder(database: Path) -> None:
    """Make the database file's folder, or raise :class:`StoreError` saying in one line
    what is wrong with ``DATABASE_PATH`` and how to set it right: a folder where the file
    should be, a file where a folder should be, a folder that cannot be made or written
    in, where SQLite said only "unable to open database file" (or the lock file an
    errno)."""
    fix = "set DATABASE_PATH to a file in a folder this user may write, then start again."
    if database.is_dir():
        msg = (f"DATABASE_PATH {database} is a folder, not a file: set it to a file in that"
               f" folder ({database / 'bot.sqlite3'}, made at the first start), then start"
               " again.")
        raise StoreError(msg)
    # The nearest folder that is there (or a file in the way of the folders to make).
    there = next((folder for folder in database.parents if folder.exists()), None)
    if there is not None and not there.is_dir():
        msg = f"DATABASE_PATH {database} is inside {there}, which is a file, not a folder: {fix}"
        raise StoreError(msg)
    try:
        database.parent.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        msg = (f"DATABASE_PATH {database}: its folder {database.parent} cannot be made"
               f" ({error.strerror}): make it, or {fix}")
        raise StoreError(msg) from error
    if not os.access(database.parent, os.W_OK | os.X_OK):  # the file, its WAL beside it
        msg = (f"DATABASE_PATH {database}: this user may not write in its folder"
               f" {database.parent}: let them (chown or chmod), or {fix}")
        raise StoreError(msg)


def lock_path(database: Path) -> Path:
    """The lock file beside the database file."""
    return database.with_name(database.name + ".lock")


@contextmanager
def exclusive_use(database: Path) -> Iterator[None]:
    """Hold the database file's lock while the block runs; :class:`StoreError` when another
    process holds it (or the lock file cannot be made)."""
    path = lock_path(database)
    prepare_folder(database)
    try:
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
