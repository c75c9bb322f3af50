"""The one form router: a submitted form goes to its flow by its key-only custom_id.

Forms are sent stopped (discord.py keeps nothing in memory), so a submission is
answered from its custom_id and typed values alone, restart or not. A
submission whose custom_id is not ours is answered as a stale form.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import TYPE_CHECKING, Any, Final, cast

import discord

from bot.edge.ctx import ctx_of, deps_of
from bot.edge.errors import answering_errors, check_text, reply_ephemeral
from bot.edge.ids import Kind, Press, parse
from bot.edge.respond import DiscordResponder
from bot.flows import contest, extended, saved
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, run
from bot.render.buttons import STALE_BUTTON
from bot.render.lang import _

if TYPE_CHECKING:
    from discord.types.interactions import (
        ModalSubmitComponentInteractionData,
        ModalSubmitInteractionData,
    )

FormFlow = Callable[[Deps, Ctx, Press, Mapping[str, str]], Awaitable[Reply]]

#: The flow that answers each kind of form.
FORMS: Final[dict[Kind, FormFlow]] = {
    Kind.CONDITION_FORM: extended.condition_submitted,
    Kind.POOL_FORM: contest.pool_form_submitted,
    Kind.SAVE_FORM: saved.form_submitted,
}


def text_values(components: list[ModalSubmitComponentInteractionData]) -> dict[str, str]:
    """Every text input's value by custom_id, in labels or in (older) action rows."""
    values: dict[str, str] = {}
    for component in components:
        inner: list[Any] = []
        if component["type"] == 1:
            inner = list(component["components"])
        elif component["type"] == 18:
            inner = [component["component"]]
        for text_input in inner:
            if text_input["type"] == 4:
                values[text_input["custom_id"]] = text_input["value"]
    return values


async def route(interaction: discord.Interaction) -> None:
    """Answer a submitted form (any form: ours go to their flow, others are stale)."""
    if interaction.type is not discord.InteractionType.modal_submit:
        return
    async with answering_errors(interaction):
        data = cast("ModalSubmitInteractionData", interaction.data or {})
        press = parse(str(data.get("custom_id", "")))
        flow = None if press is None else FORMS.get(press.kind)
        if press is None or flow is None:
            await reply_ephemeral(interaction, _(STALE_BUTTON))
            return
        values = text_values(list(data.get("components", [])))
        check_text(values.values())
        await run(
            flow(deps_of(interaction), ctx_of(interaction), press, values),
            DiscordResponder(interaction),
        )
