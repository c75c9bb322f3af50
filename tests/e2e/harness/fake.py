"""A fake Discord (REST + gateway) on 127.0.0.1 for driving a real bot process.

The fake lives in the test process, so its model (guild, channels, members, synced
commands, messages, interactions) survives bot restarts. Anything the real Discord would
reject is answered the way Discord answers it *and* recorded in ``failures``; the ``fake``
fixture fails the test at teardown if any remain, so a bot bug cannot hide behind a
handler that swallows HTTP errors. A message whose content would notify someone (a
mention its ``allowed_mentions`` lets through) is sent, and recorded too.
"""

# The harness API takes explicit per-call timeouts (`await inter.reply(timeout=5)`) so every
# expectation states its own bound; asyncio.timeout() is used inside.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import json
import mimetypes
import secrets
from collections import Counter
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple

from aiohttp import BodyPartReader, web

from .driver import ContractError, Member
from .gateway import INTENT_GUILD_MEMBERS, INTENT_GUILDS, Gateway
from .model import (
    ALL_PERMISSIONS,
    CATEGORY_CHANNEL,
    FLAG_COMPONENTS_V2,
    FLAG_EPHEMERAL,
    FLAG_LOADING,
    FLAG_SUPPRESS_EMBEDS,
    FLAG_SUPPRESS_NOTIFICATIONS,
    JSON,
    PERM_ADD_REACTIONS,
    PERM_ADMINISTRATOR,
    PERM_ATTACH_FILES,
    PERM_CREATE_PUBLIC_THREADS,
    PERM_EMBED_LINKS,
    PERM_READ_MESSAGE_HISTORY,
    PERM_SEND_MESSAGES,
    PERM_SEND_MESSAGES_IN_THREADS,
    PERM_USE_APPLICATION_COMMANDS,
    PERM_USE_EXTERNAL_EMOJIS,
    PERM_VIEW_CHANNEL,
    PUBLIC_THREAD,
    TEXT_CHANNEL,
    Attachment,
    Callback,
    Changes,
    Channel,
    Failure,
    Interaction,
    LateAck,
    Message,
    Modal,
    Role,
    Snowflakes,
    utc_now_iso,
)
from .validation import (
    FormError,
    autocomplete_errors,
    command_errors,
    form_error_body,
    message_errors,
    modal_errors,
    pings,
)

API = "/api/v10"
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024

DEFAULT_EVERYONE_PERMISSIONS = (
    PERM_VIEW_CHANNEL
    | PERM_SEND_MESSAGES
    | PERM_READ_MESSAGE_HISTORY
    | PERM_EMBED_LINKS
    | PERM_ATTACH_FILES
    | PERM_ADD_REACTIONS
    | PERM_USE_EXTERNAL_EMOJIS
    | PERM_USE_APPLICATION_COMMANDS
    | PERM_SEND_MESSAGES_IN_THREADS
    | PERM_CREATE_PUBLIC_THREADS
)
DEFAULT_BOT_PERMISSIONS = DEFAULT_EVERYONE_PERMISSIONS

# Which callback types each interaction type accepts (1 = PONG is HTTP-only, never valid here).
_ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}
_EDIT_FLAGS = FLAG_SUPPRESS_EMBEDS | FLAG_COMPONENTS_V2
_CREATE_FLAGS = (
    FLAG_SUPPRESS_EMBEDS | FLAG_EPHEMERAL | FLAG_SUPPRESS_NOTIFICATIONS | FLAG_COMPONENTS_V2
)


class ApiError(Exception):
    """Raised by handlers; the middleware answers with Discord's error JSON and records it."""

    def __init__(
        self, status: int, code: int, message: str, *, kind: str, body: JSON | None = None
    ) -> None:
        super().__init__(message)
        self.status = status
        self.kind = kind
        self.body = body or {"code": code, "message": message}


def _form_error(errors: list[FormError]) -> ApiError:
    detail = "; ".join(f"{e.path}: {e.message}" for e in errors)
    return ApiError(
        400,
        50035,
        f"Invalid Form Body ({detail})",
        kind="invalid_body",
        body=form_error_body(errors),
    )


class ReadyMark(NamedTuple):
    identifies: int
    command_syncs: int


class _Upload(NamedTuple):
    slot: int
    filename: str
    data: bytes


@dataclass
class _Edit:
    """A validated message edit, applied only once every check passed."""

    content: str
    embeds: list[JSON]
    components: list[JSON]
    flags: int
    attachments: list[Attachment]
    allowed_mentions: JSON | None = None


def _json(data: Any, status: int = 200) -> web.Response:
    # discord.py only decodes JSON when Content-Type is exactly "application/json".
    return web.Response(
        body=json.dumps(data).encode(), status=status, headers={"Content-Type": "application/json"}
    )


def _no_content() -> web.Response:
    return web.Response(status=204)


@dataclass(eq=False)
class Guild:
    """One server the bot is in: its roles, members and guild commands (its channels are
    the fake's ``channels``, each naming its guild). The fake's own guild is ``fake.guild``
    (what the single-guild API works on); ``fake.add_guild`` adds more."""

    id: int
    name: str
    everyone_role: Role
    bot_role: Role
    locale: str = "en-US"
    roles: dict[int, Role] = field(default_factory=dict)
    members: dict[int, Member] = field(default_factory=dict)
    #: Commands synced to this guild alone (``PUT /applications/{id}/guilds/{id}/commands``).
    commands: list[JSON] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.roles = {role.id: role for role in (self.everyone_role, self.bot_role)} | self.roles

    def __repr__(self) -> str:
        return f"<Guild {self.name!r} id={self.id}>"


class FakeDiscord:
    """Fake Discord API + gateway. One guild (more with :meth:`add_guild`), one
    application, any number of bot runs."""

    def __init__(
        self,
        *,
        token: str = "fake-bot-token",  # noqa: S107 - a fake token for a fake server
        enforce_ack_deadline: bool = True,
        ack_deadline: float = 3.0,
        bot_name: str = "Storyteller",
    ) -> None:
        self.token = token
        self.enforce_ack_deadline = enforce_ack_deadline
        self.ack_deadline = ack_deadline
        self.changes = Changes()
        self.changes.add_context(self._failure_summary)
        self.failures: list[Failure] = []
        self.late: list[LateAck] = []
        #: REST requests answered so far, by method and route (``POST /interactions/…``):
        #: what the load benchmark reports per interaction.
        self.requests: Counter[str] = Counter()
        self.snowflakes = Snowflakes()
        self.application_id = self.snowflakes.next()
        self.bot_user_id = self.application_id
        self.bot_name = bot_name
        self.guild_id = self.snowflakes.next()
        self.owner_id = self.snowflakes.next()
        self.guild = self._new_guild(self.guild_id, "Fake Guild")
        #: Every guild the bot is in, the fake's own first.
        self.guilds: dict[int, Guild] = {self.guild_id: self.guild}
        self.channels: dict[int, Channel] = {}
        self.global_commands: list[JSON] = []
        self.command_syncs = 0
        self.interactions: list[Interaction] = []
        self._interactions_by_id: dict[int, Interaction] = {}
        self._interactions_by_token: dict[str, Interaction] = {}
        self._messages: dict[int, Message] = {}
        self._channel_messages: dict[int, list[Message]] = {}
        self._attachments: dict[int, Attachment] = {}
        #: Called with each interaction once its acknowledgement is applied (with
        #: ``original`` set): lets a load generator await thousands of acks without
        #: each waking on every state change of the fake.
        self.ack_listeners: list[Callable[[Interaction], None]] = []
        self.gateway = Gateway(self)
        self._runner: web.AppRunner | None = None
        self.port = 0

    # ------------------------------------------------------------------ lifecycle

    async def start(self) -> None:
        app = web.Application(middlewares=[self._middleware], client_max_size=64 * 1024 * 1024)
        self._add_routes(app.router)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, "127.0.0.1", 0)
        await site.start()
        self.port = int(self._runner.addresses[0][1])

    async def stop(self) -> None:
        await self.gateway.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}{API}"

    @property
    def gateway_url(self) -> str:
        return f"ws://127.0.0.1:{self.port}/"

    # ------------------------------------------------------------------ the fake's own guild

    @property
    def guild_name(self) -> str:
        return self.guild.name

    @guild_name.setter
    def guild_name(self, name: str) -> None:
        self.guild.name = name

    @property
    def guild_locale(self) -> str:
        return self.guild.locale

    @guild_locale.setter
    def guild_locale(self, locale: str) -> None:
        self.guild.locale = locale

    @property
    def everyone_role(self) -> Role:
        return self.guild.everyone_role

    @property
    def bot_role(self) -> Role:
        return self.guild.bot_role

    @property
    def roles(self) -> dict[int, Role]:
        return self.guild.roles

    @property
    def members(self) -> dict[int, Member]:
        return self.guild.members

    @property
    def guild_commands(self) -> list[JSON]:
        """The commands synced to the fake's own guild (``DEV_GUILD_ID``)."""
        return self.guild.commands

    @guild_commands.setter
    def guild_commands(self, commands: list[JSON]) -> None:
        self.guild.commands = commands

    # ------------------------------------------------------------------ model setup

    def _new_guild(self, guild_id: int, name: str) -> Guild:
        everyone = Role(guild_id, "@everyone", DEFAULT_EVERYONE_PERMISSIONS, position=0)
        bot_role = Role(
            self.snowflakes.next(),
            self.bot_name,
            DEFAULT_BOT_PERMISSIONS,
            position=1,
            managed=True,
            bot_id=self.bot_user_id,
        )
        return Guild(guild_id, name, everyone, bot_role)

    def add_guild(self, name: str, *, shard: tuple[int, int] | None = None) -> Guild:
        """Another server the bot is in. ``shard=(shard_id, shard_count)`` gives it an id
        whose events Discord sends to that shard (``(guild_id >> 22) % shard_count``).

        Give it channels and members with ``guild=`` on :meth:`add_channel` and
        :meth:`add_member`. A session already connected that owns it gets its GUILD_CREATE
        (the bot was invited).
        """
        snowflakes = self.snowflakes
        guild_id = snowflakes.next() if shard is None else snowflakes.next_on_shard(*shard)
        guild = self._new_guild(guild_id, name)
        self.guilds[guild.id] = guild
        self.gateway.guild_added(guild.id)
        return guild

    def guild_of(self, member: Member) -> Guild:
        """The guild ``member`` belongs to."""
        return self.guilds[member.guild_id or self.guild_id]

    def add_role(self, name: str, permissions: int = 0, *, guild: Guild | None = None) -> Role:
        guild = guild or self.guild
        role = Role(self.snowflakes.next(), name, permissions, position=len(guild.roles))
        guild.roles[role.id] = role
        self.gateway.queue(
            "GUILD_ROLE_CREATE",
            {"guild_id": str(guild.id), "role": role.payload()},
            intent=INTENT_GUILDS,
            guild_id=guild.id,
        )
        return role

    def add_category(self, name: str, *, guild: Guild | None = None) -> Channel:
        return self._add_channel(name, CATEGORY_CHANNEL, parent=None, guild=guild)

    def add_channel(
        self, name: str, *, parent: Channel | None = None, guild: Guild | None = None
    ) -> Channel:
        """A text channel; under ``parent`` if it is a category, a public thread if it is text.

        In ``guild`` (default: the fake's own, or ``parent``'s).
        """
        if parent is None or parent.type == CATEGORY_CHANNEL:
            return self._add_channel(name, TEXT_CHANNEL, parent=parent, guild=guild)
        if parent.type == TEXT_CHANNEL:
            return self._add_channel(name, PUBLIC_THREAD, parent=parent, guild=guild)
        raise ValueError(f"cannot create a channel under {parent!r}")

    def _add_channel(
        self, name: str, kind: int, *, parent: Channel | None, guild: Guild | None = None
    ) -> Channel:
        if guild is None:
            guild = self.guild if parent is None else self.guilds[parent.guild_id]
        elif parent is not None and parent.guild_id != guild.id:
            raise ValueError(f"{parent!r} is not a channel of {guild!r}")
        channel = Channel(
            id=self.snowflakes.next(),
            name=name,
            type=kind,
            guild_id=guild.id,
            position=sum(1 for c in self.channels.values() if c.guild_id == guild.id),
            parent_id=None if parent is None else parent.id,
            owner_id=self.owner_id if kind == PUBLIC_THREAD else None,
        )
        self.channels[channel.id] = channel
        self._channel_messages[channel.id] = []
        event = "THREAD_CREATE" if channel.is_thread else "CHANNEL_CREATE"
        self.gateway.queue(event, channel.payload(), intent=INTENT_GUILDS, guild_id=guild.id)
        return channel

    def add_member(
        self,
        name: str,
        *,
        permissions: int = 0,
        roles: tuple[Role, ...] | list[Role] = (),
        locale: str = "en-US",
        guild: Guild | None = None,
    ) -> Member:
        """A guild member (of ``guild``, default the fake's own). Effective permissions =
        @everyone | roles | ``permissions``."""
        guild = guild or self.guild
        for role in roles:
            if guild.roles.get(role.id) is not role:
                raise ValueError(f"{role!r} is not a role of this guild")
        member = Member(
            self, self.snowflakes.next(), name, list(roles), permissions, locale, guild_id=guild.id
        )
        guild.members[member.id] = member
        self.gateway.queue(
            "GUILD_MEMBER_ADD",
            self.member_payload(member) | {"guild_id": str(guild.id)},
            intent=INTENT_GUILD_MEMBERS,
            guild_id=guild.id,
        )
        return member

    # ------------------------------------------------------------------ permissions & payloads

    def member_permissions(self, member: Member) -> int:
        permissions = self.guild_of(member).everyone_role.permissions | member.permissions
        for role in member.roles:
            permissions |= role.permissions
        return ALL_PERMISSIONS if permissions & PERM_ADMINISTRATOR else permissions

    def bot_permissions(self, guild: Guild | None = None) -> int:
        guild = guild or self.guild
        permissions = guild.everyone_role.permissions | guild.bot_role.permissions
        return ALL_PERMISSIONS if permissions & PERM_ADMINISTRATOR else permissions

    def bot_user_payload(self) -> JSON:
        return {
            "id": str(self.bot_user_id),
            "username": self.bot_name,
            "global_name": None,
            "discriminator": "0",
            "avatar": None,
            "bot": True,
            "public_flags": 0,
            "flags": 0,
            "mfa_enabled": False,
            "verified": True,
        }

    def member_payload(self, member: Member) -> JSON:
        return {
            "user": member.user_payload(),
            "roles": [str(role.id) for role in member.roles],
            "nick": None,
            "avatar": None,
            "joined_at": member.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
            "permissions": str(self.member_permissions(member)),
        }

    def _bot_member_payload(self, guild: Guild) -> JSON:
        return {
            "user": self.bot_user_payload(),
            "roles": [str(guild.bot_role.id)],
            "nick": None,
            "avatar": None,
            "joined_at": utc_now_iso(),
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
        }

    def application_payload(self) -> JSON:
        return {
            "id": str(self.application_id),
            "name": self.bot_name,
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": {
                "id": str(self.owner_id),
                "username": "owner",
                "discriminator": "0",
                "avatar": None,
            },
            "team": None,
            "verify_key": "0" * 64,
            "flags": 0,
            "bot": self.bot_user_payload(),
            "interactions_endpoint_url": None,
            "redirect_uris": [],
        }

    def ready_payload(
        self,
        session_id: str,
        *,
        with_guild: bool = True,
        guild_ids: Sequence[int] | None = None,
    ) -> JSON:
        """READY naming ``guild_ids`` (default: the fake's own guild ``with_guild``); a
        shard is told only of the guilds it owns."""
        if guild_ids is None:
            guild_ids = [self.guild_id] if with_guild else []
        return {
            "v": 10,
            "user": self.bot_user_payload(),
            "guilds": [{"id": str(guild_id), "unavailable": True} for guild_id in guild_ids],
            "session_id": session_id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "guild_join_requests": [],
            "geo_ordered_rtc_regions": [],
            "auth": {},
            "user_settings": {},
            "_trace": ["fake-discord"],
        }

    def guild_payload(self, guild: Guild | None = None) -> JSON:
        guild = guild or self.guild
        return {
            "id": str(guild.id),
            "name": guild.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [role.payload() for role in guild.roles.values()],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "safety_alerts_channel_id": None,
            "preferred_locale": guild.locale,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }

    def guild_create_payload(self, guild: Guild | None = None) -> JSON:
        guild = guild or self.guild
        members = [
            self._bot_member_payload(guild),
            *(self.member_payload(m) for m in guild.members.values()),
        ]
        own = [c for c in self.channels.values() if c.guild_id == guild.id]
        channels = [c.payload() for c in own if not c.is_thread]
        threads = [c.payload() for c in own if c.is_thread]
        return self.guild_payload(guild) | {
            "unavailable": False,
            "large": False,
            "joined_at": utc_now_iso(),
            "member_count": len(members),
            "members": members,
            "channels": channels,
            "threads": threads,
            "presences": [],
            "voice_states": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "soundboard_sounds": [],
        }

    def channel_payload(self, channel: Channel, member: Member | None = None) -> JSON:
        """A channel as interactions carry it: with the viewer's resolved permissions."""
        permissions = (
            self.bot_permissions(self.guilds[channel.guild_id])
            if member is None
            else self.member_permissions(member)
        )
        return channel.payload() | {"permissions": str(permissions)}

    def _interaction_payload(self, interaction: Interaction) -> JSON:
        guild = self.guilds[interaction.channel.guild_id]
        payload: JSON = {
            "id": str(interaction.id),
            "application_id": str(self.application_id),
            "type": interaction.type,
            "data": interaction.data,
            "guild_id": str(guild.id),
            "guild": {"id": str(guild.id), "locale": guild.locale, "features": []},
            "channel_id": str(interaction.channel.id),
            "channel": self.channel_payload(interaction.channel, interaction.member),
            "member": self.member_payload(interaction.member),
            "token": interaction.token,
            "version": 1,
            "app_permissions": str(self.bot_permissions(guild)),
            "locale": interaction.member.locale,
            "guild_locale": guild.locale,
            "entitlements": [],
            "authorizing_integration_owners": {"0": str(guild.id)},
            "context": 0,
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        if interaction.message is not None:
            payload["message"] = interaction.message.payload()
        return payload

    # ------------------------------------------------------------------ queries for tests

    def find_command(self, name: str, *, guild: Guild | None = None) -> tuple[JSON, bool]:
        """The synced chat-input command ``name`` in ``guild`` (default: the fake's own;
        its guild commands shadow global ones)."""
        guild = guild or self.guild
        for commands, is_guild in ((guild.commands, True), (self.global_commands, False)):
            for command in commands:
                if command["name"] == name and command.get("type", 1) == 1:
                    return command, is_guild
        synced = sorted(c["name"] for c in guild.commands + self.global_commands)
        raise ContractError(f"no synced slash command {name!r}; synced commands: {synced}")

    def messages(self, channel: Channel, *, visible_to: Member | None = None) -> list[Message]:
        """Messages in ``channel``, oldest first; ephemerals only for their recipient if asked."""
        return [
            message
            for message in self._channel_messages[channel.id]
            if not message.deleted
            and (visible_to is None or message.ephemeral_to in (None, visible_to.id))
        ]

    async def delete_message(self, message: Message) -> None:
        """Delete a message as a member would (a moderator cleaning the channel): later
        requests for it answer 404 Unknown Message, and the gateway is told."""
        await self._delete(message)

    async def wait_for_message(
        self, channel: Channel, predicate: Callable[[Message], bool], timeout: float = 5.0
    ) -> Message:
        """The oldest message in ``channel`` satisfying ``predicate`` (existing or future)."""
        return await self.changes.wait_until(
            lambda: next((m for m in self.messages(channel) if predicate(m)), None),
            timeout,
            lambda: f"a matching message in #{channel.name}; have {self.messages(channel)}",
        )

    def ready_mark(self) -> ReadyMark:
        return ReadyMark(self.gateway.identifies, self.command_syncs)

    async def wait_ready(self, since: ReadyMark | None = None, timeout: float = 20.0) -> None:
        """Wait for a connected session that IDENTIFYed, and a command sync, after ``since``."""
        mark = since or ReadyMark(0, 0)

        def probe() -> bool | None:
            ready = (
                self.gateway.connected
                and self.gateway.identifies > mark.identifies
                and self.command_syncs > mark.command_syncs
            )
            return True if ready else None

        await self.changes.wait_until(
            probe, timeout, lambda: f"the bot to identify and sync (since {mark})"
        )

    async def wait_until(
        self, predicate: Callable[[], Any], timeout: float = 5.0, what: str = "a condition"
    ) -> Any:
        """The first truthy value of ``predicate``, re-checked after every state change."""
        return await self.changes.wait_until(lambda: predicate() or None, timeout, what)

    def record_failure(self, kind: str, method: str, path: str, status: int, detail: str) -> None:
        self.failures.append(Failure(kind, method, path, status, detail))
        self.changes.notify()

    def take_failures(self) -> list[Failure]:
        """Return and clear the recorded failures (for tests that provoke them on purpose)."""
        taken, self.failures = self.failures, []
        return taken

    def _failure_summary(self) -> str:
        if not self.failures:
            return ""
        return "fake Discord recorded failures:\n" + "\n".join(
            f"  {failure}" for failure in self.failures
        )

    # ------------------------------------------------------------------ interactions (driver side)

    async def dispatch_interaction(
        self,
        member: Member,
        *,
        kind: int,
        channel: Channel,
        data: JSON,
        message: Message | None = None,
    ) -> Interaction:
        interaction = Interaction(
            changes=self.changes,
            id=self.snowflakes.next(),
            token=f"aW50ZXJhY3Rpb24.{secrets.token_urlsafe(48)}",
            type=kind,
            member=member,
            channel=channel,
            data=data,
            message=message,
        )
        if member.guild_id and member.guild_id != channel.guild_id:
            raise ContractError(f"{member!r} is not a member of the guild of {channel!r}")
        self.interactions.append(interaction)
        self._interactions_by_id[interaction.id] = interaction
        self._interactions_by_token[interaction.token] = interaction
        payload = self._interaction_payload(interaction)
        interaction.dispatched_at = asyncio.get_running_loop().time()
        session = await self.gateway.dispatch(
            "INTERACTION_CREATE", payload, guild_id=channel.guild_id
        )
        interaction.shard = None if session is None else session.shard
        return interaction

    def store_upload(self, channel: Channel, filename: str, data: bytes) -> Attachment:
        """Host bytes on the fake CDN (attachment options, message attachments)."""
        attachment_id = self.snowflakes.next()
        attachment = Attachment(
            id=attachment_id,
            filename=filename,
            content_type=mimetypes.guess_type(filename)[0] or "application/octet-stream",
            data=data,
            url=f"{self.base_url}/attachments/{channel.id}/{attachment_id}/{filename}",
        )
        self._attachments[attachment_id] = attachment
        return attachment

    # ------------------------------------------------------------------ HTTP plumbing

    def _add_routes(self, router: web.UrlDispatcher) -> None:
        app_base = f"{API}/applications/{{app_id}}"
        hook = f"{API}/webhooks/{{app_id}}/{{token}}"
        routes: list[tuple[str, str, Callable[[web.Request], Awaitable[web.StreamResponse]]]] = [
            ("GET", "/", self.gateway.handle),
            ("GET", "/attachments/{channel_id}/{attachment_id}/{filename}", self._cdn),
            ("GET", f"{API}/users/@me", self._get_me),
            ("GET", f"{API}/gateway", self._get_gateway),
            ("GET", f"{API}/gateway/bot", self._get_gateway),
            ("GET", f"{API}/oauth2/applications/@me", self._get_application),
            ("GET", f"{API}/applications/@me", self._get_application),
            ("GET", f"{app_base}/commands", self._get_commands),
            ("PUT", f"{app_base}/commands", self._put_commands),
            ("GET", f"{app_base}/guilds/{{guild_id}}/commands", self._get_commands),
            ("PUT", f"{app_base}/guilds/{{guild_id}}/commands", self._put_commands),
            ("POST", f"{API}/interactions/{{interaction_id}}/{{token}}/callback", self._callback),
            ("POST", hook, self._webhook_execute),
            ("GET", f"{hook}/messages/{{message_id}}", self._webhook_get),
            ("PATCH", f"{hook}/messages/{{message_id}}", self._webhook_edit),
            ("DELETE", f"{hook}/messages/{{message_id}}", self._webhook_delete),
            ("GET", f"{API}/channels/{{channel_id}}", self._get_channel),
            ("GET", f"{API}/channels/{{channel_id}}/messages", self._list_messages),
            ("POST", f"{API}/channels/{{channel_id}}/messages", self._post_message),
            ("GET", f"{API}/channels/{{channel_id}}/messages/{{message_id}}", self._get_message),
            (
                "PATCH",
                f"{API}/channels/{{channel_id}}/messages/{{message_id}}",
                self._patch_message,
            ),
            (
                "DELETE",
                f"{API}/channels/{{channel_id}}/messages/{{message_id}}",
                self._delete_message,
            ),
            ("GET", f"{API}/guilds/{{guild_id}}", self._get_guild),
        ]
        for method, path, handler in routes:
            router.add_route(method, path, handler)

    @web.middleware
    async def _middleware(
        self, request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
    ) -> web.StreamResponse:
        path = request.path
        needs_auth = path.startswith(API) and not path.startswith(
            (f"{API}/interactions/", f"{API}/webhooks/")
        )
        if path.startswith(API):
            route = request.match_info.route.resource
            template = route.canonical if route is not None else path
            self.requests[f"{request.method} {template.removeprefix(API)}"] += 1
        try:
            if needs_auth and request.headers.get("Authorization") != f"Bot {self.token}":
                raise ApiError(401, 0, "401: Unauthorized", kind="auth")
            return await handler(request)
        except (web.HTTPNotFound, web.HTTPMethodNotAllowed):
            self.record_failure(
                "unknown_route", request.method, path, 404, "no such route in the fake"
            )
            return _json({"message": "404: Not Found", "code": 0}, status=404)
        except ApiError as error:
            self.record_failure(error.kind, request.method, path, error.status, str(error))
            return _json(error.body, status=error.status)
        except Exception as error:  # a fake bug must fail the test, not hang the bot in retries
            self.record_failure("fake_error", request.method, path, 400, repr(error))
            return _json({"message": f"fake Discord error: {error!r}", "code": 0}, status=400)

    async def _read_body(self, request: web.Request) -> tuple[Any, list[_Upload]]:
        """The JSON body (``payload_json`` for multipart) and any uploaded ``files[n]``."""
        if request.content_type == "multipart/form-data":
            reader = await request.multipart()
            payload: JSON = {}
            uploads: list[_Upload] = []
            while (part := await reader.next()) is not None:
                if not isinstance(part, BodyPartReader):
                    raise ApiError(400, 0, "nested multipart", kind="unsupported")
                if part.name == "payload_json":
                    payload = json.loads(await part.text())
                elif part.name and part.name.startswith("files["):
                    data = bytes(await part.read())
                    if len(data) > ATTACHMENT_SIZE_LIMIT:  # the gateway's upload limit
                        raise ApiError(413, 40005, "Request entity too large", kind="too_large")
                    uploads.append(_Upload(int(part.name[6:-1]), part.filename or "file", data))
                else:
                    raise ApiError(
                        400, 0, f"unexpected multipart field {part.name!r}", kind="unsupported"
                    )
            return payload, uploads
        if not request.can_read_body:
            return {}, []
        body = await request.json()
        return body, []

    # ------------------------------------------------------------------ messages

    def _channel(self, request: web.Request) -> Channel:
        channel = self.channels.get(int(request.match_info["channel_id"]))
        if channel is None:
            raise ApiError(404, 10003, "Unknown Channel", kind="unknown_channel")
        return channel

    def _attachments_for(
        self, channel: Channel, body: JSON, uploads: list[_Upload], existing: list[Attachment]
    ) -> list[Attachment]:
        pending = {upload.slot: upload for upload in uploads}
        if "attachments" not in body:
            kept = list(existing)
        else:
            kept = []
            for item in body["attachments"] or []:
                ident = int(item["id"])
                if ident in pending:
                    upload = pending.pop(ident)
                    kept.append(
                        self.store_upload(
                            channel, item.get("filename") or upload.filename, upload.data
                        )
                    )
                    continue
                match = next((a for a in existing if a.id == ident), None)
                if match is None:
                    raise ApiError(
                        400, 50035, f"Unknown attachment id {ident}", kind="invalid_body"
                    )
                kept.append(match)
        kept.extend(
            self.store_upload(channel, u.filename, u.data) for u in sorted(pending.values())
        )
        if len(kept) > 10:
            raise _form_error(
                [FormError("attachments", "BASE_TYPE_MAX_LENGTH", "Must be 10 or fewer in length.")]
            )
        return kept

    def _prepare_edit(
        self,
        channel: Channel,
        body: JSON,
        uploads: list[_Upload],
        prefix: str,
        current: Message | None,
    ) -> _Edit:
        requested = int(body.get("flags") or 0)
        if current is None:
            flags = requested & _CREATE_FLAGS
        else:  # ephemerality is fixed at creation and components v2 cannot be switched off
            kept = current.flags & (FLAG_EPHEMERAL | FLAG_COMPONENTS_V2)
            flags = kept | (
                requested & _EDIT_FLAGS if "flags" in body else current.flags & _EDIT_FLAGS
            )
        errors = message_errors(body | {"flags": flags}, prefix)
        if errors:
            raise _form_error(errors)
        pinged = pings(body.get("content"), body.get("allowed_mentions"))
        if pinged:  # Discord sends it, and notifies: never what the bot means to do
            self.record_failure("would_ping", "-", f"/channels/{channel.id}/messages", 200,
                                f"{', '.join(pinged)} in {body.get('content')!r}")

        def new_value(key: str, default: Any) -> Any:
            """From the body if present (null clears it), else the current value."""
            if key in body:
                return body[key] or default
            return default if current is None else getattr(current, key)

        edit = _Edit(
            content=new_value("content", ""),
            embeds=new_value("embeds", []),
            components=new_value("components", []),
            flags=flags,
            attachments=self._attachments_for(
                channel, body, uploads, [] if current is None else current.attachments
            ),
            allowed_mentions=body.get("allowed_mentions"),
        )
        if not (edit.content or edit.embeds or edit.components or edit.attachments):
            raise ApiError(400, 50006, "Cannot send an empty message", kind="empty_message")
        return edit

    async def _create_message(
        self,
        channel: Channel,
        edit: _Edit,
        *,
        interaction: Interaction | None = None,
        ephemeral_to: int | None = None,
        loading: bool = False,
    ) -> Message:
        message = Message(
            changes=self.changes,
            id=self.snowflakes.next(),
            channel_id=channel.id,
            guild_id=channel.guild_id,
            author=self.bot_user_payload(),
            content=edit.content,
            embeds=edit.embeds,
            components=edit.components,
            flags=edit.flags | (FLAG_LOADING if loading else 0),
            attachments=edit.attachments,
            allowed_mentions=edit.allowed_mentions,
            ephemeral_to=ephemeral_to if edit.flags & FLAG_EPHEMERAL else None,
            interaction=interaction,
            webhook_id=None if interaction is None else self.application_id,
            type=20 if interaction is not None and interaction.type == 2 else 0,
        )
        self._messages[message.id] = message
        self._channel_messages[channel.id].append(message)
        self.changes.notify()
        if not message.ephemeral and self.gateway.receives_messages(message.guild_id):
            await self.gateway.dispatch(
                "MESSAGE_CREATE", message.payload(), required=False, guild_id=message.guild_id
            )
        return message

    async def _apply_edit(self, message: Message, edit: _Edit) -> None:
        message.content = edit.content
        message.embeds = edit.embeds
        message.components = edit.components
        message.flags = edit.flags
        message.attachments = edit.attachments
        message.allowed_mentions = edit.allowed_mentions
        message.edits += 1
        message.edited_at = utc_now_iso()
        self.changes.notify()
        if not message.ephemeral and self.gateway.receives_messages(message.guild_id):
            await self.gateway.dispatch(
                "MESSAGE_UPDATE", message.payload(), required=False, guild_id=message.guild_id
            )

    async def _delete(self, message: Message) -> None:
        message.deleted = True
        self.changes.notify()
        if not message.ephemeral and self.gateway.receives_messages(message.guild_id):
            await self.gateway.dispatch(
                "MESSAGE_DELETE",
                {
                    "id": str(message.id),
                    "channel_id": str(message.channel_id),
                    "guild_id": str(message.guild_id),
                },
                required=False,
                guild_id=message.guild_id,
            )

    # ------------------------------------------------------------------ REST: identity & commands

    async def _get_me(self, request: web.Request) -> web.Response:
        return _json(self.bot_user_payload())

    async def _get_gateway(self, request: web.Request) -> web.Response:
        limit = {"total": 1000, "remaining": 1000, "reset_after": 0, "max_concurrency": 1}
        return _json(
            {"url": self.gateway_url.rstrip("/"), "shards": 1, "session_start_limit": limit}
        )

    async def _get_application(self, request: web.Request) -> web.Response:
        return _json(self.application_payload())

    def _check_command_route(self, request: web.Request) -> Guild | None:
        """Validate app/guild ids; return the guild of a guild-scoped route."""
        if int(request.match_info["app_id"]) != self.application_id:
            raise ApiError(404, 10002, "Unknown Application", kind="unknown_application")
        guild_id = request.match_info.get("guild_id")
        if guild_id is None:
            return None
        return self._guild(guild_id)

    def _guild(self, guild_id: str) -> Guild:
        guild = self.guilds.get(int(guild_id))
        if guild is None:
            raise ApiError(404, 10004, "Unknown Guild", kind="unknown_guild")
        return guild

    async def _get_commands(self, request: web.Request) -> web.Response:
        guild = self._check_command_route(request)
        return _json(self.global_commands if guild is None else guild.commands)

    async def _put_commands(self, request: web.Request) -> web.Response:
        guild = self._check_command_route(request)
        body, _ = await self._read_body(request)
        errors = command_errors(body)
        if errors:
            raise _form_error(errors)
        previous = self.global_commands if guild is None else guild.commands
        ids = {(c["type"], c["name"]): c["id"] for c in previous}
        stored = []
        for definition in body:
            kind = definition.get("type", 1)
            command = {
                "description": "",
                "options": [],
                "default_member_permissions": None,
                "nsfw": False,
                "contexts": None,
                "integration_types": [0],
                **definition,
                "type": kind,
                "id": ids.get((kind, definition["name"]), str(self.snowflakes.next())),
                "application_id": str(self.application_id),
                "version": str(self.snowflakes.next()),
            }
            if guild is not None:
                command["guild_id"] = str(guild.id)
            stored.append(command)
        if guild is not None:
            guild.commands = stored
        else:
            self.global_commands = stored
        self.command_syncs += 1
        self.changes.notify()
        return _json(stored)

    # ------------------------------------------------------------------ REST: interaction callback

    async def _callback(self, request: web.Request) -> web.Response:
        interaction = self._interactions_by_id.get(int(request.match_info["interaction_id"]))
        if interaction is None or interaction.token != request.match_info["token"]:
            raise ApiError(404, 10062, "Unknown interaction", kind="unknown_interaction")
        body, uploads = await self._read_body(request)
        delay = asyncio.get_running_loop().time() - interaction.dispatched_at
        if interaction.callbacks:
            raise ApiError(
                400, 40060, "Interaction has already been acknowledged.", kind="double_ack"
            )
        kind = int(body.get("type", 0))
        if delay > self.ack_deadline:
            self.late.append(LateAck(interaction.id, kind, delay))
            if self.enforce_ack_deadline:
                raise ApiError(
                    404, 10062, f"Unknown interaction (acked after {delay:.2f}s)", kind="late_ack"
                )
        if kind not in _ALLOWED_CALLBACKS[interaction.type]:
            raise ApiError(
                400, 50035, f"Interaction response type {kind} is invalid here", kind="invalid_body"
            )
        data: JSON = body.get("data") or {}
        channel = interaction.channel
        target = interaction.message
        edit: _Edit | None = None
        errors: list[FormError] = []
        if kind == 4:
            edit = self._prepare_edit(channel, data, uploads, "data.", None)
        elif kind == 5:
            edit = _Edit("", [], [], (data.get("flags") or 0) & FLAG_EPHEMERAL, [])
        elif kind == 7:
            if target is None:
                raise ApiError(
                    400, 50035, "UPDATE_MESSAGE needs a message to update", kind="invalid_body"
                )
            edit = self._prepare_edit(channel, data, uploads, "data.", target)
        elif kind == 8:
            errors = autocomplete_errors(data)
        elif kind == 9:
            errors = modal_errors(data)
        if errors:
            raise _form_error(errors)
        # Claim the acknowledgement before any await so a concurrent second one is caught.
        interaction.callbacks.append(Callback(kind, data, delay))
        if kind == 9:
            interaction.modal = Modal(data["custom_id"], data["title"], data["components"])
        elif kind in (6, 7):
            interaction.original = target
            if edit is not None and target is not None:
                await self._apply_edit(target, edit)
        elif edit is not None:  # 4, or 5's "thinking" placeholder
            interaction.original = await self._create_message(
                channel,
                edit,
                interaction=interaction,
                ephemeral_to=interaction.member.id,
                loading=kind == 5,
            )
        for listener in self.ack_listeners:
            listener(interaction)
        self.changes.notify()
        if request.query.get("with_response", "").lower() not in ("1", "true"):
            return _no_content()
        return _json(self._callback_response(interaction, kind))

    def _callback_response(self, interaction: Interaction, kind: int) -> JSON:
        original = interaction.original
        state: JSON = {"id": str(interaction.id), "type": interaction.type}
        resource: JSON = {"type": kind}
        if original is not None and kind != 6:
            state |= {
                "response_message_id": str(original.id),
                "response_message_loading": original.loading,
                "response_message_ephemeral": original.ephemeral,
            }
            resource["message"] = original.payload()
        return {"interaction": state, "resource": resource}

    # ------------------------------------------------------------------ REST: interaction webhooks

    def _token_interaction(self, request: web.Request) -> Interaction:
        interaction = self._interactions_by_token.get(request.match_info["token"])
        if int(request.match_info["app_id"]) != self.application_id or interaction is None:
            raise ApiError(404, 10015, "Unknown Webhook", kind="unknown_webhook")
        if not any(callback.type in (4, 5, 6, 7) for callback in interaction.callbacks):
            raise ApiError(
                404, 10015, "Unknown Webhook (interaction not acknowledged)", kind="unknown_webhook"
            )
        return interaction

    def _token_message(self, request: web.Request, interaction: Interaction) -> Message:
        ident = request.match_info["message_id"]
        if ident == "@original":
            message = interaction.original
        else:
            message = next(
                (
                    m
                    for m in [interaction.original, *interaction.followups]
                    if m and m.id == int(ident)
                ),
                None,
            )
        if message is None or message.deleted:
            raise ApiError(404, 10008, "Unknown Message", kind="unknown_message")
        return message

    async def _webhook_execute(self, request: web.Request) -> web.Response:
        interaction = self._token_interaction(request)
        body, uploads = await self._read_body(request)
        original = interaction.original
        wait = request.query.get("wait", "").lower() in ("1", "true")
        if original is not None and original.loading:
            # The first followup after a "thinking" defer fills in the placeholder.
            edit = self._prepare_edit(interaction.channel, body, uploads, "", original)
            interaction.original_edits += 1
            await self._apply_edit(original, edit)
            message = original
        else:
            edit = self._prepare_edit(interaction.channel, body, uploads, "", None)
            message = await self._create_message(
                interaction.channel,
                edit,
                interaction=interaction,
                ephemeral_to=interaction.member.id,
            )
        interaction.followups.append(message)
        self.changes.notify()
        return _json(message.payload()) if wait else _no_content()

    async def _webhook_get(self, request: web.Request) -> web.Response:
        interaction = self._token_interaction(request)
        return _json(self._token_message(request, interaction).payload())

    async def _webhook_edit(self, request: web.Request) -> web.Response:
        interaction = self._token_interaction(request)
        message = self._token_message(request, interaction)
        body, uploads = await self._read_body(request)
        edit = self._prepare_edit(interaction.channel, body, uploads, "", message)
        if message is interaction.original:
            interaction.original_edits += 1
        await self._apply_edit(message, edit)
        return _json(message.payload())

    async def _webhook_delete(self, request: web.Request) -> web.Response:
        interaction = self._token_interaction(request)
        await self._delete(self._token_message(request, interaction))
        return _no_content()

    # ------------------------------------------------------------------ REST: channels & guild

    def _channel_message(self, request: web.Request, channel: Channel) -> Message:
        message = self._messages.get(int(request.match_info["message_id"]))
        if (
            message is None
            or message.channel_id != channel.id
            or message.deleted
            or message.ephemeral
        ):
            raise ApiError(404, 10008, "Unknown Message", kind="unknown_message")
        return message

    def _require_permissions(self, channel: Channel, needed: int) -> None:
        if self.bot_permissions(self.guilds[channel.guild_id]) & needed != needed:
            raise ApiError(403, 50013, "Missing Permissions", kind="missing_permissions")

    async def _get_channel(self, request: web.Request) -> web.Response:
        return _json(self.channel_payload(self._channel(request)))

    async def _get_guild(self, request: web.Request) -> web.Response:
        return _json(self.guild_payload(self._guild(request.match_info["guild_id"])))

    async def _list_messages(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require_permissions(channel, PERM_VIEW_CHANNEL | PERM_READ_MESSAGE_HISTORY)
        if "around" in request.query:
            raise ApiError(400, 0, "the fake does not implement ?around=", kind="unsupported")
        limit = int(request.query.get("limit", "50"))
        if not 1 <= limit <= 100:
            raise _form_error([FormError("limit", "NUMBER_TYPE_MAX", "Must be 1..100.")])
        visible = [
            m for m in self._channel_messages[channel.id] if not m.deleted and not m.ephemeral
        ]
        if "after" in request.query:
            after = int(request.query["after"])
            selected = [m for m in visible if m.id > after][:limit]
        else:
            before = int(request.query.get("before", str(1 << 63)))
            selected = [m for m in visible if m.id < before][-limit:]
        return _json([m.payload() for m in reversed(selected)])

    async def _post_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        body, uploads = await self._read_body(request)
        send = PERM_SEND_MESSAGES_IN_THREADS if channel.is_thread else PERM_SEND_MESSAGES
        self._require_permissions(
            channel, PERM_VIEW_CHANNEL | send | (PERM_ATTACH_FILES if uploads else 0)
        )
        edit = self._prepare_edit(
            channel, body | {"flags": (body.get("flags") or 0) & ~FLAG_EPHEMERAL}, uploads, "", None
        )
        message = await self._create_message(channel, edit)
        return _json(message.payload())

    async def _get_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        self._require_permissions(channel, PERM_VIEW_CHANNEL | PERM_READ_MESSAGE_HISTORY)
        return _json(self._channel_message(request, channel).payload())

    async def _patch_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        message = self._channel_message(request, channel)
        body, uploads = await self._read_body(request)
        await self._apply_edit(message, self._prepare_edit(channel, body, uploads, "", message))
        return _json(message.payload())

    async def _delete_message(self, request: web.Request) -> web.Response:
        channel = self._channel(request)
        await self._delete(self._channel_message(request, channel))
        return _no_content()

    async def _cdn(self, request: web.Request) -> web.Response:
        attachment = self._attachments.get(int(request.match_info["attachment_id"]))
        if attachment is None or attachment.filename != request.match_info["filename"]:
            raise ApiError(404, 0, "404: Not Found", kind="unknown_attachment")
        return web.Response(body=attachment.data, headers={"Content-Type": attachment.content_type})
