"""What a seat is paid for a deal, shared by the PettingZoo, Gymnasium and OpenSpiel adapters."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from ..contracts import Contract
from ..deal import Deal
from ..rules import Rules


def seat_rewards(rules: Rules, scores: Sequence[int]) -> tuple[float, float, float, float]:
    """What each seat is paid for a deal: its score, or in partnership play its team's (its own plus
    its partner's), since teams win there, and a seat paid alone would gain by taking from its partner."""
    if rules.partnership:
        return tuple(float(scores[s] + scores[s ^ 2]) for s in range(4))  # type: ignore[return-value]
    return tuple(float(x) for x in scores)  # type: ignore[return-value]


def deal_ended(info: Mapping[str, Any], deal: Deal) -> dict[str, Any]:
    """An agent's ``info`` once ``deal`` is over. ``deals_ended`` lists every deal that ended since the
    agent last acted, oldest first (``deal_scores``, ``contract``, ``thrown_in``); ``deal_scores`` and
    ``contract`` are the last of them that was played out, so a deal thrown in right after a scored
    one (it scores nothing) does not hide that one's scores."""
    assert deal.scores is not None
    entry = {
        "deal_scores": deal.scores,
        "contract": Contract(deal.contract).id,
        "thrown_in": deal.thrown_in is not None,
    }
    ended = [*info.get("deals_ended", ()), entry]
    shown = next((e for e in reversed(ended) if not e["thrown_in"]), entry)
    return {**info, "deals_ended": ended, "deal_scores": shown["deal_scores"], "contract": shown["contract"]}
