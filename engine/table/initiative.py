"""Initiative: one tracker per channel orders a fight's turns (RULES.md §7).

A :class:`Tracker` is a pure state machine the store saves as JSON. Its moves
answer the new tracker (and, for the moves that pass the turn, whether a new
round began: the bot then applies the effects of `/turn next`); a move the
rules do not allow raises :class:`~engine.roll.RuleError` with an ``INIT_*``
refusal code, and :func:`blocked` answers the same code without moving.

Rolls (:func:`joined`, :func:`added`):

- `cofd` and `v20`: initiative = the fixed part (the typed traits + the
  modifier) + one d10 face. Highest first; ties: the higher fixed part, then a
  roll-off.
- `fistful`: the ruleset's own initiative roll (``RollRequest(initiative=True)``)
  of the pool + the modifier; order by successes, a botch last; ties: the larger
  pool, then a roll-off.

**Order of draws** (so tests can script them): combatants enter one at a time
(a group's in index order); each draws its initiative roll, then the roll-offs
that place it, before the next one rolls. A roll-off is drawn only when the
newcomer ties (same total and fixed part, or successes, botch and pool) with
combatants already in: at each level every tied combatant still level with the
newcomer that has no face at that level draws one, in the order they entered;
those that drew the newcomer's face go on to the next level, until the
newcomer is alone. Higher roll-off faces act first, level by level, so a
roll-off never reorders combatants it had already placed.

Turns: while the table gathers (round 0) the order fills; the first
:func:`next_turn` (the Storyteller's) starts round 1. Passing the last
combatant starts the next round. :func:`delayed` takes the acting combatant out
of the order; :func:`acted_now` puts it back before whoever is acting, which is
its place from then on (the CofD rule for delaying). A combatant added
mid-fight is placed by its roll and acts the next time its place comes up.

``turn`` counts every change of who acts: the card's buttons carry it, so a
Next, Delay or Act now pressed on a card drawn before the turn moved changes nothing
(:attr:`~engine.refusals.RefusalCode.INIT_TURN_MOVED`).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import StrEnum
from typing import Final, Literal

from engine.faces import FaceSource
from engine.frozen import Frozen
from engine.models import Outcome, RollRequest, Ruleset, SkillCategory, Term
from engine.records import label_key
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, roll
from engine.text import visible_line

#: Combatants in one tracker, and in one NPC group.
MAX_ENTRIES: Final = 50
MAX_GROUP: Final = 20
#: The range of an initiative modifier.
MODIFIER_RANGE: Final = (-10, 10)
#: Characters in a typed combatant name.
MAX_NAME: Final = 64

#: Mentions that would ping if a name were ever shown unescaped.
_MENTION: Final = re.compile(r"@(?:everyone|here)|<@[!&]?[0-9]+>", re.IGNORECASE)


class Status(StrEnum):
    """Where a tracker stands."""

    OPEN = "open"
    ENDED = "ended"
    SCENE_ENDED = "scene_ended"


class Move(StrEnum):
    """What a member asks of a tracker (the card's buttons are a subset)."""

    JOIN = "join"
    ADD = "add"
    REMOVE = "remove"
    NEXT = "next"
    DELAY = "delay"
    ACT_NOW = "act"
    END = "end"


class Combatant(Frozen):
    """One entry of the tracker: who, and how it rolled."""

    id: int
    """Unique in its tracker, counting up in the order combatants entered."""
    name: str
    group: int | None = None
    """Its index in an NPC group (``Guards ×4``: 1 to 4); None alone."""
    owner_id: int
    npc: bool = False
    """Added by the Storyteller (a member joins as their own, not an NPC)."""
    modifier: int = 0
    fixed: int
    """`cofd`/`v20`: the total without the die; `fistful`: the pool rolled."""
    faces: tuple[int, ...]
    """The initiative roll's faces in draw order."""
    total: int
    """`cofd`/`v20`: the initiative; `fistful`: the successes."""
    botch: bool = False
    rolloffs: tuple[int, ...] = ()
    """Roll-off faces drawn to break ties, level by level."""

    @property
    def label(self) -> str:
        """The name the card shows and `/init remove` matches: a group's carry their index."""
        return self.name if self.group is None else f"{self.name} {self.group}"


class Tracker(Frozen):
    """A channel's initiative tracker as saved (``schema_version`` 1)."""

    schema_version: Literal[1] = 1
    ruleset: Ruleset
    combatants: tuple[Combatant, ...] = ()
    """Everyone in the fight, in the order they entered (the roll-off order)."""
    order: tuple[int, ...] = ()
    """Combatant ids in acting order (delayed combatants are out of it)."""
    delayed: tuple[int, ...] = ()
    """Delayed combatants' ids, earliest delay first."""
    current: int | None = None
    """Who acts now; None while the table gathers."""
    round: int = 0
    turn: int = 1
    """A marker that moves with every change of who acts, from 1 (the card's buttons
    carry it)."""
    next_id: int = 1
    status: Status = Status.OPEN

    def combatant(self, combatant_id: int) -> Combatant:
        """The combatant with this id."""
        return next(c for c in self.combatants if c.id == combatant_id)

    @property
    def acting(self) -> Combatant | None:
        """The combatant whose turn it is."""
        return None if self.current is None else self.combatant(self.current)


class Entrant(Frozen):
    """Who enters and the numbers they roll with (the bot gathers them)."""

    name: str
    owner_id: int
    pool: int
    """`cofd`/`v20`: the traits (Dexterity + Composure, Dexterity + Wits); `fistful`:
    the initiative pool."""
    modifier: int = 0
    untrained: SkillCategory | None = None
    """`fistful`: the pool names a Skill at 0 dots (RULES.md §6), so the roll is unskilled
    and its 1s eat successes (§7)."""


class Passed(Frozen):
    """A move that may pass the turn: the tracker after it, and whether a round began."""

    tracker: Tracker
    new_round: bool = False


def _refuse(code: RefusalCode, **params: int | str) -> RuleError:
    return RuleError(Refusal(code=code, params=params))


def opened(ruleset: Ruleset) -> Tracker:
    """A new tracker, gathering, for the channel's ruleset."""
    return Tracker(ruleset=ruleset)


# --- who may do what ----------------------------------------------------------------------------


def _owned(tracker: Tracker, member_id: int) -> Combatant | None:
    """The member's own (non-NPC) combatant, if they joined."""
    return next((c for c in tracker.combatants if c.owner_id == member_id and not c.npc), None)


def _delayed_for(tracker: Tracker, member_id: int, *, storyteller: bool) -> Combatant | None:
    """The delayed combatant an Act now by this member brings back: their own earliest
    delayed one; a Storyteller with none of their own brings back the earliest of all."""
    delayed = [tracker.combatant(cid) for cid in tracker.delayed]
    mine = next((c for c in delayed if c.owner_id == member_id), None)
    if mine is None and storyteller and delayed:
        return delayed[0]
    return mine


def blocked(
    tracker: Tracker, move: Move, member_id: int, *, storyteller: bool = False
) -> Refusal | None:
    """Why ``member_id`` may not make ``move`` now; None when they may (the numbers of a
    join or an add are checked when it is made)."""
    if tracker.status is not Status.OPEN:
        return Refusal.of(RefusalCode.INIT_ENDED, status=tracker.status.value)
    if move in {Move.ADD, Move.REMOVE, Move.END} and not storyteller:
        return Refusal.of(RefusalCode.INIT_STORYTELLER_ONLY, move=move.value)
    if move is Move.JOIN:
        own = _owned(tracker, member_id)
        if own is not None:
            return Refusal.of(RefusalCode.INIT_ALREADY_JOINED, name=own.label)
    if move in {Move.NEXT, Move.DELAY}:
        return _turn_blocked(tracker, move, member_id, storyteller=storyteller)
    if move is Move.ACT_NOW and _delayed_for(tracker, member_id, storyteller=storyteller) is None:
        return Refusal.of(RefusalCode.INIT_NOT_DELAYED)
    return None


def _turn_blocked(
    tracker: Tracker, move: Move, member_id: int, *, storyteller: bool
) -> Refusal | None:
    acting = tracker.acting
    if move is Move.NEXT and not tracker.order:
        return Refusal.of(RefusalCode.INIT_EMPTY)
    if move is Move.DELAY and acting is None:
        return Refusal.of(RefusalCode.INIT_NOBODY_ACTING)
    if not storyteller:
        if acting is None:  # starting a round with nobody acting is the Storyteller's
            return Refusal.of(RefusalCode.INIT_STORYTELLER_ONLY, move=move.value)
        if acting.owner_id != member_id:
            return Refusal.of(RefusalCode.INIT_NOT_YOUR_TURN, name=acting.label)
    if move is Move.DELAY and len(tracker.order) < 2:  # someone else must act
        return Refusal.of(RefusalCode.INIT_DELAY_ALONE)
    return None


def _check(tracker: Tracker, move: Move, member_id: int, *, storyteller: bool) -> None:
    refusal = blocked(tracker, move, member_id, storyteller=storyteller)
    if refusal is not None:
        raise RuleError(refusal)


def offers(tracker: Tracker) -> tuple[Move, ...]:
    """The card's buttons now, in the order it shows them (none once it is over)."""
    if tracker.status is not Status.OPEN:
        return ()
    moves = [Move.JOIN]
    if tracker.order:
        moves.append(Move.NEXT)
    if tracker.current is not None and len(tracker.order) > 1:
        moves.append(Move.DELAY)
    if tracker.delayed:
        moves.append(Move.ACT_NOW)
    moves.append(Move.END)
    return tuple(moves)


# --- entering -----------------------------------------------------------------------------------


def check_name(name: str) -> None:
    """A typed combatant name: 1 to ``MAX_NAME`` characters, no mention in it, and one
    line of visible characters as a character's name is (:func:`visible_line`): a name of
    a zero-width space or a Hangul filler alone showed an empty line in the order, and
    one with a direction override turned the card around it."""
    if not name.strip() or len(name) > MAX_NAME:
        raise _refuse(RefusalCode.INIT_NAME_LENGTH, max=MAX_NAME)
    if not visible_line(name):
        raise _refuse(RefusalCode.INIT_NAME_INVISIBLE)
    if _MENTION.search(name):
        raise _refuse(RefusalCode.INIT_NAME_MENTION)


def _key(c: Combatant) -> tuple[bool, int, int]:
    """What orders combatants before any roll-off (a botch below any other result)."""
    return (not c.botch, c.total, c.fixed)


def _before(a: Combatant, b: Combatant) -> bool:
    """Whether ``a`` acts before ``b`` (roll-offs compared level by level)."""
    if _key(a) != _key(b):
        return _key(a) > _key(b)
    return a.rolloffs > b.rolloffs


def _rolled(tracker: Tracker, entrant: Entrant, cid: int, group: int | None, *,
            npc: bool, source: FaceSource) -> Combatant:
    """The entrant's initiative roll as a combatant (not placed yet)."""
    if tracker.ruleset is Ruleset.FISTFUL:
        terms = [Term(value=entrant.pool)]
        if entrant.modifier:
            terms.append(Term(label="modifier", value=entrant.modifier))
        request = RollRequest(ruleset=Ruleset.FISTFUL, terms=tuple(terms), initiative=True,
                              untrained=entrant.untrained)
        result = roll(request, source)
        if result.refused:
            raise RuleError(Refusal.of(RefusalCode.INIT_ROLL_REFUSED, cause=result.refusal))
        fixed, faces = request.base, tuple(die.face for die in result.dice)
        total, botch = result.successes, result.outcome is Outcome.BOTCH
    else:
        fixed = entrant.pool + entrant.modifier
        faces = tuple(source.draw(1))
        total, botch = fixed + faces[0], False
    return Combatant(
        id=cid, name=entrant.name, group=group, owner_id=entrant.owner_id, npc=npc,
        modifier=entrant.modifier, fixed=fixed, faces=faces, total=total, botch=botch,
    )


def _roll_off(
    combatants: list[Combatant], new: Combatant, source: FaceSource
) -> tuple[list[Combatant], Combatant]:
    """Break the newcomer's ties (see the module's order of draws)."""
    everyone = {c.id: c for c in combatants}
    contenders = [c.id for c in combatants if _key(c) == _key(new)]
    if not contenders:
        return combatants, new
    everyone[new.id] = new
    contenders.append(new.id)
    level = 0
    while len(contenders) > 1:
        for cid in contenders:
            c = everyone[cid]
            if len(c.rolloffs) <= level:
                everyone[cid] = c.model_copy(update={"rolloffs": (*c.rolloffs, *source.draw(1))})
        face = everyone[new.id].rolloffs[level]
        contenders = [cid for cid in contenders if everyone[cid].rolloffs[level] == face]
        level += 1
    return [everyone[c.id] for c in combatants], everyone[new.id]


def _placed(order: Sequence[int], by_id: dict[int, Combatant], new: Combatant) -> tuple[int, ...]:
    """``order`` with the newcomer before the first combatant it acts before."""
    for place, cid in enumerate(order):
        if _before(new, by_id[cid]):
            return (*order[:place], new.id, *order[place:])
    return (*order, new.id)


def _enter(
    tracker: Tracker, entrant: Entrant, count: int | None, *, npc: bool, source: FaceSource
) -> Tracker:
    low, high = MODIFIER_RANGE
    if not low <= entrant.modifier <= high:
        raise _refuse(RefusalCode.INIT_MODIFIER_RANGE, modifier=entrant.modifier, low=low,
                      high=high)
    if count is not None and not 1 <= count <= MAX_GROUP:
        raise _refuse(RefusalCode.INIT_GROUP_RANGE, count=count, max=MAX_GROUP)
    entries = len(tracker.combatants) + (count or 1)
    if entries > MAX_ENTRIES:
        raise _refuse(RefusalCode.INIT_FULL, count=entries, max=MAX_ENTRIES)
    groups: Sequence[int | None] = [None] if count is None else range(1, count + 1)
    taken = {label_key(c.label) for c in tracker.combatants}
    for group in groups:
        label = entrant.name if group is None else f"{entrant.name} {group}"
        if label_key(label) in taken:
            raise _refuse(RefusalCode.INIT_NAME_TAKEN, name=label)
    combatants = list(tracker.combatants)
    order = tracker.order
    cid = tracker.next_id
    for group in groups:
        new = _rolled(tracker, entrant, cid, group, npc=npc, source=source)
        combatants, new = _roll_off(combatants, new, source)
        combatants.append(new)
        order = _placed(order, {c.id: c for c in combatants}, new)
        cid += 1
    return tracker.model_copy(
        update={"combatants": tuple(combatants), "order": order, "next_id": cid}
    )


def joined(tracker: Tracker, entrant: Entrant, source: FaceSource) -> Tracker:
    """A member's combatant joins (rolled now); one per member. A name another combatant
    has already is told apart by a number (``Alex (2)``): two members may share a display
    name or a character's name, and a member does not choose the name they join under."""
    _check(tracker, Move.JOIN, entrant.owner_id, storyteller=False)
    taken = {label_key(c.label) for c in tracker.combatants}
    name = entrant.name
    number = 1
    while label_key(name) in taken:
        number += 1
        name = f"{entrant.name} ({number})"
    return _enter(tracker, entrant.model_copy(update={"name": name}), None, npc=False,
                  source=source)


def added(
    tracker: Tracker, entrant: Entrant, count: int | None, source: FaceSource, *,
    storyteller: bool,
) -> Tracker:
    """The Storyteller adds an NPC, or a group of ``count`` rolled separately."""
    _check(tracker, Move.ADD, entrant.owner_id, storyteller=storyteller)
    check_name(entrant.name)
    return _enter(tracker, entrant, count, npc=True, source=source)


# --- turns --------------------------------------------------------------------------------------


def _pass(tracker: Tracker, order: tuple[int, ...], **changes: object) -> Passed:
    """The turn passes from the acting combatant (or starts a round) with ``order`` as the
    order from now on: the first combatant after the acting one in the old order that is
    still in it acts, or a new round starts with the first in order."""
    remaining = set(order)
    after: list[int] = []
    if tracker.current is not None and tracker.current in tracker.order:
        after = list(tracker.order[tracker.order.index(tracker.current) + 1 :])
    nxt = next((cid for cid in after if cid in remaining), None)
    update: dict[str, object] = {"order": order, "turn": tracker.turn + 1, **changes}
    if nxt is not None and tracker.round > 0:
        update["current"] = nxt
        return Passed(tracker=tracker.model_copy(update=update))
    update["current"] = order[0] if order else None
    update["round"] = tracker.round + 1 if order else tracker.round
    return Passed(tracker=tracker.model_copy(update=update), new_round=bool(order))


def next_turn(
    tracker: Tracker, member_id: int, *, storyteller: bool, seen_turn: int | None = None
) -> Passed:
    """Next: the acting combatant's owner or the Storyteller passes the turn; the first
    Next starts round 1. ``seen_turn`` is the turn the pressed card showed."""
    _check(tracker, Move.NEXT, member_id, storyteller=storyteller)
    if seen_turn is not None and seen_turn != tracker.turn:
        acting = tracker.acting
        raise _refuse(RefusalCode.INIT_TURN_MOVED, name="" if acting is None else acting.label)
    return _pass(tracker, tracker.order)


def delayed(
    tracker: Tracker, member_id: int, *, storyteller: bool, seen_turn: int | None = None
) -> Passed:
    """The acting combatant delays: it leaves the order and the turn passes."""
    _check(tracker, Move.DELAY, member_id, storyteller=storyteller)
    acting = tracker.acting
    assert acting is not None  # noqa: S101 - blocked() refuses a delay with nobody acting
    if seen_turn is not None and seen_turn != tracker.turn:
        raise _refuse(RefusalCode.INIT_TURN_MOVED, name=acting.label)
    order = tuple(cid for cid in tracker.order if cid != acting.id)
    return _pass(tracker, order, delayed=(*tracker.delayed, acting.id))


def acted_now(
    tracker: Tracker, member_id: int, *, storyteller: bool, seen_turn: int | None = None
) -> Tracker:
    """A delayed combatant re-enters before whoever is acting, and acts now; that is its
    place in the order from then on. ``seen_turn`` is the turn the pressed card showed: a
    second press of one card (a Storyteller's, with two combatants delayed) brings back
    no second one."""
    _check(tracker, Move.ACT_NOW, member_id, storyteller=storyteller)
    back = _delayed_for(tracker, member_id, storyteller=storyteller)
    assert back is not None  # noqa: S101 - blocked() refuses an Act now with nobody delayed
    if seen_turn is not None and seen_turn != tracker.turn:
        acting = tracker.acting
        raise _refuse(RefusalCode.INIT_TURN_MOVED, name="" if acting is None else acting.label)
    order = list(tracker.order)
    place = order.index(tracker.current) if tracker.current in order else len(order)
    order.insert(place, back.id)
    return tracker.model_copy(update={
        "order": tuple(order),
        "delayed": tuple(cid for cid in tracker.delayed if cid != back.id),
        "current": back.id,
        "turn": tracker.turn + 1,
    })


def removed(tracker: Tracker, name: str, *, storyteller: bool) -> tuple[Passed, tuple[str, ...]]:
    """The Storyteller removes the combatant with this label, or every combatant of the
    group with this name; when the acting one goes, the turn passes. Answers the labels
    removed too."""
    _check(tracker, Move.REMOVE, 0, storyteller=storyteller)
    key = label_key(name)
    gone = [c for c in tracker.combatants if label_key(c.label) == key]
    if not gone:
        gone = [c for c in tracker.combatants if c.group is not None and label_key(c.name) == key]
    if not gone:
        raise _refuse(RefusalCode.INIT_NO_SUCH_COMBATANT, name=name)
    ids = {c.id for c in gone}
    changes: dict[str, object] = {
        "combatants": tuple(c for c in tracker.combatants if c.id not in ids),
        "delayed": tuple(cid for cid in tracker.delayed if cid not in ids),
    }
    order = tuple(cid for cid in tracker.order if cid not in ids)
    labels = tuple(c.label for c in gone)
    if tracker.current in ids:
        return _pass(tracker, order, **changes), labels
    return Passed(tracker=tracker.model_copy(update={"order": order, **changes})), labels


def ended(tracker: Tracker, member_id: int, *, storyteller: bool) -> Tracker:
    """The Storyteller ends the fight."""
    _check(tracker, Move.END, member_id, storyteller=storyteller)
    return tracker.model_copy(update={"status": Status.ENDED})


def scene_ended(tracker: Tracker) -> Tracker | None:
    """`/scene end` ends an open tracker (None: it was over already)."""
    if tracker.status is not Status.OPEN:
        return None
    return tracker.model_copy(update={"status": Status.SCENE_ENDED})
