"""`/extended`: extended actions, resisted extended actions, ongoing efforts and contests.

Parse the options, run the flow (:mod:`bot.flows.extended`); the card's buttons
and the Take a Condition form are routed by :mod:`bot.edge.buttons` and
:mod:`bot.edge.forms`.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import pool_traits
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.options import SPEC_HELP, roll_options
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Label, SheetPool
from bot.flows import extended
from bot.flows.reply import run
from engine.constants import MAX_POOL, MAX_TARGET
from engine.table.extended import MAX_ROLLS

#: The roll options `/extended start` takes (Will is declared per roll, not per action).
START_OPTIONS = (
    "again", "rote", "specialty", "untrained", "resist", "resist_target", "extra",
    "exceptional_at", "difficulty", "risky",
)


@app_commands.guild_only()
class Extended(commands.GroupCog, group_name="extended"):
    """Extended actions: successes gathered over several rolls."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="start")
    @app_commands.describe(
        pool="Per roll: Intelligence 3 + Academics 2, or Intelligence + Academics "
        "(cofd: the traits set the limit)",
        spec=SPEC_HELP,
        target="Successes required (fistful: may be left out when max_rolls is set)",
        max_rolls="Roll limit (cofd default: Attribute + Skill + Specialty; else no limit)",
        interval="Time each roll takes: 30 minutes, 1 hour, 1 day",
        label="What the action is for (default: the pool)",
        skill="cofd: Skill dots an exceptional success may take off the requirement",
        against="v20/fistful: the resisting side's pool, rolled each interval",
        against_difficulty="v20: the resisting side's difficulty 2-9 (default 6)",
    )
    @app_commands.autocomplete(pool=pool_traits, against=pool_traits)
    @roll_options(*START_OPTIONS)
    async def start(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        options: dict[str, Any],
        target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
        max_rolls: app_commands.Range[int, 1, MAX_ROLLS] | None = None,
        interval: app_commands.Range[str, 1, 60] | None = None,
        label: Label | None = None,
        skill: app_commands.Range[int, 0, MAX_POOL] | None = None,
        against: SheetPool | None = None,
        against_difficulty: app_commands.Range[int, 2, 9] | None = None,
        spec: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Start an extended action and post its card."""
        flow = extended.start(
            deps_of(interaction), ctx_of(interaction), pool,
            options=options, spec=spec, target=target, max_rolls=max_rolls, interval=interval,
            label=label, skill=skill, against=against, against_difficulty=against_difficulty,
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="roll")
    @app_commands.describe(
        label="Which extended action (default: your only open one)",
        modifier="Dice added or taken away for this roll only: 2, -1, Help 2 - Wounded 1",
    )
    @app_commands.autocomplete(modifier=pool_traits)
    @roll_options("will")
    async def roll(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        label: Label | None = None,
        modifier: SheetPool | None = None,
    ) -> None:
        """Roll the next interval of an extended action."""
        flow = extended.roll(
            deps_of(interaction), ctx_of(interaction),
            label=label, modifier=modifier or (), declare_will=bool(options.get("will")),
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="list")
    async def list_(self, interaction: discord.Interaction) -> None:
        """The extended actions open in this channel."""
        await run(
            extended.list_open(deps_of(interaction), ctx_of(interaction)),
            DiscordResponder(interaction),
        )

    @app_commands.command(name="abandon")
    @app_commands.describe(label="Which extended action (default: your only open one)")
    async def abandon(
        self,
        interaction: discord.Interaction,
        label: Label | None = None,
    ) -> None:
        """Abandon an extended action."""
        await run(
            extended.abandon(deps_of(interaction), ctx_of(interaction), label=label),
            DiscordResponder(interaction),
        )

    @roll.autocomplete("label")
    @abandon.autocomplete("label")
    async def _labels(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The labels of the channel's open extended actions that contain what was typed."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        found = await extended.open_labels(deps_of(interaction), ctx_of(interaction), current)
        return [app_commands.Choice(name=label, value=label) for label in found]


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Extended(bot))
