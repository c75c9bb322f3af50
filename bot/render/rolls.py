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

import unicodedata
from collections import Counter
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Final

import discord

from bot.render.buttons import roll_buttons
from bot.render.lang import N_, _, n_, number, p_, trait_language, user
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.text import (
    OUTCOME_COLOURS,
    VOID_COLOUR,
    adjustment_text,
    breakdown_text,
    capitalised,
    dice,
    escaped,
    options_text,
    outcome_word,
    safe,
    successes,
    trait,
)
from engine.constants import MAX_EXTRA
from engine.models import (
    AdjustmentKind,
    Breakdown,
    Degree,
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

__all__ = ["RULESET_NAMES", "RollStatus", "refusal", "roll_embed", "ruleset_name",
           "secret_notice"]


class RollStatus(StrEnum):
    """Where a roll message stands."""

    OPEN = "open"
    """Buttons (Spend Will, Take a Beat, Try again) may still apply."""
    CLOSED = "closed"
    """Its buttons were closed (another roll, the turn or scene advanced, the Storyteller)."""
    VOID = "void"
    """Voided by the Storyteller: still listed, no longer counted."""


#: Each ruleset's official title (marked: translated where shown, see :func:`ruleset_name`).
RULESET_NAMES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("Chronicles of Darkness (2e)"),
    Ruleset.V20: N_("Classic World of Darkness (V20 / Dark Ages)"),
    Ruleset.FISTFUL: N_("Fist Full of Dice (table procedure)"),
}


def ruleset_name(ruleset: Ruleset) -> str:
    """A ruleset's title in the voice in force."""
    return _(RULESET_NAMES[ruleset])

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
_BOTCH_DEGREES: Final = {1: N_("single botch"), 2: N_("double botch"), 3: N_("triple botch")}
#: A `v20` success's degree as players say it.
_DEGREES: Final[dict[Degree, str]] = {
    Degree.MARGINAL: N_("marginal success"),
    Degree.MODERATE: N_("moderate success"),
    Degree.COMPLETE: N_("complete success"),
    Degree.EXCEPTIONAL: N_("exceptional success"),
    Degree.PHENOMENAL: N_("phenomenal success"),
}
#: Ordinals of rounds of extra dice, by English suffix (``2nd``).
_ORDINALS: Final = {"st": N_("{n}st"), "nd": N_("{n}nd"), "rd": N_("{n}rd"), "th": N_("{n}th")}


@dataclass
class _Group:
    """One line of dice: each die as (the face that counts, how it is shown)."""

    label: str
    dice: list[tuple[int, str]] = field(default_factory=list)
    base: str = ""
    """What draws a round's extra dice (``10-again``), for a line of merged rounds."""
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
    secret: int | None = None,
    compact: bool = False,
) -> discord.Embed:
    """The roll message's embed, within every Discord limit however big the roll.

    ``text_only`` is for screen readers: words instead of emoji, arrows and
    strikethrough. ``sorted_dice`` orders each group high to low (display only).
    ``secret``, the channel a secret roll was made in, marks its full result (the
    roller's ephemeral copy and the Storyteller's) and names that channel: one copies
    channel takes the secret rolls of every channel and thread of the server, and a
    Storyteller must know which scene each comes from (and where `/history` lists it).
    ``compact`` keeps the card short: no fields, the pool on one line, the roller in
    the footer.
    """
    ruleset = result.request.ruleset
    phrase = _outcome_phrase(result)
    title = f"{safe(label, limit=LABEL_LIMIT)}: {phrase}" if label else phrase
    if status is RollStatus.VOID:
        title = _("Void - {title}", title=title)
    elif not text_only:
        title = f"🎲 {title}"

    lines: list[str] = []
    if status is RollStatus.VOID:
        lines.append(_("**Voided by the Storyteller**: this roll no longer counts."))
    if secret is not None:
        lines.append(_("Secret roll in <#{channel}>: the channel saw only that a roll was "
                       "made.", channel=secret))
    if result.refused:
        lines.append(refusal(refusal_text(result.refusal) or _("this roll cannot be made")))
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
            # text-only has no symbols (a screen reader says "middle dot"); a part may
            # hold commas itself (the options), so semicolons part them
            joiner = "; " if text_only else " · "
            pool = joiner.join(_pool_text(result, result.breakdown).splitlines())
            pool_line = _("Pool: {pool}", pool=pool)
            embed.description = _with_tail(embed.description or "", pool_line)
        footer = _footer(roll_id, ruleset, status=status, text_only=text_only, roller=who)
        embed.set_footer(text=footer)
        return embed
    if result.breakdown is not None:
        embed.add_field(name=_("Pool"), value=_pool_text(result, result.breakdown), inline=False)
    embed.add_field(name=_("Rolled by"), value=who, inline=True)
    embed.set_footer(text=_footer(roll_id, ruleset, status=status, text_only=text_only))
    return embed


def _with_tail(head: str, tail: str) -> str:
    """``head`` and, on its own line, ``tail`` within an embed's description; ``head`` cut
    visibly ("…") where they would not fit: after a whole word, never inside an escape (a
    compact card's pool line comes last, and stays whole)."""
    whole = f"{head}\n{tail}"
    if len(whole) <= _DESCRIPTION_LIMIT:
        return whole
    kept = head[: _DESCRIPTION_LIMIT - len(tail) - len("\n…\n")]
    space = max(kept.rfind(" "), kept.rfind("\n"))
    kept = (kept[:space] if space > 0 else kept).rstrip(" ,\\")
    return f"{kept}\n…\n{tail}"


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
        secret=record.channel_id if record.private else None,
        compact=config.compact,
    )
    view = roll_buttons(record.id, will=offered.will, beat=offered.beat, retry=offered.retry,
                        again=offered.again, save=offered.save)
    return shaped(Message(embed=embed, view=view), config)


def roller_of(record: RollRecord) -> str:
    """Who rolled: the member, or the character and its member (unescaped: shown safe)."""
    return played_by(record.roller_name, record.character_name)


def played_by(member: str, character: str | None) -> str:
    """A member, or the character they play and the member: ``Mara (Alice)`` (unescaped:
    shown safe)."""
    return f"{character} ({member})" if character else member


def secret_notice(*, roller: str, label: str | None) -> str:
    """The channel's public line for a secret roll: who, what for, no dice."""
    who = safe(roller, limit=NAME_LIMIT)
    if label:
        return _("**{name}** made a secret roll: {label}.", name=who,
                 label=safe(label, limit=LABEL_LIMIT))
    return _("**{name}** made a secret roll.", name=who)


def refusal(message: str) -> str:
    """An engine or parser refusal as an ephemeral reply: a capitalised sentence.

    Opening and closing brackets around it are passed over (a language's marks around a
    translated sentence), so the sentence inside is the one capitalised and stopped."""
    text = capitalised(message.strip() or _("That cannot be done."))
    last = next((c for c in reversed(text) if unicodedata.category(c) != "Pe"), ".")
    if last not in ".!?":
        text += "."
    return escaped(text, limit=2000)


# --- Outcome -------------------------------------------------------------------------------


def degree_word(degree: Degree) -> str:
    """A `v20` success's degree in words (``moderate success``)."""
    return _(_DEGREES[degree])


def _outcome_phrase(result: RollResult) -> str:
    """The outcome in words, with the ruleset's degree: ``Success (moderate success)``."""
    words = outcome_word(result.outcome)
    if result.automatic:
        return _("Automatic success")
    if result.beat:
        return _("{outcome} (Beat taken)", outcome=words)
    if result.degree is not None:
        return f"{words} ({degree_word(result.degree)})"
    if result.botch_degree is not None:
        ones = result.botch_degree
        degree = (_(_BOTCH_DEGREES[ones]) if ones in _BOTCH_DEGREES
                  else _("triple botch or worse: {n} ones standing", n=ones))
        return f"{words} ({degree})"
    return words


def _headline(result: RollResult) -> str:
    """The number of successes, and where any that are not on the dice came from."""
    if result.automatic:
        return _("**1 success**, automatic: no dice were rolled.")
    if not result.successes:
        return _("**No successes**")
    count = f"**{successes(result.successes)}**"
    request = result.request
    if request.ruleset is Ruleset.COFD and request.extra:
        return _("{count} ({dice} on the dice + {extra} extra)", count=count,
                 dice=result.dice_successes, extra=request.extra)
    if request.ruleset is Ruleset.V20 and result.will is not WillUse.NONE:
        return _("{count} (including 1 from Willpower)", count=count)
    return count


def _notes(result: RollResult) -> list[str]:
    notes: list[str] = []
    if result.beat:
        notes.append(
            _("Beat taken: the failure became a dramatic failure, and a Beat was gained."))
    if result.will is WillUse.AFTER:
        notes.append(_("Willpower was spent after the roll."))
    need = result.request.need
    if need is not None and result.need_met is not None:
        met = _("met") if result.need_met else _(
            "not met ({successes} of {need})", successes=result.successes, need=need)
        notes.append(n_("Needed {n} success: {met}.", "Needed {n} successes: {met}.", need,
                        met=met))
    if result.capped:
        notes.append(_(
            "Extra dice stopped at the limit of {limit}: "
            "the outcome counts the dice that were rolled.", limit=number(MAX_EXTRA)
        ))
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
        return _("{n}-again", n=again.value)
    return _("{n}-again", n=10)  # cofd's default, and fistful's 10s that roll again


def _ordinal(number: int) -> str:
    teens = 10 <= number % 100 <= 20
    suffix = "th" if teens else {1: "st", 2: "nd", 3: "rd"}.get(number % 10, "th")
    return _(_ORDINALS[suffix], n=number)


def _round_name(name: str, first: int, last: int | None = None) -> str:
    """A line of extra dice named for what drew them: ``10-again``, ``10-again, 2nd``,
    ``10-again, 1st to 5th`` (rounds merged)."""
    if last is not None and last != first:
        return _("{name}, {first} to {last}", name=name, first=_ordinal(first),
                 last=_ordinal(last))
    return name if first == 1 else f"{name}, {_ordinal(first)}"


def _groups(result: RollResult, *, text_only: bool) -> list[_Group]:
    """The dice by group, in draw order; a rote replacement is shown with the die it replaced."""
    groups: dict[str, _Group] = {}
    again = _again_name(result)
    for die in result.dice:
        if die.fate is Fate.VOID:
            label = _("Void, no longer counted") if text_only else _("Void")
        elif die.kind is DieKind.ROTE:
            continue
        elif die.kind is DieKind.WILL:
            label = _("Will")
        elif die.kind is DieKind.CHANCE:
            label = _("Chance die")
        elif die.round:
            label = _round_name(again, die.round)
        else:
            label = _("Dice")
        void = die.fate is Fate.VOID
        extra = die.round if die.round and not void else None
        group = groups.setdefault(
            label, _Group(label, round=extra, first=not die.round and not void,
                          base=again if extra else "")
        )
        group.dice.append(_token(die, result.dice, text_only=text_only))
    return list(groups.values())


def _token(die: Die, every: tuple[Die, ...], *, text_only: bool) -> tuple[int, str]:
    if die.fate is Fate.REPLACED and die.pair is not None:
        new = every[die.pair]
        shown = _shown(new, text_only=text_only)
        if text_only:
            return new.face, _("{face} rerolled to {new}", face=die.face, new=shown)
        return new.face, f"{die.face}→{shown}"
    return die.face, _shown(die, text_only=text_only)


def _shown(die: Die, *, text_only: bool) -> str:
    """One face: successes bold, cancelled dice and cancelling 1s struck (or named)."""
    face = str(die.face)
    if die.fate is Fate.SUCCESS:
        if text_only:  # said in words: a screen reader does not read bold
            return (_("{face} (2 successes)", face=face) if die.successes == 2
                    else _("{face} (success)", face=face))
        return f"**{face}**×2" if die.successes == 2 else f"**{face}**"
    if die.fate is Fate.CANCELLED:
        return _("{face} (cancelled)", face=face) if text_only else f"~~{face}~~"
    if die.fate is Fate.CANCELS:
        return _("{face} (cancels)", face=face) if text_only else f"~~{face}~~"
    if die.fate is Fate.VOID and not text_only:
        return f"~~{face}~~"
    return face


def _cancelled_line(result: RollResult) -> list[_Line]:
    """Which success each 1 cancelled, so struck pairs can be matched up: each die once,
    a `v20` specialty 10 that two 1s cancelled whole as both its successes (``10, 10``
    read as two 10s, beside the other 10 still standing)."""
    ones = Counter(die.pair for die in result.dice
                   if die.fate is Fate.CANCELS and die.pair is not None)
    eaten: list[str] = []
    for die in result.dice:
        if die.fate is not Fate.CANCELS or die.pair is None or die.pair not in ones:
            continue
        victim = result.dice[die.pair]
        if ones.pop(die.pair) == 2:
            what = _("both successes of a 10")
        elif victim.fate is Fate.SUCCESS:  # a v20 specialty 10 still standing
            what = _("one of the two successes of a 10")
        else:
            what = str(victim.face)
        if victim.round != die.round:
            what = _("{what} (by a 1 from round {round})", what=what, round=die.round)
        eaten.append(what)
    if not eaten:
        return []
    cancelled = sum(die.fate is Fate.CANCELS and die.pair is not None for die in result.dice)
    return [
        _Line(
            full=_("Cancelled by 1s: {dice}", dice=", ".join(eaten)),
            short=_("Cancelled by 1s: {dice}", dice=successes(cancelled)),
        )
    ]


def _group_line(group: _Group, *, text_only: bool) -> _Line:
    separator = ", " if text_only else " "
    full = f"{group.label}: {separator.join(shown for _, shown in group.dice)}"
    counts = Counter(group.dice)
    ordered = sorted(counts, key=lambda shown: (-shown[0], shown[1]))
    if text_only:
        parts = [_("{dice} showing {face}", dice=dice(counts[key]), face=key[1])
                 for key in ordered]
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
    name = rounds[0].base
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
    tail = "\n" + _("Options: {options}", options=options) if options else ""
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
    (empty for a roll made without a sheet). A typed number is said to win over the sheet
    only when the roll had one (a character's, or a term read from it): without a
    character there was no sheet to win over, so it is just typed."""
    by_source: dict[TermSource, list[str]] = {}
    for term in breakdown.terms:
        if term.source is not None and term.label is not None:
            by_source.setdefault(term.source, []).append(term.label)
    notes = request.sheet
    if not by_source and notes is None:
        return ""
    lines = []
    words = {
        TermSource.SHEET: _("from {name}'s sheet", name=safe(notes.character, limit=NAME_LIMIT))
        if notes and notes.character else _("from the sheet"),
        TermSource.DERIVED: _("derived on the sheet"),
        TermSource.TYPED: _("typed (a typed number wins over the sheet)")
        if (notes and notes.character) or TermSource.SHEET in by_source
        or TermSource.DERIVED in by_source else p_("term source", "typed"),
    }
    for source in (TermSource.SHEET, TermSource.DERIVED, TermSource.TYPED):
        if source in by_source:
            lines.append(f"{', '.join(safe(n) for n in by_source[source])}: {words[source]}")
    if notes is not None and notes.specialty:
        lines.append(_("Specialty {specialty}: on the sheet", specialty=safe(notes.specialty)))
    language = trait_language()
    if notes is not None and notes.untrained:
        lines.append(_("Untrained: {trait} has no dots on the sheet",
                       trait=trait(notes.untrained, language)))
    if notes is not None and notes.resist:
        resist = trait(notes.resist, language)
        lines.append(
            _("Resistance: {trait} of {name}, from the sheet", trait=resist,
              name=safe(notes.resist_of, limit=NAME_LIMIT)) if notes.resist_of
            else _("Resistance: {trait}, from the sheet", trait=resist))
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
        parts.append(_("Roll {id}", id=roll_id) if text_only else _("Roll #{id}", id=roll_id))
    if roller is not None:
        parts.append(_("rolled by {name}", name=roller))
    parts.append(user(ruleset.value) if roller is not None else ruleset_name(ruleset))
    if status is RollStatus.CLOSED:
        # Roll again and Save this roll stay: only Spend Will, Take a Beat, Try again go
        parts.append(_("Roll closed"))
    return (", " if text_only else " · ").join(parts)



# --- refusals that come from the table's state ---------------------------------------------


#: What undoes each adjustment the table's state adds, for a refusal it caused.
_REMEDIES: Final[dict[AdjustmentKind, str]] = {
    AdjustmentKind.SUCCESSIVE_ACTION: N_(
        "The Successive Action Penalty counts this character's earlier actions this turn: the "
        "Storyteller's `/turn next` starts a new turn and clears it."
    ),
    AdjustmentKind.SUCCESSIVE_ATTEMPT: N_(
        "That penalty comes from trying {label} again after failing: a success clears it, "
        "and so does the Storyteller's `/scene end`; another action deserves another label."
    ),
    # RULES.md §1: a dramatic failure weighs on the task's next roll, whether it came on
    # this attempt's last roll or ended the last attempt; a scene's end does not clear it.
    AdjustmentKind.EXTENDED_PENALTY: N_(
        "A dramatic failure at {label} weighs on its next roll only: the roll after that has "
        "the whole pool again."
    ),
}


class NpcUse(StrEnum):
    """What a member who is no Storyteller here was refused doing as a non-player
    character (:func:`npc_not_yours`): each says why in words true of it, the NPC their
    active sheet only for a new roll (a roll's presses, an action's roll are the NPC's
    whichever sheet is active now, so making their own active would not help)."""

    ROLL = "roll"
    """A new roll (or /init join) with the NPC as the member's active sheet."""
    AGAIN = "again"
    """Try again on a roll made as the NPC."""
    WILL = "will"
    """Spend Will on a roll made as the NPC."""
    BEAT = "beat"
    """Take a Beat on a roll made as the NPC."""
    EXTENDED = "extended"
    """A roll of an extended action started as the NPC."""
    TEAMWORK = "teamwork"
    """The primary's roll of a teamwork started as the NPC."""


_NPC_NOT_YOURS: Final[dict[NpcUse, str]] = {
    NpcUse.ROLL: N_("Your active character here, {name}, is a non-player character, and only "
                    "a Storyteller may roll one: make one of your own active (/character use "
                    "name:<name>) to roll."),
    NpcUse.AGAIN: N_("This roll was made as {name}, a non-player character, and only a "
                     "Storyteller may roll it again."),
    NpcUse.WILL: N_("This roll was made as {name}, a non-player character, and only a "
                    "Storyteller may spend its Will."),
    NpcUse.BEAT: N_("This roll was made as {name}, a non-player character, and only a "
                    "Storyteller may give it a Beat."),
    NpcUse.EXTENDED: N_("This extended action is {name}'s, a non-player character, and only a "
                        "Storyteller may roll it."),
    NpcUse.TEAMWORK: N_("This teamwork is {name}'s, a non-player character, and only a "
                        "Storyteller may roll it."),
}


def npc_not_yours(character: str, use: NpcUse = NpcUse.ROLL) -> str:
    """A member who is no Storyteller here acts as a non-player character (made active
    where they were one, or rolled before their role was taken away): a roll of typed
    numbers would be the NPC's too, as would an earlier roll's Will, Beat or retry."""
    return _(_NPC_NOT_YOURS[use], name=safe(character, limit=NAME_LIMIT))


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
    named = f"“{safe(label, limit=LABEL_LIMIT)}”" if label else _("this action")
    remedies = dict.fromkeys(_(_REMEDIES[adj.kind], label=named) for adj in caused)
    return ("\n" + _("How the pool got there: {steps}.", steps="; ".join(steps)) + "\n"
            + " ".join(remedies))
