"""Opponents: ``make_bot("random" | "basic" | "strong" | "easy" | "medium" | "hard", seed=...)``."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .base import Bot, RandomBot

BotFactory = Callable[..., Bot]

# name -> factory(seed=..., **options). Table levels map to engines: easy, medium, hard.
BOTS: dict[str, BotFactory] = {
    "random": RandomBot,
}
LEVELS: dict[str, str] = {"easy": "random", "medium": "random", "hard": "random"}
# Bots that live in optional parts, imported only when asked for: name -> "module:attribute".
EXTERNAL: dict[str, str] = {"openspiel-ismcts": "opentrix.env.openspiel_bot:OpenSpielISMCTSBot"}


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS, *EXTERNAL]


def make_bot(name: str, seed: int | str | None = None, **options: Any) -> Bot:
    """Build a bot by name; an unknown name is a ValueError listing the known ones."""
    key = LEVELS.get(name, name)
    if key in EXTERNAL and key not in BOTS:
        import importlib

        module, _, attr = EXTERNAL[key].partition(":")
        try:
            BOTS[key] = getattr(importlib.import_module(module), attr)
        except ImportError as e:
            raise ValueError(f"bot {name!r} needs an optional part that is not installed: {e}") from None
    try:
        factory = BOTS[key]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bot_names())})") from None
    return factory(seed=seed, **options)


__all__ = ["BOTS", "EXTERNAL", "LEVELS", "Bot", "RandomBot", "bot_names", "make_bot"]
