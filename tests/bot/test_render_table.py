"""Teamwork, contest and multiple-action cards rendered from real engine results."""

from __future__ import annotations

import re

import discord
import pytest

from bot.render.contest import (
    DICE_SHOWN,
    contest_embed,
    dice_text,
    multi_embed,
    multi_refused,
    roll_block,
)
from bot.render.teamwork import (
    TeamworkStatus,
    scene_teamwork_ended,
    several_open,
    teamwork_embed,
)
from bot.render.text import INFO_COLOUR, OUTCOME_COLOURS, VOID_COLOUR
from engine.faces import ScriptedFaces
from engine.models import Outcome, RollRequest, RollResult, Ruleset, Term
from engine.prepare import prepare
from engine.refusals import Refusal
from engine.roll import roll
from engine.table import multi, teamwork
from engine.table.contest import resolve
from engine.table.teamwork import TeamworkState

PRIMARY, BOB, CARA = 100, 201, 202


def request(ruleset: str, *terms: int | tuple[str, int], **options: object) -> RollRequest:
    built = tuple(
        Term(label=term[0], value=term[1]) if isinstance(term, tuple) else Term(value=term)
        for term in terms
    )
    return RollRequest.model_validate({"ruleset": ruleset, "terms": built, **options})


def rolled(req: RollRequest, faces: list[int]) -> RollResult:
    source = ScriptedFaces(faces)
    result = roll(req, source)
    assert source.remaining == 0
    return result


def text_of(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    for embed_field in embed.fields:
        parts += [embed_field.name or "", embed_field.value or ""]
    return "\n".join(parts)


def field(embed: discord.Embed, name: str) -> str:
    return next(f.value or "" for f in embed.fields if (f.name or "").startswith(name))


def assert_within_discord_limits(embed: discord.Embed) -> None:
    assert len(embed.title or "") <= 256
    assert len(embed.description or "") <= 4096
    assert len(embed.fields) <= 25
    for embed_field in embed.fields:
        assert embed_field.name
        assert embed_field.value
        assert len(embed_field.name) <= 256
        assert len(embed_field.value) <= 1024
    assert len(embed) <= 6000


def card(
    state: TeamworkState,
    names: list[str],
    *,
    primary: RollResult | None = None,
    status: TeamworkStatus = TeamworkStatus.OPEN,
    label: str = "force the door",
    primary_name: str = "Ada",
    text_only: bool = False,
) -> discord.Embed:
    prepared = prepare(teamwork.primary_request(state))
    embed = teamwork_embed(
        state,
        label=label,
        primary_name=primary_name,
        helper_names=names,
        bonus=teamwork.bonus(state),
        next_roll=prepared if isinstance(prepared, Refusal) else prepared.breakdown,
        primary=primary,
        status=status,
        text_only=text_only,
    )
    assert_within_discord_limits(embed)
    return embed


def helped(state: TeamworkState, member: int, req: RollRequest, faces: list[int]) -> TeamworkState:
    return teamwork.add_helper(
        state, member, rolled(teamwork.helper_request(state, member, req), faces)
    )


# --- teamwork ----------------------------------------------------------------------------------


def test_an_open_card_shows_each_helper_the_running_bonus_and_the_pool_to_roll() -> None:
    state = teamwork.start(request("cofd", ("Strength", 3), ("Athletics", 2)), PRIMARY)
    state = helped(state, BOB, request("cofd", ("Wits", 3)), [8, 10, 2, 9])
    state = helped(state, CARA, request("cofd", 0), [1])

    embed = card(state, ["Bob", "Cara"])

    assert embed.title == "🤝 Teamwork: force the door"
    assert "**Ada** leads: Strength 3 + Athletics 2" in (embed.description or "")
    assert "press **Help**" in (embed.description or "")
    assert embed.colour == INFO_COLOUR
    assert field(embed, "Helpers (2)").splitlines() == [
        "**Bob**: Success, 3 successes (3 dice) · **8** **10** 2 **9**",
        "**Cara**: Dramatic failure, 0 successes · chance die 1",
    ]
    assert field(embed, "Bonus and penalties so far").splitlines() == [
        "+3 dice: teamwork (helpers' successes)",
        "-4 dice: a helper's dramatic failure",
    ]
    assert field(embed, "Ada will roll").splitlines()[-1] == "= 4 dice"
    assert embed.footer.text is None  # no number from the shared action sequence


def test_a_card_without_helpers_says_none_yet() -> None:
    embed = card(teamwork.start(request("cofd", 4), PRIMARY), [])
    assert field(embed, "Helpers (0)") == "None yet."
    assert field(embed, "Bonus and penalties so far") == "None yet."
    assert field(embed, "Ada will roll") == "4 dice"


def test_v20_card_shows_the_helper_limit_and_the_raised_difficulty() -> None:
    state = teamwork.start(request("v20", 4), PRIMARY, helper_limit=1)
    state = helped(state, BOB, request("v20", 3), [6, 2, 3])
    state = helped(state, CARA, request("v20", 3), [7, 6, 2])

    embed = card(state, ["Bob", "Cara"])

    assert "Helper limit: 1" in (embed.description or "")
    helpers = field(embed, "Helpers (2)").splitlines()
    assert "(3 dice at difficulty 6)" in helpers[0]
    assert "(3 dice at difficulty 7)" in helpers[1]
    assert "difficulty +1: more helpers than the limit" in field(embed, "Bonus and penalties")
    assert "6 dice at difficulty 7 (6 +1)" in field(embed, "Ada will roll")


def test_a_pool_that_cannot_be_rolled_yet_says_why() -> None:
    state = teamwork.start(request("fistful", 2), PRIMARY)
    state = helped(state, BOB, request("fistful", 2), [1, 3])
    assert field(card(state, ["Bob"]), "Ada will roll") == (
        "Cannot be rolled now: the pool is -2: with no dice the character cannot take this "
        "action now."
    )


def test_a_rolled_card_shows_the_primary_s_roll_and_has_the_outcome_s_colour() -> None:
    state = helped(
        teamwork.start(request("cofd", 3), PRIMARY), BOB, request("cofd", 2), [8, 2]
    )
    primary = rolled(teamwork.primary_request(state), [8, 9, 2, 3])

    embed = card(state, ["Bob"], primary=primary, status=TeamworkStatus.ROLLED)

    assert embed.colour == OUTCOME_COLOURS[Outcome.SUCCESS]
    shown = field(embed, "Ada rolled")
    assert shown.startswith("**Success, 2 successes**")
    assert "+1 die: teamwork (helpers' successes)" in shown
    assert "this teamwork is over" in (embed.description or "")
    assert not any((f.name or "").startswith("Ada will roll") for f in embed.fields)


@pytest.mark.parametrize(
    ("status", "says"),
    [(TeamworkStatus.CANCELLED, "Cancelled"), (TeamworkStatus.SCENE_ENDED, "The scene ended")],
)
def test_a_card_that_ended_without_a_roll_is_grey_and_says_how(
    status: TeamworkStatus, says: str
) -> None:
    embed = card(teamwork.start(request("cofd", 3), PRIMARY), [], status=status)
    assert embed.colour == VOID_COLOUR
    assert says in (embed.description or "")
    assert "press **Help**" not in (embed.description or "")


def test_text_only_cards_have_no_emoji_strikes_or_arrows() -> None:
    state = teamwork.start(request("v20", 5), PRIMARY)
    state = helped(state, BOB, request("v20", 3), [7, 1, 2])
    embed = card(state, ["Bob"], text_only=True)
    shown = text_of(embed)
    assert embed.title == "Teamwork: force the door"
    assert "~~" not in shown
    assert "·" not in shown
    assert "7 (cancelled), 1 (cancels), 2" in shown


def test_text_only_roll_blocks_say_each_success_in_words() -> None:
    """A screen reader does not read bold: in text-only mode a helper's, a side's or an
    action's dice say which succeeded in words, as a roll card's do ("8 (success)", help's
    "Reading the reply"), a v20 specialty 10 that it counts twice."""
    result = rolled(request("v20", 3, specialty=True), [10, 8, 2])

    assert dice_text(result, text_only=True) == "10 (2 successes), 8 (success), 2"
    assert dice_text(result) == "**10**×2 **8** 2"
    state = helped(teamwork.start(request("cofd", 3), PRIMARY), BOB, request("cofd", 2),
                   [8, 2])
    assert "dice: 8 (success), 2" in text_of(card(state, ["Bob"], text_only=True))


def test_names_and_labels_never_ping_or_format() -> None:
    state = helped(
        teamwork.start(request("cofd", 3), PRIMARY), BOB, request("cofd", 2), [8, 2]
    )
    embed = card(
        state, ["<@&555> *Bob*"], label="@everyone <@123>", primary_name="@here __Ada__"
    )
    shown = text_of(embed)
    assert "@everyone" not in shown
    assert "@here" not in shown
    assert not re.search(r"(?<!\\)<@", shown)
    assert r"\*Bob\*" in field(embed, "Helpers")
    assert r"\_\_Ada\_\_" in (embed.description or "")
    waiting = contest_embed(
        ruleset=Ruleset.COFD, label="<@123>", actor_name="@everyone", opponent_name="<@&5>",
        actor=rolled(request("cofd", 1), [8]), opponent=None, contest=None,
    )
    assert "@everyone" not in text_of(waiting)
    assert not re.search(r"(?<!\\)<@", text_of(waiting))


def test_many_helpers_keep_the_card_within_discord_s_limits() -> None:
    state = teamwork.start(request("cofd", 3), PRIMARY)
    names = []
    for member in range(40):
        state = helped(state, 1000 + member, request("cofd", 10), [8] * 10)
        names.append(f"Helper number {member} " + "x" * 60)
    embed = card(state, names)
    helpers = field(embed, "Helpers (40)")
    assert helpers.startswith("… and ")
    assert "earlier helpers" in helpers
    assert "Helper number 39" in helpers


def test_scene_end_mentions_only_teamwork_it_ended() -> None:
    assert scene_teamwork_ended(0) == ""
    assert scene_teamwork_ended(2) == " 2 unfinished teamwork actions ended."


# --- contests ----------------------------------------------------------------------------------


def contest_card(
    ruleset: str, ours: RollResult, theirs: RollResult | None, opponent: str | None = "Bob"
) -> discord.Embed:
    embed = contest_embed(
        ruleset=Ruleset(ruleset),
        label="arm wrestle",
        actor_name="Ada",
        opponent_name=opponent,
        actor=ours,
        opponent=theirs,
        contest=None if theirs is None else resolve(Ruleset(ruleset), ours, theirs),
    )
    assert_within_discord_limits(embed)
    return embed


@pytest.mark.parametrize(
    ("ruleset", "says"),
    [
        ("cofd", "nobody wins. The Storyteller rules"),
        ("v20", "neither side succeeds"),
        ("fistful", "nobody carries the consequences"),
    ],
)
def test_a_tie_is_worded_by_the_ruleset(ruleset: str, says: str) -> None:
    faces = {"cofd": [8, 2], "v20": [6, 2], "fistful": [8, 2]}[ruleset]
    embed = contest_card(
        ruleset, rolled(request(ruleset, 2), faces), rolled(request(ruleset, 2), faces)
    )
    assert "**Tie**" in (embed.description or "")
    assert says in (embed.description or "")


def test_v20_winner_margin_and_degree() -> None:
    ours = rolled(request("v20", 5, difficulty=7), [7, 8, 9, 2, 3])
    theirs = rolled(request("v20", 3), [6, 1, 2])
    embed = contest_card("v20", ours, theirs)
    assert embed.description == "**Ada wins** by 3 successes (a complete success)."
    assert "5 dice at difficulty 7" in field(embed, "Ada")
    assert field(embed, "Bob").startswith("**Failure, 0 successes**")


def test_fistful_says_whose_successes_are_left() -> None:
    ours = rolled(request("fistful", 3), [8, 9, 2])
    theirs = rolled(request("fistful", 4), [8, 9, 10, 2, 3])
    embed = contest_card("fistful", ours, theirs)
    assert (embed.description or "").startswith("**Bob wins**: 1 success left")


def test_the_storyteller_s_side_is_the_opposition_and_a_member_s_side_waits() -> None:
    ours = rolled(request("cofd", 2), [8, 2])
    assert "The opposition" in text_of(contest_card("cofd", ours, ours, opponent=None))
    waiting = contest_card("cofd", ours, None)
    assert "Waiting for **Bob**" in (waiting.description or "")
    assert field(waiting, "Bob") == "Not rolled yet."


def test_a_huge_roll_is_counted_past_the_dice_shown() -> None:
    result = rolled(request("cofd", 100, again="none"), [2] * 100)
    shown = dice_text(result)
    assert shown.endswith(f"… and {100 - DICE_SHOWN} more dice")
    block = roll_block(result)
    assert len(block) <= 1024


def test_a_roll_block_with_very_long_trait_names_fits_a_field() -> None:
    terms = [(f"Trait{n}" + "x" * 80, 1) for n in range(30)]
    result = rolled(request("cofd", *terms), [2] * 30)
    block = roll_block(result)
    assert len(block) <= 1024
    assert "30 dice" in block


# --- multiple actions --------------------------------------------------------------------------


def test_multi_card_has_one_field_per_action_with_its_penalty() -> None:
    declared = multi.requests([request("v20", 5), request("v20", 6)])
    assert isinstance(declared, list)
    results = [rolled(declared[0], [7, 7, 2, 3]), rolled(declared[1], [8, 7, 9, 1])]
    embed = multi_embed(results, roller="Ada", label=None)
    assert_within_discord_limits(embed)
    assert "takes 2 actions" in (embed.description or "")
    assert "-1 die, difficulty +1: multiple actions" in field(embed, "Action 1 of 2")
    assert "-2 dice, difficulty +2: multiple actions" in field(embed, "Action 2 of 2")


def test_a_refused_declaration_names_the_action_and_its_pool() -> None:
    refused = multi.requests([request("v20", 6, difficulty=8), request("v20", 6, difficulty=8)])
    assert isinstance(refused, multi.MultiRefusal)
    text = multi_refused(refused, "Strength 3 + Brawl 3")
    assert text.startswith("Action 2 of 2: this action cannot be taken")
    assert text.endswith("(action 2 is Strength 3 + Brawl 3).")


def test_v20_an_exceptional_degree_takes_an() -> None:
    """Four net successes: "an exceptional success", never "a exceptional"."""
    ours = rolled(request("v20", 4), [7, 8, 9, 10])
    theirs = rolled(request("v20", 2), [2, 3])
    embed = contest_card("v20", ours, theirs)
    assert embed.description == "**Ada wins** by 4 successes (an exceptional success)."


def test_several_open_teamworks_name_ten_and_count_the_rest() -> None:
    text = several_open([f"lift {n}" for n in range(13)])
    assert "“lift 9”" in text and "“lift 10”" not in text
    assert "… and 3 more" in text
    assert len(text) < 2000


def test_sorted_dice_put_a_rerolled_die_where_its_reroll_ranks() -> None:
    """`dice_order: sorted` in a roll block: a rote die rerolled is ranked by the face it
    was rerolled to, the one that counts (``3→9`` before ``8``), not by the failure."""
    result = rolled(request("cofd", 3, rote=True), [2, 8, 3, 4, 9])
    assert dice_text(result) == "2→4 **8** 3→**9**"
    assert dice_text(result, sorted_dice=True) == "3→**9** **8** 2→4"
