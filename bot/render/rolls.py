"""A roll as players see it: every die, the outcome, the pool and who rolled.

The dice go in the description, one line per group (the pool's dice, Will
dice, each round of extra dice, void dice). A roll can have 100 dice and
1,000 extra dice, far more than an embed holds, so the dice lines are fitted
to :data:`DICE_BUDGET`: the extra rounds, void dice and cancellations are
first summarised as counts per shown face (``12× **10**``), then, if that is
not enough (hundreds of rounds), every round of extra dice is merged into one
summarised line. Round 0, the dice the player rolled, is always shown die by
die.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

import discord

from bot.render.buttons import roll_buttons
from bot.render.lang import N_
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.text import (
    OUTCOME_COLOURS,
    OUTCOME_WORDS,
    VOID_COLOUR,
    adjustment_text,
    breakdown_text,
    dice,
    options_text,
    plural,
    safe,
)
from engine.constants import MAX_EXTRA
from engine.models import (
    AdjustmentKind,
    Breakdown,
    Die,
    DieKind,
    Fate,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    TermSource,
    WillUse,
)
from engine.offers import offers
from engine.parser import format_pool
from engine.records import ChannelConfig, DiceOrder, RollRecord

__all__ = ["RULESET_NAMES", "RollStatus", "refusal", "roll_embed", "secret_notice"]


class RollStatus(StrEnum):
    """Where a roll message stands."""

    OPEN = "open"
    """Buttons (Spend Will, Take a Beat, Try again) may still apply."""
    CLOSED = "closed"
    """Its buttons were closed (another roll, the turn or scene advanced, the Storyteller)."""
    VOID = "void"
    """Voided by the Storyteller: still listed, no longer counted."""


RULESET_NAMES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("Chronicles of Darkness (2e)"),
    Ruleset.V20: N_("Classic World of Darkness (V20 / Dark Ages)"),
    Ruleset.FISTFUL: N_("Fist Full of Dice (table procedure)"),
}

#: Characters of dice lines in the description (at most 4,096). What is left
#: of the embed (title, outcome lines, the pool field, at most 1,024, roller,
#: footer) stays under 2,000, so the embed stays under Discord's 6,000.
DICE_BUDGET: Final = 3000
#: User text shown in a roll: longer labels and names are shortened with "…".
LABEL_LIMIT: Final = 100
NAME_LIMIT: Final = 100
_FIELD_LIMIT: Final = 1024
_DESCRIPTION_LIMIT: Final = 4096

#: Levels of detail, most first: (summarise the later lines (extra rounds, void dice,
#: cancellations), merge the extra rounds into one line). Round 0 is always shown in
#: full: at most MAX_POOL dice of at most ~22 characters ("7 rerolled to **10**, ").
_LEVELS: Final = ((False, False), (True, False), (True, True))
_BOTCH_DEGREES: Final = {1: "single botch", 2: "double botch", 3: "triple botch"}


@dataclass
class _Group:
    """One line of dice: each die as (the face that counts, how it is shown)."""

    label: str
    dice: list[tuple[int, str]] = field(default_factory=list)
    round: int | None = None
    """The round of extra dice this line shows, if it shows one."""
    first: bool = False
    """Round 0 (the pool's dice, the chance die, Will dice): never summarised."""


@dataclass(frozen=True)
class _Line:
    """A dice line in full and summarised."""

    full: str
    short: str


def roll_embed(
    result: RollResult,
    *,
    roller: str,
    label: str | None,
    roll_id: int | None,
    text_only: bool = False,
    sorted_dice: bool = False,
    status: RollStatus = RollStatus.OPEN,
    secret: bool = False,
    compact: bool = False,
) -> discord.Embed:
    """The roll message's embed, within every Discord limit however big the roll.

    ``text_only`` is for screen readers: words instead of emoji, arrows and
    strikethrough. ``sorted_dice`` orders each group high to low (display only).
    ``secret`` marks the full result of a secret roll (the roller's ephemeral
    copy and the Storyteller's). ``compact`` keeps the card short: no fields, the pool
    on one line, the roller in the footer.
    """
    ruleset = result.request.ruleset
    phrase = _outcome_phrase(result)
    title = f"{safe(label, limit=LABEL_LIMIT)}: {phrase}" if label else phrase
    if status is RollStatus.VOID:
        title = f"Void - {title}"
    elif not text_only:
        title = f"🎲 {title}"

    lines: list[str] = []
    if status is RollStatus.VOID:
        lines.append("**Voided by the Storyteller**: this roll no longer counts.")
    if secret:
        lines.append("Secret roll: the channel saw only that a roll was made.")
    if result.refused:
        lines.append(refusal(refusal_text(result.refusal) or "this roll cannot be made"))
    else:
        lines.append(_headline(result))
        lines.extend(_notes(result))
        lines.append("")
        lines.extend(_dice_lines(result, text_only=text_only, sorted_dice=sorted_dice))

    embed = discord.Embed(
        title=title,
        description="\n".join(lines),
        colour=VOID_COLOUR if status is RollStatus.VOID else OUTCOME_COLOURS[result.outcome],
    )
    who = safe(roller, limit=NAME_LIMIT) or "?"
    if compact:
        if result.breakdown is not None:
            pool = " · ".join(_pool_text(result, result.breakdown).splitlines())
            embed.description = f"{embed.description}\nPool: {pool}"[:_DESCRIPTION_LIMIT]
        footer = _footer(roll_id, ruleset, status=status, text_only=text_only, roller=who)
        embed.set_footer(text=footer)
        return embed
    if result.breakdown is not None:
        embed.add_field(name="Pool", value=_pool_text(result, result.breakdown), inline=False)
    embed.add_field(name="Rolled by", value=who, inline=True)
    embed.set_footer(text=_footer(roll_id, ruleset, status=status, text_only=text_only))
    return embed


def roll_message(record: RollRecord, config: ChannelConfig) -> Message:
    """A stored roll's message as it stands now, with the buttons it offers
    (:func:`engine.offers.offers`), as the channel's display settings want it."""
    if record.void:
        status = RollStatus.VOID
    elif record.closed:
        status = RollStatus.CLOSED
    else:
        status = RollStatus.OPEN
    offered = offers(record)
    embed = roll_embed(
        record.result,
        roller=roller_of(record),
        label=record.label,
        roll_id=record.id,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        status=status,
        secret=record.private,
        compact=config.compact,
    )
    view = roll_buttons(record.id, will=offered.will, beat=offered.beat, retry=offered.retry,
                        again=offered.again, save=offered.save)
    return shaped(Message(embed=embed, view=view), config)


def roller_of(record: RollRecord) -> str:
    """Who rolled: the member, or the character and its member (unescaped: shown safe)."""
    if record.character_name:
        return f"{record.character_name} ({record.roller_name})"
    return record.roller_name


def secret_notice(*, roller: str, label: str | None) -> str:
    """The channel's public line for a secret roll: who, what for, no dice."""
    what = f": {safe(label, limit=LABEL_LIMIT)}" if label else ""
    return f"**{safe(roller, limit=NAME_LIMIT)}** made a secret roll{what}."


def refusal(message: str) -> str:
    """An engine or parser refusal as an ephemeral reply: a capitalised sentence."""
    text = message.strip() or "That cannot be done."
    text = text[0].upper() + text[1:]
    if text[-1] not in ".!?":
        text += "."
    return safe(text, limit=2000)


# --- Outcome -------------------------------------------------------------------------------


def _outcome_phrase(result: RollResult) -> str:
    """The outcome in words, with the ruleset's degree: ``Success (moderate success)``."""
    words = OUTCOME_WORDS[result.outcome]
    if result.automatic:
        return "Automatic success"
    if result.beat:
        return f"{words} (Beat taken)"
    if result.degree is not None:
        return f"{words} ({result.degree} success)"
    if result.botch_degree is not None:
        ones = result.botch_degree
        degree = _BOTCH_DEGREES.get(ones, f"triple botch or worse: {ones} ones standing")
        return f"{words} ({degree})"
    return words


def _headline(result: RollResult) -> str:
    """The number of successes, and where any that are not on the dice came from."""
    if result.automatic:
        return "**1 success**, automatic: no dice were rolled."
    if not result.successes:
        return "**No successes**"
    count = f"**{plural(result.successes, 'success')}**"
    request = result.request
    if request.ruleset is Ruleset.COFD and request.extra:
        return f"{count} ({result.dice_successes} on the dice + {request.extra} extra)"
    if request.ruleset is Ruleset.V20 and result.will is not WillUse.NONE:
        return f"{count} (including 1 from Willpower)"
    return count


def _notes(result: RollResult) -> list[str]:
    notes: list[str] = []
    if result.beat:
        notes.append("Beat taken: the failure became a dramatic failure, and a Beat was gained.")
    if result.will is WillUse.AFTER:
        notes.append("Willpower was spent after the roll.")
    need = result.request.need
    if need is not None and result.need_met is not None:
        met = "met" if result.need_met else f"not met ({result.successes} of {need})"
        notes.append(f"Needed {plural(need, 'success')}: {met}.")
    if result.capped:
        notes.append(
            f"Extra dice stopped at the limit of {MAX_EXTRA:,}: "
            "the outcome counts the dice that were rolled."
        )
    return notes


# --- Dice ----------------------------------------------------------------------------------


def _dice_lines(result: RollResult, *, text_only: bool, sorted_dice: bool) -> list[str]:
    """Every die, grouped, at the first level of detail that fits DICE_BUDGET."""
    groups = _groups(result, text_only=text_only)
    if sorted_dice:
        for group in groups:
            group.dice.sort(key=lambda shown: -shown[0])
    cancelled = _cancelled_line(result)
    chosen: list[str] = []
    for summarise, merge in _LEVELS:
        shown = _merge_rounds(groups) if merge else groups
        lines = [(group.first, _group_line(group, text_only=text_only)) for group in shown]
        lines += [(False, line) for line in cancelled]
        chosen = [
            line.short if summarise and not first and len(line.short) < len(line.full)
            else line.full
            for first, line in lines
        ]
        if _length(chosen) <= DICE_BUDGET:
            break
    return chosen


def _again_name(result: RollResult) -> str:
    """What draws extra dice, as players call it: ``10-again`` (fistful's 10s roll again)."""
    again = result.request.again
    if result.request.ruleset is Ruleset.COFD and again is not None:
        return f"{again.value}-again"
    return "10-again"  # cofd's default, and fistful's 10s that roll again


def _ordinal(number: int) -> str:
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return f"{number}{suffix}"


def _round_name(name: str, first: int, last: int | None = None) -> str:
    """A line of extra dice named for what drew them: ``10-again``, ``10-again, 2nd``,
    ``10-again, 1st to 5th`` (rounds merged)."""
    if last is not None and last != first:
        return f"{name}, {_ordinal(first)} to {_ordinal(last)}"
    return name if first == 1 else f"{name}, {_ordinal(first)}"


def _groups(result: RollResult, *, text_only: bool) -> list[_Group]:
    """The dice by group, in draw order; a rote replacement is shown with the die it replaced."""
    groups: dict[str, _Group] = {}
    again = _again_name(result)
    for die in result.dice:
        if die.fate is Fate.VOID:
            label = "Void, no longer counted" if text_only else "Void"
        elif die.kind is DieKind.ROTE:
            continue
        elif die.kind is DieKind.WILL:
            label = "Will"
        elif die.kind is DieKind.CHANCE:
            label = "Chance die"
        elif die.round:
            label = _round_name(again, die.round)
        else:
            label = "Dice"
        void = die.fate is Fate.VOID
        extra = die.round if die.round and not void else None
        group = groups.setdefault(
            label, _Group(label, round=extra, first=not die.round and not void)
        )
        group.dice.append(_token(die, result.dice, text_only=text_only))
    return list(groups.values())


def _token(die: Die, every: tuple[Die, ...], *, text_only: bool) -> tuple[int, str]:
    if die.fate is Fate.REPLACED and die.pair is not None:
        new = every[die.pair]
        joiner = " rerolled to " if text_only else "→"
        return new.face, f"{die.face}{joiner}{_shown(new, text_only=text_only)}"
    return die.face, _shown(die, text_only=text_only)


def _shown(die: Die, *, text_only: bool) -> str:
    """One face: successes bold, cancelled dice and cancelling 1s struck (or named)."""
    face = str(die.face)
    if die.fate is Fate.SUCCESS:
        if text_only:  # said in words: a screen reader does not read bold
            return f"{face} (2 successes)" if die.successes == 2 else f"{face} (success)"
        return f"**{face}**×2" if die.successes == 2 else f"**{face}**"
    if die.fate is Fate.CANCELLED:
        return f"{face} (cancelled)" if text_only else f"~~{face}~~"
    if die.fate is Fate.CANCELS:
        return f"{face} (cancels)" if text_only else f"~~{face}~~"
    if die.fate is Fate.VOID and not text_only:
        return f"~~{face}~~"
    return face


def _cancelled_line(result: RollResult) -> list[_Line]:
    """Which success each 1 cancelled, so struck pairs can be matched up."""
    eaten: list[str] = []
    for die in result.dice:
        if die.fate is not Fate.CANCELS or die.pair is None:
            continue
        victim = result.dice[die.pair]
        # A v20 specialty 10 still standing lost one of its two successes.
        partial = victim.fate is Fate.SUCCESS
        what = "one of the two successes of a 10" if partial else str(victim.face)
        if victim.round != die.round:
            what += f" (by a 1 from round {die.round})"
        eaten.append(what)
    if not eaten:
        return []
    return [
        _Line(
            full=f"Cancelled by 1s: {', '.join(eaten)}",
            short=f"Cancelled by 1s: {plural(len(eaten), 'success')}",
        )
    ]


def _group_line(group: _Group, *, text_only: bool) -> _Line:
    separator = ", " if text_only else " "
    full = f"{group.label}: {separator.join(shown for _, shown in group.dice)}"
    counts = Counter(group.dice)
    ordered = sorted(counts, key=lambda shown: (-shown[0], shown[1]))
    if text_only:
        parts = [f"{dice(counts[key])} showing {key[1]}" for key in ordered]
    else:
        parts = [f"{counts[key]}× {key[1]}" for key in ordered]
    short = f"{group.label} ({dice(len(group.dice))}): {', '.join(parts)}"
    return _Line(full=full, short=short)


def _merge_rounds(groups: list[_Group]) -> list[_Group]:
    """Every round of extra dice as one group (a roll can have up to MAX_EXTRA rounds)."""
    rounds = [group for group in groups if group.round is not None]
    if len(rounds) < 2:
        return groups
    numbers = [group.round for group in rounds if group.round is not None]
    name = rounds[0].label.split(",")[0]
    merged = _Group(
        _round_name(name, numbers[0], numbers[-1]),
        [shown for group in rounds for shown in group.dice],
        round=rounds[0].round,
    )
    place = groups.index(rounds[0])
    rest = [group for group in groups if group.round is None]
    return [*rest[:place], merged, *rest[place:]]


def _length(lines: list[str]) -> int:
    return sum(len(line) + 1 for line in lines)


# --- Pool and footer -----------------------------------------------------------------------


def _pool_text(result: RollResult, breakdown: Breakdown) -> str:
    """The breakdown and the options that change how dice read, within a field's 1,024."""
    ruleset = result.request.ruleset
    options = options_text(result.request)
    tail = f"\nOptions: {options}" if options else ""
    tail += sheet_lines(result.request, breakdown)
    text = breakdown_text(breakdown, ruleset, result.will) + tail
    if len(text) > _FIELD_LIMIT:
        # Many long trait names: show the sum of the terms instead of each term.
        terms = (Term(value=sum(term.value for term in breakdown.terms)),)
        compact = breakdown.model_copy(update={"terms": terms})
        text = breakdown_text(compact, ruleset, result.will) + tail
    return text[:_FIELD_LIMIT]


def sheet_lines(request: RollRequest, breakdown: Breakdown) -> str:
    """Where each named term's number came from and what the sheet decided, one line each
    (empty for a roll made without a sheet)."""
    by_source: dict[TermSource, list[str]] = {}
    for term in breakdown.terms:
        if term.source is not None and term.label is not None:
            by_source.setdefault(term.source, []).append(term.label)
    notes = request.sheet
    if not by_source and notes is None:
        return ""
    whose = f"{safe(notes.character, limit=NAME_LIMIT)}'s sheet" if notes and notes.character \
        else "the sheet"
    lines = []
    words = {TermSource.SHEET: f"from {whose}", TermSource.DERIVED: "derived on the sheet",
             TermSource.TYPED: "typed (a typed number wins over the sheet)"}
    for source in (TermSource.SHEET, TermSource.DERIVED, TermSource.TYPED):
        if source in by_source:
            lines.append(f"{', '.join(safe(n) for n in by_source[source])}: {words[source]}")
    if notes is not None and notes.specialty:
        lines.append(f"Specialty {safe(notes.specialty)}: on the sheet")
    if notes is not None and notes.untrained:
        lines.append(f"Untrained: {safe(notes.untrained)} has no dots on the sheet")
    if notes is not None and notes.resist:
        of = f" of {safe(notes.resist_of, limit=NAME_LIMIT)}" if notes.resist_of else ""
        lines.append(f"Resistance: {safe(notes.resist)}{of}, from the sheet")
    return "".join(f"\n{line}" for line in lines)


def _footer(
    roll_id: int | None,
    ruleset: Ruleset,
    *,
    status: RollStatus,
    text_only: bool,
    roller: str | None = None,
) -> str:
    """The small print: the roll's number, who rolled (compact cards), the ruleset it was
    read by, whether it closed."""
    parts: list[str] = []
    if roll_id is not None:
        parts.append(f"Roll {roll_id}" if text_only else f"Roll #{roll_id}")
    if roller is not None:
        parts.append(f"rolled by {roller}")
    parts.append(ruleset.value if roller is not None else RULESET_NAMES[ruleset])
    if status is RollStatus.CLOSED:
        parts.append("Buttons closed")
    return (", " if text_only else " · ").join(parts)



# --- refusals that come from the table's state ---------------------------------------------


#: What undoes each adjustment the table's state adds, for a refusal it caused.
_REMEDIES: Final[dict[AdjustmentKind, str]] = {
    AdjustmentKind.SUCCESSIVE_ACTION: (
        "The Successive Action Penalty counts your earlier actions this turn: the "
        "Storyteller's `/turn next` starts a new turn and clears it."
    ),
    AdjustmentKind.SUCCESSIVE_ATTEMPT: (
        "That penalty comes from trying {label} again after failing: a success clears it, "
        "and so does the Storyteller's `/scene end`; another action deserves another label."
    ),
    AdjustmentKind.EXTENDED_PENALTY: (
        "The last attempt at {label} ended on a dramatic failure; the Storyteller's "
        "`/scene end` clears it."
    ),
}


def refusal_cause(request: RollRequest, label: str | None) -> str:
    """Below a refusal, the automatic adjustments that led to it and how to undo them
    (empty when the table's state played no part): the newcomer sees the -3 Successive
    Action Penalty, not only "the pool is 0"."""
    caused = [adj for adj in request.adjustments if adj.kind in _REMEDIES]
    if not caused:
        return ""
    ruleset = request.ruleset
    pool = safe(format_pool(request.terms)) or "0"
    steps = [pool, *(adjustment_text(adj, ruleset) for adj in request.adjustments)]
    named = f"“{safe(label, limit=LABEL_LIMIT)}”" if label else "this action"
    remedies = dict.fromkeys(_REMEDIES[adj.kind].format(label=named) for adj in caused)
    return "\nHow the pool got there: " + "; ".join(steps) + ".\n" + " ".join(remedies)
