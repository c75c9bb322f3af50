"""Proves the e2e harness against bare_bot.py: every driver feature, every fake safeguard."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import aiohttp
import discord
import pytest

from tests.e2e.harness import (
    BotExitedError,
    BotProcess,
    Channel,
    ContractError,
    FakeDiscord,
    Member,
    StartBot,
    Upload,
)
from tests.e2e.harness.fake import ATTACHMENT_SIZE_LIMIT
from tests.e2e.harness.process import Zygote
from tests.e2e.harness.validation import message_errors, modal_errors

BOT = [sys.executable, "-m", "bot"]

BARE_BOT = [sys.executable, str(Path(__file__).with_name("bare_bot.py"))]


@pytest.fixture
def general(fake: FakeDiscord) -> Channel:
    return fake.add_channel("general")


@pytest.fixture
def alice(fake: FakeDiscord) -> Member:
    return fake.add_member("alice")


@pytest.fixture
async def bot(start_bot: StartBot, general: Channel, alice: Member) -> BotProcess:
    """The bare bot, started after the default channel and member exist."""
    return await start_bot(BARE_BOT)


async def test_slash_command_gets_an_embed_reply(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    inter = await alice.slash(general, "ping")

    reply = await inter.reply()

    assert (await inter.ack()).name == "CHANNEL_MESSAGE_WITH_SOURCE"
    assert reply.embeds[0]["title"] == "Pong"
    assert "The bare bot is alive." in reply.text
    assert not reply.ephemeral
    assert reply.interaction is inter
    assert fake.messages(general) == [reply]
    assert fake.gateway.compressions == ["zlib-stream"]


async def test_dynamic_button_still_works_after_a_bot_restart(
    bot: BotProcess, general: Channel, alice: Member
) -> None:
    message = await (await alice.slash(general, "counter")).reply()
    assert message.content == "Count: 0"

    assert await bot.kill() == -9
    await bot.start()
    click = await alice.click(message, label="Count")

    assert (await click.ack()).name == "UPDATE_MESSAGE"
    await message.wait_for(lambda m: m.content == "Count: 1")
    assert message.buttons[0]["custom_id"] == "bare:count:1"


async def test_concurrent_clicks_are_both_dispatched(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    bob = fake.add_member("bob")
    message = await (await alice.slash(general, "counter")).reply()

    clicks = await asyncio.gather(
        alice.click(message, label="Count"), bob.click(message, label="Count")
    )

    acks = await asyncio.gather(*(click.ack() for click in clicks))
    assert [ack.name for ack in acks] == ["UPDATE_MESSAGE", "UPDATE_MESSAGE"]
    assert {click.member.name for click in clicks} == {"alice", "bob"}
    await message.wait_for(lambda m: m.edits == 2)


async def test_deferred_update_then_edit_after_a_graceful_restart(
    bot: BotProcess, general: Channel, alice: Member
) -> None:
    message = await (await alice.slash(general, "counter")).reply()
    await (await alice.click(message, label="Count")).ack()

    await bot.restart()
    reset = await alice.click(message, label="Reset")

    assert (await reset.ack()).name == "DEFERRED_UPDATE_MESSAGE"
    assert await reset.reply() is message
    assert message.content == "Count: 0"
    assert bot.starts == 2


async def test_button_opens_a_modal_and_the_submission_is_answered(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    bob = fake.add_member("bob")
    form = await (await alice.slash(general, "form")).reply()
    opener = await alice.click(form, label="Open form")

    assert (await opener.ack()).name == "MODAL"
    assert opener.modal is not None
    assert opener.modal.title == "Leave a note"
    assert [(f.label, f.required) for f in opener.modal.fields] == [
        ("Note", True),
        ("Mood", False),
        ("Tone", True),
    ]
    with pytest.raises(ContractError, match="'Note' is required"):
        await alice.submit_modal(opener, {"Mood": "calm", "Tone": "warm"})
    with pytest.raises(ContractError, match="cannot take"):
        await alice.submit_modal(opener, {"Note": "hi", "Tone": ["warm", "cold"]})
    submitted = await alice.submit_modal(
        opener, {"Note": "hello", "bare:mood": "calm", "Tone": "warm"}
    )

    reply = await submitted.reply()
    assert reply.text == "Noted: hello (calm, warm)"
    assert reply.ephemeral
    assert reply.ephemeral_to == alice.id
    assert reply not in fake.messages(general, visible_to=bob)
    with pytest.raises(ContractError, match="cannot see"):
        await bob.click(reply, label="anything")


async def test_autocomplete_offers_choices(
    bot: BotProcess, general: Channel, alice: Member
) -> None:
    choices = await alice.autocomplete(general, "pick", focused="fruit", value="ap")

    assert choices == [{"name": "Apple", "value": "apple"}, {"name": "Apricot", "value": "apricot"}]
    reply = await (await alice.slash(general, "pick", fruit="apple")).reply()
    assert reply.content == "Picked apple"


@pytest.mark.parametrize("via", ["edit", "followup"])
async def test_deferred_response_is_filled_in(
    bot: BotProcess, general: Channel, alice: Member, via: str
) -> None:
    inter = await alice.slash(general, "slow", via=via)

    reply = await inter.reply()

    assert (await inter.ack()).name == "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE"
    assert reply.content == "Slow answer ready"
    assert not reply.loading
    assert inter.original_edits == 1
    assert inter.followups == ([reply] if via == "followup" else [])


async def test_followups_and_webhook_edits_then_a_clean_exit(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    inter = await alice.slash(general, "steps")

    reply = await inter.reply()
    second = await inter.followup(1)
    third = await inter.followup(2)

    await reply.wait_for(lambda m: m.content == "Step 1 (edited)")
    await second.wait_for(lambda m: m.content == "Step 2 (edited)")
    await third.wait_for(lambda m: m.deleted)
    assert second.ephemeral_to == alice.id
    assert second.interaction is inter
    assert fake.messages(general) == [reply, second]
    assert await bot.stop() == 0


async def test_png_attachment_is_captured(bot: BotProcess, general: Channel, alice: Member) -> None:
    reply = await (await alice.slash(general, "chart")).reply()

    [png] = reply.attachments
    assert (png.filename, png.content_type) == ("chart.png", "image/png")
    assert png.data.startswith(b"\x89PNG\r\n\x1a\n")
    assert reply.embeds[0]["image"]["url"] == "attachment://chart.png"


async def test_user_role_channel_and_attachment_options_resolve(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    gm = fake.add_role("GM")
    bob = fake.add_member("bob", roles=[gm])
    scenes = fake.add_channel("scenes", parent=fake.add_category("Game"))

    whois = await (await alice.slash(general, "whois", who=bob, role=gm)).reply()
    inspect = await (
        await alice.slash(general, "inspect", file=Upload("notes.txt", b"hello"))
    ).reply()
    announce = await (await alice.slash(general, "announce", channel=scenes, text="hi")).reply()

    assert whois.content == f"{bob.mention} has GM"
    assert inspect.content == "notes.txt: 5 bytes, text/plain"
    assert announce.ephemeral
    assert announce.content == f"Sent to {scenes.mention} in Fake Guild; history=['hi']"
    posted = await fake.wait_for_message(scenes, lambda m: m.content == "hi")
    assert (posted.interaction, posted.edits) == (None, 1)
    assert fake.messages(scenes) == [posted]


async def test_contract_errors_are_raised_in_the_test(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    with pytest.raises(ContractError, match="no synced slash command"):
        await alice.slash(general, "nope")
    with pytest.raises(ContractError, match="no option"):
        await alice.slash(general, "pick", fruit="fig", colour="red")
    with pytest.raises(ContractError, match="missing required"):
        await alice.slash(general, "pick")
    with pytest.raises(ContractError, match="not one of"):
        await alice.slash(general, "config ruleset", ruleset="dnd")
    with pytest.raises(ContractError, match="is a group"):
        await alice.slash(general, "config")
    with pytest.raises(ContractError, match="no button"):
        await alice.click(await (await alice.slash(general, "ping")).reply(), label="Count")
    assert len(fake.interactions) == 1


async def test_subcommand_group_sees_member_permissions_in_threads(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    storyteller = fake.add_member("st", permissions=discord.Permissions(manage_guild=True).value)
    thread = fake.add_channel("scene-1", parent=general)

    allowed = await (
        await storyteller.slash(thread, "config ruleset", ruleset="v20", scope="channel")
    ).reply()
    denied = await (await alice.slash(thread, "config ruleset", ruleset="cofd")).reply()

    assert (allowed.content, allowed.channel_id) == ("ruleset=v20 scope=channel", thread.id)
    assert denied.content == "You need Manage Server."
    assert denied.ephemeral


async def test_second_acknowledgement_is_rejected_and_recorded(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    inter = await alice.slash(general, "ping")
    await inter.reply()

    url = f"{fake.api_base}/interactions/{inter.id}/{inter.token}/callback"
    async with aiohttp.ClientSession() as http, http.post(url, json={"type": 6}) as response:
        body = await response.json()

    assert (response.status, body["code"]) == (400, 40060)
    assert body["message"] == "Interaction has already been acknowledged."
    assert [f.kind for f in fake.take_failures()] == ["double_ack"]


async def test_late_acknowledgements_are_recorded(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    fake.ack_deadline = 0.0  # every ack is "late" without waiting 3 s

    fake.enforce_ack_deadline = False
    accepted = await alice.slash(general, "ping")
    await accepted.reply()
    fake.enforce_ack_deadline = True
    rejected = await alice.slash(general, "ping")
    await fake.wait_until(lambda: len(fake.late) == 2, what="two late acks")

    assert [late.interaction_id for late in fake.late] == [accepted.id, rejected.id]
    assert not rejected.acked
    assert [f.kind for f in fake.take_failures()] == ["late_ack"]


async def test_gateway_reconnect_resumes_at_resume_gateway_url(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    await fake.gateway.reconnect()

    await fake.wait_until(lambda: fake.gateway.resumes == 1 and fake.gateway.connected)
    assert (await (await alice.slash(general, "ping")).reply()).embeds
    assert fake.gateway.identifies == 1


async def test_invalid_session_makes_the_bot_identify_again(
    fake: FakeDiscord, bot: BotProcess, general: Channel, alice: Member
) -> None:
    await fake.gateway.invalidate_session()

    # discord.py waits 5 s (Client.before_identify_hook) before any non-initial IDENTIFY.
    await fake.wait_until(
        lambda: fake.gateway.identifies == 2 and fake.gateway.connected, timeout=10
    )
    assert (await (await alice.slash(general, "ping")).reply()).embeds


async def test_fake_rejects_what_discord_rejects(fake: FakeDiscord) -> None:
    channel = fake.add_channel("general")
    headers = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{fake.api_base}/guilds/{fake.guild_id}/bans") as unknown:
            assert unknown.status == 404
        async with http.post(messages, json={"content": "x" * 2001}) as too_long:
            assert (too_long.status, (await too_long.json())["code"]) == (400, 50035)
        async with http.post(messages, json={"embeds": [{"description": "d" * 4097}]}) as embed:
            assert embed.status == 400
        async with http.post(messages, json={"content": ""}) as empty:
            assert (empty.status, (await empty.json())["code"]) == (400, 50006)
        row = [{"type": 2, "style": 1, "label": str(i), "custom_id": str(i)} for i in range(6)]
        async with http.post(
            messages, json={"components": [{"type": 1, "components": row}]}
        ) as wide:
            assert wide.status == 400

    kinds = [(f.kind, f.method, f.path.rsplit("/", 1)[-1]) for f in fake.take_failures()]
    assert kinds == [("unknown_route", "GET", "bans")] + [
        ("invalid_body", "POST", "messages")
    ] * 2 + [
        ("empty_message", "POST", "messages"),
        ("invalid_body", "POST", "messages"),
    ]
    assert fake.messages(channel) == []


async def test_fake_rejects_a_file_larger_than_discord_takes(fake: FakeDiscord) -> None:
    """An upload past the attachment size limit is refused with Discord's 40005, so a bot
    that sends one (an export, a chart) fails its e2e test rather than Discord."""
    channel = fake.add_channel("general")
    headers = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{channel.id}/messages"
    async with aiohttp.ClientSession(headers=headers) as http:
        for size in (ATTACHMENT_SIZE_LIMIT, ATTACHMENT_SIZE_LIMIT + 1):
            form = aiohttp.FormData()
            form.add_field("payload_json", '{"content": "log"}',
                           content_type="application/json")
            form.add_field("files[0]", b"x" * size, filename="log.csv")
            async with http.post(messages, data=form) as sent:
                assert sent.status == (200 if size == ATTACHMENT_SIZE_LIMIT else 413)

    failures = fake.take_failures()
    assert [(f.kind, f.status) for f in failures] == [("too_large", 413)]
    assert len(fake.messages(channel)) == 1


async def test_fake_records_a_message_that_would_ping(fake: FakeDiscord) -> None:
    """Discord sends a message whose mentions its allowed_mentions let through, and notifies
    them: the fake records it, so no e2e test passes with a ping the bot never means."""
    channel = fake.add_channel("general")
    headers = {"Authorization": f"Bot {fake.token}"}
    messages = f"{fake.api_base}/channels/{channel.id}/messages"
    quiet = {"parse": []}
    async with aiohttp.ClientSession(headers=headers) as http:
        for content, allowed in (("@everyone", None), ("<@1> \\<@2>", {"parse": ["users"]}),
                                 ("@everyone <@1> <@&2>", quiet), ("\\<@&2>", None)):
            body = {"content": content} | ({} if allowed is None else {"allowed_mentions": allowed})
            async with http.post(messages, json=body) as sent:
                assert sent.status == 200

    failures = fake.take_failures()
    assert [(f.kind, f.detail.split(" in ")[0]) for f in failures] == [
        ("would_ping", "@everyone"), ("would_ping", "<@1>")]
    assert len(fake.messages(channel)) == 4


def test_fake_checks_select_menus_and_modal_descriptions_as_discord_does() -> None:
    """A select's options (1 to 25; label and value 1 to 100 characters, description at
    most 100) and a modal label's description (at most 100) are Discord's limits too."""
    option = {"label": "a", "value": "a"}
    select = {"type": 3, "custom_id": "s", "options": [option]}

    def paths(component: dict[str, object]) -> list[str]:
        row = {"type": 1, "components": [component]}
        return [error.path for error in message_errors({"components": [row]})]

    assert paths(select) == []
    assert paths({**select, "options": []}) == ["components.0.components.0.options"]
    assert paths({**select, "options": [{"label": "l" * 101, "value": "v" * 101,
                                         "description": "d" * 101}]}) == [
        f"components.0.components.0.options.0.{key}" for key in ("label", "value", "description")
    ]
    assert paths({**select, "max_values": 26}) == ["components.0.components.0.max_values"]
    text_input = {"type": 4, "custom_id": "t", "style": 1}
    form = {"title": "Form", "custom_id": "f", "components": [
        {"type": 18, "label": "Name", "description": "d" * 100, "component": text_input}]}
    assert modal_errors(form) == []
    form["components"][0]["description"] = "d" * 101  # type: ignore[index]
    assert [error.path for error in modal_errors(form)] == ["data.components.0.description"]


async def test_gateway_speaks_plain_json_without_compression(fake: FakeDiscord) -> None:
    headers = {"Authorization": f"Bot {fake.token}"}
    async with aiohttp.ClientSession(headers=headers) as http:
        async with http.get(f"{fake.api_base}/gateway/bot") as response:
            url = (await response.json())["url"]
        async with http.ws_connect(f"{url}?v=10&encoding=json") as ws:
            hello = await ws.receive_json()
            await ws.send_json({"op": 2, "d": {"token": fake.token, "intents": 1}})
            ready = await ws.receive_json()
            guild = await ws.receive_json()
            await ws.send_json({"op": 1, "d": ready["s"]})
            ack = await ws.receive_json()

    assert (hello["op"], ready["t"], guild["t"], ack["op"]) == (10, "READY", "GUILD_CREATE", 11)
    assert ready["d"]["resume_gateway_url"] == fake.gateway_url
    assert ready["d"]["application"]["id"] == str(fake.application_id)
    assert [ready["s"], guild["s"]] == [1, 2]
    assert fake.gateway.compressions == [None]


async def test_each_guild_reaches_only_the_shard_session_that_owns_it(fake: FakeDiscord) -> None:
    """Two sessions of one bot, shards 0 and 1 of 2, and guilds on each: READY names only
    the session's guilds, each gets only its guilds' GUILD_CREATE, model changes and
    interactions, and a guild the bot joins later goes to its shard's session alone."""
    guilds = {shard: fake.add_guild(f"shard {shard}", shard=(shard, 2)) for shard in (0, 1)}
    tables = {shard: fake.add_channel("table", guild=guild) for shard, guild in guilds.items()}
    members = {shard: fake.add_member("Ada", guild=guild) for shard, guild in guilds.items()}
    own_shard = (fake.guild_id >> 22) % 2
    async with aiohttp.ClientSession() as http:
        sockets = {}
        for shard in (0, 1):
            ws = sockets[shard] = await http.ws_connect(f"{fake.gateway_url}?v=10&encoding=json")
            await ws.receive_json()  # HELLO
            identify = {"token": fake.token, "intents": 1, "shard": [shard, 2]}
            await ws.send_json({"op": 2, "d": identify})
        for shard, ws in sockets.items():
            ready = await ws.receive_json()
            expected = {guilds[shard].id} | ({fake.guild_id} if shard == own_shard else set())
            assert ready["d"]["shard"] == [shard, 2]
            assert {int(guild["id"]) for guild in ready["d"]["guilds"]} == expected
            created = [await ws.receive_json() for _ in expected]
            assert {int(event["d"]["id"]) for event in created} == expected
            assert {c["name"] for event in created for c in event["d"]["channels"]} <= {"table"}
        assert fake.gateway.serving(guilds[0].id) and fake.gateway.serving(guilds[1].id)

        later = fake.add_channel("later", guild=guilds[1])
        joined = fake.add_guild("joined", shard=(0, 2))
        presses = {}
        for shard in (1, 0):  # shard 1 first: were it sent to shard 0's session, 0 sees it first
            presses[shard] = await fake.dispatch_interaction(
                members[shard], kind=3, channel=tables[shard],
                data={"custom_id": "sb1:x", "component_type": 2},
            )

        first = [await sockets[1].receive_json() for _ in range(2)]
        assert [(event["t"], event["d"]["id"]) for event in first] == [
            ("CHANNEL_CREATE", str(later.id)), ("INTERACTION_CREATE", str(presses[1].id))
        ]
        assert first[1]["d"]["guild_id"] == str(guilds[1].id)
        zero = [await sockets[0].receive_json() for _ in range(2)]
        assert [(event["t"], event["d"]["id"]) for event in zero] == [
            ("GUILD_CREATE", str(joined.id)), ("INTERACTION_CREATE", str(presses[0].id))
        ]
        assert (presses[0].shard, presses[1].shard) == ((0, 2), (1, 2))
        for ws in sockets.values():
            await ws.close()

    with pytest.raises(ContractError, match="not a member of the guild"):  # of their own only
        await fake.dispatch_interaction(
            members[0], kind=3, channel=tables[1], data={"custom_id": "sb1:x", "component_type": 2}
        )


def test_bot_environment_contract(fake: FakeDiscord, tmp_path: Path) -> None:
    process = BotProcess(fake, BARE_BOT, {"EXTRA": "1"}, tmp_path / "db.sqlite3", dice_seed=7)

    env = process.env()

    assert env["DISCORD_TOKEN"] == fake.token
    assert env["DATABASE_PATH"] == str(tmp_path / "db.sqlite3")
    assert env["DEV_GUILD_ID"] == str(fake.guild_id)
    assert env["DISCORD_API_BASE"] == fake.api_base
    assert env["DISCORD_GATEWAY_URL"] == fake.gateway_url
    assert (env["LOG_LEVEL"], env["DICE_SEED"], env["EXTRA"]) == ("INFO", "7", "1")


async def test_a_bot_that_dies_fails_the_wait_at_once(fake: FakeDiscord, tmp_path: Path) -> None:
    process = BotProcess(fake, [sys.executable, "-c", "raise SystemExit(3)"], None, tmp_path / "db")

    with pytest.raises(BotExitedError, match="exited unexpectedly"):
        await process.start()
    assert (process.crashed, process.returncode) == (True, 3)


async def test_a_forked_bot_reports_its_exit_code_and_output(
    fake: FakeDiscord, tmp_path: Path, zygote: Zygote
) -> None:
    """The zygote's child is ``python -m bot``: a start-up failure exits 2 with its line."""
    (tmp_path / "db").mkdir()
    process = BotProcess(fake, BOT, None, tmp_path / "db", name="forked", zygote=zygote)

    with pytest.raises(BotExitedError, match="exited unexpectedly"):
        await process.start()

    assert (process.crashed, process.returncode) == (True, 2)
    assert "The database cannot be used" in process.output()


async def test_a_forked_bot_killed_by_a_signal_reports_the_signal(
    start_bot: StartBot, zygote: Zygote
) -> None:
    process = await start_bot(BOT)
    pid = process.pid
    stat = await asyncio.to_thread(Path(f"/proc/{pid}/stat").read_text)
    parent = stat.rsplit(")", 1)[1].split()[1]
    assert parent == str(zygote.pid)  # forked, not a new interpreter

    assert await process.kill() == -9
    assert process.pid == pid and not process.running


@pytest.mark.parametrize("forked", [True, False], ids=["forked", "subprocess"])
async def test_a_bot_runs_in_its_own_folder_where_no_env_file_of_the_checkout_is(
    fake: FakeDiscord, tmp_path: Path, zygote: Zygote, forked: bool
) -> None:
    """README has whoever runs the tests keep their `.env` in the checkout (their token,
    perhaps a DATABASE_URL or SHARD_COUNT of their deployment), and the bot reads the
    `.env` of the folder it runs in, over what a test leaves unset: a bot that ran in the
    checkout wrote a test's rolls to their PostgreSQL database. It runs in its database's
    folder, forked or not."""
    bot = BotProcess(fake, BOT, None, tmp_path / "own" / "bot.sqlite3",
                     zygote=zygote if forked else None)
    bot.folder.mkdir()
    await bot.start()
    try:
        assert bot.pid is not None
        ran_in = os.readlink(f"/proc/{bot.pid}/cwd")
    finally:
        await bot.stop()
    assert ran_in == str(bot.folder)
    assert not (bot.folder / ".env").exists()
