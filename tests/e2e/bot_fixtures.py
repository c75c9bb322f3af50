"""Shared pieces of the real bot's end-to-end tests: the table and a bot with scripted dice."""

from __future__ import annotations

import sys
from collections.abc import Awaitable, Callable, Sequence

import discord

from tests.e2e.harness import BotProcess, Channel, FakeDiscord, Member, Message, StartBot

BOT = [sys.executable, "-m", "bot"]

ADMIN = discord.Permissions(manage_guild=True, manage_channels=True).value
STORYTELLER = discord.Permissions(manage_channels=True).value

StartRealBot = Callable[..., Awaitable[BotProcess]]


def faces(values: Sequence[int]) -> dict[str, str]:
    """The environment that makes the bot draw exactly these faces, in order."""
    return {"DICE_FACES": " ".join(str(value) for value in values)}


def starter(start_bot: StartBot) -> StartRealBot:
    """Start ``python -m bot`` with scripted faces (none: the dice must not be drawn)."""

    async def start(dice: Sequence[int] = (), **kwargs: object) -> BotProcess:
        return await start_bot(BOT, env_extra=faces(dice) if dice else None, **kwargs)

    return start


class Table:
    """A server with a play channel, a Storyteller channel, players and an admin."""

    def __init__(self, fake: FakeDiscord) -> None:
        self.fake = fake
        self.channel: Channel = fake.add_channel("table")
        self.other: Channel = fake.add_channel("other-table")
        self.st_channel: Channel = fake.add_channel("storyteller")
        self.ada: Member = fake.add_member("Ada")
        self.bob: Member = fake.add_member("Bob")
        self.admin: Member = fake.add_member("Admin", permissions=ADMIN)
        self.storyteller: Member = fake.add_member("Storyteller", permissions=STORYTELLER)


async def ask(member: Member, channel: Channel, path: str, /, **options: object) -> Message:
    """Use a slash command and wait for its reply."""
    return await (await member.slash(channel, path, **options)).reply()
