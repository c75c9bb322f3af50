"""/will show, set, rest and gain as flows: the engine decides, the store keeps."""

from __future__ import annotations

from bot.flows import characters, rolls, will
from bot.flows.will import Member
from bot.render.messages import NOT_STORYTELLER, WILL_NOT_TRACKED
from bot.store import Tx
from engine.parser import parse_pool_names
from engine.records import ChannelOption, WillPool
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Table

BOB_MEMBER = will.Member(BOB, "Bob")
ALICE_MEMBER = will.Member(ALICE, "Alice")


async def _pool(table: Table, user_id: int = ALICE) -> WillPool | None:
    return await table.store.read(lambda tx: tx.will.get(GUILD, user_id))


async def _text_only(table: Table) -> None:
    def write(tx: Tx) -> None:
        tx.settings.set_channel_option(GUILD, CHANNEL, ChannelOption.TEXT_ONLY, True)

    await table.store.write(write)


async def test_set_tracks_a_pool_full_and_confirms_old_and_new(table: Table) -> None:
    said = await table.run(will.set_pool(table.deps, table.ctx(), 5))
    assert not said.answer.ephemeral, "said in the channel, as /will gain and /night are"
    assert said.answer.message.content == "Alice: not tracked → Will 5/5"
    assert await _pool(table) == WillPool(guild_id=GUILD, user_id=ALICE, current=5, maximum=5)


async def test_a_new_maximum_keeps_current_will_within_it(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 4))
    said = await table.run(will.set_pool(table.deps, table.ctx(), 2))
    assert said.answer.message.content == "Alice: Will 4/5 → Will 2/2"


async def test_set_refuses_current_above_maximum_and_stores_nothing(table: Table) -> None:
    said = await table.run(will.set_pool(table.deps, table.ctx(), 3, 4))
    assert said.answer.ephemeral
    assert "cannot be above the maximum" in said.answer.text
    assert await _pool(table) is None


async def test_set_refuses_numbers_out_of_bounds_from_a_forged_client(table: Table) -> None:
    too_big = await table.run(will.set_pool(table.deps, table.ctx(), will.will.MAX_WILL + 1))
    negative = await table.run(will.set_pool(table.deps, table.ctx(), 3, -1))
    assert "max must be 0 to 30" in too_big.answer.text
    assert "current must be 0 to 30" in negative.answer.text
    assert await _pool(table) is None


async def test_rest_regains_one_up_to_the_maximum(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 3, 2))
    first = await table.run(will.rest(table.deps, table.ctx()))
    second = await table.run(will.rest(table.deps, table.ctx()))
    assert first.answer.message.content == "Alice: Will 2/3 → Will 3/3"
    assert not first.answer.ephemeral
    assert second.answer.message.content == "Alice: Will 3/3, unchanged."


async def test_rest_without_a_pool_says_how_to_track_one(table: Table) -> None:
    said = await table.run(will.rest(table.deps, table.ctx()))
    assert said.answer.ephemeral
    assert said.answer.message.content == WILL_NOT_TRACKED


async def test_the_storytellers_gain_stops_at_the_maximum_and_is_said_in_the_channel(
    table: Table,
) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 1))
    said = await table.run(will.gain(table.deps, table.ctx(STORYTELLER), ALICE_MEMBER, 10))
    assert not said.answer.ephemeral
    assert said.answer.message.content == "Alice: Will 1/5 → Will 5/5"


async def test_a_storyteller_by_role_may_give_will(table: Table) -> None:
    role = 77

    def write(tx: Tx) -> None:
        tx.settings.set_storyteller(GUILD, role, None)

    await table.store.write(write)
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 1))
    said = await table.run(will.gain(table.deps, table.ctx(BOB, roles=[role]), ALICE_MEMBER, 1))
    assert "Will 2/5" in said.answer.text


async def test_only_the_storyteller_gives_will_in_one_read(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 1))
    before = table.store.trips
    said = await table.run(will.gain(table.deps, table.ctx(BOB), ALICE_MEMBER, 2))
    assert table.store.trips - before == 1
    assert said.answer.ephemeral
    assert said.answer.message.content == NOT_STORYTELLER
    pool = await _pool(table)
    assert pool is not None
    assert pool.current == 1


async def test_gain_for_an_untracked_member_says_so(table: Table) -> None:
    said = await table.run(will.gain(table.deps, table.ctx(STORYTELLER), BOB_MEMBER, 1))
    assert said.answer.ephemeral
    assert "Bob's Will is not tracked" in said.answer.text


async def test_gain_refuses_an_amount_out_of_bounds(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 1))
    said = await table.run(will.gain(table.deps, table.ctx(STORYTELLER), ALICE_MEMBER, 0))
    assert "amount must be 1 to 30" in said.answer.text


async def test_show_gives_a_members_pool_and_beats(table: Table) -> None:
    await table.run(will.set_pool(table.deps, table.ctx(), 5, 2))
    await table.store.write(lambda tx: tx.will.add_beat(GUILD, ALICE))
    said = await table.run(will.show(table.deps, table.ctx(BOB), ALICE_MEMBER))
    assert said.answer.ephemeral
    assert said.answer.message.content == "Alice: Will 2/5 · 1 Beat"
    mine = await table.run(will.show(table.deps, table.ctx(BOB)))
    assert "Bob: Will not tracked" in mine.answer.text


async def test_text_only_confirmations_use_words_not_symbols(table: Table) -> None:
    await _text_only(table)
    await table.store.write(lambda tx: tx.will.add_beat(GUILD, ALICE))
    changed = await table.run(will.set_pool(table.deps, table.ctx(), 5, 2))
    shown = await table.run(will.show(table.deps, table.ctx()))
    assert changed.answer.message.content == "Alice: was not tracked, now Will 2/5"
    assert shown.answer.message.content == "Alice: Will 2/5, 1 Beat"


async def test_a_change_names_the_character_whose_pool_it_is(table: Table) -> None:
    """RULES.md §6: Will is the character's. The Storyteller's gain on Bob playing Bors
    says it was Bors's pool, as a roll card does ("Bors (Bob)")."""
    await table.run(characters.create(table.deps, table.ctx(BOB), "Bors"))
    gained = await table.run(will.gain(table.deps, table.ctx(STORYTELLER),
                                       Member(BOB, "Bob"), 1))
    assert gained.answer.message.content.startswith("Bors (Bob): Will ")
    shown = await table.run(will.show(table.deps, table.ctx(BOB)))
    assert shown.answer.text.startswith("Bors (Bob): Will ")
    own = await table.run(will.set_pool(table.deps, table.ctx(), 3, 2))
    assert own.answer.text.startswith("Alice: ")


async def test_setting_another_maximum_than_the_sheet_s_says_what_works(table: Table) -> None:
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None
    maximum = record.will_pool().maximum
    said = await table.run(will.set_pool(table.deps, table.ctx(), maximum + 2, 1))
    assert said.answer.ephemeral
    assert f"/will set max:{maximum} current:<n>" in said.answer.text
    done = await table.run(will.set_pool(table.deps, table.ctx(), maximum, 1))
    assert not done.answer.ephemeral, "the advice, followed, works"


async def test_the_beat_that_makes_an_experience_says_so(table: Table) -> None:
    """RULES.md §6: every 5 Beats become 1 Experience on the character. The fifth Beat's
    answer says that it made an Experience, where it said "you have 0 Beats" as if the
    Beats were lost; the next Beat counts from 0 again."""
    await table.run(characters.create(table.deps, table.ctx(), "Mara"))
    answers = []
    for _ in range(6):
        table.faces.add(3, 4)  # Wits 1 + Composure 1: a failure
        said = await table.run(rolls.roll(
            table.deps, table.ctx(), rolls.ByName(parse_pool_names("Wits + Composure")),
            label=None, private=False))
        beat = said.answer.custom_ids[1]
        assert ":beat:" in beat
        taken = await table.run(rolls.take_beat_pressed(
            table.deps, table.ctx(), int(beat.rsplit(":", 1)[1])))
        answers.append(taken.of("followup")[0].message.content)
    assert answers[3] == "Beat taken: you have 4 Beats."
    assert answers[4] == ("Beat taken: with it, 5 Beats became 1 Experience on the "
                          "character's sheet (its Beats start again from 0).")
    assert answers[5] == "Beat taken: you have 1 Beat."
    record = await table.store.read(lambda tx: tx.characters.active(GUILD, ALICE, CHANNEL))
    assert record is not None
    assert (record.sheet.experience, record.sheet.beats) == (1, 1)
