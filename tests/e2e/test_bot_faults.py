"""Faults through the real bot: killed under load, a locked or read-only database, a full disk.

- SIGKILL while members are rolling and continuing extended actions: after a
  restart every roll the bot acknowledged is in /history, every extended
  action counts exactly the rolls stored for it (none of those answered
  lost), the file passes ``PRAGMA integrity_check``, and buttons posted before
  the crash (a roll's Spend Will, an extended card's Roll) still work.
- The database locked by another program (its ``BEGIN EXCLUSIVE``), read-only
  (the file's mode; as root, which ignores modes, ``chattr +i``), or unable to
  grow as on a full disk (the bot's file-size limit lowered with ``prlimit``:
  the kernel refuses the write and SQLite reports SQLITE_IOERR_WRITE; a true
  ENOSPC, SQLITE_FULL, is provoked in tests/store/test_store_faults.py): the
  member gets a clear ephemeral message within Discord's 3 s, nothing is
  stored, reading goes on, and once the fault is gone the bot writes again
  (a read-only file after a restart: SQLite opened it read-only).
- Discord refusing the answer itself after the roll was made (the interaction
  expired): the roll is posted in the channel instead and kept with its message,
  and a press Discord will not answer edits the pressed message directly.

The long version of the crash proof (several kills under heavier load) is
marked ``slow``: ``python -m pytest -m slow tests/e2e/test_bot_faults.py``.
"""

from __future__ import annotations

import array
import asyncio
import contextlib
import fcntl
import json
import os
import resource
import sqlite3
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from bot.render.messages import STOPPING, STORE_BUSY, STORE_FAILED, STORE_READ_ONLY
from tests.e2e.bot_fixtures import BOT, StartRealBot, Table, ask
from tests.e2e.db_probe import integrity, messages_remembered, query, table_state
from tests.e2e.harness import BotProcess, FakeDiscord, Interaction, Member, StartBot

#: Rolls kept in flight during the crash proof.
IN_FLIGHT = 8


def logged(bot: BotProcess) -> str:
    return bot.stderr_path.read_text(errors="replace")


# --- killed under load ----------------------------------------------------------------------

#: Extended actions continued during the load (in a `v20` channel, where a roll of ten dice
#: practically never stops an action for a decision).
TASKS = 3


@dataclass(frozen=True)
class Sent:
    """One command of the load: a labelled roll, or a roll of an extended action."""

    member: Member
    label: str
    extended: bool
    interaction: Interaction


@dataclass
class Load:
    """Members rolling labelled rolls and continuing extended actions, ``IN_FLIGHT`` at a
    time, until stopped."""

    fake: FakeDiscord
    table: Table
    players: list[Member]
    sent: list[Sent] = field(default_factory=list)
    #: Where this bot run's commands begin in ``sent`` (a killed run's stay unanswered).
    run_start: int = 0

    def acknowledged(self, *, extended: bool = False) -> list[Sent]:
        return [s for s in self.sent if s.interaction.acked and s.extended == extended]

    def in_flight(self) -> int:
        return sum(not s.interaction.acked for s in self.sent[self.run_start :])

    async def run(self) -> None:
        self.run_start = len(self.sent)
        while True:
            number = len(self.sent)
            extended = number % 4 == 3
            if extended:  # the owner of task n continues it
                task = number // 4 % TASKS
                member, channel, label = self.players[task], self.table.other, f"task {task}"
                command = member.slash(channel, "extended roll", label=label)
            else:
                rolls = sum(not s.extended for s in self.sent)
                member, label = self.players[rolls % len(self.players)], f"load {number}"
                pool = str(1 + number % 9)
                command = member.slash(self.table.channel, "roll", pool=pool, label=label)
            try:
                sent = await command
            except (ConnectionResetError, RuntimeError):
                return  # the bot is gone (killed): there is no one to deliver it to
            self.sent.append(Sent(member, label, extended, sent))
            await self.fake.wait_until(
                lambda: self.in_flight() < IN_FLIGHT, timeout=10, what="a free slot"
            )


@contextlib.asynccontextmanager
async def loading(load: Load) -> AsyncIterator[None]:
    task = asyncio.create_task(load.run())
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task


async def kill_under_load(fake: FakeDiscord, bot: BotProcess, load: Load, acks: int) -> None:
    """Let the load run until ``acks`` more rolls are answered, then SIGKILL the bot."""
    target = len(load.acknowledged()) + acks
    async with loading(load):
        await fake.wait_until(
            lambda: len(load.acknowledged()) >= target, timeout=30, what=f"{target} answered rolls"
        )
        # SIGKILL is sent before the loader can stop: commands are still in flight.
        await bot.kill()


async def assert_every_acknowledged_roll_is_in_history(table: Table, load: Load) -> None:
    for player in load.players:
        history = await ask(table.storyteller, table.channel, "history", count=100, member=player)
        missing = [
            s.label for s in load.acknowledged()
            if s.member is player and f"“{s.label}”" not in history.text
        ]
        assert not missing, (missing, history.text)


def extended_actions(db_path: Path) -> dict[str, tuple[int, int, list[int]]]:
    """label → (rolls counted by the action, its total, the successes of its stored rolls)."""
    actions = query(db_path, "SELECT id, label, state_json FROM actions WHERE kind = 'extended'")
    found = {}
    for action_id, label, document in actions:
        state = json.loads(str(document))["state"]
        rolls = query(db_path, "SELECT result_json FROM rolls WHERE action_id = ?", action_id)
        successes = [int(json.loads(str(result))["successes"]) for (result,) in rolls]
        found[str(label)] = (int(state["rolls"]), int(state["total"]), successes)
    return found


async def assert_every_extended_action_is_intact(table: Table, load: Load, bot: BotProcess) -> None:
    actions = extended_actions(bot.db_path)
    listed = await ask(table.storyteller, table.other, "extended list")
    for task in range(TASKS):
        label = f"task {task}"
        rolls, total, successes = actions[label]
        answered = sum(s.label == label for s in load.acknowledged(extended=True))
        assert rolls == len(successes), (label, "the action counts exactly its stored rolls")
        assert total == sum(successes), (label, "its progress is the sum of its rolls")
        assert rolls >= answered, (label, "every answered roll was kept")
        assert label in listed.text


async def crash_and_recover(
    fake: FakeDiscord, table: Table, start_bot: StartBot, *, kills: int, acks: int, players: int
) -> None:
    """``kills`` times: roll and continue extended actions under load, SIGKILL after ``acks``
    more answered rolls, restart, check. /history shows one message per member (about ten
    rolls, each with its link), so ``players`` share the rolls: a handful each."""
    bot = await start_bot(BOT, dice_seed=7)
    load = Load(fake, table, [fake.add_member(f"Player {n}") for n in range(players)])
    await ask(table.admin, table.other, "config ruleset", ruleset="v20")
    for task in range(TASKS):
        await ask(
            load.players[task], table.other, "extended start",
            pool="10", target=1000, label=f"task {task}",
        )
    card = await ask(table.bob, table.other, "extended start", pool="10", target=1000)
    await ask(table.bob, table.channel, "will set", max=3)
    kept = await ask(table.bob, table.channel, "roll", pool="3", label="before the crash")

    for _ in range(kills):
        await kill_under_load(fake, bot, load, acks)
        assert load.in_flight() > 0, "the kill interrupted commands in flight"
        assert integrity(bot.db_path) == [("ok",)]
        await bot.start()
        await assert_every_acknowledged_roll_is_in_history(table, load)
        await assert_every_extended_action_is_intact(table, load, bot)

    assert load.acknowledged(extended=True), "extended actions were continued under load"
    press = await table.bob.click(kept, label="Spend Will")
    assert (await press.ack()).name == "UPDATE_MESSAGE"
    await kept.wait_for(lambda message: "Willpower (spent after the roll)" in message.text)
    assert "Will 2/3" in (await ask(table.bob, table.channel, "will show")).text
    continued = await (await table.bob.click(card, label="Roll")).reply()
    assert not continued.ephemeral, continued.text
    assert integrity(bot.db_path) == [("ok",)]


async def test_a_bot_killed_under_load_keeps_every_answered_roll_and_its_old_buttons_work(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    await crash_and_recover(fake, table, start_bot, kills=1, acks=30, players=8)


@pytest.fixture
def asked_for_slow(request: pytest.FixtureRequest) -> None:
    """Long proofs run only when a marker expression selected them (``-m slow``), not in
    every test run (``-m "not slow"`` deselects them before this is asked)."""
    if not request.config.option.markexpr:
        pytest.skip("a long proof: run it with -m slow")


@pytest.mark.slow
@pytest.mark.usefixtures("asked_for_slow")
async def test_a_bot_killed_again_and_again_under_load_loses_no_answered_roll(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    await crash_and_recover(fake, table, start_bot, kills=10, acks=100, players=200)


# --- locked ---------------------------------------------------------------------------------


@contextlib.contextmanager
def locked_by_another_program(db_path: Path) -> Iterator[None]:
    """Another program's connection holding the database's write lock."""
    other = sqlite3.connect(db_path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_locked_database_is_answered_in_time_and_the_bot_writes_once_it_is_free(
    table: Table, start: StartRealBot
) -> None:
    # Ada's roll 3 4 (a failure); later her Will spend draws 9 9 2 and Bob's roll 8 8.
    bot = await start([3, 4, 9, 9, 2, 8, 8])
    await ask(table.ada, table.channel, "will set", max=3)
    roll = await ask(table.ada, table.channel, "roll", pool="2")
    await messages_remembered(bot.db_path)
    before = table_state(bot.db_path)

    with locked_by_another_program(bot.db_path):
        refused = await asyncio.gather(
            ask(table.bob, table.channel, "roll", pool="2"),
            ask(table.ada, table.channel, "will rest"),
        )
        press = await (await table.ada.click(roll, label="Spend Will")).reply()
        history = await ask(table.ada, table.channel, "history")
        during = table_state(bot.db_path)

    assert [reply.text for reply in [*refused, press]] == [STORE_BUSY] * 3
    assert all(reply.ephemeral for reply in [*refused, press])
    assert roll.edits == 0
    assert during == before
    assert "#1" in history.text, "reading goes on while the database is locked"
    assert "SQLITE_BUSY" in logged(bot)
    assert "Traceback" not in logged(bot)

    spent = await table.ada.click(roll, label="Spend Will")
    assert (await spent.ack()).name == "UPDATE_MESSAGE"
    assert "2 successes" in (await ask(table.bob, table.channel, "roll", pool="2")).text
    assert "Will 2/3" in (await ask(table.ada, table.channel, "will show")).text


# --- read-only ------------------------------------------------------------------------------

FS_IOC_GETFLAGS = 0x80086601
FS_IOC_SETFLAGS = 0x40086602
FS_IMMUTABLE_FL = 0x10


def _set_immutable(path: Path, *, on: bool) -> None:
    """Linux's immutable attribute (``chattr +i``): not even root may open the file to write."""
    fd = os.open(path, os.O_RDONLY)
    try:
        flags = array.array("i", [0])  # the kernel reads and writes an int
        fcntl.ioctl(fd, FS_IOC_GETFLAGS, flags, True)
        flags[0] = flags[0] | FS_IMMUTABLE_FL if on else flags[0] & ~FS_IMMUTABLE_FL
        fcntl.ioctl(fd, FS_IOC_SETFLAGS, flags, True)
    finally:
        os.close(fd)


@contextlib.contextmanager
def read_only_file(path: Path) -> Iterator[None]:
    """The database file may be read but not opened for writing, so SQLite opens it
    read-only. Root ignores file modes, so as root the file is made immutable instead."""
    if os.geteuid() != 0:
        path.chmod(0o444)
        try:
            yield
        finally:
            path.chmod(0o644)
        return
    try:
        _set_immutable(path, on=True)
    except OSError as error:
        pytest.skip(f"running as root on a file system without chattr +i: {error}")
    try:
        yield
    finally:
        _set_immutable(path, on=False)


async def test_a_read_only_database_is_answered_clearly_and_reading_goes_on(
    fake: FakeDiscord, table: Table, start_bot: StartBot
) -> None:
    bot = await start_bot(BOT, env_extra={"DICE_FACES": "3 4 8 8"})
    await ask(table.ada, table.channel, "will set", max=3)
    roll = await ask(table.ada, table.channel, "roll", pool="2", label="kept")
    await messages_remembered(bot.db_path)
    assert await bot.stop() == 0
    before = table_state(bot.db_path)

    with read_only_file(bot.db_path):
        # A write that fails has drawn its dice already (a roll, a Will spend): 5 faces.
        bot.env_extra["DICE_FACES"] = "5 5 5 5 5"
        await bot.start()
        refused = [
            await ask(table.bob, table.channel, "roll", pool="2"),
            await ask(table.ada, table.channel, "will set", max=5),
            await (await table.ada.click(roll, label="Spend Will")).reply(),
        ]
        history = await ask(table.ada, table.channel, "history")
        shown = await ask(table.ada, table.channel, "will show")
        assert await bot.stop() == 0

    assert [reply.text for reply in refused] == [STORE_READ_ONLY] * 3
    assert all(reply.ephemeral for reply in refused)
    assert table_state(bot.db_path) == before
    assert "“kept”" in history.text, "reading goes on"
    assert "Will 3/3" in shown.text
    assert "SQLITE_READONLY" in logged(bot)
    assert "Traceback" not in logged(bot)

    bot.env_extra["DICE_FACES"] = "8 8"
    await bot.start()
    assert "2 successes" in (await ask(table.bob, table.channel, "roll", pool="2")).text


# --- full disk ------------------------------------------------------------------------------


def file_size(path: Path) -> int:
    return path.stat().st_size


@contextlib.contextmanager
def file_size_limit(pid: int, limit: int) -> Iterator[None]:
    """The process may not grow any file beyond ``limit`` bytes (RLIMIT_FSIZE), as when
    its disk or quota is full: the kernel refuses the write (EFBIG), and SQLite reports
    SQLITE_IOERR_WRITE. (A true ENOSPC is SQLITE_FULL: tests/store/test_store_faults.py.)"""
    soft, hard = resource.prlimit(pid, resource.RLIMIT_FSIZE)
    resource.prlimit(pid, resource.RLIMIT_FSIZE, (limit, hard))
    try:
        yield
    finally:
        resource.prlimit(pid, resource.RLIMIT_FSIZE, (soft, hard))


@pytest.mark.skipif(not hasattr(resource, "prlimit"), reason="needs Linux prlimit")
async def test_a_database_that_cannot_grow_is_answered_clearly_and_writes_resume_with_room(
    table: Table, start: StartRealBot
) -> None:
    # Ada's roll 3 4; the roll and the Will spend that fail draw 5 5 and 5 5 5 (their
    # dice are drawn before the write that fails); then Ada's Will 9 9 2 and Bob's 8 8.
    bot = await start([3, 4, 5, 5, 5, 5, 5, 9, 9, 2, 8, 8])
    await ask(table.ada, table.channel, "will set", max=3)
    roll = await ask(table.ada, table.channel, "roll", pool="2")
    await messages_remembered(bot.db_path)
    before = table_state(bot.db_path)
    # The write-ahead log grows with every change; the bot's own log must stay writable.
    wal = file_size(Path(f"{bot.db_path}-wal"))
    assert wal > file_size(bot.stderr_path) + 10_000
    assert bot.pid is not None

    with file_size_limit(bot.pid, wal):
        refused = [
            await ask(table.bob, table.channel, "roll", pool="2"),
            await (await table.ada.click(roll, label="Spend Will")).reply(),
            await ask(table.ada, table.channel, "will rest"),
        ]
        shown = await ask(table.ada, table.channel, "will show")

    assert [reply.text for reply in refused] == [STORE_FAILED] * 3
    assert all(reply.ephemeral for reply in refused)
    assert table_state(bot.db_path) == before
    assert "Will 3/3" in shown.text, "reading goes on"
    assert "SQLITE_IOERR_WRITE" in logged(bot)
    assert "Traceback" not in logged(bot)

    spent = await table.ada.click(roll, label="Spend Will")
    assert (await spent.ack()).name == "UPDATE_MESSAGE"
    assert "2 successes" in (await ask(table.bob, table.channel, "roll", pool="2")).text
    assert integrity(bot.db_path) == [("ok",)]


# --- Discord takes no answer ------------------------------------------------------------------


async def test_a_roll_discord_takes_no_answer_for_is_posted_in_the_channel_and_kept(
    fake: FakeDiscord, table: Table, start: StartRealBot
) -> None:
    """Never a lost roll: when Discord refuses the answer to a roll the bot has made (here,
    10062 Unknown interaction), the roll is posted in the channel as a message; its
    message is remembered (its buttons work as any roll's), and a Spend Will that Discord
    will not answer either still shows on the roll's message."""
    # Ada's roll 3 4 (a failure); her Will 9 9 2.
    bot = await start([3, 4, 9, 9, 2])
    await ask(table.ada, table.channel, "will set", max=3)
    fake.ack_deadline = 0.0  # from now on every answer comes too late for Discord

    await table.ada.slash(table.channel, "roll", pool="2", label="door")
    posted = await fake.wait_for_message(table.channel, lambda m: "door" in m.text)
    assert not posted.ephemeral
    assert "Failure" in posted.text
    await table.ada.click(posted, label="Spend Will")
    await fake.wait_until(lambda: "2 successes" in posted.text, what="the Will's roll shown")

    await messages_remembered(bot.db_path)
    assert query(bot.db_path, "SELECT message_id FROM rolls WHERE label = 'door'") == [
        (posted.id,)]
    fake.take_failures()  # the answers Discord refused, provoked on purpose
    assert "Traceback" not in logged(bot)


# --- stopped in the middle of an interaction ---------------------------------------------------


async def until_logged(bot: BotProcess, text: str) -> None:
    """Wait (up to 5 s) until the bot's log holds ``text``: the log is no state of the fake
    that its waits could watch."""
    for _ in range(100):
        if text in logged(bot):
            return
        await asyncio.sleep(0.05)
    pytest.fail(f"the bot never logged {text!r}")


async def test_a_roll_being_made_as_the_bot_is_stopped_is_answered_before_it_stops(
    table: Table, start: StartRealBot
) -> None:
    """Never a lost roll, at a restart: SIGTERM while a roll is being made (its write
    waiting on a database another program holds) lets it finish and be answered before
    the connection closes, where it was cut (no answer, a traceback) or kept and never
    shown; a command that comes meanwhile is told the bot is stopping and does nothing."""
    bot = await start([3, 4, 8, 8])
    await ask(table.ada, table.channel, "roll", pool="2", label="warm")
    with locked_by_another_program(bot.db_path):
        made = await table.ada.slash(table.channel, "roll", pool="2", label="door")
        await asyncio.sleep(0.3)  # the bot has it, its write waits on the lock
        stopped = asyncio.create_task(bot.stop())
        await until_logged(bot, "Shutting down")
        late = await ask(table.bob, table.channel, "roll", pool="2", label="late")
    answer = await made.reply()

    assert await stopped == 0
    assert "door" in answer.text
    assert not answer.ephemeral
    assert late.ephemeral
    assert late.text == STOPPING
    assert query(bot.db_path, "SELECT label FROM rolls ORDER BY id") == [("warm",), ("door",)]
    assert "Traceback" not in logged(bot)
