"""The bot's settings: one pydantic-settings class, read from the environment and `.env`.

Nothing is read at import time: the composition root (``bot.__main__``)
builds :class:`Settings` once and passes it on.
"""

from __future__ import annotations

from pathlib import Path
from typing import Literal

from pydantic import Field, SecretStr, field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

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
    database_url: SecretStr | None = Field(
        default=None,
        description="postgresql://user:password@host:port/database: PostgreSQL instead of the"
        " SQLite file (wins over DATABASE_PATH); needed for several processes. Never logged.",
    )
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
