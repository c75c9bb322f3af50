"""Where an interaction happens: its bot, guild, channel and the settings in force there."""

from __future__ import annotations

from typing import TYPE_CHECKING

import discord
from discord import app_commands

from bot.store import ChannelConfig

if TYPE_CHECKING:
    from bot.client import StorytellerBot


def bot_of(interaction: discord.Interaction) -> StorytellerBot:
    """The bot handling an interaction, typed."""
    from bot.client import StorytellerBot  # noqa: PLC0415 - bot.client loads the cogs

    client = interaction.client
    if not isinstance(client, StorytellerBot):
        msg = f"interaction handled by {type(client).__name__}, not the Storyteller bot"
        raise TypeError(msg)
    return client


def in_guild(interaction: discord.Interaction) -> tuple[int, int]:
    """The (guild id, channel id) of an interaction; refuses direct messages."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage
    return interaction.guild_id, interaction.channel_id


def parent_of(interaction: discord.Interaction) -> int | None:
    """The channel a thread belongs to (its settings apply there too), else None."""
    channel = interaction.channel
    if isinstance(channel, discord.Thread):
        return channel.parent_id
    return None


async def channel_config(interaction: discord.Interaction) -> ChannelConfig:
    """The settings in force where the interaction happened."""
    guild_id, channel_id = in_guild(interaction)
    return await bot_of(interaction).store.get_channel_config(
        guild_id, channel_id, parent_of(interaction)
    )
