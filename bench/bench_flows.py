"""Flow benchmark: each command's whole flow in process, with its database trips.

Run from the repository root::

    .venv/bin/python -m bench.bench_flows
    .venv/bin/python -m bench.bench_flows --seconds 5 --concurrency 1 8
    .venv/bin/python -m bench.bench_flows --database-url postgresql://bot@localhost/bench

Each workload runs the flow the bot runs for one interaction (``bot/flows/``),
on a fresh SQLite file (WAL, as in production), with seeded dice and a
responder that records instead of calling Discord, so what is measured is the
bot's own work: store trips, engine, render. Printed per workload: the trips
to the database thread one interaction takes (``Store.trips``, counted, not
timed), the round trips to the database server it takes on PostgreSQL
(``Store.round_trips``: statements, BEGIN and COMMIT; SQLite has none beyond its
trips), both counted on a third interaction after an idle moment (the first two
connect and, on PostgreSQL, prepare their statements), operations/s and p50/p99
latency. With ``--database-url`` the flows run on that PostgreSQL database
instead, which is EMPTIED before each workload: give it a database of its own.
Each task acts as its own member in its own channel (no conflicts). Figures go
into BENCHMARKS.md; nothing here is a timed test.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

import asyncpg

from bot.edge.ids import Kind, Press
from bot.flows import initiative, rolls
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, run
from bot.render.message import Message
from bot.store import Store
from engine.faces import seeded_faces
from engine.models import Term
from engine.parser import NamedPart

GUILD = 1_000_000_000_000_000_001


class Quiet:
    """A responder that only hands out message ids."""

    def __init__(self) -> None:
        self._answered = False
        self.last_id = 0

    def answered(self) -> bool:
        return self._answered

    async def respond(self, message: Message, *, ephemeral: bool) -> int | None:
        self._answered = True
        self.last_id += 1
        return self.last_id

    async def update(self, message: Message) -> None:
        self._answered = True

    async def open_modal(self, modal: object) -> None:
        self._answered = True

    async def followup(self, message: Message, *, ephemeral: bool) -> None:
        return None

    async def post(self, channel_id: int, message: Message) -> int | None:
        return None

    def edit_later(self, edit: Edit) -> None:
        return None


def _ctx(member: int, *, storyteller: bool = False) -> Ctx:
    return Ctx(guild_id=GUILD, channel_id=10_000 + member, user_id=20_000 + member,
               user_name=f"Member {member}", manages_channel=storyteller)


def _ask(value: int) -> rolls.Ask:
    half = value // 2
    terms = (Term(label="Dexterity", value=half), Term(label="Brawl", value=value - half))
    return lambda config: rolls.build_request(config.ruleset, terms)


Workload = Callable[[Deps, int], Awaitable[Reply]]


async def _roll(deps: Deps, member: int) -> Reply:
    return await rolls.roll(deps, _ctx(member), _ask(10), label="force the door", private=False)


def _roll_id(reply: Reply) -> int:
    """The roll a reply shows (its first button's key)."""
    view = reply.message.view if reply.message else None
    return int(str(view.children[0].custom_id).rsplit(":", 1)[1])  # type: ignore[union-attr]


async def _spend_will(deps: Deps, member: int) -> Reply:
    """A roll, then Spend Will on it (ops/s and latency cover both)."""
    reply = await rolls.roll(deps, _ctx(member), _ask(2), label=None, private=False)
    return await rolls.spend_will_pressed(deps, _ctx(member), _roll_id(reply))


#: (store, member) → the member's tracker and the turn its card shows now.
_TRACKERS: dict[tuple[int, int], tuple[int, int]] = {}


async def _fight(deps: Deps, member: int) -> None:
    """A tracker in the member's channel: the member (as Storyteller) and four goblins."""
    storyteller = _ctx(member, storyteller=True)
    await run(initiative.start(deps, storyteller), Quiet())
    await run(initiative.join(deps, storyteller, (NamedPart(None, 5),), 0), Quiet())
    await run(initiative.add(deps, storyteller, "Goblin", (Term(value=4),), modifier=0,
                             count=4), Quiet())
    record = await deps.store.read(
        lambda tx: tx.initiative.open_in(storyteller.guild_id, storyteller.channel_id)
    )
    if record is None:
        msg = "the fight's tracker was not opened"
        raise RuntimeError(msg)
    _TRACKERS[id(deps.store), member] = (record.id, 1)


async def _init_next(deps: Deps, member: int) -> Reply:
    """Next on the member's initiative card, as it shows now (a fight set up first)."""
    key = id(deps.store), member
    if key not in _TRACKERS:
        await _fight(deps, member)
    tracker_id, turn = _TRACKERS[key]
    _TRACKERS[key] = tracker_id, turn + 1
    press = Press(Kind.INITIATIVE_CARD, "next", tracker_id, turn)
    return await initiative.card_pressed(deps, _ctx(member, storyteller=True), press)


async def _counted(deps: Deps, workload: Workload, member: int) -> tuple[int, int]:
    """The trips and round trips of one interaction after an idle moment (as between a
    table's commands: a PostgreSQL worker has begun its next transaction), without its
    set-up (Spend Will's roll, Next's fight)."""
    if workload is _spend_will:
        reply = await rolls.roll(deps, _ctx(member), _ask(2), label=None, private=False)
        interaction = rolls.spend_will_pressed(deps, _ctx(member), _roll_id(reply))
    else:
        if workload is _init_next:
            await _fight(deps, member)
        interaction = workload(deps, member)
    await asyncio.sleep(0.05)
    trips, round_trips = deps.store.trips, deps.store.round_trips
    await run(interaction, Quiet())
    return deps.store.trips - trips, deps.store.round_trips - round_trips


async def _emptied(url: str) -> str:
    """The bench's PostgreSQL database with every table emptied (the schema kept)."""
    conn = await asyncpg.connect(url)
    try:
        tables = await conn.fetch(
            "SELECT tablename FROM pg_tables WHERE schemaname = 'public'"
            " AND tablename <> 'schema_version'"
        )
        if tables:
            names = ", ".join(row[0] for row in tables)
            await conn.execute(f"TRUNCATE {names} RESTART IDENTITY CASCADE")
    finally:
        await conn.close()
    return url


async def measure(
    name: str, workload: Workload, seconds: float, concurrency: int, url: str | None = None
) -> None:
    _TRACKERS.clear()
    with tempfile.TemporaryDirectory() as folder:
        target = Path(folder) / "bench.sqlite3" if url is None else await _emptied(url)
        store = await Store.open(target)
        deps = Deps(store=store, faces=seeded_faces(7))
        try:
            # The first connects; on PostgreSQL the second is the first with a roll id
            # reserved while idle, so it prepares the statements of that path.
            await _counted(deps, workload, 999_997)
            await _counted(deps, workload, 999_998)
            await store.warm()  # every worker connected, as the bot does at start-up
            trips, round_trips = await _counted(deps, workload, 999_999)
            latencies: list[float] = []
            stop = time.perf_counter() + seconds

            async def worker(member: int) -> None:
                while time.perf_counter() < stop:
                    start = time.perf_counter()
                    await run(workload(deps, member), Quiet())
                    latencies.append(time.perf_counter() - start)

            began = time.perf_counter()
            await asyncio.gather(*(worker(member) for member in range(concurrency)))
            elapsed = time.perf_counter() - began
        finally:
            await store.close()
    cuts = statistics.quantiles(latencies, n=100)
    print(
        f"{name:<11} concurrency {concurrency:>2}: {trips} trips/interaction"
        f" ({round_trips} round trips), "
        f"{len(latencies) / elapsed:7.0f} ops/s, p50 {cuts[49] * 1000:6.2f} ms, "
        f"p99 {cuts[98] * 1000:6.2f} ms"
    )


WORKLOADS: dict[str, Workload] = {
    "roll": _roll, "spend_will": _spend_will, "init_next": _init_next,
}


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=3.0)
    parser.add_argument("--concurrency", type=int, nargs="+", default=[1, 8])
    parser.add_argument("--database-url", default=None,
                        help="a PostgreSQL database of the bench's own (emptied each workload)")
    args = parser.parse_args()
    for concurrency in args.concurrency:
        for name, workload in WORKLOADS.items():
            await measure(name, workload, args.seconds, concurrency, args.database_url)
    print("(spend_will: ops/s and latency include the roll it is pressed on;"
          " its trips are the press's alone; init_next: Next on an initiative card of"
          " five combatants, each member's first press sets the fight up)")


if __name__ == "__main__":
    asyncio.run(main())
