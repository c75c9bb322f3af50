"""/stats as players read it: counts, verdicts in plain words, a chart, the CSV export.

Verdicts never accuse: fair-looking dice "look fair"; below p = 0.01 the dice are
"unusual", with how rarely fair dice do the same; a small sample says how many more
rolls a verdict needs. :func:`stats_chart_png` is CPU work (Pillow), run off the
event loop like the /odds chart.
"""

from __future__ import annotations

import csv
import io
import math
from collections.abc import Sequence
from datetime import date
from functools import lru_cache
from typing import Final

import discord
from PIL import Image, ImageDraw

from bot.render.lang import N_, _, day, n_, number, p_, percent, user
from bot.render.rolls import RULESET_NAMES
from bot.render.text import INFO_COLOUR, OUTCOME_WORDS, safe
from bot.render.typeface import chart_font
from engine.models import Outcome, Ruleset
from engine.stats import UNUSUAL_BELOW, Band, LoggedRoll, Report, Test, Verdict

__all__ = [
    "CHART_NAME",
    "EXPORT_BYTES",
    "EXPORT_NAME",
    "EXPORT_ONLY_OWN",
    "EXPORT_THIS_CHANNEL",
    "bad_since",
    "export_csv",
    "export_text",
    "no_rolls",
    "not_one_of",
    "stats_chart_png",
    "stats_embed",
    "whose",
]

#: The attachments the replies carry.
CHART_NAME: Final = "stats.png"
EXPORT_NAME: Final = "rolls.csv"
#: The largest export file, in bytes: Discord takes attachments of up to 10 MiB in a server
#: without boosts, and the rest of the message needs a little room. The newest rolls are
#: kept (the file lists them first: the sessions a Storyteller is looking into), the
#: older ones left out, and the reply says so.
EXPORT_BYTES: Final = 9 * 2**20
#: The longest member name a title shows (longer ones end in "…").
_NAME_LIMIT: Final = 64

EXPORT_THIS_CHANNEL: Final = N_(
    "The export lists this channel's log: leave out `scope` (or use `scope:channel`)."
)
EXPORT_ONLY_OWN: Final = N_(
    "You can export your own rolls; only the Storyteller can export another member's."
)

_PLURAL_OUTCOMES: Final = {
    Outcome.DRAMATIC_FAILURE: N_("dramatic failures"),
    Outcome.BOTCH: N_("botches"),
    Outcome.FAILURE: N_("failures"),
    Outcome.SUCCESS: N_("successes"),
    Outcome.EXCEPTIONAL_SUCCESS: N_("exceptional successes"),
}


def bad_since(text: str) -> str:
    """A `since` that is neither a date nor a span back from today."""
    return _(
        "“{text}” is not a date: give `since` as YYYY-MM-DD (2025-01-31) "
        "or as a span back from today: 7d, 2w, 3m, 1y.", text=safe(text, limit=40),
    )


def not_one_of(option: str, given: str, allowed: Sequence[str]) -> str:
    """A choice option given a value it does not offer (a forged interaction)."""
    return _("{option} “{given}” is not one of: {allowed}.", option=option,
             given=safe(given, limit=40), allowed=", ".join(f"`{each}`" for each in allowed))


def whose(member: str | None, *, server: bool, markdown: bool = True) -> str:
    """Whose rolls are counted, and where: the title of the reply and, without
    ``markdown``, of its chart (an image shows the name as typed, no escapes)."""
    if member is None:
        return (_("Everyone's rolls in this server") if server
                else _("Everyone's rolls in this channel"))
    name = safe(member, limit=_NAME_LIMIT) if markdown else user(
        member if len(member) <= _NAME_LIMIT else member[:_NAME_LIMIT - 1] + "…")
    return (_("{name}'s rolls in this server", name=name) if server
            else _("{name}'s rolls in this channel", name=name))


def no_rolls(member: str | None, *, server: bool, since: date | None = None,
             ruleset: Ruleset | None = None) -> str:
    """Nothing counted in the scope asked for (a member's name keeps its case); with
    ``since`` or ``ruleset``, that the option left rolls out, and how to count them all
    (the scope may well hold rolls: a day after them, a ruleset not rolled there)."""
    if member is None:
        text = (_("No rolls to count for everyone's rolls in this server yet.") if server
                else _("No rolls to count for everyone's rolls in this channel yet."))
    else:
        name = safe(member, limit=_NAME_LIMIT)
        text = (_("No rolls to count for {name}'s rolls in this server yet.", name=name)
                if server
                else _("No rolls to count for {name}'s rolls in this channel yet.", name=name))
    if since is not None:
        text += " " + _("Only rolls from {date} on count here: leave out `since` to count them"
                        " all.", date=day(since))
    if ruleset is not None:
        text += " " + _("Only {ruleset} rolls count here: leave out `ruleset` to count every"
                        " ruleset's.", ruleset=_(RULESET_NAMES[ruleset]))
    return text


# --- the embed ------------------------------------------------------------------------------


def _share(rate: float) -> str:
    return percent(rate, 1)


def _decimals(text: str) -> int:
    """How many digits a number written in English shows after its point."""
    return len(text.partition(".")[2])


def _p(p: float) -> tuple[str, bool]:
    """The p-value as shown, and whether it is a bound it lies below ("p < 0.0001")."""
    if p >= UNUSUAL_BELOW:
        return number(p, 2), False
    if p < 0.0001:
        return number(0.0001, 4), True
    shown = f"{p:.2g}"  # two significant digits, trailing zeros dropped
    if float(shown) >= UNUSUAL_BELOW:  # 0.00996 would read "0.01" beside "Unusual"
        return number(UNUSUAL_BELOW, 2), True
    return number(float(shown), _decimals(shown)), False


def _one_in(p: float) -> str:
    if p <= 1e-6:
        return _("less than 1 time in a million")
    times = 1 / p
    rounded = round(times, 1 - math.floor(math.log10(times)))
    return _("about 1 time in {times}", times=number(int(rounded)))


def _wait(more: int) -> str:
    """How many more rolls a verdict needs (its own message: the plural follows ``more``,
    the sentence around it another number)."""
    return n_("about {count} more roll needed", "about {count} more rolls needed", more,
              count=number(more))


def _face_verdict(test: Test, faces: Sequence[Band]) -> str:
    if test.verdict is Verdict.TOO_FEW:
        return _("Too few dice for a verdict on the faces yet ({dice}): {wait}.",
                 dice=n_("{count} die", "{count} dice", test.sample, count=number(test.sample)),
                 wait=_wait(test.more))
    p = 1.0 if test.p is None else test.p
    shown, below = _p(p)
    over = (n_("p < {p} over {count} dice", "p < {p} over {count} dice", test.sample,
               p=shown, count=number(test.sample)) if below
            else n_("p = {p} over {count} dice", "p = {p} over {count} dice", test.sample,
                    p=shown, count=number(test.sample)))
    if test.verdict is Verdict.FAIR:
        return _("These dice look fair ({over}).", over=over)
    face = int(test.furthest or 1)
    band = faces[face - 1]
    return _("Unusual: {face}s came up {observed} of the time, {expected} expected ({over});"
             " this happens by chance {odds}.", face=face, observed=_share(band.observed),
             expected=_share(band.expected), over=over, odds=_one_in(p))


def _outcome_verdict(test: Test, outcomes: dict[Outcome, Band]) -> str:
    if test.verdict is Verdict.TOO_FEW and test.more == 0:
        # No roll more would ever make a verdict (engine.stats._more_rolls): "about 0 more
        # rolls needed" would promise one.
        return _("Nothing to compare with the odds: every roll counted here could have only "
                 "one outcome (a v20 roll with Will declared, or an automatic success).")
    if test.verdict is Verdict.TOO_FEW:
        return _("Too few rolls to compare outcomes with the odds yet ({rolls}): {wait}.",
                 rolls=n_("{count} roll", "{count} rolls", test.sample,
                          count=number(test.sample)),
                 wait=_wait(test.more))
    p = 1.0 if test.p is None else test.p
    shown, below = _p(p)
    over = (n_("p < {p} over {count} rolls", "p < {p} over {count} rolls", test.sample,
               p=shown, count=number(test.sample)) if below
            else n_("p = {p} over {count} rolls", "p = {p} over {count} rolls", test.sample,
                    p=shown, count=number(test.sample)))
    if test.verdict is Verdict.FAIR:
        return _("Outcomes match the exact odds of the rolls made ({over}).", over=over)
    outcome = Outcome(str(test.furthest))
    band = outcomes[outcome]
    return _("Unusual: {outcomes} came up {observed} of the time, {expected} expected from the"
             " exact odds ({over}); this happens by chance {odds}.",
             outcomes=_(_PLURAL_OUTCOMES[outcome]), observed=_share(band.observed),
             expected=_share(band.expected), over=over, odds=_one_in(p))


def _summary(report: Report) -> str:
    tally = report.tally
    counts = " · ".join(
        f"{_(OUTCOME_WORDS[outcome])}: {number(tally.outcomes.get(outcome, 0))}"
        for outcome in report.outcomes
    )
    rolls = n_("{count} roll", "{count} rolls", tally.rolls, count=number(tally.rolls))
    dice = n_("{count} die", "{count} dice", tally.dice, count=number(tally.dice))
    # zero has words of its own: a plural rule may count it singular ("0 vez" in pt-BR)
    will = _("Will never spent") if tally.will_spent == 0 else n_(
        "Will spent {count} time", "Will spent {count} times", tally.will_spent,
        count=number(tally.will_spent))
    return f"{rolls}, {dice} · {will}\n{counts}"


def _faces_text(report: Report) -> str:
    shares = " · ".join(f"{face}: {_share(band.observed)}"
                        for face, band in enumerate(report.faces, start=1))
    expected = _("({share} each expected)", share=percent(0.1, 0))
    return f"{shares}\n{expected}\n{_face_verdict(report.face_test, report.faces)}"


def _outcomes_text(report: Report) -> str:
    lines = [
        _("{outcome}: {observed} rolled, {expected} expected (fair dice: {low}–{high})",
          outcome=_(OUTCOME_WORDS[outcome]), observed=_share(band.observed),
          expected=_share(band.expected), low=_share(band.low), high=_share(band.high))
        for outcome, band in report.outcomes.items()
        if band.expected > 0 or band.count
    ]
    left_out = report.tally.rolls - report.tested_rolls
    if left_out > 0:
        lines.append(n_("({count} roll re-read by Will before statistics were kept is left"
                        " out of this comparison.)",
                        "({count} rolls re-read by Will before statistics were kept are left"
                        " out of this comparison.)", left_out, count=number(left_out)))
    lines.append(_outcome_verdict(report.outcome_test, report.outcomes))
    return "\n".join(lines)


def stats_embed(
    reports: Sequence[Report], *, whose: str, since: date | None, text_only: bool = False
) -> discord.Embed:
    """The /stats reply: per ruleset, the counts, the faces and the outcomes against the odds,
    each with its verdict; the chart is attached as :data:`CHART_NAME`. ``since`` is written
    as the language writes a date."""
    scope = whose if since is None else _("{whose}, since {date}", whose=whose,
                                          date=day(since))
    embed = discord.Embed(
        title=_("Dice statistics") if text_only else _("🎲 Dice statistics"),
        description=_("{scope}. Outcomes are compared as first rolled, before Will spent "
                      "afterwards or a Beat. Voided rolls do not count.", scope=scope),
        colour=INFO_COLOUR,
    )
    for report in reports:
        name = _(RULESET_NAMES[report.ruleset])
        embed.add_field(name=name, value=_summary(report), inline=False)
        embed.add_field(name=_("Faces ({ruleset})", ruleset=report.ruleset.value),
                        value=_faces_text(report), inline=False)
        embed.add_field(name=_("Outcomes against the odds ({ruleset})",
                               ruleset=report.ruleset.value),
                        value=_outcomes_text(report), inline=False)
    embed.set_image(url=f"attachment://{CHART_NAME}")
    embed.set_footer(text=_("Expected rates are the exact odds of the rolls made; bands show "
                            "where fair dice land {share} of the time.",
                            share=percent(0.95, 0)))
    return embed


# --- the chart ------------------------------------------------------------------------------

_WIDTH: Final = 900
_ROW: Final = 300
_TOP: Final = 40
#: The chart is a palette image of these flat colours (index = place here): PNG encodes
#: it several times faster than RGB, and labels are drawn from cached glyph masks.
_PALETTE: Final = (
    (43, 45, 49),  # background
    (220, 221, 222),  # ink
    (78, 80, 88),  # grid
    (70, 90, 130),  # band
    (250, 200, 80),  # expected
    (88, 101, 242),  # bar
    (237, 66, 69),  # bar outside its band, dice unusual
)
_BACKGROUND, _INK, _GRID, _BAND, _EXPECTED, _BAR, _ODD_BAR = range(len(_PALETTE))
#: A label too wide for its place is drawn smaller, down to this size (smaller does not
#: read); wider still, it is cut with a visible "…".
_SMALLEST: Final = 8


@lru_cache(maxsize=512)
def _glyphs(text: str, size: int, anchor: str) -> tuple[Image.Image, int, int]:
    """A label's mask and its offset from the anchor point, drawn once per text. The mask
    is two-tone, so it is measured as drawn without antialiasing (measured with it, the
    box is narrower and cut off the first and last letters)."""
    font = chart_font(size)
    left, top, right, bottom = font.getbbox(text, mode="1", anchor=anchor)
    mask = Image.new("1", (max(1, int(right - left)), max(1, int(bottom - top))), 0)
    ImageDraw.Draw(mask).text((-left, -top), text, font=font, fill=1, anchor=anchor)
    return mask, int(left), int(top)


def _fitted(text: str, size: int, width: float) -> tuple[str, int]:
    """``text`` and the largest size up to ``size`` at which it is at most ``width`` pixels
    wide as drawn; at the smallest size, the longest start of it that fits, with "…"."""
    for each in range(size, _SMALLEST - 1, -1):
        if _glyphs(text, each, "mt")[0].width <= width:
            return text, each
    while text and _glyphs(text + "…", _SMALLEST, "mt")[0].width > width:
        text = text[:-1]
    return text.rstrip() + "…", _SMALLEST


def _label(image: Image.Image, xy: tuple[float, float], text: str, *, size: int = 11,
           anchor: str = "mt", width: float | None = None) -> tuple[str, int]:
    """``text`` drawn at ``xy``; with a ``width``, made to fit it (:func:`_fitted`). The
    text and size drawn."""
    if width is not None:
        text, size = _fitted(text, size, width)
    mask, left, top = _glyphs(text, size, anchor)
    image.paste(_INK, (int(xy[0]) + left, int(xy[1]) + top), mask)
    return text, size


def stats_chart_png(reports: Sequence[Report], *, title: str) -> bytes:
    """Per ruleset, faces (left) and outcomes (right): observed bars beside the expected
    rate (a line) and the band fair dice stay in 95 % of the time; when the test calls the
    dice unusual, the bars outside their band are drawn red (one face in ten outside its
    band is no news on its own). PNG bytes, 900 × 300 per ruleset."""
    image = Image.new("P", (_WIDTH, _TOP + _ROW * len(reports)), _BACKGROUND)
    image.putpalette([channel for colour in _PALETTE for channel in colour])
    _label(image, (_WIDTH / 2, 12), title, size=14, width=_WIDTH - 20)
    for row, report in enumerate(reports):
        top = _TOP + row * _ROW
        faces = [(str(face), band) for face, band in enumerate(report.faces, start=1)]
        outcomes = [(_bar_label(outcome), band) for outcome, band in report.outcomes.items()]
        name = report.ruleset.value
        _panel(image, (10, top, _WIDTH * 0.55, top + _ROW),
               _("{ruleset}: faces", ruleset=name), faces,
               unusual=report.face_test.verdict is Verdict.UNUSUAL)
        _panel(image, (_WIDTH * 0.55 + 10, top, _WIDTH - 10, top + _ROW),
               _("{ruleset}: outcomes as first rolled", ruleset=name), outcomes,
               unusual=report.outcome_test.verdict is Verdict.UNUSUAL)
    buffer = io.BytesIO()
    image.save(buffer, format="PNG", compress_level=1)
    return buffer.getvalue()


def _bar_label(outcome: Outcome) -> str:
    """An outcome under its bar: short, so five fit under a panel."""
    match outcome:
        case Outcome.DRAMATIC_FAILURE:
            return p_("chart bar", "Dramatic failure")
        case Outcome.FAILURE:
            return p_("chart bar", "Failure")
        case Outcome.SUCCESS:
            return p_("chart bar", "Success")
        case Outcome.EXCEPTIONAL_SUCCESS:
            return p_("chart bar", "Exceptional")
        case Outcome.BOTCH:
            return p_("chart bar", "Botch")
        case _:
            return p_("chart bar", "Not rolled")


def _panel(
    image: Image.Image,
    box: tuple[float, float, float, float],
    title: str,
    bars: list[tuple[str, Band]],
    *,
    unusual: bool,
) -> None:
    draw = ImageDraw.Draw(image)
    left, top, right, bottom = box
    plot_left, plot_top, plot_bottom = left + 44, top + 28, bottom - 40
    _label(image, ((left + right) / 2, top + 6), title, size=14, width=right - left)
    peak = max([max(band.observed, band.high) for _, band in bars] + [0.01])
    scale = _nice_ceiling(peak)
    height = plot_bottom - plot_top
    for tick in range(5):
        y = plot_bottom - height * tick / 4
        draw.line((plot_left, y, right, y), fill=_GRID)
        shown = f"{scale * tick / 4 * 100:g}"  # as few digits as the tick needs
        _label(image, (plot_left - 4, y), percent(float(shown) / 100, _decimals(shown)),
               anchor="rm")
    slot = (right - plot_left) / max(len(bars), 1)

    def at(rate: float) -> float:
        return plot_bottom - height * min(rate, scale) / scale

    for place, (label, band) in enumerate(bars):
        x0 = plot_left + place * slot + slot * 0.15
        x1 = plot_left + (place + 1) * slot - slot * 0.15
        draw.rectangle((x0 - slot * 0.08, at(band.high), x1 + slot * 0.08, at(band.low)),
                       fill=_BAND)
        outside = unusual and not band.low <= band.observed <= band.high
        draw.rectangle((x0 + slot * 0.1, at(band.observed), x1 - slot * 0.1, plot_bottom),
                       fill=_ODD_BAR if outside else _BAR)
        draw.line((x0 - slot * 0.08, at(band.expected), x1 + slot * 0.08, at(band.expected)),
                  fill=_EXPECTED, width=2)
        _label(image, ((x0 + x1) / 2, plot_bottom + 6), label, width=slot - 4)
    _label(image, ((left + right) / 2, bottom - 6),
           _("bars: rolled · line: expected · band: {share} of fair dice",
             share=percent(0.95, 0)), anchor="mb", width=right - left)


def _nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 4, 8 × 10^k at least ``value``: its quarters are round labels."""
    magnitude = 10.0 ** math.floor(math.log10(value))
    return next((step * magnitude for step in (1, 2, 4, 8) if step * magnitude >= value),
                10 * magnitude)


# --- the export -----------------------------------------------------------------------------

#: The CSV header: column names are data for spreadsheets and scripts, the same in every
#: language (like the values under them); a column added later goes last.
_COLUMNS: Final = ("roll", "time_utc", "roller_id", "roller", "ruleset", "label", "secret",
                   "void", "dice", "outcome", "successes", "will", "beat", "faces",
                   "character")


def _cell(value: object) -> str:
    """A cell no spreadsheet runs as a formula: text (names and labels are members' text)
    that would start one is kept as text; a number stays a number (a chance die's pool of
    -2 is summed and sorted as one)."""
    if value is None:
        return ""
    if not isinstance(value, str):
        return str(value)
    return "'" + value if value[:1] in {"=", "+", "-", "@", "\t", "\r"} else value


def export_csv(rows: Sequence[LoggedRoll], *, limit: int = EXPORT_BYTES) -> tuple[bytes, int]:
    """The roll log as CSV (UTF-8 with a byte-order mark, which spreadsheets read as UTF-8),
    and how many of ``rows`` it holds: the first ones (the newest) that fit in ``limit``
    bytes, the rest left out."""
    buffer = io.StringIO()
    writer = csv.writer(buffer)
    writer.writerow(_COLUMNS)
    lines = ["\ufeff" + buffer.getvalue()]
    size = len(lines[0].encode())
    for row in rows:
        buffer.seek(0)
        buffer.truncate()
        writer.writerow([_cell(value) for value in (
            row.id, row.created_at, row.roller_id, row.roller_name, row.ruleset, row.label,
            int(row.private), int(row.void), row.dice, row.outcome, row.successes, row.will,
            int(row.beat), row.faces, row.character,
        )])
        line = buffer.getvalue()
        size += len(line.encode())
        if size > limit:
            break
        lines.append(line)
    return "".join(lines).encode(), len(lines) - 1


def export_text(count: int, *, member: str | None, everyone: bool, cut: bool) -> str:
    """What the export file holds: ``member``'s rolls in this channel, everyone's
    (``everyone``, the Storyteller), or the asker's own; ``cut``: the log holds older
    ones that did not fit."""
    shown = number(count)
    if member is not None:
        text = n_("The roll log of {name} in this channel: {count} roll, newest first, void"
                  " ones marked.",
                  "The roll log of {name} in this channel: {count} rolls, newest first, void"
                  " ones marked.", count, name=safe(member, limit=_NAME_LIMIT), count=shown)
    elif everyone:
        text = n_("The roll log of this channel: {count} roll, newest first, void ones"
                  " marked.",
                  "The roll log of this channel: {count} rolls, newest first, void ones"
                  " marked.", count, count=shown)
    else:
        text = n_("The roll log of your rolls in this channel: {count} roll, newest first,"
                  " void ones marked.",
                  "The roll log of your rolls in this channel: {count} rolls, newest first,"
                  " void ones marked.", count, count=shown)
    if cut:
        text += " " + n_("Older rolls are left out: only the newest fits in one file.",
                         "Older rolls are left out: only the newest {count} fit in one file.",
                         count, count=shown)
    return text
