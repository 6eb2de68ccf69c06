"""``opentrix join``: the terminal table at a real server's table, driven through Textual's pilot, beside a
friend on a WebSocket; and the command's own answers to bad input."""

from __future__ import annotations

import asyncio
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from opentrix import actions as A
from opentrix.cli import app as cli_app
from opentrix.client import Seat, TableLink, find_table, start_match, take_seat
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.tui.glyphs import Glyphs
from opentrix.tui.remote import RemoteApp, RemoteSession
from opentrix.tui.seats import kept_seat
from opentrix.tui.snapshot import screen_text
from opentrix.view import view
from pty_kit import PtyCommand
from test_client import autoplay
from test_server_kit import LiveServer, Player, live_server, record_of

SIZE = (80, 24)


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("remote")) as s:
        yield s


@pytest.fixture(autouse=True)
def seats_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    path = tmp_path / "seats.json"
    monkeypatch.setenv("OPENTRIX_SEATS", str(path))
    return path


async def until(app: RemoteApp, pilot: Any, condition: Any, timeout: float = 15) -> None:
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        if asyncio.get_running_loop().time() > deadline:
            raise AssertionError(f"the condition was not met; the screen:\n{screen_text(app)}")
        await pilot.pause(0.02)


async def spy(app: RemoteApp, pilot: Any) -> list[dict[str, Any]]:
    """Every message the app sends from now on (its link connected), as sent."""
    await until(app, pilot, lambda: app.remote.link is not None and app.remote.link.connected.is_set())
    link = app.remote.link
    assert link is not None
    sent: list[dict[str, Any]] = []
    real = link.send

    async def send(message: dict[str, Any]) -> bool:
        sent.append(message)
        return await real(message)

    link.send = send  # type: ignore[method-assign]
    return sent


def typed_name(card: int) -> str:
    return A.to_str(card).lower().replace("t", "10")


async def test_a_friend_in_a_terminal_waits_in_the_lobby_then_plays_by_keys(server: LiveServer) -> None:
    """Omar joins Lina's table from a terminal: he sees the lobby, the host starts it from her side,
    he names the contract as king and plays his cards by typing them; the server's record has them."""
    seed = next(s for s in range(1000) if Match(Rules(), seed=s).king == 1)  # Omar, at seat 1, is king
    t = server.create(name="Lina", bots="random", kingdoms=1, seed=seed)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    assert omar.seat == 1
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "Waiting for the host to start" in screen_text(app))
        screen = screen_text(app)
        assert "seat 1: Lina · host" in screen and "seat 2: You" in screen  # numbered as the web lobby does
        await pilot.press("enter")  # not the host: told who starts
        await until(app, pilot, lambda: "The host starts the match" in screen_text(app))

        lina = TableLink(where, t["token"], lambda m: None)
        helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(1)))]
        await asyncio.wait_for(lina.connected.wait(), 10)
        await asyncio.to_thread(start_match, Seat(where, 0, t["token"], "Lina"))
        await until(app, pilot, lambda: "You are king: name a contract" in screen_text(app))
        await pilot.press("/", *"2", "enter")  # a word to the table, not the second contract
        await pilot.pause(0.3)
        assert app.remote.state.view is not None and app.remote.state.view.phase == Phase.CHOOSE_CONTRACT
        await pilot.press(*"queens", "enter")
        s = app.remote.state
        await until(app, pilot, lambda: s.view is not None and s.view.phase == Phase.PLAY)
        played: list[int] = []
        while len(played) < 4:
            await until(app, pilot, lambda: s.view is not None and (s.view.to_act or s.view.phase != Phase.PLAY))
            v = s.view
            assert v is not None
            if v.phase != Phase.PLAY:
                break
            card = v.legal_actions[-1]
            await pilot.press(*typed_name(card), "enter")
            await until(app, pilot, lambda v=v: s.view is not v)
            played.append(card)
        assert "connected" in screen_text(app).splitlines()[1]
        await lina.close()
        helpers[1].cancel()
        await asyncio.gather(*helpers, return_exceptions=True)
    deal = server.app.state.hub.tables[t["id"]].match.deals[0]  # the server's own match
    assert deal.contract == Contract.QUEENS and deal.king == 1
    mine = [card for seat, card in zip(deal.seats, deal.plays, strict=True) if seat == 1]
    assert mine[: len(played)] == played


async def test_a_wrong_card_is_refused_on_the_spot_and_the_hint_comes_from_the_table(server: LiveServer) -> None:
    seed = next(s for s in range(1000) if Match(Rules(), seed=s).king == 0)
    t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1, hints=True)
    where = find_table(f"{server.base}/t/{t['id']}#seat=0&token={t['token']}")
    seat = kept_seat(where)
    assert seat is not None and seat.seat == 0
    app = RemoteApp(RemoteSession(where, seat), Glyphs(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "You are king" in screen_text(app))
        await pilot.press("1")  # King of Hearts, by its number: hearts may not be led
        s = app.remote.state
        await until(app, pilot, lambda: s.view is not None and s.view.phase == Phase.PLAY and s.view.to_act)
        v = s.view
        assert v is not None
        barred = [int(c) for c in v.hand or () if int(c) not in v.legal_actions]
        assert barred, "this seed's first lead has hearts it may not lead"
        sent = await spy(app, pilot)
        await pilot.press(*typed_name(barred[0]), "enter")  # refused here, nothing sent
        await until(app, pilot, lambda: "may not be played now" in screen_text(app))
        await pilot.pause(0.2)
        assert s.view is v and sent == []
        await pilot.press("question_mark")
        await until(app, pilot, lambda: "Hint:" in screen_text(app))


def test_join_says_what_is_wrong(server: LiveServer, seats_file: Path) -> None:
    runner = CliRunner()
    _register_commands()
    out = runner.invoke(cli_app, ["join", "ABCD"])
    assert out.exit_code == 1 and "a code without a server" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/ZZZZ", "--name", "Omar"])
    assert out.exit_code == 1 and "no table 'ZZZZ'" in out.output
    t = server.create(name="Lina", bots="random", kingdoms=1)
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}"])
    assert out.exit_code == 1 and "give your name for a new seat: --name NAME" in out.output
    started = server.create(name="Lina", bots="random", start=True)
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{started['id']}", "--name", "Omar"])
    assert out.exit_code == 1
    assert f"opentrix join: the match at table {started['id']} has already started: --watch to watch it\n" == out.output
    for bad in ("7", "0", "5"):  # seats 1 to 4, as the lobby numbers them
        out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--seat", bad, "--name", "O"])
        assert out.exit_code == 2 and "--seat" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--seat", "1", "--name", "O"])
    assert out.output == "opentrix join: seat 1 is taken (Lina); the open seats: 2, 3, 4\n"
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--seat", "1", "--bot", "basic"])
    assert out.output == "opentrix join: seat 1 is taken (Lina); the open seats: 2, 3, 4\n"
    out = runner.invoke(cli_app, ["join", "http://127.0.0.1:9/t/ABCD", "--name", "O"])
    assert out.output == "opentrix join: cannot reach 127.0.0.1:9: Connection refused\n"
    out = runner.invoke(cli_app, ["join", "http://127.0.0.1:99999/t/ABCD", "--name", "O"])
    assert out.exit_code == 1 and "has no valid port (a port is a number from 1 to 65535)" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--watch", "--seat", "1", "--name", "O"])
    assert out.exit_code == 2
    assert out.output == "opentrix join: --watch takes no seat, so --seat, --name cannot go with it\n"
    # Without a terminal the screen cannot open: said, and no seat is taken on the way
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--name", "Omar"])
    assert "reads keys from a terminal" in out.output and out.exit_code == 2
    assert [s["kind"] for s in server.info(t["id"])["seats"]] == ["human", "open", "open", "open"]
    assert not seats_file.exists()


async def test_join_at_a_match_over_and_put_away_says_so_before_the_screen_opens(server: LiveServer) -> None:
    """A finished match the server put away has no seat to take and nothing to watch: one line, status
    1, before the screen opens (it used to open the screen, show "Connecting…" and close it again),
    naming its rematch when there is one: the command that takes your own seat there if you have one."""
    runner = CliRunner()
    _register_commands()
    for rematch in (False, True):
        t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
        lina = await Player.join(server.ws_base, t["id"], t["token"])
        await lina.play_to_end(random.Random(2))
        again = mine = ""
        if rematch:
            await lina.send({"type": "rematch"})
            told = await lina.until(lambda m: m["type"] == "rematch")
            again = f"; watch its rematch with: opentrix join {server.base}/t/{told['code']} --watch"
            mine = (
                f"; your seat at its rematch: opentrix join '{server.base}/t/{told['code']}#seat=0&token={t['token']}'"
            )
        await lina.close()
        server.put_away(t["id"])
        link = f"{server.base}/t/{t['id']}"
        for args, went_on in (
            ([link, "--watch"], again),
            ([f"{link}#seat=0&token={t['token']}"], mine),  # Lina's seat: the finished match's token takes it
            ([link, "--name", "Omar"], again),
        ):
            out = runner.invoke(cli_app, ["join", *args])
            assert out.exit_code == 1, out.output
            said = f"the match at table {t['id']} is over; its record stays at {link}{went_on}"
            assert out.output == f"opentrix join: {said}\n"


async def test_join_waits_for_a_match_its_stopped_server_had_open(server: LiveServer) -> None:
    """A server elsewhere stopped at the final standings: ``join`` waits while its lease runs (the table's
    facts say ``pending``), then goes on to the table taken up here, rather than calling it over."""
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    await lina.play_to_end(random.Random(2))
    await lina.close()
    server.put_away(t["id"])
    server.held_elsewhere(t["id"], 300)
    _register_commands()
    joined = asyncio.create_task(
        asyncio.to_thread(CliRunner().invoke, cli_app, ["join", f"{server.base}/t/{t['id']}", "--watch"])
    )
    await asyncio.sleep(1.5)
    assert not joined.done()
    server.held_elsewhere(t["id"], -1)
    out = await asyncio.wait_for(joined, 30)
    assert "is over" not in out.output and "reads keys from a terminal" in out.output  # past the facts: the screen


def test_the_hosts_own_link_is_kept_so_the_line_printed_at_the_end_works(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
    host_link = f"{server.base}/t/{t['id']}#seat=0&token={t['token']}"
    runner = CliRunner()
    _register_commands()
    out = runner.invoke(cli_app, ["join", host_link])  # stops at the terminal check, the seat kept first
    assert out.exit_code == 2
    kept = kept_seat(find_table(f"{server.base}/t/{t['id']}"))  # the plain link now finds the host's seat
    assert kept is not None and (kept.seat, kept.token) == (0, t["token"])


def _register_commands() -> None:
    from opentrix.cli import _register_optional

    if not any(c.name == "join" for c in cli_app.registered_commands):
        _register_optional()


async def test_a_spectator_watches_the_table_without_a_hand(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    app = RemoteApp(RemoteSession(where, None), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: app.remote.state.view is not None)
        s = app.remote.state
        assert s.seat is None and s.view is not None and s.view.hand is None
        await until(app, pilot, lambda: "watching" in screen_text(app).splitlines()[1])
        screen = screen_text(app)
        assert "Lina" in screen and "You" not in screen  # nobody is "You" to a spectator
        assert "Hand (no cards left)" not in screen  # a spectator has no hand, not an empty one
        assert "Watching: the players' hands are hidden from spectators" in screen
        sent = await spy(app, pilot)
        await pilot.press(*"qs", "enter")  # a spectator's move is refused here, not sent
        await until(app, pilot, lambda: "'qs': you are watching; spectators do not play." in screen_text(app))
        assert "not your turn" not in screen_text(app)
        await pilot.press("/", *"hi", "enter")
        await until(app, pilot, lambda: "Spectators read the chat" in screen_text(app))
        await pilot.pause(0.2)
        assert sent == []


async def test_a_player_whose_timer_ran_out_takes_his_seat_back_with_enter(server: LiveServer) -> None:
    """The move timer counts down on the status line; when it runs out a bot plays for you, the screen
    says so, and Enter takes the seat back."""
    seed = next(s for s in range(1000) if Match(Rules(), seed=s).king == 0)
    t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1, timer=2)
    where = find_table(f"{server.base}/t/{t['id']}#seat=0&token={t['token']}")
    app = RemoteApp(RemoteSession(where, kept_seat(where)), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "your move: " in screen_text(app).splitlines()[1])
        await until(app, pilot, lambda: "A bot is playing for you" in screen_text(app), timeout=20)
        assert app.away
        await pilot.press("enter")
        await until(app, pilot, lambda: not app.away)
        assert "A bot is playing for you" not in screen_text(app)


@pytest.mark.parametrize("friend", [False, True])
async def test_the_host_starts_with_enter_and_asks_twice_when_a_seated_friend_is_not_there(
    server: LiveServer, friend: bool
) -> None:
    """Enter starts the host's lobby at once when everyone seated is there; with a friend seated but not
    there (a rematch's lobby, reached with one Enter too many), it asks for a second Enter first."""
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    if friend:
        take_seat(where, "Omar")  # seated, not connected
    app = RemoteApp(RemoteSession(where, Seat(where, 0, t["token"], "Lina")), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "You are the host: press Enter to start" in screen_text(app))
        await pilot.press("enter")
        if friend:
            await until(app, pilot, lambda: "Omar is not here yet: press Enter again" in screen_text(app))
            await pilot.pause(0.3)
            assert server.info(t["id"])["status"] == "lobby" and app.remote.state.view is None
            await pilot.press("enter")
        await until(app, pilot, lambda: app.remote.state.view is not None)
    assert server.info(t["id"])["status"] == "playing"


async def test_enter_at_the_end_of_a_match_sits_you_at_the_rematch(server: LiveServer, seats_file: Path) -> None:
    t = server.create(name="Lina", bots="random", start=True, kingdoms=1)
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    await lina.play_to_end(random.Random(2))
    await lina.close()
    where = find_table(f"{server.base}/t/{t['id']}#seat=0&token={t['token']}")
    app = RemoteApp(RemoteSession(where, kept_seat(where)), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "Press Enter to ask for a rematch" in screen_text(app))
        assert "The match is over: " in screen_text(app)
        await pilot.press("enter")
        await until(app, pilot, lambda: app.remote.where.code != t["id"] and app.remote.state.view is not None)
        new = app.remote.where
        assert app.remote.state.seat == 0 and app.remote.state.view.seat == 0
        await until(app, pilot, lambda: f"table {new.code}" in screen_text(app).splitlines()[1])
    kept = kept_seat(find_table(new.page))
    assert kept is not None and kept.seat == 0 and kept.token == app.remote.token


@pytest.mark.parametrize("leave", ["ctrl+q", "sigterm", "hangup"])
def test_opentrix_join_in_a_real_terminal(server: LiveServer, seats_file: Path, leave: str) -> None:
    """The command itself in a pseudo-terminal: the lobby drawn; Ctrl+Q, or a SIGTERM (``timeout``,
    ``kill``), leaves with the terminal put back (out of the app's screen) and the way back printed.
    A terminal that goes away (a closed SSH session: SIGHUP) ends the command at once, the seat left
    free for the server's grace period and its token kept for the way back."""
    pytest.importorskip("pty")
    import os
    import signal
    import time

    t = server.create(name="Lina", bots="random", kingdoms=1)
    link = f"{server.base}/t/{t['id']}"
    env = {"OPENTRIX_SEATS": str(seats_file), "COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
    # as under nohup: a closed terminal must still end it
    with PtyCommand(["join", link, "--name", "Omar"], env, ignore_hangup=True) as term:
        term.read_until(b"Waiting for the host", 30)
        assert b"Waiting for the host" in term.seen
        if leave == "hangup":
            os.close(term.fd)
            deadline = time.monotonic() + 15
            while not term.ended():
                assert time.monotonic() < deadline, "the command outlived its terminal"
                time.sleep(0.1)
            table = server.app.state.hub.tables[t["id"]]
            while table.seats[1].conns:
                assert time.monotonic() < deadline, "the server still counts the closed terminal as connected"
                time.sleep(0.1)
            assert json.loads(seats_file.read_text())[f"{server.base}/t/{t['id']}"]["name"] == "Omar"
            return
        if leave == "ctrl+q":
            term.type(b"\x11")
        else:
            os.kill(term.pid, signal.SIGTERM)
        term.read_until(b"back with:", 15)
        assert term.exit_code() == 0
        assert b"\x1b[?1049l" in term.seen  # the terminal's own screen back
        assert f"left table {t['id']}; back with: opentrix join {server.base}/t/{t['id']}".encode() in term.seen
        assert json.loads(seats_file.read_text())[f"{server.base}/t/{t['id']}"]["name"] == "Omar"


async def test_mute_hides_a_players_messages_on_this_screen_only(server: LiveServer) -> None:
    """In the chat line a "/" command is for this screen and never sent: /mute NAME hides a player's
    messages (the web page's chat can), /mute lists them, /unmute shows them again, /log shows the
    chat so far; "//" begins a message with "/"; an unknown command or name says what is possible."""
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))

    async def lina_says(text: str) -> None:
        await lina.send({"type": "chat", "text": text})
        await until(app, pilot, lambda: any(m["text"] == text for m in app.remote.state.chat))
        await pilot.pause(0.1)

    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "Waiting for the host" in screen_text(app))
        sent = await spy(app, pilot)
        shown: list[str] = []  # every message line the screen gave, in order
        say = app.say

        def told(message: Any, *args: Any, **kwargs: Any) -> None:
            shown.append(str(message))
            say(message, *args, **kwargs)

        app.say = told  # type: ignore[method-assign]
        await pilot.press("/", *"/mute lina", "enter")
        assert "Lina's messages are hidden here. /unmute Lina shows them again." in screen_text(app)
        await lina_says("buy my card app")
        assert "buy my card app" not in screen_text(app)
        await pilot.press("/", *"/mute", "enter")
        assert "Hidden here: Lina. /unmute NAME shows one again." in screen_text(app)
        await pilot.press("/", *"/log", "enter")
        await pilot.pause()
        assert "(1 from Lina hidden: /unmute Lina shows them)" in screen_text(app)
        assert "buy my card app" not in screen_text(app)
        await pilot.press("escape")
        await pilot.press("/", *"/mute Zed", "enter")
        assert "No other player here is named 'Zed' (players: Lina)." in screen_text(app)
        await pilot.press("/", *"/shrug", "enter")
        assert "/mute NAME hides a player's messages" in screen_text(app)
        await pilot.press("/", *"/unmute LINA", "enter")
        assert "Lina's messages are shown again." in screen_text(app)
        await lina_says("yalla")
        await until(app, pilot, lambda: "Lina: yalla" in screen_text(app))
        assert not [line for line in shown if "buy my card app" in line]  # taken in before "yalla", never shown
        await pilot.press("/", *"/LOG", "enter")
        await pilot.pause()
        assert "Lina: buy my card app" in screen_text(app) and "Lina: yalla" in screen_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert "Waiting for the host" in screen_text(app)
        await pilot.press("/", *"//me waves", "enter")
        said = await lina.until(lambda m: m["type"] == "chat" and m["message"]["name"] == "Omar")
        assert said["message"]["text"] == "/me waves"
        assert sent == [{"type": "chat", "text": "/me waves"}]  # the commands stayed on this screen
    await lina.close()


async def test_the_lobby_keeps_the_chat_line_on_the_smallest_screen(server: LiveServer) -> None:
    """At 60×20, the least the client draws on, the lobby's rows (seats, invite, prompt, a message of
    two lines) used to push the line you type on below the bottom edge; and the line says, before
    Enter, whether what is typed goes to the table or stays on this screen."""
    t = server.create(name="Lina", bots="easy", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))
    async with app.run_test(size=(60, 20)) as pilot:
        await until(app, pilot, lambda: "Waiting for the host" in screen_text(app))
        assert "(an easy bot if nobody sits)" in screen_text(app)
        await pilot.press("enter")  # a message that wraps: "The host starts the match; …"
        await until(app, pilot, lambda: "The host starts the match" in screen_text(app))
        await pilot.press("/")
        await pilot.pause()
        rows = screen_text(app).splitlines()
        assert any(r.startswith("chat> ") and "/log" in r for r in rows), "\n".join(rows)
        await pilot.press("/", *"log")
        await pilot.pause()
        assert "for this screen only, not sent" in screen_text(app)
        await pilot.press("backspace", "backspace", "backspace", "backspace", "space", *"/log")
        await pilot.pause()
        assert "for this screen only, not sent" in screen_text(app)  # as Enter reads it: spaces first do not count
        await pilot.press(*["backspace"] * 5, *"hello")
        await pilot.pause()
        assert "chat> hello" in screen_text(app) and "Enter sends" in screen_text(app)


async def test_slash_writes_to_the_table_and_friends_read_it(server: LiveServer) -> None:
    """ "/" opens the chat line: every key goes into it (a word there plays no card), Enter sends it, and
    the friend's message comes back on the message line; Escape drops a line unsent."""
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    lina = await Player.join(server.ws_base, t["id"], t["token"])
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "Waiting for the host" in screen_text(app))
        sent = await spy(app, pilot)
        for key in ("a", "left", "tab", "f1", "?", "enter", "space"):  # nothing to do in the lobby but chat
            await pilot.press(key)
        assert app.is_running and "Waiting for the host" in screen_text(app)
        await pilot.press("/", *"Ahlan, 10 qs!", "backspace", "?")
        assert "chat> Ahlan, 10 qs?" in screen_text(app)
        assert sent == [] and "Hint" not in screen_text(app)  # "?" was a question mark
        await pilot.press("enter")
        said = await lina.until(lambda m: m["type"] == "chat")
        assert said["message"]["name"] == "Omar" and said["message"]["text"] == "Ahlan, 10 qs?"
        assert "chat>" not in screen_text(app)
        await lina.send({"type": "chat", "text": "Marhaba Omar"})
        await until(app, pilot, lambda: "Lina: Marhaba Omar" in screen_text(app))
        await pilot.press("/", *"never mind", "escape")
        assert "chat>" not in screen_text(app)
        await pilot.pause(0.3)
        chat_log = server.app.state.hub.tables[t["id"]].chat_log
        assert [m["text"] for m in chat_log] == ["Ahlan, 10 qs?", "Marhaba Omar"]  # nothing sent on Escape
        assert sent == [{"type": "chat", "text": "Ahlan, 10 qs?"}]
    await lina.close()


async def test_a_hand_with_nothing_to_claim_answers_after_a_pause(server: LiveServer) -> None:
    """King of Hearts under Wikipedia rules asks every hand about a redeal; one that cannot claim is
    answered for you, but not at once (that would tell the table the hand has nothing to claim with)."""
    from opentrix.deal import can_claim_redeal

    def fits(seed: int) -> bool:
        m = Match(Rules.preset("wikipedia"), seed=seed)
        return m.king == 1 and not can_claim_redeal(m.pending_hands[1], Contract.KING_OF_HEARTS)

    t = server.create(name="Lina", rules="wikipedia", bots="random", kingdoms=1, seed=next(filter(fits, range(1000))))
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    lina = TableLink(where, t["token"], lambda m: None)
    helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(1)))]
    await asyncio.wait_for(lina.connected.wait(), 10)
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        sent = await spy(app, pilot)
        times: list[float] = []
        real = app.remote.link.send  # type: ignore[union-attr]

        async def timed(message: dict[str, Any]) -> bool:
            times.append(asyncio.get_running_loop().time())
            return await real(message)

        app.remote.link.send = timed  # type: ignore[union-attr,method-assign]
        await asyncio.to_thread(start_match, Seat(where, 0, t["token"], "Lina"))
        await until(app, pilot, lambda: "You are king" in screen_text(app))
        await pilot.press("1")  # King of Hearts
        await until(app, pilot, lambda: any(m.get("action") == "no claim" for m in sent), timeout=10)
        assert [(m["type"], m["action"]) for m in sent[:2]] == [("act", "contract king_of_hearts"), ("act", "no claim")]
        assert isinstance(sent[0]["after"], int) and sent[1]["after"] > sent[0]["after"]  # each for its own turn
        assert times[1] - times[0] >= 1.2
    await lina.close()
    helpers[1].cancel()
    await asyncio.gather(*helpers, return_exceptions=True)


async def test_a_bot_of_yours_plays_a_seat_to_the_end_of_the_match(server: LiveServer) -> None:
    """``opentrix join LINK --bot NAME``: no screen; the bot takes a seat under a name that says it is
    a bot, plays every decision of that seat from its view, is ready for each deal, and stops at the end."""
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    lina = TableLink(where, t["token"], lambda m: None)
    helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(4)))]
    await asyncio.wait_for(lina.connected.wait(), 10)
    _register_commands()
    args = ["join", where.page, "--bot", "basic", "--name", "Deep", "--seat", "3"]  # the lobby's third seat
    joined = asyncio.create_task(asyncio.to_thread(CliRunner().invoke, cli_app, args))
    for _ in range(200):
        if server.info(t["id"])["seats"][2]["kind"] == "human":
            break
        await asyncio.sleep(0.05)
    await asyncio.to_thread(start_match, Seat(where, 0, t["token"], "Lina"))
    out = await asyncio.wait_for(joined, 120)
    assert out.exit_code == 0, out.output
    lines = out.output.splitlines()
    assert lines[0] == f"table {t['id']}: basic plays seat 3 as Deep (bot) until the match is over (Ctrl+C stops it)"
    assert lines[1].startswith("deal 1 over: Lina ") and lines[-1].startswith("match over: Lina ")
    record = await asyncio.to_thread(record_of, server.base, t["id"])
    assert record.players[2] == "Deep (bot)" and record.replay().is_over
    await lina.close()
    helpers[1].cancel()
    await asyncio.gather(*helpers, return_exceptions=True)


def test_a_bot_that_sees_every_hand_is_never_seated(server: LiveServer) -> None:
    _register_commands()
    runner = CliRunner()
    t = server.create(name="Lina", bots="random", kingdoms=1)
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--bot", "cheat"])
    assert out.exit_code == 2 and "cheat sees every hand: it plays in the arena only" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--bot", "genius"])
    assert out.exit_code == 2 and "unknown bot 'genius'" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--bot", "basic", "--watch"])
    assert out.exit_code == 2 and "--watch takes no seat, so --bot cannot go with it" in out.output
    host_link = f"{server.base}/t/{t['id']}#seat=0&token={t['token']}"
    out = runner.invoke(cli_app, ["join", host_link, "--bot", "basic"])  # Lina's seat, under her name
    assert out.exit_code == 1 and "a bot takes an open seat: give the table's invite link" in out.output
    out = runner.invoke(cli_app, ["join", f"{server.base}/t/{t['id']}", "--bot", "basic", "--name", "x" * 35])
    assert out.exit_code == 2 and "--name has at most 34 characters" in out.output
    assert [s["kind"] for s in server.info(t["id"])["seats"]] == ["human", "open", "open", "open"]


async def test_a_move_made_while_the_line_is_down_is_not_shown_as_played(server: LiveServer) -> None:
    """Not connected, a move is not sent and the screen says so; the status line used to read
    "You name King of Hearts" and the message "Asking the table for a hint…" right after saying so."""
    seed = next(s for s in range(1000) if Match(Rules(), seed=s).king == 0)
    t = server.create(name="Lina", bots="random", start=True, seed=seed, kingdoms=1, hints=True)
    where = find_table(f"{server.base}/t/{t['id']}#seat=0&token={t['token']}")
    app = RemoteApp(RemoteSession(where, kept_seat(where)), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "You are king" in screen_text(app))
        sent = await spy(app, pilot)
        link = app.remote.link
        assert link is not None
        link.connected.clear()  # the line is down (between a dropped connection and the next one)
        await pilot.press("1")
        screen = screen_text(app)
        assert "Not connected: the move was not sent. Trying to reconnect…" in screen
        assert "You name" not in screen.splitlines()[1]
        await pilot.press("question_mark")
        screen = screen_text(app)
        assert "Not connected: the request for a hint was not sent." in screen
        assert "Asking the table for a hint" not in screen
        await pilot.pause(0.2)
        assert sent == []
        link.connected.set()  # back: the same key plays it
        await pilot.press("1")
        await until(app, pilot, lambda: "You name King of Hearts" in screen_text(app).splitlines()[1])
        assert [m.get("action") for m in sent] == ["contract king_of_hearts"]


@pytest.mark.parametrize(
    "args",
    [["http://[::1/t/ABCDEF", "--watch"], ["ABC", "--server", "http://[::1"], ["http://[::1/t/ABCD", "--name", "O"]],
)
def test_a_link_that_is_no_address_at_all_is_one_line_of_bad_input(args: list[str]) -> None:
    """urllib's "Invalid IPv6 URL" came out as a traceback, not as the one line of other bad input."""
    _register_commands()
    out = CliRunner().invoke(cli_app, ["join", *args])
    assert out.exit_code == 1
    assert out.output.count("\n") == 1 and out.output.startswith("opentrix join: ")
    assert "Invalid IPv6 URL" in out.output and "Traceback" not in out.output


async def test_notes_about_the_lobby_and_the_end_of_a_deal_go_when_the_table_moves_on(tmp_path: Path) -> None:
    """The note "The rules open once the match has begun…" stayed into the first turn, and "Ready for
    the next deal…" into the next deal."""
    with live_server(tmp_path, deal_pause=60.0) as server:  # the next deal waits for everyone's Enter
        await _notes_go_when_the_table_moves_on(server)


async def _notes_go_when_the_table_moves_on(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    omar = take_seat(where, "Omar")
    lina = TableLink(where, t["token"], lambda m: None)
    helpers = [asyncio.create_task(lina.run()), asyncio.create_task(autoplay(lina, random.Random(5)))]
    await asyncio.wait_for(lina.connected.wait(), 10)
    app = RemoteApp(RemoteSession(where, omar), Glyphs(ascii=False))
    async with app.run_test(size=SIZE) as pilot:
        await until(app, pilot, lambda: "Waiting for the host" in screen_text(app))
        await pilot.press("f1")
        await until(app, pilot, lambda: "The rules open once the match has begun" in screen_text(app))
        await asyncio.to_thread(start_match, Seat(where, 0, t["token"], "Lina"))
        s = app.remote.state
        await until(app, pilot, lambda: s.view is not None)
        await pilot.pause(0.1)
        assert "The rules open once" not in screen_text(app)
        deadline = asyncio.get_running_loop().time() + 60
        while s.view is not None and s.view.phase != Phase.DEAL_OVER:  # Omar's moves: the selection
            assert asyncio.get_running_loop().time() < deadline, screen_text(app)
            if s.view.to_act and not s.view.match_over:
                before = s.n
                await pilot.press("enter")
                await until(app, pilot, lambda before=before: s.n != before)
            await pilot.pause(0.02)
        first = s.view
        assert first is not None and first.phase == Phase.DEAL_OVER
        await pilot.press("enter")
        await until(app, pilot, lambda: s.view is not None and s.view.deal_number != first.deal_number)
        await pilot.pause(0.1)
        assert "Ready for the next deal" not in screen_text(app)
    await lina.close()
    helpers[1].cancel()
    await asyncio.gather(*helpers, return_exceptions=True)


def test_a_player_whose_seat_was_freed_leaves_with_a_way_back_that_works(server: LiveServer, seats_file: Path) -> None:
    """The host frees Omar's seat in the lobby; he used to be told ``back with: opentrix join LINK``,
    which then asked for a name. The line now says how to sit down again, and that command works."""
    pytest.importorskip("pty")
    import httpx

    t = server.create(name="Lina", bots="random", kingdoms=1)
    page = f"{server.base}/t/{t['id']}"
    env = {"OPENTRIX_SEATS": str(seats_file), "COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
    with PtyCommand(["join", page, "--name", "Omar Ali"], env) as term:
        term.read_until(b"Waiting for the host", 30)
        assert b"Waiting for the host" in term.seen
        freed = httpx.post(f"{server.base}/api/tables/{t['id']}/free", json={"token": t["token"], "seat": 1})
        assert freed.status_code == 200, freed.text
        term.read_until(b"freed your seat", 15)
        assert b"freed your seat" in term.seen
        term.type(b"\x11")
        term.read_until(b"--watch", 15)
        assert term.exit_code() == 0
        said = term.seen.decode(errors="replace")
        assert "back with:" not in said
        assert (
            f"left table {t['id']}; your seat was freed: sit down again with: opentrix join {page} --name 'Omar Ali',"
            f" or watch with: opentrix join {page} --watch"
        ) in said
    _register_commands()  # the line's command passes every check up to the terminal's (none here)
    out = CliRunner().invoke(cli_app, ["join", page, "--name", "Omar Ali"])
    assert out.exit_code == 2 and "reads keys from a terminal" in out.output


def test_column_heads_tell_players_apart_and_wide_names_keep_the_columns() -> None:
    """Two players whose names begin alike had the same column head (``Moha Moha``), and a name in wide
    letters (山田) broke the score panel's columns: cut and padded by characters, not by cells."""
    from rich.cells import cell_len

    from opentrix.client import TableAddress
    from opentrix.tui import render

    session = RemoteSession(TableAddress("http://127.0.0.1:9", "ABCD"), None)
    session.state.seat = 0
    session.state.info = {
        "seats": [
            {"kind": "human", "name": "Lina"},
            {"kind": "human", "name": "Mohammed"},
            {"kind": "human", "name": "Mohamad"},
            {"kind": "human", "name": "山田太郎"},
        ]
    }
    heads = list(session.short_names())
    assert heads[:3] == ["You", "Moh2", "Moh3"], heads  # seats numbered as the lobby numbers them
    assert all(cell_len(h) <= 4 for h in heads), heads
    m = Match(Rules.preset("classic"), seed=1)
    rng = random.Random(1)
    while len(m.deals) < 3 or m.phase != Phase.DEAL_OVER:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
            continue
        m.apply(rng.choice(m.legal_actions()))
    panel = render.scores(view(m, 0), heads, max_rows=8).plain.splitlines()
    assert all(cell_len(line) <= render.SCORE_WIDTH for line in panel), panel
    head, total = panel[0], panel[-1]
    assert cell_len(head) == cell_len(total) == render.SCORE_WIDTH, panel  # each column where its total is
    assert "山田" in head and "山田太" not in head


async def test_the_lobby_says_when_the_terminal_is_too_small(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", kingdoms=1)
    where = find_table(f"{server.base}/t/{t['id']}")
    app = RemoteApp(RemoteSession(where, take_seat(where, "Omar")), Glyphs(ascii=False))
    async with app.run_test(size=(50, 16)) as pilot:
        await until(app, pilot, lambda: "seat 2: You" in screen_text(app))
        assert screen_text(app).splitlines()[0].startswith("Too small (50×16): needs 60×20")
        await pilot.resize_terminal(80, 24)
        await until(app, pilot, lambda: screen_text(app).startswith("opentrix · table"))


@pytest.mark.parametrize("missing", ["textual", "websockets"])
def test_join_without_its_packages_names_the_one_extra_that_brings_both(missing: str) -> None:
    code = f"import sys; sys.modules[{missing!r}] = None\nsys.argv = ['opentrix', 'join', 'ABCDEF']\n"
    code += "from opentrix.cli import main\nmain()"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "pip install 'opentrix[play]'" in run.stderr, run.stderr
    assert "Traceback" not in run.stderr
