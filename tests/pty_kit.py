"""A command run in a pseudo-terminal, as a person starts it in a terminal window: what it draws is
kept, keys can be typed, and it never outlives the test."""

from __future__ import annotations

import contextlib
import os
import select
import signal
import sys
import time
from collections.abc import Sequence


class PtyCommand:
    """``python -m opentrix ARGS`` in a terminal of its own. ``env`` is set and ``unset`` removed in
    the child; ``ignore_hangup`` runs it as under nohup. Use it as a context manager."""

    def __init__(
        self, args: Sequence[str], env: dict[str, str], unset: Sequence[str] = (), ignore_hangup: bool = False
    ) -> None:
        import pty

        self.seen = b""
        self.pid, self.fd = pty.fork()
        if self.pid == 0:  # the child: the command, as a player types it
            for var in unset:
                os.environ.pop(var, None)
            os.environ.update(env)
            if ignore_hangup:
                signal.signal(signal.SIGHUP, signal.SIG_IGN)
            try:
                os.execvp(sys.executable, [sys.executable, "-m", "opentrix", *args])
            finally:
                os._exit(127)  # never back into pytest in the child

    def read_until(self, text: bytes, timeout: float) -> None:
        """Keep what the command draws until ``text`` shows, the time is up, or it is gone."""
        deadline = time.monotonic() + timeout
        while text not in self.seen and time.monotonic() < deadline:
            if select.select([self.fd], [], [], 0.1)[0]:
                try:
                    self.seen += os.read(self.fd, 65536)
                except OSError:  # the child is gone
                    return

    def type(self, keys: bytes) -> None:
        os.write(self.fd, keys)

    def exit_code(self) -> int:
        """Wait for the command to end; its exit status."""
        _, status = os.waitpid(self.pid, 0)
        self.pid = 0
        return os.waitstatus_to_exitcode(status)

    def ended(self) -> bool:
        """Whether the command has ended (without waiting for it)."""
        if os.waitpid(self.pid, os.WNOHANG)[0]:
            self.pid = 0
        return not self.pid

    def __enter__(self) -> PtyCommand:
        return self

    def __exit__(self, *exc: object) -> None:
        with contextlib.suppress(ChildProcessError):  # failed: no orphan left to slow later tests
            if self.pid and not os.waitpid(self.pid, os.WNOHANG)[0]:
                os.kill(self.pid, signal.SIGKILL)
                os.waitpid(self.pid, 0)
