"""The bytes between a player's SSH channel and the terminal of the client playing for them.

:class:`PtyPump` reads the pseudo-terminal's master side as the loop says it is readable and
writes to the channel, stopping while the channel is paused (the player's network is slower
than the screen); what the player types goes the other way, written as the master takes it.

Not asyncssh's ``SSHServerProcess.redirect`` (asyncssh 2.24), which can forward a pty's
descriptor too, because a session here needs three things redirect does not give:

- to stop at once: a session that ends (its key removed, the server stopping, idle in the
  menu) stops the game's drawing at that byte and then writes the terminal's restore and the
  last line (:meth:`~minefield.frontdoor.ssh_session.DoorSession.end`); a redirection has no
  public way to stop but its pipe's end of file, and bytes still in flight would be drawn
  over the restored terminal;
- an order at the end: the exit status goes after everything the child wrote before it exited
  (:meth:`PtyPump.drain`); the child's exit comes from the spawner and a redirection's end of
  file from the pipe, with nothing public to wait for between the two;
- one owner of the descriptor: redirect takes an integer descriptor over (``os.fdopen``,
  closed when its pipe ends), while the master belongs to the spawner's
  :class:`~minefield.frontdoor.spawner.Child`, closed once after the child's exit.

It is also a method of the process API (``process_factory``), where each request (the pty,
a resize, a subsystem refused, the bytes of the name prompt before any child exists) would be
rewritten on streams for no gain.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections.abc import Callable

#: The most read from the terminal at a time.
READ_BYTES = 65536
#: The most written to the terminal at a time.
WRITE_BYTES = 4096
#: Typed bytes the terminal has not taken yet past which they are dropped (a paste gone wrong).
MAX_PENDING = 1024 * 1024


class PtyPump:
    """The pump of one session: ``write`` sends bytes to the player's channel. It pumps once
    :meth:`attach` gives it a terminal's master and :meth:`start` is called, until
    :meth:`detach`."""

    def __init__(self, write: Callable[[bytes], None]) -> None:
        self._write = write
        self.master: int | None = None
        #: The channel asked for no more bytes for now (asyncssh's ``pause_writing``).
        self.paused = False
        self.reading = False
        self._to_child = bytearray()

    def attach(self, master: int) -> None:
        """Pump the terminal whose master side is ``master`` (not read before :meth:`start`)."""
        self.master = master

    def detach(self) -> None:
        """Stop pumping (before the master is closed: nothing may wait on a closed one)."""
        self.stop()
        if self.master is not None and self._to_child:
            with contextlib.suppress(ValueError, OSError):
                asyncio.get_running_loop().remove_writer(self.master)
        self._to_child.clear()
        self.master = None

    def start(self) -> None:
        """Read the terminal for the channel, unless the channel is paused."""
        if self.master is not None and not self.reading and not self.paused:
            asyncio.get_running_loop().add_reader(self.master, self._read_child)
            self.reading = True

    def stop(self) -> None:
        """Read no more of the terminal (nothing more of the game is drawn)."""
        if self.reading and self.master is not None:
            asyncio.get_running_loop().remove_reader(self.master)
        self.reading = False

    def _read_child(self) -> None:
        if self.master is None:
            return
        try:
            data = os.read(self.master, READ_BYTES)
        except BlockingIOError:
            return
        except OSError:  # EIO: every process of the terminal has closed it
            data = b""
        if not data:
            self.stop()
            return
        self._write(data)

    async def drain(self) -> None:
        """What the child wrote before it exited, still in the terminal, to the channel."""
        if self.master is None or not self.reading:
            return
        for _ in range(100):
            try:
                data = os.read(self.master, READ_BYTES)
            except (BlockingIOError, OSError):
                return
            if not data:
                return
            self._write(data)

    def send(self, data: bytes) -> None:
        """What the player typed, to the terminal (dropped when there is none)."""
        if self.master is None:
            return
        self._to_child += data
        self._write_child()

    def _write_child(self) -> None:
        master = self.master
        if master is None:
            return
        loop = asyncio.get_running_loop()
        try:
            written = os.write(master, bytes(self._to_child[:WRITE_BYTES]))
            del self._to_child[:written]
        except BlockingIOError:
            pass
        except OSError:
            self._to_child.clear()
            return
        if len(self._to_child) > MAX_PENDING:  # a client pasting megabytes into a game
            self._to_child.clear()
        if self._to_child:
            loop.add_writer(master, self._write_again)
        else:
            with contextlib.suppress(ValueError, OSError):
                loop.remove_writer(master)

    def _write_again(self) -> None:
        if self.master is not None:
            asyncio.get_running_loop().remove_writer(self.master)
        self._write_child()


__all__ = ["PtyPump"]
