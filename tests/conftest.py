"""Shared test set-up, kept small: the helper modules beside the tests (``engine_kit`` …) import by
name however pytest is started (from the repository root, from tests/, or with another import mode)."""

from __future__ import annotations

import os
import shutil
import socket
import sys
from pathlib import Path
from urllib.parse import urlsplit

import pytest

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)


# -- services the tests talk to ---------------------------------------------------------------------
# The browser tests need Debian's Chromium and the ``postgres`` tests the PostgreSQL server named in
# test_server_kit. On a developer's machine without them those tests are skipped, saying what to
# install; under CI (``CI`` set, as .ci/run does) nothing is skipped: a missing service fails them.


def _postgres_reachable() -> bool:
    url = urlsplit(os.environ.get("OPENTRIX_TEST_POSTGRES", "postgresql://postgres@127.0.0.1:5432/test"))
    try:
        with socket.create_connection((url.hostname or "127.0.0.1", url.port or 5432), timeout=1):
            return True
    except OSError:
        return False


# -- two processes (pytest-xdist, ``-n 2 --dist loadgroup`` in pyproject.toml) ------------------------
# The browser tests mostly wait (on Chromium, on a server), the engine and bot tests mostly compute, so
# the suite runs in two worker processes. Tests that share something outside the process run in one
# worker, one after another: every PostgreSQL test (one database), the browser tests (one module-wide
# server and browser each), and the tests that time how fast a server answers. xdist hands out the
# groups first (the ones with most tests first), so no long group is left for the end.
_ONE_WORKER = {
    "test_web_table.py": "browser",
    "test_web_a11y.py": "browser",
    "test_server_fairness.py": "timing",
    "test_server_bot_processes.py": "timing",
}


def _group(item: pytest.Item) -> str | None:
    if "postgres" in item.keywords:
        return "postgres"
    return _ONE_WORKER.get(item.path.name)


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    for item in items:
        group = _group(item)
        if group is not None:
            item.add_marker(pytest.mark.xdist_group(group))
    if os.environ.get("CI"):
        return
    missing: dict[str, str] = {}
    if not (os.path.exists("/usr/bin/chromium") or shutil.which("chromium")):
        missing["browser"] = "needs Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
    if not (os.path.exists("/usr/sbin/nginx") or shutil.which("nginx")):
        missing["proxy"] = "needs nginx (apt-get install -y nginx)"
    if any("postgres" in item.keywords for item in items) and not _postgres_reachable():
        missing["postgres"] = "needs PostgreSQL (set OPENTRIX_TEST_POSTGRES, default 127.0.0.1:5432/test)"
    for item in items:
        for mark, why in missing.items():
            if mark in item.keywords:
                item.add_marker(pytest.mark.skip(reason=f"{why}; CI never skips this"))
