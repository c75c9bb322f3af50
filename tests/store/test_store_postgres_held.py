"""PostgreSQL's held-back writes (bot.store.postgres.PgConnection): what the body does
not read an answer from is sent later, in one message, with its values written in as
literals. These tests show that nothing of a value is lost or read as SQL on the way,
that a write costs one round trip with its COMMIT, and that a held-back statement that
fails or misses is answered exactly as SQLite answers it."""

from __future__ import annotations

import asyncio
import math
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any, TypeVar
from urllib.parse import urlsplit

import asyncpg
import pytest
from pydantic import BaseModel

from bot.store import Store, Tx
from bot.store.postgres import IDLE_STOCK, PgConnection, PgEngine, literal
from engine.records import ActionKind, WillState
from tests.postgres_server import PostgresServer
from tests.store.conftest import CHANNEL, GUILD, ROLLER, failure, idle_workers

pytestmark = pytest.mark.filterwarnings("ignore::ResourceWarning")

T = TypeVar("T")

#: Text a member may type, each a way literal text could go wrong.
AWKWARD = [
    "it's",
    "''",
    "\\",
    "\\'; DROP TABLE probe; --",
    "'); DELETE FROM probe; --",
    "$storybot$ END $storybot$; DROP TABLE probe; --",
    "$1 $2 storybot_check(true)",
    "$$",
    "E'x'",
    "line one\nline two\r\n\ttab",
    "🎲 Força Vontade ñ",
    "\\x41 \\u0041 \\101",
    "%s %% {} ?",
    "",
]


@pytest.fixture
async def store(postgres: PostgresServer) -> AsyncIterator[Store]:
    url = await postgres.fresh_database()
    conn = await asyncpg.connect(url)
    try:
        await conn.execute(  # the test database is kept between tests, emptied
            "CREATE TABLE IF NOT EXISTS probe (id BIGSERIAL PRIMARY KEY, n BIGINT, t TEXT,"
            " x DOUBLE PRECISION, UNIQUE (t)); TRUNCATE probe RESTART IDENTITY"
        )
    finally:
        await conn.close()
    opened = await Store.open(url)
    yield opened
    await opened.close()


def _engine(store: Store) -> PgEngine:
    engine = store._engine  # type: ignore[attr-defined]
    assert isinstance(engine, PgEngine)
    return engine


async def _write(store: Store, body: Callable[[PgConnection], T]) -> T:
    return await _engine(store).run(body, write=True)


async def _rows(store: Store) -> list[tuple[Any, ...]]:
    rows = await _engine(store).run(
        lambda tx: tx.execute("SELECT n, t, x FROM probe ORDER BY id").fetchall(), write=False
    )
    return [tuple(row) for row in rows]


def test_values_without_a_safe_literal_have_none() -> None:
    assert literal("a\x00b") is None  # the protocol would end the query at NUL
    assert literal(math.nan) is None
    assert literal(math.inf) is None
    assert literal(b"bytes") is None
    assert literal(-5) == "(-5)"  # "x -$1" must not become "x --5", a comment
    assert literal(True) == "1"
    assert literal(None) == "NULL"


async def test_awkward_text_and_numbers_arrive_as_they_were_sent(store: Store) -> None:
    numbers = [0, -1, 2**63 - 1, -(2**63), 1_000_000_000_000_000_001]
    values = [(numbers[i % len(numbers)], text, -1.5 * i) for i, text in enumerate(AWKWARD)]

    def body(tx: PgConnection) -> int:
        for n, t, x in values:
            tx.execute("INSERT INTO probe (n, t, x) VALUES (?, ?, ?)", (n, t, x))
        return len(tx.held)

    held = await _write(store, body)

    assert held == len(values)  # all of them went as literals, none as parameters
    assert await _rows(store) == values


async def test_a_negative_number_after_a_minus_is_subtracted_not_a_comment(
    store: Store,
) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (10, 'a')"))

    await _write(store, lambda tx: tx.execute("UPDATE probe SET n = n -? WHERE t = ?", (-5, "a")))

    assert await _rows(store) == [(15, "a", None)]


async def test_text_with_nul_is_sent_as_a_parameter_and_refused_by_the_server(
    store: Store,
) -> None:
    def body(tx: PgConnection) -> None:
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (1, "a\x00b"))

    with pytest.raises(asyncpg.exceptions.CharacterNotInRepertoireError):
        await _write(store, body)
    assert await _rows(store) == []


async def test_writes_nobody_reads_go_in_one_round_trip_with_their_commit(
    store: Store,
) -> None:
    def body(tx: PgConnection, first: int) -> None:
        for n in range(first, first + 3):
            tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (n, f"row {n}"))
        tx.executemany("UPDATE probe SET x = ? WHERE n = ?", [(0.5, first), (0.25, first + 1)])
        tx.execute("DELETE FROM probe WHERE n < ?", (first,))

    await _write(store, lambda tx: body(tx, 0))  # prepares its three statements
    await idle_workers(store)
    before = store.round_trips
    await _write(store, lambda tx: body(tx, 10))

    assert store.round_trips - before == 1
    assert await _rows(store) == [(10, "row 10", 0.5), (11, "row 11", 0.25), (12, "row 12", None)]


async def test_a_read_after_held_writes_sees_them(store: Store) -> None:
    def body(tx: PgConnection) -> list[Any]:
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (7, "seven"))
        return [tuple(r) for r in tx.execute("SELECT n, t FROM probe").fetchall()]

    assert await _write(store, body) == [(7, "seven")]


async def test_a_read_of_other_tables_runs_before_the_held_writes_one_of_theirs_after(
    store: Store,
) -> None:
    def body(tx: PgConnection) -> tuple[int, list[Any], int, list[Any]]:
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (7, "seven"))
        versions = tx.execute("SELECT count(*) FROM schema_version").fetchall()
        still_held = len(tx.held)
        mine = [tuple(r) for r in tx.execute(
            "SELECT p.n FROM schema_version s JOIN probe p ON p.n > s.version - 100"
            " WHERE s.version = 1"
        ).fetchall()]
        return still_held, versions, len(tx.held), mine

    still_held, versions, after, mine = await _write(store, body)

    assert still_held == 1  # schema_version is not a table the insert names
    assert versions[0][0] > 0
    assert after == 0  # the join names probe: the insert went first
    assert mine == [(7,)]


async def test_a_row_count_read_sends_what_was_held_before_it(store: Store) -> None:
    await _write(store, lambda tx: tx.executemany(
        "INSERT INTO probe (n, t) VALUES (?, ?)", [(n, str(n)) for n in range(5)]
    ))

    def body(tx: PgConnection) -> tuple[int, int]:
        tx.execute("DELETE FROM probe WHERE n = ?", (0,))
        changed = tx.execute("UPDATE probe SET x = 1 WHERE n >= ?", (0,)).rowcount
        return changed, len(tx.held)

    assert await _write(store, body) == (4, 0)


async def test_a_checked_write_that_misses_answers_false_and_the_rest_is_written_once(
    store: Store,
) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'v1')"))
    runs: list[str] = []

    def body(tx: PgConnection) -> bool:
        runs.append(tx.care.name)
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (2, "other"))
        # as a versioned update does: "if it is still at version 5" (it is at 1)
        return tx.changes_one("UPDATE probe SET n = n + 1 WHERE t = ? AND n = ?", ("v1", 5))

    changed = await _write(store, body)

    assert changed is False
    assert runs == ["TRUSTING", "EXACT"]  # held back and answered True, then exactly
    assert await _rows(store) == [(1, "v1", None), (2, "other", None)]


class _Refused(Exception):  # noqa: N818 - a body's refusal, carrying what it was told
    def __init__(self, changed: bool) -> None:
        super().__init__(changed)
        self.changed = changed


async def test_a_body_that_raises_on_a_trusted_answer_is_run_again_exactly(
    store: Store,
) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'v1')"))

    def body(tx: PgConnection) -> None:
        # as a flow that refuses either way, with a reason that depends on the answer
        raise _Refused(tx.changes_one("UPDATE probe SET n = 2 WHERE t = ? AND n = ?", ("v1", 5)))

    with pytest.raises(_Refused) as refused:
        await _write(store, body)

    assert refused.value.changed is False  # not the True given on trust
    assert await _rows(store) == [(1, "v1", None)]


async def test_a_checked_write_that_hits_answers_true_in_one_round_trip(store: Store) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'v1')"))

    def body(tx: PgConnection) -> bool:
        return tx.changes_one("UPDATE probe SET n = n + 1 WHERE t = ?", ("v1",))

    await _write(store, body)  # its check prepared, once in the session
    await idle_workers(store)
    before = store.round_trips
    changed = await _write(store, body)

    assert changed is True
    assert store.round_trips - before == 1
    assert await _rows(store) == [(3, "v1", None)]


async def test_a_held_write_refused_by_a_constraint_is_caught_where_the_body_catches_it(
    store: Store,
) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'taken')"))

    def body(tx: PgConnection) -> str:
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (2, "before"))
        try:
            tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (3, "taken"))
        except sqlite3.IntegrityError:  # as the repositories catch a UNIQUE name
            return "caught"
        finally:
            tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (4, "after"))
        return "not caught"

    assert await _write(store, body) == "caught"
    assert await _rows(store) == [(1, "taken", None), (2, "before", None), (4, "after", None)]


async def test_statements_prepared_in_a_session_serve_after_a_rollback_and_a_new_session(
    store: Store, postgres: PostgresServer
) -> None:
    insert = "INSERT INTO probe (n, t) VALUES (?, ?)"

    def fails(tx: PgConnection) -> None:
        tx.execute(insert, (1, "one"))
        tx.execute("SELECT 1").fetchall()  # sends what was held
        raise RuntimeError("the body gives up")

    with pytest.raises(RuntimeError):
        await _write(store, fails)
    await _write(store, lambda tx: tx.execute(insert, (2, "two")))
    admin = await asyncpg.connect(postgres.url())
    database = urlsplit(_engine(store).url).path.lstrip("/")
    others = "FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()"
    try:  # the server ends every session of the database (as a restart would)
        await admin.execute(f"SELECT pg_terminate_backend(pid) {others}", database)
        # ... and they are gone before the next write (a COMMIT sent to a session in its
        # last moments could have been run or not: the store tells the member to try
        # again rather than guess, which is not what this test is about).
        for _ in range(500):
            if not await admin.fetchval(f"SELECT count(*) {others}", database):
                break
            await asyncio.sleep(0.01)
    finally:
        await admin.close()
    await _write(store, lambda tx: tx.execute(insert, (3, "three")))

    assert await _rows(store) == [(2, "two", None), (3, "three", None)]


# --- rows expected as the flow read them before (PgConnection.expects) -------------------


async def test_a_row_expected_as_read_before_costs_no_round_trip_and_is_checked_with_commit(
    store: Store,
) -> None:
    for n, text in enumerate(AWKWARD):
        await _write(store, lambda tx, n=n, text=text: tx.execute(
            "INSERT INTO probe (n, t) VALUES (?, ?)", (n, text)))
    await idle_workers(store)
    runs: list[str] = []

    def body(tx: PgConnection) -> list[Any]:
        runs.append(tx.care.name)
        seen = [tx.expects("SELECT t, n AS m FROM probe WHERE n = ?", (n,), {"t": text, "m": n})
                for n, text in enumerate(AWKWARD)]
        tx.execute("INSERT INTO probe (n) VALUES (?)", (99,))
        return seen

    await _write(store, body)  # the check and the write prepared, once in the session
    await idle_workers(store)
    before = store.round_trips
    seen = await _write(store, body)

    assert store.round_trips - before == 1  # the checks and the write, with COMMIT
    assert runs == ["TRUSTING", "TRUSTING"]  # every check held, and none missed: no text
    # was read as SQL on the way
    assert seen == [{"t": text, "m": n} for n, text in enumerate(AWKWARD)]
    assert sum(row[0] == 99 for row in await _rows(store)) == 2


async def test_a_row_that_moved_since_it_was_read_runs_the_body_again_reading_it(
    store: Store,
) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'now')"))
    runs: list[str] = []

    def body(tx: PgConnection) -> object:
        runs.append(tx.care.name)
        sql, params = "SELECT t FROM probe WHERE n = ?", (1,)
        row = tx.expects(sql, params, {"t": "as read before"})
        if row is None:  # not trusted: read now (Repository._expected)
            row = tx.execute(sql, params).fetchall()[0]
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (2, row["t"] + " again"))
        return row["t"]

    answer = await _write(store, body)

    assert answer == "now"
    assert runs == ["TRUSTING", "EXACT"]
    assert await _rows(store) == [(1, "now", None), (2, "now again", None)]  # once


async def test_a_row_expected_in_a_read_is_read(store: Store) -> None:
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n, t) VALUES (1, 'now')"))

    answer = await _engine(store).run(
        lambda tx: tx.expects("SELECT t FROM probe WHERE n = ?", (1,), {"t": "before"}),
        write=False,
    )

    assert answer is None  # a read's COMMIT checks nothing: the body reads it itself


@pytest.mark.parametrize(
    ("change", "missed"),
    [(None, False),
     ("UPDATE probe SET x = 1 WHERE n = 2", True),  # a NULL became a value
     ("INSERT INTO probe (n, t) VALUES (4, 'c')", True),  # one row more
     ("DELETE FROM probe WHERE n = 3", True)],  # one row fewer
)
async def test_rows_expected_as_read_before_are_checked_whole_with_commit(
    store: Store, change: str | None, missed: bool
) -> None:
    for n, text in ((2, None), (3, "it's")):
        await _write(store, lambda tx, n=n, text=text: tx.execute(
            "INSERT INTO probe (n, t) VALUES (?, ?)", (n, text)))
    query = "SELECT n, t, x FROM probe WHERE n > ? ORDER BY n"
    expected = [{"n": 2, "t": None, "x": None}, {"n": 3, "t": "it's", "x": None}]
    if change is not None:
        await _write(store, lambda tx: tx.execute(change))
    runs: list[tuple[str, bool]] = []

    def body(tx: PgConnection) -> None:
        trusted = tx.expects_rows(query, (1,), expected)
        runs.append((tx.care.name, trusted))
        tx.execute("INSERT INTO probe (n, t) VALUES (?, ?)", (9, "after"))

    await _write(store, body)

    assert runs == ([("TRUSTING", True), ("EXACT", False)] if missed
                    else [("TRUSTING", True)])
    assert sum(row[:2] == (9, "after") for row in await _rows(store)) == 1


async def test_no_rows_expected_is_checked_too(store: Store) -> None:
    runs: list[str] = []

    def body(tx: PgConnection) -> bool:
        runs.append(tx.care.name)
        return tx.expects_rows("SELECT n FROM probe WHERE n = ?", (1,), [])

    assert await _write(store, body) is True
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n) VALUES (1)"))
    assert await _write(store, body) is False
    assert runs == ["TRUSTING", "TRUSTING", "EXACT"]


async def test_roll_ids_reserved_while_idle_are_taken_once_and_the_next_come_after_them(
    store: Store,
) -> None:
    """The writer takes the next roll ids from the sequence in an idle moment, as many as
    IDLE_STOCK says; the next rolls stored take them in order, once each, and those
    reserved in the next idle moment come after them."""
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n) VALUES (1)"))
    await idle_workers(store)
    engine = _engine(store)
    writer = next(worker for worker in engine._workers if worker.name == "pg-write")
    reserved = list(writer.ids["rolls"])
    depth = IDLE_STOCK["rolls"]

    def body(tx: PgConnection) -> list[int | None]:
        taken = [tx.reserved_id() for _ in range(depth + 1)]
        tx.execute("INSERT INTO probe (n) VALUES (?)", (taken[0],))
        return taken

    ids = await _write(store, body)

    assert len(reserved) == depth > 1
    assert reserved == sorted(reserved)
    assert ids == [*reserved, None]  # each taken once, in order
    await idle_workers(store)
    assert len(writer.ids["rolls"]) == depth
    assert writer.ids["rolls"][0] > reserved[-1]  # the next ones, from the sequence


async def test_ids_reserved_for_a_write_take_the_stock_first_and_the_rest_in_one_round_trip(
    store: Store,
) -> None:
    """A write about to store several rows has their ids reserved together: the roll id
    reserved while idle is used first, the others come from their sequences in one
    statement; with the stock enough, nothing is sent."""
    await _write(store, lambda tx: tx.execute("INSERT INTO probe (n) VALUES (1)"))
    await idle_workers(store)
    writer = next(worker for worker in _engine(store)._workers if worker.name == "pg-write")
    stocked = writer.ids["rolls"][0]

    def body(tx: PgConnection) -> tuple[int, list[int | None], int]:
        tx.reserve({"rolls": 3, "actions": 1})
        reserving = tx.round_trips
        taken = [tx.reserved_id("rolls") for _ in range(4)] + [tx.reserved_id("actions")]
        tx.reserve({"rolls": 0})
        return reserving, taken, tx.round_trips

    reserving, taken, after = await _write(store, body)

    assert reserving == after == 1  # one statement for three ids, none for enough
    assert taken[0] == stocked
    rolls = [each for each in taken[:3] if each is not None]
    assert rolls == sorted(rolls) and len(set(rolls)) == 3  # in the order they are stored
    assert taken[3] is None  # as many as reserved
    assert taken[4] is not None


class _State(BaseModel):
    """An action's state: nothing in it."""


def _roll(tx: Tx, label: str) -> int:
    """Inside a write: store a roll labelled ``label``; its id."""
    return tx.rolls.insert(guild_id=GUILD, channel_id=CHANNEL, roller_id=ROLLER,
                           result=failure(), will_state=WillState.OFFERED, label=label).id


async def test_a_roll_stored_by_a_re_run_has_a_smaller_id_than_the_next_roll_stored(
    store: Store,
) -> None:
    """A write whose check missed runs again exactly, its roll taking the sequence's next
    id; the ids reserved before it are dropped, where the next roll took one and came
    before it by id: /history listed it as the older, and max(id) named it an action's
    newest roll."""
    await store.write(lambda tx: _roll(tx, "first"))
    await idle_workers(store)
    runs: list[str] = []

    def stale(tx: Tx) -> int:
        conn = tx.queries._conn
        assert isinstance(conn, PgConnection)
        runs.append(conn.care.name)
        conn.expects("SELECT label FROM rolls WHERE label = ?", ("first",), {"label": "stale"})
        return _roll(tx, "second")

    second = await store.write(stale)
    await idle_workers(store)
    third = await store.write(lambda tx: _roll(tx, "third"))

    assert runs == ["TRUSTING", "EXACT"]
    assert third > second


async def test_an_action_stored_unless_one_is_open_has_a_smaller_id_than_the_next_one(
    store: Store,
) -> None:
    """A teamwork's action (stored unless one is open: its INSERT names no id) takes the
    sequence's next id; the action id reserved before it is dropped, where the next
    extended action took it."""
    await store.write(lambda tx: _roll(tx, "first"))
    await idle_workers(store)

    def teamwork_started(tx: Tx) -> int:
        action = tx.actions.create(ActionKind.TEAMWORK, guild_id=GUILD, channel_id=CHANNEL,
                                   owner_id=ROLLER, label="Lift the car", state=_State(),
                                   unless_open=True)
        assert action is not None
        return action.id

    teamwork = await store.write(teamwork_started)
    await idle_workers(store)
    extended = await store.write(lambda tx: tx.actions.create(
        ActionKind.EXTENDED, guild_id=GUILD, channel_id=CHANNEL, owner_id=ROLLER,
        label="Research the cult", state=_State()).id)

    assert extended > teamwork
