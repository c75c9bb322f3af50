"""Roll, odds and help replies rendered from real engine results on scripted faces."""

from __future__ import annotations

import io
import re
import unicodedata
from collections.abc import Callable
from typing import Any

import discord
import pytest
from PIL import Image, ImageDraw

from bot.render import lang
from bot.render import rolls as rolls_render
from bot.render import stats as stats_render
from bot.render.help import HELP_TOPICS, help_embed
from bot.render.odds import odds_chart_png, odds_embed
from bot.render.refusals import refusal_text
from bot.render.rolls import RULESET_NAMES, RollStatus, refusal, roll_embed, secret_notice
from bot.render.stats import stats_chart_png
from bot.render.text import (
    VOID_COLOUR,
    adjustment_text,
    breakdown_text,
    dice,
    escaped,
    percent,
    safe,
    successes,
)
from bot.render.typeface import chart_font
from engine.constants import MAX_EXTRA, MAX_POOL
from engine.faces import ScriptedFaces
from engine.models import (
    Adjustment,
    AdjustmentKind,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    WillUse,
)
from engine.odds import Odds, odds
from engine.records import Language
from engine.roll import roll, spend_will, take_beat
from engine.stats import UNUSUAL_BELOW, Band, Sample, Tally, Verdict, analyse
from engine.stats import Test as FitTest

# --- helpers --------------------------------------------------------------------------------------


def assert_within_discord_limits(embed: discord.Embed) -> None:
    """Every limit Discord puts on one embed (a message with it alone)."""
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for field in embed.fields:
        assert field.name
        assert field.value
        assert len(field.name) <= 256
        assert len(field.value) <= 1024
    assert len(embed.footer.text or "") <= 2048
    assert len(embed.author.name or "") <= 256
    assert len(embed) <= 6000
    embed.to_dict()  # serialisable as sent


def text_of(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for field in embed.fields:
        parts += [field.name or "", field.value or ""]
    return "\n".join(parts)


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value or "" for f in embed.fields if f.name == name)


def dice_line(embed: discord.Embed, label: str) -> str:
    """The description line that starts with ``label:``."""
    lines = (embed.description or "").splitlines()
    return next(line for line in lines if line.startswith((f"{label}:", f"{label} (")))


def rolled(
    ruleset: str, pool: int, faces: list[int], will_after: list[int] | None = None,
    **options: Any,
) -> RollResult:
    source = ScriptedFaces([*faces, *(will_after or [])])
    result = roll(RollRequest(ruleset=Ruleset(ruleset), terms=(Term(value=pool),), **options),
                  source)
    assert not result.refused, result.refusal
    return spend_will(result, source) if will_after is not None else result


def embed_for(result: RollResult, **options: Any) -> discord.Embed:
    embed = roll_embed(
        result, roller=options.pop("roller", "Ada"), label=options.pop("label", None),
        roll_id=options.pop("roll_id", 7), **options,
    )
    assert_within_discord_limits(embed)
    return embed


# --- what a roll shows ----------------------------------------------------------------------------


def test_rote_replacement_is_shown_next_to_the_die_it_replaced() -> None:
    result = rolled("cofd", 4, [2, 8, 5, 6, 10, 1, 9, 8], rote=True)
    embed = embed_for(result, label="pick the lock")
    assert embed.title == "🎲 pick the lock: Success"
    assert dice_line(embed, "Dice") == "Dice: 2→**10** **8** 5→1 6→**9**"
    assert dice_line(embed, "10-again") == "10-again: **8**"
    assert "**4 successes**" in (embed.description or "")
    assert "rote action" in field(embed, "Pool")
    assert "Chronicles of Darkness (2e)" in (embed.footer.text or "")
    assert field(embed, "Rolled by") == "Ada"
    assert embed.colour == discord.Colour.green()


def test_v20_ones_and_the_successes_they_cancel_are_struck_and_paired() -> None:
    result = rolled("v20", 5, [6, 7, 1, 3, 10])
    embed = embed_for(result)
    assert embed.title == "🎲 Success (moderate success)"
    assert dice_line(embed, "Dice") == "Dice: ~~6~~ **7** ~~1~~ 3 **10**"
    assert "Cancelled by 1s: 6" in (embed.description or "")
    assert "**2 successes**" in (embed.description or "")
    assert field(embed, "Pool") == "5 dice at difficulty 6"


def test_v20_specialty_ten_that_lost_one_of_its_two_successes_says_so() -> None:
    result = rolled("v20", 2, [10, 1], specialty=True)
    embed = embed_for(result)
    assert dice_line(embed, "Dice") == "Dice: **10** ~~1~~"
    assert "Cancelled by 1s: one of the two successes of a 10" in (embed.description or "")
    assert "specialty (10s count twice)" in field(embed, "Pool")


def test_v20_specialty_ten_that_two_ones_cancelled_whole_is_named_once() -> None:
    """Two 1s may cancel both successes of one specialty 10 (RULES §2): the line names
    that 10 once, not "10, 10", which read as two 10s cancelled beside the other 10 still
    standing for 2; summarised, it counts the successes cancelled."""
    result = rolled("v20", 4, [10, 10, 1, 1], specialty=True)
    embed = embed_for(result)
    assert dice_line(embed, "Dice") == "Dice: ~~10~~ **10**×2 ~~1~~ ~~1~~"
    assert dice_line(embed, "Cancelled by 1s") == "Cancelled by 1s: both successes of a 10"
    assert rolls_render._cancelled_line(result)[0].short == "Cancelled by 1s: 2 successes"


def test_v20_botch_and_willpower_after_the_roll() -> None:
    botch = rolled("v20", 4, [6, 5, 1, 2], difficulty=7)
    assert embed_for(botch).title == "🎲 Botch"
    after = rolled("v20", 4, [2, 3, 1, 5], will_after=[])
    embed = embed_for(after)
    assert embed.title == "🎲 Success (marginal success)"
    assert "**1 success** (including 1 from Willpower)" in (embed.description or "")
    assert "+1 success that no 1 cancels: Willpower (spent after the roll)" in field(
        embed, "Pool"
    )


def test_fistful_unskilled_will_after_marks_will_dice_and_the_void_die() -> None:
    result = rolled("fistful", 2, [10, 5, 9], will_after=[1, 8, 3], untrained="mental", need=2)
    embed = embed_for(result)
    description = embed.description or ""
    assert embed.title == "🎲 Success"
    assert dice_line(embed, "Dice") == "Dice: ~~10~~ 5"
    assert dice_line(embed, "Will") == "Will: ~~1~~ **8** 3"
    assert dice_line(embed, "Void") == "Void: ~~9~~"
    assert "**1 success**" in description
    assert "Needed 2 successes: not met (1 of 2)." in description
    assert "Willpower was spent after the roll." in description
    pool = field(embed, "Pool")
    assert "+3 dice: Willpower (spent after the roll)" in pool
    assert "unskilled (1s eat successes)" in pool


def test_fistful_botch_degree_and_need_met() -> None:
    assert embed_for(rolled("fistful", 3, [2, 1, 1])).title == "🎲 Botch (double botch)"
    quadruple = rolled("fistful", 4, [1, 1, 1, 1])
    assert "4 ones standing" in (embed_for(quadruple).title or "")
    met = embed_for(rolled("fistful", 3, [8, 9, 2], need=2))
    assert "Needed 2 successes: met." in (met.description or "")


def test_cofd_extra_successes_exceptional_and_take_a_beat() -> None:
    extra = embed_for(rolled("cofd", 3, [8, 4, 2], extra=2))
    assert "**3 successes** (1 on the dice + 2 extra)" in (extra.description or "")
    exceptional = embed_for(rolled("cofd", 6, [8, 9, 10, 8, 9, 3, 2]))
    assert exceptional.title == "🎲 Exceptional success"
    assert exceptional.colour == discord.Colour.gold()
    beat = embed_for(take_beat(rolled("cofd", 2, [3, 4])))
    assert beat.title == "🎲 Dramatic failure (Beat taken)"
    assert "**No successes**" in (beat.description or "")


def test_rote_chance_die_shows_its_reroll_and_the_chance_breakdown() -> None:
    embed = embed_for(rolled("cofd", -1, [5, 1], rote=True))
    assert embed.title == "🎲 Dramatic failure"
    assert dice_line(embed, "Chance die") == "Chance die: 5→1"
    assert "one chance die (only a 10 succeeds)" in field(embed, "Pool")


def test_v20_automatic_success_rolls_no_dice() -> None:
    embed = embed_for(rolled("v20", 6, [], auto=True))
    assert embed.title == "🎲 Automatic success"
    assert "no dice were rolled" in (embed.description or "")


def test_refused_result_and_refusal_text() -> None:
    request = RollRequest(ruleset=Ruleset.V20, terms=(Term(value=5),), difficulty=11)
    result = roll(request, ScriptedFaces([]))
    assert refusal(refusal_text(result.refusal)) == (
        "Difficulty 11 is out of range: it must be 2 to 10."
    )
    embed = embed_for(result)
    assert "Difficulty 11 is out of range" in (embed.description or "")
    assert refusal("Two numbers in a row.") == "Two numbers in a row."


# --- modes and statuses ---------------------------------------------------------------------------


def test_text_only_uses_words_and_no_emoji_or_symbols() -> None:
    results = [
        rolled("cofd", 4, [2, 8, 5, 6, 10, 1, 9, 8], rote=True),
        rolled("v20", 5, [6, 7, 1, 3, 10], specialty=True),
        rolled("fistful", 2, [10, 5, 9], will_after=[1, 8, 3], untrained="mental"),
        rolled("cofd", 100, [10] * (MAX_POOL + MAX_EXTRA)),
    ]
    texts = [
        text_of(embed_for(result, text_only=True, status=status, secret=2**63))
        for result in results
        for status in RollStatus
    ]
    for text in texts:
        assert text.isascii(), [char for char in text if not char.isascii()]
        assert "~~" not in text
    assert "Dice: 2 rerolled to 10 (success), 8 (success), 5 rerolled to 1," \
        " 6 rerolled to 9 (success)" in texts[0]
    assert "Dice: 6 (cancelled), 7 (success), 1 (cancels), 3, 10 (2 successes)" in texts[3]
    assert "Void, no longer counted: 9" in texts[6]
    assert "Will: 1 (cancels), 8 (success), 3" in texts[6]
    assert "100 dice showing 10 (success)" in texts[9]
    assert all("**" not in line for text in texts for line in text.splitlines()
               if line.startswith(("Dice", "Will", "10-again"))), "successes said in words"


def test_sorted_dice_go_high_to_low_within_each_group() -> None:
    result = rolled("cofd", 5, [3, 8, 10, 1, 9, 10, 4])
    in_order = embed_for(result)
    assert dice_line(in_order, "Dice") == "Dice: 3 **8** **10** 1 **9**"
    ordered = embed_for(result, sorted_dice=True)
    assert dice_line(ordered, "Dice") == "Dice: **10** **9** **8** 3 1"
    assert dice_line(ordered, "10-again") == "10-again: **10**"
    rote = embed_for(rolled("cofd", 4, [2, 8, 5, 6, 10, 1, 9, 8], rote=True), sorted_dice=True)
    assert dice_line(rote, "Dice") == "Dice: 2→**10** 6→**9** **8** 5→1"


def test_labels_and_names_cannot_ping_or_format() -> None:
    result = rolled("cofd", 2, [8, 3])
    embed = embed_for(result, label="@everyone <@123> **now**", roller="<@&55> @here _x_")
    text = text_of(embed)
    assert "@everyone" not in text
    assert "@here" not in text
    assert not re.search(r"(?<!\\)<@", text)
    assert r"\*\*now\*\*" in (embed.title or "")
    assert r"\_x\_" in field(embed, "Rolled by")
    notice = secret_notice(roller="@everyone", label="<@123> sneak")
    assert "@everyone" not in notice
    assert not re.search(r"(?<!\\)<@", notice)
    assert notice.endswith("made a secret roll: \\<@123> sneak.")


def test_user_text_never_turns_the_bots_line_around() -> None:
    """A display name (or a label kept before labels refused them) holding a direction
    override, embedding or isolate is shown without it (bot.render.text's Decision), so
    the rest of the line reads as written; the name's letters stay."""
    notice = secret_notice(roller="\u202eecilA", label="\u2067door\u2069 \u202bajar\u202c")
    assert notice == "**ecilA** made a secret roll: door ajar."
    embed = embed_for(rolled("cofd", 2, [8, 3]), label="\u202dforce", roller="\u202aAda\u202c")
    assert embed.title is not None and "\u202d" not in embed.title
    assert field(embed, "Rolled by") == "Ada"
    assert escaped("\u2066\u2068x\u2069") == "x"


def test_secret_notice_names_the_label_but_shows_no_dice() -> None:
    notice = secret_notice(roller="Ada", label="sneak past")
    assert notice == "**Ada** made a secret roll: sneak past."
    assert secret_notice(roller="Ada", label=None) == "**Ada** made a secret roll."
    secret = embed_for(rolled("cofd", 2, [8, 3]), secret=55)
    assert "Secret roll in <#55>: the channel saw only that a roll was made." in (
        secret.description or ""
    )
    assert "Dice: **8** 3" in (secret.description or "")


def test_void_and_closed_statuses_say_so() -> None:
    result = rolled("cofd", 2, [8, 3])
    void = embed_for(result, label="climb", status=RollStatus.VOID)
    assert void.title == "Void - climb: Success"
    assert (void.description or "").startswith("**Voided by the Storyteller**")
    assert void.colour == VOID_COLOUR
    closed = embed_for(result, status=RollStatus.CLOSED)
    # "Roll closed", not "Buttons closed": Roll again and Save this roll stay on the card
    assert closed.footer.text == "Roll #7 · Chronicles of Darkness (2e) · Roll closed"
    assert embed_for(result, roll_id=None).footer.text == "Chronicles of Darkness (2e)"


def test_very_long_user_text_is_shortened_not_overflowing() -> None:
    result = rolled("cofd", 2, [8, 3])
    embed = embed_for(result, label="*" * 5000, roller="_" * 5000)
    assert (embed.title or "").endswith("…: Success")
    assert len(field(embed, "Rolled by")) <= 100


# --- the biggest rolls ----------------------------------------------------------------------------


def _every_ten(ruleset: str, pool: int, **options: Any) -> RollResult:
    return rolled(ruleset, pool, [10] * (pool + MAX_EXTRA + 10), **options)


def _rote_mix() -> RollResult:
    """97 + 3 Will dice failing with every face 1–7, rerolled to every face, then all 10s."""
    round0 = [1 + i % 7 for i in range(MAX_POOL)]
    rote = [1 + (i * 3) % 10 for i in range(MAX_POOL)]
    return rolled("cofd", MAX_POOL - 3, [*round0, *rote, *[10] * MAX_EXTRA],
                  rote=True, again="8", will=True)


def _fistful_will_after() -> RollResult:
    """Risky, one 1 in fifty, capped; Will after draws three 1s that void earlier dice."""
    faces = [1 if i % 50 == 0 else 10 for i in range(MAX_POOL - 3 + MAX_EXTRA + 200)]
    first = roll(RollRequest(ruleset=Ruleset.FISTFUL, terms=(Term(value=MAX_POOL - 3),),
                             risky=True), ScriptedFaces(faces))
    return spend_will(first, ScriptedFaces([1, 1, 1, *[10] * 2000]))


BIGGEST: dict[str, Callable[[], RollResult]] = {
    "100 dice, 8-again, every die a 10": lambda: _every_ten("cofd", MAX_POOL, again="8"),
    "1 die, a thousand rounds of 10s": lambda: _every_ten("cofd", 1),
    "rote with every replacement face": _rote_mix,
    "rote, every die a 7 rerolled to a 10 (the longest round 0)": lambda: rolled(
        "cofd", MAX_POOL, [7] * MAX_POOL + [10] * (MAX_POOL + MAX_EXTRA), rote=True
    ),
    "fistful risky, Will after with void dice": _fistful_will_after,
    "v20 100 dice with specialty": lambda: rolled(
        "v20", MAX_POOL, [1 + i % 10 for i in range(MAX_POOL)], specialty=True
    ),
}


@pytest.mark.parametrize("name", list(BIGGEST))
@pytest.mark.parametrize("text_only", [False, True])
@pytest.mark.parametrize("sorted_dice", [False, True])
def test_biggest_rolls_are_summarised_within_discord_limits(
    name: str, text_only: bool, sorted_dice: bool
) -> None:
    result = BIGGEST[name]()
    embed = embed_for(
        result, label="x" * 500, roller="y" * 500, roll_id=2**63, text_only=text_only,
        sorted_dice=sorted_dice, status=RollStatus.VOID, secret=2**63,
    )
    description = embed.description or ""
    assert f"**{successes(result.successes)}**" in description
    if result.capped:
        assert f"Extra dice stopped at the limit of {MAX_EXTRA:,}" in description


def test_capped_hundred_die_roll_summarises_extra_rounds_by_face() -> None:
    result = _every_ten("cofd", MAX_POOL)
    assert result.capped
    embed = embed_for(result, label="storm the gate")
    description = embed.description or ""
    assert "10-again, 10th (100 dice): 100× **10**" in description
    assert embed.title == "🎲 storm the gate: Exceptional success"
    assert "**1100 successes**" in description
    single = embed_for(_every_ten("cofd", 1))
    assert "10-again, 1st to 1000th (1000 dice): 1000× **10**" in (single.description or "")


def test_void_dice_of_a_huge_will_spend_are_counted() -> None:
    embed = embed_for(_fistful_will_after())
    assert "Void (39 dice): 39× ~~10~~" in (embed.description or "")
    assert "Will: ~~1~~ ~~1~~ ~~1~~" in (embed.description or "")


# --- breakdown wording ----------------------------------------------------------------------------


def test_breakdown_lists_every_adjustment_with_sign_and_reason() -> None:
    request = RollRequest(
        ruleset=Ruleset.COFD,
        terms=(Term(label="Strength", value=5), Term(label="Brawl", value=4)),
        specialty=True, untrained="mental", resist=2, will=True,
        adjustments=(
            Adjustment(kind=AdjustmentKind.SUCCESSIVE_ATTEMPT, dice=-1),
            Adjustment(kind=AdjustmentKind.TEAMWORK, dice=2),
            Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=-4),
            Adjustment(kind=AdjustmentKind.EXTENDED_PENALTY, dice=-2),
        ),
    )
    result = roll(request, ScriptedFaces([8, 8, 8]))
    assert result.breakdown is not None
    text = breakdown_text(result.breakdown, Ruleset.COFD, result.will)
    assert text.splitlines() == [
        "Strength 5 + Brawl 4",
        "+1 die: specialty",
        "-3 dice: untrained (muddling through)",
        "-2 dice: resistance",
        "-1 die: trying again after a failure",
        "+2 dice: teamwork (helpers' successes)",
        "-4 dice: a helper's dramatic failure",
        "-2 dice: dramatic failure on the last extended roll",
        "+3 dice: Willpower (declared with the roll)",
        "= 3 dice",
    ]


def test_v20_breakdown_shows_difficulty_and_its_raise() -> None:
    request = RollRequest(
        ruleset=Ruleset.V20, terms=(Term(value=6),), will=True,
        adjustments=(
            Adjustment(kind=AdjustmentKind.MULTIPLE_ACTION, dice=-1, difficulty=1),
            Adjustment(kind=AdjustmentKind.HELPER_LIMIT, difficulty=1),
        ),
    )
    result = roll(request, ScriptedFaces([8] * 5))
    assert result.breakdown is not None
    assert breakdown_text(result.breakdown, Ruleset.V20, WillUse.DECLARED).splitlines() == [
        "6",
        "-1 die, difficulty +1: multiple actions",
        "difficulty +1: more helpers than the limit",
        "+1 success that no 1 cancels: Willpower (declared with the roll)",
        "= 5 dice at difficulty 8 (6 +2)",
    ]


def test_fistful_adjustment_words() -> None:
    botch = Adjustment(kind=AdjustmentKind.TEAMWORK_DRAMATIC_FAILURE, dice=-4)
    assert adjustment_text(botch, Ruleset.FISTFUL) == "-4 dice: a helper's botch"
    step = Adjustment(kind=AdjustmentKind.SUCCESSIVE_ACTION, dice=-1)
    assert adjustment_text(step, Ruleset.FISTFUL) == "-1 die: successive action this turn"


def test_small_text_helpers() -> None:
    assert successes(1) == "1 success"
    assert successes(3) == "3 successes"
    assert dice(2) == "2 dice"
    assert dice(-1) == "-1 die"
    assert safe("a*b") == r"a\*b"
    assert percent(0.0) == "0.00%"
    assert percent(1e-9) == "<0.01%"
    assert percent(0.123456) == "12.35%"
    assert percent(0.999999) == ">99.99%"
    assert percent(1.0) == "100.00%"


def test_every_ruleset_has_its_name() -> None:
    assert RULESET_NAMES == {
        Ruleset.COFD: "Chronicles of Darkness (2e)",
        Ruleset.V20: "Classic World of Darkness (V20 / Dark Ages)",
        Ruleset.FISTFUL: "Fist Full of Dice (table procedure)",
    }


# --- odds -----------------------------------------------------------------------------------------


def test_odds_embed_shows_exact_percentages_and_the_chart() -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=5),))
    embed = odds_embed(odds(request), pool_text="Wits 3 + Composure 2", ruleset=Ruleset.COFD,
                       options_text="rote")
    assert_within_discord_limits(embed)
    outcomes = field(embed, "Outcomes")
    assert "Failure: 16.81%" in outcomes  # 0.7 ** 5
    assert "Dramatic failure" not in outcomes  # unreachable: left out, not shown at 0 %
    at_least = field(embed, "At least N successes")
    assert at_least.startswith("1 or more: 83.19%")
    assert at_least.endswith("<0.01%")
    assert "not a simulation" in (embed.footer.text or "")
    assert embed.image.url == "attachment://odds.png"
    assert "Wits 3 + Composure 2" in (embed.description or "")
    assert "Chronicles of Darkness (2e)" in (embed.description or "")


def test_odds_embed_for_a_built_distribution_and_a_refusal() -> None:
    built = Odds(
        outcomes={Outcome.BOTCH: 0.1, Outcome.FAILURE: 0.2, Outcome.SUCCESS: 0.7},
        successes={0: 0.3, 1: 0.4, 2: 0.3 - 1e-7, 3: 1e-7},
    )
    embed = odds_embed(built, pool_text="3", ruleset=Ruleset.V20, options_text="",
                       text_only=True)
    assert_within_discord_limits(embed)
    assert text_of(embed).isascii()
    assert "Botch: 10.00%" in field(embed, "Outcomes")
    assert "3 or more: <0.01%" in field(embed, "At least N successes")
    refused = odds(RollRequest(ruleset=Ruleset.FISTFUL, terms=(Term(value=0),)))
    embed = odds_embed(refused, pool_text="0", ruleset=Ruleset.FISTFUL, options_text="")
    assert_within_discord_limits(embed)
    assert "cannot take this action now" in (embed.description or "")
    assert embed.image.url is None


def test_odds_of_the_widest_pool_stay_within_limits() -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=MAX_POOL),), again="8",
                          rote=True)
    embed = odds_embed(odds(request), pool_text="100", ruleset=Ruleset.COFD,
                       options_text="8-again, rote")
    assert_within_discord_limits(embed)
    assert len(field(embed, "At least N successes").splitlines()) <= 40


@pytest.mark.parametrize("pool", [1, 5, MAX_POOL])
def test_odds_chart_is_a_png_of_the_expected_size(pool: int) -> None:
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=pool),), again="8")
    png = odds_chart_png(odds(request), title=f"{pool} dice, 8-again")
    with Image.open(io.BytesIO(png)) as image:
        assert image.format == "PNG"
        assert image.size == (800, 400)


def test_odds_chart_of_a_certain_result() -> None:
    certain = Odds(outcomes={Outcome.SUCCESS: 1.0}, successes={1: 1.0})
    with Image.open(io.BytesIO(odds_chart_png(certain, title="auto"))) as image:
        assert image.size == (800, 400)


def _forms(value: str | tuple[str, ...] | list[str] | None) -> list[str]:
    return [value] if isinstance(value, str) else [form for form in value or () if form]


def _words_of(language: Language) -> str:
    """Every message the bot says in ``language`` (a chart's words are some of them, its
    title's options too), and numbers and percentages as the language writes them."""
    said: list[str] = []
    for each in (Language.PT_BR, Language.ES_ES):
        for message in lang.catalogue(each):
            if language is Language.EN:
                said.extend(_forms(message.id))
            elif each is language:
                said.extend(_forms(message.string))
    with lang.speaking(lang.voice(language)):
        said.extend(lang.percent(value, digits) for value in (0.0005, 0.123456, 0.95, 1.0)
                    for digits in range(4))
        said.append(lang.number(1234567.5, 1))
    return "".join(said)


@pytest.mark.parametrize("language", list(Language), ids=str)
def test_the_chart_font_draws_every_character_a_chart_says(language: Language) -> None:
    """The charts are drawn in the typeface the bot ships (bot/render/typeface.py), which
    has a glyph for every character the bot's words and numbers use in every language (but
    emoji, which no chart draws): none is drawn as the missing-glyph box (Pillow's default
    font drew "Falha Dram□tica", and every Spanish percentage as "40□%")."""
    font = chart_font(14)
    box = font.getmask("\ue000")

    def boxed(character: str) -> bool:
        mask = font.getmask(character)
        return mask.size == box.size and bytes(mask) == bytes(box)

    characters = {c for c in _words_of(language)
                  if unicodedata.category(c) != "Cc" and ord(c) <= 0xFFFF}
    assert "\u00a0" in characters or language is not Language.ES_ES, "no-break spaces checked"
    assert sorted(c for c in characters if boxed(c)) == []


def test_the_charts_draw_a_portuguese_title_in_its_own_letters() -> None:
    """A title with accented letters is drawn with them: the chart differs from one whose
    accented letters are all missing glyphs."""
    title = "5 dados (cofd), ação rotineira: Falha Dramática, Êxito"
    missing = "".join(c if c.isascii() else "\ue000" for c in title)
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=5),), rote=True)
    chance = odds(request)
    assert odds_chart_png(chance, title=title) != odds_chart_png(chance, title=missing)
    report = analyse(Sample(ruleset=Ruleset.COFD, tally=Tally(
        rolls=1, dice=5, will_spent=0, outcomes={Outcome.SUCCESS: 1}, faces=(1,) * 10)))
    assert (stats_chart_png([report], title=title)
            != stats_chart_png([report], title=missing))


@pytest.mark.parametrize("language", list(Language), ids=str)
def test_every_label_of_a_stats_chart_fits_its_place(language: Language) -> None:
    """A label too wide for its place is drawn smaller, then cut with "…": the line under
    each panel, the panels' titles and the outcomes under their bars all fit their width,
    and each label's glyphs hold all of its ink (measured with antialiasing, they lost the
    first and last letters of every line under a panel)."""
    drawn: list[tuple[str, int, float]] = []
    label = stats_render._label

    def spy(image: Image.Image, xy: tuple[float, float], text: str,
            **options: Any) -> tuple[str, int]:
        shown, size = label(image, xy, text, **options)
        if options.get("width") is not None:
            drawn.append((shown, size, options["width"]))
        return shown, size

    report = analyse(Sample(ruleset=Ruleset.V20, tally=Tally(
        rolls=1, dice=5, will_spent=0, outcomes={Outcome.SUCCESS: 1}, faces=(1,) * 10)))
    with lang.speaking(lang.voice(language)), pytest.MonkeyPatch.context() as patch:
        patch.setattr(stats_render, "_label", spy)
        stats_render.stats_chart_png([report], title="W" * 200)
    assert len(drawn) > 10
    for shown, size, width in drawn:
        canvas = Image.new("1", (2000, 60), 0)
        ImageDraw.Draw(canvas).text((1000, 30), shown, font=chart_font(size), fill=1,
                                    anchor="mt")
        ink = canvas.getbbox()
        assert ink is not None
        mask, _left, _top = stats_render._glyphs(shown, size, "mt")
        assert ink[2] - ink[0] <= mask.width <= width, (shown, size, width)
    assert drawn[0][0].endswith("…"), "a title too long for any size is cut visibly"


# --- help -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", list(Ruleset))
@pytest.mark.parametrize("topic", [None, *HELP_TOPICS, "nonsense @everyone"])
def test_help_fits_for_every_ruleset_and_topic(ruleset: Ruleset, topic: str | None) -> None:
    embed = help_embed(ruleset, topic)
    assert_within_discord_limits(embed)
    assert RULESET_NAMES[ruleset] in text_of(embed)
    assert "@everyone" not in text_of(embed)


def test_help_shows_the_channels_ruleset_options() -> None:
    assert "`difficulty`" in text_of(help_embed(Ruleset.V20, None))
    assert "`rote`" in text_of(help_embed(Ruleset.COFD, "roll"))
    assert "`risky`" in text_of(help_embed(Ruleset.FISTFUL, "roll"))
    assert "adds 1 success that no 1 can cancel" in text_of(help_embed(Ruleset.V20, "will"))
    assert "`/odds pool:" in text_of(help_embed(Ruleset.COFD, "odds"))
    assert help_embed(Ruleset.COFD, "history").title == "Help: history"


@pytest.mark.parametrize("limit", [2, 10, 16, 64])
def test_escaped_text_is_shortened_to_the_most_that_fits(limit: int) -> None:
    """An escape doubles a markdown character: the cut keeps the longest beginning whose
    escaped form and its "…" fit, never half an escape (a name of 64 asterisks keeps 31
    at 64, where the cut from how far over it was had kept 22)."""
    text = "*_" * 32
    shown = escaped(text, limit=limit)
    assert len(shown) <= limit
    assert shown.endswith("…")
    kept = (limit - 1) // 2
    assert shown == escaped(text[:kept]) + "…"
    assert len(escaped(text[:kept + 1])) + 1 > limit, "one more would not fit"


def test_a_compact_card_too_long_is_cut_visibly_and_keeps_its_pool_line() -> None:
    """A compact card's text (in pt-BR, text-only, a 100-die rote roll can pass 4,096
    characters) is cut after a whole word with a visible "…", never inside an escape, and
    its pool line stays whole at the end."""
    head = " ".join(["7 rolado de novo: 10 (sucesso),"] * 150) + " Resistência: \\*\\_\\~"
    tail = "Pool: Brawl 0 + " + "Trait 10 + " * 40
    text = rolls_render._with_tail(head, tail)
    assert len(text) <= 4096
    assert text.endswith("\n…\n" + tail)
    kept = text[: -len("\n…\n" + tail)]
    assert head.startswith(kept) and head[len(kept)] in " ,\n", "after a whole word"
    assert not kept.endswith("\\")
    assert rolls_render._with_tail("short", tail) == f"short\n{tail}"


@pytest.mark.parametrize(("p", "shown"), [
    (0.00996, "p < 0.01 over 200 dice"),
    (0.0094, "p = 0.0094 over 200 dice"),
    (0.01, "p = 0.01 over 200 dice"),
    (0.00002, "p < 0.0001 over 200 dice"),
])
def test_an_unusual_verdict_never_shows_a_p_value_that_reads_as_fair(p: float, shown: str) -> None:
    """Below p = 0.01 the dice are called unusual: a p rounded up to 0.01 would contradict
    the verdict beside it, so it is shown as below 0.01 ("p < 0.01", not "p = < 0.01")."""
    verdict = Verdict.UNUSUAL if p < UNUSUAL_BELOW else Verdict.FAIR
    bands = [Band(count=20, observed=0.1, expected=0.1, low=0.05, high=0.15)] * 10
    text = stats_render._face_verdict(FitTest(verdict=verdict, sample=200, p=p, furthest=1), bands)
    assert shown in text
