"""`/extended`: extended actions, resisted extended actions, ongoing efforts and contests.

The engine (:mod:`engine.table.extended`) does every rule; this module reads
the action from the store, asks the engine, and writes the result back in one
transaction, guarded by the version it read. Every change follows the same
path, whether it comes from a command, a card button, the Condition form or
a button on an extended roll:

1. read the action (and, for Will or a Beat, the roll) in a write transaction;
2. refuse unless the member is the owner or the Storyteller, the action is
   open and, for a card, the card's version is the action's version;
3. roll and/or call the engine; store the roll and the new state
   (``tx.actions.update`` with the version read: a second press changes nothing);
4. answer, then edit the card (and the roll messages whose buttons changed).

Decisions where COMMANDS.md and RULES.md are silent:

- An extended roll is the owner's roll, whoever presses Roll: it is stored
  with the owner as roller, so Will declared or spent on it is the owner's,
  the `fistful` Successive Action Penalty counts the owner's actions, and only
  the owner may press its Spend Will and Take a Beat buttons.
- The resisting side's roll is kept in the action (it is needed to re-read
  the interval after Will) and shown on the actor's roll message; it is not
  a roll of any member, so it is not in the rolls table.
- A roll that ends the action but can still change (Spend Will or Take a
  Beat on it) leaves the action open in the store, with the engine's ended
  state, until it can no longer change; such actions are not listed, rolled
  or chosen for, and starting the same task again closes them.
- Labels of open extended actions are unique in a channel; without a label
  the pool expression is the label.
- The −2 carried by a `cofd` dramatic failure passes to a new action with the
  same label in the channel when the last attempt at it ended carrying it.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Final

import discord
from discord import app_commands
from discord.ext import commands
from pydantic import BaseModel, ConfigDict

from bot.checks import is_storyteller
from bot.client import StorytellerBot
from bot.cogs.rolling import AGAIN_CHOICES, OPTION_HELP, UNTRAINED_CHOICES, build_request
from bot.context import bot_of, channel_config, in_guild
from bot.errors import UserError, answering_errors
from bot.render import extended as wording
from bot.render.buttons import REFUSALS, beat_taken, cannot_roll, will_spent
from bot.rolling import (
    declare_will,
    edit_quietly,
    embed_for,
    pressed_roll,
    refresh_messages,
    remember_card,
    remember_message,
    will_state_for,
)
from bot.store import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    BeatTaken,
    ChannelConfig,
    Refusal,
    RollRecord,
    Tx,
    WillState,
    label_key,
)
from bot.transformers import Pool
from bot.views.extended_buttons import (
    CardButton,
    ExtendedRollButton,
    card_view,
    condition_form,
    condition_submission,
    extended_roll_view,
)
from engine.constants import MAX_POOL, MAX_TARGET
from engine.models import Adjustment, Outcome, RollResult, Ruleset, Term
from engine.parser import format_pool
from engine.roll import RuleError, roll, spend_will, take_beat
from engine.table import actions, extended
from engine.table.extended import (
    MAX_ROLLS,
    MAX_UNIT,
    Choice,
    ExtendedState,
    ExtendedStep,
    Interval,
    Status,
)

log = logging.getLogger(__name__)

#: Longest label (Discord's autocomplete values are at most 100 characters).
MAX_LABEL: Final = 100
#: ``30 minutes``: a whole number, then a unit that starts with a letter.
_INTERVAL: Final = re.compile(r"\s*(?P<amount>[0-9]{1,6})\s*(?P<unit>[^\W\d_].*?)\s*")


class ExtendedAction(BaseModel):
    """What the store keeps for an extended action: the engine's state and what the card shows.

    ``last`` is what the last roll did (told on the card), ``last_roll_id``
    which roll that was, ``against`` the resisting side's roll of that
    interval (needed to re-read it after Will or a Beat), and ``decision``
    what was chosen since.
    """

    model_config = ConfigDict(frozen=True, extra="forbid")

    state: ExtendedState
    owner_name: str
    last: ExtendedStep | None = None
    last_roll_id: int | None = None
    against: RollResult | None = None
    decision: Choice | None = None


@dataclass(frozen=True)
class _Actor:
    """The member who acts, and whether they are the Storyteller here."""

    user_id: int
    storyteller: bool


async def _actor(interaction: discord.Interaction) -> _Actor:
    # Read before the write transaction: is_storyteller reads the settings itself.
    return _Actor(interaction.user.id, await is_storyteller(interaction))


def _doc(record: ActionRecord) -> ExtendedAction:
    return record.state(ExtendedAction)


def _live(record: ActionRecord) -> bool:
    """Open for rolls and decisions (not merely waiting to see if its last roll changes)."""
    return _doc(record).state.status is Status.OPEN


async def _target(
    tx: Tx,
    actor: _Actor,
    *,
    guild_id: int,
    channel_id: int,
    action_id: int | None,
    label: str | None,
    version: int | None,
    stale: str = wording.STALE,
) -> tuple[ActionRecord, ExtendedAction]:
    """The action a press (by id) or a command (by label) means, checked as :func:`_checked`."""
    found = (
        await tx.actions.get(action_id)
        if action_id is not None
        else await _named(tx, guild_id, channel_id, label, actor)
    )
    return _checked(found, actor, guild_id, version, stale)


def _checked(
    record: ActionRecord | None,
    actor: _Actor,
    guild_id: int,
    version: int | None = None,
    stale: str = wording.STALE,
) -> tuple[ActionRecord, ExtendedAction]:
    """The action and its document, if this member may act on it now (at ``version``: a card)."""
    if record is None or record.kind is not ActionKind.EXTENDED or record.guild_id != guild_id:
        raise UserError(wording.GONE)
    doc = _doc(record)
    if record.owner_id != actor.user_id and not actor.storyteller:
        raise UserError(wording.not_allowed(doc.owner_name))
    status = doc.state.status
    if status is not Status.OPEN:
        raise UserError(wording.ended(status))
    if record.status is ActionStatus.CLOSED:
        raise UserError(wording.ended(Status.ABANDONED))
    if version is not None and version != record.version:
        raise UserError(stale)
    return record, doc


def _beat_offered(result: RollResult) -> bool:
    return (
        result.request.ruleset is Ruleset.COFD
        and result.outcome is Outcome.FAILURE
        and not result.beat
    )


def _changeable(roll_record: RollRecord) -> bool:
    """The roll still offers Spend Will or Take a Beat."""
    if roll_record.closed or roll_record.void:
        return False
    return roll_record.will_state is WillState.OFFERED or _beat_offered(roll_record.result)


def _store_status(state: ExtendedState, last_roll: RollRecord | None) -> ActionStatus:
    """Closed once the engine says it ended and its last roll can no longer change."""
    if state.status is Status.OPEN or (last_roll is not None and _changeable(last_roll)):
        return ActionStatus.OPEN
    return ActionStatus.CLOSED


def _roll_view(roll_record: RollRecord, doc: ExtendedAction) -> discord.ui.View | None:
    """The roll's buttons, while it is the action's last roll and no decision followed it."""
    if (
        doc.last_roll_id != roll_record.id
        or doc.state.undo is None
        or not _changeable(roll_record)
    ):
        return None
    return extended_roll_view(
        roll_record.id,
        will=roll_record.will_state is WillState.OFFERED,
        beat=_beat_offered(roll_record.result),
    )


def _card(record: ActionRecord, doc: ExtendedAction, config: ChannelConfig) -> discord.Embed:
    return wording.extended_card(
        doc.state,
        label=record.label,
        owner=doc.owner_name,
        action_id=record.id,
        last=doc.last,
        decision=doc.decision,
        text_only=config.text_only,
    )


def _note(record: ActionRecord, doc: ExtendedAction, config: ChannelConfig) -> str:
    if doc.last is None:
        return ""
    return wording.roll_note(
        doc.state, doc.last, label=record.label, against=doc.against, text_only=config.text_only
    )


async def _show_card(
    bot: StorytellerBot,
    record: ActionRecord,
    doc: ExtendedAction,
    version: int,
    config: ChannelConfig,
    *,
    pressed_card: int | None = None,
) -> None:
    """Bring the card up to date (its buttons carry the new version).

    ``pressed_card``: the card's message when the press came from it, which is
    known even before the card's message id is stored (a press right after
    ``/extended start`` would otherwise leave the card a version behind).
    """
    message_id = record.message_id or pressed_card
    if message_id is None:
        return
    message = bot.get_partial_messageable(record.channel_id).get_partial_message(message_id)
    await edit_quietly(
        message, embed=_card(record, doc, config), view=card_view(doc.state, record.id, version)
    )


# --- finding actions ----------------------------------------------------------------------


async def _named(
    tx: Tx, guild_id: int, channel_id: int, label: str | None, actor: _Actor
) -> ActionRecord:
    """The open action a command means: by label, else the member's only one."""
    found = await tx.actions.find_open(
        guild_id, channel_id, kind=ActionKind.EXTENDED, label=label
    )
    live = [record for record in found if _live(record)]
    if label is not None:
        if not live:
            raise UserError(wording.not_found(label))
        return live[0]
    mine = [record for record in live if record.owner_id == actor.user_id]
    candidates = mine or (live if actor.storyteller else [])
    if len(candidates) == 1:
        return candidates[0]
    raise UserError(wording.WHICH_ONE if candidates else wording.NONE_OPEN)


async def _carried(tx: Tx, guild_id: int, channel_id: int, label: str) -> bool:
    """Whether the last attempt at this task in the channel ended carrying a −2."""
    previous = await tx.actions.last_closed(
        guild_id, channel_id, kind=ActionKind.EXTENDED, label=label
    )
    if previous is None:
        return False
    state = _doc(previous).state
    return state.ruleset is Ruleset.COFD and state.carry


def _interval(value: str) -> Interval:
    match = _INTERVAL.fullmatch(value)
    if match is None or int(match["amount"]) < 1 or len(match["unit"]) > MAX_UNIT:
        raise UserError(wording.bad_interval(value))
    return Interval(amount=int(match["amount"]), unit=match["unit"])


# --- rolling --------------------------------------------------------------------------------


def _rolled(result: RollResult) -> RollResult:
    """The result of a roll the engine made, or the refusal as the member's answer."""
    if result.refused:
        raise UserError(cannot_roll(result.message or "refused"))
    return result


async def roll_action(
    interaction: discord.Interaction,
    *,
    action_id: int | None = None,
    version: int | None = None,
    label: str | None = None,
    changes: tuple[Term, ...] = (),
    will: bool = False,
) -> None:
    """Roll the next interval: the actor (and the resisting side), stored with the new state."""
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    config = await channel_config(interaction)
    actor = await _actor(interaction)
    async with bot.store.transaction() as tx:
        record, doc = await _target(
            tx, actor, guild_id=guild_id, channel_id=channel_id,
            action_id=action_id, label=label, version=version,
        )
        state = doc.state
        owner = record.owner_id
        adjustments: tuple[Adjustment, ...] = ()
        if state.ruleset is Ruleset.FISTFUL:
            taken = await tx.attempts.turn_actions(guild_id, channel_id, owner)
            adjustments = actions.penalty(taken, config.fistful_step)
        try:
            request = extended.roll_request(state, changes, will=will, adjustments=adjustments)
            resisting = None if state.against is None else extended.against_request(state)
        except RuleError as error:
            raise UserError(cannot_roll(str(error))) from error
        if will:  # before the dice: an empty pool rolls nothing
            await declare_will(tx, guild_id, owner)
        result = _rolled(roll(request, bot.faces))
        against = None if resisting is None else _rolled(roll(resisting, bot.faces))
        step = extended.apply_roll(state, result, against)
        closed = await tx.rolls.close(guild_id, channel_id, owner)
        roll_id = await tx.rolls.insert(
            guild_id=guild_id,
            channel_id=channel_id,
            roller_id=owner,
            roller_name=doc.owner_name,
            result=result,
            will_state=will_state_for(result, config),
            label=record.label,
            action_id=record.id,
        )
        if state.ruleset is Ruleset.FISTFUL:
            await tx.attempts.record_turn_action(guild_id, channel_id, owner)
        roll_record = await tx.rolls.get(roll_id)
        if roll_record is None:
            msg = f"roll {roll_id} vanished inside its own transaction"
            raise RuntimeError(msg)
        doc = doc.model_copy(
            update={
                "state": step.state,
                "last": step,
                "last_roll_id": roll_id,
                "against": against,
                "decision": None,
            }
        )
        status = _store_status(step.state, roll_record)
        version = await tx.actions.update(record.id, record.version, doc, status)
        if version is None:
            raise UserError(wording.STALE)
    sent = await interaction.response.send_message(
        _note(record, doc, config),
        embed=embed_for(roll_record, config),
        view=_roll_view(roll_record, doc) or discord.utils.MISSING,
    )
    await remember_message(bot, roll_id, sent.message_id)
    refresh_messages(bot, closed, config)
    card = interaction.message if action_id is not None else None  # pressed on the card
    await _show_card(
        bot, record, doc, version, config, pressed_card=card.id if card else None
    )


async def roll_revised(interaction: discord.Interaction, roll_id: int, *, beat: bool) -> None:
    """Spend Will or take a Beat on the action's last roll: the roll and the action, together."""
    bot = bot_of(interaction)
    config = await channel_config(interaction)
    async with bot.store.transaction() as tx:
        roll_record = await pressed_roll(tx, roll_id, interaction.user.id)
        record = (
            None if roll_record.action_id is None else await tx.actions.get(roll_record.action_id)
        )
        doc = None if record is None else _doc(record)
        if (
            record is None
            or doc is None
            or record.status is ActionStatus.CLOSED
            or doc.last_roll_id != roll_id
        ):
            raise UserError(wording.ROLL_MOVED_ON)
        try:
            result = take_beat(roll_record.result) if beat else spend_will(
                roll_record.result, bot.faces
            )
            step = extended.revise(doc.state, result, doc.against)
        except RuleError as error:
            raise UserError(wording.cannot_revise(str(error), beat=beat)) from error
        changed = await (
            tx.rolls.take_beat(roll_id, interaction.user.id, result)
            if beat
            else tx.rolls.spend_will(roll_id, interaction.user.id, result)
        )
        if isinstance(changed, Refusal):
            raise UserError(REFUSALS[changed])
        doc = doc.model_copy(update={"state": step.state, "last": step})
        status = _store_status(step.state, changed.roll)
        version = await tx.actions.update(record.id, record.version, doc, status)
        if version is None:
            raise UserError(wording.ROLL_MOVED_ON)
    await interaction.response.edit_message(
        content=_note(record, doc, config),
        embed=embed_for(changed.roll, config),
        view=_roll_view(changed.roll, doc),
    )
    await _show_card(bot, record, doc, version, config)
    if isinstance(changed, BeatTaken):
        await interaction.followup.send(beat_taken(changed.beats), ephemeral=True)
    elif changed.pool is not None:
        await interaction.followup.send(
            will_spent(changed.pool), ephemeral=True
        )


# --- decisions ------------------------------------------------------------------------------


async def decide(
    interaction: discord.Interaction,
    choice: Choice,
    *,
    action_id: int | None = None,
    version: int | None = None,
    label: str | None = None,
    condition: str | None = None,
    stale: str = wording.STALE,
) -> None:
    """Apply a decision; on the card it updates the card, by command it is said in the channel."""
    bot = bot_of(interaction)
    guild_id, channel_id = in_guild(interaction)
    config = await channel_config(interaction)
    actor = await _actor(interaction)
    async with bot.store.transaction() as tx:
        record, before = await _target(
            tx, actor, guild_id=guild_id, channel_id=channel_id,
            action_id=action_id, label=label, version=version, stale=stale,
        )
        if choice is Choice.WAIVE and not actor.storyteller:
            raise UserError(wording.WAIVE_STORYTELLER)
        try:
            state = extended.choose(before.state, choice, condition)
        except RuleError as error:
            raise UserError(wording.cannot_choose(str(error))) from error
        last_roll = None if before.last_roll_id is None else await tx.rolls.get(
            before.last_roll_id
        )
        doc = before.model_copy(update={"state": state, "decision": choice})
        status = ActionStatus.OPEN if state.status is Status.OPEN else ActionStatus.CLOSED
        version = await tx.actions.update(record.id, record.version, doc, status)
        if version is None:
            raise UserError(stale)
    if interaction.message is not None:
        await interaction.response.edit_message(
            embed=_card(record, doc, config), view=card_view(state, record.id, version)
        )
    else:
        await interaction.response.send_message(
            wording.decided(record.label, interaction.user.display_name, choice, state)
        )
        await _show_card(bot, record, doc, version, config)
    if last_roll is not None and last_roll.message_id is not None and _roll_view(
        last_roll, before
    ):
        # A decision settles the last roll: its Spend Will and Take a Beat no longer act.
        message = bot.get_partial_messageable(last_roll.channel_id).get_partial_message(
            last_roll.message_id
        )
        await edit_quietly(message, view=None)


async def _open_form(interaction: discord.Interaction, action_id: int, version: int) -> None:
    """Take a Condition: the form, if the card is current (checked again on submit)."""
    guild_id, _ = in_guild(interaction)
    actor = await _actor(interaction)
    record = await bot_of(interaction).store.get_action(action_id)
    _checked(record, actor, guild_id, version)
    await interaction.response.send_modal(condition_form(action_id, version))


async def card_pressed(
    interaction: discord.Interaction, choice: Choice, action_id: int, version: int
) -> None:
    """A card button: roll, open the Condition form, or decide."""
    if choice is Choice.ROLL:
        await roll_action(interaction, action_id=action_id, version=version)
    elif choice is Choice.TAKE_CONDITION:
        await _open_form(interaction, action_id, version)
    else:
        await decide(interaction, choice, action_id=action_id, version=version)


# --- the commands ---------------------------------------------------------------------------


class Extended(commands.GroupCog, group_name="extended"):
    """Extended actions: successes gathered over several rolls."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="start")
    @app_commands.guild_only()
    @app_commands.describe(
        pool="Dice per roll: Intelligence 3 + Academics 2 (cofd: the traits set the roll limit)",
        target="Successes required (fistful: may be left out when max_rolls is set)",
        max_rolls="Roll limit (cofd default: Attribute + Skill + Specialty; else no limit)",
        interval="Time each roll takes: 30 minutes, 1 hour, 1 day",
        label="What the action is for (default: the pool)",
        skill="cofd: Skill dots an exceptional success may take off the requirement",
        against="v20/fistful: the resisting side's pool, rolled each interval",
        against_difficulty="v20: the resisting side's difficulty (default 6)",
        **{name: OPTION_HELP[name] for name in (
            "again", "rote", "specialty", "untrained", "resist", "extra", "exceptional_at",
            "difficulty", "risky",
        )},
    )
    @app_commands.choices(again=AGAIN_CHOICES, untrained=UNTRAINED_CHOICES)
    async def start(  # noqa: PLR0917 - one parameter per slash-command option
        self,
        interaction: discord.Interaction,
        pool: Pool,
        target: app_commands.Range[int, 1, MAX_TARGET] | None = None,
        max_rolls: app_commands.Range[int, 1, MAX_ROLLS] | None = None,
        interval: app_commands.Range[str, 1, 60] | None = None,
        label: app_commands.Range[str, 1, MAX_LABEL] | None = None,
        skill: app_commands.Range[int, 0, MAX_POOL] | None = None,
        against: Pool | None = None,
        against_difficulty: app_commands.Range[int, 2, 10] | None = None,
        again: str | None = None,
        rote: bool = False,
        specialty: bool = False,
        untrained: str | None = None,
        resist: app_commands.Range[int, 0, MAX_POOL] = 0,
        extra: app_commands.Range[int, 0, MAX_POOL] = 0,
        exceptional_at: app_commands.Range[int, 1, 10] | None = None,
        difficulty: app_commands.Range[int, 2, 10] | None = None,
        risky: bool = False,
    ) -> None:
        """Start an extended action and post its card."""
        guild_id, channel_id = in_guild(interaction)
        config = await channel_config(interaction)
        request = build_request(
            config.ruleset, pool,
            again=again, rote=rote, specialty=specialty, untrained=untrained, resist=resist,
            extra=extra, exceptional_at=exceptional_at, difficulty=difficulty, risky=risky,
        )
        if against is None and against_difficulty is not None:
            raise UserError(wording.AGAINST_DIFFICULTY_ALONE)
        resisting = (
            None if against is None
            else build_request(config.ruleset, against, difficulty=against_difficulty)
        )
        name = (label or format_pool(pool)[:MAX_LABEL]).strip()
        length = None if interval is None else _interval(interval)
        async with self.bot.store.transaction() as tx:
            same = await tx.actions.find_open(
                guild_id, channel_id, kind=ActionKind.EXTENDED, label=name
            )
            if any(_live(record) for record in same):
                raise UserError(wording.duplicate(name))
            # Attempts whose last roll could still change: this new attempt settles them.
            for record in same:
                await tx.actions.update(
                    record.id, record.version, _doc(record), ActionStatus.CLOSED
                )
            carry = config.ruleset is Ruleset.COFD and (
                _doc(same[-1]).state.carry
                if same
                else await _carried(tx, guild_id, channel_id, name)
            )
            try:
                state = extended.start(
                    request,
                    target=target,
                    max_rolls=max_rolls,
                    skill=skill,
                    interval=length,
                    against=resisting,
                    carry=carry,
                )
            except RuleError as error:
                raise UserError(wording.cannot_start(str(error))) from error
            doc = ExtendedAction(state=state, owner_name=interaction.user.display_name)
            record = await tx.actions.create(
                ActionKind.EXTENDED,
                guild_id=guild_id,
                channel_id=channel_id,
                owner_id=interaction.user.id,
                label=name,
                state=doc,
            )
        sent = await interaction.response.send_message(
            wording.started(name, carried=carry),
            embed=_card(record, doc, config),
            view=card_view(state, record.id, record.version) or discord.utils.MISSING,
        )
        await remember_card(self.bot, record.id, sent.message_id)

    @app_commands.command(name="roll")
    @app_commands.guild_only()
    @app_commands.describe(
        label="Which extended action (default: your only open one)",
        modifier="Dice added or taken away for this roll only: 2, -1, Help 2 - Wounded 1",
        will=OPTION_HELP["will"],
    )
    async def roll(
        self,
        interaction: discord.Interaction,
        label: app_commands.Range[str, 1, MAX_LABEL] | None = None,
        modifier: Pool | None = None,
        will: bool = False,
    ) -> None:
        """Roll the next interval of an extended action."""
        await roll_action(interaction, label=label, changes=modifier or (), will=will)

    @app_commands.command(name="list")
    @app_commands.guild_only()
    async def list_(self, interaction: discord.Interaction) -> None:
        """The extended actions open in this channel."""
        guild_id, channel_id = in_guild(interaction)
        config = await channel_config(interaction)
        found = await self.bot.store.find_open_actions(
            guild_id, channel_id, kind=ActionKind.EXTENDED
        )
        channel = self.bot.get_partial_messageable(channel_id, guild_id=guild_id)
        listed = [
            wording.ListedAction(
                label=record.label,
                owner=_doc(record).owner_name,
                state=_doc(record).state,
                link=None if record.message_id is None
                else channel.get_partial_message(record.message_id).jump_url,
            )
            for record in found
            if _live(record)
        ]
        await interaction.response.send_message(
            wording.actions_list(listed, text_only=config.text_only), ephemeral=True
        )

    @app_commands.command(name="abandon")
    @app_commands.guild_only()
    @app_commands.describe(label="Which extended action (default: your only open one)")
    async def abandon(
        self,
        interaction: discord.Interaction,
        label: app_commands.Range[str, 1, MAX_LABEL] | None = None,
    ) -> None:
        """Abandon an extended action."""
        await decide(interaction, Choice.ABANDON, label=label)

    @roll.autocomplete("label")
    @abandon.autocomplete("label")
    async def _labels(
        self, interaction: discord.Interaction, current: str
    ) -> list[app_commands.Choice[str]]:
        """The labels of the channel's open extended actions that contain what was typed."""
        if interaction.guild_id is None or interaction.channel_id is None:
            return []
        found = await self.bot.store.find_open_actions(
            interaction.guild_id, interaction.channel_id, kind=ActionKind.EXTENDED
        )
        typed = label_key(current)
        return [
            app_commands.Choice(name=record.label[:MAX_LABEL], value=record.label[:MAX_LABEL])
            for record in found
            if _live(record) and typed in label_key(record.label)
        ][:25]

    @commands.Cog.listener()
    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """The Take a Condition form, answered from its custom_id (see ``condition_form``)."""
        submitted = condition_submission(interaction)
        if submitted is None:
            return
        async with answering_errors(interaction):
            name = submitted.condition.strip()
            if not name:
                raise UserError(wording.EMPTY_CONDITION)
            await decide(
                interaction,
                Choice.TAKE_CONDITION,
                action_id=submitted.action_id,
                version=submitted.version,
                condition=name,
                stale=wording.FORM_STALE,
            )


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    bot.add_dynamic_items(CardButton, ExtendedRollButton)
    await bot.add_cog(Extended(bot))
