"""Every seat's message carries exactly that seat's view, however the server assembles the JSON."""

from __future__ import annotations

import json
import random

import pytest

from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.server.views import views_json
from opentrix.view import View, view


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("classic", kingdoms=1),
        Rules.preset("wikipedia", kingdoms=1, doubling_reveal="hidden"),
        Rules.preset("complex", partnership=True),
        Rules.preset("online", kingdoms=1),
    ],
    ids=["classic", "wikipedia-hidden-doubling", "complex-partnership", "online"],
)
def test_assembled_views_equal_each_seats_own_view(rules: Rules) -> None:
    rng = random.Random(7)
    match = Match(rules, seed=rng.randrange(10**6))
    states = 0
    while True:
        texts = views_json(match, [0, 1, 2, 3, None])
        for seat in (0, 1, 2, 3, None):
            assert json.loads(texts[seat]) == view(match, seat).to_dict(), (seat, match)
            assert View.from_dict(json.loads(texts[seat])) == view(match, seat)  # a Python client reads it back
        # Asking for fewer seats gives the same texts.
        assert views_json(match, [2]) == {2: texts[2]}
        states += 1
        if match.is_over:
            break
        if match.phase == Phase.DEAL_OVER:
            match.start_deal()
        else:
            match.apply(rng.choice(match.legal_actions()))
    assert states > 50


def test_the_table_says_what_each_seats_captures_cost_so_far() -> None:
    """Ltoosh: after the first trick its taker shows -15; nothing outside a trick contract's play."""
    from opentrix import Match, Rules
    from opentrix import actions as A
    from opentrix.server.table import deal_points

    m = Match(Rules.preset("classic"), seed=3)
    assert deal_points(m) is None  # the king is choosing
    m.apply(A.choose("ltoosh"))
    assert deal_points(m) == [0, 0, 0, 0]
    for _ in range(4):
        m.apply(m.legal_actions()[0])
    taker = m.deal.tricks.index(1)
    assert deal_points(m) == [-15 if s == taker else 0 for s in range(4)]
    trix = Match(Rules.preset("classic"), seed=3)
    trix.apply(A.choose("trix"))
    assert deal_points(trix) is None  # Trix scores by places, at the end


def test_what_is_not_a_view_is_refused_with_the_reason() -> None:
    whole = view(Match(Rules(), seed=1), 0).to_dict()
    with pytest.raises(ValueError, match="not a view: KeyError: 'hand'"):
        View.from_dict({k: v for k, v in whole.items() if k != "hand"})
    with pytest.raises(ValueError, match="not a view: ValueError: four seats, not 3"):
        View.from_dict({**whole, "totals": [0, 0, 0]})
    with pytest.raises(ValueError, match="not a view"):
        View.from_dict({**whole, "phase": "dancing"})
    with pytest.raises(ValueError, match="not a view"):
        View.from_dict({**whole, "legal_actions": ["ZZ"]})
