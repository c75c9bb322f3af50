"""The pseudo-locales: every message wrapped, so a hard-coded English string shows.

The flow tests on SQLite speak two pseudo-locales: the member's own answers
``⟪…⟫`` and the table's public messages ``⟦…⟧``; user text (names, labels,
pools) comes ``‹…›``. Each message a flow sends is checked: outside those
marks, no letter may be left (a word that did not come from the catalogue),
and an ephemeral answer holds no public words, a public message none of the
member's (a message drawn in the wrong language). The marks are then taken
off, so the test reads the English it asserts on.
"""

from __future__ import annotations

import os
import re
from dataclasses import replace
from typing import Any, Final

import discord
from babel import Locale

from bot.render.message import Message

OWN: Final = "x-own"
"""The member's client locale in the pseudo run."""
PUBLIC: Final = "x-pub"
"""The server's preferred locale in the pseudo run."""

_OWN_MARKS: Final = ("⟪", "⟫")
_PUBLIC_MARKS: Final = ("⟦", "⟧")
_USER_MARKS: Final = ("‹", "›")
_ALL_MARKS: Final = re.compile("[⟪⟫⟦⟧‹›]")

#: Discord markup that is no prose: mentions, channels, roles, times, commands, emoji,
#: links.
_MARKUP: Final = re.compile(
    r"<@[!&]?\d+>|<#\d+>|<t:-?\d+(?::[a-zA-Z])?>|</[^>]+:\d+>|<a?:\w+:\d+>|https?://\S+"
)
_LETTER: Final = re.compile(r"[^\W\d_]")


class Pseudo:
    """A voice that wraps every message in its marks (English inside, English numbers)."""

    def __init__(self, marks: tuple[str, str]) -> None:
        self._open, self._close = marks

    @property
    def locale(self) -> Locale:
        return Locale("en")

    def _wrap(self, text: str) -> str:
        return f"{self._open}{text}{self._close}"

    def gettext(self, message: str) -> str:
        return self._wrap(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._wrap(singular if n == 1 else plural)

    def pgettext(self, context: str, message: str) -> str:
        return self._wrap(message)

    def user(self, text: str) -> str:
        return f"{_USER_MARKS[0]}{text}{_USER_MARKS[1]}"


OWN_VOICE: Final = Pseudo(_OWN_MARKS)
PUBLIC_VOICE: Final = Pseudo(_PUBLIC_MARKS)


def _without(text: str, marks: tuple[str, str]) -> str:
    """The text with every marked span taken out, innermost first."""
    opening, closing = (re.escape(mark) for mark in marks)
    span = re.compile(f"{opening}[^{opening}{closing}]*{closing}")
    while True:
        shorter = span.sub("", text)
        if shorter == text:
            return text
        text = shorter


def check(text: str, *, ephemeral: bool, where: str) -> None:
    """Fail on words that came from no catalogue, or from the wrong language's (with
    ``PSEUDO_REPORT=<file>`` in the environment: write them down there and go on)."""
    try:
        _check(text, ephemeral=ephemeral, where=where)
    except AssertionError as error:
        report = os.environ.get("PSEUDO_REPORT")
        if not report:
            raise
        with open(report, "a", encoding="utf-8") as file:
            file.write(f"{error}\n")


def _check(text: str, *, ephemeral: bool, where: str) -> None:
    wrong = _PUBLIC_MARKS[0] if ephemeral else _OWN_MARKS[0]
    if wrong in text:
        whose = "the table's language" if ephemeral else "the member's own language"
        msg = f"{where}: a {'private' if ephemeral else 'public'} message holds {whose}: {text!r}"
        raise AssertionError(msg)
    rest = _without(_MARKUP.sub("", text), _USER_MARKS)
    rest = _without(rest, _OWN_MARKS if ephemeral else _PUBLIC_MARKS)
    if _LETTER.search(rest):
        msg = f"{where}: words from no catalogue: {rest.strip()!r} in {text!r}"
        raise AssertionError(msg)


def strip(text: str) -> str:
    """The text as English readers see it (the marks taken off)."""
    return _ALL_MARKS.sub("", text)


def _embed(embed: discord.Embed, *, ephemeral: bool) -> discord.Embed:
    data: dict[str, Any] = dict(embed.to_dict())

    def seen(value: str, where: str) -> str:
        check(value, ephemeral=ephemeral, where=where)
        return strip(value)

    for key in ("title", "description"):
        if data.get(key):
            data[key] = seen(data[key], f"embed {key}")
    for name in ("footer", "author"):
        part = data.get(name)
        key = "text" if name == "footer" else "name"
        if part and part.get(key):
            data[name] = {**part, key: seen(part[key], f"embed {name}")}
    if "fields" in data:
        data["fields"] = [
            {**field, "name": seen(field["name"], "field name"),
             "value": seen(field["value"], "field value")}
            for field in data["fields"]
        ]
    return discord.Embed.from_dict(data)


def _items(items: list[discord.ui.Item[Any]], *, ephemeral: bool) -> None:
    for item in items:
        if isinstance(item, discord.ui.Button) and item.label:
            check(item.label, ephemeral=ephemeral, where="button label")
            item.label = strip(item.label)
        elif isinstance(item, discord.ui.Select):
            if item.placeholder:
                check(item.placeholder, ephemeral=ephemeral, where="select placeholder")
                item.placeholder = strip(item.placeholder)
            for option in item.options:
                check(option.label, ephemeral=ephemeral, where="select option")
                option.label = strip(option.label)
                if option.description:
                    check(option.description, ephemeral=ephemeral, where="option description")
                    option.description = strip(option.description)
        elif isinstance(item, discord.ui.TextInput):
            check(item.label, ephemeral=ephemeral, where="form field")
            item.label = strip(item.label)
            if item.placeholder:
                check(item.placeholder, ephemeral=ephemeral, where="form placeholder")
                item.placeholder = strip(item.placeholder)
            if item.default:
                item.default = strip(item.default)


def heard(message: Message, *, ephemeral: bool) -> Message:
    """A message checked as the member or the table would hear it, marks taken off."""
    content = message.content
    if content:
        check(content, ephemeral=ephemeral, where="content")
        content = strip(content)
    embed = None if message.embed is None else _embed(message.embed, ephemeral=ephemeral)
    if message.view is not None:
        _items(list(message.view.children), ephemeral=ephemeral)
    return replace(message, content=content, embed=embed)


def heard_form(modal: discord.ui.Modal) -> discord.ui.Modal:
    """A form checked as the member's own (it opens for them alone), marks taken off."""
    check(modal.title, ephemeral=True, where="form title")
    modal.title = strip(modal.title)
    _items(list(modal.children), ephemeral=True)
    return modal
