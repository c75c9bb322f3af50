"""Autocomplete shared by every cog: trait names for ``pool``, sheets for ``character``."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.edge.ctx import ctx_of, deps_of
from bot.flows import characters, saved


def _choices(pairs: list[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    return [app_commands.Choice(name=shown, value=value) for shown, value in pairs]


async def pool_traits(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``pool``: the active character's trait names with their values."""
    pairs = await characters.pool_suggestions(deps_of(interaction), ctx_of(interaction), current)
    return _choices(pairs)


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``character``: the member's sheets (a Storyteller's: every sheet of the server)."""
    pairs = await characters.character_suggestions(
        deps_of(interaction), ctx_of(interaction), current)
    return _choices(pairs)


async def saved_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``name`` of `/saved roll` and `/saved delete`: the member's saved rolls."""
    pairs = await saved.suggestions(deps_of(interaction), ctx_of(interaction), current)
    return _choices(pairs)
