"""Round trips to PostgreSQL of every transaction the flow tests run, by the flow's body.

A pytest plugin, not a test: it counts what each transaction attempt sends while its
caller waits, leaving out what a bot that has served a while would not pay (``BEGIN``,
sent ahead while a worker idles, and the one-time ``PREPARE`` of a held-back
statement), and prints a table of the bodies that make more than one, at the end::

    .venv/bin/python -m pytest -q -p bench.round_trips tests/flows -n 0

Issue 12 asks one round trip per read and per transaction; BENCHMARKS.md §7.5 lists
what this printed. It wraps private methods of ``bot.store.postgres`` (a benchmark's
instrument, like ``bench.load``'s): re-check it when they change.
"""

from __future__ import annotations

import statistics
from collections import defaultdict
from collections.abc import Callable
from typing import Any

import pytest

from bot.store import postgres, store

#: Round trips of each attempt, by (where the body is defined, its name, R or W).
_SEEN: defaultdict[tuple[str, str, str], list[int]] = defaultdict(list)
#: ``PREPARE``s made by each transaction's connection (by its id), not counted.
_PREPARED: defaultdict[int, int] = defaultdict(int)
#: The name of the body the store hands to the engine next (set and taken within one
#: step of the event loop: ``PostgresStore._on_worker`` calls ``PgEngine.run`` at once).
_NEXT: list[tuple[str, str]] = []


def _named(body: Callable[..., Any]) -> tuple[str, str]:
    """Where a body is defined (``flows/….py:line``; "" for a test's own) and its name."""
    code = getattr(body, "__code__", None)
    if code is None or "/bot/" not in code.co_filename:
        return "", "?"
    return f"{code.co_filename.rsplit('/bot/', 1)[-1]}:{code.co_firstlineno}", body.__qualname__


def pytest_configure(config: pytest.Config) -> None:
    """Wrap the store's transaction path (each call runs the original)."""
    holding = postgres.PgConnection._holding
    transaction = postgres.PgEngine._transaction
    on_worker = store.PostgresStore._on_worker
    run = postgres.PgEngine.run

    def counted_holding(self: postgres.PgConnection, *args: Any, **kwargs: Any) -> str | None:
        before = len(self.prepared)
        text = holding(self, *args, **kwargs)
        _PREPARED[id(self)] += len(self.prepared) - before
        return text

    async def named_on_worker(self: store.PostgresStore, body: Any, *, write: bool) -> Any:
        _NEXT.append(_named(body))
        return await on_worker(self, body, write=write)

    async def named_run(self: postgres.PgEngine, body: Any, *, write: bool) -> Any:
        body.storybot_name = _NEXT.pop() if _NEXT else ("?", "?")
        return await run(self, body, write=write)

    def counted_transaction(
        self: postgres.PgEngine, worker: Any, care: Any, body: Callable[[Any], Any]
    ) -> Any:
        opened: list[tuple[postgres.PgConnection, int]] = []

        def watched(tx: postgres.PgConnection) -> Any:
            opened.append((tx, tx.round_trips))
            return body(tx)

        try:
            return transaction(self, worker, care, watched)
        finally:
            if opened:
                tx, begun = opened[0]
                where, name = getattr(body, "storybot_name", ("?", "?"))
                _SEEN[where, name, "W" if tx.writes else "R"].append(
                    tx.round_trips - begun - _PREPARED.pop(id(tx), 0))

    postgres.PgConnection._holding = counted_holding  # type: ignore[method-assign]
    postgres.PgEngine._transaction = counted_transaction  # type: ignore[method-assign]
    store.PostgresStore._on_worker = named_on_worker  # type: ignore[method-assign]
    postgres.PgEngine.run = named_run  # type: ignore[method-assign]


def pytest_terminal_summary(terminalreporter: Any) -> None:
    """The bodies whose median attempt makes more than one round trip, worst first."""
    seen = {key: counts for key, counts in _SEEN.items() if key[0]}  # the bot's bodies
    over = sorted(((statistics.median_low(counts), key, counts)
                   for key, counts in seen.items() if statistics.median_low(counts) > 1),
                  key=lambda item: (-item[0], item[1]))
    write = terminalreporter.write_line
    write(f"round trips per PostgreSQL transaction: {len(seen) - len(over)} of {len(seen)}"
          " kinds at one (or none); more than one:")
    for median, (where, name, kind), counts in over:
        write(f"  {median}  {kind}  {where:28} {name}  (n={len(counts)}, max {max(counts)})")
