"""Which language a message is drawn in, and how numbers are written in it."""

from __future__ import annotations

import asyncio
from datetime import date

import pytest

from bot.render import lang
from bot.render.lang import (
    _,
    day,
    n_,
    number,
    percent,
    personal_voice,
    public_voice,
    speaking,
    voice,
)
from engine.records import Language

ES_SUCCESS = "Éxito"
PT_SUCCESS = "Sucesso"


def _success() -> str:
    return _("Success")


@pytest.mark.parametrize(
    ("locale", "expected"),
    [("pt-BR", Language.PT_BR), ("es-ES", Language.ES_ES), ("es-419", Language.ES_ES),
     ("en-US", Language.EN), ("en-GB", Language.EN), ("de", None), ("pt-PT", None), (None, None)],
)
def test_a_discord_locale_is_spoken_by_one_of_our_languages_or_none(
    locale: str | None, expected: Language | None
) -> None:
    assert lang.language_of(locale) is expected


def test_a_member_whose_client_speaks_none_of_ours_hears_english() -> None:
    assert personal_voice("de") is voice(Language.EN)
    assert personal_voice(None) is voice(Language.EN)
    assert personal_voice("es-419") is voice(Language.ES_ES)


def test_public_messages_follow_the_setting_then_the_servers_locale_then_english() -> None:
    assert public_voice(Language.ES_ES, "pt-BR") is voice(Language.ES_ES)
    assert public_voice(None, "pt-BR") is voice(Language.PT_BR)
    assert public_voice(None, "fr") is voice(Language.EN)
    assert public_voice(None, None) is voice(Language.EN)
    assert public_voice(Language.EN, "pt-BR") is voice(Language.EN)


def test_outside_any_interaction_the_bot_speaks_english() -> None:
    assert _success() == "Success"


def test_speaking_lasts_for_its_block_and_nests() -> None:
    with speaking(voice(Language.PT_BR)):
        assert _success() == PT_SUCCESS
        with speaking(voice(Language.ES_ES)):
            assert _success() == ES_SUCCESS
        assert _success() == PT_SUCCESS
    assert _success() == "Success"


async def test_concurrent_interactions_never_hear_each_others_language() -> None:
    heard: dict[str, list[str]] = {"pt": [], "es": []}

    async def member(key: str, language: Language) -> None:
        lang.speak(voice(language))
        for _round in range(5):
            await asyncio.sleep(0)
            heard[key].append(_success())

    await asyncio.gather(
        asyncio.create_task(member("pt", Language.PT_BR)),
        asyncio.create_task(member("es", Language.ES_ES)),
    )
    assert heard == {"pt": [PT_SUCCESS] * 5, "es": [ES_SUCCESS] * 5}
    assert _success() == "Success"


def test_placeholders_are_filled_after_translation() -> None:
    assert _("{name} in {place}", name="a", place="b") == "a in b"
    assert n_("{n} die", "{n} dice", 1) == "1 die"
    assert n_("{n} die", "{n} dice", 3) == "3 dice"


@pytest.mark.parametrize(
    ("language", "decimal", "share"),
    [(Language.EN, "1,234.5", "12.5%"), (Language.PT_BR, "1.234,5", "12,5%"),
     (Language.ES_ES, "1.234,5", "12,5 %")],
)
def test_numbers_and_percentages_are_written_as_the_language_writes_them(
    language: Language, decimal: str, share: str
) -> None:
    with speaking(voice(language)):
        assert number(1234.5, 1) == decimal
        assert percent(0.125).replace("\u00a0", " ") == share


@pytest.mark.parametrize(
    ("language", "written"),
    [(Language.EN, "November 1, 2026"), (Language.PT_BR, "1 de novembro de 2026"),
     (Language.ES_ES, "1 de noviembre de 2026")],
)
def test_dates_are_written_as_the_language_writes_them(language: Language, written: str) -> None:
    with speaking(voice(language)):
        assert day(date(2026, 11, 1)) == written


@pytest.mark.parametrize(
    ("language", "one", "many"),
    [(Language.PT_BR, "Precisava de 1 sucesso: ok.", "Precisava de {n} sucessos: ok."),
     (Language.ES_ES, "Hacía falta 1 éxito: ok.", "Hacían falta {n} éxitos: ok.")],
)
def test_every_count_past_one_takes_the_catalogue_s_plural_whatever_babel_s_rule(
    language: Language, one: str, many: str
) -> None:
    """Babel 2.17 gives Portuguese and Spanish a third plural form (millions); the
    catalogues have two, and the rule they declare is the one spoken."""
    singular, plural = "Needed {n} success: {met}.", "Needed {n} successes: {met}."
    with speaking(voice(language)):
        assert n_(singular, plural, 1, met="ok") == one
        for count in (2, 5, 1_000_000):
            assert n_(singular, plural, count, met="ok") == many.format(n=count)
    assert lang.catalogue(language).num_plurals == 2
