"""``yatzy verify``: a terminal game's dice against their seed; tampering named."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.cli.test_cli_play import Run, lines
from tests.cli.test_play_autosave import play, rescue_home  # noqa: F401 (fixtures)
from yatzy.cli.main import main


def _verify(capsys: pytest.CaptureFixture[str], path: Path) -> tuple[int, str, str]:
    code = main(["verify", str(path)])
    out, err = capsys.readouterr()
    return code, out, err


def test_a_terminal_game_verifies_before_and_after_resuming(
    play: Run,  # noqa: F811
    rescue_home: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, _, _ = play(["A", "B"], lines("r", "k 1 2", "s 1", "r", "s 2", "r"))
    assert code == 1
    [path] = list(rescue_home.glob("unfinished-*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    assert data["dice"]["scheme"] == "yatzy-hmac-sha256/2"
    code, out, err = _verify(capsys, path)
    assert code == 0, err
    assert out.startswith("verified: all ") and data["dice"]["commitment"] in out
    first = int(out.split()[2])
    # Resumed, the game rolls on from the same seed: still every die verifies.
    code, _, _ = play(["--resume", str(path)], lines("k 3", "s 3", "r", "q"))
    assert code == 1
    code, out, _ = _verify(capsys, path)
    assert code == 0 and int(out.split()[2]) > first


def test_a_changed_die_is_named_and_exits_1(
    play: Run,  # noqa: F811
    rescue_home: Path,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    play(["A"], lines("r", "s 1", "r"))
    [path] = list(rescue_home.glob("unfinished-*.json"))
    data = json.loads(path.read_text(encoding="utf-8"))
    dice = data["turns"][1]["rolls"][0]["dice"]
    dice[2] = dice[2] % 6 + 1
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(data), encoding="utf-8")
    code, out, _ = _verify(capsys, bad)
    assert code == 1
    assert out.startswith("NOT VERIFIED: turn 2, rolls[0].dice[2]: turn 2 (A), roll 1, die 3")
    code = main(["verify", "--json", str(bad)])
    result = json.loads(capsys.readouterr().out)
    assert code == 1 and result["ok"] is False and result["where"] == "turn 2 (A), roll 1, die 3"


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ("not json", "is not JSON"),
        (
            '{"format": "yatzy-record", "rules": "yatzy", "players": ["A"], "turns": []}',
            "no dice proof",
        ),
    ],
)
def test_records_that_cannot_be_checked_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], tmp_path: Path, content: str, message: str
) -> None:
    path = tmp_path / "r.json"
    path.write_text(content, encoding="utf-8")
    code, out, err = _verify(capsys, path)
    assert code == 2 and out == "" and err.count("\n") == 1 and message in err
    code, _, err = _verify(capsys, tmp_path / "missing.json")
    assert code == 2 and "cannot read" in err


def test_a_seeded_game_keeps_no_proof(
    play: Run,  # noqa: F811
    rescue_home: Path,  # noqa: F811
) -> None:
    # --seed NUMBER is a reproducible stream for tests and bug reports, not dealt dice.
    play(["--seed", "3", "A"], lines("r", "s 1", "r"))
    [path] = list(rescue_home.glob("unfinished-*.json"))
    assert "dice" not in json.loads(path.read_text(encoding="utf-8"))
