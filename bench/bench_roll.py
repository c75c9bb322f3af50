"""Benchmark: a 10-die roll per ruleset, result model included, beside avrae's d20.

Run: ``python bench/bench_roll.py`` (d20 comes with the dev extras). Prints the
median time of one roll over several repeats for each ruleset and for d20
rolling ``10d10e10`` in the same process, and the ratio. Figures go into
BENCHMARKS.md; nothing here is a timed test.
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Callable

import d20

from engine.faces import seeded_faces
from engine.models import RollRequest, Ruleset, Term
from engine.roll import roll

NUMBER = 5_000
REPEATS = 15


def median_us(action: Callable[[], object]) -> float:
    """Median over REPEATS of the mean time of NUMBER calls, in microseconds."""
    runs = timeit.repeat(action, number=NUMBER, repeat=REPEATS)
    return statistics.median(runs) / NUMBER * 1e6


def main() -> None:
    source = seeded_faces(2026)
    baseline = median_us(lambda: d20.roll("10d10e10"))
    print(f"d20 10d10e10: {baseline:6.1f} µs")
    for ruleset in Ruleset:
        terms = (Term(label="Dexterity", value=5), Term(label="Stealth", value=5))
        request = RollRequest(ruleset=ruleset, terms=terms)
        took = median_us(lambda request=request: roll(request, source))
        ratio = baseline / took
        print(f"{ruleset.value:8} 10 dice: {took:6.1f} µs  ({ratio:.1f}× faster than d20)")


if __name__ == "__main__":
    main()
