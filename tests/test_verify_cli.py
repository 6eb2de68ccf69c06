"""``opentrix verify``, the real console command, on valid, unfinished and invalid records.

Also the golden records of tests/golden: their frozen expected output, and their scores recomputed
by ``tests/independent.py``, a second referee written straight from the rule book that shares no code
with the engine.
"""

from __future__ import annotations

import copy
import json
import os
import shutil
import subprocess
import sys
from importlib import resources
from pathlib import Path
from typing import Any

import pytest

import independent

EXAMPLES = Path(str(resources.files("opentrix") / "examples"))
SHARED = Path("/work/shared/examples")
GOLDEN = Path(__file__).parent / "golden"
NAMES = ["classic-full-match", "classic-invalid-revoke", "online-partnership-one-kingdom", "wikipedia-unfinished"]
GOLDEN_NAMES = sorted(p.name[: -len(".expected.json")] for p in GOLDEN.glob("*.expected.json"))


def opentrix(*args: str | os.PathLike[str]) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("opentrix")
    cmd: list[str] = [exe] if exe else [sys.executable, "-c", "from opentrix.cli import main; main()"]
    return subprocess.run(
        [*cmd, *map(str, args)], capture_output=True, text=True, encoding="utf-8", timeout=120, check=False
    )


def json_lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines() if line.strip()]


def load(path: Path) -> Any:
    return json.loads(path.read_text(encoding="utf-8"))


# -- the shared examples ------------------------------------------------------------------------------


def test_shipped_examples_are_the_shared_ones() -> None:
    if not SHARED.is_dir():
        pytest.skip("the shared examples folder is not on this machine")
    for name in NAMES:
        for suffix in (".json", ".expected.json"):
            assert load(EXAMPLES / f"{name}{suffix}") == load(SHARED / f"{name}{suffix}")


def test_examples_print_exactly_their_expected_json() -> None:
    files = [EXAMPLES / f"{n}.json" for n in NAMES]
    r = opentrix("verify", "--json", *files)
    assert r.returncode == 1, r.stderr  # one of them is invalid
    lines = r.stdout.splitlines()
    assert len(lines) == 4
    for name, line in zip(NAMES, lines, strict=True):
        assert json.loads(line) == load(EXAMPLES / f"{name}.expected.json"), name
    assert r.stderr == ""


def test_valid_records_exit_0() -> None:
    valid = [EXAMPLES / f"{n}.json" for n in NAMES if n != "classic-invalid-revoke"]
    r = opentrix("verify", "--json", *valid)
    assert r.returncode == 0
    assert [d["ok"] for d in json_lines(r.stdout)] == [True, True, True]


def test_text_report(tmp_path: Path) -> None:
    r = opentrix("verify", EXAMPLES / "classic-invalid-revoke.json", EXAMPLES / "wikipedia-unfinished.json")
    assert r.returncode == 1
    out = r.stdout
    assert "classic-invalid-revoke.json: INVALID: deal 0, play 5: seat 1 must follow suit ♦ (holds 8♦ 5♦ 3♦)" in out
    assert "wikipedia-unfinished.json: ok: 3 deals (2 finished), match not over" in out
    assert "unfinished" in out
    one = json.loads((EXAMPLES / "wikipedia-unfinished.json").read_text())
    one["deals"] = one["deals"][:1]
    path = tmp_path / "one-deal.json"
    path.write_text(json.dumps(one))
    assert "one-deal.json: ok: 1 deal (1 finished), match not over" in opentrix("verify", path).stdout
    r = opentrix("verify", EXAMPLES / "online-partnership-one-kingdom.json")
    assert r.returncode == 0
    assert "seats 0+2: +115   seats 1+3: -115" in r.stdout and "winners: seat 0, seat 2" in r.stdout


def test_usage_errors_exit_2() -> None:
    assert opentrix("verify").returncode == 2
    r = opentrix("verify", "--frobnicate", EXAMPLES / "classic-full-match.json")
    assert r.returncode == 2
    assert "Traceback" not in r.stderr + r.stdout


# -- malformed input ----------------------------------------------------------------------------------


def _bad_records() -> dict[str, tuple[str, int | None, int | None, str]]:
    """name -> (file text, expected deal, expected play, part of the message); built from the examples."""
    full = load(EXAMPLES / "classic-full-match.json")
    wiki = load(EXAMPLES / "wikipedia-unfinished.json")
    out: dict[str, tuple[str, int | None, int | None, str]] = {}

    def add(name: str, base: Any, change: Any, deal: int | None, play: int | None, message: str) -> None:
        data = copy.deepcopy(base)
        change(data)
        out[name] = (json.dumps(data, ensure_ascii=False), deal, play, message)

    out["not-json"] = ("{'format': opentrix}", None, None, "not JSON")
    out["empty"] = ("", None, None, "not JSON")
    out["binary"] = ("\x00\x01garbage", None, None, "not JSON")
    out["nested-too-deeply"] = ("[" * 100_000, None, None, "nested far too deeply")
    add("a-list", full, lambda d: d.clear(), None, None, "'format' is missing")
    add("wrong-format", full, lambda d: d.update(format="opentrix-record/2"), None, None, "'format' must be")
    add("rules-number", full, lambda d: d.update(rules=7), None, None, "rules must be a preset name or an object")
    add("unknown-preset", full, lambda d: d.update(rules="saudi"), None, None, "unknown preset 'saudi'")
    add("unknown-option", full, lambda d: d.update(rules={"preset": "online", "jokers": 2}), None, None,
        "unknown option 'jokers'")  # fmt: skip
    add("option-type", full, lambda d: d.update(rules={"kingdoms": "four"}), None, None,
        "option 'kingdoms' must be a whole number")  # fmt: skip
    add("players-type", full, lambda d: d.update(players=["A", "B"]), None, None, "'players' must be a list")
    add("deals-type", full, lambda d: d.update(deals="all of them"), None, None, "'deals' must be a list")
    add("deal-type", full, lambda d: d["deals"].__setitem__(1, ["hands"]), 1, None, "a deal is a JSON object")
    add("hands-type", full, lambda d: d["deals"][0].update(hands="AS KS"), 0, None, "'hands' must be a list")
    add("hand-type", full, lambda d: d["deals"][0]["hands"].__setitem__(2, 13), 0, None,
        "the hand of seat 2 must be a list of cards")  # fmt: skip
    add("bad-card", full, lambda d: d["deals"][3]["hands"][1].__setitem__(0, "11H"), 3, None, "not a card: '11H'")
    add("card-type", full, lambda d: d["deals"][3]["hands"][1].__setitem__(0, ["AS"]), 3, None, "not a card")
    add("twelve-cards", full, lambda d: d["deals"][0]["hands"][2].pop(), 0, None, "seat 2 has 12 cards")
    add("duplicate-card", full, lambda d: d["deals"][0]["hands"][2].__setitem__(0, d["deals"][0]["hands"][1][0]),
        0, None, "is dealt twice")  # fmt: skip
    add("contract-type", full, lambda d: d["deals"][5].update(contract=["diamonds"]), 5, None, "unknown contract")
    add("contract-twice", full, lambda d: d["deals"][4].update(contract="trix"), 4, None,
        "trix has already been played in seat 3's kingdom")  # fmt: skip
    add("doubled-not-doublable", wiki, lambda d: d["deals"][1].update(doubled=["QH"]), 1, None,
        "QH may not be doubled in king_of_hearts")  # fmt: skip
    add("doubled-in-diamonds", wiki, lambda d: d["deals"][0].update(doubled=["QD"]), 0, None,
        "QD may not be doubled in diamonds")  # fmt: skip
    add("doubled-type", wiki, lambda d: d["deals"][1].update(doubled={"KH": True}), 1, None,
        "'doubled' must be a list")  # fmt: skip
    add("claim-unsupported", wiki, lambda d: d["deals"][1].update(thrown_in=3, plays=[]), 1, None,
        "seat 3's hand does not allow a redeal in king_of_hearts")  # fmt: skip
    add("thrown-in-type", wiki, lambda d: d["deals"][1].update(thrown_in=[3]), 1, None,
        "'thrown_in' must be a seat from 0 to 3")  # fmt: skip
    add("plays-type", full, lambda d: d["deals"][6].update(plays=None), 6, None, "'plays' must be a list")
    add("bad-play", full, lambda d: d["deals"][6]["plays"].__setitem__(9, "Q"), 6, 9, "not a card: 'Q'")
    play, seat, suit = _revoke_at(full, 1)
    add("revoke", full, lambda d: _make_revoke(d["deals"][1], play), 1, play, f"seat {seat} must follow suit {suit}")
    add("play-after-deal-over", full, lambda d: d["deals"][19]["plays"].append("AS"), 19, 52,
        "the deal is over after 52 plays")  # fmt: skip
    add("deal-after-match-over", full, lambda d: d["deals"].append(copy.deepcopy(d["deals"][1])), 20, None,
        "the match is already over")  # fmt: skip
    add("pass-outside-trix", full, lambda d: d["deals"][1]["plays"].__setitem__(3, "pass"), 1, 3,
        "passing is only for the Trix contract")  # fmt: skip
    return out


def _revoke_at(record: dict[str, Any], index: int) -> tuple[int, int, str]:
    """In trick deal ``index``: the first play that followed suit and that the same seat could swap for
    one of its later cards of another suit. Returns (play, seat, suit letter)."""
    from opentrix.record import Record

    deal = Record.loads(json.dumps(record)).replay().deals[index]
    plays = record["deals"][index]["plays"]
    for i, card in enumerate(plays):
        led = plays[i - i % 4]
        if i % 4 == 0 or card[1] != led[1]:
            continue
        later = [j for j in range(i + 1, len(plays)) if deal.seats[j] == deal.seats[i] and plays[j][1] != led[1]]
        if later:
            return i, deal.seats[i], led[1]
    raise AssertionError("no revoke can be made in this deal")


def _make_revoke(deal: dict[str, Any], i: int) -> None:
    """Swap play ``i`` with the next card of another suit that the same seat (the holder) plays."""
    plays = deal["plays"]
    led = plays[i - i % 4][1]
    hands = deal["hands"]
    seat_hand = next(h for h in hands if plays[i] in h)
    j = next(j for j in range(i + 1, len(plays)) if plays[j] in seat_hand and plays[j][1] != led)
    plays[i], plays[j] = plays[j], plays[i]


@pytest.fixture(scope="module")
def bad_files(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    folder = tmp_path_factory.mktemp("bad")
    files = {}
    for name, (text, *_) in _bad_records().items():
        path = folder / f"{name}.json"
        path.write_text(text, encoding="utf-8")
        files[name] = path
    return files


def test_malformed_records_are_clear_errors_naming_where(bad_files: dict[str, Path]) -> None:
    cases = _bad_records()
    names = list(cases)
    r = opentrix("verify", "--json", *(bad_files[n] for n in names))
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    results = json_lines(r.stdout)
    assert len(results) == len(names)
    for name, result in zip(names, results, strict=True):
        _, deal, play, message = cases[name]
        assert result["ok"] is False, name
        assert set(result) == {"ok", "error"}
        err = result["error"]
        assert set(err) == {"deal", "play", "message"}
        assert err["deal"] == deal, (name, err)
        assert err["play"] == play, (name, err)
        assert message in err["message"], (name, err)
        assert "♦" not in err["message"] and "♥" not in err["message"]  # record letters in the JSON


def test_revoke_message(bad_files: dict[str, Path]) -> None:
    _, _, play, message = _bad_records()["revoke"]
    r = opentrix("verify", "--json", bad_files["revoke"])
    assert json_lines(r.stdout)[0]["error"] == {"deal": 1, "play": play, "message": message}
    text = opentrix("verify", bad_files["revoke"]).stdout
    symbol = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[message[-1]]
    assert f"INVALID: deal 1, play {play}: {message[:-1]}{symbol} (holds " in text


def test_malformed_records_in_the_text_report(bad_files: dict[str, Path]) -> None:
    r = opentrix("verify", *bad_files.values())
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    lines = [line for line in r.stdout.splitlines() if "INVALID" in line]
    assert len(lines) == len(bad_files)
    assert any(": INVALID: deal 19, play 52: the deal is over after 52 plays" in line for line in lines)


def test_unreadable_files(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere.json"
    r = opentrix("verify", "--json", missing, tmp_path, EXAMPLES / "classic-full-match.json")
    assert r.returncode == 1
    assert "Traceback" not in r.stdout + r.stderr
    first, second, third = json_lines(r.stdout)
    message = f"cannot read {missing}: No such file or directory"
    assert first == {"ok": False, "error": {"deal": None, "play": None, "message": message}}
    assert second["ok"] is False and second["error"]["message"].startswith(f"cannot read {tmp_path}")
    assert third["ok"] is True  # the records after an unreadable one are still checked


def test_a_file_named_dash_is_read_as_a_file_and_an_empty_name_is_named(tmp_path: Path) -> None:
    """``-`` alone reads stdin; ``./-`` is the file called -, not stdin again (the path was folded)."""
    shutil.copy(EXAMPLES / "classic-full-match.json", tmp_path / "-")
    exe = shutil.which("opentrix")
    cmd: list[str] = [exe] if exe else [sys.executable, "-c", "from opentrix.cli import main; main()"]
    r = subprocess.run(
        [*cmd, "verify", "--json", "./-"],
        cwd=tmp_path,
        stdin=subprocess.DEVNULL,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0 and json_lines(r.stdout)[0]["ok"] is True, r.stdout
    r = opentrix("verify", "")
    assert r.returncode == 1 and r.stdout == "'': INVALID: cannot read a file with no name (an empty argument)\n"


def test_byte_order_mark_crlf_and_strictness(tmp_path: Path) -> None:
    """A BOM and CRLF line ends are read; NaN, a repeated key and scores too long to print are clear errors
    (exit 1, one JSON line each, no traceback), and the records after them are still checked."""
    name = "wikipedia-unfinished"
    text = json.dumps(load(EXAMPLES / f"{name}.json"), indent=1).replace("\n", "\r\n")
    windows = tmp_path / "windows.json"
    windows.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    huge = load(EXAMPLES / "classic-full-match.json")
    huge["rules"] = {"points": {"diamond": -(10**4299)}}
    files = [windows]
    for key, content in [
        ("nan", '{"format": "opentrix-record/1", "deals": [], "note": NaN}'),
        ("repeated", '{"format": "opentrix-record/1", "deals": [], "deals": []}'),
        ("huge", json.dumps(huge)),
    ]:
        files.append(tmp_path / f"{key}.json")
        files[-1].write_text(content, encoding="utf-8")
    r = opentrix("verify", "--json", *files, EXAMPLES / f"{name}.json")
    assert r.returncode == 1 and r.stderr == ""
    lines = r.stdout.splitlines()
    expected = json.dumps(load(EXAMPLES / f"{name}.expected.json"))
    assert lines[0] == expected and lines[-1] == expected
    nan, repeated, huge_out = (json.loads(line)["error"] for line in lines[1:4])
    assert nan == {"deal": None, "play": None, "message": "not JSON: NaN is not a JSON value"}
    assert repeated["message"] == "not a record: the key 'deals' appears twice in one object"
    assert huge_out["deal"] is None and "too many digits" in huge_out["message"]
    text_report = opentrix("verify", files[-1])
    assert text_report.returncode == 1 and "Traceback" not in text_report.stdout + text_report.stderr


def test_a_bad_record_does_not_stop_the_others(bad_files: dict[str, Path]) -> None:
    r = opentrix("verify", "--json", bad_files["bad-card"], EXAMPLES / "wikipedia-unfinished.json")
    a, b = json_lines(r.stdout)
    assert a["ok"] is False and b == load(EXAMPLES / "wikipedia-unfinished.expected.json")
    assert r.returncode == 1


# -- golden records -----------------------------------------------------------------------------------


def test_golden_records_print_their_frozen_output() -> None:
    assert len(GOLDEN_NAMES) >= 4
    r = opentrix("verify", "--json", *(GOLDEN / f"{n}.json" for n in GOLDEN_NAMES))
    assert r.returncode == 0, r.stdout
    for name, result in zip(GOLDEN_NAMES, json_lines(r.stdout), strict=True):
        assert result == load(GOLDEN / f"{name}.expected.json"), name


@pytest.mark.parametrize("name", GOLDEN_NAMES + NAMES)
def test_a_second_referee_agrees(name: str) -> None:
    """``tests/independent.py``, written separately from the rule book, prints the same (wording aside)."""
    folder = GOLDEN if name in GOLDEN_NAMES else EXAMPLES
    expected = load(folder / f"{name}.expected.json")
    if not expected["ok"]:
        expected["error"].pop("message")
    assert independent.referee(load(folder / f"{name}.json")) == expected


def test_golden_scores_checked_by_hand() -> None:
    """A few deals worked out without any program."""
    tie = load(GOLDEN / "classic-suited-tiebreak.expected.json")
    # seat s holds suit s in every deal: each king takes all his tricks and goes out first in Trix
    by_contract = {d["contract"]: d["scores"] for d in tie["deals"][:5]}  # king 1's kingdom
    assert by_contract == {
        "king_of_hearts": [0, -75, 0, 0],
        "queens": [0, -100, 0, 0],
        "diamonds": [0, -130, 0, 0],
        "ltoosh": [0, -195, 0, 0],
        "trix": [50, 200, 150, 100],
    }
    assert [d["king"] for d in tie["deals"]] == [1] * 5 + [2] * 5 + [3] * 5 + [0] * 5 + [1, 2, 3]
    assert tie["totals"] == [0, -75, -75, -75] and tie["winners"] == [0]
    wiki = load(GOLDEN / "wikipedia-koh-redeal-one-kingdom.expected.json")
    assert wiki["deals"][0] == {"king": 1, "contract": "king_of_hearts", "thrown_in": 0, "finished": True,
                                "scores": [0, 0, 0, 0]}  # fmt: skip
    assert wiki["totals"] == [50, -300, 150, 100] and wiki["winners"] == [2]
    den = load(GOLDEN / "denexa-doubling-throw-in.expected.json")
    assert den["deals"][0]["contract"] == "trix" and den["deals"][0]["thrown_in"] == 2
    assert den["deals"][1]["king"] == den["deals"][0]["king"]
    # denexa passes the kingdom against play
    kings = [d["king"] for d in den["deals"] if d["thrown_in"] is None]
    assert [kings[i * 5] for i in range(4)] == [(kings[0] - i) % 4 for i in range(4)]


def test_json_lines_are_plain_ascii_as_json_dumps_writes_them(tmp_path: Path) -> None:
    """A message that quotes a non-ASCII card ('Kä') is escaped, so the line is the same whether a
    reader compares it as text with json.dumps of the expected document or parses it."""
    record = load(EXAMPLES / "classic-invalid-revoke.json")
    record["deals"][0]["plays"][3] = "Kä"
    path = tmp_path / "odd.json"
    path.write_text(json.dumps(record, ensure_ascii=False), encoding="utf-8")
    r = opentrix("verify", "--json", path)
    assert r.returncode == 1 and r.stdout.isascii()
    line = r.stdout.rstrip("\n")
    doc = json.loads(line)
    assert "Kä" in doc["error"]["message"] and line == json.dumps(doc)


def test_a_record_on_stdin_is_verified() -> None:
    """``-`` reads the record from stdin, as Unix tools do: ``curl …/record | opentrix verify -``."""
    exe = shutil.which("opentrix")
    cmd: list[str] = [exe] if exe else [sys.executable, "-c", "from opentrix.cli import main; main()"]
    text = (EXAMPLES / "classic-invalid-revoke.json").read_bytes()
    done = subprocess.run([*cmd, "verify", "--json", "-"], input=text, capture_output=True, timeout=120, check=False)
    assert done.returncode == 1
    expected = json.loads((EXAMPLES / "classic-invalid-revoke.expected.json").read_text())
    assert json_lines(done.stdout.decode()) == [expected]
    done = subprocess.run([*cmd, "verify", "-"], input=text, capture_output=True, timeout=120, check=False)
    assert done.stdout.decode().startswith("stdin: INVALID: deal 0, play 5: seat 1 must follow suit")


@pytest.mark.parametrize("encoding", ["cp1252", "latin-1", "ascii"])
def test_a_terminal_without_suit_symbols_gets_letters_not_a_traceback(encoding: str) -> None:
    exe = shutil.which("opentrix")
    cmd: list[str] = [exe] if exe else [sys.executable, "-c", "from opentrix.cli import main; main()"]
    env = {**os.environ, "PYTHONIOENCODING": encoding}
    record = EXAMPLES / "classic-invalid-revoke.json"
    done = subprocess.run([*cmd, "verify", str(record)], capture_output=True, env=env, timeout=120, check=False)
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
    assert b"seat 1 must follow suit D (holds 8D 5D 3D)" in done.stdout


def test_stdin_is_read_once_and_a_closed_stdin_is_an_error_not_a_traceback() -> None:
    exe = shutil.which("opentrix")
    cmd: list[str] = [exe] if exe else [sys.executable, "-c", "from opentrix.cli import main; main()"]
    done = subprocess.run([*cmd, "verify", "-", "-"], input=b"{}", capture_output=True, timeout=120, check=False)
    assert done.returncode == 2 and b"give - once" in done.stderr
    done = subprocess.run(" ".join([*cmd, "verify", "-", "<&-"]), shell=True, capture_output=True, timeout=120)
    assert done.returncode == 1 and b"Traceback" not in done.stderr, done.stderr
    assert b"cannot read stdin" in done.stdout


def test_a_misspelt_key_is_noted_on_stderr_and_metadata_is_not(tmp_path: Path) -> None:
    """Unknown keys are read past (room for metadata), but one that looks like a slip for a known key
    (``"double"``: the double is not read, and the scores change) is said on stderr; the report on
    stdout stays exactly the specified one."""
    record = load(EXAMPLES / "classic-full-match.json")
    record["date"] = "2026-12-01"
    record["deals"][1]["comment"] = "a fine deal"
    # close to a known key, but beside it: something else, not a slip
    record["dealt"] = "2026-12-01"
    record["player"] = "Lina"
    record["deals"][1]["players"] = ["Lina", "Omar", "Sami", "Nour"]
    quiet = tmp_path / "metadata.json"
    quiet.write_text(json.dumps(record), encoding="utf-8")
    record["deals"][0]["double"] = ["KH"]
    slip = tmp_path / "slip.json"
    slip.write_text(json.dumps(record), encoding="utf-8")
    expected = json.dumps(load(EXAMPLES / "classic-full-match.expected.json"))
    for args in (["--json"], []):
        r = opentrix("verify", *args, quiet)
        assert r.returncode == 0 and r.stderr == ""
        r = opentrix("verify", *args, slip)
        assert r.returncode == 0
        note = "note: deal 0: the key 'double' is not read (did you mean 'doubled'?)"
        assert r.stderr == f"opentrix verify: {slip}: {note}\n"
        if args:
            assert r.stdout == expected + "\n"
    # A slip that makes the record invalid: the note says why.
    record["deals"][2]["play"] = record["deals"][2].pop("plays")
    slip.write_text(json.dumps(record), encoding="utf-8")
    r = opentrix("verify", "--json", slip)
    assert r.returncode == 1 and json_lines(r.stdout)[0]["error"]["message"].startswith("'plays' is missing")
    assert "deal 2: the key 'play' is not read (did you mean 'plays'?)" in r.stderr
