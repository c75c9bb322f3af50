"""The database refusing work: locked by another program, read-only, full.

Each fault is the real SQLite error, provoked the way it happens in
production (another connection's lock, a connection that may not write, a
file that may not grow). A fault fails only the transaction that met it:
nothing of it is kept, the store keeps serving (reads during the fault, writes
once it is gone), the file stays sound, and the error is one the bot's error
path turns into a clear message for the member (``bot.edge.errors``).
"""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

from bot.edge.errors import store_fault
from bot.render.messages import STORE_BUSY, STORE_FAILED, STORE_FULL, STORE_READ_ONLY
from bot.store import Store, StoreError, Tx
from bot.store.store import BUSY_TIMEOUT_MS
from engine.records import WillPool, WillState
from tests.store.conftest import CHANNEL, GUILD, ROLLER, failure, track_will

#: Discord drops an interaction that is not answered within this many seconds.
DISCORD_ACK_WINDOW = 3.0


@contextmanager
def locked_by_another_program(db_path: Path) -> Iterator[sqlite3.Connection]:
    """Another process's connection holding the write lock (``BEGIN EXCLUSIVE``)."""
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield other
        other.execute("ROLLBACK")
    finally:
        other.close()


@asynccontextmanager
async def read_only(store: Store) -> AsyncIterator[None]:
    """The store's own connection may read but not write (``query_only``: SQLite answers
    SQLITE_READONLY exactly as for a file it may not write). The connection is private,
    and a live connection cannot be made read-only any other way from inside a test."""
    await store._conn.execute("PRAGMA query_only = ON")
    try:
        yield
    finally:
        await store._conn.execute("PRAGMA query_only = OFF")


@asynccontextmanager
async def disk_full(store: Store) -> AsyncIterator[None]:
    """The file may not grow by a single page (SQLITE_FULL, as on a full disk)."""
    conn = store._conn
    pages = next(iter(await conn.execute_fetchall("PRAGMA page_count")))[0]
    await conn.execute_fetchall(f"PRAGMA max_page_count = {int(pages)}")
    try:
        yield
    finally:
        await conn.execute_fetchall("PRAGMA max_page_count = 1073741823")


async def fill_with_rolls(store: Store, rolls: int = 500) -> None:
    """One transaction: track a Will pool, then store many rolls (far more than a page)."""

    def body(tx: Tx) -> None:
        track_will(tx, maximum=5)
        for _ in range(rolls):
            tx.rolls.insert(
                guild_id=GUILD,
                channel_id=CHANNEL,
                roller_id=ROLLER,
                result=failure(),
                will_state=WillState.OFFERED,
                label="a long label that takes room " * 3,
            )

    await store.write(body)


async def set_will(store: Store, maximum: int) -> WillPool:
    """One write: track the roller's pool, full, at ``maximum``."""
    return await store.write(lambda tx: track_will(tx, maximum=maximum))


def raise_maximum(tx: Tx, maximum: int) -> bool:
    """Inside a write: the roller's tracked pool gets a new maximum."""
    pool = tx.will.get(GUILD, ROLLER)
    assert pool is not None
    return tx.will.save(pool, pool.model_copy(update={"maximum": maximum}))


async def get_will(store: Store) -> WillPool | None:
    return await store.read(lambda tx: tx.will.get(GUILD, ROLLER))


def integrity(db_path: Path) -> str:
    with sqlite3.connect(db_path) as db:
        return str(db.execute("PRAGMA integrity_check").fetchone()[0])


def count_rolls(db_path: Path) -> int:
    with sqlite3.connect(db_path) as db:
        return int(db.execute("SELECT count(*) FROM rolls").fetchone()[0])


# --- locked ---------------------------------------------------------------------------------


async def test_a_write_blocked_by_another_programs_lock_gives_up_in_time_to_answer(
    store: Store, db_path: Path
) -> None:
    loop = asyncio.get_running_loop()
    with locked_by_another_program(db_path):
        began = loop.time()
        with pytest.raises(sqlite3.OperationalError) as caught:
            await set_will(store, maximum=5)
        waited = loop.time() - began

    assert caught.value.sqlite_errorname == "SQLITE_BUSY"
    assert store_fault(caught.value) == STORE_BUSY
    assert waited >= 0.9 * BUSY_TIMEOUT_MS / 1000, "a brief lock is waited out"
    assert waited < DISCORD_ACK_WINDOW - 1, "time is left to tell the member"


async def test_reads_go_on_while_another_program_holds_the_write_lock(
    store: Store, db_path: Path
) -> None:
    await set_will(store, maximum=4)

    with locked_by_another_program(db_path):
        pool, config = await store.read(
            lambda tx: (tx.will.get(GUILD, ROLLER), tx.settings.config(GUILD, CHANNEL))
        )

    assert pool is not None
    assert pool.current == 4
    assert config.channel_id == CHANNEL


async def test_the_store_writes_again_once_the_lock_is_released(
    store: Store, db_path: Path
) -> None:
    with locked_by_another_program(db_path), pytest.raises(sqlite3.OperationalError):
        await set_will(store, maximum=5)

    left = await get_will(store)
    pool = await set_will(store, maximum=5)

    assert left is None, "the refused write left nothing behind"
    assert await get_will(store) == pool


# --- read-only ------------------------------------------------------------------------------


async def test_a_read_only_database_refuses_the_whole_transaction_and_keeps_reading(
    store: Store, db_path: Path
) -> None:
    await set_will(store, maximum=3)

    async with read_only(store):
        with pytest.raises(sqlite3.OperationalError) as caught:
            await store.write(lambda tx: raise_maximum(tx, 7))
        during = await get_will(store)

    assert caught.value.sqlite_errorname.startswith("SQLITE_READONLY")
    assert store_fault(caught.value) == STORE_READ_ONLY
    assert during is not None
    assert during.maximum == 3
    assert await store.write(lambda tx: raise_maximum(tx, 7))
    assert integrity(db_path) == "ok"


# --- full disk ------------------------------------------------------------------------------


async def test_a_full_disk_rolls_back_everything_the_transaction_did(
    store: Store, db_path: Path
) -> None:
    before = count_rolls(db_path)

    async with disk_full(store):
        with pytest.raises(sqlite3.OperationalError) as caught:
            await fill_with_rolls(store)
        pool = await get_will(store)

    assert caught.value.sqlite_errorname == "SQLITE_FULL"
    assert store_fault(caught.value) == STORE_FULL
    assert pool is None, "the Will pool written before the fault was rolled back"
    assert count_rolls(db_path) == before
    assert integrity(db_path) == "ok"


async def test_the_store_writes_again_once_there_is_room(store: Store, db_path: Path) -> None:
    async with disk_full(store):
        with pytest.raises(sqlite3.OperationalError):
            await fill_with_rolls(store)

    await fill_with_rolls(store, rolls=50)

    assert count_rolls(db_path) == 50
    assert integrity(db_path) == "ok"


# --- what the member is told ----------------------------------------------------------------


def sqlite_error(name: str) -> sqlite3.OperationalError:
    """An error as the sqlite3 module raises it for SQLite result code ``name``."""
    error = sqlite3.OperationalError(name.lower())
    error.sqlite_errorname = name
    return error


@pytest.mark.parametrize(
    ("name", "message"),
    [
        ("SQLITE_LOCKED", STORE_BUSY),
        ("SQLITE_BUSY_SNAPSHOT", STORE_BUSY),
        ("SQLITE_READONLY_DBMOVED", STORE_READ_ONLY),
        ("SQLITE_IOERR_WRITE", STORE_FAILED),
        ("SQLITE_CANTOPEN", STORE_FAILED),
    ],
)
def test_every_kind_of_unavailable_database_has_a_message(name: str, message: str) -> None:
    assert store_fault(sqlite_error(name)) == message


async def _command(interaction: discord.Interaction) -> None:
    """A slash command's body."""


def test_a_fault_inside_a_command_is_recognised_through_discords_wrapper() -> None:
    command: app_commands.Command[Any, ..., None] = app_commands.Command(
        name="roll", description="Roll.", callback=_command
    )
    wrapped = app_commands.CommandInvokeError(command, sqlite_error("SQLITE_FULL"))

    assert store_fault(wrapped) == STORE_FULL


@pytest.mark.parametrize(
    "error",
    [
        sqlite3.ProgrammingError("Cannot operate on a closed database."),
        sqlite_error("SQLITE_CONSTRAINT_UNIQUE"),
        sqlite_error("SQLITE_CORRUPT"),
        RuntimeError("database is locked"),
    ],
    ids=["no result code", "constraint", "corrupt", "not sqlite"],
)
def test_bugs_and_damage_are_not_passed_off_as_an_unavailable_database(
    error: Exception,
) -> None:
    assert store_fault(error) is None


# --- a file that cannot be the database -----------------------------------------------------


async def test_a_folder_in_place_of_the_database_is_refused_with_a_store_error(
    tmp_path: Path,
) -> None:
    """A DATABASE_PATH that is a folder (the data volume itself) is refused saying so and
    which file to name instead, where SQLite said "unable to open database file" (the
    lock, taken first by `python -m bot`, says the same: bot.store.lock)."""
    folder = tmp_path / "bot.sqlite3"
    folder.mkdir()

    with pytest.raises(StoreError) as refused:
        await Store.open(folder)
    assert str(refused.value) == (
        f"DATABASE_PATH {folder} is a folder, not a file: set it to a file in that folder"
        f" ({folder / 'bot.sqlite3'}, made at the first start), then start again.")


async def test_a_file_that_is_not_a_database_is_refused_with_a_store_error(
    tmp_path: Path,
) -> None:
    path = tmp_path / "bot.sqlite3"
    path.write_text("these are my notes, not a database\n" * 100)

    with pytest.raises(StoreError, match="not a database"):
        await Store.open(path)

    assert path.read_text().startswith("these are my notes"), "the file was left alone"
