"""``cheat``: the strong search given the true hands. For the arena only, never at a table.

It measures how much the strong bot loses by not knowing where the cards are: the gap between
``strong`` and ``cheat`` is the inference still missing. The arena hands it the whole ``Match``
through ``act_full``; its ordinary ``act`` refuses, so it cannot sit at a table by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..actions import Action
from ..deal import Phase
from ..match import Match
from ..view import View, view
from .knowledge import Knowledge
from .strong import StrongBot


class CheatBot(StrongBot):
    """Rollouts on the real deal (they are deterministic, so one sample is the whole search)."""

    name = "cheat"
    sees_all = True

    def __init__(self, seed: int | str | None = None, samples: int | None = 1, budget_ms: float | None = None) -> None:
        super().__init__(seed, samples=samples, budget_ms=budget_ms)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        raise RuntimeError("the cheat bot sees every hand: only the arena may use it, through act_full")

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        raise RuntimeError("the cheat bot sees every hand: only the arena may use it, through act_full")

    def act_full(self, match: Match, seat: int, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        v = view(match, seat)
        know = Knowledge.from_view(v)
        if v.phase == Phase.CHOOSE_CONTRACT:
            assert match.pending_hands is not None
            hands = list(match.pending_hands)
        else:
            assert match.deal is not None
            hands = list(match.deal.hands)
        return self.decide(v, know, legal, lambda: list(hands))[0]
