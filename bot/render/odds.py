"""Exact odds as players see them: percentages in an embed and a bar chart image.

:func:`odds_chart_png` is CPU work (Pillow): the cog runs it with
``asyncio.to_thread`` and attaches the bytes as ``odds.png``, which the embed
from :func:`odds_embed` shows.
"""

from __future__ import annotations

import io
import math
from typing import Final

import discord
from PIL import Image, ImageDraw

from bot.render.lang import _, number, user
from bot.render.lang import percent as percentage
from bot.render.refusals import refusal_text
from bot.render.rolls import refusal, ruleset_name
from bot.render.text import INFO_COLOUR, escaped, outcome_word, percent
from bot.render.typeface import chart_font
from engine.models import Outcome, Ruleset
from engine.odds import Odds

__all__ = ["CHART_NAME", "chart_title", "odds_chart_png", "odds_embed"]

#: The attachment the embed's image points at.
CHART_NAME: Final = "odds.png"
#: Worst first, as a player weighs them.
_OUTCOME_ORDER: Final = (
    Outcome.DRAMATIC_FAILURE,
    Outcome.BOTCH,
    Outcome.FAILURE,
    Outcome.SUCCESS,
    Outcome.EXCEPTIONAL_SUCCESS,
)
#: At-least lines shown from the last near-certain count to the first below 0.01%;
#: a wider spread (a 100-die 8-again pool) is shown every few counts.
_AT_LEAST_LINES: Final = 40
_SHOWN: Final = 0.00005
_FIELD_LIMIT: Final = 1024
#: Characters of the chart title that fit the image width.
_TITLE_LIMIT: Final = 100

_SIZE: Final = (800, 400)
_MARGIN: Final = (64, 48, 24, 56)  # left, top, right, bottom
_BACKGROUND: Final = (43, 45, 49)
_INK: Final = (220, 221, 222)
_GRID: Final = (78, 80, 88)
_FAIL_BAR: Final = (237, 66, 69)
_SUCCESS_BAR: Final = (87, 242, 135)
#: Bars at least this wide (pixels) carry their percentage.
_LABELLED_SLOT: Final = 40
#: Bars below this probability are left out at either end of the chart.
_CHART_FLOOR: Final = 0.0005


def odds_embed(
    odds: Odds, *, pool_text: str, ruleset: Ruleset, options_text: str, text_only: bool = False
) -> discord.Embed:
    """The /odds reply: each outcome's chance and the chance of at least N successes.

    A refused request shows why instead, with no chart (send no attachment then).
    """
    lines = [_("Pool: {pool}", pool=escaped(pool_text, limit=400)),
             _("Ruleset: {ruleset}", ruleset=ruleset_name(ruleset))]
    if options_text:
        lines.append(_("Options: {options}", options=escaped(options_text, limit=400)))
    embed = discord.Embed(
        title=_("Odds") if text_only else "📊 " + _("Odds"),
        description="\n".join(lines),
        colour=INFO_COLOUR,
    )
    if odds.refusal is not None:
        embed.description = f"{embed.description}\n\n{refusal(refusal_text(odds.refusal))}"
        return embed
    outcomes = [  # an outcome this request cannot reach is left out, not shown at 0 %
        f"{outcome_word(outcome)}: {percent(odds.outcomes[outcome])}"
        for outcome in _OUTCOME_ORDER
        if odds.outcomes.get(outcome, 0) > 0
    ]
    average = math.fsum(count * chance for count, chance in odds.successes.items())
    outcomes.append(_("Average: {average} successes", average=number(average, 2)))
    embed.add_field(name=_("Outcomes"), value="\n".join(outcomes), inline=False)
    for place, chunk in enumerate(_chunks(_at_least_lines(odds))):
        name = _("At least N successes") if place == 0 else _("At least N (continued)")
        embed.add_field(name=name, value=chunk, inline=True)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=_("Exact chances computed from the rules, not a simulation."))
    return embed


def _at_least_lines(odds: Odds) -> list[str]:
    counts = sorted(odds.at_least)
    first = 0
    while first + 1 < len(counts) and odds.at_least[counts[first + 1]] > 1 - _SHOWN:
        first += 1
    last = first
    while last + 1 < len(counts) and odds.at_least[counts[last]] >= _SHOWN:
        last += 1
    shown = counts[first : last + 1]
    step = math.ceil(len(shown) / _AT_LEAST_LINES) or 1
    return [_("{count} or more: {percent}", count=count, percent=percent(odds.at_least[count]))
            for count in shown[::step]]


def _chunks(lines: list[str]) -> list[str]:
    """Lines packed into field values of at most 1,024 characters."""
    chunks: list[str] = []
    current: list[str] = []
    for line in lines:
        if current and len("\n".join([*current, line])) > _FIELD_LIMIT:
            chunks.append("\n".join(current))
            current = []
        current.append(line)
    if current:
        chunks.append("\n".join(current))
    return chunks


def chart_title(pool_text: str, ruleset: Ruleset, options_text: str) -> str:
    """The chart's title: the pool, the ruleset and every option, so a shared image says
    what it is the odds of."""
    title = f"{pool_text} ({user(ruleset.value)})"
    return f"{title}, {options_text}" if options_text else title


def odds_chart_png(odds: Odds, *, title: str) -> bytes:
    """A bar chart of the chance of each number of successes, as PNG bytes (800×400).

    Counts less likely than 0.05% are left out at both ends so the likely
    ones stay readable.
    """
    image = Image.new("RGB", _SIZE, _BACKGROUND)
    draw = ImageDraw.Draw(image)
    font = chart_font(14)
    small = chart_font(12)
    width, height = _SIZE
    left, top, right, bottom = _MARGIN
    shown = title if len(title) <= _TITLE_LIMIT else title[: _TITLE_LIMIT - 1] + "…"
    draw.text((width / 2, 14), shown, font=font, fill=_INK, anchor="mt")

    likely = [count for count, chance in odds.successes.items() if chance >= _CHART_FLOOR]
    counts = list(range(min(likely, default=0), max(likely, default=0) + 1))
    peak = max((odds.successes.get(count, 0.0) for count in counts), default=0.0)
    scale = _nice_ceiling(peak)

    plot_w, plot_h = width - left - right, height - top - bottom
    for tick in range(5):
        value = scale * tick / 4
        y = top + plot_h - plot_h * tick / 4
        draw.line((left, y, width - right, y), fill=_GRID)
        draw.text((left - 6, y), _tick(value), font=small, fill=_INK, anchor="rm")

    slot = plot_w / len(counts)
    label_every = math.ceil(len(counts) / 20)
    for place, count in enumerate(counts):
        chance = odds.successes.get(count, 0.0)
        x0 = left + place * slot + slot * 0.12
        x1 = left + (place + 1) * slot - slot * 0.12
        y = top + plot_h - (plot_h * chance / scale if scale else 0)
        colour = _FAIL_BAR if count == 0 else _SUCCESS_BAR
        draw.rectangle((x0, y, max(x0, x1), top + plot_h), fill=colour)
        middle = (x0 + x1) / 2
        if place % label_every == 0:
            draw.text((middle, top + plot_h + 6), str(count), font=small, fill=_INK, anchor="mt")
        if slot >= _LABELLED_SLOT and chance >= _CHART_FLOOR:
            draw.text((middle, y - 3), percentage(chance, 1), font=small, fill=_INK,
                      anchor="mb")
    axis = _("successes")
    if len(likely) < len(odds.successes):
        axis = _("successes (counts less likely than {percent} are left out)",
                 percent=percentage(_CHART_FLOOR, 2))
    draw.text((left + plot_w / 2, height - 12), axis, font=font, fill=_INK, anchor="mb")

    buffer = io.BytesIO()
    # compress_level 1: a quarter of the time of optimize=True for a slightly bigger file.
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _tick(value: float) -> str:
    """A gridline's percentage with only the decimals it has (``25%``, ``0.5%``)."""
    digits = next((d for d in range(4) if abs(round(value * 100, d) - value * 100) < 1e-9), 4)
    return percentage(value, digits)


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 4, 8 × 10^k at least ``value``: its quarters are round labels."""
    if value <= 0:
        return 1.0
    magnitude = 10.0 ** math.floor(math.log10(value))
    return next((step * magnitude for step in (1, 2, 4, 8) if step * magnitude >= value),
                10 * magnitude)
