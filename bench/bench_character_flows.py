"""Benchmark: `/roll` by trait name against a numeric one, and autocomplete, in process.

Run: ``python bench/bench_character_flows.py``. A fresh SQLite store with 25 characters of
50 traits each; 400 rolls of each kind through ``bot.flows.rolls.roll`` (gather read and
write, not the message-id write nor Discord), then 500 autocomplete calls of each kind.
Medians (and p99 for autocomplete) go into BENCHMARKS.md §5.
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from bot.flows import characters, rolls
from bot.flows.context import Ctx, Deps
from bot.store import Store
from engine.characters import new_sheet, set_traits
from engine.faces import seeded_faces
from engine.models import Ruleset
from engine.parser import parse_pool_names


async def main():
    d = tempfile.mkdtemp(); store = await Store.open(Path(d)/"b.sqlite3")
    deps = Deps(store=store, faces=seeded_faces(1))
    ctx = Ctx(guild_id=1, channel_id=2, user_id=3, user_name="A")
    sheet = new_sheet("C0", Ruleset.COFD)
    extra = [(f"Merit {chr(97+i//26)}{chr(97+i%26)}", 2) for i in range(50-len(sheet.traits))]
    sheet = set_traits(sheet, [("Wits",3),("Composure",2),*extra])[0]
    for n in range(25):
        s = sheet.model_copy(update={"name": f"C{n}"}) if n else sheet
        rec = await store.write(lambda tx, s=s: tx.characters.insert(1, 3, s))
        if n == 0: await store.write(lambda tx: tx.characters.use(1, 3, rec.id))
    num = rolls.ByName(parse_pool_names("3 + 2")); name = rolls.ByName(parse_pool_names("Wits + Composure"))
    res = {"numeric": [], "trait": []}
    for i in range(400):
        for k, ask in (("numeric", num), ("trait", name)):
            t = time.perf_counter()
            reply = await rolls.roll(deps, ctx, ask, label=None, private=False)
            res[k].append(time.perf_counter() - t)
    for k, v in res.items(): print(k, "median %.2f ms" % (statistics.median(v)*1e3))
    for label, fn, typed in (("pool", characters.pool_suggestions, "Wits + Co"), ("character", characters.character_suggestions, "C")):
        ts = []
        for i in range(500):
            t = time.perf_counter(); await fn(deps, ctx, typed); ts.append(time.perf_counter()-t)
        ts.sort(); print(label, "autocomplete median %.2f ms p99 %.2f ms" % (statistics.median(ts)*1e3, ts[int(len(ts)*0.99)]*1e3))
    await store.close()
asyncio.run(main())
