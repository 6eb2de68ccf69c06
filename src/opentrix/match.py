"""A match: kingdoms, kings, the contract choice, totals and tiebreaks, over a sequence of deals.

``Match`` is the one state object every caller uses: ``legal_actions()``, ``apply()``, ``turn`` and
``phase`` cover the whole game. Dealing is the only chance event: a match built with a seed deals
itself; otherwise the caller passes each deal's hands to ``start_deal``.
"""

from __future__ import annotations

from collections.abc import Sequence
from numbers import Integral

from . import actions as A
from ._brief import brief
from .cards import CardSet
from .contracts import Contract
from .deal import Deal, Hands, Phase, as_action, check_hands, check_seat, deal_hands
from .errors import IllegalContract, NotYourTurn, WrongPhase
from .rules import Rules
from .summary import DealSummary

_CHOOSE = int(Phase.CHOOSE_CONTRACT)
_DEAL_OVER = int(Phase.DEAL_OVER)
_MATCH_OVER = int(Phase.MATCH_OVER)


# The largest seed a table keeps: the server stores seeds in a signed 64-bit column, and the CLI
# refuses larger ones up front rather than at the store.
MAX_SEED = 2**63 - 1


def team_totals_of(totals: Sequence[int]) -> list[int]:
    """The two teams' totals in partnership play: seats 0 and 2 across from each other, 1 and 3."""
    return [totals[0] + totals[2], totals[1] + totals[3]]


class Match:
    """The state of a whole match (or a part of one)."""

    __slots__ = (
        "_finished",
        "_live",
        "_summaries",
        "deals",
        "deals_before",
        "first_king",
        "history",
        "king",
        "kingdom",
        "kingdoms_total",
        "kings",
        "pending_hands",
        "phase",
        "played",
        "rules",
        "seed",
        "tiebreak_deal",
        "totals",
        "winners",
    )

    rules: Rules
    seed: int | str | None
    deals: list[Deal]
    deals_before: int  # deals dealt before this object's first: a match rebuilt in the middle has some
    kings: list[int]
    first_king: int
    king: int
    kingdom: int
    kingdoms_total: int
    played: list[int]
    tiebreak_deal: bool
    pending_hands: Hands | None
    totals: list[int]
    phase: int
    winners: list[int]
    _live: Deal | None  # the deal being played (claims, doubling, cards), else None: the hot path's shortcut
    history: list[int]
    _finished: list[DealSummary]  # grows by one per deal; a tuple rebuilt each deal made long records quadratic
    _summaries: tuple[DealSummary, ...] | None  # the tuple views share, built once after each deal

    def __init__(
        self,
        rules: Rules | None = None,
        hands: Sequence[int] | None = None,
        *,
        seed: int | str | None = None,
    ) -> None:
        """Start a match at its first contract choice.

        Give the first deal's ``hands``, or a ``seed`` from which every deal is dealt.
        """
        if rules is not None and not isinstance(rules, Rules):
            said = brief(rules, python=True)
            raise TypeError(f"a match's rules are a Rules, e.g. Rules.preset('classic'), not {said}")
        if isinstance(hands, Integral):  # Match(rules, 42): the seed given where the hands go
            raise TypeError(f"a match's second argument is the first deal's four hands; a seed goes as seed={hands}")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, Integral | str)):
            raise TypeError(f"a seed is an int or a string, not {brief(seed, python=True)}")
        self.rules = rules if rules is not None else Rules()
        self.seed = int(seed) if isinstance(seed, Integral) else seed  # numpy's int: a plain one, for records
        if hands is None:
            if seed is None:
                raise ValueError("a match needs the first deal's hands or a seed")
            hands = deal_hands(seed, 0)
        first = check_hands(hands)
        card = int(self.rules.first_king_card)
        self.first_king = next(s for s in range(4) if first[s] >> card & 1)
        self.deals = []
        self.deals_before = 0
        self.kings = []
        self.king = self.first_king
        self.kingdom = 0
        self.kingdoms_total = self.rules.kingdoms
        self.played = []
        self.tiebreak_deal = False
        self.pending_hands = first
        self.totals = [0, 0, 0, 0]
        self.phase = _CHOOSE
        self._live = None
        self.winners = []
        self.history = []
        self._finished = []
        self._summaries = ()

    @classmethod
    def at_contract_choice(
        cls,
        rules: Rules,
        hands: Sequence[int],
        *,
        king: int,
        kingdom: int = 0,
        played: Sequence[Contract] = (),
        totals: Sequence[int] = (0, 0, 0, 0),
        tiebreak_deal: bool = False,
        deal_number: int | None = None,
    ) -> Match:
        """A match in the middle: ``king`` is about to name a contract for ``hands``.

        For searches and simulations that rebuild a position from what a seat knows; earlier deals
        are not kept (their totals are, and their number: ``deal_number`` deals were dealt before
        this one, thrown-in ones included, so views of it say which deal of the match it is). Only
        the match's first deal (``deal_number=0``) has its king fixed by the cards, as the holder of
        the first king's card, in the first kingdom with nothing played; left out, ``deal_number`` is
        1, a later deal, which lets views infer nothing from who is king.
        """
        if not 0 <= king <= 3:
            raise ValueError(f"king must be a seat from 0 to 3, not {brief(king, python=True)}")
        if deal_number is not None and (type(deal_number) is not int or deal_number < 0):
            shown = brief(deal_number, python=True)
            raise ValueError(f"deal_number counts the deals dealt before, from 0, not {shown}")
        m = cls(rules, hands)
        if deal_number is None:
            deal_number = 1
        elif deal_number == 0:
            if kingdom or played or tiebreak_deal:
                raise ValueError("deal_number=0 is the match's first deal: kingdom 0, no contract played, no tiebreak")
            if king != m.first_king:
                card, holder = rules.first_king_card.symbol, m.first_king
                raise ValueError(f"in a match's first deal the king is the holder of {card}, seat {holder}, not {king}")
        m.deals_before = deal_number
        m.king = king
        m.kingdom = kingdom
        m.kingdoms_total = max(rules.kingdoms, kingdom + 1)
        m.played = [Contract(c) for c in played]
        m.totals = [int(t) for t in totals]
        m.tiebreak_deal = tiebreak_deal
        return m

    # -- queries ------------------------------------------------------------------------------------

    @property
    def deal(self) -> Deal | None:
        """The deal being played or last played."""
        return self.deals[-1] if self.deals else None

    @property
    def turn(self) -> int | None:
        """The seat to act, or None between deals and after the match."""
        phase = self.phase
        if phase == _CHOOSE:
            return self.king
        if phase >= _DEAL_OVER:
            return None
        return self.deals[-1].turn

    @property
    def is_over(self) -> bool:
        return self.phase == _MATCH_OVER

    def available_contracts(self) -> list[Contract]:
        """The contracts the king may still name in this kingdom."""
        if self.tiebreak_deal:
            return [Contract.KING_OF_HEARTS]
        return [c for c in self.rules.contracts if c not in self.played]

    def legal_actions(self) -> list[int]:
        live = self._live
        if live is not None:
            return live.legal_actions()
        if self.phase == _CHOOSE:  # ascending, as always (Complex lists its contracts Complex first)
            return sorted(A.CONTRACT_BASE + int(c) for c in self.available_contracts())
        return []

    def team_totals(self) -> list[int]:
        return team_totals_of(self.totals)

    # -- actions ------------------------------------------------------------------------------------

    def apply(self, action: int, seat: int | None = None) -> None:
        """Apply one action of the seat to act; with ``seat``, check that it is that seat's turn."""
        if type(action) is not int:  # numpy's ints become ints in the history; True, 3.0, "QS" are refused
            action = as_action(action)
        deal = self._live
        if deal is not None:
            deal.apply(action, seat)
            self.history.append(action)
            now = deal.phase
            if now != self.phase:  # rarely: the prelude ended, or the deal did
                if now == _DEAL_OVER:
                    self._live = None
                    self._deal_finished(deal)
                else:
                    self.phase = now
            return
        phase = self.phase
        if phase == _CHOOSE:
            if seat is not None and seat != self.king:
                check_seat(seat)
                raise NotYourTurn(f"it is seat {self.king}'s turn (the king names the contract), not seat {seat}'s")
            self._choose(action)
            return
        if phase == _DEAL_OVER:
            raise WrongPhase("the deal is over; the next one has not been dealt")
        raise WrongPhase("the match is over")

    def _choose(self, action: int) -> None:
        if not A.is_contract(action):
            try:
                text = A.to_str(action)
            except ValueError:
                text = repr(action)
            raise WrongPhase(f"seat {self.king} must name a contract first, not '{text}'")
        contract = Contract(action - A.CONTRACT_BASE)
        if self.tiebreak_deal and contract != Contract.KING_OF_HEARTS:
            raise IllegalContract(f"the tiebreak deal is King of Hearts, not {contract.id}")
        if contract not in self.rules.contracts and not self.tiebreak_deal:
            allowed = ", ".join(c.id for c in self.rules.contracts)
            raise IllegalContract(f"{contract.id} is not a contract in these rules (contracts: {allowed})")
        if contract in self.played and not self.tiebreak_deal:
            raise IllegalContract(f"{contract.id} has already been played in seat {self.king}'s kingdom")
        assert self.pending_hands is not None
        deal = Deal(self.rules, self.king, contract, self.pending_hands)
        self.pending_hands = None
        self.deals.append(deal)
        self.kings.append(self.king)
        self.history.append(action)
        self.phase = deal.phase
        self._live = deal

    def _deal_finished(self, deal: Deal) -> None:
        assert deal.scores is not None
        summary = DealSummary(deal.king, Contract(deal.contract), deal.thrown_in, deal.scores, CardSet(deal.doubled))
        self._finished.append(summary)
        self._summaries = None
        if deal.thrown_in is not None:
            self.phase = _DEAL_OVER  # the same king deals again and chooses again
            return
        for s in range(4):
            self.totals[s] += deal.scores[s]
        if self.tiebreak_deal:
            self._check_winner()
            return
        self.played.append(Contract(deal.contract))
        if len(self.played) < len(self.rules.contracts):
            self.phase = _DEAL_OVER
            return
        self.kingdom += 1
        self.played = []
        self.king = (self.king + self.rules.direction) & 3
        if self.kingdom < self.kingdoms_total:
            self.phase = _DEAL_OVER
        else:
            self._check_winner()

    def _check_winner(self) -> None:
        """After the last regular deal (or a tiebreak): a single leader wins, or the tiebreak runs."""
        if self.rules.partnership:
            teams = self.team_totals()
            best = max(teams)
            leaders = [s for s in range(4) if teams[s & 1] == best]
        else:
            best = max(self.totals)
            leaders = [s for s in range(4) if self.totals[s] == best]
        unique = len(leaders) == (2 if self.rules.partnership else 1)
        tiebreak = self.rules.tiebreak
        if unique or tiebreak == "none":
            self.winners = leaders
            self.phase = _MATCH_OVER
            return
        if tiebreak == "extra_koh_deal":
            if self.tiebreak_deal:
                self.king = (self.king + self.rules.direction) & 3
            self.tiebreak_deal = True
        else:  # extra_kingdom: self.king already moved on to the next in line
            self.kingdoms_total += 1
        self.phase = _DEAL_OVER

    def start_deal(self, hands: Sequence[int] | None = None) -> None:
        """Deal the next deal: the given hands, or the next hands of the match's seed."""
        if self.phase != _DEAL_OVER:
            if self.phase == _MATCH_OVER:
                raise WrongPhase("the match is over")
            raise WrongPhase("the current deal is not over")
        if hands is None:
            if self.seed is None:
                raise ValueError("this match has no seed: pass the hands of the next deal")
            hands = deal_hands(self.seed, len(self.deals))
        self.pending_hands = check_hands(hands)
        self.phase = _CHOOSE

    # -- copying ------------------------------------------------------------------------------------

    def copy(self) -> Match:
        """An independent copy; finished deals are shared (they never change again)."""
        m = Match.__new__(Match)
        m.rules = self.rules
        m.seed = self.seed
        deals = self.deals.copy()
        m._live = None
        if self._live is not None:
            m._live = deals[-1] = self._live.copy()
        m.deals = deals
        m.deals_before = self.deals_before
        m.kings = self.kings.copy()
        m.first_king = self.first_king
        m.king = self.king
        m.kingdom = self.kingdom
        m.kingdoms_total = self.kingdoms_total
        m.played = self.played.copy()
        m.tiebreak_deal = self.tiebreak_deal
        m.pending_hands = self.pending_hands
        m.totals = self.totals.copy()
        m.phase = self.phase
        m.winners = self.winners.copy()
        m.history = self.history.copy()
        m._finished = self._finished.copy()
        m._summaries = self._summaries
        return m

    __copy__ = copy

    @property
    def summaries(self) -> tuple[DealSummary, ...]:
        """Every finished deal, thrown-in ones included, in order (one tuple shared until the next deal ends)."""
        if self._summaries is None:
            self._summaries = tuple(self._finished)
        return self._summaries

    def __repr__(self) -> str:
        return (
            f"<Match {self.rules.preset_name} deal={len(self.deals)} phase={Phase(self.phase)} "
            f"turn={self.turn} totals={self.totals}>"
        )
