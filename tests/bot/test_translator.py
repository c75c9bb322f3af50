"""The slash commands in Portuguese and Spanish, as the tree syncs them to Discord.

The payloads are built the way ``CommandTree.sync`` builds them (each command's
``get_translated_payload`` with the tree's translator), so what is checked here is what
Discord receives: every localised command name valid for Discord, siblings apart in every
language, every description and choice within Discord's limits.
"""

from __future__ import annotations

import unicodedata
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands
from discord.app_commands import TranslationContext
from discord.app_commands import TranslationContextLocation as Where

from bot.client import EXTENSIONS, StorytellerBot
from bot.edge.translator import CatalogueTranslator
from bot.render.lang import FOLDERS, LOCALES
from bot.settings import Settings
from bot.store import Store
from engine.faces import ScriptedFaces
from engine.records import Language
from tools.catalogue import COMMANDS_PART, UNTRANSLATED, read

JSON = dict[str, Any]

#: The Discord locales the bot speaks besides English (Latin American Spanish hears Spain's).
SPOKEN = ("pt-BR", "es-ES", "es-419")

#: Subcommand and group options (Discord's option types 1 and 2).
SUBCOMMAND_TYPES = (1, 2)


def valid_name(name: str) -> bool:
    """Discord's rule for a chat-input command name, ``^[-_\\p{L}\\p{N}]{1,32}$`` and lower
    case (the categories of ``\\p{L}`` and ``\\p{N}`` read from unicodedata)."""
    return (
        1 <= len(name) <= 32
        and all(ch in "-_" or unicodedata.category(ch)[0] in "LN" for ch in name)
        and name == name.lower()
    )


@pytest.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[JSON]]:
    """Every top-level command as sync sends it, the bot's own translator set."""
    store = await Store.open(tmp_path / "bot.sqlite3")
    bot = StorytellerBot(
        settings=Settings(discord_token="test-token"), store=store, faces=ScriptedFaces([])
    )
    await bot.tree.set_translator(CatalogueTranslator())
    for extension in EXTENSIONS:
        await bot.load_extension(extension)
    translator = bot.tree.translator
    assert translator is not None
    yield [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]
    await store.close()


def in_locale(node: JSON, key: str, locale: str) -> str:
    """What a client in ``locale`` shows of ``node[key]`` (its localisation, else English)."""
    localized: dict[str, str] = node.get(f"{key}_localizations") or {}
    return localized[locale] if locale in localized else str(node[key])


def commands_and_groups(nodes: list[JSON], path: str = "") -> Iterator[tuple[str, JSON]]:
    """(English path, node) of every command, group and subcommand."""
    for node in nodes:
        here = f"{path} {node['name']}".strip()
        yield here, node
        yield from commands_and_groups(
            [o for o in node.get("options", []) if o["type"] in SUBCOMMAND_TYPES], here
        )


def options(nodes: list[JSON]) -> Iterator[tuple[str, JSON]]:
    """(English command path, option) of every option that is no subcommand."""
    for path, node in commands_and_groups(nodes):
        for option in node.get("options", []):
            if option["type"] not in SUBCOMMAND_TYPES:
                yield path, option


def sibling_groups(nodes: list[JSON]) -> Iterator[tuple[str, list[JSON]]]:
    """The top-level commands, then the subcommands of each group, one list each."""
    yield "/", nodes
    for path, node in commands_and_groups(nodes):
        children = [o for o in node.get("options", []) if o["type"] in SUBCOMMAND_TYPES]
        if children:
            yield path, children


@pytest.mark.parametrize("language", [Language.PT_BR, Language.ES_ES])
def test_the_commands_part_is_whole_but_option_names(language: Language) -> None:
    """Every word of the command surface is translated, and option names are left
    empty on purpose (:data:`tools.catalogue.UNTRANSLATED`)."""
    folder = FOLDERS[language]
    catalogue = read(LOCALES / folder / f"{COMMANDS_PART}.po", folder)
    entries = [message for message in catalogue if message.id]

    filled = [(m.context, m.id) for m in entries if m.context in UNTRANSLATED and m.string]
    missing = [(m.context, m.id) for m in entries if m.context not in UNTRANSLATED and not m.string]

    assert filled == []
    assert missing == []
    assert {m.context for m in entries} > UNTRANSLATED


@pytest.mark.parametrize("locale", SPOKEN)
async def test_every_command_name_is_valid_for_discord(payloads: list[JSON], locale: str) -> None:
    names = {path: in_locale(node, "name", locale) for path, node in commands_and_groups(payloads)}

    assert {path: name for path, name in names.items() if not valid_name(name)} == {}


@pytest.mark.parametrize("locale", SPOKEN)
async def test_no_two_siblings_share_a_name(payloads: list[JSON], locale: str) -> None:
    for path, siblings in sibling_groups(payloads):
        names = [in_locale(node, "name", locale) for node in siblings]
        assert len(names) == len(set(names)), (path, sorted(names))


@pytest.mark.parametrize("locale", SPOKEN)
async def test_descriptions_and_choices_fit_discord(payloads: list[JSON], locale: str) -> None:
    texts = [
        (path, in_locale(node, "description", locale))
        for path, node in commands_and_groups(payloads)
    ] + [
        (f"{path} {option['name']}", in_locale(option, "description", locale))
        for path, option in options(payloads)
    ] + [
        (f"{path} {option['name']}={choice['value']}", in_locale(choice, "name", locale))
        for path, option in options(payloads)
        for choice in option.get("choices", [])
    ]

    assert [(where, text) for where, text in texts if not 1 <= len(text) <= 100] == []


@pytest.mark.parametrize("locale", SPOKEN)
async def test_every_command_is_named_and_described_in_the_language(
    payloads: list[JSON], locale: str
) -> None:
    """Names and descriptions all come translated (``multi`` and ``config`` are the same
    word in every language, so Discord's English name is theirs)."""
    same_everywhere = {"multi", "config"}
    nodes = list(commands_and_groups(payloads))

    unnamed = [p for p, n in nodes if locale not in n["name_localizations"]]
    undescribed = [p for p, n in nodes if locale not in n["description_localizations"]]

    assert set(unnamed) == same_everywhere
    assert undescribed == []


@pytest.mark.parametrize(
    ("locale", "roll", "will_show", "storyteller", "admin"),
    [
        ("pt-BR", "rolar", "vontade ver", "Narrador:", "Admin:"),
        ("es-ES", "tirar", "voluntad ver", "Narrador:", "Admin:"),
        ("es-419", "tirar", "voluntad ver", "Narrador:", "Admin:"),
    ],
)
async def test_names_from_the_glossary_and_restricted_commands_still_say_whose(
    payloads: list[JSON], locale: str, roll: str, will_show: str, storyteller: str, admin: str
) -> None:
    nodes = dict(commands_and_groups(payloads))
    will = nodes["will"]
    show = nodes["will show"]

    assert in_locale(nodes["roll"], "name", locale) == roll
    assert f"{in_locale(will, 'name', locale)} {in_locale(show, 'name', locale)}" == will_show
    for path, node in nodes.items():
        english = node["description"]
        translated = in_locale(node, "description", locale)
        assert english.startswith("Storyteller:") == translated.startswith(storyteller), path
        assert english.startswith("Admin:") == translated.startswith(admin), path


async def test_option_names_stay_english_in_every_language(payloads: list[JSON]) -> None:
    """A house rule (docs/i18n/README.md): an example typed from any message works in
    every client, so ``pool:`` is ``pool:`` everywhere."""
    localized = [
        (path, option["name"], option["name_localizations"])
        for path, option in options(payloads)
        if option.get("name_localizations")
    ]

    assert localized == []


async def test_option_descriptions_and_choices_are_translated(payloads: list[JSON]) -> None:
    roll = dict(commands_and_groups(payloads))["roll"]
    pool = next(option for option in roll["options"] if option["name"] == "pool")
    again = next(option for option in roll["options"] if option["name"] == "again")

    assert pool["description_localizations"]["pt-BR"].startswith("Dados ou características")
    assert pool["description_localizations"]["es-419"].startswith("Dados o rasgos")
    assert [c["name_localizations"].get("pt-BR") for c in again["choices"]] == [
        "Regra do 10 (padrão)", "Regra do 9", "Regra do 8", "sem nova rolagem",
    ]
    assert [c["value"] for c in again["choices"]] == ["10", "9", "8", "none"], "values stay"


@pytest.mark.parametrize("locale", ["de", "fr", "en-US", "en-GB"])
@pytest.mark.parametrize("where", list(Where))
async def test_no_answer_for_english_or_a_language_not_ours(locale: str, where: Where) -> None:
    """None lets Discord show the English (its default) to these clients."""
    translator = CatalogueTranslator()
    context = TranslationContext(location=where, data=None)

    answer = await translator.translate(
        app_commands.locale_str("roll"), discord.Locale(locale), context
    )

    assert answer is None


@pytest.mark.parametrize(
    ("where", "english", "spanish"),
    [
        (Where.command_name, "roll", "tirar"),
        (Where.group_name, "will", "voluntad"),
        (Where.choice_name, "server", "servidor"),
        (Where.parameter_name, "pool", None),
    ],
)
async def test_the_translator_answers_spanish_clients_by_context(
    where: Where, english: str, spanish: str | None
) -> None:
    translator = CatalogueTranslator()
    context = TranslationContext(location=where, data=None)

    for locale in ("es-ES", "es-419"):
        answer = await translator.translate(
            app_commands.locale_str(english), discord.Locale(locale), context
        )
        assert answer == spanish
