"""A seat at a table on an opentrix server, from Python: what the terminal client's ``opentrix join`` uses.

``find_table`` reads what a player pastes (an invite link, the host's own link with its seat token, or
a bare code and ``--server``); ``take_seat`` asks the server for a seat, ``TableLink`` holds the
WebSocket (saying hello with the seat token, catching up after a dropped connection from the last
numbered event, and trying again until closed), and ``TableState`` keeps what the messages said: the
seat's view as the engine's own ``View``, the table's public facts, the chat. ``play_with_bot`` seats
a bot of your own (``opentrix join LINK --bot strong``): it decides from that seat's view alone, as at
any table.

It speaks the protocol of ``opentrix.server.protocol`` and needs the ``websockets`` package (the
``server`` extra); the HTTP calls use the standard library.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import time
import urllib.error
import urllib.request
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any
from urllib.parse import parse_qs, urlsplit

from . import actions as A
from .deal import Phase
from .server.protocol import CHAT_LENGTH as CHAT_LENGTH  # the longest message a table takes (for clients)
from .server.shards import CODE_ALPHABET
from .view import View

if TYPE_CHECKING:
    from .bots import Bot

RETRY = (0.5, 1.0, 2.0, 4.0, 8.0)  # seconds between attempts to reconnect, the last repeated
PENDING_WAIT = 90.0  # seconds to wait for a table a stopped server still holds (close code 4409)


def a_bot(level: object) -> str:
    """A bot of a level in words: "a medium bot", "an easy bot"."""
    level = str(level)
    return f"{'an' if level[:1] in 'aeiou' else 'a'} {level} bot"


class ClientError(Exception):
    """What went wrong reaching a table, in a player's words (the server's own message where it gave one)."""


@dataclass(frozen=True)
class TableAddress:
    """Where a table is: the server's base URL and the table's code, and a seat token if the link held one."""

    base: str
    code: str
    seat: int | None = None
    token: str | None = None

    @property
    def ws_url(self) -> str:
        scheme = "wss" if self.base.startswith("https:") else "ws"
        return f"{scheme}{self.base[self.base.index(':') :]}/ws/{self.code}"

    @property
    def page(self) -> str:
        return f"{self.base}/t/{self.code}"


def _code(text: str) -> str:
    code = text.strip().upper()
    if not code or any(c not in CODE_ALPHABET for c in code):
        raise ClientError(f"{text!r} is not a table code (letters and digits, as in the invite link)")
    return code


def find_table(text: str, server: str | None = None) -> TableAddress:
    """A table from an invite link (``http://host:8000/t/CODE``), the host's link with its seat
    (``...#seat=0&token=...``), or a bare code with ``server``."""
    text = text.strip()
    if "://" not in text and "/" in text:  # a link without its http:// (typed, or read aloud): still a link
        text = "http://" + text
    if "://" not in text:
        if server is None:
            raise ClientError(f"{text!r} is a code without a server: give the whole invite link, or --server URL")
        try:
            return TableAddress(_base(server), _code(text))
        except ValueError as e:  # urllib's own refusal ("Invalid IPv6 URL"): a bad address, said in one line
            raise ClientError(f"{server!r} is not a server address (http://host:port): {e}") from None
    try:
        parts = urlsplit(text)
    except ValueError as e:
        raise ClientError(f"{text!r} is not a table's link: {e}") from None
    path = parts.path.rstrip("/").split("/")
    if len(path) < 2 or path[-2] != "t":
        raise ClientError(f"{text!r} is not a table's link: it should end in /t/CODE")
    seat: int | None = None
    token: str | None = None
    if parts.fragment:
        fragment = parse_qs(parts.fragment)
        token = fragment["token"][0] if fragment.get("token") else None
        with contextlib.suppress(ValueError, TypeError):
            seat = int((fragment.get("seat") or [""])[0])
    prefix = "/".join(path[:-2])
    try:
        base = _base(f"{parts.scheme}://{parts.netloc}{prefix}")
    except ValueError as e:
        raise ClientError(f"{text!r} is not a table's link: {e}") from None
    return TableAddress(base, _code(path[-1]), seat, token)


def _base(server: str) -> str:
    server = server.strip().rstrip("/")
    if "://" not in server:
        server = "http://" + server
    parts = urlsplit(server)
    if parts.scheme.lower() not in ("http", "https") or not parts.netloc:
        raise ClientError(f"{server!r} is not a server address (http://host:port)")
    try:
        port = parts.port  # urllib checks the port only when asked
    except ValueError:
        port = 0
    if port == 0 and parts.netloc.rpartition("]")[2].count(":") == 1:  # ":0", ":99999", ":x": a port given, and not one
        raise ClientError(f"{server!r} has no valid port (a port is a number from 1 to 65535)")
    return f"{parts.scheme.lower()}://{parts.netloc}{parts.path}"


def _request(method: str, url: str, body: dict[str, Any] | None = None, timeout: float = 10) -> dict[str, Any]:
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method, headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=timeout) as r:
            return dict(json.loads(r.read()))
    except urllib.error.HTTPError as e:
        try:
            said = json.loads(e.read()).get("error")
        except (ValueError, AttributeError):
            said = None
        raise ClientError(str(said) if said else f"the server answered {e.code} {e.reason}") from None
    except (urllib.error.URLError, OSError) as e:
        reason = getattr(e, "reason", e)
        if isinstance(reason, OSError) and reason.strerror:
            reason = reason.strerror  # "Connection refused", not "[Errno 111] Connection refused"
        raise ClientError(f"cannot reach {urlsplit(url).netloc}: {reason}") from None


def table_facts(where: TableAddress) -> dict[str, Any]:
    """The table's public facts (``GET /api/tables/CODE``): its seats, status and options."""
    return _request("GET", f"{where.base}/api/tables/{where.code}")


@dataclass(frozen=True)
class Seat:
    """A seat taken at a table: the token is what lets this client play it."""

    where: TableAddress
    seat: int
    token: str
    name: str


def take_seat(where: TableAddress, name: str, seat: int | None = None) -> Seat:
    """Ask for a free seat (``seat``, or the first free one) under ``name``, as the invite link's page does."""
    body: dict[str, Any] = {"name": name}
    if seat is not None:
        body["seat"] = seat
    got = _request("POST", f"{where.base}/api/tables/{where.code}/join", body)
    return Seat(where, int(got["seat"]), str(got["token"]), str(got["name"]))


def start_match(seat: Seat) -> None:
    """The host starts the match from the lobby."""
    _request("POST", f"{seat.where.base}/api/tables/{seat.where.code}/start", {"token": seat.token})


@dataclass
class TableState:
    """What this client knows of the table, from the messages so far."""

    seat: int | None = None
    view: View | None = None  # None in the lobby, where the first deal is not shown to anyone
    info: dict[str, Any] = field(default_factory=dict)
    n: int | None = None  # the last numbered event seen
    epoch: str | None = None
    chat: list[dict[str, Any]] = field(default_factory=list)
    last_event: dict[str, Any] | None = None
    errors: list[str] = field(default_factory=list)
    hint: str | None = None
    rematch: dict[str, Any] | None = None

    @property
    def in_lobby(self) -> bool:
        return self.info.get("status") == "lobby"

    @property
    def host(self) -> bool:
        return self.seat is not None and self.info.get("host_seat") == self.seat

    def name(self, seat: int) -> str:
        """A seat's name as the table shows it (a bot by its level)."""
        seats = self.info.get("seats") or []
        if seat >= len(seats):
            return f"Seat {seat + 1}"  # as the table's lobby numbers seats
        s = seats[seat]
        if s.get("kind") == "human":
            return str(s.get("name") or f"Seat {seat + 1}")
        if s.get("kind") == "open":
            return "(open)"
        return f"Bot ({s.get('level')})"

    def apply(self, message: dict[str, Any]) -> str:
        """Take in one message from the server; returns its type."""
        kind = str(message.get("type"))
        if kind == "welcome":
            self.seat = message.get("seat")
            if message.get("epoch") != self.epoch:  # the table was loaded afresh: its events count anew
                self.n = None
            self.epoch = message.get("epoch")
            self.chat = list(message.get("chat") or [])
        elif kind == "update":
            self.n, self.epoch = message.get("n"), message.get("epoch")
            self.info = dict(message.get("table") or {})
            if message.get("event") is not None:
                self.last_event = message["event"]
            self.view = None if self.in_lobby else View.from_dict(message["view"])
        elif kind == "catchup":
            events = message.get("events") or []
            if events:
                self.last_event = events[-1]
        elif kind == "chat":
            self.chat.append(message["message"])
        elif kind == "error":
            self.errors.append(str(message.get("message")))
        elif kind == "hint":
            self.hint = str(message.get("action"))
        elif kind == "rematch":
            self.rematch = message
        elif kind == "unseated" and message.get("seat") == self.seat:
            self.seat = None  # the host gave the seat back to the table: this connection watches
        return kind


class TableLink:
    """The WebSocket to one table, kept open: hello with the seat token, every message handed to
    ``on_message`` in order, and after a dropped connection a new one that catches up from the last
    numbered event (``last`` and ``epoch`` in the hello), until ``close()``."""

    def __init__(
        self,
        where: TableAddress,
        token: str | None,
        on_message: Callable[[dict[str, Any]], Awaitable[None] | None],
        state: TableState | None = None,
        bot: bool = False,
    ) -> None:
        """``bot``: this link is a program playing the seat, not a person (the hello says so)."""
        self.where = where
        self.token = token
        self.on_message = on_message
        self.state = state or TableState()
        self.bot = bot
        self.connected = asyncio.Event()
        self._ws: Any = None
        self._closed = False
        self.attempts = 0  # connections opened, the first one included

    async def run(self) -> None:
        """Connect, read, reconnect; returns once closed, or raises ``ClientError`` if the table is not there."""
        import websockets

        waits = iter(RETRY)
        wait = RETRY[0]
        pending_since: float | None = None  # when the table was first found held by a stopped server
        while not self._closed:
            close_code: int | None = None
            try:
                async with websockets.connect(self.where.ws_url, max_size=1 << 22, close_timeout=1) as ws:
                    self._ws = ws
                    self.attempts += 1
                    hello = {"type": "hello", "token": self.token, "last": self.state.n, "epoch": self.state.epoch}
                    if self.bot:
                        hello["bot"] = True
                    with contextlib.suppress(websockets.exceptions.ConnectionClosed):
                        await ws.send(json.dumps(hello))  # (refused at once: the reason is read below)
                    async for text in ws:
                        message, kind = self._read(text)
                        if kind == "welcome":
                            self.connected.set()
                            waits, wait, pending_since = iter(RETRY), RETRY[0], None
                        handled = self.on_message(message)
                        if handled is not None:
                            await handled
                    close_code = ws.close_code
            except websockets.exceptions.ConnectionClosed as e:
                close_code = e.rcvd.code if e.rcvd is not None else None
            except (OSError, TimeoutError, websockets.exceptions.WebSocketException):
                pass
            finally:
                self._ws = None
                self.connected.clear()
            if close_code == 4409:  # a finished match its stopped server had open: taken up once its lease ends
                pending_since = pending_since or time.monotonic()
                if time.monotonic() - pending_since > PENDING_WAIT:
                    why = f"table {self.where.code!r} is still held by a server that stopped; try again later"
                    raise ClientError(why)
            if close_code == 4404:  # no such table here
                raise ClientError(self.state.errors[-1] if self.state.errors else f"no table {self.where.code!r}")
            if close_code == 4403:
                raise ClientError("the server refused this connection (it takes a table's socket from its own pages)")
            if self._closed:
                break
            wait = next(waits, wait)
            await asyncio.sleep(wait)

    def _read(self, text: str | bytes) -> tuple[dict[str, Any], str]:
        """One message taken in; one this client cannot read (a newer server's) becomes an error
        message saying so, rather than the end of the connection."""
        try:
            message = json.loads(text)
            if not isinstance(message, dict):
                raise ValueError("not a JSON object")
            return message, self.state.apply(message)
        except (ValueError, KeyError, TypeError, IndexError) as e:
            said = f"a message from the server could not be read ({e}); is the server newer than this client?"
            error = {"type": "error", "message": said}
            return error, self.state.apply(error)

    async def send(self, message: dict[str, Any]) -> bool:
        """Send one message; False when the connection is down (the caller says so; nothing is queued,
        as a move made on an old view must not arrive later)."""
        ws = self._ws
        if ws is None or not self.connected.is_set():
            return False
        try:
            await ws.send(json.dumps(message))
        except Exception:
            return False
        return True

    async def close(self) -> None:
        self._closed = True
        ws = self._ws
        if ws is not None:
            with contextlib.suppress(Exception):
                await ws.close()


# A hand with nothing to claim or double answers after a pause like a short thought, as in the browser:
# an instant answer would tell the table what the hand lacks (web/static/js/table.js, CLAIM_PAUSE_MS).
ANSWER_PAUSE = (1.2, 3.5)
REFUSALS = 3  # moves of one decision the table may refuse before the seat's first legal move is sent instead


def decision_key(v: View) -> tuple[int, ...]:
    """Changes with every decision of the match as a seat sees it: a move is sent once per key."""
    return (v.kingdom, v.deal_number, int(v.phase), len(v.plays), len(v.doubling_answers), len(v.history))


async def play_with_bot(where: TableAddress, token: str, bot: Bot, say: Callable[[str], None] = print) -> TableState:
    """Play the seat ``token`` holds with ``bot`` until the match is over: its move whenever the seat
    is to act (from the seat's view alone), ready for each next deal; ``say`` gets one line per deal,
    one at the end, and what went wrong on the way. A move lost with the connection, or refused by the
    table, is decided again; a bot that fails or chooses an illegal move plays the first legal one.
    Raises ``ClientError`` if the table is gone, or no longer knows the seat (the host freed it)."""
    done = asyncio.Event()
    acted: tuple[int, ...] | None = None  # the decision whose move the table has
    ready_for: tuple[int, int] | None = None  # the deal whose end has been answered with "next"
    back_asked: int | None = None  # the update after which the seat was asked back from the stand-in
    told: set[tuple[int, int]] = set()  # the deals whose scores have been said
    refused: dict[tuple[int, ...], int] = {}
    failure: list[str] = []
    thinking: list[asyncio.Task[None]] = []  # the decision under way, if any (one at a time)
    state = TableState()

    async def decide(v: View) -> int:
        legal = list(v.legal_actions)
        if len(legal) == 1 and legal[0] in (A.NO_CLAIM, A.NO_DOUBLE):
            await asyncio.sleep(random.uniform(*ANSWER_PAUSE))  # an instant answer would tell what the hand lacks
            return legal[0]
        try:
            action = await asyncio.to_thread(bot.act, v, legal)
        except Exception as e:  # a bot being worked on must not stop the table
            say(f"the bot failed ({type(e).__name__}: {e}); it plays its first legal move")
            return legal[0]
        if action not in legal:
            say(f"the bot chose {A.to_str(action)}, which is not allowed here; it plays its first legal move")
            return legal[0]
        return int(action)

    async def consider() -> None:
        nonlocal acted, ready_for, back_asked
        v = state.view
        if v is None or done.is_set():
            return
        if v.match_over:
            say("match over: " + ", ".join(f"{state.name(s)} {v.totals[s]:+d}" for s in range(4)))
            done.set()
            return
        if v.phase == Phase.DEAL_OVER:
            deal = (v.kingdom, v.deal_number)
            if deal not in told:
                told.add(deal)
                scores = v.deal_scores or (0, 0, 0, 0)
                say(f"deal {len(v.history)} over: " + ", ".join(f"{state.name(s)} {scores[s]:+d}" for s in range(4)))
            if ready_for != deal and await link.send({"type": "next"}):
                ready_for = deal
            return
        seats = state.info.get("seats") or []
        if state.seat is not None and state.seat < len(seats) and seats[state.seat].get("away"):
            if back_asked != state.n:  # the table's stand-in took the seat (the move timer): take it back
                back_asked = state.n
                await link.send({"type": "back"})
            return
        key = decision_key(v)
        if not v.to_act or not v.legal_actions or key == acted or thinking:
            return
        if refused.get(key, 0) > REFUSALS:  # the first legal move refused too: something else is wrong
            failure.append(f"the table refuses every move of this seat ({state.errors[-1]})")
            done.set()
            return
        thinking.append(asyncio.create_task(think(v, key)))

    async def think(v: View, key: tuple[int, ...]) -> None:
        """Decide off the reading of messages, so that the table's updates go on being read; a move
        decided for a turn that has passed meanwhile (a stand-in played it) is dropped, not sent."""
        nonlocal acted
        try:
            action = v.legal_actions[0] if refused.get(key, 0) == REFUSALS else await decide(v)
            now = state.view
            # (n is None from a welcome of a table loaded afresh until its first update: the view is old)
            still = now is not None and now.to_act and decision_key(now) == key and state.n is not None
            still = still and not done.is_set()
            move = {"type": "act", "action": A.to_str(action), "after": state.n}
            if still and await link.send(move):
                acted = key
        finally:
            thinking.clear()
        await consider()

    async def on_message(message: dict[str, Any]) -> None:
        nonlocal acted, ready_for
        kind = message.get("type")
        if kind == "welcome":
            acted = ready_for = None  # what was sent on a lost connection may not have arrived
            if state.seat is None:
                failure.append("the table no longer knows this seat's token (the host freed it?)")
                done.set()
        elif kind == "unseated" and state.seat is None:
            failure.append("the host freed this seat")
            done.set()
        elif kind == "error":
            say(f"the table says: {message.get('message')}")
            if acted is not None:  # the move was refused: decide again on the view as it is now
                refused[acted] = refused.get(acted, 0) + 1
                acted = None
        if kind in ("update", "catchup", "error"):
            await consider()

    link = TableLink(where, token, on_message, state, bot=True)
    runner = asyncio.create_task(link.run())
    finished = asyncio.create_task(done.wait())
    try:
        await asyncio.wait({runner, finished}, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for task in thinking:
            task.cancel()
        await link.close()
        finished.cancel()
    if runner.done() and runner.exception() is not None:
        raise runner.exception()  # type: ignore[misc]
    await asyncio.wait_for(runner, 5)
    if failure:
        raise ClientError(failure[0])
    return state
