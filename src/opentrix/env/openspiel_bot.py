"""OpenSpiel's IS-MCTS at the opentrix table: ``make_bot("openspiel-ismcts", seed=1, simulations=200)``.

The bot receives only a view. It rebuilds the current deal from that view with the unseen cards
dealt at random (``worlds.py``) and runs ``open_spiel.python.algorithms.ismcts`` on the
``python_trix`` game from there; every simulation re-deals the unseen cards consistently with the
view (voids, Trix passes, doubled cards). It searches the current deal only, scoring each seat by its
deal score minus a quarter of the contract's total, so the contract choice picks the contract this
hand plays best relative to the table. (OpenSpiel's C++ ``pyspiel.ISMCTSBot`` cannot resample a
Python game's states, so the Python implementation is used.)
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found]
except ModuleNotFoundError as e:
    raise ModuleNotFoundError("OpenSpiel is not installed: pip install 'opentrix[rl,openspiel]'", name="pyspiel") from e
from open_spiel.python.algorithms import ismcts, mcts  # type: ignore[import-untyped]

from ..actions import Action
from ..bots.base import Bot
from ..rules import Rules
from ..view import View
from .openspiel_game import SHORT_NAME, TrixGame, rules_param

_GAMES: dict[tuple[str, float], TrixGame] = {}


def game_for(rules: Rules, scale: float = 100.0) -> TrixGame:
    """The ``python_trix`` game for these rules (advantage returns, divided by ``scale``), cached."""
    key = (rules_param(rules), scale)
    game = _GAMES.get(key)
    if game is None:
        game = pyspiel.load_game(SHORT_NAME, {"rules": key[0], "returns": "advantage", "scale": scale})
        _GAMES[key] = game
    return game


class OpenSpielISMCTSBot(Bot):
    """Information-set MCTS with random rollouts, from OpenSpiel, deciding from the view only."""

    name = "openspiel-ismcts"

    def __init__(
        self,
        seed: int | str | None = None,
        simulations: int = 200,
        uct_c: float = 0.7,
        rollouts: int = 1,
        max_world_samples: int = -1,
        **options: Any,
    ) -> None:
        super().__init__(seed)
        if options:
            raise ValueError(f"unknown options for {self.name}: {', '.join(options)}")
        if simulations < 1 or rollouts < 1:
            raise ValueError("simulations and rollouts must be at least 1")
        self.simulations = int(simulations)
        self.uct_c = float(uct_c)
        self.rollouts = int(rollouts)
        self.max_world_samples = int(max_world_samples)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        if len(legal) == 1:
            return legal[0]
        game = game_for(view.rules)
        game.shared.rng = self.rng  # worlds are dealt from this bot's seeded generator
        np_rng = np.random.RandomState(self.rng.getrandbits(32))
        root = game.state_from_view(view, self.rng)
        evaluator = mcts.RandomRolloutEvaluator(n_rollouts=self.rollouts, random_state=np_rng)
        search = ismcts.ISMCTSBot(
            game,
            evaluator,
            uct_c=self.uct_c,
            max_simulations=self.simulations,
            max_world_samples=self.max_world_samples,
            random_state=np_rng,
            final_policy_type=ismcts.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        )
        action = int(search.step(root))
        if action not in legal:  # cannot happen: the root's legal actions are the view's
            return legal[self.rng.randrange(len(legal))]
        return action

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        return self.act(view, legal), f"IS-MCTS, {self.simulations} simulations"


__all__ = ["OpenSpielISMCTSBot", "game_for"]
