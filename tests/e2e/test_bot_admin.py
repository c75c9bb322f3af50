"""Settings, the roll log, Will pools and the Storyteller's clock through the real bot."""

from __future__ import annotations

from tests.e2e.bot_fixtures import StartRealBot, Table, ask
from tests.e2e.harness import FakeDiscord

# --- /config ------------------------------------------------------------------------------


async def test_an_admin_sets_the_channel_ruleset_and_the_change_is_confirmed(
    table: Table, start: StartRealBot
) -> None:
    await start()

    reply = await ask(table.admin, table.channel, "config ruleset", ruleset="fistful")

    assert not reply.ephemeral
    assert reply.text == (
        f"Ruleset in <#{table.channel.id}> is now Fist Full of Dice (table procedure)"
        " (it was Chronicles of Darkness (2e))."
    )
    shown = await ask(table.ada, table.channel, "config show")
    assert "Fist Full of Dice" in shown.text


async def test_a_player_cannot_change_the_ruleset(table: Table, start: StartRealBot) -> None:
    await start()

    reply = await ask(table.ada, table.channel, "config ruleset", ruleset="v20")

    assert reply.ephemeral
    assert "Manage Channels" in reply.text
    assert "Chronicles of Darkness" in (await ask(table.ada, table.channel, "config show")).text


async def test_the_server_ruleset_needs_manage_server(table: Table, start: StartRealBot) -> None:
    await start()

    reply = await ask(
        table.storyteller, table.channel, "config ruleset", ruleset="v20", scope="server"
    )

    assert reply.ephemeral
    assert "Manage Server" in reply.text


async def test_a_channel_without_its_own_ruleset_uses_the_servers_and_its_own_wins(
    table: Table, start: StartRealBot
) -> None:
    await start()
    await ask(table.admin, table.channel, "config ruleset", ruleset="fistful")

    server = await ask(table.admin, table.channel, "config ruleset", ruleset="v20", scope="server")

    assert server.text == (
        "The server's ruleset is now Classic World of Darkness (V20 / Dark Ages)"
        f" (it was Chronicles of Darkness (2e)). <#{table.channel.id}> keeps its own ruleset."
    )
    assert "Classic World of Darkness" in (
        await ask(table.ada, table.other, "config show")
    ).text
    assert "Fist Full of Dice" in (await ask(table.ada, table.channel, "config show")).text


async def test_the_default_choice_gives_a_channel_back_to_the_servers_ruleset(
    table: Table, start: StartRealBot
) -> None:
    await start()
    await ask(table.admin, table.channel, "config ruleset", ruleset="fistful")
    await ask(table.admin, table.channel, "config ruleset", ruleset="v20", scope="server")

    reply = await ask(table.admin, table.channel, "config ruleset", ruleset="default")

    assert reply.text == (
        f"Ruleset in <#{table.channel.id}> now follows the server's value (in a thread, its"
        " channel's): Classic World of Darkness (V20 / Dark Ages) (it was Fist Full of Dice"
        " (table procedure))."
    )
    assert "Classic World of Darkness" in (
        await ask(table.ada, table.channel, "config show")).text


async def test_a_thread_follows_its_channel(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    thread = fake.add_channel("scene 1", parent=table.channel)
    await start()
    await ask(table.admin, table.channel, "config ruleset", ruleset="v20")

    assert "Classic World of Darkness" in (await ask(table.ada, thread, "config show")).text


async def test_config_set_text_only_removes_emoji_from_rolls(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 2])

    change = await ask(table.admin, table.channel, "config set", option="text_only", value="on")
    reply = await ask(table.ada, table.channel, "roll", pool="2")

    assert "is now on (it was off)" in change.text
    assert reply.text.isascii()
    assert "1 success" in reply.text


async def test_config_set_refuses_a_value_it_does_not_know(
    table: Table, start: StartRealBot
) -> None:
    await start()

    reply = await ask(table.admin, table.channel, "config set", option="dice_order", value="up")

    assert reply.ephemeral
    assert "rolled | sorted" in reply.text


async def test_will_timing_before_hides_the_spend_will_button(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4])
    await ask(table.admin, table.channel, "config set", option="will_timing", value="before")

    reply = await ask(table.ada, table.channel, "roll", pool="2")

    assert "Spend Will" not in [button["label"] for button in reply.buttons]


# --- successive attempts and the clock ---------------------------------------------------


async def test_successive_attempts_grow_and_end_with_the_scene(
    table: Table, start: StartRealBot
) -> None:
    await start([2, 3, 4, 2, 3, 5, 8, 8, 8])
    await ask(table.ada, table.channel, "roll", pool="3", label="climb")
    await ask(table.ada, table.channel, "roll", pool="3", label="CLIMB")

    third = await ask(table.ada, table.channel, "roll", pool="3", label="climb")
    refused = await ask(table.ada, table.channel, "scene end")
    ended = await ask(table.storyteller, table.channel, "scene end")
    fresh = await ask(table.ada, table.channel, "roll", pool="3", label="climb")

    assert "= 1 die" in third.text, "−2 after two failures (labels match case-insensitively)"
    assert refused.ephemeral
    assert "Only the Storyteller" in refused.text
    assert "scene ends" in ended.text
    assert "3 successes" in fresh.text
    assert "3 dice" in fresh.text
    assert "successive" not in fresh.text.lower()


async def test_no_pressure_turns_successive_attempts_off(
    table: Table, start: StartRealBot
) -> None:
    await start([2, 3, 4, 8, 8, 8])
    await ask(table.ada, table.channel, "roll", pool="3", label="climb")
    await ask(table.admin, table.channel, "config set", option="pressure", value="off")

    again = await ask(table.ada, table.channel, "roll", pool="3", label="climb")

    assert "3 successes" in again.text


async def test_fistful_successive_action_penalty_resets_with_the_next_turn(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 8, 8, 8, 8, 8, 8, 8])
    await ask(table.admin, table.channel, "config ruleset", ruleset="fistful")
    await ask(table.ada, table.channel, "roll", pool="3")

    second = await ask(table.ada, table.channel, "roll", pool="3")
    await ask(table.storyteller, table.channel, "turn next")
    next_turn = await ask(table.ada, table.channel, "roll", pool="3")

    assert "2 successes" in second.text, "−1 die for the earlier action this turn"
    assert "3 successes" in next_turn.text


async def test_the_storyteller_role_set_by_an_admin_grants_the_clock(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    role = fake.add_role("Storyteller")
    narrator = fake.add_member("Narrator", roles=[role])
    await start()

    confirm = await ask(table.admin, table.channel, "config storyteller", role=role)
    turn = await ask(narrator, table.channel, "turn next")

    assert "Storyteller role" in confirm.text
    assert "Next turn" in turn.text


# --- Will ------------------------------------------------------------------------------------


async def test_will_set_rest_gain_night_and_show(table: Table, start: StartRealBot) -> None:
    await start()

    first = await ask(table.ada, table.channel, "will set", max=5, current=2)
    rested = await ask(table.ada, table.channel, "will rest")
    refused = await ask(table.ada, table.channel, "will gain", member=table.bob, amount=1)
    gained = await ask(table.storyteller, table.channel, "will gain", member=table.ada, amount=5)
    await ask(table.ada, table.channel, "will set", max=5, current=1)
    night = await ask(table.storyteller, table.channel, "night")

    assert "not tracked → Will 2/5" in first.text
    assert "Will 2/5 → Will 3/5" in rested.text
    assert refused.ephemeral
    assert "Will 3/5 → Will 5/5" in gained.text, "never above the maximum"
    assert night.text == f"**Night falls.** 1 Will regained by <@{table.ada.id}>."
    assert "Will 2/5" in (await ask(table.bob, table.channel, "will show", member=table.ada)).text


async def test_will_rest_without_a_pool_says_how_to_track_one(
    table: Table, start: StartRealBot
) -> None:
    await start()

    reply = await ask(table.ada, table.channel, "will rest")

    assert reply.ephemeral
    assert "/will set" in reply.text


# --- /history ---------------------------------------------------------------------------------


async def test_history_lists_rolls_newest_first_and_the_storyteller_voids_one(
    table: Table, start: StartRealBot
) -> None:
    await start([8, 2, 3, 9])
    first = await ask(table.ada, table.channel, "roll", pool="2", label="first")
    await ask(table.bob, table.channel, "roll", pool="2", label="second")

    refused = await ask(table.ada, table.channel, "history", void=1)
    voided = await ask(table.storyteller, table.channel, "history", void=1)
    only_bob = await ask(table.ada, table.channel, "history", member=table.bob)

    assert refused.ephemeral
    assert "Only the Storyteller" in refused.text
    assert voided.ephemeral
    assert "Roll #1 is now void" in voided.text
    lines = voided.text.splitlines()
    assert "#2" in lines[1]
    assert "second" in lines[1]
    assert "#1" in lines[2]
    assert "VOID" in lines[2]
    await first.wait_for(lambda m: "Void" in m.text or "VOID" in m.text)
    assert first.buttons == []
    assert "second" in only_bob.text
    assert "first" not in only_bob.text


async def test_a_secret_roll_is_listed_only_to_its_roller_and_the_storyteller(
    table: Table, start: StartRealBot
) -> None:
    await start([8])
    await ask(table.ada, table.channel, "roll", pool="1", label="hidden", private=True)

    assert "hidden" in (await ask(table.ada, table.channel, "history")).text
    assert "hidden" in (await ask(table.storyteller, table.channel, "history")).text
    assert "hidden" not in (await ask(table.bob, table.channel, "history")).text


# --- /help --------------------------------------------------------------------------------


async def test_help_explains_rolling_in_this_channels_ruleset(
    table: Table, start: StartRealBot
) -> None:
    await start()
    await ask(table.admin, table.channel, "config ruleset", ruleset="v20")

    reply = await ask(table.ada, table.channel, "help")

    assert reply.ephemeral
    assert "difficulty" in reply.text


async def test_config_set_suggests_the_values_of_the_option_chosen(
    table: Table, start: StartRealBot
) -> None:
    await start()

    found = await table.admin.autocomplete(
        table.channel, "config set", focused="value", value="", option="will_timing"
    )

    assert [(choice["name"], choice["value"]) for choice in found] == [
        ("any: declare Will with a roll or spend it after with the button", "any"),
        ("before: declare Will with the roll only (no Spend Will button)", "before"),
        ("default: no value of this channel's own: follow the server's (in a thread, its"
         " channel's)", "default"),
    ]


async def test_plain_messages_show_a_roll_without_embeds_and_its_buttons_still_work(
    table: Table, start: StartRealBot
) -> None:
    await start([3, 4, 9, 10, 2, 8])
    await ask(table.admin, table.channel, "config set", option="plain", value="on")
    await ask(table.ada, table.channel, "will set", max=3)

    roll = await ask(table.ada, table.channel, "roll", pool="2")
    assert roll.embeds == []
    assert roll.text.startswith("**🎲 Failure**")
    await (await table.ada.click(roll, label="Spend Will")).ack()

    await roll.wait_for(lambda m: "3 successes" in m.text)
    assert roll.embeds == []
    assert "Will: **9** **10** 2" in roll.text
