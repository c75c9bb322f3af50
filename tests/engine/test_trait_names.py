"""Trait names in the bot's languages (issue 14, item 5): a sheet's traits are matched in
English, Portuguese and Spanish alike, case and accents aside, and kept in English."""

from __future__ import annotations

import pytest

from engine.characters import (
    _DERIVED,
    Character,
    Resolved,
    Trait,
    add_specialty,
    fold,
    new_sheet,
    resist_trait,
    resolve,
    set_traits,
    suggestions,
)
from engine.models import Ruleset, TermSource
from engine.parser import parse_pool_names
from engine.records import Language
from engine.refusals import Refusal, RefusalCode
from engine.trait_names import LOCALISED, localised


def sheet_with(*values: tuple[str, int], ruleset: Ruleset = Ruleset.COFD) -> Character:
    answer = set_traits(new_sheet("Alice", ruleset), values)
    assert not isinstance(answer, Refusal), answer
    return answer[0]


def terms(text: str, sheet: Character, spec: str | None = None) -> list[tuple[str | None, int]]:
    answer = resolve(parse_pool_names(text), sheet, spec=spec)
    assert isinstance(answer, Resolved), answer
    return [(term.label, term.value) for term in answer.terms]


def test_every_language_of_the_bot_but_english_names_the_traits() -> None:
    assert set(LOCALISED) == {language.value for language in Language} - {Language.EN}


@pytest.mark.parametrize("ruleset", list(Ruleset))
def test_every_template_and_derived_trait_has_a_name_in_each_language(ruleset: Ruleset) -> None:
    sheet = new_sheet("Alice", ruleset)
    for name in [t.name for t in sheet.traits] + list(_DERIVED[ruleset]):
        for language, names in LOCALISED.items():
            assert names.get(name), (language, name)


@pytest.mark.parametrize("ruleset", list(Ruleset))
@pytest.mark.parametrize("language", sorted(LOCALISED))
def test_on_each_template_each_name_reaches_its_own_trait_and_no_other(
    ruleset: Ruleset, language: str
) -> None:
    sheet = new_sheet("Alice", ruleset)
    own = [t.name for t in sheet.traits] + [n for n in _DERIVED[ruleset] if not sheet.trait(n)]
    spelled = {fold(LOCALISED[language][name]): name for name in own}
    assert len(spelled) == len(own), "two traits of a template share a name"
    for name in own:
        local = LOCALISED[language][name]
        assert fold(local) not in {fold(n) for n in own if n != name}
        assert sheet.value(local) == sheet.value(name)
        found = resolve(parse_pool_names(local), sheet)
        assert isinstance(found, Resolved), (local, found)


def test_a_pool_rolls_by_portuguese_spanish_and_english_names_alike() -> None:
    sheet = sheet_with(("Wits", 3), ("Composure", 2), ("Brawl", 1))
    assert terms("Raciocínio + Autocontrole", sheet) == [("Raciocínio", 3), ("Autocontrole", 2)]
    assert terms("Astucia + Compostura + Pelea", sheet) == [
        ("Astucia", 3), ("Compostura", 2), ("Pelea", 1)]
    assert terms("Wits + Composure", sheet) == [("Wits", 3), ("Composure", 2)]
    assert terms("RACIOCINIO + astúcia + briga", sheet) == [
        ("Raciocínio", 3), ("Astucia", 3), ("Briga", 1)]


def test_names_of_several_words_and_derived_traits_resolve() -> None:
    sheet = sheet_with(("Resolve", 3), ("Composure", 2), ("Firearms", 2))
    assert terms("Força de Vontade + Armas de Fogo", sheet) == [
        ("Força de Vontade", 5), ("Armas de Fogo", 2)]
    answer = resolve(parse_pool_names("Fuerza de Voluntad"), sheet)
    assert isinstance(answer, Resolved)
    assert answer.terms[0].source is TermSource.DERIVED


def test_a_name_spelled_alike_in_two_languages_is_shown_as_typed() -> None:
    sheet = sheet_with(("Intelligence", 4))
    assert terms("Inteligência + Inteligencia", sheet) == [
        ("Inteligência", 4), ("Inteligencia", 4)]


def test_a_prefix_prefers_the_english_names_then_the_others() -> None:
    """Furt starts no English name, and starts Furtividade and Furto (Stealth and Larceny
    in Portuguese): the choices are those traits, by the sheet's own names (render names
    them in the table's language)."""
    sheet = sheet_with(("Wits", 3))
    assert terms("Res", sheet) == [("Resolve", 1)]
    assert terms("Racioc", sheet) == [("Raciocínio", 3)]
    answer = resolve(parse_pool_names("Furt"), sheet)
    assert isinstance(answer, Refusal)
    assert answer.code is RefusalCode.TRAIT_AMBIGUOUS
    assert answer.params["matches"] == "Larceny,Stealth"


def test_a_misspelt_portuguese_name_is_answered_with_the_trait_it_is_close_to() -> None:
    """Raciocino is closest to Raciocínio: Wits is offered first, by the sheet's own name
    (a Portuguese table reads Raciocínio, a Spanish one Astucia)."""
    answer = resolve(parse_pool_names("Raciocino"), new_sheet("Alice", Ruleset.COFD))
    assert isinstance(answer, Refusal)
    assert str(answer.params["closest"]).split(",")[0] == "Wits"


def test_the_sheet_keeps_english_names_whatever_language_sets_them() -> None:
    sheet = new_sheet("Alice", Ruleset.COFD)
    answer = set_traits(sheet, [("Raciocínio", 3), ("astucia", 4), ("Defesa", 5)])
    assert not isinstance(answer, Refusal)
    changed, changes = answer
    assert [(c.name, c.old, c.new) for c in changes] == [
        ("Wits", 1, 3), ("Wits", 3, 4), ("Defense", 1, 5)]
    assert changed.value("Wits") == 4
    assert changed.trait("Defense") is not None
    assert {t.name for t in changed.traits} == {t.name for t in sheet.traits} | {"Defense"}


def test_on_a_v20_sheet_autocontrole_is_self_control_and_on_cofd_composure() -> None:
    v20 = sheet_with(("Self-Control", 4), ruleset=Ruleset.V20)
    cofd = sheet_with(("Composure", 2))
    assert terms("Autocontrole", v20) == [("Autocontrole", 4)]
    assert terms("Autocontrole", cofd) == [("Autocontrole", 2)]


def test_a_name_two_traits_of_a_sheet_would_share_matches_neither() -> None:
    sheet = sheet_with(("Composure", 2), ("Self-Control", 4))
    answer = resolve(parse_pool_names("Autocontrole"), sheet)
    assert isinstance(answer, Refusal)
    assert terms("Compostura + Autocontrol", sheet) == [("Compostura", 2), ("Autocontrol", 4)]


def test_a_trait_of_the_sheet_named_like_another_language_keeps_its_name() -> None:
    base = sheet_with(("Stamina", 2))
    sheet = Character.model_validate(
        {**dict(base), "traits": (*base.traits, Trait(name="Vigor", value=5))})
    assert terms("Vigor", sheet) == [("Vigor", 5)]
    assert terms("Resistencia", sheet) == [("Resistencia", 2)]


def test_a_specialty_and_untrained_name_the_skill_as_the_pool_did() -> None:
    sheet = sheet_with(("Brawl", 2))
    with_spec = add_specialty(sheet, "Briga", "Socos")
    assert isinstance(with_spec, Character)
    answer = resolve(parse_pool_names("Força + Briga"), with_spec, spec="soc")
    assert isinstance(answer, Resolved)
    assert answer.specialty == "Briga: Socos"
    untrained = resolve(parse_pool_names("Destreza + Furtividade"), sheet)
    assert isinstance(untrained, Resolved)
    assert untrained.untrained_skill == "Furtividade"


@pytest.mark.parametrize(("typed", "trait"), [
    ("Autocontrole", "Composure"), ("compostura", "Composure"), ("Defensa", "Defense"),
    ("Vigor", "Stamina"), ("Determinação", "Resolve"), ("res", "Resolve"), ("Deter", "Resolve"),
])
def test_a_resistance_trait_is_named_in_any_language(typed: str, trait: str) -> None:
    assert resist_trait(typed) == trait


def test_autocomplete_offers_the_tables_language_and_english() -> None:
    sheet = sheet_with(("Wits", 3))
    assert suggestions(sheet, "Ra", "pt-BR")[0] == ("Raciocínio 3", "Raciocínio")
    assert suggestions(sheet, "Wi", "pt-BR")[0] == ("Wits 3", "Wits")
    assert suggestions(sheet, "", "es-ES")[1] == ("Astucia 3", "Astucia")
    assert suggestions(sheet, "Raci") == ()
    assert suggestions(sheet, "") == suggestions(sheet, "", "en")


def test_a_name_is_shown_in_a_language_or_as_it_is() -> None:
    assert localised("Wits", "pt-BR") == "Raciocínio"
    assert localised("Animal Ken", "es-ES") == "Trato con Animales"
    assert localised("Wits", "en") == "Wits"
    assert localised("Éclat", "pt-BR") == "Éclat"


def test_a_value_out_of_range_repeats_the_name_as_typed() -> None:
    answer = set_traits(new_sheet("Alice", Ruleset.COFD), [("raciocínio", 11)])
    assert isinstance(answer, Refusal)
    assert answer.params["trait"] == "Raciocínio"


@pytest.mark.parametrize("ruleset", list(Ruleset))
@pytest.mark.parametrize("short", ["Will", "Vontade", "Voluntad"])
def test_the_short_name_the_bot_gives_willpower_names_it_in_each_language(
    ruleset: Ruleset, short: str
) -> None:
    """The bot calls Willpower "Will" in each language it speaks (Vontade, Voluntad: its
    buttons and /will), so that name is the Willpower trait wherever a name is looked up
    (engine.characters' _SHORT): set, pool, value; no template trait shares it in any
    language, and a sheet's own trait of that name still wins."""
    sheet = new_sheet("Alice", ruleset)
    every = {fold(t.name) for t in sheet.traits} | {fold(n) for n in _DERIVED[ruleset]}
    every |= {fold(names[n]) for names in LOCALISED.values() for n in names}
    assert fold(short) not in every
    answer = set_traits(sheet, [(short.upper(), 6)])
    assert not isinstance(answer, Refusal), answer
    changed, changes = answer
    assert [c.name for c in changes] == ["Willpower"] and changed.will_max == 6
    assert [t.name for t in changed.traits].count("Willpower") == 1
    assert changed.value(short) == 6
    assert terms(f"{short.lower()} + 1", changed) == [(short, 6), (None, 1)]
    own = Character(name="A", template=ruleset, traits=(Trait(name=short, value=2),), will=0)
    assert own.value(short) == 2 and own.will_max == 0
