"""What-if experiments: run the bot with a candidate optimisation patched in at start-up.

Used by ``python -m bench.load --whatif NAME[,NAME...]`` to measure a fix before anyone
changes the bot's code; nothing in ``bot/`` is edited. The bot process is started as::

    python -m bench.whatif direct-store -- -m bot

which applies the named patches, then runs ``python -m bot`` (or, with
``-- tests/e2e/bare_bot.py``, the bare bot) in the same interpreter. The figures of a
what-if run are evidence for a proposal, not the bot's benchmark figures.

Patches (each models one change proposed in BENCHMARKS.md; the earlier ones, the guilds
intent, ``synchronous = NORMAL``, a cached config, the message id in one statement and a
faster chart, are in the bot now and were removed from here):

``direct-store``
    The store's transactions run on a plain ``sqlite3`` connection on the event loop's
    thread (bench/direct_sqlite.py): no hop to aiosqlite's thread at all (the upper bound
    of the one-trip store).
"""

from __future__ import annotations

import runpy
import sys
from collections.abc import Callable
from typing import Any


def _direct_store() -> None:
    from bench.direct_sqlite import DirectConnection  # noqa: PLC0415
    from bot.store.store import Store  # noqa: PLC0415

    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[Store], path: Any, *args: Any, **kwargs: Any) -> Store:
        store: Store = await original(cls, path, *args, **kwargs)  # migrations, as the bot does
        await store.close()
        return cls(DirectConnection(path, synchronous="NORMAL"))  # type: ignore[arg-type]

    Store.open = classmethod(open_)  # type: ignore[assignment,method-assign]


_APPLIED: list[str] = []

PATCHES: dict[str, Callable[[], None]] = {
    "direct-store": _direct_store,
}


def main() -> None:
    names, separator, target = sys.argv[1], sys.argv[2], sys.argv[3:]
    if separator != "--" or not target:
        sys.exit("usage: python -m bench.whatif NAME[,NAME...] -- (-m MODULE | SCRIPT) [ARGS]")
    _APPLIED.extend(filter(None, names.split(",")))
    for name in _APPLIED:
        PATCHES[name]()
    if target[0] == "-m":
        sys.argv = [target[1], *target[2:]]
        runpy.run_module(target[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = target
        runpy.run_path(target[0], run_name="__main__")


if __name__ == "__main__":
    main()
