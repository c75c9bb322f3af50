"""Process and machine figures from /proc (Linux): memory, CPU time, load average.

No dependency: the load benchmark reads a bot's resident set (``VmRSS``), its peak
(``VmHWM``) and its CPU seconds straight from ``/proc/<pid>``.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import NamedTuple

_TICKS = os.sysconf("SC_CLK_TCK")


class Memory(NamedTuple):
    """Resident set now and its high-water mark, in MiB."""

    rss_mib: float
    hwm_mib: float


def memory(pid: int) -> Memory:
    """``VmRSS`` and ``VmHWM`` of a live process."""
    fields: dict[str, float] = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        key, _, value = line.partition(":")
        if key in ("VmRSS", "VmHWM"):
            fields[key] = int(value.split()[0]) / 1024  # kB -> MiB
    return Memory(fields["VmRSS"], fields["VmHWM"])


def _fields(path: Path) -> list[str]:
    """The fields of a ``stat`` file after the command name (field 2, which may contain
    spaces): the state first, the parent's pid second."""
    stat = path.read_text()
    return stat[stat.rindex(")") + 2 :].split()


def _stat_seconds(path: Path) -> tuple[float, float]:
    return _seconds(_fields(path))


def _seconds(after: list[str]) -> tuple[float, float]:
    """User and system CPU seconds, from a stat file's fields (:func:`_fields`)."""
    return int(after[11]) / _TICKS, int(after[12]) / _TICKS


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process, all its threads included."""
    return sum(_stat_seconds(Path(f"/proc/{pid}/stat")))


class ThreadCpu(NamedTuple):
    """CPU seconds (user, system) of the main thread and of all the other threads."""

    main_user: float
    main_system: float
    others_user: float
    others_system: float


def thread_cpu(pid: int) -> ThreadCpu:
    """CPU split between the main thread (the event loop) and the others (aiosqlite's
    connection thread, ``asyncio.to_thread`` workers). Threads that already ended are
    counted in neither."""
    main = (0.0, 0.0)
    others = [0.0, 0.0]
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            user, system = _stat_seconds(task / "stat")
        except FileNotFoundError:
            continue
        if task.name == str(pid):
            main = (user, system)
        else:
            others[0] += user
            others[1] += system
    return ThreadCpu(main[0], main[1], others[0], others[1])


def family_cpu(parent: int) -> dict[int, float]:
    """CPU seconds of a process and of each of its children (a PostgreSQL server: its
    postmaster and the backends serving each connection), by pid."""
    seconds: dict[int, float] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            after = _fields(entry / "stat")
        except (FileNotFoundError, ProcessLookupError):  # ended meanwhile
            continue
        if parent in (int(entry.name), int(after[1])):
            seconds[int(entry.name)] = sum(_seconds(after))
    return seconds


def load_average() -> str:
    """The 1, 5 and 15 minute load averages, as ``uptime`` prints them."""
    return " ".join(Path("/proc/loadavg").read_text().split()[:3])


def cpu_count() -> int:
    return os.cpu_count() or 1
