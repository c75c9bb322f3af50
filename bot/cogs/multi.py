"""`/multi` (`v20`): several actions declared for one turn, rolled with their penalties."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Label, UnquotedTransformer
from bot.flows import multi
from bot.flows.reply import run


class Multi(commands.Cog):
    """Multiple actions in one turn."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="multi")
    @app_commands.guild_only()
    @app_commands.describe(
        actions="Pools separated by ; e.g. Dexterity 3 + Athletics 2; Strength 3 + Brawl 3",
        difficulty="Difficulty of every action before its penalty, 2-10 (default 6)",
        label="What the actions are for",
    )
    async def multi(
        self,
        interaction: discord.Interaction,
        actions: app_commands.Transform[str, UnquotedTransformer(multi.MAX_ACTIONS_TEXT)],
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        label: Label | None = None,
    ) -> None:
        """v20: take several actions this turn; action k has -k dice and +k difficulty."""
        flow = multi.multi_actions(
            deps_of(interaction), ctx_of(interaction), actions, difficulty, label
        )
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Multi(bot))
