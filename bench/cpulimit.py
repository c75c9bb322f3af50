"""A CPU budget for one process, as a container's ``--cpus`` (or compose's ``cpus:``) gives it.

The load benchmark's ``--cpu-limit`` puts each bot process in a cgroup of its own whose
CPU quota is that many cores, so that one process and two processes can be compared on
a machine with fewer cores than the whole rig needs: with every bot held to the same
budget, what limits a process is its own CPU, as when each runs in its own container,
not the cores the fake Discord, the load generator and PostgreSQL share with it.

Linux only, as root: cgroup v1's ``cpu`` controller (``cpu.cfs_quota_us``) or cgroup v2's
``cpu.max``. Nothing else in the project uses it.
"""

from __future__ import annotations

from pathlib import Path

#: The scheduler's period, in microseconds: the quota is ``cpus`` times this.
PERIOD_US = 100_000
_V1 = Path("/sys/fs/cgroup/cpu")
_V2 = Path("/sys/fs/cgroup")


class CpuLimitError(RuntimeError):
    """No cgroup CPU controller this process may write to."""


def limit(pid: int, cpus: float, name: str) -> Path:
    """Hold ``pid`` (all its threads, and the processes it starts later) to ``cpus`` cores;
    the cgroup made for it, for :func:`release`."""
    if cpus <= 0:
        msg = f"a CPU budget is a positive number of cores, not {cpus:g}"
        raise CpuLimitError(msg)
    quota = max(1_000, round(cpus * PERIOD_US))
    try:
        if (_V1 / "cpu.cfs_quota_us").exists():
            group = _V1 / name
            group.mkdir(exist_ok=True)
            (group / "cpu.cfs_period_us").write_text(str(PERIOD_US))
            (group / "cpu.cfs_quota_us").write_text(str(quota))
        elif "cpu" in (_V2 / "cgroup.controllers").read_text().split():
            (_V2 / "cgroup.subtree_control").write_text("+cpu")
            group = _V2 / name
            group.mkdir(exist_ok=True)
            (group / "cpu.max").write_text(f"{quota} {PERIOD_US}")
        else:
            msg = "no cgroup CPU controller is mounted (cgroup v1 cpu or v2 cpu.max)"
            raise CpuLimitError(msg)
        (group / "cgroup.procs").write_text(str(pid))
    except OSError as error:
        msg = f"cannot hold process {pid} to {cpus:g} CPUs (root and cgroups needed): {error}"
        raise CpuLimitError(msg) from error
    return group


def throttled_seconds(group: Path) -> float:
    """How long the group's processes have waited for their quota so far (``cpu.stat``)."""
    stat = dict(line.split() for line in (group / "cpu.stat").read_text().splitlines())
    if "throttled_time" in stat:  # v1: nanoseconds
        return int(stat["throttled_time"]) / 1e9
    return int(stat.get("throttled_usec", 0)) / 1e6


def release(group: Path) -> None:
    """Remove a group made by :func:`limit` once its processes have ended (the kernel
    refuses while one is left: it is then left in place, harmless)."""
    try:
        group.rmdir()
    except OSError:
        return
