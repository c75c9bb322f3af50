"""Session-wide fixtures shared by the end-to-end tests under tests/e2e and tests/bot."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

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


@pytest.fixture
async def store_target(
    backend: str, tmp_path: Path, request: pytest.FixtureRequest
) -> str | Path:
    """What ``Store.open`` takes for this backend: a fresh SQLite file or database."""
    if backend == "sqlite":
        return tmp_path / "data" / "bot.sqlite3"
    server: PostgresServer = request.getfixturevalue("postgres")
    return await server.fresh_database()
