"""Checking real answers against the response models the OpenAPI document declares."""

from __future__ import annotations

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
