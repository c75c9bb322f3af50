"""The dice statistics counted again from the log, independently of bot/store/stats.py.

:func:`recount` reads every roll of the database file and builds the rows the
counters should hold; :func:`counters` reads the rows they do hold. Rows whose
numbers are all zero (a voided roll's bucket) are left out of both.
"""

from __future__ import annotations

import sqlite3
from collections import defaultdict
from datetime import date
from pathlib import Path

from engine.models import RollRequest, RollResult, Term

Key = tuple[object, ...]
OUTCOMES = ("dramatic_failure", "failure", "success", "exceptional_success", "botch")


def _connect(path: Path) -> sqlite3.Connection:
    db = sqlite3.connect(path)
    db.row_factory = sqlite3.Row
    return db


def _buckets(created_at: str) -> list[tuple[str, int]]:
    day = date.fromisoformat(created_at[:10])
    return [("all", 0), ("day", (day - date(1970, 1, 1)).days),
            ("month", day.year * 12 + day.month - 1)]


def recount(path: Path) -> tuple[dict[Key, list[int]], dict[Key, list[int]]]:
    """(tally rows, shape rows) as a recount of the log says they should be."""
    tally: dict[Key, list[int]] = defaultdict(lambda: [0] * 18)
    shapes: dict[Key, list[int]] = defaultdict(lambda: [0] * 6)
    with _connect(path) as db:
        first = {row[0]: row[1] for row in db.execute("SELECT roll_id, outcome FROM stat_first")}
        rolls = db.execute("SELECT * FROM rolls WHERE void = 0").fetchall()
    for row in rolls:
        result = RollResult.model_validate_json(row["result_json"])
        request = RollRequest.model_validate_json(row["request_json"])
        shape = request.model_copy(
            update={"terms": (Term(value=sum(t.value for t in request.terms)),)}
        ).model_dump_json()
        known = row["id"] not in first or first[row["id"]] is not None
        outcome = first.get(row["id"], result.outcome.value)
        for channel in (row["channel_id"], 0):
            for roller in (row["roller_id"], 0):
                for span, bucket in _buckets(row["created_at"]):
                    key = (row["guild_id"], channel, roller, span, bucket, row["private"],
                           request.ruleset.value)
                    counts = tally[key]
                    counts[0] += 1
                    counts[1] += len(result.dice)
                    counts[2] += row["will_state"] in {"declared", "spent"}
                    counts[3 + OUTCOMES.index(result.outcome.value)] += 1
                    for die in result.dice:
                        counts[7 + die.face] += 1
                    if known:
                        counted = shapes[(*key, shape)]
                        counted[0] += 1
                        counted[1 + OUTCOMES.index(str(outcome))] += 1
    return _nonzero(tally), _nonzero(shapes)


def counters(path: Path) -> tuple[dict[Key, list[int]], dict[Key, list[int]]]:
    """(tally rows, shape rows) as the counters hold them."""
    with _connect(path) as db:
        tally = {tuple(row)[:7]: list(row)[7:] for row in db.execute("SELECT * FROM stat_tally")}
        shapes = {tuple(row)[:8]: list(row)[8:] for row in db.execute("SELECT * FROM stat_shapes")}
    return _nonzero(tally), _nonzero(shapes)


def _nonzero(rows: dict[Key, list[int]]) -> dict[Key, list[int]]:
    return {key: values for key, values in rows.items() if any(values)}
