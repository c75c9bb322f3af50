"""The roll engine read against RULES.md, on scripted faces."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.constants import MAX_EXTRA, MAX_POOL
from engine.faces import FacesExhaustedError, ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Degree,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    WillUse,
)
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, roll, spend_will, take_beat, will_refusal
from tests.support.enumerate import enumerate_rolls


def request(ruleset: str, pool: int, **options: Any) -> RollRequest:
    return RollRequest(ruleset=Ruleset(ruleset), terms=(Term(value=pool),), **options)


def scripted(
    ruleset: str, pool: int, faces: list[int], will_after: list[int] | None = None,
    **options: Any,
) -> tuple[RollResult, ScriptedFaces]:
    """Roll on scripted faces; with ``will_after`` spend Will after, drawing those faces."""
    source = ScriptedFaces([*faces, *(will_after or [])])
    result = roll(request(ruleset, pool, **options), source)
    if will_after is not None:
        result = spend_will(result, source)
    return result, source


# (ruleset, pool, options, faces, will faces or None, outcome, successes, botch degree, degree)
WORKED_EXAMPLES: list[tuple[Any, ...]] = [
    ("cofd", 5, {}, [3, 8, 10, 1, 9, 10, 4], None, "success", 4, None, None),
    ("cofd", 3, {"again": "9"}, [9, 2, 5, 9, 7], None, "success", 2, None, None),
    ("cofd", 3, {"again": "8"}, [8, 8, 2, 8, 3, 5], None, "success", 3, None, None),
    ("cofd", 3, {"again": "none"}, [10, 10, 4], None, "success", 2, None, None),
    ("cofd", 4, {"rote": True}, [2, 8, 5, 6, 10, 1, 9, 8], None, "success", 4, None, None),
    ("cofd", 2, {"rote": True}, [10, 4, 10, 2, 3], None, "success", 2, None, None),
    ("cofd", -1, {}, [1], None, "dramatic_failure", 0, None, None),
    ("cofd", 0, {"rote": True}, [5, 10], None, "success", 1, None, None),
    ("cofd", 0, {"rote": True}, [5, 1], None, "dramatic_failure", 0, None, None),
    ("cofd", 6, {}, [8, 9, 10, 8, 9, 3, 2], None, "exceptional_success", 5, None, None),
    ("cofd", 3, {"extra": 2}, [8, 4, 2], None, "success", 3, None, None),
    ("cofd", 4, {"exceptional_at": 3}, [8, 9, 8, 1], None, "exceptional_success", 3, None, None),
    ("cofd", 2, {}, [3, 4], [9, 10, 2, 8], "success", 3, None, None),
    ("cofd", -1, {}, [1], [9], "success", 1, None, None),
    ("v20", 5, {}, [6, 7, 1, 3, 10], None, "success", 2, None, "moderate"),
    ("v20", 4, {"difficulty": 7}, [6, 5, 1, 2], None, "botch", 0, None, None),
    ("v20", 3, {}, [7, 1, 1], None, "failure", 0, None, None),
    ("v20", 4, {"difficulty": 8, "specialty": True}, [10, 9, 1, 3], None, "success", 2, None,
     "moderate"),
    ("v20", 3, {"will": True}, [1, 1, 2], None, "success", 1, None, "marginal"),
    ("v20", 4, {}, [2, 3, 1, 5], [], "success", 1, None, "marginal"),
    ("fistful", 4, {}, [8, 10, 3, 1, 10, 5], None, "success", 3, None, None),
    ("fistful", 4, {"untrained": "mental"}, [10, 9, 1, 3], None, "success", 1, None, None),
    ("fistful", 5, {"risky": True}, [10, 10, 10, 1, 8, 1, 9], None, "success", 3, None, None),
    ("fistful", 3, {"untrained": "mental"}, [10, 10, 5, 10, 1], None, "success", 2, None, None),
    ("fistful", 2, {"untrained": "mental"}, [10, 10, 1, 1], None, "failure", 0, None, None),
    ("fistful", 1, {"untrained": "mental"}, [10, 1], None, "failure", 0, None, None),
    ("fistful", 3, {}, [2, 1, 1], None, "botch", 0, 2, None),
    ("fistful", 4, {}, [1, 1, 1, 5], None, "botch", 0, 3, None),
    ("fistful", 3, {"no_botch": True}, [2, 1, 1], None, "failure", 0, None, None),
    ("fistful", 3, {"untrained": "mental"}, [8, 1, 1], None, "botch", 0, 1, None),
    ("fistful", 3, {"initiative": True}, [6, 7, 2], None, "success", 2, None, None),
    ("fistful", 2, {"initiative": True, "risky": True}, [7, 1], None, "failure", 0, None, None),
    ("fistful", 2, {"initiative": True}, [10, 6, 6], None, "success", 3, None, None),
    ("fistful", 0, {}, [], None, "refused", 0, None, None),
    ("fistful", 2, {"untrained": "mental"}, [10, 5, 9], [1, 8, 3], "success", 1, None, None),
]


@pytest.mark.parametrize(
    ("ruleset", "pool", "options", "faces", "will", "outcome", "successes", "botch", "degree"),
    WORKED_EXAMPLES,
)
def test_worked_examples_of_rules_section_5(
    ruleset: str, pool: int, options: dict[str, Any], faces: list[int],
    will: list[int] | None, outcome: str, successes: int, botch: int | None, degree: str | None,
) -> None:
    result, source = scripted(ruleset, pool, faces, will, **options)
    assert result.outcome == outcome
    assert result.successes == successes
    assert result.botch_degree == botch
    assert result.degree == degree
    assert source.remaining == 0, "every scripted face is drawn, in the order RULES.md §0 fixes"


# --- cofd ------------------------------------------------------------------------------


def test_rote_replacement_takes_the_place_of_the_die_it_replaces() -> None:
    result, _ = scripted("cofd", 4, [2, 8, 5, 6, 10, 1, 9, 8], rote=True)
    replaced = [d for d in result.dice if d.fate is Fate.REPLACED]
    assert [d.face for d in replaced] == [2, 5, 6]
    assert [result.dice[d.pair].face for d in replaced if d.pair is not None] == [10, 1, 9]
    assert all(result.dice[d.pair].kind is DieKind.ROTE for d in replaced if d.pair is not None)
    extra = [d for d in result.dice if d.kind is DieKind.EXTRA]
    assert [(d.face, d.round) for d in extra] == [(8, 1)]


def test_extra_dice_are_never_rote_rerolled() -> None:
    result, source = scripted("cofd", 1, [10, 3], rote=True)
    assert result.successes == 1
    assert source.remaining == 0
    assert [d.kind for d in result.dice] == [DieKind.POOL, DieKind.EXTRA]


def test_a_rote_replacement_is_not_rerolled_again() -> None:
    result, source = scripted("cofd", 1, [3, 4], rote=True)
    assert result.outcome is Outcome.FAILURE
    assert source.remaining == 0


def test_exceptional_success_counts_dice_successes_not_extra_successes() -> None:
    result, _ = scripted("cofd", 4, [8, 8, 8, 8], extra=3)
    assert result.successes == 7
    assert result.dice_successes == 4
    assert result.outcome is Outcome.SUCCESS


def test_extra_successes_never_turn_a_failure_into_a_success() -> None:
    result, _ = scripted("cofd", 2, [3, 4], extra=4)
    assert result.outcome is Outcome.FAILURE
    assert result.successes == 0


def test_chance_die_ten_succeeds_without_rerolling() -> None:
    result, source = scripted("cofd", -2, [10], extra=1)
    assert result.outcome is Outcome.SUCCESS
    assert result.successes == 2, "extra successes apply to a chance die's success"
    assert source.remaining == 0
    assert result.breakdown is not None and result.breakdown.chance


def test_chance_die_is_never_exceptional() -> None:
    result, _ = scripted("cofd", 0, [10], exceptional_at=1)
    assert result.outcome is Outcome.SUCCESS


def test_rote_chance_die_does_not_reroll_a_one() -> None:
    result, source = scripted("cofd", 0, [1], rote=True)
    assert result.outcome is Outcome.DRAMATIC_FAILURE
    assert source.remaining == 0


def test_rote_chance_die_rerolls_an_eight() -> None:
    result, _ = scripted("cofd", 0, [8, 4], rote=True)
    assert result.outcome is Outcome.FAILURE
    assert [d.fate for d in result.dice] == [Fate.REPLACED, Fate.FAILURE]


@pytest.mark.parametrize("exceptional_at", [0, 11])
def test_exceptional_threshold_out_of_range_is_refused(exceptional_at: int) -> None:
    result, _ = scripted("cofd", 3, [], exceptional_at=exceptional_at)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(
        RefusalCode.OUT_OF_RANGE, option="exceptional_at", value=exceptional_at, low=1, high=10
    )
    assert result.successes == 0


@pytest.mark.parametrize(
    ("untrained", "dice"), [("mental", -3), ("physical", -1), ("social", -1)]
)
def test_untrained_penalty_by_skill_category(untrained: str, dice: int) -> None:
    result, _ = scripted("cofd", 5, [1] * (5 + dice), untrained=untrained)
    assert result.breakdown is not None
    assert result.breakdown.dice == 5 + dice
    assert Adjustment(kind=AdjustmentKind.UNTRAINED, dice=dice) in result.breakdown.adjustments


def test_specialty_and_resistance_are_listed_in_the_breakdown() -> None:
    result, _ = scripted("cofd", 5, [2, 2, 2, 2], specialty=True, resist=2)
    assert result.breakdown is not None
    assert result.breakdown.dice == 4
    kinds = [adj.kind for adj in result.breakdown.adjustments]
    assert kinds == [AdjustmentKind.SPECIALTY, AdjustmentKind.RESISTANCE]


def test_declared_will_whose_pool_stays_below_one_refuses_the_whole_request() -> None:
    result, source = scripted("cofd", -3, [5, 5, 5], will=True)
    assert result.outcome is Outcome.REFUSED
    assert source.remaining == 3, "nothing is rolled"


def test_declared_will_dice_are_the_last_three_of_round_zero() -> None:
    result, _ = scripted("cofd", 2, [1, 2, 3, 4, 5], will=True)
    assert [d.kind for d in result.dice] == [DieKind.POOL] * 2 + [DieKind.WILL] * 3
    assert result.will is WillUse.DECLARED


def test_pool_over_max_pool_is_refused_will_included() -> None:
    result, _ = scripted("cofd", MAX_POOL - 2, [], will=True)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=MAX_POOL + 1, max=MAX_POOL)
    assert scripted("cofd", MAX_POOL, [2] * MAX_POOL)[0].outcome is Outcome.FAILURE


def test_will_spend_that_would_cross_max_pool_is_refused() -> None:
    result, _ = scripted("cofd", MAX_POOL - 1, [2] * (MAX_POOL - 1))
    with pytest.raises(RuleError) as refused:
        spend_will(result, ScriptedFaces([8, 8, 8]))
    assert refused.value.refusal == Refusal.of(
        RefusalCode.POOL_TOO_LARGE, dice=MAX_POOL + 2, max=MAX_POOL
    )
    assert str(refused.value) == "pool_too_large"


def test_extra_dice_stop_at_exactly_max_extra_and_the_result_says_so() -> None:
    result, source = scripted("cofd", 1, [10] * (MAX_EXTRA + 1))
    assert result.capped
    assert sum(d.kind is DieKind.EXTRA for d in result.dice) == MAX_EXTRA
    assert result.successes == MAX_EXTRA + 1
    assert source.remaining == 0


def test_extra_dice_below_the_cap_are_not_capped() -> None:
    result, _ = scripted("cofd", 1, [10] * MAX_EXTRA + [3])
    assert not result.capped
    assert result.successes == MAX_EXTRA


def test_no_again_rerolls_nothing() -> None:
    result, source = scripted("cofd", 2, [10, 10], again="none")
    assert not any(d.explodes for d in result.dice)
    assert source.remaining == 0


# --- Take a Beat ------------------------------------------------------------------------


def test_take_a_beat_turns_a_failure_into_a_dramatic_failure() -> None:
    result, _ = scripted("cofd", 2, [3, 4])
    beat = take_beat(result)
    assert beat.outcome is Outcome.DRAMATIC_FAILURE
    assert beat.beat
    assert beat.dice == result.dice


def test_take_a_beat_on_a_failed_chance_die() -> None:
    result, _ = scripted("cofd", 0, [5])
    assert take_beat(result).outcome is Outcome.DRAMATIC_FAILURE


@pytest.mark.parametrize(
    ("pool", "faces"), [(2, [8, 4]), (0, [1])], ids=["success", "dramatic failure"]
)
def test_take_a_beat_only_on_a_failure(pool: int, faces: list[int]) -> None:
    result, _ = scripted("cofd", pool, faces)
    with pytest.raises(RuleError) as refused:
        take_beat(result)
    assert refused.value.refusal.code is RefusalCode.BEAT_NOT_FAILURE


def test_take_a_beat_once_and_it_closes_the_roll() -> None:
    beat = take_beat(scripted("cofd", 2, [3, 4])[0])
    with pytest.raises(RuleError) as again:
        take_beat(beat)
    assert again.value.refusal.code is RefusalCode.BEAT_ALREADY_TAKEN
    with pytest.raises(RuleError) as will:
        spend_will(beat, ScriptedFaces([9, 9, 9]))
    assert will.value.refusal.code is RefusalCode.WILL_AFTER_BEAT


def test_take_a_beat_is_cofd_only() -> None:
    result, _ = scripted("v20", 2, [3, 4])
    with pytest.raises(RuleError) as refused:
        take_beat(result)
    assert refused.value.refusal == Refusal.of(RefusalCode.BEAT_NOT_COFD, ruleset="v20")


# --- Will after the roll ------------------------------------------------------------------


def test_spend_will_after_failure_adds_three_dice() -> None:
    result, _ = scripted("cofd", 2, [3, 4], [9, 10, 2, 8])
    assert result.will is WillUse.AFTER
    assert [(d.face, d.kind) for d in result.dice] == [
        (3, DieKind.POOL), (4, DieKind.POOL),
        (9, DieKind.WILL), (10, DieKind.WILL), (2, DieKind.WILL), (8, DieKind.EXTRA),
    ]
    assert result.breakdown is not None and result.breakdown.dice == 5


def test_will_after_keeps_the_original_request() -> None:
    original, source = scripted("cofd", 2, [3, 4])
    after = spend_will(original, ScriptedFaces([2, 2, 2]))
    assert after.request == original.request
    assert not after.request.will
    assert source.remaining == 0


def test_will_after_a_chance_die_rereads_a_dramatic_failure() -> None:
    result, _ = scripted("cofd", -1, [1], [9])
    assert result.outcome is Outcome.SUCCESS
    assert [(d.face, d.kind, d.fate) for d in result.dice] == [
        (1, DieKind.POOL, Fate.FAILURE), (9, DieKind.WILL, Fate.SUCCESS),
    ]


def test_will_after_rote_chance_die_reuses_its_reroll_as_the_replacement() -> None:
    # chance 5 rerolled by rote to 3 (failure); Will: pool 3 → 5 stays, two new dice 2, 8;
    # rote: the 5's replacement is the old 3, then a fresh replacement for the 2 → 10 → r1 4.
    result, source = scripted("cofd", 0, [5, 3], [2, 8, 10, 4], rote=True)
    assert source.remaining == 0
    assert result.successes == 2
    assert not any(d.fate is Fate.VOID for d in result.dice)


def test_will_after_rote_chance_die_voids_the_reroll_of_an_eight() -> None:
    result, source = scripted("cofd", 0, [8, 1], [2, 2, 3, 3], rote=True)
    # the 8 now succeeds: its old reroll (1) is void, not handed on to the next failing die;
    # the new 2, 2 get fresh replacements 3, 3
    assert source.remaining == 0
    void = [d for d in result.dice if d.fate is Fate.VOID]
    assert [(d.face, d.kind) for d in void] == [(1, DieKind.ROTE)]
    assert result.successes == 1


def test_will_after_rote_chance_die_one_gets_a_fresh_replacement_first() -> None:
    source = ScriptedFaces([1, 4, 9, 7, 3])
    original = roll(request("cofd", 0, rote=True), source)
    assert original.outcome is Outcome.DRAMATIC_FAILURE
    after = spend_will(original, source)
    # round 0: 1 (old), 4, 9 new; rote in round-0 order: the 1 → 7, the 4 → 3
    assert [(d.face, d.kind, d.fate) for d in after.dice] == [
        (1, DieKind.POOL, Fate.REPLACED), (4, DieKind.WILL, Fate.REPLACED),
        (9, DieKind.WILL, Fate.SUCCESS), (7, DieKind.ROTE, Fate.FAILURE),
        (3, DieKind.ROTE, Fate.FAILURE),
    ]
    assert after.successes == 1


def test_will_after_is_refused_when_pool_plus_three_is_below_one() -> None:
    result, _ = scripted("cofd", -3, [4])
    with pytest.raises(RuleError) as refused:
        spend_will(result, ScriptedFaces([9, 9, 9]))
    assert refused.value.refusal == Refusal.of(RefusalCode.WILL_CANNOT_HELP, pool=-3, will_dice=3)
    assert will_refusal(result) == refused.value.refusal


def test_will_after_the_fistful_unskilled_roll_voids_an_unneeded_extra_die() -> None:
    result, _ = scripted("fistful", 2, [10, 5, 9], [1, 8, 3], untrained="mental")
    assert [(d.face, d.fate) for d in result.dice] == [
        (10, Fate.CANCELLED), (5, Fate.FAILURE), (1, Fate.CANCELS), (8, Fate.SUCCESS),
        (3, Fate.FAILURE), (9, Fate.VOID),
    ]
    assert result.dice[0].pair == 2 and result.dice[2].pair == 0


def test_will_after_reuses_old_extra_faces_before_drawing_fresh_ones() -> None:
    # fistful pool 1: 10 → r1 4; Will adds 10, 2, 2 → round 1 needs two dice: the old 4, then 9
    result, source = scripted("fistful", 1, [10, 4], [10, 2, 2, 9])
    assert source.remaining == 0
    assert [(d.face, d.round) for d in result.dice if d.kind is DieKind.EXTRA] == [(4, 1), (9, 1)]
    assert result.successes == 3


def test_will_once_per_roll() -> None:
    result, _ = scripted("cofd", 2, [3, 4], [2, 2, 2])
    with pytest.raises(RuleError) as spent:
        spend_will(result, ScriptedFaces([9, 9, 9]))
    assert spent.value.refusal.code is RefusalCode.WILL_ALREADY_SPENT
    declared, _ = scripted("cofd", 2, [3, 4, 2, 2, 2], will=True)
    with pytest.raises(RuleError) as refused:
        spend_will(declared, ScriptedFaces([9, 9, 9]))
    assert refused.value.refusal.code is RefusalCode.WILL_DECLARED


def test_refused_will_spend_leaves_the_roll_as_it_was() -> None:
    result, _ = scripted("cofd", -3, [4])
    before = result.model_dump_json()
    with pytest.raises(RuleError):
        spend_will(result, ScriptedFaces([9]))
    assert result.model_dump_json() == before


def test_will_cannot_be_spent_on_a_refused_roll() -> None:
    result, _ = scripted("fistful", 0, [])
    with pytest.raises(RuleError) as refused:
        spend_will(result, ScriptedFaces([9, 9, 9]))
    assert refused.value.refusal.code is RefusalCode.WILL_NOTHING_ROLLED


def test_v20_will_after_the_roll_adds_a_success_no_one_cancels() -> None:
    result, source = scripted("v20", 3, [1, 1, 7], [])
    assert result.outcome is Outcome.SUCCESS
    assert result.successes == 1
    assert source.remaining == 0


def test_automatic_success_has_no_will() -> None:
    result, _ = scripted("v20", 6, [], auto=True)
    assert result.automatic and result.successes == 1 and result.dice == ()
    with pytest.raises(RuleError) as refused:
        spend_will(result, ScriptedFaces([]))
    assert refused.value.refusal.code is RefusalCode.WILL_AUTOMATIC


def _outcome_key(result: RollResult) -> tuple[str, int, int | None]:
    return result.outcome.value, result.successes, result.botch_degree


# Faces that every reading involved treats alike are merged, weights summed, so the
# enumeration can go deep enough that the cut-off mass is small.
COFD_TEN_AGAIN = ((1, 0.1), (5, 0.6), (8, 0.2), (10, 0.1))
COFD_ROTE = ((1, 0.1), (5, 0.6), (8, 0.1), (9, 0.1), (10, 0.1))
COFD_NINE_AGAIN = ((1, 0.1), (5, 0.6), (8, 0.1), (10, 0.2))
COFD_EIGHT_AGAIN = ((1, 0.1), (5, 0.6), (10, 0.3))
FISTFUL = ((1, 0.1), (5, 0.6), (8, 0.2), (10, 0.1))
FISTFUL_INITIATIVE = ((1, 0.1), (3, 0.4), (7, 0.4), (10, 0.1))


@pytest.mark.parametrize(
    ("ruleset", "pool", "options", "alphabet", "max_faces"),
    [
        ("cofd", -2, {}, COFD_TEN_AGAIN, 8),
        ("cofd", -1, {"rote": True}, COFD_ROTE, 7),
        ("cofd", 0, {"again": "8"}, COFD_EIGHT_AGAIN, 9),
        ("cofd", 1, {}, COFD_TEN_AGAIN, 8),
        ("cofd", 1, {"again": "9", "extra": 1}, COFD_NINE_AGAIN, 9),
        ("fistful", 1, {}, FISTFUL, 8),
        ("fistful", 1, {"untrained": "mental"}, FISTFUL, 8),
        ("fistful", 2, {"risky": True, "initiative": True}, FISTFUL_INITIATIVE, 8),
    ],
)
def test_spending_will_after_the_roll_has_the_odds_of_declaring_it(
    ruleset: str, pool: int, options: dict[str, Any],
    alphabet: tuple[tuple[int, float], ...], max_faces: int,
) -> None:
    up_front = request(ruleset, pool, will=True, **options)
    plain = request(ruleset, pool, **options)
    declared, cut_declared = enumerate_rolls(
        lambda faces: _outcome_key(roll(up_front, faces)), alphabet, max_faces
    )
    after, cut_after = enumerate_rolls(
        lambda faces: _outcome_key(spend_will(roll(plain, faces), faces)), alphabet, max_faces
    )
    assert cut_declared < 0.01
    assert cut_after < 0.01
    tolerance = cut_declared + cut_after + 1e-12
    for key in declared.keys() | after.keys():
        assert abs(declared.get(key, 0.0) - after.get(key, 0.0)) <= tolerance, key


def test_v20_will_after_equals_will_declared_on_the_same_faces() -> None:
    for first in range(1, 11):
        for second in range(1, 11):
            faces = [first, second]
            after, _ = scripted("v20", 2, faces, [], specialty=True, difficulty=7)
            declared, _ = scripted("v20", 2, faces, will=True, specialty=True, difficulty=7)
            assert _outcome_key(after) == _outcome_key(declared)


# --- v20 ----------------------------------------------------------------------------------


@pytest.mark.parametrize("difficulty", [1, 11])
def test_v20_difficulty_out_of_range_is_refused(difficulty: int) -> None:
    result, _ = scripted("v20", 3, [], difficulty=difficulty)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(
        RefusalCode.OUT_OF_RANGE, option="difficulty", value=difficulty, low=2, high=10
    )


def test_v20_difficulty_ten_is_allowed_when_set_directly() -> None:
    result, _ = scripted("v20", 2, [10, 9], difficulty=10)
    assert result.outcome is Outcome.SUCCESS and result.successes == 1


def test_v20_raised_difficulty_reaching_ten_cannot_be_taken() -> None:
    raised = (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=2),)
    result, _ = scripted("v20", 3, [], difficulty=8, adjustments=raised)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(
        RefusalCode.DIFFICULTY_TOO_HIGH, difficulty=10, base=8, raised=2, high=10
    )
    ok, _ = scripted("v20", 3, [9, 9, 9], difficulty=7, adjustments=raised)
    assert ok.breakdown is not None and ok.breakdown.difficulty == 9


def test_v20_difficulty_lowered_below_two_is_refused() -> None:
    lowered = (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, difficulty=-2),)
    result, _ = scripted("v20", 3, [], difficulty=3, adjustments=lowered)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(RefusalCode.DIFFICULTY_TOO_LOW, difficulty=1, low=2)


def test_v20_pool_of_zero_is_refused_willpower_or_not() -> None:
    for will, code in ((False, RefusalCode.NO_DICE), (True, RefusalCode.NO_DICE_WITH_WILL)):
        result, _ = scripted("v20", 0, [], will=will)
        assert result.outcome is Outcome.REFUSED
        assert result.refusal == Refusal.of(code, pool=0)


def test_v20_specialty_ten_counts_two_and_a_one_cancels_one_of_them() -> None:
    result, _ = scripted("v20", 2, [10, 1], specialty=True)
    assert result.successes == 1
    ten = result.dice[0]
    assert ten.fate is Fate.SUCCESS and ten.successes == 1 and ten.pair == 1


def test_v20_successes_all_cancelled_is_a_failure_not_a_botch() -> None:
    result, _ = scripted("v20", 2, [8, 1])
    assert result.outcome is Outcome.FAILURE
    assert [d.fate for d in result.dice] == [Fate.CANCELLED, Fate.CANCELS]


@pytest.mark.parametrize(
    ("faces", "degree"),
    [
        ([6, 2, 2, 2, 2, 2], Degree.MARGINAL),
        ([6, 6, 2, 2, 2, 2], Degree.MODERATE),
        ([6, 6, 6, 2, 2, 2], Degree.COMPLETE),
        ([6, 6, 6, 6, 2, 2], Degree.EXCEPTIONAL),
        ([6, 6, 6, 6, 6, 2], Degree.PHENOMENAL),
        ([6, 6, 6, 6, 6, 6], Degree.PHENOMENAL),
    ],
)
def test_v20_degree_words(faces: list[int], degree: Degree) -> None:
    result, _ = scripted("v20", 6, faces)
    assert result.degree is degree
    assert result.outcome is Outcome.SUCCESS


def test_v20_automatic_success_needs_a_pool_of_at_least_the_difficulty() -> None:
    refused, _ = scripted("v20", 5, [], auto=True)
    assert refused.outcome is Outcome.REFUSED
    with_will, _ = scripted("v20", 8, [], auto=True, will=True)
    assert with_will.outcome is Outcome.REFUSED
    granted, _ = scripted("v20", 6, [], auto=True)
    assert granted.outcome is Outcome.SUCCESS and granted.degree is Degree.MARGINAL


# --- fistful ------------------------------------------------------------------------------


def test_fistful_need_is_met_or_not() -> None:
    met, _ = scripted("fistful", 3, [8, 9, 2], need=2)
    missed, _ = scripted("fistful", 3, [8, 2, 2], need=2)
    assert met.need_met is True
    assert missed.need_met is False
    assert scripted("fistful", 3, [8, 2, 2])[0].need_met is None


def test_fistful_pool_of_zero_cannot_be_rescued_by_will() -> None:
    result, _ = scripted("fistful", 0, [], will=True)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(RefusalCode.NO_ACTION_NOW_WITH_WILL, pool=0)


def test_fistful_ones_stand_without_unskilled_or_risky() -> None:
    result, _ = scripted("fistful", 3, [10, 1, 4, 2])
    assert result.successes == 1
    assert result.botch_degree is None
    assert result.dice[1].fate is Fate.ONE


def test_fistful_unskilled_and_risky_together_is_the_same_as_either() -> None:
    faces = [10, 9, 1, 3, 1]
    both, _ = scripted("fistful", 4, faces, untrained="social", risky=True)
    one, _ = scripted("fistful", 4, faces, risky=True)
    assert _outcome_key(both) == _outcome_key(one)


def test_fistful_ones_eat_tens_first_then_nines() -> None:
    result, _ = scripted("fistful", 4, [8, 9, 10, 1], risky=True)
    assert [d.fate for d in result.dice] == [
        Fate.SUCCESS, Fate.SUCCESS, Fate.CANCELLED, Fate.CANCELS,
    ]
    assert result.successes == 2


def test_fistful_extra_round_one_lowers_the_count_of_earlier_rounds() -> None:
    result, _ = scripted("fistful", 3, [10, 10, 8, 9, 1], untrained="mental")
    # count 3, two extra dice 9 and 1: the 9 adds one, the 1 (no 10 in its round) eats the
    # highest standing success, the first 10 (display), and the count goes back to 3
    assert result.successes == 3
    assert result.dice[0].fate is Fate.CANCELLED and result.dice[0].pair == 4
    assert result.dice[0].explodes, "the eaten 10 had already granted its die"
    result, source = scripted("fistful", 2, [10, 8, 1], untrained="mental")
    assert result.successes == 1
    assert source.remaining == 0


def test_fistful_cap_on_extra_dice() -> None:
    result, _ = scripted("fistful", 1, [10] * (MAX_EXTRA + 1))
    assert result.capped and result.successes == MAX_EXTRA + 1


# --- options and refusals -------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "option", "value"),
    [
        ("cofd", "difficulty", 7), ("cofd", "risky", True), ("cofd", "need", 3),
        ("v20", "rote", True), ("v20", "again", "9"), ("v20", "untrained", "mental"),
        ("fistful", "specialty", True), ("fistful", "difficulty", 6), ("fistful", "auto", True),
    ],
)
def test_options_foreign_to_the_ruleset_are_refused(ruleset: str, option: str, value: Any) -> None:
    result, source = scripted(ruleset, 3, [8, 8, 8], **{option: value})
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(
        RefusalCode.OPTION_NOT_IN_RULESET, options=option, ruleset=ruleset
    )
    assert source.remaining == 3


def test_scripted_faces_run_out_loudly() -> None:
    with pytest.raises(FacesExhaustedError):
        roll(request("cofd", 3), ScriptedFaces([8, 8]))


# --- models ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "pool", "faces", "will", "options"),
    [
        ("cofd", 4, [2, 8, 5, 6, 10, 1, 9, 8], None, {"rote": True}),
        ("v20", 4, [10, 9, 1, 3], None, {"specialty": True, "difficulty": 8}),
        ("fistful", 2, [10, 5, 9], [1, 8, 3], {"untrained": "mental", "need": 1}),
        ("fistful", 0, [], None, {}),
    ],
)
def test_results_round_trip_through_json_unchanged(
    ruleset: str, pool: int, faces: list[int], will: list[int] | None, options: dict[str, Any]
) -> None:
    result, _ = scripted(ruleset, pool, faces, will, **options)
    again = RollResult.model_validate_json(result.model_dump_json())
    assert again == result
    assert again.model_dump_json() == result.model_dump_json()
    validated = RollResult.model_validate(result.model_dump())
    assert validated == result


def test_results_stored_with_an_english_message_still_load() -> None:
    refused, _ = scripted("fistful", 0, [])
    stored = refused.model_dump(mode="json", exclude={"refusal"}) | {"message": "no dice"}
    loaded = RollResult.model_validate_json(json.dumps(stored))
    assert loaded.refusal == Refusal.of(RefusalCode.LEGACY, text="no dice")
    assert loaded.model_dump(exclude={"refusal"}) == refused.model_dump(exclude={"refusal"})
    rolled, _ = scripted("cofd", 1, [8])
    old = rolled.model_dump(mode="json", exclude={"refusal"}) | {"message": None}
    assert RollResult.model_validate(old) == rolled


def test_trusted_construction_equals_validated_construction() -> None:
    fields: dict[str, Any] = {
        "request": request("cofd", 2), "outcome": Outcome.SUCCESS, "successes": 2,
    }
    trusted = RollResult.trusted(**fields)
    validated = RollResult(**fields)
    assert trusted == validated
    assert trusted.model_dump_json() == validated.model_dump_json()
    assert trusted.model_fields_set == validated.model_fields_set


def test_degree_words_by_net_successes() -> None:
    assert [Degree.of(net) for net in (1, 2, 3, 4, 5, 9)] == [
        Degree.MARGINAL, Degree.MODERATE, Degree.COMPLETE, Degree.EXCEPTIONAL,
        Degree.PHENOMENAL, Degree.PHENOMENAL,
    ]
    with pytest.raises(ValueError, match="at least 1"):
        Degree.of(0)
