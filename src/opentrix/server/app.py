"""The ASGI app: JSON API for the lobby and history, one WebSocket per player, and the web client."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import ipaddress
import json
import logging
from collections import OrderedDict
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, HTMLResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.requests import ClientDisconnect

from ..errors import shown
from ..match import MAX_SEED, team_totals_of
from ..record import Record, RecordError
from ..rules import PRESETS, Rules, RulesError
from .guard import KnownHosts, RateLimiter, SameOriginWrites, SecurityHeaders, TokenBucket, read_body, same_origin
from .hub import Hub, NewTable, clean_chat, clean_name, table_levels
from .protocol import BadMessage, parse_action, parse_after, parse_message, parse_seat
from .protocol import error as error_message
from .replay import replay_frames
from .settings import Settings
from .storage import store_reason
from .table import Connection, TableError, stored_summary

log = logging.getLogger("opentrix.server")

STATIC = Path(__file__).resolve().parent.parent / "web" / "static"
BUSY = "too many requests from your address; wait a moment and try again"
REPLAYS_KEPT = 64  # finished matches' replays kept ready (a few MB at most)
MAX_OFFSET = 1 << 40  # the history's offset: far past any match, within every database's integers


def _bad(
    message: str, status: int = 400, code: str | None = None, params: dict[str, Any] | None = None
) -> JSONResponse:
    """An error answer: ``error`` for people, and for the refusals a page translates its ``code`` and
    the ``params`` of its text."""
    body: dict[str, Any] = {"error": message}
    if code is not None:
        body["code"], body["params"] = code, params or {}
    return JSONResponse(body, status_code=status)


def _loopback(conn: Request | WebSocket) -> bool:
    try:
        return ipaddress.ip_address(conn.client.host if conn.client else "").is_loopback
    except ValueError:
        return False


def _address(conn: Request | WebSocket) -> str:
    """Whom a limit counts against: the client's address, an IPv6 one by its /64 (one household or
    machine is handed a whole /64, and must not get 2**64 separate limits)."""
    host = conn.client.host if conn.client else ""
    try:
        ip = ipaddress.ip_address(host)
    except ValueError:
        return host or "unknown"
    if isinstance(ip, ipaddress.IPv6Address):
        if ip.ipv4_mapped is not None:  # ::ffff:a.b.c.d is the IPv4 client a.b.c.d
            return str(ip.ipv4_mapped)
        return str(ipaddress.ip_network(f"{ip}/64", strict=False))
    return str(ip)


def _json_bytes(value: Any) -> bytes:
    """As JSONResponse writes it; text that is no valid Unicode (a lone surrogate such as ``"\\ud800"``
    in an uploaded record's player name, which JSON can spell) is sent escaped, as it came."""
    text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
    try:
        return text.encode()
    except UnicodeEncodeError:
        return json.dumps(value, allow_nan=False, separators=(",", ":")).encode()


def _record_refused(e: RecordError) -> JSONResponse:
    """A record the viewer cannot show, said where the viewer counts: deals and plays from 1 (the
    referee's numbers count from 0), with a code and params for a page to say it in its language."""
    if e.deal is None:
        return _bad(str(e))
    deal = e.deal + 1
    if e.play is None:
        return _bad(f"deal {deal}: {e.message}", 400, "record_at_deal", {"deal": deal, "why": e.message})
    play = e.play + 1
    text = f"deal {deal}, play {play}: {e.message}"
    return _bad(text, 400, "record_at_play", {"deal": deal, "play": play, "why": e.message})


async def _json_body(request: Request, limit: int) -> dict[str, Any]:
    body = await read_body(request.stream(), request.headers, limit)
    try:
        data = json.loads(body or b"{}")
    except (ValueError, RecursionError):
        raise TableError("the request body is not JSON") from None
    if not isinstance(data, dict):
        raise TableError("the request body must be a JSON object")
    return data


def _opt_bool(data: dict[str, Any], key: str) -> bool | None:
    value = data.get(key)
    if value is None or isinstance(value, bool):
        return value
    raise TableError(f"{key!r} must be true or false")


def _opt_int(data: dict[str, Any], key: str, default: int | None) -> int | None:
    value = data.get(key, default)
    if value is None or (isinstance(value, int) and not isinstance(value, bool)):
        return value
    raise TableError(f"{key!r} must be a whole number")


def _seed(data: dict[str, Any]) -> int | None:
    seed = _opt_int(data, "seed", None)
    if seed is not None and not 0 <= seed <= MAX_SEED:
        raise TableError(f"'seed' must be a whole number from 0 to {MAX_SEED}")
    return seed


CREATE_KEYS = (
    "name",
    "rules",
    "doubling",
    "partnership",
    "complex",
    "kingdoms",
    "timer",
    "hints",
    "bots",
    "seat",
    "seed",
    "start",
)


def new_table_spec(data: dict[str, Any]) -> NewTable:
    """Read a create-table request: ``{"name", "rules", "doubling", "partnership", "complex", "kingdoms",
    "timer", "hints", "bots": [level per seat or for seats 1-3], "seat", "seed", "start"}``. Any other key is
    refused: a typo (``"kingdom": 1``) would otherwise make a full match without a word."""
    unknown = [k for k in data if k not in CREATE_KEYS]
    if unknown:
        raise TableError(f"unknown option {shown(unknown[0])} (the options: {', '.join(CREATE_KEYS)})")
    bots = data.get("bots", "medium")
    if isinstance(bots, str):
        bots = [bots]
    if not isinstance(bots, list) or not all(isinstance(b, str) for b in bots) or len(bots) not in (1, 3, 4):
        raise TableError('\'bots\' is one level, or a level per seat (e.g. ["hard", "medium", "easy"])')
    host = _opt_int(data, "seat", 0) or 0
    if not 0 <= host <= 3:  # before the levels are laid out round the host's seat
        raise TableError("the host's seat must be 0 to 3")
    if len(bots) == 1:
        levels = bots * 4
    elif len(bots) == 3:
        it = iter(bots)
        levels = [("medium" if s == host else next(it)) for s in range(4)]
    else:
        levels = list(bots)
    name = data.get("name", "Host")
    preset = data.get("rules", "classic")
    if not isinstance(name, str) or not isinstance(preset, str):
        raise TableError("'name' and 'rules' must be strings")
    return NewTable(
        name=name,
        preset=preset,
        doubling=_opt_bool(data, "doubling"),
        partnership=_opt_bool(data, "partnership"),
        complex=_opt_bool(data, "complex"),
        kingdoms=_opt_int(data, "kingdoms", None),
        timer=_opt_int(data, "timer", 0) or 0,
        hints=bool(_opt_bool(data, "hints")),
        bots=(levels[0], levels[1], levels[2], levels[3]),
        host_seat=host,
        seed=_seed(data),
        start=bool(_opt_bool(data, "start")),
    )


NOT_FOUND_PAGE = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Not found - opentrix</title><link rel="stylesheet" href="/static/css/app.css"></head>
<body><main style="max-width: 32em; margin: 4em auto; padding: 0 1em; text-align: center">
<h1>No such page</h1><p>This address is not a page of this opentrix server.</p>
<p><a href="/">Go to the front page</a> to play or to open a table by its code.</p></main></body></html>
"""


def _team_totals(rules: Any, totals: list[int]) -> list[int] | None:
    """A partnership match's two team totals (seats 0 and 2, 1 and 3), which decided it; else None."""
    try:
        partnership = Rules.from_json(rules).partnership
    except RulesError:  # a row written by a version whose options this one does not know
        return None
    return team_totals_of(totals) if partnership and len(totals) == 4 else None


def create_app(settings: Settings | None = None) -> FastAPI:
    settings = settings or Settings()
    hub = Hub(settings)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await hub.startup()
        yield
        await hub.shutdown()

    app = FastAPI(
        title="opentrix", lifespan=lifespan, docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json"
    )
    app.add_middleware(SameOriginWrites)  # inside SecurityHeaders: its refusals get the headers too
    app.add_middleware(SecurityHeaders)
    if settings.allowed_hosts is not None:  # outermost: a request for another name is answered by nothing else
        app.add_middleware(KnownHosts, allowed=settings.allowed_hosts)
    app.state.hub = hub
    creates = RateLimiter(settings.create_rate, settings.create_burst)
    sockets: dict[str, int] = {}  # open WebSockets per client address
    misses = RateLimiter(settings.miss_rate, settings.miss_burst)
    uploads = RateLimiter(settings.upload_rate, settings.upload_burst)
    # The replay of a finished match, as sent: a record never changes once finished, and replaying one
    # costs tens of milliseconds, so a page many people open (or one client asking again and again)
    # replays it once.
    replays: OrderedDict[str, bytes] = OrderedDict()

    async def find(code: str, address: str) -> Any:
        """The table with this code; a client that keeps asking for codes that do not exist is made to
        wait (codes are not to be guessed), even for one that does."""
        if not misses.ready(address):
            raise Busy
        table = await hub.find(code)
        if table is None and await hub.stored(hub.storage.status, code) is None:
            misses.take(address)  # a finished match put away, or one another server plays, exists
        return table

    @app.exception_handler(TableError)
    async def table_error(_request: Request, exc: TableError) -> JSONResponse:
        return _bad(str(exc), exc.status, exc.code, exc.params)

    @app.exception_handler(sa.exc.DBAPIError)
    async def store_down(request: Request, exc: sa.exc.DBAPIError) -> JSONResponse:
        """The store cannot be reached (restarting, the network): a clear answer to try again, not a
        plain 500; the tables being played go on in memory and are written once it is back."""
        log.warning("the table store failed at %s %s: %s", request.method, request.url.path, store_reason(exc))
        return _bad("the table store cannot be reached just now; try again in a moment", 503)

    @app.exception_handler(ClientDisconnect)
    async def gone(request: Request, _exc: ClientDisconnect) -> Response:
        """A client that hung up before its request's body was in: nobody to answer, nothing to log
        (a traceback per request would let anyone fill the log for the price of a dropped connection)."""
        log.debug("%s %s: the client hung up before its request was read", request.method, request.url.path)
        return Response(status_code=400)

    @app.exception_handler(Busy)
    async def busy(_request: Request, _exc: Busy) -> JSONResponse:
        return _bad(BUSY, 429)

    @app.exception_handler(RequestValidationError)
    async def bad_query(_request: Request, exc: RequestValidationError) -> JSONResponse:
        """A bad query parameter (``?limit=abc``) gets the API's own error shape, not FastAPI's."""
        problems = [f"{e['loc'][-1]!r} {e['msg'].lower()}" for e in exc.errors() if e.get("loc")]
        return _bad("; ".join(problems) or "bad request", 400)

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        """A person who mistypes an address gets a page that leads back, not a line of JSON."""
        if exc.status_code == 404 and not request.url.path.startswith(("/api/", "/static/")):
            return HTMLResponse(NOT_FOUND_PAGE, status_code=404)
        if request.url.path.startswith("/api/"):  # the API answers in its own error shape
            text = "no such API address" if exc.status_code == 404 else str(exc.detail).lower()
            return _bad(f"{text}: {request.method} {request.url.path}", exc.status_code)
        return await http_exception_handler(request, exc)

    # -- pages (the web client is one page; it reads the path) ------------------------------------

    index = STATIC / "index.html"

    # HEAD too, as uptime monitors and link checkers ask.
    @app.api_route("/", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/t/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/history", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/replay/{code}", methods=["GET", "HEAD"], include_in_schema=False)
    @app.api_route("/replay", methods=["GET", "HEAD"], include_in_schema=False)
    async def page(code: str | None = None) -> FileResponse:
        return FileResponse(index, headers={"Cache-Control": "no-cache"})

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    # -- JSON API -----------------------------------------------------------------------------------

    @app.api_route("/api/health", methods=["GET", "HEAD"])
    async def health() -> dict[str, Any]:
        return {"ok": True, "tables": len(hub.tables)}

    app.state.invite = None  # set by ``opentrix serve`` once it listens: {"base": URL, "always": bool}

    @app.get("/api/options")
    async def options(request: Request) -> dict[str, Any]:
        """The presets, the bot levels and the stand-ins' level (``stand_in``: the bot that plays for an
        away player), and the address invite links should name, where the server knows a better one
        than the page's own (a page opened on 127.0.0.1 would invite nobody). A network address the
        server found itself is told to this machine's own browser only."""
        invite = app.state.invite
        if invite is not None and not invite["always"] and not _loopback(request):
            invite = None
        stand_in = settings.substitute_level
        return {"presets": list(PRESETS), "levels": table_levels(), "stand_in": stand_in, "invite": invite}

    @app.post("/api/tables")
    async def create_table(request: Request) -> dict[str, Any]:
        spec = new_table_spec(await _json_body(request, settings.max_body))
        if not creates.take(_address(request)):
            raise Busy
        table, token = await hub.create(spec)
        return {"id": table.id, "seat": spec.host_seat, "token": token, "url": f"/t/{table.id}"}

    @app.get("/api/tables/{code}")
    async def table_info(code: str, request: Request) -> Response:
        table = await find(code, _address(request))
        if table is not None:
            return JSONResponse(await table.call(_async(table.summary)))
        row = await hub.stored(hub.storage.load_table, code)
        if row is None:
            return _bad(f"no table {code!r}", 404, "no_table", {"code": code})
        summary = await asyncio.to_thread(stored_summary, row)
        if row.status == "finished" and await hub.pending(code):
            summary["pending"] = True  # taken up in a moment, with its rematch (``Hub.pending``): to wait for
        return JSONResponse(summary)

    @app.post("/api/tables/{code}/join")
    async def join(code: str, request: Request) -> Response:
        table = await find(code, _address(request))
        if table is None:
            return _bad(*await hub.missing(code))
        data = await _json_body(request, settings.max_body)
        name = data.get("name")
        if not isinstance(name, str):
            raise TableError("give your name", "name_missing")
        try:
            seat_wanted = parse_seat(data.get("seat"))
        except BadMessage as e:
            raise TableError(str(e)) from None

        async def seat_me() -> tuple[int, str, str]:  # the name as seated: "Omar (2)" when an Omar sits there
            seat, token = await table.join(clean_name(name), seat_wanted)
            return seat, token, table.seats[seat].name

        seat, token, seated = await table.call(seat_me)
        return JSONResponse({"id": table.id, "seat": seat, "token": token, "name": seated})

    @app.post("/api/tables/{code}/start")
    async def start(code: str, request: Request) -> Response:
        table = await find(code, _address(request))
        if table is None:
            return _bad(*await hub.missing(code))
        token = (await _json_body(request, settings.max_body)).get("token")
        await table.call(lambda: table.begin(token if isinstance(token, str) else None))
        return JSONResponse({"ok": True})

    @app.post("/api/tables/{code}/free")
    async def free(code: str, request: Request) -> Response:
        """The host frees a seat taken in the lobby (``seat``, 0-3; ``name``, who he saw there): it is
        open again."""
        table = await find(code, _address(request))
        if table is None:
            return _bad(*await hub.missing(code))
        data = await _json_body(request, settings.max_body)
        token = data.get("token")
        try:
            seat = parse_seat(data.get("seat"))
        except BadMessage as e:
            raise TableError(str(e)) from None
        if seat is None:
            raise TableError("say which seat to free (0-3)")
        name = data.get("name")  # who the page showed there: a seat retaken meanwhile is not freed
        await table.call(
            lambda: table.free_seat(
                token if isinstance(token, str) else None, seat, name if isinstance(name, str) else None
            )
        )
        return JSONResponse({"ok": True})

    @app.get("/api/history")
    async def history(limit: int = 50, offset: int = 0) -> dict[str, Any]:
        limit = max(1, min(limit, 200))
        offset = min(max(0, offset), MAX_OFFSET)  # past every match there is: none, not a database error
        rows = await hub.store.run(hub.storage.list_finished, limit, offset)
        return {
            "matches": [
                {
                    "id": r.id,
                    "rules": r.rules,
                    "players": r.players,
                    "totals": r.totals,
                    "winners": r.winners,
                    "team_totals": _team_totals(r.rules, r.totals),
                    "finished_at": r.finished_at.isoformat(),
                }
                for r in rows
            ]
        }

    @app.get("/api/tables/{code}/record")
    async def record(code: str) -> Response:
        text = await hub.stored(hub.storage.get_record, code)
        if text is None:
            return _bad(f"no finished match at table {code!r}", 404)
        return Response(
            text,
            media_type="application/json",
            headers={"Content-Disposition": f'attachment; filename="opentrix-{code.upper()}.json"'},
        )

    @app.get("/api/tables/{code}/replay")
    async def replay(code: str) -> Response:
        key = code.upper()
        frames = replays.get(key)
        if frames is None:
            text = await hub.stored(hub.storage.get_record, code)
            if text is None:
                return _bad(f"no finished match at table {code!r}", 404)
            frames = await asyncio.to_thread(lambda: _json_bytes(replay_frames(Record.loads(text))))
            replays[key] = frames
            while len(replays) > REPLAYS_KEPT:
                replays.popitem(last=False)
        replays.move_to_end(key)
        return Response(frames, media_type="application/json")

    @app.post("/api/replay")
    async def replay_upload(request: Request) -> Response:
        if not uploads.take(_address(request)):
            raise Busy
        body = await read_body(request.stream(), request.headers, settings.max_record, "record")
        try:
            frames = await asyncio.to_thread(lambda: _json_bytes(replay_frames(Record.loads(body))))
        except RecordError as e:
            return _record_refused(e)
        return Response(frames, media_type="application/json")

    # -- play ---------------------------------------------------------------------------------------

    @app.websocket("/ws/{code}")
    async def play(ws: WebSocket, code: str) -> None:
        if not same_origin(ws.headers):  # another site's page, opened in a player's browser
            await ws.close(code=4403)  # before accepting: the handshake is refused (HTTP 403)
            return
        await ws.accept()
        address = _address(ws)
        if settings.sockets_per_address and sockets.get(address, 0) >= settings.sockets_per_address:
            await ws.send_text(error_message(BUSY))  # one address must not hold every connection
            await ws.close(code=4429)
            return
        sockets[address] = sockets.get(address, 0) + 1
        try:
            await table_socket(ws, code, address)
        finally:
            left = sockets.pop(address) - 1
            if left:
                sockets[address] = left

    async def table_socket(ws: WebSocket, code: str, address: str) -> None:
        try:
            table = await find(code, address)
        except Busy:
            await ws.send_text(error_message(BUSY))
            await ws.close(code=4429)
            return
        if table is None:
            if await hub.pending(code):  # its stopped server's lease runs out soon: the client tries again
                await ws.close(code=4409)
                return
            why, _, why_code, params = await hub.missing(code)
            await ws.send_text(error_message(why, why_code, params))
            await ws.close(code=4404)  # the page then shows the stored match, if there is one
            return
        conn = Connection(ws.send_text, ws.close)
        writer = asyncio.create_task(conn.pump())
        attached = False
        flood = TokenBucket(settings.message_rate, settings.message_burst) if settings.message_rate > 0 else None
        loop = asyncio.get_running_loop()
        hello_by = loop.time() + settings.hello_timeout  # one deadline: pings do not put it off
        try:
            while True:
                if attached:
                    received = await ws.receive()
                else:  # a socket that never says hello is not kept open for ever
                    try:
                        received = await asyncio.wait_for(ws.receive(), max(0.0, hello_by - loop.time()))
                    except TimeoutError:
                        conn.send(error_message(f"say hello within {settings.hello_timeout:g} seconds"))
                        break
                if received["type"] == "websocket.disconnect":
                    break
                # Paced, not dropped: a move is never lost, and a flood is read no faster than the limit
                # (the rest waits in the socket, not in the table's queue). A loop, since the event loop
                # may wake a sleeper a hair early.
                while flood is not None and not flood.take():
                    await asyncio.sleep(flood.wait())
                try:
                    text = received.get("text")
                    if not isinstance(text, str):  # a binary frame (receive_text() raised KeyError on one)
                        raise BadMessage("malformed message: send JSON as a text message, not binary")
                    msg = parse_message(text, settings.max_message)
                    if msg.type == "ping":
                        conn.send('{"type":"pong"}')
                    elif msg.type == "hello":
                        if attached:
                            raise BadMessage("already said hello")
                        token = msg.data.get("token")
                        last = msg.data.get("last")
                        epoch = msg.data.get("epoch")
                        for key, value, kind in (("token", token, "the seat token"), ("epoch", epoch, "text")):
                            if value is not None and not isinstance(value, str):
                                raise BadMessage(f"{key!r} must be {kind} or null, not {shown(value)}")
                        if last is not None and (not isinstance(last, int) or isinstance(last, bool)):
                            raise BadMessage(f"'last' must be an event number or null, not {shown(last)}")
                        automated = msg.data.get("bot", False)
                        if not isinstance(automated, bool):
                            raise BadMessage(f"'bot' must be true or false, not {shown(automated)}")
                        conn.automated = automated
                        hello = functools.partial(  # the token is read by the table's own task, in turn
                            table.attach,
                            conn,
                            token,
                            last,
                            epoch,
                        )
                        await table.call(hello)
                        attached = True
                    elif not attached:
                        raise BadMessage("say hello first")
                    elif msg.type == "act":
                        action = parse_action(msg.data.get("action"))
                        claimed = parse_seat(msg.data.get("seat"))
                        after = parse_after(msg.data.get("after"))
                        if conn.seat is None:  # answered here, not queued behind the players' moves
                            raise BadMessage("spectators cannot play: take a seat first")
                        table.post(functools.partial(table.act, conn, action, claimed, after))
                    elif msg.type == "next":
                        table.post(lambda: table.next_deal(conn))
                    elif msg.type == "back":
                        table.post(lambda: table.take_back(conn))
                    elif msg.type == "chat":
                        if conn.seat is None:  # answered here, as a spectator's move is
                            raise BadMessage("spectators cannot chat: take a seat first")
                        said = clean_chat(msg.data.get("text"))
                        table.post(functools.partial(table.chat, conn, said))
                    elif msg.type == "hint":
                        table.post(lambda: table.hint(conn))
                    elif msg.type == "rematch":
                        await hub.rematch(table, conn.seat)
                except BadMessage as e:
                    conn.send(error_message(str(e)))
                except TableError as e:  # the table was put away under this connection: say so, let go
                    conn.send(error_message(str(e), e.code, e.params))
                    break
        except (WebSocketDisconnect, RuntimeError):
            pass
        finally:
            if attached:
                table.post(lambda: table.detach(conn))
            conn.stop()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(writer, 1)

    return app


class Busy(Exception):
    """A client over one of its limits: answered 429 (or close code 4429 on a WebSocket)."""


def _async(fn: Any) -> Any:
    async def job() -> Any:
        return fn()

    return job
