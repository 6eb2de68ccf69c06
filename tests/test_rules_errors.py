"""Illegal actions raise precise exceptions whose words a player understands: exact texts."""

from __future__ import annotations

import pytest

from engine_kit import SUITED, cards, deal, finish, moved
from opentrix import actions as A
from opentrix.cards import Card
from opentrix.contracts import Contract
from opentrix.deal import Deal, check_hands
from opentrix.errors import (
    IllegalAction,
    IllegalClaim,
    IllegalContract,
    IllegalDouble,
    IllegalPlay,
    InvalidDeal,
    NotYourTurn,
    TrixError,
    WrongPhase,
)
from opentrix.match import Match
from opentrix.rules import Rules

CLASSIC = Rules.preset("classic")
# seat 0 holds 2♦ and spades; seat 2 holds 2♠ and the diamonds 3-A
REVOKE = moved(SUITED, ("2D", 2, 0), ("2S", 0, 2))


def test_revoke_message_with_symbols_and_plain() -> None:
    d = deal(CLASSIC, 0, "ltoosh", REVOKE, "2D 2H")
    with pytest.raises(IllegalPlay) as e:
        d.apply(Card["2S"])
    err = e.value
    assert str(err) == "seat 2 must follow suit ♦ (holds A♦ K♦ Q♦ J♦ 10♦ 9♦ 8♦ 7♦ 6♦ 5♦ 4♦ 3♦)"
    assert "seat 2 must follow suit ♦" in str(err)
    assert err.plain == "seat 2 must follow suit D"
    assert err.text(symbols=False) == "seat 2 must follow suit D (holds AD KD QD JD TD 9D 8D 7D 6D 5D 4D 3D)"
    assert isinstance(err, IllegalAction) and isinstance(err, TrixError)
    # nothing changed: the right card is still accepted
    d.apply(Card["3D"])


def test_card_not_held_and_card_already_played() -> None:
    d = deal(CLASSIC, 0, "ltoosh", SUITED)
    with pytest.raises(IllegalPlay) as e:
        d.apply(Card["2H"])
    assert str(e.value) == "seat 0 does not hold 2♥" and e.value.plain == "seat 0 does not hold 2H"
    d.apply(Card["2S"])
    for _ in range(3):
        d.apply(d.legal_actions()[0])
    with pytest.raises(IllegalPlay, match=r"^seat 0 has already played 2♠$"):
        d.apply(Card["2S"])


def test_not_your_turn() -> None:
    d = deal(CLASSIC, 0, "ltoosh", SUITED, "2S")
    with pytest.raises(NotYourTurn) as e:
        d.apply(Card["2C"], seat=3)
    assert str(e.value) == "it is seat 1's turn, not seat 3's"
    assert isinstance(e.value, IllegalAction)
    d.apply(Card["2H"], seat=1)
    m = Match(CLASSIC, SUITED)
    m.apply(A.choose("ltoosh"))
    with pytest.raises(NotYourTurn, match=r"^it is seat 1's turn, not seat 2's$"):
        m.apply(Card["2D"], seat=2)


def test_wrong_phase() -> None:
    rules = Rules.preset("wikipedia")
    d = Deal(rules, 0, Contract.KING_OF_HEARTS, SUITED)  # claims are asked first
    with pytest.raises(WrongPhase) as e:
        d.apply(Card["2S"])
    assert str(e.value) == "seat 0 must answer the redeal question first (claim or no claim), not '2S'"
    d.apply(A.NO_CLAIM)
    with pytest.raises(WrongPhase, match=r"^seat 1 must answer the redeal question first"):
        d.apply(A.double("KH"))
    for _ in range(3):
        d.apply(A.NO_CLAIM)
    with pytest.raises(WrongPhase) as e:  # doubling: seat 1 holds K♥
        d.apply(A.CLAIM)
    assert str(e.value) == "seat 1 must answer the doubling first (double cards or not), not 'claim'"
    d.apply(A.NO_DOUBLE)
    with pytest.raises(WrongPhase, match=r"^seat 0 must play a card now, not 'contract queens'$"):
        d.apply(A.choose("queens"))
    with pytest.raises(WrongPhase, match=r"^seat 0 must play a card now, not 'no claim'$"):
        d.apply(A.NO_CLAIM)
    with pytest.raises(WrongPhase, match=r"^seat 0 must play a card now, not '99'$"):
        d.apply(99)


def test_contract_played_twice() -> None:
    m = Match(CLASSIC, SUITED)
    m.apply(A.choose("queens"))
    finish(m)
    m.start_deal(SUITED)
    with pytest.raises(IllegalContract) as e:
        m.apply(A.choose("queens"))
    assert str(e.value) == "queens has already been played in seat 1's kingdom"


def test_doubling_a_card_that_may_not_be_doubled() -> None:
    rules = Rules.preset("online")
    d = Deal(rules, 1, Contract.KING_OF_HEARTS, SUITED)
    with pytest.raises(IllegalDouble) as e:
        d.apply(A.double("QH"))
    assert str(e.value) == "Q♥ may not be doubled in king_of_hearts"
    assert e.value.plain == "QH may not be doubled in king_of_hearts"
    q = Deal(rules, 0, Contract.QUEENS, SUITED)
    with pytest.raises(IllegalDouble, match=r"^K♥ may not be doubled in queens$"):
        q.apply(A.double("KH"))
    with pytest.raises(IllegalDouble, match=r"^seat 0 cannot double Q♥: not in that hand$"):
        q.apply(A.double("QH"))
    q.apply(A.double("QS"))  # seat 0's turn ends: it has nothing else to double
    assert q.turn == 1
    with pytest.raises(ValueError, match="2C can never be doubled"):
        A.double("2C")


def test_a_seat_answers_the_doubling_only_once() -> None:
    d = Deal(Rules.preset("complex"), 1, Contract.COMPLEX, SUITED)
    d.apply(A.double("QH"))  # seat 1 also holds K♥, yet its answer is complete
    assert d.turn == 2
    with pytest.raises(IllegalDouble, match=r"^seat 2 cannot double Q♥: not in that hand$"):
        d.apply(A.double("QH"))


def test_a_claim_the_hand_does_not_support() -> None:
    d = Deal(Rules.preset("wikipedia"), 1, Contract.KING_OF_HEARTS, SUITED)
    with pytest.raises(IllegalClaim) as e:
        d.apply(A.CLAIM)
    assert str(e.value) == "seat 1's hand does not allow a redeal in king_of_hearts"


def test_plays_after_the_deal_is_over() -> None:
    d = deal(CLASSIC, 0, "ltoosh", SUITED)
    finish(d)
    with pytest.raises(WrongPhase) as e:
        d.apply(Card["2S"])
    assert str(e.value) == "the deal is over ('2S' comes too late)"
    assert e.value.plain == "the deal is over"
    with pytest.raises(WrongPhase, match=r"^the deal is over$"):
        d.apply(Card["2S"], seat=1)


def test_lead_ban_and_king_discard_messages() -> None:
    d = deal(CLASSIC, 0, "king_of_hearts", moved(SUITED, ("2S", 0, 1), ("2H", 1, 0)))
    with pytest.raises(IllegalPlay, match=r"^seat 0 may not lead a heart while holding another suit$"):
        d.apply(Card["2H"])
    k = deal(Rules.preset("classic", king_must_be_discarded=True), 0, "king_of_hearts", SUITED, "2S")
    with pytest.raises(IllegalPlay) as e:
        k.apply(Card.AH)
    assert str(e.value) == "seat 1 must discard K♥ when unable to follow suit"
    assert e.value.plain == "seat 1 must discard KH when unable to follow suit"


def test_trix_messages() -> None:
    d = deal(CLASSIC, 0, "trix", SUITED)
    with pytest.raises(IllegalPlay) as e:
        d.apply(Card.QS)
    assert str(e.value) == "seat 0 cannot place Q♠ on the layouts (can place J♠)"
    assert e.value.plain == "seat 0 cannot place QS on the layouts"


@pytest.mark.parametrize(
    ("hands", "message"),
    [
        (SUITED[:3], "a deal has 4 hands, not 3"),
        ((SUITED[0] ^ cards("AS"), SUITED[1], SUITED[2], SUITED[3] | cards("AS")), "seat 0 has 12 cards"),
        ((SUITED[0], SUITED[1] ^ cards("AH") | cards("AS"), SUITED[2], SUITED[3]), "card A♠ is dealt twice"),
        ((-1, SUITED[1], SUITED[2], SUITED[3]), "hand of seat 0 is not a set of cards"),
    ],
)
def test_invalid_hands(hands: tuple[int, ...], message: str) -> None:
    with pytest.raises(InvalidDeal, match=message):
        check_hands(hands)
    with pytest.raises(InvalidDeal):
        Match(CLASSIC, hands)


# -- wrong kinds of argument: one clear error at the API's door, not a crash deep inside ------------------


@pytest.mark.parametrize("action", [53.0, True, "QS", None])
def test_an_action_of_the_wrong_kind_is_refused_by_name(action: object) -> None:
    """``True`` would have played 3♠ and ``53.0`` named a contract into the history."""
    m = Match(CLASSIC, seed=1)
    with pytest.raises(TypeError, match=r"an action is an int from 0 to 92 \(see opentrix.actions\), not "):
        m.apply(action)  # type: ignore[arg-type]
    assert m.history == []


def test_an_integer_of_another_kind_is_taken_as_the_int_it_is() -> None:
    """numpy's ints (what an RL policy returns) play, and the history holds plain ints."""
    import numpy as np

    m = Match(CLASSIC, seed=1)
    m.apply(np.int64(A.choose("queens")))  # type: ignore[arg-type]
    m.apply(np.int64(m.legal_actions()[0]))  # type: ignore[arg-type]
    assert all(type(a) is int for a in m.history)
    # and so do the helpers beside it, as they did before their arguments were checked
    from opentrix.cards import CardSet
    from opentrix.deal import deal_hands

    hands = deal_hands(1, 0)
    assert A.to_str(np.int64(3)) == "5S" and A.play(np.int64(3)) == 3 and CardSet([np.int64(3)]) == CardSet.parse("5S")
    assert A.choose(np.int64(1)) == A.choose(1) == A.choose("queens")
    assert Match(CLASSIC, [np.int64(h) for h in hands]).pending_hands == hands  # type: ignore[misc]
    seeded = Match(CLASSIC, seed=np.int64(5))  # type: ignore[arg-type]
    assert type(seeded.seed) is int and seeded.pending_hands == Match(CLASSIC, seed=5).pending_hands
    assert Deal(CLASSIC, 0, np.int64(1), hands).contract == Contract.QUEENS  # type: ignore[arg-type]


@pytest.mark.parametrize("seat", ["2", -1, 7, True])
def test_a_seat_that_is_no_seat_is_a_value_error(seat: object) -> None:
    m = Match(CLASSIC, seed=1)
    with pytest.raises(ValueError, match="a seat is 0, 1, 2 or 3, not "):
        m.apply(A.choose("queens"), seat=seat)  # type: ignore[arg-type]
    m.apply(A.choose("queens"))
    with pytest.raises(ValueError, match="a seat is 0, 1, 2 or 3, not "):
        m.apply(m.legal_actions()[0], seat=seat)  # type: ignore[arg-type]


def test_a_card_set_holds_only_cards() -> None:
    """``CardSet([52])`` held a bit no card has: counted by len, never listed, lost by repr."""
    from opentrix.cards import CardSet

    for bad in ([52], ["QS", 99], [1.5], [True], [None], [-1]):
        with pytest.raises(ValueError, match="not a card: "):
            CardSet(bad)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not a list of cards: None"):
        CardSet.parse(None)  # type: ignore[arg-type]
    assert CardSet(["QS", 3]) == CardSet.parse("QS 5S")


def test_the_action_helpers_name_a_bad_argument() -> None:
    with pytest.raises(ValueError, match="not a card: 99"):
        A.double(99)
    with pytest.raises(ValueError, match=r"0 is not a contract action \(53 to 58\)"):
        A.contract_of(0)
    with pytest.raises(ValueError, match="not an action id: None"):
        A.to_str(None)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="not an action: 5"):
        A.parse(5)  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="unknown contract 9"):
        A.choose(9)  # type: ignore[arg-type]  # 9 + 53 was a doubling answer
    assert A.choose(Contract.TRIX) == A.choose("trix")


def test_a_match_or_deal_built_wrong_says_how_to_build_it() -> None:
    hands = Match(CLASSIC, seed=1).pending_hands
    assert hands is not None
    with pytest.raises(TypeError, match="a seed goes as seed=42"):
        Match(CLASSIC, 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="a match's rules are a Rules"):
        Match("classic", seed=1)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match=r"a seed is an int or a string, not 1\.5"):
        Match(seed=1.5)  # type: ignore[arg-type]
    with pytest.raises(InvalidDeal, match="hand of seat 0 is not a set of cards: None"):
        Match(CLASSIC, [None] * 4)  # type: ignore[list-item]
    with pytest.raises(ValueError, match="the king is a seat from 0 to 3, not 5"):
        Deal(CLASSIC, 5, Contract.QUEENS, hands)
    with pytest.raises(ValueError, match="not a contract: 9"):
        Deal(CLASSIC, 0, 9, hands)


def test_rules_built_directly_are_checked_as_a_records_are() -> None:
    """``Rules(kingdoms=0)`` played five deals and wrote a record its own reader refused."""
    from opentrix.rules import Points, RulesError

    for build, says in [
        (lambda: Rules(preset_name="foo"), "unknown preset 'foo'"),
        (lambda: Rules(kingdoms=0), "option 'kingdoms' must be a whole number from 1 to 100"),
        (lambda: Rules(tiebreak="x"), "option 'tiebreak' must be one of"),  # type: ignore[arg-type]
        (lambda: Points(trix=(1, 2)), "points 'trix' must be four integers"),  # type: ignore[arg-type]
        (lambda: Points(queen="-25"), "points 'queen' must be an integer"),  # type: ignore[arg-type]
    ]:
        with pytest.raises(RulesError, match=says):
            build()
    assert Rules(first_king_card="7H").first_king_card == Card["7H"]  # type: ignore[arg-type]
    assert hash(Rules(points=Points(trix=[1, 2, 3, 4]))) == hash(Rules(points=Points(trix=(1, 2, 3, 4))))  # type: ignore[arg-type]


def test_legal_actions_are_ascending_at_a_complex_contract_choice() -> None:
    from opentrix.view import view

    m = Match(Rules.preset("complex"), seed=1)
    assert m.legal_actions() == sorted(m.legal_actions()) == [A.choose("trix"), A.choose("complex")]
    assert list(view(m, m.turn).legal_actions) == m.legal_actions()


def test_a_phase_reads_back_as_itself() -> None:
    from opentrix.deal import Phase

    assert repr(Phase.PLAY) == "Phase.PLAY" and eval(repr(Phase.DOUBLE)) is Phase.DOUBLE
