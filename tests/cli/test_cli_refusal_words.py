"""``yatzy play``'s refusals in the game's language (issue 24: every refusal in the
player's words): a bad rules spec, a bad --record or --bot-delay, a --resume that
cannot be read; one line, exit 2, the option ids quoted as typed."""

from __future__ import annotations

import io
import sys
from pathlib import Path

import pytest

from yatzy.cli.main import main
from yatzy.errors import SpecError
from yatzy.rules import Language, RuleSet, explain_spec_error

CASES: list[tuple[list[str], dict[Language, str]]] = [
    (
        ["--rules", "yatzy+foo=1"],
        {
            "sv": "okänt tillval 'foo' för yatzy; giltiga: forced",
            "fi": "tuntematon valinta 'foo' pelissä yatzy; sallitut: forced",
            "en": "unknown option 'foo' for yatzy; valid: forced",
        },
    ),
    (
        ["--rules", "yatzy+bonus_threshold=999"],
        {
            "sv": "bonus_threshold=999 ligger inte i 0–105 för yatzy",
            "fi": "bonus_threshold=999 ei ole väliltä 0–105 pelissä yatzy",
            "en": "bonus_threshold=999 is not in 0-105 for yatzy",
        },
    ),
    (
        ["--rules", "nope"],
        {
            "sv": "okänd regeluppsättning 'nope'",
            "fi": "tuntematon sääntökokoelma 'nope'",
            "en": "unknown rule set 'nope'",
        },
    ),
    (
        ["--record", "x", "A"],
        {
            "sv": "--record 'x' är inget heltal",
            "fi": "--record 'x' ei ole kokonaisluku",
            "en": "--record 'x' is not a whole number",
        },
    ),
    (
        ["--bot-delay", "99", "A"],
        {
            "sv": "ange sekunder från 0 till 60",
            "fi": "anna sekunnit väliltä 0–60",
            "en": "give seconds from 0 to 60",
        },
    ),
]


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
@pytest.mark.parametrize(
    ("args", "said"), CASES, ids=["option", "threshold", "variant", "record", "delay"]
)
def test_a_refusal_is_one_line_in_the_game_s_language(
    lang: Language,
    args: list[str],
    said: dict[Language, str],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    code = main(["play", "--lang", lang, "--no-record", *args])
    out, err = capsys.readouterr()
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("yatzy: error: ")
    assert said[lang] in err
    assert not (tmp_path / "state").exists()  # nothing saved for a game never started


@pytest.mark.parametrize(
    ("lang", "said"),
    [("sv", "kan inte läsa"), ("fi", "ei voi lukea tiedostoa"), ("en", "cannot read")],
)
def test_a_missing_resume_file_is_said_in_the_game_s_language(
    lang: Language, said: str, capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    code = main(["play", "--lang", lang, "--resume", str(tmp_path / "none.json")])
    err = capsys.readouterr().err
    assert code == 2 and said in err and "none.json" in err


@pytest.mark.parametrize(
    "spec",
    [
        "yatzy+foo=1",
        "nope",
        "yatzy+bonus_threshold=999",
        "yatzy+bonus_points=2000",
        "yatzy+forced+half_forced",
        "yatzy+forced=1",
        "yatzy+bonus_points",
        "yatzy+bonus_points=x",
        "maxi+saved_rolls=zz",
        "yatzy+forced+forced",
    ],
)
def test_every_spec_refusal_has_words_in_each_language(spec: str) -> None:
    with pytest.raises(SpecError) as caught:
        RuleSet.parse(spec)
    exc = caught.value
    assert exc.key  # a catalog text, not a bare English message
    assert explain_spec_error(exc, "en") == str(exc)
    for lang in ("sv", "fi"):
        text = explain_spec_error(exc, lang)
        assert text != str(exc) and "{" not in text
