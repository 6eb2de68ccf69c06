"""Each seat's view as JSON, for every connection at once, without serialising the shared part four times.

A seat's view differs from the spectator's only in a few fields (the seat, its hand, its legal actions,
and the doubled cards and doubling answers while a hidden reveal is pending). The shared part is serialised once and the
private part per seat; the two are joined into one JSON object whose content equals
``view(match, seat).to_dict()`` exactly (``tests/test_server_views.py`` checks it over whole matches).
"""

from __future__ import annotations

import json
from collections.abc import Iterable

from .. import actions as A
from ..cards import card_name
from ..match import Match
from ..view import view

PRIVATE = ("seat", "hand", "legal_actions", "doubled", "doubling_answers")


def _dumps(obj: object) -> str:
    return json.dumps(obj, ensure_ascii=False, separators=(",", ":"))


# Before the match starts nobody sees the first deal, nor whom it makes king: a host could otherwise
# open tables until he liked his hand (the cards are dealt when the table is made, from its seed).
LOBBY_HIDDEN: dict[str, object] = {"hand": None, "legal_actions": [], "king": None, "turn": None}


def views_json(match: Match, seats: Iterable[int | None], lobby: bool = False) -> dict[int | None, str]:
    """The JSON text of ``view(match, seat).to_dict()`` for each of ``seats`` (None: a spectator);
    ``lobby``: the spectator's view with the first deal's king and turn hidden too, for everyone."""
    wanted = set(seats)
    public = view(match, None).to_dict()
    if lobby:
        public |= LOBBY_HIDDEN
        return {seat: _dumps({**public, "seat": seat}) for seat in wanted}
    out: dict[int | None, str] = {}
    if None in wanted:
        out[None] = _dumps(public)
    if wanted - {None}:
        shared = _dumps({k: v for k, v in public.items() if k not in PRIVATE})[1:-1]
        for seat in wanted - {None}:
            assert seat is not None
            v = view(match, seat)
            private = {
                "seat": seat,
                "hand": v.hand.names() if v.hand is not None else None,
                "legal_actions": [A.to_str(a) for a in v.legal_actions],
                "doubled": [[s, card_name(c)] for s, c in v.doubled],
                "doubling_answers": [[s, cs.names()] for s, cs in v.doubling_answers],
            }
            out[seat] = "{" + _dumps(private)[1:-1] + ("," + shared if shared else "") + "}"
    return out
