"""Session-wide fixtures shared by the end-to-end tests under tests/e2e and tests/bot."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.harness.process import Zygote


@pytest.fixture(scope="session")
def zygote() -> Iterator[Zygote]:
    """One process that has imported the bot, forking each test's ``python -m bot``."""
    forker = Zygote()
    forker.start()
    try:
        yield forker
    finally:
        forker.close()
