"""What a hostile (modified) client can send, through the real bot: every interaction is
answered, with a clear ephemeral sentence, and nothing changes.

Discord's own client only sends custom_ids the bot drew and option values inside the
command's declared bounds; a modified client sends anything. These interactions are
built by hand, below the driver's own validation.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table
from tests.e2e.harness import Member, Message

STALE = "That button is out of date"


async def _press(table: Table, member: Member, message: Message, custom_id: str) -> Message:
    """A press of ``custom_id`` on ``message``, whatever buttons it shows."""
    interaction = await table.fake.dispatch_interaction(
        member, kind=3, channel=table.channel,
        data={"custom_id": custom_id, "component_type": 2}, message=message,
    )
    return await interaction.reply()


async def _forged_slash(table: Table, member: Member, name: str, options: list[Any]) -> Message:
    """``/name`` with option values as given, unchecked by the driver."""
    command, is_guild = table.fake.find_command(name)
    data: dict[str, Any] = {"id": command["id"], "name": name, "type": 1, "options": options}
    if is_guild:
        data["guild_id"] = str(table.fake.guild_id)
    interaction = await table.fake.dispatch_interaction(
        member, kind=2, channel=table.channel, data=data
    )
    return await interaction.reply()


@pytest.mark.parametrize(
    "custom_id",
    ["garbage", "", "sb0:will:1", "SB1:will:1", "\u200bsb1:will:1", "sb1:will:99999999999999999999",
     "sb1:will:9223372036854775808", "sb1:nothing:1", "sb1:will:0"],
)
async def test_a_forged_button_is_answered_as_stale_and_changes_nothing(
    table: Table, start: StartRealBot, custom_id: str
) -> None:
    await start([3, 4])
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()
    answer = await _press(table, table.ada, roll, custom_id)
    assert answer.ephemeral
    assert STALE in answer.text
    assert roll.buttons, "the roll's own buttons still stand"


async def test_a_forged_form_is_answered_as_stale(table: Table, start: StartRealBot) -> None:
    await start()
    interaction = await table.fake.dispatch_interaction(
        table.ada, kind=5, channel=table.channel,
        data={"custom_id": "sb1:form:help:99999999999999999999", "components": []},
    )
    answer = await interaction.reply()
    assert answer.ephemeral
    assert STALE in answer.text


@pytest.mark.parametrize(
    ("name", "options", "words"),
    [
        ("odds", [{"name": "pool", "type": 3, "value": "3"},
                  {"name": "extra", "type": 4, "value": 2147483648}], "extra must be 0 to 100"),
        ("roll", [{"name": "pool", "type": 3, "value": "3"},
                  {"name": "difficulty", "type": 4, "value": 11}], "difficulty must be 2 to 10"),
        ("roll", [{"name": "pool", "type": 3, "value": "3"},
                  {"name": "again", "type": 3, "value": "7"}], "again must be one of"),
        ("roll", [{"name": "pool", "type": 3, "value": "3"},
                  {"name": "label", "type": 3, "value": "x" * 500}], "label must be 1 to 100"),
    ],
)
async def test_an_option_outside_its_declared_bounds_is_refused(
    table: Table, start: StartRealBot, name: str, options: list[Any], words: str
) -> None:
    await start()
    answer = await _forged_slash(table, table.ada, name, options)
    assert answer.ephemeral
    assert words in answer.text
