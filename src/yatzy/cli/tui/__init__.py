"""The full-screen game of ``yatzy play`` (Textual), chosen when input and output
are a terminal; ``--plain`` keeps the line mode of :mod:`yatzy.cli.play_session`.

Importing this package imports Textual, so only ``yatzy play`` at a terminal does.
:func:`run_app` plays one game and returns the exit code.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import random
import threading
from collections.abc import Callable
from functools import partial
from typing import TYPE_CHECKING

from yatzy.game import Dealer, State
from yatzy.rules import Language

if TYPE_CHECKING:
    from yatzy.bots import Bot
    from yatzy.cli.play_common import PeopleHistory
    from yatzy.cli.tui.app import YatzyApp


def run_app(
    state: State,
    *,
    record: int | None = None,
    record_lookup: Callable[[], int | None] | None = None,
    lang: Language,
    rng: random.Random | Dealer,
    bots: dict[int, Bot],
    bot_rng: Callable[[State], random.Random],
    save_path: str | None,
    bot_delay: float,
    resumed_from: str | None,
    on_finished: Callable[[State], str] | None = None,
    chances: bool = True,
    autosave_path: str | None = None,
    history: PeopleHistory | None = None,
) -> int:
    """Play ``state`` full screen; 0 when the game ended, 1 when the players quit,
    128 + the signal after a hang-up (SIGHUP) or SIGTERM (the game saved, the
    terminal restored).

    ``chances`` shows every player's live chance to win in a row of the sheet;
    ``record_lookup`` finds a solo player's record when none is given (in the
    background, after the first screen); ``autosave_path`` receives the record after
    every move when ``save_path`` is not given."""
    from yatzy.cli.play_advice import win_analysis_ahead
    from yatzy.cli.play_common import hangup_handlers, live_chances
    from yatzy.cli.tui.app import GRACE_SECONDS, YatzyApp
    from yatzy.cli.tui.saving import EXIT_UNFINISHED

    app = YatzyApp(
        state,
        record=record,
        record_lookup=record_lookup,
        lang=lang,
        rng=rng,
        bots=bots,
        bot_rng=bot_rng,
        save_path=save_path,
        bot_delay=bot_delay,
        resumed_from=resumed_from,
        on_finished=on_finished,
        chances=partial(live_chances, history=history) if chances else None,
        history=history,
        autosave_path=autosave_path,
        grace=GRACE_SECONDS,
        # with the live chances (the same kernels), the win analysis rated as it is played
        # the analysis ahead whether or not the chances are shown: the win analysis
        # at the end then has only the last turn left (seconds, not a minute)
        ahead=partial(win_analysis_ahead, history=history) if len(state.players) > 1 else None,
    )

    ended = threading.Event()

    def on_signal(signum: int, _frame: object) -> None:
        # The handler runs between two steps of the app's event loop: the app saves and
        # leaves from the loop itself, where no move is half done.
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:  # before the loop starts or after it ends: nothing to save yet
            raise SystemExit(128 + signum) from None
        loop.call_soon_threadsafe(app.hang_up, signum)
        threading.Thread(
            target=_last_resort, args=(app, signum, ended), daemon=True, name="yatzy-hangup"
        ).start()

    with hangup_handlers(on_signal):
        try:
            code = app.run()
        finally:
            ended.set()
    with contextlib.suppress(OSError):  # a closed terminal takes no output
        for line in app.exit_lines:
            print(line)
    return EXIT_UNFINISHED if code is None else code


HANGUP_GRACE_SECONDS = 30.0
"""How long the app has, after a hang-up or SIGTERM, to save and leave by itself
before :func:`_last_resort` saves the game and ends the process (under a heavy load
the app takes a few seconds; a stuck one would never end)."""

_LEAVE_SCREEN = "\x1b[?1049l\x1b[?25h"  # leave the alternate screen, show the cursor


def _last_resort(app: YatzyApp, signum: int, ended: threading.Event) -> None:
    """After a hang-up or SIGTERM: when the app has not ended within
    :data:`HANGUP_GRACE_SECONDS`, its loop is stuck (nothing moves in the game then),
    so the game is saved from here, the terminal restored where it still answers, and
    the process ended with 128 + ``signum``, as the app would have."""
    if ended.wait(HANGUP_GRACE_SECONDS):
        return
    lines = app.rescue()
    with contextlib.suppress(OSError, ValueError):
        os.write(2, (_LEAVE_SCREEN + "\n".join(lines) + "\n").encode())
    os._exit(128 + signum)
