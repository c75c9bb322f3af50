"""Single rolls, read exactly by the three rulesets (RULES.md §1–§4).

:func:`roll` is a pure function of (request, face stream). Faces are drawn in
the order RULES.md §0 fixes: round 0 left to right, then `cofd` rote
replacements, then each round of extra dice. :func:`spend_will` re-reads a
finished roll with Willpower added after the fact: faces already seen keep
their places (a queue per draw slot serves them again before any fresh face
is drawn), so spending after the roll has exactly the odds of declaring Will
up front.

A roll is on every command's hot path, so a reading builds the final
:class:`~engine.models.Die` tuples straight away: each face is looked up in a
per-rule table of ready-made dice (:func:`_dice_of`; a die is an immutable
tuple, so results share them), and only the few dice whose reading changes
afterwards (a 1 that cancels, a die rerolled by rote, a granter past the cap)
are rebuilt, in place, by index. Valid requests are prepared once, with their
reading and dice tables (:class:`_Plan`, held by :func:`_prepare`), and the result
is built field by field without validation (every value is the engine's own).
``tests/engine/test_roll_differential.py`` holds these paths to the engine as it
was before them, request by request; BENCHMARKS.md §3 has what each one is worth.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import deque
from collections.abc import Callable, Iterable, Sequence
from functools import cache, lru_cache, partial
from operator import itemgetter
from typing import Any, NamedTuple

from engine.constants import EXCEPTIONAL_AT, MAX_EXTRA, WILL_DICE
from engine.faces import FaceSource
from engine.frozen import trusted_builder
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


# Enum members named once: CPython 3.11 reads ``Fate.SUCCESS`` through the slow path
# ``EnumType.__getattr__`` puts every class attribute on (about 0.13 µs, more than reading
# a die costs), and the readings below name one for nearly every die they rebuild.
_DIE_SUCCESS, _DIE_FAILURE, _DIE_ONE = Fate.SUCCESS, Fate.FAILURE, Fate.ONE
_DIE_CANCELS, _DIE_CANCELLED, _DIE_REPLACED = Fate.CANCELS, Fate.CANCELLED, Fate.REPLACED
_SUCCESS, _EXCEPTIONAL, _FAILURE = Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS, Outcome.FAILURE
_DRAMATIC_FAILURE, _BOTCH = Outcome.DRAMATIC_FAILURE, Outcome.BOTCH
_NO_WILL, _WILL_DECLARED = WillUse.NONE, WillUse.DECLARED
_POOL_DIE = DieKind.POOL

#: :meth:`Degree.of` answered once per net (it lists the enum each time it is called).
_degree = cache(Degree.of)


def _changed(die: Die, fate: Fate, successes: int, explodes: bool, pair: int | None) -> Die:
    return _new_die((die[0], die[1], die[2], fate, successes, explodes, pair))


class _Plan(NamedTuple):
    """A prepared request with what reading its faces takes, looked up once per request."""

    prepared: Prepared
    read: _Reader
    """The reading of its ruleset (a `cofd` chance die has its own)."""
    pool: _Dice
    """Round 0's pool dice (the chance die; `v20`'s only dice)."""
    will: _Dice
    """Round 0's Willpower dice."""


#: A reading: (plan, feed, the request as given, Will, how many round-0 dice are the
#: pool's); the readings with no Willpower dice (`v20`, the chance die) ignore the last.
_Reader = Callable[[_Plan, "_Feed", RollRequest, WillUse, int], RollResult]


#: Plans of prepared requests by :func:`_key` (None for a refusal, worked out afresh each
#: time: it holds a dict). A table rolls the same few pools again and again; emptied when full.
_PREPARED: dict[tuple[Any, ...], _Plan | None] = {}
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
    One flat tuple: each term and adjustment is the tuple of its values, and the
    request's own values follow (the first a :class:`Ruleset`, not a tuple); with
    adjustments, the number of terms leads (an int, not a tuple), so where the terms end
    and the adjustments begin is never in doubt. Field values are all that
    :func:`~engine.prepare.prepare` reads of a term or an adjustment.
    """
    values = request.__dict__
    terms, adjustments = values["terms"], values["adjustments"]
    if type(terms) is not tuple or type(adjustments) is not tuple:
        raise TypeError  # built without validation: not cached
    if adjustments:
        return (
            len(terms),
            *[_term_values(term.__dict__) for term in terms],
            *[_adjustment_values(adj.__dict__) for adj in adjustments],
            *_request_values(values),
        )
    return (*[_term_values(term.__dict__) for term in terms], *_request_values(values))


def _prepare(request: RollRequest) -> _Plan | Refusal:
    """:func:`~engine.prepare.prepare` and :func:`_plan`, once per distinct valid request."""
    try:
        key = _key(request)
        plan = _PREPARED.get(key, _MISS)
    except (AttributeError, KeyError, TypeError):  # not built by validation: not cached
        return _planned(prepare(request))
    if plan is _MISS:
        plan = _planned(prepare(request))
        if len(_PREPARED) >= _PREPARED_MAX:
            _PREPARED.clear()
        _PREPARED[key] = None if isinstance(plan, Refusal) else plan
        return plan
    if plan is None:
        return _planned(prepare(request))
    return plan  # type: ignore[no-any-return]


def _planned(prepared: Prepared | Refusal) -> _Plan | Refusal:
    return prepared if isinstance(prepared, Refusal) else _plan(prepared)


def _plan(prepared: Prepared) -> _Plan:
    """The reading and the round-0 dice tables of a prepared request."""
    ruleset = prepared.request.ruleset
    at = prepared.success_at
    if ruleset is Ruleset.COFD:
        if prepared.breakdown.chance:
            chance = _dice_of(0, _CHANCE, 10)
            return _Plan(prepared, _read_chance, chance, chance)
        return _Plan(prepared, _read_cofd, *_round0_dice(at, prepared.explode_at, False))
    if ruleset is Ruleset.V20:
        dice = _dice_of(0, _POOL, at, None, ones=True)
        return _Plan(prepared, _read_v20, dice, dice)
    return _Plan(prepared, _read_fistful, *_round0_dice(at, 10, True))


_NONE_OLD: dict[int, deque[int]] = {}
"""No earlier faces (a fresh roll); never written to: only queues it holds are popped."""
_NONE_ROTE: dict[int, int] = {}
"""No earlier rote replacements (a fresh roll); never written to: only the ones it holds
are popped."""


class _Feed:
    """Hands out faces per draw slot: earlier faces of that slot first, then fresh ones.

    Rote replacements are kept by the round-0 position of the die they
    replaced, not in a queue: a die that no longer needs its replacement (a
    chance die's 8 read as an ordinary success) leaves it void rather than
    passing it to the next failing die.
    """

    __slots__ = ("_draw", "_old", "_rote", "round0")

    def __init__(
        self,
        source: FaceSource,
        old: dict[int, deque[int]] = _NONE_OLD,
        rote: dict[int, int] = _NONE_ROTE,
    ) -> None:
        self._draw = source.draw
        self._old = old
        self._rote = rote
        #: ``take(_ROUND0, count)``; on a fresh roll the source's own ``draw``, called
        #: straight away (every roll draws round 0).
        self.round0: Callable[[int], list[int]] = (
            self._draw if old is _NONE_OLD else partial(self.take, _ROUND0)
        )

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


def _round0(feed: _Feed, count: int, pool_dice: int, plan: _Plan) -> list[Die]:
    """Draw round 0: the first ``pool_dice`` dice are the pool's, the rest Willpower's.

    With Will on a pool below 3 dice every die is counted as Willpower's.
    """
    faces = feed.round0(count)
    if pool_dice >= count:
        return list(map(plan.pool.__getitem__, faces))
    pool_dice = max(0, pool_dice)
    return [*map(plan.pool.__getitem__, faces[:pool_dice]),
            *map(plan.will.__getitem__, faces[pool_dice:])]


def roll(request: RollRequest, source: FaceSource) -> RollResult:
    """Roll a request, drawing faces from ``source``; refusals roll nothing."""
    plan: _Plan | Refusal | None
    try:
        plan = _PREPARED[_key(request)]
    except (AttributeError, KeyError, TypeError):
        plan = None
    if plan is None:  # a request not held: seen first, refused, or built without validation
        plan = _prepare(request)
        if not isinstance(plan, _Plan):
            return RollResult(request=request, outcome=Outcome.REFUSED, refusal=plan)
    if request.will:
        return plan.read(plan, _Feed(source), request, _WILL_DECLARED,
                         plan.prepared.dice - WILL_DICE)
    return plan.read(plan, _Feed(source), request, _NO_WILL, plan.prepared.dice)


_new_result = trusted_builder(RollResult)

#: What each reading sets itself (``model_fields_set``), beside what every one sets.
_SET_ALWAYS = frozenset({"request", "breakdown", "will", "dice", "capped"})
_SET_COUNTED = _SET_ALWAYS | {"outcome", "successes", "dice_successes"}
_SET_AUTOMATIC = _SET_ALWAYS | {"outcome", "successes", "degree", "automatic"}
_SET_DEGREE = _SET_COUNTED | {"degree"}
_SET_FAILED = _SET_ALWAYS | {"outcome", "dice_successes"}
_SET_NEED = _SET_COUNTED | {"need_met"}
_SET_BOTCH = _SET_ALWAYS | {"outcome", "botch_degree", "need_met"}
_SET_NEED_FAILED = _SET_ALWAYS | {"outcome", "need_met"}


def _result(
    plan: _Plan, request: RollRequest, will: WillUse, dice: list[Die], capped: bool, *,
    fields_set: frozenset[str], outcome: Outcome, successes: int = 0, dice_successes: int = 0,
    botch_degree: int | None = None, degree: Degree | None = None, automatic: bool = False,
    need_met: bool | None = None,
) -> RollResult:
    """The result, every field spelled out in declaration order (its ``repr`` follows it);
    ``fields_set`` names the ones the reading set, as if it had passed only those."""
    return _new_result(
        {
            "request": request,
            "outcome": outcome,
            "successes": successes,
            "dice_successes": dice_successes,
            "botch_degree": botch_degree,
            "degree": degree,
            "dice": tuple(dice),
            "breakdown": plan.prepared.breakdown,
            "will": will,
            "automatic": automatic,
            "capped": capped,
            "beat": False,
            "need_met": need_met,
            "refusal": None,
        },
        set(fields_set),
    )


# --- Chronicles of Darkness -------------------------------------------------------------


def _read_cofd(
    plan: _Plan, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    prepared = plan.prepared
    rules = prepared.request
    at = prepared.success_at
    explode_at = prepared.explode_at
    dice = _round0(feed, prepared.dice, pool_dice, plan)
    rerolled = _rote(dice, feed, at, explode_at) if rules.rote else None
    capped = False
    if explode_at is not None:
        # The granters are marked when read; a die rerolled by rote failed, so is not one.
        granters = sum(map(_explodes_of, dice))
        if granters:
            positions = range(len(dice)) if rerolled is None else rerolled
            capped = _extra_rounds(dice, feed, positions, granters, explode_at=explode_at, at=at)
    feed.void(dice)
    dice_successes = sum(map(_successes_of, dice))
    threshold = rules.exceptional_at if rules.exceptional_at is not None else EXCEPTIONAL_AT
    if dice_successes == 0:
        outcome = _FAILURE
    elif dice_successes >= threshold:
        outcome = _EXCEPTIONAL
    else:
        outcome = _SUCCESS
    total = dice_successes + rules.extra if dice_successes else 0
    return _result(plan, request, will, dice, capped, fields_set=_SET_COUNTED, outcome=outcome,
                   successes=total, dice_successes=dice_successes)


def _rote(dice: list[Die], feed: _Feed, at: int, explode_at: int | None) -> list[int]:
    """Reroll each failed round-0 die once (`cofd` rote); where each round-0 die now is."""
    positions = list(range(len(dice)))
    table = _dice_of(0, _ROTE_DIE, at, explode_at)
    for place in range(len(positions)):
        if dice[place][3] is _DIE_FAILURE:
            new = table[feed.replacement(place)]
            index = len(dice)
            dice.append(new)
            _link(dice, place, index, _DIE_REPLACED, fate=new[3], successes=new[4],
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
            dice += map(_dice_of(round_, _EXTRA, at).__getitem__, faces)
            return True
        new = list(map(_dice_of(round_, _EXTRA, at, explode_at).__getitem__, faces))
        granters = sum(map(_explodes_of, new))
        order = range(len(dice), len(dice) + len(new))
        dice += new
        round_ += 1
    return False


def _read_chance(
    plan: _Plan, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    """One chance die: 10 succeeds (no again), 1 is a dramatic failure; rote rerolls a 2–9."""
    prepared = plan.prepared
    (face,) = feed.round0(1)
    dice = [plan.pool[face]]
    last = 0
    if prepared.request.rote and 2 <= dice[0][0] <= 9:
        reroll = _dice_of(0, _ROTE_DIE, 10)[feed.replacement(0)]
        dice.append(reroll)
        _link(dice, 0, 1, _DIE_REPLACED, fate=reroll[3], successes=reroll[4],
              explodes=reroll[5])
        last = 1
    outcome = _FAILURE
    die = dice[last]
    if die[4]:
        outcome = _SUCCESS
    elif die[0] == 1:
        dice[last] = _changed(die, _DIE_ONE, die[4], die[5], die[6])
        outcome = _DRAMATIC_FAILURE
    feed.void(dice)
    dice_successes = die[4]
    total = dice_successes + prepared.request.extra if dice_successes else 0
    return _result(plan, request, will, dice, False, fields_set=_SET_COUNTED, outcome=outcome,
                   successes=total, dice_successes=dice_successes)


# --- Classic World of Darkness ----------------------------------------------------------


def _read_v20(
    plan: _Plan, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    """Every die is a round-0 pool die that never explodes: a success at the difficulty or
    more (a specialty 10 counts 2), each 1 cancels a success."""
    prepared = plan.prepared
    rules = prepared.request
    if rules.auto:
        return _result(plan, request, will, [], False, fields_set=_SET_AUTOMATIC,
                       outcome=Outcome.SUCCESS, successes=1, degree=Degree.MARGINAL,
                       automatic=True)
    faces = feed.round0(prepared.dice)
    dice = list(map(plan.pool.__getitem__, faces))
    # The faces sorted once: they count the successes and order the cancellations.
    ordered = sorted(faces)
    successes = ordered[bisect_left(ordered, prepared.success_at):]
    rolled = len(successes)
    if rules.specialty:
        for index, face in enumerate(faces):
            if face == 10:
                dice[index] = _changed(dice[index], _DIE_SUCCESS, 2, False, None)
                rolled += 1
    ones = faces.count(1)
    if ones and rolled:
        _cancel(dice, faces, successes, ones)
    feed.void(dice)
    net = max(0, rolled - ones) + (1 if rules.will else 0)
    if net:
        return _result(plan, request, will, dice, False, fields_set=_SET_DEGREE,
                       outcome=_SUCCESS, successes=net, dice_successes=rolled,
                       degree=_degree(net))
    outcome = _BOTCH if ones and not rolled else _FAILURE
    return _result(plan, request, will, dice, False, fields_set=_SET_FAILED, outcome=outcome,
                   dice_successes=rolled)


def _cancel(dice: list[Die], faces: list[int], successes: list[int], ones: int) -> None:
    """Link each `v20` 1, in draw order, to the success it cancels (display only).

    A 1 cancels the lowest face that has a success left, the earliest drawn among
    equal faces: ``successes`` (the successful faces, sorted) are walked in that
    order, each taking the next 1s drawn, one per success its die counts (a
    specialty 10 counts 2, so two 1s may cancel it). Both dice are built here
    from what every `v20` die shares (round 0, a pool die, never exploding):
    65 % of 10-die rolls at difficulty 6 cancel something.
    """
    victim = one = -1
    previous = 0
    for face in successes:
        # The next die of this face, in draw order (the first one when the face is new).
        victim = faces.index(face, victim + 1 if face == previous else 0)
        previous = face
        for remaining in range(dice[victim][4] - 1, -1, -1):
            one = faces.index(1, one + 1)
            dice[one] = _new_die((1, 0, _POOL_DIE, _DIE_CANCELS, 0, False, victim))
            dice[victim] = _new_die((face, 0, _POOL_DIE,
                                     _DIE_SUCCESS if remaining else _DIE_CANCELLED, remaining,
                                     False, one))
            ones -= 1
            if not ones:
                return


# --- Fist Full of Dice --------------------------------------------------------------------


def _read_fistful(
    plan: _Plan, feed: _Feed, request: RollRequest, will: WillUse, pool_dice: int
) -> RollResult:
    prepared = plan.prepared
    rules = prepared.request
    at = prepared.success_at
    eats = prepared.ones_cancel
    standing: list[int] = []
    capped = False
    round_ = 0
    drawn = 0
    start = 0
    dice = _round0(feed, prepared.dice, pool_dice, plan)
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
                _link(dice, one, victim, _DIE_CANCELS, fate=_DIE_CANCELLED, successes=0,
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
        table = _dice_of(round_, _EXTRA, at, None if capped else 10, True)
        dice += map(table.__getitem__, feed.take(round_, granters))
    feed.void(dice)
    # Every success counts 1 in `fistful`; when 1s eat, the ones left standing.
    successes = len(standing) if eats else sum(map(_successes_of, dice))
    need_met = successes >= rules.need if rules.need is not None else None
    if successes:
        return _result(plan, request, will, dice, capped, fields_set=_SET_NEED,
                       outcome=_SUCCESS, successes=successes,
                       dice_successes=successes, need_met=need_met)
    ones = sum(1 for die in dice if die[3] is _DIE_ONE)
    if ones and not rules.no_botch:
        return _result(plan, request, will, dice, capped, fields_set=_SET_BOTCH,
                       outcome=_BOTCH, botch_degree=ones, need_met=need_met)
    return _result(plan, request, will, dice, capped, fields_set=_SET_NEED_FAILED,
                   outcome=_FAILURE, need_met=need_met)


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
    plan = _plan(prepared)
    return plan.read(plan, _Feed(source, old, rote), result.request, WillUse.AFTER,
                     len(round0))


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
