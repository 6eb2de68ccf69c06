"""Opponents: ``make_bot("random" | "basic" | "strong" | "easy" | "medium" | "hard", seed=...)``.

``novice`` is ``basic`` with a quarter of its moves random (the easy level); ``strong-uniform`` is
``strong`` without inference (hidden hands drawn uniformly), a yardstick for the arena. The ``cheat``
bot sees every hand and is kept out of this table: only the arena builds it (``ARENA_ONLY``).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from functools import partial
from numbers import Integral, Real
from typing import Any

from .base import Bot, RandomBot
from .basic import BasicBot
from .strong import StrongBot

BotFactory = Callable[..., Bot]

# name -> factory(seed=..., **options). Table levels map to engines: easy, medium, hard.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
    "basic": BasicBot,
    "novice": partial(BasicBot, mistakes=0.25),
    "strong": StrongBot,
    "strong-uniform": partial(StrongBot, inference=False),
}
LEVELS: dict[str, str] = {"easy": "novice", "medium": "basic", "hard": "strong"}
# Bots that live in optional parts, imported only when asked for: name -> "module:attribute".
EXTERNAL: dict[str, str] = {"openspiel-ismcts": "opentrix.env.openspiel_bot:OpenSpielISMCTSBot"}
EXTRAS: dict[str, str] = {"openspiel-ismcts": "rl,openspiel"}  # what pip installs for each of them


class MissingPart(ValueError):
    """A bot whose optional dependencies are not installed; the message names the pip command."""


# Bots that see the whole match: the arena's measuring sticks, never offered at a table.
ARENA_ONLY: dict[str, str] = {
    "cheat": "opentrix.bots.cheat:CheatBot",
    "cheat-from": "opentrix.bots.cheat:HindsightBot",
}


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS, *(name for name in EXTERNAL if name not in BOTS)]  # one loaded joins BOTS


def option_names(name: str) -> set[str]:
    """The options ``make_bot(name, ...)`` takes (its constructor's keywords, ``seed`` aside)."""
    factory = _factory(name)
    target = factory.func if isinstance(factory, partial) else factory
    params = inspect.signature(target).parameters.values()
    return {p.name for p in params if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}


def make_bot(name: str, seed: int | str | None = None, **options: Any) -> Bot:
    """Build a bot by name; an unknown name or option, or an option of the wrong kind (``samples="abc"``,
    ``inference="no"``), is a ValueError that says what is allowed."""
    factory = _factory(name)
    takes = option_names(name)
    unknown = [key for key in options if key not in takes]
    if unknown and not _takes_any(factory):
        key = unknown[0]
        raise ValueError(f"unknown option {key!r} for {name} (its options: {', '.join(sorted(takes)) or 'none'})")
    check_option_kinds(name, factory.func if isinstance(factory, partial) else factory, options)
    return factory(seed=seed, **options)


def check_option_kinds(
    name: str, target: Callable[..., Any], options: dict[str, Any], raw: dict[str, str] | None = None
) -> None:
    """Each option a value of the kind its default has: yes or no, a number, a whole number (or none
    where the option takes none). ``raw`` is how a command line spelled each value, for the message."""
    params = inspect.signature(target).parameters
    for key, value in options.items():
        param = params.get(key)
        if param is None:
            continue
        default, annotation = param.default, str(param.annotation)
        number = isinstance(value, Real) and not isinstance(value, bool)  # numpy's numbers too
        if isinstance(default, bool) or annotation == "bool":
            kind, fits = "yes or no", isinstance(value, bool)
        elif isinstance(default, float) or "float" in annotation:
            kind, fits = "a number", number
        elif isinstance(default, int) or "int" in annotation:
            kind, fits = "a whole number", number and isinstance(value, Integral)
        else:
            continue
        if not (fits or (value is None and "None" in annotation)):
            said = (raw or {}).get(key, spelled(value) if isinstance(value, bool | None) else repr(value)) or "nothing"
            raise ValueError(f"option {key} of {name} takes {kind}, not {said}")


def spelled(value: Any) -> str:
    """An option's value as the command line writes it (``false``, ``none``), for labels and messages."""
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def _takes_any(factory: BotFactory) -> bool:
    target = factory.func if isinstance(factory, partial) else factory
    return any(p.kind == p.VAR_KEYWORD for p in inspect.signature(target).parameters.values())


def _factory(name: str) -> BotFactory:
    key = LEVELS.get(name, name)
    if key in EXTERNAL and key not in BOTS:
        import importlib

        module, _, attr = EXTERNAL[key].partition(":")
        try:
            BOTS[key] = getattr(importlib.import_module(module), attr)
        except ImportError as e:
            extras = EXTRAS.get(key, "all")
            raise MissingPart(
                f"bot {name!r} needs parts not installed ({e}): pip install 'opentrix[{extras}]'"
            ) from None
    if key in ARENA_ONLY:  # not unknown: kept from every table on purpose
        raise ValueError(f"{name} sees every hand: it plays in the arena only (opentrix arena), never at a table")
    try:
        return BOTS[key]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bot_names())})") from None


__all__ = [
    "ARENA_ONLY",
    "BOTS",
    "EXTERNAL",
    "EXTRAS",
    "LEVELS",
    "BasicBot",
    "Bot",
    "MissingPart",
    "RandomBot",
    "StrongBot",
    "bot_names",
    "check_option_kinds",
    "make_bot",
    "option_names",
]
