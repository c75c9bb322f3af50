"""The roll card in Portuguese and Spanish: the biggest cards still fit Discord's limits in
the longest language, and the shared words come from the catalogues."""

from __future__ import annotations

import discord
import pytest

from bot.render.lang import speaking, voice
from bot.render.message import CONTENT_LIMIT, Message, plain
from bot.render.odds import odds_embed
from bot.render.refusals import refusal_text
from bot.render.rolls import RollStatus, roll_embed
from bot.render.text import options_text
from engine.constants import MAX_POOL
from engine.faces import ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Fate,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
)
from engine.odds import odds
from engine.parser import MAX_LABEL, MAX_TERMS, PoolSyntaxError, parse_pool
from engine.records import Language
from engine.refusals import Refusal, RefusalCode
from engine.roll import roll
from engine.trait_names import localised
from tests.bot.test_render import BIGGEST, assert_within_discord_limits

LANGUAGES = [Language.EN, Language.PT_BR, Language.ES_ES]


def _every_adjustment() -> RollResult:
    """A cofd roll with every adjustment, every option that shows, 20 long trait names and
    a sheet's notes: the longest pool field a roll can have."""
    terms = tuple(Term(label=f"{chr(65 + i)}" * MAX_LABEL, value=5) for i in range(MAX_TERMS))
    request = RollRequest(
        ruleset=Ruleset.COFD, terms=terms, specialty=True, untrained="mental", resist=2,
        will=True, rote=True, again="8", exceptional_at=3, extra=2,
        adjustments=(
            Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-1),
            Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2),
            Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=-4),
            Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=-2),
        ),
        sheet={"character": "C" * 100, "specialty": "S" * 100, "untrained": "U" * 100,
               "resist": "R" * 100, "resist_of": "O" * 100},
    )
    result = roll(request, ScriptedFaces([7] * 300 + [10] * 2000))
    assert not result.refused, result.refusal
    return result


CARDS = {**BIGGEST, "every adjustment and option": _every_adjustment}


@pytest.mark.parametrize("language", LANGUAGES)
@pytest.mark.parametrize("name", list(CARDS))
@pytest.mark.parametrize("text_only", [False, True])
@pytest.mark.parametrize("compact", [False, True])
def test_the_biggest_cards_fit_discord_in_every_language(
    language: Language, name: str, text_only: bool, compact: bool
) -> None:
    result = CARDS[name]()
    with speaking(voice(language)):
        embed = roll_embed(
            result, label="x" * 500, roller="y" * 500, roll_id=2**63, text_only=text_only,
            status=RollStatus.CLOSED, secret=2**63, compact=compact,
        )
        void = roll_embed(
            result, label="x" * 500, roller="y" * 500, roll_id=2**63, text_only=text_only,
            status=RollStatus.VOID, compact=compact,
        )
        shown = plain(Message(embed=embed))
    assert_within_discord_limits(embed)
    assert_within_discord_limits(void)
    assert len(shown.content or "") <= CONTENT_LIMIT


def test_the_longest_language_is_tried() -> None:
    """The limits above are met by a language longer than English, not by luck."""
    result = _every_adjustment()
    lengths = {}
    for language in LANGUAGES:
        with speaking(voice(language)):
            lengths[language] = len(roll_embed(result, label="door", roller="Ada", roll_id=1))
    assert max(lengths[Language.PT_BR], lengths[Language.ES_ES]) > lengths[Language.EN]


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.PT_BR, ["Força de Vontade (declarada com a rolagem)", "Parada", "Rolada por",
                          "especialização", "sem treino (improvisando)", "Regra do 8"]),
        (Language.ES_ES, ["Fuerza de Voluntad (declarada con la tirada)", "Reserva",
                          "Tirada por", "especialidad", "sin entrenamiento (improvisando)",
                          "Regla del 8"]),
    ],
)
def test_the_card_speaks_the_rules_words_of_each_language(
    language: Language, words: list[str]
) -> None:
    with speaking(voice(language)):
        embed = roll_embed(_every_adjustment(), label=None, roller="Ada", roll_id=1)
    text = "\n".join([embed.title or "", embed.description or "", embed.footer.text or "",
                      *(f"{f.name}: {f.value}" for f in embed.fields)])
    for word in words:
        assert word in text
    for english in ("Pool", "Rolled by", "Willpower", "dice", "success", "Roll #"):
        assert english not in text


@pytest.mark.parametrize("language", [Language.PT_BR, Language.ES_ES])
def test_odds_of_the_widest_pool_fit_and_write_numbers_for_the_language(
    language: Language,
) -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=MAX_POOL),), again="8",
                          rote=True)
    with speaking(voice(language)):
        embed = odds_embed(odds(request), pool_text="100", ruleset=Ruleset.COFD,
                           options_text="8-again, rote")
    assert_within_discord_limits(embed)
    outcomes = embed.fields[0].value or ""
    assert "," in outcomes
    assert "." not in outcomes.replace("…", "")


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (Language.PT_BR, "“]” fecha um colchete que nunca foi aberto"),
        (Language.ES_ES, "«]» cierra un corchete que nunca se abrió"),
    ],
)
def test_a_pool_the_parser_refuses_is_worded_in_the_language(
    language: Language, expected: str
) -> None:
    with pytest.raises(PoolSyntaxError) as refused:
        parse_pool("3 ] + 2")
    with speaking(voice(language)):
        assert refusal_text(refused.value.refusal).startswith(expected)


def test_english_is_unchanged_outside_any_voice() -> None:
    embed = roll_embed(_every_adjustment(), label=None, roller="Ada", roll_id=1)
    assert isinstance(embed, discord.Embed)
    assert [f.name for f in embed.fields] == ["Pool", "Rolled by"]


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        (Language.PT_BR, "esta ação estendida terminou (bem-sucedida)"),
        (Language.ES_ES, "esta acción extendida terminó (lograda)"),
        (Language.EN, "this extended action has ended (succeeded)"),
    ],
)
def test_a_state_word_in_a_refusal_is_translated_too(language: Language, expected: str) -> None:
    refused = Refusal.of(RefusalCode.EXTENDED_ENDED, status="succeeded")
    with speaking(voice(language)):
        assert refusal_text(refused) == expected


@pytest.mark.parametrize("language", [Language.PT_BR, Language.ES_ES])
@pytest.mark.parametrize("trait", ["Resolve", "Stamina", "Composure", "Defense"])
def test_a_resistance_trait_named_in_a_refusal_takes_no_article_of_a_gender(
    language: Language, trait: str
) -> None:
    """The table's name of a resistance trait fills the refusal for a missing
    ``resist_target`` (Determinação, Defesa, Resolución, Compostura are feminine, Vigor and
    Autocontrole masculine, and the member's own language may be another than the table's):
    the sentence puts no article or relative of one gender before it ("de quem é o
    Determinação", "cuyo Compostura" were wrong)."""
    refused = Refusal.of(RefusalCode.RESIST_NO_TARGET, trait=trait)
    for traits in ("pt-BR", "es-ES"):
        with speaking(voice(language)):
            text = refusal_text(refused, traits=traits)
        name = localised(trait, traits)
        assert name in text
        for article in ("o", "a", "el", "la", "cuyo", "cuya"):
            assert f" {article} {name}" not in text


@pytest.mark.parametrize(
    ("language", "void", "cancelled"),
    [
        (Language.PT_BR, "Descartados", "anulado"),
        (Language.ES_ES, "Descartados", "anulado"),
    ],
)
@pytest.mark.parametrize("text_only", [False, True])
def test_void_dice_and_dice_cancelled_by_a_1_have_words_apart(
    language: Language, void: str, cancelled: str, text_only: bool
) -> None:
    """A die the re-reading after Will no longer needs (void) is not a success a 1 cancelled
    ("8 (anulado)"), nor a roll the Storyteller voided ("Anulada"): its line says
    "Descartados", where it said "Anulados" beside the cancelled dice."""
    result = roll(RollRequest(ruleset=Ruleset.V20, terms=(Term(value=4),)),
                  ScriptedFaces([8, 1, 3, 5]))
    dice = list(result.dice)
    dice[3] = dice[3]._replace(fate=Fate.VOID)
    result = result.model_copy(update={"dice": tuple(dice)})
    with speaking(voice(language)):
        embed = roll_embed(result, label=None, roller="Ada", roll_id=1, text_only=text_only)
    lines = (embed.description or "").splitlines()
    assert any(line.startswith(void) for line in lines)
    assert not any(line.startswith("Anulad") for line in lines)
    if text_only:
        assert f"8 ({cancelled})" in (embed.description or "")


@pytest.mark.parametrize(
    ("language", "words"),
    [
        (Language.PT_BR, "sem treino (os 1 anulam sucessos), arriscado (os 1 anulam sucessos)"),
        (Language.ES_ES, "sin entrenamiento (los 1 anulan éxitos), "
                         "arriesgado (los 1 anulan éxitos)"),
    ],
)
def test_a_fistful_roll_names_1s_eating_successes_and_untrained_as_the_glossary_does(
    language: Language, words: str
) -> None:
    """One rules word for one thing: the options line of an untrained, risky `fistful` roll
    says untrained and "1s eat successes" as `/roll`'s options and the glossary do ("sem
    treino", "anulam"; "anulan"), where pt-BR said "sem perícia" and es-ES "se comen"."""
    request = RollRequest(ruleset=Ruleset.FISTFUL, terms=(Term(value=3),), untrained="physical",
                          risky=True)
    with speaking(voice(language)):
        assert options_text(request) == words
