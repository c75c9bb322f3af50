"""Every table-state model survives the store: JSON out, JSON in, unchanged; and invariants."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pydantic import BaseModel

from engine.faces import RandomFaces, ScriptedFaces
from engine.models import Ruleset, Term
from engine.roll import roll
from engine.table import contest, extended, multi, teamwork
from engine.table.extended import Choice, ExtendedState, Interval, Status
from tests.engine.table.helpers import request, rolled, scripted


def round_trips(model: BaseModel) -> None:
    again = type(model).model_validate_json(model.model_dump_json())
    assert again == model
    assert again.model_dump_json() == model.model_dump_json()


def test_an_extended_state_in_the_middle_of_a_decision_round_trips() -> None:
    state = extended.start(
        request("cofd", ("Intelligence", 3), ("Academics", 2)),
        target=10, interval=Interval(amount=30, unit="minutes"), carry=True,
    )
    result = rolled(extended.roll_request(state), [1, 2, 3])
    failed = extended.apply_roll(state, result)
    round_trips(failed)
    round_trips(failed.state)
    assert failed.state.undo is not None
    state = extended.choose(failed.state, Choice.TAKE_CONDITION, "Exhausted")
    exceptional = extended.apply_roll(state, rolled(extended.roll_request(state),
                                                    [8, 8, 8, 8, 8]))
    round_trips(exceptional.state)
    round_trips(extended.choose(exceptional.state, Choice.SHORTEN_INTERVAL))


def test_a_resisted_extended_state_round_trips() -> None:
    state = extended.start(request("v20", 3), target=5, against=request("v20", 3, difficulty=7))
    actor = rolled(extended.roll_request(state), [6, 7, 2])
    resister = rolled(extended.against_request(state), [7, 2, 3])
    round_trips(extended.apply_roll(state, actor, resister))


def test_a_teamwork_state_round_trips() -> None:
    state = teamwork.start(request("v20", 4), primary_id=2**62, helper_limit=1)
    for member, faces in ((7, [6, 7, 1]), (8, [1, 2, 3])):
        helper = rolled(teamwork.helper_request(state, member, request("v20", 3)), faces)
        state = teamwork.add_helper(state, member, helper)
    round_trips(state)


def test_contest_results_and_multiple_action_refusals_round_trip() -> None:
    round_trips(contest.resolve(Ruleset.V20, scripted("v20", 3, [6, 7, 8]),
                                scripted("v20", 2, [6, 2])))
    refusal = multi.requests([request("v20", 5, difficulty=8)] * 2)
    assert isinstance(refusal, multi.MultiRefusal)
    round_trips(refusal)


def test_a_stored_state_keeps_at_most_one_undo() -> None:
    state = extended.start(request("fistful", 3), target=5)
    nested = state.model_copy(update={"undo": state.model_copy(update={"undo": state})})
    with pytest.raises(ValueError, match="never a chain"):
        ExtendedState.model_validate_json(nested.model_dump_json())


ACTIONS = {
    "cofd": lambda: extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=8),
    "v20": lambda: extended.start(request("v20", 3), target=6, max_rolls=8),
    "v20 resisted": lambda: extended.start(
        request("v20", 3), target=6, against=request("v20", 3)
    ),
    "fistful": lambda: extended.start(request("fistful", 3), target=None, max_rolls=6),
    "fistful contest": lambda: extended.start(
        request("fistful", 2), target=6, against=request("fistful", 3)
    ),
}


@settings(max_examples=60, deadline=None)
@given(
    kind=st.sampled_from(sorted(ACTIONS)),
    rng=st.randoms(use_true_random=False),
    data=st.data(),
)
def test_extended_actions_keep_their_invariants_whatever_is_rolled_and_chosen(
    kind: str, rng: random.Random, data: st.DataObject
) -> None:
    state = ACTIONS[kind]()
    faces = RandomFaces(rng)
    for _ in range(12):
        offered = extended.choices(state)
        if not offered:
            assert state.status is not Status.OPEN
            break
        choice = data.draw(st.sampled_from(offered))
        if choice is Choice.ROLL:
            change = data.draw(st.integers(-2, 2))
            actor = roll(extended.roll_request(state, (Term(value=change),)), faces)
            against = None
            if state.against is not None:
                against = roll(extended.against_request(state), faces)
            if actor.refused or (against is not None and against.refused):
                continue
            step = extended.apply_roll(state, actor, against)
            assert step.choices == extended.choices(step.state)
            state = step.state
        else:
            name = "Shaken" if choice is Choice.TAKE_CONDITION else None
            state = extended.choose(state, choice, name)
        assert state.total >= 0
        assert state.resisted_total >= 0
        assert state.max_rolls is None or state.rolls <= state.max_rolls
        assert (state.status is Status.OPEN) == bool(extended.choices(state))
        assert not state.pending or state.status is Status.OPEN
        if state.status is Status.SUCCEEDED:
            assert state.required is not None
            assert state.total >= state.required
        round_trips(state)


@settings(max_examples=100, deadline=None)
@given(
    total=st.integers(0, 30),
    actor=st.lists(st.integers(1, 10), min_size=3, max_size=3),
    resister=st.lists(st.integers(1, 10), min_size=3, max_size=3),
)
def test_fistful_resistance_never_takes_the_total_below_zero(
    total: int, actor: list[int], resister: list[int]
) -> None:
    state = extended.start(request("fistful", 3), target=100, against=request("fistful", 3))
    state = state.model_copy(update={"total": total})
    # Extra dice (from 10s) show 2: the faces that matter are round 0's.
    actor_roll = roll(request("fistful", 3), ScriptedFaces([*actor, *[2] * 3]))
    resister_roll = roll(request("fistful", 3), ScriptedFaces([*resister, *[2] * 3]))
    step = extended.apply_roll(state, actor_roll, resister_roll)
    expected = max(0, total + actor_roll.successes - resister_roll.successes)
    assert step.state.total == expected
    assert step.change == expected - total
