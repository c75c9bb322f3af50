"""`/init start|join|add|remove|next|end` and the initiative card's buttons (RULES.md §7).

Every move runs the same way: one read gathers the settings (who the
Storyteller is) and the tracker; one write checks the tracker is still at the
version read, asks the engine (:mod:`engine.table.initiative`: the state
machine and its refusals; dice for a join or an add are drawn here, once the
write holds the table) and saves it with an update conditional on that
version. When a move starts a new round, the same write applies `/turn next`'s
effects: the `fistful` Successive Action Penalty starts over and open rolls
close. A write that finds the tracker moved reads again
(:func:`bot.flows.retry.until_written`), so of two presses of Next on one card
the second finds the turn moved and changes nothing. A press of Next costs 2
trips (read, write).

A button updates the card in place; a command answers with one public line and
brings the card up to date in the background.

**Decision** (a card deleted by a moderator or a mis-click): the fight is not lost with
it. The next command that brings an open tracker's card up to date (`/init join`, `add`,
`remove`, `next`) finds the message gone (Discord answers Unknown Message) and posts
the card afresh at the foot of the channel, and the tracker remembers the new message
(only in place of the deleted one, and only while the fight is open: of two commands
that both find it gone, one card stays, the other copy is deleted). `/init start` in a
channel with a running tracker is still refused with a link to its card, and brings
that card up to date the same way, so a deleted one comes back below the refusal. The
usual path costs nothing more (a move edits the card as before, and posts only when the
edit fails; a start that opens a tracker checks no card, where asking Discord would cost
a call on every start); only the refused start adds one edit. A closed tracker's card
that is gone stays gone: there is nothing left to play on it.

**Decision** (a card never remembered: `/init start`'s card was shown but saving its
message id failed, or Discord gave no id): the tracker has no card to edit, so the next
command that would bring it up to date posts it instead (one post in place of the edit)
and the tracker remembers it, as for a deleted card (of two such posts, one stays). The
card first shown is left as it is (no one knows its id); its buttons still work.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Final

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Reply, Sent, UserError
from bot.flows.retry import until_written
from bot.flows.rolls import ByName, Gathered, closed_edits, refuse_npc
from bot.render.initiative import (
    NO_TRACKER,
    TRACKER_GONE,
    TYPE_YOUR_INITIATIVE,
    added_notice,
    already_running,
    card_message,
    ended_notice,
    init_refused,
    joined_notice,
    removed_notice,
    turn_notice,
)
from bot.render.lang import _, speaking
from bot.render.message import Message
from bot.render.messages import NOT_STORYTELLER
from bot.store import Conflict, Tx
from engine import characters
from engine.faces import FaceSource
from engine.models import Ruleset, Term
from engine.parser import NamedPart, parse_pool_names
from engine.records import (
    ActionStatus,
    ChannelConfig,
    CharacterRecord,
    RollRecord,
    TrackerRecord,
    label_key,
)
from engine.refusals import RefusalCode
from engine.roll import RuleError
from engine.table import initiative
from engine.table.initiative import Entrant, Move, Passed, Status, Tracker

#: Discord shows at most 25 autocomplete choices.
MAX_SUGGESTIONS: Final = 25
#: Refusals that mean the pressed card is out of date: it is redrawn as it stands.
_STALE: frozenset[RefusalCode] = frozenset({RefusalCode.INIT_ENDED, RefusalCode.INIT_TURN_MOVED})


def _state(record: TrackerRecord) -> Tracker:
    """The one place a tracker's saved state is parsed."""
    return record.state(Tracker)


def _card_edit(
    saved: TrackerRecord, tracker: Tracker, config: ChannelConfig, deps: Deps | None = None
) -> tuple[Edit, ...]:
    """The edit that brings the tracker's card up to date. With ``deps``, an open tracker's
    card that was deleted, or whose message was never remembered, is posted again and
    remembered (the module's Decision)."""
    reposted = (_remember_again(deps, saved.id, saved.message_id)
                if deps is not None and saved.status is ActionStatus.OPEN else None)
    if saved.message_id is None and reposted is None:
        return ()
    return (Edit(saved.channel_id, saved.message_id, card_message(saved, tracker, config),
                 reposted=reposted),)


def _remember_again(
    deps: Deps, tracker_id: int, gone: int | None
) -> Callable[[int], Awaitable[bool]]:
    """Remember the card posted again in place of the deleted ``gone`` (None: of no message
    remembered): False when another took its place first or the fight ended (that copy is
    then deleted)."""
    async def remember(message_id: int) -> bool:
        return await deps.store.write(
            lambda tx: tx.initiative.replace_message(tracker_id, gone, message_id))

    return remember


# --- where a member's initiative comes from -----------------------------------------------------


def initiative_of(
    ctx: Ctx,
    pool: tuple[NamedPart, ...] | None,
    modifier: int,
    *,
    config: ChannelConfig,
    character: CharacterRecord | None,
    ruleset: Ruleset,
) -> Entrant:
    """The numbers a member joins with, under their active character's name when they
    have one: the pool typed (numbers, or trait names of the sheet), else the sheet's
    initiative (RULES.md §7: the Initiative trait, `v20` Dexterity + Wits, `fistful` the
    channel's initiative pool of trait names); and the modifier. With neither a pool nor a
    character it is refused with how to do either.

    ``ruleset`` is the tracker's, the one the fight was opened in: a channel whose
    ruleset changed mid-fight still has its combatants enter by that fight's rules (a
    `v20` fight's Dexterity + Wits, not the new ruleset's initiative)."""
    config = config.model_copy(update={"ruleset": ruleset})
    name = ctx.user_name if character is None else character.name
    untrained = None
    if pool is not None:
        request = ByName(pool).request(ctx, Gathered(config, character))
        value, untrained = request.base, request.untrained
    elif character is None:
        raise UserError(_(TYPE_YOUR_INITIATIVE))
    elif ruleset is Ruleset.FISTFUL:
        # The channel's initiative pool (RULES.md §7), its names read from the sheet (an
        # NPC refused to a member who is no Storyteller here, as any roll of it).
        setting = parse_pool_names(config.initiative_pool)
        request = ByName(setting).request(ctx, Gathered(config, character))
        value, untrained = request.base, request.untrained
    else:
        refuse_npc(ctx, config, character)
        value = characters.initiative_pool(character.sheet, ruleset)
    # A 0-dot Skill makes a `fistful` initiative roll unskilled (its 1s eat successes);
    # the other rulesets' initiative is a number plus one die, which no Skill changes.
    return Entrant(name=name, owner_id=ctx.user_id, pool=value, modifier=modifier,
                   untrained=untrained if ruleset is Ruleset.FISTFUL else None)


# --- starting -----------------------------------------------------------------------------------


async def start(deps: Deps, ctx: Ctx) -> Reply:
    """`/init start`: the Storyteller opens the channel's tracker and its card."""
    def read(tx: Tx) -> tuple[ChannelConfig, TrackerRecord | None]:
        (config, _), found = tx.initiative.beside_open(
            ctx.config_query(), ctx.guild_id, ctx.channel_id)
        return config, found

    config, existing = await deps.store.read(read)
    if not ctx.storyteller(config):
        raise UserError(_(NOT_STORYTELLER))
    if existing is not None:  # refused, and its card brought back if it was deleted
        refusal = already_running(ctx.guild_id, existing)
        with speaking(ctx.public_voice(config)):
            edits = _card_edit(existing, _state(existing), config, deps)
        return Reply(message=Message(content=refusal), ephemeral=True, edits=edits)
    tracker = initiative.opened(config.ruleset)

    def write(tx: Tx) -> TrackerRecord:
        record = tx.initiative.create(ctx.guild_id, ctx.channel_id, tracker)
        if record is None:
            raise Conflict(tx.initiative.open_in(ctx.guild_id, ctx.channel_id))
        return record

    try:
        record = await deps.store.write(write)
    except Conflict as conflict:
        first = conflict.reason if isinstance(conflict.reason, TrackerRecord) else None
        raise UserError(already_running(ctx.guild_id, first)) from None

    async def remember(sent: Sent) -> None:
        if sent.message_id is not None:
            message_id = sent.message_id
            await deps.store.write(lambda tx: tx.initiative.attach_message(record.id, message_id))

    with speaking(ctx.public_voice(config)):
        return Reply(message=card_message(record, tracker, config), sent=remember)


# --- every other move ---------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Moved:
    """What the engine decided: the tracker after the move, whether a round began, and the
    public line a command answers with (drawn later, in the table's language: the move is
    decided in the store's thread, in the member's)."""

    tracker: Tracker
    notice: Callable[[], str]
    new_round: bool = False


Decide = Callable[[Tracker, bool, FaceSource], _Moved]
"""The move: (tracker, whether the member is the Storyteller, the dice) → what changed.
Raises :class:`RuleError` when the rules refuse it."""


@dataclass(frozen=True, slots=True)
class Joining:
    """A move that needs the member's settings and active character (a join): ``of``
    makes the move once they are read."""

    of: Callable[[ChannelConfig, CharacterRecord | None], Decide]


async def _move(
    deps: Deps, ctx: Ctx, tracker_id: int | None, decide: Decide | Joining, *,
    storyteller_only: bool = False,
) -> Reply:
    """Run one move on the tracker ``tracker_id`` (a button's) or the channel's open one
    (a command's): one read, one conditional write. A ``storyteller_only`` move by a
    player is refused as such first, tracker or not. A :class:`Joining` move reads the
    member's active character in the same read."""
    button = tracker_id is not None

    async def attempt() -> Reply:
        def read(tx: Tx) -> tuple[ChannelConfig, TrackerRecord | None, Decide]:
            # the settings (and the member's character, when joining) and the tracker in
            # one statement
            settings = ctx.config_query(character=isinstance(decide, Joining))
            (config, character), record = (
                tx.initiative.beside(settings, tracker_id) if tracker_id is not None
                else tx.initiative.beside_open(settings, ctx.guild_id, ctx.channel_id))
            if isinstance(decide, Joining):
                return config, record, decide.of(config, character)
            return config, record, decide

        config, record, move = await deps.store.read(read)
        if record is not None and not ctx.here(record):
            record = None  # a card's key names another channel's tracker: a forged custom_id
        storyteller = ctx.storyteller(config)
        if storyteller_only and not storyteller:
            raise UserError(_(NOT_STORYTELLER))
        if record is None:
            raise UserError(_(TRACKER_GONE if button else NO_TRACKER))

        def write(
            tx: Tx, record: TrackerRecord = record
        ) -> tuple[TrackerRecord, _Moved, list[RollRecord]]:
            moved = move(_state(record), storyteller, deps.faces)
            status = (ActionStatus.OPEN if moved.tracker.status is Status.OPEN
                      else ActionStatus.CLOSED)
            # A new round has the effects of /turn next. The rolls are closed first: their
            # rows answer, so the writes PostgreSQL holds back go after them, with COMMIT.
            closed = tx.rolls.close(ctx.guild_id, ctx.channel_id) if moved.new_round else []
            version = tx.initiative.update(record.id, record.version, moved.tracker, status)
            if version is None:
                raise Conflict(None)  # it moved since the read: read again
            if moved.new_round:
                tx.attempts.reset_turn(ctx.guild_id, ctx.channel_id)
            return record.saved(moved.tracker, version, status), moved, closed

        try:
            saved, moved, closed = await deps.store.write(write)
        except RuleError as error:
            why = init_refused(error.refusal)
            if button and error.refusal.code in _STALE:
                with speaking(ctx.public_voice(config)):
                    card = card_message(record, _state(record), config)
                return Reply(message=card, update=True, followups=((Message(content=why), True),))
            raise UserError(why) from None
        with speaking(ctx.public_voice(config)):
            edits = closed_edits(closed, config)
            if button:
                return Reply(message=card_message(saved, moved.tracker, config), update=True,
                             edits=edits)
            return Reply(message=Message(content=moved.notice()),
                         edits=(*edits, *_card_edit(saved, moved.tracker, config, deps)))

    return await until_written(attempt)


def _passed(passed: Passed) -> _Moved:
    return _Moved(passed.tracker,
                  lambda: turn_notice(passed.tracker, new_round=passed.new_round),
                  passed.new_round)


def _check(tracker: Tracker, move: Move, ctx: Ctx, storyteller: bool) -> None:
    refusal = initiative.blocked(tracker, move, ctx.user_id, storyteller=storyteller)
    if refusal is not None:
        raise RuleError(refusal)


async def join(
    deps: Deps, ctx: Ctx, pool: tuple[NamedPart, ...] | None, modifier: int,
    tracker_id: int | None = None,
) -> Reply:
    """`/init join` (and the Join button): the member's combatant (their active
    character, initiative from its sheet unless a pool is typed) rolls and joins."""
    def of(config: ChannelConfig, character: CharacterRecord | None) -> Decide:
        def decide(tracker: Tracker, storyteller: bool, faces: FaceSource) -> _Moved:
            _check(tracker, Move.JOIN, ctx, storyteller)  # an ended tracker says so first
            entrant = initiative_of(ctx, pool, modifier, config=config, character=character,
                                    ruleset=tracker.ruleset)
            after = initiative.joined(tracker, entrant, faces)
            return _Moved(after, lambda: joined_notice(after.combatants[-1], after.ruleset))

        return decide

    return await _move(deps, ctx, tracker_id, Joining(of))


async def add(
    deps: Deps, ctx: Ctx, name: str, pool: tuple[Term, ...], *, modifier: int, count: int | None
) -> Reply:
    """`/init add`: the Storyteller adds an NPC, or a group rolled one by one."""
    entrant = Entrant(name=name, owner_id=ctx.user_id, pool=sum(t.value for t in pool),
                      modifier=modifier)

    def decide(tracker: Tracker, storyteller: bool, faces: FaceSource) -> _Moved:
        after = initiative.added(tracker, entrant, count, faces, storyteller=storyteller)
        new = list(after.combatants[len(tracker.combatants):])
        return _Moved(after, lambda: added_notice(new, after.ruleset))

    return await _move(deps, ctx, None, decide, storyteller_only=True)


async def remove(deps: Deps, ctx: Ctx, name: str) -> Reply:
    """`/init remove`: the Storyteller removes a combatant (or a whole group by its name)."""
    def decide(tracker: Tracker, storyteller: bool, __: FaceSource) -> _Moved:
        passed, labels = initiative.removed(tracker, name, storyteller=storyteller)
        turned = passed.tracker.current != tracker.current and passed.tracker.current is not None

        def notice() -> str:
            said = removed_notice(labels)
            if turned:
                said += " " + turn_notice(passed.tracker, new_round=passed.new_round)
            return said

        return _Moved(passed.tracker, notice, passed.new_round)

    return await _move(deps, ctx, None, decide, storyteller_only=True)


async def next_turn(deps: Deps, ctx: Ctx, *, tracker_id: int | None = None,
                    seen_turn: int | None = None) -> Reply:
    """`/init next` and Next: the acting combatant's player or the Storyteller passes the
    turn (the first Next starts round 1)."""
    def decide(tracker: Tracker, storyteller: bool, __: FaceSource) -> _Moved:
        return _passed(initiative.next_turn(tracker, ctx.user_id, storyteller=storyteller,
                                            seen_turn=seen_turn))

    return await _move(deps, ctx, tracker_id, decide)


async def end(deps: Deps, ctx: Ctx, *, tracker_id: int | None = None) -> Reply:
    """`/init end` and End: the Storyteller ends the fight."""
    def decide(tracker: Tracker, storyteller: bool, __: FaceSource) -> _Moved:
        return _Moved(initiative.ended(tracker, ctx.user_id, storyteller=storyteller),
                      ended_notice)

    return await _move(deps, ctx, tracker_id, decide, storyteller_only=True)


async def card_pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """Join, Next, Delay, Act now or End on a card (``sb1:init:<move>:<tracker>:<turn>``)."""
    key, turn = press.key, press.version
    if press.action == "join":
        return await join(deps, ctx, None, 0, tracker_id=key)
    if press.action == "next":
        return await next_turn(deps, ctx, tracker_id=key, seen_turn=turn)
    if press.action == "end":
        return await end(deps, ctx, tracker_id=key)
    if press.action == "delay":
        def delay(tracker: Tracker, storyteller: bool, __: FaceSource) -> _Moved:
            return _passed(initiative.delayed(tracker, ctx.user_id, storyteller=storyteller,
                                              seen_turn=turn))

        return await _move(deps, ctx, key, delay)

    def act_now(tracker: Tracker, storyteller: bool, __: FaceSource) -> _Moved:
        after = initiative.acted_now(tracker, ctx.user_id, storyteller=storyteller,
                                     seen_turn=turn)
        return _Moved(after, lambda: turn_notice(after, new_round=False))

    return await _move(deps, ctx, key, act_now)


async def combatant_names(deps: Deps, ctx: Ctx, typed: str) -> list[str]:
    """Autocomplete for `/init remove name`: the open tracker's combatants (and the names of
    its NPC groups, which remove the whole group) that contain ``typed``."""
    record = await deps.store.read(
        lambda tx: tx.initiative.open_in(ctx.guild_id, ctx.channel_id))
    if record is None:
        return []
    found: list[str] = []
    for combatant in _state(record).combatants:
        for name in (combatant.label, combatant.name if combatant.group is not None else None):
            if name is not None and name not in found and label_key(typed) in label_key(name):
                found.append(name)
    return found[:MAX_SUGGESTIONS]


# --- the end of the scene -----------------------------------------------------------------------


def end_for_scene(
    tx: Tx, record: TrackerRecord | None, config: ChannelConfig
) -> tuple[int, tuple[Edit, ...]]:
    """`/scene end`, inside its write: close the channel's tracker (``record``, read in this
    write). Answers how many closed (0 or 1) and the edit of its card."""
    if record is None:
        return 0, ()
    after = initiative.scene_ended(_state(record))
    if after is None:
        return 0, ()
    version = tx.initiative.update(record.id, record.version, after, ActionStatus.CLOSED)
    if version is None:
        return 0, ()
    return 1, _card_edit(record.saved(after, version, ActionStatus.CLOSED), after, config)
