"""/teamwork through the real bot: helpers through the card's form, the bonus, the roll, races."""

from __future__ import annotations

import asyncio

from tests.e2e.bot_fixtures import StartRealBot, Table, faces
from tests.e2e.harness import FakeDiscord, Interaction, Member, Message


def buttons(message: Message) -> list[str]:
    return [button["label"] for button in message.buttons]


def field(card: Message, name: str) -> str:
    """The value of the card's field whose name starts with ``name``."""
    fields = card.embeds[0].get("fields", [])
    return next(f["value"] for f in fields if f["name"].startswith(name))


async def begin(table: Table, member: Member, **options: object) -> Message:
    """`/teamwork start`: the card."""
    card = await (await member.slash(table.channel, "teamwork start", **options)).reply()
    assert not card.ephemeral, card.text
    return card


async def open_form(member: Member, card: Message) -> Interaction:
    """Press Help and get the form."""
    opener = await member.click(card, label="Help")
    assert (await opener.ack()).name == "MODAL"
    return opener


async def help_with(member: Member, card: Message, pool: str) -> Message:
    """Help through the card: the form, then the helper's own roll message."""
    opener = await open_form(member, card)
    roll = await (await member.submit_modal(opener, {"Your pool": pool})).reply()
    assert not roll.ephemeral, roll.text
    return roll


async def refused(member: Member, card: Message, label: str) -> str:
    reply = await (await member.click(card, label=label)).reply()
    assert reply.ephemeral
    return reply.text


async def test_cofd_three_helpers_and_the_primary_rolls_with_everything_applied(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([
        8, 9, 2,  # Bob: 2 successes
        1,  # Cara: chance die 1, dramatic failure
        1,  # Dan: chance die 1, another dramatic failure (still -4 once)
        8, 2, 10, 3,  # Ada: 5 + 2 - 4 = 3 dice, the 10 explodes: 2 successes
    ])
    ada, bob = table.ada, table.bob
    cara, dan = fake.add_member("Cara"), fake.add_member("Dan")
    card = await begin(
        table, ada, pool="Strength 3 + Athletics 2", label="force the door"
    )
    assert "force the door" in card.text
    assert "Ada" in card.text
    assert "Helpers (0)" in card.text
    assert "Strength 3 + Athletics 2 = 5 dice" in card.text
    assert buttons(card) == ["Help", "Roll", "Cancel"]

    assert "cannot help" in await refused(ada, card, "Help")

    bob_roll = await help_with(bob, card, "Wits 3")
    assert "Helping: force the door" in bob_roll.text
    assert "2 successes" in bob_roll.text
    assert buttons(bob_roll) == ["Spend Will"]  # a helper's roll offers Will like any roll
    await card.wait_for(lambda m: "Helpers (1)" in m.text)
    assert "+2 dice: teamwork (helpers' successes)" in card.text

    assert "already helped" in await refused(bob, card, "Help")

    cara_roll = await help_with(cara, card, "Dexterity 1 - 1")
    assert "Dramatic failure" in cara_roll.text
    await card.wait_for(lambda m: "Helpers (2)" in m.text)
    assert "-4 dice: a helper's dramatic failure" in card.text

    dan_help = await (await dan.slash(table.channel, "teamwork help", pool="0")).reply()
    assert "Dramatic failure" in dan_help.text
    await card.wait_for(lambda m: "Helpers (3)" in m.text)
    bonus = field(card, "Bonus and penalties")
    assert bonus.splitlines() == [
        "+2 dice: teamwork (helpers' successes)",
        "-4 dice: a helper's dramatic failure",
    ]
    assert field(card, "Ada will roll").splitlines()[-2:] == [  # a labelled teamwork's
        "= 3 dice",  # attempt pays for Ada's failures at it when she rolls (none here)
        "When Ada rolls: -1 die for each failure of theirs in a row at this action "
        "(successive attempts).",
    ]
    for name in ("Bob", "Cara", "Dan"):
        assert name in card.text

    primary = await (await ada.click(card, label="Roll")).reply()
    assert not primary.ephemeral
    assert "Teamwork: force the door" in primary.text
    assert "2 successes" in primary.text
    assert "+2 dice: teamwork (helpers' successes)" in primary.text
    assert "-4 dice: a helper's dramatic failure" in primary.text
    assert "= 3 dice" in primary.text
    await card.wait_for(lambda m: m.buttons == [])
    assert "Ada rolled" in card.text
    assert "this teamwork is over" in card.text

    history = await (await ada.slash(table.channel, "history")).reply()
    assert history.text.count("force the door") == 4


async def test_v20_helpers_beyond_the_limit_raise_every_roll_s_difficulty(
    table: Table, start: StartRealBot
) -> None:
    await start([
        6, 2, 3,  # Bob, within the limit, difficulty 6: 1 success
        7, 6, 2,  # Cara, one beyond, difficulty 7: the 6 fails, 1 success
        7, 8, 1, 2, 3, 4,  # Ada: 4 + 2 dice at difficulty 7: 2 - 1 = 1 success
    ])
    await (
        await table.admin.slash(table.channel, "config ruleset", ruleset="v20", scope="channel")
    ).reply()
    ada, bob = table.ada, table.bob
    cara = table.fake.add_member("Cara")
    card = await begin(table, ada, pool="4", label="hold the gate", helper_limit=1)
    assert "Helper limit: 1" in card.text

    opener = await open_form(bob, card)
    assert opener.modal is not None
    assert [field.label for field in opener.modal.fields] == ["Your pool", "Difficulty"]
    bob_roll = await (await bob.submit_modal(opener, {"Your pool": "3"})).reply()
    assert "1 success" in bob_roll.text
    assert "difficulty 6" in bob_roll.text

    cara_roll = await (await cara.slash(table.channel, "teamwork help", pool="3")).reply()
    assert "difficulty 7" in cara_roll.text
    assert "difficulty +1: more helpers than the limit" in cara_roll.text
    assert "1 success" in cara_roll.text
    await card.wait_for(lambda m: "Helpers (2)" in m.text)
    assert "difficulty +1: more helpers than the limit" in card.text
    assert "6 dice at difficulty 7" in card.text

    primary = await (await ada.slash(table.channel, "teamwork roll")).reply()
    assert "6 dice at difficulty 7" in primary.text
    assert "Success (marginal success)" in primary.text
    await card.wait_for(lambda m: m.buttons == [])


async def test_cancel_and_the_end_of_the_scene_end_a_teamwork(
    table: Table, start: StartRealBot
) -> None:
    await start([8])
    ada, bob, storyteller = table.ada, table.bob, table.storyteller
    first = await begin(table, ada, pool="3", label="climb")
    assert "started this teamwork" in await refused(bob, first, "Cancel")
    cancelled = await (await ada.click(first, label="Cancel")).reply()
    assert cancelled is first
    assert "Cancelled" in first.text
    assert first.buttons == []

    second = await begin(table, ada, pool="3", label="lift the beam")
    await help_with(bob, second, "1")
    await second.wait_for(lambda m: "Helpers (1)" in m.text)
    ended = await (await storyteller.slash(table.channel, "scene end")).reply()
    assert "1 unfinished teamwork action ended" in ended.text
    await second.wait_for(lambda m: m.buttons == [])
    assert "The scene ended" in second.text

    late = await (await bob.slash(table.channel, "teamwork help", pool="2")).reply()
    assert late.ephemeral
    assert "no open teamwork" in late.text.lower()


async def test_presses_at_once_change_the_teamwork_once(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([
        8, 2,  # Bob's one help
        8, 9, 2, 3,  # Ada's one roll: 3 + 1 dice
    ])
    ada, bob = table.ada, table.bob
    card = await begin(table, ada, pool="3", label="pick the lock")

    forms = [await open_form(bob, card), await open_form(bob, card)]
    submitted = await asyncio.gather(
        *(bob.submit_modal(form, {"Your pool": "2"}) for form in forms)
    )
    replies = [await interaction.reply() for interaction in submitted]
    assert sorted(reply.ephemeral for reply in replies) == [False, True]
    assert "already helped" in next(reply for reply in replies if reply.ephemeral).text
    await card.wait_for(lambda m: "Helpers (1)" in m.text)

    roll_a, roll_b, cancel = presses = await asyncio.gather(
        ada.click(card, label="Roll"), ada.click(card, label="Roll"),
        table.storyteller.click(card, label="Cancel"),
    )
    for press in presses:
        await press.ack()
    await card.wait_for(lambda m: m.buttons == [])
    if "Cancelled" in card.text:
        winners = [cancel]
    else:
        winners = [
            press for press in (roll_a, roll_b)
            if press.callbacks[0].name == "CHANNEL_MESSAGE_WITH_SOURCE"
        ]
    assert len(winners) == 1
    rolls = [
        message for message in fake.messages(table.channel)
        if message is not card and "Teamwork: pick the lock" in message.text
    ]
    assert len(rolls) == (0 if winners == [cancel] else 1)
    for loser in (press for press in presses if press not in winners):
        assert loser.callbacks[0].name == "UPDATE_MESSAGE"
        note = await loser.followup()
        assert note.ephemeral
        assert "nothing was changed" in note.text


async def test_a_restart_in_the_middle_keeps_the_card_working(
    table: Table, start: StartRealBot
) -> None:
    bot = await start([8, 9])  # Bob helps before the restart: 2 successes
    ada, bob, admin = table.ada, table.bob, table.admin
    card = await begin(table, ada, pool="2", label="break the seal")
    await help_with(bob, card, "2")
    await card.wait_for(lambda m: "Helpers (1)" in m.text)
    opener = await open_form(admin, card)  # opened before the restart, submitted after it

    await bot.kill()
    bot.env_extra |= faces([
        8, 2,  # the Admin's help: 1 success
        8, 8, 8, 2, 3,  # Ada: 2 + 3 dice
    ])
    await bot.start()

    admin_roll = await (await admin.submit_modal(opener, {"Your pool": "2"})).reply()
    assert "1 success" in admin_roll.text
    await card.wait_for(lambda m: "Helpers (2)" in m.text)
    assert "+3 dice: teamwork" in card.text
    primary = await (await ada.click(card, label="Roll")).reply()
    assert "3 successes" in primary.text
    assert "= 5 dice" in primary.text
