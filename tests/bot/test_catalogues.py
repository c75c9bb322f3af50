"""Every message the code says has a translation in every language, that keeps what the
code fills in (placeholders) and the Markdown around it (tools/catalogue.py makes the
template these tests read)."""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Iterator
from typing import Final

import pytest
from babel.messages.catalog import Catalog, Message

from bot.render.lang import FOLDERS, LOCALES
from engine.records import Language
from tools import catalogue

TRANSLATED = [language for language in Language if language is not Language.EN]
#: Option names stay English in every language (docs/i18n/README.md): no translation due.
UNTRANSLATED_CONTEXTS = catalogue.UNTRANSLATED
_PLACEHOLDER = re.compile(r"(?<!\{)\{(\w*)[^{}]*\}(?!\})")


@pytest.fixture(scope="module")
def template() -> Catalog:
    return catalogue.template()


def _key(message: Message) -> tuple[str, str | None]:
    ident = message.id if isinstance(message.id, str) else message.id[0]
    return ident, message.context


def _parts(language: Language) -> Iterator[tuple[str, Message]]:
    for path in sorted((LOCALES / FOLDERS[language]).glob("*.po")):
        for message in catalogue.read(path, FOLDERS[language]):
            if message.id:
                yield path.stem, message


def _forms(value: str | tuple[str, ...] | None) -> tuple[str, ...]:
    if value is None:
        return ()
    return (value,) if isinstance(value, str) else tuple(value)


def _placeholders(text: str) -> set[str]:
    return set(_PLACEHOLDER.findall(text))


def _due(template: Catalog) -> list[Message]:
    return [m for m in template if m.id and m.context not in UNTRANSLATED_CONTEXTS]


@pytest.mark.parametrize("language", TRANSLATED, ids=str)
def test_every_message_of_the_code_is_translated(template: Catalog, language: Language) -> None:
    translated = {_key(m): m for _part, m in _parts(language) if all(_forms(m.string))}
    missing = [_key(m) for m in _due(template) if _key(m) not in translated]
    assert not missing, f"{len(missing)} untranslated in {language}, e.g. {missing[:10]}"


@pytest.mark.parametrize("language", TRANSLATED, ids=str)
def test_no_translation_is_of_a_message_the_code_no_longer_says(
    template: Catalog, language: Language
) -> None:
    said = {_key(m) for m in template if m.id}
    stale = [(part, _key(m)) for part, m in _parts(language) if _key(m) not in said]
    assert not stale, f"run python -m tools.catalogue update: {stale[:10]}"


@pytest.mark.parametrize("language", TRANSLATED, ids=str)
def test_a_message_lives_in_one_part(language: Language) -> None:
    counts = Counter(_key(m) for _part, m in _parts(language))
    assert [key for key, count in counts.items() if count > 1] == []


@pytest.mark.parametrize("language", TRANSLATED, ids=str)
def test_translations_keep_the_placeholders_and_the_markdown(language: Language) -> None:
    wrong: list[str] = []
    for _part, message in _parts(language):
        sources, forms = _forms(message.id), [f for f in _forms(message.string) if f]
        wanted = set().union(*(_placeholders(s) for s in sources))
        found = [_placeholders(form) for form in forms]
        if message.pluralizable:
            # A form may say "one" in words instead of {n}; together they say everything.
            ok = all(f <= wanted for f in found) and (not found or set().union(*found) == wanted)
        else:
            ok = all(f == wanted for f in found)
        for mark in ("**", "`", "-# "):
            if any(form.count(mark) != sources[0].count(mark) for form in forms):
                ok = False
        if not ok:
            wrong.append(f"{sources[0]!r} -> {forms!r}")
    assert not wrong, f"{len(wrong)} in {language}: " + "\n".join(wrong[:10])


def test_the_template_file_holds_every_message_of_the_code(template: Catalog) -> None:
    written = catalogue.read(catalogue.TEMPLATE, "en")
    assert {_key(m) for m in written if m.id} == {_key(m) for m in template if m.id}, (
        "run python -m tools.catalogue update"
    )


def _marked_in_code() -> Iterator[tuple[str, tuple[str, str | None]]]:
    """(where, key) of every message a ``_``, ``n_``, ``p_`` or ``N_`` call of ``bot/``
    spells out, read from the syntax tree, which sees into f-strings."""
    for path in sorted((catalogue.ROOT / "bot").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                    and node.func.id in catalogue.KEYWORDS):
                continue
            texts = [a.value if isinstance(a, ast.Constant) and isinstance(a.value, str)
                     else None for a in node.args]
            context, message = (texts[0], texts[1]) if node.func.id == "p_" else (None, texts[0])
            if message is not None:
                yield f"{path.relative_to(catalogue.ROOT)}:{node.lineno}", (message, context)


def test_every_marked_message_is_in_the_template(template: Catalog) -> None:
    """A message the catalogue tool cannot see (Babel's extractor skips a call inside an
    f-string) is never translated: every marked call of the code is in the template."""
    extracted = {_key(m) for m in template if m.id}
    unseen = [(where, key) for where, key in _marked_in_code() if key not in extracted]
    assert not unseen, f"move these calls out of their f-strings: {unseen}"


#: Words of another language or another edition that a language's glossary replaces
#: (docs/i18n): a sheet is a "hoja" in Spanish ("ficha" is Portuguese's), 1s "anulan"
#: successes; untrained is "sem treino" in Portuguese.
NOT_THE_GLOSSARYS: Final = {
    Language.ES_ES: ("ficha", "se comen"),
    Language.PT_BR: ("sem perícia",),
}


@pytest.mark.parametrize("language", TRANSLATED, ids=str)
def test_translations_use_the_glossarys_word_for_a_thing(language: Language) -> None:
    """One term, one translation: no translation says a word its glossary replaces."""
    wrong = [form for _part, message in _parts(language) for form in _forms(message.string)
             if any(word in form.casefold() for word in NOT_THE_GLOSSARYS[language])]
    assert not wrong, wrong
