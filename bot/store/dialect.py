"""The SQL dialects: the repositories write SQLite's, this turns it into PostgreSQL's.

The repositories hold one text per statement, in SQLite's dialect. Most of it is
portable SQL (``INSERT ... ON CONFLICT``, ``RETURNING``, qualified columns in an
upsert); what differs is mechanical and done here, once per text (cached):

- parameters: ``?`` and ``:name`` become ``$1``, ``$2``, ... (the names' order is
  answered, so a mapping of parameters can be laid out in it);
- the time stamp ``strftime('%Y-%m-%dT%H:%M:%fZ', 'now')`` becomes the same UTC
  ISO-8601 text from ``clock_timestamp()``;
- a set of ids given as one parameter, a JSON array (``IN (SELECT value FROM
  json_each(?))``: the statement's text is the same whatever the count), is read with
  ``json_array_elements_text``;
- text ordered by code point, ``COLLATE BINARY`` (SQLite's own order, written out where a
  statement orders by text: ``ORDER BY name_key COLLATE BINARY``), becomes ``COLLATE "C"``,
  so both stores list names alike whatever the PostgreSQL server's collation (en_US in
  compose.yaml's image, which would put ``łukasz`` beside ``lara``), and as a list sorted
  in Python is (``bot.store.characters.by_name``);
- ``? IS NULL`` (the "any, or only this one" filters) becomes ``$n::text IS NULL``:
  PostgreSQL cannot infer a type for a parameter that is only tested for NULL, and
  :func:`nullness` gives such a parameter as text (its value does not matter, only
  whether it is None).

A statement that cannot be translated this way (SQLite's JSON functions) gives its
PostgreSQL text beside the SQLite one (``Repository._all(..., postgres=...)``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

#: SQLite's UTC ISO-8601 time stamp with milliseconds, as the repositories write it.
SQLITE_NOW = "strftime('%Y-%m-%dT%H:%M:%fZ', 'now')"
#: The same text in PostgreSQL (``clock_timestamp``: the statement's time, as SQLite's).
POSTGRES_NOW = (
    "to_char(clock_timestamp() AT TIME ZONE 'UTC', 'YYYY-MM-DD\"T\"HH24:MI:SS.MS\"Z\"')"
)
#: A set of ids (a JSON array given as one parameter) as rows, in SQLite...
SQLITE_IDS = "SELECT value FROM json_each(?)"
#: ... and in PostgreSQL (ids are BIGINT there).
POSTGRES_IDS = "SELECT CAST(value AS BIGINT) FROM json_array_elements_text(CAST(? AS json))"

#: Text compared by code point, in SQLite (its default, written out where it orders)...
SQLITE_BINARY = "COLLATE BINARY"
#: ... and in PostgreSQL, whatever the database's own collation.
POSTGRES_BINARY = 'COLLATE "C"'

_IS_NULL = re.compile(r"\s+IS\s+NULL\b", re.IGNORECASE)
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


@dataclass(frozen=True, slots=True)
class Translated:
    """A statement in PostgreSQL's dialect and how to lay out its parameters."""

    sql: str
    #: For ``:name`` parameters: the names in ``$n`` order (None: positional ``?``).
    names: tuple[str, ...] | None
    #: Positions (0-based) of parameters only tested for NULL (given as text).
    nullness: frozenset[int]


@lru_cache(maxsize=1024)
def translate(sql: str) -> Translated:
    """``sql`` (SQLite's dialect) in PostgreSQL's. Quoted text and identifiers are kept."""
    sql = (
        sql.replace(SQLITE_NOW, POSTGRES_NOW)
        .replace(SQLITE_IDS, POSTGRES_IDS)
        .replace(SQLITE_BINARY, POSTGRES_BINARY)
    )
    out: list[str] = []
    names: list[str] = []
    positional = 0
    nullness: set[int] = set()
    i = 0
    while i < len(sql):
        char = sql[i]
        if char in "'\"":  # a quoted string or identifier, doubled quotes inside
            end = i + 1
            while end < len(sql):
                if sql[end] == char:
                    if end + 1 < len(sql) and sql[end + 1] == char:
                        end += 2
                        continue
                    break
                end += 1
            out.append(sql[i : end + 1])
            i = end + 1
            continue
        if char == "?":
            index = positional
            positional += 1
            out.append(_parameter(sql, i + 1, index, nullness))
            i += 1
            continue
        if char == ":" and i + 1 < len(sql) and sql[i + 1] == ":":  # a cast
            out.append("::")
            i += 2
            continue
        if char == ":" and (match := _NAME.match(sql, i + 1)):
            name = match.group()
            if name not in names:
                names.append(name)
            out.append(f"${names.index(name) + 1}")
            i = match.end()
            continue
        out.append(char)
        i += 1
    if positional and names:
        msg = "a statement takes ? or :name parameters, not both"
        raise ValueError(msg)
    return Translated("".join(out), tuple(names) if names else None, frozenset(nullness))


def _parameter(sql: str, after: int, index: int, nullness: set[int]) -> str:
    if _IS_NULL.match(sql, after):
        nullness.add(index)
        return f"${index + 1}::text"
    return f"${index + 1}"


def arguments(translated: Translated, params: Any) -> list[Any]:
    """The parameters in ``$n`` order, those only tested for NULL given as text."""
    if translated.names is not None:
        values = [params[name] for name in translated.names]
    else:
        values = list(params)
    for index in translated.nullness:
        values[index] = None if values[index] is None else "-"
    return values
