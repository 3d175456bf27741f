"""The front door's side of a session's process (:mod:`minefield.frontdoor.spawner`)."""

from __future__ import annotations

import os
import socket

from minefield.frontdoor.spawner import Child


async def started_and_exited(sent: bytes) -> tuple[int, int]:
    """What the front door makes of a child whose link sent ``sent`` and closed: its pid and
    its exit status."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setblocking(False)
    master, slave = os.openpty()
    os.close(slave)
    child = Child(master=master, link=ours)
    try:
        theirs.sendall(sent)
        theirs.close()
        return await child.started(), await child.exited()
    finally:
        child.close()


async def test_a_quick_childs_pid_and_exit_status_in_one_read() -> None:
    """A command that ends at once (``history`` with no games) may send its ``pid`` and
    ``exit`` lines before the front door reads the first: its status is still the one it
    gave, not the 1 of a child that died without one."""
    assert await started_and_exited(b"pid 4242\nexit 0\n") == (4242, 0)


async def test_a_child_that_died_without_a_status_is_a_failure() -> None:
    assert await started_and_exited(b"pid 7\nexi") == (7, 1)
