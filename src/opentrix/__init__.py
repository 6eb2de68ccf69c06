"""opentrix: the open rules engine, bots, referee and tables for Trix (Trex).

The engine is pure and dependency-free::

    >>> from opentrix import Match, Rules, view
    >>> m = Match(Rules.preset("classic"), seed=1)
    >>> m.apply(m.legal_actions()[0])      # the king names a contract
"""

from . import actions
from .actions import Action
from .cards import Card, CardSet, Suit
from .contracts import Contract
from .deal import Deal, Phase, can_claim_redeal, deal_hands
from .errors import (
    IllegalAction,
    IllegalClaim,
    IllegalContract,
    IllegalDouble,
    IllegalPlay,
    InvalidDeal,
    NotYourTurn,
    TrixError,
    WrongPhase,
)
from .match import Match
from .record import Record, RecordError
from .rules import PRESETS, Points, Rules, RulesError
from .summary import DealSummary
from .view import View, view

__version__ = "0.1.0"

__all__ = [
    "PRESETS",
    "Action",
    "Card",
    "CardSet",
    "Contract",
    "Deal",
    "DealSummary",
    "IllegalAction",
    "IllegalClaim",
    "IllegalContract",
    "IllegalDouble",
    "IllegalPlay",
    "InvalidDeal",
    "Match",
    "NotYourTurn",
    "Phase",
    "Points",
    "Record",
    "RecordError",
    "Rules",
    "RulesError",
    "Suit",
    "TrixError",
    "View",
    "WrongPhase",
    "__version__",
    "actions",
    "can_claim_redeal",
    "deal_hands",
    "view",
]
