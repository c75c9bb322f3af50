"""Character sheets (RULES.md §6): templates, derived traits, edits, and pools by trait name.

A :class:`Character` is a sheet as the table keeps it and exports it (JSON with a
``schema_version``). The bot resolves a pool's names against the active sheet with
:func:`resolve`: the engine then rolls plain numbers, each term keeping its name and
its source (``sheet``, ``typed``, ``derived``), and the request carries what the sheet
decided (:class:`~engine.models.SheetNotes`) so the breakdown can give the reasons.
Every edit answers the new sheet or a :class:`~engine.refusals.Refusal`; nothing here
has words.
"""

from __future__ import annotations

import bisect
import difflib
import json
import re
import unicodedata
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final, Literal

from pydantic import Field, PrivateAttr, ValidationError
from pydantic_core import ErrorDetails

from engine.frozen import Frozen
from engine.models import RollRequest, Ruleset, SheetNotes, SkillCategory, Term, TermSource
from engine.parser import NamedPart
from engine.refusals import Refusal, RefusalCode, names
from engine.text import BLANKS, visible_line
from engine.trait_names import LOCALISED

__all__ = [
    "BEATS_PER_EXPERIENCE",
    "MAX_CHARACTERS",
    "MAX_CONDITIONS",
    "MAX_IMPORT_BYTES",
    "MAX_NAME",
    "MAX_SPECIALTIES",
    "MAX_TEXT",
    "MAX_TRAITS",
    "MAX_TRAIT_NAME",
    "RESIST_TRAITS",
    "SCHEMA_VERSION",
    "Character",
    "Resolved",
    "Trait",
    "TraitGroup",
    "fold",
]

SCHEMA_VERSION: Final = 1
#: Sheets per member per server.
MAX_CHARACTERS: Final = 25
MAX_TRAITS: Final = 200
MAX_SPECIALTIES: Final = 30
MAX_CONDITIONS: Final = 30
#: A character's name, in characters.
MAX_NAME: Final = 64
#: A trait's name, in characters.
MAX_TRAIT_NAME: Final = 32
#: A specialty or a Condition, in characters.
MAX_TEXT: Final = 64
MAX_IMPORT_BYTES: Final = 64 * 1024
#: A trait's usual top value; Will maximum and Health (and the other derived traits
#: set by hand: **Decision**) go up to MAX_BIG.
MAX_VALUE: Final = 10
MAX_BIG: Final = 30
BEATS_PER_EXPERIENCE: Final = 5


class TraitGroup(StrEnum):
    """Where a trait sits on the sheet (the template's grouping)."""

    ATTRIBUTE = "attribute"
    SKILL = "skill"
    """`cofd`/`fistful` Skills and `v20` Abilities: the traits that take specialties."""
    VIRTUE = "virtue"
    ADVANTAGE = "advantage"
    """Willpower (`v20`) and derived traits set by hand."""
    OTHER = "other"


class Trait(Frozen):
    """One trait: its value, group, Skill category (`cofd` Skills) and specialties."""

    name: str = Field(min_length=1, max_length=MAX_TRAIT_NAME)
    value: int = Field(ge=0, le=MAX_BIG)
    group: TraitGroup = TraitGroup.OTHER
    category: SkillCategory | None = None
    specialties: tuple[str, ...] = ()


class Character(Frozen):
    """A sheet: what ``/character export`` writes and ``/character import`` reads."""

    schema_version: Literal[1] = SCHEMA_VERSION
    name: str = Field(min_length=1, max_length=MAX_NAME)
    template: Ruleset
    npc: bool = False
    public: bool = False
    traits: tuple[Trait, ...] = Field(max_length=MAX_TRAITS)
    conditions: tuple[str, ...] = Field(default=(), max_length=MAX_CONDITIONS)
    will: int = Field(ge=0, le=MAX_BIG)
    """Current Will (the maximum is the Willpower trait, derived or set)."""
    beats: int = Field(default=0, ge=0, lt=BEATS_PER_EXPERIENCE)
    experience: int = Field(default=0, ge=0, le=100_000)

    _index: _Index = PrivateAttr()

    def model_post_init(self, context: Any, /) -> None:
        """Index the traits once per sheet: resolving a pool then costs a few lookups."""
        self._index = _Index.of(self)

    def trait(self, name: str) -> Trait | None:
        """The stored trait whose name matches ``name`` exactly (case, spaces, accents aside),
        in English or in any language of :mod:`engine.trait_names`."""
        entry = self._index.named(fold(name))
        return None if entry is None else entry.trait

    def value(self, name: str) -> int | None:
        """A trait's value, derived traits included (exact name, in any language); None when
        the sheet has none."""
        entry = self._index.named(fold(name))
        return None if entry is None else entry.value

    def derived(self) -> dict[str, int]:
        """The derived traits as the sheet shows them (set by hand where they were)."""
        return {name: entry.value for name, entry in self._index.derived_shown}

    @property
    def will_max(self) -> int:
        """Willpower maximum: the Willpower trait (derived in `cofd`/`fistful` unless set)."""
        return self.value("Willpower") or 0

    def entries(self) -> tuple[tuple[str, int], ...]:
        """Every trait the pool may name, derived ones included, as (name, value), in sheet
        order: what autocomplete offers."""
        return self._index.listing


def fold(name: str) -> str:
    """How names match: case, spaces, accents, hyphens and apostrophes do not matter."""
    if name.isascii():
        return _IGNORED.sub("", name.lower())
    decomposed = unicodedata.normalize("NFKD", name)
    kept = "".join(c for c in decomposed if not unicodedata.combining(c))
    return _IGNORED.sub("", kept.casefold())


_IGNORED: Final = re.compile(r"[\s'\u2019\-]+")


# --- templates ---------------------------------------------------------------------


_M, _P, _S = SkillCategory.MENTAL, SkillCategory.PHYSICAL, SkillCategory.SOCIAL
_COFD_ATTRIBUTES: Final = (
    "Intelligence", "Wits", "Resolve", "Strength", "Dexterity", "Stamina",
    "Presence", "Manipulation", "Composure",
)
_COFD_SKILLS: Final = (
    *((name, _M) for name in ("Academics", "Computer", "Crafts", "Investigation",
                              "Medicine", "Occult", "Politics", "Science")),
    *((name, _P) for name in ("Athletics", "Brawl", "Drive", "Firearms", "Larceny",
                              "Stealth", "Survival", "Weaponry")),
    *((name, _S) for name in ("Animal Ken", "Empathy", "Expression", "Intimidation",
                              "Persuasion", "Socialize", "Streetwise", "Subterfuge")),
)
_V20_ATTRIBUTES: Final = (
    "Strength", "Dexterity", "Stamina", "Charisma", "Manipulation", "Appearance",
    "Perception", "Intelligence", "Wits",
)
_V20_ABILITIES: Final = (
    "Alertness", "Athletics", "Awareness", "Brawl", "Empathy", "Expression", "Intimidation",
    "Leadership", "Legerdemain", "Subterfuge", "Animal Ken", "Archery", "Commerce", "Crafts",
    "Etiquette", "Melee", "Performance", "Ride", "Stealth", "Survival", "Academics",
    "Enigmas", "Hearth Wisdom", "Investigation", "Law", "Medicine", "Occult", "Politics",
    "Seneschal", "Theology",
)
_V20_VIRTUES: Final = ("Conscience", "Self-Control", "Courage")


def template(ruleset: Ruleset) -> tuple[Trait, ...]:
    """The traits a new sheet of this template starts with, at their defaults."""
    if ruleset is Ruleset.V20:
        return (
            *(Trait(name=n, value=1, group=TraitGroup.ATTRIBUTE) for n in _V20_ATTRIBUTES),
            *(Trait(name=n, value=0, group=TraitGroup.SKILL) for n in _V20_ABILITIES),
            *(Trait(name=n, value=1, group=TraitGroup.VIRTUE) for n in _V20_VIRTUES),
            Trait(name="Willpower", value=1, group=TraitGroup.ADVANTAGE),
        )
    return (
        *(Trait(name=n, value=1, group=TraitGroup.ATTRIBUTE) for n in _COFD_ATTRIBUTES),
        *(Trait(name=n, value=0, group=TraitGroup.SKILL, category=c) for n, c in _COFD_SKILLS),
    )


#: Derived traits (`cofd`, `fistful`): name -> the parts it adds up, plus a constant.
#: Defense is special: the lower of Wits and Dexterity, plus Athletics.
_DERIVED: Final[dict[Ruleset, tuple[str, ...]]] = {
    Ruleset.COFD: ("Willpower", "Defense", "Initiative", "Speed", "Health"),
    Ruleset.FISTFUL: ("Willpower", "Defense", "Initiative", "Speed", "Health"),
    Ruleset.V20: ("Initiative",),
}


def _derive(ruleset: Ruleset, stored: Mapping[str, Trait]) -> dict[str, int]:
    def v(name: str) -> int:
        trait = stored.get(fold(name))
        return 0 if trait is None else trait.value

    if ruleset is Ruleset.V20:
        return {"Initiative": v("Dexterity") + v("Wits")}
    return {
        "Willpower": v("Resolve") + v("Composure"),
        "Defense": min(v("Wits"), v("Dexterity")) + v("Athletics"),
        "Initiative": v("Dexterity") + v("Composure"),
        "Speed": v("Strength") + v("Dexterity") + 5,
        "Health": v("Stamina") + 5,
    }


def is_derived(ruleset: Ruleset, name: str) -> bool:
    """Whether ``name`` is a derived trait of this template (settable by hand)."""
    return fold(name) in {fold(n) for n in _DERIVED[ruleset]}


def value_limit(ruleset: Ruleset, name: str) -> int:
    """The highest value a trait may have: 30 for Willpower, Health and the derived traits,
    10 for the rest."""
    key = fold(name)
    return MAX_BIG if key in {"willpower", "health"} or is_derived(ruleset, name) else MAX_VALUE


@dataclass(frozen=True, slots=True)
class _Entry:
    name: str
    """The trait's own name, or (an entry of another language's name) that name."""
    value: int
    source: TermSource
    trait: Trait | None
    key: str
    """The trait's own key: every name of one trait has the same (one trait, one key)."""
    spellings: tuple[str, ...] = ()
    """Another language's names folding to this entry's key (``Inteligência``,
    ``Inteligencia``): the one typed is shown."""

    def spelled(self, typed: str) -> str:
        """The name as shown for ``typed``: the spelling typed, when several fold alike."""
        wanted = " ".join(typed.split()).casefold()
        return next((s for s in self.spellings if s.casefold() == wanted), self.name)


@dataclass(frozen=True, slots=True)
class _Index:
    stored: dict[str, Trait]
    entries: dict[str, _Entry]
    """The sheet's traits and derived traits, by their own names' keys, in sheet order."""
    keys: list[str]
    """Sorted keys of ``entries``, for prefix search."""
    listing: tuple[tuple[str, int], ...]
    derived_shown: tuple[tuple[str, _Entry], ...]

    @classmethod
    def of(cls, sheet: Character) -> _Index:
        stored = {fold(trait.name): trait for trait in sheet.traits}
        entries = {
            key: _Entry(trait.name, trait.value, TermSource.SHEET, trait, key)
            for key, trait in stored.items()
        }
        shown: list[tuple[str, _Entry]] = []
        for name, value in _derive(sheet.template, stored).items():
            key = fold(name)
            entry = entries.setdefault(key, _Entry(name, value, TermSource.DERIVED, None, key))
            shown.append((name, entry))
        listing = tuple((entry.name, entry.value) for entry in entries.values())
        return cls(stored, entries, sorted(entries), listing, tuple(shown))

    def named(self, key: str) -> _Entry | None:
        """The entry a folded name names: the sheet's own name, else another language's
        name of a template trait on the sheet (unless two of its traits share it)."""
        return self.entries.get(key) or self.alias(key)

    def alias(self, key: str) -> _Entry | None:
        """The trait of the sheet another language's name ``key`` names, if exactly one."""
        if key in self.entries:
            return None
        owners = [(own, spelled) for own, spelled in _OWNERS.get(key, ()) if own in self.entries]
        if not owners or any(own != owners[0][0] for own, _ in owners):
            return None
        entry = self.entries[owners[0][0]]
        spellings = tuple(dict.fromkeys(spelled for _, spelled in owners))
        return _Entry(spellings[0], entry.value, entry.source, entry.trait, entry.key,
                      spellings if len(spellings) > 1 else ())


def _aliases() -> dict[str, dict[str, tuple[str, str]]]:
    aliases: dict[str, dict[str, tuple[str, str]]] = {}
    for language, localised in LOCALISED.items():
        for english, spelled in localised.items():
            aliases.setdefault(fold(english), {})[language] = (fold(spelled), spelled)
    return aliases


#: A template trait's key -> language -> (key, name) of its name in that language
#: (engine.trait_names), folded once.
_ALIASES: Final = _aliases()


#: The short names the bot itself gives a trait, in each language it speaks (English,
#: Portuguese, Spanish): its buttons, ``/will`` and its cards say "Will" ("Vontade",
#: "Voluntad": docs/i18n) for the Willpower trait. **Decision**: they name that trait
#: wherever a trait's name is looked up (``/character set trait:Will``, a pool, a
#: specialty's Skill), as another language's name does, where ``trait:Will`` added a
#: trait "Will" beside the Willpower the bot meant; a sheet's own trait of that name
#: (one added so before) still wins, as every sheet's own name does.
_SHORT: Final[dict[str, tuple[str, ...]]] = {"Willpower": ("Will", "Vontade", "Voluntad")}


def _owners() -> dict[str, tuple[tuple[str, str], ...]]:
    owners: dict[str, list[tuple[str, str]]] = {}
    for own, spellings in _ALIASES.items():
        for alias, spelled in spellings.values():
            owners.setdefault(alias, []).append((own, spelled))
    for english, shorts in _SHORT.items():
        for short in shorts:
            owners.setdefault(fold(short), []).append((fold(english), short))
    return {alias: tuple(pairs) for alias, pairs in owners.items()}


#: Another language's folded name (or a short name, :data:`_SHORT`) -> the template traits'
#: keys it names, with its spelling (``autocontrole``: Composure and Self-Control, of two
#: templates).
_OWNERS: Final = _owners()
#: Every other language's folded name, sorted, for prefix search.
_ALIAS_KEYS: Final = sorted(_OWNERS)


# --- making and editing sheets --------------------------------------------------


_TRAIT_NAME: Final = re.compile(r"[^\W\d_](?:[\w' \-]*[^\W_])?")
"""A letter first (a pool word starts with one), then letters, digits, spaces, ' or -."""


def _is_trait_name(name: str) -> bool:
    """Whether ``name`` can name a trait (:data:`_TRAIT_NAME`), with no :data:`BLANKS` in
    it: a trait of Hangul fillers is a line of the sheet that names nothing (``Sword``
    and a filler, a Sword no one can type again)."""
    return _TRAIT_NAME.fullmatch(name) is not None and BLANKS.isdisjoint(name)


def name_refusal(name: str) -> Refusal | None:
    """Why a character's name cannot be used: 1-64 characters, one line of visible ones."""
    if not 1 <= len(name.strip()) <= MAX_NAME or len(name) > MAX_NAME:
        return Refusal.of(RefusalCode.CHARACTER_NAME_LENGTH, max=MAX_NAME)
    if not visible_line(name):
        return Refusal.of(RefusalCode.CHARACTER_NAME_CONTROL)
    return None


def _text_refusal(text: str) -> Refusal | None:
    if not 1 <= len(text.strip()) <= MAX_TEXT or not visible_line(text):
        return Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT)
    return None


def new_sheet(name: str, ruleset: Ruleset, *, npc: bool = False) -> Character:
    """A new sheet of the template, Will full. The name is checked by :func:`name_refusal`."""
    traits = template(ruleset)
    stored = {fold(trait.name): trait for trait in traits}
    derived = _derive(ruleset, stored)
    will_max = stored["willpower"].value if ruleset is Ruleset.V20 else derived["Willpower"]
    return Character(name=" ".join(name.split()), template=ruleset, npc=npc,
                     traits=traits, will=will_max)


def _with_will_capped(sheet: Character) -> Character:
    """Current Will stays, lowered to the maximum if it is above it (RULES.md §6)."""
    if sheet.will <= sheet.will_max:
        return sheet
    return sheet.model_copy(update={"will": sheet.will_max})


def _rebuilt(sheet: Character, **update: Any) -> Character:
    """A sheet with changes, validated and re-indexed."""
    data = {**dict(sheet), **update}
    return _with_will_capped(Character.model_validate(data))


class TraitChange(Frozen):
    """One trait's value before (None: new) and after an edit. ``unchanged``: the trait
    was on the sheet with that value already (``Dexterity 1`` set to 1), which is no
    change to confirm; a derived trait set by hand to the value it had is one (it is
    fixed from then on, no longer worked out)."""

    name: str
    old: int | None
    new: int
    unchanged: bool = False


_ASSIGNMENT: Final = re.compile(r"^\s*(?P<name>.*?)\s*[:=]?\s*(?P<value>-?\d+)\s*$")
#: A number and then another word, inside a name: two traits without their comma.
_TWO_IN_ONE: Final = re.compile(r"\d\s+\S")


def parse_assignments(text: str) -> list[tuple[str, int]] | Refusal:
    """``"Wits 3, Composure 2; Brawl: 2"`` as (name, value) pairs, or why not. A part that
    reads as several traits (``Wits 3 Composure 2``: a comma forgotten) is refused rather
    than made one trait "Wits 3 Composure" that no pool could name."""
    pairs: list[tuple[str, int]] = []
    for part in re.split(r"[,;\n]", text):
        if not part.strip():
            continue
        match = _ASSIGNMENT.match(part)
        if match is None or not match["name"] or _TWO_IN_ONE.search(match["name"]):
            return Refusal.of(RefusalCode.TRAITS_UNREADABLE, part=part.strip()[:MAX_TEXT])
        pairs.append((match["name"], int(match["value"])))
    if not pairs:
        return Refusal.of(RefusalCode.TRAITS_UNREADABLE, part=text.strip()[:MAX_TEXT])
    return pairs


def set_traits(
    sheet: Character, values: Iterable[tuple[str, int]]
) -> tuple[Character, tuple[TraitChange, ...]] | Refusal:
    """Set traits by name: an existing trait (same name, case, spaces and accents aside, in
    English or another language of the bot: ``Raciocínio`` is Wits) or a derived one (then
    set by hand, under its English name) changes, any other name adds a trait. Each value
    is checked against its trait's range; one bad pair refuses them all."""
    traits = list(sheet.traits)
    positions = {fold(trait.name): index for index, trait in enumerate(traits)}
    changes: list[TraitChange] = []
    for raw, value in values:
        name = " ".join(raw.split())
        if len(name) > MAX_TRAIT_NAME or not _is_trait_name(name):
            return Refusal.of(RefusalCode.TRAIT_NAME_INVALID, name=name[:80], max=MAX_TRAIT_NAME)
        key = fold(name)
        known = sheet._index.alias(key)
        typed = None  # another language's name, as a refusal repeats it
        if key not in positions and known is not None:
            typed = known.spelled(name)
            name, key = sheet._index.entries[known.key].name, known.key
        at = positions.get(key)
        shown = traits[at].name if at is not None else name
        high = value_limit(sheet.template, shown)
        if not 0 <= value <= high:
            return Refusal.of(RefusalCode.TRAIT_VALUE_RANGE, trait=typed or shown, value=value,
                              high=high)
        if at is not None:
            changes.append(TraitChange(name=shown, old=traits[at].value, new=value,
                                       unchanged=traits[at].value == value))
            traits[at] = traits[at].model_copy(update={"value": value})
            continue
        if len(traits) == MAX_TRAITS:
            return Refusal.of(RefusalCode.TOO_MANY_TRAITS, max=MAX_TRAITS)
        group = TraitGroup.OTHER
        if is_derived(sheet.template, name):  # under its own name: "defense" is Defense
            group = TraitGroup.ADVANTAGE
            name = next(n for n in _DERIVED[sheet.template] if fold(n) == key)
        changes.append(TraitChange(name=name, old=sheet.value(name), new=value))
        positions[key] = len(traits)
        traits.append(Trait(name=name, value=value, group=group))
    return _rebuilt(sheet, traits=tuple(traits)), tuple(changes)


def skill_named(sheet: Character, name: str) -> Trait | Refusal:
    """The Skill ``name`` names as a pool would (another language's name, a unique prefix:
    ``Bra`` is Brawl), or why not: a trait that is no Skill is refused by the sheet's own
    name (render names it as the table's cards do), whichever of its names was typed."""
    found = _lookup(sheet, name)
    if isinstance(found, Refusal):
        return found
    if found.trait is None or found.trait.group is not TraitGroup.SKILL:
        own = sheet._index.entries[found.key].name
        return Refusal.of(RefusalCode.SPECIALTY_NOT_SKILL, trait=own)
    return found.trait


def add_specialty(sheet: Character, skill: str, text: str) -> Character | Refusal:
    """A specialty on a Skill (or `v20` Ability), at most 30 on a sheet."""
    trait = skill_named(sheet, skill)
    if isinstance(trait, Refusal):
        return trait
    text = " ".join(text.split())
    refused = _text_refusal(text)
    if refused is not None:
        return refused
    kept = named_text(trait.specialties, text)
    if kept is not None:  # named as the sheet keeps it ("Boxe", whoever typed "boxe")
        return Refusal.of(RefusalCode.SPECIALTY_EXISTS, skill=trait.name, specialty=kept)
    if sum(len(t.specialties) for t in sheet.traits) >= MAX_SPECIALTIES:
        return Refusal.of(RefusalCode.TOO_MANY_SPECIALTIES, max=MAX_SPECIALTIES)
    return _replace_trait(sheet, trait.model_copy(
        update={"specialties": (*trait.specialties, text)}))


def remove_specialty(sheet: Character, skill: str, text: str) -> Character | Refusal:
    """Remove a specialty (its name matched as trait names are)."""
    trait = skill_named(sheet, skill)
    if isinstance(trait, Refusal):
        return trait
    kept = tuple(s for s in trait.specialties if fold(s) != fold(text))
    if len(kept) == len(trait.specialties):
        return Refusal.of(RefusalCode.SPECIALTY_MISSING, skill=trait.name, specialty=text[:80],
                          specialties=names(trait.specialties))
    return _replace_trait(sheet, trait.model_copy(update={"specialties": kept}))


def named_text(kept: Iterable[str], text: str) -> str | None:
    """The specialty or Condition of ``kept`` that ``text`` names, as the sheet keeps it
    (what a refusal or a confirmation repeats: ``Boxe``, whoever typed ``boxe``), matched
    as trait names are (case, spaces, accents, hyphens and apostrophes aside), by the
    whole name (no prefix: a specialty or a Condition is the player's own words)."""
    key = fold(text)
    return next((item for item in kept if fold(item) == key), None)


def _replace_trait(sheet: Character, trait: Trait) -> Character:
    key = fold(trait.name)
    traits = tuple(trait if fold(t.name) == key else t for t in sheet.traits)
    return _rebuilt(sheet, traits=traits)


def add_condition(sheet: Character, text: str) -> Character | Refusal:
    """A Condition on the sheet (at most 30)."""
    text = " ".join(text.split())
    refused = _text_refusal(text)
    if refused is not None:
        return refused
    kept = named_text(sheet.conditions, text)
    if kept is not None:  # named as the sheet keeps it
        return Refusal.of(RefusalCode.CONDITION_EXISTS, condition=kept)
    if len(sheet.conditions) >= MAX_CONDITIONS:
        return Refusal.of(RefusalCode.TOO_MANY_CONDITIONS, max=MAX_CONDITIONS)
    return _rebuilt(sheet, conditions=(*sheet.conditions, text))


def remove_condition(sheet: Character, text: str) -> Character | Refusal:
    """Resolve a Condition (its name matched as trait names are)."""
    kept = tuple(c for c in sheet.conditions if fold(c) != fold(text))
    if len(kept) == len(sheet.conditions):
        return Refusal.of(RefusalCode.CONDITION_MISSING, condition=text[:80],
                          conditions=names(sheet.conditions))
    return _rebuilt(sheet, conditions=kept)


def renamed(sheet: Character, name: str) -> Character | Refusal:
    """The sheet under a new name."""
    return name_refusal(name) or _rebuilt(sheet, name=" ".join(name.split()))


def with_will(sheet: Character, current: int) -> Character:
    """The sheet with current Will set (0 to its maximum: the caller checked)."""
    if not 0 <= current <= sheet.will_max:
        msg = f"current Will {current} outside 0-{sheet.will_max}"
        raise ValueError(msg)
    return sheet.model_copy(update={"will": current})


def beat_added(sheet: Character) -> Character:
    """One more Beat; every 5 Beats become 1 Experience (RULES.md §6)."""
    beats = sheet.beats + 1
    return sheet.model_copy(update={
        "beats": beats % BEATS_PER_EXPERIENCE,
        "experience": sheet.experience + beats // BEATS_PER_EXPERIENCE,
    })


# --- export and import -----------------------------------------------------------------


def exported(sheet: Character) -> str:
    """The sheet as the JSON file ``/character export`` gives (stable: keys in model order)."""
    return sheet.model_dump_json(indent=2)


def imported(data: bytes) -> Character | tuple[Refusal, ...]:
    """A sheet read back from an exported file, or every problem found (nothing kept).

    A file nested deeper than Python can follow (``[[[[…]]]]``, a few kilobytes of it) is
    no sheet either: reading it, or showing a part of it, raises RecursionError, which is
    refused as a file that is not a sheet."""
    if len(data) > MAX_IMPORT_BYTES:
        return (Refusal.of(RefusalCode.IMPORT_TOO_LARGE, size=len(data), max=MAX_IMPORT_BYTES),)
    try:
        return _read_sheet(data)
    except RecursionError:
        return (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)


def _read_sheet(data: bytes) -> Character | tuple[Refusal, ...]:
    """:func:`imported` for a file of an acceptable size."""
    try:
        raw = json.loads(data.decode("utf-8-sig"))  # a byte-order mark is no problem
    except (UnicodeDecodeError, json.JSONDecodeError):
        return (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)
    if not isinstance(raw, dict):
        return (Refusal.of(RefusalCode.IMPORT_NOT_JSON),)
    if raw.get("schema_version") != SCHEMA_VERSION:
        return (Refusal.of(RefusalCode.IMPORT_SCHEMA_VERSION,
                           version=str(raw.get("schema_version"))[:20], known=SCHEMA_VERSION),)
    try:
        sheet = Character.model_validate(raw)
    except ValidationError as error:
        return tuple(_field_problem(problem) for problem in error.errors())
    problems = sheet_problems(sheet)
    # The name as /character create keeps it: its spaces trimmed and single.
    return problems or sheet.model_copy(update={"name": " ".join(sheet.name.split())})


#: The bound a field broke, by where pydantic's error context keeps it.
_BOUNDS: Final = ("max_length", "min_length", "le", "ge", "lt", "gt")


def _field_problem(problem: ErrorDetails) -> Refusal:
    """One field of an import file that is not as a sheet has it: where (``traits.0.value``),
    pydantic's kind of problem (render words the usual ones in the member's language), the
    bound it broke or the choices it allows (``limit``, ``choices``), and pydantic's own
    English sentence for the rest (``detail``). A problem of the file as a whole (no
    place) has no ``field``: render words it in the member's language."""
    context = problem.get("ctx", {})
    limit = next((context[key] for key in _BOUNDS if key in context), None)
    expected = re.findall(r"'([^']*)'", str(context.get("expected", "")))
    params: dict[str, int | str] = {"problem": problem["type"], "detail": problem["msg"][:200]}
    field = ".".join(str(part) for part in problem["loc"])[:100]
    if field:
        params["field"] = field
    if isinstance(limit, int):
        params["limit"] = limit
    if expected:
        params["choices"] = names(expected)
    return Refusal(code=RefusalCode.IMPORT_FIELD, params=params)


def _texts_refused(texts: Sequence[str], field: str) -> list[Refusal]:
    """The refusals of a file's texts (its conditions, a trait's specialties) that a sheet
    cannot hold, each with its place in the file (``field``: ``conditions.3``): the same
    sentence for each would not say which."""
    return [Refusal.of(RefusalCode.SHEET_TEXT_INVALID, max=MAX_TEXT, field=f"{field}.{at}")
            for at, text in enumerate(texts) if _text_refusal(text) is not None]


def sheet_problems(sheet: Character) -> tuple[Refusal, ...]:
    """What a structurally valid sheet breaks of the rules that span fields."""
    problems: list[Refusal] = []
    refused = name_refusal(sheet.name)
    if refused is not None:
        problems.append(refused)
    seen: set[str] = set()
    for index, trait in enumerate(sheet.traits):
        key = fold(trait.name)
        if key in seen:
            problems.append(Refusal.of(RefusalCode.TRAIT_DUPLICATE, name=trait.name))
        seen.add(key)
        if not _is_trait_name(trait.name):
            problems.append(Refusal.of(RefusalCode.TRAIT_NAME_INVALID, name=trait.name,
                                       max=MAX_TRAIT_NAME))
        high = value_limit(sheet.template, trait.name)
        if trait.value > high:
            problems.append(Refusal.of(RefusalCode.TRAIT_VALUE_RANGE, trait=trait.name,
                                       value=trait.value, high=high))
        if trait.specialties and trait.group is not TraitGroup.SKILL:
            problems.append(Refusal.of(RefusalCode.SPECIALTY_NOT_SKILL, trait=trait.name))
        problems.extend(_texts_refused(trait.specialties, f"traits.{index}.specialties"))
    if sum(len(t.specialties) for t in sheet.traits) > MAX_SPECIALTIES:
        problems.append(Refusal.of(RefusalCode.TOO_MANY_SPECIALTIES, max=MAX_SPECIALTIES))
    problems.extend(_texts_refused(sheet.conditions, "conditions"))
    if sheet.will > sheet.will_max:
        problems.append(Refusal.of(RefusalCode.WILL_ABOVE_MAXIMUM, will=sheet.will,
                                   maximum=sheet.will_max))
    return tuple(problems)


# --- pools by trait name -------------------------------------------------------------


def _prefixed(keys: list[str], key: str) -> list[str]:
    """The sorted ``keys`` that start with ``key``."""
    start = end = bisect.bisect_left(keys, key)
    while end < len(keys) and keys[end].startswith(key):
        end += 1
    return keys[start:end]


def _lookup(sheet: Character, name: str) -> _Entry | Refusal:
    """The trait ``name`` names (in English or another language of the bot): exactly, else
    by a unique prefix of the traits' own names, else of their names in other languages;
    or why not, with the closest names.

    The refusal's lists name each trait once, by the sheet's own name (English for a
    template's trait), whichever of its names matched: render shows them in the table's
    language (engine.trait_names' Decision), where the spelling that matched mixed
    languages (a Portuguese Armas de Fogo among Spanish names at a Spanish table)."""
    index = sheet._index
    key = fold(name)
    entry = index.named(key)
    if entry is not None:
        return entry
    found = {k: index.entries[k] for k in _prefixed(index.keys, key)}
    if not found:
        # Other languages' names: one match per trait (its first name matching).
        for alias in _prefixed(_ALIAS_KEYS, key):
            entry = index.alias(alias)
            if entry is not None:
                found.setdefault(entry.key, entry)
    if len(found) == 1 and key:
        return next(iter(found.values()))
    if len(found) > 1:
        matches = sorted((index.entries[k].name for k in found), key=lambda n: (fold(n), n))
        return Refusal.of(RefusalCode.TRAIT_AMBIGUOUS, name=name, matches=names(matches[:6]))
    return Refusal.of(RefusalCode.TRAIT_UNKNOWN, name=name, closest=names(_closest(index, key)))


def _closest(index: _Index, key: str) -> list[str]:
    """Up to 3 traits close to ``key``, by the sheet's own names: among the traits' own
    names, unless a name in another language is the closest of all (then among every
    name, one per trait)."""
    aliases = {alias: entry for alias in _ALIAS_KEYS if (entry := index.alias(alias))}
    names = [*index.keys, *aliases]
    # Every close name, not a few: several may be one trait's (its own and its names in
    # other languages), and three traits are offered when three are close.
    every = difflib.get_close_matches(key, names, n=len(names), cutoff=0.5)
    if not every or every[0] not in aliases:
        own = difflib.get_close_matches(key, index.keys, n=3, cutoff=0.5)
        return [index.entries[k].name for k in own]
    shown: dict[str, str] = {}
    for close in every:
        trait = (aliases.get(close) or index.entries[close]).key
        shown.setdefault(trait, index.entries[trait].name)
    return list(shown.values())[:3]


class Resolved(Frozen):
    """A pool resolved against a sheet: the terms (names, numbers, sources) and what the
    sheet says about them."""

    terms: tuple[Term, ...]
    skills: tuple[str, ...] = ()
    """The Skills the pool named from the sheet, in order (the first is "the Skill")."""
    attribute_and_skill: int = 0
    """Sum of the named traits (typed or from the sheet): the `cofd` extended roll limit."""
    skill_dots: int | None = None
    """The first named Skill's dots (the `cofd` exceptional choice), if a Skill is named."""
    untrained: SkillCategory | None = None
    """The untrained category the sheet implies (the larger penalty), if any."""
    untrained_skill: str | None = None
    specialty: str | None = None
    """``Skill: specialty`` when the roll's ``spec`` named one of the named Skills'."""


def resolve(
    parts: Iterable[NamedPart], sheet: Character | None, *, spec: str | None = None
) -> Resolved | Refusal:
    """Numbers for a pool's names from ``sheet``: a typed number wins; a bare name is the
    sheet's trait (unique prefix enough); ``spec`` must be a specialty of a named Skill.

    **Decision**: a Skill of the sheet named with a typed number (``Brawl 3``, the dots
    overridden for this roll) is still that Skill for ``spec``: its specialties apply, where
    ``Dexterity + Brawl 3 spec:Boxing`` was refused as having no Skill of the sheet. Only
    its exact name counts (a typed label is the player's own word, so no prefix), and its
    dots are the typed number's: no untrained penalty, no Skill dots from the sheet."""
    terms: list[Term] = []
    skills: list[tuple[Trait, str]] = []
    specialists: list[tuple[Trait, str]] = []  # whose specialties ``spec`` may name
    named = 0
    for part in parts if sheet is None else _whole_names(tuple(parts), sheet):
        if part.value is not None:
            value = -part.value if part.negative else part.value
            source = None if part.label is None else TermSource.TYPED
            terms.append(Term.trusted(label=part.label, value=value, source=source))
            if part.label is not None and not part.negative:
                named += part.value
                own = None if sheet is None else sheet.trait(part.label)
                if own is not None and own.group is TraitGroup.SKILL:
                    specialists.append((own, part.label))
            continue
        if sheet is None:
            return Refusal.of(RefusalCode.CHARACTER_NONE, name=part.label or "")
        found = _lookup(sheet, part.label or "")
        if isinstance(found, Refusal):
            return found
        shown = found.spelled(part.label or "")
        terms.append(Term.trusted(label=shown, source=found.source,
                                  value=-found.value if part.negative else found.value))
        if not part.negative:
            named += found.value
            if found.trait is not None and found.trait.group is TraitGroup.SKILL:
                skills.append((found.trait, shown))
                specialists.append((found.trait, shown))
    specialty = None
    if spec is not None:
        specialty = _specialty(specialists, spec)
        if isinstance(specialty, Refusal):
            return specialty
    untrained = [(t, shown) for t, shown in skills if t.value == 0]
    category = untrained_skill = None
    if untrained:
        # Two 0-dot Skills: the larger penalty, once (RULES.md §6), and the breakdown names
        # the Skill it comes from.
        category = min((t.category for t, _ in untrained if t.category is not None),
                       key=lambda c: c is not SkillCategory.MENTAL, default=SkillCategory.PHYSICAL)
        untrained_skill = next((shown for t, shown in untrained if t.category is category),
                               untrained[0][1])
    return Resolved.trusted(
        terms=tuple(terms),
        skills=tuple(shown for _, shown in skills),
        attribute_and_skill=named + (1 if specialty else 0),
        skill_dots=skills[0][0].value if skills else None,
        untrained=category,
        untrained_skill=untrained_skill,
        specialty=specialty,
    )


def _whole_names(parts: tuple[NamedPart, ...], sheet: Character) -> Iterator[NamedPart]:
    """``parts`` with each word and the number after it that spell a trait of ``sheet`` whole
    read as that trait: a name may hold digits (RULES.md §6: ``Area 51``, ``Area-51``), which
    the pool reads as a typed number (``Area 51``, ``Area51``) or a number subtracted
    (``Area-51``). **Decision**: the sheet's exact name wins over both readings (no prefix:
    ``Are 51`` keeps its typed 51), so every name the sheet accepts can be rolled by name;
    elsewhere a word followed by a number keeps that number (§6's Decision)."""
    index = 0
    while index < len(parts):
        part = parts[index]
        after = parts[index + 1] if index + 1 < len(parts) else None
        if part.label is not None and part.value is not None:
            whole = f"{part.label} {part.value}"
            if sheet.value(whole) is not None:
                part = NamedPart(label=whole, value=None, negative=part.negative)
        elif (part.label is not None and after is not None and after.label is None
              and after.value is not None and after.negative):
            whole = f"{part.label}-{after.value}"
            if sheet.value(whole) is not None:
                part = NamedPart(label=whole, value=None, negative=part.negative)
                index += 1
        yield part
        index += 1


def _specialty(skills: list[tuple[Trait, str]], spec: str) -> str | Refusal:
    """The specialty ``spec`` names among the named Skills', as ``Skill: specialty`` (the
    Skill as the pool named it)."""
    key = fold(spec)
    for trait, shown in skills:
        for specialty in trait.specialties:
            if fold(specialty) == key or (key and fold(specialty).startswith(key)):
                return f"{shown}: {specialty}"
    if not skills:
        return Refusal.of(RefusalCode.SPECIALTY_NO_SKILL, specialty=spec[:80])
    have = [f"{shown}: {s}" for t, shown in skills for s in t.specialties]
    return Refusal.of(RefusalCode.SPECIALTY_UNKNOWN, specialty=spec[:80],
                      skills=names(shown for _, shown in skills), specialties=names(have))


def with_sheet(request: RollRequest, resolved: Resolved, character: str | None) -> RollRequest:
    """The request with the sheet's automatic adjustments (RULES.md §6), unless the roll's
    own option already says otherwise: the specialty named by ``spec``; untrained from a
    0-dot Skill (`cofd` penalty by category, `fistful` unskilled; `v20` none)."""
    update: dict[str, Any] = {}
    notes: dict[str, Any] = {}
    if resolved.specialty is not None and request.ruleset is not Ruleset.FISTFUL:
        update["specialty"] = True
        notes["specialty"] = resolved.specialty
    elif resolved.specialty is not None:
        # fistful: +1 die, as cofd (RULES.md §6); it has no specialty option.
        update["terms"] = (*request.terms, Term(label=resolved.specialty, value=1,
                                                source=TermSource.SHEET))
        notes["specialty"] = resolved.specialty
    if (resolved.untrained is not None and request.untrained is None
            and request.ruleset is not Ruleset.V20):
        update["untrained"] = resolved.untrained
        notes["untrained"] = resolved.untrained_skill
    if character is not None:
        notes["character"] = character
    if notes:
        update["sheet"] = SheetNotes(**notes)
    return request.model_copy(update=update) if update else request


#: The traits a roll's resistance may name (RULES.md §6).
RESIST_TRAITS: Final = ("Resolve", "Stamina", "Composure", "Defense")


def resist_trait(name: str) -> str | Refusal:
    """The resistance trait ``name`` names, matched as a pool's names are (case, spaces
    and accents aside, in English or another language of the bot, a unique prefix enough:
    ``comp`` is Composure, ``Autocontrole`` too); or why not."""
    key = fold(name)
    spelled = {trait: {fold(trait), *(k for k, _ in _ALIASES[fold(trait)].values())}
               for trait in RESIST_TRAITS}
    exact = [trait for trait in RESIST_TRAITS if key in spelled[trait]]
    found = (exact
             or [trait for trait in RESIST_TRAITS if key and fold(trait).startswith(key)]
             or [trait for trait in RESIST_TRAITS
                 if key and any(k.startswith(key) for k in spelled[trait])])
    if len(found) == 1:
        return found[0]
    return Refusal.of(RefusalCode.RESIST_TRAIT, trait=name.strip()[:MAX_TRAIT_NAME])


def resistance(sheet: Character, trait: str) -> int | Refusal:
    """The target's ``trait`` (one of :data:`RESIST_TRAITS`, Defense derived unless set by
    hand); refused when the sheet has none (a `v20` sheet has no Composure)."""
    value = sheet.value(trait)
    if value is None:
        return Refusal.of(RefusalCode.RESIST_NOT_ON_SHEET, trait=trait, character=sheet.name)
    return value


def with_resistance(request: RollRequest, trait: str, value: int, target: str) -> RollRequest:
    """The request with the target's trait subtracted (`cofd` ``resist``), the breakdown's
    reason naming the trait and whose sheet it came from."""
    notes = request.sheet or SheetNotes()
    return request.model_copy(update={
        "resist": value,
        "sheet": notes.model_copy(update={"resist": trait, "resist_of": target}),
    })


def initiative_terms(sheet: Character, ruleset: Ruleset) -> tuple[Term, ...]:
    """The sheet's initiative pool (RULES.md §7): `cofd`/`fistful` Dexterity + Composure,
    `v20` Dexterity + Wits; each term named and from the sheet."""
    second = "Wits" if ruleset is Ruleset.V20 else "Composure"
    return tuple(
        Term(label=name, value=sheet.value(name) or 0, source=TermSource.SHEET)
        for name in ("Dexterity", second)
    )


def initiative_pool(sheet: Character, ruleset: Ruleset) -> int:
    """The number a character enters initiative with (RULES.md §7): the sheet's Initiative
    trait when the sheet is of the channel's template (derived, or as set by hand), else
    the channel ruleset's traits (:func:`initiative_terms`). `fistful` rolls it as a pool."""
    if sheet.template is ruleset or {sheet.template, ruleset} == {Ruleset.COFD, Ruleset.FISTFUL}:
        return sheet.value("Initiative") or 0
    return sum(term.value for term in initiative_terms(sheet, ruleset))


#: Discord shows at most 25 autocomplete choices.
MAX_SUGGESTIONS: Final = 25


#: What separates a pool's terms: its signs and brackets (engine.parser's tokens).
_SIGNS: Final = frozenset("+[]\u2212\u2013-")


def _last_sign(sheet: Character, typed: str) -> int:
    """Where the last sign or bracket of a pool typed so far is (-1: none). A hyphen right
    after a letter and before a letter, a digit or the end is a name's own (``Self-C`` on
    a `v20` sheet, which :func:`engine.parser.parse_pool_names` reads as one word;
    ``Area-5`` on a sheet with ``Area-51``, which :func:`resolve` reads whole) when a
    trait's name begins with the word so far; else it is a minus (``Wits-``, ``Wits-Ch``,
    ``Wits-1``: the completion ``Wits- Charisma`` reads as Wits minus Charisma)."""
    for at in range(len(typed) - 1, -1, -1):
        if typed[at] not in _SIGNS:
            continue
        if (typed[at] != "-" or at == 0 or not _word_goes_on(typed[at - 1])
                or (at + 1 < len(typed) and not typed[at + 1].isalnum())):
            return at
        start = at
        while start > 0 and (_word_goes_on(typed[start - 1]) or typed[start - 1] == "-"):
            start -= 1
        begun = typed[start:].lstrip("-").casefold()
        if not any(name.casefold().startswith(begun) for name, _ in sheet.entries()):
            return at
    return -1


def _word_goes_on(char: str) -> bool:
    """Whether a pool's word goes on past ``char`` (engine.parser): a letter, a combining
    mark or an apostrophe."""
    return char.isalpha() or char in "'\u2019" or unicodedata.category(char).startswith("M")


def suggestions(
    sheet: Character, typed: str, language: str | None = None
) -> tuple[tuple[str, str], ...]:
    """Autocomplete for a ``pool`` option: the text typed so far with its last word
    completed to each trait it may name, as (shown ``Wits 3``, value ``Wits``); the
    pool's earlier terms are kept in both. Prefix matches first, then names containing
    the word; at most 25. With ``language`` (a code of :mod:`engine.trait_names`), a
    template trait is offered under its name in that language first, else its own. In
    full: the edge keeps Discord's limits (:func:`bot.edge.completion.choices`), leaving
    out a completion too long rather than cutting the trait's name off."""
    cut = _last_sign(sheet, typed)
    head, word = typed[: cut + 1], typed[cut + 1 :].strip()
    if head and not head.endswith(" "):
        head += " "
    key = fold(word)
    first: list[tuple[str, int]] = []
    more: list[tuple[str, int]] = []
    index = sheet._index
    for own, entry in index.entries.items():
        spellings = [(own, entry.name)]
        local = _ALIASES.get(own, {}).get(language or "")
        if local is not None and index.alias(local[0]) is not None:
            spellings.insert(0, local)
        value = entry.value
        prefix = next((n for k, n in spellings if k.startswith(key)), None)
        inside = next((n for k, n in spellings if key and key in k), None)
        if prefix is not None:
            first.append((prefix, value))
        elif inside is not None:
            more.append((inside, value))
    return tuple(
        (f"{head}{name} {value}", f"{head}{name}")
        for name, value in (first + more)[:MAX_SUGGESTIONS]
    )
