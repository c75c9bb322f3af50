"""The end of a scene for the actions it ends (teamwork, contests waiting for a resist)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel

from bot.flows.reply import Edit
from bot.store import Tx
from engine.records import ActionKind, ActionRecord, ActionStatus

S = TypeVar("S", bound=BaseModel)


def close_open(
    tx: Tx,
    kind: ActionKind,
    found: list[ActionRecord],
    *,
    ended: Callable[[ActionRecord], S | None],
    card: Callable[[ActionRecord, S], tuple[Edit, ...]],
) -> tuple[int, tuple[Edit, ...]]:
    """Inside `/scene end`'s write: close the open actions of ``kind`` among the channel's
    (``found``, read in this write) that the engine ends with the scene (``ended``
    answers the closed state, or None to leave one as it is). Answers how many closed and
    the edits of their cards (``card``, given the record as saved)."""
    closed = 0
    edits: list[Edit] = []
    for record in sorted(found, key=lambda record: record.id):
        if record.kind is not kind:
            continue
        after = ended(record)
        if after is None:
            continue
        version = tx.actions.update(record.id, record.version, after, ActionStatus.CLOSED)
        if version is None:
            continue
        closed += 1
        edits += card(record.saved(after, version, ActionStatus.CLOSED), after)
    return closed, tuple(edits)
