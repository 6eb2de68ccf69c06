"""Running many duplicate units on a process pool, with a progress bar, stoppable with Ctrl-C."""

from __future__ import annotations

import multiprocessing
import signal
import time
from array import array
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field

from ..contracts import Contract
from ..rules import Rules
from .duplicate import Unit, UnitResult, play_unit
from .spec import BotSpec
from .stats import MoveTimes


@dataclass
class ArenaConfig:
    candidate: BotSpec
    baseline: BotSpec
    rules: Rules
    units: int
    seed: int = 1
    jobs: int = 1
    contracts: Sequence[Contract] | None = None  # deal mode: cycled in this order; None: the rules' own
    kingdom: bool = False

    def plan(self) -> Iterator[Unit]:
        """Unit i plays contract i mod n (deal mode) or kingdom i: the same plan for every run. Made as
        it is played, so a run of millions of deals starts at once and stops at once."""
        cs = list(self.contracts or self.rules.contracts)
        for i in range(self.units):
            contract = None if self.kingdom else int(cs[i % len(cs)])
            yield Unit(i, self.seed, self.rules, self.candidate, self.baseline, contract)


@dataclass
class ArenaRun:
    """What a run measured. Each result's move times go into ``candidate_times`` and
    ``baseline_times`` and, unless the run was asked to keep them, leave the result: a result is then
    a few hundred bytes, so a run of millions of deals fits in memory."""

    config: ArenaConfig
    results: list[UnitResult] = field(default_factory=list)
    interrupted: bool = False
    terminated: bool = False  # stopped by SIGTERM (``Terminated``) rather than Ctrl-C
    elapsed_s: float = 0.0
    candidate_times: MoveTimes = field(default_factory=MoveTimes)
    baseline_times: MoveTimes = field(default_factory=MoveTimes)

    def add(self, res: UnitResult, keep_times: bool = False) -> None:
        self.candidate_times.add(res.candidate_ms)
        self.baseline_times.add(res.baseline_ms)
        if not keep_times:
            res.candidate_ms = res.baseline_ms = _NO_TIMES
        self.results.append(res)


_NO_TIMES: array[float] = array("d")  # shared by every result whose times were counted and let go


class Terminated(KeyboardInterrupt):
    """Raised by a SIGTERM handler to stop a run as Ctrl-C does, keeping what was measured."""


def _quiet_worker() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the parent's to handle
    # the parent's SIGTERM handler (``Terminated``) is inherited by the fork: a worker must simply end
    # when the pool is terminated, not raise into the pool's loop and print a traceback
    signal.signal(signal.SIGTERM, signal.SIG_DFL)


def _results(config: ArenaConfig, units: Iterator[Unit]) -> Iterator[UnitResult]:
    jobs = min(config.jobs, config.units)  # more workers than deals would only be forked to idle
    if jobs <= 1:
        for u in units:
            yield play_unit(u)
        return
    # fork starts a worker at once; where there is none (Windows) spawn works too: a unit pickles
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() else "spawn"
    ctx = multiprocessing.get_context(method)
    pool = ctx.Pool(jobs, initializer=_quiet_worker)
    try:
        yield from pool.imap_unordered(play_unit, units, chunksize=1)
        pool.close()
    finally:
        pool.terminate()
        pool.join()


def run(config: ArenaConfig, progress: Callable[[int, int], None] | None = None, keep_times: bool = False) -> ArenaRun:
    """Play the plan; on Ctrl-C stop and keep what was measured so far (``interrupted`` is set).
    ``keep_times`` leaves each result its own move times (for per-deal timing, as bench/inference.py
    caches them); by default they are only counted into the run's."""
    out = ArenaRun(config)
    t0 = time.perf_counter()
    try:
        for res in _results(config, config.plan()):
            out.add(res, keep_times)
            if progress is not None:
                progress(len(out.results), config.units)
    except KeyboardInterrupt as e:
        out.interrupted = True
        out.terminated = isinstance(e, Terminated)
    out.results.sort(key=lambda r: r.index)
    out.elapsed_s = time.perf_counter() - t0
    return out
