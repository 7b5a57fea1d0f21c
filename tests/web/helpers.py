"""Shared helpers of the web tests: checking real answers against the response models
the OpenAPI document declares, and people with accounts in one module's app (a browser
per person, signed up, befriended)."""

from __future__ import annotations

import itertools
import warnings
from typing import Any

from pydantic import TypeAdapter

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient


def conforms(model: Any, answer: Any) -> None:
    """``answer`` validates as ``model`` and has no key the model leaves out (a
    TypedDict drops unknown keys: the round trip must give the answer back)."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    assert adapter.dump_python(adapter.validate_python(answer, strict=False)) == answer


class Browser:
    """One browser's cookies on the module's client (a second ``TestClient`` outside
    ``with`` would run each request in an event loop of its own, which PostgreSQL's
    pooled connections cannot outlive)."""

    def __init__(self, client: TestClient) -> None:
        self.client = client
        self.jar: dict[str, str] = {}

    def __enter__(self) -> TestClient:
        self.client.cookies.clear()
        for name, value in self.jar.items():
            self.client.cookies.set(name, value)
        return self.client

    def __exit__(self, *exc: object) -> None:
        self.jar = dict(self.client.cookies.items())
        self.client.cookies.clear()


CSRF = {"X-Yatzy-CSRF": "1"}
"""The header every state-changing request of the web client sends."""

_count = itertools.count()


def fresh_name(base: str = "Anna") -> str:
    """A name no earlier test of the process took."""
    return f"{base}{next(_count)}"


def person(client: TestClient, base: str = "Pia") -> tuple[Browser, str]:
    """A new browser signed up as a new account, and the account's name."""
    browser = Browser(client)
    name = fresh_name(base)
    with browser as c:
        r = c.post(
            "/api/account/signup", json={"name": name, "password": "pw pw pw pw"}, headers=CSRF
        )
        assert r.status_code == 201, r.text
    return browser, name


def post(browser: Browser, path: str, body: Any = None, **kw: Any) -> Any:
    """POST ``body`` (JSON, ``{}`` by default) with the CSRF header from ``browser``."""
    with browser as c:
        return c.post(path, json=body if body is not None else {}, headers=CSRF, **kw)


def get(browser: Browser, path: str) -> Any:
    """GET ``path`` from ``browser``."""
    with browser as c:
        return c.get(path)


def befriend(a: Browser, a_name: str, b: Browser, b_name: str) -> None:
    """Make the two accounts friends: ``a`` asks, ``b`` accepts."""
    assert post(a, "/api/friends/request", {"name": b_name}).status_code == 200
    assert post(b, "/api/friends/accept", {"name": a_name}).status_code == 200
