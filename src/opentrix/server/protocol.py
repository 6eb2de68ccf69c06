"""The WebSocket messages between the web client and a table, and how bad input is turned away.

Client → server (JSON objects, one per WebSocket text message):

- ``{"type": "hello", "token": str | null, "last": int | null, "epoch": str | null, "bot": bool?}``
  first: the seat token (none for a spectator) and the last event number seen, to catch up after a
  reconnect; ``bot`` true for a program playing the seat, which does not count as a person there.
- ``{"type": "act", "action": "QS" | "pass" | "contract queens" | "double KH" | "double QS QH" | "no double" | "claim" |
  "no claim" | 0..66, "seat": int?, "after": int?}``: an action of the sender's seat. ``after``, the
  number ``n`` of the last update the client had seen when it chose, makes a move that crossed a
  stand-in's (the move timer ran out) an error instead of a move on a later turn.
- ``{"type": "next"}``: ready for the next deal; ``{"type": "back"}``: take the seat back from the bot;
  ``{"type": "rematch"}``: once the match is over, play again with the same people (``Hub.rematch``);
  ``{"type": "hint"}``: at a table where everyone else is a bot, or whose host allowed hints, what
  the hard bot would do in the sender's place on his turn (``Table.hint``); ``{"type": "chat",
  "text": "..."}``: a seated player's message to the table (``Table.chat``); ``{"type": "ping"}``.

Server → client: ``welcome``, ``update`` (an event and the recipient's view), ``catchup``, ``error``, ``pong``,
``{"type": "hint", "action": "QS"}`` to the connection that asked (not a numbered event),
``{"type": "chat", "message": {"seat", "name", "text", "at"}}`` to everyone at the table (not a numbered
event; ``welcome`` carries the last ones as ``chat``),
``{"type": "watching", "spectators": int}`` when the number watching changed (not a numbered event;
at most one every two seconds), and ``{"type": "rematch", "code": str, "seat": int, "token": str, "by": int}``
to a player's own connections only: his seat token at the rematch that ``by`` asked for (everyone sees
the rematch's code in the table facts and in a numbered ``rematch`` event).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any

from .. import actions as A
from ..errors import shown

CLIENT_TYPES = ("hello", "act", "next", "back", "rematch", "hint", "chat", "ping")
CHAT_LENGTH = 200  # characters in one chat message (here, not in the hub, so that clients can read it)


class BadMessage(ValueError):
    """A client message that cannot be acted on; its text goes back to that client."""


@dataclass(frozen=True, slots=True)
class ClientMessage:
    type: str
    data: dict[str, Any]


def parse_message(text: str | bytes, max_bytes: int) -> ClientMessage:
    """Check size, JSON and type of one client message."""
    size = len(text.encode() if isinstance(text, str) else text)
    if size > max_bytes:
        raise BadMessage(f"message too large ({size} bytes; the limit is {max_bytes})")
    try:
        data = json.loads(text)
    except (ValueError, UnicodeDecodeError):
        raise BadMessage("malformed message: not JSON") from None
    except RecursionError:  # "[[[[…": a RuntimeError, which would end the connection instead
        raise BadMessage("malformed message: nested too deeply") from None
    if not isinstance(data, dict):
        raise BadMessage("malformed message: expected a JSON object")
    kind = data.get("type")
    if kind not in CLIENT_TYPES:
        raise BadMessage(f"unknown message type {shown(kind)} (known: {', '.join(CLIENT_TYPES)})")
    return ClientMessage(kind, data)


def parse_action(value: object) -> int:
    """An action from its text (``QS``, ``10♦``, ``contract queens``, ``no double``…) or its id."""
    if isinstance(value, bool):
        raise BadMessage(f"not an action: {shown(value)}")
    if isinstance(value, int):
        if 0 <= value < A.NUM_ACTIONS:
            return value
        raise BadMessage(f"not an action id: {value} (expected 0 to {A.NUM_ACTIONS - 1})")
    if isinstance(value, str) and len(value) <= 40:
        try:
            return A.parse(value)
        except ValueError as e:
            raise BadMessage(str(e)) from None
    raise BadMessage("'action' must be a card such as 'QS', 'pass', 'contract queens', 'double KH' or 'claim'")


def parse_seat(value: object) -> int | None:
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= 3:
        return value
    raise BadMessage(f"'seat' must be 0 to 3, not {shown(value)}")


def parse_after(value: object) -> int | None:
    """An ``act``'s optional ``after``: the number of the last event the client had seen."""
    if value is None:
        return None
    if isinstance(value, int) and not isinstance(value, bool) and value >= 0:
        return value
    raise BadMessage(f"'after' must be the number of the last event seen (0 or more), not {shown(value)}")


def dumps(message: dict[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"))


def error(message: str, code: str | None = None, params: dict[str, Any] | None = None) -> str:
    """An ``error`` message; those a page translates carry a ``code`` and the ``params`` of the text."""
    if code is None:
        return dumps({"type": "error", "message": message})
    return dumps({"type": "error", "message": message, "code": code, "params": params or {}})
