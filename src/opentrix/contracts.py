"""The contracts a king may name."""

from __future__ import annotations

from enum import IntEnum

from ._brief import brief


class Contract(IntEnum):
    KING_OF_HEARTS = 0
    QUEENS = 1
    DIAMONDS = 2
    LTOOSH = 3
    TRIX = 4
    COMPLEX = 5

    @property
    def id(self) -> str:
        """The record's name: ``king_of_hearts``, ``ltoosh`` …"""
        return self.name.lower()

    @property
    def title(self) -> str:
        return _TITLES[self]

    @property
    def is_trick_contract(self) -> bool:
        return self is not Contract.TRIX

    def __str__(self) -> str:
        return self.id

    def __repr__(self) -> str:
        return f"Contract.{self.name}"

    @classmethod
    def parse(cls, text: object) -> Contract:
        if isinstance(text, Contract):
            return text
        if isinstance(text, str):
            key = text.strip().lower().replace("-", "_").replace(" ", "_")
            for c in cls:
                if c.id == key:
                    return c
        names = ", ".join(c.id for c in cls)
        raise ValueError(f"unknown contract {brief(text)} (expected one of {names})")


_TITLES = {
    Contract.KING_OF_HEARTS: "King of Hearts",
    Contract.QUEENS: "Queens",
    Contract.DIAMONDS: "Diamonds",
    Contract.LTOOSH: "Ltoosh",
    Contract.TRIX: "Trix",
    Contract.COMPLEX: "Complex",
}

STANDARD_CONTRACTS = (
    Contract.KING_OF_HEARTS,
    Contract.QUEENS,
    Contract.DIAMONDS,
    Contract.LTOOSH,
    Contract.TRIX,
)
COMPLEX_CONTRACTS = (Contract.COMPLEX, Contract.TRIX)
