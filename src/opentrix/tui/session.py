"""One match at the terminal: you at seat 0, three bots, the record saved after every action.

This holds no screen code, so the game flow, the reading of typed input and the saving can be tested
without a terminal; the Textual app only draws ``view(match, 0)`` and forwards keys here.
"""

from __future__ import annotations

import contextlib
import json
import os
import random
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from .. import actions as A
from ..bots import Bot, bot_names, make_bot
from ..cards import parse_card
from ..contracts import Contract
from ..deal import Phase, deal_hands
from ..errors import TrixError
from ..match import MAX_SEED, Match
from ..record import NoDeals, Record, RecordError, parse_json
from ..rules import Rules
from ..view import View, view
from .glyphs import Glyphs, hand_order

HUMAN = 0
# Seats follow turn order counter-clockwise, so the seat after you sits on your right.
SEAT_NAMES = ("You", "Right", "Across", "Left")
SHORT_NAMES = ("You", "Rgt", "Acr", "Lft")  # the score table's column heads
HINT_BOTS = ("strong", "hard")
DEFAULT_BOTS = ("medium", "medium", "medium")
# The top-level key of a save file that holds the match's seed (readers of records ignore unknown keys):
# the deals not yet in the record are dealt from it, so quitting never deals a new hand.
SEED_KEY = "seed"
# And the redeal claims and doubling answers given so far in a deal stopped among them: the record
# cannot tell a question not yet answered from one declined, so without them a match taken up there
# would skip the questions (yours too) as if everyone had declined.
ANSWERS_KEY = "answers"


class InputError(ValueError):
    """Typed input that is not a move now; the message says why, in a player's words."""


@dataclass(frozen=True)
class Choice:
    """One option offered at a decision: what to press and what it does."""

    action: int
    label: str


def _choice_order(a: int) -> tuple[int, int, tuple[tuple[int, int], ...]]:
    if A.is_card(a):
        return (a // 13, -a, ())
    if a in (A.NO_DOUBLE, A.NO_CLAIM):  # the answer that commits to nothing comes first, selected, so
        return (9, -1, ())  # a stray Enter never doubles or claims, and a cut-off list still shows it
    if A.is_double(a):  # one card before two, each set in the hand's order
        return (9, len(A.doubled_cards(a)), tuple((c // 13, -c) for c in hand_order(A.doubled_cards(a))))
    return (9, a, ())


def choices(v: View, g: Glyphs) -> list[Choice]:
    """The options the arrow keys move over: legal cards in play, otherwise the decision's answers."""
    out = []
    # cards in the order the hand is drawn: by suit, high to low, so the arrows move left and right
    for a in sorted(v.legal_actions, key=_choice_order):
        if A.is_card(a):
            out.append(Choice(a, g.card(a)))
        elif a == A.PASS:
            out.append(Choice(a, "pass"))
        elif A.is_contract(a):
            out.append(Choice(a, A.contract_of(a).title))
        elif A.is_double(a):
            out.append(Choice(a, "double " + " ".join(g.card(c) for c in hand_order(A.doubled_cards(a)))))
        elif a == A.NO_DOUBLE:
            out.append(Choice(a, "no double"))
        elif a == A.CLAIM:
            out.append(Choice(a, "claim a redeal"))
        elif a == A.NO_CLAIM:
            out.append(Choice(a, "play on"))
    return out


_YES = ("y", "yes", "claim", "double")
_NO = ("n", "no", "none", "pass", "play", "noclaim", "nodouble", "nodbl")


def parse_input(text: str, v: View, g: Glyphs) -> int:
    """Read what the player typed as an action for the decision in ``v``; InputError says why not.

    Cards are rank then suit in any case (``qs``, ``10d``, ``Q♠``); a number picks the n-th option of a
    contract, doubling or redeal question; contracts also go by a name or its start (``queens``, ``kh``).
    The action is not checked against the rules here: the engine does that and explains refusals.
    """
    t = "".join(text.split()).lower()
    if not t:
        raise InputError("type a card such as qs or 10d, or choose with the arrow keys")
    phase = v.phase
    opts = choices(v, g)
    if phase != Phase.PLAY and t.isdigit():
        n = int(t)
        if 1 <= n <= len(opts):
            return opts[n - 1].action
        raise InputError(f"there is no option {n}: choose 1 to {len(opts)}")
    if phase == Phase.PLAY:
        if t in ("pass", "p"):
            return A.PASS
        try:
            return parse_card(t)
        except ValueError:
            raise InputError(f"'{text.strip()}' is not a card: type the rank then the suit, e.g. qs, 10d, as") from None
    if phase == Phase.CHOOSE_CONTRACT:
        return A.choose(_contract_named(t, text, v))
    if phase == Phase.DOUBLE:
        if t in _NO:
            return A.NO_DOUBLE
        doubles = [a for a in v.legal_actions if A.is_double(a)]
        if t in _YES and len(doubles) == 1:
            return doubles[0]
        words = text.strip().lower().replace(",", " ").split()
        if words and words[0] == "double":
            words = words[1:]
        if t in _YES:
            raise InputError("say which cards to double, e.g. qs or qs qh, or n for no")
        cards = []
        for w in words:
            try:
                cards.append(parse_card(w))
            except ValueError:  # its own message repeats the word and lists every rank: too long for one line
                raise InputError(f"'{w}' is not a card: type the cards to double (e.g. kh, or qs qh), or n") from None
        try:
            return A.double(cards)
        except ValueError as e:
            raise InputError(f"'{text.strip()}': {e}; type the cards to double (e.g. kh, or qs qh) or n") from None
    if phase == Phase.CLAIM:
        if t in _YES:
            return A.CLAIM
        if t in _NO:
            return A.NO_CLAIM
        raise InputError(f"'{text.strip()}': answer y to claim a redeal or n to play on")
    raise InputError("nothing to decide now")


_CONTRACT_ALIASES = {"kh": "king_of_hearts", "koh": "king_of_hearts", "king": "king_of_hearts", "lt": "ltoosh"}


def _contract_named(t: str, text: str, v: View) -> Contract:
    key = _CONTRACT_ALIASES.get(t.replace("_", ""), t)
    try:
        named = Contract.parse(key)
    except ValueError:
        pass
    else:
        if named not in v.rules.contracts:  # the engine would list the record's ids (complex, trix)
            names = ", ".join(c.title for c in v.available_contracts)
            raise InputError(f"{named.title} is not played under these rules; choose one of: {names}")
        return named
    starts = [c for c in Contract if c.id.replace("_", "").startswith(key.replace("_", ""))]
    offered = [c for c in starts if c in v.available_contracts]
    if len(offered) == 1:
        return offered[0]
    if len(starts) == 1:
        return starts[0]
    names = ", ".join(c.title for c in v.available_contracts)
    raise InputError(f"'{text.strip()}' is not a contract you can name; choose one of: {names}")


def write_atomically(path: Path, text: str) -> None:
    """Write through a temporary file and a rename, so an interrupted write never leaves half a record.

    No fsync: this guards against Ctrl-C and crashes of the program, cheaply enough to run after every card.
    """
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        tmp.write_text(text, encoding="utf-8")
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(OSError):  # a read-only folder: the write's own error is the one to tell
            tmp.unlink(missing_ok=True)


def save_target(path: Path) -> Path:
    """The file a save writes: a symbolic link's target (the link stays a link and sees every save),
    and never a device, a pipe or a socket, which the rename that saves would replace by a plain file
    (``--save /dev/null`` run as root turned the machine's /dev/null into one)."""
    try:
        real = path.resolve() if path.is_symlink() else path
    except (RuntimeError, OSError) as e:  # a loop of links (RuntimeError on Python 3.11)
        raise ValueError(f"cannot save to {path}: a symbolic link that leads nowhere ({e})") from None
    if real.exists() and not real.is_file() and not real.is_dir():
        raise ValueError(f"cannot save to {path}: it is not a plain file (a device, a pipe or a socket)")
    return real


def can_save(path: Path) -> None:
    """Raise ValueError unless ``write_atomically`` can write ``path``: found out before the match, not
    at its first card (every save would fail, the match be lost on quitting)."""
    if path.is_dir():
        raise ValueError(f"cannot save to {path}: it is a folder; give a file name")
    folder = path.parent if str(path.parent) else Path(".")
    if not folder.is_dir():
        raise ValueError(f"cannot save to {path}: the folder {folder} does not exist")
    probe = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    try:
        probe.write_text("", encoding="utf-8")
    except OSError as e:
        raise ValueError(f"cannot save to {path}: {e.strerror or e}") from None
    finally:
        with contextlib.suppress(OSError):
            probe.unlink(missing_ok=True)


def answers_so_far(match: Match) -> list[int] | None:
    """The claims and doubling answers of the deal under way while it is still among them, else None."""
    if match.phase not in (Phase.CLAIM, Phase.DOUBLE):
        return None
    history = match.history
    i = len(history) - 1
    while not A.is_contract(history[i]):  # back to the king's choice
        i -= 1
    return history[i + 1 :]


def replay_saved(record: Record, answers: object) -> Match:
    """The match a save file holds: its record replayed, and a deal stopped among its redeal claims or
    doubling answers rebuilt from the king's choice with the answers given (``ANSWERS_KEY``).
    RecordError, naming the key, if those answers do not fit the record."""
    if answers is None:
        return record.replay()
    last = record.deals[-1] if record.deals else None

    def wrong(why: str) -> RecordError:  # about the last deal, or the record as a whole when it has none
        return RecordError(f"'{ANSWERS_KEY}' {why}", len(record.deals) - 1 if record.deals else None)

    if not isinstance(answers, list) or not all(isinstance(a, str) for a in answers):
        raise wrong('must be a list of answers such as "no claim" or "double KH"')
    if last is None or last.plays or last.thrown_in is not None:
        raise wrong("belongs to a deal stopped before its first card, and the last deal is not one")
    match = record.replay(last_at_contract=True)
    for text in answers:
        try:
            match.apply(A.parse(text))
        except (ValueError, TrixError) as e:
            raise wrong(f"cannot go on with {text!r}: {e}") from None
    deal = match.deals[-1]
    if match.phase not in (Phase.CLAIM, Phase.DOUBLE) or deal.doubled != last.doubled:
        raise wrong("do not end where the deal's record stops")
    return match


def kept_seed(data: object, seed: int | None, save: Path) -> int | None:
    """The seed a save file keeps (None in a file from before seeds were kept); a different ``seed`` is refused."""
    kept = data.get(SEED_KEY) if isinstance(data, dict) else None
    if not isinstance(kept, int) or isinstance(kept, bool) or not 0 <= kept <= MAX_SEED:
        return None
    if seed is not None and seed != kept:
        raise ValueError(
            f"seed {seed} did not deal the match in {save}, which keeps its own seed; leave out --seed to take it up"
        )
    return kept


def _bots_of(record: Record) -> Sequence[str]:
    """The bots a saved match was played against (its players ``bot:<level>``), else the default ones."""
    named = [p.removeprefix("bot:") for p in (record.players or [])[1:]]
    return named if len(named) == 3 and all(p in bot_names() for p in named) else DEFAULT_BOTS


def _same_table(save: Path, kept: Rules, record: Record, rules: str | None, bots: Sequence[str] | None) -> None:
    """ValueError unless ``--rules`` and ``--bots``, where given, are the unfinished match's: its deals were
    scored under its rules, and the record names one set of bots for the whole match."""
    if rules is not None and Rules.preset(rules) != kept:
        raise ValueError(f"{save} holds an unfinished match under other rules; leave out --rules to take it up")
    if bots is not None and list(bots) != list(_bots_of(record)):
        raise ValueError(
            f"{save} holds an unfinished match against {', '.join(_bots_of(record))} bots; "
            "leave out --bots to take it up"
        )


def hint_bot() -> Bot:
    """The strongest bot available, for hints."""
    for name in HINT_BOTS:
        try:
            return make_bot(name, seed=0)
        except ValueError:
            continue
    return make_bot("random", seed=0)


class Seated(Protocol):
    """What the play screen needs of a match, wherever it is played: here against bots
    (``PlaySession``) or at a server's table (``tui.remote.RemoteSession``)."""

    seed: int
    notice: str
    save_error: str | None
    save_path: Path | None

    @property
    def seat(self) -> int: ...
    def view(self) -> View: ...
    @property
    def your_turn(self) -> bool: ...
    def bot_to_act(self) -> int | None: ...
    def name(self, seat: int) -> str: ...
    def play(self, action: int) -> None: ...
    def bot_inputs(self, seat: int) -> tuple[Bot, View, list[int]]: ...
    def apply_bot(self, seat: int, action: int) -> str | None: ...
    def next_deal(self) -> None: ...
    def another(self) -> tuple[Seated, Path | None]: ...
    def progress(self) -> tuple[int, ...]: ...
    def header_names(self) -> Sequence[str]: ...
    def short_names(self) -> Sequence[str]: ...


class PlaySession:
    """A match against three bots, seen from seat 0, saved as opentrix-record/1 after every action."""

    def __init__(
        self,
        rules: str | Rules = "classic",
        bots: Sequence[str] = ("medium", "medium", "medium"),
        seed: int | None = None,
        save: Path | None = None,
        match: Match | None = None,
    ) -> None:
        """A new match from ``seed``, or ``match`` taken up (its deals still to come then from ``seed``)."""
        if len(bots) != 3:
            raise ValueError("give the levels of exactly three bots")
        self.rules = match.rules if match is not None else Rules.preset(rules) if isinstance(rules, str) else rules
        self.seed = seed if seed is not None else random.SystemRandom().randrange(1_000_000)
        if match is not None:
            match.seed = self.seed
        self.match = match if match is not None else Match(self.rules, seed=self.seed)
        self.notice = ""  # what the screen says first (a match taken up from its save file)
        self.levels = list(bots)
        self.bots: dict[int, Bot] = {
            seat: make_bot(level, seed=f"{self.seed}:{seat}") for seat, level in zip((1, 2, 3), bots, strict=True)
        }
        self.players = ["player", *(f"bot:{level}" for level in bots)]
        self.save_path = save_target(save) if save is not None else None
        self.save_error: str | None = None
        if self.save_path is not None:
            can_save(self.save_path)

    @classmethod
    def open(
        cls, rules: str | None, bots: Sequence[str] | None, seed: int | None, save: Path | None, write: bool = True
    ) -> PlaySession:
        """A new match, or the unfinished one in ``save`` taken up where it stopped.

        A save file is never overwritten by another match: the record of a finished match, or a file
        that is not a record, is a clear error (another --save file, or remove it). ``None`` means not
        given: the record's rules and bots then count. The save file keeps the match's seed, so the
        deals still to come are the ones quitting left: a ``seed`` other than the kept one is refused.
        The file is written at once, so even the first hand, once seen, is kept; ``write=False`` leaves
        that to the caller (``session.save()``), which checks first that the match can be played at all.
        """
        if save is not None:
            save = save_target(save)
        if save is None or not save.is_file() or save.stat().st_size == 0:
            session = cls(rules or "classic", bots or DEFAULT_BOTS, seed, save)
            if write:
                session.save()
            return session
        again = "give another --save file to start a new match, or remove it"
        try:
            data = parse_json(save.read_bytes())
            record = Record.from_json(data)
            match = replay_saved(record, data.get(ANSWERS_KEY) if isinstance(data, dict) else None)
        except OSError as e:
            raise ValueError(f"cannot read {save}: {e.strerror or e}") from None
        except NoDeals:  # a record stopped before its first deal: nothing played, but a hand may have been seen
            if record.players and record.players[0] != "player":
                raise ValueError(f"{save} holds a match not played in this terminal (you at seat 0); {again}") from None
            kept = kept_seed(data, seed, save)
            if kept is not None:  # saved by this terminal as the match opened: its first hand was seen
                _same_table(save, record.rules, record, rules, bots)
            chosen = Rules.preset(rules) if rules is not None else record.rules
            session = cls(chosen, bots or _bots_of(record), seed if seed is not None else kept, save)
            if kept is not None:
                session.notice = f"Taken up from {save} (no deal played yet)."
            if write:
                session.save()
            return session
        except RecordError as e:
            raise ValueError(f"{save} holds no match to take up ({e.located()}); {again}") from None
        if match.is_over:
            raise ValueError(f"{save} holds a finished match; {again}")
        if not record.players or record.players[0] != "player":  # names and seats it has would be lost
            raise ValueError(f"{save} holds a match not played in this terminal (you at seat 0); {again}")
        _same_table(save, match.rules, record, rules, bots)
        kept = kept_seed(data, seed, save)
        if seed is not None and kept is None and tuple(deal_hands(seed, 0)) != tuple(record.deals[0].hands):
            raise ValueError(f"seed {seed} did not deal {save}'s first deal; leave out --seed to take it up")
        if bots is None:
            bots = _bots_of(record)
        session = cls(match.rules, bots, seed if seed is not None else kept, save, match=match)
        done = sum(1 for d in match.summaries if d.thrown_in is None)
        session.notice = f"Taken up from {save} ({done} deal{'' if done == 1 else 's'} played)." + (
            "" if seed is not None or kept is not None else f" The deals still to come are from seed {session.seed}."
        )
        if write:  # a file written before seeds were kept keeps this one from now on
            session.save()
        return session

    # -- what the player sees ---------------------------------------------------------------------------

    seat = HUMAN  # where you sit (a client at a server's table may sit anywhere)

    def view(self) -> View:
        return view(self.match, HUMAN)

    def progress(self) -> tuple[int, ...]:
        """Changes with every action and deal: a new decision resets the selection."""
        return (len(self.match.history), len(self.match.deals))

    def header_names(self) -> Sequence[str]:
        """The seats as the header and the end-of-deal line name them."""
        return SEAT_NAMES

    def short_names(self) -> Sequence[str]:
        """The score table's column heads."""
        return SHORT_NAMES

    @property
    def your_turn(self) -> bool:
        return self.match.turn == HUMAN

    def bot_to_act(self) -> int | None:
        """The bot seat to act now, or None (your turn, between deals, match over)."""
        turn = self.match.turn
        return None if turn is None or turn == HUMAN else turn

    def name(self, seat: int) -> str:
        return SEAT_NAMES[seat] if seat == HUMAN else f"{SEAT_NAMES[seat]} ({self.levels[seat - 1]})"

    # -- acting ------------------------------------------------------------------------------------------

    def play(self, action: int) -> None:
        """Your action; raises the engine's TrixError, whose text says why it is refused."""
        self.match.apply(action, HUMAN)
        self.save()

    def bot_inputs(self, seat: int) -> tuple[Bot, View, list[int]]:
        """What a bot decides from: only its view and the legal actions (run it off the UI thread)."""
        v = view(self.match, seat)
        return self.bots[seat], v, list(v.legal_actions)

    def apply_bot(self, seat: int, action: int) -> str | None:
        """Apply a bot's action; a refused one is replaced by its first legal action and reported."""
        try:
            self.match.apply(action, seat)
            problem = None
        except TrixError as e:
            problem = f"{self.name(seat)} bot tried an illegal move ({e}); played its first legal move"
            self.match.apply(self.match.legal_actions()[0], seat)
        self.save()
        return problem

    def next_deal(self) -> None:
        if self.match.phase == Phase.DEAL_OVER:
            self.match.start_deal()

    # -- saving ------------------------------------------------------------------------------------------

    def another(self) -> tuple[PlaySession, Path | None]:
        """A new match with the same rules and bots, dealt from a new seed, and where the finished one
        was kept: the ``--save`` file goes on holding the match under way, so the finished match moves
        next to it under a numbered name (``trix.json`` to ``trix-1.json``). ValueError, with nothing
        changed, if the finished match cannot be saved whole or kept aside."""
        new = PlaySession(self.rules, self.levels, None, self.save_path)  # checks the file can be written
        kept = None
        if self.save_path is not None:
            self.save()  # the last save may have failed: the record kept must be whole
            if self.save_error:
                raise ValueError(self.save_error)
            try:
                kept = _keep_aside(self.save_path)
            except OSError as e:
                raise ValueError(f"could not keep the finished match aside: {e.strerror or e}") from None
        new.save()
        return new, kept

    def save(self) -> None:
        """Write the record so far and the seed (if saving); a failure is kept in ``save_error``, not raised.

        The seed goes in as a top-level key that record readers ignore; without it, a match taken up
        would be dealt its next deals from a new seed, and quitting would redraw a hand already seen.
        """
        if self.save_path is None:
            return
        doc = Record.from_match(self.match, self.players).to_json()
        deals = doc.pop("deals")
        doc[SEED_KEY] = self.seed
        answers = answers_so_far(self.match)
        if answers is not None:
            doc[ANSWERS_KEY] = [A.to_str(a) for a in answers]
        doc["deals"] = deals
        try:
            write_atomically(self.save_path, json.dumps(doc, ensure_ascii=False, indent=1) + "\n")
            self.save_error = None
        except OSError as e:
            self.save_error = f"could not save to {self.save_path}: {e.strerror or e}"


def _keep_aside(path: Path) -> Path:
    """Move ``path`` to the first free numbered name next to it (trix.json to trix-1.json, trix-2.json);
    never over a file, not even one made meanwhile (a hard link is refused where a file exists)."""
    n = 1
    while True:
        kept = path.with_name(f"{path.stem}-{n}{path.suffix}")
        try:
            os.link(path, kept)
        except FileExistsError:
            n += 1
            continue
        path.unlink()
        return kept


def in_your_words(message: str, me: int = HUMAN, names: Sequence[str] = SEAT_NAMES) -> str:
    """An engine message said to you at seat ``me`` (``seat 0 does not hold K♦`` to ``You do not hold
    K♦``), the other seats by ``names`` (``it is Right's turn``), and contracts by name, not by their
    record ids (``King of Hearts has already been played``); the contracts left are on screen already."""
    out = re.sub(r" \(contracts: [^)]*\)", "", message)
    out = out.replace("is not a contract in these rules", "is not played at this table")
    out = re.sub(r"\b(" + "|".join(c.id for c in Contract) + r")\b", lambda m: Contract.parse(m[0]).title, out)
    you = f"seat {me}"
    out = out.replace(f"not {you}'s", "not yours").replace(f"{you}'s", "your")
    for said, meant in ((f"{you} has", "you have"), (f"{you} does", "you do"), (f"{you} must", "you must")):
        out = out.replace(said, meant)
    out = re.sub(rf"\b{you}\b", "you", out).replace("not in that hand", "not in your hand")
    if out.startswith("you "):
        out = out.replace(" (holds ", " (you hold ")
    for seat in range(4):
        if seat != me:
            out = re.sub(rf"\bseat {seat}\b", names[seat], out)
    return out[:1].upper() + out[1:]


_PHRASES = {
    A.PASS: ("pass", "passes"),
    A.NO_DOUBLE: ("do not double", "does not double"),
    A.CLAIM: ("claim a redeal", "claims a redeal"),
    A.NO_CLAIM: ("do not claim a redeal", "does not claim a redeal"),
}


def phrase(action: int, g: Glyphs, third_person: bool = False) -> str:
    """``play Q♠`` (or ``plays Q♠``): an action in words, for hints, the status line and replays."""
    verb = 1 if third_person else 0
    if A.is_card(action):
        return ("play ", "plays ")[verb] + g.card(action)
    if A.is_contract(action):
        return ("name ", "names ")[verb] + A.contract_of(action).title
    if A.is_double(action):
        return ("double ", "doubles ")[verb] + " and ".join(g.card(c) for c in hand_order(A.doubled_cards(action)))
    return _PHRASES[action][verb]


def spoken_to(seat: int, names: Sequence[str] = SEAT_NAMES) -> bool:
    """Whether the seat is you, named "You" (so "You play", not "You plays")."""
    return names[seat] == SEAT_NAMES[HUMAN]


def describe_action(seat: int, action: int, g: Glyphs, names: Sequence[str] = SEAT_NAMES) -> str:
    """``Right plays Q♠``, ``You play Q♠``: one line for the status bar and the replay."""
    return f"{names[seat]} {phrase(action, g, third_person=not spoken_to(seat, names))}"
