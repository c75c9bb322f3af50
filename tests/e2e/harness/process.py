"""Run a bot as a real subprocess against a :class:`FakeDiscord`.

The env contract of the bot: ``DISCORD_TOKEN``, ``DATABASE_PATH``, ``DEV_GUILD_ID`` (sync
commands there at startup), ``LOG_LEVEL``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``
and, when a test pins the dice, ``DICE_SEED``.

A bot runs in its own folder (its database's), never the checkout's: the bot reads the
`.env` of the folder it runs in, and README has whoever runs the tests keep their own
there (their token, and a `DATABASE_URL`, `SHARD_COUNT` or `SYNC_COMMANDS` of theirs
would win over what a test sets, or fill in what it leaves unset: a test's writes would
go to their PostgreSQL database).
"""

# The harness API takes explicit per-call timeouts (`await inter.reply(timeout=5)`) so every
# expectation states its own bound; asyncio.timeout() is used inside.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from .fake import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[3]

#: The command lines a zygote can fork instead of starting a new interpreter, and the
#: program it runs for each (tests/e2e/harness/zygote.py).
FORKED: dict[tuple[str, ...], str] = {
    (sys.executable, "-m", "bot"): "bot",
    (sys.executable, str(REPO_ROOT / "tests" / "e2e" / "bare_bot.py")): "bare",
}


class BotExitedError(AssertionError):
    """The bot process died while a test was waiting on it."""


class StartBot(Protocol):
    """The ``start_bot`` fixture: start a bot process against the test's fake."""

    async def __call__(
        self,
        argv: Sequence[str],
        *,
        env_extra: Mapping[str, str] | None = None,
        dice_seed: int | None = None,
        db_path: Path | None = None,
        synced: bool = True,
    ) -> BotProcess: ...


class BotProcess:
    def __init__(
        self,
        fake: FakeDiscord,
        argv: Sequence[str],
        env_extra: Mapping[str, str] | None,
        db_path: Path,
        *,
        log_dir: Path | None = None,
        dice_seed: int | None = None,
        log_level: str = "INFO",
        name: str = "bot",
        zygote: Zygote | None = None,
    ) -> None:
        self.fake = fake
        self.argv = list(argv)
        self.env_extra = dict(env_extra or {})
        self.db_path = db_path
        self.dice_seed = dice_seed
        self.log_level = log_level
        directory = log_dir or db_path.parent
        self.stdout_path = directory / f"{name}.stdout.log"
        self.stderr_path = directory / f"{name}.stderr.log"
        self.starts = 0
        self._zygote = zygote
        self._proc: asyncio.subprocess.Process | ForkedProcess | None = None
        self._watcher: asyncio.Task[None] | None = None
        self._stopping = False
        fake.changes.add_context(self._stderr_context)

    def __repr__(self) -> str:
        return f"<BotProcess {self.argv} pid={self.pid} returncode={self.returncode}>"

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    @property
    def returncode(self) -> int | None:
        return None if self._proc is None else self._proc.returncode

    @property
    def running(self) -> bool:
        return self._proc is not None and self._proc.returncode is None

    @property
    def crashed(self) -> bool:
        """The process exited without being asked to by stop() or kill()."""
        return self._proc is not None and self._proc.returncode is not None and not self._stopping

    @property
    def folder(self) -> Path:
        """Where the bot runs: its database's folder, with no `.env` in it."""
        return self.db_path.parent

    def env(self) -> dict[str, str]:
        env = dict(os.environ)
        env |= {
            "DISCORD_TOKEN": self.fake.token,
            "DEV_GUILD_ID": str(self.fake.guild_id),
            "LOG_LEVEL": self.log_level,
            "DISCORD_API_BASE": self.fake.api_base,
            "DISCORD_GATEWAY_URL": self.fake.gateway_url,
            "DATABASE_PATH": str(self.db_path),
            "PYTHONUNBUFFERED": "1",
        }
        if self.dice_seed is not None:
            env["DICE_SEED"] = str(self.dice_seed)
        return env | self.env_extra

    async def start(self, timeout: float = 30.0, *, synced: bool = True) -> None:
        """Spawn the bot; return once it has IDENTIFYed and synced its commands (only
        IDENTIFYed when not ``synced``: a shard other than 0 syncs nothing)."""
        if self.running:
            raise RuntimeError(f"{self!r} is already running")
        self.starts += 1
        self._stopping = False
        mark = self.fake.ready_mark()
        banner = f"\n----- start #{self.starts}: {' '.join(self.argv)}\n".encode()
        with self.stdout_path.open("ab") as stdout, self.stderr_path.open("ab") as stderr:
            stdout.write(banner)
            stderr.write(banner)
            stdout.flush()
            stderr.flush()
            program = FORKED.get(tuple(self.argv))
            if self._zygote is not None and program is not None:
                self._proc = self._zygote.spawn(
                    self.env(), self.stdout_path, self.stderr_path, program=program,
                    cwd=self.folder,
                )
            else:
                self._proc = await asyncio.create_subprocess_exec(
                    *self.argv, cwd=self.folder, env=self.env(), stdout=stdout, stderr=stderr
                )
        self._watcher = asyncio.create_task(self._watch(self._proc))
        self.fake.changes.add_guard(self._check_alive)
        if synced:
            await self.fake.wait_ready(since=mark, timeout=timeout)
        else:
            await self.fake.wait_until(
                lambda: self.fake.gateway.identifies > mark.identifies,
                timeout,
                f"the bot to identify (since {mark})",
            )

    async def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, wait (SIGKILL after ``timeout``), return the exit code."""
        return await self._terminate(signal.SIGTERM, timeout)

    async def kill(self) -> int:
        return await self._terminate(signal.SIGKILL, timeout=10.0)

    async def restart(self, timeout: float = 30.0) -> None:
        await self.stop()
        await self.start(timeout)

    async def _terminate(self, sig: signal.Signals, timeout: float) -> int:
        proc = self._proc
        if proc is None:
            raise RuntimeError(f"{self!r} was never started")
        self.fake.changes.discard_guard(self._check_alive)
        if proc.returncode is None:
            self._stopping = True
            proc.send_signal(sig)
            try:
                await asyncio.wait_for(proc.wait(), timeout)
            except TimeoutError:
                proc.kill()
                await proc.wait()
        if self._watcher is not None:
            await self._watcher
        return proc.returncode if proc.returncode is not None else -1

    async def _watch(self, proc: asyncio.subprocess.Process | ForkedProcess) -> None:
        """Wake waiters when the process exits so guards can fail them immediately."""
        await proc.wait()
        self.fake.changes.notify()

    def _check_alive(self) -> None:
        if self.crashed:
            raise BotExitedError(f"{self!r} exited unexpectedly\n{self.output(tail=60)}")

    def output(self, tail: int = 200) -> str:
        """The last ``tail`` lines of the bot's stdout and stderr."""
        sections = []
        for label, path in (("stdout", self.stdout_path), ("stderr", self.stderr_path)):
            lines = path.read_text(errors="replace").splitlines()[-tail:] if path.exists() else []
            sections.append(f"===== bot {label} ({path}) =====\n" + "\n".join(lines))
        return "\n".join(sections)

    def _stderr_context(self) -> str:
        if not self.stderr_path.exists():
            return ""
        lines = self.stderr_path.read_text(errors="replace").splitlines()[-25:]
        return "bot stderr tail:\n" + "\n".join(f"  {line}" for line in lines)


class Zygote:
    """The test session's bot forker (see :mod:`tests.e2e.harness.zygote`).

    Start it once with :meth:`start`; :class:`BotProcess` given one forks ``python -m bot``
    from it instead of starting a new interpreter. A reader thread collects the zygote's
    answers, so any test's event loop can wait for its bot's end.
    """

    def __init__(self) -> None:
        self._proc: subprocess.Popen[bytes] | None = None
        self._lock = threading.Lock()
        self._pids: queue.SimpleQueue[int] = queue.SimpleQueue()
        self._ended: dict[int, int] = {}
        self._waiters: dict[int, list[tuple[asyncio.AbstractEventLoop, asyncio.Future[int]]]] = {}

    def start(self) -> None:
        self._proc = subprocess.Popen(
            [sys.executable, "-m", "tests.e2e.harness.zygote"],
            cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
        )
        threading.Thread(target=self._read, name="zygote-reader", daemon=True).start()

    @property
    def pid(self) -> int | None:
        return None if self._proc is None else self._proc.pid

    def close(self) -> None:
        if self._proc is not None and self._proc.stdin is not None:
            self._proc.stdin.close()
            self._proc.wait(timeout=10)

    def spawn(
        self, env: Mapping[str, str], stdout: Path, stderr: Path, *, program: str = "bot",
        cwd: Path,
    ) -> ForkedProcess:
        """Fork a bot (``program``: "bot" or "bare", see :data:`FORKED`) with this
        environment and these output files, in the folder ``cwd``."""
        if self._proc is None or self._proc.stdin is None:
            raise RuntimeError("the zygote is not started")
        request = {"env": dict(env), "cwd": str(cwd), "stdout": str(stdout),
                   "stderr": str(stderr), "program": program}
        with self._lock:
            self._proc.stdin.write(json.dumps(request).encode() + b"\n")
            self._proc.stdin.flush()
            pid = self._pids.get(timeout=10)
        return ForkedProcess(self, pid)

    def _read(self) -> None:
        assert self._proc is not None and self._proc.stdout is not None
        for raw in self._proc.stdout:
            word, *numbers = raw.decode().split()
            if word == "pid":
                self._pids.put(int(numbers[0]))
                continue
            pid, code = int(numbers[0]), int(numbers[1])
            with self._lock:
                self._ended[pid] = code
                waiters = self._waiters.pop(pid, [])
            for loop, future in waiters:
                with contextlib.suppress(RuntimeError):  # that test's loop is closed
                    loop.call_soon_threadsafe(_settle, future, code)

    def wait(self, pid: int) -> asyncio.Future[int]:
        """A future of the running loop that resolves to the child's exit code."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[int] = loop.create_future()
        with self._lock:
            if pid in self._ended:
                future.set_result(self._ended[pid])
            else:
                self._waiters.setdefault(pid, []).append((loop, future))
        return future

    def ended(self, pid: int) -> int | None:
        with self._lock:
            return self._ended.get(pid)


def _settle(future: asyncio.Future[int], code: int) -> None:
    if not future.done():
        future.set_result(code)


class ForkedProcess:
    """A bot forked by the :class:`Zygote`, with the part of asyncio's Process the harness uses."""

    def __init__(self, zygote: Zygote, pid: int) -> None:
        self._zygote = zygote
        self.pid = pid

    @property
    def returncode(self) -> int | None:
        return self._zygote.ended(self.pid)

    def send_signal(self, sig: int) -> None:
        if self.returncode is None:
            with contextlib.suppress(ProcessLookupError):
                os.kill(self.pid, sig)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)

    async def wait(self) -> int:
        return await self._zygote.wait(self.pid)
