"""How the golden records beside this file were made (run once; the files are frozen, not regenerated).

    python tests/golden/make_golden.py

Each NAME.json is a record and NAME.expected.json what ``opentrix verify --json NAME.json`` printed when
it was made. test_verify_cli.py checks them against the real command and against an independent scorer.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path

from opentrix import actions as A
from opentrix.cards import SUIT_MASKS, parse_card
from opentrix.deal import Phase, deal_hands
from opentrix.match import Match
from opentrix.record import Record
from opentrix.rules import Rules
from opentrix.verify import verify_text

HERE = Path(__file__).parent
SUITED = (SUIT_MASKS[0], SUIT_MASKS[1], SUIT_MASKS[2], SUIT_MASKS[3])


def random_play(
    m: Match, rng: random.Random, contracts: list[str] | None = None, stop_after: int | None = None
) -> None:
    """Random legal play; each doublable card is doubled one time in two; claims are always made."""
    steps = 0
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal()
        la = m.legal_actions()
        if m.phase == Phase.CHOOSE_CONTRACT and contracts:
            wanted = [a for a in la if A.to_str(a) == f"contract {contracts[0]}"]
            if wanted:
                contracts.pop(0)
                m.apply(wanted[0])
                continue
        if A.CLAIM in la:
            m.apply(A.CLAIM)
        elif m.phase == Phase.DOUBLE:
            doubles = [a for a in la if a != A.NO_DOUBLE]
            m.apply(doubles[0] if doubles and rng.random() < 0.5 else A.NO_DOUBLE)
        else:
            m.apply(la[int(rng.random() * len(la))])
        steps += 1
        if stop_after is not None and steps >= stop_after:
            return


def with_four_twos(hands: tuple[int, int, int, int], seat: int) -> tuple[int, int, int, int]:
    """Move the four 2s into ``seat``'s hand, giving its lowest other cards in exchange."""
    out = list(hands)
    for suit in range(4):
        two = suit * 13
        holder = next(s for s in range(4) if out[s] >> two & 1)
        if holder == seat:
            continue
        give = next(c for c in range(52) if out[seat] >> c & 1 and c % 13 != 0)
        out[holder] ^= (1 << two) | (1 << give)
        out[seat] ^= (1 << two) | (1 << give)
    return (out[0], out[1], out[2], out[3])


def write(name: str, m: Match, players: list[str] | None = None) -> None:
    data = Record.from_match(m, players).to_json()
    deals = data.pop("deals")
    lines = ",\n".join(json.dumps(d, ensure_ascii=False) for d in deals)  # one line per deal
    text = json.dumps(data, ensure_ascii=False)[:-1] + ', "deals": [\n' + lines + "\n]}\n"
    (HERE / f"{name}.json").write_text(text)
    result = verify_text(text)
    result.pop("_message", None)
    (HERE / f"{name}.expected.json").write_text(json.dumps(result, indent=1) + "\n")
    print(name, "ok" if result["ok"] else result["error"], file=sys.stderr)


def main() -> None:
    # Denexa: doubling (the leader gains on a self-capture), kingdom against play, and a Trix deal
    # thrown in by seat 2, who holds the four 2s.
    first = with_four_twos(deal_hands("golden-denexa", 0), 2)
    m = Match(Rules.preset("denexa"), first, seed="golden-denexa")
    random_play(m, random.Random(1), contracts=["trix"])
    write("denexa-doubling-throw-in", m, ["Lina", "Omar", "Sami", "Huda"])

    # Complex: four kingdoms of Complex and Trix, with doubled K♥ and queens.
    m = Match(Rules.preset("complex"), seed="golden-complex")
    random_play(m, random.Random(2))
    write("complex-full-match", m)

    # Classic with the tiebreak: every deal dealt suit by suit (seat s holds suit s), so each king takes
    # all his tricks and goes out first in Trix; after 20 deals all four stand at 0, and King of Hearts
    # tiebreak deals follow (kings 1, 2, 3) until seat 0 leads alone.
    m = Match(Rules.preset("classic"), SUITED)
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal(SUITED)
        m.apply(m.legal_actions()[0])
    write("classic-suited-tiebreak", m)

    # Online, partnership, hidden doubling reveal, swapped diamond and trick values, stopped in a trick.
    rules = Rules.preset(
        "online", partnership=True, doubling_reveal="hidden", partner_capture="as_other",
        points={"diamond": -15, "trick": -10},
    )  # fmt: skip
    m = Match(rules, seed="golden-online")
    random_play(m, random.Random(3), stop_after=400)
    assert m.phase == Phase.PLAY
    write("online-partnership-unfinished", m)

    # Wikipedia, one kingdom: King of Hearts thrown in by seat 0 (its only heart is A♥), then five
    # deals dealt suit by suit: king 1 pays -300, seats 2, 3, 0 get +150, +100, +50.
    hand0 = sum(
        1 << parse_card(c) for c in ["AH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "TS", "JS", "QS", "KS"]
    )
    hands = (hand0, (SUITED[1] ^ 1 << parse_card("AH")) | 1 << parse_card("AS"), SUITED[2], SUITED[3])
    m = Match(Rules.preset("wikipedia", kingdoms=1), hands)
    m.apply(A.choose("king_of_hearts"))
    while m.phase == Phase.CLAIM:
        m.apply(A.CLAIM if m.turn == 0 else A.NO_CLAIM)
    while not m.is_over:
        if m.phase == Phase.DEAL_OVER:
            m.start_deal(SUITED)
        la = m.legal_actions()
        m.apply(A.NO_CLAIM if A.NO_CLAIM in la else A.NO_DOUBLE if A.NO_DOUBLE in la else la[0])
    write("wikipedia-koh-redeal-one-kingdom", m)


if __name__ == "__main__":
    main()
