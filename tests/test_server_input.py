"""Bad input to a table gets an error to that client, changes nothing, and the table keeps running."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import select
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import psycopg
import pytest
import websockets

from opentrix import actions as A
from opentrix.match import MAX_SEED, Match
from opentrix.rules import Rules
from opentrix.server.commands import browser_host
from opentrix.server.protocol import BadMessage, parse_action, parse_message, parse_seat
from test_server_kit import PG_URL, LiveServer, Player, ServeProcess, free_port, live_server, pg_schema


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("input")) as s:
        yield s


def test_message_parsing() -> None:
    assert parse_message('{"type": "ping"}', 100).type == "ping"
    with pytest.raises(BadMessage, match="too large"):
        parse_message('{"type": "ping", "x": "' + "a" * 200 + '"}', 100)
    with pytest.raises(BadMessage, match="not JSON"):
        parse_message("{type: ping", 100)
    with pytest.raises(BadMessage, match="JSON object"):
        parse_message("[1, 2]", 100)
    with pytest.raises(BadMessage, match='unknown message type "dance"'):
        parse_message('{"type": "dance"}', 100)
    assert parse_action("10♦") == A.play("TD")
    assert parse_action("contract queens") == A.choose("queens")
    assert parse_action(A.NO_DOUBLE) == A.NO_DOUBLE
    for bad in (True, A.NUM_ACTIONS, -1, "QX", None, "x" * 100):
        with pytest.raises(BadMessage):
            parse_action(bad)
    # quoted as JSON spells them, as the client sent them, not as Python does
    with pytest.raises(BadMessage, match=r"not an action: true$"):
        parse_action(True)
    with pytest.raises(BadMessage, match=r"'seat' must be 0 to 3, not true$"):
        parse_seat(True)
    with pytest.raises(BadMessage, match="unknown message type null"):
        parse_message('{"type": null}', 100)


def test_creating_a_table_with_bad_options_says_what_is_wrong(server: LiveServer) -> None:
    def create(body: object) -> httpx.Response:
        return httpx.post(f"{server.base}/api/tables", json=body, timeout=10)

    cases = [
        ({"rules": "poker"}, "unknown rules preset 'poker'"),
        ({"bots": ["hard", "genius", "easy"]}, "unknown bot level 'genius'"),
        ({"timer": 5000}, "move timer"),
        ({"kingdoms": 3}, "kingdoms must be 1"),
        ({"doubling": "yes"}, "'doubling' must be true or false"),
        ({"seed": 2**70}, "'seed' must be a whole number from 0 to"),
        ({"seed": -1}, "'seed' must be a whole number from 0 to"),
        ({"seed": "7"}, "'seed' must be a whole number"),
        ({"start": "yes"}, "'start' must be true or false"),
        ({"hints": "yes"}, "'hints' must be true or false"),
        ({"name": ""}, "1 to 40 characters"),
        ({"kingdom": 1}, 'unknown option "kingdom" (the options: name, rules,'),  # a typo is not ignored
        ({"bots": ["easy", "easy", "easy"], "seat": 5}, "the host's seat must be 0 to 3"),  # was a 500
        ({"bots": ["easy", "easy", "easy"], "seat": -1}, "the host's seat must be 0 to 3"),
        ({"seat": 4}, "the host's seat must be 0 to 3"),
        ([1, 2], "JSON object"),
    ]
    for body, message in cases:
        r = create(body)
        assert r.status_code == 400, body
        assert message in r.json()["error"], (body, r.json())
    r = httpx.post(f"{server.base}/api/tables", content=b"{nope", timeout=10)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    assert httpx.get(f"{server.base}/api/tables/ZZZZZZ", timeout=10).status_code == 404
    # a mistyped page address gets a page leading back; the API keeps answering JSON
    r = httpx.get(f"{server.base}/nonexistent", timeout=10)
    assert r.status_code == 404 and "text/html" in r.headers["content-type"] and 'href="/"' in r.text
    r = httpx.get(f"{server.base}/api/nonexistent", timeout=10)
    assert r.status_code == 404 and r.json() == {"error": "no such API address: GET /api/nonexistent"}
    r = httpx.delete(f"{server.base}/api/history", timeout=10)
    assert r.status_code == 405 and r.json() == {"error": "method not allowed: DELETE /api/history"}
    # a bad query parameter gets the same shape, naming the parameter
    for query, name in (("limit=abc", "'limit'"), ("limit=5&offset=x", "'offset'")):
        r = httpx.get(f"{server.base}/api/history?{query}", timeout=10)
        assert r.status_code == 400 and r.json()["error"].startswith(f"{name} input should be a valid integer")


async def test_bad_messages_change_nothing(server: LiveServer) -> None:
    # A table where seat 0 (us) acts first: find a seed whose first king is seat 0.
    seed = next(s for s in range(100) if Match(Rules(), seed=s).king == 0)
    t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    spectator = await Player.join(server.ws_base, t["id"])
    await me.until(lambda m: m["type"] == "update" and me.my_turn())
    await me.send({"type": "ping"})
    await me.until(lambda m: m["type"] == "pong")
    before = me.view
    n_before = me.n

    await me.send_raw("{not json")
    assert "not JSON" in await me.error()
    await me.send({"type": "shout"})
    assert 'unknown message type "shout"' in await me.error()
    await me.send_raw(json.dumps({"type": "act", "action": "QS", "pad": "x" * 5000}))
    assert "too large" in await me.error()
    await me.send({"type": "act", "action": "contract poker"})
    assert "unknown contract" in await me.error()
    await me.send({"type": "act", "action": "QS", "seat": 2})
    assert "a message for seat 2 is refused" in await me.error()
    await me.send({"type": "act", "action": "contract queens", "seat": 7})
    assert "'seat' must be 0 to 3" in await me.error()
    await me.send({"type": "hello", "token": t["token"]})
    assert "already said hello" in await me.error()
    await spectator.send({"type": "act", "action": "contract queens"})
    assert "spectators cannot play" in await spectator.error()
    # Nothing changed: a ping round-trip proves the errors were all handled first.
    await me.send({"type": "ping"})
    await me.until(lambda m: m["type"] == "pong")
    assert me.view == before and me.n == n_before

    # An illegal card during the contract choice is the engine's own message.
    await me.send({"type": "act", "action": "2C"})
    assert "must name a contract first" in await me.error()

    # Now play on: contract, then find a card we hold that does not follow suit.
    await me.send({"type": "act", "action": "contract diamonds"})
    revoke_seen = False
    while not revoke_seen:
        await me.until(lambda m: m["type"] == "update" and me.view is not None)
        v = me.view
        assert v is not None
        assert v["phase"] != "deal_over", "no chance to revoke in this deal"
        if not me.my_turn() or v["phase"] != "play":
            continue
        legal = set(v["legal_actions"])
        illegal = [c for c in v["hand"] if c not in legal]
        if v["trick"] and illegal:
            led = v["trick"][0][1][1]
            await me.send({"type": "act", "action": illegal[0]})
            msg = await me.error()
            assert f"seat 0 must follow suit {dict(S='♠', H='♥', D='♦', C='♣')[led]}" in msg, msg
            revoke_seen = True
        await me.send({"type": "act", "action": sorted(legal)[0]})
    # A card we do not hold.
    await me.until(lambda m: m["type"] == "update" and me.my_turn())
    v = me.view
    assert v is not None
    foreign = next(c for c in ("AS", "KS", "QS", "JS", "TS", "9S", "8S", "2H", "3H", "4H") if c not in v["hand"])
    await me.send({"type": "act", "action": foreign})
    assert "seat 0" in await me.error()
    # The table still runs: the match goes on to its end.
    me.errors.clear()
    await me.play_to_end(random.Random(1))
    await me.close()
    await spectator.until(lambda m: m["type"] == "update" and m["view"]["match_over"])
    await spectator.close()


async def test_a_stolen_seat_is_refused(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random")
    # A wrong token: the connection is told so and only watches.
    thief = await Player.join(server.ws_base, t["id"], "not-the-token")
    assert thief.seat is None
    assert any("not valid" in e for e in thief.errors)
    await thief.send({"type": "act", "action": "contract queens", "seat": 0})
    assert "spectators cannot play" in await thief.error()
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": "guess"}, timeout=10)
    assert r.status_code == 400 and "only the host" in r.json()["error"]
    await thief.close()
    # An unknown table over the WebSocket.
    import websockets

    async with websockets.connect(f"{server.ws_base}/ws/NOSUCH") as ws:
        msg = json.loads(await ws.recv())
        assert msg["type"] == "error" and "no table" in msg["message"]


async def test_acting_out_of_turn_is_refused(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random")
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar", "seat": 2}, timeout=10)
    omar_token = r.json()["token"]
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    omar = await Player.join(server.ws_base, t["id"], omar_token)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    assert r.status_code == 200, r.text
    # Bots play at once; they stop when one of the two humans is to act.
    await lina.until(lambda m: m["type"] == "update" and lina.view["turn"] in (0, 2))
    waiting = omar if lina.view["turn"] == 0 else lina
    acting = 2 if waiting is lina else 0
    await waiting.send({"type": "act", "action": "contract queens"})
    msg = await waiting.error()
    assert f"it is seat {acting}'s turn" in msg, msg
    await lina.close()
    await omar.close()


async def test_binary_deep_and_unencodable_input_gets_an_error(server: LiveServer) -> None:
    """Input that used to end the connection (a binary frame: KeyError; "[[[[…": RecursionError) or make
    a 500 (a lone surrogate in a token or a name cannot be hashed or stored) is answered like other bad input."""
    t = server.create(name="Lina", bots="random")
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.ws.send(b'{"type": "ping"}')
    assert "not binary" in await me.error()
    await me.send_raw('{"type": "ping", "x": ' + "[" * 1500 + "]" * 1500 + "}")
    assert "nested too deeply" in await me.error()
    await me.send({"type": "ping"})
    await me.until(lambda m: m["type"] == "pong")  # still connected, still seat 0
    assert me.seat == 0
    odd = await Player.join(server.ws_base, t["id"], "\ud800")
    assert odd.seat is None and any("not valid" in e for e in odd.errors)
    await odd.send({"type": "ping"})
    await odd.until(lambda m: m["type"] == "pong")
    await odd.close()
    await me.close()
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", content='{"token": "\\udc00"}', timeout=10)
    assert r.status_code == 400 and "only the host" in r.json()["error"]
    for name in ("a\\ud800b", "Omar\\u0000", "x\\u0007"):
        body = '{"name": "' + name + '"}'
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", content=body, timeout=10)
        assert r.status_code == 400 and "control characters" in r.json()["error"], (name, r.text)
        r = httpx.post(f"{server.base}/api/tables", content=body, timeout=10)
        assert r.status_code == 400 and "control characters" in r.json()["error"], (name, r.text)
    r = httpx.post(f"{server.base}/api/tables", content="[" * 3000 + "]" * 3000, timeout=10)
    assert r.status_code == 400 and "not JSON" in r.json()["error"]
    # Names people write are kept: Arabic, an emoji family (joined by zero-width joiners).
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "ريم 👨\u200d👩\u200d👧"}, timeout=10)
    assert r.status_code == 200, r.text


@pytest.mark.postgres
def test_a_nul_in_a_name_or_a_code_is_refused_by_a_postgresql_server(tmp_path: Path) -> None:
    """PostgreSQL refuses a NUL in text: a name or a table code holding one made a 500."""
    with pg_schema() as schema, live_server(tmp_path, database=PG_URL, schema=schema) as server:
        r = httpx.post(f"{server.base}/api/tables", content='{"name": "Lina\\u0000"}', timeout=10)
        assert r.status_code == 400 and "control characters" in r.json()["error"], r.text
        t = server.create(name="Lina")
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", content='{"name": "\\u0000"}', timeout=10)
        assert r.status_code == 400 and "control characters" in r.json()["error"], r.text
        for method, path in [
            ("GET", "/api/tables/A%00"),
            ("GET", "/api/tables/A%00/record"),
            ("GET", "/api/tables/A%00/replay"),
            ("POST", "/api/tables/A%00/join"),
            ("POST", "/api/tables/A%00/start"),
        ]:
            r = httpx.request(method, server.base + path, json={"name": "Omar"}, timeout=10)
            assert r.status_code == 404 and "A\\x00" in r.json()["error"], (path, r.text)

        async def ws_to_no_table() -> tuple[str, int | None]:
            async with websockets.connect(f"{server.ws_base}/ws/A%00") as ws:
                text = str(await ws.recv())
                with contextlib.suppress(websockets.ConnectionClosed):
                    await ws.recv()
                return text, ws.close_code

        text, code = asyncio.run(ws_to_no_table())
        assert "no table" in text and code == 4404


def _opentrix(*args: str, env: dict[str, str] | None = None) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "opentrix.cli", *args], capture_output=True, text=True, timeout=60, env=env
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--database", "postgresql://nobody@127.0.0.1:1/none"], "cannot use the database 127.0.0.1:1/none"),
        (["--database", "postgresql://127.0.0.1:1/none"], "cannot use the database 127.0.0.1:1/none: "),
        (["--database", "mysql://someone@somewhere/db"], "an SQLite file or a postgresql:// database"),
        (["--database", "/proc/no-such-folder/tables.db"], "the folder /proc/no-such-folder for the database"),
        (
            ["--database", "no/such/folder/t.db"],
            "the folder no/such/folder for the database 'no/such/folder/t.db' does",
        ),
        # a port that is no number, its password hidden; an in-memory store; an empty name
        (["--database", "postgresql://u:secret@h:x/db"], "not a database URL: 'postgresql://u:***@h:x/db' (invalid"),
        (["--database", "postgresql://postgres@[::1/db"], "not a database URL: 'postgresql://postgres@[::1/db'"),
        (["--database", "postgresql://u:se/cret@h:x/db"], "not a database URL: 'postgresql://u:***@h:x/db'"),
        (["--database", "postgresql://u:sec@ret@h:x/db"], "not a database URL: 'postgresql://u:***@h:x/db'"),
        (["--database", "postgresql://h:x/db?password=secret"], "'postgresql://h:x/db?password=***'"),
        (["--database", "postgresql:/u:secret@h/db"], "for the database 'postgresql:/u:***@h/db' does not exist"),
        (["--database", "sqlite://"], "an in-memory database keeps nothing"),
        (["--database", ""], "--database is empty"),
    ],
)
@pytest.mark.parametrize("command", [["serve"], ["play", "--no-browser"]])
def test_a_bad_database_is_one_clear_line(command: list[str], args: list[str], message: str) -> None:
    done = _opentrix(*command, *args, "--port", "0" if command[0] == "play" else "8799")
    assert done.returncode == 1, done.stdout + done.stderr
    assert message in done.stderr and "Traceback" not in done.stderr + done.stdout
    assert "secret" not in done.stderr + done.stdout


def test_a_bad_database_url_from_the_environment_is_named_with_its_password_hidden() -> None:
    env = {**os.environ, "OPENTRIX_DATABASE_URL": "postgresql://u:secret@h:x/db"}
    done = _opentrix("serve", "--port", "8799", env=env)
    assert done.returncode == 1 and "not a database URL: 'postgresql://u:***@h:x/db'" in done.stderr
    assert "secret" not in done.stderr + done.stdout


def test_a_mistyped_database_folder_is_not_made(tmp_path: Path) -> None:
    """Only the default data folder is created; a path whose folder is missing is a typo to report."""
    done = subprocess.run(
        [sys.executable, "-m", "opentrix.cli", "serve", "--port", "8799", "--database", "typo/t.db"],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=tmp_path,
    )
    assert done.returncode == 1 and "does not exist; create it first" in done.stderr
    assert not list(tmp_path.iterdir())


def test_a_data_folder_that_cannot_be_made_is_one_clear_line() -> None:
    env = {k: v for k, v in os.environ.items() if k != "OPENTRIX_DATABASE_URL"}
    done = _opentrix("serve", "--port", "8799", env={**env, "XDG_DATA_HOME": "/proc/nope", "HOME": "/proc/nope"})
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "cannot create /proc/nope" in done.stderr and "give --database" in done.stderr


def test_a_bad_log_level_is_refused_before_anything_starts(tmp_path: Path) -> None:
    done = _opentrix(
        "serve", "--log-level", "chatty", "--database", str(tmp_path / "t.db"), env={**os.environ, "COLUMNS": "200"}
    )
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert "'chatty' is not one of 'critical', 'error', 'warning', 'info', 'debug', 'trace'" in done.stderr
    assert not (tmp_path / "t.db").exists()  # refused before the database was touched


def test_the_browser_table_refuses_a_bot_it_cannot_seat() -> None:
    """The optional OpenSpiel bot plays in the terminal and the arena, not at a browser table: saying so
    at once beats a traceback from the server thread (as it once was)."""
    done = _opentrix("play", "--no-browser", "--bots", "openspiel-ismcts", env={**os.environ, "COLUMNS": "200"})
    assert done.returncode == 2 and "Traceback" not in done.stderr + done.stdout
    assert "unknown bot 'openspiel-ismcts'" in done.stderr and "strong-uniform, easy, medium, hard" in done.stderr


def test_a_port_in_use_is_one_clear_line(tmp_path: Path) -> None:
    with socket.socket() as busy:
        busy.bind(("127.0.0.1", 0))
        busy.listen()
        port = busy.getsockname()[1]
        done = _opentrix("serve", "--port", str(port), "--database", str(tmp_path / "t.db"))
    assert done.returncode == 1
    assert f"cannot listen on 127.0.0.1:{port}" in done.stderr and "choose another --port" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout
    assert not (tmp_path / "t.db").exists()  # the port is checked first: no database is left behind


def test_a_postgresql_url_without_a_database_is_refused() -> None:
    """The driver would guess a database named after the user and fill that one."""
    done = _opentrix("serve", "--port", "8799", "--database", "postgresql://")
    assert done.returncode == 1 and "name the database" in done.stderr


@pytest.mark.postgres
def test_a_read_only_database_is_one_clear_line() -> None:
    """A schema already up to date is migrated without a write, so the check writes (and undoes it):
    the server's first write at start-up was a traceback and exit status 3."""
    from opentrix.server.storage import Storage

    with pg_schema() as schema:
        store = Storage(PG_URL, schema=schema)
        store.migrate()
        store.close()
        sep = "&" if "?" in PG_URL else "?"
        url = f"{PG_URL}{sep}options=-csearch_path%3D{schema}%20-cdefault_transaction_read_only%3Don"
        done = _opentrix("serve", "--port", "8799", "--database", url)
        assert done.returncode == 1, done.stdout + done.stderr
        assert "cannot use the database" in done.stderr and "read-only transaction" in done.stderr
        assert "Traceback" not in done.stderr + done.stdout


@pytest.mark.parametrize("host", ["999.1.1.1", "10.255.255.1"])
@pytest.mark.parametrize("command", [["serve", "--port", "8799"], ["play", "--no-browser"]])
def test_an_address_not_on_this_machine_is_one_clear_line(command: list[str], host: str, tmp_path: Path) -> None:
    """``play`` listens on port 0 by default: the address must be checked then too (it was a traceback)."""
    done = _opentrix(*command, "--host", host, "--database", str(tmp_path / "t.db"))
    assert done.returncode == 1, done.stdout + done.stderr
    assert f"cannot listen on '{host}'" in done.stderr and "choose another --host" in done.stderr
    assert "Traceback" not in done.stderr + done.stdout


def test_the_address_printed_is_one_a_browser_can_open() -> None:
    assert browser_host("0.0.0.0") == browser_host("") == "127.0.0.1"
    assert browser_host("::") == "[::1]" and browser_host("::1") == "[::1]"
    assert browser_host("192.168.1.20") == "192.168.1.20" and browser_host("localhost") == "localhost"


def test_serve_on_port_0_prints_the_port_it_listens_on(tmp_path: Path) -> None:
    """Port 0 asks the system for a free port; serve must print that one (it printed ``:0``)."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "opentrix.cli", "serve", "--port", "0", "--database", str(tmp_path / "t.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = next(line for line in proc.stdout if "in a browser" in line)
        address = line.split("open ")[1].split(" ")[0]
        assert not address.endswith(":0/")
        for _ in range(100):
            with contextlib.suppress(httpx.TransportError):
                assert httpx.get(address, timeout=5).status_code == 200
                break
            time.sleep(0.1)
        else:
            raise AssertionError(f"nothing answers at {address}")
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


@pytest.mark.parametrize("seed", [str(MAX_SEED + 1), "-1"])
def test_play_refuses_a_seed_no_table_can_keep(seed: str, tmp_path: Path) -> None:
    """The CLI checks ``--seed`` against the same bound as create-table, before anything starts."""
    wide = {**os.environ, "COLUMNS": "200"}  # the error box must not wrap the number
    done = _opentrix("play", "--no-browser", "--seed", seed, "--database", str(tmp_path / "t.db"), env=wide)
    assert done.returncode == 2
    assert "Invalid value for '--seed'" in done.stderr, done.stderr
    if seed != "-1":
        assert str(MAX_SEED) in done.stderr, done.stderr
    assert not (tmp_path / "t.db").exists() and "Traceback" not in done.stderr


def test_a_server_for_the_network_tells_invite_links_an_address_friends_can_reach(tmp_path: Path) -> None:
    """``--host 0.0.0.0`` prints 127.0.0.1 for this machine's browser; invite links must not name it."""
    port = free_port()
    server = ServeProcess(
        str(tmp_path / "t.db"), port, "--host", "0.0.0.0", "--public-url", "http://192.0.2.9:81/", "--stand-in", "hard"
    )
    try:
        options = httpx.get(f"{server.base}/api/options", timeout=10).json()
        assert options["invite"] == {"base": "http://192.0.2.9:81", "always": True}
        assert options["stand_in"] == "hard"  # --stand-in: who plays for an away player
    finally:
        out = server.stop()
    assert "friends open http://192.0.2.9:81/" in out
    for bad in ("ftp://x", "http://x/path", "192.0.2.9:81", "http://x:port"):
        done = _opentrix("serve", "--public-url", bad, "--database", str(tmp_path / "t.db"))
        assert done.returncode == 2 and "--public-url" in done.stderr and "Traceback" not in done.stderr, bad


def test_the_network_address_is_found_without_sending_anything() -> None:
    from opentrix.server.commands import lan_address, public_base

    address = lan_address()
    assert address is None or not address.startswith("127.")
    base, given = public_base(None, "0.0.0.0", 8000)
    assert given is False and base == (None if address is None else f"http://{address}:8000")
    assert public_base(None, "127.0.0.1", 8000) == (None, False)  # this machine only: nobody else to invite
    assert public_base("https://trix.example.org/", "127.0.0.1", 8000) == ("https://trix.example.org", True)


def test_a_network_address_the_server_found_is_told_to_its_own_browser_only(server: LiveServer) -> None:
    """Behind a proxy or in a container, the address ``--host 0.0.0.0`` found is an inner one: the page
    on this machine needs it for its invite link; nobody else has any use for it."""
    server.app.state.invite = {"base": "http://192.0.2.7:8765", "always": False}
    try:
        mine = httpx.get(f"{server.base}/api/options", timeout=10).json()
        assert mine["invite"] == {"base": "http://192.0.2.7:8765", "always": False}
        # a client elsewhere, as a proxy on this machine names it (uvicorn trusts 127.0.0.1's header)
        theirs = httpx.get(f"{server.base}/api/options", headers={"X-Forwarded-For": "203.0.113.5"}, timeout=10)
        assert theirs.json()["invite"] is None
        server.app.state.invite = {"base": "https://trix.example.org", "always": True}  # --public-url: public
        theirs = httpx.get(f"{server.base}/api/options", headers={"X-Forwarded-For": "203.0.113.5"}, timeout=10)
        assert theirs.json()["invite"]["base"] == "https://trix.example.org"
    finally:
        server.app.state.invite = None


@pytest.mark.postgres
def test_while_the_database_is_down_a_new_table_is_refused_clearly_and_then_made(tmp_path: Path) -> None:
    """A store that cannot be reached is a 503 in the API's own shape (it was a plain-text 500 and a
    traceback in the log), and the server makes tables again once the database is back."""
    name = f"opentrix_outage_{random.randrange(1 << 30)}"
    admin = PG_URL.rsplit("/", 1)[0]
    with psycopg.connect(PG_URL, autocommit=True) as conn:
        conn.execute(f'CREATE DATABASE "{name}"')
    try:
        with live_server(tmp_path, database=f"{admin}/{name}") as server:
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
                conn.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            r = httpx.post(f"{server.base}/api/tables", json={"name": "Lina"}, timeout=30)
            assert r.status_code == 503 and "try again" in r.json()["error"], r.text
            with psycopg.connect(PG_URL, autocommit=True) as conn:
                conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            assert server.create(name="Lina")["id"]
    finally:
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
            conn.execute(f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = '{name}'")
            conn.execute(f'DROP DATABASE "{name}"')


def test_naming_a_proxy_keeps_the_local_one_trusted_and_a_slip_is_refused() -> None:
    from opentrix.server.commands import trusted_proxies

    assert trusted_proxies(None) is None  # uvicorn's default: $FORWARDED_ALLOW_IPS, else 127.0.0.1
    assert trusted_proxies("10.0.0.5, 10.1.0.0/16") == "127.0.0.1,::1,10.0.0.5,10.1.0.0/16"
    assert trusted_proxies("*") == "*"
    done = _opentrix(
        "serve", "--port", "8799", "--forwarded-allow-ips", "notanip", env={**os.environ, "COLUMNS": "200"}
    )
    assert done.returncode == 2 and "'notanip' is not an address or a network" in done.stderr


def test_opentrix_play_answers_only_to_its_address_and_localhost(tmp_path: Path) -> None:
    """``opentrix play`` runs a server on the player's own machine: a page of another site whose name
    is made to point at 127.0.0.1 (DNS rebinding) gets nothing from it; the table's link, by address
    or as localhost, works."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "opentrix.cli", "play", "--no-browser", "--database", str(tmp_path / "t.db")],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert proc.stdout is not None
        line = ""
        while "your table is at" not in line:  # a play that never prints its link fails, not hangs
            assert select.select([proc.stdout], [], [], 60)[0], "opentrix play printed no link"
            line = proc.stdout.readline()
            assert line, "opentrix play ended without a link"
        link = line.split("your table is at ")[1].strip()
        base = link.split("/t/")[0]
        port = base.rsplit(":", 1)[1]
        assert httpx.get(link.split("#")[0], timeout=10).status_code == 200
        assert httpx.get(f"{base}/api/health", headers={"host": f"localhost:{port}"}, timeout=10).status_code == 200
        r = httpx.get(f"{base}/api/health", headers={"host": f"rebind.evil.example:{port}"}, timeout=10)
        assert r.status_code == 421 and "does not answer to the name 'rebind.evil.example'" in r.json()["error"]
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(20)


async def test_a_hello_whose_bot_flag_is_not_true_or_false_is_refused(server: LiveServer) -> None:
    t = server.create(name="Lina")
    async with websockets.connect(f"{server.ws_base}/ws/{t['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": t["token"], "bot": "yes"}))
        assert json.loads(await ws.recv()) == {"type": "error", "message": "'bot' must be true or false, not \"yes\""}
        await ws.send(json.dumps({"type": "hello", "token": t["token"], "bot": False}))  # the hello may come again
        assert json.loads(await ws.recv())["type"] == "welcome"


@pytest.mark.parametrize(
    ("field", "value", "message"),
    [
        ("token", 123, "'token' must be the seat token or null, not 123"),
        ("epoch", ["x"], "'epoch' must be text or null, not [\"x\"]"),
        ("last", "41", "'last' must be an event number or null, not \"41\""),
        ("last", True, "'last' must be an event number or null, not true"),
    ],
)
async def test_a_hello_with_a_field_of_the_wrong_kind_is_refused_not_taken_for_a_spectator(
    server: LiveServer, field: str, value: object, message: str
) -> None:
    t = server.create(name="Lina")
    async with websockets.connect(f"{server.ws_base}/ws/{t['id']}") as ws:
        await ws.send(json.dumps({"type": "hello", "token": t["token"], field: value}))
        assert json.loads(await ws.recv()) == {"type": "error", "message": message}
        await ws.send(json.dumps({"type": "hello", "token": t["token"]}))
        assert json.loads(await ws.recv())["seat"] == 0  # welcomed at her seat, not as a spectator
