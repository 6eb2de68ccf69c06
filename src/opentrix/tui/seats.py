"""The seats this user took at servers' tables, so that ``opentrix join`` takes the same one back.

One small JSON file in the user's data folder (``platformdirs``), keyed by the table's page; a token is
what lets its holder play the seat, so the file is written for this user only.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

from ..client import Seat, TableAddress

ENV = "OPENTRIX_SEATS"  # another file (tests, or several identities on one machine)


def seats_file() -> Path:
    if os.environ.get(ENV):
        return Path(os.environ[ENV])
    from platformdirs import user_data_path

    return user_data_path("opentrix") / "seats.json"


def _load() -> dict[str, dict[str, object]]:
    try:
        data = json.loads(seats_file().read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return {}
    return data if isinstance(data, dict) else {}


def _save(data: dict[str, dict[str, object]]) -> None:
    """Written whole under a name of its own (mode 0600) and moved into place: a reader never sees
    half a file, and two joins writing at once cannot mix theirs."""
    path = seats_file()
    with contextlib.suppress(OSError):  # not remembered is not a reason to stop a player from playing
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".seats-", suffix=".tmp")
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as f:
                json.dump(data, f, indent=1)
            os.replace(tmp, path)
        except OSError:
            os.unlink(tmp)
            raise


@contextlib.contextmanager
def _locked() -> Iterator[None]:
    """One join at a time reads, changes and writes the file (POSIX; elsewhere the last write wins)."""
    try:
        import fcntl
    except ImportError:
        yield
        return
    path = seats_file()
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = open(path.with_name(path.name + ".lock"), "a")  # noqa: SIM115 (held across the yield)
    except OSError:
        yield
        return
    with lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        yield


def kept_seat(where: TableAddress) -> Seat | None:
    """The seat taken earlier at this table, or the one the link itself holds (the host's link)."""
    if where.token is not None and where.seat is not None:
        return Seat(where, where.seat, where.token, "")
    got = _load().get(where.page)
    if not isinstance(got, dict):
        return None
    seat, token, name = got.get("seat"), got.get("token"), got.get("name")
    if not isinstance(seat, int) or not isinstance(token, str):
        return None
    return Seat(where, seat, token, str(name or ""))


def keep_seat(seat: Seat) -> None:
    with _locked():
        data = _load()
        data[seat.where.page] = {"seat": seat.seat, "token": seat.token, "name": seat.name}
        _save(data)


def forget_seat(where: TableAddress) -> None:
    with _locked():
        data = _load()
        if data.pop(where.page, None) is not None:
            _save(data)
