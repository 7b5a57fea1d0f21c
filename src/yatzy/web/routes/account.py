"""Accounts: sign up, log in (password or recovery code), log out, the account's
sessions, recovery codes, export and deletion; and their pages.

Every ``POST`` here wants the ``X-Yatzy-CSRF: 1`` header and the app's own origin
(:func:`yatzy.web.accounts.check_csrf`); log-ins and sign-ups have rate limits of
their own (``login``, ``signup`` in :class:`yatzy.web.limits.Limits`).  See
:mod:`yatzy.web.accounts` for the security choices.
"""

from __future__ import annotations

import asyncio
from datetime import datetime
from typing import Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import HTMLResponse, Response
from pydantic import BaseModel, ConfigDict, Field

from yatzy.store.accounts import Account, SessionInfo
from yatzy.store.friends import FriendLists
from yatzy.store.personal import personal_records
from yatzy.web.account_words import account_words
from yatzy.web.accounts import (
    SESSION_AGE,
    SESSION_COOKIE,
    BadLoginError,
    name_key,
    secret_hash,
)
from yatzy.web.deps import (
    Accounts,
    CsrfChecked,
    Limiter,
    Member,
    MessagesDep,
    Passkeys,
    Push,
    Secure,
    Service,
    SignedIn,
    note_account,
    public_base,
)
from yatzy.web.inputs import BODY, StrictJSONRoute, printable, refusal_table
from yatzy.web.limits import client_of
from yatzy.web.models import (
    AccountExport,
    AccountView,
    CodesView,
    FriendsView,
    PasskeyOptionsView,
    PasskeyView,
    SessionView,
    SignedUpView,
    TurnsView,
)
from yatzy.web.notifications import push_export
from yatzy.web.ratings_view import profile
from yatzy.web.responses import OWNER_COOKIE, FastJSONResponse
from yatzy.web.routes.pages import lang_of, render, root_of, templates

templates.env.globals["account_words"] = account_words
router = APIRouter(route_class=StrictJSONRoute, dependencies=[Depends(note_account)])


_refusals = refusal_table(
    {
        401: "Not signed in: the reason",
        403: "A wrong log-in, or a request without the CSRF header or from another origin",
        409: "The account name is taken",
    }
)
"""The OpenAPI ``responses`` of an account route: ``codes`` (401 not signed in, 403 a
refused log-in or a cross-site request, 409 a taken name) and the usual."""


# -- bodies ----------------------------------------------------------------------------------


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class SignupIn(_Strict):
    """A new account: its name (checked as player names are) and its password."""

    name: str = Field(min_length=1, max_length=40)
    password: str = Field(min_length=1, max_length=256)


class LoginIn(_Strict):
    """A log-in with the password or with one of the recovery codes."""

    name: str = Field(min_length=1, max_length=40)
    password: str | None = Field(default=None, min_length=1, max_length=256)
    code: str | None = Field(default=None, min_length=1, max_length=40)


class RevokeIn(_Strict):
    """The session to end (its ``id`` from the list of sessions)."""

    id: str = Field(pattern=r"^[0-9a-f]{64}$")


class FriendIn(_Strict):
    """The other account, by name."""

    name: str = Field(min_length=1, max_length=40)


class PasskeyIn(_Strict):
    """The browser's answer to a passkey ceremony: the ceremony's handle and the
    credential as ``PublicKeyCredential.toJSON()`` writes it."""

    ceremony: str = Field(min_length=1, max_length=100)
    credential: dict[str, Any]


class PasskeyIdIn(_Strict):
    """A passkey of the account, by its credential id."""

    id: str = Field(min_length=1, max_length=1400)


class DeleteIn(_Strict):
    """The account's name, typed again to confirm its deletion."""

    confirm: str = Field(min_length=1, max_length=40)


# -- helpers ---------------------------------------------------------------------------------


def _when(moment: datetime) -> str:
    return moment.isoformat(timespec="seconds")


def _view(account: Account | None, codes_left: int = 0) -> AccountView:
    if account is None:
        return {"signed_in": False, "name": None, "created": None, "recovery_codes_left": 0}
    return {
        "signed_in": True,
        "name": account.name,
        "created": _when(account.created_at),
        "recovery_codes_left": codes_left,
    }


def _session_views(sessions: list[SessionInfo], current: str | None) -> list[SessionView]:
    mine = secret_hash(current) if current else None
    return [
        {
            "id": s.id_hash,
            "created": _when(s.created_at),
            "seen": _when(s.seen_at),
            "agent": printable(s.agent),
            "current": s.id_hash == mine,
        }
        for s in sessions
    ]


def friends_view(lists: FriendLists) -> FriendsView:
    """The answer of the friends' routes."""
    return {
        "friends": lists.friends,
        "incoming": lists.incoming,
        "outgoing": lists.outgoing,
        "blocked": lists.blocked,
        "online": lists.online,
        "playing": lists.playing,
    }


def _agent(request: Request) -> str:
    return printable(request.headers.get("user-agent", ""))[:200]


def _signed_in(response: Response, request: Request, session: str, secure: bool) -> None:
    """Give the browser its new session (HttpOnly, SameSite=Lax, Secure as the seat
    cookies are): Lax, so that a link to a game from elsewhere opens signed in."""
    response.set_cookie(
        SESSION_COOKIE,
        session,
        max_age=SESSION_AGE,
        httponly=True,
        samesite="lax",
        secure=secure,
        path=root_of(request) + "/",
    )


def _signed_out(response: Response, request: Request, secure: bool) -> None:
    response.delete_cookie(
        SESSION_COOKIE, path=root_of(request) + "/", httponly=True, samesite="lax", secure=secure
    )


# -- signing up, in and out -------------------------------------------------------------------


@router.post(
    "/api/account/signup",
    tags=["account"],
    status_code=201,
    response_model=SignedUpView,
    responses=_refusals(*BODY, 403, 409, 503),
    dependencies=[CsrfChecked],
)
async def signup(
    request: Request, body: SignupIn, accounts: Accounts, limiter: Limiter, secure: Secure
) -> FastJSONResponse:
    """Make an account and sign this browser in; its guest games move to the account.
    The recovery codes are in this answer only."""
    await limiter.acheck("signup", client_of(request.scope))
    account, session, codes = await accounts.signup(body.name, body.password, _agent(request))
    await _after_login(request, accounts, account)
    payload: SignedUpView = {"account": _view(account, len(codes)), "recovery_codes": codes}
    response = FastJSONResponse(payload, status_code=201)
    _signed_in(response, request, session, secure)
    return response


@router.post(
    "/api/account/login",
    tags=["account"],
    response_model=AccountView,
    responses=_refusals(*BODY, 403, 503),
    dependencies=[CsrfChecked],
)
async def login(
    request: Request, body: LoginIn, accounts: Accounts, limiter: Limiter, secure: Secure
) -> FastJSONResponse:
    """Sign in with the password or a recovery code (which is then spent).  A new
    session every time; the browser's earlier one ends, and its guest games move to
    the account.  A wrong name, password or code get the same answer (403)."""
    if (body.password is None) == (body.code is None):
        raise BadLoginError("give the password or a recovery code, not both")
    client = client_of(request.scope)
    by_name = "name:" + name_key(body.name)
    await limiter.acheck("login", client, spend=False)
    await limiter.acheck("login", by_name, spend=False)
    try:
        account, session = await accounts.login(
            body.name, body.password, body.code, _agent(request)
        )
    except BadLoginError:
        await limiter.aspend("login", client)
        await limiter.aspend("login", by_name)
        raise
    await _after_login(request, accounts, account)
    response = FastJSONResponse(_view(account, await accounts.codes_left(account)))
    _signed_in(response, request, session, secure)
    return response


async def _after_login(request: Request, accounts: Accounts, account: Account) -> None:
    """End the browser's earlier session (a fixed id is worth nothing) and hand its
    guest games to the account."""
    await accounts.end_session(request.cookies.get(SESSION_COOKIE))
    await accounts.adopt(request.cookies.get(OWNER_COOKIE), account)


@router.post(
    "/api/account/logout",
    tags=["account"],
    response_model=AccountView,
    responses=_refusals(403, 503),
    dependencies=[CsrfChecked],
)
async def logout(request: Request, accounts: Accounts, secure: Secure) -> FastJSONResponse:
    """End this browser's session (signed out or not: the answer is the same)."""
    await accounts.end_session(request.cookies.get(SESSION_COOKIE))
    response = FastJSONResponse(_view(None))
    _signed_out(response, request, secure)
    return response


# -- the account's own --------------------------------------------------------------------------


@router.get("/api/account", tags=["account"], response_model=AccountView, responses=_refusals(503))
async def me(accounts: Accounts, account: SignedIn) -> FastJSONResponse:
    """Who is signed in here (a guest: ``signed_in`` false)."""
    if account is None:
        return FastJSONResponse(_view(None))
    return FastJSONResponse(_view(account, await accounts.codes_left(account)))


@router.get(
    "/api/account/sessions",
    tags=["account"],
    response_model=list[SessionView],
    responses=_refusals(401, 503),
)
async def sessions(request: Request, accounts: Accounts, mine: Member) -> FastJSONResponse:
    """The account's signed-in browsers, most recently seen first."""
    listed = await accounts.sessions(mine)
    return FastJSONResponse(_session_views(listed, request.cookies.get(SESSION_COOKIE)))


@router.post(
    "/api/account/sessions/revoke",
    tags=["account"],
    response_model=list[SessionView],
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def revoke(
    request: Request, body: RevokeIn, accounts: Accounts, mine: Member, secure: Secure
) -> FastJSONResponse:
    """End one of the account's sessions (another account's is not found: nothing
    happens); the sessions left."""
    await accounts.revoke(mine, body.id)
    current = request.cookies.get(SESSION_COOKIE)
    listed = await accounts.sessions(mine)
    response = FastJSONResponse(_session_views(listed, current))
    if current and secret_hash(current) == body.id:
        _signed_out(response, request, secure)
    return response


@router.post(
    "/api/account/logout-everywhere",
    tags=["account"],
    response_model=AccountView,
    responses=_refusals(401, 403, 503),
    dependencies=[CsrfChecked],
)
async def logout_everywhere(
    request: Request, accounts: Accounts, mine: Member, secure: Secure
) -> FastJSONResponse:
    """End every session of the account, this one too."""
    await accounts.end_all(mine)
    response = FastJSONResponse(_view(None))
    _signed_out(response, request, secure)
    return response


@router.post(
    "/api/account/recovery-codes",
    tags=["account"],
    response_model=CodesView,
    responses=_refusals(401, 403, 503),
    dependencies=[CsrfChecked],
)
async def recovery_codes(accounts: Accounts, mine: Member) -> FastJSONResponse:
    """New recovery codes, shown this once; the old ones stop working."""
    payload: CodesView = {"recovery_codes": await accounts.new_codes(mine)}
    return FastJSONResponse(payload)


@router.get(
    "/api/account/export",
    tags=["account"],
    response_model=AccountExport,
    responses=_refusals(401, 503),
)
async def export(
    request: Request,
    accounts: Accounts,
    service: Service,
    mine: Member,
    push: Push,
    messages: MessagesDep,
) -> FastJSONResponse:
    """Everything kept about the account, as a JSON file: the account, its
    sessions, its friends, its notifications, its games and its statistics, its
    online rows (``records``: passkeys, invitations, seeks, quick-match wait, ratings,
    tournaments; :func:`yatzy.store.personal.personal_records`) and the free text
    it wrote in games."""
    lang = lang_of(request)
    payload: AccountExport = {
        "account": _view(mine, await accounts.codes_left(mine)),
        "sessions": _session_views(
            await accounts.sessions(mine), request.cookies.get(SESSION_COOKIE)
        ),
        "friends": friends_view(await accounts.friend_lists(mine)),
        "notifications": await asyncio.to_thread(push_export, push, mine.id),
        "games": await service.history(mine.owner, lang),
        "stats": await service.stats(mine.owner, lang),
        "records": await asyncio.to_thread(personal_records, service.repo, mine.id),
        "messages": await messages.written_by(mine),
    }
    return FastJSONResponse(
        payload, headers={"Content-Disposition": 'attachment; filename="yatzy-account.json"'}
    )


@router.post(
    "/api/account/delete",
    tags=["account"],
    response_model=AccountView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def delete_account(
    request: Request,
    body: DeleteIn,
    accounts: Accounts,
    service: Service,
    mine: Member,
    secure: Secure,
) -> FastJSONResponse:
    """Delete the account for good: its sessions, codes and the free text it wrote
    go; its games stay, with its name in them replaced by an anonymous one.
    ``confirm`` must be the name."""
    if name_key(body.confirm) != name_key(mine.name):
        raise BadLoginError("confirm: type the account's name to delete it")
    for game_id in await accounts.delete(mine):
        # this process's copy of the game has the old name; another server
        # process keeps its own copy while the game is in play there (a known gap)
        service.forget(game_id, older_than=2**62)
    response = FastJSONResponse(_view(None))
    _signed_out(response, request, secure)
    return response


# -- friends ----------------------------------------------------------------------------------


@router.get(
    "/api/account/turns",
    tags=["account"],
    response_model=TurnsView,
    responses=_refusals(401, 503),
)
async def turns(
    mine: Member, service: Service, lang: Literal["sv", "fi", "en"] = "en"
) -> TurnsView:
    """The games in play where it is the account's turn, the longest waiting first
    (every page of a signed-in player shows their number in its title and header)."""
    return {"games": await service.turns_of(mine.owner, lang)}


@router.get(
    "/api/friends", tags=["account"], response_model=FriendsView, responses=_refusals(401, 503)
)
async def friends(accounts: Accounts, mine: Member) -> FriendsView:
    """The account's friends, friend requests both ways and blocks."""
    return friends_view(await accounts.friend_lists(mine))


@router.post(
    "/api/friends/{action}",
    tags=["account"],
    response_model=FriendsView,
    responses=_refusals(*BODY, 401, 403, 404, 503),
    dependencies=[CsrfChecked],
)
async def befriend(
    request: Request,
    action: Literal["request", "accept", "remove", "block", "unblock"],
    body: FriendIn,
    accounts: Accounts,
    mine: Member,
    limiter: Limiter,
    messages: MessagesDep,
) -> FriendsView:
    """Ask the account ``name`` to be friends (if it asked already, you are), accept
    its request, end the friendship or a request either way, block it (every tie
    ends, and its requests are seen no more; it is not told) or unblock it."""
    await limiter.acheck("friend", client_of(request.scope))
    lists = await accounts.befriend(mine, action, body.name)
    befriended = action == "request" and name_key(body.name) in map(name_key, lists.friends)
    if befriended or action in ("accept", "remove", "block"):
        # their free text in games starts or stops both ways now: their pages read again
        other = await asyncio.to_thread(accounts.store.by_name, name_key(body.name))
        if other is not None:
            await messages.ties_changed(mine.id, other.id)
    return friends_view(lists)


# -- passkeys ---------------------------------------------------------------------------------


def _passkey_views(keys: list[Any]) -> list[PasskeyView]:
    return [
        {"id": k.credential_id, "created": _when(k.created_at), "agent": printable(k.agent)}
        for k in keys
    ]


@router.get(
    "/api/account/passkeys",
    tags=["account"],
    response_model=list[PasskeyView],
    responses=_refusals(401, 503),
)
async def passkeys(mine: Member, keys: Passkeys) -> list[PasskeyView]:
    """The account's passkeys."""
    return _passkey_views(await keys.of(mine))


@router.post(
    "/api/account/passkeys/options",
    tags=["account"],
    response_model=PasskeyOptionsView,
    responses=_refusals(401, 403, 503),
    dependencies=[CsrfChecked],
)
async def passkey_options(request: Request, mine: Member, keys: Passkeys) -> PasskeyOptionsView:
    """Start adding a passkey: the options for ``navigator.credentials.create``."""
    ceremony, options = await keys.register_options(mine, public_base(request))
    return {"ceremony": ceremony, "options": options}


@router.post(
    "/api/account/passkeys",
    tags=["account"],
    response_model=list[PasskeyView],
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def add_passkey(
    request: Request, body: PasskeyIn, mine: Member, keys: Passkeys
) -> list[PasskeyView]:
    """Keep the new passkey the browser made (checked against the ceremony)."""
    await keys.register(mine, body.ceremony, body.credential, public_base(request), _agent(request))
    return _passkey_views(await keys.of(mine))


@router.post(
    "/api/account/passkeys/delete",
    tags=["account"],
    response_model=list[PasskeyView],
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked],
)
async def delete_passkey(body: PasskeyIdIn, mine: Member, keys: Passkeys) -> list[PasskeyView]:
    """Delete one of the account's passkeys (another account's is not found)."""
    await keys.remove(mine, body.id)
    return _passkey_views(await keys.of(mine))


@router.post(
    "/api/account/passkey-login/options",
    tags=["account"],
    response_model=PasskeyOptionsView,
    responses=_refusals(403, 503),
    dependencies=[CsrfChecked],
)
async def passkey_login_options(
    request: Request, keys: Passkeys, limiter: Limiter
) -> PasskeyOptionsView:
    """Start a log-in with a passkey: the options for ``navigator.credentials.get``."""
    await limiter.acheck("login", client_of(request.scope), spend=False)
    ceremony, options = await keys.login_options(public_base(request))
    return {"ceremony": ceremony, "options": options}


@router.post(
    "/api/account/passkey-login",
    tags=["account"],
    response_model=AccountView,
    responses=_refusals(*BODY, 403, 503),
    dependencies=[CsrfChecked],
)
async def passkey_login(
    request: Request,
    body: PasskeyIn,
    accounts: Accounts,
    keys: Passkeys,
    limiter: Limiter,
    secure: Secure,
) -> FastJSONResponse:
    """Log in with a passkey: a new session, as a log-in by password gives (a
    refusal looks the same as a wrong password's)."""
    client = client_of(request.scope)
    await limiter.acheck("login", client, spend=False)
    try:
        account = await keys.login(body.ceremony, body.credential, public_base(request))
    except BadLoginError:
        await limiter.aspend("login", client)
        raise
    session = await accounts.start_session(account, _agent(request))
    await _after_login(request, accounts, account)
    response = FastJSONResponse(_view(account, await accounts.codes_left(account)))
    _signed_in(response, request, session, secure)
    return response


# -- pages -------------------------------------------------------------------------------------


@router.get("/signup", response_class=HTMLResponse, include_in_schema=False)
async def signup_page(request: Request) -> HTMLResponse:
    """The sign-up form (and, after it, the recovery codes)."""
    return render(request, "signup.html", lang_of(request))


@router.get("/login", response_class=HTMLResponse, include_in_schema=False)
async def login_page(request: Request) -> HTMLResponse:
    """The log-in form: password or recovery code."""
    return render(request, "login.html", lang_of(request))


@router.get("/account", response_class=HTMLResponse, include_in_schema=False)
async def account_page(request: Request, account: SignedIn, service: Service) -> HTMLResponse:
    """The account: ratings and skill index, sessions, recovery codes, export,
    deletion (a guest: log in)."""
    if account is None:
        return render(request, "login.html", lang_of(request))
    lang = lang_of(request)
    mine = await asyncio.to_thread(profile, service.rated.store, account.id, account.name, lang)
    return render(request, "account.html", lang, profile=mine)
