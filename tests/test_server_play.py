"""Whole matches over the WebSocket: lobby, hidden cards, reconnects, grace periods, timers and history."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import random
import re
import signal
import sqlite3
import subprocess
import sys
import time
import zlib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import psycopg
import pytest

import opentrix
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import Rules
from opentrix.server.hub import Hub, NewTable
from opentrix.server.settings import Settings, database_url
from opentrix.server.storage import Storage
from opentrix.server.table import TableError
from opentrix.verify import summary
from test_server_kit import (
    PG_URL,
    LiveServer,
    Player,
    check_no_hidden_cards,
    free_port,
    live_server,
    pg_schema,
    record_of,
)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("play"), grace=0.4, host_grace=0.4) as s:
        yield s


@pytest.mark.parametrize(
    "options",
    [
        {"rules": "classic"},  # a full match: four kingdoms, twenty deals
        {"rules": "online", "kingdoms": 1},
        {"rules": "wikipedia", "kingdoms": 1},
        {"rules": "complex"},
        {"rules": "denexa", "kingdoms": 1, "partnership": True},
    ],
    ids=["classic-full", "online", "wikipedia", "complex", "denexa-partnership"],
)
async def test_no_message_shows_another_seats_hidden_cards(server: LiveServer, options: dict[str, object]) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=zlib.crc32(repr(options).encode()) % 1000, **options)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    watcher = await Player.join(server.ws_base, t["id"])
    await me.play_to_end(random.Random(5), timeout=90)
    await watcher.until(lambda m: m["type"] == "update" and m["view"]["match_over"], timeout=30)
    record = record_of(server.base, t["id"])
    assert check_no_hidden_cards(me.messages, 0, record) > 20
    assert check_no_hidden_cards(watcher.messages, None, record) > 20
    # The stored record is a valid, finished match with the totals the players saw.
    doc = summary(record.replay())
    assert doc["match_over"] and doc["totals"] == me.view["totals"]
    assert record.players == ["Lina", "bot:random", "bot:random", "bot:random"]
    await me.close()
    await watcher.close()


async def test_four_friends_each_see_only_their_own_hand(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", rules="wikipedia", kingdoms=1, seed=42)
    tokens = {0: t["token"]}
    for seat, name in ((1, "Omar"), (2, "Rana"), (3, "Sami")):
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": name}, timeout=10)
        assert r.status_code == 200, r.text
        assert r.json()["seat"] == seat
        tokens[seat] = r.json()["token"]
    players = [await Player.join(server.ws_base, t["id"], tokens[s]) for s in range(4)]
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": tokens[0]}, timeout=10)
    assert r.status_code == 200, r.text
    rng = random.Random(9)

    async def play(p: Player) -> None:
        await p.play_to_end(rng, timeout=90)

    await asyncio.gather(*(play(p) for p in players))
    record = record_of(server.base, t["id"])
    for seat, p in enumerate(players):
        assert check_no_hidden_cards(p.messages, seat, record) > 20
        await p.close()
    assert record.players == ["Lina", "Omar", "Rana", "Sami"]


async def test_a_second_player_of_the_same_name_is_told_apart(server: LiveServer) -> None:
    """Two Omars at one table would make "Omar to play" and the record ambiguous: the second is "Omar (2)"."""
    code = server.create(name="Omar", bots=["hard", "easy", "random"])["id"]
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "omar", "seat": 2}, timeout=10)
    assert r.status_code == 200 and r.json()["name"] == "omar (2)"
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Lina"}, timeout=10)
    assert r.json()["name"] == "Lina"
    seated = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()["seats"]
    assert [s["name"] for s in seated] == ["Omar", "Lina", "omar (2)", None]


async def test_lobby_invite_and_start(server: LiveServer) -> None:
    t = server.create(name="Lina", bots=["hard", "easy", "random"], timer=30)
    code = t["id"]
    assert re.fullmatch(r"[A-Z2-9]{6}", code)
    watcher = await Player.join(server.ws_base, code)
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert info["status"] == "lobby"
    assert [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
    assert [s["level"] for s in info["seats"]] == [None, "hard", "easy", "random"]
    assert [s["connected"] for s in info["seats"]] == [False, False, False, False]  # an open seat has nobody
    assert "token" not in str(info) and t["token"] not in str(info)
    # A friend takes seat 2 through the invite code; seat 2 cannot be taken twice.
    r = httpx.post(f"{server.base}/api/tables/{code.lower()}/join", json={"name": "Omar", "seat": 2}, timeout=10)
    assert r.status_code == 200 and r.json()["seat"] == 2
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Rana", "seat": 2}, timeout=10)
    assert r.status_code == 400 and "already taken" in r.json()["error"]
    lobby_view = (await watcher.until(lambda m: m["type"] == "update" and m["table"]["seats"][2]["kind"] == "human"))[
        "view"
    ]
    # Nobody sees the first deal before the start, nor whom it makes king: a host could otherwise
    # make tables until he liked his hand.
    host = await Player.join(server.ws_base, code, t["token"])
    mine = (await host.until(lambda m: m["type"] == "update"))["view"]
    assert mine["seat"] == 0 and mine["hand"] is None and mine["legal_actions"] == []
    assert mine["king"] is None and mine["turn"] is None
    assert lobby_view["seat"] is None and lobby_view["hand"] is None and lobby_view["king"] is None
    summary = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert summary["timer"]["seat"] is None  # nor through the table's facts (the king acts first)
    await host.close()
    # The friend cannot start; the host can, and bots fill the empty seats.
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": "x"}, timeout=10)
    assert r.status_code == 400
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": t["token"]}, timeout=10)
    assert r.status_code == 200
    msg = await watcher.until(lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
    assert [s["kind"] for s in msg["table"]["seats"]] == ["human", "bot", "human", "bot"]
    assert msg["table"]["options"]["timer"] == 30
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Late"}, timeout=10)
    assert r.status_code == 400 and "already started" in r.json()["error"]
    await watcher.close()


def test_a_start_the_store_could_not_keep_leaves_the_lobby_as_it_was(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails as the host starts: the match has not started, so the seats that were to be
    bots stay open for friends (they used to show as bots, and nobody could join), and starting again
    works."""
    import sqlalchemy as sa

    t = server.create(name="Lina", bots="random")
    code = t["id"]
    storage = server.app.state.hub.storage
    real = storage.update_seats
    failed: list[object] = []

    def down_once(table_id: str, seats: Any, status: str | None = None) -> None:
        if status is not None and not failed:
            failed.append(status)
            raise sa.exc.OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))
        real(table_id, seats, status)

    monkeypatch.setattr(storage, "update_seats", down_once)
    start = {"token": t["token"]}
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json=start, timeout=10)
    assert r.status_code >= 500 and failed == ["playing"], r.text
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert info["status"] == "lobby" and [s["kind"] for s in info["seats"]] == ["human", "open", "open", "open"]
    stored = storage.load_table(code)  # what a restart, or a wake, would show
    assert stored is not None and stored.status == "lobby"
    assert [s.kind for s in stored.seats] == ["human", "open", "open", "open"]
    r = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Omar"}, timeout=10)
    assert r.status_code == 200 and r.json()["seat"] == 1
    assert httpx.post(f"{server.base}/api/tables/{code}/start", json=start, timeout=10).status_code == 200
    info = httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()
    assert info["status"] == "playing" and [s["kind"] for s in info["seats"]] == ["human", "human", "bot", "bot"]


async def test_a_host_gone_from_the_lobby_hands_the_start_to_a_friend_who_is_there(server: LiveServer) -> None:
    """Lina made the table, sent the link and closed her page; Omar, who is there, would wait for ever
    for her start. After the host's grace period (0.4 s here) the start is his: he is told, his token starts
    the match, hers no longer does, and the store keeps the new host (a restart does not undo it).
    A friend seated but not there is not made host: nobody would be there to start."""
    t = server.create(name="Lina", bots="random")
    code = t["id"]
    rana = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Rana", "seat": 1}, timeout=10).json()
    omar = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Omar", "seat": 3}, timeout=10).json()
    lina = await Player.join(server.ws_base, code, t["token"])
    await lina.until(lambda m: m["type"] == "update")
    await lina.close()
    await asyncio.sleep(1.0)  # gone past her grace, with nobody else there: she stays host
    assert httpx.get(f"{server.base}/api/tables/{code}", timeout=10).json()["host_seat"] == 0
    here = await Player.join(server.ws_base, code, omar["token"])
    told = await here.until(lambda m: m["type"] == "update" and (m.get("event") or {}).get("kind") == "host")
    assert told["event"]["seat"] == 3 and told["table"]["host_seat"] == 3
    assert rana["seat"] == 1  # seated before Omar in seat order, but not there
    store = Storage(database_url(server.settings.database))
    try:
        row = store.load_table(code)
        assert row is not None and row.host_seat == 3
    finally:
        store.close()
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": t["token"]}, timeout=10)
    assert r.status_code == 400 and "only the host" in r.json()["error"]
    r = httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": omar["token"]}, timeout=10)
    assert r.status_code == 200
    await here.until(lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
    await here.close()


async def test_the_host_frees_a_seat_taken_in_the_lobby(server: LiveServer) -> None:
    """A stranger found the link and sat down: the host (and only the host) gives the seat back to the
    table. It is open again with the bot level the host chose, the stranger's token stops working and
    his connection goes on watching, told why; a friend can take the seat. Not the host's own seat,
    not an open one, not once the match has started."""
    t = server.create(name="Lina", bots=["random", "hard", "easy", "medium"])
    code = t["id"]
    # The host is there: gone from the lobby for this module's host grace (0.4 s), his hosting would
    # pass to the stranger while the test runs on a slow machine.
    lina = await Player.join(server.ws_base, code, t["token"])

    def free(token: str, seat: object) -> httpx.Response:
        return httpx.post(f"{server.base}/api/tables/{code}/free", json={"token": token, "seat": seat}, timeout=10)

    omar = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Omar", "seat": 1}, timeout=10).json()
    stranger = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Zed", "seat": 2}, timeout=10).json()
    zed = await Player.join(server.ws_base, code, stranger["token"])
    await zed.until(lambda m: m["type"] == "update")
    assert zed.seat == 2
    r = free(omar["token"], 2)
    assert r.status_code == 400 and "only the host can free a seat" in r.json()["error"]
    for seat, says in ((0, "own seat cannot be freed"), (3, "seat 3 has no player to free"), (7, "seat")):
        r = free(t["token"], seat)
        assert r.status_code == 400 and says in r.json()["error"], r.text
    assert free(t["token"], 2).status_code == 200
    told = await zed.until(lambda m: m["type"] == "unseated")
    assert told == {"type": "unseated", "seat": 2}
    watching = await zed.until(lambda m: m["type"] == "update" and m["view"]["seat"] is None)
    seats = watching["table"]["seats"]
    assert seats[2]["kind"] == "open" and seats[2]["level"] == "easy" and seats[2]["name"] is None
    back = await Player.join(server.ws_base, code, stranger["token"])  # his token no longer seats him
    assert back.seat is None and back.errors[0].startswith("that seat token is not valid")
    await back.close()
    await zed.send({"type": "chat", "text": "hi"})  # nor can he write as the seat
    assert "take a seat first" in (await zed.until(lambda m: m["type"] == "error"))["message"]
    store = Storage(database_url(server.settings.database))
    try:
        row = store.load_table(code)
        assert row is not None and row.seats[2].kind == "open" and row.seats[2].token_hash is None
    finally:
        store.close()
    rana = httpx.post(f"{server.base}/api/tables/{code}/join", json={"name": "Rana", "seat": 2}, timeout=10)
    assert rana.status_code == 200
    assert httpx.post(f"{server.base}/api/tables/{code}/start", json={"token": t["token"]}, timeout=10).is_success
    r = free(t["token"], 1)
    assert r.status_code == 400 and "only in the lobby" in r.json()["error"]
    await zed.close()
    await lina.close()


async def test_reconnect_catches_up_or_resyncs(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=8)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    rng = random.Random(2)
    while not (me.view and me.view["phase"] == "play" and len(me.view["plays"]) >= 6 and me.my_turn()):
        await me.play_random(rng)
        await me.recv()
    last, epoch, view_before = me.n, me.epoch, me.view
    await me.close()
    # Away for a moment: someone else watching sees nothing of our hand; we come back.
    again = await Player.join(server.ws_base, t["id"], t["token"], last=last, epoch=epoch)
    catchup = await again.until(lambda m: m["type"] == "catchup")
    assert catchup["from"] == last
    update = await again.until(lambda m: m["type"] == "update")
    assert update["resync"] is False
    assert update["view"]["hand"] == view_before["hand"] and update["view"]["plays"] == view_before["plays"]
    await again.close()
    # A client from another server life (wrong epoch) or too far behind gets a full resync.
    third = await Player.join(server.ws_base, t["id"], t["token"], last=last, epoch="other")
    update = await third.until(lambda m: m["type"] == "update")
    assert update["resync"] is True and update["view"]["hand"] == view_before["hand"]
    await third.close()


async def test_players_learn_how_many_watch_without_waiting_for_a_move(server: LiveServer) -> None:
    # Seat 0 is king and thinks: nothing moves while people open and close the spectators' link.
    seed = next(s for s in range(100) if Match(Rules(), seed=s).king == 0)
    t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.until(lambda m: m["type"] == "update" and me.my_turn())
    await me.send({"type": "ping"})
    await me.until(lambda m: m["type"] == "pong")  # the updates of our arrival are in
    n = me.n
    first = await Player.join(server.ws_base, t["id"])
    told = await me.until(lambda m: m["type"] == "watching", timeout=5)
    assert told == {"type": "watching", "spectators": 1}
    # Twenty more come at once, then go: the players hear of the crowd, not of every arrival and
    # departure (forty messages), and never twice within two seconds, so the link cannot flood them.
    heard = [time.monotonic()]
    crowd = [await Player.join(server.ws_base, t["id"]) for _ in range(20)]
    while (await me.until(lambda m: m["type"] == "watching", timeout=6))["spectators"] != 21:
        heard.append(time.monotonic())
    heard.append(time.monotonic())
    for p in crowd:
        await p.close()
    while (await me.until(lambda m: m["type"] == "watching", timeout=6))["spectators"] != 1:
        heard.append(time.monotonic())
    heard.append(time.monotonic())
    counts = [m["spectators"] for m in me.messages if m["type"] == "watching"]
    assert counts[0] == 1 and 21 in counts and counts[-1] == 1 and len(counts) <= 6, counts
    # Server spacing is at least 2 s; what we measure on receipt may shrink by scheduling delays only.
    assert all(b - a >= 1.0 for a, b in itertools.pairwise(heard)), heard
    await first.close()
    assert (await me.until(lambda m: m["type"] == "watching", timeout=5))["spectators"] == 0
    assert me.n == n  # plain messages: no event was numbered for them
    await me.close()


async def test_a_player_who_leaves_is_replaced_and_can_reclaim_the_seat(server: LiveServer) -> None:
    """Omar's connection drops mid-match while Lina plays on: after the grace period (0.4 s in this
    module) a bot plays his seat, and he takes it back by coming back with his token. (Someone only
    watching would not do for Lina: with no player left, the table waits instead.)"""
    t, lina, omar, omar_token = await _lina_and_omar_playing(server)
    await omar.close()
    msg = await lina.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["away"], timeout=5)
    assert msg["event"]["kind"] == "away"
    rng = random.Random(4)
    stood_in = 0
    while stood_in < 2:  # a bot plays for seat 1 now, as Lina plays her own turns
        await lina.play_random(rng)
        m = await lina.recv(5)
        event = m.get("event") or {}
        stood_in += m["type"] == "update" and event.get("kind") == "action" and event.get("seat") == 1
    back = await Player.join(server.ws_base, t["id"], omar_token)
    msg = await back.until(lambda m: m["type"] == "update" and not m["table"]["seats"][1]["away"], timeout=5)
    assert msg["table"]["seats"][1]["connected"]
    await asyncio.gather(lina.play_to_end(rng), back.play_to_end(random.Random(5)))
    assert lina.view is not None and lina.view["match_over"]
    await back.close()
    await lina.close()


async def _lina_and_omar_playing(server: LiveServer) -> tuple[dict[str, Any], Player, Player, str]:
    """A friends table (seed 31, one kingdom) with Lina hosting at seat 0 and Omar at seat 1, started:
    the table, both players (each has seen the match start) and Omar's seat token."""
    t = server.create(name="Lina", bots="random", seed=31, kingdoms=1)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    omar_token = r.json()["token"]
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    omar = await Player.join(server.ws_base, t["id"], omar_token)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    assert r.status_code == 200, r.text
    for friend in (lina, omar):
        await friend.until(lambda m: m["type"] == "update" and m["table"]["status"] == "playing")
    return t, lina, omar, omar_token


async def test_a_player_back_after_the_grace_period_gets_each_missed_event_once(server: LiveServer) -> None:
    """Back after a bot took his seat: the welcome comes first and every event he missed comes once. (The
    "back" his return causes reached him before the welcome, then again in the catchup.)"""
    t, lina, omar, omar_token = await _lina_and_omar_playing(server)
    last, epoch = omar.n, omar.epoch
    assert last is not None
    await omar.close()
    await lina.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["away"], timeout=5)
    back = await Player.join(server.ws_base, t["id"], omar_token, last=last, epoch=epoch)
    welcome = back.messages[0]
    assert welcome["type"] == "welcome", [m["type"] for m in back.messages]
    catchup = await back.until(lambda m: m["type"] == "catchup")
    assert [e["n"] for e in catchup["events"]] == list(range(last + 1, welcome["n"] + 1))
    update = await back.until(lambda m: m["type"] == "update")
    assert update["n"] == welcome["n"] and update["event"] is None
    msg = await back.until(lambda m: m["type"] == "update" and m["event"]["kind"] == "back")
    assert msg["n"] == welcome["n"] + 1 and not msg["table"]["seats"][1]["away"]
    await lina.close()
    await back.close()


async def test_the_others_are_told_when_a_bot_takes_the_seat_of_a_player_who_left(server: LiveServer) -> None:
    """A seat whose player lost his connection says, in seconds, when the stand-in takes over (so the
    table can count down); null while he is there, and once the bot plays it."""
    _, lina, omar, _ = await _lina_and_omar_playing(server)
    assert lina.table is not None
    assert [s["away_in"] for s in lina.table["seats"]] == [None] * 4  # everybody is here (bots never leave)
    await omar.close()
    msg = await lina.until(lambda m: m["type"] == "update" and not m["table"]["seats"][1]["connected"], timeout=5)
    left = msg["table"]["seats"][1]["away_in"]
    assert isinstance(left, float) and 0 < left <= 0.4, left  # the grace period is 0.4 s in this module
    assert msg["table"]["seats"][0]["away_in"] is None
    msg = await lina.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["away"], timeout=5)
    assert msg["table"]["seats"][1]["away_in"] is None  # the bot plays it now
    await lina.close()


@pytest.mark.parametrize("watched", [False, True])
async def test_a_table_everybody_left_waits_for_its_players(server: LiveServer, watched: bool) -> None:
    """Friends who all leave mid-match find it where they left it, as after a restart: bots played it out
    (with the friends' names in the history) once the grace period was over. The first one back starts
    the grace period of the others again. Someone watching through the link does not count: a visitor
    could otherwise have bots finish the friends' match in their names."""
    t, lina, omar, _ = await _lina_and_omar_playing(server)
    watcher = await Player.join(server.ws_base, t["id"]) if watched else None
    while lina.view is None or lina.view["turn"] not in (0, 1):  # the bots wait for us
        await lina.recv()
    await omar.close()
    last, epoch = lina.n, lina.epoch
    await lina.close()
    await asyncio.sleep(1.5)  # many grace periods (0.4 s here)
    info = httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10).json()
    assert info["status"] == "playing" and not any(s["away"] for s in info["seats"]), info["seats"]
    if watcher is not None:
        assert server.app.state.hub.tables[t["id"]].empty_since is None  # still watched: not to be parked
        await watcher.close()
    lina = await Player.join(server.ws_base, t["id"], t["token"], last=last, epoch=epoch)
    catchup = await lina.until(lambda m: m["type"] == "catchup")
    assert not [e for e in catchup["events"] if e.get("seat") in (0, 1) and e["kind"] != "seats"], catchup
    # Lina is back: Omar's grace period starts now, then a bot plays for him.
    await lina.until(lambda m: m["type"] == "update" and m["table"]["seats"][1]["away"], timeout=5)
    await lina.close()


async def test_the_countdown_to_the_stand_in_is_the_move_timer_when_that_ends_first(tmp_path: Path) -> None:
    """A friend who drops out on his turn at a timed table is played for when his timer runs out, not at
    the end of the (longer) grace period: the countdown the others see must say so."""
    with live_server(tmp_path, grace=60.0) as server:
        t = server.create(name="Lina", bots="random", seed=31, kingdoms=1, timer=20)
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
        lina = await Player.join(server.ws_base, t["id"], t["token"])
        omar = await Player.join(server.ws_base, t["id"], r.json()["token"])
        httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
        await omar.until(lambda m: m["type"] == "update" and omar.my_turn(), timeout=60)
        await lina.until(
            lambda m: m["type"] == "update" and m["view"]["turn"] == 1 and m["table"]["timer"]["remaining"]
        )
        await omar.close()
        msg = await lina.until(lambda m: m["type"] == "update" and not m["table"]["seats"][1]["connected"], timeout=5)
        left, timer = msg["table"]["seats"][1]["away_in"], msg["table"]["timer"]
        assert timer["seat"] == 1 and left is not None, (left, timer)
        assert left <= timer["remaining"] + 0.2 and left <= 20, (left, timer)  # not the 60 s grace period
        await lina.close()


async def test_running_out_of_time_hands_the_seat_to_a_bot(tmp_path: Path) -> None:
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=3, kingdoms=1, timer=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        assert me.table["timer"]["seat"] == 0 and 0 < me.table["timer"]["remaining"] <= 1
        started = time.monotonic()
        msg = await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "timeout", 5)
        assert msg["event"]["seat"] == 0 and 0.8 < time.monotonic() - started < 3
        assert msg["table"]["seats"][0]["away"]
        # The bot plays our move; we take the seat back and play on ourselves.
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        await me.send({"type": "back"})
        await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"] and me.my_turn())
        await me.send({"type": "act", "action": me.view["legal_actions"][0]})
        msg = await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        assert not msg["table"]["seats"][0]["away"]
        await me.close()


async def test_a_move_that_crossed_a_stand_ins_is_refused_not_played_on_a_later_turn(tmp_path: Path) -> None:
    """A move chosen on update n and sent after a stand-in played that turn (the move timer ran out
    while it was on its way) names n in ``after``: the table refuses it, where without ``after`` it
    would land on whatever turn of the seat came next. Without ``after`` a move is taken as before; an
    ``after`` the table never sent, or not a number, is refused with the reason."""
    with live_server(tmp_path) as server:
        # two seconds a move: the stand-in comes soon, and the refusals below fit well inside one turn
        t = server.create(name="Lina", bots="random", start=True, seed=3, kingdoms=1, timer=2)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        chosen_on = me.n
        assert chosen_on is not None
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0, 8)  # the stand-in
        await me.send({"type": "back"})
        await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"] and me.my_turn())
        moves = len(server.app.state.hub.tables[t["id"]].match.history)
        legal = me.view["legal_actions"]
        await me.send({"type": "act", "action": legal[0], "after": chosen_on})
        said = await me.error()
        assert said.startswith("that move was for a turn gone by: the table has moved on (event ")
        await me.send({"type": "act", "action": legal[0], "after": me.n + 5})
        assert await me.error() == f"'after' names event {me.n + 5}, which this table has not sent (its last is {me.n})"
        for bad in (-1, "7", True, 1.5):
            await me.send({"type": "act", "action": legal[0], "after": bad})
            assert (await me.error()).startswith("'after' must be the number of the last event seen (0 or more), not ")
        assert len(server.app.state.hub.tables[t["id"]].match.history) == moves  # nothing was played
        errors = len(me.errors)
        await me.send({"type": "act", "action": legal[0], "after": me.n})
        played = await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        assert played["event"]["action"] == legal[0] and len(me.errors) == errors  # ours, not a stand-in's
        assert not played["table"]["seats"][0]["away"]
        assert len(server.app.state.hub.tables[t["id"]].match.history) > moves
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        await me.send({"type": "act", "action": me.view["legal_actions"][0]})  # no "after": as before
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        await me.close()


async def test_a_bots_move_the_store_refused_is_tried_again_without_a_players_message(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The store drops out just as a bot is to move: its move is taken back, and once the store is back
    the bot plays it by itself (the table froze until a player happened to send something)."""
    import sqlalchemy as sa

    seed = next(s for s in range(100) if Match(Rules(), seed=s).king == 0)
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        await me.send({"type": "act", "action": me.view["legal_actions"][0], "after": me.n})  # the contract
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0 and me.my_turn())
        storage = server.app.state.hub.storage  # the king leads; then seat 1, a bot, follows
        real = storage.append_actions
        refused: list[object] = []

        def down_for_a_bot(rows: Any) -> None:
            if any(seat != 0 for _, _, seat, _ in rows) and len(refused) < 2:
                refused.append(rows)
                raise sa.exc.OperationalError("INSERT", {}, Exception("connection refused"))
            real(rows)

        monkeypatch.setattr(storage, "append_actions", down_for_a_bot)
        await me.send({"type": "act", "action": me.view["legal_actions"][0], "after": me.n})
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        # nothing more is sent: the bot's move comes once the store takes it
        bot = await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 1, 30)
        assert len(refused) == 2 and not me.errors and bot["event"]["action"] is not None
        table = server.app.state.hub.tables[t["id"]]
        server.run(table.store.drain())
        loaded = storage.load_table(t["id"])
        assert loaded is not None and [a for _, a in loaded.actions] == list(table.match.history)[: len(loaded.actions)]
        await me.close()


async def test_a_move_the_store_kept_though_it_said_it_failed_is_played(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database commits a move but the answer is lost (the connection dropped after COMMIT), and
    the retry cannot reach it either: the table finds the move stored and plays it, rather than take it
    back and then refuse every later move at an index already taken (the store, which a restart
    rebuilds from, would be a move ahead of the table)."""
    import sqlalchemy as sa

    seed = next(s for s in range(100) if Match(Rules(), seed=s).king == 0)
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        storage = server.app.state.hub.storage
        real = storage.append_actions
        calls: list[object] = []

        def answer_lost(rows: Any) -> None:
            calls.append(rows)
            if len(calls) == 1:
                real(rows)  # committed…
            if len(calls) <= 2:  # …but the answer lost, and the retry cannot reach the server
                raise sa.exc.OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))
            real(rows)

        monkeypatch.setattr(storage, "append_actions", answer_lost)
        contract = me.view["legal_actions"][0]
        await me.send({"type": "act", "action": contract, "after": me.n})
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        assert len(calls) == 2 and not me.errors
        for _ in range(3):  # the table goes on storing moves
            if not me.my_turn():
                await me.until(lambda m: m["type"] == "update" and me.my_turn(), 20)
            await me.send({"type": "act", "action": me.view["legal_actions"][0], "after": me.n})
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0)
        assert not me.errors
        if not me.my_turn():  # the table waits for us: nothing is on its way to the store
            await me.until(lambda m: m["type"] == "update" and me.my_turn(), 20)
        table = server.app.state.hub.tables[t["id"]]
        server.run(table.store.drain())
        loaded = storage.load_table(t["id"])
        assert loaded is not None
        assert [a for _, a in loaded.actions] == list(table.match.history)
        await me.close()


async def test_finished_matches_are_listed_downloadable_and_replayable(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=21, kingdoms=1, rules="online")
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.play_to_end(random.Random(6))
    await me.close()
    history = httpx.get(f"{server.base}/api/history", timeout=10).json()["matches"]
    row = next(m for m in history if m["id"] == t["id"])
    assert row["players"][0] == "Lina" and row["totals"] == me.view["totals"]
    assert row["team_totals"] is None  # only a partnership match is decided by its team totals
    r = httpx.get(f"{server.base}/api/tables/{t['id']}/record", timeout=10)
    assert r.headers["content-disposition"].startswith("attachment")
    record = Record.loads(r.text)
    assert record.replay().totals == me.view["totals"]
    frames = httpx.get(f"{server.base}/api/tables/{t['id']}/replay", timeout=10).json()
    assert len(frames["deals"]) == len(record.deals) and frames["totals"] == me.view["totals"]
    first = frames["deals"][0]
    assert (
        sorted(c for h in first["hands"] for c in h) == sorted({c for h in first["hands"] for c in h})
        and sum(len(h) for h in first["hands"]) == 52
    )
    # The same frames from an uploaded record; a broken record is a clear error.
    up = httpx.post(f"{server.base}/api/replay", content=r.text, timeout=10).json()
    assert up["deals"] == frames["deals"]
    bad = httpx.post(f"{server.base}/api/replay", content=b'{"format": "opentrix-record/1", "deals": 3}', timeout=10)
    assert bad.status_code == 400 and "'deals' must be a list" in bad.json()["error"]
    # Where a record breaks the rules is said as the viewer counts, from 1 (the referee counts from 0).
    revoke = (Path(opentrix.__file__).parent / "examples" / "classic-invalid-revoke.json").read_bytes()
    bad = httpx.post(f"{server.base}/api/replay", content=revoke, timeout=10)
    assert bad.status_code == 400 and bad.json()["error"].startswith("deal 1, play 6: seat 1 must follow suit ♦")
    assert (bad.json()["code"], bad.json()["params"]["deal"], bad.json()["params"]["play"]) == ("record_at_play", 1, 6)
    odd = json.loads(r.text)  # a name JSON can spell but UTF-8 cannot carry: a lone surrogate
    odd["players"] = ["\ud800", "Omar", "bot:random", "bot:random"]
    up = httpx.post(f"{server.base}/api/replay", content=json.dumps(odd), timeout=10)  # was a 500
    assert up.status_code == 200 and up.json()["deals"] == frames["deals"]
    # Once nobody watches, the finished table leaves memory; the store still knows it.
    assert t["id"] in server.app.state.hub.tables
    server.run(server.app.state.hub.sweep())
    assert t["id"] not in server.app.state.hub.tables
    info = httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10).json()
    # The store still says who sat where and how it ended, from the record, for the table's page.
    ended = Record.loads(r.text).replay()
    assert info["stored"] is True and info["status"] == "finished" and info["match_over"] is True
    assert info["totals"] == list(ended.totals) and info["winners"] == list(ended.winners)
    assert info["seats"][0]["name"] == "Lina" and "team_totals" not in info
    # An unfinished table has no record yet.
    t2 = server.create(name="Lina", bots="random")
    assert httpx.get(f"{server.base}/api/tables/{t2['id']}/record", timeout=10).status_code == 404
    # Pages of the web client are served for every route.
    for path in ("/", f"/t/{t['id']}", "/history", f"/replay/{t['id']}", "/static/js/app.js", "/static/css/app.css"):
        assert httpx.get(server.base + path, timeout=10).status_code == 200, path


def test_opentrix_play_opens_a_table_against_three_bots(tmp_path: Path) -> None:
    """``opentrix play`` starts the server and prints the table's URL with the seat token."""
    port = free_port()
    cmd = [sys.executable, "-m", "opentrix.cli", "play", "--no-browser", "--port", str(port)]
    cmd += ["--database", str(tmp_path / "play.db"), "--bots", "random,easy,random", "--seed", "4", "--rules", "online"]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    try:
        assert proc.stdout is not None
        line = ""
        deadline = time.monotonic() + 30
        while "your table is at" not in line and time.monotonic() < deadline:
            line = proc.stdout.readline()
        m = re.search(r"http://127\.0\.0\.1:(\d+)/t/([A-Z0-9]+)#seat=0&token=(\S+)", line)
        assert m, line
        assert int(m.group(1)) == port
        assert f"matches kept in {tmp_path / 'play.db'}" in proc.stdout.readline()  # where, for a newcomer
        info = httpx.get(f"http://127.0.0.1:{port}/api/tables/{m.group(2)}", timeout=10).json()
        assert info["status"] == "playing" and info["preset"] == "online"
        assert [(s["kind"], s["level"]) for s in info["seats"]] == [
            ("human", None),
            ("bot", "random"),
            ("bot", "easy"),
            ("bot", "random"),
        ]

        async def hello() -> dict[str, object]:
            p = await Player.join(f"ws://127.0.0.1:{port}", m.group(2), m.group(3))
            msg = await p.until(lambda x: x["type"] == "update")
            await p.close()
            return msg

        msg = asyncio.run(hello())
        assert msg["view"]["seat"] == 0 and len(msg["view"]["hand"]) == 13
    finally:
        proc.terminate()
        proc.wait(10)


async def test_a_table_waits_for_a_player_who_has_not_come(tmp_path: Path) -> None:
    """Bots play their own seats but never take a seat whose player has not come (to a new table, or
    to one a server has just taken up): no match is played out in an empty room."""
    with live_server(tmp_path, grace=0.2) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=12, kingdoms=1, rules="classic")
        await asyncio.sleep(1.5)  # many grace periods
        info = httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10).json()
        assert not any(s.get("away") for s in info["seats"]), info["seats"]
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and m["view"]["turn"] == 0 and bool(m["view"]["legal_actions"]))
        assert me.view is not None and me.view["deal_number"] == 0
        assert not [card for seat, card in me.view["plays"] if seat == 0]  # nobody played for her
        await me.close()


async def test_next_deal_is_offered_after_every_deal(tmp_path: Path) -> None:
    """With a long pause between deals, a player who asks for the next deal gets it at once, every time:
    the update that ends a deal never carries the clicks of the deal before (it hid the button)."""
    with live_server(tmp_path, deal_pause=30.0) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=12, kingdoms=1, rules="classic")
        me = await Player.join(server.ws_base, t["id"], t["token"])
        rng = random.Random(2)
        for deal in range(3):
            while not (me.view and me.view["phase"] == "deal_over" and me.view["deal_number"] == deal):
                if me.my_turn() and me.state_key() not in me.acted:
                    me.acted.add(me.state_key())
                    await me.send({"type": "act", "action": rng.choice(me.view["legal_actions"])})
                await me.recv()
            assert me.table is not None and me.table["ready"] == [], (deal, me.table)
            assert 25 < me.table["next_deal_in"] <= 30  # the summary's countdown: the pause has just begun
            await me.send({"type": "next"})
            started = time.monotonic()
            await me.until(lambda m, d=deal: m["type"] == "update" and m["view"]["deal_number"] == d + 1)
            assert time.monotonic() - started < 10  # not the 30 s pause
            assert me.table["next_deal_in"] is None  # no summary is up while a deal is played
        await me.close()


async def test_a_table_left_empty_is_parked_and_wakes_when_opened(tmp_path: Path) -> None:
    """Abandoned tables must not pile up in a server: one nobody has had open for ``park_after`` is
    unloaded and held by no server; opening it again (its page, a join, the seat's link) wakes it."""
    with live_server(tmp_path, park_after=0.4) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=21, kingdoms=1, rules="classic")
        me = await Player.join(server.ws_base, t["id"], t["token"])
        rng = random.Random(5)
        while not (me.view and len(me.view["plays"]) >= 6 and me.my_turn()):
            await me.play_random(rng)
            await me.recv()
        before, last, epoch = me.view, me.n, me.epoch
        await me.close()

        def holder() -> str | None:
            with sqlite3.connect(str(server.settings.database)) as db:
                return db.execute("SELECT owner FROM trix_tables WHERE id = ?", (t["id"],)).fetchone()[0]

        deadline = time.monotonic() + 15
        while holder() != "parked":
            assert time.monotonic() < deadline, "the empty table was not parked"
            await asyncio.sleep(0.1)
        hub = server.app.state.hub
        assert t["id"] not in hub.tables
        # wakes it; the events it numbers now are not those it numbered before, so no catch-up from them
        back = await Player.join(server.ws_base, t["id"], t["token"], last=last, epoch=epoch)
        woken = await back.until(lambda m: m["type"] == "update")
        assert woken["resync"] is True and woken["epoch"] != epoch
        assert not [m for m in back.messages if m["type"] == "catchup"]
        assert back.view is not None and back.seat == 0
        for key in ("deal_number", "phase", "turn", "hand", "plays", "trick", "totals"):
            assert back.view[key] == before[key], key
        await back.play_to_end(rng)
        await back.close()
        assert holder() not in (None, "parked")
        assert record_of(server.base, t["id"]).replay().is_over

        # opentrix play's own table, parked, is woken and handed back by resume_local
        hub = server.app.state.hub
        loop = hub._sweeper.get_loop()
        spec = NewTable(
            name="You", preset="classic", bots=("medium", "random", "random", "random"), start=True, local=True
        )
        other = NewTable(name="You", preset="classic", bots=("medium", "hard", "hard", "hard"), start=True, local=True)
        local, _ = asyncio.run_coroutine_threadsafe(hub.create(spec), loop).result(10)
        unlike, _ = asyncio.run_coroutine_threadsafe(hub.create(other), loop).result(10)
        while local.id in hub.tables or unlike.id in hub.tables:
            assert time.monotonic() < deadline + 15, "the local tables were not parked"
            await asyncio.sleep(0.1)
        kept = asyncio.run_coroutine_threadsafe(hub.resume_local(spec), loop).result(10)
        assert kept is not None and kept[0].id == local.id and local.id in hub.tables
        assert unlike.id not in hub.tables  # another match of the player's, with other bots: left parked


async def test_parking_never_strands_a_request_or_hands_a_table_back(tmp_path: Path) -> None:
    """A table found by a request is in use, so the next sweep leaves it loaded; a table being parked is
    not taken back by the lease loop; a request queued on a table put away gets an error, not a hang."""
    hub = Hub(Settings(database=str(tmp_path / "t.db"), park_after=3600))  # sweeps driven by hand here
    await hub.startup()
    long_ago = time.monotonic() - 7200
    try:
        t, _ = await hub.create(NewTable(name="A"))  # a lobby table nobody has open
        t.empty_since = long_ago
        found = await hub.find(t.id)  # a join found it...
        await hub.sweep()  # ...and the sweep runs before the join's body is read
        assert found is t and t.id in hub.tables
        seat, _ = await asyncio.wait_for(t.call(lambda: t.join("B", None)), 5)
        assert seat == 1
        t.empty_since = long_ago
        await hub.sweep()
        assert t.id not in hub.tables and t.stopped
        await hub.keep_leases()  # the lease loop does not take a parked table back
        assert t.id not in hub.tables
        with pytest.raises(TableError, match="put away"):
            await asyncio.wait_for(t.call(_async_job(lambda: None)), 5)
        woken = await hub.find(t.id)
        assert woken is not None and woken is not t and woken.seats[1].name == "B"
        assert await hub.find("ZZZZZZ") is None
        running = asyncio.create_task(woken.call(_async_job(lambda: None, sleep=5)))  # stopped mid-job
        await asyncio.sleep(0.1)
        await woken.stop()
        with pytest.raises(TableError, match="put away"):
            await asyncio.wait_for(running, 5)
    finally:
        await hub.shutdown()


async def test_a_hint_still_thought_out_for_a_turn_gone_by_does_not_hold_up_the_next_players(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lina asks for a hint and plays before it comes (her search is made slow here); Omar, now to act,
    still gets his own hint, and Lina's late one is dropped."""
    t = server.create(name="Lina", bots="random", seed=31, kingdoms=1, hints=True)
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    omar = await Player.join(server.ws_base, t["id"], r.json()["token"])
    httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    thinkers = server.app.state.hub.thinkers
    think = thinkers.think
    slowed: list[int] = []

    def slow_first_hint(bot: Any, v: Any, legal: Any) -> Any:
        thought = think(bot, v, legal)
        if bot.name != "strong" or slowed:
            return thought
        slowed.append(v.seat)
        loop = asyncio.get_running_loop()
        late = loop.create_future()
        thought.add_done_callback(lambda f: loop.call_later(5, late.set_result, f.result()))
        return late

    monkeypatch.setattr(thinkers, "think", slow_first_hint)  # undone after: the bot thread is the process's own
    rng = random.Random(0)

    async def drain() -> None:
        for p in (lina, omar):
            with contextlib.suppress(TimeoutError):
                while True:
                    await p.recv(0.05)

    async def until_to_act(p: Player) -> None:
        deadline = time.monotonic() + 30
        while not (p.my_turn() and len(p.view["legal_actions"]) > 1):  # type: ignore[index]
            assert time.monotonic() < deadline, "the table stopped moving"
            for q in (lina, omar):
                if q is not p:
                    await q.play_random(rng)
            await drain()

    await until_to_act(lina)
    await lina.send({"type": "hint"})
    await asyncio.sleep(0.2)
    lina.acted.add(lina.state_key())
    await lina.send({"type": "act", "action": lina.view["legal_actions"][0]})  # type: ignore[index]
    await drain()
    await until_to_act(omar)
    await omar.send({"type": "hint"})
    answer = await omar.until(lambda m: m["type"] in ("hint", "error"), timeout=4)  # before Lina's comes
    assert answer["type"] == "hint" and answer["action"] in omar.view["legal_actions"], answer  # type: ignore[index]
    assert slowed == [lina.seat]
    await asyncio.sleep(5.5)
    await drain()
    assert not any(m["type"] == "hint" for m in lina.messages)  # hers came for a turn gone by
    for p in (lina, omar):
        await p.close()


async def test_the_sweeper_forgets_abandoned_lobbies_once_an_hour(tmp_path: Path) -> None:
    """A lobby parked and untouched past ``forget_lobbies`` is deleted by the sweeper's hourly look; its
    code then names no table. ``forget_lobbies=0`` keeps every table."""
    from datetime import UTC, datetime, timedelta

    from opentrix.server.storage import tables_t

    hub = Hub(Settings(database=str(tmp_path / "t.db"), park_after=3600, forget_lobbies=60))
    await hub.startup()
    try:
        t, _ = await hub.create(NewTable(name="A"))
        t.empty_since = time.monotonic() - 7200
        await hub.sweep()  # parked
        with hub.storage.engine.begin() as conn:
            conn.execute(
                tables_t.update().where(tables_t.c.id == t.id).values(updated_at=datetime.now(UTC) - timedelta(hours=1))
            )
        now = time.monotonic()
        assert await hub.forget_lobbies(now) == 1
        assert await hub.find(t.id) is None and hub.storage.status(t.id) is None
        assert await hub.forget_lobbies(now + 60) == 0  # not again within the hour
    finally:
        await hub.shutdown()
    keep = Hub(Settings(database=str(tmp_path / "k.db"), forget_lobbies=0))
    await keep.startup()
    try:
        assert await keep.forget_lobbies() == 0
    finally:
        await keep.shutdown()


def _async_job(fn: Any, sleep: float = 0.0) -> Any:
    async def job() -> Any:
        await asyncio.sleep(sleep)
        return fn()

    return job


def _start_play(db: Path, *extra: str) -> tuple[subprocess.Popen[str], list[str], re.Match[str]]:
    """``opentrix play`` on ``db``: the process, the lines it printed, and the table link's parts."""
    port = free_port()
    cmd = [sys.executable, "-m", "opentrix.cli", "play", "--no-browser", "--port", str(port), "--database", str(db)]
    cmd += ["--bots", "random,easy,random", "--rules", "online", *extra]
    proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    assert proc.stdout is not None
    lines = [""]
    deadline = time.monotonic() + 30
    while "your table is at" not in lines[-1] and time.monotonic() < deadline and proc.poll() is None:
        lines.append(proc.stdout.readline())
    m = re.search(r"http://127\.0\.0\.1:(\d+)/t/([A-Z0-9]+)#seat=0&token=(\S+)", lines[-1])
    assert m and int(m.group(1)) == port, lines
    return proc, lines, m


def _seat_of(port: str, code: str, token: str) -> int | None:
    async def hello() -> int | None:
        p = await Player.join(f"ws://127.0.0.1:{port}", code, token)
        await p.close()
        return p.seat

    return asyncio.run(hello())


def test_opentrix_play_takes_up_the_unfinished_match(tmp_path: Path) -> None:
    """Stopped and started again, ``opentrix play`` hands back the same table with a fresh link; the old
    link's secret no longer seats anyone; ``--new``, or other bots, start another match."""
    db = tmp_path / "play.db"
    proc, lines, first = _start_play(db)
    proc.terminate()
    proc.wait(10)
    assert not any("taking up" in line for line in lines)
    proc, lines, again = _start_play(db)
    try:
        assert any("taking up your unfinished match" in line for line in lines), lines
        assert again.group(2) == first.group(2) and again.group(3) != first.group(3)
        assert _seat_of(again.group(1), again.group(2), again.group(3)) == 0
        assert _seat_of(again.group(1), again.group(2), first.group(3)) is None  # watching, not playing
    finally:
        proc.terminate()
        proc.wait(10)
    for extra in (["--new"], ["--bots", "random,random,random"]):
        proc, lines, other = _start_play(db, *extra)
        proc.terminate()
        proc.wait(10)
        assert other.group(2) != first.group(2), extra


def test_opentrix_play_killed_or_hung_up_is_taken_up_at_once(tmp_path: Path) -> None:
    """A killed ``opentrix play`` holds its table under a lease, but the next one on this machine sees
    the holder's process is gone and takes the match up at once rather than after the lease (15 s);
    closing the terminal (SIGHUP) stops it cleanly, its table let go in the store."""
    db = tmp_path / "play.db"
    proc, _, first = _start_play(db)
    proc.kill()
    proc.wait(10)
    proc, lines, again = _start_play(db)  # within the lease the killed process left behind
    assert any("taking up your unfinished match" in line for line in lines), lines
    assert again.group(2) == first.group(2)
    proc.send_signal(signal.SIGHUP)
    assert proc.wait(20) == 0
    with sqlite3.connect(db) as conn:
        held = conn.execute("SELECT owner, lease_until FROM trix_tables WHERE id = ?", (first.group(2),))
        assert held.fetchall() == [(None, None)]


@pytest.mark.postgres
async def test_tables_can_live_in_postgresql(tmp_path: Path) -> None:
    with pg_schema() as schema:
        with live_server(tmp_path, database=PG_URL, schema=schema) as server:
            t = server.create(name="Lina", bots="random", start=True, seed=31, kingdoms=1, rules="denexa")
            me = await Player.join(server.ws_base, t["id"], t["token"])
            await me.play_to_end(random.Random(8))
            await me.close()
            record = record_of(server.base, t["id"])
            assert check_no_hidden_cards(me.messages, 0, record) > 10
        with psycopg.connect(PG_URL, autocommit=True) as conn:
            n = conn.execute(f'SELECT count(*) FROM "{schema}".trix_actions WHERE table_id = %s', (t["id"],))
            assert n.fetchone()[0] == len(record.replay().history)


async def test_the_table_names_the_tiebreak_under_way(tmp_path: Path) -> None:
    """The end-of-deal summary says why one more deal (or kingdom) comes: the table's facts name the
    tiebreak once the regular deals end in a tie, and nothing before."""
    hub = Hub(Settings(database=str(tmp_path / "t.db")))
    await hub.startup()
    nothing = {"king_of_hearts": 0, "queen": 0, "diamond": 0, "trick": 0, "trix": [0, 0, 0, 0]}
    try:
        t, _ = await hub.create(NewTable(name="A"))
        for preset, kind in (("classic", "extra_koh_deal"), ("online", "extra_kingdom")):
            rules = Rules.preset(preset, kingdoms=1, points=nothing)  # a four-way tie after the kingdom
            m = Match(rules, seed=3)
            t.rules, t.match = rules, m
            rng = random.Random(1)
            while not (m.phase == Phase.DEAL_OVER and sum(d.thrown_in is None for d in m.deals) == 5):
                assert t._info()["tiebreak"] is None
                if m.phase == Phase.DEAL_OVER:
                    m.start_deal()
                else:
                    m.apply(rng.choice(m.legal_actions()))
            assert not m.is_over and t._info()["tiebreak"] == kind, preset
    finally:
        await hub.shutdown()


def test_pages_and_health_answer_head_requests(server: LiveServer) -> None:
    """Uptime monitors and link checkers ask with HEAD: the pages and the health check answer it."""
    for path in ("/", "/history", "/replay", "/api/health"):
        r = httpx.head(f"{server.base}{path}", timeout=10)
        assert r.status_code == 200 and r.content == b"", path


async def test_a_hint_is_the_hard_bots_move_for_a_player_against_bots(
    server: LiveServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Against bots a player may ask what the hard bot would do in his place: a legal action, to him
    alone, from his view. Not for spectators, not out of turn, and not at a table with friends."""
    t = server.create(name="Lina", bots="random", start=True, seed=12, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    watcher = await Player.join(server.ws_base, t["id"])
    thinkers = server.app.state.hub.thinkers
    searches: list[str] = []  # the hard bot's searches (the table's own bots are random)
    think = thinkers.think

    def counted(bot: Any, v: Any, legal: Any) -> Any:
        if bot.name == "strong":
            searches.append(bot.name)
        return think(bot, v, legal)

    monkeypatch.setattr(thinkers, "think", counted)  # undone after: the bot thread is the process's own
    await me.until(lambda m: m["type"] == "update" and me.my_turn())
    await watcher.send({"type": "hint"})
    assert await watcher.error() == "hints are for players: take a seat first"
    for _ in range(3):  # three turns: each hint is legal there, and playing it is accepted
        assert me.view is not None
        legal = me.view["legal_actions"]
        await me.send({"type": "hint"})
        hint = await me.until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["action"] in legal, hint
        assert not any(m["type"] == "hint" for m in watcher.messages)
        # Asked again for the same turn, it is told again without another search.
        searched = len(searches)
        for _ in range(3):
            await me.send({"type": "hint"})
            assert await me.until(lambda m: m["type"] in ("hint", "error")) == hint
        assert len(searches) == searched
        await me.send({"type": "act", "action": hint["action"]})
        await me.send({"type": "hint"})  # handled after the move: the turn has passed on (unless it came back)
        answer = await me.until(lambda m: m["type"] in ("hint", "error"))
        if not me.my_turn():
            assert answer == {"type": "error", "message": "a hint is for your own turn"}, answer
        await me.until(lambda m: m["type"] == "update" and me.my_turn(), timeout=30)
    await me.close()
    await watcher.close()
    # Among friends, no hints.
    _, lina, omar, _ = await _lina_and_omar_playing(server)
    await lina.send({"type": "hint"})
    assert await lina.error() == "hints are for tables where everyone else is a bot, or whose host allowed them"
    for friend in (lina, omar):
        await friend.close()


async def test_friends_chat_at_their_table_and_a_newcomer_reads_what_was_said(server: LiveServer) -> None:
    """A seated player's message reaches every seat and spectator, cleaned of invisible characters;
    spectators may read, not write; a bad, empty, long or too fast message is refused to its sender
    alone; whoever arrives later gets the last messages in the welcome."""
    t, lina, omar, _ = await _lina_and_omar_playing(server)
    watcher = await Player.join(server.ws_base, t["id"])
    await lina.send({"type": "chat", "text": "  ahlan\u200b   ya   Omar  "})
    for p in (lina, omar, watcher):
        said = await p.until(lambda m: m["type"] == "chat")
        assert said["message"]["seat"] == 0 and said["message"]["name"] == "Lina"
        assert said["message"]["text"] == "ahlan ya Omar" and isinstance(said["message"]["at"], int)
    await watcher.send({"type": "chat", "text": "hi"})
    assert await watcher.error() == "spectators cannot chat: take a seat first"
    for bad, why in (
        ({"type": "chat", "text": 5}, "a chat message is text"),
        ({"type": "chat", "text": " \u200b "}, "a chat message needs something to say"),
        ({"type": "chat", "text": "\u3164\u2800 \u034f"}, "a chat message needs something to say"),
        ({"type": "chat", "text": "x" * 201}, "a chat message has at most 200 characters, not 201"),
        ({"type": "chat", "text": "a\u0000b"}, "a chat message cannot contain control characters"),
    ):
        await omar.send(bad)
        assert (await omar.error()).startswith(why)
    for i in range(6):  # five in ten seconds, then the sixth is refused
        await omar.send({"type": "chat", "text": f"yalla {i}"})
    assert await omar.error() == "you are chatting too fast: at most 5 messages in 10 seconds"
    await asyncio.sleep(0.3)
    for p in (lina, omar, watcher):
        with contextlib.suppress(TimeoutError):
            while True:
                await p.recv(0.1)
        texts = [m["message"]["text"] for m in p.messages if m["type"] == "chat"]
        assert texts == ["ahlan ya Omar"] + [f"yalla {i}" for i in range(5)], texts
        assert not any("yalla" in e or "ahlan" in e for e in p.errors)
    late = await Player.join(server.ws_base, t["id"])
    welcome = late.messages[0]
    assert welcome["type"] == "welcome"
    assert [m["text"] for m in welcome["chat"]] == ["ahlan ya Omar"] + [f"yalla {i}" for i in range(5)]
    for p in (lina, omar, watcher, late):
        await p.close()


async def test_a_chat_message_is_stored_before_anyone_hears_it_and_said_in_order(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As every move is: a server killed the moment a message was seen cannot forget it. A slow write
    of one message does not let the next overtake it."""
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=4, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        storage = server.app.state.hub.storage
        real = storage.add_chat
        stored: list[str] = []

        def slow_first(table_id: str, message: dict[str, Any]) -> None:
            if not stored:
                time.sleep(0.6)
            real(table_id, message)
            stored.append(message["text"])

        monkeypatch.setattr(storage, "add_chat", slow_first)
        await me.send({"type": "chat", "text": "first"})
        await me.send({"type": "chat", "text": "second"})
        heard = []
        while len(heard) < 2:
            said = await me.until(lambda m: m["type"] == "chat")
            heard.append(said["message"]["text"])
            assert said["message"]["text"] in stored  # kept before it was said
        assert heard == ["first", "second"]
        loaded = storage.load_table(t["id"])
        assert loaded is not None and [m["text"] for m in loaded.chat] == heard
        await me.close()


async def test_chat_keeps_its_order_across_the_end_of_the_match(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The "gg" typed as the match ends (kept no more) still comes after the message sent before it."""
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=4, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.until(lambda m: m["type"] == "update" and me.my_turn())
        storage = server.app.state.hub.storage
        real = storage.add_chat

        def slow(table_id: str, message: dict[str, Any]) -> None:
            time.sleep(0.8)
            real(table_id, message)

        monkeypatch.setattr(storage, "add_chat", slow)
        await me.send({"type": "chat", "text": "first"})
        await asyncio.sleep(0.2)
        server.app.state.hub.tables[t["id"]].finished = True  # the match ends while "first" is being stored
        await me.send({"type": "chat", "text": "gg"})
        heard = [(await me.until(lambda m: m["type"] == "chat"))["message"]["text"] for _ in range(2)]
        assert heard == ["first", "gg"]
        await me.close()


async def test_a_finished_match_the_store_refused_is_stored_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The last card is played as the database drops out: the match is stored (history, record, the
    match's end told) a moment later, without waiting for a player's message."""
    import sqlalchemy as sa

    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", start=True, seed=4, kingdoms=1)
        storage = server.app.state.hub.storage
        real = storage.finish
        calls: list[int] = []

        def fail_once(*args: Any) -> None:
            calls.append(1)
            if len(calls) == 1:
                raise sa.exc.OperationalError("UPDATE", {}, Exception("connection refused"))
            real(*args)

        monkeypatch.setattr(storage, "finish", fail_once)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.play_to_end(random.Random(2))
        await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "match_over", 20)
        table = server.app.state.hub.tables[t["id"]]
        assert table.finished and len(calls) == 2
        history = httpx.get(f"{server.base}/api/history", timeout=10).json()["matches"]
        assert any(m["id"] == t["id"] for m in history)
        await me.close()


async def test_a_host_may_allow_hints_for_everyone_at_a_friends_table(server: LiveServer) -> None:
    """A table for learning: with ``"hints": true`` each seated player may ask on his own turn, and the
    hint reaches him alone (not the other player, nor a spectator). The option is public."""
    t = server.create(name="Lina", bots="random", seed=31, kingdoms=1, hints=True)
    assert server.info(t["id"])["options"]["hints"] is True
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Omar"}, timeout=10)
    players = {0: await Player.join(server.ws_base, t["id"], t["token"])}
    players[1] = await Player.join(server.ws_base, t["id"], r.json()["token"])
    watcher = await Player.join(server.ws_base, t["id"])
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/start", json={"token": t["token"]}, timeout=10)
    assert r.status_code == 200, r.text

    async def drain(p: Player) -> None:
        with contextlib.suppress(TimeoutError):
            while True:
                await p.recv(0.1)

    hinted: set[int] = set()
    deadline = time.monotonic() + 60
    while hinted != {0, 1}:  # each friend asks on his own turn, then plays the hint
        assert time.monotonic() < deadline, "the table stopped moving"
        for p in players.values():
            await drain(p)
        turn = next((p for p in players.values() if p.my_turn()), None)
        if turn is None or turn.seat in hinted:
            if turn is not None:
                await turn.play_random(random.Random(1))
            continue
        assert turn.view is not None and turn.seat is not None
        await turn.send({"type": "hint"})
        hint = await turn.until(lambda m: m["type"] in ("hint", "error"))
        assert hint["type"] == "hint" and hint["action"] in turn.view["legal_actions"], hint
        hinted.add(turn.seat)
        turn.acted.add(turn.state_key())
        await turn.send({"type": "act", "action": hint["action"]})
    await drain(watcher)
    assert [sum(m["type"] == "hint" for m in p.messages) for p in (*players.values(), watcher)] == [1, 1, 0]
    for p in (*players.values(), watcher):
        await p.close()


def test_the_history_gives_team_totals_for_partnership_matches_only() -> None:
    from opentrix.server.app import _team_totals

    assert _team_totals({"preset": "online", "partnership": True}, [10, -20, 5, 40]) == [15, 20]
    assert _team_totals("online", [10, -20, 5, 40]) is None
    # a row from a version with options this one does not know: its totals alone, not a failed page
    assert _team_totals({"preset": "online", "partnership": True, "future": 1}, [10, -20, 5, 40]) is None
