"""The contest card's button: Roll to resist, for the named opponent only.

A :class:`discord.ui.DynamicItem` with a key-only custom_id,
``sb1:resist:<action id>``: the contest is read from the store at each press,
so the button works after a restart, and once the contest is decided a press
says so and changes nothing. It opens the pool form of
:mod:`bot.views.teamwork_buttons` (``sb1:form:resist:<action id>``).
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.edge.errors import answering_errors
from bot.render.contest import RESIST
from bot.views import PREFIX


class ResistButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:resist:(?P<action_id>[0-9]{{1,20}})",
):
    """Roll to resist: opens a form for the opponent's pool."""

    def __init__(self, action_id: int) -> None:
        super().__init__(
            discord.ui.Button(
                label=RESIST,
                style=discord.ButtonStyle.primary,
                custom_id=f"{PREFIX}:resist:{action_id}",
            )
        )
        self.action_id = action_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(int(match["action_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # bot.contest posts the cards carrying this button, so it is imported here.
        from bot.contest import resist_pressed  # noqa: PLC0415

        async with answering_errors(interaction):
            await resist_pressed(interaction, self.action_id)


def contest_view(action_id: int) -> discord.ui.View:
    """The button of a contest that waits for its opponent."""
    view = discord.ui.View(timeout=None)
    view.add_item(ResistButton(action_id))
    return view
