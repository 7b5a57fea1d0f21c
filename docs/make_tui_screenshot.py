"""Write the full-screen game's screenshots in docs/ (Textual's SVG export).

A seeded game of Scandinavian Yatzy between two people and a greedy bot.  ``turn``:
six rounds are played by greedy choices, then the screen is shot after a roll with two
dice kept, at 80×24 by default (the sheet in two columns, the totals in sight).
``analysis``: the same game played to its end, and the analysis its `A` opens (each
player's points lost, the chances to win given up, the costliest decisions).
Run: ``.venv/bin/python docs/make_tui_screenshot.py [--size 80x24] [--lang en]
[--screen turn|analysis]``, or ``--all`` for both screens in English, Swedish and
Finnish (``docs/tui.svg``, ``docs/tui-sv.svg``, ``docs/tui-analysis-fi.svg`` …) and the
turn in English at 120×40 (``docs/tui-120x40.svg``: the sheet in one column).
"""

from __future__ import annotations

import argparse
import asyncio
import random
from pathlib import Path

from yatzy.bots import make_bot
from yatzy.cli.tui.app import YatzyApp
from yatzy.game import Game, Player, State
from yatzy.rules import Language, RuleSet

ROOT = Path(__file__).resolve().parent.parent
LANGS: tuple[Language, ...] = ("en", "sv", "fi")
NAMES = {"en": ("Anna", "Bo"), "sv": ("Anna", "Bo"), "fi": ("Aino", "Eero")}


def played(lang: Language, turns: int | None) -> State:
    """The seeded game after ``turns`` turns (``None``: to its end), greedy choices."""
    people = NAMES[lang]
    game = Game(
        RuleSet.parse("yatzy"), [Player(people[0]), Player(people[1]), Player("Hal", "greedy")]
    )
    state = game.new_initial_state(starter=0)
    rng = random.Random(7)
    greedy = make_bot("greedy")
    while not state.is_terminal() and (turns is None or state.turn_number < turns):
        if state.is_chance_node():
            state.roll(rng)
        else:
            state.apply(greedy.choose(state, rng))
    return state


def shoot(lang: Language, screen: str, size: tuple[int, int]) -> str:
    """The SVG of ``screen`` in ``lang``."""
    state = played(lang, 3 * 6 if screen == "turn" else None)
    greedy = make_bot("greedy")
    app = YatzyApp(
        state,
        lang=lang,
        rng=random.Random(7),
        bots={2: greedy},
        bot_rng=lambda s: random.Random(f"7:{s.turn_number}:{s.rolls_used}"),
    )

    async def run() -> str:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            if screen == "turn":
                await pilot.press("space", "2", "3", "space")
                await pilot.pause()
            else:
                await pilot.press("a")
                for _ in range(1200):  # the analysis is made off the screen's thread
                    await pilot.pause(0.1)
                    lines = getattr(app.screen, "lines", [])
                    if len(lines) > 3 and not getattr(lines, "preparing", False):
                        break
                await pilot.pause(0.3)
            return app.export_screenshot(title="yatzy play")

    return asyncio.run(run())


def main() -> None:
    """Play, shoot, write the SVG(s)."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="80x24")
    parser.add_argument("--lang", default="en", choices=LANGS)
    parser.add_argument("--screen", default="turn", choices=("turn", "analysis"))
    parser.add_argument("--all", action="store_true", help="both screens in every language")
    parser.add_argument("--out", help="the file (default: docs/tui[-analysis][-LANG].svg)")
    args = parser.parse_args()
    cols, rows = (int(x) for x in args.size.split("x"))
    jobs = (
        [(lang, screen, (cols, rows)) for screen in ("turn", "analysis") for lang in LANGS]
        + [("en", "turn", (120, 40))]
        if args.all
        else [(args.lang, args.screen, (cols, rows))]
    )
    for lang, screen, size in jobs:
        name = (
            "tui"
            + ("-analysis" if screen == "analysis" else "")
            + (f"-{lang}" if lang != "en" or screen == "analysis" else "")
            + ("-120x40" if args.all and size == (120, 40) else "")
        )
        out = Path(args.out) if args.out and not args.all else ROOT / "docs" / f"{name}.svg"
        svg = shoot(lang, screen, size)
        out.write_text(svg, encoding="utf-8")
        print(f"wrote {out} ({len(svg) // 1024} kB)")


if __name__ == "__main__":
    main()
