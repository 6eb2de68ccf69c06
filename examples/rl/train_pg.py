"""Train a small policy-gradient agent for one seat of Trix, in plain numpy, and compare it with random.

The policy scores every action and samples among the legal ones only (the action mask sets illegal
scores to -inf before the softmax). Card actions share one weight vector over a few features of
"this card, here", all read from the observation vector (its rank, whether it follows suit, would
win the trick as it stands, what the trick already holds, how many higher cards of its suit are
still out, ... each crossed with the contract); the other actions (contract choice, doubling, pass)
have linear weights over the whole observation. Training is REINFORCE with a linear value baseline:
each decision is credited with the part of its deal's score that was settled after it, which the
agent reads off its own observations (cards and tricks it has taken). Opponents are three bots
(``TrixGymEnv``, default ``random``). Evaluation plays the same seeded matches with the trained policy
(greedy) and with a uniformly random policy in the learner's seat, and compares the match totals.

    python examples/rl/train_pg.py --minutes 3
    python examples/rl/train_pg.py --matches 1200                  # the same figure on any machine
    python examples/rl/train_pg.py --minutes 3 --opponents basic   # a harder table
"""

from __future__ import annotations

import argparse
import os
import time

# The network is small: BLAS threads only contend for the cores (and make the figures less comparable).
for _threads in ("OMP_NUM_THREADS", "OPENBLAS_NUM_THREADS", "MKL_NUM_THREADS"):
    os.environ.setdefault(_threads, "1")

# After the thread settings, which NumPy reads when it loads:
import numpy as np  # noqa: E402

from opentrix.actions import NUM_ACTIONS  # noqa: E402
from opentrix.cards import DIAMONDS, KING_OF_HEARTS, QUEENS  # noqa: E402
from opentrix.env import LAYOUT, OBS_SIZE, TrixGymEnv  # noqa: E402

SCALE = 100.0  # scores are divided by this before learning
D = OBS_SIZE + 1  # the observation and a constant input


def _cards(mask: int) -> np.ndarray:
    return np.array([mask >> c & 1 for c in range(52)], np.float64)


# What each captured card costs in each contract (standard points, doubling ignored), and each trick.
CARD_COST = np.zeros((6, 52))
CARD_COST[0] = -75 * _cards(KING_OF_HEARTS)
CARD_COST[1] = -25 * _cards(QUEENS)
CARD_COST[2] = -10 * _cards(DIAMONDS)
CARD_COST[5] = CARD_COST[0] + CARD_COST[1] + CARD_COST[2]
TRICK_COST = np.array([0.0, 0.0, 0.0, -15.0, 0.0, -15.0])

card_ids = np.arange(52)
ranks = card_ids % 13
suits = card_ids // 13
SAME_SUIT_HIGHER = (suits[:, None] == suits[None, :]) & (card_ids[None, :] > card_ids[:, None])  # [c, other]
NEXT_IN_SUIT = np.zeros((52, 52))  # [c, d]: d is next to c in rank, same suit
for c in range(52):
    for d in (c - 1, c + 1):
        if 0 <= d < 52 and d // 13 == c // 13:
            NEXT_IN_SUIT[c, d] = 1.0


def block(obs: np.ndarray, name: str) -> np.ndarray:
    return obs[LAYOUT[name]]


def settled(obs: np.ndarray) -> float:
    """The learner's deal score already settled, from its own observation (cards and tricks taken)."""
    contract = block(obs, "contract")
    if not contract.any():
        return 0.0
    k = int(contract.argmax())
    return float(CARD_COST[k] @ block(obs, "taken_0") + TRICK_COST[k] * block(obs, "tricks")[0] * 13)


N_BASE = 13
N_CARD_FEATURES = 6 * N_BASE


def card_features(obs: np.ndarray) -> np.ndarray:
    """A (52, N_CARD_FEATURES) matrix: features of playing each card now, crossed with the contract."""
    contract = block(obs, "contract")
    k = int(contract.argmax()) if contract.any() else 0
    hand = block(obs, "hand")
    table = block(obs, "trick_0") + block(obs, "trick_1") + block(obs, "trick_2") + block(obs, "trick_3")
    on_table = int(table.sum())
    leader = block(obs, "leader")
    if on_table:
        lead_card = int(np.argmax(block(obs, f"trick_{int(np.argmax(leader))}")))
        led = lead_card // 13
        in_led = table * (suits == led)
        best = int(np.max(np.flatnonzero(in_led)))
        following = (suits == led).astype(float)
        wins = following * (card_ids > best)
        table_cost = (CARD_COST[k] @ table + TRICK_COST[k]) / 75
    else:
        following = np.zeros(52)
        wins = np.zeros(52)
        table_cost = 0.0
    played = block(obs, "played_0") + block(obs, "played_1") + block(obs, "played_2") + block(obs, "played_3")
    unseen = 1.0 - np.minimum(played + hand, 1.0)
    higher_out = SAME_SUIT_HIGHER.astype(float) @ unseen / 12
    suit_len = np.array([hand[suits == s].sum() for s in range(4)])[suits] / 13
    base = np.stack(
        [
            np.ones(52),
            ranks / 12,
            CARD_COST[k] / 75,  # what this card costs whoever takes it
            following,
            wins,
            wins * table_cost,  # taking what is already on the table
            wins * CARD_COST[k] / 75,
            np.full(52, on_table == 0),  # leading
            (1 - following) * (on_table > 0),  # discarding
            np.full(52, on_table == 3) * wins,  # last to play and winning
            higher_out,
            suit_len,
            NEXT_IN_SUIT @ hand,  # Trix: own cards next to it in rank
        ],
        axis=1,
    )
    out = np.zeros((52, N_CARD_FEATURES))
    out[:, k * N_BASE : (k + 1) * N_BASE] = base
    return out


class Policy:
    """Shared weights over card features, linear weights over the observation for other actions."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.rng = rng
        self.theta = np.zeros(N_CARD_FEATURES)
        self.W = np.zeros((NUM_ACTIONS - 52, D))
        self.v = np.zeros(D)

    def scores(self, x: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = np.concatenate([phi @ self.theta, self.W @ x])
        return np.where(mask.astype(bool), z, -np.inf)

    def probs(self, x: np.ndarray, phi: np.ndarray, mask: np.ndarray) -> np.ndarray:
        z = self.scores(x, phi, mask)
        p = np.exp(z - z.max())
        return p / p.sum()

    def act(self, x: np.ndarray, phi: np.ndarray, mask: np.ndarray, greedy: bool) -> int:
        p = self.probs(x, phi, mask)
        return int(np.argmax(p)) if greedy else int(self.rng.choice(NUM_ACTIONS, p=p))


def play(env: TrixGymEnv, policy: Policy | None, seed: int, greedy: bool, rng: np.random.Generator):
    """One match. Returns the learner's total and its decisions with their credited returns."""
    obs, info = env.reset(seed=seed)
    steps, deals, score_before, rewards = [], [], [], []
    done = False
    while not done:
        o = obs["observation"].astype(np.float64)
        mask = obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x, phi = np.append(o, 1.0), card_features(o)
            action = policy.act(x, phi, mask, greedy)
            steps.append((x, phi, mask, action))
        deals.append(info["deal_number"])
        score_before.append(settled(o))
        obs, reward, done, _, info = env.step(action)
        rewards.append(reward)
    # Each decision earns what got settled from it to the end of its deal (reward-to-go in the deal):
    # the deal's score (paid on its last step) minus what the learner had already taken before it.
    per_deal: dict[int, float] = {}
    for d, r in zip(deals, rewards):
        per_deal[d] = per_deal.get(d, 0.0) + r
    returns = np.array([per_deal[d] - before for d, before in zip(deals, score_before)])
    return float(np.sum(rewards)), steps, returns / SCALE


def update(policy: Policy, episodes: list[tuple[list, np.ndarray]], lr: float, lr_value: float) -> None:
    g_theta = np.zeros_like(policy.theta)
    g_W = np.zeros_like(policy.W)
    g_v = np.zeros_like(policy.v)
    xs = np.array([s[0] for steps, _ in episodes for s in steps])
    returns = np.concatenate([r for _, r in episodes])
    baseline = xs @ policy.v
    adv = returns - baseline
    adv_n = adv / (adv.std() + 1e-8)
    i = 0
    for steps, _ in episodes:
        for x, phi, mask, action in steps:
            p = policy.probs(x, phi, mask)
            a = adv_n[i]
            # d log pi(action) / d theta = phi[action] - E_p[phi], over the card actions.
            pc = p[:52]
            g_theta += a * ((phi[action] if action < 52 else 0.0) - pc @ phi)
            onehot = -p[52:]
            if action >= 52:
                onehot[action - 52] += 1.0
            g_W += a * np.outer(onehot, x)
            g_v += adv[i] * x
            i += 1
    policy.theta += lr * g_theta / i
    policy.W += lr * g_W / i
    policy.v += lr_value * g_v / i


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--minutes", type=float, default=3.0, help="training time budget")
    parser.add_argument(
        "--matches", type=int, default=None, help="train on this many matches instead (reproducible anywhere)"
    )
    parser.add_argument("--batch", type=int, default=4, help="matches per update")
    parser.add_argument("--lr", type=float, default=3.0)
    parser.add_argument("--opponents", default="random")
    parser.add_argument("--eval-matches", type=int, default=300)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()

    rng = np.random.default_rng(args.seed)
    env = TrixGymEnv(mode="match", seat=0, opponents=args.opponents)
    policy = Policy(rng)
    start = time.perf_counter()
    deadline = start + 60 * args.minutes
    matches = 0
    recent: list[float] = []
    next_report = start + 30
    while matches < args.matches if args.matches is not None else time.perf_counter() < deadline:
        batch = []
        size = args.batch if args.matches is None else min(args.batch, args.matches - matches)
        for _ in range(size):
            total, steps, returns = play(env, policy, 1_000_000 + matches, False, rng)
            batch.append((steps, returns))
            recent.append(total)
            matches += 1
        update(policy, batch, args.lr, args.lr * 0.02)
        if time.perf_counter() > next_report:
            next_report += 30
            elapsed = time.perf_counter() - start
            print(f"{elapsed:5.0f}s  {matches:5d} matches  mean total of the last 100: {np.mean(recent[-100:]):6.1f}")
    minutes = (time.perf_counter() - start) / 60

    seeds = range(args.eval_matches)  # the same deals for both policies in seat 0
    learned = np.array([play(env, policy, s, True, rng)[0] for s in seeds])
    baseline = np.array([play(env, None, s, True, rng)[0] for s in seeds])
    diff = learned - baseline
    err = diff.std(ddof=1) / np.sqrt(len(diff))
    print(f"trained on {matches} matches in {minutes:.1f} min against {args.opponents}")
    print(f"mean match total in seat 0 over {len(seeds)} matches (the same deals for both):")
    print(f"  trained policy (greedy) {learned.mean():7.1f}")
    print(f"  uniform random policy   {baseline.mean():7.1f}")
    print(f"  difference              {diff.mean():7.1f} +- {err:.1f} (standard error)")


if __name__ == "__main__":
    main()
