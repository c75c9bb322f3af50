"""`/teamwork start|help|roll|cancel`: parse the options, run the flow."""

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
from bot.flows import teamwork
from bot.flows.reply import run
from bot.flows.rolls import ByName
from engine.records import ActionKind

_WHICH = "Which teamwork, when several are open here"
_POOL = "Dice or traits: 7, Strength 3 + Brawl 2 - 1, or Strength + Brawl from your sheet"


async def open_labels(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the labels of the channel's open teamwork actions."""
    ctx = ctx_of(interaction)
    records = await deps_of(interaction).store.read(
        lambda tx: tx.actions.find_open(ctx.guild_id, ctx.channel_id, kind=ActionKind.TEAMWORK)
    )
    typed = current.casefold()
    return [
        app_commands.Choice(name=record.label[:100], value=record.label[:100])
        for record in records
        if typed in record.label.casefold()
    ][:25]


@app_commands.guild_only()
class Teamwork(commands.GroupCog, group_name="teamwork"):
    """Teamwork: helpers roll first, then the primary rolls with their bonus."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="start")
    @app_commands.describe(
        pool=_POOL,
        label="What the action is (default: your name's action)",
        helper_limit="v20: helpers beyond this many raise every roll's difficulty by 1 each",
        spec=SPEC_HELP,
    )
    @app_commands.autocomplete(pool=pool_traits)
    @roll_options(
        "will", "again", "rote", "specialty", "untrained", "resist", "resist_target", "extra",
        "exceptional_at", "difficulty", "risky", "initiative", "no_botch", "need",
    )
    async def start(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        options: dict[str, Any],
        label: Label | None = None,
        helper_limit: app_commands.Range[int, 0, 20] | None = None,
        spec: app_commands.Range[str, 1, 64] | None = None,
    ) -> None:
        """Start a teamwork action: others press Help to roll for you, then you roll."""
        flow = teamwork.start(
            deps_of(interaction), ctx_of(interaction),
            ByName(pool, options, spec),
            label=label, helper_limit=helper_limit,
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="help")
    @app_commands.describe(
        pool=_POOL,
        label=_WHICH,
        difficulty="v20: your own difficulty 2-10 (default 6)",
    )
    @app_commands.autocomplete(label=open_labels, pool=pool_traits)
    async def help_(
        self,
        interaction: discord.Interaction,
        pool: SheetPool,
        label: Label | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
    ) -> None:
        """Help a teamwork action: roll your pool now for its primary (as the Help button)."""
        flow = teamwork.help_command(
            deps_of(interaction), ctx_of(interaction), pool, label=label, difficulty=difficulty
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="roll")
    @app_commands.describe(label=_WHICH)
    @app_commands.autocomplete(label=open_labels)
    async def roll(
        self,
        interaction: discord.Interaction,
        label: Label | None = None,
    ) -> None:
        """Roll your teamwork action with the helpers' bonus and penalties so far."""
        flow = teamwork.roll_command(deps_of(interaction), ctx_of(interaction), label=label)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="cancel")
    @app_commands.describe(label=_WHICH)
    @app_commands.autocomplete(label=open_labels)
    async def cancel(
        self,
        interaction: discord.Interaction,
        label: Label | None = None,
    ) -> None:
        """Cancel your teamwork action (the Storyteller can cancel anyone's by label)."""
        flow = teamwork.cancel_command(deps_of(interaction), ctx_of(interaction), label=label)
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Teamwork(bot))
