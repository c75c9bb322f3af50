"""The commands reach Discord in Portuguese and Spanish, and the fake checks them as
Discord does (tests/e2e/harness/validation.py): locale keys from Discord's list, localised
names by the rule of names, localised descriptions and choices by their limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.e2e.bot_fixtures import StartRealBot
from tests.e2e.harness import FakeDiscord
from tests.e2e.harness.validation import command_errors

JSON = dict[str, Any]


async def test_the_synced_commands_carry_their_portuguese_and_spanish_names(
    fake: FakeDiscord, start: StartRealBot
) -> None:
    await start()

    roll, _ = fake.find_command("roll")
    will, _ = fake.find_command("will")
    pool = next(option for option in roll["options"] if option["name"] == "pool")

    assert roll["name"] == "roll", "Discord's default stays English"
    assert {locale: roll["name_localizations"].get(locale) for locale in
            ("pt-BR", "es-ES", "es-419", "de")} == {
        "pt-BR": "rolar", "es-ES": "tirar", "es-419": "tirar", "de": None,
    }
    assert roll["description_localizations"]["pt-BR"].startswith("Rola uma parada")
    assert [o["name_localizations"]["es-ES"] for o in will["options"]] == [
        "ver", "fijar", "descansar", "ganar",
    ]
    assert not pool.get("name_localizations"), "option names stay English"


def command(**fields: Any) -> JSON:
    """A chat-input command with a subcommand and a string option with choices."""
    option = {"type": 3, "name": "pool", "description": "Dice",
              "choices": [{"name": "seven", "value": "7"}]}
    subcommand = {"type": 1, "name": "show", "description": "Show", "options": [option]}
    return {"type": 1, "name": "will", "description": "Will", "options": [subcommand]} | fields


def codes(commands: list[JSON]) -> list[tuple[str, str]]:
    return [(error.path, error.code) for error in command_errors(commands)]


def test_valid_localisations_are_accepted() -> None:
    body = command(
        name_localizations={"pt-BR": "vontade", "es-419": "voluntad", "ja": "意志"},
        description_localizations={"pt-BR": "Força de Vontade", "es-ES": "Fuerza de Voluntad"},
    )
    body["options"][0]["name_localizations"] = {"pt-BR": "ver"}
    body["options"][0]["options"][0]["choices"][0]["name_localizations"] = {"pt-BR": "sete"}

    assert codes([body]) == []


@pytest.mark.parametrize(
    ("localizations", "error"),
    [
        ({"name_localizations": {"pt_BR": "vontade"}},
         ("0.name_localizations.pt_BR", "BASE_TYPE_CHOICES")),
        ({"name_localizations": {"pt-BR": "Vontade"}},
         ("0.name_localizations.pt-BR", "APPLICATION_COMMAND_INVALID_NAME")),
        ({"name_localizations": {"es-ES": "fuerza de voluntad"}},
         ("0.name_localizations.es-ES", "APPLICATION_COMMAND_INVALID_NAME")),
        ({"name_localizations": {"es-ES": "v" * 33}},
         ("0.name_localizations.es-ES", "APPLICATION_COMMAND_INVALID_NAME")),
        ({"description_localizations": {"pt-BR": "d" * 101}},
         ("0.description_localizations.pt-BR", "BASE_TYPE_BAD_LENGTH")),
        ({"description_localizations": {"pt-BR": ""}},
         ("0.description_localizations.pt-BR", "BASE_TYPE_BAD_LENGTH")),
        ({"description_localizations": {"xx": "d"}},
         ("0.description_localizations.xx", "BASE_TYPE_CHOICES")),
    ],
    ids=["locale", "upper-case", "space", "33-characters", "long", "empty", "unknown-locale"],
)
def test_a_command_localised_as_discord_refuses_is_rejected(
    localizations: JSON, error: tuple[str, str]
) -> None:
    assert codes([command(**localizations)]) == [error]


def test_localised_subcommands_options_and_choices_are_checked_too() -> None:
    body = command()
    subcommand = body["options"][0]
    subcommand["name_localizations"] = {"pt-BR": "Ver"}
    subcommand["options"][0]["description_localizations"] = {"es-ES": "d" * 101}
    subcommand["options"][0]["choices"][0]["name_localizations"] = {"de": "c" * 101}

    assert codes([body]) == [
        ("0.options.0.name_localizations.pt-BR", "APPLICATION_COMMAND_INVALID_NAME"),
        ("0.options.0.options.0.description_localizations.es-ES", "BASE_TYPE_BAD_LENGTH"),
        ("0.options.0.options.0.choices.0.name_localizations.de", "BASE_TYPE_BAD_LENGTH"),
    ]


def test_siblings_may_not_meet_in_a_language() -> None:
    """Two commands (or two subcommands) one language would show under one name."""
    roll = command(name="roll", name_localizations={"pt-BR": "rolar"})
    rolar = command(name="rolar")
    group = command()
    group["options"].append({"type": 1, "name": "set", "description": "Set",
                             "name_localizations": {"es-ES": "show"}})

    assert sorted(codes([roll, rolar, group])) == [
        ("1.name_localizations.pt-BR", "APPLICATION_COMMANDS_DUPLICATE_NAME"),
        ("2.options.1.name_localizations.es-ES", "APPLICATION_COMMAND_OPTIONS_DUPLICATE_NAME"),
    ]
