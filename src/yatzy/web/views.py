"""The JSON view of a game that pages and WebSocket clients render.

Everything a front end shows comes from the core: whose turn, the dice, rolls
left, what each open box would score (``preview``), which boxes the order rules
allow, and every sheet's sums, bonus, bonus par and totals.  The browser adds no
rule of its own.
"""

from __future__ import annotations

import functools
from typing import Any, Literal

from yatzy.bots import QUICK_BOTS
from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.rules import CATEGORIES, VARIANTS, Language, RuleSet
from yatzy.store import StoredGame
from yatzy.web.catalog import box_help, computer_names
from yatzy.web.i18n import ui_strings
from yatzy.web.models import (
    BoxView,
    EntryView,
    GameView,
    PlayerView,
    SheetView,
    TurnView,
    UndoView,
)
from yatzy.web.prepare import bot_plan, plan_words

ROW_KEYS = ("sum", "bonus", "yatzy_bonus", "total", "final", "par")


def _dice(dice: Any) -> Any:
    if dice is None:
        return None
    return [list(d) if isinstance(d, tuple) else d for d in dice]


@functools.lru_cache(maxsize=256)
def _boxes(rules: RuleSet, lang: Language) -> list[BoxView]:
    # The same for every view of a rule set: built once (views are only serialised,
    # never changed, so they may share it).
    return [
        {
            "id": b,
            "name": rules.box_name(b, lang),
            "section": CATEGORIES[b].section,
            "scratchable": rules.scratchable(b),
            "help": box_help(rules, b, lang),
        }
        for b in rules.boxes
    ]


@functools.lru_cache(maxsize=32)
def _labels(rules: RuleSet, lang: Language) -> dict[str, str]:
    return {k: rules.label(k, lang) for k in ROW_KEYS}


def _kept(state: State) -> list[int]:
    """The dice positions the player kept at the latest roll of this turn (the others
    were just rolled): every viewer sees which dice are new."""
    if state.dice is None or not state.log or "rolls" not in state.log[-1]:
        return []
    rolls = state.log[-1]["rolls"]
    return list(rolls[-1].get("keep", [])) if rolls else []


def sheets_view(state: State) -> tuple[list[SheetView], list[int]]:
    """Every player's sheet as the page draws it, and their final scores."""
    sheets: list[SheetView] = []
    totals = []
    for sheet in state.sheets:
        entries: dict[str, EntryView | None] = {}
        for box, entry in sheet.entries.items():
            entries[box] = (
                None
                if entry is None
                else {"points": entry.points, "scratched": entry.scratched, "drop": entry.drop}
            )
        rows = sheet.rows()
        totals.append(rows.final)
        sheets.append(
            {
                "entries": entries,
                "upper_sum": rows.upper_sum,
                "bonus": rows.bonus,
                "bonus_par": rows.bonus_par,
                "yatzy_bonus": rows.yatzy_bonus,
                "total": rows.total,
                "final": rows.final,
                "saved_rolls": sheet.saved_rolls,
            }
        )
    return sheets, totals


def game_view(stored: StoredGame, state: State, *, words: bool = False) -> GameView:
    """The public view of ``state`` (no secrets: spectators receive the same).

    ``words`` adds the page's words in the game's language (``ui``); live updates
    leave them out, as they never change during a game.
    """
    rules = state.rules
    lang: Language = stored.lang  # type: ignore[assignment]
    players: list[PlayerView] = [
        {
            "seat": s.seat,
            "name": s.name,
            "bot": s.bot,
            "claimed": s.claimed or s.bot is not None,
        }
        for s in stored.seats
    ]
    for player in players:
        given = computer_names(player["bot"]) if player["bot"] else {}
        if player["name"] in given.values():
            player["names"] = given
    sheets, totals = sheets_view(state)
    view: GameView = {
        "id": stored.id,
        "version": stored.version,
        "rules": rules.spec,
        "title": VARIANTS[rules.variant].title[lang],
        "variant": rules.variant,
        "double": rules.double,
        "num_dice": rules.num_dice,
        "saved_rolls_rule": rules.saves_rolls,
        "saved_rolls_mode": rules.saved_rolls,
        "last_resort": rules.last_resort,
        "has_extra": "extra" in rules.boxes,
        # Who may take back the last write now (until the next roll), and which box.
        "undo": _undo(state),
        "lang": lang,
        "pad": stored.pad,
        "hints": stored.hints,
        "phase": state.phase.value,
        "finished": state.is_terminal(),
        "players": players,
        "rolloff": [[{"seat": p, "die": d} for p, d in rnd] for rnd in state.rolloff],
        "starter": state.starter,
        "boxes": _boxes(rules, lang),
        "labels": _labels(rules, lang),
        "sheets": sheets,
        "totals": totals,
        "winners": state.winners(),
        "turn": None,
    }
    if not state.is_terminal() and state.starter is not None and not state.is_chance_node():
        seat = state.player
        turn: TurnView = {
            "seat": seat,
            "number": state.turn_number + 1,
            "dice": _dice(state.dice),
            "rolls_used": state.rolls_used,
            "rolls_left": 0 if stored.pad else state.rolls_left(),
            "max_rolls": state.max_rolls(),
            "allowed": state.allowed_boxes(),
            # False under last_resort while the dice score somewhere: no scratch, no 0.
            "zero_allowed": state.zero_allowed(),
            "preview": None,
            "kept": _kept(state),
            "joker": False,
            "order_rule": _order_rule(state),
            # The page holds this write, shown with Undo, until the player ends the game.
            "ends_game": state.write_ends_game(),
        }
        if state.dice is not None:
            try:
                preview = state.preview()
            except YatzyError:
                preview = {}
            turn["preview"] = {
                b: (list(p) if isinstance(p, tuple) else p) for b, p in preview.items()
            }
            turn["joker"] = state.joker_on_table()
        if stored.hints:
            from yatzy.web.hints import hint

            turn["hint"] = hint(state, lang)
        level = stored.seats[seat].bot
        if level is not None and level not in QUICK_BOTS:
            # The bot's strategy tables are being built (once; minutes for some), or
            # this server builds none for these rules: it plays the greedy strategy
            # meanwhile, and the page says so in words.
            plan = bot_plan(level, rules)
            turn["preparing"] = plan == "preparing"
            note = plan_words(plan, lang)
            if note is not None:
                turn["bot_note"] = note
        view["turn"] = turn
    if words:
        view["ui"] = ui_strings(lang)
    return view


def _undo(state: State) -> UndoView | None:
    # A finished game is final here: the page holds the game's last write before
    # sending it (``POST .../preview``), so nothing recorded is ever taken back.
    seat = None if state.is_terminal() else state.undo_seat()
    if seat is None:
        return None
    boxes = state.undo_boxes()
    return {"seat": seat, "box": boxes[0], "boxes": list(boxes)}


def bot_to_act(view: GameView) -> bool:
    """Whether a bot seat, or a computer for an absent player, is to act in a game's
    ``view`` (then the bots are started)."""
    turn = view["turn"]
    if turn is None:
        return False
    clock = view.get("clock")
    away = clock["computer"] if clock else []
    return view["players"][turn["seat"]]["bot"] is not None or turn["seat"] in away


def _order_rule(state: State) -> Literal["forced", "half_forced", "joker"] | None:
    """The order rule that limits the boxes of the turn (named when the page explains a
    refused box): the forced joker while five of a kind is on the table, forced or
    half-forced order; ``None`` when the boxes are free (``last_resort`` is named by
    its own refusal)."""
    rules = state.rules
    if not rules.double and rules.joker == "forced" and state.joker_on_table():
        return "joker"
    if rules.forced:
        return "forced"
    if rules.half_forced:
        return "half_forced"
    return None
