"""A plain ``pip install -e .`` has the engine and the referee only: ``--help`` and ``verify`` must work,
and a command whose extra is missing must say what to install, in one line, not with a traceback.

The extras' packages are hidden from a real ``opentrix`` process (``None`` in ``sys.modules`` makes an
import fail as if the package were not installed), so this runs without a second virtualenv.
"""

from __future__ import annotations

import subprocess
import sys
from importlib import resources
from pathlib import Path

import pytest

EXTRAS = ("platformdirs", "uvicorn", "fastapi", "sqlalchemy", "alembic", "psycopg", "websockets", "textual")
EXAMPLE = Path(str(resources.files("opentrix") / "examples" / "classic-full-match.json"))


def bare_opentrix(*args: str, hidden: tuple[str, ...] = EXTRAS) -> subprocess.CompletedProcess[str]:
    code = (
        "import sys\n"
        f"for name in {hidden!r}:\n"
        "    sys.modules[name] = None\n"
        "from opentrix.cli import main\n"
        "sys.argv[0] = 'opentrix'\n"
        "main()\n"
    )
    env = {"COLUMNS": "200", "PATH": "/usr/bin:/bin"}
    return subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, timeout=60, env=env)


def test_help_and_verify_work_without_the_extras() -> None:
    r = bare_opentrix("--help")
    assert r.returncode == 0, r.stderr
    for command in ("verify", "play", "serve", "replay", "arena"):
        assert command in r.stdout
    r = bare_opentrix("verify", "--json", str(EXAMPLE))
    assert r.returncode == 0 and '"match_over": true' in r.stdout, r.stderr


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (
            ["serve"],
            "the web table needs uvicorn, fastapi, sqlalchemy, platformdirs, alembic, websockets: pip install",
        ),
        (["play", "--no-browser"], "pip install 'opentrix[play]'"),
        (["play", "--terminal"], "the terminal client needs Textual: pip install 'opentrix[terminal]'"),
        (["replay", str(EXAMPLE)], "pip install 'opentrix[terminal]'"),
    ],
)
def test_a_missing_extra_is_named_with_its_install_command(args: list[str], says: str) -> None:
    r = bare_opentrix(*args)
    assert r.returncode == 1 and says in r.stderr and "Traceback" not in r.stderr, r.stderr


def test_the_arena_checks_for_matplotlib_before_playing() -> None:
    r = bare_opentrix("arena", "--deals", "1000", "--plot", "/tmp/never.png", hidden=("matplotlib",))
    assert r.returncode == 2 and "pip install 'opentrix[arena]'" in " ".join(r.stderr.replace("│", " ").split())
    assert "Traceback" not in r.stderr


def test_version_is_printed_even_without_the_extras() -> None:
    from opentrix import __version__

    r = bare_opentrix("--version")
    assert r.returncode == 0 and r.stdout == f"opentrix {__version__}\n", r.stderr
