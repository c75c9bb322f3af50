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

from tests.flows.conftest import ALICE, CHANNEL, GUILD, Table

#: Text that shows nothing: a zero-width space, an invisible separator with a
#: left-to-right mark, a combining acute accent alone, spaces around a word joiner, and a
#: Hangul filler with a blank braille pattern (letters and symbols to Unicode, drawn blank).
INVISIBLE: Final = ("\u200b", "\u2063\u200e", "\u0301", "  \u2060  ", "\u3164\u2800")


async def typed(command: app_commands.Command[Any, ..., Any], option: str, text: str) -> Any:
    """The value ``command`` passes on for ``option`` when ``text`` is typed in it."""
    parameter = command._params[option]
    return await parameter.transform(cast("discord.Interaction", None), text)


async def kept_no_label(table: Table, text: str) -> None:
    """Alice's rolls in /history carry no label, and ``text`` counts no failed attempt."""
    history = await table.store.read(
        lambda tx: tx.rolls.history(GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False)
    )
    assert history
    assert [roll.label for roll in history] == [None] * len(history)
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, CHANNEL, ALICE, label=text, turn=False, will=False))
    assert standing.failures == 0
