"""Every seat's message carries exactly that seat's view, however the server assembles the JSON."""

from __future__ import annotations

import json
import random

import pytest

from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.server.views import views_json
from opentrix.view import view


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
