"""The match: first king, kingdom rotation, contract choice, kingdoms, partnership, tiebreaks.

Most tests deal ``SUITED`` (seat s holds suit s) every time: the king then takes every trick of his
four trick contracts (-500) and goes out first in Trix (+200), so a kingdom of king k scores -300 for k,
+150, +100 and +50 for the next seats in turn, and a full match of four kingdoms is a four-way tie at 0.
"""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from engine_kit import SUITED, finish, run_match
from opentrix import actions as A
from opentrix.cards import Card, CardSet
from opentrix.contracts import Contract
from opentrix.deal import Phase, deal_hands
from opentrix.errors import IllegalContract, NotYourTurn, WrongPhase
from opentrix.match import Match
from opentrix.rules import Points, Rules, RulesError
from opentrix.view import view


def kingdom_scores(king: int) -> list[int]:
    s = [0, 0, 0, 0]
    for offset, value in enumerate((-300, 150, 100, 50)):
        s[(king + offset) % 4] = value
    return s


def test_first_king_holds_the_seven_of_hearts() -> None:
    assert Match(Rules(), SUITED).king == 1
    hands = deal_hands(42, 0)
    holder = next(s for s in range(4) if hands[s] >> Card["7H"] & 1)
    assert holder == 2  # "7H" is in the third hand of deal_hands(42, 0), see below
    assert Match(Rules(), hands).king == holder
    assert Match(Rules(), seed=42).king == holder


@pytest.mark.parametrize(("card", "king"), [("2C", 3), ("AS", 0), ("QD", 2), ("7H", 1)])
def test_custom_first_king_card(card: str, king: int) -> None:
    m = Match(Rules.preset("classic", first_king_card=card), SUITED)
    assert m.king == king and m.turn == king


def test_seeded_deals_are_reproducible() -> None:
    # frozen: the same on every machine and Python version
    assert [str(CardSet(h)) for h in deal_hands(42, 0)] == [
        "3S 5S 3H 5H 8H JH 7D 8D TD 2C 7C TC AC",
        "4S 6S 9S KH 3D 6D 9D JD AD 5C 6C 9C KC",
        "TS JS QS AS 6H 7H TH QH 4D 5D KD 8C QC",
        "2S 7S 8S KS 2H 4H 9H AH 2D QD 3C 4C JC",
    ]
    assert str(CardSet(deal_hands("x", 3)[2])) == "3S 7S 9S QS AS 3H 4H 6H TH AH 5D 6D JD"
    assert deal_hands(7, 1) != deal_hands(7, 2)


def test_kingdom_rotation_with_play() -> None:
    m = Match(Rules.preset("classic", tiebreak="none"), SUITED)
    run_match(m, SUITED)
    assert m.kings == [1] * 5 + [2] * 5 + [3] * 5 + [0] * 5
    assert m.totals == [0, 0, 0, 0]


def test_kingdom_rotation_against_play() -> None:
    m = Match(Rules.preset("denexa"), SUITED)
    run_match(m, SUITED)
    assert m.kings == [1] * 5 + [0] * 5 + [3] * 5 + [2] * 5


def test_each_kingdom_plays_every_contract_once_in_the_kings_order() -> None:
    m = Match(Rules.preset("classic", kingdoms=1), SUITED)
    order = ["ltoosh", "trix", "queens", "king_of_hearts", "diamonds"]
    available = []
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal(SUITED)
        available.append([c.id for c in m.available_contracts()])
        m.apply(A.choose(order[len(available) - 1]))
        finish(m)
    assert [Contract(d.contract).id for d in m.deals] == order
    assert available[0] == ["king_of_hearts", "queens", "diamonds", "ltoosh", "trix"]
    assert available[-1] == ["diamonds"]


def test_one_kingdom() -> None:
    m = Match(Rules.preset("classic", kingdoms=1), SUITED)
    run_match(m, SUITED)
    assert len(m.deals) == 5 and m.is_over
    assert m.totals == kingdom_scores(1) == [50, -300, 150, 100]
    assert m.winners == [2]
    assert m.legal_actions() == [] and m.turn is None


def test_complex_kingdoms_have_two_contracts() -> None:
    m = Match(Rules.preset("complex"), SUITED)
    assert m.legal_actions() == [A.choose("trix"), A.choose("complex")]  # ascending, as always
    run_match(m, SUITED, ["complex", "trix"])
    assert [Contract(d.contract).id for d in m.deals] == ["complex", "trix"] * 4
    assert m.kings == [1, 1, 2, 2, 3, 3, 0, 0]
    assert m.totals == [0, 0, 0, 0] and m.winners == [0, 1, 2, 3]  # tiebreak "none": all share


def test_tiebreak_none_shares_the_win() -> None:
    m = Match(Rules.preset("wikipedia"), SUITED)
    run_match(m, SUITED)
    assert len(m.deals) == 20 and m.winners == [0, 1, 2, 3]


def test_tiebreak_extra_koh_deal_repeats_with_the_next_king_until_one_leads() -> None:
    m = Match(Rules.preset("classic"), SUITED)
    run_match(m, SUITED)
    # after 20 deals all four are level at 0; each K♥ tiebreak deal costs its king 75
    assert m.kings[20:] == [1, 2, 3]
    assert [Contract(d.contract) for d in m.deals[20:]] == [Contract.KING_OF_HEARTS] * 3
    assert [d.scores for d in m.deals[20:]] == [(0, -75, 0, 0), (0, 0, -75, 0), (0, 0, 0, -75)]
    assert m.totals == [0, -75, -75, -75]
    assert m.winners == [0] and m.is_over


def test_tiebreak_deal_offers_only_king_of_hearts() -> None:
    m = Match(Rules.preset("classic"), SUITED)
    while len(m.deals) < 20 or m.phase != Phase.DEAL_OVER:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal(SUITED)
        m.apply(m.legal_actions()[0])
        finish(m)
    m.start_deal(SUITED)
    assert m.tiebreak_deal and m.available_contracts() == [Contract.KING_OF_HEARTS]
    assert m.legal_actions() == [A.choose("king_of_hearts")]
    with pytest.raises(IllegalContract, match="the tiebreak deal is King of Hearts, not queens"):
        m.apply(A.choose("queens"))
    assert view(m, 0).tiebreak_deal


def test_tiebreak_extra_kingdom() -> None:
    m = Match(Rules.preset("online"), SUITED)
    run_match(m, SUITED)
    assert len(m.deals) == 25 and m.kings[20:] == [1] * 5
    assert m.totals == kingdom_scores(1)
    assert m.winners == [2]


def test_tiebreak_only_between_the_leaders() -> None:
    # one kingdom of king 1 then a tie is impossible: 150 leads alone, no tiebreak deal
    m = Match(Rules.preset("classic", kingdoms=1), SUITED)
    run_match(m, SUITED)
    assert len(m.deals) == 5


def test_partnership_team_totals_and_winners() -> None:
    m = Match(Rules.preset("online", partnership=True, kingdoms=1), SUITED)
    run_match(m, SUITED)
    assert m.totals == [50, -300, 150, 100]
    assert m.team_totals() == [200, -200]
    assert m.winners == [0, 2]


def test_partnership_tie_goes_to_a_tiebreak_deal() -> None:
    m = Match(Rules.preset("classic", partnership=True), SUITED)
    run_match(m, SUITED)
    assert len(m.deals) == 21 and m.kings[20] == 1
    assert m.team_totals() == [0, -75]
    assert m.winners == [0, 2]


def test_partnership_tie_shared() -> None:
    m = Match(Rules.preset("wikipedia", partnership=True), SUITED)
    run_match(m, SUITED)
    assert m.team_totals() == [0, 0] and m.winners == [0, 1, 2, 3]


def test_individual_match_totals_are_the_sum_of_the_deals() -> None:
    m = Match(Rules.preset("classic"), seed=5)
    run_match(m)
    for s in range(4):
        assert m.totals[s] == sum((d.scores or (0, 0, 0, 0))[s] for d in m.deals)
    assert sum(m.totals) == 0
    assert len(m.winners) == 1 and m.totals[m.winners[0]] == max(m.totals)


def test_contract_may_not_be_named_twice_in_a_kingdom() -> None:
    m = Match(Rules.preset("classic"), SUITED)
    m.apply(A.choose("diamonds"))
    finish(m)
    m.start_deal(SUITED)
    assert A.choose("diamonds") not in m.legal_actions()
    with pytest.raises(IllegalContract, match="diamonds has already been played in seat 1's kingdom"):
        m.apply(A.choose("diamonds"))
    with pytest.raises(IllegalContract, match=r"complex is not a contract in these rules \(contracts: king_of"):
        m.apply(A.choose("complex"))


def test_only_the_king_names_the_contract() -> None:
    m = Match(Rules.preset("classic"), SUITED)
    with pytest.raises(NotYourTurn, match="it is seat 1's turn \\(the king names the contract\\), not seat 0's"):
        m.apply(A.choose("diamonds"), seat=0)
    with pytest.raises(WrongPhase, match="seat 1 must name a contract first, not '2S'"):
        m.apply(0)
    m.apply(A.choose("diamonds"), seat=1)


def test_start_deal_only_between_deals() -> None:
    m = Match(Rules.preset("classic", kingdoms=1), SUITED)
    with pytest.raises(WrongPhase, match="the current deal is not over"):
        m.start_deal(SUITED)
    m.apply(A.choose("trix"))
    finish(m)
    with pytest.raises(WrongPhase, match="the deal is over; the next one has not been dealt"):
        m.apply(0)
    with pytest.raises(ValueError, match="this match has no seed"):
        m.start_deal()
    run_match(m, SUITED)
    with pytest.raises(WrongPhase, match="the match is over"):
        m.start_deal(SUITED)
    with pytest.raises(WrongPhase, match="the match is over"):
        m.apply(0)


def test_copy_is_independent() -> None:
    m = Match(Rules.preset("classic"), seed=3)
    m.apply(A.choose("ltoosh"))
    for _ in range(6):
        m.apply(m.legal_actions()[0])
    c = m.copy()
    c.apply(c.legal_actions()[0])
    assert len(m.history) == 7 and len(c.history) == 8
    assert m.deals[-1].plays != c.deals[-1].plays
    assert m.deals[-1].hands != c.deals[-1].hands


def test_a_match_can_start_at_a_contract_choice_in_the_middle() -> None:
    hands = deal_hands("middle", 0)
    m = Match.at_contract_choice(
        Rules.preset("classic"), hands, king=2, kingdom=3, played=[Contract.QUEENS], totals=(10, -10, 5, -5)
    )
    assert m.turn == 2 and m.phase == Phase.CHOOSE_CONTRACT
    assert Contract.QUEENS not in m.available_contracts()
    assert m.totals == [10, -10, 5, -5]
    with pytest.raises(ValueError, match="king must be a seat"):
        Match.at_contract_choice(Rules.preset("classic"), hands, king=4)


def test_preset_overrides_take_objects_and_their_json_forms_alike() -> None:
    """``first_king_card`` and ``points`` are typed fields: a Card or Points is taken as well as the
    record's string and dict, and checked the same way."""
    typed = Rules.preset("classic", first_king_card=Card.parse("QS"), points=Points(diamond=-15))
    plain = Rules.preset("classic", first_king_card="QS", points={"diamond": -15})
    assert typed == plain and Rules.from_json(typed.to_json()) == typed
    with pytest.raises(RulesError, match="first_king_card"):
        Rules.preset("classic", first_king_card=53)
    with pytest.raises(RulesError, match="trix"):
        Rules.preset("classic", points=Points(trix=(1, 2)))  # type: ignore[arg-type]


# The rule book's preset table (../shared/RULES.md, "Presets", which is not in this repository), copied
# here with its rows as it prints them; yes/no are booleans.
PRESET_TABLE = """
| `kingdom_passes` | with_play | with_play | against_play | with_play | with_play |
| `hearts_lead_ban` | yes | no | yes | no | no |
| `king_must_be_discarded` | no | no | no | no | no |
| `doubling` | no | yes | yes | yes | yes |
| `self_capture` | normal | normal | doubled_leader_gains | normal | doubled_leader_gains |
| `koh_redeal` | no | yes | no | no | no |
| `trix_throw_in` | no | yes | yes | no | no |
| `early_end` | no | no | no | yes | yes |
| `tiebreak` | extra_koh_deal | none | none | extra_kingdom | none |
| `complex` | no | no | no | no | yes |
"""
PRESET_NAMES = ("classic", "wikipedia", "denexa", "online", "complex")


def _cell(text: str) -> object:
    """A table cell as the option's value: yes/true and no/false, a number, a card, or the text."""
    word = text.split(" (")[0]  # "true (no effect)"
    if word in ("yes", "true", "no", "false"):
        return word in ("yes", "true")
    if word.isdigit():
        return int(word)
    if word == "standard":
        return Points()
    return Card[word] if word in Card.__members__ else word


def _rows(table: str) -> list[tuple[str, list[str]]]:
    rows = []
    for line in table.strip().splitlines():
        name, *values = (cell.strip().strip("`") for cell in line.strip().strip("|").split("|"))
        rows.append((name, values))
    return rows


@pytest.mark.parametrize(("column", "preset"), list(enumerate(PRESET_NAMES)))
def test_each_preset_fixes_every_option_as_the_rule_book_table_says(column: int, preset: str) -> None:
    rules = Rules.preset(preset)
    for name, values in _rows(PRESET_TABLE):
        assert getattr(rules, name) == _cell(values[column]), f"{preset}: {name}"
    # "Every preset" line: the options no preset changes.
    assert rules.first_king_card == Card["7H"]
    assert (rules.kingdoms, rules.partnership, rules.partner_capture) == (4, False, "no_bonus")
    assert (rules.doubling_reveal, rules.points) == ("sequential", Points())
    assert rules.preset_name == preset and Rules.preset() == Rules() == Rules.preset("classic")


def test_the_docs_preset_table_is_the_engines() -> None:
    """docs/rules.md prints every option of every preset: each cell must be what the engine does."""
    text = (Path(__file__).parents[1] / "docs" / "rules.md").read_text(encoding="utf-8")
    table = text.split("## The presets", 1)[1].split("\n\n", 2)[1]
    head, _, *body = table.strip().splitlines()
    assert [c.strip().strip("`").split("`")[0] for c in head.strip("|").split("|")][1:] == list(PRESET_NAMES)
    rows = _rows("\n".join(body))
    assert {name for name, _ in rows} == {f.name for f in dataclasses.fields(Rules)} - {"preset_name"}
    for name, values in rows:
        for preset, value in zip(PRESET_NAMES, values, strict=True):
            assert getattr(Rules.preset(preset), name) == _cell(value), f"docs/rules.md: {preset}: {name}"
