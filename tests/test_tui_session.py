"""The terminal client's game flow without a screen: reading typed input, engine refusals, saving."""

from __future__ import annotations

import json
import os
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from opentrix import actions as A
from opentrix.cards import Card
from opentrix.cli import app as cli_app
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.errors import IllegalContract, IllegalDouble, IllegalPlay
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import Rules
from opentrix.tui.glyphs import Glyphs
from opentrix.tui.session import InputError, PlaySession, choices, parse_input, phrase, write_atomically
from opentrix.view import view

G = Glyphs()
KING_SEED = 6  # seat 0 holds 7♥ in the first deal of seed 6, so you are the first king


def session(seed: int = KING_SEED, rules: str = "classic", save: Path | None = None) -> PlaySession:
    return PlaySession(rules, ["random", "random", "random"], seed=seed, save=save)


def run_bots(s: PlaySession) -> None:
    """Bots act until it is your turn or the deal is over, as the app's worker does."""
    while (seat := s.bot_to_act()) is not None:
        bot, v, legal = s.bot_inputs(seat)
        assert v.seat == seat and v.hand is not None  # a bot gets its own view only
        s.apply_bot(seat, bot.act(v, legal))


def test_first_king_seed_is_you() -> None:
    assert Match(Rules(), seed=KING_SEED).first_king == 0


def test_contract_by_number_name_or_start() -> None:
    s = session()
    v = s.view()
    assert v.phase == Phase.CHOOSE_CONTRACT and v.to_act
    assert [c.label for c in choices(v, G)] == ["King of Hearts", "Queens", "Diamonds", "Ltoosh", "Trix"]
    assert parse_input("2", v, G) == A.choose(Contract.QUEENS)
    assert parse_input("Trix", v, G) == A.choose(Contract.TRIX)
    assert parse_input("kh", v, G) == A.choose(Contract.KING_OF_HEARTS)
    assert parse_input("dia", v, G) == A.choose(Contract.DIAMONDS)
    assert parse_input("lt", v, G) == A.choose(Contract.LTOOSH)
    with pytest.raises(InputError, match="no option 7"):
        parse_input("7", v, G)
    with pytest.raises(InputError, match="not a contract you can name"):
        parse_input("hearts please", v, G)
    # a contract of other rules is named as a player knows it, not by the record's id
    with pytest.raises(InputError, match=r"^Complex is not played under these rules; choose one of: King of Hearts, "):
        parse_input("complex", v, G)


def test_a_played_contract_is_refused_with_the_engine_reason() -> None:
    s = session()
    s.play(A.choose(Contract.LTOOSH))
    while s.match.phase != Phase.DEAL_OVER:
        if s.your_turn:
            s.play(s.view().legal_actions[0])
        run_bots(s)
    s.next_deal()
    assert s.your_turn and s.view().phase == Phase.CHOOSE_CONTRACT
    assert "Ltoosh" not in [c.label for c in choices(s.view(), G)]  # only unplayed contracts are offered
    with pytest.raises(IllegalContract, match="ltoosh has already been played"):
        s.play(parse_input("ltoosh", s.view(), G))


def test_cards_typed_in_any_form() -> None:
    s = session()
    s.play(A.choose(Contract.QUEENS))
    v = s.view()
    assert v.phase == Phase.PLAY and v.to_act
    assert parse_input("qs", v, G) == Card.QS
    assert parse_input("10D", v, G) == Card.TD
    assert parse_input(" K♥ ", v, G) == Card.KH
    assert parse_input("pass", v, G) == A.PASS
    with pytest.raises(InputError, match="'zz' is not a card: type the rank then the suit"):
        parse_input("zz", v, G)
    with pytest.raises(InputError, match="type a card"):
        parse_input("   ", v, G)


def test_illegal_cards_raise_the_engine_explanation() -> None:
    s = session()
    s.play(A.choose(Contract.QUEENS))
    hand = int(s.view().hand or 0)
    missing = next(c for c in range(52) if not hand >> c & 1)
    with pytest.raises(IllegalPlay, match=f"seat 0 does not hold {Card(missing).symbol}"):
        s.play(missing)
    # find a deal position where you must follow suit and try another suit
    s.play(s.view().legal_actions[0])
    run_bots(s)
    while True:
        v = s.view()
        lead = v.trick[0][1] // 13 if v.trick else None
        hand = int(v.hand or 0)
        off_suit = [c for c in range(52) if hand >> c & 1 and lead is not None and c // 13 != lead]
        if lead is not None and len(v.legal_actions) < hand.bit_count() and off_suit:
            with pytest.raises(IllegalPlay, match="seat 0 must follow suit"):
                s.play(off_suit[0])
            assert s.view().legal_actions == v.legal_actions  # nothing changed: asked again
            return
        s.play(v.legal_actions[0])
        run_bots(s)
        assert s.match.phase != Phase.DEAL_OVER, "no revoke chance in this deal; pick another seed"


def test_doubling_answers() -> None:
    s = session(rules="wikipedia")  # doubling on; in seed 6 you hold Q♠ and K♥
    s.play(A.choose(Contract.QUEENS))
    v = s.view()
    assert v.phase == Phase.DOUBLE and v.to_act
    # the answer that commits to nothing first, so that Enter on the selection never doubles by accident
    assert [c.label for c in choices(v, G)] == ["no double", "double Q♠"]
    assert parse_input("1", v, G) == A.NO_DOUBLE
    assert parse_input("n", v, G) == A.NO_DOUBLE
    assert parse_input("y", v, G) == A.double(Card.QS)
    assert parse_input("qs", v, G) == A.double(Card.QS)
    assert parse_input("double q♠", v, G) == A.double(Card.QS)
    with pytest.raises(InputError, match="can never be doubled"):
        parse_input("js", v, G)
    with pytest.raises(IllegalDouble, match="seat 0 cannot double Q♥: not in that hand"):
        s.play(parse_input("qh", v, G))
    s.play(parse_input("y", v, G))
    assert s.view().doubled == ((0, Card.QS),)


def test_claim_prompt_reads_yes_and_no() -> None:
    rules = Rules.preset("wikipedia")
    m = Match(rules, seed=KING_SEED)
    m.apply(A.choose(Contract.TRIX))
    v = view(m, 0)
    assert v.phase == Phase.CLAIM and v.to_act
    assert parse_input("n", v, G) == A.NO_CLAIM
    assert parse_input("claim", v, G) == A.CLAIM
    with pytest.raises(InputError, match="answer y to claim"):
        parse_input("maybe", v, G)


def test_phrases() -> None:
    assert phrase(Card.QS, G) == "play Q♠"
    assert phrase(Card.QS, Glyphs(ascii=True), third_person=True) == "plays QS"
    assert phrase(A.choose(Contract.TRIX), G) == "name Trix"
    assert phrase(A.double(Card.KH), G, third_person=True) == "doubles K♥"


def test_full_match_saved_after_every_action_is_a_valid_record(tmp_path: Path) -> None:
    path = tmp_path / "match.json"
    s = session(seed=11, save=path)
    assert not path.exists()  # nothing to write before the first contract
    seen_plays = 0
    while not s.match.is_over:
        if s.match.phase == Phase.DEAL_OVER:
            s.next_deal()
        elif s.your_turn:
            s.play(s.view().legal_actions[-1])
        else:
            run_bots(s)
        if s.match.deals:
            on_disk = Record.loads(path.read_text(encoding="utf-8"))
            assert on_disk.deals[-1].plays == s.match.deals[-1].plays  # up to date after every action
            seen_plays += 1
    assert seen_plays > 200
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["players"] == ["player", "bot:random", "bot:random", "bot:random"]
    assert Record.loads(path.read_text(encoding="utf-8")).replay().totals == s.match.totals
    result = CliRunner().invoke(cli_app, ["verify", "--json", str(path)])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    assert doc["ok"] and doc["match_over"] and doc["totals"] == s.match.totals
    assert [p.name for p in tmp_path.iterdir()] == ["match.json"]  # no temporary files left


def test_save_to_a_missing_folder_is_refused_up_front(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="does not exist"):
        session(save=tmp_path / "nope" / "m.json")
    with pytest.raises(ValueError, match="is a folder"):
        session(save=tmp_path)


def test_atomic_write_replaces_whole_file(tmp_path: Path) -> None:
    p = tmp_path / "r.json"
    write_atomically(p, "one")
    write_atomically(p, "two")
    assert p.read_text() == "two"
    assert sorted(x.name for x in tmp_path.iterdir()) == ["r.json"]


def test_bots_need_three_levels() -> None:
    with pytest.raises(ValueError, match="three"):
        PlaySession("classic", ["random"], seed=1)


def test_double_with_several_cards_needs_the_cards_named() -> None:
    """With several cards to double, "double" alone used to mean no double at all, and a typo was
    answered with the card parser's long message, which a one-row message line cut off."""
    s = session(seed=1229, rules="complex")  # you are king and hold K♥, Q♠, Q♦ and Q♣
    s.play(A.choose(Contract.COMPLEX))
    v = s.view()
    assert v.phase == Phase.DOUBLE and v.to_act
    for text in ("double", "y"):
        with pytest.raises(InputError, match="say which cards to double"):
            parse_input(text, v, G)
    with pytest.raises(InputError, match=r"^'qz' is not a card: type the cards to double"):
        parse_input("kh qz", v, G)
    assert parse_input("double kh qs", v, G) == A.double(Card.KH, Card.QS)


def _play_into_second_deal(path: Path, seed: int = 11) -> PlaySession:
    """A session saving to ``path``, stopped a few actions into its second deal."""
    s = session(seed=seed, save=path)
    while len(s.match.deals) < 2 or len(s.match.deals[-1].plays) < 6:
        if s.match.phase == Phase.DEAL_OVER:
            s.next_deal()
        elif s.your_turn:
            s.play(s.view().legal_actions[-1])
        else:
            s.apply_bot(s.bot_to_act() or 1, s.match.legal_actions()[0])
    return s


def test_an_unfinished_saved_match_is_taken_up_where_it_stopped(tmp_path: Path) -> None:
    """Like the browser table, the terminal takes up the match its --save file left unfinished, with the
    record's rules and bots, instead of writing a new match over it."""
    path = tmp_path / "match.json"
    left = _play_into_second_deal(path)
    again = PlaySession.open(None, None, None, path)
    assert again.match.history == left.match.history and again.rules == left.rules
    assert again.view() == left.view()
    assert again.levels == ["random", "random", "random"]
    assert "Taken up from" in again.notice and "(1 deal played)" in again.notice
    assert again.seed == 11 and "from seed" not in again.notice  # the save file keeps the match's seed
    with_seed = PlaySession.open("classic", ["random", "random", "random"], 11, path)  # the same, said again
    assert with_seed.seed == 11 and with_seed.levels == ["random", "random", "random"]
    assert "from seed" not in with_seed.notice
    while not again.match.is_over:
        if again.match.phase == Phase.DEAL_OVER:
            again.next_deal()
        elif again.your_turn:
            again.play(again.view().legal_actions[0])
        else:
            run_bots(again)
    done = Record.loads(path.read_text(encoding="utf-8")).replay()
    assert done.is_over and done.history[: len(left.match.history)] == left.match.history


def test_a_save_file_is_never_overwritten_by_another_match(tmp_path: Path) -> None:
    finished = tmp_path / "finished.json"
    finished.write_bytes((Path(__file__).parents[1] / "src/opentrix/examples/classic-full-match.json").read_bytes())
    junk = tmp_path / "notes.json"
    junk.write_text("my shopping list", encoding="utf-8")
    unfinished = tmp_path / "unfinished.json"
    _play_into_second_deal(unfinished)
    elsewhere = tmp_path / "from-the-web.json"
    data = json.loads(unfinished.read_text(encoding="utf-8"))
    data["players"] = ["Lina", "Omar", "bot:hard", "Sami"]
    elsewhere.write_text(json.dumps(data), encoding="utf-8")
    before = {p: p.read_bytes() for p in (finished, junk, unfinished, elsewhere)}
    for args, message in [
        ((None, None, None, elsewhere), "holds a match not played in this terminal"),
        ((None, None, None, finished), "holds a finished match; give another --save file"),
        ((None, None, None, junk), "holds no match to take up \\(not JSON"),
        (("wikipedia", None, None, unfinished), "under other rules; leave out --rules"),
        # the record names one set of bots for the whole match: other bots would rewrite who played
        ((None, ["hard", "hard", "hard"], None, unfinished), "against random, random, random bots; leave out --bots"),
        ((None, None, 12, unfinished), "seed 12 did not deal"),
    ]:
        with pytest.raises(ValueError, match=message):
            PlaySession.open(*args)  # type: ignore[arg-type]
    assert {p: p.read_bytes() for p in before} == before
    result = CliRunner().invoke(cli_app, ["play", "--terminal", "--save", str(finished)])
    assert result.exit_code == 2 and "holds a finished match" in result.output
    result = CliRunner().invoke(cli_app, ["play", "--save", str(finished)], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "--save is for --terminal" in result.output
    assert finished.read_bytes() == before[finished]
    empty = tmp_path / "empty.json"
    empty.touch()  # made ready for the match: a new one starts
    assert PlaySession.open(None, None, 3, empty).match.history == []


def test_a_save_path_that_is_a_link_saves_to_its_target_and_a_device_is_refused(tmp_path: Path) -> None:
    """The save renames a new file over the path: through a symbolic link it would replace the link
    (and the match taken up from its target would never be saved there again); over a device it
    would turn /dev/null into a plain file."""
    real = tmp_path / "real.json"
    _play_into_second_deal(real)
    link = tmp_path / "link.json"
    link.symlink_to(real)
    again = PlaySession.open(None, None, None, link)
    if again.your_turn:
        again.play(again.view().legal_actions[0])  # saves, as every move does
    else:
        run_bots(again)
        again.save()
    assert link.is_symlink() and link.resolve() == real.resolve()
    assert Record.loads(real.read_text(encoding="utf-8")).replay().history == again.match.history
    for device in (Path("/dev/null"), Path("/dev/zero")):
        with pytest.raises(ValueError, match="is not a plain file"):
            PlaySession.open(None, None, None, device)
        assert device.is_char_device()
    loop_a, loop_b = tmp_path / "a.json", tmp_path / "b.json"
    loop_a.symlink_to(loop_b)
    loop_b.symlink_to(loop_a)
    with pytest.raises(ValueError, match="a symbolic link that leads nowhere"):
        PlaySession.open(None, None, None, loop_a)
    fifo = tmp_path / "pipe"
    os.mkfifo(fifo)
    with pytest.raises(ValueError, match="is not a plain file"):
        session(save=fifo)


def test_a_save_file_that_cannot_be_written_is_refused_up_front(tmp_path: Path) -> None:
    """Even where permissions say yes (root, /proc): every save of the match would fail, and the exit
    status would hide it."""
    with pytest.raises(ValueError, match=r"cannot save to /proc/m\.json"):
        session(save=Path("/proc/m.json"))
    with pytest.raises(ValueError, match="cannot save to"):
        PlaySession.open(None, None, None, Path("/proc/m.json"))
    assert not list(tmp_path.iterdir())
    session(save=tmp_path / "m.json")
    assert not list(tmp_path.iterdir())  # the probe leaves nothing behind


def test_a_record_with_no_deals_is_no_match_to_lose(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_text(json.dumps({"format": "opentrix-record/1", "rules": "wikipedia", "deals": []}))
    # a record written elsewhere (no seed kept: no hand of it was seen here) is no match to take up,
    # so other rules are no reason to refuse it
    assert PlaySession.open("denexa", None, 3, path, write=False).match.rules == Rules.preset("denexa")
    s = PlaySession.open(None, None, 3, path)  # a new match under the record's rules, nothing taken up
    assert s.match.rules == Rules.preset("wikipedia") and s.notice == "" and s.seed == 3
    path.write_text(json.dumps({"format": "opentrix-record/1", "players": ["Lina", "a", "b", "c"], "deals": []}))
    with pytest.raises(ValueError, match="not played in this terminal"):
        PlaySession.open(None, None, 3, path)
    with pytest.raises(ValueError, match="holds no match to take up"):
        path.write_text(json.dumps({"format": "opentrix-record/1", "rules": "wikipedia", "deals": [{}]}))
        PlaySession.open(None, None, 3, path)


def test_a_save_with_no_deal_yet_keeps_its_rules_and_bots(tmp_path: Path) -> None:
    """Quit at the first contract question, the save holds no deal yet but the hand seen and the match's
    rules and bots: taking it up with other ones was accepted without a word, though a save with deals
    refuses them (docs/terminal.md)."""
    path = tmp_path / "early.json"
    first = PlaySession.open("wikipedia", ["random", "easy", "random"], 5, path)
    assert json.loads(path.read_text(encoding="utf-8"))["deals"] == []
    with pytest.raises(ValueError, match="under other rules; leave out --rules to take it up"):
        PlaySession.open("classic", None, None, path)
    with pytest.raises(ValueError, match="against random, easy, random bots; leave out --bots to take it up"):
        PlaySession.open(None, ["hard"] * 3, None, path)
    again = PlaySession.open("wikipedia", ["random", "easy", "random"], None, path)  # the same ones: taken up
    assert again.match.rules == Rules.preset("wikipedia") and again.levels == ["random", "easy", "random"]
    assert again.match.pending_hands == first.match.pending_hands
    assert again.notice == f"Taken up from {path} (no deal played yet)."


def _play_to_the_next_deal(path: Path, seed: int = 11) -> PlaySession:
    """A session saving to ``path``, its first deal over and the next one dealt (no contract named yet)."""
    s = session(seed=seed, save=path)
    while s.match.phase != Phase.DEAL_OVER:
        if s.your_turn:
            s.play(s.view().legal_actions[-1])
        else:
            run_bots(s)
    s.next_deal()
    return s


def test_quitting_before_a_contract_does_not_deal_a_new_hand(tmp_path: Path) -> None:
    """The record had no trace of the next deal until a contract was named, and taking it up without
    --seed dealt from a new seed: quitting redrew a hand already seen."""
    path = tmp_path / "match.json"
    left = _play_to_the_next_deal(path)
    seen = left.match.pending_hands
    assert seen is not None and left.match.phase == Phase.CHOOSE_CONTRACT
    for seed in (None, 11):  # as the exit line says: no --seed, or the seed it printed
        again = PlaySession.open(None, None, seed, path)
        assert again.seed == 11 and again.match.phase == Phase.DEAL_OVER
        again.next_deal()
        assert again.match.pending_hands == seen
    with pytest.raises(ValueError, match=r"seed 12 did not deal the match in .* leave out --seed"):
        PlaySession.open(None, None, 12, path)
    saved = json.loads(path.read_text(encoding="utf-8"))
    assert saved["seed"] == 11  # a top-level key record readers ignore
    result = CliRunner().invoke(cli_app, ["verify", str(path)])
    assert result.exit_code == 0, result.output


def test_even_the_first_hand_is_kept_once_seen(tmp_path: Path) -> None:
    path = tmp_path / "new.json"
    first = PlaySession.open(None, ["random"] * 3, None, path)
    assert path.exists()  # written at once: the hand on screen is in the file
    assert json.loads(path.read_text(encoding="utf-8"))["deals"] == []
    again = PlaySession.open(None, None, None, path)
    assert again.seed == first.seed and again.match.pending_hands == first.match.pending_hands
    assert again.levels == first.levels  # the bots chosen are kept too, not the default ones
    with pytest.raises(ValueError, match="leave out --seed"):
        PlaySession.open(None, None, first.seed + 1, path)
    assert CliRunner().invoke(cli_app, ["verify", str(path)]).exit_code == 0


def test_a_save_file_without_a_seed_gets_one_and_keeps_it(tmp_path: Path) -> None:
    """A file saved before seeds were kept: the deals to come get a new seed, kept from then on, so the
    exit line's ``seed N`` can be given back with the same --save file."""
    path = tmp_path / "old.json"
    _play_into_second_deal(path)
    data = json.loads(path.read_text(encoding="utf-8"))
    del data["seed"]
    path.write_text(json.dumps(data), encoding="utf-8")
    again = PlaySession.open(None, None, None, path)
    assert f"The deals still to come are from seed {again.seed}." in again.notice
    assert json.loads(path.read_text(encoding="utf-8"))["seed"] == again.seed
    later = PlaySession.open(None, None, again.seed, path)
    assert later.seed == again.seed and later.match.history == again.match.history
    with pytest.raises(ValueError, match="seed 12 did not deal"):
        PlaySession.open(None, None, 12, path)


def test_the_exit_line_names_a_seed_the_save_file_takes(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    from opentrix.tui import play_terminal
    from opentrix.tui.play_app import PlayApp

    path = tmp_path / "match.json"
    _play_to_the_next_deal(path, seed=11)
    monkeypatch.setattr(PlayApp, "run", lambda self: None)  # quit at once
    monkeypatch.setattr("opentrix.tui.require_terminal", lambda command: None)  # pytest's input is no terminal
    play_terminal(None, None, None, path)
    out = capsys.readouterr().out
    assert out.startswith("seed 11: 1 deal finished,")  # one deal, not "1 deals"
    assert f"take it up with: opentrix play --terminal --save {path}" in out
    assert PlaySession.open(None, None, 11, path).seed == 11


def test_the_exit_line_is_about_the_match_under_way_after_another_began(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """Enter after a finished match started another: the exit line names that one's seed, and how to
    take it up, not the finished match that moved aside."""
    from opentrix.tui import play_terminal
    from opentrix.tui.play_app import PlayApp
    from test_tui_play import play_out

    path = tmp_path / "match.json"
    started: list[PlaySession] = []

    def play_one_and_start_another(self: PlayApp) -> None:
        s = self.session
        s.rules = Rules.preset("online", kingdoms=1)
        s.match = Match(s.rules, seed=s.seed)
        play_out(s, random.Random(3))
        self.session, _ = s.another()
        started.append(self.session)

    monkeypatch.setattr(PlayApp, "run", play_one_and_start_another)
    monkeypatch.setattr("opentrix.tui.require_terminal", lambda command: None)
    play_terminal("online", ["random"] * 3, 5, path)
    out = capsys.readouterr().out
    (new,) = started
    assert out.startswith(f"seed {new.seed}: 0 deals finished,"), out
    assert f"take it up with: opentrix play --terminal --save {path}" in out
    assert (tmp_path / "match-1.json").is_file()


def test_quitting_among_the_redeal_and_doubling_questions_asks_them_again(tmp_path: Path) -> None:
    """The record cannot tell a question not yet answered from one declined: the save file keeps the
    answers so far, so a match taken up there asks again, of you as of the bots still to answer,
    instead of going on as if everyone had declined. Wikipedia King of Hearts asks for redeal claims,
    then whether to double K♥, which you hold in seed 6."""
    path = tmp_path / "m.json"
    s = PlaySession("wikipedia", ["medium", "medium", "medium"], seed=KING_SEED, save=path)
    s.play(A.choose(Contract.KING_OF_HEARTS))
    asked = []
    while s.match.phase in (Phase.CLAIM, Phase.DOUBLE):
        asked.append(s.match.phase)
        saved = json.loads(path.read_text())
        assert [A.parse(a) for a in saved["answers"]] == s.match.history[1:]
        taken = PlaySession.open(None, None, None, path)
        assert taken.match.history == s.match.history and taken.match.turn == s.match.turn
        assert taken.match.deals[-1].hands == s.match.deals[-1].hands
        if s.your_turn:
            assert choices(taken.view(), G) == choices(s.view(), G)
            s.play(A.double(Card.KH) if s.match.phase == Phase.DOUBLE else A.NO_CLAIM)
        else:
            seat = s.bot_to_act()
            assert seat is not None
            bot, v, legal = s.bot_inputs(seat)
            s.apply_bot(seat, bot.act(v, legal))
    assert Phase.CLAIM in asked and Phase.DOUBLE in asked
    assert s.match.phase == Phase.PLAY and s.view().doubled == ((0, Card.KH),)
    assert "answers" not in json.loads(path.read_text())  # past the questions: the record says it all
    assert PlaySession.open(None, None, None, path).match.history == s.match.history


def test_answers_that_do_not_fit_the_record_are_a_clear_error(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    s = PlaySession("wikipedia", ["random", "random", "random"], seed=KING_SEED, save=path)
    s.play(A.choose(Contract.KING_OF_HEARTS))
    good = json.loads(path.read_text())
    for answers, why in (
        ("no claim", "must be a list of answers"),
        (["double QS"], "cannot go on with 'double QS'"),
        (["no claim"] * 5, "cannot go on with 'no claim'"),
    ):
        path.write_text(json.dumps({**good, "answers": answers}))
        with pytest.raises(ValueError, match=f"holds no match to take up .*{why}"):
            PlaySession.open(None, None, None, path)
    while not s.match.deals[-1].plays:  # past the questions and the first card: the record says it all
        if s.your_turn:
            s.play(A.NO_CLAIM if s.match.phase == Phase.CLAIM else s.match.legal_actions()[-1])
        else:
            run_bots(s)
    path.write_text(json.dumps({**json.loads(path.read_text()), "answers": []}))
    with pytest.raises(ValueError, match="stopped before its first card"):
        PlaySession.open(None, None, None, path)
    # a record with no deal yet: the error is about the record, not about a "deal -1"
    path.write_text(json.dumps({**good, "deals": [], "answers": "no claim"}))
    with pytest.raises(ValueError, match="must be a list of answers") as refused:
        PlaySession.open(None, None, None, path)
    assert "deal -1" not in str(refused.value)


@pytest.fixture
def read_only_folder(tmp_path: Path):  # type: ignore[no-untyped-def]
    """A real read-only file system (a tmpfs mounted read-only), where even removing a file that is
    not there fails with 'Read-only file system' rather than 'No such file'."""
    import subprocess

    folder = tmp_path / "ro"
    folder.mkdir()
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", "ro,size=64k", "tmpfs", str(folder)], capture_output=True)
    if done.returncode:
        pytest.skip(f"needs root to mount a read-only tmpfs: {done.stderr.decode().strip()}")
    yield folder
    subprocess.run(["umount", str(folder)], check=True)


def test_a_read_only_folder_is_one_clear_error(read_only_folder: Path) -> None:
    path = read_only_folder / "m.json"
    result = CliRunner().invoke(cli_app, ["play", "--terminal", "--save", str(path)], env={"COLUMNS": "200"})
    assert result.exit_code == 2 and "Read-only file system" in result.output
    assert not isinstance(result.exception, OSError)  # cleaning up after the probe failed too, before
    with pytest.raises(OSError, match="Read-only file system") as error:
        write_atomically(path, "{}")
    assert error.value.__context__ is None  # the write's own error, not one from cleaning up after it


def test_questions_are_asked_again_in_later_deals_and_after_a_throw_in(tmp_path: Path) -> None:
    """The saved answers are replayed onto the last deal of the record, whichever deal it is: a later
    one (the deals before replayed from the record), and the deal dealt again after a throw-in."""
    path = tmp_path / "m.json"
    s = PlaySession("wikipedia", ["medium"] * 3, seed=7, save=path)  # a redeal claimed in the first deals
    reopened = set()
    while len(s.match.deals) < 4 and not s.match.is_over:
        if s.match.phase in (Phase.CLAIM, Phase.DOUBLE):
            taken = PlaySession.open(None, None, None, path)
            assert taken.match.history == s.match.history and taken.match.turn == s.match.turn
            reopened.add((len(s.match.deals), any(d.thrown_in is not None for d in s.match.deals)))
        if s.match.phase == Phase.DEAL_OVER:
            s.next_deal()
        elif s.your_turn:
            legal = s.view().legal_actions
            s.play(
                A.CLAIM
                if A.CLAIM in legal
                else A.choose(Contract.KING_OF_HEARTS)
                if A.choose(Contract.KING_OF_HEARTS) in legal
                else legal[0]
            )
        else:
            run_bots(s)
    assert any(n > 1 for n, _ in reopened) and any(thrown for _, thrown in reopened)
