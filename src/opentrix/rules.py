"""Rule options and the five presets of the rule book, as one frozen, typed object."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, field
from typing import Any, Literal

from ._brief import brief
from .cards import Card, card_name, parse_card
from .contracts import COMPLEX_CONTRACTS, STANDARD_CONTRACTS, Contract
from .errors import shown

KingdomPasses = Literal["with_play", "against_play"]
SelfCapture = Literal["normal", "doubled", "doubled_leader_gains"]
PartnerCapture = Literal["no_bonus", "as_other"]
DoublingReveal = Literal["sequential", "hidden"]
Tiebreak = Literal["none", "extra_koh_deal", "extra_kingdom"]

_CHOICES: dict[str, tuple[str, ...]] = {
    "kingdom_passes": ("with_play", "against_play"),
    "self_capture": ("normal", "doubled", "doubled_leader_gains"),
    "partner_capture": ("no_bonus", "as_other"),
    "doubling_reveal": ("sequential", "hidden"),
    "tiebreak": ("none", "extra_koh_deal", "extra_kingdom"),
}
_BOOLS = (
    "hearts_lead_ban",
    "king_must_be_discarded",
    "doubling",
    "koh_redeal",
    "trix_throw_in",
    "early_end",
    "complex",
    "partnership",
)


class RulesError(ValueError):
    """A rules value in a record or on the command line is not valid."""


PRESET_NAMES = ("classic", "wikipedia", "denexa", "online", "complex")  # PRESETS below, in this order


@dataclass(frozen=True, slots=True)
class Points:
    """What each penalty or Trix place is worth; doubling doubles whatever the value is."""

    king_of_hearts: int = -75
    queen: int = -25
    diamond: int = -10
    trick: int = -15
    trix: tuple[int, int, int, int] = (200, 150, 100, 50)

    def __post_init__(self) -> None:
        """Built directly (``Points(trix=(1, 2))``), the values are checked as a record's are."""
        for name in ("king_of_hearts", "queen", "diamond", "trick"):
            value = getattr(self, name)
            if not isinstance(value, int) or isinstance(value, bool):
                raise RulesError(f"rules: points {name!r} must be an integer, not {brief(value, python=True)}")
        trix = self.trix
        if (
            not isinstance(trix, tuple | list)
            or len(trix) != 4
            or not all(isinstance(v, int) and not isinstance(v, bool) for v in trix)
        ):
            raise RulesError(f"rules: points 'trix' must be four integers, not {brief(trix, python=True)}")
        if not isinstance(trix, tuple):  # a list would make the rules unhashable
            object.__setattr__(self, "trix", tuple(trix))

    def to_json(self) -> dict[str, Any]:
        """Only the values that differ from the standard ones."""
        out: dict[str, Any] = {}
        std = Points()
        for f in dataclasses.fields(self):
            v = getattr(self, f.name)
            if v != getattr(std, f.name):
                out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    @classmethod
    def from_json(cls, data: object) -> Points:
        if not isinstance(data, dict):
            raise RulesError(f"rules: 'points' must be an object, not {shown(data)}")
        known = [f.name for f in dataclasses.fields(cls)]
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key not in known:
                raise RulesError(f"rules: unknown key {brief(key)} in 'points' (known: {', '.join(known)})")
            if key == "trix":
                if (
                    not isinstance(value, list)
                    or len(value) != 4
                    or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
                ):
                    raise RulesError(f"rules: points 'trix' must be a list of four integers, not {shown(value)}")
                kwargs[key] = tuple(value)
            else:
                if not isinstance(value, int) or isinstance(value, bool):
                    raise RulesError(f"rules: points {key!r} must be an integer, not {shown(value)}")
                kwargs[key] = value
        return cls(**kwargs)


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of the rule book (docs/rules.md). Build one with ``Rules.preset("online", partnership=True)``."""

    preset_name: str = "classic"
    kingdom_passes: KingdomPasses = "with_play"
    hearts_lead_ban: bool = True
    king_must_be_discarded: bool = False
    doubling: bool = False
    self_capture: SelfCapture = "normal"
    partner_capture: PartnerCapture = "no_bonus"
    doubling_reveal: DoublingReveal = "sequential"
    koh_redeal: bool = False
    trix_throw_in: bool = False
    early_end: bool = False
    tiebreak: Tiebreak = "extra_koh_deal"
    complex: bool = False
    first_king_card: Card = Card["7H"]
    kingdoms: int = 4
    partnership: bool = False
    points: Points = field(default_factory=Points)

    def __post_init__(self) -> None:
        """Built directly (``Rules(kingdoms=0)``), every option is checked as a record's is, so the
        engine never plays, nor writes a record of, rules its own reader would refuse."""
        if self.preset_name not in PRESET_NAMES:
            raise RulesError(f"unknown preset {brief(self.preset_name)} (known: {', '.join(PRESET_NAMES)})")
        for f in dataclasses.fields(self):
            if f.name == "preset_name":
                continue
            value = getattr(self, f.name)
            if f.name == "points":
                if not isinstance(value, Points):
                    raise RulesError(f"rules: 'points' must be a Points, not {brief(value, python=True)}")
                continue
            checked = _check_option(f.name, value)
            if checked is not value:  # first_king_card given as "7H": kept as the Card
                object.__setattr__(self, f.name, checked)

    @property
    def contracts(self) -> tuple[Contract, ...]:
        """The contracts of one kingdom."""
        return COMPLEX_CONTRACTS if self.complex else STANDARD_CONTRACTS

    @property
    def direction(self) -> int:
        """+1 when the kingdom passes with play, −1 against it."""
        return 1 if self.kingdom_passes == "with_play" else -1

    @classmethod
    def preset(cls, name: str = "classic", **overrides: Any) -> Rules:
        try:
            base = PRESETS[name]
        except KeyError:
            raise RulesError(f"unknown preset {brief(name)} (known: {', '.join(PRESETS)})") from None
        return base.with_options(**overrides) if overrides else base

    def with_options(self, **options: Any) -> Rules:
        """A copy with the given options changed, each checked like a record's options."""
        data: dict[str, Any] = {"preset": self.preset_name}
        data.update(self._diff_from_preset())
        data.update(options)
        return Rules.from_json(data)

    @classmethod
    def from_json(cls, data: object) -> Rules:
        """Read a record's ``rules``: a preset name, an object with ``preset`` and options, or null."""
        if data is None:
            return PRESETS["classic"]
        if isinstance(data, str):
            return cls.preset(data)
        if not isinstance(data, dict):
            raise RulesError(f"rules must be a preset name or an object, not {shown(data)}")
        preset = data.get("preset", "classic")
        if not isinstance(preset, str):
            raise RulesError(f"rules: 'preset' must be a preset name, not {shown(preset)}")
        base = cls.preset(preset)
        kwargs: dict[str, Any] = {}
        for key, value in data.items():
            if key == "preset":
                continue
            kwargs[key] = _check_option(key, value)
        return dataclasses.replace(base, **kwargs)

    def _diff_from_preset(self) -> dict[str, Any]:
        base = PRESETS[self.preset_name]
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):
            if f.name == "preset_name":
                continue
            v = getattr(self, f.name)
            if v != getattr(base, f.name):
                if f.name == "points":
                    out["points"] = v.to_json()
                elif f.name == "first_king_card":
                    out[f.name] = card_name(v)
                else:
                    out[f.name] = v
        return out

    def to_json(self) -> str | dict[str, Any]:
        """The preset name, or ``{"preset": ..., option: value}`` with only the options that differ."""
        diff = self._diff_from_preset()
        return {"preset": self.preset_name, **diff} if diff else self.preset_name

    def option_dict(self) -> dict[str, Any]:
        """Every option with its value, for display."""
        out: dict[str, Any] = {"preset": self.preset_name}
        for f in dataclasses.fields(self):
            if f.name == "preset_name":
                continue
            v = getattr(self, f.name)
            if f.name == "points":
                v = dataclasses.asdict(v)
                v["trix"] = list(v["trix"])
            elif f.name == "first_king_card":
                v = card_name(v)
            out[f.name] = v
        return out


OPTION_NAMES = tuple(f.name for f in dataclasses.fields(Rules) if f.name != "preset_name")


def _check_option(key: str, value: Any) -> Any:
    if key in _BOOLS:
        if not isinstance(value, bool):
            raise RulesError(f"rules: option {key!r} must be true or false, not {shown(value)}")
        return value
    if key in _CHOICES:
        if value not in _CHOICES[key]:
            raise RulesError(f"rules: option {key!r} must be one of {', '.join(_CHOICES[key])}, not {shown(value)}")
        return value
    if key == "kingdoms":
        if not isinstance(value, int) or isinstance(value, bool) or not 1 <= value <= 100:
            raise RulesError(f"rules: option 'kingdoms' must be a whole number from 1 to 100, not {shown(value)}")
        return value
    if key == "first_king_card":
        if isinstance(value, Card):
            return value
        try:
            return Card(parse_card(value))
        except ValueError as e:
            raise RulesError(f"rules: option 'first_king_card': {e}") from None
    if key == "points":
        return Points.from_json(value.to_json() if isinstance(value, Points) else value)  # checked either way
    raise RulesError(f"rules: unknown option {brief(key)} (known: preset, {', '.join(OPTION_NAMES)})")


PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "wikipedia": Rules(
        preset_name="wikipedia",
        hearts_lead_ban=False,
        doubling=True,
        koh_redeal=True,
        trix_throw_in=True,
        tiebreak="none",
    ),
    "denexa": Rules(
        preset_name="denexa",
        kingdom_passes="against_play",
        doubling=True,
        self_capture="doubled_leader_gains",
        trix_throw_in=True,
        tiebreak="none",
    ),
    "online": Rules(
        preset_name="online",
        hearts_lead_ban=False,
        doubling=True,
        early_end=True,
        tiebreak="extra_kingdom",
    ),
    "complex": Rules(
        preset_name="complex",
        hearts_lead_ban=False,
        doubling=True,
        self_capture="doubled_leader_gains",
        early_end=True,
        tiebreak="none",
        complex=True,
    ),
}
assert tuple(PRESETS) == PRESET_NAMES
