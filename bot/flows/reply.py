"""What a flow answers, and how an answer is delivered through any responder.

A flow returns a :class:`Reply`: the message that answers the interaction,
what follows it, messages for other channels, messages elsewhere to bring up
to date, and the flow's last step once the answer is sent (remember its
message id). :func:`deliver` carries it out through a :class:`Responder`: the
edge's speaks to Discord, the tests' records. A flow that refuses raises
:class:`UserError` with the words from render, and nothing was changed.

A flow that returns a reply has done its work: its write is committed. So once the
answer is shown, nothing after it (a follow-up, the Storyteller's copy, remembering
the message id, an edit) can undo it or make the member think it was undone: each of
those steps that fails is logged and the rest still run. An answer that cannot be
shown raises :class:`AnswerLostError` once the rest of the reply is delivered: a secret
roll whose answer Discord refused still gets its public notice and the Storyteller's
copy, and its closed rolls lose their buttons. Its words say the work may be done when
the flow changed something (a write of its committed); a flow that only read (/stats,
/history, /help) changed nothing, and the member may simply ask again.
"""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Protocol, TypeVar

import discord
from discord import app_commands

from bot.render.message import Message
from bot.store import watching_writes

log = logging.getLogger(__name__)
_T = TypeVar("_T")


class UserError(app_commands.AppCommandError):
    """Bad input or a move the rules refuse: the message tells the member what to do
    instead. Nothing was changed."""


class AnswerLostError(Exception):
    """The flow did its work, but Discord took no answer to the interaction: the member
    must not be told that nothing changed (a roll may have been made and kept), unless
    the flow only read (``changed`` False)."""

    def __init__(self, message: str, *, changed: bool = True) -> None:
        super().__init__(message)
        self.changed = changed


@dataclass(frozen=True, slots=True)
class Post:
    """A message sent to another channel (the Storyteller's copy of a secret roll)."""

    channel_id: int
    message: Message
    failed: Message | None = None
    """Told to the member alone when the post cannot be made."""


@dataclass(frozen=True, slots=True)
class Edit:
    """A message elsewhere brought up to date in the background (a closed roll loses its
    buttons): the member's answer does not wait for it, and a message that cannot be
    edited any more is only logged (the store already refuses its buttons)."""

    channel_id: int
    message_id: int | None
    """None: no message is known (a card whose id was never remembered); only with
    ``reposted``, and then the message is posted rather than edited."""
    message: Message
    reposted: Callable[[int], Awaitable[bool]] | None = field(default=None, compare=False)
    """For a card that must not be lost (an open initiative tracker's, an extended action's
    still to be played): when its message was deleted, or none is known, the message is
    posted afresh in the channel and this remembers the new one's id; False (the new one
    is deleted) when another post took its place first."""


@dataclass(frozen=True, slots=True)
class Sent:
    """What delivering a reply produced: the answer's message id (None for an update in
    place or an ephemeral answer Discord does not id) and each post's id (None: failed)."""

    message_id: int | None
    posts: tuple[int | None, ...] = ()


@dataclass(frozen=True, slots=True)
class Reply:
    """A flow's whole answer."""

    message: Message | None = None
    ephemeral: bool = False
    update: bool = False
    """Update the pressed message in place instead of sending a new one."""
    modal: discord.ui.Modal | None = None
    """Open a form instead of answering with a message."""
    followups: tuple[tuple[Message, bool], ...] = ()
    """(message, ephemeral) sent after the answer."""
    posts: tuple[Post, ...] = ()
    edits: tuple[Edit, ...] = ()
    sent: Callable[[Sent], Awaitable[None]] | None = field(default=None, compare=False)
    """The flow's last step, once the answer is sent (remember its message id)."""


def say(text: str, *, ephemeral: bool = True) -> Reply:
    """A reply of one sentence (ephemeral unless said otherwise)."""
    return Reply(message=Message(content=text), ephemeral=ephemeral)


class Responder(Protocol):
    """Where a reply goes: Discord at the edge, a recording in the tests."""

    def answered(self) -> bool:
        """Whether the interaction already has its answer."""
        ...

    async def respond(self, message: Message, *, ephemeral: bool) -> int | None:
        """Answer the interaction with a new message; its id when Discord gives one."""
        ...

    async def update(self, message: Message) -> None:
        """Answer a button press by updating the pressed message."""
        ...

    async def open_modal(self, modal: discord.ui.Modal) -> None:
        """Answer by opening a form."""
        ...

    async def followup(self, message: Message, *, ephemeral: bool) -> None:
        """Send another message after the answer."""
        ...

    async def post(self, channel_id: int, message: Message) -> int | None:
        """Send a message to another channel; None when it cannot be posted there."""
        ...

    def edit_later(self, edit: Edit) -> None:
        """Bring another message up to date in the background."""
        ...


async def deliver(reply: Reply, responder: Responder, *, changed: bool = True) -> Sent:
    """Carry a reply out: the answer, its follow-ups, posts, the flow's last step, edits.

    Only the answer's failure propagates (as :class:`AnswerLostError` once a flow's reply
    has a message), after every later step was tried: the work is done, so what tells the
    table of it (a secret roll's notice and copy) and what closes what it closed still go
    out; every later step is on its own (see the module's docstring). ``changed``: whether
    the flow changed something (the lost answer's words).
    """
    message_id: int | None = None
    lost: Exception | None = None
    if reply.modal is not None:
        await responder.open_modal(reply.modal)
    elif reply.message is not None:
        try:
            if reply.update:
                await responder.update(reply.message)
            elif responder.answered():
                await responder.followup(reply.message, ephemeral=reply.ephemeral)
            else:
                message_id = await responder.respond(reply.message, ephemeral=reply.ephemeral)
        except Exception as error:
            lost = error
    for message, ephemeral in reply.followups:
        await _after("a follow-up", responder.followup(message, ephemeral=ephemeral))
    posted: list[int | None] = []
    for post in reply.posts:
        posted_id = await _after("a post", responder.post(post.channel_id, post.message))
        if posted_id is None and post.failed is not None:
            await _after("a follow-up", responder.followup(post.failed, ephemeral=True))
        posted.append(posted_id)
    sent = Sent(message_id=message_id, posts=tuple(posted))
    if reply.sent is not None:
        await _after("the flow's last step", reply.sent(sent))
    for edit in reply.edits:
        responder.edit_later(edit)
    if lost is not None:
        raise AnswerLostError(str(lost), changed=changed) from lost
    return sent


async def _after(step: str, action: Awaitable[_T]) -> _T | None:
    """A step after the answer: its failure is logged, never the member's problem."""
    try:
        return await action
    except discord.HTTPException as error:
        log.warning("The answer was sent, but %s failed: %s", step, error)
    except Exception:
        log.exception("The answer was sent, but %s failed", step)
    return None


async def refuse(error: UserError, responder: Responder) -> None:
    """Answer a refusal to the member alone, whether or not the interaction was answered."""
    message = Message(content=str(error))
    if responder.answered():
        await responder.followup(message, ephemeral=True)
    else:
        await responder.respond(message, ephemeral=True)


async def run(flow: Awaitable[Reply], responder: Responder) -> Sent | None:
    """Run a flow and deliver its reply; a refusal is answered to the member alone.

    Other exceptions propagate: the edge's one error path answers them. Whether the flow
    changed something is whether a write of its committed (its reply's last step, after
    the answer, does not count).
    """
    try:
        with watching_writes() as writes:
            reply = await flow
    except UserError as error:
        await refuse(error, responder)
        return None
    return await deliver(reply, responder, changed=writes.committed)
