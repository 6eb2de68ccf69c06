"""strong's lookahead: its next card planned with what it will have seen by then, and nothing more."""

from __future__ import annotations

import pytest

from opentrix import actions as A
from opentrix.bots import BasicBot, StrongBot
from opentrix.bots.cheat import CheatBot
from opentrix.bots.simulate import rollout, seat_costs, to_turn
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import view
from test_simulate import midgame


def positions(contract: Contract, games: int, every: int = 3):  # type: ignore[no-untyped-def]
    """Positions of basic-only deals, every ``every``-th card, with more than one legal card."""
    rules = Rules.preset("classic")
    for g in range(games):
        m = Match(rules, seed=f"ahead-{g}")
        m.apply(A.choose(contract))
        walker = BasicBot(seed=g)
        while m.phase == Phase.PLAY:
            assert m.deal is not None and m.turn is not None
            legal = m.legal_actions()
            if len(m.deal.plays) % every == 1 and len(legal) > 1:
                yield m, m.turn, legal
            m.apply(walker.act(view(m, m.turn), legal))


def test_to_turn_stops_at_the_seats_next_card_on_the_rollouts_own_path() -> None:
    rules = Rules.preset("classic")
    stopped = ended = 0
    for contract in (Contract.KING_OF_HEARTS, Contract.QUEENS, Contract.DIAMONDS, Contract.LTOOSH):
        for i in range(16):
            d = midgame(rules, contract, i, 4 * (i % 13) + 1)
            if d.phase != Phase.PLAY:
                continue
            me = (d.turn - 1) % 4  # it led this trick: its next card is in the next one, if any
            whole = rollout(d.copy())
            part = d.copy()
            over = to_turn(part, me, seat_costs(part))
            if over is None:
                assert part.phase == Phase.PLAY and part.turn == me
                assert rollout(part) == whole  # the rules of thumb go on from there as if never stopped
                stopped += 1
            else:
                assert over == whole  # the deal was settled before the seat played again
                ended += 1
    assert stopped and ended


@pytest.mark.parametrize("contract", [Contract.QUEENS, Contract.LTOOSH])
def test_groups_too_small_to_plan_with_leave_the_plain_search(contract: Contract) -> None:
    # With no group big enough the next card is the rule of thumb, which is what the plain rollout plays:
    # the two searches then value every card alike and choose alike.
    checked = 0
    for m, seat, legal in positions(contract, 2, every=7):
        plain = StrongBot(seed=checked, samples=8, budget_ms=None)
        ahead = StrongBot(seed=checked, samples=8, budget_ms=None, lookahead=1, group=10**6)
        assert ahead.explain(view(m, seat), legal)[0] == plain.explain(view(m, seat), legal)[0]
        checked += 1
    assert checked >= 4


def test_a_cheat_planning_ahead_plays_its_next_card_at_its_best() -> None:
    # On the true deal a group is the truth: the cheat plans its next card as the best one, and the
    # plan changes its choice in some positions (or it plans nothing).
    changed = checked = 0
    for contract in (Contract.KING_OF_HEARTS, Contract.DIAMONDS, Contract.LTOOSH):
        for m, seat, legal in positions(contract, 4):
            assert CheatBot(seed=1, lookahead=1).act_full(m, seat, legal) in legal
            changed += CheatBot(seed=1, lookahead=1).act_full(m, seat, legal) != CheatBot(seed=1).act_full(
                m, seat, legal
            )
            checked += 1
    assert changed > 0 and checked > 20


def test_the_next_card_is_chosen_on_the_groups_other_deals() -> None:
    # Three deals that showed the same plays; card 1 is the rule of thumb. Deal 0 alone favours card 1,
    # the other two card 2. Left out of its own choice, deal 0 gets card 2 (worth 0 to it) and each of
    # the others a tie between 1 and 2, broken for the rule of thumb (worth 0 to them): a plan may not
    # count the luck of a deal as knowledge of it.
    groups = {(5, 9): [({1: 10.0, 2: 0.0}, 1), ({1: 0.0, 2: 10.0}, 1), ({1: 0.0, 2: 10.0}, 1)]}
    assert StrongBot(seed=1, lookahead=1, group=3)._planned(groups) == 0.0
    assert StrongBot(seed=1, lookahead=1, group=4)._planned(groups) == 10.0  # too few: the rule of thumb
    assert CheatBot(seed=1, lookahead=1)._planned(groups) == 30.0  # the truth: the best card each time


def test_the_lookahead_options_are_checked() -> None:
    with pytest.raises(ValueError, match="lookahead"):
        StrongBot(seed=1, lookahead=2)
    with pytest.raises(ValueError, match="group"):
        StrongBot(seed=1, lookahead=1, group=1)
