"""The bot object: settings, store and dice are handed in by the composition root."""

from __future__ import annotations

import logging
from typing import Any

import discord
from discord.ext import commands

from bot.edge import forms
from bot.edge.buttons import Pressed, answer_unrouted
from bot.edge.errors import StorytellerTree
from bot.edge.translator import CatalogueTranslator
from bot.flows.context import Deps
from bot.render.lang import voice
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
            synced = await self.tree.sync(guild=guild)
            log.info("Synced %d commands to guild %s", len(synced), guild.id)
        if self.settings.sync_commands:
            synced = await self.tree.sync()
            log.info("Synced %d commands globally", len(synced))

    async def on_interaction(self, interaction: discord.Interaction) -> None:
        """Forms go to the one form router; presses nothing else answers (stale, foreign or
        forged buttons) are answered, so no interaction is left failing."""
        await forms.route(interaction)
        await answer_unrouted(interaction)

    async def on_ready(self) -> None:
        log.info("Ready as %s in %d servers", self.user, len(self.guilds))


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
