"""Text drawings of a table: hands, the trick or the Trix layouts, seats, scores.

Pure functions from a ``View`` (and, for replays, every hand) to Rich ``Text``, so the play and replay
screens draw the same way and tests can read what a player would see. Nothing here relies on colour
alone: the selected card has brackets, legal cards are also listed in words, the king is written out.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text

from ..cards import KING_OF_HEARTS, QUEENS, SUIT_MASKS, cards_of
from ..contracts import Contract
from ..deal import Phase
from ..view import View
from .glyphs import RED_SUITS, Glyphs

TABLE_WIDTH = 51
SCORE_WIDTH = 27
ABBREVIATIONS = {
    Contract.KING_OF_HEARTS: "KoH",
    Contract.QUEENS: "Qns",
    Contract.DIAMONDS: "Dia",
    Contract.LTOOSH: "Ltsh",
    Contract.TRIX: "Trix",
    Contract.COMPLEX: "Cplx",
}
# The cards that cost points in each trick contract, shown under a seat as it takes them.
PENALTY_CARDS = {
    Contract.KING_OF_HEARTS: KING_OF_HEARTS,
    Contract.QUEENS: QUEENS,
    Contract.DIAMONDS: SUIT_MASKS[2],
    Contract.LTOOSH: 0,
    Contract.COMPLEX: KING_OF_HEARTS | QUEENS | SUIT_MASKS[2],
}
ORDINALS = ("1st", "2nd", "3rd", "4th")


def suit_style(suit: int) -> str:
    return "bold red" if suit in RED_SUITS else "bold"


def card(c: int, g: Glyphs, style: str = "") -> Text:
    """One card, its suit coloured (the colour is decoration: the symbol or letter says the suit)."""
    return Text(g.card(c), style=style or suit_style(c // 13))


def cards_line(cs: Sequence[int], g: Glyphs) -> Text:
    out = Text()
    for i, c in enumerate(sorted(cs, reverse=True)):
        if i:
            out.append(" ")
        out.append_text(card(c, g))
    return out


def hand_compact(mask: int, g: Glyphs, suits: Sequence[int] = (0, 1, 2, 3), sep: str = "  ") -> list[Text]:
    """A hand by suit, high to low, as a bridge diagram writes it: ``♠ AKJ7`` per suit."""
    parts = []
    for s in suits:
        ranks = "".join(g.rank(c) for c in sorted(cards_of(mask & SUIT_MASKS[s]), reverse=True))
        t = Text(g.suit(s), style=suit_style(s))
        t.append(" " + (ranks or ("-" if g.ascii else "—")))
        parts.append(t)
    return parts


def hand_bar(hand: int, g: Glyphs, legal: Sequence[int] = (), selected: int | None = None) -> Text:
    """Your hand by suit, high to low; playable cards bold, the others dim, the selected one in brackets."""
    out = Text()
    playing = bool(legal)
    legal_set = set(legal)
    first = True
    for s in range(4):
        cs = sorted(cards_of(hand & SUIT_MASKS[s]), reverse=True)
        if not cs:
            continue
        if not first:
            out.append("  ")
        first = False
        out.append(g.suit(s), style=suit_style(s))
        for c in cs:
            out.append(" ")
            rank = g.rank(c)
            if c == selected:
                out.append(f"[{rank}]", style="bold reverse")
            elif not playing or c in legal_set:
                out.append(rank, style="bold")
            else:
                out.append(rank, style="dim")
    if first:
        out.append("(no cards left)", style="dim")
    return out


class Canvas:
    """A fixed grid of text rows on which pieces are placed by column."""

    def __init__(self, width: int, height: int) -> None:
        self.width = width
        self.rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]

    def put(self, row: int, col: int, text: Text | str) -> None:
        t = text if isinstance(text, Text) else Text(text)
        if 0 <= row < len(self.rows):
            self.rows[row].append((max(0, col), t))

    def center(self, row: int, mid: int, text: Text | str) -> None:
        t = text if isinstance(text, Text) else Text(text)
        self.put(row, mid - t.cell_len // 2, t)

    def right(self, row: int, end: int, text: Text | str) -> None:
        t = text if isinstance(text, Text) else Text(text)
        self.put(row, end - t.cell_len, t)

    def render(self) -> Text:
        out = Text()
        for i, row in enumerate(self.rows):
            if i:
                out.append("\n")
            x = 0
            for col, t in sorted(row, key=lambda p: p[0]):
                if col < x:  # overlapping pieces: the later one is cut, never the grid
                    t = t[x - col :]
                    col = x
                out.append(" " * (col - x))
                room = self.width - col
                if room <= 0:
                    break
                if t.cell_len > room:
                    t = t[:room]
                out.append_text(t)
                x = col + t.cell_len
        return out


def relative(seat: int, bottom: int) -> int:
    """Where a seat sits as seen from ``bottom``: 0 bottom, 1 right, 2 top, 3 left (turn order goes right)."""
    return (seat - bottom) % 4


def seat_status(v: View, seat: int, g: Glyphs) -> Text:
    """Short, to fit beside the trick: tricks and penalty cards taken, or Trix cards left and place."""
    if v.contract is Contract.TRIX:
        if seat in v.out:
            return Text(f"out {ORDINALS[v.out.index(seat)]}", style="bold")
        n = v.hand_sizes[seat]
        return Text(f"{n} card" + ("" if n == 1 else "s"))
    if v.contract is None:
        return Text(f"{v.hand_sizes[seat]} cards")
    n = v.tricks_taken[seat]
    t = Text(f"{n} trick" + ("" if n == 1 else "s"))
    bad = int(v.taken[seat]) & PENALTY_CARDS.get(v.contract, 0)
    diamonds = bad & SUIT_MASKS[2]
    if v.contract is Contract.QUEENS:
        shown = bad
    elif v.contract is Contract.DIAMONDS:
        shown = 0
    else:  # King of Hearts, Complex: K♥ and the queens by name (Q♦ too), the diamonds counted as well
        shown = bad & ~diamonds | (bad & QUEENS)
    if shown:
        t.append(" ")
        t.append_text(cards_line(cards_of(shown), g))
    counted = diamonds if v.contract is not Contract.QUEENS else 0
    if counted:  # every diamond taken, Q♦ included: "♦×4" (four diamonds, not the four of diamonds)
        t.append(" ")
        t.append(g.suit(2), style=suit_style(2))
        t.append(f"{'x' if g.ascii else '×'}{counted.bit_count()}")
    return t


def seat_title(v: View, seat: int, names: Sequence[str], g: Glyphs) -> Text:
    t = Text(names[seat], style="bold" if seat == v.turn else "")
    if seat == v.king:
        t.append(" · king", style="italic")
    if seat == v.turn and v.phase < Phase.DEAL_OVER:
        t.append(" ◀" if not g.ascii else " <", style="bold")
    return t


def layouts(v: View, g: Glyphs) -> list[Text]:
    """The four Trix layouts, one line each: ``♠ 5 … Q`` (lowest to highest card placed)."""
    out = []
    for s, lay in enumerate(v.layouts):
        t = Text(g.suit(s), style=suit_style(s))
        if lay is None:
            t.append(" ·")
        elif lay[0] == lay[1]:
            t.append(" " + g.rank(lay[0]))
        else:
            t.append(f" {g.rank(lay[0])} {'…' if not g.ascii else '..'} {g.rank(lay[1])}")
        out.append(t)
    return out


def trick_spots(canvas: Canvas, v: View, g: Glyphs, rows: tuple[int, int, int], mid: int, names: Sequence[str]) -> None:
    """The trick in front of each seat, seat 0 at the bottom; when it is empty, the last trick, dimmed.

    The card that led is marked with an arrow, and a caption below says who took the last trick.
    """
    trick, dim = v.trick, False
    if not trick and v.last_trick:
        trick, dim = v.last_trick, True
    top, middle, low = rows
    for seat, c in trick:
        t = card(c, g, style="dim" if dim else "")
        if seat == trick[0][0]:
            t = Text(">" if g.ascii else "›", style="dim") + t
        pos = relative(seat, v.seat if v.seat is not None else 0)
        if pos == 0:
            canvas.center(low, mid, t)
        elif pos == 1:
            canvas.center(middle, mid + 6, t)
        elif pos == 2:
            canvas.center(top, mid, t)
        else:
            canvas.center(middle, mid - 6, t)
    if v.last_trick and v.last_trick_winner is not None:
        last = Text("last trick ", style="dim")
        for i, (_, c) in enumerate(v.last_trick):
            last.append_text(Text(" " if i else "") + card(c, g, style="dim"))
        last.append(f" to {names[v.last_trick_winner]}", style="dim")
        canvas.center(low + 1, mid, last)


def table(v: View, g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH) -> Text:
    """The table from your seat (11 rows): the other seats around, the trick or the layouts between."""
    c = Canvas(width, 11)
    bottom = v.seat if v.seat is not None else 0
    mid = width // 2
    top, right, left = (bottom + 2) % 4, (bottom + 1) % 4, (bottom + 3) % 4
    c.center(0, mid, seat_title(v, top, names, g))
    c.center(1, mid, seat_status(v, top, g))
    # the side seats' lines skip row 5, where their cards in the trick lie
    c.put(4, 0, seat_title(v, left, names, g))
    c.put(6, 0, seat_status(v, left, g))
    c.right(4, width, seat_title(v, right, names, g))
    c.right(6, width, seat_status(v, right, g))
    c.center(9, mid, seat_title(v, bottom, names, g))
    c.center(10, mid, seat_status(v, bottom, g))
    if v.contract is Contract.TRIX:
        for i, line in enumerate(layouts(v, g)):
            c.put(3 + i, mid - 4, line)
    else:
        trick_spots(c, v, g, (3, 5, 7), mid, names)
    return c.render()


def table_all_hands(v: View, hands: Sequence[int], g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH) -> Text:
    """The table with every hand face up (replays), seat 0 at the bottom; 13 rows."""
    c = Canvas(width, 13)
    mid = width // 2
    c.center(0, mid, seat_title(v, 2, names, g) + Text(" · ") + seat_status(v, 2, g))
    c.center(1, mid, Text("  ").join(hand_compact(hands[2], g)))
    c.put(3, 0, seat_title(v, 3, names, g))
    c.right(3, width, seat_title(v, 1, names, g))
    for i, (lt, rt) in enumerate(zip(hand_compact(hands[3], g), hand_compact(hands[1], g), strict=True)):
        c.put(4 + i, 0, lt)
        c.put(4 + i, width - 16, rt)
    c.put(8, 0, seat_status(v, 3, g))
    c.right(8, width, seat_status(v, 1, g))
    c.center(11, mid, seat_title(v, 0, names, g) + Text(" · ") + seat_status(v, 0, g))
    c.center(12, mid, Text("  ").join(hand_compact(hands[0], g)))
    if v.contract is Contract.TRIX:
        for i, line in enumerate(layouts(v, g)):
            c.put(4 + i, mid - 4, line)
    else:
        trick_spots(c, v, g, (4, 6, 8), mid, names)
    return c.render()


def scores(v: View, short: Sequence[str], max_rows: int = 20, first_deal: int = 1) -> Text:
    """Scores per deal (the latest ``max_rows``), then the totals: the right-hand panel and score sheet."""
    out = Text(f"{'#':>2} {'deal':<4}" + "".join(f"{n[:4]:>5}" for n in short) + "\n", style="bold")
    rows = list(enumerate(v.history, start=first_deal))
    if len(rows) > max_rows:
        out.append(f"   … {len(rows) - max_rows} earlier deals\n", style="dim")
        rows = rows[len(rows) - max_rows + 1 :]
    for n, d in rows:
        line = f"{n:>2} {ABBREVIATIONS[d.contract]:<4}"
        if d.thrown_in is not None:
            line += f" thrown in by {short[d.thrown_in]}"
        else:
            line += "".join(f"{s:>5}" for s in d.scores)
        out.append(line[:SCORE_WIDTH] + "\n")
    if not v.history:
        out.append("   no deal finished yet\n", style="dim")
    out.append("Total  " + "".join(f"{s:>5}" for s in v.totals), style="bold")
    if v.rules.partnership:
        t = v.totals
        out.append(f"\nTeams {short[0]}+{short[2]} {t[0] + t[2]}, {short[1]}+{short[3]} {t[1] + t[3]}")
    return out


def short_names(names: Sequence[str]) -> list[str]:
    """Four-letter column heads for the score table; seat numbers when the names would not tell seats apart."""
    heads = [n.split(" (")[0][:4] for n in names]
    return heads if len(set(heads)) == len(heads) else [f"s{seat}" for seat in range(len(names))]


def header(v: View, names: Sequence[str], g: Glyphs, first_deal: int = 1) -> Text:
    """One line: rules, kingdom, deal, king, contract and doubled cards.

    Deals count from ``first_deal``: 1 for players, 0 in replays to match ``opentrix verify``.
    """
    kingdoms = v.rules.kingdoms
    t = Text(f"{v.rules.preset_name} · ", style="dim")
    if v.tiebreak_deal:
        t.append("tiebreak deal", style="bold")
    else:
        t.append(f"kingdom {min(v.kingdom + 1, kingdoms)}/{kingdoms}")
    t.append(f" · deal {v.deal_number + first_deal} · king {names[v.king]}")
    if v.contract is not None:
        t.append(" · ")
        t.append(v.contract.title, style="bold")
    if v.doubled:
        t.append(" · doubled ")
        for i, (holder, c) in enumerate(v.doubled):
            if i:
                t.append(", ")
            t.append_text(card(c, g))
            t.append(f" ({names[holder]})")
    return t
