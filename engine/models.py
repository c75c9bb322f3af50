"""The engine's data: frozen pydantic models in, frozen pydantic models out.

A :class:`RollRequest` says what is rolled; a :class:`RollResult` keeps every
face in draw order with its round, kind and fate, so the result can be
rendered, stored and re-evaluated (Will after the roll) without rolling again.
Both round-trip through JSON unchanged. No wording, colour or emoji lives here:
a refused roll carries a :class:`~engine.refusals.Refusal` (a code and its
parameters), which the bot words.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any, NamedTuple

from pydantic import Field, model_validator

from engine.frozen import Frozen
from engine.refusals import Refusal, upgrade_legacy_message


class Ruleset(StrEnum):
    """The three rulesets a channel can use (RULES.md)."""

    COFD = "cofd"
    V20 = "v20"
    FISTFUL = "fistful"


class Outcome(StrEnum):
    """Outcome names shared by every ruleset (RULES.md §0)."""

    DRAMATIC_FAILURE = "dramatic_failure"
    FAILURE = "failure"
    SUCCESS = "success"
    EXCEPTIONAL_SUCCESS = "exceptional_success"
    BOTCH = "botch"
    REFUSED = "refused"


class Again(StrEnum):
    """`cofd` reroll rule: which faces explode."""

    TEN = "10"
    NINE = "9"
    EIGHT = "8"
    NONE = "none"


class SkillCategory(StrEnum):
    """Untrained skill category (`cofd` penalty; in `fistful` any value means unskilled)."""

    MENTAL = "mental"
    PHYSICAL = "physical"
    SOCIAL = "social"


class Degree(StrEnum):
    """`v20` degree word of a success."""

    MARGINAL = "marginal"
    MODERATE = "moderate"
    COMPLETE = "complete"
    EXCEPTIONAL = "exceptional"
    PHENOMENAL = "phenomenal"

    @classmethod
    def of(cls, net: int) -> Degree:
        """The word for a success of ``net`` (at least 1) net successes: 5 or more is phenomenal."""
        if net < 1:
            msg = f"a success has at least 1 net success, not {net}"
            raise ValueError(msg)
        degrees = list(cls)
        return degrees[min(net, len(degrees)) - 1]


class AdjustmentKind(StrEnum):
    """Why the engine changed a pool or a difficulty (shown in the breakdown)."""

    SPECIALTY = "specialty"
    WILLPOWER = "willpower"
    UNTRAINED = "untrained"
    RESISTANCE = "resistance"
    SUCCESSIVE_ATTEMPT = "successive_attempt"
    SUCCESSIVE_ACTION = "successive_action"
    TEAMWORK = "teamwork"
    TEAMWORK_DRAMATIC_FAILURE = "teamwork_dramatic_failure"
    HELPER_LIMIT = "helper_limit"
    EXTENDED_PENALTY = "extended_penalty"
    MULTIPLE_ACTION = "multiple_action"


class TermSource(StrEnum):
    """Where a named term's number came from (RULES.md §6)."""

    SHEET = "sheet"
    TYPED = "typed"
    """Typed with the name in the pool (``Strength 5``): a typed number wins over the sheet."""
    DERIVED = "derived"
    """A derived trait of the sheet (Defense, Initiative...)."""


class Term(Frozen):
    """One term of a pool expression: an optional label and a signed number.

    ``source`` is set when the pool was resolved against a character sheet (and left out
    of the JSON otherwise, so rolls without a sheet keep their stored shape).
    """

    label: str | None = None
    value: int
    source: TermSource | None = Field(default=None, exclude_if=lambda v: v is None)


class SheetNotes(Frozen):
    """What a character's sheet decided about a roll, for the breakdown's reasons."""

    character: str | None = None
    """The character rolled with."""
    specialty: str | None = None
    """``Skill: specialty`` applied because the roll named it."""
    untrained: str | None = None
    """The 0-dot Skill that made the roll untrained."""
    resist: str | None = None
    """The target trait subtracted (``Composure``) ..."""
    resist_of: str | None = None
    """... and whose sheet it came from."""


class Adjustment(Frozen):
    """An automatic change to the pool (dice) or, in `v20`, to the difficulty."""

    kind: AdjustmentKind
    dice: int = 0
    difficulty: int = 0


class RollRequest(Frozen):
    """Everything that decides a single roll.

    Options default to "not given"; an option given to a ruleset it does not
    belong to is refused by the engine. ``adjustments`` are the automatic
    changes that table state adds (successive attempts, teamwork, extended
    carry, multiple actions); the engine adds the option-derived ones itself.
    """

    ruleset: Ruleset
    terms: tuple[Term, ...]
    adjustments: tuple[Adjustment, ...] = ()
    will: bool = False
    # cofd
    again: Again | None = None
    rote: bool = False
    resist: int = Field(default=0, ge=0)
    extra: int = Field(default=0, ge=0)
    exceptional_at: int | None = None
    # cofd and v20
    specialty: bool = False
    # cofd and fistful
    untrained: SkillCategory | None = None
    # v20
    difficulty: int | None = None
    auto: bool = False
    # fistful
    risky: bool = False
    initiative: bool = False
    no_botch: bool = False
    need: int | None = None
    # a character sheet (RULES.md §6): absent from the JSON of rolls without one
    sheet: SheetNotes | None = Field(default=None, exclude_if=lambda v: v is None)

    @property
    def base(self) -> int:
        """The pool as the player gave it: the sum of its terms."""
        return sum(term.value for term in self.terms)


class DieKind(StrEnum):
    """Where a die came from."""

    POOL = "pool"
    CHANCE = "chance"
    WILL = "will"
    ROTE = "rote"
    EXTRA = "extra"


class Fate(StrEnum):
    """What a die did in the reading of the roll."""

    SUCCESS = "success"
    FAILURE = "failure"
    ONE = "one"
    """A 1 that stands (v20 uncancelling, fistful botch material)."""
    CANCELS = "cancels"
    """A 1 that ate a success (see ``pair``)."""
    CANCELLED = "cancelled"
    """A success eaten by a 1 (see ``pair``)."""
    REPLACED = "replaced"
    """A `cofd` round-0 die rerolled by rote (see ``pair``)."""
    VOID = "void"
    """A face drawn earlier that the re-evaluation after Will no longer needs."""


class Die(NamedTuple):
    """One face drawn, in draw order.

    ``round`` is 0 for the pool, Will and rote dice and k for the k-th round of
    extra dice. ``pair`` links a cancelling 1 and what it cancelled, and a
    rote-rerolled die and its replacement (index into ``RollResult.dice``).
    ``successes`` is what the die counts after cancellation (a `v20`
    specialty 10 counts 2). A named tuple rather than a model: a roll builds
    many of them, and pydantic validates them as part of ``RollResult``.
    """

    face: int
    round: int
    kind: DieKind
    fate: Fate
    successes: int = 0
    explodes: bool = False
    pair: int | None = None


class Breakdown(Frozen):
    """The pool as rolled: the player's terms, every automatic adjustment, the total."""

    terms: tuple[Term, ...]
    adjustments: tuple[Adjustment, ...] = ()
    dice: int
    """Final pool: terms plus every dice adjustment (Will included)."""
    chance: bool = False
    """`cofd`: the final pool was below 1, so one chance die was rolled."""
    difficulty: int | None = None
    """`v20`: the difficulty the dice were read against, adjustments included."""


class WillUse(StrEnum):
    """Whether and how Willpower went into a roll."""

    NONE = "none"
    DECLARED = "declared"
    AFTER = "after"


class RollResult(Frozen):
    """A roll, read exactly by its ruleset."""

    request: RollRequest
    outcome: Outcome
    successes: int = 0
    """Total: dice successes plus extra successes (`cofd`) or Willpower (`v20`)."""
    dice_successes: int = 0
    """Successes on the dice alone (what `cofd` exceptional success is judged on)."""
    botch_degree: int | None = None
    degree: Degree | None = None
    dice: tuple[Die, ...] = ()
    breakdown: Breakdown | None = None
    will: WillUse = WillUse.NONE
    automatic: bool = False
    capped: bool = False
    """Extra dice stopped at ``MAX_EXTRA``; the outcome is read from what was rolled."""
    beat: bool = False
    """`cofd` Take a Beat turned this failure into a dramatic failure."""
    need_met: bool | None = None
    refusal: Refusal | None = None
    """Why the roll was refused (only when ``outcome`` is ``refused``)."""

    @model_validator(mode="before")
    @classmethod
    def _legacy_message(cls, data: Any) -> Any:
        """Results stored before refusal codes carry an English ``message``: keep it as text."""
        return upgrade_legacy_message(data)

    @property
    def refused(self) -> bool:
        """No roll happened."""
        return self.outcome is Outcome.REFUSED

    @property
    def failed(self) -> bool:
        """The roll happened and did not succeed."""
        return self.outcome in {Outcome.FAILURE, Outcome.DRAMATIC_FAILURE, Outcome.BOTCH}

    @property
    def succeeded(self) -> bool:
        """The roll succeeded (exceptionally or not)."""
        return self.outcome in {Outcome.SUCCESS, Outcome.EXCEPTIONAL_SUCCESS}
