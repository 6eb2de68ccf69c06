"""One deal: redeal claims, doubling, then the tricks or the Trix layouts, then its scores.

``Deal`` is the hot object of the engine (bots copy it thousands of times a move), so it keeps plain
ints and lists in slots and copies itself by hand. ``Match`` (match.py) strings deals together.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import IntEnum
from numbers import Integral

from . import actions as A
from ._brief import brief
from .cards import (
    DIAMONDS,
    FULL_DECK,
    HEARTS,
    JACKS,
    KING_OF_HEARTS,
    QUEENS,
    SUIT_MASKS,
    SUIT_TABLES,
    Card,
    CardSet,
    Suit,
    cards_of,
)
from .contracts import Contract
from .errors import (
    IllegalAction,
    IllegalClaim,
    IllegalDouble,
    IllegalPlay,
    InvalidDeal,
    NotYourTurn,
    WrongPhase,
)
from .rules import Rules

Hands = tuple[int, int, int, int]


class Phase(IntEnum):
    """Where a match stands; the deal phases are CLAIM, DOUBLE and PLAY."""

    CHOOSE_CONTRACT = 0
    CLAIM = 1
    DOUBLE = 2
    PLAY = 3
    DEAL_OVER = 4
    MATCH_OVER = 5

    def __str__(self) -> str:
        return self.name.lower()

    def __repr__(self) -> str:
        return f"Phase.{self.name}"  # pasted back, it is the phase (as Suit and Contract are)


_HAND_TYPES = (int, CardSet)  # what the fast check takes as it is; anything else is checked one by one
_CONTRACT_IDS = frozenset(int(c) for c in Contract)
_CLAIM = int(Phase.CLAIM)
_DOUBLE = int(Phase.DOUBLE)
_PLAY = int(Phase.PLAY)
_OVER = int(Phase.DEAL_OVER)

_KOH = int(Contract.KING_OF_HEARTS)
_QUEENS = int(Contract.QUEENS)
_DIAMONDS = int(Contract.DIAMONDS)
_LTOOSH = int(Contract.LTOOSH)
_TRIX = int(Contract.TRIX)
_COMPLEX = int(Contract.COMPLEX)

_KH = int(Card.KH)
_AH = int(Card.AH)
_TWOS = tuple(s * 13 for s in range(4))
_THREES = tuple(s * 13 + 1 for s in range(4))
_TWOS_MASK = sum(1 << c for c in _TWOS)

DOUBLABLE_IN: dict[int, int] = {
    _KOH: KING_OF_HEARTS,
    _QUEENS: QUEENS,
    _COMPLEX: KING_OF_HEARTS | QUEENS,
}

_SUITS = tuple(Suit)

# early_end: the deal stops once every card of this mask is captured (Ltoosh and Complex never do).
_EARLY_END: dict[int, int] = {_KOH: KING_OF_HEARTS, _DIAMONDS: DIAMONDS, _QUEENS: QUEENS}
_T0, _T1, _T2, _T3 = SUIT_TABLES
_PASS_ONLY = A.PASS


def deal_hands(seed: int | str | random.Random, index: int = 0) -> Hands:
    """Four hands of 13 cards, reproducible from a seed on every machine.

    ``deal_hands(seed, n)`` gives the n-th deal of the match seeded ``seed``; a ``random.Random`` is
    used as it stands (and advanced).
    """
    rng = seed if isinstance(seed, random.Random) else random.Random(f"opentrix:{seed}:{index}")
    deck = list(range(52))
    rng.shuffle(deck)
    hands = [0, 0, 0, 0]
    for i, c in enumerate(deck):
        hands[i // 13] |= 1 << c
    return (hands[0], hands[1], hands[2], hands[3])


def as_action(action: object) -> int:
    """An action id given as another kind of integer (numpy's) as an int; TypeError for anything else
    (``True`` is no card, ``3.0`` no action)."""
    if isinstance(action, bool) or not isinstance(action, int | Integral):
        said = brief(action, python=True)
        raise TypeError(f"an action is an int from 0 to {A.NUM_ACTIONS - 1} (see opentrix.actions), not {said}")
    return int(action)


def check_seat(seat: object) -> None:
    """A seat is 0, 1, 2 or 3: anything else is a ValueError, not someone whose turn it is not."""
    if isinstance(seat, bool) or seat not in (0, 1, 2, 3):
        raise ValueError(f"a seat is 0, 1, 2 or 3, not {brief(seat, python=True)}")


def check_hands(hands: Sequence[int]) -> Hands:
    """Four hands of 13 cards, 52 distinct in all; raises InvalidDeal saying what is wrong."""
    try:
        count = len(hands)
    except TypeError:
        raise InvalidDeal(f"the hands are a sequence of four card sets, not {brief(hands, python=True)}") from None
    if count != 4:
        raise InvalidDeal(f"a deal has 4 hands, not {count}")
    h0, h1, h2, h3 = hands
    # The usual case in one go: 4 x 13 cards that cover the deck are 52 distinct cards.
    if (
        type(h0) is type(h1) is type(h2) is type(h3) in _HAND_TYPES
        and h0 | h1 | h2 | h3 == FULL_DECK
        and h0.bit_count() == 13
        and h1.bit_count() == 13
        and h2.bit_count() == 13
        and h3.bit_count() == 13
    ):
        return (int(h0), int(h1), int(h2), int(h3))
    seen = 0
    for seat, h in enumerate(hands):
        if not isinstance(h, int | Integral) or isinstance(h, bool):
            raise InvalidDeal(f"hand of seat {seat} is not a set of cards: {brief(h, python=True)}")
        h = int(h)
        n = h.bit_count()
        if h < 0 or h > FULL_DECK:
            raise InvalidDeal(f"hand of seat {seat} is not a set of cards")
        if n != 13:
            raise InvalidDeal(f"seat {seat} has {n} cards; every hand has 13")
        dup = seen & h
        if dup:
            raise InvalidDeal("card ", Card(cards_of(dup)[0]), f" is dealt twice (again to seat {seat})")
        seen |= h
    return (int(hands[0]), int(hands[1]), int(hands[2]), int(hands[3]))


def trick_legal(hand: int, lead: int, ban: bool, discard_king: bool) -> int:
    """The cards of ``hand`` that may go on a trick whose first card is ``lead`` (-1: leading it).

    Follow suit when you can; void, the K♥ must go first where ``discard_king`` (the rule, in a
    contract that counts it) says so; leading, no heart under ``ban`` while another suit is left.
    ``Deal.legal_mask`` and the bots replaying what others did on guessed hands ask it; only
    ``Deal.legal_actions``, the hot path of every search, keeps an inlined copy
    (``tests/test_properties.py`` checks that the two agree).
    """
    if lead >= 0:
        follow = hand & SUIT_MASKS[lead // 13]
        if follow:
            return follow
        if discard_king and hand & KING_OF_HEARTS:
            return KING_OF_HEARTS
        return hand
    if ban and hand & ~HEARTS:
        return hand & ~HEARTS
    return hand


def can_claim_redeal(hand: int, contract: Contract | int) -> bool:
    """Whether a hand qualifies for a throw-in in this contract (rules options aside)."""
    if contract == _KOH:
        hearts = hand & HEARTS
        return hearts in (KING_OF_HEARTS, 1 << _AH, KING_OF_HEARTS | (1 << _AH))
    if contract == _TRIX:
        twos = hand & _TWOS_MASK
        n = twos.bit_count()
        if n == 4:
            return True
        if n == 3:
            missing = next(s for s in range(4) if not twos >> _TWOS[s] & 1)
            return bool(hand >> _THREES[missing] & 1)
    return False


def redeal_grounds(hand: int, contract: Contract | int) -> str:
    """Why a hand qualifies for a throw-in, in a player's words (``""`` if it does not): a prompt that
    offers a redeal should say what in the hand allows it."""
    if not can_claim_redeal(hand, contract):
        return ""
    if contract == _KOH:
        hearts = [Card(c).symbol for c in reversed(cards_of(hand & HEARTS))]  # A♥ before K♥
        return f"your only heart is {hearts[0]}" if len(hearts) == 1 else f"your only hearts are {' and '.join(hearts)}"
    twos = hand & _TWOS_MASK
    if twos.bit_count() == 4:
        return "you hold all four 2s"
    missing = next(s for s in range(4) if not twos >> _TWOS[s] & 1)
    return f"you hold three 2s and {Card(_THREES[missing]).symbol}, the 3 of the fourth suit"


class Deal:
    """The state of one deal, from the named contract to its scores."""

    __slots__ = (
        "_ban",
        "_discard_king",
        "_end",
        "_lead",
        "_tp",
        "answers",
        "captured",
        "contract",
        "dealt",
        "doubled",
        "doubled_captures",
        "hands",
        "king",
        "leader",
        "out",
        "pending",
        "phase",
        "playable",
        "plays",
        "rules",
        "scores",
        "seats",
        "taken",
        "thrown_in",
        "trick",
        "tricks",
        "turn",
    )

    rules: Rules
    king: int
    contract: int
    dealt: Hands
    hands: list[int]
    phase: int
    turn: int
    pending: list[int]
    doubled: int
    answers: list[tuple[int, int]]
    thrown_in: int | None
    plays: list[int]
    seats: list[int]
    trick: list[int]
    leader: int
    taken: list[int]
    tricks: list[int]
    captured: int
    doubled_captures: list[tuple[int, int, int]]
    playable: int
    out: list[int]
    scores: tuple[int, int, int, int] | None

    def __init__(self, rules: Rules, king: int, contract: Contract | int, hands: Sequence[int]) -> None:
        if not isinstance(rules, Rules):
            said = brief(rules, python=True)
            raise TypeError(f"a deal's rules are a Rules, e.g. Rules.preset('classic'), not {said}")
        if king not in (0, 1, 2, 3) or isinstance(king, bool):
            raise ValueError(f"the king is a seat from 0 to 3, not {brief(king, python=True)}")
        if isinstance(contract, bool) or not isinstance(contract, int | Integral) or contract not in _CONTRACT_IDS:
            said = brief(contract, python=True)
            raise ValueError(f"not a contract: {said} (expected a Contract, e.g. Contract.QUEENS)")
        self.rules = rules
        self.king = king
        self.contract = int(contract)
        self.dealt = check_hands(hands)
        self.hands = list(self.dealt)
        self.doubled = 0
        self.answers = []
        self.thrown_in = None
        self.plays = []
        self.seats = []
        self.trick = []
        self.leader = king
        self.taken = [0, 0, 0, 0]
        self.tricks = [0, 0, 0, 0]
        self.captured = 0
        self.doubled_captures = []
        self.playable = JACKS
        self.out = []
        self.scores = None
        self._ban = rules.hearts_lead_ban and self.contract == _KOH
        self._discard_king = rules.king_must_be_discarded and self.contract in (_KOH, _COMPLEX)
        self._end = _EARLY_END.get(self.contract, 0) if rules.early_end else 0
        self._lead = 0
        self._tp = False
        order = [(king + i) & 3 for i in range(4)]
        self.pending = []
        if (self.contract == _KOH and rules.koh_redeal) or (self.contract == _TRIX and rules.trix_throw_in):
            self.phase = _CLAIM
            self.pending = order
        else:
            self._start_doubling()
        self.turn = self.pending[0] if self.pending else king

    # -- phases -------------------------------------------------------------------------------------

    def _doublable(self) -> int:
        return DOUBLABLE_IN.get(self.contract, 0) if self.rules.doubling else 0

    def _start_doubling(self) -> None:
        mask = self._doublable()
        if mask:
            order = [(self.king + i) & 3 for i in range(4)]
            if self.rules.doubling_reveal == "hidden":
                self.pending = order
            else:
                self.pending = [s for s in order if self.hands[s] & mask]
        if self.pending:
            self.phase = _DOUBLE
            self.turn = self.pending[0]
        else:
            self._start_play()

    def _start_play(self) -> None:
        self.phase = _PLAY
        self._tp = self.contract != _TRIX  # the fast path of ``apply``: card play in a trick contract
        self.turn = self.king
        self.leader = self.king

    def _next_pending(self) -> None:
        self.pending.pop(0)
        if self.pending:
            self.turn = self.pending[0]
        elif self.phase == _CLAIM:
            self._start_doubling()
        else:
            self._start_play()

    # -- queries ------------------------------------------------------------------------------------

    @property
    def is_over(self) -> bool:
        return self.phase == _OVER

    def legal_mask(self) -> int:
        """The cards the seat to act may play, as a card-set int (0 outside card play)."""
        if self.phase != _PLAY:
            return 0
        hand = self.hands[self.turn]
        if self.contract == _TRIX:
            return hand & self.playable
        trick = self.trick
        return trick_legal(hand, trick[0] if trick else -1, self._ban, self._discard_king)

    def legal_actions(self) -> list[int]:
        """The actions of the seat to act, ascending; card play is inlined (the hot path of every search)."""
        if self._tp:  # card play in a trick contract
            hand = self.hands[self.turn]
            trick = self.trick
            if trick:
                suit = trick[0] // 13
                follow = (hand >> (13 * suit)) & 0x1FFF
                if follow:
                    return [*SUIT_TABLES[suit][follow]]
                if self._discard_king and hand & KING_OF_HEARTS:
                    return [_KH]
            elif self._ban and hand & ~HEARTS:
                hand &= ~HEARTS
            return [
                *_T0[hand & 0x1FFF],
                *_T1[(hand >> 13) & 0x1FFF],
                *_T2[(hand >> 26) & 0x1FFF],
                *_T3[(hand >> 39) & 0x1FFF],
            ]
        if self.phase == _PLAY:  # Trix: a card to place, or pass
            m = self.hands[self.turn] & self.playable
            if not m:
                return [_PASS_ONLY]
            return [
                *_T0[m & 0x1FFF],
                *_T1[(m >> 13) & 0x1FFF],
                *_T2[(m >> 26) & 0x1FFF],
                *_T3[(m >> 39) & 0x1FFF],
            ]
        phase = self.phase
        if phase == _DOUBLE:
            mine = self.hands[self.turn] & self._doublable()
            return sorted(A.double_mask(sub) for sub in _subsets(mine))
        if phase == _CLAIM:
            if can_claim_redeal(self.hands[self.turn], self.contract):
                return [A.CLAIM, A.NO_CLAIM]
            return [A.NO_CLAIM]
        return []

    # -- applying actions ---------------------------------------------------------------------------

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply the action of the seat to act; ``seat``, when given, must be that seat.

        Playing a card to a trick is inlined here: it is most of what a search or a referee does.
        """
        turn = self.turn
        if seat is not None and seat != turn:
            check_seat(seat)
            if self.phase == _OVER:
                raise WrongPhase("the deal is over")
            raise NotYourTurn(f"it is seat {turn}'s turn, not seat {seat}'s")
        if self._tp and 0 <= action < 52:
            # Is the card legal? Held; following suit when possible (else K♥ when it must go);
            # and no heart lead under the ban while holding another suit.
            hands = self.hands
            hand = hands[turn]
            bit = 1 << action
            lead = self._lead
            if lead and (follow := hand & lead):  # following suit: the usual case
                if not follow & bit:
                    raise self._why_illegal(action)
            elif not hand & bit:
                raise self._why_illegal(action)
            elif lead:
                if self._discard_king and hand & KING_OF_HEARTS and action != _KH:
                    raise self._why_illegal(action)
            else:
                if self._ban and bit & HEARTS and hand & ~HEARTS:
                    raise self._why_illegal(action)
                self._lead = SUIT_MASKS[action // 13]
            hand ^= bit
            hands[turn] = hand
            trick = self.trick
            trick.append(action)
            self.plays.append(action)
            self.seats.append(turn)
            if len(trick) < 4:
                self.turn = (turn + 1) & 3
                return
            # The trick is complete: the highest card of the suit led takes it.
            c0, c1, c2, _ = trick
            tmask = (1 << c0) | (1 << c1) | (1 << c2) | bit
            best = (tmask & lead).bit_length() - 1  # cards of a suit rank upwards: the top bit wins
            leader = self.leader
            winner = (leader + trick.index(best)) & 3
            self.taken[winner] |= tmask
            self.tricks[winner] += 1
            captured = self.captured | tmask
            self.captured = captured
            doubled = self.doubled
            if tmask & doubled:
                for c in trick:
                    if doubled >> c & 1:
                        self.doubled_captures.append((c, winner, leader))
            self.trick = []
            self._lead = 0
            self.turn = winner
            self.leader = winner
            end = self._end
            if not hand or (end and captured & end == end):  # the last trick, or an early end
                self._finish()
            return
        phase = self.phase
        if phase == _PLAY:
            if 0 <= action < 52:
                self._place(action)
                return
            if action == A.PASS:
                self._pass()
                return
            raise WrongPhase(f"seat {turn} must play a card now, not '{_action_text(action)}'")
        if phase == _DOUBLE:
            self._double(action)
            return
        if phase == _CLAIM:
            self._claim(action)
            return
        raise WrongPhase("the deal is over", detail=(f"'{_action_text(action)}' comes too late",))

    def _place(self, card: int) -> None:
        seat = self.turn
        bit = 1 << card
        if not self.hands[seat] & self.playable & bit:
            raise self._why_illegal(card)
        self.hands[seat] ^= bit
        self.plays.append(card)
        self.seats.append(seat)
        playable = self.playable ^ bit
        rank = card % 13
        if rank >= 9:  # the jack or above: the layout grows up (and, from the jack, down too)
            if rank < 12:
                playable |= bit << 1
            if rank == 9:
                playable |= bit >> 1
        else:
            if rank > 0:
                playable |= bit >> 1
        self.playable = playable
        if not self.hands[seat]:
            self.out.append(seat)
            if len(self.out) == 3:
                self._finish()
                return
        self._advance_trix(seat)

    def _pass(self) -> None:
        seat = self.turn
        if self.contract != _TRIX:
            raise IllegalPlay(f"seat {seat} cannot pass: passing is only for the Trix contract")
        can = self.hands[seat] & self.playable
        if can:
            raise IllegalPlay(f"seat {seat} cannot pass while holding a card to place", detail=_can_place(can))
        self.plays.append(A.PASS)
        self.seats.append(seat)
        self._advance_trix(seat)

    def _advance_trix(self, seat: int) -> None:
        hands = self.hands
        nxt = (seat + 1) & 3
        while not hands[nxt]:
            nxt = (nxt + 1) & 3
        self.turn = nxt

    def _double(self, action: int) -> None:
        seat = self.turn
        try:
            cards = A.doubled_cards(action)
        except ValueError:
            raise WrongPhase(
                f"seat {seat} must answer the doubling first (double cards or not), not '{_action_text(action)}'"
            ) from None
        mask = 0
        for card in cards:
            bit = 1 << card
            if not self._doublable() & bit:
                raise IllegalDouble(Card(card), f" may not be doubled in {Contract(self.contract).id}")
            if not self.hands[seat] & bit:
                raise IllegalDouble(f"seat {seat} cannot double ", Card(card), ": not in that hand")
            mask |= bit
        self.doubled |= mask
        self.answers.append((seat, mask))
        self._next_pending()  # one answer per seat: the whole set at once

    def _claim(self, action: int) -> None:
        seat = self.turn
        if action == A.NO_CLAIM:
            self._next_pending()
            return
        if action != A.CLAIM:
            raise WrongPhase(
                f"seat {seat} must answer the redeal question first (claim or no claim), not '{_action_text(action)}'"
            )
        if not can_claim_redeal(self.hands[seat], self.contract):
            raise IllegalClaim(f"seat {seat}'s hand does not allow a redeal in {Contract(self.contract).id}")
        self.thrown_in = seat
        self.pending = []
        self.phase = _OVER
        self._tp = False
        self.scores = (0, 0, 0, 0)

    def _why_illegal(self, card: int) -> IllegalAction:
        seat = self.turn
        bit = 1 << card
        hand = self.hands[seat]
        c = Card(card)
        if not hand & bit:
            if self.dealt[seat] & bit:
                return IllegalPlay(f"seat {seat} has already played ", c)
            return IllegalPlay(f"seat {seat} does not hold ", c)
        if self.contract == _TRIX:
            return IllegalPlay(f"seat {seat} cannot place ", c, " on the layouts", detail=_can_place(self.legal_mask()))
        if self.trick:
            suit = _SUITS[self.trick[0] // 13]
            follow = hand & SUIT_MASKS[suit]
            if follow:
                return IllegalPlay(
                    f"seat {seat} must follow suit ",
                    suit,
                    detail=("holds ", *_join_cards(follow)),
                )
            return IllegalPlay(f"seat {seat} must discard ", Card.KH, " when unable to follow suit")
        return IllegalPlay(f"seat {seat} may not lead a heart while holding another suit")

    def _finish(self) -> None:
        self.phase = _OVER
        self._tp = False
        self._lead = 0
        self.trick = []
        self.scores = score_deal(self)

    # -- copying ------------------------------------------------------------------------------------

    def copy(self) -> Deal:
        d = Deal.__new__(Deal)
        d.rules = self.rules
        d.king = self.king
        d.contract = self.contract
        d.dealt = self.dealt
        d.hands = self.hands.copy()
        d.phase = self.phase
        d.turn = self.turn
        d.pending = self.pending.copy()
        d.doubled = self.doubled
        d.answers = self.answers.copy()
        d.thrown_in = self.thrown_in
        d.plays = self.plays.copy()
        d.seats = self.seats.copy()
        d.trick = self.trick.copy()
        d.leader = self.leader
        d.taken = self.taken.copy()
        d.tricks = self.tricks.copy()
        d.captured = self.captured
        d.doubled_captures = self.doubled_captures.copy()
        d.playable = self.playable
        d.out = self.out.copy()
        d.scores = self.scores
        d._ban = self._ban
        d._discard_king = self._discard_king
        d._end = self._end
        d._lead = self._lead
        d._tp = self._tp
        return d

    __copy__ = copy

    def holder_of(self, card: int) -> int:
        """The seat that was dealt ``card``."""
        for s in range(4):
            if self.dealt[s] >> card & 1:
                return s
        raise ValueError(card)  # unreachable for a valid deal

    @property
    def layouts(self) -> list[tuple[int, int] | None]:
        """Per suit, the (lowest, highest) card placed in Trix, or None before its jack."""
        placed = 0
        for a in self.plays:
            if a < 52:
                placed |= 1 << a
        out: list[tuple[int, int] | None] = []
        for s in range(4):
            m = (placed >> (13 * s)) & 0x1FFF
            if not m:
                out.append(None)
            else:
                out.append((s * 13 + (m & -m).bit_length() - 1, s * 13 + m.bit_length() - 1))
        return out

    def __repr__(self) -> str:
        return (
            f"<Deal {Contract(self.contract).id} king={self.king} phase={Phase(self.phase)} "
            f"turn={self.turn} plays={len(self.plays)}>"
        )


def _subsets(mask: int) -> list[int]:
    """Every subset of a card-set int, the empty one included."""
    out = [0]
    for c in cards_of(mask):
        out += [m | 1 << c for m in out]
    return out


def _join_cards(mask: int) -> tuple[Card | str, ...]:
    parts: list[Card | str] = []
    for i, c in enumerate(sorted(cards_of(mask), reverse=True)):
        if i:
            parts.append(" ")
        parts.append(Card(c))
    return tuple(parts)


def _can_place(mask: int) -> tuple[Card | str, ...]:
    if not mask:
        return ("nothing can be placed",)
    return ("can place ", *_join_cards(mask))


def _action_text(action: int) -> str:
    try:
        return A.to_str(action)
    except ValueError:
        return repr(action)


def score_deal(deal: Deal) -> tuple[int, int, int, int]:
    """Per-seat scores of a finished deal, doubling included."""
    rules = deal.rules
    pts = rules.points
    c = deal.contract
    s = [0, 0, 0, 0]
    if deal.thrown_in is not None:
        return (0, 0, 0, 0)
    if c == _TRIX:
        order = deal.out + [seat for seat in range(4) if seat not in deal.out]
        for place, seat in enumerate(order):
            s[seat] += pts.trix[place]
        return (s[0], s[1], s[2], s[3])
    for seat in range(4):
        taken = deal.taken[seat]
        if c in (_KOH, _COMPLEX) and taken & KING_OF_HEARTS:
            s[seat] += pts.king_of_hearts
        if c in (_QUEENS, _COMPLEX):
            s[seat] += (taken & QUEENS).bit_count() * pts.queen
        if c in (_DIAMONDS, _COMPLEX):
            s[seat] += (taken & DIAMONDS).bit_count() * pts.diamond
        if c in (_LTOOSH, _COMPLEX):
            s[seat] += deal.tricks[seat] * pts.trick
    for card, taker, leader in deal.doubled_captures:
        v = pts.king_of_hearts if card == _KH else pts.queen
        holder = deal.holder_of(card)
        s[taker] -= v  # replace the plain value counted above by the doubled rule
        if taker != holder:
            if rules.partnership and taker == holder ^ 2 and rules.partner_capture == "no_bonus":
                s[taker] += 2 * v
            else:
                s[taker] += 2 * v
                s[holder] -= v
        elif rules.self_capture == "normal":
            s[taker] += v
        elif rules.self_capture == "doubled":
            s[taker] += 2 * v
        elif leader == holder:  # doubled_leader_gains, the holder led the trick himself
            s[taker] += v
        else:
            s[taker] += 2 * v
            s[leader] -= v
    return (s[0], s[1], s[2], s[3])


__all__ = [
    "Deal",
    "Hands",
    "Phase",
    "can_claim_redeal",
    "check_hands",
    "deal_hands",
    "redeal_grounds",
    "score_deal",
]
