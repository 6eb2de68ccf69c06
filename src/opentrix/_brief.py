"""``brief(value)``: a value's ``repr`` cut short for an error message.

Messages quote what they were given (``not a card: 'QX'``); a record or a caller can hand over a
string of a hundred thousand characters, and the message must stay one readable line.
"""

from __future__ import annotations


def brief(value: object, limit: int = 40) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"
