"""Trying a failed action again (cofd, v20) and the fistful Successive Action Penalty."""

from __future__ import annotations

import pytest

from engine.models import Adjustment, AdjustmentKind, Outcome, Ruleset
from engine.refusals import Refusal, RefusalCode
from engine.table import actions, attempts
from tests.engine.table.helpers import refused, request, rolled, scripted

# --- successive attempts -------------------------------------------------------------


def test_cofd_each_failed_attempt_costs_one_die_the_third_try_has_minus_two() -> None:
    assert attempts.penalty(Ruleset.COFD, 0) == ()
    assert attempts.penalty(Ruleset.COFD, 1) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-1),
    )
    assert attempts.penalty(Ruleset.COFD, 2) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-2),
    )


def test_v20_each_failed_attempt_raises_the_difficulty_by_one() -> None:
    assert attempts.penalty(Ruleset.V20, 2) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=2),
    )


def test_fistful_has_no_successive_attempt_penalty() -> None:
    assert attempts.penalty(Ruleset.FISTFUL, 3) == ()


def test_the_step_scales_the_penalty_per_failure() -> None:
    assert attempts.penalty(Ruleset.COFD, 2, step=2) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-4),
    )


def test_negative_counts_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="count up from 0"):
        attempts.penalty(Ruleset.COFD, -1)


def test_a_failure_adds_one_a_success_resets_and_a_refused_roll_changes_nothing() -> None:
    failure = scripted("cofd", 2, [2, 3])
    success = scripted("cofd", 2, [8, 3])
    refused = scripted("v20", 0, [])
    assert failure.outcome is Outcome.FAILURE
    assert attempts.record(1, failure) == 2
    assert attempts.record(2, success) == 0
    assert refused.refused
    assert attempts.record(2, refused) == 2


def test_a_dramatic_failure_or_botch_is_a_failed_attempt_too() -> None:
    assert attempts.record(0, scripted("cofd", 0, [1])) == 1
    assert attempts.record(0, scripted("v20", 2, [1, 2])) == 1


def test_trying_again_rolls_the_cofd_pool_with_the_penalty_in_the_breakdown() -> None:
    retry = attempts.with_penalty(request("cofd", 4), failures=2)
    result = rolled(retry, [8, 2])
    assert result.breakdown is not None
    assert result.breakdown.dice == 2
    assert result.breakdown.adjustments == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-2),
    )


def test_trying_again_replaces_the_earlier_penalty_instead_of_stacking_it() -> None:
    second = attempts.with_penalty(request("cofd", 4), failures=1)
    third = attempts.with_penalty(second, failures=2)
    assert third.adjustments == (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-2),)


def test_v20_trying_again_is_refused_when_the_difficulty_reaches_ten() -> None:
    base = request("v20", 4, difficulty=8)
    assert rolled(attempts.with_penalty(base, failures=1), [9, 2, 3, 4]).succeeded
    refused = rolled(attempts.with_penalty(base, failures=2), [])
    assert refused.refused
    assert refused.refusal == Refusal.of(
        RefusalCode.DIFFICULTY_TOO_HIGH, difficulty=10, base=8, raised=2, high=10
    )


# --- the fistful Successive Action Penalty ---------------------------------------------


def test_the_first_action_of_the_turn_has_no_penalty() -> None:
    assert actions.penalty(0) == ()


def test_each_later_action_has_one_die_less_per_earlier_action() -> None:
    assert actions.penalty(2) == (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-2),)


def test_a_channel_step_changes_the_dice_per_earlier_action() -> None:
    assert actions.penalty(2, step=2) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-4),
    )


def test_negative_action_counts_are_a_programming_error() -> None:
    with pytest.raises(ValueError, match="count up from 0"):
        actions.penalty(-1)


def test_the_penalty_shows_in_the_breakdown_of_the_roll() -> None:
    result = rolled(actions.with_penalty(request("fistful", 4), actions_taken=1), [8, 9, 2])
    assert result.successes == 2
    assert result.breakdown is not None
    assert result.breakdown.adjustments == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-1),
    )


def test_with_the_penalty_a_pool_of_zero_means_the_action_cannot_be_taken_now() -> None:
    result = rolled(actions.with_penalty(request("fistful", 2, will=True), actions_taken=2), [])
    assert result.refused
    assert result.refusal == Refusal.of(RefusalCode.NO_ACTION_NOW_WITH_WILL, pool=0)


def test_the_successive_action_penalty_is_a_fistful_rule() -> None:
    with refused(RefusalCode.SUCCESSIVE_ACTION_NOT_FISTFUL, ruleset="cofd"):
        actions.with_penalty(request("cofd", 4), actions_taken=1)


def test_an_initiative_roll_is_no_action_of_the_turn() -> None:
    """RULES.md §7: initiative orders the turn's actions, it is none of them (Decision in
    engine.table.actions): it takes no penalty, and the turn does not count it."""
    asked = request("fistful", 3, initiative=True)
    assert not actions.is_action(asked)
    assert actions.is_action(request("fistful", 3))
    assert not actions.is_action(request("cofd", 3))
    result = rolled(actions.with_penalty(asked, actions_taken=2), [6, 7, 2])
    assert result.successes == 2
    assert result.breakdown is not None and result.breakdown.adjustments == ()
