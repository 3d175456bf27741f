"""What a player may type after ``ssh -p PORT HOST``, checked word by word.

The forms (a leading ``minefield`` is allowed too):

=============================================  ===========================================
typed                                          does
=============================================  ===========================================
(nothing)                                      the menu, in a terminal
``host [--bot L] [--rules P] [--match]``       host a game (``--public``: listed by who)
``join CODE``, ``resume``                      join a room, go back to your game
``watch GAME``                                 watch a game being played (no seat, R26)
``history``                                    your saved games
``whoami [--json]``, ``who [--json]``          you; who is online and the open tables
``ladder [--json]``                            the ratings
``name NEW``                                   claim or change your name
``key add TYPE BASE64 [COMMENT]``              let another key of yours log in as you
=============================================  ===========================================

The text goes through :func:`minefield.cli.ssh_entry.parse_original_command`'s checks (short
printable ASCII, no shell syntax, balanced quotes) and never reaches a shell.

>>> parse_command("host --public --bot easy")
FrontCommand(action='host', entry=EntryCommand(action='host', bot='easy', ...), public=True, ...)
>>> parse_command("who --json").json
True
>>> parse_command("name 'Ann'").name
'Ann'
>>> parse_command("bash")
Traceback (most recent call last):
...
minefield.cli.ssh_entry.Refused: unknown command 'bash'
"""

from __future__ import annotations

import shlex
from dataclasses import dataclass
from typing import Literal

from minefield.cli.ssh_entry import EntryCommand, Refused, checked_text, parse_original_command

Action = Literal["menu", "host", "join", "resume", "history", "watch", "whoami", "who",
                 "ladder", "name", "key-add"]
#: Actions that run the app in a pseudo-terminal.
APP_ACTIONS: frozenset[Action] = frozenset({"menu", "host", "join", "resume", "watch"})
#: What may be typed, for the refusal message.
ALLOWED = ("allowed: nothing (the menu), host [--bot LEVEL] [--rules PRESET] [--match] "
           "[--public], join CODE, resume, watch GAME, history, whoami [--json], who [--json], "
           "ladder [--json], name NEW, key add PUBLIC-KEY")
#: The longest public key line accepted by ``key add`` (ed25519 is about 100 bytes; RSA 4096
#: about 740), within the command's own limit.
MAX_COMMAND_BYTES = 1024


@dataclass(frozen=True, slots=True)
class FrontCommand:
    """An accepted command. ``entry`` is the app's command for the app actions and history."""

    action: Action
    entry: EntryCommand | None = None
    public: bool = False
    json: bool = False
    name: str | None = None
    game: str | None = None
    key: str | None = None


def _words(raw: str | bytes) -> list[str]:
    text = checked_text(raw, MAX_COMMAND_BYTES)
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError:  # shlex: "No closing quotation", "No escaped character"
        raise Refused("unbalanced quotes") from None
    if words[:1] == ["minefield"]:
        words = words[1:]
    return words


def _only_json(first: str, rest: list[str]) -> bool:
    if not rest:
        return False
    if rest == ["--json"]:
        return True
    word = rest[0] if rest[0] != "--json" else rest[1]
    if word.startswith("-"):
        raise Refused(f"{first} takes only --json, not {word[:20]!r}")
    raise Refused(f"{first} takes nothing but --json")


def parse_command(raw: str | bytes | None) -> FrontCommand:
    """The command a player typed (None: nothing, the menu); :class:`Refused` if not allowed."""
    if raw is None:
        return FrontCommand("menu", entry=EntryCommand("menu"))
    words = _words(raw)
    if not words:
        return FrontCommand("menu", entry=EntryCommand("menu"))
    first, rest = words[0], words[1:]
    if first == "whoami":
        return FrontCommand("whoami", json=_only_json(first, rest))
    if first == "who":
        return FrontCommand("who", json=_only_json(first, rest))
    if first == "ladder":
        return FrontCommand("ladder", json=_only_json(first, rest))
    if first == "name":
        if len(rest) != 1:
            raise Refused("name takes one new name: name NEW")
        return FrontCommand("name", name=rest[0])
    if first == "watch":
        entry = parse_original_command(shlex.join(words))
        return FrontCommand("watch", entry=entry, game=entry.game)
    if first == "key":
        if len(rest) < 3 or rest[0] != "add" or len(rest) > 4:
            raise Refused("key add takes a public key line: key add ssh-ed25519 AAAA... "
                          "[comment]")
        return FrontCommand("key-add", key=" ".join(rest[1:3]))
    public = "--public" in rest
    if public:
        if first != "host":
            raise Refused("only host takes --public")
        if rest.count("--public") > 1:
            raise Refused("--public is given twice")
        rest = [word for word in rest if word != "--public"]
    entry = parse_original_command(shlex.join([first, *rest]))
    return FrontCommand(entry.action, entry=entry, public=public)


__all__ = ["ALLOWED", "APP_ACTIONS", "FrontCommand", "parse_command"]
