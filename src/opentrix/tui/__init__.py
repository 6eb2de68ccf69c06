"""Play and replay Trix in a terminal (Textual): ``opentrix play --terminal`` and ``opentrix replay``."""

from __future__ import annotations

import sys
from pathlib import Path

from .glyphs import Glyphs, ascii_wanted

DEFAULT_PAUSE = 0.6


def play_terminal(
    rules: str | None,
    bots: list[str] | None,
    seed: int | None,
    save: Path | None,
    *,
    ascii: bool | None = None,
    pause: float = DEFAULT_PAUSE,
) -> None:
    """Play a match at seat 0 against three bots; with ``save``, the record is rewritten after every action."""
    require_textual()
    from ..cli import printable
    from .play_app import PlayApp
    from .session import PlaySession

    try:  # the options first (their errors say more), then the terminal, and only then the save file
        session = PlaySession.open(rules, bots, seed, save, write=False)
    except ValueError as e:
        print(printable(f"opentrix: {e}", sys.stderr), file=sys.stderr)
        raise SystemExit(2) from None
    require_terminal("play --terminal")
    session.save()
    glyphs = Glyphs(ascii=ascii_wanted() if ascii is None else ascii)
    app = PlayApp(session, glyphs, pause=pause)
    app.run()
    ended = app.session  # Enter after a finished match started another: the exit line is about that one
    assert isinstance(ended, PlaySession)
    session = ended
    done = sum(1 for d in session.match.deals if d.scores is not None and d.thrown_in is None)
    state = "match over" if session.match.is_over else f"{done} deal{'' if done == 1 else 's'} finished"
    # a file name the terminal's encoding cannot write (``--save ü.json`` under PYTHONIOENCODING=ascii)
    # is escaped, as ``opentrix verify`` writes it, not a traceback after the match
    print(f"seed {session.seed}: {state}, totals {session.match.totals} (you, right, across, left)")
    if save is None:
        if not session.match.is_over:
            print("not saved: play with --save FILE to keep a match and take it up later")
    else:
        if session.save_error:
            said = f"opentrix: {session.save_error}; the match was not saved"
            print(printable(said, sys.stderr), file=sys.stderr)
            raise SystemExit(1)
        else:
            if session.match.deals:
                print(printable(f"saved to {save}; check it with: opentrix verify {save}"))
            if not session.match.is_over:  # even before a contract: the hand seen is kept in the file
                print(printable(f"take it up with: opentrix play --terminal --save {save}"))


def require_textual() -> None:
    """Exit with an install hint, not a traceback, when the optional Textual dependency is missing."""
    try:
        import textual  # noqa: F401
    except ImportError:
        print("opentrix: the terminal client needs Textual: pip install 'opentrix[terminal]'", file=sys.stderr)
        raise SystemExit(1) from None


def require_terminal(command: str) -> None:
    """Exit with a reason when keys cannot be read: from a pipe or /dev/null the screen would wait forever."""
    if sys.stdin is None or not sys.stdin.isatty():
        print(
            f"opentrix: {command} reads keys from a terminal, and its input is not one "
            "(a pipe or a file); run it in a terminal window",
            file=sys.stderr,
        )
        raise SystemExit(2)


__all__ = ["DEFAULT_PAUSE", "play_terminal", "require_terminal", "require_textual"]
