"""The Textual screen that steps through a record with all four hands face up."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual import events
from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from ..deal import Phase
from ..view import view
from . import render
from .base import TrixApp
from .glyphs import Glyphs
from .play_app import SHEET_CSS, ScoreSheet, too_small
from .replay import Replay

CSS = (
    """
Screen { layout: vertical; }
#title { height: 1; }
#header { height: auto; max-height: 2; }  /* doubled cards may need a second line */
#main { height: 14; padding-top: 1; }
#table { width: 51; height: 13; }
#scores { width: 1fr; height: 13; border-left: solid $panel-lighten-2; padding-left: 1; }
.-ascii #scores { border-left: ascii $panel-lighten-2; }
.-narrow #scores { display: none; }  /* no room beside the table: a squeezed panel wraps into noise */
.-short #main { height: 13; padding-top: 0; }  /* keep a row for the error or the end of the record */
#caption { height: auto; max-height: 2; }
#error { height: auto; }
"""
    + SHEET_CSS
)


class ReplayApp(TrixApp):
    """Forward and back one action at a time, or a whole deal at a time."""

    CSS = CSS
    TITLE = "opentrix replay"
    ENABLE_COMMAND_PALETTE = False
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("right,l,space,n", "step(1)", "next"),
        Binding("left,h,p,backspace", "step(-1)", "back"),
        # Textual names the bracket keys right_square_bracket (8.x) or rightsquarebracket (older)
        Binding("pagedown,down,j,right_square_bracket,rightsquarebracket", "deal(1)", "next deal"),
        Binding("pageup,up,k,left_square_bracket,leftsquarebracket", "deal(-1)", "previous deal"),
        Binding("home,g", "jump(0)", "start", show=False),
        Binding("end,G", "jump(-1)", "end", show=False),
        Binding("tab", "scores", "scores", priority=True),
        Binding("q,escape,ctrl+q", "quit", "quit"),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, replay: Replay, name: str = "", glyphs: Glyphs | None = None) -> None:
        super().__init__(glyphs)
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # classes the CSS above uses
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (21, "-tall")]
        self.replay = replay
        self.record_name = name
        self.index = 0
        self.short = replay.heads()

    def compose(self) -> ComposeResult:
        yield Static(id="title")
        yield Static(id="header")
        with Horizontal(id="main"):
            yield Static(id="table")
            yield Static(id="scores")
        yield Static(id="caption")
        yield Static(id="error")
        yield Footer()

    def on_mount(self) -> None:
        self.set_class(self.g.ascii, "-ascii")
        self.show()

    def on_resize(self, event: events.Resize) -> None:
        """Refit once the new size is in place (this handler runs before Textual records it)."""
        self.call_later(self.show)

    @property
    def step(self) -> int:
        return self.index

    def show(self) -> None:
        steps = self.replay.steps
        st = steps[self.index]
        m = st.match
        v = view(m, None)
        hands = list(m.deals[-1].hands) if m.phase != Phase.CHOOSE_CONTRACT else list(m.pending_hands or (0, 0, 0, 0))
        n_deals = len(self.replay.record.deals)
        title = Text(f"{self.record_name} · ", style="dim")
        title.append(f"deal {st.deal} of 0–{n_deals - 1} · step {self.index + 1}/{len(steps)}", style="bold")
        self.put("#title", too_small(self.size, title))
        header = render.header(v, self.replay.names, self.g, first_deal=0)
        self.put("#header", header)
        self.put("#table", render.table_all_hands(v, hands, self.g, self.replay.names))
        self.put("#scores", render.scores(v, self.short, max_rows=10, first_deal=0))
        self.put("#caption", Text(self.g.text(st.caption), style="bold"))
        err = self.replay.error
        ending = Text()
        if err is not None:
            ending = Text("Invalid record:", style="bold reverse")
            ending.append(" " + self.g.text(err.located()))
            if self.index == len(steps) - 1:
                ending.append("\nThis is the last position before the error.", style="bold")
            else:
                ending.append("\nThe steps stop just before it (End jumps there).", style="dim")
        elif self.index == len(steps) - 1:
            end = "the record ends here"
            if m.is_over:
                end = "the match is over: " + render.result(m.winners, m.totals, m.rules.partnership, self.replay.names)
            ending = Text(f"End: {end}.", style="dim")
        self.put("#error", ending)
        self.fit(header, Text(self.g.text(st.caption)), ending)

    def fit(self, header: Text, caption: Text, ending: Text) -> None:
        """Give up the footer when the rows run short (60x20), so the error and its hint stay whole."""
        width, height = self.size
        if width <= 0 or height <= 0:
            return
        header_rows, caption_rows, ending_rows = (
            len(self.g.plain(t).wrap(self.console, width)) if t.plain else 0 for t in (header, caption, ending)
        )
        header_rows = min(2, header_rows)
        main = 14 if height >= 21 else 13
        needed = 1 + header_rows + main + min(2, caption_rows) + ending_rows
        self.query_one(Footer).display = needed + 1 <= height

    def put(self, widget: str, text: Text | str) -> None:
        self.query_one(widget, Static).update(self.g.plain(Text(text) if isinstance(text, str) else text))

    def action_scores(self) -> None:
        """The whole score sheet so far (Tab): below 80 columns the panel beside the table is left out."""
        if type(self.screen) is ScoreSheet:
            self.screen.dismiss()
            return
        v = view(self.replay.steps[self.index].match, None)
        body = render.scores(v, self.short, max_rows=40, first_deal=0)
        self.push_screen(ScoreSheet(self.g.plain(Text("Score sheet\n", style="bold") + body)))

    def action_step(self, delta: int) -> None:
        self.index = max(0, min(len(self.replay.steps) - 1, self.index + delta))
        self.show()

    def action_deal(self, delta: int) -> None:
        starts = self.replay.deal_starts()
        if delta > 0:
            later = [i for i in starts if i > self.index]
            self.index = later[0] if later else len(self.replay.steps) - 1
        else:
            earlier = [i for i in starts if i < self.index]
            self.index = earlier[-1] if earlier else 0
        self.show()

    def action_jump(self, where: int) -> None:
        self.index = where if where >= 0 else len(self.replay.steps) - 1
        self.show()
