"""Playing a simulated deal to its end with the rules of thumb, straight on the engine's ``Deal``."""

from __future__ import annotations

from .. import actions as A
from ..cards import DIAMONDS, KING_OF_HEARTS, QUEENS, cards_of
from ..contracts import Contract
from ..deal import DOUBLABLE_IN, Deal, Phase, score_deal
from .policy import FULL, Costs, costs_for, doubles, place_trix, play_trick_card

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
    allowed = DOUBLABLE_IN.get(deal.contract, 0)
    while deal.phase == _DOUBLE:
        hand = deal.hands[deal.turn]
        mine = hand & allowed
        if doubled is None:
            want = doubles(deal.rules, deal.contract, hand, mine)
        else:
            want = mine & doubled
        deal.apply(A.double_mask(want))  # one answer per seat: every card it doubles


def seat_costs(deal: Deal) -> list[Costs]:
    doubled = deal.doubled
    rules = deal.rules
    contract = deal.contract
    return [costs_for(rules, contract, doubled, deal.dealt[s] & doubled) for s in range(4)]


def rollout(deal: Deal, me: int = -1, endgame: int = 0) -> tuple[int, int, int, int]:
    """Play ``deal`` (in any phase) to its end with the rules of thumb for all four seats; its scores.

    With ``endgame`` (trick contracts), seat ``me`` plays its last ``endgame`` tricks as well as it can
    against the others' rules of thumb (``best_finish``) instead of by them.
    """
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
        tail = 52 - 4 * endgame if endgame > 0 and me >= 0 else 99
        return _finish(deal, seat_costs(deal), _SETTLED.get(deal.contract, 0), me, _keys(deal, me), tail)[1]
    assert deal.scores is not None
    return deal.scores


def to_turn(deal: Deal, me: int, costs: list[Costs]) -> tuple[int, int, int, int] | None:
    """Play a trick contract on by the rules of thumb until ``me`` is to play; the scores if it ends first.

    What the others play on the way is what ``me`` will have seen by its next decision.
    """
    settled = _SETTLED.get(deal.contract, 0)
    while deal.phase == _PLAY and deal.turn != me:
        if _thumb_card(deal, costs, settled):
            return score_deal(deal)
    if deal.phase == _OVER:
        assert deal.scores is not None
        return deal.scores
    return None


def _thumb_card(deal: Deal, costs: list[Costs], settled: int) -> bool:
    """The seat to play plays its rule-of-thumb card; whether that settled the deal (every scoring card taken)."""
    hands = deal.hands
    gone = FULL ^ (hands[0] | hands[1] | hands[2] | hands[3])
    deal.apply(play_trick_card(costs[deal.turn], hands[deal.turn], deal.legal_mask(), deal.trick, gone))
    return bool(settled) and not deal.trick and deal.captured & settled == settled and deal.phase == _PLAY


def _keys(deal: Deal, me: int) -> tuple[int, ...]:
    if me < 0:
        return ()
    return (me, me ^ 2) if deal.rules.partnership else (me,)


def best_finish(deal: Deal, me: int) -> tuple[int, int, int, int]:
    """The scores when ``me`` plays the rest of a trick contract to its best and the others by the rules of thumb.

    With the others' play fixed by their hands, ``me`` faces a one-player search over its own cards,
    small in the last few tricks. Its value is ``me``'s score (with its partner's in partnership).
    """
    if deal.contract == _TRIX:
        raise ValueError("best_finish searches trick contracts; Trix has no tricks to finish")
    return rollout(deal, me, 13)


def _finish(
    deal: Deal, costs: list[Costs], settled: int, me: int, keys: tuple[int, ...], tail: int = 0
) -> tuple[int, tuple[int, int, int, int]]:
    """Play a trick contract on by the rules of thumb; ``me`` searches its cards from ``tail`` plays on.

    Returns ``me``'s value (the scores at ``keys``) and the scores.
    """
    while deal.phase == _PLAY:
        if deal.turn == me and len(deal.plays) >= tail:
            return _best(deal, costs, settled, me, keys)
        if _thumb_card(deal, costs, settled):
            sc = score_deal(deal)
            return sum(sc[k] for k in keys), sc
    assert deal.scores is not None
    sc = deal.scores
    return sum(sc[k] for k in keys), sc


def _best(
    deal: Deal, costs: list[Costs], settled: int, me: int, keys: tuple[int, ...]
) -> tuple[int, tuple[int, int, int, int]]:
    """``me`` to play: try each legal card and keep the one that finishes best."""
    legal = deal.legal_mask()
    if not legal & (legal - 1):
        deal.apply(legal.bit_length() - 1)
        return _finish(deal, costs, settled, me, keys)
    best: tuple[int, tuple[int, int, int, int]] | None = None
    for card in cards_of(legal):
        d = deal.copy()
        d.apply(card)
        got = _finish(d, costs, settled, me, keys)
        if best is None or got[0] > best[0]:
            best = got
    assert best is not None
    return best
