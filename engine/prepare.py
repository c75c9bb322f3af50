"""Validate a roll request and work out the pool, once, for rolls and odds alike.

:func:`prepare` answers either a :class:`Prepared` (what exactly gets rolled
and how each face is read) or the :class:`~engine.refusals.Refusal` of the request. Rolling
(:mod:`engine.roll`) and exact odds (:mod:`engine.odds`) both start here, so
they can never disagree about what a request means.
"""

from __future__ import annotations

from typing import NamedTuple

from engine.constants import (
    DIFFICULTY,
    DIFFICULTY_RANGE,
    EXCEPTIONAL_AT,
    EXCEPTIONAL_RANGE,
    MAX_POOL,
    MAX_TARGET,
    WILL_DICE,
)
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Again,
    Breakdown,
    RollRequest,
    Ruleset,
    SkillCategory,
)
from engine.refusals import Refusal, RefusalCode, names

#: Which ruleset each option belongs to. ``will`` belongs to all of them.
OPTION_RULESETS: dict[str, frozenset[Ruleset]] = {
    "again": frozenset({Ruleset.COFD}),
    "rote": frozenset({Ruleset.COFD}),
    "resist": frozenset({Ruleset.COFD}),
    "extra": frozenset({Ruleset.COFD}),
    "exceptional_at": frozenset({Ruleset.COFD}),
    "specialty": frozenset({Ruleset.COFD, Ruleset.V20}),
    "untrained": frozenset({Ruleset.COFD, Ruleset.FISTFUL}),
    "difficulty": frozenset({Ruleset.V20}),
    "auto": frozenset({Ruleset.V20}),
    "risky": frozenset({Ruleset.FISTFUL}),
    "initiative": frozenset({Ruleset.FISTFUL}),
    "no_botch": frozenset({Ruleset.FISTFUL}),
    "need": frozenset({Ruleset.FISTFUL}),
}

_UNTRAINED_DICE = {
    SkillCategory.MENTAL: -3,
    SkillCategory.PHYSICAL: -1,
    SkillCategory.SOCIAL: -1,
}

_AGAIN_AT = {Again.TEN: 10, Again.NINE: 9, Again.EIGHT: 8, Again.NONE: None}


class Prepared(NamedTuple):
    """What a valid request rolls, and how each face is read."""

    request: RollRequest
    breakdown: Breakdown
    dice: int
    """Dice rolled in round 0 (1 for a `cofd` chance die, 0 for a `v20` automatic success)."""
    success_at: int
    """Lowest face that is a success."""
    explode_at: int | None
    """Lowest face that grants an extra die, or None when nothing explodes."""
    ones_cancel: bool
    """`v20` always; `fistful` when unskilled or risky."""


_FOREIGN = {
    ruleset: tuple(name for name, owners in OPTION_RULESETS.items() if ruleset not in owners)
    for ruleset in Ruleset
}


def _given(request: RollRequest, name: str) -> bool:
    return getattr(request, name) not in (None, False, 0)


def foreign_options(request: RollRequest) -> list[str]:
    """The options the request sets that its ruleset does not have."""
    return [name for name in _FOREIGN[request.ruleset] if _given(request, name)]


def _out_of_range(name: str, value: int, low: int, high: int) -> Refusal | None:
    if low <= value <= high:
        return None
    return Refusal.of(RefusalCode.OUT_OF_RANGE, option=name, value=value, low=low, high=high)


def _option_adjustments(request: RollRequest) -> list[Adjustment]:
    """Dice adjustments that come from the request's own options."""
    adjustments: list[Adjustment] = []
    if request.ruleset is Ruleset.COFD:
        if request.specialty:
            adjustments.append(Adjustment(kind=AdjustmentKind.SPECIALTY, dice=1))
        if request.untrained is not None:
            adjustments.append(
                Adjustment(kind=AdjustmentKind.UNTRAINED, dice=_UNTRAINED_DICE[request.untrained])
            )
        if request.resist:
            adjustments.append(Adjustment(kind=AdjustmentKind.RESISTANCE, dice=-request.resist))
    return adjustments


def prepare(request: RollRequest) -> Prepared | Refusal:
    """Check a request against its ruleset; answer what to roll or why not."""
    foreign = foreign_options(request)
    if foreign:
        return Refusal.of(
            RefusalCode.OPTION_NOT_IN_RULESET, options=names(foreign), ruleset=request.ruleset.value
        )

    adjustments = [*_option_adjustments(request), *request.adjustments]
    pool = request.base + sum(adj.dice for adj in adjustments)
    if request.will:
        adjustments.append(Adjustment(kind=AdjustmentKind.WILLPOWER, dice=WILL_DICE)
                           if request.ruleset is not Ruleset.V20
                           else Adjustment(kind=AdjustmentKind.WILLPOWER))
    if request.ruleset is Ruleset.COFD:
        return _prepare_cofd(request, adjustments, pool)
    if request.ruleset is Ruleset.V20:
        return _prepare_v20(request, adjustments, pool)
    return _prepare_fistful(request, adjustments, pool)


def _too_many(dice: int) -> Refusal | None:
    if dice > MAX_POOL:
        return Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=dice, max=MAX_POOL)
    return None


def _prepare_cofd(
    request: RollRequest, adjustments: list[Adjustment], pool: int
) -> Prepared | Refusal:
    threshold = request.exceptional_at if request.exceptional_at is not None else EXCEPTIONAL_AT
    problem = (
        _out_of_range("exceptional_at", threshold, *EXCEPTIONAL_RANGE)
        or _out_of_range("extra", request.extra, 0, MAX_POOL)
        or _out_of_range("resist", request.resist, 0, MAX_POOL)
    )
    if problem:
        return problem
    final = pool + (WILL_DICE if request.will else 0)
    if request.will and final < 1:
        return Refusal.of(RefusalCode.WILL_CANNOT_HELP, pool=pool, will_dice=WILL_DICE)
    problem = _too_many(final)
    if problem:
        return problem
    chance = final < 1
    again = request.again or Again.TEN
    return Prepared(
        request=request,
        breakdown=Breakdown.trusted(
            terms=request.terms, adjustments=tuple(adjustments), dice=final, chance=chance
        ),
        dice=1 if chance else final,
        success_at=10 if chance else 8,
        explode_at=None if chance else _AGAIN_AT[again],
        ones_cancel=False,
    )


def _prepare_v20(
    request: RollRequest, adjustments: list[Adjustment], pool: int
) -> Prepared | Refusal:
    base_difficulty = request.difficulty if request.difficulty is not None else DIFFICULTY
    problem = _out_of_range("difficulty", base_difficulty, *DIFFICULTY_RANGE)
    if problem:
        return problem
    raised = sum(adj.difficulty for adj in adjustments)
    difficulty = base_difficulty + raised
    if difficulty < DIFFICULTY_RANGE[0]:
        return Refusal.of(
            RefusalCode.DIFFICULTY_TOO_LOW, difficulty=difficulty, low=DIFFICULTY_RANGE[0]
        )
    if raised and difficulty >= DIFFICULTY_RANGE[1]:
        return Refusal.of(
            RefusalCode.DIFFICULTY_TOO_HIGH, difficulty=difficulty, base=base_difficulty,
            raised=raised, high=DIFFICULTY_RANGE[1],
        )
    if pool <= 0:
        code = RefusalCode.NO_DICE_WITH_WILL if request.will else RefusalCode.NO_DICE
        return Refusal.of(code, pool=pool)
    problem = _too_many(pool)
    if problem:
        return problem
    if request.auto:
        if request.will:
            return Refusal.of(RefusalCode.AUTO_WITH_WILL)
        if pool < difficulty:
            return Refusal.of(RefusalCode.AUTO_BELOW_DIFFICULTY, pool=pool, difficulty=difficulty)
    return Prepared(
        request=request,
        breakdown=Breakdown.trusted(
            terms=request.terms, adjustments=tuple(adjustments), dice=pool, difficulty=difficulty
        ),
        dice=0 if request.auto else pool,
        success_at=difficulty,
        explode_at=None,
        ones_cancel=True,
    )


def _prepare_fistful(
    request: RollRequest, adjustments: list[Adjustment], pool: int
) -> Prepared | Refusal:
    if request.need is not None:
        problem = _out_of_range("need", request.need, 1, MAX_TARGET)
        if problem:
            return problem
    if pool <= 0:
        code = RefusalCode.NO_ACTION_NOW_WITH_WILL if request.will else RefusalCode.NO_ACTION_NOW
        return Refusal.of(code, pool=pool)
    final = pool + (WILL_DICE if request.will else 0)
    problem = _too_many(final)
    if problem:
        return problem
    return Prepared(
        request=request,
        breakdown=Breakdown.trusted(
            terms=request.terms, adjustments=tuple(adjustments), dice=final
        ),
        dice=final,
        success_at=6 if request.initiative else 8,
        explode_at=10,
        ones_cancel=request.untrained is not None or request.risky,
    )
