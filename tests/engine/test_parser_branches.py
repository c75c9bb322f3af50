"""Pool expressions off the main path (issue 16): hyphens at the end of the text, nameless
characters, where a labelled term's problems point, zero terms, and exactly what each
refusal names (its words are the bot's: tests/bot/test_render_refusals.py). Also the
scripted face source's own errors."""

from __future__ import annotations

import pytest

from engine.faces import FacesExhaustedError, ScriptedFaces, seeded_faces, system_faces
from engine.models import Term
from engine.parser import MAX_TERMS, PoolSyntaxError, format_pool, parse_pool
from engine.refusals import Refusal, RefusalCode

C = RefusalCode


def refusal(text: str) -> PoolSyntaxError:
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool(text)
    return caught.value


def refused_with(text: str, code: RefusalCode, **params: int | str) -> Refusal:
    """The refusal ``parse_pool`` raises for ``text`` is ``code`` with exactly ``params``."""
    error = refusal(text)
    assert error.refusal == Refusal(code=code, params={"position": error.position, **params})
    return error.refusal


def test_a_hyphen_ending_the_text_is_a_minus_not_part_of_the_word() -> None:
    error = refusal("Strength 3 + Wits-")
    assert error.refusal == Refusal.of(C.POOL_LABEL_WITHOUT_NUMBER, position=13, label="Wits")
    assert error.position == 13


def test_a_hyphen_before_the_last_letter_of_the_text_joins_the_word() -> None:
    error = refusal("3 + Self-C")
    assert error.refusal == Refusal.of(C.POOL_LABEL_WITHOUT_NUMBER, position=4, label="Self-C")
    assert error.position == 4
    assert parse_pool("Self-C 2") == (Term(label="Self-C", value=2),)
    assert parse_pool("a-b 2") == (Term(label="a-b", value=2),)


def test_a_character_with_no_unicode_name_is_passed_on_as_typed() -> None:
    error = refusal("3 \x07")
    assert error.refusal == Refusal.of(C.POOL_STRAY_CHARACTER, position=2, char="\x07")
    assert error.position == 2


def test_a_labelled_term_past_the_term_limit_is_refused_where_its_name_starts() -> None:
    prefix = "+".join(["1"] * MAX_TERMS) + "+"
    error = refusal(prefix + "Wits 1")
    assert error.refusal == Refusal.of(C.POOL_TOO_MANY_TERMS, position=len(prefix), max=MAX_TERMS)
    assert error.position == len(prefix)


def test_a_multi_word_label_keeps_every_word() -> None:
    assert parse_pool("Animal Ken 2 + Wits 1") == (
        Term(label="Animal Ken", value=2), Term(label="Wits", value=1),
    )


def test_the_bracket_refusals_exactly() -> None:
    refused_with("3 + [ ]", C.POOL_EMPTY_BRACKETS)
    refused_with("[2 + 3", C.POOL_UNCLOSED_BRACKET)


def test_the_missing_operator_refusals_exactly() -> None:
    refused_with("2 3", C.POOL_TWO_NUMBERS, previous="2", next="3")
    refused_with("2 Wits 3", C.POOL_MISSING_OPERATOR, previous="2", next="Wits")


def test_format_pool_writes_zero_terms_with_a_plus() -> None:
    terms = (Term(label="Occult", value=0), Term(label="Wits", value=0), Term(value=0))
    assert format_pool(terms) == "Occult 0 + Wits 0 + 0"
    assert parse_pool(format_pool(terms)) == terms


# --- the scripted face source ----------------------------------------------------------------


@pytest.mark.parametrize("face", [0, 11])
def test_a_scripted_face_outside_one_to_ten_is_refused(face: int) -> None:
    with pytest.raises(ValueError, match=rf"^a d10 face is 1 to 10, not {face}$"):
        ScriptedFaces([5, face])


def test_scripted_faces_that_run_out_say_how_many_there_were() -> None:
    source = ScriptedFaces([1, 10])
    assert source.draw(1) == [1]
    with pytest.raises(
        FacesExhaustedError, match=r"^the script has only 2 faces and the roll needs more$"
    ):
        source.draw(2)
    assert source.remaining == 1
    assert source.draw(1) == [10]
    assert source.remaining == 0


def test_the_other_bracket_and_empty_refusals_exactly() -> None:
    refused_with("]", C.POOL_UNOPENED_BRACKET)
    refused_with("Strength 3]", C.POOL_UNOPENED_BRACKET)
    refused_with("", C.POOL_EMPTY)


def test_an_uncapped_pool_keeps_numbers_and_totals_over_the_dice_cap() -> None:
    assert parse_pool("Strength 101 + 60 - 1", capped=False) == (
        Term(label="Strength", value=101), Term(value=60), Term(value=-1),
    )
    with pytest.raises(PoolSyntaxError):
        parse_pool("Strength 101")


def test_zero_terms_take_no_room_under_the_dice_cap() -> None:
    assert parse_pool("100 + Occult 0 + 0") == (
        Term(value=100), Term(label="Occult", value=0), Term(value=0),
    )
    error = refusal("60 + Occult 0 + 50 - 20")
    assert error.refusal == Refusal.of(C.POOL_OVER_MAX_DICE, position=16, total=110, max=100)
    assert error.position == 16


@pytest.mark.parametrize(("text", "position"), [("Wits 2 -", 7), ("3 + [2", 4)])
def test_a_problem_at_the_end_of_the_text_points_into_the_text(text: str, position: int) -> None:
    assert refusal(text).position == position


def test_seeded_faces_repeat_for_the_same_seed() -> None:
    first = seeded_faces(7).draw(20)
    assert seeded_faces(7).draw(20) == first
    assert seeded_faces(8).draw(20) != first
    assert all(1 <= face <= 10 for face in first)


def test_system_faces_draw_d10_faces() -> None:
    faces = system_faces().draw(50)
    assert len(faces) == 50
    assert all(1 <= face <= 10 for face in faces)
