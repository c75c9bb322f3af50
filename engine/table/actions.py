"""The `fistful` Successive Action Penalty (RULES.md §3).

Each action a character takes after the first in the same turn has a
cumulative penalty of ``step`` dice per earlier action (1 by default; a channel
setting may change it). With the penalty a pool can fall to 0 or less: then
the character cannot take the action now, and :func:`engine.prepare.prepare`
refuses it (Will cannot rescue it). The store counts actions per turn.

**Decision**: an initiative roll (``initiative``) is no action of the turn: it orders
the turn's actions (RULES.md §7), so it neither takes the penalty nor counts towards it,
as `/init join`'s roll does not.
"""

from __future__ import annotations

from engine.models import Adjustment, AdjustmentKind, RollRequest, Ruleset
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError
from engine.table._adjust import replace_adjustments


def penalty(actions_taken: int, step: int = 1) -> tuple[Adjustment, ...]:
    """The penalty of an action after ``actions_taken`` earlier actions this turn.

    Empty for the first action of the turn, so the breakdown shows no
    zero-dice line.
    """
    if actions_taken < 0 or step < 0:
        msg = f"actions and step count up from 0, not {actions_taken} and {step}"
        raise ValueError(msg)
    amount = actions_taken * step
    if not amount:
        return ()
    return (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-amount),)


def is_action(request: RollRequest) -> bool:
    """Whether a roll is an action the turn counts: a `fistful` roll other than initiative."""
    return request.ruleset is Ruleset.FISTFUL and not request.initiative


def with_penalty(request: RollRequest, actions_taken: int, step: int = 1) -> RollRequest:
    """``request`` with this turn's penalty (replacing any earlier one on it); none on an
    initiative roll."""
    if request.ruleset is not Ruleset.FISTFUL:
        raise RuleError(
            Refusal.of(RefusalCode.SUCCESSIVE_ACTION_NOT_FISTFUL, ruleset=request.ruleset.value)
        )
    taken = penalty(actions_taken, step) if is_action(request) else ()
    return replace_adjustments(request, {AdjustmentKind.SUCCESSIVE_ACTION}, taken)
