"""The name a server process holds its tables under, and telling when such a name on this machine is dead.

A lease alone makes a crashed server's tables wait until it runs out (15 s by default), and ``opentrix
play`` started again within that time would not find the match it should take up. A name records the
machine (its boot id and the process's PID namespace, hashed: host names repeat across machines, and
every host's first PID namespace has the same inode) and the PID, so a server can see that a holder in
the same namespace of the same running machine is gone and take its tables at once. Holders elsewhere,
or whose PID is alive (even if reused), keep their tables until the lease runs out: that side is safe.
On Linux a process that has exited but is not yet reaped by its parent (a zombie) counts as gone.
The host name is kept too, shortened, for people reading the store.
"""

from __future__ import annotations

import functools
import hashlib
import os
import secrets
import socket
import sys

NAME_LENGTH = 64  # the store's owner column


@functools.cache
def _machine() -> str:
    """This running machine and PID namespace, as 12 hex digits; ``-`` where that cannot be told."""
    try:
        with open("/proc/sys/kernel/random/boot_id", encoding="ascii") as f:
            boot = f.read().strip()
        namespace = os.stat("/proc/self/ns/pid").st_ino
    except OSError:
        return "-"
    return hashlib.sha256(f"{boot}:{namespace}".encode()).hexdigest()[:12]


def process_name() -> str:
    """A name no other live server shares: host (shortened), machine, PID and a random part."""
    host = socket.gethostname()[:20].replace(":", "-") or "host"
    return f"{host}:{_machine()}:{os.getpid()}:{secrets.token_hex(5)}"


def dead_here(owner: str) -> bool:
    """Whether ``owner`` names a server process of this running machine and PID namespace that no
    longer runs. Names from elsewhere, or written by older versions, are never judged dead."""
    parts = owner.rsplit(":", 3)
    if len(parts) != 4 or parts[1] in ("-", "") or parts[1] != _machine() or not parts[2].isdigit():
        return False
    pid = int(parts[2])
    if pid <= 0 or pid == os.getpid():
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    except OSError:  # it exists but belongs to someone else: alive, unless it is only a zombie
        pass
    return _zombie(pid)


def _zombie(pid: int) -> bool:
    """Whether ``pid`` has exited and only waits to be reaped by its parent (Linux; elsewhere never
    judged so). ``os.kill(pid, 0)`` still finds such a process: a server killed a moment ago, whose
    parent has not yet collected it, would keep its tables until its lease ran out. Every thread must be
    a zombie (``Z``) or dead (``X``): a process whose first thread alone has exited still runs. What
    cannot be read (another user's process under ``hidepid``) is taken as alive."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return False
    for tid in tasks:
        try:
            with open(f"/proc/{pid}/task/{tid}/stat", "rb") as f:
                stat = f.read()
        except FileNotFoundError:  # that thread is gone already
            continue
        except OSError:
            return False
        # "tid (command) S ...": the command may hold spaces and parentheses, the state follows the last ")"
        state = stat[stat.rfind(b")") + 2 :][:1]
        if state not in (b"Z", b"X"):
            return False
    return bool(tasks)
