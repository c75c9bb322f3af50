"""`/history`: the channel's recent rolls, and the Storyteller's void."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import is_storyteller, require_storyteller
from bot.client import StorytellerBot
from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError
from bot.render.messages import action_roll_not_voided, no_such_roll
from bot.render.messages import voided as voided_text
from bot.render.state import history_text
from bot.rolling import refresh_messages
from bot.store import MAX_HISTORY


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
        count: app_commands.Range[int, 1, MAX_HISTORY] = 10,
        member: discord.Member | None = None,
        void: app_commands.Range[int, 1] | None = None,
    ) -> None:
        """The channel's recent rolls, newest first."""
        guild_id, channel_id = in_guild(interaction)
        store = bot_of(interaction).store
        notice = ""
        if void is not None:
            await require_storyteller(interaction)
            voided = await store.void_roll(guild_id, channel_id, void, interaction.user.id)
            if voided is None:
                raise UserError(no_such_roll(void))
            if not voided.roll.void:
                raise UserError(action_roll_not_voided(void))
            notice = voided_text(void, already=voided.already) + "\n"
            if not voided.already:
                config = await channel_config(interaction)
                refresh_messages(bot_of(interaction), [voided.roll], config)
        records = await store.history(
            guild_id,
            channel_id,
            viewer_id=interaction.user.id,
            viewer_is_storyteller=await is_storyteller(interaction),
            count=count,
            member_id=member.id if member is not None else None,
        )
        await interaction.response.send_message(notice + history_text(records), ephemeral=True)


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(History(bot))
