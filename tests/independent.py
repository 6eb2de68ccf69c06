"""A second referee, written straight from the rule book and the record format (docs/rules.md,
docs/record-format.md), sharing no code with opentrix.

It reads a record as plain JSON (canonical card strings such as ``"TD"``), replays it with sets of
strings and small loops, and answers what ``verify --json`` must answer: each deal's king, contract,
throw-in, whether it finished and its scores, the totals, whether the match is over and who won; or the
location (deal, play) of the first fault. It also gives the legal next plays of an unfinished deal.
Tests compare the two referees on random matches, on records cut short anywhere and on damaged ones,
so that a misreading of the rule book would have to be made twice, the same way, to go unnoticed.

Written for clarity, not speed, and only for well-formed records (the record reader's own checks have
their own tests): it does not check types or card spelling.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

RANKS = "23456789TJQKA"
SUITS = "SHDC"
TRICK_CONTRACTS = ("king_of_hearts", "queens", "diamonds", "ltoosh", "complex")
QUEENS = {"QS", "QH", "QD", "QC"}
CARDS = {r + s for r in RANKS for s in SUITS}

# The rule book, "The presets"; the last six options are the same in every preset
PRESETS: dict[str, dict[str, Any]] = {
    "classic": {"kingdom_passes": "with_play", "hearts_lead_ban": True, "doubling": False,
                "self_capture": "normal", "koh_redeal": False, "trix_throw_in": False, "early_end": False,
                "tiebreak": "extra_koh_deal", "complex": False},
    "wikipedia": {"kingdom_passes": "with_play", "hearts_lead_ban": False, "doubling": True,
                  "self_capture": "normal", "koh_redeal": True, "trix_throw_in": True, "early_end": False,
                  "tiebreak": "none", "complex": False},
    "denexa": {"kingdom_passes": "against_play", "hearts_lead_ban": True, "doubling": True,
               "self_capture": "doubled_leader_gains", "koh_redeal": False, "trix_throw_in": True,
               "early_end": False, "tiebreak": "none", "complex": False},
    "online": {"kingdom_passes": "with_play", "hearts_lead_ban": False, "doubling": True,
               "self_capture": "normal", "koh_redeal": False, "trix_throw_in": False, "early_end": True,
               "tiebreak": "extra_kingdom", "complex": False},
    "complex": {"kingdom_passes": "with_play", "hearts_lead_ban": False, "doubling": True,
                "self_capture": "doubled_leader_gains", "koh_redeal": False, "trix_throw_in": False,
                "early_end": True, "tiebreak": "none", "complex": True},
}  # fmt: skip
EVERY_PRESET = {"king_must_be_discarded": False, "first_king_card": "7H", "kingdoms": 4, "partnership": False,
                "partner_capture": "no_bonus", "doubling_reveal": "sequential"}  # fmt: skip
POINTS = {"king_of_hearts": -75, "queen": -25, "diamond": -10, "trick": -15, "trix": [200, 150, 100, 50]}


class Fault(Exception):
    """The first thing wrong with a record, located like ``verify --json``'s error."""

    def __init__(self, deal: int | None, play: int | None, why: str) -> None:
        super().__init__(f"deal {deal}, play {play}: {why}")
        self.deal, self.play = deal, play


def options(rules: Any) -> dict[str, Any]:
    """Every option of the rule book for the record's ``rules`` field."""
    if rules is None:
        rules = "classic"
    if isinstance(rules, str):
        rules = {"preset": rules}
    opts = {**EVERY_PRESET, **PRESETS[rules.get("preset", "classic")]}
    opts.update({k: v for k, v in rules.items() if k != "preset"})
    opts["points"] = {**POINTS, **(rules.get("points") or {})}
    return opts


def suit(card: str) -> str:
    return card[1]


def rank(card: str) -> int:
    return RANKS.index(card[0])


@dataclass
class DealPlay:
    """One deal's cards after its pre-play answers: whose turn, what is legal, and the scores at the end."""

    opts: dict[str, Any]
    king: int
    contract: str
    hands: list[set[str]]
    doubled: set[str]
    dealt: list[set[str]] = field(init=False)
    plays: int = 0
    over: bool = False
    # trick contracts
    turn: int = field(init=False)
    trick: list[tuple[int, str]] = field(default_factory=list)
    taken: list[list[str]] = field(default_factory=lambda: [[], [], [], []])
    tricks: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    leader_of: dict[str, int] = field(default_factory=dict)
    # Trix
    layouts: dict[str, list[int]] = field(default_factory=dict)  # suit -> [low rank, high rank]
    out: list[int] = field(default_factory=list)

    def __post_init__(self) -> None:
        self.dealt = [set(h) for h in self.hands]
        self.turn = self.king

    # -- what may be played ------------------------------------------------------------------------

    def legal(self) -> set[str]:
        if self.over:
            return set()
        hand = self.hands[self.turn]
        if self.contract == "trix":
            placeable = {c for c in hand if self._placeable(c)}
            return placeable or {"pass"}
        if not self.trick:  # a lead
            if self.opts["hearts_lead_ban"] and self.contract == "king_of_hearts":
                others = {c for c in hand if suit(c) != "H"}
                if others:
                    return others
            return set(hand)
        led = suit(self.trick[0][1])
        follow = {c for c in hand if suit(c) == led}
        if follow:
            return follow
        if self.opts["king_must_be_discarded"] and self.contract in ("king_of_hearts", "complex") and "KH" in hand:
            return {"KH"}
        return set(hand)

    def _placeable(self, card: str) -> bool:
        lay = self.layouts.get(suit(card))
        if lay is None:
            return card[0] == "J"
        return rank(card) in (lay[0] - 1, lay[1] + 1)

    # -- playing -----------------------------------------------------------------------------------

    def play(self, card: str) -> None:
        """Raises ValueError when ``card`` is not legal here."""
        if card not in self.legal():
            raise ValueError(f"{card} is not legal for seat {self.turn}: {sorted(self.legal())}")
        self.plays += 1
        if self.contract == "trix":
            self._place(card)
        else:
            self._trick_card(card)

    def _place(self, card: str) -> None:
        seat = self.turn
        if card != "pass":
            self.hands[seat].discard(card)
            r, s = rank(card), suit(card)
            lay = self.layouts.setdefault(s, [r, r])
            lay[0], lay[1] = min(lay[0], r), max(lay[1], r)
            if not self.hands[seat]:
                self.out.append(seat)
        if len(self.out) == 3:
            self.over = True
            return
        seat = (seat + 1) % 4
        while not self.hands[seat]:
            seat = (seat + 1) % 4
        self.turn = seat

    def _trick_card(self, card: str) -> None:
        self.hands[self.turn].discard(card)
        self.trick.append((self.turn, card))
        if len(self.trick) < 4:
            self.turn = (self.turn + 1) % 4
            return
        led = suit(self.trick[0][1])
        winner = max((rank(c), s) for s, c in self.trick if suit(c) == led)[1]
        for _, c in self.trick:
            self.taken[winner].append(c)
            self.leader_of[c] = self.trick[0][0]
        self.tricks[winner] += 1
        self.trick = []
        self.turn = winner
        gone = set(self.leader_of)
        early = self.opts["early_end"] and (
            (self.contract == "king_of_hearts" and "KH" in gone)
            or (self.contract == "queens" and gone >= QUEENS)
            or (self.contract == "diamonds" and sum(suit(c) == "D" for c in gone) == 13)
        )
        if early or len(gone) == 52:
            self.over = True

    # -- scoring -----------------------------------------------------------------------------------

    def scores(self) -> list[int]:
        pts = self.opts["points"]
        if self.contract == "trix":
            order = self.out + [s for s in range(4) if s not in self.out]
            result = [0, 0, 0, 0]
            for place, seat in enumerate(order):
                result[seat] = pts["trix"][place]
            return result
        parts = {"complex": ("king_of_hearts", "queens", "diamonds", "ltoosh")}.get(self.contract, (self.contract,))
        result = [0, 0, 0, 0]
        for p in range(4):
            taken = self.taken[p]
            if "king_of_hearts" in parts and "KH" in taken:
                result[p] += pts["king_of_hearts"]
            if "queens" in parts:
                result[p] += pts["queen"] * sum(c[0] == "Q" for c in taken)
            if "diamonds" in parts:
                result[p] += pts["diamond"] * sum(suit(c) == "D" for c in taken)
            if "ltoosh" in parts:
                result[p] += pts["trick"] * self.tricks[p]
        for card in self.doubled:
            self._double_score(card, result)
        return result

    def _double_score(self, card: str, result: list[int]) -> None:
        """The rule book, "Doubling": the holder gains the value, the taker pays it once more, with exceptions."""
        opts = self.opts
        value = -(opts["points"]["king_of_hearts"] if card == "KH" else opts["points"]["queen"])  # > 0
        holder = next(p for p in range(4) if card in self.dealt[p])
        taker = next(p for p in range(4) if card in self.taken[p])
        leader = self.leader_of[card]
        if taker == holder:
            if opts["self_capture"] == "doubled":
                result[taker] -= value
            elif opts["self_capture"] == "doubled_leader_gains" and leader != holder:
                result[taker] -= value
                result[leader] += value
            return
        result[taker] -= value  # it pays twice
        partner = opts["partnership"] and taker == (holder + 2) % 4
        if not (partner and opts["partner_capture"] == "no_bonus"):
            result[holder] += value


def doublable(opts: dict[str, Any], contract: str) -> set[str]:
    if not opts["doubling"]:
        return set()
    return {"king_of_hearts": {"KH"}, "queens": set(QUEENS), "complex": {"KH"} | QUEENS}.get(contract, set())


def may_throw_in(opts: dict[str, Any], contract: str, hand: set[str]) -> bool:
    """The rule book, "Redeals (throw-ins)": the hands that may claim a redeal."""
    if contract == "king_of_hearts" and opts["koh_redeal"]:
        hearts = {c for c in hand if suit(c) == "H"}
        return hearts in ({"KH"}, {"AH"}, {"AH", "KH"})
    if contract == "trix" and opts["trix_throw_in"]:
        twos = {suit(c) for c in hand if c[0] == "2"}
        threes = {suit(c) for c in hand if c[0] == "3"}
        return len(twos) == 4 or (len(twos) == 3 and bool(threes - twos))
    return False


@dataclass
class Replay:
    """A record replayed by this referee: the summary ``verify --json`` prints, and the deal in play."""

    opts: dict[str, Any]
    deals: list[dict[str, Any]] = field(default_factory=list)
    current: DealPlay | None = None  # the last deal, if it is unfinished
    match_over: bool = False
    totals: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    def summary(self) -> dict[str, Any]:
        out: dict[str, Any] = {"ok": True, "deals": self.deals, "totals": self.totals, "match_over": self.match_over}
        teams = [self.totals[0] + self.totals[2], self.totals[1] + self.totals[3]]
        if self.opts["partnership"]:
            out["team_totals"] = teams
        winners: list[int] = []
        if self.match_over:
            if self.opts["partnership"]:
                winners = [s for s in range(4) if teams[s % 2] == max(teams)]
            else:
                winners = [s for s in range(4) if self.totals[s] == max(self.totals)]
        out["winners"] = winners
        return out


def replay(record: dict[str, Any]) -> Replay:
    """Replay a record; raises ``Fault`` at its first fault."""
    opts = options(record.get("rules"))
    r = Replay(opts)
    per_kingdom = ["complex", "trix"] if opts["complex"] else ["king_of_hearts", "queens", "diamonds", "ltoosh", "trix"]
    step = 1 if opts["kingdom_passes"] == "with_play" else -1
    deals = record["deals"]
    if not deals:
        return r
    king = -1  # the holder of the first king card, once deal 0's hands are known to be sound
    kingdoms_done = 0
    left = list(per_kingdom)  # the king's contracts not played yet
    tiebreak = False  # playing extra King of Hearts deals
    for i, deal in enumerate(deals):
        if r.current is not None:
            raise Fault(i - 1, None, "the deal is not finished, yet another follows it")
        if r.match_over:
            raise Fault(i, None, "the match is over")
        hands = [set(h) for h in deal["hands"]]
        if any(len(h) != 13 for h in hands) or set().union(*hands) != CARDS:
            raise Fault(i, None, "not four hands of 13 distinct cards")
        if i == 0:
            king = next(s for s in range(4) if opts["first_king_card"] in hands[s])
        contract = deal["contract"]
        allowed = ["king_of_hearts"] if tiebreak else left
        if contract not in allowed:
            raise Fault(i, None, f"{contract} is not one of {allowed}")
        if "plays" not in deal:  # required: only "doubled" and "thrown_in" are optional
            raise Fault(i, None, "no plays")
        plays = deal["plays"]
        thrown = deal.get("thrown_in")
        doubled = set(deal.get("doubled") or [])
        entry: dict[str, Any] = {"king": king, "contract": contract, "thrown_in": thrown}
        r.deals.append(entry)
        if thrown is not None:
            if not may_throw_in(opts, contract, hands[thrown]):
                raise Fault(i, None, "this throw-in is not allowed")
            if not doubled <= doublable(opts, contract):  # doubles made before the claim still obey the rules
                raise Fault(i, None, "these cards cannot be doubled here")  # (and came before any play)
            if plays:  # the deal ended before its first play: like any play after the end, one too many
                raise Fault(i, 0, "a thrown-in deal has no plays")
            entry.update(finished=True, scores=[0, 0, 0, 0])
            continue  # the same king deals again and chooses again
        if not doubled <= doublable(opts, contract):
            raise Fault(i, None, "these cards cannot be doubled here")
        game = DealPlay(opts, king, contract, hands, doubled)
        for j, card in enumerate(plays):
            if game.over:
                raise Fault(i, j, "the deal is over")
            try:
                game.play(card)
            except ValueError as e:
                raise Fault(i, j, str(e)) from None
        if not game.over:
            entry.update(finished=False, scores=None)
            r.current = game
            continue
        scores = game.scores()
        entry.update(finished=True, scores=scores)
        r.totals = [t + s for t, s in zip(r.totals, scores, strict=True)]
        if tiebreak:
            king = (king + step) % 4  # each further tiebreak deal moves one seat on
        else:
            left.remove(contract)
            if left:
                continue
            left = list(per_kingdom)
            kingdoms_done += 1
            king = (king + step) % 4
            if kingdoms_done < opts["kingdoms"]:
                continue
        # the regular deals are over (or a tiebreak deal, or kingdom, has just been played)
        if _tied(r.totals, opts["partnership"]) and opts["tiebreak"] != "none":
            tiebreak = opts["tiebreak"] == "extra_koh_deal"
        else:
            r.match_over = True
    return r


def _tied(totals: list[int], partnership: bool) -> bool:
    scores = [totals[0] + totals[2], totals[1] + totals[3]] if partnership else totals
    return scores.count(max(scores)) > 1


def referee(record: dict[str, Any]) -> dict[str, Any]:
    """What ``verify --json`` prints for ``record``, with an error's message left out."""
    try:
        return replay(record).summary()
    except Fault as f:
        return {"ok": False, "error": {"deal": f.deal, "play": f.play}}
