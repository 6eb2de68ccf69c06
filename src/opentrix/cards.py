"""Cards, suits and card sets.

A card is a small int ``suit * 13 + rank`` (rank 0 is the two, 12 the ace) and a set of cards is a
52-bit int, as python-chess does with squares and bitboards. ``Card`` and ``CardSet`` are thin int
subclasses that add parsing and printing; the hot paths of the engine use plain ints.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from enum import IntEnum
from numbers import Integral
from typing import TYPE_CHECKING

from ._brief import brief

RANK_CHARS = "23456789TJQKA"
SUIT_CHARS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
_SYMBOL_TO_LETTER = {"♠": "S", "♥": "H", "♦": "D", "♣": "C", "♤": "S", "♡": "H", "♢": "D", "♧": "C"}

SUIT_BITS = 0x1FFF  # the 13 ranks of one suit


class Suit(IntEnum):
    """The four suits, in the record's order S H D C."""

    SPADES = 0
    HEARTS = 1
    DIAMONDS = 2
    CLUBS = 3

    @property
    def letter(self) -> str:
        return SUIT_CHARS[self]

    @property
    def symbol(self) -> str:
        return SUIT_SYMBOLS[self]

    @property
    def mask(self) -> int:
        """The 13 cards of this suit as a card-set int."""
        return SUIT_BITS << (13 * self)

    def __str__(self) -> str:
        return self.letter

    def __repr__(self) -> str:
        return f"Suit.{self.name}"

    @classmethod
    def parse(cls, text: str) -> Suit:
        if not isinstance(text, str):
            raise ValueError(f"not a suit: {brief(text, python=True)} (expected one of S H D C or ♠ ♥ ♦ ♣)")
        t = text.strip().replace("\ufe0f", "").replace("\ufe0e", "")
        t = _SYMBOL_TO_LETTER.get(t, t)
        t = t.upper() if t.isascii() else t  # 'ſ' (the long s) upper-cased is S, yet no suit letter
        if len(t) != 1 or t not in SUIT_CHARS:
            raise ValueError(f"not a suit: {brief(text)} (expected one of S H D C or ♠ ♥ ♦ ♣)")
        return cls(SUIT_CHARS.index(t))


def _card_members() -> dict[str, int]:
    return {r + s: si * 13 + ri for si, s in enumerate(SUIT_CHARS) for ri, r in enumerate(RANK_CHARS)}


class Card(IntEnum):
    """One of the 52 cards; ``Card.QS``, ``Card.parse("10♦")``, ``str(Card.TD) == "TD"``."""

    locals().update(_card_members())  # the members 2S … AC, built from the rank and suit letters

    if TYPE_CHECKING:  # what the type checker cannot see in the line above (names starting with a digit aside)
        TS: Card
        JS: Card
        QS: Card
        KS: Card
        AS: Card
        TH: Card
        JH: Card
        QH: Card
        KH: Card
        AH: Card
        TD: Card
        JD: Card
        QD: Card
        KD: Card
        AD: Card
        TC: Card
        JC: Card
        QC: Card
        KC: Card
        AC: Card

    @property
    def suit(self) -> Suit:
        return Suit(self // 13)

    @property
    def rank(self) -> int:
        """0 for the two … 12 for the ace."""
        return self % 13

    @property
    def bit(self) -> int:
        return 1 << self

    @property
    def symbol(self) -> str:
        """``K♥``: the rank then the suit symbol, ``10`` written as ``10``."""
        r = RANK_CHARS[self % 13]
        return ("10" if r == "T" else r) + SUIT_SYMBOLS[self // 13]

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Card.{self.name}" if self.name[0].isalpha() else f"Card.parse({self.name!r})"

    def __format__(self, spec: str) -> str:
        return self.name if not spec else format(self.name, spec)

    @classmethod
    def parse(cls, text: str) -> Card:
        """Read a card string: ``QS``, ``10D``, ``TD``, ``K♥``, any letter case."""
        return cls(parse_card(text))


_CARD_CACHE: dict[str, int] = {}


def parse_card(text: object) -> int:
    """Parse a card string to its int; raises ValueError naming the bad string."""
    if not isinstance(text, str):
        raise ValueError(f"not a card: {brief(text)} (expected a string such as 'QS' or '10D')")
    hit = _CARD_CACHE.get(text)
    if hit is not None:
        return hit
    t = text.strip().replace("\ufe0f", "").replace("\ufe0e", "")  # "K♥️": the emoji/text style selectors
    if len(t) >= 2:
        suit_part = _SYMBOL_TO_LETTER.get(t[-1], t[-1])
        rank_part = t[:-1]
        if suit_part.isascii() and rank_part.isascii():  # upper() would make 'ſ' (the long s) an S
            suit_part, rank_part = suit_part.upper(), rank_part.upper()
        if rank_part == "10":
            rank_part = "T"
        if len(rank_part) == 1 and rank_part in RANK_CHARS and suit_part in SUIT_CHARS:
            value = SUIT_CHARS.index(suit_part) * 13 + RANK_CHARS.index(rank_part)
            if len(_CARD_CACHE) < 4096:
                _CARD_CACHE[text] = value
            return value
    raise ValueError(f"not a card: {brief(text)} (expected rank 2-9 T/10 J Q K A then suit S H D C, e.g. 'QS')")


def card_int(card: object) -> int:
    """A card given as its int (numpy's too), checked: 0 to 51, not a bool or a float."""
    if not isinstance(card, int | Integral) or isinstance(card, bool):
        raise ValueError(f"not a card: {brief(card, python=True)} (expected a card int 0-51 or a name such as 'QS')")
    value = int(card)
    if not 0 <= value < 52:  # 52 would sit unseen in a card set
        raise ValueError(f"not a card: {value} (card ints run from 0 to 51)")
    return value


def card_name(card: int) -> str:
    """The canonical record string of a card: ``TD``."""
    return RANK_CHARS[card % 13] + SUIT_CHARS[card // 13]


def card_symbol(card: int) -> str:
    return Card(card).symbol


# Per-suit lookup: 13-bit rank mask -> tuple of card ints, so listing a set costs four lookups.
SUIT_TABLES: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(s * 13 + r for r in range(13) if m >> r & 1) for m in range(1 << 13)) for s in range(4)
)
_T0, _T1, _T2, _T3 = SUIT_TABLES


def cards_of(mask: int) -> list[int]:
    """The cards of a card-set int, ascending by suit then rank."""
    return [
        *_T0[mask & SUIT_BITS],
        *_T1[(mask >> 13) & SUIT_BITS],
        *_T2[(mask >> 26) & SUIT_BITS],
        *_T3[(mask >> 39) & SUIT_BITS],
    ]


def mask_of(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


FULL_DECK = (1 << 52) - 1
SPADES = SUIT_BITS
HEARTS = SUIT_BITS << 13
DIAMONDS = SUIT_BITS << 26
CLUBS = SUIT_BITS << 39
SUIT_MASKS = (SPADES, HEARTS, DIAMONDS, CLUBS)
QUEENS = (1 << Card.QS) | (1 << Card.QH) | (1 << Card.QD) | (1 << Card.QC)
KING_OF_HEARTS = 1 << Card.KH
JACKS = (1 << Card.JS) | (1 << Card.JH) | (1 << Card.JD) | (1 << Card.JC)


class CardSet(int):
    """A set of cards as a 52-bit int; iterates as ``Card``, prints as ``AS KS 2D``."""

    __slots__ = ()

    def __new__(cls, cards: int | Iterable[int | str] = 0) -> CardSet:
        if isinstance(cards, int):
            if cards < 0 or cards > FULL_DECK:
                raise ValueError(f"card set out of range: {cards}")
            return super().__new__(cls, cards)
        m = 0
        for c in cards:
            m |= 1 << (parse_card(c) if isinstance(c, str) else card_int(c))
        return super().__new__(cls, m)

    @classmethod
    def parse(cls, text: str) -> CardSet:
        """``CardSet.parse("AS KS 2D")``: names separated by spaces or commas."""
        if not isinstance(text, str):
            raise ValueError(f"not a list of cards: {brief(text, python=True)} (expected text such as 'AS KS 2D')")
        return cls(text.replace(",", " ").split())

    def __iter__(self) -> Iterator[Card]:
        return (Card(c) for c in cards_of(self))

    def __len__(self) -> int:
        return int(self).bit_count()

    def __contains__(self, card: object) -> bool:
        if isinstance(card, str):
            card = parse_card(card)
        return isinstance(card, int) and 0 <= card < 52 and bool(int(self) >> card & 1)

    def __bool__(self) -> bool:
        return int(self) != 0

    def in_suit(self, suit: Suit | int) -> CardSet:
        return CardSet(int(self) & SUIT_MASKS[suit])

    def names(self) -> list[str]:
        return [card_name(c) for c in cards_of(self)]

    def __str__(self) -> str:
        return " ".join(self.names())

    def __repr__(self) -> str:
        return f"CardSet.parse({str(self)!r})"
