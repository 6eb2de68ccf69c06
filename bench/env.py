"""How many steps per second the RL environments take, against the raw engine measured in the same run.

Every path plays uniformly random legal actions through whole matches (classic rules, 20 deals):

- ``engine``: ``Match.legal_actions()`` + ``apply()`` (+ ``start_deal()``): no observation at all.
- ``engine+view``: the same plus ``view(match, seat)`` for the seat to act, the only input of a bot.
- ``pettingzoo_raw``: ``trix_v0.raw_env``, the AEC loop ``last()`` (observation vector and action
  mask built) + ``step()``, the agent picking from the mask.
- ``pettingzoo``: the same through ``trix_v0.env()``, i.e. PettingZoo's standard wrappers.
- ``gym``: ``TrixGymEnv`` learner steps (three random bots play in between; their moves are not counted).
- ``observation``: ``encode`` + ``action_mask`` alone, on views collected beforehand (per call).

``--mode deal`` plays single deals (the contract chosen by the king) instead of matches: the view
then carries no history of earlier deals, which is most of its cost late in a match.

The machine is shared and noisy, so compare paths by their ratio to ``engine`` in one run.

    python bench/env.py            # a table
    python bench/env.py --json     # one JSON object
    python bench/env.py --mode deal
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

import numpy as np

from opentrix import Match, Rules, view
from opentrix.env import Knowledge, TrixGymEnv, action_mask, encode, trix_v0

MODE = "match"


def engine(seconds: float, with_view: bool) -> tuple[int, float]:
    rules = Rules.preset("classic")
    rnd = random.Random(1).random
    steps = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        m = Match(rules, seed=seed)
        seed += 1
        while True:
            turn = m.turn
            if turn is None:
                if m.is_over or MODE == "deal":
                    break
                m.start_deal()
                continue
            if with_view:
                view(m, turn)
            legal = m.legal_actions()
            m.apply(legal[int(rnd() * len(legal))])
            steps += 1
    return steps, time.perf_counter() - start


def pettingzoo(seconds: float, wrapped: bool) -> tuple[int, float]:
    env = trix_v0.env(mode=MODE) if wrapped else trix_v0.raw_env(mode=MODE)
    rnd = random.Random(1).random
    flatnonzero = np.flatnonzero
    steps = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        env.reset(seed=seed)
        seed += 1
        last, step = env.last, env.step
        for _ in env.agent_iter():
            obs, _reward, term, trunc, _info = last()
            if term or trunc:
                step(None)
                continue
            legal = flatnonzero(obs["action_mask"])
            step(int(legal[int(rnd() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def gym(seconds: float) -> tuple[int, float]:
    env = TrixGymEnv(mode=MODE, opponents="random")
    rnd = random.Random(1).random
    steps = 0
    seed = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        obs, _ = env.reset(seed=seed)
        seed += 1
        done = False
        while not done:
            legal = np.flatnonzero(obs["action_mask"])
            obs, _r, done, _t, _i = env.step(int(legal[int(rnd() * len(legal))]))
            steps += 1
    return steps, time.perf_counter() - start


def observation(seconds: float) -> tuple[int, float]:
    rules = Rules.preset("classic")
    rng = random.Random(2)
    views = []
    m = Match(rules, seed=3)
    while not m.is_over and (MODE == "match" or not m.deals or m.turn is not None):
        if m.turn is None:
            m.start_deal()
            continue
        views.append(view(m, m.turn))
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    know = Knowledge()
    out = np.empty(len(encode(views[0], know)), np.float32)
    calls = 0
    start = time.perf_counter()
    deadline = start + seconds
    while time.perf_counter() < deadline:
        know.reset()
        for v in views:
            encode(v, know, out)
            action_mask(v)
        calls += len(views)
    return calls, time.perf_counter() - start


def main(argv: list[str] | None = None) -> int:
    global MODE
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=3.0, help="time per path (default 3)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--mode", choices=["match", "deal"], default="match", help="whole matches or single deals")
    args = parser.parse_args(argv)
    MODE = args.mode
    paths: dict[str, Callable[[], tuple[int, float]]] = {
        "engine": lambda: engine(args.seconds, with_view=False),
        "engine+view": lambda: engine(args.seconds, with_view=True),
        "pettingzoo_raw": lambda: pettingzoo(args.seconds, wrapped=False),
        "pettingzoo": lambda: pettingzoo(args.seconds, wrapped=True),
        "gym": lambda: gym(args.seconds),
        "observation": lambda: observation(args.seconds),
    }
    results: dict[str, Any] = {}
    for name, run in paths.items():
        steps, elapsed = run()
        results[name] = {"steps": steps, "seconds": round(elapsed, 3), "steps_per_s": round(steps / elapsed)}
    base = results["engine"]["steps_per_s"]
    for r in results.values():
        r["ratio_to_engine"] = round(r["steps_per_s"] / base, 3)
    out = {
        "rules": "classic",
        "mode": MODE,
        "python": sys.version.split()[0],
        "goal_steps_per_s": 20000,
        "paths": results,
    }
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"{'path':<16}{'steps/s':>10}{'x engine':>10}   (random legal play, classic, mode {MODE})")
    for name, r in results.items():
        print(f"{name:<16}{r['steps_per_s']:>10,}{r['ratio_to_engine']:>10.3f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
