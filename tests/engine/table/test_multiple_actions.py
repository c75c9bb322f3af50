"""v20 multiple actions: action k has −k dice and +k difficulty; difficulty 10 refuses them all."""

from __future__ import annotations

from engine.models import Adjustment, AdjustmentKind
from engine.refusals import Refusal, RefusalCode
from engine.table import multi
from tests.engine.table.helpers import refused, request, rolled


def test_action_k_has_minus_k_dice_and_plus_k_difficulty_even_the_first() -> None:
    declared = multi.requests([request("v20", 5), request("v20", 6)])
    assert isinstance(declared, list)
    assert [r.adjustments for r in declared] == [
        (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-1, difficulty=1),),
        (Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-2, difficulty=2),),
    ]
    first = rolled(declared[0], [7, 7, 2, 3])
    assert first.breakdown is not None
    assert (first.breakdown.dice, first.breakdown.difficulty) == (4, 7)
    assert first.successes == 2
    second = rolled(declared[1], [8, 7, 9, 1])
    assert second.breakdown is not None
    assert (second.breakdown.dice, second.breakdown.difficulty) == (4, 8)
    assert second.successes == 1


def test_the_whole_declaration_is_refused_naming_the_action_that_would_reach_ten() -> None:
    declared = multi.requests(
        [request("v20", 6, difficulty=7), request("v20", 6, difficulty=7),
         request("v20", 6, difficulty=7), request("v20", 6, difficulty=7)]
    )
    assert isinstance(declared, multi.MultiRefusal)
    assert declared.action == 3
    assert declared.refusal == Refusal.of(
        RefusalCode.MULTI_ACTION_REFUSED, action=3, count=4,
        cause=Refusal.of(RefusalCode.DIFFICULTY_TOO_HIGH, difficulty=10, base=7, raised=3, high=10),
    )


def test_an_action_left_without_dice_refuses_the_declaration_too() -> None:
    declared = multi.requests([request("v20", 5), request("v20", 2)])
    assert isinstance(declared, multi.MultiRefusal)
    assert declared.action == 2
    assert declared.refusal.cause == Refusal.of(RefusalCode.NO_DICE, pool=0)


def test_declaring_again_does_not_stack_the_penalties() -> None:
    once = multi.requests([request("v20", 5), request("v20", 5)])
    assert isinstance(once, list)
    twice = multi.requests(once)
    assert twice == once


def test_multiple_actions_need_at_least_two_actions() -> None:
    with refused(RefusalCode.MULTI_TOO_FEW):
        multi.requests([request("v20", 5)])


def test_multiple_actions_are_a_v20_rule() -> None:
    with refused(RefusalCode.MULTI_NOT_V20, rulesets="cofd"):
        multi.requests([request("cofd", 5), request("cofd", 5)])
