"""``yatzy score`` and ``yatzy rules``: output, JSON, one-line errors, a light start."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest

from yatzy.cli.main import main
from yatzy.rules import VARIANTS, RuleSet


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- yatzy score ---------------------------------------------------------------------------


def test_score_json_gives_every_box(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, err = run(capsys, "score", "yatzy", "3", "3", "3", "6", "6", "--json")
    assert code == 0 and err == ""
    scores = json.loads(out)
    assert list(scores) == list(RuleSet.parse("yatzy").boxes)
    # 000 and 003: threes 9, sixes 12, full house 21, chance 21, two pairs 18.
    assert scores["threes"] == 9
    assert scores["sixes"] == 12
    assert scores["full_house"] == 21
    assert scores["two_pairs"] == 18
    assert scores["yatzy"] == 0


@pytest.mark.parametrize(
    "dice", [["3", "3", "3", "6", "6"], ["33366"], ["3,3,3,6,6"], ["3-3-3-6-6"], ["33", "3,6-6"]]
)
def test_score_accepts_every_documented_form(
    capsys: pytest.CaptureFixture[str], dice: list[str]
) -> None:
    code, out, _ = run(capsys, "score", "yatzy", *dice)
    assert code == 0
    assert out.splitlines()[0] == "yatzy: 3 3 3 6 6"


def test_score_accepts_packed_dice(capsys: pytest.CaptureFixture[str]) -> None:
    _, packed, _ = run(capsys, "score", "yahtzee", "23455", "--json")
    _, spaced, _ = run(capsys, "score", "yahtzee", "2,3,4,5,5", "--json")
    assert json.loads(packed) == json.loads(spaced)
    assert json.loads(packed)["small_straight"] == 30  # 001: Liten stege 2-3-4-5-5


def test_score_dubbel_drops_the_best_face(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "dubbel", "6", "6", "4", "3", "3", "3", "--json")
    assert code == 0
    scores = json.loads(out)
    assert scores["full_house"] == 21  # 003: drop the 4
    assert "extra" in scores


def test_score_text_uses_the_language(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "score", "yatzy", "2", "2", "2", "4", "4", "--lang", "sv")
    assert code == 0
    assert out.splitlines()[0] == "yatzy: 2 2 2 4 4"
    row = next(ln for ln in out.splitlines() if ln.strip().startswith("Kåk"))
    assert row.split()[-1] == "14"  # 000: Full House 2-2-2-4-4


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["score", "yatzy", "3", "3", "7", "6", "6"], "die '7' is not a face 1-6"),
        (["score", "yatzy", "3", "3", "x", "6", "6"], "die 'x' is not a face 1-6"),
        # Dice are never guessed: signs, stray dashes, empty places are refused.
        (["score", "yatzy", "--", "-1", "2", "3", "4", "5"], "die '-1' is not a face 1-6"),
        (["score", "yatzy", "1", "2", "3", "4", "+5"], "die '+5' is not a face 1-6"),
        (["score", "yatzy", "1-2-3-4-5-"], "die '1-2-3-4-5-' is not a face"),
        (["score", "yatzy", "1--2-3-4-5"], "die '1--2-3-4-5' is not a face"),
        (["score", "yatzy", "1,2,,3,4,5"], "an empty place between commas in '1,2,,3,4,5'"),
        (["score", "yatzy", "1,2,3,4,5,"], "an empty place between commas"),
        (["score", "yatzy", "1", "2", "", "3", "4", "5"], "empty die ''"),
        (["score", "yatzy", "12345", "0"], "die '0' is not a face 1-6"),
        (["score", "yatzy", "1234", "56"], "yatzy needs 5 dice, got 6"),
        (["score", "yatzy", "1.2.3.4.5"], "die '1.2.3.4.5' is not a face"),
        (["score", "yatzy", "3", "3", "6", "6"], "yatzy needs 5 dice, got 4"),
        (["score", "maxi", "1", "2", "3", "4", "5"], "maxi needs 6 dice, got 5"),
        (["score", "nope", "1", "2", "3", "4", "5"], "unknown rule set 'nope'"),
        (["score", "yatzy+joker=free", "1", "2", "3", "4", "5"], "unknown option 'joker'"),
        (["score", "yahtzee+joker=maybe", "1", "2", "3", "4", "5"], "joker='maybe'"),
        (["score", "yatzy", "1", "2", "3", "4", "5", "--lang", "de"], "invalid choice: 'de'"),
        (["score", "yatzy"], "the following arguments are required: dice"),
        (["rules", "nope"], "unknown rule set 'nope'"),
        (["rules", "yatzy+forced+half_forced"], "'forced' and 'half_forced' exclude each other"),
        (["rules", "maxi+bonus_threshold=500"], "bonus_threshold=500 is not in 0-"),
        (["rules", "--lang", "xx"], "invalid choice: 'xx'"),
        (["nosuchcommand"], "invalid choice: 'nosuchcommand'"),
    ],
)
def test_errors_are_one_line_and_exit_2(
    capsys: pytest.CaptureFixture[str], args: list[str], message: str
) -> None:
    code, out, err = run(capsys, *args)
    assert code == 2
    assert out == ""
    assert err.startswith("yatzy: error: ")
    assert err.count("\n") == 1
    assert message in err


def test_error_in_a_real_process_has_no_traceback() -> None:
    proc = subprocess.run(
        [sys.executable, "-m", "yatzy.cli.main", "score", "yatzy", "1", "2", "3", "4", "7"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 2
    assert proc.stdout == ""
    assert proc.stderr == "yatzy: error: die '7' is not a face 1-6\n"


# -- yatzy rules ---------------------------------------------------------------------------


def test_rules_json_lists_every_rule_set(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "--json")
    assert code == 0
    data = json.loads(out)
    assert list(data) == list(VARIANTS)
    assert data["maxi"]["dice"] == 6
    assert "saved_rolls=none|all|next" in data["maxi"]["options"]
    assert "last_resort" in data["maxi"]["options"] and "last_resort" in data["yatzy"]["options"]
    assert "joker=forced|free|none" in data["yahtzee"]["options"]


def test_rules_json_of_one_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "maxi+saved_rolls", "--json", "--lang", "fi")
    assert code == 0
    data = json.loads(out)
    assert data["rules"] == "maxi+saved_rolls"
    assert data["turns"] == 20
    assert (data["bonus_threshold"], data["bonus_points"]) == (75, 50)
    boxes = {b["id"]: b for b in data["boxes"]}
    assert [b["id"] for b in data["boxes"]] == list(RuleSet.parse("maxi").boxes)
    assert boxes["maxi_yatzy"]["possible"] == [0, 100]
    assert boxes["full_straight"]["possible"] == [0, 21]
    assert boxes["villa"]["name"] == "Huvila"


def test_rules_text_shows_the_protocol(capsys: pytest.CaptureFixture[str]) -> None:
    code, out, _ = run(capsys, "rules", "dubbel")
    assert code == 0
    text = out.splitlines()
    assert text[0] == "Double Yatzy (dubbel)"
    assert text[1] == "6 double dice, 8 rounds, 3 rolls a turn"
    assert any(ln.split()[:1] == ["Extra"] for ln in text)
    assert any(ln.split()[:1] == ["Final"] and "Total + Extra" in ln for ln in text)


@pytest.mark.parametrize(
    ("spec", "phrases"),
    [
        ("maxi+saved_rolls", ["saved rolls"]),
        (
            "maxi+saved_rolls=next+last_resort",
            [
                "Chance only when nothing else scores, 0 only when nothing scores",
                "at most 2 saved rolls, for the next turn",
            ],
        ),
        ("yatzy+last_resort", ["Chance only when nothing else scores, 0 only when nothing scores"]),
        ("yatzy", []),
    ],
)
def test_rules_text_names_saved_rolls_and_last_resort(
    capsys: pytest.CaptureFixture[str], spec: str, phrases: list[str]
) -> None:
    code, out, _ = run(capsys, "rules", spec)
    assert code == 0
    text = out.splitlines()
    assert text[1].endswith("3 rolls a turn")
    assert [ln.removeprefix("  + ") for ln in text if ln.startswith("  + ")] == phrases


# -- a light start ---------------------------------------------------------------------------

_HEAVY = ("numpy", "numba", "scipy", "tqdm")


@pytest.mark.parametrize(
    "argv",
    [
        ["score", "yatzy", "3", "3", "3", "6", "6"],
        ["score", "dubbel", "6", "6", "4", "3", "3", "3", "--json"],
        ["rules", "maxi"],
    ],
)
def test_score_and_rules_import_no_numeric_library(argv: list[str]) -> None:
    code = (
        "import sys\n"
        "from yatzy.cli.main import main\n"
        f"rc = main({argv!r})\n"
        f"heavy = [m for m in {_HEAVY!r} if m in sys.modules]\n"
        "print('RESULT', rc, heavy)\n"
    )
    proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert proc.returncode == 0, proc.stderr
    assert proc.stdout.splitlines()[-1] == "RESULT 0 []"


def test_score_importtime_lists_no_numeric_library() -> None:
    proc = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "yatzy.cli.main", "score", "yatzy", "12345"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0
    imported = {ln.split("|")[-1].strip() for ln in proc.stderr.splitlines() if "|" in ln}
    assert "yatzy.rules" in imported
    assert not {m for m in imported if m.split(".")[0] in _HEAVY}


_ENGLISH = (" dice", "rolls a turn", " turns", " rounds", " to ", " or more", " Total ", " at ")


@pytest.mark.parametrize("spec", [*VARIANTS, "dubbel+scoring=international", "yahtzee+joker=free"])
@pytest.mark.parametrize("lang", ["sv", "fi"])
def test_rules_text_has_no_english_in_sv_and_fi(
    capsys: pytest.CaptureFixture[str], spec: str, lang: str
) -> None:
    code, out, _ = run(capsys, "rules", spec, "--lang", lang)
    assert code == 0
    rules = RuleSet.parse(spec)
    for line in out.splitlines()[1:]:  # the title line quotes the spec
        words = " ".join(w for w in line.split() if w not in rules.boxes)  # box ids stay ids
        for english in _ENGLISH:
            assert english not in f" {words} ", (english, line)
    code, out, _ = run(capsys, "rules", "--lang", lang)
    for english in (" dice", "write a spec", "points of", "default "):
        assert english not in out


@pytest.mark.parametrize(
    ("lang", "words"),
    [
        ("en", ["Yahtzee bonus: 100 for each further Yahtzee", "Joker: a Yahtzee", "Yahtzee "]),
        ("sv", ["Yatzybonus: 100 för varje ytterligare Yatzy", "Joker: en Yatzy"]),
        ("fi", ["Yatzy-bonus: 100 jokaisesta", "Jokeri:"]),
    ],
)
def test_rules_yahtzee_describes_the_bonus_and_the_joker(
    capsys: pytest.CaptureFixture[str], lang: str, words: list[str]
) -> None:
    code, out, _ = run(capsys, "rules", "yahtzee", "--lang", lang)
    assert code == 0
    for word in words:
        assert word in out
