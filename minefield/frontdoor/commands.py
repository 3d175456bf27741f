"""What a player may type after ``ssh -p PORT HOST``, checked word by word.

The forms (a leading ``minefield`` is allowed too):

=============================================  ===========================================
typed                                          does
=============================================  ===========================================
(nothing)                                      the menu, in a terminal
``host [--bot L] [--rules P] [--match]``       host a game (``--public``: listed by who,
                                               ``--casual``: never rated, R36)
``join CODE``, ``resume``                      join a room, go back to your game
``watch GAME``                                 watch a game being played (no seat, R26)
``history [--json]``                           your network games on this server
``games [NAME] [--limit N] [--json]``          the finished games you may see (NAME's)
``record GAME``                                a finished game's record (JSON lines)
``stats [NAME] [--json]``                      a player's profile (yours)
``replay GAME``, ``review GAME``               a finished game's replay, its defense review
``whoami [--json]``, ``who [--json]``          you; who is online and the open tables
``ladder [--json]``                            the ratings
``name NEW``                                   claim or change your name (5 a day)
``key add TYPE BASE64 [COMMENT]``              a code for another key of yours
``key confirm CODE``                           (that key) log in as the player from now on
``key list [--json]``, ``key remove SHA256:..``  your keys; one no longer yours
``web``, ``web --sign-out-all``                a link that signs this player in on a browser;
                                               end every browser session of the player
``tournament new NAME --format F [...]``       a tournament (R37; ``--rounds N``,
                                               ``--rules P``, ``--rule N=V``, ``--match``,
                                               ``--casual``, ``--max-players N``)
``tournament join|leave|start NAME``           enter, leave (before it starts), start it
``tournament show NAME [--json]``              its rounds, games and standings
``tournaments [--json]``                       every tournament: open, running, finished
``wire``                                       (a program) the game server's protocol on
                                               stdin and stdout, as the key's player
``help``                                       what may be typed
``admin``, ``ban``, ``unban``, ``bans``,       the admins' commands
``kick``, ``rename``, ``release``, ``motd``    (:mod:`.moderation_commands`)
=============================================  ===========================================

The text goes through :func:`.grammar.parse_original_command`'s checks (short printable ASCII,
no shell syntax, balanced quotes) and never reaches a shell.

>>> parse_command("host --public --bot easy")
FrontCommand(action='host', entry=EntryCommand(action='host', bot='easy', ...), public=True, ...)
>>> parse_command("who --json").json
True
>>> parse_command("name 'Ann'").name
'Ann'
>>> parse_command("key remove SHA256:" + "A" * 43).key
'SHA256:AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA'
>>> parse_command("name \u0430lice")
Traceback (most recent call last):
...
minefield.frontdoor.commands.BadName: 'аlice' is not a name: it has U+0430 CYRILLIC \
SMALL LETTER A, not a plain ASCII letter (2 to 16 letters, digits, '-' or '_')
>>> parse_command("web --sign-out-all").action
'web-sign-out'
>>> parse_command("bash")
Traceback (most recent call last):
...
minefield.frontdoor.grammar.Refused: unknown command 'bash'
"""

from __future__ import annotations

import re
import shlex
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Literal

from minefield.frontdoor.account_keys import CODE_SECONDS, normalize_code
from minefield.frontdoor.account_names import NAME, NameRefused, check_name
from minefield.frontdoor.accounts import KEPT_NAMES, RENAMES_PER_DAY
from minefield.frontdoor.grammar import (
    GAME_ID,
    EntryCommand,
    Refused,
    checked_text,
    parse_original_command,
)
from minefield.frontdoor.moderation_commands import ModerationCommand, parse_moderation
from minefield.frontdoor.tournament_commands import (
    TournamentCommand,
    parse_tournament,
    parse_tournaments,
)
from minefield.server.kept_games import MAX_LIMIT

Action = Literal["menu", "host", "join", "resume", "history", "watch", "whoami", "who",
                 "ladder", "name", "key-add", "key-confirm", "key-list", "key-remove", "help",
                 "games", "record", "stats", "replay", "review", "review-html", "tournament",
                 "tournament-show", "tournaments", "web", "web-sign-out", "wire",
                 "moderation"]
#: Actions that run the app in a pseudo-terminal.
APP_ACTIONS: frozenset[Action] = frozenset({"menu", "host", "join", "resume", "watch",
                                            "replay", "review"})
#: What may be typed, for the refusal message.
ALLOWED = ("allowed: nothing (the lobby), host [--bot LEVEL] [--rules PRESET] [--match] "
           "[--public] [--casual], join CODE, resume, watch GAME, history [--json], "
           "games [NAME] [--limit N] [--json], record GAME, stats [NAME] [--json], "
           "replay GAME, review GAME [--html], "
           "whoami [--json], who [--json], ladder [--json], name NEW, key add PUBLIC-KEY, "
           "key confirm CODE, key list [--json], key remove SHA256:..., web [--sign-out-all], "
           "tournament new|join|leave|start|show NAME, tournaments [--json], wire, help; "
           "for admins: admin, ban, unban, bans, kick, rename, release, motd")
#: What ``help`` answers.
HELP = f"""Minefield over SSH: ssh -p PORT HOST [COMMAND]
  (nothing)                the lobby (in a terminal: ssh -t)
  host [--bot LEVEL] [--rules PRESET] [--match] [--public] [--casual]
                           host a game (ssh -t); --public lists it in the lobby;
                           --casual: its games never change a rating
  join CODE, resume        join a room, go back to your game (ssh -t)
  watch GAME               watch a game being played (ssh -t)
  history [--json]         your network games on this server, newest first
  games [NAME] [--limit N] [--json]
                           the finished games you may see (NAME's), newest first
  record GAME              a finished game's record, as JSON lines
  stats [NAME] [--json]    a player's profile (yours): games, wins, deal-ins, rating
  replay GAME, review GAME a finished game's replay; its defense review from your seat
                           (East's if you did not play it) (ssh -t)
  review GAME --html       that review as one web page, on standard output (no terminal):
                           ssh HOST review GAME --html > review.html
  whoami [--json]          your name, key and rating
  who [--json]             who is online and the open tables
  ladder [--json]          the ratings, best first
  name NEW                 claim a name, or change yours: at most {RENAMES_PER_DAY} changes a day;
                           your last {KEPT_NAMES} former names stay yours
  key add PUBLIC-KEY       let another key of yours log in as you: answers with the
                           command that key must run within {CODE_SECONDS // 60} minutes
  key confirm CODE         (with the new key) from now on, log in as the player who asked
  key list [--json]        your keys, and those waiting for their code
  key remove SHA256:...    a key (never your last) no longer logs in as you
  web                      a link that signs you in on a web browser (once, within 10
                           minutes), when the server has a browser door
  web --sign-out-all       end every browser session of yours
  tournament new NAME --format round-robin|swiss [--rounds N] [--rules PRESET]
      [--rule NAME=VALUE]... [--match] [--casual] [--max-players N]
                           a new tournament, organized by you
  tournament join|leave|start NAME
                           join or leave it before it starts; start it (its organizer)
  tournament show NAME [--json]
                           its players, rounds, games and standings (R37)
  tournaments [--json]     the tournaments: open, running, finished
  wire                     (for a program) the game server's protocol, JSON lines on
                           stdin and stdout, as this key's player (assets/protocol.md)
  help                     this list
For the server's admins:
  admin add NAME, admin remove NAME, admin list [--json]
                           make a player an admin, or no longer one; the admins
  ban NAME|SHA256:... [--for 1h|7d|2w|...] [--reason TEXT]
                           keep a player (every key of theirs) or one key out, for a
                           time or for good; their sessions end
  unban NAME|SHA256:...    lift a ban
  bans [--json]            the bans that hold now
  kick NAME                end a player's sessions (a game goes on under R25b's grace)
  rename OLD NEW           give a player another name (OLD stays reserved to them)
  release NAME             free a reserved former name for anyone to take
  motd TEXT, motd --clear  the message of the day shown in the lobby; clear it"""
#: A key's fingerprint as ``key list`` shows it.
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")
#: A key's code as ``key add`` gives it (dashes and spaces left out, any case).
CODE = re.compile(r"[A-Z0-9]{8,32}")
#: The longest public key line accepted by ``key add`` (ed25519 is about 100 bytes; RSA 4096
#: about 740), within the command's own limit.
MAX_COMMAND_BYTES = 1024


class BadName(Refused):
    """``name`` with a name that is refused: the name rules' own one-line reason."""


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
    code: str | None = None
    limit: int | None = None
    #: The client's arguments when the server makes them (``replay``, ``review``: the
    #: record's path once the game is known to be visible), never from what was typed.
    argv: tuple[str, ...] | None = None
    tournament: TournamentCommand | None = None
    moderation: ModerationCommand | None = None


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


def _name_refusal(raw: str | bytes) -> BadName | None:
    """For ``name X`` refused as a command (not plain ASCII, control characters...), the name
    rules' reason, as the name prompt gives it; None for any other command."""
    text = raw if isinstance(raw, str) else raw.decode("utf-8", "replace")
    if len(text.encode("utf-8", "surrogateescape")) > MAX_COMMAND_BYTES:
        return None
    try:
        words = shlex.split(text, comments=False, posix=True)
    except ValueError:
        return None
    if words[:1] == ["minefield"]:
        words = words[1:]
    if len(words) != 2 or words[0] != "name":
        return None
    try:
        check_name(words[1])
    except NameRefused as refusal:
        return BadName(str(refusal))
    return None


def _key_command(rest: list[str]) -> FrontCommand:
    what = rest[0] if rest else ""
    if what == "add":
        if not 3 <= len(rest) <= 4:
            raise Refused("key add takes a public key line: key add ssh-ed25519 AAAA... "
                          "[comment]")
        return FrontCommand("key-add", key=" ".join(rest[1:3]))
    if what == "confirm":
        code = normalize_code(rest[1]) if len(rest) == 2 else ""
        if not CODE.fullmatch(code):
            raise Refused("key confirm takes the code that key add gave: key confirm CODE")
        return FrontCommand("key-confirm", code=code)
    if what == "list":
        return FrontCommand("key-list", json=_only_json("key list", rest[1:]))
    if what == "remove":
        if len(rest) != 2 or not FINGERPRINT.fullmatch(rest[1]):
            raise Refused("key remove takes a key's fingerprint as key list shows it: "
                          "key remove SHA256:...")
        return FrontCommand("key-remove", key=rest[1])
    raise Refused("key takes add PUBLIC-KEY, confirm CODE, list [--json] or "
                  "remove SHA256:...")


def _name_command(rest: list[str]) -> FrontCommand:
    """``name NEW``: the one word after ``name``, checked by the naming rules."""
    if len(rest) != 1:
        raise Refused("name takes one new name: name NEW")
    try:
        return FrontCommand("name", name=check_name(rest[0]))
    except NameRefused as refusal:
        raise BadName(str(refusal)) from None


def _without_public(first: str, rest: list[str]) -> list[str]:
    """The words after ``host`` without its one ``--public``; :class:`Refused` for another
    command, or ``--public`` twice."""
    if first != "host":
        raise Refused("only host takes --public")
    if rest.count("--public") > 1:
        raise Refused("--public is given twice")
    return [word for word in rest if word != "--public"]


def _player_name(word: str) -> str:
    if not NAME.fullmatch(word):
        raise Refused(f"{word[:20]!r} is not a player's name (2 to 16 letters, digits, '-' "
                      "or '_')")
    return word


def _games_command(rest: list[str]) -> FrontCommand:
    """``games [NAME] [--limit N] [--json]``, the words in any order."""
    name: str | None = None
    limit: int | None = None
    as_json = False
    words = iter(rest)
    for word in words:
        option, has_value, value = word.partition("=")
        if word == "--json":
            if as_json:
                raise Refused("--json is given twice")
            as_json = True
        elif option == "--limit":
            value = value if has_value else next(words, "")
            if limit is not None:
                raise Refused("--limit is given twice")
            if not value.isdigit() or not 1 <= int(value) <= MAX_LIMIT:
                raise Refused(f"--limit takes a number of games from 1 to {MAX_LIMIT}")
            limit = int(value)
        elif word.startswith("-"):
            raise Refused(f"games takes NAME, --limit N and --json, not {word[:20]!r}")
        elif name is not None:
            raise Refused("games takes one player's name")
        else:
            name = _player_name(word)
    return FrontCommand("games", json=as_json, name=name, limit=limit)


def _stats_command(rest: list[str]) -> FrontCommand:
    """``stats [NAME] [--json]``."""
    as_json = "--json" in rest
    names = [word for word in rest if word != "--json"]
    if rest.count("--json") > 1:
        raise Refused("--json is given twice")
    if names and names[0].startswith("-"):
        raise Refused(f"stats takes NAME and --json, not {names[0][:20]!r}")
    if len(names) > 1:
        raise Refused("stats takes one player's name")
    return FrontCommand("stats", json=as_json,
                        name=_player_name(names[0]) if names else None)


def _game_command(action: Literal["record", "replay", "review"]
                  ) -> Callable[[list[str]], FrontCommand]:
    """``record GAME``, ``replay GAME``, ``review GAME``."""
    def parse(rest: list[str]) -> FrontCommand:
        if len(rest) != 1 or rest[0].startswith("-") or not GAME_ID.fullmatch(rest[0]):
            raise Refused(f"{action} takes one finished game's id, as games lists it: "
                          f"{action} GAME")
        return FrontCommand(action, game=rest[0])
    return parse


def _review_command(rest: list[str]) -> FrontCommand:
    """``review GAME`` (in a terminal), ``review GAME --html`` (the page, as text)."""
    if "--html" not in rest:
        return _game_command("review")(rest)
    if rest.count("--html") > 1:
        raise Refused("--html is given twice")
    command = _game_command("review")([word for word in rest if word != "--html"])
    return replace(command, action="review-html")


#: The commands that answer in text, by their first word: the rest of the words parsed.
def _web_command(rest: list[str]) -> FrontCommand:
    """``web`` (a sign-in link), ``web --sign-out-all``."""
    if rest and rest != ["--sign-out-all"]:
        raise Refused("web takes nothing, or --sign-out-all")
    return FrontCommand("web-sign-out" if rest else "web")


_WORD_COMMANDS: dict[str, Callable[[list[str]], FrontCommand]] = {
    "whoami": lambda rest: FrontCommand("whoami", json=_only_json("whoami", rest)),
    "who": lambda rest: FrontCommand("who", json=_only_json("who", rest)),
    "ladder": lambda rest: FrontCommand("ladder", json=_only_json("ladder", rest)),
    "history": lambda rest: FrontCommand("history", entry=EntryCommand("history"),
                                         json=_only_json("history", rest)),
    "games": _games_command,
    "stats": _stats_command,
    "record": _game_command("record"),
    "replay": _game_command("replay"),
    "review": _review_command,
    "tournament": lambda rest: _tournament_command(parse_tournament(rest)),
    "tournaments": lambda rest: _tournament_command(parse_tournaments(rest)),
    "web": _web_command,
    "wire": lambda rest: _bare("wire", rest),
}


def _bare(first: Action, rest: list[str]) -> FrontCommand:
    """A command that takes nothing after it."""
    if rest:
        raise Refused(f"{first} takes nothing after it")
    return FrontCommand(first)


def _tournament_command(asked: TournamentCommand) -> FrontCommand:
    action: Action = ("tournaments" if asked.verb == "list" else
                      "tournament-show" if asked.verb == "show" else "tournament")
    return FrontCommand(action, json=asked.json, tournament=asked)


def parse_command(raw: str | bytes | None) -> FrontCommand:
    """The command a player typed (None: nothing, the menu); :class:`Refused` if not allowed
    (:class:`BadName` for ``name`` with a name the rules refuse)."""
    if raw is None:
        return FrontCommand("menu", entry=EntryCommand("menu"))
    moderation = parse_moderation(raw)
    if moderation is not None:
        return FrontCommand("moderation", json=moderation.json, moderation=moderation)
    try:
        words = _words(raw)
    except Refused as refusal:
        raise (_name_refusal(raw) or refusal) from None
    if not words:
        return FrontCommand("menu", entry=EntryCommand("menu"))
    first, rest = words[0], words[1:]
    if first in _WORD_COMMANDS:
        return _WORD_COMMANDS[first](rest)
    if first == "help":
        if rest:
            raise Refused("help takes nothing")
        return FrontCommand("help")
    if first == "name":
        return _name_command(rest)
    if first == "watch":
        entry = parse_original_command(shlex.join(words))
        return FrontCommand("watch", entry=entry, game=entry.game)
    if first == "key":
        return _key_command(rest)
    public = "--public" in rest
    if public:
        rest = _without_public(first, rest)
    entry = parse_original_command(shlex.join([first, *rest]))
    return FrontCommand(entry.action, entry=entry, public=public)


__all__ = ["ALLOWED", "APP_ACTIONS", "HELP", "BadName", "FrontCommand", "parse_command"]
