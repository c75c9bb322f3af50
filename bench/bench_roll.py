"""Benchmark: a 10-die roll per ruleset, result model included, against its targets.

Run: ``python bench/bench_roll.py`` (d20 comes with the dev extras). For each
ruleset it times ``engine.roll.roll`` on a 10-die request (cofd 10-again, v20
difficulty 6, fistful), the same dice counted by a bare Python loop (the same
faces drawn from the same face source, read with ``if`` and ``+=``, no model),
and avrae's d20 rolling ``10d10e10``, in the same process. The three are timed
in turn within each repeat, so a machine whose load changes mid-run shifts all
three alike; every figure printed is the median over the repeats, ratios
included (each repeat's ratio, then the median). Issue 9's targets: the engine
at most 3x the bare loop, and at least 3x faster than d20.

The engine rolls a request equal to, but not the same object as, the one
before (as the bot does: a new request per command), so a request is
prepared from the engine's cache through equality, not identity. Figures go
into BENCHMARKS.md §3; nothing here is a timed test.
"""

from __future__ import annotations

import statistics
import timeit
from collections.abc import Callable
from itertools import cycle

import d20

from engine.faces import RandomFaces, seeded_faces
from engine.models import RollRequest, Ruleset, Term
from engine.roll import roll

NUMBER = 5_000
REPEATS = 15
DICE = 10
#: Targets (issue 9, "Speed").
MAX_OVER_BARE = 3.0
MIN_OVER_D20 = 3.0


def _bare_cofd(source: RandomFaces) -> int:
    """cofd 10-again: 8+ succeeds, each 10 draws one more die."""
    successes = 0
    faces = source.draw(DICE)
    while faces:
        tens = 0
        for face in faces:
            if face >= 8:
                successes += 1
                if face == 10:
                    tens += 1
        faces = source.draw(tens) if tens else []
    return successes


def _bare_v20(source: RandomFaces) -> int:
    """v20 difficulty 6: 6+ succeeds, each 1 takes one away."""
    successes = 0
    for face in source.draw(DICE):
        if face >= 6:
            successes += 1
        elif face == 1:
            successes -= 1
    return successes


def _bare_fistful(source: RandomFaces) -> int:
    """fistful: 8+ succeeds, each 10 draws one more die, 1s counted for a botch."""
    successes = ones = 0
    faces = source.draw(DICE)
    while faces:
        tens = 0
        for face in faces:
            if face >= 8:
                successes += 1
                if face == 10:
                    tens += 1
            elif face == 1:
                ones += 1
        faces = source.draw(tens) if tens else []
    return successes if successes else -ones


BARE: dict[Ruleset, Callable[[RandomFaces], int]] = {
    Ruleset.COFD: _bare_cofd,
    Ruleset.V20: _bare_v20,
    Ruleset.FISTFUL: _bare_fistful,
}


def _time_us(action: Callable[[], object]) -> float:
    """Mean time of NUMBER calls, in microseconds."""
    return timeit.timeit(action, number=NUMBER) / NUMBER * 1e6


def _requests(ruleset: Ruleset) -> Callable[[], RollRequest]:
    """Equal requests, each its own object, handed out in turn."""
    terms = (Term(label="Dexterity", value=DICE // 2), Term(label="Stealth", value=DICE // 2))
    pool = [RollRequest(ruleset=ruleset, terms=terms).model_copy(deep=True) for _ in range(64)]
    return cycle(pool).__next__


def main() -> None:
    source = seeded_faces(2026)
    d20_runs: list[float] = []
    runs: dict[Ruleset, tuple[list[float], list[float]]] = {r: ([], []) for r in Ruleset}
    for _ in range(REPEATS):
        d20_runs.append(_time_us(lambda: d20.roll("10d10e10")))
        for ruleset, (engine_runs, bare_runs) in runs.items():
            bare = BARE[ruleset]
            next_request = _requests(ruleset)
            engine_runs.append(_time_us(lambda n=next_request: roll(n(), source)))
            bare_runs.append(_time_us(lambda b=bare: b(source)))
    d20_us = statistics.median(d20_runs)
    print(f"d20 10d10e10: {d20_us:6.1f} µs   (medians of {REPEATS} repeats of {NUMBER:,} calls)")
    for ruleset, (engine_runs, bare_runs) in runs.items():
        engine_us = statistics.median(engine_runs)
        bare_us = statistics.median(bare_runs)
        over_bare = statistics.median(e / b for e, b in zip(engine_runs, bare_runs, strict=True))
        over_d20 = statistics.median(d / e for d, e in zip(d20_runs, engine_runs, strict=True))
        print(
            f"{ruleset.value:8} {DICE} dice: {engine_us:6.1f} µs, bare loop {bare_us:5.1f} µs"
            f" | {over_bare:.2f}× the bare loop (target ≤ {MAX_OVER_BARE:g}×:"
            f" {'met' if over_bare <= MAX_OVER_BARE else 'missed'})"
            f" | {over_d20:.2f}× faster than d20 (target ≥ {MIN_OVER_D20:g}×:"
            f" {'met' if over_d20 >= MIN_OVER_D20 else 'missed'})"
        )


if __name__ == "__main__":
    main()
