"""Synchronous code that waits for the event loop it runs on, without a thread.

The repositories are plain functions (one copy of their logic for both backends): on
SQLite a transaction's body runs in aiosqlite's thread, where waiting blocks only that
thread. On PostgreSQL its statements are asyncpg coroutines of the bot's event loop. A
body run by :func:`spawn` runs on the loop's own thread in a greenlet of its own; each
:func:`wait` switches back to the loop, which awaits the coroutine while it serves
everything else, and resumes the body with the answer (the approach of SQLAlchemy's
asyncio layer). No thread must win the GIL back after each statement: from a worker
thread, a round trip took 30-115 ms while the loop ran Python (BENCHMARKS.md §7.2).

A body must therefore never block (``time.sleep``, ``threading.Event.wait``): it would
stop the whole loop. It waits with :func:`wait`.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any, TypeVar

import greenlet

T = TypeVar("T")


class _Spawned(greenlet.greenlet):  # type: ignore[misc]  # greenlet ships no type information
    """The greenlet of a function run by :func:`spawn`; :func:`wait` is allowed in it."""


async def spawn(function: Callable[..., T], *args: Any) -> T:
    """Run the synchronous ``function`` to its end on this event loop, awaiting each
    coroutine it hands to :func:`wait`; its result, or what it raised.

    Cancelling the task that awaits this raises :class:`asyncio.CancelledError` at the
    function's :func:`wait`; the task ends cancelled even if the function caught it (its
    transaction is then rolled back, and the worker stops instead of serving on)."""
    child = _Spawned(function, parent=greenlet.getcurrent())
    cancelled: asyncio.CancelledError | None = None
    asked: Any = child.switch(*args)
    while not child.dead:
        try:
            answer = await asked
        except asyncio.CancelledError as error:
            cancelled = error
            asked = child.throw(error)
        except BaseException as error:  # handed to the function, which may catch it
            asked = child.throw(error)
        else:
            asked = child.switch(answer)
    if cancelled is not None:
        raise cancelled
    return asked  # type: ignore[no-any-return]


def wait(work: Awaitable[T]) -> T:
    """In a function run by :func:`spawn`: the result of ``work`` (a coroutine of the
    running loop), the loop serving everything else meanwhile."""
    current = greenlet.getcurrent()
    if not isinstance(current, _Spawned):
        msg = "wait() is for a function run by spawn(), on the event loop's thread"
        raise RuntimeError(msg)
    return current.parent.switch(work)  # type: ignore[no-any-return]

