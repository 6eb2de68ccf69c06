"""The one interface every opponent implements: a view and the legal actions in, an action out."""

from __future__ import annotations

import functools
import inspect
import random
from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import Any

from ..actions import Action
from ..rules import Rules
from ..view import View


def _checked(method: Callable[..., Any]) -> Callable[..., Any]:
    @functools.wraps(method)
    def run(self: Any, view: View, legal: Sequence[Action], *args: Any, **kwargs: Any) -> Any:
        if view.seat is None:
            raise ValueError("a spectator's view (seat None) has no hand to act with: give a seat's view")
        if len(legal) == 0:  # len(): a NumPy array of actions has no single truth value
            raise ValueError(f"no legal actions for seat {view.seat}: a bot is asked only when its seat has a decision")
        return method(self, view, legal, *args, **kwargs)

    run._checked = True  # type: ignore[attr-defined]
    return run


class Bot(ABC):
    """An opponent. It sees only ``view`` (one seat's knowledge), never the full state."""

    name: str = "bot"

    def __init__(self, seed: int | str | None = None) -> None:
        self.rng = random.Random(seed)

    def __init_subclass__(cls, **kwargs: Any) -> None:
        """Every bot's ``act`` and ``explain`` first check what they are given, so that a caller's
        slip (no legal actions, a spectator's view) is a clear error in every bot, not a deep one."""
        super().__init_subclass__(**kwargs)
        for name in ("act", "explain"):
            method = cls.__dict__.get(name)
            # Plain methods taking (view, legal) by position only; static methods and others are left alone.
            if inspect.isfunction(method) and not getattr(method, "_checked", False):
                setattr(cls, name, _checked(method))

    def reseed(self, seed: int | str | None) -> None:
        """Make the next decisions reproducible (the arena seeds bots by deal and seat)."""
        self.rng.seed(seed)

    def prepare(self, rules: Rules) -> None:
        """Do ahead of the first move what a bot needs once per set of rules (``strong`` values each
        contract on average hands), so that no move's time includes it. Optional: a bot does it
        itself when first needed."""
        return None

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
