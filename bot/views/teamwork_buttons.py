"""The teamwork card's buttons (Help, Roll, Cancel) and the pool form.

Buttons are :class:`discord.ui.DynamicItem`\\ s whose custom_id is a versioned
key: ``sb1:team:<help|roll|cancel>:<action id>:<action version>``. The
database is the truth: a press reads the action, and a card whose version is
no longer the action's is out of date (it says so and changes nothing). The
buttons work the same after a restart.

The pool form (opened by Help here and by Roll to resist on a contest card) is
a :class:`PoolForm`, whose custom_id is a key too:
``sb1:form:<help|resist>:<action id>``. Its submission is answered from that
custom_id and the submitted values alone (:func:`form_submission`, read by a
listener in the teamwork and contest cogs). The form is stopped before it is
sent, so discord.py keeps nothing in memory for it: a form opened before the
bot restarted works when it is submitted after the restart, like the buttons.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Self, cast

import discord

from bot.edge.errors import answering_errors
from bot.edge.transformers import PoolTransformer
from bot.flows.reply import UserError
from bot.render.contest import (
    DIFFICULTY_HINT,
    DIFFICULTY_LABEL,
    POOL_HINT,
    POOL_LABEL,
    not_a_difficulty,
)
from bot.render.teamwork import CANCEL, HELP, ROLL
from bot.views import PREFIX
from engine.models import Term

if TYPE_CHECKING:
    from discord.types.interactions import (
        ModalSubmitComponentInteractionData,
        ModalSubmitInteractionData,
    )


#: The form's field custom_ids.
POOL_FIELD: Final = "pool"
DIFFICULTY_FIELD: Final = "difficulty"

_FORM_ID: Final = re.compile(
    rf"{PREFIX}:form:(?P<purpose>help|resist):(?P<action_id>[0-9]{{1,20}})"
)

#: action → (label, style) of each button on a teamwork card.
_LOOK: Final[dict[str, tuple[str, discord.ButtonStyle]]] = {
    "help": (HELP, discord.ButtonStyle.primary),
    "roll": (ROLL, discord.ButtonStyle.success),
    "cancel": (CANCEL, discord.ButtonStyle.secondary),
}


class TeamworkButton(
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=(
        rf"{PREFIX}:team:(?P<action>help|roll|cancel)"
        r":(?P<action_id>[0-9]{1,20}):(?P<version>[0-9]{1,20})"
    ),
):
    """Help (a form for the helper's pool), Roll (primary only), Cancel."""

    def __init__(self, action: str, action_id: int, version: int) -> None:
        label, style = _LOOK[action]
        super().__init__(
            discord.ui.Button(
                label=label,
                style=style,
                custom_id=f"{PREFIX}:team:{action}:{action_id}:{version}",
            )
        )
        self.action = action
        self.action_id = action_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match["action"], int(match["action_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        # bot.teamwork posts the cards carrying these buttons, so it is imported here.
        from bot import teamwork  # noqa: PLC0415

        async with answering_errors(interaction):
            await teamwork.BUTTON_HANDLERS[self.action](
                interaction, self.action_id, self.version
            )


def teamwork_view(action_id: int, version: int) -> discord.ui.View:
    """The buttons of an open teamwork's card at ``version``."""
    view = discord.ui.View(timeout=None)
    for action in _LOOK:
        view.add_item(TeamworkButton(action, action_id, version))
    return view


class PoolForm(discord.ui.Modal):
    """A form asking for a pool (and, in `v20`, a difficulty) for one action.

    Built inside a running event loop (a button callback). It has no
    ``on_submit`` and is stopped at once, so discord.py does not keep it:
    submissions are answered from their custom_id and values by
    :func:`form_submission`, restart or not.
    """

    def __init__(
        self, purpose: str, action_id: int, *, title: str, ask_difficulty: bool
    ) -> None:
        super().__init__(title=title[:45], custom_id=f"{PREFIX}:form:{purpose}:{action_id}")
        self.add_item(
            discord.ui.Label(
                text=POOL_LABEL,
                description=POOL_HINT,
                component=discord.ui.TextInput(custom_id=POOL_FIELD, max_length=200),
            )
        )
        if ask_difficulty:
            self.add_item(
                discord.ui.Label(
                    text=DIFFICULTY_LABEL,
                    description=DIFFICULTY_HINT,
                    component=discord.ui.TextInput(
                        custom_id=DIFFICULTY_FIELD, required=False, max_length=2
                    ),
                )
            )
        self.stop()


@dataclass(frozen=True)
class FormSubmission:
    """A submitted pool form: which action it is for, and what was typed."""

    purpose: str
    action_id: int
    pool: str
    difficulty: str

    async def terms(self, interaction: discord.Interaction) -> tuple[Term, ...]:
        """The pool typed, parsed as `pool:` options are (or a clear refusal)."""
        return await PoolTransformer().transform(interaction, self.pool)

    def difficulty_value(self) -> int | None:
        """The difficulty typed, None when left empty; the engine checks its range."""
        if not self.difficulty:
            return None
        try:
            return int(self.difficulty)
        except ValueError:
            raise UserError(not_a_difficulty(self.difficulty)) from None


def form_submission(interaction: discord.Interaction) -> FormSubmission | None:
    """The pool form this interaction submits, or None when it is something else."""
    if interaction.type is not discord.InteractionType.modal_submit or interaction.data is None:
        return None
    data = cast("ModalSubmitInteractionData", interaction.data)
    match = _FORM_ID.fullmatch(data["custom_id"])
    if match is None:
        return None
    values = _text_values(data["components"])
    return FormSubmission(
        purpose=match["purpose"],
        action_id=int(match["action_id"]),
        pool=values.get(POOL_FIELD, ""),
        difficulty=values.get(DIFFICULTY_FIELD, "").strip(),
    )


def _text_values(components: list[ModalSubmitComponentInteractionData]) -> dict[str, str]:
    """Every text input's value by custom_id, in labels or in (older) action rows."""
    values: dict[str, str] = {}
    for component in components:
        if component["type"] == 1:
            for text_input in component["components"]:
                values[text_input["custom_id"]] = text_input["value"]
        elif component["type"] == 18:
            inner = component["component"]
            if inner["type"] == 4:
                values[inner["custom_id"]] = inner["value"]
    return values
