"""What-if experiments: run the bot with a candidate optimisation patched in at start-up.

Used by ``python -m bench.load --whatif NAME[,NAME...]`` to measure a fix before anyone
changes the bot's code; nothing in ``bot/`` is edited. The bot process is started as::

    python -m bench.whatif intents,sync-normal -- -m bot

which applies the named patches, then runs ``python -m bot`` (or, with
``-- tests/e2e/bare_bot.py``, the bare bot) in the same interpreter. The figures of a
what-if run are evidence for a proposal, not the bot's benchmark figures.

Patches (each models one change proposed in BENCHMARKS.md):

``intents``
    The bot asks for the ``guilds`` intent only, not ``Intents.default()``: Discord then
    stops sending it MESSAGE_CREATE/UPDATE/DELETE (every message in every channel it can
    see, its own replies included), typing, reactions and the rest, which it never uses.
``sync-normal``
    ``PRAGMA synchronous = NORMAL`` on the store's connection: in WAL mode a commit no
    longer waits for an fsync (the database stays consistent; a power cut can lose the
    last commits, an application crash cannot).
``config-cache``
    ``Store.get_channel_config`` answers from memory, refreshed when a setting changes:
    today every /roll reads it twice (a read transaction of four SQL round trips each).
``attach-autocommit``
    ``Store.attach_roll_messages`` (and ``attach_action_message``) run their single UPDATE
    as one statement under the store's lock instead of BEGIN IMMEDIATE / UPDATE / cursor
    close / COMMIT (the same SQL as bot/store/rolls.py and actions.py).
``direct-store``
    The store's repositories run on a plain ``sqlite3`` connection on the event loop's
    thread (bench/direct_sqlite.py): no round trip to aiosqlite's thread per statement.
    Models running each transaction in one hop (or SQLite on the loop thread).
``odds-png``
    The /odds chart is encoded with ``compress_level=1`` instead of ``optimize=True``
    (Pillow's slowest setting: 23 of the chart's 26 ms).
"""

from __future__ import annotations

import functools
import runpy
import sys
from collections.abc import Callable
from typing import Any


def _intents() -> None:
    import discord  # noqa: PLC0415 - patched in the bot's process only

    def guilds_only(cls: type[discord.Intents]) -> discord.Intents:
        return cls(guilds=True)

    discord.Intents.default = classmethod(guilds_only)  # type: ignore[assignment,method-assign]


def _sync_normal() -> None:
    from bot.store.store import Store  # noqa: PLC0415

    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[Store], *args: Any, **kwargs: Any) -> Store:
        store: Store = await original(cls, *args, **kwargs)
        await store._conn.execute("PRAGMA synchronous = NORMAL")
        return store

    Store.open = classmethod(open_)  # type: ignore[assignment,method-assign]


def _config_cache() -> None:
    from bot.store.store import Store  # noqa: PLC0415

    cache: dict[tuple[int, int, int | None], Any] = {}
    read = Store.get_channel_config

    @functools.wraps(read)
    async def get_channel_config(
        self: Store, guild_id: int, channel_id: int, parent_id: int | None = None
    ) -> Any:
        key = (guild_id, channel_id, parent_id)
        if key not in cache:
            cache[key] = await read(self, guild_id, channel_id, parent_id)
        return cache[key]

    def clearing(write: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(write)
        async def wrapper(*args: Any, **kwargs: Any) -> Any:
            try:
                return await write(*args, **kwargs)
            finally:
                cache.clear()

        return wrapper

    Store.get_channel_config = get_channel_config  # type: ignore[method-assign]
    for name in ("set_guild_ruleset", "set_channel_option", "set_storyteller"):
        setattr(Store, name, clearing(getattr(Store, name)))


def _attach_autocommit() -> None:
    from bot.store.store import Store  # noqa: PLC0415

    async def attach_roll_messages(
        self: Store,
        roll_id: int,
        message_id: int,
        *,
        copy_channel_id: int | None = None,
        copy_message_id: int | None = None,
    ) -> None:
        async with self._lock:
            await self._conn.execute(
                "UPDATE rolls SET message_id = ?, copy_channel_id = ?, copy_message_id = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (message_id, copy_channel_id, copy_message_id, roll_id),
            )

    Store.attach_roll_messages = attach_roll_messages  # type: ignore[method-assign]

    async def attach_action_message(self: Store, action_id: int, message_id: int) -> None:
        async with self._lock:
            await self._conn.execute(
                "UPDATE actions SET message_id = ?,"
                " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now') WHERE id = ?",
                (message_id, action_id),
            )

    if hasattr(Store, "attach_action_message"):
        Store.attach_action_message = attach_action_message  # type: ignore[method-assign]


def _direct_store() -> None:
    from bench.direct_sqlite import DirectConnection  # noqa: PLC0415
    from bot.store.store import Store  # noqa: PLC0415

    original = Store.open.__func__  # type: ignore[attr-defined]

    async def open_(cls: type[Store], path: Any, *args: Any, **kwargs: Any) -> Store:
        store: Store = await original(cls, path, *args, **kwargs)  # migrations, as the bot does
        await store.close()
        synchronous = "NORMAL" if "sync-normal" in _APPLIED else None
        return cls(DirectConnection(path, synchronous=synchronous))  # type: ignore[arg-type]

    Store.open = classmethod(open_)  # type: ignore[assignment,method-assign]


def _odds_png() -> None:
    from PIL import Image  # noqa: PLC0415

    save = Image.Image.save

    def fast_save(self: Image.Image, fp: Any, format: str | None = None, **params: Any) -> None:  # noqa: A002
        if format == "PNG" and params.pop("optimize", False):
            params["compress_level"] = 1
        save(self, fp, format, **params)

    Image.Image.save = fast_save  # type: ignore[method-assign]


_APPLIED: list[str] = []

PATCHES: dict[str, Callable[[], None]] = {
    "intents": _intents,
    "sync-normal": _sync_normal,
    "config-cache": _config_cache,
    "attach-autocommit": _attach_autocommit,
    "direct-store": _direct_store,
    "odds-png": _odds_png,
}


def main() -> None:
    names, separator, target = sys.argv[1], sys.argv[2], sys.argv[3:]
    if separator != "--" or not target:
        sys.exit("usage: python -m bench.whatif NAME[,NAME...] -- (-m MODULE | SCRIPT) [ARGS]")
    _APPLIED.extend(filter(None, names.split(",")))
    for name in _APPLIED:
        PATCHES[name]()
    if target[0] == "-m":
        sys.argv = [target[1], *target[2:]]
        runpy.run_module(target[1], run_name="__main__", alter_sys=True)
    else:
        sys.argv = target
        runpy.run_path(target[0], run_name="__main__")


if __name__ == "__main__":
    main()
