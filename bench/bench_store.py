"""Store micro-benchmark: transactions per second of the bot's own store operations.

Run from the repository root::

    .venv/bin/python -m bench.bench_store
    .venv/bin/python -m bench.bench_store --concurrency 1 8 32 --seconds 5
    .venv/bin/python -m bench.bench_store --synchronous NORMAL     # what-if: no fsync per commit

Each workload is one transaction shaped exactly as the bot runs it, through
:class:`bot.store.Store` on a fresh SQLite file (WAL, as in production):

``config``    ``Store.get_channel_config`` (``/roll`` reads it twice: bot/cogs/rolling.py and
              bot/rolling.py ``post_roll``)
``roll``      ``post_roll``'s write transaction (close the roller's open rolls, insert the
              roll, read it back), then ``Store.attach_roll_messages``'s own transaction
``will``      the Spend Will button (bot/rolling.py ``spend_will_pressed``): ``spend_refusal``,
              the roll read again, the engine's re-read, the conditional update and the debit
              of a tracked Will pool
``extended``  an extended-action update: read the action, write its engine state back
              guarded by the version read (``tx.actions.get`` + ``tx.actions.update``)

``--concurrency`` tasks run each workload for ``--seconds``, each on its own rows (no
conflicts, as different members at different tables). Printed per workload and
concurrency: operations/s, p50/p99 latency, and the SQL round trips to aiosqlite's thread
one operation takes. The ``direct`` lines run the same store code with its connection on
the event loop's thread (no thread hop: the upper bound of "one hop per transaction").
Figures go into BENCHMARKS.md; nothing here is a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import collections
import platform
import shutil
import sqlite3
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiosqlite

from bench.direct_sqlite import DirectConnection
from bot.store import ActionKind, ActionStatus, Store, WillState
from engine.faces import seeded_faces
from engine.models import RollRequest, Ruleset, Term
from engine.roll import roll, spend_will
from engine.table import extended

GUILD = 1_000
CHANNELS = 64
#: Operations return False when they ran out of prepared rows (a Will spend uses one).
Operation = Callable[[Store, int, int], Awaitable[bool]]


# ---------------------------------------------------------------------- data and workloads

FACES = seeded_faces(2026)
REQUEST = RollRequest(
    ruleset=Ruleset.COFD, terms=(Term(label="Dexterity", value=3), Term(label="Stealth", value=2))
)
EXTENDED_STATE = extended.start(
    RollRequest(
        ruleset=Ruleset.COFD,
        terms=(Term(label="Intelligence", value=3), Term(label="Academics", value=2)),
    ),
    target=10,
)


def user_of(worker: int, index: int) -> int:
    return 10_000_000 + worker * 1_000 + index


async def prepare(
    store: Store, workers: int, will_rolls: int
) -> tuple[collections.deque[tuple[int, int]], list[int]]:
    """Rolls that offer Will, each by a roller with a tracked pool (one spend each), and
    an extended action per worker."""
    result = roll(REQUEST, FACES)
    spendable: collections.deque[tuple[int, int]] = collections.deque()
    actions: list[int] = []
    async with store.transaction() as tx:
        for number in range(will_rolls):
            user = 20_000_000 + number
            await tx.will.set_pool(GUILD, user, maximum=5)
            roll_id = await tx.rolls.insert(
                guild_id=GUILD, channel_id=number % CHANNELS, roller_id=user,
                roller_name="Bench", result=result, will_state=WillState.OFFERED,
            )
            spendable.append((roll_id, user))
        for worker in range(workers):
            record = await tx.actions.create(
                ActionKind.EXTENDED, guild_id=GUILD, channel_id=worker % CHANNELS,
                owner_id=user_of(worker, 0), label=f"research {worker}", state=EXTENDED_STATE,
            )
            actions.append(record.id)
    return spendable, actions


async def op_config(store: Store, worker: int, index: int) -> bool:
    await store.get_channel_config(GUILD, worker % CHANNELS)
    return True


async def op_roll(store: Store, worker: int, index: int) -> bool:
    user = user_of(worker, index % 50)
    channel = worker % CHANNELS
    async with store.transaction() as tx:
        await tx.rolls.close(GUILD, channel, user)
        result = roll(REQUEST, FACES)
        roll_id = await tx.rolls.insert(
            guild_id=GUILD, channel_id=channel, roller_id=user, roller_name="Bench",
            result=result, will_state=WillState.OFFERED,
        )
        await tx.rolls.get(roll_id)
    await store.attach_roll_messages(roll_id, 900_000_000 + roll_id)
    return True


def op_will(spendable: collections.deque[tuple[int, int]]) -> Operation:
    async def spend(store: Store, worker: int, index: int) -> bool:
        if not spendable:
            return False
        roll_id, user = spendable.popleft()
        async with store.transaction() as tx:
            if await tx.rolls.spend_refusal(roll_id, user) is not None:
                msg = f"roll {roll_id} refused Will"
                raise RuntimeError(msg)
            record = await tx.rolls.get(roll_id)
            if record is None:
                msg = f"roll {roll_id} is gone"
                raise RuntimeError(msg)
            spent = await tx.rolls.spend_will(roll_id, user, spend_will(record.result, FACES))
        if not hasattr(spent, "roll"):
            msg = f"Will spend on roll {roll_id} refused: {spent}"
            raise RuntimeError(msg)
        return True

    return spend


def op_extended(actions: list[int]) -> Operation:
    async def update(store: Store, worker: int, index: int) -> bool:
        action_id = actions[worker]
        async with store.transaction() as tx:
            record = await tx.actions.get(action_id)
            if record is None or not await tx.actions.update(
                action_id, record.version, EXTENDED_STATE, ActionStatus.OPEN
            ):
                msg = f"action {action_id} update lost"
                raise RuntimeError(msg)
        return True

    return update


# ---------------------------------------------------------------------- measuring


class RoundTrips:
    """Counts calls into aiosqlite's connection thread (every statement, cursor close,
    BEGIN and COMMIT is one)."""

    def __init__(self) -> None:
        self.count = 0
        self._original: Any = aiosqlite.Connection._execute

    def __enter__(self) -> RoundTrips:
        original: Any = self._original

        async def counted(conn: aiosqlite.Connection, fn: Any, *args: Any, **kwargs: Any) -> Any:
            self.count += 1
            return await original(conn, fn, *args, **kwargs)

        aiosqlite.Connection._execute = counted  # type: ignore[assignment,method-assign]
        return self

    def __exit__(self, *exc: object) -> None:
        aiosqlite.Connection._execute = self._original  # type: ignore[method-assign]


async def measure(
    store: Store, operation: Operation, concurrency: int, seconds: float
) -> tuple[float, float, float, int]:
    """Operations/s, p50 and p99 latency (ms), and operations done."""
    latencies: list[float] = []
    loop = asyncio.get_running_loop()
    until = loop.time() + seconds

    async def worker(number: int) -> None:
        index = 0
        while loop.time() < until:
            began = time.perf_counter()
            if not await operation(store, number, index):
                return
            latencies.append(time.perf_counter() - began)
            index += 1

    began = time.perf_counter()
    await asyncio.gather(*(worker(number) for number in range(concurrency)))
    elapsed = time.perf_counter() - began
    ordered = sorted(latencies)
    p99 = ordered[max(0, int(len(ordered) * 0.99) - 1)]
    return len(latencies) / elapsed, statistics.median(ordered) * 1e3, p99 * 1e3, len(latencies)


async def run(args: argparse.Namespace) -> None:
    workers = max(args.concurrency)
    folder = Path(tempfile.mkdtemp(prefix="storyteller-store-", dir=args.db_dir))
    print(f"store transactions — Python {platform.python_version()}, SQLite "
          f"{sqlite3.sqlite_version}, aiosqlite {aiosqlite.__version__}, "
          f"synchronous={args.synchronous or 'default (FULL)'}, {args.seconds:g} s per figure")
    print()
    print("| workload | connection | concurrency | ops/s | p50 ms | p99 ms | round trips/op |")
    print("|---|---|---:|---:|---:|---:|---:|")
    for connection in ("aiosqlite", "direct"):
        path = folder / f"{connection}.sqlite3"
        store = await Store.open(path)
        if args.synchronous:
            await store._conn.execute(f"PRAGMA synchronous = {args.synchronous}")
        spendable, actions = await prepare(store, workers, args.will_rolls)
        if connection == "direct":
            await store.close()
            direct = DirectConnection(path, synchronous=args.synchronous)
            store = Store(direct)  # type: ignore[arg-type]
        workloads: dict[str, Operation] = {
            "config": op_config,
            "roll": op_roll,
            "will": op_will(spendable),
            "extended": op_extended(actions),
        }
        for name, operation in workloads.items():
            if name not in args.workloads:
                continue
            trips = "—"
            if connection == "aiosqlite":
                with RoundTrips() as counter:
                    await operation(store, 0, 0)
                trips = str(counter.count)
            else:
                await operation(store, 0, 0)
            for concurrency in args.concurrency:
                rate, p50, p99, _ = await measure(store, operation, concurrency, args.seconds)
                short = " (ran out of prepared rolls)" if name == "will" and not spendable else ""
                print(f"| {name} | {connection} | {concurrency} | {rate:,.0f} | {p50:.2f}"
                      f" | {p99:.2f} | {trips} |{short}")
        await store.close()
    shutil.rmtree(folder, ignore_errors=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8, 32])
    parser.add_argument("--seconds", type=float, default=3.0, help="per figure")
    parser.add_argument("--workloads", nargs="+", default=["config", "roll", "will", "extended"])
    parser.add_argument("--will-rolls", type=int, default=30_000,
                        help="rolls prepared for Will spends (one spend each)")
    parser.add_argument("--synchronous", choices=("FULL", "NORMAL", "OFF"), default=None,
                        help="what-if: PRAGMA synchronous on the store's connection")
    parser.add_argument("--db-dir", type=Path, default=None,
                        help="where the SQLite files go (default: the temp folder)")
    args = parser.parse_args()
    asyncio.run(run(args))


if __name__ == "__main__":
    main()
