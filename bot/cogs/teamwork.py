"""`/teamwork start|help|roll|cancel`, and the Help form's submissions."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import teamwork
from bot.client import StorytellerBot
from bot.cogs.rolling import AGAIN_CHOICES, OPTION_HELP, UNTRAINED_CHOICES, build_request
from bot.context import bot_of, channel_config, in_guild
from bot.errors import answering_errors
from bot.store import ActionKind
from bot.transformers import Pool
from bot.views.teamwork_buttons import TeamworkButton, form_submission
from engine.constants import MAX_POOL, MAX_TARGET

_WHICH = "Which teamwork, when several are open here"


async def open_labels(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """Autocomplete: the labels of the channel's open teamwork actions."""
    guild_id, channel_id = in_guild(interaction)
    records = await bot_of(interaction).store.find_open_actions(
        guild_id, channel_id, kind=ActionKind.TEAMWORK
    )
    typed = current.casefold()
    return [
        app_commands.Choice(name=record.label[:100], value=record.label[:100])
        for record in records
        if typed in record.label.casefold()
    ][:25]


class Teamwork(commands.GroupCog, group_name="teamwork"):
    """Teamwork: helpers roll first, then the primary rolls with their bonus."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="start")
    @app_commands.guild_only()
    @app_commands.describe(
        label="What the action is (default: your name's action)",
        helper_limit="v20: helpers beyond this many raise every roll's difficulty by 1 each",
        **{name: text for name, text in OPTION_HELP.items() if name != "auto"},
    )
    @app_commands.choices(again=AGAIN_CHOICES, untrained=UNTRAINED_CHOICES)
    async def start(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: Pool,
        label: app_commands.Range[str, 1, 100] | None = None,
        helper_limit: app_commands.Range[int, 0, 20] | None = None,
        will: bool = False,
        again: str | None = None,
        rote: bool = False,
        specialty: bool = False,
        untrained: str | None = None,
        resist: app_commands.Range[int, 0, MAX_POOL] = 0,
        extra: app_commands.Range[int, 0, MAX_POOL] = 0,
        exceptional_at: app_commands.Range[int, 1, 10] | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        risky: bool = False,
        initiative: bool = False,
        no_botch: bool = False,
        need: app_commands.Range[int, 1, MAX_TARGET] | None = None,
    ) -> None:
        """Start a teamwork action: others press Help to roll for you, then you roll."""
        config = await channel_config(interaction)
        request = build_request(
            config.ruleset, pool,
            will=will, again=again, rote=rote, specialty=specialty, untrained=untrained,
            resist=resist, extra=extra, exceptional_at=exceptional_at, difficulty=difficulty,
            risky=risky, initiative=initiative, no_botch=no_botch, need=need,
        )
        await teamwork.start(interaction, request, label=label, helper_limit=helper_limit)

    @app_commands.command(name="help")
    @app_commands.guild_only()
    @app_commands.describe(
        pool=OPTION_HELP["pool"],
        label=_WHICH,
        difficulty="v20: your own difficulty 2-10 (default 6)",
    )
    @app_commands.autocomplete(label=open_labels)
    async def help_(
        self,
        interaction: discord.Interaction,
        pool: Pool,
        label: app_commands.Range[str, 1, 100] | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
    ) -> None:
        """Help a teamwork action: roll your pool now for its primary (as the Help button)."""
        record = await teamwork.find_open(interaction, label, own=False)
        await teamwork.add_help(interaction, record.id, pool, difficulty)

    @app_commands.command(name="roll")
    @app_commands.guild_only()
    @app_commands.describe(label=_WHICH)
    @app_commands.autocomplete(label=open_labels)
    async def roll(
        self,
        interaction: discord.Interaction,
        label: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Roll your teamwork action with the helpers' bonus and penalties so far."""
        record = await teamwork.find_open(interaction, label, own=True)
        await teamwork.roll_primary(interaction, record.id, None)

    @app_commands.command(name="cancel")
    @app_commands.guild_only()
    @app_commands.describe(label=_WHICH)
    @app_commands.autocomplete(label=open_labels)
    async def cancel(
        self,
        interaction: discord.Interaction,
        label: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """Cancel your teamwork action (the Storyteller can cancel anyone's by label)."""
        record = await teamwork.find_open(interaction, label, own=True)
        await teamwork.cancel(interaction, record.id, None)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The Help form, answered from its key-only custom_id (it works across restarts)."""
        submission = form_submission(interaction)
        if submission is None or submission.purpose != "help":
            return
        async with answering_errors(interaction):
            await teamwork.add_help(
                interaction,
                submission.action_id,
                await submission.terms(interaction),
                submission.difficulty_value(),
            )


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    bot.add_dynamic_items(TeamworkButton)
    await bot.add_cog(Teamwork(bot))
