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

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> DealSummary:
        """The inverse of ``to_dict``: a deal's summary as a server sent it."""
        scores = data["scores"]
        return cls(
            king=int(data["king"]),
            contract=Contract.parse(data["contract"]),
            thrown_in=None if data["thrown_in"] is None else int(data["thrown_in"]),
            scores=(int(scores[0]), int(scores[1]), int(scores[2]), int(scores[3])),
            doubled=CardSet(data["doubled"]),
        )
