"""The front door's limits: who may come in, how often and how many at once.

Every refusal is one line that says what to do. Counting happens in :class:`Gate`, with the
time passed in, so tests need no clock.

>>> gate = Gate(Limits(auth_per_minute=2, pending_per_address=5))
>>> [gate.connect("10.0.0.1", 0.0) for _ in range(3)][2]
'too many connections from 10.0.0.1 in the last minute: try again in 30 s'
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass

from minefield.server.limits import TokenBucket


class Refusal(str):
    """A refusal's one line (a ``str``), with its ``reason`` for the metrics: one word of
    :data:`minefield.frontdoor.metrics.REASONS`, never a name or an address."""

    reason: str

    def __new__(cls, text: str, reason: str) -> Refusal:
        made = super().__new__(cls, text)
        made.reason = reason
        return made


def reason_of(refusal: str) -> str:
    """The metrics' reason of a refusal (``other`` for a plain one)."""
    return getattr(refusal, "reason", "other")


@dataclass(frozen=True, slots=True)
class Limits:
    """Every limit of the front door (each one a setting of ``ssh-server``)."""

    #: Sessions open at once on the whole server.
    max_sessions: int = 200
    #: Sessions open at once with one key, and from one address.
    sessions_per_key: int = 4
    sessions_per_address: int = 20
    #: Connections not yet logged in, at once, from one address.
    pending_per_address: int = 10
    #: Connections (each one an authentication) per address per minute.
    auth_per_minute: int = 30
    #: A session in the menu or at the name prompt with no key pressed this long is closed.
    idle_seconds: float = 900.0
    #: Time to log in (key exchange and authentication), and the longest a logged-in
    #: connection may keep no session open.
    login_seconds: float = 30.0


class Gate:
    """Counts connections and sessions; each check answers None (come in) or the refusal.

    A logged-in connection with no session counts as one session toward the per-address and
    total caps (:meth:`log_in`), until a session of its own takes that place over.

    >>> gate = Gate(Limits(sessions_per_address=2))
    >>> gate.log_in("10.0.0.1"), gate.log_in("10.0.0.1"), gate.log_in("10.0.0.1")
    (None, None, '10.0.0.1 already has 2 sessions open: close one first')
    """

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.pending: Counter[str] = Counter()
        self.by_address: Counter[str] = Counter()
        self.by_key: Counter[str] = Counter()
        self.sessions = 0
        #: Logged-in connections holding a place of their own (no session counted).
        self.bare: Counter[str] = Counter()
        self.bare_total = 0
        self._buckets: dict[str, TokenBucket] = {}

    def connect(self, address: str, now: float) -> str | None:
        """A new connection from ``address``; counted as pending when it may go on."""
        limits = self.limits
        if self.pending[address] >= limits.pending_per_address:
            return Refusal(f"too many connections from {address} at once: try again shortly",
                           "pending")
        bucket = self._buckets.get(address)
        if bucket is None:
            if len(self._buckets) > 100_000:  # a flood of addresses: start counting afresh
                self._buckets.clear()
            bucket = self._buckets[address] = TokenBucket(
                limits.auth_per_minute, limits.auth_per_minute / 60.0, now)
        if not bucket.take(now):
            return Refusal(f"too many connections from {address} in the last minute: try "
                           f"again in {math.ceil(bucket.wait(now))} s", "rate")
        self.pending[address] += 1
        return None

    def logged_in_or_gone(self, address: str) -> None:
        """A pending connection logged in or closed."""
        if self.pending[address] > 0:
            self.pending[address] -= 1
        if self.pending[address] == 0:
            del self.pending[address]

    def _full(self, address: str) -> str | None:
        limits = self.limits
        if self.sessions + self.bare_total >= limits.max_sessions:
            return Refusal(f"the server is full ({limits.max_sessions} sessions): try again "
                           "later", "server_full")
        if self.by_address[address] + self.bare[address] >= limits.sessions_per_address:
            return Refusal(f"{address} already has {limits.sessions_per_address} sessions "
                           "open: close one first", "address_full")
        return None

    def log_in(self, address: str) -> str | None:
        """A connection logged in: it holds a place under the caps (counted when allowed)."""
        full = self._full(address)
        if full is None:
            self.hold_connection(address)
        return full

    def hold_connection(self, address: str) -> None:
        """A logged-in connection (again) holds a place of its own."""
        self.bare[address] += 1
        self.bare_total += 1

    def release_connection(self, address: str) -> None:
        """A logged-in connection gave up its place (closed, or a session took it over)."""
        if self.bare[address] > 0:
            self.bare[address] -= 1
            self.bare_total -= 1
        if self.bare[address] <= 0:
            del self.bare[address]

    def open_session(self, address: str, fingerprint: str) -> str | None:
        """A session asked for; counted when allowed."""
        limits = self.limits
        full = self._full(address)
        if full is not None:
            return full
        if self.by_key[fingerprint] >= limits.sessions_per_key:
            return Refusal(f"this key already has {limits.sessions_per_key} sessions open: "
                           "close one first", "key_full")
        self.sessions += 1
        self.by_key[fingerprint] += 1
        self.by_address[address] += 1
        return None

    def close_session(self, address: str, fingerprint: str) -> None:
        """A counted session ended."""
        self.sessions -= 1
        for counter, name in ((self.by_key, fingerprint), (self.by_address, address)):
            counter[name] -= 1
            if counter[name] <= 0:
                del counter[name]


__all__ = ["Gate", "Limits", "Refusal", "reason_of"]
