"""Character rules a mutation run found unpinned (TESTING.md): template defaults, value
limits, what an import refuses (named with the values its message shows), pools by
name and autocomplete."""

from __future__ import annotations

import json
from typing import Any

import pytest

from engine.characters import (
    MAX_BIG,
    MAX_CONDITIONS,
    MAX_IMPORT_BYTES,
    MAX_NAME,
    MAX_SPECIALTIES,
    MAX_TEXT,
    MAX_TRAIT_NAME,
    MAX_VALUE,
    Character,
    TraitGroup,
    _aliases,
    _field_problem,
    _owners,
    add_condition,
    add_specialty,
    exported,
    fold,
    imported,
    initiative_pool,
    initiative_terms,
    new_sheet,
    parse_assignments,
    remove_condition,
    remove_specialty,
    resist_trait,
    resolve,
    set_traits,
    suggestions,
    with_sheet,
)
from engine.models import RollRequest, Ruleset, SkillCategory, Term, TermSource
from engine.parser import parse_pool_names
from engine.refusals import Refusal, RefusalCode
from engine.trait_names import LOCALISED
from tests.engine.test_characters import refused, resolved, sheet_with


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
        Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT, field="conditions.0"),
        Refusal.of(RefusalCode.WILL_ABOVE_MAXIMUM, will=9, maximum=2),
    )


def test_an_import_keeps_traits_at_their_highest_value() -> None:
    """RULES.md §6: a value 0-10, Will maximum and Health up to 30; a file with each at
    its top is a sheet, and a trait of 10 dots at most refused one more."""
    data = _cofd_file()
    data["traits"] += [{"name": "Sword", "value": MAX_VALUE}, {"name": "Health", "value": MAX_BIG}]
    sheet = _import(data)
    assert isinstance(sheet, Character), sheet
    assert (sheet.value("Sword"), sheet.value("Health")) == (MAX_VALUE, MAX_BIG)
    data["traits"][-2]["value"] = MAX_VALUE + 1
    assert _import(data) == (Refusal.of(
        RefusalCode.TRAIT_VALUE_RANGE, trait="Sword", value=MAX_VALUE + 1, high=MAX_VALUE),)


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
    at, skill = next((at, trait) for at, trait in enumerate(data["traits"])
                     if trait["group"] == "skill")
    skill["specialties"] = ["Fast", "x" * (MAX_TEXT + 1)]

    assert _import(data) == (Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT,
                                        field=f"traits.{at}.specialties.1"),)


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
    ("Strength - Wits - Br", "Strength - Wits - "),
    ("[Strength + [Br", "[Strength + [ "),
    ("Br", ""),
])
def test_autocomplete_completes_the_word_after_the_last_sign_or_bracket(
    typed: str, head: str
) -> None:
    assert suggestions(sheet_with(("Brawl", 2)), typed) == ((f"{head}Brawl 2", f"{head}Brawl"),)


def test_autocomplete_completes_a_long_pool_in_full() -> None:
    """The trait's name is never cut off at Discord's 100 characters here: the edge leaves
    out a completion too long for Discord (bot.edge.completion.choices)."""
    typed = "Wits + " * 14 + "Br"  # 100 characters typed, 103 completed
    shown, value = suggestions(sheet_with(("Brawl", 2)), typed)[0]
    assert (shown, value) == (typed[:-2] + "Brawl 2", typed[:-2] + "Brawl")


# --- the tables of other languages' names (built once at import) -----------------------
# mutmut's forked tests never rebuild module-level tables, so these call the builders.


def test_each_template_trait_has_its_folded_name_and_spelling_in_each_language() -> None:
    aliases = _aliases()
    assert aliases["wits"] == {"pt-BR": ("raciocinio", "Raciocínio"),
                               "es-ES": ("astucia", "Astucia")}
    assert aliases["animalken"] == {"pt-BR": ("tratocomanimais", "Trato com Animais"),
                                    "es-ES": ("tratoconanimales", "Trato con Animales")}
    assert set(aliases) == {fold(name) for name in LOCALISED["pt-BR"]}


def test_another_languages_name_lists_every_trait_it_names_with_its_spelling() -> None:
    owners = _owners()
    # Autocontrole: Composure (cofd) and Self-Control (v20), two templates.
    assert owners["autocontrole"] == (("composure", "Autocontrole"),
                                      ("selfcontrol", "Autocontrole"))
    # Inteligência and Inteligencia fold alike: one trait, both spellings kept.
    assert owners["inteligencia"] == (("intelligence", "Inteligência"),
                                      ("intelligence", "Inteligencia"))


def test_will_vontade_and_voluntad_are_short_names_of_willpower_alone() -> None:
    """The short name each language's buttons and cards give Willpower names it wherever a
    trait's name is looked up (engine.characters._SHORT), spelled as typed."""
    owners = _owners()
    assert owners["will"] == (("willpower", "Will"),)
    assert owners["vontade"] == (("willpower", "Vontade"),)
    assert owners["voluntad"] == (("willpower", "Voluntad"),)


# --- the sheet's own look-ups -------------------------------------------------------------


def test_a_trait_the_sheet_does_not_have_is_none() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    assert sheet.trait("Sword") is None
    assert sheet.trait("Defense") is None, "derived, not stored, until set by hand"


def test_entries_list_the_traits_in_sheet_order_then_the_derived_ones() -> None:
    """RULES.md §6 derived traits of a new `cofd` sheet (Attributes 1, Skills 0):
    Willpower 1+1, Defense min(1, 1)+0, Initiative 1+1, Speed 1+1+5, Health 1+5."""
    sheet = new_sheet("A", Ruleset.COFD)
    assert sheet.entries() == (
        *((trait.name, trait.value) for trait in sheet.traits),
        ("Willpower", 2), ("Defense", 1), ("Initiative", 2), ("Speed", 7), ("Health", 6),
    )
    by_hand = sheet_with(("Defense", 4))
    assert by_hand.entries()[-5:] == (
        ("Defense", 4), ("Willpower", 2), ("Initiative", 2), ("Speed", 7), ("Health", 6))


# --- new sheets -----------------------------------------------------------------------------


def test_a_new_sheet_is_a_player_character_unless_made_as_an_npc() -> None:
    assert new_sheet("A", Ruleset.COFD).npc is False
    assert new_sheet("A", Ruleset.COFD, npc=True).npc is True


def test_a_new_sheets_name_has_its_spaces_collapsed() -> None:
    assert new_sheet("  Mary   Jane ", Ruleset.COFD).name == "Mary Jane"


# --- /character set ------------------------------------------------------------------------


def test_set_traits_reads_pairs_past_empty_ones() -> None:
    assert parse_assignments("Wits 3,, Brawl 2;\n") == [("Wits", 3), ("Brawl", 2)]


def test_set_traits_with_no_pair_at_all_is_refused_showing_the_text() -> None:
    assert parse_assignments(" , ; ") == Refusal.of(RefusalCode.TRAITS_UNREADABLE, part=", ;")


def test_a_trait_name_of_32_characters_is_kept_and_33_refused() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    name = "S" * MAX_TRAIT_NAME
    answer = set_traits(sheet, [(name, 2)])
    assert not isinstance(answer, Refusal), answer
    assert answer[0].value(name) == 2
    assert set_traits(sheet, [(name + "s", 2)]) == Refusal.of(
        RefusalCode.TRAIT_NAME_INVALID, name=name + "s", max=MAX_TRAIT_NAME)


def test_a_refused_trait_name_is_shown_cut_to_80_characters() -> None:
    name = "x" * 100
    assert set_traits(new_sheet("A", Ruleset.COFD), [(name, 1)]) == Refusal.of(
        RefusalCode.TRAIT_NAME_INVALID, name="x" * 80, max=MAX_TRAIT_NAME)


def test_a_trait_a_sheet_adds_sits_with_the_other_traits() -> None:
    answer = set_traits(new_sheet("A", Ruleset.COFD), [("Sword", 2), ("Speed", 9)])
    assert not isinstance(answer, Refusal), answer
    assert answer[0].trait("Sword").group is TraitGroup.OTHER  # type: ignore[union-attr]
    assert answer[0].trait("Speed").group is TraitGroup.ADVANTAGE  # type: ignore[union-attr]


# --- specialties and Conditions ---------------------------------------------------------


def test_a_specialty_has_its_spaces_collapsed() -> None:
    sheet = add_specialty(new_sheet("A", Ruleset.COFD), "Brawl", "  Dirty   Boxing ")
    assert isinstance(sheet, Character), sheet
    assert sheet.trait("Brawl").specialties == ("Dirty Boxing",)  # type: ignore[union-attr]


@pytest.mark.parametrize("text", ["", "   ", "x" * (MAX_TEXT + 1), "Box\x00ing"])
def test_a_specialty_empty_too_long_or_with_control_characters_is_refused(text: str) -> None:
    assert add_specialty(new_sheet("A", Ruleset.COFD), "Brawl", text) == Refusal.of(
        RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT)


def test_removing_a_specialty_the_skill_lacks_names_the_skill_and_the_ones_it_has() -> None:
    sheet = add_specialty(new_sheet("A", Ruleset.COFD), "Brawl", "Boxing")
    assert isinstance(sheet, Character), sheet
    sheet = add_specialty(sheet, "Brawl", "Grappling")
    assert isinstance(sheet, Character), sheet
    assert remove_specialty(sheet, "brawl", "k" * 100) == Refusal.of(
        RefusalCode.SPECIALTY_MISSING, skill="Brawl", specialty="k" * 80,
        specialties="Boxing,Grappling")


def test_a_condition_has_its_spaces_collapsed() -> None:
    sheet = add_condition(new_sheet("A", Ruleset.COFD), "  Shaken   badly ")
    assert isinstance(sheet, Character), sheet
    assert sheet.conditions == ("Shaken badly",)


def test_a_condition_or_specialty_already_on_the_sheet_is_refused_naming_it_as_kept() -> None:
    """A Condition or a specialty the sheet has already, typed otherwise (case, spaces,
    accents), is refused naming it as the sheet keeps it ("Shaken", "Boxe"), where the
    refusal repeated the typed text as if it were what the sheet held."""
    sheet = add_condition(new_sheet("A", Ruleset.COFD), "Shaken")
    assert isinstance(sheet, Character), sheet
    assert add_condition(sheet, "SHAKEN") == Refusal.of(
        RefusalCode.CONDITION_EXISTS, condition="Shaken")
    sheet = add_specialty(sheet, "Brawl", "Boxe Tailandesa")
    assert isinstance(sheet, Character), sheet
    assert add_specialty(sheet, "Brawl", "boxe  tailandésa") == Refusal.of(
        RefusalCode.SPECIALTY_EXISTS, skill="Brawl", specialty="Boxe Tailandesa")


def test_a_sheet_keeps_30_conditions_and_refuses_the_31st() -> None:
    sheet: Character | Refusal = new_sheet("A", Ruleset.COFD)
    for n in range(MAX_CONDITIONS):
        assert isinstance(sheet, Character), sheet
        sheet = add_condition(sheet, f"Condition {n}")
    assert isinstance(sheet, Character), sheet
    assert len(sheet.conditions) == MAX_CONDITIONS
    assert add_condition(sheet, "One more") == Refusal.of(
        RefusalCode.TOO_MANY_CONDITIONS, max=MAX_CONDITIONS)


def test_removing_a_condition_the_sheet_lacks_names_it_and_the_ones_it_has() -> None:
    sheet = add_condition(new_sheet("A", Ruleset.COFD), "Shaken")
    assert isinstance(sheet, Character), sheet
    sheet = add_condition(sheet, "Guilty")
    assert isinstance(sheet, Character), sheet
    assert remove_condition(sheet, "c" * 100) == Refusal.of(
        RefusalCode.CONDITION_MISSING, condition="c" * 80, conditions="Shaken,Guilty")


# --- export and import: the file's shape and what a refusal shows -----------------------


def test_an_export_is_indented_json_with_the_sheets_fields_in_order() -> None:
    lines = exported(new_sheet("Alice", Ruleset.COFD)).splitlines()
    assert lines[:4] == ["{", '  "schema_version": 1,', '  "name": "Alice",',
                         '  "template": "cofd",']


def test_an_unknown_schema_version_is_shown_cut_to_20_characters() -> None:
    data = _cofd_file()
    data["schema_version"] = "9" * 30
    assert _import(data) == (Refusal.of(
        RefusalCode.IMPORT_SCHEMA_VERSION, version="9" * 20, known=1),)


def test_a_bad_field_is_refused_with_what_was_wrong() -> None:
    data = _cofd_file()
    data["will"] = "lots"
    problems = _import(data)
    assert isinstance(problems, tuple) and len(problems) == 1
    assert problems[0].code is RefusalCode.IMPORT_FIELD
    assert set(problems[0].params) == {"field", "problem", "detail"}
    assert problems[0].params["field"] == "will"
    assert isinstance(problems[0].params["detail"], str) and problems[0].params["detail"]


def test_a_problem_of_the_file_as_a_whole_has_no_field_for_render_to_word() -> None:
    """A problem pydantic places nowhere (the whole file) carries no ``field``: render
    words it in the member's language, where the engine gave "(file)" in English."""
    problem = _field_problem({"type": "model_type", "loc": (), "msg": "Input should be an "
                              "object", "input": []})
    assert problem == Refusal(code=RefusalCode.IMPORT_FIELD, params={
        "problem": "model_type", "detail": "Input should be an object"})


def test_a_field_out_of_its_choices_or_bounds_carries_them_for_render() -> None:
    """A field's problem carries what render words in the member's language: the choices
    of a field that has some (``choices``), the bound a value broke (``limit``), and where
    and how, beside pydantic's own English sentence, cut to 200 characters (``detail``),
    the place cut to 100 (``field``)."""
    data = _cofd_file()
    data["template"] = "dnd"
    assert _import(data) == (Refusal(code=RefusalCode.IMPORT_FIELD, params={
        "problem": "enum", "detail": "Input should be 'cofd', 'v20' or 'fistful'",
        "field": "template", "choices": "cofd,v20,fistful"}),)
    data = _cofd_file()
    data["traits"][0]["value"] = 99
    assert _import(data) == (Refusal(code=RefusalCode.IMPORT_FIELD, params={
        "problem": "less_than_equal", "detail": "Input should be less than or equal to 30",
        "field": "traits.0.value", "limit": 30}),)
    long = _field_problem({"type": "x", "loc": ("a" * 150,), "msg": "m" * 250, "input": 0})
    assert long.params == {"problem": "x", "detail": "m" * 200, "field": "a" * 100}


def test_an_import_lists_every_field_problem() -> None:
    """COMMANDS.md: a bad file is refused with every problem listed (render shows the
    first ones and counts the rest)."""
    data = _cofd_file()
    for trait in data["traits"][:25]:
        trait["value"] = "lots"
    problems = _import(data)
    assert isinstance(problems, tuple)
    assert [p.params["field"] for p in problems] == [f"traits.{n}.value" for n in range(25)]


# --- pools by name: prefixes, refusals and the closest names ----------------------------


def test_a_unique_prefix_of_the_last_name_in_alphabetical_order_names_it() -> None:
    # "wits" sorts last among a cofd sheet's names.
    assert resolved("Wit", sheet_with(("Wits", 3))).terms[0].label == "Wits"


def test_an_ambiguous_prefix_lists_at_most_six_matches_in_alphabetical_order() -> None:
    # Nine names start with S: Science, Socialize, Speed, Stamina, Stealth, Streetwise,
    # Strength, Subterfuge, Survival.
    assert refused("S", sheet_with()) == Refusal.of(
        RefusalCode.TRAIT_AMBIGUOUS, name="S",
        matches="Science,Socialize,Speed,Stamina,Stealth,Streetwise")


def test_an_ambiguous_prefix_lists_its_matches_alphabetically_whatever_their_case() -> None:
    """Names are matched without regard to case (RULES.md §6), and listed so: a trait added
    in lower case sorts among the others, not after every capital."""
    sheet = sheet_with(("street racing", 2))
    assert refused("Street", sheet) == Refusal.of(
        RefusalCode.TRAIT_AMBIGUOUS, name="Street", matches="street racing,Streetwise")


def test_an_empty_skill_name_is_unknown_even_on_a_sheet_of_one_trait() -> None:
    # A v20 sheet with no stored trait still has its derived Initiative.
    sheet = Character(name="A", template=Ruleset.V20, traits=(), will=0)
    assert sheet.entries() == (("Initiative", 0),)
    assert add_specialty(sheet, " ", "Boxing") == Refusal.of(
        RefusalCode.TRAIT_UNKNOWN, name=" ", closest="")


def test_a_name_like_no_trait_is_refused_naming_it_with_no_names_offered() -> None:
    assert refused("Xyzzy", sheet_with()) == Refusal.of(
        RefusalCode.TRAIT_UNKNOWN, name="Xyzzy", closest="")


def test_a_name_with_one_close_trait_offers_just_that_one() -> None:
    assert refused("Stamna", sheet_with()) == Refusal.of(
        RefusalCode.TRAIT_UNKNOWN, name="Stamna", closest="Stamina")


def test_a_misspelt_english_name_offers_up_to_three_english_names() -> None:
    """The closest of all is an own name (Presence), so only own names are offered, even
    where another language's name (Expressão) is closer than the third."""
    assert refused("Presense", sheet_with()).params["closest"] == "Presence,Defense,Expression"
    assert refused("Persuasoin", sheet_with()).params["closest"] == "Persuasion,Expression"


def test_a_misspelt_name_of_another_language_offers_three_traits_once_each() -> None:
    """Atletismo (Athletics in Spanish) is the closest of all: the traits offered are then
    among every name, each trait once, at most three, each by the sheet's own name (render
    names them in the table's language, not in the one that happened to match)."""
    closest = str(refused("Atletsmo", sheet_with()).params["closest"]).split(",")
    assert closest[0] == "Athletics"
    assert len(closest) == 3
    assert not {"Atletismo", "Esportes"} & set(closest), "Athletics is offered once"



def test_three_traits_are_offered_when_three_are_close_though_one_has_several_names() -> None:
    """Expresión (Expression in Spanish) is the closest of all, and Expression's other
    names are close too: they count once, so two more traits are still offered."""
    closest = str(refused("Expreseion", sheet_with()).params["closest"]).split(",")
    assert closest[0] == "Expression"
    assert len(closest) == 3
    assert len({fold(name) for name in closest}) == 3
    assert not {"Expresión", "Expressão"} & set(closest), "Expression is offered once"


def test_the_closest_traits_are_named_by_the_sheets_own_names_whichever_name_matched() -> None:
    """A Portuguese misspelling (Brigas) matches Briga, Brawl's name in Portuguese: the
    refusal offers Brawl, as the sheet names it, and every trait it offers is one of the
    sheet's (render shows them in the table's language, so none is shown in a language
    the table does not speak)."""
    sheet = sheet_with()
    closest = str(refused("Brigas", sheet).params["closest"]).split(",")
    assert closest[0] == "Brawl"
    assert set(closest) <= {name for name, _ in sheet.entries()}, closest


def test_a_prefix_of_other_languages_names_lists_each_trait_by_the_sheets_own_name() -> None:
    """Arm starts no English name, and starts Armamento (Weaponry) and Armas de Fogo and
    Armas de Fuego (both Firearms): the choices are Firearms and Weaponry, once each,
    where Armas de Fogo (Portuguese) was offered to every table."""
    assert refused("Arm", sheet_with()) == Refusal.of(
        RefusalCode.TRAIT_AMBIGUOUS, name="Arm", matches="Firearms,Weaponry")

# --- pools by name: untrained and specialties -------------------------------------------


def test_two_untrained_skills_of_equal_penalty_name_the_first_typed() -> None:
    found = resolved("Presence + Empathy + Athletics", sheet_with())
    assert (found.untrained, found.untrained_skill) == (SkillCategory.SOCIAL, "Empathy")
    found = resolved("Presence + Athletics + Empathy", sheet_with())
    assert (found.untrained, found.untrained_skill) == (SkillCategory.PHYSICAL, "Athletics")


def test_an_untrained_ability_without_a_category_takes_the_smaller_penalty() -> None:
    """A `v20` Ability has no category: in a `cofd` channel it is untrained at −1."""
    found = resolved("Dexterity + Brawl", new_sheet("A", Ruleset.V20))
    assert (found.untrained, found.untrained_skill) == (SkillCategory.PHYSICAL, "Brawl")


def test_a_pool_without_spec_has_no_specialty() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 2)), "Brawl", "Boxing")
    assert isinstance(sheet, Character), sheet
    assert resolved("Dexterity + Brawl", sheet).specialty is None


def test_a_spec_without_a_named_skill_is_refused_showing_it_cut_to_80() -> None:
    assert refused("Wits", sheet_with(), spec="s" * 100) == Refusal.of(
        RefusalCode.SPECIALTY_NO_SKILL, specialty="s" * 80)


def test_an_unknown_spec_is_refused_showing_it_cut_to_80() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 2)), "Brawl", "Boxing")
    assert isinstance(sheet, Character), sheet
    assert refused("Dexterity + Brawl", sheet, spec="s" * 100) == Refusal.of(
        RefusalCode.SPECIALTY_UNKNOWN, specialty="s" * 80, skills="Brawl",
        specialties="Brawl: Boxing")


def test_a_fistful_specialty_is_one_more_die_named_from_the_sheet() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 2)), "Brawl", "Boxing")
    assert isinstance(sheet, Character), sheet
    found = resolved("Dexterity + Brawl", sheet, spec="Boxing")
    request = with_sheet(RollRequest(ruleset=Ruleset.FISTFUL, terms=found.terms), found, None)
    assert request.terms[-1] == Term(label="Brawl: Boxing", value=1, source=TermSource.SHEET)
    assert request.sheet is not None
    assert request.sheet.specialty == "Brawl: Boxing"


# --- resistance and initiative ----------------------------------------------------------


def test_a_resistance_trait_not_allowed_is_refused_naming_it() -> None:
    assert resist_trait("Wits") == Refusal.of(RefusalCode.RESIST_TRAIT, trait="Wits")
    assert resist_trait("  " + "x" * 40) == Refusal.of(
        RefusalCode.RESIST_TRAIT, trait="x" * MAX_TRAIT_NAME)


def test_cofd_initiative_terms_are_dexterity_and_composure_from_the_sheet() -> None:
    terms = initiative_terms(sheet_with(("Dexterity", 3), ("Composure", 2)), Ruleset.COFD)
    assert terms == (Term(label="Dexterity", value=3, source=TermSource.SHEET),
                     Term(label="Composure", value=2, source=TermSource.SHEET))


def test_a_trait_missing_from_the_sheet_counts_0_in_initiative() -> None:
    """A `v20` sheet has no Composure: in a `cofd` channel it enters with Dexterity alone."""
    v20 = sheet_with(("Dexterity", 3), ruleset=Ruleset.V20)
    assert [t.value for t in initiative_terms(v20, Ruleset.COFD)] == [3, 0]
    assert initiative_pool(v20, Ruleset.COFD) == 3


def test_an_initiative_of_0_enters_with_0() -> None:
    assert initiative_pool(sheet_with(("Initiative", 0)), Ruleset.COFD) == 0
    assert initiative_pool(sheet_with(("Dexterity", 0), ("Composure", 0)), Ruleset.COFD) == 0


# --- autocomplete: signs, other traits, words inside names -------------------------------


def test_autocomplete_offers_a_trait_the_sheet_added() -> None:
    assert suggestions(sheet_with(("Sword", 2)), "Sw") == (("Sword 2", "Sword"),)


def test_autocomplete_offers_names_containing_the_word_after_those_starting_with_it() -> None:
    sheet = sheet_with(("Brawl", 2))
    assert suggestions(sheet, "awl") == (("Brawl 2", "Brawl"),)
    offered = [value for _, value in suggestions(sheet, "in")]
    starting = ["Intelligence", "Investigation", "Intimidation", "Initiative"]
    assert offered[:4] == starting
    assert "Medicine" in offered[4:]
