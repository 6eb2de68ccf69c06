"""The engine's referee against a second one written separately from the rule book (``independent``).

Random legal matches under random option combinations are written as records; both referees must print
the same summary for the whole record, for the record cut short anywhere, and for the record with one
play replaced (the same first fault, at the same deal and play); where a deal is cut short, both must
allow the same next plays. A rule read wrongly by the engine would have to be read wrongly the same
way by a separate reading of the rule book to pass.
"""

from __future__ import annotations

import copy
import json
import random
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import independent
from opentrix.cards import card_name
from opentrix.deal import Phase
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import PRESETS, Rules
from opentrix.verify import verify_text
from test_properties import OPTIONS

ALL_CARDS = [r + s for s in "SHDC" for r in independent.RANKS]


def random_match(rules: Rules, seed: int) -> Match:
    """Random legal decisions to the end of the match: contracts, claims, doubling, cards and passes."""
    rng = random.Random(seed)
    m = Match(rules, seed=seed)
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
        legal = m.legal_actions()
        m.apply(legal[rng.randrange(len(legal))], seat=m.turn)
    return m


def engine(record: dict[str, Any]) -> dict[str, Any]:
    """``verify --json``'s document, with the error's wording left out (the other referee has its own)."""
    out = verify_text(json.dumps(record))
    out.pop("_message", None)
    if not out["ok"]:
        out["error"].pop("message")
    return out


def engine_next_plays(record: dict[str, Any]) -> set[str]:
    m = Record.loads(json.dumps(record)).replay()
    assert m.phase == Phase.PLAY
    return {card_name(a) if a < 52 else "pass" for a in m.legal_actions()}


def cut(record: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """The record stopped after a random deal, or inside it after a random number of plays."""
    out = copy.deepcopy(record)
    i = rng.randrange(len(out["deals"]))
    out["deals"] = out["deals"][: i + 1]
    last = out["deals"][-1]
    last["plays"] = last["plays"][: rng.randrange(len(last["plays"]) + 1)]
    return out


def damage(record: dict[str, Any], rng: random.Random) -> dict[str, Any] | None:
    """The record with one entry changed as a slip of the pen would: a play, a card of a hand, a contract, a
    throw-in or a double.

    A replaced play is mostly another card of the same hand (a revoke, a lead the ban forbids, a card
    already played, a legal card that breaks a later play), sometimes any card or a pass.
    """
    out = copy.deepcopy(record)
    spots = [(i, j) for i, d in enumerate(out["deals"]) for j in range(len(d["plays"]))]
    what = rng.random()
    if what < 0.7 and spots:
        i, j = rng.choice(spots)
        deal = out["deals"][i]
        plays = deal["plays"]
        holder = next((h for h in deal["hands"] if plays[j] in h), ALL_CARDS)
        pool = holder if rng.random() < 0.8 else [*ALL_CARDS, "pass"]
        plays[j] = rng.choice([c for c in pool if c != plays[j]])
        return out
    deal = rng.choice(out["deals"])
    if what < 0.72 and len(out["deals"]) > 1:  # plays lost from a deal that others follow, and maybe a bad card
        i = rng.randrange(len(out["deals"]) - 1)
        plays = out["deals"][i]["plays"]
        del plays[rng.randrange(len(plays) + 1) :]
        if rng.random() < 0.5:
            out["deals"][rng.randrange(i + 1, len(out["deals"]))]["hands"][0][0] = "ZZ"
    elif what < 0.75:
        deal["hands"][rng.randrange(4)][rng.randrange(13)] = rng.choice(["ZZ", "1S", "KX", "AS"])
    elif what < 0.8:
        deal["contract"] = rng.choice(["king_of_hearts", "queens", "diamonds", "ltoosh", "trix", "complex"])
    elif what < 0.9:
        deal["thrown_in"] = rng.choice([None, 0, 1, 2, 3])
    else:
        doubled = set(deal.get("doubled") or [])
        deal["doubled"] = sorted(doubled ^ {rng.choice(["KH", "QS", "QH", "QD", "QC", "AS"])})
    return out


def check(record: dict[str, Any], rng: random.Random) -> None:
    assert independent.referee(record) == engine(record)
    for _ in range(6):
        part = cut(record, rng)
        assert independent.referee(part) == engine(part)
        game = independent.replay(part).current
        if game is not None:
            assert game.legal() == engine_next_plays(part), part["deals"][-1]["plays"]
    for _ in range(6):
        bad = damage(record, rng)
        if bad is not None:
            assert independent.referee(bad) == engine(bad)
        bad = damage(cut(record, rng), rng)  # a fault after an unfinished deal is the unfinished deal's
        if bad is not None:
            assert independent.referee(bad) == engine(bad)


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(preset=st.sampled_from(sorted(PRESETS)), options=OPTIONS, seed=st.integers(0, 2**32))
def test_random_one_kingdom_matches_agree(preset: str, options: dict[str, Any], seed: int) -> None:
    rules = Rules.preset(preset, kingdoms=1, **options)
    record = json.loads(Record.from_match(random_match(rules, seed)).dumps())
    check(record, random.Random(seed))


@pytest.mark.parametrize("preset", sorted(PRESETS))
@pytest.mark.parametrize("seed", [1, 2])
def test_random_full_matches_agree(preset: str, seed: int) -> None:
    record = json.loads(Record.from_match(random_match(PRESETS[preset], seed)).dumps())
    check(record, random.Random(seed))


GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.expected.json"))


@pytest.mark.parametrize("expected", GOLDEN, ids=lambda p: p.name.removesuffix(".expected.json"))
def test_golden_records_cut_and_damaged_agree(expected: Path) -> None:
    """The hand-built records: throw-ins, doubling, a suited tiebreak, an unfinished partnership match."""
    record = json.loads(expected.with_name(expected.name.replace(".expected", "")).read_text())
    rng = random.Random(expected.name)
    for _ in range(10):
        check(record, rng)


# Random one-kingdom matches in which a seat threw a deal in (King of Hearts or Trix), found by a scan.
THROWN_IN = [("wikipedia", 30), ("wikipedia", 42), ("wikipedia", 56), ("wikipedia", 168), ("denexa", 63)]


@pytest.mark.parametrize(("preset", "seed"), THROWN_IN)
def test_throw_ins_agree(preset: str, seed: int) -> None:
    """Throw-ins are rare in random play: these matches have one, changed in every way a record can be."""
    record = json.loads(Record.from_match(random_match(Rules.preset(preset, kingdoms=1), seed)).dumps())
    i = next(i for i, d in enumerate(record["deals"]) if d.get("thrown_in") is not None)
    variants = []
    for seat in (None, 0, 1, 2, 3):  # another seat, or nobody, claims
        variants.append(copy.deepcopy(record))
        variants[-1]["deals"][i]["thrown_in"] = seat
    variants.append(copy.deepcopy(record))
    variants[-1]["deals"][i]["plays"] = list(record["deals"][i + 1]["plays"][:3])  # plays after the claim
    variants.append(copy.deepcopy(record))
    variants[-1]["deals"][i]["doubled"] = ["KH", "QS"]  # a double after the claim
    for j in range(len(record["deals"])):  # a claim on every other deal
        variants.append(copy.deepcopy(record))
        variants[-1]["deals"][j]["thrown_in"] = (i + j) % 4
    for v in variants:
        assert independent.referee(v) == engine(v)
    check(record, random.Random(seed))


# Only King of Hearts scores: without doubling, a one-kingdom match leaves three seats tied on 0, so
# every tiebreak runs.
TIED = {"queen": 0, "diamond": 0, "trick": 0, "trix": [0, 0, 0, 0]}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    preset=st.sampled_from(sorted(PRESETS)),
    tiebreak=st.sampled_from(["none", "extra_koh_deal", "extra_kingdom"]),
    partnership=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_tiebreaks_agree(preset: str, tiebreak: str, partnership: bool, seed: int) -> None:
    rules = Rules.preset(preset, kingdoms=1, tiebreak=tiebreak, partnership=partnership, points=TIED)
    record = json.loads(Record.from_match(random_match(rules, seed)).dumps())
    per_kingdom = 2 if rules.complex else 5
    played = [d for d in record["deals"] if d.get("thrown_in") is None]
    if tiebreak != "none" and not partnership and not rules.doubling:
        assert len(played) > per_kingdom  # the tie after the kingdom was broken by further deals
    check(record, random.Random(seed))


def test_both_referees_find_the_same_faults() -> None:
    """The second referee is not a mirror that accepts anything: a revoke, a deal after an unfinished
    one and a deal after the end of the match are faults to both, at the same place."""
    record = json.loads(Record.from_match(random_match(PRESETS["classic"], 3)).dumps())
    summary = independent.referee(record)
    assert summary["ok"] and summary["match_over"] and summary == engine(record)
    i = next(i for i, d in enumerate(record["deals"]) if d["contract"] != "trix" and d.get("thrown_in") is None)
    deal = record["deals"][i]
    king, hands = summary["deals"][i]["king"], [set(h) for h in deal["hands"]]
    game = independent.DealPlay(independent.options("classic"), king, deal["contract"], hands, set())
    for j, card in enumerate(deal["plays"]):
        wrong = game.hands[game.turn] - game.legal()
        if wrong:  # a card the seat holds but may not play here
            bad = copy.deepcopy(record)
            bad["deals"][i]["plays"][j] = min(wrong)
            assert independent.referee(bad) == engine(bad) == {"ok": False, "error": {"deal": i, "play": j}}
            break
        game.play(card)
    else:
        pytest.fail("no revoke was possible in the whole deal")
    unfinished = copy.deepcopy(record)
    unfinished["deals"][i]["plays"].pop()
    assert independent.referee(unfinished) == engine(unfinished) == {"ok": False, "error": {"deal": i, "play": None}}
    unfinished["deals"][i + 1]["hands"][2][5] = "ZZ"  # a later deal's form error does not come first
    assert independent.referee(unfinished) == engine(unfinished) == {"ok": False, "error": {"deal": i, "play": None}}
    extra = copy.deepcopy(record)
    extra["deals"].append(copy.deepcopy(record["deals"][-1]))
    n = len(record["deals"])
    assert independent.referee(extra) == engine(extra) == {"ok": False, "error": {"deal": n, "play": None}}
