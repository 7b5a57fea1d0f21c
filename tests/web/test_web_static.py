"""Static files: compressed, cached for a year under a content-versioned path, and the
pages that name them never cached long (issue 24)."""

from __future__ import annotations

import gzip
import re
import warnings
from collections.abc import Iterator

import pytest

with warnings.catch_warnings():
    warnings.simplefilter("ignore")  # starlette's note about httpx2
    from fastapi.testclient import TestClient

from yatzy.web.app import create_app
from yatzy.web.assets import STATIC, static_prefix, static_version


@pytest.fixture(scope="module")
def app_client(sqlite_url: str) -> Iterator[TestClient]:
    with TestClient(create_app(sqlite_url, bot_delay=0.0)) as client:
        yield client


def _raw(client: TestClient, path: str, **headers: str) -> tuple[int, dict[str, str], bytes]:
    """Status, headers and the body as sent (not decompressed)."""
    with client.stream("GET", path, headers=headers) as r:
        body = b"".join(r.iter_raw())
        return r.status_code, dict(r.headers), body


def test_pages_name_the_versioned_static_files_and_are_not_cached(client: TestClient) -> None:
    page = client.get("/")
    assert page.headers["cache-control"] == "no-cache"
    linked = re.findall(r'(?:src|href)="(static/[^"]+)"', page.text)
    assert linked and all(p.startswith(static_prefix() + "/") for p in linked), linked


def test_versioned_files_are_gzipped_and_immutable(client: TestClient) -> None:
    for name in ("game.js", "game-net.js", "app.css"):
        status, headers, body = _raw(
            client, f"/{static_prefix()}/{name}", **{"Accept-Encoding": "gzip"}
        )
        assert status == 200
        assert headers["content-encoding"] == "gzip"
        assert "immutable" in headers["cache-control"]
        assert "max-age=31536000" in headers["cache-control"]
        assert gzip.decompress(body) == (STATIC / name).read_bytes()
        assert len(body) < (STATIC / name).stat().st_size


def test_plain_static_files_are_revalidated_and_old_versions_are_gone(
    client: TestClient,
) -> None:
    first = client.get("/static/app.css")
    assert first.headers["cache-control"] == "no-cache" and "etag" in first.headers
    again = client.get("/static/app.css", headers={"If-None-Match": first.headers["etag"]})
    assert again.status_code == 304
    assert client.get("/static/v-000000000000/app.css").status_code == 404
    assert len(static_version()) == 12
