"""Invitations and quick match: two players of the lobby seated together in a new room.

An invitation names a player in the lobby (:class:`~minefield.protocol.lobby.Invite`): they
are sent an :class:`~minefield.protocol.lobby.Invitation` (``open``) and answer it (accept or
decline) within :data:`INVITE_SECONDS`; the inviter sees every change (declined, expired,
gone). A quick match (:class:`~minefield.protocol.lobby.QuickMatch`) pairs a player with the
next one who asks, oldest first; after :data:`BOT_OFFER_SECONDS` alone a bot is offered
(:class:`~minefield.protocol.lobby.Matching` ``bot_offer``) and the player may take it or go
on waiting. Either way the daemon makes a private room with both seats held (the rules of a
``standard`` single game; a quick match rated, an invitation casual unless it asks to be
rated, R36) and sends each player :class:`~minefield.protocol.lobby.Seated`: its
game id, to ``resume``. The room itself is the daemon's (:attr:`Invites.pair`), so the open
games limit and everything else of a hosted room hold.

Everything here runs in the daemon's event loop; a connection that leaves the lobby takes its
invitations and its place in the queue with it (:meth:`Invites.left`).
"""

from __future__ import annotations

import asyncio
import logging
import math
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field

from minefield.bots.base import bot_name
from minefield.errors import MinefieldError
from minefield.protocol.lobby import (
    AnswerInvitation,
    Cancel,
    Invitation,
    Invite,
    LobbyMessage,
    Matching,
    QuickMatch,
    Seated,
)
from minefield.protocol.wire import WireError
from minefield.records.header import TableKind
from minefield.server.connection import Connection
from minefield.server.identity import Identity

log = logging.getLogger("minefield.server")

#: How long an invitation waits for its answer.
INVITE_SECONDS = 60.0
#: How long a quick match waits alone before a bot is offered (waiting goes on).
BOT_OFFER_SECONDS = 30.0
#: The bot offered to a quick match nobody answered.
OFFERED_BOT = "normal"
#: Open invitations one player may be sent at a time (more is refused: no flooding).
MAX_INVITED = 3


class PairRefused(MinefieldError):
    """A room cannot be made for these players (the message says why, e.g. open games)."""


#: Makes a room for ``first`` and ``second`` (None: the ``bot`` plays), returns its game id;
#: :class:`PairRefused` when it cannot.
#: The last two: the kind of table (``invitation``, ``quick``) and whether it is rated (R36).
Pair = Callable[[Identity, Identity | None, str | None, TableKind, bool], str]


@dataclass(eq=False)
class _Invitation:
    id: str
    by: Connection
    to: Identity
    rated: bool = False
    timer: asyncio.TimerHandle | None = field(default=None, repr=False)

    def message(self, state: str, seconds: int = 0) -> Invitation:
        assert self.by.identity is not None
        return Invitation(id=self.id, by=self.by.identity.name, to=self.to.name,
                          state=state, seconds=seconds, rated=self.rated)


def _identity(conn: Connection) -> Identity:
    assert conn.identity is not None  # a lobby connection has said hello
    return conn.identity


class Invites:
    """The lobby's invitations and quick-match queue (one per daemon)."""

    def __init__(self, members: set[Connection], pair: Pair) -> None:
        self.members = members
        self.pair = pair
        self.invitations: dict[str, _Invitation] = {}
        #: Waiting for a quick match, oldest first, with the timer of each one's bot offer.
        self.queue: dict[Connection, asyncio.TimerHandle] = {}

    # -- whom -----------------------------------------------------------------------------------

    def _lobby_of(self, identity: Identity) -> list[Connection]:
        return [c for c in self.members
                if c.identity is not None and c.identity.key == identity.key]

    def _find(self, name: str) -> Identity | None:
        folded = name.casefold()
        for conn in self.members:
            if conn.identity is not None and conn.identity.name.casefold() == folded:
                return conn.identity
        return None

    def _tell(self, invitation: _Invitation, state: str, seconds: int = 0) -> None:
        message = invitation.message(state, seconds)
        invitation.by.send(message)
        for conn in self._lobby_of(invitation.to):
            conn.send(message)

    def _end(self, invitation: _Invitation, state: str) -> None:
        self.invitations.pop(invitation.id, None)
        if invitation.timer is not None:
            invitation.timer.cancel()
        self._tell(invitation, state)

    # -- what lobby connections ask ----------------------------------------------------------

    def handle(self, conn: Connection, message: LobbyMessage) -> None:
        """Serve one lobby message (a ping is the lobby's); errors go back as one line."""
        if isinstance(message, Invite):
            self._invite(conn, message.player, message.rated)
        elif isinstance(message, AnswerInvitation):
            self._answer(conn, message.invitation, message.accept)
        elif isinstance(message, QuickMatch):
            self._quick(conn, message.bot)
        elif isinstance(message, Cancel):
            self._cancel(conn)

    def _invite(self, conn: Connection, name: str, rated: bool) -> None:
        me = _identity(conn)
        target = self._find(name)
        if target is None:
            conn.send(WireError(code="not_allowed", message=f"{name[:40]} is not in the lobby "
                                "now: only players in the lobby can be invited"))
            return
        if target.key == me.key:
            conn.send(WireError(code="not_allowed", message="you cannot invite yourself"))
            return
        mine = next((i for i in self.invitations.values() if i.by is conn), None)
        if mine is not None:
            conn.send(WireError(code="not_allowed", message=f"you have already invited "
                                f"{mine.to.name}: wait for the answer, or cancel it"))
            return
        if sum(1 for i in self.invitations.values() if i.to.key == target.key) >= MAX_INVITED:
            conn.send(WireError(code="rate_limited", message=f"{target.name} has "
                                f"{MAX_INVITED} invitations waiting already: try later"))
            return
        self._leave_queue(conn, tell=True)
        invitation = _Invitation(secrets.token_hex(4), conn, target, rated)
        while invitation.id in self.invitations:  # pragma: no cover - 32 bits
            invitation.id = secrets.token_hex(4)
        self.invitations[invitation.id] = invitation
        invitation.timer = asyncio.get_running_loop().call_later(
            INVITE_SECONDS, self._expire, invitation.id)
        self._tell(invitation, "open", math.ceil(INVITE_SECONDS))
        log.info("%s: invited a player", repr(conn))

    def _expire(self, invitation_id: str) -> None:
        invitation = self.invitations.get(invitation_id)
        if invitation is not None:
            self._end(invitation, "expired")

    def _answer(self, conn: Connection, invitation_id: str, accept: bool) -> None:
        me = _identity(conn)
        invitation = self.invitations.get(invitation_id)
        if invitation is None or invitation.to.key != me.key:
            conn.send(WireError(code="not_allowed", message="no such invitation: it has "
                                "expired or been withdrawn"))
            return
        if not accept:
            self._end(invitation, "declined")
            return
        self.invitations.pop(invitation.id, None)
        if invitation.timer is not None:
            invitation.timer.cancel()
        inviter = _identity(invitation.by)
        self._seat(inviter, me, None, [invitation.by, conn], "invitation", invitation.rated)

    def _quick(self, conn: Connection, bot: str | None) -> None:
        me = _identity(conn)
        if bot is not None:
            self._leave_queue(conn, tell=False)
            self._seat(me, None, bot, [conn], "bot", False)
            return
        if conn in self.queue:
            conn.send(Matching(state="waiting"))
            return
        other = next((c for c in self.queue if _identity(c).key != me.key), None)
        if other is not None:
            self._leave_queue(other, tell=False)
            self._seat(_identity(other), me, None, [other, conn], "quick", True)
            return
        self.queue[conn] = asyncio.get_running_loop().call_later(
            BOT_OFFER_SECONDS, self._offer_bot, conn)
        conn.send(Matching(state="waiting"))

    def _offer_bot(self, conn: Connection) -> None:
        if conn in self.queue:
            conn.send(Matching(state="bot_offer", bot=OFFERED_BOT))

    def _leave_queue(self, conn: Connection, tell: bool) -> None:
        timer = self.queue.pop(conn, None)
        if timer is not None:
            timer.cancel()
            if tell:
                conn.send(Matching(state="cancelled"))

    def _cancel(self, conn: Connection) -> None:
        self._leave_queue(conn, tell=True)
        for invitation in [i for i in self.invitations.values() if i.by is conn]:
            self._end(invitation, "cancelled")

    def _seat(self, first: Identity, second: Identity | None, bot: str | None,
              told: list[Connection], kind: TableKind, rated: bool) -> None:
        """A room for the pair (at a table of ``kind``, ``rated`` or casual); each of
        ``told`` is sent :class:`Seated` (or why not)."""
        try:
            game = self.pair(first, second, bot, kind, rated)
        except PairRefused as refusal:
            for conn in told:
                conn.send(WireError(code="not_allowed", message=str(refusal)))
            return
        for conn in told:
            me = _identity(conn)
            opponent = (bot_name(str(bot)) if second is None
                        else second.name if me.key == first.key else first.name)
            conn.send(Seated(game=game, opponent=opponent))
        log.info("game %s: a room made in the lobby (%s)", game,
                 "a bot" if second is None else "two players")

    def left(self, conn: Connection) -> None:
        """``conn`` left the lobby: its place in the queue and its invitations go (the other
        side is told); invitations to a player with no other lobby connection go too."""
        self._leave_queue(conn, tell=False)
        identity = conn.identity
        for invitation in list(self.invitations.values()):
            if invitation.by is conn:
                self._end(invitation, "cancelled")
            elif identity is not None and invitation.to.key == identity.key and not any(
                    c is not conn for c in self._lobby_of(identity)):
                self._end(invitation, "gone")


__all__ = ["BOT_OFFER_SECONDS", "INVITE_SECONDS", "MAX_INVITED", "OFFERED_BOT", "Invites",
           "Pair", "PairRefused"]
