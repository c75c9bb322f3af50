"""Discord → plain data: the :class:`~bot.flows.context.Ctx` of an interaction."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.context import Ctx, Deps
from bot.render.lang import personal_voice, speak


def deps_of(interaction: discord.Interaction) -> Deps:
    """The store and dice the flows use (the bot hands them over as ``deps``)."""
    deps = getattr(interaction.client, "deps", None)
    if not isinstance(deps, Deps):
        msg = f"interaction handled by {type(interaction.client).__name__}, not the Storyteller bot"
        raise TypeError(msg)
    return deps


def ctx_of(interaction: discord.Interaction) -> Ctx:
    """Who acts and where; refuses direct messages (every command is a server's)."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage
    channel = interaction.channel
    user = interaction.user
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else (
        frozenset()
    )
    permissions = interaction.permissions
    return Ctx(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=user.id,
        user_name=user.display_name,
        parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
        manages_channel=permissions.manage_channels,
        manages_guild=permissions.manage_guild,
        role_ids=roles,
        message_id=interaction.message.id if interaction.message is not None else None,
        locale=interaction.locale.value,
        guild_locale=None if interaction.guild_locale is None else interaction.guild_locale.value,
    )


def speak_to(interaction: discord.Interaction) -> None:
    """Answer the member in their client's language for the rest of this interaction
    (a flow draws public messages in the table's)."""
    speak(personal_voice(interaction.locale.value))
