"""Player names are checked once, in the game library, for every front end."""

from __future__ import annotations

import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from yatzy.errors import YatzyError
from yatzy.game import MAX_NAME, BadNameError, Game, check_name, from_record, to_record
from yatzy.protocols import Protocol
from yatzy.rules import RuleSet

YATZY = str(Path(sys.executable).with_name("yatzy"))


@pytest.mark.parametrize(
    ("name", "fault"),
    [
        ("a\x00b", "control character U+0000"),
        ("\x1b[31mred", "control character U+001B"),
        ("tab\there", "control character U+0009"),
        ("two\nlines", "control character U+000A"),
        ("\ud800", "lone surrogate U+D800"),
        ("x\udfffy", "lone surrogate U+DFFF"),
        ("evil\u202egnp.exe", "bidirectional control U+202E"),
        ("\u202aab", "bidirectional control U+202A"),
        ("a\u2066b\u2069", "bidirectional control U+2066"),
        ("zero\u200bwidth", "invisible format character U+200B"),
        ("bom\ufeff", "invisible format character U+FEFF"),
        ("line\u2028sep", "line separator U+2028"),
        ("priv\ue000", "private-use character U+E000"),
    ],
)
def test_a_name_with_characters_a_name_may_not_hold_is_refused_quoting_it(
    name: str, fault: str
) -> None:
    with pytest.raises(BadNameError) as info:
        check_name(name)
    message = str(info.value)
    assert fault in message
    assert repr(name) in message  # the name, quoted so every character shows
    message.encode("utf-8")  # the reason itself can always be encoded
    assert isinstance(info.value, YatzyError) and isinstance(info.value, ValueError)


@pytest.mark.parametrize(
    ("name", "kept"),
    [
        ("  Anna  ", "Anna"),
        ("Åsa Öberg", "Åsa Öberg"),
        ("Väinämöinen", "Väinämöinen"),
        ('=HYPERLINK("http://x")', '=HYPERLINK("http://x")'),  # text; never a formula
        ("👨\u200d👩\u200d👧", "👨\u200d👩\u200d👧"),  # joiners hold emoji together
        ("می\u200cخواهم", "می\u200cخواهم"),  # the non-joiner of Persian script
        ("x" * MAX_NAME, "x" * MAX_NAME),
    ],
)
def test_printable_names_are_kept_trimmed(name: str, kept: str) -> None:
    assert check_name(name) == kept


@pytest.mark.parametrize("name", ["", "   ", "\u3000"])
def test_an_empty_name_is_refused(name: str) -> None:
    with pytest.raises(BadNameError, match="empty"):
        check_name(name)


def test_a_long_name_and_a_non_string_are_refused() -> None:
    with pytest.raises(BadNameError, match="longer than 40"):
        check_name("x" * (MAX_NAME + 1))
    with pytest.raises(BadNameError, match="not 7"):
        check_name(7)


def test_game_record_and_blank_protocol_use_the_check() -> None:
    with pytest.raises(BadNameError, match=r"U\+0000"):
        Game("yatzy", ["a\x00b"])
    with pytest.raises(BadNameError, match=r"U\+001B"):
        Protocol.blank(RuleSet.parse("yatzy"), ["\x1b[31m"], 2, "en")
    state = Game("yatzy", ["Ann"]).new_initial_state()
    record = to_record(state)
    record["players"] = [{"name": "a\u202eb"}]
    with pytest.raises(YatzyError, match=r"U\+202E"):
        from_record(record)
    assert Game("yatzy", [" Bo "]).players[0].name == "Bo"


@given(st.text(max_size=60))
def test_every_string_is_either_a_clean_name_or_refused_with_an_encodable_reason(
    name: str,
) -> None:
    try:
        kept = check_name(name)
    except BadNameError as exc:
        str(exc).encode("utf-8")
        return
    assert kept == kept.strip() and 0 < len(kept) <= MAX_NAME
    for ch in kept:
        category = unicodedata.category(ch)
        assert category[0] in "LMNPSZ" or ch in "\u200c\u200d", repr(ch)
        assert category not in ("Zl", "Zp"), repr(ch)
    kept.encode("utf-8")


@pytest.mark.parametrize(
    "args",
    [
        ["play", "An\x1bna", "Bo"],
        ["protocol", "yatzy", "--players", "=1+1", "\u202eX", "-o", "{out}"],
    ],
)
def test_the_terminal_front_ends_refuse_a_bad_name_in_one_line(
    args: list[str], tmp_path: Path
) -> None:
    args = [a.replace("{out}", str(tmp_path / "p.xlsx")) for a in args]
    done = subprocess.run([YATZY, *args], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    lines = done.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("yatzy: error: player name ")
    assert not (tmp_path / "p.xlsx").exists()
