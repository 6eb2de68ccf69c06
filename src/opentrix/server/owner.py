"""The name a server process holds its tables under, and telling when such a name on this machine is dead.

A lease alone makes a crashed server's tables wait until it runs out (15 s by default), and ``opentrix
play`` started again within that time would not find the match it should take up. A name records the
host, the process's PID namespace and its PID, so a server can see that a holder on the same machine and
in the same namespace is gone and take its tables at once. Holders elsewhere, or whose PID is alive
(even if reused), keep their tables until the lease runs out: that side is always safe.
"""

from __future__ import annotations

import os
import secrets
import socket


def _namespace() -> str:
    """The PID namespace, so that two containers with one host name never judge each other's PIDs."""
    try:
        return str(os.stat("/proc/self/ns/pid").st_ino)
    except OSError:
        return "-"


def process_name() -> str:
    """A name no other live server shares: host, PID namespace, PID and a random part."""
    return f"{socket.gethostname()[:40]}:{_namespace()}:{os.getpid()}:{secrets.token_hex(6)}"


def dead_here(owner: str) -> bool:
    """Whether ``owner`` names a server process on this machine, in this namespace, that no longer runs.

    Names from elsewhere, or written by older versions (``host:random``), are never judged dead."""
    parts = owner.rsplit(":", 3)
    if len(parts) != 4 or parts[1] == "-" or not parts[2].isdigit():
        return False
    host, namespace, pid, _ = parts
    if host != socket.gethostname()[:40] or namespace != _namespace() or int(pid) == os.getpid():
        return False
    try:
        os.kill(int(pid), 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists but belongs to someone else: alive
        return False
    return False
