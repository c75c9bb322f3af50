"""Every option's declared bounds are checked again in the bot (a modified client ignores
them): numbers, string lengths and choices, under subcommands too; and what the edge
answers for a value Discord could not resolve (someone who left the server) or a command
the member's app shows out of date."""

from __future__ import annotations

import logging
from types import SimpleNamespace
from typing import Any, cast

import discord
import pytest
from discord import app_commands
from discord.app_commands.transformers import MemberTransformer

from bot.cogs.characters import Characters
from bot.cogs.history import History
from bot.cogs.rolling import Rolling
from bot.cogs.stats import Stats
from bot.cogs.will import Will
from bot.edge.errors import answering_errors, check_bounds, check_text, user_message
from bot.flows.reply import UserError


def _pool(**extra: Any) -> list[dict[str, Any]]:
    options = [{"name": "pool", "type": 3, "value": "3"}]
    options += [{"name": name, "type": 4 if isinstance(v, int) else 3, "value": v}
                for name, v in extra.items()]
    return options


@pytest.mark.parametrize(
    ("options", "words"),
    [
        (_pool(extra=2_147_483_648), "extra must be 0 to 100"),
        (_pool(extra=-1), "extra must be 0 to 100"),
        (_pool(difficulty=1), "difficulty must be 2 to 10"),
        (_pool(need=0), "need must be 1 to 1000"),
        (_pool(again="7"), "again must be one of: 10, 9, 8, none"),
        (_pool(label=""), "label must be 1 to 100 characters long"),
    ],
)
def test_a_value_outside_the_declared_bounds_is_refused(
    options: list[dict[str, Any]], words: str
) -> None:
    with pytest.raises(UserError, match=words):
        check_bounds(Rolling.roll, options)


def test_values_inside_the_bounds_pass() -> None:
    check_bounds(Rolling.roll, _pool(extra=100, difficulty=10, need=1000, again="8", label="x"))


def test_options_under_a_subcommand_are_checked() -> None:
    nested = [{"name": "start", "type": 1, "options": _pool(extra=101)}]
    with pytest.raises(UserError, match="extra"):
        check_bounds(Rolling.roll, nested)


@pytest.mark.parametrize(
    ("option", "value", "words"),
    [
        ("extra", 1.5, "extra must be a whole number"),
        ("extra", "3", "extra must be a whole number"),
        ("extra", True, "extra must be a whole number"),
        ("will", "yes", "will must be True or False"),
        ("will", 1, "will must be True or False"),
        ("label", 7, "label must be text"),
    ],
)
def test_a_value_of_another_kind_than_declared_is_refused(
    option: str, value: object, words: str
) -> None:
    """A modified client can send any JSON for any option (text for a number, a fraction
    for a whole number, "yes" for True): the declared kind is checked before any command
    runs, and the refusal names the option, where a fraction or text reached the flow (the
    generic apology) and "yes" was taken as True."""
    options = [*_pool(), {"name": option, "type": 3, "value": value}]
    with pytest.raises(UserError, match=words):
        check_bounds(Rolling.roll, options)


def test_numbers_and_snowflakes_come_as_discord_sends_them() -> None:
    """A number option takes a whole number or a fraction; a user option the user's
    snowflake, a string of digits (or a number), never other text."""
    check_bounds(Rolling.roll, _pool(extra=3, will=True))
    check_bounds(History.history, [{"name": "count", "type": 4, "value": 2}])
    user = next(p for p in Will.show.parameters if p.type is discord.AppCommandOptionType.user)
    check_bounds(Will.show, [{"name": user.display_name, "type": 6, "value": "123456789"}])
    with pytest.raises(UserError, match="Discord's list"):
        check_bounds(Will.show, [{"name": user.display_name, "type": 6, "value": "@everyone"}])


@pytest.mark.parametrize("text", ["door\x00", "a\nb", "a\rb", "\x1b[31mred", "a\x7fb", "a\x85b"])
def test_text_holding_a_control_character_is_refused_naming_the_option(text: str) -> None:
    """Every text the bot takes is one line, and PostgreSQL cannot store a NUL (the member
    got the generic apology there, SQLite kept it): a control character in any text
    option is refused before any command runs, naming the option, on both databases."""
    with pytest.raises(UserError, match="label holds a control character"):
        check_bounds(Rolling.roll, _pool(label=text))
    with pytest.raises(UserError, match="pool holds a control character"):
        check_bounds(Rolling.roll, [{"name": "pool", "type": 3, "value": "3" + text}])


def test_a_tab_and_any_visible_text_pass() -> None:
    """A tab is whitespace a paste may carry; letters of any script and emoji are text."""
    check_bounds(Rolling.roll, _pool(label="Sneak\tpast the guard 🧙‍♂️ ação"))


@pytest.mark.parametrize("text", ["Persuaded\x00", "Shaken\nTwice", "\x1b"])
def test_a_form_field_holding_a_control_character_is_refused(text: str) -> None:
    """A form's fields are one line too: a submission holding a control character is
    refused before its flow runs (a NUL in a Condition, a saved roll's name or a pool
    gave the generic apology on PostgreSQL)."""
    with pytest.raises(UserError, match="The form holds a control character"):
        check_text(["Dexterity + Stealth", text])
    check_text(["Dexterity + Stealth", "Shaken\tagain"])


def test_a_member_option_naming_someone_who_left_the_server_says_so() -> None:
    """Discord sends someone who is not in the server (a player who left) as a user, which
    a member option cannot take: the refusal names them and says why, where it said
    "“bob” is not a valid value here"; their name never pings."""
    left = discord.User(state=cast("Any", None), data={
        "id": "3000000000000000003", "username": "bob", "discriminator": "0",
        "avatar": None, "global_name": "Bob @everyone",
    })
    error = app_commands.TransformerError(
        left, discord.AppCommandOptionType.user, MemberTransformer())
    assert user_message(error) == (
        "Bob @\u200beveryone is not a member of this server (any more): pick someone who is.")
    other = app_commands.TransformerError(
        "7", discord.AppCommandOptionType.channel, MemberTransformer())
    assert user_message(other) == "“7” is not a valid value here."


@pytest.mark.parametrize(
    "command", [Stats.stats, History.history, Characters.show, Characters.list_, Will.show],
    ids=["stats", "history", "character show", "character list", "will show"])
async def test_the_logs_take_a_player_who_left_the_server(
    command: app_commands.Command[Any, ..., Any],
) -> None:
    """A player's rolls stay in the log after they leave the server: /stats and /history
    take them by their user (Discord sends someone who left as one), where the member
    option refused them and the Storyteller could not read a departed player's dice. So do
    /character show and list (their sheets stay) and /will show (their pool stays)."""
    left = discord.User(state=cast("Any", None), data={
        "id": "3000000000000000003", "username": "bob", "discriminator": "0",
        "avatar": None, "global_name": "Bob",
    })
    parameter = command._params["member"]
    assert parameter.type is discord.AppCommandOptionType.user
    assert await parameter.transform(cast("Any", None), left) is left


async def test_a_command_discord_still_shows_as_it_was_says_to_reload_discord(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """A command gone since the member's Discord app loaded the commands, or sent with
    options the command no longer has, is answered with what to do (reload Discord), not
    with the apology for a fault of the bot's; whoever runs the bot is warned (the commands
    may need syncing), with no error and no traceback."""
    for error in (app_commands.CommandNotFound("old", []),
                  app_commands.CommandSignatureMismatch(Rolling.roll)):
        said: list[str] = []

        async def send(text: str, *, ephemeral: bool, said: list[str] = said) -> None:
            assert ephemeral
            said.append(text)

        interaction = SimpleNamespace(
            locale=discord.Locale.american_english, command=None, data={"name": "old"},
            response=SimpleNamespace(is_done=lambda: False, send_message=send))
        with caplog.at_level(logging.WARNING, logger="bot.edge.errors"):
            async with answering_errors(cast("discord.Interaction", interaction)):
                raise error
        assert len(said) == 1
        assert said[0].startswith("That command has changed since your Discord app loaded it")
        assert "reload Discord" in said[0]
    assert [record.levelno for record in caplog.records] == [logging.WARNING] * 2
    assert all(record.exc_info is None for record in caplog.records)
