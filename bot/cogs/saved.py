"""`/saved`: a member's saved rolls per server (add, roll, list, delete)."""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import pool_traits, saved_names
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.options import EVERY_OPTION, LABEL_HELP, SPEC_HELP, roll_options
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Label, SheetPool
from bot.flows import saved
from bot.flows.reply import run
from engine.saved import MAX_MODIFIER, MAX_NAME

#: Will is declared roll by roll (`/saved roll will:True`), never saved.
SAVED_OPTIONS = tuple(name for name in EVERY_OPTION if name != "will")

_NAME = "The saved roll's name"


@app_commands.guild_only()
class Saved(commands.GroupCog, group_name="saved"):
    """Saved rolls: a pool and its options under a name, rolled with the sheet of the day."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="add")
    @app_commands.describe(
        name="A name to roll it by (1-64 characters)",
        pool="Dice or traits: 7, Strength 3 + Brawl 2, or Dexterity + Brawl (read when rolled)",
        label=LABEL_HELP,
        spec=SPEC_HELP,
        replace="Replace your saved roll of the same name",
    )
    @app_commands.autocomplete(pool=pool_traits)
    @roll_options(*SAVED_OPTIONS)
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        pool: SheetPool,
        options: dict[str, Any],
        *,
        label: Label | None = None,
        spec: app_commands.Range[str, 1, 64] | None = None,
        replace: bool = False,
    ) -> None:
        """Save a roll under a name (up to 50 in this server)."""
        flow = saved.add(deps_of(interaction), ctx_of(interaction), name, pool, options,
                         label=label, spec=spec, replace=replace)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="roll")
    @app_commands.describe(
        name=_NAME,
        modifier="Dice to add or take away this time (-10 to 10)",
        will="Declare Willpower with the roll (cofd/fistful +3 dice, v20 +1 success)",
        label="What the roll is for this time (default: the saved label)",
        private="A secret roll: you see the dice, the channel sees that you rolled",
    )
    @app_commands.autocomplete(name=saved_names)
    async def roll(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        *,
        modifier: app_commands.Range[int, -MAX_MODIFIER, MAX_MODIFIER] = 0,
        will: bool = False,
        label: Label | None = None,
        private: bool = False,
    ) -> None:
        """Roll one of your saved rolls by this channel's ruleset."""
        flow = saved.roll(deps_of(interaction), ctx_of(interaction), name,
                          modifier=modifier, will=will, label=label, private=private)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """List your saved rolls in this server."""
        await run(saved.show(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))

    @app_commands.command(name="delete")
    @app_commands.describe(name=_NAME)
    @app_commands.autocomplete(name=saved_names)
    async def delete(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME]
    ) -> None:
        """Delete one of your saved rolls."""
        await run(saved.delete(deps_of(interaction), ctx_of(interaction), name),
                  DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Saved(bot))
