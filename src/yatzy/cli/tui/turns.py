"""The computer's turns in the full-screen game: deciding off the screen's thread.

:class:`BotTurns` is the part of :class:`yatzy.cli.tui.app.YatzyApp` that lets a
bot decide on a copy of the position in a daemon thread (the screen stays alive),
plays the greedy strategy meanwhile where the bot's tables are still being built
(and says so), and applies, rolls and tells each of the bot's moves.
"""

from __future__ import annotations

import contextlib
import random
from collections.abc import Callable

from yatzy.cli.i18n import tr
from yatzy.cli.play_common import plays_stand_in, written_messages
from yatzy.cli.terminal import kept_positions, player_label, show_dice
from yatzy.cli.tui.drawing import SheetDrawing
from yatzy.game import Action, Roll, State


class BotTurns(SheetDrawing):
    """The bots' moves (see the module docstring); the app around it decides whose
    turn it is (:meth:`_advance`)."""

    bot_rng: Callable[[State], random.Random]
    bot_delay: float

    def _advance(self) -> None:
        raise NotImplementedError

    def _new_turn(self) -> None:
        raise NotImplementedError

    def _bot_think(self, seat: int, position: State) -> None:
        """A bot decides on a copy of the position, off the screen's thread; while its
        tables are being built it plays the greedy strategy and says so."""
        bot, rng = self.bots[seat], self.bot_rng(position)

        def decide() -> Action:
            chosen = bot
            stand_in = plays_stand_in(position, seat)
            if stand_in:
                from yatzy.bots import GreedyBot

                chosen = GreedyBot()
            if stand_in != (seat in self.stand_in_seats):
                with contextlib.suppress(RuntimeError):  # the app has closed meanwhile
                    self.call_from_thread(self._show_preparing, seat, stand_in)
            return chosen.choose(position, rng)

        self._in_background(decide, lambda a: self._bot_move(seat, a))

    def _show_preparing(self, seat: int, stand_in: bool) -> None:
        name = player_label(self.state, seat, self.lang)
        if stand_in:
            self.stand_in_seats.add(seat)
            self._say(tr("bot_stand_in", self.lang, name=name))
        else:
            self.stand_in_seats.discard(seat)
            self._say(tr("bot_own_strategy", self.lang, name=name))
        self.preparing = bool(self.stand_in_seats)
        self._redraw()

    def _bot_move(self, seat: int, action: Action) -> None:
        self._background -= 1
        state = self.state
        if state.is_terminal() or state.player != seat:
            return  # the game moved on (it cannot, but a late answer must not act)
        self._bot_apply(seat, action)
        self._redraw()
        if self.bot_delay > 0:
            self.set_timer(self.bot_delay, self._advance)
        else:
            self.call_later(self._advance)

    def _bot_apply(self, seat: int, action: Action) -> None:
        """Apply a bot's action (bots choose legal ones), roll, and tell the table."""
        state = self.state
        name = player_label(state, seat, self.lang)
        state.apply(action)
        if isinstance(action, Roll):
            state.roll(self.rng)
            assert state.dice is not None
            if action.keep:
                kept = show_dice([state.dice[i] for i in action.keep])
                dice = show_dice(state.dice)
                self._say(tr("rolled_keeping", self.lang, name=name, kept=kept, dice=dice))
            else:
                self._say(tr("rolled", self.lang, name=name, dice=show_dice(state.dice)))
            self.keep = set(kept_positions(state))
        else:
            for text in written_messages(state, state.log[-1], name, self.lang):
                self._say(text)
            self._new_turn()
        self._autosave()
