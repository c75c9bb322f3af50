"""A real SQLite file per test, and roll results built from engine models directly."""

from __future__ import annotations

import asyncio
import threading
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from datetime import date
from pathlib import Path

import asyncpg
import pytest

from bot.store import Store, Tx
from bot.store.greenlets import wait
from bot.store.repository import Viewer
from bot.store.saved import SavedRollRepository
from bot.store.settings import SettingsRepository
from bot.store.stats import StatsRepository, samples_of
from bot.store.will import WillRepository
from engine.models import (
    Breakdown,
    Die,
    DieKind,
    Fate,
    Outcome,
    RollRequest,
    RollResult,
    Ruleset,
    Term,
    WillUse,
)
from engine.records import RollRecord, WillPool, WillState
from engine.refusals import Refusal, RefusalCode
from engine.saved import SavedRoll
from engine.stats import Part, Sample

GUILD = 1_000_000_000_000_000_001
CHANNEL = 2_000_000_000_000_000_002
OTHER_CHANNEL = 2_000_000_000_000_000_003
ROLLER = 3_000_000_000_000_000_003
OTHER = 3_000_000_000_000_000_004
STORYTELLER = 3_000_000_000_000_000_005


@pytest.fixture
def db_path(tmp_path: Path) -> Path:
    return tmp_path / "data" / "bot.sqlite3"


@pytest.fixture
async def store(store_target: Path | str) -> AsyncIterator[Store]:
    """The store on each backend (tests/conftest.py): a new SQLite file (``db_path``) or
    a new PostgreSQL database."""
    opened = await Store.open(store_target)
    yield opened
    await opened.close()


def failure(*, will: WillUse = WillUse.NONE) -> RollResult:
    """`cofd` Strength 2 + Brawl 1, faces 3 1 7: a failure."""
    request = RollRequest(
        ruleset=Ruleset.COFD,
        terms=(Term(label="Strength", value=2), Term(label="Brawl", value=1)),
        will=will is WillUse.DECLARED,
    )
    return RollResult(
        request=request,
        outcome=Outcome.FAILURE,
        dice=tuple(
            Die(face=face, round=0, kind=DieKind.POOL, fate=Fate.FAILURE) for face in (3, 1, 7)
        ),
        breakdown=Breakdown(terms=request.terms, dice=3),
        will=will,
    )


def success() -> RollResult:
    """`cofd` pool 2, faces 8 10 · 4: a success with an explosion."""
    request = RollRequest(ruleset=Ruleset.COFD, terms=(Term(value=2),))
    return RollResult(
        request=request,
        outcome=Outcome.SUCCESS,
        successes=2,
        dice_successes=2,
        dice=(
            Die(face=8, round=0, kind=DieKind.POOL, fate=Fate.SUCCESS, successes=1),
            Die(
                face=10,
                round=0,
                kind=DieKind.POOL,
                fate=Fate.SUCCESS,
                successes=1,
                explodes=True,
            ),
            Die(face=4, round=1, kind=DieKind.EXTRA, fate=Fate.FAILURE),
        ),
        breakdown=Breakdown(terms=request.terms, dice=2),
    )


def refused() -> RollResult:
    """A request the engine refused: nothing was rolled."""
    request = RollRequest(ruleset=Ruleset.FISTFUL, terms=(Term(value=2), Term(value=-2)))
    return RollResult(
        request=request, outcome=Outcome.REFUSED,
        refusal=Refusal.of(RefusalCode.NO_ACTION_NOW, pool=0),
    )


def with_will(result: RollResult) -> RollResult:
    """The failure re-read with Will spent after it: three more dice, one success."""
    added = (
        Die(face=9, round=0, kind=DieKind.WILL, fate=Fate.SUCCESS, successes=1),
        Die(face=2, round=0, kind=DieKind.WILL, fate=Fate.FAILURE),
        Die(face=5, round=0, kind=DieKind.WILL, fate=Fate.FAILURE),
    )
    return result.model_copy(
        update={
            "will": WillUse.AFTER,
            "outcome": Outcome.SUCCESS,
            "successes": 1,
            "dice_successes": 1,
            "dice": result.dice + added,
        }
    )


def with_beat(result: RollResult) -> RollResult:
    """The failure turned into a dramatic failure by Take a Beat."""
    return result.model_copy(update={"outcome": Outcome.DRAMATIC_FAILURE, "beat": True})


async def roll(
    store: Store,
    *,
    result: RollResult | None = None,
    roller_id: int = ROLLER,
    channel_id: int = CHANNEL,
    guild_id: int = GUILD,
    will_state: WillState = WillState.OFFERED,
    label: str | None = "force the door",
    private: bool = False,
    roller_name: str = "Roller",
) -> int:
    """Insert a roll in its own write; its id."""
    record = await store.write(
        lambda tx: tx.rolls.insert(
            guild_id=guild_id,
            channel_id=channel_id,
            roller_id=roller_id,
            roller_name=roller_name,
            result=failure() if result is None else result,
            will_state=will_state,
            label=label,
            private=private,
        )
    )
    return record.id


async def get_roll(store: Store, roll_id: int) -> RollRecord:
    """A stored roll, read in its own read (the test fails when it is missing)."""
    record = await store.read(lambda tx: tx.rolls.get(roll_id))
    assert record is not None
    return record


def track_will(
    tx: Tx, user_id: int = ROLLER, maximum: int = 5, current: int | None = None
) -> WillPool:
    """Inside a write: track the member's Will pool (full unless ``current`` is given)."""
    new = WillPool(
        guild_id=GUILD,
        user_id=user_id,
        current=maximum if current is None else current,
        maximum=maximum,
    )
    if not tx.will.save(tx.will.get(GUILD, user_id), new):
        msg = "the pool changed during the write"
        raise AssertionError(msg)
    return new


def beats(tx: Tx, user_id: int = ROLLER) -> int:
    """Inside a read: the member's Beats, as /will reads them."""
    return tx.queries.one(WillRepository.member_query(GUILD, user_id))[1]


def saved_named(tx: Tx, guild_id: int, user_id: int, name: str) -> SavedRoll | None:
    """Inside a read: a member's saved roll by name, as /saved roll reads it."""
    return tx.queries.one(SavedRollRepository.get_query(guild_id, user_id, name))


def samples(tx: Tx, parts: Sequence[Part], *, since: date | None = None,
            ruleset: Ruleset | None = None) -> list[Sample]:
    """Inside a read: every ruleset's counters over ``parts`` (one to three, each
    counting for anyone), as /stats reads them beside the settings."""
    _, rows = tx.queries.beside_rows(
        SettingsRepository.config_query(GUILD, CHANNEL, None),
        StatsRepository.samples_query(Viewer(GUILD, 0, storyteller=False),
                                      [(part, None) for part in parts],
                                      since=since, ruleset=ruleset),
    )
    return samples_of(rows)


def will_pools(tx: Tx, guild_id: int = GUILD) -> list[WillPool]:
    """Inside a read: every tracked Will pool of the server, as /night reads them."""
    return tx.will.pools_beside(SettingsRepository.config_query(guild_id, CHANNEL, None),
                                guild_id)[1]


def saved_count(tx: Tx, guild_id: int, user_id: int) -> int:
    """Inside a read: how many saved rolls a member keeps, as saving one reads it."""
    return tx.queries.one(SavedRollRepository.standing_query(guild_id, user_id, "")).count


async def idle_workers(store: Store) -> None:
    """Until every PostgreSQL worker that served a transaction has begun its next one
    (they do it when their queue is empty, as between a table's commands)."""
    engine = store._engine  # type: ignore[attr-defined]
    for _ in range(500):
        if all(w.primed or w._conn is None for w in engine._workers):
            return
        await asyncio.sleep(0.002)
    raise AssertionError("the workers never began their next transaction")


#: Seconds a body held open waits before giving up (a failing test).
BLOCKED = 5.0


async def warm(store: Store) -> None:
    """On PostgreSQL, every worker connected (``Store.warm``, as at start-up), then until
    every worker has begun its next transaction: the round trips counted next are those
    of a bot that has served for a while."""
    await store.warm()
    await idle_workers(store)


def hold_until(flag: threading.Event) -> bool:
    """Hold a transaction's body open until ``flag`` is set (False after
    :data:`BLOCKED` seconds). On SQLite the body runs in the database's thread, which may
    block; on PostgreSQL it runs in a greenlet on the event loop (bot.store.greenlets),
    which must go on serving the test meanwhile."""
    try:
        asyncio.get_running_loop()
    except RuntimeError:  # the database's thread (SQLite): no loop runs there
        return flag.wait(BLOCKED)
    deadline = time.monotonic() + BLOCKED
    while not flag.is_set():
        if time.monotonic() > deadline:
            return False
        wait(asyncio.sleep(0.001))
    return True


#: Names whose keys' order by code point (``ørjan`` and ``łukasz`` after ``zoe``) is not a
#: language's (each beside its letter: ``lara, łukasz, olga, ørjan, pia, zoe``).
CODE_POINT_NAMES = ("Pia", "Ørjan", "Olga", "Zoë", "Łukasz", "Lara")
#: Those names in code-point order of their keys, as both stores list them.
CODE_POINT_ORDER = ["Lara", "Olga", "Pia", "Zoë", "Ørjan", "Łukasz"]


@asynccontextmanager
async def names_compared_as_a_language(target: Path | str) -> AsyncIterator[None]:
    """On PostgreSQL, the name keys of sheets and saved rolls compared as a language
    orders them (ICU's root collation), as on a server whose collation is a language's
    (compose.yaml's postgres image: en_US), where the tests' own server's is C; back to
    the database's own afterwards. SQLite (a path) has no such order: nothing to do."""
    if isinstance(target, Path):
        yield
        return
    tables = ("characters", "saved_rolls")
    conn = await asyncpg.connect(target)
    try:
        for table in tables:
            await conn.execute(
                f'ALTER TABLE {table} ALTER COLUMN name_key TYPE TEXT COLLATE "und-x-icu"'
            )
        yield
    finally:
        for table in tables:
            await conn.execute(
                f'ALTER TABLE {table} ALTER COLUMN name_key TYPE TEXT COLLATE "default"'
            )
        await conn.close()
