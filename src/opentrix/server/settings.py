"""Server settings: where tables are stored and how fast bots and deals move along."""

from __future__ import annotations

import os
from dataclasses import dataclass, replace
from pathlib import Path

import platformdirs

ENV_DATABASE = "OPENTRIX_DATABASE_URL"


def default_database_path() -> Path:
    """The SQLite file in the user's data folder (created on first use)."""
    return Path(platformdirs.user_data_dir("opentrix", appauthor=False)) / "opentrix.db"


def database_url(database: str | None = None) -> str:
    """An SQLAlchemy URL from ``--database`` (a file or a URL), ``OPENTRIX_DATABASE_URL``, or the default file.

    ``postgresql://`` URLs are driven by psycopg 3; anything without ``://`` is an SQLite file path, whose
    folder must exist (ValueError otherwise); the default file's folder is created.
    """
    value = database or os.environ.get(ENV_DATABASE) or ""
    if not value:
        path = default_database_path()
        path.parent.mkdir(parents=True, exist_ok=True)
        return f"sqlite:///{path}"
    if value.startswith(("postgresql://", "postgres://")):
        return "postgresql+psycopg://" + value.split("://", 1)[1]
    if "://" in value:
        return value
    path = Path(value).expanduser()
    if not path.parent.is_dir():  # a mistyped path is said, not made: only the default folder is created
        raise ValueError(f"the folder {path.parent} for the database {value!r} does not exist; create it first")
    return f"sqlite:///{path.resolve()}"


@dataclass(frozen=True)
class Settings:
    """Knobs of a running server. Tests turn the delays down to zero."""

    database: str | None = None
    # Seconds a bot waits before it plays, so a human can follow the table.
    bot_delay: float = 0.9
    # Seconds the end-of-deal summary stays up unless every seated human asks for the next deal.
    deal_pause: float = 20.0
    # Seconds a disconnected player keeps the seat before a bot takes over (he can reclaim it later).
    grace: float = 45.0
    # Seconds the lobby's host may be gone before the start passes to a seated player who is there:
    # longer than ``grace``, as a host on a phone leaves the page to send the invite link around.
    host_grace: float = 120.0
    # Largest client message accepted, in bytes.
    max_message: int = 4096
    # Worker processes the tables' bots think in; 0: one thread in the server's process (see
    # ``server/thinking.py``). More use more cores, each worker ~30–45 MB.
    bot_processes: int = 0
    # Bot level that plays for a human who is away.
    substitute_level: str = "medium"
    # Database schema (PostgreSQL only): lets tests keep their tables apart.
    schema: str | None = None
    # Seconds a table stays held by this server without renewal: after a crash, another server takes
    # it up then.
    lease: float = 15.0
    # Server k of n behind a proxy that routes by a table code's first character: this one makes, takes
    # up and wakes only the tables of its characters (``shards.py``). None: every table.
    shard: tuple[int, int] | None = None
    # Seconds an unfinished table may stay with nobody connected before it is parked: unloaded and
    # held by no server until someone opens it again (abandoned tables would otherwise pile up).
    park_after: float = 3600.0
    # Seconds after its end that a finished match its server still had open when it stopped (killed,
    # or restarted) is taken up again when opened, so that its players can still ask for the rematch.
    rematch_after_restart: float = 600.0
    # Seconds between the hub's looks for finished tables nobody has open (let go from memory) and for
    # tables to park (at most park_after / 2 apart).
    sweep_every: float = 60.0
    # Seconds a table whose match never started may stay parked before it is deleted (an invite
    # nobody took up; 0: kept for ever). Opening it in the meantime counts as use.
    forget_lobbies: float = 30 * 86400.0
    # Limits per client address, so that one client cannot wear the server down (0 turns one off):
    # tables created a second on average (a burst of create_burst at once), unknown table codes looked
    # up a second (codes are not to be guessed), and messages a second on one WebSocket.
    create_rate: float = 1.0
    create_burst: int = 60
    miss_rate: float = 2.0
    miss_burst: int = 30
    message_rate: float = 30.0
    message_burst: int = 60
    # Records uploaded to the replay viewer a second (each costs a replay of the whole match).
    upload_rate: float = 0.5
    upload_burst: int = 10
    # WebSockets open at once from one address (a household's players and spectators fit; 0: no limit).
    sockets_per_address: int = 64
    # Seconds a new WebSocket may take to say hello before it is closed (idle sockets hold resources).
    hello_timeout: float = 30.0
    # Largest request body: a create or join request, and an uploaded record for the replay viewer.
    max_body: int = 64_000
    max_record: int = 2_000_000
    # Host names (besides IP addresses and localhost) the server answers to; None: any. A server only
    # this machine and its network reach by address (``opentrix play``) sets (): a page of another site
    # whose name comes to point at 127.0.0.1 (DNS rebinding) would otherwise be the server's own origin.
    allowed_hosts: tuple[str, ...] | None = None

    def without_limits(self) -> Settings:
        """These settings with every rate limit off (benchmarks, a trusted network)."""
        return replace(self, create_rate=0.0, miss_rate=0.0, message_rate=0.0, upload_rate=0.0, sockets_per_address=0)
