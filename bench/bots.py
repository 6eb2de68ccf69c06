"""How fast the bots think: rollouts per second and decision times, against random playouts as the peer.

    python bench/bots.py [--deals 200]

Timings on a shared machine are noisy, so the figures that matter are the ratios to the peer (a
random-policy playout of the same deals) measured in the same run.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from opentrix import actions as A
from opentrix.bots import make_bot
from opentrix.bots.simulate import rollout
from opentrix.contracts import Contract
from opentrix.deal import Deal, Phase, deal_hands
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import view


def random_playout(d: Deal, rng: random.Random) -> None:
    while d.phase != Phase.DEAL_OVER:
        legal = d.legal_actions()
        d.apply(legal[rng.randrange(len(legal))])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--deals", type=int, default=200)
    args = ap.parse_args()
    if args.deals < 1:
        ap.error("--deals must be 1 or more")
    rules = Rules.preset("classic")
    deals = [Deal(rules, 0, c, deal_hands("bench", i)) for i in range(args.deals) for c in rules.contracts]
    rng = random.Random(1)
    t0 = time.perf_counter()
    for d in deals:
        random_playout(d.copy(), rng)
    peer = (time.perf_counter() - t0) / len(deals)
    t0 = time.perf_counter()
    for d in deals:
        rollout(d.copy())
    ours = (time.perf_counter() - t0) / len(deals)
    print(f"random playout (peer): {peer * 1e6:8.0f} µs per deal")
    print(f"rules-of-thumb rollout: {ours * 1e6:8.0f} µs per deal  ({ours / peer:.2f}x the peer)")

    bot = make_bot("strong", seed=1, budget_ms=None)
    times: list[float] = []
    for i in range(max(args.deals // 20, 3)):
        m = Match(rules, deal_hands("bench-match", i))
        m.apply(A.choose(Contract(list(rules.contracts)[i % 5])))
        while m.phase == Phase.PLAY:
            seat = m.turn
            assert seat is not None
            legal = m.legal_actions()
            t = time.perf_counter()
            a = bot.act(view(m, seat), legal)
            if len(legal) > 1:
                times.append(time.perf_counter() - t)
            m.apply(a)
    times.sort()
    med = statistics.median(times)
    p95 = times[int(len(times) * 0.95)]
    print(
        f"strong ({bot.samples} samples) decision: median {med * 1000:.1f} ms, p95 {p95 * 1000:.1f} ms "
        f"({len(times)} decisions)"
    )
    print(f"  = {med / peer:.0f} and {p95 / peer:.0f} random playouts")


if __name__ == "__main__":
    main()
