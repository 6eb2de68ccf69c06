"""What one seat can infer about the hidden hands from its view, and deals sampled to match it.

Hard facts only: cards seen played, a suit a seat failed to follow (a void), a Trix pass (the seat held
none of the cards placeable at that moment), a heart led under the hearts-lead ban (nothing but hearts
left), a failure to discard K♥ when the rule forces it, and doubled cards shown with their holders.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field

from .. import actions as A
from ..cards import HEARTS, JACKS, KING_OF_HEARTS, QUEENS, SUIT_MASKS, cards_of
from ..contracts import Contract
from ..deal import Deal
from ..rules import Rules
from ..view import View
from .policy import BELOW, FULL
from .simulate import drive_prelude

_KOH = Contract.KING_OF_HEARTS
_COMPLEX = Contract.COMPLEX
_PENALTY_CARDS = {int(_KOH): KING_OF_HEARTS, int(Contract.QUEENS): QUEENS}


@dataclass
class Knowledge:
    """One seat's knowledge of a deal in play: its hand, what is gone, and what the others cannot hold."""

    seat: int
    rules: Rules
    king: int
    contract: int
    hand: int
    sizes: tuple[int, int, int, int]
    played: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards each seat has played
    banned: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards each seat cannot hold
    unlikely: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards a sensible player would have shown
    fixed: list[int] = field(default_factory=lambda: [0, 0, 0, 0])  # cards known to be in a hand
    doubled: int = 0
    plays: list[int] = field(default_factory=list)

    @property
    def gone(self) -> int:
        p = self.played
        return p[0] | p[1] | p[2] | p[3]

    @property
    def unseen(self) -> int:
        """Cards in the other three hands."""
        return FULL & ~self.gone & ~self.hand

    @classmethod
    def from_view(cls, v: View) -> Knowledge:
        assert v.seat is not None and v.hand is not None
        contract = int(v.contract) if v.contract is not None else -1
        k = cls(v.seat, v.rules, v.king, contract, int(v.hand), v.hand_sizes)
        for holder, card in v.doubled:
            k.doubled |= 1 << card
            k.fixed[holder] |= 1 << card
        if contract == int(Contract.TRIX):
            k._read_trix(v)
        elif contract >= 0:
            k._read_tricks(v)
        gone = k.gone
        for s in range(4):
            k.fixed[s] &= ~gone
            k.banned[s] &= ~gone
            k.unlikely[s] &= ~gone & ~k.fixed[s] & ~k.banned[s]
        me = k.seat
        k.banned[me] = 0
        k.fixed[me] = 0
        k.unlikely[me] = 0
        return k

    def _read_tricks(self, v: View) -> None:
        rules = self.rules
        ban_rule = rules.hearts_lead_ban and self.contract == _KOH
        discard_rule = rules.king_must_be_discarded and self.contract in (_KOH, _COMPLEX)
        penalties = _PENALTY_CARDS.get(self.contract, 0)
        lead_suit = 0
        win = 0
        for i, (seat, card) in enumerate(v.plays):
            self.plays.append(card)
            bit = 1 << card
            if i % 4 == 0:
                lead_suit = SUIT_MASKS[card // 13]
                win = card
                if ban_rule and bit & HEARTS:
                    self.banned[seat] |= FULL & ~HEARTS & ~self.gone  # only hearts were left
            elif not bit & lead_suit:
                self.banned[seat] |= lead_suit  # shown out of the suit led
                if discard_rule and card != KING_OF_HEARTS.bit_length() - 1:
                    self.banned[seat] |= KING_OF_HEARTS
                if penalties and not bit & penalties:
                    self.unlikely[seat] |= penalties  # a void player dumps a penalty card if he has one
            elif card < win:
                self.unlikely[seat] |= BELOW[win] & ~BELOW[card] & ~bit  # he would have ducked higher
            else:
                self.unlikely[seat] |= BELOW[win]  # he overtook: nothing lower to duck with
                win = card
            self.played[seat] |= bit

    def _read_trix(self, v: View) -> None:
        playable = JACKS
        for seat, action in v.plays:
            self.plays.append(action)
            if action == A.PASS:
                self.banned[seat] |= playable  # held nothing that could be placed
                continue
            bit = 1 << action
            self.played[seat] |= bit
            playable ^= bit
            r = action % 13
            if r >= 9:
                if r < 12:
                    playable |= bit << 1
                if r == 9:
                    playable |= bit >> 1
            elif r > 0:
                playable |= bit >> 1

    # -- sampling -----------------------------------------------------------------------------------

    def sample(self, rng: random.Random, inference: bool = True, trust: float = 0.0) -> list[int]:
        """The four current hands, the others' drawn at random among those consistent with the view.

        With ``inference`` off only the shown doubled cards are placed; voids and passes are ignored.
        With probability ``trust`` the sample also honours what sensible play suggests (``unlikely``:
        a seat that ducked would have ducked with its highest such card, a void seat would have dumped
        a penalty card); when no deal fits those hints, the hard facts alone are used.
        """
        if inference and trust and any(self.unlikely) and rng.random() < trust:
            hinted = [self.banned[s] | self.unlikely[s] for s in range(4)]
            got = self._sample_banned(rng, hinted, strict=False)
            if got is not None:
                return got
        hands = self._sample_banned(rng, self.banned if inference else [0, 0, 0, 0], strict=True)
        assert hands is not None
        return hands

    def _sample_banned(self, rng: random.Random, banned: list[int], strict: bool) -> list[int] | None:
        me = self.seat
        others = [s for s in range(4) if s != me]
        hands = [0, 0, 0, 0]
        hands[me] = self.hand
        pool = self.unseen
        need = [0, 0, 0, 0]
        for s in others:
            hands[s] = self.fixed[s]
            pool &= ~self.fixed[s]
            need[s] = self.sizes[s] - self.fixed[s].bit_count()
        cards = cards_of(pool)
        if not any(banned[s] & pool for s in others):
            rng.shuffle(cards)
            i = 0
            for s in others:
                n = need[s]
                for c in cards[i : i + n]:
                    hands[s] |= 1 << c
                i += n
            return hands
        allowed = {s: FULL & ~banned[s] for s in others}
        for _ in range(40 if strict else 8):
            got = _try_assign(rng, cards, others, allowed, need)
            if got is not None:
                for s in others:
                    hands[s] |= got[s]
                return hands
        if not strict:
            return None
        got = _assign_exact(rng, cards, others, allowed, need)
        for s in others:
            hands[s] |= got[s]
        return hands

    def deal_from(self, hands: list[int], template: Deal | None = None) -> Deal:
        """The deal at this moment with these current hands (replays the public plays once, then copies)."""
        dealt = [hands[s] | self.played[s] for s in range(4)]
        if template is None:
            d = Deal(self.rules, self.king, self.contract, dealt)
            drive_prelude(d, self.doubled)
            for a in self.plays:
                d.apply(a)
            return d
        d = template.copy()
        d.dealt = (dealt[0], dealt[1], dealt[2], dealt[3])
        d.hands = list(hands)
        return d


def _try_assign(
    rng: random.Random, cards: list[int], others: list[int], allowed: dict[int, int], need: list[int]
) -> dict[int, int] | None:
    """Hand out the cards most constrained first, each to an allowed seat chosen by room left."""
    order = cards[:]
    rng.shuffle(order)
    order.sort(key=lambda c: sum(1 for s in others if allowed[s] >> c & 1))
    room = need[:]
    got = {s: 0 for s in others}
    for c in order:
        seats = [s for s in others if room[s] > 0 and allowed[s] >> c & 1]
        if not seats:
            return None
        total = sum(room[s] for s in seats)
        x = rng.randrange(total)
        for s in seats:
            x -= room[s]
            if x < 0:
                break
        got[s] |= 1 << c
        room[s] -= 1
    return got


def _assign_exact(
    rng: random.Random, cards: list[int], others: list[int], allowed: dict[int, int], need: list[int]
) -> dict[int, int]:
    """A consistent assignment by augmenting paths (bipartite matching of cards to hand slots)."""
    slots = [s for s in others for _ in range(need[s])]
    owner: list[int | None] = [None] * len(slots)  # slot -> card
    order = cards[:]
    rng.shuffle(order)

    def place(c: int, seen: set[int]) -> bool:
        for i, s in enumerate(slots):
            if i in seen or not allowed[s] >> c & 1:
                continue
            seen.add(i)
            o = owner[i]
            if o is None or place(o, seen):
                owner[i] = c
                return True
        return False

    for c in order:
        if not place(c, set()):
            raise ValueError("no deal is consistent with this view")
    got = {s: 0 for s in others}
    for i, s in enumerate(slots):
        card = owner[i]
        if card is not None:
            got[s] |= 1 << card
    return got
