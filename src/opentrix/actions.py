"""Actions as small ints: one fixed action space for every decision of the game.

``0``–``51`` play that card; then pass (Trix), the six contracts, doubling each of the five
doublable cards, done doubling, and the redeal claim answers. The same ids are the RL action space.
"""

from __future__ import annotations

from .cards import Card, card_name, card_symbol, parse_card
from .contracts import Contract

Action = int

PASS: Action = 52
CONTRACT_BASE: Action = 53  # + Contract
DOUBLABLE: tuple[int, ...] = (Card.KH, Card.QS, Card.QH, Card.QD, Card.QC)
DOUBLE_BASE: Action = 59  # + index in DOUBLABLE
NO_DOUBLE: Action = 64  # done doubling (or: I double nothing)
CLAIM: Action = 65  # claim a redeal (throw-in)
NO_CLAIM: Action = 66
NUM_ACTIONS = 67

_DOUBLE_OF_CARD = {c: DOUBLE_BASE + i for i, c in enumerate(DOUBLABLE)}


def play(card: int | str) -> Action:
    return parse_card(card) if isinstance(card, str) else int(card)


def choose(contract: Contract | str) -> Action:
    c = Contract.parse(contract) if isinstance(contract, str) else contract
    return CONTRACT_BASE + int(c)


def double(card: int | str) -> Action:
    c = parse_card(card) if isinstance(card, str) else int(card)
    try:
        return _DOUBLE_OF_CARD[c]
    except KeyError:
        raise ValueError(f"{card_name(c)} can never be doubled (only K♥ and the queens)") from None


def is_card(action: Action) -> bool:
    return 0 <= action < 52


def contract_of(action: Action) -> Contract:
    return Contract(action - CONTRACT_BASE)


def doubled_card(action: Action) -> int:
    return DOUBLABLE[action - DOUBLE_BASE]


def to_str(action: Action, symbols: bool = False) -> str:
    """A short text: ``QS``, ``pass``, ``contract queens``, ``double KH``, ``no double``, ``claim``."""
    if 0 <= action < 52:
        return card_symbol(action) if symbols else card_name(action)
    if action == PASS:
        return "pass"
    if CONTRACT_BASE <= action < CONTRACT_BASE + 6:
        return f"contract {Contract(action - CONTRACT_BASE).id}"
    if DOUBLE_BASE <= action < DOUBLE_BASE + 5:
        c = DOUBLABLE[action - DOUBLE_BASE]
        return f"double {card_symbol(c) if symbols else card_name(c)}"
    if action == NO_DOUBLE:
        return "no double"
    if action == CLAIM:
        return "claim"
    if action == NO_CLAIM:
        return "no claim"
    raise ValueError(f"not an action id: {action!r} (expected 0 to {NUM_ACTIONS - 1})")


def parse(text: str) -> Action:
    """Inverse of ``to_str``; also accepts a bare contract name."""
    t = text.strip().lower()
    if t == "pass":
        return PASS
    if t in ("no double", "no_double", "nodouble"):
        return NO_DOUBLE
    if t == "claim":
        return CLAIM
    if t in ("no claim", "no_claim", "noclaim"):
        return NO_CLAIM
    if t.startswith("double "):
        return double(t[7:])
    if t.startswith("contract "):
        return choose(t[9:])
    try:
        return choose(t)
    except ValueError:
        pass
    try:
        return parse_card(text)
    except ValueError:
        raise ValueError(
            f"not an action: {text!r} (a card such as 'QS', 'pass', a contract name, "
            "'double KH', 'no double', 'claim' or 'no claim')"
        ) from None
