"""The Textual screen for a match against three bots, driven entirely from the keyboard.

Everything drawn comes from ``view(match, 0)``. Bots think in a worker thread so keys keep working
while they do, and a short, adjustable pause between their cards lets you follow the trick.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Callable
from typing import ClassVar

from rich.text import Text
from textual import events, work
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, VerticalScroll
from textual.screen import ModalScreen
from textual.scrollbar import ScrollBarRender
from textual.widgets import Footer, Static

from .. import actions as A
from ..bots import Bot
from ..contracts import Contract
from ..deal import Phase, redeal_grounds
from ..errors import TrixError
from ..view import View
from . import render
from .base import TrixApp
from .glyphs import Glyphs, hand_order
from .session import (
    Choice,
    InputError,
    Seated,
    choices,
    describe_action,
    hint_bot,
    in_your_words,
    parse_input,
    phrase,
)

PAUSES = (0.0, 0.15, 0.3, 0.6, 1.0, 1.6, 2.5)  # seconds between bot actions; < and > step through them
TYPED_CHARS = set("0123456789abcdefghijklmnopqrstuvwxyz♠♥♦♣_")
# After Enter has hurried the bots, it plays nothing until it has rested this long (seconds) and the
# turn has been yours this long: pressed again and again to hurry, it must not play the card that
# happens to be selected the moment your turn comes.
ENTER_GRACE = 0.6

MIN_SIZE = (60, 20)  # columns, rows: below this the table cannot be drawn whole
MAX_TYPED = 40  # keys: the longest answer ("double kh qs qh qd qc", 20 keys) fits with room to spare
NARROW = 80  # below this width the score panel cannot fit beside the table; Tab still shows the sheet
TABLE_ROWS = 11  # render.table's rows; PlayApp.fit() leaves out blank ones when the screen is short
HEADER_ROWS = 3  # the most the header wraps to (four doubled cards, and who declined to double)
# The order in which the table's blank rows give way (only rows blank at the moment): the one under the
# top seat, the last trick's, the top card's and the bottom card's, then the middle.
BLANK_ROWS_FIRST = (2, 8, 3, 7, 5, 1, 6, 4, 0, 9, 10)
SHEET_CSS = """
.-ascii #sheet { border: ascii $panel-lighten-2; }
TextSheet { align: center middle; }
RulesSheet #sheet, ChatSheet #sheet { width: 100%; max-width: 78; }
#sheet {
    width: 35; height: auto; max-height: 100%; border: round $panel-lighten-2; padding: 0 1;
    scrollbar-size-vertical: 1;
}
"""
CSS = (
    """
Screen { layout: vertical; }
#header { height: auto; max-height: 3; }  /* doubled cards, and who declined, may need more lines */
#status { height: 1; color: $text-muted; }
#main { height: 13; padding: 1 0; }  /* PlayApp.fit() gives up the padding, then the footer, if short */
#table { width: 51; height: 11; }
#scores { width: 1fr; height: 11; border-left: solid $panel-lighten-2; padding-left: 1; }
.-narrow #scores { display: none; }
.-ascii #scores { border-left: ascii $panel-lighten-2; }
#hand { height: 1; }
#prompt { height: auto; min-height: 2; }  /* PlayApp.fit() sets the heights of these two */
#message { height: auto; min-height: 1; }  /* not 1fr: what you type stays next to the question */
#entry { height: 1; }
"""
    + SHEET_CSS
)


def too_small(size: tuple[int, int], header: Text) -> Text:
    """The top row: ``header``, or below ``MIN_SIZE`` a notice that the screen cannot be drawn whole."""
    width, height = size
    if 0 < width < MIN_SIZE[0] or 0 < height < MIN_SIZE[1]:  # said at the top, the one row sure to show
        return Text(f"Too small ({width}×{height}): needs {MIN_SIZE[0]}×{MIN_SIZE[1]}", style="bold")
    return header


class AsciiScrollBarRender(ScrollBarRender):
    """A scroll bar drawn with spaces only: Textual draws the ends of its thumb with block signs (▆ ▃),
    which an ASCII terminal shows as garbage."""

    VERTICAL_BARS: ClassVar[list[str]] = [" "] * 8
    HORIZONTAL_BARS: ClassVar[list[str]] = [" "] * 8


class TextSheet(ModalScreen[None]):
    """A scrolling sheet of text over the table (arrows, PgUp/PgDn); Escape closes it."""

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,enter,q", "dismiss", "close"),
    ]

    def __init__(self, body: Text) -> None:
        super().__init__()
        self.body = body

    def compose(self) -> ComposeResult:
        with VerticalScroll(id="sheet"):
            yield Static(self.body)

    def on_mount(self) -> None:
        sheet = self.query_one("#sheet", VerticalScroll)
        app = self.app
        if isinstance(app, TrixApp) and app.g.ascii:
            sheet.vertical_scrollbar.renderer = AsciiScrollBarRender  # type: ignore[misc]
            sheet.horizontal_scrollbar.renderer = AsciiScrollBarRender  # type: ignore[misc]
        sheet.focus()


class ScoreSheet(TextSheet):
    """Every finished deal and the totals; any of Escape, Tab or Enter closes it.

    A whole match (20 deals and more) is taller than an 80x24 screen, so the sheet opens at its end,
    where the latest deals and the totals are.
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,tab,enter,q", "dismiss", "close"),
    ]

    def on_mount(self) -> None:
        sheet = self.query_one("#sheet", VerticalScroll)
        self.call_after_refresh(sheet.scroll_end, animate=False)


class RulesSheet(TextSheet):
    """The F1 sheet: what each contract asks and the rules that change play; opens at its top, as
    wide as the screen allows up to 78 columns."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape,f1,enter,q", "dismiss", "close")]


class ChatSheet(TextSheet):
    """The chat so far at a server's table (``/log``), as wide as the rules sheet."""


class PlayApp(TrixApp):
    """You at seat 0 (bottom) against bots at 1 (right), 2 (across) and 3 (left)."""

    CSS = CSS
    TITLE = "opentrix"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("f1", "rules", "rules"),
        Binding("question_mark", "hint", "hint"),
        Binding("space", "hurry", "skip pause"),
        Binding("less_than_sign", "slower", "slower"),
        Binding("greater_than_sign", "faster", "faster"),
        Binding("tab", "scores", "scores", priority=True),
        Binding("left,up", "move(-1)", "choose", show=False),
        Binding("right,down", "move(1)", "choose", show=False),
        Binding("enter", "enter", "play", show=False),
        Binding("backspace", "backspace", show=False),
        Binding("escape", "clear", show=False),
        Binding("ctrl+q", "quit", "quit", priority=True),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, session: Seated, glyphs: Glyphs | None = None, pause: float = 0.6) -> None:
        super().__init__(glyphs)
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (NARROW, "-wide")]  # -narrow hides the score panel
        self.session = session
        self.pause = pause
        self.pauses = tuple(sorted({*PAUSES, pause}))  # < and > step through these; --pause is one of them
        self.typed = ""
        self.cursor = 0
        self.message = Text()
        self.message_until_turn = False  # "it is not your turn" and the like: gone when the turn comes
        self.enter_hurried = False  # Enter has hurried the bots since your last move
        self.turn_began = 0.0  # time.monotonic() when the bots last handed the turn back
        self.last_enter = 0.0
        self.last_event = ""
        self.decision_key: tuple[int, ...] | None = None
        self.hurry = asyncio.Event()
        self._hint_bot: Bot | None = None
        self.hints_given = 0
        self.names = [session.name(s) for s in range(4)]
        self.save_error_told: str | None = None
        self.save_error_said: Text | None = None  # the message that says it, while the message area shows it

    # -- layout ------------------------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        yield Static(id="header")
        yield Static(id="status")
        with Horizontal(id="main"):
            yield Static(id="table")
            yield Static(id="scores")
        yield Static(id="hand")
        yield Static(id="prompt")
        yield Static(id="message")
        yield Static(id="entry")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.g.ascii, "-ascii")
        if self.session.notice:
            self.say(self.session.notice)
        self.refresh_table()
        self.step()

    def on_resize(self, event: events.Resize) -> None:
        """Refit once the new size is in place (this handler runs before Textual records it)."""
        self.call_later(self.refresh_table)

    # -- drawing -----------------------------------------------------------------------------------------

    def current_choices(self, v: View) -> list[Choice]:
        return choices(v, self.g) if v.to_act else []

    def selected_action(self, v: View) -> int | None:
        opts = self.current_choices(v)
        return opts[self.cursor % len(opts)].action if opts else None

    def refresh_table(self) -> None:
        """Redraw everything from the player's view; also resets the cursor when a new decision starts."""
        v = self.session.view()
        key = self.session.progress()
        if key != self.decision_key:
            self.decision_key = key
            self.cursor = 0
        if self.session.save_error != self.save_error_told:  # (before the status line, which points at it)
            self.save_error_told = self.session.save_error
            if self.save_error_told:  # said where it wraps: the path and the reason must both show
                said = self.save_error_told[:1].upper() + self.save_error_told[1:]  # the path keeps its case
                self.say(f"{said}. Play goes on; every move tries again.", "bold")
                self.save_error_said = self.message
        header = too_small(self.size, render.header(v, self.session.header_names(), self.g))
        self.put("#header", header)
        self.put("#status", self.status_line())
        self.put("#hand", self.hand_row(v))
        self.put("#message", self.message)
        entry = Text("> ", style="dim") + Text(self.typed, style="bold") + Text("▏" if not self.g.ascii else "_")
        self.put("#entry", entry)
        self.fit(
            header,
            lambda width, compact: self.prompt(v, width, compact),
            render.table(v, self.g, self.names),
            lambda deals: render.scores(v, self.session.short_names(), max_rows=deals),
        )

    def hand_row(self, v: View) -> Text:
        """Your hand, the selected card in brackets."""
        selected = self.selected_action(v)
        legal = [a for a in v.legal_actions if A.is_card(a)] if v.phase == Phase.PLAY else []
        playing = v.phase == Phase.PLAY and v.to_act
        hand = render.hand_bar(int(v.hand or 0), self.g, legal, selected if selected in legal else None, playing)
        return Text("Hand ", style="dim") + hand

    def rows(self, text: Text, width: int) -> int:
        """How many rows ``text`` takes on screen at ``width`` columns."""
        return len(self.g.plain(text).wrap(self.console, width)) if text.plain else 0

    def fit(
        self,
        header: Text,
        prompt_at: Callable[[int, bool], Text],
        table: Text | None = None,
        scores_at: Callable[[int], Text] | None = None,
    ) -> None:
        """Draw the prompt (``prompt_at(width, compact)``), the table and the score panel
        (``scores_at(deal_rows)``), and keep the prompt, the message and what you type on screen when
        rows run short.

        A long question (sixteen doubling answers) or a short terminal would otherwise push them below
        the bottom edge, where refusals go unseen: the blank rows around the table go first, then the
        footer of key names (the same keys are listed in docs/terminal.md), then the question's options
        are packed closer under a shorter head, then the table's own blank rows (nothing is drawn on
        them at the moment: no trick before play) and the header's third line; last, the prompt and the
        message are cut, never the line you type on.
        """
        width, height = self.size
        lines = list(table.split("\n", allow_blank=True)) if table is not None else []
        if width <= 0 or height <= 0:
            self.put("#prompt", prompt_at(width or 80, False))
            self.put_main(lines, set(), scores_at)
            return
        header_rows = min(HEADER_ROWS, self.rows(header, width))
        # header, status, table, hand and the typed line; the prompt, the message and spare rows share the rest
        room = height - (header_rows + 1 + TABLE_ROWS + 1 + 1)
        message_rows = max(1, self.rows(self.message, width))
        prompt = prompt_at(width, False)
        if max(2, self.rows(prompt, width)) + message_rows > room:
            prompt = prompt_at(width, True)
        prompt_rows = max(2, self.rows(prompt, width))
        short = prompt_rows + message_rows - room
        blank = [i for i in BLANK_ROWS_FIRST if i < len(lines) and not lines[i].plain.strip()]
        dropped = set(blank[: max(0, short)])
        room += len(dropped)
        if prompt_rows + message_rows > room and header_rows > 2:
            room += header_rows - 2
            header_rows = 2
        message_rows = min(message_rows, max(1, room - prompt_rows))
        prompt_rows = min(prompt_rows, max(1, room - message_rows))
        self.query_one("#header").styles.height = header_rows
        self.put("#prompt", prompt)
        self.query_one("#prompt").styles.height = prompt_rows
        self.query_one("#message").styles.height = message_rows
        table_rows = self.put_main(lines, dropped, scores_at)
        spare = room - prompt_rows - message_rows
        pad = 1 if spare >= 3 else 0
        main = self.query_one("#main")
        main.styles.height = table_rows + 2 * pad  # (a style set to what it is already changes nothing)
        main.styles.padding = (pad, 0)
        self.query_one(Footer).display = spare - 2 * pad >= 1

    def put_main(self, lines: list[Text], dropped: set[int], scores_at: Callable[[int], Text] | None) -> int:
        """The table's ``lines`` but the ``dropped`` ones, and the score panel as tall; the rows they take."""
        rows = TABLE_ROWS - len(dropped)
        if lines:
            self.put("#table", Text("\n").join(line for i, line in enumerate(lines) if i not in dropped))
        if scores_at is not None:  # its head and the totals (the team totals too) around the deals
            self.put("#scores", scores_at(rows - 3))
        for widget in ("#table", "#scores"):
            self.query_one(widget).styles.height = rows
        return rows

    def put(self, widget: str, text: Text) -> None:
        self.query_one(widget, Static).update(self.g.plain(text))

    def status_line(self) -> Text:
        s = self.session
        t = Text(f"seed {s.seed} · pause {self.pause:g}s")
        if s.save_error:  # "(below)" while the message area says why, not after a later message replaced it
            t.append(" · NOT SAVED" + (" (below)" if self.message is self.save_error_said else ""), style="bold")
        elif s.save_path is not None:
            t.append(f" · saving to {s.save_path.name}")
        if self.last_event:
            t.append(f" · {self.last_event}")
        return t

    def prompt(self, v: View, width: int = 80, compact: bool = False) -> Text:
        """What is asked of you now, and how to answer; ``compact`` when rows are short (fewer words)."""
        g = self.g
        if v.match_over:
            if not v.winners:
                return Text("The match is over.\nPress Enter for another match, Ctrl+Q to quit.")
            result = render.result(v.winners, v.totals, v.rules.partnership, self.names)
            return Text(f"The match is over: {result}.\nPress Enter for another match, Ctrl+Q to quit.", style="bold")
        if v.phase == Phase.DEAL_OVER:
            if v.thrown_in is not None:
                head = f"{self.names[v.thrown_in]} claimed a redeal: the same king deals again."
            else:
                scores = v.deal_scores or (0, 0, 0, 0)
                seats = self.session.header_names()
                head = "Deal over: " + ", ".join(f"{seats[s]} {scores[s]:+d}" for s in range(4)) + "."
                went = []  # the scores a doubled card moves are the puzzling ones: say where each went
                for holder, card in v.doubled:
                    taker = next((s for s in range(4) if int(v.taken[s]) >> card & 1), None)
                    if taker is not None:
                        who = "its holder" if taker == holder else "you" if seats[taker] == "You" else seats[taker]
                        went.append(f"{g.card(card)} to {who}")
                if went and not compact:  # a short screen keeps the scores and the Enter line
                    head += " Doubled: " + ", ".join(went) + "."
            return Text(head + "\nPress Enter for the next deal.", style="bold")
        if not v.to_act:
            who = self.names[v.turn] if v.turn is not None else "the table"
            return Text(g.text(f"Waiting for {who}…\n"), style="dim") + Text("space: skip the pause · < > change it")
        opts = self.current_choices(v)
        if v.phase == Phase.PLAY:
            return self.play_prompt(v)
        if v.phase == Phase.CHOOSE_CONTRACT:
            how = " (number, or ←/→ then Enter; F1 says what each asks)."
            head = "You are king: name a contract" + ("." if compact else g.text(how))
        elif v.phase == Phase.DOUBLE:
            mine = hand_order({c for a in v.legal_actions if A.is_double(a) for c in A.doubled_cards(a)})
            cards = [g.card(c) for c in mine]
            # a partner who takes it pays double for nothing under no_bonus: then only an opponent pays you
            payer = "an opponent" if v.rules.partnership and v.rules.partner_capture == "no_bonus" else "another player"
            if len(cards) > 1:  # every set of them is an answer: keep the head short, the list is long
                head = f"Double which of {', '.join(cards)}?"
                if not compact:
                    head += f" {payer[:1].upper()}{payer[1:]} who takes one pays double; you gain."
            else:
                head = f"Double {cards[0]}?"
                if not compact:
                    head += f" If {payer} takes it, he pays double and you gain."
        else:
            grounds = redeal_grounds(int(v.hand or 0), v.contract) if v.contract is not None else ""
            head = f"Your hand allows a redeal ({grounds}): claim it, or play on?"
        if len(opts) > 9:
            head += " Type a number, then Enter."
        return Text(head + "\n") + self.options(v, opts, width, compact)

    def options(self, v: View, opts: list[Choice], width: int, compact: bool) -> Text:
        """The numbered answers, laid out here in lines of ``width``, so that none is split over two lines.

        (A no-break space would not do it: Textual breaks lines at any space.) ``compact`` packs them
        closer: two spaces between answers instead of four.
        """
        out = Text()
        x = 0
        gap = "" if compact else "  "
        selected = self.cursor % len(opts)
        for i, o in enumerate(opts):
            shown = o.label
            if v.phase == Phase.DOUBLE and len(opts) > 2:  # under "Double which ...?", the cards say it all
                shown = shown.removeprefix("double ")
            label = f"{i + 1} {shown}"
            piece = Text(f"[{label}]", style="bold reverse") if i == selected else Text(f" {label} ")
            width_needed = self.g.plain(piece).cell_len
            if x and x + len(gap) + width_needed > width:
                out.append("\n")
                x = 0
            elif x:
                out.append(gap)
                x += len(gap)
            out.append_text(piece)
            x += width_needed
        return out

    def play_prompt(self, v: View) -> Text:
        g = self.g
        cards = [a for a in v.legal_actions if A.is_card(a)]
        keys = g.text("←/→ and Enter, or type a card (qs, 10d) · ? hint")
        if v.contract is Contract.TRIX:
            if not cards:
                return Text("You have no card to place: press Enter to pass.\n", style="bold") + Text("? hint")
            head = Text("Your turn: place ", style="bold") + render.cards_line(cards, g)
        elif not v.trick:
            hand = int(v.hand or 0)
            head = Text("Your lead", style="bold")
            if len(cards) < hand.bit_count():
                head.append(": hearts may not be led yet")
        else:
            lead = v.trick[0][1] // 13
            if all(c // 13 == lead for c in cards):
                head = Text("Your turn: follow ", style="bold") + Text(g.suit(lead), style=render.suit_style(lead, g))
                head.append(" with ")
                head.append_text(render.cards_line(cards, g))
            else:
                head = Text("Your turn: no ", style="bold") + Text(g.suit(lead), style=render.suit_style(lead, g))
                head.append(", play any card" if len(cards) > 1 else ", discard ")
                if len(cards) == 1:
                    head.append_text(render.cards_line(cards, g))
        return head + Text("\n" + keys, style="dim")

    def say(self, text: str | Text, style: str = "", until_turn: bool = False) -> None:
        """Show a message; ``until_turn`` for one about waiting ("not your turn"): it goes when the turn comes."""
        self.message = text if isinstance(text, Text) else Text(self.g.text(text), style=style)
        self.message_until_turn = until_turn

    # -- flow --------------------------------------------------------------------------------------------

    def step(self) -> None:
        """After any change: answer forced questions, redraw, and start the bots if one of them is to act."""
        self.answer_forced()
        self.refresh_table()
        if self.session.bot_to_act() is not None:
            self.run_bots()

    def answer_forced(self) -> None:
        """A question with one possible answer (no redeal, nothing to double, the kingdom's last
        contract) is answered for you."""
        s = self.session
        while s.your_turn and len(legal := s.view().legal_actions) == 1 and not A.is_card(legal[0]):
            if A.is_contract(legal[0]):
                title = A.contract_of(legal[0]).title
                if s.view().tiebreak_deal:
                    self.say(f"The tiebreak deal is {title}: it is named for you.")
                else:
                    self.say(f"Only {title} is left in your kingdom: it is named for you.")
            elif legal[0] not in (A.NO_CLAIM, A.NO_DOUBLE):
                break
            s.play(legal[0])

    @work(exclusive=True, group="bots")
    async def run_bots(self) -> None:
        """Let the bots act, one at a time, each decision computed off the UI thread."""
        s = self.session
        while (seat := s.bot_to_act()) is not None:
            bot, v, legal = s.bot_inputs(seat)
            started = time.monotonic()
            try:
                action = await asyncio.to_thread(bot.act, v, legal)
            except Exception as e:  # a broken bot must not end your match
                self.say(f"{self.names[seat]} bot failed ({type(e).__name__}: {e}); it plays its first legal move")
                action = legal[0]
            wait = self.pause - (time.monotonic() - started)
            if wait > 0:
                self.hurry.clear()
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(self.hurry.wait(), wait)
            if s.bot_to_act() != seat:  # the state moved on meanwhile (it should not): ask again
                continue
            problem = s.apply_bot(seat, action)
            self.last_event = self.told(seat, action)
            if problem:
                self.say(problem)
            self.answer_forced()
            self.refresh_table()
        self.turn_began = time.monotonic()
        if self.message_until_turn:  # "'qs': it is not your turn" is wrong from now on
            self.say("")
            self.refresh_table()

    def told(self, seat: int, action: int) -> str:
        """A bot's action for the status line, as you may know it: under hidden doubling, that a seat
        answered but not what (the view shows the doubled cards when play starts)."""
        if A.is_doubling_answer(action) and self.session.view().rules.doubling_reveal == "hidden":
            return f"{self.names[seat]} has answered"
        return describe_action(seat, action, self.g, self.session.header_names())

    def submit(self, action: int) -> None:
        try:
            self.session.play(action)
        except TrixError as e:
            said = in_your_words(str(e), self.session.seat, self.session.header_names())
            self.say(Text("Not allowed: ", style="bold") + Text(self.g.text(said)))
            self.refresh_table()
            return
        self.say("")
        self.enter_hurried = False
        self.last_event = describe_action(self.session.seat, action, self.g, self.session.header_names())
        self.step()

    # -- keys --------------------------------------------------------------------------------------------

    def on_key(self, event: events.Key) -> None:
        """Typed text, and the number keys that answer a question at once.

        Space separates words once you have started typing ("qs qh" to double two queens); otherwise it
        skips the pause. With more than nine options a number is typed and sent with Enter, so that 1
        can start 10 rather than pick option 1 at once.
        """
        if isinstance(self.screen, TextSheet):
            return
        if event.key == "space" and self.typed:
            event.stop()
            event.prevent_default()
            if not self.typed.endswith(" ") and self.room_to_type():
                self.typed += " "
            self.refresh_table()
            return
        ch = (event.character or "").lower()
        if not ch or ch not in TYPED_CHARS or event.key in ("space", "tab"):
            return
        event.stop()
        self.enter_hurried = False  # typing is deliberate: Enter then sends it at once
        v = self.session.view()
        if v.to_act and v.phase != Phase.PLAY and ch.isdigit() and not self.typed and len(self.current_choices(v)) <= 9:
            opts = self.current_choices(v)
            n = int(ch)
            if 1 <= n <= len(opts):
                self.submit(opts[n - 1].action)
            else:
                self.say(f"there is no option {n}: choose 1 to {len(opts)}")
                self.refresh_table()
            return
        if self.room_to_type():
            self.typed += ch
        self.refresh_table()

    def room_to_type(self) -> bool:
        """Whether one more key fits; a key that does not is refused out loud, never sent cut short."""
        if len(self.typed) < MAX_TYPED:
            return True
        self.say(f"That is as long as an answer gets ({MAX_TYPED} keys): Enter sends it, Backspace edits it.")
        return False

    def action_move(self, delta: int) -> None:
        v = self.session.view()
        opts = self.current_choices(v)
        if opts:
            self.cursor = (self.cursor + delta) % len(opts)
            self.enter_hurried = False  # you chose the selection: Enter plays it at once
            self.refresh_table()

    def action_enter(self) -> None:
        """Send what you typed, play the selection, deal the next deal, or (while bots play) hurry them.

        Enter that has been hurrying the bots does not also play, or deal, the instant the turn comes
        back: it waits until the key has rested for ``ENTER_GRACE`` (see that constant).
        """
        s = self.session
        v = s.view()
        now, last = time.monotonic(), self.last_enter
        self.last_enter = now
        if self.typed:
            text, self.typed = self.typed, ""
            if not v.to_act:
                why = "it is not your turn" if v.phase < Phase.DEAL_OVER else "there is nothing to decide now"
                self.say(f"'{text}': {why}", until_turn=v.phase < Phase.DEAL_OVER)
                self.refresh_table()
                return
            try:
                action = parse_input(text, v, self.g)
            except InputError as e:
                self.say(str(e))
                self.refresh_table()
                return
            self.submit(action)
            return
        your_move = v.to_act or v.phase >= Phase.DEAL_OVER  # the end of a match too: Enter starts another
        if your_move and self.enter_hurried and min(now - self.turn_began, now - last) < ENTER_GRACE:
            self.say("Your turn now: Enter hurried the bots, so it played nothing. Press it again to go on.")
            self.refresh_table()
            return
        self.enter_hurried = False
        if v.to_act:
            selected = self.selected_action(v)
            if selected is not None:
                self.submit(selected)
        elif v.phase == Phase.DEAL_OVER and not v.match_over:
            s.next_deal()
            self.last_event = ""
            self.say("")
            self.step()
        elif v.match_over:
            self.another_match()
        elif not v.match_over:
            self.enter_hurried = True
            self.hurry.set()

    def another_match(self) -> None:
        """The same rules and bots again, from a new seed; a saved match keeps its record (moved aside)."""
        try:
            session, kept = self.session.another()
        except ValueError as e:
            self.say(f"{e}; nothing was changed")
            self.refresh_table()
            return
        self.session = session
        self.names = [session.name(s) for s in range(4)]
        self.save_error_told = None
        self.typed, self.cursor, self.last_event = "", 0, ""
        self.decision_key = None
        self._hint_bot = None
        self.hints_given = 0
        # beside the save file, so its name says where (a whole path would not fit on an 80-column line)
        self.say(f"A new match. The finished one is kept beside it in {kept.name}." if kept else "A new match.")
        self.step()

    def action_backspace(self) -> None:
        self.typed = self.typed[:-1]
        self.refresh_table()

    def action_clear(self) -> None:
        self.typed = ""
        self.say("")
        self.refresh_table()

    def action_hurry(self) -> None:
        self.hurry.set()

    def action_faster(self) -> None:
        self.pause = max((p for p in self.pauses if p < self.pause), default=self.pauses[0])
        self.refresh_table()

    def action_slower(self) -> None:
        self.pause = min((p for p in self.pauses if p > self.pause), default=self.pauses[-1])
        self.refresh_table()

    def action_scores(self) -> None:
        if type(self.screen) is ScoreSheet:
            self.screen.dismiss()
            return
        body = render.scores(self.session.view(), self.session.short_names(), max_rows=40)
        self.push_screen(ScoreSheet(self.g.plain(Text("Score sheet\n", style="bold") + body)))

    def action_rules(self) -> None:
        if isinstance(self.screen, RulesSheet):
            self.screen.dismiss()
            return
        self.push_screen(RulesSheet(self.g.plain(render.rules_help(self.session.view(), self.g))))

    def action_hint(self) -> None:
        v = self.session.view()
        if not v.to_act:
            self.say("Hints are for your turn.", until_turn=v.phase < Phase.DEAL_OVER)
            self.refresh_table()
            return
        self.say("Thinking of a hint…", style="dim")
        self.refresh_table()
        self.find_hint(v)

    @work(exclusive=True, group="hint")
    async def find_hint(self, v: View) -> None:
        """Ask the strong bot what it would do here and why, from your view only."""
        asked_at = self.session.progress()
        try:
            if self._hint_bot is None:
                self._hint_bot = await asyncio.to_thread(hint_bot)
            action, reason = await asyncio.to_thread(self._hint_bot.explain, v, list(v.legal_actions))
        except Exception as e:
            self.say(f"No hint this time ({type(e).__name__}: {e}).")
            self.refresh_table()
            return
        if self.session.progress() != asked_at:
            return  # you have already moved on
        opts = self.current_choices(v)
        for i, o in enumerate(opts):
            if o.action == action:
                self.cursor = i
        what = phrase(action, self.g)
        reason = self.g.text(reason).strip()
        for prefix in (what.split(" ", 1)[-1], A.to_str(action, symbols=True), A.to_str(action)):
            reason = reason.removeprefix(prefix + ":").removeprefix(prefix + " -").strip()
        reason = reason.removesuffix(": " + what)  # "nothing can be placed: pass" after "Hint: pass —"
        self.hints_given += 1
        dash = " - " if self.g.ascii else " — "
        self.say(Text("Hint: ", style="bold") + Text(what + dash + reason if reason else what))
        self.refresh_table()
