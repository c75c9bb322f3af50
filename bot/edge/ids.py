"""The custom_id scheme of every button and form: key-only, versioned, parsed in one place.

A custom_id names what was pressed and the database keys it acts on, nothing
else: the database is the truth, so a button works the same after a restart.
Scheme ``sb1`` (never reuse a prefix; parse old versions here when it changes):

- a roll's message: ``sb1:<will|beat|retry|again|save>:<roll id>``;
- an extended action's card: ``sb1:ext:<choice>:<action id>:<version>``;
- an extended roll's message: ``sb1:extroll:<will|beat>:<roll id>``;
- the Take a Condition form: ``sb1:extcond:<action id>:<version>``;
- a teamwork card: ``sb1:team:<help|roll|cancel>:<action id>:<version>``;
- a teamwork helper's roll: ``sb1:helproll:<will|beat>:<roll id>``;
- a contest's Roll to resist: ``sb1:resist:<action id>``;
- the pool form: ``sb1:form:<help|resist>:<action id>``;
- an initiative card: ``sb1:init:<join|next|delay|act|end>:<tracker id>:<turn>`` (the
  tracker's turn marker when the card was drawn, in the version's place).
- a character's confirmation: ``sb1:char:delete:<character id>:<version>``;
- the Save this roll form: ``sb1:saveas:<roll id>``.

The card's version is the action's version when the card was drawn, so a
press on a card the action has moved past is recognised. Keys are bounded to
the database's integer range: anything else is not ours (:func:`parse` answers
None) and the press is answered as a stale button. No discord import: render
draws buttons from these builders, edge routes presses through :func:`parse`.
"""

from __future__ import annotations

import re
from enum import StrEnum
from typing import Final, NamedTuple

PREFIX: Final = "sb1"
"""Version of the custom_id scheme."""

MAX_KEY: Final = 2**63 - 1
"""The largest row id either database stores (a signed 64-bit integer)."""

MAX_VERSION: Final = 2**31 - 1

TEMPLATE: Final = rf"{PREFIX}:[a-z]+(?::[a-z_]+)?(?::[0-9]{{1,19}}){{1,2}}"
"""The shape of every custom_id of ours (what discord.py routes to our buttons)."""


class Kind(StrEnum):
    """What a custom_id belongs to."""

    ROLL = "roll"
    EXTENDED_CARD = "ext"
    EXTENDED_ROLL = "extroll"
    CONDITION_FORM = "extcond"
    TEAMWORK_CARD = "team"
    HELPER_ROLL = "helproll"
    RESIST = "resist"
    POOL_FORM = "form"
    INITIATIVE_CARD = "init"
    CHARACTER = "char"
    SAVE_FORM = "saveas"


class Press(NamedTuple):
    """A parsed custom_id: its kind, the action asked for (if any), the key and version."""

    kind: Kind
    action: str
    key: int
    version: int | None = None


#: kind → (actions it accepts (empty: none), whether it carries a version).
_SHAPES: Final[dict[Kind, tuple[frozenset[str], bool]]] = {
    Kind.ROLL: (frozenset({"will", "beat", "retry", "again", "save"}), False),
    Kind.EXTENDED_CARD: (
        frozenset({"roll", "take_condition", "lose_progress", "abandon", "reduce_required",
                   "shorten_interval", "exceptional_result", "start_over", "waive"}),
        True,
    ),
    Kind.EXTENDED_ROLL: (frozenset({"will", "beat"}), False),
    Kind.CONDITION_FORM: (frozenset(), True),
    Kind.TEAMWORK_CARD: (frozenset({"help", "roll", "cancel"}), True),
    Kind.HELPER_ROLL: (frozenset({"will", "beat"}), False),
    Kind.RESIST: (frozenset(), False),
    Kind.POOL_FORM: (frozenset({"help", "resist"}), False),
    Kind.INITIATIVE_CARD: (frozenset({"join", "next", "delay", "act", "end"}), True),
    Kind.CHARACTER: (frozenset({"delete"}), True),
    Kind.SAVE_FORM: (frozenset(), False),
}

_NUMBER: Final = re.compile(r"[0-9]{1,19}")
_WORD: Final = re.compile(r"[a-z_]{1,20}")
_ROLL_ACTIONS: Final = _SHAPES[Kind.ROLL][0]


def _key(text: str, limit: int) -> int | None:
    if not _NUMBER.fullmatch(text):
        return None
    value = int(text)
    return value if 1 <= value <= limit else None


def parse(custom_id: str) -> Press | None:
    """The press a custom_id of ours stands for; None for anything else (another bot's id,
    a forged one, a key out of the database's range, an action that does not exist)."""
    parts = custom_id.split(":")
    if len(parts) < 3 or parts[0] != PREFIX:
        return None
    rest = parts[1:]
    if rest[0] in _ROLL_ACTIONS:  # sb1:<action>:<roll id>: the roll's own buttons
        kind, action, rest = Kind.ROLL, rest[0], rest[1:]
    else:
        try:
            kind = Kind(rest[0])
        except ValueError:
            return None
        actions, _ = _SHAPES[kind]
        rest = rest[1:]
        action = ""
        if actions:
            if not rest or rest[0] not in actions:
                return None
            action, rest = rest[0], rest[1:]
    versioned = _SHAPES[kind][1]
    if len(rest) != (2 if versioned else 1):
        return None
    key = _key(rest[0], MAX_KEY)
    version = _key(rest[1], MAX_VERSION) if versioned else None
    if key is None or (versioned and version is None):
        return None
    return Press(kind, action, key, version)


def format_id(press: Press) -> str:
    """The custom_id of a press (the inverse of :func:`parse`)."""
    if press.kind is Kind.ROLL:
        parts = [PREFIX, press.action, str(press.key)]
    else:
        parts = [PREFIX, press.kind.value, *([press.action] if press.action else []),
                 str(press.key)]
    if press.version is not None:
        parts.append(str(press.version))
    return ":".join(parts)


def roll_button(action: str, roll_id: int) -> str:
    """Spend Will, Take a Beat, Try again, Roll again or Save this roll on a roll's
    message."""
    return format_id(Press(Kind.ROLL, action, roll_id))


def extended_button(choice: str, action_id: int, version: int) -> str:
    """A choice on an extended action's card drawn at ``version``."""
    return format_id(Press(Kind.EXTENDED_CARD, choice, action_id, version))


def extended_roll_button(action: str, roll_id: int) -> str:
    """Spend Will or Take a Beat on an extended action's roll."""
    return format_id(Press(Kind.EXTENDED_ROLL, action, roll_id))


def condition_form(action_id: int, version: int) -> str:
    """The Take a Condition form of an extended action at ``version``."""
    return format_id(Press(Kind.CONDITION_FORM, "", action_id, version))


def teamwork_button(action: str, action_id: int, version: int) -> str:
    """Help, Roll or Cancel on a teamwork card drawn at ``version``."""
    return format_id(Press(Kind.TEAMWORK_CARD, action, action_id, version))


def helper_roll_button(action: str, roll_id: int) -> str:
    """Spend Will or Take a Beat on a teamwork helper's roll."""
    return format_id(Press(Kind.HELPER_ROLL, action, roll_id))


def resist_button(action_id: int) -> str:
    """Roll to resist, on a contest waiting for its opponent."""
    return format_id(Press(Kind.RESIST, "", action_id))


def pool_form(purpose: str, action_id: int) -> str:
    """The pool form (a teamwork helper's, a contest opponent's)."""
    return format_id(Press(Kind.POOL_FORM, purpose, action_id))


def initiative_button(action: str, tracker_id: int, turn: int) -> str:
    """Join, Next, Delay, Act now or End on an initiative card drawn at ``turn``."""
    return format_id(Press(Kind.INITIATIVE_CARD, action, tracker_id, turn))
def character_button(action: str, character_id: int, version: int) -> str:
    """A confirmation about a character, drawn when the sheet was at ``version``."""
    return format_id(Press(Kind.CHARACTER, action, character_id, version))


def save_form(roll_id: int) -> str:
    """The Save this roll form of a roll (the name to save it under)."""
    return format_id(Press(Kind.SAVE_FORM, "", roll_id))
