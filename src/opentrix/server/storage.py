"""Where tables live between restarts: a small interface over SQLAlchemy 2 (SQLite or PostgreSQL).

A table is stored as its rules, seed, seats and the list of action ints applied to its match (the
exact serialisation: ``Match(rules, seed=seed)``, replaying the actions and calling ``start_deal()``
whenever a deal is over rebuilds the state). Finished matches also keep their opentrix-record/1 text.
The schema is created and upgraded by Alembic migrations (``server/migrations``) when a store opens.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Engine

MIGRATIONS = Path(__file__).parent / "migrations"
MIGRATION_LOCK = 0x7472_6978  # "trix": the advisory lock servers migrating one PostgreSQL database take in turn

metadata = sa.MetaData()

PARKED = "parked"  # the holder of a table nobody has opened for a while: no server plays it

tables_t = sa.Table(
    "trix_tables",
    metadata,
    sa.Column("id", sa.String(16), primary_key=True),
    sa.Column("status", sa.String(16), nullable=False),
    sa.Column("rules", sa.Text, nullable=False),
    sa.Column("seed", sa.BigInteger, nullable=False),
    sa.Column("options", sa.Text, nullable=False),
    sa.Column("host_seat", sa.Integer, nullable=False),
    sa.Column("created_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("updated_at", sa.DateTime(timezone=True), nullable=False),
    sa.Column("finished_at", sa.DateTime(timezone=True)),
    sa.Column("totals", sa.Text),
    sa.Column("winners", sa.Text),
    sa.Column("record", sa.Text),
    # the server process that plays the table, and until when unless it renews (migration 0002)
    sa.Column("owner", sa.String(64)),
    sa.Column("lease_until", sa.DateTime(timezone=True)),
)

seats_t = sa.Table(
    "trix_seats",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("seat", sa.Integer, primary_key=True),
    sa.Column("kind", sa.String(8), nullable=False),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("bot_level", sa.String(16), nullable=False),
    sa.Column("token_hash", sa.String(64)),
)

actions_t = sa.Table(
    "trix_actions",
    metadata,
    sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), primary_key=True),
    sa.Column("idx", sa.Integer, primary_key=True),
    sa.Column("seat", sa.SmallInteger, nullable=False),
    sa.Column("action", sa.SmallInteger, nullable=False),
)

# The chat of a table whose match is on (migration 0003): kept across restarts and a table put away,
# deleted when the match ends (a chat is not part of the match, and its record does not hold it).
chat_t = sa.Table(
    "trix_chat",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("table_id", sa.String(16), sa.ForeignKey("trix_tables.id", ondelete="CASCADE"), nullable=False),
    sa.Column("seat", sa.SmallInteger, nullable=False),
    sa.Column("name", sa.String(40), nullable=False),
    sa.Column("text", sa.Text, nullable=False),
    sa.Column("at", sa.BigInteger, nullable=False),
    sa.Index("trix_chat_table", "table_id", "id"),
)
CHAT_LOADED = 50  # the last messages a table gets back when it is loaded

STATUSES = ("lobby", "playing", "finished")


@dataclass
class SeatRow:
    seat: int
    kind: str  # "open" (in the lobby, nobody yet), "human" or "bot"
    name: str
    bot_level: str
    token_hash: str | None = None


@dataclass
class TableRow:
    """One table as stored; ``actions`` are (seat, action) pairs in the order they were applied."""

    id: str
    status: str
    rules: Any  # the record's rules value: a preset name or an object of options
    seed: int
    options: dict[str, Any]
    host_seat: int
    seats: list[SeatRow]
    created_at: datetime = field(default_factory=lambda: datetime.now(UTC))
    actions: list[tuple[int, int]] = field(default_factory=list)
    chat: list[dict[str, Any]] = field(default_factory=list)  # the last messages, oldest first


@dataclass(frozen=True)
class Holding:
    """Who holds a table and how it stands, read in one look (``Storage.holding``): enough for a server
    that does not have it to tell whether it may take it up (``Hub.find``)."""

    status: str
    owner: str | None
    lease_until: datetime | None
    finished_at: datetime | None
    rematch: bool  # a finished match whose rematch was made

    def finished_open(self, now: datetime, within: float) -> bool:
        """A match that ended less than ``within`` seconds ago while a server had it open (not put away,
        ``Storage.let_go``), with no rematch yet: ``Storage.take_finished`` may take it up."""
        return (
            self.status == "finished"
            and self.owner not in (None, PARKED)
            and not self.rematch
            and self.finished_at is not None
            and self.finished_at >= now - timedelta(seconds=within)
        )

    def lease_runs(self, now: datetime) -> bool:
        return self.lease_until is not None and self.lease_until >= now

    def may_take(self, now: datetime, within: float, dead: Callable[[str], bool]) -> bool:
        """``finished_open``, and its holder is no longer running: its lease ran out, or ``dead`` says
        its process is gone (``owner.dead_here``)."""
        return self.finished_open(now, within) and (
            not self.lease_runs(now) or (self.owner is not None and dead(self.owner))
        )


@dataclass
class FinishedRow:
    """A line of the history page."""

    id: str
    rules: Any
    players: list[str]
    totals: list[int]
    winners: list[int]
    finished_at: datetime


class StorageError(RuntimeError):
    """The store refused a write (for example an action index that is already taken)."""


class LeaseLost(StorageError):
    """A write for a table that another server has taken over (this one's lease ran out): refused."""

    def __init__(self, table_ids: Iterable[str]) -> None:
        self.table_ids = sorted(set(table_ids))
        super().__init__(f"table {', '.join(self.table_ids)} is now played by another server")


def _now() -> datetime:
    return datetime.now(UTC)


def _aware(value: datetime) -> datetime:
    return value if value.tzinfo is not None else value.replace(tzinfo=UTC)


class Storage:
    """Synchronous store; the server calls it from one worker thread (see ``asyncstore``)."""

    def __init__(self, url: str, schema: str | None = None) -> None:
        self.url = url
        connect_args: dict[str, Any] = {}
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            connect_args["check_same_thread"] = False
            connect_args["timeout"] = 30
        elif schema is not None:
            connect_args["options"] = f"-csearch_path={schema}"
        if url.startswith("postgresql"):
            kwargs["pool_pre_ping"] = True
        self.engine: Engine = sa.create_engine(url, connect_args=connect_args, **kwargs)
        # The server this store writes for: when set, every write to a table first checks, in the same
        # transaction, that this server still holds it (a fence against a server whose lease ran out).
        self.owner: str | None = None
        if url.startswith("sqlite"):
            sa.event.listen(self.engine, "connect", _sqlite_pragmas)

    # -- schema -------------------------------------------------------------------------------------

    def migrate(self) -> None:
        """Bring the schema to the newest Alembic revision (creates it on an empty database)."""
        self._alembic(lambda command, cfg: command.upgrade(cfg, "head"))

    def downgrade(self, revision: str) -> None:
        """Take the schema back to ``revision`` (for developers, and the tests of the migrations)."""
        self._alembic(lambda command, cfg: command.downgrade(cfg, revision))

    def _alembic(self, run: Callable[[Any, Any], None]) -> None:
        from alembic import command
        from alembic.config import Config

        cfg = Config()
        cfg.set_main_option("script_location", str(MIGRATIONS))
        with self.engine.connect() as conn:
            sqlite = conn.dialect.name == "sqlite"
            raw: Any = conn.connection.dbapi_connection
            level = raw.isolation_level if sqlite else None
            if sqlite:
                # SQLite alters a table by copying it and dropping the old one: with the keys on, that
                # drop would cascade to every seat and action of every match. Off for the migration (it
                # can only be changed outside a transaction), checked at its end, and on again. And
                # the driver, left to itself, commits DDL at once: it is told to leave the
                # transaction to us, so a migration that fails leaves nothing half done.
                conn.exec_driver_sql("PRAGMA foreign_keys=OFF")
                conn.commit()
                raw.isolation_level = None
            try:
                with conn.begin():
                    if sqlite:
                        conn.exec_driver_sql("BEGIN")
                        orphans = len(conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall())
                    elif conn.dialect.name == "postgresql":  # two servers starting on one empty database
                        conn.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
                    cfg.attributes["connection"] = conn
                    run(command, cfg)
                    # rows a hand-edited database already had without their table are not the migration's
                    if sqlite and len(conn.exec_driver_sql("PRAGMA foreign_key_check").fetchall()) > orphans:
                        raise StorageError("the migration would leave seats or moves without their table")
            finally:
                if sqlite:
                    raw.isolation_level = level
                    conn.exec_driver_sql("PRAGMA foreign_keys=ON")
                    conn.commit()

    def check_writable(self) -> None:
        """Raise the driver's error unless this server may write here (a read-only file or role): a
        schema already up to date is migrated without writing, so the migration does not tell."""
        with self.engine.connect() as conn, conn.begin() as tx:
            conn.execute(sa.text("UPDATE alembic_version SET version_num = version_num"))  # a write, undone
            tx.rollback()

    def revision(self) -> str | None:
        with self.engine.connect() as conn:
            try:
                return conn.execute(sa.text("SELECT version_num FROM alembic_version")).scalar()
            except sa.exc.DBAPIError:
                return None

    def close(self) -> None:
        self.engine.dispose()

    # -- writing ------------------------------------------------------------------------------------

    def _fence(self, conn: sa.Connection, table_ids: Iterable[str]) -> None:
        """Refuse the transaction's writes to tables this server no longer holds (see ``owner``)."""
        if self.owner is None:
            return
        ids = set(table_ids)
        held = conn.execute(
            tables_t.update()
            .where(tables_t.c.id.in_(ids), tables_t.c.owner == self.owner)
            .values(updated_at=_now())
            .returning(tables_t.c.id)
        ).scalars()
        lost = ids - set(held)
        if lost:
            raise LeaseLost(lost)

    def create_table(self, row: TableRow, owner: str | None = None, lease: float = 0.0) -> None:
        """Store a new table, held by ``owner`` for ``lease`` seconds if given."""
        now = _now()
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.insert().values(
                    id=row.id,
                    status=row.status,
                    rules=json.dumps(row.rules),
                    seed=row.seed,
                    options=json.dumps(row.options),
                    host_seat=row.host_seat,
                    created_at=row.created_at,
                    updated_at=now,
                    owner=owner,
                    lease_until=now + timedelta(seconds=lease) if owner is not None else None,
                )
            )
            conn.execute(
                seats_t.insert(),
                [
                    {
                        "table_id": row.id,
                        "seat": s.seat,
                        "kind": s.kind,
                        "name": s.name,
                        "bot_level": s.bot_level,
                        "token_hash": s.token_hash,
                    }
                    for s in row.seats
                ],
            )

    def update_seats(self, table_id: str, seats: Iterable[SeatRow], status: str | None = None) -> None:
        """Write seats, and the table's ``status`` with them if given, in one transaction (a start
        is both: bots in the open seats, and playing)."""
        if status is not None and status not in STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            for s in seats:
                conn.execute(
                    seats_t.update()
                    .where(seats_t.c.table_id == table_id, seats_t.c.seat == s.seat)
                    .values(kind=s.kind, name=s.name, bot_level=s.bot_level, token_hash=s.token_hash)
                )
            values: dict[str, Any] = {"updated_at": _now()}
            if status is not None:
                values["status"] = status
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))

    def set_options(self, table_id: str, options: dict[str, Any]) -> None:
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            values = {"options": json.dumps(options), "updated_at": _now()}
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(**values))

    def set_status(self, table_id: str, status: str) -> None:
        if status not in STATUSES:
            raise ValueError(f"unknown table status {status!r}")
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(status=status, updated_at=_now()))

    def set_host(self, table_id: str, seat: int) -> None:
        """The seat that may start the match, when the lobby's host left it to another."""
        if not 0 <= seat <= 3:
            raise ValueError(f"no seat {seat}")
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            conn.execute(tables_t.update().where(tables_t.c.id == table_id).values(host_seat=seat, updated_at=_now()))

    def append_actions(self, rows: Sequence[tuple[str, int, int, int]]) -> None:
        """Store (table_id, idx, seat, action) rows in one transaction: all of them or none.

        Rows already stored exactly so are no error: a commit whose answer was lost (the connection
        dropped just after it) is tried again by the caller, and must not then be refused for the very
        rows it stored, or the table would take the move back and never store another."""
        if not rows:
            return
        try:
            with self.engine.begin() as conn:
                self._fence(conn, [t for t, _, _, _ in rows])
                conn.execute(
                    actions_t.insert(),
                    [{"table_id": t, "idx": i, "seat": s, "action": a} for t, i, s, a in rows],
                )
        except sa.exc.IntegrityError as e:
            if self.stored_already(rows):
                return
            raise StorageError(f"action rejected by the store: {e.orig}") from None

    def stored_already(self, rows: Sequence[tuple[str, int, int, int]]) -> bool:
        """Whether every row is in the store with the same seat and action at its index."""
        wanted = {(t, i): (s, a) for t, i, s, a in rows}
        with self.engine.connect() as conn:
            for table_id in {t for t, _, _, _ in rows}:
                found = conn.execute(
                    sa.select(actions_t.c.idx, actions_t.c.seat, actions_t.c.action).where(
                        actions_t.c.table_id == table_id,
                        actions_t.c.idx.in_([i for t, i in wanted if t == table_id]),
                    )
                )
                for idx, seat, action in found:
                    if wanted.pop((table_id, idx)) != (seat, action):
                        return False
        return not wanted

    def add_chat(self, table_id: str, message: dict[str, Any]) -> None:
        """Keep a chat message (``{"seat", "name", "text", "at"}``) until the match ends; none is kept for
        a match over (``finish`` deleted its talk) or, like every write, for a table this server lost."""
        row = {k: message[k] for k in ("seat", "name", "text", "at")}
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            status = conn.execute(sa.select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()
            if status in ("lobby", "playing"):
                conn.execute(chat_t.insert().values(table_id=table_id, **row))

    def finish(self, table_id: str, record: str, totals: Sequence[int], winners: Sequence[int]) -> None:
        now = _now()
        with self.engine.begin() as conn:
            self._fence(conn, [table_id])
            conn.execute(chat_t.delete().where(chat_t.c.table_id == table_id))  # the talk ends with the match
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id)
                .values(
                    status="finished",
                    record=record,
                    totals=json.dumps(list(totals)),
                    winners=json.dumps(list(winners)),
                    finished_at=now,
                    updated_at=now,
                )
            )

    # -- leases: one server process plays each table ---------------------------------------------------

    def holders(self) -> set[str]:
        """The servers holding tables in the lobby or in play."""
        with self.engine.connect() as conn:
            active = tables_t.c.status.in_(("lobby", "playing"))
            query = sa.select(tables_t.c.owner).where(active, tables_t.c.owner.is_not(None)).distinct()
            return set(conn.execute(query).scalars())

    def claim_active(
        self,
        owner: str,
        lease: float,
        here: Iterable[str] = (),
        dead: Iterable[str] = (),
        starts: str | None = None,
    ) -> list[TableRow]:
        """Take every table in the lobby or in play that no live server holds (no lease, one that ran
        out, or one held by a server known to be ``dead``) and return the active tables ``owner`` now
        holds, its own earlier ones included, except those already ``here`` (loaded by the caller, so
        not read again). Its own leases are extended by ``renew``, not here. ``starts``: only the
        codes starting with one of these characters (a server's shard, ``shards.py``).

        One UPDATE, so two servers starting together cannot both take a table."""
        now = _now()
        active = tables_t.c.status.in_(("lobby", "playing"))
        gone = [o for o in dead if o != PARKED]  # a parked table is nobody's to take until it is woken
        free = sa.or_(tables_t.c.owner.is_(None), tables_t.c.lease_until < now, tables_t.c.owner.in_(gone))
        if starts is not None:
            free = sa.and_(free, sa.func.substr(tables_t.c.id, 1, 1).in_(list(starts)))
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.update().where(active, free).values(owner=owner, lease_until=now + timedelta(seconds=lease))
            )
            loaded = set(here)
            rows = conn.execute(
                sa.select(tables_t).where(active, tables_t.c.owner == owner).order_by(tables_t.c.created_at)
            ).mappings()
            return [self._row(conn, t) for t in list(rows) if t["id"] not in loaded]

    def renew(self, owner: str, lease: float, playing: Iterable[str] = (), finished: Iterable[str] = ()) -> set[str]:
        """Extend ``owner``'s leases on its active tables, and on the ``finished`` ones it still has open
        (their players may ask for the rematch: ``take_finished``); returns which of both (the tables it
        has open) another server has taken meanwhile, as it may once a lease has run out."""
        ids, done = list(playing), list(finished)
        held = sa.or_(tables_t.c.status.in_(("lobby", "playing")), tables_t.c.id.in_(done))
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.update()
                .where(tables_t.c.owner == owner, held)
                .values(lease_until=_now() + timedelta(seconds=lease))
            )
            ids += done  # a finished one taken over (this server paused past its lease) is lost too
            if not ids:
                return set()
            taken = sa.or_(tables_t.c.owner.is_(None), tables_t.c.owner != owner)
            return set(conn.execute(sa.select(tables_t.c.id).where(tables_t.c.id.in_(ids), taken)).scalars())

    def park(self, table_ids: Iterable[str], owner: str) -> None:
        """Let go of ``owner``'s idle tables without handing them on: no server takes a parked table up
        (``claim_active`` skips it) until someone opens it (``wake``)."""
        ids = list(table_ids)
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id.in_(ids), tables_t.c.owner == owner)
                # from now on it lies unused: how long, ``forget_lobbies`` counts from here
                .values(owner=PARKED, lease_until=None, updated_at=_now())
            )

    def forget_lobbies(self, idle: float) -> int:
        """Delete the tables whose match never started, parked and untouched for ``idle`` seconds (an
        invite nobody took up, or tables made and left): kept for ever, they would only grow the store.
        Returns how many. A table someone opens is woken first (``wake`` marks it used), so it stays."""
        stale = (
            tables_t.delete()
            .where(
                tables_t.c.status == "lobby",
                tables_t.c.owner == PARKED,
                tables_t.c.updated_at < _now() - timedelta(seconds=idle),
            )
            .returning(tables_t.c.id)
        )
        with self.engine.begin() as conn:  # the tables first: one woken meanwhile is no longer matched
            ids = list(conn.execute(stale).scalars())
            for chunk in (ids[i : i + 500] for i in range(0, len(ids), 500)):
                conn.execute(actions_t.delete().where(actions_t.c.table_id.in_(chunk)))
                conn.execute(seats_t.delete().where(seats_t.c.table_id.in_(chunk)))
                conn.execute(chat_t.delete().where(chat_t.c.table_id.in_(chunk)))
        return len(ids)

    def holding(self, table_id: str) -> Holding | None:
        """Who holds a table and how it stands, in one read (None: no such table)."""
        c = tables_t.c
        query = sa.select(c.status, c.owner, c.lease_until, c.finished_at, c.options).where(c.id == table_id)
        with self.engine.connect() as conn:
            t = conn.execute(query).mappings().first()
        if t is None:
            return None
        return Holding(
            status=t["status"],
            owner=t["owner"],
            lease_until=None if t["lease_until"] is None else _aware(t["lease_until"]),
            finished_at=None if t["finished_at"] is None else _aware(t["finished_at"]),
            rematch="rematch" in json.loads(t["options"] or "{}"),  # the table's REMATCH option
        )

    def parked_local(self) -> list[TableRow]:
        """The parked tables of ``opentrix play`` (the local player's own matches), without their actions."""
        with self.engine.connect() as conn:
            rows = conn.execute(sa.select(tables_t).where(tables_t.c.owner == PARKED)).mappings()
            return [self._row(conn, t, actions=False) for t in rows if json.loads(t["options"] or "{}").get("local")]

    def wake(self, table_id: str, owner: str, lease: float) -> TableRow | None:
        """Take a parked table for ``owner`` and return it; None if it is not parked (any more)."""
        active = tables_t.c.status.in_(("lobby", "playing"))
        with self.engine.begin() as conn:
            taken = conn.execute(
                tables_t.update()
                .where(tables_t.c.id == table_id, tables_t.c.owner == PARKED, active)
                # opened again: in use, so its lobby is not forgotten as abandoned (``forget_lobbies``)
                .values(owner=owner, lease_until=_now() + timedelta(seconds=lease), updated_at=_now())
            )
            if taken.rowcount != 1:
                return None
            t = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            return None if t is None else self._row(conn, t)

    def release(self, owner: str) -> None:
        """Let go of ``owner``'s tables (a clean shutdown), so that the next server takes them at once: the
        active ones, and the finished ones it still had open, which stay marked as its (``take_finished``)."""
        active = tables_t.c.status.in_(("lobby", "playing"))
        with self.engine.begin() as conn:
            mine = tables_t.update().where(tables_t.c.owner == owner)
            conn.execute(mine.where(active).values(owner=None, lease_until=None))
            conn.execute(mine.where(~active).values(lease_until=None))

    def let_go(self, table_ids: Iterable[str], owner: str) -> None:
        """``owner`` put these finished tables away (nobody had them open): no server takes them up again;
        their pages show the stored record."""
        ids = list(table_ids)
        with self.engine.begin() as conn:
            conn.execute(
                tables_t.update()
                .where(tables_t.c.id.in_(ids), tables_t.c.owner == owner, tables_t.c.status == "finished")
                .values(owner=None, lease_until=None)
            )

    def take_finished(
        self, table_id: str, owner: str, lease: float, within: float, dead: Callable[[str], bool]
    ) -> TableRow | None:
        """Take up, for ``owner``, a match that ended less than ``within`` seconds ago and that its server
        still had open when it stopped (killed, or restarted): its players were at the final standings,
        and may still ask for the rematch. None if it is not such a match: put away (``let_go``), held by
        a server still running (a lease not run out, unless ``dead`` says its process is gone), with a
        rematch made already, or taken by another server first."""
        now = _now()
        h = self.holding(table_id)
        if h is None or h.owner == owner or not h.may_take(now, within, dead):
            return None
        gone = h.owner is not None and dead(h.owner)
        free = tables_t.c.owner == h.owner  # nobody took it meanwhile, and (unless gone) nobody renewed it
        if not gone:
            free = sa.and_(free, sa.or_(tables_t.c.lease_until.is_(None), tables_t.c.lease_until < now))
        with self.engine.begin() as conn:
            taken = conn.execute(
                tables_t.update()
                # and no rematch made meanwhile (its server was only paused): the REMATCH option's key
                .where(tables_t.c.id == table_id, tables_t.c.status == "finished", free)
                .where(sa.not_(tables_t.c.options.contains('"rematch":')))
                .values(owner=owner, lease_until=now + timedelta(seconds=lease))
            )
            if taken.rowcount != 1:
                return None
            t = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            return None if t is None else self._row(conn, t)

    # -- reading ------------------------------------------------------------------------------------

    def status(self, table_id: str) -> str | None:
        """A table's status alone (``None``: no such table), without reading its seats and actions."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables_t.c.status).where(tables_t.c.id == table_id)).scalar()

    def load_table(self, table_id: str) -> TableRow | None:
        with self.engine.connect() as conn:
            t = conn.execute(sa.select(tables_t).where(tables_t.c.id == table_id)).mappings().first()
            if t is None:
                return None
            return self._row(conn, t)

    def load_active(self) -> list[TableRow]:
        """Every table in the lobby or being played, whoever holds it (servers take theirs with ``claim_active``)."""
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_t).where(tables_t.c.status.in_(("lobby", "playing"))).order_by(tables_t.c.created_at)
            ).mappings()
            return [self._row(conn, t) for t in list(rows)]

    def _row(self, conn: sa.Connection, t: sa.RowMapping, actions: bool = True) -> TableRow:
        seats = [
            SeatRow(seat=s.seat, kind=s.kind, name=s.name, bot_level=s.bot_level, token_hash=s.token_hash)
            for s in conn.execute(sa.select(seats_t).where(seats_t.c.table_id == t["id"]).order_by(seats_t.c.seat))
        ]
        played = (
            [
                (a.seat, a.action)
                for a in conn.execute(
                    sa.select(actions_t.c.seat, actions_t.c.action)
                    .where(actions_t.c.table_id == t["id"])
                    .order_by(actions_t.c.idx)
                )
            ]
            if actions
            else []
        )
        chat = []
        if actions and t["status"] != "finished":
            last = (
                sa.select(chat_t.c.seat, chat_t.c.name, chat_t.c.text, chat_t.c.at)
                .where(chat_t.c.table_id == t["id"])
                .order_by(chat_t.c.id.desc())
                .limit(CHAT_LOADED)
            )
            chat = [dict(m) for m in conn.execute(last).mappings()][::-1]
        return TableRow(
            id=t["id"],
            status=t["status"],
            rules=json.loads(t["rules"]),
            seed=t["seed"],
            options=json.loads(t["options"]),
            host_seat=t["host_seat"],
            seats=seats,
            created_at=_aware(t["created_at"]),
            actions=played,
            chat=chat,
        )

    def list_finished(self, limit: int = 50, offset: int = 0) -> list[FinishedRow]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(tables_t.c.id, tables_t.c.rules, tables_t.c.totals, tables_t.c.winners)
                .add_columns(tables_t.c.finished_at)
                .where(tables_t.c.status == "finished")
                .order_by(tables_t.c.finished_at.desc(), tables_t.c.id)
                .limit(limit)
                .offset(offset)
            ).all()
            names: dict[str, list[str]] = {}
            ids = [r.id for r in rows]
            if ids:
                for s in conn.execute(
                    sa.select(seats_t.c.table_id, seats_t.c.seat, seats_t.c.kind, seats_t.c.name, seats_t.c.bot_level)
                    .where(seats_t.c.table_id.in_(ids))
                    .order_by(seats_t.c.table_id, seats_t.c.seat)
                ):
                    names.setdefault(s.table_id, []).append(player_name(s.kind, s.name, s.bot_level))
        return [
            FinishedRow(
                id=r.id,
                rules=json.loads(r.rules),
                players=names.get(r.id, []),
                totals=json.loads(r.totals or "[]"),
                winners=json.loads(r.winners or "[]"),
                finished_at=_aware(r.finished_at),
            )
            for r in rows
        ]

    def get_record(self, table_id: str) -> str | None:
        """The opentrix-record/1 text of a finished match (None if unknown or unfinished)."""
        with self.engine.connect() as conn:
            return conn.execute(sa.select(tables_t.c.record).where(tables_t.c.id == table_id)).scalar()


def store_reason(e: BaseException) -> str:
    """The first line of what the database driver said (no SQL, no parameters, no traceback)."""
    text = str(getattr(e, "orig", None) or e).strip()
    return text.splitlines()[0] if text else type(e).__name__


def player_name(kind: str, name: str, bot_level: str) -> str:
    """How a seat is named in records: the player's name, or ``bot:<level>``."""
    return name if kind == "human" else f"bot:{bot_level}"


def _sqlite_pragmas(dbapi_conn: Any, _record: Any) -> None:
    cur = dbapi_conn.cursor()
    cur.execute("PRAGMA journal_mode=WAL")
    cur.execute("PRAGMA synchronous=NORMAL")
    cur.execute("PRAGMA foreign_keys=ON")
    cur.close()
