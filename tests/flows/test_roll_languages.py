"""Rolls, Will, refusals, /odds and saved rolls at a Portuguese and a Spanish table: not
one English sentence.

The member's own answers follow their client, the table's messages the server's
preferred locale or the channel's language setting (``table.speak(client, server)``).
"""

from __future__ import annotations

import re
from typing import Any, Final

import pytest

from bot.flows import rolls, saved, will
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption, Language, WillPool
from tests.flows.conftest import ALICE, CHANNEL, COPIES, GUILD, Recorder, Table, parts

#: English words a translated roll, button or refusal would betray itself with.
_ENGLISH: Final = re.compile(
    r"\b(the|roll|rolled|rolls|dice|die|success|successes|failure|will|willpower|pool|"
    r"spend|spent|take|beat|again|save|this|with|by|left|declared|after|cannot|made|odds|"
    r"outcomes|average|least|exact|options|ruleset|botch|saved|yours)\b",
    re.IGNORECASE,
)
#: Official titles kept in every language, and values players type as they are.
_KEPT: Final = re.compile(r"Chronicles of Darkness|World of Darkness|Fist Full of Dice|"
                          r"Dark Ages|\b(cofd|v20|fistful)\b")

PT: Final = "pt-BR"
ES: Final = "es-ES"

#: What each language calls the things a roll shows.
WORDS: Final[dict[str, dict[str, str]]] = {
    PT: {"rolled by": "Rolada por", "willpower": "Força de Vontade", "spend": "Gastar Vontade",
         "spent": "Vontade gasta: resta Vontade 4/5.", "cannot": "Essa rolagem não pode ser feita",
         "odds": "Chances", "success": "Sucesso", "saved": "Salva:"},
    ES: {"rolled by": "Tirada por", "willpower": "Fuerza de Voluntad", "spend": "Gastar Voluntad",
         "spent": "Voluntad gastada: queda Voluntad 4/5.", "cannot": "Esa tirada no se puede hacer",
         "odds": "Probabilidades", "success": "Éxito", "saved": "Guardada:"},
}


def ask(value: int, **options: Any) -> rolls.Ask:
    terms = (Term(label=None, value=value),)
    return lambda config: rolls.build_request(config.ruleset, terms, **options)


def assert_no_english(said: Recorder) -> None:
    """Every message and button of an interaction, in the languages it was drawn in."""
    for each in said.said:
        for text in (each.text, *each.buttons):
            english = _ENGLISH.findall(_KEPT.sub("", text))
            assert not english, f"English {english} in {text!r}"


async def _in(table: Table, ruleset: Ruleset) -> None:
    await table.store.write(
        lambda tx: tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, ruleset)
    )


async def _will(table: Table, current: int = 5) -> None:
    await table.store.write(lambda tx: tx.will.save(
        None, WillPool(guild_id=GUILD, user_id=ALICE, current=current, maximum=5)))


def _roll_id(said: Recorder) -> int:
    return int(said.answer.custom_ids[0].rsplit(":", 1)[1])


@pytest.mark.parametrize("locale", [PT, ES])
@pytest.mark.parametrize(
    ("ruleset", "options"),
    [(Ruleset.COFD, {}), (Ruleset.V20, {"difficulty": 6}), (Ruleset.FISTFUL, {})],
)
async def test_a_roll_with_will_declared_in_every_ruleset(
    table: Table, locale: str, ruleset: Ruleset, options: dict[str, Any]
) -> None:
    table.speak(locale, locale)
    await _in(table, ruleset)
    await _will(table)
    table.faces.add(8, 3, 9, 2, 7, 4)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3, will=True, **options),
                                      label=None, private=False))

    words = WORDS[locale]
    assert not said.answer.ephemeral
    assert words["rolled by"] in said.answer.text
    assert words["willpower"] in said.answer.text
    assert [(f.text, f.ephemeral) for f in said.of("followup")] == [(words["spent"], True)]
    assert_no_english(said)


@pytest.mark.parametrize("locale", [PT, ES])
async def test_a_refused_pool_is_said_in_the_members_language(table: Table, locale: str) -> None:
    table.speak(locale, locale)
    await _in(table, Ruleset.V20)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(0), label=None,
                                      private=False))

    assert said.answer.ephemeral
    assert said.answer.text.startswith(WORDS[locale]["cannot"])
    assert table.faces.left == 0
    assert_no_english(said)


@pytest.mark.parametrize(("options", "said_in"), [
    ({"again": "7"}, {PT: "again deve ser um destes: 10, 9, 8, none.",
                      ES: "again debe ser uno de estos: 10, 9, 8, none."}),
    ({"extra": -1}, {PT: "extra deve ser pelo menos 0.", ES: "extra debe ser al menos 0."}),
    ({"exceptional_at": "five"}, {PT: "exceptional_at deve ser um número inteiro.",
                                  ES: "exceptional_at debe ser un número entero."}),
    ({"rote": "maybe"}, {PT: "rote deve ser True ou False.", ES: "rote debe ser True o False."}),
    ({"flair": 1}, {PT: "flair não é uma opção desta rolagem: role de novo sem ela.",
                    ES: "flair no es una opción de esta tirada: vuelve a tirar sin ella."}),
    ({"sheet": 3}, {PT: "sheet não aceita esse valor: informe-o como diz a descrição da opção.",
                    ES: "sheet no admite ese valor: indícalo como dice la descripción de la "
                        "opción."}),
])
@pytest.mark.parametrize("locale", [PT, ES])
async def test_an_option_the_request_refuses_is_said_in_the_members_language(
    table: Table, locale: str, options: dict[str, Any], said_in: dict[str, str]
) -> None:
    """An option value the engine's request model refuses (none of its choices, below
    its bound, a word for a number, not an option at all, of no kind the bot words) is
    refused in the member's language as the edge refuses what a member types, naming the
    option and what it takes, where it said pydantic's English ("again: Input should be
    '10', '9', '8' or 'none'"); nothing is rolled."""
    table.speak(locale, locale)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(3, **options), label=None,
                                      private=False))

    assert said.answer.ephemeral
    assert said.answer.text == said_in[locale]
    assert table.faces.left == 0


@pytest.mark.parametrize("locale", [PT, ES])
async def test_odds_speak_the_language_and_write_its_numbers(table: Table, locale: str) -> None:
    table.speak(locale, locale)
    said = await table.run(rolls.odds(table.deps, table.ctx(), ask(5, rote=True)))

    assert said.answer.ephemeral
    assert WORDS[locale]["odds"] in said.answer.text
    assert WORDS[locale]["success"] in said.answer.text
    assert re.search(r"\d+,\d\d\s?%", said.answer.text), "a decimal comma"
    assert not re.search(r"\d\.\d\d\s?%", said.answer.text)
    assert_no_english(said)


async def test_private_odds_speak_the_members_language_and_public_ones_the_tables(
    table: Table,
) -> None:
    table.speak(PT, ES)
    mine = await table.run(rolls.odds(table.deps, table.ctx(), ask(3)))
    shared = await table.run(rolls.odds(table.deps, table.ctx(), ask(3), public=True))

    assert "Chances" in mine.answer.text
    assert "Probabilidades" in shared.answer.text
    assert_no_english(mine)
    assert_no_english(shared)


async def test_spend_will_updates_the_card_in_the_tables_language_and_tells_the_member_in_theirs(
    table: Table,
) -> None:
    table.speak(PT, ES)
    await _will(table)
    table.faces.add(3, 4)
    rolled = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label="puerta",
                                        private=False))
    assert "Gastar Voluntad" in rolled.answer.buttons

    table.faces.add(9, 10, 2, 8)
    said = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), _roll_id(rolled)))

    assert said.answer.kind == "update"
    assert "3 éxitos" in said.answer.text
    assert "Fuerza de Voluntad (gastada después de la tirada)" in said.answer.text
    assert said.of("followup")[0].message.content == WORDS[PT]["spent"]
    assert_no_english(rolled)
    assert_no_english(said)


@pytest.mark.parametrize(("locale", "counted"), [(PT, "· 2 Batidas"), (ES, "· 2 Pulsos")])
async def test_will_show_counts_beats_in_the_members_language(
    table: Table, locale: str, counted: str
) -> None:
    """/will show names the Beats in the member's language, as Take a Beat does."""
    table.speak(locale, locale)
    await _will(table)

    def two_beats(tx: Tx) -> None:
        tx.will.add_beat(GUILD, ALICE)
        tx.will.add_beat(GUILD, ALICE)

    await table.store.write(two_beats)
    said = await table.run(will.show(table.deps, table.ctx()))
    assert said.answer.text.endswith(counted), said.answer.text
    assert_no_english(said)


async def test_a_secret_roll_s_card_keeps_its_roller_s_language_when_will_is_spent(
    table: Table,
) -> None:
    """A secret roll's card is its roller's (drawn in their language); Spend Will redraws
    it in that language, while the Storyteller's copy keeps the table's."""
    table.speak(PT, None)  # the member's client in pt-BR, the table in English
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    table.faces.add(3, 4)
    rolled = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None,
                                        private=True))
    assert rolled.answer.ephemeral and "Gastar Vontade" in rolled.answer.buttons

    table.faces.add(9, 8, 2)
    said = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(), _roll_id(rolled)))

    assert said.answer.kind == "update"
    assert "2 sucessos" in said.answer.text
    for text in (said.answer.text, *said.answer.buttons):
        assert not _ENGLISH.findall(_KEPT.sub("", text)), text
    (copy,) = said.of("edit")
    assert "2 successes" in copy.text, "the Storyteller's copy in the table's language"


async def test_a_press_refused_is_said_in_the_members_language(table: Table) -> None:
    table.speak(ES, PT)
    table.faces.add(3, 4)
    rolled = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None,
                                        private=False))
    said = await table.run(rolls.spend_will_pressed(table.deps, table.ctx(9), _roll_id(rolled)))

    assert said.answer.ephemeral
    assert said.answer.text == "Solo quien hizo esta tirada puede usar sus botones."


async def test_the_servers_language_setting_outranks_its_discord_locale(table: Table) -> None:
    table.speak(PT, PT)
    await table.store.write(lambda tx: tx.settings.set_guild_language(GUILD, Language.ES_ES))
    table.faces.add(8, 8)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None,
                                      private=False))

    assert "Tirada por" in said.answer.text
    assert_no_english(said)


@pytest.mark.parametrize("locale", [PT, ES])
async def test_a_secret_roll_tells_the_table_in_its_language(table: Table, locale: str) -> None:
    table.speak(locale, locale)
    table.faces.add(8, 9)
    said = await table.run(rolls.roll(table.deps, table.ctx(), ask(2), label=None,
                                      private=True))

    assert said.answer.ephemeral
    notice = said.of("followup")[0]
    assert not notice.ephemeral
    assert ("rolagem secreta" if locale == PT else "tirada secreta") in notice.text
    assert_no_english(said)


@pytest.mark.parametrize("locale", [PT, ES])
async def test_saved_rolls_are_confirmed_in_the_members_language(
    table: Table, locale: str
) -> None:
    table.speak(locale, locale)
    added = await table.run(saved.add(table.deps, table.ctx(), "golpe",
                                      parts((Term(label=None, value=4),)), {"rote": True}))
    listed = await table.run(saved.show(table.deps, table.ctx()))
    unknown = await table.run(saved.roll(table.deps, table.ctx(), "nada"))

    assert added.answer.text.startswith(WORDS[locale]["saved"])
    assert "golpe" in listed.answer.text
    assert unknown.answer.ephemeral
    for said in (added, listed, unknown):
        assert_no_english(said)
