"""Load benchmark: many tables hammering one bot process through the end-to-end fake Discord.

Run from the repository root (the fake Discord and the load generator share this
process; the bot is ``python -m bot``, or the bare discord.py bot, in its own)::

    .venv/bin/python -m bench.load                       # the suite: both bots, both modes
    .venv/bin/python -m bench.load --bot real --mode open --rate 200 --duration 30
    .venv/bin/python -m bench.load --bot real --mode closed --concurrency 8 16 32
    .venv/bin/python -m bench.load --bot real --mix roll=60,will=20,odds=20
    .venv/bin/python -m bench.load --bot real --mode open --profile /tmp/bot.prof
    .venv/bin/python -m bench.load --bot real --whatif direct-store   # bench/whatif.py
    .venv/bin/python -m bench.load --bot real --store both --mode open --rate 50
    .venv/bin/python -m bench.load --bot real --store postgres --processes 1 2 --mode closed
    .venv/bin/python -m bench.load --bot real --store postgres --processes 1 2 --mode closed \
        --cpu-limit 0.4

Modes: ``open`` offers a fixed rate (``--rate`` interactions/s on a fixed schedule,
whatever the bot answers); ``closed`` runs ``--concurrency`` workers that each fire the
next interaction as soon as the previous one is acknowledged (the bot's peak
throughput is the best of the listed concurrencies).

Figures: throughput (acknowledged interactions/s), p50/p95/p99/max handling latency
(the fake's ``Callback.delay``: dispatch of INTERACTION_CREATE to the interaction
callback), errors (timeouts, refusals, the bot's apology, requests the real Discord
would reject, acknowledgements after 3 s, ERROR lines in the bot's log), the bot's
RSS when idle after start-up, its peak RSS (``VmHWM``), and CPU seconds per 1,000
interactions of the bot and of this process. With both bots and both modes it ends
with the table of targets (BENCHMARKS.md). Nothing here is a timed test.

``--store postgres`` runs the real bot on PostgreSQL: a throw-away server (the test
suite's, tests/postgres_server.py) started once, a new database per run, and its
processes' CPU reported beside the bot's. ``--processes N`` (PostgreSQL only) spreads
the tables over N servers (guilds), one on each shard of N, and starts N bot processes
(``SHARD_COUNT=N``, ``SHARD_IDS=n``), commands synced globally by shard 0's: CPU is
then the processes' sum, RSS the largest process's. ``--cpu-limit C`` holds each bot
process to C cores, as a container's ``--cpus`` does (bench/cpulimit.py; Linux, as root),
so that one and several processes compare on a machine whose cores the whole rig fills.

The bot runs with ``DICE_SEED`` (reproducible dice), a fresh SQLite file in
``--db-dir`` and ``LOG_LEVEL=INFO`` (production's default). ``--profile`` runs the bot
under cProfile (``python -m cProfile -o FILE -m bot``; no bot code changes) and prints
its top functions; timings under the profiler are not the benchmark's figures.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import io
import itertools
import json
import math
import os
import platform
import pstats
import shutil
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

from bench import cpulimit, procstat
from bench.load_driver import Driver, Recorder
from bench.load_mix import BARE_MIX, DEFAULT_MIX, NEEDS, Table, build_tables, configure, parse_mix
from tests.e2e.harness import BotProcess, FakeDiscord
from tests.postgres_server import PostgresServer, binaries

#: How each bot is started (after ``python``).
BOTS = {
    "real": ["-m", "bot"],
    "bare": ["tests/e2e/bare_bot.py"],
}
#: Targets from the issue (BENCHMARKS.md).
TARGET_PEAK_SHARE = 0.5
TARGET_MEDIAN_FACTOR = 2.0
TARGET_P99_MS = 20.0
TARGET_PEAK_RSS_MIB = 150.0
TARGET_IDLE_RSS_MIB = 80.0


@dataclass
class RunConfig:
    bot: str
    mode: str
    rate: float | None
    concurrency: int | None
    duration: float
    warmup: float
    tables: int
    mix: str
    turn_every: int
    timeout: float
    seed: int
    db_dir: Path | None
    log_level: str
    profile: Path | None
    whatif: str = ""
    #: ``sqlite`` (a fresh file) or ``postgres`` (a fresh database on the server that
    #: ``--store postgres`` starts).
    store: str = "sqlite"
    #: Bot processes, one shard each (``SHARD_COUNT`` = this); over 1 needs PostgreSQL.
    processes: int = 1
    #: Cores each bot process may use (bench/cpulimit.py); None: as many as it takes.
    cpu_limit: float | None = None

    @property
    def name(self) -> str:
        load = f"{self.rate:g}/s offered" if self.mode == "open" else f"{self.concurrency} workers"
        patched = f" +{self.whatif}" if self.whatif else ""
        where = "" if self.store == "sqlite" else f" {self.store}"
        if self.processes > 1:
            where += f" ×{self.processes} processes"
        if self.cpu_limit is not None:
            where += f" at {self.cpu_limit:g} CPU each"
        return f"{self.bot}{patched}{where} {self.mode} ({load})"

    def argv(self) -> list[str]:
        target = BOTS[self.bot]
        if self.whatif:
            target = ["-m", "bench.whatif", self.whatif, "--", *target]
        if self.profile is not None:
            target = ["-m", "cProfile", "-o", str(self.profile), *target]
        return [sys.executable, *target]


@dataclass
class RunResult:
    name: str
    bot: str
    mode: str
    rate: float | None
    concurrency: int | None
    window_s: float
    mix: str
    dropped_scenarios: list[str]
    interactions: int
    throughput: float
    p50_ms: float
    p95_ms: float
    p99_ms: float
    max_ms: float
    per_kind: dict[str, dict[str, float]]
    errors: dict[str, int]
    error_samples: dict[str, str]
    rule_refusals: dict[str, int]
    lag_p99_ms: float | None
    lag_max_ms: float | None
    unsent_tickets: int
    idle_rss_mib: float
    peak_rss_mib: float
    after_rss_mib: float
    bot_cpu_ms_per_1000: float
    bot_cpu_split_ms_per_1000: dict[str, float]
    generator_cpu_ms_per_1000: float
    #: The PostgreSQL server's processes (None on SQLite).
    database_cpu_ms_per_1000: float | None
    #: REST requests the fake answered per interaction, by method and route.
    rest_per_interaction: dict[str, float]
    #: With ``--cpu-limit``: the share of the window the bot processes waited for their
    #: quota (the mean over them); near 0, the budget was not what held them back.
    throttled_share: float | None
    load_before: str
    load_after: str
    profile_top: list[str] = field(default_factory=list)

    @property
    def error_count(self) -> int:
        return sum(self.errors.values())

    @property
    def sustained(self) -> bool:
        """Open loop: whether the offered rate was held (not: tickets never sent, or
        interactions dispatched over 100 ms behind schedule because every table waited)."""
        if self.rate is None:
            return True
        offered = self.rate * self.window_s
        return self.unsent_tickets <= 0.01 * offered and (self.lag_p99_ms or 0.0) < 100


def percentile(values: Sequence[float], fraction: float) -> float:
    """Nearest-rank percentile (``fraction`` in 0..1); NaN for no values."""
    if not values:
        return math.nan
    ordered = sorted(values)
    rank = max(1, math.ceil(fraction * len(ordered)))
    return ordered[rank - 1]


def _ms(values: Sequence[float], fraction: float) -> float:
    return percentile(values, fraction) * 1000


# ---------------------------------------------------------------------- one run


async def _phase(
    driver: Driver, tables: list[Table], config: RunConfig, seconds: float, mix: dict[str, float]
) -> tuple[Recorder, float]:
    """Run the load for ``seconds``; the phase's recorder and its measured window."""
    paced = config.mode == "open"
    # The fake keeps every interaction and message: a full collection of that heap in
    # this process would stall the dispatch and the fake's clock (100+ ms) and show up
    # as the bot's latency. Collect between phases instead.
    gc.collect()
    gc.freeze()
    gc.disable()
    try:
        return await _load(driver, tables, config, seconds, mix, paced=paced)
    finally:
        gc.enable()


async def _load(
    driver: Driver,
    tables: list[Table],
    config: RunConfig,
    seconds: float,
    mix: dict[str, float],
    *,
    paced: bool,
) -> tuple[Recorder, float]:
    loop = asyncio.get_running_loop()
    recorder = driver.begin(paced=paced)
    scenarios, weights = list(mix), list(mix.values())
    start = loop.time()
    until = start + seconds

    async def work(mine: list[Table]) -> None:
        for table in itertools.cycle(mine):
            if not driver.running or loop.time() >= until:
                return
            await table.step(driver, scenarios, weights, config.turn_every)

    if paced:
        groups = [[table] for table in tables]
    else:
        workers = config.concurrency or 1
        groups = [tables[index::workers] for index in range(workers)]
    tasks = [asyncio.create_task(work(group)) for group in groups]
    producer = asyncio.create_task(driver.produce(until))
    await asyncio.sleep(max(0.0, until - loop.time()))
    driver.running = False
    await producer
    await asyncio.gather(*tasks)
    return recorder, until - start


async def _sample_rss(pid: int, peak: list[float], stop: asyncio.Event) -> None:
    while not stop.is_set():
        with contextlib.suppress(FileNotFoundError):
            peak[0] = max(peak[0], procstat.memory(pid).rss_mib)
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(stop.wait(), 0.25)


def _log_problems(path: Path) -> tuple[int, str]:
    """ERROR lines and tracebacks in the bot's log; the first as a sample."""
    if not path.exists():
        return 0, ""
    lines = [
        line for line in path.read_text(errors="replace").splitlines()
        if " ERROR " in line or line.startswith("Traceback")
    ]
    return len(lines), lines[0] if lines else ""


def _profile_top(path: Path, count: int = 30) -> list[str]:
    if not path.exists():
        return [f"(no profile written at {path})"]
    stream = io.StringIO()
    stats = pstats.Stats(str(path), stream=stream)
    stats.strip_dirs().sort_stats("tottime").print_stats(count)
    return stream.getvalue().splitlines()


async def run_one(config: RunConfig, postgres: PostgresServer | None = None) -> RunResult:
    """Start a fake Discord and the bot's processes, load them, measure, stop them all.

    With ``--processes N`` the tables are spread over N servers, one on each shard, and
    process ``n`` runs shard ``n`` of N (``SHARD_IDS``), commands synced globally by
    shard 0's, as a deployment of several processes runs (README)."""
    fake = FakeDiscord(enforce_ack_deadline=False)
    await fake.start()
    workdir = Path(tempfile.mkdtemp(prefix="storyteller-load-", dir=config.db_dir))
    count = config.processes
    try:
        guilds = [None] if count == 1 else [
            fake.add_guild(f"Tables on shard {shard}", shard=(shard, count))
            for shard in range(count)
        ]
        tables = build_tables(fake, config.tables, seed=config.seed, guilds=guilds)
        env: dict[str, str] = {}
        if postgres is not None:
            env["DATABASE_URL"] = await postgres.new_database()
        bots: list[BotProcess] = []
        groups: list[Path] = []
        try:
            # Shard 0 last: it syncs the commands, and its start waits until the fake's own
            # server, whichever shard owns it, is served.
            for shard in reversed(range(count)):
                shards = {} if count == 1 else {
                    "SHARD_COUNT": str(count), "SHARD_IDS": str(shard), "DEV_GUILD_ID": "",
                    "SYNC_COMMANDS": "true",
                }
                bot = BotProcess(
                    fake, config.argv(), env | shards, workdir / "bot.sqlite3",
                    dice_seed=config.seed, log_level=config.log_level,
                    name=config.bot if count == 1 else f"{config.bot}-{shard}",
                )
                bots.append(bot)
                await bot.start(timeout=60, synced=shard == 0)
                if config.cpu_limit is not None and bot.pid is not None:
                    groups.append(cpulimit.limit(bot.pid, config.cpu_limit,
                                                 f"storyteller-load-{os.getpid()}-{shard}"))
            return await _measure(config, fake, bots, tables, _postmaster(postgres),
                                  groups=groups)
        finally:
            for bot in bots:
                await bot.stop(timeout=30)
            for group in groups:
                cpulimit.release(group)
    finally:
        await fake.stop()
        shutil.rmtree(workdir, ignore_errors=True)
        gc.unfreeze()  # frozen by _phase: let this run's fake be freed


def _postmaster(postgres: PostgresServer | None) -> int | None:
    """The PostgreSQL server's main process (its backends are its children)."""
    if postgres is None:
        return None
    return int((postgres.root / "data" / "postmaster.pid").read_text().split()[0])


def _database_cpu(before: dict[int, float], after: dict[int, float]) -> float:
    """CPU seconds the server's processes spent between two readings (a backend started
    meanwhile counts whole; one ended meanwhile is lost: the bots' connections last)."""
    return sum(seconds - before.get(pid, 0.0) for pid, seconds in after.items())


async def _measure(
    config: RunConfig,
    fake: FakeDiscord,
    bots: list[BotProcess],
    tables: list[Table],
    postmaster: int | None,
    *,
    groups: list[Path],
) -> RunResult:
    pids = [bot.pid for bot in bots]
    if None in pids:
        msg = "the bot did not start"
        raise RuntimeError(msg)
    alive = [pid for pid in pids if pid is not None]
    synced = {command["name"] for command in fake.guild_commands + fake.global_commands}
    wanted = parse_mix(config.mix)
    mix = {name: w for name, w in wanted.items() if set(NEEDS[name]) <= synced}
    dropped = sorted(set(wanted) - set(mix))
    if not mix:
        msg = f"no scenario of {config.mix!r} can run: the bot synced only {sorted(synced)}"
        raise RuntimeError(msg)
    if config.mode == "closed" and (config.concurrency or 1) > len(tables):
        msg = f"--concurrency {config.concurrency} needs at least as many --tables"
        raise ValueError(msg)

    await asyncio.sleep(2.0)  # idle after start-up
    idle = max(procstat.memory(pid).rss_mib for pid in alive)
    driver = Driver(fake, timeout=config.timeout, rate=config.rate)
    if config.bot == "real":
        driver.begin(paced=False)
        await configure(tables, driver, sheets="byname" in mix)
    if config.warmup > 0:
        await _phase(driver, tables, config, config.warmup, mix)
    failures_before, late_before = len(fake.failures), len(fake.late)
    requests_before = fake.requests.copy()
    load_before = procstat.load_average()
    bot_cpu = sum(procstat.cpu_seconds(pid) for pid in alive)
    threads = [procstat.thread_cpu(pid) for pid in alive]
    database = {} if postmaster is None else procstat.family_cpu(postmaster)
    own_cpu = time.process_time()
    throttled = [cpulimit.throttled_seconds(group) for group in groups]
    peaks = {pid: [0.0] for pid in alive}
    stop_sampling = asyncio.Event()
    samplers = [asyncio.create_task(_sample_rss(pid, peaks[pid], stop_sampling))
                for pid in alive]
    recorder, window = await _phase(driver, tables, config, config.duration, mix)
    stop_sampling.set()
    await asyncio.gather(*samplers)
    bot_cpu = sum(procstat.cpu_seconds(pid) for pid in alive) - bot_cpu
    threads_after = [procstat.thread_cpu(pid) for pid in alive]
    database_cpu = (None if postmaster is None
                    else _database_cpu(database, procstat.family_cpu(postmaster)))
    own_cpu = time.process_time() - own_cpu
    throttled = [cpulimit.throttled_seconds(group) - before
                 for group, before in zip(groups, throttled, strict=True)]
    requests = fake.requests - requests_before
    peak = max(max(procstat.memory(pid).hwm_mib, peaks[pid][0]) for pid in alive)
    load_after = procstat.load_average()
    await asyncio.sleep(1.0)
    after = max(procstat.memory(pid).rss_mib for pid in alive)

    for failure in fake.failures[failures_before:]:
        recorder.error(f"fake rejected ({failure.kind})", str(failure))
    for late in fake.late[late_before:]:
        recorder.error("ack after 3 s", repr(late))
    for bot in bots:
        log_errors, log_sample = _log_problems(bot.stderr_path)
        if log_errors:
            recorder.errors["bot log ERROR/Traceback"] += log_errors
            recorder.samples.setdefault("bot log ERROR/Traceback", log_sample)

    delays = recorder.all_latencies
    count = recorder.acked
    per_kind = {
        kind: {
            "count": len(values),
            "p50_ms": _ms(values, 0.5),
            "p99_ms": _ms(values, 0.99),
            "max_ms": max(values) * 1000,
        }
        for kind, values in sorted(recorder.latencies.items())
    }
    thousand = max(count, 1) / 1000
    return RunResult(
        name=config.name,
        bot=config.bot,
        mode=config.mode,
        rate=config.rate if config.mode == "open" else None,
        concurrency=config.concurrency if config.mode == "closed" else None,
        window_s=window,
        mix=",".join(f"{k}={v:g}" for k, v in mix.items()),
        dropped_scenarios=dropped,
        interactions=count,
        throughput=count / window,
        p50_ms=_ms(delays, 0.5),
        p95_ms=_ms(delays, 0.95),
        p99_ms=_ms(delays, 0.99),
        max_ms=max(delays, default=math.nan) * 1000,
        per_kind=per_kind,
        errors=dict(recorder.errors),
        error_samples=dict(recorder.samples),
        rule_refusals=dict(recorder.rule_refusals),
        lag_p99_ms=_ms(recorder.lags, 0.99) if recorder.lags else None,
        lag_max_ms=max(recorder.lags) * 1000 if recorder.lags else None,
        unsent_tickets=driver.unsent_tickets,
        idle_rss_mib=idle,
        peak_rss_mib=peak,
        after_rss_mib=after,
        bot_cpu_ms_per_1000=bot_cpu * 1000 / thousand,
        bot_cpu_split_ms_per_1000={
            name: sum(after_bot[index] - before_bot[index]
                      for before_bot, after_bot in zip(threads, threads_after, strict=True))
            * 1000 / thousand
            for index, name in enumerate(procstat.ThreadCpu._fields)
        },
        generator_cpu_ms_per_1000=own_cpu * 1000 / thousand,
        database_cpu_ms_per_1000=(None if database_cpu is None
                                  else database_cpu * 1000 / thousand),
        rest_per_interaction={route: n / max(count, 1) for route, n in requests.most_common()},
        throttled_share=(sum(throttled) / len(throttled) / window) if throttled else None,
        load_before=load_before,
        load_after=load_after,
        profile_top=_profile_top(config.profile) if config.profile else [],
    )


# ---------------------------------------------------------------------- reports


def print_run(result: RunResult) -> None:
    print(f"\n### {result.name} — {result.window_s:.0f} s, load {result.load_before}"
          f" → {result.load_after}")
    print(f"mix: {result.mix}" + (
        f" (not synced by the bot, left out: {', '.join(result.dropped_scenarios)})"
        if result.dropped_scenarios else ""))
    print(f"throughput {result.throughput:.0f}/s ({result.interactions} acknowledged);"
          f" latency ms p50 {result.p50_ms:.2f} p95 {result.p95_ms:.2f}"
          f" p99 {result.p99_ms:.2f} max {result.max_ms:.1f}")
    if result.lag_p99_ms is not None:
        held = "held" if result.sustained else "NOT held: the bot fell behind"
        print(f"offered rate {held}; dispatch lag ms p99 {result.lag_p99_ms:.2f}"
              f" max {result.lag_max_ms:.1f}; tickets left unsent: {result.unsent_tickets}")
    print(f"bot RSS MiB: idle {result.idle_rss_mib:.1f}, peak {result.peak_rss_mib:.1f},"
          f" after {result.after_rss_mib:.1f}; CPU ms per 1,000 interactions:"
          f" bot {result.bot_cpu_ms_per_1000:.0f}, generator+fake"
          f" {result.generator_cpu_ms_per_1000:.0f}" + (
              "" if result.database_cpu_ms_per_1000 is None
              else f", PostgreSQL server {result.database_cpu_ms_per_1000:.0f}"))
    if result.throttled_share is not None:
        print(f"bot processes throttled by their CPU budget {result.throttled_share:.0%}"
              " of the window (mean over them)")
    split = ", ".join(f"{k} {v:.0f}" for k, v in result.bot_cpu_split_ms_per_1000.items())
    print(f"bot CPU by thread, ms per 1,000 interactions: {split}")
    routes = ", ".join(f"{route} {n:.2f}" for route, n in result.rest_per_interaction.items())
    print(f"REST calls per interaction: {sum(result.rest_per_interaction.values()):.2f}"
          f" ({routes})")
    print(f"errors: {result.error_count}")
    for category, number in sorted(result.errors.items()):
        print(f"  {number:6d}  {category}: {result.error_samples.get(category, '')[:200]}")
    if result.rule_refusals:
        refused = ", ".join(f"{kind} {n}" for kind, n in sorted(result.rule_refusals.items()))
        print(f"rule refusals (a pool at 0 dice; the rules, not errors): {refused}")
    if len(result.per_kind) > 1:
        print("| interaction | count | p50 ms | p99 ms | max ms |")
        print("|---|---:|---:|---:|---:|")
        for kind, figures in result.per_kind.items():
            print(f"| {kind} | {figures['count']:.0f} | {figures['p50_ms']:.2f}"
                  f" | {figures['p99_ms']:.2f} | {figures['max_ms']:.1f} |")
    for line in result.profile_top:
        print(line)


def print_summary(results: list[RunResult]) -> None:
    print("\n## Runs\n")
    print("| run | throughput /s | p50 ms | p95 ms | p99 ms | max ms | errors"
          " | idle RSS MiB | peak RSS MiB | bot CPU ms/1k | load avg |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---|")
    for r in results:
        held = "" if r.sustained else " ⚠ not held"
        print(f"| {r.name}{held} | {r.throughput:.0f} | {r.p50_ms:.2f} | {r.p95_ms:.2f}"
              f" | {r.p99_ms:.2f} | {r.max_ms:.1f} | {r.error_count} | {r.idle_rss_mib:.1f}"
              f" | {r.peak_rss_mib:.1f} | {r.bot_cpu_ms_per_1000:.0f} | {r.load_before} |")
    by = {(r.bot, r.mode): [x for x in results if x.bot == r.bot and x.mode == r.mode]
          for r in results}
    if not all((bot, mode) in by for bot in BOTS for mode in ("open", "closed")):
        return
    bare_peak = max(r.throughput for r in by["bare", "closed"])
    real_peak = max(r.throughput for r in by["real", "closed"])
    bare_open, real_open = by["bare", "open"][0], by["real", "open"][0]
    rate = f"{real_open.rate:g}/s"
    real_runs = by["real", "open"] + by["real", "closed"]
    errors = sum(r.error_count for r in real_runs)
    peak_rss = max(r.peak_rss_mib for r in real_runs)
    idle_rss = max(r.idle_rss_mib for r in real_runs)
    rows = [
        ("peak throughput (closed loop, best)", f"{bare_peak:.0f}/s", f"{real_peak:.0f}/s",
         f"≥ {TARGET_PEAK_SHARE * bare_peak:.0f}/s", real_peak >= TARGET_PEAK_SHARE * bare_peak),
        (f"median ack at {rate}", f"{bare_open.p50_ms:.2f} ms", f"{real_open.p50_ms:.2f} ms",
         f"≤ {TARGET_MEDIAN_FACTOR * bare_open.p50_ms:.2f} ms",
         real_open.p50_ms <= TARGET_MEDIAN_FACTOR * bare_open.p50_ms),
        (f"p99 ack at {rate}", f"{bare_open.p99_ms:.2f} ms",
         f"{real_open.p99_ms:.2f} ms" + ("" if real_open.sustained else
                                         f" (rate not held: {real_open.throughput:.0f}/s)"),
         f"< {TARGET_P99_MS:g} ms", real_open.p99_ms < TARGET_P99_MS and real_open.sustained),
        ("errors (all real-bot runs)", str(sum(r.error_count for r in by["bare", "open"]
                                              + by["bare", "closed"])),
         str(errors), "0", errors == 0),
        ("peak RSS under load", f"{max(r.peak_rss_mib for r in by['bare', 'closed']):.1f} MiB",
         f"{peak_rss:.1f} MiB", f"< {TARGET_PEAK_RSS_MIB:g} MiB", peak_rss < TARGET_PEAK_RSS_MIB),
        ("RSS idle after start-up", f"{by['bare', 'open'][0].idle_rss_mib:.1f} MiB",
         f"{idle_rss:.1f} MiB", f"< {TARGET_IDLE_RSS_MIB:g} MiB", idle_rss < TARGET_IDLE_RSS_MIB),
    ]
    print("\n## Targets\n")
    print("| figure | bare bot | real bot | target | met |")
    print("|---|---:|---:|---:|:---:|")
    for figure, bare, real, target, met in rows:
        print(f"| {figure} | {bare} | {real} | {target} | {'yes' if met else '**no**'} |")


# ---------------------------------------------------------------------- command line


def _placements(bot: str, stores: list[str], processes: list[int]) -> list[tuple[str, int]]:
    """(store, processes) of each run of ``bot``: the bare bot has no store, and runs once;
    several processes only on PostgreSQL."""
    if bot == "bare":
        return [("sqlite", 1)]
    return [(store, count) for store in stores for count in processes
            if count == 1 or store == "postgres"]


def throwaway_postgres() -> PostgresServer:
    """The test suite's throw-away server (initdb into a temporary folder, a Unix socket;
    fsync off, as SQLite's ``synchronous = NORMAL`` does not sync a commit either)."""
    found = binaries()
    if found is None:
        sys.exit("--store postgres needs PostgreSQL's server binaries (apt-get install postgresql)")
    server = PostgresServer(found)
    server.start()
    return server


def main() -> None:
    parser = argparse.ArgumentParser(
        description=__doc__.splitlines()[0], formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--bot", choices=("bare", "real", "both"), default="both")
    parser.add_argument("--mode", choices=("open", "closed", "both"), default="both")
    parser.add_argument("--rate", type=float, default=200.0,
                        help="open loop: interactions offered per second (default 200)")
    parser.add_argument("--concurrency", type=int, nargs="+", default=[8, 32],
                        help="closed loop: workers; one run per value (default 8 32)")
    parser.add_argument("--duration", type=float, default=20.0, help="measured seconds")
    parser.add_argument("--warmup", type=float, default=3.0, help="unmeasured seconds first")
    parser.add_argument("--tables", type=int, default=60,
                        help="channels, each with 4 players and a Storyteller (default 60)")
    parser.add_argument("--mix", default=None,
                        help=f"scenario weights (real bot default {DEFAULT_MIX!r};"
                             f" the bare bot always runs {BARE_MIX!r})")
    parser.add_argument("--turn-every", type=int, default=2,
                        help="rounds between a table's /turn next (0: never)")
    parser.add_argument("--timeout", type=float, default=10.0,
                        help="seconds to wait for one acknowledgement before counting an error")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--db-dir", type=Path, default=None,
                        help="where the bot's SQLite file goes (default: the temp folder)")
    parser.add_argument("--log-level", default="INFO")
    parser.add_argument("--profile", type=Path, default=None,
                        help="run the bot under cProfile into this file (one run only)")
    parser.add_argument("--whatif", default="",
                        help="experiments: patch the bot at start-up (see bench/whatif.py)")
    parser.add_argument("--store", choices=("sqlite", "postgres", "both"), default="sqlite",
                        help="the real bot's store: a SQLite file, or a PostgreSQL server this"
                             " starts (the test suite's, from the Debian packages)")
    parser.add_argument("--processes", type=int, nargs="+", default=[1],
                        help="bot processes, one shard each, over PostgreSQL; one run per"
                             " value (default 1)")
    parser.add_argument("--cpu-limit", type=float, default=None,
                        help="cores each bot process may use, as a container's --cpus"
                             " (cgroups; Linux, as root); default: no limit")
    parser.add_argument("--json", type=Path, default=None, help="also write the results here")
    args = parser.parse_args()

    bots = ["bare", "real"] if args.bot == "both" else [args.bot]
    modes = ["closed", "open"] if args.mode == "both" else [args.mode]
    stores = ["sqlite", "postgres"] if args.store == "both" else [args.store]
    configs = []
    for bot in bots:
        for store, processes in _placements(bot, stores, args.processes):
            for mode in modes:
                for concurrency in args.concurrency if mode == "closed" else [None]:
                    configs.append(RunConfig(
                        bot=bot, mode=mode, rate=args.rate, concurrency=concurrency,
                        duration=args.duration, warmup=args.warmup, tables=args.tables,
                        mix=BARE_MIX if bot == "bare" else (args.mix or DEFAULT_MIX),
                        turn_every=0 if bot == "bare" else args.turn_every,
                        timeout=args.timeout, seed=args.seed, db_dir=args.db_dir,
                        log_level=args.log_level, profile=args.profile, whatif=args.whatif,
                        store=store, processes=processes, cpu_limit=args.cpu_limit,
                    ))
    if args.profile is not None and (len(configs) != 1 or configs[0].processes != 1):
        parser.error("--profile needs exactly one run of one process: pick --bot, --mode,"
                     " one --concurrency and one --processes")
    if any(config.processes > 1 and config.store != "postgres" for config in configs):
        parser.error("several --processes need --store postgres (SQLite serves one process)")
    print(f"# Load benchmark — Python {platform.python_version()}, {procstat.cpu_count()} CPUs,"
          f" load average {procstat.load_average()}")
    print(" ".join(["python -m bench.load", *sys.argv[1:]]))
    wanted = any(config.store == "postgres" for config in configs)
    postgres = throwaway_postgres() if wanted else None
    results = []
    try:
        for config in configs:
            server = postgres if config.store == "postgres" else None
            result = asyncio.run(run_one(config, server))
            print_run(result)
            results.append(result)
    finally:
        if postgres is not None:
            postgres.stop()
    print_summary(results)
    if args.json is not None:
        args.json.write_text(json.dumps([asdict(r) for r in results], indent=2, default=str))
    if any(r.error_count for r in results):
        print("\nsome runs had errors: see each run's list above", file=sys.stderr)


if __name__ == "__main__":
    main()
