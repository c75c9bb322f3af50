"""Character rules a mutation run found unpinned (TESTING.md): template defaults, value
limits, what an import refuses (named with the values its message shows), pools by
name and autocomplete."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.characters import (
    MAX_BIG,
    MAX_IMPORT_BYTES,
    MAX_NAME,
    MAX_SPECIALTIES,
    MAX_TEXT,
    MAX_TRAIT_NAME,
    MAX_VALUE,
    Character,
    TraitGroup,
    add_condition,
    add_specialty,
    exported,
    imported,
    new_sheet,
    resolve,
    set_traits,
    suggestions,
)
from engine.models import Ruleset, SkillCategory
from engine.parser import parse_pool_names
from engine.refusals import Refusal, RefusalCode
from tests.engine.test_characters import resolved, sheet_with


def _cofd_file() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(exported(new_sheet("Alice", Ruleset.COFD)))
    return loaded


def _import(data: dict[str, Any]) -> Character | tuple[Refusal, ...]:
    return imported(json.dumps(data).encode())


# --- templates ---------------------------------------------------------------------------


def test_v20_template_starts_abilities_at_0_and_attributes_virtues_willpower_at_1() -> None:
    sheet = new_sheet("A", Ruleset.V20)
    by_group = {group: {t.value for t in sheet.traits if t.group is group}
                for group in TraitGroup}
    assert by_group[TraitGroup.ATTRIBUTE] == {1}
    assert by_group[TraitGroup.SKILL] == {0}
    assert by_group[TraitGroup.VIRTUE] == {1}
    willpower = sheet.trait("Willpower")
    assert willpower is not None
    assert (willpower.value, willpower.group) == (1, TraitGroup.ADVANTAGE)


# --- value limits (RULES.md §6: 0-10, Will maximum and Health up to 30) -------------------


@pytest.mark.parametrize(("ruleset", "trait"), [
    (Ruleset.V20, "Willpower"),  # a trait of its own in v20, not derived
    (Ruleset.V20, "Health"),  # a trait a v20 sheet adds: Health still goes to 30
    (Ruleset.COFD, "Defense"),  # a derived trait set by hand
    (Ruleset.COFD, "Health"),
])
def test_will_health_and_derived_traits_go_up_to_30(ruleset: Ruleset, trait: str) -> None:
    sheet = new_sheet("A", ruleset)
    answer = set_traits(sheet, [(trait, MAX_BIG)])
    assert not isinstance(answer, Refusal), answer
    assert answer[0].trait(trait).value == MAX_BIG  # type: ignore[union-attr]
    assert set_traits(sheet, [(trait, MAX_BIG + 1)]) == Refusal.of(
        RefusalCode.TRAIT_VALUE_RANGE, trait=trait, value=MAX_BIG + 1, high=MAX_BIG)


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_any_other_trait_stops_at_10(ruleset: Ruleset) -> None:
    sheet = new_sheet("A", ruleset)
    assert not isinstance(set_traits(sheet, [("Sword", MAX_VALUE)]), Refusal)
    assert set_traits(sheet, [("Sword", MAX_VALUE + 1)]) == Refusal.of(
        RefusalCode.TRAIT_VALUE_RANGE, trait="Sword", value=MAX_VALUE + 1, high=MAX_VALUE)


# --- import: every problem, with the values its message names ---------------------------


def test_an_import_names_every_problem_with_its_values() -> None:
    data = _cofd_file()
    data["name"] = "Al\x07ice"
    data["traits"][0]["specialties"] = ["Quick"]  # Intelligence, an Attribute
    data["traits"] += [{"name": "wits", "value": 2}, {"name": "9 lives", "value": 1},
                       {"name": "Sword", "value": 12}]
    data["conditions"] = ["Sha\x00ken"]
    data["will"] = 9

    assert _import(data) == (
        Refusal.of(RefusalCode.CHARACTER_NAME_CONTROL),
        Refusal.of(RefusalCode.SPECIALTY_NOT_SKILL, trait="Intelligence"),
        Refusal.of(RefusalCode.TRAIT_DUPLICATE, name="wits"),
        Refusal.of(RefusalCode.TRAIT_NAME_INVALID, name="9 lives", max=MAX_TRAIT_NAME),
        Refusal.of(RefusalCode.TRAIT_VALUE_RANGE, trait="Sword", value=12, high=MAX_VALUE),
        Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT),
        Refusal.of(RefusalCode.WILL_ABOVE_MAXIMUM, will=9, maximum=2),
    )


def test_an_imported_name_of_spaces_only_is_refused_with_the_length_allowed() -> None:
    data = _cofd_file()
    data["name"] = "   "

    assert _import(data) == (Refusal.of(RefusalCode.CHARACTER_NAME_LENGTH, max=MAX_NAME),)


def _with_specialties(count: int) -> dict[str, Any]:
    data = _cofd_file()
    skills = [trait for trait in data["traits"] if trait["group"] == "skill"]
    for n in range(count):
        skills[n % len(skills)]["specialties"].append(f"Art {n}")
    return data


def test_an_import_keeps_30_specialties_and_refuses_31() -> None:
    assert isinstance(_import(_with_specialties(MAX_SPECIALTIES)), Character)
    assert _import(_with_specialties(MAX_SPECIALTIES + 1)) == (
        Refusal.of(RefusalCode.TOO_MANY_SPECIALTIES, max=MAX_SPECIALTIES),
    )


def test_an_imported_specialty_of_bad_text_is_refused() -> None:
    data = _cofd_file()
    skill = next(trait for trait in data["traits"] if trait["group"] == "skill")
    skill["specialties"] = ["x" * (MAX_TEXT + 1)]

    assert _import(data) == (Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT),)


def test_an_import_file_of_exactly_the_limit_is_read_and_one_byte_more_is_refused() -> None:
    text = exported(new_sheet("Alice", Ruleset.COFD)).encode()
    padded = text + b" " * (MAX_IMPORT_BYTES - len(text))  # JSON allows trailing spaces
    assert isinstance(imported(padded), Character)
    assert imported(padded + b" ") == (Refusal.of(
        RefusalCode.IMPORT_TOO_LARGE, size=MAX_IMPORT_BYTES + 1, max=MAX_IMPORT_BYTES),)


def test_an_import_missing_a_field_names_the_field_and_the_problem() -> None:
    data = _cofd_file()
    del data["name"]

    problems = _import(data)

    assert isinstance(problems, tuple) and len(problems) == 1
    assert problems[0].code is RefusalCode.IMPORT_FIELD
    assert (problems[0].params["field"], problems[0].params["problem"]) == ("name", "missing")


# --- Conditions and specialties: 1 to 64 characters, no control characters -------------


@pytest.mark.parametrize("text", ["a", "x" * MAX_TEXT, "  Shaken  "])
def test_a_condition_of_1_to_64_characters_is_kept(text: str) -> None:
    answer = add_condition(new_sheet("A", Ruleset.COFD), text)
    assert isinstance(answer, Character), answer
    assert len(answer.conditions) == 1


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_TEXT + 1), "Sh\u200bk", "Sh\x00k"])
def test_a_condition_empty_too_long_or_with_control_characters_is_refused(text: str) -> None:
    assert add_condition(new_sheet("A", Ruleset.COFD), text) == Refusal.of(
        RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT)


# --- pools by name -----------------------------------------------------------------------


def test_typed_numbers_keep_their_sign() -> None:
    terms = resolved("Wits - 2 + Brawl - Penalty 1", sheet_with(("Wits", 3), ("Brawl", 2))).terms
    assert [term.value for term in terms] == [3, -2, 2, -1]


def test_the_roll_limit_counts_named_traits_typed_or_not_and_never_bare_numbers() -> None:
    """RULES.md §1 (extended actions): Attribute + Skill + Specialty from the pool's named
    traits; a bare bonus or a penalty is not one of them."""
    sheet = sheet_with(("Intelligence", 3), ("Academics", 2))
    assert resolved("Intelligence + Academics", sheet).attribute_and_skill == 5
    assert resolved("Intelligence 4 + Academics 2 + 1 - 2", sheet).attribute_and_skill == 6
    assert resolved("Intelligence + Academics - Wound 1", sheet).attribute_and_skill == 5


def test_a_specialty_adds_one_to_the_roll_limit() -> None:
    sheet = add_specialty(sheet_with(("Wits", 3), ("Brawl", 2)), "Brawl", "Boxing")
    assert isinstance(sheet, Character)
    with_spec = resolved("Wits + Brawl", sheet, spec="Box")
    assert (with_spec.attribute_and_skill, with_spec.specialty) == (6, "Brawl: Boxing")
    assert resolved("Wits + Brawl", sheet).attribute_and_skill == 5


def test_the_named_skills_are_listed_as_the_pool_spells_them() -> None:
    sheet = sheet_with(("Brawl", 2))
    assert resolved("Wits + brawl + Athl", sheet).skills == ("Brawl", "Athletics")


@pytest.mark.parametrize("pool", ["Wits + Athletics + Academics", "Wits + Academics + Athletics"])
def test_two_untrained_skills_take_the_mental_penalty_once_and_name_its_skill(pool: str) -> None:
    """RULES.md §6: with two 0-dot Skills, the larger penalty, once; the breakdown names
    the Skill the penalty comes from (Academics, Mental: -3), not the other."""
    found = resolved(pool, sheet_with())
    assert (found.untrained, found.untrained_skill) == (SkillCategory.MENTAL, "Academics")


def test_one_untrained_skill_is_named_with_its_own_category() -> None:
    found = resolved("Dexterity + Athletics", sheet_with())
    assert (found.untrained, found.untrained_skill) == (SkillCategory.PHYSICAL, "Athletics")


def test_a_name_without_a_character_is_refused_naming_it() -> None:
    assert resolve(parse_pool_names("Wits + 2"), None) == Refusal.of(
        RefusalCode.CHARACTER_NONE, name="Wits")


# --- autocomplete ------------------------------------------------------------------------


@pytest.mark.parametrize(("typed", "head"), [
    ("Strength - Br", "Strength - "),
    ("[Strength + Br", "[Strength + "),
    ("Wits + Composure + Br", "Wits + Composure + "),
    ("Wits+Br", "Wits+ "),
    ("Wits + [Br", "Wits + [ "),
    ("Br", ""),
])
def test_autocomplete_completes_the_word_after_the_last_sign_or_bracket(
    typed: str, head: str
) -> None:
    assert suggestions(sheet_with(("Brawl", 2)), typed) == ((f"{head}Brawl 2", f"{head}Brawl"),)


def test_autocomplete_stays_within_discords_100_characters() -> None:
    typed = "Wits + " * 14 + "Br"  # 100 characters before the completion
    shown, value = suggestions(sheet_with(("Brawl", 2)), typed)[0]
    assert (len(shown), len(value)) == (100, 100)
    assert shown == value == (typed[:-2] + "Brawl 2")[:100]
