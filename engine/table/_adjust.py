"""Putting table-state adjustments on a request without ever counting one twice."""

from __future__ import annotations

from collections.abc import Collection, Iterable

from engine.models import Adjustment, AdjustmentKind, RollRequest


def replace_adjustments(
    request: RollRequest, kinds: Collection[AdjustmentKind], new: Iterable[Adjustment]
) -> RollRequest:
    """``request`` with its adjustments of ``kinds`` replaced by ``new``.

    Requests are stored and rolled again ("Try again", a teamwork card, a fresh
    attempt): replacing rather than appending keeps a penalty from stacking on
    a copy of itself.
    """
    kept = tuple(adj for adj in request.adjustments if adj.kind not in kinds)
    return request.model_copy(update={"adjustments": (*kept, *new)})
