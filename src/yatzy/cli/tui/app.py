"""The full-screen game: a Textual app over :class:`~yatzy.game.State`.

The app turns keys into the core's actions (``Roll``, ``Score``, ``Scratch``,
``Fill2``, ``Undo``), lets the state check and apply them, and redraws what the
state says.  The questions both front ends ask before a write (does this 0
throw points away?) and the rescue file come from :mod:`yatzy.cli.play_common`.

Guards against slips, as in the line mode and the web app: Enter never rolls
once the dice are out, Space rolls them again only after a keep choice, rolling
away a Yatzy asks, Enter writes only a box the player chose this roll, a 0
where the dice score elsewhere asks, quitting an unfinished game offers to
save it (to the rescue folder by default), and no file is replaced unasked.
"""

from __future__ import annotations

import logging
import math
import random
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from textual import events
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.timer import Timer
from textual.widgets import Static

from yatzy.bots import QUICK_BOTS
from yatzy.cli.cmd_rules import rules_lines
from yatzy.cli.i18n import tr
from yatzy.cli.play_advice import AdvisorLines, AnalysisAhead, analysis_lines, hint_lines
from yatzy.cli.play_common import (
    PeopleHistory,
    explain_refusal,
    prepare_analysis,
    rescue_dir,
    wastes_dice,
    written_messages,
)
from yatzy.cli.terminal import (
    headline,
    kept_positions,
    opening_lines,
    player_label,
    protocol_table,
    ready,
    result_lines,
)
from yatzy.cli.tui.drawing import MESSAGES_KEPT
from yatzy.cli.tui.keymap import box_for_key
from yatzy.cli.tui.screens import TextScreen
from yatzy.cli.tui.sheetview import is_yatzy
from yatzy.cli.tui.turns import BotTurns
from yatzy.cli.tui.widgets import DiceBar, MessageLines, SheetTable
from yatzy.errors import YatzyError
from yatzy.game import Action, Dealer, Fill2, Roll, Score, Scratch, State, Undo
from yatzy.game.actions import Entry
from yatzy.rules import Language

if TYPE_CHECKING:
    from yatzy.bots import Bot


GRACE_SECONDS = math.inf
"""How long a bot waits after a person's write before its turn, while U can take it
back: until the person's next key (Enter, Space or R), however long that takes (the
issue's "until your next action"; nobody else waits at one keyboard)."""

_log = logging.getLogger(__name__)


class YatzyApp(BotTurns):
    """One game at one keyboard, full screen: people and bots in seat order.

    ``rng`` rolls the dice, ``bot_rng`` gives each bot decision its random source,
    ``save_path`` (``--save``/``--resume``) receives the record after every move,
    and ``bot_delay`` seconds pass after each of a bot's moves so people can
    follow them.  After a person's write a bot waits ``grace`` seconds (``math.inf``:
    however long; or until the person presses Enter, Space or R) before its turn, so
    U can still take the write back: no dice are rolled for a decision that may yet
    be undone.
    :attr:`exit_lines` are printed on the terminal after the app.
    """

    TITLE = "yatzy"
    ENABLE_COMMAND_PALETTE = False
    CSS = """
    Screen { layout: vertical; }
    #headline { height: 1; background: $primary; color: $text; padding: 0 1; }
    #sheets { height: 1fr; }
    #sheets SheetTable { height: 1fr; width: 1fr; }
    #sheets #sheet2 { display: none; }
    #sheets.split #sheet2 { display: block; }
    #sheets.split #sheet { margin-right: 1; }
    #dice { height: 2; padding: 0 1; }
    #status { height: 1; padding: 0 1; color: $text-muted; }
    #messages { height: 3; padding: 0 1; }
    #keys { height: 1; background: $panel; padding: 0 0 0 1; }
    """
    BINDINGS = [  # noqa: RUF012 (Textual's own class attribute)
        Binding("ctrl+q,ctrl+c,ctrl+d", "request_quit", show=False, priority=True),
        Binding("ctrl+s", "save", show=False, priority=True),
    ]

    def __init__(
        self,
        state: State,
        *,
        record: int | None = None,
        record_lookup: Callable[[], int | None] | None = None,
        lang: Language = "en",
        rng: random.Random | Dealer,
        bots: dict[int, Bot] | None = None,
        bot_rng: Callable[[State], random.Random] | None = None,
        save_path: str | None = None,
        bot_delay: float = 0.0,
        resumed_from: str | None = None,
        rescue_directory: str | None = None,
        on_finished: Callable[[State], str] | None = None,
        chances: Callable[[State], Any] | None = None,
        autosave_path: str | None = None,
        grace: float = 0.0,
        history: PeopleHistory | None = None,
        ahead: Callable[[State], Any] | None = None,
    ) -> None:
        super().__init__()
        self.state = state
        # Run on the game so far after each written box, off the screen's thread
        # (play_advice.win_analysis_ahead): the analysis at the end is then ready at once.
        self.ahead = AnalysisAhead(ahead) if ahead is not None else None
        # The person's earlier games on this computer, counted in their measured level
        # by ``chances`` (the same history) and said in the measured line.
        self.history = history
        self.autosave_path = autosave_path  # the default save after every move (saving.py)
        # The players' live chances to win (WinChances or None), computed off the screen's
        # thread by ``chances`` after every move; a row of the sheet with two or more players.
        self.chances_of = chances if len(state.players) > 1 else None
        self._chances: Any = None
        self._chances_for: tuple[Any, ...] | None = None
        self._chances_busy = False
        self._results: TextScreen | None = None  # the game's results, once it is over
        self._chances_failed: tuple[Any, ...] | None = None  # the position whose failed
        self.grace = grace
        self.in_grace = False  # a bot waits: the person's last write may be taken back
        self._grace_due = False
        self._grace_timer: Timer | None = None
        self.split = False  # the sheet in two columns (upper | lower) on a short screen
        self.on_finished = on_finished  # hands a finished game on (statistics)
        self.record = record  # solo: the record whose live chance of beating is shown
        # Solo without a record given: where to find one (the local database), looked up
        # off the screen's thread once the first screen is up (its imports take a while).
        self.record_lookup = record_lookup if record is None else None
        self.lang: Language = lang
        self.rng = rng
        self.bots = bots or {}
        # A bot decides with a random source, never with the dealer of the dice.
        decide = rng if isinstance(rng, random.Random) else random.Random()
        self.bot_rng = bot_rng or (lambda _state: decide)
        self.save_path = save_path
        self.bot_delay = bot_delay
        self.resumed_from = resumed_from
        self.rescue_directory = rescue_directory or rescue_dir()
        self.exit_lines: list[str] = []
        self.keep: set[int] = set()  # dice picked to keep for the next roll (0-based)
        self.keep_touched = False  # a keep choice since the last roll (Space may roll)
        self.armed = False  # the player chose the box under the cursor since the last roll
        self.scratching = False
        self.pick: dict[str, Entry] = {}  # DubbelYatzy: "inner"/"outer" chosen so far
        self.cursor_box: str | None = None
        self.messages: list[str] = []
        self.error = ""
        self.bot_busy = False
        # A bot plays the greedy strategy while its tables are built in the background
        # (minutes once per computer): these seats, said on the status line.
        self.preparing = False
        self.stand_in_seats: set[int] = set()
        self.finished = False
        self._heads: list[str] = []
        self._background = 0  # daemon threads thinking (a bot, a hint)

    # -- layout ----------------------------------------------------------------------------

    def compose(self) -> ComposeResult:
        """Headline, sheet, dice, status line, messages, keys."""
        yield Static(id="headline")
        with Horizontal(id="sheets"):
            yield SheetTable(id="sheet", zebra_stripes=True)
            yield SheetTable(id="sheet2", zebra_stripes=True)
        yield DiceBar(id="dice")
        yield Static(id="status")
        yield MessageLines(id="messages")
        yield Static(id="keys")

    def on_mount(self) -> None:
        """Build the sheet, settle the roll-off, and start play."""
        state = self.state
        self._layout_sheet(*self.size)
        for text in opening_lines(state, self.lang, self.resumed_from, self.rng, self._autosave):
            self._say(text.strip())
        self._advance()
        if self.record_lookup is not None:
            self._in_background(self.record_lookup, self._record_found)
        # The analysis at the end reads a table that may need building: start it now,
        # off the screen's thread (looking takes a tenth of a second of imports).
        threading.Thread(
            target=prepare_analysis, args=(state.clone(),), daemon=True, name="yatzy-prepare"
        ).start()

    def on_resize(self, event: events.Resize) -> None:
        """A new size may want the other layout of the sheet (one or two columns)."""
        width, height = event.size
        if self.sheet.columns and self._wants_split(height) != self.split:
            self._layout_sheet(width, height)
            self._redraw()

    # -- the flow of play ------------------------------------------------------------------

    def _advance(self) -> None:
        """Let chance and the bots act until a person is to play or the game ends.

        Random and greedy bots decide at once; the advised levels think in a thread so
        the screen stays alive.  With a delay, each bot move is shown for that long.
        """
        state = self.state
        while True:
            if state.is_terminal():
                if self._grace_due:
                    # A person's write ended the game: it may still be taken back (U),
                    # until the person's next key ends the game (Enter, Space or R).
                    self._hold()
                    return
                self._finish()
                return
            if state.is_chance_node():  # a record saved while the dice were rolling
                state.roll(self.rng)
                self._autosave()
            seat = state.player
            if seat not in self.bots:
                self.bot_busy = False
                self._redraw()
                return
            if self._grace_due:
                # A person has just written: the bot waits (no dice are rolled) while U
                # may still take the write back, until a key goes on or the grace ends.
                self._hold()
                return
            self.bot_busy = True
            if state.players[seat].bot not in QUICK_BOTS:
                self._redraw()
                self._bot_think(seat, state.clone())
                return
            self._bot_apply(seat, self.bots[seat].choose(state, self.bot_rng(state)))
            if self.bot_delay > 0:
                self._redraw()
                self.set_timer(self.bot_delay, self._advance)
                return

    def _hold(self) -> None:
        """The grace after a person's write: nothing moves until the person's next key
        (or the grace's end); U meanwhile takes the write back."""
        self._grace_due = False
        self.in_grace = True
        if math.isfinite(self.grace):
            self._grace_timer = self.set_timer(self.grace, self._end_grace)
        self._redraw()

    def _settle_held(self) -> None:
        """Leaving (Q, a hang-up) while the game's last write is held: it stands, and
        the game ends as on Enter (recorded, its file no longer called unfinished)."""
        if self.in_grace and self.state.is_terminal():
            self._end_grace()

    def _end_grace(self) -> None:
        """The person goes on (or the grace delay ran out): the bot's turn starts."""
        if not self.in_grace:
            return
        self.in_grace = False
        if self._grace_timer is not None:
            self._grace_timer.stop()
            self._grace_timer = None
        self._advance()

    def _new_turn(self) -> None:
        self.keep = set()
        self.keep_touched = False
        self.armed = False
        self.scratching = False
        self.pick = {}
        self.cursor_box = None

    def _finish(self) -> None:
        if self.finished:
            return
        self.finished = True
        self.bot_busy = False
        self._game_finished()
        self._redraw()

    def _game_finished(self) -> None:
        """The game has just ended: its final record is saved, the results are shown.

        The one place to hand a finished game on (to the statistics, say).
        """
        self._autosave()
        state = self.state
        lines = result_lines(state, self.lang, self.record)
        if self.on_finished is not None:
            lines = [*lines, self.on_finished(state)]
        self.messages = [line.strip() for line in lines[-MESSAGES_KEPT:]]
        # Left on the terminal after the app: the final protocol and the ranking.
        table = protocol_table(state, self.lang, preview=False)
        self.exit_lines = [headline(state, self.lang), *table, "", *lines]
        self._settle_finished()  # the file is no longer called unfinished-...
        # The results say how to reach the analysis; A there opens it at once.
        self._results = TextScreen(
            lines[0], [*lines[1:], "", tr("tui_analysis_key", self.lang)], self.lang
        )
        self.push_screen(self._results)

    # -- keys ------------------------------------------------------------------------------

    @property
    def people_to_play(self) -> bool:
        """Whether a person is to act now (not a bot, not the end, no dialog open)."""
        state = self.state
        return (
            not self.in_grace
            and not state.is_terminal()
            and not state.is_chance_node()
            and state.player not in self.bots
            and not self.bot_busy
            and len(self.screen_stack) == 1
        )

    def on_key(self, event: events.Key) -> None:
        """Every key of the game screen (dialogs have their own)."""
        if len(self.screen_stack) > 1:
            if self.screen is self._results and (event.character or "").lower() == "a":
                self.pop_screen()
                self._show_analysis()
                event.stop()
            return
        key = event.key
        char = (event.character or "").lower()
        handled = True
        self.error = ""
        if char == "?" or key == "question_mark":
            self._show_help()
        elif char == "q":
            self.action_request_quit()
        elif char == "h":
            self._show_hint()
        elif char == "a" and self.state.is_terminal() and not self.in_grace:
            self._show_analysis()
        elif self.in_grace and len(self.screen_stack) == 1:
            self._grace_key(key, char)
        elif not self.people_to_play:
            handled = False
        else:
            handled = self._play_key(key, char)
            if not handled and _says_something(event):
                # An unknown key is answered, in one line: which keys work.
                self.error = tr("tui_unknown_key", self.lang, pressed=event.key)
                handled = True
        if handled:
            event.stop()
            event.prevent_default()
            if len(self.screen_stack) == 1:
                self._redraw()

    def _grace_key(self, key: str, char: str) -> None:
        """While a bot waits after a person's write: U takes it back, Enter, Space or
        R go on at once; another key says so."""
        if char == "u":
            self.in_grace = False
            if self._grace_timer is not None:
                self._grace_timer.stop()
                self._grace_timer = None
            self._undo()
        elif key in ("enter", "space") or char == "r":
            self._end_grace()
        else:
            self.error = self._grace_words()

    def _play_key(self, key: str, char: str) -> bool:
        state = self.state
        n = state.rules.num_dice
        if char.isdigit() and 1 <= int(char) <= n:
            if ready(state):
                self.keep ^= {int(char) - 1}
                self.keep_touched = True
        elif key == "space":
            if state.dice is not None and not self.keep_touched:
                # A stray Space must not throw away the dice on the table (a Yatzy, say).
                self.error = tr("tui_space_guard", self.lang, n=n)
            else:
                self._roll()
        elif char == "r":
            self._roll()
        elif key == "enter":
            if state.dice is None:
                # Enter never rolls: a second Enter after a write must not roll anyone's dice.
                self.error = tr("tui_enter_no_roll", self.lang)
            elif not self.armed:
                self.error = tr("tui_arm_first", self.lang)
            else:
                self._write_at_cursor()
        elif key in ("up", "down"):
            self._step_cursor(1 if key == "down" else -1)
        elif char == "x":
            if ready(state):
                self.scratching = not self.scratching
        elif char == "u":
            self._undo()
        elif key == "escape":
            self.pick = {}
            self.scratching = False
        elif (box := box_for_key(state.rules, char)) is not None:
            self.cursor_box = box
            self.armed = ready(state)
        else:
            return False
        return True

    def _step_cursor(self, step: int) -> None:
        candidates = self._candidates()
        if self.cursor_box in candidates:
            at = candidates.index(self.cursor_box)
            self.cursor_box = candidates[(at + step) % len(candidates)]
        else:
            self.cursor_box = candidates[0 if step > 0 else -1]
        self.armed = ready(self.state)

    # -- actions ---------------------------------------------------------------------------

    def _roll(self) -> None:
        state = self.state
        if state.dice is None:
            self._act(Roll())
            return
        if not state.rolls_left():
            self.error = tr("no_rolls", self.lang)
            return
        action = Roll(tuple(sorted(self.keep)))
        if is_yatzy(state) and len(action.keep) < state.rules.num_dice:
            box = "maxi_yatzy" if "maxi_yatzy" in state.rules.boxes else "yatzy"
            question = tr("tui_confirm_reroll", self.lang, box=state.rules.box_name(box, self.lang))
            self._ask(question, lambda: self._act(action))
            return
        self._act(action)

    def _write_at_cursor(self) -> None:
        state = self.state
        box = self.cursor_box
        if box is None:
            self.error = tr("tui_not_a_box", self.lang)
            return
        if not state.sheet.is_open(box):
            self.error = tr("box_filled", self.lang, box=state.rules.box_name(box, self.lang))
            return
        entry: Entry = Scratch(box) if self.scratching else Score(box)
        layer = "all"
        if state.rules.double:
            layer = "outer" if "inner" in self.pick else "inner"
            if layer == "outer" and self.pick["inner"].box == box:
                self.error = tr("same_box_twice", self.lang)
                return
        if wastes_dice(state, box, scratch=self.scratching, layer=layer):
            name = state.rules.box_name(box, self.lang)
            self._ask(
                tr("tui_confirm_zero", self.lang, box=name),
                lambda: self._write(entry, layer),
                tr("not_written", self.lang),
            )
            return
        self._write(entry, layer)

    def _write(self, entry: Entry, layer: str) -> None:
        if layer == "all":
            self._act(entry)
            return
        self.pick[layer] = entry
        self.scratching = False
        self.armed = False
        if layer == "inner":
            return
        inner, outer = self.pick["inner"], self.pick["outer"]
        self.pick = {}
        self._act(Fill2(inner, outer))

    def _act(self, action: Action) -> None:
        """Apply a person's action (checked by the state; a refusal changes nothing)."""
        state = self.state
        seat = state.player
        try:
            state.apply(action)
        except YatzyError as exc:
            self.error = explain_refusal(state, self.lang, exc, action)
            self._redraw()
            return
        if isinstance(action, Roll):
            state.roll(self.rng)
            self.keep = set(kept_positions(state))
            self.keep_touched = False
            self.armed = False
            self.scratching = False
            self.pick = {}
            self.cursor_box = None
        else:
            name = player_label(state, seat, self.lang)
            for text in written_messages(state, state.log[-1], name, self.lang):
                self._say(text)
            self._new_turn()
            self._grace_due = self.grace > 0
        self._autosave()
        self._advance()

    def _undo(self) -> None:
        state = self.state
        seat = state.undo_seat()
        if seat is None or seat in self.bots:
            self.error = tr("nothing_to_undo", self.lang)
            return
        boxes = " + ".join(state.rules.box_name(b, self.lang) for b in state.undo_boxes())
        state.apply(Undo(), player=seat)
        self._say(tr("undone", self.lang, name=player_label(state, seat, self.lang), box=boxes))
        self._new_turn()
        self.keep = set(kept_positions(state))
        self._autosave()
        self._advance()

    # -- dialogs ---------------------------------------------------------------------------

    def _show_help(self) -> None:
        lines = tr("tui_help_keys", self.lang).splitlines()
        if self.state.rules.double:
            lines += ["", tr("tui_help_double", self.lang)]
        lines += ["", *rules_lines(self.state.rules, self.lang)]
        self.push_screen(TextScreen(headline(self.state, self.lang), lines, self.lang))

    def _show_hint(self) -> None:
        state = self.state
        title = tr("tui_hint_title", self.lang)
        if not self.people_to_play:
            self.push_screen(TextScreen(title, [tr("tui_hint_none", self.lang)], self.lang))
            return
        screen = TextScreen(title, [tr("tui_thinking", self.lang)], self.lang)
        self.push_screen(screen)
        self._advise(screen, state.clone())

    def _advise(self, screen: TextScreen, position: State) -> None:
        """The advisor ranks the options off the screen's thread (it may load a table).

        Solo with a record to beat, the options are ranked first by the chance of
        beating it (where the target table is at hand), then by expected score."""
        lang = self.lang
        record = self.record if len(position.players) == 1 else None
        # (the TUI's own words while preparing, rather than the line mode's "ask again")
        waiting = tr("tui_hint_preparing", lang)
        self._fill(screen, lambda: hint_lines(position, record, lang), waiting)

    def _show_analysis(self) -> None:
        """A: the finished game's analysis, made off the screen's thread (it may load a
        table); while its table is being prepared it says so and comes by itself."""
        screen = TextScreen(
            tr("tui_analysis_title", self.lang), [tr("tui_thinking", self.lang)], self.lang
        )
        self.push_screen(screen)
        state, lang = self.state, self.lang
        self._fill(screen, lambda: analysis_lines(state, lang, self.history))

    def _fill(
        self, screen: TextScreen, task: Callable[[], AdvisorLines], waiting: str | None = None
    ) -> None:
        """``screen`` filled with ``task``'s lines, made off the screen's thread.  While
        their table is being prepared the lines (or ``waiting``) say so, and ``task`` is
        asked again every :data:`HINT_RETRY_SECONDS` while the screen is open, so the
        rest comes by itself once the table is ready."""

        def done(lines: AdvisorLines) -> None:
            self._background -= 1
            if not screen.is_attached:
                return
            screen.set_lines([waiting] if lines.preparing and waiting else list(lines))
            if lines.preparing:
                self.set_timer(HINT_RETRY_SECONDS, lambda: self._fill_again(screen, task, waiting))

        self._in_background(task, done)

    def _fill_again(
        self, screen: TextScreen, task: Callable[[], AdvisorLines], waiting: str | None
    ) -> None:
        if screen.is_attached:
            self._fill(screen, task, waiting)


HINT_RETRY_SECONDS = 2.0
"""How often an open hint asks again while its strategy table is being prepared."""


def _says_something(event: events.Key) -> bool:
    """Whether a key the game does not use deserves an answer (not a bare modifier)."""
    return event.is_printable or event.key in ("tab", "left", "right", "home", "end", "delete")
