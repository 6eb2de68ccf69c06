"""The OpenSpiel adapter: the game plays to the end, resampling keeps the infostate, OpenSpiel's
search runs on it, and the IS-MCTS bot decides from views only."""

from __future__ import annotations

import numpy as np
import pytest

pyspiel = pytest.importorskip("pyspiel")

from open_spiel.python.algorithms import ismcts, mcts  # noqa: E402

from opentrix import Match, Rules, view  # noqa: E402
from opentrix import actions as A  # noqa: E402
from opentrix.actions import NUM_ACTIONS  # noqa: E402
from opentrix.bots import make_bot  # noqa: E402
from opentrix.cards import Card, CardSet  # noqa: E402
from opentrix.deal import Phase  # noqa: E402
from opentrix.env.observation import OBS_SIZE  # noqa: E402
from opentrix.env.openspiel_game import SHORT_NAME  # noqa: E402

TOTALS = {0: -75, 1: -100, 2: -130, 3: -195, 4: 500}


def _random_game(game: object, rng: np.random.RandomState) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
        else:
            legal = state.legal_actions()
            assert legal == sorted(legal)
            state.apply_action(legal[rng.randint(len(legal))])
    return state


def test_random_games_play_to_the_end() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    assert game.num_players() == 4 and game.num_distinct_actions() == NUM_ACTIONS
    rng = np.random.RandomState(0)
    for _ in range(25):
        state = _random_game(game, rng)
        deal = state.match.deals[-1]
        assert sum(state.returns()) == TOTALS[deal.contract]


def test_seeded_game_has_no_chance_node_and_fixed_contract() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"rules": "wikipedia", "contract": "trix", "seed": 3})
    state = game.new_initial_state()
    assert not state.is_chance_node()
    final = _random_game(game, np.random.RandomState(1))
    assert sorted(final.returns()) in ([0.0] * 4, [50.0, 100.0, 150.0, 200.0])  # a throw-in, or the race


def test_infostate_observation_and_resampling() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"rules": "denexa"})
    rng = np.random.RandomState(2)
    state = game.new_initial_state()
    differs = 0
    steps = 0
    while not state.is_terminal() and steps < 200:
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            state.apply_action(outcomes[rng.randint(len(outcomes))][0])
            continue
        player = state.current_player()
        key = state.information_state_string(player)
        assert len(state.observation_tensor(player)) == OBS_SIZE
        assert state.information_state_string((player + 1) % 4) != key
        other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
        assert other.information_state_string(player) == key
        assert other.legal_actions() == state.legal_actions()
        differs += str(other) != str(state)
        clone = state.clone()
        assert clone.information_state_string(player) == key
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
        steps += 1
        assert clone.information_state_string(player) == key  # the clone is independent
    assert differs > steps // 2


@pytest.mark.parametrize("rules", ["wikipedia", "complex", "denexa", "online"])
def test_every_player_may_resample_in_the_claim_and_doubling_phases(rules: str) -> None:
    """Not only the player to act: a seat waiting while another answers a redeal or doubling question
    resamples too (the world was replayed up to the observer's own turn and never reached the decision,
    and the seat being asked was not known to hold a doublable card)."""
    game = pyspiel.load_game(SHORT_NAME, {"rules": rules})
    rng = np.random.RandomState(4)
    asked = 0
    for _ in range(40):
        state = game.new_initial_state()
        while not state.is_terminal() and asked < 400:
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randint(len(outcomes))][0])
                continue
            if state.match.phase in (Phase.CLAIM, Phase.DOUBLE):
                for player in range(4):
                    other = state.resample_from_infostate(player, pyspiel.UniformProbabilitySampler(0.0, 1.0))
                    assert other.information_state_string(player) == state.information_state_string(player)
                    assert other.current_player() == state.current_player()
                    asked += 1
            elif state.match.phase == Phase.PLAY:
                break  # past the questions: another deal
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    assert asked >= 100


def test_openspiel_ismcts_and_mcts_run_on_the_game() -> None:
    game = pyspiel.load_game(SHORT_NAME, {"returns": "advantage", "scale": 100.0})
    rng = np.random.RandomState(3)
    state = game.new_initial_state()
    while state.is_chance_node():
        outcomes = state.chance_outcomes()
        state.apply_action(outcomes[rng.randint(len(outcomes))][0])
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=1, random_state=rng)
    is_bot = ismcts.ISMCTSBot(game, evaluator, uct_c=0.7, max_simulations=30, random_state=rng)
    mcts_bot = mcts.MCTSBot(game, uct_c=0.7, max_simulations=30, evaluator=evaluator, random_state=rng)
    moves = 0
    while not state.is_terminal() and moves < 12:
        bot = is_bot if moves % 2 == 0 else mcts_bot
        action = bot.step(state)
        assert action in state.legal_actions()
        state.apply_action(action)
        moves += 1
    assert moves == 12


@pytest.mark.parametrize(
    "rules",
    [Rules.preset("classic"), Rules.preset("wikipedia"), Rules.preset("classic", doubling=True)],
    ids=["classic", "wikipedia", "doubling"],
)
def test_openspiel_ismcts_bot_returns_legal_actions_from_the_view(rules: Rules) -> None:
    bot = make_bot("openspiel-ismcts", seed=1, simulations=15)
    others = [make_bot("random", seed=s) for s in range(3)]
    m = Match(rules, seed=12)
    decisions = 0
    while len(m.deals) < 3 or m.turn is not None:
        if m.turn is None:
            m.start_deal()
            continue
        v = view(m, m.turn)
        if m.turn == 0:
            action = bot.act(v, v.legal_actions)
            decisions += 1
        else:
            action = others[m.turn - 1].act(v, v.legal_actions)
        assert action in v.legal_actions
        m.apply(action)
    assert decisions >= 20


def test_openspiel_ismcts_bot_rejects_unknown_options() -> None:
    with pytest.raises(ValueError, match="unknown options"):
        make_bot("openspiel-ismcts", seed=1, depth=3)


def test_infostate_tells_who_was_asked_to_double() -> None:
    """Sequential doubling asks only the holders of a queen: seat 0 sees whether seat 1 or seat 2 was
    asked (and declined), so the two states are different information states for it."""
    game = pyspiel.load_game(SHORT_NAME, {"rules": "wikipedia", "contract": "queens"})
    queens = [int(Card.parse(q)) for q in ("QS", "QH", "QD", "QC")]
    seven = int(Card.parse("7H"))
    rest = [c for c in range(52) if c not in queens and c != seven]
    mine, x, y, z = [seven, *rest[:12]], rest[12:21], rest[21:34], rest[34:]  # seat 0, the king: no queen

    def declined_by(seat: int) -> object:
        hands = [mine, queens + x, y, z] if seat == 1 else [mine, y, queens + x, z]
        state = game.new_initial_state()
        for i in range(13):
            for s in range(4):
                state.apply_action(sorted(hands[s])[i])  # chance deals card i to seat i % 4
        assert state.current_player() == seat  # the only seat asked
        state.apply_action(A.NO_DOUBLE)
        return state

    a, b = declined_by(1), declined_by(2)
    assert a.current_player() == b.current_player() == 0 and a.legal_actions() == b.legal_actions()
    assert a.information_state_string(0) != b.information_state_string(0)


def test_public_observer_shows_no_cards_of_any_seat() -> None:
    """``PrivateInfoType.NONE`` asks for what everyone sees: no hand, and nothing that changes when the
    unseen cards (the observing seat's own included) are dealt again."""
    from open_spiel.python.observation import make_observation

    game = pyspiel.load_game(SHORT_NAME, {"rules": "wikipedia", "seed": 5})
    kind = pyspiel.PrivateInfoType
    public = make_observation(game, pyspiel.IIGObservationType(perfect_recall=True, private_info=kind.NONE))
    state = _random_game_prefix(game, np.random.RandomState(4), moves=20)
    public.set_from(state, 0)
    tensor, text = public.tensor.copy(), public.string_from(state, 0)
    assert not tensor[:52].any() and "hand:-" in text
    other = state.resample_from_infostate(1, pyspiel.UniformProbabilitySampler(0.0, 1.0))  # seat 0's cards too
    assert str(other) != str(state)
    public.set_from(other, 0)
    assert np.array_equal(public.tensor, tensor) and public.string_from(other, 0) == text
    with pytest.raises(ValueError, match="ALL_PLAYERS"):
        make_observation(game, pyspiel.IIGObservationType(perfect_recall=False, private_info=kind.ALL_PLAYERS))


def _random_game_prefix(game: object, rng: np.random.RandomState, moves: int) -> object:
    state = game.new_initial_state()  # type: ignore[attr-defined]
    for _ in range(moves):
        legal = state.legal_actions()
        state.apply_action(legal[rng.randint(len(legal))])
    return state


def test_bad_chance_outcomes_and_parameters_are_clear_errors() -> None:
    game = pyspiel.load_game(SHORT_NAME)
    state = game.new_initial_state()
    state.apply_action(5)
    for bad in (5, 52, 60):  # a card already dealt, or no card at all
        with pytest.raises(ValueError, match="each card 0-51 once"):
            state.apply_action(bad)
    assert state.history() == [5] and len(state.chance_outcomes()) == 51  # nothing was dealt
    for scale in (0.0, -1.0, float("inf"), float("nan")):
        with pytest.raises(ValueError, match="scale must be a positive number"):
            pyspiel.load_game(SHORT_NAME, {"scale": scale})
    # rules that are not base64 are not read as no rules at all, and bad JSON says it is the rules
    with pytest.raises(ValueError, match="rules 'b64:!!!': not base64 of rules JSON"):
        pyspiel.load_game(SHORT_NAME, {"rules": "b64:!!!"})
    with pytest.raises(ValueError, match=r"rules: not valid JSON \(Expecting"):
        pyspiel.load_game(SHORT_NAME, {"rules": "{bad"})


def test_a_game_with_rules_json_loads_again_from_its_string_and_serializes() -> None:
    """Rules JSON cannot stand in a game string (its commas are the string's own syntax): the game
    keeps it in base64, so str(game) and serialized states load the same game again."""
    import json

    rules = Rules.preset("online", partnership=True)
    game = pyspiel.load_game(SHORT_NAME, {"rules": json.dumps(rules.to_json()), "seed": 3})
    again = pyspiel.load_game(str(game))
    assert again.rules == rules and str(again) == str(game)
    state = game.new_initial_state()
    state.apply_action(state.legal_actions()[0])
    game2, state2 = pyspiel.deserialize_game_and_state(pyspiel.serialize_game_and_state(game, state))
    assert game2.rules == rules and state2.history() == state.history()
    with pytest.raises(ValueError, match="seed is -1"):
        pyspiel.load_game(SHORT_NAME, {"seed": -5})
    import copy
    import pickle

    for copied in (pickle.loads(pickle.dumps(game)), copy.deepcopy(game)):  # it lost its rules before
        assert copied.rules == rules and str(copied) == str(game)


def test_ismcts_on_a_seeded_game_repeats_once_its_resampling_is_reseeded() -> None:
    def run() -> list[int]:
        game = pyspiel.load_game(SHORT_NAME, {"seed": 4, "contract": "ltoosh"})
        evaluator = mcts.RandomRolloutEvaluator(1, np.random.RandomState(1))
        bot = ismcts.ISMCTSBot(game, evaluator, 0.7, 40, random_state=np.random.RandomState(0))
        state, out = game.new_initial_state(), []
        for _ in range(6):
            out.append(bot.step(state))
            state.apply_action(out[-1])
        return out

    assert run() == run()


def test_information_state_tensor_has_perfect_recall() -> None:
    """The same two tricks in the other order are another information state for every seat: the
    tensor says so as the string does (it holds the plays in order, not only where the cards went)."""
    from opentrix.env.openspiel_game import INFO_STATE_SIZE, TrixState

    hands = [
        "AS KS QS AH KH QH 7H 2C 3C 4C 5C 6C 7C",
        "2S 5S 8S JS 2H 5H 8H JH 2D 5D 8D JD 8C",
        "3S 6S 9S 3H 6H 9H 3D 6D 9D QD AD 9C TC",
        "4S 7S TS 4H TH 4D 7D TD KD JC QC KC AC",
    ]
    game = pyspiel.load_game(SHORT_NAME, {"contract": "ltoosh"})

    def after(*tricks: str) -> object:
        m = Match(Rules.preset("classic"), [int(CardSet.parse(h)) for h in hands])
        m.apply(A.choose("ltoosh"))
        for trick in tricks:
            for card in trick.split():
                m.apply(int(Card.parse(card)))
        return TrixState(game, m)

    a, b = after("AS 2S 3S 4S", "AH 2H 3H 4H"), after("AH 2H 3H 4H", "AS 2S 3S 4S")
    assert game.information_state_tensor_shape() == [INFO_STATE_SIZE]
    for seat in range(4):
        assert a.observation_tensor(seat) == b.observation_tensor(seat)  # an observation forgets the order
        assert a.information_state_string(seat) != b.information_state_string(seat)
        assert a.information_state_tensor(seat) != b.information_state_tensor(seat)


@pytest.mark.parametrize(("rules", "contract"), [("classic", ""), ("wikipedia", ""), ("denexa", "trix")])
def test_strings_and_tensors_tell_the_same_states_apart(rules: str, contract: str) -> None:
    """Over random deals, questions, tricks and Trix passes: one information state string, one tensor
    and back; an observation string holds at least what its tensor does; and a world drawn again for
    the observing seat shows it the same string and tensors."""
    game = pyspiel.load_game(SHORT_NAME, {"rules": rules, "contract": contract})
    rng = np.random.RandomState(0)
    info: dict[tuple[int, str], set[bytes]] = {}
    back: dict[tuple[int, bytes], set[str]] = {}
    obs: dict[tuple[int, str], set[bytes]] = {}
    sampler = pyspiel.UniformProbabilitySampler(0.0, 1.0)
    for game_no in range(16):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[rng.randint(len(state.chance_outcomes()))][0])
        for step in range(70):
            if state.is_terminal():
                break
            for p in range(4):
                key, tensor = state.information_state_string(p), np.asarray(state.information_state_tensor(p)).tobytes()
                info.setdefault((p, key), set()).add(tensor)
                back.setdefault((p, tensor), set()).add(key)
                obs.setdefault((p, state.observation_string(p)), set()).add(
                    np.asarray(state.observation_tensor(p)).tobytes()
                )
            if step % 9 == game_no % 9:
                p = state.current_player()
                other = state.resample_from_infostate(p, sampler)
                assert other.information_state_string(p) == state.information_state_string(p)
                assert other.information_state_tensor(p) == state.information_state_tensor(p)
                assert other.observation_string(p) == state.observation_string(p)
                assert other.observation_tensor(p) == state.observation_tensor(p)
            legal = state.legal_actions()
            state.apply_action(legal[rng.randint(len(legal))])
    assert all(len(t) == 1 for t in info.values()) and all(len(k) == 1 for k in back.values())
    assert all(len(t) == 1 for t in obs.values())
    assert len(info) > 2000


def test_resampled_deals_keep_the_7h_with_the_king() -> None:
    """One game is a match's first deal, whose king was dealt the 7♥: a world drawn for a seat that
    has not seen it played keeps it with the king, and the seat's information state is unchanged."""
    game = pyspiel.load_game(SHORT_NAME, {"contract": "queens"})
    rng = np.random.RandomState(3)
    seven = int(Card.parse("7H"))
    drawn = 0
    for _ in range(40):
        state = game.new_initial_state()
        while state.is_chance_node():
            state.apply_action(state.chance_outcomes()[rng.randint(len(state.chance_outcomes()))][0])
        for _ in range(rng.randint(3)):
            state.apply_action(state.legal_actions()[0])
        king = state.match.deals[-1].king
        for p in range(4):
            if p == king:
                continue
            other = state.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.match.deals[-1].dealt[king] >> seven & 1
            assert other.information_state_tensor(p) == state.information_state_tensor(p)
            drawn += 1
    assert drawn == 120


def test_in_partnership_returns_are_team_scores() -> None:
    import json

    rules = json.dumps({"preset": "classic", "partnership": True})  # no doubling: a fixed total
    game = pyspiel.load_game(SHORT_NAME, {"rules": rules, "contract": "queens"})
    state = _random_game(game, np.random.RandomState(4))
    scores = state.match.deals[-1].scores
    team = [scores[s] + scores[s ^ 2] for s in range(4)]
    assert state.returns() == [float(t) for t in team]
    adv = pyspiel.load_game(SHORT_NAME, {"rules": rules, "contract": "queens", "returns": "advantage"})
    state = _random_game(adv, np.random.RandomState(4))
    assert sum(state.returns()) == pytest.approx(0.0)  # each team against half the contract's total


def test_a_thrown_in_deals_terminal_observation_is_of_that_deal() -> None:
    """Wikipedia rules, seed 3, King of Hearts: seat 0 claims a redeal, and the deal ends thrown in.
    Its terminal observation leaves King of Hearts out of the contracts left to name, as the deal's
    own observations did (the king may name it again, but in the next deal); the strings agree."""
    from opentrix.env.observation import LAYOUT

    game = pyspiel.load_game(SHORT_NAME, {"rules": "wikipedia", "contract": "king_of_hearts", "seed": 3})
    state = game.new_initial_state()
    while state.legal_actions() == [A.NO_CLAIM]:  # the seats before seat 0 have no claim
        state.apply_action(A.NO_CLAIM)
    assert state.current_player() == 0 and A.CLAIM in state.legal_actions()
    before = [np.asarray(state.observation_tensor(p))[LAYOUT["available"]] for p in range(4)]
    state.apply_action(A.CLAIM)
    assert state.is_terminal() and state.match.deals[-1].thrown_in is not None
    for p in range(4):
        after = np.asarray(state.observation_tensor(p))[LAYOUT["available"]]
        assert after.tolist() == before[p].tolist() == [0, 1, 1, 1, 1, 0]
        assert " avail:1,2,3,4 " in state.information_state_string(p)
        assert " avail:1,2,3,4 " in state.observation_string(p)


def test_a_thrown_in_deal_ends_with_what_the_seats_know_and_resamples_as_itself() -> None:
    """A King of Hearts deal thrown in during the claims (wikipedia) asked nobody to double: the final
    observation marks K♥ absent from no seat (the claimer holds it), and a finished game, with nothing
    left to decide, resamples as itself for every player (its totals are not counted twice)."""
    from opentrix.env.observation import LAYOUT

    game = pyspiel.load_game(SHORT_NAME, {"rules": "wikipedia", "contract": "king_of_hearts", "seed": 3})
    state = game.new_initial_state()
    while A.CLAIM not in state.legal_actions():
        state.apply_action(A.NO_CLAIM)
    claimer = state.current_player()
    state.apply_action(A.CLAIM)
    assert state.is_terminal()
    kh = int(Card.parse("KH"))
    for p in range(4):
        t = state.observation_tensor(p)
        assert not any(t[LAYOUT[f"absent_{r}"].start + kh] for r in (1, 2, 3)), p
    finished = _random_game(pyspiel.load_game(SHORT_NAME, {"rules": "classic", "seed": 5}), np.random.RandomState(0))
    for done in (state, finished):
        for p in range(4):
            other = done.resample_from_infostate(p, pyspiel.UniformProbabilitySampler(0.0, 1.0))
            assert other.information_state_string(p) == done.information_state_string(p)
            assert other.returns() == done.returns()
    assert claimer == state.match.deals[-1].thrown_in
