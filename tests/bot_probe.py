"""A bot that notes the process it thinks in: importable by the server's bot worker processes."""

from __future__ import annotations

import os
import time
from typing import Any

from opentrix.bots import make_bot


class ProcessNoting:
    """Plays as the bot of ``level`` and keeps the id of every process it thought a move in."""

    def __init__(self, level: str, seed: str) -> None:
        self.bot = make_bot(level, seed=seed)
        self.pids: list[int] = []

    def act(self, view: Any, legal: list[int]) -> int:
        self.pids.append(os.getpid())
        return int(self.bot.act(view, legal))


class Slow:
    """Thinks ``seconds`` and plays the first legal action (a stand-in for a bot busy on a hard move)."""

    def __init__(self, seconds: float) -> None:
        self.seconds = seconds

    def act(self, view: Any, legal: list[int]) -> int:
        time.sleep(self.seconds)
        return legal[0]


class StuckOnce:
    """Never answers its first move (a worker caught in a loop), then plays the first legal action. The
    mark that it was stuck is a file, since every move thinks in a fresh copy of the bot."""

    def __init__(self, mark: str) -> None:
        self.mark = mark

    def act(self, view: Any, legal: list[int]) -> int:
        if not os.path.exists(self.mark):
            with open(self.mark, "w"):
                pass
            time.sleep(3600)
        return legal[0]
