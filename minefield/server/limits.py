"""Rate limits: a token bucket, with time passed in (so tests need no clock).

>>> bucket = TokenBucket(capacity=2, per_second=1.0, now=0.0)
>>> bucket.take(0.0), bucket.take(0.0), bucket.take(0.0), bucket.take(1.0)
(True, True, False, True)
>>> bucket.wait(1.0)
1.0
"""

from __future__ import annotations


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


__all__ = ["TokenBucket"]
