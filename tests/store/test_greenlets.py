"""Synchronous functions that wait for the event loop they run on (bot.store.greenlets),
as the PostgreSQL store runs a transaction's body."""

from __future__ import annotations

import asyncio

import pytest

from bot.store.greenlets import spawn, wait


class RefusedError(Exception):
    """Raised by a coroutine on purpose."""


async def _twice(value: int) -> int:
    await asyncio.sleep(0)
    return value * 2


async def _refuse() -> int:
    await asyncio.sleep(0)
    raise RefusedError


async def test_a_function_gets_each_answer_in_turn_and_returns_its_result() -> None:
    def body(start: int) -> list[int]:
        return [wait(_twice(start)), wait(_twice(start + 1))]

    assert await spawn(body, 5) == [10, 12]


async def test_an_error_of_a_coroutine_is_raised_where_the_function_waits() -> None:
    def catches() -> str:
        try:
            wait(_refuse())
        except RefusedError:
            return "caught"
        return "not raised"

    def lets_go() -> int:
        return wait(_refuse())

    assert await spawn(catches) == "caught"
    with pytest.raises(RefusedError):
        await spawn(lets_go)


async def test_the_loop_serves_others_while_a_function_waits() -> None:
    order: list[str] = []
    go_on = asyncio.Event()

    def first() -> None:
        order.append("first waits")
        wait(go_on.wait())
        order.append("first resumes")

    async def other() -> None:
        order.append("the loop runs another task")
        go_on.set()

    await asyncio.gather(spawn(first), other())

    assert order == ["first waits", "the loop runs another task", "first resumes"]


async def test_wait_outside_spawn_is_refused() -> None:
    work = _twice(1)
    with pytest.raises(RuntimeError, match="spawn"):
        wait(work)
    work.close()


async def test_a_cancelled_task_ends_cancelled_even_when_its_function_catches_it() -> None:
    seen: list[str] = []
    waiting = asyncio.Event()

    def body() -> str:
        try:
            wait(asyncio.gather(_set(waiting), asyncio.sleep(10)))
        except asyncio.CancelledError:
            seen.append("cancelled at wait")
        return "went on"

    task = asyncio.create_task(spawn(body))
    await waiting.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task
    assert seen == ["cancelled at wait"]


async def _set(event: asyncio.Event) -> None:
    event.set()
