"""Refusals as data: what the rules do not allow, as a code and its parameters.

The engine has no wording. When it refuses a request or a move, it answers a
:class:`Refusal`: a :class:`RefusalCode` and the values the reason names (the
value given, the allowed range, the ruleset...). A refusal that follows from
another one (a side's roll that did not happen) keeps it as ``cause``. The bot
words them (``bot/render/refusals.py``); list parameters are comma-separated
names (``"again,rote"``).

Results are stored as JSON: :func:`upgrade_legacy_message` reads the English
``message`` that older stored results carry as a :attr:`RefusalCode.LEGACY`
refusal, so they still load.
"""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import Any

from pydantic import Field

from engine.frozen import Frozen


class RefusalCode(StrEnum):
    """Every refusal the engine can give; the parameters each one names are in its comment."""

    LEGACY = "legacy"
    """A refusal stored before codes existed: ``text`` is its English sentence."""

    # A single roll (engine.prepare).
    OPTION_NOT_IN_RULESET = "option_not_in_ruleset"
    """``options`` (list), ``ruleset``."""
    OUT_OF_RANGE = "out_of_range"
    """``option`` (``exceptional_at``, ``difficulty``, ``need``), ``value``, ``low``, ``high``."""
    WILL_CANNOT_HELP = "will_cannot_help"
    """`cofd`: ``pool``, ``will_dice``: even with Will the pool is below 1 die."""
    POOL_TOO_LARGE = "pool_too_large"
    """``dice``, ``max``."""
    DIFFICULTY_TOO_LOW = "difficulty_too_low"
    """`v20`: ``difficulty``, ``low``."""
    DIFFICULTY_TOO_HIGH = "difficulty_too_high"
    """`v20`: ``difficulty``, ``base``, ``raised``, ``high``: the action cannot be taken."""
    NO_DICE = "no_dice"
    """`v20`: ``pool`` (0 or less)."""
    NO_DICE_WITH_WILL = "no_dice_with_will"
    """`v20`: ``pool`` (0 or less), and Will was declared."""
    AUTO_WITH_WILL = "auto_with_will"
    """`v20`: an automatic success with Will."""
    AUTO_BELOW_DIFFICULTY = "auto_below_difficulty"
    """`v20`: ``pool``, ``difficulty``."""
    NO_ACTION_NOW = "no_action_now"
    """`fistful`: ``pool`` (0 or less)."""
    NO_ACTION_NOW_WITH_WILL = "no_action_now_with_will"
    """`fistful`: ``pool`` (0 or less), and Will was declared."""

    # After the roll (engine.roll).
    WILL_NOTHING_ROLLED = "will_nothing_rolled"
    WILL_DECLARED = "will_declared"
    WILL_ALREADY_SPENT = "will_already_spent"
    WILL_AFTER_BEAT = "will_after_beat"
    WILL_AUTOMATIC = "will_automatic"
    BEAT_NOT_COFD = "beat_not_cofd"
    """``ruleset``."""
    BEAT_ALREADY_TAKEN = "beat_already_taken"
    BEAT_NOT_FAILURE = "beat_not_failure"

    # Extended actions (engine.table.extended).
    EXTENDED_WILL = "extended_will"
    EXTENDED_TARGET_RANGE = "extended_target_range"
    """``target``, ``max``."""
    EXTENDED_ROLLS_RANGE = "extended_rolls_range"
    """``rolls``, ``max``."""
    EXTENDED_NO_TARGET = "extended_no_target"
    EXTENDED_NO_TARGET_OR_ROLLS = "extended_no_target_or_rolls"
    """`fistful`: neither successes required nor a number of rolls."""
    EXTENDED_SKILL_COFD_ONLY = "extended_skill_cofd_only"
    """``ruleset``."""
    EXTENDED_CARRY_COFD_ONLY = "extended_carry_cofd_only"
    """``ruleset``."""
    EXTENDED_RESISTED_COFD = "extended_resisted_cofd"
    EXTENDED_RESISTING_RULESET = "extended_resisting_ruleset"
    """``against`` (the resisting roll's ruleset), ``ruleset``."""
    EXTENDED_POOL_REFUSED = "extended_pool_refused"
    """``cause``: why the actor's pool cannot be rolled."""
    EXTENDED_RESISTING_POOL_REFUSED = "extended_resisting_pool_refused"
    """``cause``: why the resisting pool cannot be rolled."""
    EXTENDED_SKILL_RANGE = "extended_skill_range"
    """``skill``, ``max``."""
    EXTENDED_DEFAULT_ROLLS_RANGE = "extended_default_rolls_range"
    """`cofd`: ``rolls`` (Attribute + Skill + Specialty), ``max``."""
    EXTENDED_ENDED = "extended_ended"
    """``status``."""
    EXTENDED_DECISION_PENDING = "extended_decision_pending"
    EXTENDED_NOT_RESISTED = "extended_not_resisted"
    EXTENDED_ROLL_RULESET = "extended_roll_ruleset"
    """``rolled`` (the roll's ruleset), ``ruleset``."""
    EXTENDED_RESISTING_ROLL_RULESET = "extended_resisting_roll_ruleset"
    """``rolled`` (the resisting roll's ruleset), ``ruleset``."""
    EXTENDED_ROLL_REFUSED = "extended_roll_refused"
    """``cause``."""
    EXTENDED_RESISTING_ROLL_REFUSED = "extended_resisting_roll_refused"
    """``cause``."""
    EXTENDED_RESISTING_ROLL_MISSING = "extended_resisting_roll_missing"
    EXTENDED_RESISTING_ROLL_UNWANTED = "extended_resisting_roll_unwanted"
    EXTENDED_LAST_ROLL_FINAL = "extended_last_roll_final"
    CHOICE_NOT_OFFERED = "choice_not_offered"
    """``choice``, ``choices`` (list)."""
    CONDITION_NAME_MISSING = "condition_name_missing"
    CONDITION_NAME_UNWANTED = "condition_name_unwanted"
    CONDITION_NAME_LENGTH = "condition_name_length"
    """``max``."""

    # Contests (engine.table.contest).
    CONTEST_ACTOR_RULESET = "contest_actor_ruleset"
    """``rolled`` (the actor's roll's ruleset), ``ruleset``."""
    CONTEST_OPPONENT_RULESET = "contest_opponent_ruleset"
    """``rolled`` (the opponent's roll's ruleset), ``ruleset``."""
    CONTEST_ACTOR_REFUSED = "contest_actor_refused"
    """``cause``."""
    CONTEST_OPPONENT_REFUSED = "contest_opponent_refused"
    """``cause``."""

    # Multiple actions (engine.table.multi).
    MULTI_TOO_FEW = "multi_too_few"
    MULTI_NOT_V20 = "multi_not_v20"
    """``rulesets`` (list)."""
    MULTI_ACTION_REFUSED = "multi_action_refused"
    """``action``, ``count``, ``cause``: the whole declaration is refused."""

    # The Successive Action Penalty (engine.table.actions).
    SUCCESSIVE_ACTION_NOT_FISTFUL = "successive_action_not_fistful"
    """``ruleset``."""

    # Teamwork (engine.table.teamwork).
    HELPER_LIMIT_NOT_V20 = "helper_limit_not_v20"
    """``ruleset``."""
    HELPER_LIMIT_NEGATIVE = "helper_limit_negative"
    """``limit``."""
    PRIMARY_CANNOT_HELP = "primary_cannot_help"
    ALREADY_HELPED = "already_helped"
    HELPER_RULESET = "helper_ruleset"
    """``rolled`` (the helper's roll's ruleset), ``ruleset`` (the teamwork's)."""
    HELPER_DIFFICULTY_TOO_HIGH = "helper_difficulty_too_high"
    """`v20`: ``difficulty`` (the primary's, with one more helper), ``high``."""
    HELPER_ROLL_REFUSED = "helper_roll_refused"
    """``cause``."""
    NOT_A_HELPER = "not_a_helper"

    # Pool text (engine.parser): every one also names ``position``, the 0-based index
    # in the text of the offending bit.
    POOL_TEXT_TOO_LONG = "pool_text_too_long"
    """``length``, ``max``: the text has too many characters."""
    POOL_STRAY_CHARACTER = "pool_stray_character"
    """``char``: a character that belongs to no number, word, sign or bracket."""
    POOL_EMPTY = "pool_empty"
    """No terms at all."""
    POOL_UNOPENED_BRACKET = "pool_unopened_bracket"
    """A ``]`` that closes no ``[``."""
    POOL_UNCLOSED_BRACKET = "pool_unclosed_bracket"
    """A ``[`` that is never closed."""
    POOL_EMPTY_BRACKETS = "pool_empty_brackets"
    """``[]`` with nothing inside."""
    POOL_TOO_DEEP = "pool_too_deep"
    """``max``: brackets nested deeper than ``max`` levels."""
    POOL_TWO_SIGNS = "pool_two_signs"
    """``first``, ``second``: two signs in a row."""
    POOL_SIGN_WITHOUT_TERM = "pool_sign_without_term"
    """``sign``: a sign with no term after it."""
    POOL_TWO_NUMBERS = "pool_two_numbers"
    """``previous``, ``next``: two numbers with no sign between them."""
    POOL_MISSING_OPERATOR = "pool_missing_operator"
    """``previous``, ``next``: two terms with no sign between them (not two numbers)."""
    POOL_LABEL_WITHOUT_NUMBER = "pool_label_without_number"
    """``label``: a trait name with no number after it."""
    POOL_LABEL_TOO_LONG = "pool_label_too_long"
    """``label``, ``max`` (characters)."""
    POOL_NUMBER_TOO_LARGE = "pool_number_too_large"
    """``number`` (as typed), ``max``."""
    POOL_TOO_MANY_TERMS = "pool_too_many_terms"
    """``max``."""
    POOL_OVER_MAX_DICE = "pool_over_max_dice"
    """``total`` (the positive terms' sum), ``max``: too many dice before penalties."""
    POOL_DICE_NOTATION = "pool_dice_notation"
    """``written``, ``dice``, ``sides``: another dice bot's ``NdM`` (``3d10``, ``d10+2``)."""
    POOL_DICE_WORD = "pool_dice_word"
    """``written``, ``dice``: a number followed by a word for dice (``7 dice``)."""

    # Initiative (engine.table.initiative).
    INIT_ALREADY_RUNNING = "init_already_running"
    """A second tracker in a channel that has one (the store knows; the bot links the card)."""
    INIT_ENDED = "init_ended"
    """``status``: the tracker is over."""
    INIT_STORYTELLER_ONLY = "init_storyteller_only"
    """``move``: adding, removing, ending (and starting round 1) are the Storyteller's."""
    INIT_EMPTY = "init_empty"
    """Nobody is in the order to act."""
    INIT_NOT_YOUR_TURN = "init_not_your_turn"
    """``name``: the combatant acting, whose owner (or the Storyteller) may pass or delay."""
    INIT_NOBODY_ACTING = "init_nobody_acting"
    """Delay before the first round started (or with nobody acting)."""
    INIT_DELAY_ALONE = "init_delay_alone"
    """The only combatant in the order cannot delay: nobody would act."""
    INIT_NOT_DELAYED = "init_not_delayed"
    """Act now by a member with no delayed combatant."""
    INIT_TURN_MOVED = "init_turn_moved"
    """``name``: the turn moved on since the card was drawn (a second press of Next)."""
    INIT_ALREADY_JOINED = "init_already_joined"
    """``name``: the member's combatant already in the tracker."""
    INIT_FULL = "init_full"
    """``count`` (entries after the change), ``max``."""
    INIT_GROUP_RANGE = "init_group_range"
    """``count``, ``max``."""
    INIT_MODIFIER_RANGE = "init_modifier_range"
    """``modifier``, ``low``, ``high``."""
    INIT_NAME_LENGTH = "init_name_length"
    """``max``."""
    INIT_NAME_MENTION = "init_name_mention"
    """A typed name with a mention in it."""
    INIT_NAME_INVISIBLE = "init_name_invisible"
    """A typed name that is no safe text (:func:`engine.text.visible_line`): nothing
    to see, or a character that shows nothing or turns text around beside its letters."""
    INIT_NAME_TAKEN = "init_name_taken"
    """``name``."""
    INIT_NO_SUCH_COMBATANT = "init_no_such_combatant"
    """``name``."""
    INIT_ROLL_REFUSED = "init_roll_refused"
    """``cause``: the `fistful` initiative roll cannot be made."""

    # Characters (engine.characters).
    CHARACTER_NONE = "character_none"
    """``name``: the pool names a trait and the member has no active character."""
    TRAIT_UNKNOWN = "trait_unknown"
    """``name``, ``closest`` (list, may be empty)."""
    TRAIT_AMBIGUOUS = "trait_ambiguous"
    """``name``, ``matches`` (list)."""
    TRAIT_NAME_INVALID = "trait_name_invalid"
    """``name``, ``max``: letters, digits, spaces, ' or -, a letter first."""
    TRAIT_VALUE_RANGE = "trait_value_range"
    """``trait``, ``value``, ``high``."""
    TRAIT_DUPLICATE = "trait_duplicate"
    """``name``: two traits with one name."""
    TOO_MANY_TRAITS = "too_many_traits"
    """``max``."""
    TRAITS_UNREADABLE = "traits_unreadable"
    """``part``: a ``traits`` part that is not ``Name value``."""
    SPECIALTY_NOT_SKILL = "specialty_not_skill"
    """``trait``."""
    SPECIALTY_EXISTS = "specialty_exists"
    """``skill``, ``specialty``."""
    SPECIALTY_MISSING = "specialty_missing"
    """``skill``, ``specialty``, ``specialties`` (list)."""
    SPECIALTY_NO_SKILL = "specialty_no_skill"
    """``specialty``: the roll names a specialty but no Skill of the sheet."""
    SPECIALTY_UNKNOWN = "specialty_unknown"
    """``specialty``, ``skills`` (list), ``specialties`` (list: those the Skills have)."""
    TOO_MANY_SPECIALTIES = "too_many_specialties"
    """``max``."""
    SHEET_TEXT_INVALID = "sheet_text_invalid"
    """``max``: a specialty or Condition of 1 to ``max`` characters, no control characters."""
    CONDITION_EXISTS = "condition_exists"
    """``condition``."""
    CONDITION_MISSING = "condition_missing"
    """``condition``, ``conditions`` (list)."""
    TOO_MANY_CONDITIONS = "too_many_conditions"
    """``max``."""
    CHARACTER_NAME_LENGTH = "character_name_length"
    """``max``."""
    CHARACTER_NAME_CONTROL = "character_name_control"
    WILL_ABOVE_MAXIMUM = "will_above_maximum"
    """``will``, ``maximum``."""
    IMPORT_TOO_LARGE = "import_too_large"
    """``size``, ``max`` (bytes)."""
    IMPORT_NOT_JSON = "import_not_json"
    IMPORT_SCHEMA_VERSION = "import_schema_version"
    """``version`` (as found), ``known``."""
    IMPORT_FIELD = "import_field"
    """``field`` (dotted path), ``problem`` (pydantic's error type), ``detail`` (its text)."""
    RESIST_TRAIT = "resist_trait"
    """``trait``: resistance names Resolve, Stamina, Composure or Defense only."""
    RESIST_NO_TARGET = "resist_no_target"
    """``trait``: a resistance trait needs ``target``."""
    RESIST_TARGET_ALONE = "resist_target_alone"
    """A target for resistance given without ``resist`` naming a trait."""
    RESIST_TARGET_NO_CHARACTER = "resist_target_no_character"
    """The member named as the target has no active character in this server."""
    RESIST_TARGET_UNKNOWN = "resist_target_unknown"
    """``name``: no character of this server has that name."""
    RESIST_TARGET_AMBIGUOUS = "resist_target_ambiguous"
    """``name``, ``count``: several characters of this server have that name."""
    RESIST_NOT_ON_SHEET = "resist_not_on_sheet"
    """``trait``, ``character``: the target's sheet (another template) has no such trait."""


class Refusal(Frozen):
    """Why the engine refused: a code, the values its reason names, and what caused it."""

    code: RefusalCode
    params: dict[str, int | str] = Field(default_factory=dict)
    cause: Refusal | None = None
    """The refusal this one follows from (a roll that did not happen, a pool that cannot be)."""

    @classmethod
    def of(
        cls, code: RefusalCode, /, *, cause: Refusal | None = None, **params: int | str
    ) -> Refusal:
        """``Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=101, max=100)``."""
        return cls(code=code, params=params, cause=cause)


def names(values: Iterable[str]) -> str:
    """A list parameter: names joined by commas, no spaces (``"again,rote"``)."""
    return ",".join(values)


def upgrade_legacy_message(data: Any) -> Any:
    """Read a stored model's old English ``message`` as a ``refusal`` (``LEGACY``, ``text``).

    For the ``mode="before"`` validators of models that used to carry ``message``.
    """
    if not isinstance(data, dict) or "message" not in data:
        return data
    upgraded = dict(data)
    message = upgraded.pop("message")
    if message is not None and upgraded.get("refusal") is None:
        upgraded["refusal"] = Refusal.of(RefusalCode.LEGACY, text=str(message))
    return upgraded
