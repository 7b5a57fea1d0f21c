"""The app's static files (scripts, styles, icons): compressed and cached.

Every page links them under ``static/v-<digest>/``, where the digest is a hash of all
their contents: those URLs never change their content, so browsers keep them for a
year without asking again (``immutable``), and a new version of any file gives every
page new URLs.  The ES modules import each other by relative paths, so one prefix
for the whole folder versions them all (a hash per file name would need a build
step to rewrite the imports).  The same files stay under plain ``static/`` (the web
manifest's icons, ``/docs``), revalidated on every use.  Text is sent gzipped
(Starlette's :class:`GZipMiddleware`, to the browsers that accept it); the pages
themselves are never cached long (``Cache-Control: no-cache``, set by the pages).
"""

from __future__ import annotations

import hashlib
from functools import cache
from os import PathLike, stat_result
from pathlib import Path

from starlette.middleware.gzip import GZipMiddleware
from starlette.responses import Response
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Scope

STATIC = Path(__file__).parent / "static"
IMMUTABLE = "public, max-age=31536000, immutable"
REVALIDATE = "no-cache"
COMPRESS_FROM = 500
"""Bytes from which a response is compressed (smaller ones gain nothing)."""


@cache
def static_version(folder: Path = STATIC) -> str:
    """A digest of every file under ``folder`` (names and contents): 12 hex digits."""
    h = hashlib.sha256()
    for path in sorted(p for p in folder.rglob("*") if p.is_file()):
        h.update(path.relative_to(folder).as_posix().encode() + b"\0")
        h.update(path.read_bytes() + b"\0")
    return h.hexdigest()[:12]


def static_prefix() -> str:
    """The pages' path of the static files, relative to the app's root:
    ``static/v-<digest>``."""
    return f"static/v-{static_version()}"


class CachedStatic(StaticFiles):
    """:class:`StaticFiles` whose answers (and 304s) carry ``Cache-Control``."""

    def __init__(self, directory: Path, cache_control: str) -> None:
        super().__init__(directory=str(directory))
        self.cache_control = cache_control

    def file_response(
        self,
        full_path: PathLike[str] | str,
        stat_result: stat_result,
        scope: Scope,
        status_code: int = 200,
    ) -> Response:
        """The file (or 304) with this folder's ``Cache-Control``."""
        response = super().file_response(full_path, stat_result, scope, status_code)
        response.headers["Cache-Control"] = self.cache_control
        return response


def static_apps() -> list[tuple[str, ASGIApp]]:
    """The mounts of the static files, the versioned one first: (path, ASGI app)."""
    return [
        (
            "/" + static_prefix(),
            GZipMiddleware(CachedStatic(STATIC, IMMUTABLE), minimum_size=COMPRESS_FROM),
        ),
        ("/static", GZipMiddleware(CachedStatic(STATIC, REVALIDATE), minimum_size=COMPRESS_FROM)),
    ]
