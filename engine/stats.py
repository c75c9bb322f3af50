"""Are the dice fair? A table's real rolls against the exact odds (issue 15).

Pure arithmetic on counts the store keeps (no I/O, no wording): a :class:`Sample`
is one ruleset's rolls in a scope, as a :class:`Tally` (rolls, dice, outcomes, Will,
faces) and the requests rolled (:class:`ShapeCount`, one per distinct request shape
with the outcomes those rolls had as first rolled). :func:`analyse` answers what
the table needs to see:

- **faces**: every drawn face (explosions, rote rerolls and Will dice included)
  against 10 % each, with Pearson's chi-square (9 degrees of freedom). Whether a
  die is drawn depends only on faces drawn before it, never on its own, so each
  draw is a fair d10 whatever came before and the counts minus their
  expectation form a martingale whose steps have the multinomial covariance:
  the usual test holds for exploding dice too (a test checks it on 8-again).
- **outcomes**: the outcome of each roll *as first rolled* (before any Will spent
  afterwards or a Beat: those are the player's choices, made after seeing the
  dice, so the final readings are not a sample of any odds) against the sum of
  each roll's exact probabilities from :func:`engine.odds.odds`. Rolls of
  different requests are independent with different probabilities, so the
  statistic is the Mahalanobis distance of observed minus expected under the
  exact covariance Σ_rolls (diag(p) − p pᵀ), chi-square with (groups − 1)
  degrees of freedom. Outcomes expected fewer than :data:`MIN_EXPECTED` times are
  grouped so the approximation holds.

The odds of a request shape are computed once per distinct shape and cached
(:func:`shape_odds`); the roll path only writes the shape's text
(:func:`shape_of`), never computes odds.
"""

from __future__ import annotations

import math
import re
from datetime import date, timedelta
from enum import StrEnum
from functools import lru_cache
from typing import Final

from engine.constants import SIDES
from engine.frozen import Frozen
from engine.models import Outcome, RollRequest, Ruleset, Term
from engine.odds import odds

#: Below this p-value the dice are called unusual.
UNUSUAL_BELOW: Final = 0.01
#: Each face (or outcome group) must be expected at least this often for a verdict:
#: the chi-square approximation is good from 5; 10 also gives the test some power.
MIN_EXPECTED: Final = 10
#: Distinct request shapes whose odds are kept in memory.
SHAPE_CACHE: Final = 4096
#: Half-width of the bands drawn around expectations, in standard deviations (95 %).
BAND_Z: Final = 1.96
#: The longest `since` a relative form may ask for, in days (about 100 years).
MAX_SINCE_DAYS: Final = 36_600

#: Outcomes a roll can have once it happened, worst first.
ROLLED_OUTCOMES: Final = (
    Outcome.DRAMATIC_FAILURE,
    Outcome.BOTCH,
    Outcome.FAILURE,
    Outcome.SUCCESS,
    Outcome.EXCEPTIONAL_SUCCESS,
)
#: d10 faces.
FACES: Final = tuple(range(1, SIDES + 1))


class Tally(Frozen):
    """One ruleset's rolls in a scope, as they read now (Will spent and Beats included).

    ``faces[i]`` counts face i + 1 over every die drawn.
    """

    rolls: int
    dice: int
    will_spent: int
    """Rolls with Will declared up front or spent afterwards."""
    outcomes: dict[Outcome, int]
    faces: tuple[int, ...]


class ShapeCount(Frozen):
    """Rolls of one request shape (:func:`shape_of`) and their outcomes as first rolled."""

    shape: str
    rolls: int
    outcomes: dict[Outcome, int]


class Sample(Frozen):
    """What the store read for one ruleset: the tally and the shapes rolled."""

    ruleset: Ruleset
    tally: Tally
    shapes: tuple[ShapeCount, ...] = ()


class Verdict(StrEnum):
    """What a test says."""

    FAIR = "fair"
    """Nothing a fair die would not do (p at least UNUSUAL_BELOW)."""
    UNUSUAL = "unusual"
    """p below UNUSUAL_BELOW: fair dice do this about 1 time in 1/p."""
    TOO_FEW = "too_few"
    """Not enough rolls for a verdict yet (``more`` says how many more)."""


class Band(Frozen):
    """One face's or outcome's observed rate beside the expected one, with the range fair
    dice land in 95 % of the time (rates, 0–1)."""

    count: int
    observed: float
    expected: float
    low: float
    high: float


class Test(Frozen):
    """A goodness-of-fit test: its verdict, p-value and sample (dice or rolls)."""

    verdict: Verdict
    sample: int
    p: float | None = None
    df: int = 0
    more: int = 0
    """Rolls still needed for a verdict (TOO_FEW only)."""
    furthest: int | Outcome | None = None
    """The face or outcome furthest from its expectation (in standard deviations)."""


class Report(Frozen):
    """One ruleset's rolls, summarised and tested."""

    ruleset: Ruleset
    tally: Tally
    faces: tuple[Band, ...]
    face_test: Test
    outcomes: dict[Outcome, Band]
    """Outcomes as first rolled (the ruleset's, in ROLLED_OUTCOMES order)."""
    outcome_test: Test
    tested_rolls: int
    """Rolls whose first reading is known (the outcome test's sample)."""


# --- request shapes -------------------------------------------------------------------------


def shape_of(request: RollRequest) -> str:
    """The text of a request's shape: what its odds depend on. The pool's terms become one
    unlabelled term of their sum ("Strength 3 + Brawl 2" and "5" roll alike), everything
    else is kept. Migration 0003 builds the same text in SQL (a test compares them)."""
    return request.model_copy(update={"terms": (Term(value=request.base),)}).model_dump_json()


@lru_cache(maxsize=SHAPE_CACHE)
def shape_odds(shape: str) -> dict[Outcome, float]:
    """The exact outcome probabilities of a request shape, computed once per shape."""
    chances = odds(RollRequest.model_validate_json(shape))
    return {outcome: chances.outcomes.get(outcome, 0.0) for outcome in ROLLED_OUTCOMES}


# --- the tests ------------------------------------------------------------------------------


def analyse(sample: Sample) -> Report:
    """Faces and outcomes of one ruleset's rolls against fair dice and the exact odds."""
    tally = sample.tally
    faces, face_test = _faces(tally)
    outcomes, outcome_test, tested = _outcomes(sample)
    return Report(
        ruleset=sample.ruleset, tally=tally, faces=faces, face_test=face_test,
        outcomes=outcomes, outcome_test=outcome_test, tested_rolls=tested,
    )


def _band(count: int, total: int, expected: float, variance: float) -> Band:
    """Rates of ``count`` out of ``total`` against ``expected`` (a count) with its variance."""
    if total == 0:
        return Band(count=count, observed=0.0, expected=0.0, low=0.0, high=0.0)
    spread = BAND_Z * math.sqrt(max(variance, 0.0)) / total
    rate = expected / total
    return Band(
        count=count, observed=count / total, expected=rate,
        low=max(0.0, rate - spread), high=min(1.0, rate + spread),
    )


def _faces(tally: Tally) -> tuple[tuple[Band, ...], Test]:
    dice = tally.dice
    share = 1 / SIDES
    expected = dice * share
    bands = tuple(_band(count, dice, expected, dice * share * (1 - share))
                  for count in tally.faces)
    if expected < MIN_EXPECTED:
        missing = math.ceil(MIN_EXPECTED * SIDES) - dice
        per_roll = dice / tally.rolls if tally.rolls else 1.0
        return bands, Test(verdict=Verdict.TOO_FEW, sample=dice,
                           more=max(1, math.ceil(missing / max(per_roll, 1.0))))
    statistic = math.fsum((count - expected) ** 2 / expected for count in tally.faces)
    p = chi_square_sf(statistic, SIDES - 1)
    worst = max(FACES, key=lambda face: abs(tally.faces[face - 1] - expected))
    return bands, Test(
        verdict=Verdict.UNUSUAL if p < UNUSUAL_BELOW else Verdict.FAIR,
        sample=dice, p=p, df=SIDES - 1, furthest=worst,
    )


def _outcomes(sample: Sample) -> tuple[dict[Outcome, Band], Test, int]:
    """Observed first readings against Σ_rolls p, with the exact covariance."""
    shown = _shown_outcomes(sample.ruleset)
    index = {outcome: place for place, outcome in enumerate(shown)}
    size = len(shown)
    rolls = 0
    observed = [0] * size
    mean = [0.0] * size
    cov = [[0.0] * size for _ in range(size)]
    for counted in sample.shapes:
        if counted.rolls <= 0:
            continue
        chances = shape_odds(counted.shape)
        rolls += counted.rolls
        p = [chances[outcome] for outcome in shown]
        for i in range(size):
            mean[i] += counted.rolls * p[i]
            for j in range(size):
                cov[i][j] += counted.rolls * ((p[i] if i == j else 0.0) - p[i] * p[j])
        for outcome, count in counted.outcomes.items():
            if outcome in index:
                observed[index[outcome]] += count
    bands = {outcome: _band(observed[i], rolls, mean[i], cov[i][i])
             for outcome, i in index.items()}
    groups = _groups(mean)
    if len(groups) < 2:
        return bands, Test(verdict=Verdict.TOO_FEW, sample=rolls,
                           more=_more_rolls(mean, rolls)), rolls
    # Group sums, then drop the last group: the rest has a non-singular covariance.
    diff = [sum(observed[i] - mean[i] for i in group) for group in groups[:-1]]
    sigma = [[sum(cov[i][j] for i in a for j in b) for b in groups[:-1]] for a in groups[:-1]]
    statistic = _mahalanobis(diff, sigma)
    if statistic is None:  # no variance: the odds leave nothing to chance (automatic rolls)
        return bands, Test(verdict=Verdict.FAIR, sample=rolls, p=1.0), rolls
    df = len(groups) - 1
    chance = chi_square_sf(statistic, df)
    worst = max(
        (i for i in range(size) if cov[i][i] > 0),
        key=lambda i: abs(observed[i] - mean[i]) / math.sqrt(cov[i][i]),
    )
    return bands, Test(
        verdict=Verdict.UNUSUAL if chance < UNUSUAL_BELOW else Verdict.FAIR,
        sample=rolls, p=chance, df=df, furthest=shown[worst],
    ), rolls


def _shown_outcomes(ruleset: Ruleset) -> tuple[Outcome, ...]:
    if ruleset is Ruleset.COFD:
        return (Outcome.DRAMATIC_FAILURE, Outcome.FAILURE, Outcome.SUCCESS,
                Outcome.EXCEPTIONAL_SUCCESS)
    return (Outcome.BOTCH, Outcome.FAILURE, Outcome.SUCCESS)


def _groups(mean: list[float]) -> list[list[int]]:
    """Outcome indexes grouped so every group is expected at least MIN_EXPECTED times:
    the well-expected ones alone, the rest together (joined to the smallest well-expected
    one when still too rare); outcomes never expected are left out."""
    enough = [i for i, value in enumerate(mean) if value >= MIN_EXPECTED]
    rare = [i for i, value in enumerate(mean) if 0 < value < MIN_EXPECTED]
    groups = [[i] for i in enough]
    if rare:
        if sum(mean[i] for i in rare) >= MIN_EXPECTED:
            groups.append(rare)
        elif groups:
            smallest = min(groups, key=lambda group: mean[group[0]])
            smallest.extend(rare)
    return groups


def _more_rolls(mean: list[float], rolls: int) -> int:
    """Rolls still needed (more of the same mix) until :func:`_groups` makes two groups:
    until the likeliest outcome, and the others together, are each expected
    MIN_EXPECTED times (when two outcomes are, the others together are too)."""
    if rolls == 0:
        return MIN_EXPECTED * 2
    rates = sorted((value / rolls for value in mean if value > 0), reverse=True)
    if len(rates) < 2:  # every roll has one possible outcome: nothing to test, ever
        return 0
    needed = math.ceil(MIN_EXPECTED / min(rates[0], math.fsum(rates[1:])))
    # The division's rounding may be one roll off what _groups sees: ask it.
    while needed > rolls + 1 and len(_groups([rate * (needed - 1) for rate in rates])) >= 2:
        needed -= 1
    while len(_groups([rate * needed for rate in rates])) < 2:
        needed += 1
    return max(1, needed - rolls)


def _mahalanobis(diff: list[float], sigma: list[list[float]]) -> float | None:
    """diffᵀ Σ⁻¹ diff by Gaussian elimination; None when Σ is singular (no variance)."""
    size = len(diff)
    rows = [[*sigma[i], diff[i]] for i in range(size)]
    scale = max((abs(sigma[i][i]) for i in range(size)), default=0.0)
    for col in range(size):
        pivot = max(range(col, size), key=lambda r: abs(rows[r][col]))
        if abs(rows[pivot][col]) <= 1e-12 * max(scale, 1.0):
            return None
        rows[col], rows[pivot] = rows[pivot], rows[col]
        for r in range(col + 1, size):
            factor = rows[r][col] / rows[col][col]
            rows[r] = [a - factor * b for a, b in zip(rows[r], rows[col], strict=True)]
    solution = [0.0] * size
    for r in range(size - 1, -1, -1):
        known = sum(rows[r][c] * solution[c] for c in range(r + 1, size))
        solution[r] = (rows[r][size] - known) / rows[r][r]
    return max(0.0, math.fsum(d * s for d, s in zip(diff, solution, strict=True)))


def chi_square_sf(statistic: float, df: int) -> float:
    """P(χ²(df) ≥ statistic): the regularised upper incomplete gamma Q(df/2, statistic/2)."""
    if statistic <= 0:
        return 1.0
    a, x = df / 2, statistic / 2
    log_front = a * math.log(x) - x - math.lgamma(a)
    if x < a + 1:  # the series for P converges fast here
        term = total = 1 / a
        n = a
        while abs(term) > abs(total) * 1e-15:
            n += 1
            term *= x / n
            total += term
        return max(0.0, 1 - total * math.exp(log_front))
    # Lentz's continued fraction for Q
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        step = d * c
        h *= step
        if abs(step - 1) < 1e-15:
            break
    return min(1.0, math.exp(log_front) * h)


# --- since ----------------------------------------------------------------------------------

_RELATIVE = re.compile(r"(\d{1,6})\s*([dwmy])")
_DAYS_PER = {"d": 1, "w": 7, "m": 30, "y": 365}


def parse_since(text: str, today: date) -> date | None:
    """The first day a `since` option asks for: ``YYYY-MM-DD``, or ``7d``/``2w``/``3m``/
    ``1y`` back from ``today`` (a month is 30 days, a year 365). None when it is neither."""
    text = text.strip().lower()
    relative = _RELATIVE.fullmatch(text)
    if relative is not None:
        days = int(relative[1]) * _DAYS_PER[relative[2]]
        return today - timedelta(days=min(days, MAX_SINCE_DAYS))
    try:
        return date.fromisoformat(text) if len(text) == len("YYYY-MM-DD") else None
    except ValueError:
        return None


# --- who sees what --------------------------------------------------------------------------


class Part(Frozen):
    """One set of counters to add up: a level (``channel_id`` 0: every channel of the
    server; ``roller_id`` 0: everyone) and which of its rolls, public or secret.
    ``channels``, when given, stands for ``channel_id``: the counters of each of these
    channels, added up (the server as far as a member can read it)."""

    channel_id: int
    roller_id: int
    private: tuple[bool, ...]
    channels: frozenset[int] | None = None


def parts(
    *,
    channel_id: int | None,
    member_id: int | None,
    viewer_id: int,
    sees_secrets: bool,
    readable: frozenset[int] | None = None,
) -> tuple[Part, ...]:
    """The counters a viewer's /stats adds up (``channel_id`` None: the whole server).

    Secret rolls count for the Storyteller and for their own roller; anyone else's
    totals leave them out, so no total tells a member who rolled what in secret.

    Over the whole server, a viewer who is not the Storyteller counts only the rolls of
    the channels and threads they can read (``readable``; None: every channel), so that
    no total tells them of a roll made where they cannot see it (a Storyteller's "GM
    screen"). Their own rolls, asked for by themselves, count wherever they made them.
    """
    own = member_id is not None and member_id == viewer_id
    limited = channel_id is None and readable is not None and not sees_secrets and not own
    where, channels = channel_id or 0, readable if limited else None

    def level(roller_id: int, private: tuple[bool, ...]) -> Part:
        return Part(channel_id=where, roller_id=roller_id, private=private, channels=channels)

    if member_id is not None:
        mine = sees_secrets or own
        return (level(member_id, (False, True) if mine else (False,)),)
    if sees_secrets:
        return (level(0, (False, True)),)
    return (level(0, (False,)), level(viewer_id, (True,)))


class LoggedRoll(Frozen):
    """One roll of the log as `/stats export` writes it."""

    id: int
    created_at: str
    roller_id: int
    roller_name: str
    ruleset: str
    label: str | None
    private: bool
    void: bool
    dice: int
    outcome: str
    successes: int
    will: str
    beat: bool
    faces: str
    """Every face drawn, in the result's order, separated by spaces."""
    character: str | None = None
    """The character the roll was made with, by the name it had then (deleted since or
    not: its past rolls stay in the log under its name)."""
