"""Post-game analysis in win chance on constructed end games (sub-games solve in
moments): a decision that threw away a certain win costs nearly all of it, the best
decision costs 0, the chart starts at the pre-game chances and ends at the result
(ties shared), the solo record variant, simulated positions with a margin."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from yatzy.errors import YatzyError
from yatzy.game import BoxEntry, Game, Player, Roll, Score, Scratch, State
from yatzy.strategy import outcomes
from yatzy.strategy.win_analysis import analyze_wins, forget_analysed
from yatzy.strategy.win_chance import win_chances


@pytest.fixture(autouse=True)
def _private_cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Tables go to a temporary cache and no whole-game table is found (as in
    test_win_chance): only sub-games are solved, in moments."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg-cache"))
    monkeypatch.setattr(outcomes, "_whole_table", lambda rules: None)
    for name in ("_EV_WHOLE", "_EV_MISSING", "_EV_SUBGAMES", "_SUBGAMES"):
        monkeypatch.setattr(outcomes, name, type(getattr(outcomes, name))())
    forget_analysed()  # each test's positions analysed afresh, under its own tables
    yield
    forget_analysed()


def _end_game(spec: str = "yatzy", bots: tuple[str | None, str | None] = (None, None)) -> State:
    """A's sheet: 100 points, yatzy and ones open; B's: 113, chance and ones open.
    A to play: B can reach 145 at most, so A's Yatzy (50) wins surely."""
    game = Game(spec, [Player("A", bots[0]), Player("B", bots[1])])
    state = game.new_initial_state(starter=0)
    for i, sheet in enumerate(state.sheets):
        for box in state.rules.boxes:
            sheet.entries[box] = BoxEntry(0)
        sheet.entries["yatzy" if i == 0 else "chance"] = None
        sheet.entries["ones"] = None
    a, b = state.sheets
    for box, points in (("chance", 30), ("large_straight", 20), ("full_house", 28)):
        a.entries[box] = BoxEntry(points)
    a.entries["four_of_a_kind"] = BoxEntry(22)
    for box, points in (("yatzy", 50), ("full_house", 28), ("large_straight", 20)):
        b.entries[box] = BoxEntry(points)
    b.entries["small_straight"] = BoxEntry(15)
    state.turn_number = 2 * (len(state.rules.boxes) - 2)
    return state


def _play(start: State, blunder: bool) -> State:
    """A rolls five sixes at once and writes Yatzy (or, blundering, scratches Ones)."""
    s = start.clone()
    s.apply(Roll())
    s.apply_roll([6, 6, 6, 6, 6])
    s.apply(Scratch("ones") if blunder else Score("yatzy"))
    s.apply(Roll())
    s.apply_roll([1, 1, 2, 3, 4])
    s.apply(Roll((0, 1)))
    s.apply_roll([1, 1, 1])
    s.apply(Score("ones"))
    s.apply(Roll())
    s.apply_roll([2, 2, 3, 4, 5])
    s.apply(Roll((0, 1)))
    s.apply_roll([6, 6, 6])
    s.apply(Score("yatzy" if blunder else "ones"))
    s.apply(Roll())
    s.apply_roll([3, 3, 3, 3, 6])
    s.apply(Score("chance"))
    assert s.is_terminal()
    return s


def test_throwing_away_a_certain_win_shows_a_large_loss() -> None:
    start = _end_game()
    result = analyze_wins(_play(start, blunder=True), start=start, budget=1.0)
    assert result.exact and result.margin == 0.0 and result.goal == "win"
    first = result.decisions[0]
    assert first.player == 0 and first.decision.kind == "box"
    assert first.best_chance == pytest.approx(1.0)
    assert first.before == pytest.approx(1.0)
    # Only another Yatzy in the last turn wins now (about 4.6 %).
    assert 0.02 < first.after < 0.08
    assert first.cost > 0.9
    assert first.best == "score yatzy"
    assert first.decision.loss > 40  # the points it cost, beside
    assert result.players[0].costly >= 1 and result.players[0].worst[0] is first
    # B's choices could not change anything: they cost no chance at all.
    assert all(d.cost == 0.0 for d in result.decisions if d.player == 1)


def test_the_best_decisions_cost_nothing_and_the_chart_spans_the_game() -> None:
    start = _end_game()
    result = analyze_wins(_play(start, blunder=False), start=start, budget=1.0)
    first = result.decisions[0]
    assert first.cost == 0.0 and first.after == pytest.approx(1.0)
    assert first.best == first.decision.chosen
    assert all(d.cost < 1e-9 for d in result.decisions)
    assert result.players[0].total_cost == pytest.approx(0.0, abs=1e-9)
    # The chart: one point per turn and the end; it starts at the pre-game chances.
    assert [p.turn for p in result.points] == [0, 1, 2, 3, 4]
    pre = win_chances(start, budget=1.0)
    assert result.points[0].chances == pytest.approx(pre.chances, abs=1e-9)
    assert 0.0 < result.points[0].chances[0] < 1.0
    assert result.points[-1].chances == (1.0, 0.0)
    assert all(sum(p.chances) == pytest.approx(1.0) for p in result.points)
    as_json = result.to_json()
    assert len(as_json["chart"]) == 5 and as_json["decisions"][0]["cost"] == 0.0


def test_a_tie_shares_the_last_point() -> None:
    start = _end_game()
    s = _play(start, blunder=False)
    assert s.totals() == [150, 136]
    # B's Four of a kind, filled before the end game, makes the totals equal.
    tie = BoxEntry(150 - 136)
    start.sheets[1].entries["four_of_a_kind"] = s.sheets[1].entries["four_of_a_kind"] = tie
    assert s.totals() == [150, 150]
    result = analyze_wins(s, start=start, budget=1.0)
    assert result.points[-1].chances == (0.5, 0.5)
    assert 0.0 < result.points[0].chances[1] < 1.0


def test_solo_record_is_the_chance_of_beating_it() -> None:
    game = Game("yatzy", ["Solo"])
    start = game.new_initial_state(starter=0)
    sheet = start.sheets[0]
    for box in start.rules.boxes:
        sheet.entries[box] = BoxEntry(0)
    sheet.entries["yatzy"] = None
    sheet.entries["chance"] = None
    sheet.entries["sixes"] = BoxEntry(24)  # 24 so far
    start.turn_number = len(start.rules.boxes) - 2
    s = start.clone()
    s.apply(Roll())
    s.apply_roll([5, 5, 5, 5, 5])
    s.apply(Score("chance"))  # 25 (the Yatzy would have given 50)
    s.apply(Roll())
    s.apply_roll([1, 2, 3, 4, 6])
    s.apply(Roll(()))
    s.apply_roll([2, 3, 3, 4, 6])
    s.apply(Roll(()))
    s.apply_roll([1, 1, 2, 3, 4])
    s.apply(Scratch("yatzy"))
    assert s.is_terminal() and s.totals() == [49]
    result = analyze_wins(s, start=start, record=60, budget=1.0)
    assert result.goal == "record" and result.record == 60 and result.exact
    first = result.decisions[0]
    # Yatzy: 74 points, over the record for sure; Chance: 49 + Yatzy's 50 only.
    assert first.best_chance == pytest.approx(1.0) and first.best == "score yatzy"
    assert first.after < 0.1 and first.cost > 0.9
    assert result.points[-1].chances == (0.0,)
    assert len(result.points[0].chances) == 1
    beaten = analyze_wins(s, start=start, record=40, budget=1.0)
    assert beaten.points[-1].chances == (1.0,)
    assert beaten.decisions[0].cost == 0.0  # either box beats 40 surely
    with pytest.raises(YatzyError, match="record"):
        analyze_wins(s, start=start, budget=1.0)


@pytest.mark.slow
def test_simulated_positions_state_their_margin() -> None:
    # Maxi has no target tables: every chance is simulated, with a margin.
    game = Game("maxi", ["A", "B"])
    start = game.new_initial_state(starter=0)
    for sheet in start.sheets:
        for box in start.rules.boxes:
            sheet.entries[box] = BoxEntry(0)
        sheet.entries["chance"] = None
    start.sheets[1].entries["ones"] = BoxEntry(3)
    start.turn_number = 2 * (len(start.rules.boxes) - 1)
    s = start.clone()
    s.apply(Roll())
    s.apply_roll([1, 1, 1, 1, 1, 2])
    s.apply(Roll(()))
    s.apply_roll([6, 6, 6, 6, 6, 5])
    s.apply(Score("chance"))
    s.apply(Roll())
    s.apply_roll([1, 1, 1, 1, 2, 2])
    s.apply(Score("chance"))
    assert s.is_terminal()
    result = analyze_wins(s, start=start, budget=0.3)
    assert not result.exact and 0.0 < result.margin < 0.2
    keep, box = result.decisions[0], result.decisions[1]
    assert keep.decision.kind == "keep" and not keep.exact and keep.margin > 0
    # A's 35 at Chance beats B's 3 + at most 36 only ... by far: the write costs nothing.
    assert box.cost == 0.0
    assert result.points[-1].chances == (1.0, 0.0)
    assert result.simulated >= 1


def test_bad_arguments_are_refused() -> None:
    start = _end_game()
    s = _play(start, blunder=False)
    with pytest.raises(YatzyError, match="budget"):
        analyze_wins(s, start=start, budget=0)
    with pytest.raises(YatzyError, match="record"):
        analyze_wins(s, start=start, record=100)
    with pytest.raises(YatzyError, match="levels"):
        analyze_wins(s, start=start, levels=["person"])
    with pytest.raises(YatzyError, match="unknown level"):
        analyze_wins(s, start=start, levels=["person", "wizard"])
    with pytest.raises(YatzyError):
        analyze_wins("not a state")  # type: ignore[arg-type]


@pytest.mark.slow
def test_bots_are_rated_at_their_level() -> None:
    start = _end_game(bots=(None, "casual"))
    result = analyze_wins(_play(start, blunder=True), start=start, budget=0.3)
    assert result.levels == ("person", "casual")
    assert result.decisions[0].cost > 0.85
    # B (a bot) is simulated: its chances carry a margin.
    assert any(not d.exact for d in result.decisions if d.player == 1)


def test_a_game_analysed_turn_by_turn_leaves_only_its_last_turn_at_the_end(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # Issue 24 (analysis within seconds of the last box): each turn analysed as the
    # game goes is remembered, so the analysis at the end rates only the last turn,
    # and gives exactly what one analysis of the whole game gives.
    from yatzy.strategy import win_analysis

    start = _end_game()
    end = _play(start, blunder=True)
    whole = analyze_wins(end, start=start, budget=1.0, lang="sv").to_json()
    forget_analysed()
    rated: list[int] = []
    rate = win_analysis._rate
    monkeypatch.setattr(win_analysis, "_rate", lambda *a: (rated.append(a[3]), rate(*a))[1])
    for turns in range(1, len(end.log)):  # after each box written, as the server does
        partial = _replayed(start, end, turns)
        analyze_wins(partial, start=start, budget=1.0, lang="en")
    before_end = len(rated)
    again = analyze_wins(end, start=start, budget=1.0, lang="sv").to_json()
    last_turn = [d for d in again["decisions"] if d["turn"] == len(end.log)]
    assert len(rated) - before_end == len(last_turn) >= 1  # only the last turn's
    for got, want in zip(again["decisions"], whole["decisions"], strict=True):
        assert got == want  # in the viewer's words though warmed in another language
    assert again["chart"] == whole["chart"] and again["players"] == whole["players"]


def _replayed(start: State, end: State, turns: int) -> State:
    """``end``'s game after its first ``turns`` turns, replayed from ``start``."""
    s = start.clone()
    for turn in end.log[len(start.log) : len(start.log) + turns]:
        for r, roll in enumerate(turn["rolls"]):
            keep = tuple(roll["keep"])
            s.apply(Roll(keep) if r else Roll())
            s.apply_roll([d for i, d in enumerate(roll["dice"]) if i not in keep])
        s.apply(Scratch(turn["box"]) if turn.get("scratch") else Score(turn["box"]))
    return s


def test_a_position_computed_by_one_thread_is_waited_for_not_computed_again() -> None:
    """Issue 24: the analysis at a game's end takes over the positions the background
    analysis is computing (one computation per position), and computes one itself
    where that computation failed."""
    import threading

    from yatzy.strategy import win_analysis

    started, release = threading.Event(), threading.Event()
    calls: list[str] = []

    def slow() -> str:
        calls.append("background")
        started.set()
        release.wait(30)
        return "rated"

    def again() -> str:
        calls.append("end")
        return "rated again"

    got: list[str] = []
    background = threading.Thread(
        target=lambda: got.append(win_analysis._remembered(("decide", "k", 0), slow))
    )
    background.start()
    assert started.wait(30)
    end = threading.Thread(
        target=lambda: got.append(win_analysis._remembered(("decide", "k", 0), again))
    )
    end.start()
    release.set()
    background.join(30)
    end.join(30)
    assert calls == ["background"]
    assert got == ["rated", "rated"]

    # A failed computation is not handed on as the answer: the waiting thread computes.
    started.clear()
    release.clear()

    def failing() -> str:
        started.set()
        release.wait(30)
        raise YatzyError("stopped")

    errors: list[Exception] = []

    def fail_in_background() -> None:
        try:
            win_analysis._remembered(("decide", "f", 0), failing)
        except YatzyError as exc:
            errors.append(exc)

    background = threading.Thread(target=fail_in_background)
    background.start()
    assert started.wait(30)
    end = threading.Thread(
        target=lambda: got.append(win_analysis._remembered(("decide", "f", 0), again))
    )
    end.start()
    release.set()
    background.join(30)
    end.join(30)
    assert len(errors) == 1 and got[-1] == "rated again"
