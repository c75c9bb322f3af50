"""/stats on a big log: p50/p99 of the whole flow with 1,000,000 rolls stored.

Run from the repository root::

    .venv/bin/python -m bench.bench_stats               # 1,000,000 rolls
    .venv/bin/python -m bench.bench_stats --rolls 100000 --runs 50

How the store is filled (fast, not through the roll path): 3,000 real engine results
(300 requests of a table's mix: cofd 80 %, v20 15 %, fistful 5 %, pools 1–15, labels,
again, rote, specialty, difficulties) are rolled with seeded dice; the log gets
1,000,000 rows drawn from them by direct inserts (20 channels, 40 members, two years,
5 % secret), and the counters are written directly: the per-channel, per-member, per-day
rows summed in Python from the same rows, the other levels and the months summed from
those in SQL. The script checks the counters against the log's totals before timing.

Then each workload runs the real flow (``bot.flows.stats.stats``: one read, the engine's
tests, the chart PNG, the embed) through a recording responder, ``--runs`` times after
one cold run (the cold run computes each request shape's exact odds once; later runs
find them cached). Printed: rows in the log, the cold run, p50 and p99.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sqlite3
import statistics
import tempfile
import time
from collections import defaultdict
from datetime import date, timedelta
from pathlib import Path

from bench.bench_flows import Quiet
from bot.flows.context import Ctx, Deps
from bot.flows.reply import run
from bot.flows.stats import Member, stats
from bot.store import Store
from bot.store.stats import OUTCOME_COLUMNS, day_number
from engine.faces import seeded_faces
from engine.models import Again, Outcome, RollRequest, RollResult, Ruleset, Term
from engine.roll import roll
from engine.stats import shape_of

GUILD = 1_000_000_000_000_000_001
CHANNELS = [2_000_000_000_000_000_000 + n for n in range(20)]
MEMBERS = [3_000_000_000_000_000_000 + n for n in range(40)]
STORYTELLER = 3_999_999_999_999_999_999
FIRST_DAY = date(2024, 1, 1)
DAYS = 730
TRAITS = ("Strength", "Dexterity", "Wits", "Presence", "Resolve", "Brawl", "Firearms")


def _request(rng: random.Random) -> RollRequest:
    pool = rng.randint(1, 15)
    split = rng.randint(0, pool)
    terms = (Term(label=rng.choice(TRAITS), value=split),
             Term(label=rng.choice(TRAITS), value=pool - split))
    kind = rng.random()
    if kind < 0.8:
        return RollRequest(ruleset=Ruleset.COFD, terms=terms,
                           again=rng.choice([None, None, None, Again.NINE, Again.EIGHT]),
                           rote=rng.random() < 0.1, specialty=rng.random() < 0.2)
    if kind < 0.95:
        return RollRequest(ruleset=Ruleset.V20, terms=terms, difficulty=rng.randint(4, 9))
    return RollRequest(ruleset=Ruleset.FISTFUL, terms=terms, risky=rng.random() < 0.3)


def _results(count: int) -> list[RollResult]:
    rng = random.Random(1)
    faces = seeded_faces(2)
    requests = [_request(rng) for _ in range(300)]
    return [roll(requests[n % len(requests)], faces) for n in range(count)]


def _vector(result: RollResult) -> list[int]:
    """rolls, dice, will, five outcomes, ten faces: one roll's tally row."""
    faces = [0] * 10
    for die in result.dice:
        faces[die.face - 1] += 1
    outcomes = [int(result.outcome is outcome) for outcome in OUTCOME_COLUMNS]
    return [1, len(result.dice), 0, *outcomes, *faces]


def fill(path: Path, rolls: int) -> None:
    """The log and its counters, written directly (see the module's docstring)."""
    results = _results(3000)
    requests_json = [result.request.model_dump_json() for result in results]
    results_json = [result.model_dump_json() for result in results]
    vectors = [_vector(result) for result in results]
    shapes = [shape_of(result.request) for result in results]
    rng = random.Random(3)
    homes = {member: rng.sample(CHANNELS, rng.randint(1, 2)) for member in MEMBERS}
    tally: dict[tuple[int, int, int, int, str], list[int]] = {}
    shaped: dict[tuple[int, int, int, int, str, str], list[int]] = defaultdict(lambda: [0] * 6)
    db = sqlite3.connect(path, isolation_level=None)
    db.execute("PRAGMA synchronous = OFF")
    db.execute("BEGIN")
    batch: list[tuple[object, ...]] = []
    for n in range(rolls):
        member = MEMBERS[rng.randrange(len(MEMBERS))]
        channel = rng.choice(homes[member])
        day = FIRST_DAY + timedelta(days=n * DAYS // rolls)
        private = int(rng.random() < 0.05)
        which = rng.randrange(len(results))
        result = results[which]
        ruleset = result.request.ruleset.value
        batch.append((GUILD, channel, member, f"Member {member % 100}", private,
                      requests_json[which], results_json[which],
                      f"{day.isoformat()}T20:00:00.000Z"))
        key = (channel, member, day_number(day), private, ruleset)
        into = tally.get(key)
        if into is None:
            tally[key] = list(vectors[which])
        else:
            for i, value in enumerate(vectors[which]):
                into[i] += value
        counts = shaped[(*key, shapes[which])]
        counts[0] += 1
        counts[1 + OUTCOME_COLUMNS.index(Outcome(result.outcome))] += 1
        if len(batch) == 20_000:
            _insert_log(db, batch)
    _insert_log(db, batch)
    db.executemany(
        "INSERT INTO stat_tally VALUES (?, ?, ?, 'day', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
        " ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(GUILD, c, m, d, p, r, *values) for (c, m, d, p, r), values in tally.items()],
    )
    db.executemany(
        "INSERT INTO stat_shapes VALUES (?, ?, ?, 'day', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
        [(GUILD, c, m, d, p, r, s, *values) for (c, m, d, p, r, s), values in shaped.items()],
    )
    _derive(db)
    db.execute("COMMIT")
    db.close()


def _insert_log(db: sqlite3.Connection, batch: list[tuple[object, ...]]) -> None:
    db.executemany(
        "INSERT INTO rolls (guild_id, channel_id, roller_id, roller_name, private,"
        " request_json, result_json, will_state, created_at, updated_at)"
        " VALUES (?, ?, ?, ?, ?, ?, ?, 'none', ?, ?8)",
        batch,
    )
    batch.clear()


def _derive(db: sqlite3.Connection) -> None:
    """The other levels, the months and all time, summed in SQL from the per-channel-member
    days."""
    tally = ("rolls, dice, will_spent, dramatic_failure, failure, success, exceptional_success,"
             " botch, f1, f2, f3, f4, f5, f6, f7, f8, f9, f10")
    shapes = "rolls, dramatic_failure, failure, success, exceptional_success, botch"
    month = ("CAST(strftime('%Y', bucket * 86400, 'unixepoch') AS INTEGER) * 12"
             " + CAST(strftime('%m', bucket * 86400, 'unixepoch') AS INTEGER) - 1")
    for table, values, extra in (("stat_tally", tally, ""), ("stat_shapes", shapes, ", shape")):
        sums = ", ".join(f"sum({name})" for name in values.split(", "))
        base = f"FROM {table} WHERE span = 'day' AND channel_id != 0 AND roller_id != 0"
        for channel, roller in (("channel_id", "0"), ("0", "roller_id"), ("0", "0")):
            kept = "".join(f", {name}" for name in (channel, roller) if name != "0")
            db.execute(
                f"INSERT INTO {table} SELECT guild_id, {channel}, {roller}, 'day', bucket,"
                f" private, ruleset{extra}, {sums} {base}"
                f" GROUP BY guild_id{kept}, bucket, private, ruleset{extra}"
            )
        for span, bucket in (("month", month), ("all", "0")):
            by_bucket = f", {bucket}" if bucket != "0" else ""
            db.execute(
                f"INSERT INTO {table} SELECT guild_id, channel_id, roller_id, '{span}',"  # noqa: S608
                f" {bucket}, private, ruleset{extra}, {sums} FROM {table} WHERE span = 'day'"
                f" GROUP BY guild_id, channel_id, roller_id{by_bucket}, private, ruleset{extra}"
            )


def _check(path: Path, rolls: int) -> None:
    with sqlite3.connect(path) as db:
        logged = db.execute("SELECT count(*) FROM rolls").fetchone()[0]
        counted = db.execute("SELECT sum(rolls) FROM stat_tally WHERE span = 'all'"
                             " AND channel_id = 0 AND roller_id = 0").fetchone()[0]
        shaped = db.execute("SELECT sum(rolls) FROM stat_shapes WHERE span = 'day'"
                            " AND channel_id != 0 AND roller_id = 0").fetchone()[0]
        tally_rows = db.execute("SELECT count(*) FROM stat_tally").fetchone()[0]
        shape_rows = db.execute("SELECT count(*) FROM stat_shapes").fetchone()[0]
    if not logged == counted == shaped == rolls:
        msg = f"log {logged}, counters {counted}, shapes {shaped}: expected {rolls}"
        raise SystemExit(msg)
    print(f"{logged:,} rolls in the log; {tally_rows:,} tally rows, {shape_rows:,} shape rows")


def _ctx(user: int, *, storyteller: bool = False) -> Ctx:
    return Ctx(guild_id=GUILD, channel_id=CHANNELS[0], user_id=user, user_name="Someone",
               manages_channel=storyteller, manages_guild=storyteller,
               readable=frozenset(CHANNELS[:-1]))


#: A member who rolls in CHANNELS[0]: found in the log once it is filled.
REGULAR: list[int] = []

WORKLOADS = {
    "channel, everyone (member)": lambda deps: stats(deps, _ctx(MEMBERS[0])),
    "channel, everyone (Storyteller)": lambda deps: stats(
        deps, _ctx(STORYTELLER, storyteller=True)),
    "channel, one member": lambda deps: stats(
        deps, _ctx(MEMBERS[1]), member=Member(REGULAR[0], "Regular")),
    "server, everyone (Storyteller)": lambda deps: stats(
        deps, _ctx(STORYTELLER, storyteller=True), scope="server"),
    "server, everyone (member)": lambda deps: stats(deps, _ctx(MEMBERS[0]), scope="server"),
    "server, one member": lambda deps: stats(
        deps, _ctx(MEMBERS[0]), member=Member(MEMBERS[0], "Member 0"), scope="server"),
    "server, since 2024-12-15": lambda deps: stats(
        deps, _ctx(STORYTELLER, storyteller=True), scope="server", since="2024-12-15"),
    "server, since 2024-12-15 (member)": lambda deps: stats(
        deps, _ctx(MEMBERS[0]), scope="server", since="2024-12-15"),
}


async def measure(path: Path, runs: int) -> None:
    with sqlite3.connect(path) as db:
        REGULAR.append(db.execute("SELECT roller_id FROM rolls WHERE channel_id = ? LIMIT 1",
                                  (CHANNELS[0],)).fetchone()[0])
    store = await Store.open(path)
    deps = Deps(store=store, faces=seeded_faces(1))
    try:
        for name, workload in WORKLOADS.items():
            start = time.perf_counter()
            await run(workload(deps), Quiet())
            cold = time.perf_counter() - start
            latencies = []
            for _ in range(runs):
                start = time.perf_counter()
                await run(workload(deps), Quiet())
                latencies.append(time.perf_counter() - start)
            cuts = statistics.quantiles(latencies, n=100)
            print(f"{name:<34} cold {cold * 1000:7.1f} ms, p50 {cuts[49] * 1000:6.2f} ms,"
                  f" p99 {cuts[98] * 1000:6.2f} ms")
    finally:
        await store.close()


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--rolls", type=int, default=1_000_000)
    parser.add_argument("--runs", type=int, default=200)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bench.sqlite3"
        await (await Store.open(path)).close()  # the schema, migrations included
        start = time.perf_counter()
        fill(path, args.rolls)
        print(f"filled in {time.perf_counter() - start:.0f} s")
        _check(path, args.rolls)
        await measure(path, args.runs)


if __name__ == "__main__":
    asyncio.run(main())
