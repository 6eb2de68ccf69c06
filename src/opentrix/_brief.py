"""``brief(value)``: a value quoted for an error message, cut short.

Messages quote what they were given (``not a card: 'QX'``); a record or a caller can hand over a
string of a hundred thousand characters, and the message must stay one readable line. Strings keep
their quotes; anything else is spelled as JSON (``null``, ``true``, ``["QS"]``), since most such values
come from a record and a reader should see what the file says, not Python's ``None`` or ``True``.
"""

from __future__ import annotations

import contextlib
import json


def brief(value: object, limit: int = 40, *, python: bool = False) -> str:
    """``python=True`` keeps Python's spelling, for messages about arguments only Python code passes."""
    text = repr(value)
    if not python and not isinstance(value, str):
        with contextlib.suppress(TypeError, ValueError, RecursionError):
            text = json.dumps(value, ensure_ascii=False)
            # as repr does: a character that does not print (a control, a right-to-left override) is
            # escaped, so a message stays one plain line that cannot reorder or restyle a terminal
            text = "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
