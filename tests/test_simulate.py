"""The rollout behind every strong decision, and the endgame search that can finish a deal for one seat."""

from __future__ import annotations

import random

import pytest

from opentrix import actions as A
from opentrix.bots import BasicBot, StrongBot
from opentrix.bots.cheat import CheatBot
from opentrix.bots.simulate import best_finish, drive_prelude, rollout
from opentrix.contracts import Contract
from opentrix.deal import Deal, Phase, deal_hands
from opentrix.match import Match
from opentrix.rules import PRESETS, Rules
from opentrix.view import view


def midgame(rules: Rules, contract: Contract, index: int, plays: int) -> Deal:
    """A deal ``plays`` cards in, reached by random legal cards (so not a position the bots steer to)."""
    d = Deal(rules, index % 4, contract, deal_hands("endgame-test", index))
    drive_prelude(d)
    rng = random.Random(index)
    while len(d.plays) < plays and d.phase == Phase.PLAY:
        legal = [c for c in range(52) if d.legal_mask() >> c & 1]
        d.apply(rng.choice(legal))
    return d


def value(scores: tuple[int, int, int, int], me: int, rules: Rules) -> int:
    return scores[me] + scores[me ^ 2] if rules.partnership else scores[me]


@pytest.mark.parametrize(
    "rules",
    [Rules.preset(n) for n in PRESETS] + [Rules.preset("classic", partnership=True)],
    ids=[*PRESETS, "classic-partnership"],
)
def test_the_endgame_search_never_finishes_worse_than_the_rules_of_thumb(rules: Rules) -> None:
    # Playing the rules of thumb is one of the lines the search tries, so it can only do better; and on
    # some deals it must do strictly better, or it is not searching at all.
    better = 0
    for contract in (c for c in rules.contracts if c != Contract.TRIX):
        for i in range(12):
            d = midgame(rules, contract, i, 36)
            if d.phase != Phase.PLAY:
                continue
            me = d.turn
            by_thumb = value(rollout(d.copy()), me, rules)
            best = best_finish(d.copy(), me)
            assert value(best, me, rules) >= by_thumb
            better += value(best, me, rules) > by_thumb
    assert better > 0


def test_a_rollout_with_an_endgame_searches_only_the_last_tricks() -> None:
    rules = Rules.preset("classic")
    for i in range(8):
        d = midgame(rules, Contract.LTOOSH, i, 20)  # 8 tricks left
        me = d.turn
        # With fewer tricks searched than remain, the early tricks are played by the rules of thumb:
        # the search then starts from the position those reach, and never does worse from there.
        assert rollout(d.copy(), me, 13) == best_finish(d.copy(), me)
        assert value(rollout(d.copy(), me, 3), me, rules) >= value(rollout(d.copy()), me, rules)
        assert rollout(d.copy(), me, 0) == rollout(d.copy())


def test_one_card_left_leaves_nothing_to_search() -> None:
    rules = Rules.preset("classic")
    for i in range(8):
        d = midgame(rules, Contract.QUEENS, i, 48)
        assert best_finish(d.copy(), d.turn) == rollout(d.copy())


def test_a_cheat_searching_its_endgame_plays_the_best_finish() -> None:
    # The cheat sees the true deal, so with the endgame search its card must reach the best finish;
    # finishing by the rules of thumb instead misses it in some of these positions.
    rules = Rules.preset("classic")
    missed = 0
    for contract in (Contract.DIAMONDS, Contract.LTOOSH):
        for i in range(40):
            m = Match(rules, seed=i)
            m.apply(A.choose(contract))
            while m.deal is not None and m.deal.phase == Phase.PLAY and len(m.deal.plays) < 36:
                m.apply(BasicBot(seed=0).act(view(m, m.turn), m.legal_actions()))  # type: ignore[arg-type]
            assert m.deal is not None and m.turn is not None
            me, d = m.turn, m.deal
            best = value(best_finish(d.copy(), me), me, rules)
            for endgame in (4, 0):
                after = d.copy()
                after.apply(CheatBot(seed=i, endgame=endgame).act_full(m, me, m.legal_actions()))
                reached = value(best_finish(after, me), me, rules)
                if endgame:
                    assert reached == best, (contract, i)
                else:
                    missed += reached < best
    assert missed > 0


def test_the_endgame_option_is_checked() -> None:
    with pytest.raises(ValueError, match="endgame"):
        StrongBot(seed=1, endgame=14)
    with pytest.raises(ValueError, match="endgame"):
        StrongBot(seed=1, endgame=-1)


def test_best_finish_refuses_trix_and_plays_the_prelude_first() -> None:
    rules = Rules.preset("classic")
    with pytest.raises(ValueError, match="Trix"):
        best_finish(Deal(rules, 0, Contract.TRIX, deal_hands("t", 0)), 0)
    online = Rules.preset("online")
    fresh = Deal(online, 0, Contract.KING_OF_HEARTS, deal_hands("t", 1))  # doubling still to answer
    assert fresh.phase == Phase.DOUBLE
    assert value(best_finish(fresh.copy(), 1), 1, online) >= value(rollout(fresh.copy()), 1, online)
