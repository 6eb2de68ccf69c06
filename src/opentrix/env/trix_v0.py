"""Trix as a PettingZoo AEC environment: ``trix_v0.env(rules="classic", mode="match", seed=0)``.

Agents ``player_0`` … ``player_3`` are seats 0–3. One action space for every decision
(``Discrete(opentrix.actions.NUM_ACTIONS)``: the 52 cards, pass, the contracts, doubling and redeal
answers) and observations ``{"observation": float32[OBS_SIZE], "action_mask": int8[NUM_ACTIONS]}``
built from the acting seat's ``view`` only (layout in ``observation.LAYOUT`` and ``docs/rl.md``).

``mode="match"`` plays a whole match (every deal dealt from the episode's seed); ``mode="deal"``
plays one deal: its king (the holder of the 7♥) names the contract, or ``contract=`` fixes it. A
thrown-in deal is dealt again inside the same episode, as at the table. Rewards are each deal's
scores, given to all four seats when the deal ends, so an episode's rewards sum to the match totals.

The rules live in the engine: this module only translates between PettingZoo and ``Match``.
"""

from __future__ import annotations

import json
import random
from typing import Any, ClassVar, TypeGuard

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv  # type: ignore[import-untyped]
from pettingzoo.utils import wrappers  # type: ignore[import-untyped]

from .. import actions as A
from ..contracts import Contract
from ..deal import Phase
from ..errors import IllegalAction, TrixError
from ..match import Match
from ..rules import Rules
from ..view import View, view
from .knowledge import Knowledge
from .observation import OBS_HIGH, OBS_LOW, OBS_SIZE, action_mask, encode
from .rewards import deal_ended, seat_rewards

AGENTS = tuple(f"player_{i}" for i in range(4))
_DEAL_OVER = int(Phase.DEAL_OVER)
_MATCH_OVER = int(Phase.MATCH_OVER)
_CHOOSE = int(Phase.CHOOSE_CONTRACT)


class IllegalActionError(IllegalAction, ValueError):
    """An action id that is not legal now; the message names the legal ones. The state is unchanged."""


def is_action_id(action: object) -> TypeGuard[int | np.integer[Any] | np.ndarray[Any, Any]]:
    """An int, a NumPy integer, or a 0-d integer array (``Discrete.sample()`` style values, which the
    space accepts); ``True`` is an int to Python but never a card or an answer."""
    if type(action) is int:  # the common case first: this runs on every step
        return True
    if isinstance(action, np.ndarray):
        return action.ndim == 0 and np.issubdtype(action.dtype, np.integer)
    return isinstance(action, int | np.integer) and not isinstance(action, bool | np.bool_)


def _seat_of(agent: str) -> int:
    if agent not in AGENTS:
        raise ValueError(f"unknown agent {agent!r}: the agents are {', '.join(AGENTS)}")
    return AGENTS.index(agent)


def describe_actions(actions: list[int] | tuple[int, ...]) -> str:
    """``"27 (3D), 30 (6D)"``: ids with their names, as error messages and logs print them."""
    return ", ".join(f"{a} ({A.to_str(a)})" for a in actions)


def illegal_action_error(match: Match, action: object, who: str) -> IllegalActionError:
    """The error for ``action`` in ``match``: why the engine refuses it, and what is legal instead."""
    legal = match.legal_actions()
    reason = ""
    if is_action_id(action) and 0 <= int(action) < A.NUM_ACTIONS:
        probe = match.copy()  # ask the engine why, on a copy: the real state is never touched
        try:
            probe.apply(int(action))
            reason = "not allowed now"
        except TrixError as e:
            reason = str(e)
        shown = f"{int(action)} ({A.to_str(int(action))})"
    else:
        reason = f"action ids are ints from 0 to {A.NUM_ACTIONS - 1}"
        shown = repr(action)
    return IllegalActionError(f"{who} cannot take action {shown}: {reason}; legal actions: {describe_actions(legal)}")


def _rules_of(rules: Rules | str | dict[str, Any]) -> Rules:
    """A ``Rules`` object, a preset name, or rules JSON as in the record format (a dict or its text)."""
    if isinstance(rules, Rules):
        return rules
    if isinstance(rules, str):
        if rules.lstrip().startswith("{"):
            try:
                data = json.loads(rules)
            except ValueError as e:
                raise ValueError(f"rules: not valid JSON ({e})") from None
            return Rules.from_json(data)
        return Rules.preset(rules)
    return Rules.from_json(rules)


def _count(value: object, says: str, low: int, high: int | None = None) -> int:
    """A whole number from ``low`` (to ``high``): an int or a NumPy integer, as configuration tools
    hand them over, but not a bool; else ValueError ``"{says}, not {value!r}"``."""
    if not isinstance(value, int | np.integer) or isinstance(value, bool | np.bool_):
        raise ValueError(f"{says}, not {value!r}")
    n = int(value)
    if n < low or (high is not None and n > high):
        raise ValueError(f"{says}, not {value!r}")
    return n


class raw_env(AECEnv[str, dict[str, np.ndarray], int]):  # type: ignore[misc]  # PettingZoo's naming
    """The unwrapped AEC environment; ``env()`` adds PettingZoo's standard wrappers."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": ["ansi", "human"],
        "name": "trix_v0",
        "is_parallelizable": False,
    }

    def __init__(
        self,
        rules: Rules | str | dict[str, Any] = "classic",
        mode: str = "match",
        contract: Contract | str | None = None,
        seed: int | None = None,
        render_mode: str | None = None,
        max_deals: int | None = None,
    ) -> None:
        super().__init__()
        if mode not in ("match", "deal"):
            raise ValueError(f"mode must be 'match' or 'deal', not {mode!r}")
        # Deals dealt in an episode before it is cut short (truncated): rules whose tiebreak cannot
        # end (its points set to 0) would otherwise never end a match.
        if max_deals is not None:
            max_deals = _count(max_deals, "max_deals is a number of deals from 1, or None", 1)
        self.max_deals = max_deals
        self.rules = _rules_of(rules)
        self.mode = mode
        self.contract: Contract | None = None
        if contract is not None:
            if mode != "deal":
                raise ValueError("contract= fixes the contract of a single deal: use it with mode='deal'")
            self.contract = Contract.parse(contract) if isinstance(contract, str) else Contract(contract)
            if self.contract not in self.rules.contracts:
                raise ValueError(f"{self.contract.id} is not a contract of these rules")
        if render_mode is not None and render_mode not in self.metadata["render_modes"]:
            raise ValueError(f"render_mode must be one of {self.metadata['render_modes']}")
        self.render_mode = render_mode
        self.possible_agents = list(AGENTS)
        self.agents: list[str] = []
        obs_space = spaces.Dict(
            {
                "observation": spaces.Box(OBS_LOW, OBS_HIGH, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (A.NUM_ACTIONS,), np.int8),
            }
        )
        self.observation_spaces = {a: obs_space for a in self.possible_agents}
        self.action_spaces = {a: spaces.Discrete(A.NUM_ACTIONS) for a in self.possible_agents}
        self._rng = random.Random(seed)
        self._knowledge = Knowledge()
        self._paid = False
        self.match: Match = Match(self.rules, seed=0)  # replaced by reset()

    # -- the PettingZoo API ---------------------------------------------------------------------------

    def observation_space(self, agent: str) -> spaces.Space[Any]:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space[Any]:
        return self.action_spaces[agent]

    def reset(self, seed: int | None = None, options: dict[str, Any] | None = None) -> None:
        if seed is not None:
            self._rng = random.Random(seed)
        self.match_seed = self._rng.getrandbits(63)
        self.match = Match(self.rules, seed=self.match_seed)
        self._knowledge.reset()
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._paid = False
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos: dict[str, dict[str, Any]] = {a: {} for a in self.agents}
        self._choose_fixed_contract()
        self.agent_selection = AGENTS[self._turn()]
        if self.render_mode == "human":
            self.render()

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        v = view(self.match, _seat_of(agent))
        return {"observation": encode(v, self._knowledge), "action_mask": action_mask(v)}

    def view(self, agent: str) -> View:
        """What ``agent`` may know now (the view observations are built from)."""
        return view(self.match, _seat_of(agent))

    def step(self, action: int | None) -> None:
        if not self.agents and not hasattr(self, "agent_selection"):  # as the wrapped env says it
            raise RuntimeError("reset() the environment before calling step()")
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        match = self.match
        if not is_action_id(action) or action not in match.legal_actions():
            raise illegal_action_error(match, action, agent)
        self._cumulative_rewards[agent] = 0.0
        if self._paid:  # the last step ended a deal: its rewards are in every agent's cumulative reward
            self.rewards = dict.fromkeys(AGENTS, 0.0)
            self._paid = False
        # A finished deal's info stays with each agent until it acts (env.last() has shown it then): the
        # others must still see it at their next turn.
        self.infos[agent] = {}
        match.apply(int(action))
        if match.phase >= _DEAL_OVER:
            self._deal_over()
            self._accumulate_rewards()
        if not (self.terminations[agent] or self.truncations[agent]):
            self.agent_selection = AGENTS[match.turn]  # type: ignore[index]
        if self.render_mode == "human":
            self.render()

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = self._text()
        if self.render_mode == "human":
            print(text)
            return None
        return text

    def close(self) -> None:
        pass

    # -- between deals ---------------------------------------------------------------------------------

    def _turn(self) -> int:
        turn = self.match.turn
        assert turn is not None
        return turn

    def _choose_fixed_contract(self) -> None:
        if self.contract is not None and self.match.phase == _CHOOSE:
            self.match.apply(A.choose(self.contract))

    def _deal_over(self) -> None:
        """Pay the finished deal's scores; deal the next deal, or end the episode."""
        match = self.match
        deal = match.deals[-1]
        assert deal.scores is not None
        self._paid = True
        paid = seat_rewards(self.rules, deal.scores)
        for s in range(4):
            self.rewards[AGENTS[s]] = paid[s]
            self.infos[AGENTS[s]] = deal_ended(self.infos[AGENTS[s]], deal)
        over = match.phase == _MATCH_OVER or (self.mode == "deal" and deal.thrown_in is None)
        if over:
            self.terminations = dict.fromkeys(self.agents, True)
            return
        if self.max_deals is not None and len(match.deals) >= self.max_deals:
            self.truncations = dict.fromkeys(self.agents, True)
            return
        match.start_deal()
        self._choose_fixed_contract()

    def _text(self) -> str:
        v = view(self.match, None)
        contract = v.contract.title if v.contract is not None else "(choosing)"
        trick = " ".join(f"{s}:{A.to_str(c, symbols=True)}" for s, c in v.trick)
        lines = [
            f"deal {v.deal_number} kingdom {v.kingdom} king {v.king} contract {contract} phase {v.phase}",
            f"turn {v.turn}  trick [{trick}]  totals {list(v.totals)}",
        ]
        return "\n".join(lines)


class TerminateIllegal(wrappers.TerminateIllegalWrapper):  # type: ignore[misc]
    """PettingZoo's ``TerminateIllegalWrapper``, which also says what happened: after an illegal
    action every agent's ``info`` has ``illegal_agent`` (who made it) and the offender's also
    ``illegal_action`` (why the engine refused it, and what was legal). The wrapper marks every agent
    terminated *and* truncated; these keys tell that end from a real one without guessing from the
    reward (-100 is also an ordinary deal score)."""

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        already = self._terminated
        super().step(action)
        if self._terminated and not already:  # this action was refused; the match never saw it
            raw = self.unwrapped
            why = str(illegal_action_error(raw.match, action, agent))
            for a in raw.agents:  # added to what is there: a deal's scores not yet shown stay
                raw.infos[a] = raw.infos[a] | {"illegal_agent": agent} | ({"illegal_action": why} if a == agent else {})


class ActionIdWrapper(wrappers.BaseWrapper[str, dict[str, np.ndarray], int]):  # type: ignore[misc]
    """Refuses what is not an action id (``True``, ``1.0``, ``"3"``, ``93``, ``-1``) with the raw env's
    own error: PettingZoo's wrappers let ``True`` through (it is in a ``Discrete`` space) and then fail
    on it with NumPy's "truth value of an array" message, and leave ids out of range to an ``assert``
    (gone under ``python -O``, where ``-1`` would read the mask's last entry). ``None`` is the step of
    an agent whose episode is over, and an error for one still playing."""

    def step(self, action: int | None) -> None:
        agent = self.agent_selection
        over = self.terminations.get(agent, False) or self.truncations.get(agent, False)
        if not (action is None and over) and not (is_action_id(action) and 0 <= int(action) < A.NUM_ACTIONS):
            raise illegal_action_error(self.unwrapped.match, action, agent)
        super().step(action)


def env(illegal_reward: float = -100.0, **kwargs: Any) -> AECEnv[str, dict[str, np.ndarray], int]:
    """The environment with PettingZoo's standard wrappers: an illegal action ends the episode and
    costs its agent ``illegal_reward``; out-of-range actions, values that are not action ids and
    calls out of order are caught."""
    e: AECEnv[str, dict[str, np.ndarray], int] = raw_env(**kwargs)
    e = TerminateIllegal(e, illegal_reward=illegal_reward)
    e = wrappers.AssertOutOfBoundsWrapper(e)
    e = ActionIdWrapper(e)
    e = wrappers.OrderEnforcingWrapper(e)
    return e


__all__ = [
    "AGENTS",
    "ActionIdWrapper",
    "IllegalActionError",
    "TerminateIllegal",
    "env",
    "illegal_action_error",
    "raw_env",
]
