"""``minefield lobby``: the game server's lobby, then what the player chose there, then back.

The first screen of a session over either SSH route, nothing typed after the host:
``minefield ssh-server``'s and the OpenSSH forced command's (``ssh-entry``), where ``m`` opens
the menu with the server's rooms. Both show the daemon's lobby: the players of that host.
Enter on a public table runs ``join CODE``, ``h`` runs ``host --public``, ``b`` ``host --bot
normal``, an accepted invitation or a quick match ``resume --game ID``, Enter or ``w`` on a
game being played ``watch GAME``, ``m`` the menu;
when that ends the lobby comes back, until the player quits it.

Each choice runs in a child process of the lobby's (:func:`in_a_child`): a game leaves nothing
behind in the session's memory (its screens, its tables, Textual's and Rich's caches, the
heap they grew), so that a session back in the lobby after ten games holds what a fresh one
holds (``benchmarks/bench_ssh.py``).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
import threading
import traceback
from collections.abc import AsyncIterator, Callable
from functools import partial
from pathlib import Path

from minefield.cli.common import Subparsers
from minefield.protocol.address import SOCKET_ENV

COMMANDS = ("lobby",)


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``lobby``."""
    p = sub.add_parser("lobby", help="the game server's lobby: who is on, open tables")
    p.add_argument("--socket", type=Path, default=None, metavar="PATH",
                   help=f"the game server's socket (default: ${SOCKET_ENV}, else the per-user "
                   "default)")
    p.add_argument("--player", default=None, metavar="NAME",
                   help="the player's name (honoured only from the server's shared SSH "
                   "account)")


def choice_argv(action: str, code: str | None, bot: str | None, player: str | None,
                socket: Path | None, game: str | None = None, casual: bool = False
                ) -> list[str]:
    """The ``minefield`` arguments of a lobby choice (``casual``: a casual public table,
    R36).

    >>> choice_argv("resume", None, None, "ann", None, game="20261201T120000.000Z-network-ab")
    ['resume', '--game', '20261201T120000.000Z-network-ab', '--from-lobby', '--player', 'ann']
    >>> choice_argv("watch", None, None, "ann", None, game="20261201T120000.000Z-network-ab")
    ['watch', '20261201T120000.000Z-network-ab', '--player', 'ann']
    >>> choice_argv("join", "K7Q3PX", None, "ann", None)
    ['join', 'K7Q3PX', '--from-lobby', '--player', 'ann']
    >>> choice_argv("host", None, None, None, Path("/s"))
    ['host', '--public', '--from-lobby', '--socket', '/s']
    >>> choice_argv("host", None, None, None, None, casual=True)
    ['host', '--public', '--casual', '--from-lobby']
    >>> choice_argv("menu", None, None, "ann", None)
    []
    """
    if action == "menu":
        return []
    argv = (["join", code or ""] if action == "join"
            else ["resume", "--game", game or ""] if action == "resume"
            else ["watch", game or ""] if action == "watch"
            else ["host", "--bot", bot] if bot
            else ["host", "--public", "--casual"] if casual else ["host", "--public"])
    if action != "watch":  # a game's every way out comes back here (a watch just ends)
        argv.append("--from-lobby")
    if player is not None:
        argv += ["--player", player]
    if socket is not None:
        argv += ["--socket", str(socket)]
    return argv


def in_a_child(run: Callable[[], object]) -> int:
    """Run ``run`` in a child process, wait for it and give its exit status (``run``'s int,
    else 0; 1 after an exception, whose traceback goes to stderr as it would have). The child
    dies with this process. Where there is no ``fork``, or where another thread runs (a fork
    would copy what it holds half-way) other than the terminal's hang-up watch (which holds
    nothing), ``run`` runs here."""
    from minefield.cli.hangup import WATCH_THREAD

    others = [thread for thread in threading.enumerate()
              if thread is not threading.main_thread() and thread.name != WATCH_THREAD]
    if not hasattr(os, "fork") or others:
        result = run()
        return result if isinstance(result, int) else 0
    for stream in (sys.stdout, sys.stderr):
        stream.flush()
    parent = os.getpid()
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child: measured by its parent's tests
        status = 1
        try:
            from minefield.frontdoor.spawner import die_with_parent

            die_with_parent(parent)
            result = run()
            status = result if isinstance(result, int) else 0
        except SystemExit as leaving:
            status = leaving.code if isinstance(leaving.code, int) else 1
        except BaseException:
            traceback.print_exc()
        finally:
            for stream in (sys.stdout, sys.stderr):
                stream.flush()
            os._exit(status)
    while True:
        try:
            _, waited = os.waitpid(pid, 0)
        except InterruptedError:
            continue
        return os.waitstatus_to_exitcode(waited)


def give_back_memory() -> None:
    """What the lobby's screen held, given back before it is shown again: the memo Textual
    keeps of gone widgets (:func:`~minefield.tui.textual_private.forget_gone_widgets`), the
    cycles, and (glibc) the free heap at its end, so that a session's lobby does not grow with
    each visit."""
    import gc

    gc.collect()
    if sys.platform.startswith("linux"):
        import ctypes

        with contextlib.suppress(OSError, AttributeError):
            ctypes.CDLL(None).malloc_trim(0)


def run(args: argparse.Namespace) -> int:
    """The lobby, and each choice made there, until the player quits; the exit status."""
    return lobby_loop(args.socket, args.player)


def lobby_loop(socket: Path | None, player: str | None,
               menu: Callable[[], object] | None = None) -> int:
    """The lobby of the server at ``socket`` as ``player`` (None: the Unix user), and each
    choice made there, until the player quits; the exit status. ``menu``: what ``m`` opens
    (default: ``minefield``'s menu; ``ssh-entry`` gives the menu with the server's rooms)."""
    from pydantic import BaseModel

    from minefield.cli import main
    from minefield.server.identity import user_name
    from minefield.session.lobby_link import LobbyEvent, LobbyLink
    from minefield.tui.lobby_app import LobbyApp
    from minefield.tui.textual_private import forget_gone_widgets, wait_for_input_threads

    links: list[LobbyLink] = []

    async def states() -> AsyncIterator[LobbyEvent]:
        link = await LobbyLink.open(socket=socket, player=player)
        links[:] = [link]
        try:
            async for state in link.states():
                yield state
        finally:
            links.clear()
            await link.close()

    def send(message: BaseModel) -> None:
        for link in links:
            link.send(message)

    # Who this player is: the name the front door gives, else the Unix user (as the server
    # tells it: an invitation to this name is one to answer).
    me = player or user_name(os.getuid())
    while True:
        app = LobbyApp(states, send, me)
        app.run()
        wait_for_input_threads()
        forget_gone_widgets(app)
        give_back_memory()
        if app.return_code:
            return app.return_code
        choice = app.choice
        if choice is None:
            return 0
        if choice.action == "menu" and menu is not None:
            in_a_child(menu)
            continue
        in_a_child(partial(main, choice_argv(choice.action, choice.code, choice.bot, player,
                                             socket, choice.game, choice.casual)))


__all__ = ["COMMANDS", "add_parser", "choice_argv", "give_back_memory", "in_a_child",
           "lobby_loop", "run"]
