"""/help as a flow: this channel's ruleset, one topic, text-only."""

from __future__ import annotations

import pytest

from bot.flows.help import TOPICS, show_help
from bot.store import Tx
from engine.models import Ruleset
from engine.records import ChannelOption
from tests.flows.conftest import CHANNEL, GUILD, Table


async def test_help_explains_rolling_in_this_channels_ruleset(table: Table) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)

    await table.store.write(write)
    said = await table.run(show_help(table.deps, table.ctx()))
    assert said.answer.ephemeral
    assert "difficulty" in said.answer.text
    assert "Classic World of Darkness" in said.answer.text


async def test_an_unknown_topic_is_said_above_the_overview(table: Table) -> None:
    said = await table.run(show_help(table.deps, table.ctx(), "dragons"))
    assert "There is no help topic “dragons”" in said.answer.text
    assert "How to roll" in said.answer.text


@pytest.mark.parametrize("topic", [None, *TOPICS])
async def test_text_only_help_has_no_arrows_or_dots(table: Table, topic: str | None) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)

    await table.store.write(write)
    said = await table.run(show_help(table.deps, table.ctx(), topic))
    text = said.answer.text
    assert "·" not in text
    assert "→" not in text
    if topic == "roll":
        assert "`5 rerolled to 10`" in text
