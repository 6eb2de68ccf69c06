"""All the tables of one server: creating them, finding them, and picking them up again after a restart."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
import logging
import secrets
import time
import unicodedata
from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, TypeVar

import sqlalchemy as sa

from .._brief import brief
from ..bots import EXTERNAL, bot_names
from ..rules import PRESETS, Rules, RulesError
from .asyncstore import AsyncStore
from .owner import dead_here, process_name
from .protocol import CHAT_LENGTH, BadMessage
from .settings import Settings, database_url
from .shards import CODE_ALPHABET, first_characters, owns
from .storage import PARKED, SeatRow, Storage, TableRow, store_reason
from .table import HEIRS, Table, TableError, new_token, rules_for, token_hash
from .thinking import thinkers_for

CODE_LENGTH = 6
MAX_TIMER = 600
# A drawn seed fixes every hand of the match, and a player knows his own 13 cards: with as many seeds as
# the store's signed 64-bit column holds, finding the seed from them is out of reach (2**48 was not).
SEED_BITS = 63
FORGET_EVERY = 3600.0  # seconds between looks for lobbies left so long they are forgotten
log = logging.getLogger("opentrix.server")

T = TypeVar("T")


def table_levels() -> list[str]:
    """Bot levels a table may seat (optional external bots are for the arena)."""
    return [b for b in bot_names() if b not in EXTERNAL]


@dataclass
class NewTable:
    """What a host asks for when creating a table."""

    name: str = "Host"
    preset: str = "classic"
    doubling: bool | None = None
    partnership: bool | None = None
    complex: bool | None = None
    kingdoms: int | None = None
    timer: int = 0
    hints: bool = False  # every player may ask for a hint (at a table of one player and bots, always)
    bots: tuple[str, str, str, str] = ("medium", "medium", "medium", "medium")
    host_seat: int = 0
    seed: int | None = None
    start: bool = False  # fill the empty seats with bots and start at once (``opentrix play``)
    local: bool = False  # made by ``opentrix play``: the next ``opentrix play`` may take it up again

    def check(self) -> None:
        if self.preset not in PRESETS:
            raise TableError(f"unknown rules preset {brief(self.preset)} (known: {', '.join(PRESETS)})")
        if self.kingdoms not in (None, 1, 4):
            raise TableError("kingdoms must be 1 (one kingdom) or 4 (a full match)")
        if not 0 <= self.timer <= MAX_TIMER:
            raise TableError(f"the move timer must be 0 (none) to {MAX_TIMER} seconds")
        if not 0 <= self.host_seat <= 3:
            raise TableError("the host's seat must be 0 to 3")
        levels = table_levels()
        for level in self.bots:
            if level not in levels:
                raise TableError(f"unknown bot level {brief(level)} (known: {', '.join(levels)})")
        clean_name(self.name, own=self.local)

    def rules(self) -> Rules:
        """The table's rules: its preset with the options asked for (checked, as ``check`` does the rest)."""
        self.check()
        try:
            return rules_for(
                self.preset,
                doubling=self.doubling,
                partnership=self.partnership,
                complex=self.complex,
                kingdoms=self.kingdoms,
            )
        except RulesError as e:
            raise TableError(str(e)) from None


def storable_code(code: str) -> bool:
    """Whether a code from an address could name a stored table: letters and digits. Anything else is no
    table and is not looked up (PostgreSQL refuses a NUL in a query, and that made a 500)."""
    return 0 < len(code) <= 32 and code.isascii() and code.isalnum()


# Characters that show nothing though they are not format characters: the Hangul fillers (letters
# by category), the combining grapheme joiner and the Khmer inherent vowels (marks), the Mongolian
# variation selectors. Like format characters, they let "Omar" and "Omar\u034f" sit side by side as
# two players, or a name look empty.
_BLANK_MARKS = frozenset("\u034f\u115f\u1160\u17b4\u17b5\u180b\u180c\u180d\u180f\u3164\uffa0")
_SHOWS_AS_SPACE = "\u2800"  # the Braille blank, a symbol by category: white space to the eye


def _visible(name: str) -> str:
    """``name`` without characters that show nothing: format characters (Unicode category Cf: zero-width
    spaces and joiners, the BOM, bidi controls such as U+202E, tag characters), fillers and variation
    selectors that change nothing where they stand. They let a name pass for another, look empty, or
    turn the text after it around on every page that shows it. A zero-width joiner between two emoji
    stays: it makes them one, visibly (a family, a flag, a person of a trade), and so does a variation
    selector after a symbol (❤️) or an ideograph, which picks its look."""
    out: list[str] = []
    for c, after in itertools.pairwise(name.replace(_SHOWS_AS_SPACE, " ") + " "):
        joins_emoji = c == "\u200d" and bool(out) and _emoji_end(out[-1]) and unicodedata.category(after) == "So"
        # Persian, Urdu and Kurdish names need the zero-width non-joiner (and joiner) between letters
        # to take their right shapes: there they are part of the name, not a trick.
        shapes = c in "\u200c\u200d" and bool(out) and _joining(out[-1]) and _joining(after)
        if _selector(c):
            if out and _selectable(out[-1], c):
                out.append(c)
        elif c in _BLANK_MARKS:
            continue
        elif unicodedata.category(c) != "Cf" or joins_emoji or shapes:
            out.append(c)
    return "".join(out)


def _selector(c: str) -> bool:
    return "\ufe00" <= c <= "\ufe0f" or "\U000e0100" <= c <= "\U000e01ef"


def _selectable(before: str, selector: str) -> bool:
    """Whether a variation selector after ``before`` changes how it looks: the text and emoji
    selectors after a symbol or a keycap's digit, an ideographic one after a CJK ideograph."""
    if selector in "\ufe0e\ufe0f":
        return unicodedata.category(before) == "So" or before in "0123456789#*©®‼⁉™ℹ↔↕↖↗↘↙↩↪⌚⌛"
    return "\u3400" <= before <= "\u9fff" or "\U00020000" <= before <= "\U0003ffff"


def _joining(c: str) -> bool:
    """A letter of the Arabic script, whose shapes the (non-)joiner changes; between Latin letters it
    changes nothing visible, and would let "b\u200dot:" pass for "bot:"."""
    return c.isalpha() and ("\u0600" <= c <= "\u08ff" or "\ufb50" <= c <= "\ufdff" or "\ufe70" <= c <= "\ufeff")


def _emoji_end(c: str) -> bool:
    """Whether ``c`` can end an emoji: a symbol, the emoji presentation selector or a skin tone."""
    return unicodedata.category(c) == "So" or c == "\ufe0f" or "\U0001f3fb" <= c <= "\U0001f3ff"


RESERVED_NAMES = ("you", "أنت", "انت", "إنت")  # with and without the hamza, as people type it


def clean_name(name: str, *, own: bool = False) -> str:
    """A player's name as stored and shown, or TableError saying what is wrong with it. ``own``: the
    table of ``opentrix play``, where the one person at it is "You" (nobody else sits there to misread it)."""
    visible = _visible(name)
    if not visible.strip() and name.strip():  # something was typed, and none of it shows
        invisible = "a name needs a visible character (invisible ones, such as zero-width spaces, are left out)"
        raise TableError(invisible, "name_invisible")
    name = " ".join(visible.split())
    if not name or len(name) > 40:
        raise TableError("a name has 1 to 40 characters", "name_length")
    # Control characters and lone surrogates (JSON's "\u0000", "\ud800") cannot be stored: PostgreSQL
    # refuses NUL and no database encodes a surrogate, so they made a 500 instead of a message.
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in name):
        raise TableError("a name cannot contain control characters", "name_control")
    # Every screen shows a player's own seat as "You" ("أنت" in Arabic): another player so named would
    # be taken for oneself.
    folded = unicodedata.normalize("NFKC", name).casefold()  # "Ｙou", "Bot：hard" (full-width) too
    if not own and folded in RESERVED_NAMES:
        raise TableError(f"{name!r} is how each player's own seat is shown; choose another name", "name_you", name=name)
    # Records name a bot seat "bot:<level>" (``player_name``): a person so named would pass for a bot there.
    if folded[:4] == "bot:":
        raise TableError(
            "a player's name cannot begin with 'bot:' (that is how bots are named in the records)", "name_bot"
        )
    return name


def clean_chat(text: object) -> str:
    """A chat message as shown to the table (invisible characters out, runs of white space one space),
    or BadMessage saying what is wrong with it."""
    if not isinstance(text, str):
        raise BadMessage('a chat message is text: {"type": "chat", "text": "..."}')
    text = " ".join(_visible(text).split())
    if not text:
        raise BadMessage("a chat message needs something to say")
    if len(text) > CHAT_LENGTH:
        raise BadMessage(f"a chat message has at most {CHAT_LENGTH} characters, not {len(text)}")
    if any(unicodedata.category(c) in ("Cc", "Cs") for c in text):
        raise BadMessage("a chat message cannot contain control characters")
    return text


class Hub:
    """The server's tables, keyed by their invite code."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.storage = Storage(database_url(settings.database), schema=settings.schema)
        self.store = AsyncStore(self.storage)
        self.tables: dict[str, Table] = {}
        self.thinkers = thinkers_for(settings.bot_processes)  # where the tables' bots think
        self.epoch = secrets.token_hex(4)  # this server's part of each table's epoch (``next_epoch``)
        self._loads = itertools.count(1)
        self._sweeper: asyncio.Task[None] | None = None
        self._forgot_at = -float("inf")  # when abandoned lobbies were last looked for
        self._leaser: asyncio.Task[None] | None = None
        # The name this process holds its tables under in the store: its own, never shared by another
        # live server (a host name and a port are not unique: two addresses, two containers, a restart
        # while the old process still shuts down). Every write is fenced by it (``Storage.owner``).
        self.owner = process_name()
        self.storage.owner = self.owner
        self._broken: set[str] = set()  # tables whose stored match could not be loaded
        self._parking = asyncio.Lock()  # parking and waking tables, one at a time

    def next_epoch(self) -> str:
        """A table load's epoch: new at every server start, and at every load within one (a table
        parked and woken, or put away and opened), so its event numbers are never taken for another's."""
        return f"{self.epoch}{next(self._loads):x}"

    async def startup(self) -> None:
        """Migrate the schema, then take up every table in the lobby or in play that no other server holds."""
        await self.store.run(self.storage.migrate)
        await asyncio.to_thread(self.thinkers.warm_up)  # worker processes start before the first table
        await self._adopt()
        self._sweeper = asyncio.create_task(self._sweep_forever())
        self._leaser = asyncio.create_task(self._lease_forever())

    async def shutdown(self) -> None:
        for task in (self._sweeper, self._leaser):
            if task is not None:
                task.cancel()
        await asyncio.gather(*(t.stop() for t in self.tables.values()), return_exceptions=True)
        self.thinkers.close()
        await self.store.drain()  # the last actions are stored before the tables are let go
        with contextlib.suppress(Exception):  # a store that is gone cannot be told; the leases run out
            await self.store.run(self.storage.release, self.owner)
        await self.store.close()

    async def _adopt(self) -> int:
        """Claim the active tables nobody holds and start playing those not already here."""
        async with self._parking:  # a table being parked is still ours in the store: not taken back
            return await self._adopt_now()

    async def _adopt_now(self) -> int:
        n = 0
        here = [*self.tables, *self._broken]
        # A holder on this machine whose process is gone (killed, or its terminal closed) need not be
        # waited for: its lease would run out only to hand the same tables over.
        dead = [o for o in await self.store.run(self.storage.holders) if o != self.owner and dead_here(o)]
        starts = first_characters(self.settings.shard) if self.settings.shard else None
        claim = functools.partial(self.storage.claim_active, starts=starts)
        for row in await self.store.run(claim, self.owner, self.settings.lease, here, dead):
            if row.id in self.tables or self._load(row) is None:
                continue
            n += 1
            await asyncio.sleep(0)  # each table replays its match here: let the others run in between
        return n

    def _load(self, row: TableRow) -> Table | None:
        """Start playing a stored table this server now holds (None if its match cannot be rebuilt)."""
        try:
            table = Table(row, self.store, self.settings, self.next_epoch(), self.thinkers)
        except Exception:  # one damaged table must not keep the others from being played
            log.exception("table %s could not be loaded; it is left as stored", row.id)
            self._broken.add(row.id)
            return None
        self.tables[table.id] = table
        table.start_owner()
        return table

    async def keep_leases(self) -> None:
        """Renew this server's leases, drop the tables another server has taken, adopt orphaned ones.

        A live server's table is taken over only after its lease ran out, which means this server
        stopped renewing (paused, or cut off from the store) for longer than the lease: it must then
        stop playing it. (A holder is taken over sooner only when its process is gone from this machine,
        ``owner.dead_here``, and then nobody is left to notice.)"""
        playing = [t.id for t in self.tables.values() if not t.finished]
        finished = [t.id for t in self.tables.values() if t.finished]  # open at the final standings
        lost = await self.store.run(self.storage.renew, self.owner, self.settings.lease, playing, finished)
        lost |= {t.id for t in self.tables.values() if t.lost}  # a write of theirs was refused
        for table_id in lost:
            table = self.tables.pop(table_id, None)
            if table is not None:
                log.warning("table %s is now played by another server; letting it go", table_id)
                await table.stop()
        await self._adopt()

    async def _lease_forever(self) -> None:
        while True:
            await asyncio.sleep(self.settings.lease / 3)
            try:
                await self.keep_leases()
            except sa.exc.DBAPIError as e:  # the store may be briefly unreachable: one line, then again
                log.warning("could not renew the table leases (retrying): %s", store_reason(e))
            except Exception:
                log.exception("could not renew the table leases")

    async def sweep(self) -> int:
        """Let go of finished tables nobody is connected to (their record stays in the store), and park
        unfinished ones nobody has had open for ``park_after`` seconds (they wake when opened again)."""
        async with self._parking:  # one who opens a parked table meanwhile waits, then wakes it
            now = time.monotonic()
            done: list[Table] = []
            idle: list[Table] = []
            # Chosen and taken out in one step, with no await between: a request that found a table
            # (``find`` marks it in use) is never left holding one that is being put away.
            for t in list(self.tables.values()):
                if t.all_connections():
                    t.empty_since = None
                elif t.finished and (t.attached or now - t.loaded_at >= self.settings.grace):
                    done.append(t)  # (one just taken up by a look at its facts waits a while for its socket)
                elif t.empty_since is None:
                    t.empty_since = now
                elif now - t.empty_since >= self.settings.park_after:
                    idle.append(t)
            for t in (*done, *idle):
                del self.tables[t.id]
            for t in (*done, *idle):
                await t.stop()
            if done:  # put away: a restart does not take them up again (``take_finished``)
                await self.store.run(self.storage.let_go, [t.id for t in done], self.owner)
            if idle:
                await self.store.drain()  # their last actions are stored before they are let go
                await self.store.run(self.storage.park, [t.id for t in idle], self.owner)
        return len(done) + len(idle)

    async def _sweep_forever(self) -> None:
        while True:
            await asyncio.sleep(min(self.settings.sweep_every, self.settings.park_after / 2))
            try:
                await self.sweep()
                await self.forget_lobbies()
            except Exception:  # a store that failed once must not stop the sweeping for good
                log.exception("sweeping tables failed; trying again later")

    async def forget_lobbies(self, now: float | None = None) -> int:
        """Once an hour, delete the tables never started and left parked for ``forget_lobbies``
        seconds (``Storage.forget_lobbies``); returns how many."""
        now = time.monotonic() if now is None else now
        idle = self.settings.forget_lobbies
        if idle <= 0 or now - self._forgot_at < FORGET_EVERY:
            return 0
        self._forgot_at = now
        forgotten = await self.store.run(self.storage.forget_lobbies, idle)
        if forgotten:
            log.info("forgot %d tables whose match never started, parked for %.0f days", forgotten, idle / 86400)
        return int(forgotten)

    async def find(self, table_id: str) -> Table | None:
        """The table, if this server plays it, waking it first if it was parked, or taking it up if its
        match ended while a server that has stopped since still had it open (``Storage.take_finished``)."""
        table = self.get(table_id)
        if table is not None:
            table.empty_since = None  # in use: not to be parked by the next sweep
            return table
        if not owns(self.settings.shard, table_id):
            return None  # another shard's: waking it here would keep it from the server the proxy sends it to
        # A miss costs one read; only a parked table, or a finished one a stopped server had open (its
        # players at the final standings), is worth the lock and a write.
        h = await self.stored(self.storage.holding, table_id)
        if h is None or h.owner == self.owner:
            return None
        parked = h.owner == PARKED
        if not parked and not h.may_take(datetime.now(UTC), self.settings.rematch_after_restart, dead_here):
            return None
        async with self._parking:
            table = self.get(table_id)  # woken by another request while this one waited
            if table is not None:
                return table
            code = table_id.upper()
            if parked:
                row = await self.store.run(self.storage.wake, code, self.owner, self.settings.lease)
            else:
                within = self.settings.rematch_after_restart
                take = functools.partial(self.storage.take_finished, dead=dead_here)
                row = await self.store.run(take, code, self.owner, self.settings.lease, within)
            return None if row is None else self._load(row)

    async def pending(self, table_id: str) -> bool:
        """Whether a finished match this server does not have will be taken up when opened again soon:
        its server stopped with it open, and the lease it held has not run out yet (a server on another
        machine, or in another container, cannot be seen to be gone). Its page waits for it rather than
        showing the stored record without the rematch."""
        if not owns(self.settings.shard, table_id):
            return False  # another shard's: the proxy sends its players there
        h = await self.stored(self.storage.holding, table_id)
        if h is None or h.owner == self.owner or self.get(table_id) is not None:
            return False
        return h.finished_open(datetime.now(UTC), self.settings.rematch_after_restart)

    async def missing(self, table_id: str) -> tuple[str, int, str | None, dict[str, str]]:
        """Why a table is not here, the HTTP status that says it, and the message's code and its
        params for a page to translate: there is none (404), its match is over and put away (409), or
        another server on the same store plays it (409, a message for whoever runs the servers)."""
        status = await self.stored(self.storage.status, table_id)
        if status in ("lobby", "playing"):
            why = f"table {table_id!r} is played by another opentrix server using this database"
            if not owns(self.settings.shard, table_id):
                k, n = self.settings.shard or (0, 1)
                starts = " ".join(first_characters(self.settings.shard))
                why += f" (this is server {k} of {n}, for the codes that start with {starts}: the proxy sent it here)"
            return why, 409, None, {}
        if status == "finished":
            code = table_id.upper()
            return f"the match at table {code!r} is over; its record stays at /t/{code}", 409, "over", {"code": code}
        return f"no table {table_id!r}", 404, "no_table", {"code": table_id}

    async def stored(self, read: Callable[[str], T], table_id: str) -> T | None:
        """``read`` from the store for table ``table_id``; None, without asking, for a code no stored table
        could have (``storable_code``)."""
        return await self.store.run(read, table_id.upper()) if storable_code(table_id) else None

    def get(self, table_id: str) -> Table | None:
        return self.tables.get(table_id.upper())

    async def resume_local(self, spec: NewTable) -> tuple[Table, str] | None:
        """The latest unfinished ``opentrix play`` table with these rules, bots (and seed, if given), with a
        fresh secret for its player: the link printed last time named a port that may be gone."""
        rules = spec.rules()

        def same(t: Table | TableRow, its_rules: Rules) -> bool:
            return (
                bool(t.options.get("local"))
                and t.status == "playing"
                and its_rules == rules
                and (spec.seed is None or t.seed == spec.seed)
                and t.seats[t.host_seat].kind == "human"
                and [s.bot_level for s in t.seats if s.seat != t.host_seat]
                == [lv for i, lv in enumerate(spec.bots) if i != spec.host_seat]
            )

        for row in await self.store.run(self.storage.parked_local):  # only a match that fits is woken
            with contextlib.suppress(Exception):  # a row that cannot be read is not the one wanted
                if same(row, Rules.from_json(row.rules)):
                    await self.find(row.id)
        mine = [t for t in self.tables.values() if not t.finished and same(t, t.rules)]
        if not mine:
            return None
        table = max(mine, key=lambda t: t.created_at)
        return table, await table.reissue(table.host_seat)

    async def create(self, spec: NewTable) -> tuple[Table, str]:
        """A new table with the host in his seat; returns it and the host's seat token."""
        rules = spec.rules()
        token = new_token()
        seats = []
        for s in range(4):
            if s == spec.host_seat:
                name = clean_name(spec.name, own=spec.local)
                seats.append(SeatRow(s, "human", name, self.settings.substitute_level, token_hash(token)))
            else:
                seats.append(SeatRow(s, "bot" if spec.start else "open", "", spec.bots[s]))
        # the bot levels chosen for the seats: a seat the host frees in the lobby gets its level back
        options: dict[str, Any] = {"timer": spec.timer, "levels": list(spec.bots)}
        if spec.hints:
            options["hints"] = True
        if spec.local:
            options["local"] = True
        if spec.seed is not None:
            # Whoever chose the seed can know every hand of the match: the table says so to all (``seeded``).
            options["seeded"] = True
        seed = spec.seed if spec.seed is not None else secrets.randbits(SEED_BITS)
        status = "playing" if spec.start else "lobby"
        return await self._open(rules, seed, options, spec.host_seat, seats, status), token

    async def _open(
        self, rules: Rules, seed: int, options: dict[str, Any], host_seat: int, seats: list[SeatRow], status: str
    ) -> Table:
        """Store a new table under a fresh code and start its owner task."""
        for _ in range(10):
            first = secrets.choice(first_characters(self.settings.shard))  # routed here by it (shards.py)
            code = first + "".join(secrets.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH - 1))
            if code in self.tables:
                continue
            row = TableRow(code, status, rules.to_json(), seed, options, host_seat, seats)
            try:
                await self.store.run(self.storage.create_table, row, self.owner, self.settings.lease)
            except Exception:
                if await self.store.run(self.storage.load_table, code) is None:
                    raise
                continue  # the code is taken by a stored table
            table = Table(row, self.store, self.settings, self.next_epoch(), self.thinkers)
            self.tables[code] = table
            table.start_owner()
            return table
        raise TableError("could not find a free table code; try again")

    async def rematch(self, table: Table, seat: int | None) -> None:
        """A player at a finished match asks to play again: one new table for the same people, made once.

        Each player still at the table (connected, or back within the grace period) keeps his seat, with
        a new token told to his own connections only; bots take every other seat, so the new table has
        no open seat for a stranger to take. A lone player against bots plays on at once; friends meet
        in the new table's lobby, hosted by whoever asked."""
        plan = await table.call(functools.partial(table.rematch_plan, seat))
        if plan is None:
            return  # made already (or being made): this seat has been, or will be, told
        assert seat is not None
        try:
            tokens = {p: new_token() for p in plan.players}
            start = len(tokens) == 1
            seats = [
                SeatRow(s.seat, "human", s.name, self.settings.substitute_level, token_hash(tokens[s.seat]))
                if s.seat in tokens
                else SeatRow(s.seat, "bot", "", s.bot_level)  # a player's row keeps the level that stood in for him
                for s in plan.seats
            ]
            status = "playing" if start else "lobby"
            heirs = {str(s.seat): s.token_hash for s in plan.seats if s.seat in tokens and s.token_hash is not None}
            options = {**plan.options, HEIRS: heirs}
            new = await self._open(plan.rules, secrets.randbits(SEED_BITS), options, seat, seats, status)
        except Exception:
            log.exception("table %s: the rematch could not be made", table.id)
            with contextlib.suppress(TableError):
                await table.call(table.rematch_failed)  # tells every player, so none waits for ever
            return
        except asyncio.CancelledError:  # the server stops: let a later ask try again, if the table is still here
            table.post(table.rematch_failed)
            raise
        with contextlib.suppress(TableError):  # the old table was put away meanwhile: nobody is left to tell
            await table.call(functools.partial(table.rematch_made, new.id, tokens, seat))
