"""/multi as a flow: v20 only, the whole declaration or nothing."""

from __future__ import annotations

import pytest

from bot.cogs.multi import Multi
from bot.flows import characters, multi, rolls
from bot.render.characters import NO_CHARACTER_FOR_NAMES
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption
from tests.flows.conftest import ALICE, CHANNEL, GUILD, Table
from tests.flows.typed import INVISIBLE, typed


async def _v20(table: Table, *, text_only: bool = False) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20)
        if text_only:
            tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)

    await table.store.write(write)


async def _history_count(table: Table) -> int:
    records = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    return len(records)


async def test_two_actions_roll_with_their_penalties_and_are_stored_closed(table: Table) -> None:
    await _v20(table)
    table.faces.add(8, 8, 2, 8, 8, 8, 9)  # 3-1 dice, then 5-2 dice
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 5", label="dodge"))
    assert not said.answer.ephemeral
    assert "Action 1 of 2" in said.answer.text
    assert "Action 2 of 2" in said.answer.text
    records = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    assert len(records) == 2
    assert all(record.closed for record in records)


async def test_an_earlier_open_roll_loses_its_buttons(table: Table) -> None:
    await _v20(table)
    table.faces.add(3, 4)
    terms = (Term(value=2),)
    await table.run(rolls.roll(
        table.deps, table.ctx(), lambda config: rolls.build_request(config.ruleset, terms),
        label=None, private=False,
    ))
    table.faces.add(8, 8, 8, 8, 8)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4"))
    assert [edit.target for edit in said.of("edit")] == [901]


async def test_multi_is_v20_only(table: Table) -> None:
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4"))
    assert said.answer.ephemeral
    assert "v20" in said.answer.text
    assert await _history_count(table) == 0


async def test_multi_at_a_table_of_another_ruleset_names_it_and_says_to_roll_each_action(
    table: Table,
) -> None:
    """The refusal says the channel's ruleset and what to do instead (one /roll per
    action), where it said "these actions are cofd", which named no channel and no way on."""
    table.speak("en-US")
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4"))
    assert said.answer.ephemeral
    assert said.answer.text == (
        "Multiple actions are a v20 rule and this channel uses cofd: roll each action with"
        " /roll."
    )


async def test_a_declaration_reaching_difficulty_ten_is_refused_whole(table: Table) -> None:
    await _v20(table)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "6; 6; 6", 8))
    assert said.answer.ephemeral
    assert "action 2" in said.answer.text
    assert await _history_count(table) == 0


async def test_an_unreadable_action_is_named(table: Table) -> None:
    await _v20(table)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 2 3"))
    assert said.answer.text.startswith("Action 2: Two numbers in a row")


async def test_bounds_are_checked_again(table: Table) -> None:
    await _v20(table)
    difficulty = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4", 11))
    label = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4", None, "x" * 101))
    assert difficulty.answer.text == "difficulty must be 2 to 10."
    assert label.answer.text == "label must be 1 to 100 characters long."


@pytest.mark.parametrize("text", INVISIBLE)
async def test_a_label_of_nothing_visible_is_no_label(table: Table, text: str) -> None:
    """A label of nothing visible (a zero-width space, an invisible separator, a
    combining mark alone) is no label: the card says "Multiple actions" alone (not
    "Multiple actions: " and nothing) and the rolls in /history keep none."""
    await _v20(table)
    table.faces.add(8, 8, 2, 8, 8, 8, 9)
    label = await typed(Multi.multi, "label", text)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 5", label=label))
    assert "Multiple actions:" not in said.answer.text
    assert "Multiple actions" in said.answer.text
    records = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    assert [record.label for record in records] == [None, None]


async def test_text_only_multi_has_no_emoji_or_symbols(table: Table) -> None:
    await _v20(table, text_only=True)
    table.faces.add(8, 8, 1, 8, 8, 8, 10)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 5", label="dodge"))
    text = said.answer.text
    assert "🎲" not in text
    assert "→" not in text
    assert "·" not in text


async def test_actions_may_name_traits_of_the_active_character(table: Table) -> None:
    """An action's pool names traits of the member's active sheet, as /roll's does; the
    rolls are that character's (RULES.md §6)."""
    await _v20(table)
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    await table.run(characters.set_traits(table.deps, table.ctx(),
                                          traits="Dexterity 3, Melee 2, Strength 2, Brawl 4"))
    table.faces.add(*[7] * 4, *[7] * 4)  # 5-1 dice, then 6-2 dice
    said = await table.run(multi.multi_actions(table.deps, table.ctx(),
                                               "Dexterity + Melee; Strength + Brawl"))
    assert not said.answer.ephemeral, said.answer.text
    assert "Mara (Alice)" in said.answer.text
    assert table.faces.left == 0, "4 dice then 4 dice: the sheet's numbers, penalised"
    records = await table.store.read(lambda tx: tx.rolls.history(
        GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=False))
    assert [record.character_name for record in records] == ["Mara", "Mara"]
    assert [record.result.request.base for record in reversed(records)] == [5, 6]


async def test_a_trait_name_without_a_character_says_how_to_make_one(table: Table) -> None:
    await _v20(table)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "Dexterity + 2; 3"))
    assert said.answer.ephemeral
    assert said.answer.text == NO_CHARACTER_FOR_NAMES
    assert await _history_count(table) == 0


async def test_a_labelled_declaration_does_not_feed_successive_attempts(table: Table) -> None:
    """Decision (bot/flows/multi.py): the label names the declaration; it takes no
    successive-attempt penalty and counts no attempt, so a later /roll at that label is a
    first attempt."""
    await _v20(table)
    await table.store.write(lambda tx: tx.attempts.save_failures(
        GUILD, CHANNEL, ALICE, "door", old=0, new=1))
    table.faces.add(*[2] * 4, *[2] * 3)  # 5-1 dice, then 5-2 dice: both fail
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "5; 5", label="door"))
    assert "trying again" not in said.answer.text
    standing = await table.store.read(lambda tx: tx.attempts.standing(
        GUILD, CHANNEL, ALICE, label="door", turn=False, will=False))
    assert standing.failures == 1, "unchanged by the declaration"
