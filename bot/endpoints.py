"""Point discord.py at another Discord (the local fake the end-to-end tests run).

discord.py keeps its REST base and its gateway URL as class attributes; this
is the one place that changes them, and only when a test-only setting asks.
"""

from __future__ import annotations

import logging

import yarl
from discord.gateway import DiscordWebSocket
from discord.http import Route

from bot.settings import Settings

log = logging.getLogger(__name__)


def apply_endpoint_overrides(settings: Settings) -> None:
    """Use the test-only API base and gateway URL when they are set."""
    if settings.discord_api_base:
        Route.BASE = settings.discord_api_base.rstrip("/")
        log.warning("Using Discord API base %s (test override)", Route.BASE)
    if settings.discord_gateway_url:
        DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(settings.discord_gateway_url)
        log.warning("Using Discord gateway %s (test override)", settings.discord_gateway_url)
