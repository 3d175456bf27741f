"""The grammar of what a player may type after ``ssh HOST``, for both SSH routes: the
OpenSSH forced command (``minefield ssh-entry``) and the asyncssh front door
(``minefield ssh-server``). Only these are accepted (a leading ``minefield`` is allowed too):

========================================  ==========================================
typed after ``ssh -t HOST``                runs
========================================  ==========================================
(nothing)                                  the lobby (``minefield lobby``; ``m``: the menu)
``host [--bot L] [--rules P] [--match]``   ``minefield host`` (``--rule NAME=VALUE``,
                                           ``--casual``: never rated, R36)
``join CODE``                              ``minefield join CODE``
``resume``                                 ``minefield resume``
``history [--json]``                       the player's network games, as the game
                                           server keeps them (no terminal)
``watch GAME``                             ``minefield watch GAME`` (no seat, R26)
``wire``                                   the game server's protocol on stdin and stdout
                                           (a program, as the player; no terminal)
========================================  ==========================================

What the player typed is split with :mod:`shlex` and checked word by word here; it never
reaches a shell, and no part of it is run. The options the server sets (``--player NAME``,
``--socket PATH``) are refused when the player types them.

>>> parse_original_command(b"join k7q-3px")
EntryCommand(action='join', bot=None, rules=None, code='K7Q3PX', match=False, rule=(), \
game=None, casual=False, json=False)
>>> parse_original_command("host --bot=strong")
EntryCommand(action='host', bot='strong', rules=None, code=None, match=False, rule=(), \
game=None, casual=False, json=False)
>>> parse_original_command("host --casual --public").argv()
Traceback (most recent call last):
...
minefield.frontdoor.grammar.Refused: unknown option '--public'
>>> parse_original_command("host --casual").argv()
['host', '--casual']
>>> parse_original_command("host --rules club --rule honba_points=300").argv()
['host', '--rules', 'club', '--rule', 'honba_points=300']
>>> parse_original_command("host --match --rules beginner").argv()
['host', '--rules', 'beginner', '--match']
>>> parse_original_command("join K7Q3PX --socket /tmp/x")
Traceback (most recent call last):
...
minefield.frontdoor.grammar.Refused: --socket is set by the server, not over SSH
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Literal

from minefield.bots.base import LEVELS
from minefield.errors import MinefieldError
from minefield.protocol.codes import normalize_code
from minefield.rules.settings import PRESETS

#: The longest command accepted, in bytes (the longest valid one is about 40).
MAX_COMMAND_BYTES = 256
#: Shell syntax: refused with its own message (no shell runs here, so it could only mislead).
SHELL_SYNTAX = frozenset(";&|<>`$(){}*?[]!~#")
ALLOWED = ("allowed: nothing (the lobby), host [--bot LEVEL] [--rules PRESET] [--match] "
           "[--casual] [--rule NAME=VALUE]..., join CODE, resume, history [--json], watch GAME, "
           "wire")
#: A game's id as ``who`` and the lobby list it (the wire's rule).
GAME_ID = re.compile(r"[A-Za-z0-9_.:-]{1,80}")

Action = Literal["menu", "host", "join", "resume", "history", "watch", "wire"]
#: Actions that run the app, so need a terminal.
APP_ACTIONS: frozenset[Action] = frozenset({"menu", "host", "join", "resume", "watch"})


class Refused(MinefieldError, ValueError):
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
    casual: bool = False  # host: a casual table, never rated (R36)
    json: bool = False  # history: as JSON

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
        if self.casual:
            words.append("--casual")
        for setting in self.rule:
            words += ["--rule", setting]
        if self.code is not None:
            words.append(self.code)
        if self.game is not None:
            words.append(self.game)
        if self.json:
            words.append("--json")
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
    flags = {"--match": False, "--casual": False}
    rule: list[str] = []
    for word in words:
        if word in flags:  # a flag: no value
            if flags[word]:
                raise Refused(f"{word} is given twice")
            flags[word] = True
            continue
        name, has_value, value = word.partition("=")
        if name in flags:
            raise Refused(f"{name} takes no value")
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
                        match=flags["--match"], rule=tuple(rule), casual=flags["--casual"])


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
        return _join(rest)
    if first == "watch":
        return _watch(rest)
    if first == "history" and rest == ["--json"]:
        return EntryCommand("history", json=True)
    if first in ("resume", "history", "wire"):
        if rest:
            raise (_refuse_option(rest[0]) if rest[0].startswith("-")
                   else Refused(f"{first} takes nothing after it"))
        return EntryCommand("resume" if first == "resume" else
                            "history" if first == "history" else "wire")
    raise Refused(f"unknown command {_shown(first)}")


def _join(rest: list[str]) -> EntryCommand:
    """``join CODE``: the words after ``join`` hold one room code."""
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


def _watch(rest: list[str]) -> EntryCommand:
    """``watch GAME``: the words after ``watch`` hold one game id."""
    if len(rest) != 1:
        raise Refused("watch takes one game id: watch GAME (as who lists it)")
    if rest[0].startswith("-"):
        raise _refuse_option(rest[0])
    if not GAME_ID.fullmatch(rest[0]):
        raise Refused(f"{_shown(rest[0])} is not a game id (as who lists it)")
    return EntryCommand("watch", game=rest[0])


__all__ = ["ALLOWED", "APP_ACTIONS", "MAX_COMMAND_BYTES", "Action", "EntryCommand", "Refused",
           "checked_text", "parse_original_command"]
