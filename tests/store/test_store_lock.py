"""One SQLite file, one process: the lock beside the file (bot.store.lock)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from bot.store import StoreError
from bot.store.lock import exclusive_use, lock_path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: Holds the lock, says so, and keeps it until its standard input closes.
HOLDER = """
import sys
from pathlib import Path
from bot.store.lock import exclusive_use
with exclusive_use(Path(sys.argv[1])):
    print("held", flush=True)
    sys.stdin.read()
"""


def test_a_second_process_is_refused_while_the_first_holds_the_file(tmp_path: Path) -> None:
    database = tmp_path / "data" / "bot.sqlite3"
    holder = subprocess.Popen(
        [sys.executable, "-c", HOLDER, str(database)],
        cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
    )
    try:
        assert holder.stdout is not None
        assert holder.stdout.readline() == "held\n"

        with pytest.raises(StoreError) as refused, exclusive_use(database):
            pass

        message = str(refused.value)
        assert f"{database} is in use by another bot process (pid {holder.pid})" in message
        assert "DATABASE_URL" in message
    finally:
        assert holder.stdin is not None
        holder.stdin.close()
        holder.wait(timeout=10)

    with exclusive_use(database):  # the holder is gone: its lock went with it
        assert lock_path(database).read_text() == f"{os.getpid()}\n"


def test_the_lock_is_released_when_the_block_ends(tmp_path: Path) -> None:
    database = tmp_path / "bot.sqlite3"

    with exclusive_use(database), pytest.raises(StoreError), exclusive_use(database):
        pass
    with exclusive_use(database):
        pass
