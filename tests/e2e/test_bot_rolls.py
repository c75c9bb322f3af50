"""/roll and /odds through the real bot: each ruleset, its options, secret rolls, bad input."""

from __future__ import annotations

import re

import discord
import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import FakeDiscord

PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


async def use_ruleset(table: Table, ruleset: str) -> None:
    reply = await ask(table.admin, table.channel, "config ruleset", ruleset=ruleset)
    assert reply.text.startswith("Ruleset in ")


async def test_cofd_roll_shows_every_die_the_outcome_and_the_breakdown(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 8, 10, 1, 9, 10, 4])

    reply = await ask(table.ada, table.channel, "roll", pool="Strength 3 + Brawl 2")

    assert not reply.ephemeral
    assert "Success" in reply.text
    assert "4 successes" in reply.text
    assert "10-again: **10**" in reply.text
    assert "10-again, 2nd: 4" in reply.text
    assert "Strength 3 + Brawl 2" in reply.text
    assert "Chronicles of Darkness" in reply.text
    assert "Ada" in reply.text
    assert [button["label"] for button in reply.buttons] == [
        "Spend Will", "Roll again", "Save this roll"]


async def test_cofd_rote_nine_again_and_specialty_together(
    table: Table, start: StartRealBot
) -> None:
    # 5 dice (4 + specialty): 2 9 5 8 1; rote rerolls 2, 5, 1 → 10 3 9; 9-again: 10, 9, 9 → 4 9 2;
    # that 9 → 7. Successes: 10 9 8 9 + 9 = 5, exceptional.
    await start([2, 9, 5, 8, 1, 10, 3, 9, 4, 9, 2, 7])

    reply = await (
        await table.ada.slash(
            table.channel, "roll", pool="Dexterity 3 + Larceny 1",
            rote=True, again="9", specialty=True, label="pick the lock",
        )
    ).reply()

    assert "pick the lock: Exceptional success" in reply.text
    assert "5 successes" in reply.text
    assert "2→**10**" in reply.text
    assert "specialty" in reply.text
    assert "= 5 dice" in reply.text


async def test_cofd_chance_die_dramatic_failure(table: Table, start: StartRealBot) -> None:
    await start([1])

    reply = await (await table.ada.slash(table.channel, "roll", pool="2 - 3")).reply()

    assert "Dramatic failure" in reply.text
    assert "chance die" in reply.text


async def test_v20_roll_with_difficulty_and_specialty(table: Table, start: StartRealBot) -> None:
    await start([10, 9, 1, 3])
    await use_ruleset(table, "v20")

    reply = await (
        await table.ada.slash(table.channel, "roll", pool="4", difficulty=8, specialty=True)
    ).reply()

    assert "moderate" in reply.text
    assert "2 successes" in reply.text
    assert "difficulty 8" in reply.text
    assert "Classic World of Darkness" in reply.text


async def test_v20_botch(table: Table, start: StartRealBot) -> None:
    await start([6, 5, 1, 2])
    await use_ruleset(table, "v20")

    reply = await (await table.ada.slash(table.channel, "roll", pool="4", difficulty=7)).reply()

    assert "Botch" in reply.text


async def test_fistful_risky_roll_with_need(table: Table, start: StartRealBot) -> None:
    await start([10, 10, 10, 1, 8, 1, 9])
    await use_ruleset(table, "fistful")

    reply = await (
        await table.ada.slash(table.channel, "roll", pool="5", risky=True, need=3)
    ).reply()

    assert "3 successes" in reply.text
    assert "Fist Full of Dice" in reply.text


async def test_fistful_double_botch(table: Table, start: StartRealBot) -> None:
    await start([2, 1, 1])
    await use_ruleset(table, "fistful")

    reply = await (await table.ada.slash(table.channel, "roll", pool="3")).reply()

    assert "double botch" in reply.text.lower()


async def test_secret_roll_is_seen_by_the_roller_the_channel_sees_a_notice_the_storyteller_a_copy(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([8, 9, 2])
    role = fake.add_role("Storyteller")
    await (
        await table.admin.slash(
            table.channel, "config storyteller", role=role, channel=table.st_channel
        )
    ).reply()

    roll = await table.ada.slash(table.channel, "roll", pool="3", label="sneak past", private=True)
    reply = await roll.reply()
    notice = await roll.followup()
    copy = await fake.wait_for_message(table.st_channel, lambda m: "sneak past" in m.text)

    assert reply.ephemeral
    assert reply.ephemeral_to == table.ada.id
    assert "2 successes" in reply.text
    assert not notice.ephemeral
    assert "secret roll" in notice.text
    assert "sneak past" in notice.text
    assert "**8**" not in notice.text
    assert "2 successes" in copy.text
    assert copy.buttons == []
    visible_to_bob = fake.messages(table.channel, visible_to=table.bob)
    assert all("2 successes" not in message.text for message in visible_to_bob)


async def test_odds_reply_has_exact_figures_and_a_png_chart(
    table: Table, start: StartRealBot
) -> None:
    await start()

    reply = await (await table.ada.slash(table.channel, "odds", pool="5", rote=True)).reply()

    assert "not a simulation" in reply.text
    assert "Exceptional success" in reply.text
    assert [attachment.filename for attachment in reply.attachments] == ["odds.png"]
    assert reply.attachments[0].data.startswith(PNG_MAGIC)


@pytest.mark.parametrize(
    ("pool", "options", "expected"),
    [
        # a bare name is a trait of the active character: none yet, so how to make one
        ("Strength 3 + Brawl", {}, "/character create"),
        ("3 +", {}, "pool"),
        ("150", {}, "100"),
        ("60 + 50", {}, "100"),
        ("3", {"difficulty": 7}, "difficulty does not apply to the cofd ruleset"),
        ("3", {"risky": True}, "risky does not apply to the cofd ruleset"),
        ("-5", {"will": True}, "Willpower cannot help"),
    ],
)
async def test_bad_input_is_refused_ephemerally_and_changes_nothing(
    table: Table, start: StartRealBot, pool: str, options: dict[str, object], expected: str
) -> None:
    await start()

    reply = await (await table.ada.slash(table.channel, "roll", pool=pool, **options)).reply()

    assert reply.ephemeral
    assert expected in reply.text
    history = await (await table.ada.slash(table.channel, "history")).reply()
    assert "No rolls" in history.text


async def test_fistful_pool_of_zero_cannot_act(table: Table, start: StartRealBot) -> None:
    await start()
    await use_ruleset(table, "fistful")

    reply = await (await table.ada.slash(table.channel, "roll", pool="2 - 2", will=True)).reply()

    assert reply.ephemeral
    assert "cannot take this action now" in reply.text


async def test_labels_and_names_never_ping(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([8])

    reply = await (
        await table.ada.slash(table.channel, "roll", pool="1", label="@everyone <@&1> <@42>")
    ).reply()

    assert reply.allowed_mentions == {"parse": []}
    assert "@everyone" not in reply.text.replace("@\u200beveryone", "")
    assert re.search(r"(?<!\\)<@", reply.text) is None, "every mention is escaped"


async def test_a_secret_roll_whose_copy_cannot_be_posted_still_stands_and_says_so(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    await start([8])
    role = fake.add_role("Storyteller")
    await ask(table.admin, table.channel, "config storyteller", role=role, channel=table.st_channel)
    send = discord.Permissions(send_messages=True).value
    fake.everyone_role.permissions &= ~send
    fake.bot_role.permissions &= ~send

    roll = await table.ada.slash(table.channel, "roll", pool="1", label="hide", private=True)
    reply = await roll.reply()
    warning = await roll.followup(n=2)
    failures = fake.take_failures()

    assert "1 success" in reply.text
    assert warning.ephemeral
    assert "could not copy it" in warning.text
    assert [failure.status for failure in failures] == [403]
    assert "hide" in (await ask(table.ada, table.channel, "history")).text


async def test_a_stats_export_is_acknowledged_at_once_and_its_file_follows(
    table: Table, start: StartRealBot
) -> None:
    """Reading and writing a long roll log can outlast Discord's 3 seconds: /stats export is
    acknowledged first (deferred, to the member alone), and the CSV follows in its place."""
    await start([8, 3])
    await ask(table.ada, table.channel, "roll", pool="2", label="door")

    asked = await table.ada.slash(table.channel, "stats", export=True)

    assert (await asked.ack()).name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
    answer = await asked.reply()
    assert answer.ephemeral
    [log] = answer.attachments
    assert log.filename.endswith(".csv")
    assert b"door" in log.data
