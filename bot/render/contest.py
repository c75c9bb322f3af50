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
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.rolls import LABEL_LIMIT, NAME_LIMIT, RULESET_NAMES, refusal
from bot.render.text import (
    INFO_COLOUR,
    OUTCOME_WORDS,
    breakdown_text,
    plural,
    safe,
)
from engine.models import DieKind, Fate, RollResult, Ruleset, Term
from engine.records import ActionRecord, ChannelConfig
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

RESIST: Final = "Roll to resist"
RESIST_FORM_TITLE: Final = "Roll to resist"

#: The pool form (Help on a teamwork card, Roll to resist on a contest card).
POOL_LABEL: Final = "Your pool"
POOL_HINT: Final = "Dice, or traits: 5, Wits 3 + Composure 2, or Wits + Composure from your sheet"
DIFFICULTY_LABEL: Final = "Difficulty"
DIFFICULTY_HINT: Final = "v20: 2 to 10; leave empty for 6"


def not_a_difficulty(text: str) -> str:
    """The difficulty field of a form is not a whole number."""
    return f"The difficulty is a whole number from 2 to 10, not “{safe(text, limit=20)}”."

NO_SIDE: Final = (
    "Name the other side: `against:<pool>` for the Storyteller's dice (both roll now), "
    "or `opponent:@member` to let a player roll to resist."
)
TWO_SIDES: Final = (
    "Give either `against` (the Storyteller rolls now) or `opponent` (a player rolls "
    "to resist), not both."
)
AGAINST_YOURSELF: Final = "You cannot contest yourself: name another member, or use `against`."
NOT_A_PLAYER: Final = "A bot cannot roll to resist: name a player, or use `against`."
CONTEST_DECIDED: Final = "This contest is already decided, so nothing was changed."
CONTEST_GONE: Final = "I no longer know this contest, so nothing was changed."
CONTEST_SCENE_ENDED: Final = (
    "This contest was closed when the scene ended, so nothing was changed."
)

_CONTEST_COLOURS: Final = {
    Winner.ACTOR: discord.Colour.green(),
    Winner.OPPONENT: discord.Colour.orange(),
    Winner.TIE: discord.Colour.light_grey(),
}
_TIES: Final[dict[Ruleset, str]] = {
    Ruleset.COFD: "**Tie**: equal successes, nobody wins. The Storyteller rules.",
    Ruleset.V20: "**Tie**: equal net successes, neither side succeeds.",
    Ruleset.FISTFUL: (
        "**Tie**: the successes cancel out, nobody carries the consequences."
    ),
}


# --- compact roll blocks ----------------------------------------------------------------------


def roll_summary(result: RollResult) -> str:
    """The outcome and the count: ``Success (moderate success), 2 successes``."""
    words = OUTCOME_WORDS[result.outcome]
    if result.automatic:
        return "Automatic success, 1 success"
    if result.degree is not None:
        words += f" ({result.degree} success)"
    return f"{words}, {plural(result.successes, 'success')}"


def dice_text(result: RollResult, *, text_only: bool = False) -> str:
    """Every die that counts, in draw order (the first :data:`DICE_SHOWN` of them).

    Successes are bold, cancelled dice and the 1s that cancelled them are
    struck (named in text-only mode), a rote reroll shows ``2→10``.
    """
    tokens: list[str] = []
    for die in result.dice:
        if die.kind is DieKind.ROTE or die.fate is Fate.VOID:
            continue
        shown = _face(die.face, die.fate, die.successes, text_only=text_only)
        if die.fate is Fate.REPLACED and die.pair is not None:
            new = result.dice[die.pair]
            joiner = " rerolled to " if text_only else "→"
            replacement = _face(new.face, new.fate, new.successes, text_only=text_only)
            shown = f"{die.face}{joiner}{replacement}"
        if die.kind is DieKind.CHANCE:
            shown = f"chance die {shown}"
        elif die.kind is DieKind.WILL:
            shown = f"{shown} (Will)"
        tokens.append(shown)
    if not tokens:
        return "no dice rolled"
    hidden = len(tokens) - DICE_SHOWN
    separator = ", " if text_only else " "
    text = separator.join(tokens[:DICE_SHOWN])
    if hidden > 0:
        text += f" … and {plural(hidden, 'more die', 'more dice')}"
    return text


def _face(face: int, fate: Fate, successes: int, *, text_only: bool) -> str:
    if fate is Fate.SUCCESS:
        if successes == 2:
            return f"**{face}** (counts twice)" if text_only else f"**{face}**×2"
        return f"**{face}**"
    if fate is Fate.CANCELLED:
        return f"{face} (cancelled)" if text_only else f"~~{face}~~"
    if fate is Fate.CANCELS:
        return f"{face} (cancels)" if text_only else f"~~{face}~~"
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


def roll_block(result: RollResult, *, text_only: bool = False) -> str:
    """One roll as an embed field value: outcome, dice, pool; always within 1,024 characters."""
    block = "\n".join(
        part
        for part in (
            f"**{roll_summary(result)}**",
            dice_text(result, text_only=text_only),
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
    scene_ended: bool = False,
) -> discord.Embed:
    """A contest card: both sides' rolls and who won by how much, or who still has to resist.

    ``opponent_name`` is None for the Storyteller's dice (`against`).
    """
    actor_shown = safe(actor_name, limit=NAME_LIMIT) or "?"
    opponent_shown = (
        safe(opponent_name, limit=NAME_LIMIT) or "?" if opponent_name is not None
        else "The opposition"
    )
    title = "Contest"
    if label:
        title += f": {safe(label, limit=LABEL_LIMIT)}"
    if not text_only:
        title = f"⚔️ {title}"
    if contest is None and scene_ended:
        description = (
            f"**The scene ended** before **{opponent_shown}** rolled to resist: "
            "this contest is closed, nobody wins."
        )
        colour = INFO_COLOUR
    elif contest is None:
        description = (
            f"**{actor_shown}** has rolled. Waiting for **{opponent_shown}** to press "
            f"**{RESIST}**."
        )
        colour = INFO_COLOUR
    else:
        description = _verdict(contest, actor_shown, opponent_shown)
        colour = _CONTEST_COLOURS[contest.winner]
    embed = discord.Embed(title=title, description=description, colour=colour)
    embed.add_field(name=actor_shown, value=roll_block(actor, text_only=text_only), inline=False)
    embed.add_field(
        name=opponent_shown,
        value=roll_block(opponent, text_only=text_only) if opponent is not None
        else "Not rolled yet.",
        inline=False,
    )
    embed.add_field(name="Ruleset", value=RULESET_NAMES[ruleset], inline=True)
    return embed


def _verdict(contest: ContestResult, actor: str, opponent: str) -> str:
    """Who won and by how much, in the ruleset's own terms (RULES.md)."""
    if contest.winner is Winner.TIE:
        return _TIES[contest.ruleset]
    winner = actor if contest.winner is Winner.ACTOR else opponent
    margin = plural(contest.margin, "success")
    if contest.ruleset is Ruleset.FISTFUL:
        return (
            f"**{winner} wins**: {margin} left after each side's successes cancel the "
            "other's, so the consequences are theirs."
        )
    if contest.degree is not None:
        article = "an" if contest.degree.value[0] in "aeiou" else "a"
        return f"**{winner} wins** by {margin} ({article} {contest.degree} success)."
    return f"**{winner} wins** by {margin}."


def cannot_contest(message: str, *, opposition: bool = False) -> str:
    """One side's roll cannot be made (the engine's reason); nothing was rolled or kept."""
    whose = "the opposition's roll" if opposition else "that roll"
    return refusal(f"{whose} cannot be made: {message}. Nothing was changed")


def foreign_option(name: str, ruleset: Ruleset) -> str:
    """A contest option that the channel's ruleset does not have."""
    return refusal(f"{name} does not apply to the {ruleset} ruleset")


def not_opponent(opponent_name: str) -> str:
    """Someone other than the named opponent pressed Roll to resist."""
    return (
        f"Only **{safe(opponent_name, limit=NAME_LIMIT)}** can roll to resist in this "
        "contest, so nothing was changed."
    )


# --- multiple actions -------------------------------------------------------------------------


def multi_embed(
    results: Sequence[RollResult],
    *,
    roller: str,
    label: str | None,
    text_only: bool = False,
) -> discord.Embed:
    """`/multi`: every declared action's roll, in order, with its penalty in the pool."""
    title = "Multiple actions"
    if label:
        title += f": {safe(label, limit=LABEL_LIMIT)}"
    if not text_only:
        title = f"🎲 {title}"
    embed = discord.Embed(
        title=title,
        description=(
            f"**{safe(roller, limit=NAME_LIMIT) or '?'}** takes "
            f"{plural(len(results), 'action')} this turn; each pool shows its penalty."
        ),
        colour=INFO_COLOUR,
    )
    count = len(results)
    for number, result in enumerate(results, start=1):
        embed.add_field(
            name=f"Action {number} of {count}",
            value=roll_block(result, text_only=text_only),
            inline=False,
        )
    embed.add_field(name="Ruleset", value=RULESET_NAMES[Ruleset.V20], inline=True)
    return embed


def multi_refused(refused: MultiRefusal, pool: str) -> str:
    """The whole declaration refused, naming the action that could not be taken."""
    return refusal(f"{refusal_text(refused.refusal)} (action {refused.action} is {pool})")


def unreadable_action(number: int, problem: str) -> str:
    """One action of a declaration is not a pool."""
    return refusal(f"action {number}: {problem}")


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
        scene_ended=state.status is ContestStatus.SCENE_ENDED,
    )
    view = None
    if state.status is ContestStatus.WAITING:
        view = view_of([(ids.resist_button(record.id), RESIST, discord.ButtonStyle.primary)])
    return shaped(Message(embed=embed, view=view), config)


def resist_refused(reason: ResistBlocked, state: ContestState) -> str:
    """Why a Roll to resist changed nothing."""
    if reason is ResistBlocked.NOT_OPPONENT:
        return not_opponent(state.opponent_name or "")
    if reason is ResistBlocked.SCENE_ENDED:
        return CONTEST_SCENE_ENDED
    return CONTEST_DECIDED


def scene_contests_closed(closed: int) -> str:
    """What `/scene end` adds about the contests it closed (nothing when none waited)."""
    if not closed:
        return ""
    return f" {plural(closed, 'pending contest')} closed."


def pool_form(
    purpose: str, action_id: int, *, title: str, ask_difficulty: bool, pool: str | None = None
) -> discord.ui.Modal:
    """The pool form (Help on a teamwork card, Roll to resist on a contest card): a pool
    and, in `v20`, a difficulty. Stopped at once, so discord.py keeps nothing: its
    submission is answered from its key-only custom_id and values, restart or not.
    ``pool`` pre-fills the pool (a primary's trait words, for the helper's own sheet)."""
    form = discord.ui.Modal(title=title[:45], custom_id=ids.pool_form(purpose, action_id))
    form.add_item(
        discord.ui.Label(
            text=POOL_LABEL,
            description=POOL_HINT,
            component=discord.ui.TextInput(custom_id=POOL_FIELD, max_length=200,
                                           default=None if pool is None else pool[:200]),
        )
    )
    if ask_difficulty:
        form.add_item(
            discord.ui.Label(
                text=DIFFICULTY_LABEL,
                description=DIFFICULTY_HINT,
                component=discord.ui.TextInput(
                    custom_id=DIFFICULTY_FIELD, required=False, max_length=2
                ),
            )
        )
    form.stop()
    return form
