"""The saved table actions as state machines: teamwork, contests and extended actions.

Who may make which move on a teamwork and when, how a contest waits for its
opponent, and what an extended roll's message offers while its action can
still change, each rule pinned by name on scripted faces.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine.faces import ScriptedFaces
from engine.models import RollResult, Term
from engine.records import ActionStatus, RollRecord, WillState
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, spend_will, take_beat
from engine.table import contest, extended, teamwork
from engine.table.contest import ContestStatus, ResistBlocked, Winner
from engine.table.extended import Choice, ExtendedAction, Status
from engine.table.teamwork import Blocked, Move, MoveBlocked, TeamworkAction
from tests.engine.table.helpers import request, rolled

PRIMARY, ANNA, BORIS = 100, 201, 202
NOW = datetime(2026, 11, 23, tzinfo=UTC)


# --- teamwork ------------------------------------------------------------------------------------


def opened(ruleset: str = "cofd", pool: int = 4) -> TeamworkAction:
    return teamwork.opened(request(ruleset, pool), PRIMARY, "Prim")


def helper_roll(action: TeamworkAction, member: int, faces: list[int]) -> RollResult:
    req = teamwork.helper_request(action.teamwork, member, request("cofd", len(faces)))
    return rolled(req, faces)


def test_an_opened_teamwork_is_open_with_no_helpers() -> None:
    action = opened()
    assert (action.status, action.primary_name, action.helper_names, action.primary) == (
        teamwork.Status.OPEN, "Prim", (), None,
    )
    assert action.teamwork.primary_id == PRIMARY
    assert action.teamwork.helper_limit is None


def test_an_opened_teamwork_keeps_its_helper_limit_and_refuses_a_bad_one() -> None:
    action = teamwork.opened(request("v20", 4), PRIMARY, "Prim", helper_limit=1)
    assert action.teamwork.helper_limit == 1
    with pytest.raises(RuleError):
        teamwork.opened(request("cofd", 4), PRIMARY, "Prim", helper_limit=1)


def test_helpers_join_with_their_names_in_order() -> None:
    action = opened()
    action = teamwork.helped(action, ANNA, "Anna", helper_roll(action, ANNA, [8, 9]))
    action = teamwork.helped(action, BORIS, "Boris", helper_roll(action, BORIS, [2]))
    assert action.helper_names == ("Anna", "Boris")
    assert [h.member_id for h in action.teamwork.helpers] == [ANNA, BORIS]
    assert action.status is teamwork.Status.OPEN
    assert teamwork.primary_request(action.teamwork).adjustments[0].dice == 2


def test_the_primary_cannot_help_and_a_helper_helps_once() -> None:
    action = opened()
    assert teamwork.blocked(action, Move.HELP, PRIMARY) is Blocked.PRIMARY_CANNOT_HELP
    assert teamwork.blocked(action, Move.HELP, ANNA) is None
    action = teamwork.helped(action, ANNA, "Anna", helper_roll(action, ANNA, [8]))
    assert teamwork.blocked(action, Move.HELP, ANNA) is Blocked.ALREADY_HELPED
    with pytest.raises(MoveBlocked) as error:
        teamwork.helped(action, ANNA, "Anna", helper_roll(opened(), ANNA, [8]))
    assert error.value.reason is Blocked.ALREADY_HELPED
    assert error.value.args == ("already_helped",)


def test_only_a_helper_revises_and_the_bonus_follows_the_new_reading() -> None:
    action = opened()
    first = helper_roll(action, ANNA, [2, 3])
    action = teamwork.helped(action, ANNA, "Anna", first)
    assert teamwork.blocked(action, Move.REVISE, BORIS) is Blocked.NOT_A_HELPER
    assert teamwork.blocked(action, Move.REVISE, ANNA) is None
    with pytest.raises(MoveBlocked):
        teamwork.revised(action, BORIS, first)
    after = spend_will(first, ScriptedFaces([8, 9, 2]))
    revised = teamwork.revised(action, ANNA, after)
    assert revised.teamwork.helpers[0].result == after
    assert revised.helper_names == ("Anna",)
    assert revised.status is teamwork.Status.OPEN


def test_only_the_primary_rolls_and_rolling_ends_the_teamwork() -> None:
    action = opened()
    primary = rolled(teamwork.primary_request(action.teamwork), [8, 2, 3, 4])
    assert teamwork.blocked(action, Move.ROLL, ANNA) is Blocked.ONLY_PRIMARY
    assert teamwork.blocked(action, Move.ROLL, PRIMARY) is None
    with pytest.raises(MoveBlocked):
        teamwork.rolled(action, ANNA, primary)
    done = teamwork.rolled(action, PRIMARY, primary)
    assert (done.status, done.primary) == (teamwork.Status.ROLLED, primary)
    for move in Move:
        for member in (PRIMARY, ANNA):
            if (move, member) != (Move.REVISE, PRIMARY):
                assert teamwork.blocked(done, move, member) is Blocked.OVER


def test_the_primary_s_roll_is_read_again_once_rolled_and_the_result_follows() -> None:
    """The primary's roll offers Spend Will and Take a Beat as any roll does (RULES.md §1,
    §4): once rolled, the primary alone revises it, and the teamwork's result follows;
    before the roll there is nothing of the primary's to revise."""
    action = opened()
    assert teamwork.blocked(action, Move.REVISE, PRIMARY) is Blocked.OVER
    first = rolled(teamwork.primary_request(action.teamwork), [2, 3, 4, 5])
    done = teamwork.rolled(action, PRIMARY, first)
    assert teamwork.blocked(done, Move.REVISE, PRIMARY) is None
    assert teamwork.blocked(done, Move.REVISE, ANNA) is Blocked.OVER
    after = spend_will(first, ScriptedFaces([8, 9, 2]))
    revised = teamwork.revised(done, PRIMARY, after)
    assert (revised.status, revised.primary) == (teamwork.Status.ROLLED, after)
    assert revised.teamwork == done.teamwork
    with pytest.raises(MoveBlocked):
        teamwork.revised(done, ANNA, after)
    cancelled = teamwork.cancelled(opened(), PRIMARY)
    assert teamwork.blocked(cancelled, Move.REVISE, PRIMARY) is Blocked.OVER


def test_the_primary_or_a_storyteller_cancels() -> None:
    action = opened()
    assert teamwork.blocked(action, Move.CANCEL, ANNA) is Blocked.NOT_YOURS
    assert teamwork.blocked(action, Move.CANCEL, ANNA, storyteller=True) is None
    assert teamwork.blocked(action, Move.CANCEL, PRIMARY) is None
    with pytest.raises(MoveBlocked):
        teamwork.cancelled(action, ANNA)
    by_storyteller = teamwork.cancelled(action, ANNA, storyteller=True)
    assert by_storyteller.status is teamwork.Status.CANCELLED
    assert teamwork.cancelled(action, PRIMARY).status is teamwork.Status.CANCELLED
    assert teamwork.blocked(by_storyteller, Move.CANCEL, PRIMARY) is Blocked.OVER
    assert teamwork.blocked(by_storyteller, Move.CANCEL, ANNA,
                            storyteller=True) is Blocked.OVER


def test_a_move_on_a_teamwork_that_is_over_is_blocked_whoever_asks() -> None:
    over = teamwork.cancelled(opened(), PRIMARY)
    assert teamwork.blocked(over, Move.HELP, ANNA) is Blocked.OVER
    assert teamwork.blocked(over, Move.HELP, PRIMARY) is Blocked.OVER
    assert teamwork.blocked(over, Move.REVISE, ANNA) is Blocked.OVER
    with pytest.raises(MoveBlocked):
        teamwork.helped(over, ANNA, "Anna", helper_roll(opened(), ANNA, [8]))


def test_the_scene_ending_closes_an_open_teamwork_only() -> None:
    ended = teamwork.scene_ended(opened())
    assert ended is not None and ended.status is teamwork.Status.SCENE_ENDED
    assert teamwork.scene_ended(ended) is None
    assert teamwork.blocked(ended, Move.ROLL, PRIMARY) is Blocked.OVER


def test_a_saved_teamwork_round_trips_through_json() -> None:
    action = opened()
    action = teamwork.helped(action, ANNA, "Anna", helper_roll(action, ANNA, [8, 2]))
    assert TeamworkAction.model_validate_json(action.model_dump_json()) == action


# --- contests -----------------------------------------------------------------------------------


def test_a_contest_against_the_storyteller_s_dice_is_decided_at_once() -> None:
    actor = rolled(request("cofd", 3), [8, 9, 2])
    opposition = rolled(request("cofd", 3), [8, 2, 3])
    state = contest.against("Ann", actor, opposition)
    assert (state.status, state.actor_name, state.opponent, state.opponent_id) == (
        ContestStatus.DECIDED, "Ann", opposition, None,
    )
    assert state.result is not None
    assert (state.result.winner, state.result.margin) == (Winner.ACTOR, 1)
    assert contest.resist_blocked(state, ANNA) is ResistBlocked.DECIDED


def test_a_challenged_contest_waits_for_the_named_opponent() -> None:
    actor = rolled(request("v20", 3), [6, 7, 2])
    state = contest.challenged("Ann", actor, opponent_id=BORIS, opponent_name="Boris",
                               opponent_difficulty=7)
    assert (state.status, state.opponent_id, state.opponent_name, state.result) == (
        ContestStatus.WAITING, BORIS, "Boris", None,
    )
    assert state.opponent_difficulty == 7
    assert contest.resist_blocked(state, ANNA) is ResistBlocked.NOT_OPPONENT
    assert contest.resist_blocked(state, BORIS) is None
    req = contest.resist_request(state, (Term(label="Wits", value=3),))
    assert (req.ruleset, req.terms, req.difficulty) == (
        actor.request.ruleset, (Term(label="Wits", value=3),), 7,
    )
    opponent = rolled(req, [7, 8, 2])
    with pytest.raises(
        ValueError, match=r"^only the named opponent resists, while the contest waits$"
    ):
        contest.resisted(state, ANNA, opponent)
    decided = contest.resisted(state, BORIS, opponent)
    assert (decided.status, decided.opponent) == (ContestStatus.DECIDED, opponent)
    assert decided.result is not None
    assert (decided.result.winner, decided.result.actor, decided.result.opponent) == (
        Winner.TIE, 2, 2,
    )
    assert contest.resist_blocked(decided, BORIS) is ResistBlocked.DECIDED
    assert contest.scene_ended(decided) is None


def test_a_refused_roll_cannot_challenge() -> None:
    refused = rolled(request("v20", 0), [])
    with pytest.raises(RuleError) as error:
        contest.challenged("Ann", refused, opponent_id=BORIS, opponent_name="Boris")
    assert error.value.refusal == Refusal.of(
        RefusalCode.CONTEST_ACTOR_REFUSED, cause=refused.refusal
    )


def test_the_scene_ending_closes_a_waiting_contest_undecided() -> None:
    actor = rolled(request("cofd", 2), [8, 2])
    state = contest.challenged("Ann", actor, opponent_id=BORIS, opponent_name="Boris")
    ended = contest.scene_ended(state)
    assert ended is not None
    assert (ended.status, ended.result) == (ContestStatus.SCENE_ENDED, None)
    assert contest.resist_blocked(ended, BORIS) is ResistBlocked.SCENE_ENDED
    assert contest.scene_ended(ended) is None


def test_a_contest_saved_before_its_status_existed_reads_it_from_the_verdict() -> None:
    actor = rolled(request("cofd", 2), [8, 2])
    decided = contest.against("Ann", actor, rolled(request("cofd", 2), [2, 3]))
    old = decided.model_dump(mode="json")
    del old["status"]
    assert contest.ContestState.model_validate(old).status is ContestStatus.DECIDED
    waiting = contest.challenged("Ann", actor, opponent_id=BORIS, opponent_name="Boris")
    old = waiting.model_dump(mode="json")
    del old["status"]
    assert contest.ContestState.model_validate(old).status is ContestStatus.WAITING


# --- extended: what the last roll's message offers ------------------------------------------------


def roll_record(result: RollResult, **fields: Any) -> RollRecord:
    values: dict[str, Any] = {
        "id": 7, "guild_id": 5, "channel_id": 6, "roller_id": PRIMARY, "roller_name": "Prim",
        "label": "Research", "private": False, "request": result.request, "result": result,
        "will_state": WillState.OFFERED, "beat": False, "retried": False, "closed": False,
        "void": False, "voided_by": None, "action_id": 3, "message_id": None,
        "copy_channel_id": None, "copy_message_id": None, "created_at": NOW, "updated_at": NOW,
    }
    values.update(fields)
    return RollRecord(**values)


def research_after_a_failure() -> tuple[ExtendedAction, RollResult]:
    state = extended.start(request("cofd", ("Wits", 2), ("Crafts", 2)), target=5, max_rolls=1)
    failed = rolled(extended.roll_request(state), [2, 3, 4, 5])
    step = extended.apply_roll(state, failed)
    action = ExtendedAction(state=step.state, owner_name="Prim", last=step, last_roll_id=7)
    return action, failed


def test_the_last_extended_roll_offers_will_and_a_beat_never_try_again() -> None:
    action, failed = research_after_a_failure()
    assert action.state.status is Status.FAILED
    assert not action.live
    offered = extended.roll_offers(action, roll_record(failed))
    assert offered.will and offered.beat and not offered.retry


def test_an_earlier_roll_or_a_decided_step_offers_nothing() -> None:
    action, failed = research_after_a_failure()
    assert not extended.roll_offers(action, roll_record(failed, id=6)).any()
    decided = action.model_copy(
        update={"state": action.state.model_copy(update={"undo": None})}
    )
    assert not extended.roll_offers(decided, roll_record(failed)).any()


def test_an_ended_action_stays_open_while_its_last_roll_can_change_it() -> None:
    action, failed = research_after_a_failure()
    assert extended.stored_status(action.state, roll_record(failed)) is ActionStatus.OPEN
    closed = roll_record(take_beat(failed), beat=True, closed=True)
    assert extended.stored_status(action.state, closed) is ActionStatus.CLOSED
    assert extended.stored_status(action.state, None) is ActionStatus.CLOSED


def test_an_open_action_is_stored_open() -> None:
    state = extended.start(request("v20", 3), target=5)
    assert extended.stored_status(state, None) is ActionStatus.OPEN
    action = ExtendedAction(state=state, owner_name="Prim")
    assert action.live
    assert action.decision is None and action.last is None


def test_a_saved_extended_action_round_trips_through_json() -> None:
    action, _ = research_after_a_failure()
    action = action.model_copy(update={"decision": Choice.ABANDON})
    assert ExtendedAction.model_validate_json(action.model_dump_json()) == action
