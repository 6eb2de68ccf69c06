"""What the play and replay apps share: the glyphs they draw with, as the terminal allows them."""

from __future__ import annotations

import asyncio
import contextlib
import signal
from dataclasses import replace

from textual.app import App
from textual.binding import Binding

from .glyphs import Glyphs, ascii_key

LEAVE_ON = tuple(getattr(signal, name) for name in ("SIGTERM", "SIGHUP") if hasattr(signal, name))


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
        for sig in LEAVE_ON:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):  # not POSIX, not the main thread
                asyncio.get_running_loop().add_signal_handler(sig, self.exit)

    def on_unmount(self) -> None:
        for sig in LEAVE_ON:
            with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
                asyncio.get_running_loop().remove_signal_handler(sig)

    def get_key_display(self, binding: Binding) -> str:
        shown = super().get_key_display(binding)
        return ascii_key(shown, binding.key) if self.g.ascii else shown
