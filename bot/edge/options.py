"""The roll options, declared once and shared by every command that rolls.

``@roll_options("will", "again", ...)`` adds those options to a command (their
type, bounds, choices and description, as Discord shows them) and hands the
callback the values given as one ``options`` mapping, ready for
:func:`bot.flows.rolls.build_request`. Unset options are left out.
"""

from __future__ import annotations

import functools
import inspect
from collections.abc import Callable, Coroutine
from dataclasses import dataclass
from typing import Any, Final, TypeVar

from discord import app_commands

from engine.characters import MAX_NAME, MAX_TRAIT_NAME
from engine.constants import MAX_POOL, MAX_TARGET
from engine.models import Again, SkillCategory

F = TypeVar("F", bound=Callable[..., Coroutine[Any, Any, None]])

AGAIN_CHOICES: Final = [
    app_commands.Choice(name="10-again (default)", value=Again.TEN.value),
    app_commands.Choice(name="9-again", value=Again.NINE.value),
    app_commands.Choice(name="8-again", value=Again.EIGHT.value),
    app_commands.Choice(name="no again", value=Again.NONE.value),
]
UNTRAINED_CHOICES: Final = [
    app_commands.Choice(name=category.value, value=category.value) for category in SkillCategory
]


#: Descriptions of the options that go with the roll options on several commands.
SPEC_HELP: Final = "A specialty of a Skill in the pool, from your character's sheet"
LABEL_HELP: Final = "What the roll is for (labelled rolls count successive attempts)"


@dataclass(frozen=True, slots=True)
class RollOption:
    """One option: its annotation (type and bounds), default and description."""

    annotation: Any
    default: Any
    description: str
    choices: list[app_commands.Choice[str]] | None = None


#: Every roll option, in the order Discord lists them.
ROLL_OPTIONS: Final[dict[str, RollOption]] = {
    "will": RollOption(
        bool, False, "Declare Willpower with the roll (cofd/fistful +3 dice, v20 +1 success)"
    ),
    "again": RollOption(
        str | None, None, "cofd: which faces reroll (default 10-again)", AGAIN_CHOICES
    ),
    "rote": RollOption(bool, False, "cofd: rote action, reroll each failed die once"),
    "specialty": RollOption(bool, False, "cofd: +1 die; v20: each 10 counts twice"),
    "untrained": RollOption(
        str | None, None, "cofd: unskilled penalty by category; fistful: the skill has no dots",
        UNTRAINED_CHOICES,
    ),
    "resist": RollOption(
        app_commands.Range[str, 1, MAX_TRAIT_NAME] | None, None,
        f"cofd: dice to subtract (0-{MAX_POOL}), or Resolve/Stamina/Composure/Defense"
        " of resist_target's sheet",
    ),
    "resist_target": RollOption(
        app_commands.Range[str, 1, MAX_NAME + 8] | None, None,
        "cofd: whose sheet resist's trait comes from: @member or a character's name",
    ),
    "extra": RollOption(
        app_commands.Range[int, 0, MAX_POOL], 0,
        "cofd: extra successes added on a success (weapons etc.)",
    ),
    "exceptional_at": RollOption(
        app_commands.Range[int, 1, 10] | None, None,
        "cofd: successes for an exceptional success (default 5)",
    ),
    "difficulty": RollOption(
        app_commands.Range[int, 2, 10] | None, None, "v20: difficulty 2-10 (default 6)"
    ),
    "auto": RollOption(
        bool, False, "v20: take an automatic success (pool at least the difficulty)"
    ),
    "risky": RollOption(bool, False, "fistful: a risky maneuver, 1s eat successes"),
    "initiative": RollOption(bool, False, "fistful: initiative roll, 6-10 succeed"),
    "no_botch": RollOption(bool, False, "fistful: this roll cannot botch (soak and the like)"),
    "need": RollOption(
        app_commands.Range[int, 1, MAX_TARGET] | None, None,
        "fistful: successes required for full effect",
    ),
}

EVERY_OPTION: Final = tuple(ROLL_OPTIONS)


def roll_options(*names: str, **annotations: Any) -> Callable[[F], F]:
    """Add the named roll options to a command callback that takes ``options``.

    ``annotations`` overrides an option's annotation for one command (a narrower
    range, e.g. a resisted difficulty of at most 9).
    """
    unknown = set(names) - set(ROLL_OPTIONS)
    if unknown:
        msg = f"no such roll options: {sorted(unknown)}"
        raise ValueError(msg)
    if ("resist" in names) != ("resist_target" in names):
        msg = "resist and resist_target go together (a named resist needs its target)"
        raise ValueError(msg)

    def decorate(func: F) -> F:
        # Annotations resolved here: discord.py reads them from the wrapper, in this module.
        signature = inspect.signature(func, eval_str=True)
        kept = [p for p in signature.parameters.values() if p.name != "options"]
        added = [
            inspect.Parameter(
                name,
                inspect.Parameter.KEYWORD_ONLY,
                default=ROLL_OPTIONS[name].default,
                annotation=annotations.get(name, ROLL_OPTIONS[name].annotation),
            )
            for name in names
        ]

        @functools.wraps(func)
        async def command(*args: Any, **kwargs: Any) -> None:
            given = {name: kwargs.pop(name) for name in names if name in kwargs}
            await func(*args, options=given, **kwargs)

        command.__signature__ = signature.replace(  # type: ignore[attr-defined]
            parameters=[*kept, *added]
        )
        described = app_commands.describe(
            **{name: ROLL_OPTIONS[name].description for name in names}
        )(command)
        choices: dict[str, list[app_commands.Choice[str]]] = {
            name: listed for name in names if (listed := ROLL_OPTIONS[name].choices)
        }
        if choices:
            described = app_commands.choices(**choices)(described)
        return described  # type: ignore[return-value]

    return decorate
