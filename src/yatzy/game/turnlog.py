"""The turns of the game log: small helpers shared by the state and the records."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

Die = int | tuple[int, int]
"""A die's face, or a double die's ``(outer, inner)`` faces."""


def fills_box(turn: dict[str, Any]) -> bool:
    """Whether a turn of the game log has written its box (or its two boxes)."""
    return any(k in turn for k in ("box", "inner", "outer"))


def is_face(x: Any) -> bool:
    """Whether ``x`` is a die face 1-6 (an int, not a bool)."""
    return isinstance(x, int) and not isinstance(x, bool) and 1 <= x <= 6


def dice_json(dice: Sequence[Die]) -> list[Any]:
    """Dice as JSON lists (a double die as ``[outer, inner]``)."""
    return [list(d) if isinstance(d, tuple) else d for d in dice]


def copy_turn(turn: dict[str, Any]) -> dict[str, Any]:
    """A copy of a log turn that shares nothing mutable with it."""
    out = dict(turn)
    if "rolls" in out:
        out["rolls"] = [dict(r) for r in out["rolls"]]
    if "undone" in out:
        out["undone"] = list(out["undone"])
    return out


def deep_json(value: Any) -> Any:
    """A deep copy of JSON-like ``value`` (dicts and lists copied)."""
    if isinstance(value, dict):
        return {k: deep_json(v) for k, v in value.items()}
    if isinstance(value, list):
        return [deep_json(v) for v in value]
    return value
