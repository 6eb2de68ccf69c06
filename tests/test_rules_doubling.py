"""Doubling (every self-capture and partner-capture rule, Complex stacking, both reveals) and the two
throw-ins, on hand-built deals with scores worked out by hand."""

from __future__ import annotations

import pytest

from engine_kit import ROTATING, ROTATING_SCRIPT, SUITED, cards, finish, moved, play
from opentrix import actions as A
from opentrix.cards import SUIT_MASKS, Card, CardSet
from opentrix.contracts import Contract
from opentrix.deal import Deal, Phase, can_claim_redeal, redeal_grounds
from opentrix.errors import IllegalClaim, IllegalDouble, WrongPhase
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import view


def doubled_deal(rules: Rules, king: int, contract: str, hands: tuple[int, int, int, int], double: str) -> Deal:
    """A deal in which the holders of the cards in ``double`` double them and everyone else declines."""
    d = Deal(rules, king, Contract.parse(contract), hands)
    wanted = cards(double)
    while d.phase in (Phase.CLAIM, Phase.DOUBLE):
        if d.phase == Phase.CLAIM:
            d.apply(A.NO_CLAIM)
            continue
        mine = d.hands[d.turn] & wanted & ~d.doubled
        d.apply(A.double(Card((mine & -mine).bit_length() - 1)) if mine else A.NO_DOUBLE)
    assert d.doubled == wanted
    return d


def koh(self_capture: str = "normal", **options: object) -> Rules:
    return Rules.preset("classic", doubling=True, hearts_lead_ban=False, self_capture=self_capture, **options)


# seat 0 holds 2♥ and the spades 3-A, seat 1 holds 2♠ and the hearts 3-A (K♥ among them)
HEART_LEAD = moved(SUITED, ("2S", 0, 1), ("2H", 1, 0))


# -- a doubled K♥ ---------------------------------------------------------------------------------


@pytest.mark.parametrize("self_capture", ["normal", "doubled", "doubled_leader_gains"])
def test_doubled_king_taken_by_another_player(self_capture: str) -> None:
    d = doubled_deal(koh(self_capture), 0, "king_of_hearts", SUITED, "KH")
    play(d, "2S KH 2D 2C")  # seat 0 leads and takes the K♥ seat 1 discards
    finish(d)
    assert d.scores == (-150, 75, 0, 0)


@pytest.mark.parametrize(
    ("self_capture", "scores"),
    [
        ("normal", (0, -75, 0, 0)),
        ("doubled", (0, -150, 0, 0)),
        ("doubled_leader_gains", (75, -150, 0, 0)),  # seat 0 led the trick: it gains the value
    ],
)
def test_doubled_king_taken_by_its_holder_in_a_trick_another_led(self_capture: str, scores: tuple[int, ...]) -> None:
    d = doubled_deal(koh(self_capture), 0, "king_of_hearts", HEART_LEAD, "KH")
    play(d, "2H KH 2D 2C")  # seat 1 must follow 2♥ and wins it with its own K♥
    assert d.tricks == [0, 1, 0, 0]
    finish(d)
    assert d.scores == scores


@pytest.mark.parametrize(
    ("self_capture", "scores"),
    [
        ("normal", (0, -75, 0, 0)),
        ("doubled", (0, -150, 0, 0)),
        ("doubled_leader_gains", (0, -75, 0, 0)),  # the holder led the trick himself: plain value
    ],
)
def test_doubled_king_taken_by_its_holder_who_led(self_capture: str, scores: tuple[int, ...]) -> None:
    d = doubled_deal(koh(self_capture), 1, "king_of_hearts", SUITED, "KH")
    play(d, "KH 2D 2C 2S")
    finish(d)
    assert d.scores == scores


@pytest.mark.parametrize(
    ("partnership", "partner_capture", "scores"),
    [
        (True, "no_bonus", (0, 0, 0, -150)),  # seat 3 took its partner's doubled K♥: nobody gains
        (True, "as_other", (0, 75, 0, -150)),
        (False, "no_bonus", (0, 75, 0, -150)),  # without partnership seat 3 is just another player
    ],
)
def test_doubled_king_taken_by_the_holders_partner(
    partnership: bool, partner_capture: str, scores: tuple[int, ...]
) -> None:
    rules = koh(partnership=partnership, partner_capture=partner_capture)
    d = doubled_deal(rules, 3, "king_of_hearts", SUITED, "KH")
    play(d, "2C 2S KH 2D")
    finish(d)
    assert d.scores == scores


def test_partner_capture_with_self_capture_rules_alongside() -> None:
    # the partner rule decides a partner's capture whatever self_capture says
    rules = koh("doubled_leader_gains", partnership=True, partner_capture="no_bonus")
    d = doubled_deal(rules, 3, "king_of_hearts", SUITED, "KH")
    finish(d)
    assert d.scores == (0, 0, 0, -150)


def test_undoubled_king_is_plain() -> None:
    d = doubled_deal(koh(), 0, "king_of_hearts", SUITED, "")
    finish(d)
    assert d.scores == (-75, 0, 0, 0)


# -- doubled queens -----------------------------------------------------------------------------------


def test_doubled_queens_taken_by_others() -> None:
    rules = Rules.preset("classic", doubling=True)
    # Q♠ (seat 0's) falls to seat 1 in trick 1; Q♥ (seat 1's) to seat 3 in trick 3
    d = doubled_deal(rules, 0, "queens", ROTATING, "QS QH")
    play(d, ROTATING_SCRIPT)
    assert d.scores == (25, -75 + 25, 0, -25 - 50)
    assert sum(d.scores or ()) == -100


def test_doubled_queen_taken_by_its_holder() -> None:
    for self_capture, scores in [("normal", -100), ("doubled", -125), ("doubled_leader_gains", -100)]:
        rules = Rules.preset("classic", doubling=True, self_capture=self_capture)
        d = doubled_deal(rules, 0, "queens", SUITED, "QS")  # seat 0 leads and takes every trick
        finish(d)
        assert d.scores == (scores, 0, 0, 0), self_capture


# -- Complex -----------------------------------------------------------------------------------------


def test_complex_doubled_king_and_queen_of_diamonds() -> None:
    rules = Rules.preset("complex")
    d = doubled_deal(rules, 0, "complex", ROTATING, "KH QD")
    play(d, ROTATING_SCRIPT)
    # undoubled: (-250, -75, -90, -85). K♥ (seat 1's) went to seat 2: seat 2 pays 75 more, seat 1 gains 75.
    # Q♦ (seat 2's) went to seat 3: seat 3 pays 25 more, seat 2 gains 25; Q♦ still costs its 10 as a diamond.
    assert d.scores == (-250, -75 + 75, -90 - 75 + 25, -85 - 25)
    assert d.scores == (-250, 0, -140, -110)


@pytest.mark.parametrize(
    ("self_capture", "score"), [("normal", -500), ("doubled", -525), ("doubled_leader_gains", -500)]
)
def test_complex_doubled_queen_of_diamonds_taken_by_its_holder(self_capture: str, score: int) -> None:
    rules = Rules.preset("complex", self_capture=self_capture)
    d = doubled_deal(rules, 2, "complex", SUITED, "QD")  # seat 2 leads every trick and takes it all
    finish(d)
    # Q♦ costs a queen (-25, or -50 doubled) and a diamond (-10); everything else as usual
    assert d.scores == (0, 0, score, 0)


def test_complex_doubling_offers_king_and_queens() -> None:
    d = Deal(Rules.preset("complex"), 1, Contract.COMPLEX, SUITED)
    assert d.phase == Phase.DOUBLE and d.turn == 1
    # One answer per seat: the set of cards it doubles, any subset of its doublable cards.
    assert d.legal_actions() == sorted([A.double("KH"), A.double("QH"), A.double("KH", "QH"), A.NO_DOUBLE])
    d.apply(A.double("QH", "KH"))
    assert d.doubled == Card.KH.bit | Card.QH.bit
    assert d.turn == 2 and d.legal_actions() == [A.double("QD"), A.NO_DOUBLE]


def test_no_doubling_in_other_contracts_or_when_off() -> None:
    rules = Rules.preset("wikipedia")
    for contract in ("diamonds", "ltoosh", "trix"):
        d = Deal(rules.with_options(trix_throw_in=False), 0, Contract.parse(contract), SUITED)
        assert d.phase == Phase.PLAY
    d = Deal(Rules.preset("classic"), 0, Contract.KING_OF_HEARTS, SUITED)
    assert d.phase == Phase.PLAY  # classic: doubling off


def test_illegal_doubles() -> None:
    d = Deal(Rules.preset("complex"), 1, Contract.COMPLEX, SUITED)
    with pytest.raises(IllegalDouble, match="seat 1 cannot double Q♠: not in that hand"):
        d.apply(A.double("QS"))
    d2 = Deal(koh(), 0, Contract.KING_OF_HEARTS, SUITED)
    with pytest.raises(IllegalDouble, match="Q♥ may not be doubled in king_of_hearts"):
        d2.apply(A.double("QH"))
    with pytest.raises(WrongPhase, match="must answer the doubling first"):
        d2.apply(Card.KH)
    d2.apply(A.double("KH"))
    with pytest.raises(WrongPhase, match="must play a card now, not 'double KH'"):
        d2.apply(A.double("KH"))


# -- reveal -------------------------------------------------------------------------------------------


def test_sequential_reveal_asks_holders_only_and_shows_each_double_at_once() -> None:
    m = Match(koh(), SUITED)  # seat 1 holds 7♥: it is king, and it holds K♥
    m.apply(A.choose("king_of_hearts"))
    assert m.phase == Phase.DOUBLE and m.turn == 1
    m.apply(A.double("KH"))
    assert m.phase == Phase.PLAY  # nobody else is asked
    for seat in (None, 0, 1, 2, 3):
        assert view(m, seat).doubled == ((1, Card.KH),)
    # in Queens all four hold a queen: each sees the earlier seats' doubles when its turn comes
    m2 = Match(Rules.preset("classic", doubling=True), SUITED)
    m2.apply(A.choose("queens"))
    m2.apply(A.double("QH"))
    assert m2.turn == 2
    assert view(m2, 2).doubled == ((1, Card.QH),)


def test_hidden_reveal_asks_everyone_and_shows_doubles_when_all_have_answered() -> None:
    m = Match(koh(doubling_reveal="hidden"), SUITED)
    m.apply(A.choose("king_of_hearts"))
    assert m.turn == 1 and m.legal_actions() == [A.double("KH"), A.NO_DOUBLE]
    m.apply(A.double("KH"))
    assert m.phase == Phase.DOUBLE and m.turn == 2
    assert m.legal_actions() == [A.NO_DOUBLE]  # non-holders are asked too
    assert view(m, 2).doubled == ()
    assert view(m, None).doubled == ()
    assert view(m, 1).doubled == ((1, Card.KH),)  # the holder knows his own
    m.apply(A.NO_DOUBLE)
    m.apply(A.NO_DOUBLE)
    assert m.turn == 0 and view(m, 0).doubled == ()
    m.apply(A.NO_DOUBLE)
    assert m.phase == Phase.PLAY
    for seat in (None, 0, 1, 2, 3):
        assert view(m, seat).doubled == ((1, Card.KH),)


def test_views_show_each_doubling_answer_as_the_reveal_allows() -> None:
    """Sequential: every answer is public at once (declines too). Hidden: only one's own until all answered."""
    m = Match(koh(), SUITED)  # sequential: only the K♥ holder (seat 1) is asked
    m.apply(A.choose("king_of_hearts"))
    m.apply(A.NO_DOUBLE)
    assert view(m, 3).doubling_answers == ((1, CardSet(0)),)
    h = Match(koh(doubling_reveal="hidden"), SUITED)
    h.apply(A.choose("king_of_hearts"))
    h.apply(A.double("KH"))
    h.apply(A.NO_DOUBLE)
    assert view(h, 2).doubling_answers == ((2, CardSet(0)),)
    assert view(h, 1).doubling_answers == ((1, CardSet.parse("KH")),)
    assert view(h, None).doubling_answers == ()
    h.apply(A.NO_DOUBLE)
    h.apply(A.NO_DOUBLE)
    assert [s for s, _ in view(h, None).doubling_answers] == [1, 2, 3, 0]


def test_reveal_changes_no_score() -> None:
    for reveal in ("sequential", "hidden"):
        d = doubled_deal(koh(doubling_reveal=reveal), 0, "king_of_hearts", SUITED, "KH")
        finish(d)
        assert d.scores == (-150, 75, 0, 0)


# -- throw-ins ----------------------------------------------------------------------------------------


def _with_hearts(hearts: str) -> tuple[int, int, int, int]:
    """Seat 0 holds exactly ``hearts`` and spades; seat 1 the other hearts and the spades left over."""
    mine = cards(hearts)
    spades = [Card.parse(f"{r}S") for r in "23456789TJQKA"]
    n = 13 - mine.bit_count()
    hand0 = mine | sum(1 << c for c in spades[:n])
    hand1 = (SUIT_MASKS[1] ^ mine) | sum(1 << c for c in spades[n:])
    return (hand0, hand1, SUIT_MASKS[2], SUIT_MASKS[3])


@pytest.mark.parametrize(("hearts", "ok"), [("KH", True), ("AH", True), ("AH KH", True), ("KH QH", False),
                                             ("AH 2H", False), ("", False), ("QH", False)])  # fmt: skip
def test_koh_redeal_hands(hearts: str, ok: bool) -> None:
    hands = _with_hearts(hearts)
    assert can_claim_redeal(hands[0], Contract.KING_OF_HEARTS) is ok
    d = Deal(Rules.preset("wikipedia"), 0, Contract.KING_OF_HEARTS, hands)
    assert d.phase == Phase.CLAIM and d.turn == 0
    if ok:
        assert d.legal_actions() == [A.CLAIM, A.NO_CLAIM]
        d.apply(A.CLAIM)
        assert d.thrown_in == 0 and d.phase == Phase.DEAL_OVER and d.scores == (0, 0, 0, 0)
    else:
        assert d.legal_actions() == [A.NO_CLAIM]
        with pytest.raises(IllegalClaim, match="seat 0's hand does not allow a redeal in king_of_hearts"):
            d.apply(A.CLAIM)


@pytest.mark.parametrize(("hand", "contract", "grounds"), [
    ("KH 2S", "king_of_hearts", "your only heart is K♥"),
    ("AH KH 2S", "king_of_hearts", "your only hearts are A♥ and K♥"),
    ("2S 2H 2D 2C", "trix", "you hold all four 2s"),
    ("2H 2D 2C 3S", "trix", "you hold three 2s and 3♠, the 3 of the fourth suit"),
    ("KH QH", "king_of_hearts", ""), ("2S 2H 2D 3S", "trix", ""), ("KH", "queens", ""),
])  # fmt: skip
def test_redeal_grounds_say_what_in_the_hand_allows_it(hand: str, contract: str, grounds: str) -> None:
    assert redeal_grounds(cards(hand), Contract.parse(contract)) == grounds


@pytest.mark.parametrize(
    ("twos_and_threes", "ok"),
    [
        ("2S 2H 2D 2C", True),
        ("2S 2H 2D 3C", True),  # three 2s and the 3 of the fourth suit
        ("2H 2D 2C 3S", True),
        ("2S 2H 2D 3S", False),  # the 3 is not of the missing suit
        ("2S 2H 2D", False),
        ("2S 2H 3D 3C", False),
    ],
)
def test_trix_throw_in_hands(twos_and_threes: str, ok: bool) -> None:
    mine = cards(twos_and_threes)
    filler = [c for c in range(52) if not mine >> c & 1 and c % 13 >= 4]  # no other 2s, 3s or 4s...
    hand0 = mine | sum(1 << c for c in filler[: 13 - mine.bit_count()])
    rest = [c for c in range(52) if not hand0 >> c & 1]
    hands = (hand0, *(sum(1 << c for c in rest[i * 13 : (i + 1) * 13]) for i in range(3)))
    assert can_claim_redeal(hand0, Contract.TRIX) is ok
    d = Deal(Rules.preset("denexa"), 0, Contract.TRIX, hands)  # type: ignore[arg-type]
    assert d.phase == Phase.CLAIM
    if ok:
        d.apply(A.CLAIM)
        assert d.thrown_in == 0 and d.scores == (0, 0, 0, 0)
    else:
        with pytest.raises(IllegalClaim, match="does not allow a redeal in trix"):
            d.apply(A.CLAIM)


def test_claims_are_asked_of_every_seat_from_the_king() -> None:
    hands = _with_hearts("KH")
    d = Deal(Rules.preset("wikipedia"), 2, Contract.KING_OF_HEARTS, hands)
    asked = []
    while d.phase == Phase.CLAIM:
        asked.append(d.turn)
        if d.turn == 0:
            break
        d.apply(A.NO_CLAIM)
    assert asked == [2, 3, 0]
    d.apply(A.NO_CLAIM)
    assert d.turn == 1 and d.phase == Phase.CLAIM
    d.apply(A.NO_CLAIM)
    assert d.phase == Phase.DOUBLE  # wikipedia doubles too: claims come first


def test_no_claims_when_the_option_is_off_or_in_other_contracts() -> None:
    hands = _with_hearts("KH")
    assert Deal(Rules.preset("online"), 0, Contract.KING_OF_HEARTS, hands).phase == Phase.DOUBLE
    assert Deal(Rules.preset("wikipedia"), 0, Contract.QUEENS, hands).phase == Phase.DOUBLE
    assert Deal(Rules.preset("classic"), 0, Contract.TRIX, hands).phase == Phase.PLAY


def test_a_thrown_in_deal_uses_up_no_contract_and_the_king_deals_again() -> None:
    hands = _with_hearts("AH")  # seat 1 holds 7♥: it is the king
    m = Match(Rules.preset("wikipedia"), hands)
    assert m.king == 1
    m.apply(A.choose("king_of_hearts"))
    for _ in range(3):  # seats 1, 2, 3 decline
        m.apply(A.NO_CLAIM)
    m.apply(A.CLAIM, seat=0)
    assert m.phase == Phase.DEAL_OVER and m.deal is not None and m.deal.thrown_in == 0
    assert m.totals == [0, 0, 0, 0] and m.played == []
    m.start_deal(SUITED)
    assert m.king == 1 and A.choose("king_of_hearts") in m.legal_actions()
    assert len(m.legal_actions()) == 5
    summary = view(m, None).history
    assert summary[0].thrown_in == 0 and summary[0].scores == (0, 0, 0, 0)


def test_a_deal_thrown_in_before_the_doubling_passed_nobody_over() -> None:
    """Sequential doubling asks only holders of a doublable card, so a seat it skips is known to hold
    none; a deal thrown in during the claims asked nobody, and says nothing of who holds K♥."""
    m = Match(Rules.preset("wikipedia"), _with_hearts("KH"))
    m.apply(A.choose("king_of_hearts"))
    while m.turn != 0:
        m.apply(A.NO_CLAIM)
    m.apply(A.CLAIM)
    assert m.phase == Phase.DEAL_OVER
    assert all(view(m, seat).passed_over == () for seat in (None, 0, 1, 2, 3))


def test_hidden_reveal_each_seat_answers_exactly_once() -> None:
    """However many cards a seat doubles, it answers once: its turn tells the others nothing."""
    rules = Rules.preset("complex", doubling_reveal="hidden")
    for answer in (A.NO_DOUBLE, A.double("QH"), A.double("KH", "QH")):
        d = Deal(rules, 1, Contract.COMPLEX, SUITED)
        turns = []
        first = True
        while d.phase == Phase.DOUBLE:
            turns.append(d.turn)
            d.apply(answer if first else A.NO_DOUBLE)
            first = False
        assert turns == [1, 2, 3, 0]
