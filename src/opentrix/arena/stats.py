"""Means with 95% confidence intervals, and percentiles of move times."""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

Z95 = 1.959964


def mean_ci(values: Sequence[float]) -> dict[str, Any]:
    """Mean, 95% half-width (normal approximation) and count; no interval below two values."""
    n = len(values)
    if n == 0:
        return {"n": 0, "mean": None, "ci95": None}
    m = sum(values) / n
    if n < 2:
        return {"n": n, "mean": m, "ci95": None}
    var = sum((v - m) ** 2 for v in values) / (n - 1)
    return {"n": n, "mean": m, "ci95": Z95 * math.sqrt(var / n)}


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
