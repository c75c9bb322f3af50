"""`/config show|ruleset|set|storyteller`: the settings of a channel or a server.

Who may change what is decided here from the member's permissions: every command is
visible to every member (players read `/config show`), so no command relies on Discord
hiding it. A change is one write that reads the
settings in force before it (the confirmation's "old", and its text-only mode): one trip.

``default`` (a value of `/config set`, a choice of `/config ruleset`) clears a value of
the channel's own, so that it follows the server again (a thread: its channel); with
``scope:server``, the server's own, so that it follows the default (COMMANDS.md: "A channel
without its own ruleset uses the server's; a server without one uses `cofd`").
"""

from __future__ import annotations

from typing import TypeVar

from bot.flows.context import Ctx, Deps
from bot.flows.reply import Reply, UserError, say
from bot.flows.rolls import format_parts
from bot.render.lang import _, public_voice, speaking, voice
from bot.render.messages import (
    EVERYONE_IS_NO_STORYTELLER,
    ONLY_LANGUAGE_SERVER_WIDE,
    STORYTELLER_NOTHING_GIVEN,
    copies_unreachable,
    missing_permissions,
    not_a_choice,
    not_a_setting_value,
    storyteller_contradiction,
)
from bot.render.rolls import RULESET_NAMES
from bot.render.state import (
    DEFAULT,
    FOLLOW_SERVER,
    SETTING_NAMES,
    SETTING_VALUES,
    config_changed,
    config_shown,
    server_language_changed,
    server_ruleset_changed,
    setting_choices,
    setting_values,
    storyteller_changed,
)
from bot.store import Tx
from engine.models import Ruleset
from engine.parser import PoolSyntaxError, parse_pool_names
from engine.records import (
    MAX_INITIATIVE_POOL,
    ChannelOption,
    DiceOrder,
    Language,
    OptionValue,
    WillTiming,
)

E = TypeVar("E", Ruleset, ChannelOption)

ON = frozenset({"on", "yes", "true", "1"})
OFF = frozenset({"off", "no", "false", "0"})
#: The largest `fistful` Successive Action Penalty step a channel may set.
MAX_STEP = 5
SCOPES = ("channel", "server")
#: (name shown, value) of each ruleset and the /config set options, for the commands' choices;
#: the last ruleset choice clears the channel's own (or the server's).
RULESETS = (*((RULESET_NAMES[each], each.value) for each in Ruleset), (FOLLOW_SERVER, DEFAULT))
#: (name shown, value) of each /config set option.
OPTIONS = tuple((SETTING_NAMES[option], option.value) for option in SETTING_VALUES)
#: Value suggestions offered at most (Discord's limit for autocomplete).
MAX_SUGGESTIONS = 25


def value_suggestions(option: str, typed: str) -> list[tuple[str, str]]:
    """/config set's value autocomplete: (what it shows, the value) for the option chosen
    so far, those starting with what was typed first (meanings in the member's language),
    whatever the case of either (``pt-BR`` typed as shown, ``dex`` for Dexterity)."""
    try:
        chosen = ChannelOption(option)
    except ValueError:
        return []
    key = typed.strip().casefold()
    choices = setting_choices(chosen)
    ranked = sorted(choices, key=lambda choice: not choice[0].casefold().startswith(key))
    return [
        (f"{value}: {meaning}"[:100], value) for value, meaning in ranked
        if key in value.casefold() or key in meaning.casefold()
    ][:MAX_SUGGESTIONS]


def _manages_channel(ctx: Ctx) -> None:
    if not ctx.manages_channel:
        raise UserError(missing_permissions(["manage_channels"]))


def _manages_guild(ctx: Ctx) -> None:
    if not ctx.manages_guild:
        raise UserError(missing_permissions(["manage_guild"]))


def _choice(
    kind: type[E], name: str, text: str, accepted: tuple[E, ...], *, also: tuple[str, ...] = ()
) -> E:
    """A choice as the command sent it, checked again (a forged interaction may send any);
    ``also``: other values the caller took first, named in the refusal too."""
    try:
        chosen = kind(text)
    except ValueError:
        chosen = None
    if chosen not in accepted:
        raise UserError(not_a_choice(name, [*(each.value for each in accepted), *also]))
    return chosen


def initiative_pool(text: str) -> str:
    """The `fistful` initiative pool setting as kept (``wits+composure`` is
    ``wits + composure``): trait names only, read by the pool parser; ValueError if not."""
    try:
        parts = parse_pool_names(text)
    except PoolSyntaxError as error:
        raise ValueError(text) from error
    kept = format_parts(parts)
    if any(part.value is not None for part in parts) or len(kept) > MAX_INITIATIVE_POOL:
        raise ValueError(text)
    return kept


def parse_option(option: ChannelOption, text: str) -> OptionValue:
    """A /config set value as the settings keep it, or a refusal saying what is accepted."""
    value = text.strip().casefold()
    try:
        if option is ChannelOption.INITIATIVE_POOL:
            return initiative_pool(text)
        if option is ChannelOption.LANGUAGE:
            return next(each for each in Language if each.value.casefold() == value)
        if option is ChannelOption.WILL_TIMING:
            return WillTiming(value)
        if option is ChannelOption.DICE_ORDER:
            return DiceOrder(value)
        if option in (ChannelOption.PRESSURE, ChannelOption.TEXT_ONLY, ChannelOption.COMPACT,
                      ChannelOption.PLAIN):
            if value in ON | OFF:
                return value in ON
            raise ValueError(value)
        step = int(value)
        if not 0 <= step <= MAX_STEP:
            raise ValueError(value)
    except (ValueError, StopIteration):
        raise UserError(
            not_a_setting_value(_(SETTING_NAMES[option]), text, setting_values(option))
        ) from None
    return step


async def show(deps: Deps, ctx: Ctx) -> Reply:
    """The settings in force in this channel."""
    config = await deps.store.read(ctx.config)
    return say(config_shown(config, ctx.guild_locale))


async def ruleset(deps: Deps, ctx: Ctx, chosen: str, scope: str = "channel") -> Reply:
    """The ruleset of this channel (Manage Channels) or of the server (Manage Server);
    ``default``: none of its own."""
    rules = None if chosen == DEFAULT else _choice(Ruleset, "ruleset", chosen, tuple(Ruleset),
                                                   also=(DEFAULT,))
    if scope not in SCOPES:
        raise UserError(not_a_choice("scope", SCOPES))
    if scope == "server":
        _manages_guild(ctx)

        def server(tx: Tx) -> str:
            change, keeping, config = tx.settings.set_guild_ruleset(
                ctx.guild_id, rules, where=(ctx.channel_id, ctx.parent_id)
            )
            with speaking(ctx.public_voice(config)):
                return server_ruleset_changed(change, keeping)

        return say(await deps.store.write(server), ephemeral=False)
    _manages_channel(ctx)

    def channel(tx: Tx) -> str:
        change, config = tx.settings.set_channel_option(
            ctx.guild_id, ctx.channel_id, ChannelOption.RULESET, rules, ctx.parent_id
        )
        with speaking(ctx.public_voice(config)):
            return config_changed(ChannelOption.RULESET, ctx.channel_id, change,
                                  cleared=rules is None)

    return say(await deps.store.write(channel), ephemeral=False)


async def set_option(
    deps: Deps, ctx: Ctx, option: str, value: str, scope: str = "channel"
) -> Reply:
    """Change one setting of this channel (Manage Channels), or the server's language
    (Manage Server); turning pressure off forgets the successive attempts of the channel
    and of its threads that follow its pressure setting. The
    confirmation is said in the language in force after the change."""
    chosen = _choice(ChannelOption, "option", option, tuple(SETTING_VALUES))
    if scope not in SCOPES:
        raise UserError(not_a_choice("scope", SCOPES))
    if scope == "server":
        if chosen is not ChannelOption.LANGUAGE:
            raise UserError(_(ONLY_LANGUAGE_SERVER_WIDE))
        _manages_guild(ctx)
    else:
        _manages_channel(ctx)
    cleared = value.strip().casefold() == DEFAULT
    parsed = None if cleared else parse_option(chosen, value)

    def write(tx: Tx) -> Reply:
        if scope == "server":  # the language (checked above)
            language = parsed if isinstance(parsed, Language) else None
            server_change = tx.settings.set_guild_language(ctx.guild_id, language)
            # said in the new language: cleared, the server's on Discord
            with speaking(voice(language) if language is not None
                          else public_voice(None, ctx.guild_locale)):
                return say(server_language_changed(server_change), ephemeral=False)
        change, config = tx.settings.set_channel_option(
            ctx.guild_id, ctx.channel_id, chosen, parsed, ctx.parent_id
        )
        if chosen is ChannelOption.PRESSURE and change.new is False:
            tx.attempts.reset_channel(ctx.guild_id, ctx.channel_id, threads=True)
        with speaking(ctx.public_voice(config)):
            return say(config_changed(chosen, ctx.channel_id, change, cleared=cleared),
                       ephemeral=False)

    return await deps.store.write(write)


#: What `/config storyteller clear:` takes away: the role, the copies channel, or both.
CLEARS = ("role", "copies", "both")
#: What the bot needs in the copies channel to post a copy of a secret roll (an embed).
COPIES_NEED = ("view_channel", "send_messages", "embed_links")


async def storyteller(
    deps: Deps, ctx: Ctx, role_id: int | None, channel_id: int | None = None,
    clear: str | None = None, *, bot_holds: frozenset[str] | None = None,
) -> Reply:
    """The Storyteller role, and where copies of secret rolls go (Manage Server); what is
    not given is kept, and ``clear`` takes the role, the copies channel or both away
    (a copies channel deleted since would otherwise warn at every secret roll).

    ``bot_holds``: the permissions the bot holds in ``channel_id`` (None: not known). A
    channel the bot may not post a copy in is refused now, nothing changed, where the
    admin learned of it only from a roller told at a secret roll that the copy failed."""
    _manages_guild(ctx)
    if clear is not None and clear not in CLEARS:
        raise UserError(not_a_choice("clear", CLEARS))
    role_goes, copies_go = clear in {"role", "both"}, clear in {"copies", "both"}
    if role_id is None and channel_id is None and clear is None:
        raise UserError(_(STORYTELLER_NOTHING_GIVEN))
    if role_id is not None and role_goes:
        raise UserError(storyteller_contradiction("role"))
    if channel_id is not None and copies_go:
        raise UserError(storyteller_contradiction("channel"))
    if role_id == ctx.guild_id:  # @everyone's id is the server's
        raise UserError(_(EVERYONE_IS_NO_STORYTELLER))
    if channel_id is not None and bot_holds is not None:
        lacking = [name for name in COPIES_NEED if name not in bot_holds]
        if lacking:
            raise UserError(copies_unreachable(channel_id, lacking))

    def write(tx: Tx) -> str:
        change, config = tx.settings.set_storyteller(
            ctx.guild_id, role_id, channel_id,
            keep_role=role_id is None and not role_goes,
            keep_channel=channel_id is None and not copies_go,
            where=(ctx.channel_id, ctx.parent_id),
        )
        with speaking(ctx.public_voice(config)):
            return storyteller_changed(change.old, change.new,
                                       role=role_id is not None or role_goes,
                                       channel=channel_id is not None or copies_go)

    return say(await deps.store.write(write), ephemeral=False)
