"""``opentrix arena``: duplicate matches between a candidate bot and a baseline."""

from __future__ import annotations

import importlib.util
import json
import math
import os
import signal
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Annotated, Any

import typer

from ..contracts import Contract
from ..rules import PRESETS, Rules, RulesError

MAX_UNITS = 10_000_000  # a thousand deals of `strong` take the better part of an hour: more is a slip
MAX_JOBS = 256

BOTS_HELP = (
    "candidate,baseline, e.g. strong,basic; options after colons, e.g. strong:samples=40 "
    "(random, basic, novice, strong, strong-uniform, easy, medium, hard, openspiel-ismcts; "
    "for the arena only: cheat, cheat-from)"
)


def _is_stdout(path: Path | None) -> bool:
    """``-``, or a name for this process's own standard output (``/dev/stdout``, ``/proc/self/fd/1``):
    the JSON then goes there alone, and the table to stderr, so that what reads it gets JSON only."""
    if path is None:
        return False
    if str(path) == "-":
        return True
    try:
        here, there = os.fstat(sys.stdout.fileno()), os.stat(path)
    except (OSError, ValueError, AttributeError):  # no such file, or a stdout without a descriptor (a test's)
        return False
    return (here.st_dev, here.st_ino) == (there.st_dev, there.st_ino)


def _same_file(a: Path, b: Path) -> bool:
    """Whether two names reach one file (it may not exist yet): the JSON and the chart would overwrite
    each other."""
    try:
        return os.path.samefile(a, b)
    except OSError:
        return a.resolve() == b.resolve()


def _check_writable(path: Path | None, option: str) -> None:
    """Fail before a long run, not after it: the file must be one this process can open for writing."""
    if path is None or str(path) == "-":
        return
    if not str(path).strip() or str(path) == ".":
        raise typer.BadParameter("give a file name", param_hint=option)
    parent = path.parent if str(path.parent) else Path(".")
    if path.is_dir():
        raise typer.BadParameter(f"{path} is a folder; give a file name", param_hint=option)
    if not parent.is_dir():
        blocker = next((a for a in (parent, *parent.parents) if os.path.lexists(a)), None)
        if blocker is not None and not blocker.is_dir():  # a/x.json where a is a file
            raise typer.BadParameter(f"cannot write {path}: {blocker} is a file, not a folder", param_hint=option)
        raise typer.BadParameter(f"cannot write {path}: folder {parent} does not exist", param_hint=option)
    if path.is_fifo() or path.is_char_device():  # /dev/stdout, >(jq .): opening a pipe to test it would wait
        return  # for its reader, and there is no file to leave behind
    if path.exists() and not path.is_file():
        raise typer.BadParameter(f"{path} is not a regular file; give a file name", param_hint=option)
    existed = os.path.lexists(path)  # a dangling link exists too: it must not be removed below
    try:
        with path.open("a"):
            pass
    except OSError as e:
        raise typer.BadParameter(f"cannot write {path}: {e.strerror or e}", param_hint=option) from None
    if not existed:
        path.unlink(missing_ok=True)


def _check_plot(path: Path | None) -> None:
    """A chart needs matplotlib and a file name whose ending names a format it draws (checked before the run)."""
    if path is None:
        return
    if str(path) == "-":
        raise typer.BadParameter("a chart cannot go to stdout: give a file name, e.g. arena.png", param_hint="--plot")
    _check_writable(path, "--plot")
    if importlib.util.find_spec("matplotlib") is None:
        raise typer.BadParameter("drawing needs matplotlib: pip install 'opentrix[arena]'", param_hint="--plot")
    from matplotlib.backend_bases import FigureCanvasBase

    formats = sorted(FigureCanvasBase.get_supported_filetypes())
    ending = path.suffix[1:].lower()
    if ending not in formats:
        said = f"ends in .{ending}" if ending else "has no ending"
        raise typer.BadParameter(
            f"{path} {said}: give a file name ending in .png or another format matplotlib draws ({', '.join(formats)})",
            param_hint="--plot",
        )
    import io

    import matplotlib

    matplotlib.use("Agg")
    from matplotlib.figure import Figure

    try:  # a format whose tools are missing (pgf without LaTeX) fails here, not after the run
        probe = Figure(figsize=(1, 1))
        probe.text(0.5, 0.5, "±")  # text too: some formats need outside tools only for it
        probe.savefig(io.BytesIO(), format=ending)
    except Exception as e:
        raise typer.BadParameter(f"cannot draw .{ending} here: {e}", param_hint="--plot") from None


def _write(path: Path, write: Callable[[Path], object]) -> None:
    try:
        write(path)
    except OSError as e:
        typer.echo(f"opentrix: cannot write {path}: {e.strerror or e}", err=True)
        raise typer.Exit(1) from None
    except (RuntimeError, ValueError) as e:  # matplotlib: a format whose tools are missing (pgf without LaTeX)
        typer.echo(f"opentrix: cannot draw {path}: {e}", err=True)
        raise typer.Exit(1) from None


def arena(
    bots: Annotated[str, typer.Option(help=BOTS_HELP)] = "strong,basic",
    deals: Annotated[
        int,
        typer.Option(
            min=1, max=MAX_UNITS, help="duplicate deals to play (kingdoms with --kingdom), each replayed 4 times"
        ),
    ] = 100,
    seed: Annotated[int, typer.Option(help="seed of the deals and of the bots")] = 1,
    jobs: Annotated[int, typer.Option(min=1, max=MAX_JOBS, help="worker processes (at most one per deal is used)")] = 1,
    rules: Annotated[str, typer.Option(help="rules preset: " + ", ".join(PRESETS))] = "classic",
    rule: Annotated[
        list[str] | None,
        typer.Option(
            "--rule",
            metavar="OPTION=VALUE",
            help="change one option of the preset, as a record's rules would (repeatable), e.g. partnership=true",
        ),
    ] = None,
    contracts: Annotated[
        list[str] | None,
        typer.Option(help="only these contracts, comma separated, e.g. ltoosh,queens (deal mode; may be repeated)"),
    ] = None,
    kingdom: Annotated[
        bool, typer.Option("--kingdom", help="whole kingdoms: the king chooses every contract (measures the choice)")
    ] = False,
    json_out: Annotated[
        Path | None,
        typer.Option(
            "--json", help="write the results as JSON to FILE (- or /dev/stdout: stdout, the table to stderr)"
        ),
    ] = None,
    plot: Annotated[
        Path | None, typer.Option(help="draw the per-contract differences as a chart: FILE.png, .svg, .pdf")
    ] = None,
    quiet: Annotated[bool, typer.Option("--quiet", help="no progress bar")] = False,
) -> None:
    """Duplicate deals: every deal is replayed with the candidate in each seat against the baseline.

    Prints candidate minus baseline, points per deal, per contract and overall, with 95% intervals.

    Also the time per move. Ctrl-C stops the run and reports what was measured.
    """
    from .duplicate import kingdom_rules
    from .report import order_line, rows, rules_label, summary, timing_line
    from .report import plot as draw
    from .runner import ArenaConfig, run
    from .spec import SpecError, parse_spec

    names = [b.strip() for b in bots.split(",") if b.strip()]
    if len(names) != 2:
        raise typer.BadParameter("give two bots, candidate then baseline, e.g. strong,basic", param_hint="--bots")
    try:
        candidate, baseline = parse_spec(names[0]), parse_spec(names[1])
    except SpecError as e:
        raise typer.BadParameter(str(e), param_hint="--bots") from None
    if rules not in PRESETS:
        raise typer.BadParameter(f"unknown preset {rules!r} (known: {', '.join(PRESETS)})", param_hint="--rules")
    the_rules = _rules(rules, rule or [])
    chosen: list[Contract] | None = None
    if contracts is not None:
        allowed = [c.id for c in the_rules.contracts]
        joined = ",".join(contracts)  # --contracts a --contracts b is a,b: none is dropped
        if not joined.strip(" ,"):  # an empty list is a slip, not "all of them"
            raise typer.BadParameter(
                f"name at least one contract (known: {', '.join(allowed)})", param_hint="--contracts"
            )
        chosen = []
        for name in joined.split(","):
            name = name.strip()
            if not name:
                continue
            try:  # any spelling the records take: Ltoosh, king-of-hearts
                contract = Contract.parse(name)
            except ValueError:
                contract = None
            if contract is None or contract.id not in allowed:
                raise typer.BadParameter(
                    f"unknown contract {name!r} for these rules (known: {', '.join(allowed)})",
                    param_hint="--contracts",
                )
            if contract in chosen:  # it would be played twice as often as the others
                raise typer.BadParameter(f"{name} is named twice", param_hint="--contracts")
            chosen.append(contract)
        if kingdom:
            raise typer.BadParameter(
                "--contracts restricts deal mode; a kingdom plays them all", param_hint="--contracts"
            )
    if kingdom:
        as_played = kingdom_rules(the_rules)  # one kingdom a unit, no tiebreak: an option set to that is no change
        fixed = sorted(
            key
            for key in {c.partition("=")[0].strip() for c in rule or []} & {"kingdoms", "tiebreak"}
            if getattr(the_rules, key) != getattr(as_played, key)
        )
        if fixed:
            raise typer.BadParameter(
                f"--kingdom plays one kingdom a unit with no tiebreak, so {' and '.join(fixed)} cannot be changed",
                param_hint="--rule",
            )
        the_rules = kingdom_rules(the_rules)  # so that the JSON's rules say what was played
    to_stdout = _is_stdout(json_out)
    if not to_stdout:
        _check_writable(json_out, "--json")
    _check_plot(plot)
    if json_out is not None and plot is not None and not to_stdout and _same_file(json_out, plot):
        raise typer.BadParameter(
            f"--json and --plot both name {plot}: the chart would overwrite the JSON; give each its own file",
            param_hint="--plot",
        )
    config = ArenaConfig(candidate, baseline, the_rules, deals, seed, jobs, chosen, kingdom)

    from rich.console import Console
    from rich.progress import BarColumn, Progress
    from rich.table import Table

    err = Console(stderr=True)
    unit = "kingdoms" if kingdom else "deals"
    if quiet:
        result = _run_stoppable(run, config, None)
    elif not err.is_terminal:  # a log file: a line every so often, which a bar redrawn in place cannot give
        result = _run_stoppable(run, config, _LogProgress(f"{candidate.label} vs {baseline.label}", unit))
    else:
        err.print(f"[bold]{candidate.label} vs {baseline.label}")  # its own line: the bar's stays whole at 80 columns
        with Progress(
            BarColumn(bar_width=24),
            _status_column(unit),
            console=err,
            transient=False,
        ) as bar:
            task = bar.add_task("arena", total=deals)
            result = _run_stoppable(run, config, lambda done, total: bar.update(task, completed=done))
    doc = summary(result, jobs=min(jobs, deals), contracts=chosen, units=json_out is not None)
    if json_out is not None:
        text = json.dumps(doc, indent=2)
        if to_stdout:
            sys.stdout.write(text + "\n")
            sys.stdout.flush()
        else:
            _write(json_out, lambda p: p.write_text(text + "\n"))
    undrawn = False
    if plot is not None:
        if doc["overall"]["n"]:
            try:
                _write(plot, lambda p: draw(doc, p))
            except KeyboardInterrupt:  # drawing takes a second or two: the table below must still come
                typer.echo(f"opentrix: interrupted while drawing, so no chart written to {plot}", err=True)
                undrawn = True
        else:
            typer.echo(f"opentrix: nothing measured, so no chart drawn to {plot}", err=True)
    out = Console(file=sys.stderr) if to_stdout else Console()
    pm = "±" if _can_encode(out, "±—") else "+/-"
    if result.interrupted:
        how = "stopped (SIGTERM)" if result.terminated else "interrupted"
        out.print(f"[yellow]{how}: {len(result.results)} of {deals} {unit} measured[/]")
    where = f"{rules_label(doc['rules'])}, seed {seed}"
    table = Table(title=f"{candidate.label} minus {baseline.label}, points per {unit[:-1]}\n({where})")
    table.add_column("kingdom" if kingdom else "contract")
    table.add_column(unit, justify="right")
    table.add_column(f"difference {pm} 95% CI", justify="right")
    for what, n, diff in rows(doc):
        table.add_row(what, n, diff if pm == "±" else diff.replace("±", pm).replace("—", "-"))
    out.print(table)
    for who in ("candidate", "baseline"):
        line = order_line(doc, who)
        if line is not None:
            out.print(line)
    out.print(timing_line(doc, "candidate"))
    out.print(timing_line(doc, "baseline"))
    out.print(f"elapsed {doc['elapsed_s']:.1f} s")
    if result.interrupted:
        raise typer.Exit(143 if result.terminated else 130)
    if undrawn:
        raise typer.Exit(130)


def _rules(preset: str, changes: list[str]) -> Rules:
    """The preset with each ``OPTION=VALUE`` applied, read as a record's rules object (the value as JSON,
    else as text), so the errors are the record's: an unknown option, a value of the wrong kind."""
    options: dict[str, Any] = {"preset": preset}
    for change in changes:
        key, eq, text = change.partition("=")
        key = key.strip()
        if not eq or not key:
            raise typer.BadParameter(f"write OPTION=VALUE, e.g. partnership=true, not {change!r}", param_hint="--rule")
        if key == "preset":
            raise typer.BadParameter("the preset is chosen with --rules, e.g. --rules online", param_hint="--rule")
        if key in options:
            raise typer.BadParameter(f"{key} is given twice", param_hint="--rule")
        try:
            options[key] = json.loads(text)
        except ValueError:
            options[key] = text.strip()
    try:
        return Rules.from_json(options)
    except RulesError as e:
        raise typer.BadParameter(str(e), param_hint="--rule") from None


def _can_encode(console: Any, text: str) -> bool:
    try:
        text.encode(console.encoding or "utf-8")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def _time_left(spent: float, done: int, total: int) -> str:
    """The time left at the run's average pace so far: deals of one run take alike long, and a
    kingdom of `strong` can take longer than a recent-speed window (rich's default) to finish."""
    return _duration(spent / done * (total - done))


def _status_column(unit: str) -> Any:
    """The bar's own words, never wrapped: "26/40 deals, 0m12s elapsed, about 0m06s left"
    (rich is imported here, when a bar is drawn)."""
    from rich.progress import ProgressColumn, Task
    from rich.table import Column
    from rich.text import Text

    class Status(ProgressColumn):
        def render(self, task: Task) -> Text:
            total = int(task.total or 0)
            done = int(task.completed)
            spent = task.finished_time if task.finished else task.elapsed
            text = Text(f"{done}/{total} {unit}, {_duration(spent or 0.0)} elapsed", style="progress.elapsed")
            if task.finished:
                return text
            if done and spent:
                text.append(f", about {_time_left(spent, done, total)} left", style="progress.remaining")
            else:
                text.append(", estimating the time left", style="progress.remaining")
            return text

    return Status(table_column=Column(no_wrap=True))


class _LogProgress:
    """Progress for a log file: a line at the first deal, then every ``every`` seconds, and at the end."""

    def __init__(self, label: str, unit: str, every: float = 30.0) -> None:
        self.label, self.unit, self.every = label, unit, every
        self.t0 = time.monotonic()
        self.last = -math.inf

    def __call__(self, done: int, total: int) -> None:
        now = time.monotonic()
        if now - self.last < self.every and done not in (1, total):
            return
        self.last = now
        spent = now - self.t0
        left = f", about {_time_left(spent, done, total)} left" if done < total else ""
        typer.echo(f"arena: {self.label}: {done} of {total} {self.unit}, {_duration(spent)} elapsed{left}", err=True)


def _duration(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}h{s // 60 % 60:02d}m" if s >= 3600 else f"{s // 60}m{s % 60:02d}s"


def _run_stoppable(run: Callable[..., Any], config: Any, progress: Callable[[int, int], None] | None) -> Any:
    """``run``, with SIGTERM (what ``timeout`` and batch schedulers send) stopping it as Ctrl-C does:
    the deals measured so far are reported and written, not lost."""
    from .runner import Terminated

    def terminated(signum: int, frame: object) -> None:
        raise Terminated

    try:
        previous = signal.signal(signal.SIGTERM, terminated)
    except ValueError:  # not the main thread (a test's or an embedding program's): leave SIGTERM alone
        return run(config, progress)
    try:
        return run(config, progress)
    finally:
        signal.signal(signal.SIGTERM, previous)


def register(app: typer.Typer) -> None:
    app.command("arena")(arena)
