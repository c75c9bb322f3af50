"""Contested and resisted rolls: both sides rolled, who wins and by how much.

`cofd` (RULES.md §1): more successes, extra successes included, wins; each
side's exceptional success is its own roll's (read it on the results).
`v20` (§2): more net successes wins; the degree is the difference.
`fistful` (§3 step 7): each side's successes reduce the other's; whoever has
successes left carries the consequences. In all three, equal counts are a
tie: nobody wins (**Decision** for `cofd`; "neither succeeds" in `v20`;
"nobody" in `fistful`). A dramatic failure or botch counts its successes: 0.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import Field

from engine.models import Degree, Frozen, RollResult, Ruleset
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


def resolve(ruleset: Ruleset, actor: RollResult, opponent: RollResult) -> ContestResult:
    """Read a contest from both sides' rolls; raises :class:`RuleError` if either was refused."""
    for side, result in (("the actor's", actor), ("the opponent's", opponent)):
        if result.request.ruleset is not ruleset:
            raise RuleError(
                f"{side} roll is {result.request.ruleset}, but the contest is {ruleset}"
            )
        if result.refused:
            raise RuleError(f"{side} roll did not happen: {result.message}")
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
