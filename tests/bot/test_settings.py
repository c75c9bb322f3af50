"""The sharding settings (SHARD_COUNT and SHARD_IDS) and DATABASE_URL, refused when they
cannot be right; DATABASE_PATH read as the admin who wrote it meant it."""

from __future__ import annotations

from pathlib import Path

import pytest
from pydantic import ValidationError

from bot.settings import Settings


def settings(**env: str) -> Settings:
    """Settings from these environment variables only (no `.env`)."""
    with pytest.MonkeyPatch.context() as patch:
        for key in ("SHARD_COUNT", "SHARD_IDS", "DATABASE_URL", "DATABASE_PATH"):
            patch.delenv(key, raising=False)
        for key, value in env.items():
            patch.setenv(key, value)
        return Settings(_env_file=None, discord_token="token")  # type: ignore[call-arg]


def refusal(**env: str) -> str:
    with pytest.raises(ValidationError) as caught:
        settings(**env)
    (error,) = caught.value.errors()
    return f"{'.'.join(map(str, error['loc'])).upper()}: {error['msg']}"


def test_unsharded_by_default_and_it_syncs() -> None:
    unsharded = settings()

    assert (unsharded.shard_count, unsharded.shard_ids) == (None, None)
    assert not unsharded.sharded
    assert unsharded.syncs_commands


def test_shard_ids_are_read_comma_separated() -> None:
    both = settings(SHARD_COUNT="4", SHARD_IDS="0, 3")

    assert both.sharded
    assert (both.shard_count, both.shard_ids) == (4, (0, 3))


@pytest.mark.parametrize(
    ("env", "syncs"),
    [
        ({"SHARD_COUNT": "2"}, True),  # every shard in this process, 0 included
        ({"SHARD_COUNT": "2", "SHARD_IDS": "0"}, True),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "2,0"}, True),
        ({"SHARD_COUNT": "2", "SHARD_IDS": "1"}, False),
        ({"SHARD_COUNT": "3", "SHARD_IDS": "1,2"}, False),
    ],
)
def test_only_the_process_running_shard_0_syncs(env: dict[str, str], syncs: bool) -> None:
    assert settings(**env).syncs_commands is syncs


def test_an_id_outside_the_count_is_refused() -> None:
    message = refusal(SHARD_COUNT="2", SHARD_IDS="1,2")

    assert message.startswith("SHARD_IDS:")
    assert "shard 2 is outside 0..1 (SHARD_COUNT=2)" in message


def test_an_id_listed_twice_is_refused() -> None:
    assert "shard 1 is listed more than once" in refusal(SHARD_COUNT="3", SHARD_IDS="1,0,1")


def test_shard_ids_without_a_count_are_refused() -> None:
    assert "SHARD_IDS needs SHARD_COUNT" in refusal(SHARD_IDS="0")


@pytest.mark.parametrize("ids", ["a", "1;2", "-1", "1,,2"])
def test_shard_ids_that_are_not_numbers_are_refused(ids: str) -> None:
    assert "whole numbers separated by commas" in refusal(SHARD_COUNT="2", SHARD_IDS=ids)


@pytest.mark.parametrize("count", ["0", "-2"])
def test_a_count_below_one_is_refused(count: str) -> None:
    assert refusal(SHARD_COUNT=count).startswith("SHARD_COUNT:")


@pytest.mark.parametrize(
    "url",
    [
        "postgresql://bot:hunter2@db.example:5432/bot",
        "postgres://bot:hunter2@db.example/bot",
        "PostgreSQL://bot:hunter2@db.example/bot",
        "  postgresql://bot:hunter2@db.example/bot\n",
    ],
)
def test_a_postgresql_url_is_taken_in_any_case_without_its_surrounding_blanks(url: str) -> None:
    """asyncpg reads the scheme in any case; a blank pasted around the URL is no part of it."""
    taken = settings(DATABASE_URL=url).database_url

    assert taken is not None
    assert taken.get_secret_value() == url.strip()


@pytest.mark.parametrize(
    ("url", "named"),
    [
        ("postgresql+asyncpg://bot:hunter2@db.example/bot", "not postgresql+asyncpg://"),
        ("mysql://bot:hunter2@db.example/bot", "not mysql://"),
        ("bot:hunter2@db.example/bot", "not this"),
        ("data/bot.sqlite3", "not this"),
    ],
)
def test_a_database_url_that_is_no_postgresql_url_is_refused_never_quoting_it(
    url: str, named: str
) -> None:
    """Any other text was taken for the SQLite file's path: the bot started on a new
    SQLite file in a folder named after the URL (its password in the log), with no lock
    against a second process. It is refused, naming no more than the scheme."""
    message = refusal(DATABASE_URL=url)

    assert message.startswith("DATABASE_URL: Value error, a PostgreSQL URL starts with"
                              f" postgresql:// ({named}): ")
    assert "DATABASE_PATH" in message
    assert "hunter2" not in message


def test_a_database_path_in_the_home_folder_is_read_as_the_home_folder() -> None:
    """`.env` is read by no shell, so `DATABASE_PATH=~/tables/bot.sqlite3` reached the
    bot as written: it made a folder named `~` wherever it was started (a new, empty
    database in another folder) while the log said "SQLite file ~/tables/bot.sqlite3"."""
    taken = settings(DATABASE_PATH="~/tables/bot.sqlite3").database_path

    assert taken == Path.home() / "tables" / "bot.sqlite3"
    assert settings().database_path == Path("data/bot.sqlite3")
