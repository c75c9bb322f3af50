"""Fair dice, shown: seeded fair dice pass, biased dice are flagged, p-values are honest."""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Iterable
from datetime import date

import pytest
from scipy import stats as scipy_stats

from engine.faces import seeded_faces
from engine.models import Again, Outcome, RollRequest, RollResult, Ruleset, Term
from engine.roll import roll
from engine.stats import (
    MIN_EXPECTED,
    Sample,
    ShapeCount,
    Tally,
    Verdict,
    analyse,
    chi_square_sf,
    parse_since,
    shape_of,
)


def sample_of(results: Iterable[RollResult], ruleset: Ruleset) -> Sample:
    """What the store would count for these rolls (none re-read after the roll)."""
    results = list(results)
    faces = Counter(die.face for result in results for die in result.dice)
    shapes: dict[str, Counter[Outcome]] = {}
    for result in results:
        shapes.setdefault(shape_of(result.request), Counter())[result.outcome] += 1
    return Sample(
        ruleset=ruleset,
        tally=Tally(
            rolls=len(results), dice=sum(len(result.dice) for result in results),
            will_spent=0, outcomes=dict(Counter(result.outcome for result in results)),
            faces=tuple(faces[face] for face in range(1, 11)),
        ),
        shapes=tuple(ShapeCount(shape=shape, rolls=sum(counts.values()), outcomes=dict(counts))
                     for shape, counts in shapes.items()),
    )


class Loaded:
    """A biased die: ``face`` comes up ``weight`` times as often as any other."""

    def __init__(self, seed: int, face: int, weight: float) -> None:
        self._random = random.Random(seed)
        self._weights = [weight if each == face else 1.0 for each in range(1, 11)]

    def draw(self, count: int) -> list[int]:
        return self._random.choices(range(1, 11), weights=self._weights, k=count)


def _requests(ruleset: Ruleset, rng: random.Random, count: int) -> list[RollRequest]:
    """A table's mix of requests: pools from 1 to 12, cofd with every again and rote."""
    requests = []
    for _ in range(count):
        pool = rng.randint(1, 12)
        if ruleset is Ruleset.COFD:
            requests.append(RollRequest(
                ruleset=ruleset, terms=(Term(label="Wits", value=pool),),
                again=rng.choice(list(Again)), rote=rng.random() < 0.3,
            ))
        elif ruleset is Ruleset.V20:
            requests.append(RollRequest(ruleset=ruleset, terms=(Term(value=pool),),
                                        difficulty=rng.randint(4, 9)))
        else:
            requests.append(RollRequest(ruleset=ruleset, terms=(Term(value=pool),),
                                        risky=rng.random() < 0.3))
    return requests


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_seeded_fair_dice_look_fair(ruleset: Ruleset) -> None:
    faces = seeded_faces(15)
    requests = _requests(ruleset, random.Random(1), 3000)
    report = analyse(sample_of((roll(request, faces) for request in requests), ruleset))
    assert report.face_test.verdict is Verdict.FAIR
    assert report.outcome_test.verdict is Verdict.FAIR
    assert report.tested_rolls == 3000


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_a_die_that_favours_one_face_is_flagged(ruleset: Ruleset) -> None:
    loaded = Loaded(seed=2, face=1, weight=1.3)
    requests = _requests(ruleset, random.Random(1), 3000)
    report = analyse(sample_of((roll(request, loaded) for request in requests), ruleset))
    assert report.face_test.verdict is Verdict.UNUSUAL
    assert report.face_test.furthest == 1
    assert report.face_test.p is not None
    assert report.face_test.p < 0.001


def test_a_die_that_favours_tens_makes_outcomes_unusual() -> None:
    loaded = Loaded(seed=3, face=10, weight=1.5)
    requests = _requests(Ruleset.COFD, random.Random(1), 3000)
    report = analyse(sample_of((roll(request, loaded) for request in requests), Ruleset.COFD))
    assert report.outcome_test.verdict is Verdict.UNUSUAL
    assert report.outcomes[Outcome.FAILURE].observed < report.outcomes[Outcome.FAILURE].low


def test_fair_dice_are_called_unusual_about_as_rarely_as_the_p_value_says() -> None:
    """200 small tables of fair dice (exploding, rote and chance dice included): the tests'
    p-values are honest, so about 5 % fall under 0.05, for faces and outcomes alike."""
    faces = seeded_faces(99)
    rng = random.Random(5)
    under = Counter[str]()
    tables = 200
    for _ in range(tables):
        requests = _requests(Ruleset.COFD, rng, 60)
        requests.append(RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=0),)))
        report = analyse(sample_of((roll(request, faces) for request in requests),
                                   Ruleset.COFD))
        for name, test in (("faces", report.face_test), ("outcomes", report.outcome_test)):
            assert test.p is not None
            under[name] += test.p < 0.05
    assert 2 <= under["faces"] <= 20
    assert 2 <= under["outcomes"] <= 20


def test_few_dice_say_how_many_more_rolls_a_verdict_needs() -> None:
    faces = seeded_faces(4)
    request = RollRequest(ruleset=Ruleset.V20, terms=(Term(value=5),))
    report = analyse(sample_of((roll(request, faces) for _ in range(4)), Ruleset.V20))
    assert report.face_test.verdict is Verdict.TOO_FEW
    assert report.face_test.more == (MIN_EXPECTED * 10 - 20) // 5
    assert report.outcome_test.verdict is Verdict.TOO_FEW
    assert report.outcome_test.more > 0


def test_automatic_successes_leave_nothing_to_chance() -> None:
    request = RollRequest(ruleset=Ruleset.V20, terms=(Term(value=5),), auto=True,
                          difficulty=5)
    report = analyse(sample_of((roll(request, seeded_faces(1)) for _ in range(50)),
                               Ruleset.V20))
    assert report.outcome_test.verdict is Verdict.TOO_FEW
    assert report.outcome_test.more == 0


@pytest.mark.parametrize("df", [1, 2, 3, 9])
@pytest.mark.parametrize("statistic", [0.01, 0.5, 2.0, 8.0, 16.9, 21.7, 40.0, 120.0])
def test_chi_square_tail_matches_scipy(statistic: float, df: int) -> None:
    assert chi_square_sf(statistic, df) == pytest.approx(
        scipy_stats.chi2.sf(statistic, df), rel=1e-9, abs=1e-15)


def test_a_shape_is_the_request_with_its_terms_summed() -> None:
    labelled = RollRequest(ruleset=Ruleset.COFD,
                           terms=(Term(label="Strength", value=3), Term(label="Brawl", value=2)),
                           rote=True)
    plain = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=5),), rote=True)
    assert shape_of(labelled) == shape_of(plain)
    assert shape_of(plain) != shape_of(plain.model_copy(update={"rote": False}))


@pytest.mark.parametrize(("text", "expected"), [
    ("2025-01-31", date(2025, 1, 31)),
    ("7d", date(2025, 3, 3)),
    ("2w", date(2025, 2, 24)),
    ("1M", date(2025, 2, 8)),
    (" 1y ", date(2024, 3, 10)),
])
def test_since_is_a_date_or_a_span_back_from_today(text: str, expected: date) -> None:
    assert parse_since(text, date(2025, 3, 10)) == expected


@pytest.mark.parametrize("text", ["yesterday", "2025-13-01", "7", "d7", "2025-1-1", ""])
def test_since_refuses_anything_else(text: str) -> None:
    assert parse_since(text, date(2025, 3, 10)) is None
