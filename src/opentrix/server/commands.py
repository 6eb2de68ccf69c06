"""``opentrix serve`` (host tables for friends) and the browser side of ``opentrix play``."""

from __future__ import annotations

import asyncio
import contextlib
import errno
import importlib.util
import os
import re
import signal
import socket
import webbrowser
from collections.abc import Callable, Coroutine
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

if TYPE_CHECKING:
    from .settings import Settings
    from .tls import Tls

# What the web table needs beyond the engine: checked before anything is imported from them, so that a
# plain ``pip install -e .`` keeps ``verify`` and ``--help`` working and ``serve`` says what to install.
SERVER_MODULES = ("uvicorn", "fastapi", "sqlalchemy", "platformdirs", "alembic", "websockets")

WS_MAX_SIZE = 1 << 20  # frames above this close the socket; the app answers smaller oversized ones itself
MAX_CONNECTIONS = 10_000


class StandIn(StrEnum):
    """The level of the bot that plays for a player who is away or out of time."""

    easy = "easy"
    medium = "medium"
    hard = "hard"


class LogLevel(StrEnum):
    """Uvicorn's log levels, offered as a choice so a typo is refused before the server starts."""

    critical = "critical"
    error = "error"
    warning = "warning"
    info = "info"
    debug = "debug"
    trace = "trace"


def _uvicorn_config(  # type: ignore[no-untyped-def]
    settings: Settings,
    host: str,
    port: int,
    log_level: str,
    forwarded_allow_ips: str | None = None,
    tls: Tls | None = None,
):
    import uvicorn

    from .app import create_app
    from .wsflow import BackPressuredWebSockets

    return uvicorn.Config(
        create_app(settings),
        host=host,
        port=port,
        log_level=log_level,
        ws=BackPressuredWebSockets,  # a client that sends pings and reads nothing cannot grow the server
        ws_max_size=WS_MAX_SIZE,
        # Updates are small (1-3 KB); compressing each one costs more CPU than the bytes are worth.
        ws_per_message_deflate=False,
        ws_ping_interval=20,
        ws_ping_timeout=20,
        timeout_graceful_shutdown=3,
        # Past this many connections at once, new requests get 503 at once instead of piling up.
        limit_concurrency=MAX_CONNECTIONS,
        # Proxies whose X-Forwarded-For names the client (limits count per client, not per proxy);
        # None: uvicorn's default, $FORWARDED_ALLOW_IPS or else 127.0.0.1 only.
        forwarded_allow_ips=forwarded_allow_ips,
        ssl_certfile=tls.certfile if tls else None,
        ssl_keyfile=tls.keyfile if tls else None,
    )


def check_tls(certfile: Path | None, keyfile: Path | None) -> Tls | None:
    """``--ssl-certfile``/``--ssl-keyfile`` checked before anything starts (``tls.check``); a file the
    server cannot use is one line and exit 1."""
    from .tls import TlsError, check

    try:
        return check(certfile, keyfile)
    except TlsError as e:
        raise _fail(str(e)) from None


def trusted_proxies(given: str | None) -> str | None:
    """``--forwarded-allow-ips``: the proxies named, and the loopback ones always (a proxy on this
    machine is trusted already; naming another must not take that away). Each an address or a
    network (``10.0.0.0/8``), or ``*`` for any; a slip is an error, not a proxy silently untrusted."""
    if given is None:
        return None
    import ipaddress

    named = [part.strip() for part in given.split(",") if part.strip()]
    if not named:
        raise typer.BadParameter("name at least one address, e.g. 10.0.0.5", param_hint="--forwarded-allow-ips")
    if "*" in named:
        return "*"
    for part in named:
        try:
            ipaddress.ip_network(part, strict=False)
        except ValueError:
            raise typer.BadParameter(
                f"{part!r} is not an address or a network (10.0.0.5, 10.0.0.0/8, ::1 or *)",
                param_hint="--forwarded-allow-ips",
            ) from None
    return ",".join(dict.fromkeys(["127.0.0.1", "::1", *named]))


def _more_open_files() -> None:
    """Raise this process's limit of open files to the most the system allows (to MAX_CONNECTIONS and
    some): at the usual 1,024, a thousand idle or half-sent connections locked everyone else out."""
    try:
        import resource
    except ImportError:  # not on this system (Windows): its own limits apply
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = MAX_CONNECTIONS + 1024 if hard == resource.RLIM_INFINITY else min(hard, MAX_CONNECTIONS + 1024)
    if soft != resource.RLIM_INFINITY and soft < want:
        with contextlib.suppress(ValueError, OSError):
            resource.setrlimit(resource.RLIMIT_NOFILE, (want, hard))


def _fail(message: str) -> typer.Exit:
    typer.echo(f"opentrix: {message}", err=True)
    return typer.Exit(1)


def require_server() -> None:
    """Exit with an install hint, not a traceback, when the server extra is not installed."""
    missing = [m for m in SERVER_MODULES if importlib.util.find_spec(m) is None]
    if missing:
        raise _fail(f"the web table needs {', '.join(missing)}: pip install 'opentrix[play]'")


def _where(url: str) -> str:
    """Where a database is, for a message: the file, or host:port/name (never the password)."""
    import sqlalchemy as sa

    u = sa.engine.make_url(url)
    if u.get_backend_name() == "sqlite":
        return u.database or "(in memory)"
    return f"{u.host or 'localhost'}{f':{u.port}' if u.port else ''}/{u.database or ''}"


def _hider(value: str) -> Callable[[str], str]:
    """What hides the password of a database URL (``user:secret@``, ``?password=secret``) in a
    message: the URL itself, or a driver's words about it. Everything between the scheme and the last
    ``@`` is user and password, so a password holding ``/``, ``@`` or a space is hidden whole."""
    secrets: list[str] = []
    scheme = re.search(r":/+", value)
    if scheme is not None:
        rest = value[scheme.end() :]
        at = rest.rfind("@")
        _user, colon, password = rest[: max(at, 0)].partition(":")
        if colon and password:
            secrets.append(password)
    secrets += [s for s in re.findall(r"[?&]password=([^&#]*)", value) if s]
    forms = sorted({f for s in secrets for f in (s, repr(s)[1:-1])}, key=len, reverse=True)

    def hide(text: str) -> str:
        for form in forms:
            text = text.replace(form, "***")
        return text

    return hide


def preflight(database: str | None, host: str, port: int) -> tuple[str, int]:
    """Check the store and the port before the server starts, so a mistake is one clear line, not a
    traceback from inside the server; returns the database URL (its schema is brought up to date) and
    the port (the one the system picked, for port 0)."""
    import sqlalchemy as sa

    from .settings import ENV_DATABASE, database_url
    from .storage import Storage, store_reason

    if database is not None and not database.strip():  # --database "": a slip, not "the default file"
        raise _fail("--database is empty: give an SQLite file or a postgresql:// URL, or leave it out for the default")
    given = database if database is not None else os.environ.get(ENV_DATABASE, "")
    hide = _hider(given)
    said = hide(repr(given))

    def fail(message: str) -> typer.Exit:
        return _fail(hide(message))

    try:
        url = database_url(database)
    except OSError as e:  # only the default data folder is ever created
        where = e.filename or "the data folder"
        raise fail(f"cannot create {where} for the tables: {e.strerror or e}; give --database") from None
    except ValueError as e:
        raise fail(str(e)) from None
    if not url.startswith(("sqlite:", "postgresql")):
        raise fail(f"tables are kept in an SQLite file or a postgresql:// database, not {said}")
    if url.split("?")[0] in ("sqlite://", "sqlite:///:memory:"):  # every table lost at the first restart
        raise fail(f"an in-memory database keeps nothing: give a file or a postgresql:// URL, not {said}")
    try:
        store = Storage(url)
        parts = sa.engine.make_url(url)
    except (sa.exc.ArgumentError, ImportError, ValueError) as e:  # ValueError: a port that is no number
        raise fail(f"not a database URL: {said} ({e})") from None
    if parts.get_backend_name() == "postgresql" and not parts.database:
        store.close()  # the driver would guess a database named after the user, and fill that one
        raise fail(f"name the database: postgresql://user@host/name (or postgresql:///name), not {said}")
    shown = _where(url)
    bound = _try_bind(host, port)  # first: a busy port must not leave a new database behind
    try:
        store.migrate()
        store.check_writable()
    except Exception as e:  # whatever the driver says: unreachable server, bad password, read-only file
        reason = store_reason(e)
        if "Can't locate revision" in reason:
            reason = f"its tables were made by a newer opentrix ({reason}); upgrade opentrix to serve them"
        raise fail(f"cannot use the database {shown}: {reason}") from None
    finally:
        store.close()
    return url, bound


def _try_bind(host: str, port: int) -> int:
    """Bind ``host:port`` once as uvicorn will (IPv4 or IPv6, as the address says) and return the port,
    the one the system picks for port 0."""
    try:
        family = socket.getaddrinfo(host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE)[0][0]
    except socket.gaierror as e:
        raise _fail(f"cannot listen on {host!r}: {e.strerror or e}; choose another --host") from None
    try:
        with socket.socket(family) as sock:  # IPv6 switched off here fails already at the socket
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as uvicorn binds: TIME_WAIT is no clash
            sock.bind((host, port))
            return int(sock.getsockname()[1])
    except OSError as e:
        if e.errno not in (errno.EADDRINUSE, errno.EACCES):  # the address is wrong, not the port
            raise _fail(f"cannot listen on {host!r}: {e.strerror or e}; choose another --host") from None
        raise _fail(f"cannot listen on {host}:{port}: {e.strerror or e}; choose another --port") from None


def lan_address() -> str | None:
    """This machine's address on its local network (the one its default route leaves by), or None.

    Connecting a UDP socket sends nothing: it only asks the system which interface it would use.
    """
    import socket

    try:
        with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as s:
            s.connect(("192.0.2.1", 9))  # TEST-NET-1: never routed anywhere real
            address = str(s.getsockname()[0])
    except OSError:
        return None
    return None if address.startswith("127.") or address == "0.0.0.0" else address


def public_base(given: str | None, host: str, port: int, scheme: str = "http") -> tuple[str | None, bool]:
    """The address friends should open (``--public-url``, or this machine's network address when the
    server listens on every interface), and whether it was given (then invite links always name it)."""
    if given is not None:
        return given.rstrip("/"), True
    if host in ("0.0.0.0", "", "::"):
        address = lan_address()
        if address is not None:
            return f"{scheme}://{address}:{port}", False
    return None, False


def check_public_url(value: str | None) -> str | None:
    if value is None:
        return None
    from urllib.parse import urlsplit

    try:
        parts = urlsplit(value)
        _ = parts.port  # a port that is not a number is a ValueError
        ok = parts.scheme in ("http", "https") and bool(parts.hostname) and parts.path in ("", "/")
        ok = ok and not parts.query and not parts.fragment and not parts.username
    except ValueError:
        ok = False
    if not ok:
        raise typer.BadParameter(
            f"give the address friends open, like http://192.168.1.20:8000 or https://trix.example.org, not {value!r}",
            param_hint="--public-url",
        )
    return value


def browser_host(host: str) -> str:
    """The address a browser on this machine opens for a server listening on ``host``."""
    if host in ("0.0.0.0", ""):
        return "127.0.0.1"
    if host == "::":
        return "[::1]"
    return f"[{host}]" if ":" in host else host


def serve(
    host: Annotated[str, typer.Option(help="address to listen on (0.0.0.0 for every interface)")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="port to listen on", min=0, max=65535)] = 8000,
    database: Annotated[
        str | None,
        typer.Option(help="SQLite file or postgresql:// URL (default: $OPENTRIX_DATABASE_URL, else the data folder)"),
    ] = None,
    bot_delay: Annotated[float, typer.Option(help="seconds a bot waits before playing")] = 0.9,
    deal_pause: Annotated[float, typer.Option(help="seconds the end-of-deal summary stays up at most")] = 20.0,
    grace: Annotated[float, typer.Option(help="seconds before a bot takes the seat of a player who left")] = 45.0,
    stand_in: Annotated[
        StandIn, typer.Option(help="level of the bot that plays for a player who is away or out of time")
    ] = StandIn.medium,
    log_level: Annotated[LogLevel, typer.Option(help="how much the server logs")] = LogLevel.info,
    lease: Annotated[
        float,
        typer.Option(help="seconds this server holds a table without renewing; after a crash others wait that long"),
    ] = 15.0,
    park_after: Annotated[
        float,
        typer.Option(help="seconds an unfinished table nobody has open stays loaded; opening it wakes it"),
    ] = 3600.0,
    shard: Annotated[
        str | None,
        typer.Option(
            help="K/N: server K (from 0) of N behind a proxy that routes by the table code's first character;"
            " this one makes and plays only the tables of its characters (see docs/server.md)",
        ),
    ] = None,
    bot_processes: Annotated[
        int,
        typer.Option(
            help="worker processes the bots think in, for machines with cores to spare (0: one thread)", min=0, max=64
        ),
    ] = 0,
    no_rate_limits: Annotated[
        bool,
        typer.Option(
            "--no-rate-limits",
            help="lift the limits on tables created, unknown codes tried, messages sent and records uploaded"
            " per client address",
        ),
    ] = False,
    forwarded_allow_ips: Annotated[
        str | None,
        typer.Option(
            help="addresses or networks of reverse proxies trusted to name the client in X-Forwarded-For,"
            " comma separated, or * (default 127.0.0.1; naming others keeps 127.0.0.1 and ::1)"
        ),
    ] = None,
    public_url: Annotated[
        str | None,
        typer.Option(
            help="the address friends open, for invite links (default with --host 0.0.0.0: this machine's"
            " network address)"
        ),
    ] = None,
    ssl_certfile: Annotated[
        Path | None,
        typer.Option(
            help="serve HTTPS and secure WebSockets with this PEM certificate (its chain after it, and the key"
            " too unless --ssl-keyfile names it)"
        ),
    ] = None,
    ssl_keyfile: Annotated[Path | None, typer.Option(help="the certificate's private key (PEM, unencrypted)")] = None,
    ssl_check_every: Annotated[
        float,
        typer.Option(
            help="seconds between looks at the certificate's files: a renewed certificate (certbot renews in"
            " place) is served from then on, without a restart",
        ),
    ] = 60.0,
) -> None:
    """Host Trix tables: friends join with the invite link; finished matches are kept for replay."""
    require_server()

    from .settings import Settings

    for value, option in ((bot_delay, "--bot-delay"), (deal_pause, "--deal-pause"), (grace, "--grace")):
        if not 0 <= value <= 86400:  # also refuses nan and inf
            raise typer.BadParameter("give a number of seconds from 0 to 86400", param_hint=option)
    if not 1 <= lease <= 3600:
        raise typer.BadParameter("the lease is 1 to 3600 seconds", param_hint="--lease")
    if not 0 < park_after < float("inf"):
        raise typer.BadParameter("give a number of seconds above 0", param_hint="--park-after")
    public_url = check_public_url(public_url)
    share = None
    if shard is not None:
        from .shards import parse_shard

        try:
            share = parse_shard(shard)
        except ValueError as e:
            raise typer.BadParameter(str(e), param_hint="--shard") from None
    forwarded_allow_ips = trusted_proxies(forwarded_allow_ips)
    if not 0.1 <= ssl_check_every <= 86400:
        raise typer.BadParameter("give a number of seconds from 0.1 to 86400", param_hint="--ssl-check-every")
    tls = check_tls(ssl_certfile, ssl_keyfile)
    first_seen = None
    if tls is not None:
        from .tls import signature

        first_seen = signature(tls)  # the files as checked: a renewal while uvicorn starts is not missed
    scheme = "https" if tls else "http"
    url, _ = preflight(database, host, port)
    settings = Settings(
        database=database,
        bot_delay=bot_delay,
        deal_pause=deal_pause,
        grace=grace,
        lease=lease,
        park_after=park_after,
        bot_processes=bot_processes,
        substitute_level=stand_in.value,
        shard=share,
    )
    if no_rate_limits:
        settings = settings.without_limits()
    typer.echo(f"opentrix: tables stored in {_where(url)}")
    if share is not None:
        from .shards import first_characters

        starts = " ".join(first_characters(share))
        typer.echo(f"opentrix: server {share[0]} of {share[1]}: plays the tables whose code starts with {starts}")
    _more_open_files()
    config = _uvicorn_config(settings, host, port, log_level.value, forwarded_allow_ips, tls)
    server = _server(config)
    _stop_cleanly(server)

    async def main() -> None:
        serving = asyncio.create_task(server.serve())
        if not await _started(server, serving):
            raise typer.Exit(1)
        bound = server.servers[0].sockets[0].getsockname()[1]  # the port the system gave, for --port 0
        base, given = public_base(public_url, host, bound, scheme)
        if base is not None:
            config.app.state.invite = {"base": base, "always": given}
        typer.echo(f"opentrix: open {scheme}://{browser_host(host)}:{bound}/ in a browser")
        if base is not None:
            typer.echo(f"opentrix: friends open {base}/ (invite links name it)")
        elif host in ("127.0.0.1", "localhost", "::1"):
            typer.echo("opentrix: only this machine can reach it; --host 0.0.0.0 lets friends on your network in")
        if tls and public_url is None:
            typer.echo(
                "opentrix: browsers check the certificate against the address they open: give it with"
                " --public-url https://NAME:PORT so that invite links name it"
            )
        if tls is None:
            await serving
            return
        from uvicorn.config import create_ssl_context

        from .tls import Renewal

        def fresh() -> Any:  # a context as uvicorn makes one from the same options, for a renewed certificate
            alpn = getattr(config.http_protocol_class, "alpn_protocols", None)
            return create_ssl_context(
                tls.certfile,
                tls.keyfile,
                None,
                config.ssl_version,
                config.ssl_cert_reqs,
                config.ssl_ca_certs,
                config.ssl_ciphers,
                alpn,
            )

        watch = Renewal(tls, config.ssl, fresh, typer.echo, ssl_check_every, seen=first_seen)
        renewal = asyncio.create_task(watch.run())
        try:
            await serving
        finally:
            renewal.cancel()

    _serve_until_stopped(main)


def _server(config: Any) -> Any:
    """A uvicorn server whose second Ctrl-C hurries the stop but does not cut it short.

    uvicorn takes a second Ctrl-C as "force quit": it stops waiting for open connections, and also
    skips the application's shutdown, where the hub stores the last actions still queued and lets go
    of its tables (another server would wait out their lease). Pressing Ctrl-C twice is what an
    impatient host does, so here the second only stops the wait for connections and says what is left
    to do; the shutdown runs (once). A third Ctrl-C quits at once, for a store that does not answer."""
    import sys

    import uvicorn

    class Server(uvicorn.Server):
        def handle_exit(self, sig: int, frame: Any) -> None:
            if sig == signal.SIGINT and self.force_exit:
                sys.stderr.write("opentrix: stopped at once; the last actions may not be stored\n")
                sys.stderr.flush()
                os._exit(130)
            super().handle_exit(sig, frame)
            if self.force_exit:
                sys.stderr.write(
                    "opentrix: storing the last actions and letting the tables go (Ctrl-C again quits at once)\n"
                )
                sys.stderr.flush()

        async def shutdown(self, sockets: Any = None) -> None:
            lifespan = self.lifespan
            real = lifespan.shutdown
            ran = False

            async def once() -> None:
                nonlocal ran
                if not ran:
                    ran = True
                    await real()

            lifespan.shutdown = once  # uvicorn's own call, if it makes it, and ours below are one
            await super().shutdown(sockets)
            await once()  # uvicorn skipped it when forced; run it all the same

    return Server(config)


async def _started(server: Any, serving: asyncio.Task[None]) -> bool:
    """Wait until uvicorn listens; False if it stopped first (it has said why in its log)."""
    while not server.started:
        if serving.done():
            with contextlib.suppress(SystemExit):
                await serving
            return False
        await asyncio.sleep(0.05)
    if server.should_exit:  # asked to stop (a signal) while it started: its sockets are closing
        await serving  # a clean stop: tables stored and let go
        raise typer.Exit(0)
    return True


def _stop_cleanly(server: Any) -> None:
    """Every way of asking the server to stop ends it the same way: its last actions stored, its tables
    let go, its bot workers ended, and the process left through its normal exit (status 0).

    Closing the terminal (SIGHUP) stops it as Ctrl-C does; uvicorn handles only SIGINT and SIGTERM, and a
    hang-up would otherwise kill it on the spot. After a graceful stop uvicorn raises every SIGTERM it
    caught (a service manager, ``docker stop``, ``kill``) again, under the handler found before it
    started: the default one would kill the process there, skipping Python's exit (the bot workers'
    semaphores then leak, with a warning). The handler set here only asks for the stop, so those pass,
    and a SIGTERM that comes before uvicorn listens is not lost; ``_serve_until_stopped`` puts the
    default back once the server is done."""

    def stop(*_: object) -> None:
        server.should_exit = True

    if hasattr(signal, "SIGHUP"):
        signal.signal(signal.SIGHUP, stop)
    signal.signal(signal.SIGTERM, stop)


def _serve_until_stopped(main: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``main`` (which serves until asked to stop); Ctrl-C is a normal stop, and from here on a
    SIGTERM kills as usual."""
    try:
        with contextlib.suppress(KeyboardInterrupt):
            asyncio.run(main())
    finally:
        signal.signal(signal.SIGTERM, signal.SIG_DFL)


def play_web(
    rules: str,
    bots: list[str],
    seed: int | None,
    host: str,
    port: int,
    database: str | None,
    open_browser: bool,
    bot_delay: float = 0.9,
    new: bool = False,
) -> None:
    """Start a local server, sit the player at seat 0 against three bots, and open the browser there.

    The match unfinished last time with the same rules and bots is taken up again, unless ``new``."""
    require_server()

    from .guard import host_name, known_host
    from .hub import NewTable
    from .settings import Settings

    url, _ = preflight(database, host, port)
    # By address or as localhost only; a name given with --host (myname.local) too.
    named = () if known_host(host, ()) or host in ("", "0.0.0.0", "::") else (host_name(host),)
    settings = Settings(database=database, bot_delay=bot_delay, allowed_hosts=named)
    config = _uvicorn_config(settings, host, port, "warning")
    server = _server(config)
    _stop_cleanly(server)

    async def main() -> None:
        serving = asyncio.create_task(server.serve())
        if not await _started(server, serving):
            raise typer.Exit(1)
        bound = server.servers[0].sockets[0].getsockname()[1]
        levels = ("medium", bots[0], bots[1], bots[2])
        spec = NewTable(name="You", preset=rules, bots=levels, seed=seed, start=True, local=True)
        hub = config.app.state.hub
        kept = None if new else await hub.resume_local(spec)
        table, token = kept or await hub.create(spec)
        link = f"http://{browser_host(host)}:{bound}/t/{table.id}#seat=0&token={token}"
        if kept is not None:
            done = sum(1 for d in table.match.summaries if d.thrown_in is None)
            typer.echo(f"opentrix: taking up your unfinished match ({done} deals played; --new starts another)")
        typer.echo(f"opentrix: your table is at {link}")
        typer.echo(f"opentrix: matches kept in {_where(url)} (finished ones under History)")
        typer.echo("opentrix: press Ctrl-C to stop the server (an unfinished match is taken up next time)")
        if open_browser:
            webbrowser.open(link)
        await serving

    _serve_until_stopped(main)


def register(app: typer.Typer) -> None:
    app.command()(serve)
