"""Saving and leaving the full-screen game, and its yes/no questions.

:class:`SavingApp` is the part of :class:`yatzy.cli.tui.app.YatzyApp` that keeps a
game from being lost: the record after every move (``--save``/``--resume``),
Ctrl-S, and quitting, which saves an unfinished game or offers to (to the rescue
folder by default) and never replaces a file unasked.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable

from textual.app import App

from yatzy.cli.i18n import tr
from yatzy.cli.play_common import has_progress, rescue_path
from yatzy.cli.tui.screens import ConfirmScreen, PathScreen
from yatzy.game import State, save
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
    save_path: str | None
    rescue_directory: str
    error: str
    exit_lines: list[str]

    def _redraw(self) -> None:
        raise NotImplementedError

    def _say(self, text: str) -> None:
        raise NotImplementedError

    def _autosave(self) -> None:
        if self.save_path:
            self._save_to(self.save_path)

    def _save_to(self, path: str) -> bool:
        try:
            save(self.state, path)
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

        if os.path.exists(path) and path != self.save_path:
            self._ask(tr("tui_overwrite", self.lang, path=path), write, tr("not_saved", self.lang))
        else:
            write()

    def action_request_quit(self) -> None:
        """Q, Ctrl-Q, Ctrl-C: leave; an unfinished game is saved or offered to be saved."""
        state = self.state
        if state.is_terminal():
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
                self.exit_lines = [tr("not_saved", self.lang)]
                self.exit(EXIT_UNFINISHED)
            elif path:
                self._save_asking(os.path.expanduser(path), lambda: self.exit(EXIT_UNFINISHED))

        buttons = [
            ("save", tr("tui_save_quit", self.lang)),
            ("nosave", tr("tui_quit_nosave", self.lang)),
            ("back", tr("tui_back", self.lang)),
        ]
        default = rescue_path(self.rescue_directory)
        self.push_screen(PathScreen(tr("tui_quit_title", self.lang), default, buttons), chosen)
