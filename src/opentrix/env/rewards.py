"""What a seat is paid for a deal, shared by the PettingZoo, Gymnasium and OpenSpiel adapters."""

from __future__ import annotations

from collections.abc import Sequence

from ..rules import Rules


def seat_rewards(rules: Rules, scores: Sequence[int]) -> tuple[float, float, float, float]:
    """What each seat is paid for a deal: its score, or in partnership play its team's (its own plus
    its partner's), since teams win there, and a seat paid alone would gain by taking from its partner."""
    if rules.partnership:
        return tuple(float(scores[s] + scores[s ^ 2]) for s in range(4))  # type: ignore[return-value]
    return tuple(float(x) for x in scores)  # type: ignore[return-value]
