"""A stored match laid out for the replay viewer: every deal with all four hands and each play in order."""

from __future__ import annotations

from typing import Any

from .. import actions as A
from ..cards import card_name, cards_of
from ..contracts import Contract
from ..record import Record


def _trick_winner(leader: int, cards: list[int]) -> int:
    top = (cards[0] // 13) * 13 + 12
    best, idx = cards[0], 0
    for i, c in enumerate(cards[1:], start=1):
        if best < c <= top:
            best, idx = c, i
    return (leader + idx) & 3


def replay_frames(record: Record) -> dict[str, Any]:
    """Deals with dealt hands, contract, king, doubled cards, plays (seat, card, trick winner) and scores.

    Raises ``RecordError`` for a record the rules reject.
    """
    match = record.replay()
    deals = []
    totals = [0, 0, 0, 0]
    for d in match.deals:
        steps: list[dict[str, Any]] = []
        trick: list[int] = []
        leader = d.king
        for seat, action in zip(d.seats, d.plays, strict=True):
            step: dict[str, Any] = {"seat": seat, "play": A.to_str(action), "winner": None}
            if d.contract != Contract.TRIX:
                if not trick:
                    leader = seat
                trick.append(action)
                if len(trick) == 4:
                    step["winner"] = _trick_winner(leader, trick)
                    trick = []
            steps.append(step)
        scores = list(d.scores) if d.scores is not None else None
        if scores is not None:
            totals = [t + s for t, s in zip(totals, scores, strict=True)]
        deals.append(
            {
                "king": d.king,
                "contract": Contract(d.contract).id,
                "doubled": [card_name(c) for c in cards_of(d.doubled)],
                "thrown_in": d.thrown_in,
                "hands": [[card_name(c) for c in sorted(cards_of(h), reverse=True)] for h in d.dealt],
                "steps": steps,
                "scores": scores,
                "totals": list(totals),
            }
        )
    return {
        "rules": match.rules.option_dict(),
        "players": record.players,
        "deals": deals,
        "totals": list(match.totals),
        "match_over": match.is_over,
        "winners": list(match.winners),
    }
