"""``opentrix replay FILE`` and ``opentrix join LINK``: the terminal's commands (registered by the CLI)."""

from __future__ import annotations

import importlib
import shlex
import time
from pathlib import Path
from typing import Annotated, Any, NoReturn

import typer

PENDING_TRIES = 30  # seconds ``join`` waits for a finished match its stopped server had open (``Hub.pending``)


def register(app: typer.Typer) -> None:
    app.command("replay")(replay)
    app.command("join")(join)


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


def join(
    link: Annotated[
        str,
        typer.Argument(
            help="the table's invite link (http://host:port/t/CODE), the host's own link, or a code with --server",
            show_default=False,
        ),
    ],
    name: Annotated[str | None, typer.Option(help="your name at the table (asked for a new seat)")] = None,
    seat: Annotated[
        int | None,
        typer.Option(
            help="the seat to take, 1-4 as the table's lobby numbers them (default: the first free one)", min=1, max=4
        ),
    ] = None,
    server: Annotated[str | None, typer.Option(help="the server, when LINK is a bare code (http://host:port)")] = None,
    watch: Annotated[bool, typer.Option("--watch", help="watch without taking a seat")] = False,
    bot: Annotated[
        str | None,
        typer.Option(
            help="play the seat with a bot of yours, no screen (strong, hard, basic:mistakes=0.1, ...)",
            show_default=False,
        ),
    ] = None,
    ascii: Annotated[bool, typer.Option("--ascii", help="suit letters S H D C instead of symbols")] = False,
) -> None:
    """Sit at a table on an opentrix server, in this terminal, beside friends in their browsers.

    The seat is remembered (in your data folder): the same command again takes it back, not another.

    The server plays the bots and keeps the time and the record; the keys are those of play --terminal.

    With --bot, a bot of yours plays an open seat instead, with no screen, until the match is over.
    """
    from . import require_terminal, require_textual

    if watch and (bot is not None or seat is not None or name is not None):
        given = ", ".join(f for f, v in (("--bot", bot), ("--seat", seat), ("--name", name)) if v is not None)
        typer.echo(f"opentrix join: --watch takes no seat, so {given} cannot go with it", err=True)
        raise typer.Exit(2)
    index = None if seat is None else seat - 1  # the server counts seats from 0, as records do
    if bot is not None:
        join_with_bot(link, server, bot, name, index)
        return
    _require_join_packages()
    require_textual()
    from ..client import ClientError, find_table, table_facts, take_seat
    from .glyphs import Glyphs, ascii_wanted
    from .remote import RemoteApp, RemoteSession
    from .seats import forget_seat, keep_seat, kept_seat

    def fail(why: object) -> NoReturn:
        typer.echo(f"opentrix join: {why}", err=True)
        raise typer.Exit(1)

    try:  # all that can be checked without touching the table, before the screen opens
        where = find_table(link, server)
        facts = table_facts(where)
        taken = None if watch else kept_seat(where)
    except ClientError as e:
        fail(e)
    for _ in range(PENDING_TRIES):  # its server stopped at the final standings: the next one takes it up
        if not facts.get("pending"):
            break
        time.sleep(1)
        try:
            facts = table_facts(where)
        except ClientError as e:
            fail(e)
    if facts.get("stored"):  # a match over and put away: nothing to sit at
        went_on = _rematch_line(facts, where, taken)
        fail(f"the match at table {where.code} is over; its record stays at {where.page}{went_on}")
    if not watch and taken is None:
        if name is None:
            fail("give your name for a new seat: --name NAME (or --watch to watch)")
        if facts.get("status") != "lobby":
            fail(f"the match at table {where.code} has already started: --watch to watch it")
        refused = seat_refused(facts, index)
        if refused:
            fail(refused)
    if taken is not None:
        keep_seat(taken)  # the host's link too: the plain link printed at the end takes the seat back
    require_terminal("join")  # and only then a seat taken: a command that cannot run leaves none behind
    if not watch and taken is None:
        assert name is not None
        try:
            taken = take_seat(where, name, index)
        except ClientError as e:
            fail(e)
        keep_seat(taken)
    session = RemoteSession(where, taken)
    app = RemoteApp(session, Glyphs(ascii=ascii or ascii_wanted()))
    app.run()
    if app.failed:
        fail(app.failed)
    session = app.remote  # after a rematch, the table left is the rematch's
    where = session.where
    if session.watching and not session.token:
        typer.echo(f"left table {where.code}; watch again with: opentrix join {where.page} --watch")
        return
    if session.token and session.state.seat is None and session.state.epoch is not None:
        forget_seat(where)  # the table no longer knows the token: the next join takes a new seat
        # so "back with: opentrix join LINK" would be refused (no --name): say what will work
        watching = f"watch with: opentrix join {where.page} --watch"
        if session.state.in_lobby:  # a new seat is taken in the lobby only
            who = name or (taken.name if taken is not None else "")  # the name typed, not the table's "Omar (2)"
            again = f"opentrix join {where.page} --name {shlex.quote(who) if who else 'NAME'}"
            typer.echo(f"left table {where.code}; your seat was freed: sit down again with: {again}, or {watching}")
        else:
            typer.echo(f"left table {where.code}; your seat was freed: {watching}")
        return
    typer.echo(f"left table {where.code}; back with: opentrix join {where.page}")


def _require_join_packages() -> None:
    """Both packages the terminal's join needs, named at once with the one extra that brings them both
    (naming Textual's own extra first sent people round twice)."""
    missing = []
    for name, module in (("Textual", "textual"), ("the websockets package", "websockets")):
        try:
            importlib.import_module(module)
        except ImportError:
            missing.append(name)
    if missing:
        typer.echo(f"opentrix join: needs {' and '.join(missing)}: pip install 'opentrix[play]'", err=True)
        raise typer.Exit(1)


def _require_websockets(extra: str) -> None:
    """Exit with the pip command, not a traceback, when the client's WebSocket package is missing."""
    try:
        import websockets  # noqa: F401
    except ImportError:
        typer.echo(f"opentrix join: needs the websockets package: pip install 'opentrix[{extra}]'", err=True)
        raise typer.Exit(1) from None


def _rematch_line(facts: dict[str, Any], where: Any, taken: Any) -> str:
    """Where a finished match went on, for ``join`` at its stored page: your own seat there if you have
    one (the finished match's token takes it), else the command that watches it."""
    again = facts.get("rematch") or {}
    if not again:
        return ""
    page = f"{where.base}/t/{again['code']}"
    if taken is not None and taken.seat in (again.get("players") or []):
        return f"; your seat at its rematch: opentrix join '{page}#seat={taken.seat}&token={taken.token}'"
    return f"; watch its rematch with: opentrix join {page} --watch"


def seat_refused(facts: dict[str, Any], seat: int | None) -> str | None:
    """Why seat ``seat`` (counted from 0) cannot be taken, in the lobby's numbers (from 1), or None. The
    server says it too, but counting from 0 as records do: "seat 2 is taken" would be the lobby's seat 3."""
    seats = facts.get("seats") or []
    if seat is None or not 0 <= seat < len(seats) or seats[seat].get("kind") == "open":
        return None
    held = seats[seat]
    from ..client import a_bot

    who = held.get("name") if held.get("kind") == "human" else a_bot(held.get("level"))
    free = [str(i + 1) for i, s in enumerate(seats) if s.get("kind") == "open"]
    rest = f"the open seats: {', '.join(free)}" if free else "every seat is taken"
    return f"seat {seat + 1} is taken ({who}); {rest}"


def join_with_bot(link: str, server: str | None, bot: str, name: str | None, seat: int | None) -> None:
    """``opentrix join LINK --bot NAME``: a bot of yours in a seat, deciding from that seat's view only,
    played here until the match is over; its name says it is a bot."""
    import asyncio

    _require_websockets("server")
    from ..arena.spec import SpecError, parse_spec
    from ..bots import ARENA_ONLY
    from ..client import ClientError, find_table, play_with_bot, table_facts, take_seat

    def fail(why: object, code: int = 1) -> NoReturn:
        typer.echo(f"opentrix join: {why}", err=True)
        raise typer.Exit(code)

    try:
        spec = parse_spec(bot)
    except SpecError as e:
        fail(e, 2)
    if spec.name in ARENA_ONLY:
        fail(f"{spec.name} sees every hand: it plays in the arena only, never at a table", 2)
    seat_name = f"{name} (bot)" if name else f"{spec.name} bot"
    if len(seat_name) > 40:
        fail(f"--name has at most 34 characters (the seat is named '{name} (bot)', and a name has 40 at most)", 2)
    seated = None
    try:
        where = find_table(link, server)
        if where.token is not None:  # a person's seat, under a person's name: not for a bot to take over
            fail("a bot takes an open seat: give the table's invite link, not a seat's own link")
        facts = table_facts(where)
        if facts.get("status") != "lobby":
            fail(f"the match at table {where.code} has already started: a bot takes a seat in the lobby")
        refused = seat_refused(facts, seat)
        if refused:
            fail(refused)
        seated = take_seat(where, seat_name, seat)
        typer.echo(
            f"table {where.code}: {spec.label} plays seat {seated.seat + 1} as {seated.name} until the match is over"
            " (Ctrl+C stops it)"
        )
        asyncio.run(play_with_bot(where, seated.token, spec.build(f"{where.code}:{seated.seat}"), say=typer.echo))
    except ClientError as e:
        fail(e)
    except KeyboardInterrupt:
        if seated is None:
            typer.echo("stopped before taking a seat")
        else:  # the server's grace period and stand-in bot: docs/server.md
            typer.echo(
                f"stopped: seat {seated.seat + 1} is left empty; once the match is under way the table's own bot"
                " plays it after the grace period (in the lobby the host can free it)"
            )
        raise typer.Exit(130) from None
