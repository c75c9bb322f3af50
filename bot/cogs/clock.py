"""The Storyteller's clock: `/scene end`, `/turn next`, `/night`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import teamwork
from bot.checks import storyteller_only
from bot.client import StorytellerBot
from bot.context import bot_of, channel_config, in_guild
from bot.render.state import night_done, scene_ended, turn_advanced
from bot.render.teamwork import scene_teamwork_ended
from bot.rolling import refresh_messages


class Scene(commands.GroupCog, group_name="scene"):
    """Scenes."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="end")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_channels=True)
    @storyteller_only()
    async def end(self, interaction: discord.Interaction) -> None:
        """Storyteller: end the scene (resets attempts, closes Will buttons, ends teamwork)."""
        guild_id, channel_id = in_guild(interaction)
        bot = bot_of(interaction)
        config = await channel_config(interaction)
        async with bot.store.transaction() as tx:
            attempts = await tx.attempts.reset_channel(guild_id, channel_id)
            await tx.attempts.reset_turn(guild_id, channel_id)
            closed = await tx.rolls.close(guild_id, channel_id)
            ended = await teamwork.end_unfinished(tx, guild_id, channel_id)
        refresh_messages(bot, closed, config)
        await interaction.response.send_message(
            scene_ended(attempts, len(closed)) + scene_teamwork_ended(len(ended))
        )
        await teamwork.refresh_cards(bot, ended, config)


class Turn(commands.GroupCog, group_name="turn"):
    """Turns."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="next")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_channels=True)
    @storyteller_only()
    async def next_(self, interaction: discord.Interaction) -> None:
        """Storyteller: next turn (resets the Successive Action Penalty, closes Will buttons)."""
        guild_id, channel_id = in_guild(interaction)
        async with bot_of(interaction).store.transaction() as tx:
            await tx.attempts.reset_turn(guild_id, channel_id)
            closed = await tx.rolls.close(guild_id, channel_id)
        refresh_messages(bot_of(interaction), closed, await channel_config(interaction))
        await interaction.response.send_message(turn_advanced(len(closed)))


class Night(commands.Cog):
    """Rest."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="night")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_channels=True)
    @storyteller_only()
    async def night(self, interaction: discord.Interaction) -> None:
        """Storyteller: a night passes; every tracked Will pool in the server regains 1."""
        guild_id, _ = in_guild(interaction)
        regained = await bot_of(interaction).store.night(guild_id)
        await interaction.response.send_message(night_done(regained))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Scene(bot))
    await bot.add_cog(Turn(bot))
    await bot.add_cog(Night(bot))
