"""Wording for buttons and their refusals (every refusal is an ephemeral sentence)."""

from __future__ import annotations

from collections.abc import Iterable

import discord

from bot.edge import ids
from bot.render.lang import N_, _, n_
from engine.records import PressRefusal, WillPool

#: Button labels (marked: translated where drawn, with ``_()``).
SPEND_WILL = N_("Spend Will")
TAKE_BEAT = N_("Take a Beat")
TRY_AGAIN = N_("Try again")
ROLL_AGAIN = N_("Roll again")
SAVE_ROLL = N_("Save this roll")

def view_of(buttons: Iterable[tuple[str, str, discord.ButtonStyle]]) -> discord.ui.View | None:
    """A message's buttons from (custom_id, label, style); None when there are none.

    The view is stopped before it is sent, so discord.py keeps nothing in memory:
    every press reaches the one router of :mod:`bot.edge.buttons` by its custom_id,
    restart or not.
    """
    looks = list(buttons)
    if not looks:
        return None  # before building a View: its constructor alone costs a random id
    view = discord.ui.View(timeout=None)
    for custom_id, label, style in looks:
        view.add_item(discord.ui.Button(custom_id=custom_id, label=label, style=style))
    view.stop()
    return view


def roll_buttons(
    roll_id: int, *, will: bool, beat: bool, retry: bool = False, extended: bool = False,
    again: bool = False, save: bool = False,
) -> discord.ui.View | None:
    """Spend Will, Take a Beat, Try again, Roll again and Save this roll as a roll offers
    them (an extended action's roll has its own ids: its effects reach the action)."""
    make = ids.extended_roll_button if extended else ids.roll_button
    looks: list[tuple[str, str, discord.ButtonStyle]] = []
    if will:
        looks.append((make("will", roll_id), _(SPEND_WILL), discord.ButtonStyle.primary))
    if beat:
        looks.append((make("beat", roll_id), _(TAKE_BEAT), discord.ButtonStyle.secondary))
    if retry and not extended:
        looks.append(
            (ids.roll_button("retry", roll_id), _(TRY_AGAIN), discord.ButtonStyle.secondary))
    if again and not extended:
        looks.append(
            (ids.roll_button("again", roll_id), _(ROLL_AGAIN), discord.ButtonStyle.secondary))
    if save and not extended:
        looks.append(
            (ids.roll_button("save", roll_id), _(SAVE_ROLL), discord.ButtonStyle.secondary))
    return view_of(looks)


COPY_FAILED = N_(
    "Your secret roll was made, but I could not copy it to the Storyteller's channel "
    "(deleted, or I may not post there): show them the result, or ask an admin to fix "
    "/config storyteller."
)

RULESET_CHANGED = N_(
    "This channel's ruleset changed since that roll, so Try again would roll it by rules the "
    "table no longer uses here: nothing was rolled. Roll it anew with /roll."
)

STALE_BUTTON = N_(
    "That button is out of date: the message changed since you saw it (a roll closed or an "
    "action moved on), so nothing was changed. Use the buttons it shows now."
)

#: Why a button did not act (marked: see :func:`press_refused`).
REFUSALS: dict[PressRefusal, str] = {
    PressRefusal.NOT_FOUND: N_("I no longer know this roll, so nothing was changed."),
    PressRefusal.NOT_ROLLER: N_("Only the member who made this roll can use its buttons."),
    PressRefusal.VOID: N_("The Storyteller voided this roll, so its buttons no longer act."),
    PressRefusal.CLOSED: N_(
        "This roll is closed (a newer roll, the next turn, the end of the scene or a Beat), "
        "so nothing was changed."
    ),
    PressRefusal.DECLARED: N_("Will was declared with this roll already: once per roll."),
    PressRefusal.NOT_OFFERED: N_("Will cannot be spent on this roll after the fact."),
    PressRefusal.ALREADY_SPENT: N_("Will was already spent on this roll: once per roll."),
    PressRefusal.NO_WILL: N_("You have no Will left to spend. Rest (/will rest) to regain some."),
    PressRefusal.BEAT_TAKEN: N_("A Beat was already taken on this roll."),
    PressRefusal.ALREADY_RETRIED: N_(
        "This roll was already rolled again (or tried again): use the newer roll's buttons."
    ),
    PressRefusal.STALE: STALE_BUTTON,
    PressRefusal.SHEET_GONE: N_(
        "The character this roll was made with has been deleted, so this button no longer "
        "acts (its Will and Beats went with the sheet): nothing was changed."
    ),
    PressRefusal.BUSY: N_(
        "The table changed several times while I tried: nothing was rolled, try again."
    ),
}


def press_refused(reason: PressRefusal) -> str:
    """Why a button did not act, in the voice in force."""
    return _(REFUSALS[reason])


def will_pool_text(pool: WillPool) -> str:
    """A Will pool as players say it: "Will 3/5"."""
    return _("Will {current}/{maximum}", current=pool.current, maximum=pool.maximum)


def will_spent(pool: WillPool) -> str:
    """After a Will spend, to the roller alone."""
    return _("Will spent: {pool} left.", pool=will_pool_text(pool))


def no_will(pool: WillPool, *, again: bool = False) -> str:
    """Will declared (``will:True``) with an empty tracked pool: roll without it, or rest.
    ``again``: Try again or Roll again of a roll made with Will declared, in a channel
    that wants Will declared before rolling (the press declares it again)."""
    if again:
        return _("You have no Will left to spend ({pool}), and this roll was made with Will "
                 "declared: rest (/will rest) to regain some, or roll it with /roll "
                 "without will:True.", pool=will_pool_text(pool))
    return _("You have no Will left to spend ({pool}): roll without will:True, or rest "
             "(/will rest) to regain some.", pool=will_pool_text(pool))


def no_will_for_teamwork(pool: WillPool) -> str:
    """The primary's teamwork roll, started with Will, with an empty tracked pool: its Will
    is part of the teamwork, so the way on is to regain some."""
    return _("You have no Will left to spend ({pool}), and this teamwork roll was started "
             "with Will: rest (/will rest) to regain some, then roll it.",
             pool=will_pool_text(pool))


def beat_taken(beats: int, *, on_sheet: bool = False) -> str:
    """After Take a Beat, to the roller alone: their Beats now (``on_sheet``: a character's,
    which keeps fewer than :data:`~engine.characters.BEATS_PER_EXPERIENCE`, every five
    turned into 1 Experience; so none left after a Beat is the one that made an Experience,
    said as such rather than as Beats gone to 0)."""
    if on_sheet and beats == 0:
        return _("Beat taken: with it, 5 Beats became 1 Experience on the character's sheet "
                 "(its Beats start again from 0).")
    return n_("Beat taken: you have {n} Beat.", "Beat taken: you have {n} Beats.", beats)


def cannot_roll(reason: str) -> str:
    """The engine refused a roll."""
    return _("That roll cannot be made: {reason}.", reason=reason)


def cannot_spend_will(reason: str) -> str:
    """The rules refuse a Will spend on this roll."""
    return _("Will cannot be spent on this roll: {reason}.", reason=reason)


def no_beat(reason: str) -> str:
    """The rules refuse Take a Beat on this roll."""
    return _("No Beat on this roll: {reason}.", reason=reason)
