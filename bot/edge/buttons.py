"""Every button of the bot: one :class:`discord.ui.DynamicItem` routes presses to flows.

The custom_id is parsed once (:func:`bot.edge.ids.parse`); the press goes to the
flow of its kind with the member's :class:`~bot.flows.context.Ctx`, and the
flow's reply is delivered. A custom_id of our shape that :func:`parse` does
not accept (a forged key, an action that does not exist) is answered as a
stale button; presses that never reach this item (not our shape, or a button
the message no longer shows) are answered by :func:`answer_unrouted`.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Iterable, Iterator
from typing import Any, Final, Self

import discord

from bot.edge.ctx import ctx_of, deps_of, speak_to
from bot.edge.errors import answering_errors, reply_ephemeral
from bot.edge.ids import TEMPLATE, Kind, Press, parse
from bot.edge.respond import DiscordResponder
from bot.flows import characters, contest, extended, initiative, rolls, teamwork
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, run
from bot.render.buttons import STALE_BUTTON
from bot.render.lang import _

ButtonFlow = Callable[[Deps, Ctx, Press], Awaitable[Reply]]

#: The flow that answers each kind of button.
ROUTES: Final[dict[Kind, ButtonFlow]] = {
    Kind.ROLL: rolls.pressed,
    Kind.TEAMWORK_CARD: teamwork.card_pressed,
    Kind.HELPER_ROLL: teamwork.helper_roll_pressed,
    Kind.RESIST: contest.resist_pressed,
    Kind.EXTENDED_CARD: extended.card_pressed,
    Kind.EXTENDED_ROLL: extended.roll_pressed,
    Kind.INITIATIVE_CARD: initiative.card_pressed,
    Kind.CHARACTER: characters.pressed,
}

_TEMPLATE: Final = re.compile(TEMPLATE)


class Pressed(discord.ui.DynamicItem[discord.ui.Button[Any]], template=TEMPLATE):
    """A press of any button of ours (its looks come from render; only the id matters)."""

    def __init__(self, custom_id: str) -> None:
        super().__init__(discord.ui.Button(custom_id=custom_id))
        self.custom_id = custom_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Self:
        return cls(match.string)

    async def callback(self, interaction: discord.Interaction) -> None:
        async with answering_errors(interaction):
            press = parse(self.custom_id)
            flow = None if press is None else ROUTES.get(press.kind)
            if press is None or flow is None:
                await reply_ephemeral(interaction, _(STALE_BUTTON))
                return
            await run(
                flow(deps_of(interaction), ctx_of(interaction), press),
                DiscordResponder(interaction),
            )


def _custom_ids(components: Iterable[discord.Component]) -> Iterator[str]:
    for component in components:
        custom_id = getattr(component, "custom_id", None)
        if isinstance(custom_id, str):
            yield custom_id
        yield from _custom_ids(getattr(component, "children", ()))


def routed(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component press to :class:`Pressed`: our shape, and a
    button the message still shows (discord.py drops presses of buttons it cannot find)."""
    custom_id = interaction.data.get("custom_id") if interaction.data else None
    if not isinstance(custom_id, str) or _TEMPLATE.fullmatch(custom_id) is None:
        return False
    message = interaction.message
    return message is not None and custom_id in set(_custom_ids(message.components))


async def answer_unrouted(interaction: discord.Interaction) -> None:
    """Answer a press nothing else answers (a stale, foreign or forged button), so the
    member never sees "This interaction failed"; nothing is changed."""
    if interaction.type is discord.InteractionType.component and not routed(interaction):
        speak_to(interaction)
        await reply_ephemeral(interaction, _(STALE_BUTTON))
