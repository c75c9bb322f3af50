"""Server and channel settings, and the configuration in force in a channel."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from bot.store.characters import record_of
from bot.store.repository import Query, Repository
from engine.models import Ruleset
from engine.records import (
    Change,
    ChannelConfig,
    ChannelOption,
    ChannelSettings,
    CharacterRecord,
    GuildSettings,
    Language,
    OptionValue,
)

#: A member id no member has (Discord's ids are positive): the settings without a sheet.
NOBODY: Final = 0


#: Each option's columns in :meth:`SettingsRepository.config_query`'s row, the nearest
#: level first: the channel's, its parent's, then the server's (only the ruleset and the
#: language have a server-wide value).
_LEVELS: Final = {
    option: (f"c_{option.value}", f"p_{option.value}",
             *((f"g_{option.value}",) if option in {ChannelOption.RULESET,
                                                      ChannelOption.LANGUAGE} else ()))
    for option in ChannelOption
}


def _config(
    found: Mapping[str, Any], guild_id: int, channel_id: int, parent_id: int | None
) -> ChannelConfig:
    """The settings in force from a row of :meth:`SettingsRepository.config_query`
    (``g_`` the server, ``c_`` the channel, ``p_`` its parent, NULL where a level has no
    row; the character's ``ch_`` columns are ignored here): each option's nearest value
    that is set, validated once, in the settings in force."""
    values: dict[str, Any] = {
        "guild_id": guild_id,
        "channel_id": channel_id,
        "storyteller_role_id": found.get("g_storyteller_role_id"),
        "storyteller_channel_id": found.get("g_storyteller_channel_id"),
    }
    for option, columns in _LEVELS.items():
        for column in columns:
            if column[0] == "p" and parent_id is None:
                continue
            value = found.get(column)
            if value is not None:
                values[option.value] = value
                break
    return ChannelConfig.model_validate(values)


#: A channel's own columns in :meth:`SettingsRepository.config_query`'s row, by option.
_CHANNEL: Final = {option: f"c_{option.value}" for option in ChannelOption}


@dataclass(frozen=True, slots=True)
class Levels:
    """Every level's settings as a setter read them (a row of
    :meth:`SettingsRepository.config_query`), so that it works out the settings in force
    after its change without reading them again."""

    guild_id: int
    channel_id: int
    parent_id: int | None
    row: Mapping[str, Any]

    def config(self) -> ChannelConfig:
        """The settings in force in the channel."""
        return _config(self.row, self.guild_id, self.channel_id, self.parent_id)

    def guild(self) -> GuildSettings:
        """The server's own settings."""
        return GuildSettings.model_validate({
            "guild_id": self.guild_id,
            **{name: self.row.get(f"g_{name}") for name in
               ("ruleset", "storyteller_role_id", "storyteller_channel_id", "language")},
        })

    def channel(self) -> ChannelSettings:
        """The channel's own overrides."""
        return ChannelSettings.model_validate({
            "guild_id": self.guild_id, "channel_id": self.channel_id,
            **{option.value: self.row.get(column) for option, column in _CHANNEL.items()},
        })

    def changed(self, **columns: Any) -> ChannelConfig:
        """The settings in force once ``columns`` (named as in the row) hold new values."""
        return _config({**self.row, **columns}, self.guild_id, self.channel_id, self.parent_id)


class SettingsRepository(Repository):
    """Settings per server and per channel. Setters answer the value in force before and after."""

    def guild(self, guild_id: int) -> GuildSettings:
        """The server's settings (all unset when never configured)."""
        row = self._one(
            "SELECT ruleset, storyteller_role_id, storyteller_channel_id, language"
            " FROM guild_settings WHERE guild_id = ?",
            (guild_id,),
        )
        if row is None:
            return GuildSettings(guild_id=guild_id)
        return GuildSettings.model_validate({"guild_id": guild_id, **dict(row)})

    def _levels(self, guild_id: int, channel_id: int, parent_id: int | None) -> Levels:
        """Every level's settings as they stand, in one statement (:class:`Levels`)."""
        query = self.config_query(guild_id, channel_id, parent_id)
        row = self._one(query.sql, query.params)
        return Levels(guild_id, channel_id, parent_id, {} if row is None else dict(row))

    def config(
        self, guild_id: int, channel_id: int, parent_id: int | None = None
    ) -> ChannelConfig:
        """The settings in force: the channel's, then its parent's (a thread's channel),
        then the server's (ruleset, language), then the defaults."""
        return self.config_and_character(guild_id, channel_id, parent_id, NOBODY)[0]

    def config_and_character(
        self, guild_id: int, channel_id: int, parent_id: int | None, user_id: int
    ) -> tuple[ChannelConfig, CharacterRecord | None]:
        """The settings in force (:meth:`config`) and the member's active character here
        (:meth:`bot.store.characters.CharacterRepository.active`; None for
        :data:`NOBODY`) in one statement: what nearly every command reads first."""
        return self._read(self.config_query(guild_id, channel_id, parent_id, user_id))

    @staticmethod
    def config_query(
        guild_id: int, channel_id: int, parent_id: int | None, user_id: int = NOBODY
    ) -> Query[tuple[ChannelConfig, CharacterRecord | None]]:
        """:meth:`config_and_character` as a query, to read with others (Queries.both;
        it always answers one row). Each level's columns are named by level, ``g_`` the
        server, ``c_`` the channel, ``p_`` its parent, ``ch_`` the character."""

        def parse(row: Any) -> tuple[ChannelConfig, CharacterRecord | None]:
            if row is None:  # the key row always joins: never, but typed
                return _config({}, guild_id, channel_id, parent_id), None
            return _config(dict(row), guild_id, channel_id, parent_id), record_of(row, "ch_")

        return Query(
            "SELECT g.ruleset AS g_ruleset, g.storyteller_role_id AS g_storyteller_role_id,"
            " g.storyteller_channel_id AS g_storyteller_channel_id, g.language AS g_language,"
            " c.ruleset AS c_ruleset, c.will_timing AS c_will_timing,"
            " c.pressure AS c_pressure, c.fistful_step AS c_fistful_step,"
            " c.text_only AS c_text_only, c.dice_order AS c_dice_order,"
            " c.compact AS c_compact, c.plain AS c_plain,"
            " c.initiative_pool AS c_initiative_pool, c.language AS c_language,"
            " p.ruleset AS p_ruleset, p.will_timing AS p_will_timing,"
            " p.pressure AS p_pressure, p.fistful_step AS p_fistful_step,"
            " p.text_only AS p_text_only, p.dice_order AS p_dice_order,"
            " p.compact AS p_compact, p.plain AS p_plain,"
            " p.initiative_pool AS p_initiative_pool, p.language AS p_language,"
            " ch.id AS ch_id, ch.guild_id AS ch_guild_id, ch.owner_id AS ch_owner_id,"
            " ch.version AS ch_version, ch.sheet_json AS ch_sheet_json"
            " FROM (SELECT CAST(? AS BIGINT) AS guild_id) AS k"
            " LEFT JOIN guild_settings AS g ON g.guild_id = k.guild_id"
            " LEFT JOIN channel_settings AS c"
            " ON c.guild_id = k.guild_id AND c.channel_id = CAST(? AS BIGINT)"
            " LEFT JOIN channel_settings AS p"
            " ON p.guild_id = k.guild_id AND p.channel_id = CAST(? AS BIGINT)"
            " LEFT JOIN (SELECT c.id, c.guild_id, c.owner_id, c.version, c.sheet_json"
            " FROM active_characters a JOIN characters c"
            " ON c.id = a.character_id WHERE a.guild_id = ? AND a.user_id = ?"
            " AND a.channel_id IN (?, ?, 0) AND c.guild_id = a.guild_id"
            " ORDER BY a.channel_id = ? DESC, a.channel_id = 0 LIMIT 1) AS ch ON 1 = 1",
            (guild_id, channel_id, parent_id,
             guild_id, user_id, channel_id, parent_id or channel_id, channel_id),
            parse,
        )

    def set_guild_ruleset(
        self, guild_id: int, ruleset: Ruleset | None, *,
        where: tuple[int, int | None] = (NOBODY, None),
    ) -> tuple[Change[Ruleset], list[int], ChannelConfig]:
        """Set (or, with None, clear) the server's ruleset. Answers the server-wide value
        in force before and after (``cofd`` when unset), the channels (and threads) that
        keep a ruleset of their own, and the settings in force after it in the channel
        ``where`` (its id and its parent's). One read: the levels beside those channels."""
        channel_id, parent_id = where
        rows = self._joined(self.config_query(guild_id, channel_id, parent_id), Query(
            "SELECT channel_id AS own_ruleset_channel_id FROM channel_settings"
            " WHERE guild_id = ? AND ruleset IS NOT NULL",
            (guild_id,), lambda row: row,
        ))
        levels = Levels(guild_id, channel_id, parent_id, dict(rows[0]))
        keeping = sorted(row["own_ruleset_channel_id"] for row in rows
                         if row["own_ruleset_channel_id"] is not None)
        stored = None if ruleset is None else ruleset.value
        self._do(
            "INSERT INTO guild_settings (guild_id, ruleset) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET ruleset = excluded.ruleset,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, stored),
        )
        old = levels.guild().ruleset or Ruleset.COFD
        return (Change[Ruleset](old=old, new=ruleset or Ruleset.COFD), keeping,
                levels.changed(g_ruleset=stored))

    def set_guild_language(
        self, guild_id: int, language: Language | None
    ) -> Change[Language | None]:
        """Set (or, with None, clear) the server's language; the setting before and after."""
        old = self.guild(guild_id).language
        self._do(
            "INSERT INTO guild_settings (guild_id, language) VALUES (?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET language = excluded.language,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, None if language is None else language.value),
        )
        return Change[Language | None](old=old, new=language)

    def set_storyteller(
        self, guild_id: int, role_id: int | None, channel_id: int | None, *,
        keep_role: bool = False, keep_channel: bool = False,
        where: tuple[int, int | None] = (NOBODY, None),
    ) -> tuple[Change[GuildSettings], ChannelConfig]:
        """Set both the Storyteller role and the channel for copies of secret rolls (None
        clears one; with ``keep_role`` / ``keep_channel`` it stays as it was). Answers the
        server's settings before and after, and the settings in force after it in the
        channel ``where`` (its id and its parent's)."""
        levels = self._levels(guild_id, *where)
        old = levels.guild()
        if keep_role:
            role_id = old.storyteller_role_id
        if keep_channel:
            channel_id = old.storyteller_channel_id
        self._do(
            "INSERT INTO guild_settings (guild_id, storyteller_role_id, storyteller_channel_id)"
            " VALUES (?, ?, ?)"
            " ON CONFLICT (guild_id) DO UPDATE SET"
            " storyteller_role_id = excluded.storyteller_role_id,"
            " storyteller_channel_id = excluded.storyteller_channel_id,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            (guild_id, role_id, channel_id),
        )
        new = old.model_copy(update={"storyteller_role_id": role_id,
                                     "storyteller_channel_id": channel_id})
        return (Change[GuildSettings](old=old, new=new),
                levels.changed(g_storyteller_role_id=role_id,
                               g_storyteller_channel_id=channel_id))

    def set_channel_option(
        self,
        guild_id: int,
        channel_id: int,
        option: ChannelOption,
        value: OptionValue | None,
        parent_id: int | None = None,
    ) -> tuple[Change[OptionValue | None], ChannelConfig]:
        """Set one channel option (None: back to the parent's, the server's or the default).

        Answers the value in force before and after, so "old → new" is what the channel
        actually gets, and the settings in force after it. Raises
        ``pydantic.ValidationError`` (a ValueError) when the value does not fit the
        option, e.g. a bool for ``fistful_step`` or a negative step. One read (every
        level), then the write.
        """
        levels = self._levels(guild_id, channel_id, parent_id)
        before = levels.config()
        updated = ChannelSettings.model_validate(
            {**levels.channel().model_dump(), option.value: value}, strict=True
        )
        row = updated.model_dump(mode="json")
        self._do(
            "INSERT INTO channel_settings (guild_id, channel_id, ruleset, will_timing,"
            " pressure, fistful_step, text_only, dice_order, compact, plain, initiative_pool,"
            " language)"
            " VALUES (:guild_id, :channel_id, :ruleset, :will_timing,"
            " :pressure, :fistful_step, :text_only, :dice_order, :compact, :plain,"
            " :initiative_pool, :language)"
            " ON CONFLICT (guild_id, channel_id) DO UPDATE SET"
            " ruleset = excluded.ruleset, will_timing = excluded.will_timing,"
            " pressure = excluded.pressure, fistful_step = excluded.fistful_step,"
            " text_only = excluded.text_only, dice_order = excluded.dice_order,"
            " compact = excluded.compact, plain = excluded.plain,"
            " initiative_pool = excluded.initiative_pool, language = excluded.language,"
            " updated_at = strftime('%Y-%m-%dT%H:%M:%fZ', 'now')",
            row,
        )
        after = levels.changed(**{_CHANNEL[option]: row[option.value]})
        return (Change[OptionValue | None](old=before.value(option), new=after.value(option)),
                after)
