"""What text shows: the small tests every module that keeps typed text shares.

A character's name, a sheet's text, a label and a pool's words are all read by people
who see only what their font draws. These tests live here, below both
:mod:`engine.parser` and :mod:`engine.characters`: the characters module imports the
parser, so the parser could not import them from there.
"""

from __future__ import annotations

import unicodedata
from typing import Final

__all__ = ["BLANKS", "JOINERS", "shows_something", "visible_line"]

#: The format characters a visible name may hold: the joiners of emoji sequences
#: (``🧙‍♂️``) and of Persian or Indic words (ZWNJ), and the tags of subdivision flags.
#: Every other one is refused with the controls (**Decision**): a zero-width space or
#: a word joiner makes a name that looks like another, a bidirectional override
#: reorders the reply around the name.
JOINERS: Final = frozenset("\u200c\u200d") | frozenset(map(chr, range(0xE0020, 0xE0080)))


#: Characters Unicode counts as letters or symbols that show nothing, drawn as a blank
#: (**Decision**): the Hangul fillers (U+115F, U+1160, U+3164, U+FFA0) and the blank
#: braille pattern (U+2800), the usual way to type a name or a label that looks empty.
#: They count as nothing to see (:func:`shows_something`), and text that must be read
#: (:func:`visible_line`) refuses them as it refuses a zero-width space: beside letters
#: they make text that looks like other text (``Bob`` and ``Bob`` with a filler). A pool
#: refuses them too (:mod:`engine.parser`): a word with one names a trait no one sees.
BLANKS: Final = frozenset("\u115f\u1160\u2800\u3164\uffa0")


def shows_something(text: str) -> bool:
    """Whether ``text`` holds some letter, digit, punctuation or symbol that can be seen:
    not only spaces, format characters (a zero-width space), combining marks or
    :data:`BLANKS`. The one test of "something to see" (a sheet's text, a label)."""
    return any(unicodedata.category(c)[0] in "LNPS" and c not in BLANKS for c in text)


def visible_line(text: str) -> bool:
    """Whether ``text`` is one line someone can read as it is kept: no control characters,
    no format characters but :data:`JOINERS` (a zero-width space, a direction mark or
    override), no :data:`BLANKS`, and something to see (:func:`shows_something`). The one
    test of "safe text": names, sheets' texts and labels."""
    return all(
        (unicodedata.category(c)[0] != "C" or c in JOINERS) and c not in BLANKS for c in text
    ) and shows_something(text)
