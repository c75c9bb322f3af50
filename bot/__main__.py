"""Composition root: ``python -m bot``.

Builds the settings, opens the store (applying migrations), picks the dice
source and hands all three to the bot. A missing or rejected token is one
clear line and exit code 2; SIGINT and SIGTERM close the bot and the database, once
the interactions being handled are answered (:meth:`~bot.client.StorytellerBot.drain`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import sys
from pathlib import Path

import aiohttp
import discord
from pydantic import ValidationError

from bot.client import GuildSyncRefusedError, build_bot
from bot.endpoints import apply_endpoint_overrides
from bot.settings import Settings
from bot.store import Store, StoreError
from bot.store.lock import exclusive_use
from bot.store.migrations import MigrationError
from engine.faces import FaceSource, ScriptedFaces, seeded_faces, system_faces

log = logging.getLogger("bot")

LOGIN_HELP = (
    "DISCORD_TOKEN is not set: create an application at "
    "https://discord.com/developers/applications, copy its bot token into .env "
    "(see .env.example) or the environment, and start again."
)
LOGIN_REJECTED = (
    "Discord rejected DISCORD_TOKEN: copy the bot token again from the developer portal "
    "(Bot → Reset Token) into .env or the environment."
)


def unreachable(error: BaseException) -> str:
    """The one line for a start with no way to Discord (no network, a firewall, DNS)."""
    return (
        f"Discord cannot be reached ({error}): check this machine's network connection"
        " (and any proxy or firewall), then start again."
    )


def guild_refused(error: GuildSyncRefusedError) -> str:
    """The one line for a ``DEV_GUILD_ID`` whose server Discord refused the commands for."""
    return (
        f"Discord refused the commands for DEV_GUILD_ID {error.guild_id} ({error}): the bot"
        " is not in that server, was invited without the applications.commands scope, or"
        " that id is no server's. Invite the bot there with the URL of README's \"Create the"
        " Discord application and invite the bot\", or set DEV_GUILD_ID to your server's id"
        " (with Developer Mode on, right-click the server's icon → Copy Server ID), then"
        " start again."
    )


class StartupError(Exception):
    """The bot cannot run; the message tells the operator what to do."""


def _fail(message: str) -> int:
    print(message, file=sys.stderr)
    return 2


def main() -> int:
    """Start the bot; the return value is the process exit code."""
    try:
        settings = Settings()
    except ValidationError as error:
        if any(part["loc"] == ("discord_token",) for part in error.errors()):
            return _fail(LOGIN_HELP)
        problems = "; ".join(
            f"{'.'.join(map(str, part['loc'])).upper()}: {part['msg']}" for part in error.errors()
        )
        return _fail(f"Invalid settings: {problems}")
    logging.basicConfig(
        level=settings.log_level,
        format="%(asctime)s %(levelname)s %(name)s: %(message)s",
    )
    # aiosqlite's DEBUG is a line per SQL operation, from its own thread: noise, even here.
    logging.getLogger("aiosqlite").setLevel(max(logging.INFO, logging.getLogger().level))
    apply_endpoint_overrides(settings)
    try:
        return asyncio.run(run(settings))
    except KeyboardInterrupt:
        return 0
    except StartupError as error:
        # Printed once everything is closed, so it is the last line the operator sees.
        return _fail(str(error))


def dice_source(settings: Settings) -> FaceSource:
    """Scripted faces (tests), a seeded generator (demos) or the OS's randomness."""
    if settings.scripted_faces is not None:
        return ScriptedFaces(settings.scripted_faces)
    if settings.dice_seed is not None:
        return seeded_faces(settings.dice_seed)
    return system_faces()


def database_target(settings: Settings) -> Path | str:
    """``DATABASE_URL`` (PostgreSQL) when set, else the SQLite file of ``DATABASE_PATH``."""
    if settings.database_url is not None:
        return settings.database_url.get_secret_value()
    return settings.database_path


async def run(settings: Settings) -> int:
    """Run while holding the SQLite file for this process alone (PostgreSQL is shared)."""
    with contextlib.ExitStack() as held:
        if settings.database_url is None:
            try:
                held.enter_context(exclusive_use(settings.database_path))
            except StoreError as error:
                msg = f"The database cannot be used, nothing was started: {error}"
                raise StartupError(msg) from None
        return await serve(settings)


async def serve(settings: Settings) -> int:
    """Run until the bot stops or a signal asks it to; always close the database."""
    try:
        store = await Store.open(database_target(settings))
    except (MigrationError, StoreError) as error:
        msg = f"The database cannot be used, nothing was started: {error}"
        raise StartupError(msg) from None
    try:
        await store.warm()
    except StoreError as error:
        await store.close()
        msg = f"The database cannot be used, nothing was started: {error}"
        raise StartupError(msg) from None
    log.info("Store in use: %s", store.describe)
    faces = dice_source(settings)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for signum in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(signum, stop.set)
    try:
        async with build_bot(settings=settings, store=store, faces=faces) as bot:
            running = asyncio.create_task(bot.start(settings.discord_token.get_secret_value()))
            stopping = asyncio.create_task(stop.wait())
            await asyncio.wait({running, stopping}, return_when=asyncio.FIRST_COMPLETED)
            if running.done():
                stopping.cancel()
                failure = running.exception()
                if isinstance(failure, discord.LoginFailure):
                    raise StartupError(LOGIN_REJECTED) from None
                if isinstance(failure, aiohttp.ClientConnectionError | OSError):
                    raise StartupError(unreachable(failure)) from None
                if isinstance(failure, GuildSyncRefusedError):
                    raise StartupError(guild_refused(failure)) from None
                if failure is not None:
                    raise failure
                return 0
            log.info("Shutting down")
            await bot.drain()
            await bot.close()
            await running
            return 0
    finally:
        await store.close()
        log.debug("Database closed")


if __name__ == "__main__":
    sys.exit(main())
