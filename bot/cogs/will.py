"""`/will`: each member's Willpower pool, tracked per server, and `cofd` Beats."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import require_storyteller
from bot.client import StorytellerBot
from bot.context import bot_of, in_guild
from bot.errors import UserError
from bot.render.messages import WILL_NOT_TRACKED, will_above_maximum, will_not_tracked_for
from bot.render.state import will_changed, will_shown

MAX_WILL = 20


class Will(commands.GroupCog, group_name="will"):
    """Willpower pools: show, set, rest, and the Storyteller's gain."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="show")
    @app_commands.guild_only()
    @app_commands.describe(member="Whose Will to show (default: yours)")
    async def show(
        self, interaction: discord.Interaction, member: discord.Member | None = None
    ) -> None:
        """Show a Will pool (and cofd Beats)."""
        guild_id, _ = in_guild(interaction)
        target = member or interaction.user
        store = bot_of(interaction).store
        pool = await store.get_will(guild_id, target.id)
        beats = await store.get_beats(guild_id, target.id)
        await interaction.response.send_message(
            will_shown(target.display_name, pool, beats), ephemeral=True
        )

    @app_commands.command(name="set")
    @app_commands.guild_only()
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
        guild_id, _ = in_guild(interaction)
        if current is not None and current > max:
            raise UserError(will_above_maximum(current, max))
        change = await bot_of(interaction).store.set_will(
            guild_id, interaction.user.id, max, current
        )
        await interaction.response.send_message(
            will_changed(interaction.user.display_name, change.old, change.new), ephemeral=True
        )

    @app_commands.command(name="rest")
    @app_commands.guild_only()
    async def rest(self, interaction: discord.Interaction) -> None:
        """A night of good rest: regain 1 Will, up to your maximum."""
        guild_id, _ = in_guild(interaction)
        change = await bot_of(interaction).store.rest(guild_id, interaction.user.id)
        if change is None:
            raise UserError(WILL_NOT_TRACKED)
        await interaction.response.send_message(
            will_changed(interaction.user.display_name, change.old, change.new), ephemeral=True
        )

    @app_commands.command(name="gain")
    @app_commands.guild_only()
    @app_commands.default_permissions(manage_channels=True)
    @app_commands.describe(member="Who regains Will", amount="How much (up to their maximum)")
    async def gain(
        self,
        interaction: discord.Interaction,
        member: discord.Member,
        amount: app_commands.Range[int, 1, MAX_WILL],
    ) -> None:
        """Storyteller: a member regains Will, up to their maximum."""
        await require_storyteller(interaction)
        guild_id, _ = in_guild(interaction)
        change = await bot_of(interaction).store.gain_will(guild_id, member.id, amount)
        if change is None:
            raise UserError(will_not_tracked_for(member.display_name))
        await interaction.response.send_message(
            will_changed(member.display_name, change.old, change.new)
        )


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Will(bot))
