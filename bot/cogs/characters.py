"""`/character`: character sheets per server (RULES.md §6).

`member` of show and list takes a user too: a player who left the server keeps their
sheets, and Discord sends them as a user, not a member.
"""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

from bot.client import StorytellerBot
from bot.edge.completion import character_names
from bot.edge.ctx import ctx_of, deps_of, shown_name
from bot.edge.respond import DiscordResponder
from bot.edge.transformers import UnquotedTransformer
from bot.flows import characters
from bot.flows.reply import Reply, run
from engine.characters import MAX_BIG, MAX_IMPORT_BYTES, MAX_NAME, MAX_TEXT, MAX_TRAIT_NAME
from engine.models import Ruleset

_CHARACTER = "Which sheet (default: your active character)"
_TEMPLATES = [app_commands.Choice(name=r.value, value=r.value) for r in Ruleset]


def _member(member: discord.Member | discord.User | None) -> characters.Member | None:
    return None if member is None else characters.Member(member.id, shown_name(member))


@app_commands.guild_only()
class Characters(commands.GroupCog, group_name="character"):
    """Character sheets: pools rolled by trait name."""

    def __init__(self, bot: StorytellerBot) -> None:
        self.bot = bot

    @app_commands.command(name="create")
    @app_commands.describe(
        name="The character's name",
        template="Which template (default: this channel's ruleset)",
        npc="Storyteller: a non-player character",
    )
    @app_commands.choices(template=_TEMPLATES)
    async def create(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME],
        template: str | None = None, npc: bool = False,
    ) -> None:
        """Make a character sheet and make it your active character here."""
        flow = characters.create(deps_of(interaction), ctx_of(interaction), name,
                                 Ruleset(template) if template else None, npc=npc)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="set")
    @app_commands.describe(
        trait="The trait to set (a new name adds a trait)",
        value="Its value: 0-10 (Will maximum and Health up to 30)",
        traits="Several at once: Strength 3, Dexterity 2, Brawl 2",
        character=_CHARACTER,
    )
    @app_commands.autocomplete(character=character_names)
    async def set_(
        self, interaction: discord.Interaction,
        trait: app_commands.Range[str, 1, MAX_TRAIT_NAME] | None = None,
        value: app_commands.Range[int, 0, MAX_BIG] | None = None,
        traits: app_commands.Transform[str, UnquotedTransformer(1000)] | None = None,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """Set one trait or several on a sheet."""
        flow = characters.set_traits(deps_of(interaction), ctx_of(interaction),
                                     character=character, trait=trait, value=value, traits=traits)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="specialty")
    @app_commands.describe(skill="The Skill (v20: Ability)", add="A specialty to add",
                           remove="A specialty to remove", character=_CHARACTER)
    @app_commands.autocomplete(character=character_names)
    async def specialty(
        self, interaction: discord.Interaction, skill: app_commands.Range[str, 1, MAX_TRAIT_NAME],
        add: app_commands.Range[str, 1, MAX_TEXT] | None = None,
        remove: app_commands.Range[str, 1, MAX_TEXT] | None = None,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """Add or remove a Skill's specialty."""
        flow = characters.specialty(deps_of(interaction), ctx_of(interaction), skill,
                                    add=add, remove=remove, character=character)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="condition")
    @app_commands.describe(add="A Condition the character gains",
                           remove="A Condition resolved", character=_CHARACTER)
    @app_commands.autocomplete(character=character_names)
    async def condition(
        self, interaction: discord.Interaction,
        add: app_commands.Range[str, 1, MAX_TEXT] | None = None,
        remove: app_commands.Range[str, 1, MAX_TEXT] | None = None,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """Add or resolve a Condition."""
        flow = characters.condition(deps_of(interaction), ctx_of(interaction),
                                    add=add, remove=remove, character=character)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="show")
    @app_commands.describe(character="Which sheet (default: your active character)",
                           member="Whose active character",
                           public="Show it to the channel (and let others show it)")
    @app_commands.autocomplete(character=character_names)
    async def show(
        self, interaction: discord.Interaction,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
        member: discord.Member | discord.User | None = None, public: bool = False,
    ) -> None:
        """Show a character sheet."""
        flow = characters.show(deps_of(interaction), ctx_of(interaction), character,
                               _member(member), public=public)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="use")
    @app_commands.describe(name="Your character to play",
                           channel="Only in this channel (a pin; elsewhere your usual one)")
    @app_commands.autocomplete(name=character_names)
    async def use(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME],
        channel: bool = False,
    ) -> None:
        """Switch your active character."""
        flow = characters.use(deps_of(interaction), ctx_of(interaction), name, channel=channel)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="list")
    @app_commands.describe(member="Whose characters (default: yours)")
    async def list_(self, interaction: discord.Interaction,
                    member: discord.Member | discord.User | None = None) -> None:
        """List a member's characters in this server."""
        flow = characters.list_(deps_of(interaction), ctx_of(interaction), _member(member))
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="rename")
    @app_commands.describe(name="The new name", character=_CHARACTER)
    @app_commands.autocomplete(character=character_names)
    async def rename(
        self, interaction: discord.Interaction, name: app_commands.Range[str, 1, MAX_NAME],
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """Rename a character."""
        flow = characters.rename(deps_of(interaction), ctx_of(interaction), name, character)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="delete")
    @app_commands.describe(character=_CHARACTER)
    @app_commands.autocomplete(character=character_names)
    async def delete(
        self, interaction: discord.Interaction,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """Delete a character (asks you to confirm with a button)."""
        flow = characters.delete(deps_of(interaction), ctx_of(interaction), character)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="export")
    @app_commands.describe(character=_CHARACTER)
    @app_commands.autocomplete(character=character_names)
    async def export(
        self, interaction: discord.Interaction,
        character: app_commands.Range[str, 1, MAX_NAME] | None = None,
    ) -> None:
        """The sheet as a JSON file."""
        flow = characters.export(deps_of(interaction), ctx_of(interaction), character)
        await run(flow, DiscordResponder(interaction))

    @app_commands.command(name="import")
    @app_commands.describe(file="A sheet's JSON file (from /character export)",
                           replace="Overwrite your character of the same name")
    async def import_(
        self, interaction: discord.Interaction, file: discord.Attachment, replace: bool = False,
    ) -> None:
        """Read a sheet file back as your own character."""
        ctx = ctx_of(interaction)

        async def flow() -> Reply:
            data = b""
            if file.size <= MAX_IMPORT_BYTES:  # a larger file is refused unread
                try:
                    data = await file.read()
                except discord.HTTPException:
                    data = b""  # not downloadable: refused as a file that is no sheet
            return await characters.import_(deps_of(interaction), ctx, data, replace=replace,
                                            size=file.size)

        await run(flow(), DiscordResponder(interaction))


async def setup(bot: StorytellerBot) -> None:
    """Extension entry point."""
    await bot.add_cog(Characters(bot))
