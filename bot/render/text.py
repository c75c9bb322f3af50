"""Wording shared by every renderer: user text made harmless, counts, outcomes, pools."""

from __future__ import annotations

import re
import unicodedata
from typing import Final

import discord
from discord.utils import escape_markdown, escape_mentions

from bot.render.lang import N_, _, n_, user
from bot.render.lang import percent as percentage
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Again,
    Breakdown,
    Outcome,
    RollRequest,
    Ruleset,
    WillUse,
)
from engine.parser import format_pool
from engine.trait_names import localised

#: Outcome names as players read them.
OUTCOME_WORDS: Final[dict[Outcome, str]] = {
    Outcome.DRAMATIC_FAILURE: N_("Dramatic failure"),
    Outcome.FAILURE: N_("Failure"),
    Outcome.SUCCESS: N_("Success"),
    Outcome.EXCEPTIONAL_SUCCESS: N_("Exceptional success"),
    Outcome.BOTCH: N_("Botch"),
    Outcome.REFUSED: N_("Not rolled"),
}

#: Embed colour of a roll by its outcome.
OUTCOME_COLOURS: Final[dict[Outcome, discord.Colour]] = {
    Outcome.DRAMATIC_FAILURE: discord.Colour.dark_red(),
    Outcome.FAILURE: discord.Colour.orange(),
    Outcome.SUCCESS: discord.Colour.green(),
    Outcome.EXCEPTIONAL_SUCCESS: discord.Colour.gold(),
    Outcome.BOTCH: discord.Colour.dark_red(),
    Outcome.REFUSED: discord.Colour.light_grey(),
}
#: A roll the Storyteller voided: grey, whatever its outcome was.
VOID_COLOUR: Final = discord.Colour.dark_grey()
#: Help and odds embeds.
INFO_COLOUR: Final = discord.Colour.blurple()

#: Why the engine changed a pool, as the breakdown names it.
_REASONS: Final[dict[AdjustmentKind, str]] = {
    AdjustmentKind.SPECIALTY: N_("specialty"),
    AdjustmentKind.WILLPOWER: N_("Willpower"),
    AdjustmentKind.UNTRAINED: N_("untrained"),
    AdjustmentKind.RESISTANCE: N_("resistance"),
    AdjustmentKind.SUCCESSIVE_ATTEMPT: N_("trying again after a failure"),
    AdjustmentKind.SUCCESSIVE_ACTION: N_("successive action this turn"),
    AdjustmentKind.TEAMWORK: N_("teamwork (helpers' successes)"),
    AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE: N_("a helper's dramatic failure"),
    AdjustmentKind.HELPER_LIMIT: N_("more helpers than the limit"),
    AdjustmentKind.EXTENDED_PENALTY: N_("dramatic failure on the last extended roll"),
    AdjustmentKind.MULTIPLE_ACTION: N_("multiple actions"),
}
_RULESET_REASONS: Final[dict[tuple[AdjustmentKind, Ruleset], str]] = {
    (AdjustmentKind.UNTRAINED, Ruleset.COFD): N_("untrained (muddling through)"),
    (AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, Ruleset.FISTFUL): N_("a helper's botch"),
}
_WILL_WHEN: Final[dict[WillUse, str]] = {
    WillUse.DECLARED: N_("declared with the roll"),
    WillUse.AFTER: N_("spent after the roll"),
}
_AGAIN_WORDS: Final[dict[Again, str]] = {
    Again.TEN: N_("10-again"),
    Again.NINE: N_("9-again"),
    Again.EIGHT: N_("8-again"),
    Again.NONE: N_("no-again (nothing rerolled)"),
}
#: Mention-like markup ``<@id>``, ``<#id>``, ``</cmd:id>``, ``<:emoji:id>``: escape_mentions
#: only handles 17–20 digit ids, and a backslash shows any of these as plain text.
_ANGLE: Final = re.compile(r"<(?=[@#/:at])")


def safe(text: str, *, limit: int | None = None) -> str:
    """User text (labels, names, pools) as plain text: no markdown, no mentions.

    With ``limit``, the raw text is shortened (and marked with "…") until its
    escaped form fits, so an escape is never cut in half.
    """
    return user(escaped(text, limit=limit))


def escaped(text: str, *, limit: int | None = None) -> str:
    """Any text as plain text (no markdown, no mentions), shortened as :func:`safe` does;
    for the bot's own sentences that hold user text (a refusal), which :func:`safe` would
    mark as user text whole."""
    shown = _escape(text)
    if limit is None or len(shown) <= limit:
        return shown
    # The longest beginning of the raw text whose escaped form and the "…" fit: escapes
    # make the shown text up to twice as long as the raw, so the cut is searched for, not
    # worked out from how far over it is (that cut markdown-heavy names twice too short).
    kept, over = 0, min(len(text), limit)
    while kept < over:
        middle = (kept + over + 1) // 2
        if len(_escape(text[:middle])) + 1 <= limit:
            kept = middle
        else:
            over = middle - 1
    return _escape(text[:kept]) + "…"


def trait(name: str, language: str) -> str:
    """A trait's name as shown: a template trait in ``language`` (``Wits`` →
    ``Raciocínio``), escaped as user text."""
    return safe(localised(name, language))


def capitalised(text: str) -> str:
    """A sentence with its first letter in capitals: the letter after any opening
    brackets a voice wraps a translated sentence in (the tests' pseudo-locales do)."""
    first = next((i for i, c in enumerate(text) if unicodedata.category(c) != "Ps"), 0)
    return text[:first] + text[first:first + 1].upper() + text[first + 1:]


#: The bidirectional embeddings, overrides and isolates (U+202A-U+202E, U+2066-U+2069),
#: dropped from user text before it is shown (**Decision**): a display name (or a label
#: kept before labels refused them) such as ``\u202eecilA`` turned the rest of the bot's
#: line around it, ``**Alice** .rood :llor terces a edam``. Each script is still ordered
#: by the bidirectional algorithm, as in any message; what members type is refused with
#: them (:func:`engine.text.visible_line`).
_BIDI_CONTROLS: Final = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e"
                                              "\u2066\u2067\u2068\u2069"))


def _escape(text: str) -> str:
    plain = text.translate(_BIDI_CONTROLS)
    return _ANGLE.sub(r"\<", escape_mentions(escape_markdown(plain)))


def dice(n: int) -> str:
    """``1 die``, ``3 dice`` (``-1 die``) in the voice in force."""
    return n_("{count} die", "{count} dice", abs(n), count=n)


def successes(n: int) -> str:
    """``1 success``, ``3 successes`` in the voice in force."""
    return n_("{n} success", "{n} successes", n)


def outcome_word(outcome: Outcome) -> str:
    """An outcome's name in the voice in force: ``Exceptional success``."""
    return _(OUTCOME_WORDS[outcome])


def signed(n: int) -> str:
    """``+3`` or ``-3`` (ASCII, which screen readers read as plus and minus)."""
    return f"{n:+d}"


def percent(probability: float) -> str:
    """A probability as a percentage with 2 decimals, never rounded to a false 0 or 100.

    The engine's odds are exact to about 1e-9, so anything that close to 1 is certain.
    """
    if probability <= 0:
        return percentage(0, 2)
    if probability < 0.00005:
        return "<" + percentage(0.0001, 2)
    if probability >= 1 - 1e-9:
        return percentage(1, 2)
    if probability > 0.99995:
        return ">" + percentage(0.9999, 2)
    return percentage(probability, 2)


def adjustment_text(adj: Adjustment, ruleset: Ruleset) -> str:
    """One automatic adjustment with its sign and its reason: ``-3 dice: untrained``."""
    reason = _(_RULESET_REASONS.get((adj.kind, ruleset), _REASONS[adj.kind]))
    if adj.kind is AdjustmentKind.WILLPOWER and ruleset is Ruleset.V20:
        return _("+1 success that no 1 cancels: {reason}", reason=reason)
    effects = []
    if adj.dice:
        effects.append(n_("{signed} die", "{signed} dice", abs(adj.dice), signed=signed(adj.dice)))
    if adj.difficulty:
        effects.append(_("difficulty {change}", change=signed(adj.difficulty)))
    return _("{effects}: {reason}", effects=", ".join(effects) or _("no change"), reason=reason)


def breakdown_text(breakdown: Breakdown, ruleset: Ruleset, will: WillUse) -> str:
    """The pool as rolled, one line per part, ending with the total.

    ::

        Strength 3 + Brawl 2
        +1 die: specialty
        +3 dice: Willpower (spent after the roll)
        = 9 dice

    Without adjustments it is one line: ``Strength 3 + Brawl 2 = 5 dice``, ``7 dice``.
    """
    terms = safe(format_pool(breakdown.terms)) or "0"
    if breakdown.chance:
        total = _("{dice}, below 1 die: one chance die (only a 10 succeeds)", dice=breakdown.dice)
    elif breakdown.difficulty is not None:
        raise_by = sum(adj.difficulty for adj in breakdown.adjustments)
        raised = f" ({breakdown.difficulty - raise_by} {signed(raise_by)})" if raise_by else ""
        total = _("{dice} at difficulty {difficulty}{raised}", dice=dice(breakdown.dice),
                  difficulty=breakdown.difficulty, raised=raised)
    else:
        total = dice(breakdown.dice)
    if not breakdown.adjustments:
        return total if terms == user(str(breakdown.dice)) else f"{terms} = {total}"
    lines = [terms]
    for adj in breakdown.adjustments:
        line = adjustment_text(adj, ruleset)
        if adj.kind is AdjustmentKind.WILLPOWER and will in _WILL_WHEN:
            line = _("{adjustment} ({when})", adjustment=line, when=_(_WILL_WHEN[will]))
        lines.append(line)
    lines.append(f"= {total}")
    return "\n".join(lines)


def options_text(request: RollRequest) -> str:
    """The roll options that change how dice are read (pool changes are in the breakdown)."""
    words: list[str] = []
    if request.again is not None and request.again is not Again.TEN:
        words.append(_(_AGAIN_WORDS[request.again]))
    if request.rote:
        words.append(_("rote action (failed dice rerolled once)"))
    if request.exceptional_at is not None:
        words.append(_("exceptional success at {n}", n=request.exceptional_at))
    if request.extra:
        words.append(n_("{n} extra success on a success", "{n} extra successes on a success",
                        request.extra))
    if request.ruleset is Ruleset.V20 and request.specialty:
        words.append(_("specialty (10s count twice)"))
    if request.auto:
        words.append(_("automatic success"))
    if request.ruleset is Ruleset.FISTFUL and request.untrained is not None:
        words.append(_("unskilled (1s eat successes)"))
    if request.risky:
        words.append(_("risky (1s eat successes)"))
    if request.initiative:
        words.append(_("initiative (6 to 10 succeed)"))
    if request.no_botch:
        words.append(_("no botch"))
    if request.need is not None:
        words.append(n_("needs {n} success", "needs {n} successes", request.need))
    return ", ".join(words)


def message_link(guild_id: int, channel_id: int, message_id: int) -> str:
    """A link that jumps to a message (a card in `/extended list`, a roll in `/history`)."""
    return f"https://discord.com/channels/{guild_id}/{channel_id}/{message_id}"
