"""Migrations: from empty, as a re-run, a broken file rolled back, and the table rebuilds
on a database in use."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path
from typing import Any

import aiosqlite
import pytest

from bot.store import MIGRATIONS_DIR, MigrationError, Store, Tx
from bot.store.migrations import discover, migrate, split_statements
from engine.characters import new_sheet
from engine.models import Ruleset
from engine.records import WillState
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    failure,
    track_will,
)

TABLES = {
    "schema_version",
    "guild_settings",
    "channel_settings",
    "rolls",
    "will_pools",
    "beats",
    "attempts",
    "turn_actions",
    "actions",
    "initiative",
}


def _versions(path: Path) -> list[int]:
    with sqlite3.connect(path) as conn:
        return [row[0] for row in conn.execute("SELECT version FROM schema_version ORDER BY 1")]


def _tables(path: Path) -> set[str]:
    with sqlite3.connect(path) as conn:
        rows = conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
        return {row[0] for row in rows}


@pytest.fixture
def migrations(tmp_path: Path) -> Path:
    """A copy of the real migrations folder that a test may add files to."""
    folder = tmp_path / "migrations"
    shutil.copytree(MIGRATIONS_DIR, folder)
    return folder


def test_migration_files_are_numbered_in_order_without_gaps() -> None:
    versions = [migration.version for migration in discover(MIGRATIONS_DIR)]

    assert versions == list(range(1, len(versions) + 1))


async def test_opening_an_empty_database_applies_every_migration(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()

    assert _versions(db_path) == [m.version for m in discover(MIGRATIONS_DIR)]
    assert _tables(db_path) >= TABLES


async def test_the_database_file_is_in_wal_mode(store: Store, db_path: Path) -> None:
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


async def test_foreign_keys_are_enforced(store: Store) -> None:
    with pytest.raises(sqlite3.IntegrityError, match=r"(?i)foreign key"):
        await store.write(
            lambda tx: tx.rolls.insert(
                guild_id=GUILD,
                channel_id=CHANNEL,
                roller_id=ROLLER,
                result=failure(),
                will_state=WillState.OFFERED,
                action_id=999,
            )
        )


async def test_a_rerun_applies_nothing_and_keeps_the_data(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.write(lambda tx: track_will(tx, ROLLER, maximum=5))
    await store.close()

    async with aiosqlite.connect(db_path, isolation_level=None) as conn:
        applied = await migrate(conn)
    reopened = await Store.open(db_path)
    pool = await reopened.read(lambda tx: tx.will.get(GUILD, ROLLER))
    await reopened.close()

    assert applied == []
    assert pool is not None
    assert pool.maximum == 5
    assert _versions(db_path) == [m.version for m in discover(MIGRATIONS_DIR)]


async def test_a_new_migration_is_applied_on_the_next_start(
    db_path: Path, migrations: Path
) -> None:
    store = await Store.open(db_path, migrations)
    await store.close()
    (migrations / "0900_notes.sql").write_text(
        "CREATE TABLE notes (id INTEGER PRIMARY KEY, body TEXT NOT NULL);\n"
        "INSERT INTO notes (body) VALUES ('a; b');\n"
    )

    store = await Store.open(db_path, migrations)
    await store.close()

    assert _versions(db_path)[-1] == 900
    assert "notes" in _tables(db_path)


async def test_a_failing_migration_is_rolled_back_and_not_recorded(
    db_path: Path, migrations: Path
) -> None:
    store = await Store.open(db_path, migrations)
    await store.close()
    before = _versions(db_path)
    broken = migrations / "0900_broken.sql"
    broken.write_text(
        "CREATE TABLE half_done (id INTEGER PRIMARY KEY);\nINSERT INTO no_such_table VALUES (1);\n"
    )

    with pytest.raises(MigrationError, match=r"0900_broken\.sql"):
        await Store.open(db_path, migrations)

    assert _versions(db_path) == before
    assert "half_done" not in _tables(db_path)

    broken.write_text("CREATE TABLE half_done (id INTEGER PRIMARY KEY);\n")
    store = await Store.open(db_path, migrations)
    await store.close()
    assert _versions(db_path) == [*before, 900]


async def test_a_failing_first_migration_leaves_an_empty_schema(
    db_path: Path, tmp_path: Path
) -> None:
    folder = tmp_path / "only_broken"
    folder.mkdir()
    (folder / "0001_initial.sql").write_text("CREATE TABLE t (id INTEGER);\nNOT SQL AT ALL;\n")

    with pytest.raises(MigrationError, match="rolled back"):
        await Store.open(db_path, folder)

    assert _versions(db_path) == []
    assert _tables(db_path) == {"schema_version"}


async def test_a_database_from_a_newer_bot_is_refused(db_path: Path) -> None:
    store = await Store.open(db_path)
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute("INSERT INTO schema_version (version, name) VALUES (9999, '9999_future.sql')")

    with pytest.raises(MigrationError, match="newer version of the bot"):
        await Store.open(db_path)


@pytest.mark.parametrize(
    ("name", "problem"),
    [("initial.sql", "not named"), ("01_short.sql", "not named"), ("0002_Caps.sql", "not named")],
)
def test_a_badly_named_migration_file_stops_start_up(
    migrations: Path, name: str, problem: str
) -> None:
    (migrations / name).write_text("SELECT 1;")

    with pytest.raises(MigrationError, match=problem):
        discover(migrations)


def test_two_migrations_with_one_version_stop_start_up(migrations: Path) -> None:
    (migrations / "0001_again.sql").write_text("SELECT 1;")

    with pytest.raises(MigrationError, match="share version 1"):
        discover(migrations)


def test_a_missing_migrations_folder_stops_start_up(tmp_path: Path) -> None:
    with pytest.raises(MigrationError, match="no migrations folder"):
        discover(tmp_path / "nowhere")


def test_statements_split_where_sqlite_says_they_end() -> None:
    script = """
        -- a comment; with a semicolon
        CREATE TABLE t (body TEXT DEFAULT 'x; y'); INSERT INTO t VALUES ('1;2');
        CREATE TRIGGER t_touch AFTER INSERT ON t BEGIN
            UPDATE t SET body = body || ';';
        END;
        -- trailing comment
    """

    statements = split_statements(script)

    assert len(statements) == 3
    assert statements[1] == "INSERT INTO t VALUES ('1;2');"
    assert statements[2].endswith("END;")


def test_an_unterminated_statement_is_refused() -> None:
    with pytest.raises(ValueError, match="unterminated"):
        split_statements("CREATE TABLE t (id INTEGER);\nCREATE TABLE u (id INTEGER)")


async def test_an_unterminated_statement_stops_start_up(db_path: Path, migrations: Path) -> None:
    (migrations / "0900_cut.sql").write_text("CREATE TABLE cut (id INTEGER)")

    with pytest.raises(MigrationError, match=r"0900_cut\.sql cannot be read"):
        await Store.open(db_path, migrations)


CHARACTER_IDS = 11
"""The migration that keeps a deleted sheet's id from being given again (AUTOINCREMENT)."""


def _before(tmp_path: Path, version: int) -> Path:
    """A migrations folder holding the real files older than ``version``."""
    folder = tmp_path / f"before_{version}"
    folder.mkdir()
    for migration in discover(MIGRATIONS_DIR):
        if migration.version < version:
            shutil.copy(MIGRATIONS_DIR / migration.name, folder)
    return folder


def _contents(path: Path) -> dict[str, list[tuple[Any, ...]]]:
    """Every row of every table (the migrations' own bookkeeping aside), and the schema's
    indexes, triggers and foreign keys."""
    with sqlite3.connect(path) as conn:
        tables = [row[0] for row in conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table'"
            " AND name NOT IN ('schema_version', 'sqlite_sequence') ORDER BY name")]
        seen = {table: sorted(conn.execute(f"SELECT * FROM {table}"), key=repr)  # noqa: S608
                for table in tables}
        seen["indexes and triggers"] = conn.execute(
            "SELECT type, name, tbl_name, sql FROM sqlite_master"
            " WHERE type IN ('index', 'trigger') ORDER BY name").fetchall()
        seen["foreign keys"] = [
            (table, *key) for table in tables
            for key in conn.execute(f"PRAGMA foreign_key_list({table})")]
        return seen


async def test_character_ids_migration_keeps_every_row_index_and_reference(
    db_path: Path, tmp_path: Path
) -> None:
    """Migration 0011 rebuilds characters with AUTOINCREMENT on a database in use: every
    sheet keeps its id and columns, its active marks (rows of a table referring to it,
    which dropping the old table would have cascaded away), its index and its checks; the
    next sheet's id comes after every id the log still names, the deleted newest sheet's
    included; foreign keys are enforced again afterwards."""
    store = await Store.open(db_path, _before(tmp_path, CHARACTER_IDS))
    sheets = [await store.write(lambda tx, name=name: tx.characters.insert(
        GUILD, ROLLER, new_sheet(name, Ruleset.COFD))) for name in ("Mara", "Nova", "Zed")]
    mara, nova, zed = (sheet for sheet in sheets if sheet is not None)

    def fill(tx: Tx) -> None:
        tx.characters.use(GUILD, ROLLER, mara.id)
        tx.characters.use(GUILD, ROLLER, nova.id, channel_id=CHANNEL)
        for sheet in (mara, zed):
            tx.rolls.insert(guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER,
                            result=failure(), will_state=WillState.OFFERED,
                            character_id=sheet.id, character_name=sheet.name)
        assert tx.characters.delete(zed.id, zed.version)

    await store.write(fill)
    await store.close()
    before = _contents(db_path)

    store = await Store.open(db_path)
    newcomer = await store.write(lambda tx: tx.characters.insert(
        GUILD, OTHER, new_sheet("Newcomer", Ruleset.COFD)))
    assert await store.write(lambda tx: tx.characters.delete(mara.id, mara.version))
    active = await store.read(lambda tx: tx.characters.active(GUILD, ROLLER, OTHER_CHANNEL))
    await store.close()

    assert CHARACTER_IDS in _versions(db_path)
    assert newcomer is not None and newcomer.id == zed.id + 1, "the deleted Zed's id stays his"
    assert active is None, "deleting Mara took her active mark with it (foreign keys on)"
    after = _contents(db_path)
    with sqlite3.connect(db_path) as conn:
        schema = conn.execute(
            "SELECT sql FROM sqlite_master WHERE name = 'characters'").fetchone()[0]
        with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
            conn.execute("UPDATE characters SET npc = 2")
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
    assert "AUTOINCREMENT" in schema
    assert after["characters"] == sorted(
        [row for row in before["characters"] if row[0] != mara.id]
        + [row for row in after["characters"] if row[0] == newcomer.id], key=repr)
    assert after["active_characters"] == [
        row for row in before["active_characters"] if row[3] != mara.id]
    assert before["active_characters"], "the marks were there to keep"
    for key in before.keys() - {"characters", "active_characters"}:
        assert after[key] == before[key], key


async def test_character_ids_migration_counts_the_sheet_an_extended_action_rolls_as(
    db_path: Path, tmp_path: Path
) -> None:
    """An extended action keeps the id of the character it rolls as in its saved state:
    the newest sheet, deleted before the migration and never rolled with, keeps its id
    there, so the next sheet does not get it (the action's next roll would have spent the
    new sheet's Will)."""
    store = await Store.open(db_path, _before(tmp_path, CHARACTER_IDS))
    sheets = [await store.write(lambda tx, name=name: tx.characters.insert(
        GUILD, ROLLER, new_sheet(name, Ruleset.COFD))) for name in ("Mara", "Ext")]
    mara, ext = (sheet for sheet in sheets if sheet is not None)
    assert await store.write(lambda tx: tx.characters.delete(ext.id, ext.version))
    await store.close()
    with sqlite3.connect(db_path) as conn:
        conn.execute(
            "INSERT INTO actions (kind, guild_id, channel_id, owner_id, label, label_key,"
            " state_json) VALUES ('extended', ?, ?, ?, 'climb', 'climb', ?)",
            (GUILD, CHANNEL, ROLLER, f'{{"character_id": {ext.id}}}'))

    store = await Store.open(db_path)
    newcomer = await store.write(lambda tx: tx.characters.insert(
        GUILD, OTHER, new_sheet("Fresh", Ruleset.COFD)))
    await store.close()

    assert ext.id > mara.id
    assert newcomer is not None and newcomer.id == ext.id + 1


async def test_a_migration_leaving_a_reference_to_no_row_is_rolled_back(
    db_path: Path, migrations: Path
) -> None:
    """Foreign keys are off while a migration runs (so a table rebuild cascades nothing),
    and checked before it commits: one that leaves a row referring to nothing is refused."""
    store = await Store.open(db_path, migrations)
    sheet = await store.write(lambda tx: tx.characters.insert(
        GUILD, ROLLER, new_sheet("Mara", Ruleset.COFD)))
    assert sheet is not None
    await store.write(lambda tx: tx.characters.use(GUILD, ROLLER, sheet.id))
    await store.close()
    (migrations / "0900_orphans.sql").write_text("DELETE FROM characters;\n")

    with pytest.raises(MigrationError, match=r"0900_orphans\.sql left 1 rows referring"):
        await Store.open(db_path, migrations)

    assert 900 not in _versions(db_path)
    with sqlite3.connect(db_path) as conn:
        assert conn.execute("SELECT count(*) FROM characters").fetchone()[0] == 1


TURNS_BY_CHARACTER = 12
"""The migration that keys the fistful turn count by character (RULES.md §3)."""


async def test_turn_actions_migration_keeps_the_counts_as_the_members_own(
    db_path: Path, tmp_path: Path
) -> None:
    """Migration 0012 rebuilds turn_actions with a character's count beside a member's own
    on a database in use: the counts kept so far stay the members' own (rolled without a
    sheet); a character's count is then kept apart, and a row is never both nor neither."""
    store = await Store.open(db_path, _before(tmp_path, TURNS_BY_CHARACTER))
    await store.close()
    with sqlite3.connect(db_path) as conn:  # the schema before: a count per member
        conn.executemany(
            "INSERT INTO turn_actions (guild_id, channel_id, user_id, actions)"
            " VALUES (?, ?, ?, ?)",
            [(GUILD, CHANNEL, ROLLER, 2), (GUILD, OTHER_CHANNEL, OTHER, 1)])

    store = await Store.open(db_path)
    counts = await store.read(lambda tx: (
        tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER),
        tx.attempts.turn_actions(GUILD, OTHER_CHANNEL, OTHER),
        tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER, 7)))
    assert await store.write(lambda tx: tx.attempts.save_turn_actions(
        GUILD, CHANNEL, ROLLER, 7, old=0, new=1))
    after = await store.read(lambda tx: (
        tx.attempts.turn_actions(GUILD, CHANNEL, ROLLER),
        tx.attempts.turn_actions(GUILD, CHANNEL, OTHER, 7)))
    await store.close()

    assert TURNS_BY_CHARACTER in _versions(db_path)
    assert counts == (2, 1, 0)
    assert after == (2, 1), "the character's count, whoever reads it"
    with sqlite3.connect(db_path) as conn:
        for user_id, character_id in ((0, 0), (ROLLER, 7)):
            with pytest.raises(sqlite3.IntegrityError, match="CHECK"):
                conn.execute("INSERT INTO turn_actions (guild_id, channel_id, user_id,"
                             " character_id, actions) VALUES (?, ?, ?, ?, 1)",
                             (GUILD, CHANNEL, user_id, character_id))
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
