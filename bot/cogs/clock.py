"""The Storyteller's clock: `/scene end`, `/turn next`, `/night`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.ctx import ctx_of, deps_of
from bot.edge.respond import DiscordResponder
from bot.flows import clock
from bot.flows.reply import run


@app_commands.guild_only()
class Scene(commands.GroupCog, group_name="scene"):
    """Scenes."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="end")
    async def end(self, interaction: discord.Interaction) -> None:
        """Storyteller: end the scene (resets attempts, closes buttons, ends teamwork and init)."""
        await run(clock.scene_end(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))


@app_commands.guild_only()
class Turn(commands.GroupCog, group_name="turn"):
    """Turns."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="next")
    async def next_(self, interaction: discord.Interaction) -> None:
        """Storyteller: next turn (resets the Successive Action Penalty, closes Will buttons)."""
        await run(clock.turn_next(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))


class Night(commands.Cog):
    """Rest."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="night")
    @app_commands.guild_only()
    async def night(self, interaction: discord.Interaction) -> None:
        """Storyteller: a night passes; every tracked Will pool in the server regains 1."""
        await run(clock.night(deps_of(interaction), ctx_of(interaction)),
                  DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Scene(bot))
    await bot.add_cog(Turn(bot))
    await bot.add_cog(Night(bot))
