"""Session-wide fixtures shared by the end-to-end tests under tests/e2e and tests/bot."""

from __future__ import annotations

import asyncio
import shutil
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from bot.store import Store
from tests.e2e.harness.process import Zygote
from tests.postgres_server import PostgresServer, start_or_skip


@pytest.fixture(scope="session")
def zygote() -> Iterator[Zygote]:
    """One process that has imported the bot, forking each test's ``python -m bot``."""
    forker = Zygote()
    forker.start()
    try:
        yield forker
    finally:
        forker.close()


# --- both store backends ---------------------------------------------------------------------
# A test that uses the ``store`` (tests/store) or ``table`` (tests/flows) fixture runs once
# on SQLite and once on PostgreSQL (a server the session starts: tests/postgres_server.py).
# A test that also asks for ``db_path`` reads the SQLite file itself: SQLite only.

BACKENDS = ("sqlite", "postgres")


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "backend" in metafunc.fixturenames:
        sqlite_only = "db_path" in metafunc.fixturenames
        metafunc.parametrize(
            "backend", ["sqlite"] if sqlite_only else list(BACKENDS), indirect=True
        )


@pytest.fixture
def backend(request: pytest.FixtureRequest) -> str:
    """The store's backend for this run of the test."""
    return str(request.param)


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresServer]:
    """The session's PostgreSQL server (skipped with the reason, or failed in CI, when
    it cannot start)."""
    server = start_or_skip()
    try:
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def sqlite_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A SQLite file with every migration applied, made once a session: copying it costs
    about 1 ms where migrating a new file costs 40-80 ms, for each of ~600 tests.
    (tests/store/test_store_migrations.py migrates new files itself.)"""
    path = tmp_path_factory.mktemp("sqlite-template") / "bot.sqlite3"

    async def migrate() -> None:
        store = await Store.open(path)
        await store.close()

    # Its own thread: the first test asking for it may be inside an event loop.
    with ThreadPoolExecutor(1) as thread:
        thread.submit(asyncio.run, migrate()).result()
    return path


@pytest.fixture
async def store_target(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> str | Path:
    """What ``Store.open`` takes for this backend: a fresh, migrated SQLite file (a copy
    of :func:`sqlite_template`) or database."""
    if backend == "sqlite":
        target = tmp_path / "data" / "bot.sqlite3"
        target.parent.mkdir(parents=True, exist_ok=True)
        template: Path = request.getfixturevalue("sqlite_template")
        shutil.copyfile(template, target)
        return target
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.fresh_database()
