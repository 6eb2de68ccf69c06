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


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if os.environ.get("CI"):
        return
    missing: dict[str, str] = {}
    if not (os.path.exists("/usr/bin/chromium") or shutil.which("chromium")):
        missing["browser"] = "needs Debian's Chromium at /usr/bin/chromium (apt-get install -y chromium)"
    if any("postgres" in item.keywords for item in items) and not _postgres_reachable():
        missing["postgres"] = "needs PostgreSQL (set OPENTRIX_TEST_POSTGRES, default 127.0.0.1:5432/test)"
    for item in items:
        for mark, why in missing.items():
            if mark in item.keywords:
                item.add_marker(pytest.mark.skip(reason=f"{why}; CI never skips this"))
