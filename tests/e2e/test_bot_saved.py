"""Saved rolls and Roll again through the real bot: the Save this roll form, a saved roll
and an old card's Roll again after a restart (key-only ids, the database the truth)."""

from __future__ import annotations

import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table, ask, starter
from tests.e2e.harness import FakeDiscord, StartBot


@pytest.fixture
def table(fake: FakeDiscord) -> Table:
    return Table(fake)


@pytest.fixture
def start(start_bot: StartBot) -> StartRealBot:
    return starter(start_bot)


def labels(buttons: list[dict[str, object]]) -> list[object]:
    return [button["label"] for button in buttons]


async def test_save_this_roll_on_a_card_from_before_a_restart_then_roll_it_by_name(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([8, 3, 3, 4, 5])
    roll = await ask(table.ada, table.channel, "roll", pool="Strength 3 + Brawl 2",
                     label="punch", again="9")
    assert "Save this roll" in labels(roll.buttons)

    await bot.kill()
    bot.env_extra["DICE_FACES"] = "8 8 2 2 2 2"
    await bot.start()
    opener = await table.ada.click(roll, label="Save this roll")
    assert (await opener.ack()).name == "MODAL"
    saved = await (await table.ada.submit_modal(opener, {"Name": "Haymaker"})).reply()
    assert saved.ephemeral
    assert saved.text.startswith("Saved **Haymaker**: Strength 3 + Brawl 2 (again:9)")

    choices = await table.ada.autocomplete(table.channel, "saved roll", focused="name",
                                           value="hay")
    assert [choice["value"] for choice in choices] == ["Haymaker"]
    rolled = await ask(table.ada, table.channel, "saved roll", name="Haymaker", modifier=1)
    assert not rolled.ephemeral
    assert "Strength 3 + Brawl 2 + 1" in rolled.text
    assert "punch" in rolled.text
    assert "2 successes" in rolled.text


async def test_roll_again_on_an_old_card_after_a_restart_is_the_rollers_alone(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([3, 4])
    roll = await ask(table.ada, table.channel, "roll", pool="2")
    assert labels(roll.buttons) == ["Spend Will", "Take a Beat", "Roll again", "Save this roll"]
    await ask(table.ada, table.channel, "saved list")  # the roll's message id is stored by now

    await bot.kill()
    bot.env_extra["DICE_FACES"] = "8 8"
    await bot.start()
    refused = await (await table.bob.click(roll, label="Roll again")).reply()
    assert refused.ephemeral
    assert "Only the member who made this roll" in refused.text

    again = await (await table.ada.click(roll, label="Roll again")).reply()
    assert not again.ephemeral
    assert "2 successes" in again.text
    await roll.wait_for(lambda m: [b["label"] for b in m.buttons] == ["Save this roll"])
