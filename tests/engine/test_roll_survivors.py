"""Rules of `engine/roll.py`'s fast paths (issue 16), each pinned on scripted faces.

The roll engine reads faces through ready-made die tables, a memo of prepared
requests and an in-place cap on extra dice. Every test here is named after the
rule it pins; each one catches a mutant of those paths that the older tests let
through (TESTING.md lists the mutants no test can catch, with the reason).

mutmut forks each mutant's tests from a process that has already run the whole
suite, so the engine's memo caches arrive warm and the code that fills them
never runs again. The fixture below empties them before each test here, so
these tests read every table and prepare every request afresh.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

import engine.roll as roll_module
from engine.constants import MAX_EXTRA, MAX_POOL
from engine.faces import ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    WillUse,
)
from engine.parser import PoolSyntaxError, parse_pool
from engine.prepare import Prepared, prepare
from engine.records import ActionKind, ActionRecord, ActionStatus, WillPool
from engine.refusals import Refusal, RefusalCode
from engine.roll import roll, spend_will
from tests.engine.scripted import request, rolled

POOL, CHANCE, WILL, ROTE, EXTRA = (
    DieKind.POOL, DieKind.CHANCE, DieKind.WILL, DieKind.ROTE, DieKind.EXTRA,
)
SUCCESS, FAILURE, ONE = Fate.SUCCESS, Fate.FAILURE, Fate.ONE


def assert_plain_values(result: RollResult) -> None:
    """Every field the store writes as JSON has its own type: a count is a number, never
    ``true``/``false``; a flag is a boolean, never ``null``."""
    assert type(result.capped) is bool
    for die in result.dice:
        assert type(die.face) is int and type(die.round) is int, die
        assert type(die.successes) is int, die
        assert type(die.explodes) is bool, die
        assert die.pair is None or type(die.pair) is int, die


# --- the die tables: each face read by the rule of its roll ---------------------------------


def test_v20_a_one_reads_as_a_one_and_every_other_failure_as_a_failure() -> None:
    result = rolled("v20", 4, [1, 2, 3, 5])
    assert result.outcome is Outcome.BOTCH
    assert result.dice == (
        Die(1, 0, POOL, ONE), Die(2, 0, POOL, FAILURE), Die(3, 0, POOL, FAILURE),
        Die(5, 0, POOL, FAILURE),
    )
    assert_plain_values(result)


def test_fistful_a_one_reads_as_a_one_and_a_two_as_a_failure() -> None:
    result = rolled("fistful", 3, [2, 1, 4])
    assert result.outcome is Outcome.BOTCH and result.botch_degree == 1
    assert [die.fate for die in result.dice] == [FAILURE, ONE, FAILURE]


def test_cofd_a_one_is_a_plain_failure() -> None:
    result = rolled("cofd", 2, [1, 2])
    assert [die.fate for die in result.dice] == [FAILURE, FAILURE]


def test_fistful_a_one_on_an_extra_die_reads_as_a_one() -> None:
    # pool 1, trained: r0 10 · r1 1: one success; the extra 1 stands (a one, not a failure)
    result = rolled("fistful", 1, [10, 1])
    assert result.outcome is Outcome.SUCCESS and result.successes == 1
    assert result.dice == (
        Die(10, 0, POOL, SUCCESS, 1, True), Die(1, 1, EXTRA, ONE),
    )


class _Unchecked:
    """A face source that does not check its faces (ScriptedFaces refuses 0 and 11)."""

    def __init__(self, faces: list[int]) -> None:
        self._faces = faces

    def draw(self, count: int) -> list[int]:
        drawn, self._faces = self._faces[:count], self._faces[count:]
        return drawn


def test_a_face_outside_one_to_ten_is_read_by_the_same_thresholds() -> None:
    # the tables hold faces 1-10; any other face is built on demand by the same rule
    result = roll(request("cofd", 2, again="none"), _Unchecked([11, 0]))
    assert result.dice == (Die(11, 0, POOL, SUCCESS, 1), Die(0, 0, POOL, FAILURE))
    assert result.successes == 1


# --- round 0: which dice are the pool's and which Willpower's -------------------------------


@pytest.mark.parametrize("pool", [0, -1])
def test_cofd_declared_will_on_a_pool_below_one_rolls_only_will_dice(pool: int) -> None:
    result = rolled("cofd", pool, [8, 2, 3][: 3 + pool], will=True)
    assert [die.kind for die in result.dice] == [WILL] * (3 + pool)
    assert result.successes == 1


# --- not capped is false, never missing -------------------------------------------------------


@pytest.mark.parametrize(
    ("ruleset", "pool", "faces", "options", "outcome"),
    [
        ("cofd", 2, [8, 3], {}, Outcome.SUCCESS),
        ("cofd", 2, [10, 3], {"again": "none"}, Outcome.SUCCESS),
        ("cofd", 0, [10], {}, Outcome.SUCCESS),
        ("cofd", 0, [5], {}, Outcome.FAILURE),
        ("cofd", 0, [1], {}, Outcome.DRAMATIC_FAILURE),
        ("cofd", 0, [5, 1], {"rote": True}, Outcome.DRAMATIC_FAILURE),
        ("v20", 2, [7, 3], {}, Outcome.SUCCESS),
        ("v20", 2, [2, 3], {}, Outcome.FAILURE),
        ("v20", 2, [1, 3], {}, Outcome.BOTCH),
        ("v20", 6, [], {"auto": True}, Outcome.SUCCESS),
        ("fistful", 2, [8, 3], {}, Outcome.SUCCESS),
        ("fistful", 2, [2, 3], {}, Outcome.FAILURE),
        ("fistful", 2, [1, 3], {}, Outcome.BOTCH),
    ],
)
def test_a_roll_that_reaches_no_cap_says_capped_false(
    ruleset: str, pool: int, faces: list[int], options: dict[str, Any], outcome: Outcome
) -> None:
    result = rolled(ruleset, pool, faces, **options)
    assert result.outcome is outcome
    assert result.capped is False
    assert '"capped":false' in result.model_dump_json()
    assert_plain_values(result)


# --- pairs: both dice keep their own numbers ---------------------------------------------------


def test_v20_a_cancelling_one_counts_zero_successes_as_a_number() -> None:
    result = rolled("v20", 2, [8, 1])
    assert result.dice == (
        Die(8, 0, POOL, Fate.CANCELLED, 0, False, 1), Die(1, 0, POOL, Fate.CANCELS, 0, False, 0),
    )
    assert_plain_values(result)
    assert "false" not in str(result.model_dump(mode="json")["dice"])


def test_cofd_rote_replaced_die_counts_zero_successes_as_a_number() -> None:
    result = rolled("cofd", 2, [3, 8, 9], rote=True)
    assert result.dice == (
        Die(3, 0, POOL, Fate.REPLACED, 0, False, 2), Die(8, 0, POOL, SUCCESS, 1),
        Die(9, 0, ROTE, SUCCESS, 1, False, 0),
    )
    assert_plain_values(result)


def test_fistful_an_eaten_success_counts_zero() -> None:
    result = rolled("fistful", 2, [8, 1], untrained="mental")
    assert result.dice == (
        Die(8, 0, POOL, Fate.CANCELLED, 0, False, 1), Die(1, 0, POOL, Fate.CANCELS, 0, False, 0),
    )
    assert result.outcome is Outcome.FAILURE


def test_cofd_rote_chance_reroll_of_a_one_is_paired_with_the_chance_die() -> None:
    result = rolled("cofd", 0, [5, 1], rote=True)
    assert result.dice == (
        Die(5, 0, CHANCE, Fate.REPLACED, 0, False, 1), Die(1, 0, ROTE, ONE, 0, False, 0),
    )
    assert_plain_values(result)


@pytest.mark.parametrize("face", [10, 4])
def test_cofd_rote_chance_reroll_never_explodes(face: int) -> None:
    result = rolled("cofd", 0, [5, face], rote=True)
    assert result.dice[1] == Die(face, 0, ROTE, SUCCESS if face == 10 else FAILURE,
                                 1 if face == 10 else 0, False, 0)
    assert_plain_values(result)


def test_cofd_chance_one_counts_zero_successes_as_a_number() -> None:
    result = rolled("cofd", 0, [1])
    assert result.dice == (Die(1, 0, CHANCE, ONE),)
    assert_plain_values(result)


# --- Will after the roll: void faces grant nothing ---------------------------------------------


def test_a_void_face_left_by_will_after_neither_counts_nor_explodes() -> None:
    # pool 2 unskilled: r0 10 5 · r1 10 · r2 4; Will 1 3 3: the 1 eats the first 10,
    # so the round-1 10 and the round-2 4 are no longer asked for
    original = rolled("fistful", 2, [10, 5, 10, 4], untrained="social")
    source = ScriptedFaces([1, 3, 3])
    after = spend_will(original, source)
    assert source.remaining == 0
    assert after.will is WillUse.AFTER
    assert after.dice[-2:] == (
        Die(10, 1, EXTRA, Fate.VOID, 0, False), Die(4, 2, EXTRA, Fate.VOID, 0, False),
    )
    assert_plain_values(after)


# --- the cap on extra dice: exactly MAX_EXTRA, the first granters in order keep theirs -------

# 30 dice; 33 rounds of 30 extra dice make 990, leaving 10 below the cap. Round 33 holds
# 5 fives, 20 tens, 5 fives: its first 10 tens grant the last 10 extra dice, the other 10
# are unmarked. Round 34 is read without again: its 10 does not explode.
_TENS = 30
_FULL_ROUNDS = 32
_ROUND33 = [5] * 5 + [10] * 20 + [5] * 5
_ROUND34 = [10, 8, 1, 2, 3, 4, 5, 6, 7, 9]
_CAP_FACES = [10] * _TENS * (1 + _FULL_ROUNDS) + _ROUND33 + _ROUND34
assert _TENS * (_FULL_ROUNDS + 1) + len(_ROUND34) == MAX_EXTRA


def _expected_round33() -> list[tuple[int, bool]]:
    """(face, explodes) of round 33: the first ten tens in position order grant a die."""
    tens_seen = 0
    expected = []
    for face in _ROUND33:
        if face == 10:
            tens_seen += 1
        expected.append((face, face == 10 and tens_seen <= MAX_EXTRA - 990))
    return expected


@pytest.mark.parametrize("ruleset", ["cofd", "fistful"])
def test_the_cap_keeps_the_first_granters_of_its_round_and_rolls_exactly_max_extra(
    ruleset: str,
) -> None:
    result = rolled(ruleset, _TENS, _CAP_FACES)
    assert result.capped is True
    assert len(result.dice) == _TENS + MAX_EXTRA
    assert sum(die.kind is EXTRA for die in result.dice) == MAX_EXTRA
    # the earlier rounds granted their dice and keep their marks
    assert all(die.explodes for die in result.dice[: _TENS * (1 + _FULL_ROUNDS)])
    round33 = [die for die in result.dice if die.round == 33]
    assert round33 == [
        Die(face, 33, EXTRA, SUCCESS if face == 10 else FAILURE, 1 if face == 10 else 0,
            explodes)
        for face, explodes in _expected_round33()
    ]
    one = ONE if ruleset == "fistful" else FAILURE
    round34 = [die for die in result.dice if die.round == 34]
    assert round34 == [
        Die(face, 34, EXTRA, SUCCESS if face >= 8 else one if face == 1 else FAILURE,
            1 if face >= 8 else 0, False)
        for face in _ROUND34
    ]
    successes = _TENS * (1 + _FULL_ROUNDS) + 20 + 3
    assert (result.successes, result.dice_successes) == (successes, successes)
    assert_plain_values(result)


def test_fistful_exactly_max_extra_dice_with_no_ten_in_the_last_round_is_not_capped() -> None:
    result = rolled("fistful", 1, [10] * MAX_EXTRA + [3])
    assert result.capped is False
    assert result.successes == MAX_EXTRA
    assert result.dice[-1] == Die(3, MAX_EXTRA, EXTRA, FAILURE)
    assert result.dice[-2] == Die(10, MAX_EXTRA - 1, EXTRA, SUCCESS, 1, True)


# --- the memo of prepared requests -----------------------------------------------------------


@pytest.fixture
def prepare_calls(monkeypatch: pytest.MonkeyPatch) -> list[RollRequest]:
    """Every request the roll module asks :func:`engine.prepare.prepare` about."""
    calls: list[RollRequest] = []
    real = prepare

    def counted(req: RollRequest) -> Prepared | Refusal:
        calls.append(req)
        return real(req)

    monkeypatch.setattr(roll_module, "prepare", counted)
    return calls


def test_equal_requests_are_prepared_once(prepare_calls: list[RollRequest]) -> None:
    options: dict[str, Any] = {
        "adjustments": (Adjustment(kind=AdjustmentKind.TEAMWORK, dice=1),),
    }
    first = rolled("cofd", 3, [8, 2, 3, 9], **options)
    second = rolled("cofd", 3, [8, 2, 3, 9], **options)
    assert first == second and first.successes == 2
    assert len(prepare_calls) == 1


def test_requests_that_differ_in_one_value_are_never_read_alike(
    prepare_calls: list[RollRequest],
) -> None:
    faces = [8, 8, 1, 9, 10]
    results = [
        rolled("cofd", 3, faces[:3]),
        rolled("cofd", 2, faces[:2]),
        rolled("v20", 3, faces[:3]),
        rolled("cofd", 3, faces[:3], extra=2),
        roll(
            RollRequest(ruleset=Ruleset.COFD, terms=(Term(label="Wits", value=3),)),
            ScriptedFaces(faces[:3]),
        ),
        roll(
            request("cofd", 3, adjustments=(
                Adjustment(kind=AdjustmentKind.TEAMWORK, dice=1),
            )),
            ScriptedFaces(faces[:4]),
        ),
    ]
    assert [r.successes for r in results] == [2, 2, 1, 4, 2, 3]
    assert [len(r.dice) for r in results] == [3, 2, 3, 3, 3, 4]
    assert results[4].breakdown is not None
    assert results[4].breakdown.terms[0].label == "Wits"
    assert len(prepare_calls) == len(results)


@pytest.mark.parametrize("unvalidated", ["terms", "adjustments"])
def test_a_request_built_without_validation_is_prepared_every_time(
    unvalidated: str, prepare_calls: list[RollRequest]
) -> None:
    # a list where validation makes a tuple: not held in the memo, read correctly each time
    values: dict[str, Any] = {"terms": (Term(value=2),), "adjustments": ()}
    values[unvalidated] = list(values[unvalidated])
    unchecked = RollRequest.model_construct(ruleset=Ruleset.COFD, **values)
    for _ in range(2):
        result = roll(unchecked, ScriptedFaces([8, 3]))
        assert result.outcome is Outcome.SUCCESS and result.successes == 1
    assert len(prepare_calls) == 2
    assert roll_module._PREPARED == {}


def test_a_refusal_is_worked_out_afresh_each_time(prepare_calls: list[RollRequest]) -> None:
    refused = request("cofd", MAX_POOL + 1)
    first = roll(refused, ScriptedFaces([]))
    second = roll(refused, ScriptedFaces([]))
    assert first.refused and second.refused
    assert first.refusal == second.refusal == Refusal.of(
        RefusalCode.POOL_TOO_LARGE, dice=MAX_POOL + 1, max=MAX_POOL
    )
    assert first.refusal is not second.refusal
    assert len(prepare_calls) == 2


def test_the_memo_is_emptied_when_full_and_never_holds_more_than_its_size(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    full: dict[tuple[Any, ...], Prepared | None] = {
        (n,): None for n in range(roll_module._PREPARED_MAX - 1)
    }
    monkeypatch.setattr(roll_module, "_PREPARED", full)
    assert rolled("cofd", 1, [8]).successes == 1
    assert len(roll_module._PREPARED) == roll_module._PREPARED_MAX
    assert rolled("cofd", 2, [8, 8]).successes == 2
    assert len(roll_module._PREPARED) == 1


# --- a stored action as a write left it ---------------------------------------------------------


def test_a_saved_action_record_holds_the_new_state_version_and_status() -> None:
    now = datetime(2026, 11, 23, tzinfo=UTC)
    before, after = WillPool(guild_id=5, user_id=11, current=2, maximum=5), WillPool(
        guild_id=5, user_id=11, current=4, maximum=5
    )
    record = ActionRecord(
        id=1, kind=ActionKind.EXTENDED, guild_id=5, channel_id=6, owner_id=11,
        label="Research", status=ActionStatus.OPEN, state_json=before.model_dump_json(),
        version=3, message_id=None, created_at=now, updated_at=now,
    )
    saved = record.saved(after, 4, ActionStatus.CLOSED)
    assert saved.state(WillPool) == after
    assert (saved.state_json, saved.version, saved.status) == (
        after.model_dump_json(), 4, ActionStatus.CLOSED,
    )
    assert saved.model_dump(exclude={"state_json", "version", "status"}) == record.model_dump(
        exclude={"state_json", "version", "status"}
    )
    assert saved.model_dump().keys() == record.model_dump().keys()
    assert record.state(WillPool) == before and record.version == 3


# --- refusals raised as errors carry the refusal itself ----------------------------------------


def test_a_pool_syntax_error_carries_its_refusal_as_its_argument() -> None:
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool("Strength 3 +")
    error = caught.value
    assert error.args == (error.refusal,)
    assert repr(error.refusal) in repr(error)
    assert str(error) == error.refusal.code.value


@pytest.mark.parametrize("ruleset", ["cofd", "fistful"])
def test_declared_will_is_listed_in_the_breakdown_as_three_dice(ruleset: str) -> None:
    """RULES.md §0: every automatic adjustment is in the breakdown; Will in cofd and fistful
    is +3 dice (v20's is +1 success, no dice)."""
    result = roll(request(ruleset, 2, will=True), ScriptedFaces([2, 3, 4, 5, 6]))
    assert result.breakdown is not None
    will_lines = [
        adjustment.dice
        for adjustment in result.breakdown.adjustments
        if adjustment.kind is AdjustmentKind.WILLPOWER
    ]
    assert will_lines == [3]
    assert result.breakdown.dice == 5
