"""The game state, with an OpenSpiel-style API.

A :class:`Game` (rules and players) makes states.  A :class:`State` tells whose
turn it is, or that chance acts (:data:`CHANCE`), lists legal actions, gives the
exact chance outcomes with their probabilities, applies an action or a chance
outcome, and tells when the game is over and who won.  Chance rolls one die at a
time, so outcomes stay few and exact for every variant: a face 1-6, or an
``(outer, inner)`` pair for DubbelYatzy's double dice.

``apply`` and ``apply_chance`` check their input and leave the state exactly as
it was when they raise.  The solver, the bots and every front end drive this API.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum
from fractions import Fraction
from typing import Any, Protocol

from yatzy.errors import (
    BoxFilledError,
    DiceError,
    GameOverError,
    IllegalActionError,
    ImpossibleScoreError,
    KeepError,
    NoRollsLeftError,
    NotYourTurnError,
    OrderError,
    YatzyError,
)
from yatzy.game.actions import Action, Entry, Fill2, Roll, Score, Scratch, SetDice, Undo, Write
from yatzy.game.legal import legal_actions_of
from yatzy.game.names import check_name
from yatzy.game.order import (
    LastResort,
    allowed_groups,
    check_last_resort,
    joker_restrict,
    last_resort_cut,
)
from yatzy.game.points import best_drop, dropped_points, joker_active, plain_points
from yatzy.game.sheet import BoxEntry, Sheet
from yatzy.game.turnlog import Die, copy_turn, deep_json, dice_json, fills_box, is_face
from yatzy.rules import CATEGORIES, RuleSet, score_table


class Dealer(Protocol):
    """A source of dice that decides them from where they fall, not from a stream
    (:class:`yatzy.game.fair_dice.FairDice`): :meth:`State.roll` hands it the state."""

    def deal(self, state: State) -> None:
        """Let chance act on ``state`` until a player is to act."""


CHANCE = -1
"""``current_player()`` while chance acts (a die is to be rolled)."""
TERMINAL = -4
"""``current_player()`` once the game is over."""


_FACE_P = Fraction(1, 6)
_PAIR_P = Fraction(1, 36)


class Phase(Enum):
    """Where the game is: the roll-off for the first player, the turns, or over."""

    ROLL_OFF = "roll_off"
    TURN = "turn"
    OVER = "over"


@dataclass(frozen=True)
class Player:
    """A seat: the player's name, and the bot level for a computer player."""

    name: str
    bot: str | None = None


def default_rng() -> random.Random:
    """The default random source: the operating system's CSPRNG."""
    return secrets.SystemRandom()


class Game:
    """A rule set and the players in seat order; makes states.

    With ``pad=True`` the game is a score pad for physical dice: turns have no
    chance nodes; a player enters the final dice (:class:`SetDice`) and scores them,
    or writes only the points of a box (:class:`Write`), which are checked against
    the scores the rules make possible.
    """

    def __init__(
        self, rules: RuleSet | str, players: Sequence[str | Player], *, pad: bool = False
    ) -> None:
        self.rules = RuleSet.parse(rules) if isinstance(rules, str) else rules
        self.pad = bool(pad)
        seats: list[Player] = []
        for p in players:
            player = Player(p) if isinstance(p, str) else p
            if not isinstance(player, Player) or not isinstance(player.name, str):
                raise YatzyError(f"a player is a name, not {p!r}")
            name = check_name(player.name)
            if any(s.name.casefold() == name.casefold() for s in seats):
                raise YatzyError(f"player name {name!r} is given twice")
            seats.append(Player(name, player.bot))
        if not seats:
            raise YatzyError("a game needs at least one player")
        self.players: tuple[Player, ...] = tuple(seats)
        self.table = score_table(self.rules)

    @property
    def num_players(self) -> int:
        """How many seats the game has."""
        return len(self.players)

    def new_initial_state(self, starter: int | None = None) -> State:
        """A new game: a roll-off decides who starts unless ``starter`` is given."""
        return State(self, starter)


class State:
    """A position of a game.  See the module docstring for the API."""

    def __init__(self, game: Game, starter: int | None = None) -> None:
        self.game = game
        self.rules = game.rules
        self.sheets = [Sheet(game.rules) for _ in game.players]
        self.turn_number = 0  # turns finished
        self.dice: list[Die] | None = None
        self.rolls_used = 0
        self.pending: list[int] = []
        self.rolloff: list[list[tuple[int, int]]] = []
        self.log: list[dict[str, Any]] = []
        # The position just before the last write, kept until the next roll so that
        # the writer may take it back (Undo); None when nothing can be undone.
        self._before_write: State | None = None
        self.starter: int | None = None
        n = game.num_players
        if starter is not None:
            if isinstance(starter, bool) or not isinstance(starter, int) or not 0 <= starter < n:
                raise YatzyError(f"starter {starter!r} is not a seat in 0-{n - 1}")
            self.starter = starter
        elif n == 1:
            self.starter = 0
        else:
            self.rolloff.append([])
        self.phase = Phase.ROLL_OFF if self.starter is None else Phase.TURN

    # -- copying and comparing ------------------------------------------------------

    def clone(self) -> State:
        """An independent copy of this state."""
        other = State.__new__(State)
        other.game = self.game
        other.rules = self.rules
        other.sheets = [s.copy() for s in self.sheets]
        other.turn_number = self.turn_number
        other.dice = None if self.dice is None else list(self.dice)
        other.rolls_used = self.rolls_used
        other.pending = list(self.pending)
        other.rolloff = [list(r) for r in self.rolloff]
        # Only the current (last) turn of the log ever changes: the finished ones are shared.
        other.log = [*self.log[:-1], copy_turn(self.log[-1])] if self.log else []
        other.starter = self.starter
        other.phase = self.phase
        other._before_write = self._before_write
        return other

    def _snapshot(self) -> tuple[Any, ...]:
        return (
            self.rules,
            self.game.players,
            self.game.pad,
            self.turn_number,
            self.dice,
            self.rolls_used,
            self.pending,
            self.rolloff,
            self.log,
            self.starter,
            self.phase,
        )

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, State):
            return NotImplemented
        return self._snapshot() == other._snapshot() and self.sheets == other.sheets

    __hash__ = None  # type: ignore[assignment]

    # -- whose turn ---------------------------------------------------------------------

    @property
    def players(self) -> tuple[Player, ...]:
        """The seats in order."""
        return self.game.players

    def is_terminal(self) -> bool:
        """Whether the game is over."""
        return self.phase is Phase.OVER

    def is_chance_node(self) -> bool:
        """Whether chance acts next (a die is to be rolled)."""
        return self.phase is Phase.ROLL_OFF or bool(self.pending)

    @property
    def player(self) -> int:
        """The seat whose turn it is (also while their dice are rolling)."""
        if self.starter is None:
            return CHANCE
        if self.phase is Phase.OVER:
            return TERMINAL
        return (self.starter + self.turn_number) % self.game.num_players

    def current_player(self) -> int:
        """The seat to act, :data:`CHANCE` or :data:`TERMINAL`."""
        if self.phase is Phase.OVER:
            return TERMINAL
        if self.is_chance_node():
            return CHANCE
        return self.player

    @property
    def sheet(self) -> Sheet:
        """The sheet of the player whose turn it is.

        Raises :class:`IllegalActionError` during the roll-off and after the game,
        when no seat has the turn (``player`` is then CHANCE or TERMINAL, which
        would index some other seat's sheet, or none).
        """
        if self.player < 0:
            raise IllegalActionError(
                "no player has the turn: "
                + ("the game is over" if self.phase is Phase.OVER else "the roll-off is on")
            )
        return self.sheets[self.player]

    def max_rolls(self) -> int:
        """Rolls the current turn may use (3, plus saved rolls in Maxi)."""
        if self.phase is not Phase.TURN:
            return 0
        extra = self.sheet.saved_rolls if self.rules.saves_rolls else 0
        return self.rules.max_rolls + extra

    def rolls_left(self) -> int:
        """Rolls still allowed in the current turn."""
        return max(0, self.max_rolls() - self.rolls_used)

    def contenders(self) -> list[int]:
        """During the roll-off: the seats still rolling for the start."""
        if self.phase is not Phase.ROLL_OFF:
            return []
        if len(self.rolloff) == 1:
            return list(range(self.game.num_players))
        last = self.rolloff[-2]
        top = max(f for _, f in last)
        return [p for p, f in last if f == top]

    # -- chance -------------------------------------------------------------------------

    def _die_kind(self) -> str:
        return "pair" if self.rules.double and self.phase is Phase.TURN else "face"

    def chance_outcomes(self) -> list[tuple[Die, Fraction]]:
        """The outcomes of the next die with their exact probabilities."""
        if not self.is_chance_node():
            raise IllegalActionError("no die is being rolled")
        if self._die_kind() == "pair":
            return [((o, i), _PAIR_P) for o in range(1, 7) for i in range(1, 7)]
        return [(f, _FACE_P) for f in range(1, 7)]

    def _check_die(self, outcome: Any) -> Die:
        if self._die_kind() == "pair":
            if (
                isinstance(outcome, (tuple, list))
                and len(outcome) == 2
                and all(is_face(x) for x in outcome)
            ):
                return (int(outcome[0]), int(outcome[1]))
            raise DiceError(f"double die {outcome!r} is not an (outer, inner) pair of 1-6")
        if not is_face(outcome):
            raise DiceError(f"die {outcome!r} is not in 1-6")
        return int(outcome)

    def apply_chance(self, outcome: Die) -> None:
        """Roll the next die to ``outcome`` (checked)."""
        if not self.is_chance_node():
            raise IllegalActionError(f"no die is being rolled, so {outcome!r} cannot be applied")
        die = self._check_die(outcome)
        if self.phase is Phase.ROLL_OFF:
            self._rolloff_die(die)  # type: ignore[arg-type]
            return
        assert self.dice is not None
        self.dice[self.pending.pop(0)] = die
        if not self.pending:
            self.log[-1]["rolls"][-1]["dice"] = dice_json(self.dice)

    def _rolloff_die(self, face: int) -> None:
        contenders = self.contenders()
        current = self.rolloff[-1]
        current.append((contenders[len(current)], face))
        if len(current) < len(contenders):
            return
        top = max(f for _, f in current)
        leaders = [p for p, f in current if f == top]
        if len(leaders) == 1:
            self.starter = leaders[0]
            self.phase = Phase.TURN
        else:
            self.rolloff.append([])

    def apply_roll(self, dice: Sequence[Die]) -> None:
        """Set every die that is being rolled at once (checked, all or nothing).

        During the roll-off ``dice`` gives the faces of the contenders still to roll.
        """
        if not self.is_chance_node():
            raise IllegalActionError("no dice are being rolled")
        need = (
            len(self.contenders()) - len(self.rolloff[-1])
            if self.phase is Phase.ROLL_OFF
            else len(self.pending)
        )
        dice = list(dice)
        if len(dice) != need:
            raise DiceError(f"{need} dice are being rolled, got {len(dice)}")
        checked = [self._check_die(d) for d in dice]
        for d in checked:
            self.apply_chance(d)

    def roll(self, rng: random.Random | Dealer | None = None) -> None:
        """Let chance act with ``rng`` (default: the CSPRNG) until a player is to act;
        a :class:`Dealer` (verifiable dice) decides the dice itself.

        Raises :class:`IllegalActionError` (:class:`GameOverError` after the game)
        when no die is being rolled: a player rolls by applying :class:`Roll` first,
        and a call that did nothing would hide that mistake.
        """
        if not self.is_chance_node():
            if self.phase is Phase.OVER:
                raise GameOverError(f"the game is over, no die is to be rolled: {self}")
            if self.game.pad:
                raise IllegalActionError(
                    f"a score pad's turns roll no dice ({self}): enter them with SetDice"
                )
            raise IllegalActionError(
                f"no die is being rolled ({self}): apply Roll(...) first, then roll()"
            )
        if rng is not None and not isinstance(rng, random.Random):
            rng.deal(self)
            return
        rng = rng or default_rng()
        if self.phase is Phase.TURN and self.pending:
            # The fast path of a turn's roll: faces drawn by ``randint`` need no check,
            # and they go in the same order, from the same draws, as apply_chance's.
            assert self.dice is not None
            for i in self.pending:
                if self.rules.double:
                    self.dice[i] = (rng.randint(1, 6), rng.randint(1, 6))
                else:
                    self.dice[i] = rng.randint(1, 6)
            self.pending = []
            self.log[-1]["rolls"][-1]["dice"] = dice_json(self.dice)
            return
        while self.is_chance_node():
            if self._die_kind() == "pair":
                self.apply_chance((rng.randint(1, 6), rng.randint(1, 6)))
            else:
                self.apply_chance(rng.randint(1, 6))

    # -- scoring helpers ----------------------------------------------------------------

    def layer(self, which: str) -> tuple[int, ...]:
        """The faces of the dice: ``"all"`` for plain dice, ``"outer"``/``"inner"`` for double."""
        if self.dice is None or self.pending:
            raise IllegalActionError("the dice are not rolled yet")
        if not self.rules.double:
            return tuple(self.dice)  # type: ignore[arg-type]
        pos = {"outer": 0, "inner": 1}[which]
        return tuple(d[pos] for d in self.dice)  # type: ignore[index]

    def joker_on_table(self) -> bool:
        """Whether the dice on the table are a joker (five equal with the Yatzy box
        already filled, under rules with a joker), which changes what boxes score."""
        dice = self.dice
        if not self.rules.has_joker or dice is None or self.rules.double or self.pending:
            return False
        return joker_active(self.rules, self.layer("all"), self.sheet)

    def box_points(self, box: str, layer: str = "all", drop: int | None = None) -> int:
        """What ``box`` would score now (checked; joker and best drop applied)."""
        self.rules.check_box(box)
        faces = self.layer(layer)
        if not self.rules.double:
            return plain_points(self.rules, self.game.table, box, faces, self.sheet)
        if drop is None:
            drop = best_drop(self.rules, box, faces)
        elif drop not in faces:
            raise IllegalActionError(f"dropped face {drop!r} is not among the {layer} dice")
        return dropped_points(self.rules, box, faces, drop)

    def preview(self) -> dict[str, int] | dict[str, tuple[int, int]]:
        """Open boxes of the current player and what the dice would score there.

        DubbelYatzy gives ``(inner, outer)`` points per box.
        """
        sheet = self.sheet
        if not self.rules.double:
            # box_points for every open box, with the dice's score-table row read once
            faces = self.layer("all")
            if joker_active(self.rules, faces, sheet):
                return {
                    b: plain_points(self.rules, self.game.table, b, faces, sheet)
                    for b in sheet.open_boxes
                }
            row = self.game.table.row(faces)
            index = self.rules.box_index
            return {b: row[index[b]] for b in sheet.open_boxes}
        return {
            b: (self.box_points(b, "inner"), self.box_points(b, "outer")) for b in sheet.open_boxes
        }

    # -- order rules ----------------------------------------------------------------------

    def allowed_groups(self, sheet: Sheet | None = None) -> list[tuple[str, ...]] | None:
        """The sets of boxes the order rules allow for this turn's results (see
        :func:`yatzy.game.order.allowed_groups`); ``sheet`` defaults to the player's."""
        return allowed_groups(self.rules, sheet or self.sheet)

    def _order_boxes(self, sheet: Sheet) -> list[str]:
        """Boxes the order and joker rules allow now (before ``last_resort``)."""
        groups = self.allowed_groups(sheet)
        if groups is None:
            boxes = sheet.open_boxes
        else:
            boxes = [b for b in self.rules.boxes if any(b in g for g in groups)]
        if not self.rules.double and self.dice is not None and not self.pending:
            faces = self.layer("all")
            if self.rules.joker == "forced" and joker_active(self.rules, faces, sheet):
                boxes = joker_restrict(boxes, faces, sheet, self.rules) or boxes
        return boxes

    def _last_resort(self, boxes: list[str], sheet: Sheet) -> LastResort | None:
        """``last_resort`` for the dice on the table among ``boxes`` (``None``: no cut).

        It needs the dice, so a score pad entry written as points alone is not cut.
        """
        if not self.rules.last_resort or self.dice is None or self.pending:
            return None
        faces = self.layer("all")
        return last_resort_cut(
            boxes, {b: plain_points(self.rules, self.game.table, b, faces, sheet) for b in boxes}
        )

    def allowed_boxes(self) -> list[str]:
        """Boxes the current player may fill now (order, joker and last_resort rules applied)."""
        sheet = self.sheet
        boxes = self._order_boxes(sheet)
        cut = self._last_resort(boxes, sheet)
        return boxes if cut is None else list(cut.boxes)

    def zero_allowed(self) -> bool:
        """Whether 0 may be written now (a scratch, or dice that score 0 in the box).

        Always, except under ``last_resort`` while the dice score somewhere.
        """
        if self.phase is not Phase.TURN or self.pending:
            return False
        if not self.rules.last_resort or self.dice is None:
            return True  # the common case, cheaply: legal_actions asks on every action
        sheet = self.sheet
        cut = self._last_resort(self._order_boxes(sheet), sheet)
        return cut is None or cut.zero_ok

    # -- legal actions --------------------------------------------------------------------

    def legal_actions(self) -> list[Action]:
        """Every action the player to act may take (empty at chance and terminal nodes)."""
        if self.phase is not Phase.TURN or self.pending:
            return []
        return legal_actions_of(self)

    # -- applying actions -------------------------------------------------------------------

    def apply(self, action: Action, player: int | None = None) -> None:
        """Apply a player's action (checked; on error nothing changes).

        ``player``, when given, must be the seat whose turn it is.
        """
        if isinstance(action, Undo):
            self._apply_undo(player)
            return
        if self.phase is Phase.OVER:
            raise GameOverError(f"the game is over; {action} is not possible")
        if self.is_chance_node():
            raise NotYourTurnError(f"the dice are rolling; {action} must wait")
        if player is not None and player != self.player:
            raise NotYourTurnError(
                f"it is {self.players[self.player].name}'s turn, not seat {player!r}'s"
            )
        before = self._before_write
        if isinstance(action, (Fill2, Score, Scratch, Write)):
            before = self.clone()
            before._before_write = None
        elif isinstance(action, (Roll, SetDice)):
            before = None  # a roll (or a pad's dice) ends the chance to undo
        if isinstance(action, Roll):
            self._apply_roll(action)
        elif isinstance(action, SetDice):
            self._apply_set_dice(action)
        elif isinstance(action, Fill2):
            self._apply_fill2(action)
        elif isinstance(action, (Score, Scratch, Write)):
            self._apply_fill1(action)
        else:
            raise IllegalActionError(f"unknown action {action!r}")
        # Only reached when the action was applied.  The game's last write is kept
        # undoable too: an adapter holds the game's end until the writer goes on.
        self._before_write = before

    # -- undo -----------------------------------------------------------------------------

    def undo_seat(self) -> int | None:
        """The seat that may take back its last write now (:class:`Undo`), or None.

        A write can be undone until the next roll by anyone (in a score pad game:
        the next dice or write).  The game's last write can be undone too: the game
        is then on again, so an adapter that ends a game for good (records it, shows
        its results) holds that end until the writer goes on
        (:meth:`write_ends_game` tells beforehand).
        """
        before = self._before_write
        return None if before is None else before.player

    def write_ends_game(self) -> bool:
        """Whether the next write of the player to act ends the game: the last box of
        their sheet (DubbelYatzy: the last two), everyone else's sheet full."""
        if self.phase is not Phase.TURN:
            return False
        per_turn = 2 if self.rules.double else 1
        return len(self.sheets[self.player].open_boxes) == per_turn and all(
            sheet.is_full for seat, sheet in enumerate(self.sheets) if seat != self.player
        )

    def undo_boxes(self) -> tuple[str, ...]:
        """The box (DubbelYatzy: the two boxes) an :class:`Undo` would take back."""
        if self._before_write is None:
            return ()
        turn = self.log[-1]
        if "inner" in turn:
            return (turn["inner"]["box"], turn["outer"]["box"])
        return (turn["box"],)

    def _apply_undo(self, player: int | None) -> None:
        before = self._before_write
        if before is None:
            if self.phase is Phase.OVER:
                raise GameOverError("the game is over; nothing was written in it to undo")
            raise IllegalActionError("nothing to undo: a write is undone only until the next roll")
        seat = before.player
        if player is not None and player != seat:
            raise NotYourTurnError(
                f"only {self.players[seat].name} (seat {seat}) may undo the last write, "
                f"not seat {player!r}"
            )
        turn = self.log[-1]
        taken = {k: v for k, v in turn.items() if k not in ("player", "rolls", "dice", "undone")}
        # Where the write stood, so that a replay takes it back at the same moment: after
        # how many rolls (the player may roll on after the undo), or a pad's dice.
        if self.game.pad:
            if before.dice is not None:
                taken["dice"] = dice_json(before.dice)
        else:
            taken["after_rolls"] = before.rolls_used
        restored = before.clone()
        log = restored.log
        last = log[-1] if log else None
        if last is None or fills_box(last) or last["player"] != seat:
            last = {"player": seat}
            log.append(last)
        last["undone"] = [*last.get("undone", []), deep_json(taken)]
        self.__dict__.update(restored.__dict__)
        self._before_write = None

    def _start_turn_log(self) -> dict[str, Any]:
        last = self.log[-1] if self.log else None
        if last is None or last["player"] != self.player or fills_box(last):
            last = {"player": self.player}
            self.log.append(last)
        return last

    def _apply_set_dice(self, action: SetDice) -> None:
        if not self.game.pad:
            raise IllegalActionError("dice are rolled by chance here; only a score pad sets them")
        raw = action.dice
        if not isinstance(raw, (tuple, list)):
            raise DiceError(f"dice must be a list, not {raw!r}")
        n = self.rules.num_dice
        if len(raw) != n:
            raise DiceError(f"{self.rules.variant} needs {n} dice, got {len(raw)}")
        dice = [self._check_die(d) for d in raw]
        turn = self._start_turn_log()
        self.dice = dice
        self.rolls_used = 1
        turn["dice"] = dice_json(dice)

    def _apply_roll(self, action: Roll) -> None:
        if self.game.pad:
            raise IllegalActionError("a score pad game has no rolls: enter the dice or the points")
        if self.rolls_left() <= 0:
            raise NoRollsLeftError(f"no rolls left this turn ({self.rolls_used} used)")
        keep = action.keep
        n = self.rules.num_dice
        if not isinstance(keep, tuple) or not all(
            isinstance(k, int) and not isinstance(k, bool) for k in keep
        ):
            raise KeepError(f"keep must list dice positions, not {keep!r}")
        if self.dice is None and keep:
            raise KeepError(f"no dice are on the table to keep {list(keep)}")
        if len(set(keep)) != len(keep):
            raise KeepError(f"keep {list(keep)} names a die twice")
        for k in keep:
            if not 0 <= k < n:
                raise KeepError(f"there is no die at position {k} (positions are 0-{n - 1})")
        if len(keep) == n:
            raise KeepError("keeping every die leaves nothing to roll; score instead")
        if self.dice is None:
            self.dice = [(0, 0) if self.rules.double else 0] * n
            self.log.append({"player": self.player, "rolls": []})
        self.rolls_used += 1
        self.pending = [i for i in range(n) if i not in keep]
        self.log[-1]["rolls"].append({"keep": sorted(keep)})

    def _check_fill(self, entry: Entry, sheet: Sheet) -> str:
        box = entry.box
        if not isinstance(box, str):
            raise IllegalActionError(f"a box is named by its id, not {box!r}")
        self.rules.check_box(box)
        if isinstance(entry, Write):
            if not self.game.pad:
                raise IllegalActionError(
                    f"points are written by hand only in a score pad game, not {entry}"
                )
            points = entry.points
            if isinstance(points, bool) or not isinstance(points, int):
                raise ImpossibleScoreError(f"points {points!r} are not a whole number")
            if points not in self.rules.possible_scores(box):
                raise ImpossibleScoreError(
                    f"{points} is not a possible {self.rules.box_name(box, 'en')}"
                )
        elif self.rolls_used == 0 and not (self.game.pad and isinstance(entry, Scratch)):
            raise IllegalActionError(
                f"enter the dice before scoring {box}"
                if self.game.pad
                else f"roll the dice before scoring {box}"
            )
        if not sheet.is_open(box):
            raise BoxFilledError(f"box {box} is already filled")
        if isinstance(entry, Scratch) and not self.rules.scratchable(box):
            raise IllegalActionError(f"box {box} may not be scratched ({self.rules.spec})")
        return box

    def _apply_fill1(self, action: Score | Scratch | Write) -> None:
        sheet = self.sheet
        if self.rules.double:
            raise IllegalActionError(
                f"{self.rules.variant} fills two boxes a turn: give an inner and an outer result"
            )
        box = self._check_fill(action, sheet)
        if isinstance(action, Score) and action.drop is not None:
            raise IllegalActionError(f"{self.rules.variant} drops no die; {action} is not possible")
        allowed = self._order_boxes(sheet)
        if box not in allowed:
            raise OrderError(f"box {box} may not be filled now; allowed: {', '.join(allowed)}")
        cut = self._last_resort(allowed, sheet)
        if cut is not None:
            check_last_resort(action, cut)
        record: dict[str, Any] = {"box": box}
        if isinstance(action, Write):
            points = action.points
            bonus = action.yatzy_bonus
            if bonus and not (self.rules.has_joker and sheet.points("yatzy") == 50):
                raise IllegalActionError("a Yatzy bonus needs the joker rules and 50 in Yatzy")
            record["written"] = True
        elif self.dice is None:  # a score pad's scratch without dice
            points, bonus = 0, False
        else:
            faces = self.layer("all")
            points = (
                0
                if isinstance(action, Scratch)
                else plain_points(self.rules, self.game.table, box, faces, sheet)
            )
            bonus = joker_active(self.rules, faces, sheet) and sheet.points("yatzy") == 50
        record["points"] = points
        if isinstance(action, Scratch):
            record["scratch"] = True
        if bonus:
            sheet.yatzy_bonuses += 1
            record["yatzy_bonus"] = 100
        sheet.entries[box] = BoxEntry(points, isinstance(action, Scratch))
        self._start_turn_log().update(record)
        self._end_turn(sheet, [box])

    def _apply_fill2(self, action: Fill2) -> None:
        sheet = self.sheet
        if not self.rules.double:
            raise IllegalActionError(f"{self.rules.variant} fills one box a turn")
        if not isinstance(action.inner, (Score, Scratch, Write)) or not isinstance(
            action.outer, (Score, Scratch, Write)
        ):
            raise IllegalActionError(f"inner and outer must be score or scratch: {action!r}")
        a = self._check_fill(action.inner, sheet)
        b = self._check_fill(action.outer, sheet)
        if a == b:
            raise IllegalActionError(f"the inner and outer results need two boxes, not {a} twice")
        groups = self.allowed_groups(sheet)
        if groups is not None and not any({a, b} == set(g) for g in groups):
            allowed = " or ".join("+".join(g) for g in groups)
            raise OrderError(f"boxes {a} and {b} may not be filled now; allowed: {allowed}")
        written: dict[str, tuple[str, BoxEntry, dict[str, Any]]] = {}
        for layer, entry in (("inner", action.inner), ("outer", action.outer)):
            if isinstance(entry, Scratch):
                written[layer] = (
                    entry.box,
                    BoxEntry(0, True),
                    {"box": entry.box, "points": 0, "scratch": True},
                )
                continue
            if isinstance(entry, Write):
                written[layer] = (
                    entry.box,
                    BoxEntry(entry.points),
                    {"box": entry.box, "points": entry.points, "written": True},
                )
                continue
            faces = self.layer(layer)
            drop = entry.drop
            if drop is None:
                drop = best_drop(self.rules, entry.box, faces)
            elif not is_face(drop) or drop not in faces:
                raise IllegalActionError(
                    f"dropped face {drop!r} is not among the {layer} dice {list(faces)}"
                )
            points = dropped_points(self.rules, entry.box, faces, drop)
            written[layer] = (
                entry.box,
                BoxEntry(points, False, drop),
                {"box": entry.box, "drop": drop, "points": points},
            )
        turn = self._start_turn_log()
        for layer, (box, value, record) in written.items():
            sheet.entries[box] = value
            turn[layer] = record
        self._end_turn(sheet, [a, b])

    def _end_turn(self, sheet: Sheet, boxes: list[str]) -> None:
        if self.rules.half_forced and sheet.first_section is None:
            sheet.first_section = CATEGORIES[boxes[0]].section
        if self.rules.saves_rolls and not self.game.pad:
            unused = self.max_rolls() - self.rolls_used
            limit = self.rules.max_carried
            sheet.saved_rolls = unused if limit is None else min(unused, limit)
        self.turn_number += 1
        self.dice = None
        self.rolls_used = 0
        self.pending = []
        if all(s.is_full for s in self.sheets):
            self.phase = Phase.OVER

    # -- results ------------------------------------------------------------------------------

    def totals(self) -> list[int]:
        """Every player's final score so far (Total, or Final in DubbelYatzy)."""
        return [s.final for s in self.sheets]

    def returns(self) -> list[int]:
        """OpenSpiel's name for :meth:`totals`."""
        return self.totals()

    def winners(self) -> list[int]:
        """The seats with the highest final score (several on a tie); empty until over."""
        if self.phase is not Phase.OVER:
            return []
        totals = self.totals()
        best = max(totals)
        return [i for i, t in enumerate(totals) if t == best]

    def __str__(self) -> str:
        if self.phase is Phase.ROLL_OFF:
            return f"roll-off for the start: {self.rolloff}"
        if self.phase is Phase.OVER:
            return f"game over: totals {self.totals()}"
        return (
            f"{self.players[self.player].name} to act, dice {self.dice}, "
            f"roll {self.rolls_used}/{self.max_rolls()}"
        )
