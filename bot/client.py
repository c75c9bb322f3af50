"""The bot object: settings, store and dice are handed in by the composition root."""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Callable
from typing import Any, Final

import discord
from discord.ext import commands

from bot.edge import forms
from bot.edge.buttons import Pressed, answer_unrouted
from bot.edge.ctx import speak_to
from bot.edge.errors import StorytellerTree, reply_ephemeral
from bot.edge.respond import pending_edits
from bot.edge.translator import CatalogueTranslator
from bot.flows.context import Deps
from bot.render.lang import _, voice
from bot.render.messages import STOPPING
from bot.settings import Settings
from bot.store import Store
from engine.faces import FaceSource
from engine.records import Language

log = logging.getLogger(__name__)

#: Every extension, loaded explicitly (a test checks none is missing).
EXTENSIONS: tuple[str, ...] = (
    "bot.cogs.rolling",
    "bot.cogs.will",
    "bot.cogs.history",
    "bot.cogs.config",
    "bot.cogs.help",
    "bot.cogs.clock",
    "bot.cogs.extended",
    "bot.cogs.teamwork",
    "bot.cogs.contest",
    "bot.cogs.multi",
    "bot.cogs.initiative",
    "bot.cogs.characters",
    "bot.cogs.stats",
    "bot.cogs.saved",
)

#: How long a stopping bot lets the interactions it is handling finish, in seconds: an
#: answer is due within Discord's 3, a write waits at most SQLite's 5 s busy timeout, and
#: most supervisors (``docker stop``, the end-to-end harness) send SIGKILL after 10.
DRAIN_SECONDS: Final = 8.0

#: The interactions a stopping bot answers that it stops (an autocomplete has no message).
_ANSWERED_WHILE_STOPPING: Final = (
    discord.InteractionType.application_command,
    discord.InteractionType.component,
    discord.InteractionType.modal_submit,
)


class GuildSyncRefusedError(Exception):
    """Discord refused the commands for ``DEV_GUILD_ID`` (403 Missing Access, 404 Unknown
    Guild): the bot is not in that server (or not with the applications.commands scope), or
    the id is no server's. The start stops there; the composition root says so in one line,
    where a traceback ended it."""

    def __init__(self, guild_id: int, error: discord.HTTPException) -> None:
        super().__init__(str(error))
        self.guild_id = guild_id


class StorytellerBot(commands.Bot):
    """A dice bot for Storyteller tables."""

    def __init__(self, *, settings: Settings, store: Store, faces: FaceSource) -> None:
        super().__init__(
            command_prefix=commands.when_mentioned,
            help_command=None,
            # Slash commands and buttons arrive as interactions: only the guilds intent is
            # needed (for channels and roles), no message or member events to parse.
            intents=discord.Intents(guilds=True),
            tree_cls=StorytellerTree,
            allowed_mentions=discord.AllowedMentions.none(),
            **self._shard_options(settings),
        )
        self.settings = settings
        self.store = store
        self.faces = faces
        self.deps = Deps(store=store, faces=faces)
        self._stopping = False
        #: The tasks handling each interaction (discord.py's), until they end.
        self._handling: set[asyncio.Task[Any]] = set()
        # Every interaction goes through this parser, on every shard: wrapped to see it.
        parsers = self._connection.parsers
        parsers["INTERACTION_CREATE"] = functools.partial(
            self._interaction_arrived, parsers["INTERACTION_CREATE"])

    @staticmethod
    def _shard_options(settings: Settings) -> dict[str, Any]:
        """Options for the client class below :class:`commands.Bot`: none when unsharded."""
        return {}

    async def setup_hook(self) -> None:
        for language in Language:  # read the catalogues now, not in a member's interaction
            voice(language)
        await self.tree.set_translator(CatalogueTranslator())
        self.add_dynamic_items(Pressed)
        for extension in EXTENSIONS:
            await self.load_extension(extension)
        await self._sync()

    async def _sync(self) -> None:
        """Sync deliberately: to the development guild if set, globally only when asked;
        of several processes only the one running shard 0 syncs."""
        if not self.settings.syncs_commands:
            log.info("Commands not synced: the process running shard 0 syncs them")
            return
        if self.settings.dev_guild_id is not None:
            guild = discord.Object(id=self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            try:
                synced = await self.tree.sync(guild=guild)
            except (discord.Forbidden, discord.NotFound) as error:
                raise GuildSyncRefusedError(guild.id, error) from None
            log.info("Synced %d commands to guild %s", len(synced), guild.id)
        if self.settings.sync_commands:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms go to the one form router; presses nothing else answers (stale, foreign or
        forged buttons) are answered, so no interaction is left failing."""
        await forms.route(interaction)
        await answer_unrouted(interaction)

    def _interaction_arrived(self, parse: Callable[[Any], None], data: Any) -> None:
        """An interaction from the gateway: handled as discord.py does, its tasks kept for
        :meth:`drain`; once the bot stops, answered that it does, and not handled."""
        if self._stopping:
            self._keep({asyncio.get_running_loop().create_task(self._answer_stopping(data))})
            return
        before = asyncio.all_tasks()
        parse(data)
        self._keep(asyncio.all_tasks() - before)

    def _keep(self, tasks: set[asyncio.Task[Any]]) -> None:
        for task in tasks:
            self._handling.add(task)
            task.add_done_callback(self._handling.discard)

    async def _answer_stopping(self, data: Any) -> None:
        interaction: discord.Interaction = discord.Interaction(data=data, state=self._connection)
        if interaction.type not in _ANSWERED_WHILE_STOPPING:
            return
        speak_to(interaction)
        try:
            await reply_ephemeral(interaction, _(STOPPING))
        except discord.HTTPException as error:
            log.info("Could not tell interaction %s the bot stops: %s", interaction.id, error)

    async def drain(self, grace: float = DRAIN_SECONDS) -> None:
        """Stop handling interactions (each new one is told the bot stops, nothing done) and
        let those being handled, and their background edits, end within ``grace`` seconds,
        before the connection closes: a roll made as SIGTERM came is still answered, where
        it was kept and never shown (its answer on a closed connection), or cut in its
        write with no answer."""
        self._stopping = True
        loop = asyncio.get_running_loop()
        deadline = loop.time() + grace
        while pending := {task for task in self._handling | pending_edits() if not task.done()}:
            left = deadline - loop.time()
            if left <= 0:
                log.warning("Stopping with %d interactions or edits unfinished", len(pending))
                return
            await asyncio.wait(pending, timeout=left)

    async def on_ready(self) -> None:
        if self.guilds:
            log.info("Ready as %s in %d servers", self.user, len(self.guilds))
            return
        # A bot in no server answers nobody: the operator has yet to invite it. A process
        # running some of several shards may hold none while the others hold them all.
        client_id = self.application_id or (None if self.user is None else self.user.id)
        shards = self.shard_count or 1
        log.warning(
            "Ready as %s in 0 servers%s: invite it to your server with %s (README: \"Create"
            " the Discord application and invite the bot\")", self.user,
            "" if shards == 1 else f" (the processes of its other shards of {shards} may hold"
            " them all; if none does)",
            "README's URL (your application's id in it)" if client_id is None
            else invite_url(client_id))


#: The bot permissions README's invite step gives (its permissions integer 274878024704):
#: see, send (in threads too), embed, attach (exports) and read the history (its cards).
INVITE_PERMISSIONS: Final = discord.Permissions(
    view_channel=True, send_messages=True, send_messages_in_threads=True, embed_links=True,
    attach_files=True, read_message_history=True,
)


def invite_url(client_id: int) -> str:
    """The URL that invites the bot with README's scopes and permissions."""
    return discord.utils.oauth_url(client_id, permissions=INVITE_PERMISSIONS,
                                   scopes=("bot", "applications.commands"))


class ShardedStorytellerBot(StorytellerBot, commands.AutoShardedBot):
    """The same bot on discord.py's sharded client: ``SHARD_COUNT`` shards in all, this
    process running ``SHARD_IDS`` (every shard when unset). Each guild's events arrive
    on the shard ``(guild_id >> 22) % SHARD_COUNT``."""

    @staticmethod
    def _shard_options(settings: Settings) -> dict[str, Any]:
        ids = None if settings.shard_ids is None else list(settings.shard_ids)
        return {"shard_count": settings.shard_count, "shard_ids": ids}


def build_bot(*, settings: Settings, store: Store, faces: FaceSource) -> StorytellerBot:
    """The sharded bot when ``SHARD_COUNT`` is set, else the plain one."""
    kind = ShardedStorytellerBot if settings.sharded else StorytellerBot
    return kind(settings=settings, store=store, faces=faces)
