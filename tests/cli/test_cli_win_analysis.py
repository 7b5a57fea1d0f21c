"""``yatzy analyze --win``: the change in win chance per decision beside the points,
the text chart, ``--record`` for solo games and ``--win-budget``; plain ``yatzy
analyze`` unchanged, and the command's start imports no numeric library."""

from __future__ import annotations

import io
import json
import random
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from yatzy.bots import make_bot
from yatzy.cli.main import main
from yatzy.game import Game, Player, Roll, save


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    yield


def _record(tmp_path: Path, names: list[tuple[str, str | None]], seed: int = 3) -> Path:
    """A finished yatzy+forced game (quick to analyse), played by bots; people's seats
    by a casual bot (they make mistakes to find)."""
    players = [Player(n, lv) for n, lv in names]
    state = Game("yatzy+forced", players).new_initial_state(starter=0)
    bots = [make_bot(lv or "casual") for _, lv in names]
    rng = random.Random(seed)
    while not state.is_terminal():
        action = bots[state.player].choose(state, rng)
        state.apply(action)
        if isinstance(action, Roll) or state.is_chance_node():
            state.roll(rng)
    path = tmp_path / "game.json"
    save(state, path)
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.slow
def test_win_column_and_chart(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    code, out, err = run(capsys, "analyze", str(game), "--win-budget", "0.01", "--json")
    assert code == 0, err
    data = json.loads(out)
    assert {"players", "decisions", "win"} <= set(data)  # the points' analysis, and more
    win = data["win"]
    assert win["goal"] == "win" and win["budget"] == 0.01
    assert [p["turn"] for p in win["chart"]] == list(range(31))
    assert sum(win["chart"][0]["chances"]) == pytest.approx(1.0, abs=1e-3)
    assert len(win["decisions"]) == len(data["decisions"])
    for d, w in zip(data["decisions"], win["decisions"], strict=True):
        assert w["points"] == d["loss"] and w["cost"] >= 0 and w["turn"] == d["turn"]
    code, out, err = run(capsys, "analyze", str(game), "--win", "--win-budget", "0.01", "--all")
    assert code == 0, err
    assert "win %" in out and "chance of winning, turn by turn:" in out
    assert "  100 % |" in out and "    0 % |" in out and "A Ann, B Bot" in out
    assert "given up in" in out
    assert "±" not in out  # issue 24: a simulated chance is "≈", its margin said in words
    if not win["exact"]:
        assert "percentage points (95 % sure)" in out and "≈" in out
    rows = [ln for ln in out.splitlines() if ln[:6].strip().isdigit() and "|" not in ln]
    assert len(rows) == len(data["decisions"])  # --all: every decision
    png = tmp_path / "win.png"
    code, _, err = run(capsys, "analyze", str(game), "--win-budget", "0.01", "--plot", str(png))
    assert code == 0, err
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"


def test_plain_analyze_is_unchanged(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    code, out, _ = run(capsys, "analyze", str(game), "--json")
    assert code == 0 and "win" not in json.loads(out)
    code, out, _ = run(capsys, "analyze", str(game))
    assert code == 0 and "win %" not in out and "turn by turn" not in out


@pytest.mark.slow
def test_solo_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    game = _record(tmp_path, [("Solo", None)])
    code, out, err = run(
        capsys, "analyze", str(game), "--record", "150", "--win-budget", "0.01", "--json"
    )
    assert code == 0, err
    win = json.loads(out)["win"]
    assert win["goal"] == "record" and win["record"] == 150
    assert len(win["chart"][0]["chances"]) == 1 and len(win["chart"]) == 16
    code, out, err = run(capsys, "analyze", str(game), "--record", "150", "--win-budget", "0.01")
    assert code == 0, err
    assert "chance of beating the record 150 (given)" in out
    # No record given and none in the (empty) database: told to give one.
    empty = f"sqlite:///{tmp_path / 'empty.db'}"
    code, _, err = run(capsys, "analyze", str(game), "--win", "--database-url", empty)
    assert code == 2 and "--record" in err


def test_the_record_leaves_the_analysed_game_out(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """``yatzy play`` stores every finished game: the record a solo game is rated
    against is the best of the others, never the game itself."""
    from yatzy.game import load
    from yatzy.store.local import record_finished_game

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    url = f"sqlite:///{tmp_path / 'games.db'}"
    game = _record(tmp_path, [("Solo", None)])
    record_finished_game(load(game), url=url)
    # Only the game itself in the database: there is no record to beat yet.
    code, _, err = run(capsys, "analyze", str(game), "--win", "--database-url", url)
    assert code == 2 and "--record" in err
    (tmp_path / "other").mkdir()
    other = load(_record(tmp_path / "other", [("Solo", None)], seed=11))
    record_finished_game(other, url=url)
    want = other.sheets[0].total
    assert want != load(game).sheets[0].total
    code, out, err = run(
        capsys, "analyze", str(game), "--win", "--win-budget", "0.01", "--database-url", url
    )
    assert code == 0, err
    assert f"chance of beating the record {want} (your best in the local database)" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--record", "100"], "--record is for a solo game"),
        (["--win-budget", "0"], "--win-budget"),
        (["--win-budget", "-1"], "--win-budget"),
        (["--plot", "chart.jpg"], ".png"),
        (["--jobs", "0"], "--jobs 0: give a number of processes, 1 to 64"),
        (["--jobs", "65"], "--jobs 65"),
    ],
)
def test_bad_options_are_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, args: list[str], message: str
) -> None:
    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    code, _, err = run(capsys, "analyze", str(game), *args)
    assert code == 2 and message in err and "Traceback" not in err


@pytest.mark.slow
def test_jobs_rate_the_positions_in_worker_processes(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: `analyze --win` took 10-30 s in one process (each position within its
    # CPU budget); --jobs N rates the positions in N processes, and this process only
    # assembles the analysis: it rates no position itself.
    from yatzy.strategy import win_analysis

    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    win_analysis.forget_analysed()
    rated_here: list[int] = []
    rate = win_analysis._rate

    def counted(*args: object) -> object:
        rated_here.append(1)
        return rate(*args)  # type: ignore[arg-type]

    monkeypatch.setattr(win_analysis, "_rate", counted)
    code, out, err = run(capsys, "analyze", str(game), "--jobs", "2", "--win-budget", "0.01")
    assert code == 0, err
    assert rated_here == []
    assert "chance of winning, turn by turn:" in out and "given up in" in out
    win_analysis.forget_analysed()
    code, alone, err = run(capsys, "analyze", str(game), "--jobs", "1", "--win-budget", "0.01")
    assert code == 0, err
    assert rated_here  # in this process, one by one
    assert _players(out) == _players(alone)  # the same decisions rated
    win_analysis.forget_analysed()


@pytest.mark.slow
def test_the_terminals_end_analysis_rates_what_is_left_in_workers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: the win analysis within 10 s of the last box. What the analysis ahead
    # did not rate (all of it with the chances off) is rated in a worker per core.
    from yatzy.cli import play_advice
    from yatzy.game import load
    from yatzy.strategy import win_analysis

    monkeypatch.setenv("YATZY_JOBS", "2")
    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)
    state = load(_record(tmp_path, [("Ann", None), ("Bo", None)]))
    win_analysis.forget_analysed()
    rated_here: list[int] = []
    rate = win_analysis._rate
    monkeypatch.setattr(win_analysis, "_rate", lambda *args: rated_here.append(1) or rate(*args))
    lines = play_advice.analysis_lines(state, "sv")
    assert any("% vid start;" in line for line in lines), lines  # the chance at the start
    assert rated_here == []
    win_analysis.forget_analysed()


def test_the_terminals_end_analysis_runs_the_points_analysis_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Its words and the people's measured levels read one analysis (it ran twice,
    # about 0.8 s of the end's wait).
    from yatzy.cli import play_advice
    from yatzy.game import load
    from yatzy.strategy import analyze as analyze_module
    from yatzy.strategy import win_analysis

    monkeypatch.setenv("YATZY_JOBS", "1")
    monkeypatch.setattr(play_advice, "ANALYSIS_WIN_BUDGET", 0.01)
    state = load(_record(tmp_path, [("Ann", None), ("Bo", None)]))
    runs: list[int] = []
    real = analyze_module.analyze
    monkeypatch.setattr(analyze_module, "analyze", lambda *a, **k: runs.append(1) or real(*a, **k))
    win_analysis.forget_analysed()
    lines = play_advice.analysis_lines(state, "en")
    win_analysis.forget_analysed()
    assert any("at the start" in line for line in lines), lines
    assert len(runs) == 1


def test_the_number_of_workers_is_a_core_each_or_as_set(monkeypatch: pytest.MonkeyPatch) -> None:
    from yatzy.strategy import win_spread

    monkeypatch.setenv("YATZY_JOBS", "3")
    assert win_spread.default_jobs() == 3
    for unusable in ("0", "x", "²", " "):
        monkeypatch.setenv("YATZY_JOBS", unusable)
        assert 1 <= win_spread.default_jobs() <= win_spread.MAX_DEFAULT_JOBS


def test_workers_that_fail_leave_the_positions_to_this_process(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # A pool that cannot start (or a worker that dies) costs time, never the analysis.
    from yatzy.strategy import win_spread

    class Broken:
        def __init__(self, *args: object, **kwargs: object) -> None:
            raise OSError("no processes here")

    monkeypatch.setattr(win_spread, "ProcessPoolExecutor", Broken)
    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    code, out, err = run(capsys, "analyze", str(game), "--jobs", "2", "--win-budget", "0.01")
    assert code == 0, err
    assert "chance of winning, turn by turn:" in out


def _players(text: str) -> list[str]:
    """The players' lines of the points (the part that does not vary with sampling)."""
    return [ln.split("; chance")[0] for ln in text.splitlines() if "decisions," in ln]


def test_the_command_starts_without_numba() -> None:
    code = (
        "import sys\n"
        "from yatzy.cli.main import main\n"
        "try:\n"
        "    main(['analyze', '--help'])\n"
        "except SystemExit:\n"
        "    pass\n"
        "print('HEAVY', sorted(m for m in ('numba', 'numpy') if m in sys.modules))\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert "--win-budget" in proc.stdout and "--record" in proc.stdout
    assert proc.stdout.splitlines()[-1] == "HEAVY []"


class _Terminal(io.StringIO):
    """A stream that says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_progress_is_said_at_a_terminal_only(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: anything over a second says in words what happens; `analyze --win`
    # took a minute in silence on a fresh install (its kernels compiling).
    from yatzy.cli import win_report

    assert win_report.progress_reporter(io.StringIO()) is None  # a pipe: the result only
    marker = tmp_path / "warmed" / win_report.WARM_NAME
    monkeypatch.setattr("yatzy.kernels.cache.warm_marker", lambda name: marker)
    screen = _Terminal()
    report = win_report.progress_reporter(screen)
    assert report is not None
    report(0, 30)
    report(29, 30)
    said = screen.getvalue()
    assert said.startswith("Working out the chance of every decision (the first time")
    assert said.endswith("\r  turn 1 of 30 …\r  turn 30 of 30 …")
    marker.parent.mkdir(parents=True)
    marker.touch()  # compiled once: not said again
    screen = _Terminal()
    win_report.progress_reporter(screen)
    assert screen.getvalue() == "Working out the chance of every decision …\n"


@pytest.mark.slow
def test_the_command_reports_progress_at_a_terminal(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = _record(tmp_path, [("Ann", None), ("Bot", "greedy")])
    screen = _Terminal()
    monkeypatch.setattr(sys, "stderr", screen)
    code = main(["analyze", str(game), "--win", "--win-budget", "0.01"])
    out = capsys.readouterr().out
    assert code == 0 and "chance of winning" in out
    said = screen.getvalue()
    assert "Working out the chance of every decision" in said
    assert "turn 30 of 30 …" in said and said.endswith("\r\x1b[K")
