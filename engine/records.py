"""The table's records: what the store keeps and hands back, around engine models.

The table's stored state (settings, rolls, Will, actions) as frozen models: the store
keeps them, the engine and render read them. Ids are Discord snowflakes as plain ints.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Final, Generic, Self, TypeVar

from pydantic import BaseModel, ConfigDict, Field, model_validator

from engine.characters import Character
from engine.models import RollRequest, RollResult, Ruleset
from engine.saved import Asked
from engine.text import shows_something

T = TypeVar("T")
M = TypeVar("M", bound=BaseModel)


class Record(BaseModel):
    """Base of every store record: immutable, strict about unknown fields."""

    model_config = ConfigDict(frozen=True, extra="forbid")


def label_key(label: str) -> str:
    """How labels are matched: case and runs of whitespace do not matter.

    "Force the door" and "force  the DOOR" are the same action, for successive
    attempts and for open actions alike.
    """
    return " ".join(label.split()).casefold()


def given_label(text: str) -> str | None:
    """A label as typed, as every command takes it (**Decision**): the spaces around it
    trimmed, and no label at all when nothing in it can be seen.

    Text of only spaces, format characters (a zero-width space, an invisible separator, a
    direction mark) or combining marks, with no letter, digit, punctuation or symbol
    (:func:`engine.text.shows_something`, as a sheet's text must), would title a card
    or a history line with nothing and key successive attempts no one could name again. It
    counts as no label, as a blank one does: an extended action is named by its pool, a
    teamwork by its primary, an action a command looks for is the member's only open one,
    a saved roll's own label is kept, and a `/roll` feeds no successive attempts.
    """
    trimmed = text.strip()
    return trimmed if shows_something(trimmed) else None


class Change(Record, Generic[T]):
    """A value before and after a change, so the bot can confirm "old → new"."""

    old: T
    new: T


# --- settings -----------------------------------------------------------------

#: The longest `fistful` initiative pool setting, in characters.
MAX_INITIATIVE_POOL: Final = 100


class WillTiming(StrEnum):
    """When Will may be spent in a channel (RULES.md §4)."""

    ANY = "any"
    """Declared with the roll or spent afterwards with the button."""
    BEFORE = "before"
    """Declared with the roll only: no Spend Will button."""


class DiceOrder(StrEnum):
    """How dice are shown."""

    ROLLED = "rolled"
    SORTED = "sorted"


class ChannelOption(StrEnum):
    """The per-channel settings; each value is the name of a field of ChannelConfig."""

    RULESET = "ruleset"
    WILL_TIMING = "will_timing"
    PRESSURE = "pressure"
    FISTFUL_STEP = "fistful_step"
    TEXT_ONLY = "text_only"
    DICE_ORDER = "dice_order"
    COMPACT = "compact"
    PLAIN = "plain"
    INITIATIVE_POOL = "initiative_pool"
    LANGUAGE = "language"


class Language(StrEnum):
    """The languages the bot speaks (Discord's locale codes); English is the source."""

    EN = "en"
    PT_BR = "pt-BR"
    ES_ES = "es-ES"


OptionValue = Ruleset | WillTiming | DiceOrder | Language | bool | int | str
"""A value of a channel option (its type depends on the option)."""


class GuildSettings(Record):
    """Server-wide settings as stored; None means not set."""

    guild_id: int
    ruleset: Ruleset | None = None
    storyteller_role_id: int | None = None
    storyteller_channel_id: int | None = None
    """Where full copies of secret rolls go."""
    language: Language | None = None
    """The language of the server's public messages (a channel may choose its own)."""


class ChannelSettings(Record):
    """One channel's overrides as stored; None means "use the next level"."""

    guild_id: int
    channel_id: int
    ruleset: Ruleset | None = None
    will_timing: WillTiming | None = None
    pressure: bool | None = None
    fistful_step: int | None = Field(default=None, ge=0)
    text_only: bool | None = None
    dice_order: DiceOrder | None = None
    compact: bool | None = None
    plain: bool | None = None
    initiative_pool: str | None = Field(default=None, min_length=1,
                                        max_length=MAX_INITIATIVE_POOL)
    language: Language | None = None


#: `fistful`: the pool a member's sheet rolls for initiative unless the channel sets
#: another (RULES.md §7).
DEFAULT_INITIATIVE_POOL: Final = "Dexterity + Composure"


class ChannelConfig(Record):
    """The settings in force in a channel: channel → parent channel → server → default.

    Only the ruleset has a server-wide value; the other options fall back from
    the channel (or a thread's parent channel) straight to their defaults here.
    """

    guild_id: int
    channel_id: int
    ruleset: Ruleset = Ruleset.COFD
    will_timing: WillTiming = WillTiming.ANY
    pressure: bool = True
    """Successive-attempt penalties apply; False is the Storyteller's "no pressure"."""
    fistful_step: int = Field(default=1, ge=0)
    """Dice of Successive Action Penalty per earlier action this turn (0: none)."""
    text_only: bool = False
    """No emoji: for screen readers."""
    dice_order: DiceOrder = DiceOrder.ROLLED
    compact: bool = False
    """Short roll cards: no fields, the pool on one line."""
    plain: bool = False
    """Messages as plain text, no embeds: for members whose client hides embeds."""
    initiative_pool: str = DEFAULT_INITIATIVE_POOL
    """`fistful`: the trait names a member's sheet rolls for initiative without a pool."""
    language: Language | None = None
    """The language of public messages: the channel's, its parent's or the server's
    choice; None: the server's preferred locale on Discord decides (else English)."""
    storyteller_role_id: int | None = None
    storyteller_channel_id: int | None = None

    def value(self, option: ChannelOption) -> OptionValue | None:
        """The value in force for one option (None: the language is not set)."""
        value: OptionValue | None = getattr(self, option.value)
        return value


# --- rolls --------------------------------------------------------------------


class WillState(StrEnum):
    """Whether Will went into a roll, or still may (RULES.md §4)."""

    NONE = "none"
    """No Spend Will button: the ruleset, the channel or the result does not allow one."""
    DECLARED = "declared"
    """Will was declared with the roll."""
    OFFERED = "offered"
    """The Spend Will button is offered (it acts while the roll is not closed)."""
    SPENT = "spent"
    """Will was spent after the roll."""


class PressRefusal(StrEnum):
    """Why a button on a roll changed nothing (the engine's rule refusals are
    :class:`engine.refusals.Refusal`)."""

    NOT_FOUND = "not_found"
    NOT_ROLLER = "not_roller"
    VOID = "void"
    CLOSED = "closed"
    """New roll by the roller, next turn, end of scene or a Beat closed it."""
    DECLARED = "declared"
    """Will was declared up front: no spend after the roll."""
    NOT_OFFERED = "not_offered"
    """This roll never offered Will (ruleset, channel setting or result)."""
    ALREADY_SPENT = "already_spent"
    NO_WILL = "no_will"
    """The roller's tracked Will pool is at 0."""
    BEAT_TAKEN = "beat_taken"
    ALREADY_RETRIED = "already_retried"
    STALE = "stale"
    """The roll no longer offers this button (Will turned its failure into a success)."""
    SHEET_GONE = "sheet_gone"
    """The roll was made with a character whose sheet was deleted since: its Will and
    Beats are gone with it, and Try again would roll as it."""
    BUSY = "busy"
    """The table kept changing while the bot tried to act (rare concurrent writes)."""


class ActionKind(StrEnum):
    """The kinds of table state kept as generic actions."""

    EXTENDED = "extended"
    TEAMWORK = "teamwork"
    CONTEST = "contest"


class Progress(Record):
    """An extended action's progress: successes so far, and required (None: an effort
    measured in rolls)."""

    done: int
    required: int | None


class RollRecord(Record):
    """A stored roll with its current result."""

    id: int
    guild_id: int
    channel_id: int
    roller_id: int
    roller_name: str
    """The roller's name as the roll's message showed it."""
    label: str | None
    private: bool
    request: RollRequest
    """The request as first rolled."""
    result: RollResult
    """The current reading (after a Will spend or a Beat, if any)."""
    will_state: WillState
    beat: bool
    retried: bool
    closed: bool
    void: bool
    voided_by: int | None
    action_id: int | None
    action_kind: ActionKind | None = None
    """The kind of the action the roll belongs to (read by history; None elsewhere)."""
    action_progress: Progress | None = None
    """On an extended action's last roll, the progress the action stands at (read by
    history; None elsewhere: only the running total is kept, not each roll's)."""
    message_id: int | None
    copy_channel_id: int | None
    copy_message_id: int | None
    created_at: datetime
    updated_at: datetime
    character_id: int | None = None
    """The character the roll was made with (its Will and Beats), if any."""
    character_name: str | None = None
    """That character's name when it rolled (kept after a rename or a delete)."""
    asked: Asked | None = None
    """The roll as its roller asked for it (Roll again, Save this roll); None for rolls of
    actions and rolls stored before it was kept."""


class WillPool(Record):
    """A tracked Will pool: a member's, or a character's (``character_id``; ``user_id``
    is then the sheet's owner)."""

    guild_id: int
    user_id: int
    current: int = Field(ge=0)
    maximum: int = Field(ge=0)
    character_id: int | None = None

    @model_validator(mode="after")
    def _current_within_maximum(self) -> Self:
        if self.current > self.maximum:
            msg = f"current Will ({self.current}) is above the maximum ({self.maximum})"
            raise ValueError(msg)
        return self


class Voided(Record):
    """The roll after a void; ``already`` when it was void before."""

    roll: RollRecord
    already: bool


# --- actions ------------------------------------------------------------------


class ActionStatus(StrEnum):
    """An action is open until it ends; a closed action never changes again."""

    OPEN = "open"
    CLOSED = "closed"


class StateRecord(Record):
    """A stored row that holds an engine state machine as JSON, changed only through a
    conditional update on its version (an action, an initiative tracker)."""

    id: int
    guild_id: int
    channel_id: int
    status: ActionStatus
    state_json: str
    version: int
    """Bumped by every change; an update names the version it read."""
    message_id: int | None
    created_at: datetime
    updated_at: datetime

    def state(self, model: type[M]) -> M:
        """The state parsed as the engine model it holds."""
        return model.model_validate_json(self.state_json)

    def saved(self, state: BaseModel, version: int, status: ActionStatus) -> Self:
        """The record as a write of ``state`` at ``version`` left it (nothing read back)."""
        return self.model_copy(
            update={"state_json": state.model_dump_json(), "version": version, "status": status}
        )


class ActionRecord(StateRecord):
    """A stored action. ``state_json`` is the state model of the action's kind as JSON."""

    kind: ActionKind
    owner_id: int
    label: str


# --- initiative ---------------------------------------------------------------


class TrackerRecord(StateRecord):
    """A stored initiative tracker. ``state_json`` is :class:`engine.table.initiative.Tracker`
    as JSON; ``status`` is the row's (open until the fight ends, then never changed again)."""


# --- characters -------------------------------------------------------------------


class CharacterRecord(Record):
    """A stored sheet: whose, in which server, and the version every change names."""

    id: int
    guild_id: int
    owner_id: int
    version: int
    sheet: Character

    @property
    def name(self) -> str:
        """The character's name."""
        return self.sheet.name

    def will_pool(self) -> WillPool:
        """The sheet's Will as a pool (what Spend Will, /will and the night act on)."""
        return WillPool(guild_id=self.guild_id, user_id=self.owner_id, current=self.sheet.will,
                        maximum=self.sheet.will_max, character_id=self.id)


class CharacterName(Record):
    """A sheet's name and owner, without the sheet (autocomplete, lists)."""

    id: int
    owner_id: int
    name: str
    npc: bool
