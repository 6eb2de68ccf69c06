"""Exceptions that say exactly what is wrong, in words a player understands.

A message is built from parts; cards and suits among them print as symbols (``K♥``) in ``str(error)``
and as record letters (``KH``) in ``error.plain``, which the referee's JSON output uses.
"""

from __future__ import annotations

from ._brief import shown as shown  # record values in messages, spelled as JSON
from .cards import Card, Suit, card_name

Part = str | int | Card | Suit


def _render(parts: tuple[Part, ...], symbols: bool) -> str:
    out = []
    for p in parts:
        if isinstance(p, Suit):
            out.append(p.symbol if symbols else p.letter)
        elif isinstance(p, Card):
            out.append(p.symbol if symbols else card_name(p))
        else:
            out.append(str(p))
    return "".join(out)


class TrixError(Exception):
    """Base of every opentrix error."""

    def __init__(self, *parts: Part, detail: tuple[Part, ...] = ()) -> None:
        self.parts = parts
        self.detail = detail
        super().__init__(self.text(symbols=True))

    def text(self, symbols: bool = True, with_detail: bool = True) -> str:
        s = _render(self.parts, symbols)
        if with_detail and self.detail:
            s += " (" + _render(self.detail, symbols) + ")"
        return s

    @property
    def plain(self) -> str:
        """The short message with record card strings, as ``verify --json`` prints it."""
        return self.text(symbols=False, with_detail=False)


class IllegalAction(TrixError):
    """An action the rules do not allow now."""


class NotYourTurn(IllegalAction):
    """A seat acted when another seat is to act."""


class WrongPhase(IllegalAction):
    """An action of the wrong kind for the phase (a card during doubling, a contract during play)."""


class IllegalPlay(IllegalAction):
    """A card that may not be played now: not held, revoke, hearts lead ban, Trix layout."""


class IllegalContract(IllegalAction):
    """A contract that is unknown, not in this match's rules, or already played in this kingdom."""


class IllegalDouble(IllegalAction):
    """Doubling a card that may not be doubled (not held, wrong contract, doubling off)."""


class IllegalClaim(IllegalAction):
    """A redeal claim the hand or the rules do not support."""


class InvalidDeal(TrixError):
    """Hands that are not four hands of 13 distinct cards."""
