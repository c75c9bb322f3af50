"""Closing a roll and Roll again (COMMANDS.md "Rolling", "Saved rolls"; RULES.md §4): when
closing a roll changes its message, and when Roll again acts on a stored roll."""

from __future__ import annotations

from engine.offers import again_refusal, closing_changes
from engine.parser import NamedPart
from engine.records import PressRefusal, WillState
from engine.saved import Asked
from tests.engine.test_offers_and_will import OTHER, ROLLER, record, result

ASKED = Asked.of((NamedPart("Wits", None), NamedPart(None, 2)), {})
SUCCESS = result("cofd", 3, [8, 9, 2])
COFD_FAILURE = result("cofd", 2, [2, 3])
V20_FAILURE = result("v20", 2, [2, 3])


# --- closing_changes: whether the message needs an edit when the roll closes -------------------


def test_closing_a_roll_that_offered_will_changes_its_message() -> None:
    assert closing_changes(record(SUCCESS, closed=True))


def test_closing_a_roll_that_offered_a_beat_changes_its_message() -> None:
    assert closing_changes(record(COFD_FAILURE, will_state=WillState.NONE, closed=True))


def test_closing_a_roll_that_offered_try_again_changes_its_message() -> None:
    closed = record(V20_FAILURE, will_state=WillState.NONE, label="Climb", closed=True)
    assert closing_changes(closed)


def test_closing_a_roll_whose_buttons_do_not_depend_on_the_moment_changes_nothing() -> None:
    # Roll again and Save this roll stay on a closed roll; no Will, Beat or Try again
    plain = record(SUCCESS, will_state=WillState.NONE, closed=True)
    assert not closing_changes(plain)
    assert not closing_changes(plain.model_copy(update={"asked": ASKED}))
    assert not closing_changes(record(SUCCESS, will_state=WillState.SPENT, closed=True))


def test_a_void_roll_always_changes_its_message() -> None:
    assert closing_changes(record(SUCCESS, will_state=WillState.NONE, void=True, closed=True))
    assert closing_changes(record(SUCCESS, will_state=WillState.NONE, void=True))


def test_a_roll_rolled_again_by_the_write_that_closed_it_changes_its_message() -> None:
    again = record(SUCCESS, will_state=WillState.NONE, asked=ASKED, retried=True, closed=True)
    assert closing_changes(again)
    assert not closing_changes(again.model_copy(update={"retried": False}))


# --- again_refusal: Roll again works on a closed roll too, once ---------------------------------


def test_roll_again_works_on_an_open_or_a_closed_roll() -> None:
    assert again_refusal(record(SUCCESS, asked=ASKED), ROLLER) is None
    assert again_refusal(record(SUCCESS, asked=ASKED, closed=True), ROLLER) is None


def test_roll_again_works_once() -> None:
    for closed in (False, True):
        again = record(SUCCESS, asked=ASKED, retried=True, closed=closed)
        assert again_refusal(again, ROLLER) is PressRefusal.ALREADY_RETRIED


def test_roll_again_refusals_in_order() -> None:
    assert again_refusal(None, ROLLER) is PressRefusal.NOT_FOUND
    void = record(SUCCESS, asked=ASKED, void=True, retried=True, roller_id=OTHER)
    assert again_refusal(void, ROLLER) is PressRefusal.VOID
    foreign = record(SUCCESS, asked=ASKED, retried=True, roller_id=OTHER)
    assert again_refusal(foreign, ROLLER) is PressRefusal.NOT_ROLLER
    assert again_refusal(foreign, OTHER) is PressRefusal.ALREADY_RETRIED
    assert again_refusal(record(SUCCESS, asked=ASKED, roller_id=OTHER), OTHER) is None
