"""`v20` multiple actions, declared together before the first (RULES.md §2).

Action k (1-based) has −k dice and +k difficulty, the first included. An
action raised to difficulty 10 or more (or left with no dice) cannot be taken,
and then the whole declaration is refused: nothing is rolled.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.models import Adjustment, AdjustmentKind, Frozen, RollRequest, Ruleset
from engine.prepare import prepare
from engine.roll import RuleError
from engine.table._adjust import replace_adjustments


class MultiRefusal(Frozen):
    """Why a declaration was refused, and which action (1-based) could not be taken."""

    action: int
    message: str


def requests(base_requests: Sequence[RollRequest]) -> list[RollRequest] | MultiRefusal:
    """The declared actions with their penalties, or the refusal of the whole declaration.

    Raises :class:`RuleError` when this is no multiple-action declaration at
    all (fewer than two actions, or not `v20`).
    """
    if len(base_requests) < 2:
        raise RuleError("multiple actions need at least two actions, separated by ;")
    foreign = sorted({r.ruleset for r in base_requests if r.ruleset is not Ruleset.V20})
    if foreign:
        raise RuleError(
            f"multiple actions are a v20 rule; these actions are {', '.join(foreign)}"
        )
    count = len(base_requests)
    out: list[RollRequest] = []
    for k, base in enumerate(base_requests, start=1):
        request = replace_adjustments(
            base,
            {AdjustmentKind.MULTIPLE_ACTION},
            (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-k, difficulty=k),),
        )
        prepared = prepare(request)
        if isinstance(prepared, str):
            return MultiRefusal(
                action=k,
                message=(
                    f"action {k} of {count}: {prepared}; "
                    "the whole declaration is refused and nothing was rolled"
                ),
            )
        out.append(request)
    return out
