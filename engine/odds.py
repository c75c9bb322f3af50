"""Exact odds of a single roll, for every ruleset and option (RULES.md §1–§3).

:func:`odds` answers the distribution of a request's outcomes and of its total
successes, computed, never simulated. It starts from :func:`prepare`, like the
roller, so the odds and the rolls always mean the same request.

How each ruleset is computed (d10 faces are equally likely and independent):

- `cofd`, and `fistful` when 1s do not eat successes: every round-0 die and
  the extra dice it leads to form an independent *chain*. A chain scores 0
  with probability ``1 - hit``; otherwise its successes are geometric on
  1, 2, … with ratio ``q`` = P(a face explodes): after each success the chain
  goes on when that die exploded (probability q / P(success)) *and* its extra
  die succeeds (P(success)), i.e. with probability q. A rote reroll changes
  only ``hit`` (a failed die gets a second, normal chain). The sum of n
  chains is then a binomial mixture of negative binomials
  (:func:`_chain_sum`).
- `v20`: nothing explodes; the net count is a polynomial power over the
  per-die change of (successes − ones); botch has a closed form.
- `fistful` when 1s eat successes (unskilled or risky): the 1s of a round
  couple its dice, so chains are not independent. Steps 4–5 of RULES §3
  reduce to one rule for every round: the running count changes by
  (successes − ones) of the round, and the next round has
  max(0, 10s − 1s) dice. (Round 0 can leave the count below zero, which is
  exactly a botch; later rounds never can.) :func:`_cancelling` is a dynamic
  program over the number of dice a round grants.

``MAX_EXTRA`` is ignored: for the largest pool (``MAX_POOL`` dice, 8-again)
the probability of reaching 1,000 extra dice is below 1e-100, far under the
accuracy promised here (1e-9).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cached_property
from math import comb, fsum
from typing import Any, Final

from pydantic import computed_field, model_validator

from engine.constants import EXCEPTIONAL_AT, SIDES
from engine.frozen import Frozen
from engine.models import Outcome, RollRequest, Ruleset
from engine.prepare import Prepared, prepare
from engine.refusals import Refusal, upgrade_legacy_message

#: Successes counts of an unbounded (exploding) distribution are listed up to
#: the last one at least this likely; everything beyond weighs less than ~1e-14.
TAIL: Final = 1e-15
#: Working precision: entries below this are dropped from the tails of
#: intermediate distributions, so the total error stays far below 1e-12.
_NEGLIGIBLE: Final = 1e-20
#: Probability of one face.
_FACE: Final = 1 / SIDES


class Odds(Frozen):
    """Exact odds of one roll.

    ``outcomes`` lists every outcome the ruleset's roll can produce (zeros
    included); a refused request has only ``refused`` (probability 1) and the
    reason in ``refusal``. ``successes`` is the distribution of
    ``RollResult.successes`` (the total: `cofd` extra successes on a success,
    `v20` Willpower's success, `fistful` after 1s ate theirs); a refused
    request has 0 successes. ``at_least`` is derived from ``successes`` (a
    computed field: in the JSON, but not an input).
    """

    outcomes: dict[Outcome, float]
    successes: dict[int, float]
    refusal: Refusal | None = None

    @model_validator(mode="before")
    @classmethod
    def _legacy_message(cls, data: Any) -> Any:
        """Odds saved before refusal codes carry an English ``message``: keep it as text."""
        return upgrade_legacy_message(data)

    @computed_field  # type: ignore[prop-decorator]
    @cached_property
    def at_least(self) -> dict[int, float]:
        """P(successes ≥ k) for k = 1 … the largest count listed, derived from ``successes``."""
        running = 0.0
        tail: list[tuple[int, float]] = []
        for count in range(max(self.successes, default=0), 0, -1):
            running += self.successes.get(count, 0.0)
            tail.append((count, running))
        return dict(reversed(tail))


def odds(request: RollRequest) -> Odds:
    """The exact odds of ``request``, or its refusal with probability 1."""
    prepared = prepare(request)
    if isinstance(prepared, Refusal):
        return Odds(outcomes={Outcome.REFUSED: 1.0}, successes={0: 1.0}, refusal=prepared)
    if request.ruleset is Ruleset.COFD:
        return _cofd(prepared)
    if request.ruleset is Ruleset.V20:
        return _v20(prepared)
    return _fistful(prepared)


# --- Chronicles of Darkness --------------------------------------------------------------


def _cofd(prepared: Prepared) -> Odds:
    request = prepared.request
    if prepared.breakdown.chance:
        return _chance(prepared)
    miss = (prepared.success_at - 1) * _FACE
    hit = 1 - miss * miss if request.rote else 1 - miss
    explode = 0.0 if prepared.explode_at is None else (SIDES + 1 - prepared.explode_at) * _FACE
    dice = _chain_sum(prepared.dice, hit, explode)
    threshold = request.exceptional_at if request.exceptional_at is not None else EXCEPTIONAL_AT
    successes = {0: dice[0]} | _listed(
        dice[1:], start=1 + request.extra, unbounded=prepared.explode_at is not None
    )
    return Odds(
        outcomes={
            Outcome.DRAMATIC_FAILURE: 0.0,
            Outcome.FAILURE: dice[0],
            Outcome.SUCCESS: fsum(dice[1:threshold]),
            Outcome.EXCEPTIONAL_SUCCESS: fsum(dice[threshold:]),
        },
        successes=successes,
    )


def _chance(prepared: Prepared) -> Odds:
    """One chance die: 10 succeeds, 1 is a dramatic failure; rote rerolls a 2–9 once."""
    hit = (SIDES + 1 - prepared.success_at) * _FACE
    dramatic = _FACE
    miss = 1 - hit - dramatic
    if prepared.request.rote:
        hit, dramatic, miss = hit + miss * hit, dramatic + miss * dramatic, miss * miss
    return Odds(
        outcomes={
            Outcome.DRAMATIC_FAILURE: dramatic,
            Outcome.FAILURE: miss,
            Outcome.SUCCESS: hit,
            Outcome.EXCEPTIONAL_SUCCESS: 0.0,
        },
        successes={0: dramatic + miss, 1 + prepared.request.extra: hit},
    )


# --- Classic World of Darkness -----------------------------------------------------------


def _v20(prepared: Prepared) -> Odds:
    request = prepared.request
    if request.auto:
        return Odds(
            outcomes={Outcome.BOTCH: 0.0, Outcome.FAILURE: 0.0, Outcome.SUCCESS: 1.0},
            successes={1: 1.0},
        )
    n = prepared.dice
    difficulty = prepared.success_at
    # Per die: the change it makes to (successes − ones), as the roller reads a face.
    step = [0.0] * 4  # index: change + 1, change in −1 … 2
    unmet = blank = 0.0  # P(a face meets no difficulty), P(… and is not a 1)
    for face in range(1, SIDES + 1):
        scored = (2 if request.specialty and face == SIDES else 1) if face >= difficulty else 0
        step[scored - (face == 1) + 1] += _FACE
        if face == 1 or face < difficulty:
            unmet += _FACE
            blank += _FACE if face != 1 else 0.0
    net = [1.0]  # index: (successes − ones) + dice so far
    for _ in range(n):
        padded = [0.0, 0.0, 0.0, *net, 0.0, 0.0, 0.0]
        net = [
            step[0] * padded[i + 3] + step[1] * padded[i + 2]
            + step[2] * padded[i + 1] + step[3] * padded[i]
            for i in range(len(net) + 3)
        ]
    nothing = fsum(net[: n + 1])
    bonus = 1 if request.will else 0
    successes = {bonus: nothing} | _listed(net[n + 1 :], start=1 + bonus, unbounded=False)
    if request.will:  # a success that no 1 cancels: never a failure
        botch, failure, success = 0.0, 0.0, 1.0
    else:
        botch = unmet**n - blank**n
        failure, success = max(0.0, nothing - botch), fsum(net[n + 1 :])
    return Odds(
        outcomes={Outcome.BOTCH: botch, Outcome.FAILURE: failure, Outcome.SUCCESS: success},
        successes=successes,
    )


# --- Fist Full of Dice -------------------------------------------------------------------


def _fistful(prepared: Prepared) -> Odds:
    request = prepared.request
    n = prepared.dice
    if prepared.ones_cancel:
        plain = (SIDES - prepared.success_at) * _FACE  # successes other than 10
        counts = _cancelling(n, plain)  # index: count + n
        botch = fsum(counts[:n])
        nothing = counts[n]
        scored = counts[n + 1 :]
    else:
        miss = (prepared.success_at - 1) * _FACE
        chains = _chain_sum(n, 1 - miss, _FACE)
        # No success on round 0 (so no extra dice) and at least one 1.
        nothing = (miss - _FACE) ** n
        botch = chains[0] - nothing
        scored = chains[1:]
    if request.no_botch:
        nothing, botch = nothing + botch, 0.0
    return Odds(
        outcomes={Outcome.BOTCH: botch, Outcome.FAILURE: nothing, Outcome.SUCCESS: fsum(scored)},
        successes={0: nothing + botch} | _listed(scored, start=1, unbounded=True),
    )


def _cancelling(n: int, plain: float) -> list[float]:
    """Distribution of a `fistful` count when 1s eat successes, from ``n`` dice.

    Index i is the final count i − n; a negative count is a botch with that
    many 1s standing (only round 0 can leave 1s standing). ``plain`` is the
    probability of a success face other than 10.

    ``rounds[m]`` is the distribution of everything a round of m dice adds to
    the count, its own extra rounds included (index: change + m). With k dice
    among them showing 1 or 10, t of those 10s: the round grants
    u = max(0, t − (k − t)) dice and changes the count by 2t − k plus its other
    successes, a binomial over the m − k remaining dice. ``mixes[k]`` holds the
    part that depends on k, t and the rounds after (index: change + k).

    A round never has more dice than round 0 rolled 10s, so only
    ``rounds[0 … limit]`` are needed, where more than ``limit`` 10s on round 0
    has a probability below 1e-17: those paths are dropped.
    """
    limit = _tens_bound(n)
    rounds: list[list[float]] = [[1.0]]
    mixes: list[list[float]] = [[1.0]]
    for m in range(1, limit + 1):
        own = _mix(m, rounds, m - 1)  # every 10 standing (t = m) is this very round again
        rest = _round(m, [*mixes, own], plain)  # all but that t = m term
        again = _FACE**m  # all m dice 10s: a round of m dice again, count + m
        # rounds[m] = rest + again · (rounds[m] shifted by m), solved upwards in place
        for i in range(m, len(rest)):
            rest[i] += again * rest[i - m]
        while max(rest[-m:]) * again > _NEGLIGIBLE:
            rest.append(again * rest[-m])
        rounds.append(rest)
        _add_into(own, m, 0.5**m, rest)
        mixes.append(own)
    if n <= limit:
        return rounds[n]
    weights = _binomial(n, 2 * _FACE)
    mixes += [
        _mix(k, rounds, limit) if weights[k] > _NEGLIGIBLE else [] for k in range(limit + 1, n + 1)
    ]
    return _round(n, mixes, plain)


def _mix(k: int, rounds: Sequence[list[float]], top: int) -> list[float]:
    """Change to the count from k dice showing 1 or 10, rounds after them included.

    Index: change + k. Outcomes that grant more than ``top`` dice are left out.
    """
    mixed = [0.0] * (k + 1)
    for tens, chance in enumerate(_binomial(k, 0.5)):
        granted = 2 * tens - k
        if granted <= 0:
            mixed[2 * tens] += chance
        elif granted <= top:
            _add_into(mixed, k, chance, rounds[granted])
    return mixed


def _round(m: int, mixes: Sequence[list[float]], plain: float) -> list[float]:
    """Change to the count from a round of m dice, given ``mixes[k]`` for k = 0 … m.

    Sums P(k dice show 1 or 10) × mixes[k] × (other successes among the other
    m − k dice) by Horner's rule over k, so the binomial of the other dice is
    built one die at a time. Index: change + m.
    """
    special = 2 * _FACE
    blank = 1 - special - plain
    weights = _binomial(m, special)
    total: list[float] = []
    for k, mixed in enumerate(mixes):
        if total:
            shifted = zip([*total, 0.0], [0.0, *total], strict=True)
            total = [blank * a + plain * b for a, b in shifted]
        if weights[k] > _NEGLIGIBLE:
            # weights[k] includes (1 − special)^(m − k), which the Horner steps
            # still to come multiply in.
            _add_into(total, m - k, special**k * comb(m, k), mixed)
    while total and total[-1] < _NEGLIGIBLE:
        total.pop()
    return total


def _tens_bound(n: int) -> int:
    """Fewest 10s that n dice exceed with probability below 1e-17 (at most n)."""
    above = 0.0
    tens = _binomial(n, _FACE)
    for count in range(n, 0, -1):
        above += tens[count]
        if above >= 1e-17:
            return count
    return 0


# --- Shared ------------------------------------------------------------------------------


def _chain_sum(n: int, hit: float, ratio: float) -> list[float]:
    """Distribution of the successes of n independent chains (index: successes).

    A chain scores nothing with probability ``1 - hit``; otherwise its
    successes are geometric on 1, 2, … with ratio ``ratio`` (0: exactly 1).
    Given j scoring chains the total is j plus a negative binomial, so
    P(x) = Σ_j Bin(n, hit)(j) · C(x − 1, j − 1) (1 − ratio)^j ratio^(x − j).
    A chain is log-concave when ``hit >= ratio`` (true of every roll here:
    hit is at least 0.3, ratio at most 0.3), so the sum is too: once it
    decreases, its tail is bounded by a geometric series, and it stops when
    that bound is negligible.
    """
    scoring = _binomial(n, hit)
    if ratio == 0:
        return scoring
    stop = 1 - ratio
    dist = [scoring[0]]
    # negbin[j] = C(x − 1, j − 1) stop^j ratio^(x − j) for the current x.
    negbin = [0.0] * (n + 1)
    x = 0
    while True:
        x += 1
        for j in range(1, min(x - 1, n) + 1):
            negbin[j] *= ratio * (x - 1) / (x - j)
        if x <= n:
            negbin[x] = stop**x
        chance = fsum(scoring[j] * negbin[j] for j in range(1, min(x, n) + 1))
        dist.append(chance)
        previous = dist[-2]
        if chance < previous and chance * chance / (previous - chance) < _NEGLIGIBLE:
            return dist


def _binomial(n: int, p: float) -> list[float]:
    """P(k of n succeed), k = 0 … n, each with probability p."""
    return [comb(n, k) * p**k * (1 - p) ** (n - k) for k in range(n + 1)]


def _add_into(target: list[float], offset: int, weight: float, source: Sequence[float]) -> None:
    """target[offset + i] += weight · source[i], growing target as needed."""
    end = offset + len(source)
    if end > len(target):
        target.extend([0.0] * (end - len(target)))
    target[offset:end] = [a + weight * b for a, b in zip(target[offset:end], source, strict=True)]


def _listed(dist: Sequence[float], start: int, *, unbounded: bool) -> dict[int, float]:
    """``{start + i: dist[i]}`` without zeros; an unbounded one cut after its last entry ≥ TAIL."""
    last = len(dist)
    while unbounded and last and dist[last - 1] < TAIL:
        last -= 1
    return {start + i: chance for i, chance in enumerate(dist[:last]) if chance}
