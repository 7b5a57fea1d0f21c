"""The clocks' arithmetic (:mod:`yatzy.web.clocks`): settings and their ranges,
deadlines, seconds and days left (rounded up, never negative), the turn a deadline
belongs to, and the injectable clocks."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from yatzy.game import Game, Player, Roll, Score
from yatzy.rules import RuleSet
from yatzy.web.clocks import (
    DAY,
    ClockError,
    ClockSetting,
    FileClock,
    SettableClock,
    clock_from_env,
    days_left,
    deadline_after,
    seconds_left,
    turn_key,
)

NOON = datetime(2026, 11, 26, 12, 0, tzinfo=UTC)


def test_settings_and_their_ranges() -> None:
    assert ClockSetting.live(30) == ClockSetting("live", 30)
    assert ClockSetting.live(600).days is None
    assert ClockSetting.daily(7) == ClockSetting("daily", 7 * DAY)
    assert ClockSetting.daily(1).days == 1
    for bad in (29, 601, 0, -30, True, 30.0, "30"):
        with pytest.raises(ClockError, match="live clock has 30 to 600 seconds"):
            ClockSetting.live(bad)  # type: ignore[arg-type]
    for bad in (0, 8, -1, True, 1.5):
        with pytest.raises(ClockError, match="daily clock has 1 to 7 days"):
            ClockSetting.daily(bad)  # type: ignore[arg-type]


def test_deadlines_and_the_time_left() -> None:
    deadline = deadline_after(NOON, 30)
    assert deadline == NOON + timedelta(seconds=30)
    assert seconds_left(deadline, NOON) == 30
    assert seconds_left(deadline, NOON + timedelta(seconds=29.001)) == 1  # rounded up
    assert seconds_left(deadline, deadline) == 0
    assert seconds_left(deadline, deadline + timedelta(hours=1)) == 0  # never negative
    week = deadline_after(NOON, 3 * DAY)
    assert days_left(week, NOON) == 3
    assert days_left(week, NOON + timedelta(seconds=1)) == 3  # 2 days 23:59:59: three
    assert days_left(week, NOON + timedelta(days=2)) == 1
    assert days_left(week, NOON + timedelta(days=3)) == 0
    # across a daylight saving change the deadline is the same in UTC: 24 h a day
    spring = datetime(2026, 3, 28, 17, 0, tzinfo=UTC)
    assert deadline_after(spring, DAY) - spring == timedelta(hours=24)


def test_the_turn_a_deadline_belongs_to() -> None:
    game = Game(RuleSet.parse("yatzy"), [Player("A"), Player("B")])
    state = game.new_initial_state(starter=1)
    assert turn_key(state) == "1:0"
    state.apply(Roll(()))  # the turn is the same while the dice roll and are kept
    assert turn_key(state) == "1:0"
    state.roll()
    assert turn_key(state) == "1:0"
    state.apply(Score("chance"))
    assert turn_key(state) == "0:1"
    solo = Game(RuleSet.parse("yatzy"), [Player("A")]).new_initial_state()
    assert turn_key(solo) == "0:0"


def test_the_injectable_clocks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    clock = SettableClock(NOON)
    assert clock.now() == NOON
    assert clock.advance(seconds=30, days=1) == NOON + timedelta(days=1, seconds=30)
    clock.set(NOON)
    assert clock.now() == NOON
    offset = tmp_path / "offset"
    file_clock = FileClock(offset)
    real = datetime.now(UTC)
    assert abs((file_clock.now() - real).total_seconds()) < 60  # no file: real time
    offset.write_text("3600\n")
    assert 3500 < (file_clock.now() - real).total_seconds() < 3700
    offset.write_text("nonsense")
    assert abs((file_clock.now() - real).total_seconds()) < 60
    monkeypatch.delenv("YATZY_TEST_CLOCK_FILE", raising=False)
    assert not isinstance(clock_from_env(), FileClock)
    monkeypatch.setenv("YATZY_TEST_CLOCK_FILE", str(offset))
    assert isinstance(clock_from_env(), FileClock)
