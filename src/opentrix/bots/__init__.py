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


def bot_names() -> list[str]:
    return [*BOTS, *LEVELS]


def make_bot(name: str, seed: int | str | None = None, **options: Any) -> Bot:
    """Build a bot by name; an unknown name is a ValueError listing the known ones."""
    key = LEVELS.get(name, name)
    try:
        factory = BOTS[key]
    except KeyError:
        raise ValueError(f"unknown bot {name!r} (known: {', '.join(bot_names())})") from None
    return factory(seed=seed, **options)


__all__ = ["BOTS", "LEVELS", "Bot", "RandomBot", "bot_names", "make_bot"]
