"""Extended actions, resisted extended actions, ongoing efforts and ongoing contests."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import pytest

from engine.faces import ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Outcome,
    RollRequest,
    Ruleset,
    Term,
    TermSource,
)
from engine.refusals import RefusalCode
from engine.roll import roll, spend_will, take_beat
from engine.table import extended
from engine.table.extended import Choice, Event, ExtendedState, ExtendedStep, Interval, Status
from tests.engine.table.helpers import refused, request, rolled

SETBACK = (Choice.TAKE_CONDITION, Choice.LOSE_PROGRESS, Choice.ABANDON)
EXCEPTIONAL = (
    Choice.REDUCE_REQUIRED, Choice.SHORTEN_INTERVAL, Choice.EXCEPTIONAL_RESULT, Choice.ABANDON,
)
OPEN = (Choice.ROLL, Choice.ABANDON)


def step(
    state: ExtendedState,
    faces: list[int],
    against: list[int] | None = None,
    changes: tuple[Term, ...] = (),
) -> ExtendedStep:
    """One interval: the bot rolls the requests the state gives and feeds the results back."""
    actor = rolled(extended.roll_request(state, changes), faces)
    resister = None if against is None else rolled(extended.against_request(state), against)
    return extended.apply_roll(state, actor, resister)


def research(**options: Any) -> ExtendedState:
    """`Intelligence 3 + Academics 2`: five rolls, Skill 2."""
    pool = request("cofd", ("Intelligence", 3), ("Academics", 2))
    return extended.start(pool, **options)


# --- cofd --------------------------------------------------------------------------------


def test_cofd_a_full_extended_action_from_start_to_completion() -> None:
    state = research(target=10, interval=Interval(amount=30, unit="minutes"))
    assert (state.max_rolls, state.skill, extended.choices(state)) == (5, 2, OPEN)

    failure = step(state, [1, 2, 3, 4, 5])
    assert (failure.event, failure.change, failure.choices) == (Event.SETBACK, 0, SETBACK)
    with refused(RefusalCode.EXTENDED_DECISION_PENDING):
        extended.roll_request(failure.state)
    state = extended.choose(failure.state, Choice.TAKE_CONDITION, "Exhausted")
    assert (state.conditions, state.total, extended.choices(state)) == (("Exhausted",), 0, OPEN)

    exceptional = step(state, [8, 8, 8, 8, 9])
    assert (exceptional.event, exceptional.change) == (Event.EXCEPTIONAL, 5)
    assert exceptional.choices == EXCEPTIONAL
    state = extended.choose(exceptional.state, Choice.SHORTEN_INTERVAL)
    assert extended.interval_length(state) == Fraction(45, 2)

    failed = rolled(extended.roll_request(state), [2, 3, 4, 5, 6])
    assert extended.apply_roll(state, failed).event is Event.SETBACK
    dramatic = extended.revise(extended.apply_roll(state, failed).state, take_beat(failed))
    assert (dramatic.event, dramatic.choices) == (Event.DRAMATIC_SETBACK, SETBACK)
    assert dramatic.state.carry
    state = extended.choose(dramatic.state, Choice.TAKE_CONDITION, "  Humiliated ")

    penalised = extended.roll_request(state)
    assert penalised.adjustments == (Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=-2),)
    progress = step(state, [8, 9, 10, 8])  # 3 dice: the 10 explodes into an 8
    assert (progress.event, progress.change, progress.state.total) == (Event.PROGRESS, 4, 9)
    assert not progress.state.carry

    done = step(progress.state, [8, 2, 3, 4, 5])
    assert (done.event, done.change, done.choices) == (Event.PROGRESS, 1, ())
    assert done.state.status is Status.SUCCEEDED
    assert (done.state.total, done.state.rolls) == (10, 5)
    assert done.state.conditions == ("Exhausted", "Humiliated")
    assert not done.state.exceptional_result


def test_cofd_the_roll_limit_is_the_named_traits_plus_specialty() -> None:
    pool = request("cofd", ("Intelligence", 3), ("Academics", 2), ("Wounded", -1),
                   specialty=True)
    state = extended.start(pool, target=8)
    assert (state.max_rolls, state.skill) == (6, 2)


def test_cofd_a_roll_limit_given_explicitly_wins() -> None:
    assert research(target=8, max_rolls=3).max_rolls == 3


def test_cofd_without_named_traits_the_roll_limit_is_the_pool_as_given() -> None:
    state = extended.start(request("cofd", 4, 1, specialty=True), target=8)
    assert (state.max_rolls, state.skill) == (6, None)


def test_cofd_a_roll_limit_below_one_is_refused() -> None:
    with refused(RefusalCode.EXTENDED_DEFAULT_ROLLS_RANGE, rolls=-1, max=1000):
        extended.start(request("cofd", 1, -2), target=3)


def test_cofd_skill_dots_given_explicitly_win_over_the_second_trait() -> None:
    assert research(target=8, skill=4).skill == 4


def test_skill_dots_are_zero_to_a_hundred_and_zero_offers_no_reduction() -> None:
    with refused(RefusalCode.EXTENDED_SKILL_RANGE, skill=-1, max=100):
        research(target=8, skill=-1)
    assert research(target=8, skill=0).skill is None


def test_cofd_a_trait_read_from_a_sheet_is_never_taken_for_the_skill() -> None:
    """The second named trait gives the Skill dots in a typed pool (RULES.md §1); a trait
    read from a sheet is a Skill only when the sheet says so, and then the bot passes its
    dots (§6): Resolve + Composure from a sheet has no Skill dots."""
    attributes = (
        Term(label="Resolve", value=3, source=TermSource.SHEET),
        Term(label="Composure", value=4, source=TermSource.SHEET),
    )
    state = extended.start(RollRequest(ruleset=Ruleset.COFD, terms=attributes), target=10)
    assert (state.max_rolls, state.skill) == (7, None)
    typed_skill = (attributes[0], Term(label="Brawl", value=2, source=TermSource.TYPED))
    state = extended.start(RollRequest(ruleset=Ruleset.COFD, terms=typed_skill), target=10)
    assert (state.max_rolls, state.skill) == (5, 2)


def test_cofd_exceptional_reduces_the_requirement_by_the_skill_dots() -> None:
    exceptional = step(research(target=12), [8, 8, 8, 8, 8])
    state = extended.choose(exceptional.state, Choice.REDUCE_REQUIRED)
    assert (state.required, state.reduced_by, state.status) == (10, 2, Status.OPEN)


def test_cofd_reducing_the_requirement_to_the_total_completes_the_action() -> None:
    exceptional = step(research(target=7, skill=3), [8, 8, 8, 8, 8])
    state = extended.choose(exceptional.state, Choice.REDUCE_REQUIRED)
    assert (state.required, state.status) == (4, Status.SUCCEEDED)


def test_cofd_without_skill_dots_the_requirement_cannot_be_reduced() -> None:
    state = extended.start(request("cofd", 5), target=12)
    exceptional = step(state, [8, 8, 8, 8, 8])
    assert exceptional.choices == (
        Choice.SHORTEN_INTERVAL, Choice.EXCEPTIONAL_RESULT, Choice.ABANDON,
    )
    with refused(
        RefusalCode.CHOICE_NOT_OFFERED,
        choice="reduce_required", choices="shorten_interval,exceptional_result,abandon",
    ):
        extended.choose(exceptional.state, Choice.REDUCE_REQUIRED)


def test_cofd_shortening_the_interval_counts_quarters_off_each_following_roll() -> None:
    state = research(target=20, interval=Interval(amount=1, unit="hour"))
    for _ in range(2):
        state = extended.choose(step(state, [8, 8, 8, 8, 8]).state, Choice.SHORTEN_INTERVAL)
    assert state.shortened == 2
    assert extended.interval_length(state) == Fraction(9, 16)


def test_without_an_interval_there_is_no_interval_length() -> None:
    assert extended.interval_length(research(target=5)) is None


def test_cofd_the_exceptional_result_is_kept_until_the_action_completes() -> None:
    state = extended.choose(step(research(target=8), [8, 8, 8, 8, 8]).state,
                            Choice.EXCEPTIONAL_RESULT)
    assert (state.exceptional_result, state.status) == (True, Status.OPEN)
    done = step(state, [8, 9, 10, 2, 3, 4])
    assert done.state.status is Status.SUCCEEDED
    assert done.state.exceptional_result


def test_cofd_an_exceptional_success_that_completes_the_action_gains_the_exceptional_result() -> (
    None
):
    done = step(research(target=5), [8, 8, 8, 8, 8])
    assert (done.event, done.applied, done.choices) == (
        Event.EXCEPTIONAL, Choice.EXCEPTIONAL_RESULT, (),
    )
    assert done.state.status is Status.SUCCEEDED
    assert done.state.exceptional_result


def test_cofd_refusing_both_loses_all_progress_and_the_action_goes_on() -> None:
    state = step(research(target=10), [8, 9, 2, 3, 4]).state
    state = extended.choose(step(state, [2, 3, 4, 5, 6]).state, Choice.LOSE_PROGRESS)
    assert (state.total, state.rolls, state.conditions, state.status) == (
        0, 2, (), Status.OPEN,
    )


def test_cofd_abandoning_after_a_failure_ends_the_action() -> None:
    state = extended.choose(step(research(target=10), [2, 3, 4, 5, 6]).state, Choice.ABANDON)
    assert (state.status, extended.choices(state)) == (Status.ABANDONED, ())


def test_the_action_can_be_abandoned_whenever_it_is_open() -> None:
    state = extended.choose(research(target=10), Choice.ABANDON)
    assert state.status is Status.ABANDONED
    exceptional = step(research(target=10), [8, 8, 8, 8, 8])
    assert extended.choose(exceptional.state, Choice.ABANDON).status is Status.ABANDONED


def test_dramatic_failure_carries_minus_two_to_the_next_roll() -> None:
    dramatic = step(research(target=10), [1], changes=(Term(label="Distracted", value=-5),))
    assert dramatic.event is Event.DRAMATIC_SETBACK
    state = extended.choose(dramatic.state, Choice.TAKE_CONDITION, "Frustrated")
    nxt = extended.roll_request(state)
    assert nxt.adjustments == (Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=-2),)
    result = rolled(nxt, [8, 2, 3])
    assert result.breakdown is not None
    assert result.breakdown.dice == 3


def test_a_roll_without_the_carried_penalty_is_not_from_this_action() -> None:
    state = research(target=10, carry=True)
    with pytest.raises(ValueError, match="roll_request"):
        extended.apply_roll(state, rolled(request("cofd", 5), [8, 2, 3, 4, 5]))


def test_the_dramatic_failure_carry_outlives_the_action_for_a_fresh_attempt() -> None:
    dramatic = step(research(target=10), [1], changes=(Term(value=-5),))
    abandoned = extended.choose(dramatic.state, Choice.ABANDON)
    assert abandoned.carry
    fresh = research(target=10, carry=abandoned.carry)
    assert extended.roll_request(fresh).adjustments == (
        Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=-2),
    )
    assert not step(fresh, [8, 2, 3]).state.carry


def test_cofd_the_action_fails_when_the_roll_limit_is_used_up() -> None:
    state = extended.start(request("cofd", ("Wits", 1), ("Crafts", 1)), target=5)
    first = step(state, [8, 2])
    assert (first.state.status, first.choices) == (Status.OPEN, OPEN)
    last = step(first.state, [8, 3])
    assert (last.event, last.state.total, last.state.rolls) == (Event.PROGRESS, 2, 2)
    assert (last.state.status, last.choices) == (Status.FAILED, ())
    with refused(RefusalCode.EXTENDED_ENDED, status="failed"):
        extended.roll_request(last.state)
    with refused(RefusalCode.EXTENDED_ENDED, status="failed"):
        extended.choose(last.state, Choice.ABANDON)


def test_cofd_a_failure_on_the_last_roll_fails_the_action_with_nothing_to_choose() -> None:
    last = step(research(target=10, max_rolls=1), [2, 3, 4, 5, 6])
    assert (last.event, last.state.status, last.choices) == (Event.SETBACK, Status.FAILED, ())


def test_cofd_a_dramatic_failure_on_the_last_roll_still_carries_to_a_fresh_attempt() -> None:
    last = step(research(target=10, max_rolls=1), [1], changes=(Term(value=-5),))
    assert (last.state.status, last.state.carry) == (Status.FAILED, True)


def test_cofd_an_exceptional_last_roll_reduces_the_requirement_by_itself_when_that_completes() -> (
    None
):
    last = step(research(target=7, max_rolls=1), [8, 8, 8, 8, 8])
    assert (last.applied, last.state.status, last.state.required) == (
        Choice.REDUCE_REQUIRED, Status.SUCCEEDED, 5,
    )


def test_cofd_an_exceptional_last_roll_that_cannot_complete_fails_the_action() -> None:
    last = step(research(target=12, max_rolls=1), [8, 8, 8, 8, 8])
    assert (last.event, last.applied, last.state.status) == (
        Event.EXCEPTIONAL, None, Status.FAILED,
    )


def test_successive_attempt_penalties_never_apply_to_extended_actions() -> None:
    attempt = Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-2)
    pool = request("cofd", ("Intelligence", 3), ("Academics", 2), adjustments=(attempt,))
    state = extended.start(pool, target=10)
    assert extended.roll_request(state, adjustments=(attempt,)).adjustments == ()


def test_other_automatic_adjustments_reach_the_extended_roll() -> None:
    sap = Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-1)
    state = extended.start(request("fistful", 3), target=5)
    assert extended.roll_request(state, adjustments=(sap,)).adjustments == (sap,)


def test_pool_changes_and_will_apply_to_one_roll_only() -> None:
    state = research(target=10)
    changed = extended.roll_request(state, (Term(label="Library", value=2),), will=True)
    assert changed.base == 7
    assert changed.will
    assert extended.roll_request(state).base == 5


def test_a_roll_is_refused_while_a_decision_is_pending() -> None:
    pending = step(research(target=10), [2, 3, 4, 5, 6]).state
    with refused(RefusalCode.EXTENDED_DECISION_PENDING):
        extended.apply_roll(pending, rolled(request("cofd", 5), [8, 2, 3, 4, 5]))


def test_only_an_offered_choice_is_accepted() -> None:
    state = research(target=10)
    with refused(RefusalCode.CHOICE_NOT_OFFERED):
        extended.choose(state, Choice.LOSE_PROGRESS)
    with refused(RefusalCode.CHOICE_NOT_OFFERED):
        extended.choose(state, Choice.ROLL)


def test_taking_a_condition_needs_its_name_and_only_it_takes_one() -> None:
    pending = step(research(target=10), [2, 3, 4, 5, 6]).state
    with refused(RefusalCode.CONDITION_NAME_MISSING):
        extended.choose(pending, Choice.TAKE_CONDITION)
    with refused(RefusalCode.CONDITION_NAME_LENGTH, max=100):
        extended.choose(pending, Choice.TAKE_CONDITION, "   ")
    with refused(RefusalCode.CONDITION_NAME_UNWANTED):
        extended.choose(pending, Choice.LOSE_PROGRESS, "Exhausted")


@pytest.mark.parametrize("name", ["\u200b", "a\nb", "\u202eabc", "Shaken\x00"])
def test_a_condition_name_is_one_visible_line(name: str) -> None:
    """A Condition taken on an extended action is one line someone can read, as a sheet's
    Condition is: nothing invisible alone, no line break, control or direction override."""
    pending = step(research(target=10), [2, 3, 4, 5, 6]).state
    with refused(RefusalCode.CONDITION_NAME_LENGTH, max=100):
        extended.choose(pending, Choice.TAKE_CONDITION, name)
    taken = extended.choose(pending, Choice.TAKE_CONDITION, "Shaken 🧙\u200d♂️")
    assert taken.conditions == ("Shaken 🧙\u200d♂️",)


def test_will_spent_after_an_extended_roll_rereads_it() -> None:
    state = research(target=10)
    result = rolled(extended.roll_request(state), [2, 3, 4, 5, 6])
    failed = extended.apply_roll(state, result)
    assert failed.event is Event.SETBACK
    revised = extended.revise(failed.state, spend_will(result, ScriptedFaces([8, 9, 2])))
    assert (revised.event, revised.change, revised.state.rolls) == (Event.PROGRESS, 2, 1)
    assert revised.choices == OPEN


def test_a_roll_cannot_be_reread_once_a_decision_followed_it() -> None:
    state = research(target=10)
    result = rolled(extended.roll_request(state), [2, 3, 4, 5, 6])
    decided = extended.choose(extended.apply_roll(state, result).state, Choice.LOSE_PROGRESS)
    with refused(RefusalCode.EXTENDED_LAST_ROLL_FINAL):
        extended.revise(decided, spend_will(result, ScriptedFaces([8, 9, 2])))


def test_the_roll_must_be_in_the_action_s_ruleset() -> None:
    with refused(RefusalCode.EXTENDED_ROLL_RULESET, rolled="fistful", ruleset="cofd"):
        extended.apply_roll(research(target=5), rolled(request("fistful", 2), [8, 2]))


def test_a_refused_roll_changes_nothing() -> None:
    state = extended.start(request("v20", 3), target=5)
    with refused(RefusalCode.EXTENDED_ROLL_REFUSED):
        extended.apply_roll(state, rolled(request("v20", 0), []))


# --- starting ------------------------------------------------------------------------------


@pytest.mark.parametrize("target", [0, -3, 1001])
def test_the_successes_required_are_one_to_a_thousand(target: int) -> None:
    with refused(RefusalCode.EXTENDED_TARGET_RANGE, target=target, max=1000):
        research(target=target)


@pytest.mark.parametrize("max_rolls", [0, -1, 1001])
def test_the_roll_limit_is_one_to_a_thousand(max_rolls: int) -> None:
    with refused(RefusalCode.EXTENDED_ROLLS_RANGE, rolls=max_rolls, max=1000):
        research(target=5, max_rolls=max_rolls)


def test_cofd_and_v20_need_the_successes_required() -> None:
    for ruleset in ("cofd", "v20"):
        with refused(RefusalCode.EXTENDED_NO_TARGET):
            extended.start(request(ruleset, 3), target=None, max_rolls=3)


def test_a_fistful_effort_needs_successes_or_rolls() -> None:
    with refused(RefusalCode.EXTENDED_NO_TARGET_OR_ROLLS):
        extended.start(request("fistful", 3), target=None)


def test_willpower_is_declared_per_roll_not_for_the_whole_action() -> None:
    with refused(RefusalCode.EXTENDED_WILL):
        extended.start(request("cofd", 3, will=True), target=5)


def test_skill_dots_and_a_carried_penalty_are_cofd_rules() -> None:
    with refused(RefusalCode.EXTENDED_SKILL_COFD_ONLY, option="skill", ruleset="v20"):
        extended.start(request("v20", 3), target=5, skill=2)
    with refused(RefusalCode.EXTENDED_CARRY_COFD_ONLY, ruleset="fistful"):
        extended.start(request("fistful", 3), target=5, carry=True)


def test_cofd_has_no_resisted_extended_action() -> None:
    with refused(RefusalCode.EXTENDED_RESISTED_COFD, option="against", ruleset="cofd"):
        extended.start(request("cofd", 3), target=5, against=request("cofd", 3))


def test_a_pool_that_cannot_be_rolled_cannot_start_an_action() -> None:
    with refused(RefusalCode.EXTENDED_POOL_REFUSED):
        extended.start(request("v20", 0), target=5)
    with refused(RefusalCode.EXTENDED_RESISTING_POOL_REFUSED):
        extended.start(request("fistful", 3), target=5, against=request("fistful", -1))


def test_both_sides_of_a_resisted_action_use_its_ruleset() -> None:
    with refused(RefusalCode.EXTENDED_RESISTING_RULESET, against="fistful", ruleset="v20"):
        extended.start(request("v20", 3), target=5, against=request("fistful", 3))


def test_v20_both_sides_of_a_resisted_action_have_a_difficulty_of_2_to_9() -> None:
    """RULES.md §2: a resisted action can be extended, and each side's difficulty is at
    most 9; an unresisted v20 extended action may still ask for 10."""
    with refused(RefusalCode.OUT_OF_RANGE, option="difficulty", value=10, low=2, high=9):
        extended.start(request("v20", 3, difficulty=10), target=5, against=request("v20", 3))
    with refused(RefusalCode.OUT_OF_RANGE, option="against_difficulty", value=10, low=2, high=9):
        extended.start(request("v20", 3), target=5, against=request("v20", 3, difficulty=10))
    state = extended.start(request("v20", 3, difficulty=9), target=5,
                           against=request("v20", 3, difficulty=9))
    assert state.against is not None and state.against.difficulty == 9
    assert extended.start(request("v20", 3, difficulty=10), target=5).request.difficulty == 10


def test_a_resisted_action_takes_both_rolls_and_an_unresisted_one_only_one() -> None:
    resisted = extended.start(request("v20", 3), target=5, against=request("v20", 3))
    actor = rolled(extended.roll_request(resisted), [6, 2, 3])
    with refused(RefusalCode.EXTENDED_RESISTING_ROLL_MISSING):
        extended.apply_roll(resisted, actor)
    alone = extended.start(request("v20", 3), target=5)
    with refused(RefusalCode.EXTENDED_RESISTING_ROLL_UNWANTED):
        extended.apply_roll(alone, actor, actor)
    with refused(RefusalCode.EXTENDED_NOT_RESISTED):
        extended.against_request(alone)


# --- v20 -----------------------------------------------------------------------------------


def test_v20_net_successes_accumulate_with_no_roll_limit_unless_set() -> None:
    state = extended.start(request("v20", 3), target=5)
    assert state.max_rolls is None
    first = step(state, [6, 7, 1])
    assert (first.event, first.change, first.state.total) == (Event.PROGRESS, 1, 1)
    nothing = step(first.state, [2, 3, 4])
    assert (nothing.event, nothing.choices) == (Event.NO_PROGRESS, OPEN)
    done = step(nothing.state, [6, 7, 8, 9, 10], changes=(Term(value=2),))
    assert (done.state.total, done.state.status) == (6, Status.SUCCEEDED)


def test_v20_a_botch_ends_the_attempt_and_starting_over_begins_again_from_zero() -> None:
    state = step(extended.start(request("v20", 3), target=5, max_rolls=6), [6, 7, 8]).state
    botch = step(state, [1, 2, 3])
    assert (botch.event, botch.change, botch.choices) == (
        Event.DERAILED, 0, (Choice.START_OVER, Choice.ABANDON),
    )
    again = extended.choose(botch.state, Choice.START_OVER)
    assert (again.total, again.rolls, again.status) == (0, 2, Status.OPEN)
    assert extended.choose(botch.state, Choice.ABANDON).status is Status.ABANDONED


def test_v20_a_botch_on_the_last_roll_fails_the_action() -> None:
    botch = step(extended.start(request("v20", 3), target=5, max_rolls=1), [1, 2, 3])
    assert (botch.event, botch.state.status, botch.choices) == (
        Event.DERAILED, Status.FAILED, (),
    )


def test_v20_a_roll_limit_used_up_fails_the_action() -> None:
    last = step(extended.start(request("v20", 3), target=5, max_rolls=1), [6, 7, 8])
    assert last.state.status is Status.FAILED


def test_v20_resisted_both_sides_accumulate_and_the_resister_can_get_there_first() -> None:
    state = extended.start(request("v20", 3), target=4, against=request("v20", 3))
    first = step(state, [6, 7, 2], against=[1, 2, 3])  # the resister's botch counts 0
    assert (first.event, first.change, first.opposed) == (Event.PROGRESS, 2, 0)
    assert (first.state.total, first.state.resisted_total) == (2, 0)
    second = step(first.state, [6, 2, 3], against=[6, 7, 8])
    assert (second.state.total, second.state.resisted_total) == (3, 3)
    third = step(second.state, [2, 3, 4], against=[6, 2, 3])
    assert (third.event, third.opposed, third.state.status) == (Event.OUTPACED, 1, Status.FAILED)


def test_v20_resisted_the_actor_reaching_the_requirement_first_succeeds() -> None:
    state = extended.start(request("v20", 3), target=3, against=request("v20", 3))
    done = step(state, [6, 7, 8], against=[6, 7, 2])
    assert (done.event, done.state.status) == (Event.PROGRESS, Status.SUCCEEDED)


def test_v20_resisted_both_reaching_it_at_once_more_successes_wins() -> None:
    state = extended.start(request("v20", 3), target=2, against=request("v20", 3))
    assert step(state, [6, 7, 8], against=[6, 7, 2]).state.status is Status.SUCCEEDED
    tie = step(state, [6, 7, 2], against=[6, 7, 3])
    assert (tie.event, tie.state.status) == (Event.OUTPACED, Status.FAILED)


def test_v20_resisted_the_actor_s_botch_ends_the_attempt_and_the_resister_s_roll_counts_0() -> (
    None
):
    state = extended.start(request("v20", 3), target=5, against=request("v20", 3))
    state = step(state, [6, 7, 2], against=[6, 2, 3]).state
    botch = step(state, [1, 2, 3], against=[6, 7, 8])
    assert (botch.event, botch.opposed, botch.state.resisted_total) == (Event.DERAILED, 0, 1)
    again = extended.choose(botch.state, Choice.START_OVER)
    assert (again.total, again.resisted_total) == (0, 0)


# --- fistful -------------------------------------------------------------------------------


def test_fistful_a_botch_derails_the_effort_and_the_storyteller_may_waive_it() -> None:
    state = step(extended.start(request("fistful", 3), target=6), [8, 9, 2]).state
    botch = step(state, [1, 2, 3])
    assert (botch.event, botch.choices) == (
        Event.DERAILED, (Choice.START_OVER, Choice.ABANDON, Choice.WAIVE),
    )
    waived = extended.choose(botch.state, Choice.WAIVE)
    assert (waived.total, waived.rolls, extended.choices(waived)) == (2, 2, OPEN)
    assert extended.choose(botch.state, Choice.START_OVER).total == 0


def test_fistful_an_effort_measured_in_rolls_completes_with_what_it_gathered() -> None:
    state = extended.start(request("fistful", 3), target=None, max_rolls=2)
    state = step(state, [8, 9, 2]).state
    done = step(state, [8, 2, 3])
    assert (done.state.status, done.state.total, done.choices) == (Status.COMPLETED, 3, ())


def test_fistful_a_botch_on_the_last_roll_of_an_effort_in_rolls_waits_for_the_waiver() -> None:
    """RULES.md §3: a botch derails the effort (the Storyteller may waive it). On the last
    roll of an effort measured in rolls only, waiving completes it with what it gathered;
    nothing is left to start over with, so otherwise the player abandons."""
    state = extended.start(request("fistful", 3), target=None, max_rolls=2)
    state = step(state, [8, 9, 2]).state
    botch = step(state, [1, 2, 3])
    assert (botch.event, botch.state.status, botch.choices) == (
        Event.DERAILED, Status.OPEN, (Choice.ABANDON, Choice.WAIVE),
    )
    waived = extended.choose(botch.state, Choice.WAIVE)
    assert (waived.status, waived.total, extended.choices(waived)) == (Status.COMPLETED, 2, ())
    assert extended.choose(botch.state, Choice.ABANDON).status is Status.ABANDONED
    with refused(RefusalCode.CHOICE_NOT_OFFERED):
        extended.choose(botch.state, Choice.START_OVER)


def test_fistful_a_botch_on_the_last_roll_of_an_effort_with_successes_fails_it() -> None:
    """With successes required, waiving a last-roll botch could not reach them: it fails."""
    state = extended.start(request("fistful", 3), target=4, max_rolls=1)
    botch = step(state, [1, 2, 3])
    assert (botch.event, botch.state.status, botch.choices) == (
        Event.DERAILED, Status.FAILED, (),
    )


def test_fistful_an_effort_with_both_must_reach_the_successes_within_the_rolls() -> None:
    state = extended.start(request("fistful", 3), target=4, max_rolls=1)
    assert step(state, [8, 9, 2]).state.status is Status.FAILED


def test_fistful_ongoing_contest_resistance_eats_progress_never_below_zero() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    first = step(state, [8, 9, 2], against=[2, 3, 4])
    assert (first.event, first.change, first.opposed, first.state.total) == (
        Event.PROGRESS, 2, 0, 2,
    )
    beaten = step(first.state, [8, 2, 3], against=[8, 9, 9])
    assert (beaten.event, beaten.change, beaten.state.total) == (Event.RESISTED, -2, 0)
    floor = step(beaten.state, [2, 3, 4], against=[8, 2, 3])
    assert (floor.event, floor.change, floor.state.total) == (Event.RESISTED, 0, 0)
    ahead = step(floor.state, [8, 9, 9], against=[8, 2, 3])
    assert (ahead.event, ahead.change, ahead.state.total) == (Event.PROGRESS, 2, 2)


def test_fistful_ongoing_contest_the_resister_s_botch_counts_as_zero() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    resister_botch = step(state, [8, 2, 3], against=[1, 2, 3])
    assert (resister_botch.change, resister_botch.opposed) == (1, 0)


def test_fistful_ongoing_contest_the_actor_s_botch_counts_zero_and_derails_the_effort() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 3))
    state = step(state, [8, 9, 10, 9], against=[2, 3, 4]).state
    assert state.total == 4
    botch = step(state, [1, 2, 3], against=[8, 9, 2])
    assert (botch.event, botch.change, botch.state.total) == (Event.DERAILED, -2, 2)
    assert extended.choose(botch.state, Choice.WAIVE).total == 2
    assert extended.choose(botch.state, Choice.START_OVER).total == 0


def test_fistful_actor_and_resister_rolls_are_the_requests_the_state_gives() -> None:
    state = extended.start(request("fistful", 3), target=6, against=request("fistful", 2))
    actor = roll(extended.roll_request(state), ScriptedFaces([8, 2, 3]))
    resister = roll(extended.against_request(state, will=True), ScriptedFaces([8, 2, 3, 4, 5]))
    assert resister.outcome is Outcome.SUCCESS
    assert extended.apply_roll(state, actor, resister).change == 0
