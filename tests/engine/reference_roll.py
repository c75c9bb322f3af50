"""The roll engine as it was before its fast paths were restated (commit 77b0164,
``engine/roll.py``), kept verbatim below this docstring as the reference
``tests/engine/test_roll_differential.py`` holds the engine to: the same request on the
same faces must give the same result, field for field. Not imported by the engine; a
change of the rules changes both.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Iterable, Sequence
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import Any

from engine.constants import EXCEPTIONAL_AT, MAX_EXTRA, WILL_DICE
from engine.faces import FaceSource
from engine.models import (
    Adjustment,
    Degree,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
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

#: Builds a Die from a plain tuple in C (``Die._make`` is a Python function around this call).
_new_die = partial(tuple.__new__, Die)
_successes_of = itemgetter(4)
_explodes_of = itemgetter(5)


#: Kinds of dice, by the number :func:`_dice_of` takes (ints hash in C, enums in Python).
_KINDS = (DieKind.POOL, DieKind.CHANCE, DieKind.WILL, DieKind.ROTE, DieKind.EXTRA)
_POOL, _CHANCE, _WILL, _ROTE_DIE, _EXTRA = range(5)


class _Dice(dict[int, Die]):
    """Face → the die that face makes under one rule; any face outside 1–10 is built on demand."""

    __slots__ = ("_make",)

    def __init__(self, round_: int, kind: DieKind, at: int, explodes: range, one: Fate) -> None:
        super().__init__()

        def make(face: int) -> Die:
            if face >= at:
                return _new_die((face, round_, kind, Fate.SUCCESS, 1, face in explodes, None))
            return _new_die((face, round_, kind, one if face == 1 else Fate.FAILURE, 0,
                             False, None))

        self._make = make
        for face in range(1, 11):
            self[face] = make(face)

    def __missing__(self, face: int) -> Die:
        return self._make(face)


@lru_cache(maxsize=256)
def _dice_of(
    round_: int, kind: int, at: int, explode_at: int | None = None, ones: bool = False,
) -> _Dice:
    """The dice each face makes in ``round_`` as ``_KINDS[kind]``: a success at ``at`` or
    more, a 1 read as :attr:`Fate.ONE` when ``ones``, else as a failure.

    A success that grants an extra die is marked as exploding when read (the cap unmarks
    the ones past it, a `fistful` 1 that eats one in its own round unmarks it): in `cofd`
    a face of ``explode_at`` or more; in `fistful` (``ones``) a 10 (``explode_at`` 10).
    """
    if explode_at is None:
        explodes = range(0)
    elif ones:
        explodes = range(explode_at, explode_at + 1)
    else:
        explodes = range(explode_at, 1 << 62)
    return _Dice(round_, _KINDS[kind], at, explodes, Fate.ONE if ones else Fate.FAILURE)


#: :meth:`Degree.of` answered once per net (it lists the enum each time it is called).
_degree = cache(Degree.of)


def _changed(die: Die, fate: Fate, successes: int, explodes: bool, pair: int | None) -> Die:
    return _new_die((die[0], die[1], die[2], fate, successes, explodes, pair))


#: Prepared requests by :func:`_key` (None for a refusal, worked out afresh each time:
#: it holds a dict). A table rolls the same few pools again and again; emptied when full.
_PREPARED: dict[tuple[Any, ...], Prepared | None] = {}
_PREPARED_MAX = 1024
_MISS: Any = object()
_request_values = itemgetter(
    *(name for name in RollRequest.model_fields if name not in {"terms", "adjustments"})
)
_term_values = itemgetter(*Term.model_fields)
_adjustment_values = itemgetter(*Adjustment.model_fields)


def _key(request: RollRequest) -> tuple[Any, ...]:
    """Every value of the request, its terms and adjustments spelled out as their own values.

    Equal keys for equal requests, as pydantic's ``==`` says, but hashed and compared in C:
    a request hashes and compares its terms in Python, which costs as much as preparing it.
    """
    values = request.__dict__
    terms, adjustments = values["terms"], values["adjustments"]
    if terms.__class__ is not tuple or adjustments.__class__ is not tuple:
        raise TypeError  # built without validation: not cached
    return (
        tuple([(term.__class__, *_term_values(term.__dict__)) for term in terms]),
        tuple([(adj.__class__, *_adjustment_values(adj.__dict__)) for adj in adjustments]),
        *_request_values(values),
    )


def _prepare(request: RollRequest) -> Prepared | Refusal:
    """:func:`~engine.prepare.prepare`, once per distinct valid request."""
    try:
        key = _key(request)
        prepared = _PREPARED.get(key, _MISS)
    except (AttributeError, KeyError, TypeError):  # not built by validation: not cached
        return prepare(request)
    if prepared is _MISS:
        prepared = prepare(request)
        if len(_PREPARED) >= _PREPARED_MAX:
            _PREPARED.clear()
        _PREPARED[key] = None if isinstance(prepared, Refusal) else prepared
        return prepared
    if prepared is None:
        return prepare(request)
    return prepared  # type: ignore[no-any-return]


_NONE_OLD: dict[int, deque[int]] = {}
"""No earlier faces (a fresh roll); never written to: only rote replacements are popped."""


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
        self._old = old or _NONE_OLD
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

    def void(self, dice: list[Die]) -> None:
        """Add the earlier faces the new reading did not ask for, as void dice."""
        if not self._old and not self._rote:
            return
        for slot, face in self.unused():
            kind = DieKind.ROTE if slot == _ROTE else DieKind.EXTRA
            dice.append(_new_die((face, max(slot, 0), kind, Fate.VOID, 0, False, None)))


def _link(dice: list[Die], first: int, second: int, first_fate: Fate, *,
          fate: Fate, successes: int, explodes: bool) -> None:
    """Pair two dice (a 1 and what it cancels, a die and its rote replacement); the
    second now reads ``fate``, ``successes`` and ``explodes``."""
    one, two = dice[first], dice[second]
    dice[first] = _new_die((one[0], one[1], one[2], first_fate, one[4], one[5], second))
    dice[second] = _new_die((two[0], two[1], two[2], fate, successes, explodes, first))


def _cap(dice: list[Die], granters: list[int], drawn: int) -> list[int]:
    """The granters that get their extra die when ``drawn`` extra dice are already out:
    those past ``MAX_EXTRA`` are unmarked."""
    keep = MAX_EXTRA - drawn
    for index in granters[keep:]:
        die = dice[index]
        dice[index] = _changed(die, die[3], die[4], False, die[6])
    return granters[:keep]


@lru_cache(maxsize=64)
def _round0_dice(at: int, explode_at: int | None, ones: bool) -> tuple[_Dice, _Dice]:
    """Round 0's pool dice and Willpower dice (see :func:`_dice_of`)."""
    return _dice_of(0, _POOL, at, explode_at, ones), _dice_of(0, _WILL, at, explode_at, ones)


def _round0(
    feed: _Feed, count: int, pool_dice: int, tables: tuple[_Dice, _Dice]
) -> list[Die]:
    """Draw round 0: the first ``pool_dice`` dice are the pool's, the rest Willpower's.

    With Will on a pool below 3 dice every die is counted as Willpower's.
    """
    pool, will = tables
    pool_dice = max(0, min(pool_dice, count))
    faces = feed.take(_ROUND0, count)
    if pool_dice == count:
        return [pool[face] for face in faces]
    return [pool[face] for face in faces[:pool_dice]] + [will[face] for face in faces[pool_dice:]]


def roll(request: RollRequest, source: FaceSource) -> RollResult:
    """Roll a request, drawing faces from ``source``; refusals roll nothing."""
    prepared = _prepare(request)
    if isinstance(prepared, Refusal):
        return RollResult(request=request, outcome=Outcome.REFUSED, refusal=prepared)
    if request.will:
        return _read(prepared, _Feed(source), request, WillUse.DECLARED,
                     prepared.dice - WILL_DICE)
    return _read(prepared, _Feed(source), request, WillUse.NONE, prepared.dice)


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
    prepared: Prepared, request: RollRequest, will: WillUse, dice: list[Die], capped: bool,
    **fields: Any,
) -> RollResult:
    fields["request"] = request
    fields["breakdown"] = prepared.breakdown
    fields["will"] = will
    fields["dice"] = tuple(dice)
    fields["capped"] = capped
    return RollResult.trusted_from(fields)


# --- Chronicles of Darkness -------------------------------------------------------------


def _read_cofd(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    rules = prepared.request
    at = prepared.success_at
    explode_at = prepared.explode_at
    dice = _round0(feed, prepared.dice, pool_dice, _round0_dice(at, explode_at, False))
    positions: Sequence[int] = _rote(dice, feed, at, explode_at) if rules.rote else range(len(dice))
    capped = False
    if explode_at is not None:
        # The granters are marked when read; a die rerolled by rote failed, so is not one.
        granters = sum(map(_explodes_of, dice))
        if granters:
            capped = _extra_rounds(dice, feed, positions, granters, explode_at=explode_at, at=at)
    feed.void(dice)
    dice_successes = sum(map(_successes_of, dice))
    threshold = rules.exceptional_at if rules.exceptional_at is not None else EXCEPTIONAL_AT
    if dice_successes == 0:
        outcome = Outcome.FAILURE
    elif dice_successes >= threshold:
        outcome = Outcome.EXCEPTIONAL_SUCCESS
    else:
        outcome = Outcome.SUCCESS
    total = dice_successes + rules.extra if dice_successes else 0
    return _result(
        prepared, request, will, dice, capped,
        outcome=outcome, successes=total, dice_successes=dice_successes,
    )


def _rote(dice: list[Die], feed: _Feed, at: int, explode_at: int | None) -> list[int]:
    """Reroll each failed round-0 die once (`cofd` rote); where each round-0 die now is."""
    positions = list(range(len(dice)))
    table = _dice_of(0, _ROTE_DIE, at, explode_at)
    for place in range(len(positions)):
        if dice[place][3] is Fate.FAILURE:
            new = table[feed.replacement(place)]
            index = len(dice)
            dice.append(new)
            _link(dice, place, index, Fate.REPLACED, fate=new[3], successes=new[4],
                  explodes=new[5])
            positions[place] = index
    return positions


def _extra_rounds(
    dice: list[Die], feed: _Feed, order: Sequence[int], granters: int, *, explode_at: int,
    at: int,
) -> bool:
    """Roll every round of extra dice (`cofd`); True when capped.

    ``granters`` dice of the round read last grant one die each; ``order`` is where
    that round's dice are, in the order the cap counts them.
    """
    drawn = 0
    round_ = 1
    while granters:
        capped = drawn + granters > MAX_EXTRA
        if capped:
            marked = [index for index in order if dice[index][0] >= explode_at]
            granters = len(_cap(dice, marked, drawn))
        drawn += granters
        faces = feed.take(round_, granters)
        if capped:
            table = _dice_of(round_, _EXTRA, at)
            dice += [table[face] for face in faces]
            return True
        table = _dice_of(round_, _EXTRA, at, explode_at)
        new = [table[face] for face in faces]
        granters = sum(map(_explodes_of, new))
        order = range(len(dice), len(dice) + len(new))
        dice += new
        round_ += 1
    return False


def _read_chance(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse
) -> RollResult:
    """One chance die: 10 succeeds (no again), 1 is a dramatic failure; rote rerolls a 2–9."""
    (face,) = feed.take(_ROUND0, 1)
    dice = [_dice_of(0, _CHANCE, 10)[face]]
    last = 0
    if prepared.request.rote and 2 <= dice[0][0] <= 9:
        reroll = _dice_of(0, _ROTE_DIE, 10)[feed.replacement(0)]
        dice.append(reroll)
        _link(dice, 0, 1, Fate.REPLACED, fate=reroll[3], successes=reroll[4],
              explodes=reroll[5])
        last = 1
    outcome = Outcome.FAILURE
    die = dice[last]
    if die[4]:
        outcome = Outcome.SUCCESS
    elif die[0] == 1:
        dice[last] = _changed(die, Fate.ONE, die[4], die[5], die[6])
        outcome = Outcome.DRAMATIC_FAILURE
    feed.void(dice)
    dice_successes = die[4]
    total = dice_successes + prepared.request.extra if dice_successes else 0
    return _result(
        prepared, request, will, dice, False,
        outcome=outcome, successes=total, dice_successes=dice_successes,
    )


# --- Classic World of Darkness ----------------------------------------------------------


def _read_v20(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse
) -> RollResult:
    rules = prepared.request
    if rules.auto:
        return _result(
            prepared, request, will, [], False, outcome=Outcome.SUCCESS, successes=1,
            degree=Degree.MARGINAL, automatic=True,
        )
    table = _dice_of(0, _POOL, prepared.success_at, None, ones=True)
    faces = feed.take(_ROUND0, prepared.dice)
    dice = [table[face] for face in faces]
    if rules.specialty:
        for index, die in enumerate(dice):
            if die[0] == 10 and die[4]:
                dice[index] = _changed(die, die[3], 2, die[5], die[6])
    rolled = sum(map(_successes_of, dice))
    ones = faces.count(1)
    if ones and rolled:
        _cancel(dice, faces)
    feed.void(dice)
    net = max(0, rolled - ones) + (1 if rules.will else 0)
    if net:
        return _result(
            prepared, request, will, dice, False, outcome=Outcome.SUCCESS, successes=net,
            dice_successes=rolled, degree=_degree(net),
        )
    outcome = Outcome.BOTCH if ones and not rolled else Outcome.FAILURE
    return _result(prepared, request, will, dice, False, outcome=outcome,
                   dice_successes=rolled)


def _cancel(dice: list[Die], faces: list[int]) -> None:
    """Link each `v20` 1, in draw order, to the success it cancels (display only).

    A 1 cancels the lowest face that has a success left, the earliest drawn among
    equal faces: the successes are sorted that way once and each 1 takes the first
    one left (a specialty 10 counts 2, so two 1s may cancel it).
    """
    left = list(map(_successes_of, dice))
    order = sorted([index for index, count in enumerate(left) if count], key=faces.__getitem__)
    order.reverse()
    one = -1
    for _ in range(faces.count(1)):
        if not order:
            break
        one = faces.index(1, one + 1)
        victim = order[-1]
        remaining = left[victim] - 1
        left[victim] = remaining
        if not remaining:
            order.pop()
        _link(dice, one, victim, Fate.CANCELS,
              fate=Fate.SUCCESS if remaining else Fate.CANCELLED, successes=remaining,
              explodes=dice[victim][5])


# --- Fist Full of Dice --------------------------------------------------------------------


def _read_fistful(
    prepared: Prepared, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    rules = prepared.request
    at = prepared.success_at
    eats = prepared.ones_cancel
    standing: list[int] = []
    capped = False
    round_ = 0
    drawn = 0
    start = 0
    dice = _round0(feed, prepared.dice, pool_dice, _round0_dice(at, 10, True))
    while True:
        end = len(dice)
        if eats:
            standing += [index for index in range(start, end) if dice[index][4]]
            for one in [index for index in range(start, end) if dice[index][0] == 1]:
                place = _fistful_victim(dice, standing, round_)
                if place is None:
                    continue
                victim = standing.pop(place)
                # A success eaten in its own round grants no die; an earlier one already has.
                explodes = dice[victim][5] and dice[victim][1] != round_
                _link(dice, one, victim, Fate.CANCELS, fate=Fate.CANCELLED, successes=0,
                      explodes=explodes)
        # The round's 10s are marked as granters when read, and unmarked when eaten.
        granters = sum(map(_explodes_of, dice[start:end]))
        if not granters or capped:
            break
        if drawn + granters > MAX_EXTRA:
            marked = [index for index in range(start, end) if dice[index][5]]
            granters = len(_cap(dice, marked, drawn))
            capped = True
        drawn += granters
        round_ += 1
        start = end
        table = _dice_of(round_, _EXTRA, at, None if capped else 10, ones=True)
        dice += [table[face] for face in feed.take(round_, granters)]
    feed.void(dice)
    # Every success counts 1 in `fistful`; when 1s eat, the ones left standing.
    successes = len(standing) if eats else sum(map(_successes_of, dice))
    need_met = successes >= rules.need if rules.need is not None else None
    if successes:
        return _result(
            prepared, request, will, dice, capped, outcome=Outcome.SUCCESS,
            successes=successes, dice_successes=successes, need_met=need_met,
        )
    ones = sum(1 for die in dice if die[3] is Fate.ONE)
    if ones and not rules.no_botch:
        return _result(
            prepared, request, will, dice, capped, outcome=Outcome.BOTCH, botch_degree=ones,
            need_met=need_met,
        )
    return _result(prepared, request, will, dice, capped, outcome=Outcome.FAILURE,
                   need_met=need_met)


def _fistful_victim(dice: list[Die], standing: list[int], round_: int) -> int | None:
    """Where in ``standing`` is the success a `fistful` 1 eats.

    The 1's own round's 10s go first (so they grant no die), then the highest
    face; among equal faces the earliest drawn (display only: the count does
    not depend on which die is eaten).
    """
    best: int | None = None
    best_key = (False, 0)
    for place, index in enumerate(standing):
        die = dice[index]
        key = (die[1] == round_ and die[0] == 10, die[0])
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
