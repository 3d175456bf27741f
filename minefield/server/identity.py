"""Who is on the other end of the socket: the peer's Unix user, from the kernel.

``SO_PEERCRED`` gives the pid, uid and gid of the process that connected; its user name is the
player. One exception: the daemon's *shared account* (``serve --shared-account USER``), an SSH
account with one ``authorized_keys`` line per person whose forced command names the player
(``--player NAME``). Only connections from that account may choose a name; anyone else is
their Unix user, whatever they ask for.

>>> identify(Peer(pid=1, uid=1000, gid=1000), None, None, user="ann").key
'ann'
>>> identify(Peer(pid=1, uid=1000, gid=1000), "bob", "games", user="games")
Identity(key='bob@games', name='bob')
>>> identify(Peer(pid=1, uid=1000, gid=1000), "bob", "games", user="ann").key
'ann'
"""

from __future__ import annotations

import pwd
import socket
import struct
from dataclasses import dataclass

from minefield.errors import MinefieldError

_UCRED = struct.Struct("3i")  # struct ucred: pid, uid, gid


class IdentityError(MinefieldError, ValueError):
    """The peer cannot be identified or may not play (the message says why)."""


@dataclass(frozen=True, slots=True)
class Peer:
    """The process at the other end of a Unix socket."""

    pid: int
    uid: int
    gid: int


@dataclass(frozen=True, slots=True)
class Identity:
    """A player: ``key`` is unique (a Unix user, or ``name@shared-account``), ``name`` is shown."""

    key: str
    name: str


def peer_credentials(sock: socket.socket) -> Peer:
    """The credentials of the peer of a connected Unix socket (Linux ``SO_PEERCRED``)."""
    option = getattr(socket, "SO_PEERCRED", None)
    if option is None:
        raise IdentityError("this system cannot tell who connected (no SO_PEERCRED)")
    data = sock.getsockopt(socket.SOL_SOCKET, option, _UCRED.size)
    pid, uid, gid = _UCRED.unpack(data)
    return Peer(pid=pid, uid=uid, gid=gid)


def user_name(uid: int) -> str:
    """The login name of ``uid`` (``uid1234`` when it has no passwd entry)."""
    try:
        return pwd.getpwuid(uid).pw_name
    except KeyError:
        return f"uid{uid}"


def identify(peer: Peer, player: str | None, shared_account: str | None,
             user: str | None = None) -> Identity:
    """The player behind ``peer``: its Unix user, or ``player`` if it is the shared account.

    ``user`` is the peer's user name (looked up from its uid when not given). The shared
    account must name a player: used bare, it would be one player shared by everyone.
    """
    user = user if user is not None else user_name(peer.uid)
    if shared_account is not None and user == shared_account:
        if player is None:
            raise IdentityError(f"the account {user} is shared: connect through its SSH entry, "
                                "which names the player")
        return Identity(key=f"{player}@{user}", name=player)
    return Identity(key=user, name=user[:40])


def display_name(key: str) -> str:
    """The name shown for an identity key (a record's player string).

    >>> display_name("bob@games"), display_name("ann")
    ('bob', 'ann')
    """
    return key.split("@", 1)[0][:40] or "?"


__all__ = ["Identity", "IdentityError", "Peer", "display_name", "identify", "peer_credentials",
           "user_name"]
