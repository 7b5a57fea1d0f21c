"""The analysis in win chance as the page shows it, in the game's language.

:func:`win_view` turns a :class:`~yatzy.strategy.win_analysis.WinAnalysis` into
the JSON the page draws: the chart (every seat's chance before each turn of the
game and at its end, in percent, with a one-sentence summary for screen readers),
and per person each decision's change in chance beside the points it cost (the
costliest in words, every one in a table).  Chances are percentages rounded to a
tenth; "percentage points" are their differences.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

from yatzy.game import State
from yatzy.i18n import N_, Message, messages
from yatzy.rules import Language
from yatzy.strategy.advice_words import dice_words, number
from yatzy.web.models import (
    ChanceLine,
    WinAnalysisView,
    WinDecisionView,
    WinPlayerView,
    WinUnavailableView,
)

if TYPE_CHECKING:
    from yatzy.strategy.win_analysis import WinAnalysis, WinDecision

COSTLIEST = 5
"""How many of a person's costliest decisions (in chance) are listed in words."""

_WORDS: dict[str, Message] = messages(
    "winview.",
    N_("winview.title_win", "Chance of winning turn by turn"),
    N_("winview.title_record", "Chance of beating the record ({record}) turn by turn"),
    N_("winview.line", "{name}: {first} before the first turn, {last} at the end"),
    N_(
        "winview.summary",
        "{name}'s choices gave up {cost} percentage points of the chance in {count} of {total} "
        "decisions.",
    ),
    N_("winview.summary_none", "{name} kept the best chance in every decision."),
    N_(
        "winview.costly",
        "Turn {turn}, roll {roll} ({dice}): {chosen}. Better for the chance: {best} (−{cost} "
        "percentage points).",
    ),
    N_(
        "winview.simulated",
        "Partly simulated: where no table covers a position, each chance may be off by up to "
        "{margin} percentage points.",
    ),
    N_(
        "winview.estimated",
        "An estimate from the points each choice cost: the exact chances are still being "
        "computed and take its place when they are done.",
    ),
    N_(
        "winview.no_record",
        "No record to beat yet: the chance of beating a record needs an earlier finished solo "
        "game of these rules.",
    ),
    N_("winview.off", "This server does not compute chances of winning."),
    N_("winview.pad", "A score pad game has no rolls whose chances could be rated."),
    N_(
        "winview.counted_level",
        "{name} is counted as playing like the computer level “{level}”, as measured from "
        "this game.",
    ),
    N_(
        "winview.counted_level_earlier",
        "{name} is counted as playing like the computer level “{level}”, as measured from "
        "this game and their earlier games of these rules ({games}).",
    ),
    N_(
        "winview.counted_assumed",
        "{name} is counted as playing like the computer level “{level}”: too few of their "
        "turns were seen to measure their play.",
    ),
    N_(
        "winview.counted_best_measured",
        "{name} is counted as playing the best strategy: their play measured that close to it.",
    ),
    N_(
        "winview.counted_best",
        "{name} is counted as playing the best strategy (their play was not measured).",
    ),
    N_("winview.counted_bots", "The computer is counted at its own level."),
)


def win_word(key: str, lang: Language, **fields: Any) -> str:
    """A phrase of this module's catalog in ``lang`` with ``fields`` filled in."""
    return _WORDS[key][lang].format(**fields)


def counted_words(
    state: State, levels: list[str], measured: Mapping[int, Mapping[str, Any]], lang: Language
) -> str:
    """Which level each person was counted at, and what it was measured from, in
    words ("Ann is counted as playing like the computer level “Casual”, as measured
    from this game and their earlier games of these rules (4).")."""
    from yatzy.web.i18n import ui_strings

    level_names = ui_strings(lang)
    said = []
    for seat, player in enumerate(state.players):
        if player.bot is not None:
            continue
        found = measured.get(seat)
        level = levels[seat]
        if level in ("strong", "casual", "beginner"):
            earlier = int(found.get("earlier", 0)) if found else 0
            key = "counted_level_earlier" if earlier else "counted_level"
            if found and found.get("assumed"):
                key = "counted_assumed"
            name = level_names["level_" + level]
            said.append(win_word(key, lang, name=player.name, level=name, games=earlier))
        else:
            key = "counted_best_measured" if found else "counted_best"
            said.append(win_word(key, lang, name=player.name))
    if any(p.bot is not None for p in state.players):
        said.append(win_word("counted_bots", lang))
    return " ".join(said)


def _pct(x: float, lang: Language) -> str:
    return f"{number(100 * x, lang)}\u00a0%"


def _decision(w: WinDecision, lang: Language) -> WinDecisionView:
    d = w.decision
    return {
        "turn": d.own_turn,
        "roll": d.roll,
        "kind": d.kind,
        "dice": dice_words(d.dice),
        "chosen": d.chosen,
        "better": w.best if round(100 * w.cost, 1) > 0 else None,
        "better_points": d.best if d.loss >= 0.005 else None,
        "points": round(d.loss, 1),
        "before": round(100 * w.before, 1),
        "after": round(100 * w.after, 1),
        "cost": round(100 * w.cost, 1),
        "margin": round(100 * w.margin, 1),
    }


def win_view(
    result: WinAnalysis,
    state: State,
    lang: Language,
    seats: set[int],
    measured: Mapping[int, Mapping[str, Any]] | None = None,
) -> WinAnalysisView:
    """The analysis in chance of ``state``'s game for the people in ``seats``;
    ``measured``: what each person's level was measured from (seat to
    :meth:`yatzy.analysis.measured.Measured.to_json`), said in words."""
    from yatzy.strategy.win_analysis import COSTLY

    names = [p.name for p in state.players]
    title = (
        win_word("title_record", lang, record=result.record)
        if result.goal == "record"
        else win_word("title_win", lang)
    )
    lines: list[ChanceLine] = []
    summary = []
    for seat, name in enumerate(names):
        chances = [round(100 * p.chances[seat], 1) for p in result.points]
        lines.append({"seat": seat, "name": name, "chances": chances})
        if result.points:
            first = _pct(result.points[0].chances[seat], lang)
            last = _pct(result.points[-1].chances[seat], lang)
            summary.append(win_word("line", lang, name=name, first=first, last=last))
    players: list[WinPlayerView] = []
    for s in result.players:
        if s.player not in seats:
            continue
        mine = [w for w in result.decisions if w.player == s.player]
        costly = sorted((w for w in mine if w.cost > COSTLY), key=lambda w: -w.cost)
        if s.costly:
            text = win_word(
                "summary",
                lang,
                name=s.name,
                cost=number(100 * s.total_cost, lang),
                count=s.costly,
                total=s.decisions,
            )
        else:
            text = win_word("summary_none", lang, name=s.name)
        players.append(
            {
                "seat": s.player,
                "name": s.name,
                "summary": text,
                "costliest": [
                    win_word(
                        "costly",
                        lang,
                        turn=w.decision.own_turn,
                        roll=w.decision.roll,
                        dice=dice_words(w.decision.dice),
                        chosen=w.decision.chosen,
                        best=w.best,
                        cost=number(100 * w.cost, lang),
                    )
                    for w in costly[:COSTLIEST]
                ],
                "decisions": [_decision(w, lang) for w in mine],
            }
        )
    if result.estimated:
        note: str | None = win_word("estimated", lang)
    elif result.exact:
        note = None
    else:
        note = win_word("simulated", lang, margin=number(100 * result.margin, lang))
    return {
        "pending": False,
        "lang": lang,
        "goal": result.goal,
        "record": result.record,
        "exact": result.exact,
        "estimated": result.estimated,
        "margin": round(100 * result.margin, 1),
        "note": note,
        "people_note": counted_words(
            state, [s.level for s in result.players], measured or {}, lang
        ),
        "title": title,
        "label": f"{title}: {'; '.join(summary)}.",
        "turns": [p.turn for p in result.points],
        "rounds": [round(p.turn / len(state.players), 2) for p in result.points],
        "lines": lines,
        "players": players,
        "seconds": round(result.wall, 1),
    }


def win_unavailable(key: str, lang: Language, goal: str = "win") -> WinUnavailableView:
    """The answer when there is no analysis in chance to give: ``key`` says why
    (``"no_record"``, ``"off"``, ``"pad"``); ``goal`` names the page's heading."""
    return {"pending": False, "unavailable": True, "goal": goal, "explanation": win_word(key, lang)}
