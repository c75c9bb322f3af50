"""Dice statistics: counters kept with every roll, read by /stats in a few rows.

The roll repository calls :meth:`StatsRepository.counted`, :meth:`reread` and
:meth:`uncounted` inside the transaction that stores the roll, re-reads it (Will,
Beat) or voids it, so the counters always equal a recount of the log (a property
test checks it) and the roll path makes no extra trip. Layout and levels:
migrations/0003_stats.sql.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from datetime import date

from bot.store.repository import Repository
from engine.constants import SIDES
from engine.models import Outcome, RollResult, Ruleset
from engine.records import RollRecord, WillState
from engine.stats import ROLLED_OUTCOMES, LoggedRoll, Part, Sample, ShapeCount, Tally, shape_of

#: The most rolls one export lists (the newest): a CSV Discord accepts as an attachment.
MAX_EXPORT = 20_000

_EPOCH = date(1970, 1, 1).toordinal()
_OUTCOME_COLUMNS = ", ".join(outcome.value for outcome in ROLLED_OUTCOMES)
_FACE_COLUMNS = ", ".join(f"f{face}" for face in range(1, SIDES + 1))
_KEY = "guild_id, channel_id, roller_id, span, bucket, private, ruleset"
_TALLY_VALUES = f"rolls, dice, will_spent, {_OUTCOME_COLUMNS}, {_FACE_COLUMNS}"
_SHAPE_VALUES = f"rolls, {_OUTCOME_COLUMNS}"


def _upsert(table: str, key: str, values: str) -> str:
    names = [name.strip() for name in values.split(",")]
    marks = ", ".join("?" * (key.count(",") + 1 + len(names)))
    added = ", ".join(f"{name} = {name} + excluded.{name}" for name in names)
    # Built once from the constants above: no outside text reaches the SQL.
    return (f"INSERT INTO {table} ({key}, {values}) VALUES ({marks})"  # noqa: S608
            f" ON CONFLICT ({key}) DO UPDATE SET {added}")


_SUM_TALLY = ", ".join(f"sum({name})" for name in _TALLY_VALUES.split(", "))
_SUM_SHAPE = ", ".join(f"sum({name})" for name in _SHAPE_VALUES.split(", "))
_ADD_TALLY = _upsert("stat_tally", _KEY, _TALLY_VALUES)
_ADD_SHAPE = _upsert("stat_shapes", _KEY + ", shape", _SHAPE_VALUES)


def day_number(day: date) -> int:
    """A day's bucket: days since 1970-01-01."""
    return day.toordinal() - _EPOCH


def month_number(day: date) -> int:
    """A day's month bucket: year × 12 + month − 1."""
    return day.year * 12 + day.month - 1


def _outcomes(outcome: Outcome, sign: int) -> list[int]:
    return [sign if each is outcome else 0 for each in ROLLED_OUTCOMES]


def _will(state: WillState) -> int:
    """1 when Will went into the roll (declared up front or spent afterwards)."""
    return int(state in {WillState.DECLARED, WillState.SPENT})


def _faces(result: RollResult) -> list[int]:
    faces = [0] * SIDES
    for die in result.dice:
        faces[die[0] - 1] += 1
    return faces


class StatsRepository(Repository):
    """The counters behind /stats, and the log as /stats export lists it."""

    # --- kept with every roll ---------------------------------------------------------------

    def _keys(self, roll: RollRecord) -> list[tuple[object, ...]]:
        """The roll's rows at every level and time bucket (migrations/0003_stats.sql)."""
        day = roll.created_at.date()
        ruleset = roll.request.ruleset.value
        keys: list[tuple[object, ...]] = []
        for channel in (roll.channel_id, 0):
            for roller in (roll.roller_id, 0):
                keys.append((roll.guild_id, channel, roller, "all", 0, roll.private, ruleset))
                keys.append((roll.guild_id, channel, roller, "day", day_number(day),
                             roll.private, ruleset))
                keys.append((roll.guild_id, channel, roller, "month", month_number(day),
                             roll.private, ruleset))
        return keys

    def _tally(self, roll: RollRecord, values: Sequence[int]) -> None:
        self._conn.executemany(_ADD_TALLY, [(*key, *values) for key in self._keys(roll)])

    def _shape(self, roll: RollRecord, first: Outcome, sign: int) -> None:
        shape = shape_of(roll.request)
        values = (sign, *_outcomes(first, sign))
        self._conn.executemany(
            _ADD_SHAPE, [(*key, shape, *values) for key in self._keys(roll)]
        )

    def counted(self, roll: RollRecord) -> None:
        """A new roll: counted at every level, its request shape with its outcome."""
        result = roll.result
        self._tally(roll, (1, len(result.dice), _will(roll.will_state),
                           *_outcomes(result.outcome, 1), *_faces(result)))
        self._shape(roll, result.outcome, 1)

    def reread(self, before: RollResult, will_before: WillState, roll: RollRecord) -> None:
        """A roll re-read (Will spent afterwards, a Beat): the counters move from the reading
        ``before`` to the roll's new one, and its first reading is kept for a later void."""
        after = roll.result
        spent = _will(roll.will_state) - _will(will_before)
        outcome = [a - b for a, b in zip(_outcomes(after.outcome, 1),
                                         _outcomes(before.outcome, 1), strict=True)]
        faces = [a - b for a, b in zip(_faces(after), _faces(before), strict=True)]
        self._tally(roll, (0, len(after.dice) - len(before.dice), spent, *outcome, *faces))
        self._run("INSERT OR IGNORE INTO stat_first (roll_id, outcome) VALUES (?, ?)",
                  (roll.id, before.outcome.value))

    def uncounted(self, roll: RollRecord) -> None:
        """A voided roll: taken out of every counter it is in."""
        result = roll.result
        self._tally(roll, (-1, -len(result.dice), -_will(roll.will_state),
                           *_outcomes(result.outcome, -1), *(-n for n in _faces(result))))
        row = self._one("SELECT outcome FROM stat_first WHERE roll_id = ?", (roll.id,))
        if row is None:
            self._shape(roll, result.outcome, -1)
        elif row["outcome"] is not None:
            self._shape(roll, Outcome(row["outcome"]), -1)

    # --- read by /stats ---------------------------------------------------------------------

    def samples(
        self,
        guild_id: int,
        parts: Sequence[Part],
        *,
        since: date | None = None,
        ruleset: Ruleset | None = None,
    ) -> list[Sample]:
        """Each ruleset's counters over ``parts`` (engine.stats.parts), from ``since`` on.

        Without ``since``, the all-time rows; with it, whole months after ``since``'s month
        and the days of that month from ``since`` on. A few rows per part (and per request
        shape), however long the log.
        """
        tallies: dict[str, list[int]] = {}
        shapes: dict[tuple[str, str], list[int]] = {}
        for part in parts:
            where, params = self._where(guild_id, part, since, ruleset)
            for row in self._all(
                f"SELECT ruleset, {_SUM_TALLY} FROM stat_tally"  # noqa: S608 - constants only
                f" WHERE {where} GROUP BY ruleset",
                params,
            ):
                into = tallies.setdefault(row[0], [0] * (len(row) - 1))
                for i, value in enumerate(row[1:]):
                    into[i] += value
            for row in self._all(
                f"SELECT ruleset, shape, {_SUM_SHAPE} FROM stat_shapes"  # noqa: S608 - constants only
                f" WHERE {where} GROUP BY ruleset, shape",
                params,
            ):
                into = shapes.setdefault((row[0], row[1]), [0] * (len(row) - 2))
                for i, value in enumerate(row[2:]):
                    into[i] += value
        samples = []
        outcomes = len(ROLLED_OUTCOMES)
        for name in sorted(tallies, key=lambda name: list(Ruleset).index(Ruleset(name))):
            values = tallies[name]
            if values[0] <= 0:
                continue
            tally = Tally(
                rolls=values[0], dice=values[1], will_spent=values[2],
                outcomes=dict(zip(ROLLED_OUTCOMES, values[3:3 + outcomes], strict=True)),
                faces=tuple(values[3 + outcomes:]),
            )
            counted = tuple(
                ShapeCount(shape=shape, rolls=counts[0],
                           outcomes=dict(zip(ROLLED_OUTCOMES, counts[1:], strict=True)))
                for (of, shape), counts in sorted(shapes.items())
                if of == name and counts[0] > 0
            )
            samples.append(Sample(ruleset=Ruleset(name), tally=tally, shapes=counted))
        return samples

    @staticmethod
    def _where(
        guild_id: int, part: Part, since: date | None, ruleset: Ruleset | None
    ) -> tuple[str, list[object]]:
        privates = ", ".join("?" * len(part.private))
        where = f"guild_id = ? AND channel_id = ? AND roller_id = ? AND private IN ({privates})"
        params: list[object] = [guild_id, part.channel_id, part.roller_id, *part.private]
        if ruleset is not None:
            where += " AND ruleset = ?"
            params.append(ruleset.value)
        if since is None:
            return where + " AND span = 'all'", params
        month = month_number(since)
        next_month = date((month + 1) // 12, (month + 1) % 12 + 1, 1)
        where += (" AND ((span = 'month' AND bucket > ?)"
                  " OR (span = 'day' AND bucket >= ? AND bucket < ?))")
        params += [month, day_number(since), day_number(next_month)]
        return where, params

    # --- /stats export ----------------------------------------------------------------------

    def log(
        self,
        guild_id: int,
        channel_id: int,
        *,
        roller_id: int | None,
        since: date | None = None,
        ruleset: Ruleset | None = None,
        limit: int = MAX_EXPORT,
    ) -> list[LoggedRoll]:
        """A channel's rolls (one roller's, when given), newest first, at most ``limit``;
        secret and void ones included (the caller decides who may see them)."""
        day = None if since is None else since.isoformat()
        kept = None if ruleset is None else ruleset.value
        rows = self._all(
            "SELECT id, created_at, roller_id, roller_name, label, private, void, beat,"
            " will_state, json_extract(request_json, '$.ruleset') AS ruleset,"
            " coalesce(json_extract(result_json, '$.breakdown.dice'), 0) AS dice,"
            " json_extract(result_json, '$.outcome') AS outcome,"
            " json_extract(result_json, '$.successes') AS successes,"
            " (SELECT coalesce(group_concat(json_extract(d.value, '$[0]'), ' '), '')"
            "  FROM json_each(result_json, '$.dice') AS d) AS faces"
            " FROM rolls WHERE guild_id = ? AND channel_id = ?"
            " AND (? IS NULL OR roller_id = ?) AND (? IS NULL OR created_at >= ?)"
            " AND (? IS NULL OR json_extract(request_json, '$.ruleset') = ?)"
            " ORDER BY id DESC LIMIT ?",
            (
                guild_id, channel_id, roller_id, roller_id,
                day, day, kept, kept, limit,
            ),
        )
        return [_logged(row) for row in rows]


def _logged(row: sqlite3.Row) -> LoggedRoll:
    return LoggedRoll(
        id=row["id"], created_at=row["created_at"], roller_id=row["roller_id"],
        roller_name=row["roller_name"], ruleset=row["ruleset"], label=row["label"],
        private=row["private"], void=row["void"], dice=row["dice"], outcome=row["outcome"],
        successes=row["successes"], will=row["will_state"], beat=row["beat"],
        faces=row["faces"],
    )
