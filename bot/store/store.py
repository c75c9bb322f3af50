"""The store: one SQLite connection, serialised transactions, typed repositories.

Usage from a cog::

    async with store.transaction() as tx:        # BEGIN IMMEDIATE
        await tx.rolls.close(guild_id, channel_id, roller_id)
        roll_id = await tx.rolls.insert(...)
        await tx.attempts.record(guild_id, channel_id, roller_id, label, result)
    # COMMIT here; ROLLBACK (and re-raise) if the block raised

or, for one operation, the method of the same purpose on :class:`Store`,
which opens its own transaction. Inside a transaction use only ``tx``:
calling a Store method there would wait for the transaction itself, so it
raises instead.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import aiosqlite
from pydantic import BaseModel

from bot.store.actions import ActionRepository
from bot.store.attempts import AttemptRepository
from bot.store.migrations import MIGRATIONS_DIR, migrate
from bot.store.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    BeatTaken,
    Change,
    ChannelConfig,
    ChannelOption,
    GuildSettings,
    OptionValue,
    Refusal,
    RollRecord,
    Voided,
    WillPool,
    WillSpent,
)
from bot.store.rolls import RollRepository
from bot.store.settings import SettingsRepository
from bot.store.will import WillRepository
from engine.models import RollResult, Ruleset

log = logging.getLogger(__name__)

#: STRICT tables need 3.37; RETURNING needs 3.35.
MIN_SQLITE = (3, 37, 0)

#: Milliseconds a write waits for a lock held by another program once the bot serves members.
BUSY_TIMEOUT_MS = 1000

#: The store whose transaction the current task is inside, to refuse nesting.
_inside: ContextVar[Store | None] = ContextVar("bot_store_transaction", default=None)


class StoreError(RuntimeError):
    """The database cannot be used as the store needs it."""


@dataclass(frozen=True, slots=True)
class Tx:
    """The repositories of one open transaction. Valid only inside its ``async with``."""

    settings: SettingsRepository
    rolls: RollRepository
    will: WillRepository
    attempts: AttemptRepository
    actions: ActionRepository


class Store:
    """The bot's only access to its database. Build it with :meth:`open`."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn
        self._lock = asyncio.Lock()
        will = WillRepository(conn)
        self._tx = Tx(
            settings=SettingsRepository(conn),
            rolls=RollRepository(conn, will),
            will=will,
            attempts=AttemptRepository(conn),
            actions=ActionRepository(conn),
        )

    @classmethod
    async def open(cls, path: Path | str, migrations: Path = MIGRATIONS_DIR) -> Store:
        """Open (or create) the database file and bring its schema up to date.

        Creates the parent folder, switches to WAL, turns foreign keys on and
        applies pending migrations; raises :class:`StoreError` (the file cannot be
        opened or used) or :class:`bot.store.migrations.MigrationError` when the bot
        must not start.
        """
        if sqlite3.sqlite_version_info < MIN_SQLITE:
            msg = (
                f"SQLite {'.'.join(map(str, MIN_SQLITE))} or newer is needed,"
                f" this Python has {sqlite3.sqlite_version}"
            )
            raise StoreError(msg)
        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            # Autocommit mode: the store issues BEGIN/COMMIT itself, never the sqlite3 module.
            conn = await aiosqlite.connect(path, isolation_level=None)
        except (OSError, sqlite3.Error) as error:  # a folder in the way, no permission, ...
            msg = f"{path} cannot be opened: {error}"
            raise StoreError(msg) from error
        try:
            conn.row_factory = aiosqlite.Row
            rows = await conn.execute_fetchall("PRAGMA journal_mode = WAL")
            mode = next(iter(rows))[0]
            if mode != "wal":
                msg = f"{path} cannot use write-ahead logging (journal mode {mode!r})"
                raise StoreError(msg)
            await conn.execute("PRAGMA foreign_keys = ON")
            # In WAL mode NORMAL keeps the file consistent and loses nothing when the bot
            # crashes or is killed (a test kills it under load); only a power cut or an OS
            # crash can lose the last commits. FULL would fsync every roll: several times
            # the cost of a whole interaction (BENCHMARKS.md §1.4).
            await conn.execute("PRAGMA synchronous = NORMAL")
            # Milliseconds a statement waits for another process's write lock. Start-up
            # has nobody waiting for an answer, so migrations may wait 5 s.
            await conn.execute("PRAGMA busy_timeout = 5000")
            applied = await migrate(conn, migrations)
            # From here on a member waits: Discord drops an interaction not answered within
            # 3 s, so a write blocked by another program gives up after BUSY_TIMEOUT_MS and
            # the member is told the database is busy (bot.errors) while there is still time.
            # (A PRAGMA takes no parameters: the literal must match BUSY_TIMEOUT_MS.)
            await conn.execute("PRAGMA busy_timeout = 1000")
        except sqlite3.Error as error:  # not a database, locked, read-only and new, ...
            await conn.close()
            msg = f"{path} cannot be used: {error}"
            raise StoreError(msg) from error
        except BaseException:
            await conn.close()
            raise
        log.info("store open at %s (%d migrations applied now)", path, len(applied))
        return cls(conn)

    async def close(self) -> None:
        """Close the connection once the running transaction (if any) is over."""
        async with self._lock:
            await self._conn.close()

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Tx]:
        """A write transaction: ``BEGIN IMMEDIATE``, then COMMIT, or ROLLBACK on any
        exception (re-raised). Writers are serialised, so a read-modify-write
        inside one is never interleaved with another."""
        async with self._begin("BEGIN IMMEDIATE") as tx:
            yield tx

    @asynccontextmanager
    async def read(self) -> AsyncIterator[Tx]:
        """A read transaction: a consistent view that never sees another task's
        uncommitted writes (they share the connection, so reads wait their turn too)."""
        async with self._begin("BEGIN") as tx:
            yield tx

    @asynccontextmanager
    async def _begin(self, begin: str) -> AsyncIterator[Tx]:
        if _inside.get() is self:
            msg = "already inside a transaction of this store: use its tx"
            raise RuntimeError(msg)
        async with self._lock:
            token = _inside.set(self)
            try:
                await self._conn.execute(begin)
                yield self._tx
                await self._conn.execute("COMMIT")
            except BaseException:
                # Queued behind whatever statement a cancellation left running, and a
                # no-op when no transaction is open: the lock is never released mid-way.
                await self._conn.rollback()
                raise
            finally:
                _inside.reset(token)

    # --- one operation, one transaction --------------------------------------

    async def get_channel_config(
        self, guild_id: int, channel_id: int, parent_id: int | None = None
    ) -> ChannelConfig:
        """The settings in force in a channel (``parent_id``: a thread's channel)."""
        async with self.read() as tx:
            return await tx.settings.config(guild_id, channel_id, parent_id)

    async def set_guild_ruleset(self, guild_id: int, ruleset: Ruleset | None) -> Change[Ruleset]:
        """Set or clear the server's ruleset; the server-wide value before and after."""
        async with self.transaction() as tx:
            return await tx.settings.set_guild_ruleset(guild_id, ruleset)

    async def set_channel_option(
        self,
        guild_id: int,
        channel_id: int,
        option: ChannelOption,
        value: OptionValue | None,
        parent_id: int | None = None,
    ) -> Change[OptionValue]:
        """Set or clear one channel option; the value in force before and after."""
        async with self.transaction() as tx:
            return await tx.settings.set_channel_option(
                guild_id, channel_id, option, value, parent_id
            )

    async def set_storyteller(
        self, guild_id: int, role_id: int | None, channel_id: int | None
    ) -> Change[GuildSettings]:
        """Set the Storyteller role and the channel for secret-roll copies."""
        async with self.transaction() as tx:
            return await tx.settings.set_storyteller(guild_id, role_id, channel_id)

    async def get_roll(self, roll_id: int) -> RollRecord | None:
        """A roll by id."""
        async with self.read() as tx:
            return await tx.rolls.get(roll_id)

    async def attach_roll_messages(
        self,
        roll_id: int,
        message_id: int,
        *,
        copy_channel_id: int | None = None,
        copy_message_id: int | None = None,
    ) -> None:
        """Remember a roll's message (and the copy of a secret roll) once sent."""
        async with self.transaction() as tx:
            await tx.rolls.attach_messages(
                roll_id,
                message_id,
                copy_channel_id=copy_channel_id,
                copy_message_id=copy_message_id,
            )

    async def spend_will(
        self, roll_id: int, user_id: int, result: RollResult
    ) -> WillSpent | Refusal:
        """The Spend Will button: see :meth:`RollRepository.spend_will`."""
        async with self.transaction() as tx:
            return await tx.rolls.spend_will(roll_id, user_id, result)

    async def take_beat(
        self, roll_id: int, user_id: int, result: RollResult
    ) -> BeatTaken | Refusal:
        """The Take a Beat button: see :meth:`RollRepository.take_beat`."""
        async with self.transaction() as tx:
            return await tx.rolls.take_beat(roll_id, user_id, result)

    async def close_rolls(
        self, guild_id: int, channel_id: int, roller_id: int | None = None
    ) -> list[RollRecord]:
        """Close a channel's open rolls (one roller's, when given); the rolls closed."""
        async with self.transaction() as tx:
            return await tx.rolls.close(guild_id, channel_id, roller_id)

    async def history(
        self,
        guild_id: int,
        channel_id: int,
        *,
        viewer_id: int,
        viewer_is_storyteller: bool,
        count: int = 10,
        member_id: int | None = None,
    ) -> list[RollRecord]:
        """The channel's latest rolls that the viewer may see, newest first."""
        async with self.read() as tx:
            return await tx.rolls.history(
                guild_id,
                channel_id,
                viewer_id=viewer_id,
                viewer_is_storyteller=viewer_is_storyteller,
                count=count,
                member_id=member_id,
            )

    async def attach_action_message(self, action_id: int, message_id: int) -> None:
        """Remember the card that shows an action, once it is sent."""
        async with self.transaction() as tx:
            await tx.actions.attach_message(action_id, message_id)

    async def void_roll(
        self, guild_id: int, channel_id: int, roll_id: int, by_user_id: int
    ) -> Voided | None:
        """Void a roll of this channel; None when there is no such roll."""
        async with self.transaction() as tx:
            return await tx.rolls.void(guild_id, channel_id, roll_id, by_user_id)

    async def get_will(self, guild_id: int, user_id: int) -> WillPool | None:
        """A member's tracked Will pool, or None."""
        async with self.read() as tx:
            return await tx.will.get(guild_id, user_id)

    async def get_beats(self, guild_id: int, user_id: int) -> int:
        """A member's Beats."""
        async with self.read() as tx:
            return await tx.will.beats(guild_id, user_id)

    async def set_will(
        self, guild_id: int, user_id: int, maximum: int, current: int | None = None
    ) -> Change[WillPool | None]:
        """Track or change a Will pool: see :meth:`WillRepository.set_pool`."""
        async with self.transaction() as tx:
            return await tx.will.set_pool(guild_id, user_id, maximum, current)

    async def rest(self, guild_id: int, user_id: int) -> Change[WillPool] | None:
        """Regain 1 Will, up to the maximum; None when the pool is not tracked."""
        async with self.transaction() as tx:
            return await tx.will.rest(guild_id, user_id)

    async def gain_will(self, guild_id: int, user_id: int, amount: int) -> Change[WillPool] | None:
        """Regain ``amount`` Will, up to the maximum only; None when not tracked."""
        async with self.transaction() as tx:
            return await tx.will.gain(guild_id, user_id, amount)

    async def night(self, guild_id: int) -> int:
        """Every tracked pool in the server regains 1 up to its maximum; how many did."""
        async with self.transaction() as tx:
            return await tx.will.night(guild_id)

    async def create_action(
        self,
        kind: ActionKind,
        *,
        guild_id: int,
        channel_id: int,
        owner_id: int,
        label: str,
        state: BaseModel,
    ) -> ActionRecord:
        """Store a new open action."""
        async with self.transaction() as tx:
            return await tx.actions.create(
                kind,
                guild_id=guild_id,
                channel_id=channel_id,
                owner_id=owner_id,
                label=label,
                state=state,
            )

    async def get_action(self, action_id: int) -> ActionRecord | None:
        """An action by id."""
        async with self.read() as tx:
            return await tx.actions.get(action_id)

    async def find_open_actions(
        self,
        guild_id: int,
        channel_id: int,
        *,
        kind: ActionKind | None = None,
        label: str | None = None,
        owner_id: int | None = None,
    ) -> list[ActionRecord]:
        """A channel's open actions, filtered."""
        async with self.read() as tx:
            return await tx.actions.find_open(
                guild_id, channel_id, kind=kind, label=label, owner_id=owner_id
            )

    async def update_action(
        self,
        action_id: int,
        version: int,
        state: BaseModel,
        status: ActionStatus = ActionStatus.OPEN,
    ) -> int | None:
        """Replace an open action's state if still at ``version``; its new version, or None
        when stale."""
        async with self.transaction() as tx:
            return await tx.actions.update(action_id, version, state, status)
