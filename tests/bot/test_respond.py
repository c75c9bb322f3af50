"""bot.edge.respond's background edits of a message that was deleted (or never known): logged,
or, for a card that must not be lost, posted again and kept only when the flow remembers it."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any, cast

import discord

from bot.edge import respond
from bot.edge.respond import ALREADY_ACKNOWLEDGED, UNKNOWN_MESSAGE, DiscordResponder, edit_quietly
from bot.flows.reply import Edit
from bot.render.message import Message


@dataclass
class Posted:
    id: int
    deleted: bool = False

    async def delete(self) -> None:
        self.deleted = True


@dataclass
class Channel:
    posts: list[Posted] = field(default_factory=list)

    async def send(self, **_: Any) -> Posted:
        self.posts.append(Posted(950 + len(self.posts)))
        return self.posts[-1]


@dataclass
class Gone:
    """A message Discord answers with ``code`` (404) when it is edited."""

    channel: Channel
    code: int = UNKNOWN_MESSAGE
    id: int = 901

    async def edit(self, **_: Any) -> None:
        response = SimpleNamespace(status=404, reason="Not Found")
        raise discord.NotFound(cast(Any, response), {"code": self.code, "message": "Unknown"})


async def repost(gone: Gone, kept: bool | None) -> list[int]:
    """Edit ``gone`` (without a way to remember a new card when ``kept`` is None); the ids
    the flow was asked to remember."""
    asked: list[int] = []

    async def remember(message_id: int) -> bool:
        asked.append(message_id)
        assert kept is not None
        return kept

    await edit_quietly(cast(discord.PartialMessage, gone), Message(content="card"),
                       reposted=None if kept is None else remember)
    return asked


async def test_a_deleted_card_is_posted_again_and_kept_when_remembered() -> None:
    gone = Gone(Channel())
    assert await repost(gone, kept=True) == [950]
    assert [(p.id, p.deleted) for p in gone.channel.posts] == [(950, False)]


async def test_a_copy_another_took_the_place_of_is_deleted() -> None:
    """Two commands both found the card gone: the copy the store did not take is deleted, so
    the channel keeps one card."""
    gone = Gone(Channel())
    assert await repost(gone, kept=False) == [950]
    assert [(p.id, p.deleted) for p in gone.channel.posts] == [(950, True)]


async def test_other_deleted_messages_and_other_404s_are_only_logged() -> None:
    """A closed roll's card (no way to remember another) is not posted again, nor is a card
    whose channel is gone (404 Unknown Channel)."""
    gone = Gone(Channel())
    assert await repost(gone, kept=None) == []
    unknown_channel = Gone(Channel(), code=10003)
    assert await repost(unknown_channel, kept=True) == []
    assert gone.channel.posts == unknown_channel.channel.posts == []


async def edit_later(edit: Edit, channel: Channel) -> None:
    """Have a responder bring ``edit`` up to date in ``channel`` and wait for it."""
    client = SimpleNamespace(get_partial_messageable=lambda _id: channel)
    DiscordResponder(cast(discord.Interaction, SimpleNamespace(client=client))).edit_later(edit)
    await asyncio.gather(*respond._pending)


async def test_a_card_never_remembered_is_posted_and_kept_when_remembered() -> None:
    """An edit of no known message (a tracker whose card id was never saved) is one post in
    place of the edit, remembered by the flow; a copy another took the place of is deleted;
    without a way to remember it nothing is posted."""
    asked: list[int] = []

    async def remember(message_id: int) -> bool:
        asked.append(message_id)
        return len(asked) == 1

    channel = Channel()
    await edit_later(Edit(1, None, Message(content="card"), reposted=remember), channel)
    await edit_later(Edit(1, None, Message(content="card"), reposted=remember), channel)
    await edit_later(Edit(1, None, Message(content="card")), channel)
    assert asked == [950, 951]
    assert [(p.id, p.deleted) for p in channel.posts] == [(950, False), (951, True)]


@dataclass
class Retried:
    """An interaction whose answer Discord took though it answered a server error, so that
    discord.py's retry was refused as a second answer (40060); what it was asked."""

    channel: Channel = field(default_factory=Channel)
    followups: list[bool] = field(default_factory=list)
    channel_id: int = 1
    id: int = 77
    message: Any = None

    async def _refused(self, **_: Any) -> None:
        response = SimpleNamespace(status=400, reason="Bad Request")
        raise discord.HTTPException(cast(Any, response), {
            "code": ALREADY_ACKNOWLEDGED, "message": "Interaction has already been acknowledged."})

    async def _follow(self, *, ephemeral: bool, **_: Any) -> None:
        self.followups.append(ephemeral)

    async def original_response(self) -> Posted:
        return Posted(940)

    @property
    def response(self) -> Any:
        return SimpleNamespace(is_done=lambda: False, send_message=self._refused,
                               edit_message=self._refused)

    @property
    def followup(self) -> Any:
        return SimpleNamespace(send=self._follow)

    @property
    def client(self) -> Any:
        return SimpleNamespace(get_partial_messageable=lambda _id: self.channel)


async def test_an_answer_discord_took_though_it_failed_is_not_posted_again() -> None:
    """discord.py retries an answer Discord met with a server error; when the first try was
    taken, the retry is refused as a second answer (40060): the answer shows, so it is not
    posted in the channel too (the table saw the roll twice). Its id is read back to be
    remembered, and what follows it follows it; a press's update is likewise done."""
    interaction = Retried()
    responder = DiscordResponder(cast(discord.Interaction, interaction))

    assert await responder.respond(Message(content="roll"), ephemeral=False) == 940
    assert responder.answered()
    await responder.followup(Message(content="Will spent"), ephemeral=True)
    assert interaction.channel.posts == []
    assert interaction.followups == [True]

    pressed = Retried()
    await DiscordResponder(cast(discord.Interaction, pressed)).update(Message(content="roll"))
    assert pressed.channel.posts == []
