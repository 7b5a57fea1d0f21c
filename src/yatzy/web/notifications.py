"""Notifications by Web Push to signed-in players' devices.

What is sent (each kind on or off per account, :data:`KINDS`):

* ``turn``: a move makes it an account's turn in a game, moved by someone else (a
  person of another account, or a computer after such a person), and the account has
  no socket open on the game (in this process, or in any other where a shared store
  counts them: :meth:`yatzy.web.hub.Hub.publish_watching`; the service worker also
  shows nothing when a window of the game is in view);
* ``friend``: another account asks to be friends (not when the asker is blocked);
* ``ended``: a game of the account ends by another's move (or a computer's after it);
* ``invite``: another account invites this one to a game (:func:`notify`, called by
  the invitations).

A payload carries the kind, the game's id (where there is one) and the title and
body in the device's language (:data:`WORDS`); pywebpush encrypts it for the device
(aes128gcm, RFC 8291) and signs the request with the server's VAPID key (RFC 8292),
kept in the database (``app_settings``) so that every process signs with the same.

Nothing here blocks an action: an event is put on a bounded queue
(:class:`Notifier`), and one thread of the process looks up the devices and posts
to their push services with a timeout.  A move queues nothing unless a player it
concerns has a device (:attr:`Notifier.owners`, read every :data:`OWNERS_EVERY` s).
A device the push service answers 404 or 410 for is forgotten; other failures are
logged, at most one line a minute with the number since.
"""

from __future__ import annotations

import base64
import contextlib
import logging
import os
import queue
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any
from urllib.parse import urlsplit

import orjson

from yatzy.errors import YatzyError
from yatzy.game import State
from yatzy.i18n import LANGUAGES, N_, Message, messages
from yatzy.store import GameRepository
from yatzy.store.push import Device, PushStore
from yatzy.store.stored import StoredGame
from yatzy.web.catalog import rules_name
from yatzy.web.models import PushExport

log = logging.getLogger("yatzy.web")

KINDS = ("turn", "friend", "ended", "invite")
"""The kinds of notification, each on or off per account (all on at first)."""

MOST_DEVICES = 10
"""Devices an account may have subscribed at once; a new one beyond that replaces
the account's oldest."""

QUEUE_SIZE = 2000
"""Events waiting to be sent, at most; past it an event is dropped (and logged)."""

SEND_TIMEOUT = 5.0
"""Seconds a push service has to answer one request."""

OWNERS_EVERY = 30.0
"""Seconds between two reads of which accounts have devices: a device subscribed
through another server process counts for ``turn`` and ``ended`` here within that."""

TTL = 24 * 3600
"""Seconds a push service keeps a message for a device that is off."""

VAPID_SETTING = "vapid_private_key"
"""The ``app_settings`` row of the server's VAPID private key (PEM)."""

WORDS: dict[str, Message] = messages(
    "push.",
    N_("push.turn_title", "Your turn"),
    N_("push.turn_body", "{name} has played in {game}. Your move!"),
    N_("push.friend_title", "Friend request"),
    N_("push.friend_body", "{name} wants to be your friend."),
    N_("push.ended_title", "Game over"),
    N_("push.ended_body", "{game} is over. See how it went."),
    N_("push.invite_title", "Invitation"),
    N_("push.invite_body", "{name} invites you to a game of {game}."),
)
"""The notifications' words; ``{game}`` is the rules' name, ``{name}`` a person's."""


def message(kind: str, lang: str, payload: dict[str, Any]) -> dict[str, str]:
    """What a device gets for an event: ``kind``, ``game`` (the id, where there is
    one) and the ``title`` and ``body`` in ``lang``."""
    words: Any = lang if lang in LANGUAGES else "en"
    rules = payload.get("rules")
    game = rules_name(str(rules), words) if rules else "Yatzy"
    fields = {"name": str(payload.get("name") or "?")[:40], "game": game}
    out = {
        "kind": kind,
        "title": WORDS[kind + "_title"].text(words, **fields),
        "body": WORDS[kind + "_body"].text(words, **fields),
    }
    if payload.get("game"):
        out["game"] = str(payload["game"])[:64]
    return out


class BadEndpointError(YatzyError):
    """A push subscription whose endpoint the server will not post to."""

    http_status = 422


TEST_PUSH_LOOPBACK_ENV = "YATZY_TEST_PUSH_LOOPBACK"
"""Test only: set to ``1``, a served app takes plain-HTTP push endpoints on 127.0.0.1
(a browser test's loopback push service; :func:`check_endpoint`), as
``create_app(push_loopback=True)`` does.  Never set it in production: a subscription
could then make the server post to its own machine."""


def loopback_from_env() -> bool:
    """Whether :data:`TEST_PUSH_LOOPBACK_ENV` asks for loopback push endpoints (tests)."""
    return os.environ.get(TEST_PUSH_LOOPBACK_ENV) == "1"


def check_endpoint(endpoint: str, loopback: bool = False) -> str:
    """``endpoint`` if the server may post to it: an ``https`` URL on a named host
    (not an address, not ``localhost``: a subscription must not turn the server
    against its own network), or with ``loopback`` also ``http`` on 127.0.0.1 (the
    tests' push service); else :class:`BadEndpointError`."""
    import ipaddress

    parts = urlsplit(endpoint)
    host = (parts.hostname or "").lower()
    if loopback and parts.scheme == "http" and host == "127.0.0.1":
        return endpoint
    try:
        ipaddress.ip_address(host)
        literal = True
    except ValueError:
        literal = False
    if parts.scheme != "https" or not host or literal or host == "localhost" or "." not in host:
        raise BadEndpointError("a push endpoint is an https URL on a named host")
    if parts.username or parts.password:
        raise BadEndpointError("a push endpoint has no user name or password")
    return endpoint


def push_contact_of(contact: str | None, public_url: str | None) -> str:
    """The VAPID contact (``sub``): ``contact``, else the public URL where it is
    ``https``, else ``mailto:webmaster@localhost``."""
    if contact:
        return contact
    if public_url and public_url.startswith("https://"):
        return public_url
    return "mailto:webmaster@localhost"


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def new_vapid_key() -> str:
    """A new VAPID private key (P-256), as PEM."""
    from cryptography.hazmat.primitives import serialization
    from cryptography.hazmat.primitives.asymmetric import ec

    key = ec.generate_private_key(ec.SECP256R1())
    return key.private_bytes(
        serialization.Encoding.PEM,
        serialization.PrivateFormat.PKCS8,
        serialization.NoEncryption(),
    ).decode()


class Sampled:
    """Failures logged at most once a ``every`` seconds, with the count since."""

    def __init__(self, every: float = 60.0) -> None:
        self.every = every
        self.last = -every
        self.count = 0

    def warn(self, text: str, *args: Any, exc_info: bool = False) -> None:
        self.count += 1
        now = time.monotonic()
        if now - self.last < self.every:
            return
        log.warning(
            "push: " + text + " (%d such since the last line)",
            *args,
            self.count,
            exc_info=exc_info,
        )
        self.last, self.count = now, 0


class Notifier:
    """The Web Push of one server process: the VAPID key, a bounded queue of events
    and the thread that sends them (see the module's docstring).

    ``contact`` is the VAPID ``sub`` claim (a ``mailto:`` or ``https:`` URL by which a
    push service may reach the operator); ``watching(game_id, owner_hash)`` says
    whether the owner has a socket open on the game (asked in the sending thread, so
    it may ask a shared store, briefly: see :func:`watching_anywhere`).
    """

    def __init__(
        self,
        repo: GameRepository,
        *,
        contact: str = "mailto:webmaster@localhost",
        timeout: float = SEND_TIMEOUT,
        size: int = QUEUE_SIZE,
    ) -> None:
        self.store = PushStore(repo)
        self.contact = contact
        self.timeout = timeout
        self.queue: queue.Queue[_Event | None] = queue.Queue(maxsize=size)
        self.watching: Callable[[str, str], bool] = lambda _game, _owner: False
        self.stood_in: Callable[[str, int], bool] = lambda _game, _seat: False
        """Whether a computer plays a seat of a game for its absent person (the
        clocks'; asked in the sending thread, so it may read the store): their
        turns then tell them nothing."""
        self.sent = 0
        """Messages a push service took, since the start (for tests and logs)."""
        self._vapid: Any = None
        self.public_key = ""
        """The VAPID public key as browsers want it (``applicationServerKey``:
        the uncompressed P-256 point, base64url)."""
        self._thread: threading.Thread | None = None
        self.failures = Sampled()
        """The failures' log lines, at most one a minute."""
        self._session: Any = None
        self.loopback = False
        self.owners: frozenset[str] = frozenset()
        """The owner hashes with a device, read every :data:`OWNERS_EVERY` s (and
        added to at once by a subscription here): a move in a game of nobody with a
        device queues nothing, so most games cost no lookup."""
        self._owners_due = 0.0
        """Whether plain-HTTP loopback endpoints are taken (:func:`check_endpoint`)."""

    # -- life ----------------------------------------------------------------------------

    def start(self) -> None:
        """Read (or make, the first time any process starts) the VAPID key and start
        the sending thread.  Blocking: call it in a thread."""
        from cryptography.hazmat.primitives import serialization
        from py_vapid import Vapid02

        pem = self.store.setting(VAPID_SETTING, new_vapid_key)
        self._refresh()
        self._vapid = Vapid02.from_pem(pem.encode())
        self.public_key = _b64url(
            self._vapid.public_key.public_bytes(
                serialization.Encoding.X962, serialization.PublicFormat.UncompressedPoint
            )
        )
        self._thread = threading.Thread(target=self._run, name="yatzy-push", daemon=True)
        self._thread.start()
        _running.append(self)

    def stop(self, wait: float = 5.0) -> None:
        """Stop the thread after the events queued (waiting at most ``wait`` s)."""
        with contextlib.suppress(ValueError):
            _running.remove(self)
        if self._thread is None:
            return
        with contextlib.suppress(queue.Full):
            self.queue.put(None, timeout=wait)
        self._thread.join(wait)
        self._thread = None

    def idle(self, wait: float = 10.0) -> bool:
        """Wait until every event queued has been handled; whether it was in time."""
        deadline = time.monotonic() + wait
        while self.queue.unfinished_tasks and time.monotonic() < deadline:
            time.sleep(0.01)
        return not self.queue.unfinished_tasks

    # -- events --------------------------------------------------------------------------

    def notify(self, account_id: str, kind: str, payload: dict[str, Any]) -> bool:
        """Send ``kind`` to the account's devices (unless it turned the kind off).
        ``payload``: ``game`` (the game's id, opened on a click), ``name`` (the other
        person's name) and ``rules`` (the game's rules, for its name), as the kind's
        words need.  Never blocks; False when the queue is full (the event is lost)."""
        return self._put(account_id, (), kind, payload)

    def notify_owners(
        self,
        owners: Iterable[str],
        kind: str,
        payload: dict[str, Any],
        turn_of: tuple[str, int] | None = None,
        watched: str | None = None,
    ) -> bool:
        """:meth:`notify` to the accounts whose owner hashes (a seat's) are ``owners``;
        ``turn_of`` (game, seat): the turn it tells of, not told while a computer
        stands in for that seat (:attr:`stood_in`); ``watched``: a game whose
        viewers are told nothing (:attr:`watching`, asked in the sending thread)."""
        found = tuple(owners)
        return bool(found) and self._put(None, found, kind, payload, turn_of, watched)

    def _put(
        self,
        account_id: str | None,
        owners: tuple[str, ...],
        kind: str,
        payload: dict[str, Any],
        turn_of: tuple[str, int] | None = None,
        watched: str | None = None,
    ) -> bool:
        if kind not in KINDS:
            raise ValueError(f"no such notification kind: {kind!r}")
        if self._thread is None:
            return False
        try:
            self.queue.put_nowait((account_id, owners, kind, payload, turn_of, watched))
        except queue.Full:
            self.failures.warn("queue full, %s dropped", kind)
            return False
        return True

    def after_move(
        self, stored: StoredGame, state: State, seat: int, computer: bool = False
    ) -> None:
        """Called (on the event loop) after the move of ``seat`` is committed: the
        ``turn`` or ``ended`` notifications it makes, queued.  ``computer``: a computer
        standing in for the seat's absent person moved, so that person is told too (a
        game that the computer finished for them)."""
        if not self.owners:
            return  # nobody has a device: nothing to work out
        seats = stored.seats
        mover = _person_before(stored, seat)
        mover_owner = seats[mover].owner_hash if mover is not None else None
        name = seats[mover].name if mover is not None else ""
        payload = {"game": stored.id, "rules": stored.rules, "name": name}
        if state.is_terminal():
            owners = {
                s.owner_hash
                for s in seats
                if s.bot is None
                and s.owner_hash is not None
                and (computer or s.owner_hash != mover_owner)
            }
            kind = "ended"
        else:
            to = state.current_player()
            if to < 0 or seats[to].bot is not None or mover is None:
                return
            target = seats[to].owner_hash
            if target is None or target == mover_owner:
                return  # back to whoever just played (a computer between): no news
            owners, kind = {target}, "turn"
        known = self.owners
        owners = {o for o in owners if o in known}
        if owners:  # those watching the game are left out in the sending thread
            turn_of = (stored.id, state.current_player()) if kind == "turn" else None
            self.notify_owners(sorted(owners), kind, payload, turn_of, watched=stored.id)

    # -- sending -------------------------------------------------------------------------

    def _run(self) -> None:
        while True:
            if time.monotonic() >= self._owners_due:
                self._refresh()
            try:
                item = self.queue.get(timeout=OWNERS_EVERY)
            except queue.Empty:
                continue
            try:
                if item is None:
                    return
                account_id, owners, kind, payload, turn_of, watched = item
                if turn_of is not None and self.stood_in(*turn_of):
                    continue  # the computer plays for them meanwhile: not their turn
                if watched is not None:  # nothing to whoever looks at the game now
                    owners = tuple(o for o in owners if not self.watching(watched, o))
                    if not owners:
                        continue
                devices = self.store.devices(kind, account_id=account_id, owners=owners)
                for device in devices:
                    self._send(device, message(kind, device.lang, payload))
            except Exception:  # a database hiccup: this event is lost, the thread goes on
                self.failures.warn("event failed", exc_info=True)
            finally:
                self.queue.task_done()

    def _refresh(self) -> None:
        """Read which owners have devices (for :meth:`after_move`'s quick filter)."""
        try:
            self.owners = frozenset(self.store.owners())
        except Exception:
            self.failures.warn("devices' owners not read", exc_info=True)
        self._owners_due = time.monotonic() + OWNERS_EVERY

    def known(self, owner: str) -> None:
        """The owner hash ``owner`` has a device now (subscribed through this process)."""
        self.owners = self.owners | {owner}

    def _send(self, device: Device, body: dict[str, str]) -> None:
        from pywebpush import WebPushException, webpush

        if self._session is None:
            import requests

            self._session = requests.Session()
        try:
            webpush(
                {
                    "endpoint": device.endpoint,
                    "keys": {"p256dh": device.p256dh, "auth": device.auth},
                },
                orjson.dumps(body).decode(),
                vapid_private_key=self._vapid,
                vapid_claims={"sub": self.contact},  # aud and exp are filled in per request
                timeout=self.timeout,
                ttl=TTL,
                requests_session=self._session,
            )
            self.sent += 1
        except WebPushException as exc:
            status = getattr(exc.response, "status_code", None)
            if status in (404, 410):  # the browser unsubscribed, or the push service forgot
                self.store.remove(device.id)
                return
            self.failures.warn("%s refused by the push service: %s", body["kind"], status)
        except Exception as exc:  # a timeout, a refused connection, a broken key
            self.failures.warn("%s not sent: %s", body["kind"], type(exc).__name__)


_Event = tuple[str | None, tuple[str, ...], str, dict[str, Any], tuple[str, int] | None, str | None]
"""A queued notification: account id, owner hashes, kind, payload, the turn it tells
of, and the game whose watchers are left out (None: nobody is)."""


def watching_anywhere(
    here: Callable[[str, str], bool],
    elsewhere: Callable[[str, str], int | None] | None,
) -> Callable[[str, str], bool]:
    """The :attr:`Notifier.watching` of a process: ``here(game, owner)`` (its own
    sockets), else, with a shared store, ``elsewhere(game, owner)`` (the other
    processes' sockets, asked of the store in the sending thread; a store that does
    not answer counts as nobody watching, so the push goes out)."""
    if elsewhere is None:
        return here

    def watching(game_id: str, owner: str) -> bool:
        return here(game_id, owner) or bool(elsewhere(game_id, owner))

    return watching


def push_export(notifier: Notifier, account_id: str) -> PushExport:
    """The account's notifications as its export shows them (blocking: the store)."""
    off = notifier.store.off(account_id)
    return {
        "kinds": {k: k not in off for k in KINDS},
        "devices": [
            {"created": created, "agent": agent, "lang": lang}
            for created, agent, lang in notifier.store.listed(account_id)
        ],
    }


def _person_before(stored: StoredGame, seat: int) -> int | None:
    """The seat of the person who played last up to ``seat``: ``seat`` itself when a
    person holds it, else the nearest person's before it in turn order (whose move
    handed the turn to the computers); None when only computers play."""
    n = len(stored.seats)
    for back in range(n):
        at = (seat - back) % n
        if stored.seats[at].bot is None:
            return at
    return None


_running: list[Notifier] = []
"""The notifiers started in this process and not stopped, the latest last (one per
app; tests run several)."""


def notify(account_id: str, kind: str, payload: dict[str, Any]) -> bool:
    """Send the account a notification of ``kind`` (one of :data:`KINDS`) through the
    running server's :class:`Notifier` (see :meth:`Notifier.notify` for ``payload``);
    False when none runs or its queue is full.  Never blocks: callable from the event
    loop or a thread.  For an invitation: ``notify(account_id, "invite", {"game": id,
    "name": inviter's name, "rules": the game's rules})``."""
    if kind not in KINDS:
        raise ValueError(f"no such notification kind: {kind!r}")
    current = _running[-1] if _running else None
    return current is not None and current.notify(account_id, kind, payload)


__all__ = [
    "KINDS",
    "MOST_DEVICES",
    "TEST_PUSH_LOOPBACK_ENV",
    "WORDS",
    "BadEndpointError",
    "Notifier",
    "check_endpoint",
    "loopback_from_env",
    "message",
    "new_vapid_key",
    "notify",
    "push_contact_of",
    "push_export",
    "watching_anywhere",
]
