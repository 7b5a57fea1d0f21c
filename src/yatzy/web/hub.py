"""Live updates: WebSocket subscribers per game, fed locally and across processes.

A process announces each version it commits to its own subscribers at once.  With
PostgreSQL every commit is also announced with ``NOTIFY yatzy_games,
'id:version:origin'`` right after it (see :class:`yatzy.store.pg_writer.PgActionWriter`);
each server process LISTENs, drops its cached state of a game another process moved,
and forwards versions it has not sent yet, so a move made through one process
reaches clients of every other.  When the listening connection is lost, the process
reconnects and brings every game it follows up to date from the database.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
from collections import defaultdict
from typing import Any

import orjson
from starlette.websockets import WebSocket

from yatzy.store import ConflictError
from yatzy.store.pg_writer import NOTIFY_CHANNEL
from yatzy.web.service import GameService

log = logging.getLogger("yatzy.web")


class Hub:
    """The WebSocket clients of this process, grouped by game."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.sockets: dict[str, set[WebSocket]] = defaultdict(set)
        self.sent: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._changed: dict[str, float] = {}
        self._chances: set[WebSocket] = set()  # sockets that take {"type": "chances"}

    def count(self, game_id: str) -> int:
        """How many sockets of this process follow the game."""
        group = self.sockets.get(game_id)
        return 0 if group is None else len(group)

    def changed_at(self, game_id: str) -> float:
        """When (the event loop's clock) this process last sent the game's sockets an
        update; 0 if never."""
        return self._changed.get(game_id, 0.0)

    def subscribe(self, game_id: str, ws: WebSocket, *, chances: bool = False) -> None:
        """Send the game's updates to ``ws`` from now on (with ``chances``, also the
        live win chances as they are computed: see :meth:`send_chances`)."""
        self.sockets[game_id].add(ws)
        if chances:
            self._chances.add(ws)

    def unsubscribe(self, game_id: str, ws: WebSocket) -> None:
        """Stop sending to ``ws``."""
        self._chances.discard(ws)
        group = self.sockets.get(game_id)
        if group is not None:
            group.discard(ws)
            if not group:
                del self.sockets[game_id]
                self.sent.pop(game_id, None)
                self._locks.pop(game_id, None)
                self._changed.pop(game_id, None)

    async def announce(
        self,
        game_id: str,
        version: int,
        view_json: bytes | None = None,
        skip: WebSocket | None = None,
    ) -> None:
        """Send the game's view to its subscribers unless they have this version already.

        ``view_json`` is the public view of ``version`` as JSON when the caller has it;
        ``skip`` is a subscriber that gets this version by other means (the socket an
        action came by, which is answered with it).
        """
        if not self.sockets.get(game_id) or self.sent.get(game_id, -1) >= version:
            return
        async with self._locks[game_id]:
            if self.sent.get(game_id, -1) >= version or not self.sockets.get(game_id):
                return
            if view_json is None:
                view = await self.service.public_view(game_id)
                version, view_json = view["version"], orjson.dumps(view)
            self.sent[game_id] = version
            self._changed[game_id] = asyncio.get_running_loop().time()
            # {"type": "state", "game": view}, around the view's JSON as it is
            text = (b'{"type":"state","game":' + view_json + b"}").decode()
            for ws in list(self.sockets.get(game_id, ())):
                if ws is skip:
                    continue
                try:
                    await ws.send_text(text)
                except Exception:  # a closed socket: forget it
                    self.unsubscribe(game_id, ws)

    def send_chances(self, game_id: str, version: int, answer: dict[str, Any]) -> None:
        """Send the game's subscribers that asked for them (``?chances=1``) its live win
        chances of ``version`` as ``{"type": "chances", "version": v, "win_chances":
        {...}}`` (pages show the newest they have for the version they show; see
        :mod:`yatzy.web.chances`).  Other clients read them in the next view."""
        if not any(ws in self._chances for ws in self.sockets.get(game_id, ())):
            return
        text = orjson.dumps({"type": "chances", "version": version, "win_chances": answer})
        asyncio.get_running_loop().create_task(self._send_all(game_id, text.decode()))

    async def _send_all(self, game_id: str, text: str) -> None:
        async with self._locks[game_id]:  # one message at a time, as announce sends
            for ws in list(self.sockets.get(game_id, ())):
                if ws not in self._chances:
                    continue
                try:
                    await ws.send_text(text)
                except Exception:  # a closed socket: forget it
                    self.unsubscribe(game_id, ws)

    async def listen_postgres(self, dsn: str) -> None:
        """Forward PostgreSQL notifications of commits by any process (runs forever).

        asyncpg delivers each notification to a callback straight from its protocol,
        at a fraction of the CPU of psycopg's async notification generator (there is
        one for every action, this process's own included).
        """
        import asyncpg

        while True:
            conn = None
            try:
                conn = await asyncpg.connect(dsn, timeout=10)
                lost = asyncio.Event()
                conn.add_termination_listener(functools.partial(_on_lost, lost))
                await conn.add_listener(NOTIFY_CHANNEL, self._on_notification)
                # Notifications sent while no connection listened are gone: the games
                # followed here are brought up to date from the database instead.
                catch_up = asyncio.get_running_loop().create_task(self._catch_up())
                await lost.wait()
                catch_up.cancel()
                raise ConnectionError("the connection closed")
            except asyncio.CancelledError:
                if conn is not None:
                    conn.terminate()
                raise
            except Exception as exc:  # the database went away: retry shortly
                log.warning("LISTEN connection lost (%s); reconnecting", exc)
                if conn is not None:
                    conn.terminate()
                await asyncio.sleep(1.0)

    def _on_notification(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        game_id, _, rest = payload.partition(":")
        version, _, origin = rest.partition(":")
        if origin == self.service.repo.origin:
            # This process announced that commit itself, with the view at hand;
            # reloading it here would only cost CPU.
            return
        with contextlib.suppress(ValueError):
            if not self.sockets.get(game_id):
                # Nobody here follows the game: drop its state (the next request
                # reads it anew).  Otherwise the announcement brings it up to date.
                self.service.forget(game_id, older_than=int(version))
                return
            asyncio.get_running_loop().create_task(self._safe_announce(game_id, int(version)))

    async def _catch_up(self) -> None:
        for game_id in list(self.sockets):
            try:
                version = await self.service.repo.version_async(game_id)
            except Exception as exc:
                log.warning("cannot catch up on %s: %s", game_id, exc)
                continue
            await self._safe_announce(game_id, version)

    async def _safe_announce(self, game_id: str, version: int) -> None:
        try:
            await self.announce(game_id, version)
        except Exception as exc:
            log.warning("cannot announce %s:%s: %s", game_id, version, exc)


def _on_lost(lost: asyncio.Event, _conn: Any) -> None:
    lost.set()


class BotRunner:
    """Plays the bots' turns in background tasks, one action at a time, each stored."""

    def __init__(self, service: GameService, hub: Hub, delay: float, grace: float = 0.0) -> None:
        self.service = service
        self.hub = hub
        self.delay = delay
        self.grace = grace
        self.running: dict[str, asyncio.Task[Any]] = {}
        # (game, version) -> set when its person goes on (see _wait_for_undo)
        self.released: dict[tuple[str, int], asyncio.Event] = {}

    def kick(self, game_id: str) -> None:
        """Start playing the game's bots unless that is under way already."""
        if game_id in self.running:
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id))
        self.running[game_id] = task
        task.add_done_callback(lambda _t: self._done(game_id))

    def _done(self, game_id: str) -> None:
        self.running.pop(game_id, None)
        for key in [k for k in self.released if k[0] == game_id]:
            del self.released[key]

    def release(self, game_id: str, version: int) -> None:
        """The person whose write (at ``version``) a bot waits on goes on: the bot
        moves now."""
        if game_id in self.running:
            self.released.setdefault((game_id, version), asyncio.Event()).set()

    async def _wait_for_undo(self, game_id: str) -> None:
        """While a person may take back the write that the bot's move would follow,
        wait until they go on (:meth:`release`) or ``grace`` seconds pass; a new
        write (undone and written again meanwhile) gets its own grace."""
        while True:
            version = await self.service.undo_window(game_id)
            if version is None:
                return
            event = self.released.setdefault((game_id, version), asyncio.Event())
            try:
                await asyncio.wait_for(event.wait(), self.grace)
                return
            except TimeoutError:
                if await self.service.undo_window(game_id) in (version, None):
                    return
            finally:
                self.released.pop((game_id, version), None)

    async def _run(self, game_id: str) -> None:
        while True:
            await asyncio.sleep(self.delay)
            try:
                if self.grace > 0:
                    await self._wait_for_undo(game_id)
                version = await self.service.bot_step(game_id)
            except ConflictError:
                continue  # someone else moved first; look again
            except Exception as exc:
                log.exception("bot of game %s stopped: %s", game_id, exc)
                return
            if version is None:
                return
            await self.hub.announce(game_id, version)

    async def idle(self) -> None:
        """Wait until no bot is playing (used by tests)."""
        while self.running:
            await asyncio.gather(*self.running.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every bot task."""
        for task in list(self.running.values()):
            task.cancel()
        await asyncio.gather(*self.running.values(), return_exceptions=True)
