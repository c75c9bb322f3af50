"""The store: the bot's only SQL, behind typed repositories (STYLE.md points 10–11).

It takes and returns engine models (the table's records are in
:mod:`engine.records`), never discord objects; ids are Discord snowflakes as ints.
"""

from bot.store.errors import (
    StoreBusy,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnavailable,
)
from bot.store.migrations import MIGRATIONS_DIR, MigrationError
from bot.store.rolls import MAX_HISTORY
from bot.store.store import Conflict, PostgresStore, Store, Tx, watching_writes

__all__ = [
    "MAX_HISTORY",
    "MIGRATIONS_DIR",
    "Conflict",
    "MigrationError",
    "PostgresStore",
    "Store",
    "StoreBusy",
    "StoreError",
    "StoreFull",
    "StoreLocked",
    "StoreReadOnly",
    "StoreUnavailable",
    "Tx",
    "watching_writes",
]
