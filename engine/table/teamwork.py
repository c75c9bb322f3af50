"""Teamwork: helpers roll first, then the primary rolls with their bonus.

`cofd` (RULES.md §1): each helper success is +1 die for the primary; any
helper's dramatic failure is −4 dice, once however many failed dramatically.
`fistful` (§3, **Decision**): the same, with a botch in place of a dramatic
failure. `v20` (§2): the helpers' net successes add dice; the Storyteller may
set a helper limit, and for each helper beyond it every roll in the teamwork
has +1 difficulty, cumulative.

**Decision** (the helper limit): the helpers roll one after another, so
helper k rolls with the penalty of the k helpers so far, and the primary with
the penalty of all of them; a roll already made is never re-rolled. A helper
who would raise the primary's difficulty to 10 or more cannot join (RULES.md
§2: such an action cannot be taken).

Flow: :func:`start`; per helper :func:`helper_request`, roll it,
:func:`add_helper` (and :func:`revise_helper` when the helper spends Will after
the roll or takes a Beat); then :func:`primary_request` and roll it. The store
ends the teamwork once the primary has rolled.
"""

from __future__ import annotations

from typing import Final

from pydantic import Field

from engine.constants import DIFFICULTY, DIFFICULTY_RANGE
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Frozen,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
)
from engine.roll import RuleError
from engine.table._adjust import replace_adjustments

#: Dice the primary loses when any helper fails dramatically (`cofd`) or botches (`fistful`).
HELPER_FAILURE_DICE: Final = -4

_TEAMWORK_KINDS = frozenset(
    {AdjustmentKind.TEAMWORK, AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, AdjustmentKind.HELPER_LIMIT}
)
_HELPER_FAILURE = {Ruleset.COFD: Outcome.DRAMATIC_FAILURE, Ruleset.FISTFUL: Outcome.BOTCH}


class Helper(Frozen):
    """One helper's roll."""

    member_id: int
    result: RollResult


class TeamworkState(Frozen):
    """A teamwork in progress: the primary's request and the helpers' rolls, in order."""

    request: RollRequest
    """The primary's request as declared, before any teamwork adjustment."""
    primary_id: int
    helper_limit: int | None = Field(default=None, ge=0)
    """`v20` only: helpers beyond this many raise every roll's difficulty by 1 each."""
    helpers: tuple[Helper, ...] = ()


def start(request: RollRequest, primary_id: int, helper_limit: int | None = None) -> TeamworkState:
    """Open a teamwork for the primary's ``request``."""
    if helper_limit is not None:
        if request.ruleset is not Ruleset.V20:
            raise RuleError(f"a helper limit is a v20 rule; this channel uses {request.ruleset}")
        if helper_limit < 0:
            raise RuleError(f"the helper limit is 0 or more, not {helper_limit}")
    return TeamworkState(request=request, primary_id=primary_id, helper_limit=helper_limit)


def _excess(state: TeamworkState, helpers: int) -> int:
    """Helpers beyond the limit when there are ``helpers`` of them."""
    if state.helper_limit is None:
        return 0
    return max(0, helpers - state.helper_limit)


def _limit(excess: int) -> tuple[Adjustment, ...]:
    return (Adjustment(kind=AdjustmentKind.HELPER_LIMIT, difficulty=excess),) if excess else ()


def _check_can_help(state: TeamworkState, member_id: int) -> None:
    if member_id == state.primary_id:
        raise RuleError("the primary actor cannot help their own roll")
    if any(helper.member_id == member_id for helper in state.helpers):
        raise RuleError("this member has already helped: one roll per helper")


def helper_request(state: TeamworkState, member_id: int, request: RollRequest) -> RollRequest:
    """The request the next helper rolls: their own pool, with the helper limit applied.

    Raises :class:`RuleError` before anything is rolled when the member may
    not help, or when one more helper would raise the primary's difficulty to
    10 or more.
    """
    _check_can_help(state, member_id)
    if request.ruleset is not state.request.ruleset:
        raise RuleError(
            f"the helper's roll is {request.ruleset}, but the teamwork is {state.request.ruleset}"
        )
    excess = _excess(state, len(state.helpers) + 1)
    if excess:
        primary = state.request
        base = primary.difficulty if primary.difficulty is not None else DIFFICULTY
        raised = sum(adj.difficulty for adj in primary.adjustments) + excess
        if base + raised >= DIFFICULTY_RANGE[1]:
            raise RuleError(
                f"one more helper would raise the primary's difficulty to {base + raised}, "
                f"and an action raised to {DIFFICULTY_RANGE[1]} or more cannot be attempted"
            )
    return replace_adjustments(request, {AdjustmentKind.HELPER_LIMIT}, _limit(excess))


def add_helper(state: TeamworkState, member_id: int, result: RollResult) -> TeamworkState:
    """Record a helper's roll (rolled from :func:`helper_request`)."""
    _check_can_help(state, member_id)
    if result.refused:
        raise RuleError(f"the helper's roll did not happen: {result.message}")
    if helper_request(state, member_id, result.request) != result.request:
        msg = "a helper's roll must be rolled from helper_request (the helper limit applies)"
        raise ValueError(msg)
    return state.model_copy(
        update={"helpers": (*state.helpers, Helper(member_id=member_id, result=result))}
    )


def revise_helper(state: TeamworkState, member_id: int, result: RollResult) -> TeamworkState:
    """Replace a helper's roll by a new reading of it (Will after the roll, Take a Beat)."""
    for place, helper in enumerate(state.helpers):
        if helper.member_id == member_id:
            if helper.result.request != result.request:
                msg = "a revised helper roll must be a new reading of the same request"
                raise ValueError(msg)
            helpers = list(state.helpers)
            helpers[place] = Helper(member_id=member_id, result=result)
            return state.model_copy(update={"helpers": tuple(helpers)})
    raise RuleError("this member has not helped yet")


def bonus(state: TeamworkState) -> tuple[Adjustment, ...]:
    """Every adjustment the helpers give the primary's roll, so far.

    A helper's successes are their roll's total (`cofd` extra successes and the
    `v20` Willpower success included), as a contest counts them.
    """
    ruleset = state.request.ruleset
    successes = sum(helper.result.successes for helper in state.helpers)
    adjustments = [Adjustment(kind=AdjustmentKind.TEAMWORK, dice=successes)] if successes else []
    failure = _HELPER_FAILURE.get(ruleset)
    if failure is not None and any(h.result.outcome is failure for h in state.helpers):
        adjustments.append(
            Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=HELPER_FAILURE_DICE)
        )
    adjustments += _limit(_excess(state, len(state.helpers)))
    return tuple(adjustments)


def primary_request(state: TeamworkState) -> RollRequest:
    """The primary's request with the bonus and penalties of every helper so far."""
    return replace_adjustments(state.request, _TEAMWORK_KINDS, bonus(state))
