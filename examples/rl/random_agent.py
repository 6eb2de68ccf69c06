"""The smallest PettingZoo loop: four agents pick uniformly among their legal actions for one match.

python examples/rl/random_agent.py [--seed 1] [--mode match|deal]
"""

from __future__ import annotations

import argparse

import numpy as np

from opentrix.env import trix_v0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--mode", choices=["match", "deal"], default="match")
    args = parser.parse_args()

    env = trix_v0.env(rules="classic", mode=args.mode)
    env.reset(seed=args.seed)
    rng = np.random.default_rng(args.seed)
    returns = dict.fromkeys(env.possible_agents, 0.0)
    steps = 0
    for agent in env.agent_iter():
        observation, reward, termination, truncation, _info = env.last()
        returns[agent] += reward  # deal scores arrive when a deal ends
        if termination or truncation:
            action = None
        else:
            mask = observation["action_mask"]
            action = int(rng.choice(np.flatnonzero(mask)))
            steps += 1
        env.step(action)
    env.close()
    print(f"{steps} decisions; returns {returns}")


if __name__ == "__main__":
    main()
