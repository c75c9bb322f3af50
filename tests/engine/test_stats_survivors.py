"""The /stats tests' arithmetic, pinned on counts built by hand (issue 15, TESTING.md).

`test_stats.py` shows that fair dice pass and loaded ones are caught; these
tests pin the exact numbers: the bands (the observed rate beside the expected
one, with the range fair dice land in 95 % of the time), Pearson's chi-square on
the faces, the outcome test as the module states it (observed first readings
against the sum of each roll's exact odds, grouped so every group is expected at
least ``MIN_EXPECTED`` times, then the Mahalanobis distance under the exact
covariance) and how many more rolls a verdict needs. The references here are
computed independently: scipy's chi-square and numpy's linear algebra, on the
groups each test names.
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from datetime import date

import numpy as np
import pytest
from scipy import stats as scipy_stats

from engine.constants import SIDES
from engine.models import Outcome, RollRequest, Ruleset, Term
from engine.stats import (
    BAND_Z,
    MIN_EXPECTED,
    UNUSUAL_BELOW,
    Band,
    Report,
    Sample,
    ShapeCount,
    Tally,
    Verdict,
    analyse,
    chi_square_sf,
    parse_since,
    shape_odds,
    shape_of,
)

DF, FAIL, WIN, EXC = (Outcome.DRAMATIC_FAILURE, Outcome.FAILURE, Outcome.SUCCESS,
                      Outcome.EXCEPTIONAL_SUCCESS)


def shape(ruleset: Ruleset, pool: int, **options: bool) -> str:
    return shape_of(RollRequest(ruleset=ruleset, terms=(Term(value=pool),), **options))


CHANCE = shape(Ruleset.COFD, 0)
"""A chance die: a dramatic failure on 1, a success on 10 (1 in 10 each), else a failure."""
ONE_DIE = shape(Ruleset.COFD, 1)
TEN_DICE = shape(Ruleset.COFD, 10)
FISTFUL_NO_BOTCH = shape(Ruleset.FISTFUL, 3, no_botch=True)
"""Three dice that cannot botch: a failure or a success, nothing else."""


def rolled(ruleset: Ruleset, *shapes: tuple[str, dict[Outcome, int]]) -> Sample:
    """Rolls of these shapes with these outcomes as first rolled (no dice counted)."""
    counted = tuple(ShapeCount(shape=text, rolls=sum(outcomes.values()), outcomes=outcomes)
                    for text, outcomes in shapes)
    rolls = sum(each.rolls for each in counted)
    return Sample(
        ruleset=ruleset, shapes=counted,
        tally=Tally(rolls=rolls, dice=0, will_spent=0, outcomes={}, faces=(0,) * SIDES),
    )


def faces(counts: list[int], rolls: int) -> Report:
    """The report on dice whose faces 1-10 came up ``counts`` times, over ``rolls`` rolls."""
    tally = Tally(rolls=rolls, dice=sum(counts), will_spent=0, outcomes={},
                  faces=tuple(counts))
    return analyse(Sample(ruleset=Ruleset.V20, tally=tally))


def band(count: int, total: int, expected: float, variance: float) -> Band:
    """The band the rule gives: rates, and the expected rate ± BAND_Z standard deviations,
    kept within 0-1."""
    rate, spread = expected / total, BAND_Z * math.sqrt(variance) / total
    return Band(count=count, observed=count / total, expected=rate,
                low=max(0.0, rate - spread), high=min(1.0, rate + spread))


def assert_band(found: Band, wanted: Band) -> None:
    assert found.count == wanted.count
    assert (found.observed, found.expected, found.low, found.high) == pytest.approx(
        (wanted.observed, wanted.expected, wanted.low, wanted.high), rel=1e-12, abs=1e-15)


class Exact:
    """Σ_rolls p and Σ_rolls (diag(p) − p pᵀ) over the sample's shapes, with the outcomes
    observed: what the outcome test compares."""

    def __init__(self, sample: Sample) -> None:
        self.mean: defaultdict[Outcome, float] = defaultdict(float)
        self.cov: defaultdict[tuple[Outcome, Outcome], float] = defaultdict(float)
        self.observed: Counter[Outcome] = Counter()
        self.rolls = 0
        for counted in sample.shapes:
            p = shape_odds(counted.shape)
            self.rolls += counted.rolls
            self.observed.update(counted.outcomes)
            for a in p:
                self.mean[a] += counted.rolls * p[a]
                for b in p:
                    self.cov[a, b] += counted.rolls * ((p[a] if a == b else 0.0) - p[a] * p[b])

    def p(self, groups: list[list[Outcome]]) -> float:
        """The chi-square p-value of the Mahalanobis distance of the group sums (the last
        group left out), with len(groups) − 1 degrees of freedom."""
        kept = groups[:-1]
        diff = np.array([sum(self.observed[o] - self.mean[o] for o in group) for group in kept])
        sigma = np.array([[sum(self.cov[a, b] for a in one for b in other) for other in kept]
                          for one in kept])
        statistic = float(diff @ np.linalg.solve(sigma, diff))
        return float(scipy_stats.chi2.sf(statistic, len(groups) - 1))

    def furthest(self) -> Outcome:
        """The outcome furthest from its expectation, in standard deviations."""
        return max((o for o in self.mean if self.cov[o, o] > 0),
                   key=lambda o: abs(self.observed[o] - self.mean[o]) / math.sqrt(self.cov[o, o]))

    def band(self, outcome: Outcome) -> Band:
        return band(self.observed[outcome], self.rolls, self.mean[outcome],
                    self.cov[outcome, outcome])


# --- nothing rolled yet -------------------------------------------------------------------------


def test_no_rolls_yet_show_empty_bands_and_how_many_rolls_each_test_needs() -> None:
    empty = Tally(rolls=0, dice=0, will_spent=0, outcomes={}, faces=(0,) * SIDES)
    report = analyse(Sample(ruleset=Ruleset.COFD, tally=empty))
    nothing = Band(count=0, observed=0.0, expected=0.0, low=0.0, high=0.0)
    assert report.faces == (nothing,) * SIDES
    assert report.outcomes == dict.fromkeys((DF, FAIL, WIN, EXC), nothing)
    # faces: MIN_EXPECTED of each face, a roll counted as one die until a roll is seen
    assert report.face_test.verdict is Verdict.TOO_FEW
    assert report.face_test.more == MIN_EXPECTED * SIDES
    # outcomes: at best two outcomes, each expected MIN_EXPECTED times
    assert report.outcome_test.verdict is Verdict.TOO_FEW
    assert report.outcome_test.more == 2 * MIN_EXPECTED
    assert report.tested_rolls == 0


# --- faces --------------------------------------------------------------------------------------


def test_a_hundred_dice_are_enough_for_the_face_test() -> None:
    report = faces([10] * SIDES, rolls=20)
    assert report.face_test.verdict is Verdict.FAIR
    assert (report.face_test.p, report.face_test.df, report.face_test.sample) == (1.0, 9, 100)


def test_ninety_nine_dice_in_rolls_of_three_need_one_more_roll() -> None:
    report = faces([10] * (SIDES - 1) + [9], rolls=33)
    assert report.face_test.verdict is Verdict.TOO_FEW
    assert report.face_test.more == 1


def test_rolls_of_one_die_need_one_roll_per_missing_die() -> None:
    report = faces([5] * SIDES, rolls=50)
    assert (report.face_test.verdict, report.face_test.more) == (Verdict.TOO_FEW, 50)


@pytest.mark.parametrize(("counts", "verdict", "furthest"), [
    ([11, 11, 2, 11, 10, 10, 15, 10, 10, 10], Verdict.FAIR, 3),
    ([40, 5, 5, 5, 5, 5, 5, 10, 10, 10], Verdict.UNUSUAL, 1),
    ([100, 95, 105, 100, 100, 100, 100, 100, 100, 86], Verdict.FAIR, 10),
])
def test_the_face_test_is_pearsons_chi_square_with_nine_degrees_of_freedom(
    counts: list[int], verdict: Verdict, furthest: int,
) -> None:
    test = faces(counts, rolls=sum(counts) // 5).face_test
    assert test.p == pytest.approx(scipy_stats.chisquare(counts).pvalue, rel=1e-9)
    assert (test.verdict, test.df, test.sample, test.furthest) == (
        verdict, SIDES - 1, sum(counts), furthest)


def test_each_face_shows_its_rate_beside_ten_percent_with_the_range_fair_dice_land_in() -> None:
    counts = [100, 90, 110, 95, 105, 100, 100, 120, 80, 100]
    report = faces(counts, rolls=200)
    for count, found in zip(counts, report.faces, strict=True):
        assert_band(found, band(count, 1000, 100.0, 1000 * 0.1 * 0.9))
    assert report.faces[0].low == pytest.approx(0.1 - 1.96 * math.sqrt(0.09 / 1000))


def test_a_face_band_of_few_dice_stops_at_zero() -> None:
    report = faces([1] * SIDES, rolls=2)
    for found in report.faces:
        assert_band(found, band(1, 10, 1.0, 10 * 0.1 * 0.9))
        assert found.low == 0.0
        assert found.high == pytest.approx(0.1 + 1.96 * math.sqrt(0.9) / 10)


# --- outcomes -----------------------------------------------------------------------------------


def _chance_and_ten_dice() -> Sample:
    """200 chance dice and 100 rolls of ten dice, each outcome expected ten times or more."""
    return rolled(
        Ruleset.COFD,
        (CHANCE, {DF: 35, FAIL: 145, WIN: 20}),
        (TEN_DICE, {FAIL: 3, WIN: 72, EXC: 25}),
    )


def test_outcomes_are_tested_against_the_exact_odds_under_their_covariance() -> None:
    sample = _chance_and_ten_dice()
    exact = Exact(sample)
    assert min(exact.mean[o] for o in (DF, FAIL, WIN, EXC)) >= MIN_EXPECTED  # four groups
    chance = exact.p([[DF], [FAIL], [WIN], [EXC]])
    assert chance < UNUSUAL_BELOW  # too many dramatic failures
    test = analyse(sample).outcome_test
    assert test.p == pytest.approx(chance, rel=1e-9)
    assert (test.verdict, test.df, test.sample) == (Verdict.UNUSUAL, 3, 300)
    assert test.furthest is exact.furthest() is DF


def test_rare_outcomes_join_the_least_expected_of_the_well_expected_ones() -> None:
    # one die: failure 70, success 30 expected; an exceptional success (0.003) joins success
    sample = rolled(Ruleset.COFD, (ONE_DIE, {FAIL: 66, WIN: 33, EXC: 1}))
    exact = Exact(sample)
    test = analyse(sample).outcome_test
    assert test.p == pytest.approx(exact.p([[FAIL], [WIN, EXC]]), rel=1e-9)
    assert test.p != pytest.approx(exact.p([[FAIL, EXC], [WIN]]), rel=1e-3)
    assert (test.df, test.furthest) == (1, EXC)


def test_an_outcome_expected_less_than_once_still_joins_a_group() -> None:
    # failure is the least expected of the three well-expected outcomes; the dramatic
    # failures of five chance dice (0.5 expected) join it
    sample = rolled(
        Ruleset.COFD,
        (CHANCE, {DF: 3, FAIL: 2}),
        (TEN_DICE, {FAIL: 12, WIN: 290, EXC: 98}),
    )
    exact = Exact(sample)
    assert exact.mean[DF] < 1 < MIN_EXPECTED <= exact.mean[FAIL] < exact.mean[EXC]
    test = analyse(sample).outcome_test
    assert test.p == pytest.approx(exact.p([[FAIL, DF], [WIN], [EXC]]), rel=1e-9)
    assert test.p != pytest.approx(exact.p([[FAIL], [WIN], [EXC]]), rel=1e-3)
    assert (test.df, test.furthest) == (2, DF)


def test_an_outcome_expected_exactly_ten_times_is_tested_on_its_own() -> None:
    sample = rolled(Ruleset.COFD, (CHANCE, {DF: 12, FAIL: 80, WIN: 8}))
    exact = Exact(sample)
    assert (exact.mean[DF], exact.mean[WIN]) == (MIN_EXPECTED, MIN_EXPECTED)
    test = analyse(sample).outcome_test
    assert test.df == 2
    assert test.p == pytest.approx(exact.p([[DF], [FAIL], [WIN]]), rel=1e-9)


def test_rare_outcomes_expected_ten_times_together_are_tested_as_one_group() -> None:
    sample = rolled(Ruleset.COFD, (CHANCE, {DF: 6, FAIL: 39, WIN: 5}))
    exact = Exact(sample)
    assert exact.mean[DF] + exact.mean[WIN] == MIN_EXPECTED
    test = analyse(sample).outcome_test
    assert (test.verdict, test.df) == (Verdict.FAIR, 1)
    # one degree of freedom: (39 − 40)² / (50 × 0.8 × 0.2)
    assert test.p == pytest.approx(scipy_stats.chi2.sf(1 / 8, 1), rel=1e-9)
    assert test.p == pytest.approx(exact.p([[FAIL], [DF, WIN]]), rel=1e-9)


def test_a_shape_with_no_rolls_left_does_not_stop_the_others_being_counted() -> None:
    sample = rolled(Ruleset.COFD, (CHANCE, {DF: 6, FAIL: 39, WIN: 5}))
    gone = ShapeCount(shape=ONE_DIE, rolls=0, outcomes={})
    with_gone = sample.model_copy(update={"shapes": (gone, *sample.shapes)})
    assert analyse(with_gone).tested_rolls == 50
    assert analyse(with_gone).outcome_test == analyse(sample).outcome_test


def test_each_outcome_shows_its_rate_beside_the_expected_one_with_its_range() -> None:
    sample = _chance_and_ten_dice()
    exact = Exact(sample)
    found = analyse(sample).outcomes
    assert list(found) == [DF, FAIL, WIN, EXC]
    for outcome, shown in found.items():
        assert_band(shown, exact.band(outcome))
        assert 0.0 < shown.low < shown.expected < shown.high < 1.0


def test_outcome_bands_of_few_rolls_stay_between_0_and_1() -> None:
    sample = rolled(Ruleset.COFD, (TEN_DICE, {WIN: 1, EXC: 1}))
    exact = Exact(sample)
    found = analyse(sample).outcomes
    for outcome, shown in found.items():
        assert_band(shown, exact.band(outcome))
    assert found[FAIL].low == 0.0 and found[WIN].high == 1.0  # both ends cut
    assert found[FAIL].high < 1.0 and found[WIN].low > 0.0


# --- how many more rolls ------------------------------------------------------------------------


def test_too_few_rolls_wait_until_the_likeliest_outcome_and_the_rest_are_expected_ten_times(
) -> None:
    """The outcome test needs two groups: the likeliest outcome, and the rare ones together
    (engine.stats._groups), each expected MIN_EXPECTED times. The wait told is until both
    are, with more rolls of the same mix; it once waited for the second-likeliest outcome
    alone to be, which is longer whenever two or more outcomes are rare."""
    sample = rolled(Ruleset.COFD, (CHANCE, {FAIL: 2}), (TEN_DICE, {WIN: 2}))
    exact = Exact(sample)
    rates = sorted((mean / 4 for mean in exact.mean.values() if mean > 0), reverse=True)
    assert len(rates) == 4
    test = analyse(sample).outcome_test
    assert test.verdict is Verdict.TOO_FEW
    assert test.more == math.ceil(MIN_EXPECTED / min(rates[0], sum(rates[1:]))) - 4
    assert test.more < math.ceil(MIN_EXPECTED / rates[1]) - 4


def test_the_rolls_said_to_be_needed_for_an_outcome_verdict_are_the_rolls_it_takes() -> None:
    """50 pools of 5 dice: 4 more give a verdict (failures and exceptional successes,
    each rare, are expected ten times together by then), and the wait says 4, not 10."""
    five = shape(Ruleset.COFD, 5)
    waiting = analyse(rolled(Ruleset.COFD, (five, {WIN: 50}))).outcome_test
    assert (waiting.verdict, waiting.more) == (Verdict.TOO_FEW, 4)
    assert analyse(rolled(Ruleset.COFD, (five, {WIN: 53}))).outcome_test.more == 1
    assert analyse(rolled(Ruleset.COFD, (five, {WIN: 54}))).outcome_test.df == 1


def test_rolls_with_two_possible_outcomes_wait_for_the_less_likely_one() -> None:
    failure = shape_odds(FISTFUL_NO_BOTCH)[FAIL]
    sample = rolled(Ruleset.FISTFUL, (FISTFUL_NO_BOTCH, {FAIL: 2, WIN: 3}))
    test = analyse(sample).outcome_test
    assert test.verdict is Verdict.TOO_FEW
    assert test.more == math.ceil(MIN_EXPECTED / failure) - 5


def test_one_roll_short_of_a_verdict_needs_one_more_roll() -> None:
    failure = shape_odds(FISTFUL_NO_BOTCH)[FAIL]
    enough = math.ceil(MIN_EXPECTED / failure)
    short = rolled(Ruleset.FISTFUL, (FISTFUL_NO_BOTCH, {FAIL: 9, WIN: enough - 10}))
    test = analyse(short).outcome_test
    assert (test.verdict, test.more) == (Verdict.TOO_FEW, 1)
    reached = rolled(Ruleset.FISTFUL, (FISTFUL_NO_BOTCH, {FAIL: 10, WIN: enough - 10}))
    assert analyse(reached).outcome_test.df == 1


# --- the chi-square tail and `since` ------------------------------------------------------------


@pytest.mark.parametrize("df", [1, 3, 9])
def test_a_statistic_of_zero_is_certain(df: int) -> None:
    assert chi_square_sf(0.0, df) == 1.0


def test_since_takes_a_date_only_as_yyyy_mm_dd() -> None:
    assert parse_since("20250131", date(2025, 3, 10)) is None
    assert parse_since("2025-01-31", date(2025, 3, 10)) == date(2025, 1, 31)
