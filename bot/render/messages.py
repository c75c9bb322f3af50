"""What the bot answers when it will not or cannot do something (always ephemeral)."""

from __future__ import annotations

from collections.abc import Iterable

from bot.render.lang import N_
from bot.render.text import safe

APOLOGY = "Something went wrong on my side and nothing was changed. Please try again."

# What a member is told when the database refused the write their action needed. The
# transaction that failed was rolled back, so the member may simply try again later.
STORE_BUSY = (
    "The bot's database is busy (another program is using it), so I could not save that. "
    "Please try again in a moment."
)
STORE_UNAVAILABLE = (
    "The bot cannot reach its database just now, so nothing was saved. "
    "Please try again in a moment."
)
STORE_CONTENDED = (
    "The bot's database is busy with other changes at this table, so nothing was saved. "
    "Please try again in a moment."
)
STORE_READ_ONLY = (
    "The bot's database is read-only right now, so I could not save that. Please tell "
    "whoever runs the bot; reading (/history, /will show, /help) still works."
)
STORE_FULL = (
    "The disk holding the bot's database is full, so I could not save that. Please tell "
    "whoever runs the bot, and try again once they have made room."
)
STORE_FAILED = (
    "The bot could not write to its database (its disk may be full or failing), so I could "
    "not save that. Please tell whoever runs the bot, and try again later."
)

NO_DIRECT_MESSAGES = "This works only in a server channel."
NOT_ALLOWED = "You are not allowed to do this here."
NOT_STORYTELLER = N_(
    "Only the Storyteller can do this: a member with Manage Channels here, "
    "or with the Storyteller role (/config storyteller)."
)
ONLY_LANGUAGE_SERVER_WIDE = (
    "Only the language has a server-wide value in /config set (the ruleset has"
    " /config ruleset scope:server): leave scope at channel for this setting."
)
EVERYONE_IS_NO_STORYTELLER = "@everyone cannot be the Storyteller role: pick a role."
WILL_NOT_TRACKED = "Your Will is not tracked yet: set it with /will set max:<n>."


def missing_permissions(permissions: Iterable[str]) -> str:
    """A member without the permission a command needs here."""
    needed = ", ".join(name.replace("_", " ").title() for name in permissions)
    return f"You need the {needed} permission for this."


def not_a_value(value: object) -> str:
    """An option value Discord let through that the command cannot use."""
    return f"“{safe(str(value), limit=100)}” is not a valid value here."


def out_of_range(option: str, low: float | None, high: float | None, *, length: bool) -> str:
    """An option value outside the bounds the command declares (a client that ignored them)."""
    what = f"{option} must be"
    unit = " characters long" if length else ""
    if low is not None and high is not None:
        return f"{what} {low:g} to {high:g}{unit}."
    if low is not None:
        return f"{what} at least {low:g}{unit}."
    return f"{what} at most {high:g}{unit}."


def not_a_choice(option: str, accepted: Iterable[str]) -> str:
    """An option value that is none of the command's choices."""
    return f"{option} must be one of: {', '.join(accepted)}."


def unreadable_pool(problem: str) -> str:
    """The pool parser's own explanation, introduced."""
    return f"I could not read that pool: {problem}"


def bad_option(name: str, problem: str) -> str:
    """An option the engine's request model rejects."""
    return f"{name}: {problem}"


def no_odds(reason: str) -> str:
    """The engine refused the request /odds was asked about."""
    return f"No odds for that roll: {reason}."


def will_above_maximum(current: int, maximum: int) -> str:
    """`/will set` with current over max."""
    return f"Current Will ({current}) cannot be above the maximum ({maximum})."


def will_not_tracked_for(name: str) -> str:
    """`/will gain` for a member whose Will is not tracked."""
    who = safe(name, limit=100)
    return f"{who}'s Will is not tracked yet: they can set it with /will set max:<n>."


def no_such_roll(number: int) -> str:
    """`/history void` with a number that is not a roll of this channel."""
    return f"There is no roll #{number} in this channel."


def action_roll_not_voided(number: int) -> str:
    """`/history void` on a roll made in an extended action, a teamwork or a contest."""
    return (
        f"Roll #{number} belongs to an extended action, a teamwork or a contest, and voiding "
        "it would not take back what it did there: abandon or cancel the action instead."
    )


def voided(number: int, *, already: bool) -> str:
    """`/history void`, confirmed above the log."""
    return f"Roll #{number} was already void." if already else f"Roll #{number} is now void."


def not_a_setting_value(option: str, text: str, accepted: str) -> str:
    """`/config set` with a value the option does not take."""
    return f"“{safe(text, limit=40)}” is not a value for {option}: use {accepted}."
