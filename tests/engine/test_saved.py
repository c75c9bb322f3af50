"""Saved rolls and rolls as asked (COMMANDS.md "Saved rolls"): a request kept in the
member's own words, the names saved rolls go by, and when a roll may be saved."""

from __future__ import annotations

import pytest

from engine.models import Again, Ruleset, SkillCategory
from engine.parser import parse_pool_names
from engine.refusals import Refusal, RefusalCode
from engine.saved import (
    MAX_NAME,
    MAX_SAVED,
    Asked,
    SaveRefusal,
    clean_name,
    name_key,
    never_rolls,
    options_apart,
    save_refusal,
)


def asked(text: str, **options: object) -> Asked:
    """The roll ``/saved add`` or a roll card keeps for ``text`` with ``options``."""
    return Asked.of(parse_pool_names(text), options)


# --- a roll as asked --------------------------------------------------------------------------


@pytest.mark.parametrize("text", [
    "Wits + Composure + Investigation 3 - 1",
    "-Wits + 3",
    "Strength 3 + Brawl - 2",
    "7",
])
def test_a_pool_is_kept_in_the_members_words_and_reads_back_as_parsed(text: str) -> None:
    kept = asked(text)
    assert kept.pool_text() == text
    assert kept.named_parts() == parse_pool_names(text)


def test_a_bare_name_stays_a_name_to_look_up_on_the_sheet_of_the_moment() -> None:
    kept = asked("Wits + Brawl 2 - Stealth")
    assert [(part.label, part.value, part.negative) for part in kept.parts] == [
        ("Wits", None, False), ("Brawl", 2, False), ("Stealth", None, True),
    ]


def test_an_asked_roll_keeps_the_options_given_and_never_will() -> None:
    kept = asked(
        "Wits + Composure", will=True, again=Again.EIGHT, rote=True, resist=1,
        untrained=SkillCategory.MENTAL, resist_target="Bob",
        # unset, False or 0: not given
        difficulty=None, specialty=False, extra=0,
    )
    assert kept.options == {
        "again": "8", "rote": True, "resist": 1, "untrained": "mental", "resist_target": "Bob",
    }
    assert Asked.model_validate_json(kept.model_dump_json()) == kept


def test_will_declared_is_left_out_whatever_its_value() -> None:
    for declared in (True, False, None):
        assert asked("Wits", will=declared).options == {}


def test_an_asked_roll_keeps_its_specialty() -> None:
    kept = Asked.of(parse_pool_names("Dexterity + Brawl"), {"rote": True}, "Boxing")
    assert (kept.spec, kept.options) == ("Boxing", {"rote": True})
    assert Asked.of(parse_pool_names("Dexterity + Brawl"), {}).spec is None


# --- /saved roll with extra modifiers ---------------------------------------------------------


@pytest.mark.parametrize(("dice", "text"), [
    (2, "Wits + Composure + 2"),
    (1, "Wits + Composure + 1"),
    (-1, "Wits + Composure - 1"),
    (-3, "Wits + Composure - 3"),
])
def test_a_modifier_adds_or_takes_away_dice_as_one_more_number(dice: int, text: str) -> None:
    kept = asked("Wits + Composure", rote=True)
    modified = kept.with_modifier(dice)
    assert modified.pool_text() == text
    assert modified.named_parts() == parse_pool_names(text)
    assert (modified.options, modified.spec) == (kept.options, kept.spec)
    assert kept.pool_text() == "Wits + Composure", "the saved roll itself is unchanged"


def test_a_modifier_of_zero_leaves_the_roll_as_saved() -> None:
    kept = asked("Wits + Composure - 1")
    assert kept.with_modifier(0) == kept
    assert kept.with_modifier(0).pool_text() == "Wits + Composure - 1"


# --- names ------------------------------------------------------------------------------------


def test_a_name_is_kept_without_surrounding_spaces_and_with_single_spaces() -> None:
    assert clean_name("  Sneak \t attack  ") == "Sneak attack"
    assert clean_name("Sneak attack") == "Sneak attack"


@pytest.mark.parametrize("other", ["sneak attack", "SNEAK  ATTACK", " Sneak-Attack ",
                                   "sneakattack", "Snéak áttack"])
def test_names_match_whatever_their_case_spaces_accents_and_hyphens(other: str) -> None:
    assert name_key(other) == name_key("Sneak attack")


def test_names_that_differ_in_a_letter_do_not_match() -> None:
    assert name_key("Sneak attacks") != name_key("Sneak attack")
    assert name_key("Snake attack") != name_key("Sneak attack")


# --- when a roll may be saved -----------------------------------------------------------------


@pytest.mark.parametrize("name", ["", "   ", "\t\n", "-", " ' - ' ", "!!!", "\u200b", "\u2063",
                                  "\x00", "\u202e", "** __ **"])
def test_a_name_without_a_letter_or_digit_is_refused_as_empty(name: str) -> None:
    """The refusal asks for a name with letters or digits: punctuation alone and invisible
    characters alone are refused too (they were saved, and listed as an empty ``****``)."""
    assert save_refusal(name, taken=False, count=0, replace=False) is SaveRefusal.NAME_EMPTY


@pytest.mark.parametrize("name", ["a\u200b", "\u200ba", "Punch\u00ad", "\u202epunch",
                                  "Sneak\u2060attack", "Kick\u200e", "Hit\ue000"])
def test_a_name_holding_an_invisible_character_beside_its_letters_is_refused(name: str) -> None:
    """A name is one line of visible characters, as a character's name is (save_refusal's
    Decision): ``a`` and a zero-width space would be saved beside ``a`` as another name
    that lists, and is offered, exactly like it."""
    assert save_refusal(name, taken=False, count=0, replace=False) is (
        SaveRefusal.NAME_INVISIBLE)
    assert save_refusal(name, taken=True, count=MAX_SAVED, replace=True) is (
        SaveRefusal.NAME_INVISIBLE)


@pytest.mark.parametrize("name", ["Família 👨\u200d👩\u200d👧",
                                  "Flag 🏴\U000e0067\U000e0062\U000e007f", "می\u200cخواهم"])
def test_the_joiners_emoji_and_scripts_need_are_kept_in_a_name(name: str) -> None:
    assert save_refusal(name, taken=False, count=0, replace=False) is None


def test_a_name_of_up_to_the_maximum_length_is_accepted_spaces_around_it_aside() -> None:
    longest = "x" * MAX_NAME
    assert save_refusal(longest, taken=False, count=0, replace=False) is None
    assert save_refusal(f"  {longest}  ", taken=False, count=0, replace=False) is None
    assert save_refusal("x", taken=False, count=0, replace=False) is None
    assert save_refusal("7", taken=False, count=0, replace=False) is None
    assert save_refusal("Ação!", taken=False, count=0, replace=False) is None


def test_a_name_one_character_too_long_is_refused() -> None:
    too_long = "x" * (MAX_NAME + 1)
    assert save_refusal(too_long, taken=False, count=0, replace=False) is (
        SaveRefusal.NAME_TOO_LONG)


def test_a_name_taken_is_refused_unless_the_member_asked_to_replace_it() -> None:
    assert save_refusal("Sneak", taken=True, count=3, replace=False) is SaveRefusal.NAME_TAKEN
    assert save_refusal("Sneak", taken=True, count=3, replace=True) is None


def test_replacing_a_saved_roll_is_allowed_even_with_the_most_saved_rolls() -> None:
    assert save_refusal("Sneak", taken=True, count=MAX_SAVED, replace=True) is None
    assert save_refusal("Sneak", taken=True, count=MAX_SAVED, replace=False) is (
        SaveRefusal.NAME_TAKEN)


def test_a_member_keeps_at_most_fifty_saved_rolls() -> None:
    assert MAX_SAVED == 50
    assert save_refusal("Sneak", taken=False, count=MAX_SAVED - 1, replace=False) is None
    assert save_refusal("Sneak", taken=False, count=MAX_SAVED, replace=False) is SaveRefusal.FULL
    assert save_refusal("Sneak", taken=False, count=MAX_SAVED, replace=True) is SaveRefusal.FULL


def test_a_bad_name_is_refused_before_whether_it_is_taken_or_the_member_is_full() -> None:
    for taken in (False, True):
        assert save_refusal("  ", taken=taken, count=MAX_SAVED,
                            replace=False) is SaveRefusal.NAME_EMPTY
        assert save_refusal("x" * (MAX_NAME + 1), taken=taken, count=MAX_SAVED,
                            replace=True) is SaveRefusal.NAME_TOO_LONG


# --- a roll no table can make ---------------------------------------------------------------


@pytest.mark.parametrize(("text", "options", "dice"), [
    ("60 + 60", {}, 120),
    ("Strength 60 + 41", {"rote": True}, 101),
    ("60 + 60 - 19", {}, 101),
    ("100", {}, None),
    ("60 + 60 - 20", {}, None),
    ("Strength + 60 + 60", {}, None),
    ("60 + 60", {"resist": 30}, None),
    ("60 + 60", {"resist_target": "Bob"}, None),
    ("60 + 60", {"untrained": SkillCategory.MENTAL}, None),
])
def test_a_pool_whose_typed_numbers_exceed_the_cap_never_rolls(
    text: str, options: dict[str, object], dice: int | None
) -> None:
    """The typed numbers, those taken away counted, over MAX_POOL: refused as /roll
    refuses it at any table; a trait named or an option that takes dice away leaves the
    size to the sheet and the ruleset when it rolls (never_rolls' Decision)."""
    expected = None if dice is None else Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=dice,
                                                    max=100)
    assert never_rolls(asked(text, **options)) == expected


def test_options_no_one_ruleset_has_together_are_apart() -> None:
    """Options are apart when no ruleset has them all (every table refuses them); options
    every ruleset or one ruleset has, and options of no ruleset's (resist_target), are not."""
    cofd, v20, fistful = Ruleset.COFD, Ruleset.V20, Ruleset.FISTFUL
    assert options_apart(asked("5", rote=True, difficulty=7)) == {
        "rote": frozenset({cofd}), "difficulty": frozenset({v20})}
    assert options_apart(asked("5", untrained=SkillCategory.MENTAL, specialty=True,
                               risky=True)) == {
        "untrained": frozenset({cofd, fistful}), "specialty": frozenset({cofd, v20}),
        "risky": frozenset({fistful})}
    assert options_apart(asked("5", untrained=SkillCategory.MENTAL, risky=True)) == {}
    assert options_apart(asked("5", rote=True, again=Again.NINE, resist_target="Bob")) == {}
    assert options_apart(asked("5")) == {}
