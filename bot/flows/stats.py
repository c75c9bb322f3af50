"""`/stats`: are this table's dice fair? Counts, tests against the exact odds, a chart;
and `/stats export`, the roll log as CSV.

One read, one statement: the settings and the counters the viewer may see (a few rows
whatever the log's length, kept by the store with every roll; the statement tests the
server's Storyteller role, which decides whether others' secret rolls count). Then, off
the event loop, the engine's tests (the odds of each distinct request shape, computed
once and cached) and the chart. The export is one statement too, the same way.

Over the whole server, a member who is not the server's Storyteller counts the rolls of
the channels and threads they can read (``Ctx.readable``, from the edge), so that a roll
behind a Storyteller's "GM screen" shows in no total of theirs; their own rolls, when
they name themselves, count wherever they made them. A roll in a thread archived since is
left out of the others' totals, as the bot does not know its channel (Discord sends
only active threads). The export reads this channel only.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, date, datetime
from enum import StrEnum

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError, say
from bot.render.lang import _
from bot.render.message import Attachment, Message, shaped_in_full
from bot.render.stats import (
    CHART_NAME,
    EXPORT_NAME,
    EXPORT_ONLY_OWN,
    EXPORT_THIS_CHANNEL,
    bad_since,
    export_csv,
    export_text,
    no_rolls,
    not_one_of,
    stats_chart_png,
    stats_embed,
    whose,
)
from bot.store.stats import MAX_EXPORT, Guarded, StatsRepository, samples_of
from engine.models import Ruleset
from engine.stats import Part, Report, Sample, analyse, parse_since, parts


class Scope(StrEnum):
    """Where the rolls counted were made."""

    CHANNEL = "channel"
    SERVER = "server"


@dataclass(frozen=True, slots=True)
class Member:
    """Whose rolls: the member named in the command."""

    user_id: int
    name: str


def _since(text: str | None) -> date | None:
    if text is None:
        return None
    since = parse_since(text, datetime.now(UTC).date())
    if since is None:
        raise UserError(bad_since(text))
    return since


def _analysed(samples: Sequence[Sample], title: str) -> tuple[list[Report], bytes]:
    reports = [analyse(sample) for sample in samples]
    return reports, stats_chart_png(reports, title=title)


async def stats(
    deps: Deps,
    ctx: Ctx,
    *,
    member: Member | None = None,
    scope: str = Scope.CHANNEL,
    ruleset: str | None = None,
    since: str | None = None,
    export: bool = False,
) -> Reply:
    """The member's or the table's rolls summarised and tested (only the asker sees it)."""
    where, kept = _scope(scope), _ruleset(ruleset)
    first_day = _since(since)
    if export:
        return await _export(deps, ctx, member=member, scope=where, ruleset=kept,
                             since=first_day)
    return await _summary(deps, ctx, member=member, scope=where, ruleset=kept,
                          first_day=first_day)


def _scope(text: str) -> Scope:
    try:
        return Scope(text)
    except ValueError:
        raise UserError(not_one_of("scope", text, [each.value for each in Scope])) from None


def _ruleset(text: str | None) -> Ruleset | None:
    if text is None:
        return None
    try:
        return Ruleset(text)
    except ValueError:
        raise UserError(not_one_of("ruleset", text, [each.value for each in Ruleset])) from None


async def _summary(
    deps: Deps,
    ctx: Ctx,
    *,
    member: Member | None,
    scope: Scope,
    ruleset: Ruleset | None,
    first_day: date | None,
) -> Reply:
    """Counts, tests and chart of the rolls the viewer may see."""
    server = scope is Scope.SERVER
    # Over the whole server, another than the Storyteller counts others' rolls only where
    # they can read (ctx.readable, this channel at least): a roll in a channel hidden
    # from them is no part of any total they see (engine.stats.parts).
    readable = ctx.readable | {ctx.channel_id} if server else None

    def counted(sees_secrets: bool) -> tuple[Part, ...]:
        return parts(channel_id=None if server else ctx.channel_id,
                     member_id=None if member is None else member.user_id,
                     viewer_id=ctx.user_id, sees_secrets=sees_secrets, readable=readable)

    # Others' secret rolls, and every channel's rolls, count for a Storyteller here; over
    # the whole server, only for one by the server's role or a server admin (Manage
    # Channels in this channel says nothing of the others). The statement decides which
    # parts count (Viewer).
    secret, plain = counted(sees_secrets=True), counted(sees_secrets=False)
    guarded: list[Guarded] = [(part, None) for part in plain]
    if secret != plain:
        guarded = [(part, when) for when, split in ((True, secret), (False, plain))
                   for part in split]
    query = StatsRepository.samples_query(ctx.viewer(server=server), guarded,
                                          since=first_day, ruleset=ruleset)
    (config, _), rows = await deps.store.read(
        lambda tx: tx.queries.beside_rows(ctx.config_query(), query))
    samples = samples_of(rows)
    name = None if member is None else member.name
    if not samples:
        return say(no_rolls(name, server=server, since=first_day, ruleset=ruleset))
    title = whose(name, server=server)
    reports, chart = await asyncio.to_thread(
        _analysed, samples, whose(name, server=server, markdown=False))
    embed = stats_embed(reports, whose=title, since=first_day, text_only=config.text_only)
    # Plain messages hold 2,000 characters: a longer report follows in more messages
    # (three rulesets' results pass it), the first with the chart.
    first, *rest = shaped_in_full(Message(embed=embed, file=Attachment(CHART_NAME, chart)),
                                  config)
    return Reply(message=first, ephemeral=True, followups=tuple((more, True) for more in rest))


async def _export(
    deps: Deps,
    ctx: Ctx,
    *,
    member: Member | None,
    scope: Scope,
    ruleset: Ruleset | None,
    since: date | None,
) -> Reply:
    """A member's own rolls in this channel, or (the Storyteller) the channel's, as CSV:
    the newest that fit in one file Discord takes, the reply saying when older ones are
    left out."""
    if scope is Scope.SERVER:
        raise UserError(_(EXPORT_THIS_CHANNEL))

    # One statement: whether the viewer is the Storyteller, and the rows they may have
    # (a Storyteller any member's, another their own only: none of another's is read).
    roller = None if member is None else member.user_id
    # One row past the most a file lists says whether older ones were left out.
    storyteller, rows = await deps.store.read(lambda tx: tx.stats.log(
        ctx.viewer(), ctx.channel_id, roller_id=roller, since=since, ruleset=ruleset,
        limit=MAX_EXPORT + 1))
    if roller is not None and roller != ctx.user_id and not storyteller:
        raise UserError(_(EXPORT_ONLY_OWN))
    everyone = roller is None and storyteller
    # The newest rows that fit in a file Discord takes (render.stats.EXPORT_BYTES).
    data, listed = await asyncio.to_thread(export_csv, rows[:MAX_EXPORT])
    text = export_text(listed, member=None if member is None else member.name,
                       everyone=everyone, cut=listed < len(rows))
    return Reply(message=Message(content=text, file=Attachment(EXPORT_NAME, data)),
                 ephemeral=True)
