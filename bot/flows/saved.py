"""`/saved` and the Save this roll form: a member's named rolls per server.

A saved roll keeps the request as asked (:class:`engine.saved.Asked`: trait names,
options, specialty) and its label. Rolling it goes through the same roll flow as
`/roll` (:func:`bot.flows.rolls.roll_gathered`), with the saved roll read in the
same trip as the channel's settings and the member's sheet: names resolve against
the sheet of now, options against the channel's ruleset of now.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from bot.edge.ids import Press
from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError, say
from bot.flows.rolls import ByName, Gathered, read_targets, roll_gathered
from bot.render.buttons import cannot_roll, press_refused
from bot.render.lang import _
from bot.render.refusals import refusal_text
from bot.render.saved import (
    NAME_FIELD,
    NOT_ASKED,
    options_apart_refused,
    save_refused,
    saved_deleted,
    saved_done,
    saved_list,
    unknown_saved,
)
from bot.store import Tx
from bot.store.saved import SavedRollRepository, Standing
from engine.characters import fold
from engine.offers import pressed_refusal
from engine.parser import NamedPart
from engine.records import PressRefusal
from engine.saved import (
    Asked,
    SavedRoll,
    name_key,
    never_rolls,
    options_apart,
    save_refusal,
)

#: Discord shows at most 25 autocomplete choices.
MAX_SUGGESTIONS = 25


def _save(
    tx: Tx, ctx: Ctx, name: str, asked: Asked, label: str | None, *, replace: bool,
    standing: Standing | None = None,
) -> tuple[SavedRoll, bool]:
    """Inside a write: save if the rule allows (name, limit, replace), else refuse.
    ``standing``: the member's roll of that name and how many they keep, as this
    transaction read them (else read here)."""
    standing = standing or tx.queries.one(
        SavedRollRepository.standing_query(ctx.guild_id, ctx.user_id, name))
    refused = save_refusal(name, taken=standing.taken, count=standing.count, replace=replace)
    if refused is not None:
        raise UserError(save_refused(refused, name))
    saved = tx.saved.put(ctx.guild_id, ctx.user_id, name, asked, label,
                         replacing=standing.id)
    return saved, standing.taken


async def add(
    deps: Deps,
    ctx: Ctx,
    name: str,
    parts: tuple[NamedPart, ...],
    options: Mapping[str, Any],
    *,
    label: str | None = None,
    spec: str | None = None,
    replace: bool = False,
) -> Reply:
    """`/saved add`: save a pool (trait names kept as names) with its options and label.
    Nothing is resolved or rolled now: the sheet and the ruleset are read when it rolls;
    a roll no table could make (options of different rulesets, a pool `/roll` refuses at
    every table) is refused, and nothing is saved."""
    asked = Asked.of(parts, options, spec)
    apart = options_apart(asked)
    if apart:
        raise UserError(options_apart_refused(apart))
    refused = never_rolls(asked)
    if refused is not None:
        raise UserError(cannot_roll(refusal_text(refused)))
    saved, replaced = await deps.store.write(
        lambda tx: _save(tx, ctx, name, asked, label, replace=replace))
    return say(saved_done(saved, replaced=replaced))


@dataclass(frozen=True, slots=True)
class Found:
    """What rolling a saved roll reads in one trip."""

    gathered: Gathered
    saved: SavedRoll | None
    names: list[str]
    """The member's names, to answer an unknown one (read only then)."""


def _find(tx: Tx, ctx: Ctx, name: str) -> Found:
    """The settings, the member's character and the saved roll in one statement; the
    sheets it resists, when it names them; the member's names, when it is not found."""
    (config, character), saved = tx.queries.both(
        ctx.config_query(character=True),
        SavedRollRepository.get_query(ctx.guild_id, ctx.user_id, name),
    )
    if saved is None:
        return Found(gathered=Gathered(config, character), saved=None,
                     names=tx.saved.names(ctx.guild_id, ctx.user_id))
    target = ByName.of(saved.asked).target  # whose sheet it resists
    targets = () if target is None else read_targets(tx, ctx, target)
    return Found(gathered=Gathered(config, character, targets), saved=saved, names=[])


async def roll(
    deps: Deps,
    ctx: Ctx,
    name: str,
    *,
    modifier: int = 0,
    will: bool = False,
    label: str | None = None,
    private: bool = False,
) -> Reply:
    """`/saved roll`: the saved request as `/roll` would roll it now, with ``modifier``
    dice more or fewer, Will declared if asked, the label given (else the saved one)."""
    found = await deps.store.read(lambda tx: _find(tx, ctx, name))
    if found.saved is None:
        raise UserError(unknown_saved(name, found.names))
    asked = found.saved.asked.with_modifier(modifier)
    return await roll_gathered(
        deps, ctx, found.gathered, ByName.of(asked, will=will),
        label=label or found.saved.label, private=private,
    )


async def show(deps: Deps, ctx: Ctx) -> Reply:
    """`/saved list`: the member's saved rolls here, to them alone."""
    saved = await deps.store.read(lambda tx: tx.saved.all(ctx.guild_id, ctx.user_id))
    return say(saved_list(saved))


async def delete(deps: Deps, ctx: Ctx, name: str) -> Reply:
    """`/saved delete`: forget one saved roll."""

    def write(tx: Tx) -> tuple[SavedRoll | None, list[str]]:
        gone = tx.saved.delete(ctx.guild_id, ctx.user_id, name)
        return gone, [] if gone is not None else tx.saved.names(ctx.guild_id, ctx.user_id)

    gone, names = await deps.store.write(write)
    if gone is None:
        raise UserError(unknown_saved(name, names))
    return say(saved_deleted(gone))


async def suggestions(deps: Deps, ctx: Ctx, typed: str) -> list[tuple[str, str]]:
    """Autocomplete of ``name``: the member's saved names, those starting with what was
    typed first, then those containing it; at most 25, as (shown, value)."""
    names = await deps.store.read(lambda tx: tx.saved.names(ctx.guild_id, ctx.user_id))
    key = fold(typed)
    first = [n for n in names if name_key(n).startswith(key)]
    more = [n for n in names if key and key in name_key(n) and n not in first]
    return [(n, n) for n in (first + more)[:MAX_SUGGESTIONS]]


async def form_submitted(
    deps: Deps, ctx: Ctx, press: Press, values: Mapping[str, str]
) -> Reply:
    """The Save this roll form (``sb1:saveas:<roll id>``): save the roll as asked, with its
    options and label, under the name typed; only for its roller. The roll is read in the
    same write that saves, so a roll voided meanwhile is not saved."""
    name = values.get(NAME_FIELD, "")
    roll_id = press.key

    def write(tx: Tx) -> tuple[SavedRoll, bool]:
        standing, record = tx.rolls.beside(  # in one statement
            SavedRollRepository.standing_query(ctx.guild_id, ctx.user_id, name), roll_id)
        refused = pressed_refusal(record, ctx.user_id)
        if refused is not None or record is None:
            raise UserError(press_refused(refused or PressRefusal.NOT_FOUND))
        if record.asked is None or record.action_id is not None:
            raise UserError(_(NOT_ASKED))
        return _save(tx, ctx, name, record.asked, record.label, replace=False,
                     standing=standing)

    saved, replaced = await deps.store.write(write)
    return say(saved_done(saved, replaced=replaced))
