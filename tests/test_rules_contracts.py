"""The five contracts and Complex on hand-built deals: scores worked out by hand, trick-play rules,
early end and custom points."""

from __future__ import annotations

import itertools

import pytest

from engine_kit import ROTATING, ROTATING_CAPTURES, ROTATING_SCRIPT, SUITED, cards, deal, finish, moved, play
from opentrix import actions as A
from opentrix.cards import HEARTS, Card, cards_of
from opentrix.deal import Deal, Phase
from opentrix.errors import IllegalPlay
from opentrix.rules import Rules

CLASSIC = Rules.preset("classic")


# -- each contract's scoring -------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("contract", "scores"),
    [
        ("king_of_hearts", (0, 0, -75, 0)),  # seat 2 took K♥ (trick 2)
        ("queens", (0, -50, 0, -50)),  # Q♠ Q♣ to seat 1, Q♦ Q♥ to seat 3
        ("diamonds", (-100, -10, 0, -20)),  # 2♦ to seat 1, Q♦ A♦ to seat 3, the other ten to seat 0
        ("ltoosh", (-150, -15, -15, -15)),  # ten tricks to seat 0, one each to the others
    ],
)
def test_trick_contract_scores_by_hand(contract: str, scores: tuple[int, ...]) -> None:
    d = deal(CLASSIC, 0, contract, ROTATING, ROTATING_SCRIPT)
    assert d.phase == Phase.DEAL_OVER
    assert d.scores == scores
    assert d.tricks == [ROTATING_CAPTURES[s]["tricks"] for s in range(4)]


def test_complex_counts_all_four_penalties_together() -> None:
    d = deal(Rules.preset("complex", doubling=False), 0, "complex", ROTATING, ROTATING_SCRIPT)
    # seat 0: 10 tricks, 10 diamonds; seat 1: 1 trick, Q♠ Q♣, 2♦; seat 2: 1 trick, K♥;
    # seat 3: 1 trick, Q♥ Q♦ (a queen and a diamond), A♦.
    assert d.scores == (-150 - 100, -15 - 50 - 10, -15 - 75, -15 - 50 - 20)
    assert d.scores == (-250, -75, -90, -85)
    assert sum(d.scores) == -500


@pytest.mark.parametrize(
    ("contract", "total"),
    [("king_of_hearts", -75), ("queens", -100), ("diamonds", -130), ("ltoosh", -195)],
)
def test_the_king_who_takes_every_trick_pays_the_whole_contract(contract: str, total: int) -> None:
    for king in range(4):
        d = deal(CLASSIC, king, contract, SUITED)
        finish(d)
        expected = [0, 0, 0, 0]
        expected[king] = total
        assert d.scores == tuple(expected)
        assert d.taken[king] == (1 << 52) - 1


def test_complex_total_when_one_seat_takes_everything() -> None:
    d = deal(Rules.preset("complex", doubling=False), 3, "complex", SUITED)
    finish(d)
    assert d.scores == (0, 0, 0, -500)


# -- trick play ---------------------------------------------------------------------------------------


def test_highest_card_of_the_suit_led_wins_and_leads_next() -> None:
    # nobody can follow 2♠: the aces discarded on it are worth nothing, the leader wins
    d = deal(CLASSIC, 0, "ltoosh", SUITED, "2S AH AD AC")
    assert d.tricks == [1, 0, 0, 0] and d.turn == 0 and d.leader == 0
    # seat 0 holds 2♦, seat 2 holds A♠: seat 2 follows 2♦ with 3♦ and takes it over A♥ and A♣
    hands = moved(SUITED, ("2D", 2, 0), ("AS", 0, 2))
    d = deal(CLASSIC, 0, "ltoosh", hands, "2D AH 3D AC")
    assert d.tricks == [0, 0, 1, 0] and d.turn == 2 and d.leader == 2
    assert d.taken[2] == cards("2D AH 3D AC")
    play(d, "AS KC KS KH")  # seat 2 leads A♠, seat 0 must follow: A♠ wins
    assert d.tricks == [0, 0, 2, 0] and d.turn == 2 and d.trick == []


def test_must_follow_suit_when_able() -> None:
    hands = moved(SUITED, ("2D", 2, 0), ("AS", 0, 2))  # seat 2 holds A♠ and twelve diamonds
    d = deal(CLASSIC, 0, "ltoosh", hands, "KS 2H")
    assert d.legal_actions() == [Card.AS]  # spades led: seat 2's only spade
    with pytest.raises(IllegalPlay):
        d.apply(Card.KD)
    play(d, "AS 2C")
    assert d.tricks == [0, 0, 1, 0]


def test_void_player_may_play_anything() -> None:
    d = deal(CLASSIC, 0, "ltoosh", SUITED, "2S")
    assert d.legal_actions() == cards_of(HEARTS)


def test_hearts_lead_ban_in_king_of_hearts() -> None:
    hands = moved(SUITED, ("2S", 0, 1), ("2H", 1, 0))  # the king holds 2♥ and twelve spades
    d = deal(CLASSIC, 0, "king_of_hearts", hands)
    assert Card["2H"] not in d.legal_actions()
    with pytest.raises(IllegalPlay, match="may not lead a heart while holding another suit"):
        d.apply(Card["2H"])
    # other contracts, and King of Hearts with the option off, allow the lead
    assert Card["2H"] in deal(CLASSIC, 0, "queens", hands).legal_actions()
    no_ban = Rules.preset("classic", hearts_lead_ban=False)
    assert Card["2H"] in deal(no_ban, 0, "king_of_hearts", hands).legal_actions()


def test_hearts_lead_ban_lifts_when_only_hearts_remain() -> None:
    d = deal(CLASSIC, 1, "king_of_hearts", SUITED)  # the king holds nothing but hearts
    assert d.legal_actions() == cards_of(HEARTS)
    d.apply(Card.KH)
    assert d.trick == [Card.KH]


def test_king_must_be_discarded_when_void() -> None:
    rules = Rules.preset("classic", king_must_be_discarded=True)
    d = deal(rules, 0, "king_of_hearts", SUITED, "2S")
    assert d.legal_actions() == [Card.KH]
    with pytest.raises(IllegalPlay, match="must discard K♥ when unable to follow suit"):
        d.apply(Card["2H"])
    d.apply(Card.KH)
    # without the option (and in the contracts it does not cover) any heart may go
    assert len(deal(CLASSIC, 0, "king_of_hearts", SUITED, "2S").legal_actions()) == 13
    assert len(deal(rules, 0, "queens", SUITED, "2S").legal_actions()) == 13


def test_king_must_be_discarded_applies_in_complex() -> None:
    rules = Rules.preset("complex", doubling=False, king_must_be_discarded=True)
    d = deal(rules, 0, "complex", SUITED, "2S")
    assert d.legal_actions() == [Card.KH]


def test_king_must_be_discarded_does_not_stop_following_suit() -> None:
    rules = Rules.preset("classic", king_must_be_discarded=True)
    hands = moved(SUITED, ("2S", 0, 1), ("2H", 1, 0))  # seat 1 holds 2♠ and K♥
    d = deal(rules, 0, "king_of_hearts", hands, "3S")
    assert d.legal_actions() == [Card["2S"]]


# -- early end -----------------------------------------------------------------------------------------

ONLINE = Rules.preset("online", doubling=False)  # early_end is on in the online preset


@pytest.mark.parametrize(
    ("contract", "plays_played", "scores"),
    [
        ("king_of_hearts", 8, (0, 0, -75, 0)),  # K♥ falls in trick 2
        ("queens", 12, (0, -50, 0, -50)),  # the 4th queen falls in trick 3
        ("diamonds", 52, (-100, -10, 0, -20)),  # the 13th diamond falls in the last trick
        ("ltoosh", 52, (-150, -15, -15, -15)),  # never ends early
    ],
)
def test_early_end(contract: str, plays_played: int, scores: tuple[int, ...]) -> None:
    d = deal(ONLINE, 0, contract, ROTATING)
    play(d, " ".join(ROTATING_SCRIPT.split()[:plays_played]))
    assert d.phase == Phase.DEAL_OVER
    assert len(d.plays) == plays_played
    assert d.scores == scores
    assert d.legal_actions() == []
    # the same deal without early end runs on to 52 cards with the same scores
    full = deal(CLASSIC, 0, contract, ROTATING, ROTATING_SCRIPT)
    assert full.scores == scores and len(full.plays) == 52


def test_early_end_diamonds_before_the_last_trick() -> None:
    # seats 1 and 2 hold six and seven diamonds among their hearts and throw two on each spade lead
    hands = (
        cards("2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS"),
        cards("2D 3D 4D 5D 6D 7D 2H 3H 4H 5H 6H 7H 8H"),
        cards("8D 9D TD JD QD KD AD 9H TH JH QH KH AH"),
        cards("2C 3C 4C 5C 6C 7C 8C 9C TC JC QC KC AC"),
    )
    script = "2S 2D 8D 2C 3S 3D 9D 3C 4S 4D TD 4C 5S 5D JD 5C 6S 6D QD 6C 7S 7D KD 7C 8S 2H AD 8C"
    d = deal(ONLINE, 0, "diamonds", hands, script)
    assert d.phase == Phase.DEAL_OVER and len(d.plays) == 28
    assert d.scores == (-130, 0, 0, 0)
    without = deal(CLASSIC, 0, "diamonds", hands, script)
    assert without.phase == Phase.PLAY
    finish(without)
    assert without.scores == (-130, 0, 0, 0)


# -- custom points ------------------------------------------------------------------------------------


def test_swapped_diamond_and_trick_values() -> None:
    rules = Rules.preset("classic", points={"diamond": -15, "trick": -10})
    assert deal(rules, 0, "diamonds", ROTATING, ROTATING_SCRIPT).scores == (-150, -15, 0, -30)
    assert deal(rules, 0, "ltoosh", ROTATING, ROTATING_SCRIPT).scores == (-100, -10, -10, -10)


def test_custom_king_and_queen_values() -> None:
    rules = Rules.preset("classic", points={"king_of_hearts": -100, "queen": -30})
    assert deal(rules, 0, "king_of_hearts", ROTATING, ROTATING_SCRIPT).scores == (0, 0, -100, 0)
    assert deal(rules, 0, "queens", ROTATING, ROTATING_SCRIPT).scores == (0, -60, 0, -60)


def test_custom_points_in_complex() -> None:
    rules = Rules.preset("complex", doubling=False, points={"diamond": -15, "trick": -10, "queen": -20})
    # seat 0: 10 tricks, 10 diamonds; seat 1: trick, two queens, a diamond; seat 2: trick, K♥;
    # seat 3: trick, two queens, two diamonds
    assert deal(rules, 0, "complex", ROTATING, ROTATING_SCRIPT).scores == (
        -100 - 150,
        -10 - 40 - 15,
        -10 - 75,
        -10 - 40 - 30,
    )


def test_custom_trix_places() -> None:
    rules = Rules.preset("classic", points={"trix": [250, 150, 75, 25]})
    d = deal(rules, 1, "trix", SUITED)
    finish(d)
    assert d.out == [1, 2, 3]
    assert d.scores == (25, 250, 150, 75)


def test_points_round_trip_through_rules_json() -> None:
    rules = Rules.preset("denexa", points={"diamond": -15, "trick": -10})
    data = rules.to_json()
    assert data == {"preset": "denexa", "points": {"diamond": -15, "trick": -10}}
    assert Rules.from_json(data) == rules


# -- Trix ------------------------------------------------------------------------------------------


def test_trix_order_of_going_out_scores_200_150_100_50() -> None:
    for king in range(4):
        d = deal(CLASSIC, king, "trix", SUITED)
        finish(d)
        assert d.out == [king, (king + 1) % 4, (king + 2) % 4]
        expected = [0, 0, 0, 0]
        for place, seat in enumerate([king, (king + 1) % 4, (king + 2) % 4, (king + 3) % 4]):
            expected[seat] = (200, 150, 100, 50)[place]
        assert d.scores == tuple(expected)
        assert sum(d.scores or ()) == 500
        # the deal ends as the third seat goes out: the last seat still holds one card
        assert d.hands[(king + 3) % 4].bit_count() == 1


def test_trix_layout_starts_with_a_jack_and_grows_one_rank_at_a_time() -> None:
    d = deal(CLASSIC, 0, "trix", SUITED)
    assert d.legal_actions() == [Card.JS]
    with pytest.raises(IllegalPlay, match="cannot place 5♠ on the layouts") as e:
        d.apply(Card["5S"])
    assert "can place J♠" in str(e.value)
    play(d, "JS JH JD JC")
    assert d.legal_actions() == [Card.TS, Card.QS]
    play(d, "QS")
    play(d, "TH TD TC")
    assert d.legal_actions() == [Card.TS, Card.KS]
    with pytest.raises(IllegalPlay):
        d.apply(Card.AS)  # not next to the layout yet
    play(d, "KS 9H 9D 9C AS 8H 8D 8C")
    assert d.layouts[0] == (Card.JS, Card.AS)
    assert d.legal_actions() == [Card.TS]  # the top is closed at the ace
    assert d.layouts[1] == (Card["8H"], Card.JH)


def test_trix_pass_when_no_card_can_be_placed() -> None:
    # seat 0 holds all four jacks; the others must pass until a layout reaches their cards
    hands = moved(SUITED, ("JH", 1, 0), ("JD", 2, 0), ("JC", 3, 0), ("2S", 0, 1), ("3S", 0, 2), ("4S", 0, 3))
    d = deal(CLASSIC, 0, "trix", hands, "JS")
    assert d.turn == 1 and d.legal_actions() == [A.PASS]
    with pytest.raises(IllegalPlay, match="cannot place 2♠"):
        d.apply(Card["2S"])
    play(d, "pass pass pass JH")
    assert d.turn == 1 and d.legal_actions() == [Card.TH, Card.QH]
    with pytest.raises(IllegalPlay, match="cannot pass while holding a card to place"):
        d.apply(A.PASS)
    d.apply(Card.QH)
    assert d.plays[:4] == [Card.JS, A.PASS, A.PASS, A.PASS]
    assert d.seats == [0, 1, 2, 3, 0, 1]
    assert d.hands[1].bit_count() == 12  # a pass costs nothing


def test_trix_pass_is_only_for_trix() -> None:
    d = deal(CLASSIC, 0, "ltoosh", SUITED)
    with pytest.raises(IllegalPlay, match="passing is only for the Trix contract"):
        d.apply(A.PASS)


def test_trix_seats_that_are_out_are_skipped() -> None:
    # seat 2, the king, holds the four jacks, the four queens, the four tens and 9♠: the others can
    # place nothing for a while, so seat 2 goes out first and the turn then skips it.
    fast = cards("JS JH JD JC QS QH QD QC TS TH TD TC 9S")
    rest = [c for c in range(52) if not fast >> c & 1]
    others = [sum(1 << c for c in rest[i * 13 : (i + 1) * 13]) for i in range(3)]
    d = deal(CLASSIC, 2, "trix", (others[0], others[1], fast, others[2]))
    finish(d)
    assert d.out[0] == 2
    assert d.scores is not None and d.scores[2] == 200 and sorted(d.scores) == [50, 100, 150, 200]
    last = max(i for i, s in enumerate(d.seats) if s == 2)
    after = d.seats[last + 1 :]
    assert 2 not in after
    assert any(a == 1 and b == 3 for a, b in itertools.pairwise(after))
    # a seat that is out is never asked, not even to pass
    assert d.plays[last] != A.PASS


def test_trix_layouts_view() -> None:
    d = deal(CLASSIC, 0, "trix", SUITED, "JS JH JD JC QS TH")
    assert d.layouts == [(Card.JS, Card.QS), (Card.TH, Card.JH), (Card.JD, Card.JD), (Card.JC, Card.JC)]
    assert d.playable >> Card.KS & 1 and d.playable >> Card.TS & 1
    assert Deal(CLASSIC, 0, 4, SUITED).layouts == [None, None, None, None]
