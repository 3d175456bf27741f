"""Rate limits: a token bucket, with time passed in (so tests need no clock), and the caps on
connections (in total, per account before the hello, per person).

>>> bucket = TokenBucket(capacity=2, per_second=1.0, now=0.0)
>>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)
(True, True, False, True)
>>> bucket.wait(1.0)
1.0
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field


class TokenBucket:
    """Holds up to ``capacity`` tokens, refilled at ``per_second``; each action takes one."""

    __slots__ = ("capacity", "per_second", "tokens", "updated")

    def __init__(self, capacity: float, per_second: float, now: float) -> None:
        self.capacity = capacity
        self.per_second = per_second
        self.tokens = capacity
        self.updated = now

    def _refill(self, now: float) -> None:
        if now > self.updated:
            self.tokens = min(self.capacity,
                              self.tokens + (now - self.updated) * self.per_second)
            self.updated = now

    def take(self, now: float, amount: float = 1.0) -> bool:
        """Take ``amount`` tokens if there are that many; False (nothing taken) if not."""
        self._refill(now)
        if self.tokens >= amount:
            self.tokens -= amount
            return True
        return False

    def available(self, now: float) -> bool:
        """True when one token could be taken now."""
        self._refill(now)
        return self.tokens >= 1.0

    def wait(self, now: float) -> float:
        """Seconds until one token is available (0 if one is now)."""
        self._refill(now)
        return max(0.0, (1.0 - self.tokens) / self.per_second)


@dataclass(slots=True)
class ConnectionCaps:
    """Counts the daemon's connections and says which new one is over a cap.

    A connection is first *unnamed*: only its Unix account is known (``SO_PEERCRED``). After
    its hello it is *named*: its person is known (the account, or ``player@account`` from the
    shared account). The caps:

    * ``total``: connections of any kind at once (the server is full);
    * ``unnamed_per_account``: connections of one account that have not said hello yet;
    * ``per_person``: connections of one person, unnamed ones included for an account that is
      one person (every account but the shared one).

    >>> caps = ConnectionCaps(total=3, unnamed_per_account=5, per_person=2, shared="games")
    >>> caps.refuse_new("ann"), caps.add("ann"), caps.refuse_new("ann")
    (None, None, None)
    >>> caps.add("ann"); caps.refuse_new("ann")
    'too many connections for one player (2): close a window or wait a moment'
    >>> caps.add("games"); caps.refuse_new("games")
    'the server is full (3 connections): try again in a minute'
    """

    total: int
    unnamed_per_account: int
    per_person: int
    shared: str | None = None
    count: int = 0
    unnamed: Counter[str] = field(default_factory=Counter)
    named: Counter[str] = field(default_factory=Counter)

    def refuse_new(self, account: str) -> str | None:
        """Why a new connection from ``account`` is refused (None: it is accepted)."""
        if self.count >= self.total:
            return f"the server is full ({self.total} connections): try again in a minute"
        if self.unnamed[account] >= self.unnamed_per_account:
            return (f"too many connections from the account {account} waiting to say hello "
                    f"({self.unnamed_per_account}): try again in a moment")
        if account != self.shared and (self.unnamed[account] + self.named[account]
                                       >= self.per_person):
            return self._per_person()
        return None

    def refuse_named(self, account: str, person: str) -> str | None:
        """Why the hello of ``account``'s connection naming ``person`` is refused."""
        others = self.named[person] + (self.unnamed[account] - 1 if person == account else 0)
        return self._per_person() if others >= self.per_person else None

    def _per_person(self) -> str:
        return (f"too many connections for one player ({self.per_person}): close a window or "
                "wait a moment")

    def add(self, account: str) -> None:
        """A new unnamed connection from ``account`` (after :meth:`refuse_new` said None)."""
        self.count += 1
        self.unnamed[account] += 1

    def name(self, account: str, person: str) -> None:
        """``account``'s unnamed connection is now ``person``'s."""
        self._drop(self.unnamed, account)
        self.named[person] += 1

    def remove(self, account: str, person: str | None) -> None:
        """A connection closed (``person`` None: it never was named)."""
        self.count -= 1
        if person is None:
            self._drop(self.unnamed, account)
        else:
            self._drop(self.named, person)

    @staticmethod
    def _drop(counter: Counter[str], key: str) -> None:
        counter[key] -= 1
        if counter[key] <= 0:
            del counter[key]


class LogThrottle:
    """At most one log line per key every ``seconds`` (a flood of refused connections must not
    flood the log); :meth:`allow` says how many lines were held back since the last one.

    >>> throttle = LogThrottle(60.0)
    >>> throttle.allow("ann", 0.0), throttle.allow("ann", 1.0), throttle.allow("ann", 2.0)
    (0, None, None)
    >>> throttle.allow("bob", 2.0), throttle.allow("ann", 61.0)
    (0, 2)
    """

    __slots__ = ("_held", "_last", "seconds")

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds
        self._last: dict[str, float] = {}
        self._held: Counter[str] = Counter()

    def allow(self, key: str, now: float) -> int | None:
        """None: hold this line back; else log it, with this many held back before it."""
        last = self._last.get(key)
        if last is not None and now - last < self.seconds:
            self._held[key] += 1
            return None
        self._last[key] = now
        return self._held.pop(key, 0)


__all__ = ["ConnectionCaps", "LogThrottle", "TokenBucket"]
