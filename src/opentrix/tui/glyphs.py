"""How cards look on screen: suit symbols where the terminal can show them, letters where it cannot."""

from __future__ import annotations

import os
import sys
from dataclasses import dataclass

from rich.text import Text

from ..cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS

RED_SUITS = (1, 2)  # hearts and diamonds


def ascii_wanted(stream: object = None) -> bool:
    """True when suit symbols would turn into garbage: OPENTRIX_ASCII is set or the encoding is not UTF-8."""
    if os.environ.get("OPENTRIX_ASCII", "").strip() not in ("", "0"):
        return True
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or ""
    return "utf" not in encoding.lower().replace("-", "")


@dataclass(frozen=True)
class Glyphs:
    """Card and suit text for one screen; ``ascii=True`` writes ``QS`` and ``S`` instead of ``Q♠`` and ``♠``."""

    ascii: bool = False

    def suit(self, suit: int) -> str:
        return SUIT_CHARS[suit] if self.ascii else SUIT_SYMBOLS[suit]

    def rank(self, card: int) -> str:
        r = RANK_CHARS[card % 13]
        return "10" if r == "T" else r

    def card(self, card: int) -> str:
        return self.rank(card) + self.suit(card // 13)

    def text(self, message: str) -> str:
        """A message with its suit symbols, arrows and dashes in plain letters in ASCII mode."""
        if not self.ascii:
            return message
        for sym, letter in zip(SUIT_SYMBOLS, SUIT_CHARS, strict=True):
            message = message.replace(sym, letter)
        for fancy, plain in _PLAIN:
            message = message.replace(fancy, plain)
        return message

    def plain(self, text: Text) -> Text:
        """A drawn line with every non-ASCII sign swapped one for one (styles kept) in ASCII mode."""
        if not self.ascii:
            return text
        swapped = text.plain.translate(_ONE_FOR_ONE)
        return Text(swapped, style=text.style, spans=list(text.spans), end=text.end)


_PLAIN = (("←/→", "left/right"), ("…", "..."), ("—", "-"), ("◀", "<"), ("›", ">"), ("×", "x"))
_ONE_FOR_ONE = str.maketrans(
    {"·": "-", "…": ".", "—": "-", "–": "-", "◀": "<", "›": ">", "×": "x", "▏": "_", "│": "|", "←": "<", "→": ">"}
    | dict(zip(SUIT_SYMBOLS, SUIT_CHARS, strict=True))
)
