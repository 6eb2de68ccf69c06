"""The observation vector: one seat's view of the table as a flat float32 array, plus the action mask.

Everything is built from ``opentrix.view.view(match, seat)`` (and the public inferences of
``Knowledge``, themselves read from views), so an observation can never hold another seat's hand.
Seats are *relative*: index 0 is the observing seat, 1 the next seat in turn order, 2 the seat
across, 3 the previous one. Card blocks are 52 wide in the engine's card order (``suit * 13 + rank``,
suits S H D C, rank 0 = two … 12 = ace).

The 0/1 part is packed into one Python int from the view's card-set bitmasks and unpacked by numpy
in a single call, which keeps the cost per observation to a few microseconds. ``LAYOUT`` lists the
slices; ``docs/rl.md`` prints it.
"""

from __future__ import annotations

import numpy as np

from .. import actions as A
from ..contracts import Contract
from ..deal import Phase
from ..view import View
from .knowledge import Knowledge

# (name, size) in order. Card blocks first, then one-hot and flag bits, then the scaled numbers.
_BIT_FIELDS: tuple[tuple[str, int], ...] = (
    ("hand", 52),
    ("played_0", 52),  # cards played (Trix: placed) this deal by relative seat 0..3
    ("played_1", 52),
    ("played_2", 52),
    ("played_3", 52),
    ("trick_0", 52),  # the card each relative seat has put on the current trick
    ("trick_1", 52),
    ("trick_2", 52),
    ("trick_3", 52),
    ("taken_0", 52),  # cards each relative seat has captured this deal
    ("taken_1", 52),
    ("taken_2", 52),
    ("taken_3", 52),
    ("absent_1", 52),  # cards relative seats 1..3 are known not to hold (voids, Trix passes, ...)
    ("absent_2", 52),
    ("absent_3", 52),
    ("doubled", 52),  # cards shown doubled this deal
    ("placeable", 52),  # Trix: cards that may be placed on the layouts now
    ("phase", 6),  # choose_contract, claim, double, play, deal_over, match_over
    ("contract", 6),  # king_of_hearts, queens, diamonds, ltoosh, trix, complex (all 0 before the choice)
    ("available", 6),  # contracts the king may still name in this kingdom, besides the deal's own
    ("king", 4),  # relative seat of the king
    ("turn", 4),  # relative seat to act (all 0 between deals)
    ("leader", 4),  # relative seat that led the current trick
    ("voids", 16),  # relative seat * 4 + suit: suits each seat has shown it lacks
    ("doubled_by", 20),  # doublable card (K♥ Q♠ Q♥ Q♦ Q♣) * 4 + relative seat of its holder
    ("out", 16),  # Trix: relative seat * 4 + place in which it emptied its hand
    ("tiebreak", 1),  # a tiebreak deal (extra King of Hearts) or a deal of a tiebreak kingdom
    ("kingdom", 4),  # kingdom number 0..3 (later tiebreak kingdoms count as 3)
)
_FLOAT_FIELDS: tuple[tuple[str, int], ...] = (
    ("totals", 4),  # match totals by relative seat, divided by SCORE_SCALE
    ("tricks", 4),  # tricks taken this deal by relative seat, / 13
    ("hand_sizes", 4),  # cards left in each relative seat's hand, / 13
    ("deal_number", 1),  # deals dealt so far in the match, / 20
)
SCORE_SCALE = 500.0


def _offsets() -> dict[str, slice]:
    out: dict[str, slice] = {}
    i = 0
    for name, size in (*_BIT_FIELDS, *_FLOAT_FIELDS):
        out[name] = slice(i, i + size)
        i += size
    return out


LAYOUT: dict[str, slice] = _offsets()
NUM_BITS = sum(size for _, size in _BIT_FIELDS)
OBS_SIZE = NUM_BITS + sum(size for _, size in _FLOAT_FIELDS)
_NBYTES = (NUM_BITS + 7) // 8

_F = {name: s.start for name, s in LAYOUT.items()}
_PHASE, _CONTRACT, _AVAILABLE = _F["phase"], _F["contract"], _F["available"]
_KING, _TURN, _LEADER, _VOIDS = _F["king"], _F["turn"], _F["leader"], _F["voids"]
_DOUBLED_BY, _OUT, _TIEBREAK, _KINGDOM = _F["doubled_by"], _F["out"], _F["tiebreak"], _F["kingdom"]
_PLAYED, _TRICK, _TAKEN, _ABSENT = _F["played_0"], _F["trick_0"], _F["taken_0"], _F["absent_1"]
_DOUBLED, _PLACEABLE = _F["doubled"], _F["placeable"]
DOUBLABLE_INDEX = {c: i for i, c in enumerate(A.DOUBLABLE)}  # K♥ Q♠ Q♥ Q♦ Q♣ to 0..4, as in the blocks that list them
_TRIX = Contract.TRIX
_KOH = Contract.KING_OF_HEARTS
_DEAL_OVER = Phase.DEAL_OVER

# Bounds for the observation Box: 0/1 for the bits, generous finite bounds for the numbers.
OBS_LOW = np.zeros(OBS_SIZE, np.float32)
OBS_HIGH = np.ones(OBS_SIZE, np.float32)
# Totals and the deal count have no bound the rules can promise (custom points, tiebreak kingdoms):
# left open, so that every observation lies in the space.
OBS_LOW[LAYOUT["totals"]] = -np.inf
OBS_HIGH[LAYOUT["totals"]] = np.inf
OBS_HIGH[LAYOUT["deal_number"]] = np.inf


def deal_context(v: View) -> tuple[int, tuple[Contract, ...], bool]:
    """The kingdom, the contracts the king may still name and whether it is a tiebreak deal, for the
    deal ``v`` shows, as they were while it was played: the ``kingdom``, ``available`` and ``tiebreak``
    fields. (While a contract is being chosen, those of the deal about to be named.)

    Before a deal is over the view holds them (its ``available_contracts`` leave out the contract being
    played). Once it is over (``deal_over`` or ``match_over``) the match has moved on to the next deal:
    a deal that ended its kingdom shows the next kingdom with every contract available again, and the
    last regular deal of a tied match under ``extra_koh_deal`` already shows the tiebreak deal's flag.
    They are derived back from the view here, with no help from the engine."""
    kingdom = v.kingdom
    rules = v.rules
    available = v.available_contracts
    contract = v.contract
    if v.phase < _DEAL_OVER or contract is None:
        return kingdom, available, v.tiebreak_deal or kingdom >= rules.kingdoms
    if v.thrown_in is not None:  # nothing moved on; the king names a contract again, this one too
        return kingdom, tuple(c for c in available if c is not contract), v.tiebreak_deal or kingdom >= rules.kingdoms
    if v.tiebreak_deal and contract is _KOH and _played_out(v) > rules.kingdoms * len(rules.contracts):
        return kingdom, (), True  # an extra King of Hearts deal (extra_koh_deal) after the regular ones
    # A regular deal. It ended its kingdom if no contract is played in the kingdom now, or if it is the
    # one after which the tie called for an extra King of Hearts deal (only a match's last deal can).
    if v.tiebreak_deal or len(available) == len(rules.contracts):
        kingdom -= 1
        available = ()  # its contract was the kingdom's last
    return kingdom, available, kingdom >= rules.kingdoms  # extra_kingdom: a tiebreak kingdom's deal


def _played_out(v: View) -> int:
    """The match's deals up to the one ``v`` shows, thrown-in ones left out. The view's history has
    every finished deal of the match, except in a match rebuilt in the middle (``worlds``): there the
    thrown-in deals before it cannot be counted, and a last regular deal of King of Hearts that was
    preceded by some reads as a tiebreak deal."""
    return v.deal_number + 1 - sum(1 for h in v.history if h.thrown_in is not None)


def encode(v: View, know: Knowledge, out: np.ndarray | None = None) -> np.ndarray:
    """Fill ``out`` (or a new array) with the observation of ``v``; ``know`` is updated from ``v``."""
    if v.seat is None:
        raise ValueError("observations are for a seat, not a spectator")
    if out is None:
        out = np.empty(OBS_SIZE, np.float32)
    know.update(v)
    seat = v.seat
    r0, r1, r2, r3 = seat, (seat + 1) & 3, (seat + 2) & 3, (seat + 3) & 3
    played, absent, voids = know.played, know.absent, know.voids
    taken = v.taken
    bits = int(v.hand) if v.hand is not None else 0
    in_deal = v.contract is not None
    if in_deal:
        bits |= (
            (played[r0] << _PLAYED)
            | (played[r1] << (_PLAYED + 52))
            | (played[r2] << (_PLAYED + 104))
            | (played[r3] << (_PLAYED + 156))
            | (int(taken[r0]) << _TAKEN)
            | (int(taken[r1]) << (_TAKEN + 52))
            | (int(taken[r2]) << (_TAKEN + 104))
            | (int(taken[r3]) << (_TAKEN + 156))
            | (absent[r1] << _ABSENT)
            | (absent[r2] << (_ABSENT + 52))
            | (absent[r3] << (_ABSENT + 104))
            | (voids[r0] << _VOIDS)
            | (voids[r1] << (_VOIDS + 4))
            | (voids[r2] << (_VOIDS + 8))
            | (voids[r3] << (_VOIDS + 12))
            | (1 << (_CONTRACT + int(v.contract)))  # type: ignore[arg-type]
        )
        for s, c in v.trick:
            bits |= 1 << (_TRICK + 52 * ((s - seat) & 3) + c)
        if v.trick:
            bits |= 1 << (_LEADER + ((v.trick[0][0] - seat) & 3))
        for holder, c in v.doubled:
            bits |= (1 << (_DOUBLED + c)) | (1 << (_DOUBLED_BY + 4 * DOUBLABLE_INDEX[c] + ((holder - seat) & 3)))
        if v.contract is _TRIX:
            bits |= know.placeable << _PLACEABLE
            for place, s in enumerate(v.out):
                bits |= 1 << (_OUT + 4 * ((s - seat) & 3) + place)
    bits |= 1 << (_PHASE + int(v.phase))
    kingdom, available, tiebreak = deal_context(v)
    for c in available:
        bits |= 1 << (_AVAILABLE + int(c))
    bits |= 1 << (_KING + ((v.king - seat) & 3))
    if v.turn is not None:
        bits |= 1 << (_TURN + ((v.turn - seat) & 3))
    if tiebreak:
        bits |= 1 << _TIEBREAK
    bits |= 1 << (_KINGDOM + min(kingdom, 3))
    raw = np.frombuffer(bits.to_bytes(_NBYTES, "little"), np.uint8)
    out[:NUM_BITS] = np.unpackbits(raw, count=NUM_BITS, bitorder="little")
    t, k, h = v.totals, v.tricks_taken, v.hand_sizes
    out[NUM_BITS:] = (
        t[r0] / SCORE_SCALE,
        t[r1] / SCORE_SCALE,
        t[r2] / SCORE_SCALE,
        t[r3] / SCORE_SCALE,
        k[r0] / 13,
        k[r1] / 13,
        k[r2] / 13,
        k[r3] / 13,
        h[r0] / 13,
        h[r1] / 13,
        h[r2] / 13,
        h[r3] / 13,
        v.deal_number / 20,
    )
    return out


def action_mask(v: View, out: np.ndarray | None = None) -> np.ndarray:
    """1 for each legal action of ``v.seat`` (all 0 when it is not that seat's turn)."""
    if out is None:
        out = np.zeros(A.NUM_ACTIONS, np.int8)
    else:
        out.fill(0)
    if v.legal_actions:
        out[list(v.legal_actions)] = 1
    return out


def describe(obs: np.ndarray) -> dict[str, np.ndarray]:
    """Split an observation into its named fields (for debugging and docs)."""
    return {name: obs[s] for name, s in LAYOUT.items()}


__all__ = [
    "LAYOUT",
    "NUM_BITS",
    "OBS_HIGH",
    "OBS_LOW",
    "OBS_SIZE",
    "SCORE_SCALE",
    "action_mask",
    "deal_context",
    "describe",
    "encode",
]
