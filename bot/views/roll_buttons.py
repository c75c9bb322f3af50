"""The buttons on a roll's message: Spend Will, Take a Beat, Try again.

Each is a :class:`discord.ui.DynamicItem` whose custom_id carries only a
versioned key (``sb1:will:<roll id>``): the database is the truth, so the
buttons work the same after a restart, and a stale or second press is
answered by the store's conditional update. Parse old versions here when the
scheme changes; never reuse a prefix.
"""

from __future__ import annotations

import re
from typing import Any, Self

import discord

from bot.errors import answering_errors
from bot.render.buttons import SPEND_WILL, TAKE_BEAT, TRY_AGAIN
from bot.store import RollRecord, WillState
from bot.views import PREFIX
from engine.models import Outcome, Ruleset

#: action → (label, style) of each button on a roll.
_LOOK: dict[str, tuple[str, discord.ButtonStyle]] = {
    "will": (SPEND_WILL, discord.ButtonStyle.primary),
    "beat": (TAKE_BEAT, discord.ButtonStyle.secondary),
    "retry": (TRY_AGAIN, discord.ButtonStyle.secondary),
}


class RollButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:(?P<action>will|beat|retry):(?P<roll_id>[0-9]{{1,20}})",
):
    """Spend Will (RULES.md §4), Take a Beat (`cofd` failure), Try again (failed labelled roll)."""

    def __init__(self, action: str, roll_id: int) -> None:
        label, style = _LOOK[action]
        super().__init__(
            discord.ui.Button(label=label, style=style, custom_id=f"{PREFIX}:{action}:{roll_id}")
        )
        self.action = action
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"], int(match["roll_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # bot.rolling posts messages carrying these buttons, so it is imported here.
        from bot import rolling  # noqa: PLC0415

        async with answering_errors(interaction):
            await rolling.BUTTON_HANDLERS[self.action](interaction, self.roll_id)


def roll_view(record: RollRecord) -> discord.ui.View | None:
    """The buttons a roll offers now; None when it offers none."""
    if record.closed or record.void:
        return None
    result = record.result
    actions: list[str] = []
    if record.will_state is WillState.OFFERED:
        actions.append("will")
    if (
        result.request.ruleset is Ruleset.COFD
        and result.outcome is Outcome.FAILURE
        and not result.beat
    ):
        actions.append("beat")
    if record.label and result.failed and not record.retried and record.action_id is None:
        actions.append("retry")
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(RollButton(action, record.id))
    return view
