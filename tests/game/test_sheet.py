"""A sheet keeps its computed rows and open boxes with its entries: every way of
writing to the entries (and a new Yatzy bonus) is seen at once, copies and pickles
included."""

from __future__ import annotations

import copy
import pickle
from collections.abc import Callable
from typing import Any

import pytest

from yatzy.game import BoxEntry, Sheet
from yatzy.game.sheet import SheetRows
from yatzy.rules import RuleSet


def fresh(sheet: Sheet) -> tuple[SheetRows, list[str], bool]:
    """What a sheet computes from its entries, worked out anew (no remembered rows)."""
    other = Sheet(sheet.rules)
    other.entries = dict(sheet.entries)  # a plain dict: nothing remembered
    other.yatzy_bonuses = sheet.yatzy_bonuses
    return other.rows(), other.open_boxes, other.is_full


def seen(sheet: Sheet) -> tuple[SheetRows, list[str], bool]:
    return sheet.rows(), sheet.open_boxes, sheet.is_full


WRITES: dict[str, Callable[[dict[str, Any]], object]] = {
    "setitem": lambda e: e.__setitem__("sixes", BoxEntry(30)),
    "update": lambda e: e.update({"sixes": BoxEntry(30), "chance": BoxEntry(20)}),
    "ior": lambda e: e.__ior__({"fives": BoxEntry(25)}),
    "setdefault": lambda e: e.setdefault("bonus_box", BoxEntry(50)),
    "delitem": lambda e: e.__delitem__("ones"),
    "pop": lambda e: e.pop("ones"),
    "popitem": lambda e: e.popitem(),
    "clear": lambda e: e.clear(),
    "reopen": lambda e: e.__setitem__("twos", None),
}


@pytest.mark.parametrize("write", WRITES)
def test_every_write_to_the_entries_is_seen(write: str) -> None:
    sheet = Sheet(RuleSet.parse("yatzy"))
    sheet.entries["ones"] = BoxEntry(3)
    sheet.entries["twos"] = BoxEntry(8)
    assert seen(sheet) == fresh(sheet)  # asked once: remembered
    WRITES[write](sheet.entries)
    assert seen(sheet) == fresh(sheet)


def test_a_yatzy_bonus_and_copies_are_seen() -> None:
    sheet = Sheet(RuleSet.parse("yahtzee"))
    sheet.entries["yatzy"] = BoxEntry(50)
    before = sheet.total
    sheet.yatzy_bonuses += 1
    assert sheet.total == before + 100 == fresh(sheet)[0].total
    other = sheet.copy()
    other.entries["sixes"] = BoxEntry(30)
    assert other.total == sheet.total + 30 and sheet.total == before + 100
    assert seen(sheet) == fresh(sheet) and seen(other) == fresh(other)
    for back in (pickle.loads(pickle.dumps(other)), copy.deepcopy(other)):
        assert back == other and seen(back) == fresh(other)
        back.entries["fives"] = BoxEntry(25)
        assert back.total == other.total + 25 and seen(back) == fresh(back)
