"""Rules of thumb on card-set ints: the one card-play policy behind ``basic`` and the strong bot's rollouts.

Everything here takes plain ints (a hand, the legal cards, the cards already gone) so that the strong
bot can call it thousands of times per move on simulated deals. It only ever looks at the seat's own
hand and public facts (cards gone, the trick, doubled cards), so it is as blind as a player.
"""

from __future__ import annotations

from functools import lru_cache

from ..cards import DIAMONDS, HEARTS, KING_OF_HEARTS, SUIT_MASKS, cards_of
from ..contracts import Contract
from ..rules import Rules

FULL = (1 << 52) - 1
ABOVE: tuple[int, ...] = tuple(SUIT_MASKS[c // 13] & ~((2 << c) - 1) for c in range(52))
BELOW: tuple[int, ...] = tuple(SUIT_MASKS[c // 13] & ((1 << c) - 1) for c in range(52))
_KH = KING_OF_HEARTS.bit_length() - 1
_AH = _KH + 1
_QUEEN_OF_SUIT = tuple(s * 13 + 10 for s in range(4))
_KOH = int(Contract.KING_OF_HEARTS)
_QUEENS = int(Contract.QUEENS)
_DIAMONDS = int(Contract.DIAMONDS)
_LTOOSH = int(Contract.LTOOSH)
_COMPLEX = int(Contract.COMPLEX)


def high(mask: int) -> int:
    return mask.bit_length() - 1


def low(mask: int) -> int:
    return (mask & -mask).bit_length() - 1


class Costs:
    """What winning each card costs one seat in one deal, and which of its cards it wants to give away.

    ``value[c]`` is the positive penalty for capturing ``c`` (doubled cards of others count twice),
    ``trick`` the price of any trick (Ltoosh), ``gift`` the seat's own doubled cards (others taking one
    pays the seat), ``future`` a rough price of winning a later trick, used to weigh dangerous cards;
    ``team`` is partnership play, where what the partner takes costs the seat too.
    """

    __slots__ = ("contract", "future", "gift", "pen", "team", "trick", "value")

    def __init__(self, rules: Rules, contract: int, doubled: int, mine: int) -> None:
        pts = rules.points
        value = [0] * 52
        if contract in (_KOH, _COMPLEX):
            value[_KH] = -pts.king_of_hearts
        if contract in (_QUEENS, _COMPLEX):
            for q in _QUEEN_OF_SUIT:
                value[q] += -pts.queen
        if contract in (_DIAMONDS, _COMPLEX):
            for c in range(26, 39):
                value[c] += -pts.diamond
        self_mult = 1 if rules.self_capture == "normal" else 2
        for c in cards_of(doubled):
            base = -pts.king_of_hearts if c == _KH else -pts.queen
            extra = base * (self_mult - 1) if mine >> c & 1 else base
            value[c] += extra
        self.contract = contract
        self.value = tuple(value)
        self.pen = sum(1 << c for c in range(52) if value[c])
        self.trick = -pts.trick if contract in (_LTOOSH, _COMPLEX) else 0
        self.gift = mine & doubled
        future = {
            _KOH: 8.0,
            _QUEENS: 10.0,
            _DIAMONDS: 14.0,
            _LTOOSH: 15.0,
        }.get(contract, 40.0)
        self.future = future
        self.team = rules.partnership

    def of(self, cards: int) -> int:
        """The price of capturing this set of cards in one trick."""
        pen = cards & self.pen
        total = self.trick
        if pen:
            v = self.value
            for c in cards_of(pen):
                total += v[c]
        return total


@lru_cache(maxsize=1024)
def costs_for(rules: Rules, contract: int, doubled: int, mine: int) -> Costs:
    return Costs(rules, contract, doubled, mine)


# -- trick contracts ------------------------------------------------------------------------------


def trick_winner_card(trick: list[int]) -> int:
    best = trick[0]
    top = ABOVE[best]
    for c in trick[1:]:
        if top >> c & 1 and c > best:
            best = c
    return best


def partner_wins(k: Costs, trick: list[int]) -> bool:
    """In partnership play, the partner's card (two before ours) is the one winning the trick so far."""
    return k.team and len(trick) >= 2 and trick_winner_card(trick) == trick[-2]


def play_trick_card(k: Costs, hand: int, legal: int, trick: list[int], gone: int) -> int:
    """The rule-of-thumb card: duck under the trick, shed high cards safely, dump penalties when void."""
    if not legal & (legal - 1):
        return high(legal)
    unseen = FULL & ~gone & ~hand
    if not trick:
        return _lead(k, hand, legal, unseen)
    lead = trick[0]
    if legal & SUIT_MASKS[lead // 13]:
        win = trick_winner_card(trick)
        ducks = legal & BELOW[win]
        if ducks:
            return high(ducks)  # the highest card that still loses the trick
        safe = legal & ~k.pen
        pool = safe or legal
        if len(trick) == 3 or not unseen & ABOVE[low(pool)] & ~gone:
            if safe:
                return high(safe)  # the trick is ours anyway: shed the biggest harmless card
            return _cheapest(k, legal)
        return low(pool)  # someone behind may still overtake
    if partner_wins(k, trick):
        return _discard_to_partner(k, hand, legal, unseen)
    return _discard(k, hand, legal, unseen)


def _cheapest(k: Costs, legal: int) -> int:
    best = -1
    best_v = 1 << 30
    for c in cards_of(legal):
        v = k.value[c]
        if v < best_v or (v == best_v and c > best):
            best, best_v = c, v
    return best


def danger(card: int, unseen: int) -> float:
    """How likely a card is to win a later trick: many unseen cards below it, few above."""
    h = (unseen & ABOVE[card]).bit_count()
    lo = (unseen & BELOW[card]).bit_count()
    return lo / (lo + 3 * h + 1)


def _discard(k: Costs, hand: int, legal: int, unseen: int) -> int:
    gift = legal & k.gift
    if gift:
        return high(gift)  # our doubled card on someone else's trick pays us
    best = -1
    best_s = -1e9
    value = k.value
    future = k.future
    contract = k.contract
    for c in cards_of(legal):
        suit = SUIT_MASKS[c // 13]
        s = value[c] + future * danger(c, unseen)
        if contract in (_KOH, _COMPLEX) and c // 13 == 1 and unseen & KING_OF_HEARTS and c > _KH:
            s += 20.0  # the A♥ is the card that catches the king
        if contract in (_QUEENS, _COMPLEX):
            q = _QUEEN_OF_SUIT[c // 13]
            if c > q and unseen >> q & 1:
                s += 8.0  # an ace or king over an unseen queen
        s += 0.5 / (hand & suit).bit_count()  # towards a void, to dump later
        if s > best_s:
            best, best_s = c, s
    return best


def _discard_to_partner(k: Costs, hand: int, legal: int, unseen: int) -> int:
    """Void while the partner wins the trick: what lands on it the team pays, so keep penalties back.

    Even one's own doubled card is no gift here: the partner taking it pays twice (or, with
    ``partner_capture="as_other"``, the team still pays twice and gains once).
    """
    best = -1
    best_s = -1e9
    for c in cards_of(legal):
        s = -k.value[c] + k.future * danger(c, unseen) + 0.5 / (hand & SUIT_MASKS[c // 13]).bit_count()
        if s > best_s:
            best, best_s = c, s
    return best


_POW45 = tuple(1.0 if h == 0 else 0.45**h for h in range(14))  # the chance that h higher cards all duck


def _lead(k: Costs, hand: int, legal: int, unseen: int) -> int:
    best = -1
    best_cost = 1e9
    value = k.value
    pen = k.pen
    contract = k.contract
    trick, future = k.trick, k.future
    koh = contract in (_KOH, _COMPLEX)
    queens = contract in (_QUEENS, _COMPLEX)
    # Per suit, what the others hold there: how many cards, and the two worst penalties among them.
    lefts = [0, 0, 0, 0]
    worst = [0, 0, 0, 0]
    for si in range(4):
        if legal & SUIT_MASKS[si]:
            suit = SUIT_MASKS[si]
            lefts[si] = (unseen & suit).bit_count()
            in_suit = unseen & suit & pen
            if in_suit:
                vs = sorted((value[x] for x in cards_of(in_suit)), reverse=True)
                worst[si] = sum(vs[:2])
    for c in cards_of(legal):
        si = c // 13
        h = (unseen & ABOVE[c]).bit_count()
        left = lefts[si]
        exp = float(trick + value[c])
        if worst[si]:  # (adding a zero would change nothing)
            exp += worst[si] * (0.6 if h else 0.9)
        if left < 4:  # others are running short: they will dump on this trick
            exp += future * (4 - left) * 0.5
        cost = _POW45[h] * exp
        if koh:
            if hand & KING_OF_HEARTS and si == 1:
                cost += 6.0  # keep the low hearts that guard the king
            elif si == 1 and unseen & KING_OF_HEARTS and c < _KH:
                cost -= 4.0  # push hearts to force the king out
        if queens:
            q = _QUEEN_OF_SUIT[si]
            if unseen >> q & 1 and c < q:
                cost -= 2.0
            if hand >> q & 1 and c != q:
                cost += 2.0  # leading our queen's suit strips its guards
        if contract == _DIAMONDS and si == 2:
            cost += 1.0
        cost += (c % 13) * 0.02
        if cost < best_cost:
            best, best_cost = c, cost
    return best


# -- Trix -----------------------------------------------------------------------------------------


def place_trix(hand: int, legal: int, gone: int) -> int:
    """Open jacks that lead into our own cards; hold back cards that let others place theirs."""
    if not legal & (legal - 1):
        return high(legal)
    unseen = FULL & ~gone & ~hand
    best = -1
    best_s = -1e9
    for c in cards_of(legal):
        r = c % 13
        s = 0.0
        dirs: tuple[int, ...]
        if r == 9:
            dirs = (1, -1)
            s += 0.5
        elif r > 9:
            dirs = (1,)
        else:
            dirs = (-1,)
        for d in dirs:
            beyond = hand & (ABOVE[c] if d > 0 else BELOW[c])
            s += 0.6 * beyond.bit_count()
            nr = r + d
            if nr < 0 or nr > 12:
                continue
            nxt = c + d
            if hand >> nxt & 1:
                s += 1.5
            elif unseen >> nxt & 1:
                s -= 2.0
        s -= r * 0.001
        if s > best_s:
            best, best_s = c, s
    return best


# -- decisions before the cards -------------------------------------------------------------------


def wants_double(rules: Rules, contract: int, hand: int, card: int) -> bool:
    """Double a card only when its suit guards it well (long, with low cards to duck with)."""
    suit = hand & SUIT_MASKS[card // 13]
    n = suit.bit_count()
    lows = (suit & BELOW[card]).bit_count()
    small = (suit & BELOW[card // 13 * 13 + 6]).bit_count()  # 2..7
    strict = rules.self_capture != "normal"
    if card == _KH:
        short = min((hand & SUIT_MASKS[s]).bit_count() for s in (0, 2, 3))
        ok = n >= 5 and small >= 2 and short <= 2
        return ok and (not strict or (n >= 6 and not hand & ABOVE[card]))
    above_mine = suit & ABOVE[card]
    ok = n >= 4 and small >= 2 and lows >= 3 and not above_mine
    return ok and (not strict or n >= 5)


def doubles(rules: Rules, contract: int, hand: int, offered: int) -> int:
    """The cards of ``offered`` (the seat's doublable cards) that the rules of thumb double: its answer."""
    want = 0
    for card in cards_of(offered):
        if wants_double(rules, contract, hand, card):
            want |= 1 << card
    return want


def wants_claim(contract: int, hand: int) -> bool:
    """Both throw-in hands are bad ones (a bare K♥ or A♥, or the 2s in Trix): claim whenever allowed."""
    return True


def contract_scores(rules: Rules, hand: int, contracts: list[int]) -> dict[int, float]:
    """A club player's estimate of how much better than usual each contract would go with this hand."""
    pts = rules.points
    out: dict[int, float] = {}
    tricks = _expected_tricks(hand)
    for c in contracts:
        if c == _KOH:
            hearts = hand & HEARTS
            n = hearts.bit_count()
            if hand & KING_OF_HEARTS:
                risk = 0.9 if n <= 2 else 0.65 if n <= 3 else 0.45 if n <= 4 else 0.3
            elif hand >> _AH & 1:
                risk = 0.4 if n <= 2 else 0.25
            else:
                risk = 0.12 if n >= 2 else 0.2
            out[c] = (risk - 0.25) * pts.king_of_hearts
        elif c == _QUEENS:
            risk = 0.0
            for si in range(4):
                suit = hand & SUIT_MASKS[si]
                n = suit.bit_count()
                q = _QUEEN_OF_SUIT[si]
                if suit >> q & 1:
                    small = (suit & BELOW[q]).bit_count()
                    risk += 0.85 if small <= 1 else 0.55 if small <= 2 else 0.3
                    if suit & ABOVE[q]:
                        risk += 0.15
                else:
                    risk += 0.18 * (suit & ABOVE[q]).bit_count() * (1.3 if n <= 3 else 1.0)
            out[c] = (risk - 1.0) * pts.queen
        elif c == _DIAMONDS:
            d = hand & DIAMONDS
            hd = (d & ~BELOW[26 + 7]).bit_count()  # 9♦ and up
            risk = tricks * 2.2 + hd * 1.0 - (d & BELOW[26 + 5]).bit_count() * 0.3
            out[c] = (risk - 3.25 * 2.2 - 1.5) * pts.diamond
        elif c == _LTOOSH:
            out[c] = (tricks - 3.25) * pts.trick
        elif c == int(Contract.TRIX):
            good = 0.0
            for si in range(4):
                suit = hand & SUIT_MASKS[si]
                for x in cards_of(suit):
                    r = x % 13
                    good += {9: 1.0, 8: 0.5, 10: 0.5, 11: 0.2, 7: 0.2}.get(r, 0.0)
                    if r in (0, 12):
                        good -= 0.8
                    elif r in (1, 11):
                        good -= 0.3
            out[c] = good * 30.0
        else:  # complex: every penalty at once
            out[c] = (tricks - 3.25) * pts.trick * 2 + (0.25 if hand & KING_OF_HEARTS else 0) * pts.king_of_hearts
    return out


def _expected_tricks(hand: int) -> float:
    """Tricks a hand is likely to be forced to take: high cards not covered by low ones in the suit."""
    total = 0.0
    for si in range(4):
        suit = hand & SUIT_MASKS[si]
        n = suit.bit_count()
        if not n:
            continue
        lows = (suit & BELOW[si * 13 + 6]).bit_count()
        t = 0.0
        for x in cards_of(suit):
            r = x % 13
            t += {12: 0.85, 11: 0.65, 10: 0.45, 9: 0.3, 8: 0.2, 7: 0.1}.get(r, 0.0)
        t *= 1.0 - min(lows, 3) * 0.15
        if n >= 6:
            t += (n - 5) * 0.35  # long suits take the last rounds
        total += t
    return total
