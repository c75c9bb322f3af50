"""/extended through the real bot: the card, its choices, contests, Will, restarts, races."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import ContractError, FakeDiscord, Member, Message


async def use_ruleset(table: Table, ruleset: str) -> None:
    await (await table.admin.slash(table.channel, "config ruleset", ruleset=ruleset)).reply()


async def begin(table: Table, member: Member, **options: Any) -> Message:
    """`/extended start`: the card."""
    card = await (await member.slash(table.channel, "extended start", **options)).reply()
    assert not card.ephemeral, card.text
    return card


async def press(member: Member, card: Message, label: str) -> Message:
    """Press a button and return the message the bot answered with."""
    return await (await member.click(card, label=label)).reply()


def buttons(message: Message) -> list[str]:
    return [button["label"] for button in message.buttons]


async def refused(member: Member, card: Message, label: str) -> str:
    reply = await press(member, card, label)
    assert reply.ephemeral
    return reply.text


# --- cofd ---------------------------------------------------------------------------------------


async def test_cofd_extended_action_from_start_to_completion(
    table: Table, start: StartRealBot
) -> None:
    await start([
        1, 2, 3, 4, 5,  # roll 1: failure
        8, 8, 8, 8, 9,  # roll 2: exceptional success, 5
        2, 3, 4, 5, 6,  # roll 3: failure, then a Beat makes it dramatic
        8, 9, 10, 8,  # roll 4: 3 dice after the -2, the 10 explodes: 4
        8, 2, 3, 4, 5,  # roll 5: 1 success, 10 in all
    ])
    ada = table.ada
    card = await begin(
        table, ada, pool="Intelligence 3 + Academics 2", target=10,
        interval="30 minutes", label="research the ritual",
    )
    assert "research the ritual" in card.text
    assert "0/10" in card.text
    assert "0 of 5 used" in card.text
    assert "30 minutes per roll" in card.text
    assert buttons(card) == ["Roll", "Abandon"]

    first = await press(ada, card, "Roll")
    assert "Failure" in first.text
    assert "roll 1 of 5" in first.text
    await card.wait_for(lambda m: "Take a Condition" in buttons(m))
    assert buttons(card) == ["Take a Condition", "Lose progress", "Abandon"]
    opener = await ada.click(card, label="Take a Condition")
    await opener.ack()
    await (await ada.submit_modal(opener, {"Condition": "Exhausted"})).ack()
    await card.wait_for(lambda m: buttons(m) == ["Roll", "Abandon"])
    assert "Exhausted" in card.text

    second = await press(ada, card, "Roll")
    assert "Exceptional success" in second.text
    await card.wait_for(lambda m: "Shorten interval" in buttons(m))
    assert buttons(card) == [
        "Reduce required by 2", "Shorten interval", "Exceptional result", "Abandon",
    ]
    await press(ada, card, "Shorten interval")
    await card.wait_for(lambda m: "22.5 minutes per roll" in m.text)

    third = await press(ada, card, "Roll")
    assert buttons(third) == ["Spend Will", "Take a Beat"]
    beat = await press(ada, third, "Take a Beat")
    assert "Dramatic failure" in beat.text
    await card.wait_for(lambda m: "-2 dice" in m.text)
    opener = await ada.click(card, label="Take a Condition")
    await opener.ack()
    await (await ada.submit_modal(opener, {"condition": "Humiliated"})).ack()
    await card.wait_for(lambda m: "Humiliated" in m.text and "Roll" in buttons(m))

    fourth = await press(ada, card, "Roll")
    assert "dramatic failure on the last extended roll" in fourth.text
    assert "4 successes" in fourth.text
    await card.wait_for(lambda m: "9/10" in m.text)

    fifth = await press(ada, card, "Roll")
    assert "Succeeded" in fifth.text
    done = await card.wait_for(lambda m: "succeeded" in m.text)
    assert buttons(done) == []
    assert "Exhausted, Humiliated" in done.text
    assert "5 of 5 used" in done.text
    history = await ask(ada, table.channel, "history")
    assert history.text.count("extended action") == 5


async def test_cofd_dramatic_failure_carries_to_a_fresh_attempt_at_the_same_task(
    table: Table, start: StartRealBot
) -> None:
    await start([1, 10])  # the chance die shows 1; the next attempt's chance die shows 10
    ada = table.ada
    card = await begin(
        table, ada, pool="Dexterity 1 + Larceny 1 - 3", target=3, label="pick the lock"
    )

    first = await press(ada, card, "Roll")
    assert "Dramatic failure" in first.text
    await card.wait_for(lambda m: "Take a Condition" in buttons(m))
    await press(ada, card, "Abandon")
    await card.wait_for(lambda m: "abandoned" in m.text and buttons(m) == [])

    again = await begin(table, ada, pool="Dexterity 1 + Larceny 1 - 3", target=3,
                        label="Pick the  LOCK")
    assert "ended on a dramatic failure" in again.text
    assert "-2 dice" in again.text
    second = await press(ada, again, "Roll")
    assert "-2 dice: dramatic failure on the last extended roll" in second.text
    assert "1 success" in second.text


async def test_cofd_roll_limit_fails_the_action_and_will_after_the_last_roll_can_save_it(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 8, 2, 2, 3, 4, 8, 3, 4])
    ada = table.ada
    await (await ada.slash(table.channel, "will set", max=3)).reply()
    card = await begin(table, ada, pool="3", target=3, max_rolls=2, label="climb the tower")

    await press(ada, card, "Roll")
    await card.wait_for(lambda m: "2/3" in m.text)
    last = await press(ada, card, "Roll")
    assert "Failed" in last.text
    await card.wait_for(lambda m: "roll limit was used up" in m.text)
    assert buttons(card) == []

    will = await ada.click(last, label="Spend Will")
    updated = await will.reply()
    assert "Willpower was spent after the roll" in updated.text
    assert "Will 2/3 left" in (await will.followup()).text
    await card.wait_for(lambda m: "succeeded" in m.text and "3/3" in m.text)
    listed = await (await ada.slash(table.channel, "extended list")).reply()
    assert "climb the tower" not in listed.text


# --- v20 and fistful ------------------------------------------------------------------------------


async def test_v20_botch_derails_the_attempt_and_start_over_keeps_the_rolls_used(
    table: Table, start: StartRealBot
) -> None:
    await start([7, 2, 3, 1, 2, 3, 4])
    await use_ruleset(table, "v20")
    ada = table.ada
    card = await begin(table, ada, pool="Perception 2 + Survival 2", target=5,
                       label="track the beast")
    assert "at difficulty 6" in card.text
    assert "0 used, no limit" in card.text

    declared = await (
        await ada.slash(
            table.channel, "extended roll", label="track the beast", modifier="-1", will=True
        )
    ).reply()
    assert "including 1 from Willpower" in declared.text
    assert "Perception 2 + Survival 2 - 1" in declared.text
    await card.wait_for(lambda m: "2/5" in m.text)

    botch = await press(ada, card, "Roll")
    assert "Botch" in botch.text
    await card.wait_for(lambda m: buttons(m) == ["Start over", "Abandon"])
    await press(ada, card, "Start over")
    await card.wait_for(lambda m: buttons(m) == ["Roll", "Abandon"])
    assert "0/5" in card.text
    assert "2 used, no limit" in card.text
    assert "Started over" in card.text


async def test_fistful_ongoing_contest_resistance_eats_progress(
    table: Table, start: StartRealBot
) -> None:
    await start([
        8, 9, 2, 3, 2, 3, 4,  # the actor's 2 successes against none
        8, 2, 3, 4, 8, 9, 5,  # the actor's 1 against the resister's 2
        1, 2, 3, 4, 2, 3, 4,  # the actor botches
    ])
    await use_ruleset(table, "fistful")
    ada = table.ada
    card = await begin(table, ada, pool="4", target=5, against="3", label="outrun the patrol")
    assert "Resisting: 3 dice" in card.text

    first = await press(ada, card, "Roll")
    assert "Resisting roll" in first.text
    await card.wait_for(lambda m: "2/5" in m.text)
    await (await table.storyteller.slash(table.channel, "turn next")).reply()

    second = await press(ada, card, "Roll")
    assert "resisting side beat this roll: 1 success of progress lost" in second.text
    await card.wait_for(lambda m: "1/5" in m.text)
    await (await table.storyteller.slash(table.channel, "turn next")).reply()

    botch = await press(ada, card, "Roll")
    assert "Botch" in botch.text
    waive = "Waive the botch (Storyteller)"
    await card.wait_for(lambda m: buttons(m) == ["Start over", "Abandon", waive])
    assert "Only the Storyteller" in await refused(ada, card, waive)
    await press(table.storyteller, card, waive)
    await card.wait_for(lambda m: "waived" in m.text and buttons(m) == ["Roll", "Abandon"])
    assert "1/5" in card.text


# --- who may act, restarts, races -----------------------------------------------------------------


async def test_only_the_owner_or_the_storyteller_may_roll_or_decide(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 8, 2])
    card = await begin(table, table.ada, pool="3", target=5, label="forge the papers")

    assert "Only Ada" in await refused(table.bob, card, "Roll")
    assert "Only Ada" in await refused(table.bob, card, "Abandon")
    by_command = await (
        await table.bob.slash(table.channel, "extended roll", label="forge the papers")
    ).reply()
    assert by_command.ephemeral
    assert "Only Ada" in by_command.text
    assert "0/5" in card.text

    rolled = await press(table.storyteller, card, "Roll")
    assert not rolled.ephemeral
    assert "Ada" in rolled.text
    await card.wait_for(lambda m: "2/5" in m.text)


async def test_a_restart_in_the_middle_keeps_the_card_and_the_form_working(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([2, 2, 2])  # after the restart the script starts over
    ada = table.ada
    card = await begin(table, ada, pool="Wits 2 + Occult 1", target=5, label="read the runes")
    await press(ada, card, "Roll")
    await card.wait_for(lambda m: "Take a Condition" in buttons(m))
    opener = await ada.click(card, label="Take a Condition")
    await opener.ack()

    await bot.kill()
    await bot.start()

    await (await ada.submit_modal(opener, {"Condition": "Shaken"})).ack()
    await card.wait_for(lambda m: "Shaken" in m.text and buttons(m) == ["Roll", "Abandon"])
    second = await press(ada, card, "Roll")
    assert "roll 2 of 3" in second.text
    await card.wait_for(lambda m: "2 of 3 used" in m.text)


async def test_a_condition_form_submitted_after_the_action_moved_on_takes_nothing(
    table: Table, start: StartRealBot
) -> None:
    await start([2, 2, 2])
    card = await begin(table, table.ada, pool="3", target=5, label="calm the crowd")
    await press(table.ada, card, "Roll")
    await card.wait_for(lambda m: "Take a Condition" in buttons(m))
    opener = await table.ada.click(card, label="Take a Condition")
    await opener.ack()
    await press(table.storyteller, card, "Lose progress")
    await card.wait_for(lambda m: "Progress lost" in m.text)

    late = await (await table.ada.submit_modal(opener, {"Condition": "Spooked"})).reply()

    assert late.ephemeral
    assert "moved on while the form was open" in late.text
    assert "Spooked" not in card.text


@pytest.mark.parametrize("second_presser", ["ada", "storyteller"])
async def test_concurrent_presses_of_roll_take_effect_once(
    table: Table, start: StartRealBot, second_presser: str
) -> None:
    await start([8, 2, 2])  # one roll's faces: a second roll would run out of dice
    card = await begin(table, table.ada, pool="3", target=5, label="hold the door")
    other: Member = getattr(table, second_presser)

    presses = await asyncio.gather(
        table.ada.click(card, label="Roll"), other.click(card, label="Roll")
    )
    replies = [await press.reply() for press in presses]

    assert sorted(reply.ephemeral for reply in replies) == [False, True]
    refusal = next(reply for reply in replies if reply.ephemeral)
    assert "out of date" in refusal.text
    await card.wait_for(lambda m: "1 of 3 used" in m.text and "1/5" in m.text)


# --- commands ---------------------------------------------------------------------------------


async def test_autocomplete_list_and_abandon(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start()
    ada = table.ada
    await begin(table, ada, pool="3", target=5, label="research the ritual")
    papers = await begin(table, ada, pool="3", target=5, label="forge the papers")
    await begin(table, table.bob, pool="2", target=4, label="pick the lock")

    found = await ada.autocomplete(table.channel, "extended roll", focused="label", value="PAP")
    assert [choice["name"] for choice in found] == ["forge the papers"]
    every = await ada.autocomplete(table.channel, "extended abandon", focused="label", value="")
    assert [choice["value"] for choice in every] == [  # not Bob's: she may not roll it
        "research the ritual", "forge the papers",
    ]

    ambiguous = await (await ada.slash(table.channel, "extended roll")).reply()
    assert ambiguous.ephemeral
    assert "name one with `label:`" in ambiguous.text
    listed = await (await ada.slash(table.channel, "extended list")).reply()
    assert listed.ephemeral
    assert "forge the papers" in listed.text
    assert "Bob" in listed.text

    abandoned = await (
        await ada.slash(table.channel, "extended abandon", label="forge the papers")
    ).reply()
    assert not abandoned.ephemeral
    assert "Abandoned" in abandoned.text
    await papers.wait_for(lambda m: "abandoned" in m.text and buttons(m) == [])
    listed = await (await ada.slash(table.channel, "extended list")).reply()
    assert "forge the papers" not in listed.text
    gone = await (
        await ada.slash(table.channel, "extended roll", label="forge the papers")
    ).reply()
    assert gone.ephemeral
    assert "No open extended action" in gone.text
    duplicate = await (
        await ada.slash(table.channel, "extended start", pool="3", target=5,
                        label="Research the Ritual")
    ).reply()
    assert duplicate.ephemeral
    assert "already open" in duplicate.text
    assert len([m for m in fake.messages(table.channel) if not m.ephemeral]) == 4


async def test_a_deleted_card_waiting_for_a_decision_comes_back_and_its_choices_work(
    table: Table, start: StartRealBot
) -> None:
    """Only the card offers the choices after a failure: once a moderator deleted it,
    `/extended roll` is refused (a decision is pending) and the card is posted afresh at
    the foot of the channel; its choices work, and later rolls edit that card."""
    await start([2, 3, 8, 8])  # roll 1: failure; roll 2: 2 successes
    ada = table.ada
    card = await begin(table, ada, pool="2", target=5, max_rolls=5, label="climb the wall")
    await ask(ada, table.channel, "extended roll")
    await card.wait_for(lambda m: "Lose progress" in buttons(m))

    await table.fake.delete_message(card)
    refused = await ask(ada, table.channel, "extended roll")
    assert refused.ephemeral and "a decision is pending" in refused.text
    again = await table.fake.wait_for_message(
        table.channel, lambda m: m.id != card.id and "Lose progress" in buttons(m))
    failures = table.fake.take_failures()
    assert [(f.kind, f.method) for f in failures] == [("unknown_message", "PATCH")]

    opener = await ada.click(again, label="Take a Condition")
    await opener.ack()
    await (await ada.submit_modal(opener, {"Condition": "Exhausted"})).ack()
    await again.wait_for(lambda m: buttons(m) == ["Roll", "Abandon"])
    rolled = await ask(ada, table.channel, "extended roll")
    assert "2/5" in rolled.text
    await again.wait_for(lambda m: "2/5" in m.text)
    cards = [m for m in table.fake.messages(table.channel) if "Abandon" in buttons(m)]
    assert cards == [again]


@pytest.mark.parametrize(
    ("command", "options", "expected"),
    [
        ("extended start", {"pool": "3 +", "target": 5}, "could not read that pool"),
        ("extended start", {"pool": "3"}, "set the successes required"),
        ("extended start", {"pool": "3", "target": 5, "difficulty": 7},
         "difficulty does not apply to the cofd ruleset"),
        ("extended start", {"pool": "3", "target": 5, "against": "2"},
         "against does not apply to the cofd ruleset"),
        ("extended start", {"pool": "3", "target": 5, "interval": "soon"},
         "could not read the interval"),
        ("extended start", {"pool": "1 - 3", "target": 5}, "give max_rolls"),
        ("extended roll", {"label": "nothing"}, "No open extended action"),
        ("extended roll", {}, "You have no open extended action"),
        ("extended abandon", {}, "You have no open extended action"),
    ],
)
async def test_bad_input_is_refused_ephemerally_and_stores_nothing(
    table: Table, start: StartRealBot, command: str, options: dict[str, Any], expected: str
) -> None:
    await start()

    reply = await (await table.ada.slash(table.channel, command, **options)).reply()

    assert reply.ephemeral
    assert expected in reply.text
    listed = await (await table.ada.slash(table.channel, "extended list")).reply()
    assert "No extended action is open" in listed.text


async def test_targets_and_roll_limits_out_of_range_cannot_be_sent(
    table: Table, start: StartRealBot
) -> None:
    await start()
    for options in ({"target": 1001}, {"target": 0}, {"target": 5, "max_rolls": 0}):
        with pytest.raises(ContractError, match="outside"):
            await table.ada.slash(table.channel, "extended start", pool="3", **options)
