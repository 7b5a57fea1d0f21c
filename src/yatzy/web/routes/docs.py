"""The API's documentation page (``/docs``): Swagger UI served by this app.

FastAPI's own page loads Swagger UI from a CDN and starts it with an inline
script; the app's Content-Security-Policy (``script-src 'self'``, see
:mod:`yatzy.web.security`) blocks both, and the page stayed blank.  Here the
assets come from the ``fastapi-offline`` package (it ships swagger-ui-dist's
files) under ``/docs/assets/``, and the page is started by ``static/docs.js``,
so the page works offline and under the policy.
"""

from __future__ import annotations

import html
from importlib.resources import files
from pathlib import Path
from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import FileResponse, HTMLResponse

from yatzy.web.routes.pages import root_of

router = APIRouter(include_in_schema=False)

ASSETS = Path(str(files("fastapi_offline") / "static"))
"""The Swagger UI files (swagger-ui-dist's bundle and style sheet, a favicon)."""

Asset = Literal["swagger-ui-bundle.js", "swagger-ui.css", "favicon.png"]

_PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>{title} – API</title>
<link rel="icon" href="{root}/docs/assets/favicon.png">
<link rel="stylesheet" href="{root}/docs/assets/swagger-ui.css">
</head>
<body data-openapi="{openapi}">
<div id="swagger-ui"></div>
<script src="{root}/docs/assets/swagger-ui-bundle.js"></script>
<script src="{root}/static/docs.js"></script>
</body>
</html>
"""


@router.get("/docs", response_class=HTMLResponse)
async def docs_page(request: Request) -> HTMLResponse:
    """Swagger UI over the app's OpenAPI document, every file from this server."""
    root = html.escape(root_of(request))
    openapi = html.escape(root_of(request) + (request.app.openapi_url or "/openapi.json"))
    title = html.escape(request.app.title)
    return HTMLResponse(_PAGE.format(root=root, openapi=openapi, title=title))


@router.get("/docs/assets/{name}")
async def docs_asset(name: Asset) -> FileResponse:
    """One of Swagger UI's files (cached for a day: they change only with the package)."""
    return FileResponse(ASSETS / name, headers={"Cache-Control": "public, max-age=86400"})
