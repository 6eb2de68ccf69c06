"""Playing a simulated deal to its end with the rules of thumb, straight on the engine's ``Deal``."""

from __future__ import annotations

from .. import actions as A
from ..cards import DIAMONDS, KING_OF_HEARTS, QUEENS
from ..contracts import Contract
from ..deal import Deal, Phase, score_deal
from .policy import FULL, Costs, costs_for, place_trix, play_trick_card, wants_double

_PLAY = int(Phase.PLAY)
_DOUBLE = int(Phase.DOUBLE)
_CLAIM = int(Phase.CLAIM)
_OVER = int(Phase.DEAL_OVER)
_TRIX = int(Contract.TRIX)
_PASS = A.PASS
# Once every card that scores has been taken, the rest of the deal changes nothing.
_SETTLED = {
    int(Contract.KING_OF_HEARTS): KING_OF_HEARTS,
    int(Contract.QUEENS): QUEENS,
    int(Contract.DIAMONDS): DIAMONDS,
}


def drive_prelude(deal: Deal, doubled: int | None = None) -> None:
    """Answer the redeal questions (no claim) and the doubling until the first card.

    ``doubled`` fixes which cards end up doubled; ``None`` lets each holder decide by the rules of thumb.
    """
    while deal.phase == _CLAIM:
        deal.apply(A.NO_CLAIM)
    while deal.phase == _DOUBLE:
        seat = deal.turn
        mine = deal.hands[seat] & ~deal.doubled
        choice = A.NO_DOUBLE
        for i, card in enumerate(A.DOUBLABLE):
            if not mine >> card & 1 or not deal.legal_actions().count(A.DOUBLE_BASE + i):
                continue
            if doubled is None:
                if wants_double(deal.rules, deal.contract, deal.hands[seat], card):
                    choice = A.DOUBLE_BASE + i
                    break
            elif doubled >> card & 1:
                choice = A.DOUBLE_BASE + i
                break
        deal.apply(choice)


def seat_costs(deal: Deal) -> list[Costs]:
    doubled = deal.doubled
    rules = deal.rules
    contract = deal.contract
    return [costs_for(rules, contract, doubled, deal.dealt[s] & doubled) for s in range(4)]


def rollout(deal: Deal) -> tuple[int, int, int, int]:
    """Play ``deal`` (in any phase) to its end with the rules of thumb for all four seats; its scores."""
    if deal.phase != _PLAY and deal.phase != _OVER:
        drive_prelude(deal)
    if deal.phase == _OVER:
        assert deal.scores is not None
        return deal.scores
    hands = deal.hands
    if deal.contract == _TRIX:
        while deal.phase == _PLAY:
            seat = deal.turn
            hand = hands[seat]
            legal = hand & deal.playable
            if legal:
                gone = FULL ^ (hands[0] | hands[1] | hands[2] | hands[3])
                deal.apply(place_trix(hand, legal, gone))
            else:
                deal.apply(_PASS)
    else:
        costs = seat_costs(deal)
        settled = _SETTLED.get(deal.contract, 0)
        while deal.phase == _PLAY:
            seat = deal.turn
            hand = hands[seat]
            gone = FULL ^ (hands[0] | hands[1] | hands[2] | hands[3])
            card = play_trick_card(costs[seat], hand, deal.legal_mask(), deal.trick, gone)
            deal.apply(card)
            if settled and not deal.trick and deal.captured & settled == settled and deal.phase == _PLAY:
                return score_deal(deal)
    assert deal.scores is not None
    return deal.scores
