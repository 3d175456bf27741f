"""What each command of the SSH front door does: :data:`ROUTES`, one entry per command.

A command is parsed by :func:`~minefield.frontdoor.commands.parse_command` into a
:class:`~minefield.frontdoor.commands.FrontCommand` whose ``action`` names its route here. Two
kinds:

- a text command (:class:`Text`): a function that returns what to print (its ``--json`` form
  too) or raises :class:`CommandRefused`; the session prints it and ends with status 0.
  ``named=True``: only a key that has a name may ask.
- a client command (:class:`Client`): the ordinary ``minefield`` client run in a
  pseudo-terminal for the player (a new key is asked its name first), until it exits.

To add a command: its words in :mod:`.commands` (the ``Action``, the grammar, ``HELP`` and
``ALLOWED``), its function here (the facts it needs from the daemon come through
:class:`~minefield.frontdoor.embedded_daemon.DaemonHandle`), and one line in :data:`ROUTES`.
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Awaitable, Callable, Coroutine
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

import asyncssh

from minefield.errors import MinefieldError
from minefield.frontdoor import reports
from minefield.frontdoor.account_keys import KeyRefused
from minefield.frontdoor.account_names import NameRefused
from minefield.frontdoor.accounts import Account, RenameLimited, utc
from minefield.frontdoor.club import Club, ClubRefused
from minefield.frontdoor.commands import HELP, Action, FrontCommand
from minefield.frontdoor.moderation_commands import AdminRoute
from minefield.frontdoor.programs import program_ids, programs_named
from minefield.frontdoor.tournament_commands import list_text, listing_json, show_text
from minefield.frontdoor.wire_link import wire_route
from minefield.rules.seats import Seat
from minefield.server.identity import Identity
from minefield.server.tournament_terms import TournamentError
from minefield.server.tournaments import Tournaments

if TYPE_CHECKING:
    from minefield.frontdoor.ssh_session import DoorSession
    from minefield.frontdoor.web_door import WebDoor

log = logging.getLogger("minefield.frontdoor")

#: What a command does for the session that asked.
Route = Callable[["DoorSession", FrontCommand], Awaitable[None]]
#: A text command: what to print (without the last line end).
Answer = Callable[["DoorSession", FrontCommand], Awaitable[str]]


class CommandRefused(MinefieldError):
    """A text command that cannot be done: its one-line reason, and the exit status."""

    def __init__(self, reason: str, status: int = 2) -> None:
        super().__init__(reason)
        self.status = status


@dataclass(frozen=True, slots=True)
class Text:
    """The route of a text command: ``answer`` printed, or its refusal; ``named``: only a key
    that has a name may ask."""

    answer: Answer
    named: bool = False

    async def __call__(self, session: DoorSession, command: FrontCommand) -> None:
        if self.named and session.account is None:
            session.refuse("this key has no name yet: choose one first (name NEW)")
            return
        try:
            said = await self.answer(session, command)
        except CommandRefused as refusal:
            session.refuse(str(refusal), refusal.status)
            return
        session.say(said + "\n")
        session.finish(0)


@dataclass(frozen=True, slots=True)
class Client:
    """The route of a command that runs the client; ``status``: what ``who`` says the player
    does meanwhile; ``terminal``: the game's client (it needs a terminal, and talks to the game
    server as the player)."""

    status: str
    terminal: bool = True

    async def __call__(self, session: DoorSession, command: FrontCommand) -> None:
        await session.run_client(command, self.status, self.terminal)


@dataclass(frozen=True, slots=True)
class KeptClient(Client):
    """The route of ``replay GAME`` and ``review GAME``: the client on a kept game's record
    (its path made here, once the player may see the game), in a terminal."""

    async def __call__(self, session: DoorSession, command: FrontCommand) -> None:
        if not session.terminal:
            session.refuse(f"{command.action} needs a terminal: connect with ssh -t")
            return
        if session.account is None:
            session.refuse("this key has no name yet: choose one first (name NEW)")
            return
        account, game = session.account, command.game
        assert game is not None
        try:
            argv = await session.door.ask_club(
                lambda club: club.client_argv(account, command.action, game))
        except ClubRefused as refusal:
            session.refuse(str(refusal))
            return
        await session.run_client(replace(command, argv=tuple(argv)), self.status,
                                 self.terminal)


# -- the text commands -----------------------------------------------------------------------


async def whoami(session: DoorSession, command: FrontCommand) -> str:
    """``whoami``: the name, the key, the rating."""
    return reports.whoami(session.fingerprint, session.account, command.json)


async def who(session: DoorSession, command: FrontCommand) -> str:
    """``who``: the players online (the daemon's lobby first, then this door's sessions) and
    the open tables."""
    door = session.door
    lobby = await door.daemon.lobby() if door.daemon is not None else None
    sessions = [(s.account.name, s.status) for s in door.sessions
                if s.account is not None and s.status]
    names = [player.name for player in lobby.online] if lobby is not None else []
    programs = programs_named(door.accounts, [*names, *(name for name, _ in sessions)])
    return reports.who(command.json, lobby, sessions, programs)


async def ladder(session: DoorSession, command: FrontCommand) -> str:
    """``ladder``: every rated player, best first (programs marked)."""
    accounts = session.door.accounts
    return reports.ladder(accounts.ladder(), command.json, program_ids(accounts))


async def help_text(session: DoorSession, command: FrontCommand) -> str:
    """``help``: what may be typed."""
    return HELP


async def name(session: DoorSession, command: FrontCommand) -> str:
    """``name NEW``: claim a name (a key without one) or change the player's."""
    accounts, fingerprint = session.door.accounts, session.fingerprint
    assert command.name is not None
    try:
        if session.account is None:
            session.account = accounts.claim(fingerprint, command.name)
            log.info("key %s claimed the name %s", fingerprint, session.account.name)
            return f"Welcome, {session.account.name}."
        old = session.account.name
        session.account, released = accounts.rename(session.account.id, command.name)
    except NameRefused as refusal:
        raise CommandRefused(str(refusal), 1 if isinstance(refusal, RenameLimited) else 2
                             ) from None
    log.info("%s is now %s (key %s)%s", old, session.account.name, fingerprint,
             f"; former names released: {', '.join(released)}" if released else "")
    return f"You are now {session.account.name}."


async def key_list(session: DoorSession, command: FrontCommand) -> str:
    """``key list``: the player's keys, and those offered a code."""
    account = session.account
    assert account is not None
    keys = session.door.accounts.keys.listed(account.id)
    return reports.key_list(account, keys, session.fingerprint, command.json)


async def key_remove(session: DoorSession, command: FrontCommand) -> str:
    """``key remove SHA256:...``: a key (never the last) no longer logs in as the player; its
    sessions end. A key only offered a code has the code withdrawn."""
    door, account, fingerprint = session.door, session.account, session.fingerprint
    assert account is not None and command.key is not None
    try:
        removed = door.accounts.keys.remove(account.id, command.key)
    except KeyRefused as refusal:
        raise CommandRefused(str(refusal)) from None
    if not removed:
        log.info("%s withdrew the code of the key %s (key %s)", account.name, command.key,
                 fingerprint)
        return (f"The code for the key {command.key} is withdrawn: it will not log in as "
                f"{account.name}.")
    log.info("%s removed the key %s (key %s from %s)", account.name, command.key,
             fingerprint, session.connection.address)
    session.account = door.accounts.by_key(fingerprint)
    for other in list(door.sessions):
        if other is not session and other.connection.fingerprint == command.key:
            other.end(f"this key no longer logs in as {account.name}")
    return f"The key {command.key} no longer logs in as {account.name}."


async def key_add(session: DoorSession, command: FrontCommand) -> str:
    """``key add PUBLIC-KEY``: a code for another key of the player's, and the command that
    key runs with it."""
    door, account, fingerprint = session.door, session.account, session.fingerprint
    assert account is not None
    try:
        key = asyncssh.import_public_key(command.key or "")
    except (asyncssh.KeyImportError, ValueError):
        raise CommandRefused("that is not a public key: key add ssh-ed25519 AAAA...") from None
    new = key.get_fingerprint("sha256")
    try:
        offer = door.accounts.keys.offer(account.id, new, fingerprint)
    except KeyRefused as refusal:
        raise CommandRefused(str(refusal)) from None
    log.info("%s offered the key %s a code (key %s from %s)", account.name, new,
             fingerprint, session.connection.address)
    host, port = session.door_address()
    note = ("" if door.admits(new) else
            "\nThis server lets in listed keys only: ask its owner to list that key too.")
    return (f"To let the key {new} log in as {account.name}, run this with that key "
            f"before {utc(offer.expires)} (the code serves once):\n"
            f"ssh -p {port} {host} key confirm {offer.code}{note}")


async def key_confirm(session: DoorSession, command: FrontCommand) -> str:
    """``key confirm CODE``: this key joins the player who offered it the code."""
    fingerprint, address = session.fingerprint, session.connection.address
    assert command.code is not None
    try:
        account, asked_by = session.door.accounts.keys.confirm(fingerprint, command.code)
    except KeyRefused as refusal:
        log.info("key %s from %s: key confirm refused (%s)", fingerprint, address, refusal)
        raise CommandRefused(str(refusal)) from None
    session.account = account
    log.info("key %s joined %s with its code (asked by key %s; confirmed from %s)",
             fingerprint, account.name, asked_by, address)
    return f"This key now logs in as {account.name}."


async def _club(session: DoorSession, question: Callable[[Club, Account], str]) -> str:
    """``question`` asked of the club for the session's player; a refusal is one line."""
    account = session.account
    assert account is not None
    try:
        return await session.door.ask_club(lambda club: question(club, account))
    except ClubRefused as refusal:
        raise CommandRefused(str(refusal)) from None


async def games(session: DoorSession, command: FrontCommand) -> str:
    """``games [NAME] [--limit N] [--json]``: the finished games the player may see."""
    return await _club(session, lambda club, me: club.games(me, command.name, command.limit,
                                                            command.json))


async def history(session: DoorSession, command: FrontCommand) -> str:
    """``history``: the player's own network games on this server."""
    return await _club(session, lambda club, me: club.history(me, command.json))


async def record(session: DoorSession, command: FrontCommand) -> str:
    """``record GAME``: a finished game's record, as JSON lines."""
    assert command.game is not None
    game = command.game
    return await _club(session, lambda club, me: club.record(me, game))


async def review_html(session: DoorSession, command: FrontCommand) -> str:
    """``review GAME --html``: the game's defense review as one self-contained web page (the
    page ``minefield review --html`` writes and the browser door serves), from the player's
    seat, East's for a game they did not play."""
    game = command.game
    assert game is not None
    path, seat = await _club_source(session, game)
    page = await session.door.reviews.page(game, path, seat)
    if page is None:
        raise CommandRefused(f"the review of game {game[:80]} cannot be made")
    return page.rstrip("\n")


async def _club_source(session: DoorSession, game: str) -> tuple[Path, Seat]:
    account = session.account
    assert account is not None
    try:
        return await session.door.ask_club(lambda club: club.review_source(account, game))
    except ClubRefused as refusal:
        raise CommandRefused(str(refusal)) from None


async def stats(session: DoorSession, command: FrontCommand) -> str:
    """``stats [NAME] [--json]``: a player's profile."""
    return await _club(session, lambda club, me: club.stats(me, command.name, command.json))


def web_answer(web: WebDoor | None, account: Account | None, sign_out_all: bool) -> str:
    """What ``ssh HOST web`` (``--sign-out-all``) answers for ``account``; CommandRefused
    when the server has no browser door."""
    if web is None:
        raise CommandRefused("this server has no browser door (ssh-server --web ADDR:PORT)", 1)
    assert account is not None
    if sign_out_all:
        count = web.sign_out_all(account)
        return (f"Signed out of every browser ({count} session{'s' if count != 1 else ''} "
                "ended); links not yet used no longer work.")
    url, expires = web.link(account)
    when = time.strftime("%H:%M UTC", time.gmtime(expires))
    return (f"Open this link in your browser to play as {account.name} (it serves once, "
            f"until {when}; never share it):\n{url}")


async def web_link(session: DoorSession, command: FrontCommand) -> str:
    """``web``: a link that signs the player in on a browser (the browser door's)."""
    return web_answer(session.door.web, session.account, sign_out_all=False)


async def web_sign_out(session: DoorSession, command: FrontCommand) -> str:
    """``web --sign-out-all``: every browser session of the player ends."""
    return web_answer(session.door.web, session.account, sign_out_all=True)


async def _tournaments(session: DoorSession, command: FrontCommand,
                       work: Callable[[Tournaments, Identity], Coroutine[Any, Any, str]]
                       ) -> str:
    """``work`` done by the daemon's tournaments for the session's player (a key without a
    name asks as nobody); a refusal is one line."""
    door = session.door
    if door.daemon is None:
        raise CommandRefused("tournaments are kept by the game server inside ssh-server: "
                             "this one was started with --socket")
    account = session.account
    me = Identity(key=f"{account.name}@{door.shared_account}" if account else "",
                  name=account.name if account else "")
    try:
        said = await door.daemon.tournaments(lambda t: work(t, me))
    except TournamentError as refusal:
        raise CommandRefused(str(refusal)) from None
    if said is None:
        raise CommandRefused("the game server is not running")
    return said


async def tournament(session: DoorSession, command: FrontCommand) -> str:
    """``tournament new|join|leave|start NAME``."""
    asked = command.tournament
    assert asked is not None and asked.name is not None
    name = asked.name

    async def work(t: Tournaments, me: Identity) -> str:
        if asked.new is not None:
            return t.new(me, asked.new)
        if asked.verb == "join":
            return t.join(me, name)
        if asked.verb == "leave":
            return t.leave(me, name)
        log.info("%s starts the tournament %s", me.name, name)
        return await t.start(me, name)

    return await _tournaments(session, command, work)


async def tournament_show(session: DoorSession, command: FrontCommand) -> str:
    """``tournament show NAME [--json]``."""
    asked = command.tournament
    assert asked is not None and asked.name is not None
    name = asked.name

    async def work(t: Tournaments, me: Identity) -> str:
        shown = t.show(name)
        return json.dumps(shown) if command.json else show_text(shown)

    return await _tournaments(session, command, work)


async def tournaments(session: DoorSession, command: FrontCommand) -> str:
    """``tournaments [--json]``."""
    async def work(t: Tournaments, me: Identity) -> str:
        listed = t.listing()
        return listing_json(listed) if command.json else list_text(listed)

    return await _tournaments(session, command, work)


#: Every command's route, by its action.
ROUTES: dict[Action, Route] = {
    "menu": Client("lobby"),
    "host": Client("hosting"),
    "join": Client("playing"),
    "resume": Client("playing"),
    "watch": Client("watching"),
    "history": Text(history, named=True),
    "games": Text(games, named=True),
    "record": Text(record, named=True),
    "stats": Text(stats, named=True),
    "replay": KeptClient("replaying"),
    "review": KeptClient("reviewing"),
    "review-html": Text(review_html, named=True),
    "whoami": Text(whoami),
    "who": Text(who),
    "ladder": Text(ladder),
    "help": Text(help_text),
    "name": Text(name),
    "key-add": Text(key_add, named=True),
    "key-confirm": Text(key_confirm),
    "key-list": Text(key_list, named=True),
    "key-remove": Text(key_remove, named=True),
    "web": Text(web_link, named=True),
    "web-sign-out": Text(web_sign_out, named=True),
    "tournament": Text(tournament, named=True),
    "tournament-show": Text(tournament_show),
    "tournaments": Text(tournaments),
    "moderation": AdminRoute(),
    "wire": wire_route,
}


__all__ = ["ROUTES", "Client", "CommandRefused", "Route", "Text"]
