"""Exact odds: hand-checked cases, an independent computation (icepool), brute force
through the real roller, and a chi-square test of seeded rolls against the odds."""

from __future__ import annotations

from collections import defaultdict
from functools import cache
from math import fsum
from typing import Any

import icepool
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from scipy.stats import chisquare

from engine.constants import EXCEPTIONAL_AT, SIDES
from engine.faces import ScriptedFaces, seeded_faces
from engine.models import Again, Outcome, RollRequest, Ruleset, SkillCategory, Term
from engine.odds import Odds, odds
from engine.refusals import RefusalCode
from engine.roll import roll

EXACT = 1e-12
"""Floating-point slack for probabilities the test knows exactly."""
AGREE = 1e-9
"""The accuracy the odds promise."""

ROLL_OUTCOMES = {
    Ruleset.COFD: {
        Outcome.DRAMATIC_FAILURE, Outcome.FAILURE, Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS
    },
    Ruleset.V20: {Outcome.BOTCH, Outcome.FAILURE, Outcome.SUCCESS},
    Ruleset.FISTFUL: {Outcome.BOTCH, Outcome.FAILURE, Outcome.SUCCESS},
}

#: (outcome, total successes) -> probability
Joint = dict[tuple[Outcome, int], float]


def request(ruleset: str, dice: int, **options: Any) -> RollRequest:
    return RollRequest(ruleset=Ruleset(ruleset), terms=(Term(value=dice),), **options)


def assert_distribution(actual: dict[Any, float], expected: dict[Any, float], tol: float) -> None:
    """Every key of either within ``tol`` (a missing key is probability 0)."""
    for key in actual.keys() | expected.keys():
        assert actual.get(key, 0.0) == pytest.approx(expected.get(key, 0.0), abs=tol), key


def marginals(joint: Joint) -> tuple[dict[Outcome, float], dict[int, float]]:
    outcomes: dict[Outcome, float] = defaultdict(float)
    successes: dict[int, float] = defaultdict(float)
    for (outcome, count), chance in joint.items():
        outcomes[outcome] += chance
        successes[count] += chance
    return dict(outcomes), dict(successes)


def assert_matches(result: Odds, joint: Joint, tol: float) -> None:
    outcomes, successes = marginals(joint)
    assert_distribution({k: v for k, v in result.outcomes.items() if v}, outcomes, tol)
    assert_distribution(result.successes, successes, tol)


# --- Small cases, checked by hand ---------------------------------------------------------


def test_a_cofd_die_without_again_succeeds_three_times_in_ten() -> None:
    result = odds(request("cofd", 1, again=Again.NONE))
    assert result.outcomes[Outcome.SUCCESS] == pytest.approx(0.3, abs=EXACT)
    assert result.outcomes[Outcome.FAILURE] == pytest.approx(0.7, abs=EXACT)
    assert result.successes == pytest.approx({0: 0.7, 1: 0.3}, abs=EXACT)
    assert result.at_least == pytest.approx({1: 0.3}, abs=EXACT)


def test_a_cofd_ten_rolls_again_and_can_succeed_again() -> None:
    result = odds(request("cofd", 1))
    # one success: an 8 or 9, or a 10 whose extra die fails
    assert result.successes[1] == pytest.approx(0.2 + 0.1 * 0.7, abs=EXACT)
    # two: a 10 then an 8 or 9, or 10, 10 and a failure
    assert result.successes[2] == pytest.approx(0.1 * 0.2 + 0.1 * 0.1 * 0.7, abs=EXACT)
    assert result.successes[0] == pytest.approx(0.7, abs=EXACT)


def test_rote_gives_each_failed_die_a_second_chance() -> None:
    result = odds(request("cofd", 1, again=Again.NONE, rote=True))
    assert result.outcomes[Outcome.SUCCESS] == pytest.approx(0.3 + 0.7 * 0.3, abs=EXACT)


def test_exceptional_success_needs_five_dice_successes_by_default() -> None:
    result = odds(request("cofd", EXCEPTIONAL_AT, again=Again.NONE))
    assert result.outcomes[Outcome.EXCEPTIONAL_SUCCESS] == pytest.approx(0.3**5, abs=EXACT)
    lower = odds(request("cofd", 2, again=Again.NONE, exceptional_at=2))
    assert lower.outcomes[Outcome.EXCEPTIONAL_SUCCESS] == pytest.approx(0.09, abs=EXACT)


def test_extra_successes_add_to_a_success_only() -> None:
    result = odds(request("cofd", 1, again=Again.NONE, extra=2))
    assert result.successes == pytest.approx({0: 0.7, 3: 0.3}, abs=EXACT)
    assert result.at_least == pytest.approx({1: 0.3, 2: 0.3, 3: 0.3}, abs=EXACT)
    assert result.outcomes[Outcome.EXCEPTIONAL_SUCCESS] == 0.0


def test_a_chance_die_succeeds_on_ten_and_fails_dramatically_on_one() -> None:
    result = odds(request("cofd", 0, extra=1))
    assert result.outcomes == pytest.approx(
        {
            Outcome.DRAMATIC_FAILURE: 0.1,
            Outcome.FAILURE: 0.8,
            Outcome.SUCCESS: 0.1,
            Outcome.EXCEPTIONAL_SUCCESS: 0.0,
        },
        abs=EXACT,
    )
    assert result.successes == pytest.approx({0: 0.9, 2: 0.1}, abs=EXACT)


def test_a_rote_chance_die_rerolls_a_two_to_nine_once() -> None:
    result = odds(request("cofd", -2, rote=True))
    assert result.outcomes[Outcome.SUCCESS] == pytest.approx(0.1 + 0.8 * 0.1, abs=EXACT)
    assert result.outcomes[Outcome.DRAMATIC_FAILURE] == pytest.approx(0.1 + 0.8 * 0.1, abs=EXACT)
    assert result.outcomes[Outcome.FAILURE] == pytest.approx(0.8 * 0.8, abs=EXACT)


def test_declared_willpower_is_three_more_dice() -> None:
    assert odds(request("cofd", -1, will=True)) == odds(request("cofd", 2))
    assert odds(request("fistful", 2, will=True, risky=True)) == odds(
        request("fistful", 5, risky=True)
    )


def test_a_v20_die_at_difficulty_six_botches_on_a_one() -> None:
    result = odds(request("v20", 1, difficulty=6))
    assert result.outcomes == pytest.approx(
        {Outcome.BOTCH: 0.1, Outcome.FAILURE: 0.4, Outcome.SUCCESS: 0.5}, abs=EXACT
    )


def test_v20_ones_cancel_successes_and_botch_only_without_any_success() -> None:
    result = odds(request("v20", 2, difficulty=6))
    # botch: neither die reaches 6 and at least one shows 1
    assert result.outcomes[Outcome.BOTCH] == pytest.approx(0.5**2 - 0.4**2, abs=EXACT)
    # two successes; one success beside a die that is neither a success nor a 1
    assert result.successes[2] == pytest.approx(0.25, abs=EXACT)
    assert result.successes[1] == pytest.approx(2 * 0.5 * 0.4, abs=EXACT)
    three = odds(request("v20", 3))
    assert three.outcomes[Outcome.BOTCH] == pytest.approx(0.5**3 - 0.4**3, abs=EXACT)


def test_a_v20_specialty_counts_a_ten_twice() -> None:
    result = odds(request("v20", 1, difficulty=6, specialty=True))
    assert result.successes == pytest.approx({0: 0.5, 1: 0.4, 2: 0.1}, abs=EXACT)


def test_v20_willpower_adds_a_success_and_never_botches() -> None:
    result = odds(request("v20", 1, will=True))
    assert result.outcomes == pytest.approx(
        {Outcome.BOTCH: 0.0, Outcome.FAILURE: 0.0, Outcome.SUCCESS: 1.0}, abs=EXACT
    )
    assert result.successes == pytest.approx({1: 0.5, 2: 0.5}, abs=EXACT)


def test_a_v20_automatic_success_is_certain() -> None:
    result = odds(request("v20", 6, auto=True))
    assert result.outcomes[Outcome.SUCCESS] == 1.0
    assert result.successes == {1: 1.0}


def test_a_fistful_die_botches_on_a_one_and_explodes_on_ten() -> None:
    result = odds(request("fistful", 1))
    assert result.outcomes[Outcome.BOTCH] == pytest.approx(0.1, abs=EXACT)
    assert result.outcomes[Outcome.SUCCESS] == pytest.approx(0.3, abs=EXACT)
    assert result.successes[1] == pytest.approx(0.2 + 0.1 * 0.7, abs=EXACT)
    assert odds(request("fistful", 1, initiative=True)).outcomes[Outcome.SUCCESS] == (
        pytest.approx(0.5, abs=EXACT)
    )


def test_an_unskilled_fistful_die_loses_its_ten_to_a_one_on_the_extra_die() -> None:
    result = odds(request("fistful", 1, untrained=SkillCategory.MENTAL))
    # 10 then 1: the extra 1 lowers the count back to 0, a failure
    assert result.outcomes[Outcome.FAILURE] == pytest.approx(0.6 + 0.1 * 0.1, abs=EXACT)
    assert result.outcomes[Outcome.BOTCH] == pytest.approx(0.1, abs=EXACT)
    # 8 or 9; 10 then 2–7; or 10, 10 and a 1 that takes one of the two back
    assert result.successes[1] == pytest.approx(0.2 + 0.1 * 0.6 + 0.1 * 0.1 * 0.1, abs=EXACT)


def test_fistful_no_botch_reports_a_failure() -> None:
    result = odds(request("fistful", 3, no_botch=True))
    assert result.outcomes[Outcome.BOTCH] == 0.0
    assert result.outcomes[Outcome.FAILURE] == pytest.approx(0.7**3, abs=EXACT)
    botching = odds(request("fistful", 3))
    assert botching.outcomes[Outcome.BOTCH] == pytest.approx(0.7**3 - 0.6**3, abs=EXACT)


def test_a_refused_request_is_refused_with_its_reason() -> None:
    refusals = [request("fistful", 0), request("cofd", -4, will=True)]
    codes = [
        RefusalCode.NO_ACTION_NOW, RefusalCode.WILL_CANNOT_HELP, RefusalCode.OPTION_NOT_IN_RULESET
    ]
    for refused, code in zip([*refusals, request("v20", 3, risky=True)], codes, strict=True):
        result = odds(refused)
        assert result.outcomes == {Outcome.REFUSED: 1.0}
        assert result.successes == {0: 1.0}
        assert result.at_least == {}
        assert result.refusal is not None and result.refusal.code is code
        assert result.refusal == roll(refused, ScriptedFaces([])).refusal


# --- Invariants, for any request --------------------------------------------------------------


@st.composite
def requests(draw: st.DrawFn) -> RollRequest:
    ruleset = draw(st.sampled_from(Ruleset))
    options: dict[str, Any] = {"will": draw(st.booleans())}
    if ruleset is Ruleset.COFD:
        options |= {
            "again": draw(st.sampled_from(Again)),
            "rote": draw(st.booleans()),
            "extra": draw(st.integers(0, 3)),
            "exceptional_at": draw(st.integers(0, 11)),
        }
    elif ruleset is Ruleset.V20:
        options |= {
            "difficulty": draw(st.integers(1, 11)),
            "specialty": draw(st.booleans()),
            "auto": draw(st.booleans()),
        }
    else:
        options |= {
            "untrained": draw(st.none() | st.sampled_from(SkillCategory)),
            "risky": draw(st.booleans()),
            "initiative": draw(st.booleans()),
            "no_botch": draw(st.booleans()),
        }
    return request(ruleset, draw(st.integers(-4, 40)), **options)


@settings(max_examples=150, deadline=None)
@given(requests())
def test_odds_are_a_distribution_consistent_with_itself(asked: RollRequest) -> None:
    result = odds(asked)
    if Outcome.REFUSED in result.outcomes:
        assert result.refusal is not None
        return
    assert result.outcomes.keys() == ROLL_OUTCOMES[asked.ruleset]
    assert fsum(result.outcomes.values()) == pytest.approx(1.0, abs=EXACT)
    assert fsum(result.successes.values()) == pytest.approx(1.0, abs=EXACT)
    assert all(chance > 0 for chance in result.successes.values())
    failing = [Outcome.DRAMATIC_FAILURE, Outcome.FAILURE, Outcome.BOTCH]
    zero = fsum(result.outcomes.get(outcome, 0.0) for outcome in failing)
    assert result.successes.get(0, 0.0) == pytest.approx(zero, abs=EXACT)
    top = max(result.successes)
    assert list(result.at_least) == list(range(1, top + 1))
    for k, chance in result.at_least.items():
        above = fsum(p for count, p in result.successes.items() if count >= k)
        assert chance == pytest.approx(above, abs=EXACT)


# --- An independent computation: icepool ---------------------------------------------------


def chain(explode_at: int | None) -> icepool.Die:
    """Successes (8+) of one `cofd` die and every extra die it leads to.

    An exploding face is coded 1000 so that explode() sums a count of
    explosions (thousands) and the last die's success (units).
    """
    coded = icepool.d10.map(
        lambda face: 1000 if explode_at and face >= explode_at else int(face >= 8)
    )
    return coded.explode([1000], depth=30).map(lambda total: total // 1000 + total % 1000)


@cache
def ice_cofd(dice: int, again: Again, rote: bool, extra: int, exceptional_at: int) -> Joint:
    explode_at = {Again.TEN: 10, Again.NINE: 9, Again.EIGHT: 8, Again.NONE: None}[again]
    first = icepool.d10.reroll(lambda face: face < 8, depth=1) if rote else icepool.d10
    extras = chain(explode_at)
    die = first.map(
        lambda face: extras + 1 if explode_at and face >= explode_at else int(face >= 8)
    )

    def read(count: int) -> tuple[Outcome, int]:
        if count == 0:
            return Outcome.FAILURE, 0
        if count >= exceptional_at:
            return Outcome.EXCEPTIONAL_SUCCESS, count + extra
        return Outcome.SUCCESS, count + extra

    return as_joint((dice @ die).map(read))


def as_joint(die: icepool.Die) -> Joint:
    return {
        (Outcome(outcome), count): float(chance)
        for (outcome, count), chance in zip(die.outcomes(), die.probabilities(), strict=True)
    }


@pytest.mark.parametrize("again", list(Again))
@pytest.mark.parametrize("rote", [False, True])
@pytest.mark.parametrize("dice", [1, 4, 9])
def test_cofd_odds_agree_with_icepool(again: Again, rote: bool, dice: int) -> None:
    asked = request("cofd", dice, again=again, rote=rote, extra=1, exceptional_at=3)
    assert_matches(odds(asked), ice_cofd(dice, again, rote, 1, 3), AGREE)


@pytest.mark.parametrize("rote", [False, True])
def test_cofd_chance_die_agrees_with_icepool(rote: bool) -> None:
    face = icepool.d10.reroll(lambda face: 2 <= face <= 9, depth=1) if rote else icepool.d10
    joint = as_joint(
        face.map(
            lambda face: (Outcome.SUCCESS, 1)
            if face == 10
            else (Outcome.DRAMATIC_FAILURE if face == 1 else Outcome.FAILURE, 0)
        )
    )
    assert_matches(odds(request("cofd", -1, rote=rote)), joint, AGREE)


@pytest.mark.parametrize("difficulty", [2, 3, 6, 8, 10])
@pytest.mark.parametrize("specialty", [False, True])
@pytest.mark.parametrize("will", [False, True])
@pytest.mark.parametrize("dice", [1, 5, 12])
def test_v20_odds_agree_with_icepool(
    difficulty: int, specialty: bool, will: bool, dice: int
) -> None:
    def score(face: int) -> icepool.Vector:
        scored = (2 if specialty and face == 10 else 1) if face >= difficulty else 0
        return icepool.Vector((scored, int(face >= difficulty), int(face == 1)))

    def read(total: icepool.Vector) -> tuple[Outcome, int]:
        scored, met, ones = total
        net = max(0, scored - ones) + will
        if net:
            return Outcome.SUCCESS, net
        return (Outcome.BOTCH if ones and not met else Outcome.FAILURE), 0

    joint = as_joint((dice @ icepool.d10.map(score)).map(read))
    asked = request("v20", dice, difficulty=difficulty, specialty=specialty, will=will)
    assert_matches(odds(asked), joint, AGREE)


@cache
def ice_fistful(dice: int, initiative: bool, eats: bool, no_botch: bool) -> Joint:
    """RULES.md §3 steps 3–6 read literally, as a recursion over rounds of extra dice.

    Rounds deeper than 14 are cut: the chance of reaching one is below
    dice · 10^-14 (each die grants on average at most 0.1 extra dice per round).
    """
    success_at = 6 if initiative else 8
    # per die: (is a 1, is a 10, is another success)
    kind = icepool.d10.map(
        lambda face: icepool.Vector((int(face == 1), int(face == 10), int(success_at <= face < 10)))
    )

    @cache
    def rounds(dice: int, count: int, depth: int) -> icepool.Die:
        """The final count, from a running ``count`` and a round of ``dice`` extra dice."""
        if dice == 0 or depth == 0:
            return icepool.Die([count])

        def step(faces: icepool.Vector) -> icepool.Die:
            ones, tens, others = faces
            new = count + tens + others
            if eats:
                eaten = min(ones, tens)  # this round's 10s first, before they grant dice
                tens -= eaten
                new -= ones  # the round's 10s and then the running count
                assert new >= 0
            return rounds(tens, new, depth - 1)

        return (dice @ kind).map(step)

    def first(faces: icepool.Vector) -> icepool.Die:
        ones, tens, others = faces
        if eats:  # 10s first, then the other successes
            eaten = min(ones, tens)
            tens, ones = tens - eaten, ones - eaten
            eaten = min(ones, others)
            others, ones = others - eaten, ones - eaten

        def read(count: int) -> tuple[Outcome, int]:
            if count:
                return Outcome.SUCCESS, count
            return (Outcome.BOTCH if ones and not no_botch else Outcome.FAILURE), 0

        return rounds(tens, tens + others, 14).map(read)

    return as_joint((dice @ kind).map(first))


@pytest.mark.parametrize("initiative", [False, True])
@pytest.mark.parametrize("no_botch", [False, True])
@pytest.mark.parametrize("dice", [1, 2, 4])
def test_fistful_odds_agree_with_icepool(initiative: bool, no_botch: bool, dice: int) -> None:
    asked = request("fistful", dice, initiative=initiative, no_botch=no_botch)
    assert_matches(odds(asked), ice_fistful(dice, initiative, False, no_botch), AGREE)


@pytest.mark.parametrize("initiative", [False, True])
@pytest.mark.parametrize("dice", [1, 3, 5])
def test_fistful_cancellation_agrees_with_icepool(initiative: bool, dice: int) -> None:
    asked = request("fistful", dice, initiative=initiative, risky=True)
    assert_matches(odds(asked), ice_fistful(dice, initiative, True, False), AGREE)


# --- Brute force: every face sequence through the real roller -------------------------------


class _TooDeepError(Exception):
    """The roll wants more faces than the enumeration explores."""


class _Path:
    """A face source that replays ``faces``, then extends them with 1s up to ``limit`` draws."""

    def __init__(self, faces: list[int], limit: int) -> None:
        self.faces = faces
        self.limit = limit
        self.used = 0

    def draw(self, count: int) -> list[int]:
        end = self.used + count
        if end > self.limit:
            raise _TooDeepError
        self.faces.extend([1] * (end - len(self.faces)))
        drawn = self.faces[self.used : end]
        self.used = end
        return drawn


def every_roll(asked: RollRequest, limit: int) -> tuple[Joint, float]:
    """Roll ``asked`` on every face sequence of at most ``limit`` faces, depth first.

    Returns the probability of each (outcome, successes) reached and the mass
    of the sequences cut at the limit, whose results are unknown. A roll
    decides each draw from the faces before it, so after a sequence the next
    one is found by raising its last face below 10 and dropping what follows.
    """
    found: Joint = defaultdict(float)
    cut = 0.0
    faces: list[int] = []
    while True:
        path = _Path(faces, limit)
        try:
            result = roll(asked, path)
        except _TooDeepError:
            cut += SIDES**-path.used
        else:
            found[result.outcome, result.successes] += SIDES**-path.used
        faces = path.faces[: path.used]
        while faces and faces[-1] == SIDES:
            faces.pop()
        if not faces:
            return dict(found), cut
        faces[-1] += 1


def assert_within_cut(result: Odds, joint: Joint, cut: float) -> None:
    """Each exact probability lies between what was enumerated and that plus the cut mass."""
    outcomes, successes = marginals(joint)
    assert_between(result.outcomes, outcomes, cut)
    assert_between(result.successes, successes, cut)


def assert_between(exact: dict[Any, float], seen: dict[Any, float], cut: float) -> None:
    for key in exact.keys() | seen.keys():
        lower = seen.get(key, 0.0)
        assert lower - EXACT <= exact.get(key, 0.0) <= lower + cut + EXACT, key


#: (request, most faces explored). Pools of 1–3 dice; the limits keep the whole
#: enumeration to a few seconds, cutting at most a few percent of the mass.
BRUTE_FORCE = [
    *[
        (request("cofd", 1, again=again, rote=rote, extra=1, exceptional_at=2), 5)
        for again in Again
        for rote in (False, True)
    ],
    *[
        (request("cofd", 2, again=again, rote=rote, extra=1, exceptional_at=2), limit)
        for again, rote, limit in (
            (Again.TEN, False, 6),
            (Again.TEN, True, 5),
            (Again.NINE, False, 5),
            (Again.EIGHT, False, 5),
            (Again.NONE, True, 4),
        )
    ],
    (request("cofd", 3, again=Again.NONE, exceptional_at=3), 3),
    (request("cofd", 0, extra=2), 1),
    (request("cofd", -3, rote=True), 2),
    (request("cofd", -2, will=True, again=Again.EIGHT), 5),
    *[
        (request("v20", dice, difficulty=difficulty, specialty=specialty, will=will), dice)
        for dice in (1, 2, 3)
        for difficulty in (2, 6, 10)
        for specialty in (False, True)
        for will in (False, True)
    ],
    (request("v20", 4, auto=True), 0),
    *[
        (request("fistful", dice, initiative=initiative, no_botch=no_botch, **eats), dice + 4)
        for dice in (1, 2)
        for initiative in (False, True)
        for no_botch in (False, True)
        for eats in ({}, {"untrained": SkillCategory.PHYSICAL}, {"risky": True})
    ],
    (request("fistful", 3, risky=True), 6),
    (request("fistful", 3, untrained=SkillCategory.SOCIAL, initiative=True), 6),
]


@pytest.mark.parametrize(("asked", "limit"), BRUTE_FORCE)
def test_odds_agree_with_every_roll_of_the_roller(asked: RollRequest, limit: int) -> None:
    joint, cut = every_roll(asked, limit)
    assert cut < 0.05
    assert_within_cut(odds(asked), joint, cut)


# --- Seeded rolls: chi-square ----------------------------------------------------------------


def category(outcome: Outcome, successes: int) -> Outcome | int:
    """A roll's (outcome, successes), told apart by successes when there are any."""
    return successes if successes else outcome


def expected_categories(result: Odds) -> dict[Outcome | int, float]:
    expected: dict[Outcome | int, float] = {
        outcome: chance for outcome, chance in result.outcomes.items() if chance and outcome
        not in (Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS)
    }
    expected.update((count, chance) for count, chance in result.successes.items() if count)
    return expected


def seeded_rolls(asked: RollRequest, rolls: int, seed: int) -> dict[Outcome | int, int]:
    """How often each category came up in ``rolls`` seeded rolls of ``asked``."""
    source = seeded_faces(seed)
    seen: dict[Outcome | int, int] = defaultdict(int)
    for _ in range(rolls):
        result = roll(asked, source)
        seen[category(result.outcome, result.successes)] += 1
    return dict(seen)


def chi_square_p(seen: dict[Outcome | int, int], predicted: Odds) -> float:
    """p-value of the counts ``seen`` against ``predicted``, bins below 5 expected pooled."""
    rolls = sum(seen.values())
    expected = expected_categories(predicted)
    bins = sorted((chance * rolls, seen.get(key, 0)) for key, chance in expected.items())
    pooled_expected = 0.0
    pooled_seen = sum(count for key, count in seen.items() if key not in expected)
    while bins and (pooled_expected < 5 or bins[0][0] < 5):
        low_expected, low_seen = bins.pop(0)
        pooled_expected, pooled_seen = pooled_expected + low_expected, pooled_seen + low_seen
    observed = [count for _, count in bins] + [pooled_seen]
    masses = [mass for mass, _ in bins] + [pooled_expected]
    scale = rolls / fsum(masses)  # the cut tail (< 1e-14) would upset chisquare's sum check
    return float(chisquare(observed, [mass * scale for mass in masses]).pvalue)


CHI_SQUARE = [
    request("cofd", 1),
    request("cofd", 6, rote=True),
    request("cofd", 12, again=Again.EIGHT),
    request("cofd", 20, again=Again.NINE, rote=True, extra=2),
    request("cofd", 8, again=Again.NONE, exceptional_at=3),
    request("cofd", -1, rote=True),
    request("v20", 3),
    request("v20", 7, difficulty=8, specialty=True),
    request("v20", 15, difficulty=4),
    request("v20", 5, difficulty=9, will=True),
    request("fistful", 2),
    request("fistful", 6, initiative=True),
    request("fistful", 3, risky=True),
    request("fistful", 10, untrained=SkillCategory.MENTAL),
    request("fistful", 25, risky=True, initiative=True),
    request("fistful", 5, risky=True, no_botch=True),
]


@pytest.mark.parametrize(("seed", "asked"), list(enumerate(CHI_SQUARE)))
def test_seeded_rolls_follow_the_exact_odds(seed: int, asked: RollRequest) -> None:
    predicted = odds(asked)
    seen = seeded_rolls(asked, 3000, seed)
    assert seen.keys() <= expected_categories(predicted).keys(), "a roll the odds call impossible"
    assert chi_square_p(seen, predicted) > 0.001


def test_the_chi_square_test_notices_odds_that_do_not_fit() -> None:
    seen = seeded_rolls(request("cofd", 8, again=Again.EIGHT), 3000, 99)
    assert chi_square_p(seen, odds(request("cofd", 8, again=Again.TEN))) < 1e-6
