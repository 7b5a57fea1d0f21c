"""The sheet of the full-screen game as rows of styled cells, read from a State.

Pure like :mod:`yatzy.cli.terminal`: every number (what a box would score now,
which boxes the order allows, sums, bonus par, saved rolls) comes from the
state; this module only lays it out and picks the colours the app shows:
green for what scores most now and for a won bonus, magenta for a Yatzy, grey
for boxes the rules do not allow now, ``x`` for a scratch.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yatzy.cli.i18n import tr
from yatzy.cli.terminal import ready
from yatzy.cli.tui.keymap import box_letter
from yatzy.game import Sheet, State
from yatzy.rules import CATEGORIES, Language

BEST = "bold green"
"""Style of the box that scores most now, and of a won bonus."""
YATZY = "bold magenta"
"""Style of a Yatzy: on the dice and in the box."""
GREY = "grey50"
"""Style of what may not be filled now."""
KEPT = "bold black on yellow"
"""Style of a die kept for the next roll."""

_YATZY_BOXES = frozenset({"yatzy", "maxi_yatzy"})


@dataclass(frozen=True)
class Cell:
    """A cell's text and its Rich style ("" for the default)."""

    text: str
    style: str = ""


@dataclass(frozen=True)
class SheetRow:
    """One row of the sheet: a box (``box`` set) or a computed row (sum, bonus ...)."""

    key: str
    letter: str
    label: Cell
    now: Cell
    cells: tuple[Cell, ...]
    box: str | None = None


def player_heads(state: State, width: int) -> list[str]:
    """Column heads: the players' names, shortened to ``width`` characters."""
    out = []
    for p in state.players:
        name = p.name if len(p.name) <= width else p.name[: width - 1] + "…"
        out.append(name)
    return out


def current_seat(state: State) -> int | None:
    """The seat to play, or ``None`` before the roll-off is decided and after the game."""
    if state.is_terminal() or state.starter is None:
        return None
    return state.player


def best_boxes(state: State) -> set[str]:
    """The allowed boxes where the dice score most now (none before a roll or at 0)."""
    if not ready(state) or state.rules.double:
        return set()
    preview: dict[str, Any] = dict(state.preview())
    allowed = [b for b in state.allowed_boxes() if b in preview]
    top = max((preview[b] for b in allowed), default=0)
    return {b for b in allowed if preview[b] == top} if top > 0 else set()


def is_yatzy(state: State) -> bool:
    """Whether the dice on the table are all alike (a Yatzy; DubbelYatzy: either layer)."""
    if not ready(state):
        return False
    if state.rules.double:
        return any(len(set(state.layer(layer))) == 1 for layer in ("inner", "outer"))
    return len(set(state.layer("all"))) == 1


def _entry_cell(sheet: Sheet, box: str, last: bool) -> Cell:
    entry = sheet.entries[box]
    if entry is None:
        return Cell("")
    under = " underline" if last else ""
    if entry.scratched:
        return Cell("x", GREY + under)
    if box in _YATZY_BOXES and entry.points > 0:
        return Cell(str(entry.points), YATZY + under)
    return Cell(str(entry.points), under.strip())


def _last_written(state: State) -> tuple[int, set[str]]:
    """The seat and boxes of the last write (underlined), or (-1, set())."""
    if not state.log:
        return -1, set()
    turn = state.log[-1]
    if "inner" in turn:
        return int(turn["player"]), {turn["inner"]["box"], turn["outer"]["box"]}
    if "box" in turn:
        return int(turn["player"]), {str(turn["box"])}
    return -1, set()


def _par_cell(sheet: Sheet) -> Cell:
    if not any(not sheet.is_open(b) for b in sheet.rules.upper_boxes):
        return Cell("")
    par = sheet.bonus_par
    if par == 0:
        return Cell("±0")
    return Cell(f"{par:+d}", "green" if par > 0 else "red")


def _bonus_cell(sheet: Sheet) -> Cell:
    if sheet.bonus:
        return Cell(str(sheet.bonus), BEST)
    if not any(sheet.is_open(b) for b in sheet.rules.upper_boxes):
        return Cell("0", GREY)
    return Cell("")


def chance_cells(result: Any, stale: bool) -> tuple[Cell, ...] | None:
    """Each player's chance to win in a narrow cell: whole percents ("54"; "<1", ">99"
    near the ends), "≈54" when simulated ("about 54", as the line mode and the web
    page say it; no "±" jargon); the leader bold.
    ``None`` (the row shows "…": being computed) while the chances at hand are of an
    earlier position: a stale figure is never shown as the current one."""
    if stale:
        return None
    best = max(s.chance for s in result.seats)
    out = []
    for s in result.seats:
        pct = s.chance * 100
        if 0 < pct < 0.5:
            text = "<1"
        elif 99.5 <= pct < 100:
            text = ">99"
        else:
            text = f"{pct:.0f}"
        if s.margin > 0:
            text = "≈" + text
        style = "bold" if s.chance == best else ""
        out.append(Cell(text, style))
    return tuple(out)


def split_rows(rows: list[SheetRow]) -> tuple[list[SheetRow], list[SheetRow]]:
    """The sheet in two columns for a short screen: the upper section with every
    computed row (chances, Sum, Bonus, Total ...) on the left, so they never scroll
    away, and the lower (and extra) boxes on the right."""
    right = [r for r in rows if r.box is not None and CATEGORIES[r.box].section != "upper"]
    left = [r for r in rows if r not in right]
    return left, right


def final_cells(state: State) -> tuple[Cell, ...]:
    """The chances-to-win row of a finished game: the result itself (100 for the
    winner, shared on a tie, 0 for the others), never a figure from before the end."""
    totals = state.totals()
    top = max(totals)
    winners = sum(1 for t in totals if t == top)
    return tuple(Cell(f"{100 / winners:.0f}", "bold") if t == top else Cell("0") for t in totals)


def failed_cells(state: State) -> tuple[Cell, ...]:
    """The chances-to-win row when computing them failed: "?" (never a stale figure)."""
    return tuple(Cell("?", "red") for _ in state.players)


def unavailable_cells(state: State) -> tuple[Cell, ...]:
    """The chances-to-win row when they cannot be worked out yet (a table not built):
    "–", its reason said once in the messages."""
    return tuple(Cell("–", GREY) for _ in state.players)


def win_row(state: State, lang: Language, cells: tuple[Cell, ...] | None) -> SheetRow:
    """The row of the players' chances to win ("…" while the first are computed)."""
    if cells is None:
        cells = tuple(Cell("…", GREY) for _ in state.players)
    return SheetRow("win", "", Cell(tr("win_row", lang), "italic"), Cell(""), cells)


def sheet_rows(
    state: State,
    lang: Language,
    picked: dict[str, str] | None = None,
    chances: tuple[Cell, ...] | bool | None = False,
) -> list[SheetRow]:
    """Every row of the sheet for ``state`` in protocol order.

    ``picked`` maps a box to ``"inner"``/``"outer"`` while a DubbelYatzy player
    chooses the boxes of the two results (the now cell shows ◦ or ●).  ``chances``
    (cells of :func:`chance_cells`, or ``None`` while pending) puts the row of the
    players' chances to win first; ``False`` leaves it out.
    """
    rules = state.rules
    sheets = state.sheets
    picked = picked or {}
    seat = current_seat(state)
    now: dict[str, Any] = {}
    allowed: set[str] = set()
    if ready(state):
        now = dict(state.preview())
        allowed = set(state.allowed_boxes())
    best = best_boxes(state)
    last_seat, last_boxes = _last_written(state)
    rows: list[SheetRow] = []
    if chances is not False:
        rows.append(win_row(state, lang, chances if isinstance(chances, tuple) else None))

    def computed(key: str, label: str, cells: list[Cell]) -> None:
        rows.append(SheetRow(key, "", Cell(label, "italic"), Cell(""), tuple(cells)))

    def totals() -> None:
        if rules.has_joker:
            computed(
                "yatzy_bonus",
                rules.label("yatzy_bonus", lang),
                [Cell(str(s.yatzy_bonus), YATZY if s.yatzy_bonus else "") for s in sheets],
            )
        computed("total", rules.label("total", lang), [Cell(str(s.total), "bold") for s in sheets])

    for i, box in enumerate(rules.boxes):
        section = CATEGORIES[box].section
        if section == "lower" and i > 0 and rules.boxes[i - 1] == "sixes":
            computed("sum", rules.label("sum", lang), [Cell(str(s.upper_sum)) for s in sheets])
            computed(
                "bonus",
                f"{rules.label('bonus', lang)} ({rules.threshold}+)",
                [_bonus_cell(s) for s in sheets],
            )
            computed("par", rules.label("par", lang), [_par_cell(s) for s in sheets])
        if section == "extra":
            totals()
        open_now = seat is not None and sheets[seat].is_open(box)
        label_style = GREY if now and open_now and box not in allowed else ""
        now_cell = Cell("")
        if box in now:
            ok = box in allowed
            value = now[box]
            if rules.double:
                marks = {"inner": "◦", "outer": "●"}
                mark = marks.get(picked.get(box, ""), "")
                text = f"{mark}{value[0]} {value[1]}"
                now_cell = Cell(text, "bold yellow" if mark else ("" if ok else GREY))
            elif not ok:
                now_cell = Cell(f"({value})", GREY)
            else:
                style = BEST if box in best else ("dim" if value == 0 else "")
                now_cell = Cell(str(value), style)
        cells = tuple(
            _entry_cell(s, box, p == last_seat and box in last_boxes) for p, s in enumerate(sheets)
        )
        rows.append(
            SheetRow(
                box,
                box_letter(rules, box),
                Cell(rules.box_name(box, lang), label_style),
                now_cell,
                cells,
                box,
            )
        )
    if rules.double:
        computed("final", rules.label("final", lang), [Cell(str(s.final), "bold") for s in sheets])
    else:
        totals()
    if rules.saves_rolls:
        computed(
            "saved_rolls", tr("saved_rolls_row", lang), [Cell(str(s.saved_rolls)) for s in sheets]
        )
    return rows
