"""Starting and stopping `python -m bot`: tokens, settings, signals, the database."""

from __future__ import annotations

import asyncio
import os
import sqlite3
from pathlib import Path

import pytest

from tests.e2e.bot_fixtures import BOT, StartRealBot, Table, ask, starter
from tests.e2e.harness import FakeDiscord, StartBot

WRONG_TOKEN = "wrong-token-0123456789-do-not-log"


async def run_bot(env: dict[str, str], cwd: Path) -> tuple[int, str, str]:
    """Run the bot to its end (it must end by itself); exit code, stdout, stderr."""
    process = await asyncio.create_subprocess_exec(
        *BOT, cwd=cwd, env=env,
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE,
    )
    async with asyncio.timeout(30):
        out, err = await process.communicate()
    assert process.returncode is not None
    return process.returncode, out.decode(), err.decode()


def clean_env(**values: str) -> dict[str, str]:
    env = {
        key: value for key, value in os.environ.items()
        if key not in {"DISCORD_TOKEN", "DATABASE_PATH", "DEV_GUILD_ID", "DICE_FACES"}
    }
    return env | values


async def test_without_a_token_the_bot_says_what_to_do_and_exits_2(tmp_path: Path) -> None:
    code, out, err = await run_bot(clean_env(), tmp_path)

    assert code == 2
    assert out == ""
    assert len(err.strip().splitlines()) == 1
    assert "DISCORD_TOKEN is not set" in err
    assert "Traceback" not in err


@pytest.mark.parametrize("log_level", ["INFO", "DEBUG"])
async def test_a_rejected_token_is_one_line_exit_2_and_never_logged(
    fake: FakeDiscord, tmp_path: Path, log_level: str
) -> None:
    env = clean_env(
        DISCORD_TOKEN=WRONG_TOKEN,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        LOG_LEVEL=log_level,
    )

    code, out, err = await run_bot(env, tmp_path)
    fake.take_failures()

    assert code == 2
    assert "Discord rejected DISCORD_TOKEN" in err.strip().splitlines()[-1], "the last word"
    assert "Traceback" not in err
    assert WRONG_TOKEN not in out + err


async def test_no_way_to_discord_is_one_clear_line_and_exit_2(tmp_path: Path) -> None:
    """A token but no network: one line saying what to check, not a 78-line traceback."""
    env = clean_env(
        DISCORD_TOKEN="x",
        DISCORD_API_BASE="http://127.0.0.1:9/api/v10",  # nothing listens on the discard port
        DISCORD_GATEWAY_URL="ws://127.0.0.1:9",
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
    )

    code, _, err = await run_bot(env, tmp_path)

    assert code == 2
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("Discord cannot be reached (")
    assert last.endswith("check this machine's network connection (and any proxy or firewall),"
                         " then start again.")


async def test_a_dev_guild_the_bot_is_not_in_is_one_line_exit_2(
    fake: FakeDiscord, tmp_path: Path
) -> None:
    """A DEV_GUILD_ID the bot is not in (not invited yet, or a channel's id pasted for the
    server's): Discord refuses its commands (404 Unknown Guild here, 403 Missing Access on
    Discord), and the start stops with one line saying what to fix, where a 40-line
    traceback ended it with exit code 1."""
    env = clean_env(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(tmp_path / "bot.sqlite3"),
        DEV_GUILD_ID="123456789012345678",
    )

    code, _, err = await run_bot(env, tmp_path)
    fake.take_failures()

    assert code == 2
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("Discord refused the commands for DEV_GUILD_ID 123456789012345678"
                           " (404 Not Found (error code: 10004): Unknown Guild): the bot is not"
                           " in that server")
    assert last.endswith("then start again.")


async def test_invalid_settings_are_named(tmp_path: Path) -> None:
    code, _, err = await run_bot(clean_env(DISCORD_TOKEN="x", DEV_GUILD_ID="my server"), tmp_path)

    assert code == 2
    assert "DEV_GUILD_ID" in err
    assert "Traceback" not in err


async def test_sigterm_closes_the_database_cleanly_and_rolls_survive_a_restart(
    fake: FakeDiscord, start_bot: StartBot, tmp_path: Path
) -> None:
    table = Table(fake)
    start: StartRealBot = starter(start_bot)
    bot = await start([8, 8])
    await ask(table.ada, table.channel, "roll", pool="2", label="kept")

    assert await bot.stop() == 0
    with sqlite3.connect(bot.db_path) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM rolls").fetchone() == (1,)
    await bot.start()
    history = await ask(table.ada, table.channel, "history")

    assert "kept" in history.text


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("postgresql://bot:hunter2@127.0.0.1:9/bot", "127.0.0.1:9"),
        ("postgresql://bot:hunter2@db.example:port/bot", "db.example"),
    ],
    ids=["unreachable", "malformed"],
)
async def test_an_unusable_database_url_is_one_line_naming_the_server_never_the_password(
    tmp_path: Path, url: str, named: str
) -> None:
    env = clean_env(DISCORD_TOKEN="x", DATABASE_URL=url)

    code, out, err = await run_bot(env, tmp_path)

    assert code != 0
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    assert last.startswith("The database cannot be used, nothing was started: ")
    assert named in last
    assert "hunter2" not in out + err


async def test_a_database_url_of_another_scheme_is_one_line_and_no_sqlite_file_is_made(
    tmp_path: Path,
) -> None:
    """A driver-qualified URL (SQLAlchemy's ``postgresql+asyncpg://``) was taken for a
    SQLite file's path: the bot started on a new empty database in a folder named after
    the URL, its password in that folder's name and in the log."""
    url = "postgresql+asyncpg://bot:hunter2@db.example/bot"
    env = clean_env(DISCORD_TOKEN="x", DATABASE_URL=url)

    code, out, err = await run_bot(env, tmp_path)

    assert code == 2
    assert "Traceback" not in err
    assert err.strip().splitlines() == [
        "Invalid settings: DATABASE_URL: Value error, a PostgreSQL URL starts with"
        " postgresql:// (not postgresql+asyncpg://): write it as"
        " postgresql://user:password@host:5432/database, or leave DATABASE_URL unset and"
        " set DATABASE_PATH for a SQLite file"
    ]
    assert "hunter2" not in out + err
    assert await asyncio.to_thread(os.listdir, tmp_path) == []


async def test_only_the_process_running_shard_0_syncs_commands(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """Two processes of one deployment (SHARD_COUNT=2): shard 1 connects as shard 1 and
    leaves the commands alone; shard 0 syncs them. Were shard 1 to sync, it would have done
    so before its IDENTIFY (setup_hook runs at login)."""
    second = {"SHARD_COUNT": "2", "SHARD_IDS": "1"}
    await start_bot(BOT, env_extra=second, synced=False)

    assert fake.gateway.identified_shards == [(1, 2)]
    assert fake.command_syncs == 0

    await start_bot(BOT, env_extra={"SHARD_COUNT": "2", "SHARD_IDS": "0"})

    assert fake.gateway.identified_shards == [(1, 2), (0, 2)]
    assert fake.command_syncs >= 1
    assert fake.find_command("roll")


@pytest.mark.parametrize("where", ["a folder", "inside a file"])
async def test_a_database_path_that_cannot_be_a_file_is_one_line_saying_how_to_set_it(
    tmp_path: Path, where: str
) -> None:
    """A DATABASE_PATH naming a folder (the data volume itself), or a path through a file,
    stops the start with one line saying what is wrong and what to set it to, exit 2,
    where it said "unable to open database file" (or "[Errno 17] File exists") and left
    a lock file beside the folder."""
    (tmp_path / "data").mkdir()
    (tmp_path / "notes").write_text("")
    path = tmp_path / "data" if where == "a folder" else tmp_path / "notes" / "bot.sqlite3"
    env = clean_env(DISCORD_TOKEN="x", DATABASE_PATH=str(path))

    code, _, err = await run_bot(env, tmp_path)

    assert code == 2
    assert "Traceback" not in err
    last = err.strip().splitlines()[-1]
    said = (f"DATABASE_PATH {path} is a folder, not a file: set it to a file in that folder"
            f" ({path / 'bot.sqlite3'}, made at the first start), then start again."
            if where == "a folder" else
            f"DATABASE_PATH {path} is inside {tmp_path / 'notes'}, which is a file, not a"
            " folder: set DATABASE_PATH to a file in a folder this user may write, then start"
            " again.")
    assert last == f"The database cannot be used, nothing was started: {said}"
    assert sorted(os.listdir(tmp_path)) == ["data", "notes"], "no lock file beside"


async def test_a_bot_ready_in_no_server_logs_the_url_that_invites_it(
    fake: FakeDiscord, start_bot: StartBot
) -> None:
    """A bot in no server (just created, never invited) answers nobody: its "Ready as … in
    0 servers" line says how to invite it, the URL README's invite step builds (its
    scopes and permissions) for this application. Here the process runs the one shard of
    two that owns none of the fake's servers, so the line says first that the other
    shard's process may hold them all."""
    empty = 1 - (fake.guild_id >> 22) % 2
    bot = await start_bot(BOT, env_extra={"SHARD_COUNT": "2", "SHARD_IDS": str(empty)},
                          synced=False)
    url = (f"https://discord.com/oauth2/authorize?client_id={fake.application_id}"
           "&scope=bot+applications.commands&permissions=274878024704")
    async with asyncio.timeout(20):
        while "in 0 servers" not in bot.stderr_path.read_text():  # noqa: ASYNC110 - a log file
            await asyncio.sleep(0.05)
    assert await bot.stop() == 0
    ready = next(line for line in bot.stderr_path.read_text().splitlines()
                 if "in 0 servers" in line)
    assert ready.endswith(f"in 0 servers (the processes of its other shards of 2 may hold"
                          f" them all; if none does): invite it to your server with {url}"
                          ' (README: "Create the Discord application and invite the bot")'), ready


async def test_a_shard_outside_the_count_is_one_line_exit_2(tmp_path: Path) -> None:
    env = clean_env(DISCORD_TOKEN="token", SHARD_COUNT="2", SHARD_IDS="0,2")

    code, out, err = await run_bot(env, tmp_path)

    assert code == 2
    assert out == ""
    assert err.strip().splitlines() == [
        "Invalid settings: SHARD_IDS: Value error, shard 2 is outside 0..1 (SHARD_COUNT=2)"
    ]


async def test_a_second_bot_on_the_same_sqlite_file_refuses_to_start(
    fake: FakeDiscord, start: StartRealBot, tmp_path: Path
) -> None:
    first = await start()
    env = clean_env(
        DISCORD_TOKEN=fake.token,
        DISCORD_API_BASE=fake.api_base,
        DISCORD_GATEWAY_URL=fake.gateway_url,
        DATABASE_PATH=str(first.db_path),
    )

    code, out, err = await run_bot(env, tmp_path)

    assert code == 2
    assert out == ""
    assert "Traceback" not in err
    assert err.strip().splitlines()[-1] == (
        f"The database cannot be used, nothing was started: {first.db_path} is in use by"
        f" another bot process (pid {first.pid}): one SQLite file serves one process. Stop"
        " that one, give this one its own DATABASE_PATH, or run several processes on"
        " PostgreSQL (DATABASE_URL)."
    )
    assert fake.gateway.identifies == 1  # the second never reached Discord
    assert first.running
