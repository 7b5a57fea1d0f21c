"""Accounts: sign-up, log-in by password or recovery code, sessions, and the account's
seats on every device.

Accounts are optional; a guest keeps playing with seat tokens and the ``yz_owner``
cookie as before.  The choices, with their reasons (docs/accounts.md has more):

* **Passwords** are hashed with Argon2id (argon2-cffi, RFC 9106's low-memory
  profile by default: 64 MiB, 3 passes).  An unknown name is checked against a
  dummy hash, so it costs the same and answers the same as a wrong password (no
  account enumeration by answer or by time).
* **Recovery codes** (10, 80 random bits each) are shown once; only their SHA-256
  is stored, and a code logs in once.  No e-mail server is needed.
* **Sessions** are 256-bit random ids in an HttpOnly, ``SameSite=Lax`` cookie
  (``Secure`` as the seat cookies are); only their SHA-256 is stored, so a copy of
  the database holds no usable session.  Every log-in makes a new id (and ends the
  browser's earlier one): a session id planted before the log-in is worth nothing.
* **CSRF**: every state-changing account route wants the ``X-Yatzy-CSRF: 1``
  header, which a page of another origin cannot send without CORS (the app allows
  none), and refuses a foreign ``Origin`` or ``Sec-Fetch-Site``.  A seat is played
  with the account's session only from the app's own origin (:func:`same_origin`).
* **Seats**: an account owns the seats whose owner hash is its own (see
  :mod:`yatzy.store.accounts`); its session holds them as an :class:`AccountKey`,
  beside the seat cookies, on every device.
"""

from __future__ import annotations

import asyncio
import hashlib
import secrets
import unicodedata
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import timedelta
from typing import Any
from urllib.parse import urlsplit

from yatzy.errors import YatzyError
from yatzy.game.names import check_name
from yatzy.store import GameRepository
from yatzy.store.accounts import (
    ACCOUNT_OWNER_PREFIX,
    Account,
    AccountStore,
    SessionInfo,
    owner_hash,
)
from yatzy.store.friends import FriendLists, FriendStore
from yatzy.web.responses import OWNER_COOKIE
from yatzy.web.service import AccountKey, bot_levels

SESSION_COOKIE = "yz_session"
"""The cookie that holds an account's session id."""
SESSION_AGE = 30 * 24 * 3600
"""Seconds a session lasts unused (the cookie's age, and the server's idle limit)."""
CSRF_HEADER = "x-yatzy-csrf"
"""The header every state-changing account request must carry (value ``1``)."""
CODES = 10
"""Recovery codes made at a time."""
MIN_PASSWORD = 8
MAX_PASSWORD = 256
"""A password's length bounds (characters); the upper one bounds the hashing work."""
_CODE_ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
"""Recovery codes' letters: no 0/o, 1/l/i that a person could misread."""
ANONYMOUS = {"sv": "Anonym", "fi": "Anonyymi", "en": "Anonymous"}
"""What a deleted account's name becomes in its games."""
RESERVED = frozenset(
    {
        "admin",
        "administrator",
        "root",
        "system",
        "yatzy",
        "moderator",
        "support",
        "staff",
        "guest",
        "gäst",
        "vieras",
        "nobody",
        "null",
        "none",
        "undefined",
        "computer",
        "dator",
        "tietokone",
        "bot",
        "me",
        "you",
        *(label.casefold() for label in ANONYMOUS.values()),
    }
)
"""Account names nobody may take (they would pass for the app, a computer player
or a deleted account); the bot levels' names are reserved as well."""


class AccountError(YatzyError):
    """A refusal of the account routes; ``http_status`` is its status."""

    http_status = 422


class BadAccountNameError(AccountError):
    """An account name that is not a valid player name, or a reserved word."""


class BadPasswordError(AccountError):
    """A new password that is too short or too long, or the account's name."""


class AccountNameTakenError(AccountError):
    """A new account's name that another account has (case-insensitively)."""

    http_status = 409


class BadLoginError(AccountError):
    """A log-in refused: the name, the password or the code is wrong (which of them
    is never said)."""

    http_status = 403


class NotSignedInError(AccountError):
    """A route of the account's own without a valid session."""

    http_status = 401


class NoSuchAccountError(AccountError):
    """A friend's name that no account has (or the asker's own)."""

    http_status = 404


class NoFriendRequestError(AccountError):
    """An answer to a friend request that was not made."""

    http_status = 404


class CrossSiteError(AccountError):
    """A state-changing account request without the CSRF header, or from a page of
    another origin."""

    http_status = 403


def name_key(name: str) -> str:
    """An account name's key: NFKC, case-folded, inner white space as one space
    (``Anna``, ``ANNA`` and ``Ａｎｎａ`` are one name)."""
    return " ".join(unicodedata.normalize("NFKC", name).casefold().split())


def check_account_name(name: object) -> tuple[str, str]:
    """``name`` trimmed and its key, if it may name an account: a valid player name
    (:func:`yatzy.game.names.check_name`) that is not reserved; else
    :class:`BadAccountNameError`, quoting it."""
    try:
        trimmed = check_name(name)
    except YatzyError as exc:
        raise BadAccountNameError(str(exc).replace("player name", "account name")) from None
    key = name_key(trimmed)
    if key in RESERVED or key in {level.casefold() for level in bot_levels()}:
        raise BadAccountNameError(f"the account name {trimmed!r} is reserved")
    return trimmed, key


def check_password(password: str, name: str) -> str:
    """``password`` if it may be one: :data:`MIN_PASSWORD` to :data:`MAX_PASSWORD`
    characters, not the account's name; else :class:`BadPasswordError`."""
    if len(password) < MIN_PASSWORD:
        raise BadPasswordError(f"a password has at least {MIN_PASSWORD} characters")
    if len(password) > MAX_PASSWORD:
        raise BadPasswordError(f"a password has at most {MAX_PASSWORD} characters")
    if name_key(password) == name_key(name):
        raise BadPasswordError("the password may not be the account's name")
    return password


def secret_hash(secret: str) -> str:
    """The stored form of a session id or recovery code: SHA-256, hex (the secrets
    are random and long, so no slow hash is needed)."""
    return hashlib.sha256(secret.encode("utf-8", "replace")).hexdigest()


def new_codes() -> list[str]:
    """:data:`CODES` fresh recovery codes, ``xxxx-xxxx-xxxx-xxxx`` (80 bits each)."""
    return [
        "-".join("".join(secrets.choice(_CODE_ALPHABET) for _ in range(4)) for _ in range(4))
        for _ in range(CODES)
    ]


def code_key(code: str) -> str:
    """A recovery code as typed, without spaces and dashes, in lower case."""
    return "".join(ch for ch in code.casefold() if ch not in " -\t")


def is_account_owner(owner: str | None) -> bool:
    """Whether an owner token is an account's (never accepted from a cookie)."""
    return owner is not None and owner.startswith(ACCOUNT_OWNER_PREFIX)


def same_origin(headers: Mapping[str, str], public_url: str | None = None) -> bool:
    """Whether a request comes from the app's own pages (or from no page at all):
    its ``Sec-Fetch-Site``, where sent, is ``same-origin`` or ``none``, and its
    ``Origin``, where sent, names the request's ``Host`` (or the public URL's)."""
    site = headers.get("sec-fetch-site")
    if site is not None and site not in ("same-origin", "none"):
        return False
    origin = headers.get("origin")
    if origin is None:
        return True
    netloc = urlsplit(origin).netloc
    if netloc and netloc == headers.get("host"):
        return True
    return bool(public_url) and netloc == urlsplit(public_url or "").netloc


def check_csrf(headers: Mapping[str, str], public_url: str | None = None) -> None:
    """Refuse (:class:`CrossSiteError`) a state-changing account request without the
    ``X-Yatzy-CSRF: 1`` header or from another origin."""
    if headers.get(CSRF_HEADER) != "1":
        raise CrossSiteError(f"the header {CSRF_HEADER}: 1 is missing")
    if not same_origin(headers, public_url):
        raise CrossSiteError("a page of another origin may not change an account")


async def with_account(
    accounts: AccountService, game_id: str, tokens: dict[int, str], account: Account | None
) -> dict[int, str]:
    """``tokens`` with an :class:`AccountKey` at each seat of ``game_id`` that the
    account holds (read from the store, so a seat handed to the account by another
    process counts at once), in place of any token the request names for it."""
    if account is None:
        return tokens
    seats = await asyncio.to_thread(accounts.store.seats_of, game_id, account)
    key = AccountKey(account.id)
    return {**tokens, **{seat: key for seat in seats}}


async def identity(
    app_state: Any,
    game_id: str,
    tokens: dict[int, str],
    cookies: Mapping[str, str],
    headers: Mapping[str, str],
) -> tuple[dict[int, str], str | None]:
    """The seat tokens and the owner of a request that skips FastAPI's dependencies
    (the action fast path, a game's WebSocket), as :mod:`yatzy.web.deps` makes them."""
    owner = cookies.get(OWNER_COOKIE)
    if is_account_owner(owner):
        owner = None
    session = cookies.get(SESSION_COOKIE)
    if not session:
        return tokens, owner
    accounts: AccountService = app_state.accounts
    account = await accounts.account_of(session)
    if account is None:
        return tokens, owner
    if same_origin(headers, app_state.settings.public_url):
        tokens = await with_account(accounts, game_id, tokens, account)
    return tokens, account.owner


@dataclass(frozen=True)
class Hasher:
    """Argon2id's cost: passes, memory (KiB) and lanes.  The default is RFC 9106's
    low-memory profile; tests use a cheap one."""

    time_cost: int = 3
    memory_cost: int = 65536
    parallelism: int = 4

    def make(self) -> Any:
        """An ``argon2.PasswordHasher`` (Argon2id) with these costs."""
        from argon2 import PasswordHasher, Type

        return PasswordHasher(
            time_cost=self.time_cost,
            memory_cost=self.memory_cost,
            parallelism=self.parallelism,
            type=Type.ID,
        )


class AccountService:
    """The accounts of one server process, over the game repository's database."""

    def __init__(self, repo: GameRepository, hasher: Hasher | None = None) -> None:
        self.store = AccountStore(repo)
        self.friends = FriendStore(repo)
        self.hasher = (hasher or Hasher()).make()
        self.idle = timedelta(seconds=SESSION_AGE)
        self.notify: Callable[[str, str, dict[str, Any]], object] | None = None
        """Sends an account a notification (kind, payload): a friend request does
        (:meth:`yatzy.web.notifications.Notifier.notify`; never blocks)."""
        # Checked when the name is unknown, so that such a log-in costs what a wrong
        # password costs (made on first use: a random password nobody knows).
        self._dummy: str | None = None

    def _dummy_hash(self) -> str:
        if self._dummy is None:
            self._dummy = self.hasher.hash(secrets.token_urlsafe(16))
        return self._dummy

    def _verify(self, stored: str, password: str) -> bool:
        from argon2.exceptions import InvalidHashError, VerificationError

        try:
            return bool(self.hasher.verify(stored, password))
        except (VerificationError, InvalidHashError):
            return False

    # -- signing up and in ---------------------------------------------------------------

    async def signup(self, name: str, password: str, agent: str) -> tuple[Account, str, list[str]]:
        """A new account, a session id for it and its recovery codes (shown once)."""
        shown, key = check_account_name(name)
        check_password(password, shown)
        codes = new_codes()

        def create() -> Account:
            from yatzy.store.accounts import NameTakenError

            if self.store.by_name(key) is not None:
                raise AccountNameTakenError(f"the account name {shown!r} is taken")
            hashed = self.hasher.hash(password)
            try:
                return self.store.create(
                    secrets.token_hex(16),
                    shown,
                    key,
                    hashed,
                    [secret_hash(code_key(c)) for c in codes],
                )
            except NameTakenError:  # another sign-up took it meanwhile
                raise AccountNameTakenError(f"the account name {shown!r} is taken") from None

        account = await asyncio.to_thread(create)
        session = await self.start_session(account, agent)
        return account, session, codes

    async def login(
        self, name: str, password: str | None, code: str | None, agent: str
    ) -> tuple[Account, str]:
        """The account and a new session id, if ``password`` (or the recovery ``code``,
        which is then spent) is right for the account ``name``; else
        :class:`BadLoginError`, the same whether the name exists or not."""

        def check() -> Account | None:
            account = self.store.by_name(name_key(name)) if len(name) <= 200 else None
            if code is not None:
                if account is None:
                    return None
                spent = self.store.spend_code(account.id, secret_hash(code_key(code)))
                return account if spent else None
            stored = account.password_hash if account is not None else self._dummy_hash()
            if not self._verify(stored, password or "") or account is None:
                return None
            if self.hasher.check_needs_rehash(stored):
                self.store.set_password_hash(account.id, self.hasher.hash(password or ""))
            return account

        account = await asyncio.to_thread(check)
        if account is None:
            raise BadLoginError("wrong account name, password or recovery code")
        return account, await self.start_session(account, agent)

    async def start_session(self, account: Account, agent: str) -> str:
        """A new session id of ``account`` (its hash stored)."""
        session = secrets.token_urlsafe(32)
        await asyncio.to_thread(
            self.store.add_session, secret_hash(session), account.id, agent, self.idle
        )
        return session

    async def account_of(self, session: str | None) -> Account | None:
        """The account of a session id (a cookie's value), if it is a live session."""
        if not session or len(session) > 100:
            return None
        return await asyncio.to_thread(self.store.session, secret_hash(session), self.idle)

    async def adopt(self, guest_owner: str | None, account: Account) -> int:
        """Hand the games of a browser's guest owner token to the account."""
        if not guest_owner or is_account_owner(guest_owner):
            return 0
        return await asyncio.to_thread(self.store.adopt, owner_hash(guest_owner), account)

    # -- the account's own -----------------------------------------------------------------

    async def end_session(self, session: str | None, account: Account | None = None) -> bool:
        """End one session (the caller's own, or one of ``account``'s by its id)."""
        if not session:
            return False
        account_id = account.id if account is not None else None
        return await asyncio.to_thread(self.store.end_session, secret_hash(session), account_id)

    async def revoke(self, account: Account, id_hash: str) -> bool:
        """End the account's session whose hash is ``id_hash`` (another account's
        session is not found)."""
        return await asyncio.to_thread(self.store.end_session, id_hash, account.id)

    async def sessions(self, account: Account) -> list[SessionInfo]:
        """The account's sessions."""
        return await asyncio.to_thread(self.store.sessions, account.id)

    async def end_all(self, account: Account) -> int:
        """End every session of the account."""
        return await asyncio.to_thread(self.store.end_sessions, account.id)

    async def codes_left(self, account: Account) -> int:
        """The account's unspent recovery codes."""
        return await asyncio.to_thread(self.store.codes_left, account.id)

    async def new_codes(self, account: Account) -> list[str]:
        """New recovery codes for the account (the old ones no longer work)."""
        codes = new_codes()
        hashes = [secret_hash(code_key(c)) for c in codes]
        await asyncio.to_thread(self.store.replace_codes, account.id, hashes)
        return codes

    # -- friends -----------------------------------------------------------------------------

    async def friend_lists(self, account: Account) -> FriendLists:
        """The account's friends, requests both ways and blocks."""
        return await asyncio.to_thread(self.friends.lists, account.id)

    async def befriend(self, account: Account, action: str, name: str) -> FriendLists:
        """Do ``action`` (``request``, ``accept``, ``remove``, ``block``, ``unblock``)
        towards the account named ``name``; the lists after it.  An unknown name (or
        one's own) is :class:`NoSuchAccountError`; accepting a request that was not
        made, :class:`NoFriendRequestError`."""

        def act() -> FriendLists:
            other = self.store.by_name(name_key(name)) if len(name) <= 200 else None
            if other is None or other.id == account.id:
                raise NoSuchAccountError(f"no other account is named {name!r}")
            if action == "request":
                before = self.friends.tie(account.id, other.id)
                state = self.friends.request(account.id, other.id)
                # told once, and never of a blocked asker's request (it waits unseen)
                told = state == "requested" and before is None
                if told and self.friends.tie(other.id, account.id) != "blocked" and self.notify:
                    self.notify(other.id, "friend", {"name": account.name})
            elif action == "accept":
                if not self.friends.accept(account.id, other.id):
                    raise NoFriendRequestError(f"no friend request from {other.name!r}")
            elif action == "remove":
                self.friends.remove(account.id, other.id)
            elif action == "block":
                self.friends.block(account.id, other.id)
            else:
                self.friends.unblock(account.id, other.id)
            return self.friends.lists(account.id)

        return await asyncio.to_thread(act)

    async def delete(self, account: Account) -> list[str]:
        """Delete the account (see :meth:`AccountStore.delete`); the games renamed."""
        return await asyncio.to_thread(self.store.delete, account, ANONYMOUS)


__all__ = [
    "ANONYMOUS",
    "CSRF_HEADER",
    "SESSION_AGE",
    "SESSION_COOKIE",
    "AccountError",
    "AccountNameTakenError",
    "AccountService",
    "BadAccountNameError",
    "BadLoginError",
    "BadPasswordError",
    "CrossSiteError",
    "Hasher",
    "NoFriendRequestError",
    "NoSuchAccountError",
    "NotSignedInError",
    "check_account_name",
    "check_csrf",
    "check_password",
    "identity",
    "is_account_owner",
    "same_origin",
    "with_account",
]
