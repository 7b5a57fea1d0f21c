"""``yatzy play [--rules SPEC] [--lang sv|fi|en] [--bot LEVEL] NAME...``: a game in the terminal.

Hotseat for any number of people at one keyboard, with bots if asked.  The game
loop lives in :mod:`yatzy.cli.play_session`; this module reads the command line,
builds or loads the state (``--resume`` without a file: one picked from the latest
unfinished games) and seats the bots.  Every move is saved by default.  Exit codes:
0 when the game was played to its end, 1 when it stopped unfinished (``q`` or end of
input; the record is on disk unless the player said not to keep it), 2 for bad input,
130 after Ctrl-C, 129 and 143 after a hang-up and SIGTERM (the game saved).
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from yatzy.cli.common import add_lang
from yatzy.cli.i18n import level_from_word, level_name, tr, unknown_level
from yatzy.errors import YatzyError
from yatzy.game import FairDice

if TYPE_CHECKING:
    from yatzy.bots import Bot
    from yatzy.cli.play_common import PeopleHistory
    from yatzy.game import Dealer, Player, State
    from yatzy.rules import Language


class PlayError(YatzyError):
    """Bad arguments to ``yatzy play`` (one line on stderr, exit code 2)."""


def add_parser(sub: Any) -> None:
    """Register the subcommand (imports nothing heavy)."""
    p = sub.add_parser(
        "play",
        help="play a game in the terminal (hotseat, bots; full screen at a terminal)",
        description="A complete game at one keyboard for any number of players, solo "
        "included.  Type ? at the prompt for the commands.  Exit code 0 when the game "
        "was played to the end, 1 when it stopped unfinished (q or end of input), 2 "
        "for bad input.  At a terminal, Enter after a roll does not re-roll (type r), a 0 "
        "where the dice score elsewhere asks first, and Ctrl-D offers to save like q; at "
        "the end of piped input a game in progress is saved to $XDG_STATE_HOME/yatzy "
        "(~/.local/state/yatzy) unless --save already saves it.  Every move is saved "
        "(to --save's FILE, else to a new file there; --no-autosave: only when asked), a "
        "hang-up or SIGTERM saves the game and exits with 129 or 143, and --resume without "
        "a FILE offers the latest unfinished games."
        # The full-screen game (yatzy.cli.tui), kept as its own sentence for merging.
        "  When input and output are a terminal the game is full screen (--plain: line "
        "mode); there q, Ctrl-Q or Ctrl-C offers to save an unfinished game, by default "
        "to $XDG_STATE_HOME/yatzy, and a file is never replaced without asking.",
    )
    p.add_argument(
        "names", nargs="*", metavar="NAME", help="the players in seat order (default: $USER)"
    )
    p.add_argument(
        "--rules",
        metavar="SPEC",
        help="rules spec, e.g. yatzy+forced or maxi+saved_rolls (default yatzy)",
    )
    add_lang(p, "language of the game (default: the record's with --resume, else en)")
    # Unset means "the record's language" with --resume, else English.
    p.set_defaults(lang=None)
    p.add_argument(
        "--bot",
        action="append",
        default=[],
        metavar="LEVEL[:NAME]",
        help="seat a bot after the people (repeatable), e.g. greedy or greedy:Hal; a "
        "level's name in Swedish or Finnish works too (lagom, tavallinen), in any case, and "
        "names the bot in the game's language",
    )
    p.add_argument(
        "--seed",
        type=int,
        metavar="N",
        help="reproducible dice from random.Random(N) (default: the OS's CSPRNG)",
    )
    p.add_argument(
        "--save",
        metavar="FILE",
        help="write the game record to FILE after every move (an existing FILE is replaced "
        "only with --force or, at a terminal, after a yes)",
    )
    p.add_argument(
        "--bot-delay",
        type=float,
        metavar="SECONDS",
        help="pause after each of a bot's moves (default 0.6 when output is a terminal, else 0)",
    )
    p.add_argument(
        "--force", action="store_true", help="let --save replace an existing FILE without asking"
    )
    p.add_argument(
        "--record",
        metavar="POINTS",
        help="solo: your record (default: your best solo game of these rules in the local "
        "database, when the chances are shown); the board shows the live chance of beating it "
        "and the hint aims at it (target play; yatzy and yahtzee: the first game of a "
        "record builds its table in the background, a few minutes once, and says so)",
    )
    chances = p.add_mutually_exclusive_group()
    chances.add_argument(
        "--chances",
        action="store_true",
        default=None,
        help="show every player's live chance to win (people counted at the level their "
        "play has shown, the middle one until a few turns are seen; bots at their level): "
        "a row of the full-screen sheet, a line after each turn in line mode (default: at "
        "a terminal, for two or more players)",
    )
    chances.add_argument(
        "--no-chances", dest="chances", action="store_false", help="do not show them"
    )
    p.add_argument(
        "--no-record",
        action="store_true",
        help="do not keep the finished game in your statistics (by default it goes into the "
        "local database that `yatzy stats` and the web app's history read)",
    )
    p.add_argument(
        "--database-url",
        metavar="URL",
        help="the database finished games are kept in (default: the web app's local SQLite "
        "file; postgresql://... works too)",
    )
    p.add_argument(
        "--resume",
        nargs="?",
        const="",
        metavar="FILE",
        help="continue the game saved in FILE (and keep saving to it); without FILE, pick "
        "one of the latest unfinished games of $XDG_STATE_HOME/yatzy by number",
    )
    p.add_argument(
        "--no-autosave",
        action="store_true",
        help="do not save the game after every move (by default a game without --save is "
        "saved to a new file in $XDG_STATE_HOME/yatzy once a die is rolled, named "
        "unfinished-... until the game ends and finished-... after; a hang-up or SIGTERM "
        "saves the game there even so)",
    )
    p.add_argument(
        "--plain",
        action="store_true",
        help="play in line mode even at a terminal (chosen by itself when input or output is "
        "not a terminal); otherwise the game is full screen: 1-6 keep dice, Space or R "
        "rolls, a box's letter or the arrows and Enter write, ? shows the keys and rules",
    )
    p.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    """Set the game up and play it."""
    from yatzy.cli.play_common import rescue_path
    from yatzy.cli.play_session import PlaySession, seeded_rng
    from yatzy.game import default_rng

    lang: Language = args.lang or "en"
    _tolerant_output()
    if args.database_url and not args.no_record:
        # A mistyped URL is refused now, not after the game (nothing is created).
        from yatzy.store.db import check_url

        check_url(args.database_url)
    if args.resume == "":
        picked = _pick_saved(lang)
        if picked is None:
            return 1
        args.resume = picked
    resumed_dice: FairDice | None = None
    if args.resume:
        state, said, resumed_dice = _resume(args)
        if args.lang is None and said is not None:
            lang = said  # the language the game was played in, unless --lang says otherwise
        save_path = args.save or args.resume
    else:
        state = _new_game(args)
        save_path = args.save
    # Autosave by default: a closed terminal, a dropped connection or a crash loses
    # nothing (the file is written once a die is rolled, its folder made then).
    autosave_path = None if save_path or args.no_autosave else rescue_path()
    bots = _seat_bots(state)
    seed: int | None = args.seed
    # Verifiable dice unless --seed asks for a reproducible stream: the record keeps the
    # seed and `yatzy verify` recomputes every die (a resumed game rolls on from it).
    rng: random.Random | Dealer = (
        seeded_rng(seed, state) if seed is not None else resumed_dice or FairDice.new()
    )
    decide = default_rng()

    def bot_rng(s: State) -> random.Random:
        # One source per decision, keyed by the position, so a resumed game's bots
        # decide as they would have without the break.
        if seed is None:
            return decide
        return random.Random(f"{seed}:bot:{s.turn_number}:{s.rolls_used}")

    delay: float | None = args.bot_delay
    if delay is not None and not 0 <= delay <= 60:
        raise PlayError(tr("play_bot_delay", lang, value=delay))
    if delay is None:
        delay = 0.6 if sys.stdout.isatty() else 0.0
    if args.save and not args.force:
        _check_overwrite(args.save, args.resume, lang)
    if save_path:
        _first_save(state, save_path, lang)
    record: int | None = None
    if args.record is not None:
        try:
            record = int(args.record)
        except ValueError:
            raise PlayError(tr("play_record_number", lang, value=repr(args.record))) from None
        if record < 0 or len(state.players) != 1:
            raise PlayError(tr("play_record_solo", lang, value=args.record))
    on_finished: Callable[[State], str] | None = None
    if not args.no_record:
        db = args.database_url

        def on_finished(s: State) -> str:
            from yatzy.cli.play_common import keep_in_stats

            return keep_in_stats(s, db, lang)

    show_chances = sys.stdout.isatty() if args.chances is None else bool(args.chances)
    record_lookup: Callable[[], int | None] | None = None
    if record is None and show_chances and _plays_for_a_record(state):
        spec, url = state.rules.spec, args.database_url

        def lookup() -> int | None:
            from yatzy.store.local import local_solo_record

            return local_solo_record(spec, url)

        record_lookup = lookup

    # The person's earlier games here count in their measured level (live chances):
    # read from the database the finished games go to, unless nothing is kept there.
    history: PeopleHistory | None = None
    if show_chances and not args.no_record:
        from yatzy.cli.play_common import PeopleHistory

        history = PeopleHistory(args.database_url)
    if _full_screen(args):
        from yatzy.cli.tui import run_app

        return run_app(
            state,
            record=record,
            record_lookup=record_lookup,
            lang=lang,
            rng=rng,
            bots=bots,
            bot_rng=bot_rng,
            save_path=save_path,
            bot_delay=delay,
            resumed_from=args.resume,
            on_finished=on_finished,
            chances=show_chances,
            autosave_path=autosave_path,
            history=history,
        )
    session = PlaySession(
        state,
        record=record if record_lookup is None else record_lookup(),
        lang=lang,
        rng=rng,
        bots=bots,
        bot_rng=bot_rng,
        save_path=save_path,
        bot_delay=delay,
        clear=sys.stdout.isatty() and sys.stdin.isatty() and os.environ.get("TERM") != "dumb",
        on_finished=on_finished,
        chances=show_chances,
        autosave_path=autosave_path,
        history=history,
    )
    return session.run(resumed_from=args.resume)


def _full_screen(args: argparse.Namespace) -> bool:
    """The full-screen game: at a terminal (input and output), unless ``--plain``."""
    if args.plain or os.environ.get("TERM") == "dumb":
        return False
    return sys.stdin.isatty() and sys.stdout.isatty()


def _tolerant_output() -> None:
    # A terminal whose encoding lacks a character (│, å, ä) gets a stand-in, not a crash.
    reconfigure = getattr(sys.stdout, "reconfigure", None)
    if reconfigure is not None:
        with contextlib.suppress(OSError, ValueError):
            reconfigure(errors="replace")


def _pick_saved(lang: Language) -> str | None:
    """``--resume`` without a file: list the latest unfinished games and let the player
    pick one by number (Enter: the newest); ``None`` when none was picked.  Without a
    terminal to ask at, one line names the newest (a :class:`PlayError`)."""
    from yatzy.cli.i18n import tr
    from yatzy.cli.play_common import NO_WORDS, rescue_dir, saved_game_line, unfinished_games

    games = unfinished_games()
    if not games:
        raise PlayError(tr("resume_none", lang, folder=rescue_dir()))
    if not sys.stdin.isatty():
        raise PlayError(tr("resume_needs_file", lang, path=games[0].path))
    print(tr("resume_list", lang, folder=rescue_dir()))
    for number, game in enumerate(games, 1):
        print(saved_game_line(number, game, lang))
    while True:
        try:
            answer = input(tr("resume_pick", lang, n=len(games))).strip()
        except EOFError:
            answer = "q"
        if not answer:
            return games[0].path
        if answer.isdigit() and 1 <= int(answer) <= len(games):
            return games[int(answer) - 1].path
        if answer.casefold() in (*NO_WORDS, "q"):
            print(tr("resume_none_picked", lang))
            return None
        print("! " + tr("resume_bad_pick", lang, text=answer, n=len(games)))


def _new_game(args: argparse.Namespace) -> State:
    from yatzy.game import Game, Player
    from yatzy.rules import RuleSet

    rules = RuleSet.parse(args.rules or "yatzy")
    names: list[str] = list(args.names)
    if not names:
        names = [os.environ.get("USER", "").strip() or "Player"]
    players: list[Player] = [Player(n) for n in names]
    taken = {n.strip().casefold() for n in names}
    lang: Language = args.lang or "en"
    for spec in args.bot:
        word, _, name = spec.partition(":")
        level = _bot_level(word.strip(), lang)
        name = name.strip() or _free_name(level_name(level, lang), taken)
        taken.add(name.casefold())
        players.append(Player(name, level))
    return Game(rules, players).new_initial_state()


def _free_name(base: str, taken: set[str]) -> str:
    name, n = base, 1
    while name.casefold() in taken:
        n += 1
        name = f"{base} {n}"
    return name


def _resume(args: argparse.Namespace) -> tuple[State, Language | None, FairDice | None]:
    """The game of ``args.resume``, the language its record was played in (if one the
    game speaks) and its verifiable dice (``None``: the record has none)."""
    from yatzy.game import loads
    from yatzy.game.record import record_language
    from yatzy.rules import LANGUAGES, RuleSet

    path = args.resume
    lang: Language = args.lang or "en"  # the refusals' words (the record's are not read yet)
    if args.names:
        raise PlayError(tr("resume_no_names", lang, names=", ".join(args.names)))
    if args.bot:
        raise PlayError(tr("resume_no_bot", lang))
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError as exc:
        raise PlayError(tr("cannot_read", lang, path=path, reason=exc.strerror or exc)) from None
    except UnicodeDecodeError:
        raise PlayError(tr("not_utf8_record", lang, path=path)) from None
    try:
        state = loads(text)
    except YatzyError as exc:
        raise PlayError(f"{path}: {exc}") from None
    if args.rules is not None:
        wanted = RuleSet.parse(args.rules)
        if wanted != state.rules:
            raise PlayError(
                tr(
                    "resume_rules_conflict",
                    lang,
                    wanted=wanted.spec,
                    path=path,
                    rules=state.rules.spec,
                )
            )
    dice = _record_dice(text, path)
    said = record_language(text)
    for known in LANGUAGES:
        if said == known:
            return state, known, dice
    return state, None, dice


def _record_dice(text: str, path: str) -> FairDice | None:
    """The verifiable dice a saved game rolls on with (checked against their commitment)."""
    import json

    data = json.loads(text)  # loads() has read it already: it is JSON
    if not isinstance(data, dict) or data.get("dice") is None:
        return None
    try:
        return FairDice.from_proof(data["dice"])
    except YatzyError as exc:
        raise PlayError(f"{path}: {exc}") from None


def _bot_level(word: str, lang: Language) -> str:
    """The level ``--bot WORD`` names: an English id or a level's name in Swedish,
    Finnish or English, in any case ("lagom", "Tavallinen"); refused in ``lang``."""
    level = level_from_word(word)
    if level is None:
        raise PlayError(unknown_level(word, lang))
    _check_bot_level(level)
    return level


def _check_bot_level(level: str) -> None:
    from yatzy.bots import BOT_LEVELS

    if level not in BOT_LEVELS:
        raise PlayError(f"unknown bot level {level!r}; valid: {', '.join(BOT_LEVELS)}")


def _seat_bots(state: State) -> dict[int, Bot]:
    seats = [(i, p) for i, p in enumerate(state.players) if p.bot]
    if not seats:
        return {}  # no bot: the bots module is not even imported
    from yatzy.bots import make_bot

    out: dict[int, Bot] = {}
    for i, player in seats:
        level = player.bot
        assert level is not None
        _check_bot_level(level)
        out[i] = make_bot(level)
    return out


def _plays_for_a_record(state: State) -> bool:
    """A solo game with dice of rules that target play handles (yatzy, yahtzee): it
    shows the live chance of beating the player's record, which by default is their
    best such game in the local database."""
    return (
        len(state.players) == 1
        and state.players[0].bot is None
        and not state.game.pad
        and state.rules.variant in ("yatzy", "yahtzee")
    )


def _check_overwrite(path: str, resumed: str | None, lang: Language) -> None:
    """Refuse to let ``--save`` replace an existing file (a finished record, say) unasked."""
    from yatzy.cli.i18n import tr
    from yatzy.cli.play_common import YES_WORDS

    if not os.path.exists(path):
        return
    if resumed is not None and os.path.exists(resumed) and os.path.samefile(path, resumed):
        return  # continuing a game in its own file
    if sys.stdin.isatty():
        answer = input(tr("confirm_overwrite", lang, path=path))
        if answer.strip().casefold() in YES_WORDS:
            return
    raise PlayError(tr("save_option_exists", lang, path=path))


def _first_save(state: State, path: str, lang: Language) -> None:
    from yatzy.game import save

    try:
        save(state, path, lang=lang)
    except OSError as exc:
        raise PlayError(tr("cannot_save", lang, path=path, reason=exc.strerror or exc)) from None
