"""Rated games (issue 27): who may start and join them, what they refuse while they
run, and what happens when one ends.

* **Who**: people only, each in a seat of their own, each signed in to an account
  (a rating belongs to an account, on every device): a rated game has 2 to 8
  seats, no computer player, no score pad (its dice are not dealt), and no hints.
  The creator holds at most one seat; the others join with the invite while signed
  in (:meth:`RatedGames.check_join`).
* **Fair play while it runs**: hints, undo, the analysis and the live win chances
  are refused to every viewer (players and spectators alike, who could relay them)
  until the game is over (:class:`RatedGameError`, 409).
* **When it ends** (:meth:`RatedGames.finished`, from whichever process sees it
  first): every player's OpenSkill rating is updated exactly once (the store's
  guard, :meth:`yatzy.store.ratings.RatingStore.settle`); then the game's analysis
  runs as a background job (the ``analyses`` queue of ``yatzy worker`` processes
  where there is one, else this process's own small pool), each player's loss and
  best plays are kept for the skill index, and the fair-play review
  (:mod:`yatzy.analysis.fairplay`) runs for each; a flagged account is recorded for
  an operator (``yatzy review``), never shown or banned.
"""

from __future__ import annotations

import logging
import threading
from collections import OrderedDict
from collections.abc import Sequence
from concurrent.futures import Future
from typing import Any, Protocol

from yatzy.analysis.fairplay import GameMatches, review
from yatzy.analysis.rating import family, update_ratings
from yatzy.errors import YatzyError
from yatzy.game import State, from_record, to_record
from yatzy.rules import RuleSet
from yatzy.store import GameRepository, StoredGame
from yatzy.store.ratings import RatedGame, RatingStore, RatingTuple, SeatTakenError, SkillGame
from yatzy.web.jobs import Jobs, JobSpec, active_queue, register

log = logging.getLogger("yatzy.web")

_KNOWN = 20_000
"""Games whose rated flag a process remembers (it never changes after creation)."""


class RatedGameError(YatzyError):
    """Something a rated game refuses while it runs (hints, undo, analysis)."""

    http_status = 409


class RatedSetupError(YatzyError):
    """A rated game that cannot be made as asked (a bot, one seat, a score pad...)."""

    http_status = 422


class RatedAccountError(YatzyError):
    """A seat of a rated game for someone who is not signed in (or holds one already)."""

    http_status = 403


class SeatLike(Protocol):
    """A seat asked for at creation (:class:`yatzy.web.service.SeatRequest`)."""

    @property
    def bot(self) -> str | None:
        """The bot level, or None for a person."""

    @property
    def here(self) -> bool:
        """Whether the creating browser claims it."""


def check_new(seats: Sequence[SeatLike], account_id: str | None, pad: bool, hints: bool) -> None:
    """Refuse a rated game that breaks the rules of :mod:`yatzy.web.rated` (nothing is
    stored yet)."""
    if account_id is None:
        raise RatedAccountError("a rated game is started by a signed-in account")
    if any(s.bot is not None for s in seats):
        raise RatedSetupError("a rated game is played between people: no computer players")
    if len(seats) < 2:
        raise RatedSetupError("a rated game has at least two players")
    if sum(1 for s in seats if s.here) > 1:
        raise RatedSetupError(
            "in a rated game every player has a seat of their own: claim one, invite the others"
        )
    if pad:
        raise RatedSetupError("a score pad game cannot be rated: its dice are not dealt")
    if hints:
        raise RatedSetupError("a rated game is played without hints")


class RatedGames:
    """The rated games of one server process (see the module docstring)."""

    def __init__(self, repo: GameRepository) -> None:
        self.store = RatingStore(repo)
        self._known: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()
        self._settling: set[str] = set()
        self._done: set[str] = set()  # rated and analysed (bounded by _remember's count)
        self._pool: Jobs | None = None
        self.pending: list[Future[Any]] = []
        """The background work started (tests wait on it)."""

    # -- the flag -------------------------------------------------------------------------

    def _remember(self, game_id: str, rated: bool) -> None:
        with self._lock:
            self._known[game_id] = rated
            self._known.move_to_end(game_id)
            while len(self._known) > _KNOWN:
                self._known.popitem(last=False)

    def known(self, game_id: str) -> bool | None:
        """Whether the game is rated, if this process knows (no I/O)."""
        with self._lock:
            return self._known.get(game_id)

    def is_rated(self, game_id: str) -> bool:
        """Whether the game is rated (read once per game, then remembered)."""
        found = self.known(game_id)
        if found is None:
            found = self.store.rated_game(game_id) is not None
            self._remember(game_id, found)
        return found

    def refuse_while_running(self, game_id: str, state: State, what: str) -> None:
        """:class:`RatedGameError` when ``game_id`` is a rated game still in play."""
        if not state.is_terminal() and self.is_rated(game_id):
            raise RatedGameError(f"{what} are not available in a rated game until it is over")

    def running_rated(self, game_id: str, state: State) -> bool:
        """Whether the game is known to be rated and still in play (no I/O: the flag
        is read when the game is created or loaded)."""
        return bool(self.known(game_id)) and not state.is_terminal()

    # -- creating and joining ---------------------------------------------------------------

    def mark(self, game_id: str, rules: RuleSet | str, seats: dict[int, str]) -> None:
        """Store the new game as rated, with the creator's seat (if any)."""
        self.store.mark_rated(game_id, family(rules), seats)
        self._remember(game_id, True)

    def check_join(self, game_id: str, account_id: str | None) -> bool:
        """Before a seat is claimed: refuse a guest, or an account in the game already;
        whether the game is rated."""
        if not self.is_rated(game_id):
            return False
        if account_id is None:
            raise RatedAccountError("a rated game is joined by a signed-in account: log in first")
        rated = self.store.rated_game(game_id)
        if rated is not None and account_id in rated.seats.values():
            raise RatedAccountError("this account already plays in this rated game")
        return True

    def joined(self, game_id: str, seat: int, account_id: str) -> None:
        """Note the account that claimed a seat of a rated game."""
        try:
            self.store.add_seat(game_id, seat, account_id)
        except SeatTakenError as exc:
            raise RatedAccountError(str(exc)) from None

    # -- the end ------------------------------------------------------------------------------

    def finished(self, stored: StoredGame, state: State) -> None:
        """A rated game is over: rate it and queue its analysis, in the background
        (at most once at a time per game in this process; once in all by the store)."""
        if not state.is_terminal() or self.known(stored.id) is False:
            return
        with self._lock:
            if stored.id in self._settling or stored.id in self._done:
                return
            self._settling.add(stored.id)
        future: Future[Any] = Future()
        self.pending.append(future)
        frozen = state.clone()
        worker = threading.Thread(
            target=self._settle, args=(stored.id, frozen, future), daemon=True, name="rating"
        )
        worker.start()

    def settle_now(self, game_id: str, state: State) -> None:
        """Rate the finished game and queue its analysis (in the calling thread)."""
        rated = self.store.rated_game(game_id)
        if rated is None:
            return
        if rated.rated and rated.analysed:
            with self._lock:
                if len(self._done) >= _KNOWN:
                    self._done.clear()
                self._done.add(game_id)
            return
        if not rated.rated:
            self._rate(rated, state)
        if not rated.analysed:
            self._analyse(rated, state)

    def _settle(self, game_id: str, state: State, future: Future[Any]) -> None:
        try:
            self.settle_now(game_id, state)
            future.set_result(None)
        except Exception as exc:  # logged; another look at the game tries again
            log.warning("rating game %s failed: %s", game_id, exc)
            future.set_exception(exc)
        finally:
            with self._lock:
                self._settling.discard(game_id)

    def _rate(self, rated: RatedGame, state: State) -> None:
        seats = range(len(state.players))
        if any(s not in rated.seats for s in seats):
            log.warning("rated game %s ended with a seat of no account", rated.game_id)
            return
        totals = state.totals()
        results = [(rated.seats[s], int(totals[s])) for s in seats]

        def update(before: dict[str, RatingTuple | None]) -> dict[str, RatingTuple]:
            return update_ratings(state.rules, before, results)

        self.store.settle(rated.game_id, results, update)

    def _analyse(self, rated: RatedGame, state: State) -> None:
        spec = JobSpec(
            "rated_analysis",
            {"record": to_record(state)},
            name=f"rated_analysis:{rated.game_id}",
        )
        queue: Any = active_queue("analyses")
        if queue is None:
            with self._lock:
                if self._pool is None:
                    self._pool = Jobs(workers=1, queue_limit=256, per_client=256, name="rated")
                queue = self._pool
        done: Future[Any] = Future()
        self.pending.append(done)

        def keep(result: Any, error: BaseException | None) -> None:
            try:
                if error is not None:
                    raise error
                self._keep(rated, result)
                done.set_result(None)
            except BaseException as exc:  # logged: a later look at the game tries again
                log.warning("analysing rated game %s failed: %s", rated.game_id, exc)
                done.set_exception(exc)

        queue.submit(spec, then=keep)

    def _keep(self, rated: RatedGame, result: dict[str, Any]) -> None:
        """Keep the analysis of each player, then review each for fair play."""
        games = [
            SkillGame(
                rated.seats[int(seat)],
                rated.game_id,
                int(p["decisions"]),
                float(p["total_loss"]),
                int(p["best"]),
                bool(result["exact"]),
            )
            for seat, p in result["players"].items()
            if int(seat) in rated.seats
        ]
        if not self.store.record_analysis(rated.game_id, games):
            return
        for g in games:
            self.review(g.account_id, rated.family)

    def review(self, account_id: str, family_name: str) -> bool:
        """Run the fair-play review over the account's analysed rated games of the
        family; record a flag when it flags (whether it did)."""
        kept = self.store.skill_games(account_id, family_name)
        verdict = review(GameMatches(g.decisions, g.best, g.exact) for g in kept)
        if verdict.flagged:
            self.store.flag(
                account_id,
                family_name,
                verdict.games,
                verdict.decisions,
                verdict.best,
                verdict.p_value,
            )
        return verdict.flagged

    def wait(self, timeout: float = 60.0) -> None:
        """Wait for the background work started so far (tests)."""
        for future in list(self.pending):
            future.exception(timeout)


def rated_analysis_job(args: dict[str, Any]) -> dict[str, Any]:
    """A job: each seat's decisions, points lost and best plays in the finished game
    of ``args["record"]``, and whether the analysis was exact."""
    from yatzy.strategy.analyze import analyze

    state = from_record(args["record"])
    analysis = analyze(state)
    return {
        "exact": bool(analysis.exact),
        "players": {
            str(p.player): {
                "decisions": p.decisions if p.complete else 0,
                "total_loss": p.total_loss if p.complete else 0.0,
                "best": p.best_decisions if p.complete else 0,
            }
            for p in analysis.players
        },
    }


register("rated_analysis", rated_analysis_job)
