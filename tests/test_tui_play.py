"""The terminal table driven by keystrokes through Textual's pilot, at 80×24, with random bots and no pause."""

from __future__ import annotations

import io
import json
import random
import time
from importlib.resources import files
from pathlib import Path

import pytest
from rich.console import Console
from textual.pilot import Pilot
from typer.testing import CliRunner

from opentrix import actions as A
from opentrix.cards import SUIT_MASKS, Card, CardSet
from opentrix.cli import app as cli_app
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.tui import render
from opentrix.tui.glyphs import Glyphs
from opentrix.tui.play_app import ENTER_GRACE, PlayApp, ScoreSheet
from opentrix.tui.session import PlaySession, choices
from opentrix.tui.snapshot import screen_text
from opentrix.view import view
from pty_kit import PtyCommand

KING_SEED = 6  # you are the first king; your first hand holds Q♠ and K♥
SIZE = (80, 24)


def make_app(seed: int = KING_SEED, save: Path | None = None, ascii: bool = False, pause: float = 0.0) -> PlayApp:
    session = PlaySession("classic", ["random", "random", "random"], seed=seed, save=save)
    return PlayApp(session, Glyphs(ascii=ascii), pause=pause)


async def settle(app: PlayApp, pilot: Pilot[None]) -> None:
    """Wait until the bots have acted and the screen is redrawn."""
    for _ in range(500):
        await app.workers.wait_for_complete()
        await pilot.pause()
        if app.session.bot_to_act() is None and not any(w.is_running for w in app.workers):
            return
    raise AssertionError("the bots never stopped")


async def type_text(pilot: Pilot[None], text: str) -> None:
    await pilot.press(*text, "enter")


def typed_name(card: int) -> str:
    """How a player types a card: ``10d``, ``qs``."""
    return Card(card).symbol[:-1].lower() + "shdc"[card // 13]


async def test_a_full_deal_played_by_keystrokes(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    app = make_app(save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        screen = screen_text(app)
        assert "You are king: name a contract" in screen
        assert "[1 King of Hearts]" in screen and "5 Trix" in screen
        await type_text(pilot, "ltoosh")
        await settle(app, pilot)
        assert "Ltoosh" in screen_text(app).splitlines()[0]
        s = app.session
        played = 0
        while s.match.phase != Phase.DEAL_OVER:
            v = s.view()
            assert v.to_act and v.phase == Phase.PLAY
            hand_line = next(line for line in screen_text(app).splitlines() if line.startswith("Hand "))
            assert "[" in hand_line  # the selected card is bracketed
            card = v.legal_actions[-1]
            await type_text(pilot, typed_name(card))
            await settle(app, pilot)
            assert card in s.match.deals[-1].plays
            played += 1
        assert played == 13
        screen = screen_text(app)
        scores = s.match.deals[-1].scores
        assert scores is not None and sum(scores) == -195
        assert "Deal over: You " in screen and "Press Enter for the next deal" in screen
        assert " 1 Ltsh" + "".join(f"{x:>5}" for x in scores) in screen  # the score panel
        assert "Total  " + "".join(f"{x:>5}" for x in scores) in screen
        await pilot.press("enter")
        await settle(app, pilot)
        v = s.view()
        assert v.phase == Phase.CHOOSE_CONTRACT and v.to_act  # still your kingdom
        assert "Ltoosh" not in screen_text(app).split("name a contract")[1]  # only unplayed contracts
    result = CliRunner().invoke(cli_app, ["verify", "--json", str(save)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["ok"] and doc["deals"][0]["scores"] == list(scores)


async def test_arrows_and_enter_play_the_selected_card() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("right", "enter")  # the second option: Queens
        await settle(app, pilot)
        assert app.session.match.deals[-1].contract == Contract.QUEENS
        v = app.session.view()
        cards = sorted((a for a in v.legal_actions if A.is_card(a)), key=lambda c: (c // 13, -c))
        await pilot.press("right", "right", "left", "right")
        await settle(app, pilot)
        assert f"[{Glyphs().rank(cards[2])}]" in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.match.deals[-1].plays[0] == cards[2]


async def test_hint_names_a_move_and_why() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")  # Queens, straight from the number key
        await settle(app, pilot)
        await pilot.press("question_mark")
        await settle(app, pilot)
        screen = screen_text(app)
        hint_line = next(line for line in screen.splitlines() if line.startswith("Hint: play "))
        hinted = Card.parse(hint_line.split()[2])
        assert len(hint_line.split(" — ", 1)[1]) > 3  # a reason follows the move
        assert app.hints_given == 1
        await pilot.press("enter")  # the hint also moved the selection to its card
        await settle(app, pilot)
        assert app.session.match.deals[-1].plays[0] == hinted


async def test_bad_input_explains_and_asks_again() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("9")
        assert "there is no option 9: choose 1 to 5" in screen_text(app)
        await type_text(pilot, "hearts")
        assert "'hearts' is not a contract you can name" in screen_text(app)
        await type_text(pilot, "queens")
        await settle(app, pilot)
        s = app.session
        await type_text(pilot, "zz")
        assert "'zz' is not a card: type the rank then the suit" in screen_text(app)
        hand = int(s.view().hand or 0)
        missing = next(c for c in range(52) if not hand >> c & 1)
        await type_text(pilot, typed_name(missing))
        assert f"Not allowed: You do not hold {Card(missing).symbol}" in screen_text(app)
        assert s.match.deals[-1].plays == []  # nothing was played: asked again
        # play on until you must follow suit, then try another suit
        while True:
            v = s.view()
            hand = int(v.hand or 0)
            if v.trick and len(v.legal_actions) < hand.bit_count():
                lead = v.trick[0][1] // 13
                other = next(c for c in range(52) if hand >> c & 1 and c // 13 != lead)
                await type_text(pilot, typed_name(other))
                assert "Not allowed: You must follow suit " in screen_text(app)
                assert s.view().legal_actions == v.legal_actions
                break
            await type_text(pilot, typed_name(v.legal_actions[0]))
            await settle(app, pilot)
            assert s.match.phase == Phase.PLAY, "no chance to revoke in this deal; pick another seed"


async def test_typing_out_of_turn_and_hurrying_the_bots() -> None:
    app = make_app(seed=0, pause=30.0)  # seat 1 is king: the bots start
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        s = app.session
        assert not s.match.deals  # the king bot is still waiting out its pause
        assert "Waiting for Right (random)" in screen_text(app)
        await type_text(pilot, "qs")
        assert "'qs': it is not your turn" in screen_text(app)
        await pilot.press("less_than_sign")
        assert "pause 30s" in screen_text(app)  # slower than the longest step: never faster
        await pilot.press("greater_than_sign")
        assert "pause 2.5s" in screen_text(app)  # the longest step below 30 s
        await pilot.press("less_than_sign")
        assert "pause 30s" in screen_text(app)  # and back: the pause given is one of the steps
        while s.bot_to_act() is not None:
            before = len(s.match.history)
            await pilot.press("space")
            for _ in range(100):
                await pilot.pause(0.01)
                if len(s.match.history) > before:
                    break
            assert len(s.match.history) > before
        assert s.your_turn


async def test_no_color_uses_only_greys_and_keeps_the_marks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        assert app.no_color
        console = Console(width=80, file=io.StringIO(), force_terminal=True, color_system="truecolor")
        colours = set()
        for seg in console.render(app.screen._compositor.render_update(full=True)):
            if seg.style:
                for c in (seg.style.color, seg.style.bgcolor):
                    if c is not None:
                        colours.add(c.get_truecolor())
        assert colours and all(r == g == b for r, g, b in colours)
        screen = screen_text(app)
        assert "Your lead" in screen and "[" in screen and "◀" in screen


async def test_ascii_mode_has_no_suit_symbols() -> None:
    app = make_app(ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        screen = screen_text(app)
        assert screen.isascii()  # the footer's key names too
        assert "Hand S Q 9 6 2  H K 10 7 6  D 4 2  C 10 7 6" in screen.replace("[", "").replace("]", "")


async def test_score_sheet_opens_and_closes() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("tab")
        assert isinstance(app.screen, ScoreSheet)
        screen = screen_text(app)
        assert "Score sheet" in screen and "Total" in screen
        await pilot.press("escape")
        assert not isinstance(app.screen, ScoreSheet)


async def test_ctrl_c_quits_and_the_record_survives(tmp_path: Path) -> None:
    save = tmp_path / "quit.json"
    app = make_app(save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("1")
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        await pilot.press("ctrl+c")
        await pilot.pause()
        assert app._exit
    doc = json.loads(save.read_text(encoding="utf-8"))
    assert doc["deals"][0]["contract"] == "king_of_hearts" and len(doc["deals"][0]["plays"]) >= 4
    assert CliRunner().invoke(cli_app, ["verify", str(save)]).exit_code == 0


async def test_a_trix_deal_by_enter_alone_with_passes() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")  # Trix
        await settle(app, pilot)
        s = app.session
        saw_layouts = saw_pass_prompt = False
        while s.match.phase != Phase.DEAL_OVER:
            screen = screen_text(app)
            saw_layouts |= "♠ J" in screen or "♠ 10 … J" in screen
            saw_pass_prompt |= "You have no card to place: press Enter to pass." in screen
            await pilot.press("enter")
            await settle(app, pilot)
        deal = s.match.deals[-1]
        assert deal.scores is not None and sorted(deal.scores) == [50, 100, 150, 200]
        assert saw_layouts
        assert saw_pass_prompt and 52 in [a for a, seat in zip(deal.plays, deal.seats) if seat == 0]
        assert "Deal over: " in screen_text(app)


async def test_claiming_a_trix_throw_in() -> None:
    app = make_app()
    mine = int(CardSet.parse("2S 2H 2D 2C 7H"))
    rest = [c for c in range(52) if not mine >> c & 1]
    hands = [mine | int(CardSet(rest[:8]))] + [int(CardSet(rest[8 + 13 * i : 21 + 13 * i])) for i in range(3)]
    # you hold all four 2s and 7♥: you are king, and in Trix you may throw the deal in
    app.session.match = Match(Rules.preset("wikipedia"), hands, seed=1)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")  # Trix
        await settle(app, pilot)
        screen = screen_text(app)
        assert "Your hand allows a redeal (you hold all four 2s): claim it, or play on?" in screen
        # "play on" first and selected: an Enter meant for something else never claims
        assert "[1 play on]" in screen and "2 claim a redeal" in screen
        await pilot.press("2")
        await settle(app, pilot)
        screen = screen_text(app)
        assert "You claimed a redeal: the same king deals again." in screen
        assert " 1 Trix thrown in by You" in screen
        await pilot.press("enter")
        await settle(app, pilot)
        assert "You are king: name a contract" in screen_text(app)
        assert "5 Trix" in screen_text(app)  # a thrown-in deal uses up no contract


def test_the_table_shows_each_seats_takings_whole_and_counts_every_diamond() -> None:
    """Complex, every trick of a random deal: a side seat's line (tricks, K♥ and queens by name, diamonds
    counted with Q♦ among them) is never cut by its card in the trick, and ``♦×N`` is every diamond taken."""
    rules = Rules.preset("complex")
    g = Glyphs()
    names = ["You", "Right", "Top", "Left"]
    for seed in range(3):
        m = Match(rules, seed=seed)
        m.apply(A.choose("complex"))
        rng = random.Random(seed)
        while m.phase != Phase.DEAL_OVER:
            m.apply(rng.choice(m.legal_actions()))
            v = view(m, 0)
            if v.phase != Phase.PLAY:
                continue
            lines = render.table(v, g, names).plain.splitlines()
            for seat, row in ((3, 6), (1, 6)):
                status = render.seat_status(v, seat, g).plain
                assert status in lines[row], (status, lines[row])
                diamonds = (int(v.taken[seat]) & SUIT_MASKS[2]).bit_count()
                assert (f"♦×{diamonds}" in status) == (diamonds > 0), status


COMPLEX_SEED = 1229  # complex rules: you are king and hold K♥, Q♠, Q♦ and Q♣, so sixteen doubling answers


def complex_app() -> PlayApp:
    session = PlaySession("complex", ["random", "random", "random"], seed=COMPLEX_SEED)
    return PlayApp(session, Glyphs(), pause=0.0)


async def test_sixteen_doubling_answers_fit_and_take_a_typed_number() -> None:
    """Pressing 1 to start "10" used to double K♥ at once, and the long list pushed the message and
    the typed line below the bottom edge of an 80x24 screen."""
    app = complex_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")  # Complex
        await settle(app, pilot)
        s = app.session
        v = s.view()
        assert v.phase == Phase.DOUBLE and v.to_act
        opts = choices(v, Glyphs())
        assert len(opts) == 16
        screen = screen_text(app)
        assert "Type a number, then Enter." in screen and "[1 no double]" in screen
        await pilot.press("k", "h", "space", "q", "z", "enter")
        lines = screen_text(app).splitlines()
        assert any(line.startswith("'qz' is not a card: type the cards to double") for line in lines)
        await pilot.press("1")
        assert s.view().phase == Phase.DOUBLE  # not answered yet: 1 may start 10
        assert any(line.startswith("> 1") for line in screen_text(app).splitlines())
        await pilot.press("0", "enter")
        await settle(app, pilot)
        assert s.match.deals[-1].answers[0] == (0, A.doubled_mask(opts[9].action))


async def test_two_cards_doubled_by_typing_them_with_a_space() -> None:
    """Space separates typed words; it used to be swallowed as "skip the pause", so "kh qs" was refused."""
    app = complex_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press("k", "h", "space", "q", "s")
        assert "> kh qs" in screen_text(app)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.match.deals[-1].answers[0] == (0, int(CardSet.parse("KH QS")))


async def test_a_small_terminal_keeps_the_prompt_the_message_and_the_typed_line() -> None:
    """At 60x20 the refusal and the typed line used to fall below the screen and the score panel
    wrapped one word per row; now the panel steps aside (Tab still shows it) and the blank rows go."""
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")  # Queens
        await settle(app, pilot)
        await type_text(pilot, "zz")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert len(lines) == 20
        assert any(line.startswith("'zz' is not a card") for line in lines)
        assert any(line.startswith("> ▏") for line in lines)
        assert not any("Total" in line for line in lines)
        await pilot.resize_terminal(80, 24)  # mid-deal: the panel comes back
        await pilot.pause()
        await pilot.pause()
        screen = screen_text(app)
        assert "Total      0    0    0    0" in screen and "'zz' is not a card" in screen
        await pilot.resize_terminal(60, 20)
        await pilot.pause()
        await pilot.pause()
        assert any(line.startswith("> ▏") for line in screen_text(app).splitlines())
        assert "Too small" not in screen_text(app)
        await pilot.resize_terminal(40, 14)  # too small to draw the table: the top row says so
        await pilot.pause()
        await pilot.pause()
        assert screen_text(app).splitlines()[0].startswith("Too small (40×14): needs 60×20")
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Too small" not in screen_text(app)


async def test_the_score_sheet_of_a_whole_match_opens_on_its_totals() -> None:
    """Twenty deals and a total are taller than 80x24: the sheet used to cut the total off."""
    app = make_app(seed=3)
    s = app.session
    rng = random.Random(3)
    play_out(s, rng)  # a whole match, played out before the screen opens
    rows = len(s.match.summaries)
    assert rows >= 20
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "The match is over" in screen_text(app)
        await pilot.press("tab")
        await pilot.pause()
        await pilot.pause()
        screen = screen_text(app)
        assert "Total  " + "".join(f"{x:>5}" for x in s.match.totals) in screen
        assert f"{rows:>2} {render.ABBREVIATIONS[s.match.summaries[-1].contract]}" in screen
        await pilot.press("home")
        await pilot.pause()
        assert "Score sheet" in screen_text(app) and " 1 " in screen_text(app)
        await pilot.press("escape")
        assert not isinstance(app.screen, ScoreSheet)


async def test_a_pass_hint_does_not_repeat_itself() -> None:
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("5")  # Trix: you are king with no jack, so you must pass
        await settle(app, pilot)
        assert "You have no card to place" in screen_text(app)
        await pilot.press("question_mark")
        await settle(app, pilot)
        hint = next(line for line in screen_text(app).splitlines() if line.startswith("Hint: "))
        assert hint.rstrip() == "Hint: pass — nothing can be placed"


KOH_CLAIM_SEED = 58  # wikipedia: Right is king and names King of Hearts; your only heart is K♥


async def test_a_dealt_king_of_hearts_redeal_declined_then_claimed() -> None:
    """A hand the seed deals (no hands made up): decline the redeal and double K♥, or claim it."""
    for claim in (False, True):
        session = PlaySession("wikipedia", ["random", "random", "random"], seed=KOH_CLAIM_SEED)
        app = PlayApp(session, Glyphs(), pause=0.0)
        async with app.run_test(size=SIZE) as pilot:
            await settle(app, pilot)
            s = app.session
            assert s.match.deals[-1].contract == Contract.KING_OF_HEARTS, "Right no longer names KoH: pick a seed"
            screen = screen_text(app)
            assert "Your hand allows a redeal (your only heart is K♥): claim it, or play on?" in screen
            assert "Hand ♠ A K Q J 8 3  ♥ K " in screen
            if not claim:
                await type_text(pilot, "n")
                await settle(app, pilot)
                assert "Double K♥? If another player takes it" in screen_text(app)
                await pilot.press("2")
                await settle(app, pilot)
                assert "doubled K♥ (You)" in " ".join(screen_text(app).split())
                assert s.view().phase == Phase.PLAY and s.match.deals[-1].thrown_in is None
                continue
            await pilot.press("2")
            await settle(app, pilot)
            screen = screen_text(app)
            assert "You claimed a redeal: the same king deals again." in screen
            assert " 1 KoH  thrown in by You" in screen and "Total      0    0    0    0" in screen
            await pilot.press("enter")
            await settle(app, pilot)
            assert s.match.king == 1 and len(s.match.deals) >= 2  # the same king chose again
            assert "deal 2 · king Right" in screen_text(app)


async def test_a_match_taken_up_from_its_save_file_says_so(tmp_path: Path) -> None:
    save = tmp_path / "game.json"
    app = make_app(save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await type_text(pilot, "queens")
        await settle(app, pilot)
        for _ in range(3):  # a few cards of the first deal
            await type_text(pilot, typed_name(app.session.view().legal_actions[0]))
            await settle(app, pilot)
    history = app.session.match.history
    again = PlayApp(PlaySession.open(None, None, None, save), Glyphs(), pause=0.0)
    async with again.run_test(size=SIZE) as pilot:
        await settle(again, pilot)
        screen = screen_text(again)
        words = " ".join(screen.split())  # the message wraps the long temporary path
        assert "Taken up from" in words and "(0 deals played)." in words
        assert again.session.match.history == history and "Queens" in screen.splitlines()[0]


@pytest.mark.parametrize(
    ("option", "value"),
    [("--pause", "nan"), ("--pause", "inf"), ("--pause", "1e308"), ("--pause", "-1"), ("--bot-delay", "nan")],
)
def test_pauses_out_of_all_proportion_are_refused(option: str, value: str) -> None:
    args = ["play", "--terminal" if option == "--pause" else "--no-browser", option, value]
    result = CliRunner().invoke(cli_app, args)
    assert result.exit_code == 2 and option in result.output and "0 to 60 seconds" in result.output


async def hurry_until_your_turn(app: PlayApp, pilot: Pilot[None], key: str = "space") -> None:
    """Press ``key`` to hurry one bot at a time (the pause is long) until it is your turn."""
    s = app.session
    while s.bot_to_act() is not None:
        before = len(s.match.history)
        await pilot.press(key)
        for _ in range(200):
            await pilot.pause(0.01)
            if len(s.match.history) > before:
                break
        assert len(s.match.history) > before
    for _ in range(20):  # the worker's last redraw
        await pilot.pause(0.01)
        if not any(w.is_running for w in app.workers):
            break


async def test_notes_about_waiting_go_when_the_turn_comes() -> None:
    """``'qs': it is not your turn`` and ``Hints are for your turn.`` stayed on screen during your turn."""
    app = make_app(seed=0, pause=30.0)  # seat 1 is king: the bots start
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        await type_text(pilot, "qs")
        assert "'qs': it is not your turn" in screen_text(app)
        await pilot.press("space")  # one bot acts; still not your turn: the note still holds
        await pilot.pause(0.1)
        if app.session.bot_to_act() is not None:
            assert "'qs': it is not your turn" in screen_text(app)
        await hurry_until_your_turn(app, pilot)
        assert app.session.your_turn
        assert "not your turn" not in screen_text(app)
        await pilot.press("question_mark")  # now a hint is for your turn: no refusal
        await pilot.pause(0.05)
        assert "Hints are for your turn." not in screen_text(app)
    app = make_app(seed=0, pause=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        await pilot.press("question_mark")
        assert "Hints are for your turn." in screen_text(app)
        await hurry_until_your_turn(app, pilot)
        assert "Hints are for your turn." not in screen_text(app)


async def test_enter_that_hurries_the_bots_does_not_play_when_the_turn_comes() -> None:
    """Enter pressed again and again to hurry the bots played the selected card the instant the turn came."""
    app = make_app(seed=0, pause=30.0)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause(0.2)
        s = app.session
        await hurry_until_your_turn(app, pilot, key="enter")
        assert s.your_turn
        before = len(s.match.history)
        await pilot.press("enter", "enter")  # still hurrying: nothing is played
        await pilot.pause(0.05)
        assert len(s.match.history) == before
        assert "Enter hurried the bots, so it played nothing" in screen_text(app)
        await pilot.pause(ENTER_GRACE + 0.1)
        await pilot.press("enter")  # a deliberate Enter, once the key has rested
        await pilot.pause(0.05)
        assert len(s.match.history) > before
    app = make_app()  # without hurrying, Enter plays at once (you are king here)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session.match.deals and app.session.match.deals[0].contract == Contract.KING_OF_HEARTS


async def test_no_color_draws_red_suits_like_the_black_ones(monkeypatch: pytest.MonkeyPatch) -> None:
    """Greyed, bold red turned dark grey, like the dim of a card you may not play."""
    monkeypatch.setenv("NO_COLOR", "1")
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        console = Console(width=80, file=io.StringIO(), force_terminal=True, color_system="truecolor")
        suit_colours: dict[str, set[tuple[int, int, int]]] = {}
        for seg in console.render(app.screen._compositor.render_update(full=True)):
            if seg.text in ("♠", "♥", "♦", "♣") and seg.style and seg.style.color:
                suit_colours.setdefault(seg.text, set()).add(tuple(seg.style.color.get_truecolor()))
        assert suit_colours["♥"] == suit_colours["♠"] == suit_colours["♦"] == suit_colours["♣"]


def play_out(s: PlaySession, rng: random.Random) -> None:
    """Play the session's match to its end: random legal moves for you, the bots for themselves."""
    while not s.match.is_over:
        if s.match.phase == Phase.DEAL_OVER:
            s.next_deal()
        elif s.your_turn:
            s.play(rng.choice(s.view().legal_actions))
        else:
            seat = s.bot_to_act()
            assert seat is not None
            bot, v, legal = s.bot_inputs(seat)
            s.apply_bot(seat, bot.act(v, legal))


def partnership_match_over() -> PlaySession:
    s = PlaySession(Rules.preset("classic", partnership=True), ["random"] * 3, seed=5)
    rng = random.Random(5)
    play_out(s, rng)
    return s


async def test_a_partnership_wins_with_its_team_total() -> None:
    """``A (0) and C (2) share the win (20)`` gave one seat's total where the team had 115."""
    s = partnership_match_over()
    m = s.match
    assert len(m.winners) == 2, "the teams tied: pick another seed"
    team = m.totals[m.winners[0]] + m.totals[m.winners[1]]
    assert team != m.totals[m.winners[0]]
    app = PlayApp(s, Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        words = " ".join(screen_text(app).split())
        who = " and ".join(app.names[w] for w in m.winners)
        assert f"The match is over: {who} win as a team ({team})." in words


async def test_sixteen_doubling_answers_at_60x20_keep_the_typed_line() -> None:
    """At 60x20 the sixteen answers pushed the typed line, the message and the footer below the edge;
    answers are now packed closer under a shorter question, never split over two lines."""
    app = complex_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")  # Complex
        await settle(app, pilot)
        v = app.session.view()
        opts = choices(v, Glyphs())
        assert v.phase == Phase.DOUBLE and len(opts) == 16
        lines = screen_text(app).splitlines()
        assert len(lines) == 20 and any(line.startswith("> ▏") for line in lines)
        for i, o in enumerate(opts):  # every answer whole on one line
            label = f"{i + 1} {o.label.removeprefix('double ')}"
            assert any(label in line for line in lines), label
        await pilot.press("k", "h", "space", "q", "z", "enter")
        lines = screen_text(app).splitlines()
        assert any(line.startswith("'qz' is not a card") for line in lines)
        assert lines[-1].startswith("> ▏")  # the footer gave way, not the line you type on
        await pilot.resize_terminal(60, 18)  # shorter still: the question is cut, the typed line stays
        await pilot.pause()
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert len(lines) == 18 and any(line.startswith("> ▏") for line in lines)
        assert any(line.startswith("'qz' is not a card") for line in lines)


async def test_doubling_lists_the_cards_in_the_hand_order() -> None:
    """The question listed Q♥ before K♥ (card numbers) while the answers started with K♥."""
    app = complex_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        words = " ".join(screen_text(app).split())
        assert "Hand ♠ Q 7 ♥ K 7 6 ♦ K Q 6 2 ♣ Q 10 9 2" in words
        assert "Double which of Q♠, K♥, Q♦, Q♣?" in words
        assert "[1 no double] 2 Q♠ 3 K♥ 4 Q♦ 5 Q♣ 6 Q♠ K♥ 7 Q♠ Q♦" in words


async def test_in_a_tall_terminal_the_typed_line_stays_under_the_question() -> None:
    """At 120x40 the message took every spare row and the typed line sat far below the question."""
    app = complex_app()
    async with app.run_test(size=(120, 40)) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        lines = screen_text(app).splitlines()
        last = f"16 {choices(app.session.view(), Glyphs())[-1].label.removeprefix('double ')}"
        question = max(i for i, line in enumerate(lines) if last in line)  # the last answer's line
        entry = next(i for i, line in enumerate(lines) if line.startswith("> "))
        assert question < entry <= question + 2  # the message's row between them
        assert "scores" in lines[-1]  # the footer still at the bottom


def finished_session(save: Path | None = None) -> PlaySession:
    s = PlaySession("online", ["easy", "random", "medium"], seed=9, save=save)
    s.rules = Rules.preset("online", kingdoms=1)
    s.match = Match(s.rules, seed=s.seed)
    play_out(s, random.Random(9))
    s.save()
    return s


async def test_enter_after_the_match_starts_another_with_the_same_bots() -> None:
    s = finished_session()
    app = PlayApp(s, Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "Press Enter for another match" in " ".join(screen_text(app).split())
        await pilot.press("enter")
        await settle(app, pilot)
        new = app.session
        assert new is not s and not new.match.is_over and new.seed != s.seed
        assert new.levels == ["easy", "random", "medium"] and new.rules == s.rules
        assert "A new match." in screen_text(app)


async def test_a_saved_match_is_kept_aside_when_another_begins(tmp_path: Path) -> None:
    save = tmp_path / "trix.json"
    (tmp_path / "trix-1.json").write_text("an older match\n")  # taken: the next free name is used
    s = finished_session(save)
    finished = save.read_text()
    app = PlayApp(s, Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert (tmp_path / "trix-2.json").read_text() == finished  # the finished match, whole
        assert (tmp_path / "trix-1.json").read_text() == "an older match\n"
        kept = " ".join(screen_text(app).split())
        assert "The finished one is kept beside it in trix-2.json." in kept
    # The save file holds the new match, and taking it up works as for any match.
    taken_up = PlaySession.open(None, None, None, save)
    assert taken_up.seed == app.session.seed and not taken_up.match.is_over


async def test_a_finished_match_that_cannot_be_moved_aside_stays(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    save = tmp_path / "trix.json"
    s = finished_session(save)

    def refuse(*_: object) -> None:
        raise PermissionError(13, "Permission denied")

    monkeypatch.setattr("opentrix.tui.session.os.link", refuse)
    app = PlayApp(s, Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session is s and s.match.is_over and save.is_file()
        assert not list(tmp_path.glob("trix-*.json"))
        assert "could not keep the finished match aside: Permission denied" in " ".join(screen_text(app).split())


async def test_enter_that_hurried_the_bots_through_the_last_trick_does_not_start_another_match() -> None:
    """The last bot card ends the match while Enter is still being pressed to hurry them: that press
    must leave the result on the screen, not start a new match over it."""
    s = finished_session()
    app = PlayApp(s, Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        app.enter_hurried = True
        app.turn_began = time.monotonic()  # as the bots leave it when they hand the turn back
        await pilot.press("enter")
        await settle(app, pilot)
        assert app.session is s and "Enter hurried the bots" in " ".join(screen_text(app).split())
        await pilot.pause(ENTER_GRACE + 0.1)
        await pilot.press("enter")  # pressed again, deliberately: another match
        await settle(app, pilot)
        assert app.session is not s


async def test_a_save_that_fails_mid_match_is_told_in_full_and_the_exit_says_so(tmp_path: Path) -> None:
    """The folder goes away during play: the message area (which wraps) says where and why, the status
    line says NOT SAVED rather than 'saving to', and quitting says the match was not saved and exits 1."""
    folder = tmp_path / "gone"
    folder.mkdir()
    save = folder / "match.json"
    app = make_app(save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        save.unlink(missing_ok=True)
        folder.rmdir()
        await type_text(pilot, "ltoosh")
        await settle(app, pilot)
        screen = screen_text(app)
        assert "NOT SAVED" in screen and "saving to" not in screen
        said = "".join(f"Could not save to {save}: No such file or directory".split())
        assert said in "".join(screen.split())  # the long path wraps wherever the line ends
        folder.mkdir()  # back: the next move saves, and the message goes
        await type_text(pilot, typed_name(app.session.view().legal_actions[0]))
        await settle(app, pilot)
        assert save.is_file() and "NOT SAVED" not in screen_text(app)
    result = CliRunner().invoke(cli_app, ["play", "--terminal", "--save", str(tmp_path / "x" / "m.json")])
    assert result.exit_code == 2  # a folder missing from the start is refused before play


def test_quitting_without_save_says_nothing_was_kept(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    """Ctrl-Q at once: the exit line says the match was not saved and how to keep one; a failed save
    exits 1 (a script running the terminal client must not think the match was kept)."""
    from opentrix import tui

    monkeypatch.setattr(PlayApp, "run", lambda self: None)  # quit at once, as Ctrl-Q would
    monkeypatch.setattr(tui, "require_terminal", lambda command: None)  # pytest's input is no terminal
    out = io.StringIO()
    monkeypatch.setattr("sys.stdout", out)
    tui.play_terminal("classic", ["random"] * 3, 6, None)
    assert "not saved: play with --save FILE" in out.getvalue()

    def failing_run(self: PlayApp) -> None:
        self.session.save_error = "could not save to m.json: No space left on device"

    monkeypatch.setattr(PlayApp, "run", failing_run)
    with pytest.raises(SystemExit) as exited:
        tui.play_terminal("classic", ["random"] * 3, 6, tmp_path / "m.json")
    assert exited.value.code == 1


async def test_f1_shows_what_each_contract_asks_with_this_tables_points(tmp_path: Path) -> None:
    """Someone new to Trix can read the rules of the table from the game: F1 opens them, with the
    contract in play first; Escape closes them, and keys typed meanwhile play nothing."""
    app = make_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert "F1 says what each asks" in " ".join(screen_text(app).split())
        await pilot.press("f1")
        await pilot.pause()
        text = screen_text(app)
        assert "How to play" in text and "Queens: each queen you take costs 25" in text
        assert "Ltoosh: each trick you take costs 15" in text
        await pilot.press("1")
        await pilot.press("escape")
        await pilot.pause()
        assert app.session.match.history == [] and "How to play" not in screen_text(app)
        await type_text(pilot, "queens")
        await settle(app, pilot)
        await pilot.press("f1")
        await pilot.pause()
        assert "Now: Queens: each queen you take costs 25" in screen_text(app)


async def test_the_kingdoms_last_contract_is_named_for_you() -> None:
    """A question with one answer is not asked: the last contract of your kingdom, like 'no double'
    with nothing to double."""
    from opentrix.deal import deal_hands

    played = [Contract.KING_OF_HEARTS, Contract.QUEENS, Contract.DIAMONDS, Contract.LTOOSH]
    match = Match.at_contract_choice(Rules(), deal_hands(KING_SEED, 0), king=0, played=played)
    app = PlayApp(PlaySession("classic", ["random"] * 3, seed=KING_SEED, save=None, match=match), Glyphs())
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert app.session.match.deals[-1].contract == Contract.TRIX
        assert "Only Trix is left in your kingdom: it is named for you." in " ".join(screen_text(app).split())


async def test_the_deal_over_line_says_who_took_a_doubled_card() -> None:
    """A doubled card moves points to and from seats that did not take it, which the scores alone
    leave a newcomer to puzzle out: the line says whose doubled card went to whom."""
    s = PlaySession("wikipedia", ["random"] * 3, seed=KING_SEED)
    s.play(A.choose(Contract.KING_OF_HEARTS))  # you hold K♥ in seed 6
    while s.match.phase != Phase.DEAL_OVER:
        if s.your_turn:
            legal = s.view().legal_actions
            s.play(A.double(Card.KH) if A.double(Card.KH) in legal else legal[0])
        else:
            seat = s.bot_to_act()
            assert seat is not None
            bot, v, legal = s.bot_inputs(seat)
            s.apply_bot(seat, bot.act(v, legal))
    taker = next(seat for seat in range(4) if int(s.match.deals[-1].taken[seat]) >> Card.KH & 1)
    who = "its holder" if taker == 0 else ("you", "Right", "Across", "Left")[taker]
    app = PlayApp(s, Glyphs())
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        assert f"Doubled: K♥ to {who}." in " ".join(screen_text(app).split())
    async with PlayApp(s, Glyphs()).run_test(size=(60, 20)) as pilot:  # short: the Enter line stays
        await pilot.pause()
        assert "Press Enter for the next deal." in " ".join(screen_text(pilot.app).split())


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--terminal", "--port", "9000"], "--port is for the browser table, not --terminal"),
        (["--terminal", "--new", "--bot-delay", "1"], "--new, --bot-delay are for the browser table, not --terminal"),
        (["--no-browser", "--ascii", "--pause", "1"], "--ascii, --pause are for --terminal"),
        (["--no-browser", "--save", "m.json"], "--save is for --terminal"),
    ],
)
def test_an_option_of_the_other_table_is_refused_not_ignored(args: list[str], said: str) -> None:
    result = CliRunner().invoke(cli_app, ["play", *args], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and said in result.output


async def test_the_rules_sheet_opens_at_its_top_and_fits_a_small_terminal() -> None:
    app = make_app()
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await pilot.pause()
        await pilot.pause()
        text = screen_text(app)
        assert "How to play" in text  # the top, not scrolled to the end as the score sheet is
        assert "A match is 4 kingdoms" in " ".join(text.split())
        # wrapped at the screen's width, not cut at its edge (the sheet was 78 columns wide)
        assert "the highest card of that suit takes the trick" in " ".join(text.replace("│", " ").split())


async def test_the_tiebreak_deals_contract_is_named_as_the_tiebreak() -> None:
    from opentrix.deal import deal_hands

    match = Match.at_contract_choice(Rules(), deal_hands(KING_SEED, 0), king=0, tiebreak_deal=True)
    app = PlayApp(PlaySession("classic", ["random"] * 3, seed=KING_SEED, save=None, match=match), Glyphs())
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        words = " ".join(screen_text(app).split())
        assert "The tiebreak deal is King of Hearts: it is named for you." in words
        assert "left in your kingdom" not in words


HIDDEN_DOUBLING_SEED = 345  # wikipedia, hidden doubling: Left is king, names Queens and doubles a queen; you hold one


async def test_hidden_doubling_answers_stay_hidden_on_the_status_line() -> None:
    """The status line said "Left doubles Q♠" while you were still asked: hidden answers show together."""
    rules = Rules.preset("wikipedia", doubling_reveal="hidden")
    app = PlayApp(PlaySession(rules, ["random"] * 3, seed=HIDDEN_DOUBLING_SEED), Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        s = app.session
        v = s.view()
        assert v.phase == Phase.DOUBLE and v.to_act
        left = [m for seat, m in s.match.deals[-1].answers if seat == 3]
        assert left and left[0], "Left no longer doubles here: pick another seed"
        screen = " ".join(screen_text(app).split())
        assert "Left (random) has answered" in screen
        assert "Left doubles" not in screen and "doubled Q" not in screen
        await pilot.press("1")  # no double: then every answer shows, the queen Left doubled among them
        await settle(app, pilot)
        assert s.view().doubled and any(holder == 3 for holder, _ in s.view().doubled)


def keys(text: str) -> list[str]:
    return ["space" if ch == " " else ch for ch in text]


async def test_a_long_answer_is_typed_whole_and_a_longer_one_refused_out_loud() -> None:
    """Typing stopped silently at 16 keys, so "double qs kh qh qd qc" went in as three cards."""
    app = complex_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")  # Complex
        await settle(app, pilot)
        await pilot.press(*keys("double qs kh qd qc"), "enter")  # 18 keys: more than the old limit
        await settle(app, pilot)
        assert app.session.match.deals[-1].answers[0] == (0, int(CardSet.parse("QS KH QD QC")))
    app = complex_app()
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("2")
        await settle(app, pilot)
        await pilot.press(*keys("kh " * 15))
        assert len(app.typed) == 40
        assert "as long as an answer gets" in " ".join(screen_text(app).split())
        assert app.session.view().phase == Phase.DOUBLE  # nothing was sent


def test_without_a_terminal_to_read_keys_from_the_client_says_so_and_exits(tmp_path: Path) -> None:
    """From a pipe or /dev/null the screen used to wait for keys forever (CliRunner's input is a pipe)."""
    import typer

    from opentrix.tui.commands import register

    replay_cli = typer.Typer()
    replay_cli.command("noop")(lambda: None)  # a second command, so that "replay" is a subcommand
    register(replay_cli)
    record = str(files("opentrix") / "examples" / "classic-full-match.json")
    save, empty, link = tmp_path / "match.json", tmp_path / "empty.json", tmp_path / "link.json"
    empty.write_text("")
    unfinished = tmp_path / "unfinished.json"
    PlaySession("classic", ["random"] * 3, seed=6, save=unfinished).save()
    kept = unfinished.read_bytes()
    link.symlink_to(tmp_path / "elsewhere.json")  # dangling: the file it names is not made yet
    for app, args in (
        (cli_app, ["play", "--terminal", "--seed", "6"]),
        *((cli_app, ["play", "--terminal", "--seed", "6", "--save", str(f)]) for f in (save, empty, link, unfinished)),
        (replay_cli, ["replay", record]),
    ):
        result = CliRunner().invoke(app, args, input="")
        assert result.exit_code == 2, result.output
        assert "reads keys from a terminal, and its input is not one" in result.output
    # a match that never opened writes nothing: no new file, an empty one left empty, a link left a link
    assert not save.exists() and empty.read_text() == "" and link.is_symlink() and not link.exists()
    assert unfinished.read_bytes() == kept


def test_the_doubling_question_says_who_pays_you_under_these_rules() -> None:
    """With partners and no bonus, a partner who takes your doubled card pays you nothing: the question
    said any other player would."""
    import dataclasses

    session = PlaySession("wikipedia", ["random"] * 3, seed=KING_SEED)  # you are king and hold Q♠
    session.play(A.choose(Contract.QUEENS))
    app = PlayApp(session, Glyphs(), pause=0.0)
    v = session.view()
    assert v.phase == Phase.DOUBLE and v.to_act
    assert "If another player takes it, he pays double and you gain." in app.prompt(v).plain
    for capture, said in (("no_bonus", "If an opponent takes it"), ("as_other", "If another player takes it")):
        teams = dataclasses.replace(v, rules=dataclasses.replace(v.rules, partnership=True, partner_capture=capture))
        assert said in app.prompt(teams).plain


def test_a_terminal_that_goes_away_ends_the_match_with_its_record_kept(tmp_path: Path) -> None:
    """A closed terminal (an SSH session dropped: SIGHUP) ends ``play --terminal`` at once, not an orphan
    left running, even started with SIGHUP ignored (``nohup``), and the record saved as the match went
    is whole: ``--save`` takes it up again."""
    pytest.importorskip("pty")
    import os

    save = tmp_path / "match.json"
    args = ["play", "--terminal", "--seed", str(KING_SEED), "--pause", "0", "--save", str(save)]
    env = {"COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
    # as under nohup: the app must still leave
    with PtyCommand(args, env, ignore_hangup=True) as term:
        term.read_until(b"contract", 30)
        assert b"contract" in term.seen  # the king's question: the match is under way
        term.type(b"1")  # King of Hearts: a move made, and saved
        deadline = time.monotonic() + 15
        while not (save.exists() and any(d.get("contract") for d in json.loads(save.read_text())["deals"])):
            assert time.monotonic() < deadline, "the contract was never saved"
            time.sleep(0.1)
        os.close(term.fd)
        deadline = time.monotonic() + 15
        while not term.ended():
            assert time.monotonic() < deadline, "play --terminal outlived its terminal"
            time.sleep(0.1)
    session = PlaySession.open(None, None, KING_SEED, save)
    assert session.match.history[:1] == [A.choose(Contract.KING_OF_HEARTS)]


def hands_with(spec: dict[int, list[str]]) -> tuple[int, int, int, int]:
    """Four hands: the cards ``spec`` gives each seat, the rest dealt in card order."""
    used = {int(Card.parse(c)) for cards in spec.values() for c in cards}
    rest = [c for c in range(52) if c not in used]
    hands = []
    for seat in range(4):
        cards = [int(Card.parse(c)) for c in spec.get(seat, [])]
        while len(cards) < 13:
            cards.append(rest.pop(0))
        hands.append(sum(1 << c for c in cards))
    return (hands[0], hands[1], hands[2], hands[3])


async def test_at_60x20_a_long_header_keeps_who_declined_and_every_doubling_answer() -> None:
    """At 60x20 the header's second line (who held a card and did not double) pushed the sixteenth
    answer off a sixteen-answer question, and four doubled cards cut who declined from the header:
    the table's blank rows give way first (there is no trick yet), the header and answers stay whole."""
    m = Match(Rules.preset("complex"), hands_with({3: ["7h", "qh"], 0: ["kh", "qs", "qd", "qc"]}))
    assert m.turn == 3
    m.apply(A.choose(Contract.COMPLEX))
    m.apply(A.NO_DOUBLE)  # Left, the king, holds Q♥ and does not double it: said in the header
    app = PlayApp(PlaySession("complex", ["easy"] * 3, seed=1, match=m), Glyphs(), pause=0.0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        opts = choices(app.session.view(), Glyphs())
        assert len(opts) == 16
        for typed in ("", "x"):
            if typed:  # a refusal on two rows as well
                await type_text(pilot, typed)
            lines = screen_text(app).splitlines()
            words = " ".join(" ".join(lines).split())
            assert len(lines) == 20 and lines[-1].startswith("> ")
            assert "held K♥ or a queen, no double: Left" in words
            for i, o in enumerate(opts):
                assert f"{i + 1} {o.label.removeprefix('double ')}" in words, (i, "\n".join(lines))
        assert "'x' is not a card: type the cards to double (e.g. kh, or qs qh), or n" in words

    m = Match(Rules.preset("complex"), hands_with({0: ["7h", "qc"], 1: ["qs"], 2: ["qh"], 3: ["kh", "qd"]}))
    m.apply(A.choose(Contract.COMPLEX))
    for answer in (A.double([int(Card.QC)]), A.double([int(Card.QS)]), A.NO_DOUBLE):
        m.apply(answer)
    m.apply(A.double([int(Card.KH), int(Card.QD)]))
    app = PlayApp(PlaySession("complex", ["easy"] * 3, seed=1, match=m), Glyphs(), pause=0.0)
    async with app.run_test(size=(60, 20)) as pilot:
        await settle(app, pilot)
        lines = screen_text(app).splitlines()
        words = " ".join(" ".join(lines).split())
        assert "doubled K♥ (Left), Q♠ (Right), Q♦ (Left), Q♣ (You) · held K♥ or a queen, no double: Across" in words
        assert lines[-1].startswith("> ") and "Your lead" in words


async def test_the_partnership_score_panel_keeps_both_team_totals() -> None:
    """Once eight deals were finished the panel's last row, ``Teams You+Acr 5, Rgt+Lft 370``, was one
    column too wide for it and lost the second team's total; it now goes on two rows when it must."""
    rules = Rules.preset("online", partnership=True)
    m = Match(rules, seed=77)
    rng = random.Random(3)
    while len(m.summaries) < 12:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
            continue
        m.apply(rng.choice(m.legal_actions()))
    t = m.totals
    app = PlayApp(PlaySession(rules, ["easy"] * 3, seed=77, match=m), Glyphs(), pause=0.0)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        panel = [line.split("│", 1)[1] for line in screen_text(app).splitlines() if "│" in line]
        text = "\n".join(panel)
        assert f"You+Acr {t[0] + t[2]}" in text and f"Rgt+Lft {t[1] + t[3]}" in text, text
        assert any(line.strip().startswith("Total ") for line in panel), text


async def test_not_saved_points_below_only_while_the_message_says_why(tmp_path: Path) -> None:
    """After a failed save the status line said ``NOT SAVED (below)`` even once a later move had
    cleared the message area that said why."""
    folder = tmp_path / "gone"
    folder.mkdir()
    save = folder / "match.json"
    app = make_app(save=save)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        save.unlink(missing_ok=True)
        folder.rmdir()
        await type_text(pilot, "ltoosh")
        await settle(app, pilot)
        assert "NOT SAVED (below)" in screen_text(app).splitlines()[1]
        assert "Could not save to" in screen_text(app)
        await type_text(pilot, typed_name(app.session.view().legal_actions[0]))  # fails again; said once
        await settle(app, pilot)
        screen = screen_text(app)
        assert "Could not save to" not in screen
        status = screen.splitlines()[1]
        assert "NOT SAVED" in status and "(below)" not in status


def test_exit_lines_that_the_terminal_cannot_write_are_escaped(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``--save ü.json`` under PYTHONIOENCODING=ascii: quitting printed a UnicodeEncodeError traceback."""
    from opentrix import tui

    monkeypatch.setattr(PlayApp, "run", lambda self: None)  # quit at once, as Ctrl-Q would
    monkeypatch.setattr(tui, "require_terminal", lambda command: None)  # pytest's input is no terminal
    raw = io.BytesIO()
    out = io.TextIOWrapper(raw, encoding="ascii")
    monkeypatch.setattr("sys.stdout", out)
    save = tmp_path / "ü.json"
    tui.play_terminal("classic", ["random"] * 3, 6, save)
    out.flush()
    printed = raw.getvalue().decode("ascii")
    assert printed.startswith("seed 6: 0 deals finished")
    assert f"take it up with: opentrix play --terminal --save {tmp_path}/\\xfc.json" in printed
    assert save.is_file()


async def test_ascii_mode_draws_the_rules_sheets_scroll_bar_in_ascii() -> None:
    """The F1 sheet is taller than the screen: Textual drew its scroll bar's ends with block signs."""
    app = make_app(ascii=True)
    async with app.run_test(size=SIZE) as pilot:
        await settle(app, pilot)
        await pilot.press("f1")
        await pilot.pause()
        for key in ("", "down", "down", "down", "pagedown"):
            if key:
                await pilot.press(key)
                await pilot.pause()
            screen = screen_text(app)
            assert "How to play" in screen or key
            assert screen.isascii(), [ch for ch in screen if not ch.isascii()]
