"""What the play and replay apps share: the glyphs they draw with, as the terminal allows them."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import threading
from collections.abc import Callable
from dataclasses import replace

from textual.app import App
from textual.binding import Binding

from .glyphs import Glyphs, ascii_key

HANGUP_GRACE = 3.0  # seconds a hung-up app has to close by itself before it is ended outright


class TrixApp(App[None]):
    """A Textual app drawing cards with ``Glyphs``: under NO_COLOR red suits are bold, not a grey that
    reads as dim; in ASCII mode the footer names keys in words, not arrows."""

    def __init__(self, glyphs: Glyphs | None = None) -> None:
        super().__init__()
        self.g = glyphs or Glyphs()
        if self.no_color:
            self.g = replace(self.g, color=False)

    def on_mount(self) -> None:
        """Killed with SIGTERM (``timeout``, ``kill``), leave as after Ctrl+Q: the terminal put
        back as it was, not left in the app's screen with the cursor hidden. SIGHUP (the terminal
        closed: an SSH session dropped) ends the app too, even where it was started with SIGHUP
        ignored (``nohup``, some service managers): with no terminal left it would run on for ever."""
        for sig, leave in self._leaving():
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not POSIX, not the main thread
                asyncio.get_running_loop().add_signal_handler(sig, leave)

    def on_unmount(self) -> None:
        for sig, _ in self._leaving():
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(sig)

    def _leaving(self) -> list[tuple[int, Callable[[], None]]]:
        signals: list[tuple[int, Callable[[], None]]] = [(signal.SIGTERM, self.exit)]
        if hasattr(signal, "SIGHUP"):
            signals.append((signal.SIGHUP, self.hang_up))
        return signals

    def hang_up(self) -> None:
        """The terminal is gone. Closing the app writes to it, which can leave Textual's threads waiting
        on each other for ever (seen under load), so the process is ended outright if it has not closed
        by itself within ``HANGUP_GRACE`` seconds. Nothing is lost: a ``--save`` file is written after
        every move, atomically (a new file renamed over the old), so an end even halfway through a save
        leaves the last whole record."""
        watchdog = threading.Timer(HANGUP_GRACE, os._exit, args=(128 + signal.SIGHUP,))
        watchdog.daemon = True
        watchdog.start()
        self.exit()

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return ascii_key(shown, binding.key) if self.g.ascii else shown
