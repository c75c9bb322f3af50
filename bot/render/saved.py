"""Wording of saved rolls: `/saved`, the Save this roll form, their refusals."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

import discord

from bot.edge import ids
from bot.render.lang import N_, _, n_, user
from bot.render.message import CONTENT_LIMIT
from bot.render.text import safe
from engine.models import Ruleset
from engine.saved import MAX_NAME, MAX_SAVED, Asked, SavedRoll, SaveRefusal

FORM_TITLE: Final = N_("Save this roll")
NAME_FIELD: Final = "name"
NAME_LABEL: Final = N_("Name")
NAME_HINT: Final = N_("Roll it later with /saved roll name:<this name>")

#: Marked: translated where said, with ``_()``.
NOT_ASKED: Final = N_(
    "This roll cannot be rolled again or saved: it belongs to an action, or was made before "
    "I kept rolls as asked. Use /roll, or /saved add to save it."
)
NONE_SAVED: Final = N_(
    "You have no saved rolls in this server. Save one with /saved add name:<name> "
    "pool:<dice>, or with Save this roll on one of your rolls."
)


def save_form(roll_id: int, label: str | None) -> discord.ui.Modal:
    """The Save this roll form: the name, suggested from the roll's label. Stopped at once,
    so discord.py keeps nothing: the submission is answered from its key-only custom_id
    and the name typed, restart or not."""
    form = discord.ui.Modal(title=_(FORM_TITLE), custom_id=ids.save_form(roll_id))
    form.add_item(
        discord.ui.Label(
            text=_(NAME_LABEL),
            description=_(NAME_HINT),
            component=discord.ui.TextInput(
                custom_id=NAME_FIELD, min_length=1, max_length=MAX_NAME,
                default=(label or "")[:MAX_NAME] or None,
            ),
        )
    )
    form.stop()
    return form


def _options(asked: Asked) -> str:
    """The options as typed (``rote, again:8``): the same words in every language."""
    given = [
        user(name) if value is True else f"{user(name)}:{safe(str(value), limit=MAX_NAME)}"
        for name, value in asked.options.items()
    ]
    if asked.spec:
        given.append(user("spec:") + safe(asked.spec, limit=MAX_NAME))
    return ", ".join(given)


def saved_line(saved: SavedRoll) -> str:
    """One saved roll: ``**name**: pool (options) · label``, every user word escaped."""
    line = f"**{safe(saved.name, limit=MAX_NAME + 10)}**: {safe(saved.asked.pool_text())}"
    options = _options(saved.asked)
    if options:
        line += f" ({options})"
    if saved.label:
        line += " · " + _("label: {label}", label=safe(saved.label, limit=110))
    return line


def saved_done(saved: SavedRoll, *, replaced: bool) -> str:
    """After `/saved add` or the form: what was saved and how to roll it."""
    line = saved_line(saved)
    done = _("Replaced {saved}", saved=line) if replaced else _("Saved {saved}", saved=line)
    return done + "\n" + _(
        "Roll it with /saved roll name:{name}: trait names are read from your character's "
        "sheet when you roll.", name=safe(saved.name, limit=MAX_NAME + 10))


def save_refused(reason: SaveRefusal, name: str) -> str:
    """Why a roll was not saved under ``name``, and what to do instead."""
    shown = safe(" ".join(name.split()), limit=MAX_NAME + 10)
    if reason is SaveRefusal.NAME_EMPTY:
        return _("A saved roll needs a name with letters or digits: give it one.")
    if reason is SaveRefusal.NAME_INVISIBLE:
        return _("That name holds an invisible character (such as a zero-width space or a "
                 "direction mark, often from a paste), so it would look like another name: "
                 "type the name again by hand.")
    if reason is SaveRefusal.NAME_TOO_LONG:
        return _("That name is too long: at most {max} characters (it has {length}). Give a "
                 "shorter one.", max=MAX_NAME, length=len(" ".join(name.split())))
    if reason is SaveRefusal.NAME_TAKEN:
        return _("You already have a saved roll named **{name}**. Pick another name, or "
                 "replace it with /saved add ... replace:True.", name=shown)
    return _("You have {max} saved rolls in this server, the most you can keep. Delete one "
             "with /saved delete name:<name> first (see /saved list).", max=MAX_SAVED)


def options_apart_refused(apart: Mapping[str, frozenset[Ruleset]]) -> str:
    """Options no one ruleset has together (``rote (cofd), difficulty (v20)``): no table
    rolls them, so nothing was saved. Option and ruleset names are the same in every
    language, as the options are typed."""
    listed = ", ".join(
        f"{user(name)} ({', '.join(user(each.value) for each in Ruleset if each in rulesets)})"
        for name, rulesets in apart.items()
    )
    return _("These options belong to different rulesets, so no table can roll them "
             "together: {options}. Save the roll with the options of the ruleset you play.",
             options=listed)


def unknown_saved(name: str, names: Sequence[str]) -> str:
    """No saved roll by that name: the member's names, or how to save one."""
    shown = safe(" ".join(name.split()), limit=MAX_NAME + 10)
    unknown = _("You have no saved roll named **{name}**.", name=shown)
    if not names:
        return f"{unknown} {_(NONE_SAVED)}"
    listed = ", ".join(safe(each, limit=MAX_NAME + 10) for each in names[:10])
    if len(names) > 10:
        return f"{unknown} " + _("Yours: {names} and {more} more (see /saved list).",
                                 names=listed, more=len(names) - 10)
    return f"{unknown} " + _("Yours: {names}.", names=listed)


def saved_deleted(saved: SavedRoll) -> str:
    """After `/saved delete`."""
    return _("Deleted your saved roll {saved}", saved=saved_line(saved))


def saved_list(saved: Sequence[SavedRoll]) -> str:
    """`/saved list`: the member's saved rolls, by name, within one message."""
    if not saved:
        return _(NONE_SAVED)
    head = _("Your saved rolls in this server ({count} of {max}):", count=len(saved),
             max=MAX_SAVED)
    lines = [head]
    used = len(head)
    for shown, each in enumerate(saved):
        line = f"- {saved_line(each)}"
        tail = "\n" + n_("… and {n} more: /saved roll autocompletes them all.",
                         "… and {n} more: /saved roll autocompletes them all.",
                         len(saved) - shown)
        if used + 1 + len(line) + len(tail) > CONTENT_LIMIT:
            lines.append(tail.strip())
            break
        lines.append(line)
        used += 1 + len(line)
    return "\n".join(lines)
