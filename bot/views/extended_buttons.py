"""The buttons of an extended action's card and of its rolls, and the Take a Condition form.

Every custom_id carries only versioned keys; the database is the truth:

- card: ``sb1:ext:<choice>:<action id>:<version>``. The version is the
  action's version when the card was drawn, so a press on a card the action
  has moved past is recognised (and the store's conditional update settles
  two presses that read the same version).
- an extended roll's message: ``sb1:extroll:<will|beat>:<roll id>``.
- the form: ``sb1:extcond:<action id>:<version>``, answered by the cog's
  interaction listener from that key and the name typed
  (:func:`condition_submission`), restart or not (see :func:`condition_form`).

Parse old versions here when the scheme changes; never reuse a prefix.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Self, cast

import discord

from bot.edge.errors import answering_errors
from bot.render.buttons import SPEND_WILL, TAKE_BEAT
from bot.render.extended import (
    CONDITION_DESCRIPTION,
    CONDITION_FIELD,
    CONDITION_TITLE,
    choice_label,
)
from bot.views import PREFIX
from engine.table.extended import MAX_CONDITION, Choice, ExtendedState, choices

if TYPE_CHECKING:
    from discord.types.interactions import (
        ModalSubmitComponentInteractionData,
        ModalSubmitInteractionData,
    )

#: The form's one text field.
CONDITION_INPUT: Final = "condition"
_ID: Final = "[0-9]{1,20}"
_VERSION: Final = "[0-9]{1,9}"
_CHOICES: Final = "|".join(choice.value for choice in Choice)

FORM_ID: Final = re.compile(rf"{PREFIX}:extcond:(?P<action_id>{_ID}):(?P<version>{_VERSION})")

_STYLES: Final[dict[Choice, discord.ButtonStyle]] = {
    Choice.ROLL: discord.ButtonStyle.primary,
    Choice.ABANDON: discord.ButtonStyle.danger,
    Choice.LOSE_PROGRESS: discord.ButtonStyle.danger,
}


class CardButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"{PREFIX}:ext:(?P<choice>{_CHOICES}):(?P<action_id>{_ID}):(?P<version>{_VERSION})"
    ),
):
    """One of the choices the engine offers now (Roll, Abandon, Take a Condition, …)."""

    def __init__(self, choice: Choice, action_id: int, version: int, label: str = "") -> None:
        super().__init__(
            discord.ui.Button(
                label=label or choice.value,
                style=_STYLES.get(choice, discord.ButtonStyle.secondary),
                custom_id=f"{PREFIX}:ext:{choice.value}:{action_id}:{version}",
            )
        )
        self.choice = choice
        self.action_id = action_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(Choice(match["choice"]), int(match["action_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # The cog posts the cards that carry these buttons, so it is imported here.
        from bot.cogs import extended  # noqa: PLC0415

        async with answering_errors(interaction):
            await extended.card_pressed(interaction, self.choice, self.action_id, self.version)


class ExtendedRollButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=rf"{PREFIX}:extroll:(?P<action>will|beat):(?P<roll_id>{_ID})",
):
    """Spend Will or Take a Beat on an extended roll: the roll and the action change together."""

    def __init__(self, action: str, roll_id: int) -> None:
        label, style = (
            (SPEND_WILL, discord.ButtonStyle.primary)
            if action == "will"
            else (TAKE_BEAT, discord.ButtonStyle.secondary)
        )
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"{PREFIX}:extroll:{action}:{roll_id}"
            )
        )
        self.action = action
        self.roll_id = roll_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"], int(match["roll_id"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        from bot.cogs import extended  # noqa: PLC0415

        async with answering_errors(interaction):
            await extended.roll_revised(interaction, self.roll_id, beat=self.action == "beat")


def card_view(state: ExtendedState, action_id: int, version: int) -> discord.ui.View | None:
    """The card's buttons: exactly the choices the engine offers now; None once it has ended."""
    offered = choices(state)
    if not offered:
        return None
    view = discord.ui.View(timeout=None)
    for choice in offered:
        view.add_item(CardButton(choice, action_id, version, choice_label(choice, state)))
    return view


def extended_roll_view(roll_id: int, *, will: bool, beat: bool) -> discord.ui.View | None:
    """An extended roll's buttons while it can still change the action; None otherwise."""
    actions = [name for name, offered in (("will", will), ("beat", beat)) if offered]
    if not actions:
        return None
    view = discord.ui.View(timeout=None)
    for action in actions:
        view.add_item(ExtendedRollButton(action, roll_id))
    return view


def condition_form(action_id: int, version: int) -> discord.ui.Modal:
    """The Take a Condition form for the card at ``version``.

    discord.py keeps a sent modal in memory to call its ``on_submit``; this one
    is stopped before it is sent, so nothing is kept: the submission is
    answered by the cog's ``on_interaction`` listener from the key-only
    custom_id (:data:`FORM_ID`), and a form opened before a restart still works.
    """
    form = discord.ui.Modal(
        title=CONDITION_TITLE, custom_id=f"{PREFIX}:extcond:{action_id}:{version}"
    )
    form.add_item(
        discord.ui.Label(
            text=CONDITION_FIELD,
            description=CONDITION_DESCRIPTION,
            component=discord.ui.TextInput(
                custom_id=CONDITION_INPUT, min_length=1, max_length=MAX_CONDITION
            ),
        )
    )
    form.stop()
    return form


@dataclass(frozen=True)
class ConditionSubmission:
    """A submitted Take a Condition form: the card it came from and the name typed."""

    action_id: int
    version: int
    condition: str


def condition_submission(interaction: discord.Interaction) -> ConditionSubmission | None:
    """The Take a Condition form this interaction submits, or None when it is something else."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return None
    data = cast("ModalSubmitInteractionData", interaction.data)
    match = FORM_ID.fullmatch(data["custom_id"])
    if match is None:
        return None
    return ConditionSubmission(
        action_id=int(match["action_id"]),
        version=int(match["version"]),
        condition=_text_value(data["components"], CONDITION_INPUT),
    )


def _text_value(components: list[ModalSubmitComponentInteractionData], custom_id: str) -> str:
    """A text input's value, in a Label or (from older clients) in an action row; "" if absent."""
    for component in components:
        inputs: list[Any] = []
        if component["type"] == 1:
            inputs = list(component["components"])
        elif component["type"] == 18:
            inputs = [component["component"]]
        for text_input in inputs:
            if text_input["type"] == 4 and text_input["custom_id"] == custom_id:
                value: str = text_input["value"]
                return value
    return ""
