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
the roll or takes a Beat); then :func:`primary_request` and roll it.

The saved action is a :class:`TeamworkAction`: the :class:`TeamworkState`
with the names its card shows, the primary's roll and a :class:`Status`, moved
only by its transitions (:func:`helped`, :func:`revised`, :func:`rolled`,
:func:`cancelled`, :func:`scene_ended`). Every move on a teamwork that is not
open, or by a member the move is not theirs, is refused by :func:`blocked`
(the transitions check it again)::

    open --helped/revised--> open
    open --rolled--> rolled --revised (the primary's roll)--> rolled
    open --cancelled--> cancelled
    open --scene_ended--> scene_ended

The primary's roll offers Spend Will and Take a Beat as any roll does (RULES.md §1,
§4): :func:`revised` reads it again, and the teamwork's result follows it.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Final, Literal

from pydantic import Field

from engine.constants import DIFFICULTY, DIFFICULTY_RANGE
from engine.frozen import Frozen
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
)
from engine.prepare import prepare
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError
from engine.table._adjust import replace_adjustments

#: Dice the primary loses when any helper fails dramatically (`cofd`) or botches (`fistful`).
HELPER_FAILURE_DICE: Final = -4

_TEAMWORK_KINDS = frozenset(
    {AdjustmentKind.TEAMWORK, AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, AdjustmentKind.HELPER_LIMIT}
)
_HELPER_FAILURE = {Ruleset.COFD: Outcome.DRAMATIC_FAILURE, Ruleset.FISTFUL: Outcome.BOTCH}
#: Refusals of the primary's pool that the helpers' successes (dice) may lift.
_HELPERS_MAY_LIFT = frozenset({
    RefusalCode.NO_DICE, RefusalCode.NO_DICE_WITH_WILL, RefusalCode.NO_ACTION_NOW,
    RefusalCode.NO_ACTION_NOW_WITH_WILL, RefusalCode.WILL_CANNOT_HELP,
    RefusalCode.AUTO_BELOW_DIFFICULTY,
})


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
    """Open a teamwork for the primary's ``request``.

    A request that could not be rolled is refused, unless the helpers' dice could still
    make it rollable (a pool of 0 or less in `v20` or `fistful`: only the final pool
    matters, RULES.md §0); the card says why it cannot be rolled until then.
    """
    prepared = prepare(request)
    if isinstance(prepared, Refusal) and prepared.code not in _HELPERS_MAY_LIFT:
        raise RuleError(prepared)
    if helper_limit is not None:
        if request.ruleset is not Ruleset.V20:
            raise RuleError(
                Refusal.of(
                    RefusalCode.HELPER_LIMIT_NOT_V20,
                    option="helper_limit", ruleset=request.ruleset.value,
                )
            )
        if helper_limit < 0:
            raise RuleError(Refusal.of(RefusalCode.HELPER_LIMIT_NEGATIVE, limit=helper_limit))
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
        raise RuleError(Refusal.of(RefusalCode.PRIMARY_CANNOT_HELP))
    if any(helper.member_id == member_id for helper in state.helpers):
        raise RuleError(Refusal.of(RefusalCode.ALREADY_HELPED))


def helper_request(state: TeamworkState, member_id: int, request: RollRequest) -> RollRequest:
    """The request the next helper rolls: their own pool, with the helper limit applied.

    Raises :class:`RuleError` before anything is rolled when the member may
    not help, or when one more helper would raise the primary's difficulty to
    10 or more.
    """
    _check_can_help(state, member_id)
    if request.ruleset is not state.request.ruleset:
        raise RuleError(
            Refusal.of(
                RefusalCode.HELPER_RULESET,
                rolled=request.ruleset.value, ruleset=state.request.ruleset.value,
            )
        )
    excess = _excess(state, len(state.helpers) + 1)
    if excess:
        primary = state.request
        base = primary.difficulty if primary.difficulty is not None else DIFFICULTY
        raised = sum(adj.difficulty for adj in primary.adjustments) + excess
        if base + raised >= DIFFICULTY_RANGE[1]:
            raise RuleError(
                Refusal.of(
                    RefusalCode.HELPER_DIFFICULTY_TOO_HIGH,
                    difficulty=base + raised, high=DIFFICULTY_RANGE[1],
                )
            )
    return replace_adjustments(request, {AdjustmentKind.HELPER_LIMIT}, _limit(excess))


def add_helper(state: TeamworkState, member_id: int, result: RollResult) -> TeamworkState:
    """Record a helper's roll (rolled from :func:`helper_request`)."""
    _check_can_help(state, member_id)
    if result.refused:
        raise RuleError(Refusal.of(RefusalCode.HELPER_ROLL_REFUSED, cause=result.refusal))
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
    raise RuleError(Refusal.of(RefusalCode.NOT_A_HELPER))


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


# --- the saved action and its status --------------------------------------------------------


class Status(StrEnum):
    """Where a teamwork stands."""

    OPEN = "open"
    """Helpers may join; the primary may roll or cancel."""
    ROLLED = "rolled"
    CANCELLED = "cancelled"
    SCENE_ENDED = "scene_ended"
    """The Storyteller ended the scene before the primary rolled."""


class Move(StrEnum):
    """What a member asks of a teamwork."""

    HELP = "help"
    REVISE = "revise"
    """A helper's roll, or the primary's once rolled, read again (Will after the roll, Take
    a Beat)."""
    ROLL = "roll"
    CANCEL = "cancel"


class Blocked(StrEnum):
    """Why a move on a teamwork is refused."""

    OVER = "over"
    """The teamwork is not open any more (see its :class:`Status`)."""
    PRIMARY_CANNOT_HELP = "primary_cannot_help"
    ALREADY_HELPED = "already_helped"
    NOT_A_HELPER = "not_a_helper"
    ONLY_PRIMARY = "only_primary"
    """Only the primary rolls the teamwork."""
    NOT_YOURS = "not_yours"
    """Only the primary or a Storyteller cancels it."""


class MoveBlocked(Exception):  # noqa: N818 - a refused move, answered to the member
    """A transition asked of a teamwork that :func:`blocked` refuses."""

    def __init__(self, reason: Blocked) -> None:
        super().__init__(reason.value)
        self.reason = reason


class TeamworkAction(Frozen):
    """A teamwork as saved: the engine's state, its status, and what its card shows.

    ``schema_version`` is 1; rows saved before it existed parse as version 1.
    """

    schema_version: Literal[1] = 1
    teamwork: TeamworkState
    primary_name: str
    helper_names: tuple[str, ...] = ()
    """The helpers' names as their rolls showed them, in the order of ``teamwork.helpers``."""
    primary: RollResult | None = None
    """The primary's roll, once made."""
    status: Status = Status.OPEN
    labelled: bool = Field(default=False, exclude_if=lambda v: not v)
    """The primary named the action (a ``label``): the primary's roll is an attempt at it,
    so it pays and feeds successive attempts (RULES.md §1, §2), as a roll of that label
    does. A teamwork named after its primary by default names no action (an unlabelled
    roll counts no attempt either); so does one saved before this was kept."""
    character_id: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """The primary's active character when the teamwork started, whose sheet the pool was
    read from: the primary's roll is that character's (the Will declared with it, its
    actions this turn), whichever sheet is active when they roll, as an extended action's
    rolls are its character's. None: started without a character, or saved before this was
    kept; the roll is then the primary's active character's at the roll, as it was."""
    character_name: str | None = Field(default=None, exclude_if=lambda v: v is None)
    """That character's name when the teamwork started (its sheet may be deleted since)."""


def opened(
    request: RollRequest,
    primary_id: int,
    primary_name: str,
    helper_limit: int | None = None,
    *,
    labelled: bool = False,
    character: tuple[int, str] | None = None,
) -> TeamworkAction:
    """A new teamwork (refusals of :func:`start` raise :class:`RuleError`); ``labelled``:
    the primary named the action; ``character``: the primary's active character (id and
    name), whose roll the primary's will be."""
    return TeamworkAction(
        teamwork=start(request, primary_id, helper_limit), primary_name=primary_name,
        labelled=labelled,
        character_id=None if character is None else character[0],
        character_name=None if character is None else character[1],
    )


def blocked(
    action: TeamworkAction, move: Move, member_id: int, *, storyteller: bool = False
) -> Blocked | None:
    """Why ``member_id`` may not make ``move`` now; None when they may."""
    state = action.teamwork
    if move is Move.ROLL and member_id != state.primary_id and action.status is Status.OPEN:
        return Blocked.ONLY_PRIMARY
    if move is Move.CANCEL and action.status is Status.OPEN and not (
        storyteller or member_id == state.primary_id
    ):
        return Blocked.NOT_YOURS
    if move is Move.REVISE and member_id == state.primary_id:
        return None if action.status is Status.ROLLED else Blocked.OVER
    if action.status is not Status.OPEN:
        return Blocked.OVER
    helping = any(helper.member_id == member_id for helper in state.helpers)
    if move is Move.HELP:
        if member_id == state.primary_id:
            return Blocked.PRIMARY_CANNOT_HELP
        if helping:
            return Blocked.ALREADY_HELPED
    if move is Move.REVISE and not helping:
        return Blocked.NOT_A_HELPER
    return None


def _check(
    action: TeamworkAction, move: Move, member_id: int, *, storyteller: bool = False
) -> None:
    reason = blocked(action, move, member_id, storyteller=storyteller)
    if reason is not None:
        raise MoveBlocked(reason)


def helped(
    action: TeamworkAction, member_id: int, name: str, result: RollResult
) -> TeamworkAction:
    """A helper's roll joins the teamwork (rolled from :func:`helper_request`)."""
    _check(action, Move.HELP, member_id)
    return action.model_copy(
        update={
            "teamwork": add_helper(action.teamwork, member_id, result),
            "helper_names": (*action.helper_names, name),
        }
    )


def revised(action: TeamworkAction, member_id: int, result: RollResult) -> TeamworkAction:
    """A helper's roll read again, and the primary's bonus follows it; or the primary's
    roll read again, the teamwork's result."""
    _check(action, Move.REVISE, member_id)
    if member_id == action.teamwork.primary_id:
        return action.model_copy(update={"primary": result})
    return action.model_copy(
        update={"teamwork": revise_helper(action.teamwork, member_id, result)}
    )


def rolled(action: TeamworkAction, member_id: int, result: RollResult) -> TeamworkAction:
    """The primary rolled (from :func:`primary_request`): the teamwork is over."""
    _check(action, Move.ROLL, member_id)
    return action.model_copy(update={"primary": result, "status": Status.ROLLED})


def cancelled(
    action: TeamworkAction, member_id: int, *, storyteller: bool = False
) -> TeamworkAction:
    """The primary or a Storyteller cancels: nobody rolls."""
    _check(action, Move.CANCEL, member_id, storyteller=storyteller)
    return action.model_copy(update={"status": Status.CANCELLED})


def scene_ended(action: TeamworkAction) -> TeamworkAction | None:
    """The scene ended: an open teamwork is over (None: it was over already)."""
    if action.status is not Status.OPEN:
        return None
    return action.model_copy(update={"status": Status.SCENE_ENDED})
