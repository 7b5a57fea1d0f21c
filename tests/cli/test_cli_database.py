"""A bad database is one line and exit 2, and nothing is created where the user did not
ask (issue 24, terminal 6): ``yatzy stats``, ``yatzy prune`` and ``yatzy play`` with a
mistyped or damaged ``--database-url`` or a damaged default database."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

import pytest

from tests.cli.test_cli_play import lines
from yatzy.cli.main import main
from yatzy.store import GameRepository
from yatzy.store.errors import DatabaseOpenError


def _run(
    args: list[str], monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


@pytest.fixture
def garbage(tmp_path: Path) -> Path:
    """A file that is not a database."""
    path = tmp_path / "notes.db"
    path.write_bytes(b"these are my notes, not a database\n" * 200)
    return path


@pytest.mark.parametrize("command", [["stats"], ["prune", "--dry-run"]])
def test_a_missing_folder_is_refused_and_not_created(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"sqlite:///{tmp_path / 'nonexistent' / 'dir' / 'x.db'}"
    code, out, err = _run([*command, "--database-url", url], monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert "does not exist" in err and str(tmp_path / "nonexistent" / "dir") in err
    assert not (tmp_path / "nonexistent").exists()


@pytest.mark.parametrize("command", [["stats"], ["prune"]])
def test_a_mistyped_file_name_makes_no_empty_database(
    command: list[str],
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    url = f"sqlite:///{tmp_path / 'yatzy.bd'}"
    code, _, err = _run([*command, "--database-url", url], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "no database file" in err
    assert list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("command", [["stats"], ["prune", "--days", "3"]])
def test_a_file_that_is_not_a_database_is_one_line(
    command: list[str],
    garbage: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    before = garbage.read_bytes()
    code, out, err = _run([*command, "--database-url", f"sqlite:///{garbage}"], monkeypatch, capsys)
    assert code == 2 and out == ""
    assert err.count("\n") == 1
    assert err.startswith("yatzy: error: cannot open the database sqlite:///")
    assert "not a database" in err
    assert garbage.read_bytes() == before


def test_a_damaged_default_database_is_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    default = tmp_path / "data" / "yatzy" / "yatzy.db"
    default.parent.mkdir(parents=True)
    default.write_bytes(b"\x00garbage" * 512)
    code, _, err = _run(["stats"], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1 and "not a database" in err


def test_a_server_that_does_not_answer_is_one_line(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # Port 1 on this machine: nothing listens, the connection is refused at once.
    url = "postgresql://yatzy:secret@127.0.0.1:1/yatzy"
    code, _, err = _run(["stats", "--database-url", url], monkeypatch, capsys)
    assert code == 2 and err.count("\n") == 1
    assert "cannot open the database postgresql+psycopg://yatzy:***@127.0.0.1:1/yatzy" in err
    assert "secret" not in err


def test_the_library_refuses_with_a_value_error(tmp_path: Path) -> None:
    with pytest.raises(DatabaseOpenError, match="does not exist") as caught:
        GameRepository.open(f"sqlite:///{tmp_path / 'no' / 'x.db'}")
    assert isinstance(caught.value, ValueError)
    assert not (tmp_path / "no").exists()


def test_play_refuses_a_bad_url_before_the_game(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    url = f"sqlite:///{tmp_path / 'nonexistent' / 'x.db'}"
    monkeypatch.setattr(sys, "stdin", io.StringIO(lines("r")))
    code = main(["play", "--seed", "1", "--database-url", url, "A"])
    out, err = capsys.readouterr()
    assert code == 2 and out == "" and err.count("\n") == 1
    assert not (tmp_path / "nonexistent").exists()


def test_a_bad_database_in_a_real_process_has_no_traceback(garbage: Path) -> None:
    out = subprocess.run(
        [sys.executable, "-m", "yatzy.cli.main", "stats", "--database-url", f"sqlite:///{garbage}"],
        capture_output=True,
        text=True,
    )
    assert out.returncode == 2
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
