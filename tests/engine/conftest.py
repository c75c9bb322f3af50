"""Every engine test starts with the engine's memos empty.

The engine memoises pure work (prepared requests, ready-made dice, degree
words); a test must not depend on what an earlier test left there. Mutation
testing needs this too: mutmut runs each mutant's tests in a process forked
after the whole suite ran, and with warm memos the code that fills them would
never run, so its mutants could not be caught.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from engine import roll as roll_module


@pytest.fixture(autouse=True)
def cold_engine(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Empty the die tables, the degree words and the memo of prepared requests."""
    roll_module._dice_of.cache_clear()
    roll_module._round0_dice.cache_clear()
    roll_module._degree.cache_clear()
    monkeypatch.setattr(roll_module, "_PREPARED", {})
    yield
    roll_module._dice_of.cache_clear()
    roll_module._round0_dice.cache_clear()
    roll_module._degree.cache_clear()
