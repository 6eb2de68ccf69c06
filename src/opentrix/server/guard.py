"""Limits that keep one client from wearing a server down: body sizes, request and message rates, the
origin of a WebSocket, and the headers every page is served with.

A table for friends is reachable by anyone who knows the address, so the server must not read a
gigabyte because a client announced one, create tables as fast as a script can ask, look up guessed
table codes without end, or queue every message a flooding socket sends.
"""

from __future__ import annotations

import ipaddress
import json
import re
from collections.abc import Awaitable, Callable, MutableMapping
from typing import Any
from urllib.parse import urlsplit

from .bucket import TokenBucket
from .table import TableError

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]
ASGIApp = Callable[[Scope, Receive, Send], Awaitable[None]]


class RateLimiter:
    """A token bucket per client address; ``rate`` 0 turns the limit off. Buckets that have filled
    up again are forgotten, so a crowd of addresses costs memory only while it is busy."""

    def __init__(self, rate: float, burst: float, max_keys: int = 100_000) -> None:
        self.rate = rate
        self.burst = burst
        self.max_keys = max_keys
        self.buckets: dict[str, TokenBucket] = {}

    def _bucket(self, key: str) -> TokenBucket:
        bucket = self.buckets.get(key)
        if bucket is None:
            if len(self.buckets) >= self.max_keys:
                self._forget_full()
            bucket = self.buckets[key] = TokenBucket(self.rate, self.burst)
        return bucket

    def _forget_full(self) -> None:
        for key, b in list(self.buckets.items()):
            if b.full():
                del self.buckets[key]
        if len(self.buckets) >= self.max_keys:  # all busy: forgetting the oldest is the fair choice left
            for key in list(self.buckets)[: len(self.buckets) // 2]:
                del self.buckets[key]

    def ready(self, key: str) -> bool:
        return self.rate <= 0 or self._bucket(key).ready()

    def take(self, key: str) -> bool:
        return self.rate <= 0 or self._bucket(key).take()


class TooLarge(TableError):
    """A request body past the limit: HTTP 413, so a client can tell it from a malformed one."""

    status = 413


async def read_body(receive_stream: Any, headers: Any, limit: int, what: str = "request") -> bytes:
    """The body of a request, refused as soon as it is known to pass ``limit`` bytes: by its declared
    length before a byte is read, else while it streams in (never read whole and measured after)."""
    declared = headers.get("content-length")
    if declared is not None:
        if not declared.isdigit():
            raise TableError("the request's Content-Length is not a number")
        if int(declared) > limit:
            raise TooLarge(f"{what} too large: at most {limit:,} bytes")
    chunks: list[bytes] = []
    size = 0
    async for chunk in receive_stream:
        size += len(chunk)
        if size > limit:
            raise TooLarge(f"{what} too large: at most {limit:,} bytes")
        chunks.append(chunk)
    return b"".join(chunks)


def same_origin(headers: Any) -> bool:
    """A browser names the page that opens a WebSocket in ``Origin``: a table's socket may only be
    opened by this server's own pages (another site must not play or watch through a visitor's
    browser). Clients that are not browsers send no ``Origin`` and are let in."""
    origin = headers.get("origin")
    if not origin:
        return True
    host = str(headers.get("host") or "").lower()
    page = urlsplit(str(origin))
    if page.netloc.lower() == host:
        return True
    # The same place said two ways: a proxy may name the port that the scheme implies (x.org:443
    # for https://x.org), which a browser's Origin leaves out, or the other way round.
    default = {"http": 80, "https": 443}.get(page.scheme)
    try:
        named = urlsplit(f"//{host}")
        return (
            default is not None
            and page.hostname is not None
            and page.hostname == named.hostname
            and (page.port or default) == (named.port or default)
        )
    except ValueError:  # a port that is not a number
        return False


# Pages may load only this server's scripts and styles, open sockets only back to it, and not be
# framed by another site (a framed table could have its clicks stolen). The API's documentation page
# loads its viewer from a CDN, so it goes without.
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
    "connect-src 'self'{sockets}; frame-ancestors 'none'; base-uri 'none'; form-action 'self'"
)
_HOST = re.compile(r"[A-Za-z0-9.\-]+(:[0-9]{1,5})?")  # a name or IPv4 (browsers refuse [::1] in a CSP)


def csp(host: str) -> str:
    """The policy for a page served as ``host``: its sockets may go back to that host only. ('self'
    covers them in browsers of CSP level 3; older ones, Safari before 15.4 among them, need the
    ws:// and wss:// addresses named.) A Host header that is no plain host name or IPv4 address names
    none: Chromium refuses an IPv6 address there, and 'self' covers it."""
    sockets = f" ws://{host} wss://{host}" if _HOST.fullmatch(host) else ""
    return CSP.format(sockets=sockets)


HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"x-frame-options", b"DENY"),
]


class SecurityHeaders:
    """ASGI middleware adding the headers above to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with_csp = not str(scope.get("path", "")).startswith("/api/docs")
        host = next((v.decode("latin-1") for k, v in scope.get("headers", []) if k == b"host"), "")

        async def send_with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = list(message.get("headers", []))
                headers += HEADERS
                if with_csp:
                    headers.append((b"content-security-policy", csp(host).encode("latin-1")))
                message["headers"] = headers
            await send(message)

        await self.app(scope, receive, send_with_headers)


CROSS_SITE = b'{"error":"refused: this request comes from another site\'s page"}'
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})


class SameOriginWrites:
    """ASGI middleware refusing a request that changes something (``POST``) from another site's page.

    Tokens live in the page's local storage, not in cookies, so another site cannot act for a player;
    but without this check any page a visitor opens could make his browser create tables or fill
    open seats at a server he can reach, ``opentrix play`` on his own machine included (a form post
    needs no CORS preflight). Browsers name the page in ``Origin``; scripts and curl send none and
    pass, as for the WebSockets (``same_origin``)."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http" and scope.get("method", "GET") not in SAFE_METHODS:
            headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope.get("headers", [])}
            if not same_origin(headers):
                await send(
                    {
                        "type": "http.response.start",
                        "status": 403,
                        "headers": [
                            (b"content-type", b"application/json"),
                            (b"content-length", str(len(CROSS_SITE)).encode()),
                        ],
                    }
                )
                await send({"type": "http.response.body", "body": CROSS_SITE})
                return
        await self.app(scope, receive, send)


def host_name(host: str) -> str:
    """A Host header's name, without its port or an IPv6 address's brackets, in lower case."""
    host = host.strip().lower()
    if host.startswith("["):
        return host[1 : host.find("]")] if "]" in host else host[1:]
    return host.rsplit(":", 1)[0] if host.count(":") == 1 else host


def known_host(host: str, allowed: tuple[str, ...]) -> bool:
    """Whether a request for ``host`` is one for this server: by address, as localhost, or by a name
    it was given."""
    name = host_name(host)
    if name == "localhost" or name in allowed:
        return True
    try:
        ipaddress.ip_address(name)
    except ValueError:
        return False
    return True


class KnownHosts:
    """ASGI middleware answering only requests (and WebSockets) for this server's own names: see
    ``Settings.allowed_hosts``. A request without a Host header (HTTP/1.0) passes."""

    def __init__(self, app: ASGIApp, allowed: tuple[str, ...]) -> None:
        self.app = app
        self.allowed = tuple(a.lower() for a in allowed)

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            hosts = [v.decode("latin-1") for k, v in scope.get("headers", []) if k.lower() == b"host"]
            host = next((h for h in hosts if not known_host(h, self.allowed)), None)
            if host is not None:
                if scope["type"] == "websocket":
                    await send({"type": "websocket.close", "code": 4403})  # before accepting: HTTP 403
                    return
                body = json.dumps(
                    {"error": f"this server does not answer to the name {host_name(host)!r}; use its address"}
                ).encode()
                headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
                await send({"type": "http.response.start", "status": 421, "headers": headers})
                await send({"type": "http.response.body", "body": body})
                return
        await self.app(scope, receive, send)


__all__ = [
    "KnownHosts",
    "RateLimiter",
    "SameOriginWrites",
    "SecurityHeaders",
    "TokenBucket",
    "known_host",
    "read_body",
    "same_origin",
]
