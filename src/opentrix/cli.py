"""The ``opentrix`` command. Heavy parts (server, terminal UI, arena) are imported only when used."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path
from typing import Annotated, TextIO

import typer

from .match import MAX_SEED

app = typer.Typer(
    name="opentrix",
    help="Trix (Trex): play in the browser or terminal, referee records, measure bots.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)


def _print_version(asked: bool) -> None:
    if asked:
        from . import __version__

        typer.echo(f"opentrix {__version__}")
        raise typer.Exit()


@app.callback()
def _main(
    version: Annotated[
        bool,
        typer.Option("--version", help="print the version and exit", callback=_print_version, is_eager=True),
    ] = False,
) -> None:
    """Trix (Trex): play in the browser or terminal, referee records, measure bots."""


@app.command()
def verify(
    files: Annotated[
        # text, not Path: Path("./-") is "-", and a file named - written ./- must not read stdin
        list[str],
        typer.Argument(help="opentrix-record/1 files to check (- reads one from stdin)", show_default=False),
    ],
    as_json: Annotated[bool, typer.Option("--json", help="one JSON document per record, one per line")] = False,
) -> None:
    """Check game records against the rules; print scores or the first error.

    Exit status: 0 when every record is valid (finished or not), 1 when one is invalid or unreadable.

    Exit status 2 is a usage error.
    """
    from .verify import verify_path, verify_stdin

    if sum(1 for path in files if path == "-") > 1:
        raise typer.BadParameter("stdin holds one record: give - once", param_hint="FILES")
    bad = False
    for path in files:
        result = verify_stdin() if path == "-" else verify_path(path)
        message = result.pop("_message", None)
        name = "stdin" if path == "-" else path or "''"
        for note in result.pop("_notes", []):  # on stderr: the report itself stays exactly as specified
            typer.echo(printable(f"opentrix verify: {name}: note: {note}", sys.stderr), err=True)
        if not result["ok"]:
            bad = True
        if as_json:
            # Plain ASCII (any other character escaped), as json.dumps writes it by default: the same
            # line whether a reader compares text or parsed JSON.
            typer.echo(json.dumps(result))
        else:
            from .verify import describe

            typer.echo(printable(describe(name, result, message)))
    raise typer.Exit(1 if bad else 0)


def printable(text: str, stream: TextIO | None = None) -> str:
    """``text`` as ``stream`` (stdout) can write it: a terminal or file that cannot take the suit symbols
    gets letters (``Q♦`` as ``QD``) and any other such character escaped, not a traceback."""
    encoding = getattr(stream or sys.stdout, "encoding", None) or "utf-8"
    try:
        "".encode(encoding)
    except LookupError:
        encoding = "ascii"
    try:
        text.encode(encoding)
    except UnicodeEncodeError:
        text = text.translate(str.maketrans("♠♥♦♣", "SHDC"))
        return text.encode(encoding, "backslashreplace").decode(encoding)
    return text


_BROWSER_ONLY = {"host": "--host", "port": "--port", "database": "--database", "no_browser": "--no-browser"}
_BROWSER_ONLY |= {"new": "--new", "bot_delay": "--bot-delay"}
_TERMINAL_ONLY = {"ascii_only": "--ascii", "pause": "--pause"}


def _refuse_options_of_the_other_table(ctx: typer.Context, terminal: bool) -> None:
    """An option given for the other kind of table is a mistake to say, not to ignore."""

    def typed(name: str) -> bool:  # by name: Typer may bring its own copy of Click and its enum
        source = ctx.get_parameter_source(name)
        return source is not None and source.name == "COMMANDLINE"

    if not terminal and typed("save"):
        raise typer.BadParameter("the browser table keeps its matches itself; --save is for --terminal")
    others = _BROWSER_ONLY if terminal else _TERMINAL_ONLY
    given = [flag for name, flag in others.items() if typed(name)]
    if given:
        table = "the browser table, not --terminal" if terminal else "--terminal"
        raise typer.BadParameter(f"{', '.join(given)} {'is' if len(given) == 1 else 'are'} for {table}")


@app.command()
def play(
    ctx: typer.Context,
    terminal: Annotated[bool, typer.Option("--terminal", help="play in this terminal instead of the browser")] = False,
    rules: Annotated[
        str | None,
        typer.Option(help="rules preset: classic (default), wikipedia, denexa, online, complex"),
    ] = None,
    bots: Annotated[
        str | None, typer.Option(help="levels of the three opponents, e.g. hard,medium,easy (default: medium)")
    ] = None,
    seed: Annotated[int | None, typer.Option(help="seed for the deals (default: random)", min=0, max=MAX_SEED)] = None,
    save: Annotated[
        Path | None,
        typer.Option(help="terminal: write the match as opentrix-record/1 as it goes; an unfinished one is taken up"),
    ] = None,
    host: Annotated[str, typer.Option(help="address for the local web server")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port for the local web server (0: any free port)", min=0, max=65535)] = 0,
    database: Annotated[str | None, typer.Option(help="SQLite file or postgresql:// URL")] = None,
    no_browser: Annotated[bool, typer.Option("--no-browser", help="do not open a browser")] = False,
    new: Annotated[
        bool, typer.Option("--new", help="browser: start a new match, not the one left unfinished with these bots")
    ] = False,
    ascii_only: Annotated[
        bool, typer.Option("--ascii", help="terminal: letters instead of suit symbols (S H D C)")
    ] = False,
    pause: Annotated[float, typer.Option(help="terminal: seconds between bot plays (change with < and >)")] = 0.6,
    bot_delay: Annotated[float, typer.Option(help="browser: seconds each bot waits before it plays")] = 0.9,
) -> None:
    """Play a match against three bots: in the browser (default) or with --terminal."""
    from .rules import PRESETS

    _refuse_options_of_the_other_table(ctx, terminal)

    if rules is not None and rules not in PRESETS:
        raise typer.BadParameter(f"unknown preset {rules!r} (known: {', '.join(PRESETS)})", param_hint="--rules")
    levels = None if bots is None else [b.strip() for b in bots.split(",") if b.strip()]
    if levels is not None:
        if len(levels) == 1:
            levels *= 3
        from .bots import EXTERNAL, bot_names, make_bot

        # The browser table seats the project's own bots; the terminal also takes optional ones.
        known = bot_names() if terminal else [b for b in bot_names() if b not in EXTERNAL]
        for lv in levels:
            if lv not in known:
                raise typer.BadParameter(f"unknown bot {lv!r} (known: {', '.join(known)})", param_hint="--bots")
        if len(levels) != 3:
            raise typer.BadParameter("give one level or three, e.g. hard,medium,easy", param_hint="--bots")
        for lv in dict.fromkeys(levels):
            try:
                make_bot(lv, seed=0)  # an optional bot whose part is not installed says so now
            except ValueError as e:
                raise typer.BadParameter(str(e), param_hint="--bots") from None
    if terminal:
        tui = importlib.import_module("opentrix.tui")
        if not 0 <= pause <= 60:  # also refuses nan
            raise typer.BadParameter("the pause is 0 to 60 seconds", param_hint="--pause")
        # Not given, rules and bots are those of the unfinished match in --save, if there is one.
        tui.play_terminal(
            rules=rules, bots=levels, seed=seed, save=save, ascii=True if ascii_only else None, pause=pause
        )
    else:
        web = importlib.import_module("opentrix.server.commands")
        if not 0 <= bot_delay <= 60:  # also refuses nan
            raise typer.BadParameter("the delay is 0 to 60 seconds", param_hint="--bot-delay")
        web.play_web(
            rules=rules or "classic",
            bots=levels or ["medium"] * 3,
            seed=seed,
            host=host,
            port=port,
            database=database,
            open_browser=not no_browser,
            bot_delay=bot_delay,
            new=new,
        )


def _register_optional() -> None:
    """Commands that live with their part of the project (server, terminal, arena)."""
    for name in ("opentrix.server.commands", "opentrix.tui.commands", "opentrix.arena.commands"):
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as e:
            if e.name and name.startswith(e.name):
                continue
            raise
        module.register(app)


def main() -> None:
    _register_optional()
    app(prog_name="opentrix")


if __name__ == "__main__":
    main()
    sys.exit(0)
