"""Checking real answers against the response models the OpenAPI document declares."""

from __future__ import annotations

from typing import Any

from pydantic import TypeAdapter


def conforms(model: Any, answer: Any) -> None:
    """``answer`` validates as ``model`` and has no key the model leaves out (a
    TypedDict drops unknown keys: the round trip must give the answer back)."""
    adapter: TypeAdapter[Any] = TypeAdapter(model)
    assert adapter.dump_python(adapter.validate_python(answer, strict=False)) == answer
