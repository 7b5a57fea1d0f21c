"""Write docs/tui.svg: the full-screen game in the middle of a game (Textual's SVG export).

A seeded game of Scandinavian Yatzy between two people and a greedy bot: six rounds
are played by greedy choices, then the screen is shot after a roll with two dice
kept, at 80×24 by default (the sheet in two columns, the totals in sight).
Run: ``.venv/bin/python docs/make_tui_screenshot.py [--size 80x24]``.
"""

from __future__ import annotations

import argparse
import asyncio
import random
from pathlib import Path

from yatzy.bots import make_bot
from yatzy.cli.tui.app import YatzyApp
from yatzy.game import Game, Player
from yatzy.rules import RuleSet

ROOT = Path(__file__).resolve().parent.parent


def main() -> None:
    """Play to the middle, shoot, write the SVG."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--out", default=str(ROOT / "docs" / "tui.svg"))
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))

    game = Game(RuleSet.parse("yatzy"), [Player("Anna"), Player("Bo"), Player("Hal", "greedy")])
    state = game.new_initial_state(starter=0)
    rng = random.Random(7)
    greedy = make_bot("greedy")
    while state.turn_number < 3 * 6:
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(greedy.choose(state, rng))
    app = YatzyApp(
        state,
        lang="en",
        rng=rng,
        bots={2: greedy},
        bot_rng=lambda s: random.Random(f"7:{s.turn_number}:{s.rolls_used}"),
    )

    async def shoot() -> str:
        async with app.run_test(size=(cols, rows)) as pilot:
            await pilot.pause()
            await pilot.press("space", "2", "3", "space")
            await pilot.pause()
            return app.export_screenshot(title="yatzy play")

    svg = asyncio.run(shoot())
    Path(args.out).write_text(svg, encoding="utf-8")
    print(f"wrote {args.out} ({len(svg) // 1024} kB)")


if __name__ == "__main__":
    main()
