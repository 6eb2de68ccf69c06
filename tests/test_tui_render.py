"""The terminal's drawings as plain functions: no piece of the table on top of another, whatever the names."""

from __future__ import annotations

import dataclasses
import json
import random
from importlib.resources import files
from pathlib import Path
from typing import get_args

import pytest
from rich.text import Text

from opentrix import actions as A
from opentrix.cards import Card, CardSet
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import Rules, SelfCapture
from opentrix.tui import render
from opentrix.tui.glyphs import Glyphs
from opentrix.tui.replay import NAME_WIDTH, build_replay, shown_name
from opentrix.tui.session import SEAT_NAMES, phrase
from opentrix.view import view

SELF_CAPTURE = get_args(SelfCapture)
EXAMPLES = files("opentrix") / "examples"
LEVELS = ("medium", "random", "openspiel-ismcts", "strong-uniform")  # the longest bot names there are
GLYPHS = (Glyphs(), Glyphs(ascii=True))


def play_names(levels: tuple[str, str, str]) -> list[str]:
    """The names the play screen gives the seats (PlaySession.name)."""
    return ["You", *(f"{SEAT_NAMES[s]} ({lv})" for s, lv in enumerate(levels, 1))]


def trix_positions(seed: int, rules: str = "classic") -> list[Match]:
    """Every position of a Trix deal played at random from ``seed`` (whoever is king)."""
    m = Match(Rules.preset(rules), seed=seed)
    m.apply(A.choose(Contract.TRIX))
    rng = random.Random(seed)
    out = [m.copy()]
    while m.phase < Phase.DEAL_OVER:
        m.apply(rng.choice(m.legal_actions()))
        out.append(m.copy())
    return out


def assert_clean(canvas: render.Canvas, names: list[str], g: Glyphs) -> str:
    """No piece overlapped, touched or ran off the canvas, and every name is there whole."""
    text = canvas.render().plain
    assert not canvas.clashes, (canvas.clashes, text)
    words = " ".join(text.split())
    for name in names:
        assert " ".join(g.plain(Text(name)).plain.split()) in words or all(w in words for w in name.split()), name
    return text


def test_trix_layouts_never_touch_the_seats() -> None:
    """A side seat's title (``Left (medium) · king ◀``) shared a row with the layouts and was cut by them:
    ``♥ J … QRight (medium) · king ◀``."""
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        levels = (rng.choice(LEVELS), rng.choice(LEVELS), rng.choice(LEVELS))
        names = play_names(levels)
        for m in trix_positions(seed, "classic" if seed % 2 else "wikipedia"):
            for g in GLYPHS:
                v = view(m, 0)
                text = assert_clean(render.draw_table(v, g, names), names, g)
                for line in render.layouts(v, g):  # each layout whole, with a blank on either side
                    shown = g.plain(line).plain
                    assert any(f" {shown} " in f" {row} " for row in text.splitlines()), (shown, text)
                checked += 1
    assert checked > 500
    # the longest names at once, the king and the turn on a side seat
    names = play_names(("openspiel-ismcts", "strong-uniform", "openspiel-ismcts"))
    for m in trix_positions(5):
        for g in GLYPHS:
            assert_clean(render.draw_table(view(m, 0), g, names), names, g)


def test_the_trick_contracts_keep_the_seats_apart_too() -> None:
    names = play_names(("openspiel-ismcts", "strong-uniform", "openspiel-ismcts"))
    for seed in range(4):
        m = Match(Rules.preset("complex"), seed=seed)
        m.apply(A.choose(Contract.COMPLEX))
        rng = random.Random(seed)
        while m.phase < Phase.DEAL_OVER:
            m.apply(rng.choice(m.legal_actions()))
            for g in GLYPHS:
                assert_clean(render.draw_table(view(m, 0), g, names), names, g)


def test_the_canvas_reports_pieces_that_touch_overlap_or_run_off() -> None:
    """The check the tests above rely on can fail."""
    c = render.Canvas(20, 1)
    c.put(0, 0, "Right (medium)")
    c.put(0, 14, "♥ J")
    c.render()
    assert len(c.clashes) == 1
    c = render.Canvas(20, 1)
    c.put(0, 15, "layout")
    c.render()
    assert len(c.clashes) == 1
    c = render.Canvas(20, 1)
    c.put(0, 0, "Left")
    c.put(0, 5, "♥ J")
    c.render()
    assert c.clashes == []


LONG_NAMES = ["Zainab Al-Khatib Nour", "Mohammed-Ali Haddad", "Christopher Johnson", "Alexandra Papadopoulou"]


def long_named_replay(g: Glyphs, players: list[str]) -> tuple[list[str], list[tuple[render.Canvas, int, int | None]]]:
    data = json.loads(Path(str(EXAMPLES / "classic-full-match.json")).read_text(encoding="utf-8"))
    data["players"] = players
    rp = build_replay(Record.from_json(data), g)
    out = []
    for st in rp.steps:
        m = st.match
        v = view(m, None)
        hands = list(m.deals[-1].hands) if m.phase != Phase.CHOOSE_CONTRACT else list(m.pending_hands or (0,) * 4)
        out.append((render.draw_table_all_hands(v, hands, g, rp.names), m.king, v.turn))
    return rp.names, out


@pytest.mark.parametrize("g", GLYPHS, ids=["symbols", "ascii"])
def test_replay_titles_with_twenty_character_names_fit(g: Glyphs) -> None:
    """Two names of the documented limit, both sides king in turn: ``Alexandra Papadopou… (3) · kingammed-Ali
    Haddad (1)`` ran into each other on one row."""
    names, canvases = long_named_replay(g, LONG_NAMES)
    assert names[3] == shown_name("Alexandra Papadopoulou", g=g) + " (3)" and len(names[3]) == NAME_WIDTH + 4
    kings = set()
    for canvas, king, turn in canvases:
        text = assert_clean(canvas, names, g)
        kings.add(king)
        if king in (1, 3):
            assert ("king <" if g.ascii else "king ◀") in text or turn != king
            assert "king" in text
    assert {1, 3} <= kings  # both side seats were king with their long names


@pytest.mark.parametrize("g", GLYPHS, ids=["symbols", "ascii"])
def test_replay_of_a_terminal_save_with_the_longest_bot_names_fits(g: Glyphs) -> None:
    players = ["player", "bot:openspiel-ismcts", "bot:strong-uniform", "bot:openspiel-ismcts"]
    names, canvases = long_named_replay(g, players)
    assert names == ["You", "Right (openspiel-ismcts)", "Across (strong-uniform)", "Left (openspiel-ismcts)"]
    for canvas, _, _ in canvases:
        assert_clean(canvas, names, g)


def test_names_in_ascii_are_cut_with_three_dots_and_keep_their_width() -> None:
    ascii_g = Glyphs(ascii=True)
    assert shown_name("Alexandra Papadopoulou", g=ascii_g) == "Alexandra Papadop..."
    assert shown_name("Alexandra Papadopoulou") == "Alexandra Papadopou…"
    assert len(shown_name("x" * 50, g=ascii_g)) == NAME_WIDTH
    line = ascii_g.plain(Text("a… b", style="bold"))
    assert line.plain == "a... b" and line.style == "bold"


def finished_deals(n: int, rules: Rules | None = None) -> Match:
    """A match played at random until ``n`` deals are finished."""
    m = Match(rules or Rules(), seed=n)
    rng = random.Random(n)
    while len(m.summaries) < n:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
        else:
            m.apply(rng.choice(m.legal_actions()))
    return m


@pytest.mark.parametrize(("deals", "max_rows", "hidden"), [(12, 8, 5), (9, 8, 2), (8, 8, 0), (20, 20, 0), (20, 19, 2)])
def test_the_score_panel_counts_the_deals_it_leaves_out(deals: int, max_rows: int, hidden: int) -> None:
    """It said one fewer than it left out (``… 4 earlier deals`` above deals 6 to 12)."""
    v = view(finished_deals(deals), 0)
    lines = render.scores(v, ["You", "Rgt", "Acr", "Lft"], max_rows=max_rows).plain.splitlines()
    rows = [line for line in lines if line[:2].strip().isdigit()]
    assert len(rows) + (1 if hidden else 0) <= max_rows
    first = int(rows[0][:2])
    assert first == hidden + 1 and int(rows[-1][:2]) == deals  # every deal is shown or counted
    if hidden:
        assert lines[1] == f"   … {hidden} earlier deal{'' if hidden == 1 else 's'}"
    else:
        assert "earlier" not in " ".join(lines)
    ascii_panel = Glyphs(ascii=True).plain(render.scores(v, ["You", "Rgt", "Acr", "Lft"], max_rows=max_rows)).plain
    assert ("   ... " in ascii_panel) == bool(hidden)


def test_without_colour_red_suits_are_bold_not_grey() -> None:
    """Greyed, ``bold red`` turned as dark as the dim of a card that may not be played."""
    plain = Glyphs(color=False)
    assert render.card(Card.QH, plain).style == "bold" == render.card(Card.QS, plain).style
    assert render.card(Card.QH, Glyphs()).style == "bold red"
    bar = render.hand_bar(1 << Card.QH | 1 << Card.TD, plain, legal=[Card.QH])
    assert all("red" not in str(span.style) for span in bar.spans)
    assert "dim" in [str(span.style) for span in bar.spans]  # 10♦ may not be played: dim, unlike the suits


def test_cards_are_listed_in_the_hand_order() -> None:
    """``place 9♣ K♥ 9♠`` listed cards in reverse card numbers, while the hand reads ♠ ♥ ♦ ♣, high to low."""
    g = Glyphs()
    assert render.cards_line([Card["9C"], Card.KH, Card["9S"], Card.QH], g).plain == "9♠ K♥ Q♥ 9♣"
    assert phrase(A.double(Card.KH, Card.QS), g) == "double Q♠ and K♥"


def test_a_partnership_wins_with_its_team_total() -> None:
    names = ["A", "B", "C", "D"]
    assert render.result([0, 2], [0, 60, 115, 10], True, names) == "A and C win as a team (115)"
    assert render.result([1, 3], [0, 60, 115, 10], True, names) == "B and D win as a team (70)"
    assert render.result([0, 1, 2, 3], [50, 60, 10, 0], True, names) == "the two teams tie (60 each)"
    assert render.result([2], [0, 60, 115, 10], False, names) == "C wins (115)"
    assert render.result([0], [115, 0, 0, 0], False, ["You", "B", "C", "D"]) == "You win (115)"
    assert render.result([0, 2], [100, 0, 100, 0], False, names) == "A and C share the win (100)"


def test_declining_reads_as_declining() -> None:
    """The status line said ``Left plays on`` and ``Left doubles nothing``."""
    g = Glyphs()
    assert phrase(A.NO_CLAIM, g, third_person=True) == "does not claim a redeal"
    assert phrase(A.NO_DOUBLE, g, third_person=True) == "does not double"
    assert phrase(A.NO_DOUBLE, g) == "do not double"


@pytest.mark.parametrize(
    ("preset", "said"),
    [
        ("wikipedia", "he pays its plain value and nobody gains"),
        ("denexa", "he pays twice and whoever led that trick earns its value"),
        ("complex", "he pays twice and whoever led that trick earns its value"),
        ("online", "he pays its plain value and nobody gains"),
    ],
)
def test_the_rules_sheet_says_what_a_holder_pays_for_his_own_doubled_card(preset: str, said: str) -> None:
    """The sheet said only what another taker pays, which misleads where the presets differ most."""
    rules = Rules.preset(preset)
    text = " ".join(render.doubling_help(rules, Glyphs()).split())
    assert "whoever else takes it pays twice" in text and said in text
    sheet = render.rules_help(view(Match(rules, seed=1), 0), Glyphs()).plain
    assert said in " ".join(sheet.split())
    assert "his partner" not in text  # no partners at these tables
    for capture, partner in (("no_bonus", "the partner pays twice"), ("as_other", "counts as if an opponent had")):
        teams = dataclasses.replace(rules, partnership=True, partner_capture=capture)
        assert partner in " ".join(render.doubling_help(teams, Glyphs()).split())
    said_of = {render.doubling_help(dataclasses.replace(rules, self_capture=o), Glyphs()) for o in SELF_CAPTURE}
    assert len(said_of) == len(SELF_CAPTURE)  # each option is told apart


def sheet_of(rules: Rules, g: Glyphs | None = None) -> str:
    """The F1 sheet at the start of a match under ``rules``, as one line of words."""
    return " ".join(render.rules_help(view(Match(rules, seed=1), 0), g or Glyphs()).plain.split())


@pytest.mark.parametrize(
    ("preset", "said", "unsaid"),
    [
        (
            "classic",
            [
                "nobody may lead a heart",
                "If the lead is shared, one more King of Hearts deal decides, and another after it until one",
            ],
            ["stops as soon as", "against the direction of play", "may double", "redeal"],
        ),
        (
            "wikipedia",
            [
                "If the lead is shared, the leaders share the win.",
                "hearts are just the K♥, just the A♥, or exactly the A♥ and K♥ may claim a redeal",
                "In Trix, a player with all four 2s, or with three 2s and the 3 of the suit whose 2 he lacks",
                "A redeal scores nothing: the king deals again and names a contract again",
            ],
            ["nobody may lead a heart", "stops as soon as"],
        ),
        (
            "denexa",
            [
                "When a kingdom is over it passes against the direction of play",
                "he pays twice and whoever led that trick earns its value",
                "In Trix, a player with all four 2s",
            ],
            ["In King of Hearts, a player whose hearts", "stops as soon as"],
        ),
        (
            "online",
            [
                "A trick contract stops as soon as its last penalty card is taken",
                "If the lead is shared, a further kingdom decides, and another after it until one player leads.",
            ],
            ["nobody may lead a heart", "redeal"],
        ),
        (
            "complex",
            ["he pays twice and whoever led that trick earns its value", "the leaders share the win"],
            [
                "stops as soon as",
                "nobody may lead a heart",
                "King of Hearts deal decides",
            ],  # early_end does nothing here
        ),
    ],
)
def test_the_rules_sheet_says_what_this_tables_options_change(preset: str, said: list[str], unsaid: list[str]) -> None:
    """Early end, the kingdom passing the other way, redeal hands and the tiebreak were left out of the
    F1 sheet, so a player met them unexplained."""
    sheet = sheet_of(Rules.preset(preset))
    for line in [
        "The first king is the player dealt the 7♥ in the first deal",
        "he leads the first trick, and in Trix the first turn is his (a jack, or a pass if he has none)",
        "The highest total after the last deal wins.",
        *said,
    ]:
        assert line in sheet, line
    for line in unsaid:
        assert line not in sheet, line
    trix = "a jack opens its suit's row; on your turn place a jack, or a card next to an end of its row, if you can"
    assert f"Trix: {trix}, else pass." in sheet
    assert "First out +200, second +150, third +100, last +50" in sheet
    assert "costs -" not in sheet  # no double negative: "costs 25"


def test_the_rules_sheet_of_a_partnership_says_the_team_wins_and_the_partner_gains_nothing() -> None:
    sheet = sheet_of(Rules.preset("online", partnership=True))
    assert "an opponent who takes it pays twice, and the holder earns its value" in sheet
    assert "If his partner takes it, the partner pays twice and nobody gains." in sheet
    assert "whoever else takes it" not in sheet  # a partner taking it pays the holder nothing
    assert "The team with the higher total after the last deal wins, both partners alike." in sheet
    assert "If the two teams are level, a further kingdom decides, and another after it until one team leads." in sheet
    assert "The highest total after the last deal wins." not in sheet
    for tiebreak, said in (("none", "they share the win"), ("extra_koh_deal", "one more King of Hearts deal decides")):
        assert said in sheet_of(Rules.preset("online", partnership=True, tiebreak=tiebreak))


def test_the_rules_sheet_of_one_kingdom_has_one_king() -> None:
    """It said "A match is 1 kingdom; in each, one player is king"."""
    sheet = sheet_of(Rules.preset("denexa", kingdoms=1))
    assert "The match is one kingdom, with one king" in sheet and "1 kingdom" not in sheet
    assert "passes against the direction of play" not in sheet  # no next kingdom to pass to


def test_the_rules_sheet_names_the_contract_the_king_must_be_discarded_in() -> None:
    assert "In King of Hearts, a player who cannot follow suit and holds the K♥ must play it." in sheet_of(
        Rules.preset("classic", king_must_be_discarded=True)
    )
    assert "In Complex, a player who cannot follow suit and holds the K♥ must play it." in sheet_of(
        Rules.preset("complex", king_must_be_discarded=True)
    )
    ascii_sheet = sheet_of(Rules.preset("wikipedia", first_king_card="7S"), Glyphs(ascii=True))
    assert "dealt the 7S in the first deal" in ascii_sheet and "just the AH" in ascii_sheet


def test_a_hand_with_only_a_pass_is_drawn_dim() -> None:
    """Bold means playable: when you must pass in Trix no card is, though a card is asked for."""
    hand = int(CardSet.parse("AS 9H 2D"))

    def rank_styles(t: Text) -> dict[str, str]:
        return {t.plain[sp.start : sp.end]: str(sp.style) for sp in t.spans if t.plain[sp.start : sp.end] in "A92"}

    assert rank_styles(render.hand_bar(hand, Glyphs(), [], None, playing=True)) == {"A": "dim", "9": "dim", "2": "dim"}
    # not your turn: the hand as it is, bold
    assert rank_styles(render.hand_bar(hand, Glyphs(), [])) == {"A": "bold", "9": "bold", "2": "bold"}
    assert rank_styles(render.hand_bar(hand, Glyphs(), [Card.AS]))["9"] == "dim"


@pytest.mark.parametrize("preset", ["classic", "wikipedia", "denexa", "online", "complex"])
def test_the_rules_sheet_in_ascii_mode_is_plain_ascii(preset: str) -> None:
    """``--ascii`` promises plain letters everywhere: the sheet's bullets were still ``•``."""
    rules = dataclasses.replace(Rules.preset(preset), partnership=True)
    g = Glyphs(ascii=True)
    sheet = g.plain(render.rules_help(view(Match(rules, seed=1), 0), g)).plain
    assert sheet.isascii(), sorted({ch for ch in sheet if not ch.isascii()})


def test_a_refused_contract_is_named_as_players_say_it() -> None:
    """Engine messages name contracts by their record ids; the terminal says them as a player would."""
    from opentrix.tui.session import in_your_words

    said = in_your_words("king_of_hearts has already been played in seat 0's kingdom")
    assert said == "King of Hearts has already been played in your kingdom"
    said = in_your_words("complex is not a contract in these rules (contracts: king_of_hearts, queens, trix)")
    assert said == "Complex is not played at this table"
    assert (
        in_your_words("the tiebreak deal is King of Hearts, not queens")
        == "The tiebreak deal is King of Hearts, not Queens"
    )


def test_the_header_names_a_tiebreak_kingdom() -> None:
    """Under ``extra_kingdom`` a tie for the lead plays a fifth kingdom: it read ``kingdom 4/4``."""
    from opentrix.deal import deal_hands

    rules = Rules.preset("online")
    extra = Match.at_contract_choice(rules, deal_hands(1, 0), king=1, kingdom=4, deal_number=20)
    assert "kingdom 5, tiebreak" in render.header(view(extra, 0), SEAT_NAMES, Glyphs()).plain
    last = Match.at_contract_choice(rules, deal_hands(1, 0), king=1, kingdom=3, deal_number=15)
    assert "kingdom 4/4" in render.header(view(last, 0), SEAT_NAMES, Glyphs()).plain
    # A match played to its end (the count then stands past the last kingdom): its last kingdom.
    over = Match(Rules(), seed=1)
    rng = random.Random(1)
    while not over.is_over:
        if over.turn is None:
            over.start_deal()
            continue
        over.apply(rng.choice(view(over, over.turn).legal_actions))
    assert "kingdom 4/4" in render.header(view(over, 0), SEAT_NAMES, Glyphs()).plain


def _after_doubling(rules: Rules, contract: Contract) -> Match:
    """Seed 17's first deal with ``contract`` named and every holder answering "no double"."""
    m = Match(rules, seed=17)
    m.apply(A.choose(contract))
    while m.phase in (Phase.DOUBLE, Phase.CLAIM):
        legal = view(m, m.turn).legal_actions
        m.apply(A.NO_DOUBLE if A.NO_DOUBLE in legal else legal[0])
    return m


def test_the_header_keeps_who_was_asked_to_double_and_did_not() -> None:
    """Under sequential doubling only holders are asked, so "Right does not double" tells everyone where
    the K♥ is; the bots keep that all deal, and so does the header (it was only in the status line)."""
    m = _after_doubling(Rules.preset("online"), Contract.KING_OF_HEARTS)
    holder = next(s for s in range(4) if m.deals[-1].dealt[s] >> Card.KH & 1)
    assert holder != 0  # seed 17: another seat holds it, and was asked
    line = render.header(view(m, 0), SEAT_NAMES, Glyphs()).plain
    assert f"held K♥, no double: {SEAT_NAMES[holder]}" in line
    ascii_g = Glyphs(ascii=True)
    assert "held KH, no double" in ascii_g.plain(render.header(view(m, 0), SEAT_NAMES, ascii_g)).plain
    queens_deal = _after_doubling(Rules.preset("online"), Contract.QUEENS)
    queens = render.header(view(queens_deal, 0), SEAT_NAMES, Glyphs()).plain
    assert "held a queen, no double: " in queens and "You" not in queens.split("no double: ")[1]  # not your own
    # Hidden answers betray nothing (every seat answers): nothing to keep.
    hidden = _after_doubling(Rules.preset("online", doubling_reveal="hidden"), Contract.KING_OF_HEARTS)
    assert "no double" not in render.header(view(hidden, 0), SEAT_NAMES, Glyphs()).plain
    # Once the K♥ is played it is no longer in anyone's hand.
    while m.deals[-1].phase == Phase.PLAY and not any(c == Card.KH for _, c in view(m, 0).plays):
        m.apply(view(m, m.turn).legal_actions[0])
    assert "no double" not in render.header(view(m, 0), SEAT_NAMES, Glyphs()).plain


def test_a_complex_match_with_a_king_of_hearts_tiebreak_explains_that_deals_rules() -> None:
    """The tiebreak deal is King of Hearts, where the hearts-lead ban and its redeal claims apply: the
    sheet said nothing of them, since a Complex kingdom has no such deal of its own."""
    sheet = sheet_of(Rules.preset("classic", complex=True, koh_redeal=True))
    assert "nobody may lead a heart" in sheet and "In King of Hearts, a player whose hearts" in sheet
    assert "King of Hearts deal decides" in sheet
    plain = sheet_of(Rules.preset("complex", hearts_lead_ban=True, koh_redeal=True))  # tiebreak "none"
    assert "nobody may lead a heart" not in plain and "In King of Hearts, a player whose hearts" not in plain


def test_the_complex_goal_says_costs_and_earnings_the_way_the_others_do() -> None:
    """``-p.king_of_hearts`` printed "plus -75 for the K♥" with custom points that earn."""
    from opentrix.rules import Points

    sheet = sheet_of(Rules.preset("complex", points=Points(king_of_hearts=75)))
    assert "Complex: each trick costs 15, and what it holds as well: the K♥ earns 75, each queen costs 25" in sheet
    assert "plus -" not in sheet and "costs -" not in sheet


def penalty_facts_shown(text: str, v: render.View, seat: int, g: Glyphs) -> bool:
    """Every penalty card a seat has taken in Complex is in ``text``: K♥ and the queens by name (or the
    queens together by their suits, ``Q♠♥♦``), and every diamond in the count ``♦×N``."""
    taken = int(v.taken[seat])
    diamonds = (taken & int(CardSet.parse("2D 3D 4D 5D 6D 7D 8D 9D TD JD QD KD AD"))).bit_count()
    if diamonds and f"{g.suit(2)}{'x' if g.ascii else '×'}{diamonds}" not in text:
        return False
    if taken >> int(Card.KH) & 1 and g.card(int(Card.KH)) not in text:
        return False
    queens = [q for q in (int(Card.QS), int(Card.QH), int(Card.QD), int(Card.QC)) if taken >> q & 1]
    together = next((w for w in text.split() if w.startswith("Q") and len(w) > 2), "")
    return all(g.card(q) in text or g.suit(q // 13) in together for q in queens)


@pytest.mark.parametrize("g", GLYPHS)
def test_a_side_seats_long_complex_status_loses_no_penalty_card(g: Glyphs) -> None:
    """A side seat's ``6 tricks Q♠ K♥ Q♥ Q♦ Q♣…`` in Complex was cut at its 25 columns and the count of
    diamonds lost. At the table it goes on over the next row; in the replay (one row)
    it is written shorter (``6 tr K♥ Q♠♥♦♣ ♦×5``). Either way every penalty fact shows, nothing clashes."""
    names = play_names(("medium", "medium", "medium"))
    wrapped = shortened = 0
    for seed in (0, 21, 129, 186):  # deals where a side seat takes many penalty cards
        m = Match(Rules.preset("complex"), seed=seed)
        m.apply(A.choose(Contract.COMPLEX))
        rng = random.Random(seed)
        while m.phase != Phase.DEAL_OVER:
            m.apply(rng.choice(m.legal_actions()))
            v = view(m, 0)
            if v.phase != Phase.PLAY:
                continue
            canvas = render.draw_table(v, g, names)
            lines = assert_clean(canvas, names, g).splitlines()
            for seat, part in ((3, slice(0, 25)), (1, slice(26, None))):
                status = " ".join(lines[row][part].strip() for row in (6, 7)).strip()
                assert penalty_facts_shown(status, v, seat, g), (seat, status, "\n".join(lines))
                wrapped += g.plain(render.seat_status(v, seat, g)).cell_len > 25
            hands = [int(h) for h in m.deals[-1].hands]
            canvas = render.draw_table_all_hands(v, hands, g, names)
            lines = assert_clean(canvas, names, g).splitlines()
            for seat, part in ((3, slice(0, 22)), (1, slice(29, None))):
                status = lines[8][part].strip()
                assert penalty_facts_shown(status, v, seat, g), (seat, status, "\n".join(lines))
                shortened += g.plain(render.seat_status(v, seat, g)).cell_len > 22
    assert wrapped and shortened  # the long statuses this test is about did come up


def test_score_heads_are_cut_by_their_width_on_screen() -> None:
    """A name in wide letters (山田太郎, two cells each) was cut to four characters, eight cells, and
    padded by characters: the columns of the score panel no longer lined up."""
    heads = render.short_names(["山田太郎さん (0)", "Mohammed (1)", "Mohamad (2)", "Omar (3)"])
    assert heads == ["山田", "Moh1", "Moh2", "Omar"]
    m = Match(Rules.preset("classic"), seed=4)
    rng = random.Random(4)
    while not m.summaries or m.phase != Phase.DEAL_OVER:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
            continue
        m.apply(rng.choice(m.legal_actions()))
    lines = render.scores(view(m, 0), heads).plain.splitlines()
    from rich.cells import cell_len

    assert {cell_len(line) for line in (lines[0], lines[1], lines[-1])} == {render.SCORE_WIDTH}, lines
