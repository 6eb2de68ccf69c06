"""``opentrix replay FILE``: step through a game record in the terminal (registered by the CLI)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)


def replay(
    file: Annotated[Path, typer.Argument(help="an opentrix-record/1 file", show_default=False)],
    ascii: Annotated[bool, typer.Option("--ascii", help="suit letters S H D C instead of symbols")] = False,
) -> None:
    """Step through a record card by card with every hand face up: ←/→ one step, PgUp/PgDn one deal.

    An invalid record is shown up to its first error, which is named as `opentrix verify` names it.
    """
    from ..record import NoDeals, RecordError
    from . import require_terminal, require_textual
    from .glyphs import Glyphs, ascii_wanted
    from .replay import load_replay

    require_textual()
    glyphs = Glyphs(ascii=ascii or ascii_wanted())
    try:
        rp = load_replay(file, glyphs)
    except OSError as e:
        typer.echo(f"opentrix replay: cannot read {file}: {e.strerror or e}", err=True)
        raise typer.Exit(1) from None
    except NoDeals:
        typer.echo(f"opentrix replay: {file}: a valid record with no deals yet: nothing to show")
        return
    except RecordError as e:
        typer.echo(f"opentrix replay: {file}: invalid record: {glyphs.text(e.located())}", err=True)
        raise typer.Exit(1) from None
    from .replay_app import ReplayApp

    require_terminal("replay")
    ReplayApp(rp, file.name, glyphs).run()
    if rp.error is not None:
        typer.echo(f"{file}: invalid record: {glyphs.text(rp.error.located())}", err=True)
        raise typer.Exit(1)
