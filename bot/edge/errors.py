"""One error path: user mistakes become ephemeral replies, the rest is logged.

Slash commands reach :meth:`StorytellerTree.on_error`; button and modal
callbacks get no tree error handling from discord.py (it only logs them), so
they run inside :func:`answering_errors`, which uses the same reply.

A database that cannot do what was asked (locked by another program,
read-only, a full disk) is neither the member's mistake nor a bug: the member
is told what is wrong in words (:func:`store_fault_message`), the details go
to the log, and the bot keeps serving.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
from discord import app_commands

from bot.flows.reply import UserError
from bot.render.messages import (
    APOLOGY,
    NO_DIRECT_MESSAGES,
    NOT_ALLOWED,
    STORE_BUSY,
    STORE_FAILED,
    STORE_FULL,
    STORE_READ_ONLY,
    missing_permissions,
    not_a_value,
)

log = logging.getLogger(__name__)

#: SQLite result codes (``sqlite_errorname``, extended codes included) → the member's message.
_STORE_FAULTS: tuple[tuple[tuple[str, ...], str], ...] = (
    (("SQLITE_BUSY", "SQLITE_LOCKED"), STORE_BUSY),
    (("SQLITE_READONLY",), STORE_READ_ONLY),
    (("SQLITE_FULL",), STORE_FULL),
    (("SQLITE_IOERR", "SQLITE_CANTOPEN"), STORE_FAILED),
)


async def reply_ephemeral(interaction: discord.Interaction, message: str) -> None:
    """Answer only the person who acted, whether or not the interaction was answered yet."""
    if interaction.response.is_done():
        await interaction.followup.send(message, ephemeral=True)
    else:
        await interaction.response.send_message(message, ephemeral=True)


def user_message(error: Exception) -> str | None:
    """The ephemeral text for an error the user can fix, or None for a bug."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return missing_permissions(error.missing_permissions)
    if isinstance(error, app_commands.NoPrivateMessage):
        return NO_DIRECT_MESSAGES
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or NOT_ALLOWED
    if isinstance(error, app_commands.TransformerError):
        return not_a_value(error.value)
    return None


def _sqlite_error(error: BaseException) -> sqlite3.Error | None:
    """The SQLite error behind ``error`` (aiosqlite re-raises sqlite3's own), if any."""
    if isinstance(error, app_commands.CommandInvokeError):
        error = error.original
    return error if isinstance(error, sqlite3.Error) else None


def _result_code(error: sqlite3.Error) -> str:
    """SQLite's name for the failure, e.g. ``SQLITE_READONLY``; empty when the error did
    not come from SQLite itself (the sqlite3 module raises some on its own)."""
    return str(getattr(error, "sqlite_errorname", ""))


def store_fault_message(error: BaseException) -> str | None:
    """The ephemeral text for a database that refused the work (busy, read-only, full,
    failing), or None when ``error`` is not such a fault."""
    fault = _sqlite_error(error)
    if fault is None:
        return None
    name = _result_code(fault)
    return next(
        (message for prefixes, message in _STORE_FAULTS if name.startswith(prefixes)), None
    )


async def _answer(interaction: discord.Interaction, error: Exception) -> None:
    message = user_message(error)
    if message is None:
        message = store_fault_message(error)
        fault = _sqlite_error(error)
        if message is not None and fault is not None:
            # Not the member's mistake and not a bug: whoever runs the bot must see it.
            level = logging.WARNING if message is STORE_BUSY else logging.ERROR
            log.log(
                level, "Database fault in %s: %s (%s)",
                _describe(interaction), fault, _result_code(fault),
            )
    if message is None:
        log.error("Unhandled error in %s", _describe(interaction), exc_info=error)
        message = APOLOGY
    try:
        await reply_ephemeral(interaction, message)
    except discord.HTTPException:
        log.warning("Could not tell the user about an error in %s", _describe(interaction))


def _describe(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"component {custom_id}"


class StorytellerTree(app_commands.CommandTree[discord.Client]):
    """The command tree: every command error ends in one ephemeral answer."""

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await _answer(interaction, error)


@asynccontextmanager
async def answering_errors(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run a button or modal callback with the same error answers as slash commands."""
    try:
        yield
    except Exception as error:
        await _answer(interaction, error)
