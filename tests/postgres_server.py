"""A throw-away PostgreSQL server for the test suite: initdb into a temporary folder,
listening only on a Unix socket there, stopped and deleted at the end of the session.

Found through ``initdb`` on PATH or the Debian packages' /usr/lib/postgresql/*/bin.
PostgreSQL refuses to run as root, so under root (CI's containers) the server runs
as the ``postgres`` user (or ``nobody``) through ``runuser``. Without the binaries
the PostgreSQL half of the tests is skipped, with the reason shown, except in CI
(``CI=true``), where it is an error: CI must run both backends.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import pwd
import shutil
import subprocess
import tempfile
import threading
from collections.abc import Coroutine
from pathlib import Path
from typing import Any, TypeVar

import asyncpg
import pytest

from bot.store import Store

T = TypeVar("T")

#: The database the store and flow tests share, emptied before each (migrations applied).
TEMPLATE = "storybot_test"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in {"1", "true", "yes"}


def binaries() -> Path | None:
    """The folder of initdb, pg_ctl and postgres, if installed."""
    found = shutil.which("initdb")
    if found is not None:
        return Path(found).resolve().parent
    versions = sorted(Path("/usr/lib/postgresql").glob("*/bin/initdb"), reverse=True)
    return versions[0].parent if versions else None


class PostgresServer:
    """One server in its own folder; :meth:`url` names a database on it."""

    def __init__(self, bin_dir: Path) -> None:
        self._bin = bin_dir
        self.root = Path(tempfile.mkdtemp(prefix="storybot-pg-"))
        self._data = self.root / "data"
        self._as: list[str] = []
        if os.geteuid() == 0:
            user = next(
                (name for name in ("postgres", "nobody") if _user_exists(name)), "nobody"
            )
            shutil.chown(self.root, user)
            self._as = ["runuser", "-u", user, "--"]
        self._counter = itertools.count()
        # fresh_database's connection and the statement emptying the test database, made
        # once: it lives on this loop, in a thread of its own, because each test has its
        # own event loop (connecting for every test cost 20 ms of the 30).
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(
            target=self._loop.run_forever, name="postgres-admin", daemon=True
        )
        self._thread.start()
        self._admin: asyncpg.Connection | None = None
        self._empty = ""

    def _run(self, *args: str) -> None:
        subprocess.run(
            [*self._as, *args], check=True, capture_output=True, timeout=60, cwd=self.root
        )

    def start(self) -> None:
        self._run(
            str(self._bin / "initdb"), "-D", str(self._data), "-A", "trust", "-U", "postgres",
            "-E", "UTF8", "--no-sync", "--no-instructions",
        )
        options = (
            f"-k {self.root} -c listen_addresses='' -c fsync=off -c synchronous_commit=off"
            " -c full_page_writes=off -c max_connections=200"
        )
        self._run(
            str(self._bin / "pg_ctl"), "-D", str(self._data), "-o", options,
            "-l", str(self.root / "server.log"), "-w", "-t", "30", "start",
        )

    def stop(self) -> None:
        if self._admin is not None:
            with contextlib.suppress(Exception):
                self._on_loop(self._admin.close())
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join()
        self._loop.close()
        with contextlib.suppress(subprocess.CalledProcessError):
            self._run(str(self._bin / "pg_ctl"), "-D", str(self._data), "-m", "immediate", "stop")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://postgres@/{database}?host={self.root}"

    def _on_loop(self, work: Coroutine[Any, Any, T]) -> T:
        """Run ``work`` on the server's own loop and wait for it (from any thread)."""
        return asyncio.run_coroutine_threadsafe(work, self._loop).result()

    def prepare_template(self) -> None:
        """Create the template database with every migration applied; connect to it for
        :meth:`fresh_database`."""

        async def prepare() -> None:
            admin = await asyncpg.connect(self.url())
            try:
                await admin.execute(f"CREATE DATABASE {TEMPLATE}")
            finally:
                await admin.close()
            store = await Store.open(self.url(TEMPLATE))
            await store.close()
            conn = await self._admin_connection()
            tables = await conn.fetch(
                "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
                " AND tablename <> 'schema_version'"
            )
            sequences = await conn.fetch(
                "SELECT sequencename FROM pg_sequences WHERE schemaname = 'public'"
            )
            self._empty = "".join(f"DELETE FROM {row[0]};" for row in tables) + "".join(  # noqa: S608
                f"ALTER SEQUENCE {row[0]} RESTART;" for row in sequences
            )

        self._on_loop(prepare())

    async def fresh_database(self) -> str:
        """The migrated test database, emptied (every table but the schema's versions, and
        the id sequences back at 1): a few ms, where copying a database takes half a second."""
        assert self._empty, "prepare_template() first"
        await asyncio.wrap_future(asyncio.run_coroutine_threadsafe(self._emptied(), self._loop))
        return self.url(TEMPLATE)

    async def _admin_connection(self) -> asyncpg.Connection:
        """The connection to the test database, again after a test ended its sessions
        (tests/store/test_store_postgres.py terminates every backend on it)."""
        if self._admin is None or self._admin.is_closed():
            self._admin = await asyncpg.connect(self.url(TEMPLATE))
        return self._admin

    async def _emptied(self) -> None:
        try:
            await (await self._admin_connection()).execute(self._empty)
        except (
            asyncpg.InterfaceError,
            asyncpg.InternalClientError,
            asyncpg.PostgresConnectionError,
            asyncpg.exceptions.OperatorInterventionError,
        ):
            # Terminated since its last use, found out only now (or its last words still
            # being read: "another operation is in progress", as bot.store.postgres's
            # UNAVAILABLE knows): once more, connected anew.
            if self._admin is not None:
                self._admin.terminate()
            self._admin = None
            await (await self._admin_connection()).execute(self._empty)

    async def new_database(self) -> str:
        """A new empty database (no migration applied); its URL."""
        name = f"t{os.getpid()}_{next(self._counter)}"
        admin = await asyncpg.connect(self.url())
        try:
            await admin.execute(f"CREATE DATABASE {name}")
        finally:
            await admin.close()
        return self.url(name)


def _user_exists(name: str) -> bool:
    try:
        pwd.getpwnam(name)
    except KeyError:
        return False
    return True


def start_or_skip() -> PostgresServer:
    """A started server; skip (fail in CI) when PostgreSQL is missing or cannot start."""
    bin_dir = binaries()
    if bin_dir is None:
        reason = "PostgreSQL is not installed (no initdb): its half of the tests did not run"
        if in_ci():
            pytest.fail(f"CI must run the PostgreSQL tests: {reason}", pytrace=False)
        pytest.skip(reason)
    server = PostgresServer(bin_dir)
    try:
        server.start()
        server.prepare_template()
    except (subprocess.SubprocessError, OSError, asyncpg.PostgresError) as error:
        server.stop()
        detail = getattr(error, "stderr", b"") or b""
        reason = f"the PostgreSQL test server did not start: {error} {detail.decode()[-500:]}"
        if in_ci():
            pytest.fail(reason, pytrace=False)
        pytest.skip(reason)
    return server
