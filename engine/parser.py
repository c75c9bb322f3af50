"""Pool expressions: the text a player types after ``pool:``, as engine terms.

``Manipulation 4 + Subterfuge 3 + 1 - 2`` becomes four terms (:class:`Term`). Words
label the number that follows them; square brackets group terms, and a minus
before a bracket negates every term inside. Whitespace is optional anywhere.

Grammar (tokens are numbers, words, ``+``, ``-``, ``[`` and ``]``)::

    pool  := sign? term (sign term)*
    term  := word* NUMBER | "[" pool "]"
    sign  := "+" | "-"

Every refusal is a :class:`PoolSyntaxError` carrying a :class:`Refusal`: a
``POOL_*`` code, the bits of text it quotes and the ``position`` where the
problem is. The bot words it (``bot/render/refusals.py``).
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from enum import Enum, auto
from typing import Final, NoReturn

from engine.constants import MAX_POOL
from engine.models import Term
from engine.refusals import Refusal, RefusalCode
from engine.text import BLANKS

__all__ = [
    "MAX_DEPTH",
    "MAX_LABEL",
    "MAX_TERMS",
    "MAX_TEXT",
    "NamedPart",
    "PoolSyntaxError",
    "format_pool",
    "parse_pool",
    "parse_pool_names",
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

_C = RefusalCode


class PoolSyntaxError(ValueError):
    """A pool text that cannot be rolled; ``refusal`` says why, and the bot words it.

    ``position`` is the 0-based index in the text of the offending bit (also the
    refusal's ``position`` parameter). ``str(error)`` is the refusal's code, for logs.
    """

    def __init__(self, code: RefusalCode, position: int, **params: int | str) -> None:
        self.refusal = Refusal(code=code, params={"position": position, **params})
        self.position = position
        super().__init__(self.refusal)

    def __str__(self) -> str:
        return self.refusal.code.value


@dataclass(frozen=True, slots=True)
class NamedPart:
    """One term of a pool that may name traits: ``value`` is None for a bare name
    (``Wits``), to be looked up on a character sheet; ``negative`` for ``- Wits``."""

    label: str | None
    value: int | None
    negative: bool = False


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


def _letter(char: str) -> bool:
    """A letter a word may hold: any but :data:`engine.text.BLANKS`, the Hangul fillers
    Unicode counts as letters, which show nothing. **Decision**: one in a pool is a stray
    character, refused naming it (``Wits + `` and a filler named a trait no one sees)."""
    return char.isalpha() and char not in BLANKS


def _continues_word(char: str) -> bool:
    """Letters, combining marks (decomposed accents, Indic vowel signs) and apostrophes."""
    return _letter(char) or char in _APOSTROPHES or unicodedata.category(char).startswith("M")


def _word_end(text: str, start: int) -> int:
    """End of the word starting with the letter at ``start``.

    A hyphen belongs to the word only between a word character and a letter
    (``Self-Control``); anywhere else it is a minus (``Strength 3-1``).
    """
    end = start + 1
    while end < len(text):
        if _continues_word(text[end]):
            end += 1
        elif text[end] == "-" and end + 1 < len(text) and _letter(text[end + 1]):
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
        elif _letter(char):
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


class _Parser:
    """Recursive descent over the tokens, flattening brackets as it goes."""

    def __init__(self, text: str, *, capped: bool = True, names: bool = False) -> None:
        self._tokens = _tokenize(text)
        self._index = 0
        self._terms: list[tuple[Term, int]] = []
        self._capped = capped
        self._names = names
        #: With ``names``: every part in order, bare names included.
        self.parts: list[NamedPart] = []

    def parse(self) -> list[tuple[Term, int]]:
        """Each term with the position where it starts."""
        self._pool(sign=1, depth=0)
        close = self._peek()
        if close.kind is _Kind.CLOSE:
            raise PoolSyntaxError(_C.POOL_UNOPENED_BRACKET, close.start)
        return self._terms

    def _peek(self) -> _Token:
        token = self._tokens[self._index]
        if token.kind is _Kind.STRAY:
            raise PoolSyntaxError(_C.POOL_STRAY_CHARACTER, token.start, char=token.text)
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
                    _C.POOL_TWO_SIGNS, token.start, first=operator.text, second=token.text
                )
            raise PoolSyntaxError(_C.POOL_SIGN_WITHOUT_TERM, operator.start, sign=operator.text)
        elif token.kind is _Kind.END:
            raise PoolSyntaxError(_C.POOL_EMPTY, 0)
        else:
            # Only a "]" can start the whole pool: "[]" is refused by _group.
            raise PoolSyntaxError(_C.POOL_UNOPENED_BRACKET, token.start)

    def _labelled(self, sign: int) -> None:
        first = self._take()
        words = [first.text]
        while self._peek().kind is _Kind.WORD:
            words.append(self._take().text)
        label = " ".join(words)
        if self._peek().kind is not _Kind.NUMBER and not self._names:
            raise PoolSyntaxError(_C.POOL_LABEL_WITHOUT_NUMBER, first.start, label=label)
        if len(label) > MAX_LABEL:
            raise PoolSyntaxError(_C.POOL_LABEL_TOO_LONG, first.start, label=label, max=MAX_LABEL)
        if self._peek().kind is not _Kind.NUMBER:
            if len(self.parts) == MAX_TERMS:
                raise PoolSyntaxError(_C.POOL_TOO_MANY_TERMS, first.start, max=MAX_TERMS)
            self.parts.append(NamedPart(label, None, negative=sign < 0))
            return
        self._add(label, self._take(), sign, first.start)

    def _group(self, sign: int, depth: int) -> None:
        opening = self._take()
        if depth == MAX_DEPTH:
            raise PoolSyntaxError(_C.POOL_TOO_DEEP, opening.start, max=MAX_DEPTH)
        token = self._peek()
        if token.kind is _Kind.CLOSE:
            raise PoolSyntaxError(_C.POOL_EMPTY_BRACKETS, opening.start)
        if token.kind is not _Kind.END:
            self._pool(sign, depth + 1)
        if self._peek().kind is not _Kind.CLOSE:
            raise PoolSyntaxError(_C.POOL_UNCLOSED_BRACKET, opening.start)
        self._take()

    def _add(self, label: str | None, number: _Token, sign: int, start: int) -> None:
        value = int(number.text)
        if self._capped and value > MAX_POOL:
            raise PoolSyntaxError(
                _C.POOL_NUMBER_TOO_LARGE, number.start, number=number.text, max=MAX_POOL
            )
        if len(self._terms) == MAX_TERMS or len(self.parts) == MAX_TERMS:
            raise PoolSyntaxError(_C.POOL_TOO_MANY_TERMS, start, max=MAX_TERMS)
        self._terms.append((Term(label=label, value=sign * value), start))
        if self._names:
            self.parts.append(NamedPart(label, value, negative=sign < 0))

    def _missing_operator(self, token: _Token) -> NoReturn:
        previous = self._tokens[self._index - 1]
        if previous.kind is _Kind.NUMBER and token.kind is _Kind.NUMBER:
            code = _C.POOL_TWO_NUMBERS
        else:
            code = _C.POOL_MISSING_OPERATOR
        raise PoolSyntaxError(code, token.start, previous=previous.text, next=token.text)


#: ``3d10``, ``d10``, ``2d6+1``: the notation of general dice bots, as a whole pool.
_DICE_NOTATION: Final = re.compile(
    r"\s*([0-9]{0,3})\s*[dD]([0-9]{1,3})\s*(?:[+-]\s*[0-9]{1,3}\s*)?"
)
#: ``7 dice``, ``5 d10s``: a number and a word for dice.
_DICE_WORD: Final = re.compile(r"\s*([0-9]{1,3})\s*(?:dice|die|d10s?|dados?)\s*", re.IGNORECASE)


def _refuse_other_notations(text: str) -> None:
    """Refuse, with what to write instead, the shapes newcomers bring from other dice bots.

    ``d10`` would otherwise parse as a trait named "d" with 10 dots: a pool of 10 dice
    that nobody meant.
    """
    if (notation := _DICE_NOTATION.fullmatch(text)) is not None:
        dice = int(notation[1] or "1")
        raise PoolSyntaxError(
            _C.POOL_DICE_NOTATION, 0, written=text.strip(), dice=dice, sides=int(notation[2])
        )
    if (word := _DICE_WORD.fullmatch(text)) is not None:
        raise PoolSyntaxError(_C.POOL_DICE_WORD, 0, written=text.strip(), dice=int(word[1]))


def parse_pool(text: str, *, capped: bool = True) -> tuple[Term, ...]:
    """Parse a pool expression into flat terms, or raise :class:`PoolSyntaxError`.

    The positive terms may add up to at most ``MAX_POOL`` dice: penalties do
    not buy room for more, so ``60 + 50 - 20`` is refused although it nets 90.
    ``capped=False`` leaves out that cap and the cap on each number, for a
    caller that lets :func:`engine.prepare.prepare` refuse a pool that is too
    large, as a refusal with its code (the command line); the length cap stays.
    """
    if len(text) > MAX_TEXT:
        raise PoolSyntaxError(_C.POOL_TEXT_TOO_LONG, MAX_TEXT, length=len(text), max=MAX_TEXT)
    _refuse_other_notations(text)
    placed = _Parser(text, capped=capped).parse()
    if not capped:
        return tuple(term for term, _ in placed)
    dice = 0
    for term, start in placed:
        dice += max(term.value, 0)
        if dice > MAX_POOL:
            total = sum(max(other.value, 0) for other, _ in placed)
            raise PoolSyntaxError(_C.POOL_OVER_MAX_DICE, start, total=total, max=MAX_POOL)
    return tuple(term for term, _ in placed)


def parse_pool_names(text: str) -> tuple[NamedPart, ...]:
    """Parse a pool that may name traits without numbers (``Wits + Composure + 1``), or
    raise :class:`PoolSyntaxError`. Numbers are capped as in :func:`parse_pool`; the cap
    on the whole pool waits until the names have values (:func:`engine.prepare.prepare`).
    """
    if len(text) > MAX_TEXT:
        raise PoolSyntaxError(_C.POOL_TEXT_TOO_LONG, MAX_TEXT, length=len(text), max=MAX_TEXT)
    _refuse_other_notations(text)
    parser = _Parser(text, names=True)
    parser.parse()
    return tuple(parser.parts)


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
