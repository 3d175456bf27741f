"""``ssh HOST wire`` on the OpenSSH route (``minefield ssh-entry``): a program plays through
its SSH session's stdin and stdout.

sshd runs ``ssh-entry`` with the program's stdin and stdout as the channel (no terminal is
needed). :func:`pipe_wire` connects to the game daemon's socket, checks the program's first
line (:func:`~minefield.protocol.program_hello.own_hello`: a ``hello`` whose ``player`` is this
login's player or absent; another name is a ``bad_message``), sends it on with the player the
forced command names (``--player``, on the shared account) or none (a personal account: the
daemon knows the Unix user), then copies bytes both ways unread until either side ends. The
daemon applies its caps, rate limits, line limit and errors as to any client.

A refusal is the protocol's one fatal ``error`` line on stdout, exit status 2 (1 when the game
server cannot be reached).
"""

from __future__ import annotations

import contextlib
import os
import selectors
import socket
from pathlib import Path

from minefield.protocol.program_hello import fatal_line, first_line, own_hello
from minefield.protocol.wire import WireProblem

#: What one read takes at most.
READ_SIZE = 64 * 1024


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def pipe_wire(player: str | None, path: Path, stdin: int = 0, stdout: int = 1) -> int:
    """Bridge the program on ``stdin``/``stdout`` to the daemon at ``path`` as ``player`` (the
    shared account's player; None: this Unix user); the exit status."""
    from minefield.server.identity import user_name

    shown_as = player if player is not None else user_name(os.getuid())
    daemon = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    try:
        daemon.connect(str(path))
    except OSError as error:
        daemon.close()
        _write_all(stdout, fatal_line("server", f"the game server is not running at {path} "
                                      f"({(error.strerror or str(error)).lower()})"))
        return 1
    try:
        return _pump(daemon, player, shown_as, stdin, stdout)
    except (BrokenPipeError, ConnectionError):
        return 0  # the program or the daemon went away: nothing more to say
    finally:
        daemon.close()


def _pump(daemon: socket.socket, player: str | None, shown_as: str, stdin: int,
          stdout: int) -> int:
    pending: bytes | None = b""  # the program's bytes until its hello is sent; then None
    selector = selectors.DefaultSelector()
    selector.register(stdin, selectors.EVENT_READ, "program")
    selector.register(daemon, selectors.EVENT_READ, "daemon")
    try:
        while True:
            for key, _ in selector.select():
                if key.data == "daemon":
                    data = daemon.recv(READ_SIZE)
                    if not data:
                        return 0
                    _write_all(stdout, data)
                    continue
                data = os.read(stdin, READ_SIZE)
                if not data:  # the program sent everything: the daemon is told
                    selector.unregister(stdin)
                    with contextlib.suppress(OSError):
                        daemon.shutdown(socket.SHUT_WR)
                    continue
                if pending is None:
                    daemon.sendall(data)
                    continue
                pending += data
                try:
                    split = first_line(pending)
                    if split is None:
                        continue
                    hello = own_hello(split[0], player, shown_as)
                except WireProblem as problem:
                    _write_all(stdout, fatal_line(problem.code, str(problem)))
                    return 2
                daemon.sendall(hello + split[1])
                pending = None
    finally:
        selector.close()


__all__ = ["pipe_wire"]
