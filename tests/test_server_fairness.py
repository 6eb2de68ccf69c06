"""What keeps a table fair and the server responsive: a seed the host chose is shown to everyone, names
hide nothing, a killed server's tables are taken up at once, and thinking bots never starve the server.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest
from playwright.sync_api import sync_playwright

from opentrix.actions import to_str
from opentrix.server import table as table_module
from opentrix.server.hub import clean_name
from opentrix.server.owner import _machine, dead_here
from opentrix.server.table import TableError, replay_actions, rules_for
from opentrix.server.thinking import BOT_THREAD, THREAD
from test_server_kit import LiveServer, Player, ServeProcess, free_port, live_server
from test_web_table import CHROMIUM, CHROMIUM_ARGS, DESKTOP, PHONE, hand_cards, new_page, shot


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LiveServer]:
    with live_server(tmp_path_factory.mktemp("fairness")) as s:
        yield s


# -- a seed the host chose is public ------------------------------------------------------------------


async def test_a_seed_the_host_chose_is_shown_to_everyone(server: LiveServer) -> None:
    seeded = server.create(name="Lina", bots="random", seed=12345)
    assert server.info(seeded["id"])["seed"] == 12345
    # A friend who joins and a spectator are told in the table's facts of every update.
    r = httpx.post(f"{server.base}/api/tables/{seeded['id']}/join", json={"name": "Omar"}, timeout=10)
    assert r.status_code == 200, r.text
    friend = await Player.join(server.ws_base, seeded["id"], r.json()["token"])
    watcher = await Player.join(server.ws_base, seeded["id"])
    for p in (friend, watcher):
        await p.until(lambda m: m["type"] == "update")
        assert p.table is not None and p.table["seed"] == 12345
        await p.close()
    # Seed 0 is a seed too.
    assert server.info(server.create(name="Lina", bots="random", seed=0)["id"])["seed"] == 0


async def test_a_seed_the_server_drew_stays_secret(server: LiveServer) -> None:
    t = server.create(name="Lina", bots="random", start=True)
    drawn = server.app.state.hub.tables[t["id"]].seed
    r = httpx.get(f"{server.base}/api/tables/{t['id']}", timeout=10)
    assert r.json()["seed"] is None and str(drawn) not in r.text  # it would tell every hand
    me = await Player.join(server.ws_base, t["id"], t["token"])
    await me.until(lambda m: m["type"] == "update")
    assert me.table is not None and me.table["seed"] is None
    assert not any(str(drawn) in text for text in me.raw)
    await me.close()
    # Drawn from the whole of the store's signed 64-bit column: a player's own 13 cards would single out
    # a seed from 2**48 by brute force, not from 2**63 (the chance that ten draws all fall below 2**48
    # is 2**-150).
    seeds = [server.app.state.hub.tables[server.create(name="L", bots="random")["id"]].seed for _ in range(10)]
    assert all(0 <= s < 2**63 for s in seeds) and max(seeds) >= 2**48


def test_a_finished_match_put_away_still_says_whether_its_seed_was_chosen(server: LiveServer) -> None:
    chosen = server.create(name="Lina", bots="random", start=True, seed=77, kingdoms=1, rules="online")
    drawn = server.create(name="Lina", bots="random", start=True, kingdoms=1, rules="online")

    async def finish(t: dict[str, Any]) -> None:
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await me.play_to_end(random.Random(1))
        await me.close()

    for t in (chosen, drawn):
        asyncio.run(finish(t))
        server.put_away(t["id"])  # nobody there any more: the finished table is put away
    assert server.info(chosen["id"])["stored"] is True and server.info(chosen["id"])["seed"] == 77
    assert server.info(drawn["id"])["stored"] is True and server.info(drawn["id"])["seed"] is None


@pytest.mark.browser
def test_a_friend_joining_by_the_invite_link_sees_the_seed_was_chosen(server: LiveServer) -> None:
    errors: list[str] = []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        host = new_page(browser, DESKTOP, errors)
        host.goto(f"{server.base}/?lang=en&seed=12345")
        host.fill("#name", "Lina")
        host.click("#create-invite")
        host.wait_for_selector("[data-testid=lobby]")
        link = host.locator("#invite-link").inner_text()
        friend = new_page(browser, PHONE, errors)
        friend.goto(link + "?lang=en")
        chip = friend.locator("[data-testid=lobby] [data-testid=seeded]")
        assert chip.inner_text() == "⚠ Seeded deals (seed 12345)"
        why = "The host chose the seed: the deals can be known in advance."
        assert chip.get_attribute("title") == why
        assert why in friend.locator("[data-testid=lobby]").inner_text()  # said in words, not only on hover
        shot(friend, "seeded-01-friend-lobby")
        friend.fill("#join-name", "Omar")
        friend.click("[data-cmd=take][data-seat='2']")
        friend.wait_for_selector("#join-name", state="detached")
        host.click("#start-match")
        friend.wait_for_selector("[data-testid=board]")
        assert len(hand_cards(friend)) == 13
        # At play, on the status bar; and in Arabic too.
        chip = friend.locator(".statusbar [data-testid=seeded]")
        assert chip.inner_text() == "⚠ Seeded deals (seed 12345)" and chip.get_attribute("title") == why
        friend.click("#lang-toggle")
        assert "(البذرة 12345)" in chip.inner_text()
        assert "اختار المضيف البذرة" in (chip.get_attribute("title") or "")
        shot(friend, "seeded-02-friend-table-arabic")
        # A large seed keeps all its digits (2**63 - 1: a JavaScript number would round it).
        host.goto(f"{server.base}/?lang=en&seed={2**63 - 1}")
        host.click("#play-bots")
        host.wait_for_selector("[data-testid=board]")
        assert f"(seed {2**63 - 1})" in host.locator(".statusbar [data-testid=seeded]").inner_text()
        # A table whose seed the server drew shows no chip.
        t = server.create(name="Lina", bots="random", start=True)
        host.goto(f"{server.base}/t/{t['id']}?lang=en#seat=0&token={t['token']}")
        host.wait_for_selector(".statusbar")
        assert host.locator("[data-testid=seeded]").count() == 0
        browser.close()
    assert not errors, errors


# -- names --------------------------------------------------------------------------------------------


def test_invisible_characters_are_left_out_of_names() -> None:
    assert clean_name("\u200bLi\u200bna\u200d") == "Lina"  # zero-width space and joiner
    assert clean_name("\ufeffOmar") == "Omar"  # the BOM
    assert clean_name("Ri\u202em") == "Rim"  # a right-to-left override would turn the text after it around
    assert clean_name("\u2066Sami\u2069 \u200e") == "Sami"  # isolates, a direction mark
    assert clean_name("Li\U000e0041na") == "Lina"  # a tag character
    assert clean_name("A \u200b B") == "A B"
    # Visible joins stay: an emoji family, a rainbow flag, Arabic.
    assert clean_name("ريم 👨\u200d👩\u200d👧") == "ريم 👨\u200d👩\u200d👧"
    assert clean_name("🏳\ufe0f\u200d🌈") == "🏳\ufe0f\u200d🌈"
    assert clean_name("مهر\u200cناز") == "مهر\u200cناز"  # Persian: the non-joiner shapes the letters
    with pytest.raises(TableError, match="1 to 40 characters"):
        clean_name("")
    for name in ("\u200b", "\u202e\u2066", " \u200b\ufeff "):
        with pytest.raises(TableError, match="a name needs a visible character"):
            clean_name(name)


def test_fillers_and_idle_selectors_are_left_out_of_names() -> None:
    """Characters that show nothing though Unicode does not call them format characters: Hangul
    fillers, the combining grapheme joiner, a variation selector after a plain letter, the Braille
    blank. "Omar" with one of them is Omar, the same name as his (so the second one is "Omar (2)")."""
    for hidden in ("\u3164", "\uffa0", "\u115f", "\u034f", "\ufe0f", "\ufe0e", "\u17b4", "\U000e0100"):
        assert clean_name(f"Om{hidden}ar{hidden}") == "Omar", hidden
        with pytest.raises(TableError, match="a name needs a visible character"):
            clean_name(hidden * 2)
    assert clean_name("Lina\u2800\u2800Sami") == "Lina Sami"  # the Braille blank is a space to the eye
    with pytest.raises(TableError, match="a name needs a visible character"):
        clean_name("\u2800")
    for name in ("b\u034fot:easy", "bot\ufe0f:hard"):
        with pytest.raises(TableError, match="cannot begin with 'bot:'"):
            clean_name(name)
    with pytest.raises(TableError, match="is how each player's own seat is shown"):
        clean_name("You\u034f")
    # where a selector picks a look, it stays: an emoji heart, a keycap, an ideograph's variant
    assert clean_name("Rim \u2764\ufe0f") == "Rim \u2764\ufe0f"
    assert clean_name("Team 1\ufe0f\u20e3") == "Team 1\ufe0f\u20e3"
    assert clean_name("\u8fbb\U000e0100") == "\u8fbb\U000e0100"


def test_a_person_cannot_take_a_bots_name() -> None:
    lookalikes = ("Bot\uff1ahard", "\uff42\uff4f\uff54:easy", "bot\ufe55x")  # full-width and small colons, letters
    for name in ("bot:hard", "BOT:easy", "  bot:medium", "\u200bbot:hard", "b\u200dot:x", *lookalikes):
        with pytest.raises(TableError, match="cannot begin with 'bot:'"):
            clean_name(name)
    assert clean_name("Robot: Lina") == "Robot: Lina"
    assert clean_name("bot hard") == "bot hard"


def test_a_person_cannot_be_called_you() -> None:
    """Every screen shows a player's own seat as "You" ("أنت"): a friend so named would be read by the
    others as themselves (two "You" rows in the scores)."""
    for name in ("You", "you", " YOU ", "Ｙou", "أنت", "انت"):
        with pytest.raises(TableError, match="is how each player's own seat is shown; choose another name"):
            clean_name(name)
    assert clean_name("Youssef") == "Youssef" and clean_name("You too") == "You too"
    assert clean_name("You", own=True) == "You"  # opentrix play's own table: nobody else there to misread it


def test_names_are_cleaned_and_refused_through_the_api(server: LiveServer) -> None:
    for name, why in (("\u200b\u200b", "visible character"), ("bot:hard", "cannot begin with 'bot:'")):
        r = httpx.post(f"{server.base}/api/tables", json={"name": name}, timeout=10)
        assert r.status_code == 400 and why in r.json()["error"], r.text
    t = server.create(name="\u202eLina\u200b")
    for name, why in (("\ufeff", "visible character"), ("bot:easy", "cannot begin with 'bot:'")):
        r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": name}, timeout=10)
        assert r.status_code == 400 and why in r.json()["error"], r.text
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Om\u200bar\u2069", "seat": 2}, timeout=10)
    assert r.status_code == 200, r.text
    seats = server.info(t["id"])["seats"]
    assert [seats[0]["name"], seats[2]["name"]] == ["Lina", "Omar"]
    # the refusals a player meets carry a code and its params, for a page to say them in its language
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "YOU"}, timeout=10)
    assert (r.status_code, r.json()["code"], r.json()["params"]) == (400, "name_you", {"name": "YOU"})
    r = httpx.post(f"{server.base}/api/tables/{t['id']}/join", json={"name": "Sami", "seat": 2}, timeout=10)
    assert (r.status_code, r.json()["code"], r.json()["error"]) == (400, "seat_taken", "seat 2 is already taken")
    r = httpx.get(f"{server.base}/api/tables/QQQQQQ", timeout=10)
    assert (r.status_code, r.json()["code"], r.json()["params"]) == (404, "no_table", {"code": "QQQQQQ"})
    r = httpx.post(f"{server.base}/api/tables/QQQQQQ/join", json={"name": "Sami"}, timeout=10)
    assert (r.status_code, r.json()["code"], r.json()["error"]) == (404, "no_table", "no table 'QQQQQQ'")
    r = httpx.post(f"{server.base}/api/tables", json={"rules": "nope"}, timeout=10)
    assert r.status_code == 400 and "code" not in r.json()  # one for whoever wrote the request: English only


# -- a killed server is seen as gone ------------------------------------------------------------------


def owner_of(pid: int) -> str:
    """A holder's name, as ``process_name`` writes it, for process ``pid`` of this machine."""
    return f"host:{_machine()}:{pid}:0123456789"


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="zombies are read from /proc on Linux")
def test_a_killed_server_not_yet_reaped_is_dead() -> None:
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert not dead_here(owner_of(child.pid))
        child.kill()  # and not waited for: a zombie until reaped, and os.kill(pid, 0) still finds it
        deadline = time.monotonic() + 10
        while b") Z " not in Path(f"/proc/{child.pid}/stat").read_bytes():
            assert time.monotonic() < deadline, "the child did not die"
            time.sleep(0.01)
        os.kill(child.pid, 0)  # still there
        assert dead_here(owner_of(child.pid))
    finally:
        child.kill()
        child.wait(10)
    assert dead_here(owner_of(child.pid))  # reaped: gone altogether


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="zombies are read from /proc on Linux")
def test_a_server_whose_first_thread_ended_is_alive() -> None:
    """The first thread of a process shows as a zombie when it alone has exited: the others still run."""
    code = (
        "import ctypes, threading, time\n"
        "threading.Thread(target=time.sleep, args=(60,)).start()\n"
        "time.sleep(0.1)\n"
        "ctypes.CDLL(None).pthread_exit(None)\n"
    )
    child = subprocess.Popen([sys.executable, "-c", code])
    try:
        deadline = time.monotonic() + 10
        while b") Z " not in Path(f"/proc/{child.pid}/stat").read_bytes():
            assert time.monotonic() < deadline, "the first thread did not end"
            time.sleep(0.01)
        assert len(os.listdir(f"/proc/{child.pid}/task")) == 2
        assert not dead_here(owner_of(child.pid))
    finally:
        child.kill()
        child.wait(10)


# -- thinking bots do not starve the server -----------------------------------------------------------


async def test_bots_think_on_the_one_bot_thread(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    threads: list[str] = []
    make_bot = table_module.make_bot

    class Spy:
        def __init__(self, level: str, seed: str) -> None:
            self.bot = make_bot(level, seed=seed)

        def act(self, view: Any, legal: list[int]) -> int:
            threads.append(threading.current_thread().name)
            return int(self.bot.act(view, legal))

    monkeypatch.setattr(table_module, "make_bot", lambda level, seed: Spy(level, seed))
    t = server.create(name="Lina", bots="hard", start=True, seed=3, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    rng = random.Random(2)
    while len(threads) < 6:
        await me.play_random(rng)
        await me.recv()
    await me.close()
    assert {name.rsplit("_", 1)[0] for name in threads} == {BOT_THREAD}, threads
    assert len(set(threads)) == 1, threads  # one thread for all bots, not one per move


class Bots:
    """Tables of hard bots, each with its host playing at once, so the bots think nearly all the time
    (in a thread of its own: the test measures the server meanwhile)."""

    def __init__(self, ws_base: str, tables: list[dict[str, Any]]) -> None:
        self.ws_base = ws_base
        self.tables = tables
        self.moves = 0  # moves made by the bots
        self.stop = threading.Event()
        self.failed: list[BaseException] = []
        self.thread = threading.Thread(target=self._run, daemon=True)

    @classmethod
    def playing(cls, server: ServeProcess, tables: int) -> Bots:
        """Open ``tables`` classic tables of hard bots on ``server`` and return once they are under way."""
        new = {"name": "Lina", "bots": "hard", "start": True, "rules": "classic"}
        url = f"{server.base}/api/tables"
        made = [httpx.post(url, json={**new, "seed": s}, timeout=10).json() for s in range(tables)]
        bots = cls(server.ws_base, made)
        bots.thread.start()
        deadline = time.monotonic() + 30
        while bots.moves < 10:
            assert not bots.failed and time.monotonic() < deadline, bots.failed or "the bots do not play"
            time.sleep(0.05)
        return bots

    def end(self) -> None:
        self.stop.set()
        self.thread.join(10)

    def _run(self) -> None:
        try:
            asyncio.run(self._play())
        except BaseException as e:  # told to the test
            self.failed.append(e)

    async def _play(self) -> None:
        await asyncio.gather(*(self._host(t, i) for i, t in enumerate(self.tables)))

    async def _host(self, t: dict[str, Any], i: int) -> None:
        me = await Player.join(self.ws_base, t["id"], t["token"])
        rng = random.Random(i)
        while not self.stop.is_set():
            await me.play_random(rng)
            try:
                msg = await me.recv(0.5)
            except TimeoutError:
                continue
            event = msg.get("event") or {}
            if event.get("kind") == "action" and event.get("seat") != me.seat:
                self.moves += 1
        await me.close()


def test_the_server_answers_at_once_while_hard_bots_think(tmp_path: Path) -> None:
    """Four tables of hard bots play as fast as they can on a real ``opentrix serve``: health checks still
    come back quickly (bots think on one thread, so the event loop competes with one thread, not many),
    and Ctrl-C stops the server at once, bots thinking or not. (On the project's 2-core machine the median
    is ~8 ms; with a thread per thinking bot, as before, ~40 ms with six tables and worse beyond.)"""
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60")
    server = ServeProcess(str(tmp_path / "busy.db"), free_port(), *fast)
    bots: Bots | None = None
    try:
        bots = Bots.playing(server, 4)
        times = []
        before = bots.moves
        with httpx.Client(base_url=server.base, timeout=10) as client:
            for _ in range(20):
                start = time.perf_counter()
                assert client.get("/api/health").status_code == 200
                times.append(time.perf_counter() - start)
                time.sleep(0.05)
        assert bots.moves - before >= 3, "the bots were not thinking meanwhile"
        # On one thread a bot lets the event loop in at the interpreter's switch interval (5 ms); with a
        # thread per thinking bot a request waited behind each of them. Generous, for a busy 2-core machine.
        ms = [round(x * 1000) for x in times]
        assert statistics.median(times) < 0.05 and max(times) < 1, ms
        start = time.monotonic()
        out = server.stop()  # bots still thinking: no move left queued keeps the process from ending
        assert time.monotonic() - start < 10 and "Traceback" not in out, out
    finally:
        if bots is not None:
            bots.end()
        if server.proc.poll() is None:
            server.kill()


async def test_a_move_queued_for_the_bot_thread_is_dropped_with_its_table() -> None:
    """A move waiting for the bot thread is cancelled when its table stops (``Table.stop`` cancels it), so
    a server shutting down does not first think through every table's move."""
    started, release = threading.Event(), threading.Event()
    ran: list[str] = []

    class Slow:
        def act(self, view: Any, legal: list[int]) -> int:
            started.set()
            release.wait(10)
            return 0

    class Noting:
        def act(self, view: Any, legal: list[int]) -> int:
            ran.append("moved")
            return 0

    thinking = THREAD.think(Slow(), None, [])  # type: ignore[arg-type]
    while not started.is_set():
        await asyncio.sleep(0.01)
    waiting = THREAD.think(Noting(), None, [])  # type: ignore[arg-type]
    await asyncio.sleep(0.05)
    waiting.cancel()
    await asyncio.sleep(0.05)  # the cancel reaches the queued move at the loop's next turn
    release.set()
    await thinking
    await asyncio.sleep(0.05)
    assert waiting.cancelled() and ran == []


class Gate:
    """A bot that, at the seats given, thinks until the test releases it (on the real bot thread)."""

    def __init__(self, seats: set[int]) -> None:
        self.seats = seats
        self.thinking = threading.Event()
        self.release = threading.Event()
        self.answered: list[int] = []
        self.calls: list[tuple[int, int, int, str]] = []  # the seat and position of every move asked for
        self.make_bot = table_module.make_bot  # the real one, before the test puts ``make`` in its place

    def make(self, level: str, seed: str) -> Any:
        bot = self.make_bot(level, seed=seed)
        seat = int(seed.rsplit(":", 1)[1])
        gate = self

        class Held:
            def act(self, view: Any, legal: list[int]) -> int:
                gate.calls.append((seat, len(view.history), len(view.plays), str(view.phase)))
                if seat in gate.seats:
                    gate.thinking.set()
                    gate.release.wait(20)
                action = int(bot.act(view, legal))
                gate.answered.append(action)
                return action

        return Held()


async def until_set(event: threading.Event, player: Player, rng: random.Random, timeout: float = 15) -> None:
    """Play on as ``player`` until ``event`` is set."""
    deadline = time.monotonic() + timeout
    while not event.is_set():
        assert time.monotonic() < deadline, "the bot never began to think"
        await player.play_random(rng)
        with contextlib.suppress(TimeoutError):
            await player.recv(0.2)


async def test_a_table_answers_while_its_bot_thinks(server: LiveServer, monkeypatch: pytest.MonkeyPatch) -> None:
    """The owner task does not wait for its bot: a spectator and a reconnecting player are welcomed at once,
    and the bot's move arrives when it has thought it out."""
    gate = Gate({1, 2, 3})
    monkeypatch.setattr(table_module, "make_bot", gate.make)
    t = server.create(name="Lina", bots="hard", start=True, seed=5, kingdoms=1)
    me = await Player.join(server.ws_base, t["id"], t["token"])
    try:
        await until_set(gate.thinking, me, random.Random(3))
        n = me.n
        await me.close()
        start = time.monotonic()
        watcher = await Player.join(server.ws_base, t["id"])
        await watcher.until(lambda m: m["type"] == "update", timeout=3)
        me = await Player.join(server.ws_base, t["id"], t["token"], last=n, epoch=me.epoch)
        await me.until(lambda m: m["type"] in ("update", "catchup"), timeout=3)
        assert time.monotonic() - start < 3 and not gate.release.is_set()
        gate.release.set()
        assert watcher.view is not None
        turn = watcher.view["turn"]
        msg = await watcher.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "action")
        assert msg["event"]["seat"] == turn and gate.answered  # (the next bot may have answered too)
        await watcher.close()
    finally:
        gate.release.set()
        await me.close()


async def stand_in_thinking(me: Player, gate: Gate) -> None:
    """Let ``me``'s move timer run out on his turn, and return once the bot standing in for him thinks."""
    await me.until(lambda m: m["type"] == "update" and me.my_turn())
    await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "timeout", 5)
    while not gate.thinking.is_set():
        await asyncio.sleep(0.02)


async def test_a_player_taking_his_seat_back_is_not_overruled_by_his_stand_in(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player who ran out of time takes his seat back while the bot standing in for him still thinks:
    he is answered at once, his own card is played, and the bot's late answer is dropped."""
    gate = Gate({0})
    monkeypatch.setattr(table_module, "make_bot", gate.make)
    with live_server(tmp_path, substitute_level="hard") as server:
        t = server.create(name="Lina", bots="random", start=True, seed=3, kingdoms=1, timer=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        try:
            await stand_in_thinking(me, gate)
            await me.send({"type": "back"})
            await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"] and me.my_turn(), 3)
            assert me.view is not None
            match = server.app.state.hub.tables[t["id"]].match
            position = len(match.history)
            mine = me.view["legal_actions"][-1]
            await me.send({"type": "act", "action": mine})
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0, 3)
            assert not gate.release.is_set()
            gate.release.set()
            deadline = time.monotonic() + 10
            while not gate.answered:
                assert time.monotonic() < deadline
                await asyncio.sleep(0.02)
            await asyncio.sleep(0.3)  # the late answer reaches the table and is dropped
            assert to_str(match.history[position]) == mine
            assert not me.errors and not me.table["seats"][0]["away"]
        finally:
            gate.release.set()
            await me.close()


async def test_a_stand_in_still_thinking_when_the_timer_runs_out_again_stalls_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A player takes his seat back while his stand-in still thinks, then lets the timer run out again: the
    server keeps answering (the table once spun its owner loop on the past-due bot move, freezing the
    whole server), and once the stand-in has thought, the match plays on."""
    gate = Gate({0})
    monkeypatch.setattr(table_module, "make_bot", gate.make)
    with live_server(tmp_path, substitute_level="hard") as server:
        t = server.create(name="Lina", bots="random", start=True, seed=3, kingdoms=1, timer=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        try:
            await stand_in_thinking(me, gate)
            await me.send({"type": "back"})
            await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"], 3)
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "timeout", 5)
            async with httpx.AsyncClient(timeout=3) as client:
                for _ in range(5):
                    assert (await client.get(f"{server.base}/api/health")).status_code == 200
                    await asyncio.sleep(0.1)
            gate.release.set()
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 0, 5)
        finally:
            gate.release.set()
            await me.close()


def test_a_table_another_server_took_over_waits_for_nothing(server: LiveServer) -> None:
    """Once its table is lost to another server, nothing is played here, so nothing timed may wake the owner
    task (a move timer due then would make it spin until the hub stopped the table)."""
    t = server.create(name="Lina", bots="random", start=True, timer=1)
    table = server.app.state.hub.tables[t["id"]]

    async def lose() -> float | None:
        table._deadline = time.monotonic() - 1
        assert table._wake_in() is not None
        table.lost = True
        return table._wake_in()

    assert server.run(lose()) is None


async def test_a_player_back_while_another_seats_bot_thinks_does_not_have_it_think_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Lina's stand-in played for her; while the bot at seat 1 thinks, she takes her seat back. Its move is
    still the one waited for: it is not thought a second time (which would hold the bot thread twice)."""
    gate = Gate({1})
    monkeypatch.setattr(table_module, "make_bot", gate.make)
    with live_server(tmp_path, substitute_level="easy") as server:
        seed = next(s for s in range(100) if replay_actions(rules_for("classic"), s, []).turn == 0)
        t = server.create(name="Lina", bots="easy", start=True, seed=seed, kingdoms=1, timer=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        try:
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "timeout", 5)
            while not gate.thinking.is_set():  # the stand-in played; seat 1 thinks
                await asyncio.sleep(0.02)
            await me.send({"type": "back"})
            await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"], 3)
            await asyncio.sleep(0.3)
            gate.release.set()
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 1, 5)
            seat_1 = [c for c in gate.calls if c[0] == 1]
            assert len(seat_1) == len(set(seat_1)), gate.calls  # no position thought twice
        finally:
            gate.release.set()
            await me.close()


async def test_a_player_back_while_another_seats_bot_waits_its_delay_keeps_that_bots_move(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """As above, but seat 1's bot has already thought its move out and waits for its delay to end: Lina
    taking her seat back must not drop that move and have the bot think the same position again."""
    gate = Gate(set())  # nobody is held: every thought ends at once
    monkeypatch.setattr(table_module, "make_bot", gate.make)
    with live_server(tmp_path, substitute_level="easy", bot_delay=1.5) as server:
        seed = next(s for s in range(100) if replay_actions(rules_for("classic"), s, []).turn == 0)
        t = server.create(name="Lina", bots="easy", start=True, seed=seed, kingdoms=1, timer=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        try:
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("kind") == "timeout", 5)
            deadline = time.monotonic() + 5
            while not [c for c in gate.calls if c[0] == 1]:  # the stand-in played; seat 1 has thought
                assert time.monotonic() < deadline, gate.calls
                await asyncio.sleep(0.02)
            await me.send({"type": "back"})
            await me.until(lambda m: m["type"] == "update" and not m["table"]["seats"][0]["away"], 3)
            await me.until(lambda m: m["type"] == "update" and (m["event"] or {}).get("seat") == 1, 5)
            seat_1 = [c for c in gate.calls if c[0] == 1]
            assert len(seat_1) == 1, gate.calls  # thought once, and that move was played
        finally:
            await me.close()


async def test_a_bot_thinks_during_its_delay_so_its_thinking_time_does_not_show(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot used to wait the delay and then think, so an answer it had to search (a redeal its hand
    could claim, a card to double) came later than a forced one. Now it thinks as the delay starts,
    and its move is played when the delay is over: the move comes a whole delay after the thinking
    began, not a moment after."""
    delay = 0.8
    asked: dict[tuple[int, int], float] = {}  # (deal, cards played before it) -> when a bot was asked for a card
    make_bot = table_module.make_bot

    class Timed:
        def __init__(self, level: str, seed: str) -> None:
            self.bot = make_bot(level, seed=seed)

        def act(self, view: Any, legal: list[int]) -> int:
            if str(view.phase) == str(table_module.Phase.PLAY):
                asked[(view.deal_number, len(view.plays))] = time.monotonic()
            return int(self.bot.act(view, legal))

    monkeypatch.setattr(table_module, "make_bot", lambda level, seed: Timed(level, seed))
    seen: dict[tuple[int, int], float] = {}  # (deal, cards played before it) -> when the client saw that card
    with live_server(tmp_path, bot_delay=delay) as server:
        t = server.create(name="Lina", bots="medium", start=True, seed=3, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        rng = random.Random(4)
        try:
            while len(seen) < 6:
                await me.play_random(rng)
                with contextlib.suppress(TimeoutError):
                    msg = await me.recv(0.2)
                    event = (msg.get("event") or {}) if msg["type"] == "update" else {}
                    if event.get("kind") == "action" and event["seat"] != 0 and msg["view"]["plays"]:
                        v = msg["view"]
                        if v["plays"][-1][1] == event["action"]:  # a card (the plays list it last)
                            seen[(v["deal_number"], len(v["plays"]) - 1)] = time.monotonic()
        finally:
            await me.close()
    waits = [seen[key] - when for key, when in asked.items() if key in seen]
    assert len(waits) >= 4, (asked, seen)
    # thinking took milliseconds: the rest of the delay still went by before the card was played
    assert min(waits) > delay / 2, waits
