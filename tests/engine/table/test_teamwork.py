"""Teamwork: helpers roll first; their successes help the primary, a disaster costs −4."""

from __future__ import annotations

import pytest

from engine.faces import ScriptedFaces
from engine.models import Adjustment, AdjustmentKind, Outcome, RollRequest
from engine.prepare import prepare
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, spend_will
from engine.table import teamwork
from engine.table.teamwork import TeamworkState
from tests.engine.table.helpers import refused, request, rolled

PRIMARY, ANNA, BORIS, CLARA = 100, 201, 202, 203


def help_with(
    state: TeamworkState, member: int, req: RollRequest, faces: list[int]
) -> TeamworkState:
    """A helper rolls what helper_request gives them, then joins."""
    helper_roll = rolled(teamwork.helper_request(state, member, req), faces)
    return teamwork.add_helper(state, member, helper_roll)


def test_cofd_three_helpers_each_success_is_a_die_and_dramatic_failure_costs_four_once() -> None:
    state = teamwork.start(request("cofd", ("Strength", 3), ("Athletics", 2)), PRIMARY)
    state = help_with(state, ANNA, request("cofd", 3), [8, 10, 2, 9])  # 3 successes
    state = help_with(state, BORIS, request("cofd", 0), [1])  # dramatic failure
    state = help_with(state, CLARA, request("cofd", -1), [1])  # another dramatic failure
    assert [h.result.outcome for h in state.helpers] == [
        Outcome.SUCCESS, Outcome.DRAMATIC_FAILURE, Outcome.DRAMATIC_FAILURE,
    ]
    assert teamwork.bonus(state) == (
        Adjustment(kind=AdjustmentKind.TEAMWORK, dice=3),
        Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=-4),
    )
    primary = rolled(teamwork.primary_request(state), [8, 9, 2, 3])
    assert primary.breakdown is not None
    assert primary.breakdown.dice == 5 + 3 - 4
    assert primary.successes == 2


def test_without_helpers_the_primary_rolls_the_pool_as_declared() -> None:
    state = teamwork.start(request("cofd", 4), PRIMARY)
    assert teamwork.bonus(state) == ()
    assert teamwork.primary_request(state) == request("cofd", 4)


def test_asking_twice_for_the_primary_request_does_not_stack_the_bonus() -> None:
    state = help_with(teamwork.start(request("cofd", 4), PRIMARY), ANNA, request("cofd", 2),
                      [8, 2])
    again = state.model_copy(update={"request": teamwork.primary_request(state)})
    assert teamwork.primary_request(again) == teamwork.primary_request(state)


def test_fistful_a_helper_botch_costs_four_dice() -> None:
    state = teamwork.start(request("fistful", 4), PRIMARY)
    state = help_with(state, ANNA, request("fistful", 2), [8, 9])
    state = help_with(state, BORIS, request("fistful", 2), [1, 3])
    assert teamwork.bonus(state) == (
        Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2),
        Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=-4),
    )


def test_v20_helpers_net_successes_add_dice_and_a_botch_costs_nothing_more() -> None:
    state = teamwork.start(request("v20", 4), PRIMARY)
    state = help_with(state, ANNA, request("v20", 3), [6, 7, 1])  # 2 − 1 = 1
    state = help_with(state, BORIS, request("v20", 2), [1, 2])  # botch
    assert teamwork.bonus(state) == (Adjustment(kind=AdjustmentKind.TEAMWORK, dice=1),)


def test_v20_each_helper_beyond_the_limit_raises_every_later_roll_s_difficulty() -> None:
    state = teamwork.start(request("v20", 4), PRIMARY, helper_limit=1)
    first = teamwork.helper_request(state, ANNA, request("v20", 3))
    assert first.adjustments == ()
    state = teamwork.add_helper(state, ANNA, rolled(first, [6, 2, 3]))
    second = teamwork.helper_request(state, BORIS, request("v20", 3))
    assert second.adjustments == (Adjustment(kind=AdjustmentKind.HELPER_LIMIT, difficulty=1),)
    second_roll = rolled(second, [6, 7, 2])
    assert second_roll.breakdown is not None
    assert second_roll.breakdown.difficulty == 7
    assert second_roll.successes == 1
    state = teamwork.add_helper(state, BORIS, second_roll)
    state = help_with(state, CLARA, request("v20", 3), [8, 8, 2])
    assert state.helpers[2].result.breakdown is not None
    assert state.helpers[2].result.breakdown.difficulty == 8
    primary = teamwork.primary_request(state)
    assert primary.adjustments == (
        Adjustment(kind=AdjustmentKind.TEAMWORK, dice=4),
        Adjustment(kind=AdjustmentKind.HELPER_LIMIT, difficulty=2),
    )
    result = rolled(primary, [8] * 8)
    assert result.breakdown is not None
    assert (result.breakdown.dice, result.breakdown.difficulty) == (8, 8)


def test_v20_a_helper_who_would_raise_the_primary_to_difficulty_ten_cannot_join() -> None:
    state = teamwork.start(request("v20", 4, difficulty=8), PRIMARY, helper_limit=0)
    state = help_with(state, ANNA, request("v20", 3, difficulty=6), [6, 2, 3])
    with refused(RefusalCode.HELPER_DIFFICULTY_TOO_HIGH, difficulty=10, high=10):
        teamwork.helper_request(state, BORIS, request("v20", 3, difficulty=6))


def test_a_helper_limit_is_a_v20_rule_of_zero_or_more() -> None:
    with refused(RefusalCode.HELPER_LIMIT_NOT_V20, option="helper_limit", ruleset="cofd"):
        teamwork.start(request("cofd", 4), PRIMARY, helper_limit=2)
    with refused(RefusalCode.HELPER_LIMIT_NEGATIVE, limit=-1):
        teamwork.start(request("v20", 4), PRIMARY, helper_limit=-1)


def test_a_primary_pool_the_helpers_may_lift_above_zero_can_start() -> None:
    """RULES.md §0: only the final pool matters. A `fistful` or `v20` primary at 0 dice or
    less starts; the helpers' successes may make it rollable."""
    state = teamwork.start(request("fistful", 2, -2), PRIMARY)
    assert prepare(teamwork.primary_request(state)) == Refusal.of(
        RefusalCode.NO_ACTION_NOW, pool=0
    )
    state = help_with(state, ANNA, request("fistful", 2), [8, 2])
    primary = rolled(teamwork.primary_request(state), [8])
    assert primary.breakdown is not None and primary.breakdown.dice == 1
    teamwork.start(request("v20", 0), PRIMARY)


def test_a_primary_request_no_helper_can_mend_cannot_start() -> None:
    with refused(RefusalCode.OPTION_NOT_IN_RULESET):
        teamwork.start(request("fistful", 3, difficulty=7), PRIMARY)
    with refused(RefusalCode.POOL_TOO_LARGE):
        teamwork.start(request("cofd", 101), PRIMARY)


def test_the_same_member_cannot_help_twice() -> None:
    state = help_with(teamwork.start(request("cofd", 4), PRIMARY), ANNA, request("cofd", 2),
                      [8, 2])
    with refused(RefusalCode.ALREADY_HELPED):
        teamwork.helper_request(state, ANNA, request("cofd", 2))
    with refused(RefusalCode.ALREADY_HELPED):
        teamwork.add_helper(state, ANNA, rolled(request("cofd", 2), [8, 2]))


def test_the_primary_cannot_help_their_own_roll() -> None:
    state = teamwork.start(request("cofd", 4), PRIMARY)
    with refused(RefusalCode.PRIMARY_CANNOT_HELP):
        teamwork.helper_request(state, PRIMARY, request("cofd", 2))


def test_a_refused_helper_roll_does_not_join() -> None:
    state = teamwork.start(request("v20", 4), PRIMARY)
    with pytest.raises(RuleError) as error:
        teamwork.add_helper(state, ANNA, rolled(request("v20", 0), []))
    assert error.value.refusal == Refusal.of(
        RefusalCode.HELPER_ROLL_REFUSED, cause=Refusal.of(RefusalCode.NO_DICE, pool=0)
    )


def test_a_helper_roll_must_carry_the_helper_limit() -> None:
    state = help_with(teamwork.start(request("v20", 4), PRIMARY, helper_limit=0), ANNA,
                      request("v20", 3), [6, 2, 3])
    with pytest.raises(ValueError, match="helper_request"):
        teamwork.add_helper(state, BORIS, rolled(request("v20", 3), [6, 2, 3]))


def test_helpers_roll_in_the_teamwork_s_ruleset() -> None:
    state = teamwork.start(request("cofd", 4), PRIMARY)
    with refused(RefusalCode.HELPER_RULESET, rolled="fistful", ruleset="cofd"):
        teamwork.helper_request(state, ANNA, request("fistful", 2))


def test_will_spent_after_a_helper_s_roll_updates_the_bonus() -> None:
    state = teamwork.start(request("cofd", 4), PRIMARY)
    first = rolled(teamwork.helper_request(state, ANNA, request("cofd", 2)), [2, 3])
    state = teamwork.add_helper(state, ANNA, first)
    assert teamwork.bonus(state) == ()
    state = teamwork.revise_helper(state, ANNA, spend_will(first, ScriptedFaces([8, 9, 2])))
    assert teamwork.bonus(state) == (Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2),)


def test_only_a_new_reading_of_the_same_roll_revises_a_helper() -> None:
    state = help_with(teamwork.start(request("cofd", 4), PRIMARY), ANNA, request("cofd", 2),
                      [2, 3])
    with pytest.raises(ValueError, match="same request"):
        teamwork.revise_helper(state, ANNA, rolled(request("cofd", 3), [8, 2, 3]))
    with refused(RefusalCode.NOT_A_HELPER):
        teamwork.revise_helper(state, BORIS, rolled(request("cofd", 2), [8, 2]))


def test_a_teamwork_opened_keeps_its_label_and_the_character_it_started_with() -> None:
    """The primary's roll is the character the teamwork was started with (bot.flows.teamwork's
    Decision): ``opened`` keeps its id and name, none without one; and whether the primary
    named the action (only a labelled teamwork is an attempt at it)."""
    asked = request("cofd", ("Strength", 3))
    plain = teamwork.opened(asked, 1, "Ada")
    assert (plain.labelled, plain.character_id, plain.character_name) == (False, None, None)
    kept = teamwork.opened(asked, 1, "Ada", labelled=True, character=(7, "Mara"))
    assert (kept.labelled, kept.character_id, kept.character_name) == (True, 7, "Mara")
