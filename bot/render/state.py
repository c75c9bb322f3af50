"""Wording for table state: Will pools, history, settings changes."""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum
from typing import Any

import discord

from bot.render.buttons import will_pool_text
from bot.render.rolls import NAME_LIMIT, RULESET_NAMES
from bot.render.text import OUTCOME_WORDS, message_link, plural, safe
from engine.models import Outcome
from engine.records import (
    ActionKind,
    Change,
    ChannelConfig,
    ChannelOption,
    GuildSettings,
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
        changes.append("tried again")
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
        "**Storyteller role:** "
        + (f"<@&{config.storyteller_role_id}>" if config.storyteller_role_id else "not set")
        + " (and anyone with Manage Channels)",
        "**Secret roll copies:** "
        + (f"<#{config.storyteller_channel_id}>" if config.storyteller_channel_id else "not sent"),
    ]
    return "\n".join(lines)


def config_changed(name: str, where: str, change: Change[Any], *, text_only: bool = False) -> str:
    """A settings change, confirmed with the old and the new value."""
    return f"{name} for {where}: " + _from_to(
        _value(change.old), _value(change.new), text_only=text_only
    )


def storyteller_changed(old: GuildSettings, new: GuildSettings, *, text_only: bool = False) -> str:
    """`/config storyteller`, confirmed with the old and the new values."""

    def role(settings: GuildSettings) -> str:
        role_id = settings.storyteller_role_id
        return f"<@&{role_id}>" if role_id else "none"

    def channel(settings: GuildSettings) -> str:
        channel_id = settings.storyteller_channel_id
        return f"<#{channel_id}>" if channel_id else "none"

    return (
        f"Storyteller role: {_from_to(role(old), role(new), text_only=text_only)}\n"
        f"Secret roll copies: {_from_to(channel(old), channel(new), text_only=text_only)}"
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
