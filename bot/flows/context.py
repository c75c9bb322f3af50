"""Who acts, where, and what a flow may use: plain data, no discord objects.

The edge builds a :class:`Ctx` from an interaction (:mod:`bot.edge.ctx`); the
tests build one by hand. A flow reads the channel's settings in its own one
read, together with the rest of what it needs, so a command costs one trip
for everything it gathers (:meth:`Ctx.config` and :meth:`Ctx.storyteller`
work on what that read returned).
"""

from __future__ import annotations

from dataclasses import dataclass

from bot.render.lang import Voice, public_voice
from bot.store import Store, Tx
from bot.store.repository import Query, Viewer
from bot.store.settings import NOBODY, SettingsRepository
from engine.faces import FaceSource
from engine.records import ActionRecord, ChannelConfig, CharacterRecord, TrackerRecord


@dataclass(frozen=True, slots=True)
class Deps:
    """What every flow may use: the store and the dice."""

    store: Store
    faces: FaceSource


@dataclass(frozen=True, slots=True)
class Ctx:
    """One interaction, as plain data."""

    guild_id: int
    channel_id: int
    user_id: int
    user_name: str
    """The member's display name, as messages show it."""
    parent_id: int | None = None
    """The channel a thread belongs to (its settings apply in the thread too)."""
    manages_channel: bool = False
    """Manage Channels here: a Storyteller and a channel admin."""
    manages_guild: bool = False
    """Manage Server: a server admin."""
    role_ids: frozenset[int] = frozenset()
    message_id: int | None = None
    """The message whose button was pressed, if any."""
    locale: str | None = None
    """The member's Discord client language (their own answers speak it)."""
    guild_locale: str | None = None
    """The server's preferred locale on Discord (public messages, unless a setting says)."""
    readable: frozenset[int] = frozenset()
    """The channels and threads of the server the member can read, besides this one,
    worked out by the edge only for what needs them (the /stats server scope); empty
    otherwise, when only this channel is known to be readable."""

    def config(self, tx: Tx) -> ChannelConfig:
        """Inside a read: the settings in force here."""
        return tx.settings.config(self.guild_id, self.channel_id, self.parent_id)

    def config_query(
        self, *, character: bool = False
    ) -> Query[tuple[ChannelConfig, CharacterRecord | None]]:
        """The settings in force here (with the member's active character if
        ``character``, else None) as a query, to read in one statement with another read
        (``Queries.both``, ``RollRepository.beside_pressed``)."""
        return SettingsRepository.config_query(
            self.guild_id, self.channel_id, self.parent_id,
            self.user_id if character else NOBODY,
        )

    def config_and_character(self, tx: Tx) -> tuple[ChannelConfig, CharacterRecord | None]:
        """Inside a read: the settings in force here and the member's active character
        (channel pin, parent, server), in one statement."""
        return tx.settings.config_and_character(
            self.guild_id, self.channel_id, self.parent_id, self.user_id
        )

    def public_voice(self, config: ChannelConfig) -> Voice:
        """The language of messages the table sees here; draw them inside
        ``with speaking(ctx.public_voice(config))`` (a member's own answers keep theirs)."""
        return public_voice(config.language, self.guild_locale)

    def viewer(self, *, server: bool = False) -> Viewer:
        """Who reads, for a read that decides in its statement what a Storyteller alone sees
        (:meth:`storyteller` with the settings as they are there; with ``server``, a
        Storyteller over the whole server: Manage Server, or the server's role)."""
        return Viewer(self.guild_id, self.user_id,
                      storyteller=self.manages_guild if server else self.manages_channel,
                      role_ids=self.role_ids)

    def here(self, record: ActionRecord | TrackerRecord) -> bool:
        """Whether ``record`` (an action: extended, teamwork, contest; or an initiative
        tracker) is this channel's. A card is posted in its action's channel, so a key of
        another channel's or server's action (a forged custom_id) names none of this one,
        whoever is the Storyteller here."""
        return (record.guild_id, record.channel_id) == (self.guild_id, self.channel_id)

    def storyteller(self, config: ChannelConfig) -> bool:
        """A Storyteller here: Manage Channels, or the role an admin set."""
        return self.manages_channel or (
            config.storyteller_role_id is not None
            and config.storyteller_role_id in self.role_ids
        )
