"""Who may do what (COMMANDS.md "Roles"), as real checks.

``default_permissions`` on a command is only a hint for Discord's UI, and a
server admin can override it: every restricted command also runs one of
these checks.
"""

from __future__ import annotations

import logging
import sqlite3
from collections.abc import Callable
from typing import TypeVar

import discord
from discord import app_commands

from bot.context import channel_config
from bot.edge.errors import store_fault_message
from bot.render.messages import APOLOGY, NOT_STORYTELLER

T = TypeVar("T")

log = logging.getLogger(__name__)


class NotStoryteller(app_commands.CheckFailure):
    """The member is not the Storyteller here."""


async def is_storyteller(interaction: discord.Interaction) -> bool:
    """Manage Channels here, or the Storyteller role an admin set with /config storyteller."""
    if interaction.permissions.manage_channels:
        return True
    member = interaction.user
    if not isinstance(member, discord.Member):
        return False
    role_id = (await channel_config(interaction)).storyteller_role_id
    return role_id is not None and any(role.id == role_id for role in member.roles)


class StoreUnreadable(app_commands.CheckFailure):
    """A check could not read the database (answered like any other database fault)."""


async def _storyteller_check(interaction: discord.Interaction) -> bool:
    try:
        allowed = await is_storyteller(interaction)
    except sqlite3.Error as error:
        # discord.py answers only AppCommandErrors raised by checks; anything else from a
        # check would leave the interaction unanswered.
        log.error("Database fault while checking the Storyteller: %s", error)
        raise StoreUnreadable(store_fault_message(error) or APOLOGY) from error
    if allowed:
        return True
    raise NotStoryteller(NOT_STORYTELLER)


async def require_storyteller(interaction: discord.Interaction) -> None:
    """Refuse unless the member is the Storyteller (for buttons and option-dependent checks)."""
    await _storyteller_check(interaction)


def storyteller_only() -> Callable[[T], T]:
    """Decorator: the command is the Storyteller's."""
    return app_commands.check(_storyteller_check)


def require_permission(interaction: discord.Interaction, permission: str) -> None:
    """Refuse unless the member has ``permission`` here (a check that depends on an option)."""
    if not getattr(interaction.permissions, permission):
        raise app_commands.MissingPermissions([permission])
