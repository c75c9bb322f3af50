"""Every option's declared bounds are checked again in the bot (a modified client ignores
them): numbers, string lengths and choices, under subcommands too."""

from __future__ import annotations

from typing import Any

import pytest

from bot.cogs.rolling import Rolling
from bot.edge.errors import check_bounds
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
