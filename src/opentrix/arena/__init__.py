"""The arena: duplicate deals between two bots, with confidence intervals (``opentrix arena``)."""

from __future__ import annotations

from .duplicate import Unit, UnitResult, play_unit
from .report import summary
from .runner import ArenaConfig, ArenaRun, run
from .spec import BotSpec, SpecError, parse_spec

__all__ = [
    "ArenaConfig",
    "ArenaRun",
    "BotSpec",
    "SpecError",
    "Unit",
    "UnitResult",
    "parse_spec",
    "play_unit",
    "run",
    "summary",
]
