"""What an arena run measured: per contract and overall differences, move times; text, JSON, a chart."""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path
from textwrap import fill
from typing import Any

from ..contracts import Contract
from .duplicate import UnitResult
from .runner import ArenaRun
from .spec import settings
from .stats import mean_ci

NEGATIVE = (Contract.KING_OF_HEARTS, Contract.QUEENS, Contract.DIAMONDS, Contract.LTOOSH)


def summary(
    run: ArenaRun, jobs: int | None = None, contracts: Sequence[Contract] | None = None, units: bool = True
) -> dict[str, Any]:
    """The JSON document of a run (``--json``), with what is needed to tell later what produced it:
    the version, every bot option (defaults included) and the contracts asked for. Without ``units``
    it leaves out the per-unit list, which only the JSON needs (a dict a deal, on a run of millions)."""
    from .. import __version__

    cfg = run.config
    res = run.results
    doc: dict[str, Any] = {
        "candidate": cfg.candidate.label,
        "baseline": cfg.baseline.label,
        "opentrix": __version__,
        "bots": {"candidate": settings(cfg.candidate), "baseline": settings(cfg.baseline)},
        "rules": cfg.rules.to_json(),
        "seed": cfg.seed,
        "jobs": cfg.jobs if jobs is None else jobs,
        "contracts_requested": [c.id for c in contracts] if contracts else None,
        "mode": "kingdom" if cfg.kingdom else "deal",
        "units_requested": cfg.units,
        "units_played": len(res),
        "interrupted": run.interrupted,
        "elapsed_s": round(run.elapsed_s, 3),
        "metric": _metric("kingdom" if cfg.kingdom else "deal", cfg.rules.partnership),
    }
    if cfg.kingdom:
        doc["overall"] = mean_ci([r.diff for r in res])
        doc["as_king"] = mean_ci([r.king_diff for r in res])
        doc["contract_order"] = contract_order(res)
    else:
        per: dict[str, Any] = {}
        for c in sorted({r.contract for r in res if r.contract is not None}):
            per[Contract(c).id] = mean_ci([r.diff for r in res if r.contract == c])
        doc["contracts"] = per
        neg = [r.diff for r in res if r.contract in NEGATIVE]
        if neg:
            doc["negative"] = mean_ci(neg)
        doc["overall"] = mean_ci([r.diff for r in res])
        doc["thrown_in"] = sum(r.thrown_in for r in res)
    if units:
        doc["units"] = [
            {
                "index": r.index,
                "contract": Contract(r.contract).id if r.contract is not None else None,
                "diff": r.diff,
                "scores": [list(sc) for sc in r.scores],
            }
            | ({"king_diff": r.king_diff, "king": r.king, "orders": _orders(r)} if cfg.kingdom else {})
            for r in res
        ]
    doc["time_per_move"] = {"candidate": run.candidate_times.summary(), "baseline": run.baseline_times.summary()}
    return doc


def _metric(unit: str, partnership: bool) -> str:
    """What the differences measure, in words (partnership play: team margins, see ``UnitResult.diff``)."""
    if partnership:
        return (
            f"candidate's team score per {unit} minus the other team's, "
            "the candidate's partner a baseline bot, over the four seats (95% CI)"
        )
    return f"candidate mean score per {unit} minus the baseline's, over the four seats (95% CI)"


def _orders(r: UnitResult) -> list[list[str]]:
    return [[Contract(c).id for c in order] for order in r.orders]


def contract_order(res: Sequence[UnitResult]) -> dict[str, dict[str, float]]:
    """Kingdom mode: for the candidate as king and the baseline as king, each contract's mean turn
    (1 = chosen first), earliest first: what the contract choice does, beside what it scores."""
    turns: dict[str, dict[int, list[int]]] = {"candidate": {}, "baseline": {}}
    for r in res:
        for replay, order in enumerate(r.orders):
            who = "candidate" if replay == r.king else "baseline"
            for turn, c in enumerate(order, 1):
                turns[who].setdefault(c, []).append(turn)
    out: dict[str, dict[str, float]] = {}
    for who, by in turns.items():
        means = {Contract(c).id: round(sum(t) / len(t), 2) for c, t in by.items()}
        out[who] = dict(sorted(means.items(), key=lambda kv: (kv[1], kv[0])))
    return out


def order_line(doc: dict[str, Any], who: str) -> str | None:
    """``candidate as king, mean turn chosen: Trix 1.9, Queens 2.4, ...`` (kingdom mode), else None."""
    order = doc.get("contract_order", {}).get(who)
    if not order:
        return None
    turns = ", ".join(f"{Contract.parse(c).title} {t:.1f}" for c, t in order.items())
    return f"{who} as king, mean turn chosen: {turns}"


def _fmt(stat: dict[str, Any]) -> str:
    if stat["mean"] is None:
        return "—"
    ci = "" if stat["ci95"] is None else f" ± {stat['ci95']:.2f}"
    return f"{stat['mean']:+.2f}{ci}"


def rows(doc: dict[str, Any]) -> list[tuple[str, str, str]]:
    """(what, n, difference ± CI) lines for the text table."""
    out: list[tuple[str, str, str]] = []
    for name, stat in doc.get("contracts", {}).items():
        out.append((Contract.parse(name).title, str(stat["n"]), _fmt(stat)))
    if "negative" in doc:
        out.append(("negative contracts", str(doc["negative"]["n"]), _fmt(doc["negative"])))
    if "as_king" in doc:
        out.append(("as king", str(doc["as_king"]["n"]), _fmt(doc["as_king"])))
    out.append(("overall", str(doc["overall"]["n"]), _fmt(doc["overall"])))
    return out


def timing_line(doc: dict[str, Any], who: str) -> str:
    t = doc["time_per_move"][who]
    if not t["moves"]:
        return f"{who}: no decisions timed"
    return f"{who} time per move: median {t['median_ms']:.1f} ms, p95 {t['p95_ms']:.1f} ms ({t['moves']} decisions)"


def plot(doc: dict[str, Any], path: Path) -> None:
    """A chart of the per-contract differences with their 95% intervals."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    items = [(what, doc_stat) for what, doc_stat in _plot_items(doc) if doc_stat["mean"] is not None]
    fig, ax = plt.subplots(figsize=(7, 1.2 + 0.55 * max(len(items), 1)))
    labels = [f"{w} (n={s['n']})" for w, s in items]
    means = [s["mean"] for _, s in items]
    errs = [s["ci95"] or 0.0 for _, s in items]
    ys = list(range(len(items)))[::-1]
    colors = [verdict_color(s) for _, s in items]
    ax.errorbar(means, ys, xerr=errs, fmt="none", ecolor="black", capsize=4)
    ax.scatter(means, ys, c=colors, zorder=3)
    ax.axvline(0, color="black", linewidth=0.8)
    ax.set_yticks(ys, labels)
    ax.set_ylim(-0.6, len(items) - 0.4)  # room above the top row and below the bottom one
    unit = "kingdom" if doc["mode"] == "kingdom" else "deal"
    team = isinstance(doc["rules"], dict) and doc["rules"].get("partnership") is True
    what = "team margin" if team else "points"
    ax.set_xlabel(fill(f"{doc['candidate']} minus {doc['baseline']}: {what} per {unit} (95% CI)", 70))
    rules = rules_label(doc["rules"])
    played = doc["units_played"]
    if doc["interrupted"]:
        played = f"{played} of {doc['units_requested']} (interrupted)"
    ax.set_title(fill(f"opentrix arena, {played} duplicate {unit}s, {rules} rules, seed {doc['seed']}", 70))
    fig.tight_layout()
    # drawn beside the file and then put in its place, so an interrupted or failed drawing leaves no
    # half-written chart (nor destroys the one an earlier run left)
    target = path.resolve()  # through a link, as writing the path itself would go
    part = target.with_name(f".{target.name}.part")
    fmt = path.suffix[1:].lower() or str(matplotlib.rcParams["savefig.format"])  # the .part would hide it
    try:
        try:
            fig.savefig(part, dpi=110, format=fmt, bbox_inches="tight")  # long names widen it, not cut it
        except PermissionError:  # a folder we may not add to, holding a chart we may overwrite
            fig.savefig(path, dpi=110, format=fmt, bbox_inches="tight")
        else:
            part.replace(target)
    finally:
        plt.close(fig)
        part.unlink(missing_ok=True)


def rules_label(rules: str | dict[str, Any]) -> str:
    """``classic``, or ``online with kingdoms=1, partnership=true`` for a preset with changed options."""
    if isinstance(rules, str):
        return rules
    changed = ", ".join(f"{k}={json.dumps(v)}" for k, v in rules.items() if k != "preset")
    return f"{rules['preset']} with {changed}"


def verdict_color(stat: dict[str, Any]) -> str:
    """Green or red only where the interval leaves out zero; grey where it does not, or where there is
    no interval at all (one deal, or deals that all came out the same, which say nothing yet)."""
    mean, ci = stat["mean"], stat["ci95"]
    if mean is None or not ci:
        return "tab:gray"
    return "tab:green" if mean - ci > 0 else "tab:red" if mean + ci < 0 else "tab:gray"


def _plot_items(doc: dict[str, Any]) -> list[tuple[str, dict[str, Any]]]:
    items = [(Contract.parse(n).title, s) for n, s in doc.get("contracts", {}).items()]
    if "negative" in doc:
        items.append(("negative contracts", doc["negative"]))
    if "as_king" in doc:
        items.append(("as king", doc["as_king"]))
    items.append(("overall", doc["overall"]))
    return items
