"""Dice statistics in the store: the counters always equal a recount of the log.

The counters change in the transaction that writes a roll, spends Will on it, takes
a Beat on it or voids it; migration 0003 counts the rolls already in the log. Both
are checked against :mod:`tests.support.recount`, written apart from the store.
"""

from __future__ import annotations

import asyncio
import shutil
import sqlite3
import tempfile
from datetime import date
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.store import MIGRATIONS_DIR, Store
from bot.store.stats import StatsRepository
from engine.faces import ScriptedFaces, seeded_faces
from engine.models import Outcome, RollRequest, Ruleset, Term
from engine.offers import beat_allowed, will_spend_refusal, will_state_for
from engine.records import ChannelConfig
from engine.roll import RuleError, spend_will, take_beat
from engine.roll import roll as roll_dice
from engine.stats import Part, parts
from tests.store.conftest import (
    CHANNEL,
    GUILD,
    OTHER,
    OTHER_CHANNEL,
    ROLLER,
    STORYTELLER,
    samples,
)
from tests.support.recount import counters, recount

MEMBERS = (ROLLER, OTHER, STORYTELLER)
CHANNELS = (CHANNEL, OTHER_CHANNEL)

roll_op = st.tuples(
    st.just("roll"),
    st.integers(0, 2),  # member
    st.integers(0, 1),  # channel
    st.booleans(),  # private
    st.sampled_from(list(Ruleset)),
    st.integers(-1, 12),  # pool
    st.booleans(),  # Will declared
    st.integers(0, 10_000),  # seed
)
press_op = st.tuples(st.sampled_from(["will", "beat", "void"]), st.integers(0, 40))
operations = st.lists(st.one_of(roll_op, press_op), max_size=25)


async def _apply(store: Store, ops: list[tuple[object, ...]]) -> None:
    """Run the operations through the store's own API, each in its own transaction."""
    made: list[int] = []
    for op in ops:
        if op[0] == "roll":
            _, member, channel, private, ruleset, pool, will, seed = op
            request = RollRequest(ruleset=ruleset, terms=(Term(label="Wits", value=pool),),
                                  will=will)
            result = roll_dice(request, seeded_faces(int(str(seed))))
            if result.refused:
                continue
            config = ChannelConfig(guild_id=GUILD, channel_id=CHANNELS[int(str(channel))])
            record = await store.write(lambda tx, r=result, m=member, c=config, p=private:
                                       tx.rolls.insert(
                guild_id=GUILD, channel_id=c.channel_id, roller_id=MEMBERS[int(str(m))],
                result=r, will_state=will_state_for(r, c), private=bool(p),
            ))
            made.append(record.id)
            continue
        if not made:
            continue
        roll_id = made[int(str(op[1])) % len(made)]
        record = await store.read(lambda tx, i=roll_id: tx.rolls.get(i))
        assert record is not None
        if op[0] == "will" and will_spend_refusal(record, record.roller_id, None) is None:
            try:
                spent = spend_will(record.result, seeded_faces(roll_id))
            except RuleError:
                continue
            await store.write(lambda tx, r=record, s=spent: tx.rolls.spend_will(
                r.id, r.roller_id, s))
        elif op[0] == "beat" and beat_allowed(record.result):
            beaten = take_beat(record.result)
            await store.write(lambda tx, r=record, b=beaten: tx.rolls.take_beat(
                r.id, r.roller_id, b))
        elif op[0] == "void":
            await store.write(lambda tx, r=record: tx.rolls.void(
                GUILD, r.channel_id, r.id, STORYTELLER))


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=operations)
def test_counters_equal_a_recount_of_the_log_after_any_rolls_will_beats_and_voids(
    ops: list[tuple[object, ...]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "bot.sqlite3"

        async def scenario() -> None:
            store = await Store.open(path)
            try:
                await _apply(store, ops)
            finally:
                await store.close()

        asyncio.run(scenario())
        assert counters(path) == recount(path)


def _strip_to_first_migration(folder: Path) -> Path:
    """A migrations folder with 0001 only (the schema before dice statistics)."""
    old = folder / "old_migrations"
    old.mkdir()
    shutil.copy(MIGRATIONS_DIR / "0001_initial.sql", old)
    return old


async def test_migration_counts_the_rolls_already_in_the_log(tmp_path: Path) -> None:
    # A log made with today's store, its rolls spread over several days and months...
    source = tmp_path / "source.sqlite3"
    store = await Store.open(source)
    ops: list[tuple[object, ...]] = [
        ("roll", m, c, p, ruleset, pool, False, seed)
        for seed, (m, c, p, ruleset, pool) in enumerate(
            (m, c, p, ruleset, pool)
            for m in range(3) for c in range(2) for p in (False, True)
            for ruleset in Ruleset for pool in (1, 4, 9)
        )
    ]
    ops += [("will", i, 0) for i in range(0, 100, 3)] + [("beat", i, 0) for i in range(50)]
    ops += [("void", i, 0) for i in range(0, 100, 7)]
    await _apply(store, ops)
    await store.close()
    with sqlite3.connect(source) as db:
        db.execute("UPDATE rolls SET created_at = strftime('%Y-%m-%dT%H:%M:%fZ',"
                   " '2025-01-30', '+' || (id * 3) || ' days')")
    # ... copied into a database from before migration 0003, which then migrates.
    target = tmp_path / "target.sqlite3"
    await (await Store.open(target, _strip_to_first_migration(tmp_path))).close()
    with sqlite3.connect(target) as db:
        db.execute("ATTACH ? AS source", (str(source),))
        # The columns the log had then (later migrations add more to today's rolls).
        columns = ", ".join(row[1] for row in db.execute("PRAGMA table_info(rolls)"))
        db.execute(f"INSERT INTO rolls ({columns}) SELECT {columns} FROM source.rolls")  # noqa: S608
        db.commit()
        spent = db.execute("SELECT count(*) FROM rolls WHERE will_state = 'spent'").fetchone()[0]
        beats = db.execute("SELECT count(*) FROM rolls WHERE beat = 1").fetchone()[0]
    assert spent and beats  # the log has both kinds of re-read roll
    await (await Store.open(target)).close()
    tally, shapes = counters(target)
    assert tally and shapes
    assert (tally, shapes) == recount(target)


async def test_the_migration_leaves_will_spent_rolls_out_of_the_odds_only(
    tmp_path: Path,
) -> None:
    """A roll re-read by Will before the migration lost its first reading: it counts
    everywhere but in the comparison with the odds."""
    source = tmp_path / "source.sqlite3"
    store = await Store.open(source)
    await _apply(store, [("roll", 0, 0, False, Ruleset.COFD, 1, False, 3), ("will", 0, 0)])
    await store.close()
    target = tmp_path / "target.sqlite3"
    await (await Store.open(target, _strip_to_first_migration(tmp_path))).close()
    with sqlite3.connect(target) as db:
        db.execute("ATTACH ? AS source", (str(source),))
        # The columns the log had then (later migrations add more to today's rolls).
        columns = ", ".join(row[1] for row in db.execute("PRAGMA table_info(rolls)"))
        db.execute(f"INSERT INTO rolls ({columns}) SELECT {columns} FROM source.rolls")  # noqa: S608
        db.commit()
    store = await Store.open(target)
    try:
        part = Part(channel_id=0, roller_id=0, private=(False, True))
        (sample,) = await store.read(lambda tx: samples(tx, [part]))
    finally:
        await store.close()
    assert sample.tally.rolls == 1
    assert sample.tally.will_spent == 1
    assert sample.shapes == ()


async def _read(store: Store, *wanted: Part, since: date | None = None,
                ruleset: Ruleset | None = None) -> dict[Ruleset, tuple[int, int, int]]:
    found = await store.read(lambda tx: samples(tx, wanted, since=since, ruleset=ruleset))
    return {
        sample.ruleset: (sample.tally.rolls, sample.tally.dice,
                         sum(shape.rolls for shape in sample.shapes))
        for sample in found
    }


def _one_roll(store: Store, *, member: int, channel: int, private: bool, faces: list[int],
              ruleset: Ruleset = Ruleset.COFD) -> object:
    request = RollRequest(ruleset=ruleset, terms=(Term(value=len(faces)),))
    result = roll_dice(request, ScriptedFaces(faces))
    config = ChannelConfig(guild_id=GUILD, channel_id=channel)
    return store.write(lambda tx: tx.rolls.insert(
        guild_id=GUILD, channel_id=channel, roller_id=member, result=result,
        will_state=will_state_for(result, config), private=private,
    ))


async def test_each_level_counts_its_own_rolls(store: Store) -> None:
    await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False, faces=[2, 3])
    await _one_roll(store, member=OTHER, channel=CHANNEL, private=True, faces=[4, 5, 6])
    await _one_roll(store, member=ROLLER, channel=OTHER_CHANNEL, private=False, faces=[7],
                    ruleset=Ruleset.V20)
    both = (False, True)
    assert await _read(store, Part(channel_id=CHANNEL, roller_id=0, private=both)) == {
        Ruleset.COFD: (2, 5, 2)}
    assert await _read(store, Part(channel_id=CHANNEL, roller_id=0, private=(False,))) == {
        Ruleset.COFD: (1, 2, 1)}
    assert await _read(store, Part(channel_id=0, roller_id=ROLLER, private=both)) == {
        Ruleset.COFD: (1, 2, 1), Ruleset.V20: (1, 1, 1)}
    assert await _read(store, Part(channel_id=0, roller_id=0, private=both),
                       ruleset=Ruleset.V20) == {Ruleset.V20: (1, 1, 1)}


async def test_a_set_of_channels_adds_up_each_ones_counters(store: Store) -> None:
    """A part over a set of channels (the server as far as a member can read it: one
    statement whatever the set's size, its ids one JSON parameter) adds up those channels'
    counters, each roll once, and none of another channel's; an empty set counts none."""
    await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False, faces=[2, 3])
    await _one_roll(store, member=OTHER, channel=CHANNEL, private=True, faces=[4, 5, 6])
    await _one_roll(store, member=ROLLER, channel=OTHER_CHANNEL, private=False, faces=[7],
                    ruleset=Ruleset.V20)
    both = (False, True)

    def over(*channels: int, roller: int = 0, private: tuple[bool, ...] = both) -> Part:
        return Part(channel_id=0, roller_id=roller, private=private,
                    channels=frozenset(channels))

    assert await _read(store, over(CHANNEL)) == {Ruleset.COFD: (2, 5, 2)}
    assert await _read(store, over(CHANNEL, OTHER_CHANNEL, OTHER_CHANNEL + 1)) == {
        Ruleset.COFD: (2, 5, 2), Ruleset.V20: (1, 1, 1)}
    assert await _read(store, over(OTHER_CHANNEL + 1)) == {}
    assert await _read(store, over()) == {}
    assert await _read(store, over(CHANNEL, OTHER_CHANNEL, roller=ROLLER),
                       since=date(2000, 1, 1)) == {Ruleset.COFD: (1, 2, 1), Ruleset.V20: (1, 1, 1)}
    found = await store.read(lambda tx: samples(tx, [
        over(CHANNEL, private=(False,)), Part(channel_id=0, roller_id=OTHER, private=(True,)),
        over(OTHER_CHANNEL, private=(False,))]))
    assert [(sample.ruleset, sample.tally.rolls) for sample in found] == [
        (Ruleset.COFD, 2), (Ruleset.V20, 1)]


async def test_a_void_takes_the_roll_out_of_every_counter(store: Store) -> None:
    record = await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False,
                             faces=[2, 3])
    await store.write(lambda tx: tx.rolls.void(GUILD, CHANNEL, record.id, STORYTELLER))  # type: ignore[attr-defined]
    assert await _read(store, Part(channel_id=0, roller_id=0, private=(False, True))) == {}


@pytest.mark.parametrize("beat_after_the_read", [False, True])
async def test_a_void_read_ahead_takes_a_beaten_roll_out_as_its_shape_was_counted(
    store: Store, beat_after_the_read: bool,
) -> None:
    """/history void reads the roll ahead, its first reading with it; a Beat taken
    between that read and the void is seen by the void (on PostgreSQL the check made at
    COMMIT misses, and the write runs again, reading it). The counters are then as if the
    roll had never been made: its shape taken back with its first outcome."""
    await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False, faces=[8, 2])
    everyone = [Part(channel_id=0, roller_id=0, private=(False, True))]
    before = await store.read(lambda tx: samples(tx, everyone))
    beaten: Any = await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False,
                                  faces=[2, 3])

    async def beat() -> None:
        await store.write(lambda tx: tx.rolls.take_beat(
            beaten.id, ROLLER, take_beat(beaten.result)))

    if not beat_after_the_read:
        await beat()
    read = await store.read(lambda tx: tx.queries.one(tx.rolls.to_void_query(beaten.id)))
    if beat_after_the_read:
        await beat()
    done = await store.write(lambda tx: tx.rolls.void(
        GUILD, CHANNEL, beaten.id, STORYTELLER, read=read))

    assert done is not None
    assert done.roll.void and done.roll.beat and not done.already
    assert await store.read(lambda tx: samples(tx, everyone)) == before


async def test_since_reads_whole_months_and_the_days_of_one_month(store: Store) -> None:
    """Counters of other days are written straight into the table (the roll path dates
    its rolls now)."""
    days = [date(2025, 1, 31), date(2025, 2, 14), date(2025, 2, 15), date(2025, 3, 1)]

    def seed(tx: object) -> None:
        stats: StatsRepository = tx.stats  # type: ignore[attr-defined]
        for number, day in enumerate(days, start=1):
            for span, bucket in (("all", 0), ("day", (day - date(1970, 1, 1)).days),
                                 ("month", day.year * 12 + day.month - 1)):
                stats._run(
                    "INSERT INTO stat_tally VALUES (?, 0, 0, ?, ?, 0, 'cofd', ?, ?, 0,"
                    " 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)"
                    " ON CONFLICT (guild_id, channel_id, roller_id, span, bucket, private,"
                    " ruleset) DO UPDATE SET rolls = stat_tally.rolls + excluded.rolls,"
                    " dice = stat_tally.dice + excluded.dice",
                    (GUILD, span, bucket, 1, number),
                )

    await store.write(seed)
    everyone = Part(channel_id=0, roller_id=0, private=(False,))
    assert await _read(store, everyone) == {Ruleset.COFD: (4, 10, 0)}
    assert await _read(store, everyone, since=date(2025, 2, 15)) == {Ruleset.COFD: (2, 7, 0)}
    assert await _read(store, everyone, since=date(2025, 2, 1)) == {Ruleset.COFD: (3, 9, 0)}
    assert await _read(store, everyone, since=date(2024, 12, 31)) == {Ruleset.COFD: (4, 10, 0)}
    assert await _read(store, everyone, since=date(2025, 3, 2)) == {}


def test_a_member_never_sees_others_secret_rolls_in_a_total() -> None:
    mine = parts(channel_id=CHANNEL, member_id=None, viewer_id=ROLLER, sees_secrets=False)
    assert mine == (
        Part(channel_id=CHANNEL, roller_id=0, private=(False,)),
        Part(channel_id=CHANNEL, roller_id=ROLLER, private=(True,)),
    )
    other = parts(channel_id=None, member_id=OTHER, viewer_id=ROLLER, sees_secrets=False)
    assert other == (Part(channel_id=0, roller_id=OTHER, private=(False,)),)
    own = parts(channel_id=CHANNEL, member_id=ROLLER, viewer_id=ROLLER, sees_secrets=False)
    assert own == (Part(channel_id=CHANNEL, roller_id=ROLLER, private=(False, True)),)
    storyteller = parts(channel_id=CHANNEL, member_id=None, viewer_id=STORYTELLER,
                        sees_secrets=True)
    assert storyteller == (Part(channel_id=CHANNEL, roller_id=0, private=(False, True)),)


async def test_a_will_spend_moves_faces_and_outcome_and_keeps_the_first_reading(
    store: Store,
) -> None:
    record = await _one_roll(store, member=ROLLER, channel=CHANNEL, private=False,
                             faces=[2, 3])
    roll_id = record.id  # type: ignore[attr-defined]
    current = await store.read(lambda tx: tx.rolls.get(roll_id))
    assert current is not None
    spent = spend_will(current.result, ScriptedFaces([8, 9, 1]))
    await store.write(lambda tx: tx.rolls.spend_will(roll_id, ROLLER, spent))
    (sample,) = await store.read(lambda tx: samples(
        tx, [Part(channel_id=CHANNEL, roller_id=ROLLER, private=(False,))]))
    assert sample.tally.dice == 5
    assert sample.tally.will_spent == 1
    assert sample.tally.outcomes[Outcome.SUCCESS] == 1
    assert sample.tally.outcomes[Outcome.FAILURE] == 0
    assert sample.tally.faces == (1, 1, 1, 0, 0, 0, 0, 1, 1, 0)
    (shape,) = sample.shapes
    assert shape.outcomes[Outcome.FAILURE] == 1  # as first rolled
    assert shape.outcomes[Outcome.SUCCESS] == 0
