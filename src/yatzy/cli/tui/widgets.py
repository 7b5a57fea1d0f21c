"""The widgets of the full-screen game: the sheet, the dice and the message lines.

They only draw what the app hands them (rows from :mod:`.sheetview`, dice as
text, messages); no widget reads or changes the game.
"""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.widgets import DataTable, Static

from yatzy.cli.tui.sheetview import KEPT, YATZY, Cell, SheetRow

FIXED = 3
"""Columns that stay when the sheet scrolls sideways: letter, box, now."""


def _cell(cell: Cell, justify: str = "right") -> Text:
    return Text(cell.text, style=cell.style, justify=justify)  # type: ignore[arg-type]


class SheetTable(DataTable[Text]):
    """Every player's column of the sheet, what each open box scores now, a cell cursor.

    The cursor sits in the current player's column on the chosen box; the table
    scrolls (both ways) to keep it in view, the box names and the now column fixed.
    Sideways it scrolls by whole player columns, so that no column head is cut in
    half beside the fixed ones ("nuJoh…" where "nu" met the last letters of "Johanna"):
    a blank column at the far right pads the width to make that possible.
    """

    can_focus = False  # the app reads every key; the cursor moves only as it says
    _compact = False

    def build(
        self,
        heads: Sequence[str],
        now_head: str,
        now_width: int,
        rows: Sequence[SheetRow],
        *,
        compact: bool = False,
    ) -> int:
        """Make the columns and rows (once per layout), wide enough for every value;
        the width the table needs.  ``compact`` (the two-column sheet of a short
        screen) puts one space between the columns instead of two."""
        self.clear(columns=True)
        self._shown: dict[tuple[str, str], tuple[str, str]] = {}
        self._marked: int | None = -2  # new column heads: the current player is marked anew
        self._compact = compact
        self.cell_padding = 0 if compact else 1
        gap = 1 if compact else 0
        self.fixed_columns = FIXED
        # The players' chances to win stay in sight when the sheet scrolls.
        self.fixed_rows = 1 if rows and rows[0].key == "win" else 0
        least = 4  # "≈54", "100", ">99"
        label_width = max(len(r.label.text) for r in rows) + gap
        widths = [1 + gap, label_width, now_width + gap]
        self.add_column("", key="letter", width=widths[0])
        self.add_column("", key="label", width=label_width)
        self.add_column(Text(now_head, justify="right"), key="now", width=widths[2])
        for i, head in enumerate(heads):
            width = max(least, len(head)) + gap
            widths.append(width)
            self.add_column(Text(head, justify="right"), key=f"p{i}", width=width)
        for row in rows:
            self.add_row(*self._cells(row), key=row.key)
        self.add_column("", key="pad", width=0)  # see _pad_to_whole_columns
        self._pad_to_whole_columns()
        return sum(widths) + 2 * self.cell_padding * len(widths)

    def _player_widths(self) -> list[int]:
        """The rendered width of each player's column, in order."""
        return [
            column.get_render_width(self)
            for column in self.ordered_columns[FIXED:]
            if str(column.key.value).startswith("p")
        ]

    def _column_start_from(self, offset: int) -> int:
        """The start of the first player's column at or after ``offset`` (counted from
        the first player's column; past the last one, the players' whole width)."""
        start = 0
        for width in self._player_widths():
            if start >= offset:
                break
            start += width
        return start

    def _pad_to_whole_columns(self) -> None:
        """Widen the blank last column so that the furthest the table can scroll
        sideways is the start of a player's column (see :meth:`_snap_to_column`)."""
        pad = self.columns.get("pad")  # type: ignore[call-overload]
        fixed = self._get_fixed_offset().left
        room = self.scrollable_content_region.width - fixed
        if pad is None or room <= 0:
            return
        over = sum(self._player_widths()) - room  # the furthest the players' columns scroll
        want = self._column_start_from(over) - over if over > 0 else 0
        want = max(0, want - 2 * self.cell_padding)
        if pad.width != want:
            pad.width = want
            self._require_update_dimensions = True
            self.refresh()

    def on_resize(self) -> None:
        """A new width needs another pad to scroll by whole columns."""
        self._pad_to_whole_columns()

    def _snap_to_column(self) -> None:
        """Scroll sideways to the start of the first player's column that is not
        cut, keeping the cursor's column in view."""
        x = int(self.scroll_x)
        start = self._column_start_from(x)
        if start != x and start <= self.max_scroll_x:
            self.scroll_to(x=start, animate=False, force=True)

    def _scroll_cursor_into_view(self, animate: bool = False) -> None:
        super()._scroll_cursor_into_view(animate=False)
        self._snap_to_column()

    def _cells(self, row: SheetRow) -> list[Text]:
        return [
            Text(row.letter + (" " if self._compact and row.letter else ""), style="bold cyan"),
            _cell(row.label, "left"),
            _cell(row.now),
            *(_cell(c) for c in row.cells),
        ]

    def show(self, rows: Sequence[SheetRow]) -> None:
        """Put new values into the cells that changed (same rows and columns as built)."""
        if not rows:
            return
        keys = ["letter", "label", "now"] + [f"p{i}" for i in range(len(rows[0].cells))]
        for row in rows:
            for key, value in zip(keys, self._cells(row), strict=True):
                seen = (value.plain, str(value.style))
                if self._shown.get((row.key, key)) != seen:
                    # Only changed cells: every update makes the table draw its rows again.
                    self._shown[(row.key, key)] = seen
                    self.update_cell(row.key, key, value)

    def mark_player(self, heads: Sequence[str], seat: int | None) -> None:
        """Draw the current player's column head in reverse video."""
        if getattr(self, "_marked", -2) == seat:
            return
        self._marked = seat
        for i, head in enumerate(heads):
            column = self.columns.get(f"p{i}")  # type: ignore[call-overload]
            if column is not None:
                style = "bold reverse" if i == seat else "bold"
                column.label = Text(head, style=style, justify="right")
        self.refresh()


class DiceBar(Static):
    """The dice with their keys 1-6 and the rolls left: a kept die yellow and in
    brackets (``[5]``, a mark that needs no colour), a Yatzy magenta."""

    def show_dice(
        self,
        faces: Sequence[str],
        kept: set[int],
        *,
        yatzy: bool,
        rolls: str,
        label: str,
    ) -> None:
        """Draw ``faces`` (empty: no dice out); ``kept`` positions are 0-based."""
        text = Text()
        text.append(f"{label} ", style="bold")
        if not faces:
            text.append("–")
        for i, face in enumerate(faces):
            style = KEPT if i in kept else (YATZY + " reverse" if yatzy else "bold reverse")
            text.append(f"{i + 1}:", style="cyan")
            text.append(f"[{face}]" if i in kept else f" {face} ", style=style)
            text.append("  ")
        text.append("\n")
        text.append(rolls)
        self.update(text)


class MessageLines(Static):
    """The last few things that happened (writes, rolls, refusals), newest last."""

    def show_lines(self, lines: Sequence[str], error: str = "") -> None:
        """Draw ``lines`` and, when given, one refusal in red below them."""
        room = int(self.styles.height.value) if self.styles.height else 3
        lines = list(lines)[-(room - 1) :] if error else list(lines)[-room:]
        text = Text("\n".join(lines))
        if error:
            if lines:
                text.append("\n")
            text.append(error, style="bold red")
        self.update(text)
