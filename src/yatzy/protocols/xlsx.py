"""The Excel protocol: real formulas, and data validation on every box.

Built with openpyxl.  The sheet ``Protocol`` has the rows of
:func:`~yatzy.protocols.layout.protocol_rows` under a title and a row of player
names.  Sum, Bonus, Bonus par, Total, Final and the winner row are formulas, so
the spreadsheet recomputes them when someone types a score; each box accepts only
the scores its rule set makes possible (or ``x`` for a scratch) and refuses
anything else with a message saying what is possible.  A hidden sheet ``yatzy``
records the rules and the row of every box so :mod:`yatzy.protocols.importer`
can read a hand-filled protocol back.
"""

from __future__ import annotations

import os
import textwrap
from dataclasses import dataclass
from typing import IO, Any

from openpyxl import Workbook
from openpyxl.styles import Alignment, Border, Font, PatternFill, Protection, Side
from openpyxl.utils import get_column_letter
from openpyxl.worksheet.datavalidation import DataValidation
from openpyxl.worksheet.properties import PageSetupProperties
from openpyxl.worksheet.worksheet import Worksheet

from yatzy.protocols.layout import Protocol, Row, final_key, possible_entries, row_hint, row_label
from yatzy.protocols.texts import (
    SCRATCH_MARK,
    general_notes,
    option_phrases,
    scoring_notes,
    title,
    word,
)
from yatzy.rules import CATEGORIES, RuleSet

FORMAT = "yatzy-protocol"
VERSION = 1
SHEET = "Protocol"
META_SHEET = "yatzy"
HEADER_ROW = 4
"""The row of player names; the protocol's rows start below it."""
FIRST_COLUMN = 2
"""Column B holds the first player."""

_THIN = Side(style="thin", color="808080")
_BORDER = Border(left=_THIN, right=_THIN, top=_THIN, bottom=_THIN)
_COMPUTED_FILL = PatternFill("solid", fgColor="E8E8E8")
_WINNER_FILL = PatternFill("solid", fgColor="FFF2B3")
_CENTER = Alignment(horizontal="center", vertical="center")


@dataclass(frozen=True)
class SheetLayout:
    """Where everything is on the sheet: the row number of every protocol row."""

    rules: RuleSet
    rows: tuple[Row, ...]
    row_of: dict[str, int]
    winner_row: int
    count_row: int

    @classmethod
    def of(cls, rules: RuleSet, rows: tuple[Row, ...]) -> SheetLayout:
        """The layout of a protocol with ``rows``."""
        row_of = {r.key: HEADER_ROW + 1 + i for i, r in enumerate(rows)}
        last = HEADER_ROW + len(rows)
        return cls(rules, rows, row_of, winner_row=last + 1, count_row=last + 2)

    def cell(self, key: str, column: int) -> str:
        """The A1 address of row ``key`` in sheet column ``column``."""
        return f"{get_column_letter(column)}{self.row_of[key]}"


def _runs(numbers: list[int]) -> list[tuple[int, int]]:
    """Consecutive runs of sorted row numbers, as (first, last)."""
    runs: list[tuple[int, int]] = []
    for n in numbers:
        if runs and runs[-1][1] == n - 1:
            runs[-1] = (runs[-1][0], n)
        else:
            runs.append((n, n))
    return runs


def _refs(letter: str, numbers: list[int]) -> str:
    parts = [f"{letter}{a}" if a == b else f"{letter}{a}:{letter}{b}" for a, b in _runs(numbers)]
    return ",".join(parts)


def formulas(layout: SheetLayout, column: int) -> dict[str, str]:
    """The formula of every computed row (and the winner row) of one player column."""
    rules = layout.rules
    col = get_column_letter(column)
    r = layout.row_of
    upper = [r[b] for b in rules.upper_boxes]
    up = _refs(col, upper)
    boxes = [r[b] for b in rules.boxes if b != "extra"]
    written = [r[row.key] for row in layout.rows if row.is_written]
    box_rows = [r[b] for b in rules.boxes]
    out: dict[str, str] = {}
    # "" until the column has a score, so blank columns print blank and MAX skips them.
    out["sum"] = f'=IF(COUNTA({up})=0,"",SUM({up}))'
    out["bonus"] = f'=IF(COUNTA({up})=0,"",IF(SUM({up})>={rules.threshold},{rules.bonus},0))'
    # The pace of RULES.md's bonus par: threshold × (faces of the filled boxes) / 21,
    # rounded with halves up (ROUND rounds half away from zero; the pace is never < 0).
    faces = "+".join(f'IF({col}{r[b]}<>"",{CATEGORIES[b].face},0)' for b in rules.upper_boxes)
    out["par"] = f'=IF(COUNTA({up})=0,"",SUM({up})-ROUND({rules.threshold}*({faces})/21,0))'
    total_parts = [_refs(col, boxes), f"{col}{r['bonus']}"]
    if "yatzy_bonus" in r:
        total_parts.append(f"{col}{r['yatzy_bonus']}")
    out["total"] = f'=IF(COUNTA({_refs(col, written)})=0,"",SUM({",".join(total_parts)}))'
    if rules.double:
        out["final"] = f'=IF({col}{r["total"]}="","",SUM({col}{r["total"]},{col}{r["extra"]}))'
    # The hidden count row: boxes filled in this column.
    out["count"] = f"=COUNTA({_refs(col, box_rows)})"
    return out


def winner_formula(layout: SheetLayout, column: int, last_column: int, text: str) -> str:
    """The winner cell of one column: ``text`` once every started column is full and
    this column has the best final score."""
    col = get_column_letter(column)
    first, last = get_column_letter(FIRST_COLUMN), get_column_letter(last_column)
    counts = f"${first}${layout.count_row}:${last}${layout.count_row}"
    n = len(layout.rules.boxes)
    fr = layout.row_of[final_key(layout.rules)]
    finals = f"${first}${fr}:${last}${fr}"
    complete = f'AND(COUNTIF({counts},">0")>0,COUNTIF({counts},{n})=COUNTIF({counts},">0"))'
    return (
        f"=IF(AND({complete},{col}{layout.count_row}={n}),"
        f'IF({col}{fr}=MAX({finals}),"{text}",""),"")'
    )


def validation_message(rules: RuleSet, row: Row, lang: Any) -> str:
    """The message a spreadsheet shows when an impossible score is typed in ``row``."""
    scores = possible_entries(rules, row)
    shown = ", ".join(map(str, scores))
    if len(shown) > 150:
        shown = f"{', '.join(map(str, scores[:6]))} … {', '.join(map(str, scores[-3:]))}"
    text = word("possible", lang, box=row_label(row, lang, rules), scores=shown)
    if row.kind == "box" and rules.scratchable(row.key):
        text += word("or_scratch", lang)
    return text


def validation_list(rules: RuleSet, row: Row) -> list[str]:
    """The entries a cell of ``row`` accepts: its possible scores, and ``x`` if scratchable."""
    items = [str(p) for p in possible_entries(rules, row)]
    if row.kind == "box" and rules.scratchable(row.key):
        items.append(SCRATCH_MARK)
    return items


def build_workbook(protocol: Protocol) -> Workbook:
    """The workbook of ``protocol`` (blank or filled)."""
    rules, lang = protocol.rules, protocol.lang
    layout = SheetLayout.of(rules, protocol.rows)
    wb = Workbook()
    ws = wb.active
    assert isinstance(ws, Worksheet)
    ws.title = SHEET
    last_col = FIRST_COLUMN + len(protocol.columns) - 1

    ws["A1"] = title(rules, lang)
    ws["A1"].font = Font(size=16, bold=True)
    ws["A2"] = f"{word('rules', lang)}: {rules.spec}"
    options = option_phrases(rules, lang)
    if options:
        ws["A2"] = f"{ws['A2'].value} ({'; '.join(options)})"
    if not protocol.finished and protocol.columns and protocol.columns[0].marks:
        ws["A3"] = word("in_progress", lang, done=protocol.rounds_played, all=rules.turns)
    ws.column_dimensions["A"].width = 30
    header = ws.cell(HEADER_ROW, 1, word("player", lang))
    header.font = Font(bold=True)
    header.border = _BORDER

    for row in protocol.rows:
        rn = layout.row_of[row.key]
        hint = row_hint(row, rules, lang)
        name = row_label(row, lang, rules) + (f" ({hint})" if hint else "")
        cell = ws.cell(rn, 1, name)
        cell.border = _BORDER
        if row.kind == "computed":
            cell.font = Font(bold=True)
            cell.fill = _COMPUTED_FILL
        ws.row_dimensions[rn].height = 20
    ws.cell(layout.winner_row, 1, word("winner", lang)).font = Font(bold=True)
    ws.cell(layout.count_row, 1, "filled")
    ws.row_dimensions[layout.count_row].hidden = True

    validations: dict[str, DataValidation] = {}
    for row in protocol.rows:
        if not row.is_written:
            continue
        items = validation_list(rules, row)
        formula = '"' + ",".join(items) + '"'
        if len(formula) > 255:  # pragma: no cover - every rule set fits; checked in tests
            raise ValueError(f"the list of {row.key} is too long for a spreadsheet")
        dv = DataValidation(
            type="list",
            formula1=formula,
            allow_blank=True,
            showErrorMessage=True,
            errorStyle="stop",
            errorTitle=row_label(row, lang, rules)[:32],
            error=validation_message(rules, row, lang),
            showInputMessage=True,
            promptTitle=row_label(row, lang, rules)[:32],
            prompt=validation_message(rules, row, lang),
        )
        ws.add_data_validation(dv)
        validations[row.key] = dv

    winner_text = word("winner", lang)
    for i, column in enumerate(protocol.columns):
        c = FIRST_COLUMN + i
        letter = get_column_letter(c)
        ws.column_dimensions[letter].width = 13
        name_cell = ws.cell(HEADER_ROW, c)
        if column.name:
            _text(name_cell, column.name)
        name_cell.font = Font(bold=True)
        name_cell.alignment = _CENTER
        name_cell.border = _BORDER
        name_cell.protection = Protection(locked=False)
        f = formulas(layout, c)
        for row in protocol.rows:
            rn = layout.row_of[row.key]
            box_cell = ws.cell(rn, c)
            box_cell.border = _BORDER
            box_cell.alignment = _CENTER
            if row.kind == "computed":
                box_cell.value = f[row.key]
                box_cell.fill = _COMPUTED_FILL
                box_cell.font = Font(bold=True)
                if row.key == "par":
                    box_cell.number_format = "+0;-0;0"
                continue
            box_cell.protection = Protection(locked=False)
            box_cell.font = Font(size=12)
            validations[row.key].add(box_cell)
            mark = column.marks.get(row.key)
            if mark is not None:
                box_cell.value = SCRATCH_MARK if mark.scratched else mark.points
                if mark.scratched:
                    box_cell.font = Font(size=12, color="808080")
        ws.cell(layout.count_row, c, f["count"])
        win = ws.cell(layout.winner_row, c, winner_formula(layout, c, last_col, winner_text))
        win.alignment = _CENTER
        win.font = Font(bold=True, color="9C5700")

    notes_row = layout.count_row + 2
    # The footnote in few lines, so a printed protocol stays on one page.
    width = 60 + 14 * len(protocol.columns)
    notes = [word("scratch_note", lang), *general_notes(rules, lang)]
    notes = textwrap.wrap(" ".join(n if n.endswith(".") else n + "." for n in notes), width)
    notes += textwrap.wrap("; ".join(scoring_notes(rules, lang)) + ".", width)
    for k, line in enumerate(notes):
        ws.cell(notes_row + k, 1, line).font = Font(size=8, color="404040")
        ws.row_dimensions[notes_row + k].height = 11

    # Formulas are locked against typing over them; names and boxes stay editable.
    ws.protection.sheet = True
    ws.protection.formatColumns = False
    ws.protection.formatRows = False
    ws.freeze_panes = f"{get_column_letter(FIRST_COLUMN)}{HEADER_ROW + 1}"
    ws.print_area = f"A1:{get_column_letter(last_col)}{notes_row + len(notes) - 1}"
    ws.page_setup.paperSize = ws.PAPERSIZE_A4
    ws.page_setup.orientation = "portrait"
    ws.page_setup.fitToWidth = 1
    ws.page_setup.fitToHeight = 0
    ws.sheet_properties.pageSetUpPr = PageSetupProperties(fitToPage=True)
    ws.print_title_cols = "A:A"

    meta = wb.create_sheet(META_SHEET)
    meta.sheet_state = "hidden"
    entries: list[tuple[str, Any]] = [
        ("format", FORMAT),
        ("version", VERSION),
        ("rules", rules.spec),
        ("lang", lang),
        ("header_row", HEADER_ROW),
        ("first_column", FIRST_COLUMN),
        ("columns", len(protocol.columns)),
    ]
    if protocol.starter is not None:
        entries.append(("starter", protocol.starter))
    entries += [(f"row:{row.key}", layout.row_of[row.key]) for row in protocol.rows]
    for k, (key, value) in enumerate(entries, start=1):
        meta.cell(k, 1, key)
        meta.cell(k, 2, value)
    return wb


def _text(cell: Any, text: str) -> None:
    """Put text a person chose (a player's name) into ``cell`` as a string, never a
    formula.

    openpyxl stores any string that starts with ``=`` as a formula, so a name like
    ``=HYPERLINK(...)`` would run in the spreadsheet of everyone who opens the
    protocol.  The cell's type is set to string after the value, and the quote
    prefix (Excel's leading apostrophe) keeps it text when someone edits it there.
    """
    cell.value = text
    cell.data_type = "s"
    cell.quotePrefix = True


def write_xlsx(protocol: Protocol, target: str | os.PathLike[str] | IO[bytes]) -> None:
    """Write ``protocol`` as an Excel workbook to a path or binary stream."""
    build_workbook(protocol).save(target)
