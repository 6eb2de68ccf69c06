"""``basic``: a club player's rules of thumb, with a short reason for every choice (the table's hints)."""

from __future__ import annotations

from collections.abc import Sequence

from .. import actions as A
from ..actions import Action
from ..cards import card_symbol, cards_of
from ..contracts import Contract
from ..deal import Phase
from ..view import View
from .base import Bot
from .knowledge import Knowledge
from .policy import (
    BELOW,
    FULL,
    contract_scores,
    costs_for,
    doubles,
    partner_wins,
    place_trix,
    play_trick_card,
    trick_winner_card,
    wants_claim,
)


class BasicBot(Bot):
    """Deterministic rules of thumb (given its seed); ``mistakes`` is the share of random moves (easy level)."""

    name = "basic"

    def __init__(self, seed: int | str | None = None, mistakes: float = 0.0) -> None:
        super().__init__(seed)
        if not 0.0 <= mistakes <= 1.0:
            raise ValueError(f"mistakes must be between 0 and 1, not {mistakes!r}")
        self.mistakes = mistakes

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.explain(view, legal)[0]

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if len(legal) == 1:
            return legal[0], _only(legal[0])
        if self.mistakes and self.rng.random() < self.mistakes:
            return legal[self.rng.randrange(len(legal))], "a hunch"
        return decide(view, legal)


def _only(action: Action) -> str:
    if action == A.PASS:
        return "nothing can be placed: pass"
    return "the only legal move"


def decide(view: View, legal: Sequence[Action]) -> tuple[Action, str]:
    """The rule-of-thumb action for any phase, with the rule that chose it."""
    phase = view.phase
    assert view.hand is not None
    hand = int(view.hand)
    if phase == Phase.CHOOSE_CONTRACT:
        options = [A.contract_of(a) for a in legal]
        est = contract_scores(view.rules, hand, [int(c) for c in options])
        best = max(options, key=lambda c: est[int(c)])
        return A.choose(best), f"this hand suits {best.title} better than the others"
    if phase == Phase.CLAIM:
        assert view.contract is not None
        if A.CLAIM in legal and wants_claim(int(view.contract), hand):
            return A.CLAIM, "a hand this bad is worth a redeal"
        return A.NO_CLAIM, "the hand is playable"
    if phase == Phase.DOUBLE:
        assert view.contract is not None
        offered = 0
        for a in legal:
            if A.is_double(a):
                offered |= A.doubled_mask(a)
        safe = cards_of(doubles(view.rules, int(view.contract), hand, offered))
        if safe:
            names = " and ".join(card_symbol(c) for c in safe)
            return A.double(safe), f"{names} {'is' if len(safe) == 1 else 'are'} well guarded: doubling is safe"
        return A.NO_DOUBLE, "doubling would not be safe"
    know = Knowledge.from_view(view)
    gone = know.gone
    legal_mask = 0
    for a in legal:
        legal_mask |= 1 << a
    if view.contract == Contract.TRIX:
        card = place_trix(hand, legal_mask, gone)
        return card, _trix_reason(card, hand, gone)
    doubled = know.doubled
    mine = 0
    for holder, c in view.doubled:
        if holder == view.seat:
            mine |= 1 << c
    assert view.contract is not None
    k = costs_for(view.rules, int(view.contract), doubled, mine)
    trick = [c for _, c in view.trick]
    card = play_trick_card(k, hand, legal_mask, trick, gone | sum(1 << c for c in trick))
    return card, _trick_reason(card, trick, k.pen, k.gift, partner_wins(k, trick))


def _trick_reason(card: int, trick: list[int], pen: int, gift: int, partner: bool = False) -> str:
    sym = card_symbol(card)
    if not trick:
        return f"lead {sym}: the lead least likely to win a costly trick"
    if card // 13 != trick[0] // 13:
        if partner and not pen >> card & 1:
            return f"void while the partner wins this trick: discard {sym}, nothing our team would pay for"
        if partner:
            return f"void while the partner wins this trick, and every card left costs: {sym} costs least"
        if gift >> card & 1:
            return f"void: give away the doubled {sym} on someone else's trick"
        if pen >> card & 1:
            return f"void: dump {sym}, a penalty card"
        return f"void: discard {sym}, a card that could win a trick later"
    win = trick_winner_card(trick)
    if BELOW[win] >> card & 1:
        return f"{sym} is the highest card that still ducks under {card_symbol(win)}"
    return f"{sym}: the trick cannot be ducked, so play the card that costs least"


def _trix_reason(card: int, hand: int, gone: int) -> str:
    sym = card_symbol(card)
    r = card % 13
    if r == 9:
        return f"open the jack {sym}"
    nr = r + (1 if r > 9 else -1)
    if not 0 <= nr <= 12:
        return f"{sym} ends its layout: it helps no one else"
    nxt = card + nr - r
    if hand >> nxt & 1:
        return f"{sym} opens the way for our own next card"
    if (FULL & ~gone & ~hand) >> nxt & 1:
        return f"{sym}: the least help to the others"
    return f"{sym} lets no one else place a card"
