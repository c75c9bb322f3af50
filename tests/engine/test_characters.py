"""Character sheets (RULES.md §6): templates, derived traits, edits, import/export, pools."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.characters import (
    MAX_IMPORT_BYTES,
    MAX_SPECIALTIES,
    MAX_TRAITS,
    Character,
    Resolved,
    TraitGroup,
    add_condition,
    add_specialty,
    beat_added,
    exported,
    fold,
    imported,
    initiative_pool,
    initiative_terms,
    name_refusal,
    new_sheet,
    parse_assignments,
    remove_condition,
    remove_specialty,
    resist_trait,
    resistance,
    resolve,
    set_traits,
    suggestions,
    with_resistance,
    with_sheet,
)
from engine.models import RollRequest, Ruleset, SkillCategory, Term, TermSource
from engine.near_miss import distance, near_miss
from engine.parser import parse_pool_names
from engine.refusals import Refusal, RefusalCode


def sheet_with(*values: tuple[str, int], ruleset: Ruleset = Ruleset.COFD) -> Character:
    answer = set_traits(new_sheet("Alice", ruleset), values) if values else None
    if answer is None:
        return new_sheet("Alice", ruleset)
    assert not isinstance(answer, Refusal), answer
    return answer[0]


def resolved(text: str, sheet: Character | None, spec: str | None = None) -> Resolved:
    answer = resolve(parse_pool_names(text), sheet, spec=spec)
    assert isinstance(answer, Resolved), answer
    return answer


def refused(text: str, sheet: Character | None, spec: str | None = None) -> Refusal:
    answer = resolve(parse_pool_names(text), sheet, spec=spec)
    assert isinstance(answer, Refusal), answer
    return answer


# --- templates and derived traits ---------------------------------------------------


def test_cofd_template_has_nine_attributes_at_1_and_24_skills_at_0_with_categories() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    attributes = [t for t in sheet.traits if t.group is TraitGroup.ATTRIBUTE]
    skills = [t for t in sheet.traits if t.group is TraitGroup.SKILL]
    assert (len(attributes), len(skills)) == (9, 24)
    assert {t.value for t in attributes} == {1} and {t.value for t in skills} == {0}
    assert sheet.trait("Academics").category is SkillCategory.MENTAL  # type: ignore[union-attr]
    assert sheet.trait("Brawl").category is SkillCategory.PHYSICAL  # type: ignore[union-attr]
    assert sheet.trait("animal ken").category is SkillCategory.SOCIAL  # type: ignore[union-attr]


def test_v20_template_has_abilities_virtues_and_willpower() -> None:
    sheet = new_sheet("A", Ruleset.V20)
    groups = {g: [t for t in sheet.traits if t.group is g] for g in TraitGroup}
    assert len(groups[TraitGroup.ATTRIBUTE]) == 9
    assert len(groups[TraitGroup.SKILL]) == 30
    assert [t.name for t in groups[TraitGroup.VIRTUE]] == ["Conscience", "Self-Control", "Courage"]
    assert sheet.will_max == 1 and sheet.will == 1
    assert sheet.derived() == {"Initiative": 2}


def test_fistful_uses_the_cofd_attributes_and_skills() -> None:
    cofd, fistful = new_sheet("A", Ruleset.COFD), new_sheet("A", Ruleset.FISTFUL)
    assert [t.name for t in cofd.traits] == [t.name for t in fistful.traits]


def test_derived_traits_follow_their_parts() -> None:
    sheet = sheet_with(("Resolve", 3), ("Composure", 2), ("Wits", 4), ("Dexterity", 2),
                       ("Athletics", 1), ("Strength", 3), ("Stamina", 3))
    assert sheet.derived() == {
        "Willpower": 5, "Defense": 3, "Initiative": 4, "Speed": 10, "Health": 8,
    }


def test_a_derived_trait_set_by_hand_stays_when_its_parts_change() -> None:
    sheet = sheet_with(("Defense", 4))
    answer = set_traits(sheet, [("Wits", 3), ("Dexterity", 3)])
    assert not isinstance(answer, Refusal)
    assert answer[0].derived()["Defense"] == 4
    assert answer[0].trait("Defense").group is TraitGroup.ADVANTAGE  # type: ignore[union-attr]


def test_a_derived_trait_set_by_hand_keeps_its_own_name_however_typed() -> None:
    """`defense 3` sets Defense by hand (set_traits: "under its English name"): the sheet
    shows Defense, not a new "defense"."""
    answer = set_traits(new_sheet("A", Ruleset.COFD), [("defense", 3), ("SPEED", 9)])
    assert not isinstance(answer, Refusal), answer
    sheet, changes = answer
    assert [(c.name, c.old, c.new) for c in changes] == [("Defense", 1, 3), ("Speed", 7, 9)]
    assert [t.name for t in sheet.traits if t.group is TraitGroup.ADVANTAGE] == [
        "Defense", "Speed"]


def test_a_new_sheet_starts_with_full_will() -> None:
    assert new_sheet("A", Ruleset.COFD).will == 2


def test_will_stays_when_the_maximum_rises_and_drops_to_a_lower_maximum() -> None:
    sheet = sheet_with(("Resolve", 4), ("Composure", 4))  # max 8, current stays 2
    assert (sheet.will, sheet.will_max) == (2, 8)
    full = sheet.model_copy(update={"will": 8})
    answer = set_traits(full, [("Resolve", 1)])
    assert not isinstance(answer, Refusal)
    assert (answer[0].will, answer[0].will_max) == (5, 5)


# --- edits ---------------------------------------------------------------------------


def test_set_reports_old_and_new_values_and_adds_unknown_names_as_new_traits() -> None:
    answer = set_traits(new_sheet("A", Ruleset.COFD), [("wits", 3), ("Sword", 2)])
    assert not isinstance(answer, Refusal)
    sheet, changes = answer
    assert [(c.name, c.old, c.new) for c in changes] == [("Wits", 1, 3), ("Sword", None, 2)]
    assert sheet.value("Sword") == 2


@pytest.mark.parametrize(("name", "value", "high"), [
    ("Wits", 11, 10), ("Wits", -1, 10), ("Health", 31, 30), ("Willpower", 31, 30),
])
def test_values_outside_their_range_are_refused(name: str, value: int, high: int) -> None:
    answer = set_traits(new_sheet("A", Ruleset.COFD), [("Brawl", 2), (name, value)])
    assert answer == Refusal.of(RefusalCode.TRAIT_VALUE_RANGE, trait=name, value=value, high=high)


def test_will_maximum_and_health_go_up_to_30() -> None:
    sheet = sheet_with(("Willpower", 30), ("Health", 30))
    assert sheet.will_max == 30 and sheet.value("health") == 30


@pytest.mark.parametrize("name", ["<@123>", "a" * 33, "3rd", "Sword*", "", "\u3164",
                                  "Sword\u3164", "Gun \u115f\u1160"])
def test_bad_trait_names_are_refused(name: str) -> None:
    """A trait name is letters, digits, spaces, ' or -, starting with a letter; the Hangul
    fillers, letters to Unicode that show nothing (engine.text.BLANKS), are none."""
    answer = set_traits(new_sheet("A", Ruleset.COFD), [(name, 1)])
    assert isinstance(answer, Refusal) and answer.code is RefusalCode.TRAIT_NAME_INVALID


def test_a_sheet_holds_at_most_200_traits() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    extra = [(f"Merit {chr(97 + i // 26)}{chr(97 + i % 26)}", 1)
             for i in range(MAX_TRAITS - len(sheet.traits))]
    full = set_traits(sheet, extra)
    assert not isinstance(full, Refusal) and len(full[0].traits) == MAX_TRAITS
    assert set_traits(full[0], [("One More", 1)]) == Refusal.of(
        RefusalCode.TOO_MANY_TRAITS, max=MAX_TRAITS)


def test_assignments_are_read_from_one_option() -> None:
    assert parse_assignments("Wits 3, Composure: 2; Animal Ken=1") == [
        ("Wits", 3), ("Composure", 2), ("Animal Ken", 1)]
    answer = parse_assignments("Wits 3, Composure")
    assert isinstance(answer, Refusal) and answer.params["part"] == "Composure"


@pytest.mark.parametrize("text", ["Wits 3 Composure 2", "Wits 3, Brawl 2 Composure 1",
                                  "Wits3 Composure 2"])
def test_traits_without_their_comma_are_refused_not_made_one_trait(text: str) -> None:
    """`Wits 3 Composure 2` is two traits with the comma forgotten: refused (the refusal
    asks for commas), never a new trait "Wits 3 Composure" that no pool could name."""
    answer = parse_assignments(text)
    assert isinstance(answer, Refusal) and answer.code is RefusalCode.TRAITS_UNREADABLE
    assert parse_assignments("Language 2 3") == [("Language 2", 3)], "a name ending in a number"


def test_specialties_only_on_skills_and_at_most_30() -> None:
    sheet = add_specialty(new_sheet("A", Ruleset.COFD), "brawl", "Boxing")
    assert isinstance(sheet, Character)
    assert sheet.trait("Brawl").specialties == ("Boxing",)  # type: ignore[union-attr]
    assert add_specialty(sheet, "Wits", "Quick") == Refusal.of(
        RefusalCode.SPECIALTY_NOT_SKILL, trait="Wits")
    assert add_specialty(sheet, "Brawl", "boxing") == Refusal.of(
        RefusalCode.SPECIALTY_EXISTS, skill="Brawl", specialty="Boxing")
    for n in range(MAX_SPECIALTIES - 1):
        sheet = add_specialty(sheet, "Academics", f"Field {n}")  # type: ignore[assignment]
        assert isinstance(sheet, Character)
    assert add_specialty(sheet, "Occult", "Runes") == Refusal.of(
        RefusalCode.TOO_MANY_SPECIALTIES, max=MAX_SPECIALTIES)
    removed = remove_specialty(sheet, "Brawl", "BOXING")
    assert isinstance(removed, Character) and removed.trait("Brawl").specialties == ()  # type: ignore[union-attr]
    missing = remove_specialty(removed, "Brawl", "Boxing")
    assert isinstance(missing, Refusal) and missing.code is RefusalCode.SPECIALTY_MISSING


def test_conditions_are_added_and_resolved() -> None:
    sheet = add_condition(new_sheet("A", Ruleset.COFD), "Shaken")
    assert isinstance(sheet, Character) and sheet.conditions == ("Shaken",)
    assert isinstance(add_condition(sheet, "shaken"), Refusal)
    cleared = remove_condition(sheet, "SHAKEN")
    assert isinstance(cleared, Character) and cleared.conditions == ()
    assert isinstance(remove_condition(cleared, "Shaken"), Refusal)


@pytest.mark.parametrize(("name", "ok"), [
    ("Alice", True), ("@everyone", True), ("**bold** <@1>", True), ("a" * 64, True),
    ("a" * 65, False), ("", False), ("   ", False), ("two\nlines", False),
])
def test_character_names_are_1_to_64_characters_without_control_characters(
    name: str, ok: bool
) -> None:
    assert (name_refusal(name) is None) is ok


@pytest.mark.parametrize(("text", "ok"), [
    ("🧙\u200d♂\ufe0f Merlin", True),  # an emoji sequence: joined by a ZWJ
    ("\u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645", True),  # Persian, with a ZWNJ
    ("🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f", True),  # a flag's tags
    ("\u200d", False), ("\u200c \u200d", False), ("\ufe0f", False),  # nothing visible
    ("Ali\u200bce", False),  # a zero-width space: "Alice" to the eye
    ("\u202eecilA", False),  # a bidirectional override reorders the reply
    ("Al\x07ice", False),
    ("\u3164", False), ("\u2800", False), ("\u115f\u1160\uffa0", False),  # blanks alone
    ("Alice\u3164", False),  # a Hangul filler (a letter to Unicode): "Alice " to the eye
])
def test_names_conditions_and_specialties_are_one_visible_line_emoji_sequences_included(
    text: str, ok: bool
) -> None:
    """A name may hold the joiners that emoji sequences and some scripts need (format
    characters), never control characters, another invisible character (the blanks
    Unicode counts as letters among them: engine.text.BLANKS), or nothing else
    visible; Conditions and specialties the same."""
    assert (name_refusal(text) is None) is ok
    assert isinstance(add_condition(new_sheet("A", Ruleset.COFD), text), Character) is ok
    sheet = add_specialty(new_sheet("A", Ruleset.COFD), "Brawl", text)
    assert isinstance(sheet, Character) is ok


def test_every_5_beats_become_1_experience() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    for _ in range(4):
        sheet = beat_added(sheet)
    assert (sheet.beats, sheet.experience) == (4, 0)
    sheet = beat_added(sheet)
    assert (sheet.beats, sheet.experience) == (0, 1)


# --- export and import ---------------------------------------------------------------


def test_export_carries_a_schema_version_and_imports_back_identical() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 2), ("Sword", 3)), "Brawl", "Boxing")
    assert isinstance(sheet, Character)
    text = exported(sheet)
    assert json.loads(text)["schema_version"] == 1
    again = imported(text.encode())
    assert again == sheet and exported(again) == text  # type: ignore[arg-type]


_names = st.text(st.sampled_from("abcdefghij XYZ-'"), min_size=1, max_size=20).filter(
    lambda s: s.strip() and s.strip()[0].isalpha() and s.strip()[-1].isalpha())


@settings(max_examples=60, deadline=None)
@given(
    ruleset=st.sampled_from(list(Ruleset)),
    values=st.lists(st.tuples(_names, st.integers(0, 10)), max_size=15),
    conditions=st.lists(st.text(min_size=1, max_size=20).filter(str.isprintable).filter(
        lambda s: s.strip()), max_size=3),
    beats=st.integers(0, 12),
)
def test_export_import_export_is_identical(
    ruleset: Ruleset, values: list[tuple[str, int]], conditions: list[str], beats: int
) -> None:
    sheet = new_sheet("Prop <@1> **x**", ruleset)
    answer = set_traits(sheet, values)
    if not isinstance(answer, Refusal):
        sheet = answer[0]
    for condition in conditions:
        changed = add_condition(sheet, condition)
        sheet = changed if isinstance(changed, Character) else sheet
    for _ in range(beats):
        sheet = beat_added(sheet)
    first = exported(sheet)
    again = imported(first.encode())
    assert isinstance(again, Character), again
    assert exported(again) == first


def test_import_refuses_what_is_not_json_too_large_or_another_version() -> None:
    assert imported(b"not json") == (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)
    assert imported(b"[1, 2]") == (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)
    big = b" " * (MAX_IMPORT_BYTES + 1)
    assert imported(big)[0].code is RefusalCode.IMPORT_TOO_LARGE  # type: ignore[index]
    version = imported(b'{"schema_version": 7}')
    assert version == (Refusal.of(RefusalCode.IMPORT_SCHEMA_VERSION, version="7", known=1),)


@pytest.mark.parametrize("template", ["{}", '{{"schema_version": 1, "name": {}}}',
                                      '{{"schema_version": {}}}'])
def test_import_refuses_a_file_nested_too_deeply_as_not_a_sheet(template: str) -> None:
    """A few kilobytes of ``[[[[…]]]]`` (alone, or as a field's value) are more nesting
    than the JSON reader follows: the file is refused as not a sheet, where the
    RecursionError escaped as the generic apology."""
    nested = "[" * 30000 + "]" * 30000
    data = template.format(nested).encode()
    assert imported(data) == (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)


def test_import_reads_a_file_with_a_byte_order_mark_and_trims_the_name_as_create_does(
) -> None:
    """Some editors save UTF-8 with a byte-order mark: the file is still a sheet. The name
    is kept as /character create keeps it, its spaces trimmed and single."""
    data = json.loads(exported(new_sheet("Mara Vale", Ruleset.COFD)))
    data["name"] = "  Mara   Vale "
    sheet = imported(b"\xef\xbb\xbf" + json.dumps(data).encode())
    assert isinstance(sheet, Character), sheet
    assert sheet.name == "Mara Vale"


def test_import_lists_every_wrong_field() -> None:
    data = json.loads(exported(new_sheet("A", Ruleset.COFD)))
    data["traits"][0]["value"] = "three"
    data["will"] = -1
    data["colour"] = "red"
    problems = imported(json.dumps(data).encode())
    assert isinstance(problems, tuple)
    assert {p.params["field"] for p in problems} == {"traits.0.value", "will", "colour"}


def test_import_checks_the_rules_across_fields() -> None:
    data = json.loads(exported(new_sheet("A", Ruleset.COFD)))
    data["traits"].append({"name": "wits", "value": 2})
    data["traits"].append({"name": "Sword", "value": 12})
    data["traits"][0]["specialties"] = ["Quick"]
    data["will"] = 9
    problems = imported(json.dumps(data).encode())
    assert isinstance(problems, tuple)
    assert [p.code for p in problems] == [
        RefusalCode.SPECIALTY_NOT_SKILL, RefusalCode.TRAIT_DUPLICATE,
        RefusalCode.TRAIT_VALUE_RANGE, RefusalCode.WILL_ABOVE_MAXIMUM,
    ]


# --- pools by trait name ---------------------------------------------------------------


def test_names_resolve_from_the_sheet_and_keep_their_source() -> None:
    sheet = sheet_with(("Wits", 3), ("Composure", 2))
    assert resolved("Wits + Composure", sheet).terms == (
        Term(label="Wits", value=3, source=TermSource.SHEET),
        Term(label="Composure", value=2, source=TermSource.SHEET),
    )


def test_matching_ignores_case_spaces_and_accents_and_a_unique_prefix_is_enough() -> None:
    sheet = sheet_with(("Wits", 3), ("Animal Ken", 2), ("Éclat", 4))
    terms = resolved("WITS + animalken + eclat + Compo", sheet).terms
    assert [(t.label, t.value) for t in terms] == [
        ("Wits", 3), ("Animal Ken", 2), ("Éclat", 4), ("Composure", 1)]


def test_a_typed_number_wins_over_the_sheet() -> None:
    sheet = sheet_with(("Strength", 2))
    assert resolved("Strength 5 + 1", sheet).terms == (
        Term(label="Strength", value=5, source=TermSource.TYPED), Term(value=1))


@pytest.mark.parametrize("name", ["Area-51", "Area 51", "Area51"])
@pytest.mark.parametrize(("pool", "terms"), [
    ("Area-51", [("*", 3)]),
    ("Area 51", [("*", 3)]),
    ("AREA51", [("*", 3)]),
    ("area-51 + Wits", [("*", 3), ("Wits", 2)]),
    ("Wits - Area 51", [("Wits", 2), ("*", -3)]),
    ("Wits + Area-51", [("Wits", 2), ("*", 3)]),
    ("Wits - Area-51", [("Wits", 2), ("*", -3)]),
    ("Area-51-1", [("*", 3), (None, -1)]),
    ("Area-51 + 51", [("*", 3), (None, 51)]),
])
def test_a_name_that_ends_in_a_number_is_rolled_by_its_whole_name(
    name: str, pool: str, terms: list[tuple[str | None, int]]
) -> None:
    """RULES.md §6 lets a name hold digits; the pool reads a word and a number after it as
    a typed number (``Area 51``) or a number subtracted (``Area-51``). **Decision**
    (engine.characters._whole_names): where the two spell a trait of the sheet whole, they
    are that trait, however the name is spaced or hyphenated."""
    sheet = sheet_with((name, 3), ("Wits", 2))
    assert [(t.label, t.value) for t in resolved(pool, sheet).terms] == [
        (name if label == "*" else label, value) for label, value in terms]


def test_a_word_and_a_number_that_spell_no_trait_whole_keep_the_typed_number() -> None:
    """§6's Decision stands where no trait is spelled whole: a prefix of the name with a
    number (``Are 51``) or another number (``Area 52``) is a typed number; a number added
    (``Area + 51``) is added."""
    sheet = sheet_with(("Area 51", 3))
    assert resolved("Are 51", sheet).terms == (
        Term(label="Are", value=51, source=TermSource.TYPED),)
    assert resolved("Area 52", sheet).terms == (
        Term(label="Area", value=52, source=TermSource.TYPED),)
    assert [(t.label, t.value) for t in resolved("Area + 51", sheet).terms] == [
        ("Area 51", 3), (None, 51)]


def test_derived_traits_are_usable_in_pools() -> None:
    sheet = sheet_with(("Dexterity", 3), ("Composure", 2))
    assert resolved("Initiative", sheet).terms == (
        Term(label="Initiative", value=5, source=TermSource.DERIVED),)


def test_a_name_subtracted_keeps_its_sign() -> None:
    sheet = sheet_with(("Wits", 3))
    assert [t.value for t in resolved("5 - Wits", sheet).terms] == [5, -3]


def test_an_ambiguous_prefix_is_refused_with_the_names_it_could_be() -> None:
    assert refused("Int", new_sheet("A", Ruleset.COFD)) == Refusal.of(
        RefusalCode.TRAIT_AMBIGUOUS, name="Int", matches="Intelligence,Intimidation")


def test_an_unknown_name_is_refused_with_the_closest_names() -> None:
    answer = refused("Compsure", new_sheet("A", Ruleset.COFD))
    assert answer.code is RefusalCode.TRAIT_UNKNOWN
    assert str(answer.params["closest"]).split(",")[0] == "Composure"


def test_a_name_without_a_character_is_refused() -> None:
    assert refused("Wits + 2", None) == Refusal.of(RefusalCode.CHARACTER_NONE, name="Wits")


def test_numbers_alone_need_no_character() -> None:
    assert resolved("3 + 2", None).terms == (Term(value=3), Term(value=2))


def test_words_with_their_numbers_need_no_character() -> None:
    """RULES.md §6 (Decision): only a word with no number is looked up on the active
    character, so `Strength 3 + Brawl 2` rolls without one, each term typed."""
    assert resolved("Strength 3 + Brawl 2", None).terms == (
        Term(label="Strength", value=3, source=TermSource.TYPED),
        Term(label="Brawl", value=2, source=TermSource.TYPED))


def test_a_named_specialty_applies_only_when_a_named_skill_has_it() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 2)), "Brawl", "Boxing")
    assert isinstance(sheet, Character)
    assert resolved("Dexterity + Brawl", sheet, spec="box").specialty == "Brawl: Boxing"
    wrong = refused("Dexterity + Brawl", sheet, spec="Kicks")
    assert wrong == Refusal.of(RefusalCode.SPECIALTY_UNKNOWN, specialty="Kicks",
                               skills="Brawl", specialties="Brawl: Boxing")
    assert refused("Dexterity + 2", sheet, spec="Boxing").code is RefusalCode.SPECIALTY_NO_SKILL


def test_a_skill_of_the_sheet_with_a_typed_number_keeps_its_specialties() -> None:
    """``Dexterity + Brawl 3 spec:Boxing``: the typed dots win, and Brawl is still the
    sheet's Brawl, whose specialty applies (engine.characters.resolve's Decision), where
    it was refused as a pool with no Skill of the sheet; by its exact name only (in any
    language), and the typed dots make it neither untrained nor the sheet's Skill dots."""
    sheet = add_specialty(sheet_with(("Brawl", 0)), "Brawl", "Boxing")
    assert isinstance(sheet, Character)
    found = resolved("Dexterity + Brawl 3", sheet, spec="box")
    assert (found.specialty, found.untrained, found.skill_dots) == ("Brawl: Boxing", None, None)
    assert found.attribute_and_skill == 1 + 3 + 1
    assert resolved("Dex + Briga 2", sheet, spec="Boxing").specialty == "Briga: Boxing"
    assert refused("Dexterity + Bra 3", sheet, spec="Boxing").code is (
        RefusalCode.SPECIALTY_NO_SKILL)
    assert refused("Dexterity + Brawl 3", sheet, spec="Kicks") == Refusal.of(
        RefusalCode.SPECIALTY_UNKNOWN, specialty="Kicks", skills="Brawl",
        specialties="Brawl: Boxing")


def test_a_zero_dot_skill_makes_the_roll_untrained_with_the_larger_penalty_once() -> None:
    sheet = new_sheet("A", Ruleset.COFD)
    physical = resolved("Dexterity + Brawl", sheet)
    assert (physical.untrained, physical.untrained_skill) == (SkillCategory.PHYSICAL, "Brawl")
    both = resolved("Brawl + Academics", sheet)
    assert both.untrained is SkillCategory.MENTAL
    trained = resolved("Dexterity + Brawl", sheet_with(("Brawl", 1)))
    assert trained.untrained is None


def test_with_sheet_sets_the_options_and_notes_unless_the_roll_says_otherwise() -> None:
    sheet = add_specialty(sheet_with(("Brawl", 0)), "Brawl", "Boxing")
    assert isinstance(sheet, Character)
    found = resolved("Dexterity + Brawl", sheet, spec="Boxing")
    cofd = with_sheet(RollRequest(ruleset=Ruleset.COFD, terms=found.terms), found, "Alice")
    assert (cofd.specialty, cofd.untrained) == (True, SkillCategory.PHYSICAL)
    assert cofd.sheet is not None
    assert (cofd.sheet.character, cofd.sheet.specialty, cofd.sheet.untrained) == (
        "Alice", "Brawl: Boxing", "Brawl")
    told = RollRequest(ruleset=Ruleset.COFD, terms=found.terms, untrained=SkillCategory.MENTAL)
    assert with_sheet(told, found, None).untrained is SkillCategory.MENTAL
    v20 = with_sheet(RollRequest(ruleset=Ruleset.V20, terms=found.terms), found, None)
    assert (v20.specialty, v20.untrained) == (True, None)
    fistful = with_sheet(RollRequest(ruleset=Ruleset.FISTFUL, terms=found.terms), found, None)
    assert fistful.untrained is not None and fistful.base == 2  # +1 die for the specialty


def test_the_extended_limit_and_skill_dots_come_from_the_named_traits() -> None:
    sheet = add_specialty(sheet_with(("Intelligence", 3), ("Academics", 2)), "Academics", "Law")
    assert isinstance(sheet, Character)
    found = resolved("Intelligence + Academics", sheet, spec="Law")
    assert (found.attribute_and_skill, found.skill_dots) == (6, 2)


def test_a_roll_without_a_sheet_keeps_its_stored_json_shape() -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(label="Wits", value=3),))
    assert "source" not in request.model_dump_json() and "sheet" not in request.model_dump_json()


def test_autocomplete_completes_the_last_word_and_keeps_the_rest() -> None:
    sheet = sheet_with(("Wits", 3), ("Composure", 2))
    assert suggestions(sheet, "Wi")[0] == ("Wits 3", "Wits")
    assert suggestions(sheet, "Wits + Comp")[0] == ("Wits + Composure 2", "Wits + Composure")
    assert len(suggestions(sheet, "")) == 25


@pytest.mark.parametrize(("typed", "offered"), [
    ("Self-C", "Self-Control"),
    ("Self-", "Self-Control"),
    ("Wits + Self-Co", "Wits + Self-Control"),
    ("Self-Control - Cha", "Self-Control - Charisma"),
    ("Self-Control-Cha", "Self-Control- Charisma"),
    ("Wits-Cha", "Wits- Charisma"),
    ("Wits-", "Wits- Strength"),
])
def test_autocomplete_keeps_a_hyphenated_name_whole_as_the_pool_reads_it(
    typed: str, offered: str
) -> None:
    """A hyphen between letters is part of a word for the pool's parser (`Self-Control`):
    autocomplete completes the whole name, never offers `Self- Charisma` (which rolls
    Self-Control minus Charisma) for `Self-C`; a hyphen no trait's name goes on with is a
    minus, and what is offered reads as one."""
    sheet = sheet_with(("Charisma", 2), ruleset=Ruleset.V20)
    first = suggestions(sheet, typed)[0][1]
    assert first == offered
    assert resolved(first, sheet).terms[-1].label in {"Self-Control", "Charisma", "Strength"}


@pytest.mark.parametrize(("typed", "offered"), [
    ("2-Sel", "2- Self-Control"),  # after a number, a hyphen is a minus
    ("Wits2-Sel", "Wits2- Self-Control"),
    ("-Self", "- Self-Control"),  # a leading minus
    ("-Self-C", "- Self-Control"),  # a leading minus, then a hyphenated name
    ("Jack-in-B", "Jack-in-Box"),  # a name of two hyphens read back across both
    ("Bull's-E", "Bull's-Eye"),  # an apostrophe goes on with the word
    ("X-Ra", "X-Ray Eyes"),  # a name's own hyphen after a one-letter word
    ("Jack-in-A", "Jack-in- Appearance"),  # no name begins "Jack-in-A": the last is a minus
])
def test_autocomplete_reads_a_hyphen_after_a_number_or_at_the_start_as_a_minus(
    typed: str, offered: str
) -> None:
    """A hyphen is a name's own only right after a word (letters, an apostrophe) that a
    trait's name begins with, read back across the name's other hyphens; after a number
    or at the start of the pool it is a minus."""
    sheet = sheet_with(("Charisma", 2), ("Jack-in-Box", 1), ("Bull's-Eye", 1),
                       ("X-Ray Eyes", 2), ruleset=Ruleset.V20)
    assert suggestions(sheet, typed)[0][1] == offered


def test_autocomplete_reads_a_hyphen_before_a_digit_as_the_pool_does() -> None:
    """The pool reads `Area-51` as the trait on a sheet that has one (it spells it whole,
    engine.characters._whole_names), else as Area minus 51: `Area-5` is completed to the
    trait there, and after its minus where no trait's name begins so (`Wits-5`)."""
    assert [p.value for p in parse_pool_names("Area-5")] == [None, 5]
    sheet = sheet_with(("Area-51", 3), ("Wits", 2), ruleset=Ruleset.V20)
    assert suggestions(sheet, "Area-5") == (("Area-51 3", "Area-51"),)
    assert suggestions(sheet, "Wits + Area-51") == (("Wits + Area-51 3", "Wits + Area-51"),)
    offered = [value for _, value in suggestions(sheet, "Wits-5")]
    assert offered, "the 5 after the minus is completed"
    assert all(value.startswith("Wits- ") for value in offered), offered


def test_initiative_per_ruleset() -> None:
    sheet = sheet_with(("Dexterity", 3), ("Composure", 2), ("Wits", 4))
    assert [t.value for t in initiative_terms(sheet, Ruleset.COFD)] == [3, 2]
    assert [t.label for t in initiative_terms(sheet, Ruleset.V20)] == ["Dexterity", "Wits"]


def test_initiative_pool_is_the_sheets_initiative_trait_in_its_own_ruleset() -> None:
    sheet = sheet_with(("Dexterity", 3), ("Composure", 2), ("Wits", 4))
    assert initiative_pool(sheet, Ruleset.COFD) == 5
    assert initiative_pool(sheet, Ruleset.FISTFUL) == 5, "fistful rolls Dexterity + Composure"
    assert initiative_pool(sheet, Ruleset.V20) == 7, "v20: Dexterity + Wits"
    by_hand = set_traits(sheet, [("Initiative", 9)])
    assert not isinstance(by_hand, Refusal)
    assert initiative_pool(by_hand[0], Ruleset.COFD) == 9, "set by hand, it wins"
    v20 = set_traits(new_sheet("Lucita", Ruleset.V20), [("Dexterity", 4), ("Wits", 3)])
    assert not isinstance(v20, Refusal)
    assert initiative_pool(v20[0], Ruleset.V20) == 7


def test_fold_ignores_case_spaces_accents_hyphens() -> None:
    assert fold("Self-Control") == fold("self control") == fold("SÉLF CONTROL".replace("É", "E"))


@pytest.mark.parametrize(
    ("typed", "trait"),
    [("Composure", "Composure"), ("composure", "Composure"), ("comp", "Composure"),
     ("  RES ", "Resolve"), ("s", "Stamina"), ("Def", "Defense"), ("defense", "Defense")],
)
def test_a_resistance_trait_is_matched_as_pool_names_are(typed: str, trait: str) -> None:
    assert resist_trait(typed) == trait


@pytest.mark.parametrize("typed", ["Wits", "", "Dexterity", "Composure 2", "x"])
def test_a_resistance_trait_other_than_the_four_is_refused(typed: str) -> None:
    refused = resist_trait(typed)
    assert isinstance(refused, Refusal)
    assert refused.code is RefusalCode.RESIST_TRAIT


def test_resistance_reads_the_targets_sheet_derived_defense_included() -> None:
    sheet = sheet_with(("Composure", 3), ("Wits", 2), ("Dexterity", 4), ("Athletics", 1))
    assert resistance(sheet, "Composure") == 3
    assert resistance(sheet, "Defense") == 3, "lower of Wits and Dexterity, + Athletics"
    v20 = new_sheet("Lucita", Ruleset.V20)
    refused = resistance(v20, "Composure")
    assert isinstance(refused, Refusal)
    assert refused.code is RefusalCode.RESIST_NOT_ON_SHEET
    assert refused.params == {"trait": "Composure", "character": "Lucita"}


def test_with_resistance_subtracts_and_names_the_trait_and_its_sheet() -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=6),))
    resisted = with_resistance(request, "Composure", 3, "Bob")
    assert resisted.resist == 3
    assert resisted.sheet is not None
    assert (resisted.sheet.resist, resisted.sheet.resist_of) == ("Composure", "Bob")
    sheet = sheet_with(("Wits", 3), ("Composure", 2))
    found = resolve(parse_pool_names("Wits + Composure"), sheet)
    assert isinstance(found, Resolved)
    mine = with_sheet(RollRequest(ruleset=Ruleset.COFD, terms=found.terms), found, "Ada")
    both = with_resistance(mine, "Resolve", 2, "Bob")
    assert both.sheet is not None
    assert both.sheet.character == "Ada", "the roller's notes are kept"


@pytest.mark.parametrize(("typed", "meant"), [
    ("Strenght", "Strength"),  # two letters swapped: one edit
    ("strength ", None),  # the trait itself, as set_traits finds it
    ("Stamna", "Stamina"),
    ("Defence", "Defense"),  # a derived trait
    ("Inteligance", "Intelligence"),  # two edits: 8 letters or more
    ("Forsa", "Strength"),  # near Força, Strength's name in Portuguese
    ("Sorcery", None),
    ("Wit", None),  # short names: no guess
    ("Witz", None),
    ("Luck", None),
    ("Stealht", "Stealth"),
    ("Stxmxna", None),  # two edits from Stamina: 7 letters take one
    ("Strxngtx", "Strength"),  # two edits from Strength: 8 letters take two
    ("Sxrxngtx", None),  # three: never
])
def test_a_new_trait_s_near_miss_is_one_edit_from_5_letters_two_from_8(
    typed: str, meant: str | None,
) -> None:
    """engine.near_miss's Decision: a name one edit (a letter added, dropped, changed, or
    two side by side swapped) from a known trait's, the shorter having 5 letters or more,
    or two edits with 8 or more, in any of the bot's languages, names that trait; shorter
    names, where one letter makes another word, never do."""
    assert near_miss(new_sheet("Mara", Ruleset.COFD), typed) == meant


def test_a_near_miss_counts_a_sheet_s_own_traits_and_guesses_none_between_two() -> None:
    """A custom trait of the sheet is known too (``Oracles`` is a near miss of the sheet's
    ``Oracle``); two traits as close make no guess."""
    made = set_traits(new_sheet("Mara", Ruleset.COFD), [("Sorcery", 2), ("Sorcerx", 1)])
    assert not isinstance(made, Refusal)
    assert near_miss(made[0], "Sorcerz") is None
    assert near_miss(made[0], "Sorcerys") == "Sorcery"


def test_a_near_miss_counts_the_template_s_traits_the_sheet_does_not_hold() -> None:
    """A template's trait is known though the sheet lacks it (an imported sheet of few
    traits): ``Alertnes`` is a near miss of `v20`'s Alertness on an empty `v20` sheet."""
    full = new_sheet("Mara", Ruleset.V20)
    empty = Character.model_validate({**full.model_dump(), "traits": []})
    assert "Alertness" not in dict(empty.entries())
    assert near_miss(empty, "Alertnes") == "Alertness"


@pytest.mark.parametrize(("one", "other", "edits"), [
    ("", "abc", 3), ("abc", "", 3), ("ab", "ab", 0), ("ab", "ba", 1), ("abc", "acb", 1),
    ("abcd", "badc", 2), ("ca", "abc", 3), ("aaa", "a", 2), ("kitten", "sitting", 3),
    ("strenght", "strength", 1),
])
def test_distance_counts_letters_added_dropped_changed_or_swapped_side_by_side(
    one: str, other: str, edits: int,
) -> None:
    """The optimal string alignment distance: a swap of two letters side by side is one
    edit, and a swapped pair is not edited again (``ca`` to ``abc`` is 3, not 2)."""
    assert distance(one, other) == edits


def test_a_trait_set_to_the_value_it_has_is_marked_unchanged() -> None:
    """``/character set`` lists only what changed: a trait set to its own value is marked
    unchanged, one set to another value or added is not."""
    answer = set_traits(new_sheet("Mara", Ruleset.COFD),
                        [("Dexterity", 1), ("Wits", 3), ("Sorcery", 2)])
    assert not isinstance(answer, Refusal)
    assert [(c.name, c.old, c.new, c.unchanged) for c in answer[1]] == [
        ("Dexterity", 1, 1, True), ("Wits", 1, 3, False), ("Sorcery", None, 2, False),
    ]
