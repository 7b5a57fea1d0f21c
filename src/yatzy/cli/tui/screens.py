"""The dialogs of the full-screen game: yes/no, help and rules, hints, save, quit.

Each is a modal screen that answers the app through ``dismiss``; the safe
answer is the default (a stray Enter says no, or saves rather than loses).
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Button, Input, Static

from yatzy.cli.i18n import tr
from yatzy.rules import Language

_DIALOG_CSS = """
{name} {{ align: center middle; }}
{name} > Vertical {{
    width: 100%; max-width: 100; height: auto; max-height: 100%;
    border: thick $accent; background: $surface; padding: 0 1;
}}
{name} Horizontal {{ height: auto; }}
{name} Button {{ margin: 0 1 0 0; min-width: 8; }}
{name} VerticalScroll {{ height: auto; max-height: 30; }}
"""


class ConfirmScreen(ModalScreen[bool]):
    """A yes/no question; No has the focus, so a stray Enter or Escape answers no."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [  # noqa: RUF012 (Textual's own class attribute)
        Binding("escape,n,e", "answer(False)", show=False),
        Binding("y,j,k", "answer(True)", show=False),
    ]

    def __init__(self, question: str, lang: Language) -> None:
        super().__init__()
        self.question = question
        self.lang: Language = lang

    def compose(self) -> ComposeResult:
        """The question and the two buttons."""
        with Vertical():
            yield Static(Text(self.question, style="bold"), id="question")
            with Horizontal():
                yield Button(tr("tui_yes", self.lang), id="yes", variant="warning")
                yield Button(tr("tui_no", self.lang), id="no", variant="primary")

    def on_mount(self) -> None:
        """No is the default."""
        self.query_one("#no", Button).focus()

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer with the button pressed."""
        self.dismiss(event.button.id == "yes")

    def action_answer(self, yes: bool) -> None:
        """Answer by a key."""
        self.dismiss(yes)


class TextScreen(ModalScreen[None]):
    """Text to read (help, rules, hints), scrolled with the arrows; Escape closes."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="TextScreen")
    BINDINGS = [  # noqa: RUF012
        Binding("escape,enter,space,q,question_mark,h", "close", show=False),
        Binding("up", "scroll(-1)", show=False),
        Binding("down", "scroll(1)", show=False),
    ]

    def __init__(self, title: str, lines: Sequence[str], lang: Language) -> None:
        super().__init__()
        self.title_text = title
        self.lines = list(lines)
        self.lang: Language = lang

    def compose(self) -> ComposeResult:
        """Title, the text in a scrolling box, and how to close."""
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            with VerticalScroll():
                yield Static("\n".join(self.lines), id="body")
            yield Static(Text(tr("tui_close", self.lang), style="dim"))

    def on_mount(self) -> None:
        """Show the newest text: a hint computed while the screen was being built
        arrives before its body exists."""
        self._show_lines()

    def set_lines(self, lines: Sequence[str]) -> None:
        """Replace the text (a hint that has been computed)."""
        self.lines = list(lines)
        self._show_lines()

    def _show_lines(self) -> None:
        bodies = self.query("#body").results(Static)
        for body in bodies:
            body.update("\n".join(self.lines))

    def action_close(self) -> None:
        """Back to the game."""
        self.dismiss(None)

    def action_scroll(self, step: int) -> None:
        """Scroll the text a line."""
        self.query_one(VerticalScroll).scroll_relative(y=step, animate=False)


class PathScreen(ModalScreen[tuple[str, str] | None]):
    """A file name to save to, with buttons; answers ``(button id, path)`` or None.

    The quit dialog is one: Enter in the field saves to the offered rescue file,
    so a stray Enter keeps the game rather than losing it.
    """

    DEFAULT_CSS = _DIALOG_CSS.format(name="PathScreen")
    BINDINGS = [Binding("escape", "back", show=False)]  # noqa: RUF012

    def __init__(self, title: str, path: str, buttons: Sequence[tuple[str, str]]) -> None:
        super().__init__()
        self.title_text = title
        self.path = path
        self.buttons = list(buttons)

    def compose(self) -> ComposeResult:
        """Title, the file name and the buttons (the first saves)."""
        with Vertical():
            yield Static(Text(self.title_text, style="bold"))
            yield Input(self.path, id="path")
            with Horizontal():
                for i, (key, label) in enumerate(self.buttons):
                    yield Button(label, id=key, variant="primary" if i == 0 else "default")

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the field is the first button (save)."""
        self.dismiss((self.buttons[0][0], event.value.strip()))

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """Answer with the button and the file name."""
        if event.button.id == "back":
            self.dismiss(None)
            return
        self.dismiss((str(event.button.id), self.query_one("#path", Input).value.strip()))

    def action_back(self) -> None:
        """Escape: back to the game, nothing done."""
        self.dismiss(None)
