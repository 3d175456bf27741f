"""``minefield ssh-entry``: the forced command of SSH logins to a Minefield host.

sshd runs it instead of whatever the player typed (``ForceCommand`` in ``sshd_config``, or
``command="..."`` in a shared account's ``authorized_keys``) and puts what they typed in
``SSH_ORIGINAL_COMMAND``. Only these are accepted (a leading ``minefield`` is allowed too):

========================================  ==========================================
typed after ``ssh -t HOST``                runs
========================================  ==========================================
(nothing)                                  the menu, as ``minefield`` does
``host [--bot L] [--rules P] [--match]``   ``minefield host`` (and ``--rule NAME=VALUE``)
``join CODE``                              ``minefield join CODE``
``resume``                                 ``minefield resume``
``history``                                ``minefield history``
``watch GAME``                             ``minefield watch GAME`` (no seat, R26)
========================================  ==========================================

Anything else is one line on stderr and exit status 2. What the player typed is split with
:mod:`shlex` and checked word by word here; it never reaches a shell, and no part of it is run.
Options given to ``ssh-entry`` itself (``--player NAME``, ``--socket PATH``) come from the
forced command the administrator wrote and are trusted; the same options typed by the player
are refused.

>>> parse_original_command(b"join k7q-3px")
EntryCommand(action='join', bot=None, rules=None, code='K7Q3PX', match=False, rule=(), game=None)
>>> parse_original_command("host --bot=strong")
EntryCommand(action='host', bot='strong', rules=None, code=None, match=False, rule=(), \
game=None)
>>> parse_original_command("host --rules club --rule honba_points=300").argv()
['host', '--rules', 'club', '--rule', 'honba_points=300']
>>> parse_original_command("host --match --rules beginner").argv()
['host', '--rules', 'beginner', '--match']
>>> parse_original_command("join K7Q3PX --socket /tmp/x")
Traceback (most recent call last):
...
minefield.cli.ssh_entry.Refused: --socket is set by the server, not over SSH
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from minefield.bots.base import LEVELS
from minefield.cli.common import Subparsers, UsageError
from minefield.rules.settings import PRESETS
from minefield.session.codes import normalize_code

COMMANDS = ("ssh-entry",)
#: The variable in which sshd passes what the player typed.
ORIGINAL_COMMAND_ENV = "SSH_ORIGINAL_COMMAND"
#: The longest command accepted, in bytes (the longest valid one is about 40).
MAX_COMMAND_BYTES = 256
#: What a player name given by the forced command may be (the daemon's own rule).
PLAYER_NAME = re.compile(r"[A-Za-z0-9_.-]{1,32}")
#: Shell syntax: refused with its own message (no shell runs here, so it could only mislead).
SHELL_SYNTAX = frozenset(";&|<>`$(){}*?[]!~#")
ALLOWED = ("allowed: nothing (the menu), host [--bot LEVEL] [--rules PRESET] [--match] "
           "[--rule NAME=VALUE]..., join CODE, resume, history, watch GAME")
#: A game's id as ``who`` and the lobby list it (the wire's rule).
GAME_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}")

Action = Literal["menu", "host", "join", "resume", "history", "watch"]
#: Actions that run the app, so need a terminal.
APP_ACTIONS: frozenset[Action] = frozenset({"menu", "host", "join", "resume", "watch"})


class Refused(ValueError):
    """What the player typed is not allowed over SSH (the message says why, on one line)."""


@dataclass(frozen=True, slots=True)
class EntryCommand:
    """An accepted command: what to run, and its checked values."""

    action: Action
    bot: str | None = None
    rules: str | None = None
    code: str | None = None
    match: bool = False
    rule: tuple[str, ...] = ()  # NAME=VALUE settings over the preset, each checked
    game: str | None = None  # watch: the game's id

    def argv(self) -> list[str]:
        """The ``minefield`` arguments this command runs (the trusted options not included).

        >>> EntryCommand("host", bot="easy").argv()
        ['host', '--bot', 'easy']
        """
        if self.action == "menu":
            return []
        words: list[str] = [self.action]
        if self.bot is not None:
            words += ["--bot", self.bot]
        if self.rules is not None:
            words += ["--rules", self.rules]
        if self.match:
            words.append("--match")
        for setting in self.rule:
            words += ["--rule", setting]
        if self.code is not None:
            words.append(self.code)
        if self.game is not None:
            words.append(self.game)
        return words


def _shown(word: str) -> str:
    """A word of the player's, quoted and cut short for a message (it is printable ASCII)."""
    return repr(word if len(word) <= 24 else word[:21] + "...")


def checked_text(raw: bytes | str, max_bytes: int = MAX_COMMAND_BYTES) -> str:
    """``raw`` as text once it is known to be short (``max_bytes``), printable ASCII with no
    shell syntax; :class:`Refused` if not."""
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
    if len(data) > max_bytes:
        raise Refused(f"the command is too long (over {max_bytes} bytes)")
    for byte in data:
        if byte >= 0x80:
            raise Refused("only plain ASCII is accepted")
        if (byte < 0x20 and byte != 0x09) or byte == 0x7F:
            raise Refused("control characters are not accepted")
    text = data.decode("ascii")
    if SHELL_SYNTAX & set(text):
        raise Refused("shell syntax is not accepted (no shell runs here)")
    return text


def _refuse_option(word: str) -> Refused:
    name = word.split("=", 1)[0]
    if name in ("--socket", "--player"):
        return Refused(f"{name} is set by the server, not over SSH")
    return Refused(f"unknown option {_shown(name)}")


def _host_options(words: Iterator[str]) -> EntryCommand:
    values: dict[str, str] = {}
    choices = {"--bot": LEVELS, "--rules": tuple(PRESETS)}
    match = False
    rule: list[str] = []
    for word in words:
        if word == "--match":  # a flag: no value
            if match:
                raise Refused("--match is given twice")
            match = True
            continue
        name, has_value, value = word.partition("=")
        if name == "--match":
            raise Refused("--match takes no value")
        if name == "--rule":
            rule.append(_rule_setting(value if has_value else next(words, "")))
            continue
        if name not in choices:
            raise (_refuse_option(word) if word.startswith("-")
                   else Refused(f"host takes no {_shown(word)}"))
        if name in values:
            raise Refused(f"{name} is given twice")
        if not has_value:
            value = next(words, "")
            if not value:
                raise Refused(f"{name} needs a value: one of {', '.join(choices[name])}")
        if value not in choices[name]:
            raise Refused(f"{name} {_shown(value)}: choose one of {', '.join(choices[name])}")
        values[name] = value
    return EntryCommand("host", bot=values.get("--bot"), rules=values.get("--rules"),
                        match=match, rule=tuple(rule))


def _rule_setting(text: str) -> str:
    """One ``--rule NAME=VALUE``, checked by the settings' own rules (the server's clocks are
    not the player's to set); :class:`Refused` naming it if not."""
    from minefield.rules.settings import CLOCK_SETTINGS, SettingsError, parse_rule

    if not text:
        raise Refused("--rule needs a value: NAME=VALUE, e.g. ryanshi=on")
    try:
        name, _ = parse_rule(text)
    except SettingsError as error:
        raise Refused(f"--rule: {error}") from None
    if name in CLOCK_SETTINGS:
        raise Refused("--rule: the clocks of a network game are the server's")
    return text


def parse_original_command(raw: bytes | str | None) -> EntryCommand:
    """The command a player typed after ``ssh HOST`` (None: they typed nothing).

    Raises :class:`Refused` for anything but the forms in this module's docstring.
    """
    if raw is None:
        return EntryCommand("menu")
    text = checked_text(raw)
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError:  # shlex: "No closing quotation", "No escaped character"
        raise Refused("unbalanced quotes") from None
    if words[:1] == ["minefield"]:
        words = words[1:]
    if not words:
        return EntryCommand("menu")
    first, rest = words[0], words[1:]
    if first.startswith("-"):
        raise _refuse_option(first)
    if first == "host":
        return _host_options(iter(rest))
    if first == "join":
        if not rest:
            raise Refused("join needs the room code: join CODE")
        if rest[0].startswith("-"):
            raise _refuse_option(rest[0])
        if len(rest) > 1:
            extra = rest[1]
            raise (_refuse_option(extra) if extra.startswith("-")
                   else Refused("join takes one room code"))
        code = normalize_code(rest[0])
        if code is None:
            raise Refused(f"{_shown(rest[0])} is not a room code (6 letters and digits)")
        return EntryCommand("join", code=code)
    if first == "watch":
        if len(rest) != 1:
            raise Refused("watch takes one game id: watch GAME (as who lists it)")
        if rest[0].startswith("-"):
            raise _refuse_option(rest[0])
        if not GAME_ID.fullmatch(rest[0]):
            raise Refused(f"{_shown(rest[0])} is not a game id (as who lists it)")
        return EntryCommand("watch", game=rest[0])
    if first in ("resume", "history"):
        if rest:
            raise (_refuse_option(rest[0]) if rest[0].startswith("-")
                   else Refused(f"{first} takes nothing after it"))
        return EntryCommand("resume" if first == "resume" else "history")
    raise Refused(f"unknown command {_shown(first)}")


def add_parser(sub: Subparsers[argparse.ArgumentParser]) -> None:
    """Add ``ssh-entry`` (for ``sshd_config``'s ``ForceCommand`` and ``authorized_keys``)."""
    entry = sub.add_parser(
        "ssh-entry", help="the forced command of SSH logins (set by the server's administrator)",
        description="Run what an SSH player typed (in $SSH_ORIGINAL_COMMAND) if it is one of: "
        "nothing (the menu), host [--bot LEVEL] [--rules PRESET] [--match] [--rule NAME=VALUE]..., "
        "join CODE, resume, history, watch GAME. "
        "The options here are the administrator's, written in the forced command.")
    entry.add_argument("--player", default=None, metavar="NAME",
                       help="the player's name on a shared SSH account (one authorized_keys "
                       "line per person)")
    entry.add_argument("--socket", type=Path, default=None, metavar="PATH",
                       help="the game server's socket (default: $MINEFIELD_SOCKET, else the "
                       "per-user default)")


def _has_terminal() -> bool:
    streams = (sys.stdin, sys.stdout)
    return all(stream is not None and stream.isatty() for stream in streams)


def _per_player_folders(player: str) -> None:
    """A shared account keeps each person's settings and saved games apart:
    ``players/NAME`` inside the account's data and config folders."""
    from minefield.paths import use_player_folders

    use_player_folders(player)


def entry_argv(command: EntryCommand, player: str | None, socket: Path | None) -> list[str]:
    """The full ``minefield`` arguments: the player's checked command, then the trusted
    options of the forced command (for the commands that take them).

    >>> entry_argv(EntryCommand("join", code="K7Q3PX"), "alice", None)
    ['join', 'K7Q3PX', '--player', 'alice']
    >>> entry_argv(EntryCommand("history"), "alice", Path("/run/m.sock"))
    ['history']
    """
    argv = command.argv()
    if command.action in ("host", "join", "resume", "watch"):
        if player is not None:
            argv += ["--player", player]
        if socket is not None:
            argv += ["--socket", str(socket)]
    return argv


def run(args: argparse.Namespace, environ: Mapping[bytes, bytes] | None = None) -> int:
    """Check ``$SSH_ORIGINAL_COMMAND`` and run it; the exit status (2 when refused)."""
    player: str | None = args.player
    if player is not None and not PLAYER_NAME.fullmatch(player):
        raise UsageError("ssh-entry --player: 1 to 32 letters, digits, '_', '.' or '-' "
                         "(fix the forced command)")
    env = environ if environ is not None else os.environb
    try:
        command = parse_original_command(env.get(ORIGINAL_COMMAND_ENV.encode()))
    except Refused as refusal:
        print(f"minefield: refused: {refusal}; {ALLOWED}", file=sys.stderr)
        return 2
    if command.action in APP_ACTIONS and not _has_terminal():
        print("minefield: the game needs a terminal: connect with ssh -t", file=sys.stderr)
        return 2
    if player is not None:
        _per_player_folders(player)
    if command.action == "menu":
        return _menu(player, args.socket)
    from minefield.cli import main  # the one parser of every subcommand

    return main(entry_argv(command, player, args.socket))


def _menu(player: str | None, socket: Path | None) -> int:
    """The menu, with the game server's rooms first (host, join a code, resume)."""
    from minefield.tui.app import MinefieldApp
    from minefield.tui.screens.rooms import ServerAddress

    app = MinefieldApp(server=ServerAddress(socket=socket, player=player))
    app.run()
    return app.return_code or 0


__all__ = ["ALLOWED", "COMMANDS", "MAX_COMMAND_BYTES", "EntryCommand", "Refused", "add_parser",
           "checked_text", "entry_argv", "parse_original_command", "run"]
