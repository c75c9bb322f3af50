"""Words, embeds and buttons of `/character`: sheets, confirmations, refusals.

Trait names are kept in English on the sheet; they are shown in the table's language
(``language``: a code of :mod:`engine.trait_names`, see :func:`trait_language`), as the
Brazilian and Spanish editions name them, wherever a reply names them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

import discord

from bot.edge import ids
from bot.render.buttons import view_of
from bot.render.lang import N_, _, n_, p_, user
from bot.render.message import CONTENT_LIMIT, Message
from bot.render.refusals import refusal_text
from bot.render.rolls import RULESET_NAMES
from bot.render.text import capitalised, safe, trait
from engine.characters import MAX_CHARACTERS, Character, TraitChange, TraitGroup, is_derived
from engine.models import Ruleset
from engine.records import CharacterName, CharacterRecord
from engine.refusals import Refusal, RefusalCode

#: Longest name shown in a line.
NAME_LIMIT = 80
#: Longest name shown in `/character list`, escaped: a whole name of plain letters (at
#: most MAX_NAME, 64) is never cut, and MAX_CHARACTERS lines of it, each an NPC's (one
#: active), under an owner's name of markdown, fit a message in every language (at most 1,889
#: characters), where 25 names escaped to 80 passed 2,000.
LIST_NAME_LIMIT: Final = 64
SHEET_COLOUR = discord.Colour.dark_teal()

NO_CHARACTER = N_(
    "You have no active character here: make one with /character create name:<name>, "
    "or pick one with /character use name:<name>."
)
NO_CHARACTER_FOR_NAMES = N_(
    "A word with no number is a trait of your character's sheet, and you have no active "
    "character here: make one with /character create name:<name>, or pick one with "
    "/character use name:<name>. To roll without a sheet, give each word its number: "
    "“Strength 3 + Brawl 2 - 1”, not “Strength -3”."
)
NPC_ONLY_STORYTELLER = N_("Only a Storyteller may create or roll non-player characters (npc).")
NOT_YOURS = N_(
    "That sheet is not yours: a member edits only their own sheets (a Storyteller, any "
    "in the server)."
)
USE_NOT_YOURS = N_(
    "That sheet is not yours: a member makes active only their own sheets (a Storyteller, "
    "any NPC of the server too)."
)
NOT_VISIBLE = N_(
    "That sheet is private: only its owner and the Storyteller can see it (the owner can "
    "show it with /character show public:True)."
)
CHARACTER_GONE = N_(
    "That character was deleted or changed since this message was drawn, so nothing was "
    "changed. Run /character delete again if you still want to delete it."
)
#: Its example names traits every template has (v20 has no Composure).
NOTHING_TO_SET = N_(
    "Say what to set: trait:<name> value:<number>, or traits:\"Strength 3, Brawl 2\"."
)
SPECIALTY_WHAT = N_("Say which specialty: add:<text> or remove:<text> (one of them).")
CONDITION_WHAT = N_("Say which Condition: add:<text> or remove:<text> (one of them).")
def will_from_sheet(maximum: int) -> str:
    """`/will set` with another maximum than the active character's sheet gives."""
    return _(
        "Your active character's Will maximum is its Willpower trait ({maximum}): change it "
        "with /character set trait:Willpower value:<n>; /will set max:{maximum} current:<n> "
        "sets its Will now.", maximum=maximum,
    )


def name(text: str) -> str:
    """A character's name as shown: escaped, never a mention, shortened if long."""
    return safe(text, limit=NAME_LIMIT)


def refused(refusal: Refusal, language: str | None = None) -> str:
    """An engine refusal about a sheet, as a reply; the traits it offers named in
    ``language`` (the table's, :func:`refusal_text`'s ``traits``)."""
    # A sentence that opens with a quoted name ("“123” cannot be a trait name") keeps its
    # lower case: the first letter of a name of digits and marks is the sentence's own.
    return _("{reason}. Nothing was changed.",
             reason=capitalised(refusal_text(refusal, traits=language)))


def _problem(problem: Refusal) -> str:
    """One problem of an import file; a text the sheet cannot hold (a condition, a
    specialty) after its place in the file (``conditions.3: write 1 to 64 …``), as a field
    of the wrong kind is named, where twenty conditions made twenty lines alike."""
    text = refusal_text(problem)
    field = problem.params.get("field")
    if problem.code is RefusalCode.SHEET_TEXT_INVALID and field is not None:
        return f"{user(str(field))}: {text}"
    return text


#: The most problems of an import file listed one by one; the others are counted.
SHOWN_PROBLEMS: Final = 20


def problems(found: Sequence[Refusal]) -> str:
    """Every problem of an import file, one per line: the first :data:`SHOWN_PROBLEMS`
    that fit in a message's 2,000 characters (twenty long ones, a condition's or a trait
    name's of markup, do not), then how many more there are."""
    lines = [f"- {_problem(problem)}" for problem in found[:SHOWN_PROBLEMS]]
    while True:
        more = len(found) - len(lines)
        listed = [*lines, *([n_("…and {n} more problem", "…and {n} more problems", more)]
                            if more > 0 else [])]
        text = _("That file cannot be imported, nothing was changed:\n{problems}",
                 problems="\n".join(listed))
        if len(text) <= CONTENT_LIMIT or not lines:
            return text
        lines.pop()


def not_found(text: str) -> str:
    return _("No character named “{name}” that you can use here: see /character list, "
             "or create it with /character create.", name=name(text))


def no_active_of(member: str) -> str:
    """`/character show member:` of a member who has no active character here."""
    return _("{member} has no active character here: name one of their characters with "
             "character:<name> (see /character list member:<member>).", member=safe(member))


def several(text: str, owners: int, *, member_option: bool) -> str:
    """Several sheets of the server share the name a Storyteller gave; only
    ``/character show`` has a ``member`` option to say whose."""
    if not member_option:
        return n_("{n} sheet in this server is named “{name}”, so it is not clear which one "
                  "you mean: ask its owner to rename it (/character rename), then try again.",
                  "{n} sheets in this server are named “{name}”, so it is not clear which one "
                  "you mean: ask their owners to rename one (/character rename), then try "
                  "again.", owners, name=name(text))
    return n_("{n} sheet in this server is named “{name}”: ask its owner to rename it, "
              "or use the member option.",
              "{n} sheets in this server are named “{name}”: ask their owners to rename "
              "one, or use the member option.", owners, name=name(text))


def name_taken(text: str) -> str:
    return _("You already have a character named “{name}”: pick another name (or "
             "/character import replace:True to overwrite it).", name=name(text))


def too_many() -> str:
    return n_("You have {n} character in this server, the most there can be: delete it "
              "with /character delete first.",
              "You have {n} characters in this server, the most there can be: delete one "
              "with /character delete first.", MAX_CHARACTERS)


#: Traits to set, then roll, on a new sheet: its template's own (a v20 sheet has no
#: Composure, RULES.md §6).
_FIRST_TRAITS: Final[dict[Ruleset, tuple[str, str]]] = {
    Ruleset.COFD: (N_("Wits 3, Composure 2, Brawl 2"), N_("Wits + Composure")),
    Ruleset.V20: (N_("Perception 3, Alertness 2, Brawl 2"), N_("Perception + Alertness")),
    Ruleset.FISTFUL: (N_("Wits 3, Composure 2, Brawl 2"), N_("Wits + Composure")),
}


def created(sheet: Character) -> str:
    ruleset = _(RULESET_NAMES[sheet.template])
    traits, pool = (_(words) for words in _FIRST_TRAITS[sheet.template])
    if sheet.npc:
        return _("Created the {ruleset} NPC **{name}**, now your active character here. "
                 "Set its traits with /character set (traits:\"{traits}\"), then roll "
                 "/roll pool:{pool}.",
                 ruleset=ruleset, name=name(sheet.name), traits=traits, pool=pool)
    return _("Created the {ruleset} character **{name}**, now your active character here. "
             "Set its traits with /character set (traits:\"{traits}\"), then roll "
             "/roll pool:{pool}.", ruleset=ruleset, name=name(sheet.name), traits=traits,
             pool=pool)


#: The most characters of trait changes a confirmation lists one by one (a message holds
#: 2,000 with the name and the Will around them); the others are counted.
CHANGES_SHOWN: Final = 1500


def _change(change: TraitChange, language: str, *, text_only: bool) -> str:
    shown = trait(change.name, language)
    if text_only and change.old is None:
        return _("{trait} was not on the sheet, now {new}", trait=shown, new=change.new)
    if text_only:
        return _("{trait} was {old}, now {new}", trait=shown, old=change.old, new=change.new)
    if change.old is None:
        return _("{trait} new → {new}", trait=shown, new=change.new)
    return _("{trait} {old} → {new}", trait=shown, old=change.old, new=change.new)


def _up_to_shown(parts: Sequence[str], *, changes: bool = True) -> str:
    """Parts joined by commas up to :data:`CHANGES_SHOWN` characters, the others counted
    (as changes, or as traits)."""
    shown: list[str] = []
    length = 0
    for part in parts:
        length += len(part) + 2
        if length > CHANGES_SHOWN:
            break
        shown.append(part)
    more = len(parts) - len(shown)
    if more:
        shown.append(n_("and {n} more change", "and {n} more changes", more) if changes
                     else n_("and {n} more trait", "and {n} more traits", more))
    return ", ".join(shown)


def traits_changed(sheet: Character, changes: Sequence[TraitChange], language: str, *,
                   text_only: bool = False) -> str:
    """The changes of a `/character set`, each before and after (in words in text-only
    mode); past :data:`CHANGES_SHOWN` characters of them, how many more there are. A
    trait set to the value it had is no change and is not listed (``Dexterity 1 → 1``
    among real ones read as if it had changed); where none changed, the answer says so
    and names what each already is."""
    changed = [change for change in changes if not change.unchanged]
    if not changed:
        already = [f"{trait(each.name, language)} {each.new}" for each in changes]
        return _("Nothing was changed: **{name}** already has {traits}.", name=name(sheet.name),
                 traits=_up_to_shown(already, changes=False))
    shown = [_change(each, language, text_only=text_only) for each in changed]
    return _("**{name}**: {changes} (Will {will}/{maximum})", name=name(sheet.name),
             changes=_up_to_shown(shown), will=sheet.will, maximum=sheet.will_max)


def specialty_changed(
    sheet: Character, skill: str, text: str, language: str, *, added: bool
) -> str:
    values = {"name": name(sheet.name), "specialty": safe(text), "skill": trait(skill, language)}
    if added:
        return _("**{name}**: specialty “{specialty}” added to {skill}.", **values)
    return _("**{name}**: specialty “{specialty}” removed from {skill}.", **values)


def with_near_misses(text: str, near: Sequence[tuple[str, str]], language: str) -> str:
    """A `/character set` confirmation, then a line for each new trait whose name is a
    near miss of a trait the sheet or its template has (``near``: the name as added, the
    trait it may have been meant as: engine.near_miss), as many as fit in one message:
    the trait is added (custom traits are allowed), and the member learns how to set the
    one they may have meant."""
    lines = [text]
    length = len(text)
    for added, meant in near:
        line = _("**{added}** is a new trait: did you mean **{trait}**? /character set "
                 "trait:{trait} changes that one.", added=safe(added), trait=trait(meant, language))
        length += len(line) + 1
        if length > CONTENT_LIMIT:
            break
        lines.append(line)
    return "\n".join(lines)


def condition_changed(sheet: Character, text: str, *, added: bool) -> str:
    if added:
        return _("**{name}** now has the Condition “{condition}”.", name=name(sheet.name),
                 condition=safe(text))
    return _("**{name}** no longer has the Condition “{condition}”.", name=name(sheet.name),
             condition=safe(text))


def now_active(sheet: Character, *, pinned: bool) -> str:
    if pinned:
        return _("**{name}** is now your active character in this channel.",
                 name=name(sheet.name))
    return _("**{name}** is now your active character in this server.", name=name(sheet.name))


def renamed(old: str, new: str, *, text_only: bool = False) -> str:
    if text_only:
        return _("Renamed **{old}** to **{new}**.", old=name(old), new=name(new))
    return _("Renamed **{old}** → **{new}**.", old=name(old), new=name(new))


def confirm_delete(record: CharacterRecord) -> Message:
    text = _("Delete **{name}** for good? Its past rolls stay in the log under its name. "
             "Press the button to confirm; dismiss this message to keep it.",
             name=name(record.name))
    view = view_of([(ids.character_button("delete", record.id, record.version),
                     _("Delete for good"), discord.ButtonStyle.danger)])
    return Message(content=text, view=view)


def deleted(text: str) -> str:
    return _("Deleted **{name}**.", name=name(text))


def imported_sheet(sheet: Character, *, replaced: bool) -> str:
    count = len(sheet.traits)
    if replaced:
        return n_("Replaced **{name}** ({n} trait).", "Replaced **{name}** ({n} traits).",
                  count, name=name(sheet.name))
    return n_("Imported **{name}** ({n} trait).", "Imported **{name}** ({n} traits).",
              count, name=name(sheet.name))


def _listed(character: CharacterName, *, active: bool, text_only: bool) -> str:
    shown = safe(character.name, limit=LIST_NAME_LIMIT)
    if character.npc and active:
        if text_only:
            return _("- {name} (NPC, active)", name=shown)
        return _("- {name} (NPC) ← active", name=shown)
    if character.npc:
        return _("- {name} (NPC)", name=shown)
    if active and text_only:
        return _("- {name} (active)", name=shown)
    if active:
        return _("- {name} ← active", name=shown)
    return f"- {shown}"


def listing(owner: str, names: Sequence[CharacterName], active: int | None, *,
            text_only: bool = False) -> str:
    if not names:
        return _("{owner} has no characters in this server.", owner=safe(owner))
    lines = "\n".join(_listed(n, active=n.id == active, text_only=text_only) for n in names)
    return _("{owner}'s characters:\n{lines}", owner=safe(owner), lines=lines)


def character_choice(character: CharacterName) -> str:
    """A sheet as the ``character`` option's autocomplete offers it."""
    if character.npc:
        return _("{name} (NPC)", name=character.name)
    return character.name


_GROUPS = {
    TraitGroup.ATTRIBUTE: N_("Attributes"),
    TraitGroup.SKILL: N_("Skills"),
    TraitGroup.VIRTUE: N_("Virtues"),
    TraitGroup.ADVANTAGE: N_("Advantages"),
    TraitGroup.OTHER: N_("Other traits"),
}
_ABILITIES = N_("Abilities")


#: Discord's limits on an embed: a field's value, the fields, the whole embed's text.
FIELD_LIMIT: Final = 1024
MOST_FIELDS: Final = 25
EMBED_LIMIT: Final = 6000
#: Kept for the field that counts the traits not shown.
_NOTE_ROOM: Final = 300


def _chunks(label: str, items: Sequence[str]) -> list[tuple[str, str]]:
    """``items`` joined by commas as fields of at most :data:`FIELD_LIMIT` characters,
    split between items; the first named ``label``, the others as its continuation."""
    fields: list[tuple[str, str]] = []
    value = ""
    for whole in items:
        item = whole if len(whole) <= FIELD_LIMIT else whole[:FIELD_LIMIT - 1] + "…"
        if value and len(value) + 2 + len(item) > FIELD_LIMIT:
            fields.append((label if not fields else _("{group}, continued", group=label),
                           value))
            value = ""
        value = f"{value}, {item}" if value else item
    if value:
        fields.append((label if not fields else _("{group}, continued", group=label), value))
    return fields


def sheet_embed(record: CharacterRecord, language: str, *, text_only: bool = False
                ) -> discord.Embed:
    """The sheet as one embed: traits grouped as the template groups them, derived traits,
    specialties, Will and Beats/Experience, Conditions; trait names in ``language``.

    **Decision**: a derived trait set by hand (``/character set trait:Defense``) shows
    once, among the derived traits where a reader looks for it, marked as set by hand
    (its value no longer follows the traits it is derived from), where it showed under
    both. The other traits of its group are no traits set by hand: they are the `v20`
    template's own Willpower (or a sheet's imported as such), shown after the Virtues
    under "Advantages", the heading of V20's chapter on Virtues and Willpower and the
    term both games use for them, where they showed under "Set by hand" though nothing
    set them by hand.

    It always fits Discord's limits: a long group goes on over several fields, and past
    the embed's 6,000 characters (or 25 fields) the last traits are counted instead,
    pointing to /character export for the whole sheet."""
    sheet = record.sheet
    title = _("{name} (NPC)", name=name(sheet.name)) if sheet.npc else name(sheet.name)
    embed = discord.Embed(title=title if text_only else f"📜 {title}", colour=SHEET_COLOUR)
    embed.set_footer(text=_("{ruleset} template", ruleset=_(RULESET_NAMES[sheet.template])))
    tail: list[tuple[str, str, bool]] = []
    derived = ", ".join(
        f"{trait(k, language)} {v}" if sheet.trait(k) is None
        else _("{trait} {value} (set by hand)", trait=trait(k, language), value=v)
        for k, v in sheet.derived().items())
    if derived:
        tail.append((_("Derived"), derived, False))
    if sheet.template is Ruleset.COFD:
        advancement = _("Will {will}/{maximum}, Beats {beats}, Experience {experience}",
                        will=sheet.will, maximum=sheet.will_max, beats=sheet.beats,
                        experience=sheet.experience)
    else:
        advancement = _("Will {will}/{maximum}", will=sheet.will, maximum=sheet.will_max)
    tail.append((_("Will"), advancement, True))
    conditions = [safe(c) for c in sheet.conditions] or [p_("empty list of Conditions", "none")]
    tail.extend((label, value, True) for label, value in _chunks(_("Conditions"), conditions))
    room = EMBED_LIMIT - len(embed) - sum(len(n) + len(v) for n, v, _inline in tail) - _NOTE_ROOM
    fields = MOST_FIELDS - len(tail) - 1
    hidden = 0
    for group, heading in _GROUPS.items():
        traits = [t for t in sheet.traits
                  if t.group is group and not is_derived(sheet.template, t.name)]
        v20_skills = group is TraitGroup.SKILL and sheet.template is Ruleset.V20
        items = [
            f"{trait(t.name, language)} {t.value}"
            + (f" ({', '.join(safe(s) for s in t.specialties)})" if t.specialties else "")
            for t in traits
        ]
        label = _(_ABILITIES) if v20_skills else _(heading)
        chunks = _chunks(label, items)
        while chunks and (len(chunks) > fields or sum(len(n) + len(v) for n, v in chunks) > room):
            items.pop()
            hidden += 1
            chunks = _chunks(label, items)
        for label, value in chunks:
            embed.add_field(name=label, value=value, inline=False)
            fields, room = fields - 1, room - len(label) - len(value)
    if hidden:
        embed.add_field(name=_("Not shown"), inline=False, value=n_(
            "{n} more trait: /character export gives the whole sheet.",
            "{n} more traits: /character export gives the whole sheet.", hidden))
    for label, value, inline in tail:
        embed.add_field(name=label, value=value, inline=inline)
    return embed
