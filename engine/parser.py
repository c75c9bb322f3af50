"""Pool expressions: the text a player types after ``pool:``, as engine terms.

``Manipulation 4 + Subterfuge 3 + 1 - 2`` becomes four terms (:class:`Term`). Words
label the number that follows them; square brackets group terms, and a minus
before a bracket negates every term inside. Whitespace is optional anywhere.

Grammar (tokens are numbers, words, ``+``, ``-``, ``[`` and ``]``)::

    pool  := sign? term (sign term)*
    term  := word* NUMBER | "[" pool "]"
    sign  := "+" | "-"

Every refusal is a :class:`PoolSyntaxError` whose message can be shown to the
player as is: it says what is wrong and quotes where.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, auto
from typing import Final, NoReturn

from engine.constants import MAX_POOL
from engine.models import Term

__all__ = [
    "MAX_DEPTH",
    "MAX_LABEL",
    "MAX_TERMS",
    "MAX_TEXT",
    "PoolSyntaxError",
    "format_pool",
    "parse_pool",
]

#: Longest pool text accepted, in characters.
MAX_TEXT: Final = 200
#: Most terms in one pool, after brackets are flattened.
MAX_TERMS: Final = 20
#: Longest label, in characters (words joined by single spaces).
MAX_LABEL: Final = 40
#: Deepest bracket nesting: ``[[[1]]]`` is the limit.
MAX_DEPTH: Final = 3

#: Players paste a Unicode minus or an en dash from documents and character sheets.
_MINUS: Final = frozenset("-\u2212\u2013")
_APOSTROPHES: Final = frozenset("'\u2019")
#: Characters Discord reads as markdown or mentions: named, never echoed, in messages.
_MARKUP: Final = frozenset("*_`~|\\<>@")


class PoolSyntaxError(ValueError):
    """A pool text that cannot be rolled.

    ``str(error)`` is a plain sentence for the player; ``position`` is the
    0-based index in the text of the offending bit.
    """

    def __init__(self, message: str, position: int) -> None:
        super().__init__(message)
        self.position = position


class _Kind(Enum):
    NUMBER = auto()
    WORD = auto()
    PLUS = auto()
    MINUS = auto()
    OPEN = auto()
    CLOSE = auto()
    STRAY = auto()
    END = auto()


_SIGNS: Final = frozenset({_Kind.PLUS, _Kind.MINUS})


@dataclass(frozen=True, slots=True)
class _Token:
    kind: _Kind
    text: str
    start: int


def _continues_word(char: str) -> bool:
    """Letters, combining marks (decomposed accents, Indic vowel signs) and apostrophes."""
    return char.isalpha() or char in _APOSTROPHES or unicodedata.category(char).startswith("M")


def _word_end(text: str, start: int) -> int:
    """End of the word starting with the letter at ``start``.

    A hyphen belongs to the word only between a word character and a letter
    (``Self-Control``); anywhere else it is a minus (``Strength 3-1``).
    """
    end = start + 1
    while end < len(text):
        if _continues_word(text[end]):
            end += 1
        elif text[end] == "-" and end + 1 < len(text) and text[end + 1].isalpha():
            end += 2
        else:
            break
    return end


def _tokenize(text: str) -> list[_Token]:
    """Split ``text`` into tokens, ending with ``END``.

    A character that belongs to no token becomes a ``STRAY`` token instead of
    an error, so the parser reports problems in reading order.
    """
    tokens: list[_Token] = []
    index = 0
    while index < len(text):
        char = text[index]
        if char.isspace():
            index += 1
            continue
        if char.isascii() and char.isdigit():
            end = index + 1
            while end < len(text) and text[end].isascii() and text[end].isdigit():
                end += 1
            kind = _Kind.NUMBER
        elif char.isalpha():
            end = _word_end(text, index)
            kind = _Kind.WORD
        else:
            end = index + 1
            if char == "+":
                kind = _Kind.PLUS
            elif char in _MINUS:
                kind = _Kind.MINUS
            elif char == "[":
                kind = _Kind.OPEN
            elif char == "]":
                kind = _Kind.CLOSE
            else:
                kind = _Kind.STRAY
        tokens.append(_Token(kind, text[index:end], index))
        index = end
    tokens.append(_Token(_Kind.END, "", len(text)))
    return tokens


def _show(char: str) -> str:
    """Quote a stray character, or name it if it is invisible or Discord markup.

    Invisible characters (zero-width space, bidi marks) come with pasted text
    and would otherwise show as an empty quote.
    """
    if char.isprintable() and char not in _MARKUP:
        return f"“{char}”"
    name = unicodedata.name(char, "")
    return f"the character U+{ord(char):04X}" + (f" ({name})" if name else "")


class _Parser:
    """Recursive descent over the tokens, flattening brackets as it goes."""

    def __init__(self, text: str, *, capped: bool = True) -> None:
        self._tokens = _tokenize(text)
        self._index = 0
        self._terms: list[tuple[Term, int]] = []
        self._capped = capped

    def parse(self) -> list[tuple[Term, int]]:
        """Each term with the position where it starts."""
        self._pool(sign=1, depth=0)
        close = self._peek()
        if close.kind is _Kind.CLOSE:
            raise PoolSyntaxError(
                "“]” closes a bracket that was never opened: remove it or add a “[” before it.",
                close.start,
            )
        return self._terms

    def _peek(self) -> _Token:
        token = self._tokens[self._index]
        if token.kind is _Kind.STRAY:
            raise PoolSyntaxError(
                f"A pool cannot contain {_show(token.text)}: "
                "use numbers, trait names, +, - and [ ].",
                token.start,
            )
        return token

    def _take(self) -> _Token:
        token = self._peek()
        self._index += 1
        return token

    def _pool(self, sign: int, depth: int) -> None:
        """Terms up to the end of the text or a closing bracket, every value times ``sign``."""
        operator = self._take() if self._peek().kind in _SIGNS else None
        self._term(sign, depth, operator)
        while True:
            token = self._peek()
            if token.kind in {_Kind.END, _Kind.CLOSE}:
                return
            if token.kind not in _SIGNS:
                self._missing_operator(token)
            self._term(sign, depth, self._take())

    def _term(self, sign: int, depth: int, operator: _Token | None) -> None:
        if operator is not None and operator.kind is _Kind.MINUS:
            sign = -sign
        token = self._peek()
        if token.kind is _Kind.NUMBER:
            self._add(None, self._take(), sign, token.start)
        elif token.kind is _Kind.WORD:
            self._labelled(sign)
        elif token.kind is _Kind.OPEN:
            self._group(sign, depth)
        elif operator is not None:
            if token.kind in _SIGNS:
                raise PoolSyntaxError(
                    f"“{operator.text} {token.text}” has two signs in a row: keep only one.",
                    token.start,
                )
            raise PoolSyntaxError(
                f"“{operator.text}” needs a number or a trait and its number after it.",
                operator.start,
            )
        elif token.kind is _Kind.END:
            raise PoolSyntaxError(
                "The pool is empty: write a number of dice, such as “7” or “Strength 3 + Brawl 2”.",
                0,
            )
        else:
            # Only a "]" can start the whole pool: "[]" is refused by _group.
            raise PoolSyntaxError(
                "“]” closes a bracket that was never opened: remove it or add a “[” before it.",
                token.start,
            )

    def _labelled(self, sign: int) -> None:
        first = self._take()
        words = [first.text]
        while self._peek().kind is _Kind.WORD:
            words.append(self._take().text)
        label = " ".join(words)
        if self._peek().kind is not _Kind.NUMBER:
            raise PoolSyntaxError(
                f"“{label}” has no number: write it as “{label} 3” "
                "(character sheets are not supported yet).",
                first.start,
            )
        if len(label) > MAX_LABEL:
            raise PoolSyntaxError(
                f"“{label}” is too long for a trait name: at most {MAX_LABEL} characters.",
                first.start,
            )
        self._add(label, self._take(), sign, first.start)

    def _group(self, sign: int, depth: int) -> None:
        opening = self._take()
        if depth == MAX_DEPTH:
            raise PoolSyntaxError(
                f"“[” is nested too deep: brackets can go at most {MAX_DEPTH} levels deep.",
                opening.start,
            )
        token = self._peek()
        if token.kind is _Kind.CLOSE:
            raise PoolSyntaxError(
                "“[]” is empty: put terms inside the brackets or remove them.",
                opening.start,
            )
        if token.kind is not _Kind.END:
            self._pool(sign, depth + 1)
        if self._peek().kind is not _Kind.CLOSE:
            raise PoolSyntaxError(
                "“[” is never closed: add a “]” after the terms it groups.", opening.start
            )
        self._take()

    def _add(self, label: str | None, number: _Token, sign: int, start: int) -> None:
        value = int(number.text)
        if self._capped and value > MAX_POOL:
            raise PoolSyntaxError(
                f"“{number.text}” is too large: a number can be at most {MAX_POOL}.",
                number.start,
            )
        if len(self._terms) == MAX_TERMS:
            raise PoolSyntaxError(
                f"The pool has more than {MAX_TERMS} terms: add some of the numbers together.",
                start,
            )
        self._terms.append((Term(label=label, value=sign * value), start))

    def _missing_operator(self, token: _Token) -> NoReturn:
        previous = self._tokens[self._index - 1]
        if previous.kind is _Kind.NUMBER and token.kind is _Kind.NUMBER:
            message = "Two numbers in a row: put + or - between"
        else:
            message = "Missing + or - between"
        raise PoolSyntaxError(f"{message} “{previous.text}” and “{token.text}”.", token.start)


def parse_pool(text: str, *, capped: bool = True) -> tuple[Term, ...]:
    """Parse a pool expression into flat terms, or raise :class:`PoolSyntaxError`.

    The positive terms may add up to at most ``MAX_POOL`` dice: penalties do
    not buy room for more, so ``60 + 50 - 20`` is refused although it nets 90.
    ``capped=False`` leaves out that cap and the cap on each number, for a
    caller that lets :func:`engine.prepare.prepare` refuse a pool that is too
    large, as a refusal with its code (the command line); the length cap stays.
    """
    if len(text) > MAX_TEXT:
        raise PoolSyntaxError(
            f"The pool is {len(text)} characters long: at most {MAX_TEXT} are allowed.",
            MAX_TEXT,
        )
    placed = _Parser(text, capped=capped).parse()
    if not capped:
        return tuple(term for term, _ in placed)
    dice = 0
    for term, start in placed:
        dice += max(term.value, 0)
        if dice > MAX_POOL:
            total = sum(max(other.value, 0) for other, _ in placed)
            raise PoolSyntaxError(
                f"The pool is over {MAX_POOL} dice: its terms add up to {total} "
                f"before penalties, and at most {MAX_POOL} dice can be rolled.",
                start,
            )
    return tuple(term for term, _ in placed)


def format_pool(terms: Iterable[Term]) -> str:
    """Render terms as a canonical expression: ``Strength 3 + Brawl 2 - 1``.

    ``parse_pool(format_pool(terms)) == tuple(terms)`` for terms that
    :func:`parse_pool` can return, as long as the rendering fits in
    ``MAX_TEXT`` (it can be longer than a compact text it came from).
    """
    parts: list[str] = []
    for term in terms:
        body = str(abs(term.value)) if term.label is None else f"{term.label} {abs(term.value)}"
        if not parts:
            parts.append(f"-{body}" if term.value < 0 else body)
        else:
            parts.append(f"{'-' if term.value < 0 else '+'} {body}")
    return " ".join(parts)
