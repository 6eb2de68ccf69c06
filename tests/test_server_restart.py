"""Restarting the server loses nothing: kill the real process mid-deal, start it again, play on."""

from __future__ import annotations

import asyncio
import random
from pathlib import Path

import httpx

from test_server_kit import Player, ServeProcess, check_no_hidden_cards, free_port, record_of


def test_a_killed_server_resumes_the_match_at_the_same_point(tmp_path: Path) -> None:
    database = str(tmp_path / "restart.db")
    port = free_port()
    server = ServeProcess(database, port, "--bot-delay", "0", "--deal-pause", "0", "--grace", "60")
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
        server.kill()  # SIGKILL: no shutdown hook runs
        server = ServeProcess(database, port, "--bot-delay", "0", "--deal-pause", "0", "--grace", "60")

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
            await me.play_to_end(rng)
            await me.close()
            return me

        me = asyncio.run(finish())
        record = record_of(server.base, t["id"])
        assert record.replay().is_over
        assert check_no_hidden_cards(me.messages, 0, record) > 10
    finally:
        server.kill()
