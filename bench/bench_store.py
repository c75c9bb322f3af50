"""Store micro-benchmark: transactions per second of the bot's own store operations.

Run from the repository root::

    .venv/bin/python -m bench.bench_store
    .venv/bin/python -m bench.bench_store --concurrency 1 8 32 --seconds 5
    .venv/bin/python -m bench.bench_store --synchronous FULL       # what-if: an fsync per commit

Each workload is the store's part of one command, shaped as the flow runs it
(``bot/flows/rolls.py``): a transaction is one function run whole in the database's
thread, through :meth:`bot.store.Store.read` / :meth:`bot.store.Store.write`, on a fresh
SQLite file (WAL, as in production):

``config``    one read of the channel's settings in force (``ctx.config(tx)``)
``roll``      ``/roll``: one read (settings, the member's counters and Will pool), the
              engine's roll, one write (close the roller's open rolls, insert the roll,
              count it), then the write that remembers its message (``Reply.sent``)
``will``      the Spend Will button: one read (settings, the roll, the pool), the engine's
              re-read, one write (the conditional update and the debit of a tracked pool)
``extended``  an extended-action update: one read of the action, one write of its engine
              state guarded by the version read

``--concurrency`` tasks run each workload for ``--seconds``, each on its own rows (no
conflicts, as different members at different tables). Printed per workload and
concurrency: operations/s, p50/p99 latency, and the trips to the database thread one
operation takes (``Store.trips``). The ``direct`` lines run the same transactions with
the connection on the event loop's thread (no thread hop at all: the upper bound of
"one hop per transaction"). Figures go into BENCHMARKS.md; nothing here is a timed test.
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

import aiosqlite

from bench.direct_sqlite import DirectConnection
from bot.store import Conflict, Store, Tx
from bot.store.attempts import Standing
from engine.faces import seeded_faces
from engine.models import RollRequest, Ruleset, Term
from engine.offers import will_spend_refusal, will_state_for
from engine.records import (
    ActionKind,
    ActionStatus,
    ChannelConfig,
    PressRefusal,
    RollRecord,
    WillPool,
    WillState,
)
from engine.roll import roll, spend_will
from engine.table import attempts, extended

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


def _prepare(tx: Tx, workers: int, will_rolls: int) -> tuple[list[tuple[int, int]], list[int]]:
    result = roll(REQUEST, FACES)
    spendable: list[tuple[int, int]] = []
    for number in range(will_rolls):
        user = 20_000_000 + number
        tx.will.save(None, WillPool(guild_id=GUILD, user_id=user, current=5, maximum=5))
        record = tx.rolls.insert(
            guild_id=GUILD, channel_id=number % CHANNELS, roller_id=user,
            roller_name="Bench", result=result, will_state=WillState.OFFERED,
        )
        spendable.append((record.id, user))
    actions = [
        tx.actions.create(
            ActionKind.EXTENDED, guild_id=GUILD, channel_id=worker % CHANNELS,
            owner_id=user_of(worker, 0), label=f"research {worker}", state=EXTENDED_STATE,
        ).id
        for worker in range(workers)
    ]
    return spendable, actions


async def prepare(
    store: Store, workers: int, will_rolls: int
) -> tuple[collections.deque[tuple[int, int]], list[int]]:
    """Rolls that offer Will, each by a roller with a tracked pool (one spend each), and
    an extended action per worker."""
    spendable, actions = await store.write(lambda tx: _prepare(tx, workers, will_rolls))
    return collections.deque(spendable), actions


async def op_config(store: Store, worker: int, index: int) -> bool:
    await store.read(lambda tx: tx.settings.config(GUILD, worker % CHANNELS))
    return True


async def op_roll(store: Store, worker: int, index: int) -> bool:
    user = user_of(worker, index % 50)
    channel = worker % CHANNELS
    label = f"sneak {index % 7}"

    def gather(tx: Tx) -> tuple[ChannelConfig, Standing]:
        return (
            tx.settings.config(GUILD, channel),
            tx.attempts.standing(GUILD, channel, user, label=label, turn=True, will=True),
        )

    config, standing = await store.read(gather)
    result = roll(attempts.with_penalty(REQUEST, standing.failures), FACES)

    def write(tx: Tx) -> RollRecord:
        record, _ = tx.rolls.close_and_insert(
            guild_id=GUILD, channel_id=channel, roller_id=user, roller_name="Bench",
            result=result, will_state=will_state_for(result, config), label=label,
        )
        failures = standing.failures
        after = attempts.record(failures, result)
        if not tx.attempts.save_failures(GUILD, channel, user, label, old=failures, new=after):
            raise Conflict(None)
        return record

    record = await store.write(write)
    await store.write(lambda tx: tx.rolls.attach_messages(record.id, 900_000_000 + record.id))
    return True


def op_will(spendable: collections.deque[tuple[int, int]]) -> Operation:
    async def spend(store: Store, worker: int, index: int) -> bool:
        if not spendable:
            return False
        roll_id, user = spendable.popleft()

        def gather(tx: Tx) -> tuple[ChannelConfig, RollRecord | None, WillPool | None]:
            record = tx.rolls.get(roll_id)
            return tx.settings.config(GUILD, 0), record, tx.will.get(GUILD, user)

        _, record, pool = await store.read(gather)
        if record is None or will_spend_refusal(record, user, pool) is not None:
            msg = f"roll {roll_id} refused Will"
            raise RuntimeError(msg)
        result = spend_will(record.result, FACES)

        def write(tx: Tx) -> WillPool | None:
            if tx.rolls.spend_will(roll_id, user, result) is None:
                raise Conflict(PressRefusal.ALREADY_SPENT)
            return tx.will.debit(GUILD, user)

        if await store.write(write) is None:
            msg = f"roll {roll_id}: no Will debited"
            raise RuntimeError(msg)
        return True

    return spend


def op_extended(actions: list[int]) -> Operation:
    async def update(store: Store, worker: int, index: int) -> bool:
        action_id = actions[worker]
        record = await store.read(lambda tx: tx.actions.get(action_id))
        if record is None or await store.write(
            lambda tx: tx.actions.update(
                action_id, record.version, EXTENDED_STATE, ActionStatus.OPEN
            )
        ) is None:
            msg = f"action {action_id} update lost"
            raise RuntimeError(msg)
        return True

    return update


# ---------------------------------------------------------------------- measuring


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
          f"synchronous={args.synchronous or 'NORMAL (the store default)'}, {args.seconds:g} s"
          " per figure")
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
            before = store.trips
            await operation(store, 0, 0)
            trips = str(store.trips - before)
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
