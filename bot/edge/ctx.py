"""Discord → plain data: the :class:`~bot.flows.context.Ctx` of an interaction."""

from __future__ import annotations

import discord
from discord import app_commands

from bot.flows.context import Ctx, Deps
from bot.render.lang import personal_voice, speak
from engine.text import shows_something


def deps_of(interaction: discord.Interaction) -> Deps:
    """The store and dice the flows use (the bot hands them over as ``deps``)."""
    deps = getattr(interaction.client, "deps", None)
    if not isinstance(deps, Deps):
        msg = f"interaction handled by {type(interaction.client).__name__}, not the Storyteller bot"
        raise TypeError(msg)
    return deps


def ctx_of(interaction: discord.Interaction, *, readable: bool = False) -> Ctx:
    """Who acts and where; refuses direct messages (every command is a server's). With
    ``readable``, also the channels the member can read (:func:`readable_by`), for what
    counts the rolls of the whole server."""
    if interaction.guild_id is None or interaction.channel_id is None:
        raise app_commands.NoPrivateMessage
    channel = interaction.channel
    user = interaction.user
    roles = frozenset(role.id for role in user.roles) if isinstance(user, discord.Member) else (
        frozenset()
    )
    permissions = interaction.permissions
    return Ctx(
        guild_id=interaction.guild_id,
        channel_id=interaction.channel_id,
        user_id=user.id,
        user_name=shown_name(user),
        parent_id=channel.parent_id if isinstance(channel, discord.Thread) else None,
        manages_channel=permissions.manage_channels,
        manages_guild=permissions.manage_guild,
        role_ids=roles,
        message_id=interaction.message.id if interaction.message is not None else None,
        locale=interaction.locale.value,
        guild_locale=None if interaction.guild_locale is None else interaction.guild_locale.value,
        readable=(
            readable_by(interaction.guild, user)
            if readable and interaction.guild is not None and isinstance(user, discord.Member)
            else frozenset()
        ),
    )


def shown_name(user: discord.User | discord.Member) -> str:
    """The name messages show for who acts: their display name, or their username when the
    display name shows nothing (a Hangul filler, a blank braille pattern: a well-known
    "blank name"; :func:`engine.text.shows_something`), where a card said "Rolled
    by:" and nothing, and a roll could not be told from another's."""
    name = user.display_name
    return name if shows_something(name) else user.name


def readable_by(guild: discord.Guild, member: discord.Member) -> frozenset[int]:
    """The server's channels and threads whose messages ``member`` can read, as far as
    the bot knows them: every channel they may view, and the active threads of those
    (a private one for a member who manages the threads there, or whom the bot knows to
    be in it: Discord tells a bot of the guilds intent little of who is in a thread, and
    discord.py's ``Thread.permissions_for`` ignores it). Archived threads are not cached:
    a roll in one is left out of a player's server totals (bot.flows.stats)."""
    channels = {
        channel.id: channel.permissions_for(member)
        for channel in guild.channels
        if not isinstance(channel, discord.CategoryChannel)
    }
    seen = {channel for channel, permissions in channels.items() if permissions.read_messages}
    threads = {
        thread.id for thread in guild.threads
        if thread.parent_id in seen and (
            not thread.is_private()
            or channels[thread.parent_id].manage_threads
            or any(joined.id == member.id for joined in thread.members)
        )
    }
    return frozenset(seen | threads)


def bot_holds(channel: discord.abc.GuildChannel) -> frozenset[str] | None:
    """The names of the permissions the bot holds in ``channel`` (overwrites included), as
    discord.py computes them from the server it caches, under each of their names
    (``view_channel`` and ``read_messages``); None when it does not know its own member
    there (then nothing is refused for it)."""
    me = channel.guild.me
    if me is None:
        return None
    held = channel.permissions_for(me)
    return frozenset(name for name in discord.Permissions.VALID_FLAGS if getattr(held, name))


def speak_to(interaction: discord.Interaction) -> None:
    """Answer the member in their client's language for the rest of this interaction
    (a flow draws public messages in the table's)."""
    speak(personal_voice(interaction.locale.value))
