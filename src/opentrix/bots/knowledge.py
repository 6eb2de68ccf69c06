"""What one seat can infer about the hidden hands from its view, and deals sampled to match it.

Hard facts: cards seen played, a suit a seat failed to follow (a void), a Trix pass (the seat held none
of the cards placeable at that moment), a heart led under the hearts-lead ban (nothing but hearts left),
a failure to discard K♥ when the rule forces it, doubled cards shown with their holders, and in
sequential doubling a seat passed over (it holds no doublable card) or asked (it was dealt one).
Beyond them, ``Posterior`` draws deals in proportion to how well they explain every card the others
played and every doubling answer, replayed under the shared rules of thumb (``Fit``).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .. import actions as A
from ..cards import HEARTS, JACKS, KING_OF_HEARTS, QUEENS, SUIT_MASKS, cards_of
from ..contracts import Contract
from ..deal import Deal, trick_legal
from ..rules import Rules
from ..view import View
from .policy import BELOW, FULL, costs_for, doubles, place_trix, play_trick_card
from .simulate import drive_prelude

_KOH = Contract.KING_OF_HEARTS
_COMPLEX = Contract.COMPLEX
_PENALTY_CARDS = {int(_KOH): KING_OF_HEARTS, int(Contract.QUEENS): QUEENS}
_ASKED_TRIES = 30  # draws tried for one where every seat asked in sequential doubling holds a doublable card


@dataclass(slots=True)
class Seen:
    """One card another seat played, kept to replay it under the rules of thumb on a sampled deal."""

    seat: int
    card: int
    trick: tuple[int, ...]  # the cards already on the table (trick contracts)
    gone: int  # every card played before it
    playable: int = 0  # Trix: the cards that could be placed at that moment
    later: int = 0  # the cards this seat played from here on: its hand then is its hand now plus these


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
    seen: list[Seen] = field(default_factory=list)  # the other seats' past card decisions, to replay
    answers: dict[int, int] = field(default_factory=dict)  # other seats' doubling answers seen
    doublable: int = 0  # the cards that may be doubled in this deal (``View.doublable``)

    @property
    def gone(self) -> int:
        p = self.played
        return p[0] | p[1] | p[2] | p[3]

    @property
    def table(self) -> int:
        """The cards on the table in the trick being played (none in Trix, which has no tricks)."""
        if self.contract == int(Contract.TRIX):
            return 0
        m = 0
        for c in self.plays[len(self.plays) - len(self.plays) % 4 :]:
            m |= 1 << c
        return m

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
        for s, cards in v.doubling_answers:
            if s != k.seat:
                k.answers[s] = int(cards)
        k._read_askers(v)
        if contract == int(Contract.TRIX):
            k._read_trix(v)
        elif contract >= 0:
            k._read_tricks(v)
        gone = k.gone
        for s in range(4):
            k.fixed[s] &= ~gone
            k.banned[s] &= ~gone
            k.unlikely[s] &= ~gone & ~k.fixed[s] & ~k.banned[s]
        later = [0, 0, 0, 0]
        for d in reversed(k.seen):
            if d.card >= 0:
                later[d.seat] |= 1 << d.card
            d.later = later[d.seat]
        me = k.seat
        k.banned[me] = 0
        k.fixed[me] = 0
        k.unlikely[me] = 0
        return k

    def _read_askers(self, v: View) -> None:
        """Sequential doubling asks only the holders of a doublable card: a seat passed over holds none."""
        self.doublable = v.doublable
        for s in v.passed_over:
            self.banned[s] |= self.doublable

    def _read_tricks(self, v: View) -> None:
        rules = self.rules
        ban_rule = rules.hearts_lead_ban and self.contract == _KOH
        discard_rule = rules.king_must_be_discarded and self.contract in (_KOH, _COMPLEX)
        penalties = _PENALTY_CARDS.get(self.contract, 0)
        lead_suit = 0
        win = 0
        trick: list[int] = []
        for i, (seat, card) in enumerate(v.plays):
            self.plays.append(card)
            bit = 1 << card
            if i % 4 == 0:
                trick = []
            if seat != self.seat:
                self.seen.append(Seen(seat, card, tuple(trick), self.gone))
            trick.append(card)
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
            if seat != self.seat and action != A.PASS:
                self.seen.append(Seen(seat, action, (), self.gone, playable))
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
        hands = self._draw(rng, inference, trust)
        for _ in range(_ASKED_TRIES if inference else 0):
            if all(self.holds_doublable(s, hands[s]) for s in range(4)):
                break
            hands = self._draw(rng, inference, trust)
        return hands  # after _ASKED_TRIES misses the last draw: the weighting still reads the answers

    def _draw(self, rng: random.Random, inference: bool, trust: float) -> list[int]:
        if inference and trust and any(self.unlikely) and rng.random() < trust:
            hinted = [self.banned[s] | self.unlikely[s] for s in range(4)]
            got = self._sample_banned(rng, hinted, strict=False)
            if got is not None:
                return got
        hands = self._sample_banned(rng, self.banned if inference else [0, 0, 0, 0], strict=True)
        assert hands is not None
        return hands

    def holds_doublable(self, seat: int, hand: int) -> bool:
        """Whether ``hand`` (the seat's cards now) fits a hard fact of sequential doubling: a seat asked
        whether to double was dealt a doublable card (a seat passed over is ``banned`` from them)."""
        if not (self.doublable and seat in self.answers and self.rules.doubling_reveal == "sequential"):
            return True
        return bool((hand | self.played[seat]) & self.doublable)

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
        got = assign_exact(rng, cards, others, allowed, need)
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


def assign_exact(
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


# -- how well a sampled deal explains what the others did --------------------------------------------


class Fit:
    """Counts, per seat, the decisions a sampled deal fails to explain under the rules of thumb.

    A seat's hand when it played a card is its sampled hand now plus the cards it played since, so each
    past play (and each doubling answer) can be replayed with the shared policy: a deal under which a
    seat would have played otherwise is a less likely deal. Deterministic and on card-set ints.
    """

    def __init__(self, know: Knowledge) -> None:
        self.know = know
        rules = know.rules
        contract = know.contract
        self.trix = contract == int(Contract.TRIX)
        self.ban = rules.hearts_lead_ban and contract == _KOH
        self.discard_king = rules.king_must_be_discarded and contract in (_KOH, _COMPLEX)
        self.by_seat: list[list[Seen]] = [[], [], [], []]
        for d in know.seen:
            self.by_seat[d.seat].append(d)
        for plays in self.by_seat:
            plays.sort(key=lambda d: not d.trick)  # leads cost most to replay: check them last
        self.costs = [
            costs_for(rules, contract, know.doubled, know.doubled & (know.fixed[s] | know.played[s])) for s in range(4)
        ]
        self.doublable = know.doublable
        self.sequential = rules.doubling_reveal == "sequential"

    @property
    def informative(self) -> bool:
        return bool(self.know.seen) or bool(self.doublable and self.know.answers)

    def misfits(
        self,
        seat: int,
        hand: int,
        stop: float = math.inf,
        before: tuple[int, list[bool]] | None = None,
        out: list[bool] | None = None,
    ) -> int:
        """How many of ``seat``'s decisions seen so far its rules of thumb would not have taken with ``hand``.

        Counting stops once it reaches ``stop`` (the caller only needs to know it is that bad). ``out``
        collects, card by card, whether each play was missed. With ``before`` (an earlier hand and its
        ``out``), a card that followed suit is not replayed when the hand holds the same cards in that
        suit: following depends on those cards alone, so the answer is the earlier one.
        """
        know = self.know
        n = 0
        answer = know.answers.get(seat)
        if answer is not None and self.doublable:
            dealt = hand | know.played[seat]
            if doubles(know.rules, know.contract, dealt, dealt & self.doublable) != answer:
                n += 1
            if self.sequential and not dealt & self.doublable:
                n += 3  # it was asked, so it held a doublable card
        if self.trix:
            for d in self.by_seat[seat]:
                h = hand | d.later
                legal = h & d.playable
                if legal & (legal - 1) and place_trix(h, legal, d.gone) != d.card:
                    n += 1
                    if n >= stop:
                        return n
            return n
        k = self.costs[seat]
        changed, was = (hand ^ before[0], before[1]) if before is not None else (-1, None)
        for i, d in enumerate(self.by_seat[seat]):
            h = hand | d.later
            trick = d.trick
            if trick and was is not None:
                suit = SUIT_MASKS[trick[0] // 13]
                if h & suit and not changed & suit:
                    if was[i]:
                        n += 1
                        if n >= stop:
                            return n
                    if out is not None:
                        out.append(was[i])
                    continue
            legal = trick_legal(h, trick[0] if trick else -1, self.ban, self.discard_king)
            missed = bool(legal & (legal - 1)) and play_trick_card(k, h, legal, list(trick), d.gone) != d.card
            if out is not None:
                out.append(missed)
            if missed:
                n += 1
                if n >= stop:
                    return n
        return n


MIN_JUDGED = 4  # decisions of a seat seen before it can be judged not to follow the rules of thumb
OFF_RULES = 0.15  # the share of them that even the best-explaining chain leaves unexplained, then


class Posterior:
    """Deals drawn in proportion to how well they explain the others' play (Metropolis chains).

    Each explained decision weighs 1 and each unexplained one ``eps``, on top of the hard facts. A chain
    moves by swapping two hidden cards between two other seats (a symmetric proposal, so the uniform
    prior over consistent deals is kept) and yields every ``thin``-th state; ``chains`` independent
    chains, used in turn, keep one early wrong guess from dominating every draw.
    """

    def __init__(
        self,
        know: Knowledge,
        rng: random.Random,
        eps: float = 0.0001,
        thin: int = 20,
        burn: int = 300,
        trust: float = 0.9,
        chains: int = 8,
    ) -> None:
        self.know = know
        self.rng = rng
        self.fit = Fit(know)
        self.eps = eps
        self.log_eps = math.log(eps) if eps < 1.0 else 0.0
        self.thin = thin
        self.burn = burn
        self.trust = trust
        self.others = [s for s in range(4) if s != know.seat]
        self.allowed = [FULL & ~know.banned[s] for s in range(4)]
        self.states: list[tuple[list[int], list[int], list[list[bool]]]] = []
        self.chains = chains
        self.turn = 0
        # Per seat, the weight of one unexplained decision, -log(eps); 0 once a seat is judged not to
        # play by the rules of thumb at all (``_judge``). None while every seat is trusted alike.
        self.weights: list[float] | None = None
        self.judged = False

    def draw(self) -> list[int]:
        i = self.turn % self.chains
        self.turn += 1
        if i == len(self.states):
            hands = self.know.sample(self.rng, True, self.trust)
            missed: list[list[bool]] = [[], [], [], []]
            bad = [self.fit.misfits(s, hands[s], out=missed[s]) if s != self.know.seat else 0 for s in range(4)]
            self.states.append((hands, bad, missed))
            steps = self.burn
        else:
            steps = self.thin
        hands, bad, missed = self.states[i]
        for _ in range(steps):
            self._step(hands, bad, missed)
        if i == self.chains - 1 and not self.judged and self.log_eps and self._judge():
            for hands_, bad_, missed_ in self.states:  # settle again under the new weights
                for _ in range(self.burn):
                    self._step(hands_, bad_, missed_)
        return list(hands)

    def decisions(self, seat: int) -> int:
        """How many of ``seat``'s decisions the weighting reads (plays, and a doubling answer)."""
        answered = seat in self.know.answers and bool(self.fit.doublable)
        return len(self.fit.by_seat[seat]) + answered

    def _judge(self) -> bool:
        """Stop reading the play of a seat that no chain can explain by the rules of thumb.

        Against players who follow them, the chains settle on deals that explain every decision. A seat
        whose decisions stay unexplained in every chain (at least ``OFF_RULES`` of them, and two or more)
        plays some other way (a beginner, a random bot), and reading its cards as if it followed the
        rules of thumb would mislead: its soft evidence is dropped, and only the hard facts (voids,
        passes, doubled cards) still place its cards. Returns whether any seat was dropped.
        """
        self.judged = True
        dropped = False
        for s in self.others:
            n = self.decisions(s)
            least = min(bad[s] for _, bad, _ in self.states)
            if n >= MIN_JUDGED and least >= 2 and least >= OFF_RULES * n:
                if self.weights is None:
                    self.weights = [-self.log_eps] * 4
                self.weights[s] = 0.0
                dropped = True
        return dropped

    def _step(self, hands: list[int], bad: list[int], missed: list[list[bool]]) -> None:
        rng = self.rng
        know = self.know
        s, t = rng.sample(self.others, 2)
        hs, ht = hands[s], hands[t]
        ms, mt = hs & ~know.fixed[s], ht & ~know.fixed[t]
        if not ms or not mt:
            return
        x = _random_card(rng, ms)
        y = _random_card(rng, mt)
        if not (self.allowed[t] >> x & 1 and self.allowed[s] >> y & 1):
            return
        swap = (1 << x) | (1 << y)
        ns, nt = hs ^ swap, ht ^ swap
        held = know.holds_doublable  # a hard fact: no step takes the last doublable card from a seat asked
        if (held(s, hs) and not held(s, ns)) or (held(t, ht) and not held(t, nt)):
            return
        if self.weights is not None:
            self._step_weighted(hands, bad, missed, s, t, ns, nt)
            return
        # Accept when eps**worse > u, i.e. worse < log(u) / log(eps): stop counting beyond that.
        u = rng.random()
        room = math.log(u) / self.log_eps if self.log_eps and u > 0.0 else math.inf
        stop = bad[s] + bad[t] + room
        out_s: list[bool] = []
        bs = self.fit.misfits(s, ns, stop, (hs, missed[s]), out_s)
        if bs >= stop:
            return
        out_t: list[bool] = []
        bt = self.fit.misfits(t, nt, stop - bs, (ht, missed[t]), out_t)
        if bs + bt >= stop:
            return
        hands[s], hands[t] = ns, nt
        bad[s], bad[t] = bs, bt
        missed[s], missed[t] = out_s, out_t

    def _step_weighted(
        self, hands: list[int], bad: list[int], missed: list[list[bool]], s: int, t: int, ns: int, nt: int
    ) -> None:
        """``_step``'s acceptance with a weight per seat: accept when the weighted misfits do not grow
        by more than -log(u)."""
        assert self.weights is not None
        ws, wt = self.weights[s], self.weights[t]
        u = self.rng.random()
        budget = ws * bad[s] + wt * bad[t] + (-math.log(u) if u > 0.0 else math.inf)
        out_s: list[bool] = []
        out_t: list[bool] = []
        # A seat of weight 0 no longer counts: its misfits are not even counted again (the facts about it
        # still hold: ``_step`` keeps a doublable card with a seat asked in sequential doubling).
        bs = self.fit.misfits(s, ns, budget / ws, (hands[s], missed[s]), out_s) if ws else 0
        if ws * bs >= budget:
            return
        bt = self.fit.misfits(t, nt, (budget - ws * bs) / wt, (hands[t], missed[t]), out_t) if wt else 0
        if ws * bs + wt * bt >= budget:
            return
        hands[s], hands[t] = ns, nt
        if ws:
            bad[s], missed[s] = bs, out_s
        if wt:
            bad[t], missed[t] = bt, out_t


def _random_card(rng: random.Random, mask: int) -> int:
    cards = cards_of(mask)
    return cards[rng.randrange(len(cards))]
