"""/init through the real bot when the tracker's card was deleted (a moderator cleaning the
channel): the next command posts the card afresh and later ones edit that one; /init start
brings it back too; the usual path still costs one edit and no post."""

from __future__ import annotations

import asyncio
from pathlib import Path

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.db_probe import SETTLE_SECONDS, query
from tests.e2e.harness import Message

EDIT = "PATCH /channels/{channel_id}/messages/{message_id}"
POST = "POST /channels/{channel_id}/messages"


def cards(table: Table) -> list[Message]:
    """The tracker cards in the play channel (the messages with an End button)."""
    return [m for m in table.fake.messages(table.channel)
            if any(b["label"] == "End" for b in m.buttons)]


async def remembered(db_path: Path, message_id: int) -> None:
    """Wait until the tracker remembers ``message_id`` as its card (the bot stores it just
    after posting the card; polled: no Discord event marks the moment)."""
    sql = "SELECT message_id FROM initiative"
    async with asyncio.timeout(SETTLE_SECONDS):
        while query(db_path, sql) != [(message_id,)]:  # noqa: ASYNC110 - no event to wait on
            await asyncio.sleep(0.01)


def unknown_message_edits(table: Table) -> int:
    """How many edits of a deleted message the fake answered 404 Unknown Message (taken: the
    test provokes them on purpose)."""
    failures = table.fake.take_failures()
    assert all(f.kind == "unknown_message" and f.method == "PATCH" for f in failures), failures
    return len(failures)


async def test_a_deleted_card_comes_back_on_the_next_init_next_and_start(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([9, 6])  # Ada 5 + 9 = 14, Bob 4 + 6 = 10
    st, channel = table.storyteller, table.channel
    card = await ask(st, channel, "init start")
    await ask(table.ada, channel, "init join", pool="5")
    await ask(table.bob, channel, "init join", pool="4")
    await card.wait_for(lambda m: "Bob" in m.text)

    await table.fake.delete_message(card)
    said = await ask(st, channel, "init next")
    assert "Round 1: **Ada** acts" in said.text
    again = await table.fake.wait_for_message(
        channel, lambda m: m.id != card.id and bool(m.buttons) and "**Ada** acts" in m.text)
    assert [b["label"] for b in again.buttons] == ["Join", "Next", "Delay", "End"]
    await remembered(bot.db_path, again.id)
    assert unknown_message_edits(table) == 1

    # The card posted again is the card: its buttons work, commands edit it in place.
    assert (await (await table.ada.click(again, label="Next")).ack()).name == "UPDATE_MESSAGE"
    await again.wait_for(lambda m: "Round 1: **Bob** acts" in m.text)
    edits, posts = table.fake.requests[EDIT], table.fake.requests[POST]
    await ask(table.bob, channel, "init next")
    await again.wait_for(lambda m: "Round 2: **Ada** acts" in m.text)
    assert (table.fake.requests[EDIT] - edits, table.fake.requests[POST] - posts) == (1, 0)
    assert cards(table) == [again]

    # /init start is still refused with a link to the card, and brings a deleted one back.
    await table.fake.delete_message(again)
    refused = await ask(st, channel, "init start")
    assert refused.ephemeral and "already has an initiative tracker" in refused.text
    third = await table.fake.wait_for_message(
        channel,
        lambda m: m.id not in (card.id, again.id) and bool(m.buttons) and "Ada" in m.text)
    await remembered(bot.db_path, third.id)
    assert cards(table) == [third]
    assert unknown_message_edits(table) == 1
