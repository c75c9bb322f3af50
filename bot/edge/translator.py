"""The slash commands in the member's client language (Discord asks at sync time).

discord.py hands every command name, description, option and choice to the
tree's :class:`~discord.app_commands.Translator` when it syncs; this one
answers from the same catalogues as every message (``bot/render/locales``),
each kind of word under its own context, and None (Discord's English) for a
locale of no language of ours or a word not translated yet.
"""

from __future__ import annotations

from typing import Final

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

from bot.render.lang import language_of, voice
from engine.records import Language

#: The catalogue context of each place a word of a command sits.
CONTEXTS: Final[dict[Where, str]] = {
    Where.command_name: "command name",
    Where.group_name: "command name",
    Where.command_description: "command description",
    Where.group_description: "command description",
    Where.parameter_name: "option name",
    Where.parameter_description: "option description",
    Where.choice_name: "choice",
}


class CatalogueTranslator(app_commands.Translator):
    """Command names, descriptions, options and choices from the catalogues."""

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = language_of(locale.value)
        where = CONTEXTS.get(context.location)
        if language is None or language is Language.EN or where is None:
            return None
        translated = voice(language).pgettext(where, string.message)
        return None if translated == string.message else translated
