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
import math
from collections import defaultdict
from typing import Any

import orjson
from starlette.websockets import WebSocket

from yatzy.store import ConflictError
from yatzy.store.messages import MESSAGES_CHANNEL
from yatzy.store.pg_writer import NOTIFY_CHANNEL
from yatzy.web.limits import Limits, TooManySocketsError
from yatzy.web.service import GameService
from yatzy.web.shared_caps import SharedCounts

log = logging.getLogger("yatzy.web")


IDLE_CLOSE = 4408
"""The close code of a WebSocket closed for being idle (see :class:`Outbox`)."""

ABORT = "yatzy.abort"
"""The ASGI extension by which a server lets the app cut a connection at once:
``scope["extensions"][ABORT]["abort"]()`` (``yatzy serve``'s
:class:`yatzy.web.transport.SocketProtocol`)."""

WATCHING = "watching"
"""The shared counts' kind of who watches a game (:meth:`Hub.watched`)."""

EVICT_IDLE = 60.0
"""Seconds a socket must have been idle before a newcomer to a full server may close
it (see :meth:`Hub.admit`)."""


class Outbox:
    """One socket's way out: a bounded queue of messages drained by its own writer task.

    Nothing that sends to a socket waits for it (an action is answered however slowly
    other clients read): :meth:`put` queues a message, or closes the socket when
    ``size`` messages wait already.  The writer sends them one at a time; one that
    does not go out within ``drain`` seconds closes the socket as well.  Such a
    socket is cut at once where the server can (the :data:`ABORT` extension) and its
    session ends.  A socket that sent nothing for ``idle`` seconds while its game did
    not change either is closed with code 4408 (reason ``idle``) after the messages
    queued before.

    Made in the socket's session task (the route's), which is ended by cancelling it
    while it waits for the next message (:attr:`busy` is false then): a message is
    never cut off half answered.
    """

    def __init__(
        self,
        hub: Hub,
        ws: WebSocket,
        game_id: str,
        *,
        client: str = "",
        chances: bool = False,
        owner: str | None = None,
    ) -> None:
        limits = hub.limits
        task = asyncio.current_task()
        assert task is not None
        self.hub = hub
        self.ws = ws
        self.game_id = game_id
        self.client = client
        self.chances = chances
        self.owner = owner
        """The owner hash of the socket's viewer (a signed-in account's, else the
        owner cookie's), if any: the notifications skip a game's viewer."""
        self.session = task
        self.loop = task.get_loop()
        self.queue: asyncio.Queue[str | None] = asyncio.Queue(limits.socket_queue)
        self.drain = limits.socket_drain
        self.heard = self.loop.time()
        """When the socket last sent a message (the event loop's clock)."""
        self.busy = False
        """Whether the session is answering a message (then it is not cancelled)."""
        self.ended = False
        """Whether the outbox ended the session (the session then returns quietly)."""
        self.closing: tuple[int, str] | None = None
        self.idle = limits.socket_idle
        self.timer = None if self.idle is None else self.loop.call_later(self.idle, self._check)
        self.since: float | None = None
        """When the message on its way now was handed to the socket."""
        self.deadline: asyncio.TimerHandle | None = None
        self.writer = self.loop.create_task(self._write())

    def put(self, text: str) -> None:
        """Queue ``text`` for the socket; a socket that lets too many wait is dropped."""
        if self.closing is not None:
            return
        try:
            self.queue.put_nowait(text)
        except asyncio.QueueFull:
            self.drop(f"{self.queue.maxsize} messages waiting")

    def close(self, code: int, reason: str) -> None:
        """Close the socket after the messages queued already."""
        if self.closing is not None:
            return
        self.closing = (code, reason)
        try:
            self.queue.put_nowait(None)
        except asyncio.QueueFull:
            self.drop(f"{self.queue.maxsize} messages waiting")

    def drop(self, why: str) -> None:
        """Cut the socket at once, sending nothing more (it does not read)."""
        self.closing = self.closing or (1008, why)
        log.debug("socket of game %s from %s dropped: %s", self.game_id, self.client, why)
        abort = self.ws.scope.get("extensions", {}).get(ABORT)
        if abort is not None:
            abort["abort"]()
        if self.writer is not asyncio.current_task():
            self.writer.cancel()
        self._end()

    def stop(self) -> None:
        """The session ended: no more sending or idle checks."""
        self.writer.cancel()
        for timer in (self.timer, self.deadline):
            if timer is not None:
                timer.cancel()

    async def _write(self) -> None:
        while True:
            text = await self.queue.get()
            self.since = self.loop.time()
            if self.deadline is None:
                self.deadline = self.loop.call_at(self.since + self.drain, self._late)
            try:
                if text is not None:
                    await self.ws.send_text(text)
                else:
                    code, reason = self.closing or (1000, "")
                    await self.ws.close(code=code, reason=reason)
            except Exception:  # closed by the client: its session sees it
                self._end()
                return
            self.since = None
            if text is None:
                self._end()
                return

    def _late(self) -> None:
        """The drain deadline: one timer per socket while it sends, not one per
        message (every action sends one to each of its game's sockets)."""
        self.deadline = None
        if self.since is None:
            return  # nothing on its way now
        due = self.since + self.drain
        if self.loop.time() >= due:
            self.drop(f"a message did not go out in {self.drain:g} s")
        else:
            self.deadline = self.loop.call_at(due, self._late)

    def _end(self) -> None:
        if self.ended:
            return
        self.ended = True
        if not self.busy and self.session is not asyncio.current_task():
            self.session.cancel()

    def _check(self) -> None:
        assert self.idle is not None
        due = self.quiet_since() + self.idle
        if self.loop.time() >= due:
            self.close(IDLE_CLOSE, "idle")
        else:
            self.timer = self.loop.call_at(due, self._check)

    def quiet_since(self) -> float:
        """When the socket or its game last did something (the event loop's clock)."""
        return max(self.heard, self.hub.changed_at(self.game_id))


class Hub:
    """The WebSocket clients of this process, grouped by game, each with its
    :class:`Outbox`."""

    def __init__(self, service: GameService, limits: Limits | None = None) -> None:
        self.service = service
        self.limits = limits or Limits.off()
        self.sockets: dict[str, set[Outbox]] = defaultdict(set)
        self.sent: dict[str, int] = {}
        self._locks: dict[str, asyncio.Lock] = defaultdict(asyncio.Lock)
        self._changed: dict[str, float] = {}
        self.clients: dict[str, int] = defaultdict(int)
        """Open sockets per client key."""
        self.total = 0
        """Open sockets of this process."""
        self.shared: SharedCounts | None = None
        """The other processes' sockets per client (``--redis-url``/``--shared-limits``;
        the app sets it), counted against :attr:`Limits.sockets_per_client` too."""
        self.evict_idle = EVICT_IDLE
        """Seconds of quiet that make a socket give way to a newcomer when full."""
        self._publishing: set[asyncio.Task[None]] = set()
        self.watchers: dict[tuple[str, str], int] = {}
        """Open sockets per (game, viewer's owner hash): who looks at a game here.
        Changed on the event loop only; :meth:`watching` reads it from the push
        thread (one dict lookup, safe across threads)."""

    def count(self, game_id: str) -> int:
        """How many sockets of this process follow the game."""
        group = self.sockets.get(game_id)
        return 0 if group is None else len(group)

    def watching(self, game_id: str, owner: str) -> bool:
        """Whether a socket of this process shows the game to the owner hash ``owner``
        (then the owner needs no notification of it).  Callable from any thread."""
        return self.watchers.get((game_id, owner), 0) > 0

    def watched(self) -> dict[str, int]:
        """This process's sockets per :func:`watch_key` (the shared counts' source of
        kind ``"watching"``: the other processes' pushes skip these viewers)."""
        return {watch_key(game, owner): n for (game, owner), n in self.watchers.items()}

    async def publish_watching(self, box: Outbox) -> None:
        """Publish at once whether the outbox's viewer watches its game from this
        process (after :meth:`subscribe`, and by :meth:`unsubscribe`; every
        :data:`yatzy.web.shared_caps.PERIOD` s anyway): the other processes then
        send that viewer no push of the game.  Nothing without a shared store or a
        viewer."""
        if self.shared is not None and box.owner is not None:
            await self.shared.learn(WATCHING, watch_key(box.game_id, box.owner))

    def changed_at(self, game_id: str) -> float:
        """When (the event loop's clock) this process last sent the game's sockets an
        update; 0 if never."""
        return self._changed.get(game_id, 0.0)

    async def learn(self, client: str) -> None:
        """Publish this process's count of ``client``'s sockets to the shared store and
        learn what the other processes hold (before :meth:`admit`, and after
        :meth:`subscribe` counted a new one; nothing without a shared store)."""
        if self.shared is not None and self.limits.sockets_per_client is not None:
            await self.shared.learn("sockets", client)

    def admit(self, game_id: str, client: str) -> None:
        """Make room for one more socket of ``client`` on ``game_id``, or refuse it
        with :class:`TooManySocketsError`.

        A game takes :attr:`Limits.sockets_per_game` sockets, a client
        :attr:`Limits.sockets_per_client` (well below the process's cap, so no one
        address fills the server).  When the process holds
        :attr:`Limits.sockets_total`, the socket idle longest (itself and its game
        quiet for :attr:`evict_idle` s at least) is closed for the newcomer (code
        4408); only when none is idle is the newcomer refused.
        """
        most = self.limits.sockets_per_game
        if most is not None and self.count(game_id) >= most:
            raise TooManySocketsError(f"game {game_id} has {most} live sockets, the most it may")
        most = self.limits.sockets_per_client
        held = self.clients.get(client, 0)
        if self.shared is not None:  # and what the other processes hold
            held += self.shared.other("sockets", client)
        if most is not None and held >= most:
            raise TooManySocketsError(
                f"{client} has {most} live sockets, the most one client may have"
            )
        most = self.limits.sockets_total
        if most is None or self.total < most:
            return
        boxes = (box for group in self.sockets.values() for box in group if box.closing is None)
        oldest = min(boxes, key=Outbox.quiet_since, default=None)
        now = asyncio.get_running_loop().time()
        if oldest is None or now - oldest.quiet_since() < self.evict_idle:
            raise TooManySocketsError(
                f"the server has {most} live sockets and none idle; try again later"
            )
        oldest.close(IDLE_CLOSE, "idle")
        self._forget(oldest)  # its room is the newcomer's now

    def subscribe(
        self,
        game_id: str,
        ws: WebSocket,
        *,
        client: str = "",
        chances: bool = False,
        owner: str | None = None,
    ) -> Outbox:
        """Send the game's updates to ``ws`` from now on, through its new outbox (with
        ``chances``, also the live win chances as they are computed: see
        :meth:`send_chances`; ``owner``, its viewer's owner hash).  Called by the
        socket's session task."""
        box = Outbox(self, ws, game_id, client=client, chances=chances, owner=owner)
        self.sockets[game_id].add(box)
        if owner is not None:
            key = (game_id, owner)
            self.watchers[key] = self.watchers.get(key, 0) + 1
        self.clients[client] += 1
        self.total += 1
        return box

    def unsubscribe(self, box: Outbox) -> None:
        """Stop sending to the outbox's socket (its session ended); with a shared
        store, the other processes learn at once if its viewer no longer watches."""
        box.stop()
        self._forget(box)
        if self.shared is not None and box.owner is not None:
            task = asyncio.get_running_loop().create_task(self.publish_watching(box))
            self._publishing.add(task)
            task.add_done_callback(self._publishing.discard)

    def _forget(self, box: Outbox) -> None:
        group = self.sockets.get(box.game_id)
        if group is None or box not in group:
            return
        group.discard(box)
        self.total -= 1
        if box.owner is not None:
            key = (box.game_id, box.owner)
            left = self.watchers.get(key, 0) - 1
            if left > 0:
                self.watchers[key] = left
            else:
                self.watchers.pop(key, None)
        self.clients[box.client] -= 1
        if not self.clients[box.client]:
            del self.clients[box.client]
        if not group:
            del self.sockets[box.game_id]
            self.sent.pop(box.game_id, None)
            self._locks.pop(box.game_id, None)
            self._changed.pop(box.game_id, None)

    async def announce(
        self,
        game_id: str,
        version: int,
        view_json: bytes | None = None,
        skip: Outbox | None = None,
    ) -> None:
        """Send the game's view to its subscribers unless they have this version already.

        ``view_json`` is the public view of ``version`` as JSON when the caller has it
        (then nothing is awaited); ``skip`` is a subscriber that gets this version by
        other means (the socket an action came by, which is answered with it).  Each
        socket's message is queued on its :class:`Outbox`: no socket is waited for.
        """
        if not self.sockets.get(game_id) or self.sent.get(game_id, -1) >= version:
            return
        if view_json is None:
            async with self._locks[game_id]:
                if self.sent.get(game_id, -1) >= version or not self.sockets.get(game_id):
                    return
                view = await self.service.public_view(game_id)
                self._send_state(game_id, view["version"], orjson.dumps(view), skip)
        else:
            self._send_state(game_id, version, view_json, skip)

    async def refresh(self, game_id: str) -> None:
        """Send the game's subscribers its view again, though its version did not
        change (what it waits for did: :mod:`yatzy.web.awaiting`)."""
        if self.sockets.get(game_id):
            self.sent.pop(game_id, None)
            await self.announce(game_id, 0)  # the view as stored now

    def _send_state(
        self, game_id: str, version: int, view_json: bytes, skip: Outbox | None
    ) -> None:
        if self.sent.get(game_id, -1) >= version:
            return
        self.sent[game_id] = version
        self._changed[game_id] = asyncio.get_running_loop().time()
        # {"type": "state", "game": view}, around the view's JSON as it is
        text = (b'{"type":"state","game":' + view_json + b"}").decode()
        for box in list(self.sockets.get(game_id, ())):
            if box is not skip:
                box.put(text)

    def send_chances(self, game_id: str, version: int, answer: dict[str, Any]) -> None:
        """Send the game's subscribers that asked for them (``?chances=1``) its live win
        chances of ``version`` as ``{"type": "chances", "version": v, "win_chances":
        {...}}`` (pages show the newest they have for the version they show; see
        :mod:`yatzy.web.chances`).  Other clients read them in the next view."""
        boxes = [box for box in self.sockets.get(game_id, ()) if box.chances]
        if not boxes:
            return
        text = orjson.dumps({"type": "chances", "version": version, "win_chances": answer})
        message = text.decode()
        for box in boxes:
            box.put(message)

    def nudge_messages(self, game_id: str | None, owners: set[str]) -> None:
        """Tell this process's sockets whose viewer is one of the owner hashes
        ``owners`` (of the game ``game_id``; None: of any game) that the game's free
        text changed for them: ``{"type": "messages", "game": id}``, no text (the page
        reads what it may see: :mod:`yatzy.web.messages`).  Nobody else's socket
        hears of it."""
        games = [game_id] if game_id is not None else list(self.sockets)
        for gid in games:
            message = orjson.dumps({"type": "messages", "game": gid}).decode()
            for box in list(self.sockets.get(gid, ())):
                if box.owner is not None and box.owner in owners:
                    box.put(message)

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
                await conn.add_listener(MESSAGES_CHANNEL, self._on_messages)
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

    def _on_messages(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        """A line of free text written through any process (``game:origin:owners``;
        ``*`` for the game when ties changed): this process nudges its own sockets of
        those owners, unless it wrote the line itself (and nudged them then)."""
        game_id, _, rest = payload.partition(":")
        origin, _, owners = rest.partition(":")
        if origin == self.service.repo.origin:
            return
        self.nudge_messages(None if game_id == "*" else game_id, set(owners.split(",")))

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


def watch_key(game_id: str, owner: str) -> str:
    """The shared counts' client key of ``owner`` (a viewer's owner hash) watching
    ``game_id``."""
    return f"{game_id}:{owner}"


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
        # the (game, version) writes whose person went on (see _wait_for_undo)
        self.released: set[tuple[str, int]] = set()
        # game -> set when something happens that a bot waiting on an undo must see
        self.wakes: dict[str, asyncio.Event] = {}
        self.lapses: dict[str, asyncio.TimerHandle] = {}
        """Per game waiting for invited friends: the look again when the first
        invitation lapses (:meth:`_at_lapse`)."""

    def kick(self, game_id: str) -> None:
        """Start playing the game's bots unless that is under way already (then the
        bot waiting on an undo looks at the game again: a write taken back and made
        anew gets its own grace, see :meth:`_wait_for_undo`)."""
        if game_id in self.running:
            self._wake(game_id)
            return
        task = asyncio.get_running_loop().create_task(self._run(game_id))
        self.running[game_id] = task
        task.add_done_callback(lambda _t: self._done(game_id))

    def _done(self, game_id: str) -> None:
        self.running.pop(game_id, None)
        self.released = {k for k in self.released if k[0] != game_id}

    def _wake(self, game_id: str) -> None:
        event = self.wakes.get(game_id)
        if event is not None:
            event.set()

    def release(self, game_id: str, version: int) -> None:
        """The person whose write (at ``version``) a bot waits on goes on: the bot
        moves now."""
        if game_id in self.running:
            self.released.add((game_id, version))
            self._wake(game_id)

    async def _wait_for_undo(self, game_id: str) -> None:
        """While a person may take back the write that the bot's move would follow,
        wait until they go on (:meth:`release`): however long it takes where every
        person plays on one device (against the computer, pass and play: "until your
        next action"), else until ``grace`` seconds pass (people on several devices:
        an absent one never holds the others up); a new write (undone and written
        again meanwhile) gets its own grace.  The wait looks at the game again whenever
        it is woken (a release, or an action that starts the bots: :meth:`kick`), so
        going on after an undo and a new write lets the bot move at once rather than
        when the first write's grace ends."""
        loop = asyncio.get_running_loop()
        version, deadline = -1, 0.0
        try:
            while True:
                # made before the game is read: a wake-up meanwhile is not lost
                wake = self.wakes[game_id] = asyncio.Event()
                window = await self.service.undo_window(game_id)
                if window is None or (game_id, window[0]) in self.released:
                    return
                current, patient = window
                if current != version:  # a new write: its own grace
                    grace = math.inf if patient else self.grace
                    version, deadline = current, loop.time() + grace
                left = deadline - loop.time()
                if left <= 0:
                    return
                with contextlib.suppress(TimeoutError):
                    await asyncio.wait_for(wake.wait(), None if math.isinf(left) else left)
        finally:
            self.wakes.pop(game_id, None)

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
                self._at_lapse(game_id)
                return
            await self.hub.announce(game_id, version)

    def _at_lapse(self, game_id: str) -> None:
        """A game whose computers wait for invited friends: look again when the first
        invitation lapses (an answer looks at once: the invitations kick the bots)."""
        until = self.service.invited.until(game_id)
        if until is None:
            return
        old = self.lapses.pop(game_id, None)
        if old is not None:
            old.cancel()
        seconds = (until - self.service.invited.clock()).total_seconds()
        loop = asyncio.get_running_loop()
        self.lapses[game_id] = loop.call_later(max(seconds, 0.0) + 1.0, self._lapsed, game_id)

    def _lapsed(self, game_id: str) -> None:
        self.lapses.pop(game_id, None)
        self.kick(game_id)

    async def idle(self) -> None:
        """Wait until no bot is playing (used by tests)."""
        while self.running:
            await asyncio.gather(*self.running.values(), return_exceptions=True)

    async def stop(self) -> None:
        """Cancel every bot task."""
        for timer in self.lapses.values():
            timer.cancel()
        self.lapses.clear()
        for task in list(self.running.values()):
            task.cancel()
        await asyncio.gather(*self.running.values(), return_exceptions=True)
