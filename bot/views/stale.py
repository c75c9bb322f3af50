"""Presses of our buttons that discord.py drops without an answer.

A member whose client missed an edit can still press a button the message no
longer shows. Discord sends the message as it is now, discord.py finds no
such item in it and answers nothing, and the member sees "This interaction
failed". The bot answers those presses instead; exactly those, so it never
answers a press that a button callback is handling.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

import discord

from bot.views import PREFIX


def _custom_ids(components: Iterable[discord.Component]) -> Iterator[str]:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from _custom_ids(getattr(component, "children", ()))


def is_stale_press(interaction: discord.Interaction) -> bool:
    """A press of one of our buttons that the message no longer shows."""
    if interaction.type is not discord.InteractionType.component or interaction.message is None:
        return False
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    if not isinstance(custom_id, str) or not custom_id.startswith(f"{PREFIX}:"):
        return False
    return custom_id not in set(_custom_ids(interaction.message.components))
