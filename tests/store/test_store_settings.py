"""Settings: channel → parent channel → server → default, and "old → new" on every change."""

from __future__ import annotations

import asyncio

import pytest
from pydantic import ValidationError

from bot.store import Store
from engine.models import Ruleset
from engine.records import Change, ChannelConfig, ChannelOption, DiceOrder, OptionValue, WillTiming
from tests.store.conftest import CHANNEL, GUILD, OTHER_CHANNEL

THREAD = 4_000_000_000_000_000_004


async def _config(
    store: Store, channel_id: int = CHANNEL, parent_id: int | None = None
) -> ChannelConfig:
    return await store.read(lambda tx: tx.settings.config(GUILD, channel_id, parent_id))


async def _set_option(
    store: Store,
    channel_id: int,
    option: ChannelOption,
    value: OptionValue | None,
    parent_id: int | None = None,
) -> Change[OptionValue]:
    """Set an option; the settings in force the setter answers (worked out from what it
    read before its write) are those read afresh after it."""
    change, after = await store.write(
        lambda tx: tx.settings.set_channel_option(GUILD, channel_id, option, value, parent_id)
    )
    assert after == await _config(store, channel_id, parent_id)
    return change


async def _set_ruleset(store: Store, ruleset: Ruleset | None) -> Change[Ruleset]:
    """Set the server's ruleset; what the setter answers, checked against fresh reads."""
    change, keeping, after = await store.write(
        lambda tx: tx.settings.set_guild_ruleset(GUILD, ruleset, where=(THREAD, CHANNEL))
    )
    assert after == await _config(store, THREAD, CHANNEL)
    own = [channel for channel in (CHANNEL, OTHER_CHANNEL, THREAD)
           if (await _config(store, channel)).ruleset is not (ruleset or Ruleset.COFD)]
    assert set(own) <= set(keeping)
    return change


async def test_a_channel_nobody_configured_uses_the_defaults(store: Store) -> None:
    config = await _config(store)

    assert config == ChannelConfig(guild_id=GUILD, channel_id=CHANNEL)
    assert config.ruleset is Ruleset.COFD
    assert config.will_timing is WillTiming.ANY
    assert config.pressure is True
    assert config.fistful_step == 1
    assert config.text_only is False
    assert config.dice_order is DiceOrder.ROLLED


async def test_a_channel_without_its_own_ruleset_uses_the_servers(store: Store) -> None:
    await _set_ruleset(store, Ruleset.V20)

    config = await _config(store)

    assert config.ruleset is Ruleset.V20


async def test_a_channel_ruleset_overrides_the_servers_in_that_channel_only(
    store: Store,
) -> None:
    await _set_ruleset(store, Ruleset.V20)
    await _set_option(store, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)

    here = await _config(store)
    elsewhere = await _config(store, OTHER_CHANNEL)

    assert here.ruleset is Ruleset.FISTFUL
    assert elsewhere.ruleset is Ruleset.V20


async def test_a_thread_follows_its_channel_unless_it_has_its_own_setting(
    store: Store,
) -> None:
    await _set_option(store, CHANNEL, ChannelOption.RULESET, Ruleset.V20)
    await _set_option(store, CHANNEL, ChannelOption.TEXT_ONLY, True)
    await _set_option(store, THREAD, ChannelOption.TEXT_ONLY, False, parent_id=CHANNEL)

    thread = await _config(store, THREAD, parent_id=CHANNEL)

    assert thread.ruleset is Ruleset.V20
    assert thread.text_only is False


async def test_setting_a_channel_option_answers_old_and_new_values_in_force(
    store: Store,
) -> None:
    await _set_ruleset(store, Ruleset.V20)

    first = await _set_option(store, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL)
    cleared = await _set_option(store, CHANNEL, ChannelOption.RULESET, None)

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
        (ChannelOption.INITIATIVE_POOL, "Wits + Composure"),
    ],
)
async def test_every_channel_option_is_stored_and_confirmed(
    store: Store, option: ChannelOption, value: OptionValue
) -> None:
    default = ChannelConfig(guild_id=GUILD, channel_id=CHANNEL).value(option)

    change = await _set_option(store, CHANNEL, option, value)
    config = await _config(store)

    assert (change.old, change.new) == (default, value)
    assert config.value(option) == value


async def test_changing_one_option_keeps_the_others(store: Store) -> None:
    await _set_option(store, CHANNEL, ChannelOption.FISTFUL_STEP, 2)
    await _set_option(store, CHANNEL, ChannelOption.DICE_ORDER, DiceOrder.SORTED)

    config = await _config(store)

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
        (ChannelOption.INITIATIVE_POOL, ""),
        (ChannelOption.INITIATIVE_POOL, 3),
        (ChannelOption.INITIATIVE_POOL, "x" * 101),
    ],
)
async def test_a_value_that_does_not_fit_the_option_is_refused_and_nothing_changes(
    store: Store, option: ChannelOption, value: OptionValue
) -> None:
    before = await _config(store)

    with pytest.raises(ValidationError):
        await _set_option(store, CHANNEL, option, value)

    assert await _config(store) == before


async def test_setting_the_server_ruleset_answers_old_and_new(store: Store) -> None:
    first = await _set_ruleset(store, Ruleset.FISTFUL)
    cleared = await _set_ruleset(store, None)

    assert (first.old, first.new) == (Ruleset.COFD, Ruleset.FISTFUL)
    assert (cleared.old, cleared.new) == (Ruleset.FISTFUL, Ruleset.COFD)


async def test_the_storyteller_role_and_channel_are_in_every_channels_config(
    store: Store,
) -> None:
    await _set_ruleset(store, Ruleset.V20)

    change, after = await store.write(lambda tx: tx.settings.set_storyteller(
        GUILD, 77, 88, where=(OTHER_CHANNEL, None)))
    config = await _config(store, OTHER_CHANNEL)

    assert change.old.storyteller_role_id is None
    assert (change.new.storyteller_role_id, change.new.storyteller_channel_id) == (77, 88)
    assert change.new.ruleset is Ruleset.V20  # setting the Storyteller keeps the ruleset
    assert (config.storyteller_role_id, config.storyteller_channel_id) == (77, 88)
    assert after == config
    assert change.new == await store.read(lambda tx: tx.settings.guild(GUILD))

    kept, _ = await store.write(lambda tx: tx.settings.set_storyteller(
        GUILD, 99, None, keep_channel=True))
    assert (kept.old.storyteller_role_id, kept.new.storyteller_role_id) == (77, 99)
    assert kept.new.storyteller_channel_id == 88  # kept
    assert kept.new == await store.read(lambda tx: tx.settings.guild(GUILD))


async def test_concurrent_changes_leave_one_consistent_value(store: Store) -> None:
    values = list(range(10, 60))

    answers = await asyncio.gather(*(
        store.write(lambda tx, value=value: tx.settings.set_channel_option(
            GUILD, CHANNEL, ChannelOption.FISTFUL_STEP, value))
        for value in values
    ))
    changes = [change for change, _ in answers]
    assert all(after.fistful_step == change.new for change, after in answers)

    # Serialised changes form one chain: each old value is the previous new one.
    by_old = {change.old: change for change in changes}
    assert len(by_old) == len(values)
    current: OptionValue = 1
    for _ in values:
        current = by_old[current].new
    config = await _config(store)
    assert config.fistful_step == current
