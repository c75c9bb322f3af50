"""Cards that show several rolls at once: contests, `v20` multiple actions, and the
compact roll blocks that teamwork cards share.

A roll's own message (:mod:`bot.render.rolls`) has a whole embed to itself. A
card holds two to a few dozen rolls, so each one is a compact block that fits
an embed field (1,024 characters): the outcome, the dice (the first
:data:`DICE_SHOWN`, then a count) and the pool breakdown.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

from bot.edge import ids
from bot.render.buttons import view_of
from bot.render.lang import N_, _, n_
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.rolls import LABEL_LIMIT, NAME_LIMIT, RULESET_NAMES, degree_word
from bot.render.text import (
    INFO_COLOUR,
    OUTCOME_WORDS,
    breakdown_text,
    capitalised,
    safe,
)
from engine.models import Degree, Die, DieKind, Fate, RollResult, Ruleset, Term
from engine.records import ActionRecord, ChannelConfig, DiceOrder
from engine.table.contest import (
    ContestResult,
    ContestState,
    ContestStatus,
    ResistBlocked,
    Winner,
)
from engine.table.multi import MultiRefusal

__all__ = [
    "AGAINST_YOURSELF",
    "CONTEST_DECIDED",
    "CONTEST_GONE",
    "DICE_SHOWN",
    "DIFFICULTY_FIELD",
    "DIFFICULTY_HINT",
    "DIFFICULTY_LABEL",
    "NOT_A_PLAYER",
    "NO_SIDE",
    "POOL_FIELD",
    "POOL_HINT",
    "POOL_LABEL",
    "RESIST",
    "RESIST_FORM_TITLE",
    "TWO_SIDES",
    "cannot_contest",
    "contest_embed",
    "contest_message",
    "dice_text",
    "foreign_option",
    "multi_embed",
    "multi_refused",
    "not_a_difficulty",
    "not_opponent",
    "pool_field",
    "pool_form",
    "resist_refused",
    "roll_block",
    "roll_summary",
    "scene_contests_closed",
    "unreadable_action",
]

#: Dice shown die by die in a compact block; the rest are counted.
DICE_SHOWN: Final = 40
_FIELD_LIMIT: Final = 1024

RESIST: Final = N_("Roll to resist")
RESIST_FORM_TITLE: Final = N_("Roll to resist")

#: The pool form (Help on a teamwork card, Roll to resist on a contest card); the hint's
#: example names traits every template has (v20 has no Composure).
POOL_LABEL: Final = N_("Your pool")
POOL_HINT: Final = N_(
    "Dice, or traits: 5, Strength 3 + Brawl 2, or Strength + Brawl from your sheet"
)
DIFFICULTY_LABEL: Final = N_("Difficulty")
DIFFICULTY_HINT: Final = N_("v20: 2 to 10; leave empty for 6")


def not_a_difficulty(text: str) -> str:
    """The difficulty field of a form is not a whole number."""
    return _("The difficulty is a whole number from 2 to 10, not “{text}”.",
             text=safe(text, limit=20))

NO_SIDE: Final = N_(
    "Name the other side: `against:<pool>` for the Storyteller's dice (both roll now), "
    "or `opponent:@member` to let a player roll to resist."
)
TWO_SIDES: Final = N_(
    "Give either `against` (the Storyteller rolls now) or `opponent` (a player rolls "
    "to resist), not both."
)
AGAINST_YOURSELF: Final = N_(
    "You cannot contest yourself: name another member, or use `against`."
)
NOT_A_PLAYER: Final = N_("A bot cannot roll to resist: name a player, or use `against`.")
CONTEST_DECIDED: Final = N_("This contest is already decided, so nothing was changed.")
CONTEST_GONE: Final = N_("I no longer know this contest, so nothing was changed.")
CONTEST_SCENE_ENDED: Final = N_(
    "This contest was closed when the scene ended, so nothing was changed."
)

_CONTEST_COLOURS: Final = {
    Winner.ACTOR: discord.Colour.green(),
    Winner.OPPONENT: discord.Colour.orange(),
    Winner.TIE: discord.Colour.light_grey(),
}
_TIES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: N_("**Tie**: equal successes, nobody wins. The Storyteller rules."),
    Ruleset.V20: N_("**Tie**: equal net successes, neither side succeeds."),
    Ruleset.FISTFUL: N_(
        "**Tie**: the successes cancel out, nobody carries the consequences."
    ),
}
#: `v20` degrees of success in a verdict (``wins by 2 successes (a moderate success)``);
#: after an outcome they are the roll card's (:func:`degree_word`).
_VERDICT_DEGREES: Final[dict[Degree, str]] = {
    Degree.MARGINAL: N_("a marginal success"),
    Degree.MODERATE: N_("a moderate success"),
    Degree.COMPLETE: N_("a complete success"),
    Degree.EXCEPTIONAL: N_("an exceptional success"),
    Degree.PHENOMENAL: N_("a phenomenal success"),
}


# --- compact roll blocks ----------------------------------------------------------------------


def roll_summary(result: RollResult) -> str:
    """The outcome and the count: ``Success (moderate success), 2 successes``."""
    if result.automatic:
        return _("Automatic success, 1 success")
    words = _(OUTCOME_WORDS[result.outcome])
    if result.degree is not None:
        words = _("{outcome} ({degree})", outcome=words, degree=degree_word(result.degree))
    return n_("{outcome}, {n} success", "{outcome}, {n} successes", result.successes,
              outcome=words)


def dice_text(result: RollResult, *, text_only: bool = False, sorted_dice: bool = False) -> str:
    """Every die that counts, in draw order (the first :data:`DICE_SHOWN` of them); with
    ``sorted_dice`` (the channel's `dice_order`), high to low, as a roll card orders them.

    Successes are bold, cancelled dice and the 1s that cancelled them are
    struck (each named in words in text-only mode), a rote reroll shows ``2→10``.
    """
    tokens: list[str] = []
    dice = [die for die in result.dice
            if die.kind is not DieKind.ROTE and die.fate is not Fate.VOID]
    if sorted_dice:  # a rerolled die by the face it was rerolled to (the one that counts)
        dice.sort(key=lambda die: -(_reroll(result, die) or die).face)
    for die in dice:
        shown = _face(die.face, die.fate, die.successes, text_only=text_only)
        new = _reroll(result, die)
        if new is not None:
            replacement = _face(new.face, new.fate, new.successes, text_only=text_only)
            shown = (
                _("{face} rerolled to {new}", face=die.face, new=replacement) if text_only
                else f"{die.face}→{replacement}"
            )
        if die.kind is DieKind.CHANCE:
            shown = _("chance die {face}", face=shown)
        elif die.kind is DieKind.WILL:
            shown = _("{face} (Will)", face=shown)
        tokens.append(shown)
    if not tokens:
        return _("no dice rolled")
    hidden = len(tokens) - DICE_SHOWN
    separator = ", " if text_only else " "
    text = separator.join(tokens[:DICE_SHOWN])
    if hidden > 0:
        text += " " + n_("… and {n} more die", "… and {n} more dice", hidden)
    return text


def _reroll(result: RollResult, die: Die) -> Die | None:
    """The die a `cofd` rote rerolled ``die`` to, if it did."""
    return result.dice[die.pair] if die.fate is Fate.REPLACED and die.pair is not None else None


def _face(face: int, fate: Fate, successes: int, *, text_only: bool) -> str:
    """One face as a roll card's dice line shows it; text-only says a success in words, as
    a screen reader does not read bold (``8 (success)``, help's "Reading the reply")."""
    if fate is Fate.SUCCESS:
        if text_only:
            return (_("{face} (2 successes)", face=face) if successes == 2
                    else _("{face} (success)", face=face))
        return f"**{face}**×2" if successes == 2 else f"**{face}**"
    if fate is Fate.CANCELLED:
        return _("{face} (cancelled)", face=face) if text_only else f"~~{face}~~"
    if fate is Fate.CANCELS:
        return _("{face} (cancels)", face=face) if text_only else f"~~{face}~~"
    return str(face)


def pool_field(result: RollResult) -> str:
    """The pool breakdown in at most a few hundred characters (terms summed if long)."""
    breakdown = result.breakdown
    if breakdown is None:
        return ""
    text = breakdown_text(breakdown, result.request.ruleset, result.will)
    if len(text) > _FIELD_LIMIT // 2:
        terms = (Term(value=sum(term.value for term in breakdown.terms)),)
        text = breakdown_text(
            breakdown.model_copy(update={"terms": terms}), result.request.ruleset, result.will
        )
    return text


def roll_block(result: RollResult, *, text_only: bool = False, sorted_dice: bool = False) -> str:
    """One roll as an embed field value: outcome, dice, pool; always within 1,024 characters."""
    block = "\n".join(
        part
        for part in (
            f"**{roll_summary(result)}**",
            dice_text(result, text_only=text_only, sorted_dice=sorted_dice),
            pool_field(result),
        )
        if part
    )
    return block if len(block) <= _FIELD_LIMIT else block[: _FIELD_LIMIT - 1] + "…"


# --- contests ---------------------------------------------------------------------------------


def contest_embed(
    *,
    ruleset: Ruleset,
    label: str | None,
    actor_name: str,
    opponent_name: str | None,
    actor: RollResult,
    opponent: RollResult | None,
    contest: ContestResult | None,
    text_only: bool = False,
    sorted_dice: bool = False,
    scene_ended: bool = False,
) -> discord.Embed:
    """A contest card: both sides' rolls and who won by how much, or who still has to resist.

    ``opponent_name`` is None for the Storyteller's dice (`against`).
    """
    actor_shown = safe(actor_name, limit=NAME_LIMIT) or "?"
    opponent_shown = (
        safe(opponent_name, limit=NAME_LIMIT) or "?" if opponent_name is not None
        else _("The opposition")
    )
    title = (
        _("Contest: {label}", label=safe(label, limit=LABEL_LIMIT)) if label
        else _("Contest")
    )
    if not text_only:
        title = f"⚔️ {title}"
    if contest is None and scene_ended:
        description = _(
            "**The scene ended** before **{opponent}** rolled to resist: "
            "this contest is closed, nobody wins.",
            opponent=opponent_shown,
        )
        colour = INFO_COLOUR
    elif contest is None:
        description = _(
            "**{actor}** has rolled. Waiting for **{opponent}** to press **{button}**.",
            actor=actor_shown, opponent=opponent_shown, button=_(RESIST),
        )
        colour = INFO_COLOUR
    else:
        description = _verdict(contest, actor_shown, opponent_shown)
        colour = _CONTEST_COLOURS[contest.winner]
    embed = discord.Embed(title=title, description=description, colour=colour)
    embed.add_field(name=actor_shown,
                    value=roll_block(actor, text_only=text_only, sorted_dice=sorted_dice),
                    inline=False)
    embed.add_field(
        name=opponent_shown,
        value=roll_block(opponent, text_only=text_only, sorted_dice=sorted_dice)
        if opponent is not None
        else _("Not rolled yet."),
        inline=False,
    )
    embed.add_field(name=_("Ruleset"), value=_(RULESET_NAMES[ruleset]), inline=True)
    return embed


def _verdict(contest: ContestResult, actor: str, opponent: str) -> str:
    """Who won and by how much, in the ruleset's own terms (RULES.md)."""
    if contest.winner is Winner.TIE:
        return _(_TIES[contest.ruleset])
    winner = actor if contest.winner is Winner.ACTOR else opponent
    if contest.ruleset is Ruleset.FISTFUL:
        return n_(
            "**{winner} wins**: {n} success left after each side's successes cancel the "
            "other's, so the consequences are theirs.",
            "**{winner} wins**: {n} successes left after each side's successes cancel the "
            "other's, so the consequences are theirs.",
            contest.margin, winner=winner,
        )
    if contest.degree is not None:
        return n_(
            "**{winner} wins** by {n} success ({degree}).",
            "**{winner} wins** by {n} successes ({degree}).",
            contest.margin, winner=winner, degree=_(_VERDICT_DEGREES[contest.degree]),
        )
    return n_("**{winner} wins** by {n} success.", "**{winner} wins** by {n} successes.",
              contest.margin, winner=winner)


def _reason(message: str) -> str:
    """The engine's reason inside a sentence of ours (escaped, as a refusal is)."""
    return safe(message.rstrip("."), limit=1800)


def cannot_contest(message: str, *, opposition: bool = False) -> str:
    """One side's roll cannot be made (the engine's reason); nothing was rolled or kept."""
    if opposition:
        return _("The opposition's roll cannot be made: {reason}. Nothing was changed.",
                 reason=_reason(message))
    return _("That roll cannot be made: {reason}. Nothing was changed.",
             reason=_reason(message))


def foreign_option(name: str, ruleset: Ruleset) -> str:
    """A contest option that the channel's ruleset does not have."""
    return _("{option} does not apply to the {ruleset} ruleset.",
             option=safe(name[:1].upper() + name[1:]), ruleset=ruleset.value)


def not_opponent(opponent_name: str) -> str:
    """Someone other than the named opponent pressed Roll to resist."""
    return _(
        "Only **{name}** can roll to resist in this contest, so nothing was changed.",
        name=safe(opponent_name, limit=NAME_LIMIT),
    )


# --- multiple actions -------------------------------------------------------------------------


def multi_embed(
    results: Sequence[RollResult],
    *,
    roller: str,
    label: str | None,
    text_only: bool = False,
    sorted_dice: bool = False,
) -> discord.Embed:
    """`/multi`: every declared action's roll, in order, with its penalty in the pool."""
    title = (
        _("Multiple actions: {label}", label=safe(label, limit=LABEL_LIMIT)) if label
        else _("Multiple actions")
    )
    if not text_only:
        title = f"🎲 {title}"
    embed = discord.Embed(
        title=title,
        description=n_(
            "**{name}** takes {n} action this turn; each pool shows its penalty.",
            "**{name}** takes {n} actions this turn; each pool shows its penalty.",
            len(results), name=safe(roller, limit=NAME_LIMIT) or "?",
        ),
        colour=INFO_COLOUR,
    )
    count = len(results)
    for number, result in enumerate(results, start=1):
        embed.add_field(
            name=_("Action {number} of {count}", number=number, count=count),
            value=roll_block(result, text_only=text_only, sorted_dice=sorted_dice),
            inline=False,
        )
    embed.add_field(name=_("Ruleset"), value=_(RULESET_NAMES[Ruleset.V20]), inline=True)
    return embed


def multi_refused(refused: MultiRefusal, pool: str) -> str:
    """The whole declaration refused, naming the action that could not be taken."""
    return _(
        "{reason} (action {number} is {pool}).",
        reason=_reason(capitalised(refusal_text(refused.refusal))), number=refused.action,
        pool=safe(pool, limit=200),
    )


def unreadable_action(number: int, problem: str) -> str:
    """One action of a declaration is not a pool."""
    return _("Action {number}: {problem}.", number=number, problem=_reason(problem))


# --- messages and the pool form ---------------------------------------------------------------

#: The pool form's field custom_ids.
POOL_FIELD: Final = "pool"
DIFFICULTY_FIELD: Final = "difficulty"


def contest_message(record: ActionRecord, state: ContestState, config: ChannelConfig) -> Message:
    """A stored contest's card, with Roll to resist while it waits for its opponent."""
    embed = contest_embed(
        ruleset=state.ruleset,
        label=record.label or None,
        actor_name=state.actor_name,
        opponent_name=state.opponent_name,
        actor=state.actor,
        opponent=state.opponent,
        contest=state.result,
        text_only=config.text_only,
        sorted_dice=config.dice_order is DiceOrder.SORTED,
        scene_ended=state.status is ContestStatus.SCENE_ENDED,
    )
    view = None
    if state.status is ContestStatus.WAITING:
        view = view_of(
            [(ids.resist_button(record.id), _(RESIST), discord.ButtonStyle.primary)]
        )
    return shaped(Message(embed=embed, view=view), config)


def resist_refused(reason: ResistBlocked, state: ContestState) -> str:
    """Why a Roll to resist changed nothing."""
    if reason is ResistBlocked.NOT_OPPONENT:
        return not_opponent(state.opponent_name or "")
    if reason is ResistBlocked.SCENE_ENDED:
        return _(CONTEST_SCENE_ENDED)
    return _(CONTEST_DECIDED)


def scene_contests_closed(closed: int) -> str:
    """What `/scene end` adds about the contests it closed (nothing when none waited)."""
    if not closed:
        return ""
    return " " + n_("{n} pending contest closed.", "{n} pending contests closed.", closed)


def pool_form(
    purpose: str, action_id: int, *, title: str, ask_difficulty: bool, pool: str | None = None
) -> discord.ui.Modal:
    """The pool form (Help on a teamwork card, Roll to resist on a contest card): a pool
    and, in `v20`, a difficulty. Stopped at once, so discord.py keeps nothing: its
    submission is answered from its key-only custom_id and values, restart or not.
    ``pool`` pre-fills the pool (a primary's trait words, for the helper's own sheet)."""
    form = discord.ui.Modal(title=_(title)[:45], custom_id=ids.pool_form(purpose, action_id))
    form.add_item(
        discord.ui.Label(
            text=_(POOL_LABEL),
            description=_(POOL_HINT),
            component=discord.ui.TextInput(custom_id=POOL_FIELD, max_length=200,
                                           default=None if pool is None else pool[:200]),
        )
    )
    if ask_difficulty:
        form.add_item(
            discord.ui.Label(
                text=_(DIFFICULTY_LABEL),
                description=_(DIFFICULTY_HINT),
                component=discord.ui.TextInput(
                    custom_id=DIFFICULTY_FIELD, required=False, max_length=2
                ),
            )
        )
    form.stop()
    return form
