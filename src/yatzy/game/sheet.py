"""A player's column of the protocol: filled boxes and the computed rows."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, NamedTuple

from yatzy.rules import CATEGORIES, YATZY_BONUS_POINTS, RuleSet
from yatzy.rules.scoring import bonus_par


@dataclass(frozen=True)
class BoxEntry:
    """What is written in one box: its points, and whether it was scratched.

    ``drop`` is the face a DubbelYatzy result left out.
    """

    points: int
    scratched: bool = False
    drop: int | None = None


class SheetRows(NamedTuple):
    """The computed rows of a sheet, all at once (see :meth:`Sheet.rows`)."""

    upper_sum: int
    bonus: int
    bonus_par: int
    yatzy_bonus: int
    total: int
    final: int


class Entries(dict[str, BoxEntry | None]):
    """A sheet's boxes: a dict of box id to its :class:`BoxEntry` (``None`` while open)
    that remembers what the sheet computes from it until it is written to.

    The bots, the solvers' references and the front ends ask a sheet for its rows
    and open boxes many times between two writes; every method that changes the
    dict forgets them, so a write through any of them is seen at once.
    """

    __slots__ = ("open", "rows")
    # Unset until first asked for (read with getattr and a default): dict's own
    # constructor and copy stay as fast as a plain dict's.
    open: tuple[str, ...] | None
    """The open boxes in protocol order (``None``: not known)."""
    rows: tuple[int, SheetRows] | None
    """The Yatzy bonuses and the rows computed with them (``None``: not known)."""

    def __setitem__(self, key: str, value: BoxEntry | None) -> None:
        self.open = self.rows = None
        super().__setitem__(key, value)

    def __delitem__(self, key: str) -> None:
        self.open = self.rows = None
        super().__delitem__(key)

    def __ior__(self, other: Any) -> Entries:  # type: ignore[override,misc]
        self.open = self.rows = None
        super().__ior__(other)
        return self

    def update(self, *args: Any, **kwargs: Any) -> None:
        """As :meth:`dict.update`."""
        self.open = self.rows = None
        super().update(*args, **kwargs)

    def setdefault(self, key: str, default: BoxEntry | None = None) -> BoxEntry | None:
        """As :meth:`dict.setdefault`."""
        self.open = self.rows = None
        return super().setdefault(key, default)

    def pop(self, key: str, *default: Any) -> Any:
        """As :meth:`dict.pop`."""
        self.open = self.rows = None
        return super().pop(key, *default)

    def popitem(self) -> tuple[str, BoxEntry | None]:
        """As :meth:`dict.popitem`."""
        self.open = self.rows = None
        return super().popitem()

    def clear(self) -> None:
        """As :meth:`dict.clear`."""
        self.open = self.rows = None
        super().clear()

    def __reduce__(self) -> tuple[Any, ...]:
        return (Entries, (dict(self),))


class Sheet:
    """One player's column: box entries, Yatzy bonuses and saved rolls.

    Sum, Bonus, Total and Final are computed, never entered.
    """

    def __init__(self, rules: RuleSet) -> None:
        self.rules = rules
        self.entries: dict[str, BoxEntry | None] = Entries(dict.fromkeys(rules.boxes))
        self.yatzy_bonuses = 0
        self.saved_rolls = 0
        self.first_section: str | None = None

    def copy(self) -> Sheet:
        """An independent copy (entries are immutable and shared)."""
        other = Sheet.__new__(Sheet)
        other.rules = self.rules
        entries = self.entries
        other.entries = copied = Entries(entries)
        copied.open = getattr(entries, "open", None)
        copied.rows = getattr(entries, "rows", None)
        other.yatzy_bonuses = self.yatzy_bonuses
        other.saved_rolls = self.saved_rolls
        other.first_section = self.first_section
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Sheet):
            return NotImplemented
        return (
            self.rules == other.rules
            and self.entries == other.entries
            and self.yatzy_bonuses == other.yatzy_bonuses
            and self.saved_rolls == other.saved_rolls
            and self.first_section == other.first_section
        )

    __hash__ = None  # type: ignore[assignment]

    def is_open(self, box: str) -> bool:
        """Whether ``box`` is still empty."""
        return self.entries[box] is None

    def points(self, box: str) -> int | None:
        """The points in ``box``, or ``None`` while it is open."""
        entry = self.entries[box]
        return None if entry is None else entry.points

    def _open(self) -> tuple[str, ...]:
        entries = self.entries
        known: tuple[str, ...] | None = getattr(entries, "open", None)
        if known is None:
            known = tuple([b for b, e in entries.items() if e is None])
            if isinstance(entries, Entries):
                entries.open = known
        return known

    @property
    def open_boxes(self) -> list[str]:
        """The empty boxes in protocol order."""
        return list(self._open())

    @property
    def is_full(self) -> bool:
        """Whether every box is filled."""
        return not self._open()

    @property
    def upper_sum(self) -> int:
        """The sum of the upper section so far."""
        return self.rows().upper_sum

    @property
    def bonus(self) -> int:
        """The upper-section bonus earned so far (0 until the sum reaches the threshold)."""
        return self.rows().bonus

    @property
    def bonus_par(self) -> int:
        """How far the upper sum is above (+) or below (-) the pace that just reaches the
        bonus threshold (RULES.md: threshold × faces of the filled upper boxes / 21)."""
        return self.rows().bonus_par

    @property
    def yatzy_bonus(self) -> int:
        """Points from extra Yatzys (international rules with the joker)."""
        return self.rows().yatzy_bonus

    @property
    def total(self) -> int:
        """Every box but Extra, plus the bonus and Yatzy bonuses."""
        return self.rows().total

    @property
    def final(self) -> int:
        """The final score: Total plus DubbelYatzy's Extra (Total elsewhere)."""
        return self.rows().final

    def rows(self) -> SheetRows:
        """Sum, Bonus, Bonus par, Yatzy bonus, Total and Final in one pass over the boxes
        (what a protocol shows under the boxes; every view of a game asks for them all).

        Kept with the entries until they or the Yatzy bonuses change."""
        entries = self.entries
        known: tuple[int, SheetRows] | None = getattr(entries, "rows", None)
        if known is not None and known[0] == self.yatzy_bonuses:
            return known[1]
        rows = self._count()
        if isinstance(entries, Entries):
            entries.rows = (self.yatzy_bonuses, rows)
        return rows

    def _count(self) -> SheetRows:
        rules = self.rules
        upper = faces = boxes = extra = 0
        for box, entry in self.entries.items():
            if entry is None:
                continue
            if box in rules.upper_boxes:
                upper += entry.points
                faces += CATEGORIES[box].face
            if box == "extra":
                extra = entry.points
            else:
                boxes += entry.points
        bonus = rules.bonus if upper >= rules.threshold else 0
        yatzy_bonus = YATZY_BONUS_POINTS * self.yatzy_bonuses
        total = boxes + bonus + yatzy_bonus
        par = bonus_par(rules.threshold, upper, faces)
        return SheetRows(upper, bonus, par, yatzy_bonus, total, total + extra)
