"""Arena: duplicate seating, reproducibility, interruption, the command's errors and outputs."""

from __future__ import annotations

import json
import os
import random
import shutil
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import ClassVar

import pytest
import typer
from typer.testing import CliRunner

from opentrix.actions import Action
from opentrix.arena import ArenaConfig, BotSpec, SpecError, parse_spec, play_unit, run, summary
from opentrix.arena.commands import register
from opentrix.arena.duplicate import Unit
from opentrix.arena.spec import arena_bot_names
from opentrix.arena.stats import MoveTimes, timing
from opentrix.bots import BOTS, Bot
from opentrix.contracts import Contract
from opentrix.match import Match
from opentrix.rules import Rules
from opentrix.view import View

CLASSIC = Rules.preset("classic")


class SpyBot(Bot):
    """Plays the first legal action and writes down what it was given."""

    name = "spy"
    calls: ClassVar[list[tuple[str, int | None]]] = []
    prepared: ClassVar[list[Rules]] = []

    def prepare(self, rules: Rules) -> None:
        SpyBot.prepared.append(rules)

    def act(self, view: View, legal: Sequence[Action]) -> Action:
        assert type(view) is View  # a view, never the match
        SpyBot.calls.append((self.rng.random().hex(), view.seat))
        return legal[0]


@pytest.fixture
def spy() -> object:
    BOTS["spy"] = SpyBot
    SpyBot.calls = []
    SpyBot.prepared = []
    yield SpyBot
    del BOTS["spy"]


def test_candidate_sits_in_each_seat_once(spy: object) -> None:
    unit = Unit(0, 7, CLASSIC, BotSpec("spy"), BotSpec("random"), int(Contract.LTOOSH))
    res = play_unit(unit)
    assert len(res.scores) == 4
    seats = [seat for _, seat in SpyBot.calls]
    # Replay r has the spy in seat r only: 13 tricks, so 13 cards per replay.
    assert seats == [0] * 13 + [1] * 13 + [2] * 13 + [3] * 13
    for r in range(4):
        assert sum(res.scores[r]) == -195
    assert SpyBot.prepared == [CLASSIC] * 4  # set up before its first move in each replay, off the clock


def test_a_strong_bot_prepares_its_contract_values_ahead() -> None:
    from opentrix.bots import make_bot, strong

    rules = Rules.preset("classic", partnership=True)
    strong._BASELINES.pop(rules, None)
    make_bot("strong", seed=1).prepare(rules)
    assert set(strong._BASELINES[rules]) == {int(c) for c in rules.contracts}


def test_same_bot_on_both_sides_is_a_draw() -> None:
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("basic"), CLASSIC, units=5, seed=3)
    out = run(cfg)
    assert [r.diff for r in out.results] == [0.0] * 5


def test_runs_are_reproducible_and_jobs_do_not_matter() -> None:
    cfg = ArenaConfig(parse_spec("strong:samples=2"), parse_spec("novice"), CLASSIC, units=5, seed=11)
    a = run(cfg)
    b = run(cfg)
    cfg.jobs = 2
    c = run(cfg)
    assert [r.scores for r in a.results] == [r.scores for r in b.results] == [r.scores for r in c.results]
    doc = summary(a)
    assert set(doc["contracts"]) == {c.id for c in CLASSIC.contracts}


def test_a_run_counts_its_move_times_and_lets_them_go() -> None:
    """A result keeps its scores but not its move times (a run of millions of deals would hold them
    all), and the run's median and p95 are those of every move, as a run that kept them computes."""
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=6, seed=5)
    kept = run(cfg, keep_times=True)
    light = run(cfg)
    assert all(r.candidate_ms and r.baseline_ms for r in kept.results)
    assert not any(r.candidate_ms or r.baseline_ms for r in light.results)
    assert [r.scores for r in light.results] == [r.scores for r in kept.results]
    every = [t for r in kept.results for t in r.candidate_ms]
    assert summary(kept)["time_per_move"]["candidate"] == timing(every)
    assert summary(light)["time_per_move"]["candidate"]["moves"] == len(every)
    assert "units" not in summary(light, units=False) and len(summary(light)["units"]) == 6


def test_move_times_past_the_exact_count_are_read_from_buckets_a_thousandth_wide() -> None:
    rng = random.Random(4)
    times = [rng.lognormvariate(3, 1.2) for _ in range(5000)] + [0.0] * 40
    bounded = MoveTimes(exact=1000)
    for i in range(0, len(times), 7):
        bounded.add(times[i : i + 7])
    assert bounded.values is None and bounded.moves == len(times)
    exact = timing(times)
    got = bounded.summary()
    assert got["moves"] == exact["moves"]
    for key in ("median_ms", "p95_ms"):
        assert got[key] == pytest.approx(exact[key], rel=0.0006)
    assert MoveTimes(exact=1000).summary() == timing([]) == {"moves": 0, "median_ms": None, "p95_ms": None}
    assert MoveTimes(exact=2).summary() == timing([])
    few = MoveTimes(exact=10)
    few.add([3.0, 1.0, 2.0])
    assert few.summary() == timing([1.0, 2.0, 3.0])  # under the count, exact
    zeros = MoveTimes(exact=1)
    zeros.add([0.0, 0.0, 0.0, 5.0])
    assert zeros.percentile(50) == 0.0 and zeros.percentile(100) == pytest.approx(5.0, rel=0.0006)


def test_kingdom_mode_plays_five_contracts() -> None:
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=1, seed=2, kingdom=True)
    out = run(cfg)
    (res,) = out.results
    assert all(sum(s) == 0 for s in res.scores)  # a kingdom of individual play sums to zero
    doc = summary(out)
    assert doc["mode"] == "kingdom" and doc["overall"]["n"] == 1 and "as_king" in doc


def test_kingdom_mode_records_the_order_each_king_chose() -> None:
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=3, seed=2, kingdom=True)
    doc = summary(run(cfg))
    every = sorted(c.id for c in CLASSIC.contracts)
    for u in doc["units"]:
        assert len(u["orders"]) == 4 and all(sorted(o) == every for o in u["orders"])
        assert u["king"] in range(4)
    order = doc["contract_order"]
    for who, replays in (
        ("candidate", [u["orders"][u["king"]] for u in doc["units"]]),
        ("baseline", [o for u in doc["units"] for r, o in enumerate(u["orders"]) if r != u["king"]]),
    ):
        assert sorted(order[who]) == every
        for c in every:  # the mean turn, 1 = first, from the orders themselves
            assert order[who][c] == pytest.approx(sum(o.index(c) + 1 for o in replays) / len(replays), abs=0.005)
        assert list(order[who].values()) == sorted(order[who].values())  # earliest first


def test_kingdom_replays_deal_each_contract_the_same_hands_after_a_throw_in(monkeypatch: pytest.MonkeyPatch) -> None:
    """A thrown-in hand is dealt again from a stream of its own: the contracts after it are played on
    the same hands in every replay, as if nothing had been thrown in (wikipedia rules allow redeals)."""
    matches: list[Match] = []
    start = Match.start_deal

    def spy(self: Match, hands: Sequence[int] | None = None) -> None:
        matches.append(self)
        start(self, hands)

    monkeypatch.setattr(Match, "start_deal", spy)
    # unit 15 of seed 5: the random king's second replay throws its third deal in
    play_unit(Unit(15, 5, Rules.preset("wikipedia"), parse_spec("basic"), parse_spec("random"), None))
    replays = list(dict.fromkeys(matches))
    assert len(replays) == 4 and any(d.thrown_in is not None for m in replays for d in m.deals)
    firsts = []  # the first hands each contract was dealt
    for m in replays:
        firsts.append([d.dealt for i, d in enumerate(m.deals) if i == 0 or m.deals[i - 1].thrown_in is None])
        assert sum(d.thrown_in is None for d in m.deals) == 5
    assert all(f == firsts[0] for f in firsts) and len(firsts[0]) == 5


def test_partnership_differences_are_team_margins() -> None:
    """In partnership play the game is won on team totals: a unit's difference is the candidate's team
    margin over its four seats (its partner a baseline bot), recomputable from the JSON's scores."""
    partners = Rules.preset("classic", partnership=True)
    same = run(ArenaConfig(parse_spec("basic"), parse_spec("basic"), partners, units=4, seed=3))
    assert [r.diff for r in same.results] == [0.0] * 4
    doc = summary(run(ArenaConfig(parse_spec("basic"), parse_spec("random"), partners, units=10, seed=3)))
    assert "team" in doc["metric"]
    for u in doc["units"]:
        sc = u["scores"]
        margins = [sc[r][r] + sc[r][(r + 2) % 4] - sc[r][(r + 1) % 4] - sc[r][(r + 3) % 4] for r in range(4)]
        assert u["diff"] == pytest.approx(sum(margins) / 4)
    assert doc["overall"]["mean"] > 0  # the rules of thumb beat random play as a team too


def test_interrupt_keeps_what_was_measured() -> None:
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=10, seed=1)

    def stop_after_three(done: int, total: int) -> None:
        if done == 3:
            raise KeyboardInterrupt

    out = run(cfg, stop_after_three)
    assert out.interrupted and len(out.results) == 3
    assert summary(out)["units_played"] == 3


def test_a_run_of_millions_of_deals_starts_and_stops_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The plan is made as it is played (it was a list of every deal, built before Ctrl-C could stop
    it), and no more workers are forked than there are deals."""
    cfg = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=10_000_000, seed=1)
    first = next(iter(cfg.plan()))
    assert first.index == 0

    def stop_at_once(done: int, total: int) -> None:
        assert total == 10_000_000
        raise KeyboardInterrupt

    assert len(run(cfg, stop_at_once).results) == 1
    import opentrix.arena.runner as runner

    monkeypatch.setattr(runner.multiprocessing, "get_context", lambda *a: pytest.fail("forked for one deal"))
    one = ArenaConfig(parse_spec("basic"), parse_spec("random"), CLASSIC, units=1, seed=1, jobs=30)
    assert len(run(one).results) == 1


@pytest.mark.parametrize(("option", "value"), [("--deals", "100000000"), ("--jobs", "100000")])
def test_cli_rejects_runs_out_of_all_proportion(option: str, value: str) -> None:
    code, out = invoke("--bots", "basic,random", "--deals", "1", option, value)
    assert code == 2 and option in out and ("10000000" if option == "--deals" else "256") in out


def test_spec_parsing() -> None:
    assert parse_spec("strong:samples=40:inference=false").options == {"samples": 40, "inference": False}
    assert parse_spec("strong:inference=False:samples=none:budget_ms=50").label == (
        "strong:inference=false:samples=none:budget_ms=50"  # as the command line spells it
    )
    with pytest.raises(SpecError, match=r"option samples of strong is given twice \(4 and 8\)"):
        parse_spec("strong:samples=4:samples=8")
    with pytest.raises(SpecError, match=r"takes a whole number, not 1e9$"):
        parse_spec("strong:samples=1e9")
    with pytest.raises(SpecError, match=r"takes a whole number, not nothing$"):
        parse_spec("strong:samples=")
    with pytest.raises(SpecError, match=r"known: .*basic"):
        parse_spec("grandmaster")
    with pytest.raises(
        SpecError, match=r"bad option 'samples' for strong: write option=value, e\.g\. strong:samples=128$"
    ):
        parse_spec("strong:samples")
    with pytest.raises(SpecError, match=r"bad option '' for basic: write option=value, e\.g\. basic:mistakes=0\.0$"):
        parse_spec("basic:")  # an option basic takes, not strong's samples
    with pytest.raises(SpecError, match=r"\(random takes no options\)$"):
        parse_spec("random:")
    assert parse_spec(" strong :samples=4 ").options == {"samples": 4}  # spaces as around the options
    with pytest.raises(SpecError, match=r"unknown option 'depth' for basic \(its options: mistakes\)"):
        parse_spec("basic:depth=3")
    with pytest.raises(SpecError, match="bad option for strong: samples must be at least 1"):
        parse_spec("strong:samples=0")


# -- the command ------------------------------------------------------------------------------------


def _app() -> typer.Typer:
    app = typer.Typer()

    @app.callback()
    def main() -> None:
        """opentrix (test harness)."""

    register(app)
    return app


def invoke(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(_app(), ["arena", "--quiet", *args], env={"COLUMNS": "400"})
    flat = " ".join(result.output.replace("│", " ").split())  # the error box may wrap long paths
    return result.exit_code, flat


def test_cli_rejects_unknown_bot() -> None:
    code, out = invoke("--bots", "strong,wizard", "--deals", "1")
    assert code == 2 and "wizard" in out and "basic" in out


@pytest.mark.parametrize("deals", ["0", "-3", "many"])
def test_cli_rejects_bad_deals(deals: str) -> None:
    code, out = invoke("--bots", "basic,random", "--deals", deals)
    assert code == 2 and "--deals" in out


def test_cli_rejects_unwritable_output(tmp_path: Path) -> None:
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(tmp_path / "missing" / "x.json"))
    assert code == 2 and "does not exist" in out
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--plot", str(tmp_path))
    assert code == 2 and "folder" in out
    (tmp_path / "a.json").write_text("{}")  # a file where a folder should be
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(tmp_path / "a.json" / "x.json"))
    assert code == 2 and "a.json is a file, not a folder" in " ".join(out.split()), out


def test_cli_rejects_a_file_it_cannot_open_before_the_run(tmp_path: Path) -> None:
    """The folder exists but the file cannot be written: found out before the deals are played."""
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", "/proc/version")
    assert code == 2 and "cannot write /proc/version" in out
    locked = tmp_path / "locked.json"
    locked.write_text("{}")
    locked.chmod(0o444)
    if os.access(locked, os.W_OK):  # root writes anyway: use a path no one can write
        locked = Path("/proc/self/status")
    fresh = tmp_path / "r.json"
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(fresh), "--plot", str(locked))
    assert code == 2 and "cannot write" in out and "--plot" in out
    assert not fresh.exists()  # trying --json left no empty file behind
    link = tmp_path / "link.json"  # a link to a file not written yet stays a link
    link.symlink_to(tmp_path / "target.json")
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(link), "--plot", str(locked))
    assert code == 2 and link.is_symlink()


@pytest.mark.parametrize(
    ("spec", "says"),
    [
        ("strong:samples=abc", "option samples of strong takes a whole number, not abc"),
        ("strong:inference=maybe", "option inference of strong takes yes or no"),
        ("strong:foo=1", "unknown option 'foo' for strong (its options: samples, budget_ms,"),
        ("basic:samples=4", "unknown option 'samples' for basic (its options: mistakes)"),
        ("cheat-from:foo=1", "unknown option 'foo' for cheat-from (its options: trick, budget_ms, burn,"),
        ("strong:budget_ms=nan", "budget_ms must be a positive number of milliseconds, not nan"),
    ],
)
def test_cli_names_the_bad_bot_option(spec: str, says: str) -> None:
    code, out = invoke("--bots", f"{spec},random", "--deals", "1")
    assert code == 2 and says in " ".join(out.split()).replace("│", "").replace("  ", " "), out


def test_make_bot_names_an_unknown_option() -> None:
    from opentrix.bots import make_bot

    with pytest.raises(ValueError, match=r"unknown option 'foo' for hard \(its options: budget_ms, burn,"):
        make_bot("hard", foo=1)


def test_cli_lists_every_bot_in_its_help() -> None:
    code, out = invoke("--help")
    assert code == 0
    for name in arena_bot_names():
        assert name in out, name


def test_cli_rejects_unknown_contract() -> None:
    code, out = invoke("--bots", "basic,random", "--contracts", "hearts")
    assert code == 2 and "ltoosh" in out
    for empty in ("", " , "):  # a slip, not "every contract"
        code, out = invoke("--bots", "basic,random", "--contracts", empty)
        assert code == 2 and "name at least one contract" in " ".join(out.split()), out


def test_cli_json_and_plot(tmp_path: Path) -> None:
    js, png = tmp_path / "r.json", tmp_path / "r.png"
    code, out = invoke("--bots", "basic,random", "--deals", "10", "--seed", "4", "--json", str(js), "--plot", str(png))
    assert code == 0, out
    assert "Ltoosh" in out and "median" in out
    doc = json.loads(js.read_text())
    assert doc["candidate"] == "basic" and doc["baseline"] == "random" and doc["units_played"] == 10
    assert set(doc["contracts"]) == {"king_of_hearts", "queens", "diamonds", "ltoosh", "trix"}
    for stat in [*doc["contracts"].values(), doc["negative"], doc["overall"]]:
        assert set(stat) == {"n", "mean", "ci95"}
    assert set(doc["time_per_move"]["candidate"]) == {"moves", "median_ms", "p95_ms"}
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_cli_json_to_stdout_is_clean() -> None:
    code, out = invoke("--bots", "basic,random", "--deals", "2", "--contracts", "ltoosh", "--json", "-")
    assert code == 0
    start = out.index("{")
    doc, _ = json.JSONDecoder().raw_decode(out[start:])  # the table follows on stderr, mixed in by the runner
    assert doc["contracts"].keys() == {"ltoosh"}


# -- statistics and outputs a researcher checks ------------------------------------------------------

T95 = {1: 12.7062047, 2: 4.3026527, 3: 3.1824463, 19: 2.0930241, 199: 1.9719565, 999: 1.9623415}


def test_interval_uses_students_t() -> None:
    """A 95% interval over n paired differences takes t with n - 1 degrees of freedom, not 1.96."""
    from opentrix.arena.stats import mean_ci, t95

    for df, t in T95.items():
        assert t95(df) == pytest.approx(t, abs=1e-6), df
    stat = mean_ci([0.0, 2.0])  # mean 1, standard error 1
    assert stat["mean"] == 1.0 and stat["ci95"] == pytest.approx(T95[1], abs=1e-6)
    stat = mean_ci([1.0, 2.0, 4.0, 9.0])
    se = (sum((v - 4.0) ** 2 for v in [1.0, 2.0, 4.0, 9.0]) / 3 / 4) ** 0.5
    assert stat["ci95"] == pytest.approx(T95[3] * se, rel=1e-6)


def _recompute(values: list[float]) -> tuple[float, float]:
    n = len(values)
    m = sum(values) / n
    sd = (sum((v - m) ** 2 for v in values) / (n - 1)) ** 0.5
    return m, T95[n - 1] * sd / n**0.5


def test_json_figures_follow_from_its_units(tmp_path: Path) -> None:
    """Every mean and interval in --json is recomputed from its per-unit paired differences."""
    js = tmp_path / "d.json"
    code, out = invoke("--bots", "basic,random", "--deals", "20", "--seed", "4", "--json", str(js))
    assert code == 0, out
    doc = json.loads(js.read_text())
    by: dict[str, list[float]] = {}
    for u in doc["units"]:
        by.setdefault(u["contract"], []).append(u["diff"])
    for name, stat in doc["contracts"].items():
        assert (stat["mean"], stat["ci95"]) == pytest.approx(_recompute(by[name]), rel=1e-6), name
    assert (doc["overall"]["mean"], doc["overall"]["ci95"]) == pytest.approx(
        _recompute([u["diff"] for u in doc["units"]]), rel=1e-6
    )
    js = tmp_path / "k.json"
    code, out = invoke("--bots", "basic,random", "--deals", "3", "--kingdom", "--json", str(js))
    assert code == 0, out
    doc = json.loads(js.read_text())
    kings = [u["king_diff"] for u in doc["units"]]
    assert (doc["as_king"]["mean"], doc["as_king"]["ci95"]) == pytest.approx(_recompute(kings), rel=1e-6)
    assert "candidate as king, mean turn chosen:" in out and "baseline as king" in out


def test_spec_rejects_a_search_that_never_stops() -> None:
    """The arena drops strong's time budget for reproducibility: samples=none would then never stop."""
    with pytest.raises(SpecError, match="budget_ms"):
        parse_spec("strong:samples=none")
    with pytest.raises(SpecError, match="budget_ms"):
        parse_spec("hard:samples=none")
    assert parse_spec("strong:samples=none:budget_ms=50").options == {"samples": None, "budget_ms": 50}


@pytest.mark.parametrize(("name", "says"), [("r.txt", "ends in .txt"), ("chart", "has no ending"), ("-", "stdout")])
def test_cli_rejects_a_chart_file_it_cannot_draw_before_the_run(tmp_path: Path, name: str, says: str) -> None:
    target = tmp_path / name if name != "-" else Path("-")
    js = tmp_path / "r.json"
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(js), "--plot", str(target))
    assert code == 2 and "--plot" in out and says in out, out
    if name != "-":
        assert "png" in out and "svg" in out  # what is allowed
    assert not js.exists() and list(tmp_path.iterdir()) == []  # nothing played, nothing written


def test_cli_reports_a_chart_matplotlib_fails_to_draw(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A format whose tools are missing (pgf without LaTeX) is a message and exit 1, not a traceback."""
    import opentrix.arena.report as report

    def fail(doc: object, path: Path) -> None:
        raise RuntimeError("'xelatex' not found")

    monkeypatch.setattr(report, "plot", fail)
    js, pgf = tmp_path / "r.json", tmp_path / "r.png"
    code, out = invoke("--bots", "basic,random", "--deals", "2", "--json", str(js), "--plot", str(pgf))
    assert code == 1 and "cannot draw" in out and "'xelatex' not found" in out, out
    assert json.loads(js.read_text())["units_played"] == 2  # the JSON was written all the same


def test_cli_ctrl_c_while_drawing_still_prints_the_table(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Drawing takes a second or two after a long run: Ctrl-C there leaves the JSON, the table and the
    chart an earlier run drew, and exits 130."""
    import opentrix.arena.report as report

    real = report.plot

    def interrupted(doc: dict[str, object], path: Path) -> None:
        def stop(*args: object, **kwargs: object) -> None:
            raise KeyboardInterrupt

        import matplotlib.figure

        monkeypatch.setattr(matplotlib.figure.Figure, "savefig", stop)
        real(doc, path)  # type: ignore[arg-type]

    js, png = tmp_path / "r.json", tmp_path / "r.png"
    png.write_bytes(b"an earlier chart")
    monkeypatch.setattr(report, "plot", interrupted)
    code, out = invoke("--bots", "basic,random", "--deals", "2", "--json", str(js), "--plot", str(png))
    assert code == 130 and "interrupted while drawing" in out and "overall" in out, out
    assert json.loads(js.read_text())["units_played"] == 2
    assert png.read_bytes() == b"an earlier chart" and sorted(p.name for p in tmp_path.iterdir()) == ["r.json", "r.png"]


def test_a_chart_drawn_through_a_link_lands_in_its_target(tmp_path: Path) -> None:
    target = tmp_path / "charts" / "real.png"
    target.parent.mkdir()
    link = tmp_path / "r.png"
    link.symlink_to(target)
    code, out = invoke("--bots", "basic,random", "--deals", "2", "--plot", str(link))
    assert code == 0, out
    assert link.is_symlink() and target.read_bytes().startswith(b"\x89PNG")
    assert sorted(p.name for p in target.parent.iterdir()) == ["real.png"]


@pytest.mark.skipif(shutil.which("xelatex") is not None, reason="LaTeX is installed: pgf can be drawn")
def test_cli_finds_out_a_chart_format_cannot_be_drawn_here_before_the_run(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(js), "--plot", str(tmp_path / "r.pgf"))
    assert code == 2 and "cannot draw .pgf here" in out and "xelatex" in out, out
    assert not js.exists()


def test_cli_rejects_an_empty_file_name(tmp_path: Path) -> None:
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", "")
    assert code == 2 and "give a file name" in out, out


# -- a researcher's long runs: logs, stops, records --------------------------------------------------


def test_cli_joins_repeated_contracts_and_refuses_one_named_twice(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    code, out = invoke(
        "--bots", "basic,random", "--deals", "4", "--contracts", "ltoosh", "--contracts", "trix", "--json", str(js)
    )
    assert code == 0, out
    doc = json.loads(js.read_text())
    assert set(doc["contracts"]) == {"ltoosh", "trix"} and doc["contracts_requested"] == ["ltoosh", "trix"]
    code, out = invoke("--bots", "basic,random", "--contracts", "ltoosh,queens", "--contracts", "ltoosh")
    assert code == 2 and "ltoosh is named twice" in out, out


def test_cli_takes_any_spelling_of_a_contract(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    code, out = invoke(
        "--bots", "basic,random", "--deals", "2", "--contracts", "Ltoosh,King-of-Hearts", "--json", str(js)
    )
    assert code == 0, out
    assert json.loads(js.read_text())["contracts_requested"] == ["ltoosh", "king_of_hearts"]
    code, out = invoke("--bots", "basic,random", "--contracts", "ltoosh,LTOOSH")
    assert code == 2 and "named twice" in out, out


def test_cli_kingdom_mode_says_its_rules_and_refuses_to_change_what_it_fixes(tmp_path: Path) -> None:
    js = tmp_path / "k.json"
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--kingdom", "--json", str(js))
    assert code == 0, out
    assert json.loads(js.read_text())["rules"] == {"preset": "classic", "kingdoms": 1, "tiebreak": "none"}
    code, out = invoke("--bots", "basic,random", "--kingdom", "--rule", "kingdoms=4")
    assert code == 2 and "kingdoms cannot be changed" in out, out


def test_cli_writes_json_into_a_pipe(tmp_path: Path) -> None:
    """``--json >(jq .)`` or a named pipe: the check does not open it (that would wait for its reader)."""
    import threading

    fifo = tmp_path / "pipe.json"
    os.mkfifo(fifo)
    got: list[str] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_text()))
    reader.start()
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--json", str(fifo))
    reader.join(30)
    assert code == 0, out
    assert json.loads(got[0])["units_played"] == 1


def test_the_json_counts_the_workers_that_ran(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    code, out = invoke("--bots", "basic,random", "--deals", "1", "--jobs", "2", "--json", str(js))
    assert code == 0, out
    assert json.loads(js.read_text())["jobs"] == 1  # one deal: one worker


def test_the_time_left_is_the_runs_average_pace() -> None:
    """Not rich's recent-speed window: a kingdom of `strong` can take longer than that window."""
    from opentrix.arena.commands import _time_left

    assert _time_left(600.0, 10, 100) == "1h30m"
    assert _time_left(30.0, 1, 3) == "1m00s"


def test_the_json_says_which_code_and_settings_produced_it(tmp_path: Path) -> None:
    from opentrix import __version__

    js = tmp_path / "r.json"
    code, out = invoke(
        "--bots", "strong:samples=2:chains=1,novice", "--deals", "1", "--contracts", "ltoosh", "--json", str(js)
    )
    assert code == 0, out
    doc = json.loads(js.read_text())
    assert doc["opentrix"] == __version__ and doc["jobs"] == 1
    strong = doc["bots"]["candidate"]
    assert strong["samples"] == 2 and strong["chains"] == 1 and strong["burn"] == 300  # a default, written out
    assert strong["budget_ms"] is None  # the arena's reproducible search, not the table's 250 ms
    assert doc["bots"]["baseline"] == {"mistakes": 0.25}


def _arena_process(*args: str, **env: str) -> subprocess.Popen[str]:
    return subprocess.Popen(
        [sys.executable, "-m", "opentrix", "arena", *args],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, **env},
    )


def test_sigterm_stops_a_run_as_ctrl_c_does_and_keeps_what_was_measured(tmp_path: Path) -> None:
    """``timeout`` and batch schedulers send SIGTERM: the deals measured so far are printed and written."""
    import signal
    import time

    js = tmp_path / "r.json"
    proc = _arena_process("--bots", "basic,random", "--deals", "1000000", "--json", str(js), "--jobs", "2")
    assert proc.stderr is not None
    assert proc.stderr.readline().startswith("arena: basic vs random: 1 of 1000000 deals")  # a log, not a bar
    time.sleep(0.5)
    proc.send_signal(signal.SIGTERM)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 143, err
    assert "stopped (SIGTERM)" in out and "of 1000000 deals measured" in out
    assert "Traceback" not in err, err  # the workers end quietly
    doc = json.loads(js.read_text())
    assert doc["interrupted"] and 0 < doc["units_played"] < 1_000_000


def test_a_run_with_workers_ends_quietly_and_its_stdout_is_the_json_alone() -> None:
    """The pool's workers are ended with SIGTERM even after a normal run: they must not inherit the
    command's SIGTERM handler and print tracebacks (seen in three runs of ten)."""
    for _ in range(4):
        proc = _arena_process("--bots", "basic,random", "--deals", "40", "--jobs", "2", "--json", "-", "--quiet")
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0 and "Traceback" not in err, err
        assert json.loads(out)["units_played"] == 40  # stdout holds the JSON and nothing else


def test_an_output_that_cannot_show_plus_minus_still_gets_its_json(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    proc = _arena_process("--bots", "basic,random", "--deals", "2", "--json", str(js), PYTHONIOENCODING="ascii")
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0, err
    assert "+/-" in out and "Traceback" not in err
    assert json.loads(js.read_text())["units_played"] == 2


def test_the_chart_colours_only_what_an_interval_decides() -> None:
    from opentrix.arena.report import verdict_color

    assert verdict_color({"n": 1, "mean": 25.0, "ci95": None}) == "tab:gray"  # one deal
    assert verdict_color({"n": 3, "mean": 33.3, "ci95": 0.0}) == "tab:gray"  # three deals alike
    assert verdict_color({"n": 9, "mean": 5.0, "ci95": 2.0}) == "tab:green"
    assert verdict_color({"n": 9, "mean": -5.0, "ci95": 2.0}) == "tab:red"
    assert verdict_color({"n": 9, "mean": 1.0, "ci95": 2.0}) == "tab:gray"


def test_cli_changes_options_of_the_preset_as_a_record_would(tmp_path: Path) -> None:
    js = tmp_path / "r.json"
    args = ("--bots", "basic,random", "--deals", "2", "--rules", "online", "--json", str(js))
    code, out = invoke(*args, "--rule", "partnership=true", "--rule", "kingdoms=1")
    assert code == 0, out
    assert "online with kingdoms=1, partnership=true" in out
    assert json.loads(js.read_text())["rules"] == {"preset": "online", "kingdoms": 1, "partnership": True}
    for bad, says in [
        ("partnership=maybe", "option 'partnership' must be true or false"),
        ("nonsense=1", "unknown option"),
        ("partnership", "write OPTION=VALUE"),
        ("preset=online", "the preset is chosen with --rules"),
    ]:
        code, out = invoke(*args, "--rule", bad)
        assert code == 2 and says in " ".join(out.replace("│", "").split()), out


def test_cheat_from_settings_include_its_readers() -> None:
    from opentrix.arena.spec import settings

    got = settings(parse_spec("cheat-from:trick=5:samples=30"))
    assert got["trick"] == 5 and got["samples"] == 30 and got["chains"] == 8 and got["budget_ms"] is None


def test_json_to_dev_stdout_is_json_alone_as_with_a_dash(tmp_path: Path) -> None:
    """``--json /dev/stdout`` names stdout too: the table goes to stderr, not over the JSON."""
    out_file = tmp_path / "out.txt"
    with out_file.open("w") as sink:  # stdout a file, as `> out.txt` makes it
        args = ["arena", "--bots", "basic,random", "--deals", "2", "--quiet", "--json", "/dev/stdout"]
        ran = subprocess.run(
            [sys.executable, "-m", "opentrix", *args],
            stdout=sink,
            stderr=subprocess.PIPE,
            text=True,
            timeout=120,
        )
    err = ran.stderr
    assert ran.returncode == 0, err
    assert json.loads(out_file.read_text())["units_played"] == 2
    assert "points per deal" in err  # the table, on stderr
    proc = _arena_process("--bots", "basic,random", "--deals", "2", "--quiet", "--json", "/dev/stdout")  # a pipe
    out, err = proc.communicate(timeout=120)
    assert proc.returncode == 0 and json.loads(out)["units_played"] == 2, err


def test_cli_refuses_json_and_chart_in_one_file(tmp_path: Path) -> None:
    """The chart would be written over the JSON just written: refused before the run."""
    same = tmp_path / "r.png"
    code, out = invoke(
        "--bots", "basic,random", "--deals", "1", "--json", str(same), "--plot", str(tmp_path / "." / "r.png")
    )
    assert code == 2 and "both name" in out and not same.exists(), out


def test_cli_kingdom_mode_takes_an_option_set_to_what_it_plays(tmp_path: Path) -> None:
    code, out = invoke(
        "--bots", "basic,random", "--deals", "1", "--kingdom", "--rules", "online", "--rule", "kingdoms=1"
    )
    assert code == 0, out


def test_the_bars_words_say_deals_done_and_the_times(monkeypatch: pytest.MonkeyPatch) -> None:
    """One column that never wraps: the count, the time spent, the time left (or that it is being
    estimated), and only the count and time once done."""
    from rich.progress import Progress

    from opentrix.arena.commands import _status_column

    column = _status_column("deals")
    with Progress(column, disable=True) as bar:
        task = bar.add_task("arena", total=40)
        assert column.render(bar.tasks[task]).plain == "0/40 deals, 0m00s elapsed, estimating the time left"
        bar.update(task, completed=10)
        monkeypatch.setattr(type(bar.tasks[task]), "elapsed", property(lambda self: 30.0))
        assert column.render(bar.tasks[task]).plain == "10/40 deals, 0m30s elapsed, about 1m30s left"
    assert column.get_table_column().no_wrap


def test_make_bot_checks_the_kind_of_each_option() -> None:
    from opentrix.bots import make_bot

    with pytest.raises(ValueError, match="option inference of strong takes yes or no, not 'no'"):
        make_bot("strong", inference="no")  # a string is true: inference would have stayed on
    with pytest.raises(ValueError, match=r"option samples of strong takes a whole number, not 2\.5"):
        make_bot("strong", samples=2.5)
    with pytest.raises(ValueError, match=r"option eps of hard takes a number, not '0\.1'"):
        make_bot("hard", eps="0.1")
    assert make_bot("strong", eps=1, samples=None, budget_ms=10) is not None  # a whole number is a number
    import numpy as np  # what a config tool or an RL script hands over

    assert make_bot("strong", samples=np.int64(8), trust=np.float32(0.8), budget_ms=np.int64(100)).samples == 8
    from opentrix.arena.spec import SpecError, parse_spec

    with pytest.raises(SpecError, match="option inference of cheat-from takes yes or no"):
        parse_spec("cheat-from:inference=maybe")  # strong's options, read by cheat-from, are checked too
    with pytest.raises(ValueError, match="cheat sees every hand: it plays in the arena only"):
        make_bot("cheat")
