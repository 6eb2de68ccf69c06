"""The inference-share benchmark's arithmetic and its pooling of seeds (the README's figure comes from it)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "inference.py"


def _run(tmp_path: Path, *args: str) -> subprocess.CompletedProcess[str]:
    cmd = [sys.executable, str(BENCH), "--bots", "basic,random,cheat", "--cache", str(tmp_path), "--reps", "200"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=300)


def _share_line(out: str, after: str) -> str:
    tail = out[out.index(after) :]
    return next(line for line in tail.splitlines() if "gap share" in line)


def test_seeds_are_reported_one_by_one_then_pooled_over_all_their_deals(tmp_path: Path) -> None:
    both = _run(tmp_path, "--seed", "3,4", "--deals", "6,2")
    assert both.returncode == 0, both.stderr
    assert "deals 0 to 5, seed 3" in both.stdout and "deals 0 to 1, seed 4" in both.stdout
    assert "pooled: 8 deals of seeds 3,4" in both.stdout
    # Each seed's lines are those of a run of that seed alone (the cache is reused, so nothing replays).
    alone = _run(tmp_path, "--seed", "4", "--deals", "2")
    assert _share_line(alone.stdout, "seed 4") == _share_line(both.stdout, "seed 4")
    assert "pooled" not in alone.stdout
    # The pooled share is (measured - uniform) / (cheat - uniform) over the eight deals' cached results.
    means = []
    for label in ("basic", "random", "cheat"):
        diffs = []
        for seed, n in ((3, 6), (4, 2)):
            (cached,) = tmp_path.glob(f"classic-*-seed{seed}-{label}.json")
            diffs += [json.loads(cached.read_text())[str(i)]["diff"] for i in range(n)]
        means.append(sum(diffs) / len(diffs))
    expected = (means[0] - means[1]) / (means[2] - means[1])
    assert f"gap share {expected:.1%}" in _share_line(both.stdout, "pooled")


def test_a_bad_seed_list_or_a_mismatched_deal_list_is_a_clear_error(tmp_path: Path) -> None:
    bad = _run(tmp_path, "--seed", "3,x")
    assert bad.returncode != 0 and "--seed takes a whole number" in bad.stderr
    mismatch = _run(tmp_path, "--seed", "3,4,5", "--deals", "2,2")
    assert mismatch.returncode != 0 and "2 counts for 3 seeds" in mismatch.stderr


def test_a_run_with_no_gap_to_close_says_so_instead_of_dividing_by_zero(tmp_path: Path) -> None:
    """Measured against itself there is no gap: the share is "n/a" and why, not a ZeroDivisionError or nan%."""
    cmd = [sys.executable, str(BENCH), "--bots", "basic,basic,basic", "--cache", str(tmp_path), "--reps", "50"]
    done = subprocess.run([*cmd, "--seed", "3", "--deals", "4"], capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    assert "gap share n/a: the cheat scored no better than uniform sampling" in done.stdout
    assert "share n/a" in done.stdout and "nan" not in done.stdout


def test_bad_input_is_one_line_before_anything_is_played(tmp_path: Path) -> None:
    """As with ``opentrix arena``: no traceback, and nothing played for a run that could not report."""
    regret = BENCH.parent / "regret.py"
    cases = [
        ([str(BENCH), "--deals", "1"], "--deals must be at least 2"),
        ([str(BENCH), "--deals", "4", "--bots", "foo,strong-uniform,cheat"], "--bots: unknown bot 'foo'"),
        ([str(BENCH), "--deals", "4", "--contracts", "foo"], "--contracts: unknown contract 'foo'"),
        ([str(BENCH), "--deals", "4", "--rules", "foo"], "--rules: unknown preset 'foo'"),
        ([str(BENCH), "--deals", "4", "--jobs", "0"], "--jobs must be at least 1"),
        ([str(regret), "--deals", "0"], "--deals must be at least 1"),
        ([str(regret), "--bots", "strong"], "--bots takes two bots or more"),
        ([str(regret), "--bots", "random,cheat"], "--bots: cheat sees every hand and is asked only by the arena"),
        ([str(BENCH), "--deals", "4", "--contracts", "trix,trix"], "--contracts: trix is named twice"),
        ([str(BENCH), "--seed", "abc"], "--seed takes a whole number or a comma-separated list of them"),
    ]
    for args, says in cases:
        run = subprocess.run(
            [sys.executable, *args, "--cache", str(tmp_path)] if args[0] == str(BENCH) else [sys.executable, *args],
            capture_output=True,
            text=True,
            timeout=120,
        )
        assert run.returncode == 2 and says in run.stderr and "Traceback" not in run.stderr, (args, run.stderr)
    assert not list(tmp_path.iterdir())  # nothing played, nothing cached
