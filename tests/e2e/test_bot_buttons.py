"""The buttons on a roll through the real bot: Spend Will, Take a Beat, Try again.

Only the roller may press them, each takes effect once (two presses at once
included), a refusal changes nothing, and they work the same after a restart.
"""

from __future__ import annotations

import asyncio

from tests.e2e.bot_fixtures import StartRealBot, Table
from tests.e2e.harness import FakeDiscord, Interaction, Member, Message


async def will_of(table: Table, member: Member) -> str:
    return (await (await member.slash(table.channel, "will show")).reply()).text


async def press_stale(
    fake: FakeDiscord, member: Member, message: Message, custom_id: str
) -> Interaction:
    """Press a button from an outdated view of ``message`` (a client that missed an edit)."""
    channel = fake.channels[message.channel_id]
    return await fake.dispatch_interaction(
        member, kind=3, channel=channel,
        data={"custom_id": custom_id, "component_type": 2}, message=message,
    )



def labels(message: Message) -> list[str]:
    """The labels of the buttons a message shows now."""
    return [str(button["label"]) for button in message.buttons]

async def test_spend_will_after_failure_adds_three_dice_in_place_and_debits_will(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4, 9, 10, 2, 8])
    await (await table.ada.slash(table.channel, "will set", max=3)).reply()
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()
    assert "Failure" in roll.text

    press = await table.ada.click(roll, label="Spend Will")

    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await roll.wait_for(lambda m: "3 successes" in m.text)
    assert "Will: **9** **10** 2" in roll.text
    assert "Willpower (spent after the roll)" in roll.text
    assert [button["label"] for button in roll.buttons] == ["Roll again", "Save this roll"]
    notice = await press.followup()
    assert notice.ephemeral
    assert "Will 2/3" in notice.text
    assert "Will 2/3" in await will_of(table, table.ada)


async def test_someone_elses_spend_will_is_refused_and_changes_nothing(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4])
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()

    refusal = await (await table.bob.click(roll, label="Spend Will")).reply()

    assert refusal.ephemeral
    assert "Only the member who made this roll" in refusal.text
    assert roll.edits == 0
    assert [button["label"] for button in roll.buttons] == [
        "Spend Will", "Take a Beat", "Roll again", "Save this roll"]


async def test_spend_will_with_an_empty_will_pool_is_refused(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4])
    await (await table.ada.slash(table.channel, "will set", max=2, current=0)).reply()
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()

    refusal = await (await table.ada.click(roll, label="Spend Will")).reply()

    assert refusal.ephemeral
    assert "no Will left" in refusal.text
    assert roll.edits == 0
    assert "Will 0/2" in await will_of(table, table.ada)


async def test_declared_will_debits_the_pool_and_offers_no_button(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4, 8, 8, 2])
    await (await table.ada.slash(table.channel, "will set", max=2)).reply()

    roll = await (await table.ada.slash(table.channel, "roll", pool="2", will=True)).reply()

    assert "2 successes" in roll.text
    assert "Spend Will" not in [button["label"] for button in roll.buttons]
    assert "Will 1/2" in await will_of(table, table.ada)


async def test_rolling_again_closes_the_earlier_rolls_buttons(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([3, 4, 5, 6])
    first = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()
    await (await table.ada.slash(table.channel, "roll", pool="2")).reply()

    # Spend Will and Take a Beat go; what does not depend on the moment stays.
    await first.wait_for(lambda m: labels(m) == ["Roll again", "Save this roll"])
    stale = await (await press_stale(fake, table.ada, first, "sb1:will:1")).reply()

    assert stale.ephemeral
    assert "out of date" in stale.text


async def test_two_simultaneous_spend_will_presses_take_effect_once(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4, 9, 9, 2])
    await (await table.ada.slash(table.channel, "will set", max=3)).reply()
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()

    presses = await asyncio.gather(
        table.ada.click(roll, label="Spend Will"), table.ada.click(roll, label="Spend Will")
    )
    acks = [(await press.ack()).name for press in presses]

    assert sorted(acks) == ["CHANNEL_MESSAGE_WITH_SOURCE", "UPDATE_MESSAGE"]
    refused = presses[acks.index("CHANNEL_MESSAGE_WITH_SOURCE")]
    refusal = await refused.reply()
    assert refusal.ephemeral
    assert "already spent" in refusal.text
    assert "2 successes" in roll.text
    assert "Will 2/3" in await will_of(table, table.ada)


async def test_take_a_beat_turns_the_failure_into_a_dramatic_failure_and_counts_a_beat(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4])
    roll = await (await table.ada.slash(table.channel, "roll", pool="2", label="climb")).reply()

    press = await table.ada.click(roll, label="Take a Beat")

    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await roll.wait_for(lambda m: "Dramatic failure" in m.text)
    labels = [button["label"] for button in roll.buttons]
    assert labels == ["Try again", "Save this roll"], "a Beat ends the Will offer only"
    assert "1 Beat" in (await press.followup()).text
    assert "1 Beat" in await will_of(table, table.ada)


async def test_try_again_rolls_the_labelled_action_with_the_successive_attempt_penalty(
    table: Table, start: StartRealBot
) -> None:
    await start([2, 3, 4, 8, 5])
    first = await (
        await table.ada.slash(table.channel, "roll", pool="Wits 2 + Larceny 1", label="the lock")
    ).reply()

    retry = await (await table.ada.click(first, label="Try again")).reply()

    assert retry is not first
    assert "the lock: Success" in retry.text
    assert "1 success" in retry.text
    assert "= 2 dice" in retry.text, "−1 die for the earlier failure"
    assert "failure" in retry.text.lower()
    await first.wait_for(lambda m: labels(m) == ["Save this roll"])


async def test_try_again_is_the_rollers_alone_and_once(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([2, 3, 4, 5, 6])
    first = await (
        await table.ada.slash(table.channel, "roll", pool="3", label="the lock")
    ).reply()

    bob = await (await table.bob.click(first, label="Try again")).reply()
    assert bob.ephemeral
    await (await table.ada.click(first, label="Try again")).reply()
    await first.wait_for(lambda m: labels(m) == ["Save this roll"])
    again = await (await press_stale(fake, table.ada, first, "sb1:retry:1")).reply()

    assert "Only the member who made this roll" in bob.text
    assert again.ephemeral
    assert "out of date" in again.text


async def test_an_old_messages_button_still_works_after_a_restart(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([3, 4])
    roll = await (await table.ada.slash(table.channel, "roll", pool="2")).reply()

    await bot.kill()
    bot.env_extra["DICE_FACES"] = "8 9 10 1"
    await bot.start()
    press = await table.ada.click(roll, label="Spend Will")

    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await roll.wait_for(lambda m: "Success" in m.text)
    assert "3 successes" in roll.text
