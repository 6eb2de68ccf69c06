"""opentrix-record/1: reading (lenient card strings in, canonical out), writing, replaying, and where a
malformed record is wrong. The referee's output for the shared examples is checked in-process here and
through the real command in test_verify_cli.py."""

from __future__ import annotations

import copy
import json
from importlib import resources
from typing import Any

import pytest

import independent
from engine_kit import SUITED, cards, run_match
from opentrix import actions as A
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.record import FORMAT, Record, RecordError
from opentrix.rules import Rules, RulesError
from opentrix.verify import summary, verify_text

EXAMPLES = resources.files("opentrix") / "examples"
NAMES = ["classic-full-match", "classic-invalid-revoke", "online-partnership-one-kingdom", "wikipedia-unfinished"]


def example(name: str) -> dict[str, Any]:
    data: dict[str, Any] = json.loads((EXAMPLES / f"{name}.json").read_text())
    return data


def verify(data: object) -> dict[str, Any]:
    out = verify_text(json.dumps(data))
    out.pop("_message", None)
    return out


@pytest.mark.parametrize("name", NAMES)
def test_examples_in_process(name: str) -> None:
    expected = json.loads((EXAMPLES / f"{name}.expected.json").read_text())
    assert verify(example(name)) == expected


def test_lenient_card_strings_in_canonical_out() -> None:
    data = example("classic-full-match")
    first = data["deals"][0]
    lenient = copy.deepcopy(data)
    d0 = lenient["deals"][0]
    d0["hands"] = [[_lenient(c, i) for i, c in enumerate(h)] for h in first["hands"]]
    d0["plays"] = [_lenient(c, i) for i, c in enumerate(first["plays"])]
    assert any("10" in c for h in d0["hands"] for c in h) and any("♥" in c for c in d0["plays"])
    record = Record.loads(json.dumps(lenient))
    assert verify(lenient) == verify(data)
    out = json.loads(record.dumps())
    assert out["deals"][0]["plays"] == first["plays"]
    assert sorted(out["deals"][0]["hands"][0]) == sorted(first["hands"][0])


@pytest.mark.parametrize("contract", ["Diamonds", "DIAMONDS", " diamonds", "King of Hearts", "king-of-hearts", 2, None])
def test_a_contract_is_named_by_its_id_exactly(contract: object) -> None:
    """The format lists the ids a record may name; what a player may type elsewhere is not one."""
    data = example("classic-full-match")
    data["deals"][1]["contract"] = contract
    out = verify(data)
    assert not out["ok"] and out["error"]["deal"] == 1 and out["error"]["play"] is None, out
    assert "unknown contract" in out["error"]["message"] and "king_of_hearts, queens" in out["error"]["message"]


@pytest.mark.parametrize(("where", "text"), [("plays", " QH"), ("plays", "QH "), ("plays", " pass"), ("hands", "\n")])
def test_a_card_is_written_without_spaces(where: str, text: str) -> None:
    """The format's forgiving forms (10D, symbols, any case) do not include white space around a card."""
    data = example("classic-full-match")
    deal = data["deals"][0]
    if where == "plays":
        deal["plays"][0] = text
    else:
        deal["hands"][0][0] += text
    out = verify(data)
    assert not out["ok"] and out["error"]["deal"] == 0, out
    assert out["error"]["play"] == (0 if where == "plays" else None)
    assert "without spaces" in out["error"]["message"]


@pytest.mark.parametrize("text", ["5\ufe0fC", "5C\ufe0f", "\ufe0f5C"])
def test_an_emoji_selector_is_read_only_after_a_suit_symbol(text: str) -> None:
    data = example("classic-full-match")
    data["deals"][0]["plays"][0] = text
    out = verify(data)
    assert not out["ok"] and (out["error"]["deal"], out["error"]["play"]) == (0, 0), out


def test_a_suit_letter_in_any_case_is_an_ascii_letter() -> None:
    """A suit letter in any case is S or s, not 'ſ' (the long s), which Python upper-cases to S."""
    data = example("classic-full-match")
    plays = data["deals"][0]["plays"]
    j = next(j for j, c in enumerate(plays) if c.endswith("S"))
    plays[j] = plays[j][0] + "\u017f"
    out = verify(data)
    assert not out["ok"] and (out["error"]["deal"], out["error"]["play"]) == (0, j), out
    assert "not a card" in out["error"]["message"]


def test_a_record_stopped_before_the_first_deal_is_valid() -> None:
    """The record format: a record may stop anywhere, so also before its first deal (nothing scored)."""
    data = example("classic-full-match")
    data["deals"] = []
    assert verify(data) == {"ok": True, "deals": [], "totals": [0, 0, 0, 0], "match_over": False, "winners": []}
    partnership = {**data, "rules": {"preset": "online", "partnership": True}}
    assert verify(partnership)["team_totals"] == [0, 0]


def _lenient(card: str, i: int) -> str:
    """Write a card the ways a reader must accept: 10 for T, suit symbols, lower case."""
    if card == "pass":
        return "PASS" if i % 2 else card
    rank, suit = card[0], card[1]
    rank = "10" if rank == "T" else rank
    style = i % 4
    if style == 0:
        return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit]
    if style == 3:  # as phones write them: the symbol with the emoji-style selector U+FE0F
        return rank + {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}[suit] + "\ufe0f"
    if style == 1:
        return (rank + suit).lower()
    return rank + suit


def test_written_record_is_canonical_and_minimal() -> None:
    m = Match(Rules.preset("online", partnership=True, kingdoms=1), SUITED)
    run_match(m, SUITED)
    record = Record.from_match(m, ["Lina", "Omar", "bot:strong", "bot:basic"])
    data = json.loads(record.dumps())
    assert list(data) == ["format", "rules", "players", "deals"]
    assert data["format"] == FORMAT
    assert data["rules"] == {"preset": "online", "kingdoms": 1, "partnership": True}
    deal = data["deals"][0]
    assert list(deal) == ["hands", "contract", "plays"]  # no doubled / thrown_in when there are none
    assert deal["hands"][0][:3] == ["2S", "3S", "4S"]
    assert all(len(c) == 2 for h in deal["hands"] for c in h)
    assert json.loads(record.dumps(indent=2)) == data
    assert Record.loads(record.dumps()).dumps() == record.dumps()


def test_write_read_replay_gives_the_same_match() -> None:
    m = Match(Rules.preset("denexa"), seed=11)
    run_match(m)
    text = Record.from_match(m).dumps()
    again = Record.loads(text).replay()
    assert again.history == m.history
    assert summary(again) == summary(m)
    assert Record.from_match(again).dumps() == text


def thrown_in_match() -> Match:
    """Wikipedia rules; deal 0: King of Hearts thrown in by seat 0 (its only heart is A♥);
    deal 1: Queens, seat 1 (the king) doubles Q♥, no card played yet."""
    hand0 = cards("AH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS")
    hands = (hand0, (SUITED[1] ^ cards("AH")) | cards("AS"), SUITED[2], SUITED[3])
    m = Match(Rules.preset("wikipedia"), hands)
    m.apply(A.choose("king_of_hearts"))
    while m.turn != 0:
        m.apply(A.NO_CLAIM)
    m.apply(A.CLAIM)
    m.start_deal(SUITED)
    m.apply(A.choose("queens"))
    m.apply(A.double("QH"))  # seat 1 is king and doubles its queen; the others decline
    while m.phase == Phase.DOUBLE:
        m.apply(A.NO_DOUBLE)
    return m


def test_replay_can_stop_the_last_deal_at_the_kings_choice() -> None:
    """For a caller keeping the redeal and doubling answers itself: the earlier deals are replayed in
    full, the last one stops before its questions, and a last deal that cannot follow is a RecordError."""
    m = thrown_in_match()
    record = Record.from_match(m)
    match = record.replay(last_at_contract=True)
    assert match.history == m.history[: len(match.history)]
    assert match.deals[0].thrown_in == 0  # the first deal replayed with its claim
    deal = match.deals[-1]
    assert deal.contract == Contract.QUEENS and deal.phase == Phase.DOUBLE and deal.turn == 1 and not deal.doubled
    assert (
        Record.loads(json.dumps({**thrown_in_record(), "deals": thrown_in_record()["deals"][:1]}))
        .replay(last_at_contract=True)
        .deals[0]
        .phase
        == Phase.CLAIM
    )
    bad = thrown_in_record()
    del bad["deals"][0]["thrown_in"]  # the first deal no longer ends, yet the second follows it
    with pytest.raises(RecordError, match="not finished") as e:
        Record.loads(json.dumps(bad)).replay(last_at_contract=True)
    assert e.value.deal == 0


def thrown_in_record() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(Record.from_match(thrown_in_match()).dumps())
    return data


def test_doubled_and_thrown_in_fields_round_trip() -> None:
    m = thrown_in_match()
    data = thrown_in_record()
    assert data["deals"][0]["thrown_in"] == 0 and data["deals"][0]["plays"] == []
    assert data["deals"][1]["doubled"] == ["QH"]
    again = Record.from_json(data).replay()
    assert again.deals[0].thrown_in == 0 and again.deals[1].doubled == m.deals[1].doubled
    assert again.phase == Phase.PLAY and again.turn == 1
    out = verify(data)
    assert out["deals"][0] == {"king": 1, "contract": "king_of_hearts", "thrown_in": 0, "finished": True,
                               "scores": [0, 0, 0, 0]}  # fmt: skip
    assert out["deals"][1]["finished"] is False and out["deals"][1]["scores"] is None


def test_record_error_location() -> None:
    e = RecordError("seat 1 must follow suit ♦", 4, 17, plain="seat 1 must follow suit D")
    assert e.located() == "deal 4, play 17: seat 1 must follow suit ♦"
    assert e.to_json() == {"deal": 4, "play": 17, "message": "seat 1 must follow suit D"}
    assert RecordError("not JSON").located() == "not JSON"


def mutated(name: str, change: Any) -> dict[str, Any]:
    data = example(name)
    change(data)
    return data


def _set(path: tuple[Any, ...], value: Any) -> Any:
    def change(data: Any) -> None:
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value

    return change


CASES: list[tuple[str, Any, int | None, int | None, str]] = [
    ("no format", lambda d: d.clear() or d.update({"x": 1}), None, None,
     "'format' is missing (it must be \"opentrix-record/1\")"),
    ("wrong format", _set(("format",), "pgn"), None, None, "'format' must be \"opentrix-record/1\", not \"pgn\""),
    ("format of the wrong type", _set(("format",), True), None, None, "not true"),  # JSON's words, not Python's
    ("format left empty", _set(("format",), None), None, None, "not null"),
    ("unknown preset", _set(("rules",), "hearts"), None, None, "unknown preset 'hearts'"),
    ("unknown option", _set(("rules",), {"preset": "classic", "jokers": True}), None, None,
     "rules: unknown option 'jokers'"),
    ("option of the wrong type", _set(("rules",), {"doubling": "yes"}), None, None,
     "rules: option 'doubling' must be true or false, not \"yes\""),
    ("bad option value", _set(("rules",), {"tiebreak": "coin"}), None, None,
     "rules: option 'tiebreak' must be one of none, extra_koh_deal, extra_kingdom, not \"coin\""),
    ("bad points", _set(("rules",), {"points": {"trix": [1, 2]}}), None, None,
     "rules: points 'trix' must be a list of four integers"),
    ("rules of the wrong type", _set(("rules",), 3), None, None, "rules must be a preset name or an object"),
    ("players of the wrong type", _set(("players",), "Lina"), None, None, "'players' must be a list of four names"),
    ("deals of the wrong type", _set(("deals",), {"0": 1}), None, None, "'deals' must be a list of deals"),
    ("deal of the wrong type", _set(("deals", 3), "deal"), 3, None, "a deal is a JSON object"),
    ("hands of the wrong type", _set(("deals", 2, "hands"), {"0": []}), 2, None,
     "'hands' must be a list of four hands"),
    ("three hands", lambda d: d["deals"][2]["hands"].pop(), 2, None, "'hands' must be a list of four hands"),
    ("hand of the wrong type", _set(("deals", 2, "hands", 1), "AS KS"), 2, None,
     "the hand of seat 1 must be a list of cards"),
    ("bad card string", _set(("deals", 2, "hands", 1, 4), "1S"), 2, None, "hand of seat 1: not a card: '1S'"),
    ("card of the wrong type", _set(("deals", 2, "hands", 1, 4), 12), 2, None, "hand of seat 1: not a card: 12"),
    ("12 cards in a hand", lambda d: d["deals"][2]["hands"][3].pop(), 2, None,
     "seat 3 has 12 cards; every hand has 13"),
    ("14 cards in a hand", lambda d: d["deals"][2]["hands"][3].append(d["deals"][2]["hands"][0].pop()), 2, None,
     "seat 0 has 12 cards; every hand has 13"),
    ("a card twice in a hand", lambda d: d["deals"][1]["hands"][0].__setitem__(0, d["deals"][1]["hands"][0][1]), 1,
     None, "hand of seat 0 holds"),
    ("a card in two hands", lambda d: d["deals"][1]["hands"][2].__setitem__(0, d["deals"][1]["hands"][0][1]), 1,
     None, "is dealt twice (again to seat 2)"),
    ("unknown contract", _set(("deals", 2, "contract"), "hearts"), 2, None, "unknown contract 'hearts'"),
    ("contract missing", lambda d: d["deals"][2].pop("contract"), 2, None, "'contract' is missing"),
    ("complex outside complex rules", _set(("deals", 0, "contract"), "complex"), 0, None,
     "complex is not a contract in these rules"),
    ("contract played twice in a kingdom", _set(("deals", 2, "contract"), "diamonds"), 2, None,
     "diamonds has already been played in seat 3's kingdom"),
    ("doubling when it is off", _set(("deals", 4, "doubled"), ["KH"]), 4, None,
     "doubling is off in these rules, yet cards are doubled"),
    ("doubled of the wrong type", _set(("deals", 4, "doubled"), "KH"), 4, None, "'doubled' must be a list of cards"),
    ("bad doubled card", _set(("deals", 4, "doubled"), ["KX"]), 4, None, "doubled: not a card: 'KX'"),
    ("thrown_in of the wrong type", _set(("deals", 4, "thrown_in"), "1"), 4, None,
     "'thrown_in' must be a seat from 0 to 3, not \"1\""),
    ("thrown_in out of range", _set(("deals", 4, "thrown_in"), 4), 4, None,
     "'thrown_in' must be a seat from 0 to 3, not 4"),
    ("claim when no redeal applies", _set(("deals", 4, "thrown_in"), 1), 4, None,
     "no redeal can be claimed in king_of_hearts under these rules"),
    ("plays of the wrong type", _set(("deals", 2, "plays"), "AS KS"), 2, None, "'plays' must be a list of cards"),
    ("bad play", _set(("deals", 2, "plays", 7), "XX"), 2, 7, "not a card: 'XX'"),
    ("play of the wrong type", _set(("deals", 2, "plays", 7), None), 2, 7, "not a card: null"),
    ("a pass outside Trix", _set(("deals", 2, "plays", 7), "pass"), 2, 7,
     "passing is only for the Trix contract"),
    ("a card not held", lambda d: d["deals"][1]["plays"].__setitem__(0, d["deals"][1]["hands"][0][0]), 1, 0,
     "seat 3 does not hold"),
    ("plays after the deal is over", lambda d: d["deals"][2]["plays"].append("2S"), 2, 52,
     "the deal is over after 52 plays; '2S' is one too many"),
    ("a deal after the match is over", lambda d: d["deals"].append(copy.deepcopy(d["deals"][0])), 20, None,
     "the match is already over; no further deal can follow"),
    ("a deal after an unfinished one", lambda d: d["deals"][2]["plays"].pop(), 2, None,
     "the deal is not finished, yet deal 3 follows it"),
]  # fmt: skip


@pytest.mark.parametrize(("what", "change", "deal", "play", "message"), CASES, ids=[c[0] for c in CASES])
def test_malformed_records_name_where(what: str, change: Any, deal: int | None, play: int | None, message: str) -> None:
    out = verify(mutated("classic-full-match", change))
    assert out["ok"] is False, what
    assert out["error"]["deal"] == deal and out["error"]["play"] == play, out
    assert message in out["error"]["message"], out
    with pytest.raises(RecordError):
        Record.loads(json.dumps(mutated("classic-full-match", change))).replay()


@pytest.mark.parametrize(
    ("text", "message"),
    [("", "not JSON"), ("{", "not JSON"), ("[]", "a record is a JSON object, not an array"), ("null", "not null"),
     ('"classic"', "not a string"), ("7", "not a number"), (b"\xff\xfe\x00", "not JSON"),
     ('{"format": "opentrix-record/1", "deals": [], "x": NaN}', "not JSON: NaN is not a JSON value"),
     ('{"format": "opentrix-record/1", "deals": [], "x": -Infinity}', "not JSON: -Infinity is not a JSON value"),
     ('{"format": "opentrix-record/1", "deals": [], "x": [{"a": 1, "a": 2}]}',
      "not a record: the key 'a' appears twice in one object")],
    ids=["empty", "cut", "array", "null", "string", "number", "bad-utf8", "nan", "infinity", "repeated-outside-deals"],
)  # fmt: skip
def test_unreadable_text(text: str | bytes, message: str) -> None:
    out = verify_text(text)
    assert out["ok"] is False and out["error"]["deal"] is None and out["error"]["play"] is None
    assert message in out["error"]["message"]


def test_doubling_errors_in_doubling_rules() -> None:
    data = example("wikipedia-unfinished")
    contracts = [d["contract"] for d in data["deals"]]
    assert contracts == ["diamonds", "king_of_hearts", "trix"]
    bad = copy.deepcopy(data)
    bad["deals"][0]["doubled"] = ["KH"]
    out = verify(bad)
    assert out["error"] == {"deal": 0, "play": None, "message": "KH may not be doubled in diamonds"}
    bad = copy.deepcopy(data)
    bad["deals"][1]["doubled"] = ["QS"]
    out = verify(bad)
    assert out["error"] == {"deal": 1, "play": None, "message": "QS may not be doubled in king_of_hearts"}
    bad["deals"][1]["doubled"] = ["2C"]
    assert verify(bad)["error"]["message"] == "2C may not be doubled in king_of_hearts"


def test_a_claim_the_hand_does_not_support() -> None:
    data = example("wikipedia-unfinished")
    data["deals"][1]["thrown_in"] = 2
    data["deals"][1]["plays"] = []
    out = verify(data)
    assert out["error"] == {
        "deal": 1,
        "play": None,
        "message": "seat 2's hand does not allow a redeal in king_of_hearts",
    }


def test_a_long_run_of_throw_ins_is_refereed_whole() -> None:
    """Redeals have no limit, so a record may hold any number of deals; each is summarised once (the
    match once rebuilt its tuple of summaries per deal, and 100,000 throw-ins took minutes)."""
    deck = [r + s for s in "SHDC" for r in "23456789TJQKA"]
    rest = [c for c in deck if c[0] != "2" and c != "7H"]
    hands = [["2S", "2H", "2D", "2C", "7H", *rest[:8]], rest[8:21], rest[21:34], rest[34:47]]
    deal = {"hands": hands, "contract": "trix", "thrown_in": 0, "plays": []}
    out = verify_text(json.dumps({"format": FORMAT, "rules": "wikipedia", "deals": [deal] * 3000}))
    assert out["ok"] and len(out["deals"]) == 3000 and out["totals"] == [0, 0, 0, 0]
    assert {d["thrown_in"] for d in out["deals"]} == {0} and {d["king"] for d in out["deals"]} == {0}
    match = Record.from_json({"format": FORMAT, "rules": "wikipedia", "deals": [deal] * 3}).replay()
    assert match.summaries is match.summaries and len(match.summaries) == 3  # one tuple, shared by views


def test_a_thrown_in_deal_may_show_cards_doubled_before_the_claim() -> None:
    """The rule book puts redeal claims and doubling both before the first card, in no fixed order: K♥
    doubled and then A♥ alone claiming a redeal is a game that can happen at a table. The deal still
    scores nothing."""
    data = thrown_in_record()
    data["deals"][0]["doubled"] = ["KH"]
    out = verify(data)
    assert out["ok"] and out["deals"][0]["scores"] == [0, 0, 0, 0] and out["deals"][0]["thrown_in"] == 0
    assert out == verify(thrown_in_record())


def test_thrown_in_deal_with_plays_or_doubles() -> None:
    data = thrown_in_record()
    bad = copy.deepcopy(data)
    bad["deals"][0]["plays"] = ["2S"]
    assert verify(bad)["error"] == {"deal": 0, "play": 0, "message": "a thrown-in deal has no plays"}
    bad = copy.deepcopy(data)
    bad["deals"][0]["doubled"] = ["QS"]
    assert verify(bad)["error"] == {"deal": 0, "play": None, "message": "QS may not be doubled in king_of_hearts"}
    bad["rules"] = {"preset": "wikipedia", "doubling": False}
    bad["deals"][0]["doubled"] = ["KH"]
    assert verify(bad)["error"]["message"] == "doubling is off in these rules, yet cards are doubled"
    bad["deals"][0]["plays"] = ["2S"]  # two faults: the doubles were made before the first card, so first
    assert verify(bad)["error"] == {
        "deal": 0,
        "play": None,
        "message": "doubling is off in these rules, yet cards are doubled",
    }
    assert independent.referee(bad) == {"ok": False, "error": {"deal": 0, "play": None}}
    bad = copy.deepcopy(data)
    bad["deals"][0]["thrown_in"] = 1  # seat 1 holds twelve hearts
    assert verify(bad)["error"]["message"] == "seat 1's hand does not allow a redeal in king_of_hearts"


def test_a_repeated_key_is_an_error() -> None:
    """Which of two values counts would be up to the reader, so a referee must not pick one."""
    text = json.dumps(example("classic-full-match"))
    out = verify_text(text[:-1] + ', "deals": []}')  # the last value would pass as a record with no deals
    assert out["error"] == {
        "deal": None,
        "play": None,
        "message": "not a record: the key 'deals' appears twice in one object",
    }
    inner = text.replace('"contract": ', '"contract": "trix", "contract": ', 1)
    assert verify_text(inner)["error"] == {
        "deal": 0,
        "play": None,
        "message": "not a record: the key 'contract' appears twice in one object",
    }


def test_a_fault_json_readers_see_inside_a_deal_is_that_deals_and_comes_after_earlier_ones() -> None:
    """A key repeated in a deal, or a whole number past Python's 4300 digits (valid JSON), is refused at
    its deal, not before the record is read: a revoke in an earlier deal is still the first error. Such
    a number where nobody reads it (a key of the writer's own) is passed over, as any value there is."""
    digits = "7" * 4400

    def written(data: dict[str, Any]) -> str:
        """``data`` as JSON, with deal 5's contract named twice and its thrown_in the long number."""
        text = json.dumps(data).replace('"contract": "@"', '"contract": "trix", "contract": "trix"')
        return text.replace('"@"', digits)

    repeated, huge = example("classic-full-match"), example("classic-full-match")
    repeated["deals"][5]["contract"] = "@"
    huge["deals"][5]["thrown_in"] = "@"
    assert verify_text(written(repeated))["error"] == {
        "deal": 5,
        "play": None,
        "message": "not a record: the key 'contract' appears twice in one object",
    }
    assert verify_text(written(huge))["error"] == {
        "deal": 5,
        "play": None,
        "message": "'thrown_in' must be a seat from 0 to 3, not 7777777777… (a number with 4400 digits)",
    }
    for data in (repeated, huge):
        plays = data["deals"][2]["plays"]
        plays[1] = plays[0]  # the led card again: nobody holds it any more
        first = verify_text(written(data))["error"]
        assert (first["deal"], first["play"]) == (2, 1) and first["message"].endswith(f"does not hold {plays[0]}")
    unread = example("classic-full-match")
    unread["note"] = "@"
    assert verify_text(written(unread))["ok"] is True


def test_a_key_repeated_inside_a_play_is_that_plays_fault() -> None:
    """An object with a repeated key written as play 20 is play 20's fault: a revoke at play 5 of the
    same deal comes first, and without one the error is located at that play, as any other non-card."""
    data = example("classic-full-match")
    data["deals"][0]["plays"][20] = "@"
    text = json.dumps(data).replace('"@"', '{"card": "QS", "card": "QH"}')
    assert verify_text(text)["error"] == {
        "deal": 0,
        "play": 20,
        "message": "not a record: the key 'card' appears twice in one object",
    }
    data["deals"][0] = example("classic-invalid-revoke")["deals"][0]
    data["deals"][0]["plays"][20] = "@"
    text = json.dumps(data).replace('"@"', '{"card": "QS", "card": "QH"}')
    assert verify_text(text)["error"] == {"deal": 0, "play": 5, "message": "seat 1 must follow suit D"}


def test_plays_is_required() -> None:
    """RECORD-FORMAT.md marks only 'doubled' and 'thrown_in' optional; a deal with no plays yet says []."""
    data = example("classic-full-match")
    del data["deals"][19]["plays"]
    assert verify(data)["error"] == {
        "deal": 19,
        "play": None,
        "message": "'plays' is missing (an empty list when no card has been played)",
    }
    data["deals"][19]["plays"] = []
    assert verify(data)["ok"] is True


def test_scores_too_large_to_print_are_an_error_not_a_crash() -> None:
    data = example("classic-full-match")
    data["rules"] = {"points": {"diamond": -(10**4299)}}  # readable, but 13 of them outgrow Python's 4300 digits
    out = verify(data)
    assert out["ok"] is False and out["error"]["deal"] is None
    assert "too many digits" in out["error"]["message"]
    data["rules"] = {"points": {"diamond": -(10**30)}}
    assert verify(data)["ok"] is True


def test_first_error_in_play_order_within_a_deal() -> None:
    # a revoke at play 5 comes before a badly written play later in the same deal
    data = example("classic-invalid-revoke")
    data["deals"][0]["plays"][30] = "XX"
    assert verify(data)["error"] == {"deal": 0, "play": 5, "message": "seat 1 must follow suit D"}
    # a contract already played in this kingdom comes before any play of that deal
    data = example("classic-full-match")
    data["deals"][4]["contract"] = "trix"
    data["deals"][4]["plays"][10] = "ZZ"
    assert verify(data)["error"] == {
        "deal": 4,
        "play": None,
        "message": "trix has already been played in seat 3's kingdom",
    }
    # a badly written play with nothing wrong before it is itself the first error
    data = example("classic-full-match")
    data["deals"][4]["plays"][10] = "ZZ"
    assert verify(data)["error"]["deal"] == 4 and verify(data)["error"]["play"] == 10


def test_first_error_in_deal_order() -> None:
    # a revoke in deal 0 comes before a badly written deal 1
    data = example("classic-invalid-revoke")
    data["deals"].append({"hands": "none"})
    assert verify(data)["error"] == {"deal": 0, "play": 5, "message": "seat 1 must follow suit D"}


def test_quoted_values_stay_one_plain_line_whatever_the_file_holds() -> None:
    """A value quoted in a message: direction overrides escaped (they would turn the terminal's line
    around), and one nested too deep to print again is named by kind (it was a RecursionError)."""
    out = verify_text(json.dumps({"format": "\u202eevil", "deals": []}))
    assert out["error"]["message"] == '\'format\' must be "opentrix-record/1", not "\\u202eevil"'
    deep: list[Any] = []  # json.loads can read a value nested nearly as deep as the stack allows;
    inner = deep  # quoting it takes a few frames more
    for _ in range(100_000):
        inner.append([])
        inner = inner[0]
    with pytest.raises(RulesError, match=r"option 'doubling' must be true or false, not a list$"):
        Rules.from_json({"doubling": deep})
