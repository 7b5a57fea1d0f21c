"""The row model every protocol format shares: rows, labels, and column contents.

A protocol is a table: one row per box in protocol order with the computed rows
(Sum, Bonus, Bonus par, Total, and DubbelYatzy's Final) where the sheets put them,
and one column per player.  :func:`protocol_rows` gives the rows of a rule set;
:class:`Protocol` holds what goes in the columns, either nothing (a blank
protocol) or a game's sheets.  The PDF and Excel writers and the importer all
read this one model, so the formats agree on order, labels and values.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache
from typing import Literal

from yatzy.errors import YatzyError
from yatzy.game import State, check_name
from yatzy.protocols.texts import word
from yatzy.rules import YATZY_BONUS_POINTS, Language, RuleSet

RowKind = Literal["box", "entry", "computed"]
"""``box``: a box of the rule set; ``entry``: written by hand but not a box (the Yatzy
bonus); ``computed``: Sum, Bonus, Bonus par, Total, Final."""

PLAYERS_PER_PAGE = 6
"""Player columns on one printed page."""

MAX_COLUMNS = 60
"""The most player columns a protocol may have."""


@dataclass(frozen=True)
class Row:
    """One row of the protocol: its key (a box id or a computed row's name) and kind."""

    key: str
    kind: RowKind

    @property
    def is_written(self) -> bool:
        """Whether a player writes in this row (a box or the Yatzy bonus)."""
        return self.kind != "computed"


def protocol_rows(rules: RuleSet) -> tuple[Row, ...]:
    """The rows of ``rules``'s protocol, top to bottom."""
    rows = [Row(b, "box") for b in rules.upper_boxes]
    rows += [Row("sum", "computed"), Row("bonus", "computed"), Row("par", "computed")]
    rows += [Row(b, "box") for b in rules.lower_boxes]
    if rules.has_joker:
        rows.append(Row("yatzy_bonus", "entry"))
    rows.append(Row("total", "computed"))
    if rules.double:
        rows += [Row("extra", "box"), Row("final", "computed")]
    return tuple(rows)


def final_key(rules: RuleSet) -> str:
    """The row that decides the game: ``final`` in DubbelYatzy, else ``total``."""
    return "final" if rules.double else "total"


def row_label(row: Row, lang: Language, rules: RuleSet) -> str:
    """The name of ``row`` in ``lang``, as the sheet of ``rules``' variant writes it."""
    if row.kind == "box":
        return rules.box_name(row.key, lang)
    return rules.label(row.key, lang)


def row_hint(row: Row, rules: RuleSet, lang: Language) -> str:
    """A short note printed beside a row's name (the bonus threshold, ...), or ''."""
    if row.key == "bonus":
        return word("bonus_hint", lang, points=rules.bonus, threshold=rules.threshold)
    if row.key == "par":
        return word("par_hint", lang, threshold=rules.threshold)
    if row.key == "yatzy_bonus":
        return word("yatzy_bonus_hint", lang, box=rules.box_name("yatzy", lang))
    if row.key == "final":
        return word("final_hint", lang)
    if row.key == "total" and rules.double:
        return word("total_hint_double", lang)
    return ""


def max_yatzy_bonuses(rules: RuleSet) -> int:
    """The most extra Yatzys one game can hold (every turn after the first Yatzy)."""
    return rules.turns - 1 if rules.has_joker else 0


@cache
def canonical(rules: RuleSet) -> RuleSet:
    """One shared instance per rule set, so the caches a RuleSet keeps are built once
    (each ``RuleSet.parse`` makes a new instance, and Maxi's take a second or more)."""
    return rules


@cache
def _possible_scores(rules: RuleSet) -> dict[str, list[int]]:
    # Shared by equal rule sets: a RuleSet caches its own, but each parse makes a new one
    # and Maxi's table takes seconds to build.
    return {b: sorted(rules.possible_scores(b)) for b in rules.boxes}


def possible_entries(rules: RuleSet, row: Row) -> list[int]:
    """Every number a player may write in ``row`` (a box or the Yatzy bonus), ascending."""
    if row.kind == "box":
        return list(_possible_scores(rules)[row.key])
    if row.key == "yatzy_bonus":
        return [YATZY_BONUS_POINTS * k for k in range(max_yatzy_bonuses(rules) + 1)]
    raise ValueError(f"row {row.key!r} is computed, not written")


@dataclass(frozen=True)
class Mark:
    """What a written cell holds: its points, and whether it is a scratch."""

    points: int
    scratched: bool = False

    def text(self) -> str:
        """The cell as printed: the points, or ``x`` for a scratch."""
        from yatzy.protocols.texts import SCRATCH_MARK

        return SCRATCH_MARK if self.scratched else str(self.points)


@dataclass(frozen=True)
class Column:
    """One player's column: a name, the written cells and the computed rows.

    A blank column has no marks and no computed values.
    """

    name: str
    marks: dict[str, Mark]
    computed: dict[str, int]
    winner: bool = False


@dataclass(frozen=True)
class Protocol:
    """The content of a protocol: rules, language, rows and one column per player."""

    rules: RuleSet
    lang: Language
    rows: tuple[Row, ...]
    columns: tuple[Column, ...]
    finished: bool = False
    rounds_played: int = 0
    starter: int | None = None
    """The seat that started a game (``None`` for a blank protocol)."""

    @classmethod
    def blank(
        cls,
        rules: RuleSet,
        players: Sequence[str] = (),
        columns: int | None = None,
        lang: Language = "en",
    ) -> Protocol:
        """An empty protocol with a column per player (``columns`` sets how many, at least)."""
        names = [check_name(p) for p in players]
        if columns is None:
            columns = max(len(names), 1) if names else 4
        if isinstance(columns, bool) or not isinstance(columns, int) or columns < 1:
            raise YatzyError(f"columns {columns!r} is not a positive number")
        if columns > MAX_COLUMNS:
            raise YatzyError(f"{columns} columns is more than the {MAX_COLUMNS} a protocol has")
        if len(names) > columns:
            raise YatzyError(f"{len(names)} players do not fit in {columns} columns")
        names += [""] * (columns - len(names))
        cols = tuple(Column(n, {}, {}) for n in names)
        return cls(rules, lang, protocol_rows(rules), cols)

    @classmethod
    def from_state(cls, state: State, lang: Language = "en") -> Protocol:
        """The protocol of a game, finished or not: every filled box and the totals."""
        rules = state.rules
        winners = set(state.winners())
        cols = []
        for seat, (player, sheet) in enumerate(zip(state.players, state.sheets, strict=True)):
            marks: dict[str, Mark] = {}
            for box, entry in sheet.entries.items():
                if entry is not None:
                    marks[box] = Mark(entry.points, entry.scratched)
            if rules.has_joker and (sheet.yatzy_bonuses or not sheet.is_open("yatzy")):
                marks["yatzy_bonus"] = Mark(sheet.yatzy_bonus)
            computed: dict[str, int] = {}
            if marks:
                computed = {"total": sheet.total}
                if any(not sheet.is_open(b) for b in rules.upper_boxes):
                    computed.update(sum=sheet.upper_sum, bonus=sheet.bonus, par=sheet.bonus_par)
                if rules.double:
                    computed["final"] = sheet.final
            cols.append(Column(player.name, marks, computed, seat in winners))
        rounds = (
            min(sum(e is not None for e in s.entries.values()) for s in state.sheets)
            // rules.results_per_turn
        )
        return cls(
            rules,
            lang,
            protocol_rows(rules),
            tuple(cols),
            finished=state.is_terminal(),
            rounds_played=rounds,
            starter=state.starter,
        )

    def pages(self) -> list[tuple[Column, ...]]:
        """The columns split into printed pages of up to six players."""
        n = PLAYERS_PER_PAGE
        return [self.columns[i : i + n] for i in range(0, len(self.columns), n)]

    @property
    def winner_names(self) -> list[str]:
        """The names of the winners (empty while the game goes on or for a blank protocol)."""
        return [c.name for c in self.columns if c.winner]
