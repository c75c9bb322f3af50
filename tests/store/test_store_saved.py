"""Saved rolls and rolls kept as asked: the repository against a real SQLite file."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from bot.store import Store, Tx
from engine.parser import parse_pool_names
from engine.records import WillState
from engine.saved import Asked
from tests.store.conftest import (
    CODE_POINT_NAMES,
    CODE_POINT_ORDER,
    GUILD,
    OTHER,
    ROLLER,
    failure,
    names_compared_as_a_language,
    saved_count,
    saved_named,
)

OTHER_GUILD = 1_000_000_000_000_000_009


def asked(pool: str = "Wits + Composure", **options: bool | int | str) -> Asked:
    return Asked.of(parse_pool_names(pool), options)


async def test_put_then_get_by_the_folded_name_round_trips(store: Store) -> None:
    kept = asked("Wits + Investigation 3 - 1", again="9", rote=True)
    saved = await store.write(lambda tx: tx.saved.put(GUILD, ROLLER, "  Spot  the Lie ",
                                                      kept, "lie"))
    assert saved.name == "Spot the Lie"
    again = await store.read(lambda tx: saved_named(tx, GUILD, ROLLER, "spot the lie"))
    assert again == saved
    assert again is not None
    assert again.asked == kept
    assert again.asked.named_parts() == parse_pool_names("Wits + Investigation 3 - 1")


async def test_put_replacing_a_saved_roll_rewrites_it_in_place(store: Store) -> None:
    first = await store.write(lambda tx: tx.saved.put(GUILD, ROLLER, "Punch", asked("5"), None))
    second = await store.write(lambda tx: tx.saved.put(GUILD, ROLLER, "PUNCH", asked("6"), "x",
                                                       replacing=first.id))
    assert second.id == first.id
    assert second.name == "PUNCH" and second.label == "x"
    assert await store.read(lambda tx: saved_named(tx, GUILD, ROLLER, "punch")) == second
    assert await store.read(lambda tx: saved_count(tx, GUILD, ROLLER)) == 1


async def test_saved_rolls_are_per_member_and_per_server_listed_by_name(store: Store) -> None:
    def fill(tx: Tx) -> None:
        for guild, user, name in [(GUILD, ROLLER, "b"), (GUILD, ROLLER, "A"),
                                  (GUILD, OTHER, "c"), (OTHER_GUILD, ROLLER, "d")]:
            tx.saved.put(guild, user, name, asked("3"), None)

    await store.write(fill)
    assert await store.read(lambda tx: tx.saved.names(GUILD, ROLLER)) == ["A", "b"]
    assert [s.name for s in await store.read(lambda tx: tx.saved.all(GUILD, ROLLER))] == [
        "A", "b"]
    assert await store.read(lambda tx: saved_count(tx, OTHER_GUILD, ROLLER)) == 1
    assert await store.read(lambda tx: saved_named(tx, GUILD, OTHER, "b")) is None


async def test_saved_rolls_are_listed_by_their_names_code_points_whatever_the_collation(
    store: Store, store_target: Path | str
) -> None:
    """/roll saved's list and its autocomplete come by the name's key in code-point order
    on both stores, even where PostgreSQL's collation is a language's (en_US in
    compose.yaml), which would put 'Łukasz' beside 'Lara' and 'Ørjan' beside 'Olga'."""
    async with names_compared_as_a_language(store_target):
        def fill(tx: Tx) -> None:
            for name in CODE_POINT_NAMES:
                tx.saved.put(GUILD, ROLLER, name, asked("3"), None)

        await store.write(fill)
        names = await store.read(lambda tx: tx.saved.names(GUILD, ROLLER))
        every = await store.read(lambda tx: tx.saved.all(GUILD, ROLLER))

    assert names == CODE_POINT_ORDER
    assert [s.name for s in every] == CODE_POINT_ORDER


async def test_delete_answers_what_it_deleted_once(store: Store) -> None:
    await store.write(lambda tx: tx.saved.put(GUILD, ROLLER, "Punch", asked("5"), None))
    gone = await store.write(lambda tx: tx.saved.delete(GUILD, ROLLER, "punch"))
    assert gone is not None and gone.name == "Punch"
    assert await store.write(lambda tx: tx.saved.delete(GUILD, ROLLER, "punch")) is None


async def test_a_roll_keeps_its_asked_form_and_older_rolls_have_none(store: Store) -> None:
    kept = asked("Wits + Composure", again="8")

    def insert(tx: Tx, with_asked: Asked | None) -> int:
        record = tx.rolls.insert(
            guild_id=GUILD, channel_id=1, roller_id=ROLLER, result=failure(),
            will_state=WillState.OFFERED, asked=with_asked)
        return record.id

    with_form = await store.write(lambda tx: insert(tx, kept))
    without = await store.write(lambda tx: insert(tx, None))
    first = await store.read(lambda tx: tx.rolls.get(with_form))
    second = await store.read(lambda tx: tx.rolls.get(without))
    assert first is not None and first.asked == kept
    assert second is not None and second.asked is None


async def test_the_table_refuses_two_rows_of_one_folded_name(store: Store, db_path: Path) -> None:
    await store.write(lambda tx: tx.saved.put(GUILD, ROLLER, "Punch", asked("5"), None))
    conn = sqlite3.connect(db_path)
    try:
        with pytest.raises(sqlite3.IntegrityError):
            conn.execute(
                "INSERT INTO saved_rolls (guild_id, user_id, name, name_key, asked_json)"
                " VALUES (?, ?, 'punch', 'punch', '{}')", (GUILD, ROLLER))
    finally:
        conn.close()
