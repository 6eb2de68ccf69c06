"""The Textual screen that steps through a record with all four hands face up."""

from __future__ import annotations

from typing import ClassVar

from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal
from textual.widgets import Footer, Static

from ..deal import Phase
from ..view import view
from . import render
from .glyphs import Glyphs
from .replay import Replay

CSS = """
Screen { layout: vertical; }
#title { height: 1; }
#header { height: auto; max-height: 2; }  /* doubled cards may need a second line */
#main { height: 14; padding-top: 1; }
#table { width: 51; height: 13; }
#scores { width: 1fr; height: 13; border-left: solid $panel-lighten-2; padding-left: 1; }
.-ascii #scores { border-left: ascii $panel-lighten-2; }
.-narrow #scores { display: none; }  /* no room beside the table: a squeezed panel wraps into noise */
.-short #main { height: 13; padding-top: 0; }  /* keep a row for the error or the end of the record */
#caption { height: 2; }
#error { height: 1fr; }
"""


class ReplayApp(App[None]):
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
        Binding("q,escape,ctrl+q", "quit", "quit"),
        Binding("ctrl+c", "quit", "quit", show=False, priority=True),
    ]

    def __init__(self, replay: Replay, name: str = "", glyphs: Glyphs | None = None) -> None:
        super().__init__()
        self.HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (80, "-wide")]  # classes the CSS above uses
        self.VERTICAL_BREAKPOINTS = [(0, "-short"), (21, "-tall")]
        self.replay = replay
        self.record_name = name
        self.g = glyphs or Glyphs()
        self.index = 0
        self.short = render.short_names(replay.names)

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
        self.put("#title", title)
        self.put("#header", render.header(v, self.replay.names, self.g, first_deal=0))
        self.put("#table", render.table_all_hands(v, hands, self.g, self.replay.names))
        self.put("#scores", render.scores(v, self.short, max_rows=10, first_deal=0))
        self.put("#caption", Text(self.g.text(st.caption), style="bold"))
        err = self.replay.error
        if err is not None:
            text = Text("Invalid record: ", style="bold reverse")
            text.append(" " + self.g.text(err.located()))
            if self.index == len(steps) - 1:
                text.append("\nThis is the last position before the error.", style="bold")
            else:
                text.append("\nThe steps stop just before it (End jumps there).", style="dim")
            self.put("#error", text)
        elif self.index == len(steps) - 1:
            end = "the record ends here"
            if m.is_over:
                who = " and ".join(self.replay.names[w] for w in m.winners)
                verb = "wins" if len(m.winners) == 1 else "share the win"
                end = f"the match is over: {who} {verb} ({m.totals[m.winners[0]]})"
            self.put("#error", Text(f"End: {end}.", style="dim"))
        else:
            self.put("#error", "")

    def put(self, widget: str, text: Text | str) -> None:
        self.query_one(widget, Static).update(self.g.plain(Text(text) if isinstance(text, str) else text))

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
