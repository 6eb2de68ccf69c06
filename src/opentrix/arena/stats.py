"""Means with 95% confidence intervals, and percentiles of move times."""

from __future__ import annotations

import functools
import math
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
