"""Game state, actions, sheets and game records."""

from __future__ import annotations

from yatzy.game.actions import (
    Action,
    Fill2,
    Roll,
    Score,
    Scratch,
    SetDice,
    Undo,
    Write,
    action_from_json,
    action_to_json,
)
from yatzy.game.names import MAX_NAME, BadNameError, check_name
from yatzy.game.sheet import BoxEntry, Sheet
from yatzy.game.state import CHANCE, TERMINAL, Dealer, Game, Phase, Player, State, default_rng
from yatzy.game.turnlog import Die

__all__ = [
    "CHANCE",
    "MAX_NAME",
    "TERMINAL",
    "Action",
    "BadNameError",
    "BoxEntry",
    "Dealer",
    "Die",
    "Fill2",
    "Game",
    "Phase",
    "Player",
    "Roll",
    "Score",
    "Scratch",
    "SetDice",
    "Sheet",
    "State",
    "Undo",
    "Write",
    "action_from_json",
    "action_to_json",
    "check_name",
    "default_rng",
]

from yatzy.game.fair_dice import FairDice, verify_record
from yatzy.game.record import dumps, from_record, load, loads, save, to_record

__all__ += ["dumps", "from_record", "load", "loads", "save", "to_record"]
__all__ += ["FairDice", "verify_record"]
