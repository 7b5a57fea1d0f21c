"""Hints and post-game analysis from the strategy package, when it is installed.

The strategy package (:mod:`yatzy.strategy`) ranks every option of a position by
expected final score (``advisor.advise``: the exact solver where it covers the
rules, an approximate strategy elsewhere) and rates every decision of a finished
game (``analyze.analyze``).  This module detects it at run time, warms each rule
set's strategy once in a background thread (solving a table takes seconds, then it
comes from the disk cache), and answers ``{"pending": true}`` until it is ready, so
no request waits for a solve.
"""

from __future__ import annotations

import importlib
import logging
import threading
from types import ModuleType
from typing import Any

from yatzy.errors import YatzyError
from yatzy.game import Game, State, action_to_json
from yatzy.rules import RuleSet

log = logging.getLogger("yatzy.web")

_ready: set[str] = set()
_failed: dict[str, str] = {}
_building: set[str] = set()
_lock = threading.Lock()


def _module(name: str, attribute: str) -> ModuleType | None:
    try:
        module = importlib.import_module(name)
    except ImportError:
        return None
    return module if callable(getattr(module, attribute, None)) else None


def _advisor() -> ModuleType | None:
    return _module("yatzy.strategy.advisor", "advise")


def advisor_available() -> bool:
    """Whether the strategy advisor can give hints in this installation."""
    return _advisor() is not None


def hints_unsupported(rules: RuleSet, pad: bool = False) -> str | None:
    """Why no hints can be given for ``rules`` (``None``: they can)."""
    if pad:
        return "a score pad game has no dice on the server to advise on"
    if _advisor() is None:
        return "hints need the strategy advisor (yatzy.strategy), which is not installed"
    return None


def _warm(rules: RuleSet) -> None:
    advisor = _advisor()
    try:
        assert advisor is not None
        state = Game(rules, ["warm-up"]).new_initial_state()
        advisor.advise(state)  # loads or solves the whole game's strategy once
    except Exception as exc:  # no hints for these rules; say why once
        log.warning("no hints for %s: %s", rules.spec, exc)
        with _lock:
            _failed[rules.spec] = str(exc)
            _building.discard(rules.spec)
        return
    with _lock:
        _ready.add(rules.spec)
        _building.discard(rules.spec)


def prepare(rules: RuleSet) -> None:
    """Start warming the strategy of ``rules`` unless that is done or under way."""
    spec = rules.spec
    with _lock:
        if spec in _ready or spec in _building or spec in _failed:
            return
        _building.add(spec)
    threading.Thread(target=_warm, args=(rules,), name=f"strategy-{spec}", daemon=True).start()


def _status(rules: RuleSet) -> dict[str, Any] | None:
    """``None`` when the strategy is ready, else the answer to give meanwhile."""
    with _lock:
        ready = rules.spec in _ready
        failed = _failed.get(rules.spec)
    if ready:
        return None
    if failed is not None:
        return {"unavailable": failed}
    prepare(rules)
    return {"pending": True}


def hint(state: State) -> dict[str, Any] | None:
    """The three best options for the player to act, as JSON (``None`` when there is
    no decision: chance, game over, or no advisor)."""
    advisor = _advisor()
    if advisor is None or state.is_terminal() or state.is_chance_node():
        return None
    waiting = _status(state.rules)
    if waiting is not None:
        return waiting
    try:
        advice = advisor.advise(state)
    except YatzyError as exc:
        return {"unavailable": str(exc)}
    return {
        "value": round(float(advice.value), 2),
        "exact": bool(advice.exact),
        "method": str(advice.method),
        "choices": [
            {"action": action_to_json(o.action), "text": o.text, "value": round(o.value, 2)}
            for o in advice.options[:3]
        ],
    }


def analysis(state: State) -> dict[str, Any]:
    """Every decision of the game against the best one (the strategy package's
    analysis, as JSON); ``{"pending": true}`` while its strategy is being prepared."""
    analyze = _module("yatzy.strategy.analyze", "analyze")
    reason = hints_unsupported(state.rules, state.game.pad)
    if analyze is None or reason is not None:
        raise YatzyError(f"no analysis: {reason or 'the strategy package is not installed'}")
    waiting = _status(state.rules)
    if waiting is not None:
        if "unavailable" in waiting:
            raise YatzyError(f"no analysis for {state.rules.spec}: {waiting['unavailable']}")
        return waiting
    result: dict[str, Any] = analyze.analyze(state).to_json()
    worst: dict[int, list[dict[str, Any]]] = {}
    for d in sorted(result["decisions"], key=lambda d: -d["loss"]):
        if d["loss"] > 0.005 and len(worst.setdefault(d["player"], [])) < 5:
            worst[d["player"]].append(d)
    for p in result["players"]:
        p["worst"] = worst.get(p["player"], [])
    return result
