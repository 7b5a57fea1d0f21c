"""What the full-screen game shows: the sheet, the dice, the status line, the chances.

:class:`SheetDrawing` is the part of :class:`yatzy.cli.tui.app.YatzyApp` that draws
the state: the sheet in one table or, on a short screen, in two side by side, the
dice bar, the status and message lines, the cursor on the sheet, and the players'
live chances to win, computed off the screen's thread (:meth:`SheetDrawing._in_background`)
and never shown as current once the position has moved on.
"""

from __future__ import annotations

import contextlib
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rich.text import Text
from textual.containers import Horizontal
from textual.widgets import Static

from yatzy.cli.i18n import tr
from yatzy.cli.play_advice import AnalysisAhead
from yatzy.cli.play_common import (
    CHANCES_TIMEOUT_SECONDS,
    PeopleHistory,
    chance_position,
    measured_line,
    record_line,
)
from yatzy.cli.terminal import headline, player_label, ready
from yatzy.cli.tui.saving import SavingApp
from yatzy.cli.tui.sheetview import (
    YATZY,
    SheetRow,
    best_boxes,
    current_seat,
    failed_cells,
    final_cells,
    is_yatzy,
    player_heads,
    sheet_rows,
    split_rows,
    unavailable_cells,
)
from yatzy.cli.tui.widgets import FIXED, DiceBar, MessageLines, SheetTable
from yatzy.game.actions import Entry
from yatzy.rules import format_die

if TYPE_CHECKING:
    from yatzy.bots import Bot

MESSAGES_KEPT = 3
"""Lines of the message area (it must fit 80x24 with the sheet)."""
CHANCES_SLOW_SECONDS = 1.0
"""After this long without a game's first chances to win, a message says they are
being worked out (on a fresh install their kernels compile for some seconds)."""
_CHROME = 8  # lines around the sheet: headline, dice (2), status, messages (3), keys

_log = logging.getLogger(__name__)


class _Failed:
    """What a chance computation that raised hands back (its exception, for the log)."""

    def __init__(self, exc: Exception) -> None:
        self.exc = exc


class SheetDrawing(SavingApp):
    """The game's drawing (see the module docstring); the app around it holds the
    state of play and the keys."""

    chances_of: Callable[[Any], Any] | None
    ahead: AnalysisAhead | None
    history: PeopleHistory | None
    _chances: Any
    _chances_for: tuple[Any, ...] | None
    _chances_busy: bool
    _chances_failed: tuple[Any, ...] | None
    _measured_said: str = ""
    # Not available (a table not built, as Maxi's): the row shows "–" and one message
    # says why; a first computation that takes over a second is said once too.
    _chances_unavailable: bool = False
    _chances_waits_said: bool = False
    _chances_run: int = 0  # the computations started, to match a time-out to its own
    _chances_overdue: bool = False  # a computation past CHANCES_TIMEOUT_SECONDS, still out
    _overdue_said: bool = False
    in_grace: bool
    """A person's write may still be taken back: a bot waits, or the game's end."""
    split: bool
    record: int | None
    bots: dict[int, Bot]
    keep: set[int]
    armed: bool
    scratching: bool
    pick: dict[str, Entry]
    cursor_box: str | None
    messages: list[str]
    bot_busy: bool
    preparing: bool
    stand_in_seats: set[int]
    _heads: list[str]
    _background: int

    # -- layout ----------------------------------------------------------------------------

    def _wants_split(self, height: int) -> bool:
        """Two columns when the whole sheet in one does not fit the screen's ``height``
        (80×24: the upper section with Sum, Bonus and Total beside the lower one)."""
        rows = len(self._rows())
        return rows + 1 + _CHROME > height

    def _rows(self) -> list[SheetRow]:
        picked = {entry.box: layer for layer, entry in self.pick.items()}
        return sheet_rows(self.state, self.lang, picked, chances=self._chance_cells())

    def _layout_sheet(self, width: int, height: int) -> None:
        """Build the sheet in one table, or in two side by side on a short screen."""
        state = self.state
        self.split = split = self._wants_split(height)
        now_head = tr("now", self.lang)
        now_width = max(4 if split else 5, len(now_head))  # "(30)"
        if state.rules.double:
            now_head = "◦ ●"
            now_width = 7  # "◦12 -30"
        rows = self._rows()
        if split:
            head = _split_head_width(width, [p.name for p in state.players], rows, now_width)
        else:
            head = 12 if len(state.players) <= 6 else 6
        self._heads = player_heads(state, head)
        first, second = self._tables()
        box = self.query_one("#sheets", Horizontal)
        box.set_class(split, "split")
        if not split:
            first.build(self._heads, now_head, now_width, rows)
            first.styles.width = "1fr"
            second.clear(columns=True)
            return
        left, right = split_rows(rows)
        need = first.build(self._heads, now_head, now_width, left, compact=True)
        second.build(self._heads, now_head, now_width, right, compact=True)
        # The left column as wide as it needs (up to half the screen); the right the rest.
        first.styles.width = min(need, max(width // 2 - 1, 1))

    def _tables(self) -> tuple[SheetTable, SheetTable]:
        return self.query_one("#sheet", SheetTable), self.query_one("#sheet2", SheetTable)

    def _record_found(self, record: int | None) -> None:
        self._background -= 1
        if self.record is None:
            self.record = record
            self._redraw()

    @property
    def sheet(self) -> SheetTable:
        """The sheet widget (on a short screen: its left column, the upper section)."""
        return self.query_one("#sheet", SheetTable)

    # -- drawing ---------------------------------------------------------------------------

    def _say(self, text: str) -> None:
        self.messages.append(text)
        del self.messages[:-MESSAGES_KEPT]

    def _redraw(self) -> None:
        state = self.state
        lang = self.lang
        self._update_chances()
        self._analyse_ahead()
        rows = self._rows()
        seat = current_seat(state)
        first, second = self._tables()
        if self.split:
            left, right = split_rows(rows)
            first.show(left)
            second.show(right)
            second.mark_player(self._heads, seat)
        else:
            first.show(rows)
        first.mark_player(self._heads, seat)
        self._place_cursor()
        self.query_one("#headline", Static).update(headline(state, lang))
        dice = self.query_one(DiceBar)
        faces: list[str] = []
        rolls = ""
        if ready(state):
            assert state.dice is not None
            faces = [format_die(d) for d in state.dice]
            rolls = tr("rolls_left", lang, n=state.rolls_left(), max=state.max_rolls())
            if state.rules.saves_rolls and state.sheet.saved_rolls:
                rolls += tr("saved_rolls", lang, n=state.sheet.saved_rolls)
            # On the rolls line: the status line below is full with the keys to use.
            rolls += self._record_text(short=True)
        dice.show_dice(
            faces,
            self.keep,
            yatzy=is_yatzy(state),
            rolls=rolls,
            label=tr("dice", lang) + (" ◦/●" if state.rules.double else ""),
        )
        self.query_one("#status", Static).update(self._status())
        self.query_one(MessageLines).show_lines(self.messages, self.error)
        if state.is_terminal():
            keys = tr("tui_keys_final" if self.in_grace else "tui_keys_over", lang)
        else:
            keys = tr("tui_keys", lang)
        self.query_one("#keys", Static).update(keys)

    # -- live chances to win ---------------------------------------------------------------

    def _position(self) -> tuple[Any, ...]:
        """What the chances depend on (:func:`~yatzy.cli.play_common.chance_position`)."""
        return chance_position(self.state)

    def _chance_cells(self) -> tuple[Any, ...] | bool | None:
        if self.chances_of is None:
            return False
        if self.state.is_terminal():
            return final_cells(self.state)  # the result itself, never a figure from before
        here = self._position()
        if self._chances_failed == here or self._chances_overdue:
            return failed_cells(self.state)
        if self._chances is None:
            return unavailable_cells(self.state) if self._chances_unavailable else None
        from yatzy.cli.tui.sheetview import chance_cells

        return chance_cells(self._chances, self._chances_for != here)

    def _update_chances(self) -> None:
        """Start computing the chances of the position on the table, one at a time."""
        state = self.state
        compute = self.chances_of
        if compute is None or self._chances_busy or state.is_chance_node():
            return
        if state.is_terminal():
            return
        here = self._position()
        if here in (self._chances_for, self._chances_failed):
            return
        self._chances_busy = True
        position = state.clone()
        if self._chances is None and not self._chances_unavailable:
            # A fresh install's first figures wait for their kernels to compile.
            self.set_timer(CHANCES_SLOW_SECONDS, self._say_chances_wait)
        self._chances_run += 1
        run = self._chances_run
        self.set_timer(CHANCES_TIMEOUT_SECONDS, lambda: self._chances_timed_out(run))

        def task() -> Any:
            try:
                return compute(position)
            except Exception as exc:  # no chances is no reason to stop the game
                return _Failed(exc)

        def done(result: Any) -> None:
            if self._chances_overdue:  # counted out of the thinking when it timed out
                self._chances_overdue = False
            else:
                self._background -= 1
            self._chances_busy = False
            if isinstance(result, _Failed):
                # Never the last figure as if it were current: "?" and the reason, logged.
                exc = result.exc
                _log.warning("live chances to win failed at %s", here, exc_info=exc)
                if self._chances_failed is None:  # the exception is in the log, not the words
                    reason = tr("win_reason_error", self.lang)
                    self._say(tr("tui_chances_failed", self.lang, reason=reason))
                self._chances_failed = here
            elif result is not None:
                self._chances = result
                self._chances_for = here
                self._chances_unavailable = False
                # Who counts at the level their play has shown: said once, when it changes.
                measured = measured_line(self.state, result, self.lang, self.history)
                if measured and measured != self._measured_said:
                    self._say(measured)
                self._measured_said = measured
            else:  # not available (a table not built): "–" and why, never an old figure
                self._chances = None
                self._chances_for = here
                if not self._chances_unavailable:
                    reason = tr("win_reason_table", self.lang)
                    self._say(tr("win_line_pending", self.lang, reason=reason))
                self._chances_unavailable = True
            self._redraw()

        self._in_background(task, done)

    def _chances_timed_out(self, run: int) -> None:
        """A computation of the chances still out after :data:`CHANCES_TIMEOUT_SECONDS`
        (one that never returns froze the row for rounds): "?" from now on and why,
        once, until it comes; it no longer counts as the app's thinking.  No second
        one is started beside it (its answer, if it comes, lets the next one start)."""
        if run != self._chances_run or not self._chances_busy or self._chances_overdue:
            return
        self._chances_overdue = True
        self._background -= 1
        _log.warning("live chances to win: no answer after %s s", CHANCES_TIMEOUT_SECONDS)
        if not self._overdue_said:
            self._overdue_said = True
            seconds = round(CHANCES_TIMEOUT_SECONDS)
            self._say(tr("tui_chances_overdue", self.lang, seconds=seconds))
        self._redraw()

    def _analyse_ahead(self) -> None:
        """After a written box, the game so far analysed in a thread of its own
        (:class:`~yatzy.cli.play_advice.AnalysisAhead`); not counted as the app's
        thinking: nobody waits for it."""
        if self.ahead is not None:
            self.ahead.after_write(self.state)

    def _say_chances_wait(self) -> None:
        """Once a game, when its first chances take over a second: what the "…" waits for."""
        if self._chances_busy and self._chances is None and not self._chances_waits_said:
            self._chances_waits_said = True
            self._say(tr("tui_chances_pending", self.lang))
            self._redraw()

    def _status(self) -> Text:
        status = self._status_text()
        state = self.state
        if not ready(state):
            status = status + Text(self._record_text(short=True))
        if not state.is_terminal() and is_yatzy(state):
            # The moment of a Yatzy: named on the status line, in the dice's colour.
            box = "maxi_yatzy" if "maxi_yatzy" in state.rules.boxes else "yatzy"
            shout = Text(f"{state.rules.box_name(box, self.lang)}! ", style=YATZY)
            return shout + status
        return status

    def _record_text(self, *, short: bool = False) -> str:
        """Solo with a record: "  ·  " and the live chance of beating it (else "");
        ``short`` for the rolls line, which must fit 80 columns in every language."""
        state = self.state
        if self.record is None or state.is_terminal() or state.is_chance_node():
            return ""
        return "  ·  " + record_line(state, self.record, self.lang, short=short)

    def _grace_words(self) -> str:
        """What the grace waits for, in one line: the bot to play next, or the end of
        the game over its last write."""
        state = self.state
        if state.is_terminal():
            writer = state.undo_seat()
            name = player_label(state, state.player if writer is None else writer, self.lang)
            return tr("tui_final", self.lang, name=name)
        return tr("tui_grace", self.lang, name=player_label(state, state.player, self.lang))

    def _status_text(self) -> Text:
        state = self.state
        lang = self.lang
        if self.in_grace:
            return Text(self._grace_words(), style="bold")
        if state.is_terminal():
            return Text("")
        name = player_label(state, state.player, lang)
        if self.preparing and state.player in self.stand_in_seats:
            return Text(tr("bot_stand_in", lang, name=name), style="italic")
        if self.bot_busy or state.player in self.bots:
            return Text(tr("tui_bot_thinking", lang, name=name), style="italic")
        if state.dice is None:
            return Text(tr("tui_first_roll", lang, name=name), style="bold")
        if self.scratching:
            return Text(tr("tui_scratch_mode", lang), style="bold red")
        if "inner" in self.pick:
            box = state.rules.box_name(self.pick["inner"].box, lang)
            return Text(tr("tui_pick_outer", lang, box=box), style="bold yellow")
        if state.rules.double:
            return Text(tr("tui_pick_inner", lang))
        if state.rolls_left():
            return Text(tr("tui_choose", lang, n=state.rules.num_dice))
        return Text(tr("tui_choose_last", lang))

    def _candidates(self) -> list[str]:
        """Boxes the cursor steps between: the allowed ones once the dice are out."""
        state = self.state
        if state.is_terminal() or state.starter is None:
            return list(state.rules.boxes)
        if ready(state):
            allowed = state.allowed_boxes()
            if allowed:
                return [b for b in state.rules.boxes if b in allowed]
        return state.sheet.open_boxes or list(state.rules.boxes)

    def _place_cursor(self) -> None:
        state = self.state
        candidates = self._candidates()
        if self.cursor_box not in state.rules.boxes or (
            not self.armed and self.cursor_box not in candidates
        ):
            best = [b for b in candidates if b in best_boxes(state)]
            self.cursor_box = (best or candidates)[0]
        seat = current_seat(state)
        column = FIXED + (seat if seat is not None else 0)
        for table in self._tables():
            # The cursor shows in the column (of two on a short screen) that holds the box.
            has_box = bool(table.columns) and self.cursor_box in table.rows
            table.show_cursor = has_box
            if has_box:
                table.move_cursor(row=table.get_row_index(self.cursor_box), column=column)

    # -- background work -------------------------------------------------------------------

    def _in_background(self, task: Callable[[], Any], done: Callable[[Any], None]) -> None:
        """Run ``task`` in a daemon thread and hand its result to ``done`` on the screen's
        thread.  Daemon, so quitting never waits for a long solve (a hint, a strong bot)."""

        def run() -> None:
            try:
                result = task()
            except Exception as exc:  # a bug in a bot: say it rather than hang the game
                self._hand_over(self._thread_failed, exc)
                return
            self._hand_over(done, result)

        self._background += 1
        threading.Thread(target=run, daemon=True, name="yatzy-think").start()

    def _hand_over(self, callback: Callable[[Any], None], value: Any) -> None:
        """Call ``callback(value)`` on the screen's thread, from a background thread;
        nothing once the app has stopped.  Asked of a stopped app, Textual's
        ``call_from_thread`` raises, and the coroutine it made for the call is left
        unawaited (a RuntimeWarning at the end of a test run)."""
        if not self.is_running:
            return
        with contextlib.suppress(RuntimeError):  # the app stopped after the check
            self.call_from_thread(callback, value)

    def _thread_failed(self, exc: Exception) -> None:
        self._background -= 1
        self.error = f"{type(exc).__name__}: {exc}"
        self._redraw()

    @property
    def thinking(self) -> bool:
        """Whether a bot or the advisor is still working in the background."""
        return self._background > 0


def _split_head_width(width: int, names: list[str], rows: list[SheetRow], now_width: int) -> int:
    """The longest a player's name may be in the two-column sheet of a short screen:
    the most (up to 12) that lets both halves fit ``width`` columns and the left one
    half the screen (a Finnish "Tavallinen" whole at 80 columns beside another name),
    at least 4 (the layout's old figure for a crowded table)."""
    left, right = split_rows(rows)

    def fixed(half: list[SheetRow]) -> int:
        # The letter, the label and "now", one space after each (the compact table).
        return 2 + max((len(r.label.text) for r in half), default=0) + 1 + now_width + 1

    for most in range(12, 4, -1):
        heads = sum(max(4, min(len(n), most)) + 1 for n in names)
        if (
            fixed(left) + heads <= width // 2 - 1
            and fixed(left) + fixed(right) + 2 * heads <= width - 1
        ):
            return most
    return 4
