"""Restarting the server loses nothing: kill the real process mid-deal, start it again, play on. Two
servers on one database never play the same table: each holds its tables under a lease."""

from __future__ import annotations

import asyncio
import random
import signal
import sqlite3
import time
from pathlib import Path

import httpx
import websockets

from test_server_kit import Player, ServeProcess, check_no_hidden_cards, free_port, record_of


def test_a_killed_server_resumes_the_match_at_the_same_point(tmp_path: Path) -> None:
    database = str(tmp_path / "restart.db")
    port = free_port()
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60", "--lease", "2")
    server = ServeProcess(database, port, *fast)
    try:
        r = httpx.post(
            f"{server.base}/api/tables",
            json={"name": "Lina", "bots": "random", "start": True, "seed": 77, "kingdoms": 1, "rules": "online"},
            timeout=10,
        )
        t = r.json()
        rng = random.Random(3)

        async def play_into_second_deal() -> dict[str, object]:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.send({"type": "chat", "text": "yalla, one more"})  # the talk is kept too
            await me.until(lambda m: m["type"] == "chat")
            # Into the second deal, a few tricks in, at our turn (the bots then wait for us).
            while not (
                me.view
                and me.view["deal_number"] == 1
                and me.view["phase"] == "play"
                and len(me.view["plays"]) >= 9
                and me.my_turn()
            ):
                await me.play_random(rng)
                await me.recv()
            await me.close()
            assert me.view is not None
            return me.view

        before = asyncio.run(play_into_second_deal())
        server.kill()  # SIGKILL: no shutdown hook runs; the next server sees the holder is gone
        server = ServeProcess(database, port, *fast)
        deadline = time.monotonic() + 10
        while "seats" not in httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10).json():
            assert time.monotonic() < deadline, "the restarted server did not take the table up"
            time.sleep(0.2)

        async def resume() -> Player:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.until(lambda m: m["type"] == "update")
            return me

        async def finish() -> Player:
            me = await resume()
            after = me.view
            assert after is not None
            for key in ("deal_number", "phase", "turn", "hand", "plays", "trick", "doubled", "totals", "history"):
                assert after[key] == before[key], key
            welcome = next(m for m in me.messages if m["type"] == "welcome")
            assert [(c["name"], c["text"]) for c in welcome["chat"]] == [("Lina", "yalla, one more")]
            await me.play_to_end(rng)
            await me.close()
            return me

        me = asyncio.run(finish())
        record = record_of(server.base, t["id"])
        assert record.replay().is_over
        assert check_no_hidden_cards(me.messages, 0, record) > 10
        with sqlite3.connect(database) as db:  # the match is over: its talk is deleted with it
            assert db.execute("SELECT count(*) FROM trix_chat").fetchone() == (0,)
    finally:
        server.kill()


def test_two_servers_on_one_database_never_play_the_same_table(tmp_path: Path) -> None:
    """The second server leaves the first one's tables alone (before leases it replayed them too and its
    writes collided); after the first stops cleanly, the second takes its unfinished table up."""
    database = str(tmp_path / "shared.db")
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60")
    first = ServeProcess(database, free_port(), *fast)
    second: ServeProcess | None = None
    try:
        new = {"name": "Lina", "bots": "random", "start": True, "kingdoms": 1, "rules": "online"}
        played = httpx.post(f"{first.base}/api/tables", json={**new, "seed": 5}, timeout=10).json()
        left = httpx.post(f"{first.base}/api/tables", json={**new, "seed": 6}, timeout=10).json()
        second = ServeProcess(database, free_port(), *fast)
        info = httpx.get(f"{second.base}/api/tables/{played['id']}", timeout=10).json()
        assert "seats" not in info and info["status"] == "playing"  # the store's facts only: not played here

        async def refused() -> str:
            async with websockets.connect(f"{second.ws_base}/ws/{played['id']}") as ws:
                return str(await ws.recv())

        assert "is played by another opentrix server using this database" in asyncio.run(refused())

        async def play_out() -> None:
            me = await Player.join(first.ws_base, played["id"], played["token"])
            await me.play_to_end(random.Random(4))
            await me.close()

        asyncio.run(play_out())
        assert record_of(first.base, played["id"]).replay().is_over
        out = first.stop()
        assert "Traceback" not in out, out
        deadline = time.monotonic() + 15  # the second server looks for free tables every lease/3 seconds
        while "seats" not in httpx.get(f"{second.base}/api/tables/{left['id']}", timeout=10).json():
            assert time.monotonic() < deadline, "the second server did not take up the released table"
            time.sleep(0.2)

        async def resumed() -> None:
            me = await Player.join(second.ws_base, left["id"], left["token"])
            assert me.seat == 0
            await me.play_to_end(random.Random(5))
            await me.close()

        asyncio.run(resumed())
        assert record_of(second.base, left["id"]).replay().is_over
        out = second.stop()
        assert "Traceback" not in out and "UNIQUE" not in out, out
    finally:
        for server in (first, second):
            if server is not None and server.proc.poll() is None:
                server.kill()


def test_a_server_restarted_between_two_deals_takes_the_match_up_in_the_next_deal(tmp_path: Path) -> None:
    """Dealing is not stored, so the match is rebuilt at the end of the last deal played: the players
    come back to the next deal (as they most likely were), not to the summary of the one before."""
    database = str(tmp_path / "restart.db")
    port = free_port()
    slow_summary = ("--bot-delay", "0", "--deal-pause", "30", "--grace", "60", "--lease", "2")
    server = ServeProcess(database, port, *slow_summary)
    try:
        body = {"name": "Lina", "bots": "random", "start": True, "seed": 5, "kingdoms": 1, "rules": "classic"}
        t = httpx.post(f"{server.base}/api/tables", json=body, timeout=10).json()
        rng = random.Random(8)

        async def into_the_second_deal() -> dict[str, object]:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            while not (me.view and me.view["deal_number"] == 1):
                await me.play_random(rng)  # says "next" at the summary: the second deal comes at once
                await me.recv()
            await me.close()
            return me.view

        dealt = asyncio.run(into_the_second_deal())
        server.kill()
        server = ServeProcess(database, port, *slow_summary)

        async def back() -> dict[str, object]:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.until(lambda m: m["type"] == "update")
            await me.close()
            assert me.view is not None
            return me.view

        after = asyncio.run(back())
        assert (after["deal_number"], after["hand"]) == (1, dealt["hand"])  # her hand, none of it played
        assert after["phase"] != "deal_over"  # (the bots may have gone on: they play their own seats)
    finally:
        server.kill()


def test_players_at_the_final_standings_still_get_their_rematch_after_a_restart(tmp_path: Path) -> None:
    """The server stops while Lina looks at the final standings (killed, then stopped cleanly): the next
    one takes the finished match up when she comes back, and her Rematch makes the new table. A match
    ended before a restart stays a stored record when a rematch was made already."""
    database = str(tmp_path / "final.db")
    port = free_port()
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60", "--lease", "2")
    server = ServeProcess(database, port, *fast)
    tables = []
    try:
        for seed in (5, 6):
            r = httpx.post(
                f"{server.base}/api/tables",
                json={"name": "Lina", "bots": "random", "start": True, "seed": seed, "kingdoms": 1, "rules": "online"},
                timeout=10,
            )
            tables.append(r.json())

        async def finish(t: dict[str, str]) -> None:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.play_to_end(random.Random(2), timeout=120)
            await me.close()

        async def rematch(t: dict[str, str]) -> dict[str, object]:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.until(lambda m: m["type"] == "update")
            assert me.view is not None and me.view["match_over"]
            await me.send({"type": "rematch"})
            told = await me.until(lambda m: m["type"] == "rematch")
            await me.close()
            return told

        async def look(t: dict[str, str]) -> None:  # opened again: held by this server at its stop
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.until(lambda m: m["type"] == "update")
            await me.close()

        for t in tables:
            asyncio.run(finish(t))
        server.kill()  # SIGKILL at the final standings
        server = ServeProcess(database, port, *fast)
        assert httpx.get(f"{server.base}/api/tables/{tables[0]['id']}", timeout=10).json()["status"] == "finished"
        told = asyncio.run(rematch(tables[0]))
        assert told["seat"] == 0 and told["code"] != tables[0]["id"]
        new = httpx.get(f"{server.base}/api/tables/{told['code']}", timeout=10).json()
        assert new["status"] == "playing" and new["seats"][0]["name"] == "Lina"
        asyncio.run(look(tables[1]))
        server.stop(signal.SIGTERM)  # a clean stop, with the second match open at its final standings
        server = ServeProcess(database, port, *fast)
        assert asyncio.run(rematch(tables[1]))["seat"] == 0
        server.kill()
        server = ServeProcess(database, port, *fast)
        facts = httpx.get(f"{server.base}/api/tables/{tables[0]['id']}", timeout=10).json()
        assert facts["stored"] and facts["rematch"]["code"] == told["code"]  # a record, pointing to its rematch
    finally:
        server.kill()
