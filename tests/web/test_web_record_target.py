"""A solo game's live chance of beating the record (issue 24): where its target table
is not built yet, asking for the chance queues the build as a background job, and the
view says in words that the chance is being worked out; the game never waits."""

from __future__ import annotations

import warnings
from concurrent.futures import Future
from pathlib import Path
from typing import Any

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from tests.conftest import sqlite_copy
from tests.web.test_web_insight import create, play_out
from yatzy.rules import RuleSet
from yatzy.web import prepare
from yatzy.web.app import create_app
from yatzy.web.jobs import Busy, JobSpec


class Tables:
    """A table pool that records what it is asked to build (and builds nothing)."""

    def __init__(self, state: str | None = None, busy: bool = False) -> None:
        self.state, self.busy = state, busy
        self.submitted: list[JobSpec] = []

    def status(self, spec: JobSpec) -> tuple[str | None, str | None]:
        return self.state, None

    def submit(self, spec: JobSpec, **_: Any) -> Future[Any]:
        if self.busy:
            raise Busy("full")
        self.submitted.append(spec)
        self.state = "queued"
        return Future()


def test_the_target_table_is_queued_once_and_said_pending(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    tables = Tables()
    monkeypatch.setattr(prepare, "table_jobs", lambda: tables)
    yatzy = RuleSet.parse("yatzy")
    assert prepare.target_preparing(yatzy)
    assert prepare.target_preparing(yatzy)  # asked again: the same job, not a second
    assert [(j.kind, j.args) for j in tables.submitted] == [("target", {"spec": "yatzy"})]
    # Where there will be no table, nothing is said to be on its way.
    assert not prepare.target_preparing(RuleSet.parse("maxi"))  # no target play
    monkeypatch.setattr(prepare, "table_jobs", lambda: Tables("failed"))
    assert not prepare.target_preparing(yatzy)
    monkeypatch.setattr(prepare, "table_jobs", lambda: Tables(busy=True))
    assert not prepare.target_preparing(yatzy)


def test_a_solo_game_says_its_record_chance_is_being_worked_out(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from yatzy.strategy import target_play

    url = sqlite_copy(migrated_sqlite, tmp_path)
    tables = Tables()
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        seats = [{"name": "Ann", "here": True}]
        play_out(client, create(client, seats, rules="yatzy+forced"))
        gid = create(client, seats, rules="yatzy+forced")
        monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: None)
        monkeypatch.setattr(prepare, "table_jobs", lambda: tables)
        you = client.get(f"/api/games/{gid}").json()["you"]
        assert you["record_chance"] is None and you["record_chance_pending"] is True
        assert [j.kind for j in tables.submitted] == ["target"]
        # Once the table is there the chance itself is shown, and no words of waiting.
        monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: 0.25)
        you = client.get(f"/api/games/{gid}").json()["you"]
        assert you["record_chance"] == 0.25 and "record_chance_pending" not in you


def test_an_approximate_record_chance_is_shown_while_the_table_builds(
    tmp_path: Path, migrated_sqlite: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Issue 24: while the target table builds, an approximate figure (the chance with
    # the best-points strategy), marked as approximate, rather than words alone.
    from yatzy.solver import Solver
    from yatzy.strategy import target_play

    # The approximate figure reads the best-points table, which is never built for it:
    # built here (0.05 CPU-s for forced order) rather than left to an earlier test.
    Solver(RuleSet.parse("yatzy+forced"))
    url = sqlite_copy(migrated_sqlite, tmp_path)
    with TestClient(create_app(url, bot_delay=0.0)) as client:
        seats = [{"name": "Ann", "here": True}]
        play_out(client, create(client, seats, rules="yatzy+forced"))
        gid = create(client, seats, rules="yatzy+forced")
        assert client.post(f"/api/games/{gid}/actions", json={"action": {"roll": []}}).is_success
        monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: None)
        monkeypatch.setattr(prepare, "table_jobs", lambda: Tables())
        you = client.get(f"/api/games/{gid}").json()["you"]
        assert you["record_chance"] is None and you["record_chance_pending"] is True
        assert 0.0 <= you["record_chance_approx"] <= 1.0, you
        # Not where no table is being prepared (nothing will replace it).
        monkeypatch.setattr(prepare, "table_jobs", lambda: Tables(state="failed"))
        you = client.get(f"/api/games/{gid}").json()["you"]
        assert "record_chance_approx" not in you and "record_chance_pending" not in you
        # Once the table is there, only the chance itself.
        monkeypatch.setattr(target_play, "chance_to_beat", lambda *a, **k: 0.25)
        you = client.get(f"/api/games/{gid}").json()["you"]
        assert you["record_chance"] == 0.25 and "record_chance_approx" not in you
