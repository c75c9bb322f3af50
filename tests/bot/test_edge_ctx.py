"""The edge's account of who acts and where they can read (bot/edge/ctx.py ``shown_name``,
``readable_by``), and of what the bot itself may do in a channel (``bot_holds``).

`/stats scope:server` counts others' rolls only in the channels and threads the member
can read, so that no total tells them of a roll made where they cannot see it (a
Storyteller's "GM screen"). These are discord.py's own objects, built from gateway
payloads as the guilds intent delivers them, with permission overwrites.
"""

from __future__ import annotations

from typing import Any

import discord
from discord.state import ConnectionState

from bot.edge.ctx import bot_holds, readable_by, shown_name

GUILD, PLAYER, INVITED, MODERATOR = 1000, 2000, 2001, 2002
HALL, SCREEN, CATEGORY = 1, 2, 3
HALL_THREAD, SCREEN_THREAD, HALL_PRIVATE = 11, 21, 12
INVITED_ROLE, MODERATOR_ROLE = 500, 501
VIEW = discord.Permissions(view_channel=True).value


def _role(role_id: int, permissions: discord.Permissions) -> dict[str, Any]:
    return {"id": str(role_id), "name": str(role_id), "permissions": str(permissions.value),
            "position": 0, "color": 0, "hoist": False, "managed": False,
            "mentionable": False}


def _channel(channel_id: int, *overwrites: dict[str, Any], kind: int = 0) -> dict[str, Any]:
    return {"id": str(channel_id), "type": kind, "name": f"c{channel_id}", "position": 0,
            "permission_overwrites": list(overwrites), "guild_id": str(GUILD)}


def _thread(thread_id: int, parent: int, *, private: bool = False) -> dict[str, Any]:
    return {"id": str(thread_id), "type": 12 if private else 11, "parent_id": str(parent),
            "name": f"t{thread_id}", "owner_id": str(MODERATOR), "guild_id": str(GUILD),
            "message_count": 0, "member_count": 1, "rate_limit_per_user": 0, "flags": 0,
            "thread_metadata": {"archived": False, "auto_archive_duration": 60,
                                "archive_timestamp": "2024-01-01T00:00:00+00:00",
                                "locked": False, "invitable": False}}


def _guild() -> discord.Guild:
    """A hall everyone reads, with a thread and a private thread; a Storyteller's screen
    hidden from @everyone, shown to one role, with a thread; a category."""
    state = ConnectionState(dispatch=lambda *_: None, handlers={}, hooks={}, http=None,  # type: ignore[arg-type]
                            intents=discord.Intents(guilds=True))
    hidden = {"id": str(GUILD), "type": 0, "allow": "0", "deny": str(VIEW)}
    shown = {"id": str(INVITED_ROLE), "type": 0, "allow": str(VIEW), "deny": "0"}
    data: Any = {
        "id": str(GUILD), "name": "table", "member_count": 3, "features": [],
        "emojis": [], "stickers": [],
        "roles": [_role(GUILD, discord.Permissions(view_channel=True, send_messages=True)),
                  _role(INVITED_ROLE, discord.Permissions.none()),
                  _role(MODERATOR_ROLE, discord.Permissions(manage_threads=True))],
        "channels": [_channel(HALL), _channel(SCREEN, hidden, shown),
                     _channel(CATEGORY, kind=4)],
        "threads": [_thread(HALL_THREAD, HALL), _thread(SCREEN_THREAD, SCREEN),
                    _thread(HALL_PRIVATE, HALL, private=True)],
    }
    return discord.Guild(data=data, state=state)


def _member(
    guild: discord.Guild, member_id: int, *roles: int, nick: str | None = None
) -> discord.Member:
    data: Any = {"user": {"id": str(member_id), "username": str(member_id),
                          "discriminator": "0", "avatar": None},
                 "roles": [str(role) for role in roles], "joined_at": None,
                 "deaf": False, "mute": False, "flags": 0, "nick": nick}
    return discord.Member(data=data, guild=guild, state=guild._state)


def test_a_member_whose_name_shows_nothing_is_named_by_their_username() -> None:
    """A display name of Hangul fillers or a blank braille pattern (a well-known "blank
    name") shows nothing on a card: the member is named by their username instead, so the
    table sees who rolled; any name that shows something is kept as it is."""
    guild = _guild()
    for blank in ("\u3164", "\u2800\u2800", "\u115f\u1160", "\u200b"):
        assert shown_name(_member(guild, PLAYER, nick=blank)) == str(PLAYER)
    assert shown_name(_member(guild, PLAYER, nick="Mara ✨")) == "Mara ✨"
    assert shown_name(_member(guild, PLAYER)) == str(PLAYER)


def test_a_player_reads_the_channels_they_may_view_and_their_public_threads() -> None:
    """A channel denied to @everyone, and its threads, are no part of what a player
    reads; nor a private thread the bot does not know them to be in; nor a category."""
    guild = _guild()
    assert readable_by(guild, _member(guild, PLAYER)) == {HALL, HALL_THREAD}


def test_a_member_let_into_a_hidden_channel_reads_it_and_its_threads() -> None:
    guild = _guild()
    assert readable_by(guild, _member(guild, INVITED, INVITED_ROLE)) == {
        HALL, HALL_THREAD, SCREEN, SCREEN_THREAD,
    }


def test_a_private_thread_is_read_by_who_manages_threads_there() -> None:
    """Discord shows every private thread to a member with Manage Threads."""
    guild = _guild()
    assert readable_by(guild, _member(guild, MODERATOR, MODERATOR_ROLE)) == {
        HALL, HALL_THREAD, HALL_PRIVATE,
    }


def test_the_bot_holds_what_the_servers_roles_and_the_channels_overwrites_give_it() -> None:
    """`/config storyteller channel:` is refused where the bot may not post a copy: its
    permissions there are the server's roles with the channel's overwrites, as Discord
    computes them (a channel hidden from @everyone hides everything in it); unknown while
    the bot does not know its own member."""
    guild = _guild()
    hall, screen = guild.get_channel(HALL), guild.get_channel(SCREEN)
    assert hall is not None and screen is not None
    guild._state.user = _member(guild, PLAYER)  # type: ignore[assignment]
    assert bot_holds(hall) is None
    guild._add_member(_member(guild, PLAYER))
    held = bot_holds(hall)
    assert held is not None
    assert {"view_channel", "send_messages"} <= held and "embed_links" not in held
    assert bot_holds(screen) == frozenset()
