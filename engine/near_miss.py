"""Which known trait a new trait's name may have been meant as (``/character set
trait:Strenght`` beside a Strength): custom traits are allowed, so the name is added,
and the confirmation names the trait it is a near miss of (bot.render.characters).

**Decision** (the closeness rule): both names folded as trait names match (case,
spaces, accents, hyphens and apostrophes aside), the typed name is a near miss of a
known one one edit away (a letter added, dropped or changed, or two side by side
swapped) when the shorter of the two has 5 letters or more (``Strenght``, ``Defence``,
``Stamna``), two edits when it has 8 or more (``Inteligance``, ``Dextirity``); never for
shorter names, where one letter makes another word (``Luck`` beside a ``Lock``). Known
traits are the sheet's (custom ones too), its template's (on the sheet or not) and its
derived ones, by their own names and by their names in the bot's other languages
(``Forsa``: Força, Strength). When two traits are as close, no guess is made.
"""

from __future__ import annotations

from typing import Final

from engine.characters import Character, fold, template
from engine.trait_names import LOCALISED

#: The fewest letters (of the shorter name) for one edit, and for two, to be a near miss.
_ONE_EDIT: Final = 5
_TWO_EDITS: Final = 8


def distance(one: str, other: str) -> int:
    """The edits (a letter added, dropped or changed, or two side by side swapped) that
    make ``one`` into ``other``: the optimal string alignment distance."""
    rows = [list(range(len(other) + 1))]
    for i, a in enumerate(one, 1):
        above, row = rows[-1], [i]
        for j, b in enumerate(other, 1):
            edits = min(above[j] + 1, row[j - 1] + 1, above[j - 1] + (a != b))
            if i > 1 and j > 1 and a == other[j - 2] and one[i - 2] == b:
                edits = min(edits, rows[-2][j - 2] + 1)
            row.append(edits)
        rows.append(row)
    return rows[-1][-1]


def _allowed(typed: str, known: str) -> int:
    """The edits by which ``typed`` may miss ``known`` (both folded): 0, 1 or 2."""
    shorter = min(len(typed), len(known))
    return 2 if shorter >= _TWO_EDITS else 1 if shorter >= _ONE_EDIT else 0


def near_miss(sheet: Character, name: str) -> str | None:
    """The known trait (see the module's rule) ``name``, a name the sheet has no trait of,
    may have been meant as, by that trait's own name (English for a template's: render
    shows it in the table's language); None when none is close, or two are as close."""
    typed = fold(name)
    own: dict[str, str] = {}
    for known in (*(n for n, _value in sheet.entries()),
                  *(t.name for t in template(sheet.template))):
        own.setdefault(fold(known), known)
    names = dict(own)
    for localised in LOCALISED.values():
        for english, spelled in localised.items():
            shown = own.get(fold(english))
            if shown is not None:
                names.setdefault(fold(spelled), shown)
    if typed in names:  # a known trait's name (set_traits changes that trait)
        return None
    close = [(edits, shown) for key, shown in names.items()
             if abs(len(typed) - len(key)) <= (allowed := _allowed(typed, key))
             and (edits := distance(typed, key)) <= allowed]
    if not close:
        return None
    best = min(edits for edits, _shown in close)
    meant = {shown for edits, shown in close if edits == best}
    return meant.pop() if len(meant) == 1 else None
