"""Benchmark: resolving a pool against a 200-trait sheet, and autocomplete of its traits.

Run: ``python bench/bench_characters.py``. Times :func:`engine.characters.resolve` on
``Wits + Composure + Brawl`` (exact names) and ``Dex + Athl`` (unique prefixes), the
sheet parsed and indexed once as the bot does per command, and
:func:`engine.characters.suggestions` for a typed prefix over the same sheet. Issue 10's
target: under 50 µs per resolution. Figures go into BENCHMARKS.md; nothing here is a
timed test. The median over the repeats is printed.
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Callable

from engine.characters import (
    MAX_TRAITS,
    Character,
    new_sheet,
    resolve,
    set_traits,
    suggestions,
)
from engine.models import Ruleset
from engine.parser import parse_pool_names

NUMBER = 2_000
REPEATS = 15
TARGET_US = 50.0


def sheet_of(size: int) -> Character:
    """A `cofd` sheet with ``size`` traits (the template's, then made-up Merits)."""
    sheet = new_sheet("Bench", Ruleset.COFD)
    extra = [(f"Merit {chr(65 + i // 26)}{chr(97 + i % 26)}", 2)
             for i in range(size - len(sheet.traits))]
    answer = set_traits(sheet, [("Wits", 3), ("Composure", 2), ("Brawl", 2), *extra])
    if not isinstance(answer, tuple):
        raise SystemExit(f"the bench sheet was refused: {answer}")
    return answer[0]


def _median_us(work: Callable[[], object]) -> float:
    times = timeit.repeat(work, number=NUMBER, repeat=REPEATS)
    return statistics.median(times) / NUMBER * 1e6


def main() -> None:
    """Print the medians and whether the target is met."""
    sheet = sheet_of(MAX_TRAITS)
    exact = parse_pool_names("Wits + Composure + Brawl")
    prefix = parse_pool_names("Dex + Athl")
    for name, parts in (("exact names", exact), ("prefixes", prefix)):
        us = _median_us(lambda parts=parts: resolve(parts, sheet))
        verdict = "met" if us < TARGET_US else "MISSED"
        print(f"resolve {name} ({len(sheet.traits)} traits): {us:.1f} µs"
              f" (target < {TARGET_US:.0f} µs: {verdict})")
    json_text = sheet.model_dump_json()
    us = _median_us(lambda: Character.model_validate_json(json_text))
    print(f"sheet parsed from JSON and indexed ({len(sheet.traits)} traits): {us:.1f} µs")
    us = _median_us(lambda: suggestions(sheet, "Wits + Co"))
    print(f"autocomplete suggestions ({len(sheet.traits)} traits): {us:.1f} µs")


if __name__ == "__main__":
    main()
