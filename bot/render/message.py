"""One message as render draws it: content, embed, buttons, file (no sending here)."""

from __future__ import annotations

from dataclasses import dataclass, replace
from typing import Final

import discord

from bot.render.lang import N_, _
from engine.records import ChannelConfig

#: Discord's limit for a message's text.
CONTENT_LIMIT: Final = 2000
TOO_LONG: Final = N_("… (the rest does not fit a plain message: ask an admin to turn plain off)")


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


def embed_text(embed: discord.Embed) -> str:
    """An embed as plain message text: the title in bold, the description, each field as
    "**name**: value", the footer as small print."""
    head, description, tail = _embed_parts(embed)
    return "\n".join([*head, *([description] if description else []), *tail])


def _embed_parts(embed: discord.Embed) -> tuple[list[str], str, list[str]]:
    """An embed's text before its description (the title), the description, and after it
    (the fields and the footer)."""
    head = [f"**{embed.title}**"] if embed.title else []
    tail: list[str] = []
    for field in embed.fields:
        value = field.value or ""
        joiner = "\n" if "\n" in value else " "
        tail.append(f"**{field.name}**:{joiner}{value}")
    if embed.footer.text:
        tail.append(f"-# {embed.footer.text}")
    return head, embed.description or "", tail


def plain(message: Message) -> Message:
    """The message without its embed, for members whose Discord hides embeds: the embed's
    words become the text, within the 2,000 characters a message holds. Too long, the
    description (a roll's dice) is cut at a line and says so, and what follows it (who
    rolled, the pool, the ruleset) is kept."""
    if message.embed is None:
        return message
    head, description, tail = _embed_parts(message.embed)
    before = [part for part in (message.content, *head) if part]
    text = "\n".join([*before, *([description] if description else []), *tail])
    if len(text) > CONTENT_LIMIT:
        cut = _(TOO_LONG)
        kept_around = len("\n".join([*before, cut, *tail])) + 1
        room = CONTENT_LIMIT - kept_around
        if room > 0 and description:
            kept = description[:room].rsplit("\n", 1)[0]
            text = "\n".join([*before, *([kept] if kept else []), cut, *tail])
        else:  # the rest alone is too long: cut the end
            kept = text[: CONTENT_LIMIT - len(cut) - 1].rsplit("\n", 1)[0]
            text = f"{kept}\n{cut}"
    return replace(message, content=text, embed=None)


def _pieces(text: str) -> list[str]:
    """Text cut at line ends into pieces of at most 2,000 characters (a longer line is
    cut where it must)."""
    pieces: list[str] = []
    current = ""
    for whole in text.split("\n"):
        line = whole
        while len(line) > CONTENT_LIMIT:
            if current:
                pieces.append(current)
                current = ""
            pieces.append(line[:CONTENT_LIMIT])
            line = line[CONTENT_LIMIT:]
        joined = f"{current}\n{line}" if current else line
        if len(joined) > CONTENT_LIMIT:
            pieces.append(current)
            joined = line
        current = joined
    if current:
        pieces.append(current)
    return pieces


def shaped_in_full(message: Message, config: ChannelConfig) -> tuple[Message, ...]:
    """The message as the channel's display settings want it, in as many plain messages
    as its words need (a help page is read whole; a card is one message: :func:`shaped`).
    The first holds the buttons and the file."""
    if not config.plain or message.embed is None:
        return (message,)
    text = "\n".join(part for part in (message.content, embed_text(message.embed)) if part)
    first, *rest = _pieces(text)
    return (
        replace(message, content=first, embed=None),
        *(Message(content=piece) for piece in rest),
    )


def shaped(message: Message, config: ChannelConfig) -> Message:
    """The message as the channel's display settings want it (plain text or an embed)."""
    return plain(message) if config.plain else message


def plain_off(config: ChannelConfig) -> ChannelConfig:
    """The settings with embeds on, to draw an embed that becomes part of a bigger message
    (which is then :func:`shaped` once, as a whole)."""
    return config.model_copy(update={"plain": False}) if config.plain else config
