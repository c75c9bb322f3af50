"""Single rolls, read exactly by the three rulesets (RULES.md §1–§4).

:func:`roll` is a pure function of (request, face stream). Faces are drawn in
the order RULES.md §0 fixes: round 0 left to right, then `cofd` rote
replacements, then each round of extra dice. :func:`spend_will` re-reads a
finished roll with Willpower added after the fact: faces already seen keep
their places (a queue per draw slot serves them again before any fresh face
is drawn), so spending after the roll has exactly the odds of declaring Will
up front.

A roll is read on mutable rows, one per die (``[face, round, kind, fate,
successes, explodes, pair]``), frozen into :class:`~engine.models.Die` tuples
at the end: a roll is on every command's hot path, and rows cost a fraction
of objects.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable
from functools import partial
from operator import itemgetter
from typing import Any

from engine.constants import EXCEPTIONAL_AT, MAX_EXTRA, WILL_DICE
from engine.faces import FaceSource
from engine.models import (
    Degree,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    WillUse,
)
from engine.prepare import Prepared, prepare
from engine.refusals import Refusal, RefusalCode


class RuleError(ValueError):
    """A move the rules do not allow (nothing changed); ``refusal`` says which and why.

    ``str(error)`` is the refusal's code, for logs: the words are the bot's.
    """

    def __init__(self, refusal: Refusal) -> None:
        super().__init__(refusal)
        self.refusal = refusal

    def __str__(self) -> str:
        return self.refusal.code.value


#: Draw slots: round 0, rote replacements, then extra rounds 1, 2, ...
_ROUND0 = 0
_ROTE = -1

#: Columns of a row.
_FACE, _ROUND, _KIND, _FATE, _SUCCESSES, _EXPLODES, _PAIR = range(7)
Row = list[Any]

#: Builds a Die from a row in C (``Die._make`` is a Python function around this call).
_new_die = partial(tuple.__new__, Die)
_successes_of = itemgetter(_SUCCESSES)



class _Feed:
    """Hands out faces per draw slot: earlier faces of that slot first, then fresh ones.

    Rote replacements are kept by the round-0 position of the die they
    replaced, not in a queue: a die that no longer needs its replacement (a
    chance die's 8 read as an ordinary success) leaves it void rather than
    passing it to the next failing die.
    """

    __slots__ = ("_draw", "_old", "_rote")

    def __init__(
        self,
        source: FaceSource,
        old: dict[int, deque[int]] | None = None,
        rote: dict[int, int] | None = None,
    ) -> None:
        self._draw = source.draw
        self._old = old or {}
        self._rote = rote or {}

    def replacement(self, position: int) -> int:
        """The rote replacement of the round-0 die at ``position``."""
        if position in self._rote:
            return self._rote.pop(position)
        return self._draw(1)[0]

    def take(self, slot: int, count: int) -> list[int]:
        queue = self._old.get(slot)
        if not queue:
            return self._draw(count)
        reused = [queue.popleft() for _ in range(min(count, len(queue)))]
        return reused + self._draw(count - len(reused))

    def unused(self) -> Iterable[tuple[int, int]]:
        """Earlier faces the new reading did not ask for: (slot, face)."""
        for position in sorted(self._rote):
            yield _ROTE, self._rote[position]
        if not self._old:
            return
        for slot in sorted(self._old):
            for face in self._old[slot]:
                yield slot, face


class _Tally:
    """The rows of one reading; frozen into a RollResult at the end."""

    __slots__ = ("capped", "linked", "rows")

    def __init__(self) -> None:
        self.rows: list[Row] = []
        self.capped = False
        self.linked = False

    def add(self, faces: list[int], round_: int, kind: DieKind, at: int) -> list[Row]:
        """Add faces read against success threshold ``at``; returns their rows."""
        success, failure = Fate.SUCCESS, Fate.FAILURE
        new = [
            [face, round_, kind, success if face >= at else failure, 1 if face >= at else 0,
             False, None]
            for face in faces
        ]
        self.rows += new
        return new

    def link(self, first: Row, second: Row, first_fate: Fate, second_fate: Fate) -> None:
        """Pair two dice (a 1 and what it cancels, a die and its rote replacement)."""
        first[_FATE], first[_PAIR] = first_fate, second
        second[_FATE], second[_PAIR] = second_fate, first
        self.linked = True

    def extra_rounds(self, feed: _Feed, granters: list[Row], explode_at: int, at: int) -> None:
        """Roll every round of extra dice granted by ``granters`` (`cofd`)."""
        drawn = 0
        round_ = 1
        while granters:
            granters = self.grant(granters, drawn)
            drawn += len(granters)
            new = self.add(feed.take(round_, len(granters)), round_, DieKind.EXTRA, at)
            if self.capped:
                return
            granters = [row for row in new if row[_FACE] >= explode_at]
            round_ += 1

    def grant(self, granters: list[Row], drawn: int) -> list[Row]:
        """Mark the granters that get their extra die, stopping at ``MAX_EXTRA``."""
        if drawn + len(granters) > MAX_EXTRA:
            granters = granters[: MAX_EXTRA - drawn]
            self.capped = True
        for row in granters:
            row[_EXPLODES] = True
        return granters

    def void(self, feed: _Feed) -> None:
        for slot, face in feed.unused():
            kind = DieKind.ROTE if slot == _ROTE else DieKind.EXTRA
            self.rows.append([face, max(slot, 0), kind, Fate.VOID, 0, False, None])

    def dice(self) -> tuple[Die, ...]:
        rows = self.rows
        if self.linked:
            index = {id(row): i for i, row in enumerate(rows)}
            for row in rows:
                if row[_PAIR] is not None:
                    row[_PAIR] = index[id(row[_PAIR])]
        return tuple(map(_new_die, rows))


def _round0(tally: _Tally, feed: _Feed, dice: int, pool_dice: int, at: int) -> list[Row]:
    """Draw round 0: the first ``pool_dice`` dice are the pool's, the rest Willpower's.

    With Will on a pool below 3 dice every die is counted as Willpower's.
    """
    pool_dice = max(0, min(pool_dice, dice))
    faces = feed.take(_ROUND0, dice)
    rows = tally.add(faces[:pool_dice], 0, DieKind.POOL, at)
    if pool_dice < dice:
        rows += tally.add(faces[pool_dice:], 0, DieKind.WILL, at)
    return rows


def roll(request: RollRequest, source: FaceSource) -> RollResult:
    """Roll a request, drawing faces from ``source``; refusals roll nothing."""
    prepared = prepare(request)
    if isinstance(prepared, Refusal):
        return RollResult(request=request, outcome=Outcome.REFUSED, refusal=prepared)
    will = WillUse.DECLARED if request.will else WillUse.NONE
    pool_dice = prepared.dice - WILL_DICE if request.will else prepared.dice
    return _read(prepared, _Feed(source), request, will, pool_dice)


def _read(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    ruleset = prepared.request.ruleset
    if ruleset is Ruleset.COFD:
        if prepared.breakdown.chance:
            return _read_chance(prepared, feed, request, will)
        return _read_cofd(prepared, feed, request, will, pool_dice)
    if ruleset is Ruleset.V20:
        return _read_v20(prepared, feed, request, will)
    return _read_fistful(prepared, feed, request, will, pool_dice)


def _result(
    prepared: Prepared, request: RollRequest, will: WillUse, tally: _Tally, **fields: Any
) -> RollResult:
    return RollResult.trusted(
        request=request,
        breakdown=prepared.breakdown,
        will=will,
        dice=tally.dice(),
        capped=tally.capped,
        **fields,
    )


# --- Chronicles of Darkness -------------------------------------------------------------


def _read_cofd(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    rules = prepared.request
    tally = _Tally()
    at = prepared.success_at
    positions = _round0(tally, feed, prepared.dice, pool_dice, at)
    if rules.rote:
        for place, row in enumerate(positions):
            if row[_FATE] is Fate.FAILURE:
                (new,) = tally.add([feed.replacement(place)], 0, DieKind.ROTE, at)
                tally.link(row, new, Fate.REPLACED, new[_FATE])
                positions[place] = new
    explode_at = prepared.explode_at
    if explode_at is not None:
        granters = [row for row in positions if row[_FACE] >= explode_at]
        tally.extra_rounds(feed, granters, explode_at, at)
    tally.void(feed)
    dice_successes = sum(map(_successes_of, tally.rows))
    threshold = rules.exceptional_at if rules.exceptional_at is not None else EXCEPTIONAL_AT
    if dice_successes == 0:
        outcome = Outcome.FAILURE
    elif dice_successes >= threshold:
        outcome = Outcome.EXCEPTIONAL_SUCCESS
    else:
        outcome = Outcome.SUCCESS
    total = dice_successes + rules.extra if dice_successes else 0
    return _result(
        prepared, request, will, tally,
        outcome=outcome, successes=total, dice_successes=dice_successes,
    )


def _read_chance(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse
) -> RollResult:
    """One chance die: 10 succeeds (no again), 1 is a dramatic failure; rote rerolls a 2–9."""
    tally = _Tally()
    (last,) = tally.add(feed.take(_ROUND0, 1), 0, DieKind.CHANCE, 10)
    if prepared.request.rote and 2 <= last[_FACE] <= 9:
        (reroll,) = tally.add([feed.replacement(0)], 0, DieKind.ROTE, 10)
        tally.link(last, reroll, Fate.REPLACED, reroll[_FATE])
        last = reroll
    outcome = Outcome.FAILURE
    if last[_SUCCESSES]:
        outcome = Outcome.SUCCESS
    elif last[_FACE] == 1:
        last[_FATE] = Fate.ONE
        outcome = Outcome.DRAMATIC_FAILURE
    tally.void(feed)
    dice_successes = last[_SUCCESSES]
    total = dice_successes + prepared.request.extra if dice_successes else 0
    return _result(
        prepared, request, will, tally,
        outcome=outcome, successes=total, dice_successes=dice_successes,
    )


# --- Classic World of Darkness ----------------------------------------------------------


def _read_v20(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse
) -> RollResult:
    rules = prepared.request
    tally = _Tally()
    if rules.auto:
        return _result(
            prepared, request, will, tally, outcome=Outcome.SUCCESS, successes=1,
            degree=Degree.MARGINAL, automatic=True,
        )
    rows = tally.add(feed.take(_ROUND0, prepared.dice), 0, DieKind.POOL, prepared.success_at)
    ones = [row for row in rows if row[_FACE] == 1]
    for one in ones:
        one[_FATE] = Fate.ONE
    if rules.specialty:
        for row in rows:
            if row[_FACE] == 10 and row[_SUCCESSES]:
                row[_SUCCESSES] = 2
    met = any(row[_SUCCESSES] for row in rows)
    rolled = sum(map(_successes_of, rows))
    for one in ones:
        victim = _lowest_success(rows)
        if victim is None:
            break
        victim[_SUCCESSES] -= 1
        tally.link(one, victim, Fate.CANCELS,
                   Fate.SUCCESS if victim[_SUCCESSES] else Fate.CANCELLED)
    tally.void(feed)
    net = max(0, rolled - len(ones)) + (1 if rules.will else 0)
    if net:
        return _result(
            prepared, request, will, tally, outcome=Outcome.SUCCESS, successes=net,
            dice_successes=rolled, degree=Degree.of(net),
        )
    outcome = Outcome.BOTCH if ones and not met else Outcome.FAILURE
    return _result(prepared, request, will, tally, outcome=outcome, dice_successes=rolled)


def _lowest_success(rows: list[Row]) -> Row | None:
    """The success a `v20` 1 cancels (display only): lowest face, earliest drawn."""
    best: Row | None = None
    for row in rows:
        if row[_SUCCESSES] and (best is None or row[_FACE] < best[_FACE]):
            best = row
    return best


# --- Fist Full of Dice --------------------------------------------------------------------


def _read_fistful(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    rules = prepared.request
    tally = _Tally()
    at = prepared.success_at
    eats = prepared.ones_cancel
    standing: list[Row] = []
    round_ = 0
    drawn = 0
    rows = _round0(tally, feed, prepared.dice, pool_dice, at)
    while True:
        standing += [row for row in rows if row[_SUCCESSES]]
        for one in [row for row in rows if row[_FACE] == 1]:
            place = _fistful_victim(standing, round_) if eats else None
            if place is None:
                one[_FATE] = Fate.ONE
                continue
            victim = standing.pop(place)
            victim[_SUCCESSES] = 0
            tally.link(one, victim, Fate.CANCELS, Fate.CANCELLED)
        granters = [row for row in rows if row[_FACE] == 10 and row[_SUCCESSES]]
        if not granters or tally.capped:
            break
        granters = tally.grant(granters, drawn)
        drawn += len(granters)
        round_ += 1
        rows = tally.add(feed.take(round_, len(granters)), round_, DieKind.EXTRA, at)
    tally.void(feed)
    successes = len(standing)
    need_met = successes >= rules.need if rules.need is not None else None
    if successes:
        return _result(
            prepared, request, will, tally, outcome=Outcome.SUCCESS, successes=successes,
            dice_successes=successes, need_met=need_met,
        )
    ones = sum(1 for row in tally.rows if row[_FATE] is Fate.ONE)
    if ones and not rules.no_botch:
        return _result(
            prepared, request, will, tally, outcome=Outcome.BOTCH, botch_degree=ones,
            need_met=need_met,
        )
    return _result(prepared, request, will, tally, outcome=Outcome.FAILURE, need_met=need_met)


def _fistful_victim(standing: list[Row], round_: int) -> int | None:
    """Where in ``standing`` is the success a `fistful` 1 eats.

    The 1's own round's 10s go first (so they grant no die), then the highest
    face; among equal faces the earliest drawn (display only: the count does
    not depend on which die is eaten).
    """
    best: int | None = None
    best_key = (False, 0)
    for place, row in enumerate(standing):
        key = (row[_ROUND] == round_ and row[_FACE] == 10, row[_FACE])
        if key > best_key:
            best, best_key = place, key
    return best


# --- After the roll -------------------------------------------------------------------------


def will_refusal(result: RollResult) -> Refusal | None:
    """Why Willpower cannot be spent on this roll now, or None when it can.

    The bot asks this to decide whether to offer the Spend Will button;
    :func:`spend_will` applies the same checks, so the two never disagree.
    """
    prepared = _will_prepared(result)
    return prepared if isinstance(prepared, Refusal) else None


def _will_prepared(result: RollResult) -> Prepared | Refusal:
    """The roll's request prepared with Willpower, or why Willpower cannot be spent."""
    if result.refused:
        return Refusal.of(RefusalCode.WILL_NOTHING_ROLLED)
    if result.will is WillUse.DECLARED:
        return Refusal.of(RefusalCode.WILL_DECLARED)
    if result.will is WillUse.AFTER:
        return Refusal.of(RefusalCode.WILL_ALREADY_SPENT)
    if result.beat:
        return Refusal.of(RefusalCode.WILL_AFTER_BEAT)
    if result.automatic:
        return Refusal.of(RefusalCode.WILL_AUTOMATIC)
    return prepare(result.request.model_copy(update={"will": True}))


def spend_will(result: RollResult, source: FaceSource) -> RollResult:
    """Spend Willpower on a finished roll (RULES.md §4), or raise :class:`RuleError`.

    Faces already seen keep their places; new faces are drawn from ``source``
    only where the new reading needs more than the roll already drew.
    """
    prepared = _will_prepared(result)
    if isinstance(prepared, Refusal):
        raise RuleError(prepared)
    old: dict[int, deque[int]] = {}
    rote: dict[int, int] = {}
    round0: list[int] = []
    for index, die in enumerate(result.dice):
        if die.kind is DieKind.ROTE:
            continue
        if die.round == 0:
            round0.append(index)
        old.setdefault(die.round, deque()).append(die.face)
    for position, index in enumerate(round0):
        replaced_by = result.dice[index].pair
        if result.dice[index].fate is Fate.REPLACED and replaced_by is not None:
            rote[position] = result.dice[replaced_by].face
    feed = _Feed(source, old, rote)
    return _read(prepared, feed, result.request, WillUse.AFTER, len(round0))


def take_beat(result: RollResult) -> RollResult:
    """`cofd`: turn a failure into a dramatic failure to gain a Beat; it closes the roll."""
    if result.request.ruleset is not Ruleset.COFD:
        raise RuleError(
            Refusal.of(RefusalCode.BEAT_NOT_COFD, ruleset=result.request.ruleset.value)
        )
    if result.beat:
        raise RuleError(Refusal.of(RefusalCode.BEAT_ALREADY_TAKEN))
    if result.outcome is not Outcome.FAILURE:
        raise RuleError(Refusal.of(RefusalCode.BEAT_NOT_FAILURE))
    return result.model_copy(update={"outcome": Outcome.DRAMATIC_FAILURE, "beat": True})
