"""Means with 95% confidence intervals, and percentiles of move times."""

from __future__ import annotations

import functools
import math
from array import array
from collections import Counter
from collections.abc import Sequence
from typing import Any

Z95 = 1.959964  # the normal quantile, which t95 approaches as the count grows


def _betacf(a: float, b: float, x: float) -> float:
    """The continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    c, d = 1.0, 1.0 - (a + b) * x / (a + 1.0)
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 1000):
        for num in (
            m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)),
            -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1)),
        ):
            d = 1.0 + num * d
            d = 1.0 / (d if abs(d) > tiny else tiny)
            c = 1.0 + num / c
            c = c if abs(c) > tiny else tiny
            h *= d * c
        if abs(d * c - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    front = math.exp(math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b) + a * math.log(x) + b * math.log1p(-x))
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_quantile(p: float, df: int) -> float:
    """The p-quantile (p above 0.5) of Student's t distribution with ``df`` degrees of freedom."""
    if not 0.5 <= p < 1.0 or df < 1:
        raise ValueError(f"t_quantile needs 0.5 <= p < 1 and df >= 1, not p={p!r}, df={df!r}")
    tail = 1.0 - p  # P(T > t) = I_{df/(df+t^2)}(df/2, 1/2) / 2, falling in t: bisect
    lo, hi = 0.0, 1.0
    while _betainc(df / 2, 0.5, df / (df + hi * hi)) / 2 > tail:
        hi *= 2
    for _ in range(200):
        mid = (lo + hi) / 2
        if _betainc(df / 2, 0.5, df / (df + mid * mid)) / 2 > tail:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * hi:
            break
    return (lo + hi) / 2


@functools.cache
def t95(df: int) -> float:
    """The two-sided 95% quantile of Student's t: 12.706 for 1 degree of freedom, 1.962 for 999."""
    return t_quantile(0.975, df)


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean, 95% half-width (Student's t, n - 1 degrees of freedom) and count; no interval below two values."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None}
    m = sum(values) / n
    if n < 2:
        return {"n": n, "mean": m, "ci95": None}
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return {"n": n, "mean": m, "ci95": t95(n - 1) * math.sqrt(var / n)}


def percentile(values: Sequence[float], q: float) -> float | None:
    """The q-th percentile (0–100), linear between the closest ranks."""
    if not values:
        return None
    s = sorted(values)
    pos = (len(s) - 1) * q / 100
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


def timing(ms: Sequence[float]) -> dict[str, Any]:
    return {"moves": len(ms), "median_ms": percentile(ms, 50), "p95_ms": percentile(ms, 95)}


class MoveTimes:
    """Every move time of a run, in bounded memory: kept exactly up to ``exact`` of them (8 bytes
    each), then counted in buckets 0.1% wide, so a run of millions of deals neither grows without end
    nor sorts a list of its size. Percentiles read from the buckets are within 0.05% of the exact ones
    (a bucket's middle, on a log scale), far finer than the 0.1 ms the table prints."""

    STEP = math.log1p(0.001)

    def __init__(self, exact: int = 100_000) -> None:
        self.exact = exact
        self.values: array[float] | None = array("d")
        self.buckets: Counter[int] = Counter()
        self.moves = 0

    def add(self, ms: Sequence[float]) -> None:
        self.moves += len(ms)
        if self.values is not None:
            self.values.extend(ms)
            if len(self.values) <= self.exact:
                return
            ms, self.values = self.values, None  # too many to keep: every one goes into a bucket
        for t in ms:
            self.buckets[self._bucket(t)] += 1

    @classmethod
    def _bucket(cls, t: float) -> int:
        return math.floor(math.log(t) / cls.STEP) if t > 1e-9 else -(10**9)  # a zero (a clock's tick) apart

    @classmethod
    def _middle(cls, b: int) -> float:
        return 0.0 if b == -(10**9) else math.exp((b + 0.5) * cls.STEP)

    def percentile(self, q: float) -> float | None:
        if self.values is not None:
            return percentile(self.values, q)
        if not self.moves:
            return None
        rank = (self.moves - 1) * q / 100  # between two closest ranks, as ``percentile`` reads a list
        lo = math.floor(rank)
        at: list[float] = []
        seen = 0
        for b in sorted(self.buckets):
            seen += self.buckets[b]
            while len(at) < 2 and seen > lo + len(at):
                at.append(self._middle(b))
            if len(at) == 2:
                break
        if len(at) < 2:  # the last rank: nothing above it
            at.append(at[0])
        return at[0] + (at[1] - at[0]) * (rank - lo)

    def summary(self) -> dict[str, Any]:
        """As ``timing`` gives it for a list of the same times."""
        return {"moves": self.moves, "median_ms": self.percentile(50), "p95_ms": self.percentile(95)}
