"""The extended-action card, the line on each extended roll and the list, from engine states."""

from __future__ import annotations

import re
from typing import Any

import discord

from bot.render.extended import (
    CONDITION_INPUT,
    ListedAction,
    actions_list,
    card_buttons,
    choice_label,
    condition_form,
    decided,
    extended_card,
    progress_bar,
    roll_note,
    started,
)
from bot.render.lang import speaking, voice
from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.records import Language
from engine.roll import roll
from engine.table import extended
from engine.table.extended import Choice, ExtendedState, ExtendedStep, Interval, Status
from tests.bot.test_render import assert_within_discord_limits

RESEARCH = (Term(label="Intelligence", value=3), Term(label="Academics", value=2))
#: What text-only mode must never show: emoji, the bar's blocks, the middle dot.
SYMBOLS = re.compile(r"[⏳🏁🎲█░·]")


def request(
    ruleset: str = "cofd", terms: tuple[Term, ...] = RESEARCH, **options: Any
) -> RollRequest:
    return RollRequest(ruleset=Ruleset(ruleset), terms=terms, **options)


def rolled(req: RollRequest, faces: list[int]) -> RollResult:
    return roll(req, ScriptedFaces(faces))


def step(state: ExtendedState, faces: list[int], against: list[int] | None = None) -> ExtendedStep:
    actor = rolled(extended.roll_request(state), faces)
    resister = None if against is None else rolled(extended.against_request(state), against)
    return extended.apply_roll(state, actor, resister)


def card_text(embed: discord.Embed) -> str:
    parts = [embed.title or "", embed.description or "", embed.footer.text or ""]
    parts += [f"{field.name}: {field.value}" for field in embed.fields]
    return "\n".join(parts)


def research(target: int = 10, **options: Any) -> ExtendedState:
    return extended.start(request(), target=target, **options)


def test_progress_bar_fills_a_tenth_per_tenth_of_the_requirement() -> None:
    assert progress_bar(3, 10, text_only=False) == "`███░░░░░░░` 3/10"
    assert progress_bar(12, 10, text_only=False) == "`██████████` 12/10"
    assert progress_bar(0, 0, text_only=False) == "`██████████` 0/0"
    assert progress_bar(3, 10, text_only=True) == "3 of 10 successes"


def test_a_new_card_shows_progress_rolls_interval_conditions_and_pool() -> None:
    state = research(interval=Interval(amount=30, unit="minutes"))

    embed = extended_card(state, label="research the ritual", owner="Ada", action_id=7)
    text = card_text(embed)

    assert "research the ritual: extended action, in progress" in text
    assert "0/10" in text
    assert "Rolls: 0 of 5 used" in text
    assert "Interval: 30 minutes per roll" in text
    assert "Conditions: none" in text
    assert "Intelligence 3 + Academics 2 = 5 dice" in text
    assert "Next: roll." in text
    assert "Started by: Ada" in text
    assert "Action #7" in text
    assert_within_discord_limits(embed)


def test_the_interval_shrinks_by_a_quarter_per_exceptional_choice() -> None:
    state = research(target=20, interval=Interval(amount=30, unit="minutes"))
    exceptional = step(state, [8, 8, 8, 8, 9])
    once = extended.choose(exceptional.state, Choice.SHORTEN_INTERVAL)
    twice = extended.choose(step(once, [8, 8, 8, 8, 9]).state, Choice.SHORTEN_INTERVAL)

    assert "22.5 minutes per roll (shortened by a quarter once, from 30)" in card_text(
        extended_card(once, label="x", owner="Ada", action_id=1, decision=Choice.SHORTEN_INTERVAL)
    )
    assert "16.88 minutes per roll (shortened by a quarter 2 times" in card_text(
        extended_card(twice, label="x", owner="Ada", action_id=1)
    )


def test_an_interval_shortened_many_times_is_never_shown_as_zero() -> None:
    """RULES.md §1 shortens the interval by a quarter at each choice, with no floor: the
    engine compounds it, so it never reaches zero. Shorter than two decimals can show, it
    reads "less than 0.01", in the card's language, never "0 minutes"."""
    state = research(target=20, interval=Interval(amount=1, unit="minutes"))

    def interval(shortened: int) -> str:
        card = extended_card(state.model_copy(update={"shortened": shortened}), label="x",
                             owner="Ada", action_id=1)
        return next(field.value or "" for field in card.fields if field.name == "Interval")

    assert interval(16).startswith("0.01 minutes per roll")  # 0.01002
    assert interval(17).startswith("less than 0.01 minutes per roll")  # 0.0075
    assert interval(19) == (
        "less than 0.01 minutes per roll (shortened by a quarter 19 times, from 1)"
    )
    assert interval(400).startswith("less than 0.01 minutes per roll")
    with speaking(voice(Language.PT_BR)):
        card = extended_card(state.model_copy(update={"shortened": 19}), label="x",
                             owner="Ada", action_id=1)
    assert "menos de 0,01 minutes por rolagem" in card_text(card)


def test_after_an_exceptional_success_the_card_names_the_three_choices() -> None:
    exceptional = step(research(), [8, 8, 8, 8, 9])

    text = card_text(
        extended_card(exceptional.state, label="x", owner="Ada", action_id=1, last=exceptional)
    )

    assert "Exceptional success: +5 successes" in text
    assert "reduce the successes required by 2" in text
    assert choice_label(Choice.REDUCE_REQUIRED, exceptional.state) == "Reduce required by 2"
    assert choice_label(Choice.ROLL, exceptional.state) == "Roll"


def test_a_dramatic_failure_warns_of_the_carried_penalty() -> None:
    chance = extended.start(request(terms=(Term(value=-1),)), target=3, max_rolls=3)
    dramatic = step(chance, [1])
    condition = extended.choose(dramatic.state, Choice.TAKE_CONDITION, "Humiliated")

    text = card_text(
        extended_card(
            condition, label="x", owner="Ada", action_id=1,
            last=dramatic, decision=Choice.TAKE_CONDITION,
        )
    )

    assert "Dramatic failure: a setback, and the next roll at this task has -2 dice" in text
    assert "Condition taken: Humiliated. Progress kept." in text
    assert "Next: roll. It has -2 dice after the dramatic failure." in text
    assert "-2 dice" in started("x", carried=True)


def test_the_roll_limit_used_up_fails_the_action_and_the_card_has_no_next_step() -> None:
    state = extended.start(request(terms=(Term(value=3),)), target=5, max_rolls=1)
    failed = step(state, [2, 3, 4])

    text = card_text(extended_card(failed.state, label="x", owner="Ada", action_id=1, last=failed))

    assert failed.state.status is Status.FAILED
    assert "extended action, failed" in text
    assert "roll limit was used up" in text
    assert "Rolls: 1 of 1 used" in text


def test_an_exceptional_last_roll_that_cannot_complete_asks_no_choice() -> None:
    """The action failed on its last roll: nothing is left to choose, on the card or the
    roll's line."""
    state = extended.start(request(terms=(Term(value=5),)), target=10, max_rolls=1)
    last = step(state, [8, 8, 8, 8, 8])

    text = card_text(extended_card(last.state, label="x", owner="Ada", action_id=1, last=last))
    note = roll_note(last.state, last, label="x")

    assert last.state.status is Status.FAILED
    assert "Exceptional success: +5 successes, on the last roll." in text
    assert "Choose" not in text
    assert "Choose" not in note


def test_v20_resisted_tie_is_said_to_be_a_tie() -> None:
    """RULES.md §2: a tie, neither succeeds; the resisting side did not get there first."""
    state = extended.start(
        request("v20", (Term(value=3),)), target=2, against=request("v20", (Term(value=3),))
    )
    tie = step(state, [7, 8, 2], against=[7, 8, 3])

    text = card_text(extended_card(tie.state, label="x", owner="Ada", action_id=1, last=tie))

    assert tie.state.status is Status.FAILED
    assert "first" not in text
    assert "a tie, and neither succeeds" in text
    assert "**Failed**: both sides reached the successes required on the same roll" in text
    outpaced = step(state, [7, 2, 3], against=[7, 8, 3])
    assert "reached the successes required first" in card_text(
        extended_card(outpaced.state, label="x", owner="Ada", action_id=1, last=outpaced)
    )


def test_fistful_a_last_roll_botch_of_an_effort_in_rolls_offers_abandon_or_the_waiver() -> None:
    state = extended.start(request("fistful", (Term(value=3),)), target=None, max_rolls=1)
    botch = step(state, [1, 2, 3])

    text = card_text(extended_card(botch.state, label="x", owner="Ada", action_id=1, last=botch))
    note = roll_note(botch.state, botch, label="x")
    view = card_buttons(botch.state, 1, 2)

    assert "No roll is left to start over: abandon, or the Storyteller may waive" in text
    assert "choose on the card to abandon" in note
    assert view is not None
    assert [item.label for item in view.children if isinstance(item, discord.ui.Button)] == [
        "Abandon", "Waive the botch (Storyteller)",
    ]


def test_text_only_card_and_roll_line_use_words_not_symbols() -> None:
    state = research(interval=Interval(amount=1, unit="hour"))
    progress = step(state, [8, 8, 8, 2, 3])

    embed = extended_card(
        progress.state, label="research", owner="Ada", action_id=3, last=progress, text_only=True
    )
    note = roll_note(progress.state, progress, label="research", text_only=True)

    for text in (card_text(embed), note):
        assert not SYMBOLS.search(text), text
    assert "3 of 10 successes" in card_text(embed)
    assert "Extended action 3" in card_text(embed)
    assert "research**, roll 1 of 5" in note


def test_v20_resisted_card_shows_both_sides_and_the_roll_line_the_resisting_roll() -> None:
    state = extended.start(
        request("v20", (Term(value=4),)), target=5, against=request("v20", (Term(value=3),))
    )
    resisted = step(state, [6, 7, 2, 3], against=[6, 2, 3])

    text = card_text(extended_card(resisted.state, label="x", owner="Ada", action_id=1))
    note = roll_note(resisted.state, resisted, label="x", against=None)
    with_against = roll_note(
        resisted.state, resisted, label="x",
        against=rolled(extended.against_request(state), [6, 2, 3]),
    )

    assert "2/5" in text
    assert "Resisting side: `██░░░░░░░░` 1/5" in text
    assert "Resisting: 3 dice at difficulty 6" in text
    assert "Rolls: 1 used, no limit" in text
    assert "Resisting roll" not in note
    assert "Resisting roll: Success, 1 success counted (faces 6, 2, 3)" in with_against


def test_fistful_effort_measured_in_rolls_counts_successes_only() -> None:
    state = extended.start(request("fistful", (Term(value=3),)), target=None, max_rolls=2)
    progress = step(state, [8, 9, 2])

    text = card_text(extended_card(progress.state, label="x", owner="Ada", action_id=1))

    assert "2 successes so far (an effort measured in rolls)" in text
    assert "Rolls: 1 of 2 used" in text
    assert "Conditions" not in text  # a cofd rule


def test_the_card_stays_within_discord_limits_and_never_pings() -> None:
    label = "@everyone <@&1> **bold** " * 20
    long_traits = tuple(Term(label="Trait" * 40 + str(n), value=1) for n in range(20))
    state = extended.start(request(terms=long_traits), target=1000, max_rolls=1000)
    for n in range(60):
        setback = step(state, [2] * 20)
        state = extended.choose(setback.state, Choice.TAKE_CONDITION, f"<@{n}> " + "x" * 90)

    embed = extended_card(state, label=label, owner=label, action_id=1, last=setback)
    text = card_text(embed)

    assert_within_discord_limits(embed)
    assert "@everyone" not in text.replace("@\u200beveryone", "")
    assert not re.search(r"(?<!\\)<@", text), "an unescaped mention"
    assert "more" in next(field.value or "" for field in embed.fields if field.name == "Conditions")


def test_abandoned_card_says_so_once() -> None:
    abandoned = extended.choose(research(), Choice.ABANDON)

    text = card_text(
        extended_card(abandoned, label="x", owner="Ada", action_id=1, decision=Choice.ABANDON)
    )

    assert text.count("Abandoned") == 1
    assert decided("x", "Ada", Choice.ABANDON, abandoned) == "**Ada**, **x**: Abandoned."


def test_list_of_open_actions_and_of_none() -> None:
    state = step(research(), [1, 2, 3, 4, 5]).state
    listed = actions_list(
        [
            ListedAction("research", "Ada", state, "https://discord.com/channels/1/2/3"),
            ListedAction("pick the lock", "Bob", research(), None),
        ]
    )

    assert (
        "research · Ada · [0/10](https://discord.com/channels/1/2/3) · rolls 1 of 5 used, "
        "waiting for a decision"
    ) in listed
    assert "pick the lock · Bob · 0/10 · rolls 0 of 5 used" in listed
    assert "No extended action is open" in actions_list([])
    many = actions_list([ListedAction("x" * 100, "Ada", state, None)] * 100)
    assert len(many) <= 2000
    assert "more" in many.splitlines()[-1]


def test_the_card_buttons_are_the_engines_choices_with_key_only_versioned_ids() -> None:
    exceptional = step(research(), [8, 8, 8, 8, 9])

    view = card_buttons(exceptional.state, 7, 3)

    assert view is not None
    buttons = [item for item in view.children if isinstance(item, discord.ui.Button)]
    assert [b.label for b in buttons] == [
        "Reduce required by 2", "Shorten interval", "Exceptional result", "Abandon",
    ]
    assert [b.custom_id for b in buttons] == [
        "sb1:ext:reduce_required:7:3", "sb1:ext:shorten_interval:7:3",
        "sb1:ext:exceptional_result:7:3", "sb1:ext:abandon:7:3",
    ]
    ended = research().model_copy(update={"status": Status.ABANDONED})
    assert card_buttons(ended, 7, 4) is None


def test_the_condition_form_is_keyed_by_the_card() -> None:
    form = condition_form(7, 3)

    assert form.custom_id == "sb1:extcond:7:3"
    [label] = form.children
    assert isinstance(label, discord.ui.Label)
    assert isinstance(label.component, discord.ui.TextInput)
    assert label.component.custom_id == CONDITION_INPUT
