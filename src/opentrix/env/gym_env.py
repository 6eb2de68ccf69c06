"""Trix as a Gymnasium single-agent environment: the learner holds one seat, opentrix bots the others.

``gymnasium.make("opentrix/Trix-v0", opponents="random")`` or ``TrixGymEnv(...)``. Observations and
actions are those of the PettingZoo environment (``trix_v0``); the reward of a step is the learner's
score from every deal that ended during it, so an episode's rewards sum to the learner's total.

An illegal action (``action_space.sample()`` ignores the mask) ends the episode with
``illegal_reward`` and ``info["illegal_action"]`` saying why, as PettingZoo's wrapper does; with
``illegal="raise"`` it raises ``IllegalActionError`` instead. Either way the game state is untouched.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import gymnasium as gym
import numpy as np
from gymnasium import spaces

from .. import actions as A
from ..bots import Bot, make_bot, option_names
from ..contracts import Contract
from ..deal import Phase
from ..match import Match
from ..view import view
from .knowledge import Knowledge
from .observation import OBS_HIGH, OBS_LOW, OBS_SIZE, action_mask, encode
from .rewards import deal_ended, seat_rewards
from .trix_v0 import _count, _rules_of, illegal_action_error, is_action_id

_DEAL_OVER = int(Phase.DEAL_OVER)
_MATCH_OVER = int(Phase.MATCH_OVER)
_CHOOSE = int(Phase.CHOOSE_CONTRACT)

Obs = dict[str, np.ndarray]


def _options_per_opponent(names: list[str | Bot], given: Any) -> list[dict[str, Any]]:
    """Each opponent's options: one dict for all three (each bot takes the options it knows; one no
    bot takes is an error), or a list of three dicts, one per opponent. A searching bot's time budget
    is off unless given, so that an episode depends on its seed only, not on the machine's speed.
    An opponent given as a ``Bot`` is used as it is, so it takes none."""
    if given is None:
        given = {}
    takes = [option_names(n) if isinstance(n, str) else set() for n in names]
    if isinstance(given, dict):
        unknown = [k for k in given if not any(k in t for t in takes)]
        if unknown:
            shown = ", ".join(n if isinstance(n, str) else repr(n) for n in names)
            raise ValueError(f"no opponent ({shown}) takes the option {unknown[0]!r}")
        chosen = [{k: v for k, v in given.items() if k in t} for t in takes]
    elif (
        isinstance(given, Sequence)
        and not isinstance(given, str)
        and len(given) == 3
        and all(isinstance(o, dict) for o in given)
    ):
        chosen = [dict(o) for o in given]
        for n, o in zip(names, chosen, strict=True):
            if o and not isinstance(n, str):
                raise ValueError(f"{n!r} is a bot already built: it takes no options ({', '.join(o)})")
    else:
        raise ValueError("opponent_options is one dict for all opponents or a list of three dicts, one each")
    for t, options in zip(takes, chosen, strict=True):
        if "budget_ms" in t and options.get("samples", 1) is not None:
            options.setdefault("budget_ms", None)  # samples=None alone: the default time budget decides
    return chosen


def _opponent(spec: str | Bot, seat: int, options: dict[str, Any]) -> Bot:
    """A bot by name (``make_bot``), or a ``Bot`` given as it is (a frozen copy of the learner, say)."""
    bot = make_bot(spec, seed=seat, **options) if isinstance(spec, str) else spec
    if getattr(bot, "sees_all", False):
        raise ValueError(f"{bot.name} sees every hand: it plays in the arena only, never against a learner")
    return bot


class TrixGymEnv(gym.Env[Obs, int]):
    """One learner seat against three bots, by name (``opentrix.bots.make_bot``) or as ``Bot`` objects."""

    metadata = {"render_modes": ["ansi"], "render_fps": 1}  # noqa: RUF012  (Gymnasium declares it per instance)

    def __init__(
        self,
        rules: Any = "classic",
        mode: str = "match",
        contract: Contract | str | None = None,
        seat: int = 0,
        opponents: str | Bot | Sequence[str | Bot] = "random",
        opponent_options: dict[str, Any] | Sequence[dict[str, Any]] | None = None,
        illegal: str = "penalty",
        illegal_reward: float = -100.0,
        render_mode: str | None = None,
        max_deals: int | None = None,
    ) -> None:
        if mode not in ("match", "deal"):
            raise ValueError(f"mode must be 'match' or 'deal', not {mode!r}")
        if max_deals is not None:
            max_deals = _count(max_deals, "max_deals is a number of deals from 1, or None", 1)
        seat = _count(seat, "seat must be 0 to 3", 0, 3)
        if illegal not in ("penalty", "raise"):
            raise ValueError(f"illegal must be 'penalty' or 'raise', not {illegal!r}")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be None or one of {self.metadata['render_modes']}, not {render_mode!r}")
        self.rules = _rules_of(rules)
        self.mode = mode
        self.contract: Contract | None = None
        if contract is not None:
            self.contract = Contract.parse(contract) if isinstance(contract, str) else Contract(contract)
        if self.contract is not None and mode != "deal":
            raise ValueError("contract= fixes the contract of a single deal: use it with mode='deal'")
        if self.contract is not None and self.contract not in self.rules.contracts:
            raise ValueError(f"{self.contract.id} is not a contract of these rules")  # not first at reset()
        self.seat = seat
        if isinstance(opponents, Bot):
            raise ValueError("give three opponents, not one Bot (one bot cannot hold three seats' memories)")
        names: list[str | Bot] = [opponents] * 3 if isinstance(opponents, str) else list(opponents)
        if len(names) != 3:
            raise ValueError(f"give one opponent name or three, not {len(names)}")
        for n in names:
            if not isinstance(n, str | Bot):
                raise ValueError(f"an opponent is a bot name or an opentrix.bots.Bot, not {n!r}")
        if len({id(n) for n in names if not isinstance(n, str)}) < sum(not isinstance(n, str) for n in names):
            raise ValueError("the same Bot object cannot take two seats: give each seat its own")
        per_seat = _options_per_opponent(names, opponent_options)
        self.opponent_names = [n if isinstance(n, str) else n.name for n in names]
        self.bots: dict[int, Bot] = {}
        others = [s for s in range(4) if s != seat]
        for s, spec, options in zip(others, names, per_seat, strict=True):
            self.bots[s] = _opponent(spec, s, options)
        # Deals dealt in an episode before it is cut short (truncated), as in the PettingZoo env:
        # Gymnasium's max_episode_steps counts the learner's decisions and so cuts deals in half.
        self.max_deals = max_deals
        self.illegal = illegal
        self.illegal_reward = float(illegal_reward)
        self.render_mode = render_mode
        self.observation_space = spaces.Dict(  # type: ignore[assignment]
            {
                "observation": spaces.Box(OBS_LOW, OBS_HIGH, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
            }
        )
        self.action_space = spaces.Discrete(A.NUM_ACTIONS)  # type: ignore[assignment]
        self._rng = random.Random()
        self._knowledge = Knowledge()
        self.match = Match(self.rules, seed=0)
        self._done = True
        self._truncated = False
        self._acted = False
        self._started = False  # step() before the first reset() is told so
        self._ended: dict[str, Any] = {}  # the last deal that ended during this step, for info

    def reset(self, *, seed: int | None = None, options: dict[str, Any] | None = None) -> tuple[Obs, dict[str, Any]]:
        super().reset(seed=seed)
        if seed is not None:
            self._rng = random.Random(seed)
        self.match = Match(self.rules, seed=self._rng.getrandbits(63))
        for bot in self.bots.values():
            bot.reseed(self._rng.getrandbits(63))
        self._knowledge.reset()
        self._done = False
        self._truncated = False
        self._acted = False
        self._started = True
        self._ended = {}
        reward = self._advance()
        assert not self._done and reward == 0.0, "the learner always acts before its first deal ends"
        return self._obs_info()

    def step(self, action: int) -> tuple[Obs, float, bool, bool, dict[str, Any]]:
        if self._done:
            raise RuntimeError("the episode is over: call reset()" if self._started else "call reset() before step()")
        match = self.match
        self._ended = {}
        if not is_action_id(action) or action not in match.legal_actions():
            error = illegal_action_error(match, action, f"seat {self.seat}")
            if self.illegal == "raise":
                raise error
            self._done = True
            obs, info = self._obs_info()  # the match never saw the action: nothing is legal any more
            info["illegal_action"] = str(error)
            return obs, self.illegal_reward, True, False, info
        match.apply(int(action))
        self._acted = True
        reward = self._after_action()
        if not self._done:
            reward += self._advance()
        obs, info = self._obs_info()
        return obs, reward, self._done and not self._truncated, self._truncated, info

    def action_masks(self) -> np.ndarray:
        """The legal actions now as booleans (what sb3-contrib's ``MaskablePPO`` asks for); all False
        once the episode is over."""
        if self._done:
            return np.zeros(A.NUM_ACTIONS, dtype=bool)
        return action_mask(view(self.match, self.seat)).astype(bool)

    def render(self) -> str | None:
        if self.render_mode != "ansi":
            return None
        v = view(self.match, self.seat)
        contract = v.contract.title if v.contract is not None else "(choosing)"
        hand = " ".join(A.to_str(c, symbols=True) for c in v.hand or ())
        return f"seat {self.seat} contract {contract} totals {list(v.totals)}\nhand {hand}"

    # -- the bots' turns ------------------------------------------------------------------------------

    def _advance(self) -> float:
        """Let the bots act until it is the learner's turn or the episode ends; the learner's reward."""
        reward = 0.0
        match = self.match
        while not self._done:
            if self.contract is not None and match.phase == _CHOOSE:
                match.apply(A.choose(self.contract))
                continue
            turn = match.turn
            if turn == self.seat:
                break
            assert turn is not None
            v = view(match, turn)
            match.apply(self.bots[turn].act(v, v.legal_actions))
            reward += self._after_action()
        return reward

    def _after_action(self) -> float:
        """After any action: score a finished deal, deal the next one or end the episode."""
        match = self.match
        if match.phase < _DEAL_OVER:
            return 0.0
        deal = match.deals[-1]
        assert deal.scores is not None
        self._ended = deal_ended(self._ended, deal)
        if match.phase == _MATCH_OVER or (self.mode == "deal" and deal.thrown_in is None):
            self._done = True
        elif self.max_deals is not None and len(match.deals) >= self.max_deals and self._acted:
            # (a deal the bots threw in before the learner's first decision cannot end the episode
            # inside reset(), which must hand the learner a decision)
            self._done = self._truncated = True
        else:
            match.start_deal()
        return seat_rewards(self.rules, deal.scores)[self.seat]

    def _obs_info(self) -> tuple[Obs, dict[str, Any]]:
        v = view(self.match, self.seat)
        mask = action_mask(v) if not self._done else np.zeros(A.NUM_ACTIONS, dtype=np.int8)
        obs = {"observation": encode(v, self._knowledge), "action_mask": mask}
        info: dict[str, Any] = {"action_mask": mask, "totals": v.totals, "deal_number": v.deal_number}
        if self.rules.partnership:
            info["team_totals"] = tuple(v.totals[s] + v.totals[s ^ 2] for s in range(4))
        return obs, info | self._ended


__all__ = ["TrixGymEnv"]
