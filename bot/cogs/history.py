"""`/history`: the channel's recent rolls, and the Storyteller's void.

`member` takes a user too: a player who left the server keeps their rolls in the log,
and Discord sends them as a user, not a member.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.flows import history as roll_log
from bot.flows.reply import run


class History(commands.Cog):
    """The roll log."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="history")
    @app_commands.guild_only()
    @app_commands.describe(
        count="How many rolls (default 10)",
        member="Only this member's rolls",
        void="Storyteller: void the roll with this number (it stays listed, marked void)",
    )
    async def history(
        self,
        interaction: discord.Interaction,
        count: app_commands.Range[int, 1, roll_log.MAX_HISTORY] = roll_log.DEFAULT_COUNT,
        member: discord.Member | discord.User | None = None,
        void: app_commands.Range[int, 1] | None = None,
    ) -> None:
        """The channel's recent rolls, newest first."""
        flow = roll_log.history(
            deps_of(interaction), ctx_of(interaction), count,
            member.id if member is not None else None, void,
        )
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(History(bot))
