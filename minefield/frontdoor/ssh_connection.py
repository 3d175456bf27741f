"""One SSH connection to ``minefield ssh-server``: its address, its key, its limits.

Only public keys authenticate; passwords, keyboard-interactive, host-based and GSS are not
offered, and certificates are not accepted (a key is its own identity). No port forwarding of
any kind. A connection refused under the limits (:mod:`.limits`) is told why after the key
exchange (the OpenSSH client shows nothing said before it); a flood is cut without a word.
Each session channel it opens is a :class:`~minefield.frontdoor.ssh_session.DoorSession`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import TYPE_CHECKING

import asyncssh

from minefield.frontdoor.door_config import LONGEST_PACKET, MAX_REFUSING
from minefield.frontdoor.limits import reason_of
from minefield.frontdoor.ssh_session import DoorSession

if TYPE_CHECKING:
    from minefield.frontdoor.server import FrontDoor

log = logging.getLogger("minefield.frontdoor")


def _why_lost(exc: Exception | None) -> str:
    """Why asyncssh says a connection ended, in the words of the log."""
    if exc is None:
        return "closed"
    text = str(exc)
    if "keepalive" in text:
        return "keepalive (the client stopped answering)"
    if "Login timeout" in text:
        return "login timeout"
    return f"closed ({text[:80]})" if text else "closed"


class DoorConnection(asyncssh.SSHServer):
    """One SSH connection: its address, its key, its limits.

    A logged-in connection holds a place under the per-address and total caps while it has no
    session counted (a session takes that place over), and one that keeps no session open is
    closed after the login timeout (``ssh -N`` would otherwise hold a connection forever).
    """

    def __init__(self, door: FrontDoor) -> None:
        self.door = door
        self.conn: asyncssh.SSHServerConnection | None = None
        self.address = "?"
        self.fingerprint: str | None = None
        self.pending = False
        self.refusal: str | None = None
        self.refused_keys: set[str] = set()
        #: Why the server closed it (None: the client or the network did).
        self.end_reason: str | None = None
        self.logged_in = False
        self.closed = False
        #: Holding a place of its own under the caps (logged in, no session counted).
        self.bare = False
        #: Session channels open, and those counted by the gate.
        self.channels = 0
        self.counted_sessions = 0
        self._no_session_timer: asyncio.TimerHandle | None = None

    def connection_made(self, conn: asyncssh.SSHServerConnection) -> None:
        self.conn = conn
        self.door.connections.add(self)
        peer = conn.get_extra_info("peername")
        self.address = str(peer[0]) if peer else "?"
        refusal = self.door.gate.connect(self.address, time.monotonic())
        if refusal is None:
            self.pending = True
            return
        log.warning("refused %s: %s", self.address, refusal)
        if self.door.refusing >= MAX_REFUSING:  # a flood: no words, no key exchange
            self.door.metrics.login_refused("flood")
            conn.abort()
            return
        self.door.metrics.login_refused(reason_of(refusal))
        # The OpenSSH client shows nothing the server says before the key exchange, so the
        # refusal waits for it and is said as a banner and as the reason of the disconnect.
        self.refusal = refusal
        self.door.refusing += 1

    def connection_lost(self, exc: Exception | None) -> None:
        self.closed = True
        self.door.connections.discard(self)
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None
        if self.bare:
            self.bare = False
            self.door.gate.release_connection(self.address)
        if self.refusal is not None:
            log.info("connection from %s ended: refused (%s)", self.address, self.refusal)
            self.refusal = None
            self.door.refusing -= 1
            return
        if self.pending:
            self.pending = False
            self.door.gate.logged_in_or_gone(self.address)
        if not self.logged_in and self.refused_keys:  # no key it offered may come in
            self.door.metrics.login_refused("not_allowed")
        why = self.end_reason or _why_lost(exc)
        log.info("connection of %s from %s ended: %s", self.fingerprint or "no key",
                 self.address, why)

    def close(self, why: str, reason: str, code: int = asyncssh.DISC_BY_APPLICATION) -> None:
        """Close the connection, logging ``why`` and telling the client ``reason``."""
        if self.closed or self.conn is None:
            return
        self.end_reason = why
        self.conn.disconnect(code, f"minefield: {reason}")

    # -- sessions held ------------------------------------------------------------------------

    def channel_opened(self) -> None:
        """A session channel opened: the connection is in use."""
        self.channels += 1
        if self._no_session_timer is not None:
            self._no_session_timer.cancel()
            self._no_session_timer = None

    def channel_closed(self) -> None:
        """A session channel closed; with none left, the login timeout runs again."""
        self.channels -= 1
        if self.channels <= 0:
            self._expect_session()

    def _expect_session(self) -> None:
        if self.closed or not self.logged_in or self._no_session_timer is not None:
            return
        seconds = self.door.config.limits.login_seconds
        self._no_session_timer = asyncio.get_running_loop().call_later(
            seconds, self._no_session)

    def _no_session(self) -> None:
        self._no_session_timer = None
        if self.channels <= 0:
            seconds = self.door.config.limits.login_seconds
            self.close(f"login timeout (no session for {seconds:g} s)",
                       f"no session opened in {seconds:g} s: closing")

    def session_counted(self) -> None:
        """A session of this connection is about to be counted: it takes the connection's
        place under the caps."""
        if self.bare:
            self.bare = False
            self.door.gate.release_connection(self.address)

    def session_uncounted(self, counted: bool) -> None:
        """A session was refused (``counted`` False) or ended; with none counted, the
        connection holds its own place again."""
        if counted:
            self.counted_sessions -= 1
        if self.counted_sessions <= 0 and self.logged_in and not self.closed and not self.bare:
            self.bare = True
            self.door.gate.hold_connection(self.address)

    def begin_auth(self, username: str) -> bool:
        if self.refusal is not None and self.conn is not None:
            self.conn.send_auth_banner(f"minefield: {self.refusal}\r\n")
            self.conn.disconnect(asyncssh.DISC_TOO_MANY_CONNECTIONS,
                                 f"minefield: {self.refusal}")
        return True

    def public_key_auth_supported(self) -> bool:
        return True

    def password_auth_supported(self) -> bool:
        return False

    def kbdint_auth_supported(self) -> bool:
        return False

    def host_based_auth_supported(self) -> bool:
        return False

    def validate_public_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        fingerprint = key.get_fingerprint("sha256")
        if not self.door.admits(fingerprint, self.address):
            if fingerprint not in self.refused_keys:
                self.refused_keys.add(fingerprint)
                log.info("key %s from %s is not on the allow-list", fingerprint, self.address)
                if self.conn is not None:
                    self.conn.send_auth_banner(
                        f"minefield: the key {fingerprint} is not allowed on this server: "
                        "ask its owner to add it\r\n")
            return False
        self.fingerprint = fingerprint  # the last key checked is the one that signs (RFC 4252)
        return True

    def validate_ca_key(self, username: str, key: asyncssh.SSHKey) -> bool:
        return False  # certificates are not accepted: a key is its own identity

    def auth_completed(self) -> None:
        if self.pending:
            self.pending = False
            self.door.gate.logged_in_or_gone(self.address)
        full = self.door.gate.log_in(self.address)
        if full is not None:
            log.warning("refused login of %s from %s: %s", self.fingerprint, self.address,
                        full)
            self.door.metrics.login_refused(reason_of(full))
            self.close(f"cap ({full})", full, asyncssh.DISC_TOO_MANY_CONNECTIONS)
            return
        self.bare = self.logged_in = True
        self.door.metrics.logins.inc()
        log.info("login %s from %s", self.fingerprint, self.address)
        if self.conn is not None and hasattr(self.conn, "_max_recv_pktlen"):
            # asyncssh cuts a packet over 256 KiB with a protocol error; a logged-in client's
            # long command (a paste gone wrong) gets the one-line refusal of any long one.
            self.conn._max_recv_pktlen = max(self.conn._max_recv_pktlen, LONGEST_PACKET)
        self._expect_session()

    def session_requested(self) -> DoorSession:
        return DoorSession(self.door, self)

    def connection_requested(self, dest_host: str, dest_port: int, orig_host: str,
                             orig_port: int) -> bool:
        log.info("refused port forwarding for %s from %s", self.fingerprint, self.address)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "minefield: no port forwarding here")

    def server_requested(self, listen_host: str, listen_port: int) -> bool:
        log.info("refused remote forwarding for %s from %s", self.fingerprint, self.address)
        return False

    def unix_connection_requested(self, dest_path: str) -> bool:
        log.info("refused socket forwarding for %s from %s", self.fingerprint, self.address)
        raise asyncssh.ChannelOpenError(asyncssh.OPEN_ADMINISTRATIVELY_PROHIBITED,
                                        "minefield: no forwarding here")

    def unix_server_requested(self, listen_path: str) -> bool:
        log.info("refused socket forwarding for %s from %s", self.fingerprint, self.address)
        return False


__all__ = ["DoorConnection"]
