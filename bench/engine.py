"""How fast the engine plays random legal deals, against OpenSpiel's C++ Hearts measured in the same run.

Both sides play uniformly random legal moves to the end of a deal (ours picks ``la[bits(16) % len(la)]``,
one cheap call per move). The opentrix side goes through the
same ``legal_actions()`` and ``apply()`` the referee and the server use; hands come from a pool dealt
before timing starts (dealing is a seeded shuffle, not the engine). OpenSpiel's side is
``pyspiel.evaluate_bots`` with uniform random bots on ``hearts``, its chance nodes (the deal) included.
The machine is shared and noisy, so the figure that matters is the ratio, measured in one run.

    python bench/engine.py            # a table
    python bench/engine.py --json     # one JSON object
"""

from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections.abc import Callable
from typing import Any

from opentrix import actions as A
from opentrix.contracts import Contract
from opentrix.deal import Deal, deal_hands
from opentrix.match import Match
from opentrix.rules import Rules


def _hand_pool(n: int, seed: int) -> list[tuple[int, int, int, int]]:
    rng = random.Random(seed)
    return [deal_hands(rng) for _ in range(n)]


def play_deals(contract: Contract, seconds: float, seed: int = 1, rules: Rules | None = None) -> tuple[int, float]:
    """Random legal deals of ``contract`` on ``Deal`` for about ``seconds``; returns (deals, elapsed)."""
    rules = rules if rules is not None else Rules.preset("classic")
    pool = _hand_pool(256, seed)
    bits = random.Random(seed).getrandbits  # la[bits(16) % len(la)]: uniform to within 1 part in 5000
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(64):
            hands = pool[(n + i) & 255]
            d = Deal(rules, 0, contract, hands)
            legal_actions = d.legal_actions
            apply = d.apply
            while la := legal_actions():  # empty once the deal is over
                apply(la[bits(16) % len(la)])
        n += 64
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def play_matches_deals(contract: Contract, seconds: float, seed: int = 1) -> tuple[int, float]:
    """The same through ``Match`` (contract choice included): the referee's whole path per deal."""
    rules = Rules.preset("classic")
    pool = _hand_pool(256, seed)
    bits = random.Random(seed).getrandbits  # la[bits(16) % len(la)]: uniform to within 1 part in 5000
    choose = A.choose(contract)
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for i in range(64):
            m = Match(rules, pool[(n + i) & 255])
            m.apply(choose)
            legal_actions = m.legal_actions
            apply = m.apply
            while la := legal_actions():
                apply(la[bits(16) % len(la)])
        n += 64
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def openspiel_hearts(seconds: float, seed: int = 1) -> tuple[int, float] | None:
    """Random playouts of OpenSpiel's Hearts (C++), or None when open_spiel is not installed."""
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("hearts")
    bots = [pyspiel.make_uniform_random_bot(p, seed + p) for p in range(4)]
    n = 0
    start = time.perf_counter()
    deadline = start + seconds
    while True:
        for _ in range(64):
            pyspiel.evaluate_bots(game.new_initial_state(), bots, seed + n)
            n += 1
        now = time.perf_counter()
        if now >= deadline:
            return n, now - start


def time_per_call(fn: Callable[[], object], repeat: int = 5, number: int = 20000) -> float:
    """Best-of-``repeat`` seconds per call of ``fn``."""
    best = float("inf")
    for _ in range(repeat):
        t = time.perf_counter()
        for _ in range(number):
            fn()
        best = min(best, (time.perf_counter() - t) / number)
    return best


def copy_times() -> dict[str, float]:
    """Microseconds per ``Deal.copy()`` and ``Match.copy()`` in the middle of a Ltoosh deal."""
    rng = random.Random(7)
    m = Match(Rules.preset("classic"), seed=7)
    m.apply(A.choose(Contract.LTOOSH))
    for _ in range(21):  # five tricks and a card: a trick on the table
        la = m.legal_actions()
        m.apply(la[int(rng.random() * len(la))])
    deal = m.deals[-1]
    return {
        "deal_copy_us": time_per_call(deal.copy) * 1e6,
        "match_copy_us": time_per_call(m.copy) * 1e6,
    }


def run(seconds: float) -> dict[str, Any]:
    # Interleave the two sides in rounds so that load from other processes hits both alike.
    rounds = 3
    part = seconds / rounds
    totals: dict[str, list[float]] = {k: [0, 0.0] for k in ("ltoosh", "trix", "ltoosh_match", "hearts")}
    have_spiel = True
    for _ in range(rounds):
        for key, fn in (
            ("ltoosh", lambda: play_deals(Contract.LTOOSH, part)),
            ("trix", lambda: play_deals(Contract.TRIX, part / 2)),
            ("ltoosh_match", lambda: play_matches_deals(Contract.LTOOSH, part / 2)),
            ("hearts", lambda: openspiel_hearts(part)),
        ):
            res = fn()
            if res is None:
                have_spiel = False
                continue
            totals[key][0] += res[0]
            totals[key][1] += res[1]
    rate = {k: (v[0] / v[1] if v[1] else None) for k, v in totals.items()}
    out: dict[str, Any] = {
        "python": sys.version.split()[0],
        "seconds": seconds,
        "ltoosh_deals_per_s": round(rate["ltoosh"] or 0),
        "trix_deals_per_s": round(rate["trix"] or 0),
        "ltoosh_match_deals_per_s": round(rate["ltoosh_match"] or 0),
        "openspiel_hearts_deals_per_s": round(rate["hearts"]) if have_spiel and rate["hearts"] else None,
        "ratio_ltoosh_to_hearts": None,
        "ratio_ltoosh_match_to_hearts": None,
    }
    if have_spiel and rate["hearts"] and rate["ltoosh"]:
        out["ratio_ltoosh_to_hearts"] = round(rate["ltoosh"] / rate["hearts"], 3)
        out["ratio_ltoosh_match_to_hearts"] = round((rate["ltoosh_match"] or 0) / rate["hearts"], 3)
    out.update({k: round(v, 3) for k, v in copy_times().items()})
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=6.0, help="time for each side (default 6)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    args = parser.parse_args(argv)
    if args.seconds <= 0:
        parser.error("--seconds must be positive")
    out = run(args.seconds)
    if args.json:
        print(json.dumps(out))
        return 0
    print(f"opentrix Ltoosh (Deal.legal_actions + apply): {out['ltoosh_deals_per_s']:>8} deals/s")
    print(f"opentrix Ltoosh through Match (referee path):  {out['ltoosh_match_deals_per_s']:>8} deals/s")
    print(f"opentrix Trix (Deal.legal_actions + apply):   {out['trix_deals_per_s']:>8} deals/s")
    if out["openspiel_hearts_deals_per_s"] is None:
        print("OpenSpiel Hearts: open_spiel is not installed (pip install open_spiel)")
    else:
        print(f"OpenSpiel Hearts (C++, evaluate_bots):         {out['openspiel_hearts_deals_per_s']:>8} deals/s")
        print(f"ratio Ltoosh / Hearts:                         {out['ratio_ltoosh_to_hearts']:>8}")
        print(f"ratio Ltoosh through Match / Hearts:           {out['ratio_ltoosh_match_to_hearts']:>8}")
    print(f"Deal.copy():  {out['deal_copy_us']:.2f} µs")
    print(f"Match.copy(): {out['match_copy_us']:.2f} µs")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
