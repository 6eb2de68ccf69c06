"""Cards, card sets and actions: the ints everything else is built on, and their texts."""

from __future__ import annotations

import json
from typing import Any

import pytest

from opentrix import actions as A
from opentrix.cards import (
    DIAMONDS,
    HEARTS,
    JACKS,
    KING_OF_HEARTS,
    QUEENS,
    SUIT_MASKS,
    Card,
    CardSet,
    Suit,
    card_name,
    cards_of,
    mask_of,
    parse_card,
)
from opentrix.contracts import Contract
from opentrix.record import FORMAT
from opentrix.verify import verify_text


def test_card_numbering_is_suit_times_13_plus_rank() -> None:
    assert int(Card["2S"]) == 0
    assert int(Card.AS) == 12
    assert int(Card["2H"]) == 13
    assert int(Card.KH) == 1 * 13 + 11
    assert int(Card.AC) == 51
    assert len(Card) == 52
    assert Card.QD.suit is Suit.DIAMONDS and Card.QD.rank == 10


@pytest.mark.parametrize(
    ("text", "name"),
    [("QS", "QS"), ("TD", "TD"), ("10D", "TD"), ("10♦", "TD"), ("K♥", "KH"), ("kh", "KH"), ("a♣", "AC"),
     ("K♥\ufe0f", "KH"), (" 2s ", "2S"), ("t♤", "TS"), ("9♡", "9H"), ("J♢", "JD"), ("5♧", "5C")],
)  # fmt: skip
def test_card_strings_accepted_and_written_canonically(text: str, name: str) -> None:
    assert card_name(parse_card(text)) == name
    assert str(Card.parse(text)) == name


@pytest.mark.parametrize("bad", ["", "Q", "1S", "11D", "QX", "KHH", "ZZ", "♥K", "K♥♥", "10"])
def test_bad_card_strings_name_the_string(bad: str) -> None:
    with pytest.raises(ValueError, match="not a card") as e:
        parse_card(bad)
    assert repr(bad) in str(e.value)


@pytest.mark.parametrize("bad", [None, 12, 3.5, ["QS"]])
def test_non_strings_are_not_cards(bad: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_symbols() -> None:
    assert Card.KH.symbol == "K♥"
    assert Card.TD.symbol == "10♦"
    assert Suit.CLUBS.symbol == "♣" and Suit.CLUBS.letter == "C"
    assert Suit.parse("♦") is Suit.DIAMONDS and Suit.parse("h") is Suit.HEARTS


def test_card_sets() -> None:
    s = CardSet(["AS", "10D", "K♥"])
    assert len(s) == 3
    assert "KH" in s and Card.AS in s and "QS" not in s and 60 not in s
    assert str(s) == "AS KH TD"
    assert [str(c) for c in s] == ["AS", "KH", "TD"]
    assert CardSet.parse("AS, KH TD") == s
    assert s.in_suit(Suit.HEARTS) == CardSet(["KH"])
    assert s.names() == ["AS", "KH", "TD"]
    assert not CardSet() and bool(s)
    with pytest.raises(ValueError):
        CardSet(1 << 52)


def test_masks() -> None:
    assert cards_of(QUEENS) == [Card.QS, Card.QH, Card.QD, Card.QC]
    assert cards_of(JACKS) == [Card.JS, Card.JH, Card.JD, Card.JC]
    assert KING_OF_HEARTS == 1 << Card.KH
    assert SUIT_MASKS[Suit.DIAMONDS] == DIAMONDS and HEARTS.bit_count() == 13
    assert sum(SUIT_MASKS) == (1 << 52) - 1
    assert mask_of([0, 51]) == 1 | 1 << 51
    assert cards_of(0) == []
    every = cards_of((1 << 52) - 1)
    assert every == list(range(52))


@pytest.mark.parametrize(
    ("action", "text"),
    [
        (Card.QS, "QS"),
        (A.PASS, "pass"),
        (A.choose(Contract.KING_OF_HEARTS), "contract king_of_hearts"),
        (A.choose("complex"), "contract complex"),
        (A.double("KH"), "double KH"),
        (A.double(Card.QC), "double QC"),
        (A.NO_DOUBLE, "no double"),
        (A.CLAIM, "claim"),
        (A.NO_CLAIM, "no claim"),
    ],
)
def test_action_texts_round_trip(action: int, text: str) -> None:
    assert A.to_str(action) == text
    assert A.parse(text) == action


def test_action_space() -> None:
    assert A.NUM_ACTIONS == 93  # 52 cards, pass, 6 contracts, 32 doubling answers, 2 claim answers
    every = {A.to_str(a) for a in range(A.NUM_ACTIONS)}
    assert len(every) == 93
    assert all(A.parse(A.to_str(a)) == a for a in range(A.NUM_ACTIONS))
    assert A.double("QC", "KH") == A.double("KH", "QC") == A.parse("double K♥ qc")
    assert A.doubled_cards(A.double("QC", "KH")) == (Card.KH, Card.QC)
    assert A.doubled_cards(A.NO_DOUBLE) == ()
    assert A.parse("queens") == A.choose(Contract.QUEENS)
    assert A.to_str(A.double("KH"), symbols=True) == "double K♥"
    assert A.contract_of(A.choose("trix")) is Contract.TRIX
    assert A.doubled_card(A.double("QD")) == Card.QD
    assert A.is_card(51) and not A.is_card(A.PASS)
    with pytest.raises(ValueError, match="can never be doubled"):
        A.double("2C")
    with pytest.raises(ValueError, match="not an action id"):
        A.to_str(A.NUM_ACTIONS)
    with pytest.raises(ValueError, match="not an action"):
        A.parse("fold")


def test_contract_names() -> None:
    assert [c.id for c in Contract] == ["king_of_hearts", "queens", "diamonds", "ltoosh", "trix", "complex"]
    assert Contract.parse("King of Hearts") is Contract.KING_OF_HEARTS
    with pytest.raises(ValueError, match="unknown contract"):
        Contract.parse("hearts")
    with pytest.raises(ValueError, match="unknown contract"):
        Contract.parse(3)


def test_error_messages_quote_a_huge_value_briefly() -> None:
    """A record can hold a 100,000-character card or contract; the message quotes its start, one line."""
    huge = "Q" * 100_000
    for parse in (Card.parse, Contract.parse, A.parse):
        with pytest.raises(ValueError) as err:
            parse(huge)
        assert "'QQQQ" in str(err.value) and "…" in str(err.value) and len(str(err.value)) < 200
    out = verify_text(json.dumps({"format": FORMAT, "rules": {"preset": "classic", huge: 1}, "deals": []}))
    assert out["error"]["message"].startswith("rules: unknown option 'QQQQ") and len(out["error"]["message"]) < 400


def test_error_messages_spell_a_records_values_as_json() -> None:
    """A record says null and true; its errors quote that, not Python's None and True."""
    cases: list[tuple[Any, object, str]] = [
        (Card.parse, None, "not a card: null "),
        (Contract.parse, True, "unknown contract true "),
        (Card.parse, ["QS"], 'not a card: ["QS"] '),
        (Card.parse, "QX", "not a card: 'QX' "),
        (Card.parse, ["\x9b2J", "a\u202eb"], 'not a card: ["\\u009b2J", "a\\u202eb"] '),  # nothing unprintable raw
    ]
    for parse, value, start in cases:
        with pytest.raises(ValueError) as err:
            parse(value)
        assert str(err.value).startswith(start)
