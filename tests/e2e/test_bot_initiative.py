"""/init through the real bot: the card's buttons after a restart mid-round, and a hundred
simultaneous presses of Next advancing exactly one turn."""

from __future__ import annotations

import asyncio
import json

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.db_probe import query

PRESSES = 100


def turn(db_path: object) -> tuple[int, int, int]:
    """(round, turn marker, version) of the tracker as stored."""
    [(state, version)] = query(db_path, "SELECT state_json, version FROM initiative")
    loaded = json.loads(state)
    return loaded["round"], loaded["turn"], version


async def test_the_card_keeps_working_after_a_restart_in_the_middle_of_a_round(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([9, 6])  # Ada 5 + 9 = 14, Bob 4 + 6 = 10
    st, ada, bob = table.storyteller, table.ada, table.bob
    card = await ask(st, table.channel, "init start")
    assert not card.ephemeral and [b["label"] for b in card.buttons] == ["Join", "End"]
    joined = await ask(ada, table.channel, "init join", pool="5")
    assert "Ada" in joined.text and not joined.ephemeral
    await ask(bob, table.channel, "init join", pool="4")
    await card.wait_for(lambda m: "Bob" in m.text)
    press = await st.click(card, label="Next")
    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await card.wait_for(lambda m: "Round 1: **Ada** acts" in m.text)

    await bot.kill()
    await bot.start()
    refused = await (await bob.click(card, label="Next")).reply()
    assert refused.ephemeral and "Ada's turn" in refused.text
    press = await ada.click(card, label="Next")
    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await card.wait_for(lambda m: "Round 1: **Bob** acts" in m.text)
    await (await bob.click(card, label="Next")).ack()
    await card.wait_for(lambda m: "Round 2: **Ada** acts" in m.text)
    await (await st.click(card, label="End")).ack()
    await card.wait_for(lambda m: m.buttons == [])
    assert query(bot.db_path, "SELECT status FROM initiative") == [("closed",)]


async def test_a_hundred_simultaneous_presses_of_next_advance_exactly_one_turn(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([9, 6])
    st = table.storyteller
    card = await ask(st, table.channel, "init start")
    await ask(table.ada, table.channel, "init join", pool="5")
    await ask(table.bob, table.channel, "init join", pool="4")
    await card.wait_for(lambda m: "Bob" in m.text and "Next" in str(m.buttons))
    before = turn(bot.db_path)

    presses = await asyncio.gather(*(st.click(card, label="Next") for _ in range(PRESSES)))
    kinds = [(await press.ack()).name for press in presses]

    assert turn(bot.db_path) == (1, before[1] + 1, before[2] + 1)
    assert kinds.count("UPDATE_MESSAGE") == PRESSES, "a stale press redraws the card in place"
    # Every press was answered at once; the 99 that lost are told why (the winner, no note,
    # waits out the short timeout).
    notes = await asyncio.gather(
        *(press.followup(timeout=3.0) for press in presses), return_exceptions=True
    )
    told = [note for note in notes if not isinstance(note, BaseException)]
    assert len(told) == PRESSES - 1
    assert all(note.ephemeral and "already moved on" in note.text for note in told)
