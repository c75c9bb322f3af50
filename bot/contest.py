"""Contests in a channel: both sides rolled, the engine's verdict, the store, the card.

Against the Storyteller's dice (`against`) both sides roll at once and the
contest is decided in one transaction. Against a member (`opponent`) the
actor rolls now and the card waits: only that member's **Roll to resist**
opens the pool form, and its submission rolls, decides and closes the
contest in one transaction, so a second submission finds it decided.

Each side's roll is stored with the contest's id (so /history lists it) and
closed at once: the card shows the verdict, and a Will spend afterwards would
not reach it.
"""

from __future__ import annotations

import discord
from pydantic import BaseModel, ConfigDict

from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError
from bot.render.contest import (
    AGAINST_YOURSELF,
    CONTEST_DECIDED,
    CONTEST_GONE,
    NOT_A_PLAYER,
    RESIST_FORM_TITLE,
    cannot_contest,
    contest_embed,
    not_opponent,
)
from bot.rolling import (
    count_action,
    refresh_messages,
    remember_card,
    store_action_roll,
    with_table_state,
)
from bot.store import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelConfig,
    Tx,
)
from bot.views.contest_buttons import contest_view
from bot.views.teamwork_buttons import PoolForm
from engine.models import RollRequest, RollResult, Term
from engine.roll import roll
from engine.table.contest import ContestResult, resolve


class ContestCard(BaseModel):
    """What a contest keeps: both sides' rolls, who they are, and the verdict once decided."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    actor_name: str
    actor: RollResult
    opponent_id: int | None = None
    """The member who rolls to resist; None for the Storyteller's dice."""
    opponent_name: str | None = None
    opponent_difficulty: int | None = None
    """`v20`: the difficulty the opponent member will roll against."""
    opponent: RollResult | None = None
    result: ContestResult | None = None


def card_embed(record: ActionRecord, config: ChannelConfig) -> discord.Embed:
    """The card of a stored contest as it stands."""
    card = record.state(ContestCard)
    return contest_embed(
        ruleset=card.actor.request.ruleset,
        label=record.label or None,
        actor_name=card.actor_name,
        opponent_name=card.opponent_name,
        actor=card.actor,
        opponent=card.opponent,
        contest=card.result,
        contest_id=record.id,
        text_only=config.text_only,
    )


def _rolled(result: RollResult, *, opposition: bool = False) -> RollResult:
    """The roll, unless the engine refused it (then nothing is stored)."""
    if result.refused:
        raise UserError(cannot_contest(result.message or "", opposition=opposition))
    return result


async def _answer(
    interaction: discord.Interaction,
    record: ActionRecord,
    config: ChannelConfig,
) -> None:
    """Post the card and remember its message."""
    view = contest_view(record.id) if record.status is ActionStatus.OPEN else None
    sent = await interaction.response.send_message(
        embed=card_embed(record, config), view=view or discord.utils.MISSING
    )
    await remember_card(bot_of(interaction), record.id, sent.message_id)


async def contest_now(
    interaction: discord.Interaction,
    actor: RollRequest,
    opposition: RollRequest,
    *,
    label: str | None,
) -> None:
    """Both sides roll now: the member's pool, then the Storyteller's."""
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    async with bot.store.transaction() as tx:
        actor = await with_table_state(tx, config, user.id, label, actor)
        ours = _rolled(roll(actor, bot.faces))
        theirs = _rolled(roll(opposition, bot.faces), opposition=True)
        await count_action(tx, config, user.id, label, ours)
        card = ContestCard(
            actor_name=user.display_name,
            actor=ours,
            opponent=theirs,
            result=resolve(actor.ruleset, ours, theirs),
        )
        record = await tx.actions.create(
            ActionKind.CONTEST,
            guild_id=guild_id,
            channel_id=channel_id,
            owner_id=user.id,
            label=label or "",
            state=card,
        )
        await tx.actions.update(record.id, record.version, card, ActionStatus.CLOSED)
        # The Storyteller's dice are rolled by the member who asked: both rolls are theirs.
        _, closed = await store_action_roll(tx, record, user, ours)
        _, more = await store_action_roll(tx, record, user, theirs)
        closed += more
        record = await _get(tx, record.id)
    await _answer(interaction, record, config)
    refresh_messages(bot, closed, config)


async def contest_member(
    interaction: discord.Interaction,
    actor: RollRequest,
    opponent: discord.User | discord.Member,
    *,
    opponent_difficulty: int | None,
    label: str | None,
) -> None:
    """The member rolls now; ``opponent`` gets a Roll to resist button on the card."""
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    if opponent.id == user.id:
        raise UserError(AGAINST_YOURSELF)
    if opponent.bot:
        raise UserError(NOT_A_PLAYER)
    async with bot.store.transaction() as tx:
        actor = await with_table_state(tx, config, user.id, label, actor)
        ours = _rolled(roll(actor, bot.faces))
        await count_action(tx, config, user.id, label, ours)
        card = ContestCard(
            actor_name=user.display_name,
            actor=ours,
            opponent_id=opponent.id,
            opponent_name=opponent.display_name,
            opponent_difficulty=opponent_difficulty,
        )
        record = await tx.actions.create(
            ActionKind.CONTEST,
            guild_id=guild_id,
            channel_id=channel_id,
            owner_id=user.id,
            label=label or "",
            state=card,
        )
        _, closed = await store_action_roll(tx, record, user, ours)
    await _answer(interaction, record, config)
    refresh_messages(bot, closed, config)


async def _get(tx: Tx, action_id: int) -> ActionRecord:
    record = await tx.actions.get(action_id)
    if record is None or record.kind is not ActionKind.CONTEST:
        raise UserError(CONTEST_GONE)
    return record


def _waiting_for(record: ActionRecord, user_id: int) -> ContestCard:
    """The contest's state, if it still waits for this member to resist."""
    card = record.state(ContestCard)
    if record.status is not ActionStatus.OPEN or card.result is not None:
        raise UserError(CONTEST_DECIDED)
    if user_id != card.opponent_id:
        raise UserError(not_opponent(card.opponent_name or ""))
    return card


async def resist_pressed(interaction: discord.Interaction, action_id: int) -> None:
    """Roll to resist: the named opponent gets the form for their pool; anyone else is told."""
    async with bot_of(interaction).store.read() as tx:
        record = await _get(tx, action_id)
    _waiting_for(record, interaction.user.id)
    await interaction.response.send_modal(
        PoolForm("resist", action_id, title=RESIST_FORM_TITLE, ask_difficulty=False)
    )


async def resist(interaction: discord.Interaction, action_id: int, terms: tuple[Term, ...]) -> None:
    """The opponent's form: roll their pool, decide the contest, close it, redraw the card."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    user = interaction.user
    async with bot.store.transaction() as tx:
        record = await _get(tx, action_id)
        card = _waiting_for(record, user.id)
        request = RollRequest(
            ruleset=card.actor.request.ruleset, terms=terms, difficulty=card.opponent_difficulty
        )
        request = await with_table_state(tx, config, user.id, None, request)
        theirs = _rolled(roll(request, bot.faces))
        await count_action(tx, config, user.id, None, theirs)
        card = card.model_copy(
            update={"opponent": theirs, "result": resolve(request.ruleset, card.actor, theirs)}
        )
        if not await tx.actions.update(action_id, record.version, card, ActionStatus.CLOSED):
            raise UserError(CONTEST_DECIDED)
        _, closed = await store_action_roll(tx, record, user, theirs)
        record = await _get(tx, action_id)
    embed = card_embed(record, config)
    if interaction.message is not None:
        await interaction.response.edit_message(embed=embed, view=None)
    else:
        await interaction.response.send_message(embed=embed)
    refresh_messages(bot, closed, config)
