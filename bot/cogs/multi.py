"""`/multi` (`v20`): several actions declared for one turn, rolled with their penalties."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError
from bot.render.contest import multi_embed, multi_refused, unreadable_action
from bot.render.rolls import refusal
from bot.rolling import refresh_messages
from bot.store import WillState
from engine.models import RollRequest, Term
from engine.parser import PoolSyntaxError, format_pool, parse_pool
from engine.roll import RuleError, roll
from engine.table import multi
from engine.table.multi import MultiRefusal

#: What separates the declared actions in `actions`.
SEPARATOR = ";"


def _pools(actions: str) -> list[tuple[Term, ...]]:
    """Each declared action's pool, in order, or a refusal naming the one that is unreadable."""
    pools: list[tuple[Term, ...]] = []
    for number, text in enumerate(actions.split(SEPARATOR), start=1):
        try:
            pools.append(parse_pool(text))
        except PoolSyntaxError as error:
            raise UserError(unreadable_action(number, str(error))) from error
    return pools


class Multi(commands.Cog):
    """Multiple actions in one turn."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="multi")
    @app_commands.guild_only()
    @app_commands.describe(
        actions="Pools separated by ; e.g. Dexterity 3 + Athletics 2; Strength 3 + Brawl 3",
        difficulty="Difficulty of every action before its penalty, 2-10 (default 6)",
        label="What the actions are for",
    )
    async def multi(
        self,
        interaction: discord.Interaction,
        actions: app_commands.Range[str, 1, 1000],
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        label: app_commands.Range[str, 1, 100] | None = None,
    ) -> None:
        """v20: take several actions this turn; action k has -k dice and +k difficulty."""
        bot = bot_of(interaction)
        guild_id, channel_id = in_guild(interaction)
        config = await channel_config(interaction)
        user = interaction.user
        pools = _pools(actions)
        asked = [
            RollRequest(ruleset=config.ruleset, terms=terms, difficulty=difficulty)
            for terms in pools
        ]
        try:
            declared = multi.requests(asked)
        except RuleError as error:
            raise UserError(refusal(str(error))) from error
        if isinstance(declared, MultiRefusal):
            raise UserError(multi_refused(declared, format_pool(pools[declared.action - 1])))
        async with bot.store.transaction() as tx:
            results = [roll(request, bot.faces) for request in declared]
            # multi.requests prepared every request: none of them is refused.
            roll_ids = [
                await tx.rolls.insert(
                    guild_id=guild_id,
                    channel_id=channel_id,
                    roller_id=user.id,
                    roller_name=user.display_name,
                    result=result,
                    will_state=WillState.NONE,
                    label=label,
                )
                for result in results
            ]
            # Closed as stored, with the roller's earlier rolls: the card offers no buttons.
            closed = await tx.rolls.close(guild_id, channel_id, user.id)
        await interaction.response.send_message(
            embed=multi_embed(
                results, roller=user.display_name, label=label, text_only=config.text_only
            )
        )
        refresh_messages(bot, [record for record in closed if record.id not in roll_ids], config)


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Multi(bot))
