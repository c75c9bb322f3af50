"""The fake gateway: one websocket endpoint speaking Discord's v10 gateway protocol.

Supports what discord.py's ``DiscordWebSocket`` exercises: HELLO, heartbeats, IDENTIFY →
READY + a GUILD_CREATE per guild (with ``shard: [id, count]`` each guild is sent to, and
its events routed to, only the session whose shard owns it: ``(guild_id >> 22) % count``;
the latest IDENTIFY or RESUME owning a guild serves it), RESUME →
RESUMED (or INVALID_SESSION for unknown sessions), and
``compress=zlib-stream`` (one deflate stream per connection, every frame ending in the
Z_SYNC_FLUSH suffix) or plain JSON text frames when no compression is asked for.
"""

from __future__ import annotations

import asyncio
import json
import secrets
import zlib
from dataclasses import dataclass
from typing import TYPE_CHECKING

from aiohttp import WSMsgType, web

from .model import JSON

if TYPE_CHECKING:
    from .fake import FakeDiscord

HEARTBEAT_INTERVAL_MS = 41_250
INTENT_GUILDS = 1 << 0
INTENT_GUILD_MEMBERS = 1 << 1
INTENT_GUILD_MESSAGES = 1 << 9


class Connection:
    """One websocket; sends are serialised so the shared deflate stream stays in order."""

    def __init__(self, ws: web.WebSocketResponse, *, zlib_stream: bool) -> None:
        self.ws = ws
        self._deflate = zlib.compressobj() if zlib_stream else None
        self._lock = asyncio.Lock()
        self.session: Session | None = None

    async def send(self, payload: JSON) -> None:
        async with self._lock:
            await self._send_locked(payload)

    async def send_dispatch(self, session: Session, event: str, data: JSON) -> None:
        async with self._lock:
            session.seq += 1
            await self._send_locked({"op": 0, "t": event, "s": session.seq, "d": data})

    async def _send_locked(self, payload: JSON) -> None:
        text = json.dumps(payload)
        if self._deflate is None:
            await self.ws.send_str(text)
        else:
            frame = self._deflate.compress(text.encode()) + self._deflate.flush(zlib.Z_SYNC_FLUSH)
            await self.ws.send_bytes(frame)


@dataclass(eq=False)
class Session:
    id: str
    intents: int
    seq: int = 0
    connection: Connection | None = None
    #: The ``[shard_id, shard_count]`` it IDENTIFYed with (None: unsharded, every guild).
    shard: tuple[int, int] | None = None

    def owns(self, guild_id: int) -> bool:
        """Whether Discord sends this guild's events to this session."""
        return self.shard is None or (guild_id >> 22) % self.shard[1] == self.shard[0]


class Gateway:
    """Gateway state. ``current`` serves the fake's own guild: the session of the most
    recent IDENTIFY (or RESUME) whose shard owns it; :meth:`session_for` any guild's."""

    def __init__(self, fake: FakeDiscord) -> None:
        self._fake = fake
        self._sessions: dict[str, Session] = {}
        self._connections: set[Connection] = set()
        #: The session serving each guild (the latest IDENTIFY or RESUME that owns it).
        self._serving: dict[int, Session] = {}
        self._order = asyncio.Lock()
        #: Model events waiting to go out: (guild id, event, data).
        self._queued: list[tuple[int, str, JSON]] = []
        self._flushes: set[asyncio.Task[None]] = set()
        self.identifies = 0
        #: The ``shard`` of each IDENTIFY in order (None: unsharded).
        self.identified_shards: list[tuple[int, int] | None] = []
        self.resumes = 0
        self.compressions: list[str | None] = []

    @property
    def current(self) -> Session | None:
        """The session serving the fake's own guild."""
        return self._serving.get(self._fake.guild_id)

    def session_for(self, guild_id: int) -> Session | None:
        """The session serving ``guild_id`` (connected or not), if any ever did."""
        return self._serving.get(guild_id)

    def serving(self, guild_id: int) -> bool:
        """Whether a connected session receives ``guild_id``'s events."""
        session = self._serving.get(guild_id)
        return session is not None and session.connection is not None

    @property
    def connected(self) -> bool:
        return self.serving(self._fake.guild_id)

    def receives_messages(self, guild_id: int | None = None) -> bool:
        session = self._serving.get(self._fake.guild_id if guild_id is None else guild_id)
        return session is not None and bool(session.intents & INTENT_GUILD_MESSAGES)

    async def dispatch(
        self, event: str, data: JSON, *, required: bool = True, guild_id: int | None = None
    ) -> Session | None:
        """Send a DISPATCH on the session serving ``guild_id`` (default: the fake's own
        guild); return that session (None when dropped).

        ``required`` events (interactions) raise if the bot is not connected; the others
        (echoes of the bot's own messages) are dropped, as Discord drops them for a client
        that is gone. Queued model events go out first, so a role or channel a test just
        created is in the bot's cache before any interaction that mentions it.
        """
        async with self._order:
            await self._flush_locked()
            session = self._serving.get(self._fake.guild_id if guild_id is None else guild_id)
            if session is None or session.connection is None:
                if required:
                    raise RuntimeError(
                        f"cannot dispatch {event}: the bot is not connected to the fake gateway"
                    )
                return None
            try:
                await session.connection.send_dispatch(session, event, data)
            except ConnectionResetError:
                if required:
                    raise
                return None
            return session

    def queue(self, event: str, data: JSON, *, intent: int, guild_id: int | None = None) -> None:
        """Tell a connected bot about a model change of ``guild_id`` (default: the fake's
        own guild); model setup is synchronous.

        Nothing is queued before the bot connects: GUILD_CREATE carries the whole model.
        """
        guild = self._fake.guild_id if guild_id is None else guild_id
        session = self._serving.get(guild)
        if session is None or session.connection is None or not session.intents & intent:
            return
        self._queued.append((guild, event, data))
        self._schedule_flush()

    def guild_added(self, guild_id: int) -> None:
        """The bot joined a guild: the latest connected session owning it serves it and
        is sent its GUILD_CREATE."""
        owner = next(
            (
                session
                for session in reversed(self._sessions.values())
                if session.connection is not None and session.owns(guild_id)
            ),
            None,
        )
        if owner is None:
            return
        self._serving[guild_id] = owner
        self.queue(
            "GUILD_CREATE",
            self._fake.guild_create_payload(self._fake.guilds[guild_id]),
            intent=INTENT_GUILDS,
            guild_id=guild_id,
        )

    def _schedule_flush(self) -> None:
        task = asyncio.get_running_loop().create_task(self._flush())
        self._flushes.add(task)
        task.add_done_callback(self._flushes.discard)

    async def _flush(self) -> None:
        async with self._order:
            await self._flush_locked()

    async def _flush_locked(self) -> None:
        """Send each queued event whose guild's session is connected, in order; the others
        wait (a RESUME sends them, an IDENTIFY's GUILD_CREATE replaces them)."""
        waiting: list[tuple[int, str, JSON]] = []
        while self._queued:
            guild_id, event, data = self._queued.pop(0)
            session = self._serving.get(guild_id)
            if session is None or session.connection is None:
                waiting.append((guild_id, event, data))
                continue
            try:
                await session.connection.send_dispatch(session, event, data)
            except ConnectionResetError:  # the next IDENTIFY's GUILD_CREATE carries the model
                self._queued = [item for item in self._queued if item[0] != guild_id]
                waiting = [item for item in waiting if item[0] != guild_id]
        self._queued = waiting

    async def reconnect(self) -> None:
        """Ask the client to reconnect (op 7); discord.py then RESUMEs at resume_gateway_url."""
        await self._live_connection().send({"op": 7, "d": None, "s": None, "t": None})

    async def invalidate_session(self) -> None:
        """Send INVALID_SESSION(false): the client must IDENTIFY again from DEFAULT_GATEWAY."""
        connection = self._live_connection()
        if connection.session is not None:
            self._sessions.pop(connection.session.id, None)
        await connection.send({"op": 9, "d": False, "s": None, "t": None})

    def _live_connection(self) -> Connection:
        if self.current is None or self.current.connection is None:
            raise RuntimeError("the bot is not connected to the fake gateway")
        return self.current.connection

    async def close(self) -> None:
        for task in list(self._flushes):
            await task
        for connection in list(self._connections):
            await connection.ws.close(code=1001, message=b"fake Discord shutting down")

    async def handle(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        compress = request.query.get("compress")
        self.compressions.append(compress)
        if compress not in (None, "zlib-stream"):
            self._fake.record_failure(
                "unsupported", "GET", request.path_qs, 400, f"compress={compress}"
            )
            await ws.close(code=4000, message=b"unsupported compression")
            return ws
        connection = Connection(ws, zlib_stream=compress == "zlib-stream")
        self._connections.add(connection)
        try:
            await connection.send(
                {"op": 10, "d": {"heartbeat_interval": HEARTBEAT_INTERVAL_MS}, "s": None, "t": None}
            )
            async for message in ws:
                if message.type is WSMsgType.TEXT:
                    await self._on_payload(connection, json.loads(message.data))
                else:
                    self._fake.record_failure(
                        "gateway", "WS", "/", 400, f"unexpected frame {message.type!r}"
                    )
        finally:
            self._connections.discard(connection)
            if connection.session is not None and connection.session.connection is connection:
                connection.session.connection = None
            self._fake.changes.notify()
        return ws

    async def _on_payload(self, connection: Connection, payload: JSON) -> None:
        op = payload.get("op")
        data: JSON = payload.get("d") or {}
        if op == 1:
            await connection.send({"op": 11, "d": None, "s": None, "t": None})
        elif op == 2:
            await self._identify(connection, data)
        elif op == 6:
            await self._resume(connection, data)
        elif op == 3:
            return  # presence updates need no answer
        else:
            self._fake.record_failure(
                "unsupported", "WS", "/", 400, f"gateway opcode {op}: {payload}"
            )

    async def _identify(self, connection: Connection, data: JSON) -> None:
        if data.get("token") != self._fake.token:
            self._fake.record_failure("auth", "WS", "/", 401, "IDENTIFY with a wrong token")
            await connection.ws.close(code=4004, message=b"Authentication failed.")
            return
        shard = data.get("shard")
        if shard is not None and not (
            isinstance(shard, list) and len(shard) == 2 and 0 <= shard[0] < shard[1]
        ):
            self._fake.record_failure("gateway", "WS", "/", 400, f"IDENTIFY shard {shard!r}")
            await connection.ws.close(code=4010, message=b"Invalid shard.")
            return
        session = Session(
            id=secrets.token_hex(16),
            intents=int(data.get("intents", 0)),
            connection=connection,
            shard=None if shard is None else (shard[0], shard[1]),
        )
        self._sessions[session.id] = session
        connection.session = session
        self.identified_shards.append(session.shard)
        owned = [guild_id for guild_id in self._fake.guilds if session.owns(guild_id)]
        # The GUILD_CREATEs below carry the whole current model of the guilds it owns.
        self._queued = [item for item in self._queued if item[0] not in owned]
        ready = self._fake.ready_payload(session.id, guild_ids=owned)
        if shard is not None:
            ready["shard"] = shard  # Discord echoes it; discord.py's sharded client reads it
        await connection.send_dispatch(session, "READY", ready)
        for guild_id in owned:
            guild = self._fake.guild_create_payload(self._fake.guilds[guild_id])
            await connection.send_dispatch(session, "GUILD_CREATE", guild)
            self._serving[guild_id] = session
        self.identifies += 1
        self._fake.changes.notify()

    async def _resume(self, connection: Connection, data: JSON) -> None:
        session = self._sessions.get(data.get("session_id", ""))
        if session is None or data.get("token") != self._fake.token:
            await connection.send({"op": 9, "d": False, "s": None, "t": None})
            return
        session.connection = connection
        connection.session = session
        await connection.send_dispatch(session, "RESUMED", {})
        for guild_id in self._fake.guilds:
            if session.owns(guild_id):
                self._serving[guild_id] = session
        self.resumes += 1
        self._fake.changes.notify()
