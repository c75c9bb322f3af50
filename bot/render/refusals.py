"""The words of every engine refusal: one sentence per :class:`RefusalCode`.

The engine answers a refusal as a code and its parameters; this is the one
place that words them. Plain text, lower case, no final stop: callers wrap it
(``refusal()`` capitalises it as a reply, ``cannot_roll()`` prefixes it, the
command line prints it as is). No Discord here, so the command line can use it.

The pool parser's refusals (``POOL_*``) are the exception: each is a whole sentence,
capitalised and with its final stop, shown after "I could not read that pool:" or
printed as a usage error. They quote the text's bits as typed, except a stray
character that is invisible or Discord markup: that one is named (``U+200B``).
"""

from __future__ import annotations

import unicodedata
from string import Formatter
from typing import Final

from engine.refusals import Refusal, RefusalCode

__all__ = ["refusal_text"]

#: Shown where a refusal lacks a parameter its sentence names.
_MISSING: Final = "?"
#: Parameters that are lists of names, comma-separated by the engine.
_LISTS: Final = frozenset({"options", "choices", "rulesets", "closest", "matches", "skills",
                           "specialties", "conditions"})
#: Characters Discord reads as markdown or mentions: named, never echoed.
_MARKUP: Final = frozenset("*_`~|\\<>@")

_C = RefusalCode
_TEXTS: Final[dict[RefusalCode, str]] = {
    _C.LEGACY: "{text}",
    # a single roll
    _C.OPTION_NOT_IN_RULESET: "{options} does not apply to the {ruleset} ruleset",
    _C.OUT_OF_RANGE: "{option} {value} is out of range: it must be {low} to {high}",
    _C.WILL_CANNOT_HELP: (
        "Willpower cannot help: the pool is {pool}, and {pool} + {will_dice} is still "
        "below 1 die; roll without Willpower for a chance die"
    ),
    _C.POOL_TOO_LARGE: "a pool of {dice} dice is too large: at most {max} dice can be rolled",
    _C.DIFFICULTY_TOO_LOW: (
        "the difficulty would be {difficulty}: it can be lowered to {low} at most"
    ),
    _C.DIFFICULTY_TOO_HIGH: (
        "this action cannot be taken: its difficulty would be {difficulty} "
        "({base} raised by {raised}), and an action raised to {high} or more cannot be attempted"
    ),
    _C.NO_DICE: "the pool is {pool}: with no dice the action cannot be rolled",
    _C.NO_DICE_WITH_WILL: (
        "the pool is {pool}: with no dice the action cannot be rolled, "
        "and Willpower does not change that"
    ),
    _C.AUTO_WITH_WILL: "an automatic success cannot be combined with Willpower",
    _C.AUTO_BELOW_DIFFICULTY: (
        "an automatic success needs a pool of at least the difficulty: "
        "the pool is {pool} and the difficulty {difficulty}"
    ),
    _C.NO_ACTION_NOW: "the pool is {pool}: with no dice the character cannot take this action now",
    _C.NO_ACTION_NOW_WITH_WILL: (
        "the pool is {pool}: with no dice the character cannot take this action now "
        "(Will cannot rescue it)"
    ),
    # after the roll
    _C.WILL_NOTHING_ROLLED: "no roll happened, so there is nothing to spend Willpower on",
    _C.WILL_DECLARED: "Willpower was declared with this roll already: once per roll",
    _C.WILL_ALREADY_SPENT: "Willpower was already spent on this roll: once per roll",
    _C.WILL_AFTER_BEAT: "this roll was closed by Take a Beat",
    _C.WILL_AUTOMATIC: "an automatic success has no dice for Willpower to help",
    _C.BEAT_NOT_COFD: "Take a Beat is a cofd rule; this roll is {ruleset}",
    _C.BEAT_ALREADY_TAKEN: "a Beat was already taken on this roll",
    _C.BEAT_NOT_FAILURE: "a Beat can be taken only on a failure (not a dramatic failure)",
    # extended actions
    _C.EXTENDED_WILL: "Willpower is spent on one roll: declare it when rolling, not here",
    _C.EXTENDED_TARGET_RANGE: "the successes required must be 1 to {max}, not {target}",
    _C.EXTENDED_ROLLS_RANGE: "the roll limit must be 1 to {max}, not {rolls}",
    _C.EXTENDED_NO_TARGET: "set the successes required",
    _C.EXTENDED_NO_TARGET_OR_ROLLS: (
        "set the successes required (or, for an ongoing effort, a number of rolls)"
    ),
    _C.EXTENDED_SKILL_COFD_ONLY: "skill is a cofd extended-action rule; this is {ruleset}",
    _C.EXTENDED_CARRY_COFD_ONLY: (
        "a carried penalty is a cofd extended-action rule; this is {ruleset}"
    ),
    _C.EXTENDED_RESISTED_COFD: "a resisted extended action is a v20 or fistful rule; this is cofd",
    _C.EXTENDED_RESISTING_RULESET: "the resisting roll is {against}, but the action is {ruleset}",
    _C.EXTENDED_POOL_REFUSED: "the pool cannot be rolled: {cause}",
    _C.EXTENDED_RESISTING_POOL_REFUSED: "the resisting pool cannot be rolled: {cause}",
    _C.EXTENDED_SKILL_RANGE: "Skill dots must be 0 to {max}, not {skill}",
    _C.EXTENDED_DEFAULT_ROLLS_RANGE: (
        "the roll limit (Attribute + Skill + Specialty) would be {rolls}: "
        "give max_rolls from 1 to {max}"
    ),
    _C.EXTENDED_ENDED: "this extended action has ended ({status})",
    _C.EXTENDED_DECISION_PENDING: "a decision is pending: choose before rolling again",
    _C.EXTENDED_NOT_RESISTED: "this extended action is not resisted",
    _C.EXTENDED_ROLL_RULESET: "the roll is {rolled}, but the action is {ruleset}",
    _C.EXTENDED_RESISTING_ROLL_RULESET: (
        "the resisting roll is {rolled}, but the action is {ruleset}"
    ),
    _C.EXTENDED_ROLL_REFUSED: "the roll did not happen: {cause}",
    _C.EXTENDED_RESISTING_ROLL_REFUSED: "the resisting roll did not happen: {cause}",
    _C.EXTENDED_RESISTING_ROLL_MISSING: "a resisted action needs the resisting roll too",
    _C.EXTENDED_RESISTING_ROLL_UNWANTED: (
        "this action is not resisted: there is no resisting roll"
    ),
    _C.EXTENDED_LAST_ROLL_FINAL: "the last roll of this action can no longer change",
    _C.CHOICE_NOT_OFFERED: "{choice} is not a choice now; the choices are: {choices}",
    _C.CONDITION_NAME_MISSING: "name the Condition you take",
    _C.CONDITION_NAME_UNWANTED: "a Condition name goes only with taking a Condition",
    _C.CONDITION_NAME_LENGTH: "a Condition name is 1 to {max} characters",
    # contests
    _C.CONTEST_ACTOR_RULESET: "the actor's roll is {rolled}, but the contest is {ruleset}",
    _C.CONTEST_OPPONENT_RULESET: "the opponent's roll is {rolled}, but the contest is {ruleset}",
    _C.CONTEST_ACTOR_REFUSED: "the actor's roll did not happen: {cause}",
    _C.CONTEST_OPPONENT_REFUSED: "the opponent's roll did not happen: {cause}",
    # multiple actions
    _C.MULTI_TOO_FEW: "multiple actions need at least two actions, separated by ;",
    _C.MULTI_NOT_V20: "multiple actions are a v20 rule; these actions are {rulesets}",
    _C.MULTI_ACTION_REFUSED: (
        "action {action} of {count}: {cause}; "
        "the whole declaration is refused and nothing was rolled"
    ),
    # the Successive Action Penalty
    _C.SUCCESSIVE_ACTION_NOT_FISTFUL: (
        "the Successive Action Penalty is a fistful rule; this roll is {ruleset}"
    ),
    # teamwork
    _C.HELPER_LIMIT_NOT_V20: "a helper limit is a v20 rule; this channel uses {ruleset}",
    _C.HELPER_LIMIT_NEGATIVE: "the helper limit is 0 or more, not {limit}",
    _C.PRIMARY_CANNOT_HELP: "the primary actor cannot help their own roll",
    _C.ALREADY_HELPED: "this member has already helped: one roll per helper",
    _C.HELPER_RULESET: "the helper's roll is {rolled}, but the teamwork is {ruleset}",
    _C.HELPER_DIFFICULTY_TOO_HIGH: (
        "one more helper would raise the primary's difficulty to {difficulty}, "
        "and an action raised to {high} or more cannot be attempted"
    ),
    _C.HELPER_ROLL_REFUSED: "the helper's roll did not happen: {cause}",
    _C.NOT_A_HELPER: "this member has not helped yet",
    # pool text: whole sentences (see the module's docstring)
    _C.POOL_TEXT_TOO_LONG: "The pool is {length} characters long: at most {max} are allowed.",
    _C.POOL_STRAY_CHARACTER: (
        "A pool cannot contain {char}: use numbers, trait names, +, - and [ ]."
    ),
    _C.POOL_EMPTY: (
        "The pool is empty: write a number of dice, such as “7” or “Strength 3 + Brawl 2”."
    ),
    _C.POOL_UNOPENED_BRACKET: (
        "“]” closes a bracket that was never opened: remove it or add a “[” before it."
    ),
    _C.POOL_UNCLOSED_BRACKET: "“[” is never closed: add a “]” after the terms it groups.",
    _C.POOL_EMPTY_BRACKETS: "“[]” is empty: put terms inside the brackets or remove them.",
    _C.POOL_TOO_DEEP: "“[” is nested too deep: brackets can go at most {max} levels deep.",
    _C.POOL_TWO_SIGNS: "“{first} {second}” has two signs in a row: keep only one.",
    _C.POOL_SIGN_WITHOUT_TERM: "“{sign}” needs a number or a trait and its number after it.",
    _C.POOL_TWO_NUMBERS: "Two numbers in a row: put + or - between “{previous}” and “{next}”.",
    _C.POOL_MISSING_OPERATOR: "Missing + or - between “{previous}” and “{next}”.",
    _C.POOL_LABEL_WITHOUT_NUMBER: (
        "“{label}” has no number: write it as “{label} 3” (character sheets are not supported yet)."
    ),
    _C.POOL_LABEL_TOO_LONG: "“{label}” is too long for a trait name: at most {max} characters.",
    _C.POOL_NUMBER_TOO_LARGE: "“{number}” is too large: a number can be at most {max}.",
    _C.POOL_TOO_MANY_TERMS: (
        "The pool has more than {max} terms: add some of the numbers together."
    ),
    _C.POOL_OVER_MAX_DICE: (
        "The pool is over {max} dice: its terms add up to {total} "
        "before penalties, and at most {max} dice can be rolled."
    ),
    _C.POOL_DICE_NOTATION: (
        "“{written}” is another dice bot's notation: here every die is a d10 and a pool is"
        " its number of dice, so write “{dice}” (add or take away dice with + and -,"
        " e.g. “Strength 3 + Brawl 2 - 1”)."
    ),
    _C.POOL_DICE_WORD: (
        "Write just the number of dice: “{dice}” (or name them, e.g. “Strength 3 + Brawl 2”)."
    ),
    # initiative
    _C.INIT_ALREADY_RUNNING: "this channel already has an initiative tracker",
    _C.INIT_ENDED: "this initiative tracker is over",
    _C.INIT_STORYTELLER_ONLY: (
        "only the Storyteller can do that ({move}) on the initiative tracker"
    ),
    _C.INIT_EMPTY: "nobody is in the initiative order yet: join or add combatants first",
    _C.INIT_NOT_YOUR_TURN: (
        "it is {name}'s turn: only their player or the Storyteller can pass or delay it"
    ),
    _C.INIT_NOBODY_ACTING: "nobody is acting yet: the Storyteller presses Next to start round 1",
    _C.INIT_DELAY_ALONE: "the only combatant in the order cannot delay: nobody else would act",
    _C.INIT_NOT_DELAYED: "you have no delayed combatant to bring back",
    _C.INIT_TURN_MOVED: "the turn already moved on (another press came first)",
    _C.INIT_ALREADY_JOINED: "you are already in the fight as {name}: one combatant per member",
    _C.INIT_FULL: (
        "a tracker holds at most {max} combatants, and this would make {count}"
    ),
    _C.INIT_GROUP_RANGE: "a group is 1 to {max} combatants, not {count}",
    _C.INIT_MODIFIER_RANGE: "the modifier must be {low} to {high}, not {modifier}",
    _C.INIT_NAME_LENGTH: "a combatant's name is 1 to {max} characters",
    _C.INIT_NAME_MENTION: (
        "a combatant's name cannot mention anyone (everyone, here, a member or a role)"
    ),
    _C.INIT_NAME_TAKEN: (
        "a combatant called {name} is already in the fight: pick another name"
    ),
    _C.INIT_NO_SUCH_COMBATANT: (
        "nobody called {name} is in the fight (use a name as the card shows it, "
        "or a group's name for all of it)"
    ),
    _C.INIT_ROLL_REFUSED: "the initiative roll cannot be made: {cause}",
    # characters
    _C.CHARACTER_NONE: (
        "“{name}” is a trait name, and you have no active character: make one with "
        "/character create, pick one with /character use, or type the number (“{name} 3”)"
    ),
    _C.TRAIT_UNKNOWN: "the sheet has no trait “{name}” (closest: {closest})",
    _C.TRAIT_AMBIGUOUS: "“{name}” could be {matches}: type more of the name",
    _C.TRAIT_NAME_INVALID: (
        "“{name}” cannot be a trait name: up to {max} letters, digits, spaces, ' or -, "
        "starting with a letter"
    ),
    _C.TRAIT_VALUE_RANGE: "{trait} {value} is out of range: it must be 0 to {high}",
    _C.TRAIT_DUPLICATE: "the trait “{name}” is listed twice",
    _C.TOO_MANY_TRAITS: "a sheet holds at most {max} traits",
    _C.TRAITS_UNREADABLE: (
        "I could not read “{part}”: write each trait as a name and a number, "
        "separated by commas (Wits 3, Composure 2)"
    ),
    _C.SPECIALTY_NOT_SKILL: "{trait} is not a Skill: specialties go on Skills (Abilities in v20)",
    _C.SPECIALTY_EXISTS: "{skill} already has the specialty “{specialty}”",
    _C.SPECIALTY_MISSING: "{skill} has no specialty “{specialty}” (it has: {specialties})",
    _C.SPECIALTY_NO_SKILL: (
        "the specialty “{specialty}” needs a Skill of the sheet in the pool (Dexterity + Brawl)"
    ),
    _C.SPECIALTY_UNKNOWN: (
        "{skills} has no specialty “{specialty}” (specialties: {specialties}); add one with "
        "/character specialty"
    ),
    _C.TOO_MANY_SPECIALTIES: "a sheet holds at most {max} specialties",
    _C.SHEET_TEXT_INVALID: "write 1 to {max} characters on one line",
    _C.CONDITION_EXISTS: "the sheet already has the Condition “{condition}”",
    _C.CONDITION_MISSING: "the sheet has no Condition “{condition}” (it has: {conditions})",
    _C.TOO_MANY_CONDITIONS: "a sheet holds at most {max} Conditions",
    _C.CHARACTER_NAME_LENGTH: "a character's name has 1 to {max} characters",
    _C.CHARACTER_NAME_CONTROL: "a character's name is one line of visible characters",
    _C.WILL_ABOVE_MAXIMUM: "current Will {will} is above the Will maximum {maximum}",
    _C.IMPORT_TOO_LARGE: "the file has {size} bytes: a sheet file is at most {max} bytes",
    _C.IMPORT_NOT_JSON: (
        "the file is not a sheet in JSON: export one with /character export to see the shape"
    ),
    _C.IMPORT_SCHEMA_VERSION: (
        "the file's schema_version is {version}: this bot reads version {known}"
    ),
    _C.IMPORT_FIELD: "{field}: {detail}",
    _C.RESIST_TRAIT: (
        "resistance by name is Resolve, Stamina, Composure or Defense, not “{trait}”"
    ),
    _C.RESIST_NO_TARGET: (
        "resisting with {trait} needs resist_target: the member (@member) or the character's "
        "name whose {trait} it is"
    ),
    _C.RESIST_TARGET_ALONE: (
        "resist_target says whose sheet resist reads: give resist a trait name too "
        "(resist:Composure resist_target:@member)"
    ),
    _C.RESIST_TARGET_NO_CHARACTER: (
        "that member has no active character in this server: they can make one with "
        "/character create, or name a character with resist_target:<name>"
    ),
    _C.RESIST_TARGET_UNKNOWN: (
        "no character in this server is named “{name}”: give a character's name or "
        "mention a member (resist_target:@member)"
    ),
    _C.RESIST_TARGET_AMBIGUOUS: (
        "{count} characters in this server are named “{name}”: mention the member whose "
        "character it is instead (resist_target:@member)"
    ),
    _C.RESIST_NOT_ON_SHEET: "{character}'s sheet has no {trait} to resist with",
}


def _shown(char: str) -> str:
    """A stray character quoted, or named if it is invisible or Discord markup.

    Invisible characters (zero-width space, bidi marks) come with pasted text
    and would otherwise show as an empty quote.
    """
    if char.isprintable() and not _MARKUP & set(char):
        return f"“{char}”"
    name = unicodedata.name(char, "") if len(char) == 1 else ""
    points = " ".join(f"U+{ord(point):04X}" for point in char)
    return f"the character {points}" + (f" ({name})" if name else "")


#: Parameters that are a member's text (names, specialties, Conditions): shown escaped.
_USER_TEXT: Final = frozenset({"name", "trait", "skill", "specialty", "condition", "part",
                               "closest", "matches", "skills", "specialties", "conditions",
                               "field", "detail", "version", "character"})


def _plain(text: str) -> str:
    """Member's text with Discord's markup and mention characters backslash-escaped."""
    return "".join(f"\\{c}" if c in _MARKUP else c for c in text)


def _word(key: str, value: int | str) -> str:
    """One parameter as words: lists spaced out, a stray ``char`` quoted or named, a
    member's text escaped."""
    if key in _USER_TEXT:
        value = _plain(str(value))
    if key in _LISTS:
        listed = ", ".join(str(value).split(","))
        return listed or "none"
    if key == "char":
        return _shown(str(value))
    return str(value)


class _Words(dict[str, str]):
    """A refusal's parameters as words; one it lacks shows as ``?`` rather than failing."""

    def __missing__(self, key: str) -> str:
        return _MISSING


def refusal_text(refusal: Refusal | None) -> str:
    """The sentence for ``refusal`` (a cause is worded inside it); empty for None."""
    if refusal is None:
        return ""
    words = _Words((key, _word(key, value)) for key, value in refusal.params.items())
    if refusal.cause is not None:
        words["cause"] = refusal_text(refusal.cause)
    template = _TEXTS.get(refusal.code, "{code}")
    words.setdefault("code", str(refusal.code))
    return Formatter().vformat(template, (), words)
