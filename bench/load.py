"""Load benchmark for the web table: many concurrent tables of scripted WebSocket players on loopback.

For each table count it starts a fresh ``opentrix serve`` process (SQLite in a temporary folder), seats
four scripted players at every table, and lets each table make one action per second (human pace;
``--rate`` changes it). It measures actions/s and the latency from an action being sent to the acting
client receiving the update that carries it, then reports the largest table count whose p95 stays under
``--bound`` ms. Finally it measures the server's memory per idle table (lobby tables, and started tables
whose players are away).

    python bench/load.py                               # 100, 250, 500, 750, 1000 tables, 20 s each
    python bench/load.py --tables 500 --duration 30 --json

Not a test: the numbers depend on the machine (and on whatever else runs on it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import random
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import websockets

CLK = os.sysconf("SC_CLK_TCK")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Server:
    def __init__(self, folder: Path, url: str | None = None, extra: list[str] | None = None) -> None:
        self.proc = None
        if url:  # a server that is already running (for profiling, or one on PostgreSQL)
            self.base = url.rstrip("/")
            self.ws = "ws" + self.base[4:]
            return
        folder.mkdir(parents=True, exist_ok=True)  # serve refuses a database in a missing folder
        self.port = free_port()
        self.base = f"http://127.0.0.1:{self.port}"
        self.ws = f"ws://127.0.0.1:{self.port}"
        cmd = [sys.executable, "-m", "opentrix.cli", "serve", "--port", str(self.port), "--no-rate-limits"]
        cmd += ["--database", str(folder / "load.db"), "--bot-delay", "0", "--deal-pause", "0"]
        cmd += ["--grace", "86400", "--log-level", "error", *(extra or [])]
        self.proc: subprocess.Popen[bytes] | None = subprocess.Popen(
            cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL
        )
        deadline = time.monotonic() + 30
        while True:
            try:
                if httpx.get(f"{self.base}/api/health", timeout=1).status_code == 200:
                    return
            except httpx.HTTPError:
                pass
            if time.monotonic() > deadline or self.proc.poll() is not None:  # type: ignore[union-attr]
                raise SystemExit("opentrix serve did not start")
            time.sleep(0.1)

    def rss_kb(self) -> int:
        if self.proc is None:
            return 0
        for line in Path(f"/proc/{self.proc.pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
        return 0

    def cpu_seconds(self) -> float:
        if self.proc is None:
            return 0.0
        fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / CLK

    def stop(self) -> None:
        if self.proc is None:
            return
        self.proc.terminate()
        try:
            self.proc.wait(10)
        except subprocess.TimeoutExpired:
            self.proc.kill()


@dataclass
class Stats:
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    errors: int = 0
    measuring: bool = False


async def make_table(client: httpx.AsyncClient, base: str, start: bool = True) -> tuple[str, list[str]]:
    r = await client.post(f"{base}/api/tables", json={"name": "P0", "rules": "classic"})
    t = r.json()
    tokens = [t["token"]]
    for i in (1, 2, 3):
        r = await client.post(f"{base}/api/tables/{t['id']}/join", json={"name": f"P{i}"})
        tokens.append(r.json()["token"])
    if start:
        await client.post(f"{base}/api/tables/{t['id']}/start", json={"token": tokens[0]})
    return t["id"], tokens


async def make_tables(client: httpx.AsyncClient, base: str, count: int, start: bool) -> list[tuple[str, list[str]]]:
    sem = asyncio.Semaphore(50)

    async def one() -> tuple[str, list[str]]:
        async with sem:
            return await make_table(client, base, start)

    return list(await asyncio.gather(*(one() for _ in range(count))))


class TableRun:
    """Four scripted players at one table; the table acts at most once per ``period`` seconds."""

    def __init__(self, ws_base: str, code: str, tokens: list[str], period: float, stats: Stats, seed: int) -> None:
        self.ws_base, self.code, self.tokens, self.period, self.stats = ws_base, code, tokens, period, stats
        self.rng = random.Random(seed)
        self.next_slot = time.monotonic() + self.rng.random() * period
        self.sent_at: dict[int, float] = {}

    async def player(self, seat: int, stop: asyncio.Event) -> None:
        async with websockets.connect(f"{self.ws_base}/ws/{self.code}", max_size=1 << 22, close_timeout=1) as ws:
            await ws.send(json.dumps({"type": "hello", "token": self.tokens[seat]}))
            acted: tuple[Any, ...] | None = None
            pending: asyncio.Task[None] | None = None
            async for text in ws:
                if stop.is_set():
                    return
                msg = json.loads(text)
                if msg["type"] == "error":
                    self.stats.errors += 1
                    acted = None
                    continue
                if msg["type"] != "update":
                    continue
                ev = msg["event"]
                if ev and ev.get("kind") == "action" and ev.get("seat") == seat and seat in self.sent_at:
                    lat = time.monotonic() - self.sent_at.pop(seat)
                    if self.stats.measuring:
                        self.stats.latencies.append(lat)
                        self.stats.actions += 1
                v = msg["view"]
                if v["match_over"]:
                    return
                key = (v["deal_number"], v["phase"], len(v["plays"]), len(v["doubled"]), v["turn"])
                if v["turn"] == seat and v["legal_actions"] and key != acted and (pending is None or pending.done()):
                    acted = key
                    pending = asyncio.create_task(self.act(ws, seat, self.rng.choice(v["legal_actions"])))

    async def act(self, ws: Any, seat: int, action: str) -> None:
        now = time.monotonic()
        slot = max(self.next_slot, now)
        self.next_slot = slot + self.period
        if slot > now:
            await asyncio.sleep(slot - now)
        self.sent_at[seat] = time.monotonic()
        with contextlib.suppress(websockets.ConnectionClosed):  # the run may be over
            await ws.send(json.dumps({"type": "act", "action": action}))


async def run_stage(server: Server, tables: int, duration: float, period: float, warmup: float) -> dict[str, Any]:
    stats = Stats()
    limits = httpx.Limits(max_connections=50)
    async with httpx.AsyncClient(limits=limits, timeout=60) as client:
        made = await make_tables(client, server.base, tables, True)
    stop = asyncio.Event()
    runs = [TableRun(server.ws, code, tokens, period, stats, i) for i, (code, tokens) in enumerate(made)]
    tasks = []
    for r in runs:
        for seat in range(4):
            tasks.append(asyncio.create_task(r.player(seat, stop)))
        await asyncio.sleep(0.002)  # connect gradually
    await asyncio.sleep(warmup)
    cpu0, t0, me0 = server.cpu_seconds(), time.monotonic(), time.process_time()
    stats.measuring = True
    await asyncio.sleep(duration)
    stats.measuring = False
    cpu1, t1, me1 = server.cpu_seconds(), time.monotonic(), time.process_time()
    stop.set()
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    lat = sorted(stats.latencies)

    def pct(p: float) -> float:
        return round(1000 * lat[min(len(lat) - 1, int(p * len(lat)))], 1) if lat else float("nan")

    return {
        "tables": tables,
        "actions_per_s": round(stats.actions / (t1 - t0), 1),
        "target_actions_per_s": round(tables / period, 1),
        "p50_ms": pct(0.50),
        "p95_ms": pct(0.95),
        "p99_ms": pct(0.99),
        "mean_ms": round(1000 * statistics.fmean(lat), 1) if lat else float("nan"),
        "server_cpu_percent": round(100 * (cpu1 - cpu0) / (t1 - t0), 1),
        "client_cpu_percent": round(100 * (me1 - me0) / (t1 - t0), 1),
        "server_cpu_ms_per_action": round(1000 * (cpu1 - cpu0) / max(1, stats.actions), 3),
        "errors": stats.errors,
    }


async def idle_memory(folder: Path, count: int) -> dict[str, Any]:
    """Server RSS growth per idle table: in the lobby, and started with every player away."""
    out: dict[str, Any] = {"idle_tables": count}
    for kind, start in (("lobby", False), ("started", True)):
        server = Server(folder / kind)
        try:
            async with httpx.AsyncClient(timeout=60) as client:
                await make_table(client, server.base, start)  # warm every code path first
                await asyncio.sleep(0.5)
                before = server.rss_kb()
                await make_tables(client, server.base, count, start)
            await asyncio.sleep(1.0)
            after = server.rss_kb()
            out[f"{kind}_kb_per_table"] = round((after - before) / count, 1)
        finally:
            server.stop()
    return out


async def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--tables", default="100,250,500,750,1000", help="comma-separated table counts to try")
    ap.add_argument("--duration", type=float, default=20.0, help="seconds measured per table count")
    ap.add_argument("--warmup", type=float, default=5.0, help="seconds before measuring")
    ap.add_argument("--rate", type=float, default=1.0, help="actions per table per second")
    ap.add_argument("--bound", type=float, default=100.0, help="p95 latency bound in ms")
    ap.add_argument("--idle", type=int, default=1000, help="tables for the idle-memory measurement (0: skip)")
    ap.add_argument("--json", action="store_true", help="print one JSON object")
    ap.add_argument("--url", help="load a server that is already running (e.g. http://127.0.0.1:8000) instead")
    args = ap.parse_args()
    counts = [int(x) for x in args.tables.split(",") if x.strip()]
    stages = []
    with tempfile.TemporaryDirectory(prefix="opentrix-load-") as tmp:
        folder = Path(tmp)
        for n in counts:
            (folder / str(n)).mkdir()
            server = Server(folder / str(n), args.url)
            try:
                stage = await run_stage(server, n, args.duration, 1.0 / args.rate, args.warmup)
            finally:
                server.stop()
            stages.append(stage)
            if not args.json:
                print(
                    f"{n:5d} tables: {stage['actions_per_s']:7.1f} actions/s (target {stage['target_actions_per_s']}), "
                    f"p50 {stage['p50_ms']} ms, p95 {stage['p95_ms']} ms, p99 {stage['p99_ms']} ms, "
                    f"CPU server {stage['server_cpu_percent']}% ({stage['server_cpu_ms_per_action']} ms/action) "
                    f"clients {stage['client_cpu_percent']}%, "
                    f"errors {stage['errors']}",
                    flush=True,
                )
        held = [
            s["tables"]
            for s in stages
            if s["p95_ms"] <= args.bound and s["actions_per_s"] >= 0.9 * s["target_actions_per_s"]
        ]
        memory = await idle_memory(folder, args.idle) if args.idle and not args.url else {}
    result = {
        "load_average": os.getloadavg()[0],
        "stages": stages,
        "bound_ms": args.bound,
        "largest_tables_under_bound": max(held) if held else 0,
        "cpus": os.cpu_count(),
        **memory,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(f"largest table count with p95 < {args.bound:g} ms: {result['largest_tables_under_bound']}")
        print(f"(1-minute load average at the end: {result['load_average']:.2f} on {os.cpu_count()} CPUs)")
        if memory:
            print(
                f"memory per idle table: {memory['lobby_kb_per_table']} KB in the lobby, "
                f"{memory['started_kb_per_table']} KB started (players away), over {args.idle} tables"
            )
        elif args.idle and args.url:
            print("(memory per idle table not measured: it needs a server of this script's own, not --url)")


if __name__ == "__main__":
    asyncio.run(main())
