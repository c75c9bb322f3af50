"""The words of every engine refusal: one sentence per :class:`RefusalCode`.

The engine answers a refusal as a code and its parameters; this is the one
place that words them. Plain text, lower case, no final stop: callers wrap it
(``refusal()`` capitalises it as a reply, ``cannot_roll()`` prefixes it, the
command line prints it as is). No Discord here, so the command line can use it.

The pool parser's refusals (``POOL_*``) are the exception: each is a whole sentence,
capitalised and with its final stop, shown after "I could not read that pool:" or
printed as a usage error after "error:", its first letter lowered there
(:func:`uncapitalised`; so each opens with a common word or a quote, never a name, in
every language). They quote the text's bits as typed, except a stray character that is invisible or
Discord markup: that one is named (``U+200B``).
"""

from __future__ import annotations

import unicodedata
from string import Formatter
from typing import Final

from bot.render.lang import N_, _, n_, p_, user
from engine.refusals import Refusal, RefusalCode
from engine.text import BLANKS
from engine.trait_names import localised

__all__ = ["refusal_text", "uncapitalised"]

#: Shown where a refusal lacks a parameter its sentence names.
_MISSING: Final = "?"
#: Parameters that are lists of names, comma-separated by the engine.
_LISTS: Final = frozenset({"options", "choices", "rulesets", "closest", "matches", "skills",
                           "specialties", "conditions"})
#: Parameters that are lists of a sheet's traits by the sheet's own names (English for a
#: template's traits): shown in the table's language when the caller knows it.
_TRAIT_LISTS: Final = frozenset({"closest", "matches"})
#: Refusals naming one trait of a sheet by the sheet's own name (English for a template's
#: trait), and which parameter: shown in the table's language when the caller knows it,
#: as the table's cards name the trait; another language's name, as typed, stays as it is.
#: (``RESIST_TRAIT``'s and ``TRAIT_UNKNOWN``'s names are as typed: they are not the sheet's.)
_TRAIT_NAMED: Final[dict[RefusalCode, str]] = {
    RefusalCode.SPECIALTY_EXISTS: "skill",
    RefusalCode.SPECIALTY_MISSING: "skill",
    RefusalCode.SPECIALTY_NOT_SKILL: "trait",
    RefusalCode.TRAIT_VALUE_RANGE: "trait",
    RefusalCode.RESIST_NOT_ON_SHEET: "trait",
    RefusalCode.RESIST_NO_TARGET: "trait",
}
#: Characters Discord reads as markdown or mentions: named, never echoed.
_MARKUP: Final = frozenset("*_`~|\\<>@")

#: Parameters that are names players type as they are in every language (options,
#: rulesets, choices) or bits of a pool as typed: shown verbatim, never translated.
_VERBATIM: Final = frozenset({"options", "option", "ruleset", "rulesets", "against", "rolled",
                              "choice", "choices", "text", "first", "second", "sign",
                              "previous", "next", "label", "number", "written"})
_C = RefusalCode
_TEXTS: Final[dict[RefusalCode, str]] = {
    _C.LEGACY: N_("{text}"),
    # a single roll (OPTION_NOT_IN_RULESET is worded in refusal_text: its verb agrees)
    _C.OUT_OF_RANGE: N_("{option} {value} is out of range: it must be {low} to {high}"),
    _C.WILL_CANNOT_HELP: N_(
        "Willpower cannot help: the pool is {pool}, and {pool} + {will_dice} is still "
        "below 1 die; roll without Willpower for a chance die"
    ),
    _C.POOL_TOO_LARGE: N_("a pool of {dice} dice is too large: at most {max} dice can be rolled"),
    _C.DIFFICULTY_TOO_LOW: N_(
        "the difficulty would be {difficulty}: it can be lowered to {low} at most"
    ),
    _C.DIFFICULTY_TOO_HIGH: N_(
        "this action cannot be taken: its difficulty would be {difficulty} "
        "({base} raised by {raised}), and an action raised to {high} or more cannot be attempted"
    ),
    _C.NO_DICE: N_("the pool is {pool}: with no dice the action cannot be rolled"),
    _C.NO_DICE_WITH_WILL: N_(
        "the pool is {pool}: with no dice the action cannot be rolled, "
        "and Willpower does not change that"
    ),
    _C.AUTO_WITH_WILL: N_("an automatic success cannot be combined with Willpower"),
    _C.AUTO_BELOW_DIFFICULTY: N_(
        "an automatic success needs a pool of at least the difficulty: "
        "the pool is {pool} and the difficulty {difficulty}"
    ),
    _C.NO_ACTION_NOW: N_(
        "the pool is {pool}: with no dice the character cannot take this action now"
    ),
    _C.NO_ACTION_NOW_WITH_WILL: N_(
        "the pool is {pool}: with no dice the character cannot take this action now "
        "(Will cannot rescue it)"
    ),
    # after the roll
    _C.WILL_NOTHING_ROLLED: N_("no roll happened, so there is nothing to spend Willpower on"),
    _C.WILL_DECLARED: N_("Willpower was declared with this roll already: once per roll"),
    _C.WILL_ALREADY_SPENT: N_("Willpower was already spent on this roll: once per roll"),
    _C.WILL_AFTER_BEAT: N_("this roll was closed by Take a Beat"),
    _C.WILL_AUTOMATIC: N_("an automatic success has no dice for Willpower to help"),
    _C.BEAT_NOT_COFD: N_("Take a Beat is a cofd rule; this roll is {ruleset}"),
    _C.BEAT_ALREADY_TAKEN: N_("a Beat was already taken on this roll"),
    _C.BEAT_NOT_FAILURE: N_("a Beat can be taken only on a failure (not a dramatic failure)"),
    # extended actions
    _C.EXTENDED_WILL: N_("Willpower is spent on one roll: declare it when rolling, not here"),
    _C.EXTENDED_TARGET_RANGE: N_("the successes required must be 1 to {max}, not {target}"),
    _C.EXTENDED_ROLLS_RANGE: N_("the roll limit must be 1 to {max}, not {rolls}"),
    _C.EXTENDED_NO_TARGET: N_("set the successes required with `target` (`target:10`)"),
    _C.EXTENDED_NO_TARGET_OR_ROLLS: N_(
        "set the successes required with `target` or, for an ongoing effort, a number of rolls "
        "with `max_rolls`"
    ),
    # options foreign to the ruleset: named as typed, as OPTION_NOT_IN_RULESET's are
    _C.EXTENDED_SKILL_COFD_ONLY: N_(
        "{option} does not apply to the {ruleset} ruleset (Skill dots for an extended action "
        "are a cofd rule)"
    ),
    _C.EXTENDED_CARRY_COFD_ONLY: N_(
        "a carried penalty is a cofd extended-action rule; this is {ruleset}"
    ),
    _C.EXTENDED_RESISTED_COFD: N_(
        "{option} does not apply to the {ruleset} ruleset (a resisted extended action is a v20 "
        "or fistful rule)"
    ),
    _C.EXTENDED_RESISTING_RULESET: N_(
        "the resisting roll is {against}, but the action is {ruleset}"
    ),
    _C.EXTENDED_POOL_REFUSED: N_("the pool cannot be rolled: {cause}"),
    _C.EXTENDED_RESISTING_POOL_REFUSED: N_("the resisting pool cannot be rolled: {cause}"),
    _C.EXTENDED_SKILL_RANGE: N_("Skill dots must be 0 to {max}, not {skill}"),
    _C.EXTENDED_DEFAULT_ROLLS_RANGE: N_(
        "the roll limit (Attribute + Skill + Specialty) would be {rolls}: "
        "give max_rolls from 1 to {max}"
    ),
    _C.EXTENDED_ENDED: N_("this extended action has ended ({status})"),
    _C.EXTENDED_DECISION_PENDING: N_("a decision is pending: choose before rolling again"),
    _C.EXTENDED_NOT_RESISTED: N_("this extended action is not resisted"),
    _C.EXTENDED_ROLL_RULESET: N_("the roll is {rolled}, but the action is {ruleset}"),
    _C.EXTENDED_RESISTING_ROLL_RULESET: N_(
        "the resisting roll is {rolled}, but the action is {ruleset}"
    ),
    _C.EXTENDED_ROLL_REFUSED: N_("the roll did not happen: {cause}"),
    _C.EXTENDED_RESISTING_ROLL_REFUSED: N_("the resisting roll did not happen: {cause}"),
    _C.EXTENDED_RESISTING_ROLL_MISSING: N_("a resisted action needs the resisting roll too"),
    _C.EXTENDED_RESISTING_ROLL_UNWANTED: N_(
        "this action is not resisted: there is no resisting roll"
    ),
    _C.EXTENDED_LAST_ROLL_FINAL: N_("the last roll of this action can no longer change"),
    _C.CHOICE_NOT_OFFERED: N_("{choice} is not a choice now; the choices are: {choices}"),
    _C.CONDITION_NAME_MISSING: N_("name the Condition you take"),
    _C.CONDITION_NAME_UNWANTED: N_("a Condition name goes only with taking a Condition"),
    _C.CONDITION_NAME_LENGTH: N_("a Condition name is one line of 1 to {max} visible characters"),
    # contests
    _C.CONTEST_ACTOR_RULESET: N_("the actor's roll is {rolled}, but the contest is {ruleset}"),
    _C.CONTEST_OPPONENT_RULESET: N_(
        "the opponent's roll is {rolled}, but the contest is {ruleset}"
    ),
    _C.CONTEST_ACTOR_REFUSED: N_("the actor's roll did not happen: {cause}"),
    _C.CONTEST_OPPONENT_REFUSED: N_("the opponent's roll did not happen: {cause}"),
    # multiple actions
    _C.MULTI_TOO_FEW: N_("multiple actions need at least two actions, separated by ;"),
    _C.MULTI_NOT_V20: N_(
        "multiple actions are a v20 rule and this channel uses {rulesets}: roll each action "
        "with /roll"
    ),
    _C.MULTI_ACTION_REFUSED: N_(
        "action {action} of {count}: {cause}; "
        "the whole declaration is refused and nothing was rolled"
    ),
    # the Successive Action Penalty
    _C.SUCCESSIVE_ACTION_NOT_FISTFUL: N_(
        "the Successive Action Penalty is a fistful rule; this roll is {ruleset}"
    ),
    # teamwork
    _C.HELPER_LIMIT_NOT_V20: N_(
        "{option} does not apply to the {ruleset} ruleset (a helper limit is a v20 rule)"
    ),
    _C.HELPER_LIMIT_NEGATIVE: N_("the helper limit is 0 or more, not {limit}"),
    _C.PRIMARY_CANNOT_HELP: N_("the primary actor cannot help their own roll"),
    _C.ALREADY_HELPED: N_("this member has already helped: one roll per helper"),
    _C.HELPER_RULESET: N_("the helper's roll is {rolled}, but the teamwork is {ruleset}"),
    _C.HELPER_DIFFICULTY_TOO_HIGH: N_(
        "one more helper would raise the primary's difficulty to {difficulty}, "
        "and an action raised to {high} or more cannot be attempted"
    ),
    _C.HELPER_ROLL_REFUSED: N_("the helper's roll did not happen: {cause}"),
    _C.NOT_A_HELPER: N_("this member has not helped yet"),
    # pool text: whole sentences (see the module's docstring)
    _C.POOL_TEXT_TOO_LONG: N_("The pool is {length} characters long: at most {max} are allowed."),
    _C.POOL_STRAY_CHARACTER: N_(
        "A pool cannot contain {char}: use numbers, trait names, +, - and [ ]."
    ),
    _C.POOL_EMPTY: N_(
        "The pool is empty: write a number of dice, such as “7” or “Strength 3 + Brawl 2”."
    ),
    _C.POOL_UNOPENED_BRACKET: N_(
        "“]” closes a bracket that was never opened: remove it or add a “[” before it."
    ),
    _C.POOL_UNCLOSED_BRACKET: N_("“[” is never closed: add a “]” after the terms it groups."),
    _C.POOL_EMPTY_BRACKETS: N_("“[]” is empty: put terms inside the brackets or remove them."),
    _C.POOL_TOO_DEEP: N_("“[” is nested too deep: brackets can go at most {max} levels deep."),
    _C.POOL_TWO_SIGNS: N_("“{first} {second}” has two signs in a row: keep only one."),
    _C.POOL_SIGN_WITHOUT_TERM: N_("“{sign}” needs a number or a trait and its number after it."),
    _C.POOL_TWO_NUMBERS: N_("Two numbers in a row: put + or - between “{previous}” and “{next}”."),
    _C.POOL_MISSING_OPERATOR: N_("Missing + or - between “{previous}” and “{next}”."),
    _C.POOL_LABEL_WITHOUT_NUMBER: N_(
        "“{label}” has no number: give it one here, as in “{label} 3”."
    ),
    _C.POOL_LABEL_TOO_LONG: N_("“{label}” is too long for a trait name: at most {max} characters."),
    _C.POOL_NUMBER_TOO_LARGE: N_("“{number}” is too large: a number can be at most {max}."),
    _C.POOL_TOO_MANY_TERMS: N_(
        "The pool has more than {max} terms: add some of the numbers together."
    ),
    _C.POOL_OVER_MAX_DICE: N_(
        "The pool is over {max} dice: its terms add up to {total} "
        "before penalties, and at most {max} dice can be rolled."
    ),
    _C.POOL_DICE_NOTATION: N_(
        "“{written}” is another dice bot's notation: here every die is a d10 and a pool is"
        " its number of dice, so write “{dice}” (add or take away dice with + and -,"
        " e.g. “Strength 3 + Brawl 2 - 1”)."
    ),
    _C.POOL_DICE_WORD: N_(
        "Write just the number of dice: “{dice}” (or name them, e.g. “Strength 3 + Brawl 2”)."
    ),
    # initiative
    _C.INIT_ALREADY_RUNNING: N_("this channel already has an initiative tracker"),
    _C.INIT_ENDED: N_("this initiative tracker is over"),
    _C.INIT_STORYTELLER_ONLY: N_(
        "only the Storyteller can do that ({move}) on the initiative tracker"
    ),
    _C.INIT_EMPTY: N_("nobody is in the initiative order yet: join or add combatants first"),
    _C.INIT_NOT_YOUR_TURN: N_(
        "it is {name}'s turn: only their player or the Storyteller can pass or delay it"
    ),
    _C.INIT_NOBODY_ACTING: N_(
        "nobody is acting yet: the Storyteller presses Next to start round 1"
    ),
    _C.INIT_DELAY_ALONE: N_("the only combatant in the order cannot delay: nobody else would act"),
    _C.INIT_NOT_DELAYED: N_("you have no delayed combatant to bring back"),
    _C.INIT_TURN_MOVED: N_("the turn already moved on (another press came first)"),
    _C.INIT_ALREADY_JOINED: N_("you are already in the fight as {name}: one combatant per member"),
    _C.INIT_FULL: N_(
        "a tracker holds at most {max} combatants, and this would make {count}"
    ),
    _C.INIT_GROUP_RANGE: N_("a group is 1 to {max} combatants, not {count}"),
    _C.INIT_MODIFIER_RANGE: N_("the modifier must be {low} to {high}, not {modifier}"),
    _C.INIT_NAME_LENGTH: N_("a combatant's name is 1 to {max} characters"),
    _C.INIT_NAME_MENTION: N_(
        "a combatant's name cannot mention anyone (everyone, here, a member or a role)"
    ),
    _C.INIT_NAME_INVISIBLE: N_(
        "a combatant's name is one line of visible characters, and this one holds an"
        " invisible character (such as a zero-width space, often from a paste) or one that"
        " turns text around: type it again by hand"
    ),
    _C.INIT_NAME_TAKEN: N_(
        "a combatant called {name} is already in the fight: pick another name"
    ),
    _C.INIT_NO_SUCH_COMBATANT: N_(
        "nobody called {name} is in the fight (use a name as the card shows it, "
        "or a group's name for all of it)"
    ),
    _C.INIT_ROLL_REFUSED: N_("the initiative roll cannot be made: {cause}"),
    # characters
    _C.CHARACTER_NONE: N_(
        "“{name}” is a trait name, and you have no active character: make one with "
        "/character create, pick one with /character use, or type the number (“{name} 3”)"
    ),
    _C.TRAIT_UNKNOWN: N_("the sheet has no trait “{name}” (closest: {closest})"),
    _C.TRAIT_AMBIGUOUS: N_("“{name}” could be {matches}: type more of the name"),
    _C.TRAIT_NAME_INVALID: N_(
        "“{name}” cannot be a trait name: up to {max} letters, digits, spaces, ' or -, "
        "starting with a letter"
    ),
    _C.TRAIT_VALUE_RANGE: N_("{trait} {value} is out of range: it must be 0 to {high}"),
    _C.TRAIT_DUPLICATE: N_("the trait “{name}” is listed twice"),
    _C.TOO_MANY_TRAITS: N_("a sheet holds at most {max} traits"),
    # the example names traits every template has (v20 has no Composure)
    _C.TRAITS_UNREADABLE: N_(
        "I could not read “{part}”: write each trait as a name and a number, "
        "separated by commas (Strength 3, Brawl 2)"
    ),
    _C.SPECIALTY_NOT_SKILL: N_(
        "{trait} is not a Skill: specialties go on Skills (Abilities in v20)"
    ),
    _C.SPECIALTY_EXISTS: N_("{skill} already has the specialty “{specialty}”"),
    _C.SPECIALTY_MISSING: N_("{skill} has no specialty “{specialty}” (it has: {specialties})"),
    _C.SPECIALTY_NO_SKILL: N_(
        "the specialty “{specialty}” needs a Skill of the sheet in the pool (Dexterity + Brawl)"
    ),
    _C.SPECIALTY_UNKNOWN: N_(
        "{skills} has no specialty “{specialty}” (specialties: {specialties}); add one with "
        "/character specialty"
    ),
    _C.TOO_MANY_SPECIALTIES: N_("a sheet holds at most {max} specialties"),
    _C.SHEET_TEXT_INVALID: N_(
        "write 1 to {max} visible characters on one line, with no invisible character (such"
        " as a zero-width space, often from a paste) or one that turns text around"
    ),
    _C.CONDITION_EXISTS: N_("the sheet already has the Condition “{condition}”"),
    _C.CONDITION_MISSING: N_("the sheet has no Condition “{condition}” (it has: {conditions})"),
    _C.TOO_MANY_CONDITIONS: N_("a sheet holds at most {max} Conditions"),
    _C.CHARACTER_NAME_LENGTH: N_("a character's name has 1 to {max} characters"),
    _C.CHARACTER_NAME_CONTROL: N_(
        "a character's name is one line of visible characters, with no invisible character"
        " (such as a zero-width space, often from a paste) or one that turns text around:"
        " type it again by hand"
    ),
    _C.WILL_ABOVE_MAXIMUM: N_("current Will {will} is above the Will maximum {maximum}"),
    _C.IMPORT_TOO_LARGE: N_("the file has {size} bytes: a sheet file is at most {max} bytes"),
    _C.IMPORT_NOT_JSON: N_(
        "the file is not a sheet in JSON: export one with /character export to see the shape"
    ),
    _C.IMPORT_SCHEMA_VERSION: N_(
        "the file's schema_version is {version}: this bot reads version {known}"
    ),
    _C.IMPORT_FIELD: N_("{field}: {detail}"),
    _C.RESIST_TRAIT: N_(
        "resistance by name is Resolve, Stamina, Composure or Defense, not “{trait}”"
    ),
    _C.RESIST_NO_TARGET: N_(
        "resisting with {trait} needs resist_target: the member (@member) or the character's "
        "name whose {trait} it is"
    ),
    _C.RESIST_TARGET_ALONE: N_(
        "resist_target says whose sheet resist reads: give resist a trait name too "
        "(resist:Composure resist_target:@member)"
    ),
    _C.RESIST_TARGET_NO_CHARACTER: N_(
        "that member has no active character in this server: they can make one with "
        "/character create, or name a character with resist_target:<name>"
    ),
    _C.RESIST_TARGET_UNKNOWN: N_(
        "no character in this server is named “{name}”: give a character's name or "
        "mention a member (resist_target:@member)"
    ),
    _C.RESIST_TARGET_AMBIGUOUS: N_(
        "{count} characters in this server are named “{name}”: mention the member whose "
        "character it is instead (resist_target:@member)"
    ),
    _C.RESIST_NOT_ON_SHEET: N_("{character}'s sheet has no {trait} to resist with"),
}


def _shown(char: str) -> str:
    """A stray character quoted, or named if it is invisible or Discord markup.

    Invisible characters (zero-width space, bidi marks) come with pasted text
    and would otherwise show as an empty quote; so would the blanks Unicode counts as
    letters (a Hangul filler: :data:`engine.text.BLANKS`).
    """
    if char.isprintable() and not (_MARKUP | BLANKS) & set(char):
        return f"“{user(char)}”"
    name = unicodedata.name(char, "") if len(char) == 1 else ""
    points = " ".join(f"U+{ord(point):04X}" for point in char)
    if name:
        return _("the character {points} ({name})", points=points, name=user(name))
    return _("the character {points}", points=points)


#: Parameters that are a member's text (names, specialties, Conditions): shown escaped.
_USER_TEXT: Final = frozenset({"name", "trait", "skill", "specialty", "condition", "part",
                               "closest", "matches", "skills", "specialties", "conditions",
                               "field", "detail", "version", "character"})


def _state_word(key: str, value: str) -> str | None:
    """An action's status or an initiative move as words (each under its own context, so
    "open" or "end" here translate apart from the same words elsewhere)."""
    if key == "status":
        return {
            "open": p_("extended action status", "open"),
            "succeeded": p_("extended action status", "succeeded"),
            "completed": p_("extended action status", "completed"),
            "failed": p_("extended action status", "failed"),
            "abandoned": p_("extended action status", "abandoned"),
            "ended": p_("initiative tracker status", "ended"),
            "scene_ended": p_("initiative tracker status", "the scene ended"),
        }.get(value)
    return {
        "join": p_("initiative move", "join"),
        "add": p_("initiative move", "add"),
        "remove": p_("initiative move", "remove"),
        "next": p_("initiative move", "next"),
        "delay": p_("initiative move", "delay"),
        "act": p_("initiative move", "act now"),
        "end": p_("initiative move", "end"),
    }.get(value)


def _plain(text: str) -> str:
    """Member's text with Discord's markup and mention characters backslash-escaped."""
    return "".join(f"\\{c}" if c in _MARKUP else c for c in text)


def _none(key: str) -> str:
    """The word for an empty list, agreeing with what it lists (a context each): pt-BR's
    especialização, Condição and característica and es-ES's especialidad are feminine,
    es-ES's Estado and rasgo masculine."""
    if key == "specialties":
        return p_("empty list of specialties", "none")
    if key == "conditions":
        return p_("empty list of Conditions", "none")
    if key == "closest":
        return p_("empty list of traits", "none")
    return _("none")


def _word(key: str, value: int | str, traits: str | None) -> str:
    """One parameter as words: lists spaced out, a stray ``char`` quoted or named, a
    member's text escaped, a list of a sheet's traits named in ``traits`` (a language of
    :mod:`engine.trait_names`) if given."""
    if traits is not None and key in _TRAIT_LISTS:
        value = ",".join(localised(shown, traits) for shown in str(value).split(","))
    if key == "char":
        return _shown(str(value))
    if key in {"status", "move"}:
        word = _state_word(key, str(value))
        return word if word is not None else user(str(value))
    if key in _USER_TEXT:
        value = _plain(str(value))
    if key in _LISTS:
        # An item may hold a comma and its space ("Boxing, Western"): spaced once.
        listed = ", ".join(item.strip() for item in str(value).split(","))
        return user(listed) if listed else _none(key)
    if key in _USER_TEXT or key in _VERBATIM:
        return user(str(value))
    return str(value)


class _Words(dict[str, str]):
    """A refusal's parameters as words; one it lacks shows as ``?`` rather than failing."""

    def __missing__(self, key: str) -> str:
        return _MISSING


def uncapitalised(sentence: str) -> str:
    """A whole sentence placed after a colon (“I could not read that pool: write just the
    number of dice…”, the command line's “error: a pool cannot contain…”): its first
    letter in lower case, past any opening brackets. One that opens with a quote (a bit
    of text as typed) is left as it is. Only for a sentence that opens with a common
    word, never a name: the pool parser's."""
    first = next((i for i, c in enumerate(sentence) if unicodedata.category(c) != "Ps"), 0)
    return sentence[:first] + sentence[first:first + 1].lower() + sentence[first + 1:]


def refusal_text(refusal: Refusal | None, *, traits: str | None = None) -> str:
    """The sentence for ``refusal`` (a cause is worded inside it); empty for None.

    ``traits``: the table's trait language (:func:`bot.render.lang.trait_language` of its
    public voice), in which the traits a refusal offers (the closest names, a prefix's
    matches) and the sheet's trait it is about (:data:`_TRAIT_NAMED`) are named, as the
    table's cards name them, though the sentence is in the member's voice; without it
    they are named as the sheet names them."""
    if refusal is None:
        return ""
    params = dict(refusal.params)
    one = _TRAIT_NAMED.get(refusal.code)
    if traits is not None and one is not None and one in params:
        params[one] = localised(str(params[one]), traits)
    words = _Words((key, _word(key, value, traits)) for key, value in params.items())
    if refusal.cause is not None:
        words["cause"] = refusal_text(refusal.cause, traits=traits)
    if refusal.code is _C.OPTION_NOT_IN_RULESET:
        # The one refusal whose subject is a list: "again, rote do not apply".
        named = len(str(refusal.params.get("options", "")).split(","))
        for key in ("options", "ruleset"):
            words.setdefault(key, _MISSING)
        return n_("{options} does not apply to the {ruleset} ruleset",
                  "{options} do not apply to the {ruleset} ruleset", named, **words)
    if refusal.code is _C.IMPORT_FIELD:
        return _field_problem(str(refusal.params.get("problem", "")),
                              refusal.params.get("limit"), words)
    template = _(_TEXTS[refusal.code]) if refusal.code in _TEXTS else "{code}"
    words.setdefault("code", str(refusal.code))
    return Formatter().vformat(template, (), words)


#: The usual problems of an import file's field, by pydantic's kind of error
#: (engine.characters' ``IMPORT_FIELD``), in the member's language: those of a bound
#: (``limit``) and of a choice (``choices``) only with it; a length in :func:`_field_problem`.
_FIELD_PROBLEMS: Final[dict[str, str]] = {
    "missing": N_("{field} is missing: every sheet has it"),
    "extra_forbidden": N_("{field} is not a field of a sheet: remove it"),
    "string_type": N_("{field} must be text"),
    "string_too_short": N_("{field} cannot be empty"),
    "int_type": N_("{field} must be a whole number"),
    "int_parsing": N_("{field} must be a whole number"),
    "int_from_float": N_("{field} must be a whole number"),
    "bool_type": N_("{field} must be true or false"),
    "bool_parsing": N_("{field} must be true or false"),
    "tuple_type": N_("{field} must be a list"),
    "list_type": N_("{field} must be a list"),
    "model_type": N_("{field} must be an object with named fields"),
    "dict_type": N_("{field} must be an object with named fields"),
    "enum": N_("{field} must be one of {choices}"),
    "less_than_equal": N_("{field} must be at most {limit}"),
    "greater_than_equal": N_("{field} must be at least {limit}"),
    "less_than": N_("{field} must be less than {limit}"),
}
_NEEDS: Final = {"enum": "choices", "less_than_equal": "limit", "greater_than_equal": "limit",
                 "less_than": "limit"}


def _field_problem(kind: str, limit: object, words: _Words) -> str:
    """An import file's field that is not as a sheet has it, in the member's language
    where the kind of problem is a usual one; else in pydantic's own (English) words,
    rather than none. A problem with no field is the file's as a whole."""
    words.setdefault("field", _("the file as a whole"))
    if isinstance(limit, int) and kind == "string_too_long":
        return n_("{field} must have at most {n} character",
                  "{field} must have at most {n} characters", limit, **words)
    if isinstance(limit, int) and kind == "too_long":
        return n_("{field} must have at most {n} entry",
                  "{field} must have at most {n} entries", limit, **words)
    if kind in _FIELD_PROBLEMS and _NEEDS.get(kind, "field") in words:
        return Formatter().vformat(_(_FIELD_PROBLEMS[kind]), (), words)
    return Formatter().vformat(_(_TEXTS[_C.IMPORT_FIELD]), (), words)
