"""A record as a list of positions to step through, card by card, with every hand known.

An invalid record still shows everything up to its first error, and the error itself, so the viewer
doubles as a debugger for records the referee rejects.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, replace
from pathlib import Path

from .. import actions as A
from ..contracts import Contract
from ..deal import Phase
from ..match import Match
from ..record import Record, RecordError
from . import render
from .glyphs import Glyphs
from .session import SEAT_NAMES, SHORT_NAMES, describe_action, spoken_to

# Answers that change nothing on the table get no step of their own.
SILENT = (A.NO_CLAIM, A.NO_DOUBLE)
NAME_WIDTH = 20  # characters of a player's name shown (the seat's label and the captions)


@dataclass(frozen=True)
class Step:
    """The table after one action (or at the start of a deal), and a line saying what happened."""

    match: Match
    deal: int  # 0-based, as ``opentrix verify`` counts
    play: int | None  # 0-based index of the card or pass in the deal's plays, None for other steps
    caption: str


@dataclass
class Replay:
    """Every step of a record; ``error`` is the first rule it breaks (the steps stop just before it)."""

    record: Record
    steps: list[Step]
    names: list[str]
    error: RecordError | None = None
    short: list[str] | None = None  # the score table's column heads (four letters at most)

    def heads(self) -> list[str]:
        return self.short if self.short is not None else render.short_names(self.names)

    def deal_starts(self) -> list[int]:
        """Index of the first step of each deal."""
        return [i for i, s in enumerate(self.steps) if i == 0 or s.deal != self.steps[i - 1].deal]


def load_replay(path: Path, g: Glyphs | None = None) -> Replay:
    """Read a record file; raises RecordError (or OSError) when nothing of it can be shown."""
    return build_replay(Record.loads(path.read_bytes()), g)


def build_replay(record: Record, g: Glyphs | None = None) -> Replay:
    g = g or Glyphs()
    names, short = player_names(record.players, g)
    error: RecordError | None = None
    valid = record
    try:
        final = record.replay()
    except RecordError as e:
        error = e
        valid, part = _valid_part(record, e)
        if part is None:
            raise
        final = part
    return Replay(record, _steps(valid, final, names, g), names, error, short)


def player_names(players: list[str] | None, g: Glyphs) -> tuple[list[str], list[str]]:
    """The seats' names on screen and their score-table heads.

    A terminal save (``player``, ``bot:hard``, ...) shows the names the match was played under (``You``,
    ``Right (hard)``); elsewhere a bot is ``Hard bot`` and every name carries its seat: ``Lina (0)``.
    """
    if players is None:
        names = [f"seat {s}" for s in range(4)]
        return names, render.short_names(names)
    levels = [p.removeprefix("bot:") for p in players[1:]]
    if players[0] == "player" and all(p.startswith("bot:") and p[4:] for p in players[1:]):
        names = ["You", *(f"{SEAT_NAMES[s]} ({shown_name(lv, NAME_WIDTH, g)})" for s, lv in enumerate(levels, 1))]
        return names, list(SHORT_NAMES)
    shown = [f"{p[4:].capitalize()} bot" if p.startswith("bot:") and p[4:] else p for p in players]
    names = [f"{shown_name(p, NAME_WIDTH, g)} ({s})" for s, p in enumerate(shown)]
    return names, render.short_names(names)


def _valid_part(record: Record, e: RecordError) -> tuple[Record, Match | None]:
    """The longest start of the record that replays: up to the rejected play, or up to the rejected deal."""
    if e.deal is None:
        return record, None
    cut = [record.deals[: e.deal]]
    if e.play is not None:
        bad = record.deals[e.deal]
        cut.insert(0, [*record.deals[: e.deal], replace(bad, plays=bad.plays[: e.play])])
    for deals in cut:
        if not deals:
            continue
        part = Record(record.rules, list(deals), record.players)
        try:
            return part, part.replay()
        except RecordError:
            continue
    return record, None


def shown_name(name: str, width: int = NAME_WIDTH, g: Glyphs | None = None) -> str:
    """A player's name from a record as one short line: control and direction-changing characters
    (a newline, U+202E) dropped, spaces collapsed, cut to ``width`` with an ellipsis (``...`` in
    ASCII mode, still ``width`` long), so a name cannot break the table's layout."""
    kept = "".join(" " if c.isspace() else c for c in name if c.isspace() or unicodedata.category(c)[0] != "C")
    kept = " ".join(kept.split()) or "?"
    mark = (g or Glyphs()).ellipsis()
    return kept if len(kept) <= width else kept[: width - len(mark)].rstrip() + mark


def _is_king(names: list[str], king: int) -> str:
    return f"{names[king]} {'are king and name' if spoken_to(king, names) else 'is king and names'} the contract"


def _steps(record: Record, final: Match, names: list[str], g: Glyphs) -> list[Step]:
    """Apply the actions the replay found, one at a time, keeping a copy of the table after each."""
    hands = [d.hands for d in record.deals]
    m = Match(record.rules, hands[0])
    deal = 0
    steps = [Step(m.copy(), 0, None, f"deal 0: {_is_king(names, m.king)}")]
    plays = 0
    for action in final.history:
        if m.phase == Phase.DEAL_OVER:
            deal += 1
            plays = 0
            m.start_deal(hands[deal])
            steps.append(Step(m.copy(), deal, None, f"deal {deal}: {_is_king(names, m.king)}"))
        seat = m.turn
        assert seat is not None
        m.apply(action)
        if action in SILENT:
            continue
        caption = describe_action(seat, action, g, names)
        play = None
        if action < 53:
            play, plays = plays, plays + 1
            caption = f"play {play}: {caption}"
        d = m.deals[-1]
        if A.is_card(action) and d.contract != Contract.TRIX and not d.trick:
            caption += f"; {names[d.leader]} {'take' if spoken_to(d.leader, names) else 'takes'} the trick"
        if d.scores is not None and m.phase >= Phase.DEAL_OVER:
            if d.thrown_in is not None:
                caption += "; the deal is thrown in"
            else:
                caption += "; deal over: " + " ".join(f"{s:+d}" for s in d.scores)
        steps.append(Step(m.copy(), deal, play, caption))
    return steps
