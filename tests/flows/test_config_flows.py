"""/config show, ruleset, set and storyteller as flows: permissions decided in the flow."""

from __future__ import annotations

from dataclasses import replace

from bot.flows import config, rolls
from bot.flows.context import Ctx
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption
from tests.flows.conftest import (
    ALICE,
    BOB,
    CHANNEL,
    COPIES,
    GUILD,
    STORYTELLER,
    Recorder,
    Table,
)


def admin(table: Table) -> Ctx:
    return replace(table.ctx(STORYTELLER), manages_guild=True)


async def test_a_channel_admin_sets_the_ruleset_confirmed_old_and_new(table: Table) -> None:
    said = await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "fistful"))
    assert not said.answer.ephemeral
    assert said.answer.message.content == (
        f"Ruleset in <#{CHANNEL}> is now Fist Full of Dice (table procedure)"
        " (it was Chronicles of Darkness (2e))."
    )
    shown = await table.run(config.show(table.deps, table.ctx(ALICE)))
    assert "Fist Full of Dice" in shown.answer.text


async def test_a_player_cannot_change_the_ruleset(table: Table) -> None:
    said = await table.run(config.ruleset(table.deps, table.ctx(ALICE), "v20"))
    assert said.answer.ephemeral
    assert "Manage Channels" in said.answer.text
    config_now = await table.store.read(lambda tx: tx.settings.config(GUILD, CHANNEL))
    assert config_now.ruleset is Ruleset.COFD


async def test_the_server_ruleset_needs_manage_server(table: Table) -> None:
    refused = await table.run(
        config.ruleset(table.deps, table.ctx(STORYTELLER), "v20", "server")
    )
    done = await table.run(config.ruleset(table.deps, admin(table), "v20", "server"))
    assert "Manage Server" in refused.answer.text
    assert done.answer.message.content == (
        "The server's ruleset is now Classic World of Darkness (V20 / Dark Ages)"
        " (it was Chronicles of Darkness (2e)). Every channel follows it."
    )


async def test_a_forged_ruleset_or_scope_is_refused_clearly(table: Table) -> None:
    ruleset = await table.run(config.ruleset(table.deps, admin(table), "d20"))
    scope = await table.run(config.ruleset(table.deps, admin(table), "v20", "galaxy"))
    assert ruleset.answer.text == "ruleset must be one of: cofd, v20, fistful, default."
    assert scope.answer.text == "scope must be one of: channel, server."


async def test_a_thread_follows_its_channel(table: Table) -> None:
    await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "v20"))
    said = await table.run(config.show(table.deps, table.ctx(ALICE, channel_id=55,
                                                             parent_id=CHANNEL)))
    assert "Classic World of Darkness" in said.answer.text


async def test_a_forum_post_follows_the_server_and_keeps_settings_of_its_own(
    table: Table,
) -> None:
    """No command runs in a forum itself, so a forum has no settings: its posts (threads
    whose parent is the forum) follow the server's, and an admin sets a post's own in the
    post (README, Commands). A post's own setting stays its own."""
    forum, post, other = 71, 72, 73
    in_post = replace(table.ctx(STORYTELLER, channel_id=post, parent_id=forum),
                      manages_guild=True)
    await table.run(config.ruleset(table.deps, in_post, "v20", "server"))
    shown = await table.run(config.show(table.deps, table.ctx(ALICE, channel_id=post,
                                                              parent_id=forum)))
    assert "**Ruleset:** Classic World of Darkness" in shown.answer.text
    await table.run(config.ruleset(table.deps, in_post, "fistful"))
    own = await table.run(config.show(table.deps, table.ctx(ALICE, channel_id=post,
                                                            parent_id=forum)))
    follows = await table.run(config.show(table.deps, table.ctx(ALICE, channel_id=other,
                                                                parent_id=forum)))
    assert "**Ruleset:** Fist Full of Dice" in own.answer.text
    assert "**Ruleset:** Classic World of Darkness" in follows.answer.text


async def test_set_changes_an_option_and_refuses_a_value_it_does_not_know(table: Table) -> None:
    done = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "dice_order", "sorted")
    )
    refused = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "dice_order", "up")
    )
    assert done.answer.message.content == (
        f"Dice order in <#{CHANNEL}> is now sorted (it was rolled)."
    )
    assert refused.answer.ephemeral
    assert refused.answer.text == (
        "“up” is not a value for Dice order: use rolled | sorted, or default (follow the"
        " server's).")


async def test_a_refused_value_names_the_setting_as_its_choice_shows_it(table: Table) -> None:
    """The setting is named as /config set's choice and the confirmations name it (in the
    member's language), where the refusal gave its key (``fistful_step``), which the member
    never saw."""
    table.speak("pt-BR")
    refused = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "fistful_step", "9"))
    assert refused.answer.text == (
        "“9” não é um valor para Passo de penalidade do Fist Full of Dice: use 0-5 dados por"
        " ação anterior neste turno ou default (seguir o do servidor).")


async def test_set_needs_manage_channels(table: Table) -> None:
    said = await table.run(config.set_option(table.deps, table.ctx(BOB), "pressure", "off"))
    assert "Manage Channels" in said.answer.text


async def test_no_pressure_forgets_the_channels_successive_attempts(table: Table) -> None:
    def fail(tx: Tx) -> None:
        tx.attempts.save_failures(GUILD, CHANNEL, ALICE, "climb", old=0, new=2)

    await table.store.write(fail)
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "off"))
    failures = await table.store.read(
        lambda tx: tx.attempts.standing(
            GUILD, CHANNEL, ALICE, label="climb", turn=False, will=False
        ).failures
    )
    assert failures == 0


async def _fail_in_thread(table: Table, thread: int, label: str) -> Recorder:
    """Alice fails a roll labelled ``label`` in a thread of the channel."""
    table.faces.add(2, 3, 4)
    return await table.run(rolls.roll(
        table.deps, table.ctx(ALICE, channel_id=thread, parent_id=CHANNEL),
        lambda cfg: rolls.build_request(cfg.ruleset, (Term(label="Wits", value=3),)),
        label=label, private=False,
    ))


async def test_no_pressure_forgets_the_attempts_of_the_threads_that_follow_the_channel(
    table: Table,
) -> None:
    """RULES.md §1: successive attempts reset when the Storyteller marks the channel "no
    pressure"; its threads follow its setting, so their attempts go too, except in a thread
    with a pressure setting of its own (it was never under "no pressure")."""
    following, own = 55, 56
    await table.run(config.set_option(
        table.deps, table.ctx(STORYTELLER, channel_id=own, parent_id=CHANNEL), "pressure", "on"))
    for thread in (following, own):
        await _fail_in_thread(table, thread, "climb")
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "off"))
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "on"))

    def failures(tx: Tx) -> list[int]:
        return [tx.attempts.standing(GUILD, thread, ALICE, label="climb", turn=False,
                                     will=False).failures for thread in (following, own)]

    assert await table.store.read(failures) == [0, 1]
    again = await _fail_in_thread(table, following, "climb")
    assert "trying again" not in again.answer.text


async def test_confirmations_are_sentences_without_symbols(table: Table) -> None:
    on = await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "text_only", "on"))
    again = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "text_only", "on")
    )
    role = await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    assert on.answer.message.content == (
        f"Text-only display (screen readers) in <#{CHANNEL}> is now on (it was off)."
    )
    assert again.answer.message.content == (
        f"Text-only display (screen readers) in <#{CHANNEL}> stays on: it already was."
    )
    assert role.answer.text == (
        "The Storyteller role is now <@&77> (it was no role)."
        " Anyone with Manage Channels is a Storyteller too.\n"
        f"Copies of secret rolls go to <#{COPIES}> (it was no channel)."
    )


async def test_the_storyteller_role_keeps_the_copies_channel_unless_given(table: Table) -> None:
    await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    said = await table.run(config.storyteller(table.deps, admin(table), 78))
    assert said.answer.text == ("The Storyteller role is now <@&78> (it was <@&77>)."
                                " Anyone with Manage Channels is a Storyteller too.")
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (78, COPIES)


async def test_storyteller_confirms_only_what_was_given_and_says_unchanged_where_it_was(
    table: Table,
) -> None:
    """`/config storyteller channel:#x` sets only the copies channel: its answer names
    that change alone, where it also said the role was "now @ST, as before", which read
    as if the role had changed. A value given as it already was is confirmed as
    unchanged, in the server's language (the answer is public; pt-BR, es-ES too)."""
    await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    channel = await table.run(config.storyteller(table.deps, admin(table), None, 5))
    assert channel.answer.text == f"Copies of secret rolls go to <#5> (it was <#{COPIES}>)."
    same = await table.run(config.storyteller(table.deps, admin(table), 77, 5))
    assert same.answer.text == (
        "The Storyteller role is unchanged (<@&77>). Anyone with Manage Channels is a"
        " Storyteller too.\nThe channel for copies of secret rolls is unchanged (<#5>).")
    table.speak(None, "pt-BR")
    said = await table.run(config.storyteller(table.deps, admin(table), 77))
    assert said.answer.text.startswith("O cargo de Narrador não mudou (<@&77>).")
    table.speak(None, "es-ES")
    said = await table.run(config.storyteller(table.deps, admin(table), None, 5))
    assert said.answer.text == "El canal de las copias de tiradas secretas no ha cambiado (<#5>)."


async def test_clear_takes_the_copies_channel_or_the_role_away_and_keeps_the_rest(
    table: Table,
) -> None:
    """A copies channel deleted since warns the roller of every secret roll: an admin can
    turn copies off (and take the role away) without naming what stays."""
    await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    copies = await table.run(config.storyteller(table.deps, admin(table), None,
                                                clear="copies"))
    assert copies.answer.text == f"Copies of secret rolls go to no channel (it was <#{COPIES}>)."
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (77, None)
    await table.run(config.storyteller(table.deps, admin(table), None, COPIES))
    role = await table.run(config.storyteller(table.deps, admin(table), None, clear="role"))
    assert "The Storyteller role is now no role (it was <@&77>)." in role.answer.text
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (None, COPIES)
    await table.run(config.storyteller(table.deps, admin(table), 77, None))
    await table.run(config.storyteller(table.deps, admin(table), None, clear="both"))
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (None, None)


async def test_storyteller_with_nothing_or_a_contradiction_is_refused(table: Table) -> None:
    await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    nothing = await table.run(config.storyteller(table.deps, admin(table), None))
    both = await table.run(config.storyteller(table.deps, admin(table), 78, clear="both"))
    channel = await table.run(config.storyteller(table.deps, admin(table), None, 5,
                                                 clear="copies"))
    forged = await table.run(config.storyteller(table.deps, admin(table), None,
                                                clear="everything"))
    assert nothing.answer.text.startswith("Say what to change: role:")
    assert both.answer.text == "role: and clear: contradict each other: give only one of them."
    assert channel.answer.text == (
        "channel: and clear: contradict each other: give only one of them.")
    assert forged.answer.text == "clear must be one of: role, copies, both."
    assert all(each.answer.ephemeral for each in (nothing, both, channel, forged))
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (77, COPIES)


async def test_a_copies_channel_the_bot_may_not_post_in_is_refused_and_nothing_changes(
    table: Table,
) -> None:
    """`/config storyteller channel:` checks that the bot may post a copy there (View
    Channel, Send Messages, Embed Links): a channel it may not is refused now, naming what
    it lacks and nothing changed, where the admin learned of it only when a roller was
    told at a secret roll that the copy failed. A channel it may post in is kept."""
    await table.run(config.storyteller(table.deps, admin(table), 77, None))
    hidden = await table.run(config.storyteller(table.deps, admin(table), None, COPIES,
                                                bot_holds=frozenset()))
    no_embeds = await table.run(config.storyteller(
        table.deps, admin(table), 78, COPIES,
        bot_holds=frozenset({"view_channel", "send_messages"})))
    assert hidden.answer.ephemeral and no_embeds.answer.ephemeral
    assert hidden.answer.text == (
        f"I cannot post the copies of secret rolls in <#{COPIES}>: I lack the View Channel,"
        " Send Messages, Embed Links permissions there. Grant them to me in that channel's"
        " permissions, or pick another channel; nothing was changed.")
    assert "I lack the Embed Links permission there. Grant it to me" in no_embeds.answer.text
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (77, None)
    fine = await table.run(config.storyteller(
        table.deps, admin(table), None, COPIES,
        bot_holds=frozenset({"view_channel", "send_messages", "embed_links"})))
    assert not fine.answer.ephemeral
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert stored.storyteller_channel_id == COPIES


async def test_everyone_cannot_be_the_storyteller_and_it_needs_manage_server(
    table: Table,
) -> None:
    everyone = await table.run(config.storyteller(table.deps, admin(table), GUILD))
    player = await table.run(config.storyteller(table.deps, table.ctx(STORYTELLER), 77))
    assert "@everyone cannot be the Storyteller" in everyone.answer.text
    assert "Manage Server" in player.answer.text
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert stored.storyteller_role_id is None


async def test_a_change_costs_one_trip(table: Table) -> None:
    before = table.store.trips
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "fistful_step", "2"))
    assert table.store.trips - before == 1
    stored = await table.store.read(lambda tx: tx.settings.config(GUILD, CHANNEL))
    assert stored.value(ChannelOption.FISTFUL_STEP) == 2


async def test_a_server_wide_ruleset_names_the_channels_that_keep_their_own(table: Table) -> None:
    await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "fistful"))
    said = await table.run(config.ruleset(table.deps, admin(table), "v20", "server"))
    assert said.answer.text.endswith(f" <#{CHANNEL}> keeps its own ruleset.")


def test_set_suggests_the_values_of_the_chosen_option_with_their_meaning() -> None:
    assert config.value_suggestions("dice_order", "") == [
        ("rolled: dice in the order they were rolled", "rolled"),
        ("sorted: dice sorted from highest to lowest", "sorted"),
        ("default: no value of this channel's own: follow the server's (in a thread, its"
         " channel's)", "default"),
    ]
    assert [value for _, value in config.value_suggestions("fistful_step", "")] == [
        "0", "1", "2", "3", "4", "5", "default",
    ]
    assert config.value_suggestions("pressure", "off") == [
        ("off: no pressure: no successive-attempt penalties", "off"),
    ]
    assert config.value_suggestions("not an option", "") == []


def test_value_suggestions_match_what_was_typed_whatever_its_case() -> None:
    """The values with capitals are suggested as they are written, as /config show and a
    refusal spell them (``pt-BR``, ``Dexterity + Composure``), where typing one in full
    emptied the list; those starting with what was typed come first."""
    assert config.value_suggestions("language", "pt-BR") == [
        ("pt-BR: Português (Brasil)", "pt-BR"),
    ]
    assert config.value_suggestions("language", "ES-es") == [("es-ES: Español", "es-ES")]
    assert [value for _, value in config.value_suggestions("initiative_pool", "Dex")] == [
        "Dexterity + Composure", "Dexterity + Wits",
    ]
    assert [value for _, value in config.value_suggestions("initiative_pool", "wits")] == [
        "Wits + Composure", "Dexterity + Wits",
    ]


async def test_default_clears_the_channel_s_own_ruleset_so_it_follows_the_server(
    table: Table,
) -> None:
    """COMMANDS.md: a channel without its own ruleset uses the server's. ``default`` takes
    the channel's own away again; the confirmation says what it follows and what it is."""
    await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "v20"))
    server = await table.run(config.ruleset(table.deps, admin(table), "fistful", "server"))
    assert f"<#{CHANNEL}> keeps its own ruleset" in server.answer.text
    said = await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "default"))
    assert said.answer.message.content == (
        f"Ruleset in <#{CHANNEL}> now follows the server's value (in a thread, its channel's):"
        " Fist Full of Dice (table procedure) (it was Classic World of Darkness"
        " (V20 / Dark Ages))."
    )
    now = await table.store.read(lambda tx: tx.settings.config(GUILD, CHANNEL))
    assert now.ruleset is Ruleset.FISTFUL
    again = await table.run(config.ruleset(table.deps, admin(table), "v20", "server"))
    assert "Every channel follows it." in again.answer.text
    cleared = await table.run(config.ruleset(table.deps, admin(table), "default", "server"))
    assert cleared.answer.message.content.startswith(
        "The server's ruleset is now Chronicles of Darkness (2e)")
    player = await table.run(config.ruleset(table.deps, table.ctx(ALICE), "default"))
    assert "Manage Channels" in player.answer.text


async def test_default_clears_an_option_of_a_thread_so_it_follows_its_channel(
    table: Table,
) -> None:
    thread = table.ctx(STORYTELLER, channel_id=55, parent_id=CHANNEL)
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "dice_order",
                                      "sorted"))
    await table.run(config.set_option(table.deps, thread, "dice_order", "rolled"))
    said = await table.run(config.set_option(table.deps, thread, "dice_order", " Default "))
    assert said.answer.message.content == (
        "Dice order in <#55> now follows the server's value (in a thread, its channel's):"
        " sorted"
        " (it was rolled)."
    )
    now = await table.store.read(lambda tx: tx.settings.config(GUILD, 55, CHANNEL))
    assert now.dice_order.value == "sorted"
    suggested = config.value_suggestions("dice_order", "def")
    assert suggested[0][1] == "default"


async def test_default_pressure_that_turns_pressure_off_forgets_the_attempts(
    table: Table,
) -> None:
    thread = table.ctx(STORYTELLER, channel_id=55, parent_id=CHANNEL)
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "off"))
    await table.run(config.set_option(table.deps, thread, "pressure", "on"))
    await table.store.write(lambda tx: tx.attempts.save_failures(
        GUILD, 55, ALICE, "climb", old=0, new=1, parent_id=CHANNEL))
    await table.run(config.set_option(table.deps, thread, "pressure", "default"))
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, 55, ALICE, label="climb", turn=False, will=False))
    assert standing.failures == 0, "the thread follows the channel's no pressure now"


async def test_default_clears_the_server_s_language(table: Table) -> None:
    table.speak(None, "pt-BR")
    await table.run(config.set_option(table.deps, admin(table), "language", "es-ES", "server"))
    said = await table.run(config.set_option(table.deps, admin(table), "language", "default",
                                              "server"))
    assert not said.answer.ephemeral
    assert said.answer.text.startswith(  # said in the server's language on Discord
        "O idioma do servidor agora é o idioma do servidor no Discord (era Español).")
    guild = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert guild.language is None


async def test_a_thread_streak_from_before_threads_kept_their_channel_gets_it_when_it_grows(
    table: Table,
) -> None:
    """A streak of failures in a thread counted before migration 0010 has no channel; its
    next failure gives it its channel, so the channel's "no pressure" forgets it then."""
    thread = 55
    await table.store.write(lambda tx: tx.attempts.save_failures(
        GUILD, thread, ALICE, "lock", old=0, new=2))  # as counted before: no parent
    await _fail_in_thread(table, thread, "lock")
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "off"))
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, thread, ALICE, label="lock", turn=False, will=False))
    assert standing.failures == 0
