"""Saving and leaving the full-screen game, and its yes/no questions.

:class:`SavingApp` is the part of :class:`yatzy.cli.tui.app.YatzyApp` that keeps a
game from being lost: the record after every move (``--save``/``--resume``, or
by default a new file in the rescue folder: :attr:`SavingApp.autosave_path`),
Ctrl-S, quitting, which saves an unfinished game or offers to keep it (in the
rescue folder by default) and never replaces a file unasked, and a hang-up or
SIGTERM (:meth:`SavingApp.hang_up`), which saves the game and leaves the full
screen as a quit does.
"""

from __future__ import annotations

import contextlib
import os
import random
from collections.abc import Callable

from textual.app import App
from textual.driver import Driver

from yatzy.cli.i18n import tr
from yatzy.cli.play_common import (
    dice_proof,
    has_progress,
    rescue_path,
    settle_finished_file,
    write_record,
)
from yatzy.cli.tui.driver import driver_class
from yatzy.cli.tui.screens import ConfirmScreen, PathScreen
from yatzy.game import Dealer, State, save
from yatzy.rules import Language

EXIT_FINISHED = 0
"""The app's exit code when the game was played to its end."""
EXIT_UNFINISHED = 1
"""The app's exit code when the player left an unfinished game (saved or not)."""


class SavingApp(App[int]):
    """The game's saving and leaving (see the module docstring); the app around it
    draws and says things (:meth:`_redraw`, :meth:`_say`)."""

    state: State
    lang: Language
    rng: random.Random | Dealer
    save_path: str | None
    autosave_path: str | None = None
    """Where the game is saved after every move when ``save_path`` is not given (a
    file of the rescue folder, written once anything is played; ``None``: nowhere)."""
    rescue_directory: str
    error: str
    exit_lines: list[str]

    def _redraw(self) -> None:
        raise NotImplementedError

    def _say(self, text: str) -> None:
        raise NotImplementedError

    def _settle_held(self) -> None:
        raise NotImplementedError

    def _autosave(self) -> None:
        if self.save_path:
            self._save_to(self.save_path)
        elif self.autosave_path and has_progress(self.state):
            try:
                write_record(self.state, self.autosave_path, self.lang, self.rng)
            except OSError as exc:
                reason = exc.strerror or str(exc)
                self.error = tr("save_failed", self.lang, path=self.autosave_path, reason=reason)
                self.autosave_path = None  # said once, not after every move

    def _drop_autosave(self, kept: str | None = None) -> None:
        """Delete the autosaved file, unless it is ``kept`` (the player chose not to keep
        the game, or kept it in another file)."""
        path = self.autosave_path
        if path and (kept is None or os.path.abspath(kept) != os.path.abspath(path)):
            with contextlib.suppress(OSError):
                os.remove(path)
            self.autosave_path = None

    def _settle_finished(self) -> None:
        """The game is over: its file called ``unfinished-…`` (the autosave, a rescued game
        resumed) is renamed ``finished-…``, and the lines left after the app say where."""
        for attr in ("save_path", "autosave_path"):
            renamed = settle_finished_file(getattr(self, attr))
            if renamed is not None:
                setattr(self, attr, renamed)
                self.exit_lines = [*self.exit_lines, tr("finished_file", self.lang, path=renamed)]
                return

    _hanging_up = False

    def get_driver_class(self) -> type[Driver]:
        """Textual's driver for this platform, made safe for a terminal that hangs up
        (:mod:`yatzy.cli.tui.driver`)."""
        return driver_class() or super().get_driver_class()

    def hang_up(self, signum: int) -> None:
        """The terminal closed (SIGHUP), or the game was told to stop (SIGTERM): save an
        unfinished game where it is saved (the rescue folder when nowhere) and leave with
        128 + ``signum``, restoring the terminal as a quit does.  Only the first call
        counts (the signal and the terminal's failed write may both say it)."""
        if self._hanging_up:
            return
        self._hanging_up = True
        self._settle_held()
        self.exit_lines = self.rescue()
        self.exit(128 + signum)

    def rescue(self) -> list[str]:
        """Save an unfinished game where it is saved (the rescue folder when nowhere);
        the lines that say where (or why not), none when there was nothing to save."""
        state = self.state
        if state.is_terminal() or not has_progress(state):
            return list(self.exit_lines)
        path = self.save_path or self.autosave_path or rescue_path(self.rescue_directory)
        try:
            write_record(state, path, self.lang, self.rng)
        except OSError as exc:
            reason = exc.strerror or str(exc)
            return [tr("save_failed", self.lang, path=path, reason=reason)]
        return [tr("rescued", self.lang, path=path), tr("resume_hint", self.lang, path=path)]

    def _save_to(self, path: str) -> bool:
        try:
            save(self.state, path, lang=self.lang, dice=dice_proof(self.rng))
        except OSError as exc:
            reason = exc.strerror or str(exc)
            self.error = tr("save_failed", self.lang, path=path, reason=reason)
            return False
        return True

    def _ask(self, question: str, then: Callable[[], None], refused: str = "") -> None:
        """Ask ``question`` (No is the default); ``then`` runs on a yes, else ``refused`` shows."""

        def answered(yes: bool | None) -> None:
            if yes:
                then()
            else:
                self.error = refused
            self._redraw()

        self.push_screen(ConfirmScreen(question, self.lang), answered)

    def action_save(self) -> None:
        """Ctrl-S: save the game to a file (asks before replacing one)."""
        if len(self.screen_stack) > 1:
            return
        default = self.save_path or os.path.join(os.getcwd(), "yatzy-game.json")

        def chosen(answer: tuple[str, str] | None) -> None:
            if answer is None or not answer[1]:
                return
            self._save_asking(os.path.expanduser(answer[1]), lambda: None)

        buttons = [("save", tr("tui_save", self.lang)), ("back", tr("tui_cancel", self.lang))]
        self.push_screen(PathScreen(tr("tui_save_title", self.lang), default, buttons), chosen)

    def _save_asking(self, path: str, then: Callable[[], None]) -> None:
        """Save to ``path``, asking first when it exists; ``then`` runs after a save."""

        def write() -> None:
            folder = os.path.dirname(path)
            if folder:
                with contextlib.suppress(OSError):  # the save itself says why it fails
                    os.makedirs(folder, exist_ok=True)
            if self._save_to(path):
                self.error = ""
                self._say(tr("saved", self.lang, path=path))
                self.exit_lines = [
                    tr("saved", self.lang, path=path),
                    tr("resume_hint", self.lang, path=path),
                ]
                then()
            self._redraw()

        if os.path.exists(path) and path not in (self.save_path, self.autosave_path):
            self._ask(tr("tui_overwrite", self.lang, path=path), write, tr("not_saved", self.lang))
        else:
            write()

    def action_request_quit(self) -> None:
        """Q, Ctrl-Q, Ctrl-C: leave; an unfinished game is saved or offered to be saved."""
        state = self.state
        if state.is_terminal():
            self._settle_held()
            self.exit(EXIT_FINISHED)
            return
        if len(self.screen_stack) > 1:
            return
        if self.save_path:
            if self._save_to(self.save_path):
                self.exit_lines = [
                    tr("saved", self.lang, path=self.save_path),
                    tr("resume_hint", self.lang, path=self.save_path),
                ]
            self.exit(EXIT_UNFINISHED)
            return
        if not has_progress(state):
            self.exit(EXIT_UNFINISHED)
            return

        def chosen(answer: tuple[str, str] | None) -> None:
            if answer is None:
                return
            button, path = answer
            if button == "nosave":
                self._drop_autosave()
                self.exit_lines = [tr("not_saved", self.lang)]
                self.exit(EXIT_UNFINISHED)
            elif path:
                path = os.path.expanduser(path)

                def saved() -> None:
                    self._drop_autosave(kept=path)  # kept where the player said, not twice
                    self.exit(EXIT_UNFINISHED)

                self._save_asking(path, saved)

        buttons = [
            ("save", tr("tui_save_quit", self.lang)),
            ("nosave", tr("tui_quit_nosave", self.lang)),
            ("back", tr("tui_back", self.lang)),
        ]
        default = self.autosave_path or rescue_path(self.rescue_directory)
        self.push_screen(PathScreen(tr("tui_quit_title", self.lang), default, buttons), chosen)
