"""compose.yaml and the Dockerfile: the bot processes and PostgreSQL agree with the settings
the bot reads, and `.env.example` leaves the image's own settings to it."""

from __future__ import annotations

from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

import yaml

from bot.settings import Settings

ROOT = Path(__file__).resolve().parents[2]


def compose() -> dict[str, Any]:
    document: dict[str, Any] = yaml.safe_load((ROOT / "compose.yaml").read_text())
    return document


def bots() -> dict[str, dict[str, Any]]:
    """The services built from this repository's Dockerfile."""
    return {name: service for name, service in compose()["services"].items() if "build" in service}


def example_keys() -> set[str]:
    lines = (ROOT / ".env.example").read_text().splitlines()
    return {
        line.split("=", 1)[0]
        for line in lines
        if "=" in line and not line.lstrip().startswith("#")
    }


def test_every_bot_environment_key_is_a_setting_of_env_example() -> None:
    keys = example_keys()

    assert bots()
    for name, service in bots().items():
        assert service["env_file"] == ".env"
        assert set(service["environment"]) <= keys, name


def test_the_bots_share_the_postgres_service_and_split_the_shards() -> None:
    services = compose()["services"]
    shards: list[int] = []
    counts: set[int | None] = set()
    for service in bots().values():
        assert "postgres" in service["depends_on"]
        settings = Settings(  # type: ignore[call-arg]
            _env_file=None,
            discord_token="token",
            **{key.lower(): value for key, value in service["environment"].items()},
        )
        assert settings.database_url is not None
        url = urlsplit(settings.database_url.get_secret_value())
        assert (url.scheme, url.hostname, url.port) == ("postgresql", "postgres", 5432)
        assert settings.shard_ids is not None
        shards.extend(settings.shard_ids)
        counts.add(settings.shard_count)

    assert "postgres" in services
    (count,) = counts
    assert sorted(shards) == list(range(count or 0))  # every shard run exactly once


def test_postgres_keeps_its_data_in_a_named_volume() -> None:
    document = compose()
    mounts = [volume.split(":", 1) for volume in document["services"]["postgres"]["volumes"]]

    assert ["postgres-data", "/var/lib/postgresql/data"] in mounts
    assert "postgres-data" in document["volumes"]


def image_environment() -> set[str]:
    """The keys the Dockerfile's ``ENV`` instructions set (continued lines joined)."""
    text = (ROOT / "Dockerfile").read_text().replace("\\\n", " ")
    return {
        pair.split("=", 1)[0]
        for line in text.splitlines()
        if line.startswith("ENV ")
        for pair in line.removeprefix("ENV ").split()
    }


def test_env_example_sets_no_setting_the_image_sets() -> None:
    """README's `docker run --env-file .env` passes every key of `.env` (a copy of
    `.env.example`) into the container, over the image's own ``ENV``: a `DATABASE_PATH`
    there put the SQLite file at /app/data, a folder the image's user cannot create (so
    the bot did not start) and off the /data volume (so the state would not outlive the
    container). The example leaves such a setting commented out, its default named."""
    settings = {name.upper() for name in Settings.model_fields}
    image = image_environment() & settings

    assert "DATABASE_PATH" in image
    assert image.isdisjoint(example_keys())
    assert "# DATABASE_PATH=data/bot.sqlite3" in (ROOT / ".env.example").read_text()
