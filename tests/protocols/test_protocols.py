"""Protocols: the shared row model, the Excel file's formulas and validation, the
importer and the command line (no LibreOffice or poppler needed here)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from openpyxl import load_workbook
from openpyxl.utils import get_column_letter

from tests.conftest import ALL_RULE_SETS
from tests.protocols.helpers import SPECS, random_game, sheet_summary
from yatzy.cli.main import main
from yatzy.game import dumps, load
from yatzy.protocols import Protocol, ProtocolFileError, protocol_rows
from yatzy.protocols.importer import ProtocolImportError, read_protocol
from yatzy.protocols.layout import possible_entries
from yatzy.protocols.xlsx import HEADER_ROW, SHEET, write_xlsx
from yatzy.rules import RuleSet

# -- the row model ------------------------------------------------------------------


def keys(spec: str) -> list[str]:
    return [r.key for r in protocol_rows(RuleSet.parse(spec))]


def test_rows_follow_protocol_order_with_computed_rows_in_place() -> None:
    assert keys("yatzy") == [
        "ones", "twos", "threes", "fours", "fives", "sixes", "sum", "bonus", "par",
        "one_pair", "two_pairs", "three_of_a_kind", "four_of_a_kind", "small_straight",
        "large_straight", "full_house", "chance", "yatzy", "total",
    ]  # fmt: skip
    assert keys("yahtzee")[-3:] == ["chance", "yatzy_bonus", "total"]
    assert "yatzy_bonus" not in keys("yahtzee+joker=none")
    assert keys("dubbel")[-4:] == ["yatzy", "total", "extra", "final"]
    assert keys("maxi")[9:12] == ["one_pair", "two_pairs", "three_pairs"]


def test_possible_entries_come_from_the_rules() -> None:
    rules = RuleSet.parse("yatzy")
    rows = {r.key: r for r in protocol_rows(rules)}
    assert 29 not in possible_entries(rules, rows["full_house"])
    assert possible_entries(rules, rows["small_straight"]) == [0, 15]
    maxi = RuleSet.parse("maxi")
    assert possible_entries(
        maxi, next(r for r in protocol_rows(maxi) if r.key == "maxi_yatzy")
    ) == [0, 100]
    yahtzee = RuleSet.parse("yahtzee")
    bonus = next(r for r in protocol_rows(yahtzee) if r.key == "yatzy_bonus")
    assert possible_entries(yahtzee, bonus) == [100 * k for k in range(13)]
    dubbel = RuleSet.parse("dubbel")
    extra = next(r for r in protocol_rows(dubbel) if r.key == "extra")
    assert max(possible_entries(dubbel, extra)) == -5  # minus: never 0, never positive


# -- the Excel file ------------------------------------------------------------------


def row_numbers(ws: Any) -> dict[str, int]:
    meta = ws.parent["yatzy"]
    return {
        k[4:]: v
        for k, v in meta.iter_rows(min_col=1, max_col=2, values_only=True)
        if isinstance(k, str) and k.startswith("row:")
    }


def validations(ws: Any) -> dict[str, Any]:
    """Cell address to its data validation."""
    out: dict[str, Any] = {}
    for dv in ws.data_validations.dataValidation:
        for rng in dv.sqref.ranges:
            for row in ws[rng.coord] if ":" in rng.coord else [[ws[rng.coord]]]:
                for cell in row:
                    out[cell.coordinate] = dv
    return out


def _scoring_key(rules: RuleSet) -> tuple[object, ...]:
    # The order options (forced, half_forced, saved_rolls) leave every box's scores alone.
    return (
        rules.variant,
        rules.lenient,
        rules.yatzy_pip_bonus,
        rules.joker,
        rules.extra,
        rules.scoring,
    )


SCORING_RULE_SETS = list({_scoring_key(r): r for r in ALL_RULE_SETS}.values())


@pytest.mark.slow
@pytest.mark.parametrize("rules", SCORING_RULE_SETS, ids=lambda r: r.spec)
def test_every_box_validates_exactly_the_possible_scores(rules: RuleSet, tmp_path: Path) -> None:
    path = tmp_path / "p.xlsx"
    write_xlsx(Protocol.blank(rules, ["Anna", "Bo"], 3), path)
    ws = load_workbook(path)[SHEET]
    rows = row_numbers(ws)
    checks = validations(ws)
    for row in protocol_rows(rules):
        for col in (2, 3, 4):
            addr = f"{get_column_letter(col)}{rows[row.key]}"
            if row.kind == "computed":
                assert addr not in checks
                assert str(ws[addr].value).startswith("="), f"{addr} is not a formula"
                assert ws[addr].protection.locked
                continue
            dv = checks[addr]
            assert dv.type == "list" and dv.showErrorMessage and dv.errorStyle == "stop"
            assert len(dv.formula1) <= 255  # the spreadsheet limit of a literal list
            items = dv.formula1.strip('"').split(",")
            want = [str(p) for p in possible_entries(rules, row)]
            if row.kind == "box" and rules.scratchable(row.key):
                want.append("x")
            assert items == want
            assert not ws[addr].protection.locked
    assert ws.protection.sheet  # formulas cannot be typed over


def test_validation_message_says_why() -> None:
    rules = RuleSet.parse("yatzy")
    protocol = Protocol.blank(rules, ["Anna"])
    from yatzy.protocols.xlsx import build_workbook

    ws = build_workbook(protocol)[SHEET]
    rows = row_numbers(ws)
    dv = validations(ws)[f"B{rows['small_straight']}"]
    assert dv.error == "Small Straight can be 0, 15 or x (scratch)"
    assert dv.formula1 == '"0,15,x"'


def test_export_writes_values_in_boxes_and_formulas_elsewhere(tmp_path: Path) -> None:
    state = random_game("yatzy", 3, 3)
    path = tmp_path / "g.xlsx"
    write_xlsx(Protocol.from_state(state), path)
    ws = load_workbook(path)[SHEET]
    rows = row_numbers(ws)
    for seat, sheet in enumerate(state.sheets):
        col = get_column_letter(2 + seat)
        assert ws[f"{col}{HEADER_ROW}"].value == state.players[seat].name
        for box, entry in sheet.entries.items():
            assert entry is not None
            cell = ws[f"{col}{rows[box]}"].value
            assert cell == ("x" if entry.scratched else entry.points)
        for key in ("sum", "bonus", "par", "total"):
            assert ws[f"{col}{rows[key]}"].value.startswith("=")
        assert "SUM(" in ws[f"{col}{rows['total']}"].value


# -- import ---------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("spec", SPECS)
def test_export_then_import_gives_the_same_protocol(spec: str, tmp_path: Path) -> None:
    rules = RuleSet.parse(spec)
    for seed in range(4):
        players = 1 + seed % 3
        turns = None if seed % 2 == 0 else seed * 5 % (rules.turns * players)
        state = random_game(rules, seed, players, turns)
        path = tmp_path / f"{seed}.xlsx"
        write_xlsx(Protocol.from_state(state, "sv"), path)
        back = read_protocol(path)
        assert back.game.pad
        assert sheet_summary(back) == sheet_summary(state)
        assert back.totals() == state.totals()
        assert back.is_terminal() == state.is_terminal()
        assert back.winners() == state.winners()
        if not state.is_terminal():
            assert back.player == state.player


@pytest.mark.parametrize(
    ("spec", "lang", "box", "old"),
    [("yatzy", "fi", "fives", "Viitoset"), ("maxi", "sv", "one_pair", "Ett par")],
)
def test_protocols_written_with_older_box_names_still_import(
    spec: str, lang: str, box: str, old: str, tmp_path: Path
) -> None:
    state = random_game(spec, 1, 2)
    path = tmp_path / "old.xlsx"
    write_xlsx(Protocol.from_state(state, lang), path)  # type: ignore[arg-type]
    wb = load_workbook(path)
    ws = wb[SHEET]
    rows = row_numbers(ws)
    ws.cell(rows[box], 1).value = old  # as a protocol exported before the rename reads
    wb.save(path)
    assert sheet_summary(read_protocol(path)) == sheet_summary(state)


def test_yahtzee_bonus_round_trips(tmp_path: Path) -> None:
    # Find a bot game with an extra Yatzy; the bonus row must come back as claims.
    rules = RuleSet.parse("yahtzee")
    for seed in range(400):
        state = random_game(rules, seed, 1)
        if state.sheets[0].yatzy_bonuses:
            break
    else:  # pragma: no cover
        pytest.fail("no game with a Yatzy bonus")
    write_xlsx(Protocol.from_state(state), tmp_path / "y.xlsx")
    back = read_protocol(tmp_path / "y.xlsx")
    assert back.sheets[0].yatzy_bonuses == state.sheets[0].yatzy_bonuses
    assert back.totals() == state.totals()


class Filled:
    """A blank protocol filled in 'by hand' with openpyxl."""

    def __init__(self, tmp_path: Path, spec: str, names: list[str], columns: int = 0) -> None:
        self.path = tmp_path / "hand.xlsx"
        self.rules = RuleSet.parse(spec)
        write_xlsx(Protocol.blank(self.rules, names, columns or len(names)), self.path)
        self.wb = load_workbook(self.path)
        self.ws = self.wb[SHEET]
        self.rows = row_numbers(self.ws)

    def addr(self, seat: int, key: str) -> str:
        return f"{get_column_letter(2 + seat)}{self.rows[key]}"

    def put(self, seat: int, key: str, value: Any) -> str:
        addr = self.addr(seat, key)
        self.ws[addr] = value
        return addr

    def fill(self, seat: int, values: dict[str, Any]) -> None:
        for k, v in values.items():
            self.put(seat, k, v)

    def problems(self) -> list[str]:
        self.wb.save(self.path)
        with pytest.raises(ProtocolImportError) as info:
            read_protocol(self.path)
        return info.value.problems

    def read(self) -> Any:
        self.wb.save(self.path)
        return read_protocol(self.path)


FULL_YATZY = {
    "ones": 3, "twos": 6, "threes": 9, "fours": 12, "fives": 15, "sixes": 18,
    "one_pair": 12, "two_pairs": 22, "three_of_a_kind": 15, "four_of_a_kind": 20,
    "small_straight": 15, "large_straight": "x", "full_house": 22, "chance": 24, "yatzy": 50,
}  # fmt: skip


def test_hand_filled_last_resort_protocol_is_accepted(tmp_path: Path) -> None:
    # A protocol has no dice, so last_resort cannot be checked: a scratch beside
    # open boxes and Chance are taken as written (README: choices made).
    f = Filled(tmp_path, "yatzy+last_resort", ["Anna"])
    f.fill(0, FULL_YATZY)
    state = f.read()
    assert state.is_terminal() and state.rules.last_resort
    assert state.sheets[0].entries["large_straight"].scratched  # type: ignore[union-attr]
    assert state.totals() == [sum(v for v in FULL_YATZY.values() if v != "x") + 50]


def test_hand_filled_protocol_becomes_a_finished_pad_game(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna", "Bo"])
    f.fill(0, FULL_YATZY)
    f.fill(1, {**FULL_YATZY, "yatzy": 0, "ones": "X"})
    state = f.read()
    assert state.is_terminal()
    # 63 + 50 bonus + 12+22+15+20+15+0+22+24+50
    assert state.totals() == [63 + 50 + 180, 60 + 130]
    assert state.winners() == [0]
    ones, straight = state.sheets[1].entries["ones"], state.sheets[0].entries["large_straight"]
    assert ones is not None and ones.scratched
    assert straight is not None and straight.scratched
    turns = json.loads(dumps(state))["turns"]
    assert turns[0] == {"player": 0, "box": "ones", "points": 3, "written": True}
    assert turns[1]["player"] == 1 and turns[1]["scratch"] is True


def test_every_impossible_entry_is_reported_by_cell(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna", "Bo"])
    f.fill(0, FULL_YATZY)
    f.fill(1, FULL_YATZY)
    fh = f.put(0, "full_house", 29)
    ss = f.put(1, "small_straight", 20)
    ch = f.put(1, "chance", "lots")
    tw = f.put(0, "twos", 5.5)
    assert f.problems() == [
        f"{tw}: 5.5 is not a score for Twos",
        f"{fh}: 29 is not a possible Full House",
        f"{ss}: 20 is not a possible Small Straight",
        f"{ch}: 'lots' is not a score for Chance",
    ]


def test_holes_that_fit_the_turn_order_are_an_unfinished_game(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna", "Bo", "Cleo"])
    f.fill(0, {"ones": 3, "fours": 12, "chance": 20})
    f.fill(1, {"twos": 4, "yatzy": 50, "one_pair": 8})
    f.fill(2, {"sixes": 18, "full_house": 7 + 9})
    state = f.read()
    assert not state.is_terminal()
    assert state.player == 2 and state.turn_number == 8
    assert state.totals() == [35, 62, 34]


def test_holes_against_the_turn_order_are_reported_at_the_column(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna", "Bo", "Cleo"])
    f.fill(0, {"ones": 3, "fours": 12})
    f.fill(1, {"twos": 4, "yatzy": 50, "one_pair": 8})
    f.fill(2, {"sixes": 18, "chance": 20})
    problems = f.problems()
    assert len(problems) == 1
    assert problems[0].startswith(f"B{HEADER_ROW}: Anna has 2 turns filled")
    assert "has 3" in problems[0]


def test_forced_order_is_checked_by_the_game(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy+forced", ["Anna"])
    f.fill(0, {"ones": 3, "threes": 9})
    (problem,) = f.problems()
    assert problem.startswith(f"{f.addr(0, 'threes')}: box threes may not be filled now")


def test_names_and_stray_scores_are_reported(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna", "Bo"], columns=4)
    f.put(1, "name", None) if False else None
    f.ws[f"C{HEADER_ROW}"] = "anna"
    f.put(3, "ones", 2)
    assert f.problems() == [
        f"E{HEADER_ROW}: this column has scores but no player name",
        f"C{HEADER_ROW}: the name 'anna' is already in B{HEADER_ROW}",
    ] or sorted(f.problems()) == sorted(
        [
            f"C{HEADER_ROW}: the name 'anna' is already in B{HEADER_ROW}",
            f"E{HEADER_ROW}: this column has scores but no player name",
            f"B{HEADER_ROW}: Anna has 0 turns filled, but in turn order (starting with Anna) "
            "this column has 1: fill the missing boxes",
            f"C{HEADER_ROW}: anna has 0 turns filled, but in turn order (starting with Anna) "
            "this column has 1: fill the missing boxes",
        ]
    )


def test_dubbel_minus_extra_cannot_be_scratched_and_turns_fill_two(tmp_path: Path) -> None:
    f = Filled(tmp_path, "dubbel", ["Anna"])
    extra = f.put(0, "extra", "x")
    assert f.problems() == [f"{extra}: Extra may not be scratched (dubbel)"]
    f.put(0, "extra", -20)
    f.put(0, "ones", 2)
    state = f.read()
    assert state.turn_number == 1 and state.totals() == [2 - 20]
    f.put(0, "ones", None)
    (problem,) = f.problems()
    assert (
        problem == f"{extra}: Anna has 1 boxes filled; each turn fills 2, so one box of a "
        "turn is missing"
    )


def test_yatzy_bonus_needs_fifty_in_yatzy(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yahtzee", ["Anna"])
    f.fill(0, {"yatzy": 0, "fives": 25, "yatzy_bonus": 100})
    (problem,) = f.problems()
    assert (
        problem == f"{f.addr(0, 'yatzy_bonus')}: a Yatzy bonus needs 50 in Yatzy "
        f"({f.addr(0, 'yatzy')})"
    )
    f.fill(0, {"yatzy": 50, "fives": 25, "full_house": 25, "yatzy_bonus": 200})
    state = f.read()
    assert state.sheets[0].yatzy_bonuses == 2
    assert state.totals() == [50 + 25 + 25 + 200]


def test_a_computed_cell_typed_over_must_match(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna"])
    f.fill(0, {"ones": 3})
    f.put(0, "sum", 4)
    assert f.problems() == [f"{f.addr(0, 'sum')}: Sum 4 does not match the boxes (3)"]


def test_moved_rows_and_foreign_files_are_refused(tmp_path: Path) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna"])
    f.ws.insert_rows(8)
    problems = f.problems()
    assert problems and problems == [
        "A8: expected the row 'Fours' here, found None (rows were moved or inserted)"
    ]
    other = tmp_path / "other.xlsx"
    from openpyxl import Workbook

    Workbook().save(other)
    with pytest.raises(ProtocolImportError, match="not a yatzy protocol"):
        read_protocol(other)
    text = tmp_path / "t.xlsx"
    text.write_text("hello")
    with pytest.raises(ProtocolImportError, match="not an Excel workbook"):
        read_protocol(text)


# -- the command line -------------------------------------------------------------------


def test_cli_protocol_export_import(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "blank.xlsx"
    assert (
        main(
            [
                "protocol",
                "maxi",
                "--players",
                "Anna",
                "Bo",
                "--lang",
                "sv",
                "--format",
                "xlsx",
                "-o",
                str(out),
            ]
        )
        == 0
    )
    ws = load_workbook(out)[SHEET]
    assert ws[f"B{HEADER_ROW}"].value == "Anna" and ws["A1"].value.startswith("Maxi-Yatzy")
    pdf = tmp_path / "blank.pdf"
    assert main(["protocol", "yahtzee", "--columns", "7", "-o", str(pdf)]) == 0
    assert pdf.read_bytes().startswith(b"%PDF")

    from yatzy.game import save

    state = random_game("yatzy", 1, 2)
    save(state, tmp_path / "game.json")
    exported = tmp_path / "game.xlsx"
    assert (
        main(["export", str(tmp_path / "game.json"), "--format", "xlsx", "-o", str(exported)]) == 0
    )
    record = tmp_path / "back.json"
    assert main(["import", str(exported), "-o", str(record)]) == 0
    back = load(record)
    assert back.game.pad and back.totals() == state.totals()
    assert json.loads(record.read_text())["pad"] is True


@pytest.mark.parametrize(
    ("argv", "message"),
    [
        (["protocol", "yatzy", "--format", "docx", "-o", "{d}/a.docx"], "invalid choice: 'docx'"),
        (["protocol", "yatzy", "-o", "{d}/a.txt"], "give --format pdf|xlsx"),
        (["protocol", "yatzy", "--format", "pdf", "-o", "{d}/a.xlsx"], "does not fit"),
        (["protocol", "nope", "-o", "{d}/a.pdf"], "unknown rule set 'nope'"),
        (["protocol", "yatzy", "--columns", "0", "-o", "{d}/a.pdf"], "columns 0"),
        (["protocol", "yatzy", "-o", "{d}/missing/a.pdf"], "cannot write"),
        (["protocol", "yatzy", "--format", "pdf", "-o", "{d}"], "is a folder"),
        (["export", "{d}/none.json", "-o", "{d}/a.pdf"], "cannot read"),
        (["export", "{d}/bad.json", "-o", "{d}/a.pdf"], "not JSON"),
        (["import", "{d}/bad.json"], "not an Excel workbook"),
    ],
)
def test_bad_input_is_one_line_and_exit_2(
    argv: list[str], message: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    (tmp_path / "bad.json").write_text("{oops")
    code = main([a.replace("{d}", str(tmp_path)) for a in argv])
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and message in err, err
    assert sorted(p.name for p in tmp_path.iterdir()) == ["bad.json"]  # nothing left behind


def test_existing_file_is_kept_without_force(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "p.pdf"
    target.write_bytes(b"mine")
    assert main(["protocol", "yatzy", "-o", str(target)]) == 2
    assert "exists; give --force" in capsys.readouterr().err
    assert target.read_bytes() == b"mine"
    assert main(["protocol", "yatzy", "-o", str(target), "--force"]) == 0
    assert target.read_bytes().startswith(b"%PDF")
    assert [p.name for p in tmp_path.iterdir()] == ["p.pdf"]


def test_import_reports_each_problem_on_its_own_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    f = Filled(tmp_path, "yatzy", ["Anna"])
    a = f.put(0, "full_house", 29)
    b = f.put(0, "yatzy", 40)
    f.wb.save(f.path)
    assert main(["import", str(f.path), "-o", str(tmp_path / "g.json")]) == 2
    assert capsys.readouterr().err.splitlines() == [
        f"yatzy: error: {a}: 29 is not a possible Full House",
        f"yatzy: error: {b}: 40 is not a possible Yatzy",
    ]
    assert not (tmp_path / "g.json").exists()


def test_pick_format_is_checked() -> None:
    from yatzy.protocols import pick_format

    assert pick_format(None, "x.PDF") == "pdf"
    with pytest.raises(ProtocolFileError):
        pick_format("odt", "x.odt")


def test_score_command_does_not_load_the_file_libraries() -> None:
    code = (
        "import sys; from yatzy.cli.main import main; main(['score', 'yatzy', '33366']);"
        "print(sorted(m for m in ('openpyxl', 'reportlab') if m in sys.modules))"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    ).stdout
    assert out.strip().endswith("[]")
