"""Several servers behind one proxy (``opentrix serve --shard K/N``): each makes, takes up and wakes only
the tables whose code starts with its characters, so nginx routes by the code's first character. The
end-to-end test runs the nginx configuration printed in docs/server.md, unchanged but for its ports."""

from __future__ import annotations

import asyncio
import random
import re
import shutil
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
import websockets

from opentrix.server.hub import Hub, NewTable
from opentrix.server.settings import Settings
from opentrix.server.shards import CODE_ALPHABET, MAX_SHARDS, first_characters, owns, parse_shard
from test_server_kit import Player, ServeProcess, answers, free_port, record_of

DOCS = Path(__file__).parent.parent / "docs" / "server.md"


def docs_nginx() -> str:
    """The nginx configuration of docs/server.md's section on shards."""
    blocks = re.findall(r"```nginx\n(.*?)```", DOCS.read_text(encoding="utf-8"), re.S)
    assert len(blocks) == 1, "docs/server.md should hold one nginx block"
    return blocks[0]


def test_a_shard_is_written_k_of_n_and_anything_else_says_what_is_allowed() -> None:
    assert parse_shard("0/2") == (0, 2) and parse_shard(" 3 / 4 ") == (3, 4) and parse_shard("0/1") == (0, 1)
    for bad, says in [
        ("2", "give K/N"),
        ("a/b", "give K/N"),
        ("-1/2", "give K/N"),
        ("2/2", "from 0 to 1 among 2 servers, not 2"),
        ("0/0", "from 1 to 32, not 0"),
        ("0/33", "from 1 to 32, not 33"),
    ]:
        with pytest.raises(ValueError, match=re.escape(says)):
            parse_shard(bad)


def test_the_shards_share_out_every_first_character_once() -> None:
    for n in range(1, MAX_SHARDS + 1):
        shares = [first_characters((k, n)) for k in range(n)]
        assert sorted("".join(shares)) == sorted(CODE_ALPHABET) and all(shares)
    assert first_characters(None) == CODE_ALPHABET
    assert owns((0, 2), "abcdef") and owns((0, 2), "ABCDEF") and not owns((1, 2), "abcdef")
    assert owns(None, "ZZZZZZ")


def test_the_docs_nginx_map_names_each_servers_characters() -> None:
    classes = re.findall(r"\[([A-Z0-9]+)\]\" (opentrix_\d)", docs_nginx())
    assert classes == [(first_characters((0, 2)), "opentrix_0"), (first_characters((1, 2)), "opentrix_1")]


async def test_a_shard_makes_codes_of_its_own_and_never_wakes_another_shards_table(tmp_path: Path) -> None:
    """A parked table is woken by the server a request reaches: only its own shard's may, or the table
    would be played where the proxy never sends its players."""
    database = str(tmp_path / "t.db")
    zero, one = (Hub(Settings(database=database, park_after=3600, shard=(k, 2))) for k in (0, 1))
    await zero.startup()
    await one.startup()
    try:
        made = [(await zero.create(NewTable(name="A")))[0] for _ in range(12)]
        assert all(owns((0, 2), t.id) for t in made)
        t = made[0]
        t.empty_since = time.monotonic() - 7200  # nobody has had it open for two hours: parked
        await zero.sweep()
        assert t.id not in zero.tables
        assert await one.find(t.id) is None and t.id not in one.tables
        why, status, _, _ = await one.missing(t.id)
        assert status == 409 and "(this is server 1 of 2, for the codes that start with B D F" in why
        woken = await zero.find(t.id)
        assert woken is not None and woken.id == t.id
    finally:
        await zero.shutdown()
        await one.shutdown()


def test_serve_refuses_a_shard_it_cannot_read_before_touching_the_store(tmp_path: Path) -> None:
    db = tmp_path / "never.db"
    cmd = [sys.executable, "-m", "opentrix.cli", "serve", "--port", str(free_port()), "--database", str(db)]
    done = subprocess.run([*cmd, "--shard", "2/2"], capture_output=True, text=True, timeout=60)
    said = " ".join(done.stderr.replace("│", " ").split())
    assert done.returncode == 2 and "--shard" in said, said
    assert "K, this server's number, must be from 0 to 1 among 2 servers, not 2" in said
    assert not db.exists() and not done.stdout


class Nginx:
    """nginx in the foreground with the docs' configuration, its ports replaced by ``ports``."""

    def __init__(self, tmp: Path, ports: dict[int, int]) -> None:
        conf = docs_nginx()
        for old, new in ports.items():
            conf = conf.replace(f"127.0.0.1:{old};", f"127.0.0.1:{new};").replace(f"listen {old};", f"listen {new};")
        self.port = ports[8000]
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws_base = f"ws://127.0.0.1:{self.port}"
        kinds = ("client_body", "proxy", "fastcgi", "uwsgi", "scgi")
        temp = " ".join(f"{kind}_temp_path {tmp / kind};" for kind in kinds)
        (tmp / "nginx.conf").write_text(
            f"daemon off;\nworker_processes 1;\npid {tmp / 'nginx.pid'};\nerror_log {tmp / 'error.log'} warn;\n"
            f"events {{}}\nhttp {{\naccess_log off;\n{temp}\n{conf}\n}}\n"
        )
        self.proc = subprocess.Popen(
            [shutil.which("nginx") or "/usr/sbin/nginx", "-p", str(tmp), "-c", str(tmp / "nginx.conf")],
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        deadline = time.monotonic() + 20
        while True:
            if answers(self.base):
                return
            if self.proc.poll() is not None or time.monotonic() > deadline:
                self.proc.kill()
                out = self.proc.communicate()[0].decode(errors="replace")
                raise RuntimeError(f"nginx did not start: {out} {(tmp / 'error.log').read_text()}")
            time.sleep(0.1)

    def stop(self) -> None:
        self.proc.terminate()
        self.proc.wait(10)


@pytest.fixture
def shards(tmp_path: Path) -> Iterator[tuple[Nginx, list[ServeProcess], str]]:
    database = str(tmp_path / "shared.db")
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60", "--lease", "3")
    ports = {8000: free_port(), 8001: free_port(), 8002: free_port()}
    servers = [ServeProcess(database, ports[8001 + k], "--shard", f"{k}/2", *fast) for k in (0, 1)]
    proxy = Nginx(tmp_path, ports)
    try:
        yield proxy, servers, database
    finally:
        proxy.stop()
        for s in servers:
            if s.proc.poll() is None:
                s.stop()


def played_by(base: str, code: str) -> bool:
    """Whether the server at ``base`` plays the table (its answer has the seats; another's, the store's facts)."""
    info = httpx.get(f"{base}/api/tables/{code}", timeout=10).json()
    return "seats" in info


@pytest.mark.proxy
def test_two_shards_behind_nginx_play_every_table_where_the_proxy_sends_it(
    shards: tuple[Nginx, list[ServeProcess], str],
) -> None:
    proxy, servers, database = shards
    for k, s in enumerate(servers):
        assert f"server {k} of 2: plays the tables whose code starts with {' '.join(first_characters((k, 2)))}" in (
            s.output
        )
    new = {"name": "Lina", "bots": "random", "start": True, "kingdoms": 1, "rules": "online"}
    made = [httpx.post(f"{proxy.base}/api/tables", json={**new, "seed": i}, timeout=10).json() for i in range(8)]
    by_shard: dict[int, list[dict[str, str]]] = {0: [], 1: []}
    for t in made:
        k = next(k for k in (0, 1) if owns((k, 2), t["id"]))
        by_shard[k].append(t)
        assert played_by(servers[k].base, t["id"]) and not played_by(servers[1 - k].base, t["id"])
        assert played_by(proxy.base, t["id"])  # the proxy reaches the one that plays it
    assert by_shard[0] and by_shard[1]  # nginx sent the creations to both

    async def play_out(t: dict[str, str]) -> None:
        me = await Player.join(proxy.ws_base, t["id"].lower(), t["token"])  # a code typed in lower case too
        await me.play_to_end(random.Random(4))
        await me.close()

    async def misrouted(server: ServeProcess, code: str) -> str:
        async with websockets.connect(f"{server.ws_base}/ws/{code}") as ws:
            return str(await ws.recv())

    for k in (0, 1):
        asyncio.run(play_out(by_shard[k][0]))
        assert record_of(proxy.base, by_shard[k][0]["id"]).replay().is_over
    left = by_shard[0][1]  # unfinished, on server 0
    said = asyncio.run(misrouted(servers[1], left["id"]))
    assert "this is server 1 of 2, for the codes that start with B D F" in said and "the proxy sent it here" in said

    # Server 0 stops: server 1 never takes its tables (the proxy would not send them there) ...
    servers[0].stop()
    time.sleep(4)  # more than a lease: server 1 looks for free tables every second
    assert not played_by(servers[1].base, left["id"])
    # ... and server 0, started again with its shard, takes them up where they stopped.
    servers[0] = ServeProcess(database, servers[0].port, "--shard", "0/2", "--bot-delay", "0", "--lease", "3")
    deadline = time.monotonic() + 15
    while not played_by(servers[0].base, left["id"]):
        assert time.monotonic() < deadline, "server 0 did not take its table up again"
        time.sleep(0.2)
    asyncio.run(play_out(left))
    assert record_of(proxy.base, left["id"]).replay().is_over
