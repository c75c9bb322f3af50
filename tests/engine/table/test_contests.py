"""Contested and resisted rolls: the winner, the margin and ties, per ruleset."""

from __future__ import annotations

import pytest

from engine.models import Degree, Outcome, Ruleset
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError
from engine.table.contest import (
    Winner,
    against,
    challenged,
    check_resisted,
    failures_after,
    resolve,
    scene_ended,
)
from tests.engine.table.helpers import refused, scripted


def test_cofd_more_successes_wins_by_the_difference() -> None:
    contest = resolve(
        Ruleset.COFD, scripted("cofd", 3, [8, 9, 2]), scripted("cofd", 3, [8, 2, 3])
    )
    assert (contest.winner, contest.margin, contest.actor, contest.opponent) == (
        Winner.ACTOR, 1, 2, 1,
    )
    assert contest.degree is None


def test_cofd_extra_successes_count_in_a_contest() -> None:
    actor = scripted("cofd", 3, [8, 2, 3], extra=2)
    opponent = scripted("cofd", 3, [8, 9, 2])
    contest = resolve(Ruleset.COFD, actor, opponent)
    assert (contest.winner, contest.margin) == (Winner.ACTOR, 1)


def test_cofd_exceptional_success_is_each_side_s_own_not_the_difference() -> None:
    actor = scripted("cofd", 6, [8, 8, 8, 8, 8, 2])
    opponent = scripted("cofd", 6, [8, 8, 8, 8, 2, 3])
    contest = resolve(Ruleset.COFD, actor, opponent)
    assert contest.margin == 1
    assert actor.outcome is Outcome.EXCEPTIONAL_SUCCESS


def test_cofd_equal_successes_are_a_tie() -> None:
    contest = resolve(
        Ruleset.COFD, scripted("cofd", 2, [8, 2]), scripted("cofd", 2, [3, 9])
    )
    assert (contest.winner, contest.margin) == (Winner.TIE, 0)


def test_cofd_a_dramatic_failure_counts_as_no_successes() -> None:
    contest = resolve(Ruleset.COFD, scripted("cofd", 0, [1]), scripted("cofd", 2, [8, 2]))
    assert (contest.winner, contest.margin) == (Winner.OPPONENT, 1)


def test_v20_more_net_successes_wins_and_the_degree_is_the_difference() -> None:
    actor = scripted("v20", 5, [6, 7, 8, 9, 2])
    opponent = scripted("v20", 3, [6, 1, 2])
    contest = resolve(Ruleset.V20, actor, opponent)
    assert (contest.winner, contest.margin, contest.degree) == (
        Winner.ACTOR, 4, Degree.EXCEPTIONAL,
    )


def test_v20_a_tie_means_neither_succeeds() -> None:
    contest = resolve(
        Ruleset.V20, scripted("v20", 3, [6, 7, 2]), scripted("v20", 3, [8, 9, 3])
    )
    assert (contest.winner, contest.margin, contest.degree) == (Winner.TIE, 0, None)


def test_v20_a_botch_counts_as_no_successes() -> None:
    contest = resolve(
        Ruleset.V20, scripted("v20", 2, [1, 2]), scripted("v20", 2, [6, 2])
    )
    assert (contest.winner, contest.margin, contest.degree) == (
        Winner.OPPONENT, 1, Degree.MARGINAL,
    )


def test_fistful_resistance_reduces_successes_both_ways() -> None:
    actor = scripted("fistful", 3, [8, 9, 2])
    opponent = scripted("fistful", 4, [8, 9, 10, 2, 3])
    contest = resolve(Ruleset.FISTFUL, actor, opponent)
    assert (contest.winner, contest.margin, contest.opponent) == (Winner.OPPONENT, 1, 3)


def test_fistful_equal_successes_leave_nobody_with_consequences() -> None:
    contest = resolve(
        Ruleset.FISTFUL, scripted("fistful", 2, [8, 2]), scripted("fistful", 2, [9, 3])
    )
    assert (contest.winner, contest.margin) == (Winner.TIE, 0)


def test_fistful_a_botch_counts_as_no_successes() -> None:
    actor = scripted("fistful", 2, [1, 2])
    assert actor.outcome is Outcome.BOTCH
    contest = resolve(Ruleset.FISTFUL, actor, scripted("fistful", 2, [2, 3]))
    assert (contest.winner, contest.margin) == (Winner.TIE, 0)


def test_a_refused_roll_cannot_be_contested() -> None:
    with pytest.raises(RuleError) as actor:
        resolve(Ruleset.V20, scripted("v20", 0, []), scripted("v20", 2, [6, 2]))
    assert actor.value.refusal == Refusal.of(
        RefusalCode.CONTEST_ACTOR_REFUSED, cause=Refusal.of(RefusalCode.NO_DICE, pool=0)
    )
    with pytest.raises(RuleError) as opponent:
        resolve(Ruleset.V20, scripted("v20", 2, [6, 2]), scripted("v20", 0, []))
    assert opponent.value.refusal.code is RefusalCode.CONTEST_OPPONENT_REFUSED


def test_both_sides_roll_in_the_contest_s_ruleset() -> None:
    with pytest.raises(RuleError) as error:
        resolve(Ruleset.V20, scripted("v20", 2, [6, 2]), scripted("cofd", 2, [8, 2]))
    assert error.value.refusal == Refusal.of(
        RefusalCode.CONTEST_OPPONENT_RULESET, rolled="cofd", ruleset="v20"
    )


def test_v20_each_side_of_a_resisted_roll_has_a_difficulty_of_2_to_9() -> None:
    """RULES.md §2 Resisted: each side's difficulty is set from the other's traits, at most
    9; the refusal names the option as the member typed it. None is the default 6."""
    check_resisted(Ruleset.V20, {"difficulty": 9, "opponent_difficulty": None})
    with refused(RefusalCode.OUT_OF_RANGE, option="opponent_difficulty", value=10, low=2, high=9):
        check_resisted(Ruleset.V20, {"difficulty": 2, "opponent_difficulty": 10})
    with refused(RefusalCode.OUT_OF_RANGE, option="difficulty", value=1, low=2, high=9):
        check_resisted(Ruleset.V20, {"difficulty": 1})
    check_resisted(Ruleset.FISTFUL, {"difficulty": 10})  # no difficulty there: prepare refuses it


@pytest.mark.parametrize(
    ("ruleset", "actor", "opponent", "after"),
    [
        ("cofd", [8, 9, 2], [8, 2, 3], 0),  # won: the action succeeded
        ("cofd", [8, 2, 3], [8, 9, 2], 3),  # lost, though Alice rolled a success
        ("cofd", [8, 2, 3], [9, 2, 3], 3),  # tied: nobody won, the actor neither
        ("v20", [6, 7, 2], [6, 2, 3], 0),
        ("v20", [6, 2, 3], [6, 7, 2], 3),
        ("v20", [6, 7, 2], [8, 9, 3], 3),  # "a tie: neither succeeds"
        ("fistful", [8, 2, 3], [9, 3, 4], 3),  # tied; counted alike, its penalty is none
    ],
    ids=["cofd-won", "cofd-lost", "cofd-tied", "v20-won", "v20-lost", "v20-tied",
         "fistful-tied"],
)
def test_a_contest_counts_as_an_attempt_by_its_verdict(
    ruleset: str, actor: list[int], opponent: list[int], after: int
) -> None:
    """RULES.md §1 and §2, successive attempts: a labelled contest is the actor's attempt,
    and it succeeded only if the actor won (**Decision**, every ruleset: won, the count
    starts over; lost or tied, one failure more, whatever the actor's own roll). Here
    after 2 failures in a row."""
    state = against("Alice", scripted(ruleset, 3, actor), scripted(ruleset, 3, opponent))
    assert failures_after(2, state) == after


def test_a_contest_decided_by_no_one_counts_no_attempt() -> None:
    """A contest still waiting for its resist, or closed by the end of the scene before
    it, has no verdict: the actor's count is left as it was."""
    waiting = challenged("Alice", scripted("cofd", 3, [2, 3, 4]), opponent_id=7,
                         opponent_name="Bob")
    assert failures_after(2, waiting) == 2
    ended = scene_ended(waiting)
    assert ended is not None
    assert failures_after(2, ended) == 2
