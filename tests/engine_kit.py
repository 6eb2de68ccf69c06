"""Hand-built deals for the engine tests: card sets from text, fixed layouts of the deck, scripted play.

The two layouts used most:

- ``SUITED``: seat s holds the whole of suit s (♠ ♥ ♦ ♣ for seats 0-3). Nobody can ever follow another
  seat's lead, so whoever leads wins every trick: the king takes all 52 cards, and in Trix each seat
  places one card of its own suit per turn (the king goes out first, then the next seats in turn).
- ``ROTATING``: the same, but each seat's ace sits with the seat before it (seat 0 holds A♣, seat 1 A♠,
  seat 2 A♥, seat 3 A♦). With ``ROTATING_SCRIPT`` (king 0) the first four tricks go to seats 1, 2, 3, 0
  and seat 0 takes the last nine; the captures are worked out by hand in ``ROTATING_CAPTURES``.
"""

from __future__ import annotations

from opentrix import actions as A
from opentrix.cards import SUIT_MASKS, CardSet, parse_card
from opentrix.deal import Deal, Phase
from opentrix.match import Match

Hands = tuple[int, int, int, int]


def cards(text: str) -> int:
    """A card-set int from ``"AS KS 2D"``."""
    return int(CardSet.parse(text))


SUITED: Hands = (SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3])

ROTATING: Hands = (
    SUIT_MASKS[0] ^ cards("AS") | cards("AC"),
    SUIT_MASKS[1] ^ cards("AH") | cards("AS"),
    SUIT_MASKS[2] ^ cards("AD") | cards("AH"),
    SUIT_MASKS[3] ^ cards("AC") | cards("AD"),
)

# King 0. Trick by trick, in the order played (the leader first).
ROTATING_SCRIPT = (
    "QS AS 2D QC "  # seat 0 leads, seat 1 must play its only spade, A♠: seat 1 takes Q♠ Q♣ 2♦
    "KH AH 2C 2S "  # seat 1 leads K♥, seat 2 must play A♥: seat 2 takes K♥
    "QD AD 3S QH "  # seat 2 leads Q♦, seat 3 must play A♦: seat 3 takes Q♦ A♦ Q♥
    "3C AC 2H 3D "  # seat 3 leads, seat 0 must play A♣: seat 0 takes 3♦
    # seat 0 leads its last nine spades and takes them all; seat 1 discards 3♥-J♥ (K♥ and Q♥ are gone)
    + " ".join(f"{s}S {h}H {s}D {s}C" for s, h in zip("456789TJK", "3456789TJ", strict=True))
)
# Per seat: tricks taken, diamonds, queens, K♥ — read off the script above.
ROTATING_CAPTURES = {
    0: {"tricks": 10, "diamonds": 10, "queens": 0, "koh": False},
    1: {"tricks": 1, "diamonds": 1, "queens": 2, "koh": False},
    2: {"tricks": 1, "diamonds": 0, "queens": 0, "koh": True},
    3: {"tricks": 1, "diamonds": 2, "queens": 2, "koh": False},
}


def moved(hands: Hands, *moves: tuple[str, int, int]) -> Hands:
    """``hands`` with each (card, from seat, to seat) moved."""
    out = list(hands)
    for card, a, b in moves:
        bit = 1 << parse_card(card)
        assert out[a] & bit, f"seat {a} does not hold {card}"
        out[a] ^= bit
        out[b] |= bit
    return (out[0], out[1], out[2], out[3])


def swapped(hands: Hands, card_a: str, card_b: str) -> Hands:
    """``hands`` with two cards exchanged between their holders."""
    a = next(s for s in range(4) if hands[s] >> parse_card(card_a) & 1)
    b = next(s for s in range(4) if hands[s] >> parse_card(card_b) & 1)
    return moved(hands, (card_a, a, b), (card_b, b, a))


def play(state: Deal | Match, script: str) -> None:
    """Apply record-style plays (cards or ``pass``) in order."""
    for token in script.split():
        state.apply(A.PASS if token == "pass" else parse_card(token))


def answer_all(state: Deal | Match) -> None:
    """Answer every redeal question and doubling with no."""
    while state.phase in (Phase.CLAIM, Phase.DOUBLE):
        state.apply(A.NO_CLAIM if state.phase == Phase.CLAIM else A.NO_DOUBLE)


def finish(state: Deal | Match) -> None:
    """Play the rest of the deal: no claims, no doubles, the lowest legal card (or pass)."""
    answer_all(state)
    while state.phase == Phase.PLAY:
        state.apply(state.legal_actions()[0])


def deal(rules: object, king: int, contract: str, hands: Hands, script: str = "") -> Deal:
    """A ``Deal`` with claims and doubles answered no, then ``script`` played."""
    from opentrix.contracts import Contract
    from opentrix.rules import Rules

    assert isinstance(rules, Rules)
    d = Deal(rules, king, Contract.parse(contract), hands)
    answer_all(d)
    play(d, script)
    return d


def run_match(m: Match, hands: Hands | None = None, contracts: list[str] | None = None) -> None:
    """Play ``m`` to its end: every deal dealt ``hands`` (or from the seed), contracts in the listed
    order when still available (else the first available), no claims, no doubles, lowest legal card."""
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal(hands)
        legal = m.legal_actions()
        pick = legal[0]
        for name in contracts or []:
            if A.choose(name) in legal:
                pick = A.choose(name)
                break
        m.apply(pick)
        finish(m)
