"""The full-screen game of ``yatzy play`` (Textual), chosen when input and output
are a terminal; ``--plain`` keeps the line mode of :mod:`yatzy.cli.play_session`.

Importing this package imports Textual, so only ``yatzy play`` at a terminal does.
:func:`run_app` plays one game and returns the exit code.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import TYPE_CHECKING

from yatzy.game import State
from yatzy.rules import Language

if TYPE_CHECKING:
    from yatzy.bots import Bot


def run_app(
    state: State,
    *,
    record: int | None = None,
    record_lookup: Callable[[], int | None] | None = None,
    lang: Language,
    rng: random.Random,
    bots: dict[int, Bot],
    bot_rng: Callable[[State], random.Random],
    save_path: str | None,
    bot_delay: float,
    resumed_from: str | None,
    on_finished: Callable[[State], str] | None = None,
    chances: bool = True,
) -> int:
    """Play ``state`` full screen; 0 when the game ended, 1 when the players quit.

    ``chances`` shows every player's live chance to win in a row of the sheet;
    ``record_lookup`` finds a solo player's record when none is given (in the
    background, after the first screen)."""
    from yatzy.cli.play_common import live_chances
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
        chances=live_chances if chances else None,
        grace=GRACE_SECONDS,
    )
    code = app.run()
    for line in app.exit_lines:
        print(line)
    return EXIT_UNFINISHED if code is None else code
