"""One duplicate unit: the same cards played four times, the candidate in each seat in turn.

In ``deal`` mode a unit is one deal under a contract the arena names; in ``kingdom`` mode it is a
whole kingdom (its king chooses every contract) on the same sequence of deals, so the candidate is
king in one of the four replays. Bots get views only; a bot that ``sees_all`` (the cheat) is handed
the match instead, which is the one thing no table bot ever receives.
"""

from __future__ import annotations

import time
from array import array
from collections.abc import Sequence
from dataclasses import dataclass, field

from .. import actions as A
from ..bots import Bot
from ..deal import Phase, deal_hands
from ..match import Match
from ..rules import Rules
from ..view import view
from .spec import BotSpec


@dataclass(frozen=True)
class Unit:
    """What one worker plays: unit ``index`` of a run seeded ``seed``."""

    index: int
    seed: int
    rules: Rules
    candidate: BotSpec
    baseline: BotSpec
    contract: int | None  # deal mode: the contract; None: a whole kingdom


@dataclass(slots=True)
class UnitResult:
    """Scores of the four replays (``scores[r]`` with the candidate in seat r) and the move times."""

    index: int
    contract: int | None
    king: int
    scores: list[tuple[int, ...]]
    thrown_in: int = 0
    # move times as compact arrays (8 bytes a move, not a float object and a pointer): a run keeps them all
    candidate_ms: Sequence[float] = field(default_factory=lambda: array("d"))
    baseline_ms: Sequence[float] = field(default_factory=lambda: array("d"))
    # kingdom mode: per replay, the contracts in the order its king chose them (thrown-in deals left out)
    orders: list[tuple[int, ...]] = field(default_factory=list)
    # partnership play: the game is won by team totals, so the differences are team margins
    partnership: bool = False

    def margin(self, replay: int, seat: int) -> int:
        """Seat ``seat``'s team margin in replay ``replay``: its team's score minus the other team's."""
        sc = self.scores[replay]
        return sc[seat] + sc[seat ^ 2] - sc[seat ^ 1] - sc[seat ^ 3]

    @property
    def diff(self) -> float:
        """The candidate's mean score minus the baseline's mean score per seat and replay; in
        partnership play, the candidate's team margin averaged over its four seats (its partner is a
        baseline bot, so two equal bots still come out at exactly 0)."""
        if self.partnership:
            return sum(self.margin(r, r) for r in range(4)) / 4
        cand = sum(self.scores[r][r] for r in range(4)) / 4
        base = sum(self.scores[r][s] for r in range(4) for s in range(4) if s != r) / 12
        return cand - base

    @property
    def king_diff(self) -> float:
        """Kingdom mode: the candidate as king minus the baseline as king (same deals); in partnership
        play, the king's team margin."""
        k = self.king
        value = self.margin if self.partnership else (lambda r, s: self.scores[r][s])
        return value(k, k) - sum(value(r, k) for r in range(4) if r != k) / 3


def kingdom_rules(rules: Rules) -> Rules:
    """Kingdom mode plays one kingdom a unit, with no tiebreak: the unit is the five contracts."""
    return rules.with_options(kingdoms=1, tiebreak="none")


def bot_seed(seed: int, index: int, seat: int) -> str:
    """Bots are seeded by the run, the unit and the seat: the same seat replays the same way."""
    return f"arena:{seed}:{index}:{seat}"


def _decide(bot: Bot, match: Match, seat: int, legal: list[int]) -> int:
    if getattr(bot, "sees_all", False):
        return bot.act_full(match, seat, legal)  # type: ignore[attr-defined, no-any-return]
    return bot.act(view(match, seat), legal)


def play_unit(unit: Unit) -> UnitResult:
    scores: list[tuple[int, ...]] = []
    cand_ms: list[float] = []
    base_ms: list[float] = []
    king = -1
    thrown = 0
    orders: list[tuple[int, ...]] = []
    for r in range(4):
        bots = [
            (unit.candidate if s == r else unit.baseline).build(bot_seed(unit.seed, unit.index, s)) for s in range(4)
        ]
        rules = unit.rules if unit.contract is not None else kingdom_rules(unit.rules)
        for bot in bots:
            bot.prepare(rules)  # once-per-process set-up is not a move's time
        stream = f"arena:{unit.seed}:kingdom:{unit.index}"
        if unit.contract is not None:
            match = Match(rules, deal_hands(f"arena:{unit.seed}", unit.index))
            match.apply(A.CONTRACT_BASE + unit.contract)
        else:
            match = Match(rules, seed=stream)
        king = match.first_king
        played = redealt = 0
        while True:
            phase = match.phase
            if phase == Phase.DEAL_OVER:
                deal = match.deal
                assert deal is not None
                if unit.contract is not None:
                    thrown += deal.thrown_in is not None
                    break
                # A thrown-in deal is dealt again from a stream of its own, so every replay plays its
                # n-th contract on the same hands whether or not a hand before it was thrown in.
                if deal.thrown_in is None:
                    played += 1
                    match.start_deal(deal_hands(stream, played))
                else:
                    match.start_deal(deal_hands(f"{stream}:redeal", redealt))
                    redealt += 1
                continue
            if phase == Phase.MATCH_OVER:
                break
            seat = match.turn
            assert seat is not None
            legal = match.legal_actions()
            t0 = time.perf_counter()
            action = _decide(bots[seat], match, seat, legal)
            if len(legal) > 1:
                (cand_ms if seat == r else base_ms).append((time.perf_counter() - t0) * 1000)
            match.apply(action, seat)
        if unit.contract is not None:
            deal = match.deal
            assert deal is not None and deal.scores is not None
            scores.append(tuple(deal.scores))
        else:
            scores.append(tuple(match.totals))
            orders.append(tuple(int(d.contract) for d in match.summaries if d.thrown_in is None))
    return UnitResult(
        unit.index,
        unit.contract,
        king,
        scores,
        thrown,
        array("d", cand_ms),
        array("d", base_ms),
        orders,
        unit.rules.partnership,
    )
