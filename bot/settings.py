"""The bot's settings: one pydantic-settings class, read from the environment and `.env`.

Nothing is read at import time: the composition root (``bot.__main__``)
builds :class:`Settings` once and passes it on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Literal

from pydantic import Field, SecretStr, ValidationInfo, field_validator
from pydantic_settings import BaseSettings, NoDecode, SettingsConfigDict

from engine.constants import SIDES


class Settings(BaseSettings):
    """Every setting the bot reads; `.env.example` lists them with comments."""

    model_config = SettingsConfigDict(
        env_file=".env", env_file_encoding="utf-8", env_ignore_empty=True, extra="ignore"
    )

    discord_token: SecretStr = Field(
        description="The bot token from the Discord developer portal (required)."
    )
    database_path: Path = Field(
        default=Path("data/bot.sqlite3"),
        description="SQLite file holding every table's state; its folder is created if missing.",
    )

    @field_validator("database_path")
    @classmethod
    def _home(cls, value: Path) -> Path:
        """``~`` is the home folder, as the admin who wrote it in `.env` (where no shell
        expands it) meant, not a folder named ``~`` in whatever folder the bot runs in."""
        return value.expanduser()

    database_url: SecretStr | None = Field(
        default=None,
        description="postgresql://user:password@host:port/database: PostgreSQL instead of the"
        " SQLite file (wins over DATABASE_PATH); needed for several processes. Never logged.",
    )
    @field_validator("database_url", mode="before")
    @classmethod
    def _postgres_url(cls, value: object) -> object:
        """A PostgreSQL URL, its surrounding blanks dropped; refused otherwise, naming only
        what comes before ``://`` (never the password). Without this, any other text (a
        driver-qualified ``postgresql+asyncpg://``, a pasted blank) was taken for the
        SQLite file's path: a folder named after the URL, its password in the log, and no
        lock against a second process."""
        if not isinstance(value, str):
            return value
        value = value.strip()
        scheme, separator, _ = value.partition("://")
        if separator and scheme.lower() in {"postgresql", "postgres"}:
            return value
        given = f"not {scheme}://" if separator and scheme.isascii() and len(scheme) <= 30 else (
            "not this"
        )
        msg = (
            f"a PostgreSQL URL starts with postgresql:// ({given}): write it as"
            " postgresql://user:password@host:5432/database, or leave DATABASE_URL unset"
            " and set DATABASE_PATH for a SQLite file"
        )
        raise ValueError(msg)

    shard_count: int | None = Field(
        default=None,
        ge=1,
        description="Shards across every process; unset runs one unsharded connection.",
    )
    shard_ids: Annotated[tuple[int, ...] | None, NoDecode] = Field(
        default=None,
        description="This process's shards, comma-separated (e.g. '0,1'), each from 0 to"
        " SHARD_COUNT-1; unset with SHARD_COUNT set runs every shard here.",
    )

    @field_validator("shard_ids", mode="before")
    @classmethod
    def _split_shards(cls, value: object) -> object:
        if isinstance(value, str):
            parts = [part.strip() for part in value.split(",")]
            if not all(part.isdigit() for part in parts):
                msg = f"shard ids are whole numbers separated by commas, e.g. '0,1', not {value!r}"
                raise ValueError(msg)
            return tuple(int(part) for part in parts)
        return value

    @field_validator("shard_ids")
    @classmethod
    def _shards_within_count(
        cls, value: tuple[int, ...] | None, info: ValidationInfo
    ) -> tuple[int, ...] | None:
        if value is None or "shard_count" not in info.data:  # a bad SHARD_COUNT is said alone
            return value
        count: int | None = info.data["shard_count"]
        if count is None:
            msg = "SHARD_IDS needs SHARD_COUNT, the number of shards across every process"
            raise ValueError(msg)
        if outside := sorted({shard for shard in value if not 0 <= shard < count}):
            msg = (
                f"shard {', '.join(map(str, outside))} is outside 0..{count - 1}"
                f" (SHARD_COUNT={count})"
            )
            raise ValueError(msg)
        if twice := sorted({shard for shard in value if value.count(shard) > 1}):
            msg = f"shard {', '.join(map(str, twice))} is listed more than once"
            raise ValueError(msg)
        return value

    @property
    def sharded(self) -> bool:
        """Whether this process runs shards (``SHARD_COUNT`` set)."""
        return self.shard_count is not None

    @property
    def syncs_commands(self) -> bool:
        """Only the process running shard 0 (or an unsharded one) syncs commands: one
        sync per deployment, not one per process."""
        return self.shard_ids is None or 0 in self.shard_ids

    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this server at start-up (development)."
    )
    sync_commands: bool = Field(
        default=False, description="Sync commands globally at start-up (after a command change)."
    )
    log_level: Literal["DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"] = Field(
        default="INFO", description="Python logging level."
    )

    @field_validator("log_level", mode="before")
    @classmethod
    def _level(cls, value: object) -> object:
        return value.upper() if isinstance(value, str) else value
    dice_seed: int | None = Field(
        default=None,
        description="Seed the dice for reproducible demos and tests; unset means OS randomness.",
    )
    dice_faces: str | None = Field(
        default=None,
        description="Test only: scripted faces, e.g. '3 8 10 1', drawn in order (then an error).",
    )

    @field_validator("dice_faces")
    @classmethod
    def _faces(cls, value: str | None) -> str | None:
        if value is not None:
            faces = value.replace(",", " ").split()
            if not all(face.isdigit() and 1 <= int(face) <= SIDES for face in faces):
                msg = f"faces are whole numbers from 1 to {SIDES}, separated by spaces"
                raise ValueError(msg)
        return value

    @property
    def scripted_faces(self) -> list[int] | None:
        """``dice_faces`` as numbers, when set."""
        if self.dice_faces is None:
            return None
        return [int(face) for face in self.dice_faces.replace(",", " ").split()]

    discord_api_base: str | None = Field(
        default=None, description="Test only: the Discord REST base URL (a local fake Discord)."
    )
    discord_gateway_url: str | None = Field(
        default=None, description="Test only: the Discord gateway URL (a local fake Discord)."
    )
