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


Entry = Score | Scratch


@dataclass(frozen=True)
class Fill2:
    """DubbelYatzy: the inner faces' result and the outer faces' result."""

    inner: Entry
    outer: Entry

    def __str__(self) -> str:
        return f"inner: {self.inner}; outer: {self.outer}"


Action = Roll | Score | Scratch | Fill2


def action_to_json(action: Action) -> dict[str, Any]:
    """A JSON-ready form of ``action``."""
    if isinstance(action, Roll):
        return {"roll": list(action.keep)}
    if isinstance(action, Fill2):
        return {"inner": action_to_json(action.inner), "outer": action_to_json(action.outer)}
    if isinstance(action, Scratch):
        return {"scratch": action.box}
    out: dict[str, Any] = {"score": action.box}
    if action.drop is not None:
        out["drop"] = action.drop
    return out


def action_from_json(data: Any) -> Action:
    """Read an action written by :func:`action_to_json` (checked)."""
    if not isinstance(data, dict):
        raise IllegalActionError(f"an action is a JSON object, not {data!r}")
    try:
        if "roll" in data:
            keep = data["roll"]
            if not isinstance(keep, list) or not all(
                isinstance(k, int) and not isinstance(k, bool) for k in keep
            ):
                raise IllegalActionError(f"keep must be a list of positions, not {keep!r}")
            return Roll(tuple(keep))
        if "inner" in data and "outer" in data:
            inner, outer = action_from_json(data["inner"]), action_from_json(data["outer"])
            if not isinstance(inner, Score | Scratch) or not isinstance(outer, Score | Scratch):
                raise IllegalActionError(f"inner and outer must be score or scratch: {data!r}")
            return Fill2(inner, outer)
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
