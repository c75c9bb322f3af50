"""/roll through the real bot: each ruleset, its options, and what a reply shows."""

from __future__ import annotations

import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table, starter
from tests.e2e.harness import FakeDiscord, StartBot


@pytest.fixture
def table(fake: FakeDiscord) -> Table:
    return Table(fake)


@pytest.fixture
def start(start_bot: StartBot) -> StartRealBot:
    return starter(start_bot)


async def test_cofd_roll_shows_every_die_the_outcome_and_the_breakdown(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 8, 10, 1, 9, 10, 4])

    reply = await (await table.ada.slash(table.channel, "roll", pool="Strength 3 + Brawl 2")).reply()

    assert not reply.ephemeral
    assert "Success" in reply.text
    assert "4 successes" in reply.text
    assert "Strength 3" in reply.text
    assert "Brawl 2" in reply.text
    assert "Chronicles of Darkness" in reply.text
    assert "Ada" in reply.text
    assert [button["label"] for button in reply.buttons] == ["Spend Will"]
