"""Game records: a game as JSON, and its exact replay.

A record holds the rules spec, the players, the roll-off, and every turn with its
rolls (the kept positions and the dice after each roll) and what was written.
Loading replays every step through :class:`State`, so a record that is truncated
or tampered with (a die of 7, a score that does not match its dice, a turn out of
order) raises :class:`RecordError` naming the turn and the field.  A record of an
unfinished game, even one saved between two rolls, loads to the same position.
"""

from __future__ import annotations

import functools
import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

from yatzy.errors import RecordError, YatzyError
from yatzy.game.actions import Entry, Fill2, Roll, Score, Scratch, SetDice, Undo, Write
from yatzy.game.state import Game, Phase, Player, State
from yatzy.game.turnlog import fills_box
from yatzy.rules import RuleSet

FORMAT = "yatzy-record"
VERSION = 1

T = TypeVar("T")


def to_record(
    state: State,
    *,
    copy: bool = True,
    lang: str | None = None,
    dice: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The JSON-ready record of ``state`` (finished or not).

    ``lang`` (optional) is the language the game was played in, kept so that a resumed
    game speaks it again (see :func:`record_language`); ``dice`` is the proof of
    verifiable dice (:meth:`yatzy.game.fair_dice.FairDice.proof`, checked by
    :func:`yatzy.game.fair_dice.verify_record`).  Replaying ignores both.
    ``copy=False`` is the fast path for a record that is serialised at once: it
    shares the state's turn log instead of copying it, so it must not be changed
    and is only valid until the state moves on.
    """
    rec: dict[str, Any] = {
        "format": FORMAT,
        "version": VERSION,
        "rules": state.rules.spec,
        **({"lang": lang} if lang else {}),
        **({"pad": True} if state.game.pad else {}),
        "players": [{"name": p.name, **({"bot": p.bot} if p.bot else {})} for p in state.players],
        "rolloff": [[{"player": p, "die": f} for p, f in rnd] for rnd in state.rolloff],
        "starter": state.starter,
        "turns": _turns(state, copy),
        "finished": state.is_terminal(),
        "totals": state.totals(),
    }
    if state.is_terminal():
        rec["winners"] = state.winners()
    if dice is not None:
        rec["dice"] = dice
    return rec


def _turns(state: State, copy: bool) -> list[dict[str, Any]]:
    turns = [_copy(t) for t in state.log] if copy else list(state.log)
    if state.pending and state.dice is not None and state.phase is Phase.TURN:
        # Saved while the dice roll: the dice already rolled are kept, the rest are null.
        dice: list[Any] = [list(d) if isinstance(d, tuple) else d for d in state.dice]
        for i in state.pending:
            dice[i] = None
        last = turns[-1]
        rolls = last["rolls"]
        turns[-1] = {**last, "rolls": [*rolls[:-1], {**rolls[-1], "dice": dice}]}
    return turns


def dumps(state: State, *, lang: str | None = None, dice: dict[str, Any] | None = None) -> str:
    """The record of ``state`` as a JSON string (``lang``, ``dice``: see :func:`to_record`)."""
    return json.dumps(to_record(state, lang=lang, dice=dice), ensure_ascii=False, indent=1)


def save(
    state: State,
    path: str | os.PathLike[str],
    *,
    lang: str | None = None,
    dice: dict[str, Any] | None = None,
) -> None:
    """Write the record of ``state`` to ``path`` atomically (never half a file)."""
    target = Path(path)
    text = dumps(state, lang=lang, dice=dice)
    fd, tmp = tempfile.mkstemp(prefix=".yatzy-", suffix=".json", dir=target.parent or ".")
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as f:
            f.write(text)
        os.replace(tmp, target)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def load(path: str | os.PathLike[str]) -> State:
    """Read and replay the record in ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except OSError as exc:
        raise RecordError(f"cannot read {os.fspath(path)!r}: {exc.strerror}") from None
    return loads(text)


def loads(text: str) -> State:
    """Replay a record given as JSON text."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise RecordError(f"not JSON (line {exc.lineno}, column {exc.colno}): {exc.msg}") from None
    return from_record(data)


def record_language(text: str) -> str | None:
    """The language a record says its game was played in, or ``None`` (not said, or
    not a record: :func:`loads` says what is wrong with it)."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError:
        return None
    lang = data.get("lang") if isinstance(data, dict) else None
    return lang if isinstance(lang, str) else None


def from_record(data: Any) -> State:
    """Replay a record (a dict as written by :func:`to_record`); checked throughout."""
    if not isinstance(data, dict):
        raise RecordError("a record is a JSON object")
    if data.get("format", FORMAT) != FORMAT:
        raise RecordError(f"format {data.get('format')!r} is not {FORMAT!r}", field="format")
    if data.get("version", VERSION) != VERSION:
        raise RecordError(f"version {data.get('version')!r} is not {VERSION}", field="version")
    rules = _guard(0, "rules", lambda: RuleSet.parse(_need(data, "rules", str, 0)))
    players_raw = _need(data, "players", list, 0)
    players: list[Player] = []
    for i, p in enumerate(players_raw):
        if isinstance(p, str):
            players.append(Player(p))
        elif isinstance(p, dict) and isinstance(p.get("name"), str):
            bot = p.get("bot")
            if bot is not None and not isinstance(bot, str):
                raise RecordError(f"bot {bot!r} is not a name", field=f"players[{i}].bot")
            players.append(Player(p["name"], bot))
        else:
            raise RecordError(f"player {p!r} has no name", field=f"players[{i}]")
    pad = data.get("pad", False)
    if not isinstance(pad, bool):
        raise RecordError(f"pad {pad!r} is not true or false", field="pad")
    game = _guard(0, "players", lambda: Game(rules, players, pad=pad))
    rolloff = data.get("rolloff") or []
    if not isinstance(rolloff, list):
        raise RecordError("the roll-off is a list of rounds", field="rolloff")
    starter = data.get("starter")
    state = _guard(0, "starter", lambda: game.new_initial_state(None if rolloff else starter))
    if game.num_players > 1 and not rolloff and starter is None:
        raise RecordError("neither a roll-off nor a starter is given", field="starter")
    _replay_rolloff(state, rolloff)
    if rolloff and starter is not None and state.starter is not None and starter != state.starter:
        raise RecordError(
            f"starter {starter!r} does not match the roll-off's {state.starter}", field="starter"
        )
    turns = _need(data, "turns", list, 0)
    for n, turn in enumerate(turns, start=1):
        _replay_turn(state, turn, n, last=n == len(turns))
    _check_results(state, data)
    return state


def _replay_rolloff(state: State, rounds: list[Any]) -> None:
    for r, rnd in enumerate(rounds):
        if not isinstance(rnd, list):
            raise RecordError("a roll-off round is a list", field=f"rolloff[{r}]")
        for i, entry in enumerate(rnd):
            where = f"rolloff[{r}][{i}]"
            if state.phase is not Phase.ROLL_OFF:
                raise RecordError("the roll-off is already decided", field=where)
            if not isinstance(entry, dict):
                raise RecordError("a roll-off die is {player, die}", field=where)
            expected = state.contenders()[len(state.rolloff[-1])]
            if entry.get("player") != expected:
                raise RecordError(
                    f"seat {entry.get('player')!r} rolls out of turn; seat {expected} was next",
                    field=f"{where}.player",
                )
            die: Any = entry.get("die")
            _guard(0, f"{where}.die", functools.partial(state.apply_chance, die))
    # A roll-off may stop in the middle of a round (a game saved then); turns after
    # an undecided roll-off are refused by _replay_turn.


def _replay_turn(state: State, turn: Any, n: int, last: bool) -> None:
    if not isinstance(turn, dict):
        raise RecordError("a turn is a JSON object", turn=n)
    if state.phase is Phase.ROLL_OFF:
        raise RecordError("the turns start before the roll-off is decided", turn=n)
    if state.is_terminal():
        raise RecordError("the game is already over", turn=n)
    player = turn.get("player")
    if player != state.player:
        raise RecordError(
            f"seat {player!r} acts out of turn; it is seat {state.player} "
            f"({state.players[state.player].name})",
            turn=n,
            field="player",
        )
    undone = turn.get("undone", [])
    if not isinstance(undone, list) or not all(isinstance(u, dict) for u in undone):
        raise RecordError("undone writes are a list of JSON objects", turn=n, field="undone")
    if state.game.pad:
        for u, taken in enumerate(undone):
            if "dice" in taken:
                _replay_pad_dice(state, taken, n, last)
            _replay_undone(state, taken, n, u)
        _replay_pad_dice(state, turn, n, last)
    else:
        at: dict[int, list[tuple[int, dict[str, Any]]]] = {}
        for u, taken in enumerate(undone):
            k = taken.get("after_rolls")
            if isinstance(k, bool) or not isinstance(k, int):
                raise RecordError(
                    f"undone write {u} says after which roll it was written, not {k!r}",
                    turn=n,
                    field=f"undone[{u}].after_rolls",
                )
            at.setdefault(k, []).append((u, taken))

        def after_roll(count: int) -> None:
            for u, taken in at.pop(count, []):
                _replay_undone(state, taken, n, u)

        _replay_rolls(state, turn, n, last, after_roll)
        if at:
            u = min(u for entries in at.values() for u, _ in entries)
            raise RecordError(
                "an undone write comes after a roll the turn does not have",
                turn=n,
                field=f"undone[{u}].after_rolls",
            )
        if state.pending:
            return
    if not fills_box(turn):
        if last:
            return  # saved before the box was chosen
        raise RecordError("the turn writes no box", turn=n, field="box")
    _replay_write(state, turn, n)


def _replay_undone(state: State, taken: dict[str, Any], n: int, u: int) -> None:
    """A write that was taken back: written, then undone by the same seat."""
    seat = state.player
    _replay_write(state, taken, n)
    _guard(n, f"undone[{u}]", lambda: state.apply(Undo(), player=seat))


def _replay_write(state: State, turn: dict[str, Any], n: int) -> None:
    """Apply and check the write of ``turn`` (its box, or DubbelYatzy's two results)."""
    if state.rules.double:
        inner = _entry(turn, "inner", n)
        outer = _entry(turn, "outer", n)
        _guard(n, "inner", lambda: state.apply(Fill2(inner, outer)))
        for layer in ("inner", "outer"):
            _check_points(state, turn[layer], state.log[-1][layer], n, layer)
    else:
        box = turn.get("box")
        if not isinstance(box, str):
            raise RecordError(f"box {box!r} is not a box id", turn=n, field="box")
        action = _entry(turn, "", n)
        _guard(n, "box", lambda: state.apply(action))
        _check_points(state, turn, state.log[-1], n, "")
        if turn.get("yatzy_bonus") != state.log[-1].get("yatzy_bonus"):
            raise RecordError(
                f"yatzy bonus {turn.get('yatzy_bonus')!r} does not match the rules "
                f"({state.log[-1].get('yatzy_bonus')!r})",
                turn=n,
                field="yatzy_bonus",
            )


def _replay_pad_dice(state: State, turn: dict[str, Any], n: int, last: bool) -> None:
    if "rolls" in turn:
        raise RecordError("a score pad game has no rolls", turn=n, field="rolls")
    dice = turn.get("dice")
    if dice is None:
        return
    if not isinstance(dice, list):
        raise RecordError(f"dice {dice!r} is not a list", turn=n, field="dice")
    faces = tuple(tuple(d) if isinstance(d, list) else d for d in dice)
    _guard(n, "dice", lambda: state.apply(SetDice(faces)))


def _replay_rolls(
    state: State,
    turn: dict[str, Any],
    n: int,
    last: bool,
    after_roll: Callable[[int], None] | None = None,
) -> None:
    rolls = _need(turn, "rolls", list, n)
    if not rolls:
        raise RecordError("a turn rolls at least once", turn=n, field="rolls")
    for r, roll in enumerate(rolls):
        where = f"rolls[{r}]"
        if not isinstance(roll, dict):
            raise RecordError("a roll is {keep, dice}", turn=n, field=where)
        keep = roll.get("keep", [])
        if not isinstance(keep, list):
            raise RecordError(f"keep {keep!r} is not a list", turn=n, field=f"{where}.keep")
        before = None if state.dice is None else list(state.dice)
        _guard(n, f"{where}.keep", functools.partial(state.apply, Roll(tuple(keep))))
        dice = roll.get("dice")
        if dice is None:
            if last and r == len(rolls) - 1 and not fills_box(turn):
                return  # saved while the dice were rolling
            raise RecordError("the dice of this roll are missing", turn=n, field=f"{where}.dice")
        if not isinstance(dice, list) or len(dice) != state.rules.num_dice:
            raise RecordError(
                f"a roll has {state.rules.num_dice} dice, not {dice!r}",
                turn=n,
                field=f"{where}.dice",
            )
        partial = last and r == len(rolls) - 1 and not fills_box(turn) and None in dice
        new = []
        rolling = False  # saved mid-roll: the dice rolled so far come first, then nulls
        for i, d in enumerate(dice):
            if partial and i not in keep and (rolling or d is None):
                if d is not None:
                    raise RecordError(
                        f"die {d!r} follows a die that is still rolling",
                        turn=n,
                        field=f"{where}.dice[{i}]",
                    )
                rolling = True
                continue
            die = tuple(d) if isinstance(d, list) else d
            if i in keep:
                assert before is not None
                if die != before[i]:
                    raise RecordError(
                        f"kept die {d!r} changed from {_show(before[i])!r}",
                        turn=n,
                        field=f"{where}.dice[{i}]",
                    )
            else:
                _guard(n, f"{where}.dice[{i}]", functools.partial(state._check_die, die))
                new.append(die)
        if partial:
            for die in new:
                state.apply_chance(die)
            return
        state.apply_roll(new)
        if after_roll is not None:
            after_roll(r + 1)


def _entry(turn: dict[str, Any], layer: str, n: int) -> Entry:
    raw = turn.get(layer) if layer else turn
    if not isinstance(raw, dict) or not isinstance(raw.get("box"), str):
        raise RecordError(f"{layer} result {raw!r} names no box", turn=n, field=layer or "box")
    if raw.get("scratch") is True:
        return Scratch(raw["box"])
    if raw.get("written") is True:
        points = raw.get("points")
        if isinstance(points, bool) or not isinstance(points, int):
            raise RecordError(
                f"points {points!r} are not a whole number",
                turn=n,
                field=f"{layer}.points" if layer else "points",
            )
        return Write(raw["box"], points, "yatzy_bonus" in raw)
    drop = raw.get("drop")
    if drop is not None and (isinstance(drop, bool) or not isinstance(drop, int)):
        raise RecordError(f"drop {drop!r} is not a face", turn=n, field=f"{layer}.drop")
    return Score(raw["box"], drop)


def _check_points(
    state: State, given: dict[str, Any], actual: dict[str, Any], n: int, prefix: str
) -> None:
    field = f"{prefix}.points" if prefix else "points"
    if "points" in given and given["points"] != actual["points"]:
        raise RecordError(
            f"{given['points']!r} points do not match the dice in {actual['box']} "
            f"({actual['points']})",
            turn=n,
            field=field,
        )


def _check_results(state: State, data: dict[str, Any]) -> None:
    if "totals" in data and data["totals"] != state.totals():
        raise RecordError(
            f"totals {data['totals']!r} do not match the boxes ({state.totals()})", field="totals"
        )
    if data.get("finished") is True and not state.is_terminal():
        raise RecordError("the record says finished but boxes are open", field="turns")
    if "winners" in data and data["winners"] != state.winners():
        raise RecordError(
            f"winners {data['winners']!r} do not match the totals ({state.winners()})",
            field="winners",
        )


def _need(data: dict[str, Any], key: str, kind: type[T], turn: int) -> T:
    if key not in data:
        raise RecordError(f"{key} is missing", turn=turn, field=key)
    value = data[key]
    if not isinstance(value, kind):
        raise RecordError(f"{key} {value!r} is not a {kind.__name__}", turn=turn, field=key)
    return value


def _guard(turn: int, field: str, fn: Callable[[], T]) -> T:
    try:
        return fn()
    except RecordError:
        raise
    except YatzyError as exc:
        raise RecordError(str(exc), turn=turn, field=field) from None
    except (TypeError, KeyError, IndexError) as exc:
        raise RecordError(f"malformed value ({exc})", turn=turn, field=field) from None


def _show(die: Any) -> Any:
    return list(die) if isinstance(die, tuple) else die


def _copy(turn: dict[str, Any]) -> dict[str, Any]:
    copied: dict[str, Any] = _deep_copy(turn)
    return copied


def _deep_copy(value: Any) -> Any:
    # Records hold only dicts, lists and scalars; this is much cheaper than copy.deepcopy.
    if isinstance(value, dict):
        return {k: _deep_copy(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_deep_copy(v) for v in value]
    return value
