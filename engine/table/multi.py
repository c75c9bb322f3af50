"""`v20` multiple actions, declared together before the first (RULES.md §2).

Action k (1-based) has −k dice and +k difficulty, the first included. An
action raised to difficulty 10 or more (or left with no dice) cannot be taken,
and then the whole declaration is refused: nothing is rolled.
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.frozen import Frozen
from engine.models import Adjustment, AdjustmentKind, RollRequest, Ruleset
from engine.prepare import prepare
from engine.refusals import Refusal, RefusalCode, names
from engine.roll import RuleError
from engine.table._adjust import replace_adjustments


class MultiRefusal(Frozen):
    """Why a declaration was refused, and which action (1-based) could not be taken."""

    action: int
    refusal: Refusal
    """``multi_action_refused`` (``action``, ``count``), caused by that action's own refusal."""


def requests(base_requests: Sequence[RollRequest]) -> list[RollRequest] | MultiRefusal:
    """The declared actions with their penalties, or the refusal of the whole declaration.

    Raises :class:`RuleError` when this is no multiple-action declaration at
    all (fewer than two actions, or not `v20`).
    """
    if len(base_requests) < 2:
        raise RuleError(Refusal.of(RefusalCode.MULTI_TOO_FEW))
    foreign = sorted({r.ruleset for r in base_requests if r.ruleset is not Ruleset.V20})
    if foreign:
        raise RuleError(Refusal.of(RefusalCode.MULTI_NOT_V20, rulesets=names(foreign)))
    count = len(base_requests)
    out: list[RollRequest] = []
    for k, base in enumerate(base_requests, start=1):
        request = replace_adjustments(
            base,
            {AdjustmentKind.MULTIPLE_ACTION},
            (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-k, difficulty=k),),
        )
        prepared = prepare(request)
        if isinstance(prepared, Refusal):
            return MultiRefusal(
                action=k,
                refusal=Refusal.of(
                    RefusalCode.MULTI_ACTION_REFUSED, action=k, count=count, cause=prepared
                ),
            )
        out.append(request)
    return out
