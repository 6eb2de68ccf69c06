"""Bot specifications on the command line: ``name`` or ``name:option=value:option=value``."""

from __future__ import annotations

import importlib
import inspect
from dataclasses import dataclass, field
from typing import Any

from ..bots import ARENA_ONLY, BOTS, LEVELS, Bot, MissingPart, bot_names, check_option_kinds, make_bot, spelled


class SpecError(ValueError):
    """A bot specification that names no bot or gives a bad option."""


def arena_bot_names() -> list[str]:
    return [*bot_names(), *ARENA_ONLY]


@dataclass(frozen=True)
class BotSpec:
    """A bot by name with its options; ``build`` makes a fresh, seeded instance."""

    name: str
    options: dict[str, Any] = field(default_factory=dict)

    @property
    def label(self) -> str:
        opts = "".join(f":{k}={spelled(v)}" for k, v in self.options.items())
        return self.name + opts

    def build(self, seed: str) -> Bot:
        if self.name in ARENA_ONLY:
            module, _, attr = ARENA_ONLY[self.name].partition(":")
            bot: Bot = getattr(importlib.import_module(module), attr)(seed=seed, **self.options)
        else:
            bot = make_bot(self.name, seed=seed, **self.options)
        if getattr(bot, "timed", False) and "budget_ms" not in self.options:
            if getattr(bot, "samples", 0) is None:  # no budget and no count: a search that never stops
                raise SpecError(
                    f"{self.name} with samples=none searches until its time runs out: give budget_ms too "
                    f"(e.g. {self.name}:samples=none:budget_ms=250), or a number of samples"
                )
            bot.budget_ms = None  # type: ignore[attr-defined]  # reproducible: a fixed number of samples
        return bot


def settings(spec: BotSpec) -> dict[str, Any]:
    """Every option the bot runs with, defaults included, as the arena builds it (a timed search gets
    no time budget unless given one): what a JSON result needs to say which bot it measured."""
    bot = spec.build("settings")
    params = inspect.signature(type(bot)).parameters.values()
    out: dict[str, Any] = {}
    for p in params:
        if p.name == "seed" or p.kind not in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            continue
        # as given, else as the bot holds it (``novice`` is basic with its own ``mistakes``; the arena
        # takes a timed search's budget away), else the constructor's default
        value = spec.options.get(p.name, getattr(bot, p.name, p.default))
        if value is inspect.Parameter.empty:
            continue
        out[p.name] = value if isinstance(value, bool | int | float | str | None) else repr(value)
    if getattr(bot, "reader", None) is not None:  # cheat-from: its own options, then its strong reader's
        passed = {k: v for k, v in spec.options.items() if k not in out}
        return settings(BotSpec("strong", passed)) | out
    return out


def _value(text: str) -> Any:
    low = text.lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text


def _check_options(name: str, cls: type, options: dict[str, Any], raw: dict[str, str] | None = None) -> None:
    """Each option is one the bot takes, with a value of the kind its default has (a number, yes/no)."""
    signature = inspect.signature(cls).parameters.values()  # the constructor's, without self
    params = {p.name: p for p in signature if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    takes_any = any(p.kind == p.VAR_KEYWORD for p in signature)
    raw = raw or {}
    for key in options:
        param = params.get(key)
        if param is None:
            if takes_any:
                continue
            known = ", ".join(params) or "none"
            raise SpecError(f"unknown option {key!r} for {name} (its options: {known})")
    try:
        check_option_kinds(name, cls, options, raw)
    except ValueError as e:
        raise SpecError(str(e)) from None


def _example(name: str) -> str:
    """An option the bot does take, with its default, to show the form (not one it would refuse)."""
    try:
        bot = BotSpec(name).build("example")
    except (SpecError, MissingPart, TypeError, ValueError):
        return ""
    for p in inspect.signature(type(bot)).parameters.values():
        if p.name != "seed" and p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY):
            value = getattr(bot, p.name, p.default)
            if isinstance(value, bool | int | float | str):
                return f", e.g. {name}:{p.name}={spelled(value)}"
    return f" ({name} takes no options)"


def parse_spec(text: str) -> BotSpec:
    """``strong:samples=40`` -> BotSpec("strong", {"samples": 40}); checks the bot exists and builds."""
    name, *parts = text.strip().split(":")
    name = name.strip()  # "strong :samples=4", as spaces are allowed around the options
    known = arena_bot_names()
    if name not in known:
        raise SpecError(f"unknown bot {name!r} (known: {', '.join(known)})")
    options: dict[str, Any] = {}
    raw: dict[str, str] = {}
    for p in parts:
        key, eq, value = p.partition("=")
        key = key.strip()
        if not eq or not key:
            raise SpecError(f"bad option {p!r} for {name}: write option=value{_example(name)}")
        if key in options:
            raise SpecError(f"option {key} of {name} is given twice ({raw[key]} and {value.strip()})")
        options[key] = _value(value.strip())
        raw[key] = value.strip()
    spec = BotSpec(name, options)
    try:
        _check_options(name, type(BotSpec(name).build("check")), options, raw)
        spec.build("check")
    except (SpecError, MissingPart) as e:
        raise SpecError(str(e)) from None
    except TypeError as e:
        raise SpecError(f"bad option for {name}: {e}") from None
    except ValueError as e:
        raise SpecError(f"bad option for {name}: {e}") from None
    return spec


__all__ = ["BOTS", "LEVELS", "BotSpec", "SpecError", "arena_bot_names", "parse_spec", "settings"]
