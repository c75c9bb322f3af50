"""`/will`: each member's Willpower pool, tracked per server, and `cofd` Beats.

`member` of show takes a user too (a player who left the server keeps their pool);
gain takes a member only: Will is given to someone at the table.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of, shown_name
from bot.edge.respond import DiscordResponder
from bot.flows import will
from bot.flows.reply import run
from engine.will import MAX_WILL


def _member(member: discord.Member | discord.User) -> will.Member:
    return will.Member(member.id, shown_name(member))


@app_commands.guild_only()
class Will(commands.GroupCog, group_name="will"):
    """Willpower pools: show, set, rest, and the Storyteller's gain."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="show")
    @app_commands.describe(member="Whose Will to show (default: yours)")
    async def show(
        self, interaction: discord.Interaction,
        member: discord.Member | discord.User | None = None,
    ) -> None:
        """Show a Will pool (and cofd Beats)."""
        flow = will.show(
            deps_of(interaction), ctx_of(interaction),
            _member(member) if member is not None else None,
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="set")
    @app_commands.describe(
        max="Your Will maximum (fistful: Resolve + Composure)",
        current="Will you have now (default: full, or kept within the new maximum)",
    )
    async def set_(
        self,
        interaction: discord.Interaction,
        max: app_commands.Range[int, 0, MAX_WILL],  # noqa: A002 - the option's public name
        current: app_commands.Range[int, 0, MAX_WILL] | None = None,
    ) -> None:
        """Track your Will pool, or change it."""
        flow = will.set_pool(deps_of(interaction), ctx_of(interaction), max, current)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="rest")
    async def rest(self, interaction: discord.Interaction) -> None:
        """A night of good rest: regain 1 Will, up to your maximum."""
        await run(will.rest(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))

    @app_commands.command(name="gain")
    @app_commands.describe(member="Who regains Will", amount="How much (up to their maximum)")
    async def gain(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_WILL],
    ) -> None:
        """Storyteller: a member regains Will, up to their maximum."""
        flow = will.gain(deps_of(interaction), ctx_of(interaction), _member(member), amount)
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Will(bot))
