"""The actions a player can take, as small immutable values.

``Roll`` throws the dice that are not kept; ``Score`` writes the dice's points in a
box, ``Scratch`` writes 0.  DubbelYatzy fills two boxes at once with ``Fill2``,
one result from the inner faces and one from the outer faces.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from yatzy.errors import IllegalActionError


@dataclass(frozen=True)
class Roll:
    """Roll every die except those at the positions in ``keep`` (0-based)."""

    keep: tuple[int, ...] = ()

    def __str__(self) -> str:
        return f"roll keeping {list(self.keep)}" if self.keep else "roll all"


@dataclass(frozen=True)
class Score:
    """Write the dice's points in ``box``.

    In DubbelYatzy ``drop`` is the face left out of this result (``None``: the best
    one for the box).
    """

    box: str
    drop: int | None = None

    def __str__(self) -> str:
        return f"score {self.box}" + ("" if self.drop is None else f" dropping {self.drop}")


@dataclass(frozen=True)
class Scratch:
    """Write 0 in ``box`` (stryka), whatever the dice."""

    box: str

    def __str__(self) -> str:
        return f"scratch {self.box}"


@dataclass(frozen=True)
class Write:
    """Score pad: write ``points`` in ``box`` without dice (checked against the rules).

    ``yatzy_bonus`` claims an extra Yatzy under the international joker rules.
    """

    box: str
    points: int
    yatzy_bonus: bool = False

    def __str__(self) -> str:
        claim = " with Yatzy bonus" if self.yatzy_bonus else ""
        return f"write {self.points} in {self.box}{claim}"


@dataclass(frozen=True)
class SetDice:
    """Score pad: the final dice of the turn, rolled by hand (faces, or pairs)."""

    dice: tuple[int | tuple[int, int], ...]

    def __str__(self) -> str:
        return f"dice {list(self.dice)}"


Entry = Score | Scratch | Write


@dataclass(frozen=True)
class Fill2:
    """DubbelYatzy: the inner faces' result and the outer faces' result."""

    inner: Entry
    outer: Entry

    def __str__(self) -> str:
        return f"inner: {self.inner}; outer: {self.outer}"


@dataclass(frozen=True)
class Undo:
    """Take back the last write (box, scratch, score pad entry or DubbelYatzy's pair)
    until the next roll: asked by the seat that wrote it (``State.undo_seat``), which
    gets its turn back with the same dice and rolls left.  Bots never undo."""

    def __str__(self) -> str:
        return "undo the last write"


Action = Roll | Score | Scratch | Write | SetDice | Fill2 | Undo


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready form of ``action``."""
    if isinstance(action, Roll):
        return {"roll": list(action.keep)}
    if isinstance(action, Fill2):
        return {"inner": action_to_json(action.inner), "outer": action_to_json(action.outer)}
    if isinstance(action, Scratch):
        return {"scratch": action.box}
    if isinstance(action, Write):
        written: dict[str, Any] = {"write": action.box, "points": action.points}
        if action.yatzy_bonus:
            written["yatzy_bonus"] = True
        return written
    if isinstance(action, Undo):
        return {"undo": True}
    if isinstance(action, SetDice):
        return {"dice": [list(d) if isinstance(d, tuple) else d for d in action.dice]}
    out: dict[str, Any] = {"score": action.box}
    if action.drop is not None:
        out["drop"] = action.drop
    return out


def action_from_json(data: Any) -> Action:
    """Read an action written by :func:`action_to_json` (checked)."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"an action is a JSON object, not {data!r}")
    try:
        if data.get("undo") is True and len(data) == 1:
            return Undo()
        if "roll" in data:
            keep = data["roll"]
            if not isinstance(keep, list) or not all(
                isinstance(k, int) and not isinstance(k, bool) for k in keep
            ):
                raise IllegalActionError(f"keep must be a list of positions, not {keep!r}")
            return Roll(tuple(keep))
        if "inner" in data and "outer" in data:
            inner, outer = action_from_json(data["inner"]), action_from_json(data["outer"])
            if not isinstance(inner, Score | Scratch | Write) or not isinstance(
                outer, Score | Scratch | Write
            ):
                raise IllegalActionError(f"inner and outer must be score or scratch: {data!r}")
            return Fill2(inner, outer)
        if "write" in data and isinstance(data["write"], str):
            points = data.get("points")
            if not isinstance(points, int) or isinstance(points, bool):
                raise IllegalActionError(f"points must be a whole number, not {points!r}")
            return Write(data["write"], points, data.get("yatzy_bonus") is True)
        if "dice" in data and isinstance(data["dice"], list):
            return SetDice(tuple(tuple(d) if isinstance(d, list) else d for d in data["dice"]))
        if "scratch" in data and isinstance(data["scratch"], str):
            return Scratch(data["scratch"])
        if "score" in data and isinstance(data["score"], str):
            drop = data.get("drop")
            if drop is not None and (not isinstance(drop, int) or isinstance(drop, bool)):
                raise IllegalActionError(f"drop must be a face, not {drop!r}")
            return Score(data["score"], drop)
    except TypeError:
        pass
    raise IllegalActionError(f"unknown action {data!r}")
