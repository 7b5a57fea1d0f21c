"""The advisor and the analysis in the terminal's words: a hint, a finished game's
analysis, and the analysis made ahead while the game is played.

Shared by the full screen (:mod:`yatzy.cli.tui`) and the line mode
(:mod:`yatzy.cli.play_session`): what they show comes from here as lines of words in
the game's language (:class:`AdvisorLines`), made off the screen's thread by the
callers.  The tables behind them may be still being prepared (a fresh install's Maxi):
the lines then say so, and :func:`yatzy.cli.play_common.prepare_in_background` builds
them in a child process.
"""

from __future__ import annotations

import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yatzy.analysis import ahead_enabled
from yatzy.cli import play_common  # its prepare_in_background, looked up at each call
from yatzy.cli.i18n import tr
from yatzy.cli.play_common import PeopleHistory, measured_levels, measured_words
from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.rules import Language

if TYPE_CHECKING:  # numpy and the solver: only where a game is analysed
    from yatzy.strategy.analyze import Analysis

_log = logging.getLogger("yatzy.cli")


class AdvisorLines(list[str]):
    """Lines in words from the advisor's table (a hint, a finished game's analysis);
    ``preparing`` when the table is still being built in the background and the lines
    only say so (the rest comes once it is ready)."""

    preparing: bool = False

    @classmethod
    def waiting(cls, text: str) -> AdvisorLines:
        """The one line that says the table is being prepared (``preparing`` set)."""
        lines = cls([text])
        lines.preparing = True
        return lines


def hint_lines(position: State, record: int | None, lang: Language) -> AdvisorLines:
    """The advisor's best options for ``position`` in words (the full screen's H, the
    line mode's ``hint``); it may load or build a table, so callers run it where a
    wait is shown.  Solo with a record to beat, the options are ranked first by the
    chance of beating it (where the target table is at hand), then by expected score."""
    from yatzy.bots import preparing
    from yatzy.strategy.advice_words import approximate_note, describe, loss_words, word
    from yatzy.strategy.advice_words import number as decimal_number
    from yatzy.strategy.advisor import advise

    if preparing("optimal", position.rules):
        # Its table is built in the background rather than behind a wait of minutes:
        # the first hint answers at once and says why it has no options yet.
        play_common.prepare_in_background("optimal", position)
        return AdvisorLines.waiting(tr("hint_preparing", lang))
    lines = AdvisorLines(_record_hint_lines(position, record, lang))
    try:
        advice = advise(position)
    except YatzyError as exc:
        lines.append(str(exc))
        return lines
    if lines:
        lines += ["", tr("tui_hint_for_points", lang)]
    lines.append(tr("tui_hint_value", lang, value=decimal_number(advice.value, lang)))
    if not advice.exact:
        lines.append(approximate_note(position.rules, lang))
    lines.append("")
    for rank, option in enumerate(advice.options[: 4 if record is not None else 8]):
        text = describe(position, option.action, lang)
        # The first option is the best one, not "as good" as some other.
        lost = word("best", lang) if rank == 0 else loss_words(option.loss, lang)
        lines.append(f"{text}  ({lost})")
    return lines


ANALYSIS_SHOWN = 8
"""The costliest decisions a finished game's analysis lists (it fits 80x24)."""
ANALYSIS_WIN_BUDGET = 0.2
"""CPU seconds per position of the analysis in win chance at a game's end and ahead of
it (the same, so that the end finds what was rated ahead; ``yatzy analyze --win``'s
default)."""


def analysis_lines(
    state: State, lang: Language, history: PeopleHistory | None = None
) -> AdvisorLines:
    """A finished game's analysis in words (the full screen's A at the end): per player
    the points lost to the best play and the mistakes, then the costliest decisions,
    as ``yatzy analyze`` rates them.  While the strategy table is being prepared (a
    fresh install's Maxi), the lines say so and ``preparing`` is set."""
    from yatzy.bots import preparing
    from yatzy.strategy.advice_words import number
    from yatzy.strategy.analyze import MISTAKE, analyze

    if preparing("optimal", state.rules):
        play_common.prepare_in_background("optimal", state)
        return AdvisorLines.waiting(tr("analysis_preparing", lang))
    try:
        analysis = analyze(state, lang)
    except YatzyError as exc:
        return AdvisorLines([tr("analysis_failed", lang, reason=str(exc))])
    lines = AdvisorLines()
    for p in analysis.players:
        if not p.complete:
            lines.append(tr("analysis_unrated", lang, name=p.name, points=p.final))
            continue
        lines.append(
            tr(
                "analysis_player",
                lang,
                name=p.name,
                points=p.final,
                mistakes=p.mistakes,
                decisions=p.decisions,
                loss=number(p.total_loss, lang),
            )
        )
    worst = sorted((d for d in analysis.decisions if d.loss > MISTAKE), key=lambda d: -d.loss)[
        :ANALYSIS_SHOWN
    ]
    lines += _win_lines(state, lang, history, analysis)
    lines.append("")
    if not worst:
        lines.append(tr("analysis_no_mistakes", lang))
        return lines
    lines.append(tr("analysis_costliest", lang))
    for d in worst:
        words = {"name": d.name, "turn": d.own_turn, "chosen": d.chosen, "best": d.best}
        lines.append(tr("analysis_mistake", lang, loss=number(d.loss, lang), **words))
    return lines


def _win_lines(
    state: State, lang: Language, history: PeopleHistory | None, analysis: Analysis
) -> list[str]:
    """With two or more players: each one's chance to win at the start and the chance
    given up to the best play (as ``yatzy analyze --win`` rates it, bots at their level),
    each person counted at the level their play has shown (:func:`rating_levels_of`, as
    the live chances and the web's analysis count them; said by name), else as playing
    their best; seconds where :func:`win_analysis_ahead` rated the turns while the game
    was played, else what is left in a worker per core.  ``analysis``: the game's points
    analysis, made already for the lines above (its losses measure the people)."""
    if len(state.players) < 2 or state.game.pad:
        return []
    from yatzy.strategy.advice_words import number
    from yatzy.strategy.win_analysis import analyze_wins
    from yatzy.strategy.win_spread import default_jobs, spread_wins

    measured = measured_levels(state, history, analysis)
    levels = rating_levels_of(state, measured)
    try:
        # What the analysis ahead left (all of it with the chances off, or in a game
        # shorter than a fresh install's compile) is rated in a worker per core.
        budget = ANALYSIS_WIN_BUDGET
        spread_wins(state, jobs=default_jobs(), levels=levels, budget=budget)
        win = analyze_wins(state, levels=levels, budget=budget)
    except YatzyError as exc:
        return ["", tr("analysis_win_failed", lang, reason=str(exc))]
    said = measured_words(state, measured, lang, history)
    title = tr("analysis_win_title_measured" if said else "analysis_win_title", lang)
    lines = ["", title]
    if said:
        lines.append(said)
    for s in win.players:
        start = win.points[0].chances[s.player] if win.points else 0.0
        words = {"name": s.name, "start": number(100 * start, lang)}
        given = number(100 * s.total_cost, lang)
        lines.append(tr("analysis_win_player", lang, given=given, costly=s.costly, **words))
    return lines


def rating_levels_of(state: State, measured: dict[int, str]) -> list[str | None]:
    """The level each seat is rated at in chance to win: a bot's own, a person's
    measured one (of :func:`measured_levels`), ``None`` (the best play) otherwise."""
    return [p.bot or measured.get(i) for i, p in enumerate(state.players)]


def win_analysis_ahead(state: State, history: PeopleHistory | None = None) -> None:
    """The game so far rated in win chance, in the background after each written box
    (the full screen's and the line mode's analysis ahead, as the web server's), each
    person at the level measured so far: the strategy layer remembers every rated
    position, so the analysis at the end (:func:`analysis_lines`) has only the last
    turn left to rate where the levels held (0.06 s against 15 s for a game of two).
    Nothing for a solo game, a score pad or while the strategy table is being
    prepared; a failure is only logged (the end does the work then)."""
    from yatzy.bots import preparing

    if len(state.players) < 2 or state.game.pad or preparing("optimal", state.rules):
        return
    from yatzy.strategy.win_analysis import analyze_wins

    levels = rating_levels_of(state, measured_levels(state, history))
    try:
        analyze_wins(state, levels=levels, budget=ANALYSIS_WIN_BUDGET)
    except YatzyError as exc:
        _log.info("the analysis ahead stopped at turn %d: %s", state.turn_number, exc)


class AnalysisAhead:
    """Hands each written box's game so far to ``rate`` (by default
    :func:`win_analysis_ahead`) in a daemon thread of its own, one at a time: a thread
    still busy is caught up with at the next box.  The full screen and the line mode
    call :meth:`after_write` whenever they draw; nobody waits for it.  Off where
    ``YATZY_ANALYSE_AHEAD=0`` (:data:`yatzy.analysis.AHEAD_ENV`), as on the web server."""

    def __init__(self, rate: Callable[[State], Any] | None = None) -> None:
        self.rate = rate or win_analysis_ahead
        self.enabled = ahead_enabled()
        self._turn = 0
        self._busy = False

    def after_write(self, state: State) -> None:
        """Rate the game so far if a box was written since the last call (and none is
        being rated); a roll, the dice rolling and the game's end hand nothing on."""
        if not self.enabled or self._busy or state.is_terminal() or state.is_chance_node():
            return
        if state.turn_number <= self._turn:
            return
        self._turn = state.turn_number
        self._busy = True
        position = state.clone()

        def run() -> None:
            try:
                self.rate(position)
            except Exception:  # the analysis at the end does the work then
                _log.warning("the analysis ahead failed", exc_info=True)
            finally:
                self._busy = False

        threading.Thread(target=run, daemon=True, name="yatzy-ahead").start()


def _record_hint_lines(position: State, record: int | None, lang: Language) -> list[str]:
    """Solo: the options ranked by the chance of beating ``record`` (target play), in
    words; none without a record or where the target table is not at hand yet (the
    record's line starts building it in the background:
    :func:`~yatzy.cli.play_common.build_target_in_background`)."""
    if record is None:
        return []
    from yatzy.strategy.advice_words import describe, word
    from yatzy.strategy.advice_words import number as decimal
    from yatzy.strategy.advisor import advise_target
    from yatzy.strategy.target_play import target_table_for

    if target_table_for(position.rules, build=False) is None:
        return []
    try:
        advice = advise_target(position, record + 1)
    except YatzyError:
        return []
    percent = decimal(100 * float(advice.value), lang)
    lines = [tr("tui_hint_record", lang, record=record, percent=percent), ""]
    for rank, option in enumerate(advice.options[:6]):
        text = describe(position, option.action, lang)
        lost = 100 * float(option.loss)
        if rank == 0:
            words = word("best", lang)
        elif lost < 0.05:
            words = word("as_good", lang)
        else:
            words = tr("tui_hint_chance_lost", lang, points=decimal(lost, lang))
        lines.append(f"{text}  ({words})")
    return lines
