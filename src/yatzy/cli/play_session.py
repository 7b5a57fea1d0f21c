"""The terminal game loop: reads commands, applies them to a State, shows the board.

:class:`PlaySession` is a thin adapter over :class:`~yatzy.game.State`: it turns a
line such as ``k 1 3`` or ``s full house`` into an action, lets the state check
and apply it, and shows what the state says.  It never decides what a box scores
or which boxes are allowed.  Input and output are injectable streams, so tests
script whole games; a command the state refuses prints one line and is asked
again with the state unchanged.
"""

from __future__ import annotations

import contextlib
import logging
import os
import random
import shutil
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from typing import TYPE_CHECKING, TextIO

from yatzy.cli.i18n import tr
from yatzy.cli.line_advice import LineAdvice
from yatzy.cli.line_chances import LINE_CHANCES_WAIT, ChancesInBackground
from yatzy.cli.play_advice import AnalysisAhead, win_analysis_ahead
from yatzy.cli.play_commands import (
    ALL_WORDS,
    WORD_TO_COMMAND,
    BoxResolver,
    PromptError,
    enable_line_editing,
    keep_positions,
    keep_values,
    parse_two,
)
from yatzy.cli.play_common import (
    CHANCES_TIMEOUT_SECONDS,
    NO_WORDS,
    YES_WORDS,
    HangUp,
    PeopleHistory,
    chances_line,
    dice_proof,
    explain_refusal,
    hangup_handlers,
    has_progress,
    live_chances,
    measured_line,
    plays_stand_in,
    prepare_analysis,
    random_draws,
    record_line,
    rescue_dir,
    rescue_path,
    seeded_rng,
    settle_finished_file,
    wastes_dice,
    write_record,
    written_messages,
)
from yatzy.cli.terminal import (
    dice_lines,
    headline,
    kept_positions,
    opening_lines,
    player_label,
    protocol_table,
    ready,
    result_lines,
    show_dice,
)
from yatzy.errors import YatzyError
from yatzy.game import Action, Dealer, Fill2, Roll, Score, Scratch, State, Undo, save
from yatzy.rules import Language

if TYPE_CHECKING:  # the bots module is imported only when a bot is seated
    from yatzy.bots import Bot

EXIT_FINISHED = 0
"""Exit code when the game was played to its end."""
EXIT_UNFINISHED = 1
"""Exit code when the session stops with the game unfinished (``q``, end of input)."""
EXIT_INTERRUPTED = 130
"""Exit code after Ctrl-C (the conventional 128 + SIGINT)."""

__all__ = [  # the commands' parsing and the seeded dice moved out; imported from here too
    "EXIT_FINISHED",
    "EXIT_INTERRUPTED",
    "EXIT_UNFINISHED",
    "BoxResolver",
    "PlaySession",
    "PromptError",
    "random_draws",
    "seeded_rng",
]

_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class _Quit:
    """The player asked to stop."""


class PlaySession(LineAdvice):
    """One terminal game: a state, its seats' bots, and the streams to talk on.

    ``rng`` rolls the dice.  ``bot_rng`` gives the random source of a bot's
    decision (called once per decision).  ``save_path``, when given, receives the
    record after every change.  ``clear`` redraws the board on a cleared screen
    (for a terminal); otherwise everything is printed in sequence.  ``guard``
    (default: stdin is a terminal) makes an Enter after a roll a hint instead of a
    re-roll and asks before a 0 or a scratch that throws points away.
    ``bot_delay`` seconds pass after each of a bot's moves, so people can follow it.
    ``autosave_path`` (``yatzy play`` without ``--save``: a new file in
    :attr:`rescue_dir`) receives the record after every move once anything is played;
    quitting still offers to keep it, and a "no" deletes it.  A hang-up (SIGHUP) or
    SIGTERM saves the game and ends :meth:`run` with 128 + the signal's number.
    """

    def __init__(
        self,
        state: State,
        *,
        lang: Language = "en",
        stdin: TextIO | None = None,
        stdout: TextIO | None = None,
        rng: random.Random | Dealer,
        bots: dict[int, Bot] | None = None,
        bot_rng: Callable[[State], random.Random] | None = None,
        save_path: str | None = None,
        clear: bool = False,
        guard: bool | None = None,
        on_finished: Callable[[State], str] | None = None,
        bot_delay: float = 0.0,
        sleep: Callable[[float], None] | None = None,
        record: int | None = None,
        chances: bool = False,
        autosave_path: str | None = None,
        history: PeopleHistory | None = None,
    ) -> None:
        self.state = state
        # The person's earlier games on this computer, counted in their measured level.
        self.history = history
        self.autosave_path = autosave_path
        self._waiting = False  # blocked at the prompt: a hang-up may stop it at once
        self._signal: int | None = None  # a hang-up that came in mid-move, taken after it
        self.lang: Language = lang
        self.stdin = stdin if stdin is not None else sys.stdin
        self.stdout = stdout if stdout is not None else sys.stdout
        self.rng = rng
        self.bots = bots or {}
        # A bot decides with a random source, never with the dealer of the dice.
        decide = rng if isinstance(rng, random.Random) else random.Random()
        self.bot_rng = bot_rng or (lambda _state: decide)
        self.save_path = save_path
        self.clear = clear
        self.resolver = BoxResolver(state.rules, lang)
        self.rescue_dir = rescue_dir()
        # Guards against keyboard slips (a stray Enter, a 0 by mistake) are for people at a
        # terminal; a piped script means every line it sends.
        self.guard = self.stdin.isatty() if guard is None else guard
        self.on_finished = on_finished  # hands a finished game on (statistics); says how it went
        self.bot_delay = bot_delay
        # The seats whose bot said it plays greedily while its table is prepared, and
        # those that said their own strategy took over.
        self.stand_in_said: set[int] = set()
        self._sleep = sleep or time.sleep
        self._messages: list[str] = []
        self._dirty = True
        self._grace_due = False  # a person has just written: ask before a bot's turn
        self._ended = False  # the game's end handled: recorded, its file renamed
        self.record = record
        self.chances = chances and len(state.players) > 1
        # A hint asked while its table was being prepared: shown by itself at the
        # first prompt after the table is ready (the full screen's open hint fills in).
        self._hint_pending = False
        # With two or more players (chances shown or not): the game so far rated in win
        # chance after every written box, in a thread of its own, so that the analysis
        # at the end is ready at once.
        rate = partial(win_analysis_ahead, history=history)
        self.ahead = AnalysisAhead(rate) if len(state.players) > 1 else None
        # The chances on each board, worked out in a thread: at a terminal a board waits
        # for them a few seconds (then says they are being worked out and the game goes
        # on); a script's board waits up to the time-out, so that its output is whole.
        wait = LINE_CHANCES_WAIT if self.stdin.isatty() else CHANCES_TIMEOUT_SECONDS
        self._chances_worker = ChancesInBackground(
            lambda position: live_chances(position, history=self.history), wait=wait
        )

    # -- output -------------------------------------------------------------------------

    def _print(self, text: str = "") -> None:
        self.stdout.write(text + "\n")
        self.stdout.flush()

    def _say(self, text: str) -> None:
        """An event: printed now, or kept for the next board when the screen is redrawn."""
        if self.clear:
            self._messages.append(text)
        else:
            self._print(text)

    def _error(self, text: str) -> None:
        self._print(f"! {text}")

    def _show_board(self) -> None:
        state = self.state
        lines = [
            "",
            headline(state, self.lang),
            *protocol_table(state, self.lang, width=self._columns()),
        ]
        if self.record is not None and not state.is_terminal() and not state.is_chance_node():
            lines.append(self._record_line(self.record))
        if self.chances and not state.is_terminal() and state.dice is None:
            # After every turn: each player's chance to win from here on.
            lines.append(self._chances_line())
        if self.clear and self._messages:
            lines += ["", *self._messages[-10:]]
        self._messages.clear()
        if not state.is_terminal():
            dice = dice_lines(state, self.lang)
            name = state.players[state.player].name
            lines.append("")
            if dice:
                lines += dice
                if state.rolls_left():
                    key = "hint_turn_double" if state.rules.double else "hint_turn"
                    lines += tr(key, self.lang).splitlines()
                else:
                    key = "hint_no_rolls_double" if state.rules.double else "hint_no_rolls"
                    lines.append(tr(key, self.lang))
            else:
                lines.append(tr("hint_first_roll_r", self.lang, name=name, help="?"))
        if self.clear:
            # Cleared only now, with every line ready: never a blank screen while the
            # chances are computed.
            self.stdout.write("\x1b[H\x1b[2J")
        for line in lines:
            self._print(line)
        self._dirty = False

    def _columns(self) -> int | None:
        """The terminal's width when the board goes to one (a pipe gets the full table)."""
        if not self.stdout.isatty():
            return None
        return shutil.get_terminal_size().columns

    def _chances_line(self) -> str:
        answer = self._chances_worker.ask(self.state)
        if answer.overdue:
            seconds = round(self._chances_worker.timeout)
            return tr("win_line_overdue", self.lang, seconds=seconds)
        if answer.working:
            return tr("win_line_working", self.lang)
        if answer.error is not None:  # no chances is no reason to stop the game: say why
            exc = answer.error
            _log.warning("live chances to win failed", exc_info=exc)
            return tr("win_line_failed", self.lang, reason=tr("win_reason_error", self.lang))
        result = answer.result
        if result is None:
            reason = tr("win_reason_table", self.lang)
            return tr("win_line_pending", self.lang, reason=reason)
        line = chances_line(self.state, result, self.lang)
        measured = measured_line(self.state, result, self.lang, self.history)
        return f"{line}\n{measured}" if measured else line

    def _record_line(self, record: int) -> str:
        """Solo: the live chance of beating ``record`` (target play from here on)."""
        return record_line(self.state, record, self.lang)

    # -- input --------------------------------------------------------------------------

    def _read(self, prompt: str) -> str | None:
        """One line of input, or ``None`` at the end of input."""
        with self._at_prompt():
            return self._read_line(prompt)

    def _read_line(self, prompt: str) -> str | None:
        interactive = self.stdin.isatty()
        if interactive and self.stdin is sys.stdin and self.stdout is sys.stdout:
            enable_line_editing()
            try:
                return input(prompt)
            except EOFError:
                self._print()
                return None
        self.stdout.write(prompt)
        self.stdout.flush()
        line = self.stdin.readline()
        if not line:
            self._print()
            return None
        line = line.rstrip("\r\n")
        if not interactive:
            self._print(line)  # echo, so that a scripted session reads like a typed one
        return line

    # -- saving -------------------------------------------------------------------------

    def _autosave(self) -> None:
        if self.save_path:
            self._save_to(self.save_path)
        elif self.autosave_path and self._has_progress():
            try:
                write_record(self.state, self.autosave_path, self.lang, self.rng)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                self._error(tr("save_failed", self.lang, path=self.autosave_path, reason=reason))
                self.autosave_path = None  # said once, not after every move
        self._take_signal()

    def _drop_autosave(self) -> None:
        """Delete the autosaved file (the player chose not to keep the game, or moved it)."""
        if self.autosave_path:
            with contextlib.suppress(OSError):
                os.remove(self.autosave_path)
            self.autosave_path = None

    # -- hang-up and SIGTERM ------------------------------------------------------------

    def _on_signal(self, signum: int, _frame: object) -> None:
        # At the prompt the game stops at once; in the middle of a move (a state being
        # changed, a bot thinking) it stops as soon as the move is saved.
        if self._waiting:
            raise HangUp(signum)
        self._signal = signum

    def _take_signal(self) -> None:
        if self._signal is not None:
            raise HangUp(self._signal)

    @contextlib.contextmanager
    def _at_prompt(self) -> Iterator[None]:
        self._take_signal()
        self._waiting = True
        try:
            yield
        finally:
            self._waiting = False

    def _hang_up(self, signum: int) -> int:
        """The terminal is gone or the game was told to stop: save it, say where (if
        anyone still reads), and return 128 + ``signum``."""
        self._signal = None
        state = self.state
        lines: list[str] = []
        if state.is_terminal() and not self._ended:
            # Hung up over the game's last write, held: it stands, and the game ends
            # (recorded, its file no longer called unfinished), as on Enter.
            with contextlib.suppress(OSError, ValueError):
                self._finish()
        elif not state.is_terminal() and self._has_progress():
            path = self.save_path or self.autosave_path or rescue_path(self.rescue_dir)
            try:
                write_record(state, path, self.lang, self.rng)
                lines = [
                    tr("rescued", self.lang, path=path),
                    tr("resume_hint", self.lang, path=path),
                ]
            except OSError as exc:
                reason = exc.strerror or str(exc)
                lines = [tr("save_failed", self.lang, path=path, reason=reason)]
        with contextlib.suppress(OSError, ValueError):  # a closed terminal takes no output
            self._print()
            for line in lines:
                self._print(line)
        return 128 + signum

    def _save_to(self, path: str) -> bool:
        try:
            save(self.state, path, lang=self.lang, dice=dice_proof(self.rng))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self._error(tr("save_failed", self.lang, path=path, reason=reason))
            return False
        return True

    # -- the game loop --------------------------------------------------------------------

    def run(self, resumed_from: str | None = None) -> int:
        """Play until the game ends (0) or the players stop (1, or 130 after Ctrl-C;
        128 + the signal after a hang-up or SIGTERM, the game saved)."""
        with hangup_handlers(self._on_signal):
            try:
                code = self._play(resumed_from)
                self._take_signal()
            except HangUp as hang:
                return self._hang_up(hang.signum)
        return code

    def _play(self, resumed_from: str | None) -> int:
        state = self.state
        prepare_analysis(state)  # the table the analysis at the end reads, where not ready
        for text in opening_lines(state, self.lang, resumed_from, self.rng, self._autosave):
            self._say(text)
        while True:
            code = self._play_turns()
            if code is not None:
                return code
            # The game's last write, by a person: it may still be taken back.
            held = self._held_last() if self._grace_due else None
            if held is not True:
                break
        self._finish()
        self._after_game(held if isinstance(held, str) else None)
        return EXIT_FINISHED

    def _play_turns(self) -> int | None:
        """Play until the game is over (None) or the players stop (the exit code)."""
        state = self.state
        while not state.is_terminal():
            if state.is_chance_node():  # a record saved while the dice were rolling
                state.roll(self.rng)
                self._autosave()
                self._dirty = True
            if self.ahead is not None:
                self.ahead.after_write(state)
            seat = state.player
            if seat in self.bots:
                if self._grace_due and self._grace_undone(seat):
                    continue
                self._bot_turn(seat)
                self._dirty = True
                continue
            if self._dirty:
                self._show_board()
            self._hint_when_ready()
            try:
                line = self._read(f"{state.players[seat].name}> ")
            except KeyboardInterrupt:
                self._print()
                self._quit_safely()
                return EXIT_INTERRUPTED
            if line is None:
                # Ctrl-D is as easy to hit as q: offer to save, and never drop a game silently.
                self._quit(ask=self.stdin.isatty(), rescue=True)
                return EXIT_UNFINISHED
            try:
                result = self.handle(line)
            except PromptError as exc:
                self._error(str(exc))
                continue
            if isinstance(result, _Quit):
                return EXIT_UNFINISHED if self._quit_safely() else EXIT_INTERRUPTED
        return None

    def _held_last(self) -> bool | str | None:
        """After a person's write that ended the game: the final sheet, and ``u`` takes
        the write back (the game goes on: True); Enter ends the game (None).  Any other
        line ends it too and is handed on to the prompt after the game (``a``: the
        analysis), so that nothing typed ahead is lost."""
        self._grace_due = False
        state = self.state
        seat = state.undo_seat()
        if seat is None:
            return None
        if self._dirty:
            self._show_board()
        name = player_label(state, seat, self.lang)
        try:
            line = self._read(tr("line_final", self.lang, name=name))
        except KeyboardInterrupt:
            self._print()
            return None
        if line is None or not line.strip():
            return None
        if WORD_TO_COMMAND.get(line.strip().casefold()) == "undo":
            self._undo()
            return True
        return line

    def _grace_undone(self, seat: int) -> bool:
        """After a person's write, before a bot's turn: the person may still take it
        back (``u``); Enter goes on.  No dice are rolled meanwhile.  Whether undone."""
        self._grace_due = False
        if self._dirty:
            self._show_board()
        name = player_label(self.state, seat, self.lang)
        try:
            line = self._read(tr("line_grace", self.lang, name=name))
        except KeyboardInterrupt:
            self._print()
            return False
        if line is not None and WORD_TO_COMMAND.get(line.strip().casefold()) == "undo":
            self._undo()
            return True
        return False

    def _finish(self) -> None:
        state = self.state
        lines = [
            "",
            headline(state, self.lang),
            *protocol_table(state, self.lang, width=self._columns()),
        ]
        if self.record is not None and not state.is_terminal() and not state.is_chance_node():
            lines.append(self._record_line(self.record))
        if self.clear and self._messages:
            lines += ["", *self._messages[-10:]]
        self._messages.clear()
        lines += ["", *result_lines(state, self.lang, self.record)]
        if self.on_finished is not None and state.is_terminal():
            lines += ["", self.on_finished(state)]
        self._ended = state.is_terminal()
        lines += self._settle_finished()
        # (recorded first: a terminal that hung up takes no output)
        if self.clear:
            self.stdout.write("\x1b[H\x1b[2J")
        for line in lines:
            self._print(line)

    def _settle_finished(self) -> list[str]:
        """A finished game's file called ``unfinished-…`` (the autosave, a rescued game
        resumed) is renamed ``finished-…``; the line that says where it is."""
        if not self.state.is_terminal():
            return []
        for attr in ("save_path", "autosave_path"):
            renamed = settle_finished_file(getattr(self, attr))
            if renamed is not None:
                setattr(self, attr, renamed)
                return [tr("finished_file", self.lang, path=renamed)]
        return []

    def _quit_safely(self) -> bool:
        """Quit, offering to save; False when Ctrl-C cut the offer short."""
        try:
            self._quit(ask=True)
        except KeyboardInterrupt:
            self._print()
            self._print(tr("not_saved", self.lang))
            return False
        return True

    def _quit(self, *, ask: bool, rescue: bool = False) -> None:
        """Stop: save to ``--save``'s file, or offer a file when ``ask``.

        With ``rescue`` (end of input), or when the offer itself meets the end of
        input, a game with anything played is saved under :attr:`rescue_dir`
        rather than lost; only an explicit empty answer discards it.
        """
        if rescue and not ask:
            self._print(tr("end_of_input", self.lang))
        if self.save_path:
            if self._save_to(self.save_path):
                self._print(tr("saved", self.lang, path=self.save_path))
                self._print(tr("resume_hint", self.lang, path=self.save_path))
            return
        while ask:
            answer = self._read(tr("quit_offer", self.lang, folder=self.rescue_dir))
            if answer is None:
                rescue = True
                break
            path = answer.strip()
            # A yes/no answer is no file name: "n" must not become a file called n.
            if not path or path.casefold() in NO_WORDS:  # an explicit "do not save"
                self._drop_autosave()
                self._print(tr("not_saved", self.lang))
                return
            if path.casefold() in YES_WORDS:  # yes, where the rescue folder keeps games
                rescue = True
                break
            path = os.path.expanduser(path)
            if not self._may_write(path, force=False):
                continue
            if self._save_to(path):
                if os.path.abspath(path) != os.path.abspath(self.autosave_path or ""):
                    self._drop_autosave()  # kept where the player said, not twice
                self._print(tr("saved", self.lang, path=path))
                self._print(tr("resume_hint", self.lang, path=path))
                return
        if rescue and self._has_progress():
            # Cut off (end of input), or a plain yes: the rescue folder (the file the
            # game was autosaved to, when it was).
            path = self.autosave_path or rescue_path(self.rescue_dir)
            with contextlib.suppress(OSError):
                os.makedirs(self.rescue_dir, exist_ok=True)
            if self._save_to(path):
                self._print(tr("rescued", self.lang, path=path))
                self._print(tr("resume_hint", self.lang, path=path))
                return
        self._print(tr("not_saved", self.lang))

    def _has_progress(self) -> bool:
        """Whether losing the game would lose anything (a die rolled or a box written)."""
        return has_progress(self.state)

    def _confirm(self, prompt: str) -> bool:
        """A yes/no question in the game's language; the end of input means no."""
        try:
            answer = self._read(prompt)
        except KeyboardInterrupt:  # Ctrl-C at a question cancels the question, not the game
            self._print()
            return False
        return answer is not None and answer.strip().casefold() in YES_WORDS

    def _may_write(self, path: str, *, force: bool) -> bool:
        """Whether ``path`` may be written: new, forced, or replacing it was confirmed."""
        if force or not os.path.exists(path):
            return True
        if self.stdin.isatty():
            return self._confirm(tr("confirm_overwrite", self.lang, path=path))
        self._error(tr("file_exists", self.lang, path=path))
        return False

    # -- bots -------------------------------------------------------------------------------

    def _bot_turn(self, seat: int) -> None:
        state = self.state
        bot = self.bots[seat]
        name = player_label(state, seat, self.lang)
        if plays_stand_in(state, seat):
            # Its tables are built in the background: the greedy strategy plays meanwhile,
            # so the game never waits for a build (issue 24: a first move within 3 s).
            from yatzy.bots import GreedyBot

            bot = GreedyBot()
            if seat not in self.stand_in_said:
                self.stand_in_said.add(seat)
                self._print(tr("bot_stand_in", self.lang, name=name))
        elif seat in self.stand_in_said:
            self.stand_in_said.discard(seat)
            self._print(tr("bot_own_strategy", self.lang, name=name))
        while not state.is_terminal() and state.player == seat:
            if state.is_chance_node():
                state.roll(self.rng)
                continue
            action = bot.choose(state, self.bot_rng(state))
            self._apply(action, name)
            # A roll is shown for the delay; after the write the next board follows at
            # once (showing it here too printed the same board twice).
            if self.bot_delay > 0 and state.player == seat and not state.is_terminal():
                if self.clear:  # the moves are kept for the next board: show this one now
                    self._show_board()
                self._sleep(self.bot_delay)

    # -- commands -----------------------------------------------------------------------------

    def handle(self, line: str) -> _Quit | None:
        """Carry out one command line (raises :class:`PromptError` when it cannot)."""
        words = line.split()
        state = self.state
        if not words:
            # Enter alone never rolls: a second Enter after a write would roll the next
            # player's dice, a stray one would throw away the dice on the table.
            raise PromptError(tr("enter_never_rolls", self.lang))
        word = words[0].casefold()
        rest = words[1:]
        force = word.endswith("!") and WORD_TO_COMMAND.get(word[:-1]) == "save"
        command = "save" if force else WORD_TO_COMMAND.get(word)
        if command is None:
            raise PromptError(tr("unknown_command", self.lang, word=words[0]))
        if command == "help":
            self._print(tr("help", self.lang))
            if state.rules.double:
                self._print(tr("help_double", self.lang))
            return None
        if command == "quit":
            return _Quit()
        if command == "hint":
            self._hint()
            return None
        if command == "analysis":
            raise PromptError(tr("analysis_at_end", self.lang))
        if command == "save":
            path = line.strip()[len(words[0]) :].strip()
            if not path:
                raise PromptError(tr("need_file", self.lang))
            path = os.path.expanduser(path)
            if self._may_write(path, force=force) and self._save_to(path):
                self._print(tr("saved", self.lang, path=path))
            return None
        if command == "undo":
            self._undo()
            return None
        if command == "roll":
            if rest and rest[0].casefold() in ALL_WORDS and len(rest) == 1:
                self._player_act(Roll())
                return None
            if rest:
                raise PromptError(tr("no_arguments", self.lang, cmd=words[0]))
            self._roll_default()
            return None
        if not ready(state):
            raise PromptError(tr("roll_first_r", self.lang))
        if command == "keep":
            self._player_act(Roll(keep_positions(rest, state.rules.num_dice, self.lang)))
        elif command == "value":
            assert state.dice is not None  # ready(state): the dice are rolled
            self._player_act(Roll(keep_values(rest, state.dice, state.rules.double, self.lang)))
        elif state.rules.double:
            fill = self._fill2(command, rest)
            if self.guard and not self._confirm_wasted_layers(fill):
                self._print(tr("not_written", self.lang))
                return None
            self._player_act(fill)
        else:
            if not rest:
                raise PromptError(tr("need_box", self.lang, cmd=words[0]))
            box = self.resolver.resolve(" ".join(rest))
            if (
                self.guard
                and self._wastes_dice(box, scratch=command == "scratch")
                and not self._confirm(
                    tr("confirm_zero", self.lang, box=state.rules.box_name(box, self.lang))
                )
            ):
                self._print(tr("not_written", self.lang))
                return None
            self._player_act(Score(box) if command == "score" else Scratch(box))
        return None

    def _confirm_wasted_layers(self, fill: Fill2) -> bool:
        """DubbelYatzy: ask before each result's 0 where that layer's dice would score."""
        state = self.state
        for entry, layer in ((fill.inner, "inner"), (fill.outer, "outer")):
            if not isinstance(entry, Score | Scratch):
                continue
            scratch = isinstance(entry, Scratch)
            if wastes_dice(state, entry.box, scratch=scratch, layer=layer) and not self._confirm(
                tr("confirm_zero", self.lang, box=state.rules.box_name(entry.box, self.lang))
            ):
                return False
        return True

    def _wastes_dice(self, box: str, *, scratch: bool) -> bool:
        """Whether writing 0 in ``box`` throws points away: the dice score in an allowed box."""
        return wastes_dice(self.state, box, scratch=scratch)

    def _undo(self) -> None:
        """``u``: the seat that just wrote takes it back, until the next roll."""
        state = self.state
        seat = state.undo_seat()
        if seat is None or seat in self.bots:
            raise PromptError(tr("nothing_to_undo", self.lang))
        boxes = " + ".join(state.rules.box_name(b, self.lang) for b in state.undo_boxes())
        state.apply(Undo(), player=seat)
        self._say(tr("undone", self.lang, name=player_label(state, seat, self.lang), box=boxes))
        self._autosave()
        self._dirty = True

    def _roll_default(self) -> None:
        state = self.state
        if state.dice is None:
            self._player_act(Roll())
            return
        if not state.rolls_left():
            raise PromptError(tr("no_rolls", self.lang))
        self._player_act(Roll(tuple(kept_positions(state))))

    def _fill2(self, command: str, words: Sequence[str]) -> Fill2:
        entries = parse_two(self.resolver, command, list(words), self.lang)
        return Fill2(entries[0], entries[1])

    def _player_act(self, action: Action) -> None:
        state = self.state
        seat = state.player
        self._apply(action, player_label(state, seat, self.lang), human=True)
        # At a terminal a bot's turn waits for the person's word: u may take this back.
        self._grace_due = self.guard and not isinstance(action, Roll)

    def _apply(self, action: Action, name: str, human: bool = False) -> None:
        """Apply ``action`` (checked by the state), roll the dice, save, tell the table."""
        state = self.state
        before = state.turn_number
        try:
            state.apply(action)
        except YatzyError as exc:
            if not human:
                raise
            raise PromptError(self._explain(exc, action)) from None
        if isinstance(action, Roll):
            state.roll(self.rng)
            if not human:
                assert state.dice is not None
                if action.keep:
                    kept = show_dice([state.dice[i] for i in action.keep])
                    self._say(
                        tr(
                            "rolled_keeping",
                            self.lang,
                            name=name,
                            kept=kept,
                            dice=show_dice(state.dice),
                        )
                    )
                else:
                    self._say(tr("rolled", self.lang, name=name, dice=show_dice(state.dice)))
        else:
            assert state.turn_number == before + 1
            self._tell_written(state.log[-1], name)
        self._autosave()
        self._dirty = True

    def _tell_written(self, turn: dict[str, object], name: str) -> None:
        for text in written_messages(self.state, turn, name, self.lang):
            self._say(text)

    def _explain(self, exc: YatzyError, action: Action) -> str:
        """A one-line, localized reason why the state refused ``action``."""
        return explain_refusal(self.state, self.lang, exc, action)
