"""Settings: channel → parent channel → server → default, and "old → new" on every change."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from bot.store import (
    ChannelConfig,
    ChannelOption,
    DiceOrder,
    OptionValue,
    Store,
    WillTiming,
)
from engine.models import Ruleset
from tests.store.conftest import CHANNEL, GUILD, OTHER_CHANNEL

THREAD = 4_000_000_000_000_000_004


async def test_a_channel_nobody_configured_uses_the_defaults(store: Store) -> None:
    config = await store.get_channel_config(GUILD, CHANNEL)

    assert config == ChannelConfig(guild_id=GUILD, channel_id=CHANNEL)
    assert config.ruleset is Ruleset.COFD
    assert config.will_timing is WillTiming.ANY
    assert config.pressure is True
    assert config.fistful_step == 1
    assert config.text_only is False
    assert config.dice_order is DiceOrder.ROLLED


async def test_a_channel_without_its_own_ruleset_uses_the_servers(store: Store) -> None:
    await store.set_guild_ruleset(GUILD, Ruleset.V20)

    config = await store.get_channel_config(GUILD, CHANNEL)

    assert config.ruleset is Ruleset.V20


async def test_a_channel_ruleset_overrides_the_servers_in_that_channel_only(
    store: Store,
) -> None:
    await store.set_guild_ruleset(GUILD, Ruleset.V20)
    await store.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)

    here = await store.get_channel_config(GUILD, CHANNEL)
    elsewhere = await store.get_channel_config(GUILD, OTHER_CHANNEL)

    assert here.ruleset is Ruleset.FISTFUL
    assert elsewhere.ruleset is Ruleset.V20


async def test_a_thread_follows_its_channel_unless_it_has_its_own_setting(
    store: Store,
) -> None:
    await store.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)
    await store.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)
    await store.set_channel_option(GUILD, THREAD, ChannelOption.TEXT_ONLY, False, parent_id=CHANNEL)

    thread = await store.get_channel_config(GUILD, THREAD, parent_id=CHANNEL)

    assert thread.ruleset is Ruleset.V20
    assert thread.text_only is False


async def test_setting_a_channel_option_answers_old_and_new_values_in_force(
    store: Store,
) -> None:
    await store.set_guild_ruleset(GUILD, Ruleset.V20)

    first = await store.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)
    cleared = await store.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, None)

    assert (first.old, first.new) == (Ruleset.V20, Ruleset.FISTFUL)
    assert (cleared.old, cleared.new) == (Ruleset.FISTFUL, Ruleset.V20)


@pytest.mark.parametrize(
    ("option", "value"),
    [
        (ChannelOption.WILL_TIMING, WillTiming.BEFORE),
        (ChannelOption.PRESSURE, False),
        (ChannelOption.FISTFUL_STEP, 2),
        (ChannelOption.FISTFUL_STEP, 0),
        (ChannelOption.TEXT_ONLY, True),
        (ChannelOption.DICE_ORDER, DiceOrder.SORTED),
    ],
)
async def test_every_channel_option_is_stored_and_confirmed(
    store: Store, option: ChannelOption, value: OptionValue
) -> None:
    default = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL).value(option)

    change = await store.set_channel_option(GUILD, CHANNEL, option, value)
    config = await store.get_channel_config(GUILD, CHANNEL)

    assert (change.old, change.new) == (default, value)
    assert config.value(option) == value


async def test_changing_one_option_keeps_the_others(store: Store) -> None:
    await store.set_channel_option(GUILD, CHANNEL, ChannelOption.FISTFUL_STEP, 2)
    await store.set_channel_option(GUILD, CHANNEL, ChannelOption.DICE_ORDER, DiceOrder.SORTED)

    config = await store.get_channel_config(GUILD, CHANNEL)

    assert config.fistful_step == 2
    assert config.dice_order is DiceOrder.SORTED


@pytest.mark.parametrize(
    ("option", "value"),
    [
        (ChannelOption.FISTFUL_STEP, -1),
        (ChannelOption.FISTFUL_STEP, True),
        (ChannelOption.PRESSURE, 1),
        (ChannelOption.RULESET, "v20"),
        (ChannelOption.DICE_ORDER, WillTiming.ANY),
    ],
)
async def test_a_value_that_does_not_fit_the_option_is_refused_and_nothing_changes(
    store: Store, option: ChannelOption, value: OptionValue
) -> None:
    before = await store.get_channel_config(GUILD, CHANNEL)

    with pytest.raises(ValidationError):
        await store.set_channel_option(GUILD, CHANNEL, option, value)

    assert await store.get_channel_config(GUILD, CHANNEL) == before


async def test_setting_the_server_ruleset_answers_old_and_new(store: Store) -> None:
    first = await store.set_guild_ruleset(GUILD, Ruleset.FISTFUL)
    cleared = await store.set_guild_ruleset(GUILD, None)

    assert (first.old, first.new) == (Ruleset.COFD, Ruleset.FISTFUL)
    assert (cleared.old, cleared.new) == (Ruleset.FISTFUL, Ruleset.COFD)


async def test_the_storyteller_role_and_channel_are_in_every_channels_config(
    store: Store,
) -> None:
    await store.set_guild_ruleset(GUILD, Ruleset.V20)

    change = await store.set_storyteller(GUILD, role_id=77, channel_id=88)
    config = await store.get_channel_config(GUILD, OTHER_CHANNEL)

    assert change.old.storyteller_role_id is None
    assert (change.new.storyteller_role_id, change.new.storyteller_channel_id) == (77, 88)
    assert change.new.ruleset is Ruleset.V20  # setting the Storyteller keeps the ruleset
    assert (config.storyteller_role_id, config.storyteller_channel_id) == (77, 88)


async def test_concurrent_changes_leave_one_consistent_value(store: Store) -> None:
    values = list(range(10, 60))

    changes = await asyncio.gather(
        *(
            store.set_channel_option(GUILD, CHANNEL, ChannelOption.FISTFUL_STEP, value)
            for value in values
        )
    )

    # Serialised changes form one chain: each old value is the previous new one.
    by_old = {change.old: change for change in changes}
    assert len(by_old) == len(values)
    current: OptionValue = 1
    for _ in values:
        current = by_old[current].new
    config = await store.get_channel_config(GUILD, CHANNEL)
    assert config.fistful_step == current
