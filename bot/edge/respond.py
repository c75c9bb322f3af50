"""The responder that speaks to Discord: a flow's :class:`~bot.flows.reply.Reply` → API calls."""

from __future__ import annotations

import asyncio
import io
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Final

import discord

from bot.flows.reply import Edit
from bot.render.message import Message

log = logging.getLogger(__name__)

#: Discord's error code for a message that no longer exists (deleted).
UNKNOWN_MESSAGE: Final = 10008
#: Discord's error code for an interaction answered already: what a retry of an answer
#: gets when the first try was taken though Discord answered it with a server error.
ALREADY_ACKNOWLEDGED: Final = 40060
#: Background message edits, kept referenced until they finish.
_pending: set[asyncio.Task[None]] = set()


def _kwargs(message: Message) -> dict[str, Any]:
    """send/edit keyword arguments for a message (only what it has)."""
    kwargs: dict[str, Any] = {}
    if message.content is not None:
        kwargs["content"] = message.content
    if message.embed is not None:
        kwargs["embed"] = message.embed
    if message.view is not None:
        kwargs["view"] = message.view
    if message.file is not None:
        kwargs["file"] = discord.File(io.BytesIO(message.file.data), filename=message.file.name)
    return kwargs


def pending_edits() -> frozenset[asyncio.Task[None]]:
    """The background edits not finished yet (a stopping bot lets them end)."""
    return frozenset(_pending)


def _spawn(coroutine: Coroutine[Any, Any, None]) -> None:
    task = asyncio.get_running_loop().create_task(coroutine)
    _pending.add(task)
    task.add_done_callback(_pending.discard)


class DiscordResponder:
    """Delivers replies through one interaction (and the bot's REST client)."""

    def __init__(self, interaction: discord.Interaction) -> None:
        self._interaction = interaction
        self._taken = False
        """Discord took the answer though discord.py saw it fail (:meth:`_took`)."""

    def answered(self) -> bool:
        return self._taken or self._interaction.response.is_done()

    async def respond(self, message: Message, *, ephemeral: bool) -> int | None:
        """Answer; a public answer Discord will not take (the interaction expired, a
        server error) is posted in the channel instead, so a roll is never unseen."""
        try:
            sent = await self._interaction.response.send_message(
                **_kwargs(message), ephemeral=ephemeral
            )
        except discord.HTTPException as error:
            if error.code == ALREADY_ACKNOWLEDGED:
                self._took(error)
                return None if ephemeral else await self._answer_id()
            channel_id = self._interaction.channel_id
            if ephemeral or channel_id is None or self.answered():
                raise
            log.warning("Could not answer interaction %s (%s): posting the answer instead",
                        self._interaction.id, error)
            posted = await self.post(channel_id, message)
            if posted is None:
                raise
            return posted
        return sent.message_id

    async def update(self, message: Message) -> None:
        """Update the pressed message; one whose press Discord will not answer any more is
        edited directly, so what was done shows."""
        kwargs = _kwargs(message)
        # An update replaces the buttons too: a message without them loses them.
        kwargs.setdefault("view", None)
        try:
            await self._interaction.response.edit_message(**kwargs)
        except discord.HTTPException as error:
            if error.code == ALREADY_ACKNOWLEDGED:
                self._took(error)
                return
            pressed = self._interaction.message
            if pressed is None or pressed.flags.ephemeral or self.answered():
                raise
            log.warning("Could not answer press %s (%s): editing the message instead",
                        self._interaction.id, error)
            await pressed.edit(**kwargs)

    def _took(self, error: discord.HTTPException) -> None:
        """The answer shows: discord.py retried it after a server error (5xx) Discord gave
        for a try it had taken, and the retry was refused as a second answer. It is not
        sent again (the table saw a roll twice, the second one posted in the channel)."""
        self._taken = True
        log.warning("Discord took the answer to interaction %s though it failed: %s",
                    self._interaction.id, error)

    async def _answer_id(self) -> int | None:
        """The id of the answer Discord took (:meth:`_took`), read back to be remembered;
        None when it cannot be read."""
        try:
            return (await self._interaction.original_response()).id
        except discord.HTTPException as error:
            log.warning("Could not read the answer to interaction %s: %s",
                        self._interaction.id, error)
            return None

    async def defer(self, *, ephemeral: bool) -> None:
        """Acknowledge now, before a flow that may take longer than Discord's 3 seconds (an
        export of a long roll log); the answer then comes as the first follow-up."""
        await self._interaction.response.defer(ephemeral=ephemeral, thinking=True)

    async def open_modal(self, modal: discord.ui.Modal) -> None:
        await self._interaction.response.send_modal(modal)

    async def followup(self, message: Message, *, ephemeral: bool) -> None:
        """Follow the answer; when Discord took no answer (see :meth:`respond`), there is
        nothing to follow: a public message is posted in the channel, a private one lost."""
        channel_id = self._interaction.channel_id
        if self.answered() or channel_id is None:
            await self._interaction.followup.send(**_kwargs(message), ephemeral=ephemeral)
        elif ephemeral:
            log.warning("Interaction %s was never answered: a private follow-up is lost",
                        self._interaction.id)
        else:
            await self.post(channel_id, message)

    async def post(self, channel_id: int, message: Message) -> int | None:
        channel = self._interaction.client.get_partial_messageable(channel_id)
        try:
            sent = await channel.send(**_kwargs(message))
        except discord.HTTPException as error:
            log.warning("Could not post to channel %s: %s", channel_id, error)
            return None
        return sent.id

    def edit_later(self, edit: Edit) -> None:
        channel = self._interaction.client.get_partial_messageable(edit.channel_id)
        if edit.message_id is None:  # a card never remembered: posted, as if deleted
            if edit.reposted is not None:
                _spawn(_repost(channel, None, edit.message, edit.reposted))
            return
        _spawn(edit_quietly(channel.get_partial_message(edit.message_id), edit.message,
                            reposted=edit.reposted))


async def edit_quietly(
    message: discord.PartialMessage, content: Message, *,
    reposted: Callable[[int], Awaitable[bool]] | None = None,
) -> None:
    """Edit a message the interaction did not answer with; a deleted one is only logged,
    unless it is a card that must not be lost (``reposted``, see
    :attr:`~bot.flows.reply.Edit.reposted`): that one is posted afresh in its channel."""
    kwargs = _kwargs(content)
    kwargs.setdefault("view", None)
    try:
        await message.edit(**kwargs)
    except discord.NotFound as error:
        if reposted is None or error.code != UNKNOWN_MESSAGE:
            log.info("Could not update message %s: %s", message.id, error)
            return
        await _repost(message.channel, message.id, content, reposted)
    except discord.HTTPException as error:
        log.info("Could not update message %s: %s", message.id, error)


async def _repost(
    channel: discord.abc.Messageable, gone: int | None, content: Message,
    reposted: Callable[[int], Awaitable[bool]],
) -> None:
    """Post a card again in ``channel`` (in place of the deleted message ``gone``, or of none
    remembered) and have it remembered; a post that another took the place of first (or
    that cannot be remembered) is deleted, so one card stays."""
    try:
        posted = await channel.send(**_kwargs(content))
    except discord.HTTPException as error:
        log.warning("Card %s could not be posted again: %s", gone, error)
        return
    try:
        kept = await reposted(posted.id)
    except Exception:
        log.exception("Card %s was posted again as %s but not remembered", gone, posted.id)
        kept = False
    if kept:
        log.info("Card %s was posted again as %s", gone, posted.id)
        return
    try:
        await posted.delete()
    except discord.HTTPException as error:
        log.info("Could not delete the spare copy %s of card %s: %s", posted.id, gone, error)
