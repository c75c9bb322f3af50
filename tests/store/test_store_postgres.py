"""What only the PostgreSQL store has to prove: several processes over one database
(two stores stand for two processes), migrations under the advisory lock, a server that
cannot be reached or goes away. Everything else runs on both backends (``store``)."""

from __future__ import annotations

import asyncio
import os
import threading
from pathlib import Path
from urllib.parse import urlsplit

import asyncpg
import pytest

from bot.edge.errors import store_fault
from bot.render.messages import STORE_BUSY, STORE_READ_ONLY, STORE_UNAVAILABLE
from bot.store import Store, StoreError, StoreLocked, StoreReadOnly, StoreUnavailable, Tx
from bot.store import postgres as postgres_store
from bot.store.migrations import MIGRATIONS_DIR, MigrationError, discover
from bot.store.postgres import LOCK_TIMEOUT_MS, MIGRATION_LOCK, READERS
from engine.models import WillUse
from engine.records import ActionKind, WillState
from tests.postgres_server import PostgresServer
from tests.store.conftest import (
    BLOCKED,
    CHANNEL,
    GUILD,
    ROLLER,
    failure,
    hold_until,
    idle_workers,
    roll,
    track_will,
    warm,
    with_will,
)

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")


async def _two(url: str) -> tuple[Store, Store]:
    return await Store.open(url), await Store.open(url)


async def test_processes_starting_together_apply_each_migration_once(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_database()

    stores = await asyncio.gather(*(Store.open(url) for _ in range(4)))
    for store in stores:
        await store.close()

    conn = await asyncpg.connect(url)
    try:
        versions = [row[0] for row in await conn.fetch(
            "SELECT version FROM schema_version ORDER BY version"
        )]
    finally:
        await conn.close()
    assert versions == [m.version for m in discover(MIGRATIONS_DIR / "postgres")]


async def test_a_process_waits_for_another_applying_the_migrations_past_a_statement_s_time(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A second process starting while the first migrates waits for its lock as long as a
    migration may take (MIGRATION_TIMEOUT), not a member's statement's time: it failed
    with a bare TimeoutError traceback once the first took longer than that."""
    monkeypatch.setattr(postgres_store, "STATEMENT_TIMEOUT", 0.3)
    url = await postgres.new_database()
    first = await asyncpg.connect(url)
    await first.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)

    opening = asyncio.ensure_future(Store.open(url))
    await asyncio.sleep(1.0)
    await first.close()  # its lock goes with its session
    store = await opening
    await store.close()


async def test_a_migrations_lock_never_let_go_is_one_refusal_naming_it(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(postgres_store, "MIGRATION_TIMEOUT", 0.3)
    url = await postgres.new_database()
    stuck = await asyncpg.connect(url)
    await stuck.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    try:
        with pytest.raises(MigrationError) as refused:
            await Store.open(url)
    finally:
        await stuck.close()

    assert str(refused.value) == (
        "another bot process has held the migrations' lock for 0 s: it may be stuck"
        " applying them; stop it, then start again"
    )


async def test_a_user_who_may_not_create_tables_is_told_what_to_grant(
    postgres: PostgresServer,
) -> None:
    """PostgreSQL 15 and later let only the database's owner create tables in ``public``:
    a bot user given a database it does not own met a traceback at start-up."""
    url = await postgres.new_database()
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'storybot_guest')"
            " THEN CREATE ROLE storybot_guest LOGIN; END IF; END $$"
        )
        await admin.execute("REVOKE CREATE ON SCHEMA public FROM PUBLIC")
    finally:
        await admin.close()

    with pytest.raises(StoreError) as refused:
        await Store.open(url.replace("postgres@", "storybot_guest@", 1))

    assert str(refused.value).endswith(
        "cannot be used: permission denied for schema public (the bot's user creates its"
        " tables: make it the database's owner, or GRANT CREATE ON SCHEMA public TO it)"
    )


async def test_a_session_ended_while_waiting_to_migrate_is_one_refusal(
    postgres: PostgresServer,
) -> None:
    url = await postgres.new_database()
    first = await asyncpg.connect(url)
    await first.execute("SELECT pg_advisory_lock($1)", MIGRATION_LOCK)
    opening = asyncio.ensure_future(Store.open(url))
    try:
        await asyncio.sleep(0.5)
        await first.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE pid <> pg_backend_pid() AND datname = current_database()"
        )
        with pytest.raises(StoreError) as refused:
            await opening
    finally:
        await first.close()

    assert "cannot be used: connection was closed in the middle of operation" in str(
        refused.value
    )


def test_every_sqlite_migration_has_its_postgresql_mirror() -> None:
    sqlite = [m.name for m in discover(MIGRATIONS_DIR)]
    postgres = [m.name for m in discover(MIGRATIONS_DIR / "postgres")]

    assert postgres == sqlite


async def test_spend_will_pressed_100_times_at_once_from_two_processes_spends_one(
    postgres: PostgresServer,
) -> None:
    url = await postgres.fresh_database()
    first, second = await _two(url)
    try:
        await first.write(lambda tx: track_will(tx, maximum=5))
        roll_id = await roll(first, result=failure(), will_state=WillState.OFFERED)
        spent = with_will(failure(will=WillUse.NONE))

        def press(tx: Tx) -> bool:
            if tx.rolls.spend_will(roll_id, ROLLER, spent) is None:
                return False
            tx.will.debit(GUILD, ROLLER)
            return True

        answers = await asyncio.gather(
            *(store.write(press) for _ in range(50) for store in (first, second))
        )
        pool = await second.read(lambda tx: tx.will.get(GUILD, ROLLER))
    finally:
        await first.close()
        await second.close()

    assert answers.count(True) == 1
    assert pool is not None
    assert pool.current == 4


async def test_an_action_continued_from_two_processes_loses_no_roll(
    postgres: PostgresServer,
) -> None:
    url = await postgres.fresh_database()
    first, second = await _two(url)
    try:
        action = await first.write(
            lambda tx: tx.actions.create(
                ActionKind.EXTENDED, guild_id=GUILD, channel_id=1, owner_id=ROLLER,
                label="research", state=failure(),
            )
        )

        async def continue_once(store: Store) -> None:
            # A flow's loop: read the version, write over it, read again if it moved.
            while True:
                record = await store.read(lambda tx: tx.actions.get(action.id))
                assert record is not None
                version = record.version
                done = await store.write(
                    lambda tx, v=version: tx.actions.update(action.id, v, failure())
                )
                if done is not None:
                    return

        await asyncio.gather(
            *(continue_once(store) for _ in range(20) for store in (first, second))
        )
        final = await first.read(lambda tx: tx.actions.get(action.id))
    finally:
        await first.close()
        await second.close()

    assert final is not None
    assert final.version == 1 + 40


async def test_a_malformed_url_is_refused_naming_the_server_never_the_password() -> None:
    with pytest.raises(StoreError) as refused:
        await Store.open("postgresql://bot:hunter2@db.example:notaport/bot")

    assert "db.example" in str(refused.value)
    assert "hunter2" not in str(refused.value)


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot:hunter2#x@db.example/bot",
        "postgresql://bot:hunter2/x@db.example/bot",
        "postgresql://bot:hunter2?x@db.example/bot",
        "postgresql://bot:12/hunter2@db.example/bot",
    ],
)
async def test_a_password_cutting_the_url_short_is_refused_never_quoting_it(url: str) -> None:
    """A / ? or # left as it is in the password ends the URL's server part inside it, and
    what was said next quoted a piece of it (Python's 'Port could not be cast to integer
    value as 'hunter2'', or a database named '12/hunter2@db.example/bot'): it is refused
    saying how to write it, naming the server."""
    with pytest.raises(StoreError) as refused:
        await Store.open(url)

    assert str(refused.value) == (
        "DATABASE_URL is not a valid PostgreSQL URL (server db.example): the user name or"
        " password holds a / ? or # that must be percent-encoded (/ as %2F, ? as %3F,"
        " # as %23)"
    )


async def test_an_unreachable_server_is_named_with_its_port_never_the_password() -> None:
    with pytest.raises(StoreError) as refused:
        await Store.open("postgresql://bot:hunter2@127.0.0.1:9/bot")

    assert "127.0.0.1:9" in str(refused.value)
    assert "hunter2" not in str(refused.value)


async def test_a_url_whose_scheme_is_in_capitals_is_postgresql_not_a_file_path(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The settings take ``PostgreSQL://`` as asyncpg does; the store opened a SQLite file
    named after it."""
    monkeypatch.chdir(tmp_path)

    with pytest.raises(StoreError) as refused:
        await Store.open("PostgreSQL://bot:hunter2@127.0.0.1:9/bot")

    assert "127.0.0.1:9" in str(refused.value)
    assert await asyncio.to_thread(os.listdir, tmp_path) == []


async def _sessions_ended(url: str) -> None:
    """Every other session on the database ended by the server, as at a restart."""
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
            " WHERE pid <> pg_backend_pid() AND datname = current_database()"
        )
    finally:
        await admin.close()


async def _database_setting(url: str, setting: str) -> None:
    """``ALTER DATABASE`` the test's database ``setting`` (its sessions from now on)."""
    admin = await asyncpg.connect(url, server_settings={"default_transaction_read_only": "off"})
    try:
        await admin.execute(f"ALTER DATABASE {urlsplit(url).path.lstrip('/')} {setting}")
    finally:
        await admin.close()


async def test_a_database_that_takes_no_writes_is_said_so_reads_go_on_and_writes_come_back(
    postgres: PostgresServer,
) -> None:
    """A database made read-only (``default_transaction_read_only``, as a standby promoted
    the other way after a fail-over): the member is told so as on a read-only SQLite file,
    where they got the generic apology and the log an unhandled error; nothing is written,
    reading goes on, and writes work again once it takes them, without a restart."""
    url = await postgres.new_database()
    store = await Store.open(url)
    try:
        await store.write(lambda tx: track_will(tx, maximum=3))
        await _database_setting(url, "SET default_transaction_read_only = on")
        await _sessions_ended(url)

        with pytest.raises(StoreReadOnly) as refused:
            await store.write(lambda tx: track_will(tx, maximum=5))
        during = await store.read(lambda tx: tx.will.get(GUILD, ROLLER))
        await _database_setting(url, "RESET default_transaction_read_only")
        await _sessions_ended(url)
        after = await store.write(lambda tx: track_will(tx, maximum=5))
    finally:
        await store.close()

    assert store_fault(refused.value) == STORE_READ_ONLY
    assert "hunter2" not in str(refused.value)
    assert during is not None
    assert during.maximum == 3
    assert after.maximum == 5


async def test_a_server_with_no_room_for_a_session_says_try_again_and_the_store_recovers(
    postgres: PostgresServer,
) -> None:
    """The server at its connection limit (``max_connections``, or the bot's user's limit)
    when a worker connects again: the member is told to try again in a moment, where they
    got the generic apology; the next write connects once there is room. (The bot's user
    here may not create tables: it opens a database its owner migrated, where its
    ``CREATE TABLE IF NOT EXISTS schema_version`` was refused at start-up.)"""
    url = await postgres.fresh_database()
    admin = await asyncpg.connect(url)
    try:
        await admin.execute(
            "DO $$ BEGIN IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = 'storybot_few')"
            " THEN CREATE ROLE storybot_few LOGIN; END IF; END $$;"
            " GRANT ALL ON ALL TABLES IN SCHEMA public TO storybot_few;"
            " GRANT ALL ON ALL SEQUENCES IN SCHEMA public TO storybot_few"
        )
    finally:
        await admin.close()
    store = await Store.open(url.replace("postgres@", "storybot_few@", 1))
    admin = await asyncpg.connect(url)
    try:
        await admin.execute("ALTER ROLE storybot_few CONNECTION LIMIT 0")
        with pytest.raises(StoreUnavailable) as refused:
            await store.write(lambda tx: track_will(tx, maximum=3))
        await admin.execute("ALTER ROLE storybot_few CONNECTION LIMIT -1")
        after = await store.write(lambda tx: track_will(tx, maximum=3))
    finally:
        await admin.close()
        await store.close()

    assert store_fault(refused.value) == STORE_UNAVAILABLE
    assert after.maximum == 3


async def test_a_write_blocked_by_another_programs_lock_gives_up_in_time_to_answer(
    postgres: PostgresServer,
) -> None:
    """Another program holds a lock the write needs (an admin's open transaction holding
    the pool's row): the write gives up after LOCK_TIMEOUT_MS, once (a refusal is not run
    again), and the member is told the database is busy, as on SQLite, while Discord still
    takes an answer; it waited up to the statement's 10 s and the interaction expired
    unanswered. Nothing is written, and writes go on once the lock is gone."""
    url = await postgres.new_database()
    store = await Store.open(url)
    other = await asyncpg.connect(url)
    loop = asyncio.get_running_loop()
    try:
        await store.write(lambda tx: track_will(tx, maximum=3))
        await other.execute("BEGIN; SELECT * FROM will_pools FOR UPDATE")
        began = loop.time()
        with pytest.raises(StoreLocked) as refused:
            await store.write(lambda tx: track_will(tx, maximum=5))
        waited = loop.time() - began
        await other.execute("ROLLBACK")
        during = await store.read(lambda tx: tx.will.get(GUILD, ROLLER))
        after = await store.write(lambda tx: track_will(tx, maximum=5))
    finally:
        await other.close()
        await store.close()

    assert store_fault(refused.value) == STORE_BUSY
    assert waited >= 0.9 * LOCK_TIMEOUT_MS / 1000, "a brief lock is waited out"
    assert waited < 2.0, "time is left to tell the member"
    assert during is not None
    assert during.maximum == 3
    assert after.maximum == 5


async def test_a_column_another_process_adds_fails_no_read_or_write_prepared_before_it(
    postgres: PostgresServer,
) -> None:
    """A rolling upgrade: the new version's process adds a column while this one serves.
    A statement asyncpg prepared before (``SELECT * FROM rolls``) no longer fits, and the
    first use on each connection failed with the generic apology; the transaction now
    runs again, preparing it anew."""
    url = await postgres.new_database()
    store = await Store.open(url)
    try:
        stored = await roll(store)

        async def every_way() -> None:
            await asyncio.gather(*(store.read(lambda tx: tx.rolls.get(stored))
                                   for _ in range(3 * READERS)))
            await store.write(lambda tx: tx.rolls.get(stored))

        await every_way()  # every worker has the statement prepared
        admin = await asyncpg.connect(url)
        try:
            await admin.execute("ALTER TABLE rolls ADD COLUMN upgrade_note TEXT")
        finally:
            await admin.close()
        await every_way()
    finally:
        await store.close()


async def test_a_writer_stopped_mid_transaction_says_try_again_and_commits_nothing(
    postgres: PostgresServer,
) -> None:
    """The loop ending (the bot shutting down) cancels the writer's task while a body
    waits for the server: the body's transaction is rolled back, its caller told to try
    again, and a new store finds nothing of it."""
    url = await postgres.fresh_database()
    store = await Store.open(url)
    inside = asyncio.Event()

    def body(tx: Tx) -> None:
        track_will(tx, maximum=5)
        inside.set()
        assert hold_until(threading.Event())  # until cancelled

    try:
        write = asyncio.create_task(store.write(body))
        await inside.wait()
        store._engine._workers[0].task.cancel()  # type: ignore[attr-defined]
        with pytest.raises(StoreUnavailable):
            await asyncio.wait_for(write, BLOCKED)
    finally:
        await store.close()
    reopened = await Store.open(url)
    try:
        pool = await reopened.read(lambda tx: tx.will.get(GUILD, ROLLER))
    finally:
        await reopened.close()

    assert pool is None


async def test_a_database_gone_away_says_try_again_and_the_store_reconnects(
    postgres: PostgresServer,
) -> None:
    url = await postgres.fresh_database()
    store = await Store.open(url)
    loop = asyncio.get_running_loop()
    inside = asyncio.Event()
    go_on = threading.Event()

    def interrupted(tx: Tx) -> object:
        tx.will.get(GUILD, ROLLER)
        loop.call_soon_threadsafe(inside.set)
        assert hold_until(go_on)
        return tx.will.get(GUILD, ROLLER)  # the server is gone by now

    try:
        await store.write(lambda tx: track_will(tx, maximum=5))
        read = asyncio.create_task(store.read(interrupted))
        await inside.wait()
        admin = await asyncpg.connect(postgres.url())
        try:
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1",
                urlsplit(url).path.lstrip("/"),
            )
        finally:
            await admin.close()
        go_on.set()

        with pytest.raises(StoreUnavailable):
            await read
        pool = await store.read(lambda tx: tx.will.get(GUILD, ROLLER))
    finally:
        await store.close()

    assert pool is not None
    assert pool.current == 5


async def test_warming_connects_every_worker_before_any_command(
    postgres: PostgresServer,
) -> None:
    """The bot warms its store at start-up: every worker connected (a reader each, the
    writer too), so the first commands wait for no connection."""
    url = await postgres.fresh_database()
    store = await Store.open(url)
    admin = await asyncpg.connect(postgres.url())

    async def sessions() -> int:
        return int(await admin.fetchval(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = $1",
            urlsplit(url).path.lstrip("/"),
        ))

    try:
        engine = store._engine  # type: ignore[attr-defined]
        assert all(worker._conn is None for worker in engine._workers), "none yet"
        before = await sessions()
        await store.warm()
        assert len(engine._workers) == READERS + 1
        assert all(worker._conn is not None for worker in engine._workers)
        assert await sessions() - before == READERS + 1
    finally:
        await admin.close()
        await store.close()


async def test_warming_a_store_whose_database_is_gone_says_so_naming_the_server(
    postgres: PostgresServer,
) -> None:
    name = "storybot_warm_gone"  # its own database: the suite's stays
    admin = await asyncpg.connect(postgres.url())
    try:
        await admin.execute(f"DROP DATABASE IF EXISTS {name}")
        await admin.execute(f"CREATE DATABASE {name}")
        store = await Store.open(postgres.url(name))
        await admin.execute(f"DROP DATABASE {name} WITH (FORCE)")
        try:
            with pytest.raises(StoreError, match="does not exist") as refused:
                await store.warm()
        finally:
            await store.close()
    finally:
        await admin.close()
    assert str(store.describe) in str(refused.value)


# --- BEGIN and a read's COMMIT between transactions -----------------------------------------


async def test_a_transaction_begun_while_idle_costs_its_statements_and_a_write_s_commit(
    postgres: PostgresServer,
) -> None:
    store = await Store.open(await postgres.fresh_database())
    try:
        await store.write(lambda tx: track_will(tx, maximum=6))
        await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))  # its check prepared
        await warm(store)

        before = store.round_trips
        pool = await store.read(lambda tx: tx.will.get(GUILD, ROLLER))
        read = store.round_trips - before
        await idle_workers(store)
        before = store.round_trips
        await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))
        written = store.round_trips - before
        await idle_workers(store)
        before = store.round_trips
        await store.write(lambda tx: None)
        nothing = store.round_trips - before
    finally:
        await store.close()

    assert pool is not None
    assert pool.current == 5
    assert read == 1  # the SELECT: its BEGIN went before, its COMMIT after
    assert written == 2  # the pool read; the debit, held back, sent with COMMIT
    assert nothing == 0


async def test_a_transaction_begun_while_idle_sees_what_was_committed_after_its_begin(
    postgres: PostgresServer,
) -> None:
    store = await Store.open(await postgres.fresh_database())
    try:
        await store.write(lambda tx: track_will(tx, maximum=5))
        await warm(store)  # the readers' next transactions are open from here

        await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))
        pools = await asyncio.gather(
            *(store.read(lambda tx: tx.will.get(GUILD, ROLLER)) for _ in range(8))
        )
    finally:
        await store.close()

    assert [pool.current if pool else None for pool in pools] == [4] * 8


async def test_sessions_closed_by_the_server_while_idle_are_replaced_without_a_word(
    postgres: PostgresServer,
) -> None:
    url = await postgres.fresh_database()
    store = await Store.open(url)
    try:
        await store.write(lambda tx: track_will(tx, maximum=5))
        await warm(store)
        admin = await asyncpg.connect(postgres.url())
        try:  # as idle_in_transaction_session_timeout would
            ended = await admin.fetchval(
                "SELECT count(pg_terminate_backend(pid)) FROM pg_stat_activity"
                " WHERE datname = $1 AND state = 'idle in transaction'",
                urlsplit(url).path.lstrip("/"),
            )
        finally:
            await admin.close()

        pools = await asyncio.gather(
            *(store.read(lambda tx: tx.will.get(GUILD, ROLLER)) for _ in range(8))
        )
        left = await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))
    finally:
        await store.close()

    assert ended == 1 + READERS  # the writer and every reader were waiting in a transaction
    assert [pool.current if pool else None for pool in pools] == [5] * 8
    assert left is not None
    assert left.current == 4


# --- a COMMIT whose answer is lost ------------------------------------------------------------


def _commit_answer_lost(monkeypatch: pytest.MonkeyPatch, *, commits: bool) -> None:
    """The writer's next COMMIT reaches the server, which commits it (``commits``) or
    rolls it back, and then the connection drops before its answer is read, as when the
    network or the server's host fails at that moment: asyncpg raises
    ConnectionDoesNotExistError. Once: the COMMITs after it go as usual."""
    run = postgres_store.PgConnection.run
    armed = [True]

    def lost(self: postgres_store.PgConnection, statement: str) -> None:
        if not armed:
            run(self, statement)
            return
        armed.pop()
        head, commit, tail = statement.rpartition("COMMIT")
        assert commit, statement
        run(self, statement if commits else f"{head}ROLLBACK{tail}")
        self.conn.terminate()
        msg = "connection was closed in the middle of operation"
        raise asyncpg.ConnectionDoesNotExistError(msg)

    monkeypatch.setattr(postgres_store.PgConnection, "run", lost)


def _spend_and_roll(tx: Tx) -> tuple[int, int | None]:
    """A roll stored and a Will spent in one write, as a roll with Will is: the roll's id
    and the Will left."""
    record = tx.rolls.insert(
        guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER, roller_name="Roller",
        result=failure(), will_state=WillState.OFFERED, label=None, private=False,
    )
    pool = tx.will.debit(GUILD, ROLLER)
    return record.id, None if pool is None else pool.current


async def _rolls_and_will(url: str) -> tuple[int, int]:
    conn = await asyncpg.connect(url)
    try:
        rolls = await conn.fetchval("SELECT count(*) FROM rolls")
        will = await conn.fetchval("SELECT current FROM will_pools")
    finally:
        await conn.close()
    return rolls, will


async def test_a_write_committed_as_its_connection_drops_answers_as_saved_and_is_there_once(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops while a write's COMMIT is answered, and the server had
    committed it: a new session asks the server what became of the transaction
    (txid_status) and the write answers as done, where the member was told nothing was
    saved and, pressing again, rolled twice or spent Will twice."""
    url = await postgres.fresh_database()
    store = await Store.open(url)
    try:
        await store.write(lambda tx: track_will(tx, maximum=5))
        await warm(store)
        _commit_answer_lost(monkeypatch, commits=True)
        roll_id, left = await store.write(_spend_and_roll)
        after = await store.write(lambda tx: tx.will.debit(GUILD, ROLLER))  # it goes on
        stored = await store.read(lambda tx: tx.rolls.get(roll_id))
    finally:
        await store.close()

    assert left == 4
    assert stored is not None
    assert after is not None
    assert after.current == 3
    assert await _rolls_and_will(url) == (1, 3)


async def test_a_write_not_committed_as_its_connection_drops_says_try_again_saving_nothing(
    postgres: PostgresServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops while a write's COMMIT is answered, and the server had not
    committed it: the member is told to try again, nothing of it is saved, and the next
    write goes on."""
    url = await postgres.fresh_database()
    store = await Store.open(url)
    try:
        await store.write(lambda tx: track_will(tx, maximum=5))
        await warm(store)
        _commit_answer_lost(monkeypatch, commits=False)
        with pytest.raises(StoreUnavailable):
            await store.write(_spend_and_roll)
        saved = await _rolls_and_will(url)
        roll_id, left = await store.write(_spend_and_roll)
    finally:
        await store.close()

    assert saved == (0, 5)
    assert roll_id > 0
    assert left == 4


class _LastWords:
    """The harness's admin connection as asyncpg leaves one the server ended while its last
    words are still being read: every statement refused (InternalClientError, "another
    operation is in progress")."""

    def __init__(self) -> None:
        self.terminated = False

    def is_closed(self) -> bool:
        return False

    async def execute(self, query: str) -> str:
        raise asyncpg.InternalClientError("cannot switch to state 15; another operation (2)"
                                          " is in progress")

    def terminate(self) -> None:
        self.terminated = True


async def test_a_fresh_database_is_had_though_the_harness_connection_is_on_its_way_out(
    postgres: PostgresServer,
) -> None:
    """A test that ends every session of the test database (above) ends the harness's own
    connection too; the next test's fresh database was refused while asyncpg still read
    that connection's last words (seen once in a clean-clone CI run): it connects anew."""
    await postgres.fresh_database()
    dying = _LastWords()
    postgres._admin = dying  # type: ignore[assignment]

    url = await postgres.fresh_database()

    assert dying.terminated
    conn = await asyncpg.connect(url)
    try:
        assert await conn.fetchval("SELECT count(*) FROM rolls") == 0
    finally:
        await conn.close()
