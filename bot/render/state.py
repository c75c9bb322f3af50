"""Wording for table state: Will pools, history, settings changes."""

from __future__ import annotations

from enum import Enum
from typing import Any

import discord

from bot.render.buttons import will_pool_text
from bot.render.rolls import NAME_LIMIT, RULESET_NAMES
from bot.render.text import OUTCOME_WORDS, plural, safe
from bot.store import (
    ActionKind,
    Change,
    ChannelConfig,
    GuildSettings,
    RollRecord,
    WillPool,
    WillState,
)
from engine.models import Outcome

#: Room for history lines in one message (Discord allows 2,000 characters).
HISTORY_CHARS = 1900

ACTION_WORDS: dict[ActionKind, str] = {
    ActionKind.EXTENDED: "extended action",
    ActionKind.TEAMWORK: "teamwork",
    ActionKind.CONTEST: "contest",
}



def _name(name: str) -> str:
    return safe(name, limit=NAME_LIMIT)


def will_shown(name: str, pool: WillPool | None, beats: int) -> str:
    """`/will show`."""
    text = (
        f"{_name(name)}: {will_pool_text(pool)}"
        if pool is not None
        else f"{_name(name)}: Will not tracked (set it with /will set max:<n>)"
    )
    if beats:
        text += f" · {beats} Beat{'s' if beats != 1 else ''}"
    return text


def will_changed(name: str, old: WillPool | None, new: WillPool | None) -> str:
    """A Will change confirmed with the old and the new value."""
    before = will_pool_text(old) if old is not None else "not tracked"
    after = will_pool_text(new) if new is not None else "not tracked"
    return f"{_name(name)}: {before} → {after}"


def history_line(record: RollRecord) -> str:
    """One roll in `/history`: id, when, who, what for, outcome and what changed state."""
    result = record.result
    outcome = OUTCOME_WORDS[result.outcome]
    if result.outcome in {Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS}:
        outcome += f", {result.successes} success{'es' if result.successes != 1 else ''}"
    parts = [
        f"#{record.id}",
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
    line = " · ".join(parts)
    if record.void:
        return f"~~{line}~~ **VOID**"
    return line


def history_text(records: list[RollRecord]) -> str:
    """`/history`: newest first, within one message."""
    if not records:
        return "No rolls in this channel yet."
    lines: list[str] = []
    size = 0
    for record in records:
        line = history_line(record)
        if size + len(line) + 1 > HISTORY_CHARS:
            lines.append(f"… and {len(records) - len(lines)} older rolls")
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


def config_changed(name: str, where: str, change: Change[Any]) -> str:
    """A settings change, confirmed with the old and the new value."""
    return f"{name} for {where}: {_value(change.old)} → {_value(change.new)}"


def storyteller_changed(old: GuildSettings, new: GuildSettings) -> str:
    """`/config storyteller`, confirmed with the old and the new values."""

    def role(settings: GuildSettings) -> str:
        role_id = settings.storyteller_role_id
        return f"<@&{role_id}>" if role_id else "none"

    def channel(settings: GuildSettings) -> str:
        channel_id = settings.storyteller_channel_id
        return f"<#{channel_id}>" if channel_id else "none"

    return (
        f"Storyteller role: {role(old)} → {role(new)}\n"
        f"Secret roll copies: {channel(old)} → {channel(new)}"
    )


def scene_ended(attempts: int, closed: int) -> str:
    """`/scene end`, with what it reset."""
    return (
        "**The scene ends.** Successive attempts start over"
        f" ({plural(attempts, 'action')} reset), the turn count starts over,"
        f" and {plural(closed, 'open roll')} closed."
    )


def turn_advanced(closed: int) -> str:
    """`/turn next`."""
    return (
        "**Next turn.** The Successive Action Penalty starts over,"
        f" and {plural(closed, 'open roll')} closed."
    )


def night_done(regained: int) -> str:
    """`/night`."""
    return f"**Night falls.** {plural(regained, 'Will pool')} regained 1 Will."
