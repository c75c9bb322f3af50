"""The voice in force, carried into the store's thread.

The store runs a transaction's body in its own thread (aiosqlite's), and a
context variable set in the interaction's task is not set there: a refusal
raised inside a body, or words drawn there, would be in English whatever the
member's language. A flow hands the store ``in_voice(body)`` where its body
says something.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from bot.render.lang import current, speaking
from bot.store import Tx

T = TypeVar("T")


def in_voice(body: Callable[[Tx], T]) -> Callable[[Tx], T]:
    """``body``, speaking the voice in force where it was handed over."""
    spoken = current()

    def voiced(tx: Tx) -> T:
        with speaking(spoken):
            return body(tx)

    return voiced
