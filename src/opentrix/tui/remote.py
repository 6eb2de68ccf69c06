"""The terminal table at a server's table: ``opentrix join LINK``.

The same screen and keys as a match against bots (``PlayApp``), fed by the server instead of a local
match: every update brings this seat's view (``View.from_dict``), moves go over the WebSocket
(``opentrix.client.TableLink``), and the server decides everything (bots, timers, the next deal).
A friend in a terminal sits at the same table as friends in browsers.
"""

from __future__ import annotations

import asyncio
import contextlib
import random
import time
from collections.abc import Sequence
from pathlib import Path
from typing import Any, ClassVar

from rich.cells import cell_len
from rich.text import Text
from textual import events, work
from textual.binding import Binding, BindingType
from textual.css.query import NoMatches

from .. import actions as A
from ..bots import Bot
from ..client import (
    ANSWER_PAUSE,
    CHAT_LENGTH,
    ClientError,
    Seat,
    TableAddress,
    TableLink,
    TableState,
    a_bot,
    decision_key,
    start_match,
)
from ..deal import Phase
from ..view import View
from . import render
from .glyphs import Glyphs
from .play_app import ChatSheet, PlayApp, TextSheet, too_small
from .seats import keep_seat
from .session import SEAT_NAMES, SHORT_NAMES, describe_action, in_your_words, phrase

NAME_WIDTH = 12  # a player's name in the header and the seats; longer ones are cut
# Seconds within which a second Enter starts a lobby whose seated players are not all there: one Enter
# too many (the rematch asked for at the final standings, then Enter again in its lobby) must not
# start the match before the friends sitting there have come, leaving their seats to stand-in bots.
START_AGAIN = 10.0


class RemoteSession:
    """A seat (or a spectator's place) at a server's table, as the play screen asks for it."""

    seed = 0  # the table's seed stays on the server (unless its host chose it: then the page says it)
    save_path: Path | None = None  # the server keeps the record
    save_error: str | None = None

    def __init__(self, where: TableAddress, seat: Seat | None) -> None:
        self.where = where
        self.token = seat.token if seat is not None else None
        self.state = TableState(seat=seat.seat if seat is not None else None)
        self.link: TableLink | None = None
        self.notice = ""
        self.outbox: list[dict[str, Any]] = []  # what play() asked to send; the app sends it in order

    @property
    def seat(self) -> int:
        return self.state.seat if self.state.seat is not None else 0  # a spectator sees seat 0 at the bottom

    @property
    def watching(self) -> bool:
        return self.state.seat is None

    def view(self) -> View:
        if self.state.view is None:
            raise RuntimeError("no view yet: the match has not started")
        return self.state.view

    @property
    def your_turn(self) -> bool:
        """(Not between a welcome from a table loaded afresh and its first update: the view is old then,
        and a move could not say which update it was chosen on.)"""
        return self.state.view is not None and self.state.view.to_act and self.state.n is not None

    def bot_to_act(self) -> int | None:
        return None  # the server's bots play their own seats

    def _human(self, seat: int) -> str | None:
        name = self.full_name(seat)
        if name is None or cell_len(name) <= NAME_WIDTH:
            return name
        return render.cells(name, NAME_WIDTH - 1) + "…"  # cut by its width on screen: 山田 takes four cells

    def _where(self, seat: int, short: bool = False) -> str:
        """A bot's seat by where it sits from you (``Right``); a spectator, who sits nowhere, by number."""
        if self.watching:
            return f"S{seat + 1}" if short else f"Seat {seat + 1}"  # numbered as the lobby numbers them
        return (SHORT_NAMES if short else SEAT_NAMES)[(seat - self.seat) % 4]

    def name(self, seat: int) -> str:
        """You, a friend by his name, a bot by where it sits and its level (``Right (hard)``)."""
        if seat == self.state.seat:
            return "You"
        human = self._human(seat)
        if human is not None:
            return human
        seats = self.state.info.get("seats") or []
        level = seats[seat].get("level") if seat < len(seats) else None
        return f"{self._where(seat)} ({level})" if level else self._where(seat)

    def header_names(self) -> Sequence[str]:
        """Bots by where they sit, without their level (as against bots)."""
        return ["You" if s == self.state.seat else self._human(s) or self._where(s) for s in range(4)]

    def short_names(self) -> Sequence[str]:
        """The score table's column heads, told apart by their seat where four letters do not (two Mohammeds)."""
        names = [self.full_name(s) if s != self.state.seat else "You" for s in range(4)]
        heads = [n if n is not None else self._where(s, short=True) for s, n in enumerate(names)]
        return render.short_heads(heads, first=1)  # seats numbered as the lobby numbers them

    def full_name(self, seat: int) -> str | None:
        """A friend's name as the table has it (uncut: two long names may differ only at the end), or None."""
        seats = self.state.info.get("seats") or []
        if seat < len(seats) and seats[seat].get("kind") == "human":
            return str(seats[seat].get("name") or "Player")
        return None

    def progress(self) -> tuple[int, ...]:
        v = self.state.view
        return (-1,) if v is None else decision_key(v)

    def play(self, action: int) -> None:
        """Ask the server to make this move (it answers with the next view, or an error), for the turn
        of the last update seen: if a stand-in played it meanwhile, the table refuses it."""
        self.outbox.append({"type": "act", "action": A.to_str(action), "after": self.state.n})

    def bot_inputs(self, seat: int) -> tuple[Bot, View, list[int]]:
        raise RuntimeError("the server plays the bots")

    def apply_bot(self, seat: int, action: int) -> str | None:
        raise RuntimeError("the server plays the bots")

    def next_deal(self) -> None:
        self.outbox.append({"type": "next"})

    def another(self) -> tuple[RemoteSession, Path | None]:
        raise ValueError("a rematch is asked for on the table's web page")


class RemoteApp(PlayApp):
    """``PlayApp`` at a server's table: drawn from the server's updates, moves sent over the WebSocket."""

    BINDINGS: ClassVar[list[BindingType]] = [  # the server keeps the pace: no pause to skip or change
        Binding("space", "hurry", show=False),
        Binding("less_than_sign", "slower", show=False),
        Binding("greater_than_sign", "faster", show=False),
    ]

    def __init__(self, session: RemoteSession, glyphs: Glyphs | None = None) -> None:
        super().__init__(session, glyphs, pause=0.0)
        self.remote = session
        self.failed: str | None = None  # why the table cannot be reached any more (the app then exits)
        self.answered: tuple[int, ...] | None = None  # the decision a forced answer was sent for
        self.timer_read = 0.0  # time.monotonic() when the table's move timer was last told
        self.chat_text: str | None = None  # what you are writing to the table, after "/"; None: not writing
        # (seat, name) of the players whose messages this screen hides, as the web page keys them; kept
        # for the rematch, where the same people sit
        self.muted: set[tuple[int, str]] = set()
        self.sending: set[asyncio.Task[None]] = set()
        self.send_lock = asyncio.Lock()
        # the point of the match a message was about ("Ready for the next deal…"): it goes once the
        # table has moved on from there (the next deal dealt, the match begun); None: it stays
        self.message_for: tuple[int, ...] | None = None
        self.start_asked: float | None = None  # when Enter last asked to start a lobby with someone missing

    def say(self, text: str | Text, style: str = "", until_turn: bool = False, until_change: bool = False) -> None:
        """``until_change``: the message is about this point of the match, and goes when the table moves on."""
        super().say(text, style, until_turn)
        self.message_for = self.remote.progress() if until_change else None

    # -- the connection --------------------------------------------------------------------------------

    def on_mount(self) -> None:
        self.set_class(self.g.ascii, "-ascii")
        self.say(f"Connecting to {self.remote.where.page}…", style="dim")
        self.refresh_table()
        self.keep_link()
        self.set_interval(1.0, self.tick)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """No hint for a spectator (the footer leaves it out)."""
        remote = getattr(self, "remote", None)  # (asked before __init__ is done, too)
        return not (action == "hint" and remote is not None and remote.watching)

    def on_unmount(self) -> None:
        """Closing: let the table go, so no message arrives to a screen that is no longer there."""
        if self.remote.link is not None:
            task = asyncio.get_running_loop().create_task(self.remote.link.close())
            self.sending.add(task)
            task.add_done_callback(self.sending.discard)

    def put(self, widget: str, text: Text) -> None:
        with contextlib.suppress(NoMatches):  # drawn as the screen closes (the status tick): nothing to draw on
            super().put(widget, text)

    def tick(self) -> None:
        """The status line follows the connection and the move timer between the server's updates."""
        self.put("#status", self.status_line())

    def timer_left(self) -> tuple[int, float] | None:
        """Whose move the table's timer is running on, and the seconds left."""
        timer = self.remote.state.info.get("timer") or {}
        if not timer.get("total") or timer.get("seat") is None or timer.get("remaining") is None:
            return None
        return int(timer["seat"]), max(0.0, float(timer["remaining"]) - (time.monotonic() - self.timer_read))

    @property
    def away(self) -> bool:
        """A bot stands in for you (your move timer ran out): Enter takes the seat back."""
        seats = self.remote.state.info.get("seats") or []
        me = self.remote.state.seat
        return me is not None and me < len(seats) and bool(seats[me].get("away"))

    @work(exclusive=True, group="link")
    async def keep_link(self) -> None:
        """Hold the WebSocket for as long as the screen is open; a table gone for good ends the app."""
        r = self.remote
        r.link = TableLink(r.where, r.token, self.take_message, r.state)
        try:
            await r.link.run()
        except ClientError as e:
            self.failed = str(e)  # said by the command once the screen is closed
            self.exit(return_code=1)

    async def take_message(self, message: dict[str, Any]) -> None:
        """A message that comes as the screen closes has nothing left to draw on: it is dropped, not
        a failure of the link's worker (drawing it queries widgets already gone)."""
        with contextlib.suppress(NoMatches):
            await self.on_table_message(message)

    async def on_table_message(self, message: dict[str, Any]) -> None:
        kind = message.get("type")
        s = self.remote.state
        self.names = [self.remote.name(seat) for seat in range(4)]  # friends sit down, bots stand in
        if kind == "welcome":
            self.say("")
            self.answered = None  # a forced answer lost with the old connection is sent again
            self.refresh_bindings()  # seated or watching is known now
            if self.remote.token and s.seat is None:
                self.say("That seat's token is not valid at this table any more: you are watching.", "bold")
        elif kind == "update":
            self.timer_read = time.monotonic()
            event = message.get("event")
            if event and event.get("kind") == "action" and event.get("seat") != s.seat:
                self.last_event = self.told_event(event)
            if self.message_until_turn and self.remote.your_turn:
                self.say("")
        elif kind == "error":
            said = in_your_words(str(message.get("message")), self.remote.seat, self.remote.header_names())
            self.say(Text("The table says: ", style="bold") + Text(self.g.text(said)))
        elif kind == "hint" and s.view is not None and s.hint is not None:
            action = A.parse(s.hint)
            opts = self.current_choices(s.view)
            for i, o in enumerate(opts):
                if o.action == action:
                    self.cursor = i
            self.say(Text("Hint: ", style="bold") + Text(f"{phrase(action, self.g)} (the table's hard bot)"))
        elif kind == "chat":
            said = message["message"]
            if (said.get("seat"), said.get("name")) not in self.muted:
                self.say(Text(f"{said.get('name')}: ", style="bold") + Text(str(said.get("text"))))
        elif kind == "rematch":
            self.rematch_told(message)
        elif kind == "unseated" and s.seat is None:
            self.refresh_bindings()
            self.say("The host freed your seat: you are watching; opentrix join with --name takes a new one.", "bold")
        if kind in ("update", "welcome", "catchup"):
            if self.message_for is not None and self.remote.progress() != self.message_for:
                self.say("")  # "Ready for the next deal…" in the next deal, "once the match has begun" once it has
            self.step()
        else:
            self.refresh_table()

    def rematch_told(self, message: dict[str, Any]) -> None:
        """Your seat at the rematch (its token is for you only): kept at once, so that ``opentrix join``
        with the new link finds it too; gone to at once if you asked, else when you press Enter."""
        where = TableAddress(self.remote.where.base, str(message["code"]))
        keep_seat(Seat(where, int(message["seat"]), str(message["token"]), ""))
        if message.get("by") == self.remote.state.seat:
            self.call_later(self.go_to_rematch)
        else:
            by = self.remote.name(int(message["by"])) if message.get("by") is not None else "A player"
            self.say(f"{by} asked for a rematch: press Enter to sit down at it ({where.page}).", "bold")

    def go_to_rematch(self) -> None:
        """Leave the finished table for the rematch: a new link, the same screen."""
        told = self.remote.state.rematch
        if told is None:
            return
        where = TableAddress(self.remote.where.base, str(told["code"]))
        old = self.remote.link
        self.remote = RemoteSession(where, Seat(where, int(told["seat"]), str(told["token"]), ""))
        self.session = self.remote
        self.typed, self.cursor, self.last_event = "", 0, ""
        self.decision_key = self.answered = None
        self.say(f"The rematch: table {where.code}.")
        if old is not None:
            asyncio.get_running_loop().create_task(old.close())
        self.keep_link()  # one link at a time: the old one's worker is cancelled
        self.refresh_table()

    # -- the chat --------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """ "/" opens a line to write to the table: every key then goes into it, Enter sends it, Escape
        drops it (moves wait meanwhile, so a word never plays a card)."""
        if isinstance(self.screen, TextSheet):
            return
        if self.chat_text is None:  # PlayApp.on_key runs next (Textual calls each class's handler)
            if event.character == "/" and not self.typed:
                event.stop()
                event.prevent_default()
                self.chat_text = ""  # a spectator writes nothing to the table, but may /mute
                self.refresh_table()
            elif self.remote.state.view is None and event.is_printable:  # the lobby: nothing to type but the chat
                event.stop()
                event.prevent_default()  # (keys like Enter go on to their bindings)
            return
        event.stop()
        event.prevent_default()  # not PlayApp's: every key is the chat's
        if event.key == "enter":
            text, self.chat_text = self.chat_text.strip(), None
            if text.startswith("/") and not text.startswith("//"):
                self.chat_command(text[1:])
            elif text and (self.remote.watching or self.remote.state.seat is None):
                self.say("Spectators read the chat; take a seat to write in it (/mute NAME hides a player's).")
            elif text:
                self.remote.outbox.append({"type": "chat", "text": text.removeprefix("/")})
                self.flush("the message")
        elif event.key == "escape":
            self.chat_text = None
        elif event.key == "backspace":
            self.chat_text = self.chat_text[:-1]
        elif event.character and event.character.isprintable():
            if len(self.chat_text) < CHAT_LENGTH:
                self.chat_text += event.character
            else:
                self.say(f"A chat message holds {CHAT_LENGTH} characters at most: Enter sends it.")
        self.refresh_table()

    def chat_command(self, line: str) -> None:
        """A chat line that begins with "/" is for this screen, never sent (``//`` sends one "/"):
        ``/log`` shows the chat so far, ``/mute NAME`` hides a player's messages here, as the web
        page's chat can, ``/unmute NAME`` shows them again, ``/mute`` alone says whose are hidden."""
        word, _, name = line.strip().partition(" ")
        word, name = word.casefold(), name.strip()
        if word == "log":
            self.push_screen(ChatSheet(self.chat_log()))
            return
        if word not in ("mute", "unmute"):
            self.say(
                "/log shows the chat so far, /mute NAME hides a player's messages, /unmute NAME shows "
                "them again; // begins a message with /."
            )
            return
        if not name:
            hidden = sorted({n for _, n in self.muted}, key=str.casefold)
            self.say(
                f"Hidden here: {', '.join(hidden)}. /unmute NAME shows one again."
                if hidden
                else "Nobody's messages are hidden. /mute NAME hides a player's."
            )
            return
        seats = self.remote.state.info.get("seats") or []
        players = {
            s: str(row.get("name") or "")
            for s, row in enumerate(seats)
            if row.get("kind") == "human" and s != self.remote.state.seat
        }
        if word == "unmute":
            players |= {s: n for s, n in self.muted}  # one who has left the table can be shown again
        found = [(s, n) for s, n in players.items() if n.casefold() == name.casefold()]
        if not found:
            others = ", ".join(sorted(set(players.values()), key=str.casefold)) or "none"
            self.say(f"No other player here is named {name!r} (players: {others}).")
        elif word == "mute":
            self.muted.update(found)
            self.say(f"{found[0][1]}'s messages are hidden here. /unmute {found[0][1]} shows them again.")
        else:
            self.muted.difference_update(found)
            self.say(f"{found[0][1]}'s messages are shown again.")

    def chat_log(self) -> Text:
        """The table's chat so far (the last messages the server keeps), those hidden by /mute left out
        and counted."""
        log = Text(f"Chat at table {self.remote.where.code}\n", style="bold")
        hidden: dict[str, int] = {}
        for said in self.remote.state.chat:
            name = str(said.get("name"))
            if (said.get("seat"), said.get("name")) in self.muted:
                hidden[name] = hidden.get(name, 0) + 1
            else:
                log += Text(f"{name}: ", style="bold") + Text(f"{said.get('text')}\n")
        if not self.remote.state.chat:
            log += Text("Nobody has written yet.\n", style="dim")
        for name, n in hidden.items():
            log += Text(f"({n} from {name} hidden: /unmute {name} shows them)\n", style="dim")
        return log + Text("Esc closes this.", style="dim")

    def action_enter(self) -> None:
        if self.chat_text is not None:
            return  # on_key has sent it
        self.chat_enter()

    def action_backspace(self) -> None:
        if self.chat_text is None:
            super().action_backspace()

    def action_clear(self) -> None:
        if self.chat_text is None:
            super().action_clear()

    def told_event(self, event: dict[str, Any]) -> str:
        seat, shown = int(event["seat"]), str(event["action"])
        if shown == "answered":  # hidden doubling: that a seat answered, not what
            return f"{self.remote.name(seat)} has answered"
        return describe_action(seat, A.parse(shown), self.g, self.remote.header_names())

    def flush(self, what: str = "the move") -> bool:
        """Send what the session was asked to send; False when the line is down and nothing went, which
        the screen then says (``what`` names it), so the caller does not go on as if it had."""
        link = self.remote.link
        out, self.remote.outbox = self.remote.outbox, []
        if not out:
            return True
        if link is None or not link.connected.is_set():
            self.say(f"Not connected: {what} was not sent. Trying to reconnect…", "bold")
            self.refresh_table()
            return False
        task = asyncio.get_running_loop().create_task(self.send_in_order(link, out))
        self.sending.add(task)  # kept until done: a task nobody holds may be collected mid-send
        task.add_done_callback(self.sending.discard)
        return True

    async def send_in_order(self, link: TableLink, out: list[dict[str, Any]]) -> None:
        async with self.send_lock:
            for message in out:
                if not await link.send(message):
                    self.answered = None
                    if message.get("type") == "act":  # the status line must not say it was played
                        self.last_event = ""
                    self.say("The line dropped: that was not sent. Trying to reconnect…", "bold")
                    self.refresh_table()
                    return

    # -- flow ------------------------------------------------------------------------------------------

    def step(self) -> None:
        self.answer_forced()
        self.refresh_table()
        self.turn_began = time.monotonic()

    def answer_forced(self) -> None:
        """Answered for you once per question, as at a table against bots: no redeal to claim, nothing
        to double, the kingdom's last contract."""
        v = self.remote.state.view
        if v is None or not v.to_act or self.away or len(v.legal_actions) != 1 or A.is_card(v.legal_actions[0]):
            return  # (away, the bot standing in answers: a move of yours would take the seat back)
        only = v.legal_actions[0]
        if not (A.is_contract(only) or only in (A.NO_CLAIM, A.NO_DOUBLE)):
            return
        asked = self.remote.progress()
        if self.answered == asked:
            return
        self.answered = asked
        if A.is_contract(only):  # the contracts left are public: no secret in naming the last one at once
            if v.tiebreak_deal:
                self.say(f"The tiebreak deal is {A.contract_of(only).title}: it is named for you.")
            else:
                self.say(f"Only {A.contract_of(only).title} is left in your kingdom: it is named for you.")
            self.remote.play(only)
            self.flush()
            return
        self.set_timer(random.uniform(*ANSWER_PAUSE), lambda: self.answer_later(asked, only))

    def answer_later(self, asked: tuple[int, ...], only: int) -> None:
        if self.remote.progress() == asked and self.remote.your_turn and not self.away:
            self.remote.play(only)
            self.flush()

    def submit(self, action: int) -> None:
        v = self.remote.state.view
        if v is None or action not in v.legal_actions:
            if A.is_card(action) and v is not None and action not in (v.hand or ()):
                why = f"you do not hold {self.g.card(action)}"
            elif A.is_card(action) and v is not None and v.phase == Phase.PLAY:
                why = f"{self.g.card(action)} may not be played now (the line above says what may)"
            else:
                why = "that is not an answer to this question"
            self.say(Text("Not allowed: ", style="bold") + Text(self.g.text(why)))
            self.refresh_table()
            return
        if self.away:  # a move of your own is your seat taken back first
            self.remote.outbox.append({"type": "back"})
        self.remote.play(action)
        if not self.flush():
            return  # not sent, and said so: nothing was played
        self.say("")
        self.enter_hurried = False
        self.last_event = describe_action(self.remote.seat, action, self.g, self.remote.header_names())
        self.refresh_table()

    def chat_enter(self) -> None:
        """Enter when not writing in the chat: start the match, take the seat back, play, be ready."""
        s = self.remote.state
        if s.in_lobby:
            missing = self.not_here()
            now = time.monotonic()
            if s.host and missing and (self.start_asked is None or now - self.start_asked > START_AGAIN):
                self.start_asked = now
                self.say(f"{missing}: press Enter again to start without waiting.", "bold")
                self.refresh_table()
            elif s.host:
                self.start_asked = None
                self.start_the_match()
            else:
                self.say("The host starts the match; the table begins for everyone then.", until_change=True)
                self.refresh_table()
            return
        v = s.view
        if v is None:
            return
        if self.away and not self.typed:
            self.remote.outbox.append({"type": "back"})
            if self.flush("the request for your seat back"):
                self.say("Your seat is yours again.")
                self.refresh_table()
            return
        if self.typed and self.remote.watching:
            text, self.typed = self.typed, ""
            self.say(f"'{text}': you are watching; spectators do not play.")
            self.refresh_table()
            return
        if self.typed or v.to_act:
            super().action_enter()
        elif v.match_over and self.remote.watching:
            self.say("The match is over. Ctrl+Q leaves; the record stays on the server.")
            self.refresh_table()
        elif v.match_over and s.rematch is not None:
            self.go_to_rematch()
        elif v.match_over:
            self.remote.outbox.append({"type": "rematch"})
            if self.flush("the request for a rematch"):
                self.say("Asking for a rematch…", "dim")
                self.refresh_table()
        elif v.phase == Phase.DEAL_OVER and not self.remote.watching:
            self.remote.next_deal()
            if self.flush("'ready for the next deal'"):
                self.say("Ready for the next deal: it starts when everyone is.", "dim", until_change=True)
                self.refresh_table()

    def not_here(self) -> str:
        """The players seated in the lobby who have not come (or have gone), in words; "" if none."""
        seats = self.remote.state.info.get("seats") or []
        gone = [
            self.remote.name(i)
            for i, x in enumerate(seats)
            if x.get("kind") == "human" and not x.get("connected") and i != self.remote.state.seat
        ]
        if not gone:
            return ""
        return f"{', '.join(gone)} {'is' if len(gone) == 1 else 'are'} not here yet"

    @work(exclusive=True, group="start")
    async def start_the_match(self) -> None:
        try:
            seat = Seat(self.remote.where, self.remote.seat, self.remote.token or "", "")
            await asyncio.to_thread(start_match, seat)
        except ClientError as e:
            self.say(f"Not started: {e}")
            self.refresh_table()

    def action_move(self, delta: int) -> None:
        if self.chat_text is None and self.remote.state.view is not None:
            super().action_move(delta)

    def not_begun(self, why: str) -> bool:
        """Before the match there is no view to draw a sheet from: say ``why`` instead (until it begins)."""
        if self.remote.state.view is not None:
            return False
        self.say(why, until_change=True)
        self.refresh_table()
        return True

    def action_scores(self) -> None:
        if not self.not_begun("The score sheet opens once the match has begun."):
            super().action_scores()

    def action_rules(self) -> None:
        if not self.not_begun("The rules open once the match has begun; until then the web page shows them."):
            super().action_rules()

    def action_hint(self) -> None:
        if self.chat_text is not None:
            return  # a "?" in a chat message
        v = self.remote.state.view
        if v is None or not v.to_act:
            self.say("Hints are for your turn.", until_turn=True)
            self.refresh_table()
            return
        self.remote.state.hint = None
        self.remote.outbox.append({"type": "hint"})
        if self.flush("the request for a hint"):
            self.say("Asking the table for a hint…", "dim")
            self.refresh_table()

    def action_hurry(self) -> None:
        pass  # the server keeps the pace

    # -- drawing ---------------------------------------------------------------------------------------

    def hand_row(self, v: View) -> Text:
        if self.remote.watching:  # no hand of one's own, not an empty one
            return Text("Watching: the players' hands are hidden from spectators", style="dim")
        return super().hand_row(v)

    def refresh_table(self) -> None:
        s = self.remote.state
        if s.view is not None:
            super().refresh_table()
            self.put_chat_line()
            return
        header = too_small(self.size, Text(f"opentrix · table {self.remote.where.code}", style="bold"))
        self.put("#header", header)
        self.put("#status", self.status_line())
        self.put("#table", self.lobby_text())
        self.put("#scores", Text(""))
        self.put("#hand", Text(""))
        if not s.info:
            prompt = Text("")
        elif s.host:
            prompt = Text("You are the host: press Enter to start (bots take the empty seats).", style="bold")
        elif self.remote.watching:
            prompt = Text("You are watching; the host starts the match.")
        else:
            prompt = Text("Waiting for the host to start the match…", style="dim")
        self.put("#message", self.message)
        self.put("#entry", Text(""))
        self.put_chat_line()
        self.fit(header, lambda width, compact: prompt)  # as at the table: the line you type on stays

    def put_chat_line(self) -> None:
        if self.chat_text is None:
            return
        room = max(10, self.size.width - 30)
        shown = self.chat_text if len(self.chat_text) <= room else self.g.ellipsis() + self.chat_text[-room + 1 :]
        cursor = "▏" if not self.g.ascii else "_"
        if not self.chat_text:  # the line's own commands begin with a "/" of their own: "//log"
            hint = "  a message, or /log · /mute NAME · Esc drops"
        elif (said := self.chat_text.lstrip()).startswith("/") and not said.startswith("//"):  # as Enter reads it
            hint = "  Enter: for this screen only, not sent · Esc drops"
        else:
            hint = "  Enter sends · Esc drops"
        line = Text("chat> ", style="bold") + Text(shown) + Text(cursor) + Text(hint, style="dim")
        self.put("#entry", line)

    def lobby_text(self) -> Text:
        s = self.remote.state
        t = Text()
        if not s.info:
            return t
        t.append(f"Table {self.remote.where.code} · waiting to start\n\n", style="bold")
        for seat, info in enumerate(s.info.get("seats") or []):
            name = self.remote.name(seat)
            if info.get("kind") == "open":
                name = f"open ({a_bot(info.get('level'))} if nobody sits)"
            elif info.get("kind") == "bot":
                name = f"bot ({info.get('level')})"
            marks = " · host" if seat == s.info.get("host_seat") else ""
            t.append(f"  seat {seat + 1}: {name}{marks}\n")  # from 1, as the web lobby and --seat count
        t.append(f"\nInvite: {self.remote.where.page}", style="dim")
        return t

    def status_line(self) -> Text:
        link = self.remote.link
        up = link is not None and link.connected.is_set()
        t = Text(f"table {self.remote.where.code}")
        t.append(" · connected" if up else " · reconnecting…", style="" if up else "bold")
        if self.remote.watching:
            t.append(" · watching")
        timer = self.timer_left()
        if timer is not None:
            whose = "your move" if timer[0] == self.remote.state.seat else f"{self.remote.name(timer[0])}'s move"
            t.append(f" · {whose}: {timer[1]:.0f} s", style="bold" if timer[0] == self.remote.state.seat else "")
        if self.last_event:
            t.append(f" · {self.last_event}")
        return t

    def prompt(self, v: View, width: int = 80, compact: bool = False) -> Text:
        if v.match_over:
            result = render.result(v.winners, v.totals, v.rules.partnership, self.names) if v.winners else "over"
            if self.remote.watching:
                return Text(f"The match is over: {result}.\nCtrl+Q leaves.", style="bold")
            again = "go to the rematch" if self.remote.state.rematch is not None else "ask for a rematch"
            return Text(f"The match is over: {result}.\nPress Enter to {again}, Ctrl+Q to leave.", style="bold")
        if v.phase == Phase.DEAL_OVER:
            said = super().prompt(v, width, compact)
            head = said.plain.split("\n")[0]
            if self.remote.watching:
                return Text(head + "\nThe next deal starts when the players are ready.")
            ready = (self.remote.state.info or {}).get("ready") or []
            if self.remote.state.seat in ready:
                return Text(head + "\nReady: the next deal starts when everyone is.")
            return said
        if self.remote.watching:
            who = self.remote.name(v.turn) if v.turn is not None else "the table"
            return Text(f"Watching: {who} to play.", style="dim")
        if not v.to_act and not self.away:
            who = self.remote.name(v.turn) if v.turn is not None else "the table"
            return Text(self.g.text(f"Waiting for {who}…\n"), style="dim") + Text("/ writes in the chat", style="dim")
        if self.away:
            return Text(
                "A bot is playing for you: your move timer ran out.\nPress Enter to take your seat back.", style="bold"
            )
        return super().prompt(v, width, compact)

    def action_slower(self) -> None:
        pass

    def action_faster(self) -> None:
        pass
