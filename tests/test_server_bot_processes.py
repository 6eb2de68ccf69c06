"""Bots thinking in worker processes (``opentrix serve --bot-processes N``): they play as on the thread,
a worker that dies is replaced, and Ctrl-C stops the server and its workers with nothing left behind."""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from bot_probe import ProcessNoting, Slow, StuckOnce
from opentrix.server import table as table_module
from opentrix.server import thinking
from opentrix.server.settings import database_url
from opentrix.server.storage import Storage
from opentrix.server.table import Table
from opentrix.server.thinking import Thinkers
from test_server_fairness import Bots
from test_server_kit import Player, ServeProcess, free_port, live_server


def children(pid: int) -> set[int]:
    """The live bot workers ``pid`` started (from /proc: no extra package for one test); multiprocessing's
    resource tracker, a child too, is left out."""
    found = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:
            continue
        fields = stat[stat.rindex(")") + 2 :].split()  # after the command name, which may hold spaces
        if int(fields[1]) == pid and fields[0] != "Z" and b"spawn_main" in read(entry / "cmdline"):
            found.add(int(entry.name))
    return found


def read(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:  # gone meanwhile
        return b""


def thought_in(table: Table) -> list[int]:
    """The processes the table's bots thought their moves in, in order."""
    return [pid for s in table.seats for pid in getattr(s.bot, "pids", [])]


async def play_until(me: Player, done: object, timeout: float = 60) -> None:
    rng = random.Random(4)
    deadline = time.monotonic() + timeout
    while not done():  # type: ignore[operator]
        assert time.monotonic() < deadline, "the bots stopped playing"
        await me.play_random(rng)
        with contextlib.suppress(TimeoutError):
            await me.recv(0.3)


def test_a_negative_number_of_bot_processes_is_refused() -> None:
    with pytest.raises(ValueError, match="0 \\(one thread\\) or more"):
        Thinkers(-1)


async def test_bots_think_in_worker_processes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(table_module, "make_bot", ProcessNoting)
    with live_server(tmp_path, bot_processes=1) as server:
        workers = children(os.getpid())
        assert workers, "the worker starts with the server"
        t = server.create(name="Lina", bots="hard", start=True, seed=3, kingdoms=1)
        table = server.app.state.hub.tables[t["id"]]
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await play_until(me, lambda: len(thought_in(table)) >= 6)
        assert set(thought_in(table)) <= workers and os.getpid() not in thought_in(table)
        assert not me.errors
        await me.close()
    deadline = time.monotonic() + 10
    while children(os.getpid()) & workers:  # the server let its worker go
        assert time.monotonic() < deadline, "the bot worker outlived its server"
        await asyncio.sleep(0.1)


async def test_a_bot_worker_that_dies_is_replaced(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    monkeypatch.setattr(table_module, "make_bot", ProcessNoting)
    with live_server(tmp_path, bot_processes=1) as server:
        t = server.create(name="Lina", bots="hard", start=True, seed=8, kingdoms=1)
        table = server.app.state.hub.tables[t["id"]]
        me = await Player.join(server.ws_base, t["id"], t["token"])
        await play_until(me, lambda: len(thought_in(table)) >= 3)
        first = thought_in(table)[-1]
        os.kill(first, signal.SIGKILL)
        # The move it was thinking, if any, is thought again by a new worker, and the match plays on.
        await play_until(me, lambda: any(pid != first for pid in thought_in(table)))
        assert not me.errors and "playing a legal card" not in caplog.text
        await me.close()


async def test_a_worker_that_dies_leaves_no_move_unanswered() -> None:
    """Every move queued when a worker dies comes back (as a lost worker's, to be thought again), even with
    a move among them whose table stopped: on Python 3.11 a cancelled one there left the rest unanswered
    for ever, so the pool leaves such a move to finish instead (``Thinkers.drop``)."""
    before = children(os.getpid())
    pool = Thinkers(1)
    pool.warm_up()
    try:
        (worker,) = children(os.getpid()) - before
        moves = [pool.think(Slow(3), None, [1, 2]) for _ in range(6)]  # type: ignore[arg-type]
        await asyncio.sleep(0.5)
        pool.drop(moves[2])  # its table stopped
        os.kill(worker, signal.SIGKILL)
        _, pending = await asyncio.wait(moves, timeout=10)
        assert not pending, f"{len(pending)} moves never answered"
        errors = [m.exception() for m in moves]
        assert all(e is not None and pool.failed(e) for e in errors), errors
        action, _ = await pool.think(Slow(0), None, [1, 2])  # type: ignore[arg-type]
        assert action == 1  # a fresh worker thinks the next move
    finally:
        pool.close()


async def test_workers_that_stop_answering_are_replaced(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(thinking, "POOL_PATIENCE", 0.5)
    before = children(os.getpid())
    pool = Thinkers(1)
    pool.warm_up()
    try:
        (stuck,) = children(os.getpid()) - before
        since = time.monotonic()
        move = pool.think(Slow(60), None, [1, 2])  # type: ignore[arg-type]
        await asyncio.sleep(0.2)
        assert not pool.overdue(since)
        await asyncio.sleep(0.5)
        assert pool.overdue(since)
        pool.give_up(since)
        error = await asyncio.wait_for(asyncio.gather(move, return_exceptions=True), 10)
        assert pool.failed(error[0])  # failed as a dead worker's move: to be thought again
        deadline = time.monotonic() + 10
        while stuck in children(os.getpid()):
            assert time.monotonic() < deadline, "the stuck worker was not ended"
            await asyncio.sleep(0.05)
        pool.give_up(since)  # the same old move again: the new workers are not to blame
        action, _ = await pool.think(Slow(0), None, [1, 2])  # type: ignore[arg-type]
        assert action == 1
    finally:
        pool.close()


async def test_a_table_whose_move_is_never_answered_thinks_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(thinking, "POOL_PATIENCE", 1.0)
    mark = str(tmp_path / "stuck")
    monkeypatch.setattr(table_module, "make_bot", lambda level, seed: StuckOnce(mark))
    with live_server(tmp_path, bot_processes=1) as server:
        t = server.create(name="Lina", bots="hard", start=True, seed=3, kingdoms=1)
        me = await Player.join(server.ws_base, t["id"], t["token"])
        rng = random.Random(1)
        deadline = time.monotonic() + 30
        bot_moves = 0
        while bot_moves < 8:
            assert time.monotonic() < deadline, "the table stopped at the stuck move"
            await me.play_random(rng)
            with contextlib.suppress(TimeoutError):
                msg = await me.recv(0.3)
                event = msg.get("event") or {}
                bot_moves += event.get("kind") == "action" and event.get("seat") != 0
        assert os.path.exists(mark) and not me.errors
        await me.close()


@pytest.mark.parametrize(
    ("sig", "times"),
    [(signal.SIGINT, 1), (signal.SIGINT, 2), (signal.SIGTERM, 1), (signal.SIGTERM, 2)],
    ids=["ctrl-c", "ctrl-c-twice", "sigterm", "twice"],
)
def test_ctrl_c_or_sigterm_stops_a_server_and_its_bot_workers(tmp_path: Path, sig: int, times: int) -> None:
    """Ctrl-C reaches the whole process group; SIGTERM (a service manager, ``kill``) the server alone,
    perhaps twice (uvicorn raises each one again after its graceful stop). Either way it stops within
    seconds, exits 0 through Python's own exit (a process killed by the signal would leak its workers'
    semaphores, with a warning) and leaves no worker behind."""
    fast = ("--bot-delay", "0", "--deal-pause", "0", "--grace", "60", "--bot-processes", "2")
    server = ServeProcess(str(tmp_path / "workers.db"), free_port(), *fast, group=True)
    bots: Bots | None = None
    try:
        workers = children(server.proc.pid)
        assert len(workers) == 2, workers
        bots = Bots.playing(server, 3)
        start = time.monotonic()
        for _ in range(times - 1):
            server.proc.send_signal(sig)
            time.sleep(0.02)
        out = server.stop(sig)  # bots still thinking
        assert time.monotonic() - start < 10 and "Traceback" not in out and "leaked" not in out, out
        assert server.proc.returncode == 0, (server.proc.returncode, out)
        assert "died" not in out and "legal card" not in out, out  # no worker died before its server
        store = Storage(database_url(str(tmp_path / "workers.db")))
        try:
            assert store.holders() == set()  # its tables let go: another server need not wait out a lease
        finally:
            store.close()
        deadline = time.monotonic() + 10
        while any(b"spawn_main" in read(Path(f"/proc/{pid}/cmdline")) for pid in workers):
            assert time.monotonic() < deadline, "a bot worker outlived its server"
            time.sleep(0.1)
    finally:
        if bots is not None:
            bots.end()
        if server.proc.poll() is None:
            server.kill()


def test_a_third_ctrl_c_quits_a_stop_that_waits_on_the_store(tmp_path: Path) -> None:
    """The clean stop waits for the store (it lets the tables go there); a store that does not answer
    (here a SQLite file another program holds locked) would keep it waiting. The second Ctrl-C says what
    is left to do, and the third quits at once, saying what may be lost."""
    db = tmp_path / "locked.db"
    server = ServeProcess(str(db), free_port())
    locker = sqlite3.connect(db, timeout=1)
    try:
        locker.execute("BEGIN EXCLUSIVE")
        server.proc.send_signal(signal.SIGINT)
        time.sleep(0.3)
        server.proc.send_signal(signal.SIGINT)
        server.said("Ctrl-C again quits at once", timeout=10)
        time.sleep(0.5)
        assert server.proc.poll() is None  # still waiting on the store
        out = server.stop()  # the third
        assert server.proc.returncode == 130, out
        assert "opentrix: stopped at once; the last actions may not be stored" in out
    finally:
        locker.rollback()
        locker.close()
        if server.proc.poll() is None:
            server.kill()


def test_a_closing_pool_ends_a_worker_stuck_on_a_move(tmp_path: Path) -> None:
    """A server stopping while a worker is caught in a move (StuckOnce sleeps an hour) does not leave
    that worker behind: it has CLOSE_PATIENCE seconds to finish, then it is ended."""
    from opentrix import Match, Rules, view

    pool = Thinkers(1)
    pool.warm_up()
    workers = children(os.getpid())
    assert workers
    m = Match(Rules(), seed=1)
    v = view(m, m.turn)
    mark = str(tmp_path / "stuck")
    moving = pool._pool.submit(StuckOnce(mark).act, v, list(v.legal_actions))
    deadline = time.monotonic() + 20
    while not os.path.exists(mark):  # the worker is in the move
        assert time.monotonic() < deadline
        time.sleep(0.05)
    start = time.monotonic()
    pool.close()
    while children(os.getpid()) & workers:
        assert time.monotonic() - start < thinking.CLOSE_PATIENCE + 10, "the stuck worker outlived its pool"
        time.sleep(0.1)
    assert time.monotonic() - start >= thinking.CLOSE_PATIENCE - 0.5  # it had its time to finish first
    with contextlib.suppress(Exception):
        moving.result(timeout=5)
