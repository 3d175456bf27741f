"""Is the player's terminal still there? A dead SSH link, noticed from the game's side.

When the network between a player and the SSH server dies (a laptop shut, a cable pulled, Wi-Fi
gone) nothing tells the server: no packet says goodbye. ``sshd``'s ``ClientAliveInterval``
would ask the client, but OpenSSH only asks after the session has been *quiet* that long, and a
game is never quiet: its clocks redraw the screen every second. TCP gives up only after its
retransmissions run out (about 15 minutes on Linux). Meanwhile the other player waits for
someone who is gone.

So the app asks the terminal itself: every :data:`PROBE_SECONDS` it writes the cursor position
request (``ESC [ 6 n``), which every terminal answers (``ESC [ row ; col R``), through the SSH
link and back. A terminal that has answered once and then stays silent for
:data:`SILENCE_SECONDS` is gone: the app closes its game connection, so the server starts the
seat's grace period and tells the other player, and exits. The player comes back with
``ssh -t HOST resume``. A terminal that never answers (some very old ones) is never judged.

>>> clock = [0.0]
>>> watch = LinkWatch(probe=5.0, silence=25.0, now=lambda: clock[0])
>>> watch.tick(), watch.answered(), watch.tick()  # asks; an answer; asks again
(True, None, True)
>>> clock[0] = 24.0; watch.dead
False
>>> clock[0] = 25.5; watch.dead, watch.tick()
(True, False)
"""

from __future__ import annotations

import os
import time
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from textual.app import App

#: How often the terminal is asked.
PROBE_SECONDS = 5.0
#: Silence after which a terminal that used to answer is taken for gone.
SILENCE_SECONDS = 25.0
#: The request: "where is the cursor?" (DSR 6, answered with a cursor position report).
CURSOR_POSITION_REQUEST = "\x1b[6n"


def over_ssh(environ: Mapping[str, str] | None = None) -> bool:
    """True when this process runs in an SSH session (sshd sets ``SSH_CONNECTION``)."""
    environ = os.environ if environ is None else environ
    return bool(environ.get("SSH_CONNECTION"))


class LinkWatch:
    """The terminal's answers over time; :meth:`tick` says when to ask and :attr:`dead`
    whether it has gone silent (see the module's text)."""

    def __init__(self, probe: float = PROBE_SECONDS, silence: float = SILENCE_SECONDS,
                 now: Callable[[], float] = time.monotonic) -> None:
        self.probe = probe
        self.silence = silence
        self._now = now
        self.last_answer: float | None = None

    def answered(self) -> None:
        """The terminal answered (a cursor position report arrived)."""
        self.last_answer = self._now()

    @property
    def dead(self) -> bool:
        """True when a terminal that answered before has been silent too long."""
        return (self.last_answer is not None
                and self._now() - self.last_answer > self.silence)

    def tick(self) -> bool:
        """Called every :attr:`probe` seconds: True to ask the terminal now (False: dead)."""
        return not self.dead


class TerminalWatch:
    """Watches ``app``'s terminal with a :class:`LinkWatch` (over SSH by default) and, when the
    link is dead, awaits ``close_game`` (close the game's connection: not a leave, the seat
    waits for its player) and exits the app. The app hands it the terminal's answers
    (:meth:`answered`, from its ``on_cursor_position``)."""

    def __init__(self, app: App[Any], close_game: Callable[[], Awaitable[None]]) -> None:
        self._app = app
        self._close_game = close_game
        self._watch: LinkWatch | None = None

    def start(self, watch: LinkWatch | None) -> None:
        """Start watching with ``watch`` (None: over SSH a default one, else none)."""
        self._watch = watch if watch is not None else (LinkWatch() if over_ssh() else None)
        if self._watch is not None:
            self._app.set_interval(self._watch.probe, self._probe)
            self._probe()

    def answered(self) -> None:
        """The terminal answered the question (a cursor position report arrived)."""
        if self._watch is not None:
            self._watch.answered()

    def _probe(self) -> None:
        """Ask the terminal where its cursor is; leave if it has stopped answering."""
        watch = self._watch
        if watch is None:
            return
        if watch.tick():
            driver = self._app._driver  # Textual has no public way to write to the terminal
            if driver is not None:
                driver.write(CURSOR_POSITION_REQUEST)
            return
        self._watch = None
        self._app.run_worker(self._lost(), group="link")

    async def _lost(self) -> None:
        await self._close_game()
        self._app.exit(return_code=3, message="minefield: the terminal stopped answering (the "
                       "link is down): the game waits for you; come back with `ssh -t HOST "
                       "resume`.")


__all__ = ["CURSOR_POSITION_REQUEST", "PROBE_SECONDS", "SILENCE_SECONDS", "LinkWatch",
           "TerminalWatch", "over_ssh"]
