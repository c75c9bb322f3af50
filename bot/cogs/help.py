"""`/help`: how to roll in this channel's ruleset, with examples."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.flows.help import TOPICS, show_help
from bot.flows.reply import run

TOPIC_CHOICES = [app_commands.Choice(name=topic, value=topic) for topic in TOPICS]


class Help(commands.Cog):
    """Help."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="help")
    @app_commands.guild_only()
    @app_commands.describe(topic="What to explain (default: rolling in this channel)")
    @app_commands.choices(topic=TOPIC_CHOICES)
    async def help(self, interaction: discord.Interaction, topic: str | None = None) -> None:
        """How to roll in this channel's ruleset, with examples."""
        await run(show_help(deps_of(interaction), ctx_of(interaction), topic),
                  DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Help(bot))
