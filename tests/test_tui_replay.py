"""``opentrix replay``: stepping through records card by card, forward and back, valid or not."""

from __future__ import annotations

import json
from importlib.resources import files
from pathlib import Path

import pytest
import typer
from typer.testing import CliRunner

from opentrix import actions as A
from opentrix.cards import Card
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.record import Record
from opentrix.tui import render
from opentrix.tui.commands import register
from opentrix.tui.glyphs import Glyphs
from opentrix.tui.render import hand_compact
from opentrix.tui.replay import build_replay, load_replay, shown_name
from opentrix.tui.replay_app import ReplayApp
from opentrix.tui.session import PlaySession
from opentrix.tui.snapshot import screen_text
from opentrix.view import view
from pty_kit import PtyCommand
from test_tui_play import partnership_match_over

EXAMPLES = files("opentrix") / "examples"
SIZE = (80, 24)


def example(name: str) -> Path:
    return Path(str(EXAMPLES / name))


def test_steps_cover_every_card_and_contract() -> None:
    rp = load_replay(example("classic-full-match.json"))
    record = rp.record
    cards = sum(len(d.plays) for d in record.deals)
    # one step per card or pass, per contract named, per seat that doubles, plus the start of each deal
    doubling_answers = sum(sum(1 for h in d.hands if h & d.doubled) for d in record.deals)
    assert len(rp.steps) == cards + 2 * len(record.deals) + doubling_answers
    assert rp.error is None and rp.steps[-1].match.is_over
    assert rp.steps[-1].match.totals == record.replay().totals
    assert len(rp.deal_starts()) == len(record.deals)
    first_card = rp.steps[2]
    assert first_card.play == 0 and first_card.caption.startswith("play 0: ")


def test_invalid_record_shows_the_valid_part_and_the_error() -> None:
    rp = load_replay(example("classic-invalid-revoke.json"))
    assert rp.error is not None and (rp.error.deal, rp.error.play) == (0, 5)
    last = rp.steps[-1]
    assert last.deal == 0 and last.play == 4 and len(last.match.deals[-1].plays) == 5


async def test_replay_steps_forward_and_back_with_all_hands() -> None:
    rp = load_replay(example("classic-full-match.json"))
    app = ReplayApp(rp, "classic-full-match.json")
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_text(app)
        assert "step 1/" in screen and "is king and names the contract" in screen
        for hand in rp.record.deals[0].hands:  # all four hands face up
            for suit in hand_compact(hand, Glyphs()):
                assert suit.plain in screen
        await pilot.press("right", "right", "right")
        step3 = screen_text(app)
        assert "step 4/" in step3 and "play 1: " in step3
        await pilot.press("right")
        assert "play 2: " in screen_text(app)
        await pilot.press("left")
        assert screen_text(app) == step3  # back is exactly where we were
        await pilot.press("pagedown")
        assert "deal 1 of 0–19" in screen_text(app) and "deal 1: " in screen_text(app)
        await pilot.press("pageup", "pageup")
        assert app.index == 0
        await pilot.press("right_square_bracket")  # the bracket keys step by deals too
        assert "deal 1 of 0–19" in screen_text(app)
        await pilot.press("left_square_bracket")
        assert "deal 0 of 0–19" in screen_text(app)
        await pilot.press("end")
        screen = screen_text(app)
        final = rp.steps[-1].match
        who = " and ".join(rp.names[w] for w in final.winners)
        assert f"End: the match is over: {who} " in screen and f"({final.totals[final.winners[0]]})" in screen
        assert "Total" in screen


async def test_replay_of_an_invalid_record_names_the_error() -> None:
    rp = load_replay(example("classic-invalid-revoke.json"))
    app = ReplayApp(rp, "bad.json", Glyphs(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        screen = screen_text(app)
        assert "Invalid record: deal 0, play 5: seat 1 must follow suit D (holds 8D 5D 3D)" in screen
        assert "This is the last position before the error." in screen
        assert screen.isascii()  # the footer's key names too: "right next", not arrows
        assert "right next" in screen and "left back" in screen


def replay_cli() -> typer.Typer:
    """A command line with just the replay command, as the opentrix CLI registers it."""
    app = typer.Typer()
    app.callback()(lambda: None)
    register(app)
    return app


def test_replay_command_rejects_unreadable_records(tmp_path: Path) -> None:
    cli_app = replay_cli()
    runner = CliRunner()
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps({"format": "opentrix-record/1", "deals": [{"hands": [], "contract": "trix"}]}))
    result = runner.invoke(cli_app, ["replay", str(bad)])
    assert result.exit_code == 1
    assert "invalid record: deal 0: 'hands' must be a list of four hands" in result.output
    result = runner.invoke(cli_app, ["replay", str(tmp_path / "missing.json")])
    assert result.exit_code == 1 and "cannot read" in result.output
    bad.write_text("{not json")
    assert "not JSON" in runner.invoke(cli_app, ["replay", str(bad)]).output


async def test_a_saved_game_replays(tmp_path: Path) -> None:
    path = tmp_path / "saved.json"
    s = PlaySession("wikipedia", ["random"] * 3, seed=6, save=path)
    s.play(A.choose(Contract.KING_OF_HEARTS))
    while s.match.phase == Phase.CLAIM or s.match.phase == Phase.DOUBLE or len(s.match.deals[-1].plays) < 9:
        if s.your_turn:
            s.play(s.view().legal_actions[0])
        else:
            seat = s.bot_to_act()
            assert seat is not None
            bot, v, legal = s.bot_inputs(seat)
            s.apply_bot(seat, bot.act(v, legal))
    rp = build_replay(Record.loads(path.read_text(encoding="utf-8")))
    assert rp.error is None
    # the names the match was played under, not "player (0)", "bot:random (1)" and columns s0..s3
    assert rp.names == ["You", "Right (random)", "Across (random)", "Left (random)"]
    assert rp.heads() == ["You", "Rgt", "Acr", "Lft"]
    assert rp.steps[-1].match.deals[-1].plays == s.match.deals[-1].plays
    # the captions speak to you as the table did ("You name", not "You names")
    captions = [step.caption for step in rp.steps]
    assert captions[0] == "deal 0: You are king and name the contract"
    assert captions[1] == "You name King of Hearts"
    assert not [c for c in captions if "You names" in c or "You plays" in c or "You takes" in c]
    assert "play 0: You play 2♠" in captions and any(c.startswith("play 1: Right (random) plays ") for c in captions)
    app = ReplayApp(rp, path.name)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        screen = screen_text(app)
        assert "End: the record ends here." in screen
        assert Card(s.match.deals[-1].plays[-1]).symbol in screen
        assert "Right (random)" in screen and " # deal  You  Rgt  Acr  Lft" in screen
        assert "bot:" not in screen and "player" not in screen and "s0" not in screen


def test_a_thrown_in_deal_and_its_redeal_are_steps() -> None:
    hands = [
        [f"{r}H" for r in "23456789TJQA"] + ["AS"],  # seat 0 holds 7♥: the first king
        ["KH"] + [f"{r}S" for r in "23456789TJQK"],  # seat 1's only heart is K♥: it may claim a redeal
        [f"{r}D" for r in "23456789TJQKA"],
        [f"{r}C" for r in "23456789TJQKA"],
    ]
    doc = {
        "format": "opentrix-record/1",
        "rules": "wikipedia",  # King of Hearts redeals allowed
        "deals": [
            {"hands": hands, "contract": "king_of_hearts", "thrown_in": 1, "plays": []},
            {"hands": hands, "contract": "ltoosh", "plays": []},
        ],
    }
    rp = build_replay(Record.from_json(doc))
    assert rp.error is None
    captions = [s.caption for s in rp.steps]
    assert "seat 1 claims a redeal; the deal is thrown in" in captions
    assert captions[-1] == "seat 0 names Ltoosh"
    assert [s.deal for s in rp.steps] == [0, 0, 0, 1, 1]
    shown = render.scores(view(rp.steps[-1].match, None), ["s0", "s1", "s2", "s3"], first_deal=0).plain
    assert " 0 KoH  thrown in by s1" in shown


async def test_replay_in_a_small_terminal_still_shows_the_end_line() -> None:
    """At 60x20 the squeezed score panel wrapped a word per row and the end line fell off the screen."""
    rp = load_replay(example("classic-full-match.json"))
    app = ReplayApp(rp, "match.json", Glyphs())
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        assert any(line.startswith("End: the match is over: ") for line in lines)
        assert not any("Total" in line for line in lines)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Total" in screen_text(app)


def test_names_from_a_record_cannot_break_the_layout() -> None:
    """A record may name a player anything; the viewer shows one short line of it."""
    assert shown_name("Lina") == "Lina"
    assert shown_name("Omar\nbin\tSaleh") == "Omar bin Saleh"
    assert shown_name("\u202eevil\u202c name") == "evil name"  # no right-to-left override
    assert shown_name("x" * 200) == "x" * 19 + "…"
    assert shown_name("\n\u200f") == "?"


async def test_a_replay_with_long_and_odd_names_keeps_its_table() -> None:
    data = json.loads(example("classic-full-match.json").read_text())
    data["players"] = ["L" * 200, "line\nbreak", "\u202eover", "Omar"]
    rp = build_replay(Record.from_json(data))
    app = ReplayApp(rp, "odd.json", Glyphs())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("right", "right")
        await pilot.pause()
        text = screen_text(app)
    assert "L" * 19 + "…" in text and "L" * 21 not in text and "line break" in text and "\u202e" not in text


def test_a_record_with_no_deals_yet_is_valid_with_nothing_to_show(tmp_path: Path) -> None:
    path = tmp_path / "empty.json"
    path.write_text(json.dumps({"format": "opentrix-record/1", "rules": "classic", "deals": []}))
    result = CliRunner().invoke(replay_cli(), ["replay", str(path)])
    assert result.exit_code == 0 and "valid record with no deals yet" in result.output
    assert "invalid" not in result.output


async def test_a_small_terminal_shows_the_whole_error_and_its_hint() -> None:
    """At 60x20 the hint under the error was cut, and ``Invalid record:  deal 0`` had a double space."""
    rp = load_replay(example("classic-invalid-revoke.json"))
    app = ReplayApp(rp, "bad.json", Glyphs())
    async with app.run_test(size=(60, 20)) as pilot:
        await pilot.press("end")
        await pilot.pause()
        lines = screen_text(app).splitlines()
        words = " ".join(" ".join(lines).split())
        assert "Invalid record: deal 0, play 5: seat 1 must follow suit ♦ (holds 8♦ 5♦ 3♦)" in words
        assert any(line.startswith("This is the last position before the error.") for line in lines)
        assert "Invalid record:  " not in screen_text(app)
        await pilot.press("home")
        await pilot.pause()
        assert any(
            line.startswith("The steps stop just before it (End jumps there).")
            for line in screen_text(app).splitlines()
        )


async def test_a_partnership_match_ends_with_its_team_total(tmp_path: Path) -> None:
    s = partnership_match_over()
    m = s.match
    rp = build_replay(Record.from_match(m, ["Lina", "Omar", "Sami", "Rana"]))
    app = ReplayApp(rp, "team.json", Glyphs())
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        await pilot.pause()
        words = " ".join(screen_text(app).split())
    team = m.totals[m.winners[0]] + m.totals[m.winners[1]]
    who = " and ".join(rp.names[w] for w in m.winners)
    assert f"End: the match is over: {who} win as a team ({team})." in words


async def test_ascii_replay_writes_three_dots() -> None:
    """In ASCII mode ``…`` became a bare ``.``: ``.  6 earlier deals``, ``Papadopou.``."""
    data = json.loads(example("classic-full-match.json").read_text())
    data["players"] = ["Alexandra Papadopoulou", "Omar", "Sami", "Rana"]
    rp = build_replay(Record.from_json(data), Glyphs(ascii=True))
    app = ReplayApp(rp, "long.json", Glyphs(ascii=True))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("end")
        await pilot.pause()
        screen = screen_text(app)
    assert screen.isascii()
    assert "Alexandra Papadop... (0)" in screen
    assert "   ... 11 earlier deals" in screen  # twenty deals, nine rows of them


async def test_a_narrow_replay_says_too_small_and_tab_shows_the_scores() -> None:
    """Below 60x20 the replay drew a broken table without a word, and below 80 columns its score panel
    was gone with no way to see it: the top row now says the screen is too small, and Tab opens the
    score sheet, as in ``play --terminal``."""
    rp = load_replay(example("classic-full-match.json"))
    app = ReplayApp(rp, "match.json", Glyphs())
    async with app.run_test(size=(50, 16)) as pilot:
        await pilot.pause()
        assert screen_text(app).splitlines()[0].startswith("Too small (50×16): needs 60×20")
        await pilot.resize_terminal(70, 24)
        await pilot.pause()
        await pilot.pause()
        assert "Too small" not in screen_text(app) and "Total" not in screen_text(app)  # no panel at 70
        await pilot.press("end", "tab")
        await pilot.pause()
        screen = screen_text(app)
        totals = view(rp.steps[-1].match, None).totals
        assert type(app.screen).__name__ == "ScoreSheet"  # opened on its end: the totals
        assert "Total  " + "".join(f" {t:>4}" for t in totals) in screen
        await pilot.press("tab")
        await pilot.pause()
        assert type(app.screen).__name__ != "ScoreSheet" and "Total" not in screen_text(app)


def test_replay_in_an_ascii_locale_draws_letters(tmp_path: Path) -> None:
    """Under ``LC_ALL=C`` Python writes UTF-8 all the same (its UTF-8 mode), so the client took the
    terminal for a UTF-8 one and drew ♠ ♥ ♦ ♣, box lines and ◀ on a terminal that said it takes ASCII."""
    pytest.importorskip("pty")
    import time

    record = example("classic-full-match.json")
    env = {"LANG": "C", "LC_ALL": "C", "COLUMNS": "80", "LINES": "24", "TERM": "xterm-256color"}
    unset = ("OPENTRIX_ASCII", "PYTHONIOENCODING", "PYTHONUTF8", "LC_CTYPE")
    with PtyCommand(["replay", str(record)], env, unset=unset) as term:
        term.read_until(b"step 1/", 30)
        assert b"step 1/" in term.seen
        term.type(b"l")  # a step on: the trick, the marks
        term.read_until(b"step 2/", 10)
        time.sleep(0.3)
        term.read_until(b"never", 0.3)
        term.type(b"q")
        assert term.exit_code() == 0
        shown = term.seen.decode("utf-8", errors="replace")
        assert "S " in shown and "H " in shown  # the suits in letters
        assert not [ch for ch in "♠♥♦♣◀·│…—" if ch in shown], shown
