"""Teamwork in a channel: its card, the helpers' and the primary's rolls, the store.

Shared by `/teamwork`, the card's buttons, the Help form and `/scene end`.
Every change is one transaction: read the action, ask the engine
(:mod:`engine.table.teamwork`), roll, then store the roll with the action's id
and the new state with the store's conditional update on the version read.
Transactions are serialised, so two presses or forms that arrive together are
applied one after the other, and the second sees the first (a member who has
helped cannot help again; a teamwork that was rolled cannot be rolled again).

Every roll is posted as its own roll message (no after-roll buttons: a Will
spend or a Beat there would not reach the teamwork's state), and the card is
edited to show the new state. A card pressed after the action moved on says
so, changes nothing, and is redrawn with the current state.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING

import discord
from pydantic import BaseModel, ConfigDict

from bot.checks import is_storyteller
from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError
from bot.render.rolls import RollStatus, roll_embed
from bot.render.teamwork import (
    ALREADY_HELPED,
    HELP_FORM_TITLE,
    NO_OPEN_TEAMWORK,
    NONE_OF_YOURS,
    NOT_YOURS,
    OWN_ACTION,
    STALE_CARD,
    TEAMWORK_GONE,
    TeamworkStatus,
    already_open,
    cancelled_notice,
    cannot_help,
    cannot_roll,
    cannot_start,
    default_label,
    ended_refusal,
    helper_roll_label,
    no_teamwork_called,
    only_primary,
    primary_roll_label,
    several_open,
    teamwork_embed,
)
from bot.rolling import (
    count_action,
    declare_will,
    edit_quietly,
    refresh_messages,
    remember_card,
    remember_message,
    store_action_roll,
    with_table_state,
)
from bot.store import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelConfig,
    DiceOrder,
    RollRecord,
    Tx,
    WillState,
)
from bot.views.teamwork_buttons import PoolForm, teamwork_view
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.prepare import prepare
from engine.roll import RuleError, roll
from engine.table import teamwork
from engine.table.teamwork import TeamworkState

if TYPE_CHECKING:
    from bot.client import StorytellerBot

log = logging.getLogger(__name__)


class TeamworkCard(BaseModel):
    """What a teamwork action keeps: the engine's state and what its card shows beside it."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    teamwork: TeamworkState
    primary_name: str
    helper_names: tuple[str, ...] = ()
    """The helpers' names as their rolls showed them, in the order of ``teamwork.helpers``."""
    primary: RollResult | None = None
    """The primary's roll, once made."""
    status: TeamworkStatus = TeamworkStatus.OPEN


class OutOfDateError(UserError):
    """A card's button was pressed after the action moved on (or ended)."""

    def __init__(self, message: str, record: ActionRecord) -> None:
        super().__init__(message)
        self.record = record


# --- the card ---------------------------------------------------------------------------------


def card_embed(record: ActionRecord, config: ChannelConfig) -> discord.Embed:
    """The card of a stored teamwork as it stands."""
    card = record.state(TeamworkCard)
    state = card.teamwork
    prepared = prepare(teamwork.primary_request(state))
    return teamwork_embed(
        state,
        label=record.label,
        primary_name=card.primary_name,
        helper_names=card.helper_names,
        bonus=teamwork.bonus(state),
        next_roll=prepared if isinstance(prepared, str) else prepared.breakdown,
        primary=card.primary,
        status=card.status,
        action_id=record.id,
        text_only=config.text_only,
    )


def card_view(record: ActionRecord) -> discord.ui.View | None:
    """The card's buttons while the teamwork is open, carrying the version they were drawn at."""
    if record.status is not ActionStatus.OPEN:
        return None
    return teamwork_view(record.id, record.version)


async def refresh_cards(
    bot: StorytellerBot,
    records: Iterable[ActionRecord],
    config: ChannelConfig,
    *,
    pressed_card: discord.Message | None = None,
) -> None:
    """Redraw the cards of teamwork actions that changed.

    Each is read again just before its edit, so when two changes land together
    the later edit shows the later state. A card that cannot be edited
    (deleted, say) keeps its old look: the store refuses its buttons anyway.
    ``pressed_card``: the message pressed, which is the card when the press came
    from it, known even before the card's message id is stored.
    """
    for changed in records:
        record = await bot.store.get_action(changed.id) or changed
        message_id = record.message_id or (pressed_card.id if pressed_card else None)
        if message_id is None:
            continue
        message = bot.get_partial_messageable(record.channel_id).get_partial_message(message_id)
        await edit_quietly(message, embed=card_embed(record, config), view=card_view(record))


async def end_unfinished(tx: Tx, guild_id: int, channel_id: int) -> list[ActionRecord]:
    """`/scene end`: close the channel's open teamwork actions; the records as closed."""
    ended: list[ActionRecord] = []
    for record in await tx.actions.find_open(guild_id, channel_id, kind=ActionKind.TEAMWORK):
        card = record.state(TeamworkCard).model_copy(
            update={"status": TeamworkStatus.SCENE_ENDED}
        )
        if await tx.actions.update(record.id, record.version, card, ActionStatus.CLOSED):
            ended.append(await _get(tx, record.id))
    return ended


# --- finding a teamwork -----------------------------------------------------------------------


async def _get(tx: Tx, action_id: int) -> ActionRecord:
    record = await tx.actions.get(action_id)
    if record is None or record.kind is not ActionKind.TEAMWORK:
        raise UserError(TEAMWORK_GONE)
    return record


async def find_open(
    interaction: discord.Interaction, label: str | None, *, own: bool
) -> ActionRecord:
    """The open teamwork a command means: the one called ``label``, else the only one that
    is the member's own (``own``) or that the member could help (not ``own``)."""
    guild_id, channel_id = in_guild(interaction)
    found = await bot_of(interaction).store.find_open_actions(
        guild_id, channel_id, kind=ActionKind.TEAMWORK, label=label
    )
    if label is not None and not found:
        raise UserError(no_teamwork_called(label))
    if label is None:
        user_id = interaction.user.id
        everyone = found
        found = [record for record in everyone if (record.owner_id == user_id) == own]
        if not everyone:
            raise UserError(NO_OPEN_TEAMWORK)
        if not found:  # only others' are open (to roll or cancel), or only theirs (to help)
            raise UserError(NONE_OF_YOURS if own else OWN_ACTION)
    if len(found) > 1:
        raise UserError(several_open([record.label for record in found]))
    return found[0]


def _current(record: ActionRecord, version: int | None) -> TeamworkCard:
    """The card's state, if the teamwork is open and (for a button) the card is current."""
    card = record.state(TeamworkCard)
    if card.status is not TeamworkStatus.OPEN:
        raise OutOfDateError(ended_refusal(card.status), record)
    if version is not None and version != record.version:
        raise OutOfDateError(STALE_CARD, record)
    return card


def _may_help(card: TeamworkCard, user_id: int) -> None:
    """Who may help (the engine checks it again): not the primary, not twice."""
    if user_id == card.teamwork.primary_id:
        raise UserError(OWN_ACTION)
    if any(helper.member_id == user_id for helper in card.teamwork.helpers):
        raise UserError(ALREADY_HELPED)


async def _answer_out_of_date(interaction: discord.Interaction, error: OutOfDateError) -> None:
    """Redraw the pressed card as it stands now, and tell the member why nothing changed."""
    config = await channel_config(interaction)
    await interaction.response.edit_message(
        embed=card_embed(error.record, config), view=card_view(error.record)
    )
    await interaction.followup.send(str(error), ephemeral=True)


# --- starting ---------------------------------------------------------------------------------


async def start(
    interaction: discord.Interaction,
    request: RollRequest,
    *,
    label: str | None,
    helper_limit: int | None,
) -> None:
    """Post a new teamwork card for the member's ``request``."""
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    try:
        state = teamwork.start(request, user.id, helper_limit)
    except RuleError as error:
        raise UserError(cannot_start(str(error))) from error
    prepared = prepare(request)
    if isinstance(prepared, str):
        raise UserError(cannot_start(prepared))
    label = label or default_label(user.display_name)
    card = TeamworkCard(teamwork=state, primary_name=user.display_name)
    async with bot.store.transaction() as tx:
        if await tx.actions.find_open(guild_id, channel_id, kind=ActionKind.TEAMWORK, label=label):
            raise UserError(already_open(label))
        record = await tx.actions.create(
            ActionKind.TEAMWORK,
            guild_id=guild_id,
            channel_id=channel_id,
            owner_id=user.id,
            label=label,
            state=card,
        )
    sent = await interaction.response.send_message(
        embed=card_embed(record, config), view=teamwork_view(record.id, record.version)
    )
    await remember_card(bot, record.id, sent.message_id)


# --- helping ----------------------------------------------------------------------------------


async def help_pressed(interaction: discord.Interaction, action_id: int, version: int) -> None:
    """Help: open the form for the helper's pool (nothing changes until it is submitted)."""
    async with bot_of(interaction).store.read() as tx:
        record = await _get(tx, action_id)
    try:
        card = _current(record, version)
    except OutOfDateError as error:
        await _answer_out_of_date(interaction, error)
        return
    _may_help(card, interaction.user.id)
    await interaction.response.send_modal(
        PoolForm(
            "help",
            action_id,
            title=HELP_FORM_TITLE,
            ask_difficulty=card.teamwork.request.ruleset is Ruleset.V20,
        )
    )


async def add_help(
    interaction: discord.Interaction,
    action_id: int,
    terms: tuple[Term, ...],
    difficulty: int | None,
) -> None:
    """A helper rolls their pool for the teamwork (the Help form or `/teamwork help`)."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    async with bot.store.transaction() as tx:
        record = await _get(tx, action_id)
        card = _current(record, None)
        _may_help(card, user.id)
        state = card.teamwork
        asked = RollRequest(ruleset=state.request.ruleset, terms=terms, difficulty=difficulty)
        try:
            request = teamwork.helper_request(state, user.id, asked)
        except RuleError as error:
            raise UserError(cannot_help(str(error))) from error
        request = await with_table_state(tx, config, user.id, None, request)
        result = roll(request, bot.faces)
        if result.refused:
            raise UserError(cannot_help(result.message or ""))
        await count_action(tx, config, user.id, None, result)
        card = card.model_copy(
            update={
                "teamwork": teamwork.add_helper(state, user.id, result),
                "helper_names": (*card.helper_names, user.display_name),
            }
        )
        if not await tx.actions.update(action_id, record.version, card):
            raise OutOfDateError(STALE_CARD, record)
        rolled, closed = await _stored_roll(tx, record, user, result, WillState.NONE)
        record = await _get(tx, action_id)
    await _post_roll(interaction, rolled, helper_roll_label(record.label), config)
    refresh_messages(bot, closed, config)
    await refresh_cards(bot, [record], config, pressed_card=interaction.message)


async def _post_roll(
    interaction: discord.Interaction, record: RollRecord, title: str, config: ChannelConfig
) -> None:
    """Answer with the roll's own message and remember it (for /history's void)."""
    embed = roll_embed(
        record.result,
        roller=record.roller_name,
        label=title,
        roll_id=record.id,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        status=RollStatus.OPEN,
    )
    sent = await interaction.response.send_message(embed=embed)
    await remember_message(bot_of(interaction), record.id, sent.message_id)


# --- the primary's roll -----------------------------------------------------------------------


async def _stored_roll(
    tx: Tx,
    record: ActionRecord,
    user: discord.User | discord.Member,
    result: RollResult,
    will_state: WillState,
) -> tuple[RollRecord, list[RollRecord]]:
    """Store a teamwork roll (:func:`store_action_roll`); the roll as stored, and the
    roller's earlier rolls just closed."""
    roll_id, closed = await store_action_roll(tx, record, user, result, will_state)
    rolled = await tx.rolls.get(roll_id)
    if rolled is None:
        msg = f"roll {roll_id} vanished inside its own transaction"
        raise RuntimeError(msg)
    return rolled, closed


async def roll_primary(
    interaction: discord.Interaction, action_id: int, version: int | None
) -> None:
    """The primary rolls with every helper's bonus and penalty so far; the teamwork ends."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    async with bot.store.transaction() as tx:
        record = await _get(tx, action_id)
        card = record.state(TeamworkCard)
        if card.status is TeamworkStatus.OPEN and user.id != card.teamwork.primary_id:
            raise UserError(only_primary(card.primary_name))
        card = _current(record, version)
        request = teamwork.primary_request(card.teamwork)
        request = await with_table_state(tx, config, user.id, None, request)
        if request.will:  # before the dice, so an empty pool draws none
            await declare_will(tx, record.guild_id, user.id)
        result = roll(request, bot.faces)
        if result.refused:
            raise UserError(cannot_roll(result.message or ""))
        await count_action(tx, config, user.id, None, result)
        card = card.model_copy(update={"primary": result, "status": TeamworkStatus.ROLLED})
        if not await tx.actions.update(action_id, record.version, card, ActionStatus.CLOSED):
            raise OutOfDateError(STALE_CARD, record)
        will_state = WillState.DECLARED if request.will else WillState.NONE
        rolled, closed = await _stored_roll(tx, record, user, result, will_state)
        record = await _get(tx, action_id)
    await _post_roll(interaction, rolled, primary_roll_label(record.label), config)
    refresh_messages(bot, closed, config)
    await refresh_cards(bot, [record], config, pressed_card=interaction.message)


async def roll_pressed(interaction: discord.Interaction, action_id: int, version: int) -> None:
    """The Roll button."""
    try:
        await roll_primary(interaction, action_id, version)
    except OutOfDateError as error:
        await _answer_out_of_date(interaction, error)


# --- cancelling -------------------------------------------------------------------------------


async def cancel(interaction: discord.Interaction, action_id: int, version: int | None) -> None:
    """The primary or the Storyteller cancels the teamwork: nobody rolls."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    storyteller = await is_storyteller(interaction)
    async with bot.store.transaction() as tx:
        record = await _get(tx, action_id)
        card = record.state(TeamworkCard)
        mine = interaction.user.id == card.teamwork.primary_id
        if card.status is TeamworkStatus.OPEN and not (mine or storyteller):
            raise UserError(NOT_YOURS)
        card = _current(record, version).model_copy(
            update={"status": TeamworkStatus.CANCELLED}
        )
        if not await tx.actions.update(action_id, record.version, card, ActionStatus.CLOSED):
            raise OutOfDateError(STALE_CARD, record)
        record = await _get(tx, action_id)
    if version is not None:  # the card's own button: redraw it in place
        await interaction.response.edit_message(
            embed=card_embed(record, config), view=card_view(record)
        )
        return
    await interaction.response.send_message(
        cancelled_notice(record.label, interaction.user.display_name)
    )
    await refresh_cards(bot, [record], config, pressed_card=interaction.message)


async def cancel_pressed(interaction: discord.Interaction, action_id: int, version: int) -> None:
    """The Cancel button."""
    try:
        await cancel(interaction, action_id, version)
    except OutOfDateError as error:
        await _answer_out_of_date(interaction, error)


BUTTON_HANDLERS: dict[str, Callable[[discord.Interaction, int, int], Awaitable[None]]] = {
    "help": help_pressed,
    "roll": roll_pressed,
    "cancel": cancel_pressed,
}
