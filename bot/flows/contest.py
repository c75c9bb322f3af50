"""`/contest`, its Roll to resist button and the resist form.

Against the Storyteller's dice (`against`) both sides roll at once and the
contest is decided in one transaction. Against a member (`opponent`) the
actor rolls now and the card waits: only that member's **Roll to resist**
opens the pool form, and its submission rolls, decides and closes the contest
in one transaction (the roll is drawn inside it, after the contest is seen
still waiting, so a second submission finds it decided and draws nothing; on
PostgreSQL the contest as the form's read found it is checked with the
COMMIT, and a write that misses runs again and finds it decided: the first
draw, never shown nor stored, is dropped, as a roll's is in bot.flows.rolls).
The rules and the contest's status are the engine's
(:mod:`engine.table.contest`).

Each side's roll is stored with the contest's id (so /history lists it); the
card shows the verdict, and a Will spend afterwards would not reach it, so
these rolls offer no buttons. In `fistful` every side a member rolls is one
more action this turn.

A labelled contest is the actor's attempt at that action, and its successive
attempts (RULES.md §1, §2) count it by the verdict, not by the actor's roll
alone. **Decision**, both rulesets: won, the action succeeded and the count
starts over; lost or tied, it failed, one more (`v20`: "a tie: neither
succeeds"; `cofd`: a lost contest is a failed action, a tie is nobody
winning). The count moves in the transaction that decides the contest: the
/contest's own against the Storyteller's dice; the resist's against a member,
which counts the actor's row (the contest's guild, channel, owner and label),
never the resisting member's, read with the contest in the form's statement
and checked at the write (a roll of the actor's written in between makes the
write run again: :func:`_count_attempt`). The rules are
:func:`engine.table.contest.failures_after`.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass

from bot.edge.ids import Press
from bot.flows import teamwork
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, Sent, UserError
from bot.flows.retry import until_written
from bot.flows.rolls import (
    Ahead,
    ByName,
    Table,
    closed_edits,
    count_roll,
    gather,
    read_table,
    standing_beside,
    with_table_state,
)
from bot.flows.scene import close_open
from bot.flows.teamwork import read_form
from bot.render.contest import (
    AGAINST_YOURSELF,
    CONTEST_GONE,
    NO_SIDE,
    NOT_A_PLAYER,
    RESIST_FORM_TITLE,
    TWO_SIDES,
    cannot_contest,
    contest_message,
    foreign_option,
    pool_form,
    resist_refused,
)
from bot.render.lang import _, speaking
from bot.render.refusals import refusal_text
from bot.render.rolls import refusal_cause
from bot.store import Conflict, Tx
from bot.store.actions import ActionRepository
from bot.store.attempts import AttemptRepository
from bot.store.rolls import RollRepository
from engine import characters
from engine.models import RollResult, Ruleset
from engine.parser import NamedPart
from engine.records import (
    ActionKind,
    ActionRecord,
    ActionStatus,
    ChannelConfig,
    CharacterRecord,
    RollRecord,
    WillState,
)
from engine.roll import RuleError
from engine.roll import roll as roll_dice
from engine.table import contest as rules
from engine.table.contest import ContestState, ContestStatus


@dataclass(frozen=True, slots=True)
class Opponent:
    """The member named to roll to resist."""

    user_id: int
    name: str
    bot: bool = False


def _rolled(
    result: RollResult, *, opposition: bool = False, label: str | None = None
) -> RollResult:
    """The roll, unless the engine refused it (then nothing is stored): the refusal, with
    the table's penalties that led to it and their remedy (a member's side rolled as the
    ``label``'s attempt), as a roll's."""
    if result.refused:
        cause = refusal_cause(result.request, label)
        raise UserError(
            cannot_contest(refusal_text(result.refusal), opposition=opposition) + cause)
    return result


def _state(record: ActionRecord) -> ContestState:
    """The one place a contest's saved state is parsed."""
    return record.state(ContestState)


def _store_roll(
    tx: Tx, ctx: Ctx, record: ActionRecord, result: RollResult,
    character: CharacterRecord | None,
) -> RollRecord:
    """A side's roll, stored with the contest's id (and the character rolled with); it
    offers no buttons."""
    return tx.rolls.insert(
        guild_id=ctx.guild_id, channel_id=ctx.channel_id, roller_id=ctx.user_id,
        roller_name=ctx.user_name, result=result, will_state=WillState.NONE,
        label=record.label or None, action_id=record.id,
        character_id=None if character is None else character.id,
        character_name=None if character is None else character.name,
    )


def _count_attempt(
    tx: Tx, ctx: Ctx, config: ChannelConfig, record: ActionRecord, state: ContestState, *,
    failures: Callable[[], int],
) -> None:
    """Inside the write that decides the contest ``record`` (its ``state`` decided): the
    actor's failures in a row at its label, counted by the verdict from ``failures()``
    (the count this transaction read, or had checked), when the table counts them (a
    label, pressure). A count another write changed first raises ``Conflict(None)``: the
    flow reads again."""
    if not record.label or not config.pressure:
        return
    old = failures()
    new = rules.failures_after(old, state)
    if new != old and not tx.attempts.save_failures(
        record.guild_id, record.channel_id, record.owner_id, record.label, old=old, new=new,
        parent_id=ctx.parent_id,
    ):
        raise Conflict(None)


def _remember_card(deps: Deps, action_id: int) -> Callable[[Sent], Awaitable[None]]:
    async def remember(sent: Sent) -> None:
        if sent.message_id is not None:
            message_id = sent.message_id
            await deps.store.write(lambda tx: tx.actions.attach_message(action_id, message_id))

    return remember


# --- /contest ---------------------------------------------------------------------------------


async def contest(
    deps: Deps,
    ctx: Ctx,
    pool: tuple[NamedPart, ...],
    *,
    against: tuple[NamedPart, ...] | None,
    opponent: Opponent | None,
    label: str | None,
    difficulty: int | None,
    opponent_difficulty: int | None,
) -> Reply:
    """`/contest`: against the Storyteller's dice (both roll now) or a member who resists.
    Trait names in ``pool`` and ``against`` are the member's active character's."""
    if against is not None and opponent is not None:
        raise UserError(_(TWO_SIDES))
    if against is None and opponent is None:
        raise UserError(_(NO_SIDE))
    if opponent is not None and opponent.user_id == ctx.user_id:
        raise UserError(_(AGAINST_YOURSELF))
    if opponent is not None and opponent.bot:
        raise UserError(_(NOT_A_PLAYER))
    gathered = await deps.store.read(lambda tx: gather(tx, ctx, ahead=True, label=label))
    config, character = gathered.config, gathered.character
    if opponent_difficulty is not None and config.ruleset is not Ruleset.V20:
        raise UserError(foreign_option("opponent_difficulty", config.ruleset))
    try:
        rules.check_resisted(
            config.ruleset, {"difficulty": difficulty, "opponent_difficulty": opponent_difficulty}
        )
    except RuleError as error:
        raise UserError(cannot_contest(refusal_text(error.refusal))) from error
    asked = ByName(pool, {"difficulty": difficulty}).request(ctx, gathered)
    opposition = (
        None if against is None
        else ByName(against, {"difficulty": opponent_difficulty}).request(ctx, gathered)
    )

    def write(tx: Tx) -> tuple[ActionRecord, ContestState, list[RollRecord]]:
        # The dice are drawn once this transaction holds the table (see rolls.roll).
        # What the roll depends on and the open rolls it closes were read ahead: on
        # PostgreSQL they are checked with COMMIT, and the rows stored with it too.
        table = read_table(tx, ctx, config, label, None if character is None else character.id,
                           request=asked, ahead=gathered.ahead)
        ours = _rolled(roll_dice(with_table_state(asked, table), deps.faces), label=label)
        if opposition is not None:
            theirs = _rolled(roll_dice(opposition, deps.faces), opposition=True)
            state = rules.against(ctx.user_name, ours, theirs)
        else:
            assert opponent is not None  # noqa: S101 - one side was checked above
            try:
                state = rules.challenged(
                    ctx.user_name, ours, opponent_id=opponent.user_id,
                    opponent_name=opponent.name, opponent_difficulty=opponent_difficulty,
                )
            except RuleError as error:
                raise UserError(cannot_contest(refusal_text(error.refusal))) from error
        count_roll(tx, ctx, table, None, state.actor)  # a fistful action; not the attempt
        # The Storyteller's dice are rolled by the member who asked: both rolls are theirs.
        opposed = None if opposition is None else state.opponent
        tx.queries.reserve(actions=1, rolls=1 if opposed is None else 2)
        record = tx.actions.create(
            ActionKind.CONTEST, guild_id=ctx.guild_id, channel_id=ctx.channel_id,
            owner_id=ctx.user_id, label=label or "", state=state,
        )
        if state.status is ContestStatus.DECIDED:
            version = tx.actions.update(record.id, record.version, state, ActionStatus.CLOSED)
            record = record.saved(state, version or record.version + 1, ActionStatus.CLOSED)
            _count_attempt(tx, ctx, config, record, state, failures=lambda: table.failures)
        closed = tx.rolls.close_as_read(
            ctx.guild_id, ctx.channel_id, ctx.user_id,
            open_as_read=None if gathered.ahead is None else gathered.ahead.open,
        )
        _store_roll(tx, ctx, record, state.actor, character)
        if opposed is not None:
            _store_roll(tx, ctx, record, opposed, None)
        return record, state, closed

    record, state, closed = await deps.store.write(write)
    with speaking(ctx.public_voice(config)):
        return Reply(
            message=contest_message(record, state, config),
            edits=closed_edits(closed, config),
            sent=_remember_card(deps, record.id),
        )


# --- Roll to resist ---------------------------------------------------------------------------


def _contest(record: ActionRecord | None, ctx: Ctx) -> ActionRecord:
    """The contest a Roll to resist button or its form names by its key, if it is this
    channel's (:meth:`Ctx.here`): no sheet of another server resists it."""
    if record is None or record.kind is not ActionKind.CONTEST or not ctx.here(record):
        raise UserError(_(CONTEST_GONE))
    return record


async def resist_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """Roll to resist (``sb1:resist:<action id>``): the named opponent gets the form for
    their pool; anyone else is told."""
    record = _contest(await deps.store.read(lambda tx: tx.actions.get(press.key)), ctx)
    state = _state(record)
    reason = rules.resist_blocked(state, ctx.user_id)
    if reason is not None:
        raise UserError(resist_refused(reason, state))
    return Reply(
        modal=pool_form("resist", record.id, title=RESIST_FORM_TITLE, ask_difficulty=False)
    )


async def resist_form(
    deps: Deps, ctx: Ctx, press: Press, values: Mapping[str, str]
) -> Reply:
    """The resist form (``sb1:form:resist:<action id>``): roll the opponent's pool, decide
    the contest, close it, and redraw the card. Trait names are the opponent's own
    active character's (RULES.md §6)."""
    parts, _difficulty = read_form(values)
    async def attempt() -> Reply:
        def read(
            tx: Tx,
        ) -> tuple[Table, ActionRecord | None, CharacterRecord | None, Ahead, int]:
            # One statement: the settings and sheet, the standing, the contest and its
            # actor's failures at its label, and the open rolls the resist closes (its
            # write has them checked, not read again).
            (config, character), standing, found, failures, rolls = tx.queries.four_with_rows(
                ctx.config_query(character=True), standing_beside(ctx),
                ActionRepository.get_query(press.key),
                AttemptRepository.owner_failures_query(press.key),
                RollRepository.open_query(ctx.guild_id, ctx.channel_id, ctx.user_id),
            )
            table = read_table(tx, ctx, config, None, read=standing)
            return table, found, character, Ahead(None, standing, tuple(rolls)), failures

        table, found, character, ahead, failures = await deps.store.read(read)
        config = table.config
        record = _contest(found, ctx)
        state = _state(record)
        reason = rules.resist_blocked(state, ctx.user_id)
        if reason is not None:
            raise UserError(resist_refused(reason, state))
        _, resolved = ByName(parts).resolve(ctx, config, character, state.ruleset)
        asked = characters.with_sheet(
            rules.resist_request(state, resolved.terms), resolved,
            None if character is None else character.name,
        )

        def write(
            tx: Tx, record: ActionRecord = record, state: ContestState = state,
            table: Table = table, failures: int = failures,
        ) -> tuple[ActionRecord, ContestState, list[RollRecord]]:
            # As read (PostgreSQL has the server check it, and what was read ahead, with
            # COMMIT), else decided (or closed) since it was read: read again.
            if not tx.actions.still(record):
                raise Conflict(None)
            # as the active character, whose actions this turn it counts (read ahead)
            table = read_table(tx, ctx, table.config, None,
                               None if character is None else character.id,
                               request=asked, ahead=ahead)
            request = with_table_state(asked, table)
            theirs = _rolled(roll_dice(request, deps.faces))
            after = rules.resisted(state, ctx.user_id, theirs)
            version = tx.actions.update(record.id, record.version, after, ActionStatus.CLOSED)
            if version is None:
                raise Conflict(None)
            count_roll(tx, ctx, table, None, theirs)
            # the actor's attempt, decided now (read with the contest, checked here)
            _count_attempt(tx, ctx, table.config, record, after, failures=lambda: (
                tx.attempts.owner_failures(record.id, expected=failures)))
            closed = tx.rolls.close_as_read(ctx.guild_id, ctx.channel_id, ctx.user_id,
                                            open_as_read=ahead.open)
            _store_roll(tx, ctx, record, theirs, character)
            return record.saved(after, version, ActionStatus.CLOSED), after, closed

        saved, after, closed = await deps.store.write(write)
        with speaking(ctx.public_voice(config)):
            message = contest_message(saved, after, config)
            edits = closed_edits(closed, config)
        if ctx.message_id is not None:  # submitted from the card's button: redrawn in place
            return Reply(message=message, update=True, edits=edits)
        if saved.message_id is not None:
            edits = (*edits, Edit(saved.channel_id, saved.message_id, message))
        return Reply(message=message, edits=edits)
    return await until_written(attempt)


async def pool_form_submitted(
    deps: Deps, ctx: Ctx, press: Press, values: Mapping[str, str]
) -> Reply:
    """The pool form (``sb1:form:<help|resist>:<action id>``): a teamwork helper's or a
    contest opponent's."""
    if press.action == "resist":
        return await resist_form(deps, ctx, press, values)
    return await teamwork.form_submitted(deps, ctx, press, values)


# --- the end of the scene ---------------------------------------------------------------------


def end_for_scene(
    tx: Tx, found: list[ActionRecord], config: ChannelConfig
) -> tuple[int, tuple[Edit, ...]]:
    """`/scene end`, inside its write: close the channel's contests still waiting for a
    resist (among its open actions, ``found``). Answers how many closed and the edits of
    their cards (they say the scene ended and lose Roll to resist)."""
    def card(saved: ActionRecord, after: ContestState) -> tuple[Edit, ...]:
        if saved.message_id is None:
            return ()
        return (Edit(saved.channel_id, saved.message_id, contest_message(saved, after, config)),)

    return close_open(
        tx, ActionKind.CONTEST, found,
        ended=lambda record: rules.scene_ended(_state(record)), card=card,
    )
