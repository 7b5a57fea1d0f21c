"""Finished terminal games in the local database: ``yatzy play`` records, ``yatzy stats``
reads, and a browser given this computer's owner (the link ``yatzy serve`` prints) sees
terminal and web games together."""

from __future__ import annotations

import io
import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tests.cli.test_cli_play import in_order, lines
from yatzy.cli.main import main
from yatzy.game import Game, Roll
from yatzy.store.local import existing_local_owner, local_owner, owner_file
from yatzy.web.app import create_app


@pytest.fixture
def home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A fresh state and data home: no owner yet, an empty default database."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    return tmp_path


def run(
    args: list[str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    s: str = "",
) -> tuple[int, str, str]:
    monkeypatch.setattr(sys, "stdin", io.StringIO(s))
    code = main(args)
    out, err = capsys.readouterr()
    return code, out, err


def solo_game(args: list[str], mp: pytest.MonkeyPatch, cap: pytest.CaptureFixture[str]) -> str:
    code, out, _ = run(["play", "--seed", "5", *args, "Ann"], mp, cap, lines(*in_order(15)))
    assert code == 0, out
    return out


def test_a_finished_game_goes_into_yatzy_stats(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    assert existing_local_owner() is None
    code, out, _ = run(["stats", "--lang", "sv"], monkeypatch, capsys)
    assert code == 0 and "Inga avslutade partier" in out
    out = solo_game([], monkeypatch, capsys)
    assert "kept in your statistics" in out
    assert owner_file().stat().st_mode & 0o777 == 0o600
    code, out, _ = run(["stats", "--json"], monkeypatch, capsys)
    data = json.loads(out)
    assert code == 0
    (row,) = data["variants"]
    assert row["rules"] == "yatzy" and row["games"] == 1
    assert row["solo_record"] == row["best"] == round(row["average"])
    code, table, _ = run(["stats", "--lang", "fi"], monkeypatch, capsys)
    assert code == 0
    assert table.splitlines()[0].split()[:3] == ["Säännöt", "Pelit", "Keskiarvo"]
    assert "Yatzy" in table.splitlines()[1] and str(row["best"]) in table


def test_no_record_keeps_nothing_and_a_broken_database_only_warns(
    home: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = solo_game(["--no-record"], monkeypatch, capsys)
    assert "statistics" not in out
    code, out, _ = run(["stats", "--json"], monkeypatch, capsys)
    assert code == 0 and json.loads(out)["games"] == 0
    # A file that is not a database: found out only when the finished game is stored.
    (home / "notes.db").write_text("not a database\n" * 100, encoding="utf-8")
    bad = f"sqlite:///{home / 'notes.db'}"
    out = solo_game(["--database-url", bad, "--lang", "sv"], monkeypatch, capsys)
    assert "Partiet kunde inte sparas i din statistik" in out  # the game itself finished: 0
    # A folder that does not exist is refused before the game (issue 24: nothing is
    # created where the user did not ask, and no game is played for nothing).
    (home / "a-file").write_text("not a folder", encoding="utf-8")
    bad = f"sqlite:///{home / 'a-file' / 'x.db'}"
    code, out, err = run(["play", "--database-url", bad, "Ann"], monkeypatch, capsys, "r\n")
    assert code == 2 and out == "" and "does not exist" in err and err.count("\n") == 1


@pytest.fixture
def web(home: Path) -> Iterator[tuple[TestClient, str]]:
    url = f"sqlite:///{home / 'web.db'}"
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        yield client, url


def test_the_owner_link_shows_terminal_and_browser_games_together(
    web: tuple[TestClient, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    client, url = web
    assert client.get("/owner", params={"token": "x"}).status_code == 403  # no owner yet
    solo_game(["--database-url", url], monkeypatch, capsys)
    r = client.post("/api/games", json={"rules": "maxi", "seats": [{"name": "Bo", "here": True}]})
    assert r.status_code == 201
    browser_game = r.json()["id"]
    assert [g["id"] for g in client.get("/api/history").json()] == [browser_game]
    wrong = client.get("/owner", params={"token": local_owner() + "x"}, follow_redirects=False)
    assert wrong.status_code == 403 and "yatzy serve" in wrong.json()["detail"]
    r = client.get("/owner", params={"token": local_owner()}, follow_redirects=False)
    assert r.status_code == 303 and r.headers["location"].endswith("/history")
    assert client.cookies.get("yz_owner") == local_owner()
    history = client.get("/api/history").json()
    assert len(history) == 2 and browser_game in {g["id"] for g in history}
    stats = client.get("/api/stats").json()
    assert [row["rules"] for row in stats["variants"]] == ["yatzy"]  # the maxi game is not over


def test_only_a_finished_game_is_recorded(home: Path) -> None:
    from yatzy.store.local import record_finished_game

    state = Game("yatzy", ["A"]).new_initial_state(starter=0)
    state.apply(Roll())
    with pytest.raises(ValueError, match="finished"):
        record_finished_game(state)
