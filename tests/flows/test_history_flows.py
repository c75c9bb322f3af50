"""/history and its void as flows."""

from __future__ import annotations

from bot.flows import characters, history, rolls
from bot.render.messages import NOT_STORYTELLER
from bot.store import Tx
from engine.models import Ruleset, Term
from engine.records import ChannelOption
from tests.flows.conftest import ALICE, BOB, CHANNEL, COPIES, GUILD, STORYTELLER, Table
from tests.flows.test_extended_flows import begin, card_of, click, dice, use_ruleset


async def _roll(table: Table, user_id: int, label: str, *, private: bool = False) -> None:
    terms = (Term(value=1),)
    table.faces.add(8)
    await table.run(rolls.roll(
        table.deps, table.ctx(user_id),
        lambda config: rolls.build_request(config.ruleset, terms),
        label=label, private=private,
    ))


async def test_history_lists_rolls_newest_first_in_one_read(table: Table) -> None:
    await _roll(table, ALICE, "first")
    await _roll(table, BOB, "second")
    before = table.store.trips
    said = await table.run(history.history(table.deps, table.ctx(ALICE)))
    assert table.store.trips - before == 1
    lines = said.answer.text.splitlines()
    assert said.answer.ephemeral
    assert "#2" in lines[0]
    assert "second" in lines[0]
    assert "#1" in lines[1]


async def test_an_extended_actions_last_roll_lists_the_progress_it_stands_at(
    table: Table,
) -> None:
    """COMMANDS.md: /history lists what changed state, extended progress among it. Only
    the action's running total is kept, so its last roll says it; earlier rolls of the
    action say that they were its rolls. Still one read."""
    said = await begin(table)
    table.faces.add(8, 2, 2)
    rolled = await click(table, said.answer, "Roll")
    table.faces.add(8, 8, 2)
    await click(table, card_of(rolled), "Roll")
    before = table.store.trips
    shown = await table.run(history.history(table.deps, table.ctx(BOB)))
    assert table.store.trips - before == 1
    last, first = shown.answer.text.splitlines()
    assert last.endswith("extended action, progress 3/5")
    assert first.endswith("extended action")


async def test_an_effort_measured_in_rolls_lists_its_successes_so_far(table: Table) -> None:
    """A `fistful` effort without a target has no "of how many": its successes so far."""
    await use_ruleset(table, Ruleset.FISTFUL)
    said = await begin(table, dice(3), target=None, max_rolls=3)
    table.faces.add(8, 9, 2)
    await click(table, said.answer, "Roll")
    shown = await table.run(history.history(table.deps, table.ctx(BOB)))
    assert shown.answer.text.endswith("extended action, 2 successes so far")


async def test_history_names_the_character_each_roll_was_made_as(table: Table) -> None:
    """A roll made as a character is listed as its card says who rolled, the character and
    its member (``Guard (Storyteller)``): a Storyteller's rolls for two NPCs are told apart,
    and a member's roll without a sheet keeps their name alone."""
    await table.run(characters.create(table.deps, table.ctx(STORYTELLER), "Guard", npc=True))
    await _roll(table, STORYTELLER, "watch")
    await table.run(characters.create(table.deps, table.ctx(STORYTELLER), "Thief", npc=True))
    await _roll(table, STORYTELLER, "steal")
    await _roll(table, ALICE, "look")
    said = await table.run(history.history(table.deps, table.ctx(ALICE)))
    look, steal, watch = said.answer.text.splitlines()
    assert " · Thief (Storyteller) · “steal”" in steal
    assert " · Guard (Storyteller) · “watch”" in watch
    assert " · Alice · “look”" in look


async def test_a_member_filter_keeps_their_rolls(table: Table) -> None:
    await _roll(table, ALICE, "first")
    await _roll(table, BOB, "second")
    said = await table.run(history.history(table.deps, table.ctx(ALICE), member_id=BOB))
    assert "second" in said.answer.text
    assert "first" not in said.answer.text


async def test_a_member_with_no_rolls_here_is_told_apart_from_an_empty_channel(
    table: Table,
) -> None:
    """/history member: of someone who has not rolled in a channel where others have says
    that member has no rolls here, where it read "No rolls in this channel yet." above
    a log the member could see was not empty."""
    await _roll(table, ALICE, "first")
    said = await table.run(history.history(table.deps, table.ctx(ALICE), member_id=BOB))
    assert said.answer.ephemeral
    assert said.answer.text == "This member has no rolls in this channel yet."
    empty = await table.run(history.history(table.deps, table.ctx(ALICE, channel_id=CHANNEL + 1)))
    assert empty.answer.text == "No rolls in this channel yet."


async def test_a_secret_roll_is_listed_to_its_roller_and_the_storyteller_only(
    table: Table,
) -> None:
    await _roll(table, ALICE, "hidden", private=True)
    mine = await table.run(history.history(table.deps, table.ctx(ALICE)))
    storyteller = await table.run(history.history(table.deps, table.ctx(STORYTELLER)))
    other = await table.run(history.history(table.deps, table.ctx(BOB)))
    assert "hidden" in mine.answer.text
    assert "hidden" in storyteller.answer.text
    assert "hidden" not in other.answer.text


async def test_a_secret_roll_is_listed_to_a_storyteller_by_role_and_no_other_role(
    table: Table,
) -> None:
    """The log's one statement tests the server's Storyteller role itself: the role whole
    (not a role whose digits contain it), and nobody else sees another's secret roll."""
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, 77, None))
    await _roll(table, ALICE, "hidden", private=True)
    await _roll(table, ALICE, "open")
    by_role = await table.run(history.history(table.deps, table.ctx(BOB, roles=[5, 77])))
    assert "hidden" in by_role.answer.text
    for roles in ([], [7], [177], [770], [7, 7_700]):
        other = await table.run(history.history(table.deps, table.ctx(BOB, roles=roles)))
        assert "hidden" not in other.answer.text, roles
        assert "open" in other.answer.text
    hers = await table.run(history.history(table.deps, table.ctx(BOB, roles=[77]),
                                           member_id=ALICE))
    assert "hidden" in hers.answer.text  # with a member filter too
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, None))
    cleared = await table.run(history.history(table.deps, table.ctx(BOB, roles=[77])))
    assert "hidden" not in cleared.answer.text
    assert "open" in cleared.answer.text


async def test_a_count_out_of_range_gets_a_clear_refusal(table: Table) -> None:
    zero = await table.run(history.history(table.deps, table.ctx(), count=0))
    many = await table.run(history.history(table.deps, table.ctx(), count=101))
    assert zero.answer.ephemeral
    assert zero.answer.text == "count must be 1 to 100."
    assert many.answer.text == "count must be 1 to 100."


async def test_the_storyteller_voids_a_roll_and_its_message_loses_its_buttons(
    table: Table,
) -> None:
    await _roll(table, ALICE, "first")
    await _roll(table, BOB, "second")
    said = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=1))
    lines = said.answer.text.splitlines()
    assert lines[0] == "Roll #1 is now void."
    assert "VOID" in lines[2]
    edits = said.of("edit")
    assert [edit.target for edit in edits] == [901]
    assert edits[0].buttons == []
    again = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=1))
    assert again.answer.text.startswith("Roll #1 was already void.")
    assert again.of("edit") == []


async def test_voiding_a_secret_roll_marks_the_storyteller_s_copy_void(table: Table) -> None:
    """COMMANDS.md: a voided roll's message says so. A secret roll's message the table keeps
    is the Storyteller's copy (the roller's own is ephemeral): it is marked void too, and
    still carries no buttons."""
    await table.store.write(lambda tx: tx.settings.set_storyteller(GUILD, None, COPIES))
    await _roll(table, ALICE, "sneak", private=True)
    copy = table.last.of("post")[0]  # type: ignore[union-attr]
    said = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=1))
    [edit] = said.of("edit")
    assert edit.target == 901, "the copy, the only message the secret roll has in a channel"
    assert edit.text.startswith("Void - sneak: Success")
    assert "Voided by the Storyteller" in edit.text
    assert "Secret roll" in edit.text and "Secret roll" in copy.text
    assert edit.buttons == []


async def test_only_the_storyteller_voids(table: Table) -> None:
    await _roll(table, ALICE, "first")
    said = await table.run(history.history(table.deps, table.ctx(ALICE), void=1))
    assert said.answer.text == NOT_STORYTELLER
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None
    assert not record.void


async def test_voiding_a_roll_that_is_not_here_says_so(table: Table) -> None:
    missing = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=5))
    forged = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=2**70))
    assert missing.answer.text == "There is no roll #5 in this channel."
    assert forged.answer.text == f"There is no roll #{2**70} in this channel."


async def test_text_only_history_has_no_symbols(table: Table) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)

    await table.store.write(write)
    await _roll(table, ALICE, "first")
    await _roll(table, BOB, "second")
    said = await table.run(history.history(table.deps, table.ctx(STORYTELLER), void=1))
    text = said.answer.text
    assert "·" not in text
    assert "~~" not in text
    assert "(VOID)" in text
    assert "; " in text


async def test_each_roll_in_the_history_links_to_its_message(table: Table) -> None:
    await _roll(table, ALICE, "first")
    said = await table.run(history.history(table.deps, table.ctx(ALICE)))
    record = await table.store.read(lambda tx: tx.rolls.get(1))
    assert record is not None and record.message_id is not None

    assert said.answer.text.startswith(
        f"[#1](https://discord.com/channels/{GUILD}/{CHANNEL}/{record.message_id}) · "
    )
