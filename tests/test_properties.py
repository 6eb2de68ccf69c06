"""Hypothesis: random legal play, every preset and random option combinations, checked at every step.

- the 52 cards are conserved (in hands, on the table, taken or on the Trix layouts, each exactly once);
- each deal sums to its contract total, give or take only what doubling can change (a doubled card
  its holder takes under ``self_capture="doubled"``, or his partner under ``partner_capture="no_bonus"``);
  hence without doubling every kingdom of individual play sums to 0;
- a view shows its own seat's hand and no card of another hand; a spectator sees no hand;
- writing the record, reading it back and replaying it gives the same state and the same record;
- Trix layouts are always unbroken runs through the jack.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from opentrix import actions as A
from opentrix.cards import FULL_DECK, KING_OF_HEARTS, card_name, cards_of
from opentrix.contracts import Contract
from opentrix.deal import Deal, Phase
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import PRESETS, Points, Rules
from opentrix.verify import summary
from opentrix.view import View, view

SETTINGS = settings(max_examples=30, deadline=None, suppress_health_check=[HealthCheck.too_slow])

OPTIONS = st.fixed_dictionaries(
    {},
    optional={
        "kingdom_passes": st.sampled_from(["with_play", "against_play"]),
        "hearts_lead_ban": st.booleans(),
        "king_must_be_discarded": st.booleans(),
        "doubling": st.booleans(),
        "self_capture": st.sampled_from(["normal", "doubled", "doubled_leader_gains"]),
        "partner_capture": st.sampled_from(["no_bonus", "as_other"]),
        "doubling_reveal": st.sampled_from(["sequential", "hidden"]),
        "koh_redeal": st.booleans(),
        "trix_throw_in": st.booleans(),
        "early_end": st.booleans(),
        "tiebreak": st.sampled_from(["none", "extra_koh_deal", "extra_kingdom"]),
        "complex": st.booleans(),
        "first_king_card": st.sampled_from(["7H", "2C", "AS", "QD"]),
        "partnership": st.booleans(),
        "points": st.fixed_dictionaries(
            {},
            optional={
                "king_of_hearts": st.integers(-120, -1),
                "queen": st.integers(-60, -1),
                "diamond": st.integers(-30, -1),
                "trick": st.integers(-30, -1),
                "trix": st.lists(st.integers(0, 300), min_size=4, max_size=4),
            },
        ),
    },
)


def contract_total(contract: int, p: Points) -> int:
    koh, queens, diamonds, tricks = p.king_of_hearts, 4 * p.queen, 13 * p.diamond, 13 * p.trick
    return {
        Contract.KING_OF_HEARTS: koh,
        Contract.QUEENS: queens,
        Contract.DIAMONDS: diamonds,
        Contract.LTOOSH: tricks,
        Contract.COMPLEX: koh + queens + diamonds + tricks,
        Contract.TRIX: sum(p.trix),
    }[Contract(contract)]


def doubling_shift(d: Deal) -> int:
    """What doubling adds to a deal's sum: v for each doubled card (value v) its holder takes under
    "doubled", or his partner takes under "no_bonus"; every other case moves points between seats."""
    rules, shift = d.rules, 0
    for card in range(52):
        if not d.doubled >> card & 1:
            continue
        v = rules.points.king_of_hearts if 1 << card == KING_OF_HEARTS else rules.points.queen
        holder = next(s for s in range(4) if d.dealt[s] >> card & 1)
        taker = next((s for s in range(4) if d.taken[s] >> card & 1), None)
        if (taker == holder and rules.self_capture == "doubled") or (
            taker == holder ^ 2 and rules.partnership and rules.partner_capture == "no_bonus"
        ):
            shift += v
    return shift


def check_cards(d: Deal) -> None:
    seen = 0
    count = 0
    pieces = [*d.hands]
    if d.contract == Contract.TRIX:
        pieces.append(sum(1 << a for a in d.plays if a < 52))
    else:
        pieces += [*d.taken, sum(1 << c for c in d.trick)]
    for m in pieces:
        seen |= m
        count += m.bit_count()
    assert seen == FULL_DECK and count == 52
    played = [a for a in d.plays if a < 52]
    assert len(set(played)) == len(played)
    if d.contract == Contract.TRIX:
        check_layouts(d)
    elif d.phase != Phase.DEAL_OVER:
        assert len(d.trick) == len(d.plays) % 4


def check_layouts(d: Deal) -> None:
    placed = sum(1 << a for a in d.plays if a < 52)
    for s in range(4):
        run = placed >> (13 * s) & 0x1FFF
        if run:
            assert run >> 9 & 1, "a layout without its jack"
            low = (run & -run).bit_length() - 1
            assert ((run >> low) + 1) & (run >> low) == 0, "a layout with a gap"


def check_views(m: Match, rng: random.Random) -> None:
    d = m.deals[-1] if m.deals and m.phase != Phase.CHOOSE_CONTRACT else None
    hands = list(m.pending_hands) if m.phase == Phase.CHOOSE_CONTRACT else list(d.hands) if d else [0, 0, 0, 0]
    for seat in (None, rng.randrange(4)):
        v = view(m, seat)
        if seat is None:
            assert v.hand is None
        else:
            assert v.hand is not None and int(v.hand) == hands[seat]
        hidden = sum(hands[s] for s in range(4) if s != seat)
        shown = 0  # every card the view names outside the seat's own hand and the doubled cards
        for pairs in (v.plays, v.trick, v.last_trick):
            for _, c in pairs:
                shown |= 1 << c if c < 52 else 0
        for t in v.taken:
            shown |= int(t)
        for lay in v.layouts:
            if lay is not None:
                shown |= 1 << lay[0] | 1 << lay[1]
        for a in v.legal_actions:
            shown |= 1 << a if a < 52 else 0
        assert not shown & hidden, f"the view of seat {seat} shows a card of another hand"
        if v.legal_actions:
            assert v.turn == seat and all(hands[seat] >> a & 1 for a in v.legal_actions if a < 52)
        if m.phase == Phase.DOUBLE and m.rules.doubling_reveal == "hidden":
            assert all(holder == seat for holder, _ in v.doubled)


def check_view_json(m: Match) -> None:
    """The JSON a client receives names no card of another hand either."""
    d = m.deals[-1]
    for seat in (None, 0, 1, 2, 3):
        public = view(m, seat).to_dict()
        # what a server sends is the whole view: a client reading it back has the same one
        assert View.from_dict(json.loads(json.dumps(public))) == view(m, seat)
        shown_doubled = {c for _, c in public["doubled"]}
        assert {c for _, cs in public.pop("doubling_answers") for c in cs} <= shown_doubled
        for key in ("rules", "history", "doubled", "hand"):
            public.pop(key)
        hidden = {card_name(c) for s in range(4) if s != seat for c in range(52) if d.hands[s] >> c & 1}
        assert not hidden & set(_strings(public))


def _strings(obj: Any) -> list[str]:
    if isinstance(obj, str):
        return [obj]
    if isinstance(obj, dict):
        return [s for v in obj.values() for s in _strings(v)]
    if isinstance(obj, list | tuple):
        return [s for v in obj for s in _strings(v)]
    return []


def check_round_trip(m: Match) -> None:
    text = Record.from_match(m, ["a", "b", "c", "d"]).dumps()
    again = Record.loads(text).replay()
    # the same state deal by deal (the history may differ only in the order one seat doubled two cards,
    # which a record does not keep)
    assert len(again.history) == len(m.history)
    for a, b in zip(again.deals, m.deals, strict=True):
        assert (a.king, a.contract, a.dealt, a.hands, a.doubled, a.thrown_in) == (
            b.king,
            b.contract,
            b.dealt,
            b.hands,
            b.doubled,
            b.thrown_in,
        )
        assert (a.plays, a.seats, a.taken, a.out, a.phase, a.turn, a.scores) == (
            b.plays,
            b.seats,
            b.taken,
            b.out,
            b.phase,
            b.turn,
            b.scores,
        )
    assert summary(again) == summary(m)
    assert (again.phase, again.turn, again.totals) == (m.phase, m.turn, m.totals)
    assert Record.from_match(again, ["a", "b", "c", "d"]).dumps() == text


def play_match(rules: Rules, seed: int, views: bool = True) -> Match:
    """Random legal play to the end of the match, checking every step; returns the finished match."""
    rng = random.Random(seed)
    m = Match(rules, seed=seed)
    snapshot: Match | None = None
    snap_at = rng.randrange(400)
    steps = 0
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
        la = m.legal_actions()
        assert la, "a seat to act always has a legal action"
        m.apply(la[rng.randrange(len(la))], seat=m.turn)
        steps += 1
        d = m.deals[-1]
        check_cards(d)
        if views:
            check_views(m, rng)
        if steps >= snap_at and snapshot is None and m.phase in (Phase.PLAY, Phase.DEAL_OVER):
            snapshot = m.copy()  # a record cannot stop inside the claims or the doubling
            if m.phase == Phase.PLAY:
                check_view_json(m)
        if d.phase == Phase.DEAL_OVER:
            check_deal_sum(d)
    check_kingdoms(m)
    check_round_trip(m)
    if snapshot is not None:
        check_round_trip(snapshot)
    return m


def check_deal_sum(d: Deal) -> None:
    assert d.scores is not None
    if d.thrown_in is not None:
        assert d.scores == (0, 0, 0, 0)
        return
    assert sum(d.scores) == contract_total(d.contract, d.rules.points) + doubling_shift(d)


def check_kingdoms(m: Match) -> None:
    """With standard points every kingdom sums to what doubling shifted (0 without doubling)."""
    rules = m.rules
    if rules.points != Points():
        return
    played = [d for d in m.deals if d.thrown_in is None]
    size = len(rules.contracts)
    regular = played[: rules.kingdoms * size] if rules.tiebreak != "extra_kingdom" else played
    for k in range(len(regular) // size):
        kingdom = regular[k * size : (k + 1) * size]
        assert len({d.king for d in kingdom}) == 1
        assert sum(sum(d.scores or ()) for d in kingdom) == sum(doubling_shift(d) for d in kingdom)
    for s in range(4):
        assert m.totals[s] == sum((d.scores or (0, 0, 0, 0))[s] for d in m.deals)


# -- the tests ----------------------------------------------------------------------------------------


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_full_matches_classic(seed: int) -> None:
    play_match(PRESETS["classic"], seed)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_full_matches_wikipedia(seed: int) -> None:
    play_match(PRESETS["wikipedia"], seed)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_full_matches_denexa(seed: int) -> None:
    play_match(PRESETS["denexa"], seed)


@SETTINGS
@given(seed=st.integers(0, 2**32))
def test_random_full_matches_online(seed: int) -> None:
    play_match(PRESETS["online"], seed)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32))
def test_random_full_matches_complex(seed: int) -> None:
    play_match(PRESETS["complex"], seed)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), options=OPTIONS, seed=st.integers(0, 2**32))
def test_random_option_combinations(preset: str, options: dict[str, Any], seed: int) -> None:
    rules = Rules.preset(preset, kingdoms=1, **options)
    m = play_match(rules, seed)
    if not rules.doubling and not rules.partnership and rules.points == Points() and rules.tiebreak != "extra_koh_deal":
        assert sum(m.totals) == 0


@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**32), contract=st.sampled_from(list(Contract)))
def test_deal_copy_is_independent_and_replays_alike(seed: int, contract: Contract) -> None:
    rng = random.Random(seed)
    rules = Rules.preset("complex" if contract == Contract.COMPLEX else "online")
    from opentrix.deal import deal_hands

    d = Deal(rules, rng.randrange(4), contract, deal_hands(seed))
    while d.phase != Phase.DEAL_OVER:
        if rng.random() < 0.2:
            c = d.copy()
            la = c.legal_actions()
            a = la[rng.randrange(len(la))]
            c.apply(a)
            before = (list(d.hands), list(d.plays), d.turn, list(d.trick))
            c2 = d.copy()
            c2.apply(a)
            assert (c2.hands, c2.plays, c2.turn, c2.trick, c2.scores) == (c.hands, c.plays, c.turn, c.trick, c.scores)
            assert (d.hands, d.plays, d.turn, d.trick) == before
        la = d.legal_actions()
        assert la == sorted(la)
        if d.phase == Phase.PLAY:  # the inlined card list and the mask (``trick_legal``) agree exactly
            assert [x for x in la if x < 52] == cards_of(d.legal_mask())
        a = la[rng.randrange(len(la))]
        if a < 52 or a == A.PASS:
            assert d.legal_mask() >> a & 1 if a < 52 else d.legal_mask() == 0
        d.apply(a)
        check_cards(d)
    check_deal_sum(d)
