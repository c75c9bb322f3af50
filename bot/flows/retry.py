"""Reading again when a write finds that what its flow read has moved.

A flow reads, asks the engine, then writes conditionally: the write raises
``Conflict(None)`` when the rows it depends on changed since the read (another
member's write came first). Then the whole attempt runs again from the read,
a bounded number of times, and the member is told the table is busy only if
it keeps moving. A ``Conflict`` with a reason is the flow's answer to word.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Final, TypeVar

from bot.flows.reply import UserError
from bot.render.lang import _
from bot.render.state import TABLE_BUSY
from bot.store import Conflict

T = TypeVar("T")

TRIES: Final = 3
"""Attempts before the member is told the table is busy."""


async def until_written(attempt: Callable[[], Awaitable[T]]) -> T:
    """Run ``attempt`` again while its write raises ``Conflict(None)``."""
    for _attempt in range(TRIES):
        try:
            return await attempt()
        except Conflict as conflict:
            if conflict.reason is not None:
                raise
    raise UserError(_(TABLE_BUSY))
