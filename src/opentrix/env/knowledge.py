"""What the table has learned about hidden hands, inferred from one seat's view only.

Every seat sees the same plays, so these inferences are public: a seat that did not follow suit is
void in it; a seat that passed in Trix holds none of the cards that could have been placed then; a
seat that led a heart under the King of Hearts lead ban holds nothing but hearts; a seat that could
not follow and kept K♥ back under ``king_must_be_discarded`` does not hold it; in ``sequential``
doubling only the holders of a doublable card are asked, so a seat passed over holds none; in a match's
first deal the king is whoever was dealt the first king's card (7♥), so no other seat holds it. Observations,
the OpenSpiel adapter and world sampling all read the same ``Knowledge``.

``Knowledge`` is incremental: feeding it the views of one deal in order costs one step per new play,
which keeps observation building cheap.
"""

from __future__ import annotations

from .. import actions as A
from ..cards import FULL_DECK, HEARTS, JACKS, KING_OF_HEARTS, SUIT_MASKS, Card
from ..contracts import Contract
from ..deal import Phase
from ..view import View

_KH = int(Card.parse("KH"))
_NOT_HEARTS = FULL_DECK & ~HEARTS
_KOH = int(Contract.KING_OF_HEARTS)
_COMPLEX = int(Contract.COMPLEX)
_TRIX = int(Contract.TRIX)


def placeable_after(placed: int) -> int:
    """The cards that may be placed on Trix layouts holding ``placed`` (each suit: its jack, or the
    cards just below the bottom and just above the top of its run)."""
    out = 0
    for s in range(4):
        run = (placed >> (13 * s)) & 0x1FFF
        if not run:
            out |= 1 << (13 * s + 9)
            continue
        low = (run & -run).bit_length() - 1
        high = run.bit_length() - 1
        if low > 0:
            out |= 1 << (13 * s + low - 1)
        if high < 12:
            out |= 1 << (13 * s + high + 1)
    return out


class Knowledge:
    """Per absolute seat: cards played this deal, cards known absent from the hand, suits known void."""

    __slots__ = ("_deal", "_n", "absent", "holds_one_of", "placeable", "played", "voids")

    def __init__(self) -> None:
        self._deal = -1
        self._n = 0
        self.played = [0, 0, 0, 0]  # cards each seat has played (or placed) this deal
        self.absent = [0, 0, 0, 0]  # cards each seat is known not to hold now
        self.voids = [0, 0, 0, 0]  # 4-bit suit masks: suits each seat has shown it lacks
        self.holds_one_of = [0, 0, 0, 0]  # sequential doubling: a seat asked was dealt one of these
        self.placeable = JACKS  # Trix: cards that may be placed now

    def reset(self) -> None:
        self._deal = -1
        self._n = 0
        self.played = [0, 0, 0, 0]
        self.absent = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.holds_one_of = [0, 0, 0, 0]
        self.placeable = JACKS

    def update(self, v: View) -> Knowledge:
        """Bring the inferences up to date with ``v`` (any seat's view of the current deal)."""
        plays = v.plays
        n = len(plays)
        if v.deal_number != self._deal or n < self._n or v.contract is None:
            self.reset()
            self._deal = v.deal_number
            self._first_king(v)
            if v.contract is None:
                return self
        contract = int(v.contract)
        self._passed_over(v)
        if n == self._n:
            return self
        if contract == _TRIX:
            self._trix(plays)
        else:
            self._tricks(v, contract)
        self._n = n
        return self

    def _first_king(self, v: View) -> None:
        """In the match's first deal (deal number 0; a redeal after a throw-in is deal 1 or later, dealt
        afresh) the king is the seat that was dealt the first king's card, so the other three do not
        hold it. Observations show it once the contract is named (before, no absent cards are shown)."""
        if v.deal_number:
            return
        card = 1 << int(v.rules.first_king_card)
        for s in range(4):
            if s != v.king:
                self.absent[s] |= card

    def _passed_over(self, v: View) -> None:
        """Sequential doubling asks the holders of a doublable card in turn from the king: a seat
        passed over holds none of them, and a seat that answered, or is being asked, was dealt one."""
        if v.rules.doubling_reveal != "sequential":
            return
        doublable = v.doublable
        for s in v.passed_over:
            self.absent[s] |= doublable
        for s, _ in v.doubling_answers:
            self.holds_one_of[s] = doublable
        if v.phase == Phase.DOUBLE and v.turn is not None:
            self.holds_one_of[v.turn] = doublable

    def _trix(self, plays: tuple[tuple[int, int], ...]) -> None:
        played = self.played
        absent = self.absent
        placeable = self.placeable
        placed = played[0] | played[1] | played[2] | played[3]
        for i in range(self._n, len(plays)):
            seat, action = plays[i]
            if action == A.PASS:
                absent[seat] |= placeable  # he could place none of them
                continue
            bit = 1 << action
            played[seat] |= bit
            placed |= bit
            placeable = placeable_after(placed)
        self.placeable = placeable

    def _tricks(self, v: View, contract: int) -> None:
        rules = v.rules
        ban = rules.hearts_lead_ban and contract == _KOH
        discard_king = rules.king_must_be_discarded and contract in (_KOH, _COMPLEX)
        played = self.played
        absent = self.absent
        voids = self.voids
        plays = v.plays
        for i in range(self._n, len(plays)):
            seat, card = plays[i]
            played[seat] |= 1 << card
            pos = i & 3
            if pos == 0:
                if ban and (1 << card) & HEARTS:
                    # Leading a heart under the ban: he held nothing else.
                    absent[seat] |= _NOT_HEARTS
                    voids[seat] |= 0b1101
                continue
            lead_suit = plays[i - pos][1] // 13
            if card // 13 != lead_suit:
                absent[seat] |= SUIT_MASKS[lead_suit]
                voids[seat] |= 1 << lead_suit
                if discard_king and card != _KH:
                    absent[seat] |= KING_OF_HEARTS


__all__ = ["Knowledge", "placeable_after"]
