#!/usr/bin/env python3
"""A bot for a Minefield server, over ``ssh HOST wire``: a starting point for your own.

The server's protocol (``assets/protocol.md``: JSON lines) runs on the SSH channel, as the
player the bot's key logs in as; the key is the bot's identity (give it a name once:
``ssh -i bot.key HOST name RoboAnn``). This script needs only Python 3.11 and ``ssh``; it
runs the command after ``--`` as its link, and talks to that command's stdin and stdout:

    wire_bot.py host -- ssh -i bot.key -p 2222 HOST wire      # host a room, print its code
    wire_bot.py join K7Q3PX -- ssh -i bot.key HOST wire       # join a person's room
    wire_bot.py lobby -- ssh -i bot.key HOST wire             # play tournament rounds

``--games N``: play N games at the table (asking for a rematch after each), then leave.
``lobby``: stay in the lobby and answer each ``tournament_round`` by sitting down at that game
over a second link (the same command), until the link ends. It plays simply (the first 13 of
its 34 tiles, then the first tile of its pool): the place to put your own strategy is
:func:`choose_hand` and :func:`choose_discard`. What it does is printed on stdout, one line per
event (``code K7Q3PX``, ``game ID``, ``result ...``, ``rated ...``).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import secrets
import subprocess
import sys
import threading
import time
from collections.abc import Sequence
from typing import IO, Any

#: A client pings every 10 seconds: 45 seconds of silence closes the connection.
PING_SECONDS = 10.0
TILE = re.compile(r"(\d+)([mpsz])")


def tiles_of(text: str) -> list[str]:
    """``"123m55z"`` as single tiles: ``["1m", "2m", "3m", "5z", "5z"]``."""
    return [f"{digit}{suit}" for digits, suit in TILE.findall(text) for digit in digits]


def choose_hand(view: dict[str, Any]) -> str:
    """The 13 tiles to keep of ``view["own_tiles"]`` (phase 1)."""
    return "".join(tiles_of(view["own_tiles"])[:13])


def choose_discard(view: dict[str, Any]) -> str:
    """The tile to throw from ``view["own_pool"]`` (phase 2, on the bot's turn)."""
    return tiles_of(view["own_pool"])[0]


class Link:
    """One connection to the server: the link command run, lines sent and read."""

    def __init__(self, command: Sequence[str]) -> None:
        self.process = subprocess.Popen(list(command), stdin=subprocess.PIPE,
                                        stdout=subprocess.PIPE, text=True, bufsize=1)
        self._lock = threading.Lock()
        self._prefix = secrets.token_hex(4)
        self._count = 0
        threading.Thread(target=self._pinger, daemon=True).start()

    def send(self, message: dict[str, Any]) -> None:
        """One message, one line."""
        stdin = self.process.stdin
        assert stdin is not None
        # A link that has ended takes nothing more (its pipe is broken or closed).
        with self._lock, contextlib.suppress(BrokenPipeError, ValueError):
            stdin.write(json.dumps(message) + "\n")
            stdin.flush()

    def command(self, command: dict[str, Any]) -> None:
        """A move, with a fresh command id."""
        self._count += 1
        self.send({"type": "command", "command_id": f"{self._prefix}-{self._count}",
                   "command": command})

    def messages(self) -> IO[str]:
        """The server's lines, as they come."""
        assert self.process.stdout is not None
        return self.process.stdout

    def _pinger(self) -> None:
        while self.process.poll() is None:
            time.sleep(PING_SECONDS)
            self.send({"type": "ping"})

    def close(self) -> None:
        """End the link."""
        if self.process.stdin is not None:
            with contextlib.suppress(BrokenPipeError):
                self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def say(text: str) -> None:
    """What the bot does, one line on stdout."""
    print(text, flush=True)


def play(command: Sequence[str], hello: dict[str, Any], games: int) -> int:
    """Sit down with ``hello`` and play ``games`` games at that table; 0 when they were
    played, 1 when the server refused or closed the table first."""
    link = Link(command)
    link.send({"type": "hello", "version": 1, **hello})
    played, moved_at = 0, -1
    try:
        for line in link.messages():
            message = json.loads(line)
            kind = message.get("type")
            if kind == "error" and message.get("fatal"):
                say(f"refused {message['code']}: {message['message']}")
                return 1
            if kind == "welcome":
                moved_at = -1
                if message.get("code"):
                    say(f"code {message['code']}")
                say(f"game {message['game']} as {message['seat']}")
            elif kind == "rated":
                say("rated " + " ".join(f"{p['name']} {p['before']}->{p['after']}"
                                        for p in message["players"]))
            elif kind == "closed":
                say(f"closed: {message['reason']}")
                return 0 if played >= games else 1
            elif kind in ("snapshot", "applied"):
                table = message["table"]
                view, seq = table["view"], table["seq"]
                if view["phase"] == "ended" and view["end"] is not None:
                    if seq != moved_at:  # once per game
                        moved_at = seq
                        played += 1
                        end = view["end"]
                        say(f"result {end['result']} winner {end['winner']}")
                        link.send({"type": "rematch"} if played < games else {"type": "leave"})
                elif seq != moved_at and _move(link, table):
                    moved_at = seq
    finally:
        link.close()
    return 0 if played >= games else 1


def _move(link: Link, table: dict[str, Any]) -> bool:
    """The bot's move at ``table`` if one is due (True when sent)."""
    view = table["view"]
    others = [p for seat, p in table["players"].items() if seat != view["seat"]]
    if any(p["name"] == "(waiting)" for p in others):
        return False
    if view["phase"] == "choosing" and view["own_hand"] is None:
        link.command({"type": "choose_hand", "tiles": choose_hand(view)})
        return True
    if view["phase"] == "discarding" and view["turn"] == view["seat"]:
        link.command({"type": "discard", "tile": choose_discard(view)})
        return True
    return False


def lobby(command: Sequence[str]) -> int:
    """Stay in the lobby; sit down at each tournament game the server names."""
    link = Link(command)
    link.send({"type": "hello", "version": 1, "action": "lobby"})
    seated: set[str] = set()
    try:
        for line in link.messages():
            message = json.loads(line)
            if message.get("type") == "error" and message.get("fatal"):
                say(f"refused {message['code']}: {message['message']}")
                return 1
            if message.get("type") == "tournament_round" and message["game"] not in seated:
                seated.add(message["game"])
                say(f"round {message['round']} of {message['tournament']} against "
                    f"{message['opponent']}")
                play(command, {"action": "resume", "game": message["game"]}, 1)
    finally:
        link.close()
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """The command line (see the module's help)."""
    words = list(sys.argv[1:] if argv is None else argv)
    if "--" not in words:
        print("wire_bot.py: give the link command after --, e.g. -- ssh HOST wire",
              file=sys.stderr)
        return 2
    split = words.index("--")
    parser = argparse.ArgumentParser(prog="wire_bot.py", description=__doc__.split("\n")[1])
    parser.add_argument("action", choices=("host", "join", "lobby"))
    parser.add_argument("code", nargs="?", help="join: the room code")
    parser.add_argument("--games", type=int, default=1, help="games to play at the table")
    args = parser.parse_args(words[:split])
    command = words[split + 1:]
    if args.action == "lobby":
        return lobby(command)
    if args.action == "join":
        if args.code is None:
            parser.error("join needs the room code")
        return play(command, {"action": "join", "code": args.code}, args.games)
    return play(command, {"action": "host"}, args.games)


if __name__ == "__main__":
    sys.exit(main())
