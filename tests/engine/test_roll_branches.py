"""Single-roll rules off the main path (issue 16), each pinned on scripted faces.

Every test here is named after the rule it pins; each was shown to change
behaviour under a mutant of the engine that the older tests let through.
Refusals are checked by outcome and numbers, never by their wording.
"""

from __future__ import annotations

from typing import Any

import pytest

from engine.constants import MAX_POOL, MAX_TARGET
from engine.faces import ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollResult,
    WillUse,
)
from engine.odds import TAIL, odds
from engine.prepare import Prepared, prepare
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, roll, spend_will, will_refusal
from tests.engine.scripted import request, rolled


def will_after(result: RollResult, faces: list[int], *, left: int = 0) -> RollResult:
    """Spend Will after ``result``; exactly ``left`` of ``faces`` must stay undrawn."""
    source = ScriptedFaces(faces)
    after = spend_will(result, source)
    assert source.remaining == left, "Will drew only the faces the new reading needed"
    return after


def shape(result: RollResult) -> list[tuple[int, int, DieKind, Fate]]:
    return [(d.face, d.round, d.kind, d.fate) for d in result.dice]


# --- 1. fistful: a 1 in an extra round eats that round's own 10s ------------------------


def test_fistful_unskilled_one_in_round_two_eats_round_two_tens() -> None:
    # r0 10 10 · r1 10 10 · r2 10 1: the 1 eats round 2's 10, which grants nothing;
    # eating a round-1 10 instead would let round 2's 10 draw the 8 and make 5.
    result = rolled("fistful", 2, [10, 10, 10, 10, 10, 1, 8], left=1, untrained="mental")
    assert result.outcome is Outcome.SUCCESS
    assert result.successes == 4
    assert result.dice_successes == 4
    assert [(d.face, d.round) for d in result.dice] == [
        (10, 0), (10, 0), (10, 1), (10, 1), (10, 2), (1, 2),
    ]
    assert [d.fate for d in result.dice] == [Fate.SUCCESS] * 4 + [Fate.CANCELLED, Fate.CANCELS]
    assert [d.explodes for d in result.dice] == [True] * 4 + [False, False]
    assert (result.dice[4].pair, result.dice[5].pair) == (5, 4)


def test_fistful_extra_dice_carry_their_round_number_past_round_one() -> None:
    result = rolled("fistful", 1, [10, 10, 10, 4])
    assert [(d.face, d.round, d.kind) for d in result.dice] == [
        (10, 0, DieKind.POOL), (10, 1, DieKind.EXTRA), (10, 2, DieKind.EXTRA),
        (4, 3, DieKind.EXTRA),
    ]
    assert result.successes == 3


def test_cofd_extra_dice_carry_their_round_number_past_round_one() -> None:
    result = rolled("cofd", 1, [10, 10, 3])
    assert [(d.round, d.kind, d.explodes) for d in result.dice] == [
        (0, DieKind.POOL, True), (1, DieKind.EXTRA, True), (2, DieKind.EXTRA, False),
    ]


# --- 2. fistful: declared Will is once per roll, whatever the roll did --------------------


@pytest.mark.parametrize(
    ("faces", "outcome"),
    [([2, 3, 4, 5], Outcome.FAILURE), ([1, 3, 4, 5], Outcome.BOTCH)],
    ids=["failure", "botch"],
)
def test_fistful_declared_will_that_fails_or_botches_refuses_a_second_spend(
    faces: list[int], outcome: Outcome
) -> None:
    result = rolled("fistful", 1, faces, will=True)
    assert result.outcome is outcome
    assert result.will is WillUse.DECLARED
    assert will_refusal(result) is not None
    with pytest.raises(RuleError):
        spend_will(result, ScriptedFaces([8, 8, 8]))


def test_fistful_will_spent_after_a_failure_refuses_a_second_spend() -> None:
    after = will_after(rolled("fistful", 1, [2]), [3, 4, 5])
    assert after.outcome is Outcome.FAILURE
    assert after.will is WillUse.AFTER
    assert will_refusal(after) is not None
    with pytest.raises(RuleError):
        spend_will(after, ScriptedFaces([8, 8, 8]))


def test_will_is_offered_on_a_plain_failure_of_every_ruleset() -> None:
    for ruleset in ("cofd", "v20", "fistful"):
        assert will_refusal(rolled(ruleset, 2, [2, 3])) is None


# --- 3. fistful: need on a failure or a botch is not met ----------------------------------


@pytest.mark.parametrize(
    ("faces", "options", "outcome"),
    [
        ([2, 3, 4], {}, Outcome.FAILURE),
        ([1, 3, 4], {}, Outcome.BOTCH),
        ([1, 3, 4], {"no_botch": True}, Outcome.FAILURE),
    ],
    ids=["failure", "botch", "no-botch failure"],
)
def test_fistful_need_on_a_failure_or_a_botch_is_not_met(
    faces: list[int], options: dict[str, Any], outcome: Outcome
) -> None:
    result = rolled("fistful", 3, faces, need=1, **options)
    assert result.outcome is outcome
    assert result.need_met is False


def test_fistful_need_met_exactly_at_the_count() -> None:
    assert rolled("fistful", 2, [8, 9], need=2).need_met is True
    assert rolled("fistful", 2, [8, 9], need=3).need_met is False


def test_fistful_without_need_a_failure_or_botch_says_nothing_about_it() -> None:
    assert rolled("fistful", 2, [2, 3]).need_met is None
    assert rolled("fistful", 2, [1, 3]).need_met is None


# --- 4. Will after a cofd rote roll that exploded: old extra faces are reused ------------


def test_cofd_will_after_a_rote_roll_that_exploded_reuses_the_old_extra_round_faces() -> None:
    # pool 1 rote: r0 10 · r1 3 (the 10 needs no replacement); a success of 1.
    original = rolled("cofd", 1, [10, 3], rote=True)
    assert original.successes == 1
    # Will: new dice 2, 8, 5; rote replacements for 2 and 5 → 4, 6; round 1 needs one die
    # for the old 10: the old 3 comes back, not a fresh face (the 10 left over is not drawn).
    after = will_after(original, [2, 8, 5, 4, 6, 10], left=1)
    assert shape(after) == [
        (10, 0, DieKind.POOL, Fate.SUCCESS),
        (2, 0, DieKind.WILL, Fate.REPLACED),
        (8, 0, DieKind.WILL, Fate.SUCCESS),
        (5, 0, DieKind.WILL, Fate.REPLACED),
        (4, 0, DieKind.ROTE, Fate.FAILURE),
        (6, 0, DieKind.ROTE, Fate.FAILURE),
        (3, 1, DieKind.EXTRA, Fate.FAILURE),
    ]
    assert (after.dice[1].pair, after.dice[3].pair) == (4, 5)
    assert after.successes == 2


def test_cofd_will_after_a_rote_roll_keeps_each_replacement_with_its_die() -> None:
    # pool 2 rote: r0 3 9 · rote 10 (for the 3) · r1 4
    original = rolled("cofd", 2, [3, 9, 10, 4], rote=True)
    assert original.successes == 2
    after = will_after(original, [8, 8, 8])
    assert shape(after) == [
        (3, 0, DieKind.POOL, Fate.REPLACED),
        (9, 0, DieKind.POOL, Fate.SUCCESS),
        (8, 0, DieKind.WILL, Fate.SUCCESS),
        (8, 0, DieKind.WILL, Fate.SUCCESS),
        (8, 0, DieKind.WILL, Fate.SUCCESS),
        (10, 0, DieKind.ROTE, Fate.SUCCESS),
        (4, 1, DieKind.EXTRA, Fate.FAILURE),
    ]
    assert after.successes == 5
    assert after.outcome is Outcome.EXCEPTIONAL_SUCCESS


# --- 5. Will after a roll where a 1 cancelled: faces keep their places, no phantoms ------


def test_v20_will_after_a_cancelled_success_keeps_the_dice_and_adds_none() -> None:
    original = rolled("v20", 3, [7, 1, 2])
    assert original.outcome is Outcome.FAILURE
    after = will_after(original, [])
    assert [(d.face, d.fate) for d in after.dice] == [
        (7, Fate.CANCELLED), (1, Fate.CANCELS), (2, Fate.FAILURE),
    ]
    assert not any(d.fate is Fate.VOID for d in after.dice)
    assert (after.outcome, after.successes, after.dice_successes) == (Outcome.SUCCESS, 1, 1)
    assert after.will is WillUse.AFTER


def test_fistful_will_after_a_cancelled_success_gains_exactly_the_new_dice() -> None:
    original = rolled("fistful", 2, [8, 1], untrained="physical")
    assert original.outcome is Outcome.FAILURE
    after = will_after(original, [3, 9, 4])
    assert shape(after) == [
        (8, 0, DieKind.POOL, Fate.SUCCESS),
        (1, 0, DieKind.POOL, Fate.CANCELS),
        (3, 0, DieKind.WILL, Fate.FAILURE),
        (9, 0, DieKind.WILL, Fate.CANCELLED),
        (4, 0, DieKind.WILL, Fate.FAILURE),
    ]
    assert after.successes == 1


def test_fistful_will_after_a_cancelled_exploding_ten_keeps_the_extra_faces() -> None:
    # pool 2 risky: r0 10 1 → the 1 eats the 10 (its own round's 10s first): no extra die.
    original = rolled("fistful", 2, [10, 1], risky=True)
    assert original.outcome is Outcome.FAILURE
    after = will_after(original, [8, 2, 3])
    assert [(d.face, d.kind, d.fate) for d in after.dice] == [
        (10, DieKind.POOL, Fate.CANCELLED), (1, DieKind.POOL, Fate.CANCELS),
        (8, DieKind.WILL, Fate.SUCCESS), (2, DieKind.WILL, Fate.FAILURE),
        (3, DieKind.WILL, Fate.FAILURE),
    ]
    assert after.successes == 1


# --- 6. the 100-dice cap for v20 and fistful; the range of need --------------------------


def test_v20_pool_over_max_pool_is_refused_and_max_pool_is_rolled() -> None:
    refused = rolled("v20", MAX_POOL + 1, [])
    assert refused.outcome is Outcome.REFUSED
    assert refused.refusal == Refusal.of(
        RefusalCode.POOL_TOO_LARGE, dice=MAX_POOL + 1, max=MAX_POOL
    )
    assert (refused.successes, refused.dice) == (0, ())
    full = rolled("v20", MAX_POOL, [2] * MAX_POOL)
    assert full.outcome is Outcome.FAILURE
    assert full.breakdown is not None and full.breakdown.dice == MAX_POOL


def test_v20_will_never_adds_dice_so_it_never_crosses_max_pool() -> None:
    full = rolled("v20", MAX_POOL, [2] * MAX_POOL, will=True)
    assert full.outcome is Outcome.SUCCESS and full.successes == 1
    after = will_after(rolled("v20", MAX_POOL, [2] * MAX_POOL), [])
    assert after.successes == 1


def test_fistful_pool_over_max_pool_is_refused_will_included() -> None:
    assert rolled("fistful", MAX_POOL + 1, []).outcome is Outcome.REFUSED
    with_will = rolled("fistful", MAX_POOL - 2, [], will=True)
    assert with_will.outcome is Outcome.REFUSED
    assert with_will.refusal == Refusal.of(
        RefusalCode.POOL_TOO_LARGE, dice=MAX_POOL + 1, max=MAX_POOL
    )
    full = rolled("fistful", MAX_POOL - 3, [2] * MAX_POOL, will=True)
    assert full.outcome is Outcome.FAILURE
    assert full.breakdown is not None and full.breakdown.dice == MAX_POOL
    assert rolled("fistful", MAX_POOL, [2] * MAX_POOL).outcome is Outcome.FAILURE


def test_fistful_will_spend_that_would_cross_max_pool_is_refused() -> None:
    original = rolled("fistful", MAX_POOL - 2, [2] * (MAX_POOL - 2))
    assert will_refusal(original) is not None
    with pytest.raises(RuleError) as error:
        spend_will(original, ScriptedFaces([8, 8, 8]))
    assert error.value.refusal == will_refusal(original)
    assert error.value.args == (error.value.refusal,), "the refusal travels with the error"
    assert error.value.refusal.code is RefusalCode.POOL_TOO_LARGE
    at_cap = rolled("fistful", MAX_POOL - 3, [2] * (MAX_POOL - 3))
    assert will_refusal(at_cap) is None


@pytest.mark.parametrize("need", [0, -1, MAX_TARGET + 1])
def test_fistful_need_out_of_range_is_refused(need: int) -> None:
    result = rolled("fistful", 3, [8, 8, 8], left=3, need=need)
    assert result.outcome is Outcome.REFUSED
    assert result.refusal == Refusal.of(
        RefusalCode.OUT_OF_RANGE, option="need", value=need, low=1, high=MAX_TARGET
    )
    assert result.need_met is None


@pytest.mark.parametrize("need", [1, MAX_TARGET])
def test_fistful_need_at_the_ends_of_its_range_is_rolled(need: int) -> None:
    result = rolled("fistful", 3, [8, 8, 8], need=need)
    assert result.outcome is Outcome.SUCCESS
    assert result.need_met is (need <= 3)


# --- 7. the v20 breakdown lists every automatic adjustment --------------------------------


def test_v20_breakdown_lists_every_automatic_adjustment() -> None:
    adjustments = (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=1),
        Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-1, difficulty=1),
        Adjustment(kind=AdjustmentKind.HELPER_LIMIT, difficulty=1),
        Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2),
    )
    result = rolled("v20", 4, [9, 9, 9, 9, 2], adjustments=adjustments)
    assert result.breakdown is not None
    assert result.breakdown.adjustments == adjustments
    assert (result.breakdown.dice, result.breakdown.difficulty) == (5, 9)
    assert result.successes == 4


def test_v20_willpower_line_says_one_success_never_dice() -> None:
    result = rolled("v20", 3, [2, 3, 4], will=True, specialty=True)
    assert result.breakdown is not None
    assert result.breakdown.adjustments == (Adjustment(kind=AdjustmentKind.WILLPOWER),)
    willpower = result.breakdown.adjustments[0]
    assert (willpower.dice, willpower.difficulty) == (0, 0)
    assert result.breakdown.dice == 3
    assert (result.outcome, result.successes, result.dice_successes) == (Outcome.SUCCESS, 1, 0)


def test_v20_will_after_adds_the_willpower_line_to_the_breakdown() -> None:
    after = will_after(rolled("v20", 3, [2, 3, 4]), [])
    assert after.breakdown is not None
    assert after.breakdown.adjustments == (Adjustment(kind=AdjustmentKind.WILLPOWER),)
    assert after.breakdown.dice == 3


@pytest.mark.parametrize("ruleset", ["cofd", "fistful"])
def test_willpower_line_is_three_dice_in_cofd_and_fistful(ruleset: str) -> None:
    result = rolled(ruleset, 2, [2, 3, 4, 5, 6], will=True)
    assert result.breakdown is not None
    assert result.breakdown.adjustments == (
        Adjustment(kind=AdjustmentKind.WILLPOWER, dice=3),
    )
    assert result.breakdown.dice == 5


def test_cofd_breakdown_lists_option_adjustments_before_table_ones() -> None:
    attempt = Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-1)
    result = rolled("cofd", 5, [2, 2], untrained="mental", specialty=True,
                    adjustments=(attempt,))
    assert result.breakdown is not None
    assert result.breakdown.adjustments == (
        Adjustment(kind=AdjustmentKind.SPECIALTY, dice=1),
        Adjustment(kind=AdjustmentKind.UNTRAINED, dice=-3),
        attempt,
    )
    assert result.breakdown.dice == 2


# --- 8. which 1 eats which success among equal faces: the earliest drawn -----------------


def test_v20_a_one_cancels_the_earliest_of_equal_successes() -> None:
    result = rolled("v20", 3, [7, 7, 1])
    assert [(d.fate, d.pair) for d in result.dice] == [
        (Fate.CANCELLED, 2), (Fate.SUCCESS, None), (Fate.CANCELS, 0),
    ]
    assert result.successes == 1


def test_v20_a_one_cancels_the_lowest_success_first() -> None:
    result = rolled("v20", 3, [9, 7, 1])
    assert [d.fate for d in result.dice] == [Fate.SUCCESS, Fate.CANCELLED, Fate.CANCELS]


def test_v20_two_ones_cancel_equal_successes_in_draw_order() -> None:
    result = rolled("v20", 5, [8, 1, 8, 1, 8])
    assert [(d.fate, d.pair) for d in result.dice] == [
        (Fate.CANCELLED, 1), (Fate.CANCELS, 0), (Fate.CANCELLED, 3), (Fate.CANCELS, 2),
        (Fate.SUCCESS, None),
    ]


def test_v20_more_ones_than_successes_leave_the_rest_standing() -> None:
    result = rolled("v20", 3, [8, 1, 1])
    assert [d.fate for d in result.dice] == [Fate.CANCELLED, Fate.CANCELS, Fate.ONE]
    assert result.outcome is Outcome.FAILURE
    assert result.dice_successes == 1


def test_fistful_a_one_eats_the_earliest_of_equal_successes() -> None:
    result = rolled("fistful", 3, [9, 9, 1], risky=True)
    assert [(d.fate, d.pair) for d in result.dice] == [
        (Fate.CANCELLED, 2), (Fate.SUCCESS, None), (Fate.CANCELS, 0),
    ]


def test_fistful_initiative_ones_eat_sevens_before_sixes() -> None:
    result = rolled("fistful", 4, [6, 7, 6, 1], risky=True, initiative=True)
    assert [d.fate for d in result.dice] == [
        Fate.SUCCESS, Fate.CANCELLED, Fate.SUCCESS, Fate.CANCELS,
    ]
    assert result.successes == 2


# --- 11. result fields players see or the store keeps --------------------------------------


def test_cofd_rote_dice_are_kind_rote_and_the_replaced_die_says_so() -> None:
    result = rolled("cofd", 2, [3, 8, 9], rote=True)
    assert shape(result) == [
        (3, 0, DieKind.POOL, Fate.REPLACED),
        (8, 0, DieKind.POOL, Fate.SUCCESS),
        (9, 0, DieKind.ROTE, Fate.SUCCESS),
    ]
    assert [d.pair for d in result.dice] == [2, None, 0]
    assert [d.successes for d in result.dice] == [0, 1, 1]
    assert (result.successes, result.dice_successes) == (2, 2)


def test_cofd_chance_die_is_kind_chance_and_its_one_stands() -> None:
    result = rolled("cofd", 0, [1])
    assert result.dice == (Die(face=1, round=0, kind=DieKind.CHANCE, fate=Fate.ONE),)
    assert result.will is WillUse.NONE
    assert result.breakdown is not None
    assert (result.breakdown.chance, result.breakdown.dice) == (True, 0)
    assert (result.successes, result.dice_successes) == (0, 0)


def test_cofd_chance_die_success_counts_one_die_success() -> None:
    result = rolled("cofd", -1, [10], extra=2)
    assert result.dice == (
        Die(face=10, round=0, kind=DieKind.CHANCE, fate=Fate.SUCCESS, successes=1),
    )
    assert (result.successes, result.dice_successes) == (3, 1)


@pytest.mark.parametrize("face", [2, 9])
def test_cofd_chance_die_two_to_nine_fails_and_is_not_a_one(face: int) -> None:
    result = rolled("cofd", 0, [face])
    assert result.outcome is Outcome.FAILURE
    assert result.dice[0].fate is Fate.FAILURE


@pytest.mark.parametrize("face", [2, 9])
def test_cofd_rote_chance_die_rerolls_two_to_nine(face: int) -> None:
    result = rolled("cofd", 0, [face, 10], rote=True)
    assert shape(result) == [
        (face, 0, DieKind.CHANCE, Fate.REPLACED), (10, 0, DieKind.ROTE, Fate.SUCCESS),
    ]
    assert result.outcome is Outcome.SUCCESS


def test_cofd_rote_chance_die_ten_is_not_rerolled() -> None:
    result = rolled("cofd", 0, [10], rote=True)
    assert result.outcome is Outcome.SUCCESS


def test_cofd_rote_chance_reroll_of_a_one_is_a_dramatic_failure_and_stands() -> None:
    result = rolled("cofd", 0, [4, 1], rote=True)
    assert shape(result) == [
        (4, 0, DieKind.CHANCE, Fate.REPLACED), (1, 0, DieKind.ROTE, Fate.ONE),
    ]
    assert result.outcome is Outcome.DRAMATIC_FAILURE


def test_cofd_dice_successes_count_every_round() -> None:
    result = rolled("cofd", 3, [10, 8, 2, 9], extra=1)
    assert (result.successes, result.dice_successes) == (4, 3)
    assert result.outcome is Outcome.SUCCESS


@pytest.mark.parametrize(("exceptional_at", "outcome"), [
    (1, Outcome.EXCEPTIONAL_SUCCESS), (10, Outcome.SUCCESS),
])
def test_cofd_exceptional_at_the_ends_of_its_range_is_rolled(
    exceptional_at: int, outcome: Outcome
) -> None:
    result = rolled("cofd", 2, [8, 2], exceptional_at=exceptional_at)
    assert result.outcome is outcome


def test_cofd_exceptional_at_the_threshold_exactly() -> None:
    assert rolled("cofd", 3, [8, 8, 2], exceptional_at=2).outcome is Outcome.EXCEPTIONAL_SUCCESS
    assert rolled("cofd", 3, [8, 2, 2], exceptional_at=2).outcome is Outcome.SUCCESS


def test_cofd_nine_again_and_eight_again_faces_explode_exactly() -> None:
    nine = rolled("cofd", 2, [9, 8, 3], again="9")
    assert [d.explodes for d in nine.dice] == [True, False, False]
    eight = rolled("cofd", 2, [8, 7, 3], again="8")
    assert [d.explodes for d in eight.dice] == [True, False, False]


def test_cofd_will_spend_on_pool_zero_makes_a_pool_of_three() -> None:
    # pool 0: a chance die 5; Will: the 5 is an ordinary die, then 2 new dice
    after = will_after(rolled("cofd", 0, [5]), [8, 2])
    assert shape(after) == [
        (5, 0, DieKind.POOL, Fate.FAILURE),
        (8, 0, DieKind.WILL, Fate.SUCCESS),
        (2, 0, DieKind.WILL, Fate.FAILURE),
    ]
    assert after.breakdown is not None
    assert (after.breakdown.dice, after.breakdown.chance) == (3, False)


def test_cofd_will_spend_on_pool_minus_two_reads_the_chance_face_as_the_only_die() -> None:
    after = will_after(rolled("cofd", -2, [8]), [])
    assert shape(after) == [(8, 0, DieKind.POOL, Fate.SUCCESS)]
    assert after.breakdown is not None and after.breakdown.dice == 1
    assert after.successes == 1


def test_cofd_will_after_a_rote_chance_die_reread_from_an_eight() -> None:
    # a chance 8 fails, is rerolled by rote to 1: dramatic failure.
    original = rolled("cofd", 0, [8, 1], rote=True)
    assert original.outcome is Outcome.DRAMATIC_FAILURE
    after = will_after(original, [9, 9])
    assert shape(after) == [
        (8, 0, DieKind.POOL, Fate.SUCCESS),
        (9, 0, DieKind.WILL, Fate.SUCCESS),
        (9, 0, DieKind.WILL, Fate.SUCCESS),
        (1, 0, DieKind.ROTE, Fate.VOID),
    ]
    assert after.successes == 3


def test_fistful_will_after_voids_an_extra_face_in_its_own_round() -> None:
    # pool 2 unskilled: r0 10 5 · r1 10 · r2 4; Will: 1 eats the first 10 (round 0)
    original = rolled("fistful", 2, [10, 5, 10, 4], untrained="social")
    assert original.successes == 2
    after = will_after(original, [1, 3, 3])
    void = [(d.face, d.round, d.kind) for d in after.dice if d.fate is Fate.VOID]
    assert void == [(10, 1, DieKind.EXTRA), (4, 2, DieKind.EXTRA)]
    assert after.outcome is Outcome.FAILURE
    assert after.successes == 0


def test_v20_automatic_success_carries_its_request_and_rolls_nothing() -> None:
    req = request("v20", 7, auto=True, difficulty=7, specialty=True)
    source = ScriptedFaces([8])
    result = roll(req, source)
    assert source.remaining == 1
    assert result.request == req
    assert (result.outcome, result.successes, result.dice_successes) == (Outcome.SUCCESS, 1, 0)
    assert result.automatic and result.dice == ()
    assert result.will is WillUse.NONE
    assert result.breakdown is not None
    assert (result.breakdown.dice, result.breakdown.difficulty) == (7, 7)
    assert will_refusal(result) is not None


def test_v20_dice_successes_are_counted_before_ones() -> None:
    result = rolled("v20", 4, [10, 8, 1, 1], specialty=True)
    assert (result.successes, result.dice_successes) == (1, 3)
    botch = rolled("v20", 2, [1, 2])
    assert (botch.outcome, botch.dice_successes) == (Outcome.BOTCH, 0)


def test_v20_specialty_ten_counts_two_and_a_nine_one() -> None:
    result = rolled("v20", 2, [10, 9], specialty=True, difficulty=9)
    assert [d.successes for d in result.dice] == [2, 1]
    assert result.successes == 3


def test_v20_specialty_ten_cancelled_twice_is_cancelled() -> None:
    result = rolled("v20", 3, [10, 1, 1], specialty=True)
    assert [d.fate for d in result.dice] == [Fate.CANCELLED, Fate.CANCELS, Fate.CANCELS]
    assert [d.pair for d in result.dice] == [2, 0, 0]
    assert result.outcome is Outcome.FAILURE


@pytest.mark.parametrize("difficulty", [2, 10])
def test_v20_difficulty_at_the_ends_of_its_range_is_rolled(difficulty: int) -> None:
    result = rolled("v20", 2, [10, 2], difficulty=difficulty)
    assert result.successes == (2 if difficulty == 2 else 1)


def test_v20_difficulty_lowered_to_two_is_rolled() -> None:
    lowered = (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, difficulty=-1),)
    result = rolled("v20", 2, [2, 3], difficulty=3, adjustments=lowered)
    assert result.breakdown is not None and result.breakdown.difficulty == 2
    assert result.successes == 2


def test_v20_raised_difficulty_nine_is_rolled() -> None:
    raised = (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=3),)
    result = rolled("v20", 2, [9, 8], adjustments=raised)
    assert result.breakdown is not None and result.breakdown.difficulty == 9
    assert result.successes == 1


def test_v20_automatic_success_at_pool_equal_to_difficulty_is_granted() -> None:
    raised = (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=1),)
    assert rolled("v20", 7, [], adjustments=raised, auto=True).automatic
    refused = rolled("v20", 6, [], adjustments=raised, auto=True)
    assert refused.outcome is Outcome.REFUSED
    assert refused.refusal == Refusal.of(RefusalCode.AUTO_BELOW_DIFFICULTY, pool=6, difficulty=7)


def test_fistful_initiative_six_succeeds_five_does_not() -> None:
    result = rolled("fistful", 2, [6, 5], initiative=True)
    assert [d.fate for d in result.dice] == [Fate.SUCCESS, Fate.FAILURE]
    assert rolled("fistful", 2, [7, 6]).successes == 0


def test_fistful_botch_degree_counts_only_ones_left_standing() -> None:
    result = rolled("fistful", 4, [8, 1, 1, 1], untrained="mental")
    assert (result.outcome, result.botch_degree) == (Outcome.BOTCH, 2)
    assert result.successes == 0 and result.dice_successes == 0


def test_fistful_a_one_eats_a_success_drawn_after_it_in_its_round() -> None:
    result = rolled("fistful", 2, [1, 8], risky=True)
    assert [d.fate for d in result.dice] == [Fate.CANCELS, Fate.CANCELLED]
    assert result.outcome is Outcome.FAILURE


def test_fistful_successes_and_dice_successes_agree() -> None:
    result = rolled("fistful", 3, [10, 9, 2, 8])
    assert (result.successes, result.dice_successes) == (3, 3)
    assert result.outcome is Outcome.SUCCESS
    assert result.botch_degree is None


def test_refused_rolls_have_no_dice_and_no_successes() -> None:
    for ruleset, pool in (("cofd", MAX_POOL + 1), ("v20", 0), ("fistful", 0)):
        result = rolled(ruleset, pool, [8], left=1)
        assert result.outcome is Outcome.REFUSED
        assert (result.successes, result.dice, result.breakdown) == (0, (), None)
        assert result.refused and not result.failed and not result.succeeded


# --- exact odds list every count the roll can produce -------------------------------------------


def test_v20_odds_list_every_success_count_however_unlikely() -> None:
    # 16 dice at difficulty 10: all sixteen succeed one time in 10**16 (below the
    # tail cut of unbounded distributions, but a v20 roll has a largest count).
    plain = odds(request("v20", 16, difficulty=10))
    assert max(plain.successes) == 16
    assert plain.successes[16] == pytest.approx(1e-16)
    with_will = odds(request("v20", 16, difficulty=10, will=True))
    assert max(with_will.successes) == 17
    assert with_will.successes[17] == pytest.approx(1e-16)


# --- what prepare tells rolls and odds: what is rolled and how each face is read ----------------


def prepared(ruleset: str, pool: int, **options: Any) -> Prepared:
    answer = prepare(request(ruleset, pool, **options))
    assert isinstance(answer, Prepared)
    return answer


def test_prepare_a_v20_automatic_success_rolls_no_die() -> None:
    auto = prepared("v20", 6, auto=True)
    assert (auto.dice, auto.success_at, auto.explode_at, auto.ones_cancel) == (0, 6, None, True)
    assert auto.breakdown.dice == 6


def test_prepare_v20_ones_always_cancel() -> None:
    plain = prepared("v20", 4, difficulty=8)
    assert (plain.dice, plain.success_at, plain.explode_at, plain.ones_cancel) == (
        4, 8, None, True,
    )


def test_prepare_a_cofd_chance_die_is_one_die_read_on_ten_without_again() -> None:
    chance = prepared("cofd", -1, again="8")
    assert (chance.dice, chance.success_at, chance.explode_at, chance.ones_cancel) == (
        1, 10, None, False,
    )
    assert (chance.breakdown.dice, chance.breakdown.chance) == (-1, True)
    pool = prepared("cofd", 3, again="9", will=True)
    assert (pool.dice, pool.success_at, pool.explode_at) == (6, 8, 9)


def test_prepare_fistful_ones_cancel_only_unskilled_or_risky() -> None:
    assert not prepared("fistful", 3).ones_cancel
    assert prepared("fistful", 3, untrained="social").ones_cancel
    assert prepared("fistful", 3, risky=True).ones_cancel
    initiative = prepared("fistful", 3, initiative=True, will=True)
    assert (initiative.dice, initiative.success_at, initiative.explode_at) == (6, 6, 10)


def test_cofd_no_again_odds_list_every_count_up_to_the_pool() -> None:
    # 30 dice without again: all thirty succeed with 0.3**30 ≈ 2e-16, below the tail cut.
    chances = odds(request("cofd", 30, again="none"))
    assert max(chances.successes) == 30
    assert chances.successes[30] == pytest.approx(0.3**30)


@pytest.mark.parametrize("ruleset", ["cofd", "fistful"])
def test_exploding_odds_cut_their_unbounded_tail_below_one_in_10_to_the_15(
    ruleset: str,
) -> None:
    chances = odds(request(ruleset, 1))
    assert min(chances.successes.values()) >= TAIL
    assert max(chances.successes) == 15


# --- results stored before refusal codes ----------------------------------------------------------


def test_a_stored_result_with_an_old_message_reads_it_as_a_legacy_refusal() -> None:
    stored = rolled("fistful", 0, []).model_dump(mode="json")
    del stored["refusal"]
    stored["message"] = "the pool is 0"
    old = RollResult.model_validate(stored)
    assert old.refusal == Refusal.of(RefusalCode.LEGACY, text="the pool is 0")


def test_a_stored_result_with_both_keeps_its_refusal_code() -> None:
    result = rolled("fistful", 0, [])
    stored = {**result.model_dump(mode="json"), "message": "the pool is 0"}
    assert RollResult.model_validate(stored).refusal == result.refusal
    plain = {**rolled("fistful", 1, [8]).model_dump(mode="json"), "message": None}
    assert RollResult.model_validate(plain).refusal is None
