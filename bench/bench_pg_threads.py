"""Benchmark: one asyncpg round trip from the event loop, from a worker thread's own loop
(as the PostgreSQL store sent its statements before 2026-11-24) while the event loop's
thread is idle or busy, and from a greenlet on the busy loop (as the store sends them
now, bot.store.greenlets).

Run: ``python -m bench.bench_pg_threads [--queries N] [--database-url URL]`` (without a
URL it starts the test suite's PostgreSQL server). Printed per case: wall time and CPU
time per ``SELECT $1::int``. The busy case runs pure Python on the event loop in 1 ms
slices, as the bot's loop does under load (parsing, rendering): the worker must win
the GIL back after every socket wait, while the greenlet waits for the loop's next
turn. Figures go into BENCHMARKS.md §7.2; nothing here
is a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import threading
import time

import asyncpg

from bench.load import throwaway_postgres
from bot.store.greenlets import spawn, wait

WARM_UP = 100


async def _on_the_loop(url: str, queries: int) -> tuple[float, float]:
    conn = await asyncpg.connect(url)
    try:
        for _ in range(WARM_UP):
            await conn.fetchval("SELECT $1::int", 1)
        wall, cpu = time.perf_counter(), time.process_time()
        for n in range(queries):
            await conn.fetchval("SELECT $1::int", n)
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        await conn.close()


def _in_a_thread(url: str, queries: int, out: list[tuple[float, float]]) -> None:
    loop = asyncio.new_event_loop()
    conn = loop.run_until_complete(asyncpg.connect(url))
    try:
        for _ in range(WARM_UP):
            loop.run_until_complete(conn.fetchval("SELECT $1::int", 1))
        wall, cpu = time.perf_counter(), time.thread_time()
        for n in range(queries):
            loop.run_until_complete(conn.fetchval("SELECT $1::int", n))
        out.append((time.perf_counter() - wall, time.thread_time() - cpu))
    finally:
        loop.run_until_complete(conn.close())
        loop.close()


async def _from_a_thread(url: str, queries: int, *, busy: bool) -> tuple[float, float]:
    out: list[tuple[float, float]] = []
    worker = threading.Thread(target=_in_a_thread, args=(url, queries, out))
    worker.start()
    spent = 0
    while worker.is_alive():
        if busy:
            until = time.perf_counter() + 0.001
            while time.perf_counter() < until:
                spent += 1
            await asyncio.sleep(0)
        else:
            await asyncio.sleep(0.01)
    worker.join()
    return out[0]


async def _busy_until(done: asyncio.Future[None]) -> None:
    """Pure Python on the event loop in 1 ms slices until ``done``."""
    spent = 0
    while not done.done():
        until = time.perf_counter() + 0.001
        while time.perf_counter() < until:
            spent += 1
        await asyncio.sleep(0)


async def _from_a_greenlet(url: str, queries: int) -> tuple[float, float]:
    conn = await asyncpg.connect(url)

    def body() -> tuple[float, float]:
        for _ in range(WARM_UP):
            wait(conn.fetchval("SELECT $1::int", 1))
        wall, cpu = time.perf_counter(), time.process_time()
        for n in range(queries):
            wait(conn.fetchval("SELECT $1::int", n))
        return time.perf_counter() - wall, time.process_time() - cpu

    done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
    busy = asyncio.create_task(_busy_until(done))
    try:
        return await spawn(body)
    finally:
        done.set_result(None)
        await busy
        await conn.close()


def _line(name: str, figures: tuple[float, float], queries: int) -> str:
    wall, cpu = figures
    return f"{name:<52} wall {wall / queries * 1e6:9.0f} µs, CPU {cpu / queries * 1e6:7.0f} µs"


async def _measure(url: str, queries: int) -> None:
    print(_line("event loop", await _on_the_loop(url, queries), queries))
    idle = await _from_a_thread(url, queries, busy=False)
    print(_line("worker thread, event loop idle", idle, queries))
    busy = await _from_a_thread(url, queries, busy=True)
    print(_line("worker thread, event loop busy (thread CPU)", busy, queries))
    greenlet = await _from_a_greenlet(url, queries)
    print(_line("greenlet, event loop busy (CPU: with the busy task)", greenlet, queries))


async def main(queries: int, url: str | None) -> None:
    print(f"{queries} queries each ({'the given database' if url else 'a throw-away server'})")
    if url is not None:
        await _measure(url, queries)
        return
    server = throwaway_postgres()
    try:
        await _measure(await server.new_database(), queries)
    finally:
        server.stop()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--queries", type=int, default=500)
    parser.add_argument("--database-url")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.queries, arguments.database_url))
