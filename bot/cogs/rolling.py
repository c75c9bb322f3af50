"""`/roll` and `/odds`: a pool and its options in, the engine's answer out."""

from __future__ import annotations

import asyncio
import io
from typing import Any

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import ValidationError

from bot.client import StorytellerBot
from bot.context import channel_config
from bot.errors import UserError
from bot.render.messages import bad_option, no_odds
from bot.render.odds import CHART_NAME, odds_chart_png, odds_embed
from bot.render.text import options_text
from bot.rolling import post_roll
from bot.transformers import Pool
from bot.views.roll_buttons import RollButton
from engine.constants import MAX_POOL, MAX_TARGET
from engine.models import Again, RollRequest, Ruleset, SkillCategory, Term
from engine.odds import odds
from engine.parser import format_pool

AGAIN_CHOICES = [
    app_commands.Choice(name="10-again (default)", value=Again.TEN.value),
    app_commands.Choice(name="9-again", value=Again.NINE.value),
    app_commands.Choice(name="8-again", value=Again.EIGHT.value),
    app_commands.Choice(name="no again", value=Again.NONE.value),
]
UNTRAINED_CHOICES = [
    app_commands.Choice(name=category.value, value=category.value) for category in SkillCategory
]

#: Descriptions shared by /roll and /odds (Discord shows them beside each option).
OPTION_HELP: dict[str, str] = {
    "pool": "Dice to roll: 7, 4+3, or Strength 3 + Brawl 2 - 1",
    "will": "Declare Willpower with the roll (cofd/fistful +3 dice, v20 +1 success)",
    "again": "cofd: which faces reroll (default 10-again)",
    "rote": "cofd: rote action, reroll each failed die once",
    "specialty": "cofd: +1 die; v20: each 10 counts twice",
    "untrained": "cofd: unskilled penalty by category; fistful: the skill has no dots",
    "resist": "cofd: the opponent's resistance trait, subtracted from the pool",
    "extra": "cofd: extra successes added on a success (weapons etc.)",
    "exceptional_at": "cofd: successes for an exceptional success (default 5)",
    "difficulty": "v20: difficulty 2-10 (default 6)",
    "auto": "v20: take an automatic success (pool at least the difficulty)",
    "risky": "fistful: a risky maneuver, 1s eat successes",
    "initiative": "fistful: initiative roll, 6-10 succeed",
    "no_botch": "fistful: this roll cannot botch (soak and the like)",
    "need": "fistful: successes required for full effect",
}


def build_request(ruleset: Ruleset, terms: tuple[Term, ...], **options: Any) -> RollRequest:
    """The engine request for a command's options (unset options stay "not given")."""
    given = {name: value for name, value in options.items() if value not in (None, False, 0)}
    try:
        return RollRequest(ruleset=ruleset, terms=terms, **given)
    except ValidationError as error:
        problem = error.errors()[0]
        raise UserError(bad_option(str(problem["loc"][0]), problem["msg"])) from error


class Rolling(commands.Cog):
    """Rolling dice and reading their odds."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="roll")
    @app_commands.guild_only()
    @app_commands.describe(
        label="What the roll is for (labelled rolls count successive attempts)",
        private="A secret roll: you see the dice, the channel sees that you rolled",
        **OPTION_HELP,
    )
    @app_commands.choices(again=AGAIN_CHOICES, untrained=UNTRAINED_CHOICES)
    async def roll(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: Pool,
        label: app_commands.Range[str, 1, 100] | None = None,
        will: bool = False,
        private: bool = False,
        again: str | None = None,
        rote: bool = False,
        specialty: bool = False,
        untrained: str | None = None,
        resist: app_commands.Range[int, 0, MAX_POOL] = 0,
        extra: app_commands.Range[int, 0, MAX_POOL] = 0,
        exceptional_at: app_commands.Range[int, 1, 10] | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        auto: bool = False,
        risky: bool = False,
        initiative: bool = False,
        no_botch: bool = False,
        need: app_commands.Range[int, 1, MAX_TARGET] | None = None,
    ) -> None:
        """Roll a pool of d10s by this channel's ruleset."""
        config = await channel_config(interaction)
        request = build_request(
            config.ruleset, pool,
            will=will, again=again, rote=rote, specialty=specialty, untrained=untrained,
            resist=resist, extra=extra, exceptional_at=exceptional_at, difficulty=difficulty,
            auto=auto, risky=risky, initiative=initiative, no_botch=no_botch, need=need,
        )
        await post_roll(interaction, request, label=label, private=private, config=config)

    @app_commands.command(name="odds")
    @app_commands.guild_only()
    @app_commands.describe(**OPTION_HELP)
    @app_commands.choices(again=AGAIN_CHOICES, untrained=UNTRAINED_CHOICES)
    async def odds(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: Pool,
        will: bool = False,
        again: str | None = None,
        rote: bool = False,
        specialty: bool = False,
        untrained: str | None = None,
        resist: app_commands.Range[int, 0, MAX_POOL] = 0,
        extra: app_commands.Range[int, 0, MAX_POOL] = 0,
        exceptional_at: app_commands.Range[int, 1, 10] | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        auto: bool = False,
        risky: bool = False,
        initiative: bool = False,
        no_botch: bool = False,
        need: app_commands.Range[int, 1, MAX_TARGET] | None = None,
    ) -> None:
        """The exact chances of a roll in this channel's ruleset, with a chart."""
        config = await channel_config(interaction)
        request = build_request(
            config.ruleset, pool,
            will=will, again=again, rote=rote, specialty=specialty, untrained=untrained,
            resist=resist, extra=extra, exceptional_at=exceptional_at, difficulty=difficulty,
            auto=auto, risky=risky, initiative=initiative, no_botch=no_botch, need=need,
        )
        chances = await asyncio.to_thread(odds, request)
        if chances.message is not None:
            raise UserError(no_odds(chances.message))
        pool_text = format_pool(request.terms)
        chart = await asyncio.to_thread(
            odds_chart_png, chances, title=f"{pool_text} ({request.ruleset.value})"
        )
        embed = odds_embed(
            chances, pool_text=pool_text, ruleset=request.ruleset,
            options_text=options_text(request), text_only=config.text_only,
        )
        await interaction.response.send_message(
            embed=embed, file=discord.File(io.BytesIO(chart), filename=CHART_NAME)
        )


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    bot.add_dynamic_items(RollButton)
    await bot.add_cog(Rolling(bot))
