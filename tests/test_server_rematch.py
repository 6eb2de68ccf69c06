"""Playing again with the same people: one rematch table per finished match, each player's new seat token
told to that player only, and the new table's rules, seats and bots those of the old one."""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
import websockets

from opentrix.client import TableLink, find_table
from test_server_kit import LiveServer, Player, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("rematch")) as s:
        yield s


async def told_rematch(p: Player) -> dict[str, Any]:
    return await p.until(lambda m: m["type"] == "rematch", timeout=10)


async def lina_and_omar_finish(
    server: LiveServer, seed: int, rngs: tuple[int, int]
) -> tuple[dict[str, Any], str, Player, Player]:
    """Lina's table (online rules, one kingdom, random bots) with Omar joined at seat 1, both connected,
    played to the end with random cards: the table, Omar's token and the two players."""
    t = server.create(name="Lina", bots="random", rules="online", kingdoms=1, seed=seed)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    omar_token = r.json()["token"]
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    omar = await Player.join(server.ws_base, t["id"], omar_token)
    httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    await asyncio.gather(lina.play_to_end(random.Random(rngs[0]), 120), omar.play_to_end(random.Random(rngs[1]), 120))
    return t, omar_token, lina, omar


async def test_a_lone_player_plays_again_against_the_same_bots(server: LiveServer) -> None:
    t = server.create(name="Lina", bots=["hard", "easy", "random"], start=True, kingdoms=1, rules="online", seed=4)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.play_to_end(random.Random(1), timeout=120)
    await me.send({"type": "rematch"})
    msg = await told_rematch(me)
    assert msg["seat"] == 0 and msg["by"] == 0 and msg["code"] != t["id"] and msg["token"] != t["token"]
    old, new = server.info(t["id"]), server.info(msg["code"])
    assert new["status"] == "playing"  # against bots alone: no lobby to wait in
    levels = [s["level"] for s in new["seats"][1:]]
    assert levels == [s["level"] for s in old["seats"][1:]] == ["hard", "easy", "random"]
    assert new["preset"] == "online" and new["seed"] is None and not new["options"].get("seeded")
    assert new["seats"][0]["name"] == "Lina"
    # Everyone at the old table sees where the match went on; the new token seats Lina there.
    update = next(m for m in me.messages if m["type"] == "update" and m["table"]["rematch"] is not None)
    assert update["event"]["kind"] == "rematch"
    assert update["table"]["rematch"] == {"code": msg["code"], "seat": 0, "players": [0]}
    await me.close()
    # While the finished table is still loaded, joining or starting it is a conflict too (409), as after.
    for what, body in (("join", {"name": "Late"}), ("start", {"token": t["token"]})):
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/{what}", json=body, timeout=10)
        assert r.status_code == 409 and "is over" in r.json()["error"], (what, r.text)
    again = await Player.join(server.ws_base, msg["code"], msg["token"])
    assert again.seat == 0
    await again.until(lambda m: m["type"] == "update")
    assert again.view is not None and again.view["hand"]  # dealt, and playing
    await again.close()
    # Put away, the finished match still shows where it went on (its seat tokens are not kept).
    await asyncio.to_thread(server.put_away, t["id"])
    stored = server.info(t["id"])
    assert stored["stored"] is True and stored["rematch"] == {"code": msg["code"], "seat": 0, "players": [0]}
    assert msg["token"] not in str(stored)
    assert stored["deals_dealt"] >= 5 and "deal_number" not in stored  # a count, unlike the view's number
    # Joining or starting it says the match is over, not that there is no such table.
    for what, body in (("join", {"name": "Late"}), ("start", {"token": t["token"]})):
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/{what}", json=body, timeout=10)
        assert r.status_code == 409 and "is over" in r.json()["error"], (what, r.text)
    r = httpx.post(f"{server.base}/api/tables/ZZZZZZ/join", json={"name": "Late"}, timeout=10)
    assert r.status_code == 404 and "no table" in r.json()["error"]


async def test_friends_get_each_their_own_seat_at_the_rematch(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", rules="online", kingdoms=1, seed=8)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    omar_token = r.json()["token"]
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    omar = await Player.join(server.ws_base, t["id"], omar_token)
    watcher = await Player.join(server.ws_base, t["id"])
    httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    await asyncio.gather(lina.play_to_end(random.Random(2), 120), omar.play_to_end(random.Random(3), 120))

    # Before: a spectator may not ask; after, Omar asks, twice, and one table is made.
    await watcher.send({"type": "rematch"})
    assert "spectators may watch" in await watcher.error()
    await omar.send({"type": "rematch"})
    await omar.send({"type": "rematch"})
    to_omar, to_lina = await told_rematch(omar), await told_rematch(lina)
    assert to_omar["code"] == to_lina["code"] and (to_omar["seat"], to_lina["seat"]) == (1, 0)
    assert to_omar["token"] != to_lina["token"] and to_lina["by"] == 1
    again = await told_rematch(omar)  # the second ask tells him again, of the same table
    assert again == to_omar
    code = to_omar["code"]
    new = server.info(code)
    assert new["status"] == "lobby" and new["host_seat"] == 1  # friends meet in the lobby; Omar hosts
    assert [(s["kind"], s["name"]) for s in new["seats"][:2]] == [("human", "Lina"), ("human", "Omar")]
    assert [s["kind"] for s in new["seats"][2:]] == ["bot", "bot"]  # no open seat for a stranger to take
    # The spectator learns where the match went on, and no one's token.
    msg = await watcher.until(lambda m: m["type"] == "update" and m["table"]["rematch"] is not None)
    assert msg["table"]["rematch"]["code"] == code
    assert not any(tok in text for text in watcher.raw for tok in (to_omar["token"], to_lina["token"]))
    assert not any(to_lina["token"] in text for text in omar.raw)
    # Omar, the host there, starts it; each token seats its own player.
    new_lina = await Player.join(server.ws_base, code, to_lina["token"])
    assert new_lina.seat == 0
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": to_lina["token"]}, timeout=10)
    assert r.status_code == 400 and "only the host" in r.text
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": to_omar["token"]}, timeout=10)
    assert r.status_code == 200, r.text
    for p in (lina, omar, watcher, new_lina):
        await p.close()


async def test_a_player_who_left_for_a_moment_is_told_when_he_comes_back(server: LiveServer) -> None:
    t, omar_token, lina, omar = await lina_and_omar_finish(server, seed=9, rngs=(4, 5))
    await omar.close()
    await lina.send({"type": "rematch"})
    code = (await told_rematch(lina))["code"]
    back = await Player.join(server.ws_base, t["id"], omar_token)
    msg = await told_rematch(back)
    assert msg["code"] == code and msg["seat"] == 1
    seated = await Player.join(server.ws_base, code, msg["token"])
    assert seated.seat == 1
    for p in (lina, back, seated):
        await p.close()


async def test_a_seat_a_bot_took_over_stays_a_bot(tmp_path: Any) -> None:
    """Omar left mid-match and a bot finished for him: the rematch seats that bot, not a human who may
    never come, and Lina, the one player left, plays on at once."""
    with live_server(tmp_path, grace=0.2) as server:
        t = server.create(name="Lina", bots="easy", rules="online", kingdoms=1, seed=12)
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
        omar = await Player.join(server.ws_base, t["id"], r.json()["token"])
        lina = await Player.join(server.ws_base, t["id"], t["token"])
        httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
        await omar.close()
        await lina.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["away"], timeout=5)
        await lina.play_to_end(random.Random(6), timeout=120)
        await lina.send({"type": "rematch"})
        msg = await told_rematch(lina)
        new = server.info(msg["code"])
        assert new["status"] == "playing" and new["seats"][1]["kind"] == "bot"
        assert server.info(t["id"])["rematch"]["players"] == [0]  # so his old page offers him only to watch
        # at the level that stood in for him, not the one the host chose for the open seat he took
        assert new["seats"][1]["level"] == server.settings.substitute_level != "easy"
        await lina.close()


async def test_a_player_whose_stand_in_finished_the_match_can_still_ask_for_a_rematch(tmp_path: Any) -> None:
    """Lina let her move timer run out and a bot played the match out for her: her asking for a rematch
    says she is there, so she keeps her seat and hosts it (it once made a table of four bots)."""
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, rules="online", kingdoms=1, seed=14, timer=1)
        lina = await Player.join(server.ws_base, t["id"], t["token"])
        await lina.until(lambda m: m["type"] == "update" and m["view"]["match_over"], timeout=120)
        assert lina.table is not None and lina.table["seats"][0]["away"]
        await lina.send({"type": "rematch"})
        msg = await told_rematch(lina)
        new = server.info(msg["code"])
        assert new["status"] == "playing" and new["host_seat"] == 0
        assert new["seats"][0]["kind"] == "human" and new["seats"][0]["name"] == "Lina"
        await lina.close()


async def test_a_rematch_that_cannot_be_made_is_told_to_every_player(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, _, lina, omar = await lina_and_omar_finish(server, seed=13, rngs=(8, 9))
    hub = server.app.state.hub
    real = hub._open

    async def broken(*args: Any) -> Any:
        await asyncio.sleep(0.3)  # Omar asks meanwhile, and waits for the same table
        raise OSError("the disk is full")

    monkeypatch.setattr(hub, "_open", broken)
    await lina.send({"type": "rematch"})
    await asyncio.sleep(0.1)
    await omar.send({"type": "rematch"})
    for p in (lina, omar):
        assert "could not be made" in await p.error()
    monkeypatch.setattr(hub, "_open", real)
    await omar.send({"type": "rematch"})  # asking again works
    assert (await told_rematch(lina))["by"] == 1
    for p in (lina, omar):
        await p.close()


async def test_no_rematch_before_the_match_is_over(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.send({"type": "rematch"})
    assert "once the match is over" in await me.error()
    assert server.info(t["id"])["status"] == "playing"
    await me.close()


def test_a_rematch_of_a_seeded_table_deals_from_a_drawn_seed(tmp_path: Any) -> None:
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, kingdoms=1, rules="online", seed=77)

        async def go() -> dict[str, Any]:
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.play_to_end(random.Random(7), timeout=120)
            await me.send({"type": "rematch"})
            msg = await told_rematch(me)
            await me.close()
            return msg

        msg = asyncio.run(go())
        new = server.info(msg["code"])
        assert new["seed"] is None and "seeded" not in new["options"]
        assert server.app.state.hub.tables[msg["code"]].seed != 77


async def test_a_player_away_at_the_rematch_takes_his_seat_after_the_old_table_is_put_away(
    server: LiveServer,
) -> None:
    """Omar's new token was only ever in the finished table's memory; once that table is put away, his
    token there still takes his seat at the rematch (and never shows in any public answer)."""
    t, omar_token, lina, omar = await lina_and_omar_finish(server, seed=9, rngs=(4, 5))
    await omar.close()  # away, within the grace period: he keeps his seat at the rematch
    await lina.send({"type": "rematch"})
    code = (await told_rematch(lina))["code"]
    await lina.close()
    await asyncio.to_thread(server.put_away, t["id"])
    back = await Player.join(server.ws_base, code, omar_token)
    assert back.seat == 1
    await back.close()
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).text
    assert "heirs" not in info
    stranger = await Player.join(server.ws_base, code, "not-a-token")
    assert stranger.seat is None
    await stranger.close()


async def test_a_seat_freed_at_the_rematch_is_not_taken_back_with_the_old_tables_token(
    server: LiveServer,
) -> None:
    """At the rematch the finished table's token seats its player too; once the host frees that seat
    and someone else sits there, the old token must seat nobody (it would have taken Sami's seat)."""
    _, omar_token, lina, omar = await lina_and_omar_finish(server, seed=10, rngs=(6, 7))
    await omar.close()
    await lina.send({"type": "rematch"})
    told = await told_rematch(lina)
    code = told["code"]
    await lina.close()
    free = {"token": told["token"], "seat": 1, "name": "Omar"}
    r = httpx.post(f"{server.base}/api/tables/{code}/free", json={**free, "name": "Rana"}, timeout=10)
    assert r.status_code == 400 and "is now Omar's" in r.json()["error"]  # the page showed someone else there
    assert httpx.post(f"{server.base}/api/tables/{code}/free", json=free, timeout=10).status_code == 200
    sami = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Sami", "seat": 1}, timeout=10)
    assert sami.status_code == 200
    back = await Player.join(server.ws_base, code, omar_token)
    assert back.seat is None and back.errors[0].startswith("that seat token is not valid")
    await back.close()
    seated = await Player.join(server.ws_base, code, sami.json()["token"])
    assert seated.seat == 1
    await seated.close()


async def test_a_finished_match_a_stopped_servers_lease_still_holds_is_waited_for_then_taken_up(
    server: LiveServer,
) -> None:
    """A server on another machine (or in another container) stopped with the match open at its final
    standings: nothing here can see that it is gone, so its lease is waited out. Meanwhile the table's
    facts say ``pending`` (the page waits instead of showing the record without a rematch); then the
    table is taken up, and Lina's Rematch makes the new table."""
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1, rules="online", seed=9)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.play_to_end(random.Random(3), timeout=120)
    await me.close()
    server.put_away(t["id"])
    assert "pending" not in server.info(t["id"])  # put away here: a record

    server.held_elsewhere(t["id"], 300)
    facts = server.info(t["id"])
    assert facts["stored"] and facts["pending"] and facts["status"] == "finished"
    with pytest.raises(websockets.ConnectionClosed) as refused:
        await Player.join(server.ws_base, t["id"], t["token"])  # not yet: the page tries again
    assert refused.value.rcvd is not None and refused.value.rcvd.code == 4409  # try again, not "no table" 4404
    link = TableLink(find_table(f"{server.base}/t/{t['id']}"), t["token"], lambda m: None)  # a terminal's
    running = asyncio.create_task(link.run())
    await asyncio.sleep(1.0)
    assert not running.done() and not link.connected.is_set()  # it waits, as the page does
    server.held_elsewhere(t["id"], -1)  # the lease ran out
    await asyncio.wait_for(link.connected.wait(), 15)  # taken up here when it tried again
    await link.close()
    await asyncio.wait_for(running, 10)
    facts = server.info(t["id"])
    assert "stored" not in facts and facts["status"] == "finished"  # taken up here
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    await lina.until(lambda m: m["type"] == "update")
    await lina.send({"type": "rematch"})
    told = await told_rematch(lina)
    assert told["seat"] == 0 and server.info(told["code"])["seats"][0]["name"] == "Lina"
    await lina.close()
    server.put_away(t["id"])
    facts = server.info(t["id"])
    assert facts["stored"] and "pending" not in facts and facts["rematch"]["code"] == told["code"]


async def test_a_match_taken_up_at_its_final_standings_seats_at_the_rematch_only_who_came_back(
    server: LiveServer,
) -> None:
    """Taken up after its server stopped, a finished table cannot know who had left before (a player a
    bot stood in for, a program): only the players who come back have a seat at the rematch. Omar does
    not come back, so Lina's rematch starts at once with a bot in his seat rather than waiting for him."""
    t, _omar_token, lina, omar = await lina_and_omar_finish(server, 12, (1, 2))
    await asyncio.gather(lina.close(), omar.close())
    server.put_away(t["id"])
    server.held_elsewhere(t["id"], -1)  # a server elsewhere had it open, and stopped
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    await lina.until(lambda m: m["type"] == "update")
    await lina.send({"type": "rematch"})
    told = await told_rematch(lina)
    new = server.info(told["code"])
    assert new["status"] == "playing" and [s["kind"] for s in new["seats"]][:2] == ["human", "bot"]
    await lina.close()
