"""The PettingZoo AEC environment: PettingZoo's own checks, rewards, hidden information, bad input."""

from __future__ import annotations

import random
import subprocess
import sys

import numpy as np
import pytest
from pettingzoo.test import api_test, seed_test

from opentrix import Contract, Match, Rules, view
from opentrix import actions as A
from opentrix.cards import FULL_DECK
from opentrix.deal import Phase
from opentrix.env import trix_v0
from opentrix.env.knowledge import Knowledge
from opentrix.env.observation import LAYOUT, OBS_SIZE, encode
from opentrix.env.trix_v0 import IllegalActionError
from opentrix.env.worlds import sample_world

CONFIGS = [
    {"mode": "deal"},
    {"mode": "match", "rules": "classic"},
    {"mode": "deal", "rules": "wikipedia", "contract": "queens"},
    {"mode": "deal", "rules": "denexa", "contract": "trix"},
    {"mode": "deal", "rules": "complex", "contract": "complex"},
]


@pytest.mark.parametrize("kwargs", CONFIGS, ids=lambda k: "-".join(map(str, k.values())))
def test_pettingzoo_api_test(kwargs: dict[str, str]) -> None:
    api_test(trix_v0.env(**kwargs), num_cycles=400)
    api_test(trix_v0.raw_env(**kwargs), num_cycles=400)


@pytest.mark.parametrize("kwargs", CONFIGS[:3], ids=lambda k: "-".join(map(str, k.values())))
def test_pettingzoo_seed_test(kwargs: dict[str, str]) -> None:
    seed_test(lambda: trix_v0.env(**kwargs), num_cycles=300)


def _play(env: trix_v0.raw_env, rng: random.Random) -> dict[str, float]:
    """Random legal play to the end; the rewards each agent was shown, summed."""
    got = dict.fromkeys(env.possible_agents, 0.0)
    for agent in env.agent_iter():
        obs, reward, term, trunc, _ = env.last()
        got[agent] += reward
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))
    return got


@pytest.mark.parametrize("rules", ["classic", "wikipedia", "online"])
def test_rewards_of_a_match_sum_to_its_totals(rules: str) -> None:
    env = trix_v0.raw_env(rules=rules, mode="match")
    env.reset(seed=11)
    got = _play(env, random.Random(1))
    assert env.match.is_over
    assert len(env.match.deals) >= 20
    assert [got[a] for a in env.possible_agents] == [float(t) for t in env.match.totals]


def test_deal_mode_ends_after_one_deal_with_its_scores() -> None:
    env = trix_v0.raw_env(mode="deal", contract="diamonds")
    env.reset(seed=3)
    assert env.match.deals[-1].contract == 2  # the fixed contract was named for the king
    got = _play(env, random.Random(2))
    deal = env.match.deals[-1]
    assert deal.scores is not None and deal.thrown_in is None
    assert [got[a] for a in env.possible_agents] == [float(s) for s in deal.scores]
    assert sum(deal.scores) == -130


def test_seeded_resets_repeat_and_differ() -> None:
    a, b = trix_v0.raw_env(seed=5), trix_v0.raw_env(seed=5)
    a.reset()
    b.reset()
    assert a.match.pending_hands == b.match.pending_hands
    a.reset()
    assert a.match.pending_hands != b.match.pending_hands  # the next episode deals anew
    b.reset(seed=99)
    a.reset(seed=99)
    assert a.match.pending_hands == b.match.pending_hands


def test_observation_layout_and_own_hand() -> None:
    env = trix_v0.raw_env(mode="match")
    env.reset(seed=1)
    agent = env.agent_selection
    obs = env.observe(agent)
    assert obs["observation"].shape == (OBS_SIZE,) and obs["observation"].dtype == np.float32
    assert obs["action_mask"].dtype == np.int8
    seat = int(agent[-1])
    hand = np.flatnonzero(obs["observation"][LAYOUT["hand"]])
    assert list(hand) == [c for c in range(52) if env.match.pending_hands[seat] >> c & 1]
    assert np.flatnonzero(obs["action_mask"]).tolist() == env.match.legal_actions()
    assert env.observation_space(agent).contains(obs)


def _random_positions(rules: Rules, seed: int, count: int) -> list[Match]:
    rng = random.Random(seed)
    m = Match(rules, seed=seed)
    out = []
    while not m.is_over and len(out) < count:
        if m.turn is None:
            m.start_deal()
            continue
        out.append(m.copy())
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))])
    return out


@pytest.mark.parametrize(
    "rules",
    [
        Rules.preset("classic"),
        Rules.preset("wikipedia"),
        Rules.preset("denexa"),
        Rules.preset("classic", doubling=True, doubling_reveal="hidden", king_must_be_discarded=True),
    ],
    ids=["classic", "wikipedia", "denexa", "hidden-doubling"],
)
def test_observation_unchanged_when_unseen_cards_are_dealt_again(rules: Rules) -> None:
    rng = random.Random(7)
    changed = 0
    for m in _random_positions(rules, seed=4, count=400):
        seat = m.turn
        assert seat is not None
        v = view(m, seat)
        world = sample_world(v, rng)
        w = view(world, seat)
        hidden_before = [m.deals[-1].hands[s] if m.deals and m.phase else 0 for s in range(4)]
        hidden_after = [world.deals[-1].hands[s] if world.deals and world.phase else 0 for s in range(4)]
        changed += hidden_before != hidden_after
        o1, o2 = encode(v, Knowledge()), encode(w, Knowledge())
        # Everything but the match's deal counter (the rebuilt world holds only the current deal).
        assert np.array_equal(o1[: LAYOUT["deal_number"].start], o2[: LAYOUT["deal_number"].start])
        assert v.legal_actions == w.legal_actions
        # The other seat's observation does depend on its own hand.
        other = (seat + 1) & 3
        if m.deals and m.phase and m.deals[-1].hands[other] != world.deals[-1].hands[other]:
            assert not np.array_equal(encode(view(m, other), Knowledge()), encode(view(world, other), Knowledge()))
    assert changed > 300  # the hidden hands really were dealt differently


def test_observation_cards_are_only_own_or_public() -> None:
    for m in _random_positions(Rules.preset("wikipedia"), seed=9, count=300):
        if not m.deals or not m.phase:
            continue
        seat = m.turn
        assert seat is not None
        obs = encode(view(m, seat), Knowledge())
        deal = m.deals[-1]
        public = 0
        for card in deal.plays:
            if card < 52:
                public |= 1 << card
        public |= deal.doubled
        allowed = public | deal.hands[seat]
        for name in ("played_0", "played_1", "played_2", "played_3", "trick_0", "trick_1", "trick_2", "trick_3"):
            bits = np.flatnonzero(obs[LAYOUT[name]])
            assert all(allowed >> int(c) & 1 for c in bits), name
        for s in range(4):
            if s != seat:
                # No card block ever equals another seat's hidden hand.
                hidden = deal.hands[s] & ~public & FULL_DECK
                hand_bits = sum(1 << int(c) for c in np.flatnonzero(obs[LAYOUT["hand"]]))
                assert hand_bits & hidden == 0


def test_illegal_action_raises_naming_legal_ones_and_keeps_the_state() -> None:
    env = trix_v0.raw_env(mode="deal", contract="king_of_hearts")
    with pytest.raises(RuntimeError, match=r"reset\(\) the environment before calling step\(\)"):
        env.step(0)  # the raw env says what is missing, as the wrapped one does
    env.reset(seed=2)
    agent = env.agent_selection
    legal = env.match.legal_actions()
    illegal = next(a for a in range(A.NUM_ACTIONS) if a not in legal)
    before = env.observe(agent)
    history = list(env.match.history)
    with pytest.raises(IllegalActionError) as err:
        env.step(illegal)
    text = str(err.value)
    assert "legal actions:" in text and all(f"{a} ({A.to_str(a)})" in text for a in legal)
    assert isinstance(err.value, ValueError)
    for bad in (-1, A.NUM_ACTIONS, 3.5, "QS"):
        with pytest.raises(IllegalActionError):
            env.step(bad)  # type: ignore[arg-type]
    assert env.match.history == history and env.agent_selection == agent
    after = env.observe(agent)
    assert np.array_equal(before["observation"], after["observation"])
    env.step(legal[0])  # and the game goes on
    assert env.match.history == [*history, legal[0]]


def test_true_is_not_an_action_and_unknown_agents_are_named() -> None:
    """``True == 1`` in Python, but a learner that steps a boolean has a bug to hear about, not a card
    played for it; an agent name that does not exist lists those that do."""
    env = trix_v0.raw_env(mode="deal", contract="queens")
    seed = next(s for s in range(200) if env.reset(seed=s) is None and 1 in env.match.legal_actions())
    env.reset(seed=seed)
    history = list(env.match.history)
    for flag in (True, np.bool_(True)):
        with pytest.raises(IllegalActionError, match="action ids are ints"):
            env.step(flag)  # type: ignore[arg-type]
    assert env.match.history == history
    env.step(1)  # the card itself is legal
    with pytest.raises(ValueError, match="unknown agent 'player_9': the agents are player_0, player_1"):
        env.observe("player_9")
    wrapped = trix_v0.env(mode="deal", contract="queens")  # PettingZoo's wrappers let True through
    wrapped.reset(seed=seed)
    for junk in (True, np.bool_(True), 1.0, "3", 93, -1, np.int64(-1)):  # out of range: no assert to strip
        with pytest.raises(IllegalActionError, match="action ids are ints from 0 to 92"):
            wrapped.step(junk)  # type: ignore[arg-type]
    assert wrapped.unwrapped.match.history == history
    assert not any(wrapped.terminations.values())  # not taken for a legal-looking id's penalty


def test_illegal_action_in_wrapped_env_ends_the_episode_with_a_penalty() -> None:
    env = trix_v0.env(mode="match", illegal_reward=-50.0)
    env.reset(seed=4)
    agent = env.agent_selection
    obs, *_ = env.last()
    illegal = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    _, reward, term, _, _ = env.last()
    assert env.agent_selection == agent and term and reward == -50.0
    assert env.unwrapped.match.history == []  # the engine never saw the illegal action


def test_render_ansi() -> None:
    env = trix_v0.raw_env(render_mode="ansi")
    env.reset(seed=1)
    text = env.render()
    assert isinstance(text, str) and "king" in text and "totals" in text


def test_max_deals_cuts_an_episode_short_as_a_truncation() -> None:
    """For rules whose tiebreak cannot end (its points 0) an episode needs a cap: truncated, not over."""
    e = trix_v0.raw_env(seed=4, max_deals=3)
    e.reset(seed=4)
    rng = np.random.default_rng(0)
    rewards = dict.fromkeys(e.possible_agents, 0.0)
    for agent in e.agent_iter():
        obs, reward, term, trunc, _ = e.last()
        rewards[agent] += reward
        e.step(None if term or trunc else int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert len(e.match.deals) == 3 and not e.match.is_over
    assert [rewards[a] for a in e.possible_agents] == list(e.match.totals)
    with pytest.raises(ValueError, match="max_deals"):
        trix_v0.raw_env(max_deals=0)
    api_test(trix_v0.env(max_deals=2), num_cycles=2000)


def test_every_agent_sees_each_finished_deals_info_at_its_next_turn() -> None:
    """Only the agent acting next used to see a deal's ``deal_scores``: the next step wiped all four."""
    env = trix_v0.raw_env(mode="match", rules="classic")
    env.reset(seed=5)
    rng = random.Random(5)
    finished = 0
    waiting: dict[str, tuple[int, ...]] = {}  # agent -> the scores it has yet to be shown
    while not all(env.terminations.values()):
        agent = env.agent_selection
        _, _, _, _, info = env.last()
        if agent in waiting:
            assert info["deal_scores"] == waiting.pop(agent), (finished, agent)
        else:
            assert info == {}, (finished, agent)
        before = len(env.unwrapped.match.summaries)
        mask = env.observe(agent)["action_mask"]
        env.step(rng.choice(np.flatnonzero(mask).tolist()))
        summaries = env.unwrapped.match.summaries
        if len(summaries) > before and summaries[-1].thrown_in is None:
            finished += 1
            waiting = {a: summaries[-1].scores for a in env.agents}
    assert finished >= 20


def test_an_illegal_action_is_named_in_info_for_every_agent() -> None:
    """PettingZoo's wrapper marks every agent terminated and truncated, and -100 is also an ordinary
    deal score: ``info`` says what ended the episode."""
    env = trix_v0.env(mode="match")
    env.reset(seed=4)
    agent = env.agent_selection
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    for a in env.possible_agents:
        assert env.infos[a]["illegal_agent"] == agent
        assert ("illegal_action" in env.infos[a]) == (a == agent)
    assert "legal actions:" in env.infos[agent]["illegal_action"]
    env.reset(seed=4)  # a new episode starts clean
    assert all(not info for info in env.infos.values())


def test_none_is_only_the_step_of_an_agent_whose_episode_is_over() -> None:
    """``step(None)`` for an agent still playing is refused with the raw env's error, also under
    ``python -O`` (PettingZoo's own check of it is an ``assert``, and past it NumPy's "truth value of
    an array" message)."""
    script = (
        "from opentrix.env import trix_v0\n"
        "e = trix_v0.env(seed=0); e.reset(seed=0)\n"
        "try:\n    e.step(None)\nexcept trix_v0.IllegalActionError as err:\n    print('refused:', err)\n"
    )
    for flags in ([], ["-O"]):
        done = subprocess.run([sys.executable, *flags, "-c", script], capture_output=True, text=True, timeout=120)
        assert done.returncode == 0 and "refused: player_" in done.stdout, (flags, done.stdout, done.stderr)
        assert "action ids are ints from 0 to 92" in done.stdout
    env = trix_v0.env(mode="deal")
    env.reset(seed=0)
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an illegal card ends it for everyone
    for _ in env.possible_agents:
        env.step(None)  # and then None is every agent's step
    assert not env.agents


def test_an_illegal_action_leaves_the_deal_scores_not_yet_shown() -> None:
    """The wrapper's ``illegal_agent`` is added to each ``info``: a finished deal's scores that an agent
    has not seen yet (they stay until its next turn) are not wiped by someone else's illegal move."""
    env = trix_v0.env(mode="match", rules="classic")
    env.reset(seed=5)
    rng = random.Random(5)
    raw = env.unwrapped
    while True:
        before = len(raw.match.summaries)
        obs, *_ = env.last()
        env.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
        if len(raw.match.summaries) > before and raw.match.summaries[-1].thrown_in is None:
            break
    scores = raw.match.summaries[-1].scores
    obs, *_ = env.last()
    env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))
    offender = env.agent_selection
    for a in env.possible_agents:
        info = env.infos[a]
        assert info["illegal_agent"] == offender and ("illegal_action" in info) == (a == offender)
        if a != offender:
            assert info["deal_scores"] == scores, a


def test_in_partnership_each_seat_is_paid_its_teams_score() -> None:
    env = trix_v0.raw_env(rules='{"preset": "online", "partnership": true}', mode="match")  # rules JSON text
    env.reset(seed=3)
    got = _play(env, random.Random(3))
    teams = env.match.team_totals()
    assert env.match.is_over and env.rules.partnership
    assert [got[a] for a in env.possible_agents] == [float(teams[s & 1]) for s in range(4)]


def test_settings_take_numpy_integers_and_refuse_bad_rules_json() -> None:
    env = trix_v0.raw_env(max_deals=np.int64(2))
    assert env.max_deals == 2 and type(env.max_deals) is int
    with pytest.raises(ValueError, match="max_deals is a number of deals from 1"):
        trix_v0.raw_env(max_deals=np.bool_(True))
    with pytest.raises(ValueError, match="rules: not valid JSON"):
        trix_v0.raw_env(rules='{"preset": "online",}')


def test_every_observation_lies_in_the_space_even_with_outsized_points() -> None:
    rules = Rules.from_json({"preset": "classic", "points": {"king_of_hearts": -30000}, "kingdoms": 1})
    env = trix_v0.raw_env(rules=rules, mode="match")
    env.reset(seed=1)
    space = env.observation_space("player_0")
    rng = random.Random(1)
    for _agent in env.agent_iter():
        obs, _, term, trunc, _ = env.last()
        assert space.contains(obs)
        if term or trunc:
            env.step(None)
            continue
        legal = np.flatnonzero(obs["action_mask"])
        env.step(int(legal[rng.randrange(len(legal))]))


def test_a_tiebreak_kingdoms_deals_are_flagged_as_tiebreak() -> None:
    """One-kingdom matches played at random until one ties and plays an extra kingdom: the flag is set
    exactly for the deals of that kingdom (its last deal's end too), not for the regular last deal."""
    rules = Rules.preset("classic", tiebreak="extra_kingdom", kingdoms=1)
    flag = LAYOUT["tiebreak"].start
    for seed in range(2000):
        m, rng = Match(rules, seed=seed), random.Random(seed)
        kingdom_of_deal, seen = 0, set()
        while True:
            if m.phase == Phase.CHOOSE_CONTRACT:
                kingdom_of_deal = m.kingdom
            expected = kingdom_of_deal >= rules.kingdoms or m.tiebreak_deal
            assert encode(view(m, 0), Knowledge())[flag] == expected, (seed, m.phase, m.kingdom)
            seen.add(expected)
            if m.phase == Phase.MATCH_OVER:
                break
            if m.phase == Phase.DEAL_OVER:
                m.start_deal()
                continue
            m.apply(rng.choice(m.legal_actions()))
        if seen == {False, True}:
            return  # a match with a tiebreak kingdom was checked through
    raise AssertionError("no tied match in 2,000 seeds")


_NO_POINTS = {"king_of_hearts": 0, "queen": 0, "diamond": 0, "trick": 0, "trix": [0, 0, 0, 0]}  # every match ties
_KH_ONLY = {**_NO_POINTS, "king_of_hearts": -75}  # ties, which King of Hearts tiebreak deals settle
FINISHED_DEALS = [  # rules, and the kinds of finished deal they must show
    pytest.param(Rules.preset("classic", kingdoms=2), {"kingdom's deal", "kingdom's last"}, id="classic"),
    pytest.param(
        Rules.preset("classic", kingdoms=1, tiebreak="none"),
        {"kingdom's deal", "kingdom's last, match over"},
        id="one-kingdom",
    ),
    pytest.param(
        Rules.from_json({"preset": "classic", "kingdoms": 1, "tiebreak": "extra_koh_deal", "points": _KH_ONLY}),
        {"kingdom's last", "tiebreak deal", "tiebreak deal, match over"},
        id="extra_koh_deal",
    ),
    pytest.param(
        Rules.from_json({"preset": "classic", "kingdoms": 1, "tiebreak": "extra_kingdom", "points": _NO_POINTS}),
        {"kingdom's last", "tiebreak kingdom's deal", "tiebreak kingdom's last"},
        id="extra_kingdom",
    ),
    pytest.param(Rules.preset("wikipedia", kingdoms=1), {"thrown in", "kingdom's last, match over"}, id="throw-ins"),
    pytest.param(
        Rules.preset("complex", kingdoms=2, partnership=True, tiebreak="extra_koh_deal"),
        {"kingdom's deal", "kingdom's last"},
        id="complex-partnership",
    ),
]


@pytest.mark.parametrize(("rules", "kinds"), FINISHED_DEALS)
def test_a_finished_deals_observation_describes_that_deal(rules: Rules, kinds: set[str]) -> None:
    """The last observation of a deal (``deal_over``, or ``match_over``: an episode's last, which a
    learner bootstraps from when it is cut short) shows that deal's kingdom, contracts left and
    tiebreak flag, as every observation of it did, though the match has moved on to the next deal:
    it said kingdom 1 in a one-kingdom match, every contract available, and after the last regular
    deal of a tied match under ``extra_koh_deal`` the tiebreak deal's flag."""
    seen: set[str] = set()
    for seed in range(40):
        m, rng = Match(rules, seed=seed), random.Random(seed)
        while not m.is_over and len(m.deals) < 13:
            if m.phase == Phase.DEAL_OVER:
                m.start_deal()
            # What the deal to come is played with, from the engine as the king names its contract.
            kingdom, extra_deal = m.kingdom, m.tiebreak_deal
            tiebreak = extra_deal or kingdom >= rules.kingdoms
            left = set(m.available_contracts())
            m.apply(rng.choice(m.legal_actions()))
            left.discard(Contract(m.deals[-1].contract))
            expected = np.zeros(OBS_SIZE, np.float32)
            expected[LAYOUT["kingdom"].start + min(kingdom, 3)] = 1
            expected[[LAYOUT["available"].start + int(c) for c in left]] = 1
            expected[LAYOUT["tiebreak"]] = tiebreak
            while True:
                for seat in range(4) if m.turn is None else (m.turn,):
                    obs = encode(view(m, seat), Knowledge())
                    for name in ("kingdom", "available", "tiebreak"):
                        got, want = obs[LAYOUT[name]], expected[LAYOUT[name]]
                        assert (got == want).all(), (seed, len(m.deals), str(Phase(m.phase)), name, got, want)
                if m.phase >= Phase.DEAL_OVER:
                    break
                m.apply(rng.choice(m.legal_actions()))
            if m.deals[-1].thrown_in is not None:
                kind = "thrown in"
            elif extra_deal:
                kind = "tiebreak deal"
            else:
                kind = ("tiebreak kingdom's " if tiebreak else "kingdom's ") + ("last" if not left else "deal")
            seen.add(kind + (", match over" if m.is_over else ""))
    assert kinds <= seen, seen


def test_every_agents_last_observation_shows_the_matchs_last_deal() -> None:
    """A one-kingdom match ends after its fifth deal: each agent's last observation is of that deal
    (kingdom 0, no contract left to name), not of a kingdom 1 the match never has. Cut short by
    ``max_deals=5`` after the same deal of a tied match under ``extra_koh_deal``, it is no tiebreak
    deal either (``extra_kingdom`` had this right)."""
    for rules, max_deals in (
        ({"preset": "classic", "kingdoms": 1, "tiebreak": "none"}, None),
        ({"preset": "classic", "kingdoms": 1, "tiebreak": "extra_koh_deal", "points": _NO_POINTS}, 5),
        ({"preset": "classic", "kingdoms": 1, "tiebreak": "extra_kingdom", "points": _NO_POINTS}, 5),
    ):
        env = trix_v0.raw_env(rules=rules, max_deals=max_deals)
        env.reset(seed=0)
        rng = random.Random(0)
        ended = []
        for agent in env.agent_iter():
            obs, _, term, trunc, _ = env.last()
            if term or trunc:
                ended.append(agent)
                o = obs["observation"]
                assert o[LAYOUT["kingdom"]].tolist() == [1, 0, 0, 0], rules
                assert not o[LAYOUT["available"]].any() and not o[LAYOUT["tiebreak"]].any(), rules
                env.step(None)
                continue
            env.step(int(rng.choice(list(np.flatnonzero(obs["action_mask"])))))
        assert len(ended) == 4 and len(env.match.deals) == 5
