"""Time exact odds (engine.odds.odds) per ruleset, option combination and pool size.

Run from the repository root::

    .venv/bin/python bench/bench_odds.py            # pools 1, 5, 10, 20, 30, 40, 50, 100
    .venv/bin/python bench/bench_odds.py --runs 21 --pools 10 30 50

Each figure is the median wall time of ``--runs`` calls (after one warm-up
call), in milliseconds; the table is Markdown, ready for BENCHMARKS.md. The
target is under 50 ms for any request of 30 dice.
"""

from __future__ import annotations

import argparse
import platform
import statistics
import time
from typing import Any

from engine.models import Again, RollRequest, Ruleset, SkillCategory, Term
from engine.odds import odds

#: (ruleset, label, options): the combinations that exercise different code paths.
COMBOS: list[tuple[Ruleset, str, dict[str, Any]]] = [
    (Ruleset.COFD, "10-again", {}),
    (Ruleset.COFD, "8-again, rote", {"again": Again.EIGHT, "rote": True}),
    (Ruleset.COFD, "no-again", {"again": Again.NONE}),
    (Ruleset.V20, "difficulty 6", {}),
    (Ruleset.V20, "difficulty 8, specialty", {"difficulty": 8, "specialty": True}),
    (Ruleset.FISTFUL, "skilled", {}),
    (Ruleset.FISTFUL, "unskilled", {"untrained": SkillCategory.MENTAL}),
    (Ruleset.FISTFUL, "risky initiative", {"risky": True, "initiative": True}),
]


def median_ms(request: RollRequest, runs: int) -> float:
    """Median wall time of ``odds(request)`` in milliseconds."""
    odds(request)
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        odds(request)
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=11, help="calls per figure (median)")
    parser.add_argument(
        "--pools", type=int, nargs="+", default=[1, 5, 10, 20, 30, 40, 50, 100],
        help="pool sizes (final dice)",
    )
    args = parser.parse_args()
    print(f"exact odds, median of {args.runs} runs, ms — Python {platform.python_version()}, "
          f"{platform.machine()}")
    print()
    print("| ruleset | options | " + " | ".join(f"{n} dice" for n in args.pools) + " |")
    print("|---|---|" + "---:|" * len(args.pools))
    for ruleset, label, options in COMBOS:
        cells = [
            median_ms(RollRequest(ruleset=ruleset, terms=(Term(value=n),), **options), args.runs)
            for n in args.pools
        ]
        print(f"| {ruleset} | {label} | " + " | ".join(f"{ms:.2f}" for ms in cells) + " |")


if __name__ == "__main__":
    main()
