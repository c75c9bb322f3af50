"""The bot's settings: one pydantic-settings class, read from the environment and `.env`.

Nothing is read at import time: the composition root (``bot.__main__``)
builds :class:`Settings` once and passes it on.
"""

from __future__ import annotations

from pathlib import Path

from pydantic import Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict


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
    dev_guild_id: int | None = Field(
        default=None, description="Sync commands to this server at start-up (development)."
    )
    sync_commands: bool = Field(
        default=False, description="Sync commands globally at start-up (after a command change)."
    )
    log_level: str = Field(default="INFO", description="Python logging level.")
    dice_seed: int | None = Field(
        default=None,
        description="Seed the dice for reproducible demos and tests; unset means OS randomness.",
    )
    discord_api_base: str | None = Field(
        default=None, description="Test only: the Discord REST base URL (a local fake Discord)."
    )
    discord_gateway_url: str | None = Field(
        default=None, description="Test only: the Discord gateway URL (a local fake Discord)."
    )
