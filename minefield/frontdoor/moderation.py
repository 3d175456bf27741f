"""The club's moderation: its admins, bans, renames, released names and message of the day.

:class:`Moderator` is the policy over the players' accounts (:mod:`.accounts`) and the
moderation tables of the same SQLite file (:mod:`~minefield.server.moderation_store`); it knows
nothing of SSH. Each admin action is one method: it checks its arguments (a bad one is a
:class:`ModerationRefused`, one line, exit status 2, nothing changed), does the action, logs it
with who did it (the server's log and the ``moderation_log`` table) and answers what to print.
The SSH commands (:mod:`.moderation_commands`) and ``minefield ssh-server admin`` on the host
call them.

A ban keeps out a player (every key of their account, those added later too) or one key, for
a time (``--for 1h``, ``7d``, ``2w``...) or for good. A banned key is refused at login with
one line giving the reason and the end (:func:`ban_line`); so is a banned player's every hello
to the game server, on any route (:meth:`Moderator.admission`).

>>> parse_duration("1d12h"), parse_duration("30m")
(129600.0, 1800.0)
>>> parse_duration("7x")
Traceback (most recent call last):
...
minefield.frontdoor.moderation.ModerationRefused: --for '7x': a duration such as 30m, 1h, \
7d or 2w (m minutes, h hours, d days, w weeks)
>>> describe_duration(129600.0), describe_duration(1800.0)
('1 d 12 h', '30 min')
"""

from __future__ import annotations

import json
import logging
import re
import threading
from datetime import UTC, datetime
from pathlib import Path

from minefield.errors import MinefieldError
from minefield.frontdoor.account_names import NameRefused, check_name
from minefield.frontdoor.accounts import Account, Accounts, utc
from minefield.server.identity import Identity
from minefield.server.moderation_store import Ban, ModerationStore

log = logging.getLogger("minefield.frontdoor")

#: A duration as ``--for`` takes it: numbers with their units, largest first or not.
DURATION = re.compile(r"(?:\d{1,6}[mhdw])+")
_UNITS = {"m": 60, "h": 3600, "d": 86400, "w": 7 * 86400}
#: The longest ban with an end (a longer one is a permanent ban: leave out --for).
MAX_BAN_SECONDS = 3650 * 86400.0
#: The longest reason of a ban.
MAX_REASON = 200
#: A key's fingerprint as ``key list`` and the logs show it.
FINGERPRINT = re.compile(r"SHA256:[A-Za-z0-9+/]{43}")


class ModerationRefused(MinefieldError):
    """An admin action that cannot be done: its one-line reason (exit status 2, nothing
    changed)."""


def parse_duration(text: str) -> float:
    """``--for``'s value in seconds (``30m``, ``12h``, ``7d``, ``2w``, ``1d12h``):
    :class:`ModerationRefused` for anything else, for nothing, and past ten years."""
    if not DURATION.fullmatch(text):
        shown = text if len(text) <= 20 else text[:17] + "..."
        raise ModerationRefused(f"--for {shown!r}: a duration such as 30m, 1h, 7d or 2w "
                                "(m minutes, h hours, d days, w weeks)")
    seconds = float(sum(int(number) * _UNITS[unit]
                        for number, unit in re.findall(r"(\d+)([mhdw])", text)))
    if seconds <= 0:
        raise ModerationRefused("--for: a ban lasts at least a minute (leave --for out for a "
                                "permanent one)")
    if seconds > MAX_BAN_SECONDS:
        raise ModerationRefused("--for: at most 3650 days (leave --for out for a permanent "
                                "ban)")
    return seconds


def describe_duration(seconds: float) -> str:
    """A duration as people read it, to the minute: ``1 d 12 h``, ``30 min``."""
    minutes = round(seconds / 60)
    days, minutes = divmod(minutes, 1440)
    hours, minutes = divmod(minutes, 60)
    parts = [f"{days} d" if days else "", f"{hours} h" if hours else "",
             f"{minutes} min" if minutes else ""]
    return " ".join(part for part in parts if part) or "0 min"


def iso(moment: float) -> str:
    """A moment in ISO 8601, UTC, to the second (as the JSON answers give times)."""
    return datetime.fromtimestamp(moment, UTC).isoformat(timespec="seconds")


def ban_line(ban: Ban) -> str:
    """The one line that refuses a banned key or player: the reason and the end (or
    ``permanent``), never who banned them."""
    until = "(permanent)" if ban.ends is None else f"until {utc(ban.ends)}"
    return f"you are banned from this server {until}: {ban.reason or 'no reason given'}"


def check_fingerprint(text: str) -> str:
    """``text`` if it is a key's fingerprint (``SHA256:`` and 43 characters of base64)."""
    if not FINGERPRINT.fullmatch(text):
        shown = text if len(text) <= 60 else text[:57] + "..."
        raise ModerationRefused(f"{shown!r} is not a key's fingerprint: SHA256: and 43 "
                                "characters, as key list and the server's log show it")
    return text


class Moderator:
    """The club's moderation over ``accounts`` and ``store`` (connections of one thread);
    ``shared_account``: the Unix account whose identities (``NAME@ACCOUNT``) are this front
    door's players."""

    def __init__(self, accounts: Accounts, store: ModerationStore,
                 shared_account: str) -> None:
        self.accounts = accounts
        self.store = store
        self.suffix = f"@{shared_account}"

    # -- who may come in ---------------------------------------------------------------------

    def login_refusal(self, fingerprint: str) -> str | None:
        """The line that refuses the key ``fingerprint`` at login (itself banned, or its
        player), None when it may come in."""
        account = self.accounts.by_key(fingerprint)
        ban = self.store.ban_for(fingerprint, account.id if account is not None else None)
        return ban_line(ban) if ban is not None else None

    def account_refusal(self, account_id: int) -> str | None:
        """The line that refuses the player ``account_id`` (banned), None when they may come
        in (a browser's passkey sign-in)."""
        ban = self.store.ban_for(None, account_id)
        return ban_line(ban) if ban is not None else None

    def admission(self, identity: Identity, key: str | None = None) -> str | None:
        """The line that refuses a player's hello to the game server (an
        :data:`~minefield.server.admission.Admission`): a player of this front door (or of
        the OpenSSH route's lines for the same account, which share its names) who is
        banned, or whose SSH key ``key`` is (as ``ssh-entry`` tells it from sshd). A Unix
        user of the OpenSSH route is never one of this door's players."""
        if not identity.key.endswith(self.suffix):
            return None
        account = self.accounts.by_name(identity.key.removesuffix(self.suffix))
        ban = self.store.ban_for(key, account.id if account is not None else None)
        return ban_line(ban) if ban is not None else None

    def is_admin(self, account: Account | None) -> bool:
        """True when ``account`` is one of the server's admins."""
        return account is not None and self.store.is_admin(account.id)

    # -- actions -------------------------------------------------------------------------------

    def _done(self, by: str, action: str) -> None:
        log.info("admin %s: %s", by, action)
        self.store.log(by, action)

    def player(self, name: str) -> Account:
        """The player who holds ``name`` (their name, or a former one they keep)."""
        try:
            check_name(name)
        except NameRefused as refusal:
            raise ModerationRefused(str(refusal)) from None
        account = self.accounts.by_name(name)
        if account is None:
            raise ModerationRefused(f"no player is called {name!r} here")
        return account

    def admin_add(self, by: str, name: str) -> str:
        """Make the player ``name`` an admin."""
        account = self.player(name)
        if not self.store.add_admin(account.id, by):
            return f"{account.name} is an admin already."
        self._done(by, f"made {account.name} an admin")
        return f"{account.name} is now an admin of this server."

    def admin_remove(self, by: str, name: str) -> str:
        """The player ``name`` is no longer an admin."""
        account = self.player(name)
        if not self.store.remove_admin(account.id):
            raise ModerationRefused(f"{account.name} is not an admin")
        self._done(by, f"removed {account.name} from the admins")
        return f"{account.name} is no longer an admin."

    def admin_list(self, as_json: bool) -> str:
        """The admins, in the order they were made admins."""
        rows = []
        for account_id, added, added_by in self.store.admins():
            account = self.accounts.by_id(account_id)
            if account is not None:
                rows.append((account.name, added, added_by))
        if as_json:
            return json.dumps([{"name": name, "since": iso(added), "by": added_by}
                               for name, added, added_by in rows])
        if not rows:
            return ("No admins: the host makes one with minefield ssh-server admin add NAME "
                    "--data DIR.")
        return "\n".join(f"{name} (admin since {utc(added)}, made by {added_by})"
                         for name, added, added_by in rows)

    def ban(self, by_account: Account | None, by: str, target: str, seconds: float | None,
            reason: str) -> tuple[str, Ban, Account | None]:
        """Ban ``target`` (a player's name, or a key's ``SHA256:`` fingerprint) for
        ``seconds`` (None: for good) with ``reason``; what to print, the ban, and the banned
        player (the key's, for a key of one). An admin is not banned (admin remove first),
        nor the admin's own key."""
        if target.startswith("SHA256:"):
            key: str | None = check_fingerprint(target)
            account = self.accounts.by_key(target)
            banned_account = None
        else:
            key, account = None, self.player(target)
            banned_account = account
        if by_account is not None and account is not None and account.id == by_account.id:
            raise ModerationRefused("you cannot ban yourself")
        if account is not None and self.store.is_admin(account.id):
            raise ModerationRefused(f"{account.name} is an admin: admin remove "
                                    f"{account.name} first")
        shown = key or (account.name if account is not None else target)
        ends = None if seconds is None else self.store.clock() + seconds
        ban = self.store.ban(account=banned_account.id if banned_account else None,
                             fingerprint=key, target=shown, reason=reason, ends=ends, by=by)
        how_long = ("for good" if seconds is None
                    else f"for {describe_duration(seconds)}, until {utc(ban.ends or 0)}")
        whose = f" (a key of {account.name})" if key is not None and account else ""
        self._done(by, f"banned {shown}{whose} {how_long}: {reason or 'no reason given'}")
        return (f"{shown}{whose} is banned {how_long}: {reason or 'no reason given'}", ban,
                account)

    def unban(self, by: str, target: str) -> str:
        """Lift the ban of ``target`` (a player's name or a key's fingerprint)."""
        if target.startswith("SHA256:"):
            lifted = self.store.unban(account=None, fingerprint=check_fingerprint(target),
                                      by=by)
            shown = target
        else:
            account = self.player(target)
            lifted = self.store.unban(account=account.id, fingerprint=None, by=by)
            shown = account.name
        if not lifted:
            raise ModerationRefused(f"{shown} is not banned (bans lists the bans)")
        self._done(by, f"lifted the ban of {shown}")
        return f"{shown} is no longer banned."

    def bans(self, as_json: bool) -> str:
        """The bans that hold now, oldest first."""
        rows = []
        for ban in self.store.active_bans():
            holder = (self.accounts.by_id(ban.account) if ban.account is not None
                      else self.accounts.by_key(ban.fingerprint or ""))
            rows.append((ban, holder.name if holder is not None else None))
        if as_json:
            return json.dumps([{"target": ban.target, "name": name, "key": ban.fingerprint,
                                "reason": ban.reason, "since": iso(ban.since),
                                "ends": iso(ban.ends) if ban.ends is not None else None,
                                "by": ban.by} for ban, name in rows])
        if not rows:
            return "No bans."
        lines = [f"Bans ({len(rows)}):"]
        for ban, name in rows:
            shown = name if ban.account is not None and name else ban.target
            if ban.fingerprint is not None and name:
                shown = f"{ban.target} (a key of {name})"
            until = "permanent" if ban.ends is None else f"until {utc(ban.ends)}"
            lines.append(f"  {shown}  {until}, by {ban.by}: "
                         f"{ban.reason or 'no reason given'}")
        return "\n".join(lines)

    def rename(self, by: str, old: str, new: str) -> tuple[str, Account]:
        """Give the player ``old`` the name ``new`` (no daily limit); the former name stays
        theirs, reserved, until ``release`` frees it. What to print, and the account."""
        account = self.player(old)
        try:
            check_name(new)
            holder = self.accounts.by_name(new)
            if holder is not None and holder.id != account.id:
                raise NameRefused(f"the name {new!r} is taken: choose another")
            if new == account.name:
                raise NameRefused(f"{account.name} is called {new!r} already")
            renamed, released = self.accounts.rename(account.id, new, limited=False)
        except NameRefused as refusal:
            raise ModerationRefused(str(refusal)) from None
        self._done(by, f"renamed {account.name} to {renamed.name}"
                   + (f"; former names released: {', '.join(released)}" if released else ""))
        return (f"{account.name} is now {renamed.name} ({account.name} stays reserved to "
                f"them: release {account.name} frees it)."), renamed

    def release(self, by: str, name: str) -> str:
        """Free the reserved former name ``name``: anyone may take it."""
        try:
            check_name(name)
            holder = self.accounts.release(name)
        except NameRefused as refusal:
            raise ModerationRefused(str(refusal)) from None
        self._done(by, f"released {name}, a former name of {holder.name}")
        return f"The name {name} is free: anyone may take it ({holder.name} keeps theirs)."

    def motd(self, by: str, text: str | None) -> str:
        """Set the message of the day shown in the lobby (None: clear it)."""
        if text is None:
            if not self.store.set_motd(None, by):
                return "There is no message of the day."
            self._done(by, "cleared the message of the day")
            return "The message of the day is cleared."
        self.store.set_motd(text, by)
        self._done(by, f"set the message of the day: {text}")
        return "The message of the day is set: the lobby shows it."


def host_admin(accounts_path: Path, verb: str, name: str | None, as_json: bool,
               by: str) -> str:
    """``minefield ssh-server admin add|remove NAME``, ``admin list [--json]``, ``admin log
    [--json]`` on the host, over the players' file ``accounts_path`` (the server may be
    running: SQLite takes one writer at a time); what to print, or
    :class:`ModerationRefused`."""
    accounts = Accounts(accounts_path)
    store = ModerationStore(accounts_path)
    try:
        moderator = Moderator(accounts, store, "")
        if verb == "list":
            return moderator.admin_list(as_json)
        if verb == "log":
            return action_log(store.logged(), as_json)
        if name is None:
            raise ModerationRefused(f"admin {verb} takes a player's name: admin {verb} NAME")
        if verb == "add":
            return moderator.admin_add(by, name)
        return moderator.admin_remove(by, name)
    finally:
        store.close()
        accounts.close()


def action_log(rows: list[tuple[float, str, str]], as_json: bool) -> str:
    """The admins' latest actions (``rows``: when, who, what), newest first."""
    if as_json:
        return json.dumps([{"at": iso(at), "by": by, "action": action}
                           for at, by, action in rows])
    if not rows:
        return "No admin action yet."
    return "\n".join(f"{utc(at)}  {by}: {action}" for at, by, action in rows)


class ThreadModerators:
    """What the embedded game server asks of the moderation, from its record threads: who
    may come in (:meth:`admission`) and the message of the day (:meth:`motd`), each thread
    with connections of its own to the players' SQLite file."""

    def __init__(self, accounts_path: Path, shared_account: str) -> None:
        self.accounts_path = accounts_path
        self.shared_account = shared_account
        self._local = threading.local()

    def _moderator(self) -> Moderator:
        found: Moderator | None = getattr(self._local, "moderator", None)
        if found is None:
            found = self._local.moderator = Moderator(
                Accounts(self.accounts_path), ModerationStore(self.accounts_path),
                self.shared_account)
        return found

    def admission(self, identity: Identity, key: str | None) -> str | None:
        """:meth:`Moderator.admission`, in this thread's connections."""
        return self._moderator().admission(identity, key)

    def motd(self) -> str | None:
        """The message of the day, in this thread's connection."""
        return self._moderator().store.motd()


__all__ = ["FINGERPRINT", "MAX_REASON", "ModerationRefused", "Moderator", "ThreadModerators",
           "action_log", "ban_line", "check_fingerprint", "describe_duration", "host_admin", "iso",
           "parse_duration"]
