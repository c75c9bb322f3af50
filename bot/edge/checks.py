"""Who may do what (COMMANDS.md "Roles").

A flow decides it from its :class:`~bot.flows.context.Ctx` and the settings its one
read gathered (``ctx.storyteller(config)``), and refuses with render's words;
``default_permissions`` on a command stays only Discord's hint (a server admin can
override it).
"""

from __future__ import annotations

import discord

from bot.edge.ctx import ctx_of, deps_of


async def is_storyteller(interaction: discord.Interaction) -> bool:
    """Manage Channels here, or the Storyteller role an admin set with /config storyteller.

    Only for code not yet moved to flows (it costs a read of its own); a flow asks
    ``ctx.storyteller(config)`` with the settings it already read.
    """
    ctx = ctx_of(interaction)
    if ctx.manages_channel:
        return True
    config = await deps_of(interaction).store.read(ctx.config)
    return ctx.storyteller(config)
