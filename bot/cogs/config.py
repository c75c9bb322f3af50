"""`/config`: the ruleset and settings of a channel or a server, changed by admins."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import bot_holds, ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.flows import config
from bot.flows.reply import run
from engine.records import MAX_INITIATIVE_POOL

RULESET_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in config.RULESETS]
OPTION_CHOICES = [app_commands.Choice(name=name, value=value) for name, value in config.OPTIONS]


@app_commands.guild_only()
class Config(commands.GroupCog, group_name="config"):
    """Settings: who may change what is checked on every command."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="show")
    async def show(self, interaction: discord.Interaction) -> None:
        """Show the settings in force in this channel."""
        await run(config.show(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))

    @app_commands.command(name="ruleset")
    @app_commands.describe(
        ruleset="The rules rolls are read by",
        scope="This channel (needs Manage Channels) or the whole server (needs Manage Server)",
    )
    @app_commands.choices(ruleset=RULESET_CHOICES)
    async def ruleset(
        self,
        interaction: discord.Interaction,
        ruleset: str,
        scope: Literal["channel", "server"] = "channel",
    ) -> None:
        """Admin: choose the ruleset of this channel or of the server."""
        flow = config.ruleset(deps_of(interaction), ctx_of(interaction), ruleset, scope)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="set")
    @app_commands.describe(
        option="The setting",
        value="Its new value (suggested as you type)",
        scope="This channel, or the whole server (language only; needs Manage Server)",
    )
    @app_commands.choices(option=OPTION_CHOICES)
    async def set_(
        self, interaction: discord.Interaction, option: str,
        value: app_commands.Range[str, 1, MAX_INITIATIVE_POOL],
        scope: Literal["channel", "server"] = "channel",
    ) -> None:
        """Admin: change a setting of this channel (or the server's language)."""
        flow = config.set_option(deps_of(interaction), ctx_of(interaction), option, value, scope)
        await run(flow, DiscordResponder(interaction))

    @set_.autocomplete("value")
    async def _values(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The values of the setting chosen in `option`, with what each means."""
        chosen = str(getattr(interaction.namespace, "option", "") or "")
        return [
            app_commands.Choice(name=shown, value=value)
            for shown, value in config.value_suggestions(chosen, current)
        ]

    @app_commands.command(name="storyteller")
    @app_commands.describe(
        role=(
            "Members with this role are the Storyteller, like those with Manage Channels"
            " (default: keep it)"
        ),
        channel="Where full copies of secret rolls go (default: keep the current one)",
        clear="Take the Storyteller role, the copies channel or both away",
    )
    async def storyteller(
        self,
        interaction: discord.Interaction,
        role: discord.Role | None = None,
        channel: discord.TextChannel | None = None,
        clear: Literal["role", "copies", "both"] | None = None,
    ) -> None:
        """Admin: set the Storyteller role, and where copies of secret rolls go."""
        flow = config.storyteller(
            deps_of(interaction), ctx_of(interaction),
            role.id if role is not None else None,
            channel.id if channel is not None else None,
            clear,
            bot_holds=bot_holds(channel) if channel is not None else None,
        )
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Config(bot))
