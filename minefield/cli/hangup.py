"""A client whose terminal is gone ends, whatever its signals say.

When the other side of a terminal goes (an SSH session closed, the front door killed, a
terminal window shut), the kernel hangs the terminal up: SIGHUP to its processes, and from then
on every read of it returns nothing at once. A process that ignores SIGHUP (started under
``nohup``, or from a server that was) does not die, and Textual's input thread, which reads the
terminal in a loop, then spins on those empty reads (27-100% of a core, forever). This watch
ends the process instead: a thread that waits, without using any time, for the terminal's
hang-up (``poll`` with no events asked reports only POLLHUP and POLLERR) and then exits with
status 129 (128 + SIGHUP, what the default action of SIGHUP gives). Its sockets close with it,
so a game server sees the connection drop at once and starts the seat's grace period (R25b).

>>> watch_for_hangup(-1)
False
"""

from __future__ import annotations

import os
import select
import threading

#: The exit status of a client whose terminal hung up (as if killed by SIGHUP).
HANGUP_STATUS = 129
#: The watching thread's name. It holds no lock while it waits: a fork beside it is safe.
WATCH_THREAD = "terminal-hangup"

_watched: set[int] = set()
# A forked child has no watching thread (a fork copies only the forking thread): it may start
# its own (the lobby runs each game in a child, minefield.cli.lobby).
os.register_at_fork(after_in_child=_watched.clear)


def _wait_for_hangup(fd: int) -> None:
    poller = select.poll()
    poller.register(fd, 0)  # nothing asked: only POLLHUP, POLLERR and POLLNVAL come back
    while True:
        try:
            events = poller.poll()
        except InterruptedError:  # pragma: no cover - retried by Python itself
            continue
        except OSError:
            return
        for _fd, mask in events:
            if mask & select.POLLNVAL:  # the descriptor was closed (at exit): not a hang-up
                return
            if mask & (select.POLLHUP | select.POLLERR):
                os._exit(HANGUP_STATUS)


def watch_for_hangup(fd: int = 0) -> bool:
    """Exit the process (status :data:`HANGUP_STATUS`) when the terminal on ``fd`` hangs up;
    True when a watch runs (``fd`` is a terminal and poll exists), False otherwise."""
    if fd in _watched:
        return True
    try:
        if fd < 0 or not os.isatty(fd) or not hasattr(select, "poll"):
            return False
    except OSError:
        return False
    _watched.add(fd)
    threading.Thread(target=_wait_for_hangup, args=(fd,), name=WATCH_THREAD,
                     daemon=True).start()
    return True


__all__ = ["HANGUP_STATUS", "WATCH_THREAD", "watch_for_hangup"]
