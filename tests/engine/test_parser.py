"""Pool expressions: what players type after ``pool:`` and what they are told when it is wrong."""

from __future__ import annotations

from collections.abc import Iterable

import pytest
from hypothesis import given
from hypothesis import strategies as st

from engine.constants import MAX_POOL
from engine.models import Term
from engine.parser import (
    MAX_DEPTH,
    MAX_LABEL,
    MAX_TERMS,
    MAX_TEXT,
    PoolSyntaxError,
    format_pool,
    parse_pool,
    parse_pool_names,
)
from engine.refusals import Refusal, RefusalCode

C = RefusalCode


def refusal(text: str) -> PoolSyntaxError:
    """The error ``parse_pool`` raises for ``text``."""
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool(text)
    return caught.value


def refused(text: str, code: RefusalCode, position: int, **params: int | str) -> None:
    """``parse_pool`` refuses ``text`` with exactly this refusal, pointing at ``position``."""
    error = refusal(text)
    assert error.refusal == Refusal.of(code, position=position, **params)
    assert error.position == position


def positive_dice(terms: Iterable[Term]) -> int:
    return sum(term.value for term in terms if term.value > 0)


# --- what parses -------------------------------------------------------------


def test_a_bare_number_is_a_pool() -> None:
    assert parse_pool("7") == (Term(value=7),)


def test_numbers_add_up_term_by_term() -> None:
    assert parse_pool("4+3") == (Term(value=4), Term(value=3))


def test_words_label_the_number_that_follows() -> None:
    assert parse_pool("Manipulation 4 + Subterfuge 3 + 1 - 2") == (
        Term(label="Manipulation", value=4),
        Term(label="Subterfuge", value=3),
        Term(value=1),
        Term(value=-2),
    )


def test_dexterity_athletics_minus_a_penalty() -> None:
    assert parse_pool("Dexterity 3 + Athletics 2 - 1") == (
        Term(label="Dexterity", value=3),
        Term(label="Athletics", value=2),
        Term(value=-1),
    )


def test_a_minus_sign_makes_a_labelled_term_negative() -> None:
    assert parse_pool("Strength 3 - Armor 2") == (
        Term(label="Strength", value=3),
        Term(label="Armor", value=-2),
    )


def test_a_label_can_have_several_words() -> None:
    assert parse_pool("Animal Ken 2 + Wits 3") == (
        Term(label="Animal Ken", value=2),
        Term(label="Wits", value=3),
    )


def test_words_of_a_label_are_joined_by_one_space() -> None:
    assert parse_pool("Animal \t  Ken 2") == (Term(label="Animal Ken", value=2),)


@pytest.mark.parametrize(
    "label",
    [
        "Kindred's Lore",
        "Kindred’s Lore",
        "Self-Control",
        "Ştiinţă",
        "Éloquence",
        "E\u0301loquence",  # decomposed: E + combining acute accent
        "Сила",
        "力量",
        "Players'",
    ],
)
def test_labels_take_apostrophes_hyphens_and_any_alphabet(label: str) -> None:
    assert parse_pool(f"{label} 2 + 1") == (Term(label=label, value=2), Term(value=1))


def test_labels_are_returned_as_typed() -> None:
    assert parse_pool("sTRENGTH 3") == (Term(label="sTRENGTH", value=3),)


def test_a_hyphen_after_a_number_is_a_minus() -> None:
    assert parse_pool("Strength 3-Brawl 2") == (
        Term(label="Strength", value=3),
        Term(label="Brawl", value=-2),
    )


@pytest.mark.parametrize(
    "text",
    [
        "Strength3+Brawl2",
        "  Strength 3 +  Brawl   2  ",
        "Strength\u00a03\u00a0+\u00a0Brawl\u00a02",  # no-break spaces, as pasted
        "Strength 3\n+ Brawl 2",
    ],
)
def test_whitespace_is_optional_anywhere(text: str) -> None:
    assert parse_pool(text) == (Term(label="Strength", value=3), Term(label="Brawl", value=2))


@pytest.mark.parametrize(("text", "value"), [("+7", 7), ("-2", -2), (" - 2", -2)])
def test_the_pool_may_start_with_a_sign(text: str, value: int) -> None:
    assert parse_pool(text) == (Term(value=value),)


def test_a_leading_minus_applies_to_the_labelled_term() -> None:
    assert parse_pool("- Armor 2") == (Term(label="Armor", value=-2),)


@pytest.mark.parametrize("minus", ["\u2212", "\u2013"])
def test_unicode_minus_and_en_dash_are_minus_signs(minus: str) -> None:
    assert parse_pool(f"Strength 3 {minus} 1{minus}Armor 2") == (
        Term(label="Strength", value=3),
        Term(value=-1),
        Term(label="Armor", value=-2),
    )


def test_brackets_around_the_whole_pool_change_nothing() -> None:
    assert parse_pool("[Strength 3 + Brawl 2]") == (
        Term(label="Strength", value=3),
        Term(label="Brawl", value=2),
    )


def test_a_minus_before_a_bracket_negates_every_term_inside() -> None:
    assert parse_pool("Strength 3 - [Armor 2 + 1] + 2") == (
        Term(label="Strength", value=3),
        Term(label="Armor", value=-2),
        Term(value=-1),
        Term(value=2),
    )


def test_negations_through_nested_brackets_cancel_out() -> None:
    assert parse_pool("5 - [2 - [Armor 1]]") == (
        Term(value=5),
        Term(value=-2),
        Term(label="Armor", value=1),
    )


def test_a_group_may_start_with_its_own_sign() -> None:
    assert parse_pool("4 + [-1 + 2]") == (Term(value=4), Term(value=-1), Term(value=2))


def test_zero_is_a_valid_number() -> None:
    assert parse_pool("Occult 0") == (Term(label="Occult", value=0),)


def test_leading_zeros_are_read_as_decimal() -> None:
    assert parse_pool("007") == (Term(value=7),)


# --- what is refused, and what it names (the bot words it) -------------------


@pytest.mark.parametrize("text", ["", "   ", "\n"])
def test_an_empty_pool_is_refused(text: str) -> None:
    refused(text, C.POOL_EMPTY, 0)


def test_a_term_with_no_number_is_refused_by_name() -> None:
    refused("Strength + 2", C.POOL_LABEL_WITHOUT_NUMBER, 0, label="Strength")


def test_a_multi_word_trait_with_no_number_is_named_whole() -> None:
    refused("Wits 3 + Animal Ken", C.POOL_LABEL_WITHOUT_NUMBER, 9, label="Animal Ken")


def test_a_word_glued_to_a_minus_is_still_a_term_without_a_number() -> None:
    refused("Strength-2", C.POOL_LABEL_WITHOUT_NUMBER, 0, label="Strength")


def test_two_numbers_in_a_row_are_refused() -> None:
    refused("Strength 3 2", C.POOL_TWO_NUMBERS, 11, previous="3", next="2")


def test_a_word_after_a_number_needs_an_operator() -> None:
    refused(
        "Manipulation 4 Subterfuge 3",
        C.POOL_MISSING_OPERATOR,
        15,
        previous="4",
        next="Subterfuge",
    )


def test_a_bracket_after_a_term_needs_an_operator() -> None:
    refused("[1][2]", C.POOL_MISSING_OPERATOR, 3, previous="]", next="[")


def test_an_unclosed_bracket_is_refused_where_it_opens() -> None:
    refused("3 + [Strength 3 + Brawl 2", C.POOL_UNCLOSED_BRACKET, 4)


def test_a_bracket_opened_at_the_end_is_never_closed() -> None:
    refused("3 + [", C.POOL_UNCLOSED_BRACKET, 4)


@pytest.mark.parametrize(("text", "position"), [("Strength 3]", 10), ("]", 0), ("[1]]", 3)])
def test_a_closing_bracket_without_an_opening_one_is_refused(text: str, position: int) -> None:
    refused(text, C.POOL_UNOPENED_BRACKET, position)


@pytest.mark.parametrize("text", ["3 + []", "3 + [ ]"])
def test_empty_brackets_are_refused(text: str) -> None:
    refused(text, C.POOL_EMPTY_BRACKETS, 4)


@pytest.mark.parametrize(
    ("text", "position", "sign"),
    [("4 +", 2, "+"), ("4 - ]", 2, "-"), ("+", 0, "+"), ("[-]", 1, "-"), ("4 \u2212", 2, "\u2212")],
)
def test_a_sign_needs_a_term_after_it(text: str, position: int, sign: str) -> None:
    refused(text, C.POOL_SIGN_WITHOUT_TERM, position, sign=sign)


def test_two_signs_in_a_row_are_refused() -> None:
    refused("4 + -2", C.POOL_TWO_SIGNS, 4, first="+", second="-")


@pytest.mark.parametrize(("text", "position"), [("Strength 3, Brawl 2", 10), ("4 (3)", 2)])
def test_a_stray_character_is_named_as_typed(text: str, position: int) -> None:
    refused(text, C.POOL_STRAY_CHARACTER, position, char=text[position])


def test_an_invisible_character_is_passed_on_for_the_bot_to_name() -> None:
    refused("Strength\u200b 3", C.POOL_STRAY_CHARACTER, 8, char="\u200b")


@pytest.mark.parametrize(("text", "position"), [
    ("Wits + \u3164", 7), ("Wits\u3164 + 1", 4), ("\u2800 3", 0), ("Self-\u3164", 5),
    ("Wits 2 + \uffa0Brawl", 9), ("Bra\u115fwl 2", 3), ("\u1160", 0),
])
def test_a_blank_that_unicode_counts_as_a_letter_is_a_stray_character(
    text: str, position: int
) -> None:
    """A Hangul filler or the blank braille pattern (engine.text.BLANKS) is no letter of a
    pool's word, by names or by numbers: it is refused as a stray character for the bot
    to name, where ``Wits + `` and a filler named a trait no one can see."""
    with pytest.raises(PoolSyntaxError) as raised:
        parse_pool_names(text)
    assert raised.value.refusal == Refusal.of(
        C.POOL_STRAY_CHARACTER, position=position, char=text[position])
    if any(c.isdigit() for c in text):
        refused(text, C.POOL_STRAY_CHARACTER, position, char=text[position])


@pytest.mark.parametrize("char", ["@", "<", "`", "*", "_", "~", "|", "\\", ">"])
def test_a_markup_character_is_a_stray_character(char: str) -> None:
    refused(f"3 {char}everyone", C.POOL_STRAY_CHARACTER, 2, char=char)


def test_the_earliest_problem_is_reported_first() -> None:
    assert refusal("Strength + 2 @").position == 0
    assert refusal("4 @ Strength").position == 2


def test_a_syntax_error_is_a_value_error_whose_text_is_its_code() -> None:
    error = refusal("")
    assert isinstance(error, ValueError)
    assert str(error) == "pool_empty"


# --- limits, at the boundary -------------------------------------------------


def test_text_of_exactly_the_maximum_length_passes() -> None:
    assert parse_pool("1" + " " * (MAX_TEXT - 1)) == (Term(value=1),)


def test_text_one_character_too_long_is_refused() -> None:
    refused("1" + " " * MAX_TEXT, C.POOL_TEXT_TOO_LONG, MAX_TEXT, length=MAX_TEXT + 1, max=MAX_TEXT)


def test_the_maximum_number_of_terms_passes() -> None:
    assert len(parse_pool("+".join(["1"] * MAX_TERMS))) == MAX_TERMS


def test_one_term_too_many_is_refused_at_that_term() -> None:
    refused("+".join(["1"] * (MAX_TERMS + 1)), C.POOL_TOO_MANY_TERMS, 2 * MAX_TERMS, max=MAX_TERMS)


def test_terms_inside_brackets_count_toward_the_limit() -> None:
    text = "[" + "+".join(["0"] * MAX_TERMS) + "] - 1"
    refused(text, C.POOL_TOO_MANY_TERMS, len(text) - 1, max=MAX_TERMS)


def test_a_number_of_exactly_max_pool_passes() -> None:
    assert parse_pool(f"{MAX_POOL}") == (Term(value=MAX_POOL),)


def test_a_number_over_max_pool_is_refused() -> None:
    refused(
        f"Strength 3 + {MAX_POOL + 1}",
        C.POOL_NUMBER_TOO_LARGE,
        13,
        number=str(MAX_POOL + 1),
        max=MAX_POOL,
    )


def test_a_number_is_named_as_typed() -> None:
    refused("0999", C.POOL_NUMBER_TOO_LARGE, 0, number="0999", max=MAX_POOL)


def test_a_huge_number_is_refused_not_converted() -> None:
    refused("9" * MAX_TEXT, C.POOL_NUMBER_TOO_LARGE, 0, number="9" * MAX_TEXT, max=MAX_POOL)


def test_a_penalty_number_is_limited_too() -> None:
    assert refusal(f"5 - {MAX_POOL + 1}").position == 4


def test_a_label_of_exactly_the_maximum_length_passes() -> None:
    label = "A" * MAX_LABEL
    assert parse_pool(f"{label} 1") == (Term(label=label, value=1),)


def test_a_label_counts_its_joining_spaces() -> None:
    label = "Animal " + "K" * (MAX_LABEL - 7)
    assert parse_pool(f"{label} 1") == (Term(label=label, value=1),)


def test_a_label_one_character_too_long_is_refused() -> None:
    label = "A" * (MAX_LABEL + 1)
    refused(f"2 + {label} 1", C.POOL_LABEL_TOO_LONG, 4, label=label, max=MAX_LABEL)


def test_positive_terms_adding_up_to_max_pool_pass() -> None:
    assert positive_dice(parse_pool(f"Strength {MAX_POOL - 1} + 1 - 3")) == MAX_POOL


def test_positive_terms_over_max_pool_are_refused_at_the_term_that_crosses() -> None:
    refused(
        f"Strength {MAX_POOL - 1} + 1 + 1 + 1",
        C.POOL_OVER_MAX_DICE,
        18,
        total=MAX_POOL + 2,
        max=MAX_POOL,
    )


def test_penalties_do_not_make_room_for_more_dice() -> None:
    refused("60 + 50 - 20", C.POOL_OVER_MAX_DICE, 5, total=110, max=MAX_POOL)


def test_a_negated_group_adds_no_dice() -> None:
    assert positive_dice(parse_pool(f"{MAX_POOL} - [{MAX_POOL} + 50]")) == MAX_POOL


def test_brackets_nested_to_the_maximum_depth_pass() -> None:
    assert parse_pool("[" * MAX_DEPTH + "1" + "]" * MAX_DEPTH) == (Term(value=1),)


def test_brackets_nested_one_level_too_deep_are_refused() -> None:
    refused(
        "[" * (MAX_DEPTH + 1) + "1" + "]" * (MAX_DEPTH + 1),
        C.POOL_TOO_DEEP,
        MAX_DEPTH,
        max=MAX_DEPTH,
    )


# --- format_pool ---------------------------------------------------------------


def test_format_pool_writes_the_canonical_expression() -> None:
    terms = (Term(label="Strength", value=3), Term(label="Brawl", value=2), Term(value=-1))
    assert format_pool(terms) == "Strength 3 + Brawl 2 - 1"


def test_format_pool_writes_a_negative_first_term_with_a_leading_minus() -> None:
    assert format_pool((Term(label="Armor", value=-2), Term(value=4))) == "-Armor 2 + 4"


def test_format_pool_flattens_what_brackets_grouped() -> None:
    assert format_pool(parse_pool("3 - [Armor 2 + 1]")) == "3 - Armor 2 - 1"


# --- properties ----------------------------------------------------------------

#: Text that looks like a pool, so the generated cases reach past the tokenizer.
pool_like_text = st.lists(
    st.sampled_from(
        [
            *"0123456789+-[] aZé'’@,",
            *("\u2212", "\u2013", "\u00a0", "\u0301", "\u200b"),
            *("Wits", "Animal Ken", "Self-Control", "100", "99"),
        ]
    ),
    max_size=60,
).map("".join)


def outcome(text: str) -> tuple[Term, ...] | PoolSyntaxError:
    """What ``parse_pool`` makes of ``text``: terms, or the refusal."""
    try:
        return parse_pool(text)
    except PoolSyntaxError as error:
        return error


@given(st.one_of(st.text(max_size=MAX_TEXT + 20), pool_like_text))
def test_any_text_parses_within_limits_or_is_refused_with_a_pool_code(text: str) -> None:
    result = outcome(text)  # any other exception fails the test
    if isinstance(result, PoolSyntaxError):
        assert result.refusal.code.value.startswith("pool_")
        assert result.refusal.params["position"] == result.position
        assert 0 <= result.position <= len(text)
    else:
        assert 1 <= len(result) <= MAX_TERMS
        assert all(abs(term.value) <= MAX_POOL for term in result)
        assert all(term.label is None or 1 <= len(term.label) <= MAX_LABEL for term in result)
        assert positive_dice(result) <= MAX_POOL


letters = st.characters(categories=["Lu", "Ll", "Lt", "Lm", "Lo"])
word_parts = st.one_of(
    letters,
    st.characters(categories=["Mn", "Mc", "Me"]),
    st.sampled_from(["'", "’"]),
    letters.map(lambda letter: f"-{letter}"),
)
words = st.builds(
    lambda first, rest: first + "".join(rest), letters, st.lists(word_parts, max_size=6)
)
labels = (
    st.lists(words, min_size=1, max_size=3)
    .map(" ".join)
    .filter(lambda label: len(label) <= MAX_LABEL)
)
terms_st = st.builds(
    Term,
    label=st.none() | labels,
    value=st.integers(-5, 5) | st.integers(-MAX_POOL, MAX_POOL),
)


@st.composite
def valid_pools(draw: st.DrawFn) -> tuple[Term, ...]:
    """Terms within every limit: a drawn term that would break one is left out."""
    pool: list[Term] = []
    for term in draw(st.lists(terms_st, min_size=1, max_size=MAX_TERMS)):
        grown = [*pool, term]
        if positive_dice(grown) <= MAX_POOL and len(format_pool(grown)) <= MAX_TEXT:
            pool = grown
    return tuple(pool)


@given(valid_pools())
def test_format_pool_round_trips_through_parse_pool(terms: tuple[Term, ...]) -> None:
    assert parse_pool(format_pool(terms)) == terms


@given(pool_like_text)
def test_a_parsed_pool_reads_back_the_same_once_formatted(text: str) -> None:
    terms = outcome(text)
    if isinstance(terms, tuple) and len(format_pool(terms)) <= MAX_TEXT:
        assert parse_pool(format_pool(terms)) == terms


# --- shapes from other dice bots ---------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "dice", "sides"),
    [("3d10", 3, 10), ("d10", 1, 10), (" 2d10+3 ", 2, 10), ("4D6", 4, 6), ("10d10 - 1", 10, 10)],
)
def test_ndm_notation_is_refused_with_the_number_of_dice_to_write(
    text: str, dice: int, sides: int
) -> None:
    refused(text, C.POOL_DICE_NOTATION, 0, written=text.strip(), dice=dice, sides=sides)


@pytest.mark.parametrize(
    ("text", "dice"), [("7 dice", 7), ("1 die", 1), ("5 D10s", 5), ("3 dados", 3)]
)
def test_a_number_of_dice_in_words_is_refused_with_the_number_to_write(
    text: str, dice: int
) -> None:
    refused(text, C.POOL_DICE_WORD, 0, written=text.strip(), dice=dice)


@pytest.mark.parametrize(
    ("text", "terms"),
    [("d 3", (Term(label="d", value=3),)), ("Dice 3", (Term(label="Dice", value=3),)),
     ("Strength 3 + 2d", None)],
)
def test_trait_names_that_look_like_dice_words_still_read_as_traits(
    text: str, terms: tuple[Term, ...] | None
) -> None:
    if terms is None:  # not a whole-pool notation: the ordinary syntax refusal
        assert refusal(text).refusal.code is C.POOL_MISSING_OPERATOR
    else:
        assert parse_pool(text) == terms


@pytest.mark.parametrize("text", ["3d10", "d10", "7 dice"])
def test_pools_with_trait_names_refuse_other_notations_too(text: str) -> None:
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool_names(text)
    assert caught.value.refusal.code in {C.POOL_DICE_NOTATION, C.POOL_DICE_WORD}
