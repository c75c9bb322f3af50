"""Extended actions: successes accumulated over rolls, one roll per interval.

`cofd` extended actions (RULES.md §1), `v20` extended and resisted extended
actions (§2), `fistful` ongoing efforts and ongoing contests (§3), as one
state machine. The bot does no arithmetic:

1. :func:`start` opens the action (refusals raise :class:`RuleError`);
2. :func:`roll_request` (and :func:`against_request` for the resisting side)
   build the requests with every automatic adjustment on them;
3. the bot rolls them with :func:`engine.roll.roll`;
4. :func:`apply_roll` reads the results: an :class:`ExtendedStep` with the new
   state, what happened, and the choices the player is offered next;
5. :func:`choose` applies a decision. A roll is refused while one is pending.

:func:`revise` re-reads the last roll after Will is spent on it or a Beat is
taken, as long as no decision has been made since. The state is plain data
(numbers, enums, the player's own words for Conditions and the interval unit),
so it round-trips through JSON; the store adds versioning.

Decisions where RULES.md is silent:

- A roll that leaves no roll to spare and the requirement unmet ends the
  action at once: no choice is offered that could not change that. A `cofd`
  exceptional success on the last roll reduces the requirement by itself when
  that completes the action (``applied``); a failure, dramatic failure or
  botch on the last roll fails it.
- An exceptional success that completes the action grants the exceptional
  result (the other two choices mean nothing any more).
- The interval shrinks by a quarter of its current length at each reduction
  (compounding, so it never reaches zero).
- Starting over after a botch resets the successes (both sides' in a `v20`
  resisted action) but not the rolls used: a roll limit is time spent.
- `fistful` ongoing contest: resistance reduces successes (§3 step 7), so a
  turn's change is the actor's successes minus the resister's, and when the
  resister's are more, the excess comes off the total (never below 0).
- `v20` resisted: when both sides reach the requirement on the same roll, more
  successes wins; equal totals are a tie, and in a tie neither succeeds, so
  the action fails.
- A `fistful` effort may set only a number of rolls: it then completes with
  whatever it accumulated (status ``completed``); with both, the successes
  must come within the rolls. A botch on the last roll of an effort measured
  in rolls only still derails it, and the Storyteller may still waive it (the
  effort then completes); starting over is not offered (no roll is left to
  start over with), so the player abandons otherwise.
- Shortening the interval is offered even when no interval was given (the
  table may keep time itself); it is counted all the same.
- `cofd` named traits are the labelled terms that are not negative (a
  labelled negative term is a penalty, not a trait).
- `cofd` Skill dots from the second named trait are a typed pool's rule: a
  trait read from a character sheet is never taken for the Skill, since the
  sheet knows which traits are Skills and the bot passes the named Skill's
  dots as ``skill`` (RULES.md §6). A sheet pool that names no Skill
  (``Resolve + Composure``) offers no Skill reduction; a Skill typed with its
  number beside sheet traits (``Wits + Brawl 2``) still counts as the second
  named trait.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum
from fractions import Fraction
from typing import Any, Final, Literal, Self

from pydantic import Field, model_validator

from engine.constants import MAX_POOL, MAX_TARGET
from engine.frozen import Frozen
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    TermSource,
)
from engine.offers import Offers, offers
from engine.prepare import prepare
from engine.records import ActionStatus, RollRecord
from engine.refusals import Refusal, RefusalCode, names
from engine.roll import RuleError
from engine.table.contest import check_resisted
from engine.text import visible_line

#: Largest roll limit an extended action may set.
MAX_ROLLS: Final = 1000
#: Longest Condition name, in characters.
MAX_CONDITION: Final = 100
#: Longest interval unit ("minutes", "hours of study"), in characters.
MAX_UNIT: Final = 40
#: Dice the roll after a `cofd` dramatic failure loses.
CARRY_DICE: Final = -2
#: What each interval reduction leaves of the interval.
SHORTENED: Final = Fraction(3, 4)


class Status(StrEnum):
    """Where an extended action stands."""

    OPEN = "open"
    SUCCEEDED = "succeeded"
    COMPLETED = "completed"
    """A `fistful` effort measured in rolls only has made all its rolls."""
    FAILED = "failed"
    ABANDONED = "abandoned"


class Choice(StrEnum):
    """What the player (or, for ``waive``, the Storyteller) may do next."""

    ROLL = "roll"
    TAKE_CONDITION = "take_condition"
    LOSE_PROGRESS = "lose_progress"
    ABANDON = "abandon"
    REDUCE_REQUIRED = "reduce_required"
    SHORTEN_INTERVAL = "shorten_interval"
    EXCEPTIONAL_RESULT = "exceptional_result"
    START_OVER = "start_over"
    WAIVE = "waive"
    """`fistful`: the Storyteller waives the botch; the effort goes on."""


class Event(StrEnum):
    """What a roll did to the action."""

    PROGRESS = "progress"
    """Successes added."""
    NO_PROGRESS = "no_progress"
    """`v20`/`fistful`: nothing gained, nothing lost."""
    EXCEPTIONAL = "exceptional"
    """`cofd`: successes added, and an exceptional choice."""
    SETBACK = "setback"
    """`cofd` failure: a Condition, lost progress or abandoning."""
    DRAMATIC_SETBACK = "dramatic_setback"
    """`cofd` dramatic failure: a setback, and the next roll has −2 dice."""
    DERAILED = "derailed"
    """`v20`/`fistful`: the actor botched: start over or abandon."""
    RESISTED = "resisted"
    """`fistful` ongoing contest: the resister's roll beat the actor's; the excess was lost."""
    OUTPACED = "outpaced"
    """`v20` resisted: the resister reached the requirement first (or tied)."""


_SETBACK_CHOICES = (Choice.TAKE_CONDITION, Choice.LOSE_PROGRESS, Choice.ABANDON)
_DERAILED_CHOICES = {
    Ruleset.V20: (Choice.START_OVER, Choice.ABANDON),
    Ruleset.FISTFUL: (Choice.START_OVER, Choice.ABANDON, Choice.WAIVE),
}
#: A `fistful` effort measured in rolls only, derailed on its last roll: nothing is left to
#: start over with, but the Storyteller's waiver would complete it.
_LAST_ROLL_DERAILED = (Choice.ABANDON, Choice.WAIVE)
#: Where a term read from a character sheet came from: the sheet knows whether it is a Skill.
_FROM_SHEET = frozenset({TermSource.SHEET, TermSource.DERIVED})
#: Adjustments the extended action owns: successive attempts never apply to it (RULES.md §1).
_NOT_EXTENDED = frozenset({AdjustmentKind.SUCCESSIVE_ATTEMPT, AdjustmentKind.EXTENDED_PENALTY})


class Interval(Frozen):
    """The time one roll takes, as the table gave it: ``30`` ``minutes``."""

    amount: int = Field(gt=0)
    unit: str = Field(min_length=1, max_length=MAX_UNIT)


class ExtendedState(Frozen):
    """An extended action between rolls."""

    request: RollRequest
    """The actor's pool and options as declared; each roll may change the pool."""
    target: int | None = Field(default=None, ge=1, le=MAX_TARGET)
    """Successes required as set (None only for a `fistful` effort measured in rolls)."""
    max_rolls: int | None = Field(default=None, ge=1, le=MAX_ROLLS)
    skill: int | None = Field(default=None, ge=1)
    """`cofd`: the Skill dots the requirement drops by; None: that choice is not offered."""
    interval: Interval | None = None
    against: RollRequest | None = None
    """The resisting side's pool (`v20` resisted, `fistful` ongoing contest)."""
    total: int = Field(default=0, ge=0)
    resisted_total: int = Field(default=0, ge=0)
    """`v20` resisted: the resister's accumulated successes."""
    rolls: int = Field(default=0, ge=0)
    reduced_by: int = Field(default=0, ge=0)
    """Successes taken off the requirement by exceptional choices."""
    shortened: int = Field(default=0, ge=0)
    """How many times the interval was reduced by a quarter."""
    exceptional_result: bool = False
    conditions: tuple[str, ...] = ()
    carry: bool = False
    """`cofd`: the next roll at this task has −2 dice (after a dramatic failure).

    Still set when the action ends, so the bot can hand it to a fresh attempt
    at the same task in the channel (``start(carry=True)``).
    """
    status: Status = Status.OPEN
    pending: tuple[Choice, ...] = ()
    """Choices awaiting a decision; no roll until one is made."""
    undo: ExtendedState | None = None
    """The state before the last roll, while no decision has followed it (see :func:`revise`)."""

    @model_validator(mode="after")
    def _one_undo_deep(self) -> Self:
        if self.undo is not None and self.undo.undo is not None:
            msg = "undo keeps one state, never a chain"
            raise ValueError(msg)
        return self

    @property
    def ruleset(self) -> Ruleset:
        return self.request.ruleset

    @property
    def required(self) -> int | None:
        """Successes still required in all: the target less the reductions."""
        return None if self.target is None else max(0, self.target - self.reduced_by)

    @property
    def rolls_left(self) -> int | None:
        return None if self.max_rolls is None else self.max_rolls - self.rolls


class ExtendedStep(Frozen):
    """What one roll did."""

    state: ExtendedState
    event: Event
    change: int
    """The change in the actor's total (negative when resistance ate progress)."""
    opposed: int | None = None
    """Resisted actions: the resister's successes that counted this roll."""
    applied: Choice | None = None
    """An exceptional choice the engine made because only it could matter."""
    choices: tuple[Choice, ...]


def start(
    request: RollRequest,
    *,
    target: int | None,
    max_rolls: int | None = None,
    skill: int | None = None,
    interval: Interval | None = None,
    against: RollRequest | None = None,
    carry: bool = False,
) -> ExtendedState:
    """Open an extended action; raises :class:`RuleError` with the reason when it cannot be.

    `cofd`: ``max_rolls`` defaults to the sum of the pool's named traits
    (labelled terms that are not penalties) plus specialty, else the pool as
    given plus specialty; ``skill`` to the second named trait, unless that was read
    from a sheet (the caller passes a sheet Skill's dots). ``carry`` is a
    dramatic failure's −2 from an earlier attempt at the same task. `v20`
    resisted: each side's difficulty is 2 to 9 (:func:`~engine.table.contest.check_resisted`).
    """
    ruleset = request.ruleset
    if request.will or (against is not None and against.will):
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_WILL))
    if target is not None and not 1 <= target <= MAX_TARGET:
        raise RuleError(
            Refusal.of(RefusalCode.EXTENDED_TARGET_RANGE, target=target, max=MAX_TARGET)
        )
    if max_rolls is not None and not 1 <= max_rolls <= MAX_ROLLS:
        raise RuleError(
            Refusal.of(RefusalCode.EXTENDED_ROLLS_RANGE, rolls=max_rolls, max=MAX_ROLLS)
        )
    if target is None and (ruleset is not Ruleset.FISTFUL or max_rolls is None):
        raise RuleError(
            Refusal.of(
                RefusalCode.EXTENDED_NO_TARGET_OR_ROLLS if ruleset is Ruleset.FISTFUL
                else RefusalCode.EXTENDED_NO_TARGET
            )
        )
    # A member's option foreign to the ruleset is refused naming it (COMMANDS.md); a
    # carried penalty is the bot's own, never typed.
    if ruleset is not Ruleset.COFD and skill is not None:
        raise RuleError(
            Refusal.of(RefusalCode.EXTENDED_SKILL_COFD_ONLY, option="skill", ruleset=ruleset.value)
        )
    if ruleset is not Ruleset.COFD and carry:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_CARRY_COFD_ONLY, ruleset=ruleset.value))
    if against is not None:
        if ruleset is Ruleset.COFD:
            raise RuleError(
                Refusal.of(
                    RefusalCode.EXTENDED_RESISTED_COFD, option="against", ruleset=ruleset.value
                )
            )
        if against.ruleset is not ruleset:
            raise RuleError(
                Refusal.of(
                    RefusalCode.EXTENDED_RESISTING_RULESET,
                    against=against.ruleset.value, ruleset=ruleset.value,
                )
            )
        check_resisted(
            ruleset, {"difficulty": request.difficulty, "against_difficulty": against.difficulty}
        )
    for code, side_request in (
        (RefusalCode.EXTENDED_POOL_REFUSED, request),
        (RefusalCode.EXTENDED_RESISTING_POOL_REFUSED, against),
    ):
        if side_request is not None:
            prepared = prepare(side_request)
            if isinstance(prepared, Refusal):
                raise RuleError(Refusal.of(code, cause=prepared))
    if ruleset is Ruleset.COFD:
        max_rolls, skill = _cofd_limits(request, max_rolls, skill)
    kept = tuple(adj for adj in request.adjustments if adj.kind not in _NOT_EXTENDED)
    return ExtendedState(
        request=request.model_copy(update={"adjustments": kept}),
        target=target,
        max_rolls=max_rolls,
        skill=skill or None,
        interval=interval,
        against=against,
        carry=carry,
    )


def _cofd_limits(
    request: RollRequest, max_rolls: int | None, skill: int | None
) -> tuple[int, int | None]:
    """The roll limit and Skill dots (RULES.md §1: `Intelligence 3 + Academics 2` allows 5)."""
    traits = [term for term in request.terms if term.label is not None and term.value >= 0]
    if skill is not None and not 0 <= skill <= MAX_POOL:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_SKILL_RANGE, skill=skill, max=MAX_POOL))
    if skill is None and len(traits) >= 2 and traits[1].source not in _FROM_SHEET:
        skill = traits[1].value
    if max_rolls is None:
        dots = sum(term.value for term in traits)
        max_rolls = (dots if traits else request.base) + (1 if request.specialty else 0)
        if not 1 <= max_rolls <= MAX_ROLLS:
            raise RuleError(
                Refusal.of(
                    RefusalCode.EXTENDED_DEFAULT_ROLLS_RANGE, rolls=max_rolls, max=MAX_ROLLS
                )
            )
    return max_rolls, skill


def choices(state: ExtendedState) -> tuple[Choice, ...]:
    """What may be done now: the pending decision, else roll; abandon while open; nothing after."""
    if state.status is not Status.OPEN:
        return ()
    if not state.pending:
        return (Choice.ROLL, Choice.ABANDON)
    return state.pending if Choice.ABANDON in state.pending else (*state.pending, Choice.ABANDON)


def _check_can_roll(state: ExtendedState) -> None:
    if state.status is not Status.OPEN:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_ENDED, status=state.status.value))
    if state.pending:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_DECISION_PENDING))


def _with_changes(
    request: RollRequest,
    changes: Sequence[Term],
    will: bool,
    adjustments: Sequence[Adjustment],
) -> RollRequest:
    return request.model_copy(
        update={
            "terms": (*request.terms, *changes),
            "adjustments": (*request.adjustments, *adjustments),
            "will": will,
        }
    )


def roll_request(
    state: ExtendedState,
    changes: Sequence[Term] = (),
    *,
    will: bool = False,
    adjustments: Sequence[Adjustment] = (),
) -> RollRequest:
    """The actor's next roll: the declared pool, this roll's ``changes`` and adjustments.

    ``adjustments`` are other automatic ones (the `fistful` Successive Action
    Penalty); a successive-attempt penalty among them is dropped, as it never
    applies to an extended action. A `cofd` carry adds the −2 extended penalty.
    """
    _check_can_roll(state)
    own = [adj for adj in adjustments if adj.kind not in _NOT_EXTENDED]
    return _with_changes(state.request, changes, will, [*own, *_carry(state)])


def _carry(state: ExtendedState) -> tuple[Adjustment, ...]:
    if not state.carry:
        return ()
    return (Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=CARRY_DICE),)


def against_request(
    state: ExtendedState, changes: Sequence[Term] = (), *, will: bool = False
) -> RollRequest:
    """The resisting side's roll for this interval."""
    _check_can_roll(state)
    if state.against is None:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_NOT_RESISTED))
    return _with_changes(state.against, changes, will, ())


#: Refusal codes of a side's roll: (wrong ruleset, did not happen).
_ACTOR = (RefusalCode.EXTENDED_ROLL_RULESET, RefusalCode.EXTENDED_ROLL_REFUSED)
_RESISTER = (
    RefusalCode.EXTENDED_RESISTING_ROLL_RULESET, RefusalCode.EXTENDED_RESISTING_ROLL_REFUSED
)


def _check_result(
    state: ExtendedState, side: tuple[RefusalCode, RefusalCode], result: RollResult
) -> None:
    wrong_ruleset, did_not_happen = side
    if result.request.ruleset is not state.ruleset:
        raise RuleError(
            Refusal.of(
                wrong_ruleset, rolled=result.request.ruleset.value, ruleset=state.ruleset.value
            )
        )
    if result.refused:
        raise RuleError(Refusal.of(did_not_happen, cause=result.refusal))


def _check_rolled_from_state(state: ExtendedState, result: RollResult) -> None:
    """The actor's roll must carry exactly the adjustments the action owns."""
    owned = [adj for adj in result.request.adjustments if adj.kind in _NOT_EXTENDED]
    if owned != list(_carry(state)):
        msg = "roll the actor's request from roll_request (the extended penalty applies)"
        raise ValueError(msg)


def apply_roll(
    state: ExtendedState, result: RollResult, against: RollResult | None = None
) -> ExtendedStep:
    """Read this interval's roll (and the resister's, for a resisted action)."""
    _check_can_roll(state)
    _check_result(state, _ACTOR, result)
    _check_rolled_from_state(state, result)
    if (against is None) != (state.against is None):
        raise RuleError(
            Refusal.of(
                RefusalCode.EXTENDED_RESISTING_ROLL_MISSING
                if against is None
                else RefusalCode.EXTENDED_RESISTING_ROLL_UNWANTED
            )
        )
    if against is not None:
        _check_result(state, _RESISTER, against)
    before = state.model_copy(update={"undo": None})
    rolled = state.model_copy(update={"rolls": state.rolls + 1, "undo": before})
    if state.ruleset is Ruleset.COFD:
        return _apply_cofd(rolled, result)
    if state.ruleset is Ruleset.V20:
        return _apply_v20(rolled, result, against)
    return _apply_fistful(rolled, result, against)


def revise(
    state: ExtendedState, result: RollResult, against: RollResult | None = None
) -> ExtendedStep:
    """Read the last roll again after Will spent on it (or a Beat), from the state before it.

    Refused once a decision or another roll has followed it.
    """
    if state.undo is None:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_LAST_ROLL_FINAL))
    return apply_roll(state.undo, result, against)


def _ended(state: ExtendedState) -> Status:
    """The status the numbers give: reached, outpaced, out of rolls, or still open."""
    required = state.required
    reached = required is not None and state.total >= required
    resister = state.against is not None and state.ruleset is Ruleset.V20
    outpaced = resister and required is not None and state.resisted_total >= required
    if reached and not (outpaced and state.resisted_total >= state.total):
        return Status.SUCCEEDED
    if outpaced:
        return Status.FAILED
    if state.rolls_left == 0:
        return Status.COMPLETED if state.target is None else Status.FAILED
    return Status.OPEN


def _step(
    state: ExtendedState,
    event: Event,
    change: int,
    pending: tuple[Choice, ...] = (),
    *,
    opposed: int | None = None,
    applied: Choice | None = None,
) -> ExtendedStep:
    """Close the step: a decision is offered only while rolls remain, else the action ends.

    A derailed attempt with no roll left cannot start over: it fails, unless it is an
    effort measured in rolls only, which waiving the botch would complete (with what it
    gathered): that waits for the Storyteller's waiver or for abandoning.
    """
    if pending and state.rolls_left != 0:
        state = state.model_copy(update={"pending": pending})
    elif event is Event.DERAILED and state.target is None and Choice.WAIVE in pending:
        state = state.model_copy(update={"pending": _LAST_ROLL_DERAILED})
    elif event is Event.DERAILED:
        state = state.model_copy(update={"status": Status.FAILED})
    else:
        state = state.model_copy(update={"status": _ended(state)})
    return ExtendedStep(
        state=state, event=event, change=change, opposed=opposed, applied=applied,
        choices=choices(state),
    )


def _apply_cofd(state: ExtendedState, result: RollResult) -> ExtendedStep:
    outcome = result.outcome
    gained = result.successes if result.succeeded else 0
    state = state.model_copy(
        update={"total": state.total + gained, "carry": outcome is Outcome.DRAMATIC_FAILURE}
    )
    if outcome is Outcome.DRAMATIC_FAILURE:
        return _step(state, Event.DRAMATIC_SETBACK, 0, _SETBACK_CHOICES)
    if outcome is Outcome.FAILURE:
        return _step(state, Event.SETBACK, 0, _SETBACK_CHOICES)
    if outcome is Outcome.SUCCESS:
        return _step(state, Event.PROGRESS, gained)
    if _ended(state) is Status.SUCCEEDED:
        done = state.model_copy(update={"exceptional_result": True})
        return _step(done, Event.EXCEPTIONAL, gained, applied=Choice.EXCEPTIONAL_RESULT)
    if state.rolls_left == 0 and state.skill is not None:
        reduced = state.model_copy(update={"reduced_by": state.reduced_by + state.skill})
        if _ended(reduced) is Status.SUCCEEDED:
            return _step(reduced, Event.EXCEPTIONAL, gained, applied=Choice.REDUCE_REQUIRED)
    offered: tuple[Choice, ...] = (Choice.SHORTEN_INTERVAL, Choice.EXCEPTIONAL_RESULT)
    if state.skill is not None:
        offered = (Choice.REDUCE_REQUIRED, *offered)
    return _step(state, Event.EXCEPTIONAL, gained, offered)


def _apply_v20(
    state: ExtendedState, result: RollResult, against: RollResult | None
) -> ExtendedStep:
    opposed = None if against is None else against.successes
    if result.outcome is Outcome.BOTCH:
        # The actor's botch ends the attempt: the resister's roll does not count.
        return _step(
            state, Event.DERAILED, 0, _DERAILED_CHOICES[Ruleset.V20],
            opposed=None if opposed is None else 0,
        )
    gained = result.successes
    state = state.model_copy(
        update={
            "total": state.total + gained,
            "resisted_total": state.resisted_total + (opposed or 0),
        }
    )
    required = state.required
    outpaced = (
        opposed is not None
        and required is not None
        and state.resisted_total >= required
        and _ended(state) is Status.FAILED
    )
    event = Event.OUTPACED if outpaced else Event.PROGRESS if gained else Event.NO_PROGRESS
    return _step(state, event, gained, opposed=opposed)


def _apply_fistful(
    state: ExtendedState, result: RollResult, against: RollResult | None
) -> ExtendedStep:
    # A botch has no successes, so on either side it counts as 0 here.
    ours = result.successes
    theirs = 0 if against is None else against.successes
    change = max(ours - theirs, -state.total)
    state = state.model_copy(update={"total": state.total + change})
    opposed = None if against is None else theirs
    if result.outcome is Outcome.BOTCH:
        return _step(
            state, Event.DERAILED, change, _DERAILED_CHOICES[Ruleset.FISTFUL], opposed=opposed
        )
    event = Event.RESISTED if theirs > ours else Event.PROGRESS if change else Event.NO_PROGRESS
    return _step(state, event, change, opposed=opposed)


def choose(
    state: ExtendedState, choice: Choice, condition_name: str | None = None
) -> ExtendedState:
    """Apply a decision; raises :class:`RuleError` when ``choice`` is not offered now.

    ``abandon`` is offered whenever the action is open; every other choice
    only while it is pending. ``condition_name`` goes with ``take_condition``
    and nothing else.
    """
    if state.status is not Status.OPEN:
        raise RuleError(Refusal.of(RefusalCode.EXTENDED_ENDED, status=state.status.value))
    offered = [c for c in choices(state) if c is not Choice.ROLL]
    if choice not in offered:
        raise RuleError(
            Refusal.of(RefusalCode.CHOICE_NOT_OFFERED, choice=str(choice), choices=names(offered))
        )
    name = None if condition_name is None else condition_name.strip()
    if (choice is Choice.TAKE_CONDITION) != (condition_name is not None):
        raise RuleError(
            Refusal.of(
                RefusalCode.CONDITION_NAME_MISSING
                if choice is Choice.TAKE_CONDITION
                else RefusalCode.CONDITION_NAME_UNWANTED
            )
        )
    # One line someone can read, as a sheet's Condition (no zero-width space, line break
    # or bidirectional override: the card would show the Condition as nothing).
    if name is not None and (not 1 <= len(name) <= MAX_CONDITION or not visible_line(name)):
        raise RuleError(Refusal.of(RefusalCode.CONDITION_NAME_LENGTH, max=MAX_CONDITION))
    cleared: dict[str, Any] = {"pending": (), "undo": None}
    if choice is Choice.ABANDON:
        return state.model_copy(update={**cleared, "status": Status.ABANDONED})
    update = cleared
    if choice is Choice.TAKE_CONDITION:
        update["conditions"] = (*state.conditions, name)
    elif choice is Choice.LOSE_PROGRESS:
        update["total"] = 0
    elif choice is Choice.REDUCE_REQUIRED:
        update["reduced_by"] = state.reduced_by + (state.skill or 0)
    elif choice is Choice.SHORTEN_INTERVAL:
        update["shortened"] = state.shortened + 1
    elif choice is Choice.EXCEPTIONAL_RESULT:
        update["exceptional_result"] = True
    elif choice is Choice.START_OVER:
        update.update(total=0, resisted_total=0)
    # Choice.WAIVE: the botch counts as a roll without successes; nothing else changes.
    decided = state.model_copy(update=update)
    return decided.model_copy(update={"status": _ended(decided)})


def interval_length(state: ExtendedState) -> Fraction | None:
    """The interval of the next roll, in the table's unit, after every reduction."""
    if state.interval is None:
        return None
    return state.interval.amount * SHORTENED**state.shortened


# --- the saved action ---------------------------------------------------------------------


class ExtendedAction(Frozen):
    """What the store keeps for an extended action: the state and what its card tells.

    ``last`` is what the last roll did (told on the card), ``last_roll_id`` which
    roll that was, ``against`` the resisting side's roll of that interval (needed
    to re-read it after Will or a Beat), and ``decision`` what was chosen since.
    Saved as JSON and parsed with ``ActionRecord.state(ExtendedAction)``; a row
    saved before ``schema_version`` existed is version 1.
    """

    schema_version: Literal[1] = 1
    state: ExtendedState
    owner_name: str
    last: ExtendedStep | None = None
    last_roll_id: int | None = None
    against: RollResult | None = None
    decision: Choice | None = None
    character_id: int | None = Field(default=None, exclude_if=lambda v: v is None)
    """The owner's character the action was started with: its Will is spent on the rolls."""
    character_name: str | None = Field(default=None, exclude_if=lambda v: v is None)

    @property
    def live(self) -> bool:
        """Open for rolls and decisions (not merely waiting to see if its last roll changes)."""
        return self.state.status is Status.OPEN


def roll_offers(action: ExtendedAction, roll: RollRecord) -> Offers:
    """What an extended roll's message offers now: Spend Will and Take a Beat while it is
    the action's last roll, no decision has followed it and the roll itself still allows
    them (never Try again: the next interval is the card's Roll)."""
    if action.last_roll_id != roll.id or action.state.undo is None:
        return Offers()
    offered = offers(roll)
    return Offers(will=offered.will, beat=offered.beat)


def stored_status(state: ExtendedState, last_roll: RollRecord | None) -> ActionStatus:
    """Open while the action is, or while its last roll can still change it (Spend Will,
    Take a Beat); closed once it ended and that roll can no longer change."""
    if state.status is Status.OPEN:
        return ActionStatus.OPEN
    if last_roll is not None and offers(last_roll).any():
        return ActionStatus.OPEN
    return ActionStatus.CLOSED
