"""The command line: anyone can try the rules without Discord (``python -m bot.cli``)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from bot.cli import MAX_COUNT, main

REPO = Path(__file__).resolve().parents[2]


def run(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    """Exit status, stdout and stderr of one in-process run."""
    status = main(list(argv))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def answer(capsys: pytest.CaptureFixture[str], *argv: str) -> Any:
    """The JSON a successful run prints (``--json`` is added)."""
    status, out, err = run(capsys, *argv, "--json")
    assert (status, err) == (0, "")
    return json.loads(out)


def text(capsys: pytest.CaptureFixture[str], *argv: str) -> list[str]:
    """The lines a successful run prints."""
    status, out, err = run(capsys, *argv)
    assert (status, err) == (0, "")
    return out.splitlines()


# --- RULES.md §5 through --faces ---------------------------------------------------


EXAMPLES = [
    # cofd
    (["5"], "3 8 10 1 9 10 4", {"outcome": "success", "successes": 4}),
    (["3", "--again", "9"], "9 2 5 9 7", {"outcome": "success", "successes": 2}),
    (["3", "--again", "8"], "8 8 2 8 3 5", {"outcome": "success", "successes": 3}),
    (["3", "--again", "none"], "10 10 4", {"outcome": "success", "successes": 2}),
    (["4", "--rote"], "2 8 5 6 10 1 9 8", {"outcome": "success", "successes": 4}),
    (["2", "--rote"], "10 4 10 2 3", {"outcome": "success", "successes": 2}),
    (["2 - 3"], "1", {"outcome": "dramatic_failure", "successes": 0}),
    (["0", "--rote"], "5 10", {"outcome": "success", "successes": 1}),
    (["0", "--rote"], "5 1", {"outcome": "dramatic_failure", "successes": 0}),
    (["6"], "8 9 10 8 9 3 2", {"outcome": "exceptional_success", "successes": 5}),
    (["3", "--extra", "2"], "8 4 2", {"outcome": "success", "successes": 3}),
    (["4", "--exceptional-at", "3"], "8 9 8 1", {"outcome": "exceptional_success"}),
    # v20
    (["5", "--ruleset", "v20"], "6 7 1 3 10", {"successes": 2, "degree": "moderate"}),
    (["4", "--ruleset", "v20", "--difficulty", "7"], "6 5 1 2", {"outcome": "botch"}),
    (["3", "--ruleset", "v20"], "7 1 1", {"outcome": "failure", "successes": 0}),
    (
        ["4", "--ruleset", "v20", "--difficulty", "8", "--specialty"],
        "10 9 1 3",
        {"successes": 2, "degree": "moderate"},
    ),
    (["3", "--ruleset", "v20", "--will"], "1 1 2", {"successes": 1, "degree": "marginal"}),
    # fistful
    (["4", "--ruleset", "fistful"], "8 10 3 1 10 5", {"outcome": "success", "successes": 3}),
    (
        ["4", "--ruleset", "fistful", "--untrained", "mental"],
        "10 9 1 3",
        {"outcome": "success", "successes": 1},
    ),
    (["5", "--ruleset", "fistful", "--risky"], "10 10 10 1 8 1 9", {"successes": 3}),
    (["3", "--ruleset", "fistful", "--untrained", "social"], "10 10 5 10 1", {"successes": 2}),
    (["2", "--ruleset", "fistful", "--risky"], "10 10 1 1", {"outcome": "failure"}),
    (["3", "--ruleset", "fistful"], "2 1 1", {"outcome": "botch", "botch_degree": 2}),
    (["4", "--ruleset", "fistful"], "1 1 1 5", {"outcome": "botch", "botch_degree": 3}),
    (["3", "--ruleset", "fistful", "--no-botch"], "2 1 1", {"outcome": "failure"}),
    (["3", "--ruleset", "fistful", "--risky"], "8 1 1", {"botch_degree": 1}),
    (["3", "--ruleset", "fistful", "--initiative"], "6 7 2", {"successes": 2}),
    (["2", "--ruleset", "fistful", "--initiative", "--risky"], "7 1", {"outcome": "failure"}),
    (["2", "--ruleset", "fistful", "--initiative"], "10 6 6", {"successes": 3}),
]


@pytest.mark.parametrize(("argv", "faces", "expected"), EXAMPLES)
def test_worked_examples_through_scripted_faces(
    capsys: pytest.CaptureFixture[str], argv: list[str], faces: str, expected: dict[str, Any]
) -> None:
    data = answer(capsys, "roll", *argv, "--faces", faces)
    assert {key: data[key] for key in expected} == expected
    assert [die["face"] for die in data["dice"]] == [int(face) for face in faces.split()]


def test_roll_json_has_every_documented_key(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "roll", "Strength 3 + Brawl 2", "--faces", "3 8 10 1 9 10 4")
    assert data["ruleset"] == "cofd"
    assert (data["outcome"], data["successes"], data["botch_degree"], data["degree"]) == (
        "success", 4, None, None,
    )
    assert (data["will"], data["capped"], data["need_met"], data["message"]) == (
        "none", False, None, None,
    )
    assert data["refusal"] is None
    assert data["dice"][2] == {
        "face": 10, "round": 0, "kind": "pool", "fate": "success", "successes": 1,
        "explodes": True, "pair": None,
    }
    assert [(die["face"], die["round"]) for die in data["dice"][5:]] == [(10, 1), (4, 2)]
    assert data["pool"] == {
        "terms": [{"label": "Strength", "value": 3}, {"label": "Brawl", "value": 2}],
        "adjustments": [],
        "dice": 5,
        "chance": False,
        "difficulty": None,
    }


def test_fistful_need_reports_whether_it_was_met(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "roll", "3", "--ruleset", "fistful", "--need", "2", "--faces", "8 9 3")
    assert (data["successes"], data["need_met"]) == (2, True)


def test_a_capped_roll_says_so(capsys: pytest.CaptureFixture[str]) -> None:
    faces = " ".join(["10"] * 1100)  # 100 dice, then exactly MAX_EXTRA extra dice, all 10s
    data = answer(capsys, "roll", "100", "--faces", faces)
    assert (data["capped"], data["successes"]) == (True, 1100)
    assert text(capsys, "roll", "100", "--faces", faces)[-1] == (
        "extra dice stopped at the safety cap; the outcome is read from what rolled"
    )


# --- Will after the roll ------------------------------------------------------------


def test_fistful_will_after_eats_the_ten_and_voids_its_extra_die(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = answer(
        capsys, "roll", "2", "--ruleset", "fistful", "--untrained", "physical",
        "--faces", "10 5 9 1 8 3", "--spend-will",
    )
    assert (data["before_will"]["outcome"], data["before_will"]["successes"]) == ("success", 2)
    assert (data["outcome"], data["successes"], data["will"]) == ("success", 1, "after")
    assert [die["face"] for die in data["dice"] if die["fate"] == "void"] == [9]
    assert "will_refused" not in data


@pytest.mark.parametrize(
    ("argv", "faces", "outcome", "successes"),
    [
        (["2"], "3 4 9 10 2 8", "success", 3),
        (["-1"], "1 9", "success", 1),
        (["4", "--ruleset", "v20"], "2 3 1 5", "success", 1),
    ],
)
def test_will_after_the_roll_continues_the_scripted_faces(
    capsys: pytest.CaptureFixture[str], argv: list[str], faces: str, outcome: str, successes: int
) -> None:
    data = answer(capsys, "roll", *argv, "--faces", faces, "--spend-will")
    assert (data["outcome"], data["successes"]) == (outcome, successes)
    assert data["before_will"]["outcome"] != outcome


def test_a_refused_will_spend_leaves_the_roll_and_says_why(
    capsys: pytest.CaptureFixture[str],
) -> None:
    argv = ["roll", "3", "--will", "--faces", "8 2 2 2 2 2", "--spend-will"]
    data = answer(capsys, *argv)
    assert (data["outcome"], data["successes"], data["will"]) == ("success", 1, "declared")
    assert data["will_refused"] == "Willpower was declared with this roll already: once per roll"
    assert data["will_refusal"] == {"code": "will_declared", "params": {}, "cause": None}
    assert "before_will" not in data
    assert text(capsys, *argv)[-1] == (
        "Will not spent: Willpower was declared with this roll already: once per roll"
    )


# --- Text output ----------------------------------------------------------------------


def test_text_groups_dice_by_round_with_rote_rerolls_beside_what_they_replaced(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert text(capsys, "roll", "4", "--rote", "--faces", "2 8 5 6 10 1 9 8") == [
        "cofd pool: 4 → 4 dice",
        "round 0: 2 → 10✓↻ · 8✓ · 5 → 1 · 6 → 9✓",
        "round 1: 8✓",
        "success: 4 successes",
    ]


def test_text_shows_the_breakdown_and_the_roll_before_and_after_will(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert text(
        capsys, "roll", "Wits 1 + Larceny 1", "--untrained", "physical", "--specialty",
        "--faces", "3 4 9 10 2 8", "--spend-will",
    ) == [
        "cofd pool: Wits 1 + Larceny 1, specialty +1, untrained -1 → 2 dice",
        "round 0: 3 · 4",
        "failure: 0 successes",
        "",
        "Will spent after the roll:",
        "cofd pool: Wits 1 + Larceny 1, specialty +1, untrained -1, willpower +3 → 5 dice",
        "round 0: 3 · 4 | Will: 9✓ · 10✓↻ · 2",
        "round 1: 8✓",
        "success: 3 successes",
    ]


def test_text_shows_cancelled_successes_and_the_degree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    assert text(capsys, "roll", "5", "--ruleset", "v20", "--faces", "6 7 1 3 10") == [
        "v20 pool: 5 → 5 dice at difficulty 6",
        "round 0: 6 cancelled · 7✓ · 1 cancels 6 · 3 · 10✓",
        "success (moderate): 2 successes",
    ]


def test_text_names_the_ones_of_a_botch(capsys: pytest.CaptureFixture[str]) -> None:
    assert text(capsys, "roll", "3", "--ruleset", "fistful", "--faces", "2 1 1")[-2:] == [
        "round 0: 2 · 1! · 1!",
        "botch: 2 ones standing",
    ]


# --- Refusals by the rules: outcome refused, exit status 0 ----------------------------


@pytest.mark.parametrize(
    ("argv", "message", "code"),
    [
        (
            ["2 - 2", "--ruleset", "fistful"],
            "the pool is 0: with no dice the character cannot take this action now",
            "no_action_now",
        ),
        (
            ["3", "--ruleset", "v20", "--difficulty", "11"],
            "difficulty 11 is out of range",
            "out_of_range",
        ),
        (
            ["3", "--ruleset", "v20", "--rote"],
            "rote does not apply to the v20 ruleset",
            "option_not_in_ruleset",
        ),
        (
            ["3", "--difficulty", "7"],
            "difficulty does not apply to the cofd ruleset",
            "option_not_in_ruleset",
        ),
        (
            ["3", "--ruleset", "fistful", "--again", "9"],
            "again does not apply to the fistful",
            "option_not_in_ruleset",
        ),
        (["3", "--exceptional-at", "0"], "exceptional_at 0 is out of range", "out_of_range"),
        (["101"], "a pool of 101 dice is too large: at most 100", "pool_too_large"),
        (["60 + 50 + Strength 90"], "a pool of 200 dice is too large", "pool_too_large"),
    ],
)
def test_a_rules_refusal_is_an_answer(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str, code: str
) -> None:
    data = answer(capsys, "roll", *argv, "--faces", "8 8 8")
    assert (data["outcome"], data["successes"], data["dice"]) == ("refused", 0, [])
    assert data["refusal"]["code"] == code
    assert message in data["message"]
    assert text(capsys, "roll", *argv) == [f"refused: {data['message']}"]
    chances = answer(capsys, "odds", *argv)
    assert (chances["outcomes"], chances["message"]) == ({"refused": 1.0}, data["message"])
    assert chances["refusal"] == data["refusal"]


def test_a_pool_over_the_cap_is_refused_with_its_size_not_a_usage_error(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = answer(capsys, "roll", "150", "--seed", "1")
    assert (data["outcome"], data["dice"], data["pool"]) == ("refused", [], None)
    assert data["refusal"] == {
        "code": "pool_too_large", "params": {"dice": 150, "max": 100}, "cause": None,
    }
    counted = answer(capsys, "roll", "150", "--seed", "1", "--count", "3")
    assert (counted["outcomes"], counted["refusal"]) == ({"refused": 3}, data["refusal"])


@pytest.mark.parametrize(
    ("argv", "outcome"),
    [
        (["2-2", "--ruleset", "fistful"], "refused"),
        (["150"], "refused"),
        (["7", "--ruleset", "v20", "--auto"], "success"),
    ],
)
def test_empty_faces_serve_a_roll_that_draws_no_dice(
    capsys: pytest.CaptureFixture[str], argv: list[str], outcome: str
) -> None:
    data = answer(capsys, "roll", *argv, "--faces", "")
    assert (data["outcome"], data["dice"]) == (outcome, [])


# --- Many rolls -------------------------------------------------------------------------


def test_count_of_a_refused_request_says_why(capsys: pytest.CaptureFixture[str]) -> None:
    assert text(capsys, "roll", "0", "--ruleset", "fistful", "--seed", "1", "--count", "3") == [
        "3 rolls, all refused: the pool is 0: with no dice the character cannot take this "
        "action now"
    ]


def test_count_with_a_seed_counts_every_roll_reproducibly(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = answer(capsys, "roll", "5", "--seed", "7", "--count", "2000")
    assert data["count"] == 2000
    assert sum(data["outcomes"].values()) == sum(data["successes"].values()) == 2000
    assert set(data["outcomes"]) <= {"failure", "success", "exceptional_success"}
    assert data["successes"]["0"] == data["outcomes"]["failure"]
    assert answer(capsys, "roll", "5", "--seed", "7", "--count", "2000") == data


def test_count_with_enough_scripted_faces(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "roll", "1", "--faces", "8 3 9", "--count", "3")
    assert (data["outcomes"], data["successes"]) == (
        {"failure": 1, "success": 2}, {"0": 1, "1": 2},
    )


def test_count_text_is_a_table_of_shares(capsys: pytest.CaptureFixture[str]) -> None:
    lines = text(capsys, "roll", "1", "--faces", "8 3 9 2", "--count", "4")
    assert lines[0] == "4 rolls of cofd pool: 1 → 1 die"
    assert "failure      2  50.00%" in lines
    assert "1              2  50.00%" in lines


def test_count_with_will_after_counts_the_rolls_after_will(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = answer(capsys, "roll", "2", "--faces", "3 4 9 2 2", "--count", "1", "--spend-will")
    assert data["outcomes"] == {"success": 1}


def test_count_reports_a_refused_will_spend_once(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "roll", "-5", "--seed", "1", "--count", "50", "--spend-will")
    assert sum(data["outcomes"].values()) == 50
    assert data["will_refused"].startswith("Willpower cannot help: the pool is -5")


def test_a_roll_without_faces_or_seed_uses_the_system_source(
    capsys: pytest.CaptureFixture[str],
) -> None:
    data = answer(capsys, "roll", "3", "--again", "none")
    assert [die["round"] for die in data["dice"]] == [0, 0, 0]
    assert all(1 <= die["face"] <= 10 for die in data["dice"])


# --- Odds --------------------------------------------------------------------------------


def test_odds_of_one_v20_die_at_difficulty_6(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "odds", "1", "--ruleset", "v20", "--difficulty", "6")
    assert data["outcomes"] == pytest.approx({"success": 0.5, "botch": 0.1, "failure": 0.4})
    assert data["successes"] == pytest.approx({"0": 0.5, "1": 0.5})
    assert data["at_least"] == pytest.approx({"1": 0.5})


def test_odds_of_a_cofd_chance_die(capsys: pytest.CaptureFixture[str]) -> None:
    data = answer(capsys, "odds", "0")
    assert data["outcomes"] == pytest.approx(
        {"dramatic_failure": 0.1, "failure": 0.8, "success": 0.1, "exceptional_success": 0.0}
    )


def test_odds_text_is_two_tables_of_percentages(capsys: pytest.CaptureFixture[str]) -> None:
    assert text(capsys, "odds", "1", "--ruleset", "v20") == [
        "v20 pool: 1 → 1 die at difficulty 6",
        "",
        "outcome  chance",
        "botch    10.00%",
        "failure  40.00%",
        "success  50.00%",
        "",
        "successes  exactly  at least",
        "0           50.00%   100.00%",
        "1           50.00%    50.00%",
    ]


def test_odds_text_stops_where_the_tail_rounds_to_zero(
    capsys: pytest.CaptureFixture[str],
) -> None:
    lines = text(capsys, "odds", "5")
    assert lines[-2:] == [
        "8            0.01%     0.02%",
        "9+                     0.00%",
    ]


# --- Malformed command lines: one line on stderr, exit status 2 ---------------------------


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        ([], "the following arguments are required: {roll,odds}"),
        (["dice", "5"], "invalid choice: 'dice'"),
        (["roll"], "the following arguments are required: pool"),
        (["roll", "5", "--bogus"], "unrecognized arguments: --bogus"),
        (["roll", "5", "--ruleset", "dnd"], "argument --ruleset: invalid choice: 'dnd'"),
        (["roll", "5", "--again", "7"], "argument --again: invalid choice: '7'"),
        (["roll", "5", "--untrained", "magic"], "argument --untrained: invalid choice"),
        (["roll", "5", "--difficulty", "hard"], "argument --difficulty: 'hard' is not a whole"),
        (["roll", "5", "--difficulty"], "argument --difficulty: expected one argument"),
        (["roll", "5", "--resist", "-1"], "argument --resist: must be 0 or more, not -1"),
        (["roll", "5", "--extra", "-2"], "argument --extra: must be 0 or more, not -2"),
        (["roll", "5", "--count", "0"], f"argument --count: must be 1 to {MAX_COUNT}, not 0"),
        (["roll", "5", "--count", str(MAX_COUNT + 1)], "argument --count: must be 1 to"),
        (["roll", "5", "--count", "many"], "argument --count: 'many' is not a whole number"),
        (["roll", "5", "--seed", "x"], "argument --seed: 'x' is not a whole number"),
        (["roll", "5", "--faces", "3 8 11"], "argument --faces: a d10 face is 1 to 10, not 11"),
        (["roll", "5", "--faces", "3 eight"], "argument --faces: 'eight' is not a whole number"),
        (["roll", "5", "--faces", " "], "--faces: the script has only 0 faces"),
        (["roll", "5", "--faces", ""], "--faces: the script has only 0 faces"),
        (["roll", "5", "--faces", "1 2", "--seed", "1"], "--seed: not allowed with argument"),
        (["roll", "5", "--faces", "3 8"], "--faces: the script has only 2 faces"),
        (
            ["roll", "1", "--faces", "3 10", "--count", "2"],
            "--faces: roll 2 of 2: the script has only 2 faces",
        ),
        (
            ["roll", "2", "--faces", "3 4 9 9", "--spend-will"],
            "--faces: the script has only 4 faces",
        ),
        (["roll", "Strength"], "“Strength” has no number"),
        (["roll", "3 +* 2"], "error: a pool cannot contain the character U+002A (ASTERISK)"),
        (["odds", "[2"], "“[” is never closed"),
        (["odds", "5", "--seed", "1"], "unrecognized arguments: --seed 1"),
        (["odds", "5", "--count", "3"], "unrecognized arguments: --count 3"),
    ],
)
def test_a_malformed_command_line_is_one_line_and_status_2(
    capsys: pytest.CaptureFixture[str], argv: list[str], message: str
) -> None:
    status, out, err = run(capsys, *argv)
    assert (status, out) == (2, "")
    assert err.startswith("python -m bot.cli")
    assert err.count("\n") == 1
    assert err.endswith("\n")
    assert message in err
    assert "Traceback" not in err


def test_help_documents_the_exit_status(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "roll", "--help")
    assert (status, err) == (0, "")
    assert "exit status:" in out
    assert "--spend-will" in out


# --- The module entry point ------------------------------------------------------------------


def test_python_dash_m_bot_cli_rolls() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "bot.cli", "roll", "5", "--faces", "3 8 10 1 9 10 4", "--json"],
        capture_output=True, text=True, cwd=REPO, check=False, timeout=60,
    )
    assert (done.returncode, done.stderr) == (0, "")
    data = json.loads(done.stdout)
    assert (data["outcome"], data["successes"]) == ("success", 4)


def test_the_command_line_and_its_words_load_no_discord() -> None:
    code = "import sys, bot.cli, bot.render.refusals; print('discord' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True, text=True, cwd=REPO, check=True, timeout=60,
    )
    assert done.stdout.strip() == "False"
