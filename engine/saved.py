"""Saved rolls and rolls as asked: a request kept in the words the member used.

A roll is stored as it was rolled (:class:`engine.models.RollRequest`, numbers
resolved); :class:`Asked` keeps it as it was *asked*: the pool's parts with bare
trait names (``Wits + Composure``), the roll options given and the specialty
named. Rolling an :class:`Asked` again resolves its names against the member's
sheet of the moment and builds the request in the channel's ruleset of the
moment, exactly as ``/roll`` would with the same words. Will is never part of
it: Will is declared (or spent) roll by roll.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from enum import StrEnum
from typing import Any, Final, Literal, Self

from pydantic import Field, model_validator

from engine.characters import fold
from engine.constants import MAX_POOL
from engine.frozen import Frozen
from engine.models import RollRequest, Ruleset
from engine.parser import NamedPart
from engine.prepare import OPTION_RULESETS
from engine.refusals import Refusal, RefusalCode
from engine.text import visible_line

#: The most saved rolls one member keeps in one server.
MAX_SAVED: Final = 50
#: Longest name of a saved roll, in characters.
MAX_NAME: Final = 64
#: Modifier dice `/saved roll` may add or take away.
MAX_MODIFIER: Final = 10

SCHEMA_VERSION: Final = 1

#: The roll options an :class:`Asked` may keep: the request's own options, Will aside,
#: and whose sheet a named ``resist`` reads (RULES.md §6).
OPTION_NAMES: Final = (frozenset(RollRequest.model_fields) - {
    "ruleset", "terms", "adjustments", "will", "sheet",
}) | {"resist_target"}


class AskedPart(Frozen):
    """One part of a pool as typed: a bare name (``value`` None), a labelled number or a
    number; ``negative`` when it is subtracted."""

    label: str | None = None
    value: int | None = Field(default=None, ge=0)
    negative: bool = False


class Asked(Frozen):
    """A roll as asked: the pool's parts, the options given (Will never), the specialty."""

    schema_version: Literal[1] = SCHEMA_VERSION
    parts: tuple[AskedPart, ...] = Field(min_length=1)
    options: dict[str, bool | int | str] = Field(default_factory=dict)
    spec: str | None = None

    @model_validator(mode="after")
    def _known_options(self) -> Self:
        unknown = set(self.options) - OPTION_NAMES
        if unknown:
            msg = f"not roll options: {sorted(unknown)}"
            raise ValueError(msg)
        return self

    @classmethod
    def of(
        cls, parts: Iterable[NamedPart], options: Mapping[str, Any], spec: str | None = None
    ) -> Asked:
        """What a command asked: its pool's parts, the options it set (an option left unset,
        False or 0 is "not given", as :func:`bot.flows.rolls.build_request` reads it; Will
        is left out), its specialty."""
        given = {
            name: value.value if isinstance(value, StrEnum) else value
            for name, value in options.items()
            if name != "will" and value not in (None, False, 0)
        }
        return cls(
            parts=tuple(AskedPart(label=p.label, value=p.value, negative=p.negative)
                        for p in parts),
            options=given,
            spec=spec,
        )

    def named_parts(self) -> tuple[NamedPart, ...]:
        """The parts as the parser gives them (what a roll by name resolves)."""
        return tuple(NamedPart(p.label, p.value, negative=p.negative) for p in self.parts)

    def with_modifier(self, dice: int) -> Asked:
        """The same roll with ``dice`` more (fewer, when negative) dice; itself for 0."""
        if dice == 0:
            return self
        extra = AskedPart(value=abs(dice), negative=dice < 0)
        return self.model_copy(update={"parts": (*self.parts, extra)})

    def pool_text(self) -> str:
        """The pool in the member's words: ``Wits + Composure + Investigation 3 - 1``."""
        pieces: list[str] = []
        for part in self.parts:
            body = " ".join(str(bit) for bit in (part.label, part.value) if bit is not None)
            if not pieces:
                pieces.append(f"-{body}" if part.negative else body)
            else:
                pieces.append(f"{'-' if part.negative else '+'} {body}")
        return " ".join(pieces)


#: The options that take dice away by the table's ruleset or a sheet (RULES.md §6).
_LOWERING: Final = frozenset({"resist", "resist_target", "untrained"})


def never_rolls(asked: Asked) -> Refusal | None:
    """Why ``asked`` is refused at every table, whatever its ruleset and sheets: the
    refusal ``/roll`` gives it (its typed numbers add up to more than ``MAX_POOL`` dice);
    None when some table may roll it.

    **Decision**: only what the words alone settle. A pool that names a trait, or whose
    options take dice away (``resist``, ``untrained``), is sized by the sheet and the
    ruleset of the moment, so it waits until it rolls. A table's passing penalties (a
    successive attempt, an extended action's -2) and ``/saved roll``'s ``modifier`` do not
    count: a roll is saved to be rolled again as it is, and ``/roll`` refuses the same pool.
    """
    if any(part.value is None for part in asked.parts) or _LOWERING & asked.options.keys():
        return None
    dice = sum(-(part.value or 0) if part.negative else part.value or 0 for part in asked.parts)
    if dice > MAX_POOL:
        return Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=dice, max=MAX_POOL)
    return None


def options_apart(asked: Asked) -> dict[str, frozenset[Ruleset]]:
    """The options of ``asked`` that only some rulesets have, each with those rulesets,
    when no ruleset has them all (``rote`` and ``difficulty``: cofd's and v20's), so every
    table refuses the roll whatever its ruleset; empty when some ruleset has them all."""
    bound = {name: OPTION_RULESETS[name] for name in asked.options if name in OPTION_RULESETS}
    shared = frozenset(Ruleset).intersection(*bound.values())
    return {} if shared else bound


class SavedRoll(Frozen):
    """A member's saved roll in one server."""

    id: int
    guild_id: int
    user_id: int
    name: str
    asked: Asked
    label: str | None = None


class SaveRefusal(StrEnum):
    """Why a roll cannot be saved under a name."""

    NAME_EMPTY = "name_empty"
    """The name has no letter or digit (nothing, spaces, punctuation, invisible characters)."""
    NAME_INVISIBLE = "name_invisible"
    """The name holds an invisible character (a zero-width space, a soft hyphen, a direction
    mark or override) beside its letters: :func:`save_refusal`'s Decision."""
    NAME_TOO_LONG = "name_too_long"
    NAME_TAKEN = "name_taken"
    """The member already has a saved roll by that name (and did not ask to replace it)."""
    FULL = "full"
    """The member has MAX_SAVED saved rolls in this server already."""


def clean_name(name: str) -> str:
    """A name as kept: surrounding spaces dropped, runs of whitespace made one space."""
    return " ".join(name.split())


def name_key(name: str) -> str:
    """How saved rolls' names match: case, spaces, accents and hyphens do not matter."""
    return fold(clean_name(name))


def save_refusal(
    name: str, *, taken: bool, count: int, replace: bool
) -> SaveRefusal | None:
    """Whether a member with ``count`` saved rolls may save one as ``name`` (``taken``: one
    by that name exists; ``replace``: the member asked to replace it); None when they may.

    **Decision**: a name is one line of visible characters, as a character's name is
    (:func:`engine.text.visible_line`): a name holding a format character beside
    its letters (``a`` and a zero-width space, a soft hyphen, a right-to-left override)
    is refused, not saved. It would show as another name (``a``) while being a name of
    its own, listed twice alike, and rolled or deleted only by picking the right one of
    the two. Refused rather than folded into the key: the keys of the rolls already
    saved stay as they are, so each is found by its name as before. The joiners emoji and
    some scripts need (ZWJ, ZWNJ, tag characters) are kept, as in a character's name.
    """
    cleaned = clean_name(name)
    # Some letter or digit, as the refusal says: a name of punctuation (``!!!``) or of
    # nothing visible (a zero-width space) lists as an empty line and is hard to type again.
    if not any(char.isalnum() for char in cleaned):
        return SaveRefusal.NAME_EMPTY
    if not visible_line(cleaned):
        return SaveRefusal.NAME_INVISIBLE
    if len(cleaned) > MAX_NAME:
        return SaveRefusal.NAME_TOO_LONG
    if taken:
        return None if replace else SaveRefusal.NAME_TAKEN
    if count >= MAX_SAVED:
        return SaveRefusal.FULL
    return None
