"""The line mode's advice in words: ``hint`` during the game, ``a`` (the analysis of
every decision) once it is over, and the hint that comes by itself when its table is
ready.  A part of :class:`yatzy.cli.play_session.PlaySession`, kept apart because the
words come from the advisor (:mod:`yatzy.cli.play_advice`), not from the game's flow.
"""

from __future__ import annotations

import textwrap
from collections.abc import Callable, Sequence

from yatzy.cli.i18n import tr
from yatzy.cli.play_advice import analysis_lines, hint_lines
from yatzy.cli.play_commands import WORD_TO_COMMAND
from yatzy.cli.play_common import PeopleHistory
from yatzy.game import State
from yatzy.rules import Language

ANALYSIS_RETRY_SECONDS = 2.0
"""How often the analysis asked for at the end looks again for its strategy table
while the table is being prepared."""


class LineAdvice:
    """The hint and the analysis of the line mode (a mixin of ``PlaySession``)."""

    state: State
    lang: Language
    record: int | None
    history: PeopleHistory | None
    _hint_pending: bool
    _sleep: Callable[[float], None]

    def _print(self, text: str = "") -> None:
        raise NotImplementedError

    def _error(self, text: str) -> None:
        raise NotImplementedError

    def _read(self, prompt: str) -> str | None:
        raise NotImplementedError

    def _columns(self) -> int | None:
        raise NotImplementedError

    def _after_game(self, typed: str | None = None) -> None:
        """The game is over: ``a`` shows the analysis of every decision (the full
        screen's A), Enter, ``q`` or the end of input ends the session.  ``typed``:
        a line already typed (at the prompt over the game's last write)."""
        while True:
            try:
                line = typed if typed is not None else self._read(tr("line_over_prompt", self.lang))
            except KeyboardInterrupt:
                self._print()
                return
            typed = None
            word = (line or "").strip().casefold()
            command = WORD_TO_COMMAND.get(word)
            if line is None or not word or command == "quit":
                return
            if command == "analysis":
                self._analysis()
            elif command == "help":
                self._print(tr("help", self.lang))
            else:
                self._error(tr("line_over_unknown", self.lang))

    def _analysis(self) -> None:
        """The finished game's analysis in words; while its strategy table is being
        prepared (a fresh install's Maxi) that is said, and the analysis follows by
        itself once the table is ready (Ctrl-C stops the wait)."""
        self._print(tr("line_analysing", self.lang))
        lines = analysis_lines(self.state, self.lang, self.history)
        try:
            while lines.preparing:
                self._print_wrapped(lines)
                self._sleep(ANALYSIS_RETRY_SECONDS)
                lines = analysis_lines(self.state, self.lang, self.history)
        except KeyboardInterrupt:
            self._print()
            return
        self._print(tr("tui_analysis_title", self.lang))
        self._print_wrapped(lines)

    def _hint(self) -> None:
        """``hint``: the advisor's best options now (the full screen's H).  While its
        table is being prepared it says so, and the options come by themselves at the
        first prompt after the table is ready (:meth:`_hint_when_ready`)."""
        state = self.state
        record = self.record if len(state.players) == 1 else None
        lines = hint_lines(state.clone(), record, self.lang)
        self._hint_pending = lines.preparing
        self._print(tr("tui_hint_title", self.lang))
        self._print_wrapped(lines)

    def _print_wrapped(self, lines: Sequence[str]) -> None:
        """Indented lines of words (a hint, an analysis); at a terminal broken between
        words rather than mid-word at its edge."""
        width = self._columns()
        for text in lines:
            if not text:
                self._print()
            elif width is None:
                self._print(f"  {text}")
            else:
                self._print(
                    textwrap.fill(
                        text,
                        width - 1,
                        initial_indent="  ",
                        subsequent_indent="    ",
                        break_long_words=False,
                        break_on_hyphens=False,
                    )
                )

    def _hint_when_ready(self) -> None:
        """A hint asked while its table was being prepared, once the table is ready."""
        if not self._hint_pending:
            return
        from yatzy.bots import preparing

        if preparing("optimal", self.state.rules):
            return
        self._print(tr("hint_ready", self.lang))
        self._hint()
