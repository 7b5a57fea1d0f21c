"""What the line mode and the full-screen game of ``yatzy play`` share.

Both front ends ask the same questions of a :class:`~yatzy.game.State` before a
write ("does this 0 throw points away?") and save a cut-off game to the same
place, so the rules live here once.  Pure Python over the core; nothing here
prints or reads.
"""

from __future__ import annotations

import atexit
import contextlib
import logging
import math
import os
import random
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from yatzy.analysis import ahead_enabled
from yatzy.cli.i18n import join_names, tr
from yatzy.errors import (
    BoxFilledError,
    KeepError,
    LastResortError,
    NoRollsLeftError,
    OrderError,
    YatzyError,
)
from yatzy.game import Action, Dealer, Fill2, Roll, Score, Scratch, State, save
from yatzy.game.actions import Entry
from yatzy.i18n import decimal
from yatzy.rules import Language

if TYPE_CHECKING:  # numpy and the solver: only where a game is analysed
    from yatzy.strategy.analyze import Analysis

_log = logging.getLogger("yatzy.cli")

YES_WORDS = ("y", "yes", "j", "ja", "k", "kyllä", "kylla")
"""Answers that mean yes in English, Swedish and Finnish."""

NO_WORDS = ("n", "no", "nej", "e", "ei")
"""Answers that mean no in English, Swedish and Finnish."""


def random_draws(state: State) -> int:
    """How many ``randint`` draws :meth:`State.roll` has made to reach ``state``.

    Used to continue a seeded game after ``--resume`` with the very dice it would
    have had without the break: the roll-off draws one face per die, a turn's roll
    one per rolled die (two per DubbelYatzy double die).
    """
    draws = sum(len(rnd) for rnd in state.rolloff)
    per_die = 2 if state.rules.double else 1
    n = state.rules.num_dice
    for turn in state.log:
        for roll in turn.get("rolls", []):
            draws += per_die * (n - len(roll.get("keep", [])))
    return draws - per_die * len(state.pending)


def seeded_rng(seed: int, state: State) -> random.Random:
    """``random.Random(seed)`` advanced past the dice already rolled in ``state``."""
    rng = random.Random(seed)
    for _ in range(random_draws(state)):
        rng.randint(1, 6)
    return rng


def strategy_pending(state: State, seat: int) -> bool:
    """Whether the bot in ``seat`` must first build its strategy tables
    (:func:`yatzy.bots.preparing`; a person never does)."""
    from yatzy.bots import preparing

    return preparing(state.players[seat].bot, state.rules)


_PREPARE_CODE = (
    "import os, sys; from yatzy.bots import prepare_tables\n"
    "if hasattr(os, 'nice'): os.nice(10)  # the game on the screen comes first\n"
    "prepare_tables(sys.argv[1], sys.argv[2])"
)
_builds: dict[tuple[str, str], subprocess.Popen[bytes]] = {}
_builds_lock = threading.Lock()


def _build_key(level: str, spec: str) -> tuple[str, str]:
    from yatzy.bots import WINNER_LEVELS

    return ("winner" if level in WINNER_LEVELS else "strategy", spec)


def prepare_in_background(level: str, state: State) -> bool:
    """Start building the tables a bot of ``level`` needs for the rules of ``state`` in a
    child process (once per kind of table and rules in this program), unless they are
    ready; True while they are not.  A child process, not a thread: numba's compiler
    holds the interpreter's lock for minutes, which would freeze the screen; the table
    and the compiled kernels reach this process through their disk caches (one builder
    per table: :func:`yatzy.table_cache.build_lock`)."""
    key = _build_key(level, state.rules.spec)
    with _builds_lock:
        child = _builds.get(key)
        if child is None:
            child = _builds[key] = subprocess.Popen(
                [sys.executable, "-c", _PREPARE_CODE, level, state.rules.spec],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        return child.poll() is None


_RECORD_WARM_CODE = (
    "import sys; from yatzy.cli.play_common import warm_record_chance; "
    "warm_record_chance(sys.argv[1])"
)
_record_chance_here: set[str] = set()  # rule sets whose record chance this process made


def record_chance_at_hand(spec: str) -> bool:
    """Whether the approximate chance of beating a record (:func:`record_line`) is made
    without compiling a kernel on this thread: this process made one already, or a
    child warmed its kernels into the disk cache.  Otherwise that child is started
    (once per rules in this program) and False is said meanwhile: the status line is
    drawn on the screen's thread, where numba's compile (about 9 s on an idle machine,
    holding the interpreter's lock) froze the screen at a fresh install's first turn."""
    from yatzy.kernels.cache import warm_marker

    if spec in _record_chance_here or warm_marker(f"record-{spec}").exists():
        return True
    with _builds_lock:
        if ("record", spec) not in _builds:
            _builds["record", spec] = subprocess.Popen(
                [sys.executable, "-c", _RECORD_WARM_CODE, spec],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
    return False


TARGET_BUILD_ENV = "YATZY_BUILD_TARGET_TABLES"
"""``0`` keeps the terminal from building a record's target table in the background
(the test suite sets it: each build is about 300 CPU-s and 1.7 GiB)."""

_TARGET_CODE = (
    "import os, sys\n"
    "if hasattr(os, 'nice'): os.nice(10)  # the game on the screen comes first\n"
    "from yatzy.rules import RuleSet\n"
    "from yatzy.strategy.target_play import target_table_for\n"
    "target_table_for(RuleSet.parse(sys.argv[1]), build=True)"
)


def build_target_in_background(spec: str) -> bool:
    """Start building the target table of ``spec`` (the exact chance of beating a
    record, and the hint that aims at it) in a child process at a lower priority, once
    per rules in this program, as the web server builds it for a solo player with a
    record; True where a build was started or runs.  Minutes once on a computer (about
    300 CPU-s and 1.7 GiB for Yatzy); a second program asking meanwhile waits on the
    same table's lock rather than building it again
    (:func:`yatzy.table_cache.build_lock`).  Off where :data:`TARGET_BUILD_ENV` is 0."""
    if os.environ.get(TARGET_BUILD_ENV, "1").strip() == "0":
        return False
    with _builds_lock:
        child = _builds.get(("target", spec))
        if child is None:
            child = _builds["target", spec] = subprocess.Popen(
                [sys.executable, "-c", _TARGET_CODE, spec],
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
            )
        return child.poll() is None


def warm_record_chance(spec: str) -> None:
    """The child's work for :func:`record_chance_at_hand`: the approximate chance of
    beating a record at a game's start and near its end (the simulation's and the
    exact rest's kernels, into the disk cache), then the marker that says so."""
    from yatzy.bots import GreedyBot, play_turn
    from yatzy.game import Game
    from yatzy.kernels.cache import mark_warm
    from yatzy.rules import RuleSet
    from yatzy.strategy.win_chance import approximate_chance_to_beat

    rules = RuleSet.parse(spec)
    state = Game(rules, ["warm-up"]).new_initial_state(starter=0)
    rng = random.Random(1)
    approximate_chance_to_beat(state, 200)
    while len(state.sheets[0].open_boxes) > 3:
        play_turn(state, GreedyBot(), rng)
    approximate_chance_to_beat(state, 200)
    mark_warm(f"record-{spec}")


def stop_preparing() -> None:
    """End the table builds this program started (at its exit: the build lock dies with
    them, and the next game starts them again)."""
    with _builds_lock:
        children = list(_builds.values())
    for child in children:
        if child.poll() is None:
            child.terminate()
            with contextlib.suppress(subprocess.TimeoutExpired):
                child.wait(5)


atexit.register(stop_preparing)


def prepare_analysis(state: State) -> None:
    """At the start of a game with a person at it: the strategy table that the
    analysis at its end (and a hint) reads, built in the background where it is not
    ready (a fresh install's Maxi: 45 s to 3 min), so that the analysis does not start
    that build only when it is asked for.  Off where ``YATZY_ANALYSE_AHEAD=0``
    (:data:`yatzy.analysis.AHEAD_ENV`, the tests), as the analysis ahead."""
    if state.game.pad or not ahead_enabled():
        return
    if all(p.bot is not None for p in state.players):
        return
    from yatzy.bots import preparing

    if preparing("optimal", state.rules):
        prepare_in_background("optimal", state)


def plays_stand_in(state: State, seat: int) -> bool:
    """Whether the bot in ``seat`` plays the greedy strategy now because its own tables
    are not built yet (their build is started in the background, so the game never waits
    for it: the issue's "first move within 3 s").  A person and the quick bots never do;
    once the tables are on disk the bot plays its own strategy."""
    level = state.players[seat].bot
    if level is None or not strategy_pending(state, seat):
        return False
    prepare_in_background(level, state)
    return True


def wastes_dice(state: State, box: str, *, scratch: bool, layer: str = "all") -> bool:
    """Whether writing 0 in ``box`` throws points away: the dice score in an allowed box.

    ``layer`` is ``"inner"`` or ``"outer"`` for one of DubbelYatzy's two results.
    A box the state would refuse anyway is not a waste (the state gives its reason).
    """
    allowed = state.allowed_boxes()
    if box not in allowed:
        return False
    if not scratch and state.box_points(box, layer) > 0:
        return False
    return any(state.box_points(b, layer) > 0 for b in allowed)


def has_progress(state: State) -> bool:
    """Whether losing the game would lose anything (a die rolled or a box written)."""
    return bool(state.log) or state.dice is not None


def rescue_dir() -> str:
    """Where a game cut off by the end of input is saved: ``$XDG_STATE_HOME/yatzy``."""
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(base, "yatzy")


UNFINISHED_PREFIX = "unfinished-"
"""How the name of a game's file in the rescue folder starts while the game goes on."""
FINISHED_PREFIX = "finished-"
"""What that prefix becomes once the game is over (:func:`settle_finished_file`)."""

HANGUP_SIGNALS: tuple[signal.Signals, ...] = tuple(
    getattr(signal, name) for name in ("SIGHUP", "SIGTERM") if hasattr(signal, name)
)
"""The signals that end a game from outside (the terminal closed, an ssh connection
dropped, ``kill``): the game is saved and the terminal restored before leaving."""


class HangUp(BaseException):  # not an error: a request to stop, like KeyboardInterrupt
    """One of :data:`HANGUP_SIGNALS` arrived: the game is saved and left.  A
    BaseException, so that no ``except Exception`` on the way swallows it."""

    def __init__(self, signum: int) -> None:
        super().__init__(signum)
        self.signum = signum


@contextlib.contextmanager
def hangup_handlers(handler: Callable[[int, Any], None]) -> Iterator[None]:
    """Let ``handler`` take :data:`HANGUP_SIGNALS` for the duration (the handlers
    before are put back after).  Only the main thread can; elsewhere nothing changes."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    before = {sig: signal.signal(sig, handler) for sig in HANGUP_SIGNALS}
    try:
        yield
    finally:
        for sig, old in before.items():
            signal.signal(sig, old)


def rescue_path(directory: str | None = None) -> str:
    """A new file name for a rescued game in ``directory`` (default :func:`rescue_dir`).

    The time stamp and the process id keep two rescues apart; the folder is not made.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    name = f"{UNFINISHED_PREFIX}{stamp}-{os.getpid()}.json"
    return os.path.join(directory or rescue_dir(), name)


def write_record(
    state: State, path: str, lang: str | None = None, dice: random.Random | Dealer | None = None
) -> None:
    """Save ``state``'s record to ``path``, making its folder first (raises OSError);
    ``lang`` is kept in the record so that ``--resume`` speaks it again, and verifiable
    ``dice`` (:class:`~yatzy.game.fair_dice.FairDice`) their proof, seed included: the
    file is the player's own, and ``--resume`` rolls on from the same seed."""
    folder = os.path.dirname(path)
    if folder:
        os.makedirs(folder, exist_ok=True)
    save(state, path, lang=lang, dice=dice_proof(dice))


def dice_proof(dice: random.Random | Dealer | None) -> dict[str, Any] | None:
    """The record's ``dice`` block for verifiable dice (seed revealed), else ``None``."""
    from yatzy.game.fair_dice import FairDice

    return dice.proof(reveal=True) if isinstance(dice, FairDice) else None


def settle_finished_file(path: str | None) -> str | None:
    """A finished game's file whose name still starts with ``unfinished-`` is renamed
    to ``finished-…`` (so that it is not offered for resuming); the new path, or
    ``None`` when nothing was renamed (another name, or the rename failed)."""
    if not path:
        return None
    folder, name = os.path.split(path)
    if not name.startswith(UNFINISHED_PREFIX):
        return None
    target = os.path.join(folder, FINISHED_PREFIX + name.removeprefix(UNFINISHED_PREFIX))
    try:
        os.replace(path, target)
    except OSError:
        return None
    return target


@dataclass(frozen=True)
class SavedGame:
    """An unfinished game's file in the rescue folder (:func:`unfinished_games`)."""

    path: str
    modified: float
    """When it was last saved (seconds since the epoch)."""
    state: State


def unfinished_games(directory: str | None = None, limit: int = 9) -> list[SavedGame]:
    """The newest ``limit`` unfinished games saved in ``directory`` (default
    :func:`rescue_dir`), newest first: every ``*.json`` there that loads as a game
    record of a game not over (other files are passed over)."""
    from yatzy.game import load

    folder = directory or rescue_dir()
    try:
        entries = [e for e in os.scandir(folder) if e.name.endswith(".json") and e.is_file()]
    except OSError:
        return []
    entries.sort(key=lambda e: e.stat().st_mtime, reverse=True)
    found: list[SavedGame] = []
    for entry in entries[: limit * 4]:  # a few unreadable or finished ones are skipped
        try:
            state = load(entry.path)
        except (YatzyError, OSError):
            continue
        if not state.is_terminal():
            found.append(SavedGame(entry.path, entry.stat().st_mtime, state))
        if len(found) == limit:
            break
    return found


def saved_game_line(number: int, game: SavedGame, lang: Language) -> str:
    """One line of the list that ``yatzy play --resume`` without a file offers:
    number, when, rules, players, round and file."""
    state = game.state
    when = time.strftime("%Y-%m-%d %H:%M", time.localtime(game.modified))
    names = ", ".join(p.name for p in state.players)
    n = state.turn_number // state.game.num_players + 1
    where = tr("round", lang, n=min(n, state.rules.turns), total=state.rules.turns)
    return f"{number:>2}. {when}  {state.rules.spec}  {names}  ({where})  {game.path}"


def explain_refusal(state: State, lang: Language, exc: YatzyError, action: Action) -> str:
    """A one-line reason in ``lang`` why ``state`` refused ``action`` (it raised ``exc``)."""
    if isinstance(exc, NoRollsLeftError):
        return tr("no_rolls", lang)
    if isinstance(exc, KeepError) and isinstance(action, Roll):
        if len(set(action.keep)) >= state.rules.num_dice:
            return tr("keep_all", lang)
        return str(exc)
    entries: list[Entry] = []
    if isinstance(action, Fill2):
        entries = [action.inner, action.outer]
        if action.inner.box == action.outer.box:
            return tr("same_box_twice", lang)
    elif isinstance(action, Score | Scratch):
        entries = [action]
    if isinstance(exc, BoxFilledError):
        for entry in entries:
            if not state.sheet.is_open(entry.box):
                return tr("box_filled", lang, box=state.rules.box_name(entry.box, lang))
    names = " + ".join(state.rules.box_name(e.box, lang) for e in entries)
    if isinstance(exc, LastResortError):
        # Name the rule: Chance refused (it scores elsewhere) or a 0 refused (they score).
        chance = any(
            isinstance(e, Score) and e.box == "chance" and state.box_points("chance") > 0
            for e in entries
        )
        key = "refused_last_resort_chance" if chance else "refused_last_resort_zero"
        return tr(key, lang, box=names, allowed=_allowed_text(state, lang))
    if isinstance(exc, OrderError):
        return tr(_order_rule(state), lang, box=names, allowed=_allowed_text(state, lang))
    for entry in entries:
        if isinstance(entry, Scratch) and not state.rules.scratchable(entry.box):
            return tr("not_scratchable", lang, box=state.rules.box_name(entry.box, lang))
    return str(exc)


def _order_rule(state: State) -> str:
    """The message key of the order rule that refused a box (named in the refusal)."""
    rules = state.rules
    if not rules.double and rules.joker == "forced" and state.joker_on_table():
        return "refused_joker"
    if rules.forced:
        return "refused_forced"
    if rules.half_forced:
        return "refused_half_forced"
    return "not_allowed"


def _allowed_text(state: State, lang: Language) -> str:
    """The boxes (DubbelYatzy: the pairs of boxes) that may be filled now, by name."""
    groups = state.allowed_groups()
    if groups is None or not state.rules.double:
        return ", ".join(state.rules.box_name(b, lang) for b in state.allowed_boxes())
    options = [" + ".join(state.rules.box_name(b, lang) for b in g) for g in groups]
    return join_names(options, lang)


def written_messages(state: State, turn: dict[str, object], name: str, lang: Language) -> list[str]:
    """What ``name`` wrote in a finished turn of the log, as sentences in ``lang``.

    "Anna writes 15 in Small Straight"; DubbelYatzy's two results in one sentence with
    the dropped faces; a won Yatzy bonus as a second sentence.
    """
    layers = [k for k in ("inner", "outer") if k in turn] if "inner" in turn else [""]
    said = []
    for layer in layers:
        part = turn[layer] if layer else turn
        assert isinstance(part, dict)
        box = state.rules.box_name(str(part["box"]), lang)
        if layer and part.get("drop") is not None:
            # DubbelYatzy: say which dice and which face each result left out.
            box += " " + tr(f"drop_{layer}", lang, face=part["drop"])
        if part.get("scratch"):
            said.append(tr("scratched", lang, name=name, box=box))
        else:
            said.append(tr("wrote", lang, name=name, points=part["points"], box=box))
    if len(said) == 2:
        # "Anna writes 15 in Small Straight and writes 21 in Full House"
        second = said[1][len(name) + 1 :]
        said = [f"{said[0]} {tr('and', lang)} {second}"]
    bonus = turn.get("yatzy_bonus")
    if bonus:
        label = state.rules.label("yatzy_bonus", lang)
        said.append(tr("yatzy_bonus_won", lang, name=name, points=bonus, bonus=label))
    return said


def record_line(state: State, record: int, lang: Language, *, short: bool = False) -> str:
    """Solo: the live chance of beating ``record`` with target play, in words.

    "not available" with its reason: rules that target tables do not cover, or a
    table not built yet (then an approximate figure where the best-points strategy's
    tables give one, :func:`~yatzy.strategy.win_chance.approximate_chance_to_beat`).
    ``short`` words it to share a line of 80 columns with the rolls left (in sv and fi
    the long form does not fit beside them).
    """
    from yatzy.bots import preparing
    from yatzy.errors import SpecError
    from yatzy.solver.target import check_target_supported
    from yatzy.strategy.target_play import chance_to_beat
    from yatzy.strategy.win_chance import approximate_chance_to_beat

    chance = chance_to_beat(state, record)
    prefix = "record_short" if short else "record_chance"
    if chance is None:
        try:
            check_target_supported(state.rules)
        except SpecError:
            return tr(f"{prefix}_unsupported", lang, record=record)
        # The exact figure's table is built in the background (once per computer);
        # meanwhile only the best-points tables at hand: the status line is drawn on
        # the screen's thread, which never waits for a table (2.7 s on a cold install).
        spec = state.rules.spec
        build_target_in_background(spec)
        ready = not preparing("optimal", state.rules) and record_chance_at_hand(spec)
        approx = approximate_chance_to_beat(state, record) if ready else None
        if ready:
            _record_chance_here.add(spec)  # compiled here now, if it was not
        if approx is not None:  # the best-points strategy's chance, said as approximate
            percent = decimal(f"{approx * 100:.0f}", lang)
            return tr(
                f"{prefix}_approx", lang, record=record, percent=percent, spec=state.rules.spec
            )
        return tr(f"{prefix}_unavailable", lang, record=record, spec=state.rules.spec)
    percent = decimal(f"{chance * 100:.1f}", lang)
    return tr(prefix, lang, record=record, percent=percent)


MEASURED_LEVELS = ("strong", "casual", "beginner")
"""The calibrated levels a person's play can be mapped to (else: their best)."""


class PeopleHistory:
    """This computer's earlier finished games of the rules being played, as the losses
    the measured levels count (:mod:`yatzy.analysis.measured`, the web's reading of a
    browser's games): read from the local database (``url``, default the local one)
    and analysed once, on the first measure.  Only a game with exactly one person
    has a history: the people taking turns at one keyboard share this computer's
    owner, and whose earlier play was whose cannot be told apart."""

    def __init__(self, url: str | None = None) -> None:
        self.url = url
        self._lock = threading.Lock()
        self._losses: dict[int, list[Any]] | None = None

    def losses(self, state: State) -> dict[int, list[Any]]:
        """Seat to the person's earlier games' losses (:class:`~yatzy.analysis.rating.
        GameLoss`, newest first); empty where there is none or nothing can be read."""
        with self._lock:
            if self._losses is None:
                self._losses = self._read(state)
            return self._losses

    def earlier(self, seat: int) -> int:
        """How many earlier games count for ``seat`` (0 before the first measure)."""
        with self._lock:
            return len((self._losses or {}).get(seat, []))

    def _read(self, state: State) -> dict[int, list[Any]]:
        from yatzy.analysis.measured import earlier_games_of, game_loss
        from yatzy.store import GameRepository
        from yatzy.store.local import existing_local_owner, owner_hash

        people = [i for i, p in enumerate(state.players) if p.bot is None]
        token = existing_local_owner()
        if len(people) != 1 or token is None:
            return {}
        try:
            repo = GameRepository.open(self.url, must_exist=True)
        except Exception:  # no database to read: no history (never a reason to stop)
            return {}
        try:
            read = earlier_games_of(repo, {people[0]: owner_hash(token)}, state.rules.spec)
            games = read() if read is not None else {}
        except Exception as exc:  # a database that cannot be read: no history
            _log.warning("earlier games not read", exc_info=exc)
            return {}
        finally:
            repo.close()
        found: dict[int, list[Any]] = {}
        for seat, earlier in games.items():
            losses = [game_loss(other, other_seat) for _, other_seat, other in earlier]
            found[seat] = [loss for loss in losses if loss is not None]
        return found


def measured_levels(
    state: State, history: PeopleHistory | None = None, analysis: Analysis | None = None
) -> dict[int, str]:
    """Each person's calibrated level from their decisions so far in this game and,
    with a ``history``, their earlier games of these rules on this computer, as the
    web's live chances count them (:func:`yatzy.analysis.measured.measured_from`): the
    points lost per turn, scaled to a whole game, mapped to the nearest level.  People
    with fewer than :data:`~yatzy.analysis.measured.MEASURED_AFTER` turns and no earlier
    game count at :data:`~yatzy.analysis.measured.PRIOR_LEVEL` (assumed).  Left out,
    counted as playing their best: bots, people who play near the best, and every
    person while the strategy table is not built.
    ``analysis``: the game's points analysis where the caller has made it already
    (the end's analysis in words), so it is not run twice."""
    from yatzy.analysis.measured import MEASURED_AFTER, PRIOR_LEVEL, own_turns
    from yatzy.bots import preparing

    people = [i for i, p in enumerate(state.players) if p.bot is None]
    if not people or state.starter is None or preparing("optimal", state.rules):
        return {}
    earlier = history.losses(state) if history is not None else {}
    if not any(earlier.get(seat) for seat in people) and (
        max(own_turns(state, seat) for seat in people) < MEASURED_AFTER
    ):
        return dict.fromkeys(people, PRIOR_LEVEL)  # nothing to measure yet: not even run
    from yatzy.analysis.measured import measured_from
    from yatzy.strategy.analyze import analyze

    seen = {seat: (0, 0.0) for seat in people}  # no turn yet: the earlier games alone
    if analysis is None:
        try:
            analysis = analyze(state) if state.log else None
        except YatzyError:  # no whole turn to analyse yet
            analysis = None
    if analysis is not None:
        seen |= {s.player: (len(s.expected), s.total_loss) for s in analysis.players}
    found = measured_from(state, seen, earlier)
    return {seat: m.level for seat, m in found.items() if m.level in MEASURED_LEVELS}


CHANCES_TIMEOUT_SECONDS = 180.0
"""A computation of the chances to win still out after this long is taken for one
that will not return (the full screen and the line mode): "?" or the words why, never
the last figure as current.  A fresh install's first chances take about a minute on an
idle machine (their kernels compile), so this is well past that."""


def chance_position(state: State) -> tuple[Any, ...]:
    """What the live chances depend on: the turn, the rolls and the dice, the totals."""
    dice = tuple(state.dice) if state.dice is not None else None
    return (state.turn_number, state.rolls_used, dice, tuple(state.totals()))


def live_chances(state: State, budget: float = 0.2, *, history: PeopleHistory | None = None) -> Any:
    """The live win chances of a game of two or more players
    (:class:`~yatzy.strategy.win_chance.WinChances`), or ``None`` for a solo game or
    when a table it needs is not built: a 5-dice rule set's table is built here
    (seconds), Maxi's (minutes) only by ``yatzy solve``, the bots or a hint.  A
    sub-game's table that solves within a second is solved (once per sheet).  People
    count at the level their play has shown (:func:`measured_levels`, with their
    earlier games on this computer where a ``history`` is given): a seat's ``level``
    says which (:func:`measured_line` puts it in words)."""
    if len(state.players) < 2:
        return None
    from yatzy.strategy.win_chance import TablesNotReady, win_chances

    measured = measured_levels(state, history)
    levels = [measured.get(i, p.bot) for i, p in enumerate(state.players)] if measured else None
    try:
        return win_chances(
            state,
            levels=levels,
            budget=budget,
            build=state.rules.num_dice == 5,
            solve_seconds=1.0,
        )
    except TablesNotReady:
        return None


def measured_line(
    state: State, result: Any, lang: Language, history: PeopleHistory | None = None
) -> str:
    """Who of the people counts at a measured level in ``result`` (of
    :func:`live_chances`), in words, as the web page says it: "Anna counts as playing
    like the computer level “Beginner”, as measured from this game so far." (and
    "... and their earlier games of these rules (4)." where a ``history`` counted
    some); "" when none does."""
    return measured_words(state, {s.seat: s.level for s in result.seats}, lang, history)


def measured_words(
    state: State, levels: dict[int, str], lang: Language, history: PeopleHistory | None = None
) -> str:
    """:func:`measured_line` of the seats' ``levels`` (seat to level name)."""
    from yatzy.analysis.measured import MEASURED_AFTER, own_turns
    from yatzy.cli.i18n import level_name

    said = []
    for seat, level in levels.items():
        if state.players[seat].bot is not None or level not in MEASURED_LEVELS:
            continue
        words = {"name": state.players[seat].name, "level": level_name(level, lang)}
        games = history.earlier(seat) if history is not None else 0
        if not games and own_turns(state, seat) < MEASURED_AFTER:  # not seen yet
            said.append(tr("win_assumed", lang, **words))
        elif games:
            said.append(tr("win_measured_earlier", lang, games=games, **words))
        else:
            said.append(tr("win_measured", lang, **words))
    return " ".join(said)


def chance_text(chance: float, margin: float, lang: Language) -> str:
    """A chance in percent, in plain words as the web page says it: to a tenth when
    exact ("54.3 %", never a certainty it is not: "> 99.9 %"), else "about 54 %" (to a
    tenth where the margin is that small; "under 3 %" or "over 97 %", bounded by the
    margin, where it would round to 0 or 100); the margin itself is said once per line
    (:func:`margin_text`).  A no-break space joins the figure to its "%", so a line
    never starts with the sign."""
    from yatzy.strategy.advice_words import ABOUT_PERCENT, OVER_PERCENT, UNDER_PERCENT

    pct = chance * 100
    if margin * 100 >= 0.5 and round(pct) <= 0:
        bound = max(1, math.ceil((chance + margin) * 100 - 1e-9))
        return UNDER_PERCENT.text(lang, percent=str(bound))
    if margin * 100 >= 0.5 and round(pct) >= 100:
        bound = min(99, math.floor((chance - margin) * 100 + 1e-9))
        return OVER_PERCENT.text(lang, percent=str(bound))
    if margin == 0 or margin * 100 < 0.5:
        if 0 < pct < 0.1:
            text = "<\u00a00.1"
        elif 99.9 < pct < 100:
            text = ">\u00a099.9"
        else:
            text = f"{pct:.1f}"
    else:
        text = f"{pct:.0f}"
    text = decimal(text, lang)
    return f"{text}\u00a0%" if margin == 0 else ABOUT_PERCENT.text(lang, percent=text)


def margin_text(margin: float, lang: Language) -> str:
    """The margin of simulated chances in percentage points, rounded up (never
    narrower than it is): "2", "0.4"."""
    m = margin * 100
    width = f"{math.ceil(m - 1e-9)}" if m >= 1 else f"{math.ceil(m * 10 - 1e-9) / 10:.1f}"
    return decimal(width, lang)


def chances_line(state: State, result: Any, lang: Language) -> str:
    """Every player's chance to win in one line (see :func:`live_chances`)."""
    parts = [
        f"{state.players[s.seat].name} {chance_text(s.chance, s.margin, lang)}"
        for s in result.seats
    ]
    if result.exact:
        return tr("win_line", lang, chances=" · ".join(parts))
    margin = margin_text(max(s.margin for s in result.seats), lang)
    return tr("win_line_simulated", lang, chances=" · ".join(parts), margin=margin)


def keep_in_stats(state: State, url: str | None, lang: Language) -> str:
    """Record a finished game in the local database (``yatzy stats``, the web history);
    the line that says so, or why not.  A game already there (its file resumed after
    the end) is not recorded again.  Never raises: a game is not lost for a database."""
    try:
        from yatzy.store.local import record_finished_game_once

        _, stored = record_finished_game_once(state, url=url, lang=lang)
    except Exception as exc:  # any store failure (path, driver, server) is only reported
        reason = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        return tr("stats_not_recorded", lang, reason=reason[:200])
    return tr("stats_recorded" if stored else "stats_already_recorded", lang)
