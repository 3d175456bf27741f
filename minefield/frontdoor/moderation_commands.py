"""The admins' commands over SSH: ``admin``, ``ban``, ``unban``, ``bans``, ``kick``,
``rename``, ``release``, ``motd``.

The forms (each bad one gets one line and exit status 2, nothing changed; a player who is not
an admin gets one line and exit status 2 too)::

    admin add NAME | admin remove NAME | admin list [--json]
    ban NAME|SHA256:... [--for 1h|7d|2w|...] [--reason TEXT]
    unban NAME|SHA256:...
    bans [--json]
    kick NAME
    rename OLD NEW
    release NAME
    motd TEXT | motd --clear

``ssh`` joins the words typed after the host with spaces, so the free text of ``--reason`` and
``motd`` is taken as it comes, quotes or not (``motd Club night on Friday!``): everything after
``motd``, or after ``--reason`` up to a ``--for``. Nothing typed ever reaches a shell.

>>> parse_moderation("ban Bob --for 7d --reason spam in the lobby")
ModerationCommand(verb='ban', name='Bob', new=None, seconds=604800.0, \
reason='spam in the lobby', text=None, json=False)
>>> parse_moderation("motd 'Club night: Friday 8pm!'").text
'Club night: Friday 8pm!'
>>> parse_moderation("who") is None
True
>>> parse_moderation("ban Bob --for 7y")
Traceback (most recent call last):
...
minefield.frontdoor.moderation_commands.AdminUsage: --for '7y': a duration such as 30m, 1h, \
7d or 2w (m minutes, h hours, d days, w weeks)
"""

from __future__ import annotations

import logging
import shlex
import unicodedata
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

from minefield.frontdoor.accounts import Account
from minefield.frontdoor.grammar import Refused
from minefield.frontdoor.moderation import (
    MAX_REASON,
    ModerationRefused,
    Moderator,
    ban_line,
    check_fingerprint,
    parse_duration,
)
from minefield.protocol.lobby import MAX_MOTD

if TYPE_CHECKING:
    from minefield.frontdoor.ssh_session import DoorSession

log = logging.getLogger("minefield.frontdoor")

Verb = Literal["admin-add", "admin-remove", "admin-list", "ban", "unban", "bans", "kick",
               "rename", "release", "motd"]
#: The first words of the admins' commands.
WORDS = frozenset({"admin", "ban", "unban", "bans", "kick", "rename", "release", "motd"})
#: The longest admin command, in bytes.
MAX_BYTES = 1024
#: What a kicked player is told.
KICKED = "an admin ended your session (you may come back: ssh -t HOST resume)"


class AdminUsage(Refused):
    """An admin command typed wrong: its own one-line reason, said alone (the list of every
    command would hide it)."""


@dataclass(frozen=True, slots=True)
class ModerationCommand:
    """An accepted admin command: ``name`` is its player's name or key's fingerprint
    (``rename``: the old name, ``new`` the new one); ``seconds``: a ban's length (None: for
    good); ``text``: the message of the day (None with ``motd``: clear it)."""

    verb: Verb
    name: str | None = None
    new: str | None = None
    seconds: float | None = None
    reason: str = ""
    text: str | None = None
    json: bool = False


def _free_text(words: list[str], what: str, longest: int) -> str:
    """The words of a free text joined by spaces, one pair of quotes around it removed."""
    text = " ".join(words)
    if len(text) >= 2 and text[0] == text[-1] and text[0] in "'\"":
        text = text[1:-1].strip()
    if len(text) > longest:
        raise AdminUsage(f"{what} is at most {longest} characters (this one has {len(text)})")
    return text


def _checked(raw: str | bytes) -> str:
    """The command as text: at most :data:`MAX_BYTES`, UTF-8, no control or invisible
    formatting characters (a tab is a space)."""
    data = raw.encode("utf-8", "surrogateescape") if isinstance(raw, str) else raw
    if len(data) > MAX_BYTES:
        raise AdminUsage(f"the command is too long (over {MAX_BYTES} bytes)")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError:
        raise AdminUsage("the command is not UTF-8 text") from None
    for ch in text.replace("\t", " "):
        if unicodedata.category(ch) in ("Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"):
            raise AdminUsage(f"no control or invisible characters (U+{ord(ch):04X})")
    return text


def _words(verb: str, rest: str) -> list[str]:
    try:
        return shlex.split(rest, comments=False, posix=True)
    except ValueError:
        raise AdminUsage(f"{verb}: unbalanced quotes") from None


def _one(verb: str, words: list[str], usage: str) -> str:
    if len(words) != 1 or words[0].startswith("--"):
        raise AdminUsage(f"{verb} takes {usage}")
    return words[0]


def _ban(rest: str) -> ModerationCommand:
    """``ban TARGET [--for D] [--reason TEXT]``: the reason runs to the end, or to --for."""
    words = rest.split()
    if not words or words[0].startswith("-"):
        raise AdminUsage("ban takes a player's name or a key's fingerprint: ban NAME|SHA256:... "
                      "[--for 1h|7d|...] [--reason TEXT]")
    target = words[0].strip("'\"")
    seconds: float | None = None
    reason: list[str] | None = None
    given_for = False
    i = 1
    while i < len(words):
        word = words[i]
        option, has_value, value = word.partition("=")
        if option == "--for":
            if given_for:
                raise AdminUsage("--for is given twice")
            given_for = True
            if not has_value:
                i += 1
                value = words[i] if i < len(words) else ""
            if not value:
                raise AdminUsage("--for needs a duration, such as 1h, 7d or 2w")
            try:
                seconds = parse_duration(value.strip("'\""))
            except ModerationRefused as refusal:
                raise AdminUsage(str(refusal)) from None
        elif option == "--reason":
            if reason is not None:
                raise AdminUsage("--reason is given twice")
            reason = [value] if has_value and value else []
            while i + 1 < len(words) and words[i + 1].partition("=")[0] != "--for":
                i += 1
                reason.append(words[i])
            if not reason:
                raise AdminUsage("--reason needs the reason's words")
        else:
            raise AdminUsage(f"ban takes NAME|SHA256:..., --for DURATION and --reason TEXT, not "
                          f"{word[:20]!r}")
        i += 1
    text = _free_text(reason, "--reason", MAX_REASON) if reason is not None else ""
    return ModerationCommand("ban", name=target, seconds=seconds, reason=text)


def _target(verb: str, words: list[str]) -> ModerationCommand:
    """``unban NAME|SHA256:...``: a key's fingerprint is checked here."""
    target = _one(verb, words, "a player's name or a key's fingerprint: unban NAME|SHA256:...")
    if target.startswith("SHA256:"):
        try:
            check_fingerprint(target)
        except ModerationRefused as refusal:
            raise AdminUsage(str(refusal)) from None
    return ModerationCommand("unban", name=target)


def _admin(words: list[str]) -> ModerationCommand:
    what, rest = (words[0], words[1:]) if words else ("", [])
    if what in ("add", "remove"):
        return ModerationCommand("admin-add" if what == "add" else "admin-remove",
                                 name=_one(f"admin {what}", rest, f"a player's name: admin "
                                           f"{what} NAME"))
    if what == "list" and rest in ([], ["--json"]):
        return ModerationCommand("admin-list", json=bool(rest))
    raise AdminUsage("admin takes add NAME, remove NAME or list [--json]")


def parse_moderation(raw: str | bytes) -> ModerationCommand | None:
    """The admin command typed (None: the first word is not one of :data:`WORDS`);
    :class:`AdminUsage` (a :class:`~minefield.frontdoor.grammar.Refused`), one line, for a
    bad one."""
    text = raw.decode("utf-8", "replace") if isinstance(raw, bytes) else raw
    head = text.split(None, 1)
    if head[:1] == ["minefield"]:
        head = head[1].split(None, 1) if len(head) > 1 else []
    if not head or head[0] not in WORDS:
        return None
    _checked(raw)
    verb, rest = head[0], head[1] if len(head) > 1 else ""
    if verb == "motd":
        words = rest.split()
        if words == ["--clear"]:
            return ModerationCommand("motd")
        if not words:
            raise AdminUsage("motd takes the message (motd TEXT), or --clear")
        return ModerationCommand("motd", text=_free_text(words, "the message", MAX_MOTD))
    if verb == "ban":
        return _ban(rest)
    words = _words(verb, rest)
    if verb == "admin":
        return _admin(words)
    if verb == "unban":
        return _target(verb, words)
    if verb == "bans":
        if words not in ([], ["--json"]):
            raise AdminUsage("bans takes nothing but --json")
        return ModerationCommand("bans", json=bool(words))
    if verb == "rename":
        if len(words) != 2 or any(word.startswith("-") for word in words):
            raise AdminUsage("rename takes the player's name and the new one: rename OLD NEW")
        return ModerationCommand("rename", name=words[0], new=words[1])
    usage = "a player's name: kick NAME" if verb == "kick" else "a former name: release NAME"
    return ModerationCommand("kick" if verb == "kick" else "release",
                             name=_one(verb, words, usage))


# -- what each does ---------------------------------------------------------------------------


def _sessions(count: int) -> str:
    return f"{count} session{'' if count == 1 else 's'}"


def _by(session: DoorSession) -> str:
    """Who does an admin action, as the bans and the log say it."""
    return session.account.name if session.account is not None else session.fingerprint


async def _end_player(session: DoorSession, account: Account | None, key: str | None,
                      line: str, sign_out: bool = False) -> int:
    """End the sessions of ``account`` (and of the key ``key``) but the asking one: SSH,
    browser, and their connections to the game server (a game goes on under R25b's grace);
    ``sign_out``: their browsers are signed out too (a ban: the cookies and links they hold
    sign in no more). How many SSH and browser sessions ended."""
    door = session.door
    ended = 0
    for other in list(door.sessions):
        if other is session:
            continue
        mine = account is not None and other.account is not None and \
            other.account.id == account.id
        if mine or (key is not None and other.connection.fingerprint == key):
            other.end(line)
            ended += 1
    if account is None:
        return ended
    web = door.web
    if web is not None:
        for browser in [s for s in web.sessions if s.account.id == account.id]:
            browser.end(line)
            ended += 1
        if sign_out:
            web.logins.sign_out_all(account.id)
    if door.daemon is not None:
        names = [account.name.casefold(), *door.accounts.former_names(account.id)]
        await door.daemon.drop([f"{name}@{door.shared_account}" for name in names], line)
    return ended


async def answer(session: DoorSession, command: ModerationCommand) -> str:
    """Do the admin command for an admin's session; what to print (a
    :class:`~minefield.frontdoor.moderation.ModerationRefused` for a bad argument)."""
    door, verb, by = session.door, command.verb, _by(session)
    moderator: Moderator = door.moderator
    name = command.name or ""
    if verb == "admin-add":
        return moderator.admin_add(by, name)
    if verb == "admin-remove":
        return moderator.admin_remove(by, name)
    if verb == "admin-list":
        return moderator.admin_list(command.json)
    if verb == "bans":
        return moderator.bans(command.json)
    if verb == "unban":
        return moderator.unban(by, name)
    if verb == "release":
        return moderator.release(by, name)
    if verb == "motd":
        return moderator.motd(by, command.text)
    if verb == "ban":
        said, ban, holder = moderator.ban(session.account, by, name, command.seconds,
                                          command.reason)
        banned = holder if ban.account is not None else None
        ended = await _end_player(session, banned, ban.fingerprint, ban_line(ban),
                                  sign_out=True)
        return said + (f" ({_sessions(ended)} closed)" if ended else "")
    if verb == "kick":
        account = moderator.player(name)
        if session.account is not None and account.id == session.account.id:
            raise ModerationRefused("you cannot kick yourself")
        ended = await _end_player(session, account, None, KICKED)
        moderator.store.log(by, f"kicked {account.name} ({_sessions(ended)})")
        log.info("admin %s: kicked %s (%s)", by, account.name, _sessions(ended))
        if not ended:
            return f"{account.name} has no session open here."
        return (f"{account.name}'s {_sessions(ended)} closed; a game in progress goes on "
                "under the clocks (R25b) until they resume it.")
    assert verb == "rename" and command.new is not None
    said, renamed = moderator.rename(by, name, command.new)
    for other in door.sessions:
        if other.account is not None and other.account.id == renamed.id:
            other.account = renamed
    return said


@dataclass(frozen=True, slots=True)
class AdminRoute:
    """The route of the admins' commands: done for an admin, one line (exit status 2) for
    anyone else and for a bad argument."""

    work: Callable[[DoorSession, ModerationCommand], Awaitable[str]] = answer

    async def __call__(self, session: DoorSession, command: object) -> None:
        asked = getattr(command, "moderation", None)
        assert isinstance(asked, ModerationCommand)
        if not session.door.moderator.is_admin(session.account):
            log.info("key %s from %s: %s refused (not an admin)", session.fingerprint,
                     session.connection.address, asked.verb)
            word = asked.verb.replace("-", " ")
            session.refuse(f"{word} is for the server's admins")
            return
        try:
            said = await self.work(session, asked)
        except ModerationRefused as refusal:
            session.refuse(str(refusal))
            return
        session.say(said + "\n")
        session.finish(0)


__all__ = ["KICKED", "WORDS", "AdminRoute", "AdminUsage", "ModerationCommand", "answer",
           "parse_moderation"]
