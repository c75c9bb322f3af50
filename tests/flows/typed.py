"""What a command's option hands its flow when a member types some text.

The flow tests call flows directly; an option's transformer (a ``label:`` trimmed, or
None when nothing in it is visible) runs before the command's callback, so a test of
what a member types reads the value through the command's own option, as discord.py
does, then gives it to the flow.
"""

from __future__ import annotations

from typing import Any, Final, cast

import discord
from discord import app_commands

#: Text that shows nothing: a zero-width space, an invisible separator with a
#: left-to-right mark, a combining acute accent alone, and spaces around a word joiner.
INVISIBLE: Final = ("\u200b", "\u2063\u200e", "\u0301", "  \u2060  ")


async def typed(command: app_commands.Command[Any, ..., Any], option: str, text: str) -> Any:
    """The value ``command`` passes on for ``option`` when ``text`` is typed in it."""
    parameter = command._params[option]
    return await parameter.transform(cast("discord.Interaction", None), text)
