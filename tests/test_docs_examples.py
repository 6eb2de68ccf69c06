"""The Python examples in the README and the docs run as printed, so a change that breaks them fails here
rather than in a reader's hands. Fragments that need a game under way get a short prelude; the engine API
page's listing of signatures is a reference, not a program, and is marked as text."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
BLOCK = re.compile(r"^```python\n(.*?)^```", re.S | re.M)

# file -> (prelude for its blocks, how many python blocks it has)
DOCS = {
    "README.md": ("", 1),
    "docs/rules.md": ("", 1),
    "docs/rl.md": ("", 3),
    "docs/bots.md": (
        "from opentrix import Match, Rules, view\nmatch = Match(Rules.preset('classic'), seed=1)\nseat = match.turn\n",
        1,
    ),
}


def blocks(name: str) -> list[str]:
    return BLOCK.findall((ROOT / name).read_text(encoding="utf-8"))


def test_every_python_example_in_the_docs_is_run_here() -> None:
    """A new example in a page not listed would go untried: list it (or say why it cannot run)."""
    pages = sorted(p.relative_to(ROOT).as_posix() for p in [ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
    with_code = {p: len(blocks(p)) for p in pages if blocks(p)}
    assert with_code == {p: n for p, (_, n) in DOCS.items()}


@pytest.mark.parametrize(("page", "index"), [(p, i) for p, (_, n) in DOCS.items() for i in range(n)])
def test_the_example_runs(page: str, index: int) -> None:
    prelude, _ = DOCS[page]
    code = blocks(page)[index]
    if "pyspiel" in code:
        pytest.importorskip("pyspiel")
    exec(compile(prelude + code, f"{page} example {index + 1}", "exec"), {"__name__": "__doc_example__"})
