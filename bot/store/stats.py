"""Dice statistics: counters kept with every roll, read by /stats in a few rows.

The roll repository calls :meth:`StatsRepository.counted`, :meth:`reread` and
:meth:`uncounted` inside the transaction that stores the roll, re-reads it (Will,
Beat) or voids it, so the counters always equal a recount of the log (a property
test checks it) and the roll path makes no extra trip. Layout and levels:
migrations/0003_stats.sql.
"""

from __future__ import annotations

import json
import sqlite3
from calendar import monthrange
from collections.abc import Sequence
from datetime import date
from itertools import product
from typing import Any

from bot.store.dialect import SQLITE_IDS
from bot.store.repository import Query, Repository, Viewer
from engine.constants import SIDES
from engine.models import Outcome, RollResult, Ruleset
from engine.records import RollRecord, WillState
from engine.stats import LoggedRoll, Part, Sample, ShapeCount, Tally, shape_of

#: The most rolls one export reads (the newest); the file holds those of them that fit
#: in an attachment Discord takes (bot.render.stats.EXPORT_BYTES).
MAX_EXPORT = 20_000

_EPOCH = date(1970, 1, 1).toordinal()
#: Outcomes in the order of the tables' columns (migrations/0003_stats.sql).
OUTCOME_COLUMNS = (Outcome.DRAMATIC_FAILURE, Outcome.FAILURE, Outcome.SUCCESS,
                   Outcome.EXCEPTIONAL_SUCCESS, Outcome.BOTCH)
#: A roll's rows in each table: every level (its channel and the server's 0, the roller
#: and everyone's 0) at every span (all, day, month), twelve rows. One statement per
#: table and roll: the roll's values are sent once and joined in SQL to its levels
#: (``storybot_level``: its channel and roller, then the channel again and the roller
#: again; ``storybot_span``: its day and month buckets), not sent once a level. Both
#: statements list the same rows in the same order, so two rolls at once lock the rows
#: they share in that order. ``WHERE true``: SQLite's upsert after a SELECT needs a
#: WHERE, or its ON would be read as a join's. Literal text.
TALLY = (
    "INSERT INTO stat_tally (guild_id, channel_id, roller_id, span, bucket, private, ruleset,"
    " rolls, dice, will_spent, dramatic_failure, failure, success, exceptional_success, botch,"
    " f1, f2, f3, f4, f5, f6, f7, f8, f9, f10)"
    " SELECT v.guild_id, storybot_level.channel_id, storybot_level.roller_id,"
    " storybot_span.span, storybot_span.bucket, v.private, v.ruleset, v.rolls, v.dice,"
    " v.will_spent, v.dramatic_failure, v.failure, v.success, v.exceptional_success, v.botch,"
    " v.f1, v.f2, v.f3, v.f4, v.f5, v.f6, v.f7, v.f8, v.f9, v.f10"
    " FROM (SELECT CAST(? AS BIGINT) AS guild_id, CAST(? AS INTEGER) AS private,"
    " CAST(? AS TEXT) AS ruleset, CAST(? AS INTEGER) AS rolls, CAST(? AS INTEGER) AS dice,"
    " CAST(? AS INTEGER) AS will_spent, CAST(? AS INTEGER) AS dramatic_failure,"
    " CAST(? AS INTEGER) AS failure, CAST(? AS INTEGER) AS success,"
    " CAST(? AS INTEGER) AS exceptional_success, CAST(? AS INTEGER) AS botch,"
    " CAST(? AS INTEGER) AS f1, CAST(? AS INTEGER) AS f2, CAST(? AS INTEGER) AS f3,"
    " CAST(? AS INTEGER) AS f4, CAST(? AS INTEGER) AS f5, CAST(? AS INTEGER) AS f6,"
    " CAST(? AS INTEGER) AS f7, CAST(? AS INTEGER) AS f8, CAST(? AS INTEGER) AS f9,"
    " CAST(? AS INTEGER) AS f10) AS v"
    " CROSS JOIN (SELECT CAST(? AS BIGINT) AS channel_id, CAST(? AS BIGINT) AS roller_id"
    " UNION ALL SELECT ?, 0 UNION ALL SELECT 0, ? UNION ALL SELECT 0, 0) AS storybot_level"
    " CROSS JOIN (SELECT 'all' AS span, 0 AS bucket UNION ALL SELECT 'day', CAST(? AS INTEGER)"
    " UNION ALL SELECT 'month', CAST(? AS INTEGER)) AS storybot_span"
    " WHERE true"
    " ON CONFLICT (guild_id, channel_id, roller_id, span, bucket, private, ruleset)"
    " DO UPDATE SET rolls = stat_tally.rolls + excluded.rolls,"
    " dice = stat_tally.dice + excluded.dice,"
    " will_spent = stat_tally.will_spent + excluded.will_spent,"
    " dramatic_failure = stat_tally.dramatic_failure + excluded.dramatic_failure,"
    " failure = stat_tally.failure + excluded.failure,"
    " success = stat_tally.success + excluded.success,"
    " exceptional_success = stat_tally.exceptional_success + excluded.exceptional_success,"
    " botch = stat_tally.botch + excluded.botch, f1 = stat_tally.f1 + excluded.f1,"
    " f2 = stat_tally.f2 + excluded.f2, f3 = stat_tally.f3 + excluded.f3,"
    " f4 = stat_tally.f4 + excluded.f4, f5 = stat_tally.f5 + excluded.f5,"
    " f6 = stat_tally.f6 + excluded.f6, f7 = stat_tally.f7 + excluded.f7,"
    " f8 = stat_tally.f8 + excluded.f8, f9 = stat_tally.f9 + excluded.f9,"
    " f10 = stat_tally.f10 + excluded.f10"
)
SHAPES = (
    "INSERT INTO stat_shapes (guild_id, channel_id, roller_id, span, bucket, private, ruleset,"
    " shape, rolls, dramatic_failure, failure, success, exceptional_success, botch)"
    " SELECT v.guild_id, storybot_level.channel_id, storybot_level.roller_id,"
    " storybot_span.span, storybot_span.bucket, v.private, v.ruleset, v.shape, v.rolls,"
    " v.dramatic_failure, v.failure, v.success, v.exceptional_success, v.botch"
    " FROM (SELECT CAST(? AS BIGINT) AS guild_id, CAST(? AS INTEGER) AS private,"
    " CAST(? AS TEXT) AS ruleset, CAST(? AS TEXT) AS shape, CAST(? AS INTEGER) AS rolls,"
    " CAST(? AS INTEGER) AS dramatic_failure, CAST(? AS INTEGER) AS failure,"
    " CAST(? AS INTEGER) AS success, CAST(? AS INTEGER) AS exceptional_success,"
    " CAST(? AS INTEGER) AS botch) AS v"
    " CROSS JOIN (SELECT CAST(? AS BIGINT) AS channel_id, CAST(? AS BIGINT) AS roller_id"
    " UNION ALL SELECT ?, 0 UNION ALL SELECT 0, ? UNION ALL SELECT 0, 0) AS storybot_level"
    " CROSS JOIN (SELECT 'all' AS span, 0 AS bucket UNION ALL SELECT 'day', CAST(? AS INTEGER)"
    " UNION ALL SELECT 'month', CAST(? AS INTEGER)) AS storybot_span"
    " WHERE true"
    " ON CONFLICT (guild_id, channel_id, roller_id, span, bucket, private, ruleset, shape)"
    " DO UPDATE SET rolls = stat_shapes.rolls + excluded.rolls,"
    " dramatic_failure = stat_shapes.dramatic_failure + excluded.dramatic_failure,"
    " failure = stat_shapes.failure + excluded.failure,"
    " success = stat_shapes.success + excluded.success,"
    " exceptional_success = stat_shapes.exceptional_success + excluded.exceptional_success,"
    " botch = stat_shapes.botch + excluded.botch"
)


#: What /stats adds up (StatsRepository.samples_query): a part's counters, the tallies'
#: and the request shapes' side by side (a shape's row padded to a tally's width, its
#: columns named by the tally's), every part in one statement. A part may be guarded by
#: whether the viewer is a Storyteller (bot.store.repository.Viewer), tested in the
#: statement: ``? IS NULL`` for a part every viewer sees, else its guard (1: only a
#: Storyteller's, 0: only another's). Literal text, built once from literal text.
_TALLY_SUMS = (
    "SELECT 'tally' AS counted, ruleset, '' AS shape, sum(rolls) AS n0, sum(dice) AS n1,"
    " sum(will_spent) AS n2, sum(dramatic_failure) AS n3, sum(failure) AS n4,"
    " sum(success) AS n5, sum(exceptional_success) AS n6, sum(botch) AS n7,"
    " sum(f1) AS n8, sum(f2) AS n9, sum(f3) AS n10, sum(f4) AS n11, sum(f5) AS n12,"
    " sum(f6) AS n13, sum(f7) AS n14, sum(f8) AS n15, sum(f9) AS n16, sum(f10) AS n17"
    " FROM stat_tally"
)
_SHAPE_SUMS = (
    "SELECT 'shape' AS counted, ruleset, shape, sum(rolls), sum(dramatic_failure),"
    " sum(failure), sum(success), sum(exceptional_success), sum(botch),"
    " 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0 FROM stat_shapes"
)
#: The values of a row of :data:`SAMPLES` (a tally's; a shape's fill the first six).
_VALUES = tuple(f"n{n}" for n in range(18))
#: One part's rows: ``private IN (?, ?)`` takes the same value twice for one kind,
#: ``? IS NULL OR ruleset = ?`` keeps every ruleset or one; every roll (span 'all'), or
#: from a day on: the months after its month and the days of its month. Its level is
#: one channel's (or 0, the server's), or each of a set of channels' (Part.channels),
#: given as a JSON array of their ids (``json_each``: literal text whatever the count,
#: translated for PostgreSQL by bot.store.dialect).
#: Whom a part counts for (``guard``): every viewer, or only a Storyteller, or only another.
_GUARD = ("(? IS NULL OR CASE WHEN (? = 1 OR ? LIKE '%,' || (SELECT"
          " CAST(storyteller_role_id AS TEXT) FROM guild_settings WHERE guild_id = ?)"
          " || ',%') THEN 1 ELSE 0 END = ?)")
_AT_LEVEL = " WHERE guild_id = ? AND channel_id = ?"
#: The set of channels is empty for a viewer the part does not count for: its guard is
#: tested once, on the set, where SQLite would otherwise read every channel's rows first.
_IN_CHANNELS = " WHERE guild_id = ? AND channel_id IN (" + SQLITE_IDS + " WHERE " + _GUARD + ")"
_PART = (" AND roller_id = ? AND private IN (?, ?)"
         " AND (? IS NULL OR ruleset = ?) AND " + _GUARD)
_EVERY = " AND span = 'all'"
_FROM_DAY = (" AND ((span = 'month' AND bucket > ?)"
             " OR (span = 'day' AND bucket >= ? AND bucket < ?))")
#: The most parts one statement adds up: a Storyteller's one, and another's two.
_PARTS = 3


def _part_sums(channels: bool, since: bool) -> str:
    """One part's tallies and shapes (``channels``: over a set of channels)."""
    where = (_IN_CHANNELS if channels else _AT_LEVEL) + _PART + (_FROM_DAY if since else _EVERY)
    return (_TALLY_SUMS + where + " GROUP BY ruleset UNION ALL "
            + _SHAPE_SUMS + where + " GROUP BY ruleset, shape")


#: Every statement :meth:`StatsRepository.samples_query` may send, by whether each of
#: its parts is over a set of channels, and whether it reads from a day on: literal
#: text, built once from literal text.
SAMPLES = {
    (kinds, since): " UNION ALL ".join(_part_sums(channels, since) for channels in kinds)
    for count in range(1, _PARTS + 1)
    for kinds in product((False, True), repeat=count)
    for since in (False, True)
}
#: A part of :meth:`StatsRepository.samples_query`, and whom it counts for: every viewer
#: (None), a Storyteller only (True), anyone else only (False).
Guarded = tuple[Part, bool | None]
#: A row of :data:`SAMPLES`: what it counts ("tally" or "shape"), its ruleset, its shape
#: ("" for a tally) and its values.
Counted = tuple[str, str, str, list[int]]


def samples_of(rows: Sequence[Counted]) -> list[Sample]:
    """Each ruleset's counters, added up over the rows of :data:`SAMPLES`."""
    tallies: dict[str, list[int]] = {}
    shapes: dict[tuple[str, str], list[int]] = {}
    for counted, ruleset, shape, row in rows:
        values = list(row)
        if counted == "tally":
            into = tallies.setdefault(ruleset, [0] * len(values))
        else:
            values = values[:1 + len(OUTCOME_COLUMNS)]
            into = shapes.setdefault((ruleset, shape), [0] * len(values))
        for i, value in enumerate(values):
            into[i] += value
    samples = []
    outcomes = len(OUTCOME_COLUMNS)
    for name in sorted(tallies, key=lambda name: list(Ruleset).index(Ruleset(name))):
        values = tallies[name]
        if values[0] <= 0:
            continue
        tally = Tally(
            rolls=values[0], dice=values[1], will_spent=values[2],
            outcomes=dict(zip(OUTCOME_COLUMNS, values[3:3 + outcomes], strict=True)),
            faces=tuple(values[3 + outcomes:]),
        )
        counted_shapes = tuple(
            ShapeCount(shape=shape, rolls=counts[0],
                       outcomes=dict(zip(OUTCOME_COLUMNS, counts[1:], strict=True)))
            for (of, shape), counts in sorted(shapes.items())
            if of == name and counts[0] > 0
        )
        samples.append(Sample(ruleset=Ruleset(name), tally=tally, shapes=counted_shapes))
    return samples


def _counted(row: Any) -> Counted | None:
    """A row of :data:`SAMPLES` (None for a row of NULLs: there was none)."""
    if row is None or row["counted"] is None:
        return None
    return (row["counted"], row["ruleset"], row["shape"],
            [int(row[name]) for name in _VALUES])


def _params(
    viewer: Viewer, part: Part, guard: bool | None, since: date | None,
    ruleset: Ruleset | None,
) -> list[object]:
    """The parameters of one part's reads (:data:`_PART`, then the span's)."""
    kept = None if ruleset is None else ruleset.value
    when = None if guard is None else int(guard)
    guarded = [when, *viewer.params(), when]
    # A set of channels is one parameter, a JSON array (the statement's json_each), with
    # the part's guard.
    level: list[object] = [part.channel_id] if part.channels is None else [
        json.dumps(sorted(part.channels)), *guarded]
    params: list[object] = [viewer.guild_id, *level, part.roller_id,
                            part.private[0], part.private[-1], kept, kept, *guarded]
    if since is not None:
        month = month_number(since)
        last_day = monthrange(since.year, since.month)[1]
        # The day after the month's last, as a number: December 9999 has no next month.
        params += [month, day_number(since),
                   day_number(since.replace(day=last_day)) + 1]
    return params


def day_number(day: date) -> int:
    """A day's bucket: days since 1970-01-01."""
    return day.toordinal() - _EPOCH


def month_number(day: date) -> int:
    """A day's month bucket: year × 12 + month − 1."""
    return day.year * 12 + day.month - 1


def _outcomes(outcome: Outcome, sign: int) -> list[int]:
    return [sign if each is outcome else 0 for each in OUTCOME_COLUMNS]


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

    @staticmethod
    def _levels(roll: RollRecord) -> tuple[object, ...]:
        """The parameters of a roll's levels (the statements' ``storybot_level`` and
        ``storybot_span``: migrations/0003_stats.sql)."""
        day = roll.created_at.date()
        return (roll.channel_id, roll.roller_id, roll.channel_id, roll.roller_id,
                day_number(day), month_number(day))

    def _tally(self, roll: RollRecord, values: Sequence[int]) -> None:
        self._do(TALLY, (roll.guild_id, roll.private, roll.request.ruleset.value, *values,
                         *self._levels(roll)))

    def _shape(self, roll: RollRecord, first: Outcome, sign: int) -> None:
        self._do(SHAPES, (roll.guild_id, roll.private, roll.request.ruleset.value,
                          shape_of(roll.request), sign, *_outcomes(first, sign),
                          *self._levels(roll)))

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
        self._do("INSERT INTO stat_first (roll_id, outcome) VALUES (?, ?) ON CONFLICT DO NOTHING",
                  (roll.id, before.outcome.value))

    def uncounted(self, roll: RollRecord, first: Outcome | None) -> None:
        """A voided roll: taken out of every counter it is in. ``first``: the outcome its
        request shape was counted with (its first reading's, kept by :meth:`reread`;
        None when none was kept), as the void read it (RollRepository.void)."""
        result = roll.result
        self._tally(roll, (-1, -len(result.dice), -_will(roll.will_state),
                           *_outcomes(result.outcome, -1), *(-n for n in _faces(result))))
        if first is not None:
            self._shape(roll, first, -1)

    # --- read by /stats ---------------------------------------------------------------------

    @staticmethod
    def samples_query(
        viewer: Viewer,
        parts: Sequence[Guarded],
        *,
        since: date | None = None,
        ruleset: Ruleset | None = None,
    ) -> Query[Counted | None]:
        """Each ruleset's counters over ``parts`` (engine.stats.parts), from ``since`` on,
        as rows for :func:`samples_of` to add up, in a query to read beside the settings
        (``Queries.beside_rows``). Without ``since``, the all-time rows; with it, whole
        months after ``since``'s month and the days of that month from ``since`` on: a
        few rows per part (and per request shape), however long the log. At most three
        parts: each counts
        for every viewer, or only when ``viewer`` is (True) or is not (False) a
        Storyteller here, which the statement decides (:class:`Viewer`)."""
        if not 1 <= len(parts) <= _PARTS:
            msg = f"a read of 1 to {_PARTS} parts, not {len(parts)}"
            raise ValueError(msg)
        kinds = tuple(part.channels is not None for part, _ in parts)
        statement = SAMPLES[kinds, since is not None]
        params = [value for part, guard in parts
                  for value in _params(viewer, part, guard, since, ruleset) * 2]
        return Query(statement, tuple(params), _counted)

    # --- /stats export ----------------------------------------------------------------------

    def log(
        self,
        viewer: Viewer,
        channel_id: int,
        *,
        roller_id: int | None,
        since: date | None = None,
        ruleset: Ruleset | None = None,
        limit: int = MAX_EXPORT,
    ) -> tuple[bool, list[LoggedRoll]]:
        """Whether ``viewer`` is a Storyteller here, and the channel's rolls (one roller's,
        when given) that they may export, newest first, at most ``limit``: a Storyteller
        any roller's, another only their own (secret and void ones included). One
        statement: it decides who the viewer is itself (:class:`Viewer`)."""
        day = None if since is None else since.isoformat()
        kept = None if ruleset is None else ruleset.value
        rows = self._all(
            "SELECT k.storyteller, l.* FROM (SELECT CASE WHEN (? = 1 OR ? LIKE '%,' ||"
            " (SELECT CAST(storyteller_role_id AS TEXT) FROM guild_settings"
            " WHERE guild_id = ?) || ',%') THEN 1 ELSE 0 END AS storyteller) AS k"
            " LEFT JOIN (SELECT id, created_at, roller_id, roller_name, character_name,"
            " label, private,"
            " void, beat, will_state, json_extract(request_json, '$.ruleset') AS ruleset,"
            " coalesce(json_extract(result_json, '$.breakdown.dice'), 0) AS dice,"
            " json_extract(result_json, '$.outcome') AS outcome,"
            " json_extract(result_json, '$.successes') AS successes,"
            " (SELECT coalesce(group_concat(json_extract(d.value, '$[0]'), ' '), '')"
            "  FROM json_each(result_json, '$.dice') AS d) AS faces"
            " FROM rolls WHERE guild_id = ? AND channel_id = ?"
            " AND (? IS NULL OR roller_id = ?) AND (? IS NULL OR created_at >= ?)"
            " AND (? IS NULL OR json_extract(request_json, '$.ruleset') = ?)"
            " AND (roller_id = ? OR ? = 1 OR ? LIKE '%,' || (SELECT"
            " CAST(storyteller_role_id AS TEXT) FROM guild_settings WHERE guild_id = ?)"
            " || ',%')"
            " ORDER BY id DESC LIMIT ?) AS l ON 1 = 1",
            (
                *viewer.params(), viewer.guild_id, channel_id, roller_id, roller_id,
                day, day, kept, kept, viewer.user_id, *viewer.params(), limit,
            ),
            postgres="SELECT k.storyteller, l.* FROM (SELECT CASE WHEN (? = 1 OR ? LIKE"
            " '%,' || (SELECT CAST(storyteller_role_id AS TEXT) FROM guild_settings"
            " WHERE guild_id = ?) || ',%') THEN 1 ELSE 0 END AS storyteller) AS k"
            " LEFT JOIN (SELECT id, created_at, roller_id, roller_name, character_name,"
            " label, private,"
            " void, beat, will_state, request_json::jsonb ->> 'ruleset' AS ruleset,"
            " coalesce((result_json::jsonb #>> '{breakdown,dice}')::bigint, 0) AS dice,"
            " result_json::jsonb ->> 'outcome' AS outcome,"
            " (result_json::jsonb ->> 'successes')::bigint AS successes,"
            " (SELECT coalesce(string_agg(d.value ->> 0, ' ' ORDER BY d.n), '')"
            "  FROM jsonb_array_elements(CASE jsonb_typeof(result_json::jsonb -> 'dice')"
            "  WHEN 'array' THEN result_json::jsonb -> 'dice' ELSE '[]' END)"
            "  WITH ORDINALITY AS d(value, n)) AS faces"
            " FROM rolls WHERE guild_id = ? AND channel_id = ?"
            " AND (? IS NULL OR roller_id = ?) AND (? IS NULL OR created_at >= ?)"
            " AND (? IS NULL OR request_json::jsonb ->> 'ruleset' = ?)"
            " AND (roller_id = ? OR ? = 1 OR ? LIKE '%,' || (SELECT"
            " CAST(storyteller_role_id AS TEXT) FROM guild_settings WHERE guild_id = ?)"
            " || ',%')"
            " ORDER BY id DESC LIMIT ?) AS l ON 1 = 1",
        )
        logged = sorted((_logged(row) for row in rows if row["id"] is not None),
                        key=lambda roll: roll.id, reverse=True)
        return bool(rows[0]["storyteller"]), logged


def _logged(row: sqlite3.Row) -> LoggedRoll:
    return LoggedRoll(
        id=row["id"], created_at=row["created_at"], roller_id=row["roller_id"],
        roller_name=row["roller_name"], ruleset=row["ruleset"], label=row["label"],
        private=row["private"], void=row["void"], dice=row["dice"], outcome=row["outcome"],
        successes=row["successes"], will=row["will_state"], beat=row["beat"],
        faces=row["faces"], character=row["character_name"],
    )
