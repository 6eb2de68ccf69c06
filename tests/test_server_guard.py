"""The server's limits against a client that would wear it down: body sizes, request and message rates,
sockets that never say hello, other sites' pages, and the headers pages are served with."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from types import SimpleNamespace
from typing import Any

import httpx
import pytest
import websockets

import opentrix
from opentrix.server.app import _address
from opentrix.server.guard import RateLimiter, TokenBucket, known_host, same_origin
from test_server_kit import LiveServer, Player, ServeProcess, free_port, live_server


@pytest.fixture
def server(tmp_path: Path) -> Iterator[LiveServer]:
    limits = {"create_rate": 0.01, "create_burst": 3, "miss_rate": 0.01, "miss_burst": 3}
    limits |= {"upload_rate": 0.01, "upload_burst": 3}
    with live_server(tmp_path, message_rate=20.0, message_burst=10, hello_timeout=0.5, **limits) as s:
        yield s


def test_a_body_too_large_is_refused_before_it_is_read(server: LiveServer) -> None:
    # declared too large: refused on the Content-Length alone
    r = httpx.post(f"{server.base}/api/tables", content=b"{" + b" " * 100_000 + b"}", timeout=10)
    assert r.status_code == 413 and r.json() == {"error": "request too large: at most 64,000 bytes"}

    # sent without a length (chunked): refused as it streams in, past the limit
    def chunks() -> Iterator[bytes]:
        for _ in range(300):
            yield b" " * 10_000

    r = httpx.post(f"{server.base}/api/replay", content=chunks(), timeout=10)
    assert r.status_code == 413 and r.json() == {"error": "record too large: at most 2,000,000 bytes"}
    assert httpx.get(f"{server.base}/api/health", timeout=10).json()["ok"]


def test_tables_created_from_one_address_are_limited(server: LiveServer) -> None:
    made = [httpx.post(f"{server.base}/api/tables", json={"name": "A"}, timeout=10) for _ in range(4)]
    assert [r.status_code for r in made] == [200, 200, 200, 429]
    assert made[-1].json()["error"].startswith("too many requests from your address")
    # a request that is not even read as one is a 400 as ever
    assert httpx.post(f"{server.base}/api/tables", content=b"{nope", timeout=10).status_code == 400


def test_records_uploaded_for_replay_from_one_address_are_limited(server: LiveServer) -> None:
    """Each upload replays a whole match: a client posting records without end is slowed down."""
    record = (Path(opentrix.__file__).parent / "examples" / "classic-full-match.json").read_bytes()
    sent = [httpx.post(f"{server.base}/api/replay", content=record, timeout=10) for _ in range(4)]
    assert [r.status_code for r in sent] == [200, 200, 200, 429]
    assert sent[0].json()["deals"] and sent[-1].json()["error"].startswith("too many requests from your address")


def test_a_history_page_far_past_the_end_is_empty_not_an_error(server: LiveServer) -> None:
    for offset in (10**6, 2**63, 10**30):
        r = httpx.get(f"{server.base}/api/history", params={"offset": offset}, timeout=10)
        assert r.status_code == 200 and r.json() == {"matches": []}, r.text


async def test_guessing_table_codes_is_slowed_down(server: LiveServer) -> None:
    real = server.create(name="A")
    for code in ("AAAAAA", "BBBBBB", "CCCCCC"):
        assert httpx.get(f"{server.base}/api/tables/{code}", timeout=10).status_code == 404
    # past the misses allowed, every lookup waits, a real code's too, and so does a socket
    assert httpx.get(f"{server.base}/api/tables/DDDDDD", timeout=10).status_code == 429
    assert httpx.get(f"{server.base}/api/tables/{real['id']}", timeout=10).status_code == 429
    r = httpx.post(f"{server.base}/api/tables/{real['id']}/join", json={"name": "B"}, timeout=10)
    assert r.status_code == 429
    async with websockets.connect(f"{server.ws_base}/ws/{real['id']}") as ws:
        assert "too many requests" in json.loads(await ws.recv())["message"]
        with pytest.raises(websockets.ConnectionClosed) as closed:
            await ws.recv()
    assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429


async def test_a_flood_of_messages_is_paced_and_nothing_is_lost(server: LiveServer) -> None:
    t = server.create(name="A")
    me = await Player.join(server.ws_base, t["id"], t["token"])
    started = time.monotonic()
    for _ in range(40):
        await me.send({"type": "ping"})
    for _ in range(40):
        await me.until(lambda m: m["type"] == "pong")
    # 10 at once, then 20 a second: the other 30 take at least a second and a half
    assert time.monotonic() - started >= 1.3
    await me.close()


async def test_a_socket_that_never_says_hello_is_closed(server: LiveServer) -> None:
    t = server.create(name="A")
    async with websockets.connect(f"{server.ws_base}/ws/{t['id']}") as ws:
        message = json.loads(await asyncio.wait_for(ws.recv(), 5))
        assert message == {"type": "error", "message": "say hello within 0.5 seconds"}
        with pytest.raises(websockets.ConnectionClosed):
            await asyncio.wait_for(ws.recv(), 5)


async def test_another_sites_page_cannot_open_a_tables_socket(server: LiveServer) -> None:
    t = server.create(name="A")
    url = f"{server.ws_base}/ws/{t['id']}"
    with pytest.raises(websockets.InvalidStatus) as refused:
        await websockets.connect(url, origin=websockets.Origin("http://evil.example"))
    assert refused.value.response.status_code == 403
    own = server.base.removesuffix("/")
    async with websockets.connect(url, origin=websockets.Origin(own)) as ws:  # the server's own page
        await ws.send(json.dumps({"type": "hello", "token": t["token"]}))
        assert json.loads(await ws.recv())["type"] == "welcome"


def test_another_sites_page_cannot_create_tables_or_take_seats(server: LiveServer) -> None:
    """A form on another site posts without a CORS preflight; the browser names that site in Origin, and
    every request that changes something is refused (nothing is made). The server's own pages, and
    clients that are not browsers (no Origin), go on as before."""
    before = len(server.app.state.hub.tables)
    evil = {"origin": "https://evil.example", "content-type": "text/plain"}
    r = httpx.post(f"{server.base}/api/tables", content='{"name": "X"}', headers=evil, timeout=10)
    assert r.status_code == 403 and r.json() == {"error": "refused: this request comes from another site's page"}
    assert r.headers["x-content-type-options"] == "nosniff"  # refused inside the security headers
    assert len(server.app.state.hub.tables) == before
    t = server.create(name="A")
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "B"}, headers=evil, timeout=10)
    assert r.status_code == 403 and all(s["kind"] != "human" or s["name"] == "A" for s in server.info(t["id"])["seats"])
    r = httpx.post(f"{server.base}/api/replay", content=b"{}", headers={"origin": "null"}, timeout=10)
    assert r.status_code == 403  # a sandboxed page or a file: says null
    own = {"origin": server.base}
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "B"}, headers=own, timeout=10)
    assert r.status_code == 200, r.text
    assert (
        httpx.get(f"{server.base}/api/tables/{t['id']}", headers=evil, timeout=10).status_code == 200
    )  # reading is open


def test_pages_come_with_security_headers(server: LiveServer) -> None:
    page = httpx.get(f"{server.base}/", timeout=10)
    csp = page.headers["content-security-policy"]
    assert "frame-ancestors 'none'" in csp and "script-src 'self'" in csp
    host = server.base.split("//", 1)[1].rstrip("/")  # sockets back to this server only, not to any host
    assert f"connect-src 'self' ws://{host} wss://{host};" in csp and " ws: " not in csp
    forged = httpx.get(f"{server.base}/", headers={"host": "x; script-src *"}, timeout=10)
    assert "connect-src 'self';" in forged.headers["content-security-policy"]  # no policy from a header
    assert page.headers["x-frame-options"] == "DENY" and page.headers["x-content-type-options"] == "nosniff"
    assert page.headers["referrer-policy"] == "no-referrer"
    api = httpx.get(f"{server.base}/api/health", timeout=10)
    assert api.headers["x-content-type-options"] == "nosniff"
    docs = httpx.get(f"{server.base}/api/docs", timeout=10)  # its viewer comes from a CDN
    assert docs.status_code == 200 and "content-security-policy" not in docs.headers


def test_the_limiters_themselves() -> None:
    bucket = TokenBucket(rate=1000.0, burst=2)
    assert bucket.take() and bucket.take() and not bucket.take()
    assert 0 < bucket.wait() <= 0.001
    time.sleep(0.003)
    assert bucket.take()
    limits = RateLimiter(rate=0.001, burst=1, max_keys=4)
    assert all(limits.take(f"10.0.0.{i}") for i in range(10))  # a crowd of addresses: old ones forgotten
    assert len(limits.buckets) <= 4
    assert limits.take("10.0.0.200") and not limits.take("10.0.0.200")
    assert RateLimiter(rate=0.0, burst=0).take("anyone")  # 0: no limit
    assert same_origin({"origin": "http://example.org:8000", "host": "example.org:8000"})
    assert not same_origin({"origin": "https://evil.example", "host": "example.org"})
    assert same_origin({"host": "example.org"})  # not a browser: no Origin
    # the port a scheme implies may be named by a proxy, or left out by the browser
    assert same_origin({"origin": "https://x.org", "host": "x.org:443"})
    assert same_origin({"origin": "http://x.org:80", "host": "x.org"})
    assert same_origin({"origin": "http://[::1]:8000", "host": "[::1]:8000"})
    assert not same_origin({"origin": "https://x.org", "host": "x.org:80"})
    assert not same_origin({"origin": "http://x.org", "host": "x.org:8000"})
    assert not same_origin({"origin": "https://x.org", "host": "x.org:99999x"})
    assert not same_origin({"origin": "null", "host": "x.org"})


async def test_pinging_does_not_put_off_the_hello(server: LiveServer) -> None:
    """The deadline is set once, at the handshake: a socket that pings and never says hello is closed."""
    t = server.create(name="A")
    started = time.monotonic()
    async with websockets.connect(f"{server.ws_base}/ws/{t['id']}") as ws:
        with pytest.raises(websockets.ConnectionClosed):
            while True:
                await ws.send(json.dumps({"type": "ping"}))
                await asyncio.wait_for(ws.recv(), 5)
                await asyncio.sleep(0.1)
    assert time.monotonic() - started < 3


async def test_one_address_holds_a_bounded_number_of_sockets(tmp_path: Path) -> None:
    with live_server(tmp_path, sockets_per_address=3) as server:
        t = server.create(name="A")
        held = [await Player.join(server.ws_base, t["id"]) for _ in range(3)]
        async with websockets.connect(f"{server.ws_base}/ws/{t['id']}") as ws:
            assert "too many requests" in json.loads(await ws.recv())["message"]
            with pytest.raises(websockets.ConnectionClosed) as closed:
                await ws.recv()
        assert closed.value.rcvd is not None and closed.value.rcvd.code == 4429
        await held[0].close()
        await asyncio.sleep(0.3)
        again = await Player.join(server.ws_base, t["id"])  # a socket closed frees its place
        for p in [*held[1:], again]:
            await p.close()


def test_limits_count_an_ipv6_household_once() -> None:
    def client(host: str | None) -> Any:
        return SimpleNamespace(client=SimpleNamespace(host=host) if host is not None else None)

    assert _address(client("2001:db8:1:2:aaaa::1")) == _address(client("2001:db8:1:2:bbbb::9")) == "2001:db8:1:2::/64"
    assert _address(client("2001:db8:1:3::1")) != _address(client("2001:db8:1:2::1"))
    assert _address(client("::ffff:192.0.2.7")) == _address(client("192.0.2.7")) == "192.0.2.7"
    assert _address(client("testclient")) == "testclient" and _address(client(None)) == "unknown"


async def test_opentrix_plays_server_answers_only_to_its_addresses(tmp_path: Path) -> None:
    """DNS rebinding: a page of another site whose name is made to point at 127.0.0.1 would be the local
    server's own origin, so ``opentrix play``'s server (``allowed_hosts=()``) answers only requests
    for an address or localhost; a server given names answers to those too; by default, to any."""
    with live_server(tmp_path, allowed_hosts=()) as server:
        port = server.base.rsplit(":", 1)[1]
        for host in (f"127.0.0.1:{port}", f"localhost:{port}", f"[::1]:{port}", "192.168.1.20:8000", "LOCALHOST"):
            assert httpx.get(f"{server.base}/api/health", headers={"host": host}, timeout=10).status_code == 200, host
        r = httpx.get(f"{server.base}/api/history", headers={"host": f"rebind.evil.example:{port}"}, timeout=10)
        assert r.status_code == 421
        assert r.json() == {"error": "this server does not answer to the name 'rebind.evil.example'; use its address"}
        t = server.create(name="A")
        upgrade = {"connection": "Upgrade", "upgrade": "websocket", "sec-websocket-version": "13"}
        upgrade["sec-websocket-key"] = "dGhlIHNhbXBsZSBub25jZQ=="
        for host, status in ((f"rebind.evil.example:{port}", 403), (f"127.0.0.1:{port}", 101)):
            handshake = httpx.get(f"{server.base}/ws/{t['id']}", headers={**upgrade, "host": host}, timeout=10)
            assert handshake.status_code == status, host
        me = await Player.join(server.ws_base, t["id"], t["token"])  # by address: as ever
        await me.close()
    (tmp_path / "named").mkdir()
    (tmp_path / "any").mkdir()
    with live_server(tmp_path / "named", allowed_hosts=("trix.example.org",)) as server:
        assert httpx.get(f"{server.base}/api/health", headers={"host": "Trix.Example.org"}, timeout=10).is_success
        assert httpx.get(f"{server.base}/api/health", headers={"host": "other.example"}, timeout=10).status_code == 421
    with live_server(tmp_path / "any") as server:
        assert httpx.get(f"{server.base}/api/health", headers={"host": "other.example"}, timeout=10).is_success


def test_known_host_names() -> None:
    assert known_host("127.0.0.1:8000", ()) and known_host("[::1]:8000", ()) and known_host("localhost", ())
    assert known_host("10.0.0.7", ()) and known_host("[fe80::1]", ()) and known_host("::1", ())
    assert not known_host("localhost.evil.example:8000", ()) and not known_host("127.0.0.1.nip.io", ())
    assert known_host("trix.example.org:443", ("trix.example.org",)) and not known_host("", ())


def _ws_frame(payload: bytes, opcode: int) -> bytes:
    """One masked client frame (RFC 6455), short payloads only."""
    assert len(payload) < 126
    mask = os.urandom(4)
    return bytes([0x80 | opcode, 0x80 | len(payload)]) + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def test_a_client_that_sends_pings_and_reads_nothing_is_no_longer_read(tmp_path: Path) -> None:
    """Pings are answered below the app; unread answers must not pile up in the server without end."""
    server = ServeProcess(str(tmp_path / "t.db"), free_port())
    try:
        code = httpx.post(f"{server.base}/api/tables", json={"name": "A"}, timeout=10).json()["id"]
        key = base64.b64encode(os.urandom(16)).decode()
        s = socket.socket()
        s.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)  # reads nothing, and holds little
        s.connect(("127.0.0.1", server.port))
        s.sendall(
            f"GET /ws/{code} HTTP/1.1\r\nHost: 127.0.0.1:{server.port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n".encode()
        )
        assert s.recv(4096).startswith(b"HTTP/1.1 101")
        pings = _ws_frame(b"x" * 125, opcode=9) * 800  # 105 KB of pings, as many pongs to answer them
        s.settimeout(3)
        sent, limit = 0, 200_000_000
        try:
            while sent < limit:
                s.sendall(pings)
                sent += len(pings)
        except TimeoutError:
            pass  # the server stopped reading: what it has not read waits in the sockets' buffers
        # Without back-pressure the server reads all 200 MB and keeps as many pong bytes to send.
        assert sent < 40_000_000, f"the server read {sent:,} bytes of pings from a client that reads nothing"
        assert httpx.get(f"{server.base}/api/health", timeout=10).json()["ok"]
        s.close()
    finally:
        server.kill()


def test_a_request_cut_off_mid_body_logs_no_traceback(tmp_path: Path) -> None:
    server = ServeProcess(str(tmp_path / "t.db"), free_port(), "--no-rate-limits")
    try:
        code = httpx.post(f"{server.base}/api/tables", json={"name": "A"}, timeout=10).json()["id"]
        for path in ("/api/tables", f"/api/tables/{code}/join", "/api/replay"):
            with socket.create_connection(("127.0.0.1", server.port)) as s:
                head = f"POST {path} HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\n\r\n"
                s.sendall(head.encode() + b'{"name": "' + b"a" * 100)
                time.sleep(0.2)  # the server is reading the body when the client hangs up
        time.sleep(0.5)
        assert httpx.get(f"{server.base}/api/health", timeout=10).json()["ok"]
        assert "Traceback" not in server.output and "Exception" not in server.output, server.output
    finally:
        server.kill()


async def test_a_seat_opened_and_closed_without_end_does_not_flood_the_others(server: LiveServer) -> None:
    """Each coming and going of a player is a ``seats`` event with a view for every connection: a few
    at once, then one a second, and the last one says how things stand once he stops."""
    t = server.create(name="Lina")
    omar = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10).json()["token"]
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    await lina.until(lambda m: m["type"] == "update")
    seen = len(lina.messages)
    start = time.monotonic()
    for _ in range(40):
        flapper = await Player.join(server.ws_base, t["id"], omar)
        await flapper.close()
    elapsed = time.monotonic() - start
    await asyncio.sleep(1.5)  # the held-back event goes out
    while True:
        try:
            await lina.recv(0.5)
        except TimeoutError:
            break
    events = [m for m in lina.messages[seen:] if m["type"] == "update" and m["event"]["kind"] == "seats"]
    assert 2 <= len(events) <= 6 + elapsed + 1.5 + 1, (len(events), elapsed)  # 80 comings and goings
    assert not events[-1]["table"]["seats"][1]["connected"]  # he is gone, as the last event says
    await lina.close()
