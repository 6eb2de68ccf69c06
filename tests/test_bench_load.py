"""The server load benchmark runs end to end as the README shows it, its idle-memory step included."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).resolve().parent.parent / "bench" / "load.py"


def test_the_load_benchmark_measures_load_and_the_memory_of_idle_tables() -> None:
    args = ["--tables", "2", "--duration", "1", "--warmup", "0.5", "--idle", "3", "--json"]
    run = subprocess.run([sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    result = json.loads(run.stdout.splitlines()[-1])
    assert [s["tables"] for s in result["stages"]] == [2] and result["stages"][0]["errors"] == 0
    assert result["idle_tables"] == 3
    assert isinstance(result["lobby_kb_per_table"], float) and isinstance(result["started_kb_per_table"], float)
