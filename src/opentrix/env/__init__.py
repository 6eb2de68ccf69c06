"""Trix for game-AI research: PettingZoo, Gymnasium and (optionally) OpenSpiel adapters over the engine.

- ``opentrix.env.trix_v0``: the PettingZoo AEC environment (``trix_v0.env(mode="match" | "deal")``).
- ``opentrix.env.TrixGymEnv`` / ``gymnasium.make("opentrix/Trix-v0")``: one learner seat against bots.
- ``opentrix.env.openspiel_game``: registers ``python_trix`` with OpenSpiel (imported on demand).

Observations come from ``opentrix.view.view`` only; see ``observation.LAYOUT`` and ``docs/rl.md``.
"""

from __future__ import annotations

try:
    import gymnasium
    import numpy  # noqa: F401
    import pettingzoo  # type: ignore[import-untyped]  # noqa: F401
except ModuleNotFoundError as e:  # the packages of an extra: say which, not only the one that is missing
    raise ModuleNotFoundError(
        f"opentrix.env needs the RL extra ({e.name} is not installed): pip install 'opentrix[rl]'", name=e.name
    ) from e

from . import trix_v0
from .gym_env import TrixGymEnv
from .knowledge import Knowledge
from .observation import LAYOUT, OBS_SIZE, action_mask, encode

GYM_ID = "opentrix/Trix-v0"

if GYM_ID not in gymnasium.registry:
    gymnasium.register(id=GYM_ID, entry_point="opentrix.env.gym_env:TrixGymEnv")

__all__ = ["GYM_ID", "LAYOUT", "OBS_SIZE", "Knowledge", "TrixGymEnv", "action_mask", "encode", "trix_v0"]
