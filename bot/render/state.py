"""Wording for table state: Will pools, history, settings changes."""

from __future__ import annotations

import re
from collections.abc import Sequence
from enum import Enum
from typing import Any, Final

import discord

from bot.render.buttons import will_pool_text
from bot.render.lang import LANGUAGE_NAMES, N_, _, language_of, n_, p_, trait_language
from bot.render.rolls import NAME_LIMIT, RULESET_NAMES, played_by
from bot.render.text import OUTCOME_WORDS, message_link, safe, trait
from engine.characters import MAX_NAME
from engine.models import Outcome, Ruleset
from engine.records import (
    ActionKind,
    Change,
    ChannelConfig,
    ChannelOption,
    DiceOrder,
    GuildSettings,
    Language,
    RollRecord,
    WillPool,
    WillState,
    WillTiming,
)

#: Room for history lines in one message (Discord allows 2,000 characters).
HISTORY_CHARS = 1900

ACTION_WORDS: dict[ActionKind, str] = {
    ActionKind.EXTENDED: N_("extended action"),
    ActionKind.TEAMWORK: N_("teamwork"),
    ActionKind.CONTEST: N_("contest"),
}


#: What /config set accepts for each option, as players type it (the values stay as they
#: are in every language; what they mean is translated).
SETTING_VALUES: dict[ChannelOption, str] = {
    ChannelOption.WILL_TIMING: N_("any (declare or spend after) | before (declare only)"),
    ChannelOption.PRESSURE: N_("on | off (off is the Storyteller's “no pressure”)"),
    ChannelOption.FISTFUL_STEP: N_("0-5 dice per earlier action this turn"),
    ChannelOption.TEXT_ONLY: N_("on | off (no emoji, for screen readers)"),
    ChannelOption.DICE_ORDER: N_("rolled | sorted"),
    ChannelOption.COMPACT: N_("on | off (short roll cards)"),
    ChannelOption.PLAIN: N_("on | off (plain messages, no embeds)"),
    ChannelOption.INITIATIVE_POOL: N_(
        "trait names such as Wits + Composure (fistful: what /init join rolls from the sheet)"
    ),
    ChannelOption.LANGUAGE: " | ".join(language.value for language in Language),
}

#: Channels named in a server-wide ruleset change (the rest are counted).
_KEEPING_SHOWN = 20
#: The pools /night names one by one (a message holds 2,000 characters); the others are
#: counted.
_NIGHT_SHOWN = 20

#: Each setting as members read it (in /config set's choices and confirmations).
SETTING_NAMES: dict[ChannelOption, str] = {
    ChannelOption.RULESET: N_("Ruleset"),
    ChannelOption.WILL_TIMING: N_("Will timing"),
    ChannelOption.PRESSURE: N_("Successive-attempt pressure"),
    ChannelOption.FISTFUL_STEP: N_("Fist Full of Dice penalty step"),
    ChannelOption.TEXT_ONLY: N_("Text-only display (screen readers)"),
    ChannelOption.DICE_ORDER: N_("Dice order"),
    ChannelOption.COMPACT: N_("Compact roll cards"),
    ChannelOption.PLAIN: N_("Plain messages (no embeds)"),
    ChannelOption.INITIATIVE_POOL: N_("Fistful initiative pool"),
    ChannelOption.LANGUAGE: N_("Language"),
}


#: The value that clears a setting of the channel's (or the server's) own: it then follows
#: the level above (a thread its channel, a channel the server, the server the default).
DEFAULT: Final = "default"
#: /config ruleset's choice of :data:`DEFAULT`, as members read it.
FOLLOW_SERVER: Final = N_("Follow the server's ruleset (for the server: the default, cofd)")


def setting_values(option: ChannelOption) -> str:
    """What /config set accepts for ``option``, in the voice in force."""
    values = (SETTING_VALUES[option] if option is ChannelOption.LANGUAGE  # codes, no words
              else _(SETTING_VALUES[option]))
    return _("{values}, or {default} (follow the server's)", values=values, default=DEFAULT)


def setting_choices(option: ChannelOption) -> tuple[tuple[str, str], ...]:
    """(value to type, what it means) of each setting: /config set's value suggestions,
    in the voice in force; the last clears the channel's own value."""
    return (*_own_choices(option), (DEFAULT, _(
        "no value of this channel's own: follow the server's (in a thread, its channel's)")))


def _own_choices(option: ChannelOption) -> tuple[tuple[str, str], ...]:
    match option:
        case ChannelOption.WILL_TIMING:
            return (
                ("any", _("declare Will with a roll or spend it after with the button")),
                ("before", _("declare Will with the roll only (no Spend Will button)")),
            )
        case ChannelOption.PRESSURE:
            return (
                ("on", _("failed labelled rolls make the next attempt harder")),
                ("off", _("no pressure: no successive-attempt penalties")),
            )
        case ChannelOption.FISTFUL_STEP:
            return tuple(
                (str(step), n_("{n} die fewer per earlier action this turn",
                               "{n} dice fewer per earlier action this turn", step))
                for step in range(6)
            )
        case ChannelOption.TEXT_ONLY:
            return (
                ("on", _("no emoji or symbols, words a screen reader reads well")),
                ("off", _("emoji and symbols")),
            )
        case ChannelOption.DICE_ORDER:
            return (
                ("rolled", _("dice in the order they were rolled")),
                ("sorted", _("dice sorted from highest to lowest")),
            )
        case ChannelOption.COMPACT:
            return (
                ("on", _("short roll cards: the outcome, the dice and the pool on one line"
                         " each")),
                ("off", _("full roll cards with every adjustment listed")),
            )
        case ChannelOption.PLAIN:
            return (
                ("on", _("plain text messages, for members whose Discord hides embeds")),
                ("off", _("embeds (cards with colours and fields)")),
            )
        case ChannelOption.INITIATIVE_POOL:
            return (
                ("Dexterity + Composure",
                 _("fistful initiative rolls Dexterity + Composure (default)")),
                ("Wits + Composure", _("fistful initiative rolls Wits + Composure")),
                ("Dexterity + Wits", _("fistful initiative rolls Dexterity + Wits")),
            )
        case ChannelOption.LANGUAGE:
            return tuple((language.value, _(LANGUAGE_NAMES[language])) for language in Language)
        case _:
            return ()


#: A change that kept meeting another one at the same instant (rare): nothing was changed.
TABLE_BUSY = N_("That changed several times while I tried, so nothing was changed: try again.")


def _name(name: str) -> str:
    return safe(name, limit=NAME_LIMIT)


def _from_to(before: str, after: str, *, text_only: bool) -> str:
    """A value before and after a change: an arrow, or words for screen readers."""
    if text_only:
        return _("was {before}, now {after}", before=before, after=after)
    return f"{before} → {after}"


def will_shown(name: str, pool: WillPool | None, beats: int, *, text_only: bool = False) -> str:
    """`/will show`."""
    text = (
        f"{_name(name)}: {will_pool_text(pool)}"
        if pool is not None
        else _("{name}: Will not tracked (set it with /will set max:<n>)", name=_name(name))
    )
    if beats:
        counted = n_("{n} Beat", "{n} Beats", beats)
        text += f"{', ' if text_only else ' · '}{counted}"
    return text


def will_changed(
    name: str, old: WillPool | None, new: WillPool | None, *, text_only: bool = False
) -> str:
    """A Will change confirmed with the old and the new value (a pool that did not move,
    such as a rest at its maximum, says so)."""
    before = will_pool_text(old) if old is not None else _("not tracked")
    after = will_pool_text(new) if new is not None else _("not tracked")
    if old is not None and old == new:
        return _("{name}: {pool}, unchanged.", name=_name(name), pool=after)
    return f"{_name(name)}: {_from_to(before, after, text_only=text_only)}"


def _changes(record: RollRecord) -> list[str]:
    """What a roll did besides its outcome, as `/history` lists it: an extended action's
    last roll says the progress the action stands at (each roll's own is not kept)."""
    changes = []
    if record.action_kind is not None:
        changes.append(_(ACTION_WORDS[record.action_kind]))
    progress = record.action_progress
    if progress is not None and progress.required is None:
        changes.append(n_("{n} success so far", "{n} successes so far", progress.done))
    elif progress is not None:
        changes.append(_("progress {done}/{required}", done=progress.done,
                         required=progress.required))
    if record.will_state is WillState.SPENT:
        changes.append(_("Will spent"))
    elif record.will_state is WillState.DECLARED:
        changes.append(_("Will declared"))
    if record.beat:
        changes.append(_("Beat taken"))
    if record.retried:
        # Try again is a failed labelled roll's button; Roll again every other roll's.
        changes.append(_("tried again") if record.label and record.result.failed
                       else _("rolled again"))
    if record.private:
        changes.append(_("secret"))
    return changes


def history_line(record: RollRecord, *, text_only: bool = False) -> str:
    """One roll in `/history`: id, when, who, what for, outcome and what changed state."""
    result = record.result
    outcome = _(OUTCOME_WORDS[result.outcome])
    if result.outcome in {Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS}:
        outcome = n_("{outcome}, {n} success", "{outcome}, {n} successes", result.successes,
                     outcome=outcome)
    number = f"#{record.id}"
    if record.message_id is not None:  # jump to the roll's own message
        link = message_link(record.guild_id, record.channel_id, record.message_id)
        number = f"[{number}]({link})"
    # Who rolled, as the roll's card says it: the character and its member (``Mara
    # (Alice)``, so a Storyteller's NPCs are told apart), else the member.
    member = record.roller_name or _("member {id}", id=record.roller_id)
    parts = [
        number,
        discord.utils.format_dt(record.created_at, "R"),
        _name(played_by(member, record.character_name)),
    ]
    if record.label:
        parts.append(f"“{_name(record.label)}”")
    parts.append(outcome)
    changes = _changes(record)
    if changes:
        parts.append(", ".join(changes))
    line = ("; " if text_only else " · ").join(parts)
    if record.void:
        return _("{line} (VOID)", line=line) if text_only else _("~~{line}~~ **VOID**", line=line)
    return line


def history_text(records: list[RollRecord], *, text_only: bool = False,
                 member: bool = False) -> str:
    """`/history`: newest first, within one message; ``member``: one member's rolls only
    (none of theirs says so: the channel may hold others')."""
    if not records:
        return (_("This member has no rolls in this channel yet.") if member
                else _("No rolls in this channel yet."))
    lines: list[str] = []
    size = 0
    for record in records:
        line = history_line(record, text_only=text_only)
        if size + len(line) + 1 > HISTORY_CHARS:
            more = len(records) - len(lines)
            lines.append(n_("And {n} older roll.", "And {n} older rolls.", more) if text_only
                         else n_("… and {n} older roll", "… and {n} older rolls", more))
            break
        lines.append(line)
        size += len(line) + 1
    return "\n".join(lines)


def _value(value: object) -> str:
    """A setting's value as players type it (the values stay English in every language,
    so what /config show says works in /config set)."""
    if isinstance(value, bool):
        return p_("setting value", "on") if value else p_("setting value", "off")
    if isinstance(value, WillTiming):
        return (p_("setting value", "any") if value is WillTiming.ANY
                else p_("setting value", "before"))
    if isinstance(value, DiceOrder):
        return (p_("setting value", "rolled") if value is DiceOrder.ROLLED
                else p_("setting value", "sorted"))
    if isinstance(value, Enum):
        return str(value.value)
    return str(value)


def config_shown(config: ChannelConfig, guild_locale: str | None = None) -> str:
    """`/config show`: every setting in force in the channel; with no language set, the
    one the table hears from the server's Discord locale (``guild_locale``)."""
    role = (f"<@&{config.storyteller_role_id}>" if config.storyteller_role_id
            else _("not set"))
    copies = (f"<#{config.storyteller_channel_id}>" if config.storyteller_channel_id
              else _("not sent"))
    lines = [
        _("**Ruleset:** {value}", value=_(RULESET_NAMES[config.ruleset])),
        _("**Will timing:** {value}", value=_value(config.will_timing)),
        _("**Successive-attempt pressure:** {value}", value=_value(config.pressure)),
        _("**Fistful step:** {value} per earlier action this turn", value=config.fistful_step),
        _("**Text only:** {value}", value=_value(config.text_only)),
        _("**Dice order:** {value}", value=_value(config.dice_order)),
        _("**Compact roll cards:** {value}", value=_value(config.compact)),
        _("**Plain messages (no embeds):** {value}", value=_value(config.plain)),
        _("**Fistful initiative pool:** {value}", value=_trait_names(config.initiative_pool)),
        _("**Language:** {value}", value=language_heard(config.language, guild_locale)),
        _("**Storyteller role:** {role} (and anyone with Manage Channels)", role=role),
        _("**Secret roll copies:** {channel}", channel=copies),
    ]
    return "\n".join(lines)


#: The operators of a pool kept as the settings keep it (``Wits + Composure``): a name
#: may hold a hyphen (Self-Control), an operator stands between spaces.
_OPERATORS: Final = re.compile(r"\s+([+-])\s+")


def _trait_names(pool: str) -> str:
    """A pool of trait names (``Dexterity + Composure``) as the voice in force names the
    template's traits (``Destreza + Autocontrole``); other names as typed."""
    language = trait_language()
    return " ".join(
        part if part in {"+", "-"} else trait(part, language)
        for part in _OPERATORS.split(pool)
    )


def _setting_value(option: ChannelOption, value: object) -> str:
    if option is ChannelOption.RULESET and isinstance(value, Ruleset):
        return _(RULESET_NAMES[value])
    if option is ChannelOption.INITIATIVE_POOL:
        return _trait_names(str(value))
    if option is ChannelOption.LANGUAGE:
        return language_name(value if isinstance(value, Language) else None)
    return _value(value)


def language_name(language: Language | None) -> str:
    """A language setting as members read it (unset: Discord's choice for the server)."""
    if language is None:
        return _("the server's language on Discord")
    return _(LANGUAGE_NAMES[language])


def language_heard(setting: Language | None, guild_locale: str | None) -> str:
    """The language setting in force as /config show tells it: unset, which language the
    table hears (:func:`bot.render.lang.public_voice`), where it said "the server's
    language on Discord" of a server whose Discord language the bot does not speak, and
    the table heard English."""
    if setting is not None:
        return language_name(setting)
    heard = language_of(guild_locale)
    if heard is None:
        return _("English (the server's language on Discord is not one the bot speaks)")
    return _("{language} (the server's language on Discord)",
             language=_(LANGUAGE_NAMES[heard]))


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


def config_changed(
    option: ChannelOption, channel_id: int, change: Change[Any], *, cleared: bool = False
) -> str:
    """A channel's setting changed, confirmed in a sentence naming the channel; ``cleared``:
    its own value went, and it follows the level above."""
    name = _(SETTING_NAMES[option])
    new, old = _setting_value(option, change.new), _setting_value(option, change.old)
    channel = f"<#{channel_id}>"
    if cleared:
        return _("{setting} in {channel} now follows the server's value (in a thread, its"
                 " channel's): {new} (it was {old}).", setting=name, channel=channel, new=new,
                 old=old)
    if change.new == change.old:
        return _("{setting} in {channel} stays {new}: it already was.",
                 setting=name, channel=channel, new=new)
    return _("{setting} in {channel} is now {new} (it was {old}).",
             setting=name, channel=channel, new=new, old=old)


def server_ruleset_changed(change: Change[Ruleset], keeping: Sequence[int]) -> str:
    """The server's ruleset changed; the channels with a ruleset of their own keep it."""
    new, old = _(RULESET_NAMES[change.new]), _(RULESET_NAMES[change.old])
    text = (
        _("The server's ruleset stays {new}: it already was.", new=new)
        if change.new == change.old
        else _("The server's ruleset is now {new} (it was {old}).", new=new, old=old)
    )
    if keeping:
        shown = [f"<#{channel_id}>" for channel_id in keeping[:_KEEPING_SHOWN]]
        if len(keeping) > _KEEPING_SHOWN:
            shown.append(n_("{n} more", "{n} more", len(keeping) - _KEEPING_SHOWN))
        text += " " + n_("{channels} keeps its own ruleset.", "{channels} keep their own ruleset.",
                         len(keeping), channels=", ".join(shown))
    else:
        text += " " + _("Every channel follows it.")
    return text


def storyteller_changed(
    old: GuildSettings, new: GuildSettings, *, role: bool, channel: bool
) -> str:
    """`/config storyteller`, confirmed with the old and the new value of what the admin
    gave (``role``: a role or ``clear:role``; ``channel``: a copies channel or
    ``clear:copies``), one sentence each; what was not given was kept and goes unsaid
    (setting the copies channel read as if the role had changed too). A value given as
    it already was is said to be unchanged."""

    def role_of(settings: GuildSettings) -> str:
        role_id = settings.storyteller_role_id
        return f"<@&{role_id}>" if role_id else _("no role")

    def channel_of(settings: GuildSettings) -> str:
        channel_id = settings.storyteller_channel_id
        return f"<#{channel_id}>" if channel_id else _("no channel")

    lines: list[str] = []
    if role:
        before, after = role_of(old), role_of(new)
        lines.append(
            (_("The Storyteller role is unchanged ({role}).", role=after) if before == after
             else _("The Storyteller role is now {role} (it was {old}).", role=after,
                    old=before))
            + " " + _("Anyone with Manage Channels is a Storyteller too."))
    if channel:
        before, after = channel_of(old), channel_of(new)
        lines.append(
            _("The channel for copies of secret rolls is unchanged ({channel}).",
              channel=after) if before == after
            else _("Copies of secret rolls go to {channel} (it was {old}).", channel=after,
                   old=before))
    return "\n".join(lines)


def scene_ended(attempts: int, closed: int, ruleset: Ruleset) -> str:
    """`/scene end`, with what it reset (what was untouched goes unsaid): successive
    attempts at a `cofd` or `v20` table, the Successive Action Penalty at a `fistful` one
    (RULES.md §1–§3: each has only its own)."""
    rolls = n_("{n} open roll closed", "{n} open rolls closed", closed)
    if ruleset is Ruleset.FISTFUL:
        if closed:
            return _("**The scene ends.** The Successive Action Penalty starts over, and"
                     " {closed}.", closed=rolls)
        return _("**The scene ends.** The Successive Action Penalty starts over.")
    reset = n_("{n} action reset", "{n} actions reset", attempts)
    if attempts and closed:
        return _("**The scene ends.** Successive attempts start over ({reset}), and {closed}.",
                 reset=reset, closed=rolls)
    if attempts:
        return _("**The scene ends.** Successive attempts start over ({reset}).", reset=reset)
    if closed:
        return _("**The scene ends.** Successive attempts start over, and {closed}.",
                 closed=rolls)
    return _("**The scene ends.** Successive attempts start over.")


def turn_advanced(closed: int, ruleset: Ruleset) -> str:
    """`/turn next`: the Successive Action Penalty is named where it is a rule (`fistful`,
    RULES.md §3), not at a `cofd` or `v20` table, which has none."""
    rolls = n_("{n} open roll closed", "{n} open rolls closed", closed)
    if ruleset is not Ruleset.FISTFUL:
        return _("**Next turn.** {closed}.", closed=rolls) if closed else _("**Next turn.**")
    if closed:
        return _("**Next turn.** The Successive Action Penalty starts over, and {closed}.",
                 closed=rolls)
    return _("**Next turn.** The Successive Action Penalty starts over.")


def night_done(members: Sequence[int], characters: Sequence[str], *, tracked: bool) -> str:
    """`/night`, naming whose Will it regained: each character by its name (RULES.md §6:
    Will is the character's, an NPC's too), each member's own pool by a mention (which
    shows their name and never pings); past :data:`_NIGHT_SHOWN` of them, how many more.
    None regained: the pools were full, or (``tracked`` False, a new server) there were
    none, and the table is told how a pool is tracked."""
    regained = [f"<@{user_id}>" for user_id in members] + [
        safe(character, limit=MAX_NAME) for character in characters]
    if not regained and not tracked:
        return _("**Night falls.** No Will is tracked in this server yet, so none was "
                 "regained: each player sets theirs with /will set max:<n>, and a character "
                 "sheet keeps its own.")
    if not regained:
        return _("**Night falls.** Every tracked Will pool is already full.")
    shown = regained[:_NIGHT_SHOWN]
    if len(regained) > _NIGHT_SHOWN:
        shown.append(n_("{n} more", "{n} more", len(regained) - _NIGHT_SHOWN))
    return _("**Night falls.** 1 Will regained by {names}.", names=", ".join(shown))


def scene_contests_ended(ended: int) -> str:
    """What `/scene end` adds about the contests it closed unresisted (nothing when none)."""
    if not ended:
        return ""
    return " " + n_("{n} contest still waiting for a resistance closed.",
                    "{n} contests still waiting for a resistance closed.", ended)
