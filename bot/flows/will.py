"""`/will show|set|rest|gain`: each member's Will pool, tracked per server, and `cofd` Beats.

What a change does is the engine's (:mod:`engine.will`); the store keeps the pool the
engine decided, only if it is still the one the engine was given. Trips: show 1, a
change 2 (read, write).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError, say
from bot.flows.retry import until_written
from bot.render.characters import will_from_sheet
from bot.render.lang import _, speaking
from bot.render.messages import (
    NOT_STORYTELLER,
    WILL_NOT_TRACKED,
    out_of_range,
    will_above_maximum,
    will_not_tracked_for,
)
from bot.render.rolls import played_by
from bot.render.state import will_changed, will_shown
from bot.store import Conflict, Tx
from bot.store.settings import SettingsRepository
from bot.store.will import WillRepository
from engine import will
from engine.records import ChannelConfig, CharacterRecord, WillPool


@dataclass(frozen=True, slots=True)
class Member:
    """Whose pool: the member named in the command (or the one acting)."""

    user_id: int
    name: str


def _check(name: str, value: int | None, low: int, high: int) -> None:
    """Refuse a number outside its bounds (Discord's client checks them; a forged
    interaction need not)."""
    if value is not None and not low <= value <= high:
        raise UserError(out_of_range(name, low, high, length=False))


async def show(deps: Deps, ctx: Ctx, member: Member | None = None) -> Reply:
    """A member's Will pool (default: the one asking) and their Beats."""
    whose = member or Member(ctx.user_id, ctx.user_name)

    def read(tx: Tx) -> tuple[ChannelConfig, WillPool | None, int, str]:
        (config, active), (pool, beats) = _standing(tx, ctx, whose.user_id)
        if active is not None:  # RULES.md §6: the character's own pool and Beats
            return (config, active.will_pool(), active.sheet.beats,
                    played_by(whose.name, active.name))
        return config, pool, beats, whose.name

    config, pool, beats, name = await deps.store.read(read)
    return say(will_shown(name, pool, beats, text_only=config.text_only))


def _standing(tx: Tx, ctx: Ctx, user_id: int) -> tuple[
    tuple[ChannelConfig, CharacterRecord | None], tuple[WillPool | None, int]
]:
    """In one statement: the settings with the member's active character here (its Will
    is theirs while they play it), and the member's own pool and Beats."""
    return tx.queries.both(
        SettingsRepository.config_query(ctx.guild_id, ctx.channel_id, ctx.parent_id, user_id),
        WillRepository.member_query(ctx.guild_id, user_id),
    )


def _pool(
    tx: Tx, ctx: Ctx, user_id: int
) -> tuple[ChannelConfig, WillPool | None, str | None]:
    """The settings, the pool a change acts on (the active character's, else the member's
    own) and the character's name (None: the member's own)."""
    (config, active), (pool, _) = _standing(tx, ctx, user_id)
    if active is not None:
        return config, active.will_pool(), active.name
    return config, pool, None


Decide = Callable[[ChannelConfig, WillPool | None], WillPool]
"""The pool after the change, from the channel's settings and the pool now (or a refusal)."""


async def _change(deps: Deps, ctx: Ctx, user_id: int, decide: Decide) -> tuple[
    ChannelConfig, WillPool | None, WillPool, str | None
]:
    """Read the settings and the pool, let ``decide`` (the engine) say the new pool, and
    store it if the pool did not move meanwhile (else decide again). Also the name of the
    character whose pool it is (None: the member's own)."""

    async def attempt() -> tuple[ChannelConfig, WillPool | None, WillPool, str | None]:
        config, old, character = await deps.store.read(lambda tx: _pool(tx, ctx, user_id))
        new = decide(config, old)

        def write(tx: Tx) -> None:
            if not tx.will.save(old, new):
                raise Conflict(None)

        await deps.store.write(write)
        return config, old, new, character

    return await until_written(attempt)


async def set_pool(deps: Deps, ctx: Ctx, maximum: int, current: int | None = None) -> Reply:
    """Track the member's own pool, or change it."""
    _check("max", maximum, 0, will.MAX_WILL)
    _check("current", current, 0, will.MAX_WILL)
    if current is not None and current > maximum:
        raise UserError(will_above_maximum(current, maximum))

    def decide(_config: ChannelConfig, old: WillPool | None) -> WillPool:
        if old is not None and old.character_id is not None:
            if maximum != old.maximum:
                raise UserError(will_from_sheet(old.maximum))
            return old.model_copy(update={"current": old.current if current is None else current})
        return will.set_pool(old, ctx.guild_id, ctx.user_id, maximum, current)

    config, old, new, character = await _change(deps, ctx, ctx.user_id, decide)
    # Said in the channel, as /will gain and /night are: the table tracks Will together.
    return _said_to_table(ctx, config, played_by(ctx.user_name, character), old, new)


async def rest(deps: Deps, ctx: Ctx) -> Reply:
    """A night of good rest: the member regains 1 Will, up to the maximum."""

    def decide(_config: ChannelConfig, old: WillPool | None) -> WillPool:
        if old is None:
            raise UserError(_(WILL_NOT_TRACKED))
        return will.regained(old, 1)

    config, old, new, character = await _change(deps, ctx, ctx.user_id, decide)
    return _said_to_table(ctx, config, played_by(ctx.user_name, character), old, new)


async def gain(deps: Deps, ctx: Ctx, member: Member, amount: int) -> Reply:
    """Storyteller: a member regains Will, up to the maximum (said in the channel)."""
    _check("amount", amount, 1, will.MAX_WILL)

    def decide(config: ChannelConfig, old: WillPool | None) -> WillPool:
        if not ctx.storyteller(config):
            raise UserError(_(NOT_STORYTELLER))
        if old is None:
            raise UserError(will_not_tracked_for(member.name))
        return will.regained(old, amount)

    config, old, new, character = await _change(deps, ctx, member.user_id, decide)
    return _said_to_table(ctx, config, played_by(member.name, character), old, new)


def _said_to_table(
    ctx: Ctx, config: ChannelConfig, name: str, old: WillPool | None, new: WillPool
) -> Reply:
    """A change of Will, said in the channel in the table's language."""
    with speaking(ctx.public_voice(config)):
        return say(will_changed(name, old, new, text_only=config.text_only), ephemeral=False)
