"""``python -m minefield.cli.zygote FD``: the front door's process server of sessions
(:mod:`minefield.frontdoor.spawner`), serving on the inherited socket ``FD``; each session it
forks runs the ordinary ``minefield`` client, :func:`minefield.cli.main`.

It lives with the command line, not in the front door, because it is the one place where the
front door's process server meets the client it runs: the front door only names this program.
"""

from __future__ import annotations

import os
import socket
import sys
from collections.abc import Sequence

from minefield.cli import main as client
from minefield.frontdoor.spawner import serve

#: What a session may use, imported once in the process server (the app itself loads most of
#: these only when first used, to start fast; here they are shared by every session instead).
PRELOAD = (
    "minefield.cli", "minefield.cli.game", "minefield.cli.lobby", "minefield.cli.network",
    "minefield.cli.parser", "minefield.cli.records", "minefield.session.lobby_link",
    "minefield.session.remote", "minefield.protocol.wire", "minefield.tui.app",
    "minefield.tui.lobby_app", "minefield.tui.screens.builder", "minefield.tui.screens.help",
    "minefield.tui.screens.menu", "minefield.tui.screens.play", "minefield.tui.screens.result",
    "minefield.tui.screens.settings", "minefield.tui.screens.standings",
    "minefield.records.format", "minefield.records.header", "minefield.records.result",
    "minefield.records.history", "minefield.cli.watch",
    "minefield.protocol.watching", "minefield.session.watch_link", "minefield.tui.watch_app",
)


def session(argv: list[str]) -> int:
    """A session's client (in the forked child, its environment already set): Textual's
    driver as that environment says (a browser session's is the web driver), then the
    ordinary ``minefield`` command line."""
    from minefield.tui.textual_private import follow_driver_environment

    follow_driver_environment()
    return client(argv)


def main(argv: Sequence[str]) -> int:
    """Be the zygote on the socket whose descriptor is ``argv[0]``; 0 once the front door
    closes it."""
    control = socket.socket(fileno=int(argv[0]))
    serve(control, session, PRELOAD, os.getppid())
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
