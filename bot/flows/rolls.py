"""`/roll`, `/odds` and the buttons of a roll: Spend Will, Take a Beat, Try again, Roll
again, Save this roll (its form is answered by :mod:`bot.flows.saved`).

Each flow gathers what it needs in one read, asks the engine, writes what the
engine decided in one transaction, and returns a :class:`Reply`. Dice are drawn
inside the write transaction, once it holds the table: a refused or failed
write draws nothing, and two presses of one button at once take effect (and
draw) once. A roll is stored before its message is sent, so a roll the bot
answered is never lost, and a refused roll changes nothing. Trips to the
database: a roll 3 (its settings, its write, its message id), Spend Will 1,
Take a Beat and Try again 2 (plus the retry's roll), Roll again 3 (the roll and the
settings read together), Save this roll 1 (its form's submission 1).

On PostgreSQL a trip is one round trip to the server for a roll: what its write
depends on is read ahead with its settings (:class:`Ahead`) and checked by the
server with the write's COMMIT. When another write moved it meanwhile, the write
runs again and reads it: its dice are drawn again, and the first draw, never shown
nor stored, is dropped (whether a write runs again does not depend on its dice).
"""

from __future__ import annotations

import asyncio
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Final

from pydantic import ValidationError

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Edit, Post, Reply, Sent, UserError
from bot.render.buttons import (
    COPY_FAILED,
    RULESET_CHANGED,
    beat_taken,
    cannot_roll,
    cannot_spend_will,
    no_beat,
    no_will,
    press_refused,
    will_spent,
)
from bot.render.characters import (
    NO_CHARACTER,
    NO_CHARACTER_FOR_NAMES,
)
from bot.render.lang import _, current, speaking, trait_language
from bot.render.message import Attachment, Message, shaped
from bot.render.messages import bad_option, no_odds, out_of_range
from bot.render.odds import CHART_NAME, chart_title, odds_chart_png, odds_embed
from bot.render.refusals import refusal_text
from bot.render.rolls import (
    NpcUse,
    npc_not_yours,
    refusal_cause,
    roll_message,
    secret_notice,
)
from bot.render.saved import NOT_ASKED, save_form
from bot.render.text import breakdown_text, options_text
from bot.store import Conflict, Tx
from bot.store.attempts import Acting, AttemptRepository, Standing
from bot.store.repository import Query
from bot.store.rolls import NewRoll, OpenRoll, Pressed, RollRepository, pressed_and_open
from engine import characters, will
from engine.constants import MAX_POOL
from engine.faces import FaceSource
from engine.models import RollRequest, RollResult, Ruleset, Term, TermSource, WillUse
from engine.odds import odds as exact_odds
from engine.offers import (
    again_refusal,
    beat_refusal,
    closing_changes,
    pressed_refusal,
    retry_refusal,
    will_again,
    will_spend_refusal,
    will_state_for,
)
from engine.parser import NamedPart, PoolSyntaxError, format_pool, parse_pool_names
from engine.prepare import prepare
from engine.records import (
    ActionRecord,
    ChannelConfig,
    CharacterRecord,
    PressRefusal,
    RollRecord,
    WillPool,
)
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, spend_will, take_beat
from engine.roll import roll as roll_dice
from engine.saved import Asked
from engine.table import actions, attempts


@dataclass(frozen=True, slots=True)
class Table:
    """What a member's roll depends on, read in one trip."""

    config: ChannelConfig
    failures: int
    """Failed attempts in a row at the labelled action (0 without a label or pressure)."""
    turn_actions: int
    """`fistful`: the actions this turn of ``acting`` (0 for a request of another ruleset)."""
    pool: WillPool | None
    """The Will pool (None when untracked, or not read: a request declaring no Will)."""
    acting: int | None = None
    """The character the roll is made as, whose actions this turn are counted (RULES.md
    §3); None: the member's own, rolled without a sheet."""


@dataclass(frozen=True, slots=True)
class Ahead:
    """What a roll reads ahead, with its settings and in their statement (:func:`gather`):
    the member's standing (:meth:`bot.store.attempts.AttemptRepository.standing`: the
    failures at ``label``, the actions this turn and their own Will pool, whatever the
    roll turns out to need) and their open rolls here, which the roll closes. The roll's
    write has them checked rather than read again: on PostgreSQL the server checks them
    with the COMMIT, and the write runs again, reading them, if they moved meanwhile."""

    label: str | None
    standing: Standing
    open: tuple[OpenRoll, ...]


def read_table(
    tx: Tx,
    ctx: Ctx,
    config: ChannelConfig,
    label: str | None,
    character_id: int | None = None,
    *,
    request: RollRequest | None = None,
    ahead: Ahead | None = None,
    read: Standing | None = None,
    sheet: CharacterRecord | None = None,
    sheet_read: bool = False,
) -> Table:
    """Inside a transaction: the member's counters and Will in this channel (the Will and
    the actions this turn of ``character_id`` when the member rolls with a character).
    With ``request``, only what it depends on: a `fistful` request's actions this turn,
    the Will it declares. With ``ahead`` (read by the flow, for the same label, and as
    the same character), that is checked, not read again.
    ``read``: the standing this transaction read already, beside its settings (every
    part but the failures at a label, :func:`standing_beside`). ``sheet_read``: the flow
    read the sheet of ``character_id`` already (``sheet``; None: deleted since), whose Will
    pool is then not read again."""
    counted = bool(label) and config.pressure
    fistful = request is None or request.ruleset is Ruleset.FISTFUL
    will = request is None or request.will
    own_pool = will and character_id is None
    at = (label or "") if counted else None
    if read is not None and at is None:
        standing = read
    elif ahead is not None and at in {None, ahead.label}:
        standing = tx.attempts.standing(
            ctx.guild_id, ctx.channel_id, ctx.user_id, label=ahead.label, turn=True,
            will=True, acting=Acting.as_character(character_id), expected=ahead.standing,
        )
    else:
        standing = tx.attempts.standing(
            ctx.guild_id, ctx.channel_id, ctx.user_id, label=at, turn=fistful, will=own_pool,
            acting=Acting.as_character(character_id),
        )
    return Table(
        config=config,
        failures=standing.failures if counted else 0,
        turn_actions=standing.turn_actions if fistful else 0,
        pool=((None if sheet is None else sheet.will_pool()) if sheet_read
              else tx.will.get(ctx.guild_id, ctx.user_id, character_id))
        if will and not own_pool else standing.pool if own_pool else None,
        acting=character_id,
    )


def standing_beside(
    ctx: Ctx, label: str | None = None, acting: Acting | None = None
) -> Query[Standing]:
    """The member's standing (the failures at ``label`` if given, the actions this turn of
    their active character here, or of ``acting``, their own Will pool), to read beside
    the settings: what :func:`read_table` takes as ``read`` (without a label) and
    :class:`Ahead` holds."""
    if acting is None:
        acting = Acting.as_active(ctx.parent_id)
    return AttemptRepository.standing_query(
        ctx.guild_id, ctx.channel_id, ctx.user_id, label=label or None, turn=True, will=True,
        acting=acting,
    )


def with_table_state(request: RollRequest, table: Table) -> RollRequest:
    """A member's request with the penalties the table gives it: successive attempts at a
    labelled action, and the `fistful` Successive Action Penalty."""
    # Always replaced: a retry of a roll made under pressure loses its old penalty too.
    request = attempts.with_penalty(request, table.failures)
    if request.ruleset is Ruleset.FISTFUL:
        request = actions.with_penalty(request, table.turn_actions, table.config.fistful_step)
    return request


def count_roll(tx: Tx, ctx: Ctx, table: Table, label: str | None, result: RollResult) -> None:
    """Inside the roll's write: the member's counters after this roll (the engine counts,
    the store keeps): successive attempts at a labelled action, `fistful` actions this turn
    (its character's, ``table.acting``; an initiative roll is none)."""
    config = table.config
    failures = attempts.record(table.failures, result)
    if label and config.pressure and failures != table.failures:
        tx.attempts.save_failures(
            ctx.guild_id, ctx.channel_id, ctx.user_id, label, old=table.failures, new=failures,
            parent_id=ctx.parent_id,
        )
    if actions.is_action(result.request):
        tx.attempts.save_turn_actions(
            ctx.guild_id, ctx.channel_id, ctx.user_id, table.acting,
            old=table.turn_actions, new=table.turn_actions + 1,
        )


def closed_edits(closed: list[RollRecord], config: ChannelConfig) -> tuple[Edit, ...]:
    """Messages of rolls just closed whose buttons changed (Spend Will, Take a Beat, Try
    again go), in the background; a card that keeps the same buttons is left alone. A roll
    made in an action (a teamwork helper's or primary's, an extended action's) keeps the
    message its action drew (its title, its part in the action): only its buttons go."""
    return tuple(
        Edit(record.channel_id, record.message_id,
             Message() if record.action_id is not None else roll_message(record, config))
        for record in closed
        if record.message_id is not None and not record.private and closing_changes(record)
    )


def build_request(ruleset: Ruleset, terms: tuple[Term, ...], **options: Any) -> RollRequest:
    """The engine request for a command's roll options (unset options stay "not given");
    an option the ruleset does not have is refused naming both."""
    given = {name: value for name, value in options.items() if value not in (None, False, 0)}
    try:
        return RollRequest(ruleset=ruleset, terms=terms, **given)
    except ValidationError as error:
        problem = error.errors()[0]
        raise UserError(bad_option(str(problem["loc"][0]), problem["type"],
                                   problem.get("ctx", {}))) from error


Ask = Callable[[ChannelConfig], RollRequest]
"""The request a member asks for, given the channel's settings (its ruleset)."""


@dataclass(frozen=True, slots=True)
class Gathered:
    """What a roll reads before it rolls, in one trip: the channel's settings, the
    member's active character here, and the sheets a named ``resist`` may read."""

    config: ChannelConfig
    character: CharacterRecord | None
    targets: tuple[CharacterRecord, ...] = ()
    """The characters ``resist_target`` names (none, one, or several of one name)."""
    ahead: Ahead | None = None
    """What a roll read ahead (its standing and open rolls), when it did."""


def gather(
    tx: Tx, ctx: Ctx, ask: Ask | ByName | None = None, *, ahead: bool = False,
    label: str | None = None,
) -> Gathered:
    """Inside a read: the settings, the active character and the resistance's target
    (more SELECTs in the same transaction, so a roll by trait name costs no extra trip);
    with ``ahead``, what a roll labelled ``label`` reads ahead (:class:`Ahead`), in the
    settings' statement."""
    target = ask.target if isinstance(ask, ByName) else None
    read_ahead: Ahead | None = None
    if ahead:
        (config, character), standing, rolls = tx.queries.with_rows(
            ctx.config_query(character=True), standing_beside(ctx, label),
            RollRepository.open_query(ctx.guild_id, ctx.channel_id, ctx.user_id),
        )
        read_ahead = Ahead(label or None, standing, tuple(rolls))
    else:
        config, character = ctx.config_and_character(tx)
    return Gathered(
        config=config,
        character=character,
        targets=() if target is None else read_targets(tx, ctx, target),
        ahead=read_ahead,
    )


_MENTION: Final = re.compile(r"<@!?([0-9]{1,20})>")
_NUMBER: Final = re.compile(r"[+-]?[0-9]+")


@dataclass(frozen=True, slots=True)
class ResistTarget:
    """Whose sheet a named ``resist`` reads (RULES.md §6): a member (their active
    character in this server), or a character of this server by name."""

    member_id: int | None = None
    name: str | None = None

    @classmethod
    def of(cls, text: str) -> ResistTarget:
        """``resist_target`` as typed: a mention (``<@123>``), else a character's name."""
        match = _MENTION.fullmatch(text.strip())
        if match is not None:
            return cls(member_id=int(match[1]))
        return cls(name=" ".join(text.split()))


def read_targets(tx: Tx, ctx: Ctx, target: ResistTarget) -> tuple[CharacterRecord, ...]:
    """Inside a read: the target's active character here, or the server's characters of
    that name (only this server's: another server's sheets are never read)."""
    if target.member_id is not None:
        found = tx.characters.active(ctx.guild_id, target.member_id, ctx.channel_id,
                                     ctx.parent_id)
        return () if found is None else (found,)
    return tuple(tx.characters.named(ctx.guild_id, target.name or ""))


def resist_option(value: object) -> int | str | None:
    """``resist`` as given: a number of dice (0-100, checked again as every declared bound
    is: the option is text), or a trait's name."""
    if value is None or isinstance(value, int):
        return value
    text = str(value).strip()
    if _NUMBER.fullmatch(text):
        number = int(text)
        if not 0 <= number <= MAX_POOL:
            raise UserError(out_of_range("resist", 0, MAX_POOL, length=False))
        return number
    return text


def _refuse(refusal: Refusal, traits: str | None = None) -> UserError:
    """A roll's refusal; the sheet's traits it names in ``traits`` (the table's trait
    language, :func:`refusal_text`)."""
    return UserError(cannot_roll(refusal_text(refusal, traits=traits)))


def resisted(
    request: RollRequest,
    trait_text: str | None,
    target: ResistTarget | None,
    targets: tuple[CharacterRecord, ...],
    language: str,
) -> RollRequest:
    """The request with the target's resistance trait subtracted (RULES.md §6, `cofd`);
    refused when the trait, the target or its sheet is missing, or foreign to the ruleset,
    the trait named in ``language`` (the table's trait language, as its cards name it)."""
    if trait_text is None:
        raise _refuse(Refusal.of(RefusalCode.RESIST_TARGET_ALONE))
    if request.ruleset is not Ruleset.COFD:
        raise _refuse(Refusal.of(RefusalCode.OPTION_NOT_IN_RULESET, options="resist",
                                 ruleset=request.ruleset.value))
    trait = characters.resist_trait(trait_text)
    if isinstance(trait, Refusal):
        raise _refuse(trait)
    if target is None:
        raise _refuse(Refusal.of(RefusalCode.RESIST_NO_TARGET, trait=trait), language)
    if not targets:
        raise _refuse(
            Refusal.of(RefusalCode.RESIST_TARGET_NO_CHARACTER) if target.member_id is not None
            else Refusal.of(RefusalCode.RESIST_TARGET_UNKNOWN,
                            name=(target.name or "")[:characters.MAX_NAME]))
    if len(targets) > 1:
        raise _refuse(Refusal.of(RefusalCode.RESIST_TARGET_AMBIGUOUS,
                                 name=targets[0].name, count=len(targets)))
    sheet = targets[0].sheet
    value = characters.resistance(sheet, trait)
    if isinstance(value, Refusal):
        raise _refuse(value, language)
    return characters.with_resistance(request, trait, value, sheet.name)


def refuse_npc(
    ctx: Ctx, config: ChannelConfig, sheet: CharacterRecord | None, use: NpcUse = NpcUse.ROLL
) -> None:
    """Refuse acting as ``sheet`` when it is a non-player character and the member is no
    Storyteller here (COMMANDS.md: an NPC is "usable by Storytellers"): one made active
    where they manage the channel, or before their role was taken away, is not theirs to
    roll elsewhere or since, nor to spend its Will or give it a Beat on an earlier roll.
    ``use``: what they tried (the refusal says it: the NPC is their active sheet for a new
    roll only)."""
    if sheet is not None and sheet.sheet.npc and not ctx.storyteller(config):
        raise UserError(npc_not_yours(sheet.name, use))


@dataclass(frozen=True, slots=True)
class ByName:
    """A request whose pool may name traits (``Wits + Composure``), resolved against the
    roller's active sheet with the roll's options; ``spec`` names a specialty."""

    parts: tuple[NamedPart, ...]
    options: Mapping[str, Any] = field(default_factory=dict)
    """The roll options; ``resist`` may name a trait of ``resist_target``'s sheet."""
    spec: str | None = None

    @property
    def target(self) -> ResistTarget | None:
        """Whose sheet a named ``resist`` reads, if ``resist_target`` was given."""
        text = self.options.get("resist_target")
        return None if not text else ResistTarget.of(str(text))

    def request(self, ctx: Ctx, gathered: Gathered) -> RollRequest:
        """The engine request: names from the sheet, each term with its source, and the
        sheet's specialty and untrained adjustments (RULES.md §6); or a refusal."""
        return self.resolve(ctx, gathered.config, gathered.character,
                            targets=gathered.targets)[0]

    def resolve(
        self,
        ctx: Ctx,
        config: ChannelConfig,
        record: CharacterRecord | None,
        ruleset: Ruleset | None = None,
        targets: tuple[CharacterRecord, ...] = (),
    ) -> tuple[RollRequest, characters.Resolved]:
        """The request in ``ruleset`` (default: the channel's) with the names resolved
        against ``record`` (the acting member's character), and what the sheet said; a
        named ``resist`` reads ``targets`` (what :func:`read_targets` found)."""
        options = {k: v for k, v in self.options.items() if k not in {"resist", "resist_target"}}
        resist = resist_option(self.options.get("resist"))
        if isinstance(resist, int):
            options["resist"] = resist
        named = any(part.value is None for part in self.parts)
        sheet = None if record is None else record.sheet
        if (named or self.spec) and sheet is None:
            raise UserError(_(NO_CHARACTER_FOR_NAMES) if named else _(NO_CHARACTER))
        # Typed numbers too: the roll would be the NPC's (its name, Will, Beats).
        refuse_npc(ctx, config, record)
        found = characters.resolve(self.parts, sheet, spec=self.spec)
        if isinstance(found, Refusal):
            if found.code is RefusalCode.CHARACTER_NONE:
                raise UserError(_(NO_CHARACTER_FOR_NAMES))
            language = trait_language(ctx.public_voice(config))  # the traits as cards name them
            raise UserError(cannot_roll(refusal_text(found, traits=language)))
        request = build_request(ruleset or config.ruleset, found.terms, **options)
        name = None if record is None else record.name
        request = characters.with_sheet(request, found, name)
        target = self.target
        if isinstance(resist, str) or target is not None:
            trait = resist if isinstance(resist, str) else None
            request = resisted(request, trait, target, targets,
                               trait_language(ctx.public_voice(config)))
        return request, found

    def asked(self) -> Asked:
        """The request in the member's words, as a roll keeps it (Will left out)."""
        return Asked.of(self.parts, self.options, self.spec)

    @classmethod
    def of(cls, asked: Asked, *, will: bool = False) -> ByName:
        """A request kept as asked, asked again (with Will declared, if ``will``)."""
        options: dict[str, Any] = dict(asked.options)
        if will:
            options["will"] = True
        return cls(asked.named_parts(), options, asked.spec)


def format_parts(parts: tuple[NamedPart, ...]) -> str:
    """A pool as typed, bare names kept: ``Wits + Composure 2 - 1`` (an action's default
    label)."""
    text = ""
    for part in parts:
        body = " ".join(str(x) for x in (part.label, part.value) if x is not None)
        if not text:
            text = f"-{body}" if part.negative else body
        else:
            text += f" {'-' if part.negative else '+'} {body}"
    return text


def sheet_words(terms: tuple[Term, ...]) -> str | None:
    """The trait words of a pool resolved against a sheet (``Strength + Brawl``), typed
    numbers and plain numbers left out: what another member's sheet can roll. A term
    whose label is not a trait name a pool can type is left out too: a `fistful`
    specialty's +1 die, labelled ``Brawl: Boxing``, is the roller's own."""
    words = ""
    for term in terms:
        if term.label is None or term.source not in {TermSource.SHEET, TermSource.DERIVED}:
            continue
        try:
            parse_pool_names(term.label)
        except PoolSyntaxError:
            continue
        sign = "-" if term.value < 0 else "+"
        words = f"{words} {sign} {term.label}" if words else (
            f"- {term.label}" if sign == "-" else term.label)
    return words or None


def asked_request(ask: Ask | ByName, ctx: Ctx, gathered: Gathered) -> RollRequest:
    """The request of a command: by name against the sheet, or as the command built it."""
    return ask.request(ctx, gathered) if isinstance(ask, ByName) else ask(gathered.config)


"""Why a roll's button would not act (what a claimed retry answers when the claim fails)."""


async def roll(
    deps: Deps,
    ctx: Ctx,
    ask: Ask | ByName,
    *,
    label: str | None,
    private: bool,
) -> Reply:
    """Roll what the member asks for, store it and answer with its message.

    The channel's settings are read first, with what the roll reads ahead (a request
    the ruleset refuses takes no lock); then one write transaction has the member's
    counters, Will and open rolls checked (SQLite reads them again), rolls, and stores
    the roll and the new counters: the dice are drawn only once the transaction holds
    the table, so a refused write draws nothing, and two rolls of one member never
    count from the same state.
    """
    gathered = await deps.store.read(lambda tx: gather(tx, ctx, ask, ahead=True, label=label))
    return await roll_gathered(deps, ctx, gathered, ask, label=label, private=private)


async def roll_gathered(
    deps: Deps,
    ctx: Ctx,
    gathered: Gathered,
    ask: Ask | ByName,
    *,
    label: str | None,
    private: bool,
    retry_of: int | None = None,
    asked: Asked | None = None,
    again: bool = False,
    rolled_as: tuple[int | None, str | None] | None = None,
) -> Reply:
    """:func:`roll` once its settings and sheet were read (by a flow that read them with
    what it needed besides: a saved roll, the roll pressed). ``retry_of``: the roll whose
    one retry this roll claims in its write: Try again (only while that roll is open and
    failed), or Roll again (``again``: whenever); ``asked``: the request in the member's
    words, kept with the roll (a request by name keeps its own); ``rolled_as``: the
    character (id, name) the roll is made with, when not the active one (Try again rolls
    the request of the roll it retries, so as its character)."""
    config, character = gathered.config, gathered.character
    if isinstance(ask, ByName):
        asked = ask.asked()
    wanted = asked_request(ask, ctx, gathered)
    if rolled_as is None:
        rolled_as = (None, None) if character is None else (character.id, character.name)
    character_id, character_name = rolled_as

    def write(tx: Tx) -> tuple[RollRecord, list[RollRecord], WillPool | None]:
        table = read_table(tx, ctx, config, label, character_id, request=wanted,
                           ahead=gathered.ahead)
        request = with_table_state(wanted, table)
        if request.will and table.pool is not None and not will.can_spend(table.pool):
            # before the dice: an empty pool rolls nothing (a retry's press claims nothing)
            raise UserError(no_will(table.pool, again=retry_of is not None))
        ahead = gathered.ahead
        # A retry closes its open rolls as read ahead before its claim changes the roll
        # pressed (one of them, when open), so that they are checked as read. Try again
        # needs that roll open: it is one of the rolls just closed, or it is refused.
        closed_first = None if retry_of is None or ahead is None else tx.rolls.close_as_read(
            ctx.guild_id, ctx.channel_id, ctx.user_id, open_as_read=ahead.open)
        if retry_of is not None:
            _claim(tx, ctx, retry_of, again=again, closed_first=closed_first)
        result = roll_dice(request, deps.faces)
        if result.refused:
            why = cannot_roll(refusal_text(result.refusal)) + refusal_cause(request, label)
            raise UserError(why)
        roll = NewRoll(
            guild_id=ctx.guild_id,
            channel_id=ctx.channel_id,
            roller_id=ctx.user_id,
            roller_name=ctx.user_name,
            result=result,
            will_state=will_state_for(result, config),
            label=label,
            private=private,
            character_id=character_id,
            character_name=character_name,
            asked=asked,
        )
        if closed_first is not None:
            record = tx.rolls.insert(**roll)
            closed = [each.model_copy(update={"retried": True}) if each.id == retry_of
                      else each for each in closed_first]  # as the claim left it
        else:
            # Its open rolls as read ahead: on PostgreSQL nothing of this write is then
            # read back, and all of it goes with COMMIT.
            record, closed = tx.rolls.close_and_insert(
                # (a retry's claim has just changed the roll it retries, one of them)
                open_as_read=None if ahead is None or retry_of is not None else ahead.open,
                **roll,
            )
        left = None
        if request.will and table.pool is not None:
            left = tx.will.debit(ctx.guild_id, ctx.user_id, character_id, read=table.pool)
        count_roll(tx, ctx, table, label, result)
        return record, closed, left

    record, closed, left = await deps.store.write(write)
    return _answer(deps, ctx, record, closed, config, will_left=left)


def _claim(
    tx: Tx, ctx: Ctx, retry_of: int, *, again: bool, closed_first: list[RollRecord] | None
) -> None:
    """Inside the write of a retry: claim the roll's one retry, or refuse. Try again needs
    that roll open and still a failure as it stood when this write closed it (one of
    ``closed_first``: a Spend Will that landed meanwhile may have made it a success);
    Roll again only needs it unclaimed."""
    reason: PressRefusal | None = None
    if not again and closed_first is not None:
        before = next((each for each in closed_first if each.id == retry_of), None)
        reason = (
            retry_refusal(tx.rolls.get(retry_of), ctx.user_id) or PressRefusal.CLOSED
            if before is None
            else retry_refusal(before.model_copy(update={"closed": False}), ctx.user_id)
        )
    if reason is None and not tx.rolls.claim_retry(
        retry_of, ctx.user_id, while_open=closed_first is None and not again
    ):
        refused = again_refusal if again else retry_refusal
        reason = refused(tx.rolls.get(retry_of), ctx.user_id) or PressRefusal.ALREADY_RETRIED
    if reason is not None:
        raise UserError(press_refused(reason))


def _answer(
    deps: Deps,
    ctx: Ctx,
    record: RollRecord,
    closed: list[RollRecord],
    config: ChannelConfig,
    *,
    will_left: WillPool | None = None,
) -> Reply:
    """The roll's message: in the channel, or secretly with a public notice and the
    Storyteller's copy; then its message ids are remembered. Will declared with the roll
    is confirmed to the roller as a spend after the roll is. The table's messages speak
    its language; a secret roll's own message and the notes to the roller, theirs."""
    followups: tuple[tuple[Message, bool], ...] = ()
    posts: tuple[Post, ...] = ()
    public = ctx.public_voice(config)
    if record.private:
        message = roll_message(record, config)
        copies = config.storyteller_channel_id
        failed = None if copies is None else Message(_(COPY_FAILED))  # to the roller alone
        with speaking(public):
            followups = ((Message(content=secret_notice(roller=record.roller_name,
                                                         label=record.label)), False),)
            if copies is not None:  # a copy carries no buttons
                copy = replace(roll_message(record, config), view=None)
                posts = (Post(copies, copy, failed=failed),)
    else:
        with speaking(public):
            message = roll_message(record, config)
    with speaking(public):
        edits = closed_edits(closed, config)
    if will_left is not None:
        followups += ((Message(content=will_spent(will_left)), True),)

    async def remember(sent: Sent) -> None:
        copy_id = sent.posts[0] if sent.posts else None
        if sent.message_id is None and copy_id is None:
            return
        await deps.store.write(
            lambda tx: tx.rolls.attach_messages(
                record.id,
                sent.message_id,
                copy_channel_id=config.storyteller_channel_id if copy_id else None,
                copy_message_id=copy_id,
            )
        )

    return Reply(
        message=message,
        ephemeral=record.private,
        followups=followups,
        posts=posts,
        edits=edits,
        sent=remember,
    )


def _pool_as_rolled(request: RollRequest) -> str:
    """The pool with every automatic adjustment (resistance, specialty, untrained...) on
    one line, as /odds computed it: ``Strength 3 + Brawl 3 · -2 dice: resistance · = 4
    dice``; the terms alone when the request is refused."""
    prepared = prepare(request)
    if isinstance(prepared, Refusal):
        return format_pool(request.terms)
    will = WillUse.DECLARED if request.will else WillUse.NONE
    return " · ".join(breakdown_text(prepared.breakdown, request.ruleset, will).splitlines())


async def odds(deps: Deps, ctx: Ctx, ask: Ask | ByName, *, public: bool = False) -> Reply:
    """The exact chances of a request in this channel's ruleset, with a chart: for the
    asker alone unless ``public`` (a table's play channel is no place for 20 lines of odds);
    in the table's language when public."""
    gathered = await deps.store.read(lambda tx: gather(tx, ctx, ask))
    config = gathered.config
    request = asked_request(ask, ctx, gathered)
    chances = await asyncio.to_thread(exact_odds, request)
    if chances.refusal is not None:
        raise UserError(no_odds(refusal_text(chances.refusal)))
    with speaking(ctx.public_voice(config) if public else current()):
        pool_text = _pool_as_rolled(request)
        chosen = options_text(request)
        # to_thread runs the chart in a copy of this context: it speaks the same voice.
        chart = await asyncio.to_thread(
            odds_chart_png, chances, title=chart_title(pool_text, request.ruleset, chosen)
        )
        embed = odds_embed(
            chances, pool_text=pool_text, ruleset=request.ruleset,
            options_text=chosen, text_only=config.text_only,
        )
    message = Message(embed=embed, file=Attachment(CHART_NAME, chart))
    return Reply(message=shaped(message, config), ephemeral=not public)


# --- buttons --------------------------------------------------------------------------------


def refused_press(conflict: Conflict) -> str:
    """The words for a press the store's transaction refused (its reason, a PressRefusal)."""
    reason = conflict.reason
    return press_refused(reason if isinstance(reason, PressRefusal) else PressRefusal.BUSY)


@dataclass(frozen=True, slots=True)
class ActionRoll:
    """A roll made in an action (extended, teamwork) and what its buttons act on, read in
    one trip: the roll, its action, the roller's Will pool."""

    config: ChannelConfig
    roll: RollRecord | None
    record: ActionRecord | None
    pool: WillPool | None
    sheet_gone: bool = False
    """The roll was made with a character whose sheet was deleted since."""
    character: CharacterRecord | None = None
    """The sheet the roll was made with (an NPC's: :func:`refuse_npc`)."""


def read_action_roll(tx: Tx, ctx: Ctx, roll_id: int) -> ActionRoll:
    """Inside a read: a roll of an action with its action and the roller's Will pool, in
    one statement."""
    (config, _), pressed = tx.rolls.beside_pressed(ctx.config_query(), roll_id)
    return ActionRoll(config=config, roll=pressed.roll, record=pressed.action,
                      pool=pressed.pool, sheet_gone=pressed.sheet_gone,
                      character=pressed.character)


async def pressed(deps: Deps, ctx: Ctx, press: Press) -> Reply:
    """A button of a roll's message."""
    if press.action == "will":
        return await spend_will_pressed(deps, ctx, press.key)
    if press.action == "beat":
        return await take_beat_pressed(deps, ctx, press.key)
    if press.action == "again":
        return await roll_again_pressed(deps, ctx, press.key)
    if press.action == "save":
        return await save_pressed(deps, ctx, press.key)
    return await try_again_pressed(deps, ctx, press.key)


def _updated(
    ctx: Ctx, record: RollRecord, config: ChannelConfig
) -> tuple[Message, tuple[Edit, ...]]:
    """The pressed message updated in place, in the language it was drawn in (a secret
    roll's in its roller's, as :func:`_answer` drew it; the table's otherwise), and the
    Storyteller's copy of a secret roll (in the table's language)."""
    with speaking(ctx.public_voice(config)):
        public = roll_message(record, config)
    message = roll_message(record, config) if record.private else public
    edits: tuple[Edit, ...] = ()
    if record.copy_channel_id is not None and record.copy_message_id is not None:
        edits = (Edit(record.copy_channel_id, record.copy_message_id,
                      replace(public, view=None)),)
    return message, edits


def _own_card(pressed: Pressed, user_id: int) -> None:
    """Refuse a roll button's press on a roll made in an action (an extended action's, a
    teamwork's, a contest's): its Spend Will and Take a Beat, if any, are its action's
    buttons, which change the action with the roll. No message draws a plain roll's button
    for such a roll, so only a forged custom_id gets here; acting on it would change the
    roll and leave its action reading the roll as it was (raised as Conflict: nothing
    written)."""
    roll = pressed.roll
    if roll is not None and roll.action_id is not None:
        raise Conflict(pressed_refusal(roll, user_id) or PressRefusal.STALE)


def spend_will_in(
    tx: Tx, ctx: Ctx, config: ChannelConfig, pressed: Pressed, faces: FaceSource
) -> tuple[RollRecord, WillPool | None]:
    """Inside a write, on a roll read in it with its pool (``pressed``): Spend Will as the
    roll stands now (§4), its Will dice drawn only once the rule lets the spend act (two
    presses at once draw once), the roll changed and its pool debited. Raises Conflict
    with why it did not act, RuleError when the rules refuse it, UserError when the roll
    is an NPC's and its roller no Storyteller here (nothing written)."""
    record, pool = pressed.roll, pressed.pool
    refused = will_spend_refusal(record, ctx.user_id, pool, sheet_gone=pressed.sheet_gone)
    if refused is not None or record is None:
        raise Conflict(refused or PressRefusal.NOT_FOUND)
    refuse_npc(ctx, config, pressed.character, NpcUse.WILL)  # its Will is the NPC's
    result = spend_will(record.result, faces)
    changed = tx.rolls.spend_will(record.id, ctx.user_id, result, read=record)
    if changed is None:  # the rule above said it would act: a bug if not
        msg = f"Spend Will on roll {record.id} changed nothing, yet nothing refused it"
        raise RuntimeError(msg)
    if pool is not None:
        pool = tx.will.debit(record.guild_id, record.roller_id, record.character_id,
                             read=pool)
    return changed, pool


def take_beat_in(
    tx: Tx, ctx: Ctx, config: ChannelConfig, pressed: Pressed
) -> tuple[RollRecord, int]:
    """Inside a write, on a roll read in it with its Beats (``pressed``): Take a Beat as the
    roll stands now (a Spend Will may have made it a success since the press), the roll
    changed and the Beat given to its roller (or its character). Raises Conflict with why
    it did not act, RuleError when the rules refuse it, UserError when the roll is an
    NPC's and its roller no Storyteller here (nothing written)."""
    roll = pressed.roll
    refused = beat_refusal(roll, ctx.user_id, sheet_gone=pressed.sheet_gone)
    if refused is not None or roll is None:
        raise Conflict(refused or PressRefusal.NOT_FOUND)
    refuse_npc(ctx, config, pressed.character, NpcUse.BEAT)  # the Beat would be the NPC's
    changed = tx.rolls.take_beat(roll.id, ctx.user_id, take_beat(roll.result), read=roll)
    if changed is None:
        now = tx.rolls.get(roll.id)
        raise Conflict(beat_refusal(now, ctx.user_id) or PressRefusal.BEAT_TAKEN)
    beats = tx.will.add_beat(changed.guild_id, changed.roller_id, changed.character_id,
                             read=(pressed.beats, pressed.character))
    return changed, beats


async def spend_will_pressed(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Spend Will: the same message is updated in place and the Will pool loses 1.

    One transaction: the roll and the pool as they stand, the rule (§4), the Will dice
    drawn only when the spend will take effect (two presses at once draw once), then
    the update and the debit.
    """

    def spend(tx: Tx) -> tuple[ChannelConfig, RollRecord, WillPool | None]:
        # Every read before the first write, in one statement (PostgreSQL holds the
        # writes back and sends them with COMMIT).
        (config, _), pressed = tx.rolls.beside_pressed(ctx.config_query(), roll_id)
        _own_card(pressed, ctx.user_id)
        changed, pool = spend_will_in(tx, ctx, config, pressed, deps.faces)
        if changed.label and changed.result.succeeded:
            # Successive attempts reset when the action succeeds, Will included.
            tx.attempts.reset(changed.guild_id, changed.channel_id, changed.roller_id,
                              changed.label)
        return config, changed, pool

    try:
        config, changed, pool = await deps.store.write(spend)
    except Conflict as conflict:
        raise UserError(refused_press(conflict)) from None
    except RuleError as error:
        raise UserError(cannot_spend_will(refusal_text(error.refusal))) from error
    message, edits = _updated(ctx, changed, config)
    followups = () if pool is None else ((Message(content=will_spent(pool)), True),)
    return Reply(message=message, update=True, followups=followups, edits=edits)


async def take_beat_pressed(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Take a Beat: the failure becomes a dramatic failure and the roller gains a Beat.

    One transaction reads the roll, decides and writes, as Spend Will does: a Spend Will
    landing between a separate read and write would otherwise be overwritten by a Beat
    decided on the roll as it was before it.
    """

    def write(tx: Tx) -> tuple[ChannelConfig, RollRecord, int]:
        # Every read before the first write, in one statement: the roll, and the Beats
        # (or the sheet) the Beat goes to (PostgreSQL holds the writes back until COMMIT).
        (config, _), pressed = tx.rolls.beside_pressed(ctx.config_query(), roll_id)
        _own_card(pressed, ctx.user_id)
        changed, beats = take_beat_in(tx, ctx, config, pressed)
        return config, changed, beats

    try:
        config, changed, beats = await deps.store.write(write)
    except Conflict as conflict:
        raise UserError(refused_press(conflict)) from None
    except RuleError as error:
        raise UserError(no_beat(refusal_text(error.refusal))) from error
    message, edits = _updated(ctx, changed, config)
    return Reply(
        message=message, update=True, edits=edits,
        followups=((Message(content=beat_taken(
            beats, on_sheet=changed.character_id is not None)), True),),
    )


async def try_again_pressed(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Roll the same request again, with the successive-attempt penalty it now carries.
    The press claims the roll's one retry in the new roll's write, while the roll is still
    open, so two presses at once roll once."""
    state = await deps.store.read(lambda tx: _read_again(tx, ctx, roll_id, by_name=False))
    record = state.roll
    refused = retry_refusal(record, ctx.user_id)
    if refused is not None or record is None:
        raise UserError(press_refused(refused or PressRefusal.NOT_FOUND))
    if state.sheet_gone:  # its Will and Beats would have no sheet to act on
        raise UserError(press_refused(PressRefusal.SHEET_GONE))
    if state.npc and not ctx.storyteller(state.gathered.config):
        # a new roll as the NPC, by a member who is no Storyteller here any more (ByName)
        raise UserError(npc_not_yours(record.character_name or "", NpcUse.AGAIN))
    if record.request.ruleset is not state.gathered.config.ruleset:
        raise UserError(_(RULESET_CHANGED))
    # Will is declared again only where no Spend Will button would offer it (will_again).
    # The request is the roll's own (a sheet's numbers as they were), so it is rolled as
    # the character that roll was made with, whichever is active now: its Will and Beats
    # are that one's.
    request = record.request.model_copy(
        update={"will": will_again(record, state.gathered.config)})
    return await roll_gathered(
        deps, ctx, state.gathered, lambda _: request,
        label=record.label, private=record.private, retry_of=roll_id, asked=record.asked,
        rolled_as=(record.character_id, record.character_name),
    )


@dataclass(frozen=True, slots=True)
class PressedAgain:
    """What Try again and Roll again read in one trip: the roll pressed, the settings and
    the sheet, and what the new roll reads ahead."""

    roll: RollRecord | None
    gathered: Gathered
    sheet_gone: bool = False
    """Try again: the roll was made with a character whose sheet was deleted since."""
    npc: bool = False
    """Try again: the roll was made with a non-player character."""


def _read_again(tx: Tx, ctx: Ctx, roll_id: int, *, by_name: bool) -> PressedAgain:
    """Inside a read: the roll pressed beside the settings and the sheet, with what the new
    roll reads ahead (gather's), in one statement: the standing (the failures at the
    roll's label are read by the write, should they count), the roller's open rolls here.
    ``by_name`` (Roll again: the request as asked, resolved anew): the active character,
    and the sheets a named resist_target reads, when it names one; else (Try again, as the
    roll's character) whether that sheet is still there: a second statement, for a roll
    made with a character only."""
    # Try again rolls as the roll's character, Roll again as the active one (roll_gathered)
    acting = None if by_name else Acting.as_rolled(roll_id)
    (config, character), standing, rows = tx.queries.with_rows(
        ctx.config_query(character=by_name), standing_beside(ctx, acting=acting),
        RollRepository.with_open_query(roll_id, ctx.guild_id, ctx.channel_id, ctx.user_id),
    )
    pressed, still_open = pressed_and_open(rows, roll_id, ctx.guild_id, ctx.channel_id,
                                           ctx.user_id)
    asked = None if not by_name or pressed is None or pressed.asked is None else ByName.of(
        pressed.asked)
    target = None if asked is None else asked.target
    sheet_gone = npc = False
    if not by_name and pressed is not None and pressed.character_id is not None:
        sheet = tx.characters.get(pressed.character_id)
        # the sheet the roll could have been made with (as RollRepository.pressed_query)
        sheet_gone = sheet is None or sheet.guild_id != pressed.guild_id or (
            sheet.owner_id != pressed.roller_id and not sheet.sheet.npc)
        npc = sheet is not None and sheet.sheet.npc
    return PressedAgain(roll=pressed, gathered=Gathered(
        config=config, character=character,
        targets=() if target is None else read_targets(tx, ctx, target),
        ahead=Ahead(None, standing, still_open),
    ), sheet_gone=sheet_gone, npc=npc)


async def roll_again_pressed(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Roll again: the same request as its roller asked it (trait names resolved against
    the sheet of now, the channel's ruleset of now), fresh dice, the successive-attempt
    rules applied as to any roll. Will is declared again only where no Spend Will button
    would offer it (:func:`~engine.offers.will_again`). The press claims the roll's one
    retry in the new roll's write, so two presses at once roll once."""
    state = await deps.store.read(lambda tx: _read_again(tx, ctx, roll_id, by_name=True))
    record = state.roll
    refused = again_refusal(record, ctx.user_id)
    if refused is not None or record is None:
        raise UserError(press_refused(refused or PressRefusal.NOT_FOUND))
    if record.asked is None or record.action_id is not None:
        raise UserError(_(NOT_ASKED))
    return await roll_gathered(
        deps, ctx, state.gathered,
        ByName.of(record.asked, will=will_again(record, state.gathered.config)),
        label=record.label, private=record.private, retry_of=roll_id, again=True,
    )


async def save_pressed(deps: Deps, ctx: Ctx, roll_id: int) -> Reply:
    """Save this roll: the roller is asked a name in a form (answered by
    :func:`bot.flows.saved.form_submitted`); the roll itself does not change."""
    record = await deps.store.read(lambda tx: tx.rolls.get(roll_id))
    refused = pressed_refusal(record, ctx.user_id)
    if refused is not None or record is None:
        raise UserError(press_refused(refused or PressRefusal.NOT_FOUND))
    if record.asked is None or record.action_id is not None:
        raise UserError(_(NOT_ASKED))
    return Reply(modal=save_form(roll_id, record.label))


