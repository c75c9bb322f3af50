"""Making a roll in a channel: table-state penalties, the engine, the store, the message.

Shared by `/roll` and the Try again button. The roll, the Will it declares,
the successive-attempt and turn counters, and the closing of the roller's
earlier rolls are written in one transaction before the message is sent: a
roll the bot answered is never lost, and a refused roll changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import sqlite3
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from typing import TYPE_CHECKING, Any

import discord

from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError
from bot.render.buttons import (
    COPY_FAILED,
    REFUSALS,
    beat_taken,
    cannot_roll,
    cannot_spend_will,
    no_beat,
    no_will,
    will_spent,
)
from bot.render.rolls import RollStatus, roll_embed, secret_notice
from bot.store import (
    ActionRecord,
    ChannelConfig,
    DiceOrder,
    Refusal,
    RollRecord,
    Tx,
    WillState,
    WillTiming,
)
from bot.views.roll_buttons import roll_view
from engine.models import RollRequest, RollResult, Ruleset
from engine.roll import RuleError, roll, spend_will, take_beat, will_refusal
from engine.table import actions, attempts

if TYPE_CHECKING:
    from bot.client import StorytellerBot

log = logging.getLogger(__name__)

#: Background message edits, kept referenced until they finish.
_pending: set[asyncio.Task[None]] = set()


def will_state_for(result: RollResult, config: ChannelConfig) -> WillState:
    """Whether the roll's message offers Spend Will."""
    if result.request.will:
        return WillState.DECLARED
    if config.will_timing is WillTiming.BEFORE or will_refusal(result) is not None:
        return WillState.NONE
    return WillState.OFFERED


async def with_table_state(
    tx: Tx, config: ChannelConfig, user_id: int, label: str | None, request: RollRequest
) -> RollRequest:
    """A member's request with the penalties the channel's state gives it: successive
    attempts at a labelled action, and the `fistful` Successive Action Penalty."""
    failures = 0
    if label and config.pressure:
        failures = await tx.attempts.failures(config.guild_id, config.channel_id, user_id, label)
    # Always replaced: a retry of a roll made under pressure loses its old penalty too.
    request = attempts.with_penalty(request, failures)
    if request.ruleset is Ruleset.FISTFUL:
        taken = await tx.attempts.turn_actions(config.guild_id, config.channel_id, user_id)
        request = actions.with_penalty(request, taken, config.fistful_step)
    return request


async def count_action(
    tx: Tx, config: ChannelConfig, user_id: int, label: str | None, result: RollResult
) -> None:
    """After a member's roll: its successive attempts (a labelled action, under pressure)
    and, in `fistful`, one more action this turn."""
    if label and config.pressure:
        await tx.attempts.record(config.guild_id, config.channel_id, user_id, label, result)
    if result.request.ruleset is Ruleset.FISTFUL:
        await tx.attempts.record_turn_action(config.guild_id, config.channel_id, user_id)


async def declare_will(tx: Tx, guild_id: int, user_id: int) -> None:
    """Debit the Will a roll declares up front; refuse when the tracked pool is empty."""
    pool = await tx.will.get(guild_id, user_id)
    if pool is not None and await tx.will.debit(guild_id, user_id) is None:
        raise UserError(no_will(pool))


async def post_roll(
    interaction: discord.Interaction,
    request: RollRequest,
    *,
    label: str | None,
    private: bool,
    retry_of: int | None = None,
    config: ChannelConfig | None = None,
) -> RollRecord:
    """Roll ``request`` for the member who acted, store it and answer with its message.

    ``config``: the channel's settings when the caller already read them.
    """
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    user_id = interaction.user.id
    if config is None:
        config = await channel_config(interaction)
    async with bot.store.transaction() as tx:
        if retry_of is not None:
            claimed = await tx.rolls.claim_retry(retry_of, user_id)
            if not isinstance(claimed, RollRecord):
                raise UserError(REFUSALS[claimed])
        request = await with_table_state(tx, config, user_id, label, request)
        if request.will:
            # Before the dice: an empty pool rolls nothing; a refused roll rolls the debit back.
            await declare_will(tx, guild_id, user_id)
        result = roll(request, bot.faces)
        if result.refused:
            raise UserError(cannot_roll(result.message or ""))
        closed = await tx.rolls.close(guild_id, channel_id, user_id)
        roll_id = await tx.rolls.insert(
            guild_id=guild_id,
            channel_id=channel_id,
            roller_id=user_id,
            roller_name=interaction.user.display_name,
            result=result,
            will_state=will_state_for(result, config),
            label=label,
            private=private,
        )
        await count_action(tx, config, user_id, label, result)
        record = await tx.rolls.get(roll_id)
    if record is None:
        msg = f"roll {roll_id} vanished inside its own transaction"
        raise RuntimeError(msg)
    await _answer(interaction, record, config)
    refresh_messages(bot, closed, config)
    return record


def embed_for(record: RollRecord, config: ChannelConfig) -> discord.Embed:
    """The roll's embed, in its state now, as the channel's display settings want it."""
    if record.void:
        status = RollStatus.VOID
    elif record.closed:
        status = RollStatus.CLOSED
    else:
        status = RollStatus.OPEN
    return roll_embed(
        record.result,
        roller=record.roller_name,
        label=record.label,
        roll_id=record.id,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        status=status,
        secret=record.private,
    )


async def _answer(
    interaction: discord.Interaction, record: RollRecord, config: ChannelConfig
) -> None:
    """Send the roll: in the channel, or secretly with a public notice and a Storyteller copy."""
    bot = bot_of(interaction)
    embed = embed_for(record, config)
    view = roll_view(record)
    sent = await interaction.response.send_message(
        embed=embed, view=view or discord.utils.MISSING, ephemeral=record.private
    )
    message_id = sent.message_id
    copy_channel_id: int | None = None
    copy_message_id: int | None = None
    if record.private:
        await interaction.followup.send(
            secret_notice(roller=record.roller_name, label=record.label)
        )
        if config.storyteller_channel_id is not None:
            copy_channel_id = config.storyteller_channel_id
            try:
                copy = await bot.get_partial_messageable(copy_channel_id).send(embed=embed)
            except discord.HTTPException as error:
                log.warning("No copy of secret roll %s: %s", record.id, error)
                copy_channel_id = None
                await interaction.followup.send(COPY_FAILED, ephemeral=True)
            else:
                copy_message_id = copy.id
    await remember_message(
        bot, record.id, message_id,
        copy_channel_id=copy_channel_id, copy_message_id=copy_message_id,
    )


async def store_action_roll(
    tx: Tx,
    record: ActionRecord,
    user: discord.User | discord.Member,
    result: RollResult,
    will_state: WillState = WillState.NONE,
) -> tuple[int, list[RollRecord]]:
    """Store a member's roll made in an action (teamwork, contest), closed at once (it
    offers no buttons), and close the roller's earlier rolls in the channel.

    Answers the new roll's id and the earlier rolls just closed (their messages lose
    their buttons).
    """
    roll_id = await tx.rolls.insert(
        guild_id=record.guild_id,
        channel_id=record.channel_id,
        roller_id=user.id,
        roller_name=user.display_name,
        result=result,
        will_state=will_state,
        label=record.label or None,
        action_id=record.id,
    )
    closed = await tx.rolls.close(record.guild_id, record.channel_id, user.id)
    return roll_id, [earlier for earlier in closed if earlier.id != roll_id]


async def remember_message(
    bot: StorytellerBot,
    roll_id: int,
    message_id: int | None,
    *,
    copy_channel_id: int | None = None,
    copy_message_id: int | None = None,
) -> None:
    """Store which message shows a roll, once it was sent.

    The roll itself is already stored and shown, so a database fault here is
    only logged: telling the roller it failed would be false. Only later
    edits of its message (closed, void) are lost; its buttons still act by
    the store's rules.
    """
    if message_id is None:
        return
    try:
        await bot.store.attach_roll_messages(
            roll_id, message_id,
            copy_channel_id=copy_channel_id, copy_message_id=copy_message_id,
        )
    except sqlite3.Error as error:
        log.warning("Could not remember the message of roll %s: %s", roll_id, error)


async def remember_card(bot: StorytellerBot, action_id: int, message_id: int | None) -> None:
    """Store which message shows an action's card, once it was sent (as :func:`remember_message`:
    the action is stored and shown, so a database fault here is only logged)."""
    if message_id is None:
        return
    try:
        await bot.store.attach_action_message(action_id, message_id)
    except sqlite3.Error as error:
        log.warning("Could not remember the card of action %s: %s", action_id, error)


def refresh_messages(
    bot: StorytellerBot, records: Iterable[RollRecord], config: ChannelConfig
) -> None:
    """Update the messages of rolls whose state changed elsewhere (closed, voided).

    In the background: the member's own answer does not wait for it, and a
    message that cannot be edited (deleted, secret) only loses its buttons'
    looks — the store already refuses them.
    """
    for record in records:
        if record.message_id is None or record.private:
            continue
        _spawn(_refresh(bot, record, config))


def _spawn(coroutine: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    _pending.add(task)
    task.add_done_callback(_pending.discard)


async def _refresh(bot: StorytellerBot, record: RollRecord, config: ChannelConfig) -> None:
    if record.message_id is None:
        return
    message = bot.get_partial_messageable(record.channel_id).get_partial_message(record.message_id)
    await edit_quietly(message, embed=embed_for(record, config), view=roll_view(record))


# --- buttons --------------------------------------------------------------------------------


async def pressed_roll(tx: Tx, roll_id: int, user_id: int) -> RollRecord:
    """The roll a button belongs to, if this member may press it at all now."""
    record = await tx.rolls.pressed(roll_id, user_id)
    if isinstance(record, Refusal):
        raise UserError(REFUSALS[record])
    if record.closed:
        raise UserError(REFUSALS[Refusal.CLOSED])
    return record


async def spend_will_pressed(interaction: discord.Interaction, roll_id: int) -> None:
    """Spend Will: the same message is updated in place and the Will pool loses 1."""
    bot = bot_of(interaction)
    async with bot.store.transaction() as tx:
        record = await tx.rolls.spendable(roll_id, interaction.user.id)
        if isinstance(record, Refusal):
            raise UserError(REFUSALS[record])
        try:
            result = spend_will(record.result, bot.faces)
        except RuleError as error:
            raise UserError(cannot_spend_will(str(error))) from error
        spent = await tx.rolls.spend_will(roll_id, interaction.user.id, result)
        if not isinstance(spent, Refusal) and record.label and result.succeeded:
            # Successive attempts reset when the action succeeds, Will included.
            await tx.attempts.record(
                record.guild_id, record.channel_id, record.roller_id, record.label, result
            )
    if isinstance(spent, Refusal):
        raise UserError(REFUSALS[spent])
    await _show_changed(interaction, spent.roll)
    if spent.pool is not None:
        await interaction.followup.send(will_spent(spent.pool), ephemeral=True)


async def take_beat_pressed(interaction: discord.Interaction, roll_id: int) -> None:
    """Take a Beat: the failure becomes a dramatic failure and the roller gains a Beat."""
    bot = bot_of(interaction)
    async with bot.store.transaction() as tx:
        record = await pressed_roll(tx, roll_id, interaction.user.id)
        try:
            result = take_beat(record.result)
        except RuleError as error:
            raise UserError(no_beat(str(error))) from error
        taken = await tx.rolls.take_beat(roll_id, interaction.user.id, result)
    if isinstance(taken, Refusal):
        raise UserError(REFUSALS[taken])
    await _show_changed(interaction, taken.roll)
    await interaction.followup.send(beat_taken(taken.beats), ephemeral=True)


async def try_again_pressed(interaction: discord.Interaction, roll_id: int) -> None:
    """Roll the same request again, with the successive-attempt penalty it now carries."""
    bot = bot_of(interaction)
    record = await bot.store.get_roll(roll_id)
    if record is None:
        raise UserError(REFUSALS[Refusal.NOT_FOUND])
    # Will is not declared again: the retry offers Spend Will like any roll.
    request = record.request.model_copy(update={"will": False})
    await post_roll(
        interaction, request, label=record.label, private=record.private, retry_of=roll_id
    )


async def _show_changed(interaction: discord.Interaction, record: RollRecord) -> None:
    """Update the pressed message in place, and the Storyteller's copy of a secret roll."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    await interaction.response.edit_message(
        embed=embed_for(record, config), view=roll_view(record)
    )
    if record.copy_channel_id is not None and record.copy_message_id is not None:
        copy = bot.get_partial_messageable(record.copy_channel_id).get_partial_message(
            record.copy_message_id
        )
        _spawn(edit_quietly(copy, embed=embed_for(record, config)))  # a copy carries no buttons


async def edit_quietly(message: discord.PartialMessage, **changes: Any) -> None:
    """Edit a message the interaction did not answer with; a deleted one is only logged
    (its buttons' looks are lost, but the store refuses them anyway)."""
    try:
        await message.edit(**changes)
    except discord.HTTPException as error:
        log.info("Could not update message %s: %s", message.id, error)


BUTTON_HANDLERS: dict[str, Callable[[discord.Interaction, int], Awaitable[None]]] = {
    "will": spend_will_pressed,
    "beat": take_beat_pressed,
    "retry": try_again_pressed,
}
