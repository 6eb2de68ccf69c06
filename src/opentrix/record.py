"""opentrix-record/1: read, check, replay and write game records (docs/record-format.md)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from . import actions as A
from ._brief import brief
from .cards import cards_of, parse_card
from .contracts import Contract
from .deal import DOUBLABLE_IN, Phase
from .errors import TrixError, shown
from .match import Match
from .rules import Rules, RulesError

FORMAT = "opentrix-record/1"


class RecordError(Exception):
    """A record that cannot be read or does not follow the rules, with where: ``deal`` and ``play``."""

    def __init__(self, message: str, deal: int | None = None, play: int | None = None, plain: str | None = None):
        self.message = message
        self.plain = plain if plain is not None else message
        self.deal = deal
        self.play = play
        super().__init__(self.located())

    def located(self) -> str:
        where = []
        if self.deal is not None:
            where.append(f"deal {self.deal}")
        if self.play is not None:
            where.append(f"play {self.play}")
        return (", ".join(where) + ": " if where else "") + self.message

    def to_json(self) -> dict[str, Any]:
        return {"deal": self.deal, "play": self.play, "message": self.plain}


class NoDeals(RecordError):
    """A valid record that stops before its first deal: there is no match to rebuild (``verify``
    calls it valid; a viewer has nothing to show)."""


@dataclass
class DealRecord:
    """One deal as recorded: hands as dealt, the contract, doubled cards, a throw-in, the plays."""

    hands: tuple[int, int, int, int]
    contract: Contract
    plays: list[int] = field(default_factory=list)
    doubled: int = 0
    thrown_in: int | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"hands": [[A.to_str(c) for c in _hand_order(h)] for h in self.hands]}
        out["contract"] = self.contract.id
        if self.doubled:
            out["doubled"] = [A.to_str(c) for c in _doubled_order(self.doubled)]
        if self.thrown_in is not None:
            out["thrown_in"] = self.thrown_in
        out["plays"] = [A.to_str(a) for a in self.plays]
        return out


def _hand_order(hand: int) -> list[int]:
    return sorted(cards_of(hand), key=lambda c: A.to_str(c))


def _doubled_order(mask: int) -> list[int]:
    return [c for c in A.DOUBLABLE if mask >> c & 1]


@dataclass
class Record:
    """A match or part of one, as opentrix-record/1."""

    rules: Rules = field(default_factory=Rules)
    deals: list[DealRecord] = field(default_factory=list)
    players: list[str] | None = None

    # -- writing ------------------------------------------------------------------------------------

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"format": FORMAT, "rules": self.rules.to_json()}
        if self.players is not None:
            out["players"] = list(self.players)
        out["deals"] = [d.to_json() for d in self.deals]
        return out

    def dumps(self, indent: int | None = None) -> str:
        if indent is None:
            return json.dumps(self.to_json(), ensure_ascii=False, separators=(",", ":"))
        return json.dumps(self.to_json(), ensure_ascii=False, indent=indent)

    @classmethod
    def from_match(cls, match: Match, players: list[str] | None = None) -> Record:
        deals = []
        for d in match.deals:
            deals.append(
                DealRecord(
                    hands=d.dealt,
                    contract=Contract(d.contract),
                    plays=list(d.plays),
                    doubled=d.doubled,
                    thrown_in=d.thrown_in,
                )
            )
        return cls(rules=match.rules, deals=deals, players=players)

    # -- reading ------------------------------------------------------------------------------------

    @classmethod
    def loads(cls, text: str | bytes) -> Record:
        return cls.from_json(parse_json(text))

    @classmethod
    def from_json(cls, data: object) -> Record:
        """Read the structure of a record; rules of play are checked by ``replay``."""
        if not isinstance(data, dict):
            raise RecordError(f"a record is a JSON object, not {_json_kind(data)}")
        fmt = data.get("format")
        if "format" not in data:
            raise RecordError(f"'format' is missing (it must be \"{FORMAT}\")")
        if fmt != FORMAT:
            raise RecordError(f"'format' must be \"{FORMAT}\", not {shown(fmt)}")
        try:
            rules = Rules.from_json(data.get("rules"))
        except RulesError as e:
            raise RecordError(str(e)) from None
        players = data.get("players")
        if players is not None and (
            not isinstance(players, list) or len(players) != 4 or not all(isinstance(p, str) for p in players)
        ):
            raise RecordError("'players' must be a list of four names")
        deals_data = data.get("deals")
        if not isinstance(deals_data, list):
            raise RecordError("'deals' must be a list of deals")
        deals = [_read_deal(i, d) for i, d in enumerate(deals_data)]
        return cls(rules=rules, deals=deals, players=players)

    # -- replaying ----------------------------------------------------------------------------------

    def replay(self, *, last_at_contract: bool = False) -> Match:
        """Rebuild the match; raises RecordError at the first deal or play the rules reject.

        ``last_at_contract`` stops the last deal just after the king's choice, before any redeal claim
        or doubling answer: for a caller that keeps those answers itself (the terminal's save file),
        since a record cannot say which were given in a deal stopped among them."""
        match: Match | None = None
        for i, dr in enumerate(self.deals):
            try:
                if match is None:
                    match = Match(self.rules, dr.hands)
                else:
                    check_next_deal(match, i)
                    match.start_deal(dr.hands)
                if last_at_contract and i == len(self.deals) - 1:
                    match.apply(A.choose(dr.contract))
                    return match
            except TrixError as e:
                raise RecordError(str(e), i, plain=e.plain) from None
            _replay_deal(match, i, dr)
        if match is None:
            raise NoDeals("the record has no deals; it needs at least the first deal's hands")
        return match


def check_next_deal(match: Match, i: int) -> None:
    """Raise the RecordError of a record whose deal ``i`` cannot follow ``match`` (over, or mid-deal)."""
    if match.phase == Phase.MATCH_OVER:
        raise RecordError("the match is already over; no further deal can follow", i)
    if match.phase != Phase.DEAL_OVER:
        raise RecordError(f"the deal is not finished, yet deal {i} follows it", i - 1)


def _json_kind(value: object) -> str:
    """What a JSON value is, in JSON's words: ``an array``, ``a string``, ``null``."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return "a number"
    return "a string" if isinstance(value, str) else "an array"


class _Repeats(dict[str, Any]):
    """An object that names a key twice: which value counts would be up to the reader, so the record is
    refused, at the deal that holds the object (a fault there must not hide an earlier deal's)."""

    repeated: str


class _LongNumber:
    """A whole number past Python's limit on digits (4300): valid JSON, refused where a number is read
    (as any other value of the wrong kind, at its deal), passed over in a key nobody reads."""

    def __init__(self, text: str) -> None:
        self.digits = len(text.lstrip("-"))
        self.text = text

    def __repr__(self) -> str:
        return f"{self.text[:10]}… (a number with {self.digits} digits)"


def _no_repeated_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out and not isinstance(out, _Repeats):
            out = _Repeats(out)
            out.repeated = key
        out[key] = value
    return out


def _repeated_key(value: object) -> str | None:
    """The first key named twice in one object anywhere in ``value``, or None."""
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, _Repeats):
            return v.repeated
        if isinstance(v, dict):
            stack.extend(reversed(list(v.values())))
        elif isinstance(v, list):
            stack.extend(reversed(v))
    return None


def _repeated_key_error(key: str, deal: int | None = None, play: int | None = None) -> RecordError:
    return RecordError(f"not a record: the key {brief(key)} appears twice in one object", deal, play)


def _no_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON value")


def _whole_number(text: str) -> int | _LongNumber:
    try:
        return int(text)
    except ValueError:  # beyond Python's limit on digits (4300)
        return _LongNumber(text)


def parse_json(text: str | bytes) -> Any:
    """Strict JSON for records: no NaN or Infinity, no key repeated in an object; RecordError if not.
    A key repeated inside a deal is left for the deal's reading to refuse, at that deal."""
    try:
        data = json.loads(
            text, object_pairs_hook=_no_repeated_keys, parse_constant=_no_constant, parse_int=_whole_number
        )
    except (ValueError, UnicodeDecodeError) as e:
        raise RecordError(f"not JSON: {e}") from None
    except RecursionError:
        raise RecordError("not a record: the JSON is nested far too deeply") from None
    if isinstance(data, dict):
        outside = [v for k, v in data.items() if k != "deals" or not isinstance(v, list)]
        repeated = data.repeated if isinstance(data, _Repeats) else _repeated_key(outside)
    else:
        repeated = _repeated_key(data)
    if repeated is not None:
        raise _repeated_key_error(repeated)
    return data


def _read_deal(i: int, d: object) -> DealRecord:
    if isinstance(d, dict) and not isinstance(d, _Repeats) and isinstance(d.get("plays"), list):
        # a key repeated inside a play is that play's fault (an earlier play's may come first): see below
        repeated = _repeated_key([v for k, v in d.items() if k != "plays"])
    else:
        repeated = _repeated_key(d)
    if repeated is not None:
        raise _repeated_key_error(repeated, i)
    if not isinstance(d, dict):
        raise RecordError("a deal is a JSON object", i)
    hands_data = d.get("hands")
    if not isinstance(hands_data, list) or len(hands_data) != 4:
        raise RecordError("'hands' must be a list of four hands", i)
    hands: list[int] = []
    for seat, h in enumerate(hands_data):
        if not isinstance(h, list):
            raise RecordError(f"the hand of seat {seat} must be a list of cards", i)
        m = 0
        for c in h:
            try:
                card = _card(c)
            except ValueError as e:
                raise RecordError(f"hand of seat {seat}: {e}", i) from None
            if m >> card & 1:
                raise RecordError(f"hand of seat {seat} holds {A.to_str(card)} twice", i)
            m |= 1 << card
        if len(h) != 13:
            raise RecordError(f"seat {seat} has {len(h)} cards; every hand has 13", i)
        hands.append(m)
    seen = 0
    for seat, m in enumerate(hands):
        if seen & m:
            card = cards_of(seen & m)[0]
            raise RecordError(f"card {A.to_str(card)} is dealt twice (again to seat {seat})", i)
        seen |= m
    if "contract" not in d:
        raise RecordError("'contract' is missing", i)
    contract = _CONTRACTS.get(d["contract"]) if isinstance(d["contract"], str) else None
    if contract is None:
        names = ", ".join(_CONTRACTS)
        raise RecordError(f"unknown contract {brief(d['contract'])} (expected one of {names})", i)
    doubled_data = d.get("doubled")
    doubled = 0
    if doubled_data is not None:
        if not isinstance(doubled_data, list):
            raise RecordError("'doubled' must be a list of cards", i)
        for c in doubled_data:
            try:
                card = _card(c)
            except ValueError as e:
                raise RecordError(f"doubled: {e}", i) from None
            if doubled >> card & 1:
                raise RecordError(f"doubled: {A.to_str(card)} is listed twice", i)
            doubled |= 1 << card
    thrown_in = d.get("thrown_in")
    if thrown_in is not None and (
        not isinstance(thrown_in, int) or isinstance(thrown_in, bool) or not 0 <= thrown_in <= 3
    ):
        raise RecordError(f"'thrown_in' must be a seat from 0 to 3, not {shown(thrown_in)}", i)
    if "plays" not in d:
        raise RecordError("'plays' is missing (an empty list when no card has been played)", i)
    plays_data = d["plays"]
    if not isinstance(plays_data, list):
        raise RecordError("'plays' must be a list of cards", i)
    plays: list[int] = []
    for j, p in enumerate(plays_data):
        if isinstance(p, str) and p.lower() == "pass":
            plays.append(A.PASS)
            continue
        try:
            plays.append(_card(p))
        except ValueError as e:
            repeated = _repeated_key(p)
            if repeated is not None:
                raise _repeated_key_error(repeated, i, j) from None
            raise RecordError(f"{e} (or 'pass')", i, j) from None
    return DealRecord(
        hands=(hands[0], hands[1], hands[2], hands[3]),
        contract=contract,
        plays=plays,
        doubled=doubled,
        thrown_in=thrown_in,
    )


def _replay_deal(match: Match, i: int, dr: DealRecord) -> None:
    try:
        match.apply(A.choose(dr.contract))
        deal = match.deals[-1]
        # Redeal claims: the recorded seat claims, everyone before it declines.
        if dr.thrown_in is not None and deal.phase != Phase.CLAIM:
            raise RecordError(f"no redeal can be claimed in {dr.contract.id} under these rules", i)
        while deal.phase == Phase.CLAIM:
            if deal.turn == dr.thrown_in:
                match.apply(A.CLAIM)
            else:
                match.apply(A.NO_CLAIM)
        if dr.thrown_in is not None and deal.thrown_in is None:
            raise RecordError(f"seat {dr.thrown_in} was not asked for a redeal", i)
        # Doubling: every doubled card's holder doubles it, in turn; the others decline. The rule book
        # puts both redeal claims and doubling before the first card in no fixed order, so a thrown-in
        # deal may show cards doubled before the claim; they must still be cards one may double.
        if dr.doubled:
            if not match.rules.doubling:
                raise RecordError("doubling is off in these rules, yet cards are doubled", i)
            may_double = deal.phase == Phase.DOUBLE or deal.thrown_in is not None
            for c in cards_of(dr.doubled):
                if not may_double or not DOUBLABLE_IN.get(deal.contract, 0) >> c & 1:
                    raise RecordError(f"{A.to_str(c)} may not be doubled in {dr.contract.id}", i)
        if deal.thrown_in is not None:
            if dr.plays:  # after the doubles: those came before the first card, the plays after it
                raise RecordError("a thrown-in deal has no plays", i, 0)
            return
        while deal.phase == Phase.DOUBLE:
            match.apply(A.double_mask(deal.hands[deal.turn] & dr.doubled))
    except TrixError as e:
        raise RecordError(str(e), i, plain=e.plain) from None
    for j, action in enumerate(dr.plays):
        if deal.phase == Phase.DEAL_OVER:
            raise RecordError(f"the deal is over after {j} plays; '{A.to_str(action)}' is one too many", i, j)
        try:
            match.apply(action)
        except TrixError as e:
            raise RecordError(str(e), i, j, plain=e.plain) from None


_CONTRACTS = {c.id: c for c in Contract}  # a record names its contract by id, exactly as the format lists them


def _card(text: object) -> int:
    """A record's card: the forms the format allows (``10D``, suit symbols, any letter case), and no
    white space around it, which the format does not allow and a writer never puts there."""
    if isinstance(text, str):
        if text != text.strip():
            raise ValueError(f"not a card: {brief(text)} (a card is written without spaces, e.g. 'QS')")
        for i, ch in enumerate(text):  # a phone's emoji selector belongs after a suit symbol, nowhere else
            if ch in "\ufe0e\ufe0f" and (i == 0 or text[i - 1] not in "♠♥♦♣♤♡♢♧"):
                raise ValueError(f"not a card: {brief(text)} (expected rank then suit, e.g. 'QS' or 'Q♠')")
    return parse_card(text)


def load(path: str) -> Record:
    with open(path, "rb") as f:
        return Record.loads(f.read())


__all__ = ["FORMAT", "DealRecord", "Record", "RecordError", "check_next_deal", "load", "parse_json"]
