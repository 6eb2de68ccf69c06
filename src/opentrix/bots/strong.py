"""``strong``: determinized search. Sample deals that fit the view, play each candidate out, keep the best.

Every decision works the same way: draw hidden hands consistent with everything the seat has seen
(``Knowledge``), apply a candidate action on the engine's own ``Deal`` and finish the deal with the
rules of thumb for all four seats (``rollout``); the candidate with the best average score wins. The
king's contract choice simulates each remaining contract on his hand and compares it with what that
contract is worth to a king on an average hand, since every contract must be played once anyway.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence

from .. import actions as A
from ..actions import Action
from ..cards import cards_of
from ..contracts import Contract
from ..deal import DOUBLABLE_IN, Deal, Phase, deal_hands
from ..rules import Rules
from ..view import View
from .base import Bot
from .knowledge import Fit, Knowledge, Posterior
from .policy import BELOW, FULL, costs_for, doubles, play_trick_card
from .simulate import rollout, seat_costs, to_turn

_TRIX = int(Contract.TRIX)
_CLAIM = int(Phase.CLAIM)
_DOUBLE = int(Phase.DOUBLE)

_BASELINES: dict[Rules, dict[int, tuple[float, float]]] = {}


def baselines(rules: Rules, deals: int = 240) -> dict[int, tuple[float, float]]:
    """Per contract: what the king and what another seat score on average (rules-of-thumb self-play);
    every contract a deal can be played under, so in Complex the King of Hearts of its tiebreak too.

    In partnership play a seat's score is its team's, as the search values it (``_value``): the king's
    team, and the other team. Computed once per rules and process, from fixed deals, so every bot
    agrees on it.
    """
    hit = _BASELINES.get(rules)
    if hit is not None:
        return hit
    out: dict[int, tuple[float, float]] = {}
    contracts = list(rules.contracts)
    if rules.tiebreak == "extra_koh_deal" and Contract.KING_OF_HEARTS not in contracts:
        contracts.append(Contract.KING_OF_HEARTS)  # the tiebreak deal: a redeal claim there weighs against it
    for c in contracts:
        king = other = 0.0
        for i in range(deals):
            d = Deal(rules, 0, c, deal_hands("opentrix-baselines", i))
            sc = rollout(d)
            if rules.partnership:  # the king's team, and the other team (the king's partner shares his)
                king += sc[0] + sc[2]
                other += sc[1] + sc[3]
                continue
            king += sc[0]
            other += (sc[1] + sc[2] + sc[3]) / 3
        out[int(c)] = (king / deals, other / deals)
    _BASELINES[rules] = out
    return out


class StrongBot(Bot):
    """Determinized rollouts. Stops after ``samples`` deals or ``budget_ms``, whichever comes first.

    ``samples=None`` searches for the whole budget; ``budget_ms=None`` makes every decision depend only
    on the seed (the arena's default, so runs are reproducible). ``inference=False`` draws the hidden
    hands uniformly, ignoring voids and passes (a yardstick for how much the inference is worth);
    ``trust`` is the share of draws (of chain starts, when chains run) that also follow the hints of sensible play
    (``Knowledge.unlikely``). ``eps`` is the weight a deal keeps for each of the others' decisions it fails
    to explain under the rules of thumb (1 turns the weighting off); ``chains`` independent Metropolis
    chains, each ``burn`` steps from its start, are drawn from in turn, ``thin`` steps per deal.
    ``endgame`` (0: off) is how many last tricks the bot's own cards are searched exactly in each
    rollout, against the others' rules of thumb, instead of played by them (``best_finish``).
    ``lookahead=1`` (trick contracts) also plans the bot's next card with what it will have seen by
    then: the drawn deals that show the same plays before that turn form one group, and the next card
    is the best on the group's other deals (with fewer than ``group`` deals, the rule of thumb).
    """

    exact = False  # the draws are the true deal (the cheat): a group of one is the whole truth

    name = "strong"
    timed = True

    def __init__(
        self,
        seed: int | str | None = None,
        samples: int | None = 128,
        budget_ms: float | None = 250.0,
        inference: bool = True,
        trust: float = 0.9,
        min_samples: int = 4,
        eps: float = 0.0001,
        thin: int = 20,
        chains: int = 8,
        burn: int = 300,
        endgame: int = 0,
        lookahead: int = 0,
        group: int = 3,
    ) -> None:
        super().__init__(seed)
        if samples is None and budget_ms is None:
            raise ValueError("strong needs samples, budget_ms or both")
        if samples is not None and samples < 1:
            raise ValueError(f"samples must be at least 1, not {samples!r}")
        if budget_ms is not None and not (budget_ms > 0 and math.isfinite(budget_ms)):
            raise ValueError(f"budget_ms must be a positive number of milliseconds, not {budget_ms!r}")
        if min_samples < 1:
            raise ValueError(f"min_samples must be at least 1, not {min_samples!r}")
        self.samples = samples
        self.budget_ms = budget_ms
        self.inference = inference
        if not 0.0 <= trust <= 1.0:
            raise ValueError(f"trust must be between 0 and 1, not {trust!r}")
        self.trust = trust
        self.min_samples = min_samples
        if not 0.0 < eps <= 1.0:
            raise ValueError(f"eps must be above 0 and at most 1, not {eps!r}")
        if thin < 1:
            raise ValueError(f"thin must be at least 1, not {thin!r}")
        if chains < 1:
            raise ValueError(f"chains must be at least 1, not {chains!r}")
        if burn < 0:
            raise ValueError(f"burn must be at least 0, not {burn!r}")
        if not 0 <= endgame <= 13:
            raise ValueError(f"endgame must be between 0 and 13 tricks, not {endgame!r}")
        self.endgame = endgame
        if lookahead not in (0, 1):
            raise ValueError(f"lookahead must be 0 or 1 (decisions planned ahead), not {lookahead!r}")
        if group < 2:
            raise ValueError(f"group must be at least 2 drawn deals, not {group!r}")
        self.lookahead = lookahead
        self.group = group
        self.eps = eps
        self.thin = thin
        self.chains = chains
        self.burn = burn

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return self.explain(view, legal)[0]

    def prepare(self, rules: Rules) -> None:
        baselines(rules)  # the contract choice and redeal claims compare with these

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        if len(legal) == 1:
            return legal[0], "nothing can be placed: pass" if legal[0] == A.PASS else "the only legal move"
        assert view.seat is not None and view.hand is not None
        know = Knowledge.from_view(view)
        if self.inference and self.eps < 1.0 and Fit(know).informative:
            chain = Posterior(know, self.rng, self.eps, self.thin, self.burn, self.trust, self.chains)
            return self.decide(view, know, legal, chain.draw)
        return self.decide(view, know, legal, lambda: know.sample(self.rng, self.inference, self.trust))

    def decide(
        self, view: View, know: Knowledge, legal: Sequence[Action], draw: Callable[[], list[int]]
    ) -> tuple[Action, str]:
        """Search with ``draw()`` giving the four current hands of one simulated deal."""
        phase = view.phase
        if phase == Phase.CHOOSE_CONTRACT:
            return self._choose(know, view.rules, legal, draw)
        if phase == Phase.CLAIM:
            return self._claim(know, legal, draw)
        if phase == Phase.DOUBLE:
            return self._double(know, view, legal, draw)
        return self._play(know, legal, draw)

    # -- the search loop ----------------------------------------------------------------------------

    def _search(
        self, options: Sequence[Action], simulate: Callable[[], Callable[[Action], float]]
    ) -> tuple[dict[Action, float], int]:
        """Average value of each option over sampled deals; ``simulate()`` draws one deal."""
        totals = dict.fromkeys(options, 0.0)
        n = 0
        deadline = time.perf_counter() + self.budget_ms / 1000 if self.budget_ms is not None else None
        while True:
            value_of = simulate()
            for a in options:
                totals[a] += value_of(a)
            n += 1
            if self.samples is not None and n >= self.samples:
                break
            if deadline is not None and n >= self.min_samples and time.perf_counter() >= deadline:
                break
        return {a: t / n for a, t in totals.items()}, n

    def _value(self, know: Knowledge, scores: tuple[int, int, int, int]) -> float:
        me = know.seat
        if know.rules.partnership:
            return float(scores[me] + scores[me ^ 2])
        return float(scores[me])

    # -- card play ----------------------------------------------------------------------------------

    def _play(self, know: Knowledge, legal: Sequence[Action], draw: Callable[[], list[int]]) -> tuple[Action, str]:
        options = candidates(know, legal)
        if len(options) == 1:
            return options[0], "every legal card does the same here"
        template = know.deal_from(know.sample(self.rng, True))
        if self.lookahead and know.contract != _TRIX:
            return self._play_ahead(know, options, draw, template)
        me, endgame = know.seat, self.endgame

        def simulate() -> Callable[[Action], float]:
            base = know.deal_from(draw(), template)

            def value_of(a: Action) -> float:
                d = base.copy()
                d.apply(a)
                return self._value(know, rollout(d, me, endgame))

            return value_of

        means, n = self._search(options, simulate)
        return _pick(means, n, "played out")

    def _play_ahead(
        self, know: Knowledge, options: Sequence[Action], draw: Callable[[], list[int]], template: Deal
    ) -> tuple[Action, str]:
        """Card play planned two decisions deep, the second with what the bot will know by then.

        For each drawn deal and candidate, the others play by the rules of thumb up to the bot's next
        turn, and every card it could then play is played out. Deals that showed the same cards on the
        way cannot be told apart at that turn, so the bot's next card must be one choice for all of them:
        the card with the best total on the group's *other* deals (leaving each deal out of its own
        choice keeps the luck of one draw from counting as knowledge). Knowing more at that turn
        (smaller, sharper groups) is thus worth what it changes in the next card, and no more.
        """
        me, endgame = know.seat, self.endgame
        value = self._value
        # candidate -> what was seen on the way -> per deal (value of each next card, rule-of-thumb card)
        seen: dict[Action, dict[tuple[int, ...], list[tuple[dict[int, float], int]]]] = {a: {} for a in options}
        ended = dict.fromkeys(options, 0.0)
        n = 0
        deadline = time.perf_counter() + self.budget_ms / 1000 if self.budget_ms is not None else None
        while True:
            base = know.deal_from(draw(), template)
            costs = seat_costs(base)
            for a in options:
                d = base.copy()
                d.apply(a)
                start = len(d.plays)
                over = to_turn(d, me, costs)
                if over is not None:
                    ended[a] += value(know, over)
                    continue
                legal = d.legal_mask()
                hands = d.hands
                gone = FULL ^ (hands[0] | hands[1] | hands[2] | hands[3])
                thumb = play_trick_card(costs[me], hands[me], legal, d.trick, gone)
                then: dict[int, float] = {}
                for b in cards_of(legal):
                    dd = d.copy()
                    dd.apply(b)
                    then[b] = value(know, rollout(dd, me, endgame))
                seen[a].setdefault(tuple(d.plays[start:]), []).append((then, thumb))
            n += 1
            if self.samples is not None and n >= self.samples:
                break
            if deadline is not None and n >= self.min_samples and time.perf_counter() >= deadline:
                break
        means = {a: (ended[a] + self._planned(seen[a])) / n for a in options}
        return _pick(means, n, "played out, the next card planned")

    def _planned(self, groups: dict[tuple[int, ...], list[tuple[dict[int, float], int]]]) -> float:
        """Total over the deals of each group's value with the next card chosen on the group's other deals."""
        total = 0.0
        for members in groups.values():
            if self.exact:
                total += sum(max(then.values()) for then, _ in members)
                continue
            if len(members) < self.group:
                total += sum(then[thumb] for then, thumb in members)
                continue
            sums = dict.fromkeys(members[0][0], 0.0)
            for then, _ in members:
                for b, v in then.items():
                    sums[b] += v
            for then, thumb in members:
                pick = max(sums, key=lambda b: (sums[b] - then[b], b == thumb, b))
                total += then[pick]
        return total

    # -- before the cards ---------------------------------------------------------------------------

    def _choose(
        self, know: Knowledge, rules: Rules, legal: Sequence[Action], draw: Callable[[], list[int]]
    ) -> tuple[Action, str]:
        base = baselines(rules)
        me = know.seat

        def simulate() -> Callable[[Action], float]:
            hands = draw()

            def value_of(a: Action) -> float:
                c = A.contract_of(a)
                d = Deal(rules, me, c, hands)
                return self._value(know, rollout(d)) - base[int(c)][0]

            return value_of

        means, n = self._search(legal, simulate)
        best = max(legal, key=lambda a: means[a])
        c = A.contract_of(best)
        gain = round(means[best])
        than = f"{abs(gain)} points {'better' if gain > 0 else 'worse'} than" if gain else "as well as"
        return best, f"{c.title} scores about {than} on an average hand ({n} simulated deals)"

    def _claim(self, know: Knowledge, legal: Sequence[Action], draw: Callable[[], list[int]]) -> tuple[Action, str]:
        rules = know.rules
        king_share, other_share = baselines(rules)[know.contract]
        kings_side = know.seat == know.king or (rules.partnership and know.seat == know.king ^ 2)
        share = king_share if kings_side else other_share

        def simulate() -> Callable[[Action], float]:
            d = Deal(rules, know.king, know.contract, draw())
            v = self._value(know, rollout(d))
            return lambda a: v - share if a == A.NO_CLAIM else 0.0

        means, _n = self._search(legal, simulate)
        if means[A.NO_CLAIM] < 0:
            return A.CLAIM, f"this hand should lose {-means[A.NO_CLAIM]:.0f} more than usual: claim a redeal"
        return A.NO_CLAIM, "the hand plays no worse than usual"

    def _double(
        self, know: Knowledge, view: View, legal: Sequence[Action], draw: Callable[[], list[int]]
    ) -> tuple[Action, str]:
        rules = know.rules
        me = know.seat
        king = know.king
        sequential = rules.doubling_reveal == "sequential"
        shown_by: dict[int, int] = {}
        for holder, card in view.doubled:
            shown_by[holder] = shown_by.get(holder, 0) | (1 << card)

        def answered(seat: int) -> bool:
            return (seat - king) % 4 < (me - king) % 4

        def simulate() -> Callable[[Action], float]:
            hands = draw()

            def value_of(a: Action) -> float:
                d = Deal(rules, king, know.contract, hands)
                while d.phase == _CLAIM:
                    d.apply(A.NO_CLAIM)
                allowed = DOUBLABLE_IN.get(d.contract, 0)
                while d.phase == _DOUBLE:
                    t = d.turn
                    mine = d.hands[t] & allowed
                    if t == me:
                        want = A.doubled_mask(a)
                    elif t in shown_by or (sequential and answered(t)):
                        want = shown_by.get(t, 0)  # its answer is known
                    else:
                        want = doubles(rules, d.contract, d.hands[t], mine)
                    d.apply(A.double_mask(want & mine))
                return self._value(know, rollout(d))

            return value_of

        means, n = self._search(legal, simulate)
        return _pick(means, n, "doubled or not")


def _pick(means: dict[Action, float], n: int, how: str) -> tuple[Action, str]:
    ranked = sorted(means, key=lambda a: means[a], reverse=True)
    best = ranked[0]
    name = A.to_str(best, symbols=True)
    gap = means[best] - means[ranked[1]] if len(ranked) > 1 else 0.0
    scored = f"scores {means[best]:+.0f} on average"
    if len(ranked) > 1:
        scored += f", {gap:.1f} more than the next best" if gap >= 0.05 else ", as much as the next best"
    return best, f"{name}: best over {n} simulated deals {how} ({scored})"


def candidates(know: Knowledge, legal: Sequence[Action]) -> list[Action]:
    """The legal actions, with cards that are interchangeable (touching in a suit, no score) merged.

    Two cards touch when no card still to be played lies between them, nor one on the table: with 5♠
    led, 4♠ ducks and 6♠ wins, so they are not the same card even though 5♠ is no longer in a hand."""
    if know.contract == _TRIX or len(legal) < 2:
        return list(legal)
    k = costs_for(know.rules, know.contract, know.doubled, 0)
    special = k.pen | know.doubled
    unseen = know.unseen | know.table
    out: list[Action] = []
    prev = -1
    for a in sorted(legal):
        if (
            prev >= 0
            and prev // 13 == a // 13
            and not (special >> a & 1 or special >> prev & 1)
            and not unseen & BELOW[a] & ~BELOW[prev] & ~(1 << prev)
        ):
            prev = a
            continue  # touching the previous card with nothing unseen in between: same effect
        out.append(a)
        prev = a
    return out
