"""Reading the real bot's SQLite file from the test, as another program would (WAL allows it).

Used to prove what the bot's answers claim: a refusal "changed nothing" means
:func:`table_state` is the same before and after it.
"""

from __future__ import annotations

import asyncio
import sqlite3
from contextlib import closing
from pathlib import Path

#: Columns that are bookkeeping, not table state: when a row was written, and which
#: Discord message shows it (attached after the answer is sent).
BOOKKEEPING = frozenset(
    {"created_at", "updated_at", "applied_at", "message_id", "copy_channel_id", "copy_message_id"}
)

Row = tuple[object, ...]


def connect(db_path: Path) -> sqlite3.Connection:
    """A read-only connection: the probe never writes to the bot's database."""
    return sqlite3.connect(f"file:{db_path}?mode=ro", uri=True)


def query(db_path: Path, sql: str, *params: object) -> list[Row]:
    with closing(connect(db_path)) as db:
        return list(db.execute(sql, params))


def table_state(db_path: Path) -> dict[str, list[Row]]:
    """Every table's rows (in a stable order: sorted by SQLite on every column kept)
    without bookkeeping columns."""
    with closing(connect(db_path)) as db:
        tables = [
            str(name)
            for (name,) in db.execute(
                "SELECT name FROM sqlite_schema WHERE type = 'table'"
                " AND name NOT LIKE 'sqlite_%' ORDER BY name"
            )
        ]
        state: dict[str, list[Row]] = {}
        for table in tables:
            # Names come from the schema itself, quoted as identifiers.
            kept = [
                f'"{column}"'
                for (_, column, *_) in db.execute(f'PRAGMA table_info("{table}")')
                if column not in BOOKKEEPING
            ]
            columns = ", ".join(kept)
            state[table] = list(
                db.execute(f'SELECT {columns} FROM "{table}" ORDER BY {columns}')  # noqa: S608
            )
        return state


def integrity(db_path: Path) -> list[Row]:
    """``PRAGMA integrity_check`` and ``foreign_key_check`` together: ``[("ok",)]`` when sound."""
    with closing(connect(db_path)) as db:
        return list(db.execute("PRAGMA integrity_check")) + list(
            db.execute("PRAGMA foreign_key_check")
        )


#: How long the bot may take to store what it just answered.
SETTLE_SECONDS = 5.0


async def messages_remembered(db_path: Path) -> None:
    """Wait until the bot has stored the message id of the newest roll it answered.

    The bot writes it just after sending the answer, in a transaction of its own;
    a test that is about to lock or break the database waits for that write first,
    so the fault meets only the interactions the test sends. Polled: no Discord
    event marks the moment.
    """
    sql = "SELECT message_id IS NOT NULL FROM rolls ORDER BY id DESC LIMIT 1"
    async with asyncio.timeout(SETTLE_SECONDS):
        while query(db_path, sql) != [(1,)]:  # noqa: ASYNC110 - no event to wait on
            await asyncio.sleep(0.01)
