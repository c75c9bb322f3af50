"""Every engine refusal has its words, and the words say what the engine's codes mean."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from bot.render.lang import speaking, voice
from bot.render.messages import unreadable_pool
from bot.render.refusals import refusal_text
from engine.faces import ScriptedFaces
from engine.models import RollRequest, RollResult, Ruleset, Term
from engine.parser import MAX_TEXT, PoolSyntaxError, parse_pool
from engine.records import Language
from engine.refusals import Refusal, RefusalCode
from engine.roll import RuleError, roll, spend_will
from engine.table import extended, multi


@pytest.mark.parametrize("code", list(RefusalCode))
def test_every_refusal_code_has_a_sentence(code: RefusalCode) -> None:
    text = refusal_text(Refusal(code=code))
    assert text
    assert text != str(code), "a code without its own sentence falls back to the code"
    assert "{" not in text and "}" not in text


def request(ruleset: Ruleset, pool: int, **options: object) -> RollRequest:
    return RollRequest.model_validate(
        {"ruleset": ruleset, "terms": (Term(value=pool),), **options}
    )


def refusal_of(asked: RollRequest) -> Refusal:
    refusal = roll(asked, ScriptedFaces([])).refusal
    assert refusal is not None
    return refusal


@pytest.mark.parametrize(
    ("asked", "sentence"),
    [
        (
            request(Ruleset.V20, 5, difficulty=11),
            "difficulty 11 is out of range: it must be 2 to 10",
        ),
        (
            request(Ruleset.V20, 3, rote=True, again="9"),
            "again, rote do not apply to the v20 ruleset",
        ),
        (
            request(Ruleset.COFD, 101),
            "a pool of 101 dice is too large: at most 100 dice can be rolled",
        ),
        (
            request(Ruleset.COFD, -3, will=True),
            "Willpower cannot help: the pool is -3, and -3 + 3 is still below 1 die; "
            "roll without Willpower for a chance die",
        ),
        (
            request(Ruleset.FISTFUL, 0, will=True),
            "the pool is 0: with no dice the character cannot take this action now "
            "(Will cannot rescue it)",
        ),
        (
            request(Ruleset.V20, 0, will=True),
            "the pool is 0: with no dice the action cannot be rolled, "
            "and Willpower does not change that",
        ),
        (
            request(Ruleset.V20, 4, auto=True, difficulty=6),
            "an automatic success needs a pool of at least the difficulty: "
            "the pool is 4 and the difficulty 6",
        ),
    ],
)
def test_refused_rolls_read_as_before(asked: RollRequest, sentence: str) -> None:
    assert refusal_text(refusal_of(asked)) == sentence


def test_a_refusal_that_follows_from_another_words_its_cause_inside() -> None:
    declared = multi.requests([request(Ruleset.V20, 6, difficulty=8)] * 2)
    assert isinstance(declared, multi.MultiRefusal)
    assert refusal_text(declared.refusal) == (
        "action 2 of 2: this action cannot be taken: its difficulty would be 10 "
        "(8 raised by 2), and an action raised to 10 or more cannot be attempted; "
        "the whole declaration is refused and nothing was rolled"
    )
    state = extended.start(request(Ruleset.V20, 3), target=5)
    with pytest.raises(RuleError) as error:
        extended.apply_roll(state, roll(request(Ruleset.V20, 0), ScriptedFaces([])))
    assert refusal_text(error.value.refusal) == (
        "the roll did not happen: the pool is 0: with no dice the action cannot be rolled"
    )


def test_list_parameters_and_will_refusals_read_as_before() -> None:
    pending = extended.start(request(Ruleset.COFD, 3), target=10, max_rolls=3)
    with pytest.raises(RuleError) as error:
        extended.choose(pending, extended.Choice.LOSE_PROGRESS)
    assert refusal_text(error.value.refusal) == (
        "lose_progress is not a choice now; the choices are: abandon"
    )
    declared = roll(request(Ruleset.COFD, 1, will=True), ScriptedFaces([8, 2, 2, 2]))
    with pytest.raises(RuleError) as will:
        spend_will(declared, ScriptedFaces([]))
    assert refusal_text(will.value.refusal) == (
        "Willpower was declared with this roll already: once per roll"
    )
    assert str(will.value) == "will_declared"


def test_a_listed_item_holding_a_comma_is_spaced_once() -> None:
    """A list parameter joins its items with commas (engine.refusals.names): an item that
    holds a comma and its space (a specialty "Boxing, Western") reads spaced once, where
    it read "Boxing,  Western"."""
    refusal = Refusal.of(RefusalCode.SPECIALTY_MISSING, skill="Brawl", specialty="Kicks",
                         specialties="Boxe,Boxing, Western")
    assert refusal_text(refusal) == (
        "Brawl has no specialty “Kicks” (it has: Boxe, Boxing, Western)")


@pytest.mark.parametrize(
    ("language", "specialties", "conditions", "closest"),
    [
        ("en", "Brawl has no specialty “Kicks” (it has: none)",
         "the sheet has no Condition “Shaken” (it has: none)",
         "the sheet has no trait “Zz” (closest: none)"),
        ("pt-BR", "Brawl não tem a especialização “Kicks” (tem: nenhuma)",
         "a ficha não tem a Condição “Shaken” (tem: nenhuma)",
         "a ficha não tem a característica “Zz” (mais próximas: nenhuma)"),
        ("es-ES", "Brawl no tiene la especialidad «Kicks» (tiene: ninguna)",
         "la hoja no tiene el Estado «Shaken» (tiene: ninguno)",
         "la hoja no tiene el rasgo «Zz» (más parecidos: ninguno)"),
    ],
)
def test_an_empty_list_says_none_agreeing_with_what_it_lists(
    language: str, specialties: str, conditions: str, closest: str
) -> None:
    """An empty list reads "none" in the word that agrees with what it lists (a gettext
    context per list kind): a specialty is feminine in pt-BR and es-ES (nenhuma, ninguna),
    a Condition is a feminine Condição but a masculine Estado, a trait a feminine
    característica but a masculine rasgo; es-ES said "ninguno" of specialties."""
    with speaking(voice(Language(language))):
        assert refusal_text(Refusal.of(RefusalCode.SPECIALTY_MISSING, skill="Brawl",
                                       specialty="Kicks", specialties="")) == specialties
        assert refusal_text(Refusal.of(RefusalCode.CONDITION_MISSING, condition="Shaken",
                                       conditions="")) == conditions
        assert refusal_text(Refusal.of(RefusalCode.TRAIT_UNKNOWN, name="Zz",
                                       closest="")) == closest


def test_a_field_problem_of_the_file_as_a_whole_says_so_in_the_members_language() -> None:
    """An import problem with no place in the file (engine.characters' IMPORT_FIELD with no
    ``field``) names the file as a whole, in the member's language, where the engine said
    "(file)" in English."""
    refusal = Refusal.of(RefusalCode.IMPORT_FIELD, problem="model_type",
                         detail="Input should be an object")
    assert refusal_text(refusal) == "the file as a whole must be an object with named fields"
    other = Refusal.of(RefusalCode.IMPORT_FIELD, problem="value_error", detail="Odd")
    assert refusal_text(other) == "the file as a whole: Odd"
    with speaking(voice(Language.PT_BR)):
        assert refusal_text(other) == "o arquivo como um todo: Odd"
        assert refusal_text(refusal).startswith("o arquivo como um todo ")
    with speaking(voice(Language.ES_ES)):
        assert refusal_text(other) == "el archivo en su conjunto: Odd"


def test_the_traits_a_refusal_offers_are_named_in_the_tables_language_when_given() -> None:
    """The closest names and a prefix's matches are the sheet's own (English) names: with
    the table's trait language they read as its cards name them, the sentence staying in
    the voice in force; a member's own trait (Sanity) stays as typed, markup escaped;
    without a language, as the sheet names them (the command line)."""
    unknown = Refusal.of(RefusalCode.TRAIT_UNKNOWN, name="Brigas", closest="Brawl,Sanity,Wits")
    assert refusal_text(unknown, traits="pt-BR") == (
        "the sheet has no trait “Brigas” (closest: Briga, Sanity, Raciocínio)")
    assert refusal_text(unknown) == (
        "the sheet has no trait “Brigas” (closest: Brawl, Sanity, Wits)")
    ambiguous = Refusal.of(RefusalCode.TRAIT_AMBIGUOUS, name="Arm", matches="Firearms,Arm_s")
    with speaking(voice(Language.ES_ES)):
        assert refusal_text(ambiguous, traits="es-ES") == (
            "«Arm» podría ser Armas de Fuego, Arm\\_s: escribe más del nombre")


def test_a_result_stored_with_an_english_message_shows_that_message() -> None:
    stored = {
        "request": request(Ruleset.FISTFUL, 0).model_dump(mode="json"),
        "outcome": "refused",
        "message": "the pool is 0: with no dice the character cannot take this action now",
    }
    result = RollResult.model_validate(stored)
    assert result.refusal is not None and result.refusal.code is RefusalCode.LEGACY
    assert refusal_text(result.refusal) == stored["message"]


def test_a_missing_parameter_shows_as_a_question_mark_and_none_as_nothing() -> None:
    assert refusal_text(Refusal.of(RefusalCode.POOL_TOO_LARGE, dice=101)) == (
        "a pool of 101 dice is too large: at most ? dice can be rolled"
    )
    assert refusal_text(None) == ""


# --- pool text: the parser's refusals read as they did when the parser worded them ------


def pool_refusal(text: str) -> str:
    with pytest.raises(PoolSyntaxError) as caught:
        parse_pool(text)
    return refusal_text(caught.value.refusal)


@pytest.mark.parametrize(
    ("text", "sentence"),
    [
        ("1" + " " * 200, "The pool is 201 characters long: at most 200 are allowed."),
        ("4 (3)", "A pool cannot contain “(”: use numbers, trait names, +, - and [ ]."),
        (
            "3 \x07",
            "A pool cannot contain the character U+0007: use numbers, trait names, +, - and [ ].",
        ),
        (
            "Strength\u200b 3",
            "A pool cannot contain the character U+200B (ZERO WIDTH SPACE): "
            "use numbers, trait names, +, - and [ ].",
        ),
        (  # a Hangul filler is a letter to Unicode, and shows nothing: named
            "Strength 3 + \u3164 1",
            "A pool cannot contain the character U+3164 (HANGUL FILLER): "
            "use numbers, trait names, +, - and [ ].",
        ),
        (
            "3 @everyone",
            "A pool cannot contain the character U+0040 (COMMERCIAL AT): "
            "use numbers, trait names, +, - and [ ].",
        ),
        (
            "",
            "The pool is empty: write a number of dice, such as “7” or “Strength 3 + Brawl 2”.",
        ),
        (
            "Strength 3]",
            "“]” closes a bracket that was never opened: remove it or add a “[” before it.",
        ),
        ("]", "“]” closes a bracket that was never opened: remove it or add a “[” before it."),
        ("[2 + 3", "“[” is never closed: add a “]” after the terms it groups."),
        ("3 + [ ]", "“[]” is empty: put terms inside the brackets or remove them."),
        ("[[[[1]]]]", "“[” is nested too deep: brackets can go at most 3 levels deep."),
        ("4 + -2", "“+ -” has two signs in a row: keep only one."),
        ("4 +", "“+” needs a number or a trait and its number after it."),
        ("2 3", "Two numbers in a row: put + or - between “2” and “3”."),
        ("2 Wits 3", "Missing + or - between “2” and “Wits”."),
        ("Strength + 2", "“Strength” has no number: give it one here, as in “Strength 3”."),
        (
            "2 + " + "A" * 41 + " 1",
            "“" + "A" * 41 + "” is too long for a trait name: at most 40 characters.",
        ),
        ("Strength 3 + 101", "“101” is too large: a number can be at most 100."),
        (
            "+".join(["1"] * 21),
            "The pool has more than 20 terms: add some of the numbers together.",
        ),
        (
            "Strength 99 + 1 + 1 + 1",
            "The pool is over 100 dice: its terms add up to 102 before penalties, "
            "and at most 100 dice can be rolled.",
        ),
    ],
)
def test_pool_text_refusals_read_as_before(text: str, sentence: str) -> None:
    assert pool_refusal(text) == sentence


@pytest.mark.parametrize(
    ("language", "text", "said"),
    [
        (Language.EN, "7 dice", "I could not read that pool: write just the number of dice"),
        (Language.EN, "", "I could not read that pool: the pool is empty: write"),
        (Language.EN, "2 3", "I could not read that pool: two numbers in a row"),
        (Language.EN, "Strength", "I could not read that pool: “Strength” has no number"),
        (Language.PT_BR, "7 dice", "Não consegui ler essa parada: escreva só o número de dados"),
        (Language.PT_BR, "", "Não consegui ler essa parada: a parada está vazia"),
        (Language.ES_ES, "7 dice", "No he podido leer esa reserva: escribe solo el número"),
        (Language.ES_ES, "2 3", "No he podido leer esa reserva: dos números seguidos"),
    ],
)
def test_a_pool_refusal_after_its_colon_goes_on_in_lower_case(
    language: Language, text: str, said: str
) -> None:
    """The pool parser's sentences are whole ones ("Write just the number of dice: …"),
    as the command line prints them; placed after "I could not read that pool:" the
    sentence goes on in lower case, in every language, where it read "pool: Write just".
    One that opens with a quoted bit keeps it as typed ("“Strength” has no number")."""
    with speaking(voice(language)):
        assert unreadable_pool(pool_refusal(text)).startswith(said)


#: Characters Discord reads as markdown or mentions.
MARKUP = set("*_`~|\\<>@")


@pytest.mark.parametrize("char", sorted(MARKUP))
def test_a_markup_character_in_a_pool_is_named_not_echoed(char: str) -> None:
    sentence = pool_refusal(f"3 {char}everyone")
    assert f"U+{ord(char):04X}" in sentence
    assert char not in sentence


#: Text that looks like a pool, so the generated cases reach past the tokenizer.
pool_like_text = st.lists(
    st.sampled_from(
        [*"0123456789+-[] aZé'’@,*_`~|\\<>", "\u2212", "\u200b", "\u0301", "Wits", "Self-Control"]
    ),
    max_size=60,
).map("".join)


@given(st.one_of(st.text(max_size=MAX_TEXT + 20), pool_like_text))
def test_any_pool_refusal_reads_as_printable_text_without_markup(text: str) -> None:
    try:
        parse_pool(text)
    except PoolSyntaxError as error:
        sentence = refusal_text(error.refusal)
        assert sentence.isprintable()
        assert not MARKUP & set(sentence)


@pytest.mark.parametrize(
    ("language", "one", "several"),
    [
        ("en", "rote does not apply to the v20 ruleset",
         "again, rote do not apply to the v20 ruleset"),
        ("pt-BR", "rote não se aplica às regras v20",
         "again, rote não se aplicam às regras v20"),
        ("es-ES", "rote no se aplica a las reglas v20",
         "again, rote no se aplican a las reglas v20"),
    ],
)
def test_options_foreign_to_the_ruleset_take_a_verb_that_agrees(
    language: str, one: str, several: str
) -> None:
    """One option "does not apply"; several "do not", in every language."""
    with speaking(voice(Language(language))):
        assert refusal_text(refusal_of(request(Ruleset.V20, 3, rote=True))) == one
        assert refusal_text(refusal_of(request(Ruleset.V20, 3, rote=True, again="9"))) == several
