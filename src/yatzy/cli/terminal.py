"""Rendering of a game for the terminal: protocol table, dice, roll-off, results.

Every function here is pure: it reads a :class:`~yatzy.game.State` and returns
lines of text.  Nothing is decided here; what a box would score, which boxes the
order and joker rules allow and every sum come from the state.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from typing import Any

from yatzy.cli.i18n import join_names, level_name, tr
from yatzy.game import Dealer, Die, Sheet, State
from yatzy.rules import CATEGORIES, Language, RuleSet, format_die

_MAX_NAME = 12  # widest player column; longer names are shortened in the table


def show_die(die: Die) -> str:
    """A die as text: ``4``, or a double die as ``inner/outer`` (``3/6``), the one
    notation of every front end (:func:`yatzy.rules.format_die`)."""
    return format_die(die)


def show_dice(dice: Sequence[Die]) -> str:
    """Dice as text, separated by spaces."""
    return " ".join(show_die(d) for d in dice)


def kept_positions(state: State) -> list[int]:
    """The 0-based positions kept in the last roll of this turn (none before a roll)."""
    if state.dice is None or not state.log:
        return []
    rolls = state.log[-1].get("rolls") or []
    return list(rolls[-1].get("keep", [])) if rolls else []


def ready(state: State) -> bool:
    """Whether the current player has dice on the table to score (rolled, not rolling)."""
    return state.dice is not None and not state.pending and not state.is_terminal()


def _short(name: str) -> str:
    return name if len(name) <= _MAX_NAME else name[: _MAX_NAME - 1] + "…"


def player_label(state: State, seat: int, lang: Language) -> str:
    """A seat's name, with the bot level (in ``lang``) for a computer player."""
    player = state.players[seat]
    if player.bot:
        level = level_name(player.bot, lang)
        if player.name.casefold() in (player.bot.casefold(), level.casefold()):
            return f"{player.name} ({tr('bot', lang)})"
        return f"{player.name} ({tr('bot', lang)} {level.casefold()})"
    return player.name


def headline(state: State, lang: Language) -> str:
    """Rule set, round and whose turn it is."""
    rules = state.rules
    title = f"{rules.info.title[lang]} ({rules.spec})"
    if state.is_terminal() or state.starter is None:
        return title
    n = state.turn_number // state.game.num_players + 1
    parts = [title, tr("round", lang, n=n, total=rules.turns)]
    if state.game.num_players > 1:
        parts.append(tr("turn_of", lang, name=player_label(state, state.player, lang)))
    return " · ".join(parts)


def _par(sheet: Sheet) -> str:
    if not any(not sheet.is_open(b) for b in sheet.rules.upper_boxes):
        return ""
    par = sheet.bonus_par
    return "±0" if par == 0 else f"{par:+d}"


def _bonus(sheet: Sheet) -> str:
    if sheet.bonus or not any(sheet.is_open(b) for b in sheet.rules.upper_boxes):
        return str(sheet.bonus)
    return ""


def _cell(sheet: Sheet, box: str) -> str:
    entry = sheet.entries[box]
    if entry is None:
        return ""
    if entry.scratched:
        return "x"
    return str(entry.points)


def _why_restricted(rules: RuleSet) -> list[str]:
    # Under forced order the next box always takes the dice, so last_resort adds nothing.
    if rules.forced:
        return ["why_forced"]
    why = ["why_half_forced"] if rules.half_forced else []
    if rules.last_resort:
        why.append("why_last_resort")
    return why or ["why_joker"]


def protocol_table(
    state: State, lang: Language, *, preview: bool = True, width: int | None = None
) -> list[str]:
    """Every player's protocol side by side, with what each open box would score now.

    Boxes are numbered in protocol order (the numbers the ``s`` command takes);
    scratched boxes show ``x``.  The "now" column gives the current player's
    points per open box (DubbelYatzy: inner and outer); a value in parentheses
    may not be written now because of the order, joker or last_resort rules.

    With ``width`` (a terminal's columns) a table that would be wider is compacted:
    players by their first three letters (``*`` marks whose turn it is), box names
    cut to 12 characters, one space between columns — 14 players fit 80 columns.
    """
    rules = state.rules
    seats = range(state.game.num_players)
    current = state.player if not state.is_terminal() and state.starter is not None else None
    names = [_short(state.players[i].name) for i in seats]
    heads = [f"[{n}]" if i == current else n for i, n in zip(seats, names, strict=True)]
    widths = [max(5, len(h)) for h in heads]
    now: dict[str, Any] = {}
    allowed: set[str] = set()
    if preview and ready(state):
        now = dict(state.preview())
        allowed = set(state.allowed_boxes())
    labels = {
        "bonus": f"{rules.label('bonus', lang)} ({rules.threshold}+)",
        "par": rules.label("par", lang),
    }
    rows_text = [rules.box_name(b, lang) for b in rules.boxes] + [
        rules.label("sum", lang),
        labels["bonus"],
        labels["par"],
        rules.label("total", lang),
        rules.label("yatzy_bonus", lang),
        rules.label("final", lang),
        tr("box", lang),
        tr("saved_rolls_row", lang),
    ]
    name_w = max(len(t) for t in rows_text)
    num_w = len(str(len(rules.boxes)))
    layer_w = [max(5, len(tr(k, lang))) for k in ("inner", "outer")]
    if rules.double:
        now_head = f"{tr('inner', lang):>{layer_w[0]}} {tr('outer', lang):>{layer_w[1]}}"
    else:
        now_head = tr("now", lang)
    now_w = max(5, len(now_head) + 1)

    gap = "  "
    full = num_w + 2 + name_w + 2 + sum(widths) + 2 * (len(widths) - 1)
    full += 3 + now_w if preview and ready(state) else 0
    cut = name_w
    if width is not None and full > width:
        heads = [
            (n[:3] + "*" if i == current else n[:3]) for i, n in zip(seats, names, strict=True)
        ]
        widths = [max(3, len(h)) for h in heads]
        gap = " "
        cut = name_w = min(name_w, 12)

    def line(num: str, text: str, cells: list[str], extra: str = "") -> str:
        body = gap.join(c.rjust(w) for c, w in zip(cells, widths, strict=True))
        if len(text) > cut:
            text = text[: cut - 1] + "…"
        out = f"{num.rjust(num_w)}{gap}{text.ljust(name_w)}{gap}{body}"
        if now:
            out += f"  │{extra.rjust(now_w)}"
        return out.rstrip()

    def now_cell(box: str) -> str:
        if box not in now:
            return ""
        value = now[box]
        ok = box in allowed
        if rules.double:
            cells = [str(v) if ok else f"({v})" for v in value]
            return f"{cells[0]:>{layer_w[0]}} {cells[1]:>{layer_w[1]}}"
        return str(value) if ok else f"({value})"

    out = [line("#", tr("box", lang), heads, now_head)]
    sheets = state.sheets

    def computed(text: str, values: list[str]) -> None:
        out.append(line("", text, values))

    for i, box in enumerate(rules.boxes, start=1):
        section = CATEGORIES[box].section
        if section == "lower" and rules.boxes[i - 2] == "sixes":
            computed(rules.label("sum", lang), [str(s.upper_sum) for s in sheets])
            computed(labels["bonus"], [_bonus(s) for s in sheets])
            computed(labels["par"], [_par(s) for s in sheets])
        if section == "extra":
            _totals(rules, sheets, lang, computed)
        out.append(
            line(str(i), rules.box_name(box, lang), [_cell(s, box) for s in sheets], now_cell(box))
        )
    if rules.double:
        computed(rules.label("final", lang), [str(s.final) for s in sheets])
    else:
        _totals(rules, sheets, lang, computed)
    if rules.saves_rolls:
        # Everyone's bank of saved rolls, so a player can see what an opponent may still use.
        computed(tr("saved_rolls_row", lang), [str(s.saved_rolls) for s in sheets])
    if now and any(b not in allowed for b in now):
        why = "; ".join(tr(w, lang) for w in _why_restricted(rules))
        out.append(tr("not_allowed_legend", lang, why=why))
    return out


def _totals(rules: RuleSet, sheets: list[Sheet], lang: Language, computed: Any) -> None:
    if rules.has_joker:
        computed(rules.label("yatzy_bonus", lang), [str(s.yatzy_bonus) for s in sheets])
    computed(rules.label("total", lang), [str(s.total) for s in sheets])


def dice_lines(state: State, lang: Language) -> list[str]:
    """The dice with their positions (``*`` marks the dice kept in the last roll)."""
    if not ready(state):
        return []
    assert state.dice is not None
    kept = set(kept_positions(state))
    n = len(state.dice)
    head = tr("dice", lang)
    if state.rules.double:
        rows = [
            (tr("inner", lang), [str(d[1]) for d in state.dice]),  # type: ignore[index]
            (tr("outer", lang), [str(d[0]) for d in state.dice]),  # type: ignore[index]
        ]
    else:
        rows = [("", [str(d) for d in state.dice])]
    width = max(len(head), *(len(r[0]) for r in rows)) + 2
    out = [head.ljust(width) + "".join(f"{i + 1:<4}" for i in range(n)).rstrip()]
    for name, faces in rows:
        cells = [f + ("*" if i in kept else "") for i, f in enumerate(faces)]
        out.append((name.ljust(width) + "".join(f"{c:<4}" for c in cells)).rstrip())
    if kept:
        out[-1] += f"    (* {tr('kept', lang)})"
    rolls = tr("rolls_left", lang, n=state.rolls_left(), max=state.max_rolls())
    saved = state.sheet.saved_rolls if state.rules.saves_rolls else 0
    if saved:
        rolls += tr("saved_rolls", lang, n=saved)
    out.append(rolls)
    return out


def rolloff_lines(state: State, lang: Language) -> list[str]:
    """Who rolled what for the start, the re-rolls on ties, and who starts."""
    if not state.rolloff:
        return []
    out = [tr("rolloff_title", lang)]
    for rnd in state.rolloff:
        if not rnd:
            continue
        shown = ", ".join(f"{state.players[p].name} {face}" for p, face in rnd)
        top = max(face for _, face in rnd)
        leaders = [p for p, face in rnd if face == top]
        tail = f" ({tr('rolloff_tie', lang, face=top)})" if len(leaders) > 1 else ""
        out.append(f"  {shown}{tail}")
    if state.starter is not None:
        out.append(tr("starts", lang, name=state.players[state.starter].name))
    return out


def opening_lines(
    state: State,
    lang: Language,
    resumed_from: str | None,
    rng: random.Random | Dealer,
    saved: Callable[[], None],
) -> list[str]:
    """What a game says as it opens (line mode and full screen alike): the file it
    was resumed from, and the roll-off, rolled here first where it waits for its
    dice (then ``saved`` keeps the record)."""
    out = []
    if resumed_from is not None:
        spec, turns = state.rules.spec, state.turn_number
        out.append(tr("resumed", lang, path=resumed_from, spec=spec, turns=turns))
    if state.rolloff:
        if state.is_chance_node() and state.starter is None:
            state.roll(rng)
            saved()
        out += rolloff_lines(state, lang)
    return out


def result_lines(state: State, lang: Language, record: int | None = None) -> list[str]:
    """The ranking and the winner(s) of a finished game; a solo game has no winner but
    its result against ``record`` (the player's best before this game, where known)."""
    totals = state.totals()
    names = [state.players[i].name for i in range(len(totals))]
    out = [tr("game_over", lang)]
    if len(totals) == 1:
        out.append(tr("solo_result", lang, name=names[0], points=totals[0]))
        if record is not None:
            if totals[0] > record:
                out.append(tr("solo_new_record", lang, record=record))
            elif totals[0] == record:
                out.append(tr("solo_record_equalled", lang, record=record))
            else:
                out.append(tr("solo_record_stands", lang, record=record, short=record - totals[0]))
        return out
    out.append(tr("standings", lang))
    order = sorted(range(len(totals)), key=lambda i: (-totals[i], i))
    labels = [player_label(state, i, lang) for i in range(len(totals))]
    width = max(len(t) for t in labels)
    place = 0
    for rank, i in enumerate(order, start=1):
        if rank == 1 or totals[i] != totals[order[rank - 2]]:
            place = rank  # equal totals share a place
        out.append(f"  {place:>2}. {labels[i]:<{width}}  {totals[i]:>4}")
    winners = state.winners()
    key = "winner" if len(winners) == 1 else "shared_win"
    best = totals[winners[0]]
    out.append(tr(key, lang, names=join_names([names[i] for i in winners], lang), points=best))
    return out
