"""What one seat may know: the only way information leaves the engine toward players and bots.

``view(match, seat)`` shows that seat's own hand and everything public: the king and contract, doubled
cards (in hidden reveal only once every seat has answered), every card played and by whom, the trick or
the Trix layouts, tricks and cards taken, scores. ``seat=None`` is a spectator, who sees no hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from . import actions as A
from ._brief import brief
from .cards import Card, CardSet, card_name
from .contracts import Contract
from .deal import DOUBLABLE_IN, Phase
from .match import Match, team_totals_of
from .rules import Rules
from .summary import DealSummary


@dataclass(frozen=True, slots=True)
class View:
    """Everything ``seat`` may know now; bots and clients receive only this."""

    seat: int | None
    rules: Rules
    phase: Phase
    turn: int | None
    king: int
    kingdom: int
    deal_number: int
    tiebreak_deal: bool
    available_contracts: tuple[Contract, ...]
    contract: Contract | None
    hand: CardSet | None
    hand_sizes: tuple[int, int, int, int]
    doubled: tuple[tuple[int, int], ...]  # (holder, card) of each card shown doubled
    doubling_answers: tuple[tuple[int, CardSet], ...]  # (seat, cards it doubled) of each answer seen
    plays: tuple[tuple[int, int], ...]  # (seat, action) of every card or pass this deal
    trick: tuple[tuple[int, int], ...]  # (seat, card) of the trick on the table
    last_trick: tuple[tuple[int, int], ...]
    last_trick_winner: int | None
    tricks_taken: tuple[int, int, int, int]
    taken: tuple[CardSet, CardSet, CardSet, CardSet]
    layouts: tuple[tuple[int, int] | None, ...]  # per suit: (lowest, highest) card placed in Trix
    out: tuple[int, ...]  # Trix: seats in the order they emptied their hands
    thrown_in: int | None
    deal_scores: tuple[int, int, int, int] | None
    history: tuple[DealSummary, ...]
    totals: tuple[int, int, int, int]
    match_over: bool
    winners: tuple[int, ...]
    legal_actions: tuple[int, ...]

    @property
    def to_act(self) -> bool:
        return self.seat is not None and self.seat == self.turn

    @property
    def doublable(self) -> int:
        """The cards that may be doubled in this deal (0 when doubling is off or no contract is named)."""
        if self.contract is None or not self.rules.doubling:
            return 0
        return DOUBLABLE_IN.get(int(self.contract), 0)

    @property
    def passed_over(self) -> tuple[int, ...]:
        """Seats the ``sequential`` doubling has skipped so far. Only holders of a doublable card are
        asked, in turn from the king, so each of these holds none (a public fact every seat can read).
        A deal thrown in before the doubling asked nobody: nobody was passed over."""
        if (
            not self.doublable
            or self.rules.doubling_reveal != "sequential"
            or self.phase == Phase.CLAIM
            or self.thrown_in is not None
        ):
            return ()
        answered = {s for s, _ in self.doubling_answers}
        king = self.king
        # While the doubling runs, only the seats before the one asked now have had their chance.
        upto = (self.turn - king) % 4 if self.phase == Phase.DOUBLE and self.turn is not None else 4
        return tuple(s for s in range(4) if s not in answered and (s - king) % 4 < upto)

    def to_dict(self) -> dict[str, Any]:
        """JSON-ready, with record card strings; what the server sends to this seat."""

        def pairs(ps: tuple[tuple[int, int], ...]) -> list[list[Any]]:
            return [[s, A.to_str(a)] for s, a in ps]

        return {
            "seat": self.seat,
            "rules": self.rules.to_json(),
            "phase": str(self.phase),
            "turn": self.turn,
            "king": self.king,
            "kingdom": self.kingdom,
            "deal_number": self.deal_number,
            "tiebreak_deal": self.tiebreak_deal,
            "available_contracts": [c.id for c in self.available_contracts],
            "contract": self.contract.id if self.contract is not None else None,
            "hand": self.hand.names() if self.hand is not None else None,
            "hand_sizes": list(self.hand_sizes),
            "doubled": [[s, card_name(c)] for s, c in self.doubled],
            "doubling_answers": [[s, cs.names()] for s, cs in self.doubling_answers],
            "plays": pairs(self.plays),
            "trick": pairs(self.trick),
            "last_trick": pairs(self.last_trick),
            "last_trick_winner": self.last_trick_winner,
            "tricks_taken": list(self.tricks_taken),
            "taken": [t.names() for t in self.taken],
            "layouts": [None if lay is None else [card_name(lay[0]), card_name(lay[1])] for lay in self.layouts],
            "out": list(self.out),
            "thrown_in": self.thrown_in,
            "deal_scores": list(self.deal_scores) if self.deal_scores is not None else None,
            "history": [h.to_dict() for h in self.history],
            "totals": list(self.totals),
            "team_totals": team_totals_of(self.totals) if self.rules.partnership else None,
            "match_over": self.match_over,
            "winners": list(self.winners),
            "legal_actions": [A.to_str(a) for a in self.legal_actions],
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> View:
        """The inverse of ``to_dict``: a view as a server sent it, for a client that draws or plays it
        with the engine's own code (the terminal client at a server's table). ``team_totals`` is
        derived, so it is not read. Anything that is not such a view is a ``ValueError``."""
        try:
            return _view_from_dict(data)
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise ValueError(f"not a view: {type(e).__name__}: {e}") from None


def _pairs(rows: list[list[Any]]) -> tuple[tuple[int, int], ...]:
    return tuple((int(s), A.parse(a)) for s, a in rows)


def _four(xs: list[Any]) -> tuple[int, int, int, int]:
    if len(xs) != 4:
        raise ValueError(f"four seats, not {len(xs)}")
    return (int(xs[0]), int(xs[1]), int(xs[2]), int(xs[3]))


def _view_from_dict(d: dict[str, Any]) -> View:
    taken = [CardSet(t) for t in d["taken"]]
    if len(taken) != 4:
        raise ValueError("four seats' taken cards")
    return View(
        seat=None if d["seat"] is None else int(d["seat"]),
        rules=Rules.from_json(d["rules"]),
        phase=Phase[str(d["phase"]).upper()],
        turn=None if d["turn"] is None else int(d["turn"]),
        king=int(d["king"]),
        kingdom=int(d["kingdom"]),
        deal_number=int(d["deal_number"]),
        tiebreak_deal=bool(d["tiebreak_deal"]),
        available_contracts=tuple(Contract.parse(c) for c in d["available_contracts"]),
        contract=None if d["contract"] is None else Contract.parse(d["contract"]),
        hand=None if d["hand"] is None else CardSet(d["hand"]),
        hand_sizes=_four(d["hand_sizes"]),
        doubled=tuple((int(s), int(Card.parse(c))) for s, c in d["doubled"]),
        doubling_answers=tuple((int(s), CardSet(cs)) for s, cs in d["doubling_answers"]),
        plays=_pairs(d["plays"]),
        trick=_pairs(d["trick"]),
        last_trick=_pairs(d["last_trick"]),
        last_trick_winner=None if d["last_trick_winner"] is None else int(d["last_trick_winner"]),
        tricks_taken=_four(d["tricks_taken"]),
        taken=(taken[0], taken[1], taken[2], taken[3]),
        layouts=tuple(
            None if lay is None else (int(Card.parse(lay[0])), int(Card.parse(lay[1]))) for lay in d["layouts"]
        ),
        out=tuple(int(s) for s in d["out"]),
        thrown_in=None if d["thrown_in"] is None else int(d["thrown_in"]),
        deal_scores=None if d["deal_scores"] is None else _four(d["deal_scores"]),
        history=tuple(DealSummary.from_dict(h) for h in d["history"]),
        totals=_four(d["totals"]),
        match_over=bool(d["match_over"]),
        winners=tuple(int(s) for s in d["winners"]),
        legal_actions=tuple(A.parse(a) for a in d["legal_actions"]),
    )


_EMPTY = CardSet(0)
# Lookups by int (constant tables, faster than calling the enums on the hot path of every observation).
_PHASES = tuple(Phase)
_CONTRACTS = tuple(Contract)
_CHOOSE, _DOUBLE, _PLAY, _DEAL_OVER = Phase.CHOOSE_CONTRACT, Phase.DOUBLE, Phase.PLAY, Phase.DEAL_OVER
_TRIX = Contract.TRIX


def _cards(mask: int) -> CardSet:
    """A CardSet of a mask the engine produced (already in range, so not checked again)."""
    return int.__new__(CardSet, mask)


def view(match: Match, seat: int | None) -> View:
    """What ``seat`` (0–3, or None for a spectator) may know of ``match`` now."""
    if seat is not None and not (isinstance(seat, int) and not isinstance(seat, bool) and 0 <= seat <= 3):
        raise ValueError(f"seat must be 0 to 3 or None, not {brief(seat, python=True)}")
    phase = _PHASES[match.phase]
    turn = match.turn
    deal = match.deals[-1] if match.deals else None
    in_deal = deal is not None and phase != _CHOOSE
    history = match.summaries  # every finished deal, the one just before a contract choice included
    if phase == _CHOOSE:
        hands = match.pending_hands
        assert hands is not None
        hand = _cards(hands[seat]) if seat is not None else None
        sizes = (13, 13, 13, 13)
        king = match.king
    else:
        assert deal is not None
        hand = _cards(deal.hands[seat]) if seat is not None else None
        sizes = (
            deal.hands[0].bit_count(),
            deal.hands[1].bit_count(),
            deal.hands[2].bit_count(),
            deal.hands[3].bit_count(),
        )
        king = deal.king
    if in_deal and deal is not None:
        contract: Contract | None = _CONTRACTS[deal.contract]
        hidden = phase == _DOUBLE and match.rules.doubling_reveal == "hidden"
        doubled_mask = deal.doubled
        if hidden:
            doubled_mask &= deal.dealt[seat] if seat is not None else 0
        doubled = tuple((deal.holder_of(c), c) for c in A.DOUBLABLE if doubled_mask >> c & 1) if doubled_mask else ()
        answers = tuple((s, _cards(m)) for s, m in deal.answers if not hidden or s == seat)
        plays = tuple(zip(deal.seats, deal.plays, strict=True))
        n_trick = len(deal.trick)
        trick = plays[len(plays) - n_trick :] if n_trick else ()
        last_trick: tuple[tuple[int, int], ...] = ()
        last_winner = None
        if contract is not _TRIX:
            done = len(plays) - n_trick
            if done >= 4:
                last_trick = plays[done - 4 : done]
                last_winner = deal.leader if phase == _PLAY else _trick_winner(last_trick)
        layouts = tuple(deal.layouts) if contract is _TRIX else (None, None, None, None)
        tk = deal.taken
        taken = (_cards(tk[0]), _cards(tk[1]), _cards(tk[2]), _cards(tk[3]))
        tricks = (deal.tricks[0], deal.tricks[1], deal.tricks[2], deal.tricks[3])
        out = tuple(deal.out)
        thrown_in = deal.thrown_in
        deal_scores = deal.scores
    else:
        contract = None
        doubled = plays = trick = last_trick = ()
        answers = ()
        last_winner = None
        layouts = (None, None, None, None)
        taken = (_EMPTY, _EMPTY, _EMPTY, _EMPTY)
        tricks = (0, 0, 0, 0)
        out = ()
        thrown_in = None
        deal_scores = None
    legal = tuple(match.legal_actions()) if seat is not None and seat == turn else ()
    t = match.totals
    return View(
        seat=seat,
        rules=match.rules,
        phase=phase,
        turn=turn,
        king=king,
        kingdom=match.kingdom,
        deal_number=match.deals_before + len(match.deals) - (0 if phase == _CHOOSE else 1),
        tiebreak_deal=match.tiebreak_deal,
        available_contracts=tuple(c for c in match.available_contracts() if not (phase < _DEAL_OVER and c is contract)),
        contract=contract,
        hand=hand,
        hand_sizes=sizes,
        doubled=doubled,
        doubling_answers=answers,
        plays=plays,
        trick=trick,
        last_trick=last_trick,
        last_trick_winner=last_winner,
        tricks_taken=tricks,
        taken=taken,
        layouts=layouts,
        out=out,
        thrown_in=thrown_in,
        deal_scores=deal_scores,
        history=history,
        totals=(t[0], t[1], t[2], t[3]),
        match_over=match.is_over,
        winners=tuple(match.winners),
        legal_actions=legal,
    )


def _trick_winner(trick: tuple[tuple[int, int], ...]) -> int:
    lead = trick[0][1]
    top = (lead // 13) * 13 + 12
    best_seat, best = trick[0]
    for s, c in trick[1:]:
        if best < c <= top:
            best_seat, best = s, c
    return best_seat
