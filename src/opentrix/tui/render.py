"""Text drawings of a table: hands, the trick or the Trix layouts, seats, scores.

Pure functions from a ``View`` (and, for replays, every hand) to Rich ``Text``, so the play and replay
screens draw the same way and tests can read what a player would see. Nothing here relies on colour
alone: the selected card has brackets, legal cards are also listed in words, the king is written out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from rich.cells import cell_len
from rich.text import Text

from ..cards import KING_OF_HEARTS, QUEENS, SUIT_MASKS, Card, cards_of
from ..contracts import Contract
from ..deal import Phase
from ..rules import Rules
from ..view import View
from .glyphs import Glyphs, hand_order

TABLE_WIDTH = 51
SCORE_WIDTH = 27
HEAD_WIDTH = 4  # cells: a score column's head
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


def suit_style(suit: int, g: Glyphs) -> str:
    """Red suits red, unless colour is off (NO_COLOR): then bold, never a grey that reads as dim."""
    return g.suit_style(suit)


def card(c: int, g: Glyphs, style: str = "") -> Text:
    """One card, its suit coloured (the colour is decoration: the symbol or letter says the suit)."""
    return Text(g.card(c), style=style or suit_style(c // 13, g))


def cards_line(cs: Sequence[int], g: Glyphs) -> Text:
    """Cards in the hand's order (♠ ♥ ♦ ♣, high to low), so a list reads like the hand above it."""
    out = Text()
    for i, c in enumerate(hand_order(cs)):
        if i:
            out.append(" ")
        out.append_text(card(c, g))
    return out


def hand_compact(mask: int, g: Glyphs, suits: Sequence[int] = (0, 1, 2, 3), sep: str = "  ") -> list[Text]:
    """A hand by suit, high to low, as a bridge diagram writes it: ``♠ AKJ7`` per suit."""
    parts = []
    for s in suits:
        ranks = "".join(g.rank(c) for c in sorted(cards_of(mask & SUIT_MASKS[s]), reverse=True))
        t = Text(g.suit(s), style=suit_style(s, g))
        t.append(" " + (ranks or ("-" if g.ascii else "—")))
        parts.append(t)
    return parts


def hand_bar(
    hand: int, g: Glyphs, legal: Sequence[int] = (), selected: int | None = None, playing: bool | None = None
) -> Text:
    """Your hand by suit, high to low; playable cards bold, the others dim, the selected one in brackets.

    ``playing`` (by default: some card is legal) says a card is asked for now; when it is and none is
    legal (you must pass in Trix), every card is dim. Otherwise the whole hand is drawn bold."""
    out = Text()
    playing = bool(legal) if playing is None else playing
    legal_set = set(legal)
    first = True
    for s in range(4):
        cs = sorted(cards_of(hand & SUIT_MASKS[s]), reverse=True)
        if not cs:
            continue
        if not first:
            out.append("  ")
        first = False
        out.append(g.suit(s), style=suit_style(s, g))
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
    """A fixed grid of text rows on which pieces are placed by column.

    Pieces are drawn as ``g`` shows them (``…`` as ``...`` in ASCII mode), so they are measured as
    shown. ``clashes`` lists, after ``render``, every piece that overlapped, touched another piece
    (no blank between them) or ran past the edge: the layouts below leave it empty, and tests check so.
    """

    def __init__(self, width: int, height: int, g: Glyphs | None = None) -> None:
        self.width = width
        self.g = g or Glyphs()
        self.rows: list[list[tuple[int, Text]]] = [[] for _ in range(height)]
        self.clashes: list[str] = []

    def put(self, row: int, col: int, text: Text | str) -> None:
        t = self.g.plain(text if isinstance(text, Text) else Text(text))
        if 0 <= row < len(self.rows) and t.plain:
            self.rows[row].append((max(0, col), t))

    def center(self, row: int, mid: int, text: Text | str) -> None:
        t = self.g.plain(text if isinstance(text, Text) else Text(text))
        self.put(row, mid - t.cell_len // 2, t)

    def right(self, row: int, end: int, text: Text | str) -> None:
        t = self.g.plain(text if isinstance(text, Text) else Text(text))
        self.put(row, end - t.cell_len, t)

    def render(self) -> Text:
        out = Text()
        self.clashes = []
        for i, row in enumerate(self.rows):
            if i:
                out.append("\n")
            x = 0
            for col, t in sorted(row, key=lambda p: p[0]):
                if (x and col <= x) or col + t.cell_len > self.width:
                    self.clashes.append(f"row {i}, column {col}: {t.plain!r}")
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


def cut(t: Text, room: int, g: Glyphs) -> Text:
    """``t`` cut to ``room`` cells, an ellipsis saying so."""
    if t.cell_len <= room:
        return t
    mark = g.ellipsis()
    head = t.copy()
    head.truncate(max(0, room - len(mark)))
    head.rstrip()
    head.append(mark)
    return head


def wrap_pieces(pieces: Sequence[Text], rooms: Sequence[int], g: Glyphs) -> list[Text]:
    """Pieces joined by spaces into lines of ``rooms[i]`` cells each, the last line cut if they run out.

    The seat marks (``· king``, ``- king`` in ASCII) drop their dot when they start a line.
    """
    lines: list[Text] = []
    line: Text | None = None
    for piece in pieces:
        room = rooms[len(lines)]
        if line is not None:
            joined = line + Text(" ") + piece
            if joined.cell_len <= room or len(lines) == len(rooms) - 1:  # the last line takes the rest, cut
                line = joined
                continue
            lines.append(line)
            room = rooms[len(lines)]
        line = piece[2:] if piece.plain.startswith(("· ", "- ")) else piece
        if line.cell_len > room and len(lines) < len(rooms) - 1:  # a word too long for a line of its own
            line = cut(line, room, g)
    if line is not None:
        lines.append(line)
    return [cut(t, rooms[i], g) for i, t in enumerate(lines)]


def fit_name(name: str, room: int, g: Glyphs) -> str:
    """A seat's name in ``room`` cells: the part before a trailing ``(…)`` (seat, bot level) is cut first."""
    if cell_len(name) <= room:
        return name
    base, paren, tail = name.rpartition(" (")
    suffix = " (" + tail
    if not paren or not tail.endswith(")") or room - len(suffix) < 2:
        return cut(Text(name), room, g).plain
    return cut(Text(base), room - len(suffix), g).plain + suffix


def relative(seat: int, bottom: int) -> int:
    """Where a seat sits as seen from ``bottom``: 0 bottom, 1 right, 2 top, 3 left (turn order goes right)."""
    return (seat - bottom) % 4


def seat_status(v: View, seat: int, g: Glyphs, room: int | None = None) -> Text:
    """Short, to fit beside the trick: tricks and penalty cards taken, or Trix cards left and place.

    With ``room``, a status wider than that is written shorter rather than cut, so that every penalty
    fact still shows: ``tr`` for tricks, then the queens by their suits (``Q♠♥♦``)."""
    pieces = seat_status_pieces(v, seat, g)
    whole = Text(" ").join(pieces)
    if room is None or g.plain(whole).cell_len <= room:
        return whole
    short = seat_status_pieces(v, seat, g, short=1)
    shorter = Text(" ").join(short)
    if g.plain(shorter).cell_len <= room:
        return shorter
    return Text(" ").join(seat_status_pieces(v, seat, g, short=2))


def seat_status_pieces(v: View, seat: int, g: Glyphs, short: int = 0) -> list[Text]:
    """``seat_status`` in the pieces a line may break between: the tricks, each penalty card, the
    diamonds' count. ``short`` 1 writes ``3 tr``, 2 also joins the queens into one piece (``Q♠♥♦``)."""
    if v.contract is Contract.TRIX:
        if seat in v.out:
            return [Text(f"out {ORDINALS[v.out.index(seat)]}", style="bold")]
        n = v.hand_sizes[seat]
        return [Text(f"{n} card" + ("" if n == 1 else "s"))]
    if v.contract is None:
        return [Text(f"{v.hand_sizes[seat]} cards")]
    n = v.tricks_taken[seat]
    pieces = [Text(f"{n} tr" if short else f"{n} trick" + ("" if n == 1 else "s"))]
    bad = int(v.taken[seat]) & PENALTY_CARDS.get(v.contract, 0)
    diamonds = bad & SUIT_MASKS[2]
    if v.contract is Contract.QUEENS:
        shown = bad
    elif v.contract is Contract.DIAMONDS:
        shown = 0
    else:  # King of Hearts, Complex: K♥ and the queens by name (Q♦ too), the diamonds counted as well
        shown = bad & ~diamonds | (bad & QUEENS)
    queens = hand_order(cards_of(shown & QUEENS))
    if short >= 2 and len(queens) > 1:  # K♥ by name, the queens as one piece, by their suits: Q♠♥♦
        pieces += [card(c, g) for c in hand_order(cards_of(shown & ~QUEENS))]
        joined = Text("Q")
        for q in queens:
            joined.append(g.suit(q // 13), style=suit_style(q // 13, g))
        pieces.append(joined)
    else:
        pieces += [card(c, g) for c in hand_order(cards_of(shown))]
    counted = diamonds if v.contract is not Contract.QUEENS else 0
    if counted:  # every diamond taken, Q♦ included: "♦×4" (four diamonds, not the four of diamonds)
        t = Text(g.suit(2), style=suit_style(2, g))
        t.append(f"{'x' if g.ascii else '×'}{counted.bit_count()}")
        pieces.append(t)
    return pieces


def title_marks(v: View, seat: int) -> Text:
    """``· king ◀``: the king, and the seat to play (empty for other seats)."""
    marks = Text()
    if seat == v.king:
        marks.append("· king", style="italic")
    if seat == v.turn and v.phase < Phase.DEAL_OVER:
        marks.append(" ◀" if marks else "◀", style="bold")
    return marks


def title_pieces(v: View, seat: int, names: Sequence[str], g: Glyphs, name_room: int | None = None) -> list[Text]:
    """A seat's title in pieces that a line may break between: the words of the name, then the marks
    (kept together); ``name_room`` cuts the name to that many cells."""
    name = names[seat] if name_room is None else fit_name(g.plain(Text(names[seat])).plain, name_room, g)
    style = "bold" if seat == v.turn else ""
    pieces = [Text(word, style=style) for word in name.split(" ") if word]
    marks = title_marks(v, seat)
    return [*pieces, marks] if marks else pieces


def seat_title(v: View, seat: int, names: Sequence[str], g: Glyphs, room: int | None = None) -> Text:
    """``Left (medium) · king ◀`` on one line; with ``room``, the name is cut so that it fits."""
    whole = Text(" ").join(title_pieces(v, seat, names, g))
    if room is None or g.plain(whole).cell_len <= room:
        return whole
    marks = g.plain(title_marks(v, seat)).cell_len
    return Text(" ").join(title_pieces(v, seat, names, g, name_room=max(1, room - marks - (1 if marks else 0))))


def layouts(v: View, g: Glyphs) -> list[Text]:
    """The four Trix layouts, one line each: ``♠ 5 … Q`` (lowest to highest card placed)."""
    out = []
    for s, lay in enumerate(v.layouts):
        t = Text(g.suit(s), style=suit_style(s, g))
        if lay is None:
            t.append(" ·")
        elif lay[0] == lay[1]:
            t.append(" " + g.rank(lay[0]))
        else:
            t.append(f" {g.rank(lay[0])} {g.ellipsis()} {g.rank(lay[1])}")
        out.append(t)
    return out


def layout_width(g: Glyphs) -> int:
    """The widest a layout line can be: ``♠ 10 … A`` (``S 10 ... A`` in ASCII)."""
    return len(f"S 10 {g.ellipsis()} A")


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
        cards = Text(" ").join(card(c, g, style="dim") for _, c in v.last_trick)
        winner = names[v.last_trick_winner]
        for head in ("last trick ", ""):  # too wide with a long name: the cards and the name say it
            last = Text(head, style="dim") + cards + Text(f" to {winner}", style="dim")
            if g.plain(last).cell_len <= canvas.width:
                break
        canvas.center(low + 1, mid, cut(g.plain(last), canvas.width, g))


@dataclass(frozen=True)
class SideRows:
    """Where the side seats' lines go and how wide each may be, so they never reach the middle.

    The title starts on ``title_row`` and goes on downwards (or ends there, ``title_upwards``); its
    lines are ``title_rooms`` wide. The status starts on ``status_row`` (or below the title)."""

    title_row: int
    title_rooms: tuple[int, ...]
    status_row: int
    status_rooms: tuple[int, ...]
    title_upwards: bool = False


def side_seats(c: Canvas, v: View, g: Glyphs, names: Sequence[str], seats: tuple[int, int], rows: SideRows) -> None:
    """The left and right seats' titles and statuses, each wrapped into the room its rows leave free."""
    for seat, left in zip(seats, (True, False), strict=True):
        title = wrap_pieces([g.plain(p) for p in title_pieces(v, seat, names, g)], rows.title_rooms, g)
        first = rows.title_row - (len(title) - 1 if rows.title_upwards else 0)
        status_row = max(rows.status_row, first + len(title)) if not rows.title_upwards else rows.status_row
        pieces = seat_status_pieces(v, seat, g)  # a long one (Complex) goes on over the next row
        if len(rows.status_rooms) == 1:  # no next row: written shorter, so that nothing is cut
            pieces = [seat_status(v, seat, g, room=rows.status_rooms[0])]
        status = wrap_pieces([g.plain(p) for p in pieces], rows.status_rooms, g)
        placed = [(first + i, line) for i, line in enumerate(title)]
        placed += [(status_row + i, line) for i, line in enumerate(status)]
        for row, line in placed:
            if left:
                c.put(row, 0, line)
            else:
                c.right(row, c.width, line)


def table(v: View, g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH) -> Text:
    """The table from your seat (11 rows): the other seats around, the trick or the layouts between."""
    return draw_table(v, g, names, width).render()


def draw_table(v: View, g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH) -> Canvas:
    """``table`` before it is rendered, for tests that check no piece clashes with another."""
    c = Canvas(width, 11, g)
    bottom = v.seat if v.seat is not None else 0
    mid = width // 2
    top, right, left = (bottom + 2) % 4, (bottom + 1) % 4, (bottom + 3) % 4
    c.center(0, mid, seat_title(v, top, names, g, room=width))
    c.center(1, mid, seat_status(v, top, g))
    c.center(9, mid, seat_title(v, bottom, names, g, room=width))
    c.center(10, mid, seat_status(v, bottom, g))
    if v.contract is Contract.TRIX:  # the layouts fill rows 3-6 in the middle; the sides keep clear of them
        for i, line in enumerate(layouts(v, g)):
            c.put(3 + i, mid - 4, line)
        room = min(mid - 4, width - (mid - 4 + layout_width(g))) - 1
        rows = SideRows(4, (room, room, room), 6, (room, room))
    else:  # row 4 is the side seats' own; on rows 5 and 7 they keep clear of the trick's cards
        half = (width - 1) // 2
        rows = SideRows(4, (half, mid - 9), 6, (half, mid - 3))
    side_seats(c, v, g, names, (left, right), rows)
    if v.contract is not Contract.TRIX:
        trick_spots(c, v, g, (3, 5, 7), mid, names)
    return c


def table_all_hands(v: View, hands: Sequence[int], g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH) -> Text:
    """The table with every hand face up (replays), seat 0 at the bottom; 13 rows."""
    return draw_table_all_hands(v, hands, g, names, width).render()


def draw_table_all_hands(
    v: View, hands: Sequence[int], g: Glyphs, names: Sequence[str], width: int = TABLE_WIDTH
) -> Canvas:
    """``table_all_hands`` before it is rendered (tests check its ``clashes``)."""
    c = Canvas(width, 13, g)
    mid = width // 2
    for seat, row in ((2, 0), (0, 11)):
        status = g.plain(seat_status(v, seat, g))
        title = seat_title(v, seat, names, g, room=width - 3 - status.cell_len)
        c.center(row, mid, title + Text(" · ") + status)
        c.center(row + 1, mid, Text("  ").join(hand_compact(hands[seat], g)))
    for i, (lt, rt) in enumerate(zip(hand_compact(hands[3], g), hand_compact(hands[1], g), strict=True)):
        c.put(4 + i, 0, lt)
        c.put(4 + i, width - 16, rt)
    # a title too long for half the row breaks upwards, onto the free row 2; the statuses share row 8
    # with seat 0's card in the trick
    half = (width - 1) // 2
    side_seats(c, v, g, names, (3, 1), SideRows(3, (half, half), 8, (mid - 3,), title_upwards=True))
    if v.contract is Contract.TRIX:
        for i, line in enumerate(layouts(v, g)):
            c.put(4 + i, mid - 4, line)
    else:
        trick_spots(c, v, g, (4, 6, 8), mid, names)
    return c


def scores(v: View, short: Sequence[str], max_rows: int = 20, first_deal: int = 1) -> Text:
    """Scores per deal, then the totals: the right-hand panel and score sheet.

    At most ``max_rows`` rows of deals: with more deals, the first row says how many earlier ones the
    remaining rows leave out.
    """
    heads = [cells(n, HEAD_WIDTH) for n in short]
    out = Text(f"{'#':>2} {'deal':<4}" + "".join(" " * (5 - cell_len(h)) + h for h in heads) + "\n", style="bold")
    teams = team_lines(v, heads)
    max_rows -= len(teams) - 1 if teams else 0  # a team line too wide for the panel takes a deal's row
    rows = list(enumerate(v.history, start=first_deal))
    if len(rows) > max_rows:
        hidden = len(rows) - (max_rows - 1)
        out.append(f"   … {hidden} earlier deal{'' if hidden == 1 else 's'}\n", style="dim")
        rows = rows[hidden:]
    for n, d in rows:
        line = f"{n:>2} {ABBREVIATIONS[d.contract]:<4}"
        if d.thrown_in is not None:
            line += f" thrown in by {heads[d.thrown_in]}"
        else:
            line += "".join(f" {s:>4}" for s in d.scores)  # a space even before -1000
        out.append(cells(line, SCORE_WIDTH) + "\n")
    if not v.history:
        out.append("   no deal finished yet\n", style="dim")
    out.append("Total  " + "".join(f" {s:>4}" for s in v.totals), style="bold")
    for line in teams:
        out.append("\n" + line)
    return out


def team_lines(v: View, heads: Sequence[str]) -> list[str]:
    """The team totals in partnership play: one line when it fits the panel, else one per team (none
    cut: the panel is ``SCORE_WIDTH`` cells wide, two teams of four-letter heads and their totals are not)."""
    if not v.rules.partnership:
        return []
    t = v.totals
    first, second = f"{heads[0]}+{heads[2]} {t[0] + t[2]}", f"{heads[1]}+{heads[3]} {t[1] + t[3]}"
    one = f"Teams {first}, {second}"
    return [one] if cell_len(one) <= SCORE_WIDTH else [f"Teams {first}", f"      {second}"]


def cells(text: str, width: int) -> str:
    """The start of ``text`` that fits in ``width`` cells (a wide character, 山, takes two)."""
    if cell_len(text) <= width:
        return text
    out = ""
    for ch in text:
        if cell_len(out + ch) > width:
            break
        out += ch
    return out


def result(winners: Sequence[int], totals: Sequence[int], partnership: bool, names: Sequence[str]) -> str:
    """Who won the match and with what: a partnership wins with its team's total, not one seat's."""
    if not winners:
        return "nobody wins"
    who = [names[w] for w in winners]
    listed = who[0] if len(who) == 1 else ", ".join(who[:-1]) + " and " + who[-1]
    if partnership:
        team = sum(totals[s] for s in range(4) if s % 2 == winners[0] % 2)
        if len(winners) == 4:
            return f"the two teams tie ({team} each)"
        return f"{listed} win as a team ({team})"
    verb = "win" if len(who) > 1 or who[0] == "You" else "wins"
    if len(who) > 1:
        verb = "share the win"
    return f"{listed} {verb} ({totals[winners[0]]})"


def short_names(names: Sequence[str]) -> list[str]:
    """Four-letter column heads for the score table (the name before a ``(…)``: seat, bot level)."""
    return short_heads([n.split(" (")[0] for n in names])


def short_heads(names: Sequence[str], first: int = 0) -> list[str]:
    """The column heads of ``names``: each cut to four cells (two letters of a name in wide letters, 山田),
    and those that the cut leaves alike with their seat number (``Moh1``, ``Moh2``), counted from
    ``first`` (0 in replays, as records count; 1 at a server's table, as its lobby does)."""
    heads = [cells(n, HEAD_WIDTH) for n in names]
    folded = [h.casefold() for h in heads]
    told = [
        h if folded.count(h.casefold()) == 1 else f"{cells(h, HEAD_WIDTH - 1)}{seat}"
        for seat, h in enumerate(heads, first)
    ]
    if len({h.casefold() for h in told}) == len(told):
        return told
    return [f"{cells(h, HEAD_WIDTH - 1)}{seat}" for seat, h in enumerate(heads, first)]


def header(v: View, names: Sequence[str], g: Glyphs, first_deal: int = 1) -> Text:
    """One line: rules, kingdom, deal, king, contract and doubled cards.

    Deals count from ``first_deal``: 1 for players, 0 in replays to match ``opentrix verify``.
    """
    kingdoms = v.rules.kingdoms
    t = Text(f"{v.rules.preset_name} · ", style="dim")
    if v.tiebreak_deal:
        t.append("tiebreak deal", style="bold")
    else:
        # the kingdom under way; once the match is over the count has moved past the last one played
        n = v.kingdom if v.match_over else v.kingdom + 1
        if n > kingdoms:  # a further kingdom played off a tie for the lead (``extra_kingdom``)
            t.append(f"kingdom {n}, tiebreak", style="bold")
        else:
            t.append(f"kingdom {n}/{kingdoms}")
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
    said = declined(v)
    if said:
        t.append(f" · held {doublable_words(v, g)}, no double: {', '.join(names[s] for s in said)}")
    return t


def declined(v: View) -> list[int]:
    """The other seats that were asked to double and did not, while a card they could have doubled is
    still in play. Under ``sequential`` doubling only holders are asked, in turn for all to see, so each of
    them held such a card: a fact everyone at a real table knows (and the bots read), said on screen
    rather than only in the status line that the next move replaces."""
    if not v.doublable or v.rules.doubling_reveal != "sequential":
        return []
    gone = {c for _, c in v.plays} | {c for _, c in v.doubled}
    if all(c in gone for c in cards_of(v.doublable)):
        return []
    return [s for s, cards in v.doubling_answers if not cards and s != v.seat]  # you know your own


def doublable_words(v: View, g: Glyphs) -> str:
    """What a seat asked to double holds: ``K♥``, ``a queen``, or in Complex ``K♥ or a queen``."""
    kh = g.card(Card.KH)
    if v.contract is Contract.KING_OF_HEARTS:
        return kh
    return "a queen" if v.contract is Contract.QUEENS else f"{kh} or a queen"


def costs(value: int) -> str:
    """A penalty as a player says it, ``costs 25``, not the double negative ``costs -25``; a table
    that made the value a gain reads ``earns 25``."""
    return f"costs {-value}" if value <= 0 else f"earns {value}"


def contract_goal(contract: Contract, rules: Rules, g: Glyphs) -> str:
    """What a contract asks of you, in one line with this table's points: ``Queens: each queen you
    take costs 25``."""
    p = rules.points
    kh = g.card(Card.KH)
    first, second, third, last = p.trix
    goals = {
        Contract.KING_OF_HEARTS: f"do not take the {kh}: it {costs(p.king_of_hearts)}",
        Contract.QUEENS: f"each queen you take {costs(p.queen)}",
        Contract.DIAMONDS: f"each diamond you take {costs(p.diamond)}",
        Contract.LTOOSH: f"each trick you take {costs(p.trick)}",
        Contract.TRIX: "a jack opens its suit's row; on your turn place a jack, or a card next to an end of "
        f"its row, if you can, else pass. First out {first:+d}, second {second:+d}, third {third:+d}, last {last:+d}",
        Contract.COMPLEX: f"each trick {costs(p.trick)}, and what it holds as well: the {kh} "
        f"{costs(p.king_of_hearts)}, each queen {costs(p.queen)}, each diamond {costs(p.diamond)}",
    }
    return f"{contract.title}: {goals[contract]}"


def doubling_help(rules: Rules, g: Glyphs) -> str:
    """What doubling does at this table: the plain case, then the holder's own capture and the
    partner's, which the presets settle differently (RULES.md, "Doubling")."""
    head = (
        f"Before play the holder of the {g.card(Card.KH)} or of a queen may double it in the contract "
        "where it costs, and the card is shown: "
    )
    if rules.partnership and rules.partner_capture == "no_bonus":
        text = head + "an opponent who takes it pays twice, and the holder earns its value."
    else:
        text = head + "whoever else takes it pays twice, and the holder earns its value."
    if rules.self_capture == "normal":
        text += " If the holder takes it himself, he pays its plain value and nobody gains."
    elif rules.self_capture == "doubled":
        text += " If the holder takes it himself, he pays twice and nobody gains."
    else:
        text += (
            " If the holder takes it himself, he pays twice and whoever led that trick earns its value;"
            " had he led that trick himself, he pays only its plain value."
        )
    if rules.partnership:
        if rules.partner_capture == "no_bonus":
            text += " If his partner takes it, the partner pays twice and nobody gains."
        else:
            text += " If his partner takes it, it counts as if an opponent had."
    return text


def redeal_help(rules: Rules, g: Glyphs) -> str:
    """Which hands may claim a redeal at this table, one sentence per option that is on, and what a
    redeal does; empty when no hand may."""
    said = []
    if rules.koh_redeal and (not rules.complex or rules.tiebreak == "extra_koh_deal"):  # Complex: its tiebreak only
        kh, ah = g.card(Card.KH), g.card(Card.AH)
        said.append(
            f"In King of Hearts, a player whose hearts are just the {kh}, just the {ah}, or exactly the {ah} "
            f"and {kh} may claim a redeal when asked."
        )
    if rules.trix_throw_in:
        said.append(
            "In Trix, a player with all four 2s, or with three 2s and the 3 of the suit whose 2 he lacks, "
            "may claim a redeal when asked."
        )
    if said:
        said.append(
            "A redeal scores nothing: the king deals again and names a contract again (the same one if he likes)."
        )
    return " ".join(said)


def winner_help(rules: Rules) -> str:
    """Who wins the match, and what a shared lead leads to under this table's ``tiebreak``."""
    if rules.partnership:
        won = "The team with the higher total after the last deal wins, both partners alike."
        tied, leads = "If the two teams are level", "one team leads"
    else:
        won = "The highest total after the last deal wins."
        tied, leads = "If the lead is shared", "one player leads"
    if rules.tiebreak == "none":
        tie = f"{tied}, {'they' if rules.partnership else 'the leaders'} share the win."
    elif rules.tiebreak == "extra_koh_deal":
        tie = f"{tied}, one more King of Hearts deal decides, and another after it until {leads}."
    else:
        tie = f"{tied}, a further kingdom decides, and another after it until {leads}."
    return f"{won} {tie}"


def rules_help(v: View, g: Glyphs) -> Text:
    """The F1 sheet: what each contract of this table asks, and the rules that change play, so that
    someone new to Trix can play from it (docs/how-to-play.md says more)."""
    rules = v.rules
    t = Text("How to play\n", style="bold")
    if v.contract is not None:
        t.append("Now: " + contract_goal(v.contract, rules, g) + "\n\n", style="bold")
    if rules.kingdoms == 1:
        t.append(
            "The match is one kingdom, with one king: before each of its deals he names a contract he has "
            "not named yet. "
        )
    else:
        t.append(
            f"A match is {rules.kingdoms} kingdoms; in each, one player is king. Before each deal of his "
            "kingdom the king names a contract he has not named yet in it. "
        )
    t.append(
        f"The first king is the player dealt the {g.card(rules.first_king_card)} in the first deal, and the "
        "king always opens: he leads the first trick, and in Trix the first turn is his (a jack, or a pass if he "
        "has none). Play goes "
        "counter-clockwise: the next player is on your right. In the "
        "trick contracts follow the suit led if you can; the highest card of that suit takes the trick "
        "and leads the next.\n\n"
    )
    for c in rules.contracts:
        t.append("• " + contract_goal(c, rules, g) + "\n")
    extra = []
    if rules.kingdoms > 1 and rules.kingdom_passes == "against_play":
        extra.append(
            "When a kingdom is over it passes against the direction of play: the player who plays just before "
            "the king (on his left) becomes the next king."
        )
    # a Complex match deals King of Hearts only for a tiebreak of that kind, and then its options apply
    koh_deals = not rules.complex or rules.tiebreak == "extra_koh_deal"
    if rules.hearts_lead_ban and koh_deals:
        extra.append("In King of Hearts nobody may lead a heart while holding another suit.")
    if rules.king_must_be_discarded:
        where = "Complex" if rules.complex else "King of Hearts"
        extra.append(f"In {where}, a player who cannot follow suit and holds the {g.card(Card.KH)} must play it.")
    if rules.early_end and not rules.complex:  # Complex always plays its 13 tricks
        extra.append(
            f"A trick contract stops as soon as its last penalty card is taken (the {g.card(Card.KH)}, the "
            "13th diamond or the 4th queen); Ltoosh always plays all 13 tricks."
        )
    if rules.doubling:
        extra.append(doubling_help(rules, g))
    redeal = redeal_help(rules, g)
    if redeal:
        extra.append(redeal)
    if rules.partnership:
        extra.append("Partners sit across from each other; each keeps his own score, and the team's total decides.")
    extra.append(winner_help(rules))
    t.append("\n" + "\n".join(extra) + "\n")
    t.append("\nEsc closes this sheet.", style="dim")
    return t
