"""`/contest`, and the Roll to resist form's submissions."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot import contest
from bot.client import StorytellerBot
from bot.cogs.rolling import OPTION_HELP, build_request
from bot.context import channel_config
from bot.errors import UserError, answering_errors
from bot.render.contest import NO_SIDE, TWO_SIDES, foreign_option
from bot.transformers import Pool
from bot.views.contest_buttons import ResistButton
from bot.views.teamwork_buttons import form_submission
from engine.models import Ruleset


class Contest(commands.Cog):
    """Contested and resisted rolls."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="contest")
    @app_commands.guild_only()
    @app_commands.describe(
        pool=OPTION_HELP["pool"],
        against="The Storyteller's pool: both sides roll now",
        opponent="A member who rolls to resist with the card's button",
        label="What the contest is about",
        difficulty="v20: your difficulty 2-9, usually from the other side's traits (default 6)",
        opponent_difficulty="v20: the other side's difficulty 2-9 (default 6)",
    )
    async def contest(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: Pool,
        against: Pool | None = None,
        opponent: discord.Member | None = None,
        label: app_commands.Range[str, 1, 100] | None = None,
        difficulty: app_commands.Range[int, 2, 9] | None = None,
        opponent_difficulty: app_commands.Range[int, 2, 9] | None = None,
    ) -> None:
        """Contest another side: the Storyteller's dice now, or a member who rolls to resist."""
        config = await channel_config(interaction)
        if against is not None and opponent is not None:
            raise UserError(TWO_SIDES)
        if opponent_difficulty is not None and config.ruleset is not Ruleset.V20:
            raise UserError(foreign_option("opponent_difficulty", config.ruleset))
        actor = build_request(config.ruleset, pool, difficulty=difficulty)
        if against is not None:
            opposition = build_request(config.ruleset, against, difficulty=opponent_difficulty)
            await contest.contest_now(interaction, actor, opposition, label=label)
        elif opponent is not None:
            await contest.contest_member(
                interaction, actor, opponent, opponent_difficulty=opponent_difficulty, label=label
            )
        else:
            raise UserError(NO_SIDE)

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The Roll to resist form, answered from its key-only custom_id (restart or not)."""
        submission = form_submission(interaction)
        if submission is None or submission.purpose != "resist":
            return
        async with answering_errors(interaction):
            await contest.resist(
                interaction, submission.action_id, await submission.terms(interaction)
            )


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    bot.add_dynamic_items(ResistButton)
    await bot.add_cog(Contest(bot))
