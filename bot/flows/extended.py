"""`/extended` and its buttons: extended actions, resisted extended actions, ongoing efforts.

The engine (:mod:`engine.table.extended`) does every rule. Each flow gathers
what it needs in one read, asks the engine, and writes what the engine decided
in one transaction whose conditional update names the action's version it read
(``tx.actions.update``): a second press or a card the action has moved past
changes nothing and is answered with render's words. Trips: a command or a
press 2 (read, write), plus 1 to remember the message of a new card or roll.

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
  (a blank one, or one of nothing visible, is none: the option gives None)
  the pool expression is the label.
- The −2 carried by a `cofd` dramatic failure passes to a new action with the
  same label in the channel when the last attempt at it ended carrying it.
- A card deleted by a moderator or a mis-click does not strand its action (the choices
  after a failure or an exceptional success are offered on the card alone): while the
  action is still to be played, the next change that brings its card up to date (a
  roll, a decision by command, Will or a Beat on its last roll) finds the message gone
  and posts the card afresh at the foot of the channel, and the action remembers the
  new message (of two that both find it gone, one card stays), as an initiative
  tracker's card comes back (bot.flows.initiative); so does a card whose message was
  never remembered. `/extended roll` refused because a decision is pending brings the
  card up to date the same way, so a deleted one comes back below the refusal. An ended
  action's card that is gone stays gone.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, Sent, UserError
from bot.flows.retry import until_written
from bot.flows.rolls import (
    ByName,
    ResistTarget,
    closed_edits,
    format_parts,
    read_action_roll,
    read_targets,
    refuse_npc,
)
from bot.render import extended as wording
from bot.render.buttons import (
    REFUSALS,
    beat_taken,
    cannot_roll,
    no_will,
    will_spent,
)
from bot.render.lang import _, speaking
from bot.render.message import Message
from bot.render.refusals import refusal_text
from bot.render.rolls import NpcUse, refusal_cause
from bot.render.text import message_link
from bot.store import Conflict, Tx
from bot.store.actions import ActionRepository
from bot.store.rolls import OpenRoll, RollRepository
from engine import will
from engine.constants import MAX_LABEL
from engine.models import Adjustment, RollResult, Ruleset
from engine.offers import beat_refusal, will_spend_refusal, will_state_for
from engine.parser import NamedPart
from engine.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelConfig,
    CharacterRecord,
    PressRefusal,
    RollRecord,
    WillPool,
    label_key,
)
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, spend_will, take_beat
from engine.roll import roll as roll_dice
from engine.table import actions, extended
from engine.table.extended import (
    MAX_UNIT,
    Choice,
    ExtendedAction,
    Interval,
    Status,
    stored_status,
)
from engine.text import visible_line

#: Most labels autocomplete offers (Discord's limit).
MAX_SUGGESTIONS: Final = 25
#: ``30 minutes``: a whole number, then a unit that starts with a letter.
_INTERVAL: Final = re.compile(r"\s*(?P<amount>[0-9]{1,6})\s*(?P<unit>[^\W\d_].*?)\s*")

T = TypeVar("T")


# --- what an action is, and who may act on it ----------------------------------------------


class _Pending(Exception):  # noqa: N818 (a refusal the flow answers, not an error)
    """`/extended roll` refused inside its write: the action waits for a decision only its
    card offers. Carries the action as that write read it, to redraw its card."""

    def __init__(self, record: ActionRecord, action: ExtendedAction, refusal: Refusal) -> None:
        super().__init__(refusal.code.value)
        self.record = record
        self.action = action
        self.refusal = refusal


def _action(record: ActionRecord) -> ExtendedAction:
    """The saved state, parsed in one place (rows saved before its schema version too)."""
    return record.state(ExtendedAction)


def _checked(
    record: ActionRecord | None,
    ctx: Ctx,
    storyteller: bool,
    version: int | None = None,
    stale: str = wording.STALE,
) -> tuple[ActionRecord, ExtendedAction]:
    """The action and its state, if it is this channel's (:meth:`Ctx.here`) and this member
    may act on it now (at ``version``: a card)."""
    if record is None or record.kind is not ActionKind.EXTENDED or not ctx.here(record):
        raise UserError(_(wording.GONE))
    action = _action(record)
    if record.owner_id != ctx.user_id and not storyteller:
        raise UserError(wording.not_allowed(action.owner_name))
    if not action.live:
        raise UserError(wording.ended(action.state.status))
    if record.status is ActionStatus.CLOSED:
        raise UserError(wording.ended(Status.ABANDONED))
    if version is not None and version != record.version:
        raise UserError(_(stale))
    return record, action


def _named(
    found: list[ActionRecord], ctx: Ctx, storyteller: bool, label: str | None
) -> ActionRecord:
    """Of the channel's open extended actions (``label``'s when given), the one a command
    means: by label, else the member's only one."""
    live = sorted((record for record in found if _action(record).live),
                  key=lambda record: record.id)
    if label is not None:
        if not live:
            raise UserError(wording.not_found(label))
        return live[0]
    mine = [record for record in live if record.owner_id == ctx.user_id]
    candidates = mine or (live if storyteller else [])
    if len(candidates) == 1:
        return candidates[0]
    raise UserError(_(wording.WHICH_ONE if candidates else wording.NONE_OPEN))


@dataclass(frozen=True, slots=True)
class Target:
    """The action a press (by id) or a command (by label) means, read in one trip."""

    config: ChannelConfig
    record: ActionRecord
    action: ExtendedAction
    pool: WillPool | None = None
    """The owner's Will pool, read for a roll that declares Will."""
    last_roll: RollRecord | None = None
    character: CharacterRecord | None = None
    """The acting member's active character (trait names in a roll's modifier)."""
    sheet: CharacterRecord | None = None
    """A roll's: the action's character, whose roll it is (an NPC's: :func:`refuse_npc`):
    the member's active one, else read for a member who is no Storyteller here only."""
    open_rolls: tuple[OpenRoll, ...] | None = None
    """The owner's open rolls here, read with a press's action for its roll to close
    (checked by the roll's write: RollRepository.close_and_insert)."""


def _read_target(
    tx: Tx,
    ctx: Ctx,
    *,
    action_id: int | None,
    label: str | None,
    version: int | None,
    stale: str = wording.STALE,
    rolling: bool = False,
    will: bool = False,
) -> Target:
    """Inside a read: the settings, the action checked for this member, and what a roll
    (``rolling``: the owner's Will pool too when it declares ``will``) or a decision
    needs besides."""
    open_rolls: tuple[OpenRoll, ...] | None = None
    newest: dict[int, RollRecord | None] = {}  # a decision's: each action's newest roll
    if action_id is not None and rolling:  # a roll's press: with its owner's open rolls
        (config, character), found, rolls = tx.queries.with_rows(
            ctx.config_query(character=True), ActionRepository.get_query(action_id),
            RollRepository.open_of_owner_query(ctx.guild_id, ctx.channel_id, action_id))
        open_rolls = tuple(rolls)
        storyteller = ctx.storyteller(config)
    elif action_id is not None:  # a button's: the settings, the action and its newest roll
        (config, character), found, last = tx.queries.with_rows(
            ctx.config_query(), ActionRepository.get_query(action_id),
            RollRepository.newest_in_action_query(action_id))
        newest[action_id] = next(iter(last), None)
        storyteller = ctx.storyteller(config)
    elif rolling:  # a roll's command: the settings beside the open actions it may mean
        (config, character), named = tx.queries.beside_rows(
            ctx.config_query(character=True),
            ActionRepository.find_open_query(
                ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED, label=label),
        )
        storyteller = ctx.storyteller(config)
        found = _named(named, ctx, storyteller, label)
    else:  # a decision's command: those actions, each beside its newest roll
        (config, character), pairs = tx.queries.beside_rows(
            ctx.config_query(),
            RollRepository.open_with_newest_query(
                ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED, label=label),
        )
        newest = {record.id: roll for record, roll in pairs}
        storyteller = ctx.storyteller(config)
        found = _named([record for record, _ in pairs], ctx, storyteller, label)
    record, action = _checked(found, ctx, storyteller, version, stale)
    if rolling:
        owner = record.owner_id
        kept = action.character_id
        sheet = (
            None if kept is None
            else character if character is not None and character.id == kept
            else None if storyteller  # any NPC is a Storyteller's to roll
            else tx.characters.get(kept)  # made another sheet active since: rare
        )
        return Target(
            config=config,
            record=record,
            action=action,
            pool=None if not will
            else sheet.will_pool() if sheet is not None  # the action's sheet, read already
            else tx.will.get(ctx.guild_id, owner, kept),
            character=character,
            sheet=sheet,
            open_rolls=open_rolls,
        )
    # The action's last roll is its newest, read with it; should the state name another,
    # that one is read (as it always was before).
    last_roll = newest.get(record.id)
    if last_roll is None or last_roll.id != action.last_roll_id:
        last_roll = None if action.last_roll_id is None else tx.rolls.get(action.last_roll_id)
    return Target(config=config, record=record, action=action, last_roll=last_roll)


def _card_edit(
    record: ActionRecord,
    action: ExtendedAction,
    version: int,
    config: ChannelConfig,
    card_id: int | None = None,
    *,
    deps: Deps,
) -> tuple[Edit, ...]:
    """The card brought up to date (its buttons carry the new version); while the action
    is still to be played, a card that was deleted, or whose message was never
    remembered, is posted again and remembered (the module's Decision).

    ``card_id``: the card's message when the press came from it, known even before the
    card's message id is stored (a press right after ``/extended start``).
    """
    message_id = record.message_id or card_id
    reposted = _remember_again(deps, record.id, record.message_id) if action.live else None
    if message_id is None and reposted is None:
        return ()
    return (Edit(record.channel_id, message_id,
                 wording.card_message(record, action, version, config), reposted=reposted),)


def _remember_again(
    deps: Deps, action_id: int, gone: int | None
) -> Callable[[int], Awaitable[bool]]:
    """Remember the card posted again in place of the deleted ``gone`` (None: of no message
    remembered): False when another took its place first or the action ended (that copy
    is then deleted)."""
    async def remember(message_id: int) -> bool:
        return await deps.store.write(
            lambda tx: tx.actions.replace_message(action_id, gone, message_id))

    return remember


# --- /extended start -------------------------------------------------------------------------


def _interval(value: str) -> Interval:
    """The interval as typed: a number and a unit the card shows, so the unit is safe text
    as a label is (:func:`engine.text.visible_line`): ``3`` and a Hangul filler (a
    letter to Unicode) read "every 3", a direction override turned the card around."""
    match = _INTERVAL.fullmatch(value)
    if match is None or len(match["unit"]) > MAX_UNIT or not visible_line(match["unit"]):
        raise UserError(wording.bad_interval(value))
    if int(match["amount"]) < 1:
        raise UserError(wording.zero_interval(value))
    return Interval(amount=int(match["amount"]), unit=match["unit"])


@dataclass(frozen=True, slots=True)
class _Starting:
    config: ChannelConfig
    character: CharacterRecord | None
    """The member's active character here (pools by trait name, Will)."""
    same: list[ActionRecord]
    """Open actions with this label (live, or waiting to see if their last roll changes)."""
    previous: ActionRecord | None
    """The last closed attempt at this task in the channel."""
    targets: tuple[CharacterRecord, ...] = ()
    """The characters a named ``resist`` reads (``resist_target``)."""


def _read_starting(tx: Tx, ctx: Ctx, name: str, target: ResistTarget | None) -> _Starting:
    """The settings and the member's character, the last attempt at the task and the open
    ones, in one statement (and the targets resisting it, when named)."""
    (config, character), previous, same = tx.queries.with_rows(
        ctx.config_query(character=True),
        ActionRepository.last_closed_query(
            ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED, label=name),
        ActionRepository.find_open_query(
            ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED, label=name),
    )
    return _Starting(
        config=config,
        character=character,
        targets=() if target is None else read_targets(tx, ctx, target),
        same=sorted(same, key=lambda record: record.id),
        previous=previous,
    )


def _keys(records: list[ActionRecord]) -> list[tuple[int, int]]:
    return [(record.id, record.version) for record in records]


async def start(
    deps: Deps,
    ctx: Ctx,
    pool: tuple[NamedPart, ...],
    *,
    options: Mapping[str, Any],
    spec: str | None = None,
    target: int | None = None,
    max_rolls: int | None = None,
    interval: str | None = None,
    label: str | None = None,
    skill: int | None = None,
    against: tuple[NamedPart, ...] | None = None,
    against_difficulty: int | None = None,
) -> Reply:
    """Start an extended action and post its card (a card settles earlier attempts at the
    same task whose last roll could still change).

    Trait names in ``pool`` and ``against`` are the member's active character's; with
    named Skills the sheet gives the `cofd` Skill dots (and the roll limit, Attribute +
    Skill + Specialty, follows from the named traits), and the action remembers the
    character, whose Will its rolls spend (RULES.md §6)."""
    # A blank or invisible label comes as None (bot.edge.transformers.Label): the pool names
    # the action, as when none is given.
    name = label or format_parts(pool)[:MAX_LABEL].strip()
    length = None if interval is None else _interval(interval)

    async def attempt() -> Reply:
        asked = ByName(pool, options, spec)
        read = await deps.store.read(
            lambda tx: _read_starting(tx, ctx, name, asked.target)
        )
        config, character = read.config, read.character
        request, resolved = asked.resolve(ctx, config, character, targets=read.targets)
        if against is None and against_difficulty is not None:
            raise UserError(_(wording.AGAINST_DIFFICULTY_ALONE))
        resisting = (
            None if against is None
            else ByName(against, {"difficulty": against_difficulty})
            .resolve(ctx, config, character)[0]
        )
        sheet_skill = (
            resolved.skill_dots
            if skill is None and config.ruleset is Ruleset.COFD and resolved.skills
            else skill
        )
        if any(_action(record).live for record in read.same):
            raise UserError(wording.duplicate(name))
        last = read.same[-1] if read.same else read.previous
        carry = (
            config.ruleset is Ruleset.COFD
            and last is not None
            and _action(last).state.carry
        )
        try:
            state = extended.start(
                request, target=target, max_rolls=max_rolls, skill=sheet_skill,
                interval=length, against=resisting, carry=carry,
            )
        except RuleError as error:
            raise UserError(wording.cannot_start(refusal_text(error.refusal))) from error
        action = ExtendedAction(
            state=state, owner_name=ctx.user_name,
            character_id=None if character is None else character.id,
            character_name=None if character is None else character.name,
        )

        def write(tx: Tx) -> ActionRecord:
            # as read (PostgreSQL has the server check them with COMMIT), else as they are
            same = tx.actions.find_open_as_read(
                ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED, label=name,
                as_read=read.same,
            )
            if _keys(same) != _keys(read.same):
                raise Conflict(None)  # started or changed meanwhile: read again
            for record in same:  # this new attempt settles them
                tx.actions.update(record.id, record.version, _action(record), ActionStatus.CLOSED)
            tx.queries.reserve(actions=1)  # stored with nothing read back (PostgreSQL)
            return tx.actions.create(
                ActionKind.EXTENDED,
                guild_id=ctx.guild_id,
                channel_id=ctx.channel_id,
                owner_id=ctx.user_id,
                label=name,
                state=action,
            )

        record = await deps.store.write(write)

        async def remember(sent: Sent) -> None:
            if sent.message_id is not None:
                message_id = sent.message_id
                await deps.store.write(lambda tx: tx.actions.attach_message(record.id, message_id))

        with speaking(ctx.public_voice(config)):
            return Reply(
                message=wording.card_message(
                    record, action, record.version, config,
                    content=wording.started(name, carried=carry),
                ),
                sent=remember,
            )

    try:
        return await until_written(attempt)
    except Conflict as conflict:
        raise UserError(str(conflict.reason)) from None


# --- rolling an interval ----------------------------------------------------------------------


def _rolled(result: RollResult) -> RollResult:
    """The result of a roll the engine made, or the refusal as the member's answer."""
    if result.refused:
        cause = refusal_cause(result.request, None)  # the table's penalties, and their remedy
        raise UserError(cannot_roll(refusal_text(result.refusal)) + cause)
    return result


async def _roll_interval(
    deps: Deps,
    ctx: Ctx,
    *,
    action_id: int | None = None,
    version: int | None = None,
    label: str | None = None,
    modifier: tuple[NamedPart, ...] = (),
    declare_will: bool = False,
) -> Reply:
    """Roll the next interval: the actor (and the resisting side), stored with the new state.

    Trait names in ``modifier`` are the acting member's active character's; Will is the
    action's character's (its owner's, when it was started with one).

    The dice are drawn inside the write, once it holds the action at the version read: two
    presses of one card roll once, and the second is told the card is out of date.
    """
    read = await deps.store.read(
        lambda tx: _read_target(
            tx, ctx, action_id=action_id, label=label, version=version, rolling=True,
            will=declare_will,
        )
    )
    config, record = read.config, read.record
    owner = record.owner_id
    refuse_npc(ctx, config, read.sheet, NpcUse.EXTENDED)  # the roll is the action's character's
    changes = (
        ByName(modifier).resolve(ctx, config, read.character)[0].terms if modifier else ()
    )
    if declare_will and read.pool is None and read.action.character_id is not None:
        # the action's sheet was deleted: no pool holds its Will (a character always has one)
        raise UserError(wording.will_sheet_gone(read.action.character_name or ""))
    if declare_will and read.pool is not None and not will.can_spend(read.pool):
        raise UserError(no_will(read.pool))  # before the dice: an empty pool rolls nothing

    def write(tx: Tx) -> tuple[RollRecord, ExtendedAction, int, list[RollRecord]]:
        # as read (PostgreSQL has the server check it with COMMIT), else as it is now
        now = record if tx.actions.still(record) else tx.actions.get(record.id)
        if action_id is None:
            # A command rolls the action as it stands now: members rolling it at once
            # each roll the next interval, none is told a card moved on.
            current, action = _checked(now, ctx, ctx.storyteller(config))
        elif now is None or now.version != record.version or now.status is ActionStatus.CLOSED:
            raise Conflict(_(wording.STALE))  # a second press, or a decision came first
        else:
            current, action = record, read.action
        state = action.state
        adjustments: tuple[Adjustment, ...] = ()
        taken = 0
        if state.ruleset is Ruleset.FISTFUL:
            taken = tx.attempts.turn_actions(ctx.guild_id, ctx.channel_id, owner,
                                             action.character_id)
            adjustments = actions.penalty(taken, config.fistful_step)
        try:
            request = extended.roll_request(
                state, changes, will=declare_will, adjustments=adjustments
            )
            resisting = None if state.against is None else extended.against_request(state)
        except RuleError as error:
            if action_id is None and error.refusal.code is RefusalCode.EXTENDED_DECISION_PENDING:
                raise _Pending(current, action, error.refusal) from error
            raise UserError(cannot_roll(refusal_text(error.refusal))) from error
        if declare_will and read.pool is not None \
                and tx.will.debit(ctx.guild_id, owner, action.character_id) is None:
            raise Conflict(no_will(read.pool.model_copy(update={"current": 0})))
        result = _rolled(roll_dice(request, deps.faces))
        against = None if resisting is None else _rolled(roll_dice(resisting, deps.faces))
        step = extended.apply_roll(state, result, against)
        roll, closed = tx.rolls.close_and_insert(
            open_as_read=read.open_rolls,
            guild_id=ctx.guild_id,
            channel_id=ctx.channel_id,
            roller_id=owner,
            roller_name=action.owner_name,
            result=result,
            will_state=will_state_for(result, config),
            label=current.label,
            action_id=current.id,
            character_id=action.character_id,
            character_name=action.character_name,
        )
        if state.ruleset is Ruleset.FISTFUL and not tx.attempts.save_turn_actions(
            ctx.guild_id, ctx.channel_id, owner, action.character_id, old=taken, new=taken + 1,
        ):
            # Another action of the character this turn was counted first: the write runs
            # again, reading the count and drawing anew, so that every action counts.
            raise Conflict(None)
        after = action.model_copy(
            update={
                "state": step.state,
                "last": step,
                "last_roll_id": roll.id,
                "against": against,
                "decision": None,
            }
        )
        new_version = tx.actions.update(
            current.id, current.version, after, stored_status(step.state, roll)
        )
        if new_version is None:
            raise Conflict(_(wording.STALE))
        return roll, after, new_version, closed

    try:
        roll, after, new_version, closed = await until_written(lambda: deps.store.write(write))
    except Conflict as conflict:
        raise UserError(str(conflict.reason)) from None
    except _Pending as pending:
        # Only the card offers the choices: it is brought up to date, and comes back at the
        # foot of the channel if it was deleted (the module's Decision). Nothing changed.
        refused = cannot_roll(refusal_text(pending.refusal))
        with speaking(ctx.public_voice(config)):
            edits = _card_edit(pending.record, pending.action, pending.record.version, config,
                               deps=deps)
        return Reply(message=Message(content=refused), ephemeral=True, edits=edits)

    async def remember(sent: Sent) -> None:
        if sent.message_id is not None:
            message_id = sent.message_id
            await deps.store.write(lambda tx: tx.rolls.attach_messages(roll.id, message_id))

    card_id = ctx.message_id if action_id is not None else None  # pressed on the card
    with speaking(ctx.public_voice(config)):
        return Reply(
            message=wording.roll_with_note(roll, record, after, config),
            edits=closed_edits(closed, config)
            + _card_edit(record, after, new_version, config, card_id, deps=deps),
            sent=remember,
        )


async def roll(
    deps: Deps,
    ctx: Ctx,
    *,
    label: str | None = None,
    modifier: tuple[NamedPart, ...] = (),
    declare_will: bool = False,
) -> Reply:
    """`/extended roll`: the next interval of the named action (or the member's only one)."""
    return await _roll_interval(
        deps, ctx, label=label, modifier=modifier, declare_will=declare_will
    )


# --- decisions --------------------------------------------------------------------------------


async def _decide(
    deps: Deps,
    ctx: Ctx,
    choice: Choice,
    *,
    action_id: int | None = None,
    version: int | None = None,
    label: str | None = None,
    condition: str | None = None,
    stale: str = wording.STALE,
) -> Reply:
    """Apply a decision; on the card it updates the card, by command it is said in the
    channel and the card follows."""
    read = await deps.store.read(
        lambda tx: _read_target(
            tx, ctx, action_id=action_id, label=label, version=version, stale=stale
        )
    )
    config, record, before = read.config, read.record, read.action
    if choice is Choice.WAIVE and not ctx.storyteller(config):
        raise UserError(_(wording.WAIVE_STORYTELLER))
    try:
        state = extended.choose(before.state, choice, condition)
    except RuleError as error:
        raise UserError(wording.cannot_choose(refusal_text(error.refusal))) from error
    after = before.model_copy(update={"state": state, "decision": choice})
    status = ActionStatus.OPEN if state.status is Status.OPEN else ActionStatus.CLOSED

    def write(tx: Tx) -> int:
        new_version = tx.actions.update(record.id, record.version, after, status)
        if new_version is None:
            raise Conflict(_(stale))
        return new_version

    try:
        new_version = await deps.store.write(write)
    except Conflict as conflict:
        raise UserError(str(conflict.reason)) from None
    with speaking(ctx.public_voice(config)):
        return _decided(ctx, read, after, new_version, choice,
                        pressed=action_id is not None, deps=deps)


def _decided(
    ctx: Ctx, read: Target, after: ExtendedAction, new_version: int, choice: Choice, *,
    pressed: bool, deps: Deps,
) -> Reply:
    """A decision's public answer: the card updated in place (pressed on the card or its
    form), or a line in the channel and the card brought up to date."""
    config, record, before = read.config, read.record, read.action
    edits: tuple[Edit, ...] = ()
    last_roll = read.last_roll
    if (
        last_roll is not None
        and last_roll.message_id is not None
        and extended.roll_offers(before, last_roll).any()
    ):
        # A decision settles the last roll: its Spend Will and Take a Beat no longer act.
        edits = (Edit(last_roll.channel_id, last_roll.message_id,
                      wording.settled_roll(last_roll, config)),)
    if ctx.message_id is not None and pressed:
        return Reply(
            message=wording.card_message(record, after, new_version, config),
            update=True,
            edits=edits,
        )
    said = Message(
        content=wording.decided(record.label, ctx.user_name, choice, after.state)
    )
    return Reply(message=said,
                 edits=edits + _card_edit(record, after, new_version, config, deps=deps))


async def abandon(deps: Deps, ctx: Ctx, *, label: str | None = None) -> Reply:
    """`/extended abandon`: said in the channel; the card shows it ended."""
    return await _decide(deps, ctx, Choice.ABANDON, label=label)


# --- /extended list and autocomplete ----------------------------------------------------------


def _live_in_channel(tx: Tx, ctx: Ctx) -> tuple[ChannelConfig, list[ActionRecord]]:
    """The settings and the channel's live extended actions, oldest first, in one
    statement."""
    (config, _nobody), found = tx.queries.beside_rows(
        ctx.config_query(),
        ActionRepository.find_open_query(ctx.guild_id, ctx.channel_id, kind=ActionKind.EXTENDED),
    )
    return config, sorted((record for record in found if _action(record).live),
                          key=lambda record: record.id)


async def list_open(deps: Deps, ctx: Ctx) -> Reply:
    """`/extended list`: the channel's open extended actions, to the member alone."""

    config, found = await deps.store.read(lambda tx: _live_in_channel(tx, ctx))
    listed = [
        wording.ListedAction(
            label=record.label,
            owner=_action(record).owner_name,
            state=_action(record).state,
            link=None if record.message_id is None
            else message_link(record.guild_id, record.channel_id, record.message_id),
        )
        for record in found
    ]
    return Reply(
        message=Message(content=wording.actions_list(listed, text_only=config.text_only)),
        ephemeral=True,
    )


async def open_labels(deps: Deps, ctx: Ctx, typed: str) -> list[str]:
    """Autocomplete: the labels containing ``typed`` of the channel's open extended actions
    the member may roll or decide (their own; every one for the Storyteller), so no
    suggestion leads to a refusal: a label the `label` option refuses (one kept before it
    refused a hidden character, bot.edge.transformers.LabelTransformer) is not offered."""

    config, found = await deps.store.read(lambda tx: _live_in_channel(tx, ctx))
    anyones = ctx.storyteller(config)
    key = label_key(typed)
    return [
        record.label[:MAX_LABEL] for record in found
        if (anyones or record.owner_id == ctx.user_id) and key in label_key(record.label)
        and visible_line(record.label)
    ][:MAX_SUGGESTIONS]


# --- buttons and the Condition form -----------------------------------------------------------


async def card_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """A card button (``sb1:ext:<choice>:<action id>:<version>``): roll, open the Condition
    form, or decide."""
    choice = Choice(press.action)
    if press.version is None:  # every card id carries one (see bot.edge.ids)
        raise UserError(_(wording.STALE))
    if choice is Choice.ROLL:
        return await _roll_interval(deps, ctx, action_id=press.key, version=press.version)
    if choice is Choice.TAKE_CONDITION:
        return await _open_form(deps, ctx, press.key, press.version)
    return await _decide(deps, ctx, choice, action_id=press.key, version=press.version)


async def _open_form(deps: Deps, ctx: Ctx, action_id: int, version: int) -> Reply:
    """Take a Condition: the form, if the card is current (checked again on submit)."""

    def read(tx: Tx) -> None:
        (config, _nobody), found = tx.queries.both(
            ctx.config_query(), ActionRepository.get_query(action_id))
        _checked(found, ctx, ctx.storyteller(config), version)

    await deps.store.read(read)
    return Reply(modal=wording.condition_form(action_id, version))


async def condition_submitted(
    deps: Deps, ctx: Ctx, press: Press, values: Mapping[str, str]
) -> Reply:
    """The Take a Condition form (``sb1:extcond:<action id>:<version>``): take the Condition
    named, if the action is still where the card was when the form opened."""
    name = values.get(wording.CONDITION_INPUT, "").strip()
    if not name:
        raise UserError(_(wording.EMPTY_CONDITION))
    return await _decide(
        deps, ctx, Choice.TAKE_CONDITION,
        action_id=press.key, version=press.version, condition=name, stale=wording.FORM_STALE,
    )


async def roll_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """Spend Will or Take a Beat on an extended roll (``sb1:extroll:<will|beat>:<roll id>``):
    the roll and the action change together.

    Will's dice are drawn inside the write, once it holds the roll and the action as they
    were read: a second press draws nothing and is told why.
    """
    beat = press.action == "beat"
    roll_id = press.key
    read = await deps.store.read(lambda tx: read_action_roll(tx, ctx, roll_id))

    def refusal(
        roll: RollRecord | None, pool: WillPool | None, sheet_gone: bool
    ) -> PressRefusal | None:
        if beat:
            return beat_refusal(roll, ctx.user_id, sheet_gone=sheet_gone)
        return will_spend_refusal(roll, ctx.user_id, pool, sheet_gone=sheet_gone)

    roll = read.roll
    refused = refusal(roll, read.pool, read.sheet_gone)
    if refused is not None or roll is None:
        raise UserError(_(REFUSALS[refused or PressRefusal.NOT_FOUND]))
    # its Will, or the Beat, is the NPC's
    refuse_npc(ctx, read.config, read.character, NpcUse.BEAT if beat else NpcUse.WILL)
    record = read.record
    if record is not None and record.kind is not ActionKind.EXTENDED:
        raise UserError(_(wording.GONE))  # a teamwork's or a contest's roll, by a forged id
    before = None if record is None else _action(record)
    if (
        record is None
        or before is None
        or record.status is ActionStatus.CLOSED
        or before.last_roll_id != roll_id
        or before.state.undo is None  # a decision followed it
    ):
        raise UserError(_(wording.ROLL_MOVED_ON))

    def write(tx: Tx) -> tuple[RollRecord, ExtendedAction, int, WillPool | None, int]:
        # The roll, its action, the pool and Beats it spends or adds to: one statement.
        pressed = tx.queries.one(RollRepository.pressed_query(roll_id))
        current, now = pressed.roll, pressed.action
        pool = (pressed.pool if current is not None and current.roller_id == record.owner_id
                else tx.will.get(record.guild_id, record.owner_id, roll.character_id))
        why = refusal(current, pool, pressed.sheet_gone)
        if why is not None:  # a second press came first (or the sheet went)
            raise Conflict(_(REFUSALS[why]))
        if now is None or now.version != record.version:
            raise Conflict(_(wording.ROLL_MOVED_ON))
        try:
            result = take_beat(roll.result) if beat else spend_will(roll.result, deps.faces)
            step = extended.revise(before.state, result, before.against)
        except RuleError as error:
            raise UserError(
                wording.cannot_revise(refusal_text(error.refusal), beat=beat)
            ) from error
        beats = 0
        if beat:
            changed = tx.rolls.take_beat(roll_id, ctx.user_id, result, read=current)
            if changed is None:
                raise Conflict(_(REFUSALS[PressRefusal.BEAT_TAKEN]))
            beats = tx.will.add_beat(changed.guild_id, changed.roller_id, changed.character_id,
                                     read=(pressed.beats, pressed.character))
        else:
            changed = tx.rolls.spend_will(roll_id, ctx.user_id, result, read=current)
            if changed is None:
                raise Conflict(_(REFUSALS[PressRefusal.ALREADY_SPENT]))
            if pool is not None:
                pool = tx.will.debit(record.guild_id, record.owner_id, roll.character_id,
                                     read=pool)
        after = before.model_copy(update={"state": step.state, "last": step})
        new_version = tx.actions.update(
            record.id, record.version, after, stored_status(step.state, changed)
        )
        if new_version is None:
            raise Conflict(_(wording.ROLL_MOVED_ON))
        return changed, after, new_version, pool, beats

    try:
        changed, after, new_version, pool, beats = await deps.store.write(write)
    except Conflict as conflict:
        raise UserError(str(conflict.reason)) from None
    config = read.config
    followup = (
        beat_taken(beats, on_sheet=changed.character_id is not None) if beat
        else None if pool is None
        else will_spent(pool)
    )
    with speaking(ctx.public_voice(config)):
        return Reply(
            message=wording.roll_with_note(changed, record, after, config),
            update=True,
            followups=() if followup is None else ((Message(content=followup), True),),
            edits=_card_edit(record, after, new_version, config, deps=deps),
        )
