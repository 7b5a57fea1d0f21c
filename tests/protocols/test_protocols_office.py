"""The Excel protocol in a real spreadsheet: LibreOffice (headless) opens every file,
recalculates its formulas, and the results must equal the engine's.

openpyxl writes formulas without cached results, so every number read back here was
computed by LibreOffice.  All files are converted in one ``soffice`` run (it is slow
to start) with a profile of its own, so parallel test runs do not share a lock.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.protocols.helpers import SPECS, random_game
from yatzy.game import State
from yatzy.protocols import Protocol
from yatzy.protocols.importer import read_protocol
from yatzy.protocols.xlsx import HEADER_ROW, SHEET, write_xlsx
from yatzy.rules import RuleSet
from yatzy.rules.categories import UPPER_IDS as UPPER

SOFFICE = shutil.which("soffice")
pytestmark = [
    pytest.mark.office,
    pytest.mark.slow,  # one soffice run of every file: a minute of LibreOffice
    pytest.mark.skipif(
        SOFFICE is None, reason="needs LibreOffice (Debian: libreoffice-calc-nogui)"
    ),
]

GAMES_PER_SPEC = 4


def typed_protocol(path: Path) -> None:
    """A blank protocol with scores typed in afterwards (as a person would)."""
    write_xlsx(Protocol.blank(RuleSet.parse("yahtzee"), ["Anna", "Bo", "Cleo"], 4), path)
    wb = load_workbook(path)
    ws = wb[SHEET]
    rows = {
        k[4:]: v
        for k, v in wb["yatzy"].iter_rows(values_only=True)
        if isinstance(k, str) and k.startswith("row:")
    }
    anna: dict[str, int | str] = {
        "ones": 4,
        "twos": 8,
        "threes": 12,
        "fours": 16,
        "fives": 15,
        "sixes": 12,
        "three_of_a_kind": 25,
        "four_of_a_kind": 0,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": "x",
        "yatzy": 50,
        "chance": 23,
        "yatzy_bonus": 100,
    }
    bo: dict[str, int | str] = {
        "ones": 2,
        "twos": 6,
        "threes": "x",
        "fours": 12,
        "fives": 20,
        "sixes": 18,
        "three_of_a_kind": 17,
        "four_of_a_kind": 22,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "yatzy": 0,
        "chance": 19,
    }
    # Exactly the threshold: 63 earns the bonus.
    cleo: dict[str, int | str] = {
        **{box: 3 * face for face, box in enumerate(UPPER, start=1)},
        "three_of_a_kind": 20,
        "four_of_a_kind": 0,
        "full_house": 25,
        "small_straight": 30,
        "large_straight": 40,
        "yatzy": 0,
        "chance": 20,
    }
    for col, values in (("B", anna), ("C", bo), ("D", cleo)):
        for key, value in values.items():
            ws[f"{col}{rows[key]}"] = value
    wb.save(path)


@pytest.fixture(scope="module")
def recalculated(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """Every test file, converted by LibreOffice: name -> (recalculated sheet, state)."""
    base = tmp_path_factory.mktemp("office")
    src, out = base / "in", base / "out"
    src.mkdir()
    out.mkdir()
    games: dict[str, State | None] = {}
    for spec in SPECS:
        rules = RuleSet.parse(spec)
        for seed in range(GAMES_PER_SPEC):
            players = 1 + seed % 4
            # One game in four stops mid-game, so blank cells and partial sums are checked too.
            turns = None if seed % 4 != 3 else (seed * 7) % (rules.turns * players)
            name = f"{spec.replace('+', '_').replace('=', '-')}_{seed}"
            state = random_game(rules, seed, players, turns)
            write_xlsx(
                Protocol.from_state(state, ("sv", "fi", "en")[seed % 3]), src / f"{name}.xlsx"
            )
            games[name] = state
    typed_protocol(src / "typed.xlsx")
    games["typed"] = None
    files = sorted(str(p) for p in src.iterdir())
    assert SOFFICE is not None
    subprocess.run(
        [
            SOFFICE,
            f"-env:UserInstallation=file://{base}/profile",
            "--headless",
            "--norestore",
            "--convert-to",
            "xlsx",
            "--outdir",
            str(out),
            *files,
        ],
        check=True,
        capture_output=True,
        timeout=600,
    )
    result: dict[str, Any] = {}
    for name, game in games.items():
        converted = out / f"{name}.xlsx"
        assert converted.exists(), f"LibreOffice did not convert {name}"
        wb = load_workbook(converted, data_only=True)
        result[name] = (wb, game, src / f"{name}.xlsx")
    return result


def computed_rows(wb: Any) -> dict[str, int]:
    return {
        k[4:]: v
        for k, v in wb["yatzy"].iter_rows(values_only=True)
        if isinstance(k, str) and k.startswith("row:")
    }


def shown(value: Any) -> Any:
    """A cell as LibreOffice computed it: '' and empty are both blank."""
    if value in (None, ""):
        return None
    return int(value) if isinstance(value, float) and value.is_integer() else value


def expected(state: State, seat: int) -> dict[str, Any]:
    """What the formulas of one column must show, from the engine."""
    sheet = state.sheets[seat]
    rules = state.rules
    filled = any(e is not None for e in sheet.entries.values())
    upper = any(not sheet.is_open(b) for b in rules.upper_boxes)
    out: dict[str, Any] = {
        "sum": sheet.upper_sum if upper else None,
        "bonus": sheet.bonus if upper else None,
        "par": sheet.bonus_par if upper else None,
        "total": sheet.total if filled else None,
    }
    if rules.double:
        out["final"] = sheet.final if filled else None
    return out


def test_libreoffice_totals_equal_the_engine_for_many_games(recalculated: dict[str, Any]) -> None:
    checked = 0
    for name, (wb, state, _) in recalculated.items():
        if state is None:
            continue
        ws = wb[SHEET]
        rows = computed_rows(wb)
        winner_row = max(rows.values()) + 1
        for seat in range(len(state.players)):
            col = get_column_letter(2 + seat)
            got = {k: shown(ws[f"{col}{rows[k]}"].value) for k in expected(state, seat)}
            assert got == expected(state, seat), f"{name}, column {col}"
            is_winner = seat in state.winners()
            assert (shown(ws[f"{col}{winner_row}"].value) is not None) == is_winner, name
            checked += 1
    assert checked >= len(SPECS) * GAMES_PER_SPEC
    finished = sum(s is not None and s.is_terminal() for _, s, _ in recalculated.values())
    assert finished == len(SPECS) * 3


def test_scores_typed_into_a_blank_protocol_are_recalculated(
    recalculated: dict[str, Any],
) -> None:
    wb, _, source = recalculated["typed"]
    state = read_protocol(source)  # the engine's reading of the same typed cells
    assert state.is_terminal()
    ws = wb[SHEET]
    rows = computed_rows(wb)
    # Anna: 67 upper + 35 bonus + 153 lower + 100 Yatzy bonus; Bo: 58 upper, no bonus;
    # Cleo: 63 upper, just enough for the bonus.
    assert state.totals() == [355, 211, 63 + 35 + 135]
    for seat, col in enumerate("BCD"):
        assert shown(ws[f"{col}{rows['total']}"].value) == state.totals()[seat]
        assert shown(ws[f"{col}{rows['par']}"].value) == state.sheets[seat].bonus_par
    assert shown(ws[f"B{rows['bonus']}"].value) == 35
    assert shown(ws[f"C{rows['bonus']}"].value) == 0
    assert shown(ws[f"D{rows['bonus']}"].value) == 35
    winner_row = max(rows.values()) + 1
    assert ws[f"B{winner_row}"].value == "Winner"
    assert shown(ws[f"C{winner_row}"].value) is None
    assert shown(ws[f"E{rows['total']}"].value) is None  # the unused column stays blank
    assert ws[f"B{HEADER_ROW}"].value == "Anna"
