"""Where the table bots think: one thread in the server's process, or a pool of worker processes.

A strong bot's move is ~100 ms of pure Python. On the default single thread every table's bots take
their turn on it, so the event loop competes with one thinker only for Python's lock (with a thread per
thinking bot, a player's move once took seconds to come back). On a machine with spare cores,
``--bot-processes N`` moves the thinking into N worker processes: the event loop then has its
interpreter to itself, and N bots think at once. A worker gets the bot and its view pickled (a few
kilobytes), and sends the bot back with its answer, so a bot's random state carries on from move to move
just as it does on the thread.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor, ThreadPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from ..bots import Bot
from ..view import View

log = logging.getLogger("opentrix.server")

BOT_THREAD = "opentrix-bot"

# A pool that has answered nothing for this long while a move waited is taken for dead; one move that
# waited this long, answered or not, means a stuck worker. Both are far beyond a hard bot's second a move,
# even behind a long queue. (On Python 3.11 a worker dying as a move is handed to it can leave that move
# unanswered with the pool not even marked broken; a bot caught in a loop never answers.)
POOL_PATIENCE = 60.0
MOVE_PATIENCE = 300.0
# Seconds a closing server's workers have to finish the move in hand before they are ended.
CLOSE_PATIENCE = 3.0


def _think(bot: Bot, v: View, legal: list[int]) -> tuple[int, Bot]:
    """A bot's move in a worker process, with the bot as it is after thinking."""
    return int(bot.act(v, legal)), bot


def _watch_parent(parent: int) -> None:
    """End this worker once the server that started it is gone (killed with no chance to stop it)."""
    while os.getppid() == parent:
        time.sleep(1.0)
    os._exit(0)


def _worker_start(parent: int) -> None:
    # Ctrl-C, or closing the terminal, reaches the whole process group: the server stops its workers
    # itself once its last moves are stored, so a worker must not die first (with a traceback of its own).
    # SIGTERM stays deadly: the pool itself ends its workers with it when one dies. If a service manager
    # sends it to the whole group, the server finds its workers gone, starts new ones and thinks the
    # moves under way again while it shuts down.
    for name in ("SIGINT", "SIGHUP"):
        if hasattr(signal, name):
            signal.signal(getattr(signal, name), signal.SIG_IGN)
    threading.Thread(target=_watch_parent, args=(parent,), daemon=True, name="opentrix-parent-watch").start()


class Thinkers:
    """The bots' executor: ``processes=0`` is the one shared thread."""

    def __init__(self, processes: int = 0) -> None:
        if processes < 0:
            raise ValueError(f"bot processes must be 0 (one thread) or more, not {processes}")
        self.processes = processes
        self._pool: Executor = self._new_pool()
        self._answered = time.monotonic()  # when the workers last answered a move
        self._renewed = 0.0  # when the workers were last replaced

    def _new_pool(self) -> Executor:
        if self.processes == 0:
            return ThreadPoolExecutor(max_workers=1, thread_name_prefix=BOT_THREAD)
        # spawn, not fork: the server has threads (the store's writer, the event loop's helpers) that a
        # forked child would inherit in whatever state they were.
        return ProcessPoolExecutor(
            max_workers=self.processes,
            mp_context=multiprocessing.get_context("spawn"),
            initializer=_worker_start,
            initargs=(os.getpid(),),
        )

    def think(self, bot: Bot, v: View, legal: list[int]) -> asyncio.Future[tuple[int, Bot]]:
        """Start ``bot`` thinking on ``v``; the future gives its action and the bot to keep."""
        loop = asyncio.get_running_loop()
        if self.processes == 0:
            return loop.run_in_executor(self._pool, lambda: (int(bot.act(v, legal)), bot))
        try:
            thinking = loop.run_in_executor(self._pool, _think, bot, v, legal)
        except BrokenProcessPool:  # a worker died (killed, out of memory): start afresh and carry on
            self.renew()
            thinking = loop.run_in_executor(self._pool, _think, bot, v, legal)
        thinking.add_done_callback(self._answer)
        return thinking

    def _answer(self, _: object) -> None:
        self._answered = time.monotonic()

    def check_every(self) -> float | None:
        """How often a table whose move is out should ask ``overdue`` (None: never, on the thread)."""
        return POOL_PATIENCE / 4 if self.processes else None

    def overdue(self, since: float) -> bool:
        """Whether a move handed to the workers at ``since`` will never come back. A bot stuck on the
        thread cannot be stopped, so there the answer is always no."""
        if self.processes == 0:
            return False
        now = time.monotonic()
        silent = now - max(self._answered, since) >= POOL_PATIENCE
        return silent or now - since >= MOVE_PATIENCE

    def give_up(self, since: float) -> None:
        """The move handed over at ``since`` was never answered: if the workers it went to are still the
        ones at work, end them (one may be stuck) and start new ones; the moves they held fail as a dead
        worker's do, and are thought again. (A move handed to workers already replaced is simply thought
        again: the new ones are not to blame.)"""
        if self.processes == 0 or since < self._renewed:
            return
        log.error("the bot workers stopped answering; starting new ones")
        workers = self._workers()
        self.renew()
        for worker in workers:
            worker.terminate()

    def failed(self, error: BaseException) -> bool:
        """A move came back with ``error``. True if a worker died under it (killed, out of memory), not the
        bot: the pool is renewed, and the move is worth thinking again."""
        if not isinstance(error, BrokenProcessPool):
            return False
        if getattr(self._pool, "_broken", False):  # once for all the moves the dead pool failed
            log.error("a bot worker process died; starting new ones")
            self.renew()
        return True

    def drop(self, thinking: asyncio.Future[tuple[int, Bot]]) -> None:
        """The move is not needed any more (its table stopped). On the thread, one still queued is
        cancelled. A worker process's move is left to finish and its answer ignored: on Python 3.11 a move
        cancelled while queued makes a pool whose worker then dies leave every other move unanswered
        (its manager thread fails on the cancelled one), which would stall the other tables."""
        if self.processes == 0:
            thinking.cancel()

    def _workers(self) -> list[multiprocessing.Process]:
        """The pool's worker processes (none on the thread, nor once the pool is shut down)."""
        return list((getattr(self._pool, "_processes", None) or {}).values())

    def renew(self) -> None:
        old, self._pool = self._pool, self._new_pool()
        self._renewed = time.monotonic()
        # Not cancelled: a move cancelled here would never be answered; failed, its table thinks it again.
        old.shutdown(wait=False)

    def warm_up(self) -> None:
        """Start the worker processes now (each imports the bots once), not at the first bot's move."""
        if isinstance(self._pool, ProcessPoolExecutor):
            for f in [self._pool.submit(os.getpid) for _ in range(self.processes)]:
                f.result()

    def close(self) -> None:
        """Let the workers go: each ends with the move in hand, and one still at work after
        ``CLOSE_PATIENCE`` seconds is ended (moves still queued are not cancelled: see ``drop``, which a
        pool's manager thread can trip over on Python 3.11 and then never tell the workers to stop). The
        shared thread stays: other servers in the process may still use it."""
        if not self.processes:
            return
        workers = self._workers()
        self._pool.shutdown(wait=False)

        def reap() -> None:
            deadline = time.monotonic() + CLOSE_PATIENCE
            for worker in workers:
                worker.join(max(0.0, deadline - time.monotonic()))
                if worker.is_alive():
                    worker.terminate()

        threading.Thread(target=reap, name="opentrix-bot-reaper", daemon=True).start()


THREAD = Thinkers(0)  # shared by every server in the process that thinks in-process (the default)


def thinkers_for(processes: int) -> Thinkers:
    """The one thread for 0, else a new pool of worker processes (its server closes it)."""
    return THREAD if processes == 0 else Thinkers(processes)
