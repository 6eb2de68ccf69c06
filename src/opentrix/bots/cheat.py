"""``cheat``: the strong search given the true hands. For the arena only, never at a table.

It measures how much the strong bot loses by not knowing where the cards are: the gap between
``strong`` and ``cheat`` is the inference still missing. The arena hands it the whole ``Match``
through ``act_full``; its ordinary ``act`` refuses, so it cannot sit at a table by mistake.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..actions import Action
from ..deal import Phase
from ..match import Match
from ..view import View, view
from . import check_option_kinds, option_names
from .knowledge import Knowledge
from .strong import StrongBot


class CheatBot(StrongBot):
    """Rollouts on the real deal (they are deterministic, so one sample is the whole search).

    ``endgame`` is strong's option of the same name: compare a ``strong:endgame=N`` with a cheat that
    searches its last tricks the same way, or the gap mixes search and knowledge.
    """

    name = "cheat"
    sees_all = True
    exact = True

    def __init__(
        self,
        seed: int | str | None = None,
        samples: int | None = 1,
        budget_ms: float | None = None,
        endgame: int = 0,
        lookahead: int = 0,
    ) -> None:
        super().__init__(seed, samples=samples, budget_ms=budget_ms, endgame=endgame, lookahead=lookahead)

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


class HindsightBot(CheatBot):
    """``strong`` on its view until trick ``trick``, the cheat from then on. For the arena only.

    It splits the gap to the cheat by time: with the same seed it plays exactly as ``strong`` up to
    that trick, so the difference from ``strong`` is what the cheat's knowledge is worth from there on,
    and what it leaves of the gap lies in the tricks before, whatever a bot could have read by then.
    In Trix a "trick" is a round of four turns, passes included.
    """

    name = "cheat-from"

    def __init__(self, seed: int | str | None = None, trick: int = 4, **strong: Any) -> None:
        # the same search on the true hands
        super().__init__(seed, endgame=strong.get("endgame", 0), lookahead=strong.get("lookahead", 0))
        if not 1 <= trick <= 14:
            raise ValueError(f"trick must be between 1 and 14, not {trick!r}")
        takes = sorted(option_names("strong"))
        for key in strong:
            if key not in takes:
                raise ValueError(f"unknown option {key!r} for cheat-from (its options: trick, {', '.join(takes)})")
        check_option_kinds("cheat-from", StrongBot, strong)  # inference="maybe" would read as true
        self.trick = trick
        self.reader = StrongBot(seed, **{"budget_ms": None, **strong})  # any other option is strong's

    def reseed(self, seed: int | str | None) -> None:
        """The reader too: up to ``trick`` it must still be ``strong`` with that seed."""
        super().reseed(seed)
        self.reader.reseed(seed)

    def act_full(self, match: Match, seat: int, legal: Sequence[Action]) -> Action:
        # The reader decides every move, also those the cheat plays: its random draws and what it has
        # read then stay those of ``strong``, so in a kingdom's later deals it is still ``strong`` up to
        # the trick (had it skipped the last deal's later moves, it would draw other deals from there).
        mine = self.reader.act(view(match, seat), legal)
        deal = match.deal
        if deal is not None and deal.phase == Phase.PLAY and len(deal.plays) // 4 + 1 >= self.trick:
            return super().act_full(match, seat, legal)
        return mine
