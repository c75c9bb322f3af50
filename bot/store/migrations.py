"""Numbered SQL files applied in order at start-up, each with its version record.

A file is named ``NNNN_reason.sql``. Each pending file runs in one
``BEGIN IMMEDIATE`` transaction together with the row that records its version
in ``schema_version``: either both happen or neither does, so a failed
migration leaves the database as it was and start-up stops with
:class:`MigrationError`. Applied versions are skipped, so a re-run is a no-op.

The files hold plain statements: no ``BEGIN``/``COMMIT`` (the runner owns the
transaction) and no ``PRAGMA`` (most cannot change inside a transaction).

Foreign keys are off while migrations run and checked before each one commits: a
file may then rebuild a table the SQLite way (new table, rows copied, old one
dropped, new one renamed), whose ``DROP TABLE`` would otherwise cascade into the
tables referring to it (active_characters' rows would go with the old characters
table). A file that leaves a dangling reference is rolled back.
"""

from __future__ import annotations

import logging
import re
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import aiosqlite

log = logging.getLogger(__name__)

#: The repository's migrations folder (the package is installed editable, or
#: run from a checkout); a deployment elsewhere passes its own folder.
MIGRATIONS_DIR = Path(__file__).resolve().parents[2] / "migrations"

_NAME = re.compile(r"(?P<version>\d{4})_(?P<reason>[a-z0-9_]+)\.sql")


class MigrationError(RuntimeError):
    """The schema could not be brought up to date; the bot must not start."""


@dataclass(frozen=True, slots=True)
class Migration:
    """One migration file."""

    version: int
    name: str
    sql: str


def refuse_unknown(done: set[int], migrations: list[Migration], directory: Path) -> None:
    """Refuse a database that has a version this code does not know: it was written by a
    newer bot, and guessing at its schema could lose what it holds."""
    unknown = done - {migration.version for migration in migrations}
    if unknown:
        msg = (
            f"the database has schema versions {sorted(unknown)} that {directory} "
            "does not contain: it was written by a newer version of the bot"
        )
        raise MigrationError(msg)


def discover(directory: Path) -> list[Migration]:
    """The migration files in ``directory``, in version order.

    Raises :class:`MigrationError` for a missing folder, a ``.sql`` file not
    named ``NNNN_reason.sql``, or two files with the same version.
    """
    if not directory.is_dir():
        msg = f"no migrations folder at {directory}"
        raise MigrationError(msg)
    migrations: dict[int, Migration] = {}
    for path in sorted(directory.glob("*.sql")):
        match = _NAME.fullmatch(path.name)
        if match is None:
            msg = f"migration file {path.name} is not named NNNN_reason.sql"
            raise MigrationError(msg)
        version = int(match["version"])
        if version in migrations:
            msg = f"migrations {migrations[version].name} and {path.name} share version {version}"
            raise MigrationError(msg)
        migrations[version] = Migration(version, path.name, path.read_text(encoding="utf-8"))
    return [migrations[version] for version in sorted(migrations)]


def split_statements(script: str) -> list[str]:
    """Cut a script into single statements.

    ``sqlite3.Connection.executescript`` would do it, but it commits any open
    transaction first, which would break "the file and its version record in
    one transaction". SQLite's own ``complete_statement`` decides where a
    statement ends, so semicolons inside strings, comments and trigger bodies
    are handled. Raises ValueError when text other than comments follows the
    last complete statement.
    """
    statements: list[str] = []
    start = 0
    for end, char in enumerate(script):
        if char == ";" and sqlite3.complete_statement(script[start : end + 1]):
            statements.append(script[start : end + 1].strip())
            start = end + 1
    rest = "\n".join(
        line for line in script[start:].splitlines() if not line.strip().startswith("--")
    )
    if rest.strip():
        msg = f"unterminated statement at the end: {rest.strip()[:80]!r}"
        raise ValueError(msg)
    return statements


async def _applied_versions(conn: aiosqlite.Connection) -> set[int]:
    """The versions recorded in ``schema_version`` (creating the table if needed)."""
    await conn.execute(
        "CREATE TABLE IF NOT EXISTS schema_version ("
        " version INTEGER PRIMARY KEY,"
        " name TEXT NOT NULL,"
        " applied_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now'))"
        ") STRICT"
    )
    rows = await conn.execute_fetchall("SELECT version FROM schema_version")
    return {int(row[0]) for row in rows}


async def migrate(conn: aiosqlite.Connection, directory: Path = MIGRATIONS_DIR) -> list[int]:
    """Apply every pending migration in order; the versions applied now.

    ``conn`` must be in autocommit mode (``isolation_level=None``) with no
    transaction open. A database that already has a version this code does
    not know was written by a newer bot: refused rather than guessed at.
    """
    migrations = discover(directory)
    done = await _applied_versions(conn)
    refuse_unknown(done, migrations, directory)
    pending = [migration for migration in migrations if migration.version not in done]
    if not pending:
        return []
    # PRAGMA foreign_keys is a no-op inside a transaction: it is switched between them.
    enforced = bool(next(iter(await conn.execute_fetchall("PRAGMA foreign_keys")))[0])
    await conn.execute("PRAGMA foreign_keys = OFF")
    try:
        applied: list[int] = []
        for migration in pending:
            await _apply(conn, migration)
            log.info("applied migration %s", migration.name)
            applied.append(migration.version)
        return applied
    finally:
        if enforced:
            await conn.execute("PRAGMA foreign_keys = ON")


async def _apply(conn: aiosqlite.Connection, migration: Migration) -> None:
    try:
        statements = split_statements(migration.sql)
    except ValueError as error:
        msg = f"migration {migration.name} cannot be read: {error}"
        raise MigrationError(msg) from error
    try:
        await conn.execute("BEGIN IMMEDIATE")
        before = await _dangling(conn)
        for statement in statements:
            await conn.execute(statement)
        dangling = sorted(await _dangling(conn) - before)
        if dangling:
            table, rowid, parent = dangling[0]
            msg = (
                f"migration {migration.name} left {len(dangling)} rows referring to no row"
                f" (first: {table} row {rowid} to {parent}) and was rolled back"
            )
            raise MigrationError(msg)
        await conn.execute(
            "INSERT INTO schema_version (version, name) VALUES (?, ?)",
            (migration.version, migration.name),
        )
        await conn.execute("COMMIT")
    except BaseException as error:
        await conn.rollback()  # a no-op when nothing is open
        if isinstance(error, sqlite3.Error):
            msg = f"migration {migration.name} failed and was rolled back: {error}"
            raise MigrationError(msg) from error
        raise


async def _dangling(conn: aiosqlite.Connection) -> set[tuple[str, str, str]]:
    """Rows whose foreign key refers to no row: (table, rowid, parent table). A migration
    may add none; those already there (written with foreign keys off by something else)
    are not its doing and do not stop start-up."""
    rows = await conn.execute_fetchall("PRAGMA foreign_key_check")
    return {(str(row[0]), str(row[1]), str(row[2])) for row in rows}
