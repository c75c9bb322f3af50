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
from babel.numbers import format_decimal

from bot.edge import ids
from bot.render.buttons import roll_buttons, view_of
from bot.render.lang import N_, _, current, n_
from bot.render.message import Message, plain_off, shaped
from bot.render.rolls import LABEL_LIMIT, NAME_LIMIT, RULESET_NAMES, roll_message
from bot.render.text import (
    INFO_COLOUR,
    OUTCOME_WORDS,
    breakdown_text,
    options_text,
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
CONDITION_TITLE: Final = N_("Take a Condition")
CONDITION_FIELD: Final = N_("Condition")
CONDITION_DESCRIPTION: Final = N_("Its name, as your table calls it. Your progress is kept.")
#: The form's one text field (its custom_id: the value comes back under it).
CONDITION_INPUT: Final = "condition"

_STYLES: Final[dict[Choice, discord.ButtonStyle]] = {
    Choice.ROLL: discord.ButtonStyle.primary,
    Choice.ABANDON: discord.ButtonStyle.danger,
    Choice.LOSE_PROGRESS: discord.ButtonStyle.danger,
}

_CHOICE_LABELS: Final[dict[Choice, str]] = {
    Choice.ROLL: N_("Roll"),
    Choice.TAKE_CONDITION: N_("Take a Condition"),
    Choice.LOSE_PROGRESS: N_("Lose progress"),
    Choice.ABANDON: N_("Abandon"),
    Choice.REDUCE_REQUIRED: N_("Reduce required"),
    Choice.SHORTEN_INTERVAL: N_("Shorten interval"),
    Choice.EXCEPTIONAL_RESULT: N_("Exceptional result"),
    Choice.START_OVER: N_("Start over"),
    Choice.WAIVE: N_("Waive the botch (Storyteller)"),
}

_STATUS_WORDS: Final[dict[Status, str]] = {
    Status.OPEN: N_("in progress"),
    Status.SUCCEEDED: N_("succeeded"),
    Status.COMPLETED: N_("completed"),
    Status.FAILED: N_("failed"),
    Status.ABANDONED: N_("abandoned"),
}

#: The card's title by the action's status (the label is ``{label}``).
_TITLES: Final[dict[Status, str]] = {
    Status.OPEN: N_("{label}: extended action, in progress"),
    Status.SUCCEEDED: N_("{label}: extended action, succeeded"),
    Status.COMPLETED: N_("{label}: extended action, completed"),
    Status.FAILED: N_("{label}: extended action, failed"),
    Status.ABANDONED: N_("{label}: extended action, abandoned"),
}

_STATUS_COLOURS: Final[dict[Status, discord.Colour]] = {
    Status.OPEN: INFO_COLOUR,
    Status.SUCCEEDED: discord.Colour.green(),
    Status.COMPLETED: discord.Colour.green(),
    Status.FAILED: discord.Colour.dark_red(),
    Status.ABANDONED: discord.Colour.dark_grey(),
}

_DECISIONS: Final[dict[Choice, str]] = {
    Choice.LOSE_PROGRESS: N_("Progress lost: back to 0 successes."),
    Choice.ABANDON: N_("Abandoned."),
    Choice.SHORTEN_INTERVAL: N_("Each following roll takes a quarter less time."),
    Choice.EXCEPTIONAL_RESULT: N_("The exceptional result is gained when the action succeeds."),
    Choice.START_OVER: N_("Started over from 0 successes."),
    Choice.WAIVE: N_("The Storyteller waived the botch: the effort goes on."),
}


def choice_label(choice: Choice, state: ExtendedState) -> str:
    """A card button's label: ``Reduce required by 2`` names the Skill dots."""
    if choice is Choice.REDUCE_REQUIRED and state.skill is not None:
        return _("Reduce required by {dots}", dots=state.skill)
    return _(_CHOICE_LABELS[choice])


def _successes(n: int) -> str:
    """``1 success``, ``3 successes``."""
    return n_("{n} success", "{n} successes", n)


# --- numbers ---------------------------------------------------------------------------------


def progress_bar(done: int, required: int, *, text_only: bool) -> str:
    """``███░░░░░░░ 3/10`` (text-only: ``3 of 10 successes``)."""
    if text_only:
        return n_("{done} of {n} success", "{done} of {n} successes", required, done=done)
    filled = BAR_CELLS if required <= 0 else min(BAR_CELLS, done * BAR_CELLS // required)
    return f"`{'█' * filled}{'░' * (BAR_CELLS - filled)}` {done}/{required}"


#: The shortest interval shown as a number (two decimals); a shorter one reads "less than".
LEAST_SHOWN: Final = Fraction(1, 100)


def _amount(value: Fraction) -> str:
    """A shortened interval: whole numbers as such, otherwise up to two decimals. Each
    reduction takes a quarter of what is left (RULES.md §1; compounding, so it never
    reaches zero: engine.table.extended), so an interval shortened many times is said to
    be less than 0.01 of its unit, never "0"."""
    if value.denominator == 1:
        return str(value.numerator)
    if value < LEAST_SHOWN:
        return _("less than {amount}",
                 amount=format_decimal(float(LEAST_SHOWN), "0.##", locale=current().locale))
    return format_decimal(float(value), "0.##", locale=current().locale)


def _interval(state: ExtendedState) -> str | None:
    length = interval_length(state)
    if length is None or state.interval is None:
        return None
    amount = _amount(length)
    unit = safe(state.interval.unit, limit=MAX_UNIT)
    original = state.interval.amount
    if not state.shortened:
        return _("{amount} {unit} per roll", amount=amount, unit=unit)
    if state.shortened == 1:
        return _(
            "{amount} {unit} per roll (shortened by a quarter once, from {original})",
            amount=amount, unit=unit, original=original,
        )
    return n_(
        "{amount} {unit} per roll (shortened by a quarter {n} time, from {original})",
        "{amount} {unit} per roll (shortened by a quarter {n} times, from {original})",
        state.shortened, amount=amount, unit=unit, original=original,
    )


def _rolls(state: ExtendedState) -> str:
    if state.max_rolls is None:
        return _("{used} used, no limit", used=state.rolls)
    return _("{used} of {limit} used", used=state.rolls, limit=state.max_rolls)


def _progress(state: ExtendedState, *, text_only: bool) -> str:
    required = state.required
    if required is None:
        return n_(
            "{n} success so far (an effort measured in rolls)",
            "{n} successes so far (an effort measured in rolls)",
            state.total,
        )
    line = progress_bar(state.total, required, text_only=text_only)
    if state.reduced_by and state.target is not None:
        line += " " + _(
            "(required {target} - {reduced} by an exceptional success)",
            target=state.target, reduced=state.reduced_by,
        )
    if state.against is not None and state.ruleset is Ruleset.V20:
        line += "\n" + _(
            "Resisting side: {progress}",
            progress=progress_bar(state.resisted_total, required, text_only=text_only),
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
        text += "\n" + _("Options: {options}", options=options)
    if state.against is not None:
        against = prepare(state.against)
        resisting = (
            safe(format_pool(state.against.terms))
            if isinstance(against, Refusal)
            else breakdown_text(against.breakdown, request.ruleset, WillUse.NONE)
        )
        text += "\n" + _("Resisting: {pool}", pool=resisting)
    return text[:_FIELD_LIMIT]


def _conditions(state: ExtendedState) -> str:
    shown: list[str] = []
    size = 0
    for index, name in enumerate(state.conditions):
        text = safe(name, limit=MAX_CONDITION)
        if size + len(text) + 2 > _FIELD_LIMIT - 20:
            shown.append(_("… and {count} more", count=len(state.conditions) - index))
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
        return n_("+{n} success.", "+{n} successes.", step.change)
    if event is Event.NO_PROGRESS:
        return _("No successes gained.")
    if event is Event.EXCEPTIONAL:
        if step.applied is Choice.EXCEPTIONAL_RESULT:
            return n_(
                "Exceptional success: +{n} success. It completes the action, with the "
                "exceptional result.",
                "Exceptional success: +{n} successes. It completes the action, with the "
                "exceptional result.",
                step.change,
            )
        if step.applied is Choice.REDUCE_REQUIRED:
            return n_(
                "Exceptional success: +{n} success. Reducing the successes required by "
                "{dots} completes the action.",
                "Exceptional success: +{n} successes. Reducing the successes required by "
                "{dots} completes the action.",
                step.change, dots=state.skill,
            )
        if state.status is not Status.OPEN:  # the last roll, and not enough: nothing to choose
            return n_(
                "Exceptional success: +{n} success, on the last roll.",
                "Exceptional success: +{n} successes, on the last roll.",
                step.change,
            )
        return n_(
            "Exceptional success: +{n} success. Choose one of the exceptional benefits.",
            "Exceptional success: +{n} successes. Choose one of the exceptional benefits.",
            step.change,
        )
    if event is Event.SETBACK:
        return _("Failure: a setback.")
    if event is Event.DRAMATIC_SETBACK:
        return _(
            "Dramatic failure: a setback, and the next roll at this task has {dice} dice.",
            dice=CARRY_DICE,
        )
    if event is Event.DERAILED:
        return _("Botch: the attempt is derailed.")
    if event is Event.RESISTED:
        if step.change:
            return n_(
                "The resisting side beat this roll: {n} success of progress lost.",
                "The resisting side beat this roll: {n} successes of progress lost.",
                -step.change,
            )
        return _("The resisting side beat this roll (no progress to lose).")
    if _tied(state):
        return _("Both sides reached the successes required on this roll with the same number "
                 "of successes: a tie, and neither succeeds.")
    return _("The resisting side reached the successes required first.")


def _tied(state: ExtendedState) -> bool:
    """`v20` resisted: both sides reached the requirement on the same roll with equal totals
    (RULES.md §2: a tie, neither succeeds). Reaching it alone ends the action, so both
    totals at or past it were reached on one roll."""
    required = state.required
    return (
        state.against is not None
        and state.ruleset is Ruleset.V20
        and required is not None
        and state.total >= required
        and state.total == state.resisted_total
    )


def _resisted(step: ExtendedStep) -> str:
    if step.opposed is None:
        return ""
    return " " + n_(
        "The resisting side counted {n} success.",
        "The resisting side counted {n} successes.",
        step.opposed,
    )


def _next(state: ExtendedState, *, on_card: bool = False) -> str:
    """What the action waits for now (``on_card``: said on a roll, the choice is on the card)."""
    if state.status is not Status.OPEN:
        return _ending(state)
    pending = set(state.pending)
    if Choice.TAKE_CONDITION in pending:
        if on_card:
            return _(
                "Choose on the card: take a Condition (progress kept), lose all progress, "
                "or abandon."
            )
        return _("Choose: take a Condition (progress kept), lose all progress, or abandon.")
    if Choice.SHORTEN_INTERVAL in pending:
        return _exceptional_choice(state, pending, on_card=on_card)
    if Choice.WAIVE in pending and Choice.START_OVER not in pending:  # derailed, no roll left
        if on_card:
            return _(
                "No roll is left to start over: choose on the card to abandon, or the "
                "Storyteller may waive the botch to complete the effort."
            )
        return _(
            "No roll is left to start over: abandon, or the Storyteller may waive the botch "
            "to complete the effort."
        )
    if Choice.START_OVER in pending:
        if Choice.WAIVE in pending:
            if on_card:
                return _(
                    "Choose on the card: start over from 0 or abandon (the Storyteller may "
                    "waive the botch)."
                )
            return _(
                "Choose: start over from 0 or abandon (the Storyteller may waive the botch)."
            )
        if on_card:
            return _("Choose on the card: start over from 0 or abandon.")
        return _("Choose: start over from 0 or abandon.")
    if state.carry:
        return n_(
            "Next: roll. It has {dice} die after the dramatic failure.",
            "Next: roll. It has {dice} dice after the dramatic failure.",
            abs(CARRY_DICE), dice=CARRY_DICE,
        )
    return _("Next: roll.")


def _exceptional_choice(state: ExtendedState, pending: set[Choice], *, on_card: bool) -> str:
    """The exceptional benefits to choose from (reducing the successes required too, when a
    Skill was given)."""
    if Choice.REDUCE_REQUIRED in pending:
        if on_card:
            return _(
                "Choose one on the card: reduce the successes required by {dots}, shorten "
                "each following roll's interval by a quarter, or gain the exceptional result "
                "when the action succeeds.",
                dots=state.skill,
            )
        return _(
            "Choose one: reduce the successes required by {dots}, shorten each following "
            "roll's interval by a quarter, or gain the exceptional result when the action "
            "succeeds.",
            dots=state.skill,
        )
    if on_card:
        return _(
            "Choose one on the card: shorten each following roll's interval by a quarter, "
            "or gain the exceptional result when the action succeeds."
        )
    return _(
        "Choose one: shorten each following roll's interval by a quarter, or gain the "
        "exceptional result when the action succeeds."
    )


def _ending(state: ExtendedState) -> str:
    status = state.status
    if status is Status.SUCCEEDED:
        if state.exceptional_result:
            return _("**Succeeded** with the exceptional result.")
        return _("**Succeeded**.")
    if status is Status.COMPLETED:
        return n_(
            "**Completed**: every roll made, {n} success in all.",
            "**Completed**: every roll made, {n} successes in all.",
            state.total,
        )
    if status is Status.ABANDONED:
        return _("**Abandoned.**")
    required = state.required
    if _tied(state):
        return _("**Failed**: both sides reached the successes required on the same roll, "
                 "tied: neither succeeds.")
    if (
        state.against is not None
        and required is not None
        and state.resisted_total >= required
    ):
        return _("**Failed**: the resisting side reached the successes required first.")
    if state.rolls_left == 0:
        return _("**Failed**: the roll limit was used up before the successes required.")
    return _("**Failed.**")


def _decision(choice: Choice, state: ExtendedState) -> str:
    if choice is Choice.TAKE_CONDITION and state.conditions:
        name = safe(state.conditions[-1], limit=MAX_CONDITION)
        return _("Condition taken: {name}. Progress kept.", name=name)
    if choice is Choice.REDUCE_REQUIRED:
        return _("Successes required reduced by {dots}.", dots=state.skill)
    decision = _DECISIONS.get(choice)
    return "" if decision is None else _(decision)


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
    title = _(_TITLES[state.status], label=safe(label, limit=LABEL_LIMIT))
    if not text_only:
        title = f"⏳ {title}" if state.status is Status.OPEN else f"🏁 {title}"
    lines = [_progress(state, text_only=text_only)]
    if last is not None:
        lines.append(_("Last roll: {what}", what=_event(last)) + _resisted(last))
    if decision is not None and decision is not Choice.ABANDON:  # the ending says so
        lines.append(_decision(decision, state))
    lines.append(_next(state))
    embed = discord.Embed(
        title=title, description="\n".join(lines), colour=_STATUS_COLOURS[state.status]
    )
    embed.add_field(name=_("Rolls"), value=_rolls(state), inline=True)
    interval = _interval(state)
    if interval is not None:
        embed.add_field(name=_("Interval"), value=interval, inline=True)
    if state.ruleset is Ruleset.COFD:  # only cofd setbacks take Conditions
        embed.add_field(
            name=_("Conditions"), value=_conditions(state) or _("none"), inline=True
        )
    embed.add_field(name=_("Pool"), value=_pool(state), inline=False)
    embed.add_field(name=_("Ruleset"), value=_(RULESET_NAMES[state.ruleset]), inline=True)
    embed.add_field(
        name=_("Started by"), value=safe(owner, limit=NAME_LIMIT) or "?", inline=True
    )
    embed.set_footer(
        text=_("Extended action {id}", id=action_id) if text_only
        else _("Action #{id}", id=action_id)
    )
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
    name = f"**{safe(label, limit=LABEL_LIMIT)}**"
    if state.max_rolls is not None:
        head = _(
            "{label}{separator}roll {n} of {limit}: {what}", label=name, separator=separator,
            n=state.rolls, limit=state.max_rolls, what=_event(step),
        )
    else:
        head = _(
            "{label}{separator}roll {n}: {what}", label=name, separator=separator,
            n=state.rolls, what=_event(step),
        )
    lines = [head]
    if against is not None and step.opposed is not None:
        faces = ", ".join(str(die.face) for die in against.dice[:30])
        if len(against.dice) > 30:
            faces += ", …"
        lines.append(
            n_(
                "Resisting roll: {outcome}, {n} success counted (faces {faces}).",
                "Resisting roll: {outcome}, {n} successes counted (faces {faces}).",
                step.opposed, outcome=_(OUTCOME_WORDS[against.outcome]), faces=faces,
            )
        )
    lines.append(_progress(state, text_only=text_only))
    lines.append(_next(state, on_card=True))
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
    form = discord.ui.Modal(
        title=_(CONDITION_TITLE), custom_id=ids.condition_form(action_id, version)
    )
    form.add_item(
        discord.ui.Label(
            text=_(CONDITION_FIELD),
            description=_(CONDITION_DESCRIPTION),
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
        return _(
            "No extended action is open in this channel. Start one with /extended start."
        )
    lines: list[str] = []
    size = 0
    for index, action in enumerate(actions):
        state = action.state
        label = safe(action.label, limit=LABEL_LIMIT)
        required = state.required
        progress = (
            _successes(state.total)
            if required is None
            else f"{state.total}/{required}"
        )
        if action.link is not None:
            # The link is on the bot's own words: a label inside a masked link could close
            # it and open its own (escaping does not reach a "](" that breaks out).
            progress = f"[{progress}]({action.link})"
        separator = ", " if text_only else " · "
        line = separator.join(
            [label, safe(action.owner, limit=NAME_LIMIT), progress,
             _("rolls {rolls}", rolls=_rolls(state))]
        )
        if state.pending:
            line = _("{action}, waiting for a decision", action=line)
        if size + len(line) + 1 > 1900:
            lines.append(_("… and {count} more", count=len(actions) - index))
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


# --- replies and refusals --------------------------------------------------------------------


def started(label: str, *, carried: bool = False) -> str:
    """The line above a new card; it says so when the last attempt's dramatic failure carries."""
    name = safe(label, limit=LABEL_LIMIT)
    line = _("Extended action started: **{label}**.", label=name)
    if carried:
        line += "\n" + n_(
            "The last attempt at it ended on a dramatic failure: the first roll has {dice} die.",
            "The last attempt at it ended on a dramatic failure: the first roll has {dice} dice.",
            abs(CARRY_DICE), dice=CARRY_DICE,
        )
    return line


def decided(label: str, by: str, choice: Choice, state: ExtendedState) -> str:
    """A decision made by command, said in the channel: ``Ada, force the door: Abandoned.``"""
    return (
        f"**{safe(by, limit=NAME_LIMIT)}**, **{safe(label, limit=LABEL_LIMIT)}**: "
        f"{_decision(choice, state)}"
    )


def cannot_start(reason: str) -> str:
    return _("That extended action cannot be started: {reason}.", reason=reason)


def cannot_choose(reason: str) -> str:
    return _("That cannot be chosen now: {reason}.", reason=reason)


def cannot_revise(reason: str, *, beat: bool) -> str:
    if beat:
        return _("No Beat on this roll: {reason}.", reason=reason)
    return _("Will cannot be spent on this roll: {reason}.", reason=reason)


def bad_interval(text: str) -> str:
    return _(
        "I could not read the interval “{text}”: give a number and a unit, such as "
        "`30 minutes` or `1 day` (the unit at most {limit} characters).",
        text=safe(text, limit=50), limit=MAX_UNIT,
    )


def zero_interval(text: str) -> str:
    """An interval that reads, but takes no time."""
    return _(
        "The interval “{text}” takes no time: it must be more than zero, such as `30 minutes` "
        "or `1 day`.",
        text=safe(text, limit=50),
    )


def duplicate(label: str) -> str:
    return _(
        "An extended action “{label}” is already open in this channel: roll it or abandon "
        "it first, or give the new one another label.",
        label=safe(label, limit=LABEL_LIMIT),
    )


def not_found(label: str) -> str:
    return _(
        "No open extended action “{label}” in this channel. /extended list shows the open "
        "ones.",
        label=safe(label, limit=LABEL_LIMIT),
    )


NONE_OPEN: Final = N_(
    "You have no open extended action in this channel. Start one with /extended start."
)
WHICH_ONE: Final = N_(
    "Several extended actions are open in this channel: name one with `label:` "
    "(/extended list shows them)."
)
GONE: Final = N_("I no longer know this extended action, so nothing was changed.")
STALE: Final = N_("This card is out of date: the action moved on, so nothing was changed.")
FORM_STALE: Final = N_(
    "The action moved on while the form was open, so no Condition was taken. "
    "Use the card's current buttons."
)
WAIVE_STORYTELLER: Final = N_("Only the Storyteller can waive a botch.")
ROLL_MOVED_ON: Final = N_(
    "This roll can no longer change the extended action: a decision or another roll has "
    "followed it, so nothing was changed."
)
AGAINST_DIFFICULTY_ALONE: Final = N_(
    "against_difficulty is the resisting side's difficulty: give the resisting pool with "
    "`against:` too."
)


#: The Take a Condition form submitted without a name (100: MAX_CONDITION, which a test
#: holds to it: a catalogue's message is fixed text).
EMPTY_CONDITION: Final = N_("Name the Condition you take (1 to 100 characters).")


def ended(status: Status) -> str:
    return _(
        "This extended action has ended ({status}), so nothing was changed.",
        status=_(_STATUS_WORDS[status]),
    )


def will_sheet_gone(character: str) -> str:
    """Will declared on a roll of an action whose character's sheet was deleted since: no
    pool holds its Will any more (as Spend Will on a roll of a deleted sheet is refused)."""
    return _(
        "{character}, the character this extended action was started with, has been "
        "deleted, so its Will went with the sheet: roll without will:True.",
        character=safe(character, limit=NAME_LIMIT),
    )


def not_allowed(owner: str) -> str:
    return _(
        "Only {owner}, who started this extended action, or the Storyteller can roll or "
        "decide for it.",
        owner=safe(owner, limit=NAME_LIMIT),
    )
