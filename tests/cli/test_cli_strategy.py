"""``yatzy advise``, ``yatzy simulate`` and ``yatzy analyze`` from the command line."""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from yatzy.cli.main import main


@pytest.fixture(autouse=True)
def _solver_cache(tmp_path_factory: pytest.TempPathFactory) -> Iterator[None]:
    root = tmp_path_factory.getbasetemp().parent / "strategy-cache"
    root.mkdir(exist_ok=True)
    old = os.environ.get("XDG_CACHE_HOME")
    os.environ["XDG_CACHE_HOME"] = str(root)
    yield
    if old is None:
        os.environ.pop("XDG_CACHE_HOME", None)
    else:
        os.environ["XDG_CACHE_HOME"] = old


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


LATE = (
    "ones=3,twos=6,threes=9,fours=12,fives=15,sixes=18,one_pair=12,two_pairs=22,"
    "three_of_a_kind=15,four_of_a_kind=20,small_straight=15,large_straight=20"
)


def test_advise_ranks_keeps_and_boxes(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(
        capsys, "advise", "yatzy", "--sheet", LATE, "--dice", "66613", "--rolls-left", "1"
    )
    assert code == 0, err
    assert "exact" in out and "APPROXIMATE" not in out
    lines = [line for line in out.splitlines() if line.strip()[:1].isdigit()]
    assert lines[0].split()[1:3] == ["keep", "6"], out
    losses = [float(line.split()[-1]) for line in lines]
    assert losses[0] == 0 and losses == sorted(losses)


def test_advise_json_and_all(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(
        capsys,
        "advise",
        "yatzy",
        "--sheet",
        LATE,
        "--dice",
        "6 6 6 1 3",
        "--rolls-left",
        "0",
        "--json",
    )
    assert code == 0
    data = json.loads(out)
    assert data["exact"] is True and data["rolls_left"] == 0
    best = data["options"][0]
    assert best["loss"] == 0 and best["action"] in (
        {"score": "full_house"},
        {"score": "chance"},
        {"scratch": "yatzy"},
        {"score": "yatzy"},
        {"scratch": "full_house"},
    )
    assert all(o["value"] <= data["value"] + 1e-9 for o in data["options"])


def test_advise_from_a_record(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    from yatzy.game import Game, save

    state = Game("yatzy+forced", ["solo"]).new_initial_state(starter=0)
    from yatzy.game import Roll

    state.apply(Roll())
    state.apply_roll([1, 1, 1, 2, 3])
    path = tmp_path / "g.json"
    save(state, path)
    code, out, err = run(capsys, "advise", "yatzy+forced", "--sheet", str(path))
    assert code == 0, err
    assert "dice 1 1 1 2 3, 2 rolls left" in out
    code, _, err = run(capsys, "advise", "yatzy", "--sheet", str(path))
    assert code == 2 and "record plays yatzy+forced" in err


def test_advise_approximate_is_labelled(capsys: pytest.CaptureFixture[str]) -> None:
    from yatzy.rules import RuleSet

    boxes = RuleSet.parse("dubbel+forced").boxes[:14]
    sheet = ",".join(f"{b}=0" for b in boxes)
    code, out, err = run(
        capsys,
        "advise",
        "dubbel+forced",
        "--sheet",
        sheet,
        "--dice",
        "666662/111113",
        "--rolls-left",
        "0",
    )
    assert code == 0, err
    assert "APPROXIMATE" in out


@pytest.mark.parametrize(
    "dice", [["543221/664333"], ["5/6", "4/6", "3/4", "2/3", "2/3", "1/3"], ["54322 1/664333"]]
)
def test_advise_writes_and_reads_double_dice_inner_first(
    capsys: pytest.CaptureFixture[str], dice: list[str]
) -> None:
    # 003's example: outer 6-6-4-3-3-3, inner 5-4-3-2-2-1 -> inner Small Straight.
    boxes = "ones=1,twos=2,threes=3,fours=4,fives=5,sixes=6,one_pair=2,two_pairs=0"
    sheet = f"{boxes},three_of_a_kind=0,four_of_a_kind=0,chance=5,yatzy=0"
    code, out, err = run(
        capsys, "advise", "dubbel", "--sheet", sheet, "--dice", *dice, "--rolls-left", "0"
    )
    assert code == 0, err
    assert out.splitlines()[0] == "dubbel: dice 5/6 4/6 3/4 2/3 2/3 1/3, 0 rolls left"
    assert "inner score small_straight; outer score full_house" in out


def test_advise_sheet_takes_box_names_and_refuses_guesses(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, err = run(capsys, "advise", "yatzy", "--sheet", "Ones=3,2=6,kåk=0")
    assert code == 0, err
    refused = [
        ("ones=3,1.=3", "no box '1.'"),
        ("t=6", "box 't' could be"),
        ("ones=3,1=3", "'ones' is given twice"),
    ]
    for sheet, reason in refused:
        code, _, err = run(capsys, "advise", "yatzy", "--sheet", sheet)
        assert code == 2 and reason in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["advise", "yatzy", "--sheet", "ones=6"], "6 is not a possible score for ones"),
        (["advise", "yatzy", "--dice", "1234", "--rolls-left", "1"], "needs 5 dice"),
        (["advise", "yatzy", "--dice", "12345"], "--rolls-left"),
        (["advise", "yatzy+forced", "--sheet", "sixes=6"], "cannot occur"),
        (["advise", "yatzy", "--sheet", "nonsense"], "box=points"),
        (["advise", "yatzy", "--sheet", "/no/such/game.json"], "cannot read"),
        (["simulate", "yatzy", "--bot", "wizard"], "unknown bot"),
        (["simulate", "yatzy", "--games", "0"], "games 0"),
        (["simulate", "yatzy", "--games", "ten"], "not a whole number"),
        (["simulate", "yatzy", "--bot", "random", "--plot", "x.jpg"], ".png"),
        (["analyze", "/no/such/game.json"], "cannot read"),
    ],
)
def test_bad_input_is_one_line_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, _, err = run(capsys, *args)
    assert code == 2
    assert message in err and err.count("\n") == 1 and "Traceback" not in err


@pytest.mark.slow
def test_simulate_prints_statistics_and_plot(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    png = tmp_path / "h.png"
    code, out, err = run(
        capsys,
        "simulate",
        "yatzy",
        "--bot",
        "greedy",
        "--games",
        "40",
        "--seed",
        "4",
        "--workers",
        "1",
        "--plot",
        str(png),
    )
    assert code == 0, err
    assert "40 games" in out and "seed 4" in out
    for word in ("mean", "standard deviation", "percentiles", "bonus rate", "yatzy rate"):
        assert word in out
    # Issue 24: the margin in plain words, never the "±" jargon
    assert "95 % sure within " in out and "±" not in out
    assert png.read_bytes()[:4] == b"\x89PNG"
    code, out2, _ = run(
        capsys,
        "simulate",
        "yatzy",
        "--bot",
        "greedy",
        "--games",
        "40",
        "--seed",
        "4",
        "--workers",
        "1",
        "--json",
    )
    data = json.loads(out2)
    assert data["games"] == 40 and f"mean {data['mean']:.2f}" in out


def test_analyze_a_game_played_by_yatzy_play(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import io
    import sys

    from yatzy.bots import prepare_tables

    # The optimal bot's table at hand (without it the greedy strategy stands in for it
    # while a child process builds it: test_cli_play).
    prepare_tables("optimal", "yatzy+forced")
    record = tmp_path / "game.json"
    # A person plays too (forced order: roll once, write the next box), with two bots.
    script = "".join(f"r\ns {box}\n" for box in range(1, 16))
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code, _, err = run(
        capsys,
        "play",
        "--rules",
        "yatzy+forced",
        "--bot",
        "optimal:Ada",
        "--bot",
        "random:Rex",
        "--seed",
        "2",
        "--save",
        str(record),
        "Me",
    )
    assert code == 0, err
    code, out, err = run(capsys, "analyze", str(record), "--json")
    assert code == 0, err
    data = json.loads(out)
    by_name = {p["name"]: p for p in data["players"]}
    assert by_name["Ada"]["total_loss"] == pytest.approx(0, abs=1e-3)
    assert by_name["Rex"]["total_loss"] > 10
    assert by_name["Rex"]["mean_loss"] > 0
    # three players: the game has 45 turns, each player's own are numbered 1-15
    assert max(d["turn"] for d in data["decisions"]) == 45
    assert max(d["own_turn"] for d in data["decisions"]) == 15
    assert all(len(p["expected"]) == 15 for p in data["players"])
    code, out, _ = run(capsys, "analyze", str(record), "--all")
    assert "Rex" in out and "per decision" in out
    turns = [int(line.split()[0]) for line in out.splitlines() if line[:6].strip().isdigit()]
    assert turns and max(turns) == 15


def test_analyze_of_a_pad_of_points_only_says_it_cannot_be_rated(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    # A protocol filled in by hand holds points, not dice: no decision to rate, and the
    # analysis must not read as flawless play (0 decisions, 0 mistakes).
    from yatzy.game import Game, Write, save

    state = Game("yatzy", ["Ann"], pad=True).new_initial_state(starter=0)
    state.apply(Write("ones", 3))
    state.apply(Write("twos", 6))
    record = tmp_path / "pad.json"
    save(state, record)
    code, out, err = run(capsys, "analyze", str(record))
    assert code == 0, err
    assert "only the box chosen for each turn's entered dice is rated" in out
    assert "Ann: final 9, cannot be rated" in out
    assert "0 mistakes" not in out
