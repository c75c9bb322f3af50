"""One error path: user mistakes become ephemeral replies, the rest is logged.

Slash commands reach :meth:`StorytellerTree.on_error`; button and modal
callbacks get no tree error handling from discord.py (it only logs them), so
they run inside :func:`answering_errors`, which uses the same reply.

A database that cannot do what was asked (locked by another program,
read-only, a full disk) is neither the member's mistake nor a bug: the member
is told what is wrong in words (:func:`store_fault`), the details go
to the log, and the bot keeps serving.

Every answer here is the member's own (ephemeral), in their client's language: the
tree's :meth:`StorytellerTree.interaction_check` and :func:`answering_errors` set
that voice before anything else runs.
"""

from __future__ import annotations

import logging
import sqlite3
import unicodedata
from collections.abc import AsyncIterator, Iterable
from contextlib import asynccontextmanager
from typing import Any

import discord
from discord import app_commands

from bot.edge.ctx import shown_name, speak_to
from bot.flows.reply import AnswerLostError, UserError
from bot.render.lang import _
from bot.render.messages import (
    ANSWER_LOST,
    ANSWER_NOT_TAKEN,
    APOLOGY,
    NO_DIRECT_MESSAGES,
    NOT_ALLOWED,
    STALE_COMMAND,
    STORE_BUSY,
    STORE_CONTENDED,
    STORE_FAILED,
    STORE_FULL,
    STORE_READ_ONLY,
    STORE_UNAVAILABLE,
    control_character,
    missing_permissions,
    not_a_choice,
    not_a_member,
    not_a_value,
    out_of_range,
    wrong_kind,
)
from bot.store import (
    StoreBusy,
    StoreError,
    StoreFull,
    StoreLocked,
    StoreReadOnly,
    StoreUnavailable,
)

log = logging.getLogger(__name__)

#: A command the member's Discord app still shows as it was before the bot's commands
#: changed (gone, or with options it no longer has): said to the member, and logged.
_STALE_COMMAND = (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)

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


def user_message(error: BaseException) -> str | None:
    """The ephemeral text for an error the user can fix, or None for a bug."""
    error = _original(error)
    if isinstance(error, UserError):
        return str(error)
    if isinstance(error, app_commands.MissingPermissions):
        return missing_permissions(error.missing_permissions)
    if isinstance(error, app_commands.NoPrivateMessage):
        return _(NO_DIRECT_MESSAGES)
    if isinstance(error, _STALE_COMMAND):
        return _(STALE_COMMAND)
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or _(NOT_ALLOWED)
    if isinstance(error, app_commands.TransformerError):
        if error.type is discord.AppCommandOptionType.user and isinstance(error.value,
                                                                          discord.User):
            return not_a_member(shown_name(error.value))
        return not_a_value(error.value)
    return None


def _sqlite_error(error: BaseException) -> sqlite3.Error | None:
    """The SQLite error behind ``error`` (aiosqlite re-raises sqlite3's own), if any."""
    error = _original(error)
    return error if isinstance(error, sqlite3.Error) else None


def _result_code(error: sqlite3.Error) -> str:
    """SQLite's name for the failure, e.g. ``SQLITE_READONLY``; empty when the error did
    not come from SQLite itself (the sqlite3 module raises some on its own)."""
    return str(getattr(error, "sqlite_errorname", ""))


def store_fault(error: BaseException) -> str | None:
    """Which of the messages above (untranslated) tells the member of a database that
    refused the work (busy, read-only, full, failing, a PostgreSQL server gone away); None
    when ``error`` is not such a fault."""
    error = _original(error)
    if isinstance(error, StoreUnavailable):
        return STORE_UNAVAILABLE
    if isinstance(error, StoreBusy):
        return STORE_CONTENDED
    if isinstance(error, StoreLocked):
        return STORE_BUSY
    if isinstance(error, StoreReadOnly):
        return STORE_READ_ONLY
    if isinstance(error, StoreFull):
        return STORE_FULL
    fault = _sqlite_error(error)
    if fault is None:
        return None
    name = _result_code(fault)
    return next(
        (message for prefixes, message in _STORE_FAULTS if name.startswith(prefixes)), None
    )


async def _answer(interaction: discord.Interaction, error: Exception) -> None:
    message = user_message(error)
    if isinstance(error, _STALE_COMMAND):
        # the member's app is out of date, or the commands were never synced since they
        # changed: whoever runs the bot may need to sync them
        log.warning("Stale command in %s: %s", _describe(interaction), error)
    if message is None:
        kind = store_fault(error)
        message = None if kind is None else _(kind)
        fault = _sqlite_error(error)
        original = _original(error)
        if message is not None and isinstance(original, StoreError):
            # A server that may come back by itself is a warning; one that takes no writes
            # (or has no room) stays so until whoever runs it acts.
            level = (logging.WARNING
                     if isinstance(original, StoreUnavailable | StoreBusy | StoreLocked)
                     else logging.ERROR)
            log.log(level, "Database fault in %s: %s (%s)", _describe(interaction),
                    type(original).__name__, original)
        elif message is not None and fault is not None:
            # Not the member's mistake and not a bug: whoever runs the bot must see it.
            level = logging.WARNING if kind is STORE_BUSY else logging.ERROR
            log.log(
                level, "Database fault in %s: %s (%s)",
                _describe(interaction), fault, _result_code(fault),
            )
    lost = _original(error)
    if message is None and isinstance(lost, AnswerLostError):
        log.warning("Could not answer %s: %s", _describe(interaction), lost)
        message = _(ANSWER_LOST if lost.changed else ANSWER_NOT_TAKEN)
    if message is None and isinstance(_original(error), discord.HTTPException):
        # Discord refused what answered before any work was done (a refusal, a form, an
        # acknowledgement; the interaction expired, a server error): no bug of the bot's.
        log.warning("Discord refused the answer to %s: %s", _describe(interaction),
                    _original(error))
        message = _(APOLOGY)
    if message is None:
        log.error("Unhandled error in %s", _describe(interaction), exc_info=error)
        message = _(APOLOGY)
    try:
        await reply_ephemeral(interaction, message)
    except discord.HTTPException:
        log.warning("Could not tell the user about an error in %s", _describe(interaction))


def _original(error: BaseException) -> BaseException:
    """The error a command raised, out of discord.py's wrapper."""
    return error.original if isinstance(error, app_commands.CommandInvokeError) else error


def _describe(interaction: discord.Interaction) -> str:
    if interaction.command is not None:
        return f"/{interaction.command.qualified_name}"
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    return f"component {custom_id}"


_NUMBERS = (discord.AppCommandOptionType.integer, discord.AppCommandOptionType.number)
_NESTED = (discord.AppCommandOptionType.subcommand, discord.AppCommandOptionType.subcommand_group)


def _given_options(options: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The command's own options under its subcommand and group, as Discord sent them."""
    for option in options:
        if option.get("type") in {kind.value for kind in _NESTED}:
            return _given_options(list(option.get("options", [])))
    return options


_Kind = discord.AppCommandOptionType


def _of_kind(value: object, kind: discord.AppCommandOptionType) -> bool:
    """Whether ``value`` is what Discord sends for an option of ``kind`` (a JSON true is
    no integer, a fraction no whole number; users, channels, roles and files come as
    their snowflake, a string of digits)."""
    if isinstance(value, bool):
        return kind is _Kind.boolean
    if kind is _Kind.integer:
        return isinstance(value, int)
    if kind is _Kind.number:
        return isinstance(value, int | float)
    if kind is _Kind.string:
        return isinstance(value, str)
    if kind is _Kind.boolean:
        return False
    return isinstance(value, int) or (isinstance(value, str) and value.isascii()
                                      and value.isdigit())


def holds_control(text: str) -> bool:
    """Whether ``text`` holds a control character other than a tab (**Decision**).

    Every text the bot takes is one line: no slash option and no field of its forms can
    hold a line break as Discord's client sends them, so a NUL (which PostgreSQL cannot
    store), a line break or an escape came from a modified client and is refused, on both
    databases alike. A tab is whitespace a paste may carry, and is let through."""
    return any(char != "\t" and unicodedata.category(char) == "Cc" for char in text)


def check_text(values: Iterable[str]) -> None:
    """Refuse a submitted form whose fields hold a control character (:func:`holds_control`)."""
    if any(holds_control(value) for value in values):
        raise UserError(control_character(None))


def check_bounds(
    command: app_commands.Command[Any, ..., Any], options: list[dict[str, Any]]
) -> None:
    """Refuse an option value of another kind, or outside the bounds and choices, than the
    command declares, and text holding a control character (:func:`holds_control`).

    Discord's client enforces them, but an interaction can come from a modified client:
    every bound is checked again here, before any command runs.
    """
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    for option in _given_options(options):
        parameter = parameters.get(str(option.get("name")))
        value = option.get("value")
        if parameter is None or value is None:
            continue
        if not _of_kind(value, parameter.type):
            raise UserError(wrong_kind(parameter.display_name, parameter.type.name))
        if isinstance(value, str) and holds_control(value):
            raise UserError(control_character(parameter.display_name))
        if parameter.choices and value not in {choice.value for choice in parameter.choices}:
            raise UserError(not_a_choice(parameter.display_name,
                                         [str(choice.value) for choice in parameter.choices]))
        measured: float | None = None
        if parameter.type in _NUMBERS and isinstance(value, int | float):
            measured = value
        elif parameter.type is discord.AppCommandOptionType.string and isinstance(value, str):
            measured = len(value)
        if measured is None:
            continue
        low, high = parameter.min_value, parameter.max_value
        if (low is not None and measured < low) or (high is not None and measured > high):
            raise UserError(out_of_range(
                parameter.display_name, low, high,
                length=parameter.type is discord.AppCommandOptionType.string,
            ))


class StorytellerTree(app_commands.CommandTree[discord.Client]):
    """The command tree: every command error ends in one ephemeral answer, and every
    option's bounds are checked again before a command runs."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        speak_to(interaction)
        command = interaction.command
        if (
            interaction.type is discord.InteractionType.application_command
            and isinstance(command, app_commands.Command)
            and interaction.data is not None
        ):
            options: Any = interaction.data.get("options", [])
            check_bounds(command, list(options))
        return True

    async def on_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        await _answer(interaction, error)


@asynccontextmanager
async def answering_errors(interaction: discord.Interaction) -> AsyncIterator[None]:
    """Run a button or modal callback in the member's language, with the same error
    answers as slash commands."""
    speak_to(interaction)
    try:
        yield
    except Exception as error:
        await _answer(interaction, error)
