"""Checks the bench scripts share: a bad bot, preset, contract or count is one line from argparse
(``ap.error``), before anything is played, as with ``opentrix arena``."""

from __future__ import annotations

import argparse

from opentrix.arena.spec import SpecError, parse_spec
from opentrix.bots import ARENA_ONLY
from opentrix.contracts import Contract
from opentrix.rules import PRESETS, Rules


def check_bots(ap: argparse.ArgumentParser, labels: list[str], seated: bool = False) -> None:
    """``seated``: each bot is asked from a seat's view, which the arena-only bots (they see every
    hand) refuse, so they are named here rather than met as a traceback halfway through."""
    for label in labels:
        try:
            spec = parse_spec(label)
        except SpecError as e:
            ap.error(f"--bots: {e}")
        if seated and spec.name in ARENA_ONLY:
            ap.error(
                f"--bots: {spec.name} sees every hand and is asked only by the arena; "
                "here each bot decides from its seat's view"
            )


def check_rules(ap: argparse.ArgumentParser, name: str) -> Rules:
    if name not in PRESETS:
        ap.error(f"--rules: unknown preset {name!r} (known: {', '.join(PRESETS)})")
    return Rules.preset(name)


def check_contracts(ap: argparse.ArgumentParser, text: str, rules: Rules) -> None:
    allowed = [c.id for c in rules.contracts]
    chosen: list[Contract] = []
    for name in text.split(","):
        try:
            contract = Contract.parse(name.strip())
        except ValueError:
            contract = None
        if contract is None or contract.id not in allowed:
            ap.error(f"--contracts: unknown contract {name.strip()!r} (known: {', '.join(allowed)})")
        if contract in chosen:  # as in the arena: it would be dealt twice as often as the others
            ap.error(f"--contracts: {name.strip()} is named twice")
        chosen.append(contract)


def check_at_least(ap: argparse.ArgumentParser, option: str, value: int, least: int, why: str = "") -> None:
    if value < least:
        ap.error(f"{option} must be at least {least}{why}, not {value}")
