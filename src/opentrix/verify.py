"""The referee: check a record against the rules and report its scores or its first error."""

from __future__ import annotations

import difflib
import json
import sys
from typing import Any

from ._brief import brief
from .deal import Phase
from .match import Match
from .record import Record, RecordError, check_next_deal, parse_json

# The keys a record's reader knows, at the top and in each deal (RECORD-FORMAT.md).
RECORD_KEYS = ("format", "rules", "players", "deals")
DEAL_KEYS = ("hands", "contract", "doubled", "thrown_in", "plays")


def unread_keys(data: object) -> list[str]:
    """Notes on keys a reader passes over that look like a slip for a known one (``"double"`` for
    ``"doubled"``): unknown keys are allowed, for metadata, but a misspelt one silently changes the
    match (a double not read changes the scores). Keys that resemble no known one are not mentioned."""
    notes: list[str] = []

    def look(obj: dict[Any, Any], known: tuple[str, ...], where: str) -> None:
        for key in obj:
            if key in known or not isinstance(key, str):
                continue
            close = difflib.get_close_matches(key.strip().lower(), known, n=1, cutoff=0.8)
            if close and close[0] not in obj:  # beside the key it resembles, it is something else
                notes.append(f"{where}the key {brief(key)} is not read (did you mean {close[0]!r}?)")

    if isinstance(data, dict):
        look(data, RECORD_KEYS, "")
        deals = data.get("deals")
        for i, d in enumerate(deals if isinstance(deals, list) else []):
            if isinstance(d, dict):
                look(d, DEAL_KEYS, f"deal {i}: ")
    return notes


def verify_text(text: str | bytes) -> dict[str, Any]:
    """``verify --json``'s document for one record; ``_notes`` (not printed in it) holds ``unread_keys``,
    which may also explain an error (a deal with ``"play"`` has no ``"plays"``)."""
    notes: list[str] = []
    try:
        data = parse_json(text)
        notes = unread_keys(data)
        record = Record.from_json(data)
        if not record.deals:  # stopped before the first deal: nothing played, nothing wrong
            out = _empty(record)
        else:
            out = summary(record.replay())
            _check_printable(out)
    except RecordError as e:
        e = _earlier_error(text, e)
        out = {"ok": False, "error": e.to_json(), "_message": e.located()}
    except Exception as e:  # the referee must always answer; an engine bug must not become a traceback
        out = _failed(f"this record could not be checked ({type(e).__name__}: {e}); please report it")
    if notes:
        out["_notes"] = notes
    return out


def _failed(message: str) -> dict[str, Any]:
    """The document of a record refused before any deal: the error is in no deal and no play."""
    return {"ok": False, "error": {"deal": None, "play": None, "message": message}, "_message": message}


def _check_printable(out: dict[str, Any]) -> None:
    """Scores built from absurd ``points`` values can outgrow what Python will print as a number."""
    try:
        json.dumps(out)
    except ValueError:
        raise RecordError("the scores have too many digits to print; the rules' 'points' are far too large") from None


def _earlier_error(text: str | bytes, error: RecordError) -> RecordError:
    """The first error in the order of the record: a badly written deal 5 (or play 30) must not hide a
    revoke in deal 2 (or at play 5 of the same deal).

    Reading checks every deal's form before replay checks any play, so when the form of deal ``i`` is
    wrong, the deals before it are replayed on their own to see whether they fail first; when the form
    of play ``j`` is wrong, deal ``i`` is replayed too, up to play ``j``.
    """
    if error.deal is None or (error.deal == 0 and error.play is None):
        return error
    i, j = error.deal, error.play
    try:
        data = parse_json(text)
        deals = data["deals"][:i]
        if j is not None:
            deals.append({**data["deals"][i], "plays": data["deals"][i]["plays"][:j]})
        data["deals"] = deals
        match = Record.from_json(data).replay()
    except RecordError as earlier:
        return earlier
    except Exception:  # the form error stands; a second reading must never crash the referee
        return error
    if j is not None:
        return error
    # the deals before are sound, but deal i may not follow them at all (as replay would have said first)
    try:
        check_next_deal(match, i)
    except RecordError as earlier:
        return earlier
    return error


def summary(match: Match) -> dict[str, Any]:
    deals = []
    for d in match.deals:
        finished = d.phase == Phase.DEAL_OVER
        deals.append(
            {
                "king": d.king,
                "contract": _contract_id(d.contract),
                "thrown_in": d.thrown_in,
                "finished": finished,
                "scores": list(d.scores) if finished and d.scores is not None else None,
            }
        )
    out: dict[str, Any] = {
        "ok": True,
        "deals": deals,
        "totals": list(match.totals),
        "match_over": match.is_over,
        "winners": sorted(match.winners) if match.is_over else [],
    }
    if match.rules.partnership:
        out["team_totals"] = match.team_totals()
    return out


def _empty(record: Record) -> dict[str, Any]:
    """The summary of a record with no deals yet (a match that has not been dealt)."""
    out: dict[str, Any] = {"ok": True, "deals": [], "totals": [0, 0, 0, 0], "match_over": False, "winners": []}
    if record.rules.partnership:
        out["team_totals"] = [0, 0]
    return out


def _contract_id(c: int) -> str:
    from .contracts import Contract

    return Contract(c).id


def verify_path(path: object) -> dict[str, Any]:
    """Like ``verify_text`` for a file; an unreadable file is an error with no deal or play."""
    if not str(path):
        return _failed("cannot read a file with no name (an empty argument)")
    try:
        with open(str(path), "rb") as f:
            data = f.read()
    except OSError as e:
        return _failed(f"cannot read {path}: {e.strerror or e}")
    return verify_text(data)


def verify_stdin() -> dict[str, Any]:
    """Like ``verify_path`` for the record on standard input (``opentrix verify -``)."""
    if sys.stdin is None:  # the process was started with stdin closed
        return _failed("cannot read stdin: it is closed")
    return verify_text(sys.stdin.buffer.read())


def describe(name: str, result: dict[str, Any], message: str | None = None) -> str:
    """The human-readable report for one record."""
    if not result["ok"]:
        return f"{name}: INVALID: {message or result['error']['message']}"
    deals = result["deals"]
    lines = []
    done = sum(1 for d in deals if d["finished"])
    state = "match over" if result["match_over"] else "match not over"
    count = f"{len(deals)} deal" + ("" if len(deals) == 1 else "s")
    lines.append(f"{name}: ok: {count} ({done} finished), {state}")
    for i, d in enumerate(deals):
        if d["thrown_in"] is not None:
            what = f"thrown in by seat {d['thrown_in']}"
        elif d["finished"]:
            what = " ".join(f"{s:+5d}" for s in d["scores"])
        else:
            what = "unfinished"
        lines.append(f"  deal {i:2d}  king {d['king']}  {d['contract']:<15} {what}")
    lines.append("  totals         " + " ".join(f"{s:+6d}" for s in result["totals"]))
    if "team_totals" in result:
        t = result["team_totals"]
        lines.append(f"  teams          seats 0+2: {t[0]:+d}   seats 1+3: {t[1]:+d}")
    if result["match_over"]:
        w = result["winners"]
        lines.append("  winner" + ("s" if len(w) > 1 else "") + ": " + ", ".join(f"seat {s}" for s in w))
    return "\n".join(lines)
