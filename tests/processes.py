"""The processes of this machine as the tests see them, from ``/proc`` (Linux): which are
children of a process, which carry a marker in their environment, and whether they are gone.

A process is named by its PID and its start time together, so that a PID used again by an
unrelated process is never taken for the one that ended. A zombie counts as gone: it has
ended and only waits for its parent to read its status.
"""

from __future__ import annotations

import time
from collections.abc import Iterable
from pathlib import Path
from typing import NamedTuple

PROC = Path("/proc")


class Process(NamedTuple):
    """One running process: its PID, its parent's, its start time (clock ticks after boot),
    and its command line."""

    pid: int
    ppid: int
    start: int
    command: str


def process(pid: int) -> Process | None:
    """The process ``pid``, or None when there is none or it has ended (a zombie)."""
    try:
        stat = (PROC / str(pid) / "stat").read_text()
        raw = (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return None
    # "pid (name) state ppid ...": the name may hold spaces and parentheses.
    fields = stat[stat.rindex(")") + 2:].split()
    if fields[0] in ("Z", "X"):
        return None
    command = raw.replace(b"\0", b" ").decode(errors="replace").strip()
    return Process(pid, int(fields[1]), int(fields[19]), command)


def processes() -> list[Process]:
    """Every running process that can be read."""
    found = (process(int(entry.name)) for entry in PROC.iterdir() if entry.name.isdigit())
    return [found_process for found_process in found if found_process is not None]


def children(pid: int) -> list[Process]:
    """The running processes whose parent is ``pid``."""
    return [found for found in processes() if found.ppid == pid]


def environment(pid: int) -> dict[str, str]:
    """The environment ``pid`` started with (empty when it cannot be read: another user's
    process, or one that has ended)."""
    try:
        raw = (PROC / str(pid) / "environ").read_bytes()
    except OSError:
        return {}
    pairs = (item.decode(errors="replace").partition("=") for item in raw.split(b"\0") if item)
    return {name: value for name, _, value in pairs}


def marked(name: str, value: str) -> list[Process]:
    """The running processes whose environment has ``name`` set to ``value``."""
    return [found for found in processes() if environment(found.pid).get(name) == value]


def alive(each: Process) -> bool:
    """Whether this very process (the same PID and start time) still runs."""
    now = process(each.pid)
    return now is not None and now.start == each.start


def survivors(watched: Iterable[Process], limit: float) -> list[Process]:
    """Those of ``watched`` still running after waiting up to ``limit`` seconds for them to
    end (a bounded wait, not a measurement: it returns as soon as none is left)."""
    left = list(watched)
    deadline = time.monotonic() + limit
    while left:
        left = [each for each in left if alive(each)]
        if not left or time.monotonic() >= deadline:
            break
        time.sleep(0.1)
    return left
