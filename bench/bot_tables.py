"""Tables of hard bots on one server: where the bots think (one thread, or worker processes) against how
many bot moves a second the server makes and how quickly it still answers.

For each ``--bot-processes`` value it starts a fresh ``opentrix serve`` (SQLite in a temporary folder,
no bot delay), opens ``--tables`` tables of a host and three hard bots, and lets every host play at once
(a random legal card, ready for the next deal at once), so that bots think nearly all the time. Over
``--duration`` seconds it counts the bots' moves, and times a health check every 0.1 s and a spectator's
arrival (WebSocket hello to its first update) every 0.5 s. The peer is the default, one bot thread
(``0``), measured in the same run; the ratios are to it.

    python bench/bot_tables.py                       # 0, 1 and 2 worker processes, 8 tables, 30 s each
    python bench/bot_tables.py --processes 0,2 --tables 4 --duration 20 --json

Not a test: the numbers depend on the machine (and on whatever else runs on it).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx
import websockets

sys.path.insert(0, str(Path(__file__).parent))
from load import Server


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


async def host(ws_base: str, code: str, token: str, seed: int, moves: list[int], stop: asyncio.Event) -> None:
    """Play seat 0 as fast as possible and count the bots' moves."""
    rng = random.Random(seed)
    async with websockets.connect(f"{ws_base}/ws/{code}", max_size=1 << 22) as ws:
        await ws.send(json.dumps({"type": "hello", "token": token}))
        acted: set[tuple[Any, ...]] = set()
        while not stop.is_set():
            try:
                msg = json.loads(await asyncio.wait_for(ws.recv(), 0.5))
            except TimeoutError:
                continue
            if msg["type"] != "update":
                continue
            event = msg.get("event") or {}
            if event.get("kind") == "action" and event.get("seat") != 0:
                moves[0] += 1
            v = msg["view"]
            key = (v["deal_number"], v["phase"], len(v["plays"]), len(v["history"]), len(v["doubled"]), v["turn"])
            if v["phase"] == "deal_over" and ("next", v["deal_number"]) not in acted:
                acted.add(("next", v["deal_number"]))
                await ws.send(json.dumps({"type": "next"}))
            elif v["turn"] == 0 and v["legal_actions"] and not v["match_over"] and key not in acted:
                acted.add(key)
                await ws.send(json.dumps({"type": "act", "action": rng.choice(v["legal_actions"])}))


async def measure(processes: int, tables: int, duration: float) -> dict[str, Any]:
    with tempfile.TemporaryDirectory() as folder:
        server = Server(Path(folder), extra=["--bot-processes", str(processes)])
        try:
            async with httpx.AsyncClient(base_url=server.base, timeout=10) as client:
                new = {"name": "Lina", "bots": "hard", "start": True, "rules": "classic", "kingdoms": 4}
                made = [(await client.post("/api/tables", json={**new, "seed": s})).json() for s in range(tables)]
                moves, stop = [0], asyncio.Event()
                plays = [host(server.ws, t["id"], t["token"], i, moves, stop) for i, t in enumerate(made)]
                hosts = [asyncio.create_task(p) for p in plays]
                await asyncio.sleep(3)  # every table under way
                health: list[float] = []
                arrivals: list[float] = []
                start_moves, start = moves[0], time.perf_counter()
                next_arrival = start
                while time.perf_counter() - start < duration:
                    t0 = time.perf_counter()
                    assert (await client.get("/api/health")).status_code == 200
                    health.append(time.perf_counter() - t0)
                    if t0 >= next_arrival:
                        next_arrival = t0 + 0.5
                        code = made[len(arrivals) % tables]["id"]
                        t0 = time.perf_counter()
                        async with websockets.connect(f"{server.ws}/ws/{code}", max_size=1 << 22) as ws:
                            await ws.send(json.dumps({"type": "hello"}))
                            while json.loads(await ws.recv())["type"] != "update":
                                pass
                        arrivals.append(time.perf_counter() - t0)
                    await asyncio.sleep(0.1)
                elapsed = time.perf_counter() - start
                made_moves = moves[0] - start_moves
                stop.set()
                for task in hosts:
                    with contextlib.suppress(Exception):
                        await task
        finally:
            server.stop()
    return {
        "bot_processes": processes,
        "tables": tables,
        "bot_moves_per_s": round(made_moves / elapsed, 2),
        "health_ms": {"median": round(statistics.median(health) * 1000, 1), "p95": round(pct(health, 0.95) * 1000, 1)},
        "spectator_ms": {
            "median": round(statistics.median(arrivals) * 1000, 1),
            "p95": round(pct(arrivals, 0.95) * 1000, 1),
        },
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--processes", default="0,1,2", help="bot worker processes to compare; 0 (one thread) is the peer")
    ap.add_argument("--tables", type=int, default=8)
    ap.add_argument("--duration", type=float, default=30.0)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    counts = [int(x) for x in args.processes.split(",")]
    if 0 not in counts:
        counts = [0, *counts]
    rows = [asyncio.run(measure(n, args.tables, args.duration)) for n in counts]
    peer = rows[counts.index(0)]
    for r in rows:
        r["moves_ratio"] = round(r["bot_moves_per_s"] / peer["bot_moves_per_s"], 2)
    if args.json:
        print(json.dumps(rows, indent=2))
        return
    print(f"{args.tables} tables of hard bots, {args.duration:g} s each; the peer is one bot thread")
    print("bot processes | bot moves/s (ratio) | health median / p95 ms | spectator arrives median / p95 ms")
    for r in rows:
        h, s = r["health_ms"], r["spectator_ms"]
        name = "0 (thread)" if r["bot_processes"] == 0 else str(r["bot_processes"])
        print(
            f"{name:>13} | {r['bot_moves_per_s']:>8} ({r['moves_ratio']:.2f}x) | {h['median']:>7} / {h['p95']:<7}"
            f" | {s['median']:>7} / {s['p95']}"
        )


if __name__ == "__main__":
    main()
