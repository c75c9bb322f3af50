"""Successive attempts: trying a failed action again (RULES.md §1, §2).

The store counts the failures in a row of one action (same player, channel
and label) with :func:`record`; :func:`penalty` turns that count into the
adjustment the next attempt carries. `cofd` loses dice, `v20` raises the
difficulty (:func:`engine.prepare.prepare` refuses an attempt raised to 10 or
more), `fistful` has no such rule (it penalises actions within a turn instead:
:mod:`engine.table.actions`). Extended actions never use this: see
:mod:`engine.table.extended`.
"""

from __future__ import annotations

from engine.models import Adjustment, AdjustmentKind, RollRequest, RollResult, Ruleset
from engine.table._adjust import replace_adjustments


def penalty(ruleset: Ruleset, failures: int, step: int = 1) -> tuple[Adjustment, ...]:
    """The adjustment of an attempt after ``failures`` failures in a row (none after none).

    ``step`` is the penalty per failure: 1 by the rules.
    """
    if failures < 0 or step < 0:
        msg = f"failures and step count up from 0, not {failures} and {step}"
        raise ValueError(msg)
    amount = failures * step
    if not amount or ruleset is Ruleset.FISTFUL:
        return ()
    if ruleset is Ruleset.COFD:
        return (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-amount),)
    return (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=amount),)


def with_penalty(request: RollRequest, failures: int, step: int = 1) -> RollRequest:
    """``request`` as the next attempt rolls it: its earlier penalty replaced by this one."""
    return replace_adjustments(
        request,
        {AdjustmentKind.SUCCESSIVE_ATTEMPT},
        penalty(request.ruleset, failures, step),
    )


def record(failures: int, result: RollResult) -> int:
    """Failures in a row after ``result``: a failure adds one, a success starts over.

    A refused roll did not happen, so it changes nothing.
    """
    if result.succeeded:
        return 0
    if result.failed:
        return failures + 1
    return failures
