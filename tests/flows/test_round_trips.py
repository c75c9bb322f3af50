"""Round trips to PostgreSQL per transaction, for the commands whose reads were merged:
each read is one statement, each write its reads' round trip and its COMMIT's (issue 12:
"one trip per read and per transaction"). Counted on a warm store (the statements
prepared, every worker idle), as a bot that has served for a while makes them; SQLite
makes one trip to its thread a transaction, counted as such."""

from __future__ import annotations

import itertools
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

from bot.edge import ids
from bot.flows import characters, clock, config, extended, multi, rolls, teamwork, will
from bot.flows.contest import Opponent, contest
from bot.flows.history import history
from bot.flows.stats import stats
from bot.store.characters import CharacterRepository
from bot.store.store import PostgresStore
from engine.models import Ruleset
from engine.parser import parse_pool_names
from engine.records import ChannelOption, WillPool
from tests.flows.conftest import ALICE, BOB, CHANNEL, GUILD, STORYTELLER, Said, Table
from tests.flows.test_config_flows import admin
from tests.flows.test_contest_flows import action_id, resist, terms
from tests.flows.test_extended_flows import begin, card_of, click
from tests.flows.test_roll_flows import ask
from tests.flows.test_saved_flows import add, roll_id, slash_roll
from tests.store.conftest import warm

Command = Callable[[Table], Awaitable[Any]]


async def _set_option(table: Table) -> Any:
    return await table.run(config.set_option(table.deps, table.ctx(STORYTELLER),
                                             "dice_order", "sorted"))


async def _set_ruleset(table: Table) -> Any:
    return await table.run(config.ruleset(table.deps, admin(table), "v20", scope="server"))


async def _storyteller(table: Table) -> Any:
    return await table.run(config.storyteller(table.deps, admin(table), 77))


async def _will(table: Table) -> Any:
    return await table.run(will.show(table.deps, table.ctx()))


async def _extended_list(table: Table) -> Any:
    return await table.run(extended.list_open(table.deps, table.ctx()))


async def _extended_labels(table: Table) -> Any:
    return await extended.open_labels(table.deps, table.ctx(ALICE), "door")


async def _stats(table: Table) -> Any:
    return await table.run(stats(table.deps, table.ctx(), since="2020-01-01"))


async def _scene_end(table: Table) -> Any:
    return await table.run(clock.scene_end(table.deps, table.ctx(STORYTELLER)))


async def _night(table: Table) -> Any:
    said = await table.run(clock.night(table.deps, table.ctx(STORYTELLER)))
    assert str(ALICE) in said.answer.text  # a pool regained Will
    return said


async def _low_pool(table: Table) -> None:
    await table.store.write(lambda tx: tx.will.save(None, WillPool(
        guild_id=GUILD, user_id=ALICE, current=0, maximum=5)))


async def _contest(table: Table) -> Any:
    table.faces.add(8, 8, 2, 8, 2, 2)  # 2 successes against 1
    said = await table.run(contest(table.deps, table.ctx(), terms(3), against=terms(3),
                                   opponent=None, label="arm wrestle", difficulty=None,
                                   opponent_difficulty=None))
    assert "Alice" in said.answer.text  # decided, not refused
    return said


async def _v20(table: Table) -> None:
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.V20))


async def _multi(table: Table) -> Any:
    table.faces.add(8, 8, 8, 8, 8)
    said = await table.run(multi.multi_actions(table.deps, table.ctx(), "3; 4"))
    assert "Action 2 of 2" in said.answer.text
    return said


_HEROES = itertools.count()


async def _character_create(table: Table) -> Any:
    said = await table.run(characters.create(table.deps, table.ctx(),
                                             f"Hero {next(_HEROES)}"))
    assert "Hero" in said.answer.text  # created, not refused
    return said


_CLIMBS = itertools.count()


async def _extended_start(table: Table) -> Any:
    said = await begin(table, label=f"climb {next(_CLIMBS)}")
    assert not said.answer.ephemeral  # started, not refused
    return said


_SAVED = itertools.count()


async def _saved_add(table: Table) -> Any:
    said = await add(table, f"punch {next(_SAVED)}", "5")
    assert said.answer.text.startswith("Saved")
    return said


async def _saved_kick(table: Table) -> None:
    await add(table, "kick", "5")


async def _saved_replace(table: Table) -> Any:
    said = await add(table, "kick", "6", replace=True)
    assert said.answer.text.startswith("Replaced")
    return said


async def _history(table: Table) -> Any:
    return await table.run(history(table.deps, table.ctx(BOB, roles=[77])))


async def _character_names(table: Table) -> Any:
    return await characters.character_suggestions(table.deps, table.ctx(BOB, roles=[77]), "")


async def _two_sheets(table: Table) -> None:
    for name in ("bea", "Ana"):
        await table.run(characters.create(table.deps, table.ctx(), name))


async def _character_list(table: Table) -> Any:
    said = await table.run(characters.list_(table.deps, table.ctx()))
    text = said.answer.text
    assert text.index("Ana") < text.index("bea")  # by name, whatever their case
    return said


async def _export(table: Table) -> Any:
    said = await table.run(stats(table.deps, table.ctx(BOB, roles=[77]), export=True))
    assert said.answer.message.file is not None  # the log, not refused
    return said


#: Each command: its round trips on PostgreSQL (SQLite: its trips, one a transaction).
BUDGETS: list[tuple[str, Command, int, int]] = [
    ("/config option", _set_option, 2, 1),  # the levels read; the write with COMMIT
    ("/config ruleset scope:server", _set_ruleset, 2, 1),
    ("/config storyteller", _storyteller, 2, 1),
    ("/will show", _will, 1, 1),
    ("/extended list", _extended_list, 1, 1),
    ("/extended roll autocomplete", _extended_labels, 1, 1),
    # the settings beside every counter the viewer may see, the statement telling which
    ("/stats since", _stats, 1, 1),
    ("/stats export", _export, 1, 1),  # the Storyteller role tested beside the log
    # the settings beside the log, which tests the Storyteller role itself
    ("/history", _history, 1, 1),
    ("/character autocomplete", _character_names, 1, 1),  # the role tested in the statement
    ("/character list", _character_list, 1, 1),  # the settings, the active sheet, the names
    # the settings with the open rolls; what it ends, in one statement; COMMIT (the rolls
    # it closes checked with it)
    ("/scene end", _scene_end, 3, 2),
    # the settings with every Will pool, in one statement; the pools regained, with COMMIT
    ("/night", _night, 2, 2),
    # the settings with what the roll reads ahead; the write with its COMMIT (the ids of
    # its action and its roll from the writer's stock); the card's message id
    ("/contest against", _contest, 3, 3),
    # the settings with the open rolls; the write with its COMMIT (its two rolls' ids from
    # the writer's stock)
    ("/multi", _multi, 2, 2),
    # the settings and the member's count of sheets; the sheet (its id reserved while
    # idle, the name checked) and the active one with COMMIT
    ("/character create", _character_create, 2, 1),
    # the member's roll of that name and their count; the roll (a new one's id reserved
    # while idle, a replacement's read) with COMMIT
    ("/saved add", _saved_add, 2, 1),
    ("/saved add replace:True", _saved_replace, 2, 1),
    # the settings with the last attempt and the open ones of the label; the write with
    # its COMMIT (the open ones checked, the action stored under an id from the writer's
    # stock); the card's message id
    ("/extended start", _extended_start, 3, 3),
]
#: What a command needs done first (not counted): a pool below its maximum for the night;
#: a contest before, whose two open rolls each contest then closes (so the statements the
#: counted one sends are prepared); a saved roll for each replacement to replace.
SETUP: dict[Command, Command] = {_multi: _v20, _contest: _contest, _night: _low_pool,
                                 _saved_replace: _saved_kick, _character_list: _two_sheets}


@pytest.mark.parametrize(("command", "round_trips", "trips"),
                         [(run, pg, lite) for _, run, pg, lite in BUDGETS],
                         ids=[name for name, *_ in BUDGETS])
async def test_a_command_makes_one_round_trip_a_read(
    table: Table, command: Command, round_trips: int, trips: int
) -> None:
    store = table.store
    await begin(table)  # an open extended action, for the lists to find
    if command in SETUP:
        await SETUP[command](table)
    await command(table)  # each statement prepared once per session on PostgreSQL
    if isinstance(store, PostgresStore):
        await warm(store)
        before = store.round_trips
        await command(table)
        assert store.round_trips - before == round_trips
    else:
        before = store.trips
        await command(table)
        assert store.trips - before == trips


async def _counted(table: Table, before: Command, command: Command) -> list[int]:
    """Round trips (SQLite: trips) of ``command``, twice, each after ``before`` (not
    counted): the first prepares each statement once per session; a warm store then."""
    counted = []
    store = table.store
    for _ in range(2):
        await before(table)
        if isinstance(store, PostgresStore):
            await warm(store)
        start = store.round_trips if isinstance(store, PostgresStore) else store.trips
        await command(table)
        end = store.round_trips if isinstance(store, PostgresStore) else store.trips
        counted.append(end - start)
    return counted


async def _failed_roll(table: Table, pressed: list[int]) -> None:
    """A failed roll of Alice's (no label), its id kept in ``pressed``."""
    table.faces.add(3, 4, 2)
    pressed.append(roll_id(await table.run(rolls.roll(
        table.deps, table.ctx(), ask(3), label=None, private=False))))


async def test_taking_a_beat_reads_once_and_writes_with_its_commit(table: Table) -> None:
    """Take a Beat reads the roll with the Beats (or the sheet) it adds to in one
    statement; the Beat is written with the roll's change, at COMMIT."""
    pressed: list[int] = []

    async def beat(table: Table) -> None:
        said = await table.run(rolls.take_beat_pressed(table.deps, table.ctx(), pressed[-1]))
        assert "Beat" in said.of("followup")[0].text

    counted = await _counted(table, lambda table: _failed_roll(table, pressed), beat)
    assert counted[1] == (2 if isinstance(table.store, PostgresStore) else 1)


async def test_a_void_reads_the_roll_with_the_settings_and_writes_with_the_log(
    table: Table,
) -> None:
    """/history void reads the roll beside the settings; its write reads the log, and the
    void and its counters go with COMMIT."""
    pressed: list[int] = []

    async def void(table: Table) -> None:
        said = await table.run(history(table.deps, table.ctx(STORYTELLER), void=pressed[-1]))
        assert said.answer.text.startswith(f"Roll #{pressed[-1]} is now void.")

    counted = await _counted(table, lambda table: _failed_roll(table, pressed), void)
    assert counted[1] == (3 if isinstance(table.store, PostgresStore) else 2)


async def test_a_resist_reads_once_and_writes_with_its_commit(table: Table) -> None:
    """The resist form reads the settings, the standing, the contest and the open rolls
    in one statement; its write has them checked, and the roll stored, with COMMIT."""
    keys: list[int] = []

    async def contested(table: Table) -> None:
        table.faces.add(8, 9, 2)
        keys.append(action_id(await table.run(contest(
            table.deps, table.ctx(), terms(3), against=None, opponent=Opponent(BOB, "Bob"),
            label="grapple", difficulty=None, opponent_difficulty=None))))

    async def resisted(table: Table) -> None:
        table.faces.add(8, 2)
        assert "Alice wins" in (await resist(table, BOB, keys[-1], "2")).answer.text

    counted = await _counted(table, contested, resisted)
    assert counted[1] == 2  # on PostgreSQL round trips, on SQLite trips: one each


@pytest.mark.parametrize("ends", [clock.scene_end, clock.turn_next],
                         ids=["/scene end", "/turn next"])
async def test_the_storyteller_s_clock_closes_the_rolls_it_read_with_the_settings(
    table: Table, ends: Callable[..., Awaitable[Any]],
) -> None:
    """/scene end and /turn next read the channel's open rolls beside the settings; the
    write closes them with COMMIT, the server checking they are still those."""

    async def ended(table: Table) -> None:
        said = await table.run(ends(table.deps, table.ctx(STORYTELLER)))
        assert "1 open roll closed" in said.answer.text
        assert [edit.buttons for edit in said.of("edit")] == [[]]

    counted = await _counted(table, lambda table: _failed_roll(table, []), ended)
    # the settings with the rolls; /scene end's reads, in one statement; COMMIT
    round_trips = 3 if ends is clock.scene_end else 2
    assert counted[1] == (round_trips if isinstance(table.store, PostgresStore) else 2)


async def test_a_sheet_stored_with_a_reserved_id_still_refuses_a_name_taken(
    table: Table,
) -> None:
    """On PostgreSQL the new sheet's name is checked at COMMIT (its id reserved while
    idle): a name taken makes the check miss, and the write runs again, reading, to
    refuse it as SQLite does."""
    await table.run(characters.create(table.deps, table.ctx(), "Twin"))
    store = table.store
    if isinstance(store, PostgresStore):
        await warm(store)
        writer = next(worker for worker in store._engine._workers if worker.name == "pg-write")
        assert writer.ids.get("characters")  # the reserved path is the one taken
    again = await table.run(characters.create(table.deps, table.ctx(), "twin"))
    assert again.answer.ephemeral
    sheets = await store.read(lambda tx: tx.queries.one(
        CharacterRepository.count_query(GUILD, ALICE)))
    assert sheets == 1


async def test_roll_again_reads_the_roll_with_the_settings_and_writes_with_its_commit(
    table: Table,
) -> None:
    """Roll again reads the roll pressed beside the settings and the sheet, with what its
    roll reads ahead (the standing, the open rolls), in one statement; its write has them
    and its claim checked, and the roll stored, with COMMIT, as /roll's."""
    pressed: list[int] = []

    async def rolled(table: Table) -> None:
        table.faces.add(8, 8, 8)
        pressed.append(roll_id(await slash_roll(table, "3")))

    async def again(table: Table) -> None:
        table.faces.add(8, 8, 8)
        said = await table.run(rolls.roll_again_pressed(table.deps, table.ctx(), pressed[-1]))
        assert not said.answer.ephemeral  # rolled, not refused

    counted = await _counted(table, rolled, again)
    # the roll with the settings and what it reads ahead; the write (its COMMIT); the
    # message id: on PostgreSQL round trips, on SQLite trips
    assert counted[1] == 3


_TASKS = itertools.count()


async def _failed_once(table: Table) -> tuple[str, Said]:
    """A new extended action whose first roll failed: its label and its card."""
    label = f"task {next(_TASKS)}"
    said = await begin(table, label=label)
    table.faces.add(2, 3, 4)
    return label, card_of(await click(table, said.answer, "Roll"))


async def test_a_decision_on_the_card_reads_the_action_with_its_last_roll(
    table: Table,
) -> None:
    """A card's decision reads the settings, the action and its newest roll (the last
    roll it settles) in one statement; its write is its COMMIT."""
    cards = []

    async def failed(table: Table) -> None:
        cards.append((await _failed_once(table))[1])

    async def lose(table: Table) -> None:
        decided = await click(table, cards[-1], "Lose progress")
        assert decided.answer.kind == "update"
        assert [s.buttons for s in decided.of("edit")] == [[]]  # the last roll settled

    counted = await _counted(table, failed, lose)
    assert counted[1] == 2  # on PostgreSQL round trips, on SQLite trips: one each


async def test_a_decision_by_command_reads_the_actions_with_their_last_rolls(
    table: Table,
) -> None:
    """/extended abandon reads the settings beside the open actions of its label, each
    with its newest roll, in one statement; its write is its COMMIT."""
    labels = []

    async def failed(table: Table) -> None:
        labels.append((await _failed_once(table))[0])

    async def abandon(table: Table) -> None:
        said = await table.run(extended.abandon(table.deps, table.ctx(), label=labels[-1]))
        assert said.answer.message.content == f"**Alice**, **{labels[-1]}**: Abandoned."
        assert [s.buttons for s in said.of("edit") if s is not card_of(said)] == [[]]

    counted = await _counted(table, failed, abandon)
    assert counted[1] == 2  # on PostgreSQL round trips, on SQLite trips: one each


async def test_try_again_reads_the_roll_with_the_settings_and_writes_with_its_commit(
    table: Table,
) -> None:
    """Try again reads the roll pressed beside the settings, with what its roll reads ahead
    (the standing, the open rolls), in one statement; its write reads the failures at the
    roll's label (the one thing not read ahead: the statement could not know the label),
    then has the rest and its claim checked, and the roll stored, with COMMIT."""
    pressed: list[int] = []

    async def failed(table: Table) -> None:
        table.faces.add(3, 4, 2)
        pressed.append(roll_id(await table.run(rolls.roll(
            table.deps, table.ctx(), ask(3), label="door", private=False))))

    async def again(table: Table) -> None:
        table.faces.add(8, 8)
        said = await table.run(rolls.try_again_pressed(table.deps, table.ctx(), pressed[-1]))
        assert "trying again after a failure" in said.answer.text  # rolled, not refused

    counted = await _counted(table, failed, again)
    # PostgreSQL: the read; the failures at the label, then COMMIT; the message id (was 6).
    # SQLite: the read, the write, the message id (was 4)
    assert counted[1] == (4 if isinstance(table.store, PostgresStore) else 3)



async def test_a_fistful_roll_reads_its_character_s_turn_with_the_settings(
    table: Table,
) -> None:
    """The Successive Action Penalty counts the actions of the character a roll is made as
    (RULES.md §3): /roll reads the active character's count in the settings' statement,
    and its write has it checked with COMMIT, as a roll without a sheet; Try again reads
    that of the character of the roll it retries (another may be active now) in its
    own read, which a roll made with a character follows with its sheet's (is it still
    there)."""
    await table.store.write(lambda tx: tx.settings.set_channel_option(
        GUILD, CHANNEL, ChannelOption.RULESET, Ruleset.FISTFUL))
    storyteller = table.ctx(STORYTELLER)
    for name in ("Goblin", "Orc"):
        await table.run(characters.create(table.deps, storyteller, name, npc=True))
    said: list[str] = []

    async def as_goblin(table: Table) -> None:
        await table.run(characters.use(table.deps, storyteller, "Goblin"))

    async def rolled(table: Table) -> None:
        table.faces.add(*[8] * (3 - len(said) % 2))  # the Goblin's second action: 1 die less
        said.append((await table.run(rolls.roll(table.deps, storyteller, ask(3), label=None,
                                                private=False))).answer.text)

    for _ in range(2):  # a roll closing an open one prepares its statements first
        await rolled(table)
    await table.run(clock.turn_next(table.deps, storyteller))  # closes them
    # the settings with what the roll reads ahead; the write with its COMMIT; the message id
    assert (await _counted(table, as_goblin, rolled))[1] == 3
    assert "successive action" not in said[2]
    assert "-1 die: successive action this turn" in said[3]

    pressed: list[int] = []

    async def failed(table: Table) -> None:
        await table.run(clock.turn_next(table.deps, storyteller))
        await as_goblin(table)
        table.faces.add(2, 3, 4)
        pressed.append(roll_id(await table.run(rolls.roll(
            table.deps, storyteller, ask(3), label="door", private=False))))
        await table.run(characters.use(table.deps, storyteller, "Orc"))

    async def again(table: Table) -> None:
        table.faces.add(8, 8)
        retried = await table.run(rolls.try_again_pressed(table.deps, storyteller, pressed[-1]))
        assert "-1 die: successive action this turn" in retried.answer.text  # the Goblin's

    # PostgreSQL: the read, the sheet's, the write with its COMMIT, the message id, and the
    # failures at the label (as Try again without a sheet, above). SQLite: its three.
    postgres = isinstance(table.store, PostgresStore)
    assert (await _counted(table, failed, again))[1] == (5 if postgres else 3)


def _reads_named(table: Table, part: str) -> tuple[list[int], Callable[[], None]]:
    """Round trips (SQLite: trips) of each read whose body's name holds ``part``, from now
    until the returned function is called."""
    store, read = table.store, table.store.read
    counted: list[int] = []

    def trips() -> int:
        return store.round_trips if isinstance(store, PostgresStore) else store.trips

    async def counting(body: Any) -> Any:
        if part not in body.__qualname__:
            return await read(body)
        before = trips()
        try:
            return await read(body)
        finally:
            counted.append(trips() - before)

    store.read = counting  # type: ignore[method-assign]

    def stop() -> None:
        store.read = read  # type: ignore[method-assign]

    return counted, stop


async def test_a_teamwork_roll_reads_its_table_in_one_statement_with_the_active_sheet(
    table: Table,
) -> None:
    """A member with an active sheet: the Roll button's read has the sheet's Will from the
    settings' statement (it read it again, a round trip more); the /teamwork roll command
    reads the channel's open teamworks in a second statement. A primary who made another
    sheet active since the start still rolls as the character the teamwork started with,
    whose sheet and counters the Roll then reads again: in one statement (it was two)."""
    alice = table.ctx()
    for name in ("Mara", "Zed"):
        await table.run(characters.create(table.deps, alice, name))
    labels = itertools.count()
    presses: list[Any] = []

    async def started_as_mara(table: Table) -> None:
        await table.run(characters.use(table.deps, alice, "Mara"))
        said = await table.run(teamwork.start(
            table.deps, alice, rolls.ByName(parse_pool_names("Strength + 1"), {}),
            label=f"lift {next(labels)}", helper_limit=None))
        assert not said.answer.ephemeral, said.answer.text
        presses.append(next(press for press in map(ids.parse, said.answer.custom_ids)
                            if press is not None and press.action == "roll"))

    async def zed_made_active(table: Table) -> None:
        await started_as_mara(table)
        await table.run(characters.use(table.deps, alice, "Zed"))

    def rolled(command: bool) -> Command:
        async def roll(table: Table) -> None:
            table.faces.add(8, 2)
            said = await table.run(
                teamwork.roll_command(table.deps, alice, label=None) if command
                else teamwork.card_pressed(table.deps, alice, presses[-1]))
            assert not said.answer.ephemeral, said.answer.text
            newest = await table.store.read(lambda tx: tx.rolls.history(
                GUILD, CHANNEL, viewer_id=ALICE, viewer_is_storyteller=True, count=1))
            assert newest[0].character_name == "Mara"

        return roll

    postgres = isinstance(table.store, PostgresStore)
    for command, reads in ((False, 1), (True, 2 if postgres else 1)):
        gathers, stop = _reads_named(table, "_gather")
        try:
            await _counted(table, started_as_mara, rolled(command))
        finally:
            stop()
        assert gathers[1] == reads, ("the command" if command else "the button", gathers)
    rereads, stop = _reads_named(table, "reread")
    try:
        await _counted(table, zed_made_active, rolled(False))
    finally:
        stop()
    assert rereads == [1, 1], "the kept sheet and its counters read in one statement"
