"""Trix as an OpenSpiel Python game, ``pyspiel.load_game("python_trix")`` (optional: needs open_spiel).

One game is one deal, played by the engine: chance deals the 52 cards one by one (or, with the
``seed`` parameter, the deal comes from ``opentrix.deal.deal_hands(seed, 0)`` and there is no
chance node); the king (holder of the 7♥) names the contract unless ``contract`` fixes it; then come
the redeal answers, the doubling and the play. Returns are the deal's scores (divided by ``scale``;
with ``returns="advantage"`` each seat's score minus a quarter of the contract's total, which makes
the contract choice compare hands rather than contracts). In partnership play each seat is paid
its team's score (and the advantage is over half the total). A thrown-in deal ends the game at 0.

Information states and observations are built from ``opentrix.view.view`` only, and
``resample_from_infostate`` deals the unseen cards again consistently with it (``worlds.py``), so
IS-MCTS and other imperfect-information algorithms of OpenSpiel run on it unchanged.

Parameters: ``rules`` (a preset name or rules JSON), ``contract`` ("" = the king chooses),
``seed`` (-1 = chance deals), ``returns`` ("score" or "advantage"), ``scale`` (float).
"""

from __future__ import annotations

import base64
import dataclasses
import json
import random
from typing import Any

import numpy as np

try:
    import pyspiel  # type: ignore[import-not-found]
except ModuleNotFoundError as e:
    raise ModuleNotFoundError("OpenSpiel is not installed: pip install 'opentrix[rl,openspiel]'", name="pyspiel") from e

from .. import actions as A
from ..cards import FULL_DECK, card_name
from ..contracts import Contract
from ..deal import Phase, deal_hands
from ..match import Match
from ..rules import Rules
from ..view import View, view
from .knowledge import Knowledge
from .observation import DOUBLABLE_INDEX, LAYOUT, OBS_SIZE, deal_context, encode
from .rewards import seat_rewards
from .worlds import contract_total, sample_world

SHORT_NAME = "python_trix"
_DEFAULTS: dict[str, Any] = {"rules": "classic", "contract": "", "seed": -1, "returns": "score", "scale": 1.0}
_MAX_GAME_LENGTH = 52 + 1 + 4 + 4 * 6 + 52 * 4  # chance, contract, claims, doubling, plays and passes

GAME_TYPE = pyspiel.GameType(
    short_name=SHORT_NAME,
    long_name="Trix (opentrix engine, one deal)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.GENERAL_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=4,
    min_num_players=4,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    parameter_specification=_DEFAULTS,
)


def rules_param(rules: Rules) -> str:
    """The ``rules`` game parameter for ``rules``: its preset name, or ``b64:`` and its JSON in
    URL-safe base64. A game string (``str(game)``, serialized states) cannot hold JSON: its commas
    and brackets would be read as the game's own syntax."""
    data = rules.to_json()
    if isinstance(data, str):
        return data
    text = json.dumps(data, sort_keys=True, separators=(",", ":"))
    return "b64:" + base64.urlsafe_b64encode(text.encode()).decode().rstrip("=")


def _parse_rules(text: str) -> Rules:
    text = text.strip()
    if text.startswith("b64:"):
        code = text[4:]
        try:  # validated: the lenient decoder drops stray characters and reads "!!!" as no rules at all
            text = base64.b64decode(code + "=" * (-len(code) % 4), altchars=b"-_", validate=True).decode()
        except (ValueError, UnicodeDecodeError):
            raise ValueError(f"rules {text!r}: not base64 of rules JSON") from None
    if not text.startswith("{"):
        return Rules.preset(text)
    try:
        data = json.loads(text)
    except ValueError as e:
        raise ValueError(f"rules: not valid JSON ({e})") from None
    return Rules.from_json(data)


def _utility_bound(rules: Rules) -> float:
    p = rules.points
    worst = 2 * abs(p.king_of_hearts) + 8 * abs(p.queen) + 13 * abs(p.diamond) + 13 * abs(p.trick)
    return float(max(worst, *(abs(x) for x in p.trix)) * 2)


class TrixGame(pyspiel.Game):  # type: ignore[misc]
    """One Trix deal; see the module docstring for the parameters."""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        p = {**_DEFAULTS, **(params or {})}
        self.rules = _parse_rules(str(p["rules"]))
        self.contract = Contract.parse(p["contract"]) if p["contract"] else None
        if self.contract is not None and self.contract not in self.rules.contracts:
            raise ValueError(f"{self.contract.id} is not a contract of these rules")
        self.seed = int(p["seed"])
        if self.seed < -1:
            raise ValueError(f"seed is -1 (chance deals) or a deal's seed from 0, not {self.seed}")
        if p["returns"] not in ("score", "advantage"):
            raise ValueError(f"returns must be 'score' or 'advantage', not {p['returns']!r}")
        self.advantage = p["returns"] == "advantage"
        self.scale = float(p["scale"])
        if not 0 < self.scale < float("inf"):
            raise ValueError(f"scale must be a positive number, not {self.scale!r}")  # it divides the returns
        bound = _utility_bound(self.rules) / self.scale
        info = pyspiel.GameInfo(
            num_distinct_actions=A.NUM_ACTIONS,
            max_chance_outcomes=52,
            num_players=4,
            min_utility=-bound,
            max_utility=bound,
            max_game_length=_MAX_GAME_LENGTH,
        )
        # The rules as a game string can hold them, so that str(game) loads the same game again.
        params = {**p, "rules": rules_param(self.rules), "seed": self.seed, "scale": self.scale}
        super().__init__(GAME_TYPE, info, params)
        self.shared = _Shared(self)

    def new_initial_state(self) -> TrixState:
        return TrixState(self)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        """Pickled and deep-copied as its game string, which loads the same game again."""
        return pyspiel.load_game, (str(self),)

    def state_from_view(self, v: View, rng: random.Random) -> TrixState:
        """A state at ``v``'s decision with the unseen cards dealt at random (a root for search)."""
        return TrixState(self, sample_world(v, rng))

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> TrixObserver:
        """OpenSpiel's default observation (``None``), information states, or public observations
        (``PrivateInfoType.NONE``: the table as a spectator sees it, so no hand leaks into them)."""
        if iig_obs_type is None:
            return TrixObserver(perfect_recall=False)
        private = iig_obs_type.private_info
        if not iig_obs_type.public_info or private == pyspiel.PrivateInfoType.ALL_PLAYERS:
            raise ValueError(
                "python_trix observers show the public table with one seat's own cards (private_info="
                "SINGLE_PLAYER) or without them (NONE); public_info=False and ALL_PLAYERS are not offered"
            )
        return TrixObserver(bool(iig_obs_type.perfect_recall), private=private == pyspiel.PrivateInfoType.SINGLE_PLAYER)


class _Shared:
    """Per-game settings every state of a game shares; OpenSpiel's clone deep-copies each state
    attribute, so this one copies to itself."""

    __slots__ = ("advantage", "contract", "rng", "rules", "scale", "seed")

    def __init__(self, game: TrixGame) -> None:
        self.rules = game.rules
        self.contract = game.contract
        self.seed = game.seed
        self.advantage = game.advantage
        self.scale = game.scale
        # What resample_from_infostate draws from (OpenSpiel's IS-MCTS hands it an unseeded sampler):
        # seeded by the game's seed, so a search on a seeded game repeats; reseed it between runs.
        self.rng = random.Random(game.seed if game.seed >= 0 else None)

    def __deepcopy__(self, memo: dict[int, Any]) -> _Shared:
        return self


class _Deal:
    """The mutable part of a state: the cards dealt so far, then the engine's ``Match``. Copied with
    ``Match.copy()`` (fast) when OpenSpiel clones the state."""

    __slots__ = ("dealt", "match")

    def __init__(self, match: Match | None = None) -> None:
        self.dealt: list[int] = []  # chance outcomes so far: card i goes to seat i % 4
        self.match = match

    def __deepcopy__(self, memo: dict[int, Any]) -> _Deal:
        d = _Deal(self.match.copy() if self.match is not None else None)
        d.dealt = self.dealt.copy()
        return d


class TrixState(pyspiel.State):  # type: ignore[misc]
    """A deal in progress: the cards dealt so far, then an engine ``Match`` at that deal."""

    def __init__(self, game: TrixGame, match: Match | None = None) -> None:
        super().__init__(game)
        self._shared: _Shared = game.shared
        self._deal = _Deal(match)
        if match is None and self._shared.seed >= 0:
            self._start(deal_hands(self._shared.seed, 0))

    @property
    def match(self) -> Match | None:
        """The engine state, once the cards are dealt."""
        return self._deal.match

    @property
    def dealt(self) -> list[int]:
        return self._deal.dealt

    def _start(self, hands: tuple[int, int, int, int]) -> None:
        m = Match(self._shared.rules, hands)
        if self._shared.contract is not None:
            m.apply(A.choose(self._shared.contract))
        self._deal.match = m

    # -- the OpenSpiel API ----------------------------------------------------------------------------

    def current_player(self) -> int:
        m = self.match
        if m is None:
            return int(pyspiel.PlayerId.CHANCE)
        turn = m.turn
        return int(pyspiel.PlayerId.TERMINAL) if turn is None else turn

    def is_terminal(self) -> bool:
        return self.match is not None and self.match.turn is None

    def _legal_actions(self, player: int) -> list[int]:
        assert self.match is not None
        return sorted(self.match.legal_actions())

    def chance_outcomes(self) -> list[tuple[int, float]]:
        dealt = 0
        for c in self.dealt:
            dealt |= 1 << c
        left = [c for c in range(52) if not dealt >> c & 1]
        p = 1.0 / len(left)
        return [(c, p) for c in left]

    def _apply_action(self, action: int) -> None:
        if self.match is None:
            if not 0 <= action < 52 or action in self.dealt:  # OpenSpiel does not check chance outcomes
                raise ValueError(f"chance deals each card 0-51 once; {action} is not one of the cards left")
            self._deal.dealt.append(action)
            if len(self.dealt) == 52:
                hands = [0, 0, 0, 0]
                for i, c in enumerate(self.dealt):
                    hands[i & 3] |= 1 << c
                self._start((hands[0], hands[1], hands[2], hands[3]))
            return
        self._deal.match.apply(action)  # type: ignore[union-attr]

    def _action_to_string(self, player: int, action: int) -> str:
        if player == pyspiel.PlayerId.CHANCE:
            return f"deal {card_name(action)}"
        return A.to_str(action)

    def returns(self) -> list[float]:
        m = self.match
        if m is None or m.turn is not None or not m.deals:
            return [0.0, 0.0, 0.0, 0.0]
        deal = m.deals[-1]
        if deal.scores is None or deal.thrown_in is not None:
            return [0.0, 0.0, 0.0, 0.0]
        shared = self._shared
        paid = seat_rewards(m.rules, deal.scores)  # in partnership, the team's score
        share = 2 if m.rules.partnership else 4  # of the contract's total, for an average hand (team)
        base = contract_total(m.rules.points, Contract(deal.contract)) / share if shared.advantage else 0.0
        return [(s - base) / shared.scale for s in paid]

    def resample_from_infostate(self, player_id: int, probability_sampler: Any = None) -> TrixState:
        """Another state ``player_id`` cannot tell from this one: the unseen cards dealt again."""
        rng = self._shared.rng
        state = self.clone()
        if self.match is None:  # still dealing: keep this player's cards, shuffle the others'
            others = [c for i, c in enumerate(self.dealt) if i & 3 != player_id]
            rng.shuffle(others)
            it = iter(others)
            state._deal.dealt = [c if i & 3 == player_id else next(it) for i, c in enumerate(self.dealt)]
            return state  # type: ignore[no-any-return]
        if self.match.phase >= Phase.DEAL_OVER:  # nothing is left to decide: the true state is in the set
            return state  # type: ignore[no-any-return]
        # any player may ask, the one to act or not; a guess the replay refuses is drawn again
        state._deal.match = sample_world(view(self.match, player_id), rng)
        return state  # type: ignore[no-any-return]

    def __str__(self) -> str:
        m = self.match
        if m is None:
            return f"dealing: {len(self.dealt)} cards dealt"
        hands = m.deals[-1].hands if m.deals else m.pending_hands
        assert hands is not None
        parts = [f"seat {s}: {' '.join(card_name(c) for c in range(52) if hands[s] >> c & 1)}" for s in range(4)]
        return f"{m!r}\n" + "\n".join(parts)


# The information state tensor adds to the observation what it forgets (perfect recall): each seat's
# doubling answer as seen, and the deal's plays in order, one row a play (the card or pass, one-hot,
# then the relative seat that made it). Trick order and who led follow from the rows.
HISTORY_STEPS = 52 * 4  # a deal's cards, and at most three passes for each card placed in Trix
_ROW = A.PASS + 1 + 4
_ANSWERS = 4 * (1 + len(A.DOUBLABLE))  # per relative seat: answered, then the doublable cards it doubled
INFO_STATE_SIZE = OBS_SIZE + _ANSWERS + HISTORY_STEPS * _ROW


def encode_history(v: View, out: np.ndarray) -> None:
    """Fill ``out`` (``INFO_STATE_SIZE - OBS_SIZE`` floats) with the doubling answers and the plays."""
    assert v.seat is not None
    out.fill(0)
    seat = v.seat
    width = 1 + len(A.DOUBLABLE)
    for s, cards in v.doubling_answers:
        base = width * ((s - seat) & 3)
        out[base] = 1.0
        for c in cards:
            out[base + 1 + DOUBLABLE_INDEX[c]] = 1.0
    rows = out[_ANSWERS:].reshape(HISTORY_STEPS, _ROW)
    for i, (s, action) in enumerate(v.plays):
        rows[i, action] = 1.0
        rows[i, A.PASS + 1 + ((s - seat) & 3)] = 1.0


class TrixObserver:
    """Observation tensors (``opentrix.env.observation`` layout) and strings, from ``view`` only;
    with ``private=False`` from the spectator's view, seen from ``player``'s chair. With perfect
    recall (the information state) the tensor goes on with the doubling answers and every play of
    the deal in order (``encode_history``)."""

    def __init__(self, perfect_recall: bool, private: bool = True) -> None:
        self.perfect_recall = perfect_recall
        self.private = private
        self.tensor = np.zeros(INFO_STATE_SIZE if perfect_recall else OBS_SIZE, np.float32)
        self.dict = {"observation": self.tensor[:OBS_SIZE]}
        if perfect_recall:
            self.dict["answers"] = self.tensor[OBS_SIZE : OBS_SIZE + _ANSWERS].reshape(4, -1)
            self.dict["plays"] = self.tensor[OBS_SIZE + _ANSWERS :].reshape(HISTORY_STEPS, _ROW)

    def _view(self, match: Match, player: int) -> View:
        return view(match, player) if self.private else dataclasses.replace(view(match, None), seat=player)

    def set_from(self, state: TrixState, player: int) -> None:
        if state.match is None:
            self.tensor.fill(0)
            if self.private:
                self.tensor[_own_dealt(state, player)] = 1.0  # the hand block comes first
            n = len(state.dealt)  # card i went to seat i % 4: each seat's cards so far
            sizes = LAYOUT["hand_sizes"].start
            for r in range(4):
                self.tensor[sizes + r] = ((n - (player + r) % 4 + 3) // 4) / 13
            return
        v = self._view(state.match, player)
        encode(v, Knowledge(), self.tensor[:OBS_SIZE])
        if self.perfect_recall:
            encode_history(v, self.tensor[OBS_SIZE:])

    def string_from(self, state: TrixState, player: int) -> str:
        if state.match is None:
            dealt = " ".join(card_name(c) for c in _own_dealt(state, player)) if self.private else "-"
            return f"p{player} dealing {len(state.dealt)} {dealt}"
        return infostate_string(self._view(state.match, player), with_history=self.perfect_recall)


def _own_dealt(state: TrixState, player: int) -> list[int]:
    return sorted(c for i, c in enumerate(state.dealt) if i & 3 == player)


def infostate_string(v: View, with_history: bool = True) -> str:
    """What seat ``v.seat`` knows, as one line. With history: every public action in order.

    The doubling answers are listed seat by seat: in sequential doubling, who was asked is itself
    news (a seat passed over holds no doublable card), so two states that differ only there differ
    for every seat."""
    assert v.seat is not None
    hand = f"{int(v.hand) & FULL_DECK:x}" if v.hand is not None else "-"
    contract = v.contract.id if v.contract is not None else "-"
    answers = ",".join(f"{s}{'+'.join(card_name(c) for c in cs) or '-'}" for s, cs in v.doubling_answers)
    head = (
        f"p{v.seat} king{v.king} {v.phase} turn{v.turn} contract:{contract} "
        f"avail:{','.join(str(int(c)) for c in deal_context(v)[1])} hand:{hand} "
        f"doubled:{','.join(f'{s}{card_name(c)}' for s, c in v.doubled)} answers:{answers} "
        f"totals:{','.join(map(str, v.totals))}"
    )
    if with_history:
        plays = " ".join(f"{s}{A.to_str(a)}" for s, a in v.plays)
    else:
        # What the observation tensor holds beyond the head: the trick, and each seat's cards played
        # and taken and what the table has inferred it lacks (in the order of absolute seats).
        plays = " ".join(f"{s}{A.to_str(a)}" for s, a in v.trick)
        if v.contract is Contract.TRIX:
            runs = ("-" if x is None else f"{card_name(x[0])}{card_name(x[1])}" for x in v.layouts)
            plays += " layouts:" + ",".join(runs) + " out:" + ",".join(map(str, v.out))
        if v.contract is not None:
            know = Knowledge().update(v)
            plays += (
                f" played:{','.join(f'{x:x}' for x in know.played)}"
                f" taken:{','.join(f'{int(x):x}' for x in v.taken)}"
                f" absent:{','.join(f'{x:x}' for x in know.absent)}"
                f" voids:{','.join(f'{x:x}' for x in know.voids)}"
            )
    return f"{head} | {plays}"


pyspiel.register_game(GAME_TYPE, TrixGame)

__all__ = [
    "GAME_TYPE",
    "HISTORY_STEPS",
    "INFO_STATE_SIZE",
    "SHORT_NAME",
    "TrixGame",
    "TrixObserver",
    "TrixState",
    "encode_history",
    "infostate_string",
    "rules_param",
]
