"""Web Push: the server's public key, a device's subscription, the account's choice of
notifications, and the service worker that shows them (``/sw.js``).

Every ``POST`` here wants the ``X-Yatzy-CSRF: 1`` header and the app's own origin, as
the account routes do, and counts against the client's ``push`` rate (429 with
``Retry-After`` past it: ``yatzy serve --limit-push``); a device is the signed-in
account's own (another account's is not found).  See :mod:`yatzy.web.notifications`
for what is sent when.
"""

from __future__ import annotations

import asyncio
from typing import Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import Response
from pydantic import BaseModel, ConfigDict, Field
from typing_extensions import TypedDict

from yatzy.store.accounts import Account, owner_hash
from yatzy.web.assets import STATIC
from yatzy.web.deps import CsrfChecked, Limiter, Member, Push
from yatzy.web.inputs import BODY, StrictJSONRoute, printable, refusal_table
from yatzy.web.limits import client_of
from yatzy.web.notifications import KINDS, MOST_DEVICES, Notifier, check_endpoint
from yatzy.web.routes.pages import root_of

router = APIRouter(route_class=StrictJSONRoute)

Kind = Literal["turn", "friend", "ended", "invite"]


class PushKeyView(TypedDict):
    """The server's VAPID public key (``applicationServerKey``: base64url, the
    uncompressed P-256 point)."""

    key: str


class PushView(TypedDict):
    """The account's notifications: each kind on or off, how many devices take them
    (at most ``most``), and whether the device asked about (``endpoint``) is one."""

    kinds: dict[str, bool]
    devices: int
    most: int
    this_device: bool


class _Strict(BaseModel):
    model_config = ConfigDict(strict=True, extra="forbid")


class KeysIn(_Strict):
    """The browser's keys of a subscription (``PushSubscription.toJSON().keys``)."""

    p256dh: str = Field(min_length=20, max_length=200, pattern=r"^[A-Za-z0-9_\-]+=*$")
    auth: str = Field(min_length=8, max_length=100, pattern=r"^[A-Za-z0-9_\-]+=*$")


class SubscribeIn(_Strict):
    """A device's push subscription (``PushSubscription.toJSON()``: ``endpoint`` and
    ``keys``; ``expirationTime`` is ignored) and the language of its notifications."""

    endpoint: str = Field(min_length=10, max_length=1000)
    keys: KeysIn
    expirationTime: int | float | None = None
    lang: Literal["sv", "fi", "en"] = "en"


class EndpointIn(_Strict):
    """A device, by its subscription's endpoint."""

    endpoint: str = Field(min_length=10, max_length=1000)


class DeviceIn(EndpointIn):
    """A device, and the language its page is in now (its notifications follow)."""

    lang: Literal["sv", "fi", "en"] | None = None


class SettingsIn(_Strict):
    """Which kinds of notification are on (a kind left out keeps its setting)."""

    kinds: dict[Kind, bool]


async def _rate(request: Request, limiter: Limiter) -> None:
    """429 past the client's ``push`` rate (:attr:`yatzy.web.limits.Limits.push`):
    each of these requests writes the store."""
    await limiter.acheck("push", client_of(request.scope))


Rated = Depends(_rate)


_refusals = refusal_table(
    {401: "Not signed in", 403: "Without the CSRF header, or from another origin"}
)


async def _view(push: Notifier, account: Account, endpoint: str | None = None) -> PushView:
    def read() -> PushView:
        off = push.store.off(account.id)
        return {
            "kinds": {k: k not in off for k in KINDS},
            "devices": push.store.count(account.id),
            "most": MOST_DEVICES,
            "this_device": endpoint is not None and push.store.has(account.id, endpoint),
        }

    return await asyncio.to_thread(read)


@router.get("/api/push/key", tags=["push"], response_model=PushKeyView)
async def key(push: Push) -> PushKeyView:
    """The server's VAPID public key, for ``pushManager.subscribe``."""
    return {"key": push.public_key}


@router.get("/api/push", tags=["push"], response_model=PushView, responses=_refusals(401, 503))
async def settings(push: Push, mine: Member) -> PushView:
    """The account's notifications: the kinds on, its devices."""
    return await _view(push, mine)


@router.post(
    "/api/push/device",
    tags=["push"],
    response_model=PushView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked, Rated],
)
async def device(body: DeviceIn, push: Push, mine: Member) -> PushView:
    """:func:`settings`, with whether this device (its endpoint) takes them; with
    ``lang``, the device's notifications are worded in that language from now on (the
    account page says which it is in)."""
    if body.lang is not None:
        await asyncio.to_thread(push.store.set_lang, mine.id, body.endpoint, body.lang)
    return await _view(push, mine, body.endpoint)


@router.post(
    "/api/push/subscribe",
    tags=["push"],
    response_model=PushView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked, Rated],
)
async def subscribe(request: Request, body: SubscribeIn, push: Push, mine: Member) -> PushView:
    """Send the account's notifications to this device from now on (a device
    subscribed by another account before is this one's now; past the most devices an
    account may have, its oldest goes).  422 for an endpoint the server will not post
    to (``https`` on a named host only)."""
    endpoint = check_endpoint(body.endpoint, push.loopback)
    agent = printable(request.headers.get("user-agent", ""))[:200]
    await asyncio.to_thread(
        push.store.subscribe,
        mine.id,
        endpoint,
        body.keys.p256dh,
        body.keys.auth,
        body.lang,
        agent,
        MOST_DEVICES,
    )
    push.known(owner_hash(mine.owner))
    return await _view(push, mine, endpoint)


@router.post(
    "/api/push/unsubscribe",
    tags=["push"],
    response_model=PushView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked, Rated],
)
async def unsubscribe(body: EndpointIn, push: Push, mine: Member) -> PushView:
    """Send nothing more to this device (another account's device is not found:
    nothing changes)."""
    await asyncio.to_thread(push.store.unsubscribe, mine.id, body.endpoint)
    return await _view(push, mine, body.endpoint)


@router.post(
    "/api/push/settings",
    tags=["push"],
    response_model=PushView,
    responses=_refusals(*BODY, 401, 403, 503),
    dependencies=[CsrfChecked, Rated],
)
async def choose(body: SettingsIn, push: Push, mine: Member) -> PushView:
    """Turn kinds of notification on or off for every device of the account."""

    def write() -> None:
        off = push.store.off(mine.id)
        for kind, on in body.kinds.items():
            (off.discard if on else off.add)(kind)
        push.store.set_off(mine.id, off)

    await asyncio.to_thread(write)
    return await _view(push, mine)


_WORKER = (STATIC / "sw.js").read_bytes()


@router.get("/sw.js", include_in_schema=False)
async def service_worker(request: Request) -> Response:
    """The service worker that shows the notifications, from the app's root so that
    its scope is the whole app; never cached long, so a new one is found at once."""
    return Response(
        _WORKER,
        media_type="text/javascript",
        headers={
            "Cache-Control": "no-cache",
            "Service-Worker-Allowed": root_of(request) + "/",
        },
    )
