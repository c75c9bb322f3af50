"""`/help`: how to roll in this channel's ruleset, with examples. One read (the settings)."""

from __future__ import annotations

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply
from bot.render.help import HELP_TOPICS, help_embed
from bot.render.message import Message, shaped_in_full

#: The topics /help explains, for the command's choices.
TOPICS = HELP_TOPICS


async def show_help(deps: Deps, ctx: Ctx, topic: str | None = None) -> Reply:
    """The overview for this channel's ruleset, or one topic (an unknown topic is said so
    above the overview).

    Help is the member's own answer (ephemeral), so it speaks their client's language,
    the language Discord shows them the commands and /help's topics in: the voice the edge
    set, no ``speaking`` block."""
    config = await deps.store.read(ctx.config)
    embed = help_embed(config.ruleset, topic, text_only=config.text_only)
    # Plain messages hold 2,000 characters: a longer page follows in more messages.
    first, *rest = shaped_in_full(Message(embed=embed), config)
    return Reply(message=first, ephemeral=True, followups=tuple((more, True) for more in rest))
