"""The front door's side of a session's process (:mod:`minefield.frontdoor.spawner`)."""

from __future__ import annotations

import os
import socket

from minefield.frontdoor.spawner import Child


async def test_a_quick_childs_pid_and_exit_status_in_one_read() -> None:
    """A command that ends at once (``history`` with no games) may send its ``pid`` and
    ``exit`` lines before the front door reads the first: its status is still the one it
    gave, not the 1 of a child that died without one."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setblocking(False)
    master, slave = os.openpty()
    os.close(slave)
    child = Child(master=master, link=ours)
    try:
        theirs.sendall(b"pid 4242\nexit 0\n")
        theirs.close()
        assert await child.started() == 4242
        assert await child.exited() == 0
    finally:
        child.close()


async def test_a_child_that_died_without_a_status_is_a_failure() -> None:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
    ours.setblocking(False)
    master, slave = os.openpty()
    os.close(slave)
    child = Child(master=master, link=ours)
    try:
        theirs.sendall(b"pid 7\nexi")
        theirs.close()
        assert await child.started() == 7
        assert await child.exited() == 1
    finally:
        child.close()
