"""`/init start|join|add|remove|next|end`: parse the options, run the flow."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import pool_traits
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import Pool, SheetPool
from bot.flows import initiative
from bot.flows.reply import run
from engine.table.initiative import MAX_GROUP, MAX_NAME

_POOL = (
    "Default: your character's initiative. Or type it: 5, or Dexterity + Composure "
    "(v20: + Wits)"
)
_MODIFIER = "Added to the initiative, -10 to +10 (a weapon's penalty, say)"


@app_commands.guild_only()
class Initiative(commands.GroupCog, group_name="init"):
    """Initiative: one tracker per channel orders the fight's turns."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="start")
    async def start(self, interaction: discord.Interaction) -> None:
        """Storyteller: open the channel's initiative tracker."""
        flow = initiative.start(deps_of(interaction), ctx_of(interaction))
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="join")
    @app_commands.describe(pool=_POOL, modifier=_MODIFIER)
    @app_commands.autocomplete(pool=pool_traits)
    async def join(
        self,
        interaction: discord.Interaction,
        pool: SheetPool | None = None,
        modifier: app_commands.Range[int, -10, 10] = 0,
    ) -> None:
        """Join the fight: your character's initiative (or the pool typed) is rolled and placed."""
        flow = initiative.join(deps_of(interaction), ctx_of(interaction), pool, modifier)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="add")
    @app_commands.describe(
        name="The NPC's name (a group's members are numbered: Guards 1, Guards 2...)",
        # typed numbers only (a Pool, no sheet): the example is one the option reads
        value="Its initiative in numbers: Dexterity 3 + Composure 2 (v20: Dexterity + Wits; "
        "fistful: the pool)",
        modifier=_MODIFIER,
        count="How many, each rolled separately (1-20)",
    )
    async def add(
        self,
        interaction: discord.Interaction,
        name: app_commands.Range[str, 1, MAX_NAME],
        value: Pool,
        modifier: app_commands.Range[int, -10, 10] = 0,
        count: app_commands.Range[int, 1, MAX_GROUP] | None = None,
    ) -> None:
        """Storyteller: add NPCs to the fight."""
        flow = initiative.add(
            deps_of(interaction), ctx_of(interaction), name, value, modifier=modifier, count=count
        )
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="remove")
    @app_commands.describe(name="A name as the card shows it, or a group's name for all of it")
    async def remove(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, 100]
    ) -> None:
        """Storyteller: remove a combatant from the fight."""
        flow = initiative.remove(deps_of(interaction), ctx_of(interaction), name)
        await run(flow, DiscordResponder(interaction))

    @remove.autocomplete("name")
    async def _names(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The combatants of the channel's tracker (and its groups' names)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        found = await initiative.combatant_names(deps_of(interaction), ctx_of(interaction),
                                                 current)
        return [app_commands.Choice(name=name[:100], value=name[:100]) for name in found]

    @app_commands.command(name="next")
    async def next_(self, interaction: discord.Interaction) -> None:
        """Pass the turn (your own combatant's, or anyone's for the Storyteller)."""
        flow = initiative.next_turn(deps_of(interaction), ctx_of(interaction))
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction) -> None:
        """Storyteller: end the fight and close the tracker."""
        flow = initiative.end(deps_of(interaction), ctx_of(interaction))
        await run(flow, DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Initiative(bot))
