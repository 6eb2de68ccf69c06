"""Actions as small ints: one fixed action space for every decision of the game.

``0``–``51`` play that card; ``52`` pass (Trix); ``53``–``58`` name a contract; doubling answers;
the redeal claim answers. The same ids are the RL action space (``NUM_ACTIONS``).

A seat answers the doubling question once, with the whole set of cards it doubles (possibly none), so
in hidden reveal nobody learns anything from how long a seat took to answer. Doubling one card is
``59``–``63`` (K♥, Q♠, Q♥, Q♦, Q♣); doubling two or more at once is ``67``–``92``.
"""

from __future__ import annotations

from collections.abc import Iterable
from numbers import Integral

from ._brief import brief
from .cards import Card, card_int, card_name, card_symbol, parse_card
from .contracts import Contract

Action = int

PASS: Action = 52
CONTRACT_BASE: Action = 53  # + Contract
DOUBLABLE: tuple[int, ...] = (Card.KH, Card.QS, Card.QH, Card.QD, Card.QC)
DOUBLE_BASE: Action = 59  # + index in DOUBLABLE: double that one card
NO_DOUBLE: Action = 64  # double nothing
CLAIM: Action = 65  # claim a redeal (throw-in)
NO_CLAIM: Action = 66
MULTI_DOUBLE_BASE: Action = 67  # doubling two or more cards at once
NUM_ACTIONS = 93

# Doubling answers by the set of DOUBLABLE indexes they double (a 5-bit mask), and back.
_ACTION_OF_SET: list[int] = [NO_DOUBLE] * 32
_SET_OF_ACTION: dict[int, int] = {}
_next = MULTI_DOUBLE_BASE
for _m in range(1, 32):
    if _m.bit_count() == 1:
        _a = DOUBLE_BASE + _m.bit_length() - 1
    else:
        _a = _next
        _next += 1
    _ACTION_OF_SET[_m] = _a
    _SET_OF_ACTION[_a] = _m
assert _next == NUM_ACTIONS
_SET_OF_ACTION[NO_DOUBLE] = 0
_INDEX_OF_CARD = {c: i for i, c in enumerate(DOUBLABLE)}


def play(card: int | str) -> Action:
    return parse_card(card) if isinstance(card, str) else card_int(card)


def choose(contract: Contract | str) -> Action:
    """The king naming ``contract`` (a ``Contract``, its int 0-5, or its name, ``"queens"``)."""
    if isinstance(contract, Integral) and not isinstance(contract, bool | Contract):
        if not 0 <= contract < len(Contract):
            raise ValueError(f"unknown contract {contract} (contract ints run from 0 to {len(Contract) - 1})")
        return CONTRACT_BASE + int(contract)
    c = contract if isinstance(contract, Contract) else Contract.parse(contract)
    return CONTRACT_BASE + int(c)


def double(*cards: int | str | Iterable[int | str]) -> Action:
    """The answer doubling exactly these cards: ``double("KH")``, ``double("QS", "QH")``, ``double()``."""
    flat: list[int | str] = []
    for c in cards:
        if isinstance(c, int | str):
            flat.append(c)
        else:
            flat.extend(c)
    m = 0
    for c in flat:
        card = parse_card(c) if isinstance(c, str) else card_int(c)
        try:
            m |= 1 << _INDEX_OF_CARD[card]
        except KeyError:
            raise ValueError(f"{card_name(card)} can never be doubled (only K♥ and the queens)") from None
    return _ACTION_OF_SET[m]


def double_mask(card_mask: int) -> Action:
    """The doubling answer for a card-set int of doublable cards (0 → ``NO_DOUBLE``)."""
    m = 0
    for i, c in enumerate(DOUBLABLE):
        if card_mask >> c & 1:
            m |= 1 << i
    return _ACTION_OF_SET[m]


def is_double(action: Action) -> bool:
    """A doubling answer that doubles at least one card."""
    return action in _SET_OF_ACTION and action != NO_DOUBLE


def is_doubling_answer(action: Action) -> bool:
    """Any answer to the doubling question, ``NO_DOUBLE`` included."""
    return action in _SET_OF_ACTION


def doubled_cards(action: Action) -> tuple[int, ...]:
    """The cards a doubling answer doubles (empty for ``NO_DOUBLE``); ValueError for other actions."""
    try:
        m = _SET_OF_ACTION[action]
    except KeyError:
        raise ValueError(f"{brief(action, python=True)} is not a doubling answer") from None
    return tuple(c for i, c in enumerate(DOUBLABLE) if m >> i & 1)


def doubled_mask(action: Action) -> int:
    """The card-set int a doubling answer doubles."""
    m = 0
    for c in doubled_cards(action):
        m |= 1 << c
    return m


def is_card(action: Action) -> bool:
    return 0 <= action < 52


def is_contract(action: Action) -> bool:
    """The king naming a contract."""
    return CONTRACT_BASE <= action < CONTRACT_BASE + 6


def contract_of(action: Action) -> Contract:
    """The contract a contract action names; ValueError for any other action."""
    if not is_contract(action):
        last = CONTRACT_BASE + 5
        raise ValueError(f"{brief(action, python=True)} is not a contract action ({CONTRACT_BASE} to {last})")
    return Contract(action - CONTRACT_BASE)


def doubled_card(action: Action) -> int:
    """The card of a one-card doubling answer."""
    cards = doubled_cards(action)
    if len(cards) != 1:
        raise ValueError(f"{to_str(action)!r} does not double exactly one card")
    return cards[0]


def to_str(action: Action, symbols: bool = False) -> str:
    """A short text: ``QS``, ``pass``, ``contract queens``, ``double KH QS``, ``no double``, ``claim``."""
    if not isinstance(action, Integral) or isinstance(action, bool):
        raise ValueError(f"not an action id: {brief(action, python=True)} (expected an int 0 to {NUM_ACTIONS - 1})")
    if 0 <= action < 52:
        return card_symbol(action) if symbols else card_name(action)
    if action == PASS:
        return "pass"
    if is_contract(action):
        return f"contract {Contract(action - CONTRACT_BASE).id}"
    if action == NO_DOUBLE:
        return "no double"
    if action in _SET_OF_ACTION:
        names = (card_symbol(c) if symbols else card_name(c) for c in doubled_cards(action))
        return "double " + " ".join(names)
    if action == CLAIM:
        return "claim"
    if action == NO_CLAIM:
        return "no claim"
    raise ValueError(f"not an action id: {brief(action, python=True)} (expected 0 to {NUM_ACTIONS - 1})")


def parse(text: str) -> Action:
    """Inverse of ``to_str``; also accepts a bare contract name."""
    if not isinstance(text, str):
        raise ValueError(f"not an action: {brief(text, python=True)} (expected text such as 'QS', 'pass' or 'queens')")
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
        return double(t[7:].replace(",", " ").split())
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
            f"not an action: {brief(text)} (a card such as 'QS', 'pass', a contract name, "
            "'double KH', 'double QS QH', 'no double', 'claim' or 'no claim')"
        ) from None
