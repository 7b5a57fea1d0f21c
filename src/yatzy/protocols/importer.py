"""Reading a hand-filled Excel protocol back into a score-pad game record.

The protocol must be one this package wrote (its hidden ``yatzy`` sheet names the
rules and the row of every box).  Every cell is checked, and every problem is
reported by its cell address (``C14: 29 is not a possible Full House``); nothing is
guessed.  A protocol has no turn order, so the record is built by this rule:

* Player columns count from the left; a column with a name or a score is a player.
* The first column starts (a protocol exported from a game keeps that game's
  starter), and play goes column by column.
* Each player's filled boxes are taken in protocol order, one turn each (two per
  turn in DubbelYatzy: the first of a pair is the inner result).  With
  ``half_forced``, a player whose lower section holds scores while the upper one is
  not full is taken to have chosen the lower section first.
* A box holding a number becomes ``Write(box, points)``; ``x`` (or ``-``) a
  ``Scratch``.  The Yatzy bonus row's 100s are claimed by the first turns with points
  after the Yatzy box; without an order rule, a player with a Yatzy bonus is taken to
  have filled the Yatzy box first.
* Empty boxes make an unfinished game only if they fit the turn order: every
  column has as many turns as the first, or one fewer once a column has one fewer.
  Otherwise each column that does not fit is reported at its name cell.

The replay goes through :class:`yatzy.game.State`, so the order rules (forced,
half forced) are checked exactly as in a game.
"""

from __future__ import annotations

import os
import zipfile
from dataclasses import dataclass, field
from typing import Any

from yatzy.errors import YatzyError
from yatzy.game import Fill2, Game, Scratch, State, Write, check_name
from yatzy.protocols.layout import Row, canonical, possible_entries, protocol_rows, row_label
from yatzy.protocols.texts import SCRATCH_ALIASES
from yatzy.protocols.xlsx import FORMAT, META_SHEET, SHEET, VERSION
from yatzy.rules import CATEGORIES, LANGUAGES, YATZY_BONUS_POINTS, RuleSet


class ProtocolImportError(YatzyError):
    """A protocol that cannot be read into a game; ``problems`` lists each by cell."""

    def __init__(self, problems: list[str]) -> None:
        self.problems = list(problems)
        more = f" (and {len(problems) - 1} more)" if len(problems) > 1 else ""
        super().__init__(f"{problems[0]}{more}")


@dataclass
class _Entry:
    """One written cell of a player's column."""

    key: str
    cell: str
    points: int
    scratched: bool = False


@dataclass
class _Player:
    """One player column as read: its name, written boxes and Yatzy bonuses."""

    column: int
    name: str
    name_cell: str
    boxes: dict[str, _Entry] = field(default_factory=dict)
    bonus: _Entry | None = None


def read_protocol(path: str | os.PathLike[str]) -> State:
    """Read the protocol in ``path`` into a score-pad game state (checked throughout).

    Raises :class:`ProtocolImportError` listing every problem by cell.
    """
    from openpyxl import load_workbook
    from openpyxl.utils.exceptions import InvalidFileException

    shown = os.fspath(path)
    try:
        wb = load_workbook(shown)
    except FileNotFoundError:
        raise ProtocolImportError([f"{shown}: no such file"]) from None
    except (OSError, zipfile.BadZipFile, InvalidFileException, KeyError, ValueError) as exc:
        raise ProtocolImportError(
            [f"{shown}: not an Excel workbook ({type(exc).__name__})"]
        ) from None
    if META_SHEET not in wb.sheetnames or SHEET not in wb.sheetnames:
        raise ProtocolImportError(
            [f"{shown}: not a yatzy protocol (made by 'yatzy protocol' or 'yatzy export')"]
        )
    meta = _read_meta(wb[META_SHEET])
    reader = _Reader(shown, meta, wb[SHEET])
    return reader.read()


def _read_meta(ws: Any) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for key, value in ws.iter_rows(min_col=1, max_col=2, values_only=True):
        if isinstance(key, str):
            out[key] = value
    return out


def _address(column: int, row: int) -> str:
    from openpyxl.utils import get_column_letter

    return f"{get_column_letter(column)}{row}"


def _name(rules: RuleSet, box: str) -> str:
    return row_label(Row(box, "box" if box in CATEGORIES else "entry"), "en", rules)


def _is_formula(cell: Any) -> bool:
    """Whether ``cell`` holds a formula (plain, array or data table), not a value."""
    return bool(cell.data_type == "f" or hasattr(cell.value, "text") or hasattr(cell.value, "ref"))


def _shown(value: Any) -> str:
    """A formula as its text, shortened for a one-line problem."""
    text = getattr(value, "text", None) or str(value)
    return repr(text if len(text) <= 60 else text[:60] + "...")


def _name_fault(name: str) -> str | None:
    """Why ``name`` is no player name (:func:`check_name`'s reason), or None."""
    try:
        check_name(name)
    except YatzyError as exc:
        return str(exc)
    return None


class _Reader:
    """Reads one protocol sheet; collects problems instead of stopping at the first."""

    def __init__(self, shown: str, meta: dict[str, Any], ws: Any) -> None:
        self.shown = shown
        self.meta = meta
        self.ws = ws
        self.problems: list[str] = []

    def fail(self) -> ProtocolImportError:
        return ProtocolImportError(self.problems)

    def read(self) -> State:
        meta = self.meta
        if meta.get("format") != FORMAT or meta.get("version") != VERSION:
            raise ProtocolImportError(
                [
                    f"{self.shown}: protocol format {meta.get('format')!r} version "
                    f"{meta.get('version')!r} is not {FORMAT} {VERSION}"
                ]
            )
        try:
            rules = canonical(RuleSet.parse(str(meta.get("rules"))))
        except YatzyError as exc:
            raise ProtocolImportError([f"{self.shown}: {exc}"]) from None
        rows = protocol_rows(rules)
        row_of: dict[str, int] = {}
        for row in rows:
            number = meta.get(f"row:{row.key}")
            if not isinstance(number, int):
                raise ProtocolImportError([f"{self.shown}: the protocol has no row {row.key}"])
            row_of[row.key] = number
        header, first, ncols = (meta.get(k) for k in ("header_row", "first_column", "columns"))
        if not all(isinstance(v, int) and v > 0 for v in (header, first, ncols)):
            raise ProtocolImportError([f"{self.shown}: the protocol's layout is damaged"])
        assert isinstance(header, int) and isinstance(first, int) and isinstance(ncols, int)
        self.rules, self.rows, self.row_of = rules, rows, row_of
        self._check_labels(meta.get("lang"))
        players = [p for c in range(first, first + ncols) if (p := self._read_column(c, header))]
        if not players and not self.problems:
            self.problems.append(
                f"{_address(first, header)}: no column has a player's name or a score"
            )
        self._check_names(players)
        self._check_turn_order(players)
        if self.problems:
            raise self.fail()
        state = self._replay(players)
        self._check_computed(players, state)
        if self.problems:
            raise self.fail()
        return state

    # -- cells ----------------------------------------------------------------------------

    def _check_labels(self, lang: Any) -> None:
        """Rows moved or inserted by hand would shift every box: refuse them."""
        langs = (lang,) if lang in LANGUAGES else LANGUAGES
        for row in self.rows:
            rn = self.row_of[row.key]
            text = self.ws.cell(rn, 1).value
            names = [row_label(row, lg, self.rules) for lg in langs]
            if row.kind == "box":  # files written before a name changed still read
                names += CATEGORIES[row.key].spellings()
            if not isinstance(text, str) or not any(text.startswith(n) for n in names):
                self.problems.append(
                    f"A{rn}: expected the row {names[0]!r} here, found {text!r} "
                    "(rows were moved or inserted)"
                )
                raise self.fail()  # every row below is shifted too: one line says it

    def _read_column(self, column: int, header: int) -> _Player | None:
        name_cell = _address(column, header)
        cell = self.ws.cell(header, column)
        raw = cell.value
        if _is_formula(cell):
            # A formula is not a name: taking its text would hide what it does, and
            # its cached result may be anything the formula's author chose.
            self.problems.append(
                f"{name_cell}: the name is a formula ({_shown(raw)}); write the name as text"
            )
            raw = None
        name = "" if raw is None else str(raw).strip()
        player = _Player(column, name, name_cell)
        for row in self.rows:
            if not row.is_written:
                continue
            rn = self.row_of[row.key]
            entry = self._read_cell(row, column, rn)
            if entry is None:
                continue
            if row.kind == "box":
                player.boxes[row.key] = entry
            else:
                player.bonus = entry
        if not name and not player.boxes and (player.bonus is None or not player.bonus.points):
            return None
        return player

    def _read_cell(self, row: Row, column: int, rn: int) -> _Entry | None:
        cell = _address(column, rn)
        source = self.ws.cell(rn, column)
        value = source.value
        what = _name(self.rules, row.key)
        if _is_formula(source):
            self.problems.append(f"{cell}: a formula ({_shown(value)}) is not a score")
            return None
        if value is None or (isinstance(value, str) and not value.strip()):
            return None
        if isinstance(value, str):
            text = value.strip()
            if text in SCRATCH_ALIASES:
                if row.kind != "box":
                    self.problems.append(f"{cell}: {what} is written as points, not scratched")
                    return None
                if not self.rules.scratchable(row.key):
                    self.problems.append(f"{cell}: {what} may not be scratched ({self.rules.spec})")
                    return None
                return _Entry(row.key, cell, 0, scratched=True)
            if text.startswith("="):
                self.problems.append(f"{cell}: a formula ({text}) is not a score")
                return None
            try:
                value = int(text.replace("−", "-"))
            except ValueError:
                self.problems.append(f"{cell}: {text!r} is not a score for {what}")
                return None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, bool) or not isinstance(value, int):
            self.problems.append(f"{cell}: {value!r} is not a score for {what}")
            return None
        if value not in possible_entries(self.rules, row):
            self.problems.append(f"{cell}: {value} is not a possible {what}")
            return None
        return _Entry(row.key, cell, value)

    def _check_names(self, players: list[_Player]) -> None:
        seen: dict[str, str] = {}
        for p in players:
            if not p.name:
                self.problems.append(f"{p.name_cell}: this column has scores but no player name")
            elif (fault := _name_fault(p.name)) is not None:
                self.problems.append(f"{p.name_cell}: {fault}")
            elif p.name.casefold() in seen:
                self.problems.append(
                    f"{p.name_cell}: the name {p.name!r} is already in {seen[p.name.casefold()]}"
                )
            else:
                seen[p.name.casefold()] = p.name_cell

    # -- turn order ------------------------------------------------------------------------

    def _starter(self, players: list[_Player]) -> int:
        starter = self.meta.get("starter")
        if isinstance(starter, int) and 0 <= starter < len(players):
            return starter
        return 0

    def _check_turn_order(self, players: list[_Player]) -> None:
        if not players:
            return
        k = self.rules.results_per_turn
        turns: list[int] = []
        for p in players:
            n = len(p.boxes)
            if n % k:
                last = max(p.boxes.values(), key=lambda e: self.row_of[e.key])
                self.problems.append(
                    f"{last.cell}: {p.name or p.name_cell} has {n} boxes filled; each turn "
                    f"fills {k}, so one box of a turn is missing"
                )
            turns.append(n // k)
        start = self._starter(players)
        order = list(range(start, len(players))) + list(range(start))
        counts = [turns[i] for i in order]
        most = max(counts)
        # The columns before the last one at the most turns have played as many turns;
        # the rest one fewer.
        split = max(j for j, t in enumerate(counts) if t == most) + 1
        for j, seat in enumerate(order):
            want = most if j < split else most - 1
            if turns[seat] != want:
                p = players[seat]
                self.problems.append(
                    f"{p.name_cell}: {p.name or 'this column'} has {turns[seat]} turns filled, "
                    f"but in turn order (starting with {players[start].name or 'the first'}) "
                    f"this column has {want}: fill the missing boxes"
                )

    def _sequence(self, p: _Player) -> list[_Entry]:
        rules = self.rules
        order = list(rules.boxes)
        if rules.half_forced:
            upper_full = all(b in p.boxes for b in rules.upper_boxes)
            lower_any = any(b in p.boxes for b in rules.lower_boxes)
            if lower_any and not upper_full:
                extra = [b for b in rules.boxes if b == "extra"]
                order = [*rules.lower_boxes, *rules.upper_boxes, *extra]
        elif not rules.forced and p.bonus is not None and p.bonus.points:
            # Extra Yatzys come after the Yatzy box: with a free order, it was filled first.
            order.remove("yatzy")
            order.insert(0, "yatzy")
        return [p.boxes[b] for b in order if b in p.boxes]

    def _replay(self, players: list[_Player]) -> State:
        rules = self.rules
        game = Game(rules, [p.name for p in players], pad=True)
        state = game.new_initial_state(self._starter(players))
        k = rules.results_per_turn
        turns: list[list[list[_Entry]]] = []
        for p in players:
            seq = self._sequence(p)
            turns.append([seq[i : i + k] for i in range(0, len(seq), k)])
        claims = self._bonus_turns(players, turns)
        if self.problems:
            raise self.fail()
        while not state.is_terminal():
            seat = state.player
            done = state.turn_number // len(players)
            if done >= len(turns[seat]):
                break
            turn = turns[seat][done]
            action: Any
            if k == 1:
                action = self._action(turn[0], (seat, done) in claims)
            else:
                action = Fill2(self._action(turn[0], False), self._action(turn[1], False))
            try:
                state.apply(action)
            except YatzyError as exc:
                cells = "/".join(e.cell for e in turn)
                self.problems.append(f"{cells}: {exc}")
                raise self.fail() from None
        return state

    @staticmethod
    def _action(entry: _Entry, bonus: bool) -> Scratch | Write:
        if entry.scratched:
            return Scratch(entry.key)
        return Write(entry.key, entry.points, bonus)

    def _bonus_turns(
        self, players: list[_Player], turns: list[list[list[_Entry]]]
    ) -> set[tuple[int, int]]:
        """The (seat, turn) pairs that claim a Yatzy bonus: the first written turns after
        the Yatzy box, as many as the bonus row's 100s."""
        claims: set[tuple[int, int]] = set()
        for seat, p in enumerate(players):
            if p.bonus is None or not p.bonus.points:
                continue
            wanted = p.bonus.points // YATZY_BONUS_POINTS
            yatzy = p.boxes.get("yatzy")
            if yatzy is None or yatzy.points != 50:
                where = yatzy.cell if yatzy else "the Yatzy box"
                self.problems.append(f"{p.bonus.cell}: a Yatzy bonus needs 50 in Yatzy ({where})")
                continue
            after = False
            claimed = 0
            for t, turn in enumerate(turns[seat]):
                if turn[0].key == "yatzy":
                    after = True
                elif after and claimed < wanted and not turn[0].scratched:
                    claims.add((seat, t))
                    claimed += 1
            if claimed < wanted:
                self.problems.append(
                    f"{p.bonus.cell}: {p.bonus.points} means {wanted} extra Yatzys, but only "
                    f"{claimed} boxes with points are written after Yatzy"
                )
        return claims

    def _check_computed(self, players: list[_Player], state: State) -> None:
        """A computed cell typed over by hand must agree with the boxes."""
        for seat, p in enumerate(players):
            sheet = state.sheets[seat]
            values = {
                "sum": sheet.upper_sum,
                "bonus": sheet.bonus,
                "par": sheet.bonus_par,
                "total": sheet.total,
                "final": sheet.final,
            }
            for row in self.rows:
                if row.kind != "computed":
                    continue
                rn = self.row_of[row.key]
                value = self.ws.cell(rn, p.column).value
                if value is None or (isinstance(value, str) and value.startswith("=")):
                    continue
                number = isinstance(value, (int, float)) and not isinstance(value, bool)
                if number and value == values[row.key]:
                    continue
                name = row_label(row, "en", self.rules)
                self.problems.append(
                    f"{_address(p.column, rn)}: {name} {value!r} does not match "
                    f"the boxes ({values[row.key]})"
                )
