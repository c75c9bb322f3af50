"""A process that has imported the bot once and forks a fresh bot process per request.

Importing discord.py, pydantic and the bot takes about a second, most of an end-to-end
test's bot start, and reading the translation catalogues a quarter of a second more
(:func:`warm`). The zygote pays both once per test session: each request forks a child
that sets its own environment, working folder and output files and runs
``bot.__main__.main()``, exactly what ``python -m bot`` runs, in a process of its own
(its own pid, signals, database connection and event loop). The zygote has no thread and
no event loop, so forking it is safe.

Protocol (one JSON object or one line per message):

- stdin: ``{"env": {...}, "cwd": "...", "stdout": "path", "stderr": "path", "program":
  "bot"}`` asks for a bot (``"bare"``: tests/e2e/bare_bot.py, what running that file runs);
- stdout: ``pid <pid>`` answers a request, ``exit <pid> <code>`` reports a child's end
  (``code`` as asyncio reports it: negative for a signal);
- end of stdin: the zygote kills its children and exits.
"""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import os
import select
import signal
import sys
import traceback
from typing import Any

import bot.__main__ as bot_main
from bot.client import EXTENSIONS
from bot.render import lang
from engine.records import Language
from tests.e2e import bare_bot

#: How long the zygote waits for a request before it looks for ended children.
POLL_SECONDS = 0.02


def _child(request: dict[str, Any]) -> None:
    """Become the bot: never returns."""
    code = 1
    try:
        os.setpgid(0, 0)
        signal.signal(signal.SIGINT, signal.SIG_DFL)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        null = os.open(os.devnull, os.O_RDONLY)
        os.dup2(null, 0)
        for fd, key in ((1, "stdout"), (2, "stderr")):
            target = os.open(request[key], os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
            os.dup2(target, fd)
            os.close(target)
        sys.stdout = open(1, "w", buffering=1, closefd=False)  # noqa: SIM115 - the process's own
        sys.stderr = open(2, "w", buffering=1, closefd=False)  # noqa: SIM115
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        if request.get("program", "bot") == "bot":
            code = bot_main.main()
        else:
            asyncio.run(bare_bot.main())
            code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else 1
    except BaseException:
        traceback.print_exc()
    finally:
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)


def _report(line: str) -> None:
    sys.stdout.write(line + "\n")
    sys.stdout.flush()


def _reap(children: set[int]) -> None:
    while children:
        try:
            pid, status = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return
        if pid == 0:
            return
        children.discard(pid)
        code = -os.WTERMSIG(status) if os.WIFSIGNALED(status) else os.WEXITSTATUS(status)
        _report(f"exit {pid} {code}")


def warm() -> None:
    """Import the cogs' modules and read the translation catalogues once, for every child
    to inherit.

    A bot imports its cogs when it loads them (the cog module itself is run again by
    ``load_extension``, the modules it imports are not) and reads each language's ``.po``
    files on first use (``lang.voice``, cached for the process's life), at start-up: its
    command tree carries every translation. That was a quarter of a second of each bot's
    start, the same files each time.
    """
    for extension in EXTENSIONS:
        importlib.import_module(extension)
    for language in Language:
        lang.voice(language)


def serve() -> None:
    """Answer requests until stdin ends."""
    children: set[int] = set()
    stdin = sys.stdin.buffer
    pending = b""
    while True:
        ready, _, _ = select.select([stdin], [], [], POLL_SECONDS)
        _reap(children)
        if not ready:
            continue
        chunk = os.read(stdin.fileno(), 65536)
        if not chunk:
            break
        pending += chunk
        while b"\n" in pending:
            line, pending = pending.split(b"\n", 1)
            pid = os.fork()
            if pid == 0:
                _child(json.loads(line))
            children.add(pid)
            _report(f"pid {pid}")
    for pid in children:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(pid, signal.SIGKILL)


if __name__ == "__main__":
    warm()
    serve()
