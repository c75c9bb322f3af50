"""Fixtures for end-to-end tests: a fresh fake Discord per test and a bot-process starter.

A test module for the real bot adds, for example::

    @pytest.fixture
    async def bot(start_bot: StartBot) -> BotProcess:
        return await start_bot([sys.executable, "-m", "bot"])
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Mapping, Sequence
from pathlib import Path

import pytest

from tests.e2e.bot_fixtures import StartRealBot, Table, starter
from tests.e2e.harness import BotProcess, FakeDiscord, StartBot
from tests.e2e.harness.process import Zygote


@pytest.fixture
async def fake() -> AsyncIterator[FakeDiscord]:
    """A started fake Discord; the test fails at teardown if it recorded any failure."""
    server = FakeDiscord()
    await server.start()
    try:
        yield server
    finally:
        await server.stop()
    if server.failures:
        pytest.fail(
            "fake Discord recorded failures (requests the real Discord would reject):\n"
            + "\n".join(f"  {failure}" for failure in server.failures),
            pytrace=False,
        )


@pytest.fixture
async def start_bot(
    fake: FakeDiscord, tmp_path: Path, zygote: Zygote
) -> AsyncIterator[StartBot]:
    """Start bots against ``fake``; stopped, and their output printed, at teardown."""
    started: list[BotProcess] = []

    async def start(
        argv: Sequence[str],
        *,
        env_extra: Mapping[str, str] | None = None,
        dice_seed: int | None = None,
        db_path: Path | None = None,
        synced: bool = True,
    ) -> BotProcess:
        name = f"bot{len(started) + 1}"
        process = BotProcess(
            fake,
            argv,
            env_extra,
            db_path or tmp_path / f"{name}.sqlite3",
            dice_seed=dice_seed,
            name=name,
            zygote=zygote,
        )
        started.append(process)
        await process.start(synced=synced)
        return process

    yield start
    problems = []
    for process in started:
        if process.crashed:
            problems.append(f"{process!r} exited on its own")
        elif process.running and (code := await process.stop()) != 0:
            problems.append(f"{process!r} exited with {code} after SIGTERM")
        # Shown by pytest only when the test fails.
        print(process.output())
    if problems:
        pytest.fail("\n".join(problems), pytrace=False)


@pytest.fixture
def table(fake: FakeDiscord) -> Table:
    """A server with a play channel, a Storyteller channel, players and an admin."""
    return Table(fake)


@pytest.fixture
def start(start_bot: StartBot) -> StartRealBot:
    """Start ``python -m bot`` with scripted faces."""
    return starter(start_bot)
