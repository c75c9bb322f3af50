"""What the bot answers when it will not or cannot do something (always ephemeral, in the
member's own language).

The constants are marked for the catalogue (:func:`~bot.render.lang.N_`): whoever shows
one translates it there with ``_(CONSTANT)``.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Final

from bot.render.lang import N_, _, n_
from bot.render.refusals import uncapitalised
from bot.render.text import safe

APOLOGY = N_("Something went wrong on my side and nothing was changed. Please try again.")
#: Discord took no answer after the work was done (and saved): trying again blindly
#: could roll twice.
ANSWER_LOST = N_(
    "Discord did not take my answer, so I could not show it here. What you asked may "
    "already be done: check /history before you try again."
)
#: Discord took no answer to a command that only read (/stats, /history, /help): nothing
#: was done, so asking again is safe.
ANSWER_NOT_TAKEN = N_(
    "Discord did not take my answer, so I could not show it here. Nothing was changed: "
    "please try again."
)
#: An interaction that came while the bot stops (SIGTERM): not handled at all.
STOPPING = N_(
    "The bot is shutting down (most likely to restart), so I did not do that: nothing was "
    "changed. Please try again in a moment."
)

# What a member is told when the database refused the write their action needed. The
# transaction that failed was rolled back, so the member may simply try again later.
STORE_BUSY = N_(
    "The bot's database is busy (another program is using it), so I could not save that. "
    "Please try again in a moment."
)
STORE_UNAVAILABLE = N_(
    "The bot cannot reach its database just now, so nothing was saved. "
    "Please try again in a moment."
)
STORE_CONTENDED = N_(
    "The bot's database is busy with other changes at this table, so nothing was saved. "
    "Please try again in a moment."
)
STORE_READ_ONLY = N_(
    "The bot's database is read-only right now, so I could not save that. Please tell "
    "whoever runs the bot; reading (/history, /will show, /help) still works."
)
STORE_FULL = N_(
    "The disk holding the bot's database is full, so I could not save that. Please tell "
    "whoever runs the bot, and try again once they have made room."
)
STORE_FAILED = N_(
    "The bot could not write to its database (its disk may be full or failing), so I could "
    "not save that. Please tell whoever runs the bot, and try again later."
)

NO_DIRECT_MESSAGES = N_("This works only in a server channel.")
#: A command Discord's app still shows as it was before the bot's commands changed (a
#: command gone, or options it no longer has): nothing was done.
STALE_COMMAND = N_(
    "That command has changed since your Discord app loaded it, so nothing was done: reload"
    " Discord (Ctrl+R, or close and reopen the app) and try again."
)
NOT_ALLOWED = N_("You are not allowed to do this here.")
NOT_STORYTELLER = N_(
    "Only the Storyteller can do this: a member with Manage Channels here, "
    "or with the Storyteller role (/config storyteller)."
)
ONLY_LANGUAGE_SERVER_WIDE = N_(
    "Only the language has a server-wide value in /config set (the ruleset has"
    " /config ruleset scope:server): leave scope at channel for this setting."
)
EVERYONE_IS_NO_STORYTELLER = N_("@everyone cannot be the Storyteller role: pick a role.")
STORYTELLER_NOTHING_GIVEN = N_(
    "Say what to change: role: (the Storyteller role), channel: (where copies of secret"
    " rolls go), or clear: (take the role, the copies or both away)."
)


def storyteller_contradiction(option: str) -> str:
    """`/config storyteller` setting a value and clearing it at once."""
    return _("{option}: and clear: contradict each other: give only one of them.",
             option=option)


def copies_unreachable(channel_id: int, permissions: Sequence[str]) -> str:
    """`/config storyteller channel:` naming a channel the bot may not post the copies of
    secret rolls in (else it would show only at each secret roll, to the roller)."""
    return n_("I cannot post the copies of secret rolls in <#{channel}>: I lack the"
              " {permissions} permission there. Grant it to me in that channel's"
              " permissions, or pick another channel; nothing was changed.",
              "I cannot post the copies of secret rolls in <#{channel}>: I lack the"
              " {permissions} permissions there. Grant them to me in that channel's"
              " permissions, or pick another channel; nothing was changed.",
              len(permissions), channel=channel_id,
              permissions=", ".join(_permission_name(name) for name in permissions))


WILL_NOT_TRACKED = N_("Your Will is not tracked yet: set it with /will set max:<n>.")

#: Discord's permissions the bot asks for, as members read them (any other is spelled
#: from its API name).
_PERMISSIONS: Final = {
    "manage_channels": N_("Manage Channels"),
    "manage_guild": N_("Manage Server"),
    "view_channel": N_("View Channel"),
    "send_messages": N_("Send Messages"),
    "embed_links": N_("Embed Links"),
}


def _permission_name(name: str) -> str:
    return _(_PERMISSIONS[name]) if name in _PERMISSIONS else name.replace("_", " ").title()


def missing_permissions(permissions: Iterable[str]) -> str:
    """A member without the permission a command needs here."""
    needed = ", ".join(_permission_name(name) for name in permissions)
    return _("You need the {permission} permission for this.", permission=needed)


def not_a_value(value: object) -> str:
    """An option value Discord let through that the command cannot use."""
    return _("“{value}” is not a valid value here.", value=safe(str(value), limit=100))


def not_a_member(name: str) -> str:
    """A member option naming someone who is not in the server (any more): Discord sends
    them as a user, not as a member."""
    return _("{name} is not a member of this server (any more): pick someone who is.",
             name=safe(name, limit=40))


def out_of_range(option: str, low: float | None, high: float | None, *, length: bool) -> str:
    """An option value outside the bounds the command declares (a client that ignored them)."""
    bounds = {"option": option, "low": f"{low:g}" if low is not None else "",
              "high": f"{high:g}" if high is not None else ""}
    if low is not None and high is not None:
        return (_("{option} must be {low} to {high} characters long.", **bounds) if length
                else _("{option} must be {low} to {high}.", **bounds))
    if low is not None:
        return (_("{option} must be at least {low} characters long.", **bounds) if length
                else _("{option} must be at least {low}.", **bounds))
    return (_("{option} must be at most {high} characters long.", **bounds) if length
            else _("{option} must be at most {high}.", **bounds))


def wrong_kind(option: str, kind: str) -> str:
    """An option value of another kind than the command declares (a modified client sent
    text for a number, a fraction for a whole number, ...); ``kind`` is the declared
    ``discord.AppCommandOptionType``'s name."""
    if kind == "integer":
        return _("{option} must be a whole number.", option=option)
    if kind == "number":
        return _("{option} must be a number.", option=option)
    if kind == "boolean":
        return _("{option} must be True or False.", option=option)
    if kind == "string":
        return _("{option} must be text.", option=option)
    return _("{option} must be picked from Discord's list.", option=option)


def control_character(option: str | None) -> str:
    """Text holding a control character (a NUL, a line break, ...): ``option`` names the
    command's option, None says it was a form's field."""
    if option is None:
        return _("The form holds a control character (such as a line break), which cannot be "
                 "kept: fill it in again on one line.")
    return _("{option} holds a control character (such as a line break), which cannot be "
             "kept: type it again on one line.", option=option)


def hidden_character(option: str) -> str:
    """Text that shows something but holds a character that shows nothing (a zero-width
    space, a Hangul filler) or turns the text around (a direction override):
    :func:`engine.text.visible_line` refuses it. ``option`` names the command's
    option; the text is not echoed (an override would turn the answer around too)."""
    return _("{option} holds an invisible character (such as a zero-width space, often from"
             " a paste) or one that turns text around (a direction override), which cannot"
             " be kept: type it again by hand.", option=option)


def not_a_choice(option: str, accepted: Iterable[str]) -> str:
    """An option value that is none of the command's choices."""
    return _("{option} must be one of: {choices}.", option=option, choices=", ".join(accepted))


def unreadable_pool(problem: str) -> str:
    """The pool parser's own explanation, introduced: its sentence goes on after the
    colon, so in lower case ("…that pool: write just the number of dice"), in every
    language."""
    return _("I could not read that pool: {problem}", problem=uncapitalised(problem))


#: pydantic's kinds of error of a value of the wrong kind, as the edge names the kind
#: (:func:`wrong_kind`).
_WRONG_KINDS: Final = {
    "int_type": "integer", "int_parsing": "integer", "int_from_float": "integer",
    "float_type": "number", "float_parsing": "number",
    "bool_type": "boolean", "bool_parsing": "boolean",
    "string_type": "string",
}


def bad_option(option: str, kind: str, context: Mapping[str, object]) -> str:
    """An option the engine's request model refuses, by pydantic's kind of error and its
    context (the bound broken, the values allowed), in the words the edge refuses a value
    with (``bot.edge.errors.check_bounds``: the edge refuses first what a member types,
    so one gets here from a value kept or built, not typed); a value refused for another
    reason is said to be refused, never in pydantic's own English."""
    if kind == "enum" and (allowed := re.findall(r"'([^']*)'", str(context.get("expected")))):
        return not_a_choice(option, allowed)
    if kind in _WRONG_KINDS:
        return wrong_kind(option, _WRONG_KINDS[kind])
    if kind == "extra_forbidden":
        return _("{option} is not an option of this roll: roll again without it.",
                 option=option)
    bound = next((value for key in ("ge", "gt", "le", "lt", "min_length", "max_length")
                  if isinstance(value := context.get(key), int)), None)
    if bound is not None:
        length = kind.startswith("string_")
        if kind in {"greater_than_equal", "greater_than", "string_too_short"}:
            return out_of_range(option, bound + (kind == "greater_than"), None, length=length)
        if kind in {"less_than_equal", "less_than", "string_too_long"}:
            return out_of_range(option, None, bound - (kind == "less_than"), length=length)
    return _("{option} cannot take that value: give it as the option's description says.",
             option=option)


def no_odds(reason: str) -> str:
    """The engine refused the request /odds was asked about."""
    return _("No odds for that roll: {reason}.", reason=reason)


def will_above_maximum(current: int, maximum: int) -> str:
    """`/will set` with current over max."""
    return _("Current Will ({current}) cannot be above the maximum ({maximum}).",
             current=current, maximum=maximum)


def will_not_tracked_for(name: str) -> str:
    """`/will gain` for a member whose Will is not tracked."""
    return _("{name}'s Will is not tracked yet: they can set it with /will set max:<n>.",
             name=safe(name, limit=100))


def no_such_roll(number: int) -> str:
    """`/history void` with a number that is not a roll of this channel."""
    return _("There is no roll #{number} in this channel.", number=number)


def action_roll_not_voided(number: int) -> str:
    """`/history void` on a roll made in an extended action, a teamwork or a contest."""
    return _(
        "Roll #{number} belongs to an extended action, a teamwork or a contest, and voiding "
        "it would not take back what it did there: abandon or cancel the action instead.",
        number=number,
    )


def voided(number: int, *, already: bool) -> str:
    """`/history void`, confirmed above the log."""
    if already:
        return _("Roll #{number} was already void.", number=number)
    return _("Roll #{number} is now void.", number=number)


def not_a_setting_value(option: str, text: str, accepted: str) -> str:
    """`/config set` with a value the option does not take; ``option`` is the setting as
    its choice and the confirmations name it (``Dice order``), not its key."""
    return _("“{value}” is not a value for {option}: use {accepted}.",
             value=safe(text, limit=40), option=option, accepted=accepted)
