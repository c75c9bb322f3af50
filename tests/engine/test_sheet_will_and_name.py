"""A character's own Will pool and its name (RULES.md §6 "Will on the sheet", "Will"):
current Will set within 0 to the maximum, the pool Spend Will and /will act on, renaming."""

from __future__ import annotations

import pytest

from engine.characters import MAX_NAME, Character, new_sheet, renamed, set_traits, with_will
from engine.models import Ruleset
from engine.records import CharacterRecord, WillPool
from engine.refusals import Refusal, RefusalCode


def sheet(resolve: int = 3, composure: int = 2) -> Character:
    """A `cofd` sheet whose Will maximum is Resolve + Composure, Will as a new sheet has it."""
    answer = set_traits(new_sheet("Alice", Ruleset.COFD),
                        [("Resolve", resolve), ("Composure", composure)])
    assert not isinstance(answer, Refusal), answer
    return answer[0]


def test_the_will_maximum_of_the_test_sheet_is_resolve_plus_composure() -> None:
    assert sheet(3, 2).will_max == 5


# --- with_will ---------------------------------------------------------------------------------


@pytest.mark.parametrize("current", [0, 1, 3, 5])
def test_current_will_is_set_anywhere_from_0_to_the_maximum(current: int) -> None:
    before = sheet()
    after = with_will(before, current)
    assert after.will == current
    assert after.will_max == before.will_max == 5
    assert after.model_dump(exclude={"will"}) == before.model_dump(exclude={"will"})


@pytest.mark.parametrize("current", [-1, 6, 30])
def test_current_will_outside_0_to_the_maximum_is_a_programming_error(current: int) -> None:
    with pytest.raises(ValueError, match=rf"^current Will {current} outside 0-5$"):
        with_will(sheet(), current)


# --- the character's Will pool -----------------------------------------------------------------


def test_a_characters_will_pool_is_its_sheets_current_and_maximum_will() -> None:
    record = CharacterRecord(id=7, guild_id=5, owner_id=11, version=2,
                             sheet=with_will(sheet(), 3))
    assert record.will_pool() == WillPool(guild_id=5, user_id=11, current=3, maximum=5,
                                          character_id=7)


def test_a_characters_will_pool_follows_its_sheet() -> None:
    low = CharacterRecord(id=8, guild_id=6, owner_id=12, version=1,
                          sheet=with_will(sheet(4, 4), 0))
    pool = low.will_pool()
    assert (pool.guild_id, pool.user_id, pool.character_id) == (6, 12, 8)
    assert (pool.current, pool.maximum) == (0, 8)


# --- renamed -----------------------------------------------------------------------------------


def test_a_rename_keeps_the_name_with_single_spaces_and_everything_else() -> None:
    before = with_will(sheet(), 3)
    after = renamed(before, "  Bob   the  Bold ")
    assert isinstance(after, Character)
    assert after.name == "Bob the Bold"
    assert after.model_dump(exclude={"name"}) == before.model_dump(exclude={"name"})
    assert (after.will, after.will_max) == (3, 5)


def test_a_name_of_the_maximum_length_is_accepted() -> None:
    after = renamed(sheet(), "x" * MAX_NAME)
    assert isinstance(after, Character) and after.name == "x" * MAX_NAME


@pytest.mark.parametrize("name", ["", "   ", "x" * (MAX_NAME + 1)])
def test_a_rename_to_an_empty_or_too_long_name_is_refused(name: str) -> None:
    assert renamed(sheet(), name) == Refusal.of(RefusalCode.CHARACTER_NAME_LENGTH, max=MAX_NAME)


def test_a_rename_to_a_name_with_control_characters_is_refused() -> None:
    assert renamed(sheet(), "Bob\x00") == Refusal.of(RefusalCode.CHARACTER_NAME_CONTROL)
