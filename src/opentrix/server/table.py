"""One table: its seats, its match and the single owner task that changes them.

Everything that changes a table (a card played, a seat taken, a bot's move, a timer running out) is
a job in the table's inbox, run one at a time by the owner task, so actions apply in order without
locks. Each accepted action is stored before anyone hears of it; then every connection gets an
``update`` built from its own seat's view (spectators get the spectator view). Events are numbered;
the last ones are kept so a client that reconnects gets what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import logging
import secrets
import time
from collections import deque
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any, TypeVar

from .. import actions as A
from ..bots import Bot, make_bot
from ..contracts import Contract
from ..deal import Phase, score_deal
from ..errors import IllegalAction
from ..match import Match
from ..record import Record
from ..rules import Rules
from ..view import View, view
from .asyncstore import AsyncStore
from .bucket import TokenBucket
from .protocol import BadMessage, dumps, error
from .settings import Settings
from .storage import LeaseLost, SeatRow, TableRow, player_name
from .thinking import THREAD, Thinkers
from .views import views_json

HINT_LEVEL = "hard"  # the bot whose move a hint shows

log = logging.getLogger("opentrix.server")

T = TypeVar("T")
EVENTS_KEPT = 256
CHAT_KEPT = 50  # chat messages a table keeps for those who arrive or come back
CHAT_RATE = (5, 10.0)  # at most 5 chat messages from one seat in 10 seconds
STORE_RETRY_S = 2.0  # a bot's move the store refused is tried again this long after (at least its delay)
WATCHING_EVERY = 2.0  # seconds between two messages telling the table how many are watching
# ``seats`` events for players coming and going: a few at once, then one a second. A seat whose link is
# opened and closed without end must not flood the others (each event carries a view to every connection).
PRESENCE_RATE, PRESENCE_BURST = 1.0, 6.0
OUTBOX_LIMIT = 512  # a client this far behind is dropped (it resyncs when it reconnects)
_DOUBLING_ACTIONS = frozenset(a for a in range(A.NUM_ACTIONS) if A.is_doubling_answer(a))


def new_token() -> str:
    return secrets.token_urlsafe(24)


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class TableError(Exception):
    """A request the table refuses (seat taken, wrong token, not the host…); the text is for the user.
    ``status`` is the HTTP status an API request answers with. The refusals a player meets in the
    ordinary course have a ``code`` (and the ``params`` of its text), with which a page shows the
    message in its own language; the English text goes along for every other client."""

    status = 400

    def __init__(self, message: str, code: str | None = None, **params: str | int) -> None:
        super().__init__(message)
        self.code = code
        self.params = params


class MatchOver(TableError):
    """A lobby request (join, start) for a match that is over: a conflict with the table's state."""

    status = 409


STALE_MOVE = "that move was for a turn gone by: the table has moved on"
STOPPED = "this table was just put away (nobody had it open); please open it again"


class Connection:
    """One WebSocket: the seat it holds (None for a spectator) and its outbox, drained by a writer task."""

    def __init__(self, send: Callable[[str], Awaitable[None]], close: Callable[[], Awaitable[None]]) -> None:
        self._send = send
        self._close = close
        self.seat: int | None = None
        self.outbox: asyncio.Queue[str | None] = asyncio.Queue()
        self.closed = False
        # A program playing the seat (``opentrix join --bot`` says so in its hello): it plays, but does
        # not count as a player being there (a table all its people left waits for them).
        self.automated = False

    def send(self, text: str) -> None:
        if self.closed:
            return
        if self.outbox.qsize() >= OUTBOX_LIMIT:
            self.closed = True
            self.outbox.put_nowait(None)
            return
        self.outbox.put_nowait(text)

    async def pump(self) -> None:
        """Write queued messages to the socket until closed."""
        while True:
            text = await self.outbox.get()
            if text is None:
                with contextlib.suppress(Exception):
                    await self._close()
                return
            try:
                await self._send(text)
            except Exception:  # the socket is gone; the reader side notices and detaches
                self.closed = True
                return

    def stop(self) -> None:
        self.closed = True
        self.outbox.put_nowait(None)


@dataclass
class SeatState:
    seat: int
    kind: str  # "open" (lobby, nobody yet), "human" or "bot"
    name: str
    bot_level: str  # a bot seat's level; for a human, the level of the bot that plays while he is away
    token_hash: str | None = None
    conns: set[Connection] = field(default_factory=set)
    away: bool = False  # a human whose seat a bot is playing (timed out or gone past the grace period)
    gone_since: float | None = None  # when the last connection of a human closed
    bot: Bot | None = None
    program: bool = False  # the last connection to take the seat was a program's (``opentrix join --bot``)
    came: bool = False  # someone has opened the seat since the table was loaded

    @property
    def bot_plays(self) -> bool:
        return self.kind == "bot" or self.away

    def row(self) -> SeatRow:
        return SeatRow(self.seat, self.kind, self.name, self.bot_level, self.token_hash)

    def info(self) -> dict[str, Any]:
        return {
            "seat": self.seat,
            "kind": self.kind,
            "name": self.name if self.kind == "human" else None,
            "level": self.bot_level if self.kind != "human" else None,
            "connected": bool(self.conns) if self.kind == "human" else self.kind == "bot",  # open: nobody
            "away": self.away,
        }


def rules_for(preset: str, **options: Any) -> Rules:
    """A preset with the table's options (doubling, partnership, complex, kingdoms) on top."""
    return Rules.preset(preset, **{k: v for k, v in options.items() if v is not None})


def deal_points(match: Match) -> list[int] | None:
    """What each seat's captures cost so far in the trick contract being played, doubling included
    (public: the captured cards and tricks are on the table), so the badges can say it; None outside."""
    deal = match.deal
    if deal is None or deal.phase != Phase.PLAY or deal.contract == Contract.TRIX or match.phase != Phase.PLAY:
        return None
    return list(score_deal(deal))


def seed_facts(seed: int, options: dict[str, Any]) -> dict[str, Any]:
    """The seed, if the host chose it (and so may know every hand): shown to all, so the others know too;
    also as digits (``seed_text``), since above 2**53 a JavaScript number rounds it. A seed the server
    drew stays secret: it would tell everyone's cards."""
    chosen = options.get("seeded")
    return {"seed": seed if chosen else None, "seed_text": str(seed) if chosen else None}


REMATCH = "rematch"  # the option a finished table keeps its rematch under: {"code": ..., "seat": ...}
# A rematch keeps, per seat of a player, the hash of his token at the finished table: that token takes
# his seat here too, so a player who was away when it was made, and came back after the finished
# table was put away (with the new token only ever in its memory), still finds his seat. Never shown.
HEIRS = "heirs"


def stored_summary(row: TableRow) -> dict[str, Any]:
    """Public facts about a table no server has loaded (a finished match put away): who sat where and
    how it ended, so that its page can still show the standings. ``stored`` tells the client so. Of a
    table another server is playing, only its status: that server answers for it."""
    if row.status != "finished":
        return {"id": row.id, "status": row.status}
    rules = Rules.from_json(row.rules)
    match = replay_actions(rules, row.seed, row.actions)
    seats = [SeatState(s.seat, s.kind, s.name, s.bot_level).info() for s in row.seats]
    for seat in seats:
        seat["connected"] = False
    doc: dict[str, Any] = {
        "id": row.id,
        "status": row.status,
        "stored": True,
        "seats": seats,
        "preset": rules.preset_name,
        "rules": rules.option_dict(),
        **seed_facts(row.seed, row.options),
        "deals_dealt": len(match.deals),  # a count (the view's deal_number counts from 0)
        "totals": list(match.totals),
        "winners": list(match.winners),
        "match_over": match.is_over,
        "rematch": row.options.get(REMATCH),
    }
    if rules.partnership:
        doc["team_totals"] = match.team_totals()
    return doc


def replay_actions(rules: Rules, seed: int, actions: list[tuple[int, int]]) -> Match:
    """Rebuild a match from its seed and stored actions, dealing the next deal whenever one is over."""
    match = Match(rules, seed=seed)
    for seat, action in actions:
        if match.phase == Phase.DEAL_OVER:
            match.start_deal()
        match.apply(action, seat)
    return match


@dataclass(frozen=True)
class RematchPlan:
    """What a rematch keeps of its table: the rules, the options and who sat where."""

    rules: Rules
    options: dict[str, Any]
    seats: list[SeatRow]
    players: list[int]  # the seats of the players still there, who keep them; bots take the others


class Table:
    """A table and its owner task. Create with ``Table(row, ...)`` then ``start_owner()``."""

    def __init__(
        self, row: TableRow, store: AsyncStore, settings: Settings, epoch: str, thinkers: Thinkers = THREAD
    ) -> None:
        self.id = row.id
        self.status = row.status
        self.rules = Rules.from_json(row.rules)
        self.seed = row.seed
        self.options = row.options
        self.host_seat = row.host_seat
        self.created_at = row.created_at
        self.seats = [SeatState(s.seat, s.kind, s.name, s.bot_level, s.token_hash) for s in row.seats]
        self.store = store
        self.settings = settings
        self.epoch = epoch  # this load's (``Hub.next_epoch``): event numbers start again with every load
        self.thinkers = thinkers
        self.match = replay_actions(self.rules, self.seed, row.actions)
        if self.status == "playing" and self.match.phase == Phase.DEAL_OVER and not self.match.is_over:
            # Dealing is not stored: a table taken up between two deals deals the next one now. The
            # server that stopped was far more likely in a deal than in the seconds of the summary
            # between two, and a player back in his new deal must not sit through the last one's
            # summary again (its scores stay in the score sheet).
            self.match.start_deal()
        # Until one of its players comes (back), a new or taken-up table, or one that everybody left
        # (``_wait_if_empty``), waits for them: bots play their own seats but nobody else's, and no grace
        # period or move timer runs (no match is played out by bots in an empty room). The first player
        # to arrive starts the grace period of those still missing.
        self.nobody_back = any(s.kind == "human" for s in self.seats)
        self.empty_since: float | None = None  # since when nobody is connected (``Hub.sweep`` parks it)
        self.stopped = False
        self.lost = False  # another server took the table over: this one stops playing it
        self.spectators: set[Connection] = set()
        self.n = 0
        self.acted_n = 0  # the event that made the last move: a move sent before seeing it is stale
        self.events: deque[tuple[int, dict[str, Any]]] = deque(maxlen=EVENTS_KEPT)
        self.finished = self.status == "finished"
        # A finished match taken up again (its server stopped at the final standings, ``Hub.find``): who
        # sat there before is not known here (a player long gone, a program), so only those who come
        # back count at the rematch, and nobody's coming spares it from the sweep for a grace period.
        self.taken_up_over = self.finished
        self.loaded_at = time.monotonic()
        self.attached = False  # a connection (player or spectator) has said hello since the load
        self._inbox: asyncio.Queue[tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None]] = asyncio.Queue()
        self._task: asyncio.Task[None] | None = None
        self._bot_due: float | None = None
        self._thinking: asyncio.Future[tuple[int, Bot]] | None = None  # a bot's move being thought out
        self._hinting: tuple[int, int] | None = None  # the turn a hint is being thought out for
        self.chat_log: deque[dict[str, Any]] = deque(row.chat, maxlen=CHAT_KEPT)
        self._chatted: dict[int, deque[float]] = {}  # per seat: when its last messages were sent
        self._chat_writes: set[asyncio.Task[None]] = set()  # messages on their way to the store
        self._chat_last: asyncio.Task[None] | None = None  # the last of them: the next is said after it
        self._finish_due: float | None = None  # when to store the finished match again, after the store refused it
        # The last hint thought out (position, action): asked again for the same turn (a second tab, a
        # reload, a client that keeps asking), it is told again without another search, so hints cost
        # the bots' shared executor one search a turn at most.
        self._last_hint: tuple[tuple[int, int], int] | None = None
        self._thinking_since = 0.0
        # A bot's move thought out (position, seat, action), played when the bot delay is over: bots think
        # during the delay, so how long a decision took (a redeal its hand could claim, a card to double)
        # does not show in when it is played.
        self._ready_move: tuple[tuple[int, int], int, int] | None = None
        self._thought_again: tuple[int, int] | None = None  # the last position whose move a dead worker lost
        self._deadline: float | None = None
        self._deadline_key: tuple[int, int] | None = None
        self._pause_until: float | None = None
        self._ready: set[int] = set()
        self._watching_sent = 0  # the spectator count the players were last told of (``_tell_watching``)
        self._watching_due: float | None = None
        self._watching_at = 0.0
        self._presence_due: float | None = None  # a ``seats`` event held back (``_presence_changed``)
        self._presence = TokenBucket(PRESENCE_RATE, PRESENCE_BURST)
        self.rematch_code: str | None = None  # the table the same players went on to (``Hub.rematch``)
        self._rematching = False
        self._rematch_tokens: dict[int, str] = {}  # each seat's token there, told to that seat's connections only
        self._rematch_by: int | None = None

    # -- owner task ---------------------------------------------------------------------------------

    def start_owner(self) -> None:
        self._task = asyncio.create_task(self._run(), name=f"table-{self.id}")

    async def stop(self) -> None:
        self.stopped = True
        if self._thinking is not None:  # a move still queued is dropped, not waited for (``Thinkers.drop``)
            self.thinkers.drop(self._thinking)
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        while not self._inbox.empty():  # nobody will run them now: their callers must not wait for ever
            _, fut = self._inbox.get_nowait()
            if fut is not None and not fut.done():
                fut.set_exception(TableError(STOPPED))
        for c in self.all_connections():
            c.stop()

    async def call(self, job: Callable[[], Awaitable[T]]) -> T:
        """Run ``job`` in the owner task (after the jobs before it) and return its result."""
        if self.stopped:
            raise TableError(STOPPED)
        fut: asyncio.Future[T] = asyncio.get_running_loop().create_future()
        self._inbox.put_nowait((job, fut))
        return await fut

    def post(self, job: Callable[[], Awaitable[Any]]) -> None:
        """Queue ``job`` for the owner task without waiting for it."""
        self._inbox.put_nowait((job, None))

    async def _run(self) -> None:
        while True:
            try:
                wait = self._wake_in()
                item: tuple[Callable[[], Awaitable[Any]], asyncio.Future[Any] | None] | None
                try:
                    if wait is None:
                        item = await self._inbox.get()
                    elif wait <= 0:
                        item = self._inbox.get_nowait() if not self._inbox.empty() else None
                        if item is None:  # something is due: whatever it is, the other tasks get their turn first
                            await asyncio.sleep(0)
                    else:
                        item = await asyncio.wait_for(self._inbox.get(), wait)
                except TimeoutError:
                    item = None
                if item is not None:
                    job, fut = item
                    try:
                        result = await job()
                    except asyncio.CancelledError:  # stopped under this job: its caller must not wait for ever
                        if fut is not None and not fut.done():
                            fut.set_exception(TableError(STOPPED))
                        raise
                    except Exception as e:
                        if fut is not None and not fut.done():
                            fut.set_exception(e)
                        elif not isinstance(e, TableError | IllegalAction):
                            log.exception("table %s: job failed", self.id)
                    else:
                        if fut is not None and not fut.done():
                            fut.set_result(result)
                await self._tick()
            except asyncio.CancelledError:
                raise
            except Exception:  # the table keeps running whatever one job did
                log.exception("table %s: owner loop error", self.id)
                await asyncio.sleep(0.05)

    def _wake_in(self) -> float | None:
        """Seconds until the next timed thing (a bot move, a move timer, the deal pause, a grace period)."""
        if self.lost or self.stopped:  # nothing is played here any more: only jobs wake the table
            return None
        bot_due = self._bot_due if self._thinking is None else None  # a thought's end comes as a job
        finish_due = self._finish_due if not self.finished else None
        times = [
            t
            for t in (bot_due, self._deadline, self._pause_until, self._watching_due, self._presence_due, finish_due)
            if t is not None
        ]
        if self._thinking is not None and (check := self.thinkers.check_every()) is not None:
            times.append(time.monotonic() + check)
        if self.status == "playing":
            grace = self.settings.grace
            times += [s.gone_since + grace for s in self.seats if s.gone_since is not None and not s.away]
        if (host_due := self._host_due()) is not None:
            times.append(host_due)
        if not times:
            return None
        return min(times) - time.monotonic()

    async def _tick(self) -> None:
        """Do whatever is due: start the next deal, let a bot move, apply a timeout or a grace period."""
        if self._watching_due is not None and time.monotonic() >= self._watching_due:
            self._tell_watching()
        if self._presence_due is not None and time.monotonic() >= self._presence_due:
            self._presence_due = None
            self._tell_presence()
        if (host_due := self._host_due()) is not None and time.monotonic() >= host_due:
            await self._pass_host()
        while self.status == "playing" and not self.lost:
            now = time.monotonic()
            for s in self.seats:
                if s.gone_since is not None and not s.away and now - s.gone_since >= self.settings.grace:
                    s.away = True
                    self._broadcast({"kind": "away", "seat": s.seat})
            m = self.match
            if m.phase >= Phase.DEAL_OVER:
                self._bot_due = self._deadline = self._ready_move = None
            if m.is_over:
                if not self.finished and (self._finish_due is None or now >= self._finish_due):
                    try:
                        await self._finish()
                    except LeaseLost:
                        raise
                    except Exception as e:  # stored later, by itself: no player may be about to send anything
                        log.warning("table %s: the finished match could not be stored, trying again: %s", self.id, e)
                        self._finish_due = now + STORE_RETRY_S
                    else:
                        self._finish_due = None
                return
            if m.phase == Phase.DEAL_OVER:
                if self._pause_until is None:
                    self._pause_until = now + self._deal_pause()
                    self._ready = set()
                if now < self._pause_until and not self._all_ready():
                    return
                self._pause_until = None
                self._ready = set()  # before the new deal's updates: none may carry the last one's clicks
                m.start_deal()
                self._broadcast({"kind": "deal", "deal": len(m.deals)})
                continue
            turn = m.turn
            assert turn is not None
            seat = self.seats[turn]
            if seat.bot_plays:
                self._deadline = None
                if self._thinking is not None and self.thinkers.overdue(self._thinking_since):
                    # Its answer was lost, or its worker is stuck: the workers are replaced, the move thought again.
                    log.error("table %s: the move for seat %d was never answered; thinking it again", self.id, turn)
                    self.thinkers.give_up(self._thinking_since)
                    self._thinking = None
                if self._bot_due is None:  # (a move timer that ran out set it to now: the stand-in plays at once)
                    self._bot_due = now + self.settings.bot_delay
                ready = self._ready_move
                if ready is not None and (ready[0] != self._position() or ready[1] != turn):
                    ready = self._ready_move = None
                if ready is None:
                    if self._thinking is not None:
                        return  # its move comes back through the inbox (``_bot_done``); calls are served meanwhile
                    try:
                        forced = self._bot_move(turn)
                    except Exception:
                        self._bot_due = None  # tried again a delay later, not at every turn of the owner loop
                        raise
                    if forced is None:
                        return  # thinking, while the delay runs
                    ready = self._ready_move = (self._position(), turn, forced)
                if now < self._bot_due:
                    return
                self._bot_due = self._ready_move = None
                try:
                    await self._apply(turn, ready[2])
                except (LeaseLost, IllegalAction):
                    raise
                except Exception as e:  # the store refused it: the same move again a little later, so the
                    # table does not wait for a player's message to wake it (nobody may be about to send one)
                    log.warning("table %s: a bot's move could not be stored, trying again: %s", self.id, e)
                    self._ready_move = ready
                    self._bot_due = time.monotonic() + max(self.settings.bot_delay, STORE_RETRY_S)
                    return
                if not self._inbox.empty():
                    return  # players' messages first, then the bots play on
                continue
            self._bot_due = None
            self._arm_timer()
            if self._deadline is not None and now >= self._deadline:
                # Out of time: a bot plays for him from now on, until he takes the seat back.
                seat.away = True
                self._deadline = None
                self._broadcast({"kind": "timeout", "seat": turn})
                self._bot_due = now
                continue
            return

    def _arm_timer(self) -> None:
        """Start the move timer when a human comes to act (once per decision), stop it otherwise."""
        m = self.match
        timer = int(self.options.get("timer") or 0)
        turn = m.turn
        if timer <= 0 or self.status != "playing" or turn is None or self.seats[turn].bot_plays or self.nobody_back:
            self._deadline = None
            self._deadline_key = None
            return
        key = (len(m.deals), len(m.history))
        if self._deadline_key != key:
            self._deadline_key = key
            self._deadline = time.monotonic() + timer

    def _deal_pause(self) -> float:
        """How long the end-of-deal summary stays up: long enough to read while someone watches it."""
        watched = any(s.kind == "human" and s.conns and not s.away for s in self.seats)
        return self.settings.deal_pause if watched else self.settings.bot_delay

    def _next_deal_in(self) -> float | None:
        """Seconds until the next deal starts unless all are ready sooner: the summary's countdown."""
        m = self.match
        if m.phase != Phase.DEAL_OVER or m.is_over or self.status != "playing":
            return None
        if self._pause_until is None:  # the deal has just ended: the pause starts at the next tick
            return self._deal_pause()
        return max(0.0, round(self._pause_until - time.monotonic(), 1))

    def _all_ready(self) -> bool:
        waiting = {s.seat for s in self.seats if s.kind == "human" and s.conns and not s.away}
        return bool(waiting) and waiting <= self._ready

    # -- actions ------------------------------------------------------------------------------------

    async def _apply(self, seat: int, action: int) -> None:
        """Apply, store, then tell everyone. An illegal action raises and changes nothing."""
        before = self.match.copy()
        self.match.apply(action, seat)
        idx = len(self.match.history) - 1
        try:
            await self.store.append(self.id, idx, seat, action)
        except LeaseLost:
            self.match = before
            self.lost = True  # the hub lets the table go at its next lease check
            raise
        except Exception:
            if not await self._stored_after_all(idx, seat, action):
                self.match = before
                raise
        self._broadcast({"kind": "action", "seat": seat, "action": action})
        self.acted_n = self.n

    async def _stored_after_all(self, idx: int, seat: int, action: int) -> bool:
        """Whether a move the store said it failed to keep is there all the same (its COMMIT went
        through and only the answer was lost). The store is what a restart rebuilds the match from:
        taking such a move back would leave the table a move behind it, and refusing every later one."""
        try:
            return await self.store.run(self.store.storage.stored_already, [(self.id, idx, seat, action)])
        except Exception:  # the store still cannot be read: the move stays refused
            return False

    def _position(self) -> tuple[int, int]:
        """Where the match stands: a bot's move thought out for another position is stale."""
        return len(self.match.deals), len(self.match.history)

    def _bot_move(self, seat: int) -> int | None:
        """A forced move (returned), or the decision handed to the bots' executor (None).

        The owner task does not wait for the bot: a join, a hello, a player taking his seat back or a
        spectator arriving is answered while it thinks, and its move comes back as a job (``_bot_done``).
        """
        v = view(self.match, seat)
        legal = list(v.legal_actions)
        if len(legal) == 1:
            return legal[0]
        state = self.seats[seat]
        if state.bot is None:
            level = state.bot_level if state.kind == "bot" else self.settings.substitute_level
            state.bot = make_bot(level, seed=f"{self.seed}:{seat}")
        position = self._position()
        thinking = self._think(state.bot, v, legal, lambda f: self._bot_done(seat, position, f, legal))
        self._thinking, self._thinking_since = thinking, time.monotonic()
        return None

    def _think(
        self,
        bot: Bot,
        v: View,
        legal: list[int],
        then: Callable[[asyncio.Future[tuple[int, Bot]]], Awaitable[None]],
    ) -> asyncio.Future[tuple[int, Bot]]:
        """Hand ``bot``'s decision to the bots' executor; ``then`` gets the thought when it is done, as a
        job of the owner task (not once the table has stopped), which does not wait for it meanwhile."""
        thinking = self.thinkers.think(bot, v, legal)

        def done(f: asyncio.Future[tuple[int, Bot]]) -> None:
            if not f.cancelled() and not self.stopped:
                self.post(lambda: then(f))

        thinking.add_done_callback(done)
        return thinking

    async def _bot_done(
        self, seat: int, position: tuple[int, int], thought: asyncio.Future[tuple[int, Bot]], legal: list[int]
    ) -> None:
        """Keep a bot's move for the end of the delay (``_tick`` plays it), unless the match moved on
        meanwhile or its player took the seat back."""
        if self._thinking is thought:
            self._thinking = None
        error = thought.exception()
        again = False
        if error is None:
            action, thinker = thought.result()
        elif again := self.thinkers.failed(error):
            log.warning("table %s: the worker thinking for seat %d died", self.id, seat)
        else:
            log.error("table %s: bot at seat %d failed", self.id, seat, exc_info=error)
        if self.lost or self.status != "playing" or position != self._position() or not self.seats[seat].bot_plays:
            return
        if error is not None:
            if again and self._thought_again != position:
                self._thought_again = position  # once: a position that kills every worker is not tried for ever
                return  # the next tick starts the move again, on a fresh worker
            log.error("table %s: playing a legal card for seat %d instead", self.id, seat)
            action = legal[0]
        elif action not in legal:
            log.error("table %s: bot at seat %d chose an illegal action %r", self.id, seat, action)
            action = legal[0]
        else:
            self.seats[seat].bot = thinker  # a worker process sends back the bot it ran: its random state goes on
        self._ready_move = (position, seat, action)

    async def act(self, conn: Connection, action: int, claimed_seat: int | None, after: int | None = None) -> None:
        """A player's action from his connection (run in the owner task). ``after``, when the client
        sends it, is the last event it had seen: a move made after it (a stand-in's, at the move timer)
        means this one was decided for a turn gone by, and it is refused rather than played on a later
        turn it was never meant for."""
        seat = conn.seat
        if seat is None:
            conn.send(error("spectators cannot play: take a seat first"))
            return
        if claimed_seat is not None and claimed_seat != seat:
            conn.send(error(f"you hold seat {seat}; a message for seat {claimed_seat} is refused"))
            return
        if self.status != "playing":
            conn.send(error("the match has not started yet" if self.status == "lobby" else "the match is over"))
            return
        state = self.seats[seat]
        if state.away:  # a move, even one too late, says the player is back
            self._reclaim(state)
        if after is not None and after > self.n:
            conn.send(error(f"'after' names event {after}, which this table has not sent (its last is {self.n})"))
            return
        if after is not None and after < self.acted_n:
            conn.send(error(f"{STALE_MOVE} (event {self.acted_n} came after {after})"))
            return
        try:
            await self._apply(seat, action)
        except IllegalAction as e:
            conn.send(error(str(e)))
        except Exception as e:  # a store that cannot be reached: one line, not a traceback for every move
            log.warning("table %s: could not store an action: %s", self.id, e)
            conn.send(error("the action could not be stored; please try again"))

    async def hint(self, conn: Connection) -> None:
        """What the hard bot would do in the player's place, thought out from his own view alone and
        told to him alone. At a table where everyone else is a bot, or where the host allowed hints for
        everyone (a table for learning): otherwise, among friends, a hint would be a fifth player's help
        to one of them. The table does not wait for it; a hint for a turn gone by is dropped."""
        seat = conn.seat
        if seat is None:
            conn.send(error("hints are for players: take a seat first"))
            return
        if not self.options.get("hints") and any(s.kind == "human" for s in self.seats if s.seat != seat):
            conn.send(error("hints are for tables where everyone else is a bot, or whose host allowed them"))
            return
        if self.status != "playing" or self.match.turn != seat or self.seats[seat].away:
            conn.send(error("a hint is for your own turn"))
            return
        v = view(self.match, seat)
        legal = list(v.legal_actions)
        position = self._position()
        if len(legal) == 1:
            conn.send(dumps({"type": "hint", "action": A.to_str(legal[0])}))
            return
        if self._last_hint is not None and self._last_hint[0] == position:
            conn.send(dumps({"type": "hint", "action": A.to_str(self._last_hint[1])}))
            return
        if self._hinting == position:  # one search a turn: a hint costs a hard bot's move of thinking
            conn.send(error("a hint is on its way"))
            return
        # (A search still running for a turn gone by, asked for by a player who has played since, is
        # let finish and its answer dropped: it does not hold up the hint of the player now to act.)
        self._hinting = position
        bot = make_bot(HINT_LEVEL, seed=f"{self.seed}:hint:{seat}:{position}")
        self._think(bot, v, legal, lambda f: self._hint_done(conn, position, f))

    async def _hint_done(self, conn: Connection, position: tuple[int, int], f: asyncio.Future[tuple[int, Bot]]) -> None:
        if self._hinting == position:
            self._hinting = None
        if f.exception() is not None:
            conn.send(error("no hint this time: the bot could not think it out"))
        elif position == self._position():  # still the turn it was asked for
            self._last_hint = (position, f.result()[0])
            conn.send(dumps({"type": "hint", "action": A.to_str(f.result()[0])}))

    async def chat(self, conn: Connection, text: str) -> None:
        """A seated player's message (``text`` already cleaned, ``hub.clean_chat``) to everyone at the
        table, spectators too. The last ``CHAT_KEPT`` are told to those who arrive later; the store keeps
        them while the match is on (a restart, or the table put away and opened again, keeps the talk)
        and deletes them when it ends: a chat is not part of the match, and its record does not hold it.
        A message the store cannot keep is still sent."""
        seat = conn.seat
        if seat is None:
            conn.send(error("spectators cannot chat: take a seat first"))
            return
        most, within = CHAT_RATE
        now = time.monotonic()
        sent = self._chatted.setdefault(seat, deque(maxlen=most))
        if len(sent) == most and now - sent[0] < within:
            conn.send(error(f"you are chatting too fast: at most {most} messages in {within:g} seconds"))
            return
        sent.append(now)
        message = {"seat": seat, "name": self.seats[seat].name, "text": text, "at": int(time.time() * 1000)}
        # Stored, then said (as every move is), beside play: a slow store never holds up the table, and
        # each message waits for the one before it, so they are said in the order they were sent (a match
        # over, or a table lost to another server, keeps nothing more, but the order still holds).
        keep = not self.finished and not self.lost
        before = self._chat_last
        task = asyncio.get_running_loop().create_task(self._keep_chat(message, before, keep))
        self._chat_writes.add(task)
        task.add_done_callback(self._chat_writes.discard)
        self._chat_last = task

    async def _keep_chat(self, message: dict[str, Any], before: asyncio.Task[None] | None, keep: bool) -> None:
        try:
            if keep:
                await self.store.run(self.store.storage.add_chat, self.id, message)
        except LeaseLost:
            pass  # another server plays the table now; the lease check lets it go
        except Exception as e:  # the talk goes on; only a restart would forget this message
            log.warning("table %s: a chat message could not be stored: %s", self.id, e)
        if before is not None:
            await asyncio.wait([before])  # said after the message sent before it (never raises: caught above)
        self._say(message)

    def _say(self, message: dict[str, Any]) -> None:
        self.chat_log.append(message)
        out = dumps({"type": "chat", "message": message})
        for c in self.all_connections():
            c.send(out)

    async def next_deal(self, conn: Connection) -> None:
        if conn.seat is not None and self.match.phase == Phase.DEAL_OVER:
            self._ready.add(conn.seat)

    async def take_back(self, conn: Connection) -> None:
        if conn.seat is not None and self.seats[conn.seat].away:
            self._reclaim(self.seats[conn.seat])

    def _reclaim(self, state: SeatState) -> None:
        state.away = False
        if self.match.turn == state.seat:  # the stand-in's move, thought out or not, is not waited for (nor played)
            self._thinking = None
            self._bot_due = self._ready_move = None  # (another seat's bot keeps its move and its delay)
        state.gone_since = None if state.conns else state.gone_since
        self._deadline_key = None
        self._broadcast({"kind": "back", "seat": state.seat})

    # -- seats and the lobby ------------------------------------------------------------------------

    def seat_of_token(self, token: str | None) -> int | None:
        """The seat whose secret this is, or None. Compared in constant time."""
        if not token or not token.isascii():  # ours are ASCII; others (a lone surrogate) cannot even be hashed
            return None
        h = token_hash(token)
        for s in self.seats:
            if s.token_hash is not None and hmac.compare_digest(s.token_hash, h):
                return s.seat
        for seat, old in (self.options.get(HEIRS) or {}).items():
            if hmac.compare_digest(str(old), h) and self.seats[int(seat)].kind == "human":
                return int(seat)
        return None

    async def join(self, name: str, seat: int | None) -> tuple[int, str]:
        """Take an open seat in the lobby; returns the seat and its secret token."""
        if self.status == "finished":
            raise MatchOver("the match is over; you can look through it", "match_over")
        if self.status != "lobby":
            raise TableError("the match has already started; you can watch it", "started")
        free = [s.seat for s in self.seats if s.kind == "open"]
        if not free:
            raise TableError("every seat is taken", "full")
        if seat is None:
            seat = free[0]
        elif seat not in free:
            raise TableError(f"seat {seat} is already taken", "seat_taken", seat=seat)
        name = self._distinct(name)
        token = new_token()
        state = self.seats[seat]
        level = state.bot_level
        # a player's row keeps the level of the bot that stands in for him (a rematch seats it if he left)
        state.kind, state.name, state.token_hash = "human", name, token_hash(token)
        state.bot_level = self.settings.substitute_level
        state.gone_since = time.monotonic()
        state.program = False  # a new player: whoever played the seat before does not count
        try:
            await self.store.run(self.store.storage.update_seats, self.id, [state.row()])
        except Exception:
            state.kind, state.name, state.token_hash, state.bot_level = "open", "", None, level
            raise
        self._broadcast({"kind": "seats"})
        return seat, token

    async def free_seat(self, token: str | None, seat: int, name: str | None = None) -> None:
        """The host gives a seat taken in the lobby back to the table: a stranger who found the link, a
        friend who sat down twice from two devices. The seat is open again (its bot level as the host
        chose it), its token stops working, and whoever held it goes on watching, told why."""
        self._host_in_lobby(token, "free a seat", ": seats are freed only in the lobby")
        if seat == self.host_seat:
            raise TableError("the host's own seat cannot be freed")
        state = self.seats[seat]
        if state.kind != "human":
            raise TableError(f"seat {seat} has no player to free")
        if name is not None and name != state.name:  # the page that asked showed another player there
            raise TableError(f"seat {seat} is now {state.name}'s; look again before freeing it")
        heirs = self.options.get(HEIRS) or {}
        if str(seat) in heirs:  # at a rematch, the finished match's token must not take the seat back either
            options = {**self.options, HEIRS: {k: v for k, v in heirs.items() if k != str(seat)}}
            await self.store.run(self.store.storage.set_options, self.id, options)
            self.options = options
        before = (state.kind, state.name, state.token_hash, state.bot_level, state.gone_since)
        levels = self.options.get("levels")
        chosen = levels[seat] if isinstance(levels, list) and len(levels) == 4 else None
        state.kind, state.name, state.token_hash = "open", "", None
        state.bot_level = chosen if isinstance(chosen, str) else self.settings.substitute_level
        state.gone_since = None
        state.program = False
        try:
            await self.store.run(self.store.storage.update_seats, self.id, [state.row()])
        except Exception:
            state.kind, state.name, state.token_hash, state.bot_level, state.gone_since = before
            raise
        self._chatted.pop(seat, None)
        watching = views_json(self.match, [None], lobby=True)[None]
        for conn in list(state.conns):  # they watch from now on, as anyone with the link may
            state.conns.discard(conn)
            conn.seat = None
            self.spectators.add(conn)
            conn.send(dumps({"type": "unseated", "seat": seat}))
            conn.send(self._update(None, None, dumps(self._info()), watching, resync=True))
        self._broadcast({"kind": "seats"})
        self._watching_changed()

    def _distinct(self, name: str) -> str:
        """``name``, or ``name (2)`` and so on when a player of that name sits here already: two Omars
        at one table would make "Omar to play" and the records ambiguous."""
        taken = {s.name.casefold() for s in self.seats if s.kind == "human"}
        if name.casefold() not in taken:
            return name
        for n in range(2, 5):
            suffix = f" ({n})"
            candidate = name[: 40 - len(suffix)] + suffix  # names keep to 40 characters
            if candidate.casefold() not in taken:
                return candidate
        raise AssertionError("four seats cannot hold five names")

    async def reissue(self, seat: int) -> str:
        """A new secret for a human seat; the old one stops working (``opentrix play`` taking a match up again)."""
        state = self.seats[seat]
        old = state.token_hash
        token = new_token()
        state.token_hash = token_hash(token)
        try:
            await self.store.run(self.store.storage.update_seats, self.id, [state.row()])
        except Exception:
            state.token_hash = old
            raise
        return token

    def _host_in_lobby(self, token: str | None, doing: str, started: str = "") -> None:
        """What only the host may do, and only before the start: raise if ``token`` is not his, or the
        lobby is gone (``started`` adds to the error for a match under way)."""
        if self.seat_of_token(token) != self.host_seat:
            raise TableError(f"only the host can {doing}")
        if self.status == "finished":
            raise MatchOver("the match is over")
        if self.status != "lobby":
            raise TableError(f"the match has already started{started}")

    async def begin(self, token: str | None) -> None:
        """The host starts the match; bots fill the empty seats."""
        self._host_in_lobby(token, "start the match")
        opened = [s for s in self.seats if s.kind == "open"]
        for s in opened:
            s.kind = "bot"
        try:  # one transaction: a lobby is never stored with bots in its open seats
            await self.store.run(self.store.storage.update_seats, self.id, [s.row() for s in self.seats], "playing")
        except Exception:  # not started: the open seats stay open for friends, and the host may try again
            for s in opened:
                s.kind = "open"
            raise
        self.status = "playing"
        self._broadcast({"kind": "start"})

    def _host_due(self) -> float | None:
        """When the lobby's host, gone for ``host_grace``, hands the start over to a player who is there;
        None while he is there (or nobody else is), or outside the lobby. Friends who followed the link
        would otherwise wait for a start that never comes."""
        if self.status != "lobby" or self.lost or self.stopped:
            return None
        host = self.seats[self.host_seat]
        if host.conns or host.gone_since is None:
            return None
        if not self._players_here():
            return None
        return host.gone_since + self.settings.host_grace

    async def _pass_host(self) -> None:
        """The next seated player who is here, in seat order from the host's, becomes the host."""
        order = [(self.host_seat + k) % 4 for k in range(1, 4)]
        heir = next(s for s in order if self._person_at(self.seats[s]))
        try:
            await self.store.run(self.store.storage.set_host, self.id, heir)
        except LeaseLost:
            self.lost = True  # the hub lets the table go at its next lease check
            raise
        except Exception as e:  # a store that is down: tried again a grace period later, not at every turn
            log.warning("table %s: the host could not be handed over: %s", self.id, e)
            self.seats[self.host_seat].gone_since = time.monotonic()
            return
        self.host_seat = heir
        self._broadcast({"kind": "host", "seat": heir})

    async def _finish(self) -> None:
        m = self.match
        record = Record.from_match(m, self.players()).dumps()
        await self.store.run(self.store.storage.finish, self.id, record, list(m.totals), list(m.winners))
        self.finished = True
        self.status = "finished"
        self._broadcast({"kind": "match_over", "winners": list(m.winners)})

    # -- a rematch ----------------------------------------------------------------------------------

    async def rematch_plan(self, seat: int | None) -> RematchPlan | None:
        """What the rematch is made of, or None if it is made already (this seat is told again)."""
        if seat is None:
            raise BadMessage("only the players can ask for a rematch; spectators may watch it")
        if not self.finished:
            raise BadMessage("a rematch can be asked for once the match is over")
        if self.rematch_code is not None:
            self._tell_rematch(seat)
            return None
        if self._rematching:
            return None  # under way: every player is told when it is ready
        self._rematching = True
        options = {k: v for k, v in self.options.items() if k not in ("seeded", REMATCH, HEIRS)}  # a drawn seed now
        now, grace = time.monotonic(), self.settings.grace

        def here(s: SeatState) -> bool:
            """Connected, or gone for less than the grace period (a reload); not one a bot took over, nor
            one a program played (``opentrix join --bot`` stops with the match and keeps no token, so
            nobody could ever come back to its seat: the table's bot takes it, as for a player who left)."""
            gone = s.gone_since is not None and now - s.gone_since >= grace
            if s.kind != "human" or s.away or (self.taken_up_over and not s.came):
                return False
            return self._person_at(s) or (not s.conns and not s.program and not gone)

        # The one who asks is there, whoever played his last cards: he hosts the rematch.
        players = [s.seat for s in self.seats if here(s) or s.seat == seat]
        return RematchPlan(self.rules, options, [s.row() for s in self.seats], players)

    async def rematch_failed(self) -> None:
        """Every player is told, the others who asked meanwhile included (they were waiting for it)."""
        self._rematching = False
        text = error("the rematch could not be made; please try again")
        for s in self.seats:
            for c in s.conns:
                c.send(text)

    async def rematch_made(self, code: str, tokens: dict[int, str], by: int) -> None:
        self._rematching = False
        self.rematch_code, self._rematch_tokens, self._rematch_by = code, tokens, by
        self._broadcast({"kind": "rematch", "code": code, "seat": by})
        try:  # kept with the finished match, so its page shows the way on once the table is put away
            options = {**self.options, REMATCH: {"code": code, "seat": by, "players": sorted(tokens)}}
            await self.store.run(self.store.storage.set_options, self.id, options)
        except LeaseLost:  # another server took the finished table up (this one paused past its lease)
            self.lost = True
        except Exception:
            log.exception("table %s: could not store where the rematch is", self.id)
        for s in self.seats:
            self._tell_rematch(s.seat)

    def _tell_rematch(self, seat: int) -> None:
        """Give ``seat``'s connections its seat token at the rematch (the one secret meant for it alone)."""
        token = self._rematch_tokens.get(seat)
        if token is None:
            return
        told = {"type": "rematch", "code": self.rematch_code, "seat": seat, "token": token, "by": self._rematch_by}
        text = dumps(told)
        for c in self.seats[seat].conns:
            c.send(text)

    def players(self) -> list[str]:
        return [player_name(s.kind, s.name, s.bot_level) for s in self.seats]

    # -- connections --------------------------------------------------------------------------------

    def all_connections(self) -> list[Connection]:
        return [c for s in self.seats for c in s.conns] + list(self.spectators)

    def _players_here(self) -> bool:
        """Whether a person is at one of the seats (spectators and programs playing a seat are not)."""
        return any(self._person_at(s) for s in self.seats)

    @staticmethod
    def _person_at(state: SeatState) -> bool:
        """Whether a person has the seat open (a program playing it does not count: it neither keeps a
        deserted match going nor takes over the hosting of a lobby, which it would never start)."""
        return state.kind == "human" and any(not c.automated for c in state.conns)

    async def attach(self, conn: Connection, token: str | None, last: int | None, epoch: str | None) -> None:
        """A connection says hello: bind it to its token's seat, then catch it up or resync it. The token
        is read here, in the table's turn, so a seat freed (or its token replaced) by a job queued ahead
        of this one is never taken with the old token."""
        seat = self.seat_of_token(token)
        if token and seat is None:
            conn.send(error("that seat token is not valid at this table; you are watching", "bad_token"))
        conn.seat = seat
        state: SeatState | None = None
        self.attached = True
        if seat is None:
            self.spectators.add(conn)
            self._watching_changed()
        else:
            state = self.seats[seat]
            was_here = bool(state.conns)
            state.conns.add(conn)
            state.gone_since = None
            state.program = conn.automated
            state.came = True
            if self.nobody_back and not conn.automated:
                self.nobody_back = False
                now = time.monotonic()
                for s in self.seats:
                    if s.kind == "human" and not s.conns and s.gone_since is None:
                        s.gone_since = now
        welcome = {"type": "welcome", "table": self.id, "seat": seat, "epoch": self.epoch, "n": self.n}
        conn.send(dumps({**welcome, "chat": list(self.chat_log)}))
        oldest = self.events[0][0] if self.events else self.n + 1
        view_json = views_json(self.match, [seat], lobby=self.status == "lobby")[seat]
        if epoch == self.epoch and last is not None and oldest - 1 <= last <= self.n:
            missed = [self._event_for(e, seat) for n, e in self.events if n > last]
            conn.send(dumps({"type": "catchup", "from": last, "events": missed}))
            conn.send(self._update(None, seat, dumps(self._info()), view_json, resync=False))
        else:
            conn.send(self._update(None, seat, dumps(self._info()), view_json, resync=True))
        # Only now the events this connection causes: broadcast before the welcome, a "back" reached it
        # ahead of the welcome and then again in the catchup.
        if state is not None:
            if state.away:
                self._reclaim(state)
            if not was_here:  # a second tab of a seat already here changes nothing the others see
                self._presence_changed()
            if self.rematch_code is not None:  # back after the others went on: his seat there waits for him
                self._tell_rematch(state.seat)

    async def detach(self, conn: Connection) -> None:
        conn.closed = True
        if conn.seat is None:
            self.spectators.discard(conn)
            self._watching_changed()
            self._wait_if_empty()
            return
        state = self.seats[conn.seat]
        state.conns.discard(conn)
        if not state.conns and state.kind == "human":
            state.gone_since = time.monotonic()
            self._wait_if_empty()
            self._presence_changed()

    def _presence_changed(self) -> None:
        """A player came or went: a ``seats`` event now or, past the limit, one held back until the
        limit allows it, saying how things stand by then (however many came and went meanwhile)."""
        if self._presence_due is not None:
            return  # the one held back will say it
        if self._presence.ready():
            self._tell_presence()
        else:
            self._presence_due = time.monotonic() + self._presence.wait()

    def _tell_presence(self) -> None:
        self._presence.take()
        self._broadcast({"kind": "seats"})

    def _watching_changed(self) -> None:
        """The number of spectators changed: tell everyone soon, at most once per ``WATCHING_EVERY``
        seconds however many come and go (so that opening and closing the link cannot flood the
        players), and as a plain message rather than a numbered event, which a catch-up would replay."""
        if self._watching_due is None:
            self._watching_due = max(time.monotonic(), self._watching_at + WATCHING_EVERY)

    def _tell_watching(self) -> None:
        self._watching_due = None
        count = len(self.spectators)
        if count == self._watching_sent:
            return
        self._watching_sent = count
        self._watching_at = time.monotonic()
        text = dumps({"type": "watching", "spectators": count})
        for c in self.all_connections():
            c.send(text)

    def _wait_if_empty(self) -> None:
        """The last player has left: wait for the players as after a restart (bots play their own
        seats only; no grace period or move timer runs) instead of letting bots play the match out in an
        empty room, with the players' names in the history, while they are away for the night. Those
        watching through the link do not count (a visitor must not have the match played out), but
        keep the table loaded; with nobody at all, ``Hub.sweep`` parks it."""
        if not self.all_connections():
            self.empty_since = time.monotonic()
        if self._players_here() or self.finished or not any(s.kind == "human" for s in self.seats):
            return
        self.nobody_back = True
        for s in self.seats:
            s.away = False
            s.gone_since = None
        self._bot_due = None

    # -- messages -----------------------------------------------------------------------------------

    def _event_for(self, event: dict[str, Any], seat: int | None) -> dict[str, Any]:
        """An event as ``seat`` may see it: in hidden doubling nobody else learns who doubled what."""
        if event["kind"] != "action":
            return event
        action = event["action"]
        shown = A.to_str(action)
        if action in _DOUBLING_ACTIONS and self.rules.doubling_reveal == "hidden" and seat != event["seat"]:
            shown = "answered"
        return {"kind": "action", "seat": event["seat"], "action": shown, "n": event["n"]}

    def _info(self) -> dict[str, Any]:
        m = self.match
        remaining = None
        if self._deadline is not None:
            remaining = max(0.0, round(self._deadline - time.monotonic(), 1))
        return {
            "id": self.id,
            "status": self.status,
            "host_seat": self.host_seat,
            # a seat whose player left: seconds until a bot takes it over (the grace period), else None
            "seats": [{**s.info(), "away_in": self._away_in(s)} for s in self.seats],
            "options": {k: v for k, v in self.options.items() if k != HEIRS},
            **seed_facts(self.seed, self.options),
            "preset": self.rules.preset_name,
            # whose turn it is, but not in the lobby: the first deal's first turn is its king's, the 7♥'s holder
            "timer": {
                "seat": m.turn if self.status != "lobby" else None,
                "remaining": remaining,
                "total": self.options.get("timer") or 0,
            },
            "ready": sorted(self._ready) if m.phase == Phase.DEAL_OVER else [],
            "next_deal_in": self._next_deal_in(),
            # the tiebreak under way, if the regular deals ended with a tie for the lead
            "tiebreak": self.rules.tiebreak if m.tiebreak_deal or m.kingdoms_total > self.rules.kingdoms else None,
            "spectators": len(self.spectators),
            # who asked, and the seats of the players who have a seat there (bots took the others)
            "rematch": None
            if self.rematch_code is None
            else {"code": self.rematch_code, "seat": self._rematch_by, "players": sorted(self._rematch_tokens)},
            "deal_points": deal_points(m),
        }

    def _away_in(self, s: SeatState) -> float | None:
        """Seconds until a bot stands in for a player who lost his last connection, while his grace period
        runs (a match in play, someone at the table), or his move timer if that ends first; None when he is
        there, already away, or nothing runs."""
        if self.status != "playing" or self.nobody_back or s.kind != "human" or s.away or s.conns:
            return None
        if s.gone_since is None:
            return None
        due = s.gone_since + self.settings.grace
        if self._deadline is not None and self.match.turn == s.seat:  # his move timer runs out first
            due = min(due, self._deadline)
        return max(0.0, round(due - time.monotonic(), 1))

    def _update(self, event: dict[str, Any] | None, seat: int | None, info: str, view_json: str, resync: bool) -> str:
        """One ``update`` message: the event as ``seat`` may see it, its view, and the table's public facts."""
        shown = "null" if event is None else dumps(self._event_for(event, seat))
        head = f'{{"type":"update","n":{self.n},"epoch":"{self.epoch}","resync":{"true" if resync else "false"}'
        return f'{head},"event":{shown},"table":{info},"view":{view_json}}}'

    def _broadcast(self, event: dict[str, Any]) -> None:
        self._arm_timer()
        self.n += 1
        event = {**event, "n": self.n}
        self.events.append((self.n, event))
        seats: list[int | None] = [s.seat for s in self.seats if s.conns]
        if self.spectators:
            seats.append(None)
        if not seats:
            return
        info = dumps(self._info())
        self._watching_sent = len(self.spectators)  # every update carries the count
        texts = views_json(self.match, seats, lobby=self.status == "lobby")
        for s in self.seats:
            if s.conns:
                text = self._update(event, s.seat, info, texts[s.seat], resync=False)
                for c in s.conns:
                    c.send(text)
        if self.spectators:
            text = self._update(event, None, info, texts[None], resync=False)
            for c in self.spectators:
                c.send(text)

    def summary(self) -> dict[str, Any]:
        """Public facts about the table for the lobby page (no hands, no tokens)."""
        info = self._info()
        info["rules"] = self.rules.option_dict()
        info["deals_dealt"] = len(self.match.deals)  # a count (the view's deal_number counts from 0)
        return info
