"""The table store against SQLite and against the real PostgreSQL server (a fresh schema per run)."""

from __future__ import annotations

import asyncio
import os
import random
import socket
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa

from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.server.asyncstore import AsyncStore
from opentrix.server.owner import NAME_LENGTH, dead_here, process_name
from opentrix.server.settings import database_url
from opentrix.server.storage import LeaseLost, SeatRow, Storage, StorageError, TableRow, chat_t
from opentrix.server.table import replay_actions
from test_server_kit import PG_URL, pg_schema


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def storage(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Storage]:
    if request.param == "sqlite":
        s = Storage(database_url(str(tmp_path / "store.db")))
        s.migrate()
        yield s
        s.close()
        return
    with pg_schema() as schema:
        s = Storage(database_url(PG_URL), schema=schema)
        try:
            s.migrate()
            yield s
        finally:
            s.close()


def table_row(code: str = "ABC234", status: str = "playing", seed: int = 7) -> TableRow:
    return TableRow(
        id=code,
        status=status,
        rules={"preset": "online", "kingdoms": 1},
        seed=seed,
        options={"timer": 30},
        host_seat=0,
        seats=[
            SeatRow(0, "human", "Lina", "medium", "a" * 64),
            SeatRow(1, "open", "", "easy"),
            SeatRow(2, "bot", "", "hard"),
            SeatRow(3, "bot", "", "medium"),
        ],
    )


def test_migrations_create_the_schema_and_are_idempotent(storage: Storage) -> None:
    assert storage.revision() == "0003"
    storage.migrate()
    assert storage.revision() == "0003"
    assert storage.load_active() == []


def test_a_table_round_trips(storage: Storage) -> None:
    row = table_row()
    storage.create_table(row)
    back = storage.load_table("ABC234")
    assert back is not None
    assert (back.id, back.status, back.rules, back.seed, back.options, back.host_seat) == (
        "ABC234",
        "playing",
        {"preset": "online", "kingdoms": 1},
        7,
        {"timer": 30},
        0,
    )
    assert back.seats == row.seats
    assert abs((back.created_at - row.created_at).total_seconds()) < 1
    assert storage.load_table("NOPE99") is None


def test_actions_keep_their_order_and_a_bad_batch_stores_nothing(storage: Storage) -> None:
    storage.create_table(table_row())
    storage.append_actions([("ABC234", 0, 1, 53), ("ABC234", 1, 1, 5)])
    storage.append_actions([("ABC234", 2, 2, 7)])
    with pytest.raises(StorageError):
        storage.append_actions([("ABC234", 3, 3, 9), ("ABC234", 1, 3, 9)])  # index 1 is taken
    loaded = storage.load_table("ABC234")
    assert loaded is not None
    assert loaded.actions == [(1, 53), (1, 5), (2, 7)]


def test_the_chat_is_kept_while_the_match_is_on_and_deleted_when_it_ends(storage: Storage) -> None:
    storage.create_table(table_row())
    said = [{"seat": i % 4, "name": f"P{i}", "text": f"message {i}", "at": 1_700_000_000_000 + i} for i in range(60)]
    for message in said:
        storage.add_chat("ABC234", message)
    loaded = storage.load_table("ABC234")
    assert loaded is not None and loaded.chat == said[-50:]  # the last ones, oldest first
    storage.finish("ABC234", "{}", [0, 0, 0, 0], [0])
    loaded = storage.load_table("ABC234")
    assert loaded is not None and loaded.chat == []
    storage.add_chat("ABC234", said[0])  # a message late for a match over is not kept either
    with storage.engine.connect() as conn:  # deleted, not only left unread
        assert conn.execute(sa.select(sa.func.count()).select_from(chat_t)).scalar() == 0


def test_seats_status_and_the_active_list(storage: Storage) -> None:
    storage.create_table(table_row("LOBBY2", status="lobby"))
    storage.create_table(table_row("PLAY22", status="playing"))
    storage.create_table(table_row("DONE22", status="playing"))
    storage.update_seats("LOBBY2", [SeatRow(1, "human", "Omar", "medium", "b" * 64)])
    storage.set_status("DONE22", "finished")
    assert [t.id for t in storage.load_active()] == ["LOBBY2", "PLAY22"]
    lobby = storage.load_table("LOBBY2")
    assert lobby is not None
    assert lobby.seats[1] == SeatRow(1, "human", "Omar", "medium", "b" * 64)
    with pytest.raises(ValueError):
        storage.set_status("DONE22", "paused")


def test_a_table_is_played_by_one_server_at_a_time(storage: Storage) -> None:
    """Leases: a server takes only the active tables no live server holds; a lease that runs out, or is
    released at shutdown, lets the next server take the table; its first holder then learns it lost it."""
    storage.create_table(table_row("HELD22"), owner="a", lease=60)
    storage.create_table(table_row("FREE22"))  # from before leases, or released
    storage.create_table(table_row("GONE22", status="finished"))
    assert [t.id for t in storage.claim_active("b", 60)] == ["FREE22"]
    assert [t.id for t in storage.claim_active("a", 60)] == ["HELD22"]  # its own, not b's
    assert storage.claim_active("a", 60, here=["HELD22"]) == []  # what it has loaded is not read again
    assert storage.renew("a", 60, ["HELD22"]) == set()
    assert storage.renew("a", -1, ["HELD22"]) == set()  # a's lease runs out (as if a stopped renewing)
    assert sorted(t.id for t in storage.claim_active("b", 60)) == ["FREE22", "HELD22"]
    assert storage.renew("a", 60, ["HELD22"]) == {"HELD22"}  # a must let it go
    storage.release("b")
    assert sorted(t.id for t in storage.claim_active("c", 60)) == ["FREE22", "HELD22"]


def test_a_dead_holder_on_this_machine_is_not_waited_for(storage: Storage) -> None:
    """A server whose process is gone from this machine lets its tables go at once, lease or not; a
    live holder, or one on another machine, keeps them until its lease runs out."""
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    me = process_name()
    host, machine, _, _ = me.rsplit(":", 3)
    dead = f"{host}:{machine}:{gone.pid}:abc123"
    alive = f"{host}:{machine}:{os.getppid()}:abc123"
    elsewhere = f"{host}:0123456789ab:{gone.pid}:abc123"  # the same host name on another machine
    assert dead_here(dead) and not dead_here(alive) and not dead_here(elsewhere) and not dead_here(me)
    assert not dead_here("old-style-host:0123456789ab")  # names from before PIDs were recorded
    assert not dead_here(f"{host}:4026531836:{gone.pid}:abc123")  # the first PID namespace of any host
    for code, owner in (("DEAD22", dead), ("LIVE22", alive), ("AWAY22", elsewhere)):
        storage.create_table(table_row(code), owner=owner, lease=60)
    assert storage.holders() == {dead, alive, elsewhere}
    assert storage.status("DEAD22") == "playing" and storage.status("NONE22") is None
    found = [o for o in storage.holders() if dead_here(o)]
    assert [t.id for t in storage.claim_active(me, 60, dead=found)] == ["DEAD22"]
    assert storage.holders() == {me, alive, elsewhere}


def test_a_parked_table_is_taken_by_nobody_until_it_is_woken(storage: Storage) -> None:
    storage.create_table(table_row("PARK22"), owner="a", lease=60)
    storage.create_table(table_row("KEEP22"), owner="a", lease=60)
    storage.park(["PARK22"], "b")  # only its holder can park it
    assert storage.status("PARK22") == "playing" and storage.holders() == {"a"}
    storage.park(["PARK22"], "a")
    storage.release("a")
    assert [t.id for t in storage.claim_active("c", 60)] == ["KEEP22"]  # the parked one stays parked
    storage.renew("c", -1)
    assert [t.id for t in storage.claim_active("d", 60, dead=["parked"])] == ["KEEP22"]
    woken = storage.wake("PARK22", "d", 60)
    assert woken is not None and woken.id == "PARK22" and woken.seats[0].name == "Lina"
    assert storage.wake("PARK22", "e", 60) is None  # once: the next one finds it held
    assert sorted(t.id for t in storage.claim_active("d", 60)) == ["KEEP22", "PARK22"]
    assert storage.wake("NONE22", "d", 60) is None and storage.parked_local() == []


def test_a_match_over_when_its_server_stopped_is_taken_up_once_for_its_rematch(storage: Storage) -> None:
    """A finished match its server still had open when it stopped (killed: the holder is dead or its
    lease ran out; or restarted cleanly) is taken up once by the next server, so the players at the
    final standings can still ask for the rematch; not one put away, nor one with a rematch, nor an old one."""
    alive, gone = (lambda o: False), (lambda o: o == "a")
    storage.create_table(table_row("DONE22"), owner="a", lease=60)
    storage.finish("DONE22", "{}", [0, 0, 0, 0], [0])
    assert storage.take_finished("DONE22", "b", 60, 600, alive) is None  # a's lease runs: a still has it open
    taken = storage.take_finished("DONE22", "b", 60, 600, gone)
    assert taken is not None and taken.status == "finished" and taken.seats[0].name == "Lina"
    assert storage.take_finished("DONE22", "c", 60, 600, gone) is None  # b has it now
    assert storage.renew("a", 60, [], ["DONE22"]) == {"DONE22"}  # a, back from a pause, must let it go
    held = storage.holding("DONE22")
    assert held is not None and held.owner == "b" and held.status == "finished" and not held.rematch
    assert storage.renew("b", -1, finished=["DONE22"]) == set()  # b stopped renewing: its lease runs out
    assert storage.take_finished("DONE22", "c", 60, 600, alive) is not None
    storage.let_go(["DONE22"], "c")  # nobody had it open: put away for good
    assert storage.take_finished("DONE22", "d", 60, 600, alive) is None
    storage.create_table(table_row("SHUT22"), owner="e", lease=60)
    storage.finish("SHUT22", "{}", [0, 0, 0, 0], [0])
    storage.renew("e", 60, finished=["SHUT22"])
    assert storage.take_finished("SHUT22", "f", 60, 0, alive) is None  # ended longer ago than 0 s
    storage.release("e")  # a clean stop with it open at the final standings
    assert storage.take_finished("SHUT22", "f", 60, 600, alive) is not None
    storage.create_table(table_row("MADE22"), owner="g", lease=-1)
    storage.finish("MADE22", "{}", [0, 0, 0, 0], [0])
    storage.set_options("MADE22", {"rematch": {"code": "NEXT22", "seat": 0, "players": [0]}})
    assert storage.take_finished("MADE22", "h", 60, 600, alive) is None  # its page says where to go
    storage.create_table(table_row("PLAY22"), owner="g", lease=-1)
    assert storage.take_finished("PLAY22", "h", 60, 600, alive) is None  # not over: claim_active's
    assert storage.take_finished("NONE22", "h", 60, 600, alive) is None


def test_lobbies_parked_untouched_for_long_are_forgotten_and_nothing_else(storage: Storage) -> None:
    """An invite nobody took up is deleted with its seats once parked and untouched for ``idle``
    seconds; a started match, a lobby still loaded by a server, a recent one, and one woken since are
    kept."""
    from datetime import UTC, datetime, timedelta

    from opentrix.server.storage import actions_t, seats_t, tables_t

    for code, status in (("OLDL22", "lobby"), ("NEWL22", "lobby"), ("PLAY22", "playing"), ("HELD22", "lobby")):
        storage.create_table(table_row(code, status), owner="a", lease=60)
    storage.create_table(table_row("WOKE22", "lobby"), owner="a", lease=60)
    storage.append_actions([("PLAY22", 0, 0, 5)])
    storage.park(["OLDL22", "NEWL22", "PLAY22", "WOKE22"], "a")
    month_ago = datetime.now(UTC) - timedelta(days=31)
    with storage.engine.begin() as conn:
        conn.execute(
            tables_t.update()
            .where(tables_t.c.id.in_(["OLDL22", "PLAY22", "HELD22", "WOKE22"]))
            .values(updated_at=month_ago)
        )
    assert storage.wake("WOKE22", "b", 60) is not None  # opened again: in use
    storage.park(["WOKE22"], "b")
    assert storage.forget_lobbies(30 * 86400) == 1
    assert storage.status("OLDL22") is None and storage.load_table("OLDL22") is None
    with storage.engine.connect() as conn:
        assert conn.execute(sa.select(seats_t).where(seats_t.c.table_id == "OLDL22")).first() is None
        assert conn.execute(sa.select(actions_t).where(actions_t.c.table_id == "PLAY22")).first() is not None
    for code in ("NEWL22", "PLAY22", "HELD22", "WOKE22"):
        kept = storage.load_table(code)
        assert kept is not None and len(kept.seats) == 4, code
    assert storage.forget_lobbies(30 * 86400) == 0
    storage.park(["HELD22"], "a")  # loaded until now (a tab open a month, nothing written): unused from now
    assert storage.forget_lobbies(30 * 86400) == 0 and storage.status("HELD22") == "lobby"


def test_a_long_host_name_still_fits_the_owner_column(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """PostgreSQL refuses an owner longer than the column (SQLite would not notice)."""
    monkeypatch.setattr(socket, "gethostname", lambda: "ip-172-31-22-123.eu-west-1.compute.internal")
    monkeypatch.setattr(os, "getpid", lambda: 4_194_304)  # the largest PID Linux hands out
    name = process_name()
    assert len(name) <= NAME_LENGTH and name.startswith("ip-172-31-22-123.eu-")
    storage.create_table(table_row("LONG22"), owner=name, lease=60)
    assert storage.holders() == {name}


def test_a_server_that_lost_a_table_cannot_write_to_it(storage: Storage) -> None:
    """The fence: once another server has taken a table over, the old holder's writes are refused in the
    same transaction, so the new holder never finds an action index taken under it."""
    storage.owner = "a"
    storage.create_table(table_row("FENCE2"), owner="a", lease=60)
    storage.append_actions([("FENCE2", 0, 1, 53)])
    storage.renew("a", -1)  # a stops renewing; b takes the table
    assert [t.id for t in storage.claim_active("b", 60)] == ["FENCE2"]
    for write in (
        lambda: storage.append_actions([("FENCE2", 1, 1, 5)]),
        lambda: storage.update_seats("FENCE2", [SeatRow(1, "human", "Omar", "medium")]),
        lambda: storage.set_status("FENCE2", "finished"),
        lambda: storage.finish("FENCE2", "{}", [0, 0, 0, 0], [0]),
        lambda: storage.add_chat("FENCE2", {"seat": 0, "name": "Lina", "text": "late", "at": 1}),
    ):
        with pytest.raises(LeaseLost, match="FENCE2 is now played by another server"):
            write()
    storage.owner = "b"
    storage.append_actions([("FENCE2", 1, 1, 5)])
    loaded = storage.load_table("FENCE2")
    assert loaded is not None and loaded.actions == [(1, 53), (1, 5)] and loaded.status == "playing"


def test_finished_matches_are_listed_with_their_record(storage: Storage) -> None:
    storage.create_table(table_row("OLD222"))
    storage.create_table(table_row("NEW222"))
    storage.finish("OLD222", '{"format":"opentrix-record/1"}', [10, -10, 0, 0], [0])
    storage.finish("NEW222", '{"format":"opentrix-record/1","rules":"online"}', [0, 0, 5, -5], [2])
    rows = storage.list_finished()
    assert [r.id for r in rows] == ["NEW222", "OLD222"]
    assert rows[0].players == ["Lina", "bot:easy", "bot:hard", "bot:medium"]
    assert rows[0].totals == [0, 0, 5, -5] and rows[0].winners == [2]
    assert storage.get_record("NEW222") == '{"format":"opentrix-record/1","rules":"online"}'
    assert storage.get_record("ABC999") is None
    assert storage.load_active() == []
    assert [r.id for r in storage.list_finished(limit=1, offset=1)] == ["OLD222"]


def test_stored_actions_rebuild_the_match_exactly(storage: Storage) -> None:
    """The exact serialisation: seed + actions (+ start_deal between deals) gives the same state."""
    rules = Rules.preset("online", kingdoms=1)
    storage.create_table(table_row("REPLAY", seed=11))
    match = Match(rules, seed=11)
    rng = random.Random(3)
    rows = []
    while not match.is_over:
        if match.phase == Phase.DEAL_OVER:
            match.start_deal()
            continue
        seat = match.turn
        assert seat is not None
        action = rng.choice(match.legal_actions())
        match.apply(action, seat)
        rows.append(("REPLAY", len(match.history) - 1, seat, action))
        if len(rows) == 40:  # in several transactions, as the server writes them
            storage.append_actions(rows)
            rows = []
    storage.append_actions(rows)
    loaded = storage.load_table("REPLAY")
    assert loaded is not None
    again = replay_actions(Rules.from_json(loaded.rules), loaded.seed, loaded.actions)
    assert again.history == match.history
    assert again.totals == match.totals
    assert [d.dealt for d in again.deals] == [d.dealt for d in match.deals]
    assert again.is_over


def test_group_commit_stores_every_concurrent_append(storage: Storage) -> None:
    for i in range(5):
        storage.create_table(table_row(f"GROUP{i}"))

    async def main() -> None:
        store = AsyncStore(storage)
        try:
            await asyncio.gather(*(store.append(f"GROUP{t}", i, i % 4, i) for t in range(5) for i in range(30)))
            # A duplicate fails alone; the others in its batch are kept.
            results = await asyncio.gather(
                store.append("GROUP0", 5, 0, 1), store.append("GROUP1", 30, 0, 2), return_exceptions=True
            )
            assert isinstance(results[0], StorageError) and results[1] is None
        finally:
            store._executor.shutdown(wait=True)

    asyncio.run(main())
    for t in range(5):
        loaded = storage.load_table(f"GROUP{t}")
        assert loaded is not None
        expected = [(i % 4, i) for i in range(30)] + ([(0, 2)] if t == 1 else [])
        assert loaded.actions == expected


def test_database_urls(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("OPENTRIX_DATABASE_URL", raising=False)
    assert database_url(str(tmp_path / "x.db")) == f"sqlite:///{tmp_path / 'x.db'}"
    assert database_url("postgresql://u@h/db") == "postgresql+psycopg://u@h/db"
    monkeypatch.setenv("OPENTRIX_DATABASE_URL", str(tmp_path / "env.db"))
    assert database_url(None) == f"sqlite:///{tmp_path / 'env.db'}"
    monkeypatch.delenv("OPENTRIX_DATABASE_URL")
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert database_url(None).startswith("sqlite:///")
    assert database_url(None).endswith("opentrix.db")


def test_a_store_that_fails_tells_a_whole_batch_at_once(storage: Storage, monkeypatch: pytest.MonkeyPatch) -> None:
    """A store locked past its timeout fails every row alike: trying them one by one made each wait the
    timeout again (a minute of silence at the table), so the batch is tried once more, then all are
    told, each waiting table with an error of its own; a failure that passes is not told at all."""
    import sqlalchemy as sa

    calls: list[object] = []
    real = storage.append_actions

    def locked(rows: object) -> None:
        calls.append(rows)
        if len(calls) <= failures:
            raise sa.exc.OperationalError("INSERT", {}, Exception("database is locked"))
        real(rows)  # type: ignore[arg-type]

    monkeypatch.setattr(storage, "append_actions", locked)

    async def main() -> list[object]:
        store = AsyncStore(storage)
        try:
            return await asyncio.gather(*(store.append("LOCKED", i, 0, i) for i in range(3)), return_exceptions=True)
        finally:
            store._executor.shutdown(wait=True)

    storage.create_table(table_row("LOCKED"))
    failures = 9
    results = asyncio.run(main())
    assert len(calls) == 2  # the batch, once more, then no row by row
    assert all(isinstance(r, StorageError) and "locked" in str(r) for r in results)
    assert len({id(r) for r in results}) == 3
    calls.clear()
    failures = 1  # a moment's lock: the second try stores the whole batch
    assert asyncio.run(main()) == [None, None, None] and len(calls) == 2
    loaded = storage.load_table("LOCKED")
    assert loaded is not None and loaded.actions == [(0, 0), (0, 1), (0, 2)]


def test_a_commit_whose_answer_was_lost_is_not_refused_when_tried_again(
    storage: Storage, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection drops just after a COMMIT: the rows are stored but the store says it failed. The
    batch tried again must pass (the same rows are there), or the table would take the move back and
    refuse every later one at an index already taken; a different move at that index is still refused."""
    import sqlalchemy as sa

    real = storage.append_actions
    lost: list[object] = []

    def commits_then_fails(rows: object) -> None:
        real(rows)  # type: ignore[arg-type]
        if not lost:
            lost.append(rows)
            raise sa.exc.OperationalError("COMMIT", {}, Exception("server closed the connection unexpectedly"))

    storage.create_table(table_row("LOSTAN"))
    monkeypatch.setattr(storage, "append_actions", commits_then_fails)

    async def main() -> list[object]:
        store = AsyncStore(storage)
        try:
            moves = (store.append("LOSTAN", i, 1, 10 + i) for i in range(3))
            return await asyncio.gather(*moves, return_exceptions=True)
        finally:
            store._executor.shutdown(wait=True)

    assert asyncio.run(main()) == [None, None, None] and lost
    monkeypatch.undo()
    storage.append_actions([("LOSTAN", 1, 1, 11), ("LOSTAN", 2, 1, 12)])  # stored just so: no error
    with pytest.raises(StorageError, match="action rejected by the store"):
        storage.append_actions([("LOSTAN", 2, 1, 12), ("LOSTAN", 3, 2, 5)])  # one row new: all or none
    with pytest.raises(StorageError, match="action rejected by the store"):
        storage.append_actions([("LOSTAN", 1, 3, 11)])  # another seat's move at a taken index
    loaded = storage.load_table("LOSTAN")
    assert loaded is not None and loaded.actions == [(1, 10), (1, 11), (1, 12)]


def test_a_migration_that_rebuilds_the_tables_table_keeps_every_seat_and_move(storage: Storage) -> None:
    """SQLite alters a table by copying it and dropping the old one (0002's downgrade does): the drop
    must not cascade to the seats and moves of the matches stored."""
    storage.create_table(table_row())
    storage.append_actions([("ABC234", 0, 1, 53), ("ABC234", 1, 1, 5)])
    storage.downgrade("0001")
    assert storage.revision() == "0001"
    storage.migrate()
    back = storage.load_table("ABC234")
    assert back is not None and len(back.seats) == 4 and back.actions == [(1, 53), (1, 5)]
    with pytest.raises(StorageError):  # the keys are on again for the server's writes
        storage.append_actions([("NOPE99", 0, 0, 1)])


@pytest.mark.postgres
def test_servers_starting_together_on_an_empty_database_migrate_one_at_a_time() -> None:
    """Without the advisory lock, two CREATE TABLEs race and one server fails to start."""
    import threading

    errors: list[BaseException] = []

    def start(s: Storage) -> None:
        try:
            s.migrate()
        except BaseException as e:  # reported below
            errors.append(e)

    with pg_schema() as schema:
        stores = [Storage(database_url(PG_URL), schema=schema) for _ in range(4)]
        try:
            threads = [threading.Thread(target=start, args=(s,)) for s in stores]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            assert errors == [] and {s.revision() for s in stores} == {"0003"}
        finally:
            for s in stores:
                s.close()


def test_a_migration_that_fails_leaves_the_schema_as_it_was(storage: Storage) -> None:
    """SQLite's driver commits DDL at once unless told otherwise: a migration failing half-way left its
    work behind (Alembic's scratch table), and every later start then failed on it."""

    def half_done(command: object, cfg: Any) -> None:
        cfg.attributes["connection"].exec_driver_sql("CREATE TABLE half_done (x INTEGER)")
        raise RuntimeError("the migration fails here")

    with pytest.raises(RuntimeError, match="fails here"):
        storage._alembic(half_done)
    assert "half_done" not in sa.inspect(storage.engine).get_table_names()
    storage.migrate()  # and the next start goes through


def test_seats_left_without_their_table_by_hand_do_not_stop_the_server(tmp_path: Path) -> None:
    """Deleting a table's row in the sqlite3 shell (keys off there) leaves its seats: the start-up
    migration, with nothing to do, must not refuse the database for them."""
    import sqlite3

    path = tmp_path / "store.db"
    s = Storage(database_url(str(path)))
    s.migrate()
    s.create_table(table_row())
    s.close()
    with sqlite3.connect(path) as db:
        db.execute("DELETE FROM trix_tables")
    s = Storage(database_url(str(path)))
    s.migrate()
    assert s.load_table("ABC234") is None
    s.close()
