"""``brief(value)`` and ``shown(value)``: a value quoted for an error message, cut short.

Messages quote what they were given (``not a card: 'QX'``); a record or a caller can hand over a
string of a hundred thousand characters, and the message must stay one readable line. Strings keep
their quotes; anything else is spelled as JSON (``null``, ``true``, ``["QS"]``), since most such values
come from a record and a reader should see what the file says, not Python's ``None`` or ``True``.
"""

from __future__ import annotations

import json


def brief(value: object, limit: int = 40, *, python: bool = False) -> str:
    """A string quoted as Python quotes it; any other value as ``shown`` spells it, unless
    ``python=True`` keeps Python's spelling, for messages about arguments only Python code passes."""
    if not python and not isinstance(value, str):
        return shown(value, limit)
    text = repr(value)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def shown(value: object, limit: int = 40) -> str:
    """A value from a record as its JSON text (``true``, ``null``, ``"x"``, ``1e+100``), cut short when
    long: error messages quote what the file says, not Python's spelling of it. Characters that do
    not print (a newline, a right-to-left override) are escaped, so a message stays one plain line."""
    try:
        text = json.dumps(value, ensure_ascii=False)
    except (TypeError, ValueError):
        text = repr(value)
    except RecursionError:  # nested deeper than the encoder goes: say what it is
        return "a list" if isinstance(value, list) else "an object" if isinstance(value, dict) else "a value"
    text = "".join(c if c.isprintable() else json.dumps(c)[1:-1] for c in text)
    return text if len(text) <= limit else text[: limit - 1] + "…"
