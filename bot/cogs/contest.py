"""`/contest`: parse the options, run the flow."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import pool_traits
from bot.edge.ctx import ctx_of, deps_of, shown_name
from bot.edge.options import roll_options
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Label, SheetPool
from bot.flows import contest
from bot.flows.reply import run


class Contest(commands.Cog):
    """Contested and resisted rolls."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="contest")
    @app_commands.guild_only()
    @app_commands.describe(
        pool="Dice or traits: 7, Strength 3 + Brawl 2 - 1, or Strength + Brawl from your sheet",
        against="The Storyteller's pool: both sides roll now",
        opponent="A member who rolls to resist with the card's button",
        label="What the contest is about",
        opponent_difficulty="v20: the other side's difficulty 2-9 (default 6)",
        difficulty="v20: your difficulty 2-9 (default 6)",
    )
    @app_commands.autocomplete(pool=pool_traits, against=pool_traits)
    @roll_options("difficulty", difficulty=app_commands.Range[int, 2, 9] | None)
    async def contest(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        options: dict[str, Any],
        against: SheetPool | None = None,
        opponent: discord.Member | None = None,
        label: Label | None = None,
        opponent_difficulty: app_commands.Range[int, 2, 9] | None = None,
    ) -> None:
        """Contest another side: the Storyteller's dice now, or a member who rolls to resist."""
        flow = contest.contest(
            deps_of(interaction), ctx_of(interaction), pool,
            against=against,
            opponent=None if opponent is None else contest.Opponent(
                opponent.id, shown_name(opponent), opponent.bot
            ),
            label=label,
            difficulty=options.get("difficulty"),
            opponent_difficulty=opponent_difficulty,
        )
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Contest(bot))
