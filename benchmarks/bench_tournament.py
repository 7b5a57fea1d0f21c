"""A tournament of simulated players, run end to end through the web app's services.

``--players`` accounts (200) join a tournament of ``--rounds`` rounds (3) at tables of
``--table-size`` (4) with duplicate dice; each account is a bot of one of the
calibrated levels (random, greedy, beginner, casual, strong, optimal, in turn).  The
tournament is started and advanced by :class:`yatzy.web.tournaments.TournamentService`
with a clock the benchmark moves, and every move goes through
:meth:`yatzy.web.service.GameService.act` with the seat held by the account (as the
action route does after its HTTP layer: no HTTP here, which would measure the test
client rather than the tournament).  Printed: the time of each phase, the games and
moves and moves per second, the standings query's time (during a round, with its live
scores, and at the end), and each level's mean final place; the run fails when the
stronger levels do not end higher on average (by mean place, in groups of clearly
different strength: random, then greedy and beginner, then casual, then strong and
optimal; within a group the calibrated losses differ by a few points a game, which
three rounds do not tell apart).

    .venv/bin/python benchmarks/bench_tournament.py
    .venv/bin/python benchmarks/bench_tournament.py --database-url postgresql://...
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import random
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

from yatzy.bots import Bot, make_bot
from yatzy.game import CHANCE, TERMINAL, action_to_json
from yatzy.store import GameRepository
from yatzy.store.accounts import Account, AccountStore, account_owner, owner_hash
from yatzy.web.service import AccountKey, GameService
from yatzy.web.tournament_models import CreateTournamentIn
from yatzy.web.tournaments import TournamentService

LEVELS = ("random", "greedy", "beginner", "casual", "strong", "optimal")
NOW = datetime(2031, 5, 17, 12, 0, tzinfo=UTC)


async def play_round(
    service: GameService, games: list[str], players: dict[str, tuple[str, Bot]], rng: random.Random
) -> int:
    """Play the games of a round to their end, all at once (their commits overlap, as
    many players' would), each seat by its account's bot (``players``: owner hash ->
    account id and bot); the number of moves."""

    async def play(game_id: str) -> int:
        moves = 0
        stored, state = await service.load(game_id)
        while True:
            seat = state.current_player()
            if seat in (CHANCE, TERMINAL):
                return moves
            account, bot = players[stored.seats[seat].owner_hash or ""]
            action = bot.choose(state, rng)
            stored, state = await service.act(
                game_id, action_to_json(action), {seat: AccountKey(account)}
            )
            moves += 1

    return sum(await asyncio.gather(*(play(g) for g in games)))


async def run(args: argparse.Namespace) -> bool:
    url = args.database_url or f"sqlite:///{Path(tempfile.mkdtemp()) / 'bench.db'}"
    repo = await asyncio.to_thread(GameRepository.open, url)
    service = GameService(repo)
    now = [NOW]
    tournaments = TournamentService(service, clock=lambda: now[0])
    people = AccountStore(repo)
    rng = random.Random(args.seed)
    accounts: list[Account] = []
    level_of: dict[str, str] = {}
    for i in range(args.players):
        level = LEVELS[i % len(LEVELS)]
        a = people.create(f"{rng.getrandbits(128):032x}", f"P{i:03d}-{level}", f"p{i}", "x", [])
        accounts.append(a)
        level_of[a.id] = level
    bots = {level: make_bot(level) for level in LEVELS}  # tables loaded before timing
    players = {owner_hash(account_owner(a)): (a, bots[level]) for a, level in level_of.items()}
    started = time.perf_counter()
    t = await tournaments.create(
        accounts[0],
        CreateTournamentIn(
            name="Bench cup",
            starts_at=(NOW + timedelta(hours=1)).isoformat(),
            rounds=args.rounds,
            table_size=args.table_size,
            duplicate=True,
        ),
    )
    for a in accounts:
        await tournaments.join(t.id, a)
    joined = time.perf_counter()
    print(f"{args.players} players joined in {joined - started:.2f} s ({url.split(':')[0]})")
    now[0] = NOW + timedelta(hours=1)
    total_moves = total_games = 0
    play_time = advance_time = 0.0
    live_query = 0.0
    for round_no in range(1, args.rounds + 1):
        t0 = time.perf_counter()
        view = await tournaments.view(t.id, None, "en")  # starts it / seats the round
        advance_time += time.perf_counter() - t0
        assert view["round"] == round_no and view["state"] == "running", view["state"]
        seats = await asyncio.to_thread(tournaments.store.seats, t.id, round_no)
        games = list(dict.fromkeys(s.game_id for s in seats))  # the tables' games, in order
        t0 = time.perf_counter()
        half = games[: len(games) // 2]
        moves = await play_round(service, half, players, rng)
        t1 = time.perf_counter()
        await tournaments.standings_of(t.id)  # live: half the round's games over
        live_query = max(live_query, time.perf_counter() - t1)
        t2 = time.perf_counter()
        moves += await play_round(service, games[len(games) // 2 :], players, rng)
        play_time += time.perf_counter() - t2 + (t1 - t0)
        total_moves += moves
        total_games += len(games)
        print(
            f"round {round_no}: {len(games)} games, {moves} moves "
            f"in {time.perf_counter() - t0:.1f} s"
        )
    t0 = time.perf_counter()
    final = await tournaments.view(t.id, None, "en")
    advance_time += time.perf_counter() - t0
    assert final["state"] == "finished", final["state"]
    t0 = time.perf_counter()
    standings = await tournaments.standings_of(t.id)
    end_query = time.perf_counter() - t0
    elapsed = time.perf_counter() - started
    print(f"end to end: {elapsed:.1f} s; {total_games} games, {total_moves} moves")
    print(f"moves/s while playing: {total_moves / play_time:.0f} (bots' thinking included)")
    print(f"starting, closing and seating rounds: {advance_time:.2f} s in all")
    print(
        f"standings query: {live_query * 1000:.0f} ms live (half a round over), "
        f"{end_query * 1000:.0f} ms at the end"
    )
    places: dict[str, list[int]] = {level: [] for level in LEVELS}
    for s in standings:
        places[level_of[s.account_id]].append(s.place)
    means = {level: statistics.fmean(p) for level, p in places.items()}
    print("mean final place by level (1 is first):")
    for level in LEVELS:
        print(f"  {level:<9} {means[level]:6.1f}")
    print("podium:", ", ".join(f"{s.place}. {s.name} {s.total}" for s in standings[:3]))
    # Groups of levels whose calibrated strengths differ clearly (greedy and beginner
    # lose about 30 points a game against optimal play, strong 4): each group ends
    # higher on average than the one before.
    groups = [("random",), ("greedy", "beginner"), ("casual",), ("strong", "optimal")]
    mean_of = [statistics.fmean(p for level in g for p in places[level]) for g in groups]
    ok = all(a > b for a, b in itertools.pairwise(mean_of))
    shown = [f"{'+'.join(g)} {m:.1f}" for g, m in zip(groups, mean_of, strict=True)]
    print("mean place by group:", ", ".join(shown))
    print("stronger levels end higher on average:", "yes" if ok else "NO")
    await repo.aclose()
    repo.close()
    return ok


def main() -> None:
    """Run the benchmark (see the module's docstring)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--players", type=int, default=200)
    p.add_argument("--rounds", type=int, default=3)
    p.add_argument("--table-size", type=int, default=4)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--database-url", default=None, help="default: a fresh SQLite file")
    ok = asyncio.run(run(p.parse_args()))
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
