"""What a stored roll offers (Spend Will, Take a Beat, Try again) and the Will pool rules.

RULES.md §1 (Take a Beat), §4 (Willpower after the roll) and §3 "Will pool",
on the engine's records, without a store: each rule of :mod:`engine.offers`,
:mod:`engine.will` and :mod:`engine.records` pinned by name.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import pytest

from engine import offers, will
from engine.constants import MAX_POOL
from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.odds import odds
from engine.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    Change,
    ChannelConfig,
    ChannelOption,
    DiceOrder,
    Language,
    PressRefusal,
    RollRecord,
    WillPool,
    WillState,
    WillTiming,
    given_label,
    label_key,
)
from engine.refusals import RefusalCode
from engine.roll import roll, spend_will, take_beat

ROLLER, OTHER = 11, 22
NOW = datetime(2026, 11, 23, tzinfo=UTC)


def result(ruleset: str, pool: int, faces: list[int], **options: Any) -> RollResult:
    request = RollRequest(ruleset=Ruleset(ruleset), terms=(Term(value=pool),), **options)
    return roll(request, ScriptedFaces(faces))


def record(rolled: RollResult, **fields: Any) -> RollRecord:
    values: dict[str, Any] = {
        "id": 1, "guild_id": 5, "channel_id": 6, "roller_id": ROLLER, "roller_name": "Ann",
        "label": None, "private": False, "request": rolled.request, "result": rolled,
        "will_state": WillState.OFFERED, "beat": False, "retried": False, "closed": False,
        "void": False, "voided_by": None, "action_id": None, "message_id": None,
        "copy_channel_id": None, "copy_message_id": None, "created_at": NOW, "updated_at": NOW,
    }
    values.update(fields)
    return RollRecord(**values)


def pool(current: int, maximum: int = 5) -> WillPool:
    return WillPool(guild_id=5, user_id=ROLLER, current=current, maximum=maximum)


CONFIG = ChannelConfig(guild_id=5, channel_id=6)
FAILURE = result("cofd", 2, [2, 3])
SUCCESS = result("cofd", 2, [8, 3])


# --- will_state_for: whether a new roll's message offers Spend Will -------------------------


def test_a_roll_with_will_declared_is_stored_as_declared() -> None:
    declared = result("cofd", 1, [2, 3, 4, 5], will=True)
    assert offers.will_state_for(declared, CONFIG) is WillState.DECLARED


def test_a_plain_roll_offers_will_whatever_its_outcome() -> None:
    assert offers.will_state_for(FAILURE, CONFIG) is WillState.OFFERED
    assert offers.will_state_for(SUCCESS, CONFIG) is WillState.OFFERED


def test_a_channel_that_wants_will_declared_before_rolling_offers_no_button() -> None:
    before = CONFIG.model_copy(update={"will_timing": WillTiming.BEFORE})
    assert offers.will_state_for(FAILURE, before) is WillState.NONE


def test_a_roll_the_rules_refuse_will_on_offers_no_button() -> None:
    automatic = result("v20", 6, [], auto=True)
    assert offers.will_state_for(automatic, CONFIG) is WillState.NONE
    too_low = result("cofd", -3, [4])
    assert offers.will_state_for(too_low, CONFIG) is WillState.NONE


# --- will_again: whether Try again or Roll again declares Will again ----------------------


@pytest.mark.parametrize("timing", list(WillTiming))
@pytest.mark.parametrize("declared", [True, False])
def test_a_retry_declares_will_again_only_where_no_button_would_offer_it(
    timing: WillTiming, declared: bool
) -> None:
    """"The same request" (COMMANDS.md): where Will is declared before rolling, a roll
    made with Will declared is retried with it; where the new roll offers Spend Will, the
    player chooses again after the dice; a roll made without Will is retried without."""
    rolled = result("cofd", 1, [2, 3, 4, 5], will=True) if declared else FAILURE
    config = CONFIG.model_copy(update={"will_timing": timing})
    assert offers.will_again(record(rolled), config) is (
        declared and timing is WillTiming.BEFORE)


# --- beat_allowed and offers ------------------------------------------------------------------


def test_a_beat_is_allowed_only_on_a_cofd_failure_without_a_beat() -> None:
    assert offers.beat_allowed(FAILURE)
    assert not offers.beat_allowed(SUCCESS)
    assert not offers.beat_allowed(result("cofd", 0, [1]))
    assert not offers.beat_allowed(take_beat(FAILURE))
    assert not offers.beat_allowed(result("fistful", 2, [2, 3]))


def test_an_open_failed_labelled_roll_offers_every_button() -> None:
    found = offers.offers(record(FAILURE, label="Pick the lock"))
    assert found == offers.Offers(will=True, beat=True, retry=True)
    assert found.any()


def test_a_closed_or_void_roll_offers_nothing() -> None:
    for fields in ({"closed": True}, {"void": True}):
        found = offers.offers(record(FAILURE, label="Pick the lock", **fields))
        assert found == offers.Offers()
        assert not found.any()


def test_will_is_offered_only_in_the_offered_state() -> None:
    for state in (WillState.NONE, WillState.DECLARED, WillState.SPENT):
        assert not offers.offers(record(FAILURE, will_state=state)).will
    only_will = offers.offers(record(SUCCESS))
    assert only_will == offers.Offers(will=True)
    assert only_will.any()


def test_try_again_needs_a_label_a_failure_no_retry_yet_and_no_action() -> None:
    assert not offers.offers(record(FAILURE)).retry
    assert not offers.offers(record(FAILURE, label="")).retry
    assert not offers.offers(record(SUCCESS, label="Climb")).retry
    assert not offers.offers(record(FAILURE, label="Climb", retried=True)).retry
    assert not offers.offers(record(FAILURE, label="Climb", action_id=3)).retry
    assert offers.offers(record(FAILURE, label="Climb")).retry


def test_only_a_beat_makes_any_true() -> None:
    assert offers.Offers(beat=True).any()
    assert offers.Offers(retry=True).any()


# --- refusals of a press, in the order a player should hear them ------------------------------


def test_a_press_on_a_missing_void_or_foreign_roll_is_refused_in_that_order() -> None:
    assert offers.pressed_refusal(None, ROLLER) is PressRefusal.NOT_FOUND
    assert offers.pressed_refusal(record(FAILURE, void=True, roller_id=OTHER),
                                  ROLLER) is PressRefusal.VOID
    assert offers.pressed_refusal(record(FAILURE), OTHER) is PressRefusal.NOT_ROLLER
    assert offers.pressed_refusal(record(FAILURE), ROLLER) is None


def test_spend_will_refusals_in_order() -> None:
    assert offers.will_spend_refusal(None, ROLLER, None) is PressRefusal.NOT_FOUND
    assert offers.will_spend_refusal(record(FAILURE), OTHER, None) is PressRefusal.NOT_ROLLER
    beat = record(FAILURE, beat=True, will_state=WillState.SPENT, closed=True)
    assert offers.will_spend_refusal(beat, ROLLER, pool(0)) is PressRefusal.BEAT_TAKEN
    spent = record(FAILURE, will_state=WillState.SPENT, closed=True)
    assert offers.will_spend_refusal(spent, ROLLER, pool(0)) is PressRefusal.ALREADY_SPENT
    declared = record(FAILURE, will_state=WillState.DECLARED, closed=True)
    assert offers.will_spend_refusal(declared, ROLLER, pool(0)) is PressRefusal.DECLARED
    none = record(FAILURE, will_state=WillState.NONE, closed=True)
    assert offers.will_spend_refusal(none, ROLLER, pool(0)) is PressRefusal.NOT_OFFERED
    closed = record(FAILURE, closed=True)
    assert offers.will_spend_refusal(closed, ROLLER, pool(0)) is PressRefusal.CLOSED
    assert offers.will_spend_refusal(record(FAILURE), ROLLER, pool(0)) is PressRefusal.NO_WILL


def test_spend_will_is_allowed_from_an_untracked_or_non_empty_pool() -> None:
    assert offers.will_spend_refusal(record(FAILURE), ROLLER, None) is None
    assert offers.will_spend_refusal(record(FAILURE), ROLLER, pool(1)) is None


def test_take_a_beat_refusals_in_order() -> None:
    assert offers.beat_refusal(None, ROLLER) is PressRefusal.NOT_FOUND
    assert offers.beat_refusal(record(FAILURE, void=True), ROLLER) is PressRefusal.VOID
    assert offers.beat_refusal(record(FAILURE, beat=True, closed=True),
                               ROLLER) is PressRefusal.BEAT_TAKEN
    assert offers.beat_refusal(record(FAILURE, closed=True), ROLLER) is PressRefusal.CLOSED
    assert offers.beat_refusal(record(FAILURE), ROLLER) is None


def test_try_again_refusals_in_order() -> None:
    assert offers.retry_refusal(None, ROLLER) is PressRefusal.NOT_FOUND
    assert offers.retry_refusal(record(FAILURE), OTHER) is PressRefusal.NOT_ROLLER
    assert offers.retry_refusal(record(FAILURE, retried=True, closed=True),
                                ROLLER) is PressRefusal.ALREADY_RETRIED
    assert offers.retry_refusal(record(FAILURE, closed=True), ROLLER) is PressRefusal.CLOSED
    assert offers.retry_refusal(record(FAILURE, label="Climb"), ROLLER) is None


def test_try_again_is_refused_as_stale_where_the_roll_does_not_offer_it() -> None:
    """Only a failed labelled roll of its own takes Try again: a press on any other (a
    failure Will turned into a success, a forged id) changes nothing."""
    for stale in (record(SUCCESS, label="Climb"), record(FAILURE, label=""),
                  record(FAILURE), record(FAILURE, label="Climb", action_id=3)):
        assert offers.retry_refusal(stale, ROLLER) is PressRefusal.STALE
        assert not offers.offers(stale).retry


def test_a_spent_roll_record_keeps_the_reading_after_will() -> None:
    after = spend_will(FAILURE, ScriptedFaces([8, 2, 2]))
    stored = record(after, will_state=WillState.SPENT)
    assert offers.offers(stored) == offers.Offers()


# --- Will pools ------------------------------------------------------------------------------


def test_will_can_be_spent_from_an_untracked_pool_or_one_with_will_left() -> None:
    assert will.can_spend(None)
    assert will.can_spend(pool(1))
    assert not will.can_spend(pool(0))


def test_spending_takes_one_will_and_an_empty_pool_cannot_spend() -> None:
    assert will.spent(pool(1)) == pool(0)
    assert will.spent(pool(5)) == pool(4)
    with pytest.raises(ValueError, match=r"^no Will left to spend$"):
        will.spent(pool(0))


def test_regaining_never_goes_above_the_maximum() -> None:
    assert will.regained(pool(3), 1) == pool(4)
    assert will.regained(pool(3), 2) == pool(5)
    assert will.regained(pool(4), 3) == pool(5)
    with pytest.raises(ValueError, match="at least 1"):
        will.regained(pool(3), 0)


def test_a_new_pool_starts_full() -> None:
    assert will.set_pool(None, 5, ROLLER, 4) == pool(4, 4)


def test_a_changed_maximum_keeps_current_will_lowered_to_the_new_maximum() -> None:
    assert will.set_pool(pool(3), 5, ROLLER, 6) == pool(3, 6)
    assert will.set_pool(pool(5), 5, ROLLER, 2) == pool(2, 2)
    assert will.set_pool(pool(2), 5, ROLLER, 2) == pool(2, 2)


def test_current_will_given_explicitly_wins() -> None:
    assert will.set_pool(pool(3), 5, ROLLER, 6, current=1) == pool(1, 6)
    assert will.set_pool(None, 5, ROLLER, 6, current=0) == pool(0, 6)


def test_the_will_maximum_is_at_most_thirty() -> None:
    assert will.set_pool(None, 5, ROLLER, will.MAX_WILL).maximum == will.MAX_WILL == 30
    with pytest.raises(ValueError, match="at most 30"):
        will.set_pool(None, 5, ROLLER, will.MAX_WILL + 1)
    with pytest.raises(ValueError, match="maximum"):
        will.set_pool(None, 5, ROLLER, 3, current=4)


def test_a_night_gives_one_will_to_every_pool_below_its_maximum() -> None:
    full, low, empty = pool(5), pool(3), pool(0, 2)
    assert will.night([full, low, empty]) == (
        Change[WillPool](old=low, new=pool(4)),
        Change[WillPool](old=empty, new=pool(1, 2)),
    )
    assert will.night([]) == ()


# --- records ----------------------------------------------------------------------------------


def test_labels_match_without_regard_to_case_or_runs_of_whitespace() -> None:
    assert label_key("Force the door") == label_key("  force \t the DOOR ") == "force the door"
    assert label_key("Straße") == "strasse"


@pytest.mark.parametrize(
    "text", ["", "   ", "\u200b", "\u2063", "\u200e", "\u0301", " \u2060\u200b ", "\u202e\u00a0",
             "\u3164", "\u115f\u1160", "\uffa0", "\u2800", " \u3164 \u2800 "]
)
def test_a_label_of_nothing_visible_is_no_label(text: str) -> None:
    """Spaces, format characters (a zero-width space, an invisible separator, a direction
    mark), combining marks and the blanks Unicode counts as letters or symbols (the Hangul
    fillers, the blank braille pattern: engine.text.BLANKS) alone show nothing: such
    a label is none, as a blank one."""
    assert given_label(text) is None


def test_a_label_keeps_its_words_and_loses_the_spaces_around_them() -> None:
    """Any letter, digit, punctuation or symbol is something to see; the spaces around a
    label are trimmed, what is inside it is kept as typed."""
    assert given_label("  Force  the door\t") == "Force  the door"
    assert given_label("\u200b7") == "\u200b7"
    assert [given_label(text) for text in ("ação", "?", "🎲", "é")] == ["ação", "?", "🎲", "é"]


def test_a_channel_config_gives_the_value_of_each_option() -> None:
    config = ChannelConfig(guild_id=5, channel_id=6, ruleset=Ruleset.V20, fistful_step=2,
                           text_only=True, dice_order=DiceOrder.SORTED, pressure=False,
                           will_timing=WillTiming.BEFORE, compact=True,
                           initiative_pool="Wits + Composure", language=Language.PT_BR)
    assert [config.value(option) for option in ChannelOption] == [
        Ruleset.V20, WillTiming.BEFORE, False, 2, True, DiceOrder.SORTED, True, False,
        "Wits + Composure", Language.PT_BR,
    ]
    assert ChannelConfig(guild_id=5, channel_id=6).value(ChannelOption.LANGUAGE) is None


def test_an_action_record_parses_its_state_as_the_model_given() -> None:
    state = pool(2)
    action = ActionRecord(
        id=1, kind=ActionKind.EXTENDED, guild_id=5, channel_id=6, owner_id=ROLLER,
        label="Research", status=ActionStatus.OPEN, state_json=state.model_dump_json(),
        version=1, message_id=None, created_at=NOW, updated_at=NOW,
    )
    assert action.state(WillPool) == state


def test_a_will_pool_never_holds_more_than_its_maximum() -> None:
    with pytest.raises(ValueError, match="above the maximum"):
        pool(6, 5)
    assert pool(5, 5).current == 5


# --- every number that reaches the engine is capped (a modified client skips Discord's) -------


@pytest.mark.parametrize(
    ("option", "value"), [("extra", 101), ("extra", 2_147_483_648), ("resist", 101)]
)
def test_cofd_extra_successes_and_resistance_are_capped_at_the_pool_limit(
    option: str, value: int
) -> None:

    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(label=None, value=3),),
                          **{option: value})

    result = roll(request, ScriptedFaces([]))
    assert result.refusal is not None
    assert result.refusal.code is RefusalCode.OUT_OF_RANGE
    assert result.refusal.params == {"option": option, "value": value, "low": 0,
                                     "high": MAX_POOL}
    chances = odds(request)
    assert chances.refusal == result.refusal


def test_cofd_extra_and_resistance_at_the_pool_limit_are_rolled() -> None:

    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(label=None, value=3),),
                          extra=100, resist=100)
    result = roll(request, ScriptedFaces([10]))
    assert not result.refused
    assert result.successes == 101  # the chance die's 10, and 100 extra successes


def test_a_roll_whose_sheet_was_deleted_takes_no_will_and_no_beat() -> None:
    """Will and Beats are the character's (RULES.md §6): once the sheet a roll was made
    with is deleted they have nowhere to come from or go, after who may press at all."""
    roll = record(FAILURE, label="Climb")
    assert offers.will_spend_refusal(roll, ROLLER, None, sheet_gone=True) \
        is PressRefusal.SHEET_GONE
    assert offers.beat_refusal(roll, ROLLER, sheet_gone=True) is PressRefusal.SHEET_GONE
    assert offers.beat_refusal(roll, OTHER, sheet_gone=True) is PressRefusal.NOT_ROLLER
    assert offers.will_spend_refusal(roll, ROLLER, None) is None
    assert offers.beat_refusal(roll, ROLLER) is None
