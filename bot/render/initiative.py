"""The initiative card and every sentence about initiative (RULES.md §7).

The card lists the order with each roll, marks whose turn it is and the round,
lists delayed combatants, and carries the buttons the engine offers
(:func:`engine.table.initiative.offers`). A card of 50 combatants with long
names stays inside Discord's embed limits: names and faces are shortened
until the order fits.
"""

from __future__ import annotations

from typing import Final

import discord

from bot.edge import ids
from bot.render.buttons import view_of
from bot.render.lang import N_, _, n_
from bot.render.message import Message, shaped
from bot.render.refusals import refusal_text
from bot.render.rolls import RULESET_NAMES
from bot.render.text import INFO_COLOUR, VOID_COLOUR, capitalised, safe
from engine.models import Ruleset
from engine.records import ActionStatus, ChannelConfig, TrackerRecord
from engine.refusals import Refusal
from engine.table.initiative import Combatant, Move, Status, Tracker, offers

__all__ = [
    "LOOKS",
    "NO_TRACKER",
    "TRACKER_GONE",
    "TYPE_YOUR_INITIATIVE",
    "added_notice",
    "already_running",
    "card_message",
    "ended_notice",
    "init_refused",
    "joined_notice",
    "removed_notice",
    "scene_initiative_ended",
    "turn_notice",
]

#: Each button's label and style, in the order the card shows them.
LOOKS: Final[dict[Move, tuple[str, discord.ButtonStyle]]] = {
    Move.JOIN: (N_("Join"), discord.ButtonStyle.secondary),
    Move.NEXT: (N_("Next"), discord.ButtonStyle.primary),
    Move.DELAY: (N_("Delay"), discord.ButtonStyle.secondary),
    Move.ACT_NOW: (N_("Act now"), discord.ButtonStyle.success),
    Move.END: (N_("End"), discord.ButtonStyle.danger),
}

NO_TRACKER: Final = N_(
    "There is no initiative tracker in this channel: the Storyteller starts one with "
    "`/init start`."
)
TRACKER_GONE: Final = N_("I no longer know this initiative tracker, so nothing was changed.")
TYPE_YOUR_INITIATIVE: Final = N_(
    "You have no active character here, so I cannot read your initiative from a sheet: "
    "make one with `/character create name:<name>` (or pick one with `/character use`), "
    "or type your initiative: `/init join pool:<n> [modifier:<n>]`, with `pool` your "
    "Dexterity + Composure (`v20`: Dexterity + Wits; `fistful`: your initiative pool), "
    "for example `/init join pool:5 modifier:-1`."
)

#: Room for the order in the description (Discord allows 4,096 characters).
_ORDER_ROOM: Final = 3800
#: Room for the delayed list (one field: 1,024 characters).
_FIELD_ROOM: Final = 1000
#: (name characters, faces shown) tried in turn until the order fits.
_SHORTER: Final = ((64, 10), (32, 6), (16, 3), (10, 0))

_STATUS_WORDS: Final[dict[Status, str]] = {
    Status.ENDED: N_("the Storyteller ended it"),
    Status.SCENE_ENDED: N_("the scene ended"),
}


def _result(c: Combatant, ruleset: Ruleset) -> str:
    """The number that places a combatant: its total, its successes, or a botch."""
    if ruleset is not Ruleset.FISTFUL:
        return str(c.total)
    return _("botch") if c.botch else n_("{n} success", "{n} successes", c.total)


def _roll(c: Combatant, ruleset: Ruleset, faces: int) -> str:
    """One combatant's roll: ``12 (7 + die 5)``, ``2 successes (pool 3: 9 6 2)``, ``botch``."""
    if ruleset is not Ruleset.FISTFUL:
        text = _("{total} ({fixed} + die {face})", total=c.total, fixed=c.fixed,
                 face=c.faces[0])
    else:
        shown = " ".join(map(str, c.faces[:faces]))
        if len(c.faces) > faces:
            shown = f"{shown} …" if shown else "…"
        text = _("{result} (pool {fixed}: {faces})", result=_result(c, ruleset), fixed=c.fixed,
                 faces=shown)
    if c.rolloffs:
        text = _("{roll}; roll-off {faces}", roll=text, faces=", ".join(map(str, c.rolloffs)))
    return text


def _line(c: Combatant, ruleset: Ruleset, *, place: int, acting: bool, text_only: bool,
          name_limit: int, faces: int) -> str:
    name = safe(c.label, limit=name_limit) or "?"
    if acting:
        line = f"{place}. **{name}**: {_roll(c, ruleset, faces)}"
        return _("Acting now: {line}", line=line) if text_only else f"▶ {line}"
    return f"{place}. {name}: {_roll(c, ruleset, faces)}"


def _order_text(tracker: Tracker, *, text_only: bool) -> tuple[str, str]:
    """The order and the delayed list, shortened until they fit."""
    text, delayed = "", ""
    for name_limit, faces in _SHORTER:
        lines = [
            _line(tracker.combatant(cid), tracker.ruleset, place=place, faces=faces,
                  acting=cid == tracker.current, text_only=text_only, name_limit=name_limit)
            for place, cid in enumerate(tracker.order, start=1)
        ]
        text = "\n".join(lines)
        delayed = "\n".join(
            f"{safe(tracker.combatant(cid).label, limit=name_limit) or '?'}: "
            f"{_roll(tracker.combatant(cid), tracker.ruleset, faces)}"
            for cid in tracker.delayed
        )
        if len(text) <= _ORDER_ROOM and len(delayed) <= _FIELD_ROOM:
            break
    return _cut(text, _ORDER_ROOM), _cut(delayed, _FIELD_ROOM)


def _cut(text: str, room: int) -> str:
    return text if len(text) <= room else text[: room - 1] + "…"


def _heading(tracker: Tracker) -> str:
    acting = tracker.acting
    if tracker.status is not Status.OPEN:
        word = _STATUS_WORDS.get(tracker.status)
        why = _("it ended") if word is None else _(word)
        if tracker.round:
            return n_(
                "**The fight is over** ({why}) after {n} round.",
                "**The fight is over** ({why}) after {n} rounds.",
                tracker.round, why=why,
            )
        return _("**The fight is over** ({why}).", why=why)
    join, next_, delay = (_(LOOKS[move][0]) for move in (Move.JOIN, Move.NEXT, Move.DELAY))
    if tracker.round == 0:
        return _(
            "Gathering: join with **{join}** or `/init join pool:<n>`; the Storyteller adds "
            "NPCs with `/init add` and presses **{next}** to start round 1.",
            join=join, next=next_,
        )
    if acting is None and not tracker.order:  # everyone removed or delayed: no Next yet
        return _(
            "Round {round}: nobody is left in the order. Join with **{join}**, or the "
            "Storyteller adds NPCs with `/init add` and then presses **{next}**.",
            round=tracker.round, join=join, next=next_,
        )
    if acting is None:
        return _(
            "Round {round}: nobody is acting. The Storyteller presses **{next}**.",
            round=tracker.round, next=next_,
        )
    return _(
        "Round {round}: **{name}** acts. When done, press **{next}** (or **{delay}** to act "
        "later this round).",
        round=tracker.round, name=safe(acting.label, limit=64), next=next_, delay=delay,
    )


def initiative_embed(tracker: Tracker, *, text_only: bool) -> discord.Embed:
    """The card's embed."""
    title = (
        _("Initiative: round {round}", round=tracker.round) if tracker.round
        else _("Initiative")
    )
    if not text_only:
        title = f"⚔️ {title}"
    order, delayed = _order_text(tracker, text_only=text_only)
    description = _heading(tracker) + "\n\n" + (order or _("Nobody has joined yet."))
    colour = INFO_COLOUR if tracker.status is Status.OPEN else VOID_COLOUR
    embed = discord.Embed(title=title, description=description, colour=colour)
    if delayed:
        embed.add_field(name=_("Delayed ({count})", count=len(tracker.delayed)), value=delayed,
                        inline=False)
    embed.add_field(name=_("Ruleset"), value=_(RULESET_NAMES[tracker.ruleset]), inline=True)
    embed.add_field(name=_("Combatants"), value=str(len(tracker.combatants)), inline=True)
    return embed


def card_message(record: TrackerRecord, tracker: Tracker, config: ChannelConfig) -> Message:
    """A stored tracker's card as it stands, with the buttons the engine offers (their ids
    carry the turn the card was drawn at)."""
    embed = initiative_embed(tracker, text_only=config.text_only)
    view = None
    if record.status is ActionStatus.OPEN:
        view = view_of(
            (ids.initiative_button(move.value, record.id, tracker.turn), _(LOOKS[move][0]),
             LOOKS[move][1])
            for move in offers(tracker)
        )
    return shaped(Message(embed=embed, view=view), config)


def init_refused(refusal: Refusal) -> str:
    """A move the tracker refuses, as a reply (names in it escaped: they never ping)."""
    params = {
        key: safe(value, limit=64) if isinstance(value, str) else value
        for key, value in refusal.params.items()
    }
    text = refusal_text(refusal.model_copy(update={"params": params}))
    return _("{refusal}; nothing was changed.", refusal=capitalised(text))


def already_running(guild_id: int, record: TrackerRecord | None) -> str:
    """A second tracker in a channel that has one: a link to the first one's card."""
    if record is None or record.message_id is None:
        return _(
            "This channel already has an initiative tracker (it is open here). End it with "
            "`/init end` before starting another."
        )
    link = f"https://discord.com/channels/{guild_id}/{record.channel_id}/{record.message_id}"
    return _(
        "This channel already has an initiative tracker (its card: {link}). End it with "
        "`/init end` before starting another.",
        link=link,
    )


def joined_notice(c: Combatant, ruleset: Ruleset) -> str:
    """A member joined the fight (public)."""
    return _("**{name}** joins the fight: {roll}.", name=safe(c.label, limit=64),
             roll=_roll(c, ruleset, 10))


def added_notice(added: list[Combatant], ruleset: Ruleset) -> str:
    """The Storyteller added NPCs (public)."""
    parts = [f"{safe(c.label, limit=64)} {_result(c, ruleset)}" for c in added]
    return _cut(_("Joins the fight: {names}.", names=", ".join(parts)), 1900)


def removed_notice(labels: tuple[str, ...]) -> str:
    """The Storyteller removed combatants (public)."""
    names = ", ".join(safe(label, limit=64) for label in labels)
    return _cut(_("Leaves the fight: {names}.", names=names), 1900)


def turn_notice(tracker: Tracker, *, new_round: bool) -> str:
    """Who acts now (public), and a new round's effects."""
    acting = tracker.acting
    text = (
        _("Round {round}: nobody is acting.", round=tracker.round) if acting is None
        else _("Round {round}: **{name}** acts.", round=tracker.round,
               name=safe(acting.label, limit=64))
    )
    if new_round and tracker.ruleset is Ruleset.FISTFUL:
        text += " " + _(
            "New round: the Successive Action Penalty starts over and open rolls close."
        )
    elif new_round:  # `cofd` and `v20` have no Successive Action Penalty (RULES.md §3)
        text += " " + _("New round: open rolls close.")
    return text


def ended_notice() -> str:
    """The Storyteller ended the fight (public)."""
    return _("The fight is over: the initiative tracker is closed.")


def scene_initiative_ended(ended: int) -> str:
    """`/scene end`'s line about the tracker it ended (empty when there was none)."""
    return " " + _("The initiative tracker is closed.") if ended else ""
