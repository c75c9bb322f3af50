"""The message catalogues: what the code says, and what each language has of it.

``python -m tools.catalogue update`` writes the template
(``bot/render/locales/messages.pot``) from the code, adds each new message,
untranslated, to the part file it belongs to in every language, and drops
from the part files what the code no longer says. The tests read the same
:func:`template` to tell what is missing (tests/bot/test_catalogues.py).

Two sources make the template: every ``_``, ``n_``, ``p_`` and ``N_`` call
of ``bot/`` (Babel's Python extractor), and the slash commands as Discord
shows them (names, descriptions, options, choices, each under its own
context, so the command ``roll`` and the word "roll" translate apart).
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Final

from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po
from discord import app_commands

from bot.client import EXTENSIONS, StorytellerBot
from bot.render.lang import FOLDERS, LOCALES, catalogue
from bot.settings import Settings
from bot.store import Store
from engine.faces import ScriptedFaces
from engine.records import Language

ROOT: Final = Path(__file__).resolve().parents[1]
TEMPLATE: Final = LOCALES / "messages.pot"

#: The keywords render calls (:mod:`bot.render.lang`): name → Babel's argument spec.
KEYWORDS: Final = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2), "N_": None}

#: Headers that do not change from one update to the next, so part files only change
#: where their messages do (several people translate at once).
_FIXED: Final = datetime(2026, 11, 23, tzinfo=UTC)
_HEADER: Final = "# Storyteller bot: {language} messages.\n#"


def _catalog(locale: str | None = None) -> Catalog:
    """An empty catalogue with the fixed headers."""
    language = locale or "template"
    return Catalog(
        locale=locale, project="storyteller-bot", version="1", creation_date=_FIXED,
        revision_date=_FIXED, fuzzy=False, header_comment=_HEADER.format(language=language),
        msgid_bugs_address="", last_translator="", language_team="",
    )


#: Contexts of the command surface (the Translator looks messages up under these).
COMMAND_NAME: Final = "command name"
COMMAND_DESCRIPTION: Final = "command description"
OPTION_NAME: Final = "option name"
OPTION_DESCRIPTION: Final = "option description"
CHOICE: Final = "choice"

#: Contexts whose entries stay untranslated (empty ``msgstr``) on purpose: option names
#: are the same in every language (docs/i18n/README.md), so an example typed from any
#: message works in every client. A completeness check skips these; a translation in
#: one of them is a mistake (tests/bot/test_translator.py checks the synced payload).
UNTRANSLATED: Final = frozenset({OPTION_NAME})

#: Which part file a message of a source file goes to (the first match of its path).
PARTS: Final[tuple[tuple[str, str], ...]] = (
    ("bot/render/help.py", "help"),
    ("bot/render/extended.py", "tables"),
    ("bot/render/teamwork.py", "tables"),
    ("bot/render/contest.py", "tables"),
    ("bot/render/initiative.py", "tables"),
    ("bot/render/characters.py", "characters"),
    ("bot/render/state.py", "settings"),
    ("bot/render/messages.py", "settings"),
    ("bot/render/stats.py", "settings"),
    ("bot/render/lang.py", "settings"),
    ("bot/", "rolls"),
)
COMMANDS_PART: Final = "commands"


def part_of(path: str) -> str:
    """The part file of a message first said in ``path``."""
    return next(part for prefix, part in PARTS if path.startswith(prefix))


def _code_messages() -> Iterator[tuple[str | tuple[str, ...], str | None, str, int]]:
    """(id, context, file, line) of every message the code marks."""
    for filename, lineno, message, _comments, context in extract_from_dir(
        ROOT / "bot", keywords=KEYWORDS, comment_tags=()
    ):
        yield message, context, f"bot/{filename}", lineno


async def _commands() -> list[app_commands.Command[Any, ..., Any] | app_commands.Group]:
    """Every command and group of the bot, as its cogs declare them."""
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "catalogue.sqlite3")
        try:
            bot = StorytellerBot(
                settings=Settings(discord_token="catalogue"), store=store,  # noqa: S106 - never connects
                faces=ScriptedFaces([]),
            )
            for extension in EXTENSIONS:
                await bot.load_extension(extension)
            return list(bot.tree.walk_commands())
        finally:
            await store.close()


def command_messages(
    commands: list[app_commands.Command[Any, ..., Any] | app_commands.Group],
) -> Iterator[tuple[str, str]]:
    """(context, English) of every word of the command surface."""
    for command in commands:
        yield COMMAND_NAME, command.name
        yield COMMAND_DESCRIPTION, command.description
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                yield OPTION_NAME, parameter.name
                yield OPTION_DESCRIPTION, parameter.description
                for choice in parameter.choices:
                    yield CHOICE, choice.name


def template() -> Catalog:
    """Every message the bot says, each with where it is said."""
    catalog = _catalog()
    for message, context, path, line in _code_messages():
        catalog.add(message, locations=[(path, line)], context=context)
    for context, text in command_messages(asyncio.run(_commands())):
        catalog.add(text, locations=[("bot/cogs", 0)], context=context)
    return catalog


def _part(message: Message) -> str:
    if message.context in {COMMAND_NAME, COMMAND_DESCRIPTION, OPTION_NAME,
                           OPTION_DESCRIPTION, CHOICE}:
        return COMMANDS_PART
    return part_of(message.locations[0][0])


def read(path: Path, locale: str) -> Catalog:
    """One ``.po`` file."""
    with path.open("rb") as file:
        return read_po(file, locale=locale)


def write(path: Path, catalog: Catalog) -> None:
    """One ``.po`` or ``.pot`` file, without line numbers (they change with every edit)."""
    with path.open("wb") as file:
        write_po(file, catalog, width=100, omit_header=False, no_location=True,
                 sort_output=False, include_lineno=False)


def update() -> None:
    """Write the template; bring each language's part files up to date with it."""
    whole = template()
    write(TEMPLATE, whole)
    for language in Language:
        if language is Language.EN:
            continue
        folder = LOCALES / FOLDERS[language]
        folder.mkdir(parents=True, exist_ok=True)
        # A translation follows its message when the message moves to another part.
        known = catalogue(language)
        for name in sorted({_part(message) for message in whole if message.id}):
            kept = _catalog(FOLDERS[language])
            # the rule the translations were written for, not Babel's for the locale (its
            # CLDR rules change between releases: lang.catalogue)
            kept.mime_headers = [("Plural-Forms", known.plural_forms)]
            for message in whole:
                if not message.id or _part(message) != name:
                    continue
                old = known.get(message.id, message.context)
                blank: str | tuple[str, str] = ("", "") if message.pluralizable else ""
                kept.add(message.id, old.string if old is not None else blank,
                         context=message.context)
            write(folder / f"{name}.po", kept)


if __name__ == "__main__":
    if sys.argv[1:] != ["update"]:
        sys.exit("usage: python -m tools.catalogue update")
    update()
