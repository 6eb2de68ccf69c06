"""What the table has learned about hidden hands, inferred from one seat's view only.

Every seat sees the same plays, so these inferences are public: a seat that did not follow suit is
void in it; a seat that passed in Trix holds none of the cards that could have been placed then; a
seat that led a heart under the King of Hearts lead ban holds nothing but hearts; a seat that could
not follow and kept K♥ back under ``king_must_be_discarded`` does not hold it; in ``sequential``
doubling only the holders of a doublable card are asked, so a seat passed over holds none; in a match's
first deal the king is whoever was dealt the first king's card (7♥), so no other seat holds it. Observations,
the OpenSpiel adapter and world sampling all read the same ``Knowledge``.

Every fact is read from the deal's public history alone: the rules, the deal's number, its king and
contract, the doubling so far and the plays in order (never a seat's own cards). ``Knowledge`` is
incremental: feeding it the views of one deal in order costs one step per new play, which keeps
observation building cheap. It goes on from what it holds only when the view continues the history
it last read, and otherwise starts afresh from the view, so ``update(v)`` always leaves it as
``Knowledge().update(v)`` would: one object may be kept across deals, episodes (every one-deal
episode is a deal number 0) and seats.
"""

from __future__ import annotations

from .. import actions as A
from ..cards import FULL_DECK, HEARTS, JACKS, KING_OF_HEARTS, SUIT_MASKS, Card
from ..contracts import Contract
from ..deal import Phase
from ..rules import Rules
from ..view import View

_KH = int(Card.parse("KH"))
_NOT_HEARTS = FULL_DECK & ~HEARTS
_KOH = int(Contract.KING_OF_HEARTS)
_COMPLEX = int(Contract.COMPLEX)
_TRIX = int(Contract.TRIX)
_PLAY = Phase.PLAY


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
    """Per absolute seat: cards played this deal, cards known absent from the hand, suits known void.

    What it holds belongs to the public history of the last view it read: the rules, the deal's number,
    king and contract, the doubling so far (the answers seen, and while the doubling or the redeal
    claims run, the phase and the seat asked) and the plays. ``update(v)`` goes on from there only if
    ``v`` has the same rules, deal number, king, contract and doubling, and the plays already read are
    the first plays of ``v``; anything else (another deal, even one with the same deal number, or the
    same deal replayed with other plays, or an earlier moment of it) starts afresh from ``v``. So
    ``update(v)`` always leaves it as ``Knowledge().update(v)`` would, whichever views came before.
    """

    __slots__ = (
        "_contract",
        "_deal",
        "_doubling",
        "_king",
        "_n",
        "_plays",
        "_rules",
        "absent",
        "holds_one_of",
        "placeable",
        "played",
        "voids",
    )

    played: list[int]  # cards each seat has played (or placed) this deal
    absent: list[int]  # cards each seat is known not to hold now
    voids: list[int]  # 4-bit suit masks: suits each seat has shown it lacks
    holds_one_of: list[int]  # sequential doubling: a seat asked was dealt one of these
    placeable: int  # Trix: cards that may be placed now
    # The public history the facts above were read from (the next view must continue it):
    _rules: Rules | None
    _deal: int
    _king: int
    _contract: Contract | None
    _doubling: object  # see _doubling_of
    _n: int  # plays read
    _plays: tuple[tuple[int, int], ...]  # the plays read: the last view's own tuple

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        """Forget everything (``update`` starts afresh by itself whenever it must: see the class)."""
        self._rules = None
        self._deal = -1
        self._king = -1
        self._contract = None
        self._doubling = None
        self._n = 0
        self._plays = ()
        self.played = [0, 0, 0, 0]
        self.absent = [0, 0, 0, 0]
        self.voids = [0, 0, 0, 0]
        self.holds_one_of = [0, 0, 0, 0]
        self.placeable = JACKS

    def update(self, v: View) -> Knowledge:
        """Bring the inferences up to date with ``v`` (any seat's view of any deal: see the class)."""
        plays = v.plays
        n = len(plays)
        seen = self._n
        doubling = _doubling_of(v)
        if (
            n < seen
            or v.contract is not self._contract
            or v.deal_number != self._deal
            or v.king != self._king
            or doubling != self._doubling
            or plays[:seen] != self._plays  # the same seed replayed may share all the rest
            or (v.rules is not self._rules and v.rules != self._rules)
        ):
            self._start(v, doubling)
            seen = 0
        if n == seen or v.contract is None:
            return self
        if int(v.contract) == _TRIX:
            self._trix(plays)
        else:
            self._tricks(v, int(v.contract))
        self._n = n
        self._plays = plays
        return self

    def _start(self, v: View, doubling: object) -> None:
        """Start afresh from ``v``: what its plays reveal is read by ``update``."""
        self.reset()
        self._rules = v.rules
        self._deal = v.deal_number
        self._king = v.king
        self._contract = v.contract
        self._doubling = doubling
        self._first_king(v)
        self._passed_over(v)

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
        doublable = v.doublable
        if v.rules.doubling_reveal != "sequential" or not doublable:
            return
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


def _doubling_of(v: View) -> object:
    """What the doubling inferences of ``v`` depend on besides its king and contract: the answers
    seen and, before the play, the phase and the seat to act (who is asked, who was passed over).
    Equal for two views of a deal, the inferences are the same."""
    answers = v.doubling_answers
    return answers if v.phase >= _PLAY else (answers, int(v.phase), v.turn)


__all__ = ["Knowledge", "placeable_after"]
