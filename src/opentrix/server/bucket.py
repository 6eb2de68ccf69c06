"""The token bucket every limit of the server is made of (per address, per connection, per table)."""

from __future__ import annotations

import time


class TokenBucket:
    """``rate`` events a second on average, ``burst`` at once: the usual shape of a fair limit."""

    __slots__ = ("burst", "rate", "stamp", "tokens")

    def __init__(self, rate: float, burst: float) -> None:
        self.rate = rate
        self.burst = burst
        self.tokens = burst
        self.stamp = time.monotonic()

    def _refill(self, now: float) -> None:
        self.tokens = min(self.burst, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def ready(self) -> bool:
        """Whether one more event would be allowed (without counting one)."""
        self._refill(time.monotonic())
        return self.tokens >= 1

    def full(self) -> bool:
        """Whether the bucket has filled up again (nothing to remember about its client)."""
        self._refill(time.monotonic())
        return self.tokens >= self.burst

    def wait(self) -> float:
        """Seconds until one more event is allowed (0 if it is now)."""
        self._refill(time.monotonic())
        return 0.0 if self.tokens >= 1 else (1 - self.tokens) / self.rate

    def take(self) -> bool:
        """Count one event; False when the limit is reached (the event should be refused)."""
        self._refill(time.monotonic())
        if self.tokens < 1:
            return False
        self.tokens -= 1
        return True
