"""One message as render draws it: content, embed, buttons, file (no sending here)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Final

import discord

from bot.render.lang import N_, _
from engine.records import ChannelConfig

#: Discord's limit for a message's text.
CONTENT_LIMIT: Final = 2000
TOO_LONG: Final = N_("… (the rest does not fit a plain message: ask an admin to turn plain off)")
#: Discord's inline marks that come in pairs, longer first (``**`` before ``*``); a lone
#: ``_`` is left out, as it is no mark inside a word.
_MARKS: Final = ("**", "__", "~~", "||", "`", "*")
#: A mention, a custom emoji, a timestamp or a command link (``<:name:id>``): never split.
_TAG: Final = re.compile(r"</?[^<>\n]{1,100}>")


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
            kept = _cut(description, room)
            text = "\n".join([*before, *([kept] if kept else []), cut, *tail])
        else:  # the rest alone is too long: cut the end
            kept = _cut(text, CONTENT_LIMIT - len(cut) - 1)
            text = f"{kept}\n{cut}"
    return replace(message, content=text, embed=None)


def _cut(text: str, room: int) -> str:
    """At most ``room`` characters of ``text``, cut at a line end; when its first line
    alone is too long, that line cut as :func:`_split_line` does."""
    if len(text) <= room:
        return text
    if "\n" in text[:room]:
        return text[:room].rsplit("\n", 1)[0]
    return _split_line(text, room)[0]


def _split_line(line: str, room: int) -> tuple[str, str]:
    """A line longer than ``room`` cut in two, the first of at most ``room`` characters,
    leaving no markup open (**Decision**): the cut is the last one before a space that
    fits (else the last that fits), never inside an escaped character or a mention, and
    the marks open there (bold, strike-through, code) are closed at its end and opened
    again at the rest's start, where a cut inside ``**10**`` left the rest of the
    message bold, or its marks shown."""
    opened: list[str] = []
    fits: tuple[int, tuple[str, ...]] = (0, ())
    spaced = fits
    at = 0
    while at < len(line) and at + sum(map(len, opened)) <= room:
        fits = (at, tuple(opened))
        if line[at] == " ":
            spaced = fits
        at += _step(line, at, opened)
    at, marks = spaced if spaced[0] > room // 2 else fits
    if at == 0:  # not even one character fits with its marks: cut where it must
        return line[:room], line[room:]
    return line[:at] + "".join(reversed(marks)), "".join(marks) + line[at:].lstrip(" ")


def _step(line: str, at: int, opened: list[str]) -> int:
    """How many characters the markup unit at ``at`` takes (an escaped character, a
    mention, a mark or one character); a mark opens or closes in ``opened``. Inside code
    only the closing backtick is a mark."""
    if line[at] == "\\":
        return min(2, len(line) - at)
    if opened and opened[-1] == "`":
        if line[at] == "`":
            opened.pop()
        return 1
    tag = _TAG.match(line, at)
    if tag is not None:
        return tag.end() - at
    mark = next((mark for mark in _MARKS if line.startswith(mark, at)), None)
    if mark is None:
        return 1
    if mark in opened:
        del opened[len(opened) - 1 - opened[::-1].index(mark)]
    else:
        opened.append(mark)
    return len(mark)


def _pieces(text: str) -> list[str]:
    """Text cut at line ends into pieces of at most 2,000 characters (a longer line is
    cut as :func:`_split_line` does, its markup closed and opened again)."""
    pieces: list[str] = []
    current = ""
    for whole in text.split("\n"):
        line = whole
        while len(line) > CONTENT_LIMIT:
            if current:
                pieces.append(current)
                current = ""
            piece, line = _split_line(line, CONTENT_LIMIT)
            pieces.append(piece)
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
