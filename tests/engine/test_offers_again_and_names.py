"""Roll again and Save this roll as a roll offers them, and the limits of a pool of trait
names: rules a mutation run found unpinned (TESTING.md)."""

from __future__ import annotations

import pytest

from engine.offers import Offers, offers
from engine.parser import MAX_TERMS, MAX_TEXT, NamedPart, PoolSyntaxError, parse_pool_names
from engine.refusals import Refusal, RefusalCode
from engine.saved import Asked
from tests.engine.test_offers_and_will import record, result

ASKED = Asked.of((NamedPart("Wits", None), NamedPart(None, 2)), {})


# --- Roll again and Save this roll --------------------------------------------------------


def test_a_roll_kept_as_asked_offers_roll_again_and_save_open_or_closed() -> None:
    success = result("cofd", 3, [8, 9, 2])
    for closed in (False, True):
        offered = offers(record(success, asked=ASKED, closed=closed))
        assert (offered.again, offered.save) == (True, True), closed


def test_an_actions_roll_offers_neither_roll_again_nor_save() -> None:
    offered = offers(record(result("cofd", 3, [8, 9, 2]), asked=ASKED, action_id=7))
    assert (offered.again, offered.save) == (False, False)


def test_a_roll_not_kept_as_asked_offers_neither() -> None:
    offered = offers(record(result("cofd", 3, [8, 9, 2])))
    assert (offered.again, offered.save) == (False, False)


def test_a_failed_labelled_roll_offers_try_again_in_place_of_roll_again() -> None:
    failed = record(result("cofd", 2, [3, 4]), asked=ASKED, label="force the door")
    offered = offers(failed)
    assert (offered.retry, offered.again, offered.save) == (True, False, True)
    # once closed, Try again goes and Roll again comes back
    closed = offers(failed.model_copy(update={"closed": True}))
    assert (closed.retry, closed.again) == (False, True)


def test_a_roll_rolled_again_offers_roll_again_no_more() -> None:
    offered = offers(record(result("cofd", 3, [8, 9, 2]), asked=ASKED, retried=True))
    assert (offered.again, offered.save) == (False, True)


@pytest.mark.parametrize("button", ["will", "beat", "retry", "again", "save"])
def test_a_message_with_any_one_button_has_buttons(button: str) -> None:
    assert Offers(**{button: True}).any()
    assert not Offers().any()


# --- pools of trait names: limits ---------------------------------------------------------


def _refusal(text: str) -> Refusal:
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool_names(text)
    return caught.value.refusal


def test_a_pool_of_names_of_exactly_the_maximum_length_passes() -> None:
    text = "Wits" + " " * (MAX_TEXT - 4)
    assert parse_pool_names(text) == (NamedPart("Wits", None),)


def test_a_pool_of_names_one_character_too_long_is_refused() -> None:
    text = "Wits" + " " * (MAX_TEXT - 3)
    assert _refusal(text) == Refusal.of(RefusalCode.POOL_TEXT_TOO_LONG, position=MAX_TEXT,
                                        length=MAX_TEXT + 1, max=MAX_TEXT)


def test_names_beyond_the_maximum_number_of_terms_are_refused_at_the_first_over() -> None:
    most = " + ".join(["Wits"] * MAX_TERMS)
    assert len(parse_pool_names(most)) == MAX_TERMS
    text = most + " - Wits"
    assert _refusal(text) == Refusal.of(RefusalCode.POOL_TOO_MANY_TERMS,
                                        position=text.rfind("Wits"), max=MAX_TERMS)


def test_a_name_or_number_after_a_minus_is_negative() -> None:
    assert parse_pool_names("Wits - Brawl + 2 - 1") == (
        NamedPart("Wits", None), NamedPart("Brawl", None, negative=True),
        NamedPart(None, 2), NamedPart(None, 1, negative=True),
    )
