"""State objects shared by the fake Discord and the driver.

Every mutable object here is a *live view*: the fake mutates it in place and calls
:meth:`Changes.notify`, so a test can hold a :class:`Message` or :class:`Interaction`
and await a condition on it instead of sleeping.
"""

# The harness API takes explicit per-call timeouts (`await inter.reply(timeout=5)`) so every
# expectation states its own bound; asyncio.timeout() is used inside.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from .driver import Member

JSON = dict[str, Any]
T = TypeVar("T")

DISCORD_EPOCH_MS = 1_420_070_400_000

# Channel types (https://discord.com/developers/docs/resources/channel#channel-object-channel-types).
TEXT_CHANNEL = 0
CATEGORY_CHANNEL = 4
PUBLIC_THREAD = 11

# Message flags.
FLAG_SUPPRESS_EMBEDS = 1 << 2
FLAG_EPHEMERAL = 1 << 6
FLAG_LOADING = 1 << 7
FLAG_SUPPRESS_NOTIFICATIONS = 1 << 12
FLAG_COMPONENTS_V2 = 1 << 15

# Permission bits the fake itself reasons about.
PERM_ADMINISTRATOR = 1 << 3
PERM_ADD_REACTIONS = 1 << 6
PERM_VIEW_CHANNEL = 1 << 10
PERM_SEND_MESSAGES = 1 << 11
PERM_EMBED_LINKS = 1 << 14
PERM_ATTACH_FILES = 1 << 15
PERM_READ_MESSAGE_HISTORY = 1 << 16
PERM_USE_EXTERNAL_EMOJIS = 1 << 18
PERM_USE_APPLICATION_COMMANDS = 1 << 31
PERM_CREATE_PUBLIC_THREADS = 1 << 35
PERM_SEND_MESSAGES_IN_THREADS = 1 << 38
# Discord answers "every bit" for administrators; unknown high bits are harmless to clients.
ALL_PERMISSIONS = (1 << 53) - 1

CALLBACK_NAMES = {
    1: "PONG",
    4: "CHANNEL_MESSAGE_WITH_SOURCE",
    5: "DEFERRED_CHANNEL_MESSAGE_WITH_SOURCE",
    6: "DEFERRED_UPDATE_MESSAGE",
    7: "UPDATE_MESSAGE",
    8: "APPLICATION_COMMAND_AUTOCOMPLETE_RESULT",
    9: "MODAL",
}
INTERACTION_NAMES = {
    2: "APPLICATION_COMMAND",
    3: "MESSAGE_COMPONENT",
    4: "AUTOCOMPLETE",
    5: "MODAL_SUBMIT",
}


def utc_now_iso() -> str:
    return datetime.now(UTC).isoformat()


class Snowflakes:
    """Strictly increasing snowflakes whose timestamp part is the current time."""

    def __init__(self) -> None:
        self._last = 0

    def next(self) -> int:
        stamp = (int(time.time() * 1000) - DISCORD_EPOCH_MS) << 22
        self._last = max(self._last + 1, stamp)
        return self._last

    def next_on_shard(self, shard_id: int, shard_count: int) -> int:
        """The next snowflake that, as a guild id, Discord routes to this shard: the one
        with ``(id >> 22) % shard_count == shard_id`` (the timestamp moved on if need be)."""
        candidate = self.next()
        offset = (shard_id - (candidate >> 22)) % shard_count
        if offset:
            candidate = ((candidate >> 22) + offset) << 22
            self._last = candidate
        return candidate


class Changes:
    """Wake-up hub for awaited expectations.

    ``notify`` is synchronous (callable from anywhere on the loop); ``wait_until`` re-probes
    the state after every notification. Guards run on each probe so that a dead bot
    process fails the wait at once instead of after the timeout; context hooks add
    diagnostics (recorded failures, bot output) to timeout errors.
    """

    def __init__(self) -> None:
        self._event = asyncio.Event()
        self._guards: list[Callable[[], None]] = []
        self._contexts: list[Callable[[], str]] = []

    def notify(self) -> None:
        self._event.set()
        self._event = asyncio.Event()

    def add_guard(self, guard: Callable[[], None]) -> None:
        self._guards.append(guard)

    def discard_guard(self, guard: Callable[[], None]) -> None:
        if guard in self._guards:
            self._guards.remove(guard)

    def add_context(self, context: Callable[[], str]) -> None:
        self._contexts.append(context)

    def context(self) -> str:
        return "\n".join(text for text in (hook() for hook in self._contexts) if text)

    async def wait_until(
        self,
        probe: Callable[[], T | None],
        timeout: float,
        what: str | Callable[[], str],
    ) -> T:
        """Return the first non-None result of ``probe``; AssertionError after ``timeout``."""
        try:
            async with asyncio.timeout(timeout):
                while True:
                    event = self._event
                    for guard in list(self._guards):
                        guard()
                    result = probe()
                    if result is not None:
                        return result
                    await event.wait()
        except TimeoutError:
            description = what() if callable(what) else what
            extra = self.context()
            raise AssertionError(
                f"timed out after {timeout}s waiting for {description}"
                + (f"\n{extra}" if extra else "")
            ) from None


@dataclass(eq=False)
class Role:
    id: int
    name: str
    permissions: int
    position: int
    managed: bool = False
    bot_id: int | None = None

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "name": self.name,
            "permissions": str(self.permissions),
            "position": self.position,
            "color": 0,
            "colors": {"primary_color": 0, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }
        if self.bot_id is not None:
            data["tags"] = {"bot_id": str(self.bot_id)}
        return data


@dataclass(eq=False)
class Channel:
    id: int
    name: str
    type: int
    guild_id: int
    position: int
    parent_id: int | None = None
    owner_id: int | None = None
    created_at: str = field(default_factory=utc_now_iso)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_thread(self) -> bool:
        return self.type == PUBLIC_THREAD

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "guild_id": str(self.guild_id),
            "name": self.name,
            "parent_id": None if self.parent_id is None else str(self.parent_id),
            "nsfw": False,
            "flags": 0,
        }
        if self.is_thread:
            data |= {
                "owner_id": str(self.owner_id),
                "last_message_id": None,
                "rate_limit_per_user": 0,
                "message_count": 0,
                "member_count": 1,
                "total_message_sent": 0,
                "thread_metadata": {
                    "archived": False,
                    "auto_archive_duration": 1440,
                    "archive_timestamp": self.created_at,
                    "locked": False,
                    "create_timestamp": self.created_at,
                },
            }
        else:
            data |= {"position": self.position, "permission_overwrites": []}
            if self.type == TEXT_CHANNEL:
                data |= {"topic": None, "last_message_id": None, "rate_limit_per_user": 0}
        return data


@dataclass(eq=False)
class Attachment:
    id: int
    filename: str
    content_type: str
    data: bytes
    url: str

    @property
    def size(self) -> int:
        return len(self.data)

    def payload(self) -> JSON:
        return {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
        }


def walk_components(components: list[JSON]) -> list[JSON]:
    """Depth-first list of every component, including those nested in rows/containers."""
    found: list[JSON] = []
    for component in components:
        found.append(component)
        found.extend(walk_components(component.get("components", [])))
        for key in ("accessory", "component"):
            if key in component:
                found.extend(walk_components([component[key]]))
    return found


@dataclass(eq=False)
class Message:
    """The latest state of one message, updated in place by the fake."""

    changes: Changes
    id: int
    channel_id: int
    guild_id: int
    author: JSON
    content: str = ""
    embeds: list[JSON] = field(default_factory=list)
    components: list[JSON] = field(default_factory=list)
    flags: int = 0
    attachments: list[Attachment] = field(default_factory=list)
    allowed_mentions: JSON | None = None
    """As sent with the message's last write (None when the bot sent none)."""
    ephemeral_to: int | None = None
    interaction: Interaction | None = None
    webhook_id: int | None = None
    type: int = 0
    created_at: str = field(default_factory=utc_now_iso)
    edited_at: str | None = None
    edits: int = 0
    deleted: bool = False

    def __repr__(self) -> str:
        return (
            f"<Message id={self.id} channel={self.channel_id} edits={self.edits}"
            f" ephemeral={self.ephemeral} deleted={self.deleted} text={self.text[:120]!r}"
            f" buttons={[b['label'] for b in self.buttons]}>"
        )

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & FLAG_EPHEMERAL)

    @property
    def loading(self) -> bool:
        """True while this is a deferred "thinking" placeholder nobody has filled in."""
        return bool(self.flags & FLAG_LOADING)

    @property
    def text(self) -> str:
        """Content plus every visible embed/text-display string, newline-joined."""
        parts = [self.content]
        for embed in self.embeds:
            parts.append(embed.get("author", {}).get("name", ""))
            parts.append(embed.get("title", ""))
            parts.append(embed.get("description", ""))
            for embed_field in embed.get("fields", []):
                parts.extend((embed_field.get("name", ""), embed_field.get("value", "")))
            parts.append(embed.get("footer", {}).get("text", ""))
        parts.extend(
            c.get("content", "") for c in walk_components(self.components) if c["type"] == 10
        )
        return "\n".join(part for part in parts if part)

    @property
    def buttons(self) -> list[JSON]:
        return [
            {
                "label": c.get("label"),
                "custom_id": c.get("custom_id"),
                "disabled": c.get("disabled", False),
                "style": c.get("style"),
                "url": c.get("url"),
            }
            for c in walk_components(self.components)
            if c["type"] == 2
        ]

    async def wait_for(self, predicate: Callable[[Message], bool], timeout: float = 5.0) -> Message:
        """Wait until this message's current state satisfies ``predicate`` (may already)."""
        return await self.changes.wait_until(
            lambda: self if predicate(self) else None,
            timeout,
            lambda: f"a matching state of {self!r}",
        )

    def payload(self) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "channel_id": str(self.channel_id),
            "guild_id": str(self.guild_id),
            "author": self.author,
            "content": self.content,
            "embeds": self.embeds,
            "components": self.components,
            "attachments": [attachment.payload() for attachment in self.attachments],
            "flags": self.flags,
            "type": self.type,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "pinned": False,
        }
        if self.webhook_id is not None:
            data["webhook_id"] = str(self.webhook_id)
            data["application_id"] = str(self.webhook_id)
        if self.interaction is not None:
            data["interaction_metadata"] = self.interaction.metadata(self)
        return data


@dataclass
class Callback:
    """One accepted interaction response (POST /interactions/{id}/{token}/callback)."""

    type: int
    data: JSON
    delay: float

    @property
    def name(self) -> str:
        return CALLBACK_NAMES.get(self.type, str(self.type))


@dataclass
class ModalField:
    custom_id: str
    label: str
    type: int
    required: bool
    value: str | None
    min_length: int | None
    max_length: int | None
    options: list[str]
    max_values: int


@dataclass
class Modal:
    custom_id: str
    title: str
    components: list[JSON]

    @property
    def fields(self) -> list[ModalField]:
        """Inputs in display order; labels come from a Label wrapper or the legacy input."""
        result: list[ModalField] = []
        for top in self.components:
            if top["type"] == 18:
                inputs = [(top.get("label"), top["component"])]
            else:
                inputs = [(None, inner) for inner in top.get("components", [])]
            for label, component in inputs:
                if component["type"] not in (3, 4):
                    continue
                result.append(
                    ModalField(
                        custom_id=component["custom_id"],
                        label=label or component.get("label", ""),
                        type=component["type"],
                        required=component.get("required", True),
                        value=component.get("value"),
                        min_length=component.get("min_length"),
                        max_length=component.get("max_length"),
                        options=[option["value"] for option in component.get("options", [])],
                        max_values=component.get("max_values", 1),
                    )
                )
        return result


@dataclass(eq=False)
class Interaction:
    """An interaction the driver dispatched and everything the bot did in answer.

    ``original`` is the message ``@original`` refers to: the response message for
    types 4/5, the component's message for types 6/7 on a component interaction.
    """

    changes: Changes
    id: int
    token: str
    type: int
    member: Member
    channel: Channel
    data: JSON
    message: Message | None = None
    dispatched_at: float = 0.0
    callbacks: list[Callback] = field(default_factory=list)
    original: Message | None = None
    original_edits: int = 0
    followups: list[Message] = field(default_factory=list)
    modal: Modal | None = None
    #: The ``[shard_id, shard_count]`` of the gateway session it was delivered on (None:
    #: an unsharded session, or not delivered yet).
    shard: tuple[int, int] | None = None

    def __repr__(self) -> str:
        name = self.data.get("name") or self.data.get("custom_id")
        acks = [callback.name for callback in self.callbacks]
        return (
            f"<Interaction {INTERACTION_NAMES.get(self.type, self.type)} {name!r} id={self.id}"
            f" by {self.member.name} acks={acks} original_edits={self.original_edits}"
            f" followups={len(self.followups)}>"
        )

    @property
    def acked(self) -> bool:
        return bool(self.callbacks)

    def metadata(self, message: Message) -> JSON:
        data: JSON = {
            "id": str(self.id),
            "type": self.type,
            "user": self.member.user_payload(),
            "authorizing_integration_owners": {"0": str(self.channel.guild_id)},
        }
        if self.type == 2:
            data["name"] = self.data["name"]
            data["command_type"] = 1
        if self.message is not None:
            data["interacted_message_id"] = str(self.message.id)
        if self.original is not None and message is not self.original:
            data["original_response_message_id"] = str(self.original.id)
        return data

    async def ack(self, timeout: float = 5.0) -> Callback:
        """The first accepted interaction response."""
        return await self.changes.wait_until(
            lambda: self.callbacks[0] if self.callbacks else None,
            timeout,
            lambda: f"an acknowledgement of {self!r}",
        )

    async def reply(self, timeout: float = 5.0) -> Message:
        """The message answering this interaction.

        Type 4/7 acks return at once; after a deferral (5/6) this waits for the first edit
        of ``@original`` (or the first followup filling the "thinking" placeholder).
        """

        def probe() -> Message | None:
            if not self.callbacks:
                return None
            kind = self.callbacks[0].type
            if kind in (4, 7):
                return self.original
            if kind in (5, 6):
                return self.original if self.original_edits else None
            raise AssertionError(
                f"{self!r} was answered with {CALLBACK_NAMES[kind]}, not a message"
            )

        return await self.changes.wait_until(probe, timeout, lambda: f"a reply to {self!r}")

    async def followup(self, n: int = 1, timeout: float = 5.0) -> Message:
        """The n-th (1-based) followup message sent with this interaction's token."""
        return await self.changes.wait_until(
            lambda: self.followups[n - 1] if len(self.followups) >= n else None,
            timeout,
            lambda: f"followup #{n} of {self!r}",
        )


@dataclass(frozen=True)
class Failure:
    """Something the real Discord would have rejected, or the fake could not handle, or a
    message that would notify someone (``would_ping``: the bot never pings)."""

    kind: str
    method: str
    path: str
    status: int
    detail: str

    def __str__(self) -> str:
        return f"[{self.kind}] {self.method} {self.path} -> {self.status}: {self.detail}"


@dataclass(frozen=True)
class LateAck:
    interaction_id: int
    callback_type: int
    delay: float
