"""A player's history and statistics: their games in words, and numbers per rule set.

The web app shows a browser's (``/history``, ``/stats``), ``yatzy stats`` this
computer's owner's; both read the games with :mod:`yatzy.store.stats`.

The history lists each game with its dates, its rules in words (the variant's
title and the house rules in the language, never a raw spec), players, totals
and winners.  The statistics count this browser's own seats in finished games
(people only: bots hold no browser's seat), per rules spec: games played,
average and best final score, how often the upper-section bonus and a Yatzy were
scored, and the solo record (the best one-seat game).
"""

from __future__ import annotations

from collections import defaultdict
from datetime import UTC, datetime
from typing import Any

import orjson

from yatzy.game import BoxEntry, Sheet
from yatzy.i18n import N_
from yatzy.rules import VARIANTS, Language, RuleSet
from yatzy.store import StoredGame
from yatzy.store.stats import OwnedGame

_BONUS_WORDS = N_("web.stats.bonus", "bonus {points} at {threshold}")


def rules_words(spec: str, lang: Language) -> dict[str, Any]:
    """A rules spec in words: the variant's title and its house rules in ``lang``."""
    from yatzy.protocols.texts import option_phrases

    rules = RuleSet.parse(spec)
    house = option_phrases(rules, lang)
    threshold, points = rules.threshold, rules.bonus
    if threshold != rules.default("bonus_threshold") or points != rules.default("bonus_points"):
        house.append(_BONUS_WORDS[lang].format(points=points, threshold=threshold))
    title = VARIANTS[rules.variant].title[lang]
    text = f"{title} ({', '.join(house)})" if house else title
    return {"title": title, "house_rules": house, "text": text}


def _utc(moment: datetime) -> str:
    # SQLite hands back naive datetimes; the store writes them in UTC.
    aware = moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    return aware.astimezone(UTC).isoformat().replace("+00:00", "Z")


def history_entries(
    games: list[StoredGame], owner_hash: str, lang: Language
) -> list[dict[str, Any]]:
    """The games of a browser, newest first: dates, rules in words, players,
    totals, winners and which seats were this browser's."""
    out = []
    for g in games:
        rec = orjson.loads(g.record)
        words = rules_words(g.rules, lang)
        out.append(
            {
                "id": g.id,
                "rules": g.rules,
                "title": words["title"],
                "house_rules": words["house_rules"],
                "rules_text": words["text"],
                "pad": g.pad,
                "finished": g.finished,
                "players": [s.name for s in g.seats],
                "bots": [s.seat for s in g.seats if s.bot is not None],
                "yours": [s.seat for s in g.seats if s.owner_hash == owner_hash],
                "totals": rec.get("totals", []),
                "winners": rec.get("winners", []),
                "started": _utc(g.created_at),
                "ended": _utc(g.updated_at) if g.finished else None,
                "updated_at": _utc(g.updated_at),
            }
        )
    return out


def _yatzy_box(rules: RuleSet) -> str:
    return "maxi_yatzy" if "maxi_yatzy" in rules.boxes else "yatzy"


def _sheets(rules: RuleSet, rec: dict[str, Any]) -> list[Sheet]:
    """The players' sheets from a record's turn log, without replaying the dice (a
    replay costs milliseconds a game; the boxes written are all the sums need)."""
    sheets = [Sheet(rules) for _ in rec["players"]]
    for turn in rec["turns"]:
        for entry in (turn, turn.get("inner"), turn.get("outer")):
            if entry and "box" in entry:
                sheet = sheets[turn["player"]]
                sheet.entries[entry["box"]] = BoxEntry(entry["points"], bool(entry.get("scratch")))
    return sheets


def stats(games: list[OwnedGame], lang: Language) -> dict[str, Any]:
    """Per rules spec, over this browser's seats in finished games: games played,
    average, best, bonus rate, Yatzy rate and the solo record (most played first)."""
    scores: dict[str, list[int]] = defaultdict(list)
    bonuses: dict[str, int] = defaultdict(int)
    yatzies: dict[str, int] = defaultdict(int)
    games_by_spec: dict[str, int] = defaultdict(int)
    solo: dict[str, int] = {}
    for g in games:
        rec = orjson.loads(g.record)
        rules = RuleSet.parse(g.rules)
        sheets = _sheets(rules, rec)
        box = _yatzy_box(rules)
        games_by_spec[g.rules] += 1
        for seat in g.seats:
            sheet = sheets[seat]
            scores[g.rules].append(rec["totals"][seat])
            bonuses[g.rules] += sheet.bonus > 0
            yatzies[g.rules] += (sheet.points(box) or 0) > 0
        if len(sheets) == 1:
            final = rec["totals"][0]
            solo[g.rules] = max(solo.get(g.rules, final), final)
    rows = []
    for spec in sorted(scores, key=lambda s: (-games_by_spec[s], s)):
        seat_scores = scores[spec]
        n = len(seat_scores)
        words = rules_words(spec, lang)
        rows.append(
            {
                "rules": spec,
                "title": words["title"],
                "house_rules": words["house_rules"],
                "rules_text": words["text"],
                "games": games_by_spec[spec],
                "scores": n,
                "average": round(sum(seat_scores) / n, 1),
                "best": max(seat_scores),
                "bonus_rate": round(bonuses[spec] / n, 3),
                "yatzy_rate": round(yatzies[spec] / n, 3),
                "solo_record": solo.get(spec),
            }
        )
    return {"lang": lang, "variants": rows, "games": sum(games_by_spec.values())}
