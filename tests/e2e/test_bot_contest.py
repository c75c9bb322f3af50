"""/contest and /multi through the real bot: both sides at once, Roll to resist, v20 turns."""

from __future__ import annotations

import asyncio

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import FakeDiscord, Message


async def use_v20(table: Table) -> None:
    await (
        await table.admin.slash(table.channel, "config ruleset", ruleset="v20", scope="channel")
    ).reply()


def field(card: Message, name: str) -> str:
    return next(f["value"] for f in card.embeds[0]["fields"] if f["name"] == name)


async def test_cofd_contest_against_the_storyteller_s_dice_can_tie(
    table: Table, start: StartRealBot
) -> None:
    await start([
        8, 2, 3, 4, 9,  # Ada: 2 successes
        8, 8, 1, 2,  # the opposition: 2 successes
    ])
    card = await (
        await table.ada.slash(
            table.channel, "contest",
            pool="Strength 3 + Brawl 2", against="Stamina 2 + Brawl 2", label="arm wrestle",
        )
    ).reply()

    assert not card.ephemeral
    assert "arm wrestle" in card.text
    assert "Tie" in card.text
    assert "nobody wins" in card.text
    assert "2 successes" in field(card, "Ada")
    assert "Strength 3 + Brawl 2 = 5 dice" in field(card, "Ada")
    assert "2 successes" in field(card, "The opposition")
    assert card.buttons == []
    history = await (await table.ada.slash(table.channel, "history")).reply()
    assert history.text.count("arm wrestle") == 2


async def test_v20_contest_against_a_member_who_rolls_to_resist(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([
        7, 8, 9, 2, 3,  # Ada at difficulty 7: 3 successes
        6, 1, 2, 3,  # Bob at difficulty 6: 1 - 1 = 0
    ])
    await use_v20(table)
    ada, bob = table.ada, table.bob
    cara = fake.add_member("Cara")
    card = await (
        await ada.slash(
            table.channel, "contest", pool="5", opponent=bob, difficulty=7,
            opponent_difficulty=6, label="grapple",
        )
    ).reply()
    assert "Waiting for **Bob**" in card.text
    assert "3 successes" in field(card, "Ada")
    assert [button["label"] for button in card.buttons] == ["Roll to resist"]

    for other in (cara, ada):
        refusal = await (await other.click(card, label="Roll to resist")).reply()
        assert refusal.ephemeral
        assert "Only **Bob** can roll to resist" in refusal.text

    forms = [await bob.click(card, label="Roll to resist") for _ in range(2)]
    for form in forms:
        assert (await form.ack()).name == "MODAL"
    assert forms[0].modal is not None
    assert [f.label for f in forms[0].modal.fields] == ["Your pool"]
    submitted = await asyncio.gather(
        *(bob.submit_modal(form, {"Your pool": "Dexterity 2 + Brawl 2"}) for form in forms)
    )
    acks = [await interaction.ack() for interaction in submitted]
    assert sorted(ack.name for ack in acks) == ["CHANNEL_MESSAGE_WITH_SOURCE", "UPDATE_MESSAGE"]
    decided = next(i for i in submitted if i.callbacks[0].name == "UPDATE_MESSAGE")
    assert await decided.reply() is card
    second = await next(i for i in submitted if i is not decided).reply()
    assert second.ephemeral
    assert "already decided" in second.text

    assert "**Ada wins** by 3 successes (a complete success)" in card.text
    assert "Failure" in field(card, "Bob")
    assert "Dexterity 2 + Brawl 2 = 4 dice at difficulty 6" in field(card, "Bob")
    assert card.buttons == []


async def test_a_contest_needs_exactly_one_other_side(
    table: Table, start: StartRealBot
) -> None:
    await start()
    ada = table.ada
    for options, says in (
        ({}, "Name the other side"),
        ({"against": "3", "opponent": table.bob}, "not both"),
        ({"opponent": ada}, "cannot contest yourself"),
        ({"against": "3", "opponent_difficulty": 6}, "does not apply to the cofd ruleset"),
    ):
        reply = await (await ada.slash(table.channel, "contest", pool="3", **options)).reply()
        assert reply.ephemeral
        assert says in reply.text


async def test_multi_refuses_an_action_at_difficulty_ten_and_rolls_a_valid_turn(
    table: Table, start: StartRealBot
) -> None:
    await start([
        7, 8, 2, 3,  # action 1: 4 dice at difficulty 7: 2 successes
        8, 1, 9, 10,  # action 2: 4 dice at difficulty 8: 3 - 1 = 2 successes
    ])
    ada = table.ada
    actions = "Dexterity 3 + Athletics 2; Strength 3 + Brawl 3"
    cofd = await (await ada.slash(table.channel, "multi", actions=actions)).reply()
    assert cofd.ephemeral
    assert "v20 rule" in cofd.text

    await use_v20(table)
    refused = await (
        await ada.slash(table.channel, "multi", actions=actions, difficulty=8)
    ).reply()
    assert refused.ephemeral
    assert "Action 2 of 2" in refused.text
    assert "difficulty would be 10" in refused.text
    assert "Strength 3 + Brawl 3" in refused.text
    assert "nothing was rolled" in refused.text

    turn = await (await ada.slash(table.channel, "multi", actions=actions)).reply()
    assert not turn.ephemeral
    first, second = field(turn, "Action 1 of 2"), field(turn, "Action 2 of 2")
    assert "2 successes" in first
    assert "4 dice at difficulty 7" in first
    assert "-1 die, difficulty +1: multiple actions" in first
    assert "2 successes" in second
    assert "4 dice at difficulty 8" in second
    assert "-2 dice, difficulty +2: multiple actions" in second


async def test_a_fistful_contest_is_an_action_of_the_turn(
    table: Table, start: StartRealBot
) -> None:
    # /roll 3 (first action), /contest 3 vs 2 (second: −1 die), /roll 3 (third: −2 dice)
    await start([8, 8, 8, 8, 8, 2, 2, 8, 8, 8])
    await ask(table.admin, table.channel, "config ruleset", ruleset="fistful")
    first = await ask(table.ada, table.channel, "roll", pool="3")

    contest = await ask(table.ada, table.channel, "contest", pool="3", against="2")
    third = await ask(table.ada, table.channel, "roll", pool="3")

    assert "3 successes" in first.text
    assert "Ada wins" in contest.text
    assert "-1 die: successive action this turn" in contest.text
    assert "= 1 die" in third.text, "two earlier actions this turn: −2 dice"
    assert "1 success" in third.text
