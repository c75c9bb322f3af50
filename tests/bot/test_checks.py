"""A check that cannot read the database is answered like any other database fault."""

from __future__ import annotations

import sqlite3

import discord
import pytest

from bot import checks
from bot.errors import user_message
from bot.render.messages import STORE_FAILED


async def test_a_database_fault_in_the_storyteller_check_becomes_a_check_failure(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    fault = sqlite3.OperationalError("disk I/O error")
    fault.sqlite_errorname = "SQLITE_IOERR_READ"

    async def failing(interaction: discord.Interaction) -> bool:
        raise fault

    monkeypatch.setattr(checks, "is_storyteller", failing)

    with pytest.raises(checks.StoreUnreadable) as raised:
        await checks.require_storyteller(object())  # type: ignore[arg-type]

    assert raised.value.__cause__ is fault
    assert user_message(raised.value) == STORE_FAILED
