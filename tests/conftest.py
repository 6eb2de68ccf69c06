"""Shared test set-up, kept small: the helper modules beside the tests (``engine_kit`` …) import by
name however pytest is started (from the repository root, from tests/, or with another import mode)."""

from __future__ import annotations

import sys
from pathlib import Path

_HERE = str(Path(__file__).parent)
if _HERE not in sys.path:
    sys.path.insert(0, _HERE)
