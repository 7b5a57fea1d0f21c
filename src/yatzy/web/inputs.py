"""Hostile input on the way in: strict JSON, and refusals that can always be sent back.

Python's ``json`` module (which FastAPI parses request bodies with) accepts
``NaN``, ``Infinity`` and ``1e400`` (as infinity) and lone surrogates such as
``"\\ud800"``; FastAPI's validation error then quoted that input, which cannot be
written back as JSON, and the client got a 500.  Here every JSON body is parsed by
orjson, which refuses all of them as invalid JSON (RFC 8259 has none of them), and
every validation error is answered with its place and reason only, never the input.
"""

from __future__ import annotations

from collections.abc import Callable, Coroutine, Mapping, Sequence
from typing import Any

import orjson
from fastapi import Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.routing import APIRoute
from pydantic import BaseModel


class Refusal(BaseModel):
    """Every refusal's body (4xx): the reason in one line, and the error's name."""

    detail: str
    error: str


REFUSALS: dict[int | str, dict[str, Any]] = {
    422: {"model": Refusal, "description": "Invalid input or an illegal action: the reason"},
    429: {"model": Refusal, "description": "Over a rate limit or cap (see Retry-After)"},
}
"""The refusals every route may answer, for the OpenAPI document (FastAPI's own
422 schema describes an error list this app does not send)."""

_REASONS = {
    403: "A seat this request does not hold, or a wrong invite code: the reason",
    404: "No such game: the reason",
    408: "The request body did not arrive in time",
    409: "Not this seat's turn, the game is over, or another action got in first",
    413: "The request body is over the size limit",
    503: "The database is unavailable for now: the reason",
}

BODY = (408, 413)
"""The refusals of a route that reads a body: the body too slow
(:class:`yatzy.web.security.BodyTimeout`) or too large
(:class:`yatzy.web.transport.BodyLimit`), answered before the route runs."""


def refusals(*codes: int) -> dict[int | str, dict[str, Any]]:
    """The OpenAPI ``responses`` of a route that may also refuse with ``codes``
    (403, 404, 408, 409, 413, 503), each a :class:`Refusal`."""
    return {code: {"model": Refusal, "description": _REASONS[code]} for code in codes}


Responses = dict[int | str, dict[str, Any]]
"""A route's OpenAPI ``responses``."""


def refusal_table(words: Mapping[int, str]) -> Callable[..., Responses]:
    """The builder of a router's OpenAPI ``responses``: ``table(*codes)`` is
    :func:`refusals` of the usual codes, then each code that ``words`` names (401,
    403, 409 ... as that router means them), a :class:`Refusal` with its words."""

    def table(*codes: int) -> Responses:
        out = refusals(*(c for c in codes if c not in words))
        for code in codes:
            if code in words:
                out[code] = {"model": Refusal, "description": words[code]}
        return out

    return table


class StrictJSONRequest(Request):
    """A request whose JSON body is parsed by orjson: standard JSON only."""

    async def json(self) -> Any:
        """The body as JSON; :class:`orjson.JSONDecodeError` (a
        :class:`json.JSONDecodeError`, which FastAPI answers as invalid JSON) for
        anything RFC 8259 does not allow."""
        if not hasattr(self, "_json"):
            self._json = orjson.loads(await self.body())
        return self._json


class StrictJSONRoute(APIRoute):
    """An API route that reads its JSON body with :class:`StrictJSONRequest`."""

    def get_route_handler(self) -> Callable[[Request], Coroutine[Any, Any, Response]]:
        """FastAPI's handler, handed a strict request."""
        handler = super().get_route_handler()

        async def strict(request: Request) -> Response:
            return await handler(StrictJSONRequest(request.scope, request.receive))

        return strict


def printable(text: str) -> str:
    """``text`` with every character that is not printable (controls, lone
    surrogates, bidi overrides) escaped as Python would show it: safe to encode as
    UTF-8 JSON and to show on a page or a terminal."""
    if text.isprintable():
        return text
    return "".join(ch if ch.isprintable() else ascii(ch)[1:-1] for ch in text)


def reasons(errors: Sequence[Any]) -> str:
    """A one-line reason from validation errors (pydantic's ``errors()``): where and
    what, for each of the first three faults; the input itself is never quoted."""
    parts = []
    for error in errors[:3]:
        where = ".".join(printable(str(part)) for part in error.get("loc", ()))
        what = printable(str(error.get("msg", "invalid")))
        context = error.get("ctx") or {}
        if error.get("type") == "json_invalid" and "error" in context:
            what = f"{what}: {printable(str(context['error']))}"
        parts.append(f"{where}: {what}" if where else what)
    more = len(errors) - 3
    if more > 0:
        parts.append(f"and {more} more")
    return "; ".join(parts)


async def request_validation_error(_request: Request, exc: Exception) -> JSONResponse:
    """422 with the reason (see :func:`reasons`) for a request that did not validate."""
    assert isinstance(exc, RequestValidationError)
    body = {"detail": reasons(exc.errors()), "error": "ValidationError"}
    return JSONResponse(body, status_code=422)
