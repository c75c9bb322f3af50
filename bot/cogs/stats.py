"""`/stats`: the dice statistics of a member or the table, and the roll log as CSV.

`member` takes a user too: a player who left the server keeps their rolls in the log,
and Discord sends them as a user, not a member.
"""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of, shown_name
from bot.edge.respond import DiscordResponder
from bot.flows import stats
from bot.flows.reply import run
from engine.models import Ruleset

RULESET_CHOICES = [app_commands.Choice(name=each.value, value=each.value) for each in Ruleset]


class Stats(commands.Cog):
    """Dice statistics."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="stats")
    @app_commands.guild_only()
    @app_commands.describe(
        member="Only this member's rolls (default: everyone's)",
        scope="Rolls made in this channel (default) or in every channel of the server you can read",
        ruleset="Only rolls of this ruleset (default: each ruleset rolled, separately)",
        since="From this day on: YYYY-MM-DD, or 7d, 2w, 3m, 1y back from today",
        export="Give the roll log as a CSV file instead (yours; the Storyteller: the channel's)",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def stats(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        member: discord.Member | discord.User | None = None,
        scope: Literal["channel", "server"] = "channel",
        ruleset: str | None = None,
        since: app_commands.Range[str, 1, 20] | None = None,
        export: bool = False,
    ) -> None:
        """Are the dice fair? Rolls, faces and outcomes against the exact odds, with a chart."""
        flow = stats.stats(
            deps_of(interaction), ctx_of(interaction, readable=scope == "server" and not export),
            member=None if member is None else stats.Member(member.id, shown_name(member)),
            scope=scope, ruleset=ruleset, since=since, export=export,
        )
        responder = DiscordResponder(interaction)
        if export:  # reading and writing a long log can outlast Discord's 3 seconds
            await responder.defer(ephemeral=True)
        await run(flow, responder)


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Stats(bot))
