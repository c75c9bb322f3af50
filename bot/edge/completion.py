"""Autocomplete shared by every cog: trait names for ``pool``, sheets for ``character``.

Discord takes a choice's name and value of 1 to 100 characters: :func:`choices` keeps them
so here, for what the flows suggest in full. **Decision**: a value longer than that is not
suggested (cut, it would name a trait, a sheet or a saved roll that is not there: a long
pool's completion ``... + Bra`` for Brawl, refused or rolled as another trait once picked),
and a name longer than that shows its end, what was completed, after an ellipsis."""

from __future__ import annotations

from collections.abc import Iterable

import discord
from discord import app_commands

from bot.edge.ctx import ctx_of, deps_of
from bot.flows import characters, saved

#: Discord's longest name or value of an autocomplete choice.
MAX_CHOICE = 100


def choices(pairs: Iterable[tuple[str, str]]) -> list[app_commands.Choice[str]]:
    """Discord's choices for (shown, value) pairs, within its limits (see the module)."""
    return [
        app_commands.Choice(
            name=shown if len(shown) <= MAX_CHOICE else "…" + shown[1 - MAX_CHOICE:],
            value=value,
        )
        for shown, value in pairs
        if len(value) <= MAX_CHOICE
    ]


async def pool_traits(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``pool``: the active character's trait names with their values."""
    pairs = await characters.pool_suggestions(deps_of(interaction), ctx_of(interaction), current)
    return choices(pairs)


async def character_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``character``: the member's sheets (a Storyteller's: every sheet of the server)."""
    pairs = await characters.character_suggestions(
        deps_of(interaction), ctx_of(interaction), current)
    return choices(pairs)


async def saved_names(
    interaction: discord.Interaction, current: str
) -> list[app_commands.Choice[str]]:
    """``name`` of `/saved roll` and `/saved delete`: the member's saved rolls."""
    pairs = await saved.suggestions(deps_of(interaction), ctx_of(interaction), current)
    return choices(pairs)
