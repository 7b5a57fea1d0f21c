"""The post-game analysis as the page shows it: per person, in the game's language.

:func:`analysis_view` turns the strategy package's :class:`Analysis` into JSON a
player reads: each person's own turn numbers, the costliest choices with the
better one in words, the totals explained in a sentence, and the expected final
score before each of their turns (the chart's line) with the actual final score.
:func:`unrated` answers what a score pad game's data allows when it allows no
rating at all.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from yatzy.game import State
from yatzy.rules import Language
from yatzy.strategy import advice_words as words
from yatzy.strategy.advice_words import loss_words, number, word
from yatzy.web.models import AnalysisView, CostlyChoice, ExpectedPoint, PlayerAnalysis

if TYPE_CHECKING:
    from yatzy.strategy.analyze import Analysis, Decision, PlayerSummary

COSTLIEST = 5
"""How many of a player's costliest choices the analysis lists."""


def _base(state: State, lang: Language) -> AnalysisView:
    return {
        "pending": False,
        "lang": lang,
        "rules": state.rules.spec,
        "turns": state.rules.turns,
        "scope": "none",
        "explanation": None,
        "exact": True,
        "approximate": False,
        "note": None,
        "players": [],
    }


def unrated(state: State, lang: Language) -> AnalysisView | None:
    """The answer for a score pad game whose data allows no rating (else ``None``)."""
    if not state.game.pad:
        return None
    from yatzy.strategy.analyze import pad_has_dice

    if state.rules.saves_rolls:
        return _explained(state, lang, "pad_saved")
    if not any(pad_has_dice(t) for t in state.log):
        return _explained(state, lang, "pad_points")
    return None


def _explained(state: State, lang: Language, key: str) -> AnalysisView:
    view = _base(state, lang)
    view["explanation"] = word(key, lang)
    return view


def _costly(d: Decision, lang: Language, pad: bool) -> CostlyChoice:
    fields = {
        "turn": d.own_turn,
        "roll": d.roll,
        "dice": words.dice_words(d.dice),
        "chosen": d.chosen,
        "best": d.best,
        "loss": loss_words(d.loss, lang),
    }
    return {
        "turn": d.own_turn,
        "roll": d.roll,
        "dice": d.dice,
        "chosen": d.chosen,
        "better": d.best,
        "loss": round(d.loss, 1),
        "text": word("costly_pad" if pad else "costly", lang, **fields),
    }


def _player(
    p: PlayerSummary, decisions: list[Decision], state: State, lang: Language, pad: bool
) -> PlayerAnalysis:
    mine = sorted((d for d in decisions if d.player == p.player), key=lambda d: -d.loss)
    costly = [d for d in mine if d.loss >= 0.05][:COSTLIEST]
    trajectory: list[ExpectedPoint] = [
        {"turn": i, "expected": round(v, 1)} for i, v in enumerate(p.expected, 1)
    ]
    if not p.complete:
        summary = word("pad_incomplete", lang, name=p.name)
    else:
        summary = word(
            "box_summary" if pad else "decision_summary",
            lang,
            best=p.best_decisions,
            total=p.decisions,
            loss=number(p.total_loss, lang),
            mean=number(p.mean_loss, lang, 2),
        )
    chart = None
    if trajectory:
        chart = word(
            "chart",
            lang,
            name=p.name,
            first=number(p.expected[0], lang),
            last=number(p.expected[-1], lang),
            turns=len(p.expected),
            final=p.final,
        )
    return {
        "seat": p.player,
        "name": p.name,
        "bot": state.players[p.player].bot is not None,
        "complete": p.complete,
        "final": p.final,
        "turns": len(p.expected),
        "decisions": p.decisions,
        "best_decisions": p.best_decisions,
        "total_loss": round(p.total_loss, 1),
        "mean_loss": round(p.mean_loss, 2),
        "summary": summary,
        "costliest": [_costly(d, lang, pad) for d in costly],
        "trajectory": trajectory,
        "chart_label": chart,
    }


def analysis_view(
    analysis: Analysis, state: State, lang: Language, seats: set[int]
) -> AnalysisView:
    """The analysis of ``state``'s game for the people in ``seats``, in ``lang``."""
    pad = analysis.scope == "boxes"
    decisions = list(analysis.decisions)
    view = _base(state, lang)
    view["scope"] = analysis.scope
    view["explanation"] = word("pad_boxes", lang) if pad else None
    view["exact"] = analysis.exact
    view["approximate"] = not analysis.exact
    view["note"] = None if analysis.exact else words.approximate_note(state.rules, lang)
    view["players"] = [
        _player(p, decisions, state, lang, pad) for p in analysis.players if p.player in seats
    ]
    return view
