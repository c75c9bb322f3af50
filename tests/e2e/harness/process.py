"""Run a bot as a real subprocess against a :class:`FakeDiscord`.

The env contract of the bot: ``DISCORD_TOKEN``, ``DATABASE_PATH``, ``DEV_GUILD_ID`` (sync
commands there at startup), ``LOG_LEVEL``, ``DISCORD_API_BASE``, ``DISCORD_GATEWAY_URL``
and, when a test pins the dice, ``DICE_SEED``.
"""

# The harness API takes explicit per-call timeouts (`await inter.reply(timeout=5)`) so every
# expectation states its own bound; asyncio.timeout() is used inside.
# ruff: noqa: ASYNC109

from __future__ import annotations

import asyncio
import os
import signal
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from .fake import FakeDiscord

REPO_ROOT = Path(__file__).resolve().parents[3]


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
        self._proc: asyncio.subprocess.Process | None = None
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

    async def start(self, timeout: float = 30.0) -> None:
        """Spawn the bot; return once it has IDENTIFYed and synced its commands."""
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
            self._proc = await asyncio.create_subprocess_exec(
                *self.argv, cwd=REPO_ROOT, env=self.env(), stdout=stdout, stderr=stderr
            )
        self._watcher = asyncio.create_task(self._watch(self._proc))
        self.fake.changes.add_guard(self._check_alive)
        await self.fake.wait_ready(since=mark, timeout=timeout)

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

    async def _watch(self, proc: asyncio.subprocess.Process) -> None:
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
