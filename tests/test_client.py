"""opentrix.client against a real server: links read, a seat taken, moves over the WebSocket, a dropped
connection caught up, and every failure said in words."""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import httpx
import pytest

from opentrix import actions as A
from opentrix.bots import Bot, RandomBot
from opentrix.client import (
    ClientError,
    Seat,
    TableAddress,
    TableLink,
    TableState,
    find_table,
    play_with_bot,
    start_match,
    take_seat,
)
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import View
from test_server_kit import LiveServer, live_server

KING_AT_0 = next(s for s in range(1000) if Match(Rules(), seed=s).king == 0)  # seat 0 names the contract


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("client")) as s:
        yield s


def test_a_table_is_found_from_what_a_player_pastes() -> None:
    assert find_table("http://192.168.1.5:8000/t/abcd") == TableAddress("http://192.168.1.5:8000", "ABCD")
    host = find_table("https://trix.example.org/games/t/ABCD#seat=2&token=xyz")
    assert host == TableAddress("https://trix.example.org/games", "ABCD", 2, "xyz")
    assert host.ws_url == "wss://trix.example.org/games/ws/ABCD"
    assert find_table("abcd", server="localhost:8000").ws_url == "ws://localhost:8000/ws/ABCD"
    # a link typed or pasted without its http:// is still the link, not "a code without a server"
    assert find_table("192.168.1.5:8000/t/abcd") == TableAddress("http://192.168.1.5:8000", "ABCD")
    assert find_table("192.168.1.5:8000/t/abcd/", server="localhost:8000").base == "http://192.168.1.5:8000"
    with pytest.raises(ClientError, match="a code without a server: give the whole invite link, or --server URL"):
        find_table("ABCD")
    with pytest.raises(ClientError, match="is not a table's link: it should end in /t/CODE"):
        find_table("http://localhost:8000/history")
    with pytest.raises(ClientError, match="'AB-1' is not a table code"):
        find_table("AB-1", server="localhost:8000")
    with pytest.raises(ClientError, match="'ftp://x' is not a server address"):
        find_table("ABCD", server="ftp://x")


def test_a_missing_table_or_server_is_said(server: LiveServer, tmp_path: Path) -> None:
    with pytest.raises(ClientError, match="no table 'ZZZZ'"):
        take_seat(find_table(f"{server.base}/t/ZZZZ"), "Omar")
    with pytest.raises(ClientError, match=r"cannot reach 127\.0\.0\.1:9: "):
        take_seat(find_table("http://127.0.0.1:9/t/ABCD"), "Omar")
    link = TableLink(find_table(f"{server.base}/t/ZZZZ"), None, lambda m: None)
    with pytest.raises(ClientError, match="no table 'ZZZZ'"):
        asyncio.run(asyncio.wait_for(link.run(), 10))


def test_a_friend_takes_a_seat_waits_in_the_lobby_and_plays(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", kingdoms=1, seed=11)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    assert (omar.seat, omar.name) == (1, "Omar")
    with pytest.raises(ClientError, match="only the host"):
        start_match(omar)

    async def play() -> TableState:
        seen: list[str] = []
        link = TableLink(where, omar.token, lambda m: seen.append(m["type"]))
        runner = asyncio.create_task(link.run())
        await asyncio.wait_for(link.connected.wait(), 10)
        await until(lambda: link.state.info != {})
        assert link.state.in_lobby and link.state.view is None and link.state.seat == 1
        assert not link.state.host and link.state.name(0) == "Lina" and link.state.name(1) == "Omar"
        host = take_host(t, where)
        lina = TableLink(where, host.token, lambda m: None)  # the host plays too, at random
        runners = [runner, asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(5)))]
        await asyncio.wait_for(lina.connected.wait(), 10)
        await asyncio.to_thread(start_match, host)
        await until(lambda: link.state.view is not None)
        rng = random.Random(3)
        moves = 0
        while moves < 12:
            v = link.state.view
            assert isinstance(v, View) and v.seat == 1
            if v.to_act:
                n = link.state.n
                assert await link.send({"type": "act", "action": A.to_str(rng.choice(v.legal_actions))})
                await until(lambda n=n: link.state.n != n)
                moves += 1
            elif v.phase == Phase.DEAL_OVER:
                assert await link.send({"type": "next"})
                await until(lambda v=v: link.state.view is not v)
            else:
                await until(lambda v=v: link.state.view is not v)
        assert "welcome" in seen and "update" in seen
        for one in (link, lina):
            await one.close()
        runners[2].cancel()
        await asyncio.wait_for(asyncio.gather(*runners, return_exceptions=True), 5)
        return link.state

    state = asyncio.run(play())
    assert state.view is not None and state.view.phase in (Phase.PLAY, Phase.DEAL_OVER, Phase.CHOOSE_CONTRACT)


def test_a_dropped_connection_comes_back_and_catches_up(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, seed=KING_AT_0, kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}#seat=0&token={t['token']}")
    assert where.token == t["token"]

    async def drop() -> list[str]:
        seen: list[str] = []
        link = TableLink(where, where.token, lambda m: seen.append(m["type"]))
        runner = asyncio.create_task(link.run())
        await until(lambda: link.state.view is not None)
        v = link.state.view
        assert v is not None and v.to_act  # the king chooses
        link._ws.transport.abort()  # the line goes dead, as on a train
        await until(lambda: link.attempts == 2 and link.connected.is_set())
        await until(lambda: "catchup" in seen)
        assert await link.send({"type": "act", "action": A.to_str(v.legal_actions[0])})
        await until(lambda: link.state.view is not None and link.state.view.phase != Phase.CHOOSE_CONTRACT)
        await link.close()
        await asyncio.wait_for(runner, 5)
        return seen

    seen = asyncio.run(drop())
    assert seen.count("welcome") == 2


async def autoplay(link: TableLink, rng: random.Random) -> None:
    """A player who answers every turn at random and is always ready for the next deal."""
    acted: Any = None
    while True:
        v = link.state.view
        if v is not None and link.state.n != acted:
            if v.to_act and v.legal_actions:
                acted = link.state.n
                await link.send({"type": "act", "action": A.to_str(rng.choice(v.legal_actions))})
            elif v.phase == Phase.DEAL_OVER and not v.match_over:
                acted = link.state.n
                await link.send({"type": "next"})
        await asyncio.sleep(0.01)


def take_host(t: dict[str, Any], where: TableAddress) -> Seat:
    return Seat(where, 0, t["token"], "Lina")


async def until(condition: Any, timeout: float = 10) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError("the condition was not met in time")
        await asyncio.sleep(0.01)


class Quirky(Bot):
    """A bot that plays at random once its first decisions, where ``quirk`` misbehaves, are past."""

    def __init__(self, seed: int) -> None:
        super().__init__(seed=seed)
        self.calls = 0

    def act(self, view: View, legal: Sequence[int]) -> int:
        self.calls += 1
        quirk = self.quirk(legal)
        return legal[self.rng.randrange(len(legal))] if quirk is None else quirk

    def quirk(self, legal: Sequence[int]) -> int | None:
        """The misbehaviour at call ``self.calls``; None: play as usual."""
        raise NotImplementedError


class Wayward(Quirky):
    """A bot being worked on: it fails once, then chooses a card it does not hold, then plays properly."""

    name = "wayward"

    def __init__(self) -> None:
        super().__init__(seed=1)

    def quirk(self, legal: Sequence[int]) -> int | None:
        if self.calls == 1:
            raise RuntimeError("not finished yet")
        if self.calls == 2:
            return next(c for c in range(52) if c not in legal)
        return None


def test_a_bot_of_yours_that_slips_still_plays_the_match_out(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", kingdoms=1, seed=KING_AT_0 + 1)
    where = find_table(f"{server.base}/t/{t['id']}")
    seat = take_seat(where, "Wayward (bot)")
    said: list[str] = []

    async def run() -> TableState:
        lina = TableLink(where, t["token"], lambda m: None)
        helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(6)))]
        await asyncio.wait_for(lina.connected.wait(), 10)
        playing = asyncio.create_task(play_with_bot(where, seat.token, Wayward(), say=said.append))
        await asyncio.to_thread(start_match, take_host(t, where))
        state = await asyncio.wait_for(playing, 120)
        await lina.close()
        helpers[1].cancel()
        await asyncio.gather(*helpers, return_exceptions=True)
        return state

    state = asyncio.run(run())
    assert state.view is not None and state.view.match_over
    assert said[0] == "the bot failed (RuntimeError: not finished yet); it plays its first legal move"
    assert said[1].startswith("the bot chose ") and said[1].endswith(
        "which is not allowed here; it plays its first legal move"
    )
    assert said[-1].startswith("match over: Lina ")


def test_a_bot_whose_seat_the_host_frees_stops_and_says_why(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    seat = take_seat(where, "Deep (bot)")

    async def run() -> None:
        playing = asyncio.create_task(play_with_bot(where, seat.token, RandomBot(), say=lambda s: None))
        await asyncio.sleep(0.5)
        free = {"token": t["token"], "seat": seat.seat, "name": "Deep (bot)"}
        r = await asyncio.to_thread(httpx.post, f"{server.base}/api/tables/{t['id']}/free", json=free)
        assert r.status_code == 200, r.text
        with pytest.raises(ClientError, match="the host freed this seat"):
            await asyncio.wait_for(playing, 10)

    asyncio.run(run())


def test_a_table_loaded_afresh_numbers_its_events_anew() -> None:
    """The last event number is kept across a reconnect to the same table (a move names it in
    ``after``), and forgotten when the welcome says the table was loaded afresh (another epoch), where
    the old number would name an event the table never sent."""
    state = TableState()
    state.apply({"type": "welcome", "seat": 0, "epoch": "a", "n": 9, "chat": []})
    state.apply({"type": "update", "n": 9, "epoch": "a", "event": None, "table": {"status": "lobby"}, "view": {}})
    state.apply({"type": "welcome", "seat": 0, "epoch": "a", "n": 9, "chat": []})
    assert state.n == 9
    state.apply({"type": "welcome", "seat": 0, "epoch": "b", "n": 2, "chat": []})
    assert state.n is None and state.epoch == "b"


def test_a_bot_of_yours_does_not_count_as_a_person_at_the_table(tmp_path: Path) -> None:
    """``play_with_bot`` says in its hello that it is a program. In the lobby the hosting never passes
    to it (it would never start the match); once Lina, the only person, has left a match under way,
    the table waits for her as for any deserted table, instead of letting the grace period hand her
    seat to a stand-in and the bots play the match out among themselves; when she is back it goes on."""
    with live_server(tmp_path, grace=0.3, host_grace=0.3) as server:
        t = server.create(name="Lina", bots="random", kingdoms=1, seed=KING_AT_0)
        where = find_table(f"{server.base}/t/{t['id']}")
        seat = take_seat(where, "Deep (bot)")
        table = server.app.state.hub.tables[t["id"]]

        async def run() -> TableState:
            playing = asyncio.create_task(play_with_bot(where, seat.token, RandomBot(seed=3), say=lambda _: None))
            await until(lambda: bool(table.seats[seat.seat].conns))
            await asyncio.sleep(1.0)  # past the host's grace: Lina never came, only the bot is here
            assert table.host_seat == 0
            lina = TableLink(where, t["token"], lambda m: None)
            running = asyncio.create_task(lina.run())
            await asyncio.wait_for(lina.connected.wait(), 10)
            await asyncio.to_thread(start_match, take_host(t, where))
            await until(lambda: lina.state.view is not None and lina.state.view.to_act)
            await lina.close()
            await running
            await asyncio.sleep(1.5)  # many grace periods
            assert table.nobody_back and not table.seats[0].away
            assert table.match.turn == 0 and not table.match.history  # Lina, the king, has not chosen
            lina = TableLink(where, t["token"], lambda m: None)
            helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(7)))]
            state = await asyncio.wait_for(playing, 120)
            await lina.close()
            helpers[1].cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            return state

        state = asyncio.run(run())
        assert state.view is not None and state.view.match_over


def test_a_bot_of_yours_gone_with_the_match_leaves_its_seat_at_the_rematch_to_the_tables_bot(tmp_path: Path) -> None:
    """``play_with_bot`` plays until the match is over, then stops, and keeps no token. Lina's rematch,
    asked at once (well within the grace period), once kept its seat as a player's back from a reload:
    a seat nobody could ever take, so Lina waited in a lobby she had to start, and then the grace period
    at that seat's first turn. The table's bot takes it, at the stand-in level, and she plays on at once."""
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", kingdoms=1)
        where = find_table(f"{server.base}/t/{t['id']}")
        seat = take_seat(where, "Deep (bot)")
        table = server.app.state.hub.tables[t["id"]]

        async def run() -> dict[str, Any]:
            lina = TableLink(where, t["token"], lambda m: None)
            helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(4)))]
            await asyncio.wait_for(lina.connected.wait(), 10)
            playing = asyncio.create_task(play_with_bot(where, seat.token, RandomBot(seed=5), say=lambda _: None))
            await until(lambda: bool(table.seats[seat.seat].conns))
            await asyncio.to_thread(start_match, take_host(t, where))
            await asyncio.wait_for(playing, 120)  # the bot stops with the match
            assert await lina.send({"type": "rematch"})
            await until(lambda: lina.state.rematch is not None)
            await lina.close()
            helpers[1].cancel()
            await asyncio.gather(*helpers, return_exceptions=True)
            assert lina.state.rematch is not None
            return lina.state.rematch

        told = asyncio.run(run())
        new = server.info(told["code"])
        assert new["status"] == "playing"  # Lina alone with bots: no lobby to wait in
        assert new["seats"][seat.seat]["kind"] == "bot"
        assert new["seats"][seat.seat]["level"] == server.settings.substitute_level


class Ponderous(Quirky):
    """A bot whose first decision outlasts the table's move timer; quick after that."""

    name = "ponderous"

    def __init__(self) -> None:
        super().__init__(seed=2)

    def quirk(self, legal: Sequence[int]) -> int | None:
        if self.calls == 1:
            time.sleep(2.5)
        return None


def test_a_bot_of_yours_takes_its_seat_back_from_the_stand_in(tmp_path: Path) -> None:
    """The move timer ran out while the bot thought: the table's stand-in took the seat, and the bot's
    late move was not sent. ``play_with_bot`` asks for the seat back, as a player presses Back, and
    plays on; it was left to the stand-in for the rest of the match."""
    with live_server(tmp_path) as server:
        t = server.create(name="Lina", bots="random", kingdoms=1, timer=1, seed=KING_AT_0 + 1)
        where = find_table(f"{server.base}/t/{t['id']}")
        seat = take_seat(where, "Ponderous (bot)")
        table = server.app.state.hub.tables[t["id"]]
        bot = Ponderous()

        async def run() -> None:
            lina = TableLink(where, t["token"], lambda m: None)
            helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(8)))]
            await asyncio.wait_for(lina.connected.wait(), 10)
            playing = asyncio.create_task(play_with_bot(where, seat.token, bot, say=lambda _: None))
            await until(lambda: bool(table.seats[seat.seat].conns))
            await asyncio.to_thread(start_match, take_host(t, where))

            # read from the table's events, not by watching the seat's flag, which a busy machine can
            # miss between two looks (the seat is back as soon as the late move is dropped)
            def happened(kind: str) -> bool:
                return any(e["kind"] == kind and e.get("seat") == seat.seat for _, e in list(table.events))

            await until(lambda: happened("timeout"), 20)  # the timer ran out on the first decision
            await until(lambda: happened("back"), 20)  # asked back
            await until(lambda: bot.calls >= 3, 30)  # and it plays again
            playing.cancel()
            await lina.close()
            helpers[1].cancel()
            await asyncio.gather(playing, *helpers, return_exceptions=True)

        asyncio.run(run())
