"""Benchmark: `/roll` by trait name against a numeric one, and autocomplete, in process.

Run: ``python bench/bench_character_flows.py``. A fresh SQLite store with 25 characters
of 50 traits each; 400 rolls of each kind through ``bot.flows.rolls.roll`` (its gather
read and its write, not the message-id write nor Discord), then 500 autocomplete calls
of each kind. Medians (and p99 for autocomplete) go into BENCHMARKS.md §5.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path

from bot.flows import characters, rolls
from bot.flows.context import Ctx, Deps
from bot.store import Store, Tx
from engine.characters import Character, new_sheet, set_traits
from engine.faces import seeded_faces
from engine.models import Ruleset
from engine.parser import parse_pool_names

CTX = Ctx(guild_id=1, channel_id=2, user_id=3, user_name="A")


def _sheet(traits: int) -> Character:
    sheet = new_sheet("C0", Ruleset.COFD)
    extra = [(f"Merit {chr(97 + i // 26)}{chr(97 + i % 26)}", 2)
             for i in range(traits - len(sheet.traits))]
    answer = set_traits(sheet, [("Wits", 3), ("Composure", 2), *extra])
    if not isinstance(answer, tuple):
        raise SystemExit(f"the bench sheet was refused: {answer}")
    return answer[0]


async def _setup(store: Store) -> None:
    sheet = _sheet(50)

    def create(tx: Tx) -> None:
        for n in range(25):
            record = tx.characters.insert(1, CTX.user_id,
                                          sheet.model_copy(update={"name": f"C{n}"}))
            if n == 0 and record is not None:
                tx.characters.use(1, CTX.user_id, record.id)

    await store.write(create)


async def _times(work: Callable[[], Awaitable[object]], count: int) -> list[float]:
    times = []
    for _ in range(count):
        start = time.perf_counter()
        await work()
        times.append(time.perf_counter() - start)
    return sorted(times)


async def main() -> None:
    """Print the medians (and p99 of autocomplete)."""
    store = await Store.open(Path(tempfile.mkdtemp()) / "bench.sqlite3")
    deps = Deps(store=store, faces=seeded_faces(1))
    await _setup(store)
    for name, text in (("numeric", "3 + 2"), ("trait name", "Wits + Composure")):
        ask = rolls.ByName(parse_pool_names(text))
        times = await _times(lambda ask=ask: rolls.roll(deps, CTX, ask, label=None,
                                                        private=False), 400)
        print(f"/roll {name}: median {statistics.median(times) * 1e3:.2f} ms")
    for name, suggest, typed in (("pool", characters.pool_suggestions, "Wits + Co"),
                                 ("character", characters.character_suggestions, "C")):
        times = await _times(lambda s=suggest, t=typed: s(deps, CTX, t), 500)
        print(f"{name} autocomplete: median {statistics.median(times) * 1e3:.2f} ms,"
              f" p99 {times[int(len(times) * 0.99)] * 1e3:.2f} ms")
    await store.close()


if __name__ == "__main__":
    asyncio.run(main())
