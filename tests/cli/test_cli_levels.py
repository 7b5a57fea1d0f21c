"""The computer's levels in the game's language: ``--bot lagom``, "Lagom (dator)"."""

from __future__ import annotations

import io
import random
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from yatzy.cli.i18n import level_from_word, level_name
from yatzy.cli.main import main
from yatzy.cli.play_session import PlaySession
from yatzy.cli.terminal import player_label
from yatzy.game import Game, Player, load
from yatzy.rules import Language

# What the web's start page calls each level (web/catalog.py BOT_WORDS), per language.
WORDS: dict[Language, dict[str, str]] = {
    "sv": {"casual": "Lagom", "greedy": "Girig", "beginner": "Nybörjare", "optimal": "Perfekt"},
    "fi": {
        "casual": "Tavallinen",
        "greedy": "Ahne",
        "beginner": "Aloittelija",
        "optimal": "Täydellinen",
    },
    "en": {"casual": "Casual", "greedy": "Greedy", "beginner": "Beginner", "optimal": "Perfect"},
}
BOT: dict[Language, str] = {"sv": "dator", "fi": "tietokone", "en": "bot"}


@pytest.fixture(autouse=True)
def rescue_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """Games cut off by the end of input are rescued under a temporary state dir."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    return tmp_path / "state" / "yatzy"


def play(
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    args: Iterable[str],
    script: str = "",
) -> tuple[int, str, str]:
    """``yatzy play ARGS`` in-process with ``script`` on stdin."""
    monkeypatch.setattr(sys, "stdin", io.StringIO(script))
    code = main(["play", *args])
    out, err = capsys.readouterr()
    return code, out, err


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_level_names_are_the_web_s_words(lang: Language) -> None:
    for level, word in WORDS[lang].items():
        assert level_name(level, lang) == word
    assert level_name("perfect", lang) == WORDS[lang]["optimal"]


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_level_is_named_in_any_language_and_case(lang: Language) -> None:
    for level, word in WORDS[lang].items():
        # "perfect" is an id of its own (the same play as "optimal").
        expected = "perfect" if word == "Perfect" else level
        assert level_from_word(word) == expected
        assert level_from_word(word.upper()) == expected
        assert level_from_word(f"  {word.lower()} ") == expected
    # The English ids keep working.
    for level in ("random", "greedy", "beginner", "casual", "strong", "optimal", "perfect"):
        assert level_from_word(level) == level
    assert level_from_word("genius") is None


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_the_terminal_names_the_computer_in_the_game_s_language(
    lang: Language,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    tmp_path: Path,
) -> None:
    # Issue 24: a Swedish game called the computer "Casual" where the web says "Lagom".
    record = tmp_path / "g.json"
    word = WORDS[lang]["greedy"]
    code, out, err = play(
        monkeypatch,
        capsys,
        ["--lang", lang, "--seed", "3", "--bot", word.lower(), "--save", str(record), "Ann"],
        "r\nq\nn\n",
    )
    assert code == 1, err
    state = load(record)
    assert [(p.name, p.bot) for p in state.players] == [("Ann", None), (word, "greedy")]
    assert f"{word} ({BOT[lang]})" in out
    if lang != "en":
        assert "Greedy" not in out


@pytest.mark.parametrize("lang", ["sv", "fi", "en"])
def test_a_named_computer_says_its_level_in_the_game_s_language(lang: Language) -> None:
    state = Game("yatzy", [Player("Ann"), Player("Hal", "casual")]).new_initial_state(0)
    label = player_label(state, 1, lang)
    assert label == f"Hal ({BOT[lang]} {WORDS[lang]['casual'].lower()})"
    # The level's own id as a name (records from before) stays as it was.
    state = Game("yatzy", [Player("Ann"), Player("Casual", "casual")]).new_initial_state(0)
    assert player_label(state, 1, lang) == f"Casual ({BOT[lang]})"


@pytest.mark.parametrize(
    ("lang", "said"),
    [
        ("sv", "okänd datornivå 'geni'; giltiga: slumpen, girig, nybörjare, lagom, stark"),
        ("fi", "tuntematon tietokoneen taso 'geni'; kelvolliset: sattumanvarainen, ahne"),
        ("en", "unknown bot level 'geni'; valid: random, greedy, beginner, casual, strong"),
    ],
)
def test_an_unknown_level_is_refused_in_the_user_s_language(
    lang: Language,
    said: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, out, err = play(monkeypatch, capsys, ["--lang", lang, "--bot", "geni", "A"])
    assert code == 2
    assert out == ""
    assert err.count("\n") == 1
    assert said in err, err
    if lang != "en":  # the English ids are named too: they work in every language
        assert "random, greedy, beginner, casual, strong" in err


def test_the_line_mode_s_bot_moves_use_the_level_s_word() -> None:
    state = Game("yatzy", [Player("Ann"), Player("Girig", "greedy")]).new_initial_state(0)
    from yatzy.bots import make_bot

    out = io.StringIO()
    session = PlaySession(
        state,
        stdin=io.StringIO("r\ns 1\n"),
        stdout=out,
        rng=random.Random(2),
        bots={1: make_bot("greedy")},
        lang="sv",
    )
    session.run()
    assert "Girig (dator) " in out.getvalue()


@pytest.mark.parametrize("word", ["girig", "AHNE", "greedy"])
def test_simulate_takes_a_level_s_name_in_any_language(
    word: str, capsys: pytest.CaptureFixture[str]
) -> None:
    import json

    code = main(["simulate", "yatzy", "--bot", word, "--games", "3", "--seed", "1", "--json"])
    out = capsys.readouterr().out
    assert code == 0 and json.loads(out)["bot"] == "greedy"
