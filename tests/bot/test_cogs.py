"""Every cog is loaded, the public command names of COMMANDS.md exist, none is duplicated."""

from __future__ import annotations

import logging
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any, cast

import discord
import pytest
from discord import app_commands

from bot.client import EXTENSIONS, StorytellerBot
from bot.edge.completion import choices
from bot.edge.errors import check_bounds
from bot.flows.reply import UserError
from bot.render.help import COMMAND_TOPICS, HELP_TOPICS, help_embed
from bot.render.lang import voice
from bot.settings import Settings
from bot.store import Store
from engine.faces import ScriptedFaces
from engine.models import Ruleset
from engine.parser import parse_pool
from engine.records import Language
from tests.flows.test_character_flows import _traits_named

COGS = Path(__file__).resolve().parents[2] / "bot" / "cogs"

#: The names COMMANDS.md makes a contract (this issue's part of it).
CONTRACT = {
    "roll", "odds", "history", "help",
    "will show", "will set", "will rest", "will gain",
    "config show", "config ruleset", "config set", "config storyteller",
    "scene end", "turn next", "night",
    "teamwork start", "teamwork help", "teamwork roll", "teamwork cancel",
    "contest", "multi",
    "stats",
    "extended start", "extended roll", "extended list", "extended abandon",
}


@pytest.fixture
async def bot(tmp_path: Path) -> AsyncIterator[StorytellerBot]:
    store = await Store.open(tmp_path / "bot.sqlite3")
    client = StorytellerBot(
        settings=Settings(discord_token="test-token"), store=store, faces=ScriptedFaces([])
    )
    for extension in EXTENSIONS:
        await client.load_extension(extension)
    yield client
    await store.close()


def test_every_cog_module_is_listed_as_an_extension() -> None:
    modules = {f"bot.cogs.{path.stem}" for path in COGS.glob("*.py") if path.stem != "__init__"}
    assert modules == set(EXTENSIONS)


async def test_no_two_commands_share_a_name(bot: StorytellerBot) -> None:
    names = [command.qualified_name for command in bot.tree.walk_commands()]
    assert len(names) == len(set(names))


async def test_the_commands_of_the_contract_exist(bot: StorytellerBot) -> None:
    names = {command.qualified_name for command in bot.tree.walk_commands()}
    assert names >= CONTRACT


async def test_no_command_is_offered_in_direct_messages(bot: StorytellerBot) -> None:
    """Every command is for a guild's channels. Discord reads "not in DMs" from the
    top-level command only (a subcommand's mark is ignored), so a group carries it."""
    offered = [command.name for command in bot.tree.get_commands()
               if command.to_dict(bot.tree).get("dm_permission") is not False]
    assert offered == []


async def test_every_command_and_option_is_described(bot: StorytellerBot) -> None:
    for command in bot.tree.walk_commands():
        assert command.description and command.description != "…", command.qualified_name
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                assert parameter.description != "…", (command.qualified_name, parameter.name)


async def test_no_description_is_cut_to_discords_100_characters(bot: StorytellerBot) -> None:
    # discord.py cuts a longer one with "…": the member would read half a sentence.
    for command in bot.tree.walk_commands():
        assert not command.description.endswith("…"), command.qualified_name
        if isinstance(command, app_commands.Command):
            for parameter in command.parameters:
                assert not parameter.description.endswith("…"), (
                    command.qualified_name, parameter.name)


async def test_init_add_value_teaches_numbers_as_the_option_reads_them(
    bot: StorytellerBot,
) -> None:
    """/init add's value reads a typed pool (an NPC has no sheet) and refuses bare trait
    names, so the example its description gives, after the colon, is one it reads: it
    taught "Dexterity + Composure", which was refused."""
    command = bot.tree.get_command("init")
    assert isinstance(command, app_commands.Group)
    add = command.get_command("add")
    assert isinstance(add, app_commands.Command)
    value = next(parameter for parameter in add.parameters if parameter.name == "value")
    example = value.description.split(": ", 1)[1].split(" (", 1)[0]
    assert sum(term.value for term in parse_pool(example)) > 0, example


#: Every command that takes a label.
LABELLED = {
    "roll", "contest", "multi", "saved add", "saved roll",
    "extended start", "extended roll", "extended abandon",
    "teamwork start", "teamwork help", "teamwork roll", "teamwork cancel",
}


async def test_every_label_option_is_1_to_100_characters_and_an_invisible_one_is_none(
    bot: StorytellerBot,
) -> None:
    """Every `label` option goes through one transformer (bot.edge.transformers.Label):
    Discord still shows it as text of 1 to 100 characters (the payload it is sent), the
    edge checks those bounds again, and the command gets the label trimmed, or None when
    nothing in it is visible, so each treats it as no label."""
    found: dict[str, app_commands.Command[Any, ..., Any]] = {}
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command) and "label" in command._params:
            found[command.qualified_name] = command
    assert set(found) == LABELLED
    for name, command in found.items():
        option = next(o for o in command.to_dict(bot.tree)["options"] if o["name"] == "label")
        assert (option["type"], option["required"]) == (3, False), name
        assert (option["min_length"], option["max_length"]) == (1, 100), name
        with pytest.raises(UserError, match="label must be 1 to 100 characters long"):
            check_bounds(command, [{"name": "label", "type": 3, "value": "x" * 101}])
        parameter = command._params["label"]
        assert await parameter.transform(cast("discord.Interaction", None), "\u200b") is None
        assert await parameter.transform(cast("discord.Interaction", None), " door ") == "door"


@pytest.mark.parametrize("text", [
    "door\u200b",  # a zero-width space: "door" to the eye, its own successive attempts
    "\u202erood",  # a direction override: the card and /history line turned around
    "door\u3164",  # a Hangul filler, which Unicode counts as a letter
    "\u2066door\u2069",  # a direction isolate
])
async def test_every_label_option_refuses_a_label_with_a_hidden_character_beside_its_words(
    bot: StorytellerBot, text: str
) -> None:
    """A label that shows something is safe text, as a character's name is
    (LabelTransformer's Decision): one holding a character that shows nothing or turns
    text around is refused, saying what is wrong and how to do it right, before the
    command runs (nothing is rolled or kept); the joiners of emoji sequences stay."""
    for command in bot.tree.walk_commands():
        if isinstance(command, app_commands.Command) and "label" in command._params:
            parameter = command._params["label"]
            with pytest.raises(UserError, match="label holds an invisible character") as refused:
                await parameter.transform(cast("discord.Interaction", None), text)
            assert "type it again by hand" in str(refused.value)
            wizard = "🧙\u200d♂\ufe0f door"
            assert await parameter.transform(cast("discord.Interaction", None), wizard) == wizard


@pytest.mark.parametrize(("path", "option"), [("character set", "traits"),
                                             ("multi", "actions")])
async def test_a_list_typed_in_the_quotes_its_documentation_shows_is_read_without_them(
    bot: StorytellerBot, path: str, option: str
) -> None:
    """COMMANDS.md and /help write a list option's example in quotes, to show where it
    ends (`traits:"Wits 3, Composure 2, Brawl 2"`, `/multi actions:"Dexterity 3 +
    Athletics 2; Strength 3 + Brawl 3"`); a member who types the example types them too,
    and the value was refused (a pool or a trait holds no quote). One pair around the
    whole value, straight or curly or guillemets, is read as no part of it; the option is
    still text of 1 to 1,000 characters."""
    root, *sub = path.split()
    command = bot.tree.get_command(root)
    if sub:
        assert isinstance(command, app_commands.Group)
        command = command.get_command(sub[0])
    assert isinstance(command, app_commands.Command)
    described = next(o for o in command.to_dict(bot.tree)["options"] if o["name"] == option)
    assert (described["type"], described["min_length"], described["max_length"]) == (3, 1, 1000)
    parameter = command._params[option]
    interaction = cast("discord.Interaction", None)
    for typed in ['"Wits 3, Brawl 2"', "“Wits 3, Brawl 2”", "«Wits 3, Brawl 2»",
                  " 'Wits 3, Brawl 2' "]:
        assert await parameter.transform(interaction, typed) == "Wits 3, Brawl 2", typed
    for kept in ["Wits 3, Brawl 2", '"Wits 3, Brawl 2', '"', '""']:
        assert await parameter.transform(interaction, kept) == kept, kept


def test_an_autocomplete_value_too_long_for_discord_is_left_out_never_cut() -> None:
    """Discord takes a choice's name and value of up to 100 characters. A pool's completion
    longer than that is not offered (cut, ``... + Bra`` would name no trait, or another);
    one whose value fits but whose shown dots do not shows its end, the trait completed."""
    head = "Wits + " * 13 + "D + "  # 95 characters
    offered = choices([
        (head + "Brawl 2", head + "Brawl"),  # 100 characters: offered
        (head + "Brawling 2", head + "Brawling"),  # 103: left out
        ("Wits 3", "Wits"),
    ])
    assert [(each.name, each.value) for each in offered] == [
        ("…" + (head + "Brawl 2")[-99:], head + "Brawl"), ("Wits 3", "Wits"),
    ]
    assert all(len(each.name) <= 100 and len(each.value) <= 100 for each in offered)
    assert offered[0].name.endswith("D + Brawl 2")


async def test_every_command_has_a_help_topic_that_names_it(bot: StorytellerBot) -> None:
    roots = {command.qualified_name.split()[0] for command in bot.tree.walk_commands()}

    assert roots <= set(COMMAND_TOPICS), f"give these a help topic: {roots - set(COMMAND_TOPICS)}"
    for root in roots:
        topic = COMMAND_TOPICS[root]
        assert topic in HELP_TOPICS
        for ruleset in Ruleset:
            embed = help_embed(ruleset, topic)
            shown = " ".join([embed.description or "", *(f.value or "" for f in embed.fields)])
            assert f"/{root}" in shown, (root, topic, ruleset)


async def test_the_help_overview_says_what_the_storyteller_runs_in_each_ruleset() -> None:
    for ruleset, command in ((Ruleset.COFD, "/scene end"), (Ruleset.FISTFUL, "/turn next")):
        overview = help_embed(ruleset, None).description or ""
        assert f"The Storyteller here: `{command}`" in overview


@pytest.mark.parametrize("language", list(Language))
@pytest.mark.parametrize("command", ["roll", "saved add"])
async def test_a_pool_description_names_traits_every_template_has(
    bot: StorytellerBot, command: str, language: Language
) -> None:
    """/roll and /saved add are the same at every table: their pool's example names, in
    every language, traits that are the same trait on every ruleset's template (v20 has no
    Composure)."""
    found = next(c for c in bot.tree.walk_commands() if c.qualified_name == command)
    assert isinstance(found, app_commands.Command)
    pool = next(p for p in found.parameters if p.name == "pool")
    described = voice(language).pgettext("option description", pool.description)
    named = _traits_named(described, language.value)
    assert named, described
    assert all(len(keys) == 1 and "" not in keys for keys in named.values()), named


async def test_a_bot_of_one_shard_in_no_server_is_told_to_invite_it(
    bot: StorytellerBot, caplog: pytest.LogCaptureFixture
) -> None:
    """Unsharded and in no server, the bot answers nobody: its ready line says to invite it
    (with no word of other shards, which it has none of; before login it knows no
    application id, so README's URL is named)."""
    with caplog.at_level(logging.WARNING, logger="bot.client"):
        await bot.on_ready()
    assert [record.getMessage() for record in caplog.records] == [
        "Ready as None in 0 servers: invite it to your server with README's URL (your"
        " application's id in it) (README: \"Create the Discord application and invite the"
        " bot\")"
    ]
