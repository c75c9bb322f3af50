"""The teamwork card and every sentence about teamwork.

The card shows the primary and their pool, each helper's roll, the running
bonus and penalties, the `v20` helper limit, and the pool the primary will
roll (or rolled). The shell hands in engine data: the bonus and the prepared
breakdown come from :mod:`engine.table.teamwork` and :func:`engine.prepare.prepare`.

**Decision**: the pool the primary will roll is the teamwork's own (the primary's pool
with the helpers' bonus); the table's penalties the primary's roll pays besides are said
under it in words, not counted in: at a labelled teamwork where successive attempts apply
(`cofd`, `v20`, pressure on), the primary's failures in a row at its action; at a
`fistful` table, the Successive Action Penalty of the primary's earlier actions this turn
(RULES.md §1–§3). The card is redrawn by every helper's press, whose one read holds the
helper's counters, not the primary's: counting them in would take another read on every
redraw, and the figure would go stale whenever the primary rolls elsewhere meanwhile (a
failed `/roll` at the label, another `fistful` action) without the card being redrawn.
The primary's roll shows them counted.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

from bot.edge import ids
from bot.render.buttons import SPEND_WILL, TAKE_BEAT, view_of
from bot.render.contest import dice_text, roll_block, roll_summary
from bot.render.lang import N_, _, n_
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.rolls import LABEL_LIMIT, NAME_LIMIT, RULESET_NAMES, RollStatus, roll_embed
from bot.render.text import (
    INFO_COLOUR,
    OUTCOME_COLOURS,
    VOID_COLOUR,
    adjustment_text,
    breakdown_text,
    options_text,
    safe,
)
from engine.models import Adjustment, AdjustmentKind, Breakdown, RollResult, Ruleset, WillUse
from engine.offers import Offers, offers
from engine.parser import format_pool
from engine.prepare import prepare
from engine.records import ActionRecord, ActionStatus, ChannelConfig, DiceOrder, RollRecord
from engine.refusals import Refusal
from engine.table import actions, attempts, teamwork
from engine.table.teamwork import Blocked, TeamworkAction, TeamworkState
from engine.table.teamwork import Status as TeamworkStatus

__all__ = [
    "ALREADY_HELPED",
    "CANCEL",
    "HELP",
    "HELP_FORM_TITLE",
    "NONE_OF_YOURS",
    "NOT_YOURS",
    "NO_OPEN_TEAMWORK",
    "OWN_ACTION",
    "ROLL",
    "STALE_CARD",
    "TEAMWORK_GONE",
    "TeamworkStatus",
    "already_open",
    "blocked_text",
    "cancelled_notice",
    "cannot_help",
    "cannot_roll",
    "cannot_start",
    "card_message",
    "default_label",
    "ended_refusal",
    "helper_roll_label",
    "helper_roll_message",
    "no_teamwork_called",
    "only_primary",
    "primary_roll_label",
    "primary_roll_message",
    "scene_teamwork_ended",
    "several_open",
    "teamwork_embed",
]

HELP: Final = N_("Help")
ROLL: Final = N_("Roll")
CANCEL: Final = N_("Cancel")
HELP_FORM_TITLE: Final = N_("Help with this action")

#: Helper lines on a card (one field, at most 1,024 characters).
_FIELD_LIMIT: Final = 1024

STALE_CARD: Final = N_(
    "This card was out of date, so nothing was changed. It now shows the current state: "
    "press again if you still want to."
)
TEAMWORK_GONE: Final = N_("I no longer know this teamwork, so nothing was changed.")
OWN_ACTION: Final = N_(
    "You lead this action, so you cannot help it: press **Roll** when ready."
)
ALREADY_HELPED: Final = N_("You have already helped with this action: one roll per helper.")
NOT_YOURS: Final = N_(
    "Only the member who started this teamwork or the Storyteller can cancel it."
)
NO_OPEN_TEAMWORK: Final = N_(
    "There is no open teamwork here. Start one with `/teamwork start`."
)
NONE_OF_YOURS: Final = N_(
    "You lead no open teamwork here: name another member's with `label` "
    "(the Storyteller can cancel any)."
)


_ENDINGS: Final[dict[TeamworkStatus, str]] = {
    TeamworkStatus.ROLLED: N_("The primary has rolled: this teamwork is over."),
    TeamworkStatus.CANCELLED: N_("**Cancelled**: nobody rolls for this teamwork."),
    TeamworkStatus.SCENE_ENDED: N_(
        "**The scene ended** before the primary rolled: this teamwork is over."
    ),
}


_OVER: Final[dict[TeamworkStatus, str]] = {
    TeamworkStatus.ROLLED: N_("the primary has already rolled"),
    TeamworkStatus.CANCELLED: N_("it was cancelled"),
    TeamworkStatus.SCENE_ENDED: N_("the scene ended"),
}


def teamwork_embed(
    state: TeamworkState,
    *,
    label: str,
    primary_name: str,
    helper_names: Sequence[str],
    bonus: Sequence[Adjustment],
    next_roll: Breakdown | Refusal,
    primary: RollResult | None,
    status: TeamworkStatus,
    text_only: bool = False,
    sorted_dice: bool = False,
    pending: Sequence[Adjustment] = (),
) -> discord.Embed:
    """The teamwork card.

    ``bonus`` is what the helpers give the primary so far; ``next_roll`` is
    the primary's pool with it (or why it cannot be rolled now); ``primary``
    is the primary's roll once made; ``pending``: one step of each penalty the table
    adds when the primary rolls, said under the pool (:func:`_table_penalties`).
    """
    request = state.request
    ruleset = request.ruleset
    lead = safe(primary_name, limit=NAME_LIMIT) or "?"
    title = _("Teamwork: {label}", label=safe(label, limit=LABEL_LIMIT))
    if not text_only:
        title = f"🤝 {title}"
    lines = [
        _("**{lead}** leads: {pool}", lead=lead,
          pool=safe(format_pool(request.terms)) or "0")
    ]
    options = options_text(request)
    if options:
        lines.append(_("Options: {options}", options=options))
    if state.helper_limit is not None:
        lines.append(
            _(
                "Helper limit: {limit}. Each helper beyond it raises every roll's "
                "difficulty by 1.",
                limit=state.helper_limit,
            )
        )
    if status is TeamworkStatus.OPEN:
        lines.append(
            _(
                "Others press **{help}** to roll their pool for {lead}; {lead} presses "
                "**{roll}** when ready.",
                help=_(HELP), roll=_(ROLL), lead=lead,
            )
        )
    else:
        ending = _ENDINGS.get(status)
        lines.append("" if ending is None else _(ending))

    if primary is not None:
        colour = OUTCOME_COLOURS[primary.outcome]
    elif status is TeamworkStatus.OPEN:
        colour = INFO_COLOUR
    else:
        colour = VOID_COLOUR
    embed = discord.Embed(title=title, description="\n".join(lines), colour=colour)
    embed.add_field(
        name=_("Helpers ({count})", count=len(state.helpers)),
        value=_helper_lines(state, helper_names, text_only=text_only, sorted_dice=sorted_dice),
        inline=False,
    )
    embed.add_field(
        name=_("Bonus and penalties so far") if status is TeamworkStatus.OPEN
        else _("Bonus and penalties"),
        value="\n".join(adjustment_text(adj, ruleset) for adj in bonus) or _("None yet."),
        inline=False,
    )
    if primary is not None:
        embed.add_field(
            name=_("{name} rolled", name=lead),
            value=roll_block(primary, text_only=text_only, sorted_dice=sorted_dice),
            inline=False,
        )
    elif status is TeamworkStatus.OPEN:
        notes = "".join("\n" + _pending_text(each, lead) for each in pending)
        embed.add_field(
            name=_("{name} will roll", name=lead),
            value=(
                breakdown_text(next_roll, ruleset, _primary_will(state))
                if isinstance(next_roll, Breakdown)
                else _("Cannot be rolled now: {reason}.",
                       reason=safe(refusal_text(next_roll)))
            )[:_FIELD_LIMIT - len(notes)] + notes,
            inline=False,
        )
    embed.add_field(name=_("Ruleset"), value=_(RULESET_NAMES[ruleset]), inline=True)
    return embed


def _table_penalties(
    state: TeamworkState, config: ChannelConfig, *, labelled: bool
) -> tuple[Adjustment, ...]:
    """One step of each penalty the table adds to the primary's roll, by what the card
    knows without the primary's counters (RULES.md §1–§3): successive attempts at a
    labelled teamwork's action (pressure on), the `fistful` Successive Action Penalty."""
    request = state.request
    if request.ruleset is Ruleset.FISTFUL:
        return actions.penalty(1, config.fistful_step)
    return attempts.penalty(request.ruleset, 1) if labelled and config.pressure else ()


def _pending_text(step: Adjustment, lead: str) -> str:
    """A penalty the primary's roll pays besides the pool shown, per earlier failure or
    action."""
    if step.kind is AdjustmentKind.SUCCESSIVE_ACTION:
        return n_(
            "When {lead} rolls: -{n} die for each action of theirs earlier this turn "
            "(Successive Action Penalty).",
            "When {lead} rolls: -{n} dice for each action of theirs earlier this turn "
            "(Successive Action Penalty).",
            -step.dice, lead=lead,
        )
    if step.difficulty:
        return _(
            "When {lead} rolls: difficulty +1 for each failure of theirs in a row at this action "
            "(successive attempts).",
            lead=lead,
        )
    return _(
        "When {lead} rolls: -1 die for each failure of theirs in a row at this action "
        "(successive attempts).",
        lead=lead,
    )


def _primary_will(state: TeamworkState) -> WillUse:
    """How the primary's Will shows in the pool: declared with the roll, or not at all."""
    return WillUse.DECLARED if state.request.will else WillUse.NONE


def _helper_lines(
    state: TeamworkState, names: Sequence[str], *, text_only: bool, sorted_dice: bool
) -> str:
    """One line per helper, newest last; the oldest are counted when they do not fit."""
    if not state.helpers:
        return _("None yet.")
    lines: list[str] = []
    for helper, name in zip(state.helpers, names, strict=True):
        result = helper.result
        line = f"**{safe(name, limit=NAME_LIMIT) or '?'}**: {roll_summary(result)}"
        pool = result.breakdown
        if pool is not None and not pool.chance:
            if pool.difficulty is not None:
                line += " (" + n_(
                    "{n} die at difficulty {difficulty}", "{n} dice at difficulty {difficulty}",
                    abs(pool.dice), difficulty=pool.difficulty,
                ) + ")"
            else:
                line += " (" + n_("{n} die", "{n} dice", abs(pool.dice)) + ")"
        dice_shown = dice_text(result, text_only=text_only, sorted_dice=sorted_dice)
        lines.append(
            _("{helper}; dice: {dice}", helper=line, dice=dice_shown) if text_only
            else f"{line} · {dice_shown}"
        )
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        room = _FIELD_LIMIT - 60  # what "… and N earlier helpers" needs
        if size + len(line) + 1 > room:
            break
        kept.append(line[:room])
        size += len(line) + 1
    kept.reverse()
    hidden = len(lines) - len(kept)
    if hidden:
        kept.insert(0, n_(
            "… and {n} earlier helper (see /history)",
            "… and {n} earlier helpers (see /history)",
            hidden,
        ))
    return "\n".join(kept)


def helper_roll_label(label: str) -> str:
    """The title of a helper's own roll message (raw: the roll embed escapes it)."""
    return _("Helping: {label}", label=label)


def primary_roll_label(label: str) -> str:
    """The title of the primary's roll message (raw: the roll embed escapes it)."""
    return _("Teamwork: {label}", label=label)


def only_primary(primary_name: str) -> str:
    """Someone other than the primary tried to roll the teamwork."""
    return _("Only **{name}** can roll this teamwork.",
             name=safe(primary_name, limit=NAME_LIMIT))


def will_sheet_gone(character: str) -> str:
    """The primary's roll of a teamwork started with Will, whose character's sheet was
    deleted since: no pool holds that Will, and the roll cannot go without it."""
    return _("{character}, the character this teamwork was started with, has been deleted, "
             "so the Will declared with it went with the sheet: cancel this teamwork "
             "(/teamwork cancel) and start it again.",
             character=safe(character, limit=NAME_LIMIT))


def ended_refusal(status: TeamworkStatus) -> str:
    """A press or command on a teamwork that is over."""
    reason = _OVER.get(status)
    return _(
        "This teamwork is over ({reason}), so nothing was changed.",
        reason=_("it has ended") if reason is None else _(reason),
    )


def already_open(label: str) -> str:
    """A second open teamwork with the same label in one channel."""
    return _(
        "A teamwork called “{label}” is already open here: give this one another `label`, "
        "or roll or cancel that one first.",
        label=safe(label, limit=LABEL_LIMIT),
    )


#: The open teamwork labels a refusal names (the rest are counted).
_SHOWN = 10


def several_open(labels: Sequence[str]) -> str:
    """A command that needs one teamwork found several."""
    shown = ", ".join(f"“{safe(label, limit=LABEL_LIMIT)}”" for label in labels[:_SHOWN])
    if len(labels) > _SHOWN:
        shown += " " + _("… and {count} more", count=len(labels) - _SHOWN)
    return _("Several teamwork actions are open here ({labels}): name one with `label`.",
             labels=shown)


def scene_teamwork_ended(ended: int) -> str:
    """What `/scene end` adds about the teamwork it ended (nothing when none was open)."""
    if not ended:
        return ""
    return " " + n_(
        "{n} unfinished teamwork action ended.", "{n} unfinished teamwork actions ended.", ended
    )


def default_label(primary_name: str) -> str:
    """The label of a teamwork started without one (raw: shown through :func:`safe`)."""
    return _("{name}'s action", name=primary_name)


def no_teamwork_called(label: str) -> str:
    """No open teamwork has this label here."""
    return _(
        "No open teamwork is called “{label}” here. Start one with `/teamwork start`.",
        label=safe(label, limit=LABEL_LIMIT),
    )


def _reason(message: str) -> str:
    """The engine's reason inside a sentence of ours (escaped, as a refusal is)."""
    return safe(message.rstrip("."), limit=1800)


def cannot_start(message: str) -> str:
    """The primary's request cannot be a teamwork (the engine's reason)."""
    return _("That teamwork cannot start: {reason}.", reason=_reason(message))


def cannot_help(message: str) -> str:
    """A helper's roll cannot be made (the engine's reason); nothing changed."""
    return _("That help cannot be rolled: {reason}. Nothing was changed.",
             reason=_reason(message))


def cannot_roll(message: str) -> str:
    """The primary's roll cannot be made now (the engine's reason); nothing changed."""
    return _("The teamwork roll cannot be made: {reason}. Nothing was changed.",
             reason=_reason(message))


def cancelled_notice(label: str, by: str) -> str:
    """`/teamwork cancel`, confirmed."""
    return _(
        "Teamwork “{label}” cancelled by **{name}**: nobody rolls.",
        label=safe(label, limit=LABEL_LIMIT), name=safe(by, limit=NAME_LIMIT),
    )


# --- messages ---------------------------------------------------------------------------------

_LOOK: Final[dict[str, tuple[str, discord.ButtonStyle]]] = {
    "help": (HELP, discord.ButtonStyle.primary),
    "roll": (ROLL, discord.ButtonStyle.success),
    "cancel": (CANCEL, discord.ButtonStyle.secondary),
}


def card_message(record: ActionRecord, action: TeamworkAction, config: ChannelConfig) -> Message:
    """A stored teamwork's card as it stands, with Help, Roll and Cancel while it is open
    (their ids carry the version the card was drawn at)."""
    state = action.teamwork
    prepared = prepare(teamwork.primary_request(state))
    embed = teamwork_embed(
        state,
        label=record.label,
        primary_name=action.primary_name,
        helper_names=action.helper_names,
        bonus=teamwork.bonus(state),
        next_roll=prepared if isinstance(prepared, Refusal) else prepared.breakdown,
        primary=action.primary,
        status=action.status,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        pending=_table_penalties(state, config, labelled=action.labelled),
    )
    view = None
    if record.status is ActionStatus.OPEN and action.status is TeamworkStatus.OPEN:
        view = view_of(
            (ids.teamwork_button(name, record.id, record.version), _(label), style)
            for name, (label, style) in _LOOK.items()
        )
    return shaped(Message(embed=embed, view=view), config)


def _roll_status(record: RollRecord) -> RollStatus:
    if record.void:
        return RollStatus.VOID
    return RollStatus.CLOSED if record.closed else RollStatus.OPEN


def _teamwork_roll_embed(record: RollRecord, title: str, config: ChannelConfig) -> discord.Embed:
    return roll_embed(
        record.result,
        roller=record.roller_name,
        label=title,
        roll_id=record.id,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        status=_roll_status(record),
        compact=config.compact,
    )


def helper_roll_message(
    record: RollRecord, config: ChannelConfig, *, settled: bool = False
) -> Message:
    """A helper's own roll, with Spend Will and Take a Beat as any roll offers them (their
    effects reach the teamwork's bonus); ``settled``: without them, the teamwork being over
    (the primary rolled, or it was cancelled or ended)."""
    embed = _teamwork_roll_embed(record, helper_roll_label(record.label or ""), config)
    return shaped(Message(embed=embed, view=_roll_buttons(record, settled=settled)), config)


def primary_roll_message(record: RollRecord, config: ChannelConfig) -> Message:
    """The primary's roll: the teamwork's result (the card shows it too), with Spend Will
    and Take a Beat as any roll offers them (their effects reach that result)."""
    embed = _teamwork_roll_embed(record, primary_roll_label(record.label or ""), config)
    return shaped(Message(embed=embed, view=_roll_buttons(record)), config)


def _roll_buttons(record: RollRecord, *, settled: bool = False) -> discord.ui.View | None:
    """Spend Will and Take a Beat on a roll of a teamwork, as the roll offers them (none
    once ``settled``): their presses reach the teamwork (``sb1:helproll:``)."""
    offered = Offers() if settled else offers(record)
    looks: list[tuple[str, str, discord.ButtonStyle]] = []
    if offered.will:
        looks.append(
            (ids.helper_roll_button("will", record.id), _(SPEND_WILL), discord.ButtonStyle.primary)
        )
    if offered.beat:
        looks.append(
            (ids.helper_roll_button("beat", record.id), _(TAKE_BEAT), discord.ButtonStyle.secondary)
        )
    return view_of(looks)


def blocked_text(reason: Blocked, action: TeamworkAction) -> str:
    """Why a move on a teamwork changed nothing."""
    if reason is Blocked.OVER:
        return ended_refusal(action.status)
    if reason is Blocked.ONLY_PRIMARY:
        return only_primary(action.primary_name)
    return _(_BLOCKED[reason])


_BLOCKED: Final[dict[Blocked, str]] = {
    Blocked.PRIMARY_CANNOT_HELP: OWN_ACTION,
    Blocked.ALREADY_HELPED: ALREADY_HELPED,
    Blocked.NOT_A_HELPER: N_("This roll is not a helper's roll in this teamwork any more."),
    Blocked.NOT_YOURS: NOT_YOURS,
}
