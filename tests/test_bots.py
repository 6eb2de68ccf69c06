"""Bots: legal in every phase and preset, the basic bot's rules of thumb, and no peeking."""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from opentrix import actions as A
from opentrix.bots import LEVELS, BasicBot, Bot, StrongBot, bot_names, make_bot
from opentrix.bots.cheat import CheatBot, HindsightBot
from opentrix.cards import QUEENS as QUEEN_MASK
from opentrix.cards import CardSet, cards_of, parse_card
from opentrix.contracts import Contract
from opentrix.deal import Phase
from opentrix.errors import TrixError
from opentrix.match import Match
from opentrix.rules import PRESETS, Rules
from opentrix.view import View, view

ALL = set(range(52))


def build_hands(spec: dict[int, str]) -> list[int]:
    """Hands from card lists; seats given fewer than 13 cards are filled with the lowest cards left."""
    hands = [CardSet.parse(spec.get(s, "")) for s in range(4)]
    used = set().union(*(set(int(c) for c in h) for h in hands))
    rest = sorted(ALL - used)
    out = []
    for h in hands:
        cards = [int(c) for c in h]
        while len(cards) < 13:
            cards.append(rest.pop(0))
        out.append(sum(1 << c for c in cards))
    return out


def position(preset: str, spec: dict[int, str], contract: str, plays: str = "") -> Match:
    """A match at a hand-built point: the contract named, no claims or doubles, then ``plays``."""
    m = Match(Rules.preset(preset), build_hands(spec))
    m.apply(A.choose(contract))
    while m.phase in (Phase.CLAIM, Phase.DOUBLE):
        m.apply(A.NO_CLAIM if m.phase == Phase.CLAIM else A.NO_DOUBLE)
    for p in plays.split():
        m.apply(A.parse(p))
    return m


def basic_choice(m: Match) -> tuple[int, str]:
    seat = m.turn
    assert seat is not None
    return BasicBot(seed=1).explain(view(m, seat), m.legal_actions())


def quick_strong(seed: object = 1) -> StrongBot:
    return StrongBot(seed=str(seed), samples=3, budget_ms=None)


# -- every bot, every preset, every phase -----------------------------------------------------------


@pytest.mark.parametrize("preset", list(PRESETS))
def test_every_bot_plays_legally_in_every_phase(preset: str) -> None:
    rules = Rules.preset(preset).with_options(kingdoms=1, tiebreak="none")
    phases: set[Phase] = set()
    for start in range(2):
        m = Match(rules, seed=f"legal-{preset}-{start}")
        names = ["basic", "novice", "random", "strong"]
        bots = [
            quick_strong(s) if names[(s + start) % 4] == "strong" else make_bot(names[(s + start) % 4], seed=s)
            for s in range(4)
        ]
        while not m.is_over:
            if m.phase == Phase.DEAL_OVER:
                m.start_deal()
                continue
            seat = m.turn
            assert seat is not None
            legal = m.legal_actions()
            phases.add(Phase(m.phase))
            action, reason = bots[seat].explain(view(m, seat), legal)
            assert action in legal, (preset, m.phase, action, legal)
            assert isinstance(reason, str) and reason
            m.apply(action, seat)
    assert {Phase.CHOOSE_CONTRACT, Phase.PLAY} <= phases
    if Rules.preset(preset).doubling:
        assert Phase.DOUBLE in phases


@pytest.mark.parametrize("name", ["basic", "strong"])
def test_claim_and_double_decisions_are_legal(name: str) -> None:
    # Wikipedia rules: a King of Hearts redeal is allowed and doubling is on.
    spec = {0: "7H KH 2S 3S 4S 5S 6S 2D 3D 4D 5D 6D 2C"}
    m = Match(Rules.preset("wikipedia"), build_hands(spec))
    m.apply(A.choose("king_of_hearts"))
    bot = quick_strong() if name == "strong" else make_bot(name, seed=1)
    while m.phase in (Phase.CLAIM, Phase.DOUBLE):
        seat = m.turn
        assert seat is not None
        legal = m.legal_actions()
        action = bot.act(view(m, seat), legal)
        assert action in legal
        m.apply(action)
        if m.phase == Phase.DEAL_OVER:
            break


@pytest.mark.parametrize("name", ["strong", "cheat"])
def test_a_redeal_claim_in_the_king_of_hearts_tiebreak_of_complex_rules(name: str) -> None:
    # Complex plays no King of Hearts but its tiebreak deal (extra_koh_deal) is one, where koh_redeal
    # lets a bare K♥ claim: the search weighs the claim against a King of Hearts baseline there too.
    rules = Rules.preset("complex", tiebreak="extra_koh_deal", koh_redeal=True)
    hands = build_hands({0: "KH 2S 3S 4S 5S 6S 7S 2D 3D 4D 5D 6D 2C"})
    m = Match.at_contract_choice(rules, hands, king=0, kingdom=4, totals=(10, 10, -10, -10), tiebreak_deal=True)
    m.apply(A.choose("king_of_hearts"))
    legal = m.legal_actions()
    assert m.phase == Phase.CLAIM and m.turn == 0 and A.CLAIM in legal
    if name == "cheat":
        action = CheatBot(seed=1).act_full(m, 0, legal)
    else:
        action = quick_strong().act(view(m, 0), legal)
    assert action in legal


def test_levels_and_names() -> None:
    assert LEVELS == {"easy": "novice", "medium": "basic", "hard": "strong"}
    assert "cheat" not in bot_names()  # never offered at a table
    assert isinstance(make_bot("hard", seed=1), StrongBot)
    easy = make_bot("easy", seed=1)
    assert isinstance(easy, BasicBot) and easy.mistakes > 0
    with pytest.raises(ValueError, match="known"):
        make_bot("nonsense")
    with pytest.raises(ValueError):
        StrongBot(samples=None, budget_ms=None)
    with pytest.raises(ValueError, match="chains"):
        StrongBot(chains=0)
    with pytest.raises(ValueError, match="burn"):
        StrongBot(burn=-1)
    for budget in (float("nan"), float("inf"), 0.0, -5.0):  # nan and inf once searched forever
        with pytest.raises(ValueError, match="budget_ms must be a positive number"):
            StrongBot(samples=None, budget_ms=budget)
    with pytest.raises(ValueError, match="min_samples"):
        StrongBot(min_samples=-5)


def test_an_external_bot_once_loaded_is_named_once(monkeypatch: pytest.MonkeyPatch) -> None:
    import opentrix.bots as bots

    monkeypatch.setattr(bots, "BOTS", dict(bots.BOTS))
    monkeypatch.setitem(bots.EXTERNAL, "outside", "opentrix.bots.base:RandomBot")
    assert bot_names().count("outside") == 1
    make_bot("outside", seed=1)  # loading it puts it among the bots
    assert bots.bot_names().count("outside") == 1


def test_basic_is_deterministic_given_its_seed() -> None:
    def run(seed: int) -> list[int]:
        m = Match(Rules.preset("classic"), seed=5)
        bots = [make_bot("novice", seed=seed + s) for s in range(4)]
        out = []
        while m.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            seat = m.turn
            assert seat is not None
            a = bots[seat].act(view(m, seat), m.legal_actions())
            out.append(a)
            m.apply(a)
        return out

    assert run(1) == run(1)


# -- the basic bot's rules of thumb ---------------------------------------------------------------


def test_ltoosh_ducks_with_its_highest_safe_card() -> None:
    m = position("classic", {0: "7H 9S", 1: "KS 8S 4S"}, "ltoosh", "9S")
    card, reason = basic_choice(m)
    assert card == parse_card("8S") and "duck" in reason


def test_ltoosh_sheds_its_highest_card_when_void() -> None:
    spec = {0: "7H 2C", 1: "AS KD 3D 2D 2H 3H 4H 5H 6H 8H 9H TH JH"}
    m = position("classic", spec, "ltoosh", "2C")
    card, _ = basic_choice(m)
    assert card == parse_card("AS")


def test_king_of_hearts_dumped_when_void() -> None:
    spec = {0: "7H 2C", 1: "KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS AS"}
    m = position("classic", spec, "king_of_hearts", "2C")
    card, reason = basic_choice(m)
    assert card == parse_card("KH") and "dump" in reason


def test_queen_dumped_when_void_and_ducked_when_following() -> None:
    spec = {0: "7H 2C 9D", 1: "QD 2S 3S 4S 5S 6S 7S 8S 9S TS JS 3D AD"}
    m = position("classic", spec, "queens", "2C")
    assert basic_choice(m)[0] == parse_card("QD")
    m = position("classic", {0: "7H KD", 1: "QD 3D AD"}, "queens", "KD")
    assert basic_choice(m)[0] == parse_card("QD")  # the queen ducks under the king


def test_diamonds_keeps_its_low_diamond() -> None:
    m = position("classic", {0: "7H 9D", 1: "AD 5D 2D"}, "diamonds", "9D")
    assert basic_choice(m)[0] == parse_card("5D")


def test_king_of_hearts_leads_low_hearts_to_hunt_the_king() -> None:
    spec = {0: "7H 2H 3H AC KC QC JC TC AS KS QS JS TS", 1: "KH"}
    m = position("wikipedia", spec, "king_of_hearts")
    assert parse_card(A.to_str(basic_choice(m)[0])) // 13 == 1  # a heart: the king must fall sometime


def test_trix_opens_the_jack_that_leads_into_its_own_cards() -> None:
    spec = {0: "7H JS TS 9S JD 2C 3C 4C 5C 6C 7C 8C 9C"}
    m = position("classic", spec, "trix")
    card, reason = basic_choice(m)
    assert card == parse_card("JS") and "jack" in reason


def test_trix_holds_back_cards_that_help_others() -> None:
    from opentrix.bots.policy import place_trix

    # J♠ and J♣ are down. 10♠ leads to our own 9♠; Q♣ would open K♣ for whoever holds it.
    hand = CardSet.parse("TS 9S QC 2D")
    legal = CardSet.parse("TS QC")
    gone = CardSet.parse("JS JC")
    assert place_trix(hand, legal, gone) == parse_card("TS")
    # Q♣ with our own K♣ behind it beats a 10♠ that opens 9♠ for someone else.
    hand = CardSet.parse("TS QC KC 2D")
    assert place_trix(hand, CardSet.parse("TS QC"), gone) == parse_card("QC")


def test_contract_choice_suits_the_hand() -> None:
    low = "7H 2S 3S 4S 2H 3H 4H 2D 3D 4D 2C 3C 4C"
    m = Match(Rules.preset("classic"), build_hands({0: low}))
    assert basic_choice(m)[0] in (A.choose("ltoosh"), A.choose("diamonds"))
    bare_king = "7H KH AS AC AD KS KC KD QS QC JS JC JD"
    m = Match(Rules.preset("classic"), build_hands({0: bare_king}))
    assert basic_choice(m)[0] not in (A.choose("ltoosh"), A.choose("king_of_hearts"))


def test_doubles_only_a_guarded_king() -> None:
    guarded = "7H KH 2H 3H 4H 5H 6H 2S 3S 4S 5S 6S 2C"
    m = Match(Rules.preset("denexa"), build_hands({0: guarded}))  # doubling on, no redeal claims
    m.apply(A.choose("king_of_hearts"))
    assert m.phase == Phase.DOUBLE and m.turn == 0
    assert basic_choice(m)[0] == A.double("KH")
    bare = "7H KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    m = Match(Rules.preset("denexa"), build_hands({0: bare}))
    m.apply(A.choose("king_of_hearts"))
    assert basic_choice(m)[0] == A.NO_DOUBLE


def test_claims_a_redeal_with_a_bare_king() -> None:
    spec = {1: "7H", 0: "KH 2S 3S 4S 5S 6S 7S 8S 9S TS JS QS AS"}
    m = Match(Rules.preset("wikipedia"), build_hands(spec))
    m.apply(A.choose("king_of_hearts"))
    while m.turn != 0:
        m.apply(A.NO_CLAIM)
    assert m.legal_actions() == [A.CLAIM, A.NO_CLAIM]
    assert basic_choice(m)[0] == A.CLAIM


# -- the strong bot's sampler ---------------------------------------------------------------------


@pytest.mark.parametrize(("preset", "contract"), [("wikipedia", "queens"), ("classic", "ltoosh"), ("denexa", "trix")])
def test_sampled_deals_fit_everything_seen(preset: str, contract: str) -> None:
    import random

    from opentrix.bots.knowledge import Knowledge

    rng = random.Random(0)
    banned_seen = 0
    for game in range(4):
        m = Match(Rules.preset(preset), seed=f"sampler-{game}")
        m.apply(A.choose(contract))
        while m.phase in (Phase.CLAIM, Phase.DOUBLE):  # double every queen shown: holders become known
            legal = m.legal_actions()
            m.apply(A.NO_CLAIM if m.phase == Phase.CLAIM else legal[0])
        walker = make_bot("random", seed=game)
        while m.phase == Phase.PLAY:
            seat = m.turn
            assert seat is not None and m.deal is not None
            know = Knowledge.from_view(view(m, seat))
            truth = m.deal.hands
            for s in range(4):
                assert not truth[s] & know.banned[s], "a fact inferred from the view must hold for the true deal"
                assert truth[s] & know.fixed[s] == know.fixed[s]
            banned_seen += sum(bool(b) for b in know.banned)
            for i in range(6):
                hands = know.sample(rng, trust=i % 2)  # half of them also follow the soft hints
                assert hands[seat] == truth[seat]
                assert [h.bit_count() for h in hands] == [h.bit_count() for h in truth]
                assert hands[0] | hands[1] | hands[2] | hands[3] == truth[0] | truth[1] | truth[2] | truth[3]
                for s in range(4):
                    assert not hands[s] & know.banned[s]
                    assert hands[s] & know.fixed[s] == know.fixed[s]
                know.deal_from(hands)  # replaying the deal on the sample is legal: it fits every play seen
            m.apply(walker.act(view(m, seat), m.legal_actions()))
    assert banned_seen > 0


def test_soft_hints_from_sensible_play() -> None:
    import random

    from opentrix.bots.knowledge import Knowledge

    # Seat 1 ducks 9♠ with 4♠: holding 5♠–8♠ it would have ducked higher. Seat 2 overtakes with K♠.
    spec = {0: "7H 9S 2D 3D", 1: "4S 2C 3C 4C 5C", 2: "KS 6C 7C", 3: "AS 8C 9C"}
    m = position("classic", spec, "ltoosh", "9S 4S KS AS")
    know = Knowledge.from_view(view(m, 0))
    assert CardSet(know.unlikely[1] & CardSet.parse("5S 6S 7S 8S")) == CardSet.parse("5S 6S 7S 8S")
    assert know.unlikely[2] >> parse_card("8S") & 1  # it could not duck 9♠ either
    assert not know.banned[1]  # hints, not facts
    rng = random.Random(1)
    trusted = [know.sample(rng, trust=1.0) for _ in range(20)]
    assert all(not h[1] & know.unlikely[1] for h in trusted)


def test_sequential_doubling_passes_over_seats_without_a_doublable_card() -> None:
    from opentrix.bots.knowledge import Knowledge

    spec = {0: "7H 2S", 1: "QS QH 3S", 2: "QD 4S", 3: "QC 5S KS"}  # the holders are asked in turn
    m = position("wikipedia", spec, "queens")
    assert [s for s, _ in m.deals[-1].answers] == [1, 2, 3]  # seat 0 (the king) holds no queen: never asked
    m2 = position("wikipedia", {0: "7H QS", 1: "QH QD QC"}, "queens")
    know = Knowledge.from_view(view(m2, 1))
    assert know.banned[2] & QUEEN_MASK == QUEEN_MASK  # passed over: no queen
    assert know.banned[3] & QUEEN_MASK == QUEEN_MASK
    assert not know.banned[0] & QUEEN_MASK  # the king was asked: he holds one


def _basic_deal(preset: str, contract: str, seed: str) -> Match:
    m = Match(Rules.preset(preset), seed=seed)
    m.apply(A.choose(contract))
    return m


def test_the_true_deal_explains_every_rule_of_thumb_decision() -> None:
    from opentrix.bots.knowledge import Fit, Knowledge

    checked = 0
    for preset, contract in [
        ("classic", "king_of_hearts"),
        ("classic", "queens"),
        ("wikipedia", "diamonds"),
        ("denexa", "trix"),
        ("classic", "ltoosh"),
    ]:
        m = _basic_deal(preset, contract, f"fit-{preset}-{contract}")
        bots = [make_bot("basic", seed=s) for s in range(4)]
        while m.phase in (Phase.CLAIM, Phase.DOUBLE, Phase.PLAY):
            seat = m.turn
            assert seat is not None and m.deal is not None
            if m.phase == Phase.PLAY:
                fit = Fit(Knowledge.from_view(view(m, seat)))
                for s in range(4):
                    if s != seat:
                        assert fit.misfits(s, m.deal.hands[s]) == 0, (preset, contract, s)
                        checked += 1
            m.apply(bots[seat].act(view(m, seat), m.legal_actions()))
    assert checked > 300


def _basic_positions(
    contracts: list[str], tag: str, trick_cards: int, hand_sizes: tuple[int, ...]
) -> Iterator[tuple[int, Match, int]]:
    """Classic deals of ``contracts`` played out by four basic bots: (game, match, seat to act) at each
    card decision with ``trick_cards`` on the table and a hand of one of ``hand_sizes``."""
    for game, contract in enumerate(contracts):
        m = _basic_deal("classic", contract, f"{tag}-{game}")
        bots = [make_bot("basic", seed=s) for s in range(4)]
        while m.phase in (Phase.CLAIM, Phase.DOUBLE, Phase.PLAY):
            seat = m.turn
            assert seat is not None and m.deal is not None
            if (
                m.phase == Phase.PLAY
                and len(m.deal.trick) == trick_cards
                and m.deal.hands[seat].bit_count() in hand_sizes
            ):
                yield game, m, seat
            m.apply(bots[seat].act(view(m, seat), m.legal_actions()))


def test_the_posterior_places_hidden_cards_better_than_uniform_draws() -> None:
    import random

    from opentrix.bots.knowledge import Knowledge, Posterior

    rng = random.Random(3)
    right = {"posterior": 0, "uniform": 0}
    contracts = ["king_of_hearts", "queens", "diamonds", "ltoosh"]
    for _game, m, seat in _basic_positions(contracts, "posterior", trick_cards=0, hand_sizes=(9, 6)):
        know = Knowledge.from_view(view(m, seat))
        truth = m.deals[-1].hands
        chain = Posterior(know, rng)
        for _ in range(16):
            drawn = {"posterior": chain.draw(), "uniform": know.sample(rng, inference=False)}
            for how, hands in drawn.items():
                right[how] += sum((hands[s] & truth[s]).bit_count() for s in range(4) if s != seat)
    assert right["posterior"] > 1.2 * right["uniform"], right


def test_the_strong_bots_chains_mostly_draw_deals_that_explain_every_play() -> None:
    import random

    from opentrix.bots.knowledge import Fit, Knowledge, Posterior

    bot = StrongBot(seed=1)
    explained = drawn = 0
    for game, m, seat in _basic_positions(["queens", "ltoosh"], "chains", trick_cards=1, hand_sizes=(10, 6)):
        know = Knowledge.from_view(view(m, seat))
        fit = Fit(know)
        chain = Posterior(know, random.Random(game), bot.eps, bot.thin, bot.burn, bot.trust, bot.chains)
        for _ in range(16):
            hands = chain.draw()
            explained += all(fit.misfits(s, hands[s]) == 0 for s in range(4) if s != seat)
            drawn += 1
    assert drawn >= 64
    assert explained >= 0.8 * drawn, (explained, drawn)


def test_a_seat_that_does_not_play_by_the_rules_of_thumb_is_no_longer_read() -> None:
    """Against a random seat, reading its play as a club player's misleads (the strong bot scored below
    uniform draws against random bots); once no chain explains its decisions it is read by the hard
    facts alone, while basic seats, whose every decision some deal explains, keep their full weight."""
    import random

    from opentrix.bots.knowledge import Knowledge, Posterior

    bot = StrongBot(seed=1)
    judged = dropped_random = dropped_basic = 0
    for game in range(12):
        m = _basic_deal("classic", ["queens", "ltoosh", "diamonds"][game % 3], f"judge-{game}")
        bots = [
            make_bot("basic", seed=0),
            make_bot("random", seed=game),
            make_bot("basic", seed=2),
            make_bot("basic", seed=3),
        ]
        while m.phase == Phase.PLAY and m.deal is not None and len(m.deal.plays) < 28:
            seat = m.turn
            assert seat is not None
            if seat == 0 and len(m.deal.plays) >= 16:
                know = Knowledge.from_view(view(m, 0))
                chain = Posterior(know, random.Random(game), bot.eps, bot.thin, bot.burn, bot.trust, bot.chains)
                for _ in range(bot.chains):
                    chain.draw()
                judged += 1
                weights = chain.weights or [-chain.log_eps] * 4
                dropped_random += weights[1] == 0.0
                dropped_basic += weights[2] == 0.0 or weights[3] == 0.0
                if chain.weights is not None:  # once dropped, every draw still keeps the hard facts
                    hands = chain.draw()
                    assert all(not hands[s] & know.banned[s] for s in range(4))
            m.apply(bots[seat].act(view(m, seat), m.legal_actions()))
    assert judged >= 12 and dropped_basic == 0
    assert dropped_random >= judged // 2, (dropped_random, judged)


def test_a_dropped_seat_asked_to_double_still_holds_a_doublable_card() -> None:
    """Dropping a seat's play leaves the facts: a seat asked in sequential doubling was dealt a queen."""
    import random

    from opentrix.bots.knowledge import Knowledge, Posterior
    from opentrix.cards import QUEENS

    bot = StrongBot(seed=1)
    checked = 0
    for game in range(30):
        m = _basic_deal("wikipedia", "queens", f"asked-{game}")
        bots = [make_bot("basic", seed=s) for s in range(4)]
        while m.phase != Phase.PLAY or m.turn != 0 or m.deal is None or len(m.deal.plays) < 8:
            if m.phase not in (Phase.CLAIM, Phase.DOUBLE, Phase.PLAY):
                break
            seat = m.turn
            assert seat is not None
            m.apply(bots[seat].act(view(m, seat), m.legal_actions()))
        else:
            know = Knowledge.from_view(view(m, 0))
            # asked, answered, and no queen of theirs seen yet: only the fact places one in their hand
            asked = [s for s in know.answers if s != 0 and not (know.played[s] | know.fixed[s]) & QUEENS]
            if not asked:
                continue
            chain = Posterior(know, random.Random(game), bot.eps, bot.thin, bot.burn, bot.trust, bot.chains)
            for _ in range(bot.chains):
                chain.draw()
            chain.weights = [0.0 if s in asked else -chain.log_eps for s in range(4)]  # as if dropped
            for _ in range(40):
                hands = chain.draw()
                assert all(hands[s] & QUEENS for s in asked), (game, asked)
            checked += 1
    assert checked >= 3, checked


def test_a_replay_that_reuses_unchanged_suits_counts_as_a_full_one() -> None:
    # The chains replay only the plays a swap can change (a card that followed suit depends on that
    # suit's cards alone); the count must be exactly the full replay's, or the draws would change.
    import random

    from opentrix.bots.knowledge import Fit, Knowledge

    reused = 0
    for game, m, seat in _basic_positions(["queens", "ltoosh", "diamonds"], "reuse", trick_cards=1, hand_sizes=(6,)):
        know = Knowledge.from_view(view(m, seat))
        fit = Fit(know)
        rng = random.Random(game)
        hands = know.sample(rng)
        for s in (s for s in range(4) if s != seat):
            out: list[bool] = []
            fit.misfits(s, hands[s], out=out)
            for _ in range(30):
                t = rng.choice([x for x in range(4) if x not in (s, seat)])
                x, y = rng.choice(cards_of(hands[s])), rng.choice(cards_of(hands[t]))
                new = hands[s] ^ (1 << x) ^ (1 << y)
                assert fit.misfits(s, new, before=(hands[s], out)) == fit.misfits(s, new)
                reused += x // 13 != y // 13
    assert reused > 20


def test_the_strong_bots_chains_draw_from_the_exact_posterior() -> None:
    """Against basic play the chains need no approximation: where each hidden card lies in their draws
    matches rejection sampling (hard-fact draws kept only if they explain every play seen), which is
    exact, far more closely than uniform draws do."""
    import random

    from opentrix.bots.knowledge import Fit, Knowledge, Posterior

    def marginals(draws: list[list[int]], seat: int) -> dict[tuple[int, int], float]:
        counts: dict[tuple[int, int], float] = {}
        for hands in draws:
            for s in range(4):
                if s != seat:
                    for c in CardSet(hands[s]):
                        counts[c, s] = counts.get((c, s), 0.0) + 1 / len(draws)
        return counts

    def distance(p: dict[tuple[int, int], float], q: dict[tuple[int, int], float]) -> float:
        return sum(abs(p.get(k, 0.0) - q.get(k, 0.0)) for k in p.keys() | q.keys()) / 2

    bot = StrongBot(seed=1)
    chains = uniform = 0.0
    positions = 0
    for game, m, seat in _basic_positions(["ltoosh", "trix", "queens"], "exact", trick_cards=0, hand_sizes=(8,)):
        rng = random.Random(game)
        know = Knowledge.from_view(view(m, seat))
        fit = Fit(know)
        exact: list[list[int]] = []
        for _ in range(3000):  # positions where rejection is slower are left out
            hands = know.sample(rng, inference=True)
            if all(fit.misfits(s, hands[s], 1) == 0 for s in range(4) if s != seat):
                exact.append(hands)
                if len(exact) == 150:
                    break
        else:
            continue
        chain = Posterior(know, rng, bot.eps, bot.thin, bot.burn, bot.trust, bot.chains)
        truth = marginals(exact, seat)
        chains += distance(marginals([chain.draw() for _ in range(150)], seat), truth)
        uniform += distance(marginals([know.sample(rng, inference=False) for _ in range(150)], seat), truth)
        positions += 1
        if positions == 4:
            break
    assert positions == 4
    assert chains < 0.3 * uniform, (chains, uniform)  # unweighted chains (eps=1) come to 0.4


# -- no table bot can see hidden cards ----------------------------------------------------------------


def _reshuffled(m: Match, seat: int, seed: int) -> Match:
    """The same history with the cards this seat cannot see dealt differently, as its view allows."""
    import random

    from opentrix.bots.knowledge import Knowledge

    deal = m.deal
    assert deal is not None
    know = Knowledge.from_view(view(m, seat))
    seven = parse_card("7H")
    if know.unseen >> seven & 1:  # the first king is the holder of 7♥: keep it where it is
        know.fixed[deal.king] |= 1 << seven
    hands = know.sample(random.Random(seed))
    dealt = [hands[s] | know.played[s] for s in range(4)]
    other = Match(m.rules, dealt)
    other.apply(A.choose(Contract(deal.contract)))
    # Which cards were doubled is public: the holders of the others decline.
    while other.phase in (Phase.CLAIM, Phase.DOUBLE):
        turn = other.turn
        assert turn is not None
        if other.phase == Phase.CLAIM:
            other.apply(A.NO_CLAIM)
        else:
            other.apply(A.double_mask(know.doubled & other.deals[-1].hands[turn]))
    for _, a in view(m, seat).plays:
        other.apply(a)
    return other


def _viewer(name: str, seed: object) -> Bot:
    if name == "strong":
        return quick_strong(seed)
    if name == "strong-lookahead":  # plans its next card from groups of drawn deals: still only the view
        return StrongBot(seed=str(seed), samples=4, budget_ms=None, lookahead=1, group=2)
    return BasicBot(seed=seed)


@pytest.mark.parametrize("name", ["basic", "strong", "strong-lookahead"])
@pytest.mark.parametrize("preset", ["classic", "wikipedia"])
def test_decisions_depend_only_on_the_view(name: str, preset: str) -> None:
    checked = 0
    for game in range(3):
        m = Match(Rules.preset(preset), seed=f"peek-{game}")
        m.apply(m.legal_actions()[game % len(m.legal_actions())])
        walker = make_bot("basic", seed=game)
        step = 0
        while m.phase not in (Phase.DEAL_OVER, Phase.MATCH_OVER):
            seat = m.turn
            assert seat is not None
            legal = m.legal_actions()
            if m.phase == Phase.PLAY and step % 5 == 2 and len(legal) > 1:
                # Who was asked about doubling shows who holds a doublable card: redraw until the views agree.
                twin = next(
                    t
                    for t in (_reshuffled(m, seat, step + 1000 * i) for i in range(200))
                    if view(t, seat) == view(m, seat)
                )
                assert twin.deal is not None and m.deal is not None
                assert twin.deal.hands != m.deal.hands or step > 40  # hidden cards really moved
                a, b = _viewer(name, step), _viewer(name, step)
                assert a.act(view(m, seat), legal) == b.act(view(twin, seat), twin.legal_actions())
                checked += 1
            m.apply(walker.act(view(m, seat), legal))
            step += 1
    assert checked >= 10


def _twin(m: Match, seat: int, seed: int) -> Match | None:
    """The whole match replayed with this seat's hidden cards dealt anew as its view allows, or None
    when the draw does not replay to the same view (who was asked to double tells whose cards)."""
    import random

    from opentrix.bots.knowledge import Knowledge

    v = view(m, seat)
    know = Knowledge.from_view(v)
    seven = parse_card("7H")
    if know.unseen >> seven & 1:  # the first king is the holder of 7♥: keep it where it is
        know.fixed[m.first_king] |= 1 << seven
    hands = know.sample(random.Random(seed))
    twin = Match(m.rules, [hands[s] | know.played[s] for s in range(4)])
    try:
        for a in m.history:
            twin.apply(a)
    except TrixError:
        return None
    return twin if view(twin, seat) == v else None


def _hidden(m: Match) -> object:
    return m.pending_hands if m.phase == Phase.CHOOSE_CONTRACT else m.deal and m.deal.hands


@pytest.mark.parametrize("name", ["random", "novice", "basic", "strong", "strong-uniform"])
def test_choices_before_the_cards_depend_only_on_the_view(name: str) -> None:
    """The king's contract, redeal claims and doubling answers: the same with the hidden cards moved."""
    options = {"samples": 16, "budget_ms": None, "chains": 2, "burn": 50} if name.startswith("strong") else {}
    checked: dict[Phase, int] = {}
    for preset in ("wikipedia", "denexa", "online"):
        for game in [*range(6), *((50, 75) if preset == "wikipedia" else ())]:  # 50, 75: a redeal may be claimed
            m = Match(Rules.preset(preset), seed=f"peek-early-{game}")
            walker = make_bot("basic", seed=game)
            while m.phase not in (Phase.PLAY, Phase.DEAL_OVER, Phase.MATCH_OVER):
                seat = m.turn
                assert seat is not None
                legal = m.legal_actions()
                if len(legal) > 1:
                    twin = next((t for t in (_twin(m, seat, 1000 * game + i) for i in range(300)) if t), None)
                    if twin is not None:
                        assert _hidden(twin) != _hidden(m)  # the hidden cards really moved
                        a = make_bot(name, seed=5, **options).act(view(m, seat), legal)
                        b = make_bot(name, seed=5, **options).act(view(twin, seat), twin.legal_actions())
                        assert a == b, (preset, game, m.phase)
                        checked[m.phase] = checked.get(m.phase, 0) + 1
                if m.phase == Phase.CHOOSE_CONTRACT:  # every contract in turn, so doubling comes up
                    m.apply(legal[game % len(legal)])
                else:
                    m.apply(walker.act(view(m, seat), legal))
    assert checked.get(Phase.CHOOSE_CONTRACT, 0) >= 15 and checked.get(Phase.DOUBLE, 0) >= 5, checked
    assert checked.get(Phase.CLAIM, 0) >= 2, checked


def test_the_cheat_never_acts_on_a_view() -> None:
    m = Match(Rules.preset("classic"), seed=1)
    bot = CheatBot(seed=1)
    with pytest.raises(RuntimeError, match="arena"):
        bot.act(view(m, m.king), m.legal_actions())
    assert bot.act_full(m, m.king, m.legal_actions()) in m.legal_actions()


def test_hindsight_plays_as_strong_before_its_trick_and_as_the_cheat_from_it() -> None:
    # The arena splits the gap to the cheat by trick with it, so both halves must be the real bots.
    told_apart = [0, 0]  # positions where strong and the cheat differ, before and from trick 3
    for seed in range(4):
        m = Match(Rules.preset("classic"), seed=seed)
        m.apply(A.choose(Contract.LTOOSH))
        hind = HindsightBot(seed="s", trick=3, samples=6)
        strong = StrongBot(seed="s", samples=6, budget_ms=None)
        cheat = CheatBot(seed="s")
        walker = BasicBot(seed=0)
        while m.phase == Phase.PLAY:
            seat = m.turn
            assert seat is not None and m.deal is not None
            legal = m.legal_actions()
            if seat == 1:
                late = len(m.deal.plays) // 4 + 1 >= 3
                got = hind.act_full(m, seat, legal)
                by_strong, by_cheat = strong.act(view(m, seat), legal), cheat.act_full(m, seat, legal)
                assert got == (by_cheat if late else by_strong), f"deal {seed}, trick {len(m.deal.plays) // 4 + 1}"
                told_apart[late] += by_strong != by_cheat
                m.apply(got)
            else:
                m.apply(walker.act(view(m, seat), legal))
    assert all(told_apart), told_apart
    with pytest.raises(ValueError, match="trick"):
        HindsightBot(seed=1, trick=0)


def test_hindsight_is_strong_again_after_the_arena_reseeds_it() -> None:
    """Reseeded (as a program driving it may do between deals), up to its trick the hindsight bot is
    ``strong`` with that seed, not a reader left where the last deal stopped."""
    positions = 0
    for seed in range(3):
        m = Match(Rules.preset("classic"), seed=seed)
        m.apply(A.choose(Contract.QUEENS))
        hind = HindsightBot(seed="s", trick=14, samples=6)
        strong = StrongBot(seed="s", samples=6, budget_ms=None)
        walker = BasicBot(seed=0)
        hind.act_full(m, m.turn or 0, m.legal_actions())  # the last deal's decisions, strong's not
        hind.reseed(f"deal {seed}")
        strong.reseed(f"deal {seed}")
        while m.phase == Phase.PLAY:
            seat = m.turn
            assert seat is not None
            legal = m.legal_actions()
            if seat == 2 and len(legal) > 1:
                got = hind.act_full(m, seat, legal)
                assert got == strong.act(view(m, seat), legal), f"deal {seed}, play {len(m.history)}"
                positions += 1
                m.apply(got)
            else:
                m.apply(walker.act(view(m, seat), legal))
    assert positions >= 10


def test_hindsight_is_strong_before_its_trick_in_a_kingdoms_later_deals() -> None:
    """The arena's kingdom mode seeds each bot once for the whole kingdom: in the second deal, before
    its trick, the hindsight bot must still play as ``strong`` played on, though in the first deal it
    played as the cheat from that trick."""
    positions = 0
    for seed in range(3):
        m = Match(Rules.preset("classic", kingdoms=1, tiebreak="none"), seed=seed)
        hind = HindsightBot(seed="s", trick=3, samples=6, chains=1, burn=0)
        strong = StrongBot(seed="s", budget_ms=None, samples=6, chains=1, burn=0)
        walker = BasicBot(seed=0)
        for n, contract in enumerate((Contract.LTOOSH, Contract.QUEENS)):
            if n:
                m.start_deal()
            m.apply(A.choose(contract))
            while m.phase == Phase.PLAY:
                seat, legal = m.turn, m.legal_actions()
                assert seat is not None and m.deal is not None
                if seat == 1 and len(legal) > 1:
                    got = hind.act_full(m, seat, legal)
                    by_strong = strong.act(view(m, seat), legal)  # strong decides every move, as at a table
                    if n == 1 and len(m.deal.plays) // 4 + 1 < 3:
                        assert got == by_strong, f"seed {seed}, play {len(m.deal.plays)}"
                        positions += 1
                    m.apply(got)
                else:
                    m.apply(walker.act(view(m, seat), legal))
    assert positions >= 4


def test_contracts_enum_covers_complex() -> None:
    # Complex rules have two contracts; the basic bot must pick one of them.
    m = Match(Rules.preset("complex"), seed=3)
    assert basic_choice(m)[0] in (A.choose(Contract.COMPLEX), A.choose(Contract.TRIX))


@pytest.mark.parametrize("name", ["random", "basic", "easy", "strong"])
def test_a_bot_asked_with_nothing_to_decide_or_no_seat_says_so(name: str) -> None:
    m = Match(Rules(), seed=3)
    bot = make_bot(name, seed=1)
    with pytest.raises(ValueError, match="no legal actions for seat"):
        bot.act(view(m, m.turn), [])
    with pytest.raises(ValueError, match="a spectator's view"):
        bot.explain(view(m, None), m.legal_actions())
    with pytest.raises(ValueError, match="seat must be 0 to 3 or None, not True"):
        view(m, True)  # type: ignore[arg-type]


def test_the_input_check_keeps_every_bot_subclass_working() -> None:
    """Subclasses with extra keywords or a static explain, and legal actions held in a NumPy array."""
    import numpy as np

    class Greedy(BasicBot):
        def act(self, view: View, legal: Sequence[int], *, greedy: bool = False) -> int:
            return legal[0] if greedy else super().act(view, legal)

        @staticmethod
        def explain(view: View, legal: Sequence[int]) -> tuple[int, str]:  # type: ignore[override]
            return legal[0], "the first"

    m = Match(Rules(), seed=3)
    v = view(m, m.turn)
    legal = m.legal_actions()
    bot = Greedy(seed=1)
    assert bot.act(v, legal, greedy=True) == legal[0]
    assert bot.explain(v, legal) == (legal[0], "the first")
    assert make_bot("random", seed=1).act(v, np.array(legal)) in legal


def test_a_bot_whose_parts_are_missing_names_the_pip_command(monkeypatch: pytest.MonkeyPatch) -> None:
    """An optional bot whose module cannot be imported says what to install (the arena says the same,
    not 'bad option')."""
    from opentrix import bots
    from opentrix.arena.spec import SpecError, parse_spec

    monkeypatch.setitem(bots.EXTERNAL, "ghost", "opentrix_no_such_module:Ghost")
    monkeypatch.setitem(bots.EXTRAS, "ghost", "rl")
    with pytest.raises(
        bots.MissingPart, match=r"bot 'ghost' needs parts not installed .*: pip install 'opentrix\[rl\]'"
    ):
        bots.make_bot("ghost")
    with pytest.raises(SpecError, match=r"^bot 'ghost' needs parts not installed"):
        parse_spec("ghost")


@pytest.mark.parametrize("contract", ["ltoosh", "diamonds", "queens"])
def test_a_card_on_the_table_keeps_a_duck_and_a_win_apart(contract: str) -> None:
    """With 5♠ led, 4♠ ducks and 6♠ wins: the search must weigh both, though 5♠ has left every hand."""
    from opentrix.bots.knowledge import Knowledge
    from opentrix.bots.strong import candidates

    deck = [A.to_str(c) for c in range(52)]
    h0 = ["5S", "AH", "KH", "QH", "JH", "TH", "9H", "8H", "7H", "6H", "5H", "4H", "3H"]  # the king (7♥) leads 5♠
    h1 = ["2S", "2H", "AD", "KD", "QD", "JD", "TD", "9D", "8D", "7D", "6D", "5D", "4D"]
    h2 = ["3S", "3D", "2D", "AC", "KC", "QC", "JC", "TC", "9C", "8C", "7C", "6C", "5C"]
    h3 = [c for c in deck if c not in {*h0, *h1, *h2}]  # 4♠ 6♠ … A♠ and three clubs
    hands = [sum(1 << parse_card(c) for c in h) for h in (h0, h1, h2, h3)]
    m = Match(Rules.preset("classic"), hands)
    m.apply(A.choose(contract))
    for card in ("5S", "2S", "3S"):
        m.apply(parse_card(card))
    options = {A.to_str(a) for a in candidates(Knowledge.from_view(view(m, 3)), m.legal_actions())}
    assert {"4S", "6S"} <= options
    assert "7S" not in options  # 6♠ and 7♠ still do the same


def test_an_ace_of_hearts_makes_king_of_hearts_riskier_for_the_king() -> None:
    from opentrix.bots.policy import contract_scores

    rules = Rules.preset("classic")
    koh = int(Contract.KING_OF_HEARTS)
    spades = "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS"
    ace, low = (sum(1 << parse_card(c) for c in f"{h} {spades}".split()) for h in ("AH 2H", "3H 2H"))
    assert contract_scores(rules, ace, [koh])[koh] < contract_scores(rules, low, [koh])[koh]


def test_in_partnership_the_contract_baselines_are_team_scores(monkeypatch: pytest.MonkeyPatch) -> None:
    """The search values a partnership seat by its team's score, so what it compares with must be one too."""
    from opentrix.bots import strong
    from opentrix.bots.simulate import rollout
    from opentrix.deal import Deal, deal_hands

    monkeypatch.setattr(strong, "_BASELINES", {})
    rules = Rules.preset("online", partnership=True)
    trix = int(Contract.TRIX)
    king, other = strong.baselines(rules, deals=6)[trix]
    scores = [rollout(Deal(rules, 0, trix, deal_hands("opentrix-baselines", i))) for i in range(6)]
    assert king == pytest.approx(sum(sc[0] + sc[2] for sc in scores) / 6)
    assert other == pytest.approx(sum(sc[1] + sc[3] for sc in scores) / 6)


def test_a_seat_asked_in_sequential_doubling_is_dealt_a_doublable_card_in_every_draw() -> None:
    """Only the holders of a doublable card are asked: a hard fact, like a void, in every draw."""
    import random

    from opentrix.bots.knowledge import Knowledge, Posterior

    rules = Rules.preset("wikipedia")  # sequential doubling
    checked = 0
    for seed in range(40):
        m = Match(rules, seed=f"q{seed}")
        m.apply(A.choose(Contract.QUEENS))
        asked = []
        while m.phase == Phase.DOUBLE:
            asked.append(m.turn)
            m.apply(A.NO_DOUBLE)
        me = next((s for s in range(4) if s not in asked), None)
        if me is None or len(asked) < 3:
            continue
        know = Knowledge.from_view(view(m, me))
        rng = random.Random(seed)
        draws = [know.sample(rng, True, trust) for trust in (0.0, 0.9) for _ in range(100)]
        chain = Posterior(know, rng, eps=1e-4, chains=2, burn=50)
        draws += [chain.draw() for _ in range(100)]
        assert all(h[s] & QUEEN_MASK for h in draws for s in asked), f"seed q{seed}"
        checked += 1
    assert checked >= 3


def _void_on_seat_zeros_trick(partnership: bool, double_queen: bool) -> Match:
    """Queens: seat 0 leads A♣, seat 1 follows, seat 2 (seat 0's partner when in partnership) is void."""
    spec = {0: "7H AC", 1: "3C", 2: "QD 2S 3S 4S 5S 6S 7S 8S 9S TS JS 3D AD"}
    m = Match(Rules.preset("denexa").with_options(partnership=partnership), build_hands(spec))
    m.apply(A.choose("queens"))
    while m.phase in (Phase.CLAIM, Phase.DOUBLE):
        if m.phase == Phase.CLAIM:
            m.apply(A.NO_CLAIM)
        else:
            m.apply(A.double("QD") if double_queen and m.turn == 2 else A.NO_DOUBLE)
    for p in ("AC", "3C"):
        m.apply(A.parse(p))
    assert m.turn == 2
    return m


@pytest.mark.parametrize("double_queen", [False, True])
def test_no_penalty_card_is_dumped_on_the_partners_trick(double_queen: bool) -> None:
    card, reason = basic_choice(_void_on_seat_zeros_trick(True, double_queen))
    assert card != parse_card("QD") and "partner" in reason  # the partner would pay for it
    # the same cards, every seat for itself: on an opponent's trick the queen goes
    assert basic_choice(_void_on_seat_zeros_trick(False, double_queen))[0] == parse_card("QD")


def test_the_rules_of_thumb_double_the_same_cards_everywhere() -> None:
    """One answer (``policy.doubles``) behind basic at the table, the rollouts' prelude and the
    reading of others' answers: basic's own doubling decisions agree with it, card for card."""
    from opentrix.bots.policy import doubles
    from opentrix.bots.simulate import drive_prelude
    from opentrix.deal import DOUBLABLE_IN

    rules = Rules.preset("denexa")
    asked = 0
    for seed in range(60):
        for contract in ("king_of_hearts", "queens"):
            m = Match(rules, seed=seed)
            m.apply(A.choose(contract))
            sim = m.deal.copy()  # type: ignore[union-attr]
            drive_prelude(sim)
            while m.phase == Phase.DOUBLE:
                seat = m.turn
                assert seat is not None
                hand = m.deal.hands[seat]  # type: ignore[union-attr]
                want = doubles(
                    rules, int(Contract.parse(contract)), hand, hand & DOUBLABLE_IN[int(Contract.parse(contract))]
                )
                action = BasicBot(seed=1).act(view(m, seat), m.legal_actions())
                assert action == (A.double_mask(want) if want else A.NO_DOUBLE), (seed, contract, seat)
                asked += 1
                m.apply(action)
            assert m.deal.doubled == sim.doubled  # type: ignore[union-attr]
    assert asked > 60


def test_the_posteriors_defaults_are_the_strong_bots() -> None:
    import inspect

    from opentrix.bots.knowledge import Posterior

    bot = inspect.signature(StrongBot).parameters
    for name, p in inspect.signature(Posterior).parameters.items():
        if p.default is not inspect.Parameter.empty:
            assert bot[name].default == p.default, name
