"""How cards look on screen: suit symbols where the terminal can show them, letters where it cannot."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterable
from dataclasses import dataclass

from rich.text import Span, Text

from ..cards import RANK_CHARS, SUIT_CHARS, SUIT_SYMBOLS

RED_SUITS = (1, 2)  # hearts and diamonds


def hand_order(cards: Iterable[int]) -> list[int]:
    """Cards as the hand is drawn, by suit (♠ ♥ ♦ ♣), high to low: every list of cards on screen uses it."""
    return sorted(cards, key=lambda c: (c // 13, -c))


def ascii_wanted(stream: object = None) -> bool:
    """True when suit symbols would turn into garbage: OPENTRIX_ASCII is set, or the terminal's encoding
    is not UTF-8.

    The stream's encoding alone does not say: in the C or POSIX locale (``LC_ALL=C``) Python turns on
    its UTF-8 mode and writes UTF-8 to a terminal that said it takes ASCII. Then the locale is asked,
    as other terminal programs ask it (tmux, mosh): the first of ``LC_ALL``, ``LC_CTYPE`` and ``LANG``
    that is set must name UTF-8. An encoding chosen for Python's streams (``PYTHONIOENCODING``) is
    taken at its word.
    """
    if os.environ.get("OPENTRIX_ASCII", "").strip() not in ("", "0"):
        return True
    stream = sys.stdout if stream is None else stream
    encoding = getattr(stream, "encoding", None) or ""
    if not _names_utf8(encoding):
        return True
    if sys.flags.utf8_mode and not os.environ.get("PYTHONIOENCODING") and os.name == "posix":
        return not _names_utf8(locale_name())
    return False


def locale_name() -> str:
    """The locale that decides the terminal's encoding, as the C library reads the environment (``C``
    when none of the variables is set)."""
    for var in ("LC_ALL", "LC_CTYPE", "LANG"):
        if os.environ.get(var):
            return os.environ[var]
    return "C"


def _names_utf8(name: str) -> bool:
    return "utf8" in name.lower().replace("-", "").replace("_", "")


@dataclass(frozen=True)
class Glyphs:
    """Card and suit text for one screen; ``ascii=True`` writes ``QS`` and ``S`` instead of ``Q♠`` and ``♠``.

    ``color=False`` (NO_COLOR) draws red suits bold like the black ones: greyed, red looked like the dim
    of a card you may not play.
    """

    ascii: bool = False
    color: bool = True

    def suit_style(self, suit: int) -> str:
        return "bold red" if self.color and suit in RED_SUITS else "bold"

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

    def ellipsis(self) -> str:
        return "..." if self.ascii else "…"

    def plain(self, text: Text) -> Text:
        """A drawn line with every non-ASCII sign in letters (styles kept) in ASCII mode; ``…`` becomes ``...``."""
        if not self.ascii:
            return text
        swapped = Text(text.plain.translate(_ONE_FOR_ONE), style=text.style, spans=list(text.spans), end=text.end)
        if "…" not in swapped.plain:
            return swapped
        cuts = [i + d for i, ch in enumerate(swapped.plain) if ch == "…" for d in (0, 1)]
        out = Text(style=text.style, end=text.end)
        for piece in swapped.divide(cuts):
            if piece.plain == "…":  # three dots, each with the styles the one sign had
                piece = Text("...", spans=[Span(0, 3, s.style) for s in piece.spans])
            piece.style = ""  # the whole line's style is ``out``'s own
            out.append_text(piece)
        return out


# Footer key names in ASCII mode: Textual shows arrows and other signs for some keys.
_ASCII_KEYS = {"→": "right", "←": "left", "↑": "up", "↓": "down", "⏎": "enter", "⌫": "backspace", "⇥": "tab"}


def ascii_key(shown: str, key: str) -> str:
    """A key as the footer shows it, in plain letters (the key's own name if nothing else will do)."""
    shown = "".join(_ASCII_KEYS.get(ch, ch) for ch in shown)
    return shown if shown.isascii() else key


_PLAIN = (("←/→", "left/right"), ("…", "..."), ("•", "*"), ("—", "-"), ("◀", "<"), ("›", ">"), ("×", "x"))
# ``…`` is not here: ``plain`` writes it as three dots.
_ONE_FOR_ONE = str.maketrans(
    {"·": "-", "•": "*", "—": "-", "–": "-", "◀": "<", "›": ">", "×": "x", "▏": "_", "│": "|", "←": "<", "→": ">"}
    | dict(zip(SUIT_SYMBOLS, SUIT_CHARS, strict=True))
)
