"""Words, embeds and buttons of `/character`: sheets, confirmations, refusals."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

import discord

from bot.edge import ids
from bot.render.buttons import view_of
from bot.render.lang import N_
from bot.render.message import Message
from bot.render.refusals import refusal_text
from bot.render.rolls import RULESET_NAMES
from bot.render.text import safe
from engine.characters import MAX_CHARACTERS, Character, TraitChange, TraitGroup
from engine.models import Ruleset
from engine.records import CharacterName, CharacterRecord
from engine.refusals import Refusal

#: Longest name shown in a line.
NAME_LIMIT = 80
SHEET_COLOUR = discord.Colour.dark_teal()

NO_CHARACTER = (
    "You have no active character here: make one with /character create name:<name>, "
    "or pick one with /character use name:<name>."
)
NO_CHARACTER_FOR_NAMES = (
    "A word with no number is a trait of your character's sheet, and you have no active "
    "character here: make one with /character create name:<name>, or pick one with "
    "/character use name:<name>. To roll without a sheet, give each word its number: "
    "“Strength 3 + Brawl 2 - 1”, not “Strength -3”."
)
NPC_ONLY_STORYTELLER = N_("Only a Storyteller may create or roll non-player characters (npc).")
NOT_YOURS = (
    "That sheet is not yours: a member edits only their own sheets (a Storyteller, any "
    "in the server)."
)
NOT_VISIBLE = (
    "That sheet is private: only its owner and the Storyteller can see it (the owner can "
    "show it with /character show public:True)."
)
CHARACTER_GONE = (
    "That character was deleted or changed since this message was drawn, so nothing was "
    "changed. Run /character delete again if you still want to delete it."
)
NOTHING_TO_SET = (
    "Say what to set: trait:<name> value:<number>, or traits:\"Wits 3, Composure 2\"."
)
SPECIALTY_WHAT = "Say which specialty: add:<text> or remove:<text> (one of them)."
CONDITION_WHAT = "Say which Condition: add:<text> or remove:<text> (one of them)."
WILL_FROM_SHEET = (
    "Your active character's Will maximum is its Willpower trait: change it with "
    "/character set trait:Willpower value:<n>; /will set current:<n> sets Will now."
)


def name(text: str) -> str:
    """A character's name as shown: escaped, never a mention, shortened if long."""
    return safe(text, limit=NAME_LIMIT)


def refused(refusal: Refusal) -> str:
    """An engine refusal about a sheet, as a reply."""
    text = refusal_text(refusal)
    return f"{text[:1].upper()}{text[1:]}. Nothing was changed."


def problems(found: Sequence[Refusal]) -> str:
    """Every problem of an import file, one per line."""
    lines = [f"- {refusal_text(problem)}" for problem in found[:20]]
    return "That file cannot be imported, nothing was changed:\n" + "\n".join(lines)


def not_found(text: str) -> str:
    return (f"No character named “{name(text)}” that you can use here: see /character list, "
            "or create it with /character create.")


def several(text: str, owners: int) -> str:
    return (f"{owners} sheets in this server are named “{name(text)}”: ask their owners "
            "to rename one, or use the member option.")


def name_taken(text: str) -> str:
    return (f"You already have a character named “{name(text)}”: pick another name "
            "(or /character import replace:True to overwrite it).")


def too_many() -> str:
    return (f"You have {MAX_CHARACTERS} characters in this server, the most there can be: "
            "delete one with /character delete first.")


def created(sheet: Character) -> str:
    kind = "NPC" if sheet.npc else "character"
    return (f"Created the {RULESET_NAMES[sheet.template]} {kind} **{name(sheet.name)}**, "
            "now your active character here. Set its traits with /character set "
            "(traits:\"Wits 3, Composure 2, Brawl 2\"), then roll /roll pool:Wits + Composure.")


def traits_changed(sheet: Character, changes: Iterable[TraitChange]) -> str:
    parts = [
        f"{safe(c.name)} {'new' if c.old is None else c.old} → {c.new}" for c in changes
    ]
    return f"**{name(sheet.name)}**: " + ", ".join(parts) + f" (Will {sheet.will}/{sheet.will_max})"


def specialty_changed(sheet: Character, skill: str, text: str, *, added: bool) -> str:
    verb = "added to" if added else "removed from"
    return f"**{name(sheet.name)}**: specialty “{safe(text)}” {verb} {safe(skill)}."


def condition_changed(sheet: Character, text: str, *, added: bool) -> str:
    verb = "now has" if added else "no longer has"
    return f"**{name(sheet.name)}** {verb} the Condition “{safe(text)}”."


def now_active(sheet: Character, *, pinned: bool) -> str:
    where = "in this channel" if pinned else "in this server"
    return f"**{name(sheet.name)}** is now your active character {where}."


def renamed(old: str, new: str) -> str:
    return f"Renamed **{name(old)}** → **{name(new)}**."


def confirm_delete(record: CharacterRecord) -> Message:
    text = (f"Delete **{name(record.name)}** for good? Its past rolls stay in the log under "
            "its name. Press the button to confirm; dismiss this message to keep it.")
    view = view_of([(ids.character_button("delete", record.id, record.version),
                     "Delete for good", discord.ButtonStyle.danger)])
    return Message(content=text, view=view)


def deleted(text: str) -> str:
    return f"Deleted **{name(text)}**."


def imported_sheet(sheet: Character, *, replaced: bool) -> str:
    verb = "Replaced" if replaced else "Imported"
    return f"{verb} **{name(sheet.name)}** ({len(sheet.traits)} traits)."


def listing(owner: str, names: Sequence[CharacterName], active: int | None) -> str:
    if not names:
        return f"{safe(owner)} has no characters in this server."
    lines = [
        f"- {name(n.name)}{' (NPC)' if n.npc else ''}{' ← active' if n.id == active else ''}"
        for n in names
    ]
    return f"{safe(owner)}'s characters:\n" + "\n".join(lines)


_GROUPS = {
    TraitGroup.ATTRIBUTE: "Attributes",
    TraitGroup.SKILL: "Skills",
    TraitGroup.VIRTUE: "Virtues",
    TraitGroup.ADVANTAGE: "Set by hand",
    TraitGroup.OTHER: "Other traits",
}


def sheet_embed(record: CharacterRecord, *, text_only: bool = False) -> discord.Embed:
    """The sheet as one embed: traits grouped as the template groups them, derived traits,
    specialties, Will and Beats/Experience, Conditions."""
    sheet = record.sheet
    title = f"{name(sheet.name)}{' (NPC)' if sheet.npc else ''}"
    embed = discord.Embed(title=title if text_only else f"📜 {title}", colour=SHEET_COLOUR)
    for group, heading in _GROUPS.items():
        traits = [t for t in sheet.traits if t.group is group]
        if not traits:
            continue
        v20_skills = group is TraitGroup.SKILL and sheet.template is Ruleset.V20
        label = "Abilities" if v20_skills else heading
        shown = ", ".join(
            f"{safe(t.name)} {t.value}" + (f" ({', '.join(safe(s) for s in t.specialties)})"
                                           if t.specialties else "")
            for t in traits
        )
        embed.add_field(name=label, value=shown[:1024], inline=False)
    derived = ", ".join(f"{k} {v}" for k, v in sheet.derived().items())
    if derived:
        embed.add_field(name="Derived", value=derived, inline=False)
    advancement = f"Will {sheet.will}/{sheet.will_max}"
    if sheet.template is Ruleset.COFD:
        advancement += f", Beats {sheet.beats}, Experience {sheet.experience}"
    embed.add_field(name="Will", value=advancement, inline=True)
    conditions = ", ".join(safe(c) for c in sheet.conditions) or "none"
    embed.add_field(name="Conditions", value=conditions[:1024], inline=True)
    embed.set_footer(text=f"{RULESET_NAMES[sheet.template]} template")
    return embed
