"""Extended actions as players see them: the card, the line on each roll, the list, refusals.

The card (COMMANDS.md "Table state") shows the label, a progress bar, the
rolls used and allowed, the interval (after every reduction), the Conditions
taken, what the last roll did and what was decided since. Its buttons are
exactly the choices the engine offers now, drawn from the key-only ids of
:mod:`bot.edge.ids` (``sb1:ext:<choice>:<action id>:<version>``: a press on a
card the action has moved past is recognised by its version); an extended
roll's Spend Will and Take a Beat carry ``sb1:extroll:<will|beat>:<roll id>``,
and the Take a Condition form ``sb1:extcond:<action id>:<version>``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from typing import Final

import discord

from bot.edge import ids
from bot.render.buttons import roll_buttons, view_of
from bot.render.message import Message, plain_off, shaped
from bot.render.rolls import LABEL_LIMIT, NAME_LIMIT, RULESET_NAMES, roll_message
from bot.render.text import (
    INFO_COLOUR,
    OUTCOME_WORDS,
    breakdown_text,
    dice,
    options_text,
    plural,
    safe,
)
from engine.models import RollResult, Ruleset, WillUse
from engine.parser import format_pool
from engine.prepare import prepare
from engine.records import ActionRecord, ChannelConfig, RollRecord
from engine.refusals import Refusal
from engine.table.extended import (
    CARRY_DICE,
    MAX_CONDITION,
    MAX_UNIT,
    Choice,
    Event,
    ExtendedAction,
    ExtendedState,
    ExtendedStep,
    Status,
    choices,
    interval_length,
    roll_offers,
)

#: Cells of the progress bar.
BAR_CELLS: Final = 10
_FIELD_LIMIT: Final = 1024

#: The Take a Condition form (Discord allows 45 characters in a title or label).
CONDITION_TITLE: Final = "Take a Condition"
CONDITION_FIELD: Final = "Condition"
CONDITION_DESCRIPTION: Final = "Its name, as your table calls it. Your progress is kept."
#: The form's one text field (its custom_id: the value comes back under it).
CONDITION_INPUT: Final = "condition"

_STYLES: Final[dict[Choice, discord.ButtonStyle]] = {
    Choice.ROLL: discord.ButtonStyle.primary,
    Choice.ABANDON: discord.ButtonStyle.danger,
    Choice.LOSE_PROGRESS: discord.ButtonStyle.danger,
}

_CHOICE_LABELS: Final[dict[Choice, str]] = {
    Choice.ROLL: "Roll",
    Choice.TAKE_CONDITION: "Take a Condition",
    Choice.LOSE_PROGRESS: "Lose progress",
    Choice.ABANDON: "Abandon",
    Choice.REDUCE_REQUIRED: "Reduce required",
    Choice.SHORTEN_INTERVAL: "Shorten interval",
    Choice.EXCEPTIONAL_RESULT: "Exceptional result",
    Choice.START_OVER: "Start over",
    Choice.WAIVE: "Waive the botch (Storyteller)",
}

_STATUS_WORDS: Final[dict[Status, str]] = {
    Status.OPEN: "in progress",
    Status.SUCCEEDED: "succeeded",
    Status.COMPLETED: "completed",
    Status.FAILED: "failed",
    Status.ABANDONED: "abandoned",
}

_STATUS_COLOURS: Final[dict[Status, discord.Colour]] = {
    Status.OPEN: INFO_COLOUR,
    Status.SUCCEEDED: discord.Colour.green(),
    Status.COMPLETED: discord.Colour.green(),
    Status.FAILED: discord.Colour.dark_red(),
    Status.ABANDONED: discord.Colour.dark_grey(),
}

_DECISIONS: Final[dict[Choice, str]] = {
    Choice.LOSE_PROGRESS: "Progress lost: back to 0 successes.",
    Choice.ABANDON: "Abandoned.",
    Choice.SHORTEN_INTERVAL: "Each following roll takes a quarter less time.",
    Choice.EXCEPTIONAL_RESULT: "The exceptional result is gained when the action succeeds.",
    Choice.START_OVER: "Started over from 0 successes.",
    Choice.WAIVE: "The Storyteller waived the botch: the effort goes on.",
}


def choice_label(choice: Choice, state: ExtendedState) -> str:
    """A card button's label: ``Reduce required by 2`` names the Skill dots."""
    if choice is Choice.REDUCE_REQUIRED and state.skill is not None:
        return f"Reduce required by {state.skill}"
    return _CHOICE_LABELS[choice]


# --- numbers ---------------------------------------------------------------------------------


def progress_bar(done: int, required: int, *, text_only: bool) -> str:
    """``███░░░░░░░ 3/10`` (text-only: ``3 of 10 successes``)."""
    if text_only:
        return f"{done} of {plural(required, 'success')}"
    filled = BAR_CELLS if required <= 0 else min(BAR_CELLS, done * BAR_CELLS // required)
    return f"`{'█' * filled}{'░' * (BAR_CELLS - filled)}` {done}/{required}"


def _amount(value: Fraction) -> str:
    """A shortened interval: whole numbers as such, otherwise up to two decimals."""
    if value.denominator == 1:
        return str(value.numerator)
    return f"{float(value):.2f}".rstrip("0").rstrip(".")


def _interval(state: ExtendedState) -> str | None:
    length = interval_length(state)
    if length is None or state.interval is None:
        return None
    text = f"{_amount(length)} {safe(state.interval.unit, limit=MAX_UNIT)} per roll"
    if state.shortened:
        times = "once" if state.shortened == 1 else f"{state.shortened} times"
        text += f" (shortened by a quarter {times}, from {state.interval.amount})"
    return text


def _rolls(state: ExtendedState) -> str:
    if state.max_rolls is None:
        return f"{state.rolls} used, no limit"
    return f"{state.rolls} of {state.max_rolls} used"


def _progress(state: ExtendedState, *, text_only: bool) -> str:
    required = state.required
    if required is None:
        return f"{plural(state.total, 'success')} so far (an effort measured in rolls)"
    line = progress_bar(state.total, required, text_only=text_only)
    if state.reduced_by and state.target is not None:
        line += f" (required {state.target} - {state.reduced_by} by an exceptional success)"
    if state.against is not None and state.ruleset is Ruleset.V20:
        line += "\nResisting side: " + progress_bar(
            state.resisted_total, required, text_only=text_only
        )
    return line


def _pool(state: ExtendedState) -> str:
    """The declared pool with its options, as a roll's breakdown shows it."""
    request = state.request
    prepared = prepare(request)
    text = (
        safe(format_pool(request.terms))
        if isinstance(prepared, Refusal)
        else breakdown_text(prepared.breakdown, request.ruleset, WillUse.NONE)
    )
    options = options_text(request)
    if options:
        text += f"\nOptions: {options}"
    if state.against is not None:
        against = prepare(state.against)
        resisting = (
            safe(format_pool(state.against.terms))
            if isinstance(against, Refusal)
            else breakdown_text(against.breakdown, request.ruleset, WillUse.NONE)
        )
        text += f"\nResisting: {resisting}"
    return text[:_FIELD_LIMIT]


def _conditions(state: ExtendedState) -> str:
    shown: list[str] = []
    size = 0
    for index, name in enumerate(state.conditions):
        text = safe(name, limit=MAX_CONDITION)
        if size + len(text) + 2 > _FIELD_LIMIT - 20:
            shown.append(f"… and {len(state.conditions) - index} more")
            break
        shown.append(text)
        size += len(text) + 2
    return ", ".join(shown)


# --- what happened ---------------------------------------------------------------------------


def _event(step: ExtendedStep) -> str:
    """What the last roll did, in the ruleset's words."""
    state = step.state
    event = step.event
    if event is Event.PROGRESS:
        return f"+{plural(step.change, 'success')}."
    if event is Event.NO_PROGRESS:
        return "No successes gained."
    if event is Event.EXCEPTIONAL:
        gained = f"Exceptional success: +{plural(step.change, 'success')}."
        if step.applied is Choice.EXCEPTIONAL_RESULT:
            return f"{gained} It completes the action, with the exceptional result."
        if step.applied is Choice.REDUCE_REQUIRED:
            return (
                f"{gained} Reducing the successes required by {state.skill} completes "
                "the action."
            )
        return f"{gained} Choose one of the exceptional benefits."
    if event is Event.SETBACK:
        return "Failure: a setback."
    if event is Event.DRAMATIC_SETBACK:
        return f"Dramatic failure: a setback, and the next roll at this task has {CARRY_DICE} dice."
    if event is Event.DERAILED:
        return "Botch: the attempt is derailed."
    if event is Event.RESISTED:
        return (
            f"The resisting side beat this roll: {plural(-step.change, 'success')} "
            "of progress lost."
            if step.change
            else "The resisting side beat this roll (no progress to lose)."
        )
    return "The resisting side reached the successes required first."


def _resisted(step: ExtendedStep) -> str:
    if step.opposed is None:
        return ""
    return f" The resisting side counted {plural(step.opposed, 'success')}."


def _next(state: ExtendedState, *, where: str = "") -> str:
    """What the action waits for now (``where``: " on the card", said on a roll)."""
    if state.status is not Status.OPEN:
        return _ending(state)
    pending = set(state.pending)
    if Choice.TAKE_CONDITION in pending:
        return f"Choose{where}: take a Condition (progress kept), lose all progress, or abandon."
    if Choice.SHORTEN_INTERVAL in pending:
        reduce = (
            f"reduce the successes required by {state.skill}, "
            if Choice.REDUCE_REQUIRED in pending
            else ""
        )
        return (
            f"Choose one{where}: {reduce}shorten each following roll's interval by a quarter, "
            "or gain the exceptional result when the action succeeds."
        )
    if Choice.START_OVER in pending:
        waive = " (the Storyteller may waive the botch)" if Choice.WAIVE in pending else ""
        return f"Choose{where}: start over from 0 or abandon{waive}."
    carry = (
        f" It has {dice(CARRY_DICE)} after the dramatic failure." if state.carry else ""
    )
    return f"Next: roll.{carry}"


def _ending(state: ExtendedState) -> str:
    status = state.status
    if status is Status.SUCCEEDED:
        extra = " with the exceptional result" if state.exceptional_result else ""
        return f"**Succeeded**{extra}."
    if status is Status.COMPLETED:
        return f"**Completed**: every roll made, {plural(state.total, 'success')} in all."
    if status is Status.ABANDONED:
        return "**Abandoned.**"
    required = state.required
    if (
        state.against is not None
        and required is not None
        and state.resisted_total >= required
    ):
        return "**Failed**: the resisting side reached the successes required first."
    if state.rolls_left == 0:
        return "**Failed**: the roll limit was used up before the successes required."
    return "**Failed.**"


def _decision(choice: Choice, state: ExtendedState) -> str:
    if choice is Choice.TAKE_CONDITION and state.conditions:
        name = safe(state.conditions[-1], limit=MAX_CONDITION)
        return f"Condition taken: {name}. Progress kept."
    if choice is Choice.REDUCE_REQUIRED:
        return f"Successes required reduced by {state.skill}."
    return _DECISIONS.get(choice, "")


# --- the card --------------------------------------------------------------------------------


def extended_card(
    state: ExtendedState,
    *,
    label: str,
    owner: str,
    action_id: int,
    last: ExtendedStep | None = None,
    decision: Choice | None = None,
    text_only: bool = False,
) -> discord.Embed:
    """The action's card: where it stands, what the last roll did, what comes next.

    ``last`` is what the last roll did (its state is the one right after the
    roll); ``decision`` is what was chosen since, if anything.
    """
    word = _STATUS_WORDS[state.status]
    title = f"{safe(label, limit=LABEL_LIMIT)}: extended action, {word}"
    if not text_only:
        title = f"⏳ {title}" if state.status is Status.OPEN else f"🏁 {title}"
    lines = [_progress(state, text_only=text_only)]
    if last is not None:
        lines.append(f"Last roll: {_event(last)}{_resisted(last)}")
    if decision is not None and decision is not Choice.ABANDON:  # the ending says so
        lines.append(_decision(decision, state))
    lines.append(_next(state))
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=_STATUS_COLOURS[state.status]
    )
    embed.add_field(name="Rolls", value=_rolls(state), inline=True)
    interval = _interval(state)
    if interval is not None:
        embed.add_field(name="Interval", value=interval, inline=True)
    if state.ruleset is Ruleset.COFD:  # only cofd setbacks take Conditions
        embed.add_field(name="Conditions", value=_conditions(state) or "none", inline=True)
    embed.add_field(name="Pool", value=_pool(state), inline=False)
    embed.add_field(name="Ruleset", value=RULESET_NAMES[state.ruleset], inline=True)
    embed.add_field(name="Started by", value=safe(owner, limit=NAME_LIMIT) or "?", inline=True)
    embed.set_footer(text=f"Extended action {action_id}" if text_only else f"Action #{action_id}")
    return embed


def roll_note(
    state: ExtendedState,
    step: ExtendedStep,
    *,
    label: str,
    against: RollResult | None = None,
    text_only: bool = False,
) -> str:
    """The line above an extended roll's dice: what it did to the action, and what now."""
    separator = ", " if text_only else " · "
    head = f"**{safe(label, limit=LABEL_LIMIT)}**{separator}roll {state.rolls}"
    if state.max_rolls is not None:
        head += f" of {state.max_rolls}"
    lines = [f"{head}: {_event(step)}"]
    if against is not None and step.opposed is not None:
        lines.append(
            f"Resisting roll: {OUTCOME_WORDS[against.outcome]}, "
            f"{plural(step.opposed, 'success')} counted "
            f"(faces {', '.join(str(die.face) for die in against.dice[:30])}"
            f"{', …' if len(against.dice) > 30 else ''})."
        )
    lines.append(_progress(state, text_only=text_only))
    lines.append(_next(state, where=" on the card"))
    return "\n".join(lines)


# --- messages and their buttons -------------------------------------------------------------


def card_buttons(state: ExtendedState, action_id: int, version: int) -> discord.ui.View | None:
    """The card's buttons: exactly the choices the engine offers now; None once it has ended."""
    return view_of(
        (
            ids.extended_button(choice.value, action_id, version),
            choice_label(choice, state),
            _STYLES.get(choice, discord.ButtonStyle.secondary),
        )
        for choice in choices(state)
    )


def card_message(
    record: ActionRecord,
    action: ExtendedAction,
    version: int,
    config: ChannelConfig,
    *,
    content: str = "",
) -> Message:
    """The card as it stands at ``version`` (its buttons carry that version).

    ``content``: the line above a new card ("Extended action started"); a card brought
    up to date drops it, since the action has moved on and the card itself says how.
    """
    embed = extended_card(
        action.state,
        label=record.label,
        owner=action.owner_name,
        action_id=record.id,
        last=action.last,
        decision=action.decision,
        text_only=config.text_only,
    )
    message = Message(
        content=content, embed=embed, view=card_buttons(action.state, record.id, version)
    )
    return shaped(message, config)


def roll_with_note(
    roll: RollRecord, record: ActionRecord, action: ExtendedAction, config: ChannelConfig
) -> Message:
    """An extended roll's message: what it did to the action above its dice, and Spend Will
    and Take a Beat while they can still change the action."""
    note = ""
    if action.last is not None:
        note = roll_note(
            action.state, action.last, label=record.label, against=action.against,
            text_only=config.text_only,
        )
    offered = roll_offers(action, roll)
    message = Message(
        content=note,
        embed=roll_message(roll, plain_off(config)).embed,
        view=roll_buttons(roll.id, will=offered.will, beat=offered.beat, extended=True),
    )
    return shaped(message, config)


def settled_roll(roll: RollRecord, config: ChannelConfig) -> Message:
    """An extended roll's message once a decision settled it: its dice, no buttons (its
    line is left as it was)."""
    return shaped(Message(embed=roll_message(roll, plain_off(config)).embed), config)


def condition_form(action_id: int, version: int) -> discord.ui.Modal:
    """The Take a Condition form for the card at ``version``.

    discord.py keeps a sent modal in memory to call its ``on_submit``; this one is
    stopped before it is sent, so nothing is kept: the submission is answered by the
    one form router from the key-only custom_id and the name typed, so a form opened
    before a restart still works.
    """
    form = discord.ui.Modal(title=CONDITION_TITLE, custom_id=ids.condition_form(action_id, version))
    form.add_item(
        discord.ui.Label(
            text=CONDITION_FIELD,
            description=CONDITION_DESCRIPTION,
            component=discord.ui.TextInput(
                custom_id=CONDITION_INPUT, min_length=1, max_length=MAX_CONDITION
            ),
        )
    )
    form.stop()
    return form


# --- /extended list ------------------------------------------------------------------------


@dataclass(frozen=True)
class ListedAction:
    """One open action in `/extended list`."""

    label: str
    owner: str
    state: ExtendedState
    link: str | None
    """The card's message link, when the card was posted."""


def actions_list(actions: Sequence[ListedAction], *, text_only: bool = False) -> str:
    """`/extended list`: the channel's open extended actions, oldest first."""
    if not actions:
        return "No extended action is open in this channel. Start one with /extended start."
    lines: list[str] = []
    size = 0
    for index, action in enumerate(actions):
        state = action.state
        label = safe(action.label, limit=LABEL_LIMIT)
        if action.link is not None:
            label = f"[{label}]({action.link})"
        required = state.required
        progress = (
            plural(state.total, "success")
            if required is None
            else f"{state.total}/{required}"
        )
        waiting = ", waiting for a decision" if state.pending else ""
        separator = ", " if text_only else " · "
        line = separator.join(
            [label, safe(action.owner, limit=NAME_LIMIT), progress, f"rolls {_rolls(state)}"]
        ) + waiting
        if size + len(line) + 1 > 1900:
            lines.append(f"… and {len(actions) - index} more")
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


# --- replies and refusals --------------------------------------------------------------------


def started(label: str, *, carried: bool = False) -> str:
    """The line above a new card; it says so when the last attempt's dramatic failure carries."""
    name = safe(label, limit=LABEL_LIMIT)
    line = f"Extended action started: **{name}**."
    if carried:
        line += (
            f"\nThe last attempt at it ended on a dramatic failure: the first roll has "
            f"{dice(CARRY_DICE)}."
        )
    return line


def decided(label: str, by: str, choice: Choice, state: ExtendedState) -> str:
    """A decision made by command, said in the channel: ``Ada, force the door: Abandoned.``"""
    return (
        f"**{safe(by, limit=NAME_LIMIT)}**, **{safe(label, limit=LABEL_LIMIT)}**: "
        f"{_decision(choice, state)}"
    )


def cannot_start(reason: str) -> str:
    return f"That extended action cannot be started: {reason}."


def cannot_choose(reason: str) -> str:
    return f"That cannot be chosen now: {reason}."


def cannot_revise(reason: str, *, beat: bool) -> str:
    if beat:
        return f"No Beat on this roll: {reason}."
    return f"Will cannot be spent on this roll: {reason}."


def bad_interval(text: str) -> str:
    return (
        f"I could not read the interval “{safe(text, limit=50)}”: give a number and a unit, "
        f"such as `30 minutes` or `1 day` (the unit at most {MAX_UNIT} characters)."
    )


def duplicate(label: str) -> str:
    return (
        f"An extended action “{safe(label, limit=LABEL_LIMIT)}” is already open in this "
        "channel: roll it or abandon it first, or give the new one another label."
    )


def not_found(label: str) -> str:
    return (
        f"No open extended action “{safe(label, limit=LABEL_LIMIT)}” in this channel. "
        "/extended list shows the open ones."
    )


NONE_OPEN = "You have no open extended action in this channel. Start one with /extended start."
WHICH_ONE = (
    "Several extended actions are open in this channel: name one with `label:` "
    "(/extended list shows them)."
)
GONE = "I no longer know this extended action, so nothing was changed."
STALE = "This card is out of date: the action moved on, so nothing was changed."
FORM_STALE = (
    "The action moved on while the form was open, so no Condition was taken. "
    "Use the card's current buttons."
)
WAIVE_STORYTELLER = "Only the Storyteller can waive a botch."
ROLL_MOVED_ON = (
    "This roll can no longer change the extended action: a decision or another roll has "
    "followed it, so nothing was changed."
)
AGAINST_DIFFICULTY_ALONE = (
    "against_difficulty is the resisting side's difficulty: give the resisting pool with "
    "`against:` too."
)
EMPTY_CONDITION = f"Name the Condition you take (1 to {MAX_CONDITION} characters)."


def ended(status: Status) -> str:
    return (
        f"This extended action has ended ({_STATUS_WORDS[status]}), so nothing was changed."
    )


def not_allowed(owner: str) -> str:
    return (
        f"Only {safe(owner, limit=NAME_LIMIT)}, who started this extended action, or the "
        "Storyteller can roll or decide for it."
    )


