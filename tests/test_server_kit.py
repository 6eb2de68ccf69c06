"""Helpers for the server, storage and browser tests: a real uvicorn server and scripted WebSocket players.

(Named ``test_server_kit`` so it lives with the server tests; it holds no tests itself.)
"""

from __future__ import annotations

import asyncio
import json
import os
import random
import re
import secrets
import signal
import socket
import ssl
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import httpx
import uvicorn
import websockets

from opentrix.cards import card_name, cards_of
from opentrix.record import Record
from opentrix.server.app import create_app
from opentrix.server.settings import Settings
from opentrix.server.storage import tables_t
from opentrix.server.wsflow import BackPressuredWebSockets

PG_URL = os.environ.get("OPENTRIX_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test")
CARD_RE = re.compile(r"(?<![0-9A-Za-z])([2-9TJQKA][SHDC])(?![0-9A-Za-z])")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class LiveServer:
    """The app under uvicorn in a background thread, on a free loopback port."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.app = create_app(settings)
        self.server = uvicorn.Server(
            uvicorn.Config(
                self.app, host="127.0.0.1", port=0, log_level="warning", ws_max_size=1 << 20, ws=BackPressuredWebSockets
            )
        )
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 20
        while not self.server.started:
            if time.monotonic() > deadline or not self.thread.is_alive():
                raise RuntimeError("the test server did not start")
            time.sleep(0.02)
        self.port = self.server.servers[0].sockets[0].getsockname()[1]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(10)

    def run(self, coro: Any) -> Any:
        """Run a coroutine on the server's own event loop (for the hub's housekeeping)."""
        hub = self.app.state.hub
        loop = hub._sweeper.get_loop()
        return asyncio.run_coroutine_threadsafe(coro, loop).result(10)

    def put_away(self, table_id: str) -> None:
        """Sweep until the hub has put away a finished table nobody has open (as its sweeper would)."""
        hub = self.app.state.hub
        for _ in range(100):
            self.run(hub.sweep())
            if table_id not in hub.tables:
                return
            time.sleep(0.05)
        raise AssertionError(f"table {table_id} was not put away")

    def held_elsewhere(self, table_id: str, lease: float) -> None:
        """As if a server on another machine had the table open and stopped, its lease running ``lease``
        seconds more from now (negative: run out): nothing here can see that it is gone."""
        until = datetime.now(UTC) + timedelta(seconds=lease)
        with self.app.state.hub.storage.engine.begin() as conn:
            owner = "elsewhere:0123456789ab:1:abc123"
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(owner=owner, lease_until=until))

    def info(self, code: str) -> dict[str, Any]:
        """The table's public facts, as ``GET /api/tables/CODE`` gives them."""
        r = httpx.get(f"{self.base}/api/tables/{code}", timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())

    def create(self, **body: Any) -> dict[str, Any]:
        r = httpx.post(f"{self.base}/api/tables", json=body, timeout=10)
        assert r.status_code == 200, r.text
        return dict(r.json())


def fast_settings(tmp_path: Path, **kw: Any) -> Settings:
    """Settings for tests: a fresh SQLite file, no pacing delays, and no rate limits (a test client plays
    far faster than a person; tests/test_server_guard.py checks the limits)."""
    base = Settings(database=str(tmp_path / "tables.db"), bot_delay=0.0, deal_pause=0.0, grace=60.0)
    return replace(base.without_limits(), **kw)


@contextmanager
def live_server(tmp_path: Path, **kw: Any) -> Iterator[LiveServer]:
    with LiveServer(fast_settings(tmp_path, **kw)) as server:
        yield server


def answers(base: str, verify: ssl.SSLContext | bool = True) -> bool:
    """Whether a server (or a proxy in front of one) at ``base`` says it is healthy."""
    try:
        return httpx.get(f"{base}/api/health", timeout=1, verify=verify).status_code == 200
    except httpx.HTTPError:
        return False


class ServeProcess:
    """``opentrix serve`` as a real subprocess (the restart test kills it)."""

    def __init__(
        self, database: str, port: int, *extra: str, group: bool = False, verify: ssl.SSLContext | None = None
    ) -> None:
        """``verify``: the server is given a certificate (``--ssl-certfile``), which this context trusts."""
        self.port = port
        self.group = group  # in a process group of its own, as in a terminal: Ctrl-C reaches all of it
        secure = "s" if verify is not None else ""
        self.base = f"http{secure}://127.0.0.1:{port}"
        self.ws_base = f"ws{secure}://127.0.0.1:{port}"
        cmd = [sys.executable, "-m", "opentrix.cli", "serve", "--port", str(port), "--database", database]
        cmd += ["--log-level", "warning", *extra]
        self.proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=group)
        self.lines: list[str] = []
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        # Ready once it answers and has said where to open it: a stop sent between the two would leave the
        # banner unprinted (it is printed just after uvicorn listens).
        deadline = time.monotonic() + 90  # a loaded or slow host takes a while to import and migrate
        while True:
            said_where = any(line.startswith("opentrix: open ") for line in list(self.lines))
            if answers(self.base, verify or True) and said_where:
                break
            if self.proc.poll() is not None or time.monotonic() > deadline:
                if self.proc.poll() is not None:
                    self._reader.join(10)  # all it printed, to say why
                raise RuntimeError(f"opentrix serve did not start: {self.output}")
            time.sleep(0.1)

    def _read(self) -> None:
        assert self.proc.stdout is not None
        for raw in self.proc.stdout:
            self.lines.append(raw.decode(errors="replace"))

    @property
    def output(self) -> str:
        return "".join(self.lines)

    def said(self, text: str, after: int = 0, timeout: float = 20) -> int:
        """Wait until the server prints a line with ``text`` (past its first ``after`` lines); its index."""
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            for i, line in enumerate(list(self.lines)[after:], after):
                if text in line:
                    return i
            time.sleep(0.05)
        raise AssertionError(f"the server never said {text!r}: {self.output}")

    def kill(self) -> None:
        self.proc.kill()
        self.proc.wait(10)

    def stop(self, sig: int = signal.SIGINT) -> str:
        """Ctrl-C (or ``sig``, sent to the server alone): a clean shutdown (the server lets go of its
        tables); returns what it printed."""
        if self.group and sig == signal.SIGINT:
            os.killpg(self.proc.pid, signal.SIGINT)
        else:
            self.proc.send_signal(sig)
        self.proc.wait(20)
        self._reader.join(10)
        assert not self._reader.is_alive(), "the served process ended but its output did not"
        return self.output


class Player:
    """A scripted WebSocket client; keeps every message it receives."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.messages: list[dict[str, Any]] = []
        self.raw: list[str] = []
        self.view: dict[str, Any] | None = None
        self.table: dict[str, Any] | None = None
        self.seat: int | None = None
        self.n: int | None = None
        self.epoch: str | None = None
        self.errors: list[str] = []
        self.acted: set[tuple[Any, ...]] = set()

    @classmethod
    async def join(
        cls,
        ws_base: str,
        code: str,
        token: str | None = None,
        last: int | None = None,
        epoch: str | None = None,
        tls: ssl.SSLContext | None = None,
    ) -> Player:
        secure: dict[str, Any] = {"ssl": tls} if tls is not None else {}
        ws = await websockets.connect(f"{ws_base}/ws/{code}", max_size=1 << 22, close_timeout=1, **secure)
        p = cls(ws)
        await p.send({"type": "hello", "token": token, "last": last, "epoch": epoch})
        welcome = await p.until(lambda m: m["type"] == "welcome")
        p.seat = welcome["seat"]
        return p

    async def send(self, message: dict[str, Any]) -> None:
        await self.ws.send(json.dumps(message))

    async def send_raw(self, text: str) -> None:
        await self.ws.send(text)

    async def recv(self, timeout: float = 10) -> dict[str, Any]:
        text = await asyncio.wait_for(self.ws.recv(), timeout)
        msg = json.loads(text)
        self.raw.append(text)
        self.messages.append(msg)
        if msg["type"] == "update":
            self.view, self.table, self.n = msg["view"], msg["table"], msg["n"]
            self.epoch = msg["epoch"]
        elif msg["type"] == "welcome":
            self.epoch = msg["epoch"]
        elif msg["type"] == "error":
            self.errors.append(msg["message"])
        return dict(msg)

    async def until(self, pred: Any, timeout: float = 15) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"condition not met; last view: {self.view}")
            msg = await self.recv(left)
            if pred(msg):
                return msg

    async def error(self, timeout: float = 5) -> str:
        msg = await self.until(lambda m: m["type"] == "error", timeout)
        return str(msg["message"])

    def my_turn(self) -> bool:
        v = self.view
        return v is not None and v["turn"] == self.seat and bool(v["legal_actions"]) and not v["match_over"]

    def state_key(self) -> tuple[Any, ...]:
        v = self.view
        assert v is not None
        return (v["deal_number"], v["phase"], len(v["plays"]), len(v["history"]), len(v["doubled"]), v["turn"])

    async def play_random(self, rng: random.Random) -> bool:
        """Act once if it is this seat's turn in a state not yet acted on; say 'next' between deals."""
        v = self.view
        if v is None or self.seat is None:
            return False
        if v["phase"] == "deal_over" and ("next", v["deal_number"]) not in self.acted:
            self.acted.add(("next", v["deal_number"]))
            await self.send({"type": "next"})
            return True
        if self.my_turn() and self.state_key() not in self.acted:
            self.acted.add(self.state_key())
            await self.send({"type": "act", "action": rng.choice(v["legal_actions"])})
            return True
        return False

    async def play_to_end(self, rng: random.Random, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while not (self.view and self.view["match_over"]):
            await self.play_random(rng)
            await self.recv(max(0.1, deadline - time.monotonic()))
        assert not self.errors, self.errors

    async def close(self) -> None:
        await self.ws.close()


def record_of(base: str, code: str) -> Record:
    r = httpx.get(f"{base}/api/tables/{code}/record", timeout=10)
    assert r.status_code == 200, r.text
    return Record.loads(r.text)


def card_strings(obj: Any) -> set[str]:
    """Every card string anywhere in a JSON value."""
    return set(CARD_RE.findall(json.dumps(obj)))


def check_no_hidden_cards(messages: list[dict[str, Any]], seat: int | None, record: Record) -> int:
    """Assert that no message to ``seat`` (None: a spectator) shows a card it may not see; return how many were checked.

    For every update, the view's plays must be a prefix of the recorded plays of its deal; the hand must be
    exactly the seat's dealt cards minus those played; and every card anywhere else in the message must be
    one already played this deal, a doubled card shown, or the seat's own.
    """
    checked = 0
    match = record.replay()
    played_by = {(s, card_name(a)) for d in match.deals for s, a in zip(d.seats, d.plays, strict=True) if a < 52}
    hidden_reveal = match.rules.doubling_reveal == "hidden"
    for msg in messages:
        if msg["type"] == "catchup":
            # Missed events: cards that their seat really played; others' doubling hidden when it must be.
            for ev in msg["events"]:
                if ev.get("kind") != "action":
                    continue
                if ev["action"].startswith("double ") and ev["seat"] != seat:
                    assert not hidden_reveal, ev
                elif CARD_RE.fullmatch(ev["action"]):
                    assert (ev["seat"], ev["action"]) in played_by, ev
            continue
        if msg["type"] != "update":
            assert not card_strings(msg) or msg["type"] == "error", msg
            continue
        v = msg["view"]
        if msg["table"]["status"] == "lobby":  # before the start nobody sees a card, nor the king
            assert v["hand"] is None and v["king"] is None and not card_strings(msg), msg
            assert msg["table"]["timer"]["seat"] is None, msg  # the first turn is the king's: 7♥ holder
            checked += 1
            continue
        d = v["deal_number"]
        deal = record.deals[d]
        recorded = [card_name(a) if a < 52 else "pass" for a in deal.plays]
        plays = [a for _, a in v["plays"]]
        assert plays == recorded[: len(plays)], (plays, recorded)
        played = {a for a in plays if a != "pass"}
        own = {card_name(c) for c in cards_of(deal.hands[seat])} if seat is not None else set()
        if seat is None:
            assert v["hand"] is None
        else:
            assert set(v["hand"]) == own - played, (v["hand"], own - played)
        hidden_doubling = (
            v["phase"] == "double" and isinstance(v["rules"], dict) and (v["rules"].get("doubling_reveal") == "hidden")
        )
        shown_doubled = {card_name(c) for c in cards_of(deal.doubled)}
        if hidden_doubling:
            shown_doubled &= own
        allowed = played | own | shown_doubled
        rest = {k: val for k, val in v.items() if k not in ("history",)}
        leaked = card_strings(rest) - allowed
        assert not leaked, f"seat {seat} saw {leaked} in deal {d}: {v}"
        event = msg.get("event")
        if event and event.get("kind") == "action":
            assert card_strings(event) <= allowed, (event, allowed)
        for i, h in enumerate(v["history"]):
            assert set(h["doubled"]) == {card_name(c) for c in cards_of(record.deals[i].doubled)}
        checked += 1
    return checked


def unique_schema() -> str:
    return f"opentrix_test_{secrets.token_hex(5)}"


@contextmanager
def pg_schema() -> Iterator[str]:
    """A fresh PostgreSQL schema in the test database, dropped with all it holds afterwards."""
    import psycopg

    schema = unique_schema()
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield schema
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
