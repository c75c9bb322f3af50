"""Contested and resisted rolls: both sides rolled, who wins and by how much.

`cofd` (RULES.md §1): more successes, extra successes included, wins; each
side's exceptional success is its own roll's (read it on the results).
`v20` (§2): more net successes wins; the degree is the difference.
`fistful` (§3 step 7): each side's successes reduce the other's; whoever has
successes left carries the consequences. In all three, equal counts are a
tie: nobody wins (**Decision** for `cofd`; "neither succeeds" in `v20`;
"nobody" in `fistful`). A dramatic failure or botch counts its successes: 0.

A contest as saved is a :class:`ContestState` with a :class:`ContestStatus`,
moved only by its transitions::

    against(...)   -> decided (both sides rolled at once)
    challenged(...) -> waiting --resisted--> decided
                       waiting --scene_ended--> scene_ended

Only the named opponent may resist, and only while the contest waits
(:func:`resist_blocked`). In `v20` each side's difficulty is at most 9
(:func:`check_resisted`), whatever the command lets a member type.

A labelled contest is the actor's attempt at that action, and successive
attempts (RULES.md §1, §2) count it by its verdict, not by the actor's roll
alone (:func:`failures_after`). **Decision**, in every ruleset: won, the
action succeeded (the count starts over); lost or tied, it failed (one more).
`v20` says so ("a tie: neither succeeds"); in `cofd` a lost contest is a
failed action, and a tie is nobody winning, the actor included. `fistful`
has no successive attempts (its penalty is none), and counts alike.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any, Literal

from pydantic import Field, model_validator

from engine.constants import RESISTED_DIFFICULTY_RANGE
from engine.frozen import Frozen
from engine.models import Degree, RollRequest, RollResult, Ruleset, Term
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError


class Winner(StrEnum):
    """Which side of a contest won."""

    ACTOR = "actor"
    OPPONENT = "opponent"
    TIE = "tie"


class ContestResult(Frozen):
    """The reading of a contest."""

    ruleset: Ruleset
    winner: Winner
    margin: int = Field(ge=0)
    """How many successes the winner has over the other side (0 on a tie)."""
    actor: int = Field(ge=0)
    """The actor's successes as compared."""
    opponent: int = Field(ge=0)
    """The opponent's successes as compared."""
    degree: Degree | None = None
    """`v20`: the degree word of the margin; None on a tie and in other rulesets."""


def check_resisted(ruleset: Ruleset, difficulties: Mapping[str, int | None]) -> None:
    """Refuse a `v20` resisted roll whose side has a difficulty outside 2–9.

    RULES.md §2: each side of a resisted action rolls against a difficulty set from the
    other's traits, at most 9 (a plain roll may ask for 10; a resisted one may not), and
    a resisted extended action is the same contest, extended. ``difficulties`` maps each
    option as the member typed it (``difficulty``, ``opponent_difficulty``) to its value;
    None is the default 6. Other rulesets have no difficulty to check here.
    """
    if ruleset is not Ruleset.V20:
        return
    low, high = RESISTED_DIFFICULTY_RANGE
    for option, value in difficulties.items():
        if value is not None and not low <= value <= high:
            raise RuleError(
                Refusal.of(RefusalCode.OUT_OF_RANGE, option=option, value=value, low=low, high=high)
            )


def resolve(ruleset: Ruleset, actor: RollResult, opponent: RollResult) -> ContestResult:
    """Read a contest from both sides' rolls; raises :class:`RuleError` if either was refused."""
    sides = (
        (actor, RefusalCode.CONTEST_ACTOR_RULESET, RefusalCode.CONTEST_ACTOR_REFUSED),
        (opponent, RefusalCode.CONTEST_OPPONENT_RULESET, RefusalCode.CONTEST_OPPONENT_REFUSED),
    )
    for result, wrong_ruleset, did_not_happen in sides:
        if result.request.ruleset is not ruleset:
            raise RuleError(
                Refusal.of(
                    wrong_ruleset, rolled=result.request.ruleset.value, ruleset=ruleset.value
                )
            )
        if result.refused:
            raise RuleError(Refusal.of(did_not_happen, cause=result.refusal))
    ours, theirs = actor.successes, opponent.successes
    margin = abs(ours - theirs)
    winner = Winner.TIE if ours == theirs else Winner.ACTOR if ours > theirs else Winner.OPPONENT
    degree = None
    if ruleset is Ruleset.V20 and margin:
        degree = Degree.of(margin)
    return ContestResult(
        ruleset=ruleset, winner=winner, margin=margin, actor=ours, opponent=theirs,
        degree=degree,
    )


# --- the saved contest and its status -------------------------------------------------------


class ContestStatus(StrEnum):
    """Where a contest stands."""

    WAITING = "waiting"
    """The actor rolled; the named opponent has not resisted yet."""
    DECIDED = "decided"
    SCENE_ENDED = "scene_ended"
    """The scene ended before the opponent resisted: nobody won."""


class ResistBlocked(StrEnum):
    """Why a member may not roll to resist now."""

    DECIDED = "decided"
    SCENE_ENDED = "scene_ended"
    NOT_OPPONENT = "not_opponent"


class ContestState(Frozen):
    """A contest as saved: both sides' rolls, who they are, and the verdict once decided.

    ``schema_version`` is 1; rows saved before it (and before ``status``) still parse:
    their status is read from the verdict.
    """

    schema_version: Literal[1] = 1
    actor_name: str
    actor: RollResult
    opponent_id: int | None = None
    """The member who rolls to resist; None for the Storyteller's dice."""
    opponent_name: str | None = None
    opponent_difficulty: int | None = None
    """`v20`: the difficulty the opponent member will roll against."""
    opponent: RollResult | None = None
    result: ContestResult | None = None
    status: ContestStatus = ContestStatus.WAITING

    @model_validator(mode="before")
    @classmethod
    def _status_of_old_rows(cls, data: Any) -> Any:
        if isinstance(data, dict) and "status" not in data:
            decided = data.get("result") is not None
            data = {**data, "status": ContestStatus.DECIDED if decided else ContestStatus.WAITING}
        return data

    @property
    def ruleset(self) -> Ruleset:
        return self.actor.request.ruleset


def against(actor_name: str, actor: RollResult, opposition: RollResult) -> ContestState:
    """Both sides rolled at once (the Storyteller's dice): decided."""
    return ContestState(
        actor_name=actor_name,
        actor=actor,
        opponent=opposition,
        result=resolve(actor.request.ruleset, actor, opposition),
        status=ContestStatus.DECIDED,
    )


def challenged(
    actor_name: str,
    actor: RollResult,
    *,
    opponent_id: int,
    opponent_name: str,
    opponent_difficulty: int | None = None,
) -> ContestState:
    """The actor rolled against a member, who will roll to resist."""
    if actor.refused:
        raise RuleError(Refusal.of(RefusalCode.CONTEST_ACTOR_REFUSED, cause=actor.refusal))
    return ContestState(
        actor_name=actor_name,
        actor=actor,
        opponent_id=opponent_id,
        opponent_name=opponent_name,
        opponent_difficulty=opponent_difficulty,
    )


def resist_blocked(state: ContestState, member_id: int) -> ResistBlocked | None:
    """Why ``member_id`` may not roll to resist now; None when they may."""
    if state.status is ContestStatus.DECIDED:
        return ResistBlocked.DECIDED
    if state.status is ContestStatus.SCENE_ENDED:
        return ResistBlocked.SCENE_ENDED
    if member_id != state.opponent_id:
        return ResistBlocked.NOT_OPPONENT
    return None


def resist_request(state: ContestState, terms: tuple[Term, ...]) -> RollRequest:
    """The opponent's request: their pool in the contest's ruleset, at their difficulty."""
    return RollRequest(ruleset=state.ruleset, terms=terms, difficulty=state.opponent_difficulty)


def resisted(state: ContestState, member_id: int, opponent: RollResult) -> ContestState:
    """The opponent rolled to resist: decided."""
    if resist_blocked(state, member_id) is not None:
        msg = "only the named opponent resists, while the contest waits"
        raise ValueError(msg)
    return state.model_copy(
        update={
            "opponent": opponent,
            "result": resolve(state.ruleset, state.actor, opponent),
            "status": ContestStatus.DECIDED,
        }
    )


def failures_after(failures: int, state: ContestState) -> int:
    """The actor's failures in a row at the contest's action once it is decided, from
    ``failures`` before it (see the module's **Decision**): won, 0; lost or tied, one
    more. Undecided (waiting, or closed by the end of the scene), unchanged."""
    if state.status is not ContestStatus.DECIDED or state.result is None:
        return failures
    return 0 if state.result.winner is Winner.ACTOR else failures + 1


def scene_ended(state: ContestState) -> ContestState | None:
    """The scene ended: a waiting contest closes undecided (None: it was not waiting)."""
    if state.status is not ContestStatus.WAITING:
        return None
    return state.model_copy(update={"status": ContestStatus.SCENE_ENDED})
