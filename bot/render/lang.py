"""The languages the bot speaks, and the one it speaks in now.

Every word render writes comes from a gettext catalogue (``bot/render/locales``,
English the source: a message's English text is its id). Which language a
message is drawn in is decided per message, not per bot: a member's own
(ephemeral) answers follow their Discord client, public ones the channel's
setting, else the server's, else the server's preferred locale, else English
(:func:`public_voice`, :func:`personal_voice`). The edge sets the member's
voice when an interaction comes in; a flow draws its public messages inside
``with speaking(ctx.public_voice(config))``. The voice in force is a context
variable, so concurrent interactions never hear each other's language.

Render calls :func:`_` (a sentence), :func:`n_` (a sentence with a count),
:func:`p_` (a word that needs a context to translate, such as a setting's
name) and marks words kept in tables with :func:`N_` (translated where they
are shown). Placeholders are ``str.format`` names: ``_("{name} rolls", name=…)``.
"""

from __future__ import annotations

import gettext
import io
from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from copy import copy
from datetime import date
from functools import cache
from pathlib import Path
from typing import Final, Protocol

from babel import Locale
from babel.dates import format_date
from babel.messages.catalog import Catalog
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from babel.numbers import NumberPattern

from engine.records import Language

#: Where the catalogues live: ``<folder per language>/<part>.po``.
LOCALES: Final = Path(__file__).with_name("locales")


def N_(message: str, /) -> str:  # noqa: N802 - gettext's own name for a marker
    """Mark a message for the catalogue without translating it yet (tables of words
    built at import, translated where they are shown with :func:`_`)."""
    return message


#: Each language's own name, as /config and /help show it (marked for the catalogue, where
#: each language keeps the names as their speakers write them).
LANGUAGE_NAMES: Final[dict[Language, str]] = {
    Language.EN: N_("English"),
    Language.PT_BR: N_("Português (Brasil)"),
    Language.ES_ES: N_("Español"),
}

#: The folder of each translated language's catalogue (gettext's locale spelling).
FOLDERS: Final[dict[Language, str]] = {Language.PT_BR: "pt_BR", Language.ES_ES: "es_ES"}


class Voice(Protocol):
    """A language to draw messages in."""

    @property
    def locale(self) -> Locale:
        """How numbers and percentages are written."""
        ...

    def gettext(self, message: str) -> str:
        """One message in this language."""
        ...

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        """The form of a message that fits the count ``n``."""
        ...

    def pgettext(self, context: str, message: str) -> str:
        """A message that needs a context (a setting's name, a command's name)."""
        ...

    def user(self, text: str) -> str:
        """User text (a name, a label) as it sits in this language's sentences."""
        ...


class CatalogueVoice:
    """A language spoken from its gettext catalogue; English is its own source."""

    def __init__(self, locale: Locale, translations: gettext.NullTranslations) -> None:
        self._locale = locale
        self._translations = translations

    @property
    def locale(self) -> Locale:
        return self._locale

    def gettext(self, message: str) -> str:
        return self._translations.gettext(message)

    def ngettext(self, singular: str, plural: str, n: int) -> str:
        return self._translations.ngettext(singular, plural, n)

    def pgettext(self, context: str, message: str) -> str:
        return self._translations.pgettext(context, message)

    def user(self, text: str) -> str:
        return text


def catalogue(language: Language) -> Catalog:
    """A translated language's catalogue: every ``.po`` file of its folder, as one.

    Its plural rule is the one its files declare (their translations have as many forms
    as that rule names), not Babel's for the locale: Babel 2.17 took CLDR's newer rules,
    which give Portuguese and Spanish a third form (for millions), and with it every
    plural past the first fell back to English."""
    whole = Catalog(locale=FOLDERS[language])
    for path in sorted((LOCALES / FOLDERS[language]).glob("*.po")):
        with path.open("rb") as file:
            part = read_po(file, locale=FOLDERS[language])
        whole.mime_headers = [("Plural-Forms", part.plural_forms)]
        for message in part:
            if message.id and message.string:
                whole[message.id] = message
    return whole


@cache
def voice(language: Language) -> Voice:
    """The voice of a language (its catalogue read once, on first use)."""
    if language is Language.EN:
        return CatalogueVoice(Locale("en"), gettext.NullTranslations())
    compiled = io.BytesIO()
    write_mo(compiled, catalogue(language))
    compiled.seek(0)
    return CatalogueVoice(Locale.parse(FOLDERS[language]), gettext.GNUTranslations(compiled))


#: Discord locales spoken by a language of ours (the rest hear English or the table's).
_DISCORD: Final[dict[str, Language]] = {
    "en-US": Language.EN,
    "en-GB": Language.EN,
    "pt-BR": Language.PT_BR,
    "es-ES": Language.ES_ES,
    "es-419": Language.ES_ES,
}

#: Voices for locales that are no language of ours: the tests' pseudo-locales.
EXTRA: dict[str, Voice] = {}


def language_of(locale: str | None) -> Language | None:
    """The language of ours for a Discord locale (``es-419`` is Spanish), if any."""
    return None if locale is None else _DISCORD.get(locale)


def _voice_of(locale: str | None) -> Voice | None:
    if locale is not None and locale in EXTRA:
        return EXTRA[locale]
    language = language_of(locale)
    return None if language is None else voice(language)


def personal_voice(locale: str | None) -> Voice:
    """A member's own answers: their client's language, English when it is none of ours."""
    return _voice_of(locale) or voice(Language.EN)


def public_voice(setting: Language | None, guild_locale: str | None) -> Voice:
    """Messages the table sees: the channel's (or server's) setting, else the server's
    preferred locale from Discord, else English."""
    if setting is not None:
        return voice(setting)
    return _voice_of(guild_locale) or voice(Language.EN)


_speaking: ContextVar[Voice | None] = ContextVar("speaking", default=None)


def current() -> Voice:
    """The voice messages are drawn in now (English outside any interaction)."""
    return _speaking.get() or voice(Language.EN)


def speak(spoken: Voice) -> None:
    """From now on in this interaction (this task), draw messages in ``spoken``."""
    _speaking.set(spoken)


@contextmanager
def speaking(spoken: Voice) -> Iterator[Voice]:
    """Draw the messages of the block in ``spoken``, then go back to the voice before."""
    token = _speaking.set(spoken)
    try:
        yield spoken
    finally:
        _speaking.reset(token)


def trait_language(spoken: Voice | None = None) -> str:
    """The language a voice (the one in force by default) names a sheet's traits in:
    ``pt-BR``, ``es-ES``, ``en`` (the tests' pseudo-locales too), as
    :mod:`engine.trait_names` spells it."""
    return str((spoken or current()).locale).replace("_", "-")


def _(message: str, /, **values: object) -> str:
    """A message in the voice in force, its ``{placeholders}`` filled."""
    text = current().gettext(message)
    return text.format(**values) if values else text


def n_(singular: str, plural: str, n: int, /, **values: object) -> str:
    """The form of a message that fits ``n`` (given to it as ``{n}``)."""
    return current().ngettext(singular, plural, n).format(n=n, **values)


def p_(context: str, message: str, /, **values: object) -> str:
    """A message that needs ``context`` to translate (a short word, a name)."""
    text = current().pgettext(context, message)
    return text.format(**values) if values else text


def user(text: str) -> str:
    """User text placed in a sentence (the tests' pseudo-locale marks it as such)."""
    return current().user(text)


@cache
def _fixed(locale: Locale, percentage: bool, digits: int) -> NumberPattern:
    """The language's own number (or percentage) pattern with exactly ``digits``
    decimals, made once."""
    fixed: NumberPattern = copy(
        (locale.percent_formats if percentage else locale.decimal_formats)[None])
    fixed.frac_prec = (digits, digits)
    return fixed


def number(value: float, digits: int = 0) -> str:
    """A number as the voice in force writes it (``1,234.5`` / ``1.234,5``)."""
    locale = current().locale
    return str(_fixed(locale, False, digits).apply(value, locale))


def day(when: date) -> str:
    """A date as the voice in force writes it (``November 1, 2026``, ``1 de novembro de
    2026``)."""
    return str(format_date(when, "long", locale=current().locale))


def percent(fraction: float, digits: int = 1) -> str:
    """A fraction as a percentage as the voice in force writes it (``0.125`` → ``12.5%``,
    ``12,5%``, ``12,5 %``)."""
    locale = current().locale
    return str(_fixed(locale, True, digits).apply(fraction, locale))
