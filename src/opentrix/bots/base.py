"""The one interface every opponent implements: a view and the legal actions in, an action out."""

from __future__ import annotations

import random
from abc import ABC, abstractmethod
from collections.abc import Sequence

from ..actions import Action
from ..view import View


class Bot(ABC):
    """An opponent. It sees only ``view`` (one seat's knowledge), never the full state."""

    name: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def reseed(self, seed: int | str | None) -> None:
        """Make the next decisions reproducible (the arena seeds bots by deal and seat)."""
        self.rng.seed(seed)

    @abstractmethod
    def act(self, view: View, legal: Sequence[Action]) -> Action:
        """Choose one of ``legal`` for ``view.seat``."""

    def explain(self, view: View, legal: Sequence[Action]) -> tuple[Action, str]:
        """An action and one line saying why (used for hints); plain bots just name it."""
        action = self.act(view, legal)
        return action, "a legal move"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.name}>"


class RandomBot(Bot):
    """Uniformly random legal actions: the floor every other bot must beat."""

    name = "random"

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        return legal[self.rng.randrange(len(legal))]
