"""Option parsing at the edge: pool text becomes the engine's terms, or a clear refusal."""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands

from bot.flows.reply import UserError
from bot.render.messages import hidden_character, unreadable_pool
from bot.render.refusals import refusal_text
from engine.constants import MAX_LABEL
from engine.models import Term
from engine.parser import NamedPart, PoolSyntaxError, parse_pool, parse_pool_names
from engine.records import given_label
from engine.text import visible_line


class PoolTransformer(app_commands.Transformer):
    """`pool:` text such as ``Strength 3 + Brawl 2 - 1`` → the engine's terms."""

    async def transform(self, interaction: discord.Interaction, value: str) -> tuple[Term, ...]:
        try:
            return parse_pool(value)
        except PoolSyntaxError as error:
            raise UserError(unreadable_pool(refusal_text(error.refusal))) from error


Pool = app_commands.Transform[tuple[Term, ...], PoolTransformer]
"""An option annotated ``Pool`` reaches the command as parsed terms."""


class SheetPoolTransformer(app_commands.Transformer):
    """`pool:` text that may name traits of the active character (``Wits + Composure``)."""

    async def transform(
        self, interaction: discord.Interaction, value: str
    ) -> tuple[NamedPart, ...]:
        try:
            return parse_pool_names(value)
        except PoolSyntaxError as error:
            raise UserError(unreadable_pool(refusal_text(error.refusal))) from error


SheetPool = app_commands.Transform[tuple[NamedPart, ...], SheetPoolTransformer]
"""An option annotated ``SheetPool`` reaches the command as parts, bare names included."""


class LabelTransformer(app_commands.Transformer):
    """`label:` text → the label the flows take (:func:`engine.records.given_label`): the
    spaces around it trimmed, None when nothing in it is visible, so every command that
    takes a label treats such a one as no label. The option stays text of 1 to
    :data:`MAX_LABEL` characters, as Discord shows it and as
    :func:`bot.edge.errors.check_bounds` checks again.

    **Decision**: a label that shows something is safe text as a character's name is
    (:func:`engine.text.visible_line`), or refused before anything rolls: one with
    a zero-width space or a Hangul filler beside its words would key successive attempts
    apart from the label it looks like, and a direction override would turn its card and
    history line around."""

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return MAX_LABEL

    async def transform(self, interaction: discord.Interaction, value: str) -> str | None:
        label = given_label(value)
        if label is not None and not visible_line(label):
            raise UserError(hidden_character("label"))
        return label


Label = app_commands.Transform[str | None, LabelTransformer]
"""An option annotated ``Label`` reaches the command trimmed, or None when nothing in it
is visible."""


#: The quotes a member may type around a whole value, as COMMANDS.md and the help pages
#: write one to show where it ends (`traits:"Wits 3, Brawl 2"`): straight ones, and the
#: curly ones and guillemets a phone's keyboard or a pt-BR or es-ES writer puts there.
_QUOTES: Final = {'"': '"', "“": "”", "”": "”", "„": "“", "«": "»", "'": "'", "‘": "’"}


def unquoted(value: str) -> str:
    """``value`` without one pair of quotes around all of it; as typed otherwise."""
    text = value.strip()
    if len(text) > 2 and _QUOTES.get(text[0]) == text[-1]:
        return text[1:-1]
    return value


class UnquotedTransformer(app_commands.Transformer):
    """A list option (`traits:`, `actions:`) of 1 to ``longest`` characters, read without
    the quotes the documentation writes around its example values, which a member who
    types the example types too: those quotes are no part of a pool or a trait, so the
    value was refused ('A pool cannot contain “"”') where the example was followed."""

    def __init__(self, longest: int) -> None:
        self._longest = longest

    @property
    def min_value(self) -> int:
        return 1

    @property
    def max_value(self) -> int:
        return self._longest

    async def transform(self, interaction: discord.Interaction, value: str) -> str:
        return unquoted(value)
