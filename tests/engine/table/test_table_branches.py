"""Table-state rules off the main path (issue 16), each pinned on scripted faces.

Extended actions revised after Will, resisters' Will, the end of an unresisted
action, penalties that replace rather than stack, channel steps, and the
boundaries of every accepted range. Refusals are checked by exception type and
numbers, never by their wording.
"""

from __future__ import annotations

from fractions import Fraction

import pytest

from engine.constants import MAX_POOL, MAX_TARGET
from engine.faces import ScriptedFaces
from engine.models import Adjustment, AdjustmentKind, Outcome, Ruleset, Term
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, spend_will, take_beat
from engine.table import actions, attempts, extended, teamwork
from engine.table.extended import (
    MAX_CONDITION,
    MAX_ROLLS,
    MAX_UNIT,
    Choice,
    Event,
    ExtendedState,
    ExtendedStep,
    Interval,
    Status,
)
from tests.engine.table.helpers import request, rolled

OPEN = (Choice.ROLL, Choice.ABANDON)


def step(
    state: ExtendedState, faces: list[int], against: list[int] | None = None
) -> ExtendedStep:
    actor = rolled(extended.roll_request(state), faces)
    resister = None if against is None else rolled(extended.against_request(state), against)
    return extended.apply_roll(state, actor, resister)


# --- 9. extended actions -----------------------------------------------------------------------


def test_v20_resisted_interval_revised_after_will_counts_the_resister_once() -> None:
    state = extended.start(request("v20", 3), target=5, against=request("v20", 3))
    state = step(state, [6, 7, 2], against=[6, 2, 3]).state
    assert (state.total, state.resisted_total) == (2, 1)
    actor = rolled(extended.roll_request(state), [2, 3, 4])
    resister = rolled(extended.against_request(state), [6, 7, 3])
    first = extended.apply_roll(state, actor, resister)
    assert (first.event, first.change, first.opposed) == (Event.NO_PROGRESS, 0, 2)
    assert (first.state.total, first.state.resisted_total, first.state.rolls) == (2, 3, 2)
    revised = extended.revise(first.state, spend_will(actor, ScriptedFaces([])), resister)
    assert (revised.event, revised.change, revised.opposed) == (Event.PROGRESS, 1, 2)
    assert (revised.state.total, revised.state.resisted_total, revised.state.rolls) == (3, 3, 2)
    assert revised.state.undo == state.model_copy(update={"undo": None})


def test_v20_resisted_interval_revised_after_the_resister_s_will() -> None:
    state = extended.start(request("v20", 3), target=3, against=request("v20", 3))
    actor = rolled(extended.roll_request(state), [6, 7, 8])
    resister = rolled(extended.against_request(state), [6, 7, 2])
    first = extended.apply_roll(state, actor, resister)
    assert first.state.status is Status.SUCCEEDED
    assert first.state.undo is not None
    stronger = spend_will(resister, ScriptedFaces([]))
    revised = extended.revise(first.state, actor, stronger)
    assert (revised.event, revised.opposed, revised.state.status) == (
        Event.OUTPACED, 3, Status.FAILED,
    )


def test_fistful_contested_interval_revised_after_will() -> None:
    state = extended.start(request("fistful", 2), target=6, against=request("fistful", 2))
    state = step(state, [8, 9], against=[2, 3]).state
    actor = rolled(extended.roll_request(state), [2, 3])
    resister = rolled(extended.against_request(state), [8, 3])
    beaten = extended.apply_roll(state, actor, resister)
    assert (beaten.event, beaten.change, beaten.opposed, beaten.state.total) == (
        Event.RESISTED, -1, 1, 1,
    )
    revised = extended.revise(beaten.state, spend_will(actor, ScriptedFaces([8, 9, 10, 2])),
                              resister)
    assert (revised.event, revised.change, revised.opposed) == (Event.PROGRESS, 2, 1)
    assert (revised.state.total, revised.state.rolls) == (4, 2)


def test_cofd_interval_revised_after_a_beat_is_a_dramatic_setback() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=5)
    failed = rolled(extended.roll_request(state), [2, 3, 4, 5])
    setback = extended.apply_roll(state, failed)
    revised = extended.revise(setback.state, take_beat(failed))
    assert (revised.event, revised.change, revised.state.carry, revised.state.rolls) == (
        Event.DRAMATIC_SETBACK, 0, True, 1,
    )


def test_a_resister_s_declared_will_reaches_their_roll() -> None:
    state = extended.start(request("v20", 3), target=5, against=request("v20", 2))
    resisting = extended.against_request(state, (Term(label="Cover", value=1),), will=True)
    assert resisting.will
    assert resisting.base == 3
    assert resisting.adjustments == ()
    resister = rolled(resisting, [2, 3, 4])
    assert resister.successes == 1
    actor = rolled(extended.roll_request(state), [6, 2, 3])
    done = extended.apply_roll(state, actor, resister)
    assert (done.change, done.opposed, done.state.resisted_total) == (1, 1, 1)
    assert extended.against_request(done.state).will is False


def test_v20_unresisted_action_out_of_rolls_fails_without_being_outpaced() -> None:
    state = extended.start(request("v20", 3), target=5, max_rolls=1)
    last = step(state, [6, 7, 2])
    assert (last.event, last.change, last.opposed) == (Event.PROGRESS, 2, None)
    assert last.state.status is Status.FAILED
    nothing = step(state, [2, 3, 4])
    assert (nothing.event, nothing.state.status) == (Event.NO_PROGRESS, Status.FAILED)


def test_v20_resisted_action_out_of_rolls_with_the_resister_short_is_not_outpaced() -> None:
    state = extended.start(request("v20", 3), target=5, max_rolls=1, against=request("v20", 3))
    last = step(state, [6, 2, 3], against=[6, 7, 2])
    assert (last.event, last.opposed, last.state.status) == (Event.PROGRESS, 2, Status.FAILED)


def test_fistful_effort_with_no_successes_is_no_progress() -> None:
    state = extended.start(request("fistful", 3), target=4)
    nothing = step(state, [2, 3, 4])
    assert (nothing.event, nothing.change, nothing.opposed) == (Event.NO_PROGRESS, 0, None)
    assert (nothing.state.total, nothing.state.rolls, nothing.choices) == (0, 1, OPEN)


def test_fistful_ongoing_contest_equal_counts_do_not_subtract() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    state = step(state, [8, 9, 2], against=[2, 3, 4]).state
    assert state.total == 2
    even = step(state, [8, 2, 3], against=[9, 2, 3])
    assert (even.event, even.change, even.opposed, even.state.total) == (
        Event.NO_PROGRESS, 0, 1, 2,
    )


def test_fistful_ongoing_contest_the_resister_one_short_leaves_progress() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    ahead = step(state, [8, 9, 2], against=[9, 2, 3])
    assert (ahead.event, ahead.change, ahead.opposed, ahead.state.total) == (
        Event.PROGRESS, 1, 1, 1,
    )


def test_fistful_effort_reaching_the_target_exactly_succeeds() -> None:
    state = extended.start(request("fistful", 3), target=2)
    done = step(state, [8, 9, 2])
    assert (done.event, done.change, done.state.status, done.choices) == (
        Event.PROGRESS, 2, Status.SUCCEEDED, (),
    )


def test_fistful_effort_measured_in_rolls_stays_open_until_the_last() -> None:
    state = extended.start(request("fistful", 2), target=None, max_rolls=2)
    assert state.required is None
    first = step(state, [2, 3])
    assert (first.state.status, first.state.rolls_left) == (Status.OPEN, 1)
    done = step(first.state, [2, 3])
    assert (done.state.status, done.state.total) == (Status.COMPLETED, 0)


def test_fistful_botch_on_the_last_roll_of_an_effort_in_rolls_is_abandoned_or_waived() -> None:
    """RULES.md §3: the Storyteller may waive the botch, which completes an effort measured
    in rolls; no roll is left to start over with."""
    state = extended.start(request("fistful", 2), target=None, max_rolls=1)
    botch = step(state, [1, 2])
    assert (botch.event, botch.state.status, botch.choices) == (
        Event.DERAILED, Status.OPEN, (Choice.ABANDON, Choice.WAIVE),
    )


def test_v20_derailed_step_reports_no_opposition_when_unresisted() -> None:
    state = extended.start(request("v20", 3), target=5)
    botch = step(state, [1, 2, 3])
    assert (botch.event, botch.change, botch.opposed) == (Event.DERAILED, 0, None)
    assert botch.state.pending == (Choice.START_OVER, Choice.ABANDON)


def test_fistful_resisted_botch_reports_the_resister_s_successes() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    botch = step(state, [1, 2, 3], against=[8, 9, 2])
    assert (botch.event, botch.change, botch.opposed, botch.state.total) == (
        Event.DERAILED, 0, 2, 0,
    )


def test_cofd_progress_steps_report_their_change() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=10)
    progress = step(state, [8, 9, 2, 3])
    assert (progress.event, progress.change, progress.opposed, progress.applied) == (
        Event.PROGRESS, 2, None, None,
    )
    assert progress.state.total == 2
    setback = step(progress.state, [2, 3, 4, 5])
    assert (setback.change, setback.state.total) == (0, 2)


def test_cofd_extra_successes_count_towards_the_total() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2), extra=2), target=10)
    progress = step(state, [8, 2, 3, 4])
    assert (progress.change, progress.state.total) == (3, 3)


def test_cofd_exceptional_success_not_completing_keeps_the_action_open_with_choices() -> None:
    state = extended.start(request("cofd", ("Wits", 3), ("Crafts", 2)), target=10, max_rolls=2)
    exceptional = step(state, [8, 8, 8, 8, 8])
    assert (exceptional.event, exceptional.change, exceptional.applied) == (
        Event.EXCEPTIONAL, 5, None,
    )
    assert exceptional.state.status is Status.OPEN
    assert exceptional.state.pending == (
        Choice.REDUCE_REQUIRED, Choice.SHORTEN_INTERVAL, Choice.EXCEPTIONAL_RESULT,
    )
    state = extended.choose(exceptional.state, Choice.REDUCE_REQUIRED)
    assert (state.required, state.reduced_by, state.pending, state.undo) == (8, 2, (), None)


def test_cofd_last_roll_exceptional_reducing_exactly_to_the_total_completes() -> None:
    state = extended.start(request("cofd", ("Wits", 3), ("Crafts", 2)), target=7, max_rolls=1)
    last = step(state, [8, 8, 8, 8, 8])
    assert (last.applied, last.state.reduced_by, last.state.status) == (
        Choice.REDUCE_REQUIRED, 2, Status.SUCCEEDED,
    )


def test_choosing_clears_the_pending_decision_and_the_undo() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=10)
    pending = step(state, [2, 3, 4, 5]).state
    assert pending.undo is not None
    for choice, condition in ((Choice.TAKE_CONDITION, "Tired"), (Choice.LOSE_PROGRESS, None)):
        decided = extended.choose(pending, choice, condition)
        assert (decided.pending, decided.undo, decided.status) == ((), None, Status.OPEN)


def test_starting_over_keeps_the_rolls_used_and_conditions() -> None:
    state = extended.start(request("v20", 3), target=5, max_rolls=4, against=request("v20", 3))
    state = step(state, [6, 7, 2], against=[6, 2, 3]).state
    botch = step(state, [1, 2, 3], against=[2, 3, 4])
    again = extended.choose(botch.state, Choice.START_OVER)
    assert (again.total, again.resisted_total, again.rolls, again.status) == (
        0, 0, 2, Status.OPEN,
    )
    assert extended.choices(again) == OPEN


# --- 10. penalties replace, never stack; the channel step reaches them -------------------------


def test_successive_action_penalty_replaces_never_stacks_on_a_request_with_adjustments() -> (
    None
):
    teamwork = Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2)
    base = request("fistful", 5, adjustments=(teamwork,))
    once = actions.with_penalty(base, actions_taken=1)
    twice = actions.with_penalty(once, actions_taken=2)
    assert twice.adjustments == (
        teamwork, Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-2),
    )
    assert actions.with_penalty(twice, actions_taken=0).adjustments == (teamwork,)
    result = rolled(twice, [8, 9, 2, 3, 4])
    assert result.breakdown is not None and result.breakdown.dice == 5


def test_successive_action_penalty_takes_the_channel_step() -> None:
    stepped = actions.with_penalty(request("fistful", 6), actions_taken=2, step=2)
    assert stepped.adjustments == (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-4),)
    result = rolled(stepped, [8, 2])
    assert result.breakdown is not None and result.breakdown.dice == 2


def test_successive_action_step_zero_adds_no_line() -> None:
    assert actions.penalty(3, step=0) == ()
    assert actions.with_penalty(request("fistful", 3), 3, step=0).adjustments == ()
    assert actions.penalty(1, step=3) == (
        Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-3),
    )


def test_successive_action_negative_step_is_a_programming_error() -> None:
    with pytest.raises(ValueError, match="step"):
        actions.penalty(1, step=-1)


def test_successive_attempt_replaces_never_stacks_on_a_request_with_adjustments() -> None:
    multiple = Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-1, difficulty=1)
    base = request("v20", 5, adjustments=(multiple,))
    once = attempts.with_penalty(base, failures=1)
    twice = attempts.with_penalty(once, failures=2)
    assert twice.adjustments == (
        multiple, Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=2),
    )
    assert attempts.with_penalty(twice, failures=0).adjustments == (multiple,)
    result = rolled(twice, [9, 9, 2, 3])
    assert result.breakdown is not None
    assert (result.breakdown.dice, result.breakdown.difficulty) == (4, 9)


def test_successive_attempt_takes_the_channel_step() -> None:
    cofd = attempts.with_penalty(request("cofd", 6), failures=2, step=2)
    assert cofd.adjustments == (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-4),)
    v20 = attempts.with_penalty(request("v20", 4), failures=1, step=3)
    assert v20.adjustments == (Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, difficulty=3),)


def test_successive_attempt_step_zero_adds_no_line() -> None:
    for ruleset in Ruleset:
        assert attempts.penalty(ruleset, 3, step=0) == ()
    with pytest.raises(ValueError, match="step"):
        attempts.penalty(Ruleset.COFD, 1, step=-1)


def test_fistful_successive_attempt_removes_an_earlier_attempt_line() -> None:
    stale = Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-1)
    assert attempts.with_penalty(request("fistful", 3, adjustments=(stale,)), 2).adjustments == ()


def test_a_refused_roll_is_not_a_failed_attempt() -> None:
    refused = rolled(request("fistful", 0), [])
    assert refused.outcome is Outcome.REFUSED
    assert attempts.record(3, refused) == 3
    assert attempts.record(0, rolled(request("fistful", 2), [1, 2])) == 1


# --- 11. boundaries of every accepted range ----------------------------------------------------


@pytest.mark.parametrize("target", [1, MAX_TARGET])
def test_successes_required_at_the_ends_of_the_range_are_accepted(target: int) -> None:
    state = extended.start(request("v20", 3), target=target)
    assert (state.target, state.required) == (target, target)


@pytest.mark.parametrize("max_rolls", [1, MAX_ROLLS])
def test_roll_limit_at_the_ends_of_the_range_is_accepted(max_rolls: int) -> None:
    state = extended.start(request("fistful", 3), target=None, max_rolls=max_rolls)
    assert (state.max_rolls, state.rolls_left) == (max_rolls, max_rolls)


def test_target_one_is_reached_by_one_success() -> None:
    done = step(extended.start(request("fistful", 2), target=1), [8, 2])
    assert done.state.status is Status.SUCCEEDED


@pytest.mark.parametrize("length", [1, MAX_CONDITION])
def test_condition_names_of_one_and_the_maximum_characters_are_accepted(length: int) -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=10)
    pending = step(state, [2, 3, 4, 5]).state
    name = "x" * length
    assert extended.choose(pending, Choice.TAKE_CONDITION, f" {name} ").conditions == (name,)


def test_condition_name_one_character_too_long_is_refused() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=10)
    pending = step(state, [2, 3, 4, 5]).state
    with pytest.raises(RuleError):
        extended.choose(pending, Choice.TAKE_CONDITION, "x" * (MAX_CONDITION + 1))


@pytest.mark.parametrize("length", [1, MAX_UNIT])
def test_interval_units_of_one_and_the_maximum_characters_are_accepted(length: int) -> None:
    interval = Interval(amount=1, unit="h" * length)
    state = extended.start(request("v20", 3), target=5, interval=interval)
    assert extended.interval_length(state) == Fraction(1)


def test_interval_unit_too_long_or_amount_zero_is_invalid() -> None:
    with pytest.raises(ValueError, match="unit"):
        Interval(amount=1, unit="h" * (MAX_UNIT + 1))
    with pytest.raises(ValueError, match="amount"):
        Interval(amount=0, unit="h")


@pytest.mark.parametrize("skill", [1, MAX_POOL])
def test_cofd_skill_dots_at_the_ends_of_the_range_are_kept(skill: int) -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=5, skill=skill)
    assert state.skill == skill


def test_cofd_skill_dots_over_the_maximum_are_refused() -> None:
    with pytest.raises(RuleError):
        extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=5, skill=MAX_POOL + 1)


def test_cofd_roll_limit_from_traits_at_the_maximum_is_accepted() -> None:
    state = extended.start(request("cofd", ("Lore", MAX_ROLLS), 5 - MAX_ROLLS), target=5)
    assert state.max_rolls == MAX_ROLLS
    with pytest.raises(RuleError):
        extended.start(
            request("cofd", ("Lore", MAX_ROLLS), 5 - MAX_ROLLS, specialty=True), target=5
        )


def test_cofd_roll_limit_of_one_named_trait_is_that_trait() -> None:
    state = extended.start(request("cofd", ("Wits", 1), 3), target=5)
    assert (state.max_rolls, state.skill) == (1, None)


def test_cofd_a_zero_trait_still_counts_as_a_named_trait() -> None:
    state = extended.start(request("cofd", ("Occult", 0), ("Wits", 3), 2), target=5)
    assert (state.max_rolls, state.skill) == (3, 3)


# --- programming errors say exactly what the caller did wrong ----------------------------------
# (ValueError, not a refusal: the bot never shows these to a player, the log does)


def test_an_actor_roll_not_from_roll_request_is_a_programming_error() -> None:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=5, carry=True)
    with pytest.raises(
        ValueError,
        match=r"^roll the actor's request from roll_request \(the extended penalty applies\)$",
    ):
        extended.apply_roll(state, rolled(request("cofd", 4), [8, 2, 3, 4]))


def test_a_helper_roll_not_from_helper_request_is_a_programming_error() -> None:
    state = teamwork.start(request("v20", 4), 1, helper_limit=0)
    with pytest.raises(
        ValueError,
        match=r"^a helper's roll must be rolled from helper_request "
        r"\(the helper limit applies\)$",
    ):
        teamwork.add_helper(state, 2, rolled(request("v20", 3), [6, 2, 3]))


def test_a_revised_helper_roll_of_another_request_is_a_programming_error() -> None:
    state = teamwork.start(request("cofd", 4), 1)
    state = teamwork.add_helper(state, 2, rolled(request("cofd", 2), [2, 3]))
    with pytest.raises(
        ValueError, match=r"^a revised helper roll must be a new reading of the same request$"
    ):
        teamwork.revise_helper(state, 2, rolled(request("cofd", 3), [8, 2, 3]))


# --- a refusal that follows from another keeps it as its cause ---------------------------------


def test_a_pool_that_cannot_be_rolled_refuses_the_action_with_the_pool_s_reason() -> None:
    with pytest.raises(RuleError) as error:
        extended.start(request("v20", 0), target=5)
    assert error.value.refusal == Refusal.of(
        RefusalCode.EXTENDED_POOL_REFUSED, cause=Refusal.of(RefusalCode.NO_DICE, pool=0)
    )
    with pytest.raises(RuleError) as error:
        extended.start(request("fistful", 3), target=5, against=request("fistful", -1))
    assert error.value.refusal == Refusal.of(
        RefusalCode.EXTENDED_RESISTING_POOL_REFUSED,
        cause=Refusal.of(RefusalCode.NO_ACTION_NOW, pool=-1),
    )


def test_a_refused_roll_refuses_the_interval_with_its_own_reason() -> None:
    state = extended.start(request("v20", 3), target=5, against=request("v20", 3))
    refused = rolled(request("v20", 0), [])
    good = rolled(extended.roll_request(state), [6, 2, 3])
    with pytest.raises(RuleError) as error:
        extended.apply_roll(state, refused, good)
    assert error.value.refusal == Refusal.of(
        RefusalCode.EXTENDED_ROLL_REFUSED, cause=refused.refusal
    )
    with pytest.raises(RuleError) as error:
        extended.apply_roll(state, good, refused)
    assert error.value.refusal == Refusal.of(
        RefusalCode.EXTENDED_RESISTING_ROLL_REFUSED, cause=refused.refusal
    )
