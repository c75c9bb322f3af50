"""Extended actions, teamwork, contests and initiative in Portuguese (Brazil) and Spanish:
the table's cards in the channel's language, a member's refusals in their own, and no
sentence of these features left in English (tables.po: bot/render/locales)."""

from __future__ import annotations

import re
from functools import cache
from typing import Final

import pytest
from babel.messages.pofile import read_po

from bot.edge import ids
from bot.flows import contest, extended, initiative, teamwork
from bot.flows.contest import Opponent
from bot.flows.rolls import build_request
from bot.render import extended as wording
from bot.render.lang import LOCALES, speaking, voice
from engine.faces import ScriptedFaces
from engine.models import RollRequest, Ruleset, Term
from engine.records import Language
from engine.roll import roll
from engine.table import extended as rules
from engine.table.extended import MAX_CONDITION, Choice, Interval
from engine.table.extended import start as start_extended
from engine.table.initiative import Tracker
from tests.bot.test_render import assert_within_discord_limits
from tests.flows.conftest import ALICE, BOB, GUILD, STORYTELLER, Said, Table, parts

#: (Discord locale, the words each feature must show in it).
LANGUAGES: Final = {
    "pt-BR": {
        "started": "Ação estendida iniciada: **forçar a porta**.",
        "card": "forçar a porta: ação estendida, em andamento",
        "roll": "Rolar",
        "ended": "ação estendida, bem-sucedida",
        "refused": "Só Alice, que iniciou esta ação estendida",
        "teamwork": "Trabalho em equipe: forçar a porta",
        "help": "Ajudar",
        "contest": "Disputa: queda de braço",
        "resist": "Rolar para resistir",
        "wins": "**Alice vence** por 2 sucessos",
        "initiative": "Iniciativa: rodada 1",
        "next": "Próximo",
        "joins": "**Alice** entra no combate",
    },
    "es-ES": {
        "started": "Acción extendida iniciada: **forçar a porta**.",
        "card": "forçar a porta: acción extendida, en curso",
        "roll": "Tirar",
        "ended": "acción extendida, lograda",
        "refused": "Solo Alice, quien inició esta acción extendida",
        "teamwork": "Trabajo en equipo: forçar a porta",
        "help": "Ayudar",
        "contest": "Enfrentamiento: queda de braço",
        "resist": "Tirar para resistir",
        "wins": "**Alice gana** por 2 éxitos",
        "initiative": "Iniciativa: asalto 1",
        "next": "Siguiente",
        "joins": "**Alice** se une al combate",
    },
}
LOCALES_OF: Final = {"pt-BR": Language.PT_BR, "es-ES": Language.ES_ES}

_PLACEHOLDER: Final = re.compile(r"\{\w*\}|\*\*|`|“|”|\(|\)")
_WORDS: Final = re.compile(r"[A-Za-z']+(?: [A-Za-z']+)+")


@cache
def english_sentences() -> frozenset[str]:
    """Every run of two or more English words in the messages of these features (the
    English of tables.po): none may reach a table that speaks another language."""
    with (LOCALES / "pt_BR" / "tables.po").open("rb") as file:
        catalog = read_po(file, locale="pt_BR")
    runs: set[str] = set()
    for message in catalog:
        if not message.id:
            continue
        for english in message.id if isinstance(message.id, tuple) else (message.id,):
            for piece in _PLACEHOLDER.split(english):
                runs.update(_WORDS.findall(piece))
    return frozenset(runs)


def english_in(text: str) -> list[str]:
    """The English runs of these features found in ``text``."""
    return sorted(run for run in english_sentences() if re.search(rf"\b{re.escape(run)}\b", text))


def english_left(*said: Said) -> list[str]:
    """The English runs of these features found in the messages (text and buttons)."""
    return english_in("\n".join(s.text + "\n" + "\n".join(s.buttons) for s in said))


def speak(table: Table, locale: str) -> None:
    """Members whose client speaks ``locale`` at a server whose preferred locale is it."""
    table.speak(locale, locale)


def press_of(said: Said, label: str) -> ids.Press:
    press = ids.parse(said.custom_ids[said.buttons.index(label)])
    assert press is not None
    return press


@pytest.mark.parametrize("locale", list(LANGUAGES))
async def test_an_extended_action_from_its_card_to_its_end(table: Table, locale: str) -> None:
    words = LANGUAGES[locale]
    speak(table, locale)
    said = await table.run(extended.start(
        table.deps, table.ctx(), parts((Term(value=3),)), options={}, target=3,
        label="forçar a porta", interval="30 minutos",
    ))
    card = said.answer
    assert not card.ephemeral
    assert words["started"] in card.text and words["card"] in card.text
    assert card.buttons[0] == words["roll"]
    assert english_left(card) == []

    other = await table.run(extended.card_pressed(
        table.deps, table.ctx(BOB, message_id=901), press_of(card, words["roll"])
    ))
    assert other.answer.ephemeral and words["refused"] in other.answer.text
    assert english_left(other.answer) == []

    for faces in ((8, 2, 3), (9, 9, 2)):  # 1 success, then 2: the 3 required
        table.faces.add(*faces)
        pressed = await table.run(extended.card_pressed(
            table.deps, table.ctx(message_id=901), press_of(card, words["roll"])
        ))
        note, card = pressed.answer, pressed.of("edit")[-1]
        assert not note.ephemeral
        assert english_in(note.message.content or "") == [], "the line above the roll"
        assert english_left(card) == [], "the card, brought up to date"
    assert words["ended"] in card.text
    assert card.buttons == []


@pytest.mark.parametrize("locale", list(LANGUAGES))
async def test_a_teamwork_roll(table: Table, locale: str) -> None:
    words = LANGUAGES[locale]
    speak(table, locale)
    said = await table.run(teamwork.start(
        table.deps, table.ctx(), lambda config: build_request(config.ruleset, (Term(value=3),)),
        label="forçar a porta", helper_limit=None,
    ))
    card = said.answer
    assert words["teamwork"] in card.text and card.buttons[0] == words["help"]
    assert english_left(card) == []
    key = press_of(card, words["help"]).key

    table.faces.add(8, 2)
    helped = await table.run(teamwork.form_submitted(
        table.deps, table.ctx(BOB), ids.Press(ids.Kind.POOL_FORM, "help", key), {"pool": "2"}
    ))
    assert english_left(*helped.of("edit")) == []
    own = await table.run(teamwork.card_pressed(
        table.deps, table.ctx(message_id=901), press_of(card, words["help"])
    ))
    assert own.answer.ephemeral and english_left(own.answer) == []
    table.faces.add(8, 8, 2, 3)
    rolled = await table.run(teamwork.roll_command(table.deps, table.ctx(), label=None))
    final = rolled.of("edit")[-1]
    assert final.buttons == [] and english_left(final) == []


@pytest.mark.parametrize("locale", list(LANGUAGES))
async def test_a_contest(table: Table, locale: str) -> None:
    words = LANGUAGES[locale]
    speak(table, locale)
    table.faces.add(8, 9, 10, 2)  # Alice: 3 successes
    said = await table.run(contest.contest(
        table.deps, table.ctx(), parts((Term(value=3),)), against=None,
        opponent=Opponent(BOB, "Bob"), label="queda de braço", difficulty=None,
        opponent_difficulty=None,
    ))
    card = said.answer
    assert words["contest"] in card.text and card.buttons == [words["resist"]]
    assert english_left(card) == []
    key = press_of(card, words["resist"]).key
    form = await table.run(contest.resist_pressed(
        table.deps, table.ctx(BOB), ids.Press(ids.Kind.RESIST, "", key)
    ))
    assert form.modals[0].title == words["resist"]
    table.faces.add(8, 2)
    decided = await table.run(contest.pool_form_submitted(
        table.deps, table.ctx(BOB, message_id=901), ids.Press(ids.Kind.POOL_FORM, "resist", key),
        {"pool": "2"},
    ))
    assert words["wins"] in decided.answer.text
    assert english_left(decided.answer) == []
    again = await table.run(contest.resist_pressed(
        table.deps, table.ctx(BOB), ids.Press(ids.Kind.RESIST, "", key)
    ))
    assert again.answer.ephemeral and english_left(again.answer) == []


@pytest.mark.parametrize("locale", list(LANGUAGES))
async def test_an_initiative_order(table: Table, locale: str) -> None:
    words = LANGUAGES[locale]
    speak(table, locale)
    started = await table.run(initiative.start(table.deps, table.ctx(STORYTELLER)))
    assert english_left(started.answer) == []
    table.faces.add(9)
    joined = await table.run(initiative.join(
        table.deps, table.ctx(ALICE), parts((Term(value=5),)), 0
    ))
    assert words["joins"] in joined.answer.text
    table.faces.add(3)
    await table.run(initiative.add(
        table.deps, table.ctx(STORYTELLER), "Orc", (Term(value=3),), modifier=0, count=None
    ))
    record = await table.store.read(lambda tx: tx.initiative.get(1))
    assert record is not None
    turn = record.state(Tracker).turn
    card = await table.run(initiative.card_pressed(
        table.deps, table.ctx(STORYTELLER, message_id=record.message_id),
        ids.Press(ids.Kind.INITIATIVE_CARD, "next", record.id, turn),
    ))
    assert words["initiative"] in card.answer.text and words["next"] in card.answer.buttons
    assert card.answer.text.index("Alice") < card.answer.text.index("Orc")
    stale = await table.run(initiative.card_pressed(
        table.deps, table.ctx(STORYTELLER, message_id=record.message_id),
        ids.Press(ids.Kind.INITIATIVE_CARD, "next", record.id, turn),
    ))
    assert stale.of("followup")[0].ephemeral
    assert english_left(joined.answer, card.answer, *stale.said) == []


async def test_the_server_setting_speaks_to_the_table_and_the_client_to_the_member(
    table: Table,
) -> None:
    """A Spanish server, a Portuguese member: the card in Spanish, the refusal in
    Portuguese."""
    await table.store.write(lambda tx: tx.settings.set_guild_language(GUILD, Language.ES_ES))
    table.speak("pt-BR", None)
    said = await table.run(extended.start(
        table.deps, table.ctx(), parts((Term(value=3),)), options={}, target=3,
        label="forçar a porta",
    ))
    assert LANGUAGES["es-ES"]["card"] in said.answer.text
    other = await table.run(extended.roll(table.deps, table.ctx(BOB), label="forçar a porta"))
    assert LANGUAGES["pt-BR"]["refused"] in other.answer.text


@pytest.mark.parametrize("language", list(LOCALES_OF.values()))
def test_the_longest_extended_card_stays_within_discord_limits(language: Language) -> None:
    """Every field at its longest (labels, names, traits, a resisted pool, Conditions
    past the field's room, an interval shortened twice) in each translated language."""
    long_traits = tuple(Term(label="Característica" * 6 + str(n), value=1) for n in range(20))
    request = RollRequest(ruleset=Ruleset.COFD, terms=long_traits)
    state = start_extended(
        request, target=1000, max_rolls=1000, skill=5,
        interval=Interval(amount=999_999, unit="u" * 40),
    )
    state = state.model_copy(update={"shortened": 2})
    step = None
    for n in range(60):
        result = roll(rules.roll_request(state), ScriptedFaces([2] * 40))
        step = rules.apply_roll(state, result, None)
        condition = f"<@{n}> " + "x" * (MAX_CONDITION - 6)
        state = rules.choose(step.state, Choice.TAKE_CONDITION, condition)
    label = "@everyone **negrito** " * 10
    with speaking(voice(language)):
        for text_only in (False, True):
            embed = wording.extended_card(
                state, label=label, owner=label, action_id=999_999, last=step,
                decision=Choice.TAKE_CONDITION, text_only=text_only,
            )
            assert_within_discord_limits(embed)
            assert "…" in next(f.value or "" for f in embed.fields if f.name in {
                "Condições", "Estados"})


def test_the_empty_condition_refusal_names_the_longest_condition() -> None:
    """The catalogue's message spells the limit out (a message is fixed text)."""
    assert f"1 to {MAX_CONDITION} characters" in wording.EMPTY_CONDITION
