"""One error path: user mistakes become ephemeral replies, the rest is logged.

Slash commands reach :meth:`StorytellerTree.on_error`; button and modal
callbacks get no tree error handling from discord.py (it only logs them), so
they run inside :func:`answering_errors`, which uses the same reply.
"""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager

import discord
from discord import app_commands

log = logging.getLogger(__name__)

APOLOGY = "Something went wrong on my side and nothing was changed. Please try again."


class UserError(app_commands.AppCommandError):
    """Bad input or a move the rules refuse: the message tells the user what to do instead."""


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
        needed = ", ".join(p.replace("_", " ").title() for p in error.missing_permissions)
        return f"You need the {needed} permission for this."
    if isinstance(error, app_commands.NoPrivateMessage):
        return "This works only in a server channel."
    if isinstance(error, app_commands.CheckFailure):
        return str(error) or "You are not allowed to do this here."
    if isinstance(error, app_commands.TransformerError):
        return f"“{error.value}” is not a valid value here."
    return None


async def _answer(interaction: discord.Interaction, error: Exception) -> None:
    message = user_message(error)
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
