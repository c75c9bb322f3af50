"""`/config`: the ruleset and settings of a channel or a server, changed by admins."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

from bot.checks import require_permission
from bot.client import StorytellerBot
from bot.context import bot_of, channel_config, in_guild, parent_of
from bot.errors import UserError
from bot.render.messages import EVERYONE_IS_NO_STORYTELLER, not_a_setting_value
from bot.render.rolls import RULESET_NAMES
from bot.render.state import config_changed, config_shown, storyteller_changed
from bot.store import ChannelOption, DiceOrder, OptionValue, WillTiming
from engine.models import Ruleset

RULESET_CHOICES = [
    app_commands.Choice(name=RULESET_NAMES[ruleset], value=ruleset.value) for ruleset in Ruleset
]

#: /config set options: what each accepts, as players type it.
SETTABLE: dict[ChannelOption, str] = {
    ChannelOption.WILL_TIMING: "any (declare or spend after) | before (declare only)",
    ChannelOption.PRESSURE: "on | off (off is the Storyteller's “no pressure”)",
    ChannelOption.FISTFUL_STEP: "0-5 dice per earlier action this turn",
    ChannelOption.TEXT_ONLY: "on | off (no emoji, for screen readers)",
    ChannelOption.DICE_ORDER: "rolled | sorted",
}
OPTION_CHOICES = [
    app_commands.Choice(name=option.value, value=option.value) for option in SETTABLE
]
ON = {"on", "yes", "true", "1"}
OFF = {"off", "no", "false", "0"}
MAX_STEP = 5


def parse_option(option: ChannelOption, text: str) -> OptionValue:
    """A /config set value as the store wants it, or a message saying what is accepted."""
    value = text.strip().casefold()
    try:
        if option is ChannelOption.WILL_TIMING:
            return WillTiming(value)
        if option is ChannelOption.DICE_ORDER:
            return DiceOrder(value)
        if option in (ChannelOption.PRESSURE, ChannelOption.TEXT_ONLY):
            if value in ON | OFF:
                return value in ON
            raise ValueError(value)
        step = int(value)
        if not 0 <= step <= MAX_STEP:
            raise ValueError(value)
    except ValueError:
        raise UserError(not_a_setting_value(option.value, text, SETTABLE[option])) from None
    return step


@app_commands.guild_only()
@app_commands.default_permissions(manage_channels=True)
class Config(commands.GroupCog, group_name="config"):
    """Settings: who may change what is checked on every command."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="show")
    async def show(self, interaction: discord.Interaction) -> None:
        """Show the settings in force in this channel."""
        config = await channel_config(interaction)
        await interaction.response.send_message(config_shown(config), ephemeral=True)

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
        """Choose the ruleset of this channel or of the server."""
        guild_id, channel_id = in_guild(interaction)
        chosen = Ruleset(ruleset)
        store = bot_of(interaction).store
        if scope == "server":
            require_permission(interaction, "manage_guild")
            server = await store.set_guild_ruleset(guild_id, chosen)
            message = config_changed("ruleset", "this server", server)
        else:
            require_permission(interaction, "manage_channels")
            channel = await store.set_channel_option(
                guild_id, channel_id, ChannelOption.RULESET, chosen, parent_of(interaction)
            )
            message = config_changed("ruleset", "this channel", channel)
        await interaction.response.send_message(message)

    @app_commands.command(name="set")
    @app_commands.describe(option="The setting", value="Its new value (see /help config)")
    @app_commands.choices(option=OPTION_CHOICES)
    async def set_(
        self, interaction: discord.Interaction, option: str, value: app_commands.Range[str, 1, 20]
    ) -> None:
        """Change a setting of this channel."""
        require_permission(interaction, "manage_channels")
        guild_id, channel_id = in_guild(interaction)
        chosen = ChannelOption(option)
        parsed = parse_option(chosen, value)
        async with bot_of(interaction).store.transaction() as tx:
            change = await tx.settings.set_channel_option(
                guild_id, channel_id, chosen, parsed, parent_of(interaction)
            )
            if chosen is ChannelOption.PRESSURE and parsed is False:
                await tx.attempts.reset_channel(guild_id, channel_id)
        await interaction.response.send_message(config_changed(option, "this channel", change))

    @app_commands.command(name="storyteller")
    @app_commands.describe(
        role="Members with this role are the Storyteller (besides Manage Channels)",
        channel="Where full copies of secret rolls go (default: keep the current one)",
    )
    async def storyteller(
        self,
        interaction: discord.Interaction,
        role: discord.Role,
        channel: discord.TextChannel | None = None,
    ) -> None:
        """Set the Storyteller role, and where copies of secret rolls go."""
        require_permission(interaction, "manage_guild")
        guild_id, _ = in_guild(interaction)
        if role.is_default():
            raise UserError(EVERYONE_IS_NO_STORYTELLER)
        async with bot_of(interaction).store.transaction() as tx:
            kept = (await tx.settings.guild(guild_id)).storyteller_channel_id
            change = await tx.settings.set_storyteller(
                guild_id, role.id, channel.id if channel is not None else kept
            )
        await interaction.response.send_message(storyteller_changed(change.old, change.new))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Config(bot))
