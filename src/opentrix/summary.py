"""How a finished deal looked to everyone: built once when the deal ends, shared by every view."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .cards import CardSet
from .contracts import Contract


@dataclass(frozen=True, slots=True)
class DealSummary:
    """A finished (or thrown-in) deal as everyone saw it end."""

    king: int
    contract: Contract
    thrown_in: int | None
    scores: tuple[int, int, int, int]
    doubled: CardSet

    def to_dict(self) -> dict[str, Any]:
        return {
            "king": self.king,
            "contract": self.contract.id,
            "thrown_in": self.thrown_in,
            "scores": list(self.scores),
            "doubled": CardSet(self.doubled).names(),
        }
