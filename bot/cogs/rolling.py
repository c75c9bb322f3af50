"""`/roll` and `/odds`: parse the options, run the flow."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import pool_traits
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.options import EVERY_OPTION, LABEL_HELP, SPEC_HELP, roll_options
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Label, SheetPool
from bot.flows import rolls
from bot.flows.reply import run


class Rolling(commands.Cog):
    """Rolling dice and reading their odds."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll")
    @app_commands.guild_only()
    @app_commands.describe(
        pool="Dice or traits: 7, Strength 3 + Brawl 2 - 1, or Dexterity + Brawl",
        label=LABEL_HELP,
        private="A secret roll: you see the dice, the channel sees that you rolled",
        spec=SPEC_HELP,
    )
    @app_commands.autocomplete(pool=pool_traits)
    @roll_options(*EVERY_OPTION)
    async def roll(
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        options: dict[str, Any],
        *,
        label: Label | None = None,
        private: bool = False,
        spec: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Roll a pool of d10s by this channel's ruleset."""
        flow = rolls.roll(
            deps_of(interaction), ctx_of(interaction), rolls.ByName(pool, options, spec),
            label=label, private=private,
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="odds")
    @app_commands.guild_only()
    @app_commands.describe(
        pool="Dice to roll: 7, 4+3, or Strength 3 + Brawl 2 - 1",
        spec=SPEC_HELP,
        public="Show the odds to the whole channel (default: only to you)",
    )
    @app_commands.autocomplete(pool=pool_traits)
    @roll_options(*EVERY_OPTION)
    async def odds(
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        options: dict[str, Any],
        spec: app_commands.Range[str, 1, 64] | None = None,
        public: bool = False,
    ) -> None:
        """The exact chances of a roll in this channel's ruleset, with a chart."""
        flow = rolls.odds(
            deps_of(interaction), ctx_of(interaction), rolls.ByName(pool, options, spec),
            public=public,
        )
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Rolling(bot))
