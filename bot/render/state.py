"""Wording for table state: Will pools, history, settings changes."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

import discord

from bot.render.buttons import will_pool_text
from bot.render.lang import LANGUAGE_NAMES, _
from bot.render.rolls import NAME_LIMIT, RULESET_NAMES
from bot.render.text import OUTCOME_WORDS, message_link, plural, safe
from engine.models import Outcome, Ruleset
from engine.records import (
    ActionKind,
    Change,
    ChannelConfig,
    ChannelOption,
    GuildSettings,
    Language,
    RollRecord,
    WillPool,
    WillState,
)

#: Room for history lines in one message (Discord allows 2,000 characters).
HISTORY_CHARS = 1900

ACTION_WORDS: dict[ActionKind, str] = {
    ActionKind.EXTENDED: "extended action",
    ActionKind.TEAMWORK: "teamwork",
    ActionKind.CONTEST: "contest",
}



#: What /config set accepts for each option, as players type it.
SETTING_VALUES: dict[ChannelOption, str] = {
    ChannelOption.WILL_TIMING: "any (declare or spend after) | before (declare only)",
    ChannelOption.PRESSURE: "on | off (off is the Storyteller's “no pressure”)",
    ChannelOption.FISTFUL_STEP: "0-5 dice per earlier action this turn",
    ChannelOption.TEXT_ONLY: "on | off (no emoji, for screen readers)",
    ChannelOption.DICE_ORDER: "rolled | sorted",
    ChannelOption.COMPACT: "on | off (short roll cards)",
    ChannelOption.PLAIN: "on | off (plain messages, no embeds)",
    ChannelOption.INITIATIVE_POOL: (
        "trait names such as Wits + Composure (fistful: what /init join rolls from the sheet)"
    ),
    ChannelOption.LANGUAGE: " | ".join(language.value for language in Language),
}

#: Channels named in a server-wide ruleset change (the rest are counted).
_KEEPING_SHOWN = 20

#: Each setting as members read it (in /config set's choices and confirmations).
SETTING_NAMES: dict[ChannelOption, str] = {
    ChannelOption.RULESET: "Ruleset",
    ChannelOption.WILL_TIMING: "Will timing",
    ChannelOption.PRESSURE: "Successive-attempt pressure",
    ChannelOption.FISTFUL_STEP: "Fist Full of Dice penalty step",
    ChannelOption.TEXT_ONLY: "Text-only display (screen readers)",
    ChannelOption.DICE_ORDER: "Dice order",
    ChannelOption.COMPACT: "Compact roll cards",
    ChannelOption.PLAIN: "Plain messages (no embeds)",
    ChannelOption.INITIATIVE_POOL: "Fistful initiative pool",
    ChannelOption.LANGUAGE: "Language",
}

#: (value to type, what it means) of each setting: /config set's value suggestions.
SETTING_CHOICES: dict[ChannelOption, tuple[tuple[str, str], ...]] = {
    ChannelOption.WILL_TIMING: (
        ("any", "declare Will with a roll or spend it after with the button"),
        ("before", "declare Will with the roll only (no Spend Will button)"),
    ),
    ChannelOption.PRESSURE: (
        ("on", "failed labelled rolls make the next attempt harder"),
        ("off", "no pressure: no successive-attempt penalties"),
    ),
    ChannelOption.FISTFUL_STEP: tuple(
        (str(step), f"{plural(step, 'die')} fewer per earlier action this turn")
        for step in range(6)
    ),
    ChannelOption.TEXT_ONLY: (
        ("on", "no emoji or symbols, words a screen reader reads well"),
        ("off", "emoji and symbols"),
    ),
    ChannelOption.DICE_ORDER: (
        ("rolled", "dice in the order they were rolled"),
        ("sorted", "dice sorted from highest to lowest"),
    ),
    ChannelOption.COMPACT: (
        ("on", "short roll cards: the outcome, the dice and the pool on one line each"),
        ("off", "full roll cards with every adjustment listed"),
    ),
    ChannelOption.PLAIN: (
        ("on", "plain text messages, for members whose Discord hides embeds"),
        ("off", "embeds (cards with colours and fields)"),
    ),
    ChannelOption.INITIATIVE_POOL: (
        ("Dexterity + Composure", "fistful initiative rolls Dexterity + Composure (default)"),
        ("Wits + Composure", "fistful initiative rolls Wits + Composure"),
        ("Dexterity + Wits", "fistful initiative rolls Dexterity + Wits"),
    ),
    ChannelOption.LANGUAGE: tuple(
        (language.value, LANGUAGE_NAMES[language]) for language in Language
    ),
}

#: A change that kept meeting another one at the same instant (rare): nothing was changed.
TABLE_BUSY = "That changed several times while I tried, so nothing was changed: try again."


def _name(name: str) -> str:
    return safe(name, limit=NAME_LIMIT)


def _from_to(before: str, after: str, *, text_only: bool) -> str:
    """A value before and after a change: an arrow, or words for screen readers."""
    return f"was {before}, now {after}" if text_only else f"{before} → {after}"


def will_shown(name: str, pool: WillPool | None, beats: int, *, text_only: bool = False) -> str:
    """`/will show`."""
    text = (
        f"{_name(name)}: {will_pool_text(pool)}"
        if pool is not None
        else f"{_name(name)}: Will not tracked (set it with /will set max:<n>)"
    )
    if beats:
        text += f"{', ' if text_only else ' · '}{plural(beats, 'Beat')}"
    return text


def will_changed(
    name: str, old: WillPool | None, new: WillPool | None, *, text_only: bool = False
) -> str:
    """A Will change confirmed with the old and the new value."""
    before = will_pool_text(old) if old is not None else "not tracked"
    after = will_pool_text(new) if new is not None else "not tracked"
    return f"{_name(name)}: {_from_to(before, after, text_only=text_only)}"


def history_line(record: RollRecord, *, text_only: bool = False) -> str:
    """One roll in `/history`: id, when, who, what for, outcome and what changed state."""
    result = record.result
    outcome = OUTCOME_WORDS[result.outcome]
    if result.outcome in {Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS}:
        outcome += f", {result.successes} success{'es' if result.successes != 1 else ''}"
    number = f"#{record.id}"
    if record.message_id is not None:  # jump to the roll's own message
        link = message_link(record.guild_id, record.channel_id, record.message_id)
        number = f"[{number}]({link})"
    parts = [
        number,
        discord.utils.format_dt(record.created_at, "R"),
        _name(record.roller_name or f"member {record.roller_id}"),
    ]
    if record.label:
        parts.append(f"“{_name(record.label)}”")
    parts.append(outcome)
    changes = []
    if record.action_kind is not None:
        changes.append(ACTION_WORDS[record.action_kind])
    if record.will_state is WillState.SPENT:
        changes.append("Will spent")
    elif record.will_state is WillState.DECLARED:
        changes.append("Will declared")
    if record.beat:
        changes.append("Beat taken")
    if record.retried:
        # Try again is a failed labelled roll's button; Roll again every other roll's.
        changes.append("tried again" if record.label and record.result.failed
                       else "rolled again")
    if record.private:
        changes.append("secret")
    if changes:
        parts.append(", ".join(changes))
    line = ("; " if text_only else " · ").join(parts)
    if record.void:
        return f"{line} (VOID)" if text_only else f"~~{line}~~ **VOID**"
    return line


def history_text(records: list[RollRecord], *, text_only: bool = False) -> str:
    """`/history`: newest first, within one message."""
    if not records:
        return "No rolls in this channel yet."
    lines: list[str] = []
    size = 0
    for record in records:
        line = history_line(record, text_only=text_only)
        if size + len(line) + 1 > HISTORY_CHARS:
            more = len(records) - len(lines)
            lines.append(f"And {plural(more, 'older roll')}." if text_only
                         else f"… and {plural(more, 'older roll')}")
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)



def _value(value: object) -> str:
    if isinstance(value, bool):
        return "on" if value else "off"
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def config_shown(config: ChannelConfig) -> str:
    """`/config show`: every setting in force in the channel."""
    lines = [
        f"**Ruleset:** {RULESET_NAMES[config.ruleset]}",
        f"**Will timing:** {_value(config.will_timing)}",
        f"**Successive-attempt pressure:** {_value(config.pressure)}",
        f"**Fistful step:** {config.fistful_step} per earlier action this turn",
        f"**Text only:** {_value(config.text_only)}",
        f"**Dice order:** {_value(config.dice_order)}",
        f"**Compact roll cards:** {_value(config.compact)}",
        f"**Plain messages (no embeds):** {_value(config.plain)}",
        f"**Fistful initiative pool:** {safe(config.initiative_pool)}",
        f"**Language:** {language_name(config.language)}",
        "**Storyteller role:** "
        + (f"<@&{config.storyteller_role_id}>" if config.storyteller_role_id else "not set")
        + " (and anyone with Manage Channels)",
        "**Secret roll copies:** "
        + (f"<#{config.storyteller_channel_id}>" if config.storyteller_channel_id else "not sent"),
    ]
    return "\n".join(lines)


def _setting_value(option: ChannelOption, value: object) -> str:
    if option is ChannelOption.RULESET and isinstance(value, Ruleset):
        return RULESET_NAMES[value]
    if option is ChannelOption.INITIATIVE_POOL:
        return safe(str(value))
    if option is ChannelOption.LANGUAGE:
        return language_name(value if isinstance(value, Language) else None)
    return _value(value)


def language_name(language: Language | None) -> str:
    """A language setting as members read it (unset: Discord's choice for the server)."""
    if language is None:
        return _("the server's language on Discord")
    return LANGUAGE_NAMES[language]


def server_language_changed(change: Change[Language | None]) -> str:
    """The server's language changed (said in the new one); channels that chose their
    own keep it."""
    new, old = language_name(change.new), language_name(change.old)
    if change.new == change.old:
        return _("The server's language stays {new}: it already was.", new=new)
    return _(
        "The server's language is now {new} (it was {old}). Channels that chose"
        " their own language keep it.", new=new, old=old,
    )


def config_changed(option: ChannelOption, channel_id: int, change: Change[Any]) -> str:
    """A channel's setting changed, confirmed in a sentence naming the channel."""
    name = SETTING_NAMES[option]
    new, old = _setting_value(option, change.new), _setting_value(option, change.old)
    if change.new == change.old:
        return f"{name} in <#{channel_id}> stays {new}: it already was."
    return f"{name} in <#{channel_id}> is now {new} (it was {old})."


def server_ruleset_changed(change: Change[Ruleset], keeping: Sequence[int]) -> str:
    """The server's ruleset changed; the channels with a ruleset of their own keep it."""
    new, old = RULESET_NAMES[change.new], RULESET_NAMES[change.old]
    text = (
        f"The server's ruleset stays {new}: it already was." if change.new == change.old
        else f"The server's ruleset is now {new} (it was {old})."
    )
    if keeping:
        shown = [f"<#{channel_id}>" for channel_id in keeping[:_KEEPING_SHOWN]]
        if len(keeping) > _KEEPING_SHOWN:
            shown.append(f"{len(keeping) - _KEEPING_SHOWN} more")
        keeps = "keeps its" if len(keeping) == 1 else "keep their"
        text += f" {', '.join(shown)} {keeps} own ruleset."
    else:
        text += " Every channel follows it."
    return text


def storyteller_changed(old: GuildSettings, new: GuildSettings) -> str:
    """`/config storyteller`, confirmed in sentences with the old and the new values."""

    def role(settings: GuildSettings) -> str:
        role_id = settings.storyteller_role_id
        return f"<@&{role_id}>" if role_id else "no role"

    def channel(settings: GuildSettings) -> str:
        channel_id = settings.storyteller_channel_id
        return f"<#{channel_id}>" if channel_id else "no channel"

    def sentence(what: str, before: str, after: str) -> str:
        if before == after:
            return f"{what} {after}, as before."
        return f"{what} {after} (it was {before})."

    return (
        sentence("The Storyteller role is now", role(old), role(new))
        + " Anyone with Manage Channels is a Storyteller too.\n"
        + sentence("Copies of secret rolls go to", channel(old), channel(new))
    )


def _closed(closed: int) -> str:
    """The open rolls a clock command closed, when it closed any."""
    return f", and {plural(closed, 'open roll')} closed" if closed else ""


def scene_ended(attempts: int, closed: int) -> str:
    """`/scene end`, with what it reset (what was untouched goes unsaid)."""
    reset = f" ({plural(attempts, 'action')} reset)" if attempts else ""
    return (
        f"**The scene ends.** Successive attempts start over{reset},"
        f" the turn count starts over{_closed(closed)}."
    )


def turn_advanced(closed: int) -> str:
    """`/turn next`."""
    return f"**Next turn.** The Successive Action Penalty starts over{_closed(closed)}."


def night_done(regained: Sequence[int]) -> str:
    """`/night`, naming who regained Will (mentions show names and never ping)."""
    if not regained:
        return "**Night falls.** Every tracked Will pool is already full."
    names = ", ".join(f"<@{user_id}>" for user_id in regained)
    return f"**Night falls.** 1 Will regained by {names}."


def scene_contests_ended(ended: int) -> str:
    """What `/scene end` adds about the contests it closed unresisted (nothing when none)."""
    if not ended:
        return ""
    return f" {plural(ended, 'contest')} still waiting for a resistance closed."
