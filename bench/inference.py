"""How much of the gap between uniform sampling and the cheat the strong bot's inference closes, paired.

    python bench/inference.py [--deals 200] [--seed 7] [--jobs 1] [--bots strong,strong-uniform,cheat]
                              [--contracts king_of_hearts,queens,diamonds,ltoosh [--contracts trix]]
    python bench/inference.py --seed 1,7,8,9 --deals 1000,200,200,200    # each seed, then all pooled

Every candidate plays the same duplicate deals against the same seeded ``basic`` opponents as in
``opentrix arena --bots CANDIDATE,basic --contracts king_of_hearts,queens,diamonds,ltoosh``, so the
per-deal differences of the three runs can be paired. The gap share is

    (strong - uniform) / (cheat - uniform)

over the same deals, with a 95% interval from a paired bootstrap over deals (and the delta method for
comparison). The first bot is the one being measured, the second the uniform yardstick, the third the
cheat. Per-deal results are cached in ``--cache`` (one file per bot label, seed and contract list; a
temporary folder by default), so a longer run only plays the deals that are missing and the yardsticks
are played once. The cache knows labels, not code: after changing a bot, use ``--fresh`` or a new folder.

Several seeds (``--seed 1,7,8,9``, with ``--deals`` one count or one per seed) are each reported, then
pooled: their deals together, with one bootstrap over all of them.

Several ``--contracts`` groups are measured one after the other, and then together with every contract
counted once, as in a kingdom where each contract is played once (each group's deals resampled within
the group for the interval).
"""

from __future__ import annotations

import argparse
import json
import math
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path

from _args import check_at_least, check_bots, check_contracts, check_rules
from opentrix.arena.duplicate import Unit, UnitResult, play_unit
from opentrix.arena.report import NEGATIVE
from opentrix.arena.runner import ArenaConfig, run
from opentrix.arena.spec import parse_spec
from opentrix.arena.stats import mean_ci, percentile
from opentrix.contracts import Contract
from opentrix.rules import Rules

NEGATIVES = ",".join(c.id for c in NEGATIVE)  # the arena's own list


def _cache_file(cache: Path, label: str, seed: int, contracts: str, rules: str) -> Path:
    safe = label.replace(":", "_").replace("=", "-").replace("/", "_")
    return cache / f"{rules}-{contracts.replace(',', '+')}-seed{seed}-{safe}.json"


def results_for(
    label: str,
    deals: int,
    seed: int,
    contracts: str,
    rules_name: str,
    jobs: int,
    cache: Path,
    fresh: bool,
    start: int = 0,
) -> dict[int, dict]:
    """Per-deal results for one candidate (index -> diff and move times), played where not cached."""
    path = _cache_file(cache, label, seed, contracts, rules_name)
    have: dict[int, dict] = {}
    if path.exists() and not fresh:
        have = {int(k): v for k, v in json.loads(path.read_text()).items()}
    missing = [i for i in range(start, deals) if i not in have]
    if missing:
        rules = Rules.preset(rules_name)
        cs = [Contract.parse(c) for c in contracts.split(",")]
        config = ArenaConfig(parse_spec(label), parse_spec("basic"), rules, deals, seed, jobs, cs)
        units = [u for u in config.plan() if u.index in set(missing)]
        t0 = time.perf_counter()
        got = _play(config, units, label)
        for r in got:
            have[r.index] = {"diff": r.diff, "contract": r.contract, "ms": list(r.candidate_ms)}
        print(f"{label}: played {len(units)} deals in {time.perf_counter() - t0:.0f} s", file=sys.stderr)
        cache.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps({str(k): v for k, v in sorted(have.items())}))
    return {i: have[i] for i in range(start, deals)}


def _play(config: ArenaConfig, units: list[Unit], label: str) -> list[UnitResult]:
    if config.jobs <= 1:
        out = []
        for n, u in enumerate(units, 1):
            out.append(play_unit(u))
            if n % 20 == 0:
                print(f"  {label}: {n}/{len(units)}", file=sys.stderr)
        return out
    # The pool path of the arena, on just these units.
    sub = ArenaConfig(config.candidate, config.baseline, config.rules, config.units, config.seed, config.jobs)
    sub.plan = lambda: units  # type: ignore[method-assign]
    return run(sub, keep_times=True).results


def share(s: list[float], u: list[float], c: list[float]) -> float:
    """(strong - uniform) / (cheat - uniform); nan when there is no gap to close (few deals)."""
    ms, mu, mc = statistics.fmean(s), statistics.fmean(u), statistics.fmean(c)
    return (ms - mu) / (mc - mu) if mc != mu else math.nan


def pct(x: float, digits: int = 1) -> str:
    """A share as a percentage; "n/a" where there was no gap to share (uniform and cheat alike)."""
    return "n/a" if math.isnan(x) else f"{x:.{digits}%}"


def bootstrap(s: list[float], u: list[float], c: list[float], reps: int, rng: random.Random) -> tuple[float, float]:
    n = len(s)
    vals = []
    for _ in range(reps):
        idx = [rng.randrange(n) for _ in range(n)]
        vals.append(share([s[i] for i in idx], [u[i] for i in idx], [c[i] for i in idx]))
    return interval(vals)


def interval(vals: list[float]) -> tuple[float, float]:
    """The 2.5th and 97.5th percentiles of bootstrap replicates."""
    vals = sorted(v for v in vals if not math.isnan(v))  # resamples with no gap say nothing
    if not vals:
        return math.nan, math.nan
    return vals[int(0.025 * len(vals))], vals[max(0, int(0.975 * len(vals)) - 1)]


def delta(s: list[float], u: list[float], c: list[float]) -> float:
    """Half-width of the 95% interval of the ratio by the delta method (paired per deal)."""
    n = len(s)
    a = [x - y for x, y in zip(s, u, strict=True)]  # numerator per deal
    b = [x - y for x, y in zip(c, u, strict=True)]  # denominator per deal
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    if mb == 0 or n < 2:
        return math.nan
    r = ma / mb
    resid = [x - r * y for x, y in zip(a, b, strict=True)]
    var = statistics.variance(resid) / n / mb**2
    return 1.959964 * math.sqrt(var)


def contract_share(groups: list[list[tuple[int, float, float, float]]], rng: random.Random | None = None) -> float:
    """The share over every contract counted equally (as in a kingdom, where each is played once).

    ``groups`` holds (contract, strong, uniform, cheat) per deal; with ``rng`` each group's deals are
    first resampled with replacement (one bootstrap replicate).
    """
    sums: dict[int, list[float]] = {}
    for rows in groups:
        picked = [rows[rng.randrange(len(rows))] for _ in rows] if rng is not None else rows
        for ct, s, u, c in picked:
            acc = sums.setdefault(ct, [0.0, 0.0, 0.0, 0.0])
            acc[0] += s
            acc[1] += u
            acc[2] += c
            acc[3] += 1
    num = sum((a[0] - a[1]) / a[3] for a in sums.values())
    den = sum((a[2] - a[1]) / a[3] for a in sums.values())
    return num / den if den else math.nan


def report(labels: list[str], res: list[dict[int, dict]], idx: list[int], reps: int) -> None:
    s, u, c = ([r[i]["diff"] for i in idx] for r in res)
    for label, r, vals in zip(labels, res, (s, u, c), strict=True):
        m = mean_ci(vals)
        ms = [t for i in idx for t in r[i]["ms"]]
        print(
            f"  {label:28s} {m['mean']:+7.2f} ± {m['ci95']:.2f}   "
            f"median {percentile(ms, 50) or 0:6.1f} ms, p95 {percentile(ms, 95) or 0:6.1f} ms ({len(ms)} moves)"
        )
    d = mean_ci([x - y for x, y in zip(s, u, strict=True)])
    g = mean_ci([x - y for x, y in zip(c, u, strict=True)])
    print(f"  measured - uniform (paired)  {d['mean']:+7.2f} ± {d['ci95']:.2f}")
    print(f"  cheat - uniform (paired)     {g['mean']:+7.2f} ± {g['ci95']:.2f}")
    lo, hi = bootstrap(s, u, c, reps, random.Random(1))
    ratio = share(s, u, c)
    if math.isnan(ratio):
        print("  gap share n/a: the cheat scored no better than uniform sampling on these deals (play more deals)")
    else:
        print(f"  gap share {pct(ratio)}  (bootstrap 95% {pct(lo)} to {pct(hi)}; delta method ± {pct(delta(s, u, c))})")
    contracts = sorted({res[0][i]["contract"] for i in idx})
    if len(contracts) > 1:
        for ct in contracts:
            sel = [j for j, i in enumerate(idx) if res[0][i]["contract"] == ct]
            ss, uu, cc = ([v[j] for j in sel] for v in (s, u, c))
            print(
                f"    {Contract(ct).id:15s} measured {statistics.fmean(ss):+6.2f} uniform {statistics.fmean(uu):+6.2f} "
                f"cheat {statistics.fmean(cc):+6.2f}  share {pct(share(ss, uu, cc), 0)}"
            )


def _ints(ap: argparse.ArgumentParser, text: str, what: str) -> list[int]:
    try:
        return [int(x) for x in text.split(",")]
    except ValueError:
        ap.error(f"--{what} takes a whole number or a comma-separated list of them, not {text!r}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--deals", default="200", help="deals per seed; a list gives each seed its own")
    ap.add_argument("--seed", default="7", help="a seed, or several (1,7,8,9): each measured, then pooled")
    ap.add_argument("--start", type=int, default=0, help="only deals from this index on (to split a run)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--rules", default="classic")
    ap.add_argument(
        "--contracts",
        action="append",
        help=f"contracts dealt in turn (default {NEGATIVES}); repeat for more groups, e.g. --contracts trix",
    )
    ap.add_argument("--bots", default="strong,strong-uniform,cheat", help="measured,uniform,cheat")
    ap.add_argument("--cache", type=Path, default=Path(tempfile.gettempdir()) / "opentrix-inference")
    ap.add_argument("--fresh", action="store_true", help="replay the measured bot even if cached")
    ap.add_argument("--reps", type=int, default=4000, help="bootstrap resamples")
    args = ap.parse_args()
    labels = [b.strip() for b in args.bots.split(",")]
    if len(labels) != 3:
        ap.error("--bots takes three bots: measured,uniform,cheat")
    seeds = _ints(ap, args.seed, "seed")
    deals = _ints(ap, args.deals, "deals")
    if len(deals) == 1:
        deals *= len(seeds)
    if len(deals) != len(seeds):
        ap.error(f"--deals gives {len(deals)} counts for {len(seeds)} seeds: give one, or one per seed")
    for n in deals:  # the deals measured run from --start to n - 1: two at least, for an interval
        check_at_least(ap, "--deals", n, args.start + 2, " (--start plus two: one deal has no interval)")
    check_at_least(ap, "--start", args.start, 0)
    check_at_least(ap, "--jobs", args.jobs, 1)
    check_at_least(ap, "--reps", args.reps, 1)
    check_bots(ap, labels)
    rules = check_rules(ap, args.rules)
    for group in args.contracts or [NEGATIVES]:
        check_contracts(ap, group, rules)
    pooled: list[list[tuple[int, float, float, float]]] = []
    for group in args.contracts or [NEGATIVES]:
        together: list[dict[int, dict]] = [{}, {}, {}]  # every seed's deals, numbered on
        for seed, n in zip(seeds, deals, strict=True):
            res = []
            for i, label in enumerate(labels):
                fresh = args.fresh and i == 0
                res.append(results_for(label, n, seed, group, args.rules, args.jobs, args.cache, fresh, args.start))
            print(f"deals {args.start} to {n - 1}, seed {seed}, {args.rules}, {group}")
            report(labels, res, list(range(args.start, n)), args.reps)
            for acc, r in zip(together, res, strict=True):
                base = len(acc)
                acc.update({base + k: r[i] for k, i in enumerate(range(args.start, n))})
        idx = list(range(len(together[0])))
        if len(seeds) > 1:
            print(f"pooled: {len(idx)} deals of seeds {args.seed}, {args.rules}, {group}")
            report(labels, together, idx, args.reps)
        pooled.append([(together[0][i]["contract"], *(r[i]["diff"] for r in together)) for i in idx])
    if len(pooled) > 1:
        rng = random.Random(1)
        lo, hi = interval([contract_share(pooled, rng) for _ in range(args.reps)])
        n = len({row[0] for rows in pooled for row in rows})
        print(
            f"every contract counted once ({n} contracts): gap share {pct(contract_share(pooled))} "
            f"(bootstrap 95% {pct(lo)} to {pct(hi)}, deals resampled within each group)"
        )


if __name__ == "__main__":
    main()
