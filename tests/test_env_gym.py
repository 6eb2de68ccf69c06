"""The Gymnasium single-agent environment: Gymnasium's checker, rewards, opponents, bad input."""

from __future__ import annotations

import subprocess
import sys

import gymnasium
import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from opentrix.env import GYM_ID, TrixGymEnv
from opentrix.env.trix_v0 import IllegalActionError


def test_check_env_through_gymnasium_make() -> None:
    env = gymnasium.make(GYM_ID, opponents="random")
    check_env(env.unwrapped, skip_render_check=True)


def test_check_env_deal_mode_with_named_bots() -> None:
    check_env(TrixGymEnv(mode="deal", seat=2, opponents=["basic", "random", "basic"]), skip_render_check=True)


def _run(env: TrixGymEnv, seed: int) -> tuple[float, dict[str, object], int]:
    obs, info = env.reset(seed=seed)
    rng = np.random.default_rng(seed)
    total, steps, done = 0.0, 0, False
    while not done:
        action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
        obs, reward, done, truncated, info = env.step(action)
        assert not truncated
        total += reward
        steps += 1
    return total, info, steps


def test_episode_rewards_sum_to_the_learners_total() -> None:
    env = TrixGymEnv(mode="match", seat=1, opponents="random")
    total, info, steps = _run(env, seed=8)
    assert env.match.is_over and steps > 100
    assert total == env.match.totals[1] == info["totals"][1]  # type: ignore[index]


def test_same_seed_same_episode() -> None:
    a = _run(TrixGymEnv(mode="deal", opponents="random"), seed=3)
    b = _run(TrixGymEnv(mode="deal", opponents="random"), seed=3)
    assert a[0] == b[0] and a[2] == b[2]


def test_fixed_contract_deal() -> None:
    env = TrixGymEnv(mode="deal", contract="trix", opponents="random")
    total, _, _ = _run(env, seed=1)
    assert env.match.deals[-1].contract == 4
    assert total in (200.0, 150.0, 100.0, 50.0)


def test_illegal_action_penalty_or_error() -> None:
    env = TrixGymEnv(mode="deal", opponents="random", illegal_reward=-7.0)
    obs, _ = env.reset(seed=5)
    bad = int(np.flatnonzero(obs["action_mask"] == 0)[0])
    history = list(env.match.history)
    _, reward, done, _, info = env.step(bad)
    assert done and reward == -7.0 and "legal actions:" in info["illegal_action"]
    assert env.match.history == history
    with pytest.raises(RuntimeError):
        env.step(bad)
    strict = TrixGymEnv(mode="deal", opponents="random", illegal="raise")
    obs, _ = strict.reset(seed=5)
    with pytest.raises(IllegalActionError, match="legal actions"):
        strict.step(bad)
    legal = int(np.flatnonzero(obs["action_mask"])[0])
    strict.step(legal)  # the state was not corrupted


def test_unknown_opponent_is_a_clear_error() -> None:
    with pytest.raises(ValueError, match="unknown bot"):
        TrixGymEnv(opponents="grandmaster")
    with pytest.raises(ValueError, match="one opponent name or three"):
        TrixGymEnv(opponents=["random", "random"])


def test_bad_settings_are_refused_up_front() -> None:
    """As in the PettingZoo env: at construction, not as an engine error from the first reset() or a
    render() that silently draws nothing."""
    with pytest.raises(ValueError, match="queens is not a contract of these rules"):
        TrixGymEnv(mode="deal", rules="complex", contract="queens")
    with pytest.raises(ValueError, match="complex is not a contract"):
        gymnasium.make(GYM_ID, mode="deal", rules="classic", contract="complex")
    with pytest.raises(ValueError, match="render_mode must be None or one of"):
        TrixGymEnv(render_mode="human")
    for seat in ("1", True, 4):
        with pytest.raises(ValueError, match="seat must be 0 to 3"):
            TrixGymEnv(seat=seat)  # type: ignore[arg-type]
    with pytest.raises(RuntimeError, match="call reset\\(\\) before step\\(\\)"):
        TrixGymEnv().step(0)


def test_mixed_opponents_take_the_options_they_know_and_repeat_under_a_seed() -> None:
    env = TrixGymEnv(opponents=["strong", "basic", "random"], opponent_options={"samples": 8})
    strong = env.bots[1]
    assert strong.samples == 8 and strong.budget_ms is None  # no wall clock: the seed decides
    with pytest.raises(ValueError, match=r"no opponent .* takes the option 'wings'"):
        TrixGymEnv(opponents=["strong", "basic", "random"], opponent_options={"wings": 1})
    env = TrixGymEnv(opponents="hard", opponent_options=[{"samples": 4}, {"budget_ms": 100}, {}])
    assert [b.budget_ms for b in env.bots.values()] == [None, 100, None]
    with pytest.raises(ValueError, match="a list of three dicts"):
        TrixGymEnv(opponent_options=[{}, {}])
    timed = TrixGymEnv(opponents="strong", opponent_options={"samples": None})  # search the default budget
    assert all(b.samples is None and b.budget_ms == 250 for b in timed.bots.values())

    def plays() -> list[int]:
        env = TrixGymEnv(mode="deal", contract="trix", opponents="strong", opponent_options={"samples": 8})
        obs, _ = env.reset(seed=0)
        rng = np.random.default_rng(0)
        done = False
        while not done:
            obs, _, done, _, _ = env.step(np.array(rng.choice(np.flatnonzero(obs["action_mask"]))))  # 0-d too
        return list(env.match.deals[-1].plays)

    assert plays() == plays()


def test_max_deals_truncates_after_whole_deals() -> None:
    """``max_deals`` cuts an episode at the end of a deal (a truncation, not a termination), so that a
    match whose tiebreak can never end still ends; Gymnasium's ``max_episode_steps`` would cut a deal
    in half."""
    env = TrixGymEnv(mode="match", seat=3, opponents="random", max_deals=3)
    obs, _ = env.reset(seed=2)
    rng = np.random.default_rng(2)
    total, done, truncated = 0.0, False, False
    while not (done or truncated):
        obs, reward, done, truncated, _ = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        total += reward
    assert truncated and not done
    assert len(env.match.deals) == 3 and env.match.deals[-1].scores is not None and not env.match.is_over
    assert total == env.match.totals[3]
    for bad in (0, -1, 1.5, True):
        with pytest.raises(ValueError, match="max_deals is a number of deals from 1"):
            TrixGymEnv(max_deals=bad)  # type: ignore[arg-type]


def test_a_deal_thrown_in_before_the_learner_acts_does_not_end_the_episode_in_reset() -> None:
    """Wikipedia rules, seed 11: a bot claims a redeal before seat 1 has decided anything. reset()
    must still hand the learner a decision, so that deal does not end a one-deal episode."""
    env = TrixGymEnv(rules="wikipedia", mode="match", seat=1, opponents="basic", max_deals=1)
    obs, _ = env.reset(seed=11)
    assert len(env.match.deals) == 2 and env.match.deals[0].thrown_in is not None
    assert obs["action_mask"].any()
    done = truncated = False
    while not (done or truncated):
        obs, _, done, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
    assert truncated and env.match.deals[-1].scores is not None


def test_opponents_may_be_bots_already_built_for_self_play() -> None:
    from opentrix.bots import BasicBot, make_bot

    mine = [BasicBot(seed=1), make_bot("random"), BasicBot(seed=2)]
    env = TrixGymEnv(mode="deal", seat=1, opponents=mine)
    assert [env.bots[s] for s in (0, 2, 3)] == mine and env.opponent_names == ["basic", "random", "basic"]
    total, _, _ = _run(env, seed=4)
    again, _, _ = _run(TrixGymEnv(mode="deal", seat=1, opponents=[BasicBot(), make_bot("random"), BasicBot()]), 4)
    assert total == again  # reset() reseeds them: the episode depends on its seed only
    with pytest.raises(ValueError, match="cannot take two seats"):
        TrixGymEnv(opponents=[mine[0], mine[0], "basic"])
    with pytest.raises(ValueError, match="takes no options"):
        TrixGymEnv(opponents=[mine[0], "basic", "strong"], opponent_options=[{"samples": 2}, {}, {}])
    from opentrix.bots.cheat import CheatBot

    with pytest.raises(ValueError, match="arena only"):
        TrixGymEnv(opponents=["basic", CheatBot(), "basic"])
    with pytest.raises(ValueError, match=r"a bot name or an opentrix\.bots\.Bot"):
        TrixGymEnv(opponents=["basic", 3, "basic"])  # type: ignore[list-item]


def test_action_masks_and_the_info_of_a_finished_deal() -> None:
    env = TrixGymEnv(mode="deal", contract="queens", opponents="basic")
    obs, info = env.reset(seed=2)
    assert "deal_scores" not in info
    rng = np.random.default_rng(2)
    done = False
    while not done:
        assert (env.action_masks() == obs["action_mask"].astype(bool)).all()
        obs, _, done, _, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
    assert info["contract"] == "queens" and info["deal_scores"] == env.match.deals[-1].scores
    assert not env.action_masks().any()  # the episode is over
    obs, _ = env.reset(seed=2)
    obs, _, done, _, info = env.step(int(np.flatnonzero(obs["action_mask"] == 0)[0]))  # an illegal move ends it
    assert done and "illegal_action" in info
    assert not obs["action_mask"].any() and not env.action_masks().any()  # nothing is legal after the end


def test_in_partnership_the_learner_is_paid_its_teams_score() -> None:
    env = TrixGymEnv(rules={"preset": "online", "partnership": True, "kingdoms": 1}, seat=np.int64(2))
    assert env.seat == 2 and type(env.seat) is int
    total, info, _ = _run(env, seed=3)
    teams = env.match.team_totals()
    assert total == teams[0] and info["team_totals"] == (teams[0], teams[1], teams[0], teams[1])


def test_a_deal_thrown_in_right_after_a_scored_one_does_not_hide_its_scores() -> None:
    """Under wikipedia rules the bots may claim a redeal of the next deal in the very step a deal ends:
    ``deal_scores`` stays that deal's, and ``deals_ended`` lists both."""
    env = TrixGymEnv(mode="match", seat=0, opponents="random", rules="wikipedia")
    obs, info = env.reset(seed=15)
    rng = np.random.default_rng(15)
    while True:
        obs, reward, terminated, truncated, info = env.step(int(rng.choice(np.flatnonzero(obs["action_mask"]))))
        assert not (terminated or truncated), "seed 15 has a throw-in right after a scored deal"
        if len(info.get("deals_ended", ())) == 2:
            break
    scored, thrown = info["deals_ended"]
    assert not scored["thrown_in"] and thrown["thrown_in"] and thrown["deal_scores"] == (0, 0, 0, 0)
    assert info["deal_scores"] == scored["deal_scores"] != (0, 0, 0, 0) and info["contract"] == scored["contract"]
    assert reward == scored["deal_scores"][0]


def test_the_self_play_recipe_keeps_a_knowledge_per_seat_across_episodes() -> None:
    """docs/rl.md: a frozen policy as an opponent encodes its view with its own ``Knowledge``, kept
    for as long as the bot. Every one-deal episode is a deal number 0, and under the online rules a
    King of Hearts deal may end at its first trick: what each bot reads must still be what a fresh
    ``Knowledge`` reads (it read the last episode's plays and inferences as this one's)."""
    from collections.abc import Sequence

    from opentrix.bots import Bot
    from opentrix.env.knowledge import Knowledge
    from opentrix.env.observation import encode
    from opentrix.view import View

    class Frozen(Bot):
        name = "frozen"

        def __init__(self) -> None:
            super().__init__()
            self.know = Knowledge()
            self.read = 0

        def act(self, view: View, legal: Sequence[int]) -> int:
            assert np.array_equal(encode(view, self.know), encode(view, Knowledge())), (view.seat, view.plays)
            self.read += 1
            return legal[self.rng.randrange(len(legal))]

    bots = [Frozen(), Frozen(), Frozen()]
    env = TrixGymEnv(rules="online", mode="deal", contract="king_of_hearts", opponents=bots)
    for seed in range(60):
        obs, _ = env.reset(seed=seed)
        done = False
        while not done:
            obs, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
            done = terminated or truncated
    assert sum(b.read for b in bots) > 1000


def test_a_truncated_episodes_last_observation_shows_its_last_deal() -> None:
    """``max_deals=5`` cuts a classic match after the last deal of its first kingdom. The observation
    the learner bootstraps from shows that deal as the learner saw it while playing it: kingdom 0 (it
    said 1), no contract left to name (it listed all five) and the same contract and king."""
    from opentrix.env.observation import describe

    env = TrixGymEnv(max_deals=5, opponents="random")
    obs, _ = env.reset(seed=1)
    while True:
        last, _, terminated, truncated, _ = env.step(int(np.flatnonzero(obs["action_mask"])[0]))
        if terminated or truncated:
            break
        obs = last
    assert truncated and len(env.match.deals) == 5 and env.match.kingdom == 1
    during, after = describe(obs["observation"]), describe(last["observation"])
    assert after["kingdom"].tolist() == [1, 0, 0, 0] and not after["available"].any()
    for name in ("kingdom", "available", "tiebreak", "contract", "king"):
        assert (after[name] == during[name]).all(), name


@pytest.mark.parametrize(
    ("missing", "module", "hint"),
    [
        ("gymnasium", "opentrix.env", "pip install 'opentrix[rl]'"),
        ("pettingzoo", "opentrix.env.trix_v0", "pip install 'opentrix[rl]'"),
        ("pyspiel", "opentrix.env.openspiel_game", "pip install 'opentrix[rl,openspiel]'"),
    ],
)
def test_an_rl_import_without_its_extra_names_the_extra_to_install(missing: str, module: str, hint: str) -> None:
    code = f"import sys; sys.modules[{missing!r}] = None\nimport {module}"
    run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert run.returncode == 1 and "ModuleNotFoundError" in run.stderr and hint in run.stderr, run.stderr
