"""One message as render draws it: content, embed, buttons, file (no sending here)."""

from __future__ import annotations

from dataclasses import dataclass

import discord


@dataclass(frozen=True, slots=True)
class Attachment:
    """A file sent with a message."""

    name: str
    data: bytes


@dataclass(frozen=True, slots=True)
class Message:
    """One message's content, as render drew it."""

    content: str | None = None
    embed: discord.Embed | None = None
    view: discord.ui.View | None = None
    """Buttons (render draws them from :mod:`bot.edge.ids`); None: no buttons."""
    file: Attachment | None = None
