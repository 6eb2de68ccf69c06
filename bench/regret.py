"""Decision regret against full information: a fast, low-noise proxy for the inference share.

    python bench/regret.py [--deals 100] [--seed 3] [--bots strong,strong-uniform] [--jobs 1]

Positions come from deals of the four negative contracts played by ``basic`` in every seat. At each
card a seat plays with a real choice, every legal card is valued on the true deal (the card, then the
rules of thumb to the end: what the ``cheat`` bot sees), and each bot named is asked for its card from
the seat's view. Its regret is the best card's value minus its card's value. The cheat's regret is 0 by
definition, so for a bot measured against ``strong-uniform`` the share of the uniform bot's regret it
removes, ``(R_uniform - R_bot) / R_uniform``, is the one-decision analogue of the arena's gap share
(bench/inference.py), at a tenth of the cost and paired per position.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from _args import check_at_least, check_bots, check_contracts, check_rules
from opentrix import actions as A
from opentrix.arena.report import NEGATIVE
from opentrix.arena.spec import parse_spec
from opentrix.arena.stats import mean_ci
from opentrix.bots.simulate import rollout
from opentrix.contracts import Contract
from opentrix.deal import Phase, deal_hands
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import view

NEGATIVES = [c.id for c in NEGATIVE]  # the arena's own list


@dataclass
class Position:
    deal: int
    trick: int
    contract: int
    values: dict[int, float]  # legal card -> its value on the true deal
    picks: list[int]  # per bot


def _positions_of_deal(args: tuple[int, int, str, list[str], list[str]]) -> list[Position]:
    index, seed, rules_name, labels, contracts = args
    rules = Rules.preset(rules_name)
    specs = [parse_spec(label) for label in labels]
    contract = Contract.parse(contracts[index % len(contracts)])
    match = Match(rules, deal_hands(f"regret:{seed}", index))
    match.apply(A.CONTRACT_BASE + int(contract))
    basic = [parse_spec("basic").build(f"regret:{seed}:{index}:{s}") for s in range(4)]
    out: list[Position] = []
    while match.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
        seat = match.turn
        assert seat is not None
        legal = match.legal_actions()
        v = view(match, seat)
        if match.phase == Phase.PLAY and len(legal) > 1:
            deal = match.deal
            assert deal is not None
            values: dict[int, float] = {}
            for a in legal:
                d = deal.copy()
                d.apply(a)
                values[a] = float(rollout(d)[seat])
            if len(set(values.values())) > 1:
                picks = [spec.build(f"regret:{seed}:{index}:{seat}:{len(deal.plays)}").act(v, legal) for spec in specs]
                out.append(Position(index, len(deal.plays) // 4, int(contract), values, picks))
        match.apply(basic[seat].act(v, legal), seat)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", type=int, default=100)
    ap.add_argument("--seed", type=int, default=3)
    ap.add_argument("--rules", default="classic")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--contracts", default=",".join(NEGATIVES), help="contracts dealt in turn")
    ap.add_argument("--bots", default="strong,strong-uniform", help="bots to ask; the last is the yardstick")
    args = ap.parse_args()
    labels = [b.strip() for b in args.bots.split(",")]
    if len(labels) < 2:
        ap.error("--bots takes two bots or more: those to ask, then the yardstick")
    check_bots(ap, labels, seated=True)
    check_contracts(ap, args.contracts, check_rules(ap, args.rules))
    check_at_least(ap, "--deals", args.deals, 1)
    check_at_least(ap, "--jobs", args.jobs, 1)
    t0 = time.perf_counter()
    contracts = [c.strip() for c in args.contracts.split(",")]
    work = [(i, args.seed, args.rules, labels, contracts) for i in range(args.deals)]
    positions: list[Position] = []
    if args.jobs > 1:
        with ProcessPoolExecutor(args.jobs) as pool:
            for got in pool.map(_positions_of_deal, work):
                positions.extend(got)
    else:
        for n, w in enumerate(work, 1):
            positions.extend(_positions_of_deal(w))
            if n % 10 == 0:
                print(f"  {n}/{args.deals} deals, {time.perf_counter() - t0:.0f} s", file=sys.stderr)
    regrets = [[max(p.values.values()) - p.values[p.picks[b]] for p in positions] for b in range(len(labels))]
    print(f"{len(positions)} positions from {args.deals} deals (seed {args.seed}), {time.perf_counter() - t0:.0f} s")
    if not positions:
        return
    base = regrets[-1]
    for label, r in zip(labels, regrets, strict=True):
        m = mean_ci(r)
        d = mean_ci([x - y for x, y in zip(base, r, strict=True)])
        mb = statistics.fmean(base)
        half = f"± {m['ci95']:.3f}" if m["ci95"] is not None else "(one position)"
        removes = (
            f"removes {d['mean'] / mb:6.1%} (± {d['ci95'] / mb:.1%}) of {labels[-1]}'s"
            if mb and d["ci95"] is not None
            else f"({labels[-1]} has no regret to remove here)"
            if not mb
            else ""
        )
        print(f"  {label:34s} regret {m['mean']:6.3f} {half}   {removes}")
    for ct in sorted({p.contract for p in positions}):
        sel = [i for i, p in enumerate(positions) if p.contract == ct]
        row = "  ".join(f"{statistics.fmean(r[i] for i in sel):6.3f}" for r in regrets)
        print(f"  {Contract(ct).id:15s} ({len(sel):4d} positions): {row}")
    for lo, hi in ((0, 3), (3, 6), (6, 9), (9, 13)):
        sel = [i for i, p in enumerate(positions) if lo <= p.trick < hi]
        if not sel:
            continue
        row = "  ".join(f"{statistics.fmean(r[i] for i in sel):6.3f}" for r in regrets)
        print(f"  tricks {lo + 1:2d}-{hi:2d} ({len(sel):4d} positions): {row}")


if __name__ == "__main__":
    main()
