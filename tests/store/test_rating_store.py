"""The ratings' tables (migration 0009) on SQLite and PostgreSQL: the schema the
models describe, up and down; a rated game rated and analysed exactly once (also
from two threads at once); ratings, history, leaderboards with their minimum of
games, and fair-play flags."""

from __future__ import annotations

import secrets
import threading
from datetime import timedelta
from typing import Any

import pytest

from tests.store.support import alembic, schema_diff, table_names
from yatzy.store import GameRepository, SeatInfo, StoredGame
from yatzy.store.accounts import AccountStore
from yatzy.store.pg_writer import utc_now
from yatzy.store.ratings import RatingStore, RatingTuple, SeatTakenError, SkillGame


def _game(repo: GameRepository, seats: int = 2, finished: bool = False) -> str:
    gid = secrets.token_hex(16)
    infos = [SeatInfo(i, f"P{i}") for i in range(seats)]
    repo.insert(StoredGame.new(gid, "yatzy", "en", False, False, "x" * 64, "{}", finished, infos))
    return gid


def _accounts(repo: GameRepository, n: int) -> list[str]:
    store = AccountStore(repo)
    return [
        store.create(secrets.token_hex(16), f"N{i}", f"n{i}-{secrets.token_hex(3)}", "h", []).id
        for i in range(n)
    ]


def _plus(delta: float) -> Any:
    """An update that adds ``delta`` to every mu (a newcomer starts at 25)."""

    def update(before: dict[str, RatingTuple | None]) -> dict[str, RatingTuple]:
        return {
            a: ((r or (25.0, 8.0, 0))[0] + delta, 7.0, (r or (25.0, 8.0, 0))[2] + 1)
            for a, r in before.items()
        }

    return update


def _apart(strong: str, games: int) -> Any:
    """An update that moves ``strong`` up and everyone else down."""

    def update(before: dict[str, RatingTuple | None]) -> dict[str, RatingTuple]:
        return {
            a: ((r or (25.0, 8.0, 0))[0] + (1 if a == strong else -1), 6.0, games)
            for a, r in before.items()
        }

    return update


def test_migration_0009_matches_the_models_and_goes_down(url: str) -> None:
    alembic(url, ("upgrade", "0008"), ("upgrade", "head"))
    diff = schema_diff(url)
    assert diff == [], diff
    assert "rated_games" in table_names(url)
    alembic(url, ("downgrade", "0008"))
    assert "ratings" not in table_names(url)
    alembic(url, ("upgrade", "head"))


def test_a_rated_game_is_rated_and_analysed_once(url: str) -> None:
    repo = GameRepository.open(url)
    store = RatingStore(repo)
    a, b = _accounts(repo, 2)
    gid = _game(repo, finished=True)
    assert store.rated_game(gid) is None
    store.mark_rated(gid, "yatzy", {0: a})
    assert store.unsettled() == [gid]  # ended, not rated yet
    with pytest.raises(SeatTakenError):
        store.add_seat(gid, 1, a)  # one seat per account
    store.add_seat(gid, 1, b)
    rated = store.rated_game(gid)
    assert rated is not None and rated.seats == {0: a, 1: b}
    assert not rated.rated and not rated.analysed
    after = store.settle(gid, [(a, 250), (b, 200)], _plus(1.0))
    assert after is not None and after[a][0] == 26.0
    assert store.unsettled() == [gid]  # rated, not analysed yet
    assert store.settle(gid, [(a, 250), (b, 200)], _plus(1.0)) is None
    assert [(r.family, r.mu, r.games) for r in store.ratings_of(a)] == [("yatzy", 26.0, 1)]
    (point,) = store.history(b, "yatzy")
    assert (point.game_id, point.place, point.total, point.mu) == (gid, 2, 200, 26.0)
    games = [SkillGame(a, gid, 30, 4.0, 25, True), SkillGame(b, gid, 31, 20.0, 20, True)]
    assert store.record_analysis(gid, games)
    assert not store.record_analysis(gid, games)
    assert [g.total_loss for g in store.skill_games(b, "yatzy")] == [20.0]
    assert store.unsettled() == []
    repo.close()


def test_two_threads_rate_a_game_once(url: str) -> None:
    repo = GameRepository.open(url)
    other = GameRepository.open(url)  # a second process's repository
    store, store2 = RatingStore(repo), RatingStore(other)
    a, b = _accounts(repo, 2)
    gid = _game(repo)
    store.mark_rated(gid, "yatzy", {0: a, 1: b})
    barrier = threading.Barrier(2)
    answers: list[object] = []

    def rate(s: RatingStore) -> None:
        barrier.wait()
        answers.append(s.settle(gid, [(a, 1), (b, 2)], _plus(1.0)))

    threads = [threading.Thread(target=rate, args=(s,)) for s in (store, store2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(60)
    assert sorted(x is None for x in answers) == [False, True]
    assert store.ratings_of(a)[0].games == 1
    assert len(store.history(a, "yatzy")) == 1
    repo.close()
    other.close()


def test_leaderboards_order_and_minimum_games(url: str) -> None:
    repo = GameRepository.open(url)
    store = RatingStore(repo)
    strong, weak, new = _accounts(repo, 3)
    for i in range(3):
        gid = _game(repo)
        store.mark_rated(gid, "yatzy", {0: strong, 1: weak})
        store.settle(
            gid,
            [(strong, 300), (weak, 200)],
            _apart(strong, i + 1),
        )
        store.record_analysis(
            gid,
            [SkillGame(strong, gid, 30, 3.0, 28, True), SkillGame(weak, gid, 30, 30.0, 15, i > 0)],
        )
    gid = _game(repo)
    store.mark_rated(gid, "yatzy", {0: new, 1: strong})
    store.settle(gid, [(new, 1), (strong, 0)], _plus(0.0))
    board = store.leaderboard("yatzy", "rating", None, 3)
    assert [r.account_id for r in board] == [strong, weak]  # new has one game
    assert board[0].games == 4
    assert [r.account_id for r in store.leaderboard("yatzy", "rating", None, 1)][-1] in {new, weak}
    skill = store.leaderboard("yatzy", "skill", None, 3)
    assert [(r.account_id, r.loss_per_game, r.exact) for r in skill] == [
        (strong, 3.0, True),
        (weak, 30.0, False),
    ]
    assert skill[0].loss_per_decision == pytest.approx(0.1)
    assert store.leaderboard("yatzy", "rating", utc_now() + timedelta(hours=1), 1) == []
    assert store.leaderboard("maxi", "rating", None, 0) == []
    assert store.families() == ["yatzy"]
    repo.close()


def test_flags_are_recorded_and_refreshed(url: str) -> None:
    repo = GameRepository.open(url)
    store = RatingStore(repo)
    (a,) = _accounts(repo, 1)
    assert not store.is_flagged(a)
    store.flag(a, "yatzy", 10, 300, 290, 1e-9)
    store.flag(a, "yatzy", 11, 330, 320, 1e-10)
    (flag,) = store.flags()
    assert (flag.account_id, flag.games, flag.best, flag.p_value) == (a, 11, 320, 1e-10)
    assert flag.first_at <= flag.last_at
    assert store.is_flagged(a)
    repo.close()
