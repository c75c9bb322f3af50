"""`/character` in Portuguese (Brazil) and Spanish (issue 14): replies, the sheet card, trait
names typed in the table's language or in English, rolls by either."""

from __future__ import annotations

import json
import re

import pytest

from bot.flows import characters, rolls
from engine.characters import exported, new_sheet
from engine.models import Ruleset
from engine.parser import parse_pool_names
from tests.flows.conftest import ALICE, CHANNEL, GUILD, Table

#: English words of the card and its traits: none may show on a Portuguese or Spanish card.
ENGLISH = (
    "Attributes", "Skills", "Derived", "Will", "Conditions", "none", "template", "Beats",
    "Experience", "Willpower", "Defense", "Initiative", "Speed", "Health",
    *(t.name for t in new_sheet("x", Ruleset.COFD).traits),
)

LANGUAGES = {
    "pt-BR": {
        "created": "**Mara** criado, agora seu", "set": "Raciocínio 3, Autocontrole 2, Briga 2",
        "changed": "Raciocínio 1 → 3", "pool": "Raciocínio + Autocontrole",
        "shown": "Raciocínio 3 + Autocontrole 2", "card": ("Atributos", "Perícias",
        "Força de Vontade 3", "Vontade 2/3, Batidas 0, Experiência 0", "Condições"),
        "prefix": "Raci", "completed": "Raciocínio 3",
    },
    "es-ES": {
        "created": "Creado el personaje", "set": "Astucia 3, Compostura 2, Pelea 2",
        "changed": "Astucia 1 → 3", "pool": "Astucia + Compostura",
        "shown": "Astucia 3 + Compostura 2", "card": ("Atributos", "Habilidades",
        "Fuerza de Voluntad 3", "Voluntad 2/3, Pulsos 0, Experiencia 0", "Estados"),
        "prefix": "Ast", "completed": "Astucia 3",
    },
}


def english_in(text: str) -> list[str]:
    return [word for word in ENGLISH if re.search(rf"\b{re.escape(word)}\b", text)]


async def roll(table: Table, pool: str) -> str:
    table.faces.add(8, 8, 2, 2, 2)
    said = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names(pool)), label=None,
        private=False))
    assert table.faces.left == 0, said.answer.text
    return said.answer.text


@pytest.mark.parametrize("language", sorted(LANGUAGES))
async def test_a_sheet_is_made_set_rolled_and_shown_in_the_tables_language(
    table: Table, language: str
) -> None:
    words = LANGUAGES[language]
    table.speak(language, language)
    said = await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    assert words["created"] in said.answer.text and not english_in(said.answer.text.split(
        "(traits:")[0])
    said = await table.run(characters.set_traits(table.deps, table.ctx(), traits=words["set"]))
    assert words["changed"] in said.answer.text, said.answer.text
    assert not english_in(said.answer.text), said.answer.text
    assert words["shown"] in await roll(table, words["pool"])
    assert "Wits 3 + Composure 2" in await roll(table, "Wits + Composure")
    said = await table.run(characters.show(table.deps, table.ctx(), public=True))
    card = said.answer.text
    assert not said.answer.ephemeral
    assert all(part in card for part in words["card"]), card
    assert not english_in(card), english_in(card)
    suggested = await characters.pool_suggestions(table.deps, table.ctx(), words["prefix"])
    assert suggested[0][0] == words["completed"]


async def test_a_members_own_answer_speaks_their_language_and_names_traits_in_the_tables(
    table: Table,
) -> None:
    table.speak("en-US", "pt-BR")
    said = await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    assert "Created the" in said.answer.text
    said = await table.run(characters.set_traits(table.deps, table.ctx(), traits="Wits 3"))
    assert said.answer.text == "**Mara**: Raciocínio 1 → 3 (Will 2/2)"
    said = await table.run(characters.show(table.deps, table.ctx(), public=True))
    assert "Atributos" in said.answer.text and "Raciocínio 3" in said.answer.text


@pytest.mark.parametrize(("language", "refusal"), [
    ("pt-BR", "Nada foi alterado"), ("es-ES", "No se ha cambiado nada")])
async def test_a_refusal_speaks_the_members_language(
    table: Table, language: str, refusal: str
) -> None:
    table.speak(language, "en-US")
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    said = await table.run(characters.set_traits(table.deps, table.ctx(), traits="Wits 11"))
    assert said.answer.ephemeral and refusal in said.answer.text
    said = await table.run(characters.use(table.deps, table.ctx(), "Nobody"))
    assert "Nobody" in said.answer.text and "/character" not in said.answer.text


@pytest.mark.parametrize(("locale", "typed", "refusal"), [
    ("pt-BR", "Wits", "Raciocínio 11 está fora do intervalo: deve ser de 0 a 10"),
    ("pt-BR", "Astucia", "Astucia 11 está fora do intervalo: deve ser de 0 a 10"),
    ("es-ES", "wits", "Astucia 11 está fuera de rango"),
    ("en-US", "Raciocínio", "Raciocínio 11 is out of range: it must be 0 to 10"),
])
async def test_a_value_out_of_range_names_the_trait_as_the_tables_cards_do(
    table: Table, locale: str, typed: str, refusal: str
) -> None:
    """A trait set out of its range is refused naming the trait as the table's cards (and
    the confirmation of a set) name it, where a Portuguese table read "Wits 11 está fora
    do intervalo"; a name of another language than the table's is repeated as typed
    (engine.characters.set_traits); nothing is changed."""
    table.speak(locale, locale)
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait=typed, value=11))
    assert said.answer.ephemeral and refusal in said.answer.text, said.answer.text
    said = await table.run(characters.set_traits(table.deps, table.ctx(),
                                                 traits=f"Brawl 2, {typed} 11"))
    assert said.answer.ephemeral and refusal in said.answer.text, said.answer.text
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None
    assert (record.sheet.value("Wits"), record.sheet.value("Brawl")) == (1, 0), "unchanged"


@pytest.mark.parametrize(("language", "abilities"), [
    ("pt-BR", "Habilidades: Prontidão 0"), ("es-ES", "Habilidades: Alerta 0")])
async def test_a_v20_card_names_abilities_and_virtues_in_the_tables_language(
    table: Table, language: str, abilities: str
) -> None:
    table.speak(language, language)
    await table.run(characters.create(table.deps, table.ctx(), "Anselm", Ruleset.V20))
    said = await table.run(characters.show(table.deps, table.ctx(), public=True))
    same = {"Performance", "Enigmas"}  # spelled alike in English
    v20 = [t.name for t in new_sheet("x", Ruleset.V20).traits if t.name not in same]
    assert abilities in said.answer.text
    assert not [w for w in v20 if re.search(rf"\b{re.escape(w)}\b", said.answer.text)]


@pytest.mark.parametrize(("member", "table_language", "pool", "offered"), [
    ("pt-BR", "pt-BR", "Força + Brigas", "(mais próximas: Briga, Ofícios)"),
    ("pt-BR", "pt-BR", "In", "Iniciativa, Inteligência, Intimidação, Investigação"),
    ("es-ES", "es-ES", "Fuerza + Peleas", "(más parecidos: Pelea, Velocidad, Persuasión)"),
    ("es-ES", "es-ES", "In", "Iniciativa, Inteligencia, Intimidación, Investigación"),
    ("es-ES", "es-ES", "Arm", "podría ser Armas de Fuego, Armamento:"),
    ("en-US", "pt-BR", "In", "could be Iniciativa, Inteligência, Intimidação, Investigação:"),
    ("en-US", "en-US", "In", "could be Initiative, Intelligence, Intimidation, Investigation:"),
    ("en-US", "en-US", "Brigas", "(closest: Brawl, Crafts)"),
])
async def test_a_trait_refusal_offers_the_traits_as_the_tables_cards_name_them(
    table: Table, member: str, table_language: str, pool: str, offered: str
) -> None:
    """A name the sheet lacks, or a prefix of several of its traits, is refused offering
    traits by the names the table's cards give them (engine.trait_names' Decision: the
    table's language, in a member's own answer too), whichever language's name matched,
    where they were offered in English (Crafts at a Portuguese table) or in the language
    of the name that matched (Briga; Armas de Fogo at a Spanish table); the sentence is
    the member's, and a pool's refusal and a specialty's agree."""
    table.speak(member, table_language)
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    said = await table.run(rolls.roll(
        table.deps, table.ctx(), rolls.ByName(parse_pool_names(pool)), label=None,
        private=False))
    assert said.answer.ephemeral and offered in said.answer.text, said.answer.text
    skill = pool.rsplit(maxsplit=1)[-1]  # the name refused
    said = await table.run(characters.specialty(table.deps, table.ctx(), skill, add="Boxe"))
    assert said.answer.ephemeral and offered in said.answer.text, said.answer.text
    shown = await table.run(characters.show(table.deps, table.ctx()))
    assert "Boxe" not in shown.answer.text, "nothing was changed"


@pytest.mark.parametrize(("locale", "skill", "exists", "missing", "not_skill"), [
    ("pt-BR", "Brawl", "Briga já tem a especialização “Boxe”",
     "Briga não tem a especialização “Judô” (tem: Boxe)",
     "Raciocínio não é uma Perícia"),
    ("pt-BR", "Briga", "Briga já tem a especialização “Boxe”",
     "Briga não tem a especialização “Judô” (tem: Boxe)",
     "Raciocínio não é uma Perícia"),
    ("es-ES", "Bra", "Pelea ya tiene la especialidad «Boxe»",
     "Pelea no tiene la especialidad «Judô» (tiene: Boxe)",
     "Astucia no es una Habilidad"),
    ("es-ES", "Briga", "Pelea ya tiene la especialidad «Boxe»",
     "Pelea no tiene la especialidad «Judô» (tiene: Boxe)",
     "Astucia no es una Habilidad"),
])
async def test_a_specialty_refusal_names_the_trait_as_the_tables_cards_do(
    table: Table, locale: str, skill: str, exists: str, missing: str, not_skill: str
) -> None:
    """A specialty the Skill has already, one it lacks, and a specialty on a trait that is
    no Skill are refused naming the trait as the table's cards name it (engine.trait_names'
    Decision), whichever of its names was typed (English, a prefix, another language's),
    where they named the sheet's English name (Brawl, Wits) at a Portuguese or Spanish
    table; nothing is changed."""
    table.speak(locale, locale)
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    await table.run(characters.specialty(table.deps, table.ctx(), "Brawl", add="Boxe"))
    said = await table.run(characters.specialty(table.deps, table.ctx(), skill, add="Boxe"))
    assert said.answer.ephemeral and exists in said.answer.text, said.answer.text
    said = await table.run(characters.specialty(table.deps, table.ctx(), skill, remove="Judô"))
    assert said.answer.ephemeral and missing in said.answer.text, said.answer.text
    for wits in ("Wits", "Raciocínio", "Astucia"):
        said = await table.run(characters.specialty(table.deps, table.ctx(), wits, add="Judô"))
        assert said.answer.ephemeral and not_skill in said.answer.text, said.answer.text
    assert not english_in(said.answer.text), said.answer.text
    shown = await table.run(characters.show(table.deps, table.ctx()))
    assert "Judô" not in shown.answer.text and shown.answer.text.count("Boxe") == 1


@pytest.mark.parametrize(("locale", "lines"), [
    ("pt-BR", ("- traits.0.value deve ser no máximo 30", "- will deve ser um número inteiro",
               "- template deve ser um destes: cofd, v20, fistful",
               "- traits.1.name deve ter no máximo 32 caracteres",
               "- name está faltando: toda ficha tem esse campo",
               "- color não é um campo de ficha: remova-o")),
    ("es-ES", ("- traits.0.value debe ser como máximo 30", "- will debe ser un número entero",
               "- template debe ser uno de estos: cofd, v20, fistful",
               "- traits.1.name debe tener como máximo 32 caracteres",
               "- falta name: toda hoja lo tiene",
               "- color no es un campo de una hoja: quítalo")),
    ("en-US", ("- traits.0.value must be at most 30", "- will must be a whole number",
               "- template must be one of cofd, v20, fistful",
               "- traits.1.name must have at most 32 characters",
               "- name is missing: every sheet has it",
               "- color is not a field of a sheet: remove it")),
])
async def test_an_import_files_field_problems_are_said_in_the_members_language(
    table: Table, locale: str, lines: tuple[str, ...]
) -> None:
    """Each field of an import file that is not as a sheet has it (a value above its
    bound, a word for a number, a template that does not exist, a name too long, a field
    missing or unknown) is listed in the member's language, with the bound or the choices,
    where the list gave pydantic's English sentences ("Input should be less than or equal
    to 30") at a Portuguese or Spanish table; nothing is imported."""
    table.speak(locale, locale)
    data = json.loads(exported(new_sheet("Mara", Ruleset.COFD)))
    data["traits"][0]["value"] = 99
    data["traits"][1]["name"] = "x" * 40
    data.update(will="lots", template="dnd", color="red")
    del data["name"]
    said = await table.run(characters.import_(table.deps, table.ctx(), json.dumps(data).encode()))
    assert said.answer.ephemeral
    assert all(line in said.answer.text.splitlines() for line in lines), said.answer.text
    listed = await table.run(characters.list_(table.deps, table.ctx()))
    assert "Mara" not in listed.answer.text, "nothing imported"


@pytest.mark.parametrize(("locale", "typed", "changed"), [
    ("en-US", "Will", "Willpower 2 → 5 (Will "),
    ("pt-BR", "Vontade", "Força de Vontade 2 → 5 (Vontade "),
    ("es-ES", "voluntad", "Fuerza de Voluntad 2 → 5 (Voluntad "),
])
@pytest.mark.parametrize("template", [Ruleset.COFD, Ruleset.V20])
async def test_the_short_name_the_bot_gives_willpower_sets_the_sheets_willpower(
    table: Table, locale: str, typed: str, changed: str, template: Ruleset
) -> None:
    """"Will" is what the bot calls Willpower in each language it speaks (its buttons,
    /will: Vontade, Voluntad), so /character set trait:Will sets the sheet's Willpower
    (engine.characters' _SHORT), where it quietly added a custom trait "Will" and left
    the Will maximum as it was; a pool may name it so too."""
    table.speak(locale, locale)
    await table.run(characters.create(table.deps, table.ctx(), "Mara", template))
    if template is Ruleset.V20:
        await table.run(characters.set_traits(table.deps, table.ctx(), trait="Willpower",
                                              value=2))
    said = await table.run(characters.set_traits(table.deps, table.ctx(), trait=typed, value=5))
    assert changed in said.answer.text, said.answer.text
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None
    assert record.sheet.will_max == 5 and record.sheet.trait(typed) is record.sheet.trait(
        "Willpower")
    assert [t.name for t in record.sheet.traits].count("Willpower") == 1
    assert f"{typed.title()} 5" in await roll(table, typed)
