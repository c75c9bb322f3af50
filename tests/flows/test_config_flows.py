"""/config show, ruleset, set and storyteller as flows: permissions decided in the flow."""

from __future__ import annotations

from dataclasses import replace

from bot.flows import config
from bot.flows.context import Ctx
from bot.store import Tx
from engine.models import Ruleset
from engine.records import ChannelOption
from tests.flows.conftest import ALICE, BOB, CHANNEL, COPIES, GUILD, STORYTELLER, Table


def admin(table: Table) -> Ctx:
    return replace(table.ctx(STORYTELLER), manages_guild=True)


async def test_a_channel_admin_sets_the_ruleset_confirmed_old_and_new(table: Table) -> None:
    said = await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "fistful"))
    assert not said.answer.ephemeral
    assert said.answer.message.content == "ruleset for this channel: cofd → fistful"
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
    assert "Manage Guild" in refused.answer.text
    assert done.answer.message.content == "ruleset for this server: cofd → v20"


async def test_a_forged_ruleset_or_scope_is_refused_clearly(table: Table) -> None:
    ruleset = await table.run(config.ruleset(table.deps, admin(table), "d20"))
    scope = await table.run(config.ruleset(table.deps, admin(table), "v20", "galaxy"))
    assert ruleset.answer.text == "ruleset must be one of: cofd, v20, fistful."
    assert scope.answer.text == "scope must be one of: channel, server."


async def test_a_thread_follows_its_channel(table: Table) -> None:
    await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "v20"))
    said = await table.run(config.show(table.deps, table.ctx(ALICE, channel_id=55,
                                                             parent_id=CHANNEL)))
    assert "Classic World of Darkness" in said.answer.text


async def test_set_changes_an_option_and_refuses_a_value_it_does_not_know(table: Table) -> None:
    done = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "dice_order", "sorted")
    )
    refused = await table.run(
        config.set_option(table.deps, table.ctx(STORYTELLER), "dice_order", "up")
    )
    assert done.answer.message.content == "dice_order for this channel: rolled → sorted"
    assert refused.answer.ephemeral
    assert "rolled | sorted" in refused.answer.text


async def test_set_needs_manage_channels(table: Table) -> None:
    said = await table.run(config.set_option(table.deps, table.ctx(BOB), "pressure", "off"))
    assert "Manage Channels" in said.answer.text


async def test_no_pressure_forgets_the_channels_successive_attempts(table: Table) -> None:
    def fail(tx: Tx) -> None:
        tx.attempts.save_failures(GUILD, CHANNEL, ALICE, "climb", old=0, new=2)

    await table.store.write(fail)
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "pressure", "off"))
    failures = await table.store.read(
        lambda tx: tx.attempts.failures(GUILD, CHANNEL, ALICE, "climb")
    )
    assert failures == 0


async def test_text_only_confirmations_have_no_arrows(table: Table) -> None:
    on = await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "text_only", "on"))
    ruleset = await table.run(config.ruleset(table.deps, table.ctx(STORYTELLER), "v20"))
    role = await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    assert on.answer.message.content == "text_only for this channel: off → on", (
        "said in the mode it was asked in"
    )
    assert ruleset.answer.message.content == "ruleset for this channel: was cofd, now v20"
    assert "→" not in role.answer.text
    assert "Storyteller role: was none, now <@&77>" in role.answer.text


async def test_the_storyteller_role_keeps_the_copies_channel_unless_given(table: Table) -> None:
    await table.run(config.storyteller(table.deps, admin(table), 77, COPIES))
    said = await table.run(config.storyteller(table.deps, admin(table), 78))
    assert f"Secret roll copies: <#{COPIES}> → <#{COPIES}>" in said.answer.text
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert (stored.storyteller_role_id, stored.storyteller_channel_id) == (78, COPIES)


async def test_everyone_cannot_be_the_storyteller_and_it_needs_manage_server(
    table: Table,
) -> None:
    everyone = await table.run(config.storyteller(table.deps, admin(table), GUILD))
    player = await table.run(config.storyteller(table.deps, table.ctx(STORYTELLER), 77))
    assert "@everyone cannot be the Storyteller" in everyone.answer.text
    assert "Manage Guild" in player.answer.text
    stored = await table.store.read(lambda tx: tx.settings.guild(GUILD))
    assert stored.storyteller_role_id is None


async def test_a_change_costs_one_trip(table: Table) -> None:
    before = table.store.trips
    await table.run(config.set_option(table.deps, table.ctx(STORYTELLER), "fistful_step", "2"))
    assert table.store.trips - before == 1
    stored = await table.store.read(lambda tx: tx.settings.config(GUILD, CHANNEL))
    assert stored.value(ChannelOption.FISTFUL_STEP) == 2
