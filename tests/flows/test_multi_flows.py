"""/multi as a flow: v20 only, the whole declaration or nothing."""

from __future__ import annotations

from bot.flows import multi, rolls
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption
from tests.flows.conftest import ALICE, CHANNEL, GUILD, Table


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


async def test_a_declaration_reaching_difficulty_ten_is_refused_whole(table: Table) -> None:
    await _v20(table)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "6; 6; 6", 8))
    assert said.answer.ephemeral
    assert "action 2" in said.answer.text
    assert await _history_count(table) == 0


async def test_an_unreadable_action_is_named(table: Table) -> None:
    await _v20(table)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; Strength"))
    assert said.answer.text.startswith("Action 2: “Strength” has no number")


async def test_bounds_are_checked_again(table: Table) -> None:
    await _v20(table)
    difficulty = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4", 11))
    label = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4", None, "x" * 101))
    assert difficulty.answer.text == "difficulty must be 2 to 10."
    assert label.answer.text == "label must be 1 to 100 characters long."


async def test_text_only_multi_has_no_emoji_or_symbols(table: Table) -> None:
    await _v20(table, text_only=True)
    table.faces.add(8, 8, 1, 8, 8, 8, 10)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 5", label="dodge"))
    text = said.answer.text
    assert "🎲" not in text
    assert "→" not in text
    assert "·" not in text
