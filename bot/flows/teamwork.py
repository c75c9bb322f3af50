"""`/teamwork start|help|roll|cancel`, the card's buttons, the Help form, the helpers' rolls.

Each flow gathers what it needs in one read, asks the engine
(:mod:`engine.table.teamwork`: the state machine and its refusals), and writes
what it decided in one transaction whose update names the action's version it
read. A roll that depends on the teamwork as it stands (a helper's, the
primary's) is drawn inside that transaction, after the version is checked, so
two presses that arrive together never both act and no dice are drawn for the
one that loses: it reads again and is told why nothing changed.

A card pressed after the action moved on is redrawn in place as it stands,
and the member is told why nothing changed. Every roll is posted as its own
message; a helper's offers Spend Will and Take a Beat like any roll, and their
effect reaches the card's bonus (:func:`engine.table.teamwork.revised`). The moves
that end a teamwork (the primary's roll, cancelling) read the channel's open rolls with
the action, and settle the helpers' messages whose buttons can no longer change anything.

The primary's roll of a teamwork the primary labelled is an attempt at that action: it
pays the successive-attempt penalty of the primary's earlier failures at the label and
counts as one more (RULES.md §1, §2: same player, channel and label), as a roll or a
contest of that label does, so a failed `/roll` and a teamwork at one door add up. A
helper's roll attempts nothing of theirs, and a teamwork named after its primary by
default names no action.

**Decision**: the primary's roll is the character the teamwork was started with, whose
sheet gave its pool, whichever sheet the primary has made active since: its Will pays
what was declared, its actions this turn count, its name is on the roll (as an extended
action's rolls are its character's). With that sheet deleted since, a roll started with
Will is refused (no pool holds it) and the primary is told to cancel.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, Sent, UserError
from bot.flows.retry import until_written
from bot.flows.rolls import (
    ActionRoll,
    Ahead,
    Ask,
    ByName,
    Table,
    asked_request,
    closed_edits,
    count_roll,
    gather,
    read_action_roll,
    read_table,
    refuse_npc,
    sheet_words,
    spend_will_in,
    standing_beside,
    take_beat_in,
    with_table_state,
)
from bot.flows.scene import close_open
from bot.render.buttons import REFUSALS, beat_taken, no_beat, no_will_for_teamwork, will_spent
from bot.render.buttons import cannot_spend_will as cannot_spend_will_text
from bot.render.contest import DIFFICULTY_FIELD, POOL_FIELD, not_a_difficulty, pool_form
from bot.render.lang import _, speaking
from bot.render.message import Message
from bot.render.messages import unreadable_pool
from bot.render.refusals import refusal_text
from bot.render.rolls import NpcUse, refusal_cause
from bot.render.teamwork import (
    HELP_FORM_TITLE,
    NO_OPEN_TEAMWORK,
    NONE_OF_YOURS,
    OWN_ACTION,
    STALE_CARD,
    TEAMWORK_GONE,
    already_open,
    blocked_text,
    cancelled_notice,
    cannot_help,
    cannot_roll,
    cannot_start,
    card_message,
    default_label,
    helper_roll_message,
    no_teamwork_called,
    primary_roll_message,
    several_open,
    will_sheet_gone,
)
from bot.store import Conflict, Tx
from bot.store.actions import ActionRepository
from bot.store.attempts import Acting
from bot.store.characters import CharacterRepository
from bot.store.rolls import RollRepository
from engine import will
from engine.models import RollRequest, RollResult, Ruleset
from engine.offers import beat_refusal, offers, will_spend_refusal, will_state_for
from engine.parser import NamedPart, PoolSyntaxError, parse_pool_names
from engine.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelConfig,
    CharacterRecord,
    PressRefusal,
    RollRecord,
    WillPool,
    WillState,
)
from engine.roll import RuleError
from engine.roll import roll as roll_dice
from engine.table import teamwork
from engine.table.teamwork import Blocked, Move, TeamworkAction

# --- reading ----------------------------------------------------------------------------------


def _teamwork(record: ActionRecord | None) -> ActionRecord:
    """The record, if it is a teamwork (a forged or stale key is not)."""
    if record is None or record.kind is not ActionKind.TEAMWORK:
        raise UserError(_(TEAMWORK_GONE))
    return record


def _here(record: ActionRecord | None, ctx: Ctx) -> ActionRecord | None:
    """The action a card's button or the Help form names by its key, if it is this
    channel's (:meth:`Ctx.here`)."""
    return record if record is not None and ctx.here(record) else None


def _state(record: ActionRecord) -> TeamworkAction:
    """The one place a teamwork's saved state is parsed."""
    return record.state(TeamworkAction)


def _card_edit(
    record: ActionRecord, action: TeamworkAction, config: ChannelConfig, pressed: int | None
) -> tuple[Edit, ...]:
    """The card brought up to date (its message id, or the message pressed if it is not
    remembered yet)."""
    message_id = record.message_id or pressed
    if message_id is None:
        return ()
    return (Edit(record.channel_id, message_id, card_message(record, action, config)),)


def _out_of_date(ctx: Ctx, record: ActionRecord, config: ChannelConfig, why: str) -> Reply:
    """A card pressed after the action moved on: redrawn in place (in the table's language),
    and why nothing changed (``why``: in the member's own)."""
    with speaking(ctx.public_voice(config)):
        message = card_message(record, _state(record), config)
    return Reply(message=message, update=True, followups=((Message(content=why), True),))


def _find(records: list[ActionRecord], ctx: Ctx, label: str | None, *, own: bool) -> ActionRecord:
    """The open teamwork a command means: the one called ``label``, else the only one that
    is the member's own (``own``) or that the member could help (not ``own``)."""
    if label is not None and not records:
        raise UserError(no_teamwork_called(label))
    found = records
    if label is None:
        if not records:
            raise UserError(_(NO_OPEN_TEAMWORK))
        found = [record for record in records if (record.owner_id == ctx.user_id) == own]
        if not found:  # only others' are open (to roll or cancel), or only theirs (to help)
            raise UserError(_(NONE_OF_YOURS if own else OWN_ACTION))
    if len(found) > 1:
        raise UserError(several_open([record.label for record in found]))
    return found[0]


def _open_teamwork(tx: Tx, ctx: Ctx, label: str | None) -> list[ActionRecord]:
    return tx.actions.find_open(ctx.guild_id, ctx.channel_id, kind=ActionKind.TEAMWORK, label=label)


@dataclass(frozen=True, slots=True)
class _Gathered:
    """A teamwork and the member's table state, read in one trip."""

    table: Table
    record: ActionRecord | None
    """The action (by id), or the one a command means (None when it names none)."""
    candidates: list[ActionRecord]
    """For a command: the channel's open teamwork actions it may mean."""
    character: CharacterRecord | None
    """The member's active character: a helper's trait names, the primary's Will."""
    ahead: Ahead
    """The member's standing and open rolls, which their roll's write has checked."""
    helpers_open: tuple[RollRecord, ...] = ()
    """When asked (a move that ends the teamwork): the helpers' rolls in the action that
    are still open, whose buttons it settles."""


Which = Callable[[Tx], list[ActionRecord]] | int
"""A command's search for its teamwork, or the action id a button or form carries."""


def _id(character: CharacterRecord | None) -> int | None:
    return None if character is None else character.id


RolledAs = tuple[int | None, str | None]
"""The character a roll is made as (its id and name; None: the member's own roll)."""


def _as(character: CharacterRecord | None) -> RolledAs:
    return (None, None) if character is None else (character.id, character.name)


async def _gather(deps: Deps, ctx: Ctx, which: Which, *, ending: bool = False) -> _Gathered:
    """``ending``: a move that ends the teamwork reads the channel's open rolls (the
    member's among them, as their own read would answer them), for the helpers'."""

    def read(tx: Tx) -> _Gathered:
        # the settings, the member's standing and open rolls in one statement; a button's
        # action too
        settings, standing = ctx.config_query(character=True), standing_beside(ctx)
        rolls = (RollRepository.channel_open_query(ctx.guild_id, ctx.channel_id) if ending
                 else RollRepository.open_query(ctx.guild_id, ctx.channel_id, ctx.user_id))
        if isinstance(which, int):
            (config, character), now, keyed, open_rolls = tx.queries.three_with_rows(
                settings, standing, ActionRepository.get_query(which), rolls)
            record, candidates = _here(keyed, ctx), []
        else:
            (config, character), now, open_rolls = tx.queries.with_rows(
                settings, standing, rolls)
            record, candidates = None, which(tx)
        # the active character's Will from its sheet, read with the settings
        table = read_table(tx, ctx, config, None, _id(character), read=now, sheet=character,
                           sheet_read=True)
        read_rolls = [(roll, roll.record) for roll in open_rolls]
        own = tuple(roll for roll, parsed in read_rolls if parsed.roller_id == ctx.user_id)
        others = tuple(parsed for _roll, parsed in read_rolls
                       if parsed.roller_id != ctx.user_id and parsed.action_id is not None)
        return _Gathered(table, record, candidates, character, Ahead(None, now, own), others)

    return await deps.store.read(read)


def _settled_helpers(
    gathered: _Gathered, record: ActionRecord, config: ChannelConfig
) -> tuple[Edit, ...]:
    """The helpers' roll messages whose Spend Will or Take a Beat the teamwork's end leaves
    with nothing to change: drawn without them (a message whose buttons stay as they were
    is left alone, each edit being a call to Discord)."""
    return tuple(
        Edit(roll.channel_id, roll.message_id, helper_roll_message(roll, config, settled=True))
        for roll in gathered.helpers_open
        if roll.action_id == record.id and roll.message_id is not None and not roll.private
        and (offers(roll).will or offers(roll).beat)
    )


# --- starting ---------------------------------------------------------------------------------


async def start(
    deps: Deps, ctx: Ctx, ask: Ask | ByName, *, label: str | None, helper_limit: int | None
) -> Reply:
    """`/teamwork start`: post a new teamwork card for the member's request (trait names
    from the member's active character)."""
    gathered = await deps.store.read(lambda tx: gather(tx, ctx, ask))
    config = gathered.config
    request = asked_request(ask, ctx, gathered)
    try:
        action = teamwork.opened(
            request, ctx.user_id, ctx.user_name, helper_limit, labelled=label is not None,
            character=None if gathered.character is None
            else (gathered.character.id, gathered.character.name))
    except RuleError as error:
        raise UserError(cannot_start(refusal_text(error.refusal))) from error
    with speaking(ctx.public_voice(config)):  # the table reads the label, and types it
        # A blank or invisible label comes as None (bot.edge.transformers.Label): it would
        # title the card with nothing.
        name = label or default_label(ctx.user_name)

    def write(tx: Tx) -> ActionRecord:
        created = tx.actions.create(  # none open of that name: one statement
            ActionKind.TEAMWORK, guild_id=ctx.guild_id, channel_id=ctx.channel_id,
            owner_id=ctx.user_id, label=name, state=action, unless_open=True,
        )
        if created is None:
            raise Conflict(None)
        return created

    try:
        record = await deps.store.write(write)
    except Conflict:
        raise UserError(already_open(name)) from None

    async def remember(sent: Sent) -> None:
        if sent.message_id is not None:
            message_id = sent.message_id
            await deps.store.write(lambda tx: tx.actions.attach_message(record.id, message_id))

    with speaking(ctx.public_voice(config)):
        return Reply(message=card_message(record, action, config), sent=remember)


# --- helping ----------------------------------------------------------------------------------


async def help_command(
    deps: Deps, ctx: Ctx, terms: tuple[NamedPart, ...], *, label: str | None,
    difficulty: int | None,
) -> Reply:
    """`/teamwork help`: roll the member's pool for the open teamwork (as the Help form);
    trait names are the helper's own active character's."""
    return await _help(
        deps, ctx, lambda tx: _open_teamwork(tx, ctx, label), terms, difficulty, label=label
    )


async def help_form(
    deps: Deps, ctx: Ctx, action_id: int, values: Mapping[str, str]
) -> Reply:
    """The Help form: the helper's pool (and `v20` difficulty) as typed."""
    terms, difficulty = read_form(values)
    return await _help(deps, ctx, action_id, terms, difficulty, label=None)


def read_form(values: Mapping[str, str]) -> tuple[tuple[NamedPart, ...], int | None]:
    """The pool form's values: the pool as `pool:` options read it (trait names kept, for
    the member's sheet), and the difficulty (None when left empty; the engine checks its
    range)."""
    try:
        terms = parse_pool_names(values.get(POOL_FIELD, ""))
    except PoolSyntaxError as error:
        raise UserError(unreadable_pool(refusal_text(error.refusal))) from error
    text = values.get(DIFFICULTY_FIELD, "").strip()
    if not text:
        return terms, None
    try:
        return terms, int(text)
    except ValueError:
        raise UserError(not_a_difficulty(text)) from None


async def _help(
    deps: Deps,
    ctx: Ctx,
    which: Which,
    terms: tuple[NamedPart, ...],
    difficulty: int | None,
    *,
    label: str | None,
) -> Reply:
    async def attempt() -> Reply:
        gathered = await _gather(deps, ctx, which)
        table = gathered.table
        record = _teamwork(
            gathered.record if isinstance(which, int)
            else _find(gathered.candidates, ctx, label, own=False)
        )
        action = _state(record)
        reason = teamwork.blocked(action, Move.HELP, ctx.user_id)
        if reason is not None:
            raise UserError(blocked_text(reason, action))
        asked, _resolved = ByName(terms, {"difficulty": difficulty}).resolve(
            ctx, table.config, gathered.character, action.teamwork.request.ruleset)
        character = gathered.character

        def write(
            tx: Tx, record: ActionRecord = record, action: TeamworkAction = action,
            table: Table = table, asked: RollRequest = asked, *,
            character: CharacterRecord | None = character, ahead: Ahead = gathered.ahead,
        ) -> tuple[ActionRecord, TeamworkAction, RollRecord, list[RollRecord]]:
            _still(tx, record)
            try:
                request = teamwork.helper_request(action.teamwork, ctx.user_id, asked)
            except RuleError as error:
                raise UserError(cannot_help(refusal_text(error.refusal))) from error
            # the counters as they stand (as read, checked)
            table = read_table(tx, ctx, table.config, None, _id(character), request=request,
                               ahead=ahead)
            result = roll_dice(with_table_state(request, table), deps.faces)
            if result.refused:  # said with the table's penalties that led there, as a roll's
                raise UserError(cannot_help(refusal_text(result.refusal))
                                + refusal_cause(result.request, None))
            after = teamwork.helped(action, ctx.user_id, ctx.user_name, result)
            version = tx.actions.update(record.id, record.version, after)
            if version is None:
                raise Conflict(None)
            rolled, closed = _stored(tx, ctx, record, result, acting=_as(character),
                                     table=table, ahead=ahead, attempt=None,
                                     will_state=will_state_for(result, table.config))
            return record.saved(after, version, ActionStatus.OPEN), after, rolled, closed

        # The teamwork moved since it was read (Conflict(None)): until_written reads again.
        saved, after, rolled, closed = await deps.store.write(write)
        config = table.config
        pressed = ctx.message_id if isinstance(which, int) else None
        with speaking(ctx.public_voice(config)):
            return Reply(
                message=helper_roll_message(rolled, config),
                edits=(*closed_edits(closed, config), *_card_edit(saved, after, config, pressed)),
                sent=_remember_roll(deps, rolled.id),
            )
    return await until_written(attempt)


def _still(tx: Tx, record: ActionRecord) -> None:
    """Inside a write, before any dice: the action is still at the version read."""
    if record.status is not ActionStatus.OPEN or not tx.actions.still(record):
        raise Conflict(None)


def _stored(
    tx: Tx, ctx: Ctx, record: ActionRecord, result: RollResult, *,
    acting: RolledAs, table: Table, ahead: Ahead, attempt: str | None, will_state: WillState,
) -> tuple[RollRecord, list[RollRecord]]:
    """Inside a helper's or the primary's write: the member's counters after the roll (the
    successive attempts at ``attempt``, the action the roll attempts: the primary's, when
    the teamwork was labelled), their open rolls here closed (as read ahead) and the roll
    stored under the teamwork's label; the roll and the rolls closed."""
    count_roll(tx, ctx, table, attempt, result)
    return tx.rolls.close_and_insert(
        open_as_read=ahead.open,
        guild_id=ctx.guild_id, channel_id=ctx.channel_id, roller_id=ctx.user_id,
        roller_name=ctx.user_name, result=result, will_state=will_state,
        label=record.label, action_id=record.id, character_id=acting[0],
        character_name=acting[1],
    )


def _attempt(record: ActionRecord, action: TeamworkAction) -> str | None:
    """The action the primary's roll attempts, for successive attempts: the teamwork's
    label when the primary gave one (None: a default label names no action)."""
    return record.label if action.labelled else None


def _remember_roll(deps: Deps, roll_id: int) -> Callable[[Sent], Awaitable[None]]:
    async def remember(sent: Sent) -> None:
        if sent.message_id is not None:
            message_id = sent.message_id
            await deps.store.write(lambda tx: tx.rolls.attach_messages(roll_id, message_id))

    return remember


# --- the primary's roll -----------------------------------------------------------------------


async def roll_command(deps: Deps, ctx: Ctx, *, label: str | None) -> Reply:
    """`/teamwork roll`: the member's teamwork, rolled with the helpers' bonus so far."""
    return await _roll(
        deps, ctx, lambda tx: _open_teamwork(tx, ctx, label), version=None, label=label
    )


async def _roll(
    deps: Deps, ctx: Ctx, which: Which, *, version: int | None, label: str | None
) -> Reply:
    async def attempt() -> Reply:
        gathered = await _gather(deps, ctx, which, ending=True)
        table = gathered.table
        config = table.config
        record = _teamwork(
            gathered.record if isinstance(which, int)
            else _find(gathered.candidates, ctx, label, own=True)
        )
        action = _state(record)
        reason = teamwork.blocked(action, Move.ROLL, ctx.user_id)
        if reason is Blocked.OVER and version is not None:
            return _out_of_date(ctx, record, config, blocked_text(reason, action))
        if reason is not None:
            raise UserError(blocked_text(reason, action))
        if version is not None and version != record.version:
            return _out_of_date(ctx, record, config, _(STALE_CARD))
        acting = _as(gathered.character)  # Will declared is the primary's character's
        sheet = gathered.character
        kept = action.character_id
        fresh = kept is not None and kept != acting[0]
        if kept is not None and fresh:
            # The primary made another sheet active since the start (or deleted this one):
            # the roll is still the kept character's, its Will and its actions this turn
            # read now (what was read ahead is the active sheet's) with its sheet, which
            # holds that Will, in one statement. A rare extra trip.
            def reread(tx: Tx, kept: int = kept) -> tuple[Table, CharacterRecord | None]:
                standing, kept_sheet = tx.queries.both(
                    standing_beside(ctx, acting=Acting.as_character(kept)),
                    CharacterRepository.get_query(kept))
                return (read_table(tx, ctx, config, None, kept, read=standing,
                                   sheet=kept_sheet, sheet_read=True), kept_sheet)

            table, sheet = await deps.store.read(reread)
            acting = (kept, action.character_name)
        # the roll would be the NPC's (its Will, its name)
        refuse_npc(ctx, config, sheet, NpcUse.TEAMWORK)
        request = with_table_state(teamwork.primary_request(action.teamwork), table)
        if request.will and table.pool is not None and not will.can_spend(table.pool):
            # before the dice: an empty pool rolls nothing
            raise UserError(no_will_for_teamwork(table.pool))

        def write(
            tx: Tx, record: ActionRecord = record, action: TeamworkAction = action,
            table: Table = table, *, acting: RolledAs = acting, ahead: Ahead = gathered.ahead,
            fresh: bool = fresh,
        ) -> tuple[ActionRecord, TeamworkAction, RollRecord, list[RollRecord]]:
            _still(tx, record)
            primary = teamwork.primary_request(action.teamwork)
            # the counters as they stand (as read, checked; the failures at a labelled
            # teamwork's action read here: a press knows its label only now)
            attempt = _attempt(record, action)
            table = read_table(tx, ctx, table.config, attempt, acting[0],
                               request=primary, ahead=None if fresh else ahead)
            if primary.will and acting[0] is not None and table.pool is None:
                # the character's sheet was deleted: no pool holds the Will declared
                raise UserError(will_sheet_gone(acting[1] or ""))
            request = with_table_state(primary, table)
            result = roll_dice(request, deps.faces)
            if result.refused:
                cause = refusal_cause(request, record.label)
                raise UserError(cannot_roll(refusal_text(result.refusal)) + cause)
            if request.will and table.pool is not None \
                    and tx.will.debit(ctx.guild_id, ctx.user_id, acting[0],
                                      read=table.pool) is None:
                raise Conflict(PressRefusal.NO_WILL)
            after = teamwork.rolled(action, ctx.user_id, result)
            new_version = tx.actions.update(
                record.id, record.version, after, ActionStatus.CLOSED
            )
            if new_version is None:
                raise Conflict(None)
            rolled, closed = _stored(
                tx, ctx, record, result, acting=acting, table=table, ahead=ahead,
                attempt=attempt, will_state=will_state_for(result, table.config),
            )
            saved = record.saved(after, new_version, ActionStatus.CLOSED)
            return saved, after, rolled, closed

        try:
            saved, after, rolled, closed = await deps.store.write(write)
        except Conflict as conflict:
            if conflict.reason is PressRefusal.NO_WILL and table.pool is not None:
                empty = table.pool.model_copy(update={"current": 0})
                raise UserError(no_will_for_teamwork(empty)) from None
            raise
        pressed = ctx.message_id if version is not None else None
        with speaking(ctx.public_voice(config)):
            return Reply(
                message=primary_roll_message(rolled, config),
                edits=(*closed_edits(closed, config), *_settled_helpers(gathered, saved, config),
                       *_card_edit(saved, after, config, pressed)),
                sent=_remember_roll(deps, rolled.id),
            )
    return await until_written(attempt)


# --- cancelling -------------------------------------------------------------------------------


async def cancel_command(deps: Deps, ctx: Ctx, *, label: str | None) -> Reply:
    """`/teamwork cancel`: the primary (or the Storyteller, by label) cancels; nobody rolls."""
    return await _cancel(
        deps, ctx, lambda tx: _open_teamwork(tx, ctx, label), version=None, label=label
    )


async def _cancel(
    deps: Deps, ctx: Ctx, which: Which, *, version: int | None, label: str | None
) -> Reply:
    gathered = await _gather(deps, ctx, which, ending=True)
    config = gathered.table.config
    record = _teamwork(
        gathered.record if isinstance(which, int)
        else _find(gathered.candidates, ctx, label, own=True)
    )
    action = _state(record)
    reason = teamwork.blocked(action, Move.CANCEL, ctx.user_id,
                              storyteller=ctx.storyteller(config))
    if reason is Blocked.OVER and version is not None:
        return _out_of_date(ctx, record, config, blocked_text(reason, action))
    if reason is not None:
        raise UserError(blocked_text(reason, action))
    if version is not None and version != record.version:
        return _out_of_date(ctx, record, config, _(STALE_CARD))
    after = teamwork.cancelled(action, ctx.user_id, storyteller=ctx.storyteller(config))

    def write(tx: Tx) -> ActionRecord:
        new_version = tx.actions.update(record.id, record.version, after, ActionStatus.CLOSED)
        if new_version is None:
            now = tx.actions.get(record.id)
            raise Conflict(now or record)
        return record.saved(after, new_version, ActionStatus.CLOSED)

    try:
        saved = await deps.store.write(write)
    except Conflict as conflict:
        now = conflict.reason if isinstance(conflict.reason, ActionRecord) else record
        if version is None:
            raise UserError(blocked_text(Blocked.OVER, _state(now))) from None
        current = _state(now)
        why = (
            blocked_text(Blocked.OVER, current)
            if current.status is not teamwork.Status.OPEN else _(STALE_CARD)
        )
        return _out_of_date(ctx, now, config, why)
    with speaking(ctx.public_voice(config)):
        message = card_message(saved, after, config)
        settled = _settled_helpers(gathered, saved, config)
        if version is not None:  # the card's own button: redrawn in place
            return Reply(message=message, update=True, edits=settled)
        return Reply(
            message=Message(content=cancelled_notice(saved.label, ctx.user_name)),
            edits=(*settled, *_card_edit(saved, after, config, None)),
        )


# --- the card's buttons and the Help form -----------------------------------------------------


async def card_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """Help, Roll or Cancel on a teamwork card (``sb1:team:<action>:<id>:<version>``)."""
    version = press.version or 0
    if press.action == "roll":
        return await _roll(deps, ctx, press.key, version=version, label=None)
    if press.action == "cancel":
        return await _cancel(deps, ctx, press.key, version=version, label=None)
    return await help_pressed(deps, ctx, press.key, version)


async def help_pressed(deps: Deps, ctx: Ctx, action_id: int, version: int) -> Reply:
    """Help: open the form for the helper's pool (nothing changes until it is submitted)."""
    gathered = await _gather(deps, ctx, action_id)
    config = gathered.table.config
    record = _teamwork(gathered.record)
    action = _state(record)
    reason = teamwork.blocked(action, Move.HELP, ctx.user_id)
    if reason is Blocked.OVER:
        return _out_of_date(ctx, record, config, blocked_text(reason, action))
    if reason is None and version != record.version:
        return _out_of_date(ctx, record, config, _(STALE_CARD))
    if reason is not None:
        raise UserError(blocked_text(reason, action))
    return Reply(
        modal=pool_form(
            "help", action_id, title=HELP_FORM_TITLE,
            ask_difficulty=action.teamwork.request.ruleset is Ruleset.V20,
            pool=sheet_words(action.teamwork.request.terms),
        )
    )


async def form_submitted(
    deps: Deps, ctx: Ctx, press: Press, values: Mapping[str, str]
) -> Reply:
    """The Help form (``sb1:form:help:<action id>``)."""
    return await help_form(deps, ctx, press.key, values)


# --- a helper's Spend Will and Take a Beat ----------------------------------------------------


async def helper_roll_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """Spend Will or Take a Beat on a helper's roll, or the primary's
    (``sb1:helproll:<will|beat>:<roll id>``)."""
    if press.action == "will":
        return await helper_spend_will(deps, ctx, press.key)
    return await helper_take_beat(deps, ctx, press.key)


def _helper_state(state: ActionRoll, ctx: Ctx) -> tuple[RollRecord, ActionRecord, TeamworkAction]:
    """The roll, its teamwork and its state, if the teamwork still counts this roll."""
    if state.roll is None:
        raise UserError(_(REFUSALS[PressRefusal.NOT_FOUND]))
    record = _teamwork(state.record)
    action = _state(record)
    reason = teamwork.blocked(action, Move.REVISE, state.roll.roller_id)
    if reason is not None and state.roll.roller_id == ctx.user_id:
        raise UserError(blocked_text(reason, action))
    return state.roll, record, action


def _revise_in(
    tx: Tx, record: ActionRecord, now: ActionRecord | None, member_id: int, result: RollResult
) -> tuple[ActionRecord, TeamworkAction]:
    """Inside a write: the teamwork ``record`` as it stands now (``now``, read in this
    write: other helpers may have joined since the press was read), with the helper's
    roll read again; or, the teamwork rolled (closed), the primary's roll read again."""
    if now is None:
        raise Conflict(record)
    action = _state(now)
    if teamwork.blocked(action, Move.REVISE, member_id) is not None:
        raise Conflict(now)
    after = teamwork.revised(action, member_id, result)
    version = tx.actions.update(now.id, now.version, after, now.status, was=now.status)
    if version is None:  # cannot happen inside one transaction; refuse rather than guess
        raise Conflict(now)
    return now.saved(after, version, now.status), after


def _refused(conflict: Conflict) -> UserError:
    reason = conflict.reason
    if isinstance(reason, ActionRecord):
        action = _state(reason)
        return UserError(blocked_text(teamwork.blocked(action, Move.REVISE, 0) or Blocked.OVER,
                                      action))
    if isinstance(reason, PressRefusal):
        return UserError(_(REFUSALS[reason]))
    return UserError(_(REFUSALS[PressRefusal.BUSY]))


def _helper_updated(
    ctx: Ctx, roll: RollRecord, saved: ActionRecord, after: TeamworkAction,
    config: ChannelConfig,
) -> tuple[Message, tuple[Edit, ...]]:
    """The helper's (or the primary's) roll and the card, in the table's language."""
    with speaking(ctx.public_voice(config)):
        drawn = (primary_roll_message if roll.roller_id == after.teamwork.primary_id
                 else helper_roll_message)
        return drawn(roll, config), _card_edit(saved, after, config, None)


async def helper_spend_will(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Spend Will on a helper's roll: the roll is read again, and the card's bonus follows;
    on the primary's, the teamwork's result. The Will dice are drawn in the write, on the
    roll as it stands then (a Beat may have landed since the press was read)."""
    state = await deps.store.read(lambda tx: read_action_roll(tx, ctx, roll_id))
    refused = will_spend_refusal(state.roll, ctx.user_id, state.pool,
                                 sheet_gone=state.sheet_gone)
    if refused is not None:
        raise UserError(_(REFUSALS[refused]))
    refuse_npc(ctx, state.config, state.character, NpcUse.WILL)  # its Will is the NPC's
    roll, record, _action = _helper_state(state, ctx)

    def write(tx: Tx) -> tuple[RollRecord, WillPool | None, ActionRecord, TeamworkAction]:
        # The roll, its pool and the teamwork as they stand: one statement.
        pressed = tx.queries.one(RollRepository.pressed_query(roll_id))
        changed, pool = spend_will_in(tx, ctx, state.config, pressed, deps.faces)
        saved, after = _revise_in(tx, record, pressed.action, roll.roller_id, changed.result)
        attempt = _attempt(saved, after) if roll.roller_id == after.teamwork.primary_id else None
        if attempt and changed.result.succeeded:
            # Successive attempts reset when the action succeeds, Will included (as a roll's).
            tx.attempts.reset(changed.guild_id, changed.channel_id, changed.roller_id, attempt)
        return changed, pool, saved, after

    try:
        changed, pool, saved, after = await deps.store.write(write)
    except Conflict as conflict:
        raise _refused(conflict) from None
    except RuleError as error:
        raise UserError(cannot_spend_will_text(refusal_text(error.refusal))) from error
    message, edits = _helper_updated(ctx, changed, saved, after, state.config)
    followups = () if pool is None else ((Message(content=will_spent(pool)), True),)
    return Reply(message=message, update=True, followups=followups, edits=edits)


async def helper_take_beat(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Take a Beat on a helper's failure: it becomes a dramatic failure, and the card's
    bonus follows (a helper's dramatic failure costs the primary dice); on the primary's,
    the teamwork's result. Decided in the write, on the roll as it stands then (a Spend
    Will that landed since the press was read may have made it a success)."""
    state = await deps.store.read(lambda tx: read_action_roll(tx, ctx, roll_id))
    refused = beat_refusal(state.roll, ctx.user_id, sheet_gone=state.sheet_gone)
    if refused is not None:
        raise UserError(_(REFUSALS[refused]))
    refuse_npc(ctx, state.config, state.character, NpcUse.BEAT)  # the Beat would be the NPC's
    roll, record, _action = _helper_state(state, ctx)

    def write(tx: Tx) -> tuple[RollRecord, int, ActionRecord, TeamworkAction]:
        # The roll, its Beats (or sheet) and the teamwork as they stand: one statement.
        pressed = tx.queries.one(RollRepository.pressed_query(roll_id))
        changed, beats = take_beat_in(tx, ctx, state.config, pressed)
        saved, after = _revise_in(tx, record, pressed.action, roll.roller_id, changed.result)
        return changed, beats, saved, after

    try:
        changed, beats, saved, after = await deps.store.write(write)
    except Conflict as conflict:
        raise _refused(conflict) from None
    except RuleError as error:
        raise UserError(no_beat(refusal_text(error.refusal))) from error
    message, edits = _helper_updated(ctx, changed, saved, after, state.config)
    return Reply(
        message=message, update=True, edits=edits,
        followups=((Message(content=beat_taken(
            beats, on_sheet=changed.character_id is not None)), True),),
    )


# --- the end of the scene ---------------------------------------------------------------------


def end_for_scene(
    tx: Tx, found: list[ActionRecord], config: ChannelConfig
) -> tuple[int, tuple[Edit, ...]]:
    """`/scene end`, inside its write: end the channel's unfinished teamwork actions
    (among its open actions, ``found``).

    Answers how many ended and the edits of their cards (they lose their buttons and
    say the scene ended).
    """
    return close_open(
        tx, ActionKind.TEAMWORK, found,
        ended=lambda record: teamwork.scene_ended(_state(record)),
        card=lambda saved, after: _card_edit(saved, after, config, None),
    )
