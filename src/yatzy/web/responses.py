"""Answers and cookies shared by the routes, the action fast path and the WebSocket:
the JSON response class, refusals and their HTTP status, and the seat and owner
cookies."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import orjson
from fastapi.responses import JSONResponse, Response
from starlette.requests import HTTPConnection

from yatzy.errors import GameOverError, NotYourTurnError, SpecError, YatzyError
from yatzy.game.fair_dice import ContributionsClosedError
from yatzy.store import ConflictError, NotFoundError, UnavailableError
from yatzy.store.daily import AlreadyEnteredError
from yatzy.web.bodies import ActionIn
from yatzy.web.daily import NotPlayedYetError
from yatzy.web.jobs import Busy
from yatzy.web.limits import (
    RateLimitedError,
    TooManyGamesError,
    TooManySocketsError,
    retry_after,
)
from yatzy.web.service import InviteError, NothingWaitsError, SeatError

OWNER_COOKIE = "yz_owner"
COOKIE_AGE = 400 * 24 * 3600
SEAT_DIGITS = 2
"""The most digits a seat number may have where a client names one (seats are 0-7)."""


class SeatTokenError(YatzyError):
    """An ``X-Seat-Token`` header that is not ``<seat>:<token>[, ...]`` with seat numbers."""


class FastJSONResponse(JSONResponse):
    """JSON through orjson: the game views are the bulk of every answer, and orjson
    encodes them several times faster than the standard library (same JSON text:
    UTF-8, no NaN, keys in order)."""

    def render(self, content: Any) -> bytes:
        """``content`` as compact UTF-8 JSON."""
        return orjson.dumps(content)


def refusal(exc: Exception) -> dict[str, Any]:
    """The body of every refusal: the reason and the error's name; a rules spec's
    refusal also names the options it concerns (``options``: their ids), so that a
    page can say it with the options' names as it writes them."""
    body: dict[str, Any] = {"detail": str(exc), "error": type(exc).__name__}
    if isinstance(exc, SpecError):
        body["options"] = list(exc.options)
    return body


BUSY_RETRY = 30
"""Seconds a client told "busy" (503, a full job queue) is asked to wait."""


def error_response(status: int, exc: Exception) -> JSONResponse:
    """The refusal of ``exc`` with ``status`` (and ``Retry-After`` with every 429 and
    every "busy" 503)."""
    headers = None
    if status == 429:
        wait = retry_after(exc) if isinstance(exc, RateLimitedError) else "1"
        headers = {"Retry-After": wait}
    elif status == 503 and isinstance(exc, Busy):
        headers = {"Retry-After": str(BUSY_RETRY)}  # a queue of jobs drains in about that
    return FastJSONResponse(refusal(exc), status_code=status, headers=headers)


def status_of(exc: YatzyError) -> int:
    """The HTTP status a refusal gets: its own ``http_status`` where it names one
    (the account routes' refusals), else 404, 403, 503, 429, 409, else 422."""
    own = getattr(exc, "http_status", None)
    if isinstance(own, int):
        return own
    if isinstance(exc, NotFoundError):
        return 404
    if isinstance(exc, SeatError | InviteError | NotPlayedYetError):
        return 403
    if isinstance(exc, UnavailableError | Busy):
        return 503
    if isinstance(exc, RateLimitedError | TooManyGamesError | TooManySocketsError):
        return 429
    if isinstance(
        exc,
        ConflictError
        | GameOverError
        | NotYourTurnError
        | NothingWaitsError
        | ContributionsClosedError
        | AlreadyEnteredError,
    ):
        return 409
    return 422


def tokens_of(request: HTTPConnection, game_id: str) -> dict[int, str]:
    """The seat tokens of ``game_id`` that a request or socket holds (see :func:`seat_tokens`)."""
    return seat_tokens(request.cookies, request.headers.get("x-seat-token"), game_id)


def seat_number(text: str) -> int | None:
    """``text`` as a seat number if it is 1 to :data:`SEAT_DIGITS` ASCII digits, else None."""
    # str.isdigit() alone takes "²" and "١" (which int() refuses or reads) and any
    # number of digits (int() refuses 4,300 and more): ASCII and short only.
    if 0 < len(text) <= SEAT_DIGITS and text.isascii() and text.isdigit():
        return int(text)
    return None


def seat_tokens(cookies: Mapping[str, str], header: str | None, game_id: str) -> dict[int, str]:
    """The seat tokens a request holds: cookies ``yz_<game>_<seat>`` and the
    ``X-Seat-Token: <seat>:<token>[, ...]`` header.

    A cookie whose name does not end in a seat number is not one of ours and is
    ignored; a header part whose seat is not a number of up to :data:`SEAT_DIGITS`
    ASCII digits is refused (:class:`SeatTokenError`, 422), quoting the seat."""
    prefix = f"yz_{game_id}_"
    out: dict[int, str] = {}
    for name, value in cookies.items():
        if name.startswith(prefix):
            seat = seat_number(name[len(prefix) :])
            if seat is not None:
                out[seat] = value
    if header:
        for part in header.split(","):
            text, _, token = part.strip().partition(":")
            if not text and not token:
                continue  # an empty part: "0:a," or ", 1:b"
            seat = seat_number(text)
            if seat is None:
                # the seat quoted, not the token (a secret, maybe someone else's)
                shown = text if len(text) <= 20 else text[:20] + "..."
                raise SeatTokenError(
                    f"X-Seat-Token seat {shown!r} is not a seat number (1-{SEAT_DIGITS} "
                    "digits 0-9); the header is <seat>:<token>[, <seat>:<token>...]"
                )
            if token:
                out[seat] = token
    return out


def set_cookie(response: Response, name: str, value: str, secure: bool, path: str = "/") -> None:
    """Set a long-lived HttpOnly, SameSite=Strict cookie (``Secure`` when ``secure``)."""
    response.set_cookie(
        name, value, max_age=COOKIE_AGE, httponly=True, samesite="strict", secure=secure, path=path
    )


def set_seat_cookie(
    response: Response, game_id: str, seat: int, token: str, secure: bool, root: str = ""
) -> None:
    """Set the cookie that holds ``seat`` of ``game_id`` for this browser."""
    # Scoped to the game's API (under the app's path prefix, ``root``): a browser sends
    # it only there, so the cookies of all the games it ever played do not ride along
    # with every request.
    path = f"{root}/api/games/{game_id}"
    set_cookie(response, f"yz_{game_id}_{seat}", token, secure, path=path)


def action_json(action: ActionIn) -> dict[str, Any]:
    """An action body as the service takes it (fields left out are not sent)."""
    return action.model_dump(exclude_none=True)
